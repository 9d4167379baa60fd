/* lang_number: int and float: Python's float repr, format specs (the part
 * after ':' in f-strings and str.format), and the arithmetic and
 * comparison operators, with lang_binary dispatching every binary and
 * unary operator (numbers inline, then the types' binop). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_eval.h"
#include "lang_value_impl.h"
#include "nn_ctx.h"
/* ------------------------------------------------------------------ number formatting */

/* Shortest digits that read back as [d], in Python's repr layout: fixed
 * notation for exponents -4 <= e < 16, scientific otherwise. */
void lang_float_repr(double d, lang_buf *out) {
    if (isnan(d)) {
        lang_buf_puts(out, "nan");
        return;
    }
    if (isinf(d)) {
        lang_buf_puts(out, d < 0 ? "-inf" : "inf");
        return;
    }
    char tmp[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
        if (strtod(tmp, NULL) == d) break;
    }
    /* tmp is "-d.ddde+XX": split into sign, digits and exponent. */
    const char *p = tmp;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    char digits[32];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    int decpt = exp10 + 1; /* value = 0.DIGITS * 10^decpt */
    if (neg) lang_buf_add(out, "-", 1);
    if (decpt > 16 || decpt < -3) {
        lang_buf_add(out, digits, 1);
        if (nd > 1) {
            lang_buf_add(out, ".", 1);
            lang_buf_add(out, digits + 1, (size_t)nd - 1);
        }
        lang_buf_printf(out, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    } else if (decpt <= 0) {
        lang_buf_puts(out, "0.");
        for (int i = 0; i < -decpt; i++) lang_buf_add(out, "0", 1);
        lang_buf_add(out, digits, (size_t)nd);
    } else if (decpt >= nd) {
        lang_buf_add(out, digits, (size_t)nd);
        for (int i = nd; i < decpt; i++) lang_buf_add(out, "0", 1);
        lang_buf_puts(out, ".0");
    } else {
        lang_buf_add(out, digits, (size_t)decpt);
        lang_buf_add(out, ".", 1);
        lang_buf_add(out, digits + decpt, (size_t)(nd - decpt));
    }
}

bool lang_fmt_parse(lang_vm *vm, const char *s, size_t n, lang_fmt_spec *f) {
    memset(f, 0, sizeof *f);
    strcpy(f->fill, " ");
    f->width = f->precision = -1;
    size_t i = 0;
    size_t cl = n ? lang_utf8_char_len((unsigned char)s[0]) : 0;
    if (n > cl && cl <= 4 && strchr("<>^=", s[cl])) {
        memcpy(f->fill, s, cl);
        f->fill[cl] = 0;
        f->align = s[cl];
        i = cl + 1;
    } else if (n > 0 && strchr("<>^=", s[0])) {
        f->align = s[0];
        i = 1;
    }
    if (i < n && strchr("+- ", s[i])) f->sign = s[i++];
    if (i < n && s[i] == '#') f->alt = true, i++;
    if (i < n && s[i] == '0') f->zero = true, i++;
    if (i < n && s[i] >= '0' && s[i] <= '9') {
        f->width = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            f->width = f->width * 10 + (s[i++] - '0');
            if (f->width > 100000)
                return lang_raise(vm, LANG_ERR_VALUE, "Too many decimal digits in format string");
        }
    }
    if (i < n && (s[i] == ',' || s[i] == '_')) f->group = s[i++];
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || s[i] < '0' || s[i] > '9')
            return lang_raise(vm, LANG_ERR_VALUE, "Format specifier missing precision");
        f->precision = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            f->precision = f->precision * 10 + (s[i++] - '0');
            if (f->precision > 1000) return lang_raise(vm, LANG_ERR_VALUE, "precision too big");
        }
    }
    if (i < n) f->type = s[i++];
    if (i < n) return lang_raise(vm, LANG_ERR_VALUE, "Invalid format specifier '%.*s'", (int)n, s);
    if (f->zero && !f->align) {
        f->align = '=';
        strcpy(f->fill, "0");
    }
    return true;
}

