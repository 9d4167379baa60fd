/* lang_ast: the syntax tree of the nndb language, as the parser builds it
 * and the evaluator walks it.
 *
 * Ownership: every node, name and string of one parse lives in the arena of
 * its lang_module and is freed at once by lang_module_release when the last
 * reference goes (the evaluator retains a module for as long as a function
 * defined in it may still run). Nothing in the tree is freed on its own.
 *
 * Shape. Two node types, lang_expr and lang_stmt, each a kind tag plus a
 * union, so the evaluator is one switch per node. Child lists are arena
 * arrays with a count (never NULL-terminated). Optional children are NULL.
 * Every node carries its span (start and end, 1-based line and column, the
 * column both in bytes and in Unicode characters) for carets in errors.
 *
 * Names. Each identifier is a lang_name interned per module: two names with
 * the same spelling in one module are the same pointer, and carry a
 * precomputed hash (lang_name_hash, FNV-1a over the bytes) so the
 * evaluator's global table (which outlives one parse) can probe without
 * rehashing. The parser also resolves scopes, as CPython's symtable does:
 *   - LANG_SCOPE_GLOBAL: a module-level name, or one declared `global`, or
 *     one never assigned in any enclosing function (builtins included). Look
 *     it up in the session's globals, then the builtins.
 *   - LANG_SCOPE_LOCAL: a slot in the frame of the innermost code unit (the
 *     module, a def or a lambda): frame->slots[slot].
 *   - LANG_SCOPE_FREE: a local of an enclosing def, [depth] code units out
 *     (1 = the directly enclosing def), slot [slot] there. Python binds
 *     these late, so an evaluator that keeps a reference to the enclosing
 *     frame (closures share it) gets Python's behaviour.
 * Comprehension variables do not leak (as in Python 3): each gets a fresh
 * slot in the innermost code unit, so even at module level a comprehension
 * runs in the module's slot frame (lang_module.scope) and never touches a
 * global of the same name. A def's parameters are its first slots, in
 * order.
 */
#ifndef LANG_AST_H
#define LANG_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* lang_value.h names struct lang_mime in a prototype before lang.h defines
 * it; declaring the tag first keeps that prototype well-formed. */
struct lang_mime;
#include "lang_value.h"

/* ---- positions ---- */
typedef struct lang_pos {
    int32_t line; /* 1-based (offset by the parse's first line) */
    int32_t col;  /* 1-based, in bytes */
    int32_t ccol; /* 1-based, in Unicode characters (code points) */
} lang_pos;

/* [start, end): end is just past the last character, on end.line. */
typedef struct lang_span {
    lang_pos start, end;
} lang_span;

/* ---- the arena ---- */
typedef struct lang_arena_chunk lang_arena_chunk;
typedef struct lang_arena {
    lang_arena_chunk *head;
    size_t used, cap; /* in the head chunk */
    size_t total;     /* bytes handed out, for statistics */
} lang_arena;

void lang_arena_init(lang_arena *a);
void lang_arena_free(lang_arena *a);
/* Zeroed, aligned for any type; NULL only when malloc fails. */
void *lang_arena_alloc(lang_arena *a, size_t size);
/* A NUL-terminated copy of [n] bytes of [s]. */
char *lang_arena_strdup(lang_arena *a, const char *s, size_t n);

/* ---- names ---- */
typedef struct lang_name {
    const char *str; /* NUL-terminated */
    uint32_t len;
    uint32_t hash; /* lang_name_hash(str, len) */
    /* The same text interned in the running session's nn_ctx, set by the
     * evaluator on first use, so attribute tables compare pointers. */
    const char *interned;
} lang_name;

uint32_t lang_name_hash(const char *s, size_t n);

typedef enum lang_scope_kind {
    LANG_SCOPE_GLOBAL,
    LANG_SCOPE_LOCAL,
    LANG_SCOPE_FREE,
} lang_scope_kind;

/* The slot layout of one code unit (module, def, lambda). */
typedef struct lang_scope {
    int nslots;
    int nparams;           /* the first nparams slots are the parameters */
    lang_name **slot_name; /* [nslots], for debuggers and %who */
    bool has_free_users;   /* a nested def/lambda reads one of these slots */
} lang_scope;

/* ---- operators ----
 * Binary and unary operators reuse lang_binop from lang_value.h, so the
 * evaluator dispatches them without a mapping. Comparisons have their own
 * list because `in` and `is` are not overloadable operators there. */
typedef enum lang_cmpop {
    LANG_CMP_EQ,
    LANG_CMP_NE,
    LANG_CMP_LT,
    LANG_CMP_LE,
    LANG_CMP_GT,
    LANG_CMP_GE,
    LANG_CMP_IN,
    LANG_CMP_NOT_IN,
    LANG_CMP_IS,
    LANG_CMP_IS_NOT,
} lang_cmpop;

