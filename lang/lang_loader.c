/* lang_loader: torch.utils.data for any dataset: a DataLoader over
 * anything with __len__ and __getitem__ (a Dataset subclass, a
 * TensorDataset, a Subset, a list), collating samples as PyTorch's
 * default_collate does (tensors stacked, numbers made tensors, tuples and
 * lists collated item by item, dicts key by key), with collate_fn,
 * shuffle and drop_last; TensorDataset, Subset and random_split.
 *
 * The builtin DataLoader keeps nndb's own loader for its builtin datasets
 * (spirals(), words(), ...), whose batches are records; everything else
 * gets this one. Shuffling draws from the session's generator (nn_rng),
 * so the order is reproducible under manual_seed but not PyTorch's own.
 * Ownership follows lang_value.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_class.h"
#include "lang_eval.h"
#include "lang_generator.h"
#include "lang_loader.h"
#include "lang_tensor.h"
#include "lang_value_impl.h"
#include "nn_ctx.h"
#include "nn_ops.h"
#include "nn_random.h"
#include "nn_rng.h"

/* ------------------------------------------------------------------ collate */

static bool collate(lang_vm *vm, lang_val samples, int depth, lang_val *out);

static bool stack_tensors(lang_vm *vm, lang_val samples, lang_val *out) {
    int64_t n = lang_seq_len(samples);
    nn_tensor **ts = malloc(sizeof *ts * (size_t)(n ? n : 1));
    if (!ts) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int64_t k = 0; k < n; k++) {
        ts[k] = lang_tensor_of(lang_seq_items(samples)[k]);
        if (!ts[k]) {
            free(ts);
            return lang_raise(vm, LANG_ERR_TYPE,
                              "default_collate: batch must contain tensors, numbers, dicts or "
                              "lists; found %s",
                              lang_type_name(lang_seq_items(samples)[k]));
        }
    }
    nn_tensor *r = nn_stack(lang_vm_ctx(vm), ts, (int)n, 0);
    free(ts);
    if (!r) return lang_raise_engine(vm);
    return lang_tensor_new(vm, r, out);
}

static bool numbers_tensor(lang_vm *vm, lang_val samples, bool is_float, lang_val *out) {
    nn_tensor *t;
    /* default_collate: Python floats become float64, ints int64. */
    if (!lang_tensor_from_value(vm, samples, is_float ? NN_FLOAT64 : NN_INT64, &t)) return false;
    return lang_tensor_new(vm, t, out);
}

