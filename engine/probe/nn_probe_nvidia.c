#include "nn_probe_nvidia.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool nn_probe_nvidia_parse_version(const char *text, char *out, size_t size) {
    /* The first whitespace-separated token after "Kernel Module" made of digits and dots,
     * with at least one dot ("Open Kernel Module for x86_64  560.35.03  Release Build"). */
    const char *p = strstr(text, "Kernel Module");
    p = p ? p + strlen("Kernel Module") : text;
    while (*p && *p != '\n') {
        while (*p == ' ' || *p == '\t') p++;
        size_t n = 0, dots = 0;
        while ((p[n] >= '0' && p[n] <= '9') || p[n] == '.') dots += p[n++] == '.';
        bool end = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n';
        if (n > 0 && dots > 0 && end && p[0] != '.' && n < size) {
            memcpy(out, p, n);
            out[n] = '\0';
            return true;
        }
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') p++;
    }
    return false;
}

void nn_probe_nvidia_read_gpu(const nn_probe_fs *fs, nn_probe_gpu *g) {
    char rel[NN_PROBE_PATH_MAX], buf[4096];
    snprintf(rel, sizeof rel, "proc/driver/nvidia/gpus/%s/information", g->bdf);
    if (nn_probe_fs_read(fs, rel, buf, sizeof buf) <= 0) {
        nn_probe_add_na(&g->r, "nvidia.model", NN_PROBE_STR, "", rel,
                        "missing (nvidia module not loaded or GPU excluded)");
        return;
    }
    static const char *const fields[][2] = {{"Model", "nvidia.model"},
                                            {"GPU UUID", "nvidia.uuid"},
                                            {"Video BIOS", "nvidia.vbios"},
                                            {"Bus Type", "nvidia.bus_type"},
                                            {"Device Minor", "nvidia.device_minor"},
                                            {"GPU Excluded", "nvidia.excluded"}};
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = '\0';
        char *val = nn_probe_trim(colon + 1);
        nn_probe_trim(line);
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            if (strcmp(line, fields[f][0]) != 0) continue;
            int64_t v;
            if (!strcmp(fields[f][1], "nvidia.device_minor") && nn_probe_parse_int(val, &v))
                nn_probe_add_int(&g->r, fields[f][1], v, "", rel);
            else if (val[0])
                nn_probe_add_str(&g->r, fields[f][1], val, rel);
            if (!strcmp(fields[f][0], "Model") && val[0])
                nn_probe_strlcpy(g->name, val, sizeof g->name);
        }
    }
}

/* The NVML library file is named after the driver release it belongs to:
 * libnvidia-ml.so.1 -> libnvidia-ml.so.550.54.14. */
static bool lib_version_of(const char *file, char *out, size_t size) {
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    const char *p = strstr(base, ".so.");
    if (!p) return false;
    p += 4;
    if (!strchr(p, '.') || !(p[0] >= '0' && p[0] <= '9')) return false;
    nn_probe_strlcpy(out, p, size);
    return true;
}

