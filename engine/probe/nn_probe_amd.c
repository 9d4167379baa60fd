#include "nn_probe_amd.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pp_dpm_* lists "N: <value> *" lines; the starred one is active. Returns the active
 * value's leading number, the largest number, and the levels as one string. */
static bool parse_dpm(const char *text, char *levels, size_t size, double *active, double *max) {
    char tmp[2048];
    nn_probe_strlcpy(tmp, text, sizeof tmp);
    size_t off = 0;
    bool any = false;
    *active = -1;
    *max = -1;
    levels[0] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(tmp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        char *val = colon + 1;
        bool star = strchr(val, '*') != NULL;
        char *st = strchr(val, '*');
        if (st) *st = '\0';
        nn_probe_trim(val);
        if (!val[0]) continue;
        double v = strtod(val, NULL);
        if (v > *max) *max = v;
        if (star) *active = v;
        any = true;
        if (off < size)
            off += (size_t)snprintf(levels + off, size - off, "%s%s%s", off ? " | " : "", val,
                                    star ? " *" : "");
    }
    return any;
}

static void read_dpm(const nn_probe_fs *fs, nn_probe_gpu *g, const char *dev, const char *file,
                     const char *key, const char *unit, bool numeric) {
    char rel[NN_PROBE_PATH_MAX], buf[2048], levels[512], k[64];
    double active, max;
    snprintf(rel, sizeof rel, "%s/%s", dev, file);
    snprintf(k, sizeof k, "%s.levels", key);
    if (nn_probe_fs_read(fs, rel, buf, sizeof buf) <= 0 ||
        !parse_dpm(buf, levels, sizeof levels, &active, &max)) {
        nn_probe_add_na(&g->r, k, NN_PROBE_STR, "", rel, "missing or no levels");
        return;
    }
    nn_probe_add_str(&g->r, k, levels, rel);
    if (!numeric) return;
    if (active >= 0)
        nn_probe_add_num(&g->r, key, active, unit, rel);
    else
        nn_probe_add_na(&g->r, key, NN_PROBE_NUM, unit, rel, "no active level marked");
    snprintf(k, sizeof k, "%s.max", key);
    if (max >= 0) nn_probe_add_num(&g->r, k, max, unit, rel);
}

static void read_hwmon(const nn_probe_fs *fs, nn_probe_gpu *g, const char *dev) {
    char rel[NN_PROBE_PATH_MAX], hw[512], buf[64], key[64];
    char **names;
    snprintf(rel, sizeof rel, "%s/hwmon", dev);
    int n = nn_probe_fs_list(fs, rel, "hwmon", &names);
    if (n == 0) {
        nn_probe_add_na(&g->r, "fan.present", NN_PROBE_INT, "", rel, "no hwmon directory");
        nn_probe_add_na(&g->r, "temp.edge", NN_PROBE_NUM, "C", rel, "no hwmon directory");
        nn_probe_add_na(&g->r, "power.average", NN_PROBE_NUM, "W", rel, "no hwmon directory");
        return;
    }
    snprintf(hw, sizeof hw, "%s/hwmon/%s", dev, names[0]);
    nn_probe_fs_list_free(names, n);

    static const char *const default_labels[] = {"edge", "junction", "mem"};
    for (int t = 1; t <= 3; t++) {
        const char *label = default_labels[t - 1];
        char lab[32];
        snprintf(rel, sizeof rel, "%s/temp%d_label", hw, t);
        if (nn_probe_fs_line(fs, rel, lab, sizeof lab)) {
            for (char *c = lab; *c; c++)
                if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) *c = '_';
            label = lab;
        }
        int64_t v;
        snprintf(key, sizeof key, "temp.%s", label);
        snprintf(rel, sizeof rel, "%s/temp%d_input", hw, t);
        if (nn_probe_fs_int(fs, rel, &v))
            nn_probe_add_num(&g->r, key, (double)v / 1000.0, "C", rel);
        else if (t == 1 || nn_probe_fs_exists(fs, rel))
            nn_probe_add_na(&g->r, key, NN_PROBE_NUM, "C", rel, "missing or unreadable");
        else
            continue;
        snprintf(key, sizeof key, "temp.%s.crit", label);
        snprintf(rel, sizeof rel, "%s/temp%d_crit", hw, t);
        if (nn_probe_fs_int(fs, rel, &v) && v > 0 && v < 1000000)
            nn_probe_add_num(&g->r, key, (double)v / 1000.0, "C", rel);
        else
            nn_probe_add_na(&g->r, key, NN_PROBE_NUM, "C", rel, "no critical limit");
    }

    /* Power: power1_average (older kernels, and Vega20) or power1_input, in microwatts. */
    int64_t uw;
    snprintf(rel, sizeof rel, "%s/power1_average", hw);
    if (!nn_probe_fs_int(fs, rel, &uw)) snprintf(rel, sizeof rel, "%s/power1_input", hw);
    if (nn_probe_fs_int(fs, rel, &uw) && uw >= 0)
        nn_probe_add_num(&g->r, "power.average", (double)uw / 1e6, "W", rel);
    else
        nn_probe_add_na(&g->r, "power.average", NN_PROBE_NUM, "W", rel, "missing");
    static const char *const caps[][2] = {{"power.cap", "power1_cap"},
                                          {"power.cap_default", "power1_cap_default"},
                                          {"power.cap_max", "power1_cap_max"}};
    for (int c = 0; c < 3; c++) {
        snprintf(rel, sizeof rel, "%s/%s", hw, caps[c][1]);
        if (nn_probe_fs_int(fs, rel, &uw) && uw > 0)
            nn_probe_add_num(&g->r, caps[c][0], (double)uw / 1e6, "W", rel);
        else
            nn_probe_add_na(&g->r, caps[c][0], NN_PROBE_NUM, "W", rel, "missing");
    }

    /* A card with a fan has fan1_input (and usually pwm1); passive Instinct cards have
     * neither, which is itself the reading. */
    snprintf(rel, sizeof rel, "%s/fan1_input", hw);
    bool has_input = nn_probe_fs_exists(fs, rel);
    char pwm[NN_PROBE_PATH_MAX];
    snprintf(pwm, sizeof pwm, "%s/pwm1", hw);
    bool has_pwm = nn_probe_fs_exists(fs, pwm);
    nn_probe_add_int(&g->r, "fan.present", has_input || has_pwm, "",
                     has_input ? rel
                     : has_pwm ? pwm
                               : hw);
    int64_t rpm;
    if (has_input && nn_probe_fs_int(fs, rel, &rpm) && rpm >= 0)
        nn_probe_add_int(&g->r, "fan.rpm", rpm, "RPM", rel);
    (void)buf;
}