static bool collate(lang_vm *vm, lang_val samples, int depth, lang_val *out) {
    int64_t n = lang_seq_len(samples);
    if (depth > 32) return lang_raise(vm, LANG_ERR_VALUE, "samples nested too deeply to collate");
    if (n == 0) return lang_list_new(vm, 0, out);
    lang_val first = lang_seq_items(samples)[0];
    if (lang_tensor_of(first)) return stack_tensors(vm, samples, out);
    if (first.kind == LANG_INT || first.kind == LANG_BOOL || first.kind == LANG_FLOAT) {
        bool any_float = false;
        for (int64_t k = 0; k < n; k++) any_float |= lang_seq_items(samples)[k].kind == LANG_FLOAT;
        return numbers_tensor(vm, samples, any_float || first.kind == LANG_FLOAT, out);
    }
    if (lang_is_str(first)) return lang_list_from_iter(vm, samples, out);
    if (lang_is_dict(first)) {
        if (!lang_dict_new(vm, out)) return false;
        lang_dict_obj *d = D(first);
        for (int64_t e = 0; e < d->nent; e++) {
            if (!d->entries[e].live) continue;
            lang_val key = d->entries[e].key, col, c;
            bool ok = lang_list_new(vm, n, &col);
            for (int64_t k = 0; ok && k < n; k++) {
                lang_val v;
                bool found;
                lang_val s = lang_seq_items(samples)[k];
                ok = lang_is_dict(s) && lang_dict_get(vm, s, key, &v, &found);
                if (ok && !found) ok = lang_key_error(vm, key);
                if (ok) {
                    lang_val_release(lang_seq_items(col)[k]);
                    lang_seq_items(col)[k] = v;
                }
            }
            if (ok) ok = collate(vm, col, depth + 1, &c);
            lang_val_release(col);
            if (ok) {
                ok = lang_dict_set(vm, *out, key, c);
                lang_val_release(c);
            }
            if (!ok) {
                lang_val_release(*out);
                return false;
            }
        }
        return true;
    }
    if (lang_is_seq(first)) {
        int64_t m = lang_seq_len(first);
        for (int64_t k = 0; k < n; k++)
            if (!lang_is_seq(lang_seq_items(samples)[k]) ||
                lang_seq_len(lang_seq_items(samples)[k]) != m)
                return lang_raise(vm, LANG_ERR_RUNTIME,
                                  "each element in list of batch should be of equal size");
        /* A tuple collates to a list, as torch's default_collate does. */
        if (!lang_list_new(vm, m, out)) return false;
        for (int64_t j = 0; j < m; j++) {
            lang_val col, c;
            if (!lang_list_new(vm, n, &col)) {
                lang_val_release(*out);
                return false;
            }
            for (int64_t k = 0; k < n; k++) {
                lang_val_release(lang_seq_items(col)[k]);
                lang_seq_items(col)[k] =
                    lang_val_retain(lang_seq_items(lang_seq_items(samples)[k])[j]);
            }
            bool ok = collate(vm, col, depth + 1, &c);
            lang_val_release(col);
            if (!ok) {
                lang_val_release(*out);
                return false;
            }
            lang_val_release(lang_seq_items(*out)[j]);
            lang_seq_items(*out)[j] = c;
        }
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE,
                      "default_collate: batch must contain tensors, numbers, dicts or lists; "
                      "found %s",
                      lang_type_name(first));
}

static bool b_default_collate(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val batch, items;
    if (!lang_parse_args(vm, a, "default_collate", "batch", &batch) ||
        !lang_list_from_iter(vm, batch, &items))
        return false;
    bool ok = collate(vm, items, 0, out);
    lang_val_release(items);
    return ok;
}

/* ------------------------------------------------------------------ the loader */

typedef struct gloader {
    lang_obj hdr;
    lang_val dataset, collate_fn; /* collate_fn None: default_collate */
    lang_val generator;           /* a torch.Generator, or None for the default one */
    nn_rng *gen;                  /* borrowed from [generator]; NULL: ctx->rng */
    lang_val sampler;             /* None, or what gives each epoch's indices */
    int64_t batch_size;           /* 0: batch_size=None, samples one by one */
    bool shuffle, drop_last;
} gloader;

typedef struct gloader_iter {
    lang_obj hdr;
    gloader *l; /* retained */
    int64_t *order, n, pos;
    bool tail_pending; /* RandomSampler's second randperm is due at the end */
} gloader_iter;

static void gloader_free(lang_obj *o) {
    gloader *l = (gloader *)o;
    lang_val_release(l->dataset);
    lang_val_release(l->collate_fn);
    lang_val_release(l->generator);
    lang_val_release(l->sampler);
}

bool lang_loader_sampler_len(lang_vm *vm, lang_val sampler, int64_t *n) {
    if (sampler.kind != LANG_OBJ || !sampler.u.o->type->len)
        return lang_raise(vm, LANG_ERR_TYPE, "object of type '%s' has no len()",
                          lang_type_name(sampler));
    return sampler.u.o->type->len(vm, sampler.u.o, n);
}

bool lang_loader_sampler_indices(lang_vm *vm, lang_val sampler, int64_t **out, int64_t *n) {
    lang_val it = lang_none();
    *out = NULL;
    *n = 0;
    if (!lang_iter(vm, sampler, &it)) return false;
    int64_t cap = 0;
    bool ok = true;
    for (;;) {
        lang_val item;
        bool end = false;
        if (!lang_next(vm, it, &item, &end)) {
            ok = false;
            break;
        }
        if (end) break;
        int64_t v = 0;
        ok = lang_to_int(vm, item, "a sampler's index", &v);
        lang_val_release(item);
        if (!ok) break;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            int64_t *grown = realloc(*out, sizeof *grown * (size_t)cap);
            if (!grown) {
                ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
                break;
            }
            *out = grown;
        }
        (*out)[(*n)++] = v;
    }
    lang_val_release(it);
    if (!ok) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return ok;
}

