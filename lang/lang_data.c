/* lang_data: the Dataset, Vocab, DataLoader and Batch types and the data
 * and io builtin families (lang_data_builtins, lang_io_builtins in
 * lang_builtins.h): built-in datasets with plantable bugs, splits, a
 * DataLoader in torch.utils.data's shape, and save/load of tensors, modules
 * and dicts as safetensors or .npy. Owned by the nn/data binding engineer;
 * see docs/language-nn.md.
 *
 * Bugs are planted with one keyword on every dataset function, bugs=[names]
 * (or one name), with the bug's parameters as further keywords
 * (nan_row=7, relabel_from=0, ...); ds.plant(...) takes the same keywords to
 * break a dataset after a split (only the train part, say).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_eval.h" /* lang_tuple_pack, lang_getitem, lang_iter, dict layout */
#include "lang_generator.h"
#include "lang_loader.h"
#include "lang_nn.h"
#include "lang_tensor.h"
#include "lang_vm.h"
#include "nn_data.h"
#include "nn_io.h"
#include "nn_random.h"
#include "nn_text.h"

static nn_ctx *CTX(lang_vm *vm) {
    return lang_vm_ctx(vm);
}

static bool arg_str(lang_vm *vm, lang_val v, const char *what, const char **out) {
    if (!lang_is_obj(v, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s must be a str, not %s", what, lang_type_name(v));
    *out = lang_str_cstr(v);
    return true;
}

/* A tensor value for [t] (borrowed; None when NULL). */
static bool tensor_or_none(lang_vm *vm, nn_tensor *t, lang_val *out) {
    if (!t) {
        *out = lang_none();
        return true;
    }
    return lang_tensor_new(vm, nn_tensor_retain(t), out);
}

/* ------------------------------------------------------------------ bugs */

static const struct {
    const char *name;
    unsigned flag;
} bug_names[] = {
    {"shuffled_labels", NN_DATA_BUG_SHUFFLED_LABELS},
    {"off_by_one", NN_DATA_BUG_OFF_BY_ONE},
    {"relabel", NN_DATA_BUG_RELABEL},
    {"leakage", NN_DATA_BUG_LEAKAGE},
    {"unnormalised", NN_DATA_BUG_UNNORMALISED},
    {"unnormalized", NN_DATA_BUG_UNNORMALISED},
    {"zero_inputs", NN_DATA_BUG_ZERO_INPUTS},
    {"transposed", NN_DATA_BUG_TRANSPOSED},
    {"all_padding", NN_DATA_BUG_ALL_PADDING},
    {"nan", NN_DATA_BUG_NAN},
};
#define N_BUG_NAMES ((int)(sizeof bug_names / sizeof bug_names[0]))

/* The bug keywords every dataset function and ds.plant() take. */
typedef struct bug_args {
    lang_val bugs, seed, relabel_from, relabel_to, leak_fraction, scale_column, scale, nan_row,
        nan_col, padding_fraction;
} bug_args;

#define BUG_SPEC_PARAMS                                                                            \
    "bug_seed,relabel_from,relabel_to,leak_fraction,scale_column,scale,nan_row,nan_col,"           \
    "padding_fraction"
#define BUG_SPEC "bugs," BUG_SPEC_PARAMS
#define BUG_PTRS(b)                                                                                \
    &(b).bugs, &(b).seed, &(b).relabel_from, &(b).relabel_to, &(b).leak_fraction,                  \
        &(b).scale_column, &(b).scale, &(b).nan_row, &(b).nan_col, &(b).padding_fraction

static void bug_args_init(bug_args *b) {
    lang_val n = lang_none();
    *b = (bug_args){n, n, n, n, n, n, n, n, n, n};
}

static bool bug_flag(lang_vm *vm, lang_val v, unsigned *flags) {
    const char *s = "";
    if (!arg_str(vm, v, "a bug name", &s)) return false;
    for (int i = 0; i < N_BUG_NAMES; i++)
        if (!strcmp(bug_names[i].name, s)) {
            *flags |= bug_names[i].flag;
            return true;
        }
    return lang_raise(vm, LANG_ERR_VALUE,
                      "unknown bug '%s': the bugs are 'shuffled_labels', 'off_by_one', 'relabel', "
                      "'leakage', 'unnormalised', 'zero_inputs', 'transposed', 'all_padding', "
                      "'nan'",
                      s);
}

/* Read the bug keywords; *any false when no bug was asked for. A parameter
 * without its bug is an error, so a typo does not pass silently. */
static bool bug_args_read(lang_vm *vm, const bug_args *b, nn_data_bugs *out, bool *any) {
    unsigned flags = 0;
    if (b->bugs.kind != LANG_NONE) {
        if (lang_is_obj(b->bugs, &lang_str_type)) {
            if (!bug_flag(vm, b->bugs, &flags)) return false;
        } else if (lang_is_obj(b->bugs, &lang_list_type) ||
                   lang_is_obj(b->bugs, &lang_tuple_type)) {
            for (int64_t i = 0; i < lang_seq_len(b->bugs); i++)
                if (!bug_flag(vm, lang_seq_items(b->bugs)[i], &flags)) return false;
        } else {
            return lang_raise(vm, LANG_ERR_TYPE, "bugs must be a list of bug names, not %s",
                              lang_type_name(b->bugs));
        }
    }
    *out = nn_data_bugs_init(flags);
    *any = flags != 0;
    struct {
        lang_val v;
        const char *name;
        unsigned needs;
    } params[] = {
        {b->relabel_from, "relabel_from", NN_DATA_BUG_RELABEL},
        {b->relabel_to, "relabel_to", NN_DATA_BUG_RELABEL},
        {b->leak_fraction, "leak_fraction", NN_DATA_BUG_LEAKAGE},
        {b->scale_column, "scale_column", NN_DATA_BUG_UNNORMALISED},
        {b->scale, "scale", NN_DATA_BUG_UNNORMALISED},
        {b->nan_row, "nan_row", NN_DATA_BUG_NAN},
        {b->nan_col, "nan_col", NN_DATA_BUG_NAN},
        {b->padding_fraction, "padding_fraction", NN_DATA_BUG_ALL_PADDING},
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if (params[i].v.kind != LANG_NONE && !(flags & params[i].needs))
            return lang_raise(vm, LANG_ERR_VALUE,
                              "%s= is a parameter of the '%s' bug, which "
                              "bugs= does not list",
                              params[i].name, nn_data_bug_name(params[i].needs));
    int64_t seed = 0;
    if (b->seed.kind != LANG_NONE) {
        if (!lang_to_int(vm, b->seed, "bug_seed", &seed)) return false;
        out->seed = (uint64_t)seed;
    }
    if ((b->relabel_from.kind != LANG_NONE &&
         !lang_to_int(vm, b->relabel_from, "relabel_from", &out->relabel_from)) ||
        (b->relabel_to.kind != LANG_NONE &&
         !lang_to_int(vm, b->relabel_to, "relabel_to", &out->relabel_to)) ||
        (b->leak_fraction.kind != LANG_NONE &&
         !lang_to_float(vm, b->leak_fraction, "leak_fraction", &out->leak_fraction)) ||
        (b->scale_column.kind != LANG_NONE &&
         !lang_to_int(vm, b->scale_column, "scale_column", &out->scale_column)) ||
        (b->scale.kind != LANG_NONE && !lang_to_float(vm, b->scale, "scale", &out->scale)) ||
        (b->nan_row.kind != LANG_NONE && !lang_to_int(vm, b->nan_row, "nan_row", &out->nan_row)) ||
        (b->nan_col.kind != LANG_NONE && !lang_to_int(vm, b->nan_col, "nan_col", &out->nan_col)) ||
        (b->padding_fraction.kind != LANG_NONE &&
         !lang_to_float(vm, b->padding_fraction, "padding_fraction", &out->padding_fraction)))
        return false;
    return true;
}

/* ------------------------------------------------------------------ Vocab */

typedef struct vocab_obj {
    lang_obj hdr;
    nn_vocab *v;
} vocab_obj;

static const lang_type vocab_type;

static void vocab_free(lang_obj *o) {
    nn_vocab_release(((vocab_obj *)o)->v);
}

static bool vocab_wrap(lang_vm *vm, nn_vocab *v, lang_val *out) {
    if (!v) {
        *out = lang_none();
        return true;
    }
    vocab_obj *vo = lang_obj_new(vm, &vocab_type, sizeof *vo);
    if (!vo) return false;
    vo->v = nn_vocab_retain(v);
    *out = lang_obj_val(&vo->hdr);
    return true;
}

static bool vocab_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    nn_vocab *v = ((vocab_obj *)o)->v;
    int64_t n = nn_vocab_size(v);
    lang_buf chars;
    lang_buf_init(&chars);
    for (int64_t i = 0; i < n && i < 100; i++) lang_buf_puts(&chars, nn_vocab_itos(v, i));
    if (n > 100) lang_buf_puts(&chars, "...");
    lang_val s;
    bool ok = lang_str_new(vm, chars.data ? chars.data : "", chars.len, &s);
    lang_buf_free(&chars);
    if (!ok) return false;
    lang_buf_printf(out, "Vocab(size=%lld, chars=", (long long)n);
    ok = lang_repr(vm, s, out);
    lang_val_release(s);
    lang_buf_puts(out, ")");
    return ok;
}

static bool vocab_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = nn_vocab_size(((vocab_obj *)o)->v);
    return true;
}

static bool vocab_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    nn_vocab *v = ((vocab_obj *)o)->v;
    int64_t n = nn_vocab_size(v);
    *found = true;
    if (!strcmp(name, "size")) {
        *out = lang_int(n);
        return true;
    }
    bool itos = !strcmp(name, "itos");
    if (!itos && strcmp(name, "stoi")) {
        *found = false;
        return true;
    }
    /* makemore's dicts: itos {id: char}, stoi {char: id}. */
    if (!lang_dict_new(vm, out)) return false;
    for (int64_t i = 0; i < n; i++) {
        lang_val s;
        if (!lang_str_from_cstr(vm, nn_vocab_itos(v, i), &s)) goto fail;
        bool ok = itos ? lang_dict_set(vm, *out, lang_int(i), s)
                       : lang_dict_set(vm, *out, s, lang_int(i));
        lang_val_release(s);
        if (!ok) goto fail;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static const char *const vocab_field_names[] = {"size", "itos", "stoi", NULL};
static const char *const *vocab_fields(lang_obj *o) {
    return vocab_field_names;
}

static bool m_encode(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val sv;
    const char *s = "";
    if (!lang_parse_args(vm, a, "encode", "text", &sv) || !arg_str(vm, sv, "text", &s))
        return false;
    nn_tensor *t = nn_vocab_encode(CTX(vm), ((vocab_obj *)self.u.o)->v, s);
    if (!t) return lang_raise_engine(vm);
    return lang_tensor_new(vm, t, out);
}

static bool m_decode(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val iv;
    if (!lang_parse_args(vm, a, "decode", "ids", &iv)) return false;
    nn_tensor *t;
    if (!lang_to_tensor(vm, iv, "ids", &t)) return false;
    char *s = NULL;
    if (nn_dtype_is_float(t->dtype)) {
        nn_tensor_release(t);
        return lang_raise(vm, LANG_ERR_TYPE, "decode() expects integer ids, not floats");
    }
    s = nn_vocab_decode(CTX(vm), ((vocab_obj *)self.u.o)->v, t);
    nn_tensor_release(t);
    if (!s) return lang_raise_engine(vm);
    bool ok = lang_str_from_cstr(vm, s, out);
    free(s);
    return ok;
}

static const lang_method vocab_methods[] = {
    {"encode",
     m_encode,
     {"Vocab.encode", "encode(text)",
      "The ids of the characters of [text] as an int64 tensor; a character the vocabulary lacks "
      "is a ValueError naming it.",
      "ds.vocab.encode('emma')"}},
    {"decode",
     m_decode,
     {"Vocab.decode", "decode(ids)", "The text of integer ids (a tensor, a list or an int).",
      "ds.vocab.decode(ds.x[0])"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help vocab_help = {
    "Vocab", "ds.vocab",
    "The character vocabulary of a text dataset: encode(text), decode(ids), size (also len()), "
    "itos (dict id -> char) and stoi (dict char -> id), as in makemore.",
    "v = words().vocab; v.decode(v.encode('hello'))"};

static const lang_type vocab_type = {
    .name = "Vocab",
    .free = vocab_free,
    .repr = vocab_repr,
    .getattr = vocab_getattr,
    .len = vocab_len,
    .fields = vocab_fields,
    .methods = vocab_methods,
    .help = &vocab_help,
};

/* ------------------------------------------------------------------ Dataset */

typedef struct dataset_obj {
    lang_obj hdr;
    nn_dataset *ds;
    /* Cached so that ds.x is ds.x. */
    lang_val x, y, mask;
} dataset_obj;

static const lang_type dataset_type;

static void dataset_free(lang_obj *o) {
    dataset_obj *d = (dataset_obj *)o;
    lang_val_release(d->x);
    lang_val_release(d->y);
    lang_val_release(d->mask);
    nn_data_free(d->ds);
}

/* Wrap [ds], taking it over (freed on failure). */
static bool dataset_wrap(lang_vm *vm, nn_dataset *ds, lang_val *out) {
    if (!ds) return lang_raise_engine(vm);
    dataset_obj *d = lang_obj_new(vm, &dataset_type, sizeof *d);
    if (!d) {
        nn_data_free(ds);
        return false;
    }
    d->ds = ds;
    d->x = d->y = d->mask = lang_none();
    *out = lang_obj_val(&d->hdr);
    return true;
}

#define DS(v) (((dataset_obj *)(v).u.o)->ds)

static bool bug_list(lang_vm *vm, unsigned flags, lang_val *out) {
    if (!lang_list_new(vm, 0, out)) return false;
    for (int i = 0; i < N_BUG_NAMES; i++) {
        if (!(flags & bug_names[i].flag) || !strcmp(bug_names[i].name, "unnormalized")) continue;
        lang_val s;
        if (!lang_str_from_cstr(vm, bug_names[i].name, &s)) goto fail;
        bool ok = lang_list_append(vm, *out, s);
        lang_val_release(s);
        if (!ok) goto fail;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static void shape_dtype(lang_buf *b, const nn_tensor *t) {
    char s[128];
    nn_tensor_shape_str(t, s, sizeof s);
    lang_buf_printf(b, "%s %s", s, nn_dtype_name(t->dtype));
}

static bool dataset_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    nn_dataset *ds = ((dataset_obj *)o)->ds;
    lang_buf_printf(out, "Dataset('%s', n=%lld, x=", ds->name, (long long)ds->n);
    shape_dtype(out, ds->x);
    lang_buf_puts(out, ", y=");
    shape_dtype(out, ds->y);
    if (ds->mask) lang_buf_puts(out, ", mask");
    if (ds->num_classes) lang_buf_printf(out, ", num_classes=%lld", (long long)ds->num_classes);
    if (ds->bugs.flags) {
        lang_val l;
        if (!bug_list(vm, ds->bugs.flags, &l)) return false;
        lang_buf_puts(out, ", bugs=");
        bool ok = lang_repr(vm, l, out);
        lang_val_release(l);
        if (!ok) return false;
    }
    lang_buf_puts(out, ")");
    return true;
}

static bool dataset_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = ((dataset_obj *)o)->ds->n;
    return true;
}

static bool cached_tensor(lang_vm *vm, lang_val *slot, nn_tensor *t, lang_val *out) {
    if (slot->kind == LANG_NONE && t && !tensor_or_none(vm, t, slot)) return false;
    *out = lang_val_retain(*slot);
    return true;
}

static bool dataset_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                            bool *found) {
    dataset_obj *d = (dataset_obj *)o;
    nn_dataset *ds = d->ds;
    *found = true;
    if (!strcmp(name, "x")) return cached_tensor(vm, &d->x, ds->x, out);
    if (!strcmp(name, "y")) return cached_tensor(vm, &d->y, ds->y, out);
    if (!strcmp(name, "mask")) return cached_tensor(vm, &d->mask, ds->mask, out);
    if (!strcmp(name, "n")) return *out = lang_int(ds->n), true;
    if (!strcmp(name, "num_classes")) return *out = lang_int(ds->num_classes), true;
    if (!strcmp(name, "name")) return lang_str_from_cstr(vm, ds->name, out);
    if (!strcmp(name, "description")) return lang_str_from_cstr(vm, ds->description, out);
    if (!strcmp(name, "vocab")) return vocab_wrap(vm, ds->vocab, out);
    if (!strcmp(name, "bugs")) return bug_list(vm, ds->bugs.flags, out);
    if (!strcmp(name, "true_w")) return tensor_or_none(vm, ds->true_w, out);
    if (!strcmp(name, "true_b")) return tensor_or_none(vm, ds->true_b, out);
    if (!strcmp(name, "nan_row"))
        return *out = ds->nan_row >= 0 ? lang_int(ds->nan_row) : lang_none(), true;
    if (!strcmp(name, "nan_col"))
        return *out = ds->nan_row >= 0 ? lang_int(ds->nan_col) : lang_none(), true;
    if (!strcmp(name, "padded_rows")) return tensor_or_none(vm, ds->padded_rows, out);
    if (!strcmp(name, "leaked_rows")) return tensor_or_none(vm, ds->leaked_rows, out);
    if (!strcmp(name, "leaked_from")) return tensor_or_none(vm, ds->leaked_from, out);
    *found = false;
    return true;
}

static const char *const dataset_field_names[] = {
    "x",           "y",           "mask",        "n",           "num_classes", "name",
    "description", "vocab",       "bugs",        "true_w",      "true_b",      "nan_row",
    "nan_col",     "padded_rows", "leaked_rows", "leaked_from", NULL};
static const char *const *dataset_fields(lang_obj *o) {
    return dataset_field_names;
}

/* ds[i]: the sample (x[i], y[i]), as a torch Dataset's __getitem__. */
static bool dataset_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    dataset_obj *d = (dataset_obj *)o;
    if (key.kind != LANG_INT)
        return lang_raise(vm, LANG_ERR_TYPE, "Dataset indices must be integers, not %s",
                          lang_type_name(key));
    int64_t n = d->ds->n, i = key.u.i;
    if (i < -n || i >= n)
        return lang_raise(vm, LANG_ERR_INDEX, "index %lld is out of range for a dataset of %lld",
                          (long long)i, (long long)n);
    lang_val xv, yv, items[2];
    if (!cached_tensor(vm, &d->x, d->ds->x, &xv)) return false;
    if (!cached_tensor(vm, &d->y, d->ds->y, &yv)) {
        lang_val_release(xv);
        return false;
    }
    bool ok = lang_getitem(vm, xv, key, &items[0]);
    if (ok) {
        ok = lang_getitem(vm, yv, key, &items[1]);
        if (ok) {
            ok = lang_tuple_pack(vm, 2, items, out);
            lang_val_release(items[1]);
        }
        lang_val_release(items[0]);
    }
    lang_val_release(xv);
    lang_val_release(yv);
    return ok;
}

/* Iterating a dataset gives its samples in order. */
typedef struct dsiter_obj {
    lang_obj hdr;
    lang_val ds;
    int64_t i;
} dsiter_obj;

static void dsiter_free(lang_obj *o) {
    lang_val_release(((dsiter_obj *)o)->ds);
}

static bool dsiter_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    dsiter_obj *it = (dsiter_obj *)o;
    if (it->i >= DS(it->ds)->n) {
        *done = true;
        return true;
    }
    *done = false;
    return dataset_getitem(vm, it->ds.u.o, lang_int(it->i++), out);
}

static bool dsiter_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    *out = lang_val_retain(lang_obj_val(o));
    return true;
}

static const lang_type dsiter_type = {
    .name = "dataset_iterator",
    .free = dsiter_free,
    .iter = dsiter_iter,
    .next = dsiter_next,
};

static bool dataset_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    dsiter_obj *it = lang_obj_new(vm, &dsiter_type, sizeof *it);
    if (!it) return false;
    it->ds = lang_val_retain(lang_obj_val(o));
    it->i = 0;
    *out = lang_obj_val(&it->hdr);
    return true;
}

