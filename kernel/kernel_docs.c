/* kernel_docs: nndb's Markdown documentation as HTML pages inside the
 * kernelspec, for the kernel's help links. See kernel_docs.h. */
#include "kernel_docs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- a growing string ---- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) return;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void sb_puts(sbuf *b, const char *s) {
    sb_add(b, s, strlen(s));
}

static void sb_esc(sbuf *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        default: sb_add(b, s + i, 1);
        }
    }
}

/* ---- inline: `code`, **strong**, [text](link) ---- */

static void inline_md(sbuf *b, const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (s[i] == '`') {
            const char *e = memchr(s + i + 1, '`', n - i - 1);
            if (e) {
                sb_puts(b, "<code>");
                sb_esc(b, s + i + 1, (size_t)(e - s - i - 1));
                sb_puts(b, "</code>");
                i = (size_t)(e - s) + 1;
                continue;
            }
        }
        if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
            const char *e = NULL;
            for (size_t j = i + 2; j + 1 < n; j++)
                if (s[j] == '*' && s[j + 1] == '*') {
                    e = s + j;
                    break;
                }
            if (e) {
                sb_puts(b, "<strong>");
                inline_md(b, s + i + 2, (size_t)(e - s - i - 2));
                sb_puts(b, "</strong>");
                i = (size_t)(e - s) + 2;
                continue;
            }
        }
        if (s[i] == '[') {
            const char *close = memchr(s + i, ']', n - i);
            if (close && (size_t)(close - s) + 1 < n && close[1] == '(') {
                const char *end = memchr(close, ')', n - (size_t)(close - s));
                if (end) {
                    const char *url = close + 2;
                    size_t ul = (size_t)(end - url);
                    sb_puts(b, "<a href=\"");
                    /* Links between the docs go to their HTML pages. */
                    if (ul > 3 && !memcmp(url + ul - 3, ".md", 3) && !memchr(url, ':', ul)) {
                        const char *slash = url;
                        for (const char *q = url; q < url + ul; q++)
                            if (*q == '/') slash = q + 1;
                        sb_esc(b, slash, (size_t)(url + ul - 3 - slash));
                        sb_puts(b, ".html");
                    } else {
                        sb_esc(b, url, ul);
                    }
                    sb_puts(b, "\">");
                    inline_md(b, s + i + 1, (size_t)(close - s - i - 1));
                    sb_puts(b, "</a>");
                    i = (size_t)(end - s) + 1;
                    continue;
                }
            }
        }
        sb_esc(b, s + i, 1);
        i++;
    }
}

/* ---- blocks ---- */

static bool blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return false;
    return true;
}

static bool list_item(const char *s, size_t n, bool *ordered, size_t *skip) {
    size_t i = 0;
    while (i < n && s[i] == ' ') i++;
    if (i + 1 < n && (s[i] == '-' || s[i] == '*') && s[i + 1] == ' ') {
        *ordered = false;
        *skip = i + 2;
        return true;
    }
    size_t d = i;
    while (d < n && s[d] >= '0' && s[d] <= '9') d++;
    if (d > i && d + 1 < n && s[d] == '.' && s[d + 1] == ' ') {
        *ordered = true;
        *skip = d + 2;
        return true;
    }
    return false;
}

/* One table row "| a | b |" as cells of [tag]. */
static void table_row(sbuf *b, const char *s, size_t n, const char *tag) {
    sb_puts(b, "<tr>");
    size_t i = 0;
    while (i < n && s[i] == ' ') i++;
    if (i < n && s[i] == '|') i++;
    while (i < n) {
        size_t j = i;
        while (j < n && !(s[j] == '|' && (j == 0 || s[j - 1] != '\\'))) j++;
        size_t a = i, e = j;
        while (a < e && s[a] == ' ') a++;
        while (e > a && (s[e - 1] == ' ' || s[e - 1] == '\r')) e--;
        if (j < n || e > a) {
            sb_puts(b, "<");
            sb_puts(b, tag);
            sb_puts(b, ">");
            inline_md(b, s + a, e - a);
            sb_puts(b, "</");
            sb_puts(b, tag);
            sb_puts(b, ">");
        }
        i = j + 1;
    }
    sb_puts(b, "</tr>\n");
}

static const char style[] =
    "body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.45}"
    "pre{background:#f6f6f6;padding:.6em;overflow-x:auto}code{background:#f3f3f3}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}"
    "nav{font-size:.9em;margin-bottom:1em}";