static void read_ras(const nn_probe_fs *fs, nn_probe_gpu *g, const char *dev) {
    char rel[NN_PROBE_PATH_MAX], buf[4096], key[96];
    char **names;
    snprintf(rel, sizeof rel, "%s/ras", dev);
    int n = nn_probe_fs_list(fs, rel, NULL, &names);
    if (n == 0) {
        nn_probe_add_na(&g->r, "ras.ue_total", NN_PROBE_INT, "", rel, "no RAS on this card");
        nn_probe_add_na(&g->r, "ras.ce_total", NN_PROBE_INT, "", rel, "no RAS on this card");
        return;
    }
    int64_t ue_total = 0, ce_total = 0;
    bool any = false;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(names[i]);
        if (len <= 10 || strcmp(names[i] + len - 10, "_err_count")) continue;
        snprintf(rel, sizeof rel, "%s/ras/%s", dev, names[i]);
        if (nn_probe_fs_read(fs, rel, buf, sizeof buf) <= 0) continue;
        long long ue = -1, ce = -1;
        const char *p = strstr(buf, "ue:");
        if (p) sscanf(p + 3, "%lld", &ue);
        p = strstr(buf, "ce:");
        if (p) sscanf(p + 3, "%lld", &ce);
        char block[64];
        nn_probe_strlcpy(block, names[i], sizeof block);
        if (len - 10 < sizeof block) block[len - 10] = '\0';
        if (ue >= 0) {
            snprintf(key, sizeof key, "ras.%s.ue", block);
            nn_probe_add_int(&g->r, key, ue, "", rel);
            if (ue_total < INT64_MAX - ue) ue_total += ue;
            any = true;
        }
        if (ce >= 0) {
            snprintf(key, sizeof key, "ras.%s.ce", block);
            nn_probe_add_int(&g->r, key, ce, "", rel);
            if (ce_total < INT64_MAX - ce) ce_total += ce;
            any = true;
        }
    }
    nn_probe_fs_list_free(names, n);
    snprintf(rel, sizeof rel, "%s/ras/*_err_count", dev);
    if (any) {
        nn_probe_add_int(&g->r, "ras.ue_total", ue_total, "", rel);
        nn_probe_add_int(&g->r, "ras.ce_total", ce_total, "", rel);
    } else {
        nn_probe_add_na(&g->r, "ras.ue_total", NN_PROBE_INT, "", rel, "no readable counters");
        nn_probe_add_na(&g->r, "ras.ce_total", NN_PROBE_INT, "", rel, "no readable counters");
    }
    /* gpu_vram_bad_pages: one "0x<page> : 0x<size> : <flag>" line per retired page. */
    snprintf(rel, sizeof rel, "%s/ras/gpu_vram_bad_pages", dev);
    const size_t size = 1 << 16;
    char *pages = malloc(size);
    long len = pages ? nn_probe_fs_read(fs, rel, pages, size) : -1;
    if (len >= 0) {
        int64_t count = 0;
        for (char *sv_, *line = strtok_r(pages, "\n", &sv_); line;
             line = strtok_r(NULL, "\n", &sv_))
            if (strstr(line, "0x") && strchr(line, ':')) count++;
        nn_probe_add_int(&g->r, "ras.bad_pages", count, "", rel);
    } else {
        nn_probe_add_na(&g->r, "ras.bad_pages", NN_PROBE_INT, "", rel, "missing");
    }
    free(pages);
}

