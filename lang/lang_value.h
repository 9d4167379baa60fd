/* lang_value: the values of the nndb language and the protocol every type
 * implements.
 *
 * A value (lang_val) is a small struct passed by value: None, bool, int
 * (int64) and float (double) live inside it; everything else is a
 * refcounted heap object (lang_obj) whose type (lang_type) is a table of
 * functions: repr, attributes, call, indexing, iteration, operators. A new
 * builtin type (a module wrapper, a dataset, a plot) is one lang_type and
 * its functions; the evaluator needs no change.
 *
 * Ownership: a lang_val that holds an object owns one reference. Functions
 * that produce a value write a new reference into *out; arguments are
 * borrowed. lang_val_retain / lang_val_release are no-ops on non-objects.
 * Errors: functions that can fail return false after lang_raise() filled
 * the VM's pending error; they never exit or abort on user input.
 */
#ifndef LANG_VALUE_H
#define LANG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn_buf.h"
#include "nn_tensor.h"

typedef enum lang_kind { LANG_NONE, LANG_BOOL, LANG_INT, LANG_FLOAT, LANG_OBJ } lang_kind;

typedef struct lang_obj lang_obj;
typedef struct lang_type lang_type;
typedef struct lang_vm lang_vm; /* the interpreter (lang_eval.h) */
struct lang_mime;               /* a MIME bundle (lang.h) */

typedef struct lang_val {
    lang_kind kind;
    union {
        bool b;
        int64_t i;
        double f;
        lang_obj *o;
    } u;
} lang_val;

struct lang_obj {
    int32_t refcount;
    const lang_type *type;
};

/* ---- errors ----
 * The classes a user sees. Engine statuses map onto them (nn_status ->
 * lang_err_from_status). */
typedef enum lang_err {
    LANG_ERR_NONE,
    LANG_ERR_SYNTAX,
    LANG_ERR_NAME,
    LANG_ERR_TYPE,
    LANG_ERR_VALUE,
    LANG_ERR_SHAPE,
    LANG_ERR_INDEX,
    LANG_ERR_KEY,
    LANG_ERR_ATTRIBUTE,
    LANG_ERR_ZERO_DIVISION,
    LANG_ERR_RUNTIME,
    LANG_ERR_MEMORY,
    LANG_ERR_IO,
    LANG_ERR_INTERRUPT, /* KeyboardInterrupt */
    LANG_ERR_STOPPED,   /* a debugger hook ended the statement */
    LANG_ERR_ASSERTION,
    LANG_ERR_RECURSION,
    LANG_ERR_IMPORT, /* ImportError (ModuleNotFoundError by ename) */
} lang_err;

const char *lang_err_name(lang_err e); /* "TypeError", ... */
lang_err lang_err_from_status(nn_status st);

/* Set the VM's pending error; always returns false so builtins can write
 * `return lang_raise(vm, LANG_ERR_TYPE, "...")`. */
