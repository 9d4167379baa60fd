/* lang_eval: the interpreter behind lang_vm.h — the VM state, the built-in
 * object layouts that the value files (lang_value.c, lang_str.c, ...), lang_core.c, lang_magic.c
 * and lang_session.c share, and the evaluator's entry points.
 *
 * Owned by the language-runtime engineer (values, evaluator, session, core,
 * magics). Other modules use lang_vm.h and lang_value.h; this header is for
 * the runtime's own files. Ownership follows lang_value.h: produced values
 * are new references, arguments are borrowed.
 *
 * Decisions recorded here (docs/language.md repeats them for users):
 * - int is int64. An int result that does not fit raises OverflowError
 *   (Python would grow the int); a float result that overflows is inf,
 *   except `**`, which raises OverflowError as Python's float pow does.
 * - exit()/quit() raise the pseudo-error SystemExit (class
 *   LANG_ERR_STOPPED, ename "SystemExit"): the statement stops, and the
 *   front end asks lang_session_exit_requested() whether to leave.
 */
#ifndef LANG_EVAL_H
#define LANG_EVAL_H

#include <stdatomic.h>

struct lang_mime; /* lang_value.h names it before lang.h defines it */
#include "lang.h"
#include "lang_ast.h"
#include "lang_display.h"
#include "lang_vm.h"

/* ---- object layouts of the core types ---- */
typedef struct lang_str_obj {
    lang_obj hdr;
    size_t len;   /* bytes */
    size_t ncp;   /* code points */
    int64_t hash; /* -1 until computed */
    char data[];  /* NUL-terminated UTF-8 */
} lang_str_obj;

/* list and tuple share a layout so lang_seq_items works on both. */
typedef struct lang_seq_obj {
    lang_obj hdr;
    int64_t n, cap;
    lang_val *items;
} lang_seq_obj;

typedef struct lang_dict_entry {
    int64_t hash;
    lang_val key, value;
    bool live;
} lang_dict_entry;

typedef struct lang_dict_obj {
    lang_obj hdr;
    int64_t n;                /* live entries */
    int64_t nent, cap;        /* entries used (live or dead) and allocated */
    lang_dict_entry *entries; /* insertion order */
    int64_t *index;           /* open addressing: entry index + 1, 0 empty, -1 dummy */
    int64_t index_cap;        /* power of two */
    uint64_t version;         /* bumped on insert/delete: iterators check it */
    /* collections.defaultdict: called for a missing key (None otherwise);
     * collections.Counter: a missing key counts 0. */
    lang_val default_factory;
    bool counter;
} lang_dict_obj;

typedef struct lang_range_obj {
    lang_obj hdr;
    int64_t start, stop, step, len;
} lang_range_obj;

typedef struct lang_slice_obj {
    lang_obj hdr;
    lang_val start, stop, step; /* None when absent */
} lang_slice_obj;

typedef struct lang_builtin_obj {
    lang_obj hdr;
    lang_builtin_fn fn;
    const lang_help *help;
} lang_builtin_obj;

typedef struct lang_bound_obj {
    lang_obj hdr;
    lang_val self;
    const lang_method *m;
} lang_bound_obj;

typedef struct lang_record_obj {
    lang_obj hdr;
    char *type_name;
    int n, cap;
    char **names;
    lang_val *vals;
    const char **fieldv; /* NULL-terminated copy of names for dir() */
} lang_record_obj;

/* A class object: what type(x) returns and what int, float, str, ... are,
 * so that isinstance(x, int) and type(x) == float work and print as
 * <class 'int'>. Calling one calls its constructor. */
typedef struct lang_typeobj {
    lang_obj hdr;
    const char *name;      /* "int", "torch.Tensor" */
    lang_kind kind;        /* LANG_INT, ... or LANG_OBJ for object types */
    const lang_type *t;    /* object types: the type, else NULL */
    lang_builtin_fn ctor;  /* may be NULL */
    const lang_help *help; /* may be NULL */
} lang_typeobj;

extern const lang_type lang_gen_type; /* generators (lang_eval.c) */
extern const lang_type lang_typeobj_type, lang_iter_type, lang_dictview_type, lang_no_grad_type,
    lang_grad_mode_type;
/* A function decorated with @torch.no_grad() (or enable_grad()): binds to
 * an instance as a function does. */
extern const lang_type lang_grad_wrap_type;

