/* lang_argparse: the argparse module that training scripts start with.
 *
 * ArgumentParser(description=, prog=, epilog=, add_help=True) with
 * add_argument(*names, type=, default=, help=, action= 'store' |
 * 'store_true' | 'store_false' | 'store_const' | 'count' | 'append',
 * choices=, required=, nargs= None | '?' | '*' | '+' | N, const=, dest=,
 * metavar=), parse_args(args=None), parse_known_args(args=None),
 * print_help(), format_help(), print_usage(), error(msg) and set_defaults().
 * parse_args reads sys.argv[1:] (`nndb run train.py --lr 3e-4`). Values
 * and errors are Python's: `--lr=3e-4`, unique prefixes of long options,
 * `--` ending the options, a string default converted by type=, the
 * usage line (wrapped as Python wraps it at 78 columns) and "prog: error:
 * ..." on stderr with exit status 2, -h printing help and exiting 0. The
 * help text follows Python's layout (the usage, the description,
 * "positional arguments:", "options:") without rewrapping long help. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_eval.h"
#include "lang_import.h"
#include "lang_vm.h"

typedef enum act_kind {
    ACT_STORE,
    ACT_TRUE,
    ACT_FALSE,
    ACT_CONST,
    ACT_COUNT,
    ACT_APPEND,
    ACT_HELP
} act_kind;

enum { NARGS_ONE = -1, NARGS_OPT = -2, NARGS_STAR = -3, NARGS_PLUS = -4 };

typedef struct action {
    char *names[4]; /* option strings, or the positional's name in names[0] */
    int n_names;
    bool positional;
    char *dest, *metavar, *help;
    act_kind kind;
    int nargs;
    bool required;
    lang_val type, deflt, choices, konst;
} action;

typedef struct parser_obj {
    lang_obj hdr;
    char *prog, *description, *epilog;
    action *acts;
    int n, cap;
    lang_val extra_defaults; /* set_defaults(): a dict, or None */
} parser_obj;

/* The parsed values: attributes in the order they were first set; repr
 * sorted by name, as Python's Namespace. */
typedef struct ns_obj {
    lang_obj hdr;
    lang_val dict;
} ns_obj;

static const lang_type ns_type;

/* ------------------------------------------------------------------ Namespace */

static void ns_free(lang_obj *o) {
    lang_val_release(((ns_obj *)o)->dict);
}

static bool ns_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_dict_obj *d = (lang_dict_obj *)((ns_obj *)o)->dict.u.o;
    lang_buf_puts(out, "Namespace(");
    bool ok = true, first = true;
    for (int64_t i = 0; ok && i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        lang_buf_printf(out, "%s%s=", first ? "" : ", ", lang_str_cstr(d->entries[i].key));
        ok = lang_repr(vm, d->entries[i].value, out);
        first = false;
    }
    lang_buf_puts(out, ")");
    return ok;
}

static bool ns_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    ns_obj *ns = (ns_obj *)o;
    if (!strcmp(name, "__dict__")) {
        *found = true;
        *out = lang_val_retain(ns->dict);
        return true;
    }
    lang_val key;
    if (!lang_str_from_cstr(vm, name, &key)) return false;
    bool ok = lang_dict_get(vm, ns->dict, key, out, found);
    lang_val_release(key);
    return ok;
}

static bool ns_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    lang_val key;
    if (!lang_str_from_cstr(vm, name, &key)) return false;
    bool ok = lang_dict_set(vm, ((ns_obj *)o)->dict, key, v);
    lang_val_release(key);
    return ok;
}

static bool ns_eq(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                  bool *handled) {
    *handled = false;
    if ((op != LANG_OP_EQ && op != LANG_OP_NE) || !lang_is_obj(a, &ns_type) ||
        !lang_is_obj(b, &ns_type))
        return true;
    *handled = true;
    bool eq;
    if (!lang_equal(vm, ((ns_obj *)a.u.o)->dict, ((ns_obj *)b.u.o)->dict, &eq)) return false;
    *out = lang_bool(op == LANG_OP_EQ ? eq : !eq);
    return true;
}

static const lang_type ns_type = {
    .name = "Namespace",
    .free = ns_free,
    .repr = ns_repr,
    .getattr = ns_getattr,
    .setattr = ns_setattr,
    .binop = ns_eq,
};

static bool ns_new(lang_vm *vm, lang_val *out) {
    ns_obj *ns = lang_obj_new(vm, &ns_type, sizeof *ns);
    if (!ns) return false;
    if (!lang_dict_new(vm, &ns->dict)) {
        ns->dict = lang_none();
        lang_val v = lang_obj_val(&ns->hdr);
        lang_val_release(v);
        return false;
    }
    *out = lang_obj_val(&ns->hdr);
    return true;
}

static bool ns_set(lang_vm *vm, lang_val ns, const char *k, lang_val v) {
    return ns_setattr(vm, ns.u.o, k, v);
}

static bool ns_get(lang_vm *vm, lang_val ns, const char *k, lang_val *out, bool *found) {
    return ns_getattr(vm, ns.u.o, k, out, found);
}