bool lang_raise(lang_vm *vm, lang_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Raise the engine error in the VM's nn_ctx as a language error. */
bool lang_raise_engine(lang_vm *vm);

/* ---- a growable text buffer (repr, f-strings, display) ----
 * The engine's nn_buf under the language's names, so that the language and
 * the engine's formatters (nn_format.h) share one string builder. Macros,
 * not wrappers, keep lang_buf_printf's format checking. */
typedef nn_buf lang_buf;
#define lang_buf_init   nn_buf_init
#define lang_buf_free   nn_buf_free
#define lang_buf_add    nn_buf_add
#define lang_buf_puts   nn_buf_puts
#define lang_buf_printf nn_buf_printf
/* Hand over the text (malloc'ed, NUL-terminated); the buffer is empty after. */
#define lang_buf_take nn_buf_take

/* ---- calls ----
 * Positional arguments, then keyword arguments by name. */
typedef struct lang_args {
    int n;
    const lang_val *pos;
    int nkw;
    const char *const *kwnames;
    const lang_val *kw;
} lang_args;

typedef bool (*lang_builtin_fn)(lang_vm *vm, const lang_args *a, lang_val *out);
typedef bool (*lang_method_fn)(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out);

/* One help entry: the single source for help(name), %help, completion
 * details and Jupyter's inspect. */
typedef struct lang_help {
    const char *name;      /* "sum", "Tensor.sum", "Linear" */
    const char *signature; /* "sum(input, dim=None, keepdim=False)" */
    const char *doc;       /* a paragraph */
    const char *example;   /* a short example, runnable */
} lang_help;

typedef struct lang_method {
    const char *name;
    lang_method_fn fn;
    lang_help help;
} lang_method;

/* Binary and unary operators, as the evaluator dispatches them. */
typedef enum lang_binop {
    LANG_OP_ADD,
    LANG_OP_SUB,
    LANG_OP_MUL,
    LANG_OP_DIV,
    LANG_OP_FLOORDIV,
    LANG_OP_MOD,
    LANG_OP_POW,
    LANG_OP_MATMUL,
    LANG_OP_EQ,
    LANG_OP_NE,
    LANG_OP_LT,
    LANG_OP_LE,
    LANG_OP_GT,
    LANG_OP_GE,
    LANG_OP_AND_BITS,
    LANG_OP_OR_BITS,
    LANG_OP_NEG,
    LANG_OP_POS,
    LANG_OP_INVERT,
    LANG_OP_COUNT
} lang_binop;

/* ---- the type protocol ----
 * Any entry may be NULL: the evaluator then raises the TypeError Python
 * would ("'Linear' object is not subscriptable"). */
struct lang_type {
    const char *name;
    /* Release what the object holds; the runtime frees the object itself. */
    void (*free)(lang_obj *o);
    /* repr() text; str() uses str_ when set, else repr. */
    bool (*repr)(lang_vm *vm, lang_obj *o, lang_buf *out);
    bool (*str_)(lang_vm *vm, lang_obj *o, lang_buf *out);
    /* Attribute lookup for what is not in [methods] (fields, properties). Set
     * *found false (and return true) when there is no such attribute. */
    bool (*getattr)(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found);
    bool (*setattr)(lang_vm *vm, lang_obj *o, const char *name, lang_val v);
    bool (*call)(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out);
    bool (*getitem)(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out);
    bool (*setitem)(lang_vm *vm, lang_obj *o, lang_val key, lang_val v);
    /* iter: a new iterator object; next: the next item, *done at the end. */
    bool (*iter)(lang_vm *vm, lang_obj *o, lang_val *out);
    bool (*next)(lang_vm *vm, lang_obj *o, lang_val *out, bool *done);
    bool (*len)(lang_vm *vm, lang_obj *o, int64_t *out);
    bool (*truth)(lang_vm *vm, lang_obj *o, bool *out);
    /* Operators where this object is either operand ([self_left] tells which);
     * set *handled false to let the other operand try. */
    bool (*binop)(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out, bool *handled);
    /* Names of fields for dir() and completion (NULL-terminated), besides
     * [methods]. */
    const char *const *(*fields)(lang_obj *o);
    /* Rich display: fill MIME bundles (see lang.h); NULL means text only. */
    bool (*display)(lang_vm *vm, lang_obj *o, struct lang_mime *out);
    const lang_method *methods; /* NULL-terminated by name == NULL */
    const lang_help *help;      /* the type's own entry (constructor), or NULL */
};

/* ---- constructing and inspecting values ---- */
static inline lang_val lang_none(void) {
    lang_val v = {LANG_NONE, {.i = 0}};
    return v;
}
static inline lang_val lang_bool(bool b) {
    lang_val v = {LANG_BOOL, {.b = b}};
    return v;
}
static inline lang_val lang_int(int64_t i) {
    lang_val v = {LANG_INT, {.i = i}};
    return v;
}
static inline lang_val lang_float(double f) {
    lang_val v = {LANG_FLOAT, {.f = f}};
    return v;
}
/* Wrap an object; takes over the caller's reference. */
static inline lang_val lang_obj_val(lang_obj *o) {
    lang_val v = {LANG_OBJ, {.o = o}};
    return v;
}
static inline bool lang_is_obj(lang_val v, const lang_type *t) {
    return v.kind == LANG_OBJ && v.u.o->type == t;
}

/* The object's last reference went: free it (lang_value.c). */
void lang_obj_dead(lang_obj *o);
/* Inline: every loop of the evaluator retains and releases. */
static inline lang_val lang_val_retain(lang_val v) {
    if (v.kind == LANG_OBJ) v.u.o->refcount++;
    return v;
}
static inline void lang_val_release(lang_val v) {
    if (v.kind == LANG_OBJ && --v.u.o->refcount <= 0) lang_obj_dead(v.u.o);
}
/* Allocate an object of [size] bytes with refcount 1; NULL (with a
 * MemoryError raised) when out of memory. */
void *lang_obj_new(lang_vm *vm, const lang_type *t, size_t size);

/* Built-in types the core provides. */
extern const lang_type lang_str_type, lang_list_type, lang_tuple_type, lang_dict_type,
    lang_tensor_type, lang_func_type, lang_builtin_type, lang_bound_type, lang_range_type,
    lang_dtype_type, lang_slice_type, lang_record_type;

/* str */
bool lang_str_new(lang_vm *vm, const char *s, size_t n, lang_val *out);
const char *lang_str_cstr(lang_val v); /* NUL-terminated; v must be a str */
size_t lang_str_len(lang_val v);
/* list / tuple: items are owned by the container. */
bool lang_list_new(lang_vm *vm, int64_t n, lang_val *out); /* n None items */
bool lang_tuple_new(lang_vm *vm, int64_t n, lang_val *out);
bool lang_list_append(lang_vm *vm, lang_val list, lang_val item); /* retains item */
int64_t lang_seq_len(lang_val v);                                 /* list or tuple */
lang_val *lang_seq_items(lang_val v);                             /* borrowed */
/* dict with str/int/float/bool/None/tuple keys, insertion ordered. */
bool lang_dict_new(lang_vm *vm, lang_val *out);
bool lang_dict_set(lang_vm *vm, lang_val dict, lang_val key, lang_val value); /* retains */
bool lang_dict_get(lang_vm *vm, lang_val dict, lang_val key, lang_val *out, bool *found);
/* tensor: takes over the reference to [t]. */
bool lang_tensor_new(lang_vm *vm, nn_tensor *t, lang_val *out);
nn_tensor *lang_tensor_of(lang_val v); /* borrowed; NULL when v is not a tensor */
/* A record: a named bag of fields with attribute access (batches, probe
 * readings, drill results). Fields are set in order. */
bool lang_record_new(lang_vm *vm, const char *type_name, lang_val *out);
bool lang_record_set(lang_vm *vm, lang_val rec, const char *field, lang_val v); /* retains */

/* ---- protocol helpers the evaluator and builtins share ---- */
const char *lang_type_name(lang_val v); /* "int", "Tensor", "NoneType", ... */
bool lang_repr(lang_vm *vm, lang_val v, lang_buf *out);
bool lang_str(lang_vm *vm, lang_val v, lang_buf *out);
bool lang_truth(lang_vm *vm, lang_val v, bool *out);
bool lang_equal(lang_vm *vm, lang_val a, lang_val b, bool *out);
bool lang_getattr(lang_vm *vm, lang_val v, const char *name, lang_val *out);
bool lang_call(lang_vm *vm, lang_val f, const lang_args *a, lang_val *out);

/* ---- argument parsing for builtins ----
 * lang_parse_args(vm, a, "sum", "input|dim,keepdim", &input, &dim, &keepdim)
 * binds positional and keyword arguments to names: before '|' required,
 * after optional (left untouched when absent, so set defaults first).
 * Unknown keywords, too many arguments, or a missing one raise TypeError
 * naming the function and the argument. Outputs are borrowed lang_val. */
bool lang_parse_args(lang_vm *vm, const lang_args *a, const char *fname, const char *spec, ...);
/* Conversions that raise a TypeError naming [what] on a mismatch. */
bool lang_to_int(lang_vm *vm, lang_val v, const char *what, int64_t *out);
bool lang_to_float(lang_vm *vm, lang_val v, const char *what, double *out);
bool lang_to_bool(lang_vm *vm, lang_val v, const char *what, bool *out);
bool lang_to_tensor(lang_vm *vm, lang_val v, const char *what, nn_tensor **out); /* new ref;
                                                                   numbers become wrapped scalars,
                                                                   nested lists tensors */
/* An int or a tuple/list of ints (shapes, dims): up to [cap] into out. */
bool lang_to_dims(lang_vm *vm, lang_val v, const char *what, int64_t *out, int cap, int *n);

/* ---- builtin registration ----
 * Families (core, tensor, nn, optim, data, io, plot, probe, ...) each
 * expose a table of these; the session installs them in the globals. */
typedef struct lang_builtin_def {
    const char *name;
    lang_builtin_fn fn;
    lang_help help;
} lang_builtin_def;

#endif