/* ---- the VM ---- */
typedef struct lang_frame_info { /* one traceback entry */
    char *file;
    char *func; /* "<module>" or the def's name */
    int line, col, end_col;
    char *source_line; /* the text of [line], or NULL */
} lang_frame_info;

typedef struct lang_global {
    char *name;    /* owned copy */
    uint32_t hash; /* lang_name_hash */
    lang_val value;
    bool set;
    lang_val builtin; /* what the name means when no global shadows it */
    bool has_builtin;
} lang_global;

/* A table of global names: the session's (in lang_vm) and each imported
 * user module's (lang_import.c), found by name through [index]. */
typedef struct lang_gtab {
    lang_global *globals;
    int64_t n_globals, cap_globals;
    int64_t *index; /* name -> global slot + 1 */
    int64_t index_cap;
    /* a user module's: the module object (it owns the table) and its name */
    lang_obj *owner;
    const char *modname;
} lang_gtab;

/* The slot of a name in [t] (created unset when [create] and new), or -1. */
int64_t lang_gtab_slot(lang_gtab *t, const char *name, size_t len, uint32_t hash, bool create);
/* The value a name is set to in [t] (borrowed), or NULL. */
lang_val *lang_gtab_get(lang_gtab *t, const char *name);
bool lang_gtab_set(lang_vm *vm, lang_gtab *t, const char *name, lang_val v);
/* Release every value (names stay); then free the table's memory. */
void lang_gtab_clear(lang_gtab *t);
void lang_gtab_free(lang_gtab *t);
/* Parse and run the source of a user module with [ns] as its globals;
 * syntax errors name [filename]. */
bool lang_eval_code_in(lang_vm *vm, const char *code, size_t len, const char *filename,
                       lang_gtab *ns);

struct lang_vm {
    lang_session *session;
    nn_ctx *ctx;
    lang_frontend fe;
    nn_print_opts print_opts; /* torch.set_printoptions, for this session */

    /* the pending error */
    lang_err err;
    const char *ename; /* overrides lang_err_name (OverflowError, ...) or NULL */
    lang_buf msg;
    lang_frame_info *tb; /* innermost first while unwinding */
    int n_tb, cap_tb;
    bool tb_syntax; /* tb holds formatted syntax errors, in source order */

    /* the session's global slots, found by name through [gindex] */
    union {
        lang_gtab gt;
        struct {
            lang_global *globals;
            int64_t n_globals, cap_globals;
            int64_t *gindex; /* name -> global slot + 1 */
            int64_t gindex_cap;
        };
    };
    /* lang_name pointer -> global slot, valid while no module was freed */
    struct {
        const void *key;
        int64_t slot;
    } gcache[512];
    uint64_t gcache_epoch;

    /* where we are */
    const char *file; /* interned in ctx */
    int line;
    struct lang_frame *frame; /* the innermost running frame */
    void *frame_list;         /* frames that closures hold (lang_eval.c) */
    int edepth;               /* expression nesting, against C stack overflow */
    const lang_expr *callee;  /* the function expression of the running call */
    char callee_buf[256];
    const lang_stmt *timed_loop; /* %time: the loop whose iterations are counted */
    int64_t timed_iters;
    size_t alloc_limit; /* largest list/str/dict a script may build (bytes) */
    int depth, max_depth;
    atomic_int interrupt;
    int64_t steps, step_limit; /* step_limit 0: unlimited (fuzzing sets one) */
    bool sandbox;              /* fuzzing: no %load, %threads or input() */
    /* the debugger (lang_debug.c) and what it asks of the evaluator */
    struct lang_debugger *dbg;
    uint64_t stmt_seq;        /* statements started so far */
    uint64_t top_stmt;        /* stmt_seq of the running statement outside any def */
    const lang_expr *op_expr; /* the innermost running call or operator expression */
    lang_buf *tee;            /* when set, lang_vm_write copies output here (4 KiB) */
    bool exit_requested;
    int exit_code;

    struct lang_import_state *imports;  /* registered and loaded modules (lang_import.c) */
    struct lang_class_state *cls_state; /* builtin and live classes (lang_class.c) */
    struct lang_usermod_state *usermod; /* running user modules (lang_usermod.c) */
    lang_val exc;                       /* the pending error's exception instance, or None */
    struct saved_err *handling;         /* the error an except clause is handling, for bare raise */
    const char *label_module;           /* module path of the running user forward, or NULL */
    /* What a traceback adds after the pending error's message, as Python
     * 3.11 does (". Did you mean: 'zeros'?"); str(e) leaves it out. */
    char hint[96];
    struct lang_function_state *functions; /* autograd.Function records (lang_function.c) */
    lang_val warned;      /* warnings shown once: a dict of "file:line:category:text" */
    struct gen_obj *gen;  /* the generator whose body runs now, or NULL (lang_eval.c) */
    struct gen_obj *gens; /* started generators not yet finished */
    bool warnings_off;    /* warnings.filterwarnings("ignore") */
};

