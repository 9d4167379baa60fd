/* kernel_spec: `nndb install-kernel` and the logo it draws. See kernel_spec.h. */
#include "kernel_spec.h"

#include "lang.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kernel_docs.h"

/* ---- the logo: a 2-3-2 network on a rounded dark square ---- */

static uint32_t crc_table[256];

static uint32_t crc32_of(const uint8_t *p, size_t n, uint32_t crc) {
    if (!crc_table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            crc_table[i] = c;
        }
    }
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Appends a PNG chunk at *at; returns the new end. */
static uint8_t *chunk(uint8_t *at, const char *type, const uint8_t *data, size_t n) {
    put32(at, (uint32_t)n);
    memcpy(at + 4, type, 4);
    if (n) memcpy(at + 8, data, n);
    put32(at + 8 + n, crc32_of(at + 4, n + 4, 0));
    return at + 12 + n;
}

static double seg_dist(double px, double py, double ax, double ay, double bx, double by) {
    double dx = bx - ax, dy = by - ay;
    double t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double qx = ax + t * dx - px, qy = ay + t * dy - py;
    return sqrt(qx * qx + qy * qy);
}

/* RGBA of the logo at (x, y) in the unit square. */
static void logo_at(double x, double y, double rgba[4]) {
    static const double bg[4] = {0.15, 0.20, 0.22, 1}, line[4] = {0.69, 0.75, 0.77, 1},
                        node[4] = {1.0, 0.44, 0.26, 1};
    /* Rounded square, corner radius 0.18. */
    double r = 0.18, cx = x < r ? r : x > 1 - r ? 1 - r : x, cy = y < r ? r : y > 1 - r ? 1 - r : y;
    if ((x - cx) * (x - cx) + (y - cy) * (y - cy) > r * r) {
        rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
        return;
    }
    static const double lx[3] = {0.22, 0.5, 0.78};
    static const int count[3] = {2, 3, 2};
    double nx[7], ny[7];
    int layer_start[3], n = 0;
    for (int l = 0; l < 3; l++) {
        layer_start[l] = n;
        for (int i = 0; i < count[l]; i++, n++) {
            nx[n] = lx[l];
            ny[n] = 0.5 + (i - (count[l] - 1) / 2.0) * 0.26;
        }
    }
    const double *c = bg;
    for (int i = 0; i < n; i++)
        if ((x - nx[i]) * (x - nx[i]) + (y - ny[i]) * (y - ny[i]) < 0.085 * 0.085) c = node;
    for (int l = 0; l < 2 && c == bg; l++)
        for (int i = 0; i < count[l]; i++)
            for (int j = 0; j < count[l + 1]; j++) {
                int a = layer_start[l] + i, b = layer_start[l + 1] + j;
                if (seg_dist(x, y, nx[a], ny[a], nx[b], ny[b]) < 0.018) c = line;
            }
    memcpy(rgba, c, sizeof(double) * 4);
}

