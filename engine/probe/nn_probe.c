#include "nn_probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_probe_amd.h"
#include "nn_probe_host.h"
#include "nn_probe_nvidia.h"

/* ---- readings ---------------------------------------------------------------------------- */

static char *dup_or_null(const char *s) {
    return s ? strdup(s) : NULL;
}

static nn_probe_reading *add_reading(nn_probe_readings *r, const char *key, nn_probe_kind kind,
                                     const char *unit, const char *source) {
    if (r->n == r->cap) {
        int ncap = r->cap ? r->cap * 2 : 32;
        nn_probe_reading *nv = realloc(r->v, (size_t)ncap * sizeof *nv);
        if (!nv) return NULL;
        r->v = nv;
        r->cap = ncap;
    }
    nn_probe_reading *x = &r->v[r->n];
    memset(x, 0, sizeof *x);
    x->key = strdup(key);
    x->source = strdup(source ? source : "");
    if (!x->key || !x->source) {
        free(x->key);
        free(x->source);
        return NULL;
    }
    x->kind = kind;
    x->unit = unit ? unit : "";
    r->n++;
    return x;
}

void nn_probe_add_int(nn_probe_readings *r, const char *key, int64_t v, const char *unit,
                      const char *source) {
    nn_probe_reading *x = add_reading(r, key, NN_PROBE_INT, unit, source);
    if (x) x->available = true, x->i = v, x->num = (double)v;
}

void nn_probe_add_num(nn_probe_readings *r, const char *key, double v, const char *unit,
                      const char *source) {
    if (!isfinite(v)) {
        nn_probe_add_na(r, key, NN_PROBE_NUM, unit, source, "not a finite number");
        return;
    }
    nn_probe_reading *x = add_reading(r, key, NN_PROBE_NUM, unit, source);
    if (x) x->available = true, x->num = v;
}

void nn_probe_add_str(nn_probe_readings *r, const char *key, const char *v, const char *source) {
    nn_probe_reading *x = add_reading(r, key, NN_PROBE_STR, "", source);
    if (!x) return;
    x->str = dup_or_null(v ? v : "");
    x->available = x->str != NULL;
}

void nn_probe_add_na(nn_probe_readings *r, const char *key, nn_probe_kind kind, const char *unit,
                     const char *source, const char *note) {
    nn_probe_reading *x = add_reading(r, key, kind, unit, source);
    if (x) x->note = dup_or_null(note);
}

bool nn_probe_add_file_int(nn_probe_readings *r, const nn_probe_fs *fs, const char *key,
                           const char *rel, const char *unit) {
    int64_t v;
    if (nn_probe_fs_int(fs, rel, &v)) {
        nn_probe_add_int(r, key, v, unit, rel);
        return true;
    }
    nn_probe_add_na(r, key, NN_PROBE_INT, unit, rel,
                    nn_probe_fs_exists(fs, rel) ? "unreadable or not a number" : "missing");
    return false;
}

bool nn_probe_add_file_str(nn_probe_readings *r, const nn_probe_fs *fs, const char *key,
                           const char *rel) {
    char buf[256];
    if (nn_probe_fs_line(fs, rel, buf, sizeof buf)) {
        nn_probe_add_str(r, key, buf, rel);
        return true;
    }
    nn_probe_add_na(r, key, NN_PROBE_STR, "", rel,
                    nn_probe_fs_exists(fs, rel) ? "unreadable or empty" : "missing");
    return false;
}

const nn_probe_reading *nn_probe_find(const nn_probe_readings *r, const char *key) {
    for (int i = r->n - 1; i >= 0; i--)
        if (!strcmp(r->v[i].key, key)) return &r->v[i];
    return NULL;
}

bool nn_probe_get_int(const nn_probe_readings *r, const char *key, int64_t *out) {
    const nn_probe_reading *x = nn_probe_find(r, key);
    if (!x || !x->available || x->kind != NN_PROBE_INT) return false;
    *out = x->i;
    return true;
}