static bool f_namespace(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n) return lang_raise(vm, LANG_ERR_TYPE, "Namespace() takes keyword arguments only");
    if (!ns_new(vm, out)) return false;
    for (int i = 0; i < a->nkw; i++)
        if (!ns_set(vm, *out, a->kwnames[i], a->kw[i])) {
            lang_val_release(*out);
            return false;
        }
    return true;
}

/* ------------------------------------------------------------------ the parser */

static void action_free(action *ac) {
    for (int i = 0; i < ac->n_names; i++) free(ac->names[i]);
    free(ac->dest);
    free(ac->metavar);
    free(ac->help);
    lang_val_release(ac->type);
    lang_val_release(ac->deflt);
    lang_val_release(ac->choices);
    lang_val_release(ac->konst);
}

static void parser_free(lang_obj *o) {
    parser_obj *p = (parser_obj *)o;
    for (int i = 0; i < p->n; i++) action_free(&p->acts[i]);
    free(p->acts);
    free(p->prog);
    free(p->description);
    free(p->epilog);
    lang_val_release(p->extra_defaults);
}

static bool parser_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    (void)vm;
    lang_buf_printf(out, "ArgumentParser(prog='%s')", ((parser_obj *)o)->prog);
    return true;
}

static char *dup_or_null(const char *s) {
    return s ? strdup(s) : NULL;
}

/* The metavar of an option: its dest in upper case. */
static void metavar_of(lang_vm *vm, const action *ac, char *buf, size_t n) {
    if (ac->metavar) {
        snprintf(buf, n, "%s", ac->metavar);
        return;
    }
    lang_val list;
    if (ac->choices.kind != LANG_NONE && lang_list_from_iter(vm, ac->choices, &list)) {
        lang_buf b; /* {sgd,adamw}, as Python */
        lang_buf_init(&b);
        lang_buf_puts(&b, "{");
        for (int64_t i = 0; i < lang_seq_len(list); i++) {
            if (i) lang_buf_puts(&b, ",");
            lang_str(vm, lang_seq_items(list)[i], &b);
        }
        lang_buf_puts(&b, "}");
        snprintf(buf, n, "%s", b.data);
        lang_buf_free(&b);
        lang_val_release(list);
        return;
    }
    lang_vm_clear_error(vm);
    snprintf(buf, n, "%s", ac->dest);
    if (!ac->positional)
        for (char *c = buf; *c; c++)
            if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 32);
}

static bool takes_value(const action *ac) {
    return ac->kind == ACT_STORE || ac->kind == ACT_APPEND;
}

static void args_text(lang_vm *vm, const action *ac, lang_buf *b) {
    char mv[256];
    metavar_of(vm, ac, mv, sizeof mv);
    switch (ac->nargs) {
    case NARGS_ONE: lang_buf_puts(b, mv); break;
    case NARGS_OPT: lang_buf_printf(b, "[%s]", mv); break;
    case NARGS_STAR: lang_buf_printf(b, "[%s ...]", mv); break;
    case NARGS_PLUS: lang_buf_printf(b, "%s [%s ...]", mv, mv); break;
    default:
        for (int i = 0; i < ac->nargs; i++) lang_buf_printf(b, "%s%s", i ? " " : "", mv);
    }
}

/* Python's usage line: "usage: prog [-h] [--lr LR] data", wrapped at 78
 * columns with the continuation indented under the first option, and the
 * positionals on lines of their own when it wraps (HelpFormatter). */
static void usage_lines(lang_buf *b, char **parts, int n, size_t indent, bool first, size_t width) {
    size_t line_len = first ? strlen("usage: ") - 1 : indent - 1;
    bool empty = true;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(parts[i]);
        if (line_len + 1 + len > width && !empty) {
            lang_buf_printf(b, "\n%*s", (int)indent, "");
            line_len = indent - 1;
            empty = true;
        }
        lang_buf_printf(b, "%s%s", empty ? "" : " ", parts[i]);
        line_len += len + 1;
        empty = false;
    }
}

static void format_usage(lang_vm *vm, const parser_obj *p, lang_buf *b) {
    char **opt = calloc((size_t)p->n + 2, sizeof *opt),
         **pos = calloc((size_t)p->n + 1, sizeof *pos);
    int no = 0, np = 0;
    size_t total = strlen("usage: ") + strlen(p->prog);
    if (opt && pos) {
        opt[no++] = strdup(p->prog);
        for (int i = 0; i < p->n; i++) {
            const action *ac = &p->acts[i];
            lang_buf t;
            lang_buf_init(&t);
            if (ac->positional) {
                args_text(vm, ac, &t);
            } else {
                if (!ac->required) lang_buf_puts(&t, "[");
                lang_buf_puts(&t, ac->names[0]);
                if (takes_value(ac)) {
                    lang_buf_puts(&t, " ");
                    args_text(vm, ac, &t);
                }
                if (!ac->required) lang_buf_puts(&t, "]");
            }
            total += t.len + 1;
            if (ac->positional)
                pos[np++] = strdup(t.data ? t.data : "");
            else
                opt[no++] = strdup(t.data ? t.data : "");
            lang_buf_free(&t);
        }
    }
    const size_t width = 78;
    lang_buf_puts(b, "usage: ");
    if (!opt || !pos) {
        lang_buf_puts(b, p->prog);
    } else if (total <= width) {
        for (int i = 0; i < no; i++) lang_buf_printf(b, "%s%s", i ? " " : "", opt[i]);
        for (int i = 0; i < np; i++) lang_buf_printf(b, " %s", pos[i]);
    } else {
        size_t indent = strlen("usage: ") + strlen(p->prog) + 1;
        if (no > 1) {
            usage_lines(b, opt, no, indent, true, width);
            if (np) {
                lang_buf_printf(b, "\n%*s", (int)indent, "");
                usage_lines(b, pos, np, indent, false, width);
            }
        } else {
            pos[np] = NULL;
            lang_buf_puts(b, p->prog);
            for (int i = 0; i < np; i++) lang_buf_printf(b, " %s", pos[i]);
        }
    }
    lang_buf_puts(b, "\n");
    for (int i = 0; opt && i < no; i++) free(opt[i]);
    for (int i = 0; pos && i < np; i++) free(pos[i]);
    free(opt);
    free(pos);
}