void nn_probe_nvidia_read_host(const nn_probe_fs *fs, nn_probe_result *res) {
    char buf[1024], ver[64];
    bool any_nvidia = false;
    for (int i = 0; i < res->n_gpus; i++) any_nvidia |= res->gpus[i].vendor == 0x10de;
    if (nn_probe_fs_read(fs, "proc/driver/nvidia/version", buf, sizeof buf) > 0 &&
        nn_probe_nvidia_parse_version(buf, ver, sizeof ver)) {
        nn_probe_add_str(&res->host, "nvidia.driver.kernel_version", ver,
                         "proc/driver/nvidia/version");
    } else if (nn_probe_fs_line(fs, "sys/module/nvidia/version", buf, sizeof buf)) {
        nn_probe_add_str(&res->host, "nvidia.driver.kernel_version", buf,
                         "sys/module/nvidia/version");
    } else if (any_nvidia) {
        nn_probe_add_na(&res->host, "nvidia.driver.kernel_version", NN_PROBE_STR, "",
                        "proc/driver/nvidia/version", "nvidia kernel module not loaded");
    }
    static const char *const dirs[] = {"usr/lib/x86_64-linux-gnu", "usr/lib/aarch64-linux-gnu",
                                       "usr/lib64", "usr/lib"};
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        char rel[NN_PROBE_PATH_MAX], real[NN_PROBE_PATH_MAX];
        snprintf(rel, sizeof rel, "%s/libnvidia-ml.so.1", dirs[d]);
        if (nn_probe_fs_resolve(fs, rel, real, sizeof real) &&
            lib_version_of(real, ver, sizeof ver)) {
            nn_probe_add_str(&res->host, "nvidia.driver.lib_version", ver, rel);
            return;
        }
    }
    if (any_nvidia)
        nn_probe_add_na(&res->host, "nvidia.driver.lib_version", NN_PROBE_STR, "",
                        "usr/lib/*/libnvidia-ml.so.1", "NVIDIA user-space driver not found");
}

/* ---- NVML -------------------------------------------------------------------------------- */

static const char *nvml_err(const nn_probe_nvml_api *api, int rc) {
    if (rc == NN_NVML_NOT_SUPPORTED) return "n/a (not supported on this GPU)";
    if (api->error_string) {
        const char *s = api->error_string(rc);
        if (s) return s;
    }
    return "NVML error";
}

static void nvml_uint(nn_probe_gpu *g, const nn_probe_nvml_api *api, const char *key, int rc,
                      double v, const char *unit, const char *call, bool as_int) {
    char src[96];
    snprintf(src, sizeof src, "nvml:%s", call);
    if (rc == NN_NVML_SUCCESS) {
        if (as_int)
            nn_probe_add_int(&g->r, key, (int64_t)v, unit, src);
        else
            nn_probe_add_num(&g->r, key, v, unit, src);
    } else {
        nn_probe_add_na(&g->r, key, as_int ? NN_PROBE_INT : NN_PROBE_NUM, unit, src,
                        nvml_err(api, rc));
    }
}

#define MISSING       (-1)
#define CALL(fn, ...) (api->fn ? api->fn(__VA_ARGS__) : MISSING)

static double gen_speed(unsigned gen) {
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    return gen < sizeof gts / sizeof gts[0] ? gts[gen] : 0;
}