bool nn_probe_get_num(const nn_probe_readings *r, const char *key, double *out) {
    const nn_probe_reading *x = nn_probe_find(r, key);
    if (!x || !x->available || x->kind == NN_PROBE_STR) return false;
    *out = x->kind == NN_PROBE_INT ? (double)x->i : x->num;
    return true;
}

const char *nn_probe_get_str(const nn_probe_readings *r, const char *key) {
    const nn_probe_reading *x = nn_probe_find(r, key);
    if (!x || !x->available || x->kind != NN_PROBE_STR) return NULL;
    return x->str;
}

void nn_probe_readings_free(nn_probe_readings *r) {
    if (!r) return;
    for (int i = 0; i < r->n; i++) {
        free(r->v[i].key);
        free(r->v[i].str);
        free(r->v[i].source);
        free(r->v[i].note);
    }
    free(r->v);
    r->v = NULL;
    r->n = r->cap = 0;
}

/* ---- PCIe arithmetic --------------------------------------------------------------------- */

double nn_probe_lane_gbps(double gts) {
    /* Gen1/2 use 8b/10b; Gen3 to Gen5 use 128b/130b; Gen6 uses FLIT mode (~242/256). */
    if (gts <= 0) return 0;
    if (gts < 6) return gts * 0.8 / 8.0;
    if (gts < 60) return gts * (128.0 / 130.0) / 8.0;
    return gts * (242.0 / 256.0) / 8.0;
}

const char *nn_probe_gen_name(double gts) {
    if (gts <= 0) return "?";
    if (gts < 3) return "Gen1";
    if (gts < 6) return "Gen2";
    if (gts < 10) return "Gen3";
    if (gts < 20) return "Gen4";
    if (gts < 40) return "Gen5";
    if (gts < 80) return "Gen6";
    return "Gen7";
}

/* ---- pci.ids ----------------------------------------------------------------------------- */

void nn_probe_pci_name(const nn_probe_fs *fs, unsigned vendor, unsigned device, char *out,
                       size_t size) {
    static const char *const files[] = {"usr/share/misc/pci.ids", "usr/share/hwdata/pci.ids"};
    char vname[128] = "", dname[128] = "";
    for (size_t f = 0; f < sizeof files / sizeof files[0] && !vname[0]; f++) {
        char path[NN_PROBE_PATH_MAX];
        nn_probe_fs_path(fs, files[f], path, sizeof path);
        FILE *fp = fopen(path, "r");
        if (!fp) continue;
        char line[512];
        bool in_vendor = false;
        while (fgets(line, sizeof line, fp)) {
            if (line[0] == '#' || line[0] == '\n') continue;
            unsigned id;
            char rest[400];
            if (line[0] != '\t') {
                if (in_vendor) break;
                if (sscanf(line, "%4x %399[^\n]", &id, rest) == 2 && id == vendor) {
                    in_vendor = true;
                    nn_probe_strlcpy(vname, nn_probe_trim(rest), sizeof vname);
                }
            } else if (in_vendor && line[1] != '\t') {
                if (sscanf(line + 1, "%4x %399[^\n]", &id, rest) == 2 && id == device) {
                    nn_probe_strlcpy(dname, nn_probe_trim(rest), sizeof dname);
                    break;
                }
            }
        }
        fclose(fp);
    }
    if (vname[0] && dname[0])
        snprintf(out, size, "%s %s", vname, dname);
    else if (vname[0])
        snprintf(out, size, "%s device 0x%04x", vname, device);
    else
        snprintf(out, size, "vendor 0x%04x device 0x%04x", vendor, device);
}

/* ---- PCI sysfs --------------------------------------------------------------------------- */

static bool is_bdf(const char *s) {
    unsigned d, b, dev, fn;
    char tail;
    return strlen(s) == 12 && sscanf(s, "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &fn, &tail) == 4;
}

static double parse_speed(const char *s) {
    /* "16.0 GT/s PCIe", "8 GT/s", "Unknown" */
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v <= 0 || v > 1000) return 0;
    return v;
}