static void invocation(lang_vm *vm, const action *ac, lang_buf *b) {
    if (ac->positional) {
        char mv[256];
        metavar_of(vm, ac, mv, sizeof mv);
        lang_buf_puts(b, mv);
        return;
    }
    for (int i = 0; i < ac->n_names; i++) {
        lang_buf_printf(b, "%s%s", i ? ", " : "", ac->names[i]);
        if (takes_value(ac)) {
            lang_buf_puts(b, " ");
            args_text(vm, ac, b);
        }
    }
}

static void format_help(lang_vm *vm, const parser_obj *p, lang_buf *b) {
    format_usage(vm, p, b);
    if (p->description) lang_buf_printf(b, "\n%s\n", p->description);
    size_t col = 0;
    for (int i = 0; i < p->n; i++) {
        lang_buf t;
        lang_buf_init(&t);
        invocation(vm, &p->acts[i], &t);
        if (t.len + 4 > col) col = t.len + 4;
        lang_buf_free(&t);
    }
    if (col > 24) col = 24;
    for (int pass = 0; pass < 2; pass++) {
        bool any = false;
        for (int i = 0; i < p->n; i++) any |= p->acts[i].positional == (pass == 0);
        if (!any) continue;
        lang_buf_puts(b, pass == 0 ? "\npositional arguments:\n" : "\noptions:\n");
        for (int i = 0; i < p->n; i++) {
            const action *ac = &p->acts[i];
            if (ac->positional != (pass == 0)) continue;
            lang_buf t;
            lang_buf_init(&t);
            invocation(vm, ac, &t);
            lang_buf_printf(b, "  %s", t.data ? t.data : "");
            if (ac->help) {
                if (t.len + 2 + 2 > col)
                    lang_buf_printf(b, "\n%*s%s", (int)col, "", ac->help);
                else
                    lang_buf_printf(b, "%*s%s", (int)(col - 2 - t.len), "", ac->help);
            }
            lang_buf_puts(b, "\n");
            lang_buf_free(&t);
        }
    }
    if (p->epilog) lang_buf_printf(b, "\n%s\n", p->epilog);
}

/* print the usage and "prog: error: msg" on stderr, then exit(2) */
static bool parse_error(lang_vm *vm, parser_obj *p, const char *fmt, ...) {
    lang_buf b;
    lang_buf_init(&b);
    format_usage(vm, p, &b);
    lang_buf_printf(&b, "%s: error: ", p->prog);
    va_list ap;
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    lang_buf_printf(&b, "%s\n", msg);
    lang_vm_write(vm, LANG_STDERR, b.data, b.len);
    lang_buf_free(&b);
    lang_val *ex = lang_vm_global(vm, "exit");
    if (!ex) return lang_raise_named(vm, LANG_ERR_STOPPED, "SystemExit", "2");
    lang_val code = lang_int(2), r;
    lang_args ea = {1, &code, 0, NULL, NULL};
    if (lang_call(vm, *ex, &ea, &r)) lang_val_release(r);
    return false;
}

static bool add_action(lang_vm *vm, parser_obj *p, action *ac) {
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 8;
        action *na = realloc(p->acts, sizeof *na * (size_t)cap);
        if (!na) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        p->acts = na;
        p->cap = cap;
    }
    p->acts[p->n++] = *ac;
    return true;
}

static action *find_option(lang_vm *vm, parser_obj *p, const char *name, bool *ambiguous) {
    *ambiguous = false;
    for (int i = 0; i < p->n; i++)
        for (int k = 0; !p->acts[i].positional && k < p->acts[i].n_names; k++)
            if (!strcmp(p->acts[i].names[k], name)) return &p->acts[i];
    /* a unique prefix of a long option */
    action *hit = NULL;
    if (strncmp(name, "--", 2) || strlen(name) < 3) return NULL;
    for (int i = 0; i < p->n; i++)
        for (int k = 0; !p->acts[i].positional && k < p->acts[i].n_names; k++)
            if (!strncmp(p->acts[i].names[k], name, strlen(name))) {
                if (hit && hit != &p->acts[i]) *ambiguous = true;
                hit = &p->acts[i];
            }
    (void)vm;
    return *ambiguous ? NULL : hit;
}

static bool looks_negative_number(const char *s) {
    if (s[0] != '-' || !s[1]) return false;
    char *end;
    strtod(s, &end);
    return *end == 0;
}