static bool dataset_display(lang_vm *vm, lang_obj *o, lang_mime *out) {
    lang_buf t;
    lang_buf_init(&t);
    if (!dataset_repr(vm, o, &t)) {
        lang_buf_free(&t);
        return false;
    }
    lang_mime_add(out, "text/plain", lang_buf_take(&t));
    lang_buf h;
    lang_buf_init(&h);
    lang_buf_puts(&h, "<pre>");
    for (const char *s = ((dataset_obj *)o)->ds->description; *s; s++) {
        if (*s == '<')
            lang_buf_puts(&h, "&lt;");
        else if (*s == '>')
            lang_buf_puts(&h, "&gt;");
        else if (*s == '&')
            lang_buf_puts(&h, "&amp;");
        else
            lang_buf_add(&h, s, 1);
    }
    lang_buf_puts(&h, "</pre>");
    lang_mime_add(out, "text/html", lang_buf_take(&h));
    return true;
}

static bool m_split(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val tv = lang_float(0.8), vv = lang_float(0.1), sv = lang_int(0);
    double tf, vf;
    int64_t seed;
    if (!lang_parse_args(vm, a, "split", "|train,val,seed", &tv, &vv, &sv) ||
        !lang_to_float(vm, tv, "train", &tf) || !lang_to_float(vm, vv, "val", &vf) ||
        !lang_to_int(vm, sv, "seed", &seed))
        return false;
    nn_dataset *parts[3] = {NULL, NULL, NULL};
    if (nn_data_split(CTX(vm), DS(self), tf, vf, (uint64_t)seed, &parts[0], &parts[1], &parts[2]) !=
        NN_OK)
        return lang_raise_engine(vm);
    lang_val vals[3];
    int made = 0;
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        if (ok && dataset_wrap(vm, parts[i], &vals[i]))
            made++;
        else {
            if (ok)
                ok = false;
            else
                nn_data_free(parts[i]);
        }
    }
    if (ok) ok = lang_tuple_pack(vm, 3, vals, out);
    for (int i = 0; i < made; i++) lang_val_release(vals[i]);
    return ok;
}

