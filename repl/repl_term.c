/* repl_term: colour decisions and painting of results, errors and progress
 * lines for the terminal front end. See repl_term.h. */
#include "repl_term.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool repl_colour_wanted(int fd) {
    const char *no = getenv("NO_COLOR");
    if (no && *no) return false;
    const char *term = getenv("TERM");
    if (term && !strcmp(term, "dumb")) return false;
    return isatty(fd) == 1;
}

static bool is_ident_char(int c) {
    return isalnum(c) || c == '_';
}

/* Length of the number starting at [s] (digits, one point, an exponent), or
 * 0 when [s] does not start one. */
static size_t number_len(const char *s) {
    size_t i = 0;
    bool digits = false;
    while (isdigit((unsigned char)s[i])) i++, digits = true;
    if (s[i] == '.') {
        i++;
        while (isdigit((unsigned char)s[i])) i++, digits = true;
    }
    if (!digits) return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-') j++;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j])) j++;
            i = j;
        }
    }
    return i;
}

void repl_write_result(FILE *f, const char *text, bool colour) {
    if (!colour) {
        fputs(text, f);
        return;
    }
    const char *p = text;
    while (*p) {
        unsigned char c = (unsigned char)*p;
        if (isalpha(c) || c == '_') {
            /* A whole word: names keep their digits plain, but the words a
             * tensor prints for special values are numbers too. */
            const char *w = p;
            while (is_ident_char((unsigned char)*p)) p++;
            size_t n = (size_t)(p - w);
            bool special = (n == 3 && (!strncmp(w, "nan", 3) || !strncmp(w, "inf", 3)));
            if (special) fputs(REPL_SGR_NUMBER, f);
            fwrite(w, 1, n, f);
            if (special) fputs(REPL_SGR_RESET, f);
            continue;
        }
        size_t n = number_len(p);
        if (n) {
            fputs(REPL_SGR_NUMBER, f);
            fwrite(p, 1, n, f);
            fputs(REPL_SGR_RESET, f);
            p += n;
            continue;
        }
        fputc(*p++, f);
    }
}

/* A caret line holds only blanks, '^' and '~'. */
static bool is_caret_line(const char *s) {
    bool caret = false;
    for (; *s && *s != '\n'; s++) {
        if (*s == '^')
            caret = true;
        else if (*s != ' ' && *s != '~' && *s != '\t')
            return false;
    }
    return caret;
}

/* A frame line names a place: '  File "x.nn", line 3, in f'. */
static bool is_frame_line(const char *s) {
    while (*s == ' ') s++;
    return !strncmp(s, "File ", 5) || !strncmp(s, "Traceback ", 10);
}

/* Write [n] bytes of [s] in [sgr] (none when NULL). */
static void paint(FILE *f, const char *sgr, const char *s, size_t n) {
    if (!n) return;
    if (sgr) fputs(sgr, f);
    fwrite(s, 1, n, f);
    if (sgr) fputs(REPL_SGR_RESET, f);
}

/* One traceback line without its newline. A line that carries the error
 * itself ("x.nn:1:5: SyntaxError: ...") gets the place in the frame colour
 * and the class name in the error colour. */
static void write_tb_line(FILE *f, const char *line, size_t n, const char *name, bool colour) {
    if (!colour) {
        fwrite(line, 1, n, f);
        return;
    }
    size_t nl = strlen(name);
    const char *hit = nl ? strstr(line, name) : NULL;
    if (hit && (size_t)(hit - line) + nl < n && hit[nl] == ':') {
        size_t pre = (size_t)(hit - line);
        paint(f, REPL_SGR_FRAME, line, pre);
        paint(f, REPL_SGR_ERROR, hit, nl);
        fwrite(hit + nl, 1, n - pre - nl, f);
        return;
    }
    const char *sgr = is_caret_line(line)   ? REPL_SGR_CARET
                      : is_frame_line(line) ? REPL_SGR_FRAME
                                            : NULL;
    paint(f, sgr, line, n);
}