uint8_t *kernel_spec_logo_png(int size, size_t *len) {
    *len = 0;
    if (size <= 0 || size > 1024) return NULL;
    size_t row = (size_t)size * 4 + 1, raw_len = row * (size_t)size;
    size_t blocks = (raw_len + 65534) / 65535;
    size_t z_len = 2 + raw_len + blocks * 5 + 4;
    size_t total = 8 + (12 + 13) + (12 + z_len) + 12;
    uint8_t *raw = malloc(raw_len), *png = malloc(total), *z = malloc(z_len);
    if (!raw || !png || !z) {
        free(raw), free(png), free(z);
        return NULL;
    }
    /* Pixels, 4x4 supersampled, filter byte 0 on each row. */
    enum { SS = 4 };
    for (int y = 0; y < size; y++) {
        uint8_t *p = raw + (size_t)y * row;
        *p++ = 0;
        for (int x = 0; x < size; x++) {
            double acc[4] = {0, 0, 0, 0};
            for (int sy = 0; sy < SS; sy++)
                for (int sx = 0; sx < SS; sx++) {
                    double c[4];
                    logo_at((x + (sx + 0.5) / SS) / size, (y + (sy + 0.5) / SS) / size, c);
                    for (int i = 0; i < 3; i++) acc[i] += c[i] * c[3];
                    acc[3] += c[3];
                }
            for (int i = 0; i < 3; i++)
                *p++ = (uint8_t)lround(acc[3] > 0 ? 255.0 * acc[i] / acc[3] : 0);
            *p++ = (uint8_t)lround(255.0 * acc[3] / (SS * SS));
        }
    }
    /* zlib: stored deflate blocks, then Adler-32. */
    uint8_t *o = z;
    *o++ = 0x78, *o++ = 0x01;
    uint32_t s1 = 1, s2 = 0;
    for (size_t i = 0; i < raw_len; i++) {
        s1 = (s1 + raw[i]) % 65521;
        s2 = (s2 + s1) % 65521;
    }
    for (size_t off = 0; off < raw_len || off == 0; off += 65535) {
        size_t n = raw_len - off < 65535 ? raw_len - off : 65535;
        *o++ = off + n >= raw_len ? 1 : 0;
        *o++ = (uint8_t)n, *o++ = (uint8_t)(n >> 8);
        *o++ = (uint8_t)~n, *o++ = (uint8_t)(~n >> 8);
        memcpy(o, raw + off, n);
        o += n;
        if (off + n >= raw_len) break;
    }
    put32(o, (s2 << 16) | s1);
    o += 4;
    uint8_t ihdr[13];
    put32(ihdr, (uint32_t)size);
    put32(ihdr + 4, (uint32_t)size);
    ihdr[8] = 8, ihdr[9] = 6, ihdr[10] = 0, ihdr[11] = 0, ihdr[12] = 0; /* 8-bit RGBA */
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(png, sig, 8);
    uint8_t *end = chunk(png + 8, "IHDR", ihdr, 13);
    end = chunk(end, "IDAT", z, (size_t)(o - z));
    end = chunk(end, "IEND", NULL, 0);
    *len = (size_t)(end - png);
    free(raw);
    free(z);
    return png;
}

/* ---- install-kernel ---- */

static int mkdirs(const char *path) {
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int write_file(const char *dir, const char *name, const void *data, size_t n) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return -1;
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "nndb install-kernel: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(data, 1, n, f) == n;
    ok = fclose(f) == 0 && ok;
    if (!ok) fprintf(stderr, "nndb install-kernel: cannot write %s\n", path);
    return ok ? 0 : -1;
}

static int install_usage(void) {
    fprintf(stderr,
            "usage: nndb install-kernel [--user | --sys-prefix | --prefix DIR] [--name NAME]\n"
            "                           [--display-name TEXT] [--interrupt-mode message|signal]\n"
            "  --user        ~/.local/share/jupyter/kernels/NAME (the default; honours\n"
            "                JUPYTER_DATA_DIR and XDG_DATA_HOME)\n"
            "  --sys-prefix  $VIRTUAL_ENV, $CONDA_PREFIX or /usr, then share/jupyter/kernels/NAME\n"
            "  --prefix DIR  DIR/share/jupyter/kernels/NAME\n");
    return 2;
}

static bool valid_name(const char *s) {
    if (!*s || strlen(s) > 64) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_' || *s == '.'))
            return false;
    return true;
}