static void read_hop(const nn_probe_fs *fs, const char *dir, nn_probe_hop *h) {
    char rel[NN_PROBE_PATH_MAX], buf[64];
    int64_t v;
    snprintf(rel, sizeof rel, "%s/current_link_speed", dir);
    if (nn_probe_fs_line(fs, rel, buf, sizeof buf)) h->cur_speed = parse_speed(buf);
    snprintf(rel, sizeof rel, "%s/max_link_speed", dir);
    if (nn_probe_fs_line(fs, rel, buf, sizeof buf)) h->max_speed = parse_speed(buf);
    snprintf(rel, sizeof rel, "%s/current_link_width", dir);
    if (nn_probe_fs_int(fs, rel, &v) && v > 0 && v <= 32) h->cur_width = (int)v;
    snprintf(rel, sizeof rel, "%s/max_link_width", dir);
    if (nn_probe_fs_int(fs, rel, &v) && v > 0 && v <= 32) h->max_width = (int)v;
    snprintf(rel, sizeof rel, "%s/vendor", dir);
    if (nn_probe_fs_int(fs, rel, &v) && v >= 0 && v <= 0xffff) h->vendor = (unsigned)v;
}

/* AER counter files list "NAME count" lines and end with TOTAL_ERR_*; older kernels
 * omit the total, so sum the lines then. */
static bool read_aer(const nn_probe_fs *fs, const char *rel, int64_t *total) {
    char buf[4096];
    if (nn_probe_fs_read(fs, rel, buf, sizeof buf) <= 0) return false;
    int64_t sum = 0, tot = -1;
    bool any = false;
    for (char *sv_, *line = strtok_r(buf, "\n", &sv_); line; line = strtok_r(NULL, "\n", &sv_)) {
        char name[64];
        long long n;
        if (sscanf(line, "%63s %lld", name, &n) != 2 || n < 0) continue;
        any = true;
        if (!strncmp(name, "TOTAL_", 6))
            tot = n;
        else if (sum < INT64_MAX - n)
            sum += n;
    }
    if (!any) return false;
    *total = tot >= 0 ? tot : sum;
    return true;
}

static void add_aer(nn_probe_gpu *g, const nn_probe_fs *fs, const char *dir, const char *prefix,
                    bool rootport) {
    static const char *const kinds[][3] = {{"correctable", "aer_dev_correctable", "cor"},
                                           {"nonfatal", "aer_dev_nonfatal", "nonfatal"},
                                           {"fatal", "aer_dev_fatal", "fatal"}};
    for (int k = 0; k < 3; k++) {
        char rel[NN_PROBE_PATH_MAX], key[64];
        int64_t v;
        snprintf(key, sizeof key, "%s.aer.%s", prefix, kinds[k][0]);
        if (rootport) {
            snprintf(rel, sizeof rel, "%s/aer_rootport_total_err_%s", dir, kinds[k][2]);
            if (nn_probe_fs_int(fs, rel, &v) && v >= 0) {
                nn_probe_add_int(&g->r, key, v, "", rel);
                continue;
            }
        }
        snprintf(rel, sizeof rel, "%s/%s", dir, kinds[k][1]);
        if (read_aer(fs, rel, &v))
            nn_probe_add_int(&g->r, key, v, "", rel);
        else
            nn_probe_add_na(&g->r, key, NN_PROBE_INT, "", rel,
                            "no AER counters (AER off or firmware-first)");
    }
}