static bool m_plant(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    bug_args b;
    bug_args_init(&b);
    if (!lang_parse_args(vm, a, "plant", "bugs|" BUG_SPEC_PARAMS, BUG_PTRS(b))) return false;
    nn_data_bugs bugs;
    bool any;
    if (!bug_args_read(vm, &b, &bugs, &any)) return false;
    if (!any) return lang_raise(vm, LANG_ERR_VALUE, "plant() needs bugs=[...], at least one name");
    return dataset_wrap(vm, nn_data_plant(CTX(vm), DS(self), &bugs), out);
}

static bool m_subset(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val iv;
    if (!lang_parse_args(vm, a, "subset", "indices", &iv)) return false;
    nn_tensor *t;
    if (!lang_to_tensor(vm, iv, "indices", &t)) return false;
    if (t->dtype != NN_INT64 || t->ndim > 1) {
        nn_tensor_release(t);
        return lang_raise(vm, LANG_ERR_TYPE, "subset() expects a list or 1-d int64 tensor of rows");
    }
    int64_t k = nn_tensor_numel(t);
    int64_t *idx = malloc(sizeof *idx * (size_t)(k ? k : 1));
    if (!idx) {
        nn_tensor_release(t);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int64_t i = 0; i < k; i++) idx[i] = (int64_t)nn_tensor_get_flat(t, i);
    nn_tensor_release(t);
    /* The engine keeps NN_DATA_NAME_MAX bytes of the name. */
    char name[NN_DATA_NAME_MAX + 16];
    snprintf(name, sizeof name, "%.*s[subset]", NN_DATA_NAME_MAX - 16, DS(self)->name);
    nn_dataset *s = nn_data_subset(CTX(vm), DS(self), idx, k, name);
    free(idx);
    return dataset_wrap(vm, s, out);
}