/* Raise with a class name that lang_err has no value for ("OverflowError",
 * "StopIteration", "UnboundLocalError", "SystemExit"). */
bool lang_raise_named(lang_vm *vm, lang_err cls, const char *ename, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void lang_vm_clear_error(lang_vm *vm);

/* The global slot for a name (created unset when new); -1 when out of
 * memory. [hash] is lang_name_hash of the name. */
int64_t lang_vm_global_slot(lang_vm *vm, const char *name, size_t len, uint32_t hash);
bool lang_vm_set_builtin(lang_vm *vm, const char *name, lang_val v);

void lang_vm_init(lang_vm *vm, lang_session *s, nn_ctx *ctx, const lang_frontend *fe);
void lang_vm_free(lang_vm *vm);
/* Drop every user global (%reset); builtins stay. */
void lang_vm_reset_globals(lang_vm *vm);

/* ---- values: internals the runtime shares ---- */
bool lang_hash(lang_vm *vm, lang_val v, int64_t *out);
/* Python's repr of a double: shortest round-trip ('0.1', '1e-05', 'inf'). */
void lang_float_repr(double d, lang_buf *out);
/* Apply a format spec (the part after ':' in an f-string) to [v]. */
bool lang_format_value(lang_vm *vm, lang_val v, const char *spec, size_t spec_len, lang_buf *out);
bool lang_str_from_cstr(lang_vm *vm, const char *s, lang_val *out);
bool lang_tuple_pack(lang_vm *vm, int n, const lang_val *items, lang_val *out); /* retains */
bool lang_range_new(lang_vm *vm, int64_t start, int64_t stop, int64_t step, lang_val *out);
bool lang_slice_new(lang_vm *vm, lang_val start, lang_val stop, lang_val step, lang_val *out);
bool lang_builtin_new(lang_vm *vm, lang_builtin_fn fn, const lang_help *help, lang_val *out);
bool lang_bound_new(lang_vm *vm, lang_val self, const lang_method *m, lang_val *out);
/* Resolve slice bounds against a length, Python's rules (step != 0). */
bool lang_slice_indices(lang_vm *vm, lang_val slice, int64_t len, int64_t *start, int64_t *stop,
                        int64_t *step, int64_t *count);
/* A fresh iterator over [v], and its next item. */
bool lang_iter(lang_vm *vm, lang_val v, lang_val *out);
bool lang_next(lang_vm *vm, lang_val it, lang_val *out, bool *done);
/* zip / enumerate / reversed iterators (owned by core; built here). */
bool lang_zip_new(lang_vm *vm, int n, const lang_val *iters, lang_val *out);
bool lang_enumerate_new(lang_vm *vm, lang_val iter, int64_t start, lang_val *out);
bool lang_reversed_new(lang_vm *vm, lang_val seq, lang_val *out);
/* map(fn, *iterables) and filter(fn or None, iterable), lazy as Python's. */
bool lang_map_new(lang_vm *vm, lang_val fn, int n, const lang_val *iterables, lang_val *out);
bool lang_filter_new(lang_vm *vm, lang_val fn, lang_val iterable, lang_val *out);
/* Materialise any iterable as a new list. */
bool lang_list_from_iter(lang_vm *vm, lang_val iterable, lang_val *out);
bool lang_dict_del(lang_vm *vm, lang_val dict, lang_val key, bool *found);
/* Order comparison (<) with Python's rules for numbers, str, list, tuple. */
bool lang_less(lang_vm *vm, lang_val a, lang_val b, bool *out);
/* Binary and unary operators for every type (numbers inline, then the
 * types' binop); the evaluator and sum() share this. For unary ops [b] is
 * ignored. */
bool lang_binary(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out);
bool lang_getitem(lang_vm *vm, lang_val o, lang_val key, lang_val *out);
bool lang_setitem(lang_vm *vm, lang_val o, lang_val key, lang_val v);
bool lang_delitem(lang_vm *vm, lang_val o, lang_val key);
bool lang_setattr(lang_vm *vm, lang_val o, const char *name, lang_val v);
/* Whether [item] is in [container] (the `in` operator). */
bool lang_contains(lang_vm *vm, lang_val container, lang_val item, bool *out);
/* The help entry of a value (builtin, method, user function, type). */
const lang_help *lang_val_help(lang_vm *vm, lang_val v);
/* Attribute names of a value (methods and fields), malloc'ed vector of
 * borrowed strings, NULL-terminated. */
const char **lang_dir(lang_vm *vm, lang_val v);
/* A one-line summary of a value for %who and inspect: "Tensor [64, 2]
 * float32", "list of 3", "int 5". Malloc'ed. */
char *lang_val_summary(lang_vm *vm, lang_val v);

bool lang_typeobj_new(lang_vm *vm, const char *name, lang_kind kind, const lang_type *t,
                      lang_builtin_fn ctor, const lang_help *help, lang_val *out);
/* Whether [v] is an instance of the class object [cls]. */
bool lang_isinstance(lang_val v, const lang_typeobj *cls);
/* A type's method by name, or NULL. */
const lang_method *lang_find_method(const lang_type *t, const char *name);
/* Sort a list in place (list.sort and sorted()). */
bool lang_sort_list(lang_vm *vm, lang_val list, lang_val key, bool reverse);
/* dict.update(a): a dict, pairs, and keyword arguments. */
bool lang_dict_update(lang_vm *vm, lang_val self, const lang_args *a);
/* Render a help entry as help() prints it. */
void lang_help_format(const lang_help *h, lang_buf *out);
/* Install what the core family needs besides its function table: the
 * class objects int, float, str, ... and the no_grad type (lang_core.c). */
bool lang_core_install(lang_vm *vm);

/* ---- the evaluator ---- */
/* Compile and run [code]; on success and [want_value] the trailing
 * expression's value goes into *value (None when there is none). Syntax
 * errors are raised as one SyntaxError with a traceback entry per error. */
bool lang_eval_code(lang_vm *vm, const char *code, const char *filename, bool want_value,
                    lang_val *value);
/* Run a parsed module (takes over the caller's reference to [m]). */
bool lang_eval_module(lang_vm *vm, lang_module *m, bool want_value, lang_val *value);
/* The text of line [line] of the running code (without its newline) and
 * its length, or NULL. */
const char *lang_vm_source_line(lang_vm *vm, int line, size_t *len);
/* The class that defines the running method and its first argument
 * (borrowed), for zero-argument super(); false outside a method. */
bool lang_vm_frame_method(lang_vm *vm, lang_obj **owner, lang_val *self);
/* A user function's signature text "f(a, b=1)" and def location. */
bool lang_func_info(lang_vm *vm, lang_val f, char *sig, size_t cap, const char **file, int *line);

/* Where the code runs, for the debugger: frame [level] (0 the innermost,
 * then its callers) with its file, function, line and module; at level 0
 * also the span of the running call or operator when there is one. False
 * past the outermost frame. */
typedef struct lang_where {
    const char *file, *func;
    int line;
    const lang_module *mod;
    lang_span span;
    bool has_span;
} lang_where;
bool lang_vm_where(lang_vm *vm, int level, lang_where *w);

/* The session behind a VM (lang_session.c). */
lang_vm *lang_session_vm(lang_session *s);
/* Session history (for %history), oldest first; borrowed. */
const char *const *lang_session_history(lang_session *s, int *n);
/* Extensions' magics (lang.h): run %NAME if one is registered (sets *ok),
 * and its help entry; lang_session.c. */
bool lang_session_ext_magic(lang_session *s, const char *name, const char *args, bool *ok);
const lang_help *lang_session_ext_help(lang_session *s, const char *name);
/* A magic's argument text parsed as statements, with the cell's positions
 * (%time, %profile, %step, ...); NULL with an error raised, "%NAME needs
 * [usage]" when it is empty. Takes a reference the caller releases or hands
 * to lang_eval_module. */
lang_module *lang_magic_parse_args(lang_vm *vm, const lang_stmt *s, const lang_module *m,
                                   const char *magic, const char *usage);
/* Run a magic line ("%time x = 1") — lang_magic.c. */
bool lang_magic_run(lang_vm *vm, const lang_stmt *s, const lang_module *m);
/* Names of the magics (NULL-terminated), for completion and errors. */
extern const char *const lang_magic_names[];
/* Help entries of the magics ("%time", ...), ending with a NULL name. */
extern const lang_help lang_magic_helps[];

#endif