static bool is_option(const char *s) {
    return s[0] == '-' && s[1] && !looks_negative_number(s);
}

/* How an error names an argument: "--lr/--learning-rate", or "data". */
static const char *arg_name(const action *ac) {
    static char buf[512];
    if (ac->positional) return ac->dest;
    buf[0] = 0;
    for (int i = 0; i < ac->n_names; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "%s%s", i ? "/" : "", ac->names[i]);
    }
    return buf;
}

/* type(text), with Python's message when it fails; then the choices. */
static bool convert(lang_vm *vm, parser_obj *p, action *ac, const char *text, lang_val *out) {
    lang_val s;
    if (!lang_str_from_cstr(vm, text, &s)) return false;
    if (ac->type.kind == LANG_NONE) {
        *out = s;
    } else {
        lang_args a = {1, &s, 0, NULL, NULL};
        bool ok = lang_call(vm, ac->type, &a, out);
        lang_val_release(s);
        if (!ok) {
            lang_vm_clear_error(vm);
            lang_val nm;
            const char *tn = "type";
            if (lang_getattr(vm, ac->type, "__name__", &nm)) {
                static char buf[64];
                snprintf(buf, sizeof buf, "%s",
                         lang_is_obj(nm, &lang_str_type) ? lang_str_cstr(nm) : "type");
                tn = buf;
                lang_val_release(nm);
            } else {
                lang_vm_clear_error(vm);
            }
            return parse_error(vm, p, "argument %s: invalid %s value: '%s'", arg_name(ac), tn,
                               text);
        }
    }
    if (ac->choices.kind != LANG_NONE) {
        lang_val list;
        if (!lang_list_from_iter(vm, ac->choices, &list)) {
            lang_val_release(*out);
            return false;
        }
        bool in = false;
        for (int64_t i = 0; !in && i < lang_seq_len(list); i++) {
            bool eq;
            if (!lang_equal(vm, lang_seq_items(list)[i], *out, &eq)) {
                lang_val_release(list);
                lang_val_release(*out);
                return false;
            }
            in = eq;
        }
        if (!in) {
            lang_buf b;
            lang_buf_init(&b);
            for (int64_t i = 0; i < lang_seq_len(list); i++) {
                if (i) lang_buf_puts(&b, ", ");
                lang_repr(vm, lang_seq_items(list)[i], &b);
            }
            lang_val_release(list);
            lang_val_release(*out);
            bool r = parse_error(vm, p, "argument %s: invalid choice: '%s' (choose from %s)",
                                 arg_name(ac), text, b.data ? b.data : "");
            lang_buf_free(&b);
            return r;
        }
        lang_val_release(list);
    }
    return true;
}

/* Consume the values of [ac] from argv[*i...]; store them in ns. */
static bool take_values(lang_vm *vm, parser_obj *p, action *ac, lang_val ns, char **argv, int argc,
                        int *i, const char *inline_val, bool only_pos) {
    lang_val v = lang_none();
    bool ok = true;
    if (ac->kind == ACT_TRUE || ac->kind == ACT_FALSE || ac->kind == ACT_CONST ||
        ac->kind == ACT_COUNT) {
        if (inline_val)
            return parse_error(vm, p, "argument %s: ignored explicit argument '%s'", arg_name(ac),
                               inline_val);
        if (ac->kind == ACT_COUNT) {
            lang_val cur;
            bool found;
            if (!ns_get(vm, ns, ac->dest, &cur, &found)) return false;
            int64_t c = found && cur.kind == LANG_INT ? cur.u.i : 0;
            if (found) lang_val_release(cur);
            return ns_set(vm, ns, ac->dest, lang_int(c + 1));
        }
        v = ac->kind == ACT_TRUE    ? lang_bool(true)
            : ac->kind == ACT_FALSE ? lang_bool(false)
                                    : lang_val_retain(ac->konst);
        ok = ns_set(vm, ns, ac->dest, v);
        lang_val_release(v);
        return ok;
    }
    if (ac->nargs == NARGS_ONE || ac->nargs == NARGS_OPT) {
        const char *text = inline_val;
        if (!text && *i < argc && (only_pos || !is_option(argv[*i]))) text = argv[(*i)++];
        if (!text && ac->nargs == NARGS_OPT) {
            v = lang_val_retain(ac->konst);
        } else if (!text) {
            return parse_error(vm, p, "argument %s: expected one argument", arg_name(ac));
        } else if (!convert(vm, p, ac, text, &v)) {
            return false;
        }
    } else {
        if (!lang_list_new(vm, 0, &v)) return false;
        int want = ac->nargs > 0 ? ac->nargs : -1, got = 0;
        if (inline_val) {
            lang_val x;
            ok = convert(vm, p, ac, inline_val, &x) && lang_list_append(vm, v, x);
            if (ok) lang_val_release(x);
            got++;
        }
        while (ok && *i < argc && (only_pos || !is_option(argv[*i])) && (want < 0 || got < want)) {
            lang_val x;
            ok = convert(vm, p, ac, argv[(*i)++], &x);
            if (ok) {
                ok = lang_list_append(vm, v, x);
                lang_val_release(x);
            }
            got++;
        }
        if (ok && ((want > 0 && got < want) || (ac->nargs == NARGS_PLUS && got == 0))) {
            lang_val_release(v);
            if (want > 0)
                return parse_error(vm, p, "argument %s: expected %d arguments", arg_name(ac), want);
            return parse_error(vm, p, "argument %s: expected at least one argument", arg_name(ac));
        }
        if (!ok) {
            lang_val_release(v);
            return false;
        }
    }
    if (ac->kind == ACT_APPEND) {
        lang_val cur;
        bool found;
        if (!ns_get(vm, ns, ac->dest, &cur, &found)) {
            lang_val_release(v);
            return false;
        }
        lang_val list;
        if (found && lang_is_obj(cur, &lang_list_type))
            ok = lang_list_from_iter(vm, cur, &list); /* a copy, as Python's */
        else
            ok = lang_list_new(vm, 0, &list);
        if (found) lang_val_release(cur);
        if (ok) ok = lang_list_append(vm, list, v) && ns_set(vm, ns, ac->dest, list);
        if (ok) lang_val_release(list);
        lang_val_release(v);
        return ok;
    }
    ok = ns_set(vm, ns, ac->dest, v);
    lang_val_release(v);
    return ok;
}