/* Pad [sign][prefix][body] to the spec's width. */
void lang_fmt_pad(const lang_fmt_spec *f, char default_align, const char *sign, const char *body,
                  size_t body_len, lang_buf *out) {
    size_t blen = lang_utf8_count(body, body_len) + strlen(sign);
    int64_t padn = f->width > (int64_t)blen ? f->width - (int64_t)blen : 0;
    char align = f->align ? f->align : default_align;
    int64_t left = 0, right = 0;
    if (align == '<')
        right = padn;
    else if (align == '^')
        left = padn / 2, right = padn - padn / 2;
    else
        left = padn;
    if (align == '=') {
        lang_buf_puts(out, sign);
        for (int64_t k = 0; k < left; k++) lang_buf_puts(out, f->fill);
        lang_buf_add(out, body, body_len);
        return;
    }
    for (int64_t k = 0; k < left; k++) lang_buf_puts(out, f->fill);
    lang_buf_puts(out, sign);
    lang_buf_add(out, body, body_len);
    for (int64_t k = 0; k < right; k++) lang_buf_puts(out, f->fill);
}

/* Insert [sep] every three digits of the leading run of digits. */
static void group_digits(const char *s, char sep, lang_buf *out) {
    size_t nd = 0;
    while (s[nd] >= '0' && s[nd] <= '9') nd++;
    for (size_t i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0) lang_buf_add(out, &sep, 1);
        lang_buf_add(out, s + i, 1);
    }
    lang_buf_puts(out, s + nd);
}