static void nvml_device(nn_probe_gpu *g, const nn_probe_nvml_api *api, nn_nvml_device dev) {
    char name[96];
    unsigned u = 0;
    int rc;
    if (CALL(device_name, dev, name, sizeof name) == NN_NVML_SUCCESS) {
        name[sizeof name - 1] = '\0';
        nn_probe_add_str(&g->r, "nvml.name", name, "nvml:nvmlDeviceGetName");
        nn_probe_strlcpy(g->name, name, sizeof g->name);
    }
    nn_nvml_memory mem = {0, 0, 0};
    rc = CALL(device_memory, dev, &mem);
    nvml_uint(g, api, "mem.total", rc, (double)mem.total, "bytes", "nvmlDeviceGetMemoryInfo", true);
    nvml_uint(g, api, "mem.used", rc, (double)mem.used, "bytes", "nvmlDeviceGetMemoryInfo", true);
    rc = CALL(device_curr_pcie_gen, dev, &u);
    nvml_uint(g, api, "nvml.pcie.cur_gen", rc, u, "", "nvmlDeviceGetCurrPcieLinkGeneration", true);
    if (rc == NN_NVML_SUCCESS && gen_speed(u) > 0)
        nn_probe_add_num(&g->r, "nvml.pcie.cur_speed", gen_speed(u), "GT/s",
                         "nvml:nvmlDeviceGetCurrPcieLinkGeneration");
    rc = CALL(device_max_pcie_gen, dev, &u);
    nvml_uint(g, api, "nvml.pcie.max_gen", rc, u, "", "nvmlDeviceGetMaxPcieLinkGeneration", true);
    rc = CALL(device_curr_pcie_width, dev, &u);
    nvml_uint(g, api, "nvml.pcie.cur_width", rc, u, "lanes", "nvmlDeviceGetCurrPcieLinkWidth",
              true);
    rc = CALL(device_max_pcie_width, dev, &u);
    nvml_uint(g, api, "nvml.pcie.max_width", rc, u, "lanes", "nvmlDeviceGetMaxPcieLinkWidth", true);
    rc = CALL(device_temperature, dev, 0, &u);
    nvml_uint(g, api, "temp.gpu", rc, u, "C", "nvmlDeviceGetTemperature", false);
    rc = CALL(device_temperature_threshold, dev, 1, &u); /* SLOWDOWN */
    nvml_uint(g, api, "temp.gpu.slowdown", rc, u, "C", "nvmlDeviceGetTemperatureThreshold", false);
    rc = CALL(device_temperature_threshold, dev, 0, &u); /* SHUTDOWN */
    nvml_uint(g, api, "temp.gpu.crit", rc, u, "C", "nvmlDeviceGetTemperatureThreshold", false);
    rc = CALL(device_power_usage, dev, &u);
    nvml_uint(g, api, "power.average", rc, u / 1000.0, "W", "nvmlDeviceGetPowerUsage", false);
    rc = CALL(device_enforced_power_limit, dev, &u);
    nvml_uint(g, api, "power.cap", rc, u / 1000.0, "W", "nvmlDeviceGetEnforcedPowerLimit", false);
    rc = CALL(device_default_power_limit, dev, &u);
    nvml_uint(g, api, "power.cap_default", rc, u / 1000.0, "W",
              "nvmlDeviceGetPowerManagementDefaultLimit", false);
    rc = CALL(device_clock, dev, 0, &u);
    nvml_uint(g, api, "clock.graphics", rc, u, "MHz", "nvmlDeviceGetClockInfo", false);
    rc = CALL(device_max_clock, dev, 0, &u);
    nvml_uint(g, api, "clock.graphics.max", rc, u, "MHz", "nvmlDeviceGetMaxClockInfo", false);
    rc = CALL(device_clock, dev, 2, &u);
    nvml_uint(g, api, "clock.mem", rc, u, "MHz", "nvmlDeviceGetClockInfo", false);
    nn_nvml_utilization ut = {0, 0};
    rc = CALL(device_utilization, dev, &ut);
    nvml_uint(g, api, "util.gpu", rc, ut.gpu, "%", "nvmlDeviceGetUtilizationRates", true);
    nvml_uint(g, api, "util.mem", rc, ut.memory, "%", "nvmlDeviceGetUtilizationRates", true);
    unsigned long long ecc = 0;
    rc = CALL(device_total_ecc_errors, dev, 0, 1, &ecc); /* corrected, aggregate */
    nvml_uint(g, api, "ecc.corrected", rc, (double)ecc, "", "nvmlDeviceGetTotalEccErrors", true);
    rc = CALL(device_total_ecc_errors, dev, 1, 1, &ecc); /* uncorrected, aggregate */
    nvml_uint(g, api, "ecc.uncorrected", rc, (double)ecc, "", "nvmlDeviceGetTotalEccErrors", true);
    rc = CALL(device_fan_speed, dev, &u);
    nvml_uint(g, api, "fan.percent", rc, u, "%", "nvmlDeviceGetFanSpeed", true);
    /* Fans that NVML cannot report are, on data-centre boards, fans that do not exist. */
    if (rc == NN_NVML_SUCCESS)
        nn_probe_add_int(&g->r, "fan.present", 1, "", "nvml:nvmlDeviceGetFanSpeed");
    else if (rc == NN_NVML_NOT_SUPPORTED)
        nn_probe_add_int(&g->r, "fan.present", 0, "", "nvml:nvmlDeviceGetFanSpeed");
}