bool nn_probe_amd_gfx_name(int64_t v, char *out, size_t size) {
    if (v < 10000 || v > 999999) return false;
    int major = (int)(v / 10000), minor = (int)(v / 100 % 100), step = (int)(v % 100);
    if (minor > 15 || step > 15) return false;
    snprintf(out, size, "gfx%d%x%x", major, minor, step);
    return true;
}

const char *nn_probe_amd_gfx_from_device(unsigned device) {
    static const struct {
        unsigned lo, hi;
        const char *gfx;
    } table[] = {
        {0x66a0, 0x66af, "gfx906"},  /* Vega 20: MI50, MI60, Radeon VII */
        {0x6860, 0x687f, "gfx900"},  /* Vega 10: MI25, Vega 56/64 */
        {0x738c, 0x738e, "gfx908"},  /* MI100 */
        {0x7408, 0x740f, "gfx90a"},  /* MI200 */
        {0x74a0, 0x74a5, "gfx942"},  /* MI300 */
        {0x73a0, 0x73bf, "gfx1030"}, /* Navi 21 */
        {0x7440, 0x744f, "gfx1100"}, /* Navi 31 */
        {0x67c0, 0x67df, "gfx803"},  /* Polaris 10 */
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (device >= table[i].lo && device <= table[i].hi) return table[i].gfx;
    return NULL;
}

/* KFD topology nodes carry gfx_target_version; match the node by domain and location_id
 * (bus << 8 | devfn). */
static void read_gfx_target(const nn_probe_fs *fs, nn_probe_gpu *g) {
    unsigned dom, bus, dv, fn;
    char **names;
    if (sscanf(g->bdf, "%x:%x:%x.%x", &dom, &bus, &dv, &fn) != 4) return;
    int64_t want = (int64_t)(bus << 8 | dv << 3 | fn);
    int n = nn_probe_fs_list(fs, "sys/class/kfd/kfd/topology/nodes", NULL, &names);
    for (int i = 0; i < n; i++) {
        char rel[NN_PROBE_PATH_MAX], buf[8192];
        snprintf(rel, sizeof rel, "sys/class/kfd/kfd/topology/nodes/%s/properties", names[i]);
        if (nn_probe_fs_read(fs, rel, buf, sizeof buf) <= 0) continue;
        long long loc = -1, domain = 0, target = -1;
        char *save = NULL;
        for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char k[64];
            long long v;
            if (sscanf(line, "%63s %lld", k, &v) != 2) continue;
            if (!strcmp(k, "location_id"))
                loc = v;
            else if (!strcmp(k, "domain"))
                domain = v;
            else if (!strcmp(k, "gfx_target_version"))
                target = v;
        }
        char gfx[32];
        if (loc == want && domain == (long long)dom &&
            nn_probe_amd_gfx_name(target, gfx, sizeof gfx)) {
            nn_probe_add_str(&g->r, "amdgpu.gfx_target", gfx, rel);
            nn_probe_fs_list_free(names, n);
            return;
        }
    }
    nn_probe_fs_list_free(names, n);
    const char *gfx = nn_probe_amd_gfx_from_device(g->device);
    if (gfx)
        nn_probe_add_str(&g->r, "amdgpu.gfx_target", gfx, "device id table (no KFD topology node)");
    else
        nn_probe_add_na(&g->r, "amdgpu.gfx_target", NN_PROBE_STR, "",
                        "sys/class/kfd/kfd/topology/nodes", "no KFD node and unknown device id");
}

