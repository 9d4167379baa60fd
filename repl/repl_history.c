/* repl_history: the history file's location and upkeep. See
 * repl_history.h. */
#include "repl_history.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>

char *repl_history_path(void) {
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    const char *base, *rest;
    if (state && state[0] == '/')
        base = state, rest = "/nndb/history";
    else if (home && *home)
        base = home, rest = "/.local/state/nndb/history";
    else
        return NULL;
    size_t n = strlen(base) + strlen(rest) + 1;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s%s", base, rest);
    return p;
}

bool repl_mkdirs_for(const char *path) {
    char *dir = strdup(path);
    if (!dir) return false;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) {
        free(dir);
        return true;
    }
    *slash = 0;
    /* Walk the components, creating each one that is missing. */
    for (char *p = dir + 1;; p++) {
        if (*p == '/' || *p == 0) {
            char c = *p;
            *p = 0;
            if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
                free(dir);
                return false;
            }
            *p = c;
            if (!c) break;
        }
    }
    struct stat st;
    bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    free(dir);
    return ok;
}

bool repl_history_load(const char *path, int keep) {
    if (!path) return false;
    if (!repl_mkdirs_for(path)) return false;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0) return false;
    close(fd);
    /* A block is one entry: each entry goes with a "#<time>" line before
     * it, and the lines up to the next such line are read back as one. */
    history_comment_char = '#'; /* readline stamps entries only with one */
    history_write_timestamps = 1;
    history_multiline_entries = 1;
    /* Trimming is best effort: a read-only file still loads. */
    history_truncate_file(path, keep);
    stifle_history(keep);
    return read_history(path) == 0;
}

bool repl_history_add(const char *path, const char *line) {
    const char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) return true;
    HIST_ENTRY *last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
    if (last && last->line && !strcmp(last->line, line)) return true;
    add_history(line);
    if (!path) return true;
    return append_history(1, path) == 0;
}