void nn_probe_nvml_apply(nn_probe_result *res, const nn_probe_nvml_api *api, const char *lib) {
    char src[200], note[160];
    int rc = CALL(init);
    snprintf(src, sizeof src, "nvml:nvmlInit_v2 (%s)", lib);
    if (rc != NN_NVML_SUCCESS) {
        snprintf(note, sizeof note, "nvmlInit failed: %s (%d)", nvml_err(api, rc), rc);
        nn_probe_add_na(&res->host, "nvml.status", NN_PROBE_STR, "", src, note);
        nn_probe_add_int(&res->host, "nvml.init_error", rc, "", src);
        return;
    }
    nn_probe_add_str(&res->host, "nvml.status", "ok", src);
    char ver[96];
    if (CALL(system_driver_version, ver, sizeof ver) == NN_NVML_SUCCESS) {
        ver[sizeof ver - 1] = '\0';
        nn_probe_add_str(&res->host, "nvml.driver_version", ver, "nvml:nvmlSystemGetDriverVersion");
    }
    unsigned n = 0;
    CALL(device_count, &n);
    nn_probe_add_int(&res->host, "nvml.devices", n, "", "nvml:nvmlDeviceGetCount_v2");
    for (unsigned i = 0; i < n && i < 64; i++) {
        nn_nvml_device dev = NULL;
        nn_nvml_pci_info pci;
        memset(&pci, 0, sizeof pci);
        if (CALL(device_by_index, i, &dev) != NN_NVML_SUCCESS) continue;
        if (CALL(device_pci_info, dev, &pci) != NN_NVML_SUCCESS) continue;
        char bdf[24];
        snprintf(bdf, sizeof bdf, "%04x:%02x:%02x.0", pci.domain & 0xffff, pci.bus & 0xff,
                 pci.device & 0x1f);
        for (int k = 0; k < res->n_gpus; k++)
            if (!strcmp(res->gpus[k].bdf, bdf)) nvml_device(&res->gpus[k], api, dev);
    }
    CALL(shutdown);
}

/* ---- CUDA copy bandwidth ----------------------------------------------------------------- */

typedef struct cuda_api {
    int (*init)(unsigned flags);
    int (*device_count)(int *n);
    int (*device_get)(int *dev, int ordinal);
    int (*device_pci_bus_id)(char *buf, int len, int dev);
    int (*ctx_create)(void **ctx, unsigned flags, int dev);
    int (*ctx_destroy)(void *ctx);
    int (*mem_alloc_host)(void **p, size_t size);
    int (*mem_free_host)(void *p);
    int (*mem_alloc)(unsigned long long *dptr, size_t size);
    int (*mem_free)(unsigned long long dptr);
    int (*memcpy_htod)(unsigned long long dst, const void *src, size_t size);
    int (*memcpy_dtoh)(void *dst, unsigned long long src, size_t size);
} cuda_api;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best of a few synchronous pinned copies of 64 MiB: what the link delivers, in GB/s. */
static void cuda_measure(nn_probe_gpu *g, const cuda_api *cu, int dev) {
    const size_t size = (size_t)64 << 20;
    void *ctx = NULL, *host = NULL;
    unsigned long long dptr = 0;
    if (cu->ctx_create(&ctx, 0, dev) != 0) {
        nn_probe_add_na(&g->r, "cuda.h2d_gbps", NN_PROBE_NUM, "GB/s", "cuda:cuCtxCreate",
                        "context failed");
        return;
    }
    if (cu->mem_alloc_host(&host, size) == 0 && cu->mem_alloc(&dptr, size) == 0) {
        memset(host, 1, size);
        double best[2] = {0, 0};
        for (int rep = 0; rep < 6; rep++) {
            for (int dir = 0; dir < 2; dir++) {
                double t0 = now_s();
                int rc = dir == 0 ? cu->memcpy_htod(dptr, host, size)
                                  : cu->memcpy_dtoh(host, dptr, size);
                double dt = now_s() - t0;
                if (rc == 0 && dt > 0 && rep > 0) {
                    double gbps = (double)size / dt / 1e9;
                    if (gbps > best[dir]) best[dir] = gbps;
                }
            }
        }
        nn_probe_add_num(&g->r, "cuda.h2d_gbps", best[0], "GB/s",
                         "cuda:cuMemcpyHtoD (64 MiB pinned)");
        nn_probe_add_num(&g->r, "cuda.d2h_gbps", best[1], "GB/s",
                         "cuda:cuMemcpyDtoH (64 MiB pinned)");
        double link;
        if (nn_probe_get_num(&g->r, "pci.link.narrowest_gbps", &link) && link > 0) {
            nn_probe_add_num(&g->r, "cuda.h2d_fraction_of_link", best[0] / link, "",
                             "cuda.h2d_gbps / pci.link.narrowest_gbps");
            nn_probe_add_num(&g->r, "cuda.d2h_fraction_of_link", best[1] / link, "",
                             "cuda.d2h_gbps / pci.link.narrowest_gbps");
        }
    } else {
        nn_probe_add_na(&g->r, "cuda.h2d_gbps", NN_PROBE_NUM, "GB/s", "cuda:cuMemAlloc",
                        "allocation failed");
    }
    if (dptr) cu->mem_free(dptr);
    if (host) cu->mem_free_host(host);
    cu->ctx_destroy(ctx);
}