void nn_probe_amd_read_gpu(const nn_probe_fs *fs, nn_probe_gpu *g) {
    char dev[64], rel[NN_PROBE_PATH_MAX];
    snprintf(dev, sizeof dev, "sys/bus/pci/devices/%s", g->bdf);
    static const char *const mem[][2] = {{"mem.total", "mem_info_vram_total"},
                                         {"mem.used", "mem_info_vram_used"},
                                         {"mem.visible_total", "mem_info_vis_vram_total"},
                                         {"mem.visible_used", "mem_info_vis_vram_used"},
                                         {"mem.gtt_total", "mem_info_gtt_total"},
                                         {"mem.gtt_used", "mem_info_gtt_used"}};
    for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) {
        snprintf(rel, sizeof rel, "%s/%s", dev, mem[i][1]);
        nn_probe_add_file_int(&g->r, fs, mem[i][0], rel, "bytes");
    }
    snprintf(rel, sizeof rel, "%s/gpu_busy_percent", dev);
    nn_probe_add_file_int(&g->r, fs, "util.gpu", rel, "%");
    read_dpm(fs, g, dev, "pp_dpm_sclk", "clock.graphics", "MHz", true);
    read_dpm(fs, g, dev, "pp_dpm_mclk", "clock.mem", "MHz", true);
    read_dpm(fs, g, dev, "pp_dpm_pcie", "amdgpu.pcie_dpm", "", false);
    read_hwmon(fs, g, dev);
    snprintf(rel, sizeof rel, "%s/vbios_version", dev);
    nn_probe_add_file_str(&g->r, fs, "amdgpu.vbios", rel);
    snprintf(rel, sizeof rel, "%s/unique_id", dev);
    nn_probe_add_file_str(&g->r, fs, "amdgpu.unique_id", rel);
    read_ras(fs, g, dev);
    read_gfx_target(fs, g);
    char **names;
    snprintf(rel, sizeof rel, "%s/drm", dev);
    int n = nn_probe_fs_list(fs, rel, "renderD", &names);
    if (n > 0)
        nn_probe_add_str(&g->r, "drm.render_node", names[0], rel);
    else
        nn_probe_add_na(&g->r, "drm.render_node", NN_PROBE_STR, "", rel, "no render node");
    nn_probe_fs_list_free(names, n);
}

void nn_probe_amd_read_host(const nn_probe_fs *fs, nn_probe_result *res) {
    char ver[128], rel[NN_PROBE_PATH_MAX];
    if (nn_probe_fs_line(fs, "opt/rocm/.info/version", ver, sizeof ver)) {
        nn_probe_add_str(&res->host, "rocm.version", ver, "opt/rocm/.info/version");
        char real[NN_PROBE_PATH_MAX];
        if (nn_probe_fs_resolve(fs, "opt/rocm", real, sizeof real))
            nn_probe_add_str(&res->host, "rocm.path", real, "opt/rocm");
        return;
    }
    /* No /opt/rocm link: take the newest versioned install. */
    char **names;
    int n = nn_probe_fs_list(fs, "opt", "rocm-", &names);
    for (int i = n - 1; i >= 0; i--) {
        snprintf(rel, sizeof rel, "opt/%s/.info/version", names[i]);
        if (nn_probe_fs_line(fs, rel, ver, sizeof ver)) {
            nn_probe_add_str(&res->host, "rocm.version", ver, rel);
            snprintf(rel, sizeof rel, "opt/%s", names[i]);
            nn_probe_add_str(&res->host, "rocm.path", rel, rel);
            nn_probe_fs_list_free(names, n);
            return;
        }
    }
    nn_probe_fs_list_free(names, n);
    nn_probe_add_na(&res->host, "rocm.version", NN_PROBE_STR, "", "opt/rocm/.info/version",
                    "ROCm not installed under /opt");
}

