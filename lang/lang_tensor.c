/* lang_tensor: the Tensor type, dtype objects, torch.Size, and the tensor
 * family of builtins, with PyTorch's names, signatures and keyword
 * arguments. Owned by the tensor/display engineer; see lang_tensor.h.
 *
 * Every op goes through the engine's public API (nn_ops.h), so hooks,
 * autograd and labels see what the script does. Functions and methods
 * share one implementation: a method is the function with self prepended.
 */
#include "lang_tensor.h"
#include "lang_debug.h"
#include "lang_tensor_ops.h"
#include "lang_usermod.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_display.h"
#include "lang_eval.h" /* slice and builtin layouts, lang_tuple_pack, lang_slice_indices */
#include "lang_generator.h"
#include "lang_std.h"
#include "lang_vm.h"
#include "nn_intops.h"
#include "nn_ops.h"
#include "nn_random.h"

/* ------------------------------------------------------------------ objects */

typedef struct tensor_obj {
    lang_obj hdr;
    nn_tensor *t;
    /* torch's grad_fn name when the op that made this value tells it apart
     * from what the engine node says (unsqueeze and view both record a
     * reshape); NULL otherwise. */
    const char *fn_name;
    /* A module's parameter prints as torch.nn.Parameter does. */
    bool is_param;
} tensor_obj;

static void tensor_free(lang_obj *o) {
    nn_tensor_release(((tensor_obj *)o)->t);
}

bool lang_tensor_new(lang_vm *vm, nn_tensor *t, lang_val *out) {
    tensor_obj *o = lang_obj_new(vm, &lang_tensor_type, sizeof *o);
    if (!o) {
        nn_tensor_release(t);
        return false;
    }
    o->t = t;
    o->fn_name = NULL;
    o->is_param = false;
    *out = lang_obj_val(&o->hdr);
    return true;
}

void lang_tensor_mark_param(lang_val v) {
    if (lang_is_obj(v, &lang_tensor_type)) ((tensor_obj *)v.u.o)->is_param = true;
}

void lang_tensor_set_fn_name(lang_val v, const char *name) {
    if (lang_is_obj(v, &lang_tensor_type)) ((tensor_obj *)v.u.o)->fn_name = name;
}

bool lang_tensor_is_param(lang_val v) {
    return lang_is_obj(v, &lang_tensor_type) && ((tensor_obj *)v.u.o)->is_param;
}

nn_tensor *lang_tensor_of(lang_val v) {
    return lang_is_obj(v, &lang_tensor_type) ? ((tensor_obj *)v.u.o)->t : NULL;
}

static nn_ctx *CTX(lang_vm *vm) {
    return lang_vm_ctx(vm);
}

/* Wrap an engine result; NULL means the engine raised. */
static bool wrap(lang_vm *vm, nn_tensor *r, lang_val *out) {
    if (!r) return lang_raise_engine(vm);
    return lang_tensor_new(vm, r, out);
}

static bool wrap_named(lang_vm *vm, nn_tensor *r, const char *fn_name, lang_val *out) {
    if (!wrap(vm, r, out)) return false;
    if (r->grad_fn) ((tensor_obj *)out->u.o)->fn_name = fn_name;
    return true;
}

static bool status(lang_vm *vm, nn_status st) {
    return st == NN_OK ? true : lang_raise_engine(vm);
}

/* ---- dtype objects ---- */

typedef struct dtype_obj {
    lang_obj hdr;
    nn_dtype dt;
} dtype_obj;

/* Static objects: the refcount starts far from zero and free does nothing,
 * so == on dtypes is identity as in torch. */
static void dtype_free(lang_obj *o) {
    (void)o;
}

static dtype_obj dtype_objs[NN_DTYPE_COUNT] = {
    {{1 << 28, &lang_dtype_type}, NN_FLOAT32}, {{1 << 28, &lang_dtype_type}, NN_FLOAT64},
    {{1 << 28, &lang_dtype_type}, NN_INT64},   {{1 << 28, &lang_dtype_type}, NN_BOOL},
    {{1 << 28, &lang_dtype_type}, NN_INT32},   {{1 << 28, &lang_dtype_type}, NN_INT16},
    {{1 << 28, &lang_dtype_type}, NN_INT8},    {{1 << 28, &lang_dtype_type}, NN_UINT8},
    {{1 << 28, &lang_dtype_type}, NN_FLOAT16}, {{1 << 28, &lang_dtype_type}, NN_BFLOAT16},
};

lang_val lang_dtype_val(nn_dtype dt) {
    dtype_objs[dt].hdr.refcount++;
    return lang_obj_val(&dtype_objs[dt].hdr);
}

static bool dtype_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "torch.%s", nn_dtype_name(((dtype_obj *)o)->dt));
    return true;
}

static bool dtype_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    nn_dtype dt = ((dtype_obj *)o)->dt;
    *found = true;
    if (!strcmp(name, "is_floating_point"))
        *out = lang_bool(nn_dtype_is_float(dt));
    else if (!strcmp(name, "is_signed"))
        *out = lang_bool(dt != NN_UINT8 && dt != NN_BOOL);
    else if (!strcmp(name, "itemsize"))
        *out = lang_int((int64_t)nn_dtype_size(dt));
    else
        *found = false;
    return true;
}

static const char *const dtype_fields[] = {"is_floating_point", "is_signed", "itemsize", NULL};
static const char *const *dtype_fieldnames(lang_obj *o) {
    return dtype_fields;
}

static const lang_help dtype_help = {
    "dtype", "float32 | float64 | float16 | bfloat16 | int64 | int32 | int16 | int8 | uint8 | bool",
    "The element type of a tensor. float32 is the default for floating values, float64 for "
    "gradient checks, float16 (half) and bfloat16 for mixed-precision lessons, int64 (long) for "
    "indices and class labels, int32 (int), int16 (short), int8 and uint8 for compact integers, "
    "bool for masks. Python's float, int and bool also work as dtype= arguments "
    "(float64, int64, bool, as in torch).",
    "x = zeros(3, dtype=float64); x.dtype"};

const lang_type lang_dtype_type = {
    .name = "dtype",
    .free = dtype_free,
    .repr = dtype_repr,
    .getattr = dtype_getattr,
    .fields = dtype_fieldnames,
    .help = &dtype_help,
};

static bool builtin_named(lang_val v, const char *name) {
    if (lang_is_obj(v, &lang_typeobj_type))
        return !strcmp(((const lang_typeobj *)v.u.o)->name, name);
    if (!lang_is_obj(v, &lang_builtin_type)) return false;
    const lang_builtin_obj *b = (const lang_builtin_obj *)v.u.o;
    return b->help && b->help->name && !strcmp(b->help->name, name);
}

bool lang_dtype_from(lang_vm *vm, lang_val v, const char *what, nn_dtype *out) {
    if (lang_is_obj(v, &lang_dtype_type)) {
        *out = ((dtype_obj *)v.u.o)->dt;
        return true;
    }
    if (builtin_named(v, "float"))
        *out = NN_FLOAT64;
    else if (builtin_named(v, "int"))
        *out = NN_INT64;
    else if (builtin_named(v, "bool"))
        *out = NN_BOOL;
    else
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s must be a torch.dtype (such as torch.float32), not %s", what,
                          lang_type_name(v));
    return true;
}

/* ---- torch.finfo / torch.iinfo ---- */

typedef struct typeinfo_obj {
    lang_obj hdr;
    nn_dtype dt;
} typeinfo_obj;

typedef struct float_info {
    int bits;
    double max, eps, tiny, resolution;
} float_info;

static float_info finfo_of(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT16: return (float_info){16, 65504.0, 0x1p-10, 0x1p-14, 1e-3};
    case NN_BFLOAT16: return (float_info){16, 0x1.fep127, 0x1p-7, 0x1p-126, 1e-2};
    case NN_FLOAT64: return (float_info){64, 0x1.fffffffffffffp1023, 0x1p-52, 0x1p-1022, 1e-15};
    default: return (float_info){32, 0x1.fffffep127, 0x1p-23, 0x1p-126, 1e-6};
    }
}

static void iinfo_of(nn_dtype dt, int *bits, int64_t *lo, int64_t *hi) {
    *bits = (int)nn_dtype_size(dt) * 8;
    if (dt == NN_UINT8) {
        *lo = 0, *hi = 255;
    } else if (dt == NN_BOOL) {
        *bits = 8, *lo = 0, *hi = 1;
    } else {
        *hi = (int64_t)(((uint64_t)1 << (*bits - 1)) - 1);
        *lo = -*hi - 1;
    }
}

static bool finfo_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    nn_dtype dt = ((typeinfo_obj *)o)->dt;
    float_info f = finfo_of(dt);
    lang_buf_printf(out,
                    "finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, "
                    "dtype=%s)",
                    f.resolution, -f.max, f.max, f.eps, f.tiny, f.tiny, nn_dtype_name(dt));
    return true;
}

static bool finfo_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    nn_dtype dt = ((typeinfo_obj *)o)->dt;
    float_info f = finfo_of(dt);
    *found = true;
    if (!strcmp(name, "bits"))
        *out = lang_int(f.bits);
    else if (!strcmp(name, "max"))
        *out = lang_float(f.max);
    else if (!strcmp(name, "min"))
        *out = lang_float(-f.max);
    else if (!strcmp(name, "eps"))
        *out = lang_float(f.eps);
    else if (!strcmp(name, "tiny") || !strcmp(name, "smallest_normal"))
        *out = lang_float(f.tiny);
    else if (!strcmp(name, "resolution"))
        *out = lang_float(f.resolution);
    else if (!strcmp(name, "dtype"))
        return lang_str_new(vm, nn_dtype_name(dt), strlen(nn_dtype_name(dt)), out);
    else
        *found = false;
    return true;
}

static bool iinfo_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    nn_dtype dt = ((typeinfo_obj *)o)->dt;
    int bits;
    int64_t lo, hi;
    iinfo_of(dt, &bits, &lo, &hi);
    lang_buf_printf(out, "iinfo(min=%lld, max=%lld, dtype=%s)", (long long)lo, (long long)hi,
                    nn_dtype_name(dt));
    return true;
}

static bool iinfo_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    nn_dtype dt = ((typeinfo_obj *)o)->dt;
    int bits;
    int64_t lo, hi;
    iinfo_of(dt, &bits, &lo, &hi);
    *found = true;
    if (!strcmp(name, "bits"))
        *out = lang_int(bits);
    else if (!strcmp(name, "max"))
        *out = lang_int(hi);
    else if (!strcmp(name, "min"))
        *out = lang_int(lo);
    else if (!strcmp(name, "dtype"))
        return lang_str_new(vm, nn_dtype_name(dt), strlen(nn_dtype_name(dt)), out);
    else
        *found = false;
    return true;
}

static const char *const finfo_fields[] = {
    "bits", "max", "min", "eps", "tiny", "smallest_normal", "resolution", "dtype", NULL};
static const char *const *finfo_fieldnames(lang_obj *o) {
    return finfo_fields;
}
static const char *const iinfo_fields[] = {"bits", "max", "min", "dtype", NULL};
static const char *const *iinfo_fieldnames(lang_obj *o) {
    return iinfo_fields;
}

static const lang_type finfo_type = {
    .name = "finfo", .repr = finfo_repr, .getattr = finfo_getattr, .fields = finfo_fieldnames};
static const lang_type iinfo_type = {
    .name = "iinfo", .repr = iinfo_repr, .getattr = iinfo_getattr, .fields = iinfo_fieldnames};

static bool typeinfo_new(lang_vm *vm, const lang_type *t, nn_dtype dt, lang_val *out) {
    typeinfo_obj *o = lang_obj_new(vm, t, sizeof *o);
    if (!o) return false;
    o->dt = dt;
    *out = lang_obj_val(&o->hdr);
    return true;
}

static bool f_finfo(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val dv = lang_none();
    nn_dtype dt = NN_FLOAT32;
    if (!lang_parse_args(vm, a, "finfo", "|type", &dv)) return false;
    if (dv.kind != LANG_NONE && !lang_dtype_from(vm, dv, "type", &dt)) return false;
    if (!nn_dtype_is_float(dt))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "torch.finfo() requires a floating point input type. Use torch.iinfo "
                          "to handle 'torch.finfo'");
    return typeinfo_new(vm, &finfo_type, dt, out);
}

static bool f_iinfo(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val dv;
    nn_dtype dt;
    if (!lang_parse_args(vm, a, "iinfo", "type", &dv) || !lang_dtype_from(vm, dv, "type", &dt))
        return false;
    if (nn_dtype_is_float(dt))
        return lang_raise(vm, LANG_ERR_TYPE, "dtype torch.%s is not integral", nn_dtype_name(dt));
    return typeinfo_new(vm, &iinfo_type, dt, out);
}

/* An optional dtype= argument: *given false when None. */
static bool opt_dtype(lang_vm *vm, lang_val v, nn_dtype *out, bool *given) {
    *given = v.kind != LANG_NONE;
    return !*given || lang_dtype_from(vm, v, "dtype", out);
}

/* ---- torch.Size ---- */

typedef struct size_obj {
    lang_obj hdr;
    int n;
    int64_t d[NN_MAX_DIMS];
} size_obj;

bool lang_size_new(lang_vm *vm, int n, const int64_t *dims, lang_val *out) {
    size_obj *o = lang_obj_new(vm, &lang_size_type, sizeof *o);
    if (!o) return false;
    o->n = n;
    if (n) memcpy(o->d, dims, (size_t)n * sizeof *dims);
    *out = lang_obj_val(&o->hdr);
    return true;
}

static bool size_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    size_obj *s = (size_obj *)o;
    lang_buf_puts(out, "torch.Size([");
    for (int i = 0; i < s->n; i++)
        lang_buf_printf(out, "%s%lld", i ? ", " : "", (long long)s->d[i]);
    lang_buf_puts(out, "])");
    return true;
}

static bool size_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = ((size_obj *)o)->n;
    return true;
}

static bool size_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = ((size_obj *)o)->n > 0;
    return true;
}

static bool size_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    size_obj *s = (size_obj *)o;
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count, d[NN_MAX_DIMS];
        if (!lang_slice_indices(vm, key, s->n, &start, &stop, &step, &count)) return false;
        for (int64_t i = 0; i < count; i++) d[i] = s->d[start + i * step];
        return lang_size_new(vm, (int)count, d, out);
    }
    int64_t i;
    if (key.kind != LANG_INT && key.kind != LANG_BOOL)
        return lang_raise(vm, LANG_ERR_TYPE, "tuple indices must be integers or slices, not %s",
                          lang_type_name(key));
    i = key.kind == LANG_INT ? key.u.i : key.u.b;
    if (i < 0) i += s->n;
    if (i < 0 || i >= s->n) return lang_raise(vm, LANG_ERR_INDEX, "tuple index out of range");
    *out = lang_int(s->d[i]);
    return true;
}

/* The ints of a Size, tuple or list, into [d] (at most NN_MAX_DIMS); false
 * without raising when [v] is not such a sequence of ints. */
static bool int_seq(lang_val v, int64_t *d, int *n) {
    if (lang_is_obj(v, &lang_size_type)) {
        size_obj *s = (size_obj *)v.u.o;
        *n = s->n;
        memcpy(d, s->d, (size_t)s->n * sizeof *d);
        return true;
    }
    if (!lang_is_obj(v, &lang_tuple_type) && !lang_is_obj(v, &lang_list_type)) return false;
    int64_t len = lang_seq_len(v);
    if (len > NN_MAX_DIMS) return false;
    lang_val *items = lang_seq_items(v);
    for (int64_t i = 0; i < len; i++) {
        if (items[i].kind != LANG_INT) return false;
        d[i] = items[i].u.i;
    }
    *n = (int)len;
    return true;
}

static bool size_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                       bool *handled) {
    *handled = false;
    int64_t da[NN_MAX_DIMS], db[NN_MAX_DIMS];
    int na, nb;
    bool a_size = lang_is_obj(a, &lang_size_type), b_size = lang_is_obj(b, &lang_size_type);
    if (op == LANG_OP_ADD && (a_size || b_size)) {
        /* Size + tuple is a Size; tuple + Size a tuple, as torch.Size is a tuple. */
        if (!int_seq(a, da, &na) || !int_seq(b, db, &nb) || lang_is_obj(a, &lang_list_type) ||
            lang_is_obj(b, &lang_list_type))
            return true;
        if (na + nb > NN_MAX_DIMS)
            return lang_raise(vm, LANG_ERR_VALUE, "a Size holds at most %d dims", NN_MAX_DIMS);
        memcpy(da + na, db, (size_t)nb * sizeof *db);
        *handled = true;
        if (a_size) return lang_size_new(vm, na + nb, da, out);
        lang_val items[NN_MAX_DIMS];
        for (int i = 0; i < na + nb; i++) items[i] = lang_int(da[i]);
        return lang_tuple_pack(vm, na + nb, items, out);
    }
    if (op == LANG_OP_MUL && a_size && b.kind == LANG_INT) {
        int_seq(a, da, &na);
        int64_t k = b.u.i < 0 ? 0 : b.u.i;
        if (na * k > NN_MAX_DIMS)
            return lang_raise(vm, LANG_ERR_VALUE, "a Size holds at most %d dims", NN_MAX_DIMS);
        for (int64_t r = 1; r < k; r++) memcpy(da + r * na, da, (size_t)na * sizeof *da);
        *handled = true;
        return lang_size_new(vm, (int)(na * k), da, out);
    }
    if (op != LANG_OP_EQ && op != LANG_OP_NE) return true;
    /* A Size equals a tuple of the same ints, never a list (as torch). */
    if (!int_seq(a, da, &na) || !int_seq(b, db, &nb) || lang_is_obj(a, &lang_list_type) ||
        lang_is_obj(b, &lang_list_type)) {
        *handled = true;
        *out = lang_bool(op == LANG_OP_NE);
        return true;
    }
    bool eq = na == nb && (na == 0 || !memcmp(da, db, (size_t)na * sizeof *da));
    *handled = true;
    *out = lang_bool(op == LANG_OP_EQ ? eq : !eq);
    return true;
}

static bool m_size_numel(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "numel", "")) return false;
    size_obj *s = (size_obj *)self.u.o;
    int64_t n = 1;
    for (int i = 0; i < s->n; i++) n *= s->d[i];
    *out = lang_int(n);
    return true;
}

static bool seq_iter(lang_vm *vm, lang_obj *o, lang_val *out);
static bool seq_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done);

static const lang_method size_methods[] = {
    {"numel",
     m_size_numel,
     {"Size.numel", "numel()", "The number of elements a tensor of this shape holds.",
      "x.shape.numel()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_type lang_size_type = {
    .name = "Size",
    .repr = size_repr,
    .len = size_len,
    .truth = size_truth,
    .getitem = size_getitem,
    .iter = seq_iter,
    .binop = size_binop,
    .methods = size_methods,
};

/* ---- iterator over a tensor's dim 0 or a Size ---- */

typedef struct iter_obj {
    lang_obj hdr;
    lang_val src;
    int64_t i, n;
} iter_obj;

static void iter_free(lang_obj *o) {
    lang_val_release(((iter_obj *)o)->src);
}

static const lang_type tensor_iter_type = {
    .name = "tensor_iterator",
    .free = iter_free,
    .next = seq_next,
};

static bool seq_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    int64_t n;
    if (o->type == &lang_size_type) {
        n = ((size_obj *)o)->n;
    } else {
        nn_tensor *t = ((tensor_obj *)o)->t;
        if (t->ndim == 0) return lang_raise(vm, LANG_ERR_TYPE, "iteration over a 0-d tensor");
        n = t->shape[0];
    }
    iter_obj *it = lang_obj_new(vm, &tensor_iter_type, sizeof *it);
    if (!it) return false;
    it->src = lang_val_retain(lang_obj_val(o));
    it->i = 0;
    it->n = n;
    *out = lang_obj_val(&it->hdr);
    return true;
}

static bool seq_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    iter_obj *it = (iter_obj *)o;
    *done = it->i >= it->n;
    if (*done) return true;
    int64_t i = it->i++;
    if (lang_is_obj(it->src, &lang_size_type)) {
        *out = lang_int(((size_obj *)it->src.u.o)->d[i]);
        return true;
    }
    return wrap(vm, nn_select(CTX(vm), lang_tensor_of(it->src), 0, i), out);
}

/* ---- grad_fn ---- */

typedef struct gradfn_obj {
    lang_obj hdr;
    nn_node *node;
    const char *name;
} gradfn_obj;

static void gradfn_free(lang_obj *o) {
    nn_node_release(((gradfn_obj *)o)->node);
}

static bool gradfn_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<%s>", ((gradfn_obj *)o)->name);
    return true;
}

static bool m_gradfn_name(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "name", "")) return false;
    const char *n = ((gradfn_obj *)self.u.o)->name;
    /* torch names its C++-only node by its C++ name */
    if (!strcmp(n, "CopySlices")) n = "torch::autograd::CopySlices";
    return lang_str_from_cstr(vm, n, out);
}

static bool gradfn_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    gradfn_obj *g = (gradfn_obj *)o;
    *found = true;
    if (!strcmp(name, "op")) return lang_str_from_cstr(vm, nn_op_name(g->node->op), out);
    if (!strcmp(name, "line")) {
        *out = g->node->label.line ? lang_int(g->node->label.line) : lang_none();
        return true;
    }
    if (!strcmp(name, "module")) {
        if (!g->node->label.module) {
            *out = lang_none();
            return true;
        }
        return lang_str_from_cstr(vm, g->node->label.module, out);
    }
    *found = false;
    return true;
}

static const char *const gradfn_fields[] = {"op", "line", "module", NULL};
static const char *const *gradfn_fieldnames(lang_obj *o) {
    return gradfn_fields;
}

static const lang_method gradfn_methods[] = {
    {"name",
     m_gradfn_name,
     {"grad_fn.name", "name()", "The backward node's class name, as torch names it.",
      "(x * 2).grad_fn.name()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_type gradfn_type = {
    .name = "grad_fn",
    .free = gradfn_free,
    .repr = gradfn_repr,
    .getattr = gradfn_getattr,
    .fields = gradfn_fieldnames,
    .methods = gradfn_methods,
};

/* ---- torch.return_types.max(values=..., indices=...) ---- */

typedef struct rt_obj {
    lang_obj hdr;
    const char *name; /* "max" */
    lang_val values, indices;
} rt_obj;

static void rt_free(lang_obj *o) {
    rt_obj *r = (rt_obj *)o;
    lang_val_release(r->values);
    lang_val_release(r->indices);
}

static bool rt_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    rt_obj *r = (rt_obj *)o;
    lang_buf_printf(out, "torch.return_types.%s(\nvalues=", r->name);
    if (!lang_repr(vm, r->values, out)) return false;
    lang_buf_puts(out, ",\nindices=");
    if (!lang_repr(vm, r->indices, out)) return false;
    lang_buf_puts(out, ")");
    return true;
}

static bool rt_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    rt_obj *r = (rt_obj *)o;
    *found = true;
    if (!strcmp(name, "values"))
        *out = lang_val_retain(r->values);
    else if (!strcmp(name, "indices"))
        *out = lang_val_retain(r->indices);
    else
        *found = false;
    return true;
}