bool lang_fmt_int(lang_vm *vm, int64_t v, const lang_fmt_spec *f, lang_buf *out) {
    if (f->precision >= 0)
        return lang_raise(vm, LANG_ERR_VALUE, "Precision not allowed in integer format specifier");
    char body[160];
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char t = f->type ? f->type : 'd';
    const char *prefix = "";
    switch (t) {
    case 'd':
    case 'n': snprintf(body, sizeof body, "%" PRIu64, mag); break;
    case 'x': snprintf(body, sizeof body, "%" PRIx64, mag), prefix = "0x"; break;
    case 'X': snprintf(body, sizeof body, "%" PRIX64, mag), prefix = "0X"; break;
    case 'o': snprintf(body, sizeof body, "%" PRIo64, mag), prefix = "0o"; break;
    case 'b': {
        int k = 0;
        char tmp[72];
        do {
            tmp[k++] = (char)('0' + (mag & 1));
            mag >>= 1;
        } while (mag);
        for (int i = 0; i < k; i++) body[i] = tmp[k - 1 - i];
        body[k] = 0;
        prefix = "0b";
        break;
    }
    case 'c': {
        lang_buf b;
        lang_buf_init(&b);
        if (v < 0 || v > 0x10FFFF)
            return lang_raise(vm, LANG_ERR_VALUE, "%%c arg not in range(0x110000)");
        char u[5];
        int k = 0;
        if (v < 0x80)
            u[k++] = (char)v;
        else if (v < 0x800)
            u[k++] = (char)(0xC0 | (v >> 6)), u[k++] = (char)(0x80 | (v & 63));
        else if (v < 0x10000)
            u[k++] = (char)(0xE0 | (v >> 12)), u[k++] = (char)(0x80 | ((v >> 6) & 63)),
            u[k++] = (char)(0x80 | (v & 63));
        else
            u[k++] = (char)(0xF0 | (v >> 18)), u[k++] = (char)(0x80 | ((v >> 12) & 63)),
            u[k++] = (char)(0x80 | ((v >> 6) & 63)), u[k++] = (char)(0x80 | (v & 63));
        lang_fmt_pad(f, '<', "", u, (size_t)k, out);
        lang_buf_free(&b);
        return true;
    }
    default:
        return lang_raise(vm, LANG_ERR_VALUE, "Unknown format code '%c' for object of type 'int'",
                          t);
    }
    lang_buf b;
    lang_buf_init(&b);
    if (f->alt) lang_buf_puts(&b, prefix);
    if (f->group)
        group_digits(body, f->group, &b);
    else
        lang_buf_puts(&b, body);
    const char *sign = v < 0 ? "-" : f->sign == '+' ? "+" : f->sign == ' ' ? " " : "";
    lang_fmt_pad(f, '>', sign, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return true;
}

bool lang_fmt_float(lang_vm *vm, double v, const lang_fmt_spec *f, lang_buf *out) {
    char t = f->type;
    int64_t prec = f->precision;
    bool neg = signbit(v) && !isnan(v);
    double mag = fabs(v);
    lang_buf body;
    lang_buf_init(&body);
    char tmp[1200];
    bool upper = t == 'E' || t == 'F' || t == 'G';
    if (isnan(v) || isinf(v)) {
        lang_buf_puts(&body, isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
        if (t == '%') lang_buf_puts(&body, "%");
    } else if (t == 0 && prec < 0) {
        lang_float_repr(mag, &body);
    } else {
        switch (t) {
        case 'f':
        case 'F': snprintf(tmp, sizeof tmp, "%.*f", (int)(prec < 0 ? 6 : prec), mag); break;
        case 'e':
        case 'E':
            snprintf(tmp, sizeof tmp, upper ? "%.*E" : "%.*e", (int)(prec < 0 ? 6 : prec), mag);
            break;
        case '%':
            snprintf(tmp, sizeof tmp, "%.*f%%", (int)(prec < 0 ? 6 : prec), mag * 100.0);
            break;
        case 'g':
        case 'G':
        case 'n':
        case 0: {
            int p = (int)(prec < 0 ? 6 : prec);
            if (p == 0) p = 1;
            snprintf(tmp, sizeof tmp,
                     f->alt ? (upper ? "%#.*G" : "%#.*g") : (upper ? "%.*G" : "%.*g"), p, mag);
            if (t == 0) {
                /* No type with a precision: like 'g', but fixed notation keeps
                 * one digit after the point ('2.0', not '2'). */
                if (!strchr(tmp, 'e') && !strchr(tmp, '.')) strcat(tmp, ".0");
            }
            break;
        }
        default:
            lang_buf_free(&body);
            return lang_raise(vm, LANG_ERR_VALUE,
                              "Unknown format code '%c' for object of type 'float'", t);
        }
        lang_buf_puts(&body, tmp);
    }
    char *text = lang_buf_take(&body);
    lang_buf b;
    lang_buf_init(&b);
    if (f->group)
        group_digits(text, f->group, &b);
    else
        lang_buf_puts(&b, text);
    free(text);
    const char *sign = neg ? "-" : f->sign == '+' ? "+" : f->sign == ' ' ? " " : "";
    lang_fmt_pad(f, '>', sign, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return true;
}

bool lang_format_value(lang_vm *vm, lang_val v, const char *spec, size_t spec_len, lang_buf *out) {
    nn_tensor *t = lang_tensor_of(v);
    if (t && spec_len > 0) {
        /* PyTorch formats a 0-dim tensor through item(); nndb also accepts
         * any one-element tensor, which PyTorch refuses. */
        double d;
        if (nn_tensor_numel(t) != 1)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "unsupported format string passed to Tensor.__format__");
        if (nn_tensor_item(vm->ctx, t, &d) != NN_OK) return lang_raise_engine(vm);
        lang_val item = t->dtype == NN_BOOL         ? lang_bool(d != 0)
                        : nn_dtype_is_int(t->dtype) ? lang_int((int64_t)d)
                                                    : lang_float(d);
        return lang_format_value(vm, item, spec, spec_len, out);
    }
    if (spec_len == 0) return lang_str(vm, v, out);
    lang_fmt_spec f;
    if (!lang_fmt_parse(vm, spec, spec_len, &f)) return false;
    switch (v.kind) {
    case LANG_BOOL:
    case LANG_INT: {
        int64_t i = v.kind == LANG_BOOL ? v.u.b : v.u.i;
        if (f.type && strchr("eEfFgG%", f.type)) return lang_fmt_float(vm, (double)i, &f, out);
        return lang_fmt_int(vm, i, &f, out);
    }
    case LANG_FLOAT: return lang_fmt_float(vm, v.u.f, &f, out);
    default: break;
    }
    if (lang_is_str(v)) {
        if (f.type && f.type != 's')
            return lang_raise(vm, LANG_ERR_VALUE,
                              "Unknown format code '%c' for object of type 'str'", f.type);
        if (f.sign)
            return lang_raise(vm, LANG_ERR_VALUE, "Sign not allowed in string format specifier");
        if (f.align == '=')
            return lang_raise(vm, LANG_ERR_VALUE,
                              "'=' alignment not allowed in string format specifier");
        lang_str_obj *s = S(v);
        size_t n = s->len;
        if (f.precision >= 0 && (size_t)f.precision < s->ncp)
            n = lang_utf8_offset(s->data, s->len, (size_t)f.precision);
        lang_fmt_pad(&f, '<', "", s->data, n, out);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "unsupported format string passed to %s.__format__",
                      lang_type_name(v));
}

/* ------------------------------------------------------------------ numbers */

static const char *op_text(lang_binop op) {
    static const char *const t[] = {"+", "-",  "*",       "/",       "//",     "%", "** or pow()",
                                    "@", "==", "!=",      "<",       "<=",     ">", ">=",
                                    "&", "|",  "unary -", "unary +", "unary ~"};
    return op < LANG_OP_COUNT ? t[op] : "?";
}

static bool overflow(lang_vm *vm) {
    return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                            "integer result does not fit in 64 bits (nndb ints are int64)");
}

static double py_fmod(double a, double b) {
    double m = fmod(a, b);
    if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = copysign(0.0, b);
    }
    return m;
}