const char *lang_binop_text(lang_binop op); /* "+", "@", "**", "-" (for NEG) ... */
const char *lang_cmpop_text(lang_cmpop op); /* "==", "not in", ... */

/* ---- expressions ---- */
typedef enum lang_expr_kind {
    LANG_EX_INT,        /* u.i */
    LANG_EX_FLOAT,      /* u.f */
    LANG_EX_STR,        /* u.str (adjacent literals already joined) */
    LANG_EX_FSTRING,    /* u.fstr */
    LANG_EX_NAME,       /* u.name */
    LANG_EX_NONE,       /* None */
    LANG_EX_TRUE,       /* True */
    LANG_EX_FALSE,      /* False */
    LANG_EX_ELLIPSIS,   /* ... */
    LANG_EX_LIST,       /* u.seq */
    LANG_EX_TUPLE,      /* u.seq (also `a, b` without brackets, and x[1, 2]'s index) */
    LANG_EX_DICT,       /* u.dict */
    LANG_EX_LISTCOMP,   /* u.comp: [elt for ...] */
    LANG_EX_GENEXP,     /* u.comp: (elt for ...) and f(elt for ...); may run as a list */
    LANG_EX_DICTCOMP,   /* u.comp: {key: elt for ...} */
    LANG_EX_SET,        /* u.seq: {a, b} */
    LANG_EX_SETCOMP,    /* u.comp: {elt for ...} */
    LANG_EX_SUBSCRIPT,  /* u.sub: value[index]; x[a, b] has a TUPLE index */
    LANG_EX_SLICE,      /* u.slice: only as a subscript index or a TUPLE item of one */
    LANG_EX_ATTR,       /* u.attr: value.name */
    LANG_EX_CALL,       /* u.call */
    LANG_EX_UNARY,      /* u.unary: op is LANG_OP_NEG, LANG_OP_POS or LANG_OP_INVERT */
    LANG_EX_NOT,        /* u.unary (op unused) */
    LANG_EX_BINARY,     /* u.bin */
    LANG_EX_COMPARE,    /* u.cmp: a < b <= c, each operand evaluated once */
    LANG_EX_AND,        /* u.bin (op unused), short-circuit, yields an operand */
    LANG_EX_OR,         /* u.bin (op unused) */
    LANG_EX_IFEXP,      /* u.ifexp: then if cond else orelse */
    LANG_EX_LAMBDA,     /* u.lambda */
    LANG_EX_STARRED,    /* u.unary.operand: `*x` as an assignment target item */
    LANG_EX_YIELD,      /* u.unary.operand: `yield x` (NULL: bare yield) */
    LANG_EX_YIELD_FROM, /* u.unary.operand: `yield from it` */
    LANG_EX_KIND_COUNT
} lang_expr_kind;

typedef struct lang_expr lang_expr;
typedef struct lang_stmt lang_stmt;

typedef struct lang_block {
    lang_stmt **items;
    int n;
} lang_block;

/* One piece of an f-string: literal text, or a replacement field
 * {expr!conv:spec}. [spec] is itself an f-string (specs may hold fields:
 * f"{x:{w}.{p}f}") or NULL. [conv] is 0, 'r', 's' or 'a'. [debug] is the
 * source text "expr=" of a self-documenting field f"{x=}" (printed before
 * the value, which then defaults to repr) or NULL. */
typedef struct lang_fpart {
    const char *text; /* literal text (decoded), when expr is NULL */
    size_t len;
    lang_expr *expr;
    lang_expr *spec; /* LANG_EX_FSTRING or NULL */
    char conv;
    const char *debug;
} lang_fpart;

/* One `for target in iter` or `if cond` clause of a comprehension, in
 * source order; the first is always a FOR. */
typedef struct lang_comp_clause {
    bool is_if;
    lang_expr *target; /* FOR: a target expression (NAME, TUPLE, ...) */
    lang_expr *iter;   /* FOR: the iterable; IF: the condition */
} lang_comp_clause;

typedef enum lang_arg_kind {
    LANG_ARG_POS,     /* f(x) */
    LANG_ARG_KW,      /* f(name=x) */
    LANG_ARG_STAR,    /* f(*xs) */
    LANG_ARG_STARSTAR /* f(**kw) */
} lang_arg_kind;

typedef struct lang_arg {
    lang_arg_kind kind;
    lang_name *name; /* LANG_ARG_KW */
    lang_expr *value;
    lang_span span; /* the whole argument, `name=value` included */
} lang_arg;