static const lang_method dataset_methods[] = {
    {"split",
     m_split,
     {"Dataset.split", "split(train=0.8, val=0.1, seed=0)",
      "Permute the rows with [seed] and cut them into (train, val, test) datasets: round(train * "
      "n) rows, round(val * n) rows, and the rest. Planted bugs follow their rows; a dataset with "
      "the 'leakage' bug copies some val rows into train here.",
      "train, val, test = spirals(300).split(0.8, 0.1)"}},
    {"plant",
     m_plant,
     {"Dataset.plant",
      "plant(bugs, bug_seed=0, relabel_from=0, relabel_to=1, leak_fraction=0.1, scale_column=0, "
      "scale=1000.0, nan_row=-1, nan_col=0, padding_fraction=0.1)",
      "A copy of the dataset with bugs planted (the dataset itself is unchanged): use it to "
      "break only the train part of a split. See docs/datasets.md for each bug's effect.",
      "train = train.plant(['off_by_one'])"}},
    {"subset",
     m_subset,
     {"Dataset.subset", "subset(indices)",
      "A new dataset of the given rows (any order, repeats allowed), e.g. one batch to overfit.",
      "tiny = ds.subset(list(range(32)))"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help dataset_help = {
    "Dataset", "spirals(...) | moons(...) | blobs(...) | xor(...) | regression(...) | ...",
    "A dataset: x (inputs), y (labels or targets), mask (copy_task), n and len(), num_classes, "
    "vocab (text), description (what it is and every planted bug), bugs (the names planted). "
    "ds[i] is (x[i], y[i]); split() cuts it, DataLoader(ds) batches it.",
    "ds = spirals(300); ds.x.shape, ds.y[:5]"};

static const lang_type dataset_type = {
    .name = "Dataset",
    .free = dataset_free,
    .repr = dataset_repr,
    .getattr = dataset_getattr,
    .getitem = dataset_getitem,
    .iter = dataset_iter,
    .len = dataset_len,
    .fields = dataset_fields,
    .display = dataset_display,
    .methods = dataset_methods,
    .help = &dataset_help,
};

/* Plant the requested bugs into [ds] (taken over) and wrap the result. */
static bool finish_dataset(lang_vm *vm, nn_dataset *ds, const bug_args *b, lang_val *out) {
    if (!ds) return lang_raise_engine(vm);
    nn_data_bugs bugs;
    bool any;
    if (!bug_args_read(vm, b, &bugs, &any)) {
        nn_data_free(ds);
        return false;
    }
    if (any) {
        nn_dataset *broken = nn_data_plant(CTX(vm), ds, &bugs);
        nn_data_free(ds);
        if (!broken) return lang_raise_engine(vm);
        ds = broken;
    }
    return dataset_wrap(vm, ds, out);
}

static bool seed_arg(lang_vm *vm, lang_val v, uint64_t *out) {
    int64_t s;
    if (!lang_to_int(vm, v, "seed", &s)) return false;
    *out = (uint64_t)s;
    return true;
}

static bool f_spirals(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv = lang_int(300), cv = lang_int(3), zv = lang_float(0.2), sv = lang_int(0);
    bug_args b;
    bug_args_init(&b);
    int64_t n, classes;
    double noise;
    uint64_t seed;
    if (!lang_parse_args(vm, a, "spirals", "|n,classes,noise,seed," BUG_SPEC, &nv, &cv, &zv, &sv,
                         BUG_PTRS(b)) ||
        !lang_to_int(vm, nv, "n", &n) || !lang_to_int(vm, cv, "classes", &classes) ||
        !lang_to_float(vm, zv, "noise", &noise) || !seed_arg(vm, sv, &seed))
        return false;
    return finish_dataset(vm, nn_data_spirals(CTX(vm), n, classes, noise, seed), &b, out);
}

/* moons and xor take the same arguments: n, noise, seed and the bugs. */
typedef nn_dataset *(*noise_maker)(nn_ctx *ctx, int64_t n, double noise, uint64_t seed);

static bool noise_dataset(lang_vm *vm, const lang_args *a, const char *fname, noise_maker make,
                          lang_val *out) {
    lang_val nv = lang_int(200), zv = lang_float(0.1), sv = lang_int(0);
    bug_args b;
    bug_args_init(&b);
    int64_t n;
    double noise;
    uint64_t seed;
    if (!lang_parse_args(vm, a, fname, "|n,noise,seed," BUG_SPEC, &nv, &zv, &sv, BUG_PTRS(b)) ||
        !lang_to_int(vm, nv, "n", &n) || !lang_to_float(vm, zv, "noise", &noise) ||
        !seed_arg(vm, sv, &seed))
        return false;
    return finish_dataset(vm, make(CTX(vm), n, noise, seed), &b, out);
}

static bool f_moons(lang_vm *vm, const lang_args *a, lang_val *out) {
    return noise_dataset(vm, a, "moons", nn_data_moons, out);
}

static bool f_blobs(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv = lang_int(300), cv = lang_int(3), dv = lang_int(2), zv = lang_float(1.0),
             sv = lang_int(0);
    bug_args b;
    bug_args_init(&b);
    int64_t n, centers, dim;
    double std;
    uint64_t seed;
    if (!lang_parse_args(vm, a, "blobs", "|n,centers,dim,std,seed," BUG_SPEC, &nv, &cv, &dv, &zv,
                         &sv, BUG_PTRS(b)) ||
        !lang_to_int(vm, nv, "n", &n) || !lang_to_int(vm, cv, "centers", &centers) ||
        !lang_to_int(vm, dv, "dim", &dim) || !lang_to_float(vm, zv, "std", &std) ||
        !seed_arg(vm, sv, &seed))
        return false;
    return finish_dataset(vm, nn_data_blobs(CTX(vm), n, centers, dim, std, seed), &b, out);
}

static bool f_xor(lang_vm *vm, const lang_args *a, lang_val *out) {
    return noise_dataset(vm, a, "xor", nn_data_xor, out);
}

static bool f_regression(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv = lang_int(200), iv = lang_int(1), ov = lang_int(1), zv = lang_float(0.1),
             sv = lang_int(0);
    bug_args b;
    bug_args_init(&b);
    int64_t n, in_dim, out_dim;
    double noise;
    uint64_t seed;
    if (!lang_parse_args(vm, a, "regression", "|n,in_dim,out_dim,noise,seed," BUG_SPEC, &nv, &iv,
                         &ov, &zv, &sv, BUG_PTRS(b)) ||
        !lang_to_int(vm, nv, "n", &n) || !lang_to_int(vm, iv, "in_dim", &in_dim) ||
        !lang_to_int(vm, ov, "out_dim", &out_dim) || !lang_to_float(vm, zv, "noise", &noise) ||
        !seed_arg(vm, sv, &seed))
        return false;
    return finish_dataset(vm, nn_data_regression(CTX(vm), n, in_dim, out_dim, noise, seed), &b,
                          out);
}

static bool f_copy_task(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv = lang_int(256), lv = lang_int(8), vv = lang_int(10), sv = lang_int(0);
    bug_args b;
    bug_args_init(&b);
    int64_t n, length, vocab;
    uint64_t seed;
    if (!lang_parse_args(vm, a, "copy_task", "|n,length,vocab,seed," BUG_SPEC, &nv, &lv, &vv, &sv,
                         BUG_PTRS(b)) ||
        !lang_to_int(vm, nv, "n", &n) || !lang_to_int(vm, lv, "length", &length) ||
        !lang_to_int(vm, vv, "vocab", &vocab) || !seed_arg(vm, sv, &seed))
        return false;
    return finish_dataset(vm, nn_data_copy(CTX(vm), n, length, vocab, seed), &b, out);
}

static bool f_words(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val bv = lang_int(3), pv = lang_none(), sv = lang_int(0);
    bug_args b;
    bug_args_init(&b);
    int64_t bs;
    uint64_t seed;
    const char *path = NULL;
    if (!lang_parse_args(vm, a, "words", "|block_size,path,seed," BUG_SPEC, &bv, &pv, &sv,
                         BUG_PTRS(b)) ||
        !lang_to_int(vm, bv, "block_size", &bs) || !seed_arg(vm, sv, &seed) ||
        (pv.kind != LANG_NONE && !arg_str(vm, pv, "path", &path)))
        return false;
    return finish_dataset(vm, nn_data_words(CTX(vm), path, bs, seed), &b, out);
}

static bool f_text(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val pv, bv = lang_int(8), sv = lang_int(1);
    bug_args b;
    bug_args_init(&b);
    int64_t bs, stride;
    const char *path = "";
    if (!lang_parse_args(vm, a, "text", "path|block_size,stride," BUG_SPEC, &pv, &bv, &sv,
                         BUG_PTRS(b)) ||
        !arg_str(vm, pv, "path", &path) || !lang_to_int(vm, bv, "block_size", &bs) ||
        !lang_to_int(vm, sv, "stride", &stride))
        return false;
    return finish_dataset(vm, nn_data_text(CTX(vm), path, bs, stride), &b, out);
}

/* ------------------------------------------------------------------ Batch */

typedef struct batch_obj {
    lang_obj hdr;
    lang_val x, y, mask, index;
    int64_t size;
} batch_obj;

static void batch_free(lang_obj *o) {
    batch_obj *b = (batch_obj *)o;
    lang_val_release(b->x);
    lang_val_release(b->y);
    lang_val_release(b->mask);
    lang_val_release(b->index);
}

static bool batch_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    batch_obj *b = (batch_obj *)o;
    lang_buf_puts(out, "Batch(x=");
    shape_dtype(out, lang_tensor_of(b->x));
    lang_buf_puts(out, ", y=");
    shape_dtype(out, lang_tensor_of(b->y));
    if (b->mask.kind != LANG_NONE) {
        lang_buf_puts(out, ", mask=");
        shape_dtype(out, lang_tensor_of(b->mask));
    }
    lang_buf_printf(out, ", size=%lld)", (long long)b->size);
    return true;
}

static bool batch_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    batch_obj *b = (batch_obj *)o;
    *found = true;
    if (!strcmp(name, "x"))
        *out = lang_val_retain(b->x);
    else if (!strcmp(name, "y"))
        *out = lang_val_retain(b->y);
    else if (!strcmp(name, "mask"))
        *out = lang_val_retain(b->mask);
    else if (!strcmp(name, "index"))
        *out = lang_val_retain(b->index);
    else if (!strcmp(name, "size"))
        *out = lang_int(b->size);
    else
        *found = false;
    return true;
}

static const char *const batch_field_names[] = {"x", "y", "mask", "index", "size", NULL};
static const char *const *batch_fields(lang_obj *o) {
    return batch_field_names;
}

/* A batch also unpacks as (x, y), as torch's default collate gives. */
static bool batch_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = 2;
    return true;
}