/* resource: one "start end flags" line per BAR, then the ROM and bridge windows. */
static void add_bars(nn_probe_gpu *g, const nn_probe_fs *fs, const char *dir) {
    char rel[NN_PROBE_PATH_MAX], buf[2048];
    snprintf(rel, sizeof rel, "%s/resource", dir);
    if (nn_probe_fs_read(fs, rel, buf, sizeof buf) <= 0) {
        nn_probe_add_na(&g->r, "pci.bar.largest", NN_PROBE_INT, "bytes", rel, "missing");
        return;
    }
    int64_t largest = -1;
    int idx = 0, largest_idx = -1;
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line && idx < 6;
         line = strtok_r(NULL, "\n", &save), idx++) {
        unsigned long long start, end, flags;
        if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3) continue;
        if (end <= start || !(flags & 0x200)) continue; /* IORESOURCE_MEM only */
        int64_t size = (int64_t)(end - start + 1);
        if (size <= 0) continue;
        char key[32];
        snprintf(key, sizeof key, "pci.bar%d.size", idx);
        nn_probe_add_int(&g->r, key, size, "bytes", rel);
        if (size > largest) largest = size, largest_idx = idx;
    }
    if (largest > 0) {
        nn_probe_add_int(&g->r, "pci.bar.largest", largest, "bytes", rel);
        nn_probe_add_int(&g->r, "pci.bar.largest_index", largest_idx, "", rel);
    } else {
        nn_probe_add_na(&g->r, "pci.bar.largest", NN_PROBE_INT, "bytes", rel,
                        "no memory BARs parsed");
    }
}

/* Walk the PCIe capability in config space. Unprivileged readers get only the first
 * 64 bytes, where it rarely sits, so this is "not available" for most users. */
static bool config_devctl2(const nn_probe_fs *fs, const char *dir, unsigned *devcap2,
                           unsigned *devctl2) {
    unsigned char cfg[256];
    char rel[NN_PROBE_PATH_MAX];
    snprintf(rel, sizeof rel, "%s/config", dir);
    long n = nn_probe_fs_read_bin(fs, rel, cfg, sizeof cfg);
    if (n < 0x40 || !(cfg[0x06] & 0x10)) return false;
    unsigned p = cfg[0x34] & 0xfc;
    for (int guard = 0; guard < 48 && p >= 0x40 && p + 2 <= (unsigned)n; guard++) {
        if (cfg[p] == 0x10) {
            if (p + 0x2a > (unsigned)n) return false;
            *devcap2 = (unsigned)cfg[p + 0x24] | (unsigned)cfg[p + 0x25] << 8 |
                       (unsigned)cfg[p + 0x26] << 16 | (unsigned)cfg[p + 0x27] << 24;
            *devctl2 = (unsigned)cfg[p + 0x28] | (unsigned)cfg[p + 0x29] << 8;
            return true;
        }
        p = cfg[p + 1] & 0xfc;
    }
    return false;
}

/* Link fields use 0 for "unknown" (sysfs says "Unknown" or 0 for a missing link). */
static void add_known(nn_probe_readings *r, const char *key, double v, const char *unit,
                      const char *src) {
    bool lanes = !strcmp(unit, "lanes");
    if (v <= 0)
        nn_probe_add_na(r, key, lanes ? NN_PROBE_INT : NN_PROBE_NUM, unit, src, "unknown");
    else if (lanes)
        nn_probe_add_int(r, key, (int64_t)v, unit, src);
    else
        nn_probe_add_num(r, key, v, unit, src);
}