static bool ds_len(lang_vm *vm, lang_val ds, int64_t *n) {
    if (ds.kind != LANG_OBJ || !ds.u.o->type->len)
        return lang_raise(vm, LANG_ERR_TYPE, "object of type '%s' has no len()",
                          lang_type_name(ds));
    return ds.u.o->type->len(vm, ds.u.o, n);
}

static bool gloader_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    gloader *l = (gloader *)o;
    int64_t n;
    if (l->sampler.kind != LANG_NONE ? !lang_loader_sampler_len(vm, l->sampler, &n)
                                     : !ds_len(vm, l->dataset, &n))
        return false;
    if (!l->batch_size)
        *out = n;
    else
        *out = l->drop_last ? n / l->batch_size : (n + l->batch_size - 1) / l->batch_size;
    return true;
}

static void iter_free(lang_obj *o) {
    gloader_iter *it = (gloader_iter *)o;
    free(it->order);
    lang_val_release(lang_obj_val(&it->l->hdr));
}

static bool iter_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    gloader_iter *it = (gloader_iter *)o;
    gloader *l = it->l;
    int64_t bs = l->batch_size ? l->batch_size : 1;
    int64_t left = it->n - it->pos;
    *done = left <= 0 || (l->drop_last && l->batch_size && left < bs);
    if (*done) {
        if (it->tail_pending) { /* randperm(n)[:0]: its draws, values unused */
            it->tail_pending = false;
            for (int64_t i = 0; i < it->n - 1; i++) (void)nn_rng_next32(l->gen);
        }
        return true;
    }
    int64_t m = left < bs ? left : bs;
    lang_val samples;
    if (!lang_list_new(vm, m, &samples)) return false;
    for (int64_t k = 0; k < m; k++) {
        lang_val s;
        if (!lang_getitem(vm, l->dataset, lang_int(it->order[it->pos + k]), &s)) {
            lang_val_release(samples);
            return false;
        }
        lang_val_release(lang_seq_items(samples)[k]);
        lang_seq_items(samples)[k] = s;
    }
    it->pos += m;
    bool ok;
    if (!l->batch_size) {
        *out = lang_val_retain(lang_seq_items(samples)[0]);
        ok = true;
    } else if (l->collate_fn.kind != LANG_NONE) {
        lang_args a = {1, &samples, 0, NULL, NULL};
        ok = lang_call(vm, l->collate_fn, &a, out);
    } else {
        ok = collate(vm, samples, 0, out);
    }
    lang_val_release(samples);
    return ok;
}

static bool iter_self(lang_vm *vm, lang_obj *o, lang_val *out) {
    *out = lang_val_retain(lang_obj_val(o));
    return true;
}

static const lang_type gloader_iter_type = {
    .name = "_SingleProcessDataLoaderIter",
    .free = iter_free,
    .iter = iter_self,
    .next = iter_next,
};

static bool gloader_iter_new(lang_vm *vm, lang_obj *o, lang_val *out) {
    gloader *l = (gloader *)o;
    int64_t n;
    if (!ds_len(vm, l->dataset, &n)) return false;
    gloader_iter *it = lang_obj_new(vm, &gloader_iter_type, sizeof *it);
    if (!it) return false;
    it->l = l;
    l->hdr.refcount++;
    it->n = n;
    it->order = malloc(sizeof *it->order * (size_t)(n ? n : 1));
    *out = lang_obj_val(&it->hdr);
    if (!it->order) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int64_t k = 0; k < n; k++) it->order[k] = k;
    /* As torch's iter(): _BaseDataLoaderIter draws its base seed, and a
     * RandomSampler draws its permutation (from the loader's generator, or
     * from a fresh one seeded from the default generator). */
    nn_ctx *ctx = lang_vm_ctx(vm);
    (void)nn_random_seed_draw(l->gen ? l->gen : &ctx->rng);
    if (l->sampler.kind != LANG_NONE) {
        /* sampler=: its indices, from a fresh pass over it (a
         * DistributedSampler follows its set_epoch). */
        int64_t *idx, k;
        if (!lang_loader_sampler_indices(vm, l->sampler, &idx, &k)) {
            lang_val_release(*out);
            return false;
        }
        free(it->order);
        it->order = idx ? idx : malloc(sizeof *it->order);
        it->n = k;
    } else if (l->shuffle) {
        if (l->gen) {
            nn_random_perm_into(l->gen, it->order, n);
            it->tail_pending = n > 0;
        } else {
            nn_rng local;
            nn_rng_seed(&local, (uint64_t)nn_random_seed_draw(&ctx->rng));
            nn_random_perm_into(&local, it->order, n);
        }
    }
    return true;
}