typedef enum lang_param_kind {
    LANG_PARAM_POS,    /* positional or keyword */
    LANG_PARAM_KWONLY, /* after * or *args */
    LANG_PARAM_VARARGS,
    LANG_PARAM_VARKW
} lang_param_kind;

typedef struct lang_param {
    lang_param_kind kind;
    lang_name *name;
    lang_expr *def;        /* default value, evaluated at def time, or NULL */
    lang_expr *annotation; /* parsed and ignored, or NULL */
    int slot;              /* == index in params */
    lang_span span;
} lang_param;

/* A def's or a lambda's callable part. */
typedef struct lang_func {
    lang_name *name; /* "<lambda>" for a lambda */
    lang_param *params;
    int nparams;
    int npos;           /* number of LANG_PARAM_POS */
    int vararg, varkw;  /* index in params or -1 */
    lang_block body;    /* def */
    lang_expr *expr;    /* lambda: the returned expression */
    lang_expr *returns; /* `-> T`, parsed and ignored, or NULL */
    lang_scope scope;
    /* A class body: its names are the class's attributes, and code nested
     * in it does not see them (Python's class scope). */
    bool is_class;
    int nnamed; /* class body: slots [0, nnamed) are its named locals */
    /* The body holds a yield: calling it makes a generator (lang_eval.c). */
    bool is_generator;
} lang_func;

struct lang_expr {
    lang_expr_kind kind;
    lang_span span;
    union {
        int64_t i;
        double f;
        struct {
            const char *s; /* decoded UTF-8, NUL-terminated, may hold NULs */
            size_t len;
        } str;
        struct {
            lang_fpart *parts;
            int n;
        } fstr;
        struct {
            lang_name *name;
            lang_scope_kind scope;
            int slot;  /* LOCAL, FREE */
            int depth; /* FREE */
        } name;
        struct {
            lang_expr **items;
            int n;
        } seq;
        struct {
            lang_expr **keys, **values;
            int n;
        } dict;
        struct {
            lang_expr *key; /* DICTCOMP */
            lang_expr *elt;
            lang_comp_clause *clauses;
            int n;
        } comp;
        struct {
            lang_expr *value, *index;
        } sub;
        struct {
            lang_expr *lower, *upper, *step; /* each may be NULL */
        } slice;
        struct {
            lang_expr *value;
            lang_name *name;
            lang_span name_span;
        } attr;
        struct {
            lang_expr *func;
            lang_arg *args;
            int nargs;
            int npos;    /* leading LANG_ARG_POS arguments */
            bool simple; /* only POS and KW arguments */
        } call;
        struct {
            lang_binop op;
            lang_expr *operand;
        } unary;
        struct {
            lang_binop op;
            lang_expr *left, *right;
            lang_span op_span;
        } bin;
        struct {
            lang_expr *first;
            lang_cmpop *ops;
            lang_expr **rest; /* [n] */
            int n;
        } cmp;
        struct {
            lang_expr *cond, *then, *orelse;
        } ifexp;
        lang_func *lambda;
    } u;
};

/* ---- statements ---- */
typedef enum lang_stmt_kind {
    LANG_ST_EXPR,      /* u.expr */
    LANG_ST_ASSIGN,    /* u.assign: t1 = t2 = value */
    LANG_ST_AUGASSIGN, /* u.aug: target op= value */
    LANG_ST_IF,        /* u.if_: elif is an IF alone in orelse, with is_elif */
    LANG_ST_FOR,       /* u.for_ */
    LANG_ST_WHILE,     /* u.while_ */
    LANG_ST_BREAK,
    LANG_ST_CONTINUE,
    LANG_ST_PASS,
    LANG_ST_DEF,    /* u.def */
    LANG_ST_RETURN, /* u.expr (NULL: return None) */
    LANG_ST_WITH,   /* u.with */
    LANG_ST_DEL,    /* u.del */
    LANG_ST_ASSERT, /* u.assert_ */
    LANG_ST_GLOBAL, /* u.global: resolved already; a no-op to run */
    LANG_ST_MAGIC,  /* u.magic */
    LANG_ST_IMPORT, /* u.import: import a.b as c / from a.b import x as y */
    LANG_ST_CLASS,  /* u.class_ */
    LANG_ST_TRY,    /* u.try_ */
    LANG_ST_RAISE,  /* u.raise: exc NULL re-raises the exception being handled */
    LANG_ST_KIND_COUNT
} lang_stmt_kind;

/* A target is a NAME, ATTR, SUBSCRIPT, or a TUPLE/LIST of targets (with at
 * most one STARRED item); the parser has checked this. */
/* One name an import binds. `import a.b` binds [target] `a` to the top
 * package ([top]); `import a.b as c` binds `c` to a.b; `from a.b import x
 * as y` binds `y` to attribute (or submodule) [attr] of a.b. */