static bool rt_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    rt_obj *r = (rt_obj *)o;
    if (key.kind != LANG_INT)
        return lang_raise(vm, LANG_ERR_TYPE, "tuple indices must be integers, not %s",
                          lang_type_name(key));
    int64_t i = key.u.i < 0 ? key.u.i + 2 : key.u.i;
    if (i < 0 || i > 1) return lang_raise(vm, LANG_ERR_INDEX, "tuple index out of range");
    *out = lang_val_retain(i == 0 ? r->values : r->indices);
    return true;
}

static bool rt_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = 2;
    return true;
}

static bool rt_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    rt_obj *r = (rt_obj *)o;
    lang_val items[2] = {r->values, r->indices}, tup;
    if (!lang_tuple_pack(vm, 2, items, &tup)) return false;
    bool ok = lang_iter(vm, tup, out);
    lang_val_release(tup);
    return ok;
}

static const char *const rt_fields[] = {"values", "indices", NULL};
static const char *const *rt_fieldnames(lang_obj *o) {
    return rt_fields;
}

/* One type per torch.return_types class, so type(r).__name__ is "max",
 * "sort", ... as in torch. */
#define RT_TYPE(N)                                                                                 \
    {                                                                                              \
        .name = N, .free = rt_free, .repr = rt_repr, .getattr = rt_getattr, .getitem = rt_getitem, \
        .len = rt_len, .iter = rt_iter, .fields = rt_fieldnames                                    \
    }
static const lang_type rt_types[] = {RT_TYPE("max"), RT_TYPE("min"), RT_TYPE("sort"),
                                     RT_TYPE("topk"), RT_TYPE("return_types")};
#undef RT_TYPE

static const lang_type *rt_type_of(const char *name) {
    size_t n = sizeof rt_types / sizeof rt_types[0];
    for (size_t i = 0; i + 1 < n; i++)
        if (!strcmp(rt_types[i].name, name)) return &rt_types[i];
    return &rt_types[n - 1];
}

/* Takes over both references. */
static bool rt_new(lang_vm *vm, const char *name, nn_tensor *values, nn_tensor *indices,
                   lang_val *out) {
    rt_obj *r = lang_obj_new(vm, rt_type_of(name), sizeof *r);
    if (!r) {
        nn_tensor_release(values);
        nn_tensor_release(indices);
        return false;
    }
    r->name = name;
    r->values = lang_none();
    r->indices = lang_none();
    *out = lang_obj_val(&r->hdr);
    if (!lang_tensor_new(vm, values, &r->values)) {
        nn_tensor_release(indices);
        lang_val_release(*out);
        return false;
    }
    if (!lang_tensor_new(vm, indices, &r->indices)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ conversions */

/* A Python number as a wrapped 0-dim tensor (does not widen a tensor's
 * dtype, as PyTorch's wrapped numbers). New reference or NULL. */
static nn_tensor *wrapped_number(nn_ctx *ctx, lang_val v) {
    switch (v.kind) {
    case LANG_INT: return nn_scalar_wrapped_int(ctx, v.u.i);
    case LANG_FLOAT: return nn_scalar_wrapped(ctx, v.u.f);
    case LANG_BOOL: {
        nn_tensor *t = nn_scalar(ctx, v.u.b ? 1.0 : 0.0, NN_BOOL);
        if (t) t->is_wrapped_number = true;
        return t;
    }
    default: return NULL;
    }
}

static bool is_number(lang_val v) {
    return v.kind == LANG_INT || v.kind == LANG_FLOAT || v.kind == LANG_BOOL;
}

static bool is_seq(lang_val v) {
    return lang_is_obj(v, &lang_list_type) || lang_is_obj(v, &lang_tuple_type);
}

/* Nested data -> shape and kind; kind 0 bool, 1 int, 2 float. */
typedef struct nest {
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    int kind;
    int64_t n;
    double *vals;
} nest;

static bool nest_shape(lang_vm *vm, lang_val v, nest *ns) {
    ns->ndim = 0;
    lang_val cur = v;
    while (is_seq(cur)) {
        if (ns->ndim == NN_MAX_DIMS)
            return lang_raise(vm, LANG_ERR_VALUE, "tensor(): data nests more than %d deep",
                              NN_MAX_DIMS);
        int64_t len = lang_seq_len(cur);
        ns->shape[ns->ndim++] = len;
        if (len == 0) break;
        cur = lang_seq_items(cur)[0];
    }
    return true;
}

static bool nest_fill(lang_vm *vm, lang_val v, nest *ns, int d) {
    if (d == ns->ndim) {
        double x;
        int kind;
        nn_tensor *t = lang_tensor_of(v);
        if (v.kind == LANG_BOOL)
            x = v.u.b, kind = 0;
        else if (v.kind == LANG_INT)
            x = (double)v.u.i, kind = 1;
        else if (v.kind == LANG_FLOAT)
            x = v.u.f, kind = 2;
        else if (t && nn_tensor_numel(t) == 1) {
            nn_tensor_to_doubles(t, &x);
            kind = t->dtype == NN_BOOL ? 0 : nn_dtype_is_int(t->dtype) ? 1 : 2;
        } else if (is_seq(v) || t) {
            return lang_raise(vm, LANG_ERR_VALUE,
                              "expected sequence of length %lld at dim %d (got a deeper item)",
                              (long long)(d ? ns->shape[d - 1] : 0), d);
        } else {
            return lang_raise(vm, LANG_ERR_TYPE, "tensor(): can't convert %s to a number",
                              lang_type_name(v));
        }
        if (kind > ns->kind) ns->kind = kind;
        ns->vals[ns->n++] = x;
        return true;
    }
    if (!is_seq(v))
        return lang_raise(vm, LANG_ERR_VALUE, "expected sequence of length %lld at dim %d (got %s)",
                          (long long)ns->shape[d], d, lang_type_name(v));
    int64_t len = lang_seq_len(v);
    if (len != ns->shape[d])
        return lang_raise(vm, LANG_ERR_VALUE,
                          "expected sequence of length %lld at dim %d (got %lld)",
                          (long long)ns->shape[d], d, (long long)len);
    lang_val *items = lang_seq_items(v);
    for (int64_t i = 0; i < len; i++)
        if (!nest_fill(vm, items[i], ns, d + 1)) return false;
    return true;
}

bool lang_tensor_from_value(lang_vm *vm, lang_val v, int dtype, nn_tensor **out) {
    nn_ctx *ctx = CTX(vm);
    nn_tensor *t = lang_tensor_of(v);
    *out = NULL;
    if (t) {
        nn_dtype dt = dtype < 0 ? t->dtype : (nn_dtype)dtype;
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
        if (!c) return lang_raise_engine(vm);
        /* A copy without history, as torch.tensor(t) gives. */
        nn_tensor *r = nn_tensor_cast_raw(ctx, c, dt);
        if (r == c || r == t) {
            nn_tensor_release(r);
            r = nn_tensor_from_data(ctx, c->dtype, c->ndim, c->shape, nn_tensor_data(c));
        }
        nn_tensor_release(c);
        if (!r) return lang_raise_engine(vm);
        *out = r;
        return true;
    }
    nest ns = {0};
    if (lang_is_obj(v, &lang_range_type) ||
        (v.kind == LANG_OBJ && !is_seq(v) && !is_number(v) && v.u.o->type->iter &&
         !lang_is_obj(v, &lang_str_type))) {
        /* tensor(range(3)), tensor(a generator's items): their list's tensor. */
        lang_val list;
        if (!lang_list_from_iter(vm, v, &list)) return false;
        bool ok = lang_tensor_from_value(vm, list, dtype, out);
        lang_val_release(list);
        return ok;
    }
    if (!is_number(v) && !is_seq(v))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "tensor(): data must be a number, a list or a tensor, not %s",
                          lang_type_name(v));
    if (!nest_shape(vm, v, &ns)) return false;
    int64_t total = 1;
    for (int d = 0; d < ns.ndim; d++) total *= ns.shape[d];
    ns.vals = malloc((size_t)(total ? total : 1) * sizeof *ns.vals);
    if (!ns.vals) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    ns.kind = total == 0 ? 2 : 0;
    if (total > 0 && !nest_fill(vm, v, &ns, 0)) {
        free(ns.vals);
        return false;
    }
    nn_dtype dt = dtype >= 0     ? (nn_dtype)dtype
                  : ns.kind == 2 ? NN_FLOAT32
                  : ns.kind == 1 ? NN_INT64
                                 : NN_BOOL;
    if (dt == NN_INT64 && ns.kind == 1) {
        /* Keep int64 exact beyond 2^53. */
        int64_t *iv = malloc((size_t)(total ? total : 1) * sizeof *iv);
        if (!iv) {
            free(ns.vals);
            return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        }
        int64_t k = 0;
        /* Walk again for exact ints: only flat lists of ints need it in
         * practice, but the walk is cheap. */
        lang_val stack_v[NN_MAX_DIMS + 1];
        int64_t stack_i[NN_MAX_DIMS + 1];
        int depth = 0;
        stack_v[0] = v;
        stack_i[0] = 0;
        if (ns.ndim == 0) {
            iv[k++] = v.u.i;
        } else {
            while (depth >= 0) {
                lang_val cur = stack_v[depth];
                if (stack_i[depth] >= lang_seq_len(cur)) {
                    depth--;
                    if (depth >= 0) stack_i[depth]++;
                    continue;
                }
                lang_val item = lang_seq_items(cur)[stack_i[depth]];
                if (depth + 1 < ns.ndim) {
                    stack_v[depth + 1] = item;
                    stack_i[depth + 1] = 0;
                    depth++;
                    continue;
                }
                iv[k] = item.kind == LANG_INT ? item.u.i : (int64_t)ns.vals[k];
                k++;
                stack_i[depth]++;
            }
        }
        *out = nn_tensor_from_data(ctx, NN_INT64, ns.ndim, ns.shape, iv);
        free(iv);
    } else {
        for (int64_t k = 0; k < total; k++)
            if (!nn_dtype_value_fits(dt, ns.vals[k])) {
                free(ns.vals);
                return lang_raise(vm, LANG_ERR_RUNTIME,
                                  "value cannot be converted to type %s without overflow",
                                  nn_dtype_name(dt));
            }
        *out = nn_tensor_from_doubles(ctx, dt, ns.ndim, ns.shape, ns.vals);
    }
    free(ns.vals);
    if (!*out) return lang_raise_engine(vm);
    return true;
}

/* An operand for an op: a tensor (new reference), a number (wrapped), or
 * nested lists. */
static bool operand(lang_vm *vm, lang_val v, const char *fname, const char *what, nn_tensor **out) {
    nn_tensor *t = lang_tensor_of(v);
    if (t) {
        *out = nn_tensor_retain(t);
        return true;
    }
    if (is_number(v)) {
        *out = wrapped_number(CTX(vm), v);
        return *out ? true : lang_raise_engine(vm);
    }
    if (is_seq(v)) return lang_tensor_from_value(vm, v, -1, out);
    return lang_raise(vm, LANG_ERR_TYPE, "%s(): argument '%s' must be Tensor, not %s", fname, what,
                      lang_type_name(v));
}

/* A tensor argument, borrowed; TypeError otherwise (torch's wording). */
static bool tensor_arg(lang_vm *vm, lang_val v, const char *fname, const char *what,
                       nn_tensor **out) {
    *out = lang_tensor_of(v);
    if (*out) return true;
    return lang_raise(vm, LANG_ERR_TYPE, "%s(): argument '%s' must be Tensor, not %s", fname, what,
                      lang_type_name(v));
}

static bool int_arg(lang_vm *vm, lang_val v, const char *what, int64_t *out) {
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1 && nn_dtype_is_int(t->dtype)) {
        *out = nn_tensor_get_flat_int(t, 0);
        return true;
    }
    return lang_to_int(vm, v, what, out);
}

static bool float_arg(lang_vm *vm, lang_val v, const char *what, double *out) {
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1) {
        nn_tensor_to_doubles(t, out);
        return true;
    }
    return lang_to_float(vm, v, what, out);
}

static bool bool_arg(lang_vm *vm, lang_val v, const char *what, bool *out) {
    return lang_to_bool(vm, v, what, out);
}

/* Dims from one value: an int, or a tuple/list/Size of ints. */
static bool dims_of(lang_vm *vm, lang_val v, const char *what, int64_t *d, int *n) {
    if (v.kind == LANG_INT) {
        d[0] = v.u.i;
        *n = 1;
        return true;
    }
    if (int_seq(v, d, n)) return true;
    if (is_seq(v) && lang_seq_len(v) > NN_MAX_DIMS)
        return lang_raise(vm, LANG_ERR_VALUE, "%s: at most %d dims are supported", what,
                          NN_MAX_DIMS);
    return lang_raise(vm, LANG_ERR_TYPE, "%s must be an int or a tuple of ints, not %s", what,
                      lang_type_name(v));
}

/* Dims given as varargs from positional [first] on (f(2, 3)) or as one
 * tuple (f((2, 3))). */
static bool dims_varargs(lang_vm *vm, const lang_args *a, int first, const char *what, int64_t *d,
                         int *n) {
    int k = a->n - first;
    if (k == 1 && a->pos[first].kind != LANG_INT) return dims_of(vm, a->pos[first], what, d, n);
    if (k > NN_MAX_DIMS)
        return lang_raise(vm, LANG_ERR_VALUE, "%s: at most %d dims are supported", what,
                          NN_MAX_DIMS);
    for (int i = 0; i < k; i++)
        if (!lang_to_int(vm, a->pos[first + i], what, &d[i])) return false;
    *n = k;
    return true;
}

static const lang_val *kwarg(const lang_args *a, const char *name) {
    for (int i = 0; i < a->nkw; i++)
        if (!strcmp(a->kwnames[i], name)) return &a->kw[i];
    return NULL;
}

/* Keyword arguments of a varargs function: each name in [allowed] may
 * appear (its value goes to the matching out, else untouched). */
static bool kwargs_only(lang_vm *vm, const lang_args *a, const char *fname,
                        const char *const *allowed, lang_val **outs) {
    for (int i = 0; i < a->nkw; i++) {
        int j = 0;
        for (; allowed[j]; j++)
            if (!strcmp(allowed[j], a->kwnames[i])) break;
        if (!allowed[j])
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, a->kwnames[i]);
        *outs[j] = a->kw[i];
    }
    return true;
}

/* dim=None or an int or a tuple of ints -> dims (n 0 for all). */
static bool opt_dims(lang_vm *vm, lang_val v, int64_t *d, int *n) {
    *n = 0;
    if (v.kind == LANG_NONE) return true;
    return dims_of(vm, v, "dim", d, n);
}

static bool reduction_of(lang_vm *vm, lang_val v, nn_reduction *out) {
    if (!lang_is_obj(v, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "reduction must be a str, not %s", lang_type_name(v));
    const char *s = lang_str_cstr(v);
    if (!strcmp(s, "mean"))
        *out = NN_REDUCTION_MEAN;
    else if (!strcmp(s, "sum"))
        *out = NN_REDUCTION_SUM;
    else if (!strcmp(s, "none"))
        *out = NN_REDUCTION_NONE;
    else
        return lang_raise(vm, LANG_ERR_VALUE, "%s is not a valid value for reduction", s);
    return true;
}

/* Call a function with [self] as its first positional argument. */
static bool with_self(lang_vm *vm, lang_builtin_fn fn, lang_val self, const lang_args *a,
                      lang_val *out) {
    lang_val stack[16];
    lang_val *pos = a->n + 1 <= 16 ? stack : malloc((size_t)(a->n + 1) * sizeof *pos);
    if (!pos) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    pos[0] = self;
    for (int i = 0; i < a->n; i++) pos[i + 1] = a->pos[i];
    lang_args b = {a->n + 1, pos, a->nkw, a->kwnames, a->kw};
    bool ok = fn(vm, &b, out);
    if (pos != stack) free(pos);
    return ok;
}

/* The core builtin [name] (Python's sum, max, ...), for arguments that are
 * not tensors. */
static bool core_fallback(lang_vm *vm, const char *name, const lang_args *a, lang_val *out) {
    for (const lang_builtin_def *d = lang_core_builtins; d->name; d++)
        if (!strcmp(d->name, name)) return d->fn(vm, a, out);
    return lang_raise(vm, LANG_ERR_TYPE, "%s() takes a Tensor", name);
}

static bool first_is_tensor(const lang_args *a) {
    if (a->n > 0) return lang_tensor_of(a->pos[0]) != NULL;
    const lang_val *v = kwarg(a, "input");
    return v && lang_tensor_of(*v);
}

/* ------------------------------------------------------------------ creation */

/* requires_grad=True on a fresh result. */
static bool finish_new(lang_vm *vm, nn_tensor *r, lang_val rg, lang_val *out) {
    if (!r) return lang_raise_engine(vm);
    bool want = false;
    if (rg.kind != LANG_NONE && !bool_arg(vm, rg, "requires_grad", &want)) {
        nn_tensor_release(r);
        return false;
    }
    if (want && nn_tensor_requires_grad_(CTX(vm), r, true) != NN_OK) {
        nn_tensor_release(r);
        return lang_raise_engine(vm);
    }
    return lang_tensor_new(vm, r, out);
}

static bool check_device(lang_vm *vm, lang_val v) {
    if (v.kind == LANG_NONE) return true;
    if (lang_is_obj(v, &lang_str_type) && !strcmp(lang_str_cstr(v), "cpu")) return true;
    return lang_raise(
        vm, LANG_ERR_VALUE,
        "nndb tensors live on the cpu: device must be 'cpu' (GPU probes are %%probe)");
}

static bool f_tensor(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val data, dtv = lang_none(), rg = lang_none(), dev = lang_none();
    if (!lang_parse_args(vm, a, "tensor", "data|dtype,requires_grad,device", &data, &dtv, &rg,
                         &dev))
        return false;
    nn_dtype dt;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    nn_tensor *r;
    if (!lang_tensor_from_value(vm, data, given ? (int)dt : -1, &r)) return false;
    return finish_new(vm, r, rg, out);
}

typedef enum make_kind { MK_ZEROS, MK_ONES, MK_EMPTY, MK_RAND, MK_RANDN } make_kind;

static nn_tensor *make(nn_ctx *ctx, make_kind k, nn_dtype dt, int n, const int64_t *d,
                       nn_rng *gen) {
    switch (k) {
    case MK_ZEROS:
    case MK_EMPTY: return nn_zeros(ctx, dt, n, d);
    case MK_ONES: return nn_ones(ctx, dt, n, d);
    case MK_RAND: return nn_rand_gen(ctx, gen, dt, n, d);
    case MK_RANDN: return nn_randn_gen(ctx, gen, dt, n, d);
    }
    return NULL;
}

static bool make_shaped(lang_vm *vm, const lang_args *a, const char *fname, make_kind k,
                        lang_val *out) {
    static const char *const allowed[] = {"size",   "dtype",     "requires_grad",
                                          "device", "generator", NULL};
    lang_val size = lang_none(), dtv = lang_none(), rg = lang_none(), dev = lang_none(),
             gv = lang_none();
    lang_val *outs[] = {&size, &dtv, &rg, &dev, &gv};
    if (!kwargs_only(vm, a, fname, allowed, outs)) return false;
    if (gv.kind != LANG_NONE && k != MK_RAND && k != MK_RANDN)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument 'generator'",
                          fname);
    nn_rng *gen;
    if (!lang_generator_arg(vm, gv, fname, &gen)) return false;
    int64_t d[NN_MAX_DIMS];
    int n = 0;
    if (size.kind != LANG_NONE) {
        if (a->n)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got multiple values for 'size'", fname);
        if (!dims_of(vm, size, "size", d, &n)) return false;
    } else if (!dims_varargs(vm, a, 0, "size", d, &n)) {
        return false;
    }
    for (int i = 0; i < n; i++)
        if (d[i] < 0)
            return lang_raise(vm, LANG_ERR_VALUE, "%s(): negative dimension %lld in the size",
                              fname, (long long)d[i]);
    nn_dtype dt = NN_FLOAT32;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    if ((k == MK_RAND || k == MK_RANDN) && !nn_dtype_is_float(dt))
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): dtype must be a floating type, not torch.%s",
                          fname, nn_dtype_name(dt));
    return finish_new(vm, make(CTX(vm), k, dt, n, d, gen), rg, out);
}

static bool f_zeros(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_shaped(vm, a, "zeros", MK_ZEROS, out);
}
static bool f_ones(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_shaped(vm, a, "ones", MK_ONES, out);
}
static bool f_empty(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_shaped(vm, a, "empty", MK_EMPTY, out);
}
static bool f_rand(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_shaped(vm, a, "rand", MK_RAND, out);
}
static bool f_randn(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_shaped(vm, a, "randn", MK_RANDN, out);
}

static nn_dtype number_dtype(lang_val v) {
    return v.kind == LANG_BOOL ? NN_BOOL : v.kind == LANG_INT ? NN_INT64 : NN_FLOAT32;
}

static bool f_full(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val size, fill, dtv = lang_none(), rg = lang_none(), dev = lang_none();
    if (!lang_parse_args(vm, a, "full", "size,fill_value|dtype,requires_grad,device", &size, &fill,
                         &dtv, &rg, &dev))
        return false;
    int64_t d[NN_MAX_DIMS];
    int n;
    double v;
    if (!dims_of(vm, size, "size", d, &n) || !float_arg(vm, fill, "fill_value", &v)) return false;
    nn_dtype dt = number_dtype(fill);
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    return finish_new(vm, nn_full(CTX(vm), dt, n, d, v), rg, out);
}

static bool like(lang_vm *vm, const lang_args *a, const char *fname, make_kind k, bool has_fill,
                 lang_val *out) {
    lang_val input, fill = lang_none(), dtv = lang_none(), rg = lang_none(), dev = lang_none();
    bool ok = has_fill
                  ? lang_parse_args(vm, a, fname, "input,fill_value|dtype,requires_grad,device",
                                    &input, &fill, &dtv, &rg, &dev)
                  : lang_parse_args(vm, a, fname, "input|dtype,requires_grad,device", &input, &dtv,
                                    &rg, &dev);
    if (!ok) return false;
    nn_tensor *t;
    if (!tensor_arg(vm, input, fname, "input", &t)) return false;
    nn_dtype dt = t->dtype;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    if (has_fill) {
        double v;
        if (!float_arg(vm, fill, "fill_value", &v)) return false;
        return finish_new(vm, nn_full(CTX(vm), dt, t->ndim, t->shape, v), rg, out);
    }
    if ((k == MK_RAND || k == MK_RANDN) && !nn_dtype_is_float(dt))
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): dtype must be a floating type, not torch.%s",
                          fname, nn_dtype_name(dt));
    return finish_new(vm, make(CTX(vm), k, dt, t->ndim, t->shape, NULL), rg, out);
}

static bool f_zeros_like(lang_vm *vm, const lang_args *a, lang_val *out) {
    return like(vm, a, "zeros_like", MK_ZEROS, false, out);
}
static bool f_ones_like(lang_vm *vm, const lang_args *a, lang_val *out) {
    return like(vm, a, "ones_like", MK_ONES, false, out);
}
static bool f_empty_like(lang_vm *vm, const lang_args *a, lang_val *out) {
    return like(vm, a, "empty_like", MK_EMPTY, false, out);
}
static bool f_rand_like(lang_vm *vm, const lang_args *a, lang_val *out) {
    return like(vm, a, "rand_like", MK_RAND, false, out);
}
static bool f_randn_like(lang_vm *vm, const lang_args *a, lang_val *out) {
    return like(vm, a, "randn_like", MK_RANDN, false, out);
}
static bool f_full_like(lang_vm *vm, const lang_args *a, lang_val *out) {
    return like(vm, a, "full_like", MK_ZEROS, true, out);
}

