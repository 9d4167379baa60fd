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

/* A frame line names a place: 'File "x", line 3' or 'x.nn:3:5' or
 * "Traceback (...)" — anything not indented that is not a caret line. */
static bool is_frame_line(const char *s) {
    return *s && *s != ' ' && *s != '\t';
}

void repl_write_error(FILE *f, const lang_error_info *e, bool colour) {
    for (int i = 0; i < e->n_traceback; i++) {
        const char *line = e->traceback[i] ? e->traceback[i] : "";
        size_t n = strlen(line);
        const char *sgr = NULL;
        if (colour)
            sgr = is_caret_line(line)   ? REPL_SGR_CARET
                  : is_frame_line(line) ? REPL_SGR_FRAME
                                        : NULL;
        /* Paint the text but not its newline, so a reset never leaks onto
         * the next line's first column. */
        size_t body = n && line[n - 1] == '\n' ? n - 1 : n;
        if (sgr) fputs(sgr, f);
        fwrite(line, 1, body, f);
        if (sgr) fputs(REPL_SGR_RESET, f);
        fputc('\n', f);
    }
    const char *name = e->ename && *e->ename ? e->ename : lang_err_name(e->cls);
    if (colour)
        fprintf(f, "%s%s%s", REPL_SGR_ERROR, name, REPL_SGR_RESET);
    else
        fputs(name, f);
    if (e->evalue && *e->evalue) fprintf(f, ": %s", e->evalue);
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