static void *load_sym(void *h, const char *name) {
    return dlsym(h, name);
}

#define LOADF(api, field, h, name)                                                                 \
    do {                                                                                           \
        void *sym_ = load_sym(h, name);                                                            \
        memcpy(&(api).field, &sym_, sizeof sym_);                                                  \
    } while (0)

static void cuda_bandwidth(nn_probe_result *res) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        nn_probe_add_na(&res->host, "cuda.status", NN_PROBE_STR, "", "dlopen libcuda.so.1",
                        "library not found");
        return;
    }
    cuda_api cu;
    memset(&cu, 0, sizeof cu);
    LOADF(cu, init, h, "cuInit");
    LOADF(cu, device_count, h, "cuDeviceGetCount");
    LOADF(cu, device_get, h, "cuDeviceGet");
    LOADF(cu, device_pci_bus_id, h, "cuDeviceGetPCIBusId");
    LOADF(cu, ctx_create, h, "cuCtxCreate_v2");
    LOADF(cu, ctx_destroy, h, "cuCtxDestroy_v2");
    LOADF(cu, mem_alloc_host, h, "cuMemAllocHost_v2");
    LOADF(cu, mem_free_host, h, "cuMemFreeHost");
    LOADF(cu, mem_alloc, h, "cuMemAlloc_v2");
    LOADF(cu, mem_free, h, "cuMemFree_v2");
    LOADF(cu, memcpy_htod, h, "cuMemcpyHtoD_v2");
    LOADF(cu, memcpy_dtoh, h, "cuMemcpyDtoH_v2");
    void **fns = (void **)&cu;
    bool complete = true;
    for (size_t i = 0; i < sizeof cu / sizeof(void *); i++) complete &= fns[i] != NULL;
    int n = 0, rc = complete ? cu.init(0) : -1;
    if (rc != 0 || cu.device_count(&n) != 0) {
        char note[64];
        snprintf(note, sizeof note, complete ? "cuInit failed (%d)" : "missing entry points", rc);
        nn_probe_add_na(&res->host, "cuda.status", NN_PROBE_STR, "", "libcuda.so.1 cuInit", note);
        dlclose(h);
        return;
    }
    nn_probe_add_str(&res->host, "cuda.status", "ok", "libcuda.so.1");
    for (int i = 0; i < n && i < 64; i++) {
        int dev;
        char bus[32];
        if (cu.device_get(&dev, i) != 0 || cu.device_pci_bus_id(bus, sizeof bus, dev) != 0)
            continue;
        bus[sizeof bus - 1] = '\0';
        for (char *c = bus; *c; c++)
            if (*c >= 'A' && *c <= 'F') *c = (char)(*c - 'A' + 'a');
        /* CUDA names "0000:01:00.0", sometimes with an 8-digit domain. */
        const char *b = strlen(bus) > 12 ? bus + strlen(bus) - 12 : bus;
        for (int k = 0; k < res->n_gpus; k++)
            if (!strcmp(res->gpus[k].bdf, b)) cuda_measure(&res->gpus[k], &cu, dev);
    }
    dlclose(h);
}