static bool f_arange(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v0, v1 = lang_none(), v2 = lang_none(), dtv = lang_none(), rg = lang_none(),
                 dev = lang_none();
    if (!lang_parse_args(vm, a, "arange", "start|end,step,dtype,requires_grad,device", &v0, &v1,
                         &v2, &dtv, &rg, &dev))
        return false;
    lang_val sv = v1.kind == LANG_NONE ? lang_int(0) : v0, ev = v1.kind == LANG_NONE ? v0 : v1;
    lang_val stv = v2.kind == LANG_NONE ? lang_int(1) : v2;
    double s, e, st;
    if (!float_arg(vm, sv, "start", &s) || !float_arg(vm, ev, "end", &e) ||
        !float_arg(vm, stv, "step", &st))
        return false;
    nn_dtype dt = sv.kind == LANG_FLOAT || ev.kind == LANG_FLOAT || stv.kind == LANG_FLOAT
                      ? NN_FLOAT32
                      : NN_INT64;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    return finish_new(vm, nn_arange(CTX(vm), s, e, st, dt), rg, out);
}

static bool f_linspace(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val sv, ev, nv, dtv = lang_none(), rg = lang_none(), dev = lang_none();
    if (!lang_parse_args(vm, a, "linspace", "start,end,steps|dtype,requires_grad,device", &sv, &ev,
                         &nv, &dtv, &rg, &dev))
        return false;
    double s, e;
    int64_t n;
    if (!float_arg(vm, sv, "start", &s) || !float_arg(vm, ev, "end", &e) ||
        !int_arg(vm, nv, "steps", &n))
        return false;
    nn_dtype dt = NN_FLOAT32;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    return finish_new(vm, nn_linspace(CTX(vm), s, e, n, dt), rg, out);
}

static bool f_eye(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv, mv = lang_none(), dtv = lang_none(), rg = lang_none(), dev = lang_none();
    if (!lang_parse_args(vm, a, "eye", "n|m,dtype,requires_grad,device", &nv, &mv, &dtv, &rg, &dev))
        return false;
    int64_t n, m;
    if (!int_arg(vm, nv, "n", &n)) return false;
    m = n;
    if (mv.kind != LANG_NONE && !int_arg(vm, mv, "m", &m)) return false;
    nn_dtype dt = NN_FLOAT32;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev)) return false;
    return finish_new(vm, nn_eye(CTX(vm), n, m, dt), rg, out);
}

/* randint(high, size) or randint(low, high, size) */
static bool f_randint(lang_vm *vm, const lang_args *a, lang_val *out) {
    static const char *const allowed[] = {"low",           "high",   "size",      "dtype",
                                          "requires_grad", "device", "generator", NULL};
    lang_val lo = lang_int(0), hi = lang_none(), size = lang_none(), dtv = lang_none(),
             rg = lang_none(), dev = lang_none(), gv = lang_none();
    lang_val *outs[] = {&lo, &hi, &size, &dtv, &rg, &dev, &gv};
    if (a->n == 2) {
        hi = a->pos[0];
        size = a->pos[1];
    } else if (a->n == 3) {
        lo = a->pos[0];
        hi = a->pos[1];
        size = a->pos[2];
    } else if (a->n != 0) {
        return lang_raise(vm, LANG_ERR_TYPE,
                          "randint() takes (high, size) or (low, high, size), got %d positional "
                          "arguments",
                          a->n);
    }
    if (!kwargs_only(vm, a, "randint", allowed, outs)) return false;
    if (hi.kind == LANG_NONE || size.kind == LANG_NONE)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "randint() missing required arguments 'high' and 'size'");
    int64_t l, h, d[NN_MAX_DIMS];
    int n;
    if (!int_arg(vm, lo, "low", &l) || !int_arg(vm, hi, "high", &h) ||
        !dims_of(vm, size, "size", d, &n))
        return false;
    nn_dtype dt = NN_INT64;
    bool given;
    nn_rng *gen;
    if (!opt_dtype(vm, dtv, &dt, &given) || !check_device(vm, dev) ||
        !lang_generator_arg(vm, gv, "randint", &gen))
        return false;
    return finish_new(vm, nn_randint_gen(CTX(vm), gen, l, h, dt, n, d), rg, out);
}

/* ------------------------------------------------------------------ elementwise */

typedef nn_tensor *(*unary_fn)(nn_ctx *, nn_tensor *);

static bool unary(lang_vm *vm, const lang_args *a, const char *fname, unary_fn fn, lang_val *out) {
    return lang_tensor_unary(vm, a, fname, fn, out);
}

bool lang_tensor_unary(lang_vm *vm, const lang_args *a, const char *fname,
                       nn_tensor *(*fn)(nn_ctx *, nn_tensor *), lang_val *out) {
    lang_val x;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, fname, "input", &x) || !tensor_arg(vm, x, fname, "input", &t))
        return false;
    return wrap(vm, fn(CTX(vm), t), out);
}

#define UNARY(name)                                                                                \
    static bool f_##name(lang_vm *vm, const lang_args *a, lang_val *out) {                         \
        return unary(vm, a, #name, nn_##name, out);                                                \
    }
UNARY(exp)
UNARY(log)
UNARY(log1p)
UNARY(sqrt)
UNARY(rsqrt)
UNARY(neg)
UNARY(sign)
UNARY(relu)
UNARY(sigmoid)
UNARY(tanh)
UNARY(silu)
UNARY(isnan)
UNARY(isinf)
UNARY(isfinite)
UNARY(logical_not)
#undef UNARY

static bool f_abs(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!first_is_tensor(a)) return core_fallback(vm, "abs", a, out);
    return unary(vm, a, "abs", nn_abs, out);
}

static bool f_square(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "square", "input", &x) || !tensor_arg(vm, x, "square", "input", &t))
        return false;
    return wrap(vm, nn_mul(CTX(vm), t, t), out);
}

typedef nn_tensor *(*binary_fn)(nn_ctx *, nn_tensor *, nn_tensor *);

static bool binary(lang_vm *vm, lang_val x, lang_val y, const char *fname, binary_fn fn,
                   lang_val *out) {
    nn_tensor *a, *b;
    if (!operand(vm, x, fname, "input", &a)) return false;
    if (!operand(vm, y, fname, "other", &b)) {
        nn_tensor_release(a);
        return false;
    }
    nn_tensor *r = fn(CTX(vm), a, b);
    nn_tensor_release(a);
    nn_tensor_release(b);
    return wrap(vm, r, out);
}

static bool binary_args(lang_vm *vm, const lang_args *a, const char *fname, binary_fn fn,
                        lang_val *out) {
    lang_val x, y;
    if (!lang_parse_args(vm, a, fname, "input,other", &x, &y)) return false;
    if (!lang_tensor_of(x) && !lang_tensor_of(y))
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): argument 'input' must be Tensor, not %s", fname,
                          lang_type_name(x));
    return binary(vm, x, y, fname, fn, out);
}

#define BINARY(name)                                                                               \
    static bool f_##name(lang_vm *vm, const lang_args *a, lang_val *out) {                         \
        return binary_args(vm, a, #name, nn_##name, out);                                          \
    }
BINARY(sub)
BINARY(mul)
BINARY(div)
BINARY(pow)

/* The bare pow is both torch.pow and Python's builtin pow. */
static bool f_pow_any(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n == 2 && !a->nkw && !lang_tensor_of(a->pos[0]) && !lang_tensor_of(a->pos[1]) &&
        a->pos[0].kind != LANG_OBJ && a->pos[1].kind != LANG_OBJ)
        return lang_binary(vm, LANG_OP_POW, a->pos[0], a->pos[1], out);
    return f_pow(vm, a, out);
}
BINARY(maximum)
BINARY(minimum)
BINARY(matmul)
BINARY(eq)
BINARY(ne)
BINARY(lt)
BINARY(le)
BINARY(gt)
BINARY(ge)
BINARY(logical_and)
BINARY(logical_or)
#undef BINARY

/* add(input, other, alpha=1): input + alpha * other */
static bool f_add(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, al = lang_none();
    if (!lang_parse_args(vm, a, "add", "input,other|alpha", &x, &y, &al)) return false;
    if (al.kind == LANG_NONE) return binary(vm, x, y, "add", nn_add, out);
    lang_val scaled;
    lang_args b = {2, (lang_val[]){y, al}, 0, NULL, NULL};
    if (!f_mul(vm, &b, &scaled)) return false;
    bool ok = binary(vm, x, scaled, "add", nn_add, out);
    lang_val_release(scaled);
    return ok;
}

static bool f_where(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val c, x, y;
    if (a->n == 1 && a->nkw == 0) { /* where(condition) is nonzero(condition, as_tuple=True) */
        lang_val t = lang_bool(true);
        const char *kn = "as_tuple";
        lang_args na = {1, a->pos, 1, &kn, &t};
        return lang_f_nonzero(vm, &na, out);
    }
    if (!lang_parse_args(vm, a, "where", "condition,input,other", &c, &x, &y)) return false;
    nn_tensor *ct, *xt = NULL, *yt = NULL;
    if (!tensor_arg(vm, c, "where", "condition", &ct)) return false;
    if (!operand(vm, x, "where", "input", &xt) || !operand(vm, y, "where", "other", &yt)) {
        nn_tensor_release(xt);
        return false;
    }
    nn_tensor *r = nn_where(CTX(vm), ct, xt, yt);
    nn_tensor_release(xt);
    nn_tensor_release(yt);
    return wrap(vm, r, out);
}

/* Whether the given bounds are all Python ints (or bools): then an integer
 * tensor stays integer, as torch's result_type of (tensor, int, int). */
static bool int_bounds(lang_val lo, lang_val hi) {
    return (lo.kind == LANG_NONE || lo.kind == LANG_INT || lo.kind == LANG_BOOL) &&
           (hi.kind == LANG_NONE || hi.kind == LANG_INT || hi.kind == LANG_BOOL);
}

static bool clamp_bounds(lang_vm *vm, lang_val lo, lang_val hi, double *l, double *h) {
    *l = NAN;
    *h = NAN;
    if (lo.kind != LANG_NONE && !float_arg(vm, lo, "min", l)) return false;
    if (hi.kind != LANG_NONE && !float_arg(vm, hi, "max", h)) return false;
    if (lo.kind == LANG_NONE && hi.kind == LANG_NONE)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "clamp(): at least one of 'min' or 'max' must not be None");
    return true;
}

static bool f_clamp(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, lo = lang_none(), hi = lang_none();
    nn_tensor *t;
    double l, h;
    if (!lang_parse_args(vm, a, "clamp", "input|min,max", &x, &lo, &hi) ||
        !tensor_arg(vm, x, "clamp", "input", &t) || !clamp_bounds(vm, lo, hi, &l, &h))
        return false;
    return wrap(vm, (int_bounds(lo, hi) ? nn_clamp_int : nn_clamp)(CTX(vm), t, l, h), out);
}

static bool f_leaky_relu(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, s = lang_float(0.01), inplace = lang_none();
    nn_tensor *t;
    double slope;
    if (!lang_parse_args(vm, a, "leaky_relu", "input|negative_slope,inplace", &x, &s, &inplace) ||
        !tensor_arg(vm, x, "leaky_relu", "input", &t) ||
        !float_arg(vm, s, "negative_slope", &slope))
        return false;
    return wrap(vm, nn_leaky_relu(CTX(vm), t, slope), out);
}

static bool f_gelu(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, ap = lang_none();
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "gelu", "input|approximate", &x, &ap) ||
        !tensor_arg(vm, x, "gelu", "input", &t))
        return false;
    bool tanh_form = false;
    if (ap.kind != LANG_NONE) {
        const char *s = lang_is_obj(ap, &lang_str_type) ? lang_str_cstr(ap) : "";
        if (!strcmp(s, "tanh"))
            tanh_form = true;
        else if (strcmp(s, "none"))
            return lang_raise(vm, LANG_ERR_VALUE, "gelu(): approximate must be 'none' or 'tanh'");
    }
    return wrap(vm, nn_gelu(CTX(vm), t, tanh_form), out);
}

static bool f_softplus(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, bv = lang_int(1), tv = lang_int(20);
    nn_tensor *t;
    double beta, thr;
    if (!lang_parse_args(vm, a, "softplus", "input|beta,threshold", &x, &bv, &tv) ||
        !tensor_arg(vm, x, "softplus", "input", &t) || !float_arg(vm, bv, "beta", &beta) ||
        !float_arg(vm, tv, "threshold", &thr))
        return false;
    return wrap(vm, nn_softplus(CTX(vm), t, beta, thr), out);
}

static bool softmax_like(lang_vm *vm, const lang_args *a, const char *fname, bool log,
                         lang_val *out) {
    lang_val x, dv = lang_none(), dtv = lang_none();
    nn_tensor *t;
    int64_t dim;
    if (!lang_parse_args(vm, a, fname, "input|dim,dtype", &x, &dv, &dtv) ||
        !tensor_arg(vm, x, fname, "input", &t))
        return false;
    if (dv.kind == LANG_NONE)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s() missing required argument 'dim': write %s(x, dim=-1)", fname,
                          fname);
    if (!int_arg(vm, dv, "dim", &dim)) return false;
    nn_tensor *src = nn_tensor_retain(t);
    if (dtv.kind != LANG_NONE) {
        nn_dtype dt;
        if (!lang_dtype_from(vm, dtv, "dtype", &dt)) {
            nn_tensor_release(src);
            return false;
        }
        nn_tensor *c = nn_to(CTX(vm), t, dt);
        nn_tensor_release(src);
        if (!c) return lang_raise_engine(vm);
        src = c;
    }
    nn_tensor *r = log ? nn_log_softmax(CTX(vm), src, dim) : nn_softmax(CTX(vm), src, dim);
    nn_tensor_release(src);
    return wrap(vm, r, out);
}

static bool f_softmax(lang_vm *vm, const lang_args *a, lang_val *out) {
    return softmax_like(vm, a, "softmax", false, out);
}
static bool f_log_softmax(lang_vm *vm, const lang_args *a, lang_val *out) {
    return softmax_like(vm, a, "log_softmax", true, out);
}

/* ---- broadcasting walks for the few elementwise loops done here (allclose,
 * item access). ---- */

static bool bcast_shape(lang_vm *vm, const nn_tensor *a, const nn_tensor *b, int *nd, int64_t *sh) {
    *nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int i = 0; i < *nd; i++) {
        int ia = i - (*nd - a->ndim), ib = i - (*nd - b->ndim);
        int64_t sa = ia >= 0 ? a->shape[ia] : 1, sb = ib >= 0 ? b->shape[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return lang_raise(vm, LANG_ERR_SHAPE,
                              "The size of tensor a (%lld) must match the size of tensor b (%lld) "
                              "at non-singleton dimension %d",
                              (long long)sa, (long long)sb, i);
        sh[i] = sa == 1 ? sb : sa;
    }
    return true;
}

static int64_t bcast_off(const nn_tensor *t, int nd, const int64_t *idx) {
    int64_t off = t->offset;
    for (int i = 0; i < t->ndim; i++) {
        int j = i + (nd - t->ndim);
        if (t->shape[i] != 1) off += idx[j] * t->strides[i];
    }
    return off;
}

static double load(const nn_tensor *t, int64_t off) {
    return nn_dtype_load(t->dtype,
                         (const char *)t->storage->data + off * (int64_t)nn_dtype_size(t->dtype));
}

static int64_t load_i(const nn_tensor *t, int64_t off) {
    return nn_dtype_load_int(t->dtype, (const char *)t->storage->data +
                                           off * (int64_t)nn_dtype_size(t->dtype));
}

/* Floor division and remainder are the engine's nn_floor_divide and
 * nn_remainder (not differentiable, in torch either). */
static bool floor_mod(lang_vm *vm, nn_tensor *a, nn_tensor *b, bool mod, lang_val *out) {
    nn_tensor *r = mod ? nn_remainder(CTX(vm), a, b) : nn_floor_divide(CTX(vm), a, b);
    if (!r) return lang_raise_engine(vm);
    return lang_tensor_new(vm, r, out);
}

static bool f_floor_divide(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y;
    if (!lang_parse_args(vm, a, "floor_divide", "input,other", &x, &y)) return false;
    nn_tensor *p, *q;
    if (!operand(vm, x, "floor_divide", "input", &p)) return false;
    if (!operand(vm, y, "floor_divide", "other", &q)) {
        nn_tensor_release(p);
        return false;
    }
    bool ok = floor_mod(vm, p, q, false, out);
    nn_tensor_release(p);
    nn_tensor_release(q);
    return ok;
}

static bool f_remainder(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y;
    if (!lang_parse_args(vm, a, "remainder", "input,other", &x, &y)) return false;
    nn_tensor *p, *q;
    if (!operand(vm, x, "remainder", "input", &p)) return false;
    if (!operand(vm, y, "remainder", "other", &q)) {
        nn_tensor_release(p);
        return false;
    }
    bool ok = floor_mod(vm, p, q, true, out);
    nn_tensor_release(p);
    nn_tensor_release(q);
    return ok;
}

/* ------------------------------------------------------------------ reductions */

/* A dtype= cast before reducing (sum(x, dtype=float64)). New reference. */
static bool cast_opt(lang_vm *vm, nn_tensor *t, lang_val dtv, nn_tensor **out) {
    nn_dtype dt;
    bool given;
    if (!opt_dtype(vm, dtv, &dt, &given)) return false;
    *out = given && dt != t->dtype ? nn_to(CTX(vm), t, dt) : nn_tensor_retain(t);
    return *out ? true : lang_raise_engine(vm);
}

typedef nn_tensor *(*reduce_fn)(nn_ctx *, nn_tensor *, const int64_t *, int, bool);

static bool reduce(lang_vm *vm, const lang_args *a, const char *fname, reduce_fn fn,
                   lang_val *out) {
    lang_val x, dv = lang_none(), kd = lang_bool(false), dtv = lang_none();
    nn_tensor *t, *src;
    int64_t d[NN_MAX_DIMS];
    int n;
    bool keep;
    if (!lang_parse_args(vm, a, fname, "input|dim,keepdim,dtype", &x, &dv, &kd, &dtv) ||
        !tensor_arg(vm, x, fname, "input", &t) || !opt_dims(vm, dv, d, &n) ||
        !bool_arg(vm, kd, "keepdim", &keep) || !cast_opt(vm, t, dtv, &src))
        return false;
    nn_tensor *r = fn(CTX(vm), src, d, n, keep);
    nn_tensor_release(src);
    return wrap(vm, r, out);
}

static bool f_sum(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!first_is_tensor(a)) return core_fallback(vm, "sum", a, out);
    return reduce(vm, a, "sum", nn_sum, out);
}
static bool f_mean(lang_vm *vm, const lang_args *a, lang_val *out) {
    return reduce(vm, a, "mean", nn_mean, out);
}
static bool f_logsumexp(lang_vm *vm, const lang_args *a, lang_val *out) {
    return reduce(vm, a, "logsumexp", nn_logsumexp, out);
}

/* var/std(input, dim=None, unbiased=True, keepdim=False, *, correction=None) */
static bool var_std(lang_vm *vm, const lang_args *a, const char *fname, bool is_std,
                    lang_val *out) {
    lang_val x, dv = lang_none(), ub = lang_none(), kd = lang_bool(false), cv = lang_none();
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS], corr = 1;
    int n;
    bool keep, unbiased = true;
    if (!lang_parse_args(vm, a, fname, "input|dim,unbiased,keepdim,correction", &x, &dv, &ub, &kd,
                         &cv) ||
        !tensor_arg(vm, x, fname, "input", &t))
        return false;
    /* var(x, False) is the unbiased flag, as in torch. */
    if (dv.kind == LANG_BOOL) {
        ub = dv;
        dv = lang_none();
    }
    if (!opt_dims(vm, dv, d, &n) || !bool_arg(vm, kd, "keepdim", &keep)) return false;
    if (ub.kind != LANG_NONE && !bool_arg(vm, ub, "unbiased", &unbiased)) return false;
    corr = unbiased ? 1 : 0;
    if (cv.kind != LANG_NONE && !int_arg(vm, cv, "correction", &corr)) return false;
    nn_ctx *ctx = CTX(vm);
    return wrap(vm, is_std ? nn_std(ctx, t, d, n, corr, keep) : nn_var(ctx, t, d, n, corr, keep),
                out);
}

static bool f_var(lang_vm *vm, const lang_args *a, lang_val *out) {
    return var_std(vm, a, "var", false, out);
}
static bool f_std(lang_vm *vm, const lang_args *a, lang_val *out) {
    return var_std(vm, a, "std", true, out);
}

static bool f_norm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, pv = lang_int(2), dv = lang_none(), kd = lang_bool(false), dtv = lang_none();
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    bool keep;
    double p = 2;
    if (!lang_parse_args(vm, a, "norm", "input|p,dim,keepdim,dtype", &x, &pv, &dv, &kd, &dtv) ||
        !tensor_arg(vm, x, "norm", "input", &t) || !opt_dims(vm, dv, d, &n) ||
        !bool_arg(vm, kd, "keepdim", &keep))
        return false;
    if (lang_is_obj(pv, &lang_str_type)) {
        if (strcmp(lang_str_cstr(pv), "fro"))
            return lang_raise(vm, LANG_ERR_VALUE, "norm(): p must be a number or 'fro'");
    } else if (pv.kind != LANG_NONE && !float_arg(vm, pv, "p", &p)) {
        return false;
    }
    return wrap(vm, nn_norm(CTX(vm), t, p, d, n, keep), out);
}

/* max/min(input) -> 0-dim; (input, dim, keepdim=False) -> (values, indices);
 * (input, other) -> maximum/minimum. */
static bool extreme(lang_vm *vm, const lang_args *a, const char *fname, bool is_max,
                    lang_val *out) {
    lang_val x, dv = lang_none(), kd = lang_bool(false);
    nn_tensor *t;
    if (!lang_parse_args(vm, a, fname, "input|dim,keepdim", &x, &dv, &kd) ||
        !tensor_arg(vm, x, fname, "input", &t))
        return false;
    nn_ctx *ctx = CTX(vm);
    if (lang_tensor_of(dv)) return binary(vm, x, dv, fname, is_max ? nn_maximum : nn_minimum, out);
    if (dv.kind == LANG_NONE) {
        if (kwarg(a, "keepdim"))
            return lang_raise(vm, LANG_ERR_TYPE, "%s(): keepdim needs a dim", fname);
        return wrap(vm, is_max ? nn_max_all(ctx, t) : nn_min_all(ctx, t), out);
    }
    int64_t dim;
    bool keep;
    if (!int_arg(vm, dv, "dim", &dim) || !bool_arg(vm, kd, "keepdim", &keep)) return false;
    nn_tensor *idx = NULL;
    nn_tensor *v =
        is_max ? nn_max_dim(ctx, t, dim, keep, &idx) : nn_min_dim(ctx, t, dim, keep, &idx);
    if (!v) return lang_raise_engine(vm);
    return rt_new(vm, fname, v, idx, out);
}