static bool argv_of(lang_vm *vm, lang_val args, char ***argv, int *argc) {
    lang_val list;
    if (args.kind == LANG_NONE) {
        lang_val sys, full;
        if (!lang_import_module(vm, "sys", &sys)) return false;
        bool ok = lang_getattr(vm, sys, "argv", &full);
        lang_val_release(sys);
        if (!ok) return false;
        ok = lang_list_from_iter(vm, full, &list);
        lang_val_release(full);
        if (!ok) return false;
        /* drop argv[0] */
        int64_t n = lang_seq_len(list);
        *argv = calloc((size_t)(n > 0 ? n : 1), sizeof **argv);
        *argc = 0;
        for (int64_t k = 1; *argv && k < n; k++)
            if (lang_is_obj(lang_seq_items(list)[k], &lang_str_type))
                (*argv)[(*argc)++] = strdup(lang_str_cstr(lang_seq_items(list)[k]));
    } else {
        if (!lang_list_from_iter(vm, args, &list)) return false;
        int64_t n = lang_seq_len(list);
        *argv = calloc((size_t)(n > 0 ? n : 1), sizeof **argv);
        *argc = 0;
        for (int64_t k = 0; *argv && k < n; k++) {
            lang_val s = lang_seq_items(list)[k];
            if (!lang_is_obj(s, &lang_str_type)) {
                lang_val_release(list);
                for (int j = 0; j < *argc; j++) free((*argv)[j]);
                free(*argv);
                return lang_raise(vm, LANG_ERR_TYPE, "parse_args: arguments must be str, not %s",
                                  lang_type_name(s));
            }
            (*argv)[(*argc)++] = strdup(lang_str_cstr(s));
        }
    }
    lang_val_release(list);
    return *argv != NULL || lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
}

