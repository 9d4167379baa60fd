/* lang_std: the parts of Python's standard library that training scripts
 * import: open() and text files, math, time, sys, os, os.path, json, and
 * the modules' registration (collections is written in the language
 * itself, lang_std_collections below). Each module is a lang_module_def
 * (lang_import.h). Ownership follows lang_value.h.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lang.h"
#include "lang_class.h"
#include "lang_eval.h"
#include "lang_import.h"
#include "lang_std.h"
#include "lang_value_impl.h"

/* ------------------------------------------------------------------ files */

typedef struct file_obj {
    lang_obj hdr;
    FILE *fp;
    char *name;
    char mode[8];
    bool readable, writable;
} file_obj;

static void file_free(lang_obj *o) {
    file_obj *f = (file_obj *)o;
    if (f->fp) fclose(f->fp);
    free(f->name);
}

static bool os_error(lang_vm *vm, int err, const char *path) {
    const char *ename = err == ENOENT   ? "FileNotFoundError"
                        : err == EEXIST ? "FileExistsError"
                        : err == EISDIR ? "IsADirectoryError"
                                        : "OSError";
    if (path)
        return lang_raise_named(vm, LANG_ERR_IO, ename, "[Errno %d] %s: '%s'", err, strerror(err),
                                path);
    return lang_raise_named(vm, LANG_ERR_IO, ename, "[Errno %d] %s", err, strerror(err));
}

static file_obj *open_file(lang_vm *vm, lang_val self, bool for_write) {
    file_obj *f = (file_obj *)self.u.o;
    if (!f->fp) {
        lang_raise(vm, LANG_ERR_VALUE, "I/O operation on closed file.");
        return NULL;
    }
    if (for_write && !f->writable) {
        lang_raise_named(vm, LANG_ERR_IO, "UnsupportedOperation", "not writable");
        return NULL;
    }
    if (!for_write && !f->readable) {
        lang_raise_named(vm, LANG_ERR_IO, "UnsupportedOperation", "not readable");
        return NULL;
    }
    return f;
}

/* One line including its '\n' (empty at the end of the file). */
static bool read_line(lang_vm *vm, file_obj *f, lang_buf *b) {
    int c;
    while ((c = fgetc(f->fp)) != EOF) {
        char ch = (char)c;
        lang_buf_add(b, &ch, 1);
        if (ch == '\n') break;
    }
    return true;
}

static bool m_file_read(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val n = lang_int(-1);
    int64_t size;
    if (!lang_parse_args(vm, a, "read", "|size", &n)) return false;
    if (n.kind == LANG_NONE) n = lang_int(-1);
    if (!lang_to_int(vm, n, "size", &size)) return false;
    file_obj *f = open_file(vm, self, false);
    if (!f) return false;
    lang_buf b;
    lang_buf_init(&b);
    char chunk[65536];
    while (size < 0 || (int64_t)b.len < size) {
        size_t want = sizeof chunk;
        if (size >= 0 && (size_t)(size - (int64_t)b.len) < want)
            want = (size_t)(size - (int64_t)b.len);
        size_t got = fread(chunk, 1, want, f->fp);
        if (!got) break;
        lang_buf_add(&b, chunk, got);
    }
    return lang_str_from_buf(vm, &b, out);
}

static bool m_file_readline(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "readline", "")) return false;
    file_obj *f = open_file(vm, self, false);
    if (!f) return false;
    lang_buf b;
    lang_buf_init(&b);
    read_line(vm, f, &b);
    return lang_str_from_buf(vm, &b, out);
}

static bool m_file_readlines(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "readlines", "")) return false;
    file_obj *f = open_file(vm, self, false);
    if (!f || !lang_list_new(vm, 0, out)) return false;
    for (;;) {
        lang_buf b;
        lang_buf_init(&b);
        read_line(vm, f, &b);
        if (!b.len) {
            lang_buf_free(&b);
            return true;
        }
        lang_val s;
        bool ok = lang_str_from_buf(vm, &b, &s) && lang_list_append(vm, *out, s);
        lang_val_release(s);
        if (!ok) {
            lang_val_release(*out);
            return false;
        }
    }
}

static bool m_file_write(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val s;
    if (!lang_parse_args(vm, a, "write", "s", &s)) return false;
    if (!lang_is_str(s))
        return lang_raise(vm, LANG_ERR_TYPE, "write() argument must be str, not %s",
                          lang_type_name(s));
    file_obj *f = open_file(vm, self, true);
    if (!f) return false;
    size_t n = S(s)->len;
    if (fwrite(lang_str_cstr(s), 1, n, f->fp) != n) return os_error(vm, errno, f->name);
    *out = lang_int((int64_t)lang_str_len(s));
    return true;
}

static bool m_file_writelines(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val lines, items;
    if (!lang_parse_args(vm, a, "writelines", "lines", &lines) ||
        !lang_list_from_iter(vm, lines, &items))
        return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(items); k++) {
        lang_val r;
        lang_args one = {1, &lang_seq_items(items)[k], 0, NULL, NULL};
        ok = m_file_write(vm, self, &one, &r);
    }
    lang_val_release(items);
    if (ok) *out = lang_none();
    return ok;
}

static bool m_file_close(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    file_obj *f = (file_obj *)self.u.o;
    if (f->fp) fclose(f->fp);
    f->fp = NULL;
    *out = lang_none();
    return true;
}

static bool m_file_flush(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    file_obj *f = (file_obj *)self.u.o;
    if (f->fp) fflush(f->fp);
    *out = lang_none();
    return true;
}

static bool m_file_enter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!((file_obj *)self.u.o)->fp)
        return lang_raise(vm, LANG_ERR_VALUE, "I/O operation on closed file.");
    *out = lang_val_retain(self);
    return true;
}

static bool file_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    if (!open_file(vm, lang_obj_val(o), false)) return false;
    *out = lang_val_retain(lang_obj_val(o));
    return true;
}

static bool file_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    file_obj *f = open_file(vm, lang_obj_val(o), false);
    if (!f) return false;
    lang_buf b;
    lang_buf_init(&b);
    read_line(vm, f, &b);
    *done = b.len == 0;
    if (*done) {
        lang_buf_free(&b);
        return true;
    }
    return lang_str_from_buf(vm, &b, out);
}

static bool file_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    file_obj *f = (file_obj *)o;
    if (!f->fp) {
        lang_buf_puts(out, "<_io.TextIOWrapper [closed]>");
        return true;
    }
    lang_buf_printf(out, "<_io.TextIOWrapper name='%s' mode='%s' encoding='UTF-8'>", f->name,
                    f->mode);
    return true;
}

static bool file_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    file_obj *f = (file_obj *)o;
    *found = true;
    if (!strcmp(name, "name")) return lang_str_from_cstr(vm, f->name, out);
    if (!strcmp(name, "mode")) return lang_str_from_cstr(vm, f->mode, out);
    if (!strcmp(name, "closed")) {
        *out = lang_bool(f->fp == NULL);
        return true;
    }
    if (!strcmp(name, "encoding")) return lang_str_from_cstr(vm, "UTF-8", out);
    *found = false;
    return true;
}

#define FM(n, f, sig, doc)                                                                         \
    {                                                                                              \
        n, f, {                                                                                    \
            "file." n, sig, doc, ""                                                                \
        }                                                                                          \
    }