static bool f_max(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!first_is_tensor(a)) return core_fallback(vm, "max", a, out);
    return extreme(vm, a, "max", true, out);
}
static bool f_min(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!first_is_tensor(a)) return core_fallback(vm, "min", a, out);
    return extreme(vm, a, "min", false, out);
}

static bool argext(lang_vm *vm, const lang_args *a, const char *fname, bool is_max, lang_val *out) {
    lang_val x, dv = lang_none(), kd = lang_bool(false);
    nn_tensor *t;
    int64_t dim = 0;
    bool keep;
    if (!lang_parse_args(vm, a, fname, "input|dim,keepdim", &x, &dv, &kd) ||
        !tensor_arg(vm, x, fname, "input", &t) || !bool_arg(vm, kd, "keepdim", &keep))
        return false;
    bool all = dv.kind == LANG_NONE;
    if (!all && !int_arg(vm, dv, "dim", &dim)) return false;
    nn_ctx *ctx = CTX(vm);
    return wrap(vm, is_max ? nn_argmax(ctx, t, dim, all, keep) : nn_argmin(ctx, t, dim, all, keep),
                out);
}

static bool f_argmax(lang_vm *vm, const lang_args *a, lang_val *out) {
    return argext(vm, a, "argmax", true, out);
}
static bool f_argmin(lang_vm *vm, const lang_args *a, lang_val *out) {
    return argext(vm, a, "argmin", false, out);
}

/* any: (x != 0).sum(dim) > 0; all: (x == 0).sum(dim) == 0. Bool results. */
static bool any_all(lang_vm *vm, const lang_args *a, const char *fname, bool is_any,
                    lang_val *out) {
    lang_val x, dv = lang_none(), kd = lang_bool(false);
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    bool keep;
    if (!lang_parse_args(vm, a, fname, "input|dim,keepdim", &x, &dv, &kd) ||
        !tensor_arg(vm, x, fname, "input", &t) || !opt_dims(vm, dv, d, &n) ||
        !bool_arg(vm, kd, "keepdim", &keep))
        return false;
    nn_ctx *ctx = CTX(vm);
    nn_tensor *zero = nn_scalar_wrapped_int(ctx, 0);
    nn_tensor *hit = zero ? (is_any ? nn_ne(ctx, t, zero) : nn_eq(ctx, t, zero)) : NULL;
    nn_tensor *cnt = hit ? nn_sum(ctx, hit, d, n, keep) : NULL;
    nn_tensor *r = cnt ? (is_any ? nn_gt(ctx, cnt, zero) : nn_eq(ctx, cnt, zero)) : NULL;
    nn_tensor_release(zero);
    nn_tensor_release(hit);
    nn_tensor_release(cnt);
    return wrap(vm, r, out);
}

static bool f_any(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!first_is_tensor(a)) return core_fallback(vm, "any", a, out);
    return any_all(vm, a, "any", true, out);
}
static bool f_all(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!first_is_tensor(a)) return core_fallback(vm, "all", a, out);
    return any_all(vm, a, "all", false, out);
}

static bool f_numel(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "numel", "input", &x) || !tensor_arg(vm, x, "numel", "input", &t))
        return false;
    *out = lang_int(nn_tensor_numel(t));
    return true;
}

static bool f_allclose(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, rv = lang_float(1e-5), av = lang_float(1e-8), en = lang_bool(false);
    nn_tensor *p, *q;
    double rtol, atol;
    bool equal_nan;
    if (!lang_parse_args(vm, a, "allclose", "input,other|rtol,atol,equal_nan", &x, &y, &rv, &av,
                         &en) ||
        !tensor_arg(vm, x, "allclose", "input", &p) ||
        !tensor_arg(vm, y, "allclose", "other", &q) || !float_arg(vm, rv, "rtol", &rtol) ||
        !float_arg(vm, av, "atol", &atol) || !bool_arg(vm, en, "equal_nan", &equal_nan))
        return false;
    int nd;
    int64_t sh[NN_MAX_DIMS];
    if (!bcast_shape(vm, p, q, &nd, sh)) return false;
    int64_t n = 1, idx[NN_MAX_DIMS] = {0};
    for (int i = 0; i < nd; i++) n *= sh[i];
    bool close = true;
    for (int64_t k = 0; k < n && close; k++) {
        double u = load(p, bcast_off(p, nd, idx)), v = load(q, bcast_off(q, nd, idx));
        if (isnan(u) || isnan(v))
            close = equal_nan && isnan(u) && isnan(v);
        else if (u != v)
            close = fabs(u - v) <= atol + rtol * fabs(v);
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < sh[d]) break;
            idx[d] = 0;
        }
    }
    *out = lang_bool(close);
    return true;
}

/* ------------------------------------------------------------------ shape */

static bool shape_op(lang_vm *vm, const lang_args *a, const char *fname, bool view, lang_val *out) {
    static const char *const allowed[] = {"input", "shape", NULL};
    lang_val x = a->n ? a->pos[0] : lang_none(), shv = lang_none();
    lang_val *outs[] = {&x, &shv};
    if (!kwargs_only(vm, a, fname, allowed, outs)) return false;
    nn_tensor *t;
    if (!tensor_arg(vm, x, fname, "input", &t)) return false;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (shv.kind != LANG_NONE) {
        if (!dims_of(vm, shv, "shape", d, &n)) return false;
    } else if (!dims_varargs(vm, a, 1, "shape", d, &n)) {
        return false;
    }
    nn_ctx *ctx = CTX(vm);
    return wrap_named(vm, view ? nn_view(ctx, t, n, d) : nn_reshape(ctx, t, n, d),
                      view ? "ViewBackward0" : "ReshapeAliasBackward0", out);
}

static bool f_reshape(lang_vm *vm, const lang_args *a, lang_val *out) {
    return shape_op(vm, a, "reshape", false, out);
}
static bool f_view(lang_vm *vm, const lang_args *a, lang_val *out) {
    return shape_op(vm, a, "view", true, out);
}

static bool f_flatten(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, sv = lang_int(0), ev = lang_int(-1);
    nn_tensor *t;
    int64_t s, e;
    if (!lang_parse_args(vm, a, "flatten", "input|start_dim,end_dim", &x, &sv, &ev) ||
        !tensor_arg(vm, x, "flatten", "input", &t) || !int_arg(vm, sv, "start_dim", &s) ||
        !int_arg(vm, ev, "end_dim", &e))
        return false;
    return wrap_named(vm, nn_flatten(CTX(vm), t, s, e), "ReshapeAliasBackward0", out);
}

static bool f_permute(lang_vm *vm, const lang_args *a, lang_val *out) {
    static const char *const allowed[] = {"input", "dims", NULL};
    lang_val x = a->n ? a->pos[0] : lang_none(), dv = lang_none();
    lang_val *outs[] = {&x, &dv};
    if (!kwargs_only(vm, a, "permute", allowed, outs)) return false;
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (!tensor_arg(vm, x, "permute", "input", &t)) return false;
    if (dv.kind != LANG_NONE ? !dims_of(vm, dv, "dims", d, &n)
                             : !dims_varargs(vm, a, 1, "dims", d, &n))
        return false;
    if (n != t->ndim)
        return lang_raise(vm, LANG_ERR_SHAPE,
                          "permute(): number of dims don't match: the tensor has %d, %d given",
                          t->ndim, n);
    return wrap(vm, nn_permute(CTX(vm), t, d), out);
}

static bool f_transpose(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, v0, v1;
    nn_tensor *t;
    int64_t d0, d1;
    if (!lang_parse_args(vm, a, "transpose", "input,dim0,dim1", &x, &v0, &v1) ||
        !tensor_arg(vm, x, "transpose", "input", &t) || !int_arg(vm, v0, "dim0", &d0) ||
        !int_arg(vm, v1, "dim1", &d1))
        return false;
    return wrap_named(vm, nn_transpose(CTX(vm), t, d0, d1), "TransposeBackward0", out);
}

static bool f_t(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "t", "input", &x) || !tensor_arg(vm, x, "t", "input", &t))
        return false;
    if (t->ndim > 2)
        return lang_raise(vm, LANG_ERR_SHAPE,
                          "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
    if (t->ndim < 2) {
        *out = lang_val_retain(x);
        return true;
    }
    return wrap_named(vm, nn_transpose(CTX(vm), t, 0, 1), "TBackward0", out);
}

static bool f_squeeze(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv = lang_none();
    nn_tensor *t;
    int64_t dim = NN_ALL_DIMS;
    if (!lang_parse_args(vm, a, "squeeze", "input|dim", &x, &dv) ||
        !tensor_arg(vm, x, "squeeze", "input", &t))
        return false;
    if (dv.kind != LANG_NONE && !int_arg(vm, dv, "dim", &dim)) return false;
    return wrap_named(vm, nn_squeeze(CTX(vm), t, dim),
                      dim == NN_ALL_DIMS ? "SqueezeBackward0" : "SqueezeBackward1", out);
}

static bool f_unsqueeze(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv;
    nn_tensor *t;
    int64_t dim;
    if (!lang_parse_args(vm, a, "unsqueeze", "input,dim", &x, &dv) ||
        !tensor_arg(vm, x, "unsqueeze", "input", &t) || !int_arg(vm, dv, "dim", &dim))
        return false;
    return wrap_named(vm, nn_unsqueeze(CTX(vm), t, dim), "UnsqueezeBackward0", out);
}

static bool f_expand(lang_vm *vm, const lang_args *a, lang_val *out) {
    static const char *const allowed[] = {"input", "size", NULL};
    lang_val x = a->n ? a->pos[0] : lang_none(), sv = lang_none();
    lang_val *outs[] = {&x, &sv};
    if (!kwargs_only(vm, a, "expand", allowed, outs)) return false;
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (!tensor_arg(vm, x, "expand", "input", &t)) return false;
    if (sv.kind != LANG_NONE ? !dims_of(vm, sv, "size", d, &n)
                             : !dims_varargs(vm, a, 1, "size", d, &n))
        return false;
    return wrap(vm, nn_expand(CTX(vm), t, n, d), out);
}

static bool f_expand_as(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y;
    nn_tensor *t, *o;
    if (!lang_parse_args(vm, a, "expand_as", "input,other", &x, &y) ||
        !tensor_arg(vm, x, "expand_as", "input", &t) ||
        !tensor_arg(vm, y, "expand_as", "other", &o))
        return false;
    return wrap(vm, nn_expand(CTX(vm), t, o->ndim, o->shape), out);
}

static bool f_contiguous(lang_vm *vm, const lang_args *a, lang_val *out) {
    return unary(vm, a, "contiguous", nn_contiguous, out);
}

/* A copy; recorded (CloneBackward0 in torch) when it needs a gradient. */
static bool f_clone(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "clone", "input", &x) || !tensor_arg(vm, x, "clone", "input", &t))
        return false;
    nn_ctx *ctx = CTX(vm);
    if (t->requires_grad && ctx->grad_enabled)
        return wrap_named(vm, nn_add_scalar(ctx, t, 0.0), "CloneBackward0", out);
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
    if (!c) return lang_raise_engine(vm);
    nn_tensor *r = nn_tensor_from_data(ctx, c->dtype, c->ndim, c->shape, nn_tensor_data(c));
    nn_tensor_release(c);
    return wrap(vm, r, out);
}

static bool f_detach(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "detach", "input", &x) || !tensor_arg(vm, x, "detach", "input", &t))
        return false;
    return wrap(vm, nn_tensor_detach(CTX(vm), t), out);
}

/* The tensors of a list/tuple, borrowed, into a malloc'ed array. */
static bool tensor_list(lang_vm *vm, lang_val v, const char *fname, nn_tensor ***out, int *n) {
    if (!is_seq(v))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s(): argument 'tensors' must be a list or tuple of Tensors, not %s",
                          fname, lang_type_name(v));
    int64_t len = lang_seq_len(v);
    if (len == 0)
        return lang_raise(vm, LANG_ERR_VALUE, "%s() expects a non-empty list of Tensors", fname);
    *out = malloc((size_t)len * sizeof **out);
    if (!*out) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int64_t i = 0; i < len; i++) {
        (*out)[i] = lang_tensor_of(lang_seq_items(v)[i]);
        if (!(*out)[i]) {
            free(*out);
            return lang_raise(vm, LANG_ERR_TYPE,
                              "%s(): expected Tensor as element %lld, but got %s", fname,
                              (long long)i, lang_type_name(lang_seq_items(v)[i]));
        }
    }
    *n = (int)len;
    return true;
}

static bool cat_stack(lang_vm *vm, const lang_args *a, const char *fname, bool stack,
                      lang_val *out) {
    lang_val tv, dv = lang_int(0);
    nn_tensor **ts = NULL;
    int n = 0;
    int64_t dim;
    if (!lang_parse_args(vm, a, fname, "tensors|dim", &tv, &dv) || !int_arg(vm, dv, "dim", &dim) ||
        !tensor_list(vm, tv, fname, &ts, &n))
        return false;
    nn_tensor *r = stack ? nn_stack(CTX(vm), ts, n, dim) : nn_cat(CTX(vm), ts, n, dim);
    free(ts);
    return wrap_named(vm, r, stack ? "StackBackward0" : "CatBackward0", out);
}

static bool f_cat(lang_vm *vm, const lang_args *a, lang_val *out) {
    return cat_stack(vm, a, "cat", false, out);
}
static bool f_stack(lang_vm *vm, const lang_args *a, lang_val *out) {
    return cat_stack(vm, a, "stack", true, out);
}

/* Pieces into a tuple (takes over the references). */
static bool tuple_of(lang_vm *vm, nn_tensor **ps, int n, lang_val *out) {
    if (!lang_tuple_new(vm, n, out)) {
        for (int i = 0; i < n; i++) nn_tensor_release(ps[i]);
        return false;
    }
    lang_val *items = lang_seq_items(*out);
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (!ok) {
            nn_tensor_release(ps[i]);
            continue;
        }
        ok = lang_tensor_new(vm, ps[i], &items[i]);
        if (ok && ps[i]->grad_fn) ((tensor_obj *)items[i].u.o)->fn_name = "SplitBackward0";
    }
    if (!ok) lang_val_release(*out);
    return ok;
}

static bool f_chunk(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, cv, dv = lang_int(0);
    nn_tensor *t;
    int64_t chunks, dim;
    if (!lang_parse_args(vm, a, "chunk", "input,chunks|dim", &x, &cv, &dv) ||
        !tensor_arg(vm, x, "chunk", "input", &t) || !int_arg(vm, cv, "chunks", &chunks) ||
        !int_arg(vm, dv, "dim", &dim))
        return false;
    if (chunks < 1 || chunks > 65536)
        return lang_raise(vm, LANG_ERR_VALUE, "chunk(): chunks must be between 1 and 65536");
    nn_tensor **ps = malloc((size_t)chunks * sizeof *ps);
    if (!ps) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    int n = 0;
    if (nn_chunk(CTX(vm), t, chunks, dim, ps, (int)chunks, &n) != NN_OK) {
        free(ps);
        return lang_raise_engine(vm);
    }
    bool ok = tuple_of(vm, ps, n, out);
    free(ps);
    return ok;
}

static bool f_split(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, sv, dv = lang_int(0);
    nn_tensor *t;
    int64_t dim;
    if (!lang_parse_args(vm, a, "split", "tensor,split_size_or_sections|dim", &x, &sv, &dv) ||
        !tensor_arg(vm, x, "split", "tensor", &t) || !int_arg(vm, dv, "dim", &dim))
        return false;
    nn_ctx *ctx = CTX(vm);
    int wd;
    if (nn_dim_wrap(ctx, dim, t->ndim, &wd) != NN_OK) return lang_raise_engine(vm);
    int64_t len = t->ndim ? t->shape[wd] : 0;
    if (is_seq(sv)) {
        int64_t k = lang_seq_len(sv), total = 0;
        nn_tensor **ps = calloc((size_t)(k ? k : 1), sizeof *ps);
        if (!ps) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int64_t i = 0; i < k; i++) {
            int64_t s;
            if (!int_arg(vm, lang_seq_items(sv)[i], "split_size_or_sections", &s)) goto fail;
            total += s;
        }
        if (total != len) {
            lang_raise(vm, LANG_ERR_SHAPE,
                       "split_with_sizes expects split_sizes to sum exactly to %lld (input "
                       "tensor's size at dimension %d), but got split_sizes summing to %lld",
                       (long long)len, wd, (long long)total);
            goto fail;
        }
        for (int64_t i = 0, at = 0; i < k; i++) {
            int64_t s = lang_seq_items(sv)[i].u.i;
            ps[i] = nn_slice(ctx, t, wd, at, at + s, 1);
            if (!ps[i]) {
                lang_raise_engine(vm);
                goto fail;
            }
            at += s;
        }
        bool ok = tuple_of(vm, ps, (int)k, out);
        free(ps);
        return ok;
    fail:
        for (int64_t i = 0; i < k; i++) nn_tensor_release(ps[i]);
        free(ps);
        return false;
    }
    int64_t size;
    if (!int_arg(vm, sv, "split_size", &size)) return false;
    if (size <= 0) return lang_raise(vm, LANG_ERR_VALUE, "split(): split_size must be positive");
    int64_t pieces = len == 0 ? 1 : (len + size - 1) / size;
    if (pieces > 65536) return lang_raise(vm, LANG_ERR_VALUE, "split(): too many pieces");
    nn_tensor **ps = malloc((size_t)pieces * sizeof *ps);
    if (!ps) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    int n = 0;
    if (nn_split(ctx, t, size, wd, ps, (int)pieces, &n) != NN_OK) {
        free(ps);
        return lang_raise_engine(vm);
    }
    bool ok = tuple_of(vm, ps, n, out);
    free(ps);
    return ok;
}

/* masked_fill(input, mask, value) = where(mask, value, input) */
static bool f_masked_fill(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, m, v;
    nn_tensor *t, *mask, *val;
    if (!lang_parse_args(vm, a, "masked_fill", "input,mask,value", &x, &m, &v) ||
        !tensor_arg(vm, x, "masked_fill", "input", &t) ||
        !tensor_arg(vm, m, "masked_fill", "mask", &mask))
        return false;
    if (mask->dtype != NN_BOOL)
        return lang_raise(
            vm, LANG_ERR_TYPE,
            "masked_fill_ only supports boolean masks, but got mask with dtype torch.%s",
            nn_dtype_name(mask->dtype));
    if (!operand(vm, v, "masked_fill", "value", &val)) return false;
    nn_tensor *vc = nn_tensor_cast_raw(CTX(vm), val, t->dtype);
    nn_tensor_release(val);
    if (!vc) return lang_raise_engine(vm);
    if (is_number(v)) vc->is_wrapped_number = true;
    nn_tensor *r = nn_where(CTX(vm), mask, vc, t);
    nn_tensor_release(vc);
    return wrap_named(vm, r, "MaskedFillBackward0", out);
}

/* ------------------------------------------------------------------ nn functions */

static bool f_cross_entropy(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, w = lang_none(), ii = lang_int(-100), red = lang_none(), ls = lang_float(0.0);
    nn_tensor *t, *target;
    int64_t ignore;
    double smooth;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (!lang_parse_args(vm, a, "cross_entropy",
                         "input,target|weight,ignore_index,reduction,label_smoothing", &x, &y, &w,
                         &ii, &red, &ls) ||
        !tensor_arg(vm, x, "cross_entropy", "input", &t) ||
        !tensor_arg(vm, y, "cross_entropy", "target", &target) ||
        !int_arg(vm, ii, "ignore_index", &ignore) || !float_arg(vm, ls, "label_smoothing", &smooth))
        return false;
    if (w.kind != LANG_NONE)
        return lang_raise(vm, LANG_ERR_VALUE, "cross_entropy(): class weights are not supported");
    if (red.kind != LANG_NONE && !reduction_of(vm, red, &r)) return false;
    return wrap(vm, nn_cross_entropy(CTX(vm), t, target, ignore, smooth, r), out);
}

static bool f_nll_loss(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, w = lang_none(), ii = lang_int(-100), red = lang_none();
    nn_tensor *t, *target;
    int64_t ignore;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (!lang_parse_args(vm, a, "nll_loss", "input,target|weight,ignore_index,reduction", &x, &y,
                         &w, &ii, &red) ||
        !tensor_arg(vm, x, "nll_loss", "input", &t) ||
        !tensor_arg(vm, y, "nll_loss", "target", &target) ||
        !int_arg(vm, ii, "ignore_index", &ignore))
        return false;
    if (w.kind != LANG_NONE)
        return lang_raise(vm, LANG_ERR_VALUE, "nll_loss(): class weights are not supported");
    if (red.kind != LANG_NONE && !reduction_of(vm, red, &r)) return false;
    return wrap(vm, nn_nll_loss(CTX(vm), t, target, ignore, r), out);
}

typedef nn_tensor *(*loss_fn)(nn_ctx *, nn_tensor *, nn_tensor *, nn_reduction);

static bool loss2(lang_vm *vm, const lang_args *a, const char *fname, loss_fn fn, lang_val *out) {
    lang_val x, y, red = lang_none();
    nn_tensor *t, *target;
    nn_reduction r = NN_REDUCTION_MEAN;
    if (!lang_parse_args(vm, a, fname, "input,target|reduction", &x, &y, &red) ||
        !tensor_arg(vm, x, fname, "input", &t) || !tensor_arg(vm, y, fname, "target", &target))
        return false;
    if (red.kind != LANG_NONE && !reduction_of(vm, red, &r)) return false;
    return wrap(vm, fn(CTX(vm), t, target, r), out);
}

/* torch warns when the target's size differs from the input's: the
 * Recipe's classic silent-broadcast bug. */
static bool warn_size(lang_vm *vm, const lang_args *a) {
    nn_tensor *x = a->n > 0 ? lang_tensor_of(a->pos[0]) : NULL;
    nn_tensor *y = a->n > 1 ? lang_tensor_of(a->pos[1]) : NULL;
    if (!x || !y) return true;
    bool same = x->ndim == y->ndim;
    for (int d = 0; same && d < x->ndim; d++) same = x->shape[d] == y->shape[d];
    if (same) return true;
    lang_val xs, ys;
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_size_new(vm, y->ndim, y->shape, &ys)) return false;
    if (!lang_size_new(vm, x->ndim, x->shape, &xs)) {
        lang_val_release(ys);
        return false;
    }
    lang_buf_puts(&b, "Using a target size (");
    bool ok = lang_repr(vm, ys, &b);
    lang_buf_puts(&b, ") that is different to the input size (");
    ok = ok && lang_repr(vm, xs, &b);
    lang_buf_puts(&b, "). This will likely lead to incorrect results due to broadcasting. Please "
                      "ensure they have the same size.");
    lang_val_release(xs);
    lang_val_release(ys);
    if (ok) ok = lang_std_warn(vm, "UserWarning", b.data);
    lang_buf_free(&b);
    return ok;
}