static bool batch_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    batch_obj *b = (batch_obj *)o;
    if (key.kind != LANG_INT)
        return lang_raise(vm, LANG_ERR_TYPE, "Batch indices must be integers, not %s",
                          lang_type_name(key));
    int64_t i = key.u.i < 0 ? key.u.i + 2 : key.u.i;
    if (i != 0 && i != 1)
        return lang_raise(vm, LANG_ERR_INDEX, "Batch index out of range: a batch is (x, y)");
    *out = lang_val_retain(i == 0 ? b->x : b->y);
    return true;
}

static bool batch_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    batch_obj *b = (batch_obj *)o;
    lang_val items[2] = {b->x, b->y}, t;
    if (!lang_tuple_pack(vm, 2, items, &t)) return false;
    bool ok = lang_iter(vm, t, out);
    lang_val_release(t);
    return ok;
}

static const lang_help batch_help = {
    "Batch", "for batch in loader: ...",
    "One batch of a DataLoader: x, y, mask (or None), index (the dataset rows in it) and size. "
    "It also unpacks as (x, y): `for xb, yb in loader:`.",
    "for batch in DataLoader(spirals(), batch_size=32): loss = cross_entropy(model(batch.x), "
    "batch.y)"};

static const lang_type batch_type = {
    .name = "Batch",
    .free = batch_free,
    .repr = batch_repr,
    .getattr = batch_getattr,
    .getitem = batch_getitem,
    .iter = batch_iter,
    .len = batch_len,
    .fields = batch_fields,
    .help = &batch_help,
};