static void add_link(nn_probe_gpu *g) {
    nn_probe_hop *p = g->path;
    int n = g->n_path;
    if (n == 0) return;
    char src[128];
    snprintf(src, sizeof src, "sys/bus/pci/devices/%.15s/{current,max}_link_{speed,width}",
             p[0].bdf);
    add_known(&g->r, "pci.link.cur_speed", p[0].cur_speed, "GT/s", src);
    add_known(&g->r, "pci.link.cur_width", p[0].cur_width, "lanes", src);
    add_known(&g->r, "pci.link.max_speed", p[0].max_speed, "GT/s", src);
    add_known(&g->r, "pci.link.max_width", p[0].max_width, "lanes", src);

    /* The card ends at its topmost bridge of the GPU's own vendor (AMD boards carry
     * an internal switch); the slot is the port above that. */
    int top = 0;
    while (top + 1 < n && p[top + 1].vendor == g->vendor) top++;
    char buf[256];
    snprintf(src, sizeof src, "sys/bus/pci/devices/%.15s/max_link_{speed,width}", p[top].bdf);
    nn_probe_add_str(&g->r, "pci.card_top", p[top].bdf, src);
    if (p[top].max_speed)
        nn_probe_add_num(&g->r, "pci.link.card_max_speed", p[top].max_speed, "GT/s", src);
    if (p[top].max_width)
        nn_probe_add_int(&g->r, "pci.link.card_max_width", p[top].max_width, "lanes", src);
    if (top + 1 < n) {
        snprintf(src, sizeof src, "sys/bus/pci/devices/%.15s/max_link_{speed,width}",
                 p[top + 1].bdf);
        nn_probe_add_str(&g->r, "pci.slot_port", p[top + 1].bdf, src);
        if (p[top + 1].max_speed)
            nn_probe_add_num(&g->r, "pci.link.slot_max_speed", p[top + 1].max_speed, "GT/s", src);
        if (p[top + 1].max_width)
            nn_probe_add_int(&g->r, "pci.link.slot_max_width", p[top + 1].max_width, "lanes", src);
    }
    nn_probe_add_str(&g->r, "pci.root_port", p[n - 1].bdf, src);

    /* Link k joins p[k] (upstream port of the child) and p[k+1]. */
    int links = n > 1 ? n - 1 : 1, best = -1;
    double best_bw = 0;
    for (int k = 0; k < links; k++) {
        double sp = p[k].cur_speed ? p[k].cur_speed : (k + 1 < n ? p[k + 1].cur_speed : 0);
        int w = p[k].cur_width ? p[k].cur_width : (k + 1 < n ? p[k + 1].cur_width : 0);
        if (!sp || !w) continue;
        double bw = nn_probe_lane_gbps(sp) * w;
        if (best < 0 || bw < best_bw) best = k, best_bw = bw;
    }
    if (best < 0) {
        nn_probe_add_na(&g->r, "pci.link.narrowest_hop", NN_PROBE_STR, "", "sys/bus/pci/devices",
                        "no link speed or width readable");
        return;
    }
    int k = best;
    snprintf(src, sizeof src, "sys/bus/pci/devices/%.15s/current_link_{speed,width}", p[k].bdf);
    double sp = p[k].cur_speed ? p[k].cur_speed : p[k + 1].cur_speed;
    int w = p[k].cur_width ? p[k].cur_width : p[k + 1].cur_width;
    if (k + 1 < n)
        snprintf(buf, sizeof buf, "%s-%s", p[k + 1].bdf, p[k].bdf);
    else
        snprintf(buf, sizeof buf, "%s", p[k].bdf);
    nn_probe_add_str(&g->r, "pci.link.narrowest_hop", buf, src);
    nn_probe_add_num(&g->r, "pci.link.narrowest_speed", sp, "GT/s", src);
    nn_probe_add_int(&g->r, "pci.link.narrowest_width", w, "lanes", src);
    nn_probe_add_num(&g->r, "pci.link.narrowest_gbps", best_bw, "GB/s", src);
    /* What the two ends of that hop could train to. */
    double cap_sp = p[k].max_speed;
    int cap_w = p[k].max_width;
    if (k + 1 < n) {
        if (p[k + 1].max_speed && (!cap_sp || p[k + 1].max_speed < cap_sp))
            cap_sp = p[k + 1].max_speed;
        if (p[k + 1].max_width && (!cap_w || p[k + 1].max_width < cap_w))
            cap_w = p[k + 1].max_width;
    }
    if (cap_sp) nn_probe_add_num(&g->r, "pci.link.narrowest_max_speed", cap_sp, "GT/s", src);
    if (cap_w) nn_probe_add_int(&g->r, "pci.link.narrowest_max_width", cap_w, "lanes", src);
}

/* "AMD Radeon Pro VII/Radeon Instinct MI50 32GB" from pci.ids' longer
 * "Advanced Micro Devices, Inc. [AMD/ATI] Vega 20 [Radeon Pro VII/...]": the last
 * bracketed part of the name is the marketing name. */