static const lang_method file_methods[] = {
    FM("read", m_file_read, "read(size=-1)", "The rest of the file (or [size] characters)."),
    FM("readline", m_file_readline, "readline()", "The next line with its newline; '' at the end."),
    FM("readlines", m_file_readlines, "readlines()", "The remaining lines, as a list."),
    FM("write", m_file_write, "write(s)", "Write a string; returns its length."),
    FM("writelines", m_file_writelines, "writelines(lines)", "Write each string."),
    FM("close", m_file_close, "close()", "Close the file (a with block does it for you)."),
    FM("flush", m_file_flush, "flush()", "Write buffered text out."),
    FM("__enter__", m_file_enter, "__enter__()", "The file itself, for with."),
    FM("__exit__", m_file_close, "__exit__(*exc)", "Close the file."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef FM

static const char *const file_fieldv[] = {"name", "mode", "closed", "encoding", NULL};
static const char *const *file_fields(lang_obj *o) {
    return file_fieldv;
}

const lang_type lang_file_type = {
    .name = "TextIOWrapper",
    .free = file_free,
    .repr = file_repr,
    .getattr = file_getattr,
    .iter = file_iter,
    .next = file_next,
    .fields = file_fields,
    .methods = file_methods,
};

static bool b_open(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val path, mode = lang_none(), buffering = lang_none(), encoding = lang_none(),
                   errors = lang_none(), newline = lang_none();
    if (!lang_parse_args(vm, a, "open", "file|mode,buffering,encoding,errors,newline", &path, &mode,
                         &buffering, &encoding, &errors, &newline))
        return false;
    if (!lang_is_str(path))
        return lang_raise(vm, LANG_ERR_TYPE, "expected str, bytes or os.PathLike object, not %s",
                          lang_type_name(path));
    const char *m = mode.kind == LANG_NONE ? "r" : lang_is_str(mode) ? lang_str_cstr(mode) : NULL;
    if (!m) return lang_raise(vm, LANG_ERR_TYPE, "open() argument 'mode' must be str");
    if (strchr(m, 'b'))
        return lang_raise(vm, LANG_ERR_VALUE,
                          "binary files are not supported in nndb (mode '%s'); open as text", m);
    if (encoding.kind != LANG_NONE && lang_is_str(encoding)) {
        const char *e = lang_str_cstr(encoding);
        if (strcasecmp(e, "utf-8") && strcasecmp(e, "utf8") && strcasecmp(e, "ascii"))
            return lang_raise(vm, LANG_ERR_VALUE, "nndb reads and writes UTF-8 only, not '%s'", e);
    }
    char cm[4] = {0};
    bool plus = strchr(m, '+') != NULL;
    switch (m[0]) {
    case 'r': snprintf(cm, sizeof cm, plus ? "r+" : "r"); break;
    case 'w': snprintf(cm, sizeof cm, plus ? "w+" : "w"); break;
    case 'a': snprintf(cm, sizeof cm, plus ? "a+" : "a"); break;
    case 'x': snprintf(cm, sizeof cm, plus ? "w+x" : "wx"); break;
    default: return lang_raise(vm, LANG_ERR_VALUE, "invalid mode: '%s'", m);
    }
    if (vm->sandbox) return lang_raise(vm, LANG_ERR_IO, "open() is not available here");
    const char *p = lang_str_cstr(path);
    struct stat sb;
    if (stat(p, &sb) == 0 && S_ISDIR(sb.st_mode)) return os_error(vm, EISDIR, p);
    FILE *fp = fopen(p, cm);
    if (!fp) return os_error(vm, errno, p);
    file_obj *f = lang_obj_new(vm, &lang_file_type, sizeof *f);
    if (!f) {
        fclose(fp);
        return false;
    }
    f->fp = fp;
    f->name = strdup(p);
    snprintf(f->mode, sizeof f->mode, "%s", m);
    f->readable = m[0] == 'r' || plus;
    f->writable = m[0] != 'r' || plus;
    *out = lang_obj_val(&f->hdr);
    if (!f->name) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    return true;
}

/* sys.stdout / sys.stderr: write through the front end. */
typedef struct stream_obj {
    lang_obj hdr;
    lang_stream which;
} stream_obj;

static bool m_stream_write(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val s;
    if (!lang_parse_args(vm, a, "write", "s", &s)) return false;
    if (!lang_is_str(s))
        return lang_raise(vm, LANG_ERR_TYPE, "write() argument must be str, not %s",
                          lang_type_name(s));
    lang_vm_write(vm, ((stream_obj *)self.u.o)->which, lang_str_cstr(s), S(s)->len);
    *out = lang_int((int64_t)lang_str_len(s));
    return true;
}

static bool m_stream_flush(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    *out = lang_none();
    return true;
}

static const lang_method stream_methods[] = {
    {"write", m_stream_write, {"stream.write", "write(s)", "Write a string.", ""}},
    {"flush", m_stream_flush, {"stream.flush", "flush()", "Nothing to flush.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool stream_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<_io.TextIOWrapper name='<%s>' mode='w' encoding='utf-8'>",
                    ((stream_obj *)o)->which == LANG_STDERR ? "stderr" : "stdout");
    return true;
}

static const lang_type stream_type = {
    .name = "TextIOWrapper", .repr = stream_repr, .methods = stream_methods};
static stream_obj stdout_obj = {{1 << 28, &stream_type}, LANG_STDOUT};
static stream_obj stderr_obj = {{1 << 28, &stream_type}, LANG_STDERR};

bool lang_std_write_to(lang_vm *vm, lang_val file, const char *text, size_t len) {
    if (file.kind == LANG_OBJ && file.u.o->type == &stream_type) {
        lang_vm_write(vm, ((stream_obj *)file.u.o)->which, text, len);
        return true;
    }
    lang_val s, m, r;
    if (!lang_str_new(vm, text, len, &s)) return false;
    bool ok = lang_getattr(vm, file, "write", &m);
    if (ok) {
        lang_args a = {1, &s, 0, NULL, NULL};
        ok = lang_call(vm, m, &a, &r);
        if (ok) lang_val_release(r);
        lang_val_release(m);
    }
    lang_val_release(s);
    return ok;
}

/* ------------------------------------------------------------------ math */

static bool num_arg(lang_vm *vm, const lang_args *a, const char *fname, double *x) {
    lang_val v;
    return lang_parse_args(vm, a, fname, "x", &v) && lang_to_float(vm, v, "x", x);
}

static bool domain(lang_vm *vm) {
    return lang_raise(vm, LANG_ERR_VALUE, "math domain error");
}

#define MATH1(name, expr, check)                                                                   \
    static bool m_##name(lang_vm *vm, const lang_args *a, lang_val *out) {                         \
        double x;                                                                                  \
        if (!num_arg(vm, a, #name, &x)) return false;                                              \
        if (check) return domain(vm);                                                              \
        *out = lang_float(expr);                                                                   \
        return true;                                                                               \
    }
MATH1(sqrt, sqrt(x), x < 0)
MATH1(exp, exp(x), false)
MATH1(log10, log10(x), x <= 0)
MATH1(log2, log2(x), x <= 0)
MATH1(log1p, log1p(x), x <= -1)
MATH1(sin, sin(x), false)
MATH1(cos, cos(x), false)
MATH1(tan, tan(x), false)
MATH1(asin, asin(x), x<-1 || x> 1)
MATH1(acos, acos(x), x<-1 || x> 1)
MATH1(atan, atan(x), false)
MATH1(sinh, sinh(x), false)
MATH1(cosh, cosh(x), false)
MATH1(tanh, tanh(x), false)
MATH1(fabs, fabs(x), false)
MATH1(erf, erf(x), false)
MATH1(erfc, erfc(x), false)
MATH1(lgamma, lgamma(x), false)
MATH1(gamma, tgamma(x), x <= 0 && x == floor(x))
MATH1(degrees, x * 180.0 / M_PI, false)
MATH1(radians, x *M_PI / 180.0, false)
MATH1(expm1, expm1(x), false)
#undef MATH1

static bool m_log(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val xv, bv = lang_none();
    double x, b = 0;
    if (!lang_parse_args(vm, a, "log", "x|base", &xv, &bv) || !lang_to_float(vm, xv, "x", &x))
        return false;
    if (bv.kind != LANG_NONE && !lang_to_float(vm, bv, "base", &b)) return false;
    if (x <= 0 || (bv.kind != LANG_NONE && (b <= 0 || b == 1))) return domain(vm);
    *out = lang_float(bv.kind == LANG_NONE ? log(x) : log(x) / log(b));
    return true;
}

static bool int_result(lang_vm *vm, double d, lang_val *out) {
    if (isnan(d)) return lang_raise(vm, LANG_ERR_VALUE, "cannot convert float NaN to integer");
    if (isinf(d))
        return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                "cannot convert float infinity to integer");
    *out = lang_int((int64_t)d);
    return true;
}

static bool m_floor(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v;
    if (!lang_parse_args(vm, a, "floor", "x", &v)) return false;
    if (v.kind == LANG_INT || v.kind == LANG_BOOL) {
        *out = lang_int(lang_num_i(v));
        return true;
    }
    double x;
    return lang_to_float(vm, v, "x", &x) && int_result(vm, floor(x), out);
}

static bool m_ceil(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v;
    if (!lang_parse_args(vm, a, "ceil", "x", &v)) return false;
    if (v.kind == LANG_INT || v.kind == LANG_BOOL) {
        *out = lang_int(lang_num_i(v));
        return true;
    }
    double x;
    return lang_to_float(vm, v, "x", &x) && int_result(vm, ceil(x), out);
}

static bool m_trunc(lang_vm *vm, const lang_args *a, lang_val *out) {
    double x;
    return num_arg(vm, a, "trunc", &x) && int_result(vm, trunc(x), out);
}

static bool m_pow(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val xv, yv;
    double x, y;
    if (!lang_parse_args(vm, a, "pow", "x,y", &xv, &yv) || !lang_to_float(vm, xv, "x", &x) ||
        !lang_to_float(vm, yv, "y", &y))
        return false;
    if (x < 0 && y != floor(y)) return domain(vm);
    *out = lang_float(pow(x, y));
    return true;
}

static bool m_atan2(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val yv, xv;
    double x, y;
    if (!lang_parse_args(vm, a, "atan2", "y,x", &yv, &xv) || !lang_to_float(vm, yv, "y", &y) ||
        !lang_to_float(vm, xv, "x", &x))
        return false;
    *out = lang_float(atan2(y, x));
    return true;
}

static bool m_hypot(lang_vm *vm, const lang_args *a, lang_val *out) {
    double s = 0;
    for (int k = 0; k < a->n; k++) {
        double x;
        if (!lang_to_float(vm, a->pos[k], "coordinate", &x)) return false;
        s = hypot(s, x);
    }
    *out = lang_float(s);
    return true;
}

static bool pred(lang_vm *vm, const lang_args *a, const char *fname, int which, lang_val *out) {
    double x;
    if (!num_arg(vm, a, fname, &x)) return false;
    *out = lang_bool(which == 0 ? isnan(x) : which == 1 ? isinf(x) : isfinite(x));
    return true;
}
static bool m_isnan(lang_vm *vm, const lang_args *a, lang_val *out) {
    return pred(vm, a, "isnan", 0, out);
}
static bool m_isinf(lang_vm *vm, const lang_args *a, lang_val *out) {
    return pred(vm, a, "isinf", 1, out);
}
static bool m_isfinite(lang_vm *vm, const lang_args *a, lang_val *out) {
    return pred(vm, a, "isfinite", 2, out);
}

static bool m_isclose(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val av, bv, rt = lang_float(1e-9), at = lang_float(0.0);
    double x, y, r, t;
    if (!lang_parse_args(vm, a, "isclose", "a,b|rel_tol,abs_tol", &av, &bv, &rt, &at) ||
        !lang_to_float(vm, av, "a", &x) || !lang_to_float(vm, bv, "b", &y) ||
        !lang_to_float(vm, rt, "rel_tol", &r) || !lang_to_float(vm, at, "abs_tol", &t))
        return false;
    if (x == y) {
        *out = lang_bool(true);
        return true;
    }
    if (isinf(x) || isinf(y)) {
        *out = lang_bool(false);
        return true;
    }
    double d = fabs(x - y);
    *out = lang_bool(d <= fabs(r * y) || d <= fabs(r * x) || d <= t);
    return true;
}

static bool m_fsum(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val it, items;
    if (!lang_parse_args(vm, a, "fsum", "seq", &it) || !lang_list_from_iter(vm, it, &items))
        return false;
    /* Neumaier's compensated sum: exact enough for the sums scripts print. */
    double s = 0, c = 0;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(items); k++) {
        double x;
        ok = lang_to_float(vm, lang_seq_items(items)[k], "item", &x);
        double t = s + x;
        c += fabs(s) >= fabs(x) ? (s - t) + x : (x - t) + s;
        s = t;
    }
    lang_val_release(items);
    if (ok) *out = lang_float(s + c);
    return ok;
}

static bool m_prod(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val it, items, start = lang_int(1);
    if (!lang_parse_args(vm, a, "prod", "iterable|start", &it, &start) ||
        !lang_list_from_iter(vm, it, &items))
        return false;
    lang_val acc = lang_val_retain(start);
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(items); k++) {
        lang_val r;
        ok = lang_binary(vm, LANG_OP_MUL, acc, lang_seq_items(items)[k], &r);
        if (ok) {
            lang_val_release(acc);
            acc = r;
        }
    }
    lang_val_release(items);
    if (!ok) {
        lang_val_release(acc);
        return false;
    }
    *out = acc;
    return true;
}

static int64_t gcd64(int64_t a, int64_t b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool m_gcd(lang_vm *vm, const lang_args *a, lang_val *out) {
    int64_t g = 0;
    for (int k = 0; k < a->n; k++) {
        int64_t x;
        if (!lang_to_int(vm, a->pos[k], "integer", &x)) return false;
        g = gcd64(g, x);
    }
    *out = lang_int(g);
    return true;
}

static bool m_factorial(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v;
    int64_t n;
    if (!lang_parse_args(vm, a, "factorial", "n", &v) || !lang_to_int(vm, v, "n", &n)) return false;
    if (n < 0) return lang_raise(vm, LANG_ERR_VALUE, "factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t k = 2; k <= n; k++)
        if (__builtin_mul_overflow(r, k, &r))
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "integer result does not fit in 64 bits");
    *out = lang_int(r);
    return true;
}

static bool m_comb(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv, kv;
    int64_t n, k;
    if (!lang_parse_args(vm, a, "comb", "n,k", &nv, &kv) || !lang_to_int(vm, nv, "n", &n) ||
        !lang_to_int(vm, kv, "k", &k))
        return false;
    if (n < 0 || k < 0) return lang_raise(vm, LANG_ERR_VALUE, "n and k must be non-negative");
    if (k > n) {
        *out = lang_int(0);
        return true;
    }
    if (k > n - k) k = n - k;
    __int128 r = 1;
    for (int64_t i = 1; i <= k; i++) {
        r = r * (n - k + i) / i;
        if (r > INT64_MAX)
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "integer result does not fit in 64 bits");
    }
    *out = lang_int((int64_t)r);
    return true;
}

#define MF(n, f, sig, doc)                                                                         \
    {                                                                                              \
        n, f, {                                                                                    \
            "math." n, sig, doc, ""                                                                \
        }                                                                                          \
    }
static const lang_builtin_def math_functions[] = {
    MF("sqrt", m_sqrt, "sqrt(x)", "The square root."),
    MF("exp", m_exp, "exp(x)", "e to the power x."),
    MF("expm1", m_expm1, "expm1(x)", "exp(x) - 1, accurate near 0."),
    MF("log", m_log, "log(x, base=e)", "The logarithm (natural, or to [base])."),
    MF("log10", m_log10, "log10(x)", "The base-10 logarithm."),
    MF("log2", m_log2, "log2(x)", "The base-2 logarithm."),
    MF("log1p", m_log1p, "log1p(x)", "log(1 + x), accurate near 0."),
    MF("sin", m_sin, "sin(x)", "The sine (radians)."),
    MF("cos", m_cos, "cos(x)", "The cosine (radians)."),
    MF("tan", m_tan, "tan(x)", "The tangent (radians)."),
    MF("asin", m_asin, "asin(x)", "The arc sine."),
    MF("acos", m_acos, "acos(x)", "The arc cosine."),
    MF("atan", m_atan, "atan(x)", "The arc tangent."),
    MF("atan2", m_atan2, "atan2(y, x)", "The angle of the point (x, y)."),
    MF("sinh", m_sinh, "sinh(x)", "The hyperbolic sine."),
    MF("cosh", m_cosh, "cosh(x)", "The hyperbolic cosine."),
    MF("tanh", m_tanh, "tanh(x)", "The hyperbolic tangent."),
    MF("fabs", m_fabs, "fabs(x)", "The absolute value, as a float."),
    MF("floor", m_floor, "floor(x)", "The largest int <= x."),
    MF("ceil", m_ceil, "ceil(x)", "The smallest int >= x."),
    MF("trunc", m_trunc, "trunc(x)", "x without its fractional part, as an int."),
    MF("pow", m_pow, "pow(x, y)", "x ** y as floats."),
    MF("hypot", m_hypot, "hypot(*coordinates)", "The Euclidean norm."),
    MF("isnan", m_isnan, "isnan(x)", "Whether x is NaN."),
    MF("isinf", m_isinf, "isinf(x)", "Whether x is infinite."),
    MF("isfinite", m_isfinite, "isfinite(x)", "Whether x is neither NaN nor infinite."),
    MF("isclose", m_isclose, "isclose(a, b, rel_tol=1e-09, abs_tol=0.0)",
       "Whether a and b are close."),
    MF("erf", m_erf, "erf(x)", "The error function."),
    MF("erfc", m_erfc, "erfc(x)", "1 - erf(x)."),
    MF("lgamma", m_lgamma, "lgamma(x)", "log |Gamma(x)|."),
    MF("gamma", m_gamma, "gamma(x)", "The Gamma function."),
    MF("degrees", m_degrees, "degrees(x)", "Radians to degrees."),
    MF("radians", m_radians, "radians(x)", "Degrees to radians."),
    MF("fsum", m_fsum, "fsum(iterable)", "An accurate float sum."),
    MF("prod", m_prod, "prod(iterable, start=1)", "The product of the items."),
    MF("gcd", m_gcd, "gcd(*integers)", "The greatest common divisor."),
    MF("factorial", m_factorial, "factorial(n)", "n!."),
    MF("comb", m_comb, "comb(n, k)", "The number of ways to choose k of n."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool math_init(lang_vm *vm, lang_val mod) {
    return lang_module_set(vm, mod, "pi", lang_float(M_PI)) &&
           lang_module_set(vm, mod, "e", lang_float(M_E)) &&
           lang_module_set(vm, mod, "tau", lang_float(2 * M_PI)) &&
           lang_module_set(vm, mod, "inf", lang_float(INFINITY)) &&
           lang_module_set(vm, mod, "nan", lang_float(NAN));
}

/* ------------------------------------------------------------------ time */

static double now(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool t_time(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "time", "")) return false;
    *out = lang_float(now(CLOCK_REALTIME));
    return true;
}
static bool t_perf_counter(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "perf_counter", "")) return false;
    *out = lang_float(now(CLOCK_MONOTONIC));
    return true;
}
static bool t_process_time(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "process_time", "")) return false;
    *out = lang_float(now(CLOCK_PROCESS_CPUTIME_ID));
    return true;
}
static bool t_time_ns(lang_vm *vm, const lang_args *a, lang_val *out) {
    struct timespec ts;
    if (!lang_parse_args(vm, a, "time_ns", "")) return false;
    clock_gettime(CLOCK_REALTIME, &ts);
    *out = lang_int((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
    return true;
}
static bool t_sleep(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v;
    double s;
    if (!lang_parse_args(vm, a, "sleep", "secs", &v) || !lang_to_float(vm, v, "secs", &s))
        return false;
    if (s < 0) return lang_raise(vm, LANG_ERR_VALUE, "sleep length must be non-negative");
    /* In slices, so Ctrl-C ends a long sleep. */
    while (s > 0) {
        double d = s < 0.05 ? s : 0.05;
        struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
        nanosleep(&ts, NULL);
        s -= d;
        if (lang_vm_interrupted(vm)) return false;
    }
    *out = lang_none();
    return true;
}

#define TF(n, f, sig, doc)                                                                         \
    {                                                                                              \
        n, f, {                                                                                    \
            "time." n, sig, doc, ""                                                                \
        }                                                                                          \
    }
static const lang_builtin_def time_functions[] = {
    TF("time", t_time, "time()", "Seconds since the epoch, as a float."),
    TF("time_ns", t_time_ns, "time_ns()", "Nanoseconds since the epoch."),
    TF("perf_counter", t_perf_counter, "perf_counter()", "A monotonic clock for timing code."),
    TF("monotonic", t_perf_counter, "monotonic()", "A monotonic clock."),
    TF("process_time", t_process_time, "process_time()", "CPU time of this process."),
    TF("sleep", t_sleep, "sleep(secs)", "Wait (Ctrl-C interrupts)."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* ------------------------------------------------------------------ sys */

static bool s_exit(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val code = lang_none();
    if (!lang_parse_args(vm, a, "exit", "|status", &code)) return false;
    lang_val *ex = lang_vm_global(vm, "exit");
    if (!ex) return lang_raise_named(vm, LANG_ERR_STOPPED, "SystemExit", "exit");
    lang_args ea = {code.kind == LANG_NONE ? 0 : 1, &code, 0, NULL, NULL};
    return lang_call(vm, *ex, &ea, out);
}

static const lang_builtin_def sys_functions[] = {
    {"exit", s_exit, {"sys.exit", "exit(status=None)", "End the script with a status.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const char *const *script_argv;
static int script_argc;

void lang_std_set_argv(int argc, const char *const *argv) {
    script_argc = argc;
    script_argv = argv;
}

const lang_info *lang_language_info(void) {
    static const lang_info info = {"nndb", "0.1.0", "text/x-nndb", ".nn", "nndb"};
    return &info;
}

void lang_set_script_argv(int argc, const char *const *argv) {
    lang_std_set_argv(argc, argv);
}

static bool sys_init(lang_vm *vm, lang_val mod) {
    lang_val argv, v, paths;
    if (!lang_list_new(vm, 0, &argv)) return false;
    bool ok = true;
    if (script_argc == 0) {
        ok = lang_str_from_cstr(vm, "", &v);
        if (ok) {
            ok = lang_list_append(vm, argv, v);
            lang_val_release(v);
        }
    }
    for (int k = 0; ok && k < script_argc; k++) {
        ok = lang_str_from_cstr(vm, script_argv[k], &v);
        if (ok) {
            ok = lang_list_append(vm, argv, v);
            lang_val_release(v);
        }
    }
    if (ok) ok = lang_module_set(vm, mod, "argv", argv);
    lang_val_release(argv);
    if (!ok) return false;
    if (!lang_module_set(vm, mod, "stdout", lang_obj_val(&stdout_obj.hdr)) ||
        !lang_module_set(vm, mod, "stderr", lang_obj_val(&stderr_obj.hdr)) ||
        !lang_module_set(vm, mod, "maxsize", lang_int(INT64_MAX)) ||
        !lang_str_from_cstr(vm, "3.11.2 (nndb)", &v))
        return false;
    ok = lang_module_set(vm, mod, "version", v);
    lang_val_release(v);
    if (ok) ok = lang_str_from_cstr(vm, "linux", &v);
    if (ok) {
        ok = lang_module_set(vm, mod, "platform", v);
        lang_val_release(v);
    }
    if (ok) ok = lang_list_new(vm, 0, &paths);
    if (ok) {
        ok = lang_module_set(vm, mod, "path", paths);
        lang_val_release(paths);
    }
    return ok;
}

/* ------------------------------------------------------------------ os, os.path */

static bool str_arg(lang_vm *vm, lang_val v, const char *fname, const char **out) {
    if (!lang_is_str(v))
        return lang_raise(vm, LANG_ERR_TYPE, "%s: expected str, not %s", fname, lang_type_name(v));
    *out = lang_str_cstr(v);
    return true;
}

static bool p_join(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1) return lang_raise(vm, LANG_ERR_TYPE, "join() missing required argument 'a'");
    lang_buf b;
    lang_buf_init(&b);
    for (int k = 0; k < a->n; k++) {
        const char *s = NULL;
        if (!str_arg(vm, a->pos[k], "join", &s)) {
            lang_buf_free(&b);
            return false;
        }
        if (s[0] == '/') {
            b.len = 0;
        } else if (b.len && b.data[b.len - 1] != '/') {
            lang_buf_add(&b, "/", 1);
        }
        lang_buf_puts(&b, s);
    }
    return lang_str_from_buf(vm, &b, out);
}

static bool one_path(lang_vm *vm, const lang_args *a, const char *fname, const char **p) {
    lang_val v;
    return lang_parse_args(vm, a, fname, "path", &v) && str_arg(vm, v, fname, p);
}

static bool p_exists(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    struct stat sb;
    if (!one_path(vm, a, "exists", &p)) return false;
    *out = lang_bool(stat(p, &sb) == 0);
    return true;
}
static bool p_isfile(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    struct stat sb;
    if (!one_path(vm, a, "isfile", &p)) return false;
    *out = lang_bool(stat(p, &sb) == 0 && S_ISREG(sb.st_mode));
    return true;
}
static bool p_isdir(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    struct stat sb;
    if (!one_path(vm, a, "isdir", &p)) return false;
    *out = lang_bool(stat(p, &sb) == 0 && S_ISDIR(sb.st_mode));
    return true;
}
static bool p_getsize(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    struct stat sb;
    if (!one_path(vm, a, "getsize", &p)) return false;
    if (stat(p, &sb) != 0) return os_error(vm, errno, p);
    *out = lang_int((int64_t)sb.st_size);
    return true;
}
static bool p_basename(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    if (!one_path(vm, a, "basename", &p)) return false;
    const char *s = strrchr(p, '/');
    return lang_str_from_cstr(vm, s ? s + 1 : p, out);
}
static bool p_dirname(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    if (!one_path(vm, a, "dirname", &p)) return false;
    const char *s = strrchr(p, '/');
    if (!s) return lang_str_from_cstr(vm, "", out);
    size_t n = (size_t)(s - p);
    while (n > 1 && p[n - 1] == '/') n--;
    return lang_str_new(vm, p, n ? n : 1, out);
}
static bool p_splitext(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    if (!one_path(vm, a, "splitext", &p)) return false;
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    while (*base == '.') base++;
    const char *dot = strrchr(base, '.');
    size_t n = dot ? (size_t)(dot - p) : strlen(p);
    lang_val items[2];
    if (!lang_str_new(vm, p, n, &items[0])) return false;
    if (!lang_str_from_cstr(vm, p + n, &items[1])) {
        lang_val_release(items[0]);
        return false;
    }
    bool ok = lang_tuple_pack(vm, 2, items, out);
    lang_val_release(items[0]);
    lang_val_release(items[1]);
    return ok;
}
static bool p_split(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    if (!one_path(vm, a, "split", &p)) return false;
    const char *s = strrchr(p, '/');
    size_t n = s ? (size_t)(s - p) : 0;
    lang_val items[2];
    if (!lang_str_new(vm, p, n == 0 && s ? 1 : n, &items[0])) return false;
    if (!lang_str_from_cstr(vm, s ? s + 1 : p, &items[1])) {
        lang_val_release(items[0]);
        return false;
    }
    bool ok = lang_tuple_pack(vm, 2, items, out);
    lang_val_release(items[0]);
    lang_val_release(items[1]);
    return ok;
}
static bool p_abspath(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    if (!one_path(vm, a, "abspath", &p)) return false;
    if (p[0] == '/') return lang_str_from_cstr(vm, p, out);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return os_error(vm, errno, NULL);
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "%s/%s", cwd, p);
    return lang_str_from_buf(vm, &b, out);
}

static bool o_getcwd(lang_vm *vm, const lang_args *a, lang_val *out) {
    char cwd[4096];
    if (!lang_parse_args(vm, a, "getcwd", "")) return false;
    if (!getcwd(cwd, sizeof cwd)) return os_error(vm, errno, NULL);
    return lang_str_from_cstr(vm, cwd, out);
}

static bool o_listdir(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v = lang_none();
    const char *p = ".";
    if (!lang_parse_args(vm, a, "listdir", "|path", &v)) return false;
    if (v.kind != LANG_NONE && !str_arg(vm, v, "listdir", &p)) return false;
    DIR *d = opendir(p);
    if (!d) return os_error(vm, errno, p);
    if (!lang_list_new(vm, 0, out)) {
        closedir(d);
        return false;
    }
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        lang_val s;
        ok = lang_str_from_cstr(vm, e->d_name, &s);
        if (ok) {
            ok = lang_list_append(vm, *out, s);
            lang_val_release(s);
        }
    }
    closedir(d);
    if (!ok) lang_val_release(*out);
    return ok;
}

static bool o_makedirs(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v, mode = lang_int(0777), exist_ok = lang_bool(false);
    const char *p = NULL;
    bool eok;
    if (!lang_parse_args(vm, a, "makedirs", "name|mode,exist_ok", &v, &mode, &exist_ok) ||
        !str_arg(vm, v, "makedirs", &p) || !lang_to_bool(vm, exist_ok, "exist_ok", &eok))
        return false;
    if (vm->sandbox) return lang_raise(vm, LANG_ERR_IO, "makedirs() is not available here");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", p);
    struct stat sb;
    if (stat(buf, &sb) == 0) {
        if (!eok || !S_ISDIR(sb.st_mode)) return os_error(vm, EEXIST, p);
        *out = lang_none();
        return true;
    }
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return os_error(vm, errno, buf);
            *s = '/';
        }
    if (mkdir(buf, 0777) != 0 && !(errno == EEXIST && eok)) return os_error(vm, errno, p);
    *out = lang_none();
    return true;
}

static bool o_mkdir(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v, mode = lang_int(0777);
    const char *p = NULL;
    if (!lang_parse_args(vm, a, "mkdir", "path|mode", &v, &mode) || !str_arg(vm, v, "mkdir", &p))
        return false;
    if (vm->sandbox) return lang_raise(vm, LANG_ERR_IO, "mkdir() is not available here");
    if (mkdir(p, 0777) != 0) return os_error(vm, errno, p);
    *out = lang_none();
    return true;
}

static bool o_remove(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *p = NULL;
    if (!one_path(vm, a, "remove", &p)) return false;
    if (vm->sandbox) return lang_raise(vm, LANG_ERR_IO, "remove() is not available here");
    if (unlink(p) != 0) return os_error(vm, errno, p);
    *out = lang_none();
    return true;
}

static bool env_get(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val k, dflt = lang_none();
    const char *key = NULL;
    if (!lang_parse_args(vm, a, "get", "key|default", &k, &dflt) || !str_arg(vm, k, "get", &key))
        return false;
    const char *v = getenv(key);
    if (!v) {
        *out = lang_val_retain(dflt);
        return true;
    }
    return lang_str_from_cstr(vm, v, out);
}

static bool o_getenv(lang_vm *vm, const lang_args *a, lang_val *out) {
    return env_get(vm, a, out);
}

static const lang_builtin_def path_functions[] = {
    {"join", p_join, {"os.path.join", "join(a, *p)", "Join path parts with '/'.", ""}},
    {"exists", p_exists, {"os.path.exists", "exists(path)", "Whether the path exists.", ""}},
    {"isfile", p_isfile, {"os.path.isfile", "isfile(path)", "Whether it is a regular file.", ""}},
    {"isdir", p_isdir, {"os.path.isdir", "isdir(path)", "Whether it is a directory.", ""}},
    {"getsize", p_getsize, {"os.path.getsize", "getsize(path)", "The size in bytes.", ""}},
    {"basename", p_basename, {"os.path.basename", "basename(p)", "The last component.", ""}},
    {"dirname", p_dirname, {"os.path.dirname", "dirname(p)", "All but the last component.", ""}},
    {"split", p_split, {"os.path.split", "split(p)", "(head, tail).", ""}},
    {"splitext", p_splitext, {"os.path.splitext", "splitext(p)", "(root, extension).", ""}},
    {"abspath", p_abspath, {"os.path.abspath", "abspath(path)", "An absolute path.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_builtin_def os_functions[] = {
    {"getcwd", o_getcwd, {"os.getcwd", "getcwd()", "The current directory.", ""}},
    {"listdir", o_listdir, {"os.listdir", "listdir(path='.')", "The names in a directory.", ""}},
    {"makedirs",
     o_makedirs,
     {"os.makedirs", "makedirs(name, exist_ok=False)", "Make a directory and its parents.", ""}},
    {"mkdir", o_mkdir, {"os.mkdir", "mkdir(path)", "Make a directory.", ""}},
    {"remove", o_remove, {"os.remove", "remove(path)", "Delete a file.", ""}},
    {"getenv",
     o_getenv,
     {"os.getenv", "getenv(key, default=None)", "An environment variable, or the default.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* os.environ: a record with get() (reading only). */
static bool os_init(lang_vm *vm, lang_val mod) {
    lang_val env, getf, sep;
    static const lang_help get_help = {"os.environ.get", "get(key, default=None)",
                                       "An environment variable, or the default.", ""};
    if (!lang_record_new(vm, "environ", &env)) return false;
    bool ok = lang_builtin_new(vm, env_get, &get_help, &getf);
    if (ok) {
        ok = lang_record_set(vm, env, "get", getf);
        lang_val_release(getf);
    }
    if (ok) ok = lang_module_set(vm, mod, "environ", env);
    lang_val_release(env);
    if (ok && (ok = lang_str_from_cstr(vm, "/", &sep))) {
        ok = lang_module_set(vm, mod, "sep", sep);
        lang_val_release(sep);
    }
    return ok;
}

/* ------------------------------------------------------------------ json */

static void json_str(const char *s, size_t n, lang_buf *out, bool ascii) {
    lang_buf_add(out, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': lang_buf_puts(out, "\\\""); break;
        case '\\': lang_buf_puts(out, "\\\\"); break;
        case '\n': lang_buf_puts(out, "\\n"); break;
        case '\r': lang_buf_puts(out, "\\r"); break;
        case '\t': lang_buf_puts(out, "\\t"); break;
        case '\b': lang_buf_puts(out, "\\b"); break;
        case '\f': lang_buf_puts(out, "\\f"); break;
        default:
            if (c < 0x20) {
                lang_buf_printf(out, "\\u%04x", c);
            } else if (c >= 0x80 && ascii) {
                /* Decode one UTF-8 sequence to \uXXXX (with surrogates). */
                size_t len = lang_utf8_char_len(c);
                uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
                for (size_t k = 1; k < len && i + k < n; k++) cp = (cp << 6) | (s[i + k] & 0x3F);
                i += len - 1;
                if (cp >= 0x10000) {
                    cp -= 0x10000;
                    lang_buf_printf(out, "\\u%04x\\u%04x", 0xD800 + (cp >> 10),
                                    0xDC00 + (cp & 0x3FF));
                } else {
                    lang_buf_printf(out, "\\u%04x", cp);
                }
            } else {
                lang_buf_add(out, (const char *)&c, 1);
            }
        }
    }
    lang_buf_add(out, "\"", 1);
}

typedef struct json_opts {
    int indent; /* -1: one line */
    const char *item_sep, *key_sep;
    bool ascii, sort_keys;
} json_opts;

static void newline_indent(lang_buf *out, const json_opts *o, int depth) {
    if (o->indent < 0) return;
    lang_buf_add(out, "\n", 1);
    for (int k = 0; k < depth * o->indent; k++) lang_buf_add(out, " ", 1);
}

static bool json_dump(lang_vm *vm, lang_val v, const json_opts *o, int depth, lang_buf *out) {
    if (depth > 200) return lang_raise(vm, LANG_ERR_VALUE, "Circular reference detected");
    switch (v.kind) {
    case LANG_NONE: lang_buf_puts(out, "null"); return true;
    case LANG_BOOL: lang_buf_puts(out, v.u.b ? "true" : "false"); return true;
    case LANG_INT: lang_buf_printf(out, "%" PRId64, v.u.i); return true;
    case LANG_FLOAT:
        if (isnan(v.u.f))
            lang_buf_puts(out, "NaN");
        else if (isinf(v.u.f))
            lang_buf_puts(out, v.u.f > 0 ? "Infinity" : "-Infinity");
        else
            lang_float_repr(v.u.f, out);
        return true;
    case LANG_OBJ: break;
    }
    if (lang_is_str(v)) {
        json_str(lang_str_cstr(v), S(v)->len, out, o->ascii);
        return true;
    }
    if (lang_is_seq(v)) {
        int64_t n = lang_seq_len(v);
        lang_buf_add(out, "[", 1);
        for (int64_t k = 0; k < n; k++) {
            if (k) lang_buf_puts(out, o->item_sep);
            newline_indent(out, o, depth + 1);
            if (!json_dump(vm, lang_seq_items(v)[k], o, depth + 1, out)) return false;
        }
        if (n) newline_indent(out, o, depth);
        lang_buf_add(out, "]", 1);
        return true;
    }
    if (lang_is_dict(v)) {
        lang_val keys;
        if (!lang_list_new(vm, 0, &keys)) return false;
        lang_dict_obj *d = D(v);
        for (int64_t k = 0; k < d->nent; k++)
            if (d->entries[k].live && !lang_list_append(vm, keys, d->entries[k].key)) {
                lang_val_release(keys);
                return false;
            }
        if (o->sort_keys && !lang_sort_list(vm, keys, lang_none(), false)) {
            lang_val_release(keys);
            return false;
        }
        lang_buf_add(out, "{", 1);
        bool ok = true;
        for (int64_t k = 0; ok && k < lang_seq_len(keys); k++) {
            lang_val key = lang_seq_items(keys)[k], val;
            bool found;
            if (k) lang_buf_puts(out, o->item_sep);
            newline_indent(out, o, depth + 1);
            if (lang_is_str(key)) {
                json_str(lang_str_cstr(key), S(key)->len, out, o->ascii);
            } else if (key.kind == LANG_INT || key.kind == LANG_FLOAT || key.kind == LANG_BOOL ||
                       key.kind == LANG_NONE) {
                lang_buf tmp;
                lang_buf_init(&tmp);
                json_dump(vm, key, o, depth + 1, &tmp);
                json_str(tmp.data ? tmp.data : "", tmp.len, out, o->ascii);
                lang_buf_free(&tmp);
            } else {
                ok = lang_raise(vm, LANG_ERR_TYPE,
                                "keys must be str, int, float, bool or None, not %s",
                                lang_type_name(key));
                break;
            }
            lang_buf_puts(out, o->key_sep);
            ok = lang_dict_get(vm, v, key, &val, &found);
            if (ok) {
                ok = json_dump(vm, val, o, depth + 1, out);
                lang_val_release(val);
            }
        }
        if (ok && lang_seq_len(keys)) newline_indent(out, o, depth);
        lang_buf_add(out, "}", 1);
        lang_val_release(keys);
        return ok;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "Object of type %s is not JSON serializable",
                      lang_type_name(v));
}

static bool dump_opts(lang_vm *vm, lang_val indent, lang_val ascii, lang_val sort_keys,
                      lang_val separators, json_opts *o) {
    o->indent = -1;
    o->item_sep = ", ";
    o->key_sep = ": ";
    bool b;
    if (indent.kind != LANG_NONE) {
        int64_t n;
        if (!lang_to_int(vm, indent, "indent", &n)) return false;
        o->indent = n < 0 ? 0 : (int)n;
        o->item_sep = ",";
    }
    if (!lang_to_bool(vm, ascii, "ensure_ascii", &b)) return false;
    o->ascii = b;
    if (!lang_to_bool(vm, sort_keys, "sort_keys", &b)) return false;
    o->sort_keys = b;
    if (separators.kind != LANG_NONE) {
        if (!lang_is_seq(separators) || lang_seq_len(separators) != 2 ||
            !lang_is_str(lang_seq_items(separators)[0]) ||
            !lang_is_str(lang_seq_items(separators)[1]))
            return lang_raise(vm, LANG_ERR_TYPE, "separators must be a (item, key) pair of str");
        o->item_sep = lang_str_cstr(lang_seq_items(separators)[0]);
        o->key_sep = lang_str_cstr(lang_seq_items(separators)[1]);
    }
    return true;
}

static bool j_dumps(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v, skip = lang_bool(false), ascii = lang_bool(true), check = lang_bool(true),
                allow = lang_bool(true), cls = lang_none(), indent = lang_none(),
                seps = lang_none(), dflt = lang_none(), sort_keys = lang_bool(false);
    if (!lang_parse_args(vm, a, "dumps",
                         "obj|skipkeys,ensure_ascii,check_circular,allow_nan,cls,indent,"
                         "separators,default,sort_keys",
                         &v, &skip, &ascii, &check, &allow, &cls, &indent, &seps, &dflt,
                         &sort_keys))
        return false;
    json_opts o;
    if (!dump_opts(vm, indent, ascii, sort_keys, seps, &o)) return false;
    lang_buf b;
    lang_buf_init(&b);
    if (!json_dump(vm, v, &o, 0, &b)) {
        lang_buf_free(&b);
        return false;
    }
    return lang_str_from_buf(vm, &b, out);
}

static bool j_dump(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val v, fp, skip = lang_bool(false), ascii = lang_bool(true), check = lang_bool(true),
                    allow = lang_bool(true), cls = lang_none(), indent = lang_none(),
                    seps = lang_none(), dflt = lang_none(), sort_keys = lang_bool(false);
    if (!lang_parse_args(vm, a, "dump",
                         "obj,fp|skipkeys,ensure_ascii,check_circular,allow_nan,cls,indent,"
                         "separators,default,sort_keys",
                         &v, &fp, &skip, &ascii, &check, &allow, &cls, &indent, &seps, &dflt,
                         &sort_keys))
        return false;
    json_opts o;
    if (!dump_opts(vm, indent, ascii, sort_keys, seps, &o)) return false;
    lang_buf b;
    lang_buf_init(&b);
    bool ok = json_dump(vm, v, &o, 0, &b) && lang_std_write_to(vm, fp, b.data ? b.data : "", b.len);
    lang_buf_free(&b);
    if (ok) *out = lang_none();
    return ok;
}

typedef struct jparser {
    const char *s, *p, *end;
} jparser;

static bool jerr(lang_vm *vm, jparser *j, const char *what) {
    int line = 1, col = 1;
    for (const char *q = j->s; q < j->p; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return lang_raise_named(vm, LANG_ERR_VALUE, "JSONDecodeError",
                            "%s: line %d column %d (char %d)", what, line, col, (int)(j->p - j->s));
}

static void jws(jparser *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

static void put_utf8(lang_buf *b, uint32_t cp) {
    char c[4];
    int n;
    if (cp < 0x80) {
        c[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        c[0] = (char)(0xC0 | (cp >> 6));
        c[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        c[0] = (char)(0xE0 | (cp >> 12));
        c[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        c[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        c[0] = (char)(0xF0 | (cp >> 18));
        c[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        c[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        c[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    lang_buf_add(b, c, (size_t)n);
}

static bool jvalue(lang_vm *vm, jparser *j, lang_val *out, int depth);

static bool jstring(lang_vm *vm, jparser *j, lang_val *out) {
    j->p++; /* the quote */
    lang_buf b;
    lang_buf_init(&b);
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if (c != '\\') {
            if ((unsigned char)c < 0x20) {
                lang_buf_free(&b);
                j->p--;
                return jerr(vm, j, "Invalid control character at");
            }
            lang_buf_add(&b, &c, 1);
            continue;
        }
        if (j->p >= j->end) break;
        c = *j->p++;
        switch (c) {
        case 'n': lang_buf_add(&b, "\n", 1); break;
        case 't': lang_buf_add(&b, "\t", 1); break;
        case 'r': lang_buf_add(&b, "\r", 1); break;
        case 'b': lang_buf_add(&b, "\b", 1); break;
        case 'f': lang_buf_add(&b, "\f", 1); break;
        case '/': lang_buf_add(&b, "/", 1); break;
        case '\\': lang_buf_add(&b, "\\", 1); break;
        case '"': lang_buf_add(&b, "\"", 1); break;
        case 'u': {
            uint32_t cp = 0;
            for (int k = 0; k < 4; k++) {
                if (j->p >= j->end) break;
                char h = *j->p++;
                cp = cp * 16 + (uint32_t)(h >= '0' && h <= '9'   ? h - '0'
                                          : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                          : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                                 : 0);
            }
            if (cp >= 0xD800 && cp < 0xDC00 && j->p + 6 <= j->end && j->p[0] == '\\' &&
                j->p[1] == 'u') {
                uint32_t lo =
                    (uint32_t)strtoul((char[]){j->p[2], j->p[3], j->p[4], j->p[5], 0}, NULL, 16);
                j->p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(&b, cp);
            break;
        }
        default:
            lang_buf_free(&b);
            j->p--;
            return jerr(vm, j, "Invalid \\escape");
        }
    }
    if (j->p >= j->end) {
        lang_buf_free(&b);
        return jerr(vm, j, "Unterminated string starting at");
    }
    j->p++;
    return lang_str_from_buf(vm, &b, out);
}

static bool jvalue(lang_vm *vm, jparser *j, lang_val *out, int depth) {
    if (depth > 500) return jerr(vm, j, "Too deeply nested");
    jws(j);
    if (j->p >= j->end) return jerr(vm, j, "Expecting value");
    char c = *j->p;
    if (c == '"') return jstring(vm, j, out);
    if (c == '{') {
        j->p++;
        if (!lang_dict_new(vm, out)) return false;
        jws(j);
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            return true;
        }
        for (;;) {
            jws(j);
            if (j->p >= j->end || *j->p != '"') {
                lang_val_release(*out);
                return jerr(vm, j, "Expecting property name enclosed in double quotes");
            }
            lang_val k, v;
            if (!jstring(vm, j, &k)) {
                lang_val_release(*out);
                return false;
            }
            jws(j);
            if (j->p >= j->end || *j->p != ':') {
                lang_val_release(k);
                lang_val_release(*out);
                return jerr(vm, j, "Expecting ':' delimiter");
            }
            j->p++;
            if (!jvalue(vm, j, &v, depth + 1)) {
                lang_val_release(k);
                lang_val_release(*out);
                return false;
            }
            bool ok = lang_dict_set(vm, *out, k, v);
            lang_val_release(k);
            lang_val_release(v);
            if (!ok) {
                lang_val_release(*out);
                return false;
            }
            jws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == '}') {
                j->p++;
                return true;
            }
            lang_val_release(*out);
            return jerr(vm, j, "Expecting ',' delimiter");
        }
    }
    if (c == '[') {
        j->p++;
        if (!lang_list_new(vm, 0, out)) return false;
        jws(j);
        if (j->p < j->end && *j->p == ']') {
            j->p++;
            return true;
        }
        for (;;) {
            lang_val v;
            if (!jvalue(vm, j, &v, depth + 1)) {
                lang_val_release(*out);
                return false;
            }
            bool ok = lang_list_append(vm, *out, v);
            lang_val_release(v);
            if (!ok) {
                lang_val_release(*out);
                return false;
            }
            jws(j);
            if (j->p < j->end && *j->p == ',') {
                j->p++;
                continue;
            }
            if (j->p < j->end && *j->p == ']') {
                j->p++;
                return true;
            }
            lang_val_release(*out);
            return jerr(vm, j, "Expecting ',' delimiter");
        }
    }
    static const struct {
        const char *word;
        int kind;
    } words[] = {{"true", 1}, {"false", 2},    {"null", 3},
                 {"NaN", 4},  {"Infinity", 5}, {"-Infinity", 6}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        size_t n = strlen(words[k].word);
        if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, words[k].word, n)) {
            j->p += n;
            switch (words[k].kind) {
            case 1: *out = lang_bool(true); break;
            case 2: *out = lang_bool(false); break;
            case 3: *out = lang_none(); break;
            case 4: *out = lang_float(NAN); break;
            case 5: *out = lang_float(INFINITY); break;
            default: *out = lang_float(-INFINITY); break;
            }
            return true;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        const char *q = j->p;
        bool is_float = false;
        if (*q == '-') q++;
        while (q < j->end && *q >= '0' && *q <= '9') q++;
        if (q < j->end && *q == '.') {
            is_float = true;
            q++;
            while (q < j->end && *q >= '0' && *q <= '9') q++;
        }
        if (q < j->end && (*q == 'e' || *q == 'E')) {
            is_float = true;
            q++;
            if (q < j->end && (*q == '+' || *q == '-')) q++;
            while (q < j->end && *q >= '0' && *q <= '9') q++;
        }
        char num[64];
        size_t n = (size_t)(q - j->p) < sizeof num - 1 ? (size_t)(q - j->p) : sizeof num - 1;
        memcpy(num, j->p, n);
        num[n] = 0;
        j->p = q;
        if (is_float) {
            *out = lang_float(strtod(num, NULL));
        } else {
            errno = 0;
            long long v = strtoll(num, NULL, 10);
            *out = errno ? lang_float(strtod(num, NULL)) : lang_int(v);
        }
        return true;
    }
    return jerr(vm, j, "Expecting value");
}

static bool json_parse(lang_vm *vm, const char *s, size_t n, lang_val *out) {
    jparser j = {s, s, s + n};
    if (!jvalue(vm, &j, out, 0)) return false;
    jws(&j);
    if (j.p != j.end) {
        lang_val_release(*out);
        return jerr(vm, &j, "Extra data");
    }
    return true;
}

static bool j_loads(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val s;
    if (!lang_parse_args(vm, a, "loads", "s", &s)) return false;
    if (!lang_is_str(s))
        return lang_raise(vm, LANG_ERR_TYPE, "the JSON object must be str, not %s",
                          lang_type_name(s));
    return json_parse(vm, lang_str_cstr(s), S(s)->len, out);
}

static bool j_load(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val fp, text, m;
    if (!lang_parse_args(vm, a, "load", "fp", &fp) || !lang_getattr(vm, fp, "read", &m))
        return false;
    lang_args none = {0, NULL, 0, NULL, NULL};
    bool ok = lang_call(vm, m, &none, &text);
    lang_val_release(m);
    if (!ok) return false;
    if (!lang_is_str(text)) {
        lang_val_release(text);
        return lang_raise(vm, LANG_ERR_TYPE, "fp.read() must return str");
    }
    ok = json_parse(vm, lang_str_cstr(text), S(text)->len, out);
    lang_val_release(text);
    return ok;
}

static const lang_builtin_def json_functions[] = {
    {"dumps",
     j_dumps,
     {"json.dumps", "dumps(obj, indent=None, sort_keys=False, separators=None)",
      "The JSON text of dicts, lists, strings, numbers, bools and None.", ""}},
    {"dump", j_dump, {"json.dump", "dump(obj, fp, indent=None)", "Write JSON text to a file.", ""}},
    {"loads", j_loads, {"json.loads", "loads(s)", "Parse JSON text.", ""}},
    {"load", j_load, {"json.load", "load(fp)", "Parse the JSON text of a file.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* ------------------------------------------------------------------ collections */

static bool c_ordereddict(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_dict_new(vm, out)) return false;
    if (!lang_dict_update(vm, *out, a)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool c_defaultdict(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val factory = a->n ? a->pos[0] : lang_none();
    if (factory.kind != LANG_NONE && !(factory.kind == LANG_OBJ && factory.u.o->type->call))
        return lang_raise(vm, LANG_ERR_TYPE, "first argument must be callable or None");
    if (!lang_dict_new(vm, out)) return false;
    ((lang_dict_obj *)out->u.o)->default_factory = lang_val_retain(factory);
    lang_args rest = {a->n ? a->n - 1 : 0, a->pos + (a->n ? 1 : 0), a->nkw, a->kwnames, a->kw};
    if ((rest.n || rest.nkw) && !lang_dict_update(vm, *out, &rest)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool c_counter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val src = lang_none();
    if (!lang_parse_args(vm, a, "Counter", "|iterable", &src)) return false;
    if (!lang_dict_new(vm, out)) return false;
    ((lang_dict_obj *)out->u.o)->counter = true;
    if (src.kind == LANG_NONE) return true;
    if (lang_is_dict(src)) {
        lang_args one = {1, &src, 0, NULL, NULL};
        if (lang_dict_update(vm, *out, &one)) return true;
        lang_val_release(*out);
        return false;
    }
    lang_val items;
    if (!lang_list_from_iter(vm, src, &items)) {
        lang_val_release(*out);
        return false;
    }
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(items); k++) {
        lang_val key = lang_seq_items(items)[k], cur;
        bool found;
        ok = lang_dict_get(vm, *out, key, &cur, &found);
        if (ok) ok = lang_dict_set(vm, *out, key, lang_int(found ? cur.u.i + 1 : 1));
    }
    lang_val_release(items);
    if (!ok) lang_val_release(*out);
    return ok;
}

static const lang_builtin_def collections_functions[] = {
    {"OrderedDict",
     c_ordereddict,
     {"collections.OrderedDict", "OrderedDict(*args, **kwargs)",
      "A dict (nndb's dicts keep insertion order, so this is a dict).", ""}},
    {"defaultdict",
     c_defaultdict,
     {"collections.defaultdict", "defaultdict(default_factory=None, ...)",
      "A dict that calls default_factory() for a missing key and stores the result.",
      "d = defaultdict(int); d['a'] += 1"}},
    {"Counter",
     c_counter,
     {"collections.Counter", "Counter(iterable=None)",
      "A dict of counts: a missing key counts 0; most_common(n) lists the largest.",
      "Counter('hello').most_common(1)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* ------------------------------------------------------------------ dataclasses */

/* The annotated names of a dataclass, in order (exec_class stores them). */
static lang_val *dc_fields(lang_vm *vm, lang_val self, lang_class **cls) {
    if (!lang_is_instance(self)) {
        lang_raise(vm, LANG_ERR_TYPE, "a dataclass method needs an instance");
        return NULL;
    }
    *cls = lang_instance_of_val(self)->cls;
    lang_val *f = lang_class_lookup(*cls, "__fields__");
    if (!f || !lang_is_tuple(*f)) {
        lang_raise(vm, LANG_ERR_TYPE, "%s is not a dataclass", (*cls)->name);
        return NULL;
    }
    return f;
}

static bool dc_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_class *cls;
    lang_val *f = a->n ? dc_fields(vm, a->pos[0], &cls) : NULL;
    if (!f) return a->n ? false : lang_raise(vm, LANG_ERR_TYPE, "__init__ needs self");
    int64_t nf = lang_seq_len(*f);
    if (a->n - 1 > nf)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s.__init__() takes %" PRId64 " positional arguments but %d were given",
                          cls->name, nf + 1, a->n);
    for (int k = 0; k < a->nkw; k++) {
        bool known = false;
        for (int64_t j = 0; j < nf && !known; j++)
            known = !strcmp(lang_str_cstr(lang_seq_items(*f)[j]), a->kwnames[k]);
        if (!known)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "%s.__init__() got an unexpected keyword argument '%s'", cls->name,
                              a->kwnames[k]);
    }
    for (int64_t j = 0; j < nf; j++) {
        const char *name = lang_str_cstr(lang_seq_items(*f)[j]);
        lang_val v;
        bool have = false;
        if (j + 1 < a->n) {
            v = a->pos[j + 1];
            have = true;
        }
        for (int k = 0; k < a->nkw && !have; k++)
            if (!strcmp(a->kwnames[k], name)) {
                v = a->kw[k];
                have = true;
            }
        if (!have) {
            lang_val *d = lang_class_lookup(cls, name);
            if (!d)
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "%s.__init__() missing 1 required positional argument: '%s'",
                                  cls->name, name);
            v = *d;
        }
        if (!lang_ns_set(vm, &lang_instance_of_val(a->pos[0])->attrs, name, v)) return false;
    }
    lang_val *post = lang_class_lookup(cls, "__post_init__");
    if (post) {
        lang_val r;
        lang_args pa = {1, a->pos, 0, NULL, NULL};
        if (!lang_call(vm, *post, &pa, &r)) return false;
        lang_val_release(r);
    }
    *out = lang_none();
    return true;
}

static bool dc_repr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_class *cls;
    lang_val *f = a->n ? dc_fields(vm, a->pos[0], &cls) : NULL;
    if (!f) return false;
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "%s(", cls->name);
    for (int64_t j = 0; j < lang_seq_len(*f); j++) {
        const char *name = lang_str_cstr(lang_seq_items(*f)[j]);
        lang_val v;
        if (!lang_getattr(vm, a->pos[0], name, &v)) {
            lang_buf_free(&b);
            return false;
        }
        lang_buf_printf(&b, "%s%s=", j ? ", " : "", name);
        bool ok = lang_repr(vm, v, &b);
        lang_val_release(v);
        if (!ok) {
            lang_buf_free(&b);
            return false;
        }
    }
    lang_buf_puts(&b, ")");
    return lang_str_from_buf(vm, &b, out);
}

static bool dc_eq(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_class *cls;
    lang_val *f = a->n == 2 ? dc_fields(vm, a->pos[0], &cls) : NULL;
    if (!f) return false;
    if (!lang_is_instance(a->pos[1]) || lang_instance_of_val(a->pos[1])->cls != cls) {
        *out = lang_bool(false);
        return true;
    }
    bool eq = true;
    for (int64_t j = 0; eq && j < lang_seq_len(*f); j++) {
        const char *name = lang_str_cstr(lang_seq_items(*f)[j]);
        lang_val x, y;
        if (!lang_getattr(vm, a->pos[0], name, &x)) return false;
        if (!lang_getattr(vm, a->pos[1], name, &y)) {
            lang_val_release(x);
            return false;
        }
        bool ok = lang_equal(vm, x, y, &eq);
        lang_val_release(x);
        lang_val_release(y);
        if (!ok) return false;
    }
    *out = lang_bool(eq);
    return true;
}

static const lang_help dc_init_help = {"dataclass.__init__", "__init__(self, *fields)",
                                       "Set each field from the arguments or its default.", ""};
static const lang_help dc_repr_help = {"dataclass.__repr__", "__repr__(self)",
                                       "Name(field=value, ...).", ""};
static const lang_help dc_eq_help = {"dataclass.__eq__", "__eq__(self, other)",
                                     "Equal when every field is.", ""};

static bool d_dataclass(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n == 0) { /* @dataclass(frozen=True, ...): the options change nothing here */
        lang_val *self = lang_vm_global(vm, "__nndb_dataclass");
        if (!self) return lang_raise(vm, LANG_ERR_RUNTIME, "dataclass is missing");
        *out = lang_val_retain(*self);
        return true;
    }
    lang_val c = a->pos[0];
    if (!lang_is_class(c))
        return lang_raise(vm, LANG_ERR_TYPE, "dataclass() takes a class, not %s",
                          lang_type_name(c));
    lang_class *cls = lang_class_of_val(c);
    if (!lang_ns_find(&cls->dict, "__fields__", lang_name_hash("__fields__", 10))) {
        lang_val t;
        if (!lang_tuple_new(vm, 0, &t)) return false;
        bool ok = lang_ns_set(vm, &cls->dict, "__fields__", t);
        lang_val_release(t);
        if (!ok) return false;
    }
    static const struct {
        const char *name;
        lang_builtin_fn fn;
        const lang_help *help;
    } m[] = {{"__init__", dc_init, &dc_init_help},
             {"__repr__", dc_repr, &dc_repr_help},
             {"__eq__", dc_eq, &dc_eq_help}};
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        if (lang_ns_find(&cls->dict, m[k].name, lang_name_hash(m[k].name, strlen(m[k].name))))
            continue; /* the class's own method wins */
        lang_val f;
        if (!lang_builtin_new(vm, m[k].fn, m[k].help, &f)) return false;
        bool ok = lang_ns_set(vm, &cls->dict, m[k].name, f);
        lang_val_release(f);
        if (!ok) return false;
    }
    *out = lang_val_retain(c);
    return true;
}

static const lang_builtin_def dataclasses_functions[] = {
    {"dataclass",
     d_dataclass,
     {"dataclasses.dataclass", "@dataclass",
      "Give a class whose body annotates fields (name: type = default) an __init__, __repr__ "
      "and __eq__ over those fields.",
      "@dataclass\nclass Config:\n    n_layer: int = 2"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool dataclasses_init(lang_vm *vm, lang_val mod) {
    lang_val f;
    if (!lang_getattr(vm, mod, "dataclass", &f)) return false;
    bool ok = lang_vm_set_builtin(vm, "__nndb_dataclass", f);
    lang_val_release(f);
    return ok;
}

/* ------------------------------------------------------------------ warnings */

bool lang_std_warn(lang_vm *vm, const char *category, const char *text) {
    if (vm->warnings_off) return true;
    const char *file = vm->file ? vm->file : "<input>";
    char abs[4096];
    if (file[0] != '<' && realpath(file, abs)) file = abs;
    int line = vm->line;
    lang_buf key;
    lang_buf_init(&key);
    lang_buf_printf(&key, "%s:%d:%s:%s", file, line, category, text);
    if (vm->warned.kind == LANG_NONE && !lang_dict_new(vm, &vm->warned)) {
        lang_buf_free(&key);
        return false;
    }
    lang_val k, dummy;
    bool found;
    if (!lang_str_from_buf(vm, &key, &k)) return false;
    bool ok = lang_dict_get(vm, vm->warned, k, &dummy, &found);
    if (ok && found) lang_val_release(dummy);
    if (ok && !found) ok = lang_dict_set(vm, vm->warned, k, lang_bool(true));
    lang_val_release(k);
    if (!ok || found) return ok;
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "%s:%d: %s: %s\n", file, line, category, text);
    size_t n;
    const char *src = lang_vm_source_line(vm, line, &n);
    if (src) {
        while (n && (*src == ' ' || *src == '\t')) src++, n--;
        lang_buf_puts(&b, "  ");
        lang_buf_add(&b, src, n);
        lang_buf_puts(&b, "\n");
    }
    lang_vm_write(vm, LANG_STDERR, b.data ? b.data : "", b.len);
    lang_buf_free(&b);
    return true;
}

static bool w_warn(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val msg, cat = lang_none(), level = lang_int(1), source = lang_none();
    if (!lang_parse_args(vm, a, "warn", "message|category,stacklevel,source", &msg, &cat, &level,
                         &source))
        return false;
    const char *cname = "UserWarning";
    lang_buf text;
    lang_buf_init(&text);
    if (lang_is_instance(msg) && lang_instance_of_val(msg)->cls->flags & LANG_CLASS_EXCEPTION)
        cname = lang_instance_of_val(msg)->cls->name; /* warn(UserWarning("x")) */
    if (lang_is_class(cat)) {
        lang_class *c = lang_class_of_val(cat);
        lang_class *w = lang_builtin_class(vm, "Warning");
        if (!w || !lang_class_is_subclass(c, w)) {
            lang_buf_free(&text);
            return lang_raise(vm, LANG_ERR_TYPE, "category must be a Warning subclass, not '%s'",
                              c->name);
        }
        cname = c->name;
    } else if (cat.kind != LANG_NONE) {
        lang_buf_free(&text);
        return lang_raise(vm, LANG_ERR_TYPE, "category must be a Warning subclass, not '%s'",
                          lang_type_name(cat));
    }
    if (!lang_str(vm, msg, &text)) {
        lang_buf_free(&text);
        return false;
    }
    bool ok = lang_std_warn(vm, cname, text.data ? text.data : "");
    lang_buf_free(&text);
    if (ok) *out = lang_none();
    return ok;
}

static bool w_filter(lang_vm *vm, const lang_args *a, lang_val *out) {
    /* filterwarnings / simplefilter: "ignore" silences, anything else shows. */
    lang_val action = a->n ? a->pos[0] : lang_none();
    for (int k = 0; k < a->nkw && !a->n; k++)
        if (!strcmp(a->kwnames[k], "action")) action = a->kw[k];
    if (!lang_is_str(action))
        return lang_raise(vm, LANG_ERR_TYPE, "the warnings action must be a str");
    vm->warnings_off = !strcmp(lang_str_cstr(action), "ignore");
    *out = lang_none();
    return true;
}

static const lang_builtin_def warnings_functions[] = {
    {"warn",
     w_warn,
     {"warnings.warn", "warn(message, category=UserWarning, stacklevel=1)",
      "Show 'file:line: Category: message' and the line on stderr, once per place.",
      "warnings.warn('lr looks high')"}},
    {"filterwarnings",
     w_filter,
     {"warnings.filterwarnings", "filterwarnings(action, ...)",
      "'ignore' hides warnings; other actions show them (once per place).", ""}},
    {"simplefilter",
     w_filter,
     {"warnings.simplefilter", "simplefilter(action)", "As filterwarnings.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* ------------------------------------------------------------------ the modules */

static const lang_module_def math_module = {
    .name = "math",
    .doc = "Python's math module: functions of floats and ints.",
    .functions = math_functions,
    .init = math_init,
};
static const lang_module_def time_module = {
    .name = "time", .doc = "Clocks and sleep.", .functions = time_functions};
static const lang_module_def sys_module = {
    .name = "sys",
    .doc = "argv, exit, stdout and stderr.",
    .functions = sys_functions,
    .init = sys_init,
};
static const lang_module_def os_module = {
    .name = "os",
    .doc = "Files and directories, environment variables.",
    .functions = os_functions,
    .init = os_init,
};
static const lang_module_def os_path_module = {
    .name = "os.path", .doc = "Path names.", .functions = path_functions};
static const lang_module_def json_module = {
    .name = "json", .doc = "JSON text: dumps, loads, dump, load.", .functions = json_functions};

static const lang_module_def collections_module = {
    .name = "collections",
    .doc = "OrderedDict, defaultdict, Counter.",
    .functions = collections_functions,
};
static const lang_module_def warnings_module = {
    .name = "warnings", .doc = "warn, filterwarnings.", .functions = warnings_functions};
static const lang_module_def dataclasses_module = {
    .name = "dataclasses",
    .doc = "@dataclass: __init__, __repr__ and __eq__ from annotated fields.",
    .functions = dataclasses_functions,
    .init = dataclasses_init,
};
/* random is issue 12's lang_random.c: the session builtin `random` is the
 * module object itself. */
static const lang_module_def random_module = {
    .name = "random",
    .doc = "Python's random module (the same numbers as CPython's for a seed).",
    .alias = "random",
};

const lang_module_def *const lang_std_modules[] = {
    &math_module, &time_module,        &sys_module,    &os_module,          &os_path_module,
    &json_module, &collections_module, &random_module, &dataclasses_module, &warnings_module,
    NULL,
};

/* ------------------------------------------------------------------ iteration builtins */

/* map and filter are lazy iterators, as Python's (lang_iter.c). */
static bool b_map(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->nkw) return lang_raise(vm, LANG_ERR_TYPE, "map() takes no keyword arguments");
    if (a->n < 2) return lang_raise(vm, LANG_ERR_TYPE, "map() must have at least two arguments.");
    return lang_map_new(vm, a->pos[0], a->n - 1, a->pos + 1, out);
}

static bool b_filter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val fn, it;
    if (!lang_parse_args(vm, a, "filter", "function,iterable", &fn, &it)) return false;
    return lang_filter_new(vm, fn, it, out);
}

static bool b_iter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "iter", "object", &x)) return false;
    return lang_iter(vm, x, out);
}

static bool b_next(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val it, dflt;
    if (!lang_parse_args(vm, a, "next", "iterator|default", &it, &dflt)) return false;
    if (it.kind != LANG_OBJ || !it.u.o->type->next)
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not an iterator", lang_type_name(it));
    bool done;
    if (!lang_next(vm, it, out, &done)) return false;
    if (!done) return true;
    if (a->n > 1) {
        *out = lang_val_retain(dflt);
        return true;
    }
    return lang_raise_named(vm, LANG_ERR_RUNTIME, "StopIteration", "%s", "");
}

static bool base_str(lang_vm *vm, const lang_args *a, const char *fname, int base,
                     const char *prefix, lang_val *out) {
    lang_val v;
    int64_t x;
    if (!lang_parse_args(vm, a, fname, "number", &v) || !lang_to_int(vm, v, "number", &x))
        return false;
    char buf[80], *p = buf + sizeof buf;
    *--p = 0;
    uint64_t u = x < 0 ? (uint64_t)(-(x + 1)) + 1 : (uint64_t)x;
    do {
        *--p = "0123456789abcdef"[u % (uint64_t)base];
        u /= (uint64_t)base;
    } while (u);
    p -= strlen(prefix);
    memcpy(p, prefix, strlen(prefix));
    if (x < 0) *--p = '-';
    return lang_str_from_cstr(vm, p, out);
}

static bool b_bin(lang_vm *vm, const lang_args *a, lang_val *out) {
    return base_str(vm, a, "bin", 2, "0b", out);
}
static bool b_oct(lang_vm *vm, const lang_args *a, lang_val *out) {
    return base_str(vm, a, "oct", 8, "0o", out);
}
static bool b_hex(lang_vm *vm, const lang_args *a, lang_val *out) {
    return base_str(vm, a, "hex", 16, "0x", out);
}

static bool b_id(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "id", "object", &x)) return false;
    /* Objects by address; small values by their bits (they have no identity). */
    *out = lang_int(x.kind == LANG_OBJ ? (int64_t)(uintptr_t)x.u.o : x.u.i);
    return true;
}

static bool b_hash(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    int64_t h;
    if (!lang_parse_args(vm, a, "hash", "object", &x) || !lang_hash(vm, x, &h)) return false;
    *out = lang_int(h);
    return true;
}

const lang_builtin_def lang_std_builtins[] = {
    {"map",
     b_map,
     {"map", "map(function, iterable, ...)",
      "function applied to each item, lazily (an iterator, as Python's).",
      "list(map(str, [1, 2]))"}},
    {"filter",
     b_filter,
     {"filter", "filter(function, iterable)",
      "The items for which function is true, lazily (an iterator).",
      "list(filter(None, [0, 1, 2]))"}},
    {"iter", b_iter, {"iter", "iter(object)", "An iterator over object.", "next(iter([1, 2]))"}},
    {"next",
     b_next,
     {"next", "next(iterator, default)", "The next item; default (or StopIteration) at the end.",
      "next(iter([]), 0)"}},
    {"bin", b_bin, {"bin", "bin(number)", "'0b...' text of an int.", "bin(5)"}},
    {"oct", b_oct, {"oct", "oct(number)", "'0o...' text of an int.", "oct(8)"}},
    {"hex", b_hex, {"hex", "hex(number)", "'0x...' text of an int.", "hex(255)"}},
    {"id", b_id, {"id", "id(object)", "An int that identifies the object while it lives.", ""}},
    {"hash", b_hash, {"hash", "hash(object)", "The hash of a hashable value.", "hash('a')"}},
    {"open",
     b_open,
     {"open", "open(file, mode='r', encoding=None)",
      "Open a text file (UTF-8) for reading ('r'), writing ('w') or appending ('a'); use it in a "
      "with block, or call close().",
      "with open('out.txt', 'w') as f:\n    f.write('hello\\n')"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