void nn_probe_rsmi_apply(nn_probe_result *res, const nn_probe_rsmi_api *api, const char *lib) {
    char src[160];
    int rc = api->init ? api->init(0) : -1;
    if (rc != 0) {
        snprintf(src, sizeof src, "%s rsmi_init", lib);
        char note[64];
        snprintf(note, sizeof note, "rsmi_init failed (status %d)", rc);
        nn_probe_add_na(&res->host, "rocm_smi.status", NN_PROBE_STR, "", src, note);
        return;
    }
    uint32_t n = 0;
    if (api->num_monitor_devices) api->num_monitor_devices(&n);
    nn_probe_add_str(&res->host, "rocm_smi.status", "ok", lib);
    nn_probe_add_int(&res->host, "rocm_smi.devices", n, "", "rsmi_num_monitor_devices");
    for (uint32_t dv = 0; dv < n && dv < 64; dv++) {
        uint64_t id;
        if (!api->dev_pci_id_get || api->dev_pci_id_get(dv, &id) != 0) continue;
        char bdf[16];
        snprintf(bdf, sizeof bdf, "%04x:%02x:%02x.%x", (unsigned)(id >> 32) & 0xffff,
                 (unsigned)(id >> 8) & 0xff, (unsigned)(id >> 3) & 0x1f, (unsigned)id & 7);
        nn_probe_gpu *g = NULL;
        for (int i = 0; i < res->n_gpus; i++)
            if (!strcmp(res->gpus[i].bdf, bdf)) g = &res->gpus[i];
        if (!g) continue;
        static const char *const sensors[] = {"rsmi.temp.edge", "rsmi.temp.junction",
                                              "rsmi.temp.mem"};
        for (uint32_t s = 0; s < 3; s++) {
            int64_t mc;
            if (api->dev_temp_metric_get && api->dev_temp_metric_get(dv, s, 0, &mc) == 0)
                nn_probe_add_num(&g->r, sensors[s], (double)mc / 1000.0, "C",
                                 "rsmi_dev_temp_metric_get");
            else
                nn_probe_add_na(&g->r, sensors[s], NN_PROBE_NUM, "C", "rsmi_dev_temp_metric_get",
                                "n/a");
        }
        uint64_t uw, bytes;
        uint32_t pct;
        if (api->dev_power_ave_get && api->dev_power_ave_get(dv, 0, &uw) == 0)
            nn_probe_add_num(&g->r, "rsmi.power.average", (double)uw / 1e6, "W",
                             "rsmi_dev_power_ave_get");
        else
            nn_probe_add_na(&g->r, "rsmi.power.average", NN_PROBE_NUM, "W",
                            "rsmi_dev_power_ave_get", "n/a");
        if (api->dev_memory_total_get && api->dev_memory_total_get(dv, 0, &bytes) == 0 &&
            bytes <= INT64_MAX)
            nn_probe_add_int(&g->r, "rsmi.mem.total", (int64_t)bytes, "bytes",
                             "rsmi_dev_memory_total_get");
        if (api->dev_busy_percent_get && api->dev_busy_percent_get(dv, &pct) == 0)
            nn_probe_add_int(&g->r, "rsmi.util.gpu", pct, "%", "rsmi_dev_busy_percent_get");
    }
    if (api->shut_down) api->shut_down();
}

void nn_probe_amd_libraries(nn_probe_result *res) {
    static const char *const libs[] = {"librocm_smi64.so.1", "librocm_smi64.so.7",
                                       "librocm_smi64.so", "/opt/rocm/lib/librocm_smi64.so"};
    void *h = NULL;
    const char *lib = NULL;
    for (size_t i = 0; i < sizeof libs / sizeof libs[0] && !h; i++)
        if ((h = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL))) lib = libs[i];
    if (!h) {
        nn_probe_add_na(&res->host, "rocm_smi.status", NN_PROBE_STR, "", "dlopen librocm_smi64.so",
                        "library not found");
        return;
    }
    nn_probe_rsmi_api api;
    memset(&api, 0, sizeof api);
    /* POSIX guarantees dlsym's result converts to a function pointer; memcpy keeps
     * -Wpedantic quiet about it. */
#define LOAD(field, name)                                                                          \
    do {                                                                                           \
        void *sym = dlsym(h, name);                                                                \
        memcpy(&api.field, &sym, sizeof sym);                                                      \
    } while (0)
    LOAD(init, "rsmi_init");
    LOAD(shut_down, "rsmi_shut_down");
    LOAD(num_monitor_devices, "rsmi_num_monitor_devices");
    LOAD(dev_pci_id_get, "rsmi_dev_pci_id_get");
    LOAD(dev_temp_metric_get, "rsmi_dev_temp_metric_get");
    LOAD(dev_power_ave_get, "rsmi_dev_power_ave_get");
    LOAD(dev_memory_total_get, "rsmi_dev_memory_total_get");
    LOAD(dev_busy_percent_get, "rsmi_dev_busy_percent_get");
#undef LOAD
    nn_probe_rsmi_apply(res, &api, lib);
    dlclose(h);
}