void nn_probe_nvidia_libraries(nn_probe_result *res, bool bandwidth) {
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        nn_probe_add_na(&res->host, "nvml.status", NN_PROBE_STR, "", "dlopen libnvidia-ml.so.1",
                        "library not found");
    } else {
        nn_probe_nvml_api api;
        memset(&api, 0, sizeof api);
        LOADF(api, init, h, "nvmlInit_v2");
        LOADF(api, shutdown, h, "nvmlShutdown");
        LOADF(api, error_string, h, "nvmlErrorString");
        LOADF(api, system_driver_version, h, "nvmlSystemGetDriverVersion");
        LOADF(api, device_count, h, "nvmlDeviceGetCount_v2");
        LOADF(api, device_by_index, h, "nvmlDeviceGetHandleByIndex_v2");
        LOADF(api, device_pci_info, h, "nvmlDeviceGetPciInfo_v3");
        LOADF(api, device_name, h, "nvmlDeviceGetName");
        LOADF(api, device_memory, h, "nvmlDeviceGetMemoryInfo");
        LOADF(api, device_curr_pcie_gen, h, "nvmlDeviceGetCurrPcieLinkGeneration");
        LOADF(api, device_max_pcie_gen, h, "nvmlDeviceGetMaxPcieLinkGeneration");
        LOADF(api, device_curr_pcie_width, h, "nvmlDeviceGetCurrPcieLinkWidth");
        LOADF(api, device_max_pcie_width, h, "nvmlDeviceGetMaxPcieLinkWidth");
        LOADF(api, device_temperature, h, "nvmlDeviceGetTemperature");
        LOADF(api, device_temperature_threshold, h, "nvmlDeviceGetTemperatureThreshold");
        LOADF(api, device_power_usage, h, "nvmlDeviceGetPowerUsage");
        LOADF(api, device_enforced_power_limit, h, "nvmlDeviceGetEnforcedPowerLimit");
        LOADF(api, device_default_power_limit, h, "nvmlDeviceGetPowerManagementDefaultLimit");
        LOADF(api, device_clock, h, "nvmlDeviceGetClockInfo");
        LOADF(api, device_max_clock, h, "nvmlDeviceGetMaxClockInfo");
        LOADF(api, device_utilization, h, "nvmlDeviceGetUtilizationRates");
        LOADF(api, device_total_ecc_errors, h, "nvmlDeviceGetTotalEccErrors");
        LOADF(api, device_fan_speed, h, "nvmlDeviceGetFanSpeed");
        /* The library's own file names its driver release; compare it with the kernel's. */
        Dl_info info;
        void *sym = load_sym(h, "nvmlInit_v2");
        char ver[64];
        if (sym && dladdr(sym, &info) && info.dli_fname) {
            char real[4096];
            if (realpath(info.dli_fname, real) && lib_version_of(real, ver, sizeof ver))
                nn_probe_add_str(&res->host, "nvidia.driver.lib_version", ver, real);
        }
        nn_probe_nvml_apply(res, &api, "libnvidia-ml.so.1");
        dlclose(h);
    }
    if (bandwidth) {
        bool any = false;
        for (int i = 0; i < res->n_gpus; i++) any |= res->gpus[i].vendor == 0x10de;
        if (any)
            cuda_bandwidth(res);
        else
            nn_probe_add_na(&res->host, "cuda.status", NN_PROBE_STR, "", "dlopen libcuda.so.1",
                            "no NVIDIA GPU");
    } else {
        nn_probe_add_na(&res->host, "cuda.status", NN_PROBE_STR, "", "dlopen libcuda.so.1",
                        "bandwidth test disabled");
    }
}
