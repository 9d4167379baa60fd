/* lang_lex: the tokenizer (see lang_lex.h). Owned by the parser's author;
 * tokens borrow the source and put decoded text in the caller's arena. */
#include "lang_lex.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- positions ---- */

static bool is_cont(unsigned char c) {
    return (c & 0xC0) == 0x80;
}

lang_pos lang_pos_advance(lang_pos pos, const char *s, size_t n) {
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '\n') {
            pos.line++;
            pos.col = 1;
            pos.ccol = 1;
        } else {
            pos.col++;
            if (!is_cont(c)) pos.ccol++;
        }
    }
    return pos;
}

static int peekc(const lang_lexer *lx, size_t ahead) {
    return lx->i + ahead < lx->len ? (unsigned char)lx->src[lx->i + ahead] : -1;
}

static void adv(lang_lexer *lx) {
    if (lx->i >= lx->len) return;
    lx->pos = lang_pos_advance(lx->pos, lx->src + lx->i, 1);
    lx->i++;
}

static void adv_n(lang_lexer *lx, size_t n) {
    while (n--) adv(lx);
}

static lang_span span_from(lang_pos a, lang_pos b) {
    lang_span s = {a, b};
    return s;
}

static void err(lang_lexer *lx, lang_span sp, bool at_eof, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void err(lang_lexer *lx, lang_span sp, bool at_eof, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (lx->error) lx->error(lx->user, sp, at_eof, msg);
}

/* ---- UTF-8 ---- */

/* Decode one code point at s[0..n); sets *used (>= 1). Invalid sequences
 * give -1 and use one byte. */
static int32_t utf8_decode(const unsigned char *s, size_t n, size_t *used) {
    *used = 1;
    if (n == 0) return -1;
    unsigned c = s[0];
    if (c < 0x80) return (int32_t)c;
    int len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (len == 0 || (size_t)len > n) return -1;
    uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (int k = 1; k < len; k++) {
        if (!is_cont(s[k])) return -1;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *used = (size_t)len;
    return (int32_t)cp;
}

/* Letters of other scripts may appear in names (Python allows them); the
 * punctuation and space blocks may not. No NFKC normalisation is done. */
static bool is_ident_cp(int32_t cp) {
    if (cp < 0xC0) return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
    if (cp == 0xD7 || cp == 0xF7) return false;
    if (cp >= 0x2000 && cp <= 0x2BFF) return false;
    if (cp >= 0x3000 && cp <= 0x303F) return false;
    if (cp >= 0xFE00 && cp <= 0xFE6F) return false;
    if (cp >= 0xFF00 && cp <= 0xFF20) return false;
    if (cp == 0xFEFF) return false;
    return true;
}

static bool is_ident_start_ascii(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_digit(int c) {
    return c >= '0' && c <= '9';
}

/* Length in bytes of an identifier character at src[i], 0 if none. */
static size_t ident_char(const lang_lexer *lx, size_t i, bool first) {
    if (i >= lx->len) return 0;
    unsigned char c = (unsigned char)lx->src[i];
    if (c < 0x80) return (is_ident_start_ascii(c) || (!first && is_digit(c))) ? 1 : 0;
    size_t used;
    int32_t cp = utf8_decode((const unsigned char *)lx->src + i, lx->len - i, &used);
    return cp >= 0 && is_ident_cp(cp) ? used : 0;
}

/* ---- keywords and operators ---- */

#define KW_ROW_(k, t) {t, LANG_TOK_##k},
static const struct {
    const char *text;
    lang_tok kind;
} keywords[] = {LANG_TOK_KEYWORDS(KW_ROW_){NULL, LANG_TOK_EOF}};
static const struct {
    const char *text;
    lang_tok kind;
} operators[] = {LANG_TOK_OPS(KW_ROW_){NULL, LANG_TOK_EOF}};
#undef KW_ROW_

const char *lang_tok_describe(lang_tok kind) {
    switch (kind) {
    case LANG_TOK_EOF: return "end of input";
    case LANG_TOK_NEWLINE: return "end of line";
    case LANG_TOK_INDENT: return "an indent";
    case LANG_TOK_DEDENT: return "an unindent";
    case LANG_TOK_NAME: return "a name";
    case LANG_TOK_INT: return "an integer";
    case LANG_TOK_FLOAT: return "a number";
    case LANG_TOK_STRING: return "a string";
    case LANG_TOK_MAGIC: return "a magic";
    case LANG_TOK_ERROR: return "an invalid character";
    default: break;
    }
    static char quoted[LANG_TOK_COUNT][16];
    for (int k = 0; operators[k].text; k++)
        if (operators[k].kind == kind) {
            snprintf(quoted[kind], sizeof quoted[kind], "'%s'", operators[k].text);
            return quoted[kind];
        }
    for (int k = 0; keywords[k].text; k++)
        if (keywords[k].kind == kind) {
            snprintf(quoted[kind], sizeof quoted[kind], "'%s'", keywords[k].text);
            return quoted[kind];
        }
    return "a token";
}

/* ---- setup ---- */

void lang_lex_init(lang_lexer *lx, const char *src, size_t len, lang_pos start, lang_arena *arena,
                   lang_lex_error_fn error, void *user) {
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->len = len;
    lx->pos = start;
    lx->arena = arena;
    lx->error = error;
    lx->user = user;
    lx->at_line_start = true;
    lx->nindent = 1;
    lx->indents[0] = 0;
}

/* ---- string decoding ---- */

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static size_t put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

bool lang_lex_decode(lang_lexer *lx, const char *body, size_t n, lang_pos pos, bool raw,
                     const char **out, size_t *out_len) {
    /* Decoded text is never longer than its source (\x41 -> 1 byte, \u00e9
     * -> 2, \U0001F600 -> 4, a newline escape -> 0). */
    char *o = lang_arena_alloc(lx->arena, n + 1);
    if (!o) return false;
    size_t k = 0, w = 0;
    bool ok = true;
    while (k < n) {
        char c = body[k];
        if (c != '\\' || raw) {
            o[w++] = c;
            /* A raw string keeps the backslash and the character after it,
             * so r'\'' does not end at the escaped quote. */
            if (c == '\\' && k + 1 < n) o[w++] = body[++k];
            k++;
            continue;
        }
        lang_pos at = lang_pos_advance(pos, body, k);
        if (k + 1 >= n) {
            o[w++] = '\\';
            k++;
            break;
        }
        char e = body[k + 1];
        size_t used = 2;
        switch (e) {
        case '\n': break;
        case '\r': used = (k + 2 < n && body[k + 2] == '\n') ? 3 : 2; break;
        case '\\': o[w++] = '\\'; break;
        case '\'': o[w++] = '\''; break;
        case '"': o[w++] = '"'; break;
        case 'n': o[w++] = '\n'; break;
        case 't': o[w++] = '\t'; break;
        case 'r': o[w++] = '\r'; break;
        case 'a': o[w++] = '\a'; break;
        case 'b': o[w++] = '\b'; break;
        case 'f': o[w++] = '\f'; break;
        case 'v': o[w++] = '\v'; break;
        case 'x':
        case 'u':
        case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            int d = 0;
            for (; d < digits && k + 2 + (size_t)d < n; d++) {
                int h = hexval((unsigned char)body[k + 2 + (size_t)d]);
                if (h < 0) break;
                cp = cp * 16 + (uint32_t)h;
            }
            used = 2 + (size_t)d;
            if (d < digits) {
                err(lx, span_from(at, lang_pos_advance(at, body + k, used)), false,
                    "truncated \\%cXX escape: '\\%c' needs %d hex digits", e, e, digits);
                ok = false;
            } else if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                err(lx, span_from(at, lang_pos_advance(at, body + k, used)), false,
                    "escape '\\%c' is not a valid Unicode character", e);
                ok = false;
            } else if (e == 'x') {
                /* \xNN is a code point as in Python's str, not a raw byte. */
                w += put_utf8(o + w, cp);
            } else {
                w += put_utf8(o + w, cp);
            }
            break;
        }
        case 'N':
            err(lx, span_from(at, lang_pos_advance(at, body + k, 2)), false,
                "'\\N{...}' escapes are not supported; use '\\u' with the code point");
            ok = false;
            break;
        default:
            if (e >= '0' && e <= '7') {
                uint32_t cp = 0;
                size_t d = 0;
                for (; d < 3 && k + 1 + d < n && body[k + 1 + d] >= '0' && body[k + 1 + d] <= '7';
                     d++)
                    cp = cp * 8 + (uint32_t)(body[k + 1 + d] - '0');
                used = 1 + d;
                w += put_utf8(o + w, cp);
            } else {
                /* Python keeps an unknown escape as it is (with a warning). */
                o[w++] = '\\';
                used = 1;
            }
        }
        k += used;
    }
    o[w] = 0;
    *out = o;
    *out_len = w;
    return ok;
}

/* ---- the token scanners ---- */

static void start_tok(lang_lexer *lx, lang_token *t, lang_tok kind) {
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->span.start = lx->pos;
    t->text = lx->src + lx->i;
}

static void end_tok(lang_lexer *lx, lang_token *t) {
    t->span.end = lx->pos;
    t->len = (size_t)(lx->src + lx->i - t->text);
    lx->line_has_tokens = true;
}

static bool digit_ok(int c, int base) {
    if (c < 0) return false;
    if (base == 16) return hexval(c) >= 0;
    if (base == 8) return c >= '0' && c <= '7';
    if (base == 2) return c == '0' || c == '1';
    return is_digit(c);
}

/* Digits of [base] with single underscores between them, copied without
 * the underscores into buf. Returns false on a misplaced underscore. */
static bool scan_digits(lang_lexer *lx, int base, char *buf, size_t *bn, size_t cap, bool *any) {
    bool ok = true;
    *any = false;
    for (;;) {
        int c = peekc(lx, 0);
        if (digit_ok(c, base)) {
            if (*bn + 1 < cap) buf[(*bn)++] = (char)c;
            *any = true;
            adv(lx);
        } else if (c == '_' && *any && digit_ok(peekc(lx, 1), base)) {
            adv(lx);
        } else if (c == '_') {
            ok = false;
            adv(lx);
        } else {
            break;
        }
    }
    return ok;
}

static void lex_number(lang_lexer *lx, lang_token *t) {
    start_tok(lx, t, LANG_TOK_INT);
    char buf[400];
    size_t bn = 0;
    bool ok = true, any = false, is_float = false;
    int base = 10;
    int c0 = peekc(lx, 0), c1 = peekc(lx, 1);
    if (c0 == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' || c1 == 'O' || c1 == 'b' || c1 == 'B')) {
        base = (c1 == 'x' || c1 == 'X') ? 16 : (c1 == 'o' || c1 == 'O') ? 8 : 2;
        adv_n(lx, 2);
        if (peekc(lx, 0) == '_') adv(lx);
        ok = scan_digits(lx, base, buf, &bn, sizeof buf, &any) && any;
    } else {
        if (c0 != '.') ok = scan_digits(lx, 10, buf, &bn, sizeof buf, &any);
        if (peekc(lx, 0) == '.' && (c0 != '.' || is_digit(peekc(lx, 1)))) {
            is_float = true;
            buf[bn++] = '.';
            adv(lx);
            bool frac;
            if (is_digit(peekc(lx, 0))) ok &= scan_digits(lx, 10, buf, &bn, sizeof buf, &frac);
        }
        int e = peekc(lx, 0);
        if (e == 'e' || e == 'E') {
            int s = peekc(lx, 1);
            size_t skip = (s == '+' || s == '-') ? 2 : 1;
            if (is_digit(peekc(lx, skip))) {
                is_float = true;
                if (bn + 2 < sizeof buf) buf[bn++] = 'e';
                if (skip == 2 && bn + 1 < sizeof buf) buf[bn++] = (char)s;
                adv_n(lx, skip);
                bool ex;
                ok &= scan_digits(lx, 10, buf, &bn, sizeof buf, &ex);
            }
        }
    }
    buf[bn < sizeof buf ? bn : sizeof buf - 1] = 0;
    /* A letter glued to a number is a typo (1x, 2j, 0b2), not two tokens. */
    size_t tail = 0;
    while (ident_char(lx, lx->i + tail, false) || is_digit(peekc(lx, tail)))
        tail += ident_char(lx, lx->i + tail, false) ? ident_char(lx, lx->i + tail, false) : 1;
    if (tail) {
        int tc = peekc(lx, 0);
        adv_n(lx, tail);
        end_tok(lx, t);
        if (tc == 'j' || tc == 'J')
            err(lx, t->span, false, "complex numbers are not supported");
        else
            err(lx, t->span, false, "invalid %s literal",
                base == 16  ? "hexadecimal"
                : base == 8 ? "octal"
                : base == 2 ? "binary"
                            : "decimal");
        return;
    }
    end_tok(lx, t);
    if (!ok) {
        err(lx, t->span, false, "invalid number: '_' may only separate digits");
        return;
    }
    if (is_float) {
        t->kind = LANG_TOK_FLOAT;
        t->u.f = strtod(buf, NULL);
        return;
    }
    if (base == 10 && bn > 1 && buf[0] == '0') {
        bool all_zero = true;
        for (size_t k = 0; k < bn; k++) all_zero &= buf[k] == '0';
        if (!all_zero) {
            err(lx, t->span, false,
                "leading zeros in a decimal integer are not allowed; use 0o for octal");
            return;
        }
    }
    errno = 0;
    unsigned long long v = strtoull(buf, NULL, base);
    if (errno == ERANGE || v > (unsigned long long)INT64_MAX) {
        err(lx, t->span, false, "integer literal too large (nndb integers are 64-bit)");
        return;
    }
    t->u.i = (int64_t)v;
}

/* After the prefix: lex a string whose opening quote is at lx->i. */
static void lex_string(lang_lexer *lx, lang_token *t, bool raw, bool fstr, bool bytes) {
    char q = (char)peekc(lx, 0);
    bool triple = peekc(lx, 1) == q && peekc(lx, 2) == q;
    size_t qn = triple ? 3 : 1;
    adv_n(lx, qn);
    size_t body = lx->i;
    lang_pos body_pos = lx->pos;
    bool closed = false;
    while (lx->i < lx->len) {
        int c = peekc(lx, 0);
        if (c == '\\') {
            adv(lx);
            if (lx->i < lx->len) adv(lx);
            continue;
        }
        if (c == q && (!triple || (peekc(lx, 1) == q && peekc(lx, 2) == q))) {
            closed = true;
            break;
        }
        if ((c == '\n' || c == '\r') && !triple) break;
        adv(lx);
    }
    size_t body_len = lx->i - body;
    if (closed) adv_n(lx, qn);
    end_tok(lx, t);
    t->kind = LANG_TOK_STRING;
    t->u.str.f = fstr;
    t->u.str.raw = raw;
    t->u.str.body = lx->src + body;
    t->u.str.body_len = body_len;
    t->u.str.body_pos = body_pos;
    t->u.str.s = "";
    if (!closed) {
        if (triple)
            err(lx, span_from(t->span.start, lang_pos_advance(t->span.start, t->text, qn)), true,
                "unterminated triple-quoted string: close it with %c%c%c", q, q, q);
        else
            err(lx, t->span, false, "unterminated string: close it with %c on the same line", q);
        return;
    }
    if (bytes) {
        err(lx, t->span, false, "bytes literals (b'...') are not supported; use a str");
        return;
    }
    if (!fstr)
        lang_lex_decode(lx, lx->src + body, body_len, body_pos, raw, &t->u.str.s, &t->u.str.len);
}

static void lex_magic(lang_lexer *lx, lang_token *t) {
    start_tok(lx, t, LANG_TOK_MAGIC);
    adv(lx);
    bool cell = peekc(lx, 0) == '%';
    if (cell) adv(lx);
    size_t name = lx->i;
    while (lx->i < lx->len && (ident_char(lx, lx->i, lx->i == name) || peekc(lx, 0) == '.'))
        adv_n(lx, ident_char(lx, lx->i, false) ? ident_char(lx, lx->i, false) : 1);
    t->u.magic.name = lang_arena_strdup(lx->arena, lx->src + name, lx->i - name);
    t->u.magic.name_len = lx->i - name;
    t->u.magic.cell = cell;
    while (peekc(lx, 0) == ' ' || peekc(lx, 0) == '\t') adv(lx);
    size_t args = lx->i;
    t->u.magic.args_pos = lx->pos;
    if (cell) {
        while (lx->i < lx->len) adv(lx);
    } else {
        while (lx->i < lx->len && peekc(lx, 0) != '\n' && peekc(lx, 0) != '\r') adv(lx);
    }
    size_t end = lx->i;
    while (end > args && (lx->src[end - 1] == ' ' || lx->src[end - 1] == '\t' ||
                          lx->src[end - 1] == '\r' || lx->src[end - 1] == '\n'))
        end--;
    t->u.magic.args = lang_arena_strdup(lx->arena, lx->src + args, end - args);
    t->u.magic.args_len = end - args;
    end_tok(lx, t);
    if (t->u.magic.name_len == 0)
        err(lx, t->span, false, "expected a magic name after '%%' (try %%help)");
}

static bool lex_operator(lang_lexer *lx, lang_token *t) {
    size_t best = 0;
    lang_tok kind = LANG_TOK_EOF;
    for (int k = 0; operators[k].text; k++) {
        size_t n = strlen(operators[k].text);
        if (n > best && lx->i + n <= lx->len &&
            memcmp(lx->src + lx->i, operators[k].text, n) == 0) {
            best = n;
            kind = operators[k].kind;
        }
    }
    if (!best) return false;
    start_tok(lx, t, kind);
    adv_n(lx, best);
    end_tok(lx, t);
    return true;
}

static void push_bracket(lang_lexer *lx, const lang_token *t) {
    if (lx->depth >= LANG_LEX_MAX_BRACKETS) {
        err(lx, t->span, false, "too many nested brackets");
        lx->depth++; /* counted, not stored, so closing ones still balance */
        return;
    }
    lx->brackets[lx->depth].ch = t->text[0];
    lx->brackets[lx->depth].span = t->span;
    lx->depth++;
}

/* Returns false when the closing bracket has no opener (the token is then
 * dropped). */
static bool pop_bracket(lang_lexer *lx, const lang_token *t) {
    char c = t->text[0];
    if (lx->depth == 0) {
        err(lx, t->span, false, "unmatched '%c'", c);
        return false;
    }
    lx->depth--;
    if (lx->depth < LANG_LEX_MAX_BRACKETS) {
        char o = lx->brackets[lx->depth].ch;
        char want = o == '(' ? ')' : o == '[' ? ']' : '}';
        if (c != want)
            err(lx, t->span, false, "closing '%c' does not match opening '%c' on line %d", c, o,
                (int)lx->brackets[lx->depth].span.start.line);
    }
    return true;
}

static void make_simple(lang_lexer *lx, lang_token *t, lang_tok kind, bool at_eof) {
    start_tok(lx, t, kind);
    t->span.end = t->span.start;
    t->at_eof = at_eof;
}

/* Measure the indent of a new line; false when the line is blank or a
 * comment (skipped, with its newline). */
static bool line_start(lang_lexer *lx, int *indent) {
    int col = 0;
    bool tab_reported = false;
    for (;;) {
        int c = peekc(lx, 0);
        if (c == ' ') {
            col++;
        } else if (c == '\t') {
            if (!tab_reported) {
                lang_pos a = lx->pos;
                err(lx, span_from(a, lang_pos_advance(a, "\t", 1)), false,
                    "indentation contains a tab; indent with spaces (4 per level)");
                tab_reported = true;
            }
            col = (col / 8 + 1) * 8;
        } else if (c == '\f') {
            col = 0;
        } else {
            break;
        }
        adv(lx);
    }
    int c = peekc(lx, 0);
    if (c == '#') {
        while (lx->i < lx->len && peekc(lx, 0) != '\n' && peekc(lx, 0) != '\r') adv(lx);
        c = peekc(lx, 0);
    }
    if (c == '\n' || c == '\r') {
        if (c == '\r' && peekc(lx, 1) == '\n') adv(lx);
        adv(lx);
        return false;
    }
    if (c == '\\' && (peekc(lx, 1) == '\n' || peekc(lx, 1) == '\r')) {
        /* A continuation right after the indent: the logical line goes on
         * below, with this indent. */
    }
    if (c < 0) return false;
    *indent = col;
    return true;
}

void lang_lex_next(lang_lexer *lx, lang_token *t) {
    for (;;) {
        if (lx->pending_dedents > 0) {
            lx->pending_dedents--;
            make_simple(lx, t, LANG_TOK_DEDENT, lx->i >= lx->len);
            return;
        }
        if (lx->at_line_start && lx->depth == 0 && !lx->expr_mode) {
            int indent;
            if (!line_start(lx, &indent)) {
                if (lx->i >= lx->len) lx->at_line_start = false;
                continue;
            }
            lx->at_line_start = false;
            lx->line_indent = indent;
            lx->magic_pending = lx->magics;
            int top = lx->indents[lx->nindent - 1];
            if (indent > top) {
                make_simple(lx, t, LANG_TOK_INDENT, false);
                if (lx->nindent >= LANG_LEX_MAX_INDENT) {
                    err(lx, t->span, false, "too many levels of indentation");
                } else {
                    lx->indents[lx->nindent++] = indent;
                    return;
                }
            } else if (indent < top) {
                while (lx->nindent > 1 && lx->indents[lx->nindent - 1] > indent) {
                    lx->nindent--;
                    lx->pending_dedents++;
                }
                if (lx->indents[lx->nindent - 1] != indent) {
                    lang_pos a = lx->pos;
                    lang_pos b = a;
                    b.col -= indent > a.col - 1 ? a.col - 1 : indent;
                    b.ccol -= indent > a.ccol - 1 ? a.ccol - 1 : indent;
                    err(lx, span_from(b, a), false,
                        "unindent does not match any outer indentation level");
                }
                continue;
            }
        }
        if (lx->magic_pending && lx->pending_dedents == 0) {
            /* The first token of a logical line, after its INDENT/DEDENTs. */
            lx->magic_pending = false;
            if (peekc(lx, 0) == '%') {
                lex_magic(lx, t);
                return;
            }
        }
        int c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\f') {
            adv(lx);
            continue;
        }
        if (c == '#') {
            while (lx->i < lx->len && peekc(lx, 0) != '\n' && peekc(lx, 0) != '\r') adv(lx);
            continue;
        }
        if (c == '\\') {
            int d = peekc(lx, 1);
            if (d == '\n' || d == '\r') {
                adv(lx);
                if (d == '\r' && peekc(lx, 1) == '\n') adv(lx);
                adv(lx);
                if (lx->i >= lx->len) {
                    lx->continued_eof = true;
                    err(lx, span_from(lx->pos, lx->pos), true,
                        "the input ends after a line continuation '\\'");
                }
                continue;
            }
            lang_pos a = lx->pos;
            adv(lx);
            if (d < 0) {
                lx->continued_eof = true;
                err(lx, span_from(a, lx->pos), true,
                    "the input ends after a line continuation '\\'");
                continue;
            }
            start_tok(lx, t, LANG_TOK_ERROR);
            t->span.start = a;
            end_tok(lx, t);
            err(lx, t->span, false, "unexpected character after line continuation character");
            return;
        }
        if (c == '\n' || c == '\r') {
            if (lx->depth > 0 || lx->expr_mode || !lx->line_has_tokens) {
                if (c == '\r' && peekc(lx, 1) == '\n') adv(lx);
                adv(lx);
                if (lx->depth == 0 && !lx->expr_mode) lx->at_line_start = true;
                continue;
            }
            start_tok(lx, t, LANG_TOK_NEWLINE);
            if (c == '\r' && peekc(lx, 1) == '\n') adv(lx);
            adv(lx);
            t->span.end = t->span.start;
            t->span.end.col++;
            t->span.end.ccol++;
            lx->line_has_tokens = false;
            lx->at_line_start = true;
            return;
        }
        if (c < 0) {
            if (lx->depth == 0 && !lx->expr_mode) {
                if (lx->line_has_tokens) {
                    /* Made up at the end: more input could continue the
                     * line only after a backslash. */
                    make_simple(lx, t, LANG_TOK_NEWLINE, lx->continued_eof);
                    lx->line_has_tokens = false;
                    return;
                }
                if (lx->nindent > 1) {
                    lx->pending_dedents = lx->nindent - 1;
                    lx->nindent = 1;
                    continue;
                }
            }
            make_simple(lx, t, LANG_TOK_EOF, true);
            return;
        }
        /* Strings, with their prefixes. */
        {
            size_t k = 0;
            bool raw = false, fstr = false, bytes = false, uni = false;
            while (k < 2) {
                int p = peekc(lx, k);
                if ((p == 'r' || p == 'R') && !raw)
                    raw = true;
                else if ((p == 'f' || p == 'F') && !fstr && !bytes)
                    fstr = true;
                else if ((p == 'b' || p == 'B') && !fstr && !bytes)
                    bytes = true;
                else if ((p == 'u' || p == 'U') && k == 0)
                    uni = true;
                else
                    break;
                k++;
                if (uni) break;
            }
            int q = peekc(lx, k);
            if ((q == '\'' || q == '"') && !(uni && (raw || fstr || bytes))) {
                start_tok(lx, t, LANG_TOK_STRING);
                adv_n(lx, k);
                lex_string(lx, t, raw, fstr, bytes);
                return;
            }
        }
        if (ident_char(lx, lx->i, true)) {
            start_tok(lx, t, LANG_TOK_NAME);
            size_t n;
            while ((n = ident_char(lx, lx->i, false)) > 0) adv_n(lx, n);
            end_tok(lx, t);
            for (int k = 0; keywords[k].text; k++)
                if (strlen(keywords[k].text) == t->len &&
                    memcmp(keywords[k].text, t->text, t->len) == 0) {
                    t->kind = keywords[k].kind;
                    break;
                }
            return;
        }
        if (is_digit(c) || (c == '.' && is_digit(peekc(lx, 1)))) {
            lex_number(lx, t);
            return;
        }
        if (lex_operator(lx, t)) {
            if (t->kind == LANG_TOK_LPAREN || t->kind == LANG_TOK_LBRACKET ||
                t->kind == LANG_TOK_LBRACE) {
                push_bracket(lx, t);
            } else if (t->kind == LANG_TOK_RPAREN || t->kind == LANG_TOK_RBRACKET ||
                       t->kind == LANG_TOK_RBRACE) {
                if (!pop_bracket(lx, t)) continue;
            }
            return;
        }
        /* Anything else starts no token. */
        start_tok(lx, t, LANG_TOK_ERROR);
        size_t used;
        int32_t cp = utf8_decode((const unsigned char *)lx->src + lx->i, lx->len - lx->i, &used);
        adv_n(lx, used);
        end_tok(lx, t);
        if (cp < 0)
            err(lx, t->span, false, "invalid UTF-8 byte 0x%02X in the source",
                (unsigned char)t->text[0]);
        else if (c == '!' || c == '?' || c == '$' || c == '`')
            err(lx, t->span, false, "invalid character '%c'", c);
        else if (cp < 0x20 || cp == 0x7F)
            err(lx, t->span, false, "invalid control character U+%04X in the source", (unsigned)cp);
        else
            err(lx, t->span, false, "invalid character '%.*s' (U+%04X)", (int)used, t->text,
                (unsigned)cp);
        return;
    }
}

bool lang_lex_bracket_closes(const lang_lexer *lx) {
    if (lx->depth == 0) return true;
    lang_lexer copy = *lx;
    copy.error = NULL;
    int depth = lx->depth;
    lang_token t;
    for (;;) {
        lang_lex_next(&copy, &t);
        if (t.kind == LANG_TOK_EOF) return false;
        if (copy.depth < depth) return true;
    }
}
