#include "nn_probe_fs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void nn_probe_strlcpy(char *dst, const char *src, size_t size) {
    if (!size) return;
    size_t n = src ? strlen(src) : 0;
    if (n >= size) n = size - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
}

char *nn_probe_trim(char *s) {
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    size_t lead = 0;
    while (s[lead] && isspace((unsigned char)s[lead])) lead++;
    if (lead) memmove(s, s + lead, n - lead + 1);
    return s;
}

void nn_probe_fs_init(nn_probe_fs *fs, const char *root) {
    fs->root[0] = '\0';
    if (!root || !root[0] || !strcmp(root, "/")) return;
    nn_probe_strlcpy(fs->root, root, sizeof fs->root);
    size_t n = strlen(fs->root);
    while (n > 1 && fs->root[n - 1] == '/') fs->root[--n] = '\0';
}

void nn_probe_fs_path(const nn_probe_fs *fs, const char *rel, char *out, size_t size) {
    if (!size) return;
    while (*rel == '/') rel++;
    size_t r = strlen(fs->root), n = strlen(rel);
    if (r >= size) r = size - 1;
    memcpy(out, fs->root, r);
    if (r + 1 < size) out[r++] = '/';
    if (n > size - 1 - r) n = size - 1 - r;
    memcpy(out + r, rel, n);
    out[r + n] = '\0';
}

long nn_probe_fs_read_bin(const nn_probe_fs *fs, const char *rel, unsigned char *buf, size_t size) {
    char path[NN_PROBE_PATH_MAX];
    nn_probe_fs_path(fs, rel, path, sizeof path);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    size_t len = 0;
    while (len < size) {
        ssize_t got = read(fd, buf + len, size - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fd);
    return (long)len;
}

long nn_probe_fs_read(const nn_probe_fs *fs, const char *rel, char *buf, size_t size) {
    char path[NN_PROBE_PATH_MAX];
    if (!size) return -1;
    buf[0] = '\0';
    nn_probe_fs_path(fs, rel, path, sizeof path);
    /* O_NONBLOCK so a FIFO in a tree cannot hang the probe. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    size_t len = 0;
    while (len + 1 < size) {
        ssize_t got = read(fd, buf + len, size - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fd);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\0') buf[i] = ' ';
    return (long)len;
}

bool nn_probe_fs_line(const nn_probe_fs *fs, const char *rel, char *buf, size_t size) {
    if (nn_probe_fs_read(fs, rel, buf, size) < 0) return false;
    char *nl = strchr(buf, '\n');
    if (nl) *nl = '\0';
    nn_probe_trim(buf);
    return buf[0] != '\0';
}

bool nn_probe_parse_int(const char *s, int64_t *out) {
    char tmp[64];
    nn_probe_strlcpy(tmp, s, sizeof tmp);
    nn_probe_trim(tmp);
    if (!tmp[0]) return false;
    errno = 0;
    char *end = NULL;
    long long v;
    if (tmp[0] == '0' && (tmp[1] == 'x' || tmp[1] == 'X')) {
        if (!isxdigit((unsigned char)tmp[2])) return false;
        unsigned long long u = strtoull(tmp, &end, 16);
        if (u > (unsigned long long)LLONG_MAX) return false;
        v = (long long)u;
    } else {
        v = strtoll(tmp, &end, 10);
    }
    if (errno || end == tmp || *end) return false;
    *out = (int64_t)v;
    return true;
}

bool nn_probe_fs_int(const nn_probe_fs *fs, const char *rel, int64_t *out) {
    char buf[64];
    if (!nn_probe_fs_line(fs, rel, buf, sizeof buf)) return false;
    return nn_probe_parse_int(buf, out);
}

bool nn_probe_fs_link_name(const nn_probe_fs *fs, const char *rel, char *buf, size_t size) {
    char path[NN_PROBE_PATH_MAX], target[NN_PROBE_PATH_MAX];
    nn_probe_fs_path(fs, rel, path, sizeof path);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0) return false;
    target[n] = '\0';
    /* A recorded tree may omit the target (sysfs driver directories), but a loop is
     * never a real link. */
    char real[PATH_MAX];
    if (!realpath(path, real) && errno == ELOOP) return false;
    while (n > 1 && target[n - 1] == '/') target[--n] = '\0';
    const char *slash = strrchr(target, '/');
    nn_probe_strlcpy(buf, slash ? slash + 1 : target, size);
    return buf[0] != '\0';
}

bool nn_probe_fs_resolve(const nn_probe_fs *fs, const char *rel, char *buf, size_t size) {
    char path[NN_PROBE_PATH_MAX], real[PATH_MAX], root[PATH_MAX];
    nn_probe_fs_path(fs, rel, path, sizeof path);
    if (!realpath(path, real)) return false;
    if (!fs->root[0]) {
        nn_probe_strlcpy(buf, real[0] == '/' ? real + 1 : real, size);
        return true;
    }
    if (!realpath(fs->root, root)) return false;
    size_t n = strlen(root);
    if (strncmp(real, root, n) != 0 || (real[n] != '/' && real[n] != '\0')) return false;
    nn_probe_strlcpy(buf, real[n] == '/' ? real + n + 1 : real + n, size);
    return true;
}

bool nn_probe_fs_exists(const nn_probe_fs *fs, const char *rel) {
    char path[NN_PROBE_PATH_MAX];
    struct stat st;
    nn_probe_fs_path(fs, rel, path, sizeof path);
    return lstat(path, &st) == 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int nn_probe_fs_list(const nn_probe_fs *fs, const char *rel, const char *prefix, char ***names) {
    char path[NN_PROBE_PATH_MAX];
    *names = NULL;
    nn_probe_fs_path(fs, rel, path, sizeof path);
    DIR *d = opendir(path);
    if (!d) return 0;
    int n = 0, cap = 0;
    char **v = NULL;
    struct dirent *e;
    size_t plen = prefix ? strlen(prefix) : 0;
    while ((e = readdir(d)) != NULL && n < 4096) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (prefix && strncmp(e->d_name, prefix, plen) != 0) continue;
        if (n == cap) {
            int ncap = cap ? cap * 2 : 16;
            char **nv = realloc(v, (size_t)ncap * sizeof *nv);
            if (!nv) break;
            v = nv;
            cap = ncap;
        }
        char *s = strdup(e->d_name);
        if (!s) break;
        v[n++] = s;
    }
    closedir(d);
    if (n) qsort(v, (size_t)n, sizeof *v, by_name);
    *names = v;
    return n;
}

void nn_probe_fs_list_free(char **names, int n) {
    if (!names) return;
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
}