static bool gloader_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<torch.utils.data.dataloader.DataLoader object at %p>", (void *)o);
    return true;
}

static bool gloader_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                            bool *found) {
    gloader *l = (gloader *)o;
    *found = true;
    if (!strcmp(name, "dataset")) {
        *out = lang_val_retain(l->dataset);
        return true;
    }
    if (!strcmp(name, "batch_size")) {
        *out = l->batch_size ? lang_int(l->batch_size) : lang_none();
        return true;
    }
    if (!strcmp(name, "drop_last")) {
        *out = lang_bool(l->drop_last);
        return true;
    }
    *found = false;
    return true;
}

static const lang_type gloader_type = {
    .name = "DataLoader",
    .free = gloader_free,
    .repr = gloader_repr,
    .getattr = gloader_getattr,
    .iter = gloader_iter_new,
    .len = gloader_len,
};

static bool new_loader(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ds, bs = lang_int(1), shuffle = lang_bool(false), sampler = lang_none(),
                 bsampler = lang_none(), workers = lang_int(0), cfn = lang_none(),
                 pin = lang_bool(false), drop = lang_bool(false), timeout = lang_int(0),
                 winit = lang_none(), gen = lang_none(), prefetch = lang_none(),
                 persistent = lang_bool(false), seed = lang_none();
    if (!lang_parse_args(vm, a, "DataLoader",
                         "dataset|batch_size,shuffle,sampler,batch_sampler,num_workers,collate_fn,"
                         "pin_memory,drop_last,timeout,worker_init_fn,generator,prefetch_factor,"
                         "persistent_workers,seed",
                         &ds, &bs, &shuffle, &sampler, &bsampler, &workers, &cfn, &pin, &drop,
                         &timeout, &winit, &gen, &prefetch, &persistent, &seed))
        return false;
    int64_t b = 0;
    bool sh, dl;
    if (bs.kind != LANG_NONE && !lang_to_int(vm, bs, "batch_size", &b)) return false;
    if (bs.kind != LANG_NONE && b < 1)
        return lang_raise(
            vm, LANG_ERR_VALUE,
            "batch_size should be a positive integer value, but got batch_size=%" PRId64, b);
    if (!lang_to_bool(vm, shuffle, "shuffle", &sh) || !lang_to_bool(vm, drop, "drop_last", &dl))
        return false;
    nn_rng *rng = NULL;
    if (!lang_generator_arg(vm, gen, "DataLoader", &rng)) return false;
    if (bsampler.kind != LANG_NONE)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "DataLoader(batch_sampler=...) is not available in nndb; use "
                          "batch_size= with sampler= or shuffle=True");
    if (sampler.kind != LANG_NONE && sh)
        return lang_raise(vm, LANG_ERR_VALUE, "sampler option is mutually exclusive with shuffle");
    int64_t n;
    if (!ds_len(vm, ds, &n)) return false;
    gloader *l = lang_obj_new(vm, &gloader_type, sizeof *l);
    if (!l) return false;
    l->dataset = lang_val_retain(ds);
    l->collate_fn = lang_val_retain(cfn);
    l->batch_size = b;
    l->shuffle = sh;
    l->drop_last = dl;
    l->generator = lang_val_retain(gen);
    l->sampler = lang_val_retain(sampler);
    l->gen = rng;
    *out = lang_obj_val(&l->hdr);
    return true;
}