/* ------------------------------------------------------------------ DataLoader */

typedef struct loader_obj {
    lang_obj hdr;
    nn_loader *l;
    lang_val dataset;
    lang_val generator; /* None, or the Generator whose nn_rng cfg borrows */
    lang_val sampler;   /* None, or what gives each epoch's indices (sampler=) */
    nn_loader_config cfg;
    bool in_epoch; /* a batch of the current epoch has been handed out */
} loader_obj;

static void loader_free(lang_obj *o) {
    loader_obj *lo = (loader_obj *)o;
    nn_loader_free(lo->l);
    lang_val_release(lo->dataset);
    lang_val_release(lo->generator);
    lang_val_release(lo->sampler);
}

static bool loader_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    loader_obj *lo = (loader_obj *)o;
    lang_buf_printf(out,
                    "DataLoader('%s', batch_size=%lld, shuffle=%s, drop_last=%s, batches=%lld, "
                    "epoch=%lld)",
                    DS(lo->dataset)->name, (long long)lo->cfg.batch_size,
                    lo->cfg.shuffle ? "True" : "False", lo->cfg.drop_last ? "True" : "False",
                    (long long)nn_loader_num_batches(lo->l), (long long)nn_loader_epoch(lo->l));
    return true;
}

static bool loader_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    loader_obj *lo = (loader_obj *)o;
    /* With a sampler: ceil(len(sampler) / batch_size), as torch's. */
    if (lo->sampler.kind != LANG_NONE) {
        int64_t n = 0, bs = lo->cfg.batch_size;
        if (!lang_loader_sampler_len(vm, lo->sampler, &n)) return false;
        *out = lo->cfg.drop_last ? n / bs : (n + bs - 1) / bs;
        return true;
    }
    *out = nn_loader_num_batches(lo->l);
    return true;
}

/* sampler=: iterate it afresh for this epoch (a DistributedSampler's order
 * follows its set_epoch) and make its indices the loader's order. */
static bool loader_take_sampler(lang_vm *vm, loader_obj *lo) {
    int64_t *idx = NULL, n = 0;
    if (!lang_loader_sampler_indices(vm, lo->sampler, &idx, &n)) return false;
    bool ok = !nn_loader_set_order(CTX(vm), lo->l, idx, n) || lang_raise_engine(vm);
    free(idx);
    return ok;
}

/* A `for` over the loader runs one epoch. Leaving a loop early and looping
 * again starts the next epoch from its beginning, as a fresh iterator over a
 * torch DataLoader does. */
static bool loader_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    loader_obj *lo = (loader_obj *)o;
    if (lo->in_epoch) {
        nn_loader_reset(lo->l, nn_loader_epoch(lo->l) + 1);
        lo->in_epoch = false;
    }
    if (lo->sampler.kind != LANG_NONE && !loader_take_sampler(vm, lo)) return false;
    /* torch draws the epoch's seeds when the iterator is made. */
    if (nn_loader_start(CTX(vm), lo->l)) return lang_raise_engine(vm);
    *out = lang_val_retain(lang_obj_val(o));
    return true;
}

static bool loader_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    loader_obj *lo = (loader_obj *)o;
    nn_loader_batch b;
    memset(&b, 0, sizeof b);
    nn_ctx *ctx = CTX(vm);
    if (!nn_loader_next(ctx, lo->l, &b)) {
        nn_loader_batch_clear(&b);
        lo->in_epoch = false;
        if (nn_loader_status(lo->l) != NN_OK) return lang_raise_engine(vm);
        *done = true;
        return true;
    }
    *done = false;
    lo->in_epoch = true;
    batch_obj *bo = lang_obj_new(vm, &batch_type, sizeof *bo);
    if (!bo) {
        nn_loader_batch_clear(&b);
        return false;
    }
    bo->x = bo->y = bo->mask = bo->index = lang_none();
    bo->size = b.size;
    lang_val bv = lang_obj_val(&bo->hdr);
    bool ok = tensor_or_none(vm, b.x, &bo->x) && tensor_or_none(vm, b.y, &bo->y) &&
              tensor_or_none(vm, b.mask, &bo->mask) && tensor_or_none(vm, b.index, &bo->index);
    nn_loader_batch_clear(&b);
    if (!ok) {
        lang_val_release(bv);
        return false;
    }
    *out = bv;
    return true;
}

static bool loader_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    loader_obj *lo = (loader_obj *)o;
    *found = true;
    if (!strcmp(name, "dataset"))
        *out = lang_val_retain(lo->dataset);
    else if (!strcmp(name, "batch_size"))
        *out = lang_int(lo->cfg.batch_size);
    else if (!strcmp(name, "shuffle"))
        *out = lang_bool(lo->cfg.shuffle);
    else if (!strcmp(name, "drop_last"))
        *out = lang_bool(lo->cfg.drop_last);
    else if (!strcmp(name, "epoch"))
        *out = lang_int(nn_loader_epoch(lo->l));
    else if (!strcmp(name, "sampler"))
        *out = lang_val_retain(lo->sampler);
    else
        *found = false;
    return true;
}

static const char *const loader_field_names[] = {"dataset", "batch_size", "shuffle", "drop_last",
                                                 "epoch",   "sampler",    NULL};
static const char *const *loader_fields(lang_obj *o) {
    return loader_field_names;
}

static bool m_reset(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val ev = lang_int(0);
    int64_t e;
    if (!lang_parse_args(vm, a, "reset", "|epoch", &ev) || !lang_to_int(vm, ev, "epoch", &e))
        return false;
    if (e < 0) return lang_raise(vm, LANG_ERR_VALUE, "epoch must be >= 0, not %lld", (long long)e);
    loader_obj *lo = (loader_obj *)self.u.o;
    nn_loader_reset(lo->l, e);
    lo->in_epoch = false;
    *out = lang_none();
    return true;
}