static void short_name(nn_probe_gpu *g) {
    const char *open = strrchr(g->name, '[');
    const char *close = open ? strchr(open, ']') : NULL;
    const char *vendor = g->vendor == 0x10de ? "NVIDIA" : g->vendor == 0x1002 ? "AMD" : "Intel";
    if (!open || !close || close - open < 2 || strstr(g->name, "[AMD/ATI]") == open) return;
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s %.*s", vendor, (int)(close - open - 1), open + 1);
    nn_probe_strlcpy(g->name, tmp, sizeof g->name);
}

static void read_pci(const nn_probe_fs *fs, nn_probe_gpu *g) {
    char dev[64], rel[NN_PROBE_PATH_MAX], buf[256];
    snprintf(dev, sizeof dev, "sys/bus/pci/devices/%s", g->bdf);
    nn_probe_readings *r = &g->r;

    static const char *const ids[][2] = {{"pci.vendor_id", "vendor"},
                                         {"pci.device_id", "device"},
                                         {"pci.subsystem_vendor_id", "subsystem_vendor"},
                                         {"pci.subsystem_device_id", "subsystem_device"},
                                         {"pci.class", "class"},
                                         {"pci.revision", "revision"}};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        snprintf(rel, sizeof rel, "%s/%s", dev, ids[i][1]);
        nn_probe_add_file_str(r, fs, ids[i][0], rel);
    }
    nn_probe_pci_name(fs, g->vendor, g->device, g->name, sizeof g->name);
    nn_probe_add_str(r, "pci.name", g->name, "usr/share/misc/pci.ids");
    short_name(g);

    snprintf(rel, sizeof rel, "%s/driver", dev);
    if (nn_probe_fs_link_name(fs, rel, buf, sizeof buf)) {
        nn_probe_strlcpy(g->driver, buf, sizeof g->driver);
        nn_probe_add_str(r, "pci.driver", buf, rel);
    } else {
        nn_probe_add_na(r, "pci.driver", NN_PROBE_STR, "", rel, "no driver bound");
    }
    snprintf(rel, sizeof rel, "%s/numa_node", dev);
    nn_probe_add_file_int(r, fs, "pci.numa_node", rel, "");
    snprintf(rel, sizeof rel, "%s/local_cpulist", dev);
    nn_probe_add_file_str(r, fs, "pci.local_cpulist", rel);
    snprintf(rel, sizeof rel, "%s/iommu_group", dev);
    int64_t grp;
    if (nn_probe_fs_link_name(fs, rel, buf, sizeof buf) && nn_probe_parse_int(buf, &grp))
        nn_probe_add_int(r, "pci.iommu_group", grp, "", rel);
    else
        nn_probe_add_na(r, "pci.iommu_group", NN_PROBE_INT, "", rel, "IOMMU off or not exposed");

    add_bars(g, fs, dev);

    /* The path to the root port: resolve the device link into sys/devices and take
     * every BDF component from the device upwards. */
    char real[NN_PROBE_PATH_MAX];
    g->n_path = 0;
    if (nn_probe_fs_resolve(fs, dev, real, sizeof real)) {
        char *comp[64];
        int nc = 0;
        char tmp[NN_PROBE_PATH_MAX];
        nn_probe_strlcpy(tmp, real, sizeof tmp);
        for (char *sv_, *s = strtok_r(tmp, "/", &sv_); s && nc < 64; s = strtok_r(NULL, "/", &sv_))
            comp[nc++] = s;
        int last = nc - 1;
        while (last >= 0 && is_bdf(comp[last]) && g->n_path < NN_PROBE_MAX_HOPS) {
            nn_probe_hop *h = &g->path[g->n_path++];
            memset(h, 0, sizeof *h);
            nn_probe_strlcpy(h->bdf, comp[last], sizeof h->bdf);
            /* Rebuild this component's directory from the resolved path. */
            char d[NN_PROBE_PATH_MAX];
            size_t off = 0;
            d[0] = '\0';
            for (int c = 0; c <= last && off < sizeof d; c++)
                off += (size_t)snprintf(d + off, sizeof d - off, "%s%s", c ? "/" : "", comp[c]);
            read_hop(fs, d, h);
            if (g->n_path == 1) h->vendor = g->vendor;
            last--;
        }
        if (g->n_path > 0) {
            char path_desc[1024];
            size_t off = 0;
            path_desc[0] = '\0';
            for (int i = 0; i < g->n_path && off < sizeof path_desc; i++) {
                nn_probe_hop *h = &g->path[i];
                off += (size_t)snprintf(path_desc + off, sizeof path_desc - off,
                                        "%s%s x%d %.1fGT/s (max x%d %.1fGT/s)", i ? " <- " : "",
                                        h->bdf, h->cur_width, h->cur_speed, h->max_width,
                                        h->max_speed);
            }
            nn_probe_add_str(r, "pci.path", path_desc, real);
        }
    }
    if (g->n_path == 0) {
        nn_probe_add_na(r, "pci.path", NN_PROBE_STR, "", dev,
                        "device link does not resolve (missing, loop, or outside the tree)");
        g->path[0] = (nn_probe_hop){.vendor = g->vendor};
        nn_probe_strlcpy(g->path[0].bdf, g->bdf, sizeof g->path[0].bdf);
        read_hop(fs, dev, &g->path[0]);
        g->path[0].vendor = g->vendor;
        g->n_path = 1;
    }
    add_link(g);

    add_aer(g, fs, dev, "pci", false);
    if (g->n_path > 1) {
        char rp[64];
        snprintf(rp, sizeof rp, "sys/bus/pci/devices/%s", g->path[g->n_path - 1].bdf);
        add_aer(g, fs, rp, "pci.root_port", true);
    }

    unsigned cap2, ctl2;
    if (config_devctl2(fs, dev, &cap2, &ctl2)) {
        snprintf(rel, sizeof rel, "%s/config", dev);
        nn_probe_add_int(r, "pci.atomics.requester_enabled", (ctl2 >> 6) & 1, "", rel);
    } else {
        snprintf(rel, sizeof rel, "%s/config", dev);
        nn_probe_add_na(r, "pci.atomics.requester_enabled", NN_PROBE_INT, "", rel,
                        "PCIe capability not readable (needs root, or config missing)");
    }
    if (g->n_path > 1) {
        char rp[64];
        snprintf(rp, sizeof rp, "sys/bus/pci/devices/%s", g->path[g->n_path - 1].bdf);
        if (config_devctl2(fs, rp, &cap2, &ctl2)) {
            snprintf(rel, sizeof rel, "%s/config", rp);
            nn_probe_add_int(r, "pci.root_port.atomics.completer64", (cap2 >> 8) & 1, "", rel);
        }
    }
}