static bool f_mse_loss(lang_vm *vm, const lang_args *a, lang_val *out) {
    return warn_size(vm, a) && loss2(vm, a, "mse_loss", nn_mse_loss, out);
}
static bool f_bce(lang_vm *vm, const lang_args *a, lang_val *out) {
    return loss2(vm, a, "binary_cross_entropy", nn_binary_cross_entropy, out);
}
static bool f_bce_logits(lang_vm *vm, const lang_args *a, lang_val *out) {
    return loss2(vm, a, "binary_cross_entropy_with_logits", nn_binary_cross_entropy_with_logits,
                 out);
}

/* F.embedding(input, weight): indices first, as torch. */
static bool f_embedding(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, w;
    nn_tensor *idx, *weight;
    if (!lang_parse_args(vm, a, "embedding", "input,weight", &x, &w) ||
        !tensor_arg(vm, x, "embedding", "input", &idx) ||
        !tensor_arg(vm, w, "embedding", "weight", &weight))
        return false;
    return wrap(vm, nn_embedding(CTX(vm), weight, idx), out);
}

static bool opt_tensor(lang_vm *vm, lang_val v, const char *fname, const char *what,
                       nn_tensor **out) {
    *out = NULL;
    return v.kind == LANG_NONE || tensor_arg(vm, v, fname, what, out);
}

static bool f_layer_norm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, ns, w = lang_none(), b = lang_none(), ev = lang_float(1e-5);
    nn_tensor *t, *weight, *bias;
    int64_t d[NN_MAX_DIMS];
    int n;
    double eps;
    if (!lang_parse_args(vm, a, "layer_norm", "input,normalized_shape|weight,bias,eps", &x, &ns, &w,
                         &b, &ev) ||
        !tensor_arg(vm, x, "layer_norm", "input", &t) ||
        !dims_of(vm, ns, "normalized_shape", d, &n) ||
        !opt_tensor(vm, w, "layer_norm", "weight", &weight) ||
        !opt_tensor(vm, b, "layer_norm", "bias", &bias) || !float_arg(vm, ev, "eps", &eps))
        return false;
    if (n > t->ndim)
        return lang_raise(vm, LANG_ERR_SHAPE,
                          "layer_norm(): normalized_shape has %d dims, input only %d", n, t->ndim);
    for (int i = 0; i < n; i++)
        if (t->shape[t->ndim - n + i] != d[i]) {
            char s1[96], s2[96];
            return lang_raise(vm, LANG_ERR_SHAPE,
                              "Given normalized_shape=%s, expected input with shape [*, %s], but "
                              "got input of size %s",
                              nn_shape_str(s1, sizeof s1, n, d),
                              nn_shape_str(s2, sizeof s2, n, d) + 1,
                              nn_tensor_shape_str(t, (char[96]){0}, 96));
        }
    return wrap(vm, nn_layer_norm(CTX(vm), t, n, weight, bias, eps), out);
}

static bool f_dropout(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, pv = lang_float(0.5), tv = lang_bool(true), inplace = lang_none();
    nn_tensor *t;
    double p;
    bool training;
    if (!lang_parse_args(vm, a, "dropout", "input|p,training,inplace", &x, &pv, &tv, &inplace) ||
        !tensor_arg(vm, x, "dropout", "input", &t) || !float_arg(vm, pv, "p", &p) ||
        !bool_arg(vm, tv, "training", &training))
        return false;
    return wrap(vm, nn_dropout(CTX(vm), t, p, training), out);
}

static bool f_sdpa(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val q, k, v, mask = lang_none(), dp = lang_float(0.0), causal = lang_bool(false),
                      sv = lang_none();
    nn_tensor *qt, *kt, *vt;
    bool is_causal;
    double scale = 0.0, dropout_p;
    if (!lang_parse_args(vm, a, "scaled_dot_product_attention",
                         "query,key,value|attn_mask,dropout_p,is_causal,scale", &q, &k, &v, &mask,
                         &dp, &causal, &sv) ||
        !tensor_arg(vm, q, "scaled_dot_product_attention", "query", &qt) ||
        !tensor_arg(vm, k, "scaled_dot_product_attention", "key", &kt) ||
        !tensor_arg(vm, v, "scaled_dot_product_attention", "value", &vt) ||
        !bool_arg(vm, causal, "is_causal", &is_causal) ||
        !float_arg(vm, dp, "dropout_p", &dropout_p))
        return false;
    if (mask.kind != LANG_NONE)
        return lang_raise(
            vm, LANG_ERR_VALUE,
            "scaled_dot_product_attention(): attn_mask is not supported; use is_causal=True");
    if (dropout_p != 0.0)
        return lang_raise(
            vm, LANG_ERR_VALUE,
            "scaled_dot_product_attention(): dropout_p must be 0 (apply dropout to the output)");
    if (sv.kind != LANG_NONE) {
        if (!float_arg(vm, sv, "scale", &scale)) return false;
        if (!(scale > 0)) return lang_raise(vm, LANG_ERR_VALUE, "scale must be positive");
    }
    return wrap(vm, nn_scaled_dot_product_attention(CTX(vm), qt, kt, vt, is_causal, scale), out);
}

static bool f_linear(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, w, b = lang_none();
    nn_tensor *t, *weight, *bias;
    if (!lang_parse_args(vm, a, "linear", "input,weight|bias", &x, &w, &b) ||
        !tensor_arg(vm, x, "linear", "input", &t) ||
        !tensor_arg(vm, w, "linear", "weight", &weight) ||
        !opt_tensor(vm, b, "linear", "bias", &bias))
        return false;
    return wrap(vm, nn_linear(CTX(vm), t, weight, bias), out);
}

static bool f_is_tensor(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "is_tensor", "obj", &x)) return false;
    *out = lang_bool(lang_tensor_of(x) != NULL);
    return true;
}

/* ------------------------------------------------------------------ methods only */

#define SELF(v) (((tensor_obj *)(v).u.o)->t)

static lang_val number_val(nn_dtype dt, double d) {
    return dt == NN_BOOL         ? lang_bool(d != 0)
           : nn_dtype_is_int(dt) ? lang_int((int64_t)d)
                                 : lang_float(d);
}

static bool m_item(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "item", "")) return false;
    nn_tensor *t = SELF(self);
    if (nn_tensor_numel(t) != 1)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "a Tensor with %lld elements cannot be converted to Scalar",
                          (long long)nn_tensor_numel(t));
    if (nn_dtype_is_int(t->dtype)) {
        *out = lang_int(nn_tensor_get_flat_int(t, 0));
        return true;
    }
    double d;
    nn_tensor_to_doubles(t, &d);
    *out = number_val(t->dtype, d);
    return true;
}

static bool tolist_rec(lang_vm *vm, const nn_tensor *t, int d, int64_t off, lang_val *out) {
    if (d == t->ndim) {
        *out = nn_dtype_is_int(t->dtype) ? lang_int(load_i(t, off))
                                         : number_val(t->dtype, load(t, off));
        return true;
    }
    if (!lang_list_new(vm, t->shape[d], out)) return false;
    lang_val *items = lang_seq_items(*out);
    for (int64_t i = 0; i < t->shape[d]; i++)
        if (!tolist_rec(vm, t, d + 1, off + i * t->strides[d], &items[i])) {
            lang_val_release(*out);
            return false;
        }
    return true;
}

static bool m_tolist(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "tolist", "")) return false;
    nn_tensor *t = SELF(self);
    return tolist_rec(vm, t, 0, t->offset, out);
}

static bool m_dim(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "dim", "")) return false;
    *out = lang_int(SELF(self)->ndim);
    return true;
}

static bool m_size(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val dv = lang_none();
    if (!lang_parse_args(vm, a, "size", "|dim", &dv)) return false;
    nn_tensor *t = SELF(self);
    if (dv.kind == LANG_NONE) return lang_size_new(vm, t->ndim, t->shape, out);
    int64_t dim;
    int wd;
    if (!int_arg(vm, dv, "dim", &dim)) return false;
    if (nn_dim_wrap(CTX(vm), dim, t->ndim, &wd) != NN_OK) return lang_raise_engine(vm);
    *out = lang_int(t->shape[wd]);
    return true;
}

static bool m_requires_grad_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v = lang_bool(true);
    bool on;
    if (!lang_parse_args(vm, a, "requires_grad_", "|requires_grad", &v) ||
        !bool_arg(vm, v, "requires_grad", &on) ||
        !status(vm, nn_tensor_requires_grad_(CTX(vm), SELF(self), on)))
        return false;
    *out = lang_val_retain(self);
    return true;
}

static bool m_retain_grad(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "retain_grad", "") ||
        !status(vm, nn_tensor_retain_grad(CTX(vm), SELF(self))))
        return false;
    *out = lang_none();
    return true;
}

static bool m_register_hook(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val fn;
    return lang_parse_args(vm, a, "register_hook", "hook", &fn) &&
           lang_tensor_register_hook(vm, self, fn, out);
}

static bool m_backward(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val g = lang_none(), rg = lang_none(), cg = lang_bool(false), inputs = lang_none();
    bool retain = false, create;
    nn_tensor *grad = NULL;
    if (!lang_parse_args(vm, a, "backward", "|gradient,retain_graph,create_graph,inputs", &g, &rg,
                         &cg, &inputs) ||
        !opt_tensor(vm, g, "backward", "gradient", &grad) ||
        !bool_arg(vm, cg, "create_graph", &create))
        return false;
    if (rg.kind != LANG_NONE && !bool_arg(vm, rg, "retain_graph", &retain)) return false;
    if (create)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "backward(): create_graph=True is not supported (no double backward)");
    if (inputs.kind != LANG_NONE)
        return lang_raise(vm, LANG_ERR_VALUE, "backward(): inputs= is not supported");
    lang_debug_backward_begin(vm, SELF(self));
    nn_status st = nn_backward(CTX(vm), SELF(self), grad, retain);
    lang_debug_backward_end(vm);
    if (!status(vm, st)) return false;
    *out = lang_none();
    return true;
}

/* In-place methods return self, as torch's do. */
static bool done_self(lang_vm *vm, nn_status st, lang_val self, lang_val *out) {
    if (!status(vm, st)) return false;
    *out = lang_val_retain(self);
    return true;
}

static bool m_zero_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "zero_", "")) return false;
    return done_self(vm, nn_tensor_zero_(CTX(vm), SELF(self)), self, out);
}

static bool m_fill_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v;
    double d;
    if (!lang_parse_args(vm, a, "fill_", "value", &v) || !float_arg(vm, v, "value", &d))
        return false;
    return done_self(vm, nn_tensor_fill_(CTX(vm), SELF(self), d), self, out);
}

static bool m_copy_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v;
    nn_tensor *src;
    if (!lang_parse_args(vm, a, "copy_", "src", &v) || !operand(vm, v, "copy_", "src", &src))
        return false;
    nn_status st = nn_tensor_copy_(CTX(vm), SELF(self), src);
    nn_tensor_release(src);
    return done_self(vm, st, self, out);
}

/* An in-place method whose write autograd records (nn_inplace.c): [r] is
 * the new value, computed out of place and recorded (a new reference, or
 * NULL with the engine's error). self takes its values and history. */
static bool inplace_recorded(lang_vm *vm, lang_val self, nn_tensor *r, lang_val *out) {
    if (!r) return lang_raise_engine(vm);
    nn_status st = nn_tensor_assign_(CTX(vm), SELF(self), r);
    nn_tensor_release(r);
    if (st == NN_OK) ((tensor_obj *)self.u.o)->fn_name = NULL;
    return done_self(vm, st, self, out);
}

/* Whether self op= other must be recorded; false with an error raised when
 * it must be and cannot be. */
static bool inplace_grad(lang_vm *vm, lang_val self, const nn_tensor *other, const char *op,
                         bool *record) {
    nn_ctx *ctx = CTX(vm);
    *record = nn_inplace_records(ctx, SELF(self), other);
    if (*record && nn_inplace_check(ctx, SELF(self), op) != NN_OK) return lang_raise_engine(vm);
    return true;
}

/* A recorded copy of t (CloneBackward0): the value a recorded in-place op
 * computes from when its backward reads t's old values. */
static nn_tensor *recorded_copy(nn_ctx *ctx, nn_tensor *t) {
    return nn_add_scalar(ctx, t, 0.0);
}

static bool m_add_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v, al = lang_int(1);
    nn_tensor *o;
    double alpha;
    if (!lang_parse_args(vm, a, "add_", "other|alpha", &v, &al) ||
        !float_arg(vm, al, "alpha", &alpha) || !operand(vm, v, "add_", "other", &o))
        return false;
    bool record;
    if (!inplace_grad(vm, self, o, "add_", &record)) {
        nn_tensor_release(o);
        return false;
    }
    if (record) {
        nn_ctx *ctx = CTX(vm);
        nn_tensor *so = alpha == 1 ? nn_tensor_retain(o) : nn_mul_scalar(ctx, o, alpha);
        nn_tensor *r = so ? nn_add(ctx, SELF(self), so) : NULL;
        nn_tensor_release(so);
        nn_tensor_release(o);
        return inplace_recorded(vm, self, r, out);
    }
    nn_status st = nn_tensor_add_(CTX(vm), SELF(self), o, alpha);
    nn_tensor_release(o);
    return done_self(vm, st, self, out);
}

static bool m_sub_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v, al = lang_int(1);
    nn_tensor *o;
    double alpha;
    if (!lang_parse_args(vm, a, "sub_", "other|alpha", &v, &al) ||
        !float_arg(vm, al, "alpha", &alpha) || !operand(vm, v, "sub_", "other", &o))
        return false;
    bool record;
    if (!inplace_grad(vm, self, o, "sub_", &record)) {
        nn_tensor_release(o);
        return false;
    }
    if (record) {
        nn_ctx *ctx = CTX(vm);
        nn_tensor *so = alpha == 1 ? nn_tensor_retain(o) : nn_mul_scalar(ctx, o, alpha);
        nn_tensor *r = so ? nn_sub(ctx, SELF(self), so) : NULL;
        nn_tensor_release(so);
        nn_tensor_release(o);
        return inplace_recorded(vm, self, r, out);
    }
    nn_status st = nn_tensor_add_(CTX(vm), SELF(self), o, -alpha);
    nn_tensor_release(o);
    return done_self(vm, st, self, out);
}

static bool m_mul_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v;
    nn_tensor *o;
    if (!lang_parse_args(vm, a, "mul_", "other", &v) || !operand(vm, v, "mul_", "other", &o))
        return false;
    bool record;
    if (!inplace_grad(vm, self, o, "mul_", &record)) {
        nn_tensor_release(o);
        return false;
    }
    if (record) {
        nn_ctx *ctx = CTX(vm);
        nn_tensor *c = recorded_copy(ctx, SELF(self));
        nn_tensor *r = c ? nn_mul(ctx, c, o) : NULL;
        nn_tensor_release(c);
        nn_tensor_release(o);
        return inplace_recorded(vm, self, r, out);
    }
    nn_status st = nn_tensor_mul_(CTX(vm), SELF(self), o);
    nn_tensor_release(o);
    return done_self(vm, st, self, out);
}

static bool m_div_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v;
    nn_tensor *o;
    if (!lang_parse_args(vm, a, "div_", "other", &v) || !operand(vm, v, "div_", "other", &o))
        return false;
    nn_ctx *ctx = CTX(vm);
    bool record;
    if (!inplace_grad(vm, self, o, "div_", &record)) {
        nn_tensor_release(o);
        return false;
    }
    if (!record && !nn_dtype_is_float(SELF(self)->dtype)) {
        nn_tensor_release(o);
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "result type Float can't be cast to the desired output type %s",
                          SELF(self)->dtype == NN_BOOL ? "Bool" : "Long");
    }
    nn_tensor *c = record ? recorded_copy(ctx, SELF(self)) : nn_tensor_retain(SELF(self));
    nn_tensor *r = c ? nn_div(ctx, c, o) : NULL;
    nn_tensor_release(c);
    nn_tensor_release(o);
    if (record) return inplace_recorded(vm, self, r, out);
    if (!r) return lang_raise_engine(vm);
    nn_status st = nn_tensor_copy_(ctx, SELF(self), r);
    nn_tensor_release(r);
    return done_self(vm, st, self, out);
}

static bool m_clamp_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val lo = lang_none(), hi = lang_none();
    double l, h;
    if (!lang_parse_args(vm, a, "clamp_", "|min,max", &lo, &hi) ||
        !clamp_bounds(vm, lo, hi, &l, &h))
        return false;
    bool record;
    if (!inplace_grad(vm, self, NULL, "clamp_", &record)) return false;
    if (record) {
        nn_ctx *ctx = CTX(vm);
        nn_tensor *c = recorded_copy(ctx, SELF(self));
        nn_tensor *r = c ? nn_clamp(ctx, c, l, h) : NULL;
        nn_tensor_release(c);
        return inplace_recorded(vm, self, r, out);
    }
    return done_self(vm, nn_tensor_clamp_(CTX(vm), SELF(self), l, h), self, out);
}

static bool m_normal_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val mv = lang_float(0), sv = lang_float(1), gv = lang_none();
    double m, s;
    nn_rng *g;
    if (!lang_parse_args(vm, a, "normal_", "|mean,std,generator", &mv, &sv, &gv) ||
        !float_arg(vm, mv, "mean", &m) || !float_arg(vm, sv, "std", &s) ||
        !lang_generator_arg(vm, gv, "normal_", &g))
        return false;
    return done_self(vm, nn_tensor_normal_gen_(CTX(vm), SELF(self), m, s, g), self, out);
}

static bool m_uniform_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val lv = lang_float(0), hv = lang_float(1), gv = lang_none();
    double l, h;
    nn_rng *g;
    if (!lang_parse_args(vm, a, "uniform_", "|from,to,generator", &lv, &hv, &gv) ||
        !float_arg(vm, lv, "from", &l) || !float_arg(vm, hv, "to", &h) ||
        !lang_generator_arg(vm, gv, "uniform_", &g))
        return false;
    return done_self(vm, nn_tensor_uniform_gen_(CTX(vm), SELF(self), l, h, g), self, out);
}

static bool m_exponential_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val lv = lang_float(1), gv = lang_none();
    double l;
    nn_rng *g;
    if (!lang_parse_args(vm, a, "exponential_", "|lambd,generator", &lv, &gv) ||
        !float_arg(vm, lv, "lambd", &l) || !lang_generator_arg(vm, gv, "exponential_", &g))
        return false;
    return done_self(vm, nn_tensor_exponential_(CTX(vm), SELF(self), l, g), self, out);
}

static bool m_bernoulli_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val pv = lang_float(0.5), gv = lang_none();
    double p;
    nn_rng *g;
    if (!lang_parse_args(vm, a, "bernoulli_", "|p,generator", &pv, &gv) ||
        !float_arg(vm, pv, "p", &p) || !lang_generator_arg(vm, gv, "bernoulli_", &g))
        return false;
    return done_self(vm, nn_tensor_bernoulli_(CTX(vm), SELF(self), p, g), self, out);
}

/* random_(to) or random_(from, to): integers in [from, to). */
static bool m_random_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val fv, tv = lang_none(), gv = lang_none();
    int64_t lo = 0, hi;
    nn_rng *g;
    if (!lang_parse_args(vm, a, "random_", "from|to,generator", &fv, &tv, &gv) ||
        !lang_generator_arg(vm, gv, "random_", &g))
        return false;
    if (tv.kind == LANG_NONE ? !int_arg(vm, fv, "to", &hi)
                             : !int_arg(vm, fv, "from", &lo) || !int_arg(vm, tv, "to", &hi))
        return false;
    return done_self(vm, nn_tensor_random_(CTX(vm), SELF(self), lo, hi, g), self, out);
}

static bool m_masked_fill_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val m, v;
    nn_tensor *mask, *val;
    if (!lang_parse_args(vm, a, "masked_fill_", "mask,value", &m, &v) ||
        !tensor_arg(vm, m, "masked_fill_", "mask", &mask) ||
        !operand(vm, v, "masked_fill_", "value", &val))
        return false;
    bool record;
    if (!inplace_grad(vm, self, val, "masked_fill_", &record)) {
        nn_tensor_release(val);
        return false;
    }
    if (record) {
        nn_ctx *ctx = CTX(vm);
        nn_tensor *c = recorded_copy(ctx, SELF(self));
        nn_tensor *r = c ? nn_where(ctx, mask, val, c) : NULL;
        nn_tensor_release(c);
        nn_tensor_release(val);
        return inplace_recorded(vm, self, r, out);
    }
    nn_status st = nn_masked_fill_(CTX(vm), SELF(self), mask, val);
    nn_tensor_release(val);
    return done_self(vm, st, self, out);
}

static bool convert(lang_vm *vm, lang_val self, nn_dtype dt, lang_val *out) {
    nn_tensor *t = SELF(self);
    if (t->dtype == dt) {
        *out = lang_val_retain(self);
        return true;
    }
    return wrap(vm, nn_to(CTX(vm), t, dt), out);
}

#define CONVERT(name, DT)                                                                          \
    static bool m_##name(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {          \
        if (!lang_parse_args(vm, a, #name, "")) return false;                                      \
        return convert(vm, self, DT, out);                                                         \
    }
CONVERT(float, NN_FLOAT32)
CONVERT(double, NN_FLOAT64)
CONVERT(long, NN_INT64)
CONVERT(bool, NN_BOOL)
CONVERT(half, NN_FLOAT16)
CONVERT(bfloat16, NN_BFLOAT16)
CONVERT(int, NN_INT32)
CONVERT(short, NN_INT16)
CONVERT(char, NN_INT8)
CONVERT(byte, NN_UINT8)
#undef CONVERT

static bool m_to(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v0 = lang_none(), dtv = lang_none(), dev = lang_none();
    if (!lang_parse_args(vm, a, "to", "|dtype_or_device,dtype,device", &v0, &dtv, &dev))
        return false;
    if (lang_is_obj(v0, &lang_str_type)) {
        dev = v0;
        v0 = lang_none();
    } else if (lang_tensor_of(v0)) {
        return convert(vm, self, lang_tensor_of(v0)->dtype, out);
    }
    if (!check_device(vm, dev)) return false;
    if (v0.kind != LANG_NONE) dtv = v0;
    if (dtv.kind == LANG_NONE) {
        *out = lang_val_retain(self);
        return true;
    }
    nn_dtype dt;
    if (!lang_dtype_from(vm, dtv, "dtype", &dt)) return false;
    return convert(vm, self, dt, out);
}

/* torch's legacy tensor type names, "torch.FloatTensor" ... */
static const char *const TYPE_NAMES[NN_DTYPE_COUNT] = {
    [NN_FLOAT32] = "torch.FloatTensor", [NN_FLOAT64] = "torch.DoubleTensor",
    [NN_INT64] = "torch.LongTensor",    [NN_BOOL] = "torch.BoolTensor",
    [NN_INT32] = "torch.IntTensor",     [NN_INT16] = "torch.ShortTensor",
    [NN_INT8] = "torch.CharTensor",     [NN_UINT8] = "torch.ByteTensor",
    [NN_FLOAT16] = "torch.HalfTensor",  [NN_BFLOAT16] = "torch.BFloat16Tensor",
};

/* type(): the type name; type(dtype) or type('torch.IntTensor'): convert. */
static bool m_type(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val dv = lang_none();
    if (!lang_parse_args(vm, a, "type", "|dtype", &dv)) return false;
    if (dv.kind == LANG_NONE)
        return lang_str_new(vm, TYPE_NAMES[SELF(self)->dtype],
                            strlen(TYPE_NAMES[SELF(self)->dtype]), out);
    if (lang_is_obj(dv, &lang_str_type)) {
        const char *name = lang_str_cstr(dv);
        for (int i = 0; i < NN_DTYPE_COUNT; i++)
            if (!strcmp(TYPE_NAMES[i], name)) return convert(vm, self, (nn_dtype)i, out);
        return lang_raise(vm, LANG_ERR_VALUE, "invalid type: '%s'", name);
    }
    nn_dtype dt;
    if (!lang_dtype_from(vm, dv, "dtype", &dt)) return false;
    return convert(vm, self, dt, out);
}

/* The address of element 0: views of one storage at one offset compare
 * equal, and it moves by offset * element_size, as torch's. */
static bool m_data_ptr(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "data_ptr", "")) return false;
    *out = lang_int((int64_t)(uintptr_t)nn_tensor_data(SELF(self)));
    return true;
}