/* The DataLoader builtin: nndb's loader for its own datasets, this one for
 * everything else. */
static bool b_dataloader(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ds = a->n ? a->pos[0] : lang_none();
    for (int k = 0; k < a->nkw && !a->n; k++)
        if (!strcmp(a->kwnames[k], "dataset")) ds = a->kw[k];
    lang_val *classic = lang_vm_global(vm, "__nndb_dataloader");
    if (classic && ds.kind == LANG_OBJ && !strcmp(ds.u.o->type->name, "Dataset") &&
        ds.u.o->type != &lang_instance_type)
        return lang_call(vm, *classic, a, out);
    return new_loader(vm, a, out);
}

/* ------------------------------------------------------------------ TensorDataset, Subset */

static bool self_attr(lang_vm *vm, lang_val self, const char *name, lang_val *out) {
    return lang_getattr(vm, self, name, out);
}

static bool td_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1 || !lang_is_instance(a->pos[0]))
        return lang_raise(vm, LANG_ERR_TYPE, "TensorDataset.__init__ needs self");
    int64_t n0 = -1;
    for (int k = 1; k < a->n; k++) {
        nn_tensor *t = lang_tensor_of(a->pos[k]);
        if (!t || t->ndim < 1)
            return lang_raise(vm, LANG_ERR_TYPE, "TensorDataset() takes tensors with a first dim");
        if (n0 >= 0 && t->shape[0] != n0)
            return lang_raise_named(vm, LANG_ERR_ASSERTION, "AssertionError",
                                    "Size mismatch between tensors");
        n0 = t->shape[0];
    }
    lang_val t;
    if (!lang_tuple_pack(vm, a->n - 1, a->pos + 1, &t)) return false;
    bool ok = lang_setattr(vm, a->pos[0], "tensors", t);
    lang_val_release(t);
    if (ok) *out = lang_none();
    return ok;
}

static bool td_getitem(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ts;
    if (a->n != 2 || !self_attr(vm, a->pos[0], "tensors", &ts)) return false;
    int64_t n = lang_seq_len(ts);
    bool ok = lang_tuple_new(vm, n, out);
    for (int64_t k = 0; ok && k < n; k++) {
        lang_val v;
        ok = lang_getitem(vm, lang_seq_items(ts)[k], a->pos[1], &v);
        if (ok) lang_seq_items(*out)[k] = v;
        if (!ok) lang_val_release(*out);
    }
    lang_val_release(ts);
    return ok;
}

static bool td_len(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ts;
    if (a->n != 1 || !self_attr(vm, a->pos[0], "tensors", &ts)) return false;
    nn_tensor *t = lang_seq_len(ts) ? lang_tensor_of(lang_seq_items(ts)[0]) : NULL;
    *out = lang_int(t ? t->shape[0] : 0);
    lang_val_release(ts);
    return true;
}

static bool sub_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ds, idx, list;
    lang_args rest = {a->n - 1, a->pos + 1, a->nkw, a->kwnames, a->kw};
    if (a->n < 1 || !lang_parse_args(vm, &rest, "Subset", "dataset,indices", &ds, &idx) ||
        !lang_list_from_iter(vm, idx, &list))
        return false;
    bool ok =
        lang_setattr(vm, a->pos[0], "dataset", ds) && lang_setattr(vm, a->pos[0], "indices", list);
    lang_val_release(list);
    if (ok) *out = lang_none();
    return ok;
}

static bool sub_getitem(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ds, idx, i;
    if (a->n != 2 || !self_attr(vm, a->pos[0], "dataset", &ds)) return false;
    if (!self_attr(vm, a->pos[0], "indices", &idx)) {
        lang_val_release(ds);
        return false;
    }
    bool ok = lang_getitem(vm, idx, a->pos[1], &i);
    if (ok) {
        ok = lang_getitem(vm, ds, i, out);
        lang_val_release(i);
    }
    lang_val_release(ds);
    lang_val_release(idx);
    return ok;
}