static bool parse(lang_vm *vm, parser_obj *p, lang_val args, bool known, lang_val *out) {
    char **argv;
    int argc;
    if (!argv_of(vm, args, &argv, &argc)) return false;
    lang_val ns, extras = lang_none();
    bool ok = ns_new(vm, &ns) && lang_list_new(vm, 0, &extras);
    /* defaults first (a str default goes through type=, as Python) */
    for (int k = 0; ok && k < p->n; k++) {
        action *ac = &p->acts[k];
        if (ac->kind == ACT_HELP) continue;
        lang_val d = ac->deflt;
        if (ac->kind == ACT_STORE && lang_is_obj(d, &lang_str_type) && ac->type.kind != LANG_NONE &&
            (ac->nargs == NARGS_ONE || ac->nargs == NARGS_OPT)) {
            lang_val conv;
            ok = convert(vm, p, ac, lang_str_cstr(d), &conv) && ns_set(vm, ns, ac->dest, conv);
            if (ok) lang_val_release(conv);
        } else {
            ok = ns_set(vm, ns, ac->dest, d);
        }
    }
    if (ok && p->extra_defaults.kind != LANG_NONE) {
        lang_dict_obj *d = (lang_dict_obj *)p->extra_defaults.u.o;
        for (int64_t k = 0; ok && k < d->nent; k++)
            if (d->entries[k].live)
                ok = ns_set(vm, ns, lang_str_cstr(d->entries[k].key), d->entries[k].value);
    }
    bool *seen = ok ? calloc((size_t)(p->n ? p->n : 1), sizeof *seen) : NULL;
    if (ok && !seen) ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    int next_pos = 0, i = 0;
    bool only_pos = false;
    while (ok && i < argc) {
        char *a = argv[i];
        if (!only_pos && !strcmp(a, "--")) {
            only_pos = true;
            i++;
            continue;
        }
        if (!only_pos && is_option(a)) {
            char name[256];
            const char *inline_val = NULL;
            snprintf(name, sizeof name, "%s", a);
            char *eq = strncmp(name, "--", 2) == 0 ? strchr(name, '=') : NULL;
            if (eq) {
                *eq = 0;
                inline_val = a + (eq - name) + 1;
            }
            bool amb;
            action *ac = find_option(vm, p, name, &amb);
            i++;
            if (amb) {
                ok = parse_error(vm, p, "ambiguous option: %s could match more than one option",
                                 name);
                break;
            }
            if (!ac) {
                if (known) {
                    lang_val s;
                    ok = lang_str_from_cstr(vm, a, &s) && lang_list_append(vm, extras, s);
                    if (ok) lang_val_release(s);
                    continue;
                }
                ok = parse_error(vm, p, "unrecognized arguments: %s", a);
                break;
            }
            if (ac->kind == ACT_HELP) {
                lang_buf b;
                lang_buf_init(&b);
                format_help(vm, p, &b);
                lang_vm_write(vm, LANG_STDOUT, b.data, b.len);
                lang_buf_free(&b);
                lang_val *ex = lang_vm_global(vm, "exit");
                lang_val code = lang_int(0), r;
                lang_args ea = {1, &code, 0, NULL, NULL};
                if (ex && lang_call(vm, *ex, &ea, &r)) lang_val_release(r);
                ok = false;
                break;
            }
            seen[ac - p->acts] = true;
            ok = take_values(vm, p, ac, ns, argv, argc, &i, inline_val, false);
            continue;
        }
        /* a positional */
        while (next_pos < p->n && !p->acts[next_pos].positional) next_pos++;
        if (next_pos >= p->n) {
            if (known) {
                lang_val s;
                ok = lang_str_from_cstr(vm, a, &s) && lang_list_append(vm, extras, s);
                if (ok) lang_val_release(s);
                i++;
                continue;
            }
            ok = parse_error(vm, p, "unrecognized arguments: %s", a);
            break;
        }
        action *ac = &p->acts[next_pos++];
        seen[ac - p->acts] = true;
        ok = take_values(vm, p, ac, ns, argv, argc, &i, NULL, only_pos);
    }
    if (ok) {
        lang_buf miss;
        lang_buf_init(&miss);
        for (int k = 0; k < p->n; k++) {
            action *ac = &p->acts[k];
            bool need =
                ac->positional ? ac->nargs != NARGS_OPT && ac->nargs != NARGS_STAR : ac->required;
            if (need && !seen[k])
                lang_buf_printf(&miss, "%s%s", miss.len ? ", " : "", arg_name(ac));
        }
        if (miss.len)
            ok = parse_error(vm, p, "the following arguments are required: %s", miss.data);
        lang_buf_free(&miss);
    }
    free(seen);
    for (int k = 0; k < argc; k++) free(argv[k]);
    free(argv);
    if (ok && known) {
        lang_val pair[2] = {ns, extras};
        ok = lang_tuple_pack(vm, 2, pair, out);
    } else if (ok) {
        *out = lang_val_retain(ns);
    }
    lang_val_release(ns);
    lang_val_release(extras);
    return ok;
}

/* ------------------------------------------------------------------ methods */

#define P(v) ((parser_obj *)(v).u.o)

static bool kw(const lang_args *a, const char *name, lang_val *out) {
    for (int i = 0; i < a->nkw; i++)
        if (!strcmp(a->kwnames[i], name)) {
            *out = a->kw[i];
            return true;
        }
    return false;
}