/* ---- the probe --------------------------------------------------------------------------- */

static bool is_gpu_class(unsigned cls) {
    return (cls >> 16) == 0x03 || (cls >> 8) == 0x1200 || (cls >> 8) == 0x0b40;
}

static bool is_gpu_vendor(unsigned vendor) {
    return vendor == 0x10de || vendor == 0x1002 || vendor == 0x8086;
}

nn_probe_options nn_probe_default_options(void) {
    nn_probe_options o = {NULL, true, true};
    return o;
}

static void push_other(nn_probe_result *res, const char *s) {
    char **nv = realloc(res->other_display, (size_t)(res->n_other_display + 1) * sizeof *nv);
    if (!nv) return;
    res->other_display = nv;
    char *c = strdup(s);
    if (c) res->other_display[res->n_other_display++] = c;
}

nn_probe_result *nn_probe_run(const nn_probe_options *opt, nn_error *err) {
    nn_probe_options o = opt ? *opt : nn_probe_default_options();
    const char *root = o.root;
    if (!root) root = getenv("NNDB_SYSROOT");
    nn_probe_fs fs;
    nn_probe_fs_init(&fs, root);
    bool recorded = fs.root[0] != '\0';

    nn_probe_result *res = calloc(1, sizeof *res);
    if (!res) {
        nn_error_set(err, NN_ERR_MEMORY, "probe: out of memory");
        return NULL;
    }
    nn_probe_strlcpy(res->root, recorded ? fs.root : "/", sizeof res->root);

    nn_probe_host_read(&fs, res);

    char **names = NULL;
    int n = nn_probe_fs_list(&fs, "sys/bus/pci/devices", NULL, &names);
    if (n == 0)
        nn_probe_add_na(&res->host, "host.pci_devices", NN_PROBE_INT, "", "sys/bus/pci/devices",
                        "no PCI devices listed (no sysfs, or a container without it)");
    else
        nn_probe_add_int(&res->host, "host.pci_devices", n, "", "sys/bus/pci/devices");
    for (int i = 0; i < n; i++) {
        char rel[NN_PROBE_PATH_MAX];
        int64_t cls, vendor, device;
        if (!is_bdf(names[i])) continue;
        snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/class", names[i]);
        if (!nn_probe_fs_int(&fs, rel, &cls) || !is_gpu_class((unsigned)cls)) continue;
        snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/vendor", names[i]);
        if (!nn_probe_fs_int(&fs, rel, &vendor) || vendor < 0 || vendor > 0xffff) continue;
        snprintf(rel, sizeof rel, "sys/bus/pci/devices/%s/device", names[i]);
        if (!nn_probe_fs_int(&fs, rel, &device) || device < 0 || device > 0xffff) device = 0;
        if (!is_gpu_vendor((unsigned)vendor)) {
            char nm[200], line[240];
            nn_probe_pci_name(&fs, (unsigned)vendor, (unsigned)device, nm, sizeof nm);
            snprintf(line, sizeof line, "%s %s", names[i], nm);
            push_other(res, line);
            continue;
        }
        nn_probe_gpu *ng = realloc(res->gpus, (size_t)(res->n_gpus + 1) * sizeof *ng);
        if (!ng) break;
        res->gpus = ng;
        nn_probe_gpu *g = &res->gpus[res->n_gpus++];
        memset(g, 0, sizeof *g);
        nn_probe_strlcpy(g->bdf, names[i], sizeof g->bdf);
        g->vendor = (unsigned)vendor;
        g->device = (unsigned)device;
        read_pci(&fs, g);
        if (g->vendor == 0x1002) nn_probe_amd_read_gpu(&fs, g);
        if (g->vendor == 0x10de) nn_probe_nvidia_read_gpu(&fs, g);
    }
    nn_probe_fs_list_free(names, n);

    nn_probe_nvidia_read_host(&fs, res);
    nn_probe_amd_read_host(&fs, res);

    if (o.use_libraries && !recorded) {
        nn_probe_nvidia_libraries(res, o.measure_bandwidth);
        nn_probe_amd_libraries(res);
    } else {
        const char *why = recorded ? "not loaded for a recorded tree" : "disabled";
        nn_probe_add_na(&res->host, "nvml.status", NN_PROBE_STR, "", "dlopen libnvidia-ml.so.1",
                        why);
        nn_probe_add_na(&res->host, "rocm_smi.status", NN_PROBE_STR, "", "dlopen librocm_smi64.so",
                        why);
        nn_probe_add_na(&res->host, "cuda.status", NN_PROBE_STR, "", "dlopen libcuda.so.1", why);
    }
    return res;
}

void nn_probe_free(nn_probe_result *res) {
    if (!res) return;
    nn_probe_readings_free(&res->host);
    for (int i = 0; i < res->n_gpus; i++) nn_probe_readings_free(&res->gpus[i].r);
    free(res->gpus);
    free(res->nodes);
    for (int i = 0; i < res->n_other_display; i++) free(res->other_display[i]);
    free(res->other_display);
    free(res);
}