static bool sub_len(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val idx;
    if (a->n != 1 || !self_attr(vm, a->pos[0], "indices", &idx)) return false;
    *out = lang_int(lang_seq_len(idx));
    lang_val_release(idx);
    return true;
}

/* random_split(dataset, lengths): Subsets over a shuffled order; lengths
 * may be counts or fractions (the remainder goes round-robin, as torch). */
static bool b_random_split(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ds, lens, gen = lang_none(), items;
    if (!lang_parse_args(vm, a, "random_split", "dataset,lengths|generator", &ds, &lens, &gen))
        return false;
    lang_val *classic = lang_vm_global(vm, "__nndb_random_split");
    if (classic && ds.kind == LANG_OBJ && ds.u.o->type != &lang_instance_type &&
        !strcmp(ds.u.o->type->name, "Dataset"))
        return lang_call(vm, *classic, a, out);
    nn_rng *rng = NULL;
    if (!lang_generator_arg(vm, gen, "random_split", &rng) ||
        !lang_list_from_iter(vm, lens, &items))
        return false;
    int64_t n, m = lang_seq_len(items);
    if (!ds_len(vm, ds, &n)) {
        lang_val_release(items);
        return false;
    }
    int64_t *sizes = calloc((size_t)(m ? m : 1), sizeof *sizes);
    int64_t *order = malloc(sizeof *order * (size_t)(n ? n : 1));
    bool ok = sizes && order;
    if (!ok) lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    /* torch: fractions when they sum to 1 (math.isclose), else counts. */
    double sum = 0;
    for (int64_t k = 0; ok && k < m; k++) {
        double f;
        ok = lang_to_float(vm, lang_seq_items(items)[k], "length", &f);
        sum += f;
    }
    bool fractions = ok && fabs(sum - 1) <= 1e-9 * fmax(fabs(sum), 1) && sum <= 1;
    int64_t total = 0;
    for (int64_t k = 0; ok && k < m; k++) {
        if (fractions) {
            double f;
            ok = lang_to_float(vm, lang_seq_items(items)[k], "length", &f);
            if (ok && (f < 0 || f > 1))
                ok = lang_raise(vm, LANG_ERR_VALUE, "Fraction at index %lld is not between 0 and 1",
                                (long long)k);
            sizes[k] = (int64_t)floor((double)n * f);
        } else {
            ok = lang_to_int(vm, lang_seq_items(items)[k], "length", &sizes[k]);
        }
        total += sizes[k];
    }
    if (ok && fractions)
        for (int64_t k = 0; total < n; k = (k + 1) % m) {
            sizes[k]++;
            total++;
        }
    if (ok && total != n)
        ok = lang_raise(vm, LANG_ERR_VALUE,
                        "Sum of input lengths does not equal the length of the input dataset!");
    if (ok) {
        /* One randperm(len(dataset)), as torch's random_split draws it. */
        nn_random_perm_into(rng ? rng : &lang_vm_ctx(vm)->rng, order, n);
        ok = lang_list_new(vm, 0, out);
    }
    lang_val *subset = ok ? lang_vm_global(vm, "Subset") : NULL;
    if (ok && !subset) ok = lang_raise(vm, LANG_ERR_RUNTIME, "Subset is missing");
    for (int64_t k = 0, off = 0; ok && k < m; off += sizes[k], k++) {
        lang_val idx, args[2], s;
        ok = lang_list_new(vm, sizes[k], &idx);
        for (int64_t j = 0; ok && j < sizes[k]; j++)
            lang_seq_items(idx)[j] = lang_int(order[off + j]);
        if (!ok) break;
        args[0] = ds;
        args[1] = idx;
        lang_args ca = {2, args, 0, NULL, NULL};
        ok = lang_call(vm, *subset, &ca, &s);
        lang_val_release(idx);
        if (ok) {
            ok = lang_list_append(vm, *out, s);
            lang_val_release(s);
        }
        if (!ok) lang_val_release(*out);
    }
    free(sizes);
    free(order);
    lang_val_release(items);
    return ok;
}

/* ------------------------------------------------------------------ install */