static bool m_add_argument(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    static const char *const known[] = {"type",    "default",  "help",  "action",
                                        "choices", "required", "nargs", "const",
                                        "dest",    "metavar",  NULL};
    for (int i = 0; i < a->nkw; i++) {
        bool ok = false;
        for (const char *const *k = known; *k; k++) ok |= !strcmp(*k, a->kwnames[i]);
        if (!ok)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "add_argument() got an unexpected keyword argument '%s'",
                              a->kwnames[i]);
    }
    if (a->n < 1 || a->n > 4)
        return lang_raise(vm, LANG_ERR_TYPE, "add_argument() takes 1 to 4 names, got %d", a->n);
    action ac;
    memset(&ac, 0, sizeof ac);
    ac.type = ac.deflt = ac.choices = ac.konst = lang_none();
    ac.nargs = NARGS_ONE;
    for (int i = 0; i < a->n; i++) {
        if (!lang_is_obj(a->pos[i], &lang_str_type)) {
            action_free(&ac);
            return lang_raise(vm, LANG_ERR_TYPE, "add_argument(): names must be str");
        }
        ac.names[ac.n_names++] = strdup(lang_str_cstr(a->pos[i]));
    }
    ac.positional = ac.names[0][0] != '-';
    if (ac.positional && a->n > 1) {
        action_free(&ac);
        return lang_raise(vm, LANG_ERR_VALUE,
                          "invalid option string '%s': must start with a character '-'",
                          lang_str_cstr(a->pos[1]));
    }
    lang_val v;
    const char *s;
    bool ok = true;
    if (kw(a, "action", &v)) {
        s = lang_is_obj(v, &lang_str_type) ? lang_str_cstr(v) : "";
        if (!strcmp(s, "store"))
            ac.kind = ACT_STORE;
        else if (!strcmp(s, "store_true"))
            ac.kind = ACT_TRUE;
        else if (!strcmp(s, "store_false"))
            ac.kind = ACT_FALSE;
        else if (!strcmp(s, "store_const"))
            ac.kind = ACT_CONST;
        else if (!strcmp(s, "count"))
            ac.kind = ACT_COUNT;
        else if (!strcmp(s, "append"))
            ac.kind = ACT_APPEND;
        else
            ok = lang_raise(vm, LANG_ERR_VALUE, "unknown action \"%s\"", s);
    }
    if (ok && kw(a, "nargs", &v)) {
        s = lang_is_obj(v, &lang_str_type) ? lang_str_cstr(v) : NULL;
        if (v.kind == LANG_INT && v.u.i > 0 && v.u.i < 1000)
            ac.nargs = (int)v.u.i;
        else if (s && !strcmp(s, "?"))
            ac.nargs = NARGS_OPT;
        else if (s && !strcmp(s, "*"))
            ac.nargs = NARGS_STAR;
        else if (s && !strcmp(s, "+"))
            ac.nargs = NARGS_PLUS;
        else if (v.kind != LANG_NONE)
            ok = lang_raise(vm, LANG_ERR_VALUE, "invalid nargs value");
    }
    if (ok && kw(a, "type", &v)) ac.type = lang_val_retain(v);
    if (ok && kw(a, "choices", &v)) ac.choices = lang_val_retain(v);
    if (ok && kw(a, "const", &v)) ac.konst = lang_val_retain(v);
    if (ok && kw(a, "required", &v)) ok = lang_to_bool(vm, v, "required", &ac.required);
    if (ok && kw(a, "help", &v) && lang_is_obj(v, &lang_str_type))
        ac.help = strdup(lang_str_cstr(v));
    if (ok && kw(a, "metavar", &v) && lang_is_obj(v, &lang_str_type))
        ac.metavar = strdup(lang_str_cstr(v));
    if (ok && kw(a, "default", &v))
        ac.deflt = lang_val_retain(v);
    else if (ok && ac.kind == ACT_TRUE)
        ac.deflt = lang_bool(false);
    else if (ok && ac.kind == ACT_FALSE)
        ac.deflt = lang_bool(true);
    if (ok && kw(a, "dest", &v) && lang_is_obj(v, &lang_str_type)) {
        ac.dest = strdup(lang_str_cstr(v));
    } else if (ok) {
        const char *pick = ac.names[0];
        for (int i = 0; i < ac.n_names; i++)
            if (!strncmp(ac.names[i], "--", 2)) {
                pick = ac.names[i];
                break;
            }
        while (*pick == '-') pick++;
        ac.dest = strdup(pick);
        for (char *c = ac.dest; c && *c; c++)
            if (*c == '-') *c = '_';
    }
    if (!ok) {
        action_free(&ac);
        return false;
    }
    if (!add_action(vm, P(self), &ac)) {
        action_free(&ac);
        return false;
    }
    *out = lang_none();
    return true;
}

static bool m_parse_args(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val args = lang_none(), nsv = lang_none();
    if (!lang_parse_args(vm, a, "parse_args", "|args,namespace", &args, &nsv)) return false;
    return parse(vm, P(self), args, false, out);
}

static bool m_parse_known_args(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val args = lang_none(), nsv = lang_none();
    if (!lang_parse_args(vm, a, "parse_known_args", "|args,namespace", &args, &nsv)) return false;
    return parse(vm, P(self), args, true, out);
}

static bool m_format_help(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "format_help", "")) return false;
    lang_buf b;
    lang_buf_init(&b);
    format_help(vm, P(self), &b);
    bool ok = lang_str_new(vm, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return ok;
}

static bool m_print_help(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "print_help", "")) return false;
    lang_buf b;
    lang_buf_init(&b);
    format_help(vm, P(self), &b);
    lang_vm_write(vm, LANG_STDOUT, b.data, b.len);
    lang_buf_free(&b);
    *out = lang_none();
    return true;
}

static bool m_print_usage(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "print_usage", "")) return false;
    lang_buf b;
    lang_buf_init(&b);
    format_usage(vm, P(self), &b);
    lang_vm_write(vm, LANG_STDOUT, b.data, b.len);
    lang_buf_free(&b);
    *out = lang_none();
    return true;
}

static bool m_error(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val msg;
    (void)out;
    if (!lang_parse_args(vm, a, "error", "message", &msg)) return false;
    lang_buf b;
    lang_buf_init(&b);
    lang_str(vm, msg, &b);
    bool r = parse_error(vm, P(self), "%s", b.data ? b.data : "");
    lang_buf_free(&b);
    return r;
}

static bool m_set_defaults(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    parser_obj *p = P(self);
    if (a->n) return lang_raise(vm, LANG_ERR_TYPE, "set_defaults() takes keyword arguments only");
    if (p->extra_defaults.kind == LANG_NONE && !lang_dict_new(vm, &p->extra_defaults)) return false;
    for (int i = 0; i < a->nkw; i++) {
        lang_val k;
        if (!lang_str_from_cstr(vm, a->kwnames[i], &k)) return false;
        bool ok = lang_dict_set(vm, p->extra_defaults, k, a->kw[i]);
        lang_val_release(k);
        if (!ok) return false;
        /* an action's own default changes too, as Python's */
        for (int j = 0; j < p->n; j++)
            if (!strcmp(p->acts[j].dest, a->kwnames[i])) {
                lang_val_release(p->acts[j].deflt);
                p->acts[j].deflt = lang_val_retain(a->kw[i]);
            }
    }
    *out = lang_none();
    return true;
}