static bool m_type_as(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val o;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "type_as", "other", &o) ||
        !tensor_arg(vm, o, "type_as", "other", &t))
        return false;
    return convert(vm, self, t->dtype, out);
}

static bool m_is_floating_point(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "is_floating_point", "")) return false;
    *out = lang_bool(nn_dtype_is_float(SELF(self)->dtype));
    return true;
}

static bool m_is_contiguous(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "is_contiguous", "")) return false;
    *out = lang_bool(nn_tensor_is_contiguous(SELF(self)));
    return true;
}

/* Methods that are the function of the same name with self first. */
#define SELF_METHOD(name)                                                                          \
    static bool m_##name(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {          \
        return with_self(vm, f_##name, self, a, out);                                              \
    }
SELF_METHOD(sum)
SELF_METHOD(mean)
SELF_METHOD(var)
SELF_METHOD(std)
SELF_METHOD(logsumexp)
SELF_METHOD(norm)
SELF_METHOD(max)
SELF_METHOD(min)
SELF_METHOD(argmax)
SELF_METHOD(argmin)
SELF_METHOD(any)
SELF_METHOD(all)
SELF_METHOD(numel)
SELF_METHOD(abs)
SELF_METHOD(exp)
SELF_METHOD(log)
SELF_METHOD(log1p)
SELF_METHOD(sqrt)
SELF_METHOD(rsqrt)
SELF_METHOD(neg)
SELF_METHOD(sign)
SELF_METHOD(square)
SELF_METHOD(clamp)
SELF_METHOD(relu)
SELF_METHOD(sigmoid)
SELF_METHOD(tanh)
SELF_METHOD(softmax)
SELF_METHOD(log_softmax)
SELF_METHOD(matmul)
SELF_METHOD(add)
SELF_METHOD(sub)
SELF_METHOD(mul)
SELF_METHOD(div)
SELF_METHOD(pow)
SELF_METHOD(maximum)
SELF_METHOD(minimum)
SELF_METHOD(reshape)
SELF_METHOD(view)
SELF_METHOD(flatten)
SELF_METHOD(permute)
SELF_METHOD(transpose)
SELF_METHOD(t)
SELF_METHOD(squeeze)
SELF_METHOD(unsqueeze)
SELF_METHOD(expand)
SELF_METHOD(expand_as)
SELF_METHOD(contiguous)
SELF_METHOD(clone)
SELF_METHOD(detach)
SELF_METHOD(isnan)
SELF_METHOD(isinf)
SELF_METHOD(isfinite)
SELF_METHOD(eq)
SELF_METHOD(ne)
SELF_METHOD(lt)
SELF_METHOD(le)
SELF_METHOD(gt)
SELF_METHOD(ge)
SELF_METHOD(logical_and)
SELF_METHOD(logical_or)
SELF_METHOD(logical_not)
SELF_METHOD(masked_fill)
SELF_METHOD(chunk)
SELF_METHOD(split)
SELF_METHOD(allclose)
SELF_METHOD(floor_divide)
SELF_METHOD(remainder)
#undef SELF_METHOD

/* view_as / reshape_as */
static bool m_view_as(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val o;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "view_as", "other", &o) ||
        !tensor_arg(vm, o, "view_as", "other", &t))
        return false;
    return wrap_named(vm, nn_view(CTX(vm), SELF(self), t->ndim, t->shape), "ViewBackward0", out);
}

static bool m_reshape_as(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val o;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "reshape_as", "other", &o) ||
        !tensor_arg(vm, o, "reshape_as", "other", &t))
        return false;
    return wrap_named(vm, nn_reshape(CTX(vm), SELF(self), t->ndim, t->shape),
                      "ReshapeAliasBackward0", out);
}

/* ------------------------------------------------------------------ indexing */

static bool is_ellipsis(lang_val v) {
    return v.kind == LANG_OBJ && !strcmp(lang_type_name(v), "ellipsis");
}

/* Advanced indices gathered while walking a key. */
typedef struct adv_set {
    int n;
    nn_tensor *idx[NN_MAX_DIMS];
    int pos[NN_MAX_DIMS]; /* dim of the current view each one indexes */
} adv_set;

static void adv_free(adv_set *s) {
    for (int i = 0; i < s->n; i++) nn_tensor_release(s->idx[i]);
    s->n = 0;
}

static bool out_of_range(lang_vm *vm, int64_t i, int dim, int64_t size) {
    return lang_raise(vm, LANG_ERR_INDEX,
                      "index %lld is out of bounds for dimension %d with size %lld", (long long)i,
                      dim, (long long)size);
}

/* An int64 index tensor checked against [size], negatives wrapped (new
 * reference). */
static bool checked_index(lang_vm *vm, nn_tensor *it, int orig_dim, int64_t size, nn_tensor **out) {
    nn_ctx *ctx = CTX(vm);
    if (it->dtype != NN_INT64)
        return lang_raise(vm, LANG_ERR_INDEX,
                          "tensors used as indices must be long, int, byte or bool tensors");
    int64_t n = nn_tensor_numel(it);
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, it);
    if (!c) return lang_raise_engine(vm);
    const int64_t *p = nn_tensor_data(c);
    bool neg = false;
    for (int64_t k = 0; k < n; k++) {
        if (p[k] < -size || p[k] >= size) {
            int64_t bad = p[k];
            nn_tensor_release(c);
            return out_of_range(vm, bad, orig_dim, size);
        }
        neg |= p[k] < 0;
    }
    if (!neg) {
        *out = c;
        return true;
    }
    nn_tensor *w = nn_tensor_from_data(ctx, NN_INT64, c->ndim, c->shape, p);
    nn_tensor_release(c);
    if (!w) return lang_raise_engine(vm);
    int64_t *q = nn_tensor_data(w);
    for (int64_t k = 0; k < n; k++)
        if (q[k] < 0) q[k] += size;
    *out = w;
    return true;
}

/* A bool mask over dims [dim, dim + mask.ndim) as that many index tensors. */
static bool mask_indices(lang_vm *vm, nn_tensor *cur, int dim, int orig_dim, nn_tensor *mask,
                         adv_set *adv) {
    nn_ctx *ctx = CTX(vm);
    int k = mask->ndim;
    if (k == 0)
        return lang_raise(vm, LANG_ERR_INDEX, "a 0-dim bool mask as an index is not supported");
    for (int i = 0; i < k; i++)
        if (mask->shape[i] != cur->shape[dim + i])
            return lang_raise(
                vm, LANG_ERR_INDEX,
                "The shape of the mask [%lld] at index %d does not match the shape of "
                "the indexed tensor [%lld] at index %d",
                (long long)mask->shape[i], i, (long long)cur->shape[dim + i], orig_dim + i);
    int64_t n = nn_tensor_numel(mask), cnt = 0;
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, mask);
    if (!c) return lang_raise_engine(vm);
    const bool *m = nn_tensor_data(c);
    for (int64_t i = 0; i < n; i++) cnt += m[i];
    for (int i = 0; i < k; i++) {
        nn_tensor *t = nn_tensor_empty(ctx, NN_INT64, 1, &cnt);
        if (!t) {
            nn_tensor_release(c);
            return lang_raise_engine(vm);
        }
        adv->idx[adv->n] = t;
        adv->pos[adv->n] = dim + i;
        adv->n++;
    }
    int64_t j = 0, multi[NN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        if (m[i]) {
            for (int d = 0; d < k; d++)
                ((int64_t *)nn_tensor_data(adv->idx[adv->n - k + d]))[j] = multi[d];
            j++;
        }
        for (int d = k - 1; d >= 0; d--) {
            if (++multi[d] < mask->shape[d]) break;
            multi[d] = 0;
        }
    }
    nn_tensor_release(c);
    return true;
}

/* Walk [key] over [t]: basic indexing (ints, slices, None, Ellipsis) makes a
 * view in *view; advanced indices (index tensors, lists, masks, and ints
 * alongside them) are collected in [adv] against that view. */
static bool index_walk(lang_vm *vm, nn_tensor *t, lang_val key, nn_tensor **view, adv_set *adv) {
    nn_ctx *ctx = CTX(vm);
    const lang_val *items = &key;
    int64_t n = 1;
    if (lang_is_obj(key, &lang_tuple_type)) {
        items = lang_seq_items(key);
        n = lang_seq_len(key);
    }
    /* Pre-scan: how many dims the key consumes. */
    int consumed = 0, ellipses = 0;
    for (int64_t i = 0; i < n; i++) {
        lang_val v = items[i];
        nn_tensor *it = lang_tensor_of(v);
        if (v.kind == LANG_NONE) continue;
        if (is_ellipsis(v)) {
            ellipses++;
            continue;
        }
        if (it && it->dtype == NN_BOOL) {
            consumed += it->ndim;
        } else if (it && it->ndim > 0) {
            consumed++;
        } else if (is_seq(v)) {
            consumed++;
        } else {
            consumed++;
        }
    }
    if (ellipses > 1)
        return lang_raise(vm, LANG_ERR_INDEX, "an index can only have a single ellipsis ('...')");
    if (consumed > t->ndim) {
        if (t->ndim == 0)
            return lang_raise(vm, LANG_ERR_INDEX,
                              "invalid index of a 0-dim tensor. Use `tensor.item()` to convert a "
                              "0-dim tensor to a number");
        return lang_raise(vm, LANG_ERR_INDEX, "too many indices for tensor of dimension %d",
                          t->ndim);
    }
    nn_tensor *cur = nn_tensor_retain(t);
    int dim = 0, orig = 0;
    for (int64_t i = 0; i < n; i++) {
        lang_val v = items[i];
        nn_tensor *it = lang_tensor_of(v), *next = NULL;
        if (v.kind == LANG_NONE) {
            next = nn_unsqueeze(ctx, cur, dim);
            dim++;
        } else if (is_ellipsis(v)) {
            int skip = t->ndim - consumed;
            dim += skip;
            orig += skip;
            continue;
        } else if (lang_is_obj(v, &lang_slice_type)) {
            const lang_slice_obj *s = (const lang_slice_obj *)v.u.o;
            int64_t start = 0, stop = NN_SLICE_END, step = 1;
            if ((s->start.kind != LANG_NONE && !int_arg(vm, s->start, "slice start", &start)) ||
                (s->stop.kind != LANG_NONE && !int_arg(vm, s->stop, "slice stop", &stop)) ||
                (s->step.kind != LANG_NONE && !int_arg(vm, s->step, "slice step", &step)))
                goto fail;
            if (step <= 0) {
                lang_raise(vm, LANG_ERR_VALUE, "step must be greater than zero");
                goto fail;
            }
            next = nn_slice(ctx, cur, dim, start, stop, step);
            dim++;
            orig++;
        } else if (it && it->dtype == NN_BOOL) {
            if (!mask_indices(vm, cur, dim, orig, it, adv)) goto fail;
            dim += it->ndim;
            orig += it->ndim;
            continue;
        } else if ((it && it->ndim > 0) || is_seq(v) || lang_is_obj(v, &lang_range_type)) {
            nn_tensor *raw = NULL, *ix = NULL;
            if (it)
                raw = nn_tensor_retain(it);
            else if (!lang_tensor_from_value(vm, v, -1, &raw))
                goto fail;
            if (raw->dtype == NN_BOOL) {
                bool ok = mask_indices(vm, cur, dim, orig, raw, adv);
                int k = raw->ndim;
                nn_tensor_release(raw);
                if (!ok) goto fail;
                dim += k;
                orig += k;
                continue;
            }
            bool ok = checked_index(vm, raw, orig, cur->shape[dim], &ix);
            nn_tensor_release(raw);
            if (!ok) goto fail;
            adv->idx[adv->n] = ix;
            adv->pos[adv->n] = dim;
            adv->n++;
            dim++;
            orig++;
            continue;
        } else if (v.kind == LANG_INT || (it && it->ndim == 0 && it->dtype == NN_INT64)) {
            int64_t k;
            if (!int_arg(vm, v, "index", &k)) goto fail;
            int64_t size = cur->shape[dim];
            if (k < -size || k >= size) {
                out_of_range(vm, k, orig, size);
                goto fail;
            }
            if (k < 0) k += size;
            /* An int selects (removes its dim) before any advanced indexing,
             * as torch 1.13 does: x[0, :, idx] has shape [3, len(idx)]. */
            next = nn_select(ctx, cur, dim, k);
            orig++;
        } else {
            lang_raise(vm, LANG_ERR_INDEX,
                       "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                       "Variables are valid indices (got %s)",
                       lang_type_name(v));
            goto fail;
        }
        if (!next) {
            lang_raise_engine(vm);
            goto fail;
        }
        nn_tensor_release(cur);
        cur = next;
    }
    *view = cur;
    return true;
fail:
    nn_tensor_release(cur);
    adv_free(adv);
    return false;
}

/* Put non-adjacent advanced dims first (torch's rule), so that they are
 * consecutive from *dim on. New reference in *out. */
static bool adv_arrange(lang_vm *vm, nn_tensor *view, adv_set *adv, nn_tensor **out, int *dim) {
    bool adjacent = true;
    for (int i = 1; i < adv->n; i++) adjacent &= adv->pos[i] == adv->pos[0] + i;
    if (adjacent) {
        *out = nn_tensor_retain(view);
        *dim = adv->pos[0];
        return true;
    }
    int64_t order[NN_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < adv->n; i++) order[k++] = adv->pos[i];
    for (int d = 0; d < view->ndim; d++) {
        bool is_adv = false;
        for (int i = 0; i < adv->n; i++) is_adv |= adv->pos[i] == d;
        if (!is_adv) order[k++] = d;
    }
    *out = nn_permute(CTX(vm), view, order);
    *dim = 0;
    return *out ? true : lang_raise_engine(vm);
}

static bool tensor_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    nn_tensor *t = ((tensor_obj *)o)->t, *view;
    adv_set adv = {0};
    if (!index_walk(vm, t, key, &view, &adv)) return false;
    if (adv.n == 0) return wrap(vm, view, out);
    nn_tensor *arranged;
    int dim;
    bool ok = adv_arrange(vm, view, &adv, &arranged, &dim);
    nn_tensor_release(view);
    if (ok) {
        nn_tensor *r = nn_index(CTX(vm), arranged, dim, adv.idx, adv.n);
        nn_tensor_release(arranged);
        ok = wrap_named(vm, r, "IndexBackward0", out);
    }
    adv_free(&adv);
    return ok;
}

/* The row-major positions in [t] that t[key] selects, as an int64 tensor
 * of t[key]'s shape: the same walk over a tensor of positions. */
static bool key_positions(lang_vm *vm, nn_tensor *t, lang_val key, nn_tensor **out) {
    nn_ctx *ctx = CTX(vm);
    *out = NULL;
    nn_tensor *flat = nn_arange(ctx, 0, (double)nn_tensor_numel(t), 1, NN_INT64);
    nn_tensor *pos = flat ? nn_view(ctx, flat, t->ndim, t->shape) : NULL;
    nn_tensor_release(flat);
    if (!pos) return lang_raise_engine(vm);
    nn_tensor *view = NULL;
    adv_set adv = {0};
    bool ok = index_walk(vm, pos, key, &view, &adv);
    nn_tensor_release(pos);
    if (ok && adv.n == 0) {
        *out = view;
        view = NULL;
    } else if (ok) {
        nn_tensor *arranged;
        int dim;
        ok = adv_arrange(vm, view, &adv, &arranged, &dim);
        if (ok) {
            *out = nn_index(ctx, arranged, dim, adv.idx, adv.n);
            nn_tensor_release(arranged);
            ok = *out != NULL || lang_raise_engine(vm);
        }
    }
    adv_free(&adv);
    nn_tensor_release(view);
    return ok;
}

/* x[key] = v where autograd records it: x takes nn_put's result. */
static bool setitem_recorded(lang_vm *vm, lang_obj *o, lang_val key, nn_tensor *val) {
    nn_ctx *ctx = CTX(vm);
    nn_tensor *t = ((tensor_obj *)o)->t, *pos;
    if (nn_inplace_check(ctx, t, "__setitem__") != NN_OK) return lang_raise_engine(vm);
    bool prev = nn_ctx_set_grad(ctx, false);
    bool ok = key_positions(vm, t, key, &pos);
    nn_ctx_set_grad(ctx, prev);
    if (!ok) return false;
    nn_tensor *r = nn_put(ctx, t, val, pos);
    nn_tensor_release(pos);
    if (!r) return lang_raise_engine(vm);
    nn_status st = nn_tensor_assign_(ctx, t, r);
    nn_tensor_release(r);
    if (st == NN_OK) ((tensor_obj *)o)->fn_name = NULL;
    return status(vm, st);
}

static bool tensor_setitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val v) {
    nn_ctx *ctx = CTX(vm);
    nn_tensor *t = ((tensor_obj *)o)->t, *view = NULL, *val = NULL;
    if (!operand(vm, v, "__setitem__", "value", &val)) return false;
    if (nn_inplace_records(ctx, t, val)) {
        bool ok = setitem_recorded(vm, o, key, val);
        nn_tensor_release(val);
        return ok;
    }
    if (nn_tensor_check_inplace(ctx, t, "index_put_") != NN_OK) {
        nn_tensor_release(val);
        return lang_raise_engine(vm);
    }
    /* The views that address the target are plumbing, not part of the
     * graph: build them without recording. */
    bool prev = nn_ctx_set_grad(ctx, false);
    adv_set adv = {0};
    bool ok = index_walk(vm, t, key, &view, &adv);
    if (ok && adv.n == 0) {
        ok = status(vm, nn_tensor_copy_(ctx, view, val));
    } else if (ok) {
        nn_tensor *arranged;
        int dim;
        ok = adv_arrange(vm, view, &adv, &arranged, &dim);
        if (ok) {
            ok = status(vm, nn_index_put_(ctx, arranged, dim, adv.idx, adv.n, val));
            nn_tensor_release(arranged);
        }
    }
    nn_ctx_set_grad(ctx, prev);
    adv_free(&adv);
    nn_tensor_release(view);
    nn_tensor_release(val);
    return ok;
}

/* ------------------------------------------------------------------ protocol */

static bool tensor_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    tensor_obj *to = (tensor_obj *)o;
    if (to->is_param) lang_buf_puts(out, "Parameter containing:\n");
    nn_format_tensor_repr(to->t, to->fn_name, &vm->print_opts, out);
    return true;
}

static bool tensor_display(lang_vm *vm, lang_obj *o, struct lang_mime *out) {
    tensor_obj *to = (tensor_obj *)o;
    lang_buf b;
    lang_buf_init(&b);
    if (to->is_param) lang_buf_puts(&b, "Parameter containing:\n");
    nn_format_tensor_repr(to->t, to->fn_name, &vm->print_opts, &b);
    lang_mime_add(out, "text/plain", lang_buf_take(&b));
    nn_format_tensor_html(to->t, to->fn_name, &b);
    lang_mime_add(out, "text/html", lang_buf_take(&b));
    return true;
}

static bool tensor_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    nn_tensor *t = ((tensor_obj *)o)->t;
    if (t->ndim == 0) return lang_raise(vm, LANG_ERR_TYPE, "len() of a 0-d tensor");
    *out = t->shape[0];
    return true;
}

static bool tensor_truth(lang_vm *vm, lang_obj *o, bool *out) {
    nn_tensor *t = ((tensor_obj *)o)->t;
    int64_t n = nn_tensor_numel(t);
    if (n == 0)
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "Boolean value of Tensor with no values is ambiguous");
    if (n > 1)
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "Boolean value of Tensor with more than one value is ambiguous");
    double d;
    nn_tensor_to_doubles(t, &d);
    *out = d != 0;
    return true;
}

static bool tensor_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                         bool *handled) {
    nn_ctx *ctx = CTX(vm);
    *handled = true;
    nn_tensor *ta = lang_tensor_of(a);
    switch (op) {
    case LANG_OP_NEG: return wrap(vm, nn_neg(ctx, ta), out);
    case LANG_OP_POS: *out = lang_val_retain(a); return true;
    case LANG_OP_INVERT:
        if (ta->dtype != NN_BOOL)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "~ is supported on bool tensors only (got torch.%s)",
                              nn_dtype_name(ta->dtype));
        return wrap(vm, nn_logical_not(ctx, ta), out);
    default: break;
    }
    /* The other operand must be a tensor or a number; anything else is
     * left to the evaluator (== None is False, + str a TypeError). */
    lang_val other = lang_tensor_of(a) ? b : a;
    if (!lang_tensor_of(other) && !is_number(other)) {
        *handled = false;
        return true;
    }
    nn_tensor *x, *y;
    if (!operand(vm, a, "operator", "input", &x)) return false;
    if (!operand(vm, b, "operator", "other", &y)) {
        nn_tensor_release(x);
        return false;
    }
    nn_tensor *r = NULL;
    bool ok = true, done = false;
    switch (op) {
    case LANG_OP_ADD: r = nn_add(ctx, x, y); break;
    case LANG_OP_SUB: r = nn_sub(ctx, x, y); break;
    case LANG_OP_MUL: r = nn_mul(ctx, x, y); break;
    case LANG_OP_DIV: r = nn_div(ctx, x, y); break;
    case LANG_OP_POW: r = nn_pow(ctx, x, y); break;
    case LANG_OP_MATMUL:
        if (x->is_wrapped_number || y->is_wrapped_number) {
            ok = lang_raise(vm, LANG_ERR_TYPE, "unsupported operand type(s) for @: '%s' and '%s'",
                            lang_type_name(a), lang_type_name(b));
            done = true;
        } else {
            r = nn_matmul(ctx, x, y);
        }
        break;
    case LANG_OP_EQ: r = nn_eq(ctx, x, y); break;
    case LANG_OP_NE: r = nn_ne(ctx, x, y); break;
    case LANG_OP_LT: r = nn_lt(ctx, x, y); break;
    case LANG_OP_LE: r = nn_le(ctx, x, y); break;
    case LANG_OP_GT: r = nn_gt(ctx, x, y); break;
    case LANG_OP_GE: r = nn_ge(ctx, x, y); break;
    case LANG_OP_AND_BITS:
    case LANG_OP_OR_BITS:
        if (x->dtype != NN_BOOL || y->dtype != NN_BOOL) {
            ok = lang_raise(vm, LANG_ERR_TYPE, "%s is supported between bool tensors only",
                            op == LANG_OP_AND_BITS ? "&" : "|");
            done = true;
        } else {
            r = op == LANG_OP_AND_BITS ? nn_logical_and(ctx, x, y) : nn_logical_or(ctx, x, y);
        }
        break;
    case LANG_OP_FLOORDIV:
    case LANG_OP_MOD:
        ok = floor_mod(vm, x, y, op == LANG_OP_MOD, out);
        done = true;
        break;
    default:
        *handled = false;
        done = true;
        break;
    }
    nn_tensor_release(x);
    nn_tensor_release(y);
    if (done) return ok;
    return wrap(vm, r, out);
}