char *kernel_docs_html(const char *md, const char *title) {
    sbuf b = {0};
    sb_puts(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
    sb_esc(&b, title, strlen(title));
    sb_puts(&b, " \xe2\x80\x94 nndb</title><style>");
    sb_puts(&b, style);
    sb_puts(&b,
            "</style></head><body>\n<nav><a href=\"index.html\">nndb documentation</a></nav>\n");
    const char *p = md;
    bool in_code = false, in_para = false, in_table = false;
    int list = 0; /* 0 none, 1 ul, 2 ol */
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *next = nl ? nl + 1 : p + n;
        if (in_code) {
            if (n >= 3 && !strncmp(p, "```", 3)) {
                sb_puts(&b, "</pre>\n");
                in_code = false;
            } else {
                sb_esc(&b, p, n);
                sb_puts(&b, "\n");
            }
            p = next;
            continue;
        }
        bool ordered = false;
        size_t skip = 0;
        bool is_item = list_item(p, n, &ordered, &skip);
        bool is_row = n > 0 && p[0] == '|';
        /* Close what this line does not continue. */
        if (in_para && (blank(p, n) || is_item || is_row || p[0] == '#' || !strncmp(p, "```", 3))) {
            sb_puts(&b, "</p>\n");
            in_para = false;
        }
        if (list && !is_item && (blank(p, n) || p[0] != ' ')) {
            sb_puts(&b, list == 1 ? "</ul>\n" : "</ol>\n");
            list = 0;
        }
        if (in_table && !is_row) {
            sb_puts(&b, "</table>\n");
            in_table = false;
        }
        if (blank(p, n)) {
        } else if (n >= 3 && !strncmp(p, "```", 3)) {
            sb_puts(&b, "<pre>");
            in_code = true;
        } else if (p[0] == '#') {
            int level = 0;
            while (level < (int)n && p[level] == '#') level++;
            if (level > 6) level = 6;
            size_t s = (size_t)level;
            while (s < n && p[s] == ' ') s++;
            char open[8], close[8];
            snprintf(open, sizeof open, "<h%d>", level);
            snprintf(close, sizeof close, "</h%d>\n", level);
            sb_puts(&b, open);
            inline_md(&b, p + s, n - s);
            sb_puts(&b, close);
        } else if (is_row) {
            bool sep = true;
            for (size_t i = 0; i < n; i++)
                if (!strchr("|-: \r", p[i])) sep = false;
            if (!sep) {
                if (!in_table) sb_puts(&b, "<table>\n");
                table_row(&b, p, n, in_table ? "td" : "th");
                in_table = true;
            }
        } else if (is_item) {
            int want = ordered ? 2 : 1;
            if (list && list != want) {
                sb_puts(&b, list == 1 ? "</ul>\n" : "</ol>\n");
                list = 0;
            }
            if (!list) sb_puts(&b, want == 1 ? "<ul>\n" : "<ol>\n");
            list = want;
            sb_puts(&b, "<li>");
            inline_md(&b, p + skip, n - skip);
            sb_puts(&b, "</li>\n");
        } else if (list) {
            /* A continuation line of a list item. */
            sb_puts(&b, " ");
            inline_md(&b, p, n);
        } else if (n >= 4 && !strncmp(p, "    ", 4) && !in_para) {
            sb_puts(&b, "<pre>");
            while (*p && (blank(p, n) || (n >= 4 && !strncmp(p, "    ", 4)))) {
                if (n > 4) sb_esc(&b, p + 4, n - 4);
                sb_puts(&b, "\n");
                p = next;
                nl = strchr(p, '\n');
                n = nl ? (size_t)(nl - p) : strlen(p);
                next = nl ? nl + 1 : p + n;
            }
            sb_puts(&b, "</pre>\n");
            continue;
        } else {
            sb_puts(&b, in_para ? "\n" : "<p>");
            in_para = true;
            inline_md(&b, p, n);
        }
        p = next;
    }
    if (in_code) sb_puts(&b, "</pre>\n");
    if (in_para) sb_puts(&b, "</p>\n");
    if (list) sb_puts(&b, list == 1 ? "</ul>\n" : "</ol>\n");
    if (in_table) sb_puts(&b, "</table>\n");
    sb_puts(&b, "</body></html>\n");
    return b.p;
}

/* ---- install ---- */

static char *read_all(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    sbuf b = {0};
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) sb_add(&b, chunk, got);
    fclose(f);
    if (!b.p) sb_add(&b, "", 0);
    return b.p;
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The first heading of a page, or its file name. */
static void page_title(const char *md, const char *file, char *out, size_t cap) {
    const char *h = md[0] == '#' ? md : strstr(md, "\n#");
    if (h) {
        if (*h == '\n') h++;
        while (*h == '#') h++;
        while (*h == ' ') h++;
        size_t n = strcspn(h, "\r\n");
        snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), h);
        return;
    }
    snprintf(out, cap, "%s", file);
}

int kernel_docs_install(const char *src_dir, const char *dest_dir) {
    DIR *d = opendir(src_dir);
    if (!d) return -1;
    if (mkdir(dest_dir, 0755) != 0 && errno != EEXIST) {
        closedir(d);
        return -1;
    }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        size_t l = strlen(e->d_name);
        if (l > 3 && !strcmp(e->d_name + l - 3, ".md")) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_names);
    sbuf index = {0};
    sb_puts(&index, "# nndb documentation\n\nThe pages installed with this kernel:\n\n");
    int written = 0;
    for (int i = 0; i < n; i++) {
        if (!names[i]) continue;
        char src[PATH_MAX], dst[PATH_MAX], title[200];
        snprintf(src, sizeof src, "%s/%s", src_dir, names[i]);
        char *md = read_all(src);
        if (!md) continue;
        size_t base = strlen(names[i]) - 3;
        snprintf(dst, sizeof dst, "%s/%.*s.html", dest_dir, (int)base, names[i]);
        page_title(md, names[i], title, sizeof title);
        char *html = kernel_docs_html(md, title);
        FILE *f = html ? fopen(dst, "wb") : NULL;
        if (f) {
            fputs(html, f);
            if (fclose(f) == 0) written++;
        }
        free(html);
        free(md);
        char line[512];
        snprintf(line, sizeof line, "- [%s](%.*s.md)\n", title, (int)base, names[i]);
        sb_puts(&index, line);
    }
    for (int i = 0; i < n; i++) free(names[i]);
    char dst[PATH_MAX];
    snprintf(dst, sizeof dst, "%s/index.html", dest_dir);
    char *html = index.p ? kernel_docs_html(index.p, "nndb documentation") : NULL;
    free(index.p);
    FILE *f = html ? fopen(dst, "wb") : NULL;
    bool ok = f != NULL;
    if (f) {
        fputs(html, f);
        ok = fclose(f) == 0;
    }
    free(html);
    return ok ? written : -1;
}