static const lang_method parser_methods[] = {
    {"add_argument",
     m_add_argument,
     {"ArgumentParser.add_argument",
      "add_argument(*names, type=None, default=None, help=None, action='store', choices=None, "
      "required=False, nargs=None, const=None, dest=None, metavar=None)",
      "Declare an option ('--lr') or a positional argument ('data').",
      "parser.add_argument('--lr', type=float, default=3e-4)"}},
    {"parse_args",
     m_parse_args,
     {"ArgumentParser.parse_args", "parse_args(args=None)",
      "Parse sys.argv[1:] (or [args]) into a Namespace; a bad command line prints the usage and "
      "exits with status 2.",
      "args = parser.parse_args()"}},
    {"parse_known_args",
     m_parse_known_args,
     {"ArgumentParser.parse_known_args", "parse_known_args(args=None)",
      "(Namespace, the arguments it did not know).", "args, rest = parser.parse_known_args()"}},
    {"format_help",
     m_format_help,
     {"ArgumentParser.format_help", "format_help()", "The help text.", "parser.format_help()"}},
    {"print_help",
     m_print_help,
     {"ArgumentParser.print_help", "print_help()", "Print the help text.", "parser.print_help()"}},
    {"print_usage",
     m_print_usage,
     {"ArgumentParser.print_usage", "print_usage()", "Print the usage line.",
      "parser.print_usage()"}},
    {"error",
     m_error,
     {"ArgumentParser.error", "error(message)",
      "Print the usage and the message on stderr, and exit with status 2.",
      "parser.error('--lr must be positive')"}},
    {"set_defaults",
     m_set_defaults,
     {"ArgumentParser.set_defaults", "set_defaults(**kwargs)",
      "Defaults for attributes of the Namespace.", "parser.set_defaults(seed=1337)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_type parser_type = {
    .name = "ArgumentParser",
    .free = parser_free,
    .repr = parser_repr,
    .methods = parser_methods,
};

static bool f_argument_parser(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val prog = lang_none(), usage = lang_none(), desc = lang_none(), epi = lang_none(),
             fc = lang_none(), ah = lang_bool(true);
    if (!lang_parse_args(vm, a, "ArgumentParser",
                         "|prog,usage,description,epilog,formatter_class,add_help", &prog, &usage,
                         &desc, &epi, &fc, &ah))
        return false;
    bool add_help;
    if (!lang_to_bool(vm, ah, "add_help", &add_help)) return false;
    parser_obj *p = lang_obj_new(vm, &parser_type, sizeof *p);
    if (!p) return false;
    memset((char *)p + sizeof p->hdr, 0, sizeof *p - sizeof p->hdr);
    p->extra_defaults = lang_none();
    lang_val pv = lang_obj_val(&p->hdr);
    if (lang_is_obj(prog, &lang_str_type)) {
        p->prog = strdup(lang_str_cstr(prog));
    } else {
        /* Python: the basename of sys.argv[0] */
        lang_val sys, argv;
        const char *name = "nndb";
        if (lang_import_module(vm, "sys", &sys)) {
            if (lang_getattr(vm, sys, "argv", &argv)) {
                if (lang_is_obj(argv, &lang_list_type) && lang_seq_len(argv) > 0 &&
                    lang_is_obj(lang_seq_items(argv)[0], &lang_str_type)) {
                    const char *a0 = lang_str_cstr(lang_seq_items(argv)[0]);
                    const char *slash = strrchr(a0, '/');
                    p->prog = strdup(slash ? slash + 1 : a0);
                }
                lang_val_release(argv);
            }
            lang_val_release(sys);
        }
        lang_vm_clear_error(vm);
        if (!p->prog) p->prog = strdup(name);
    }
    p->description = lang_is_obj(desc, &lang_str_type) ? dup_or_null(lang_str_cstr(desc)) : NULL;
    p->epilog = lang_is_obj(epi, &lang_str_type) ? dup_or_null(lang_str_cstr(epi)) : NULL;
    if (add_help) {
        action ac;
        memset(&ac, 0, sizeof ac);
        ac.names[0] = strdup("-h");
        ac.names[1] = strdup("--help");
        ac.n_names = 2;
        ac.dest = strdup("help");
        ac.help = strdup("show this help message and exit");
        ac.kind = ACT_HELP;
        ac.nargs = NARGS_ONE;
        ac.type = ac.deflt = ac.choices = ac.konst = lang_none();
        if (!add_action(vm, p, &ac)) {
            action_free(&ac);
            lang_val_release(pv);
            return false;
        }
    }
    *out = pv;
    return true;
}

static const lang_builtin_def argparse_functions[] = {
    {"ArgumentParser",
     f_argument_parser,
     {"argparse.ArgumentParser",
      "ArgumentParser(prog=None, description=None, epilog=None, add_help=True)",
      "A command-line parser, as Python's argparse: add_argument(), then parse_args().",
      "parser = argparse.ArgumentParser(description='train')"}},
    {"Namespace",
     f_namespace,
     {"argparse.Namespace", "Namespace(**kwargs)", "A bag of attributes (what parse_args gives).",
      "argparse.Namespace(lr=0.1)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_module_def lang_argparse_module = {
    .name = "argparse",
    .doc = "Command-line options for scripts run with `nndb run train.py --lr 3e-4`.",
    .functions = argparse_functions,
};