static bool tensor_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    tensor_obj *to = (tensor_obj *)o;
    nn_tensor *t = to->t;
    nn_ctx *ctx = CTX(vm);
    *found = true;
    if (!strcmp(name, "shape")) return lang_size_new(vm, t->ndim, t->shape, out);
    if (!strcmp(name, "dtype")) {
        *out = lang_dtype_val(t->dtype);
        return true;
    }
    if (!strcmp(name, "ndim")) {
        *out = lang_int(t->ndim);
        return true;
    }
    if (!strcmp(name, "requires_grad")) {
        *out = lang_bool(t->requires_grad);
        return true;
    }
    if (!strcmp(name, "is_leaf")) {
        *out = lang_bool(nn_tensor_is_leaf(t));
        return true;
    }
    if (!strcmp(name, "grad")) {
        nn_tensor *g = nn_tensor_grad(t);
        *out = lang_none();
        return g ? lang_tensor_new(vm, nn_tensor_retain(g), out) : true;
    }
    if (!strcmp(name, "grad_fn")) {
        if (!t->grad_fn) {
            *out = lang_none();
            return true;
        }
        gradfn_obj *g = lang_obj_new(vm, &gradfn_type, sizeof *g);
        if (!g) return false;
        nn_node_retain(t->grad_fn);
        g->node = t->grad_fn;
        g->name = to->fn_name ? to->fn_name : nn_format_grad_fn_name(t);
        *out = lang_obj_val(&g->hdr);
        return true;
    }
    if (!strcmp(name, "T") || !strcmp(name, "mT")) {
        if (t->ndim < 2 && name[0] == 'T') {
            *out = lang_val_retain(lang_obj_val(o));
            return true;
        }
        if (t->ndim < 2)
            return lang_raise(vm, LANG_ERR_SHAPE,
                              "tensor.mT is only supported on matrices or batches of matrices");
        int64_t order[NN_MAX_DIMS];
        for (int i = 0; i < t->ndim; i++) order[i] = name[0] == 'T' ? t->ndim - 1 - i : i;
        if (name[0] == 'm') {
            order[t->ndim - 1] = t->ndim - 2;
            order[t->ndim - 2] = t->ndim - 1;
        }
        return wrap_named(vm, nn_permute(ctx, t, order),
                          name[0] == 'T' ? "PermuteBackward0" : "TransposeBackward0", out);
    }
    if (!strcmp(name, "data")) return wrap(vm, nn_tensor_detach(ctx, t), out);
    if (!strcmp(name, "device")) return lang_str_from_cstr(vm, "cpu", out);
    if (!strcmp(name, "itemsize")) {
        *out = lang_int((int64_t)nn_dtype_size(t->dtype));
        return true;
    }
    *found = false;
    return true;
}

static bool tensor_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    nn_tensor *t = ((tensor_obj *)o)->t;
    if (!strcmp(name, "requires_grad")) {
        bool on;
        return bool_arg(vm, v, "requires_grad", &on) &&
               status(vm, nn_tensor_requires_grad_(CTX(vm), t, on));
    }
    if (!strcmp(name, "grad")) {
        if (v.kind == LANG_NONE) {
            nn_tensor_clear_grad(t);
            return true;
        }
        nn_tensor *g = lang_tensor_of(v);
        if (!g)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "assigned grad expected to be a Tensor or None but got %s",
                              lang_type_name(v));
        if (!nn_tensor_same_shape(g, t) || g->dtype != t->dtype)
            return lang_raise(vm, LANG_ERR_SHAPE,
                              "assigned grad has data of a different size or type");
        if (!nn_tensor_is_leaf(t))
            return lang_raise(vm, LANG_ERR_RUNTIME, "only a leaf tensor's .grad can be assigned");
        nn_tensor_retain(g);
        nn_tensor_release(t->grad);
        t->grad = g;
        return true;
    }
    if (!strcmp(name, "data")) {
        nn_tensor *src = lang_tensor_of(v);
        if (!src)
            return lang_raise(vm, LANG_ERR_TYPE, "data must be a Tensor, not %s",
                              lang_type_name(v));
        if (!nn_tensor_same_shape(src, t))
            return lang_raise(
                vm, LANG_ERR_SHAPE,
                "x.data = y needs y of the same shape here; use x.copy_(y) under no_grad()");
        bool prev = nn_ctx_set_grad(CTX(vm), false);
        nn_status st = nn_tensor_copy_(CTX(vm), t, src);
        nn_ctx_set_grad(CTX(vm), prev);
        return status(vm, st);
    }
    bool found = false;
    lang_val tmp;
    if (!tensor_getattr(vm, o, name, &tmp, &found)) return false;
    if (found) {
        lang_val_release(tmp);
        return lang_raise(vm, LANG_ERR_ATTRIBUTE,
                          "attribute '%s' of 'Tensor' objects is not writable", name);
    }
    return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'Tensor' object has no attribute '%s'", name);
}

static const char *const tensor_fields[] = {
    "shape", "dtype", "ndim", "requires_grad", "is_leaf",  "grad", "grad_fn",
    "T",     "mT",    "data", "device",        "itemsize", NULL};
static const char *const *tensor_fieldnames(lang_obj *o) {
    return tensor_fields;
}

bool lang_tensor_install(lang_vm *vm) {
    static const struct {
        const char *name;
        nn_dtype dt;
    } names[] = {{"float32", NN_FLOAT32},   {"float64", NN_FLOAT64}, {"int64", NN_INT64},
                 {"double", NN_FLOAT64},    {"long", NN_INT64},      {"float16", NN_FLOAT16},
                 {"bfloat16", NN_BFLOAT16}, {"int32", NN_INT32},     {"int16", NN_INT16},
                 {"int8", NN_INT8},         {"uint8", NN_UINT8}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!lang_vm_set_global(vm, names[i].name, lang_dtype_val(names[i].dt))) return false;
    return true;
}

/* ------------------------------------------------------------------ tables */

/* Generated from one spec (name, function, signature, doc, example) so that
 * every builtin and method carries its help entry. */
static bool m_element_size(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "element_size", "")) return false;
    *out = lang_int((int64_t)nn_dtype_size(SELF(self)->dtype));
    return true;
}

static bool m_stride(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val dv = lang_none();
    if (!lang_parse_args(vm, a, "stride", "|dim", &dv)) return false;
    nn_tensor *t = SELF(self);
    if (dv.kind != LANG_NONE) {
        int64_t d;
        if (!lang_to_int(vm, dv, "dim", &d)) return false;
        if (d < 0) d += t->ndim;
        if (d < 0 || d >= t->ndim)
            return lang_raise(vm, LANG_ERR_INDEX, "Dimension out of range (got %lld)",
                              (long long)d);
        *out = lang_int(t->strides[d]);
        return true;
    }
    lang_val items[NN_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) items[i] = lang_int(t->strides[i]);
    return lang_tuple_pack(vm, t->ndim, items, out);
}

static bool m_storage_offset(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "storage_offset", "")) return false;
    *out = lang_int(SELF(self)->offset);
    return true;
}