static const lang_method loader_methods[] = {
    {"reset",
     m_reset,
     {"DataLoader.reset", "reset(epoch=0)",
      "Start again at the beginning of [epoch] (with seed=, its order depends only on seed and "
      "epoch).",
      "loader.reset(3)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

#define H_DATALOADER                                                                               \
    {                                                                                              \
        "DataLoader",                                                                              \
            "DataLoader(dataset, batch_size=32, shuffle=False, seed=None, drop_last=False, "       \
            "generator=None, sampler=None)",                                                       \
            "Batches of a dataset, as torch.utils.data.DataLoader: `for batch in loader:` runs "   \
            "one epoch, each batch having .x, .y, .mask and .index (or unpack it: `for xb, yb in " \
            "loader:`). len(loader) is the number of batches. With shuffle, each epoch has a "     \
            "fresh order, drawn as torch draws it (from generator=, or the default generator "     \
            "that manual_seed seeds); with seed= instead, from seed and the epoch number, "        \
            "without touching the default generator. Looping again starts the next epoch. "        \
            "sampler= (a DistributedSampler, or any iterable of row indices) gives each epoch's "  \
            "rows instead, iterated afresh every epoch; it excludes shuffle=True, as in torch.",   \
            "loader = DataLoader(spirals(300), batch_size=32, shuffle=True)\n"                     \
            "for xb, yb in loader: print(xb.shape)"                                                \
    }

static const lang_help loader_help = H_DATALOADER;

static const lang_type loader_type = {
    .name = "DataLoader",
    .free = loader_free,
    .repr = loader_repr,
    .getattr = loader_getattr,
    .iter = loader_iter,
    .next = loader_next,
    .len = loader_len,
    .fields = loader_fields,
    .methods = loader_methods,
    .help = &loader_help,
};

/* Declared where lang_vm_help consults it (lang_eval.c): the data types whose
 * "<Type>.<method>" names help resolves ("Dataset.split"), NULL-terminated. */
extern const lang_type *const lang_data_help_types[];
const lang_type *const lang_data_help_types[] = {
    &dataset_type, &loader_type, &vocab_type, &batch_type, NULL,
};

static bool f_dataloader(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val dv, bv = lang_int(32), sv = lang_bool(false), seedv = lang_none(),
                 dlv = lang_bool(false), gv = lang_none(), smp = lang_none();
    int64_t bs, seed = 0;
    bool shuffle, drop_last;
    nn_rng *gen;
    if (!lang_parse_args(vm, a, "DataLoader",
                         "dataset|batch_size,shuffle,seed,drop_last,generator,sampler", &dv, &bv,
                         &sv, &seedv, &dlv, &gv, &smp) ||
        !lang_to_int(vm, bv, "batch_size", &bs) || !lang_to_bool(vm, sv, "shuffle", &shuffle) ||
        (seedv.kind != LANG_NONE && !lang_to_int(vm, seedv, "seed", &seed)) ||
        !lang_to_bool(vm, dlv, "drop_last", &drop_last) ||
        !lang_generator_arg(vm, gv, "DataLoader", &gen))
        return false;
    if (!lang_is_obj(dv, &dataset_type))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "DataLoader() expects a Dataset (spirals(), words(), ...), not %s",
                          lang_type_name(dv));
    if (smp.kind != LANG_NONE && shuffle)
        return lang_raise(vm, LANG_ERR_VALUE, "sampler option is mutually exclusive with shuffle");
    if (seedv.kind != LANG_NONE && gv.kind != LANG_NONE)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "DataLoader(): give seed= (nndb's reproducible epochs) or generator= "
                          "(torch's), not both");
    /* Without seed= the loader draws as torch's does (torch mode). */
    nn_loader_config cfg = {bs, shuffle, (uint64_t)seed, drop_last, seedv.kind == LANG_NONE, gen};
    nn_loader *l = nn_loader_new(CTX(vm), DS(dv), &cfg);
    if (!l) return lang_raise_engine(vm);
    loader_obj *lo = lang_obj_new(vm, &loader_type, sizeof *lo);
    if (!lo) {
        nn_loader_free(l);
        return false;
    }
    lo->l = l;
    lo->dataset = lang_val_retain(dv);
    lo->generator = lang_val_retain(gv); /* keeps cfg.generator alive */
    lo->sampler = lang_val_retain(smp);
    lo->cfg = cfg;
    lo->in_epoch = false;
    *out = lang_obj_val(&lo->hdr);
    return true;
}

/* torch.utils.data.random_split: lengths (ints summing to len(dataset), or
 * fractions summing to 1, floored and the remainder dealt round-robin) and
 * one randperm(len(dataset)) from [generator] or the default generator. */
static bool f_random_split(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val dv, lv, gv = lang_none();
    nn_rng *gen;
    if (!lang_parse_args(vm, a, "random_split", "dataset,lengths|generator", &dv, &lv, &gv) ||
        !lang_generator_arg(vm, gv, "random_split", &gen))
        return false;
    if (!lang_is_obj(dv, &dataset_type))
        return lang_raise(vm, LANG_ERR_TYPE, "random_split() expects a Dataset, not %s",
                          lang_type_name(dv));
    if (!lang_is_obj(lv, &lang_list_type) && !lang_is_obj(lv, &lang_tuple_type))
        return lang_raise(vm, LANG_ERR_TYPE, "random_split(): lengths must be a list or tuple");
    const nn_dataset *ds = DS(dv);
    int64_t k = lang_seq_len(lv), len[64];
    if (k < 1 || k > 64)
        return lang_raise(vm, LANG_ERR_VALUE, "random_split(): between 1 and 64 lengths, got %lld",
                          (long long)k);
    lang_val *items = lang_seq_items(lv);
    double sum = 0, frac[64];
    for (int64_t i = 0; i < k; i++) {
        if (!lang_to_float(vm, items[i], "length", &frac[i])) return false;
        sum += frac[i];
    }
    if (fabs(sum - 1) <= 1e-9 * fmax(fabs(sum), 1) && sum <= 1) { /* math.isclose(sum, 1) */
        int64_t total = 0;
        for (int64_t i = 0; i < k; i++) {
            if (frac[i] < 0 || frac[i] > 1)
                return lang_raise(vm, LANG_ERR_VALUE,
                                  "Fraction at index %lld is not between 0 and 1", (long long)i);
            len[i] = (int64_t)floor((double)ds->n * frac[i]);
            total += len[i];
        }
        for (int64_t i = 0; i < ds->n - total; i++) len[i % k]++;
    } else {
        for (int64_t i = 0; i < k; i++)
            if (!lang_to_int(vm, items[i], "length", &len[i])) return false;
    }
    int64_t total = 0;
    for (int64_t i = 0; i < k; i++) {
        if (len[i] < 0)
            return lang_raise(vm, LANG_ERR_VALUE, "random_split(): lengths must be >= 0");
        total += len[i];
    }
    if (total != ds->n)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "Sum of input lengths does not equal the length of the input dataset!");
    nn_tensor *perm = nn_randperm(CTX(vm), gen, total, NN_INT64);
    if (!perm) return lang_raise_engine(vm);
    const int64_t *p = nn_tensor_data(perm);
    bool ok = lang_list_new(vm, k, out);
    for (int64_t i = 0, off = 0; ok && i < k; off += len[i++]) {
        char name[NN_DATA_NAME_MAX];
        snprintf(name, sizeof name, "%.50s[%d]", ds->name, (int)(i & 63));
        nn_dataset *part = nn_data_subset(CTX(vm), ds, p + off, len[i], name);
        ok = part ? dataset_wrap(vm, part, &lang_seq_items(*out)[i]) : lang_raise_engine(vm);
    }
    nn_tensor_release(perm);
    if (!ok && out->kind == LANG_OBJ) lang_val_release(*out);
    return ok;
}