#define F(cls, n, f, sig, doc)                                                                     \
    {                                                                                              \
        n, f, {                                                                                    \
            cls "." n, sig, doc, ""                                                                \
        }                                                                                          \
    }
static const lang_builtin_def td_methods[] = {
    F("TensorDataset", "__init__", td_init, "TensorDataset(*tensors)",
      "Samples are tuples of the tensors' rows."),
    F("TensorDataset", "__getitem__", td_getitem, "__getitem__(i)", "(t[i] for each tensor)."),
    F("TensorDataset", "__len__", td_len, "__len__()", "The tensors' first dim."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
static const lang_builtin_def sub_methods[] = {
    F("Subset", "__init__", sub_init, "Subset(dataset, indices)", "The dataset at these indices."),
    F("Subset", "__getitem__", sub_getitem, "__getitem__(i)", "dataset[indices[i]]."),
    F("Subset", "__len__", sub_len, "__len__()", "len(indices)."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef F

static bool add_class(lang_vm *vm, const char *name, const char *qual,
                      const lang_builtin_def *methods) {
    lang_class *ds = lang_builtin_class(vm, "object");
    lang_val *dsv = lang_vm_global(vm, "Dataset");
    lang_val base = dsv && lang_is_class(*dsv) ? *dsv : lang_obj_val(&ds->hdr), cls;
    if (!lang_class_new(vm, name, qual, base, &cls)) return false;
    lang_class *c = lang_class_of_val(cls);
    c->flags |= LANG_CLASS_NATIVE;
    bool ok = true;
    for (const lang_builtin_def *d = methods; ok && d->name; d++) {
        lang_val f;
        ok = lang_builtin_new(vm, d->fn, &d->help, &f);
        if (ok) {
            ok = lang_ns_set(vm, &c->dict, d->name, f);
            lang_val_release(f);
        }
    }
    if (ok) ok = lang_vm_set_builtin(vm, name, cls);
    lang_val_release(cls);
    return ok;
}

static const lang_help dataloader_help = {
    "DataLoader",
    "DataLoader(dataset, batch_size=1, shuffle=False, sampler=None, collate_fn=None, "
    "drop_last=False)",
    "Batches of any dataset with __len__ and __getitem__ (torch.utils.data.DataLoader): samples "
    "are collated as torch's default_collate does (tensors stacked, numbers made tensors, "
    "tuples collated item by item). nndb's builtin datasets (spirals(), ...) keep their own "
    "loader, whose batches have .x and .y.",
    "loader = DataLoader(TensorDataset(x, y), batch_size=4, shuffle=True)"};
static const lang_help random_split_help = {
    "random_split", "random_split(dataset, lengths, generator=None)",
    "Split a dataset into non-overlapping Subsets of the given lengths (or fractions).",
    "train, val = random_split(ds, [0.8, 0.2])"};
static const lang_help default_collate_help = {
    "default_collate", "default_collate(batch)",
    "Merge a list of samples into a batch, as DataLoader does.", ""};

bool lang_loader_install(lang_vm *vm) {
    lang_val *classic = lang_vm_global(vm, "DataLoader");
    if (classic && !lang_vm_set_builtin(vm, "__nndb_dataloader", *classic)) return false;
    lang_val *split = lang_vm_global(vm, "random_split");
    if (split && !lang_vm_set_builtin(vm, "__nndb_random_split", *split)) return false;
    static const struct {
        const char *name;
        lang_builtin_fn fn;
        const lang_help *help;
    } fns[] = {{"DataLoader", b_dataloader, &dataloader_help},
               {"random_split", b_random_split, &random_split_help},
               {"default_collate", b_default_collate, &default_collate_help}};
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        lang_val f;
        if (!lang_builtin_new(vm, fns[k].fn, fns[k].help, &f)) return false;
        bool ok = lang_vm_set_builtin(vm, fns[k].name, f);
        lang_val_release(f);
        if (!ok) return false;
    }
    return add_class(vm, "TensorDataset", "torch.utils.data.dataset.TensorDataset", td_methods) &&
           add_class(vm, "Subset", "torch.utils.data.dataset.Subset", sub_methods);
}