static const lang_method tensor_methods[] = {
    {"item",
     m_item,
     {"Tensor.item", "item()",
      "The value of a one-element tensor as a Python number (float, int or bool).", "loss.item()"}},
    {"tolist",
     m_tolist,
     {"Tensor.tolist", "tolist()",
      "The values as nested Python lists (a number for a 0-dim tensor).", "x.tolist()"}},
    {"numel", m_numel, {"Tensor.numel", "numel()", "The number of elements.", "x.numel()"}},
    {"nelement",
     m_numel,
     {"Tensor.nelement", "nelement()", "The number of elements (numel).", "x.nelement()"}},
    {"element_size",
     m_element_size,
     {"Tensor.element_size", "element_size()", "Bytes per element of the dtype.",
      "x.element_size()"}},
    {"stride",
     m_stride,
     {"Tensor.stride", "stride(dim=None)", "Elements to step in each dim (a tuple, or one dim's).",
      "x.stride()"}},
    {"storage_offset",
     m_storage_offset,
     {"Tensor.storage_offset", "storage_offset()", "Where the view starts in its storage.",
      "x[1:].storage_offset()"}},

    {"dim", m_dim, {"Tensor.dim", "dim()", "The number of dims (same as ndim).", "x.dim()"}},
    {"size",
     m_size,
     {"Tensor.size", "size(dim=None)", "The shape as torch.Size, or the size of one dim.",
      "x.size(1)"}},
    {"sum",
     m_sum,
     {"Tensor.sum", "sum(dim=None, keepdim=False, dtype=None)", "Sum of all elements or along dim.",
      "x.sum(dim=1, keepdim=True)"}},
    {"mean",
     m_mean,
     {"Tensor.mean", "mean(dim=None, keepdim=False, dtype=None)",
      "Mean of all elements or along dim.", "x.mean()"}},
    {"var",
     m_var,
     {"Tensor.var", "var(dim=None, unbiased=True, keepdim=False)",
      "Variance (unbiased by default).", "x.var(dim=0)"}},
    {"std",
     m_std,
     {"Tensor.std", "std(dim=None, unbiased=True, keepdim=False)",
      "Standard deviation (unbiased by default).", "w.grad.std()"}},
    {"logsumexp",
     m_logsumexp,
     {"Tensor.logsumexp", "logsumexp(dim, keepdim=False)", "Stable log(sum(exp(x))) along dim.",
      "x.logsumexp(1)"}},
    {"norm",
     m_norm,
     {"Tensor.norm", "norm(p=2, dim=None, keepdim=False)", "The p-norm.", "w.grad.norm()"}},
    {"max",
     m_max,
     {"Tensor.max", "max(dim=None, keepdim=False) / max(other)",
      "Largest element; with dim a (values, indices) pair; with a tensor the elementwise maximum.",
      "x.max(dim=1).indices"}},
    {"min",
     m_min,
     {"Tensor.min", "min(dim=None, keepdim=False) / min(other)",
      "Smallest element; with dim a (values, indices) pair.", "x.min()"}},
    {"argmax",
     m_argmax,
     {"Tensor.argmax", "argmax(dim=None, keepdim=False)", "Index of the largest element.",
      "logits.argmax(dim=1)"}},
    {"argmin",
     m_argmin,
     {"Tensor.argmin", "argmin(dim=None, keepdim=False)", "Index of the smallest element.",
      "x.argmin()"}},
    {"any",
     m_any,
     {"Tensor.any", "any(dim=None, keepdim=False)", "Whether any element is non-zero.",
      "x.isnan().any()"}},
    {"all",
     m_all,
     {"Tensor.all", "all(dim=None, keepdim=False)", "Whether every element is non-zero.",
      "(pred == y).all()"}},
    {"allclose",
     m_allclose,
     {"Tensor.allclose", "allclose(other, rtol=1e-05, atol=1e-08, equal_nan=False)",
      "Whether the two tensors are close everywhere (a Python bool).", "a.allclose(b)"}},
    {"abs", m_abs, {"Tensor.abs", "abs()", "Elementwise absolute value.", "x.abs().max()"}},
    {"exp", m_exp, {"Tensor.exp", "exp()", "Elementwise e^x.", "x.exp()"}},
    {"log", m_log, {"Tensor.log", "log()", "Elementwise natural log.", "p.log()"}},
    {"log1p", m_log1p, {"Tensor.log1p", "log1p()", "log(1 + x).", "x.log1p()"}},
    {"sqrt", m_sqrt, {"Tensor.sqrt", "sqrt()", "Elementwise square root.", "v.sqrt()"}},
    {"rsqrt", m_rsqrt, {"Tensor.rsqrt", "rsqrt()", "Elementwise 1/sqrt(x).", "v.rsqrt()"}},
    {"neg", m_neg, {"Tensor.neg", "neg()", "Elementwise -x.", "x.neg()"}},
    {"sign", m_sign, {"Tensor.sign", "sign()", "Elementwise sign.", "x.sign()"}},
    {"square", m_square, {"Tensor.square", "square()", "Elementwise x * x.", "x.square()"}},
    {"clamp",
     m_clamp,
     {"Tensor.clamp", "clamp(min=None, max=None)", "Limit values to [min, max].",
      "x.clamp(-1, 1)"}},
    {"relu", m_relu, {"Tensor.relu", "relu()", "max(x, 0).", "x.relu()"}},
    {"sigmoid", m_sigmoid, {"Tensor.sigmoid", "sigmoid()", "1 / (1 + exp(-x)).", "x.sigmoid()"}},
    {"tanh", m_tanh, {"Tensor.tanh", "tanh()", "Hyperbolic tangent.", "x.tanh()"}},
    {"softmax",
     m_softmax,
     {"Tensor.softmax", "softmax(dim)", "Softmax along dim.", "logits.softmax(dim=-1)"}},
    {"log_softmax",
     m_log_softmax,
     {"Tensor.log_softmax", "log_softmax(dim)", "Log-softmax along dim.", "logits.log_softmax(1)"}},
    {"matmul",
     m_matmul,
     {"Tensor.matmul", "matmul(other)", "Matrix product (the @ operator).", "x.matmul(w.T)"}},
    {"add", m_add, {"Tensor.add", "add(other, alpha=1)", "self + alpha * other.", "x.add(1)"}},
    {"sub", m_sub, {"Tensor.sub", "sub(other)", "self - other.", "x.sub(1)"}},
    {"mul", m_mul, {"Tensor.mul", "mul(other)", "self * other.", "x.mul(2)"}},
    {"div", m_div, {"Tensor.div", "div(other)", "self / other.", "x.div(2)"}},
    {"pow", m_pow, {"Tensor.pow", "pow(exponent)", "self ** exponent.", "x.pow(2)"}},
    {"floor_divide",
     m_floor_divide,
     {"Tensor.floor_divide", "floor_divide(other)", "self // other.", "x.floor_divide(2)"}},
    {"remainder",
     m_remainder,
     {"Tensor.remainder", "remainder(other)", "self % other.", "x.remainder(2)"}},
    {"maximum",
     m_maximum,
     {"Tensor.maximum", "maximum(other)", "Elementwise maximum.", "x.maximum(y)"}},
    {"minimum",
     m_minimum,
     {"Tensor.minimum", "minimum(other)", "Elementwise minimum.", "x.minimum(y)"}},
    {"reshape",
     m_reshape,
     {"Tensor.reshape", "reshape(*shape)", "The same elements in a new shape (one dim may be -1).",
      "x.reshape(2, -1)"}},
    {"view",
     m_view,
     {"Tensor.view", "view(*shape)",
      "Like reshape, but an error when the result cannot share storage.", "x.view(-1)"}},
    {"view_as",
     m_view_as,
     {"Tensor.view_as", "view_as(other)", "view(other.shape).", "x.view_as(y)"}},
    {"reshape_as",
     m_reshape_as,
     {"Tensor.reshape_as", "reshape_as(other)", "reshape(other.shape).", "x.reshape_as(y)"}},
    {"flatten",
     m_flatten,
     {"Tensor.flatten", "flatten(start_dim=0, end_dim=-1)", "Merge dims into one.",
      "x.flatten(1)"}},
    {"permute",
     m_permute,
     {"Tensor.permute", "permute(*dims)", "Reorder the dims.", "x.permute(0, 2, 1)"}},
    {"transpose",
     m_transpose,
     {"Tensor.transpose", "transpose(dim0, dim1)", "Swap two dims.", "x.transpose(1, 2)"}},
    {"t", m_t, {"Tensor.t", "t()", "Transpose of a 2-D tensor.", "w.t()"}},
    {"squeeze",
     m_squeeze,
     {"Tensor.squeeze", "squeeze(dim=None)", "Remove size-1 dims.", "x.squeeze(1)"}},
    {"unsqueeze",
     m_unsqueeze,
     {"Tensor.unsqueeze", "unsqueeze(dim)", "Insert a size-1 dim.", "x.unsqueeze(0)"}},
    {"expand",
     m_expand,
     {"Tensor.expand", "expand(*sizes)",
      "Broadcast size-1 dims to larger sizes without copying (-1 keeps a size).",
      "b.expand(4, -1)"}},
    {"expand_as",
     m_expand_as,
     {"Tensor.expand_as", "expand_as(other)", "expand(other.shape).", "b.expand_as(x)"}},
    {"contiguous",
     m_contiguous,
     {"Tensor.contiguous", "contiguous()", "A row-major copy when needed.", "x.T.contiguous()"}},
    {"clone", m_clone, {"Tensor.clone", "clone()", "A copy with its own storage.", "w.clone()"}},
    {"detach",
     m_detach,
     {"Tensor.detach", "detach()", "The same data without history.", "loss.detach()"}},
    {"requires_grad_",
     m_requires_grad_,
     {"Tensor.requires_grad_", "requires_grad_(requires_grad=True)",
      "Start (or stop) recording operations on this leaf for backward; returns self.",
      "w = randn(3, 2).requires_grad_()"}},
    {"retain_grad",
     m_retain_grad,
     {"Tensor.retain_grad", "retain_grad()", "Keep this non-leaf tensor's .grad after backward().",
      "h.retain_grad()"}},
    {"register_hook",
     m_register_hook,
     {"Tensor.register_hook", "register_hook(hook)",
      "Call hook(grad) with the gradient flowing into this tensor during backward; a returned "
      "tensor replaces it. Returns a handle with remove().",
      "h = w.register_hook(lambda g: g * 2)"}},
    {"backward",
     m_backward,
     {"Tensor.backward", "backward(gradient=None, retain_graph=False)",
      "Compute the gradient of this tensor (a one-element loss, or with gradient= of its shape) "
      "with respect to every leaf that requires grad, accumulating into their .grad.",
      "loss.backward()"}},
    {"zero_",
     m_zero_,
     {"Tensor.zero_", "zero_()", "Fill with 0 in place; returns self.", "w.grad.zero_()"}},
    {"fill_",
     m_fill_,
     {"Tensor.fill_", "fill_(value)", "Fill with value in place.", "b.fill_(0.1)"}},
    {"copy_",
     m_copy_,
     {"Tensor.copy_", "copy_(src)", "Copy src (broadcast) into self in place.", "w.copy_(w0)"}},
    {"add_",
     m_add_,
     {"Tensor.add_", "add_(other, alpha=1)",
      "self += alpha * other in place (under no_grad() on leaves that require grad).",
      "w.add_(w.grad, alpha=-0.1)"}},
    {"sub_",
     m_sub_,
     {"Tensor.sub_", "sub_(other, alpha=1)", "self -= alpha * other in place.",
      "w.sub_(0.1 * w.grad)"}},
    {"mul_", m_mul_, {"Tensor.mul_", "mul_(other)", "self *= other in place.", "w.mul_(0.5)"}},
    {"div_", m_div_, {"Tensor.div_", "div_(other)", "self /= other in place.", "w.div_(2)"}},
    {"clamp_",
     m_clamp_,
     {"Tensor.clamp_", "clamp_(min=None, max=None)", "Clamp in place.", "w.clamp_(-1, 1)"}},
    {"normal_",
     m_normal_,
     {"Tensor.normal_", "normal_(mean=0, std=1, generator=None)",
      "Refill with normal random values in place.", "w.normal_(0, 0.02)"}},
    {"uniform_",
     m_uniform_,
     {"Tensor.uniform_", "uniform_(from=0, to=1, generator=None)",
      "Refill with uniform random values in place.", "w.uniform_(-0.1, 0.1)"}},
    {"exponential_",
     m_exponential_,
     {"Tensor.exponential_", "exponential_(lambd=1, generator=None)",
      "Refill with Exp(lambd) random values in place.", "w.exponential_()"}},
    {"bernoulli_",
     m_bernoulli_,
     {"Tensor.bernoulli_", "bernoulli_(p=0.5, generator=None)",
      "Refill with 1 (probability p) or 0 in place.", "m.bernoulli_(0.9)"}},
    {"random_",
     m_random_,
     {"Tensor.random_", "random_(from=0, to, generator=None)",
      "Refill with random integers in [from, to) in place.", "i.random_(0, 10)"}},
    {"masked_fill_",
     m_masked_fill_,
     {"Tensor.masked_fill_", "masked_fill_(mask, value)",
      "Set value where the bool mask is True, in place.", "x.masked_fill_(x < 0, 0.0)"}},
    {"masked_fill",
     m_masked_fill,
     {"Tensor.masked_fill", "masked_fill(mask, value)",
      "A copy with value where the bool mask is True.", "scores.masked_fill(mask, float('-inf'))"}},
    {"float", m_float, {"Tensor.float", "float()", "Convert to float32.", "y.float()"}},
    {"double",
     m_double,
     {"Tensor.double", "double()", "Convert to float64 (for gradient checks).", "x.double()"}},
    {"long", m_long, {"Tensor.long", "long()", "Convert to int64.", "pred.long()"}},
    {"bool", m_bool, {"Tensor.bool", "bool()", "Convert to bool.", "x.bool()"}},
    {"half", m_half, {"Tensor.half", "half()", "Convert to float16.", "x.half()"}},
    {"bfloat16",
     m_bfloat16,
     {"Tensor.bfloat16", "bfloat16()", "Convert to bfloat16.", "x.bfloat16()"}},
    {"int", m_int, {"Tensor.int", "int()", "Convert to int32.", "x.int()"}},
    {"short", m_short, {"Tensor.short", "short()", "Convert to int16.", "x.short()"}},
    {"char", m_char, {"Tensor.char", "char()", "Convert to int8.", "x.char()"}},
    {"byte", m_byte, {"Tensor.byte", "byte()", "Convert to uint8.", "x.byte()"}},
    {"type",
     m_type,
     {"Tensor.type", "type(dtype=None)",
      "The legacy type name ('torch.FloatTensor'), or a copy converted to dtype.", "x.type()"}},
    {"data_ptr",
     m_data_ptr,
     {"Tensor.data_ptr", "data_ptr()",
      "The address of the first element (equal for views that start at the same element).",
      "y.data_ptr() == x.data_ptr()"}},
    {"to",
     m_to,
     {"Tensor.to", "to(dtype)",
      "Convert to dtype ('cpu' as a device is accepted and changes nothing).", "x.to(float64)"}},
    {"type_as",
     m_type_as,
     {"Tensor.type_as", "type_as(other)", "Convert to other's dtype.", "x.type_as(w)"}},
    {"is_floating_point",
     m_is_floating_point,
     {"Tensor.is_floating_point", "is_floating_point()",
      "Whether the dtype is a floating point one.", "x.is_floating_point()"}},
    {"is_contiguous",
     m_is_contiguous,
     {"Tensor.is_contiguous", "is_contiguous()",
      "Whether the elements are laid out row-major without gaps.", "x.T.is_contiguous()"}},
    {"isnan", m_isnan, {"Tensor.isnan", "isnan()", "Elementwise NaN test.", "x.isnan().sum()"}},
    {"isinf", m_isinf, {"Tensor.isinf", "isinf()", "Elementwise inf test.", "x.isinf().any()"}},
    {"isfinite",
     m_isfinite,
     {"Tensor.isfinite", "isfinite()", "Elementwise finite test.", "x.isfinite().all()"}},
    {"eq", m_eq, {"Tensor.eq", "eq(other)", "Elementwise ==.", "x.eq(0)"}},
    {"ne", m_ne, {"Tensor.ne", "ne(other)", "Elementwise !=.", "x.ne(0)"}},
    {"lt", m_lt, {"Tensor.lt", "lt(other)", "Elementwise <.", "x.lt(0)"}},
    {"le", m_le, {"Tensor.le", "le(other)", "Elementwise <=.", "x.le(0)"}},
    {"gt", m_gt, {"Tensor.gt", "gt(other)", "Elementwise >.", "x.gt(0)"}},
    {"ge", m_ge, {"Tensor.ge", "ge(other)", "Elementwise >=.", "x.ge(0)"}},
    {"logical_and",
     m_logical_and,
     {"Tensor.logical_and", "logical_and(other)", "Elementwise and.", "a.logical_and(b)"}},
    {"logical_or",
     m_logical_or,
     {"Tensor.logical_or", "logical_or(other)", "Elementwise or.", "a.logical_or(b)"}},
    {"logical_not",
     m_logical_not,
     {"Tensor.logical_not", "logical_not()", "Elementwise not.", "m.logical_not()"}},
    {"chunk",
     m_chunk,
     {"Tensor.chunk", "chunk(chunks, dim=0)", "Split into nearly equal pieces.", "x.chunk(2)"}},
    {"split",
     m_split,
     {"Tensor.split", "split(split_size_or_sections, dim=0)",
      "Split into pieces of a size or of listed sizes.", "x.split(1)"}},
#include "lang_tensor_ops_methods.inc"
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_builtin_def lang_tensor_builtins[] = {
    {"tensor",
     f_tensor,
     {"tensor", "tensor(data, dtype=None, requires_grad=False)",
      "A new tensor from a number, nested lists or another tensor (copied, without history). The "
      "dtype is inferred as torch does: bools give bool, ints int64, any float float32.",
      "tensor([[1., 2.], [3., 4.]])"}},
    {"zeros",
     f_zeros,
     {"zeros", "zeros(*size, dtype=None, requires_grad=False)",
      "A tensor filled with 0. The size is given as ints or one tuple; dtype defaults to float32.",
      "zeros(2, 3)"}},
    {"ones",
     f_ones,
     {"ones", "ones(*size, dtype=None, requires_grad=False)", "A tensor filled with 1.",
      "ones(2, 3, dtype=int64)"}},
    {"empty",
     f_empty,
     {"empty", "empty(*size, dtype=None, requires_grad=False)",
      "A tensor of the given size. nndb fills it with zeros so results are reproducible (torch "
      "leaves it uninitialised).",
      "empty(4)"}},
    {"full",
     f_full,
     {"full", "full(size, fill_value, dtype=None, requires_grad=False)",
      "A tensor of [size] filled with [fill_value]; the dtype follows the value (int -> int64, "
      "float -> float32, bool -> bool).",
      "full((2, 2), 0.5)"}},
    {"arange",
     f_arange,
     {"arange", "arange(start=0, end, step=1, dtype=None, requires_grad=False)",
      "Values from start (inclusive) to end (exclusive) in steps. int64 when every bound is an "
      "int, else float32.",
      "arange(0, 1, 0.25)"}},
    {"linspace",
     f_linspace,
     {"linspace", "linspace(start, end, steps, dtype=None, requires_grad=False)",
      "[steps] evenly spaced values from start to end, both included.", "linspace(0, 1, 5)"}},
    {"eye",
     f_eye,
     {"eye", "eye(n, m=None, dtype=None, requires_grad=False)",
      "An n x m matrix with ones on the diagonal.", "eye(3)"}},
    {"rand",
     f_rand,
     {"rand", "rand(*size, dtype=None, requires_grad=False)",
      "Uniform random values in [0, 1) from the session's generator (manual_seed makes them "
      "reproducible).",
      "rand(2, 3)"}},
    {"randn",
     f_randn,
     {"randn", "randn(*size, dtype=None, requires_grad=False)",
      "Standard normal random values from the session's generator.", "randn(64, 2)"}},
    {"randint",
     f_randint,
     {"randint", "randint(low=0, high, size, dtype=int64, requires_grad=False)",
      "Random integers in [low, high). Called as randint(high, size) or randint(low, high, size); "
      "size is a tuple.",
      "randint(0, 3, (64,))"}},
    {"zeros_like",
     f_zeros_like,
     {"zeros_like", "zeros_like(input, dtype=None, requires_grad=False)",
      "Zeros with the shape (and by default the dtype) of input.", "zeros_like(x)"}},
    {"ones_like",
     f_ones_like,
     {"ones_like", "ones_like(input, dtype=None, requires_grad=False)",
      "Ones with the shape and dtype of input.", "ones_like(x)"}},
    {"empty_like",
     f_empty_like,
     {"empty_like", "empty_like(input, dtype=None, requires_grad=False)",
      "A tensor with the shape and dtype of input (zero-filled in nndb).", "empty_like(x)"}},
    {"rand_like",
     f_rand_like,
     {"rand_like", "rand_like(input, dtype=None, requires_grad=False)",
      "Uniform [0, 1) values with the shape of input.", "rand_like(x)"}},
    {"randn_like",
     f_randn_like,
     {"randn_like", "randn_like(input, dtype=None, requires_grad=False)",
      "Standard normal values with the shape of input.", "randn_like(x)"}},
    {"full_like",
     f_full_like,
     {"full_like", "full_like(input, fill_value, dtype=None, requires_grad=False)",
      "[fill_value] everywhere, with the shape and dtype of input.", "full_like(x, 7)"}},
    {"finfo",
     f_finfo,
     {"finfo", "finfo(type=float32)",
      "Limits of a float dtype: bits, max, min, eps, tiny (smallest normal), resolution.",
      "finfo(float16).max"}},
    {"iinfo",
     f_iinfo,
     {"iinfo", "iinfo(type)", "Limits of an integer dtype: bits, max, min.", "iinfo(int8).max"}},
    {"is_tensor",
     f_is_tensor,
     {"is_tensor", "is_tensor(obj)", "True when obj is a Tensor.", "is_tensor(x)"}},
    {"numel", f_numel, {"numel", "numel(input)", "The number of elements.", "numel(zeros(2, 3))"}},
    {"sum",
     f_sum,
     {"sum", "sum(input, dim=None, keepdim=False, dtype=None)",
      "Sum of all elements, or along dim (an int or a tuple of ints). With a list instead of a "
      "tensor it is Python's sum.",
      "sum(x, dim=1)"}},
    {"mean",
     f_mean,
     {"mean", "mean(input, dim=None, keepdim=False, dtype=None)",
      "Mean of all elements or along dim.", "mean(x, dim=0)"}},
    {"var",
     f_var,
     {"var", "var(input, dim=None, unbiased=True, keepdim=False, correction=None)",
      "Variance; unbiased (Bessel's correction) by default, as torch.", "var(x, dim=0)"}},
    {"std",
     f_std,
     {"std", "std(input, dim=None, unbiased=True, keepdim=False, correction=None)",
      "Standard deviation; unbiased by default.", "std(x)"}},
    {"logsumexp",
     f_logsumexp,
     {"logsumexp", "logsumexp(input, dim, keepdim=False)",
      "log(sum(exp(x))) along dim, computed stably.", "logsumexp(x, dim=1)"}},
    {"norm",
     f_norm,
     {"norm", "norm(input, p=2, dim=None, keepdim=False)",
      "The p-norm of all elements or along dim (p='fro' is 2; p=inf the max norm).", "norm(w)"}},
    {"max",
     f_max,
     {"max", "max(input, dim=None, keepdim=False) / max(input, other)",
      "The largest element (0-dim); with dim, a (values, indices) pair like "
      "torch.return_types.max; with a second tensor, the elementwise maximum. On non-tensors it is "
      "Python's max.",
      "values, idx = max(x, dim=1)"}},
    {"min",
     f_min,
     {"min", "min(input, dim=None, keepdim=False) / min(input, other)",
      "The smallest element; with dim, (values, indices); with a tensor, elementwise minimum. On "
      "non-tensors it is Python's min.",
      "min(x)"}},
    {"argmax",
     f_argmax,
     {"argmax", "argmax(input, dim=None, keepdim=False)",
      "Index of the largest element (of the flattened tensor when dim is None), int64.",
      "argmax(logits, dim=1)"}},
    {"argmin",
     f_argmin,
     {"argmin", "argmin(input, dim=None, keepdim=False)", "Index of the smallest element, int64.",
      "argmin(x)"}},
    {"any",
     f_any,
     {"any", "any(input, dim=None, keepdim=False)",
      "Whether any element is non-zero (bool tensor). On non-tensors it is Python's any.",
      "any(isnan(x))"}},
    {"all",
     f_all,
     {"all", "all(input, dim=None, keepdim=False)",
      "Whether every element is non-zero (bool tensor). On non-tensors it is Python's all.",
      "all(isfinite(x))"}},
    {"allclose",
     f_allclose,
     {"allclose", "allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)", "True when ",
      "input - other| <= atol + rtol * |other| everywhere (a Python bool).|allclose(a, b)"}},
    {"abs",
     f_abs,
     {"abs", "abs(input)", "Elementwise absolute value (Python's abs on numbers).", "abs(x)"}},
    {"exp", f_exp, {"exp", "exp(input)", "Elementwise e^x.", "exp(x)"}},
    {"log",
     f_log,
     {"log", "log(input)", "Elementwise natural log (nan below 0, -inf at 0).", "log(p)"}},
    {"log1p", f_log1p, {"log1p", "log1p(input)", "log(1 + x), accurate near 0.", "log1p(x)"}},
    {"sqrt", f_sqrt, {"sqrt", "sqrt(input)", "Elementwise square root.", "sqrt(x)"}},
    {"rsqrt", f_rsqrt, {"rsqrt", "rsqrt(input)", "Elementwise 1 / sqrt(x).", "rsqrt(x)"}},
    {"neg", f_neg, {"neg", "neg(input)", "Elementwise -x.", "neg(x)"}},
    {"sign", f_sign, {"sign", "sign(input)", "Elementwise -1, 0 or 1.", "sign(x)"}},
    {"square", f_square, {"square", "square(input)", "Elementwise x * x.", "square(x)"}},
    {"clamp",
     f_clamp,
     {"clamp", "clamp(input, min=None, max=None)",
      "Limit values to [min, max]; either bound may be None.", "clamp(x, min=0)"}},
    {"where",
     f_where,
     {"where", "where(condition, input, other)",
      "Elementwise: input where condition is True, else other (tensors or numbers, broadcast).",
      "where(x > 0, x, 0.0)"}},
    {"add",
     f_add,
     {"add", "add(input, other, alpha=1)", "input + alpha * other, broadcast.", "add(x, y)"}},
    {"sub", f_sub, {"sub", "sub(input, other)", "input - other, broadcast.", "sub(x, 1)"}},
    {"mul", f_mul, {"mul", "mul(input, other)", "input * other, broadcast.", "mul(x, 2)"}},
    {"div",
     f_div,
     {"div", "div(input, other)", "input / other (true division), broadcast.", "div(x, 2)"}},
    {"pow",
     f_pow_any,
     {"pow", "pow(input, exponent)",
      "input ** exponent, broadcast; on two numbers it is Python's pow (pow(2, 10) == 1024).",
      "pow(x, 2)"}},
    {"floor_divide",
     f_floor_divide,
     {"floor_divide", "floor_divide(input, other)",
      "Elementwise floor(input / other), as the // operator (no gradient).", "floor_divide(x, 2)"}},
    {"remainder",
     f_remainder,
     {"remainder", "remainder(input, other)",
      "Elementwise remainder with the sign of other, as the % operator (no gradient).",
      "remainder(x, 3)"}},
    {"maximum",
     f_maximum,
     {"maximum", "maximum(input, other)", "Elementwise maximum of two tensors.",
      "maximum(x, zeros_like(x))"}},
    {"minimum",
     f_minimum,
     {"minimum", "minimum(input, other)", "Elementwise minimum of two tensors.", "minimum(x, y)"}},
    {"matmul",
     f_matmul,
     {"matmul", "matmul(input, other)",
      "Matrix product with torch's rules for 1-D to N-D operands and broadcast batch dims (the @ "
      "operator).",
      "matmul(x, w.T)"}},
    {"eq", f_eq, {"eq", "eq(input, other)", "Elementwise ==, a bool tensor.", "eq(pred, y)"}},
    {"ne", f_ne, {"ne", "ne(input, other)", "Elementwise !=.", "ne(x, 0)"}},
    {"lt", f_lt, {"lt", "lt(input, other)", "Elementwise <.", "lt(x, 0)"}},
    {"le", f_le, {"le", "le(input, other)", "Elementwise <=.", "le(x, 0)"}},
    {"gt", f_gt, {"gt", "gt(input, other)", "Elementwise >.", "gt(x, 0)"}},
    {"ge", f_ge, {"ge", "ge(input, other)", "Elementwise >=.", "ge(x, 0)"}},
    {"logical_and",
     f_logical_and,
     {"logical_and", "logical_and(input, other)", "Elementwise and of truth values.",
      "logical_and(a > 0, b > 0)"}},
    {"logical_or",
     f_logical_or,
     {"logical_or", "logical_or(input, other)", "Elementwise or of truth values.",
      "logical_or(isnan(x), isinf(x))"}},
    {"logical_not",
     f_logical_not,
     {"logical_not", "logical_not(input)", "Elementwise not.", "logical_not(mask)"}},
    {"isnan",
     f_isnan,
     {"isnan", "isnan(input)", "Elementwise: is the value NaN.", "isnan(x).any()"}},
    {"isinf",
     f_isinf,
     {"isinf", "isinf(input)", "Elementwise: is the value +-inf.", "isinf(x).sum()"}},
    {"isfinite",
     f_isfinite,
     {"isfinite", "isfinite(input)", "Elementwise: neither NaN nor inf.", "isfinite(x).all()"}},
    {"reshape",
     f_reshape,
     {"reshape", "reshape(input, shape)",
      "The same elements in a new shape (one dim may be -1); a view when possible, else a copy.",
      "reshape(x, (2, -1))"}},
    {"flatten",
     f_flatten,
     {"flatten", "flatten(input, start_dim=0, end_dim=-1)",
      "Merge dims start_dim..end_dim into one.", "flatten(x, 1)"}},
    {"permute",
     f_permute,
     {"permute", "permute(input, dims)", "Reorder the dims (a view).", "permute(x, (1, 0))"}},
    {"transpose",
     f_transpose,
     {"transpose", "transpose(input, dim0, dim1)", "Swap two dims (a view).",
      "transpose(x, 0, 1)"}},
    {"t",
     f_t,
     {"t", "t(input)", "Transpose of a 2-D tensor (0-D and 1-D come back unchanged).", "t(w)"}},
    {"squeeze",
     f_squeeze,
     {"squeeze", "squeeze(input, dim=None)", "Remove dims of size 1 (all of them, or only dim).",
      "squeeze(x, 0)"}},
    {"unsqueeze",
     f_unsqueeze,
     {"unsqueeze", "unsqueeze(input, dim)", "Insert a dim of size 1 at dim.", "unsqueeze(x, 0)"}},
    {"cat",
     f_cat,
     {"cat", "cat(tensors, dim=0)", "Join tensors along an existing dim.", "cat([a, b], dim=0)"}},
    {"stack",
     f_stack,
     {"stack", "stack(tensors, dim=0)", "Join same-shaped tensors along a new dim.",
      "stack([a, b])"}},
    {"chunk",
     f_chunk,
     {"chunk", "chunk(input, chunks, dim=0)",
      "Split into [chunks] nearly equal pieces (a tuple of views).",
      "q, k, v = chunk(qkv, 3, dim=-1)"}},
    {"split",
     f_split,
     {"split", "split(tensor, split_size_or_sections, dim=0)",
      "Split into pieces of a size, or of the sizes in a list (a tuple of views).",
      "split(x, [1, 2], dim=1)"}},
    {"masked_fill",
     f_masked_fill,
     {"masked_fill", "masked_fill(input, mask, value)",
      "A copy of input with value where the bool mask is True (differentiable in input).",
      "masked_fill(scores, mask, float('-inf'))"}},
    {"clone",
     f_clone,
     {"clone", "clone(input)", "A copy with its own storage (differentiable).", "clone(x)"}},
    {"detach",
     f_detach,
     {"detach", "detach(input)", "The same data without autograd history.", "detach(x)"}},
    {"contiguous",
     f_contiguous,
     {"contiguous", "contiguous(input)", "A row-major copy when input is not already contiguous.",
      "contiguous(x.T)"}},
    {"relu", f_relu, {"relu", "relu(input)", "max(x, 0) elementwise.", "relu(x)"}},
    {"leaky_relu",
     f_leaky_relu,
     {"leaky_relu", "leaky_relu(input, negative_slope=0.01)",
      "x for x >= 0, negative_slope * x below.", "leaky_relu(x, 0.1)"}},
    {"gelu",
     f_gelu,
     {"gelu", "gelu(input, approximate='none')",
      "Gaussian error linear unit: exact (erf) or approximate='tanh'.",
      "gelu(x, approximate='tanh')"}},
    {"silu", f_silu, {"silu", "silu(input)", "x * sigmoid(x).", "silu(x)"}},
    {"softplus",
     f_softplus,
     {"softplus", "softplus(input, beta=1, threshold=20)",
      "log(1 + exp(beta x)) / beta, linear above threshold.", "softplus(x)"}},
    {"sigmoid", f_sigmoid, {"sigmoid", "sigmoid(input)", "1 / (1 + exp(-x)).", "sigmoid(x)"}},
    {"tanh", f_tanh, {"tanh", "tanh(input)", "Hyperbolic tangent.", "tanh(x)"}},
    {"softmax",
     f_softmax,
     {"softmax", "softmax(input, dim, dtype=None)",
      "exp(x) / sum(exp(x)) along dim, computed stably.", "softmax(logits, dim=-1)"}},
    {"log_softmax",
     f_log_softmax,
     {"log_softmax", "log_softmax(input, dim, dtype=None)",
      "log(softmax(x)) along dim, computed stably.", "log_softmax(logits, dim=1)"}},
    {"cross_entropy",
     f_cross_entropy,
     {"cross_entropy",
      "cross_entropy(input, target, ignore_index=-100, reduction='mean', label_smoothing=0.0)",
      "Cross-entropy between logits [N, C] (or [N, C, d...]) and int64 class indices [N, d...]. "
      "Rows whose target is ignore_index count neither in the loss nor in the mean.",
      "loss = cross_entropy(model(x), y)"}},
    {"nll_loss",
     f_nll_loss,
     {"nll_loss", "nll_loss(input, target, ignore_index=-100, reduction='mean')",
      "Negative log-likelihood of log-probabilities [N, C] at int64 targets.",
      "nll_loss(log_softmax(z, dim=1), y)"}},
    {"mse_loss",
     f_mse_loss,
     {"mse_loss", "mse_loss(input, target, reduction='mean')", "Mean squared error.",
      "mse_loss(pred, y)"}},
    {"binary_cross_entropy",
     f_bce,
     {"binary_cross_entropy", "binary_cross_entropy(input, target, reduction='mean')",
      "Binary cross-entropy of probabilities in [0, 1] against targets.",
      "binary_cross_entropy(sigmoid(z), y)"}},
    {"binary_cross_entropy_with_logits",
     f_bce_logits,
     {"binary_cross_entropy_with_logits",
      "binary_cross_entropy_with_logits(input, target, reduction='mean')",
      "Binary cross-entropy on logits, computed stably (prefer it to sigmoid + "
      "binary_cross_entropy).",
      "binary_cross_entropy_with_logits(z, y)"}},
    {"embedding",
     f_embedding,
     {"embedding", "embedding(input, weight)",
      "Rows of weight [V, D] at the int64 indices in input: [*input.shape, D].",
      "embedding(tokens, table)"}},
    {"layer_norm",
     f_layer_norm,
     {"layer_norm", "layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)",
      "Normalise over the last dims given by normalized_shape, then scale and shift.",
      "layer_norm(x, (64,))"}},
    {"dropout",
     f_dropout,
     {"dropout", "dropout(input, p=0.5, training=True)",
      "Zero each element with probability p and scale the rest by 1/(1-p) when training; identity "
      "otherwise.",
      "dropout(h, 0.1, training=True)"}},
    {"scaled_dot_product_attention",
     f_sdpa,
     {"scaled_dot_product_attention",
      "scaled_dot_product_attention(query, key, value, is_causal=False, scale=None)",
      "softmax(q k^T * scale + causal mask) v for [..., T, D] tensors; scale defaults to "
      "1/sqrt(D).",
      "scaled_dot_product_attention(q, k, v, is_causal=True)"}},
    {"linear",
     f_linear,
     {"linear", "linear(input, weight, bias=None)",
      "input @ weight.T + bias, with weight [out, in].", "linear(x, w, b)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help tensor_help = {
    "Tensor", "Tensor",
    "An n-dimensional array of float32, float64, int64 or bool with autograd, as torch.Tensor. "
    "Attributes: shape, dtype, ndim, grad, requires_grad, grad_fn, is_leaf, T, mT, data, device. "
    "Operators + - * / // % ** @ and comparisons broadcast and mix with numbers; indexing takes "
    "ints, slices, None, ..., index tensors or lists, and bool masks, and assignment into any of "
    "them writes in place.",
    "x = randn(3, 4); x[0, 1:3], x.shape, x.sum(dim=1)"};

const lang_type lang_tensor_type = {
    .name = "Tensor",
    .free = tensor_free,
    .repr = tensor_repr,
    .getattr = tensor_getattr,
    .setattr = tensor_setattr,
    .getitem = tensor_getitem,
    .setitem = tensor_setitem,
    .iter = seq_iter,
    .len = tensor_len,
    .truth = tensor_truth,
    .binop = tensor_binop,
    .fields = tensor_fieldnames,
    .display = tensor_display,
    .methods = tensor_methods,
    .help = &tensor_help,
};

/* ------------------------------------------------------------------ for lang_tensor_ops.c */

bool lang_tensor_arg(lang_vm *vm, lang_val v, const char *fname, const char *what,
                     nn_tensor **out) {
    return tensor_arg(vm, v, fname, what, out);
}

bool lang_tensor_operand(lang_vm *vm, lang_val v, const char *fname, const char *what,
                         nn_tensor **out) {
    return operand(vm, v, fname, what, out);
}

bool lang_tensor_wrap(lang_vm *vm, nn_tensor *r, const char *fn_name, lang_val *out) {
    return fn_name ? wrap_named(vm, r, fn_name, out) : wrap(vm, r, out);
}

bool lang_return_types_new(lang_vm *vm, const char *name, nn_tensor *values, nn_tensor *indices,
                           lang_val *out) {
    return rt_new(vm, name, values, indices, out);
}

bool lang_tensor_call_self(lang_vm *vm, lang_builtin_fn fn, lang_val self, const lang_args *a,
                           lang_val *out) {
    return with_self(vm, fn, self, a, out);
}