static double py_floordiv(double a, double b) {
    double m = fmod(a, b);
    double div = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0))) div -= 1.0;
    double fl;
    if (div != 0) {
        fl = floor(div);
        if (div - fl > 0.5) fl += 1.0;
    } else {
        fl = copysign(0.0, a / b);
    }
    return fl;
}

static bool int_pow(lang_vm *vm, int64_t base, int64_t e, lang_val *out) {
    if (e < 0) {
        if (base == 0)
            return lang_raise(vm, LANG_ERR_ZERO_DIVISION,
                              "0.0 cannot be raised to a negative power");
        *out = lang_float(pow((double)base, (double)e));
        return true;
    }
    int64_t r = 1, b = base;
    while (e) {
        if (e & 1) {
            if (__builtin_mul_overflow(r, b, &r)) return overflow(vm);
        }
        e >>= 1;
        if (e && __builtin_mul_overflow(b, b, &b)) return overflow(vm);
    }
    *out = lang_int(r);
    return true;
}

/* Numbers only; *handled false when an operand is not a number. */
static bool num_binary(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                       bool *handled) {
    *handled = true;
    if (op >= LANG_OP_NEG) {
        if (!lang_is_num(a)) {
            *handled = false;
            return true;
        }
        if (op == LANG_OP_POS)
            *out = a.kind == LANG_BOOL ? lang_int(a.u.b) : a;
        else if (op == LANG_OP_NEG) {
            if (a.kind == LANG_FLOAT)
                *out = lang_float(-a.u.f);
            else if (lang_num_i(a) == INT64_MIN)
                return overflow(vm);
            else
                *out = lang_int(-lang_num_i(a));
        } else {
            if (a.kind == LANG_FLOAT)
                return lang_raise(vm, LANG_ERR_TYPE, "bad operand type for unary ~: 'float'");
            *out = lang_int(~lang_num_i(a));
        }
        return true;
    }
    if (!lang_is_num(a) || !lang_is_num(b)) {
        *handled = false;
        return true;
    }
    if (op >= LANG_OP_EQ && op <= LANG_OP_GE) {
        int c = lang_num_cmp(a, b);
        bool r = false;
        switch (op) {
        case LANG_OP_EQ: r = c == 0; break;
        case LANG_OP_NE: r = c != 0; break;
        case LANG_OP_LT: r = c == -1; break;
        case LANG_OP_LE: r = c == -1 || c == 0; break;
        case LANG_OP_GT: r = c == 1; break;
        case LANG_OP_GE: r = c == 1 || c == 0; break;
        default: break;
        }
        *out = lang_bool(r);
        return true;
    }
    if (op == LANG_OP_AND_BITS || op == LANG_OP_OR_BITS) {
        if (a.kind == LANG_FLOAT || b.kind == LANG_FLOAT)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "unsupported operand type(s) for %s: '%s' and '%s'", op_text(op),
                              lang_type_name(a), lang_type_name(b));
        int64_t r = op == LANG_OP_AND_BITS ? (lang_num_i(a) & lang_num_i(b))
                                           : (lang_num_i(a) | lang_num_i(b));
        *out = (a.kind == LANG_BOOL && b.kind == LANG_BOOL) ? lang_bool(r != 0) : lang_int(r);
        return true;
    }
    if (op == LANG_OP_MATMUL) {
        *handled = false;
        return true;
    }
    if (a.kind != LANG_FLOAT && b.kind != LANG_FLOAT) {
        int64_t x = lang_num_i(a), y = lang_num_i(b), r;
        switch (op) {
        case LANG_OP_ADD:
            if (__builtin_add_overflow(x, y, &r)) return overflow(vm);
            *out = lang_int(r);
            return true;
        case LANG_OP_SUB:
            if (__builtin_sub_overflow(x, y, &r)) return overflow(vm);
            *out = lang_int(r);
            return true;
        case LANG_OP_MUL:
            if (__builtin_mul_overflow(x, y, &r)) return overflow(vm);
            *out = lang_int(r);
            return true;
        case LANG_OP_DIV:
            if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "division by zero");
            *out = lang_float((double)x / (double)y);
            return true;
        case LANG_OP_FLOORDIV:
        case LANG_OP_MOD: {
            if (y == 0)
                return lang_raise(vm, LANG_ERR_ZERO_DIVISION,
                                  op == LANG_OP_MOD ? "integer modulo by zero"
                                                    : "integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) {
                if (op == LANG_OP_MOD) {
                    *out = lang_int(0);
                    return true;
                }
                return overflow(vm);
            }
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) {
                q -= 1;
                m += y;
            }
            *out = lang_int(op == LANG_OP_MOD ? m : q);
            return true;
        }
        case LANG_OP_POW: return int_pow(vm, x, y, out);
        default: break;
        }
    }
    double x = lang_num_f(a), y = lang_num_f(b);
    switch (op) {
    case LANG_OP_ADD: *out = lang_float(x + y); return true;
    case LANG_OP_SUB: *out = lang_float(x - y); return true;
    case LANG_OP_MUL: *out = lang_float(x * y); return true;
    case LANG_OP_DIV:
        if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "float division by zero");
        *out = lang_float(x / y);
        return true;
    case LANG_OP_FLOORDIV:
        if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "float floor division by zero");
        *out = lang_float(py_floordiv(x, y));
        return true;
    case LANG_OP_MOD:
        if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "float modulo");
        *out = lang_float(py_fmod(x, y));
        return true;
    case LANG_OP_POW: {
        if (x == 0 && y < 0)
            return lang_raise(vm, LANG_ERR_ZERO_DIVISION,
                              "0.0 cannot be raised to a negative power");
        if (x < 0 && y != floor(y) && isfinite(y))
            return lang_raise(vm, LANG_ERR_VALUE,
                              "a negative number raised to a fractional power is complex, which "
                              "nndb does not have");
        double r = pow(x, y);
        if (isinf(r) && isfinite(x) && isfinite(y))
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "(34, 'Numerical result out of range')");
        *out = lang_float(r);
        return true;
    }
    default: break;
    }
    *handled = false;
    return true;
}