/* ------------------------------------------------------------------ save / load */

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static bool f_save(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ov, pv;
    const char *path = "";
    if (!lang_parse_args(vm, a, "save", "obj,f", &ov, &pv) || !arg_str(vm, pv, "f", &path))
        return false;
    nn_ctx *ctx = CTX(vm);
    nn_tensor *t = lang_tensor_of(ov);
    bool npy = ends_with(path, ".npy");
    if (t && npy) {
        if (nn_npy_save(ctx, path, t) != NN_OK) return lang_raise_engine(vm);
        *out = lang_none();
        return true;
    }
    if (npy)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "'%s': a .npy file holds one tensor; save a %s as .safetensors", path,
                          lang_type_name(ov));
    nn_state st;
    nn_state_init(&st);
    bool ok = true;
    nn_module *m = lang_module_of(ov);
    if (t) {
        if (nn_state_add(ctx, &st, "tensor", t) != NN_OK) ok = lang_raise_engine(vm);
    } else if (m) {
        if (nn_module_state_dict(ctx, m, &st) != NN_OK) ok = lang_raise_engine(vm);
    } else if (lang_is_obj(ov, &lang_dict_type)) {
        ok = lang_nn_state_from_dict(vm, ov, "save()'s dict", &st);
    } else {
        ok = lang_raise(vm, LANG_ERR_TYPE,
                        "save() writes a Tensor, a Module or a dict of tensors, not %s",
                        lang_type_name(ov));
    }
    if (ok && nn_safetensors_save(ctx, path, &st, NULL) != NN_OK) ok = lang_raise_engine(vm);
    nn_state_free(&st);
    if (ok) *out = lang_none();
    return ok;
}

/* Whether [path] starts with the .npy magic (a missing file is left to the
 * safetensors reader, whose error names it). */
static bool looks_npy(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    unsigned char m[6] = {0};
    size_t n = fread(m, 1, sizeof m, f);
    fclose(f);
    return n == 6 && !memcmp(m, "\x93NUMPY", 6);
}

static bool f_load(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val pv;
    const char *path = "";
    if (!lang_parse_args(vm, a, "load", "f", &pv) || !arg_str(vm, pv, "f", &path)) return false;
    nn_ctx *ctx = CTX(vm);
    if (ends_with(path, ".npy") || looks_npy(path)) {
        nn_tensor *t = nn_npy_load(ctx, path);
        if (!t) return lang_raise_engine(vm);
        return lang_tensor_new(vm, t, out);
    }
    nn_state st;
    nn_state_init(&st);
    if (nn_safetensors_load(ctx, path, &st, NULL) != NN_OK) {
        nn_state_free(&st);
        return lang_raise_engine(vm);
    }
    bool ok = lang_nn_state_to_dict(vm, &st, out);
    nn_state_free(&st);
    return ok;
}

/* ------------------------------------------------------------------ tables */

#define SEED_DOC " Deterministic given seed."
#define BUGS_DOC                                                                                   \
    " bugs=[names] plants bugs (see Dataset.plant and docs/datasets.md): 'shuffled_labels', "      \
    "'off_by_one', 'relabel', 'leakage', 'unnormalised', 'zero_inputs', 'transposed', "            \
    "'all_padding', 'nan', with their parameters as keywords (nan_row=7, ...)."

const lang_builtin_def lang_data_builtins[] = {
    {"spirals",
     f_spirals,
     {"spirals", "spirals(n=300, classes=3, noise=0.2, seed=0, bugs=None, ...)",
      "CS231n's interleaved spirals: x float32 [n, 2], y int64 [n] in [0, classes), rows "
      "shuffled." SEED_DOC BUGS_DOC,
      "ds = spirals(300, bugs=['nan'], nan_row=7); ds.x[7]"}},
    {"moons",
     f_moons,
     {"moons", "moons(n=200, noise=0.1, seed=0, bugs=None, ...)",
      "Two interleaving half circles (scikit-learn's make_moons): x float32 [n, 2], y int64 [n] "
      "in {0, 1}." SEED_DOC BUGS_DOC,
      "ds = moons(200, noise=0.1)"}},
    {"blobs",
     f_blobs,
     {"blobs", "blobs(n=300, centers=3, dim=2, std=1.0, seed=0, bugs=None, ...)",
      "Gaussian blobs around centres uniform in [-10, 10]^dim (ds.true_w): x float32 [n, dim], "
      "y int64 [n] the centre." SEED_DOC BUGS_DOC,
      "ds = blobs(300, centers=4)"}},
    {"xor",
     f_xor,
     {"xor", "xor(n=200, noise=0.1, seed=0, bugs=None, ...)",
      "Points around the corners (+-1, +-1), label 1 where the signs differ; needs a hidden "
      "layer. x float32 [n, 2], y int64 [n]." SEED_DOC BUGS_DOC,
      "ds = xor(200)"}},
    {"regression",
     f_regression,
     {"regression", "regression(n=200, in_dim=1, out_dim=1, noise=0.1, seed=0, bugs=None, ...)",
      "Noisy linear regression y = x W^T + b + noise: x float32 [n, in_dim], y float32 [n, "
      "out_dim]; the true W and b are ds.true_w and ds.true_b." SEED_DOC BUGS_DOC,
      "ds = regression(200, in_dim=3); ds.true_w"}},
    {"copy_task",
     f_copy_task,
     {"copy_task", "copy_task(n=256, length=8, vocab=10, seed=0, bugs=None, ...)",
      "Sequences to copy: x int64 [n, length] of tokens in [1, vocab) then padding (0), y the "
      "same, mask bool [n, length] true on real tokens." SEED_DOC BUGS_DOC,
      "ds = copy_task(64, bugs=['all_padding']); ds.padded_rows"}},
    {"words",
     f_words,
     {"words", "words(block_size=3, path=None, seed=0, bugs=None, ...)",
      "makemore's names task on a word list (default /usr/share/dict/words, words of a-z only, "
      "shuffled with seed): x int64 [n, block_size] the previous characters ('.' before the "
      "start), y int64 [n] the next one ('.' at the end). ds.vocab is '.' then a-z." BUGS_DOC,
      "ds = words(3); ds.vocab.decode(ds.x[:5].flatten())"}},
    {"text",
     f_text,
     {"text", "text(path, block_size=8, stride=1, bugs=None, ...)",
      "Next-character prediction on a UTF-8 text file (nanoGPT's char-level data): x int64 [n, "
      "block_size] windows starting every stride characters, y the same windows shifted by one. "
      "ds.vocab is the sorted set of the file's characters." BUGS_DOC,
      "ds = text('input.txt', block_size=32, stride=32)"}},
    {"DataLoader", f_dataloader, H_DATALOADER},
    {"random_split",
     f_random_split,
     {"random_split", "random_split(dataset, lengths, generator=None)",
      "Split a dataset at random into parts of the given lengths (ints summing to len(dataset), "
      "or fractions summing to 1), drawn as torch.utils.data.random_split draws them.",
      "train, val = random_split(spirals(300), [0.8, 0.2], "
      "generator=Generator().manual_seed(42))"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_builtin_def lang_io_builtins[] = {
    {"save",
     f_save,
     {"save", "save(obj, f)",
      "Write [obj] to the file [f]: a Tensor as .npy when f ends in .npy, else as safetensors "
      "under the key 'tensor'; a Module as its state_dict (safetensors); a dict of name -> "
      "Tensor as safetensors. The file is replaced only when the write succeeded.",
      "save(model, 'model.safetensors'); save(x, 'x.npy')"}},
    {"load",
     f_load,
     {"load", "load(f)",
      "Read the file [f]: a .npy file gives a Tensor, a safetensors file a dict of name -> "
      "Tensor (so model.load_state_dict(load('model.safetensors')) restores a model). A "
      "corrupt or truncated file is an IOError naming the file and what is wrong.",
      "model.load_state_dict(load('model.safetensors'))"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