typedef struct lang_import_item {
    const char *module; /* dotted, arena */
    lang_name *attr;    /* from-import: the name imported, else NULL */
    lang_expr *target;  /* the NAME bound */
    bool top;
    lang_span span; /* the item, for carets */
} lang_import_item;

/* One `except [type [as name]]:` clause. */
typedef struct lang_except {
    lang_expr *type;   /* NULL for a bare except */
    lang_expr *target; /* NAME or NULL */
    lang_block body;
    lang_span span;
} lang_except;

typedef struct lang_with_item {
    lang_expr *context;
    lang_expr *target; /* `as` target or NULL */
} lang_with_item;

struct lang_stmt {
    lang_stmt_kind kind;
    lang_span span; /* a compound statement's span is its header line */
    union {
        lang_expr *expr;
        struct {
            lang_expr **targets;
            int ntargets;
            lang_expr *value;
        } assign;
        struct {
            lang_expr *target;
            lang_binop op;
            lang_expr *value;
        } aug;
        struct {
            lang_expr *cond;
            lang_block body, orelse;
            bool is_elif;
        } if_;
        struct {
            lang_expr *target, *iter;
            lang_block body, orelse;
        } for_;
        struct {
            lang_expr *cond;
            lang_block body, orelse;
        } while_;
        struct {
            lang_func *func;
            lang_expr *target;      /* the NAME the function is bound to, resolved */
            lang_expr **decorators; /* applied last to first */
            int ndecorators;
        } def;
        struct {
            lang_func *body; /* the class body as a code unit; body->name is the class name */
            lang_expr *target;
            lang_expr **bases;
            int nbases;
            lang_expr **decorators;
            int ndecorators;
            lang_name **fields; /* annotated names in order (dataclass fields) */
            int nfields;
        } class_;
        struct {
            lang_block body;
            struct lang_except *handlers;
            int n;
            lang_block orelse, finalbody;
        } try_;
        struct {
            lang_expr *exc, *cause; /* both may be NULL */
        } raise;
        struct {
            lang_with_item *items;
            int n;
            lang_block body;
        } with;
        struct {
            lang_expr **targets;
            int n;
        } del;
        struct {
            lang_expr *test, *msg; /* msg may be NULL */
        } assert_;
        struct {
            lang_name **names;
            int n;
            bool nonlocal;
        } global;
        struct {
            lang_import_item *items;
            int n;
        } import;
        /* `%name args`: [args] is the rest of the line, stripped, raw (the
         * magic parses it itself: lang_parse with first_line/first_col at
         * args_pos, e.g. for %time). A line starting with `%%` is a cell
         * magic: [args] then runs to the end of the input. */
        struct {
            lang_name *name;
            const char *args;
            size_t args_len;
            lang_pos args_pos;
            bool cell;
        } magic;
    } u;
};

/* ---- a parsed input ---- */
typedef struct lang_syntax_error {
    lang_span span;
    char *message; /* in the module's arena */
    bool at_eof;   /* found at end of input: more input might fix it */
} lang_syntax_error;

typedef struct lang_module {
    int refcount;
    lang_arena arena;
    const char *filename; /* arena copy */
    const char *source;   /* arena copy, NUL-terminated */
    size_t source_len;
    int first_line;
    int first_col; /* 1-based byte column of source[0] on first_line */
    /* Byte offset of each source line's start; line L is index L-first_line. */
    size_t *line_start;
    int nlines;
    lang_block body;
    lang_scope scope; /* the module's slot frame (comprehension variables) */
    lang_syntax_error *errors;
    int nerrors;
} lang_module;

void lang_module_retain(lang_module *m);
void lang_module_release(lang_module *m); /* NULL is fine; frees at zero */

/* The text of source line [line] (without its newline) and its length, or
 * NULL when out of range. */
const char *lang_module_line(const lang_module *m, int line, size_t *len);

/* Render the source line of [span] and a caret under it ("    x = (1 +\n"
 * "        ^~~~\n"), the marker in display cells (wide CJK characters take
 * two). Spans over several lines mark to the end of the first. Used for
 * syntax and runtime errors alike. */
void lang_ast_caret(lang_buf *out, const lang_module *m, lang_span span);

/* Append "file:line:col: SyntaxError: message\n" and the caret lines. The
 * column is in characters, 1-based. */
void lang_syntax_error_format(lang_buf *out, const lang_module *m, const lang_syntax_error *e);

/* The tree as an S-expression, one statement per line, for tests and
 * `nndb --dump-ast`: (assign (name x) (binop + (int 1) (int 2))). */
void lang_ast_dump(lang_buf *out, const lang_module *m);
void lang_ast_dump_expr(lang_buf *out, const lang_expr *e);

#endif