bool lang_binary(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out) {
    bool handled;
    if (!num_binary(vm, op, a, b, out, &handled)) return false;
    if (handled) return true;
    bool unary = op >= LANG_OP_NEG;
    if (a.kind == LANG_OBJ && a.u.o->type->binop) {
        if (!a.u.o->type->binop(vm, op, a, unary ? lang_none() : b, out, &handled)) return false;
        if (handled) return true;
    }
    if (!unary && b.kind == LANG_OBJ && b.kind == LANG_OBJ && b.u.o->type->binop &&
        (a.kind != LANG_OBJ || b.u.o->type != a.u.o->type)) {
        if (!b.u.o->type->binop(vm, op, a, b, out, &handled)) return false;
        if (handled) return true;
    }
    if (unary)
        return lang_raise(vm, LANG_ERR_TYPE, "bad operand type for %s: '%s'", op_text(op),
                          lang_type_name(a));
    if (op == LANG_OP_EQ || op == LANG_OP_NE) {
        bool eq;
        if (!lang_equal(vm, a, b, &eq)) return false;
        *out = lang_bool(op == LANG_OP_EQ ? eq : !eq);
        return true;
    }
    if (op >= LANG_OP_LT && op <= LANG_OP_GE) {
        bool r;
        static const char *const names[] = {"<", "<=", ">", ">="};
        bool str2 = lang_is_str(a) && lang_is_str(b),
             seq2 = lang_is_seq(a) && lang_is_seq(b) && a.u.o->type == b.u.o->type;
        if (!str2 && !seq2) return lang_cmp_error(vm, names[op - LANG_OP_LT], a, b);
        switch (op) {
        case LANG_OP_LT:
            if (!lang_less(vm, a, b, &r)) return false;
            break;
        case LANG_OP_GT:
            if (!lang_less(vm, b, a, &r)) return false;
            break;
        case LANG_OP_LE:
            if (!lang_less(vm, b, a, &r)) return false;
            r = !r;
            break;
        default:
            if (!lang_less(vm, a, b, &r)) return false;
            r = !r;
            break;
        }
        *out = lang_bool(r);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "unsupported operand type(s) for %s: '%s' and '%s'",
                      op_text(op), lang_type_name(a), lang_type_name(b));
}