void repl_write_error(FILE *f, const lang_error_info *e, bool colour) {
    const char *name = e->ename && *e->ename ? e->ename : lang_err_name(e->cls);
    const char *msg = e->evalue ? e->evalue : "";
    /* Python's header, for errors raised while running: a syntax error
     * names its place on its own line. */
    bool header = e->n_traceback > 0 && e->cls != LANG_ERR_SYNTAX && e->traceback[0] &&
                  strncmp(e->traceback[0], "Traceback", 9) != 0;
    if (header) {
        paint(f, colour ? REPL_SGR_FRAME : NULL, "Traceback (most recent call last):", 34);
        fputc('\n', f);
    }
    /* When the traceback already states "Name: message" (syntax errors list
     * each error that way), a closing line would only repeat it. */
    bool stated = false;
    size_t nl = strlen(name), ml = strlen(msg);
    /* An entry may hold several lines (a frame, its source, its caret);
     * each is painted on its own, up to its newline, so a reset never
     * leaks onto the next line's first column. */
    for (int i = 0; i < e->n_traceback; i++) {
        const char *line = e->traceback[i] ? e->traceback[i] : "";
        do {
            const char *eol = strchr(line, '\n');
            size_t body = eol ? (size_t)(eol - line) : strlen(line);
            const char *hit = strstr(line, name);
            if (hit && (size_t)(hit - line) < body && hit[nl] == ':' && hit[nl + 1] == ' ' &&
                !strncmp(hit + nl + 2, msg, ml))
                stated = true;
            write_tb_line(f, line, body, name, colour);
            fputc('\n', f);
            line = eol ? eol + 1 : line + body;
        } while (*line);
    }
    if (stated) return;
    paint(f, colour ? REPL_SGR_ERROR : NULL, name, nl);
    if (*msg) fprintf(f, ": %s", msg);
    fputc('\n', f);
}

char *repl_progress_line(char *buf, size_t cap, int width, int64_t done, int64_t total,
                         const char *text) {
    if (!cap) return buf;
    buf[0] = 0;
    if (width < 20) width = 20;
    if (width > 200) width = 200;
    if (!text) text = "";
    char tail[64];
    if (total > 0) {
        if (done > total) done = total;
        if (done < 0) done = 0;
        int pct = (int)(100 * done / total);
        snprintf(tail, sizeof tail, " %3d%% %lld/%lld", pct, (long long)done, (long long)total);
    } else {
        snprintf(tail, sizeof tail, " %lld", (long long)done);
    }
    /* Columns: text, one blank, bar (when total is known), tail. The text
     * gets at most a third of the line so the bar keeps some room. */
    int tail_w = (int)strlen(tail);
    int text_w = (int)strlen(text);
    if (text_w > width / 3) text_w = width / 3;
    int bar_w = total > 0 ? width - 1 - text_w - 1 - tail_w - 2 : 0;
    if (bar_w > 40) bar_w = 40;
    size_t len = 0;
    int w = snprintf(buf, cap, "%.*s", text_w, text);
    len = w > 0 ? (size_t)w : 0;
    if (total > 0 && bar_w > 0 && len + (size_t)bar_w * 3 + 8 < cap) {
        static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
        int64_t units = done * bar_w * 8 / total;
        int full = (int)(units / 8), part = (int)(units % 8);
        if (len) buf[len++] = ' ';
        buf[len++] = '|';
        int cols = 0;
        for (int i = 0; i < full; i++, cols++) memcpy(buf + len, "█", 3), len += 3;
        if (part && cols < bar_w) {
            size_t pn = strlen(eighths[part]);
            memcpy(buf + len, eighths[part], pn);
            len += pn;
            cols++;
        }
        for (; cols < bar_w; cols++) buf[len++] = ' ';
        buf[len++] = '|';
        buf[len] = 0;
    }
    if (len < cap) snprintf(buf + len, cap - len, "%s", tail);
    return buf;
}

bool repl_is_exit_request(const char *code) {
    while (isspace((unsigned char)*code)) code++;
    size_t n = strlen(code);
    while (n && isspace((unsigned char)code[n - 1])) n--;
    static const char *const words[] = {"exit()", "quit()", "exit", "quit"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && !strncmp(code, words[i], n)) return true;
    return false;
}