int kernel_spec_main(int argc, char **argv) {
    const char *where = "user", *prefix = NULL, *name = "nndb",
               *display = lang_language_info()->display_name;
    const char *mode = "message";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--user"))
            where = "user";
        else if (!strcmp(a, "--sys-prefix"))
            where = "sys-prefix";
        else if (!strcmp(a, "--prefix") && i + 1 < argc)
            where = "prefix", prefix = argv[++i];
        else if (!strncmp(a, "--prefix=", 9))
            where = "prefix", prefix = a + 9;
        else if (!strcmp(a, "--name") && i + 1 < argc)
            name = argv[++i];
        else if (!strncmp(a, "--name=", 7))
            name = a + 7;
        else if (!strcmp(a, "--display-name") && i + 1 < argc)
            display = argv[++i];
        else if (!strncmp(a, "--display-name=", 15))
            display = a + 15;
        else if (!strcmp(a, "--interrupt-mode") && i + 1 < argc)
            mode = argv[++i];
        else if (!strncmp(a, "--interrupt-mode=", 17))
            mode = a + 17;
        else
            return install_usage();
    }
    if (!valid_name(name)) {
        fprintf(stderr, "nndb install-kernel: a kernel name is letters, digits, '-', '_' or '.'\n");
        return 2;
    }
    if (strcmp(mode, "message") != 0 && strcmp(mode, "signal") != 0) return install_usage();

    char dir[PATH_MAX];
    int n;
    if (!strcmp(where, "prefix")) {
        n = snprintf(dir, sizeof dir, "%s/share/jupyter/kernels/%s", prefix, name);
    } else if (!strcmp(where, "sys-prefix")) {
        const char *p = getenv("VIRTUAL_ENV");
        if (!p || !*p) p = getenv("CONDA_PREFIX");
        if (!p || !*p) p = "/usr";
        n = snprintf(dir, sizeof dir, "%s/share/jupyter/kernels/%s", p, name);
    } else {
        const char *jd = getenv("JUPYTER_DATA_DIR"), *xdg = getenv("XDG_DATA_HOME");
        const char *home = getenv("HOME");
        if (jd && *jd)
            n = snprintf(dir, sizeof dir, "%s/kernels/%s", jd, name);
        else if (xdg && *xdg)
            n = snprintf(dir, sizeof dir, "%s/jupyter/kernels/%s", xdg, name);
        else if (home && *home)
            n = snprintf(dir, sizeof dir, "%s/.local/share/jupyter/kernels/%s", home, name);
        else {
            fprintf(stderr, "nndb install-kernel: HOME is not set; use --prefix DIR\n");
            return 1;
        }
    }
    if (n < 0 || n >= (int)sizeof dir) {
        fprintf(stderr, "nndb install-kernel: the path is too long\n");
        return 1;
    }

    char exe[PATH_MAX];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el <= 0) {
        fprintf(stderr, "nndb install-kernel: cannot find the nndb binary's path\n");
        return 1;
    }
    exe[el] = 0;

    if (mkdirs(dir) != 0) {
        fprintf(stderr, "nndb install-kernel: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    cJSON *spec = cJSON_CreateObject();
    cJSON *av = cJSON_AddArrayToObject(spec, "argv");
    const char *args[] = {exe, "kernel", "-f", "{connection_file}"};
    for (int i = 0; i < 4; i++) cJSON_AddItemToArray(av, cJSON_CreateString(args[i]));
    cJSON_AddStringToObject(spec, "display_name", display);
    cJSON_AddStringToObject(spec, "language", lang_language_info()->name);
    cJSON_AddStringToObject(spec, "interrupt_mode", mode);
    /* The docs as HTML beside kernel.json: from the source tree of a build
     * (build/../docs, build/NAME/../../docs, as the binary finds python/)
     * or from an install (PREFIX/share/doc/nndb). */
    char docs_src[PATH_MAX + 32], docs_dst[PATH_MAX + 8];
    int pages = -1;
    {
        char bin[PATH_MAX];
        snprintf(bin, sizeof bin, "%s", exe);
        char *slash = strrchr(bin, '/');
        if (slash) *slash = 0;
        static const char *const tries[] = {"/../docs", "/../../docs", "/../share/doc/nndb"};
        snprintf(docs_dst, sizeof docs_dst, "%s/doc", dir);
        /* A folder without pages is not the docs (build/docs may be a
         * build folder of that name): go on looking. */
        for (size_t i = 0; i < sizeof tries / sizeof tries[0] && pages <= 0; i++) {
            snprintf(docs_src, sizeof docs_src, "%s%s", bin, tries[i]);
            pages = kernel_docs_install(docs_src, docs_dst);
        }
        if (pages < 0)
            fprintf(stderr,
                    "nndb install-kernel: warning: no docs found next to %s; the help "
                    "links will point at nndb's pages only once they are installed\n",
                    exe);
    }
    cJSON *env = cJSON_AddObjectToObject(spec, "env");
    /* Where the kernel finds its help pages (for kernel_info's help_links). */
    cJSON_AddStringToObject(env, "NNDB_KERNELSPEC", name);
    if (pages >= 0) cJSON_AddStringToObject(env, "NNDB_KERNEL_DOCS", docs_dst);
    cJSON *md = cJSON_AddObjectToObject(spec, "metadata");
    cJSON_AddBoolToObject(md, "debugger", true);
    char *text = cJSON_Print(spec);
    cJSON_Delete(spec);
    int rc = text ? write_file(dir, "kernel.json", text, strlen(text)) : -1;
    free(text);
    static const int sizes[2] = {32, 64};
    for (int i = 0; i < 2 && rc == 0; i++) {
        size_t len;
        uint8_t *png = kernel_spec_logo_png(sizes[i], &len);
        char file[32];
        snprintf(file, sizeof file, "logo-%dx%d.png", sizes[i], sizes[i]);
        rc = png ? write_file(dir, file, png, len) : -1;
        free(png);
    }
    if (rc != 0) return 1;
    printf("Installed kernelspec %s in %s\n", name, dir);
    return 0;
}
