/* Tests for engine/probe: every recorded machine tree under tests/fixtures/probe
 * with its readings and exactly its findings, variations of those trees for the
 * other findings, fake NVML / ROCm SMI tables, the CLI, odd files, and a fuzz
 * pass that writes random bytes into every file of every tree. */
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../nn_test.h"
#include "probe/nn_doctor.h"
#include "probe/nn_probe.h"
#include "probe/nn_probe_amd.h"
#include "probe/nn_probe_cli.h"
#include "probe/nn_probe_nvidia.h"
#include "probe/nn_probe_report.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static const char *fixture(const char *name) {
    static char path[1024];
    snprintf(path, sizeof path, "tests/fixtures/probe/%s", name);
    return path;
}

static nn_probe_result *probe_at(const char *root) {
    nn_probe_options o = nn_probe_default_options();
    o.root = root;
    nn_error e;
    nn_error_clear(&e);
    nn_probe_result *r = nn_probe_run(&o, &e);
    CHECK_MSG(r != NULL, "probe failed: %s", e.msg);
    return r;
}

static void user_ids(const char *uid, const char *groups) {
    if (uid)
        setenv("NNDB_PROBE_UID", uid, 1);
    else
        unsetenv("NNDB_PROBE_UID");
    if (groups)
        setenv("NNDB_PROBE_GROUPS", groups, 1);
    else
        unsetenv("NNDB_PROBE_GROUPS");
}

/* "warn:pcie-link-degraded:0000:05:00.0 ok:gpu-ok:..." in the report's order. */
static const char *finding_list(const nn_doctor_report *rep) {
    static char buf[2048];
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < rep->n && off < sizeof buf; i++)
        off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s:%s:%s", i ? " " : "",
                                nn_doctor_severity_name(rep->v[i].severity), rep->v[i].id,
                                rep->v[i].device);
    return buf;
}

static bool findings_are(const nn_probe_result *res, const char *want) {
    nn_doctor_report *rep = nn_doctor_run(res);
    bool same = rep && !strcmp(finding_list(rep), want);
    if (!same)
        fprintf(stderr, "  findings: %s\n  expected: %s\n", rep ? finding_list(rep) : "?", want);
    nn_doctor_free(rep);
    return same;
}

static const nn_probe_gpu *gpu(const nn_probe_result *r, const char *bdf) {
    for (int i = 0; r && i < r->n_gpus; i++)
        if (!strcmp(r->gpus[i].bdf, bdf)) return &r->gpus[i];
    return NULL;
}

static int64_t geti(const nn_probe_readings *r, const char *key) {
    int64_t v = INT64_MIN;
    nn_probe_get_int(r, key, &v);
    return v;
}

static double getn(const nn_probe_readings *r, const char *key) {
    double v = -1e300;
    nn_probe_get_num(r, key, &v);
    return v;
}

static bool str_is(const nn_probe_readings *r, const char *key, const char *want) {
    const char *s = nn_probe_get_str(r, key);
    if (!s || strcmp(s, want)) {
        fprintf(stderr, "  %s = %s, expected %s\n", key, s ? s : "(n/a)", want);
        return false;
    }
    return true;
}

/* A scratch copy of a fixture the test may change; removed by drop_copy. */
static char *copy_fixture(const char *name) {
    static char dirs[8][64];
    static int next;
    char *d = dirs[next++ % 8];
    snprintf(d, 64, "/tmp/nndb-probe-XXXXXX");
    if (!mkdtemp(d)) return NULL;
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "cp -a '%s/.' '%s/'", fixture(name), d);
    if (system(cmd) != 0) return NULL;
    return d;
}

static void drop_copy(const char *d) {
    char cmd[256];
    if (!d || strncmp(d, "/tmp/nndb-probe-", 16)) return;
    snprintf(cmd, sizeof cmd, "chmod -R u+rwX '%s' 2>/dev/null; rm -rf '%s'", d, d);
    if (system(cmd) != 0) fprintf(stderr, "  could not remove %s\n", d);
}

static void put(const char *root, const char *rel, const char *text) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    unlink(path);
    FILE *f = fopen(path, "w");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* ---- a small JSON checker ---------------------------------------------------------------- */

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p) {
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

static const char *json_string(const char *p) {
    if (*p++ != '"') return NULL;
    while (*p && *p != '"') {
        if ((unsigned char)*p < 0x20) return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i]) return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
        p++;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *json_value(const char *p, int depth) {
    if (depth > 32) return NULL;
    p = json_ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        bool obj = *p == '{';
        p = json_ws(p + 1);
        if (*p == close) return p + 1;
        for (;;) {
            if (obj) {
                p = json_string(json_ws(p));
                if (!p) return NULL;
                p = json_ws(p);
                if (*p++ != ':') return NULL;
            }
            p = json_value(p, depth + 1);
            if (!p) return NULL;
            p = json_ws(p);
            if (*p == ',')
                p++;
            else if (*p == close)
                return p + 1;
            else
                return NULL;
        }
    }
    if (*p == '"') return json_string(p);
    if (!strncmp(p, "true", 4)) return p + 4;
    if (!strncmp(p, "false", 5)) return p + 5;
    if (!strncmp(p, "null", 4)) return p + 4;
    char *end;
    strtod(p, &end);
    return end > p && (*p == '-' || (*p >= '0' && *p <= '9')) ? end : NULL;
}

static bool json_ok(const char *text) {
    const char *end = json_value(text, 0);
    return end && *json_ws(end) == '\0';
}

/* Run [fn] into a tmpfile and return what it wrote (malloc'ed). */
static char *capture_cli(int argc, char **argv, int *status) {
    FILE *out = tmpfile(), *err = tmpfile();
    if (!out || !err) return NULL;
    *status = nn_probe_cli(argc, argv, out, err);
    long n = ftell(out);
    char *buf = malloc((size_t)(n > 0 ? n : 0) + 1);
    rewind(out);
    size_t got = n > 0 ? fread(buf, 1, (size_t)n, out) : 0;
    buf[got] = '\0';
    fclose(out);
    fclose(err);
    return buf;
}

static bool reports_are_json(const nn_probe_result *res) {
    FILE *f = tmpfile();
    if (!f) return false;
    nn_doctor_report *rep = nn_doctor_run(res);
    nn_probe_report_json(f, res);
    fputc('\0', f);
    long a = ftell(f);
    nn_doctor_report_json(f, rep);
    nn_probe_report_text(f, res, true);
    nn_doctor_report_text(f, res, rep, false);
    long n = ftell(f);
    char *buf = malloc((size_t)n + 1);
    rewind(f);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    /* The doctor's JSON is followed by the text reports; cut them off. */
    char *doc = buf + a;
    char *tail = strstr(doc, "\n}\n");
    if (tail) tail[3] = '\0';
    bool ok = json_ok(buf) && json_ok(doc);
    if (!ok) fprintf(stderr, "  invalid JSON:\n%.2000s\n", buf);
    free(buf);
    nn_doctor_free(rep);
    return ok;
}

/* ---- arithmetic and parsers -------------------------------------------------------------- */

NN_TEST(probe_parsers) {
    int64_t v;
    CHECK(nn_probe_parse_int(" 42\n", &v) && v == 42);
    CHECK(nn_probe_parse_int("0x10de", &v) && v == 0x10de);
    CHECK(!nn_probe_parse_int("", &v));
    CHECK(!nn_probe_parse_int("12abc", &v));
    CHECK(!nn_probe_parse_int("0x", &v));
    CHECK(!nn_probe_parse_int("99999999999999999999999", &v));
    char gfx[16];
    CHECK(nn_probe_amd_gfx_name(90006, gfx, sizeof gfx) && !strcmp(gfx, "gfx906"));
    CHECK(nn_probe_amd_gfx_name(90010, gfx, sizeof gfx) && !strcmp(gfx, "gfx90a"));
    CHECK(nn_probe_amd_gfx_name(110000, gfx, sizeof gfx) && !strcmp(gfx, "gfx1100"));
    CHECK(!nn_probe_amd_gfx_name(0, gfx, sizeof gfx));
    CHECK(nn_probe_nvidia_parse_version(
              "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  560.35.03  Release Build",
              gfx, sizeof gfx) &&
          !strcmp(gfx, "560.35.03"));
    CHECK_NEAR(nn_probe_lane_gbps(16.0) * 16, 31.51, 1e-3);
    CHECK_NEAR(nn_probe_lane_gbps(8.0) * 4, 3.938, 1e-3);
    CHECK_NEAR(nn_probe_lane_gbps(2.5), 0.25, 1e-9);
    CHECK(!strcmp(nn_probe_gen_name(32.0), "Gen5"));
    CHECK(nn_doctor_version_cmp("6.4.0-47", "6.4") >= 0);
    CHECK(nn_doctor_version_cmp("6.3.3", "6.4") < 0);
    CHECK(nn_doctor_version_cmp("10.0", "6.4") > 0);
}

/* ---- the recorded machines --------------------------------------------------------------- */

NN_TEST(probe_fixture_cpu_only) {
    user_ids("1000", "1000,4,44");
    nn_probe_result *r = probe_at(fixture("cpu-only"));
    if (!r) return;
    CHECK(r->n_gpus == 0);
    CHECK(r->n_other_display == 1 && strstr(r->other_display[0], "ASPEED"));
    CHECK(geti(&r->host, "host.pci_devices") == 5);
    CHECK(geti(&r->host, "host.module.nvidia") == 0);
    CHECK(!nn_probe_get_str(&r->host, "rocm.version"));
    CHECK(findings_are(r, "info:no-gpu:host"));
    CHECK(reports_are_json(r));
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

NN_TEST(probe_fixture_rtx4070) {
    user_ids("1000", "1000,44,109");
    nn_probe_result *r = probe_at(fixture("rtx4070"));
    const nn_probe_gpu *g = gpu(r, "0000:01:00.0");
    CHECK(r && r->n_gpus == 1 && g);
    if (!g) return;
    CHECK(!strcmp(g->name, "NVIDIA GeForce RTX 4070"));
    CHECK(str_is(&g->r, "pci.name", "NVIDIA Corporation AD104 [GeForce RTX 4070]"));
    CHECK(str_is(&g->r, "pci.driver", "nvidia"));
    CHECK(str_is(&g->r, "pci.subsystem_vendor_id", "0x1043"));
    CHECK(geti(&g->r, "pci.iommu_group") == 14);
    CHECK(geti(&g->r, "pci.numa_node") == -1);
    CHECK(g->n_path == 2 && !strcmp(g->path[1].bdf, "0000:00:01.1"));
    CHECK(getn(&g->r, "pci.link.narrowest_speed") == 16.0);
    CHECK(geti(&g->r, "pci.link.narrowest_width") == 16);
    CHECK_NEAR(getn(&g->r, "pci.link.narrowest_gbps"), 31.51, 1e-3);
    CHECK(geti(&g->r, "pci.bar.largest") == (int64_t)16 << 30);
    CHECK(geti(&g->r, "pci.bar.largest_index") == 1);
    CHECK(geti(&g->r, "pci.aer.correctable") == 0 && geti(&g->r, "pci.root_port.aer.fatal") == 0);
    CHECK(geti(&g->r, "nvidia.device_minor") == 0);
    CHECK(str_is(&g->r, "nvidia.vbios", "95.04.31.00.2b"));
    CHECK(str_is(&r->host, "nvidia.driver.kernel_version", "550.120"));
    CHECK(str_is(&r->host, "nvidia.driver.lib_version", "550.120"));
    /* No NVML under a recorded tree: memory is "not available", not zero. */
    const nn_probe_reading *mem = nn_probe_find(&g->r, "mem.total");
    CHECK(mem == NULL || !mem->available);
    const nn_probe_node *n = NULL;
    for (int i = 0; i < r->n_nodes; i++)
        if (!strcmp(r->nodes[i].path, "/dev/nvidiactl")) n = &r->nodes[i];
    CHECK(n && n->type == 'c' && n->mode == 0666 && n->can_open);
    CHECK(findings_are(r, "ok:gpu-ok:0000:01:00.0"));
    CHECK(reports_are_json(r));
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

NN_TEST(probe_fixture_mi50_chipset) {
    user_ids("1000", "1000,44,109");
    nn_probe_result *r = probe_at(fixture("mi50-chipset"));
    const nn_probe_gpu *g = gpu(r, "0000:05:00.0");
    CHECK(r && r->n_gpus == 1 && g);
    if (!g) return;
    CHECK(!strcmp(g->name, "AMD Radeon Pro VII/Radeon Instinct MI50 32GB"));
    CHECK(str_is(&g->r, "pci.class", "0x038000"));
    CHECK(g->n_path == 4);
    CHECK(str_is(&g->r, "pci.card_top", "0000:03:00.0"));
    CHECK(str_is(&g->r, "pci.slot_port", "0000:00:1c.4"));
    CHECK(str_is(&g->r, "pci.link.narrowest_hop", "0000:00:1c.4-0000:03:00.0"));
    CHECK(geti(&g->r, "pci.link.narrowest_width") == 4);
    CHECK(getn(&g->r, "pci.link.narrowest_speed") == 8.0);
    /* The GPU function itself claims x16 Gen4 behind the card's own switch. */
    CHECK(geti(&g->r, "pci.link.cur_width") == 16);
    CHECK(geti(&g->r, "pci.link.card_max_width") == 16 &&
          getn(&g->r, "pci.link.card_max_speed") == 16.0);
    CHECK(geti(&g->r, "pci.link.slot_max_width") == 4 &&
          getn(&g->r, "pci.link.slot_max_speed") == 8.0);
    CHECK(geti(&g->r, "pci.bar.largest") == 256 << 20);
    CHECK(geti(&g->r, "mem.total") == 34342961152LL);
    CHECK(geti(&g->r, "mem.visible_total") == 256 << 20);
    CHECK(geti(&g->r, "fan.present") == 0);
    CHECK(getn(&g->r, "temp.junction") == 36.0 && getn(&g->r, "temp.junction.crit") == 110.0);
    CHECK(getn(&g->r, "temp.mem.crit") == 94.0);
    CHECK(getn(&g->r, "power.average") == 19.0 && getn(&g->r, "power.cap") == 300.0);
    CHECK(getn(&g->r, "clock.graphics") == 700.0 && getn(&g->r, "clock.graphics.max") == 1725.0);
    CHECK(getn(&g->r, "clock.mem") == 800.0);
    CHECK(str_is(&g->r, "amdgpu.pcie_dpm.levels", "2.5GT/s, x1 | 8.0GT/s, x4 *"));
    CHECK(geti(&g->r, "util.gpu") == 0);
    CHECK(str_is(&g->r, "amdgpu.gfx_target", "gfx906"));
    CHECK(str_is(&g->r, "amdgpu.vbios", "113-D1631700-111"));
    CHECK(str_is(&g->r, "amdgpu.unique_id", "2f6ac17272b3d5b1"));
    CHECK(str_is(&g->r, "drm.render_node", "renderD128"));
    CHECK(geti(&g->r, "ras.ue_total") == 0 && geti(&g->r, "ras.ce_total") == 0);
    CHECK(geti(&g->r, "ras.bad_pages") == 0);
    /* Only 64 bytes of config space, as an unprivileged user sees it: atomics unknown. */
    const nn_probe_reading *at = nn_probe_find(&g->r, "pci.atomics.requester_enabled");
    CHECK(at && !at->available);
    CHECK(str_is(&r->host, "rocm.version", "6.4.0-47"));
    CHECK(str_is(&r->host, "rocm.path", "opt/rocm-6.4.0"));
    CHECK(findings_are(
        r, "warn:bar-smaller-than-vram:0000:05:00.0 warn:passive-cooling:0000:05:00.0 "
           "warn:pcie-link-degraded:0000:05:00.0 warn:rocm-target-deprecated:0000:05:00.0"));
    nn_doctor_report *rep = nn_doctor_run(r);
    const nn_doctor_finding *f = nn_doctor_find(rep, "pcie-link-degraded", NULL);
    CHECK(f && strstr(f->summary, "0000:00:1c.4-0000:03:00.0") &&
          strstr(f->summary, "slot is the limit"));
    CHECK(f && f->n_evidence >= 4);
    nn_doctor_free(rep);
    CHECK(reports_are_json(r));
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

NN_TEST(probe_fixture_no_render_group) {
    user_ids("1000", "1000");
    nn_probe_result *r = probe_at(fixture("no-render-group"));
    const nn_probe_gpu *g = gpu(r, "0000:03:00.0");
    CHECK(r && g);
    if (!g) return;
    CHECK(str_is(&g->r, "amdgpu.gfx_target", "gfx1100"));
    CHECK(geti(&g->r, "fan.present") == 1 && geti(&g->r, "fan.rpm") == 0);
    CHECK(geti(&g->r, "pci.link.narrowest_width") == 16);
    const nn_probe_reading *ras = nn_probe_find(&g->r, "ras.ue_total");
    CHECK(ras && !ras->available); /* consumer card: no RAS, which is not "0 errors" */
    CHECK(str_is(&r->host, "host.user.groups", "1000(alice)"));
    CHECK(findings_are(r, "error:device-node-permission:0000:03:00.0"));
    nn_doctor_report *rep = nn_doctor_run(r);
    const nn_doctor_finding *f = nn_doctor_find(rep, "device-node-permission", NULL);
    CHECK(f && strstr(f->summary, "render") && strstr(f->fix, "usermod -aG render"));
    CHECK(nn_doctor_worst(rep) == NN_DOCTOR_ERROR);
    nn_doctor_free(rep);
    nn_probe_free(r);
    /* The same machine for a user in render: healthy. */
    user_ids("1000", "1000,109");
    r = probe_at(fixture("no-render-group"));
    CHECK(findings_are(r, "ok:gpu-ok:0000:03:00.0"));
    nn_probe_free(r);
    /* The owner of the node (uid 0 here is root, who can open anything). */
    user_ids("0", "0");
    r = probe_at(fixture("no-render-group"));
    CHECK(findings_are(r, "ok:gpu-ok:0000:03:00.0"));
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

NN_TEST(probe_fixture_h100_server) {
    user_ids("1000", "1000");
    nn_probe_result *r = probe_at(fixture("h100-server"));
    const nn_probe_gpu *g = gpu(r, "0000:17:00.0");
    CHECK(r && r->n_gpus == 1 && g);
    if (!g) return;
    CHECK(!strcmp(g->name, "NVIDIA H100 PCIe"));
    CHECK(str_is(&g->r, "pci.class", "0x030200"));
    CHECK(getn(&g->r, "pci.link.narrowest_speed") == 32.0 &&
          geti(&g->r, "pci.link.narrowest_width") == 16);
    CHECK(geti(&g->r, "pci.bar.largest") == (int64_t)128 << 30);
    CHECK(geti(&g->r, "pci.numa_node") == 0);
    CHECK(str_is(&g->r, "pci.local_cpulist", "0-55,112-167"));
    CHECK(geti(&r->host, "host.chassis_type") == 23);
    CHECK(str_is(&r->host, "host.cmdline.gpu_options", "intel_iommu=on iommu=pt"));
    CHECK(r->n_other_display == 1);
    CHECK(findings_are(r, "ok:gpu-ok:0000:17:00.0"));
    CHECK(reports_are_json(r));
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

/* ---- variations for the other findings --------------------------------------------------- */

NN_TEST(doctor_variants_nvidia) {
    user_ids("1000", "1000,44,109");
    char *d = copy_fixture("rtx4070");
    CHECK(d != NULL);
    if (!d) return;
    const char *dev = "sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0";
    char rel[256];
    /* Idle: the link drops to 2.5 GT/s at full width. */
    snprintf(rel, sizeof rel, "%s/current_link_speed", dev);
    put(d, rel, "2.5 GT/s PCIe\n");
    put(d, "sys/devices/pci0000:00/0000:00:01.1/current_link_speed", "2.5 GT/s PCIe\n");
    nn_probe_result *r = probe_at(d);
    CHECK(findings_are(r, "info:pcie-link-degraded:0000:01:00.0 ok:gpu-ok:0000:01:00.0"));
    nn_probe_free(r);
    /* Trained at x8 although both ends do x16: a seating problem. */
    put(d, rel, "16.0 GT/s PCIe\n");
    put(d, "sys/devices/pci0000:00/0000:00:01.1/current_link_speed", "16.0 GT/s PCIe\n");
    snprintf(rel, sizeof rel, "%s/current_link_width", dev);
    put(d, rel, "8\n");
    r = probe_at(d);
    CHECK(findings_are(r, "warn:pcie-link-degraded:0000:01:00.0"));
    nn_probe_free(r);
    put(d, rel, "16\n");
    /* Kernel module and user-space library from different releases. */
    put(d, "proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.107.02  Wed Jul 24\n");
    r = probe_at(d);
    CHECK(findings_are(r, "error:nvidia-driver-mismatch:host ok:gpu-ok:0000:01:00.0"));
    nn_probe_free(r);
    put(d, "proc/driver/nvidia/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.120  Fri\n");
    /* No driver bound and no module: the module is missing. */
    snprintf(rel, sizeof rel, "%s/%s/driver", d, dev);
    CHECK(unlink(rel) == 0);
    put(d, "proc/modules", "snd_hda_intel 61440 0 - Live 0x0\n");
    r = probe_at(d);
    CHECK(findings_are(r, "error:driver-module-missing:0000:01:00.0"));
    nn_probe_free(r);
    /* Module loaded but not bound: initialisation failed. */
    put(d, "proc/modules", "nvidia 61440 0 - Live 0x0\n");
    r = probe_at(d);
    CHECK(findings_are(r, "error:driver-not-bound:0000:01:00.0"));
    nn_probe_free(r);
    /* Bound to nouveau. */
    CHECK(symlink("../../../../bus/pci/drivers/nouveau", rel) == 0);
    r = probe_at(d);
    CHECK(findings_are(r, "warn:driver-not-bound:0000:01:00.0"));
    nn_probe_free(r);
    drop_copy(d);
    user_ids(NULL, NULL);
}

/* Config space with a PCIe capability at 0x80 whose DevCtl2 has AtomicOp requester off. */
static void write_config(const char *root, const char *rel, bool atomics) {
    unsigned char cfg[256] = {0};
    cfg[0] = 0x02, cfg[1] = 0x10, cfg[2] = 0xa1, cfg[3] = 0x66;
    cfg[0x06] = 0x10;
    cfg[0x34] = 0x80;
    cfg[0x80] = 0x10;
    cfg[0x81] = 0x00;
    cfg[0x80 + 0x24] = 0x80 | 0x40; /* DevCap2: 32-bit completer, routing */
    cfg[0x80 + 0x25] = 0x01;        /* 64-bit completer */
    cfg[0x80 + 0x28] = atomics ? 0x40 : 0x00;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    fwrite(cfg, 1, sizeof cfg, f);
    fclose(f);
}

NN_TEST(doctor_variants_amd) {
    user_ids("1000", "1000,44,109");
    char *d = copy_fixture("mi50-chipset");
    CHECK(d != NULL);
    if (!d) return;
    const char *dev = "sys/devices/pci0000:00/0000:00:1c.4/0000:03:00.0/0000:04:00.0/0000:05:00.0";
    const char *base =
        "warn:bar-smaller-than-vram:0000:05:00.0 warn:passive-cooling:0000:05:00.0 "
        "warn:pcie-link-degraded:0000:05:00.0 warn:rocm-target-deprecated:0000:05:00.0";
    char rel[256], want[1024];
    /* Root can read all of config space: atomics visible, and off. */
    snprintf(rel, sizeof rel, "%s/config", dev);
    write_config(d, rel, false);
    nn_probe_result *r = probe_at(d);
    CHECK(geti(&gpu(r, "0000:05:00.0")->r, "pci.atomics.requester_enabled") == 0);
    snprintf(want, sizeof want,
             "warn:bar-smaller-than-vram:0000:05:00.0 warn:passive-cooling:0000:05:00.0 "
             "warn:pcie-atomics-unavailable:0000:05:00.0 warn:pcie-link-degraded:0000:05:00.0 "
             "warn:rocm-target-deprecated:0000:05:00.0");
    CHECK(findings_are(r, want));
    nn_probe_free(r);
    write_config(d, rel, true);
    r = probe_at(d);
    CHECK(findings_are(r, base));
    nn_probe_free(r);
    /* Correctable AER errors on the device. */
    snprintf(rel, sizeof rel, "%s/aer_dev_correctable", dev);
    put(d, rel, "RxErr 0\nBadTLP 3\nBadDLLP 1\nTOTAL_ERR_COR 4\n");
    r = probe_at(d);
    CHECK(geti(&gpu(r, "0000:05:00.0")->r, "pci.aer.correctable") == 4);
    snprintf(
        want, sizeof want,
        "warn:bar-smaller-than-vram:0000:05:00.0 warn:passive-cooling:0000:05:00.0 "
        "warn:pcie-aer-errors:0000:05:00.0 %s",
        base +
            strlen("warn:bar-smaller-than-vram:0000:05:00.0 warn:passive-cooling:0000:05:00.0 "));
    CHECK(findings_are(r, want));
    nn_probe_free(r);
    put(d, rel, "TOTAL_ERR_COR 0\n");
    /* Hot junction, RAS errors, lowered power cap, an older ROCm. */
    snprintf(rel, sizeof rel, "%s/hwmon/hwmon3/temp2_input", dev);
    put(d, rel, "104000\n");
    snprintf(rel, sizeof rel, "%s/ras/umc_err_count", dev);
    put(d, rel, "ue: 1\nce: 7\n");
    snprintf(rel, sizeof rel, "%s/ras/gpu_vram_bad_pages", dev);
    put(d, rel, "0x00000001 : 0x00001000 : R\n0x00000203 : 0x00001000 : P\n");
    snprintf(rel, sizeof rel, "%s/hwmon/hwmon3/power1_cap", dev);
    put(d, rel, "150000000\n");
    put(d, "opt/rocm-6.4.0/.info/version", "6.3.3-74\n");
    r = probe_at(d);
    const nn_probe_gpu *g = gpu(r, "0000:05:00.0");
    CHECK(g && geti(&g->r, "ras.ue_total") == 1 && geti(&g->r, "ras.ce_total") == 7);
    CHECK(g && geti(&g->r, "ras.bad_pages") == 2);
    CHECK(findings_are(
        r, "error:ras-errors:0000:05:00.0 warn:bar-smaller-than-vram:0000:05:00.0 "
           "warn:passive-cooling:0000:05:00.0 warn:pcie-link-degraded:0000:05:00.0 "
           "warn:power-capped:0000:05:00.0 warn:temperature-near-critical:0000:05:00.0"));
    nn_probe_free(r);
    /* In a rack server, no fan is expected: a note, not a warning. */
    put(d, "sys/class/dmi/id/chassis_type", "23\n");
    r = probe_at(d);
    nn_doctor_report *rep = nn_doctor_run(r);
    const nn_doctor_finding *f = nn_doctor_find(rep, "passive-cooling", NULL);
    CHECK(f && f->severity == NN_DOCTOR_INFO);
    nn_doctor_free(rep);
    nn_probe_free(r);
    /* amdgpu bound but no /dev/kfd. */
    put(d, "dev/.nndb-nodes", "dri/renderD128 c 0660 0 109\n");
    snprintf(rel, sizeof rel, "%s/dev/kfd", d);
    unlink(rel);
    r = probe_at(d);
    rep = nn_doctor_run(r);
    CHECK(nn_doctor_find(rep, "device-node-missing", "0000:05:00.0") != NULL);
    nn_doctor_free(rep);
    nn_probe_free(r);
    drop_copy(d);
    user_ids(NULL, NULL);
}

/* ---- fake NVML and ROCm SMI -------------------------------------------------------------- */

static int fake_rc_init;
static int f_init(void) {
    return fake_rc_init;
}
static int f_shutdown(void) {
    return 0;
}
static const char *f_err(int rc) {
    return rc == 18 ? "RM has detected an NVML/RM version mismatch" : "err";
}
static int f_drv(char *b, unsigned n) {
    snprintf(b, n, "550.120");
    return 0;
}
static int f_count(unsigned *n) {
    *n = 1;
    return 0;
}
static int f_handle(unsigned i, nn_nvml_device *d) {
    *d = (nn_nvml_device)(uintptr_t)(i + 1);
    return 0;
}
static int f_pci(nn_nvml_device d, nn_nvml_pci_info *p) {
    p->domain = 0;
    p->bus = 1;
    p->device = 0;
    return 0;
}
static int f_name(nn_nvml_device d, char *b, unsigned n) {
    snprintf(b, n, "NVIDIA GeForce RTX 4070");
    return 0;
}
static int f_mem(nn_nvml_device d, nn_nvml_memory *m) {
    m->total = 12878610432ULL;
    m->used = 1ULL << 30;
    m->free = m->total - m->used;
    return 0;
}
static int f_gen(nn_nvml_device d, unsigned *g) {
    *g = 4;
    return 0;
}
static int f_width(nn_nvml_device d, unsigned *w) {
    *w = 16;
    return 0;
}
static int f_temp(nn_nvml_device d, int s, unsigned *c) {
    *c = 52;
    return 0;
}
static int f_thresh(nn_nvml_device d, int t, unsigned *c) {
    *c = t == 1 ? 90 : 95;
    return 0;
}
static int f_power(nn_nvml_device d, unsigned *mw) {
    *mw = 185000;
    return 0;
}
static int f_limit(nn_nvml_device d, unsigned *mw) {
    *mw = 200000;
    return 0;
}
static int f_clock(nn_nvml_device d, int t, unsigned *m) {
    *m = t == 0 ? 2475 : 10501;
    return 0;
}
static int f_util(nn_nvml_device d, nn_nvml_utilization *u) {
    u->gpu = 97;
    u->memory = 41;
    return 0;
}
static int f_ecc(nn_nvml_device d, int a, int b, unsigned long long *c) {
    return NN_NVML_NOT_SUPPORTED;
}
static int f_fan(nn_nvml_device d, unsigned *p) {
    return NN_NVML_NOT_SUPPORTED;
}

static nn_probe_nvml_api fake_nvml(void) {
    nn_probe_nvml_api a = {f_init,  f_shutdown, f_err,    f_drv,   f_count, f_handle,
                           f_pci,   f_name,     f_mem,    f_gen,   f_gen,   f_width,
                           f_width, f_temp,     f_thresh, f_power, f_limit, f_limit,
                           f_clock, f_clock,    f_util,   f_ecc,   f_fan};
    return a;
}

NN_TEST(probe_nvml_fake) {
    user_ids("1000", "1000,44,109");
    nn_probe_result *r = probe_at(fixture("rtx4070"));
    if (!r) return;
    nn_probe_nvml_api api = fake_nvml();
    fake_rc_init = 0;
    nn_probe_nvml_apply(r, &api, "fake");
    const nn_probe_gpu *g = gpu(r, "0000:01:00.0");
    CHECK(str_is(&r->host, "nvml.status", "ok"));
    CHECK(str_is(&r->host, "nvml.driver_version", "550.120"));
    CHECK(geti(&g->r, "mem.total") == 12878610432LL);
    CHECK(geti(&g->r, "nvml.pcie.cur_gen") == 4 && geti(&g->r, "nvml.pcie.max_width") == 16);
    CHECK(getn(&g->r, "temp.gpu") == 52.0 && getn(&g->r, "temp.gpu.slowdown") == 90.0);
    CHECK(getn(&g->r, "power.average") == 185.0 && getn(&g->r, "power.cap") == 200.0);
    CHECK(geti(&g->r, "util.gpu") == 97);
    const nn_probe_reading *ecc = nn_probe_find(&g->r, "ecc.uncorrected");
    CHECK(ecc && !ecc->available && ecc->note && strstr(ecc->note, "n/a"));
    CHECK(geti(&g->r, "fan.present") == 0);
    CHECK(!strcmp(nn_probe_find(&g->r, "temp.gpu")->source, "nvml:nvmlDeviceGetTemperature"));
    /* 185 of 200 W is not "at the cap"; a fanless card in a desktop is. 16 GiB BAR1 >= 12 GiB. */
    CHECK(findings_are(r, "warn:passive-cooling:0000:01:00.0"));
    CHECK(reports_are_json(r));
    nn_probe_free(r);

    r = probe_at(fixture("rtx4070"));
    fake_rc_init = NN_NVML_RM_VERSION_MISMATCH;
    nn_probe_nvml_apply(r, &api, "fake");
    const nn_probe_reading *st = nn_probe_find(&r->host, "nvml.status");
    CHECK(st && !st->available && strstr(st->note, "mismatch"));
    CHECK(findings_are(r, "error:nvidia-driver-mismatch:host ok:gpu-ok:0000:01:00.0"));
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

static int r_init(uint64_t f) {
    return 0;
}
static int r_shut(void) {
    return 0;
}
static int r_num(uint32_t *n) {
    *n = 2;
    return 0;
}
static int r_pci(uint32_t dv, uint64_t *id) {
    *id = dv == 0 ? (5u << 8) : (9u << 8);
    return 0;
}
static int r_temp(uint32_t dv, uint32_t s, int m, int64_t *mc) {
    if (s == 2) return 2;
    *mc = 40000 + 1000 * (int64_t)s;
    return 0;
}
static int r_pow(uint32_t dv, uint32_t s, uint64_t *uw) {
    *uw = 21000000;
    return 0;
}
static int r_mem(uint32_t dv, int t, uint64_t *b) {
    *b = 34342961152ULL;
    return 0;
}
static int r_busy(uint32_t dv, uint32_t *p) {
    *p = 3;
    return 0;
}

NN_TEST(probe_rsmi_fake) {
    user_ids("1000", "1000,44,109");
    nn_probe_result *r = probe_at(fixture("mi50-chipset"));
    if (!r) return;
    nn_probe_rsmi_api api = {r_init, r_shut, r_num, r_pci, r_temp, r_pow, r_mem, r_busy};
    nn_probe_rsmi_apply(r, &api, "fake");
    const nn_probe_gpu *g = gpu(r, "0000:05:00.0");
    CHECK(geti(&r->host, "rocm_smi.devices") == 2);
    CHECK(getn(&g->r, "rsmi.temp.edge") == 40.0 && getn(&g->r, "rsmi.temp.junction") == 41.0);
    const nn_probe_reading *m = nn_probe_find(&g->r, "rsmi.temp.mem");
    CHECK(m && !m->available);
    CHECK(getn(&g->r, "rsmi.power.average") == 21.0 && geti(&g->r, "rsmi.util.gpu") == 3);
    nn_probe_free(r);
    user_ids(NULL, NULL);
}

/* ---- the command line -------------------------------------------------------------------- */

NN_TEST(probe_cli_commands) {
    int status;
    char *args_bad[] = {"probe", "--bogus"};
    char *out = capture_cli(2, args_bad, &status);
    CHECK(status == 2);
    free(out);
    char *args_cmd[] = {"frobnicate"};
    free(capture_cli(1, args_cmd, &status));
    CHECK(status == 2);

    user_ids("1000", "1000");
    setenv("NNDB_SYSROOT", fixture("cpu-only"), 1);
    char *doc[] = {"doctor"};
    out = capture_cli(1, doc, &status);
    CHECK(status == 0 && out && strstr(out, "no-gpu") && !strstr(out, "\033["));
    free(out);
    char *docj[] = {"doctor", "--json"};
    out = capture_cli(2, docj, &status);
    CHECK(status == 0 && out && json_ok(out) && strstr(out, "\"worst\": \"info\""));
    free(out);

    setenv("NNDB_SYSROOT", fixture("mi50-chipset"), 1);
    out = capture_cli(1, doc, &status);
    CHECK(status == 1 && out && strstr(out, "pcie-link-degraded") && strstr(out, "fix: "));
    free(out);
    char *pj[] = {"probe", "--json"};
    out = capture_cli(2, pj, &status);
    CHECK(status == 0 && out && json_ok(out) && strstr(out, "\"gfx906\""));
    free(out);
    char *pt[] = {"probe"};
    out = capture_cli(1, pt, &status);
    CHECK(status == 0 && out && strstr(out, "0000:00:1c.4") && strstr(out, "mem_info_vram_total"));
    free(out);

    setenv("NNDB_SYSROOT", fixture("no-render-group"), 1);
    out = capture_cli(1, doc, &status);
    CHECK(status == 1 && out && strstr(out, "device-node-permission"));
    free(out);
    unsetenv("NNDB_SYSROOT");
    user_ids(NULL, NULL);
}

/* This machine, as it is. On a CPU-only box it must be a calm no-gpu report. */
NN_TEST(probe_real_machine) {
    unsetenv("NNDB_SYSROOT");
    nn_probe_options o = nn_probe_default_options();
    o.measure_bandwidth = false;
    nn_probe_result *r = nn_probe_run(&o, NULL);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(reports_are_json(r));
    int compute = 0;
    for (int i = 0; i < r->n_gpus; i++) compute += r->gpus[i].vendor != 0x8086;
    nn_doctor_report *rep = nn_doctor_run(r);
    if (compute == 0) {
        CHECK_MSG(!strcmp(finding_list(rep), "info:no-gpu:host"), "findings: %s",
                  finding_list(rep));
        int status;
        char *doc[] = {"doctor", "--no-such"};
        free(capture_cli(2, doc, &status));
        CHECK(status == 2);
        char *doc1[] = {"doctor"};
        char *out = capture_cli(1, doc1, &status);
        CHECK(status == 0 && out && strstr(out, "No NVIDIA or AMD GPU found"));
        free(out);
    }
    nn_doctor_free(rep);
    nn_probe_free(r);
}

/* ---- odd files and fuzzing --------------------------------------------------------------- */

NN_TEST(probe_odd_files) {
    user_ids("1000", "1000");
    char *d = copy_fixture("mi50-chipset");
    CHECK(d != NULL);
    if (!d) return;
    char path[1024];
    const char *dev = "sys/devices/pci0000:00/0000:00:1c.4/0000:03:00.0/0000:04:00.0/0000:05:00.0";
    /* A symlink loop among the PCI devices, and as a driver link. */
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:09:00.0", d);
    CHECK(symlink("0000:09:00.0", path) == 0);
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:0a:00.0", d);
    CHECK(symlink("0000:0b:00.0", path) == 0);
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/0000:0b:00.0", d);
    CHECK(symlink("0000:0a:00.0", path) == 0);
    snprintf(path, sizeof path, "%s/%s/driver", d, dev);
    unlink(path);
    CHECK(symlink("driver", path) == 0);
    /* A FIFO where a number should be, a directory where a file should be, an empty file,
     * a file with no permissions, and a hwmon directory that loops. */
    snprintf(path, sizeof path, "%s/%s/mem_info_vram_total", d, dev);
    unlink(path);
    CHECK(mkfifo(path, 0644) == 0);
    snprintf(path, sizeof path, "%s/%s/current_link_width", d, dev);
    unlink(path);
    CHECK(mkdir(path, 0755) == 0);
    put(d, "proc/modules", "");
    snprintf(path, sizeof path, "%s/%s/resource", d, dev);
    chmod(path, 0);
    snprintf(path, sizeof path, "%s/%s/hwmon/hwmon9", d, dev);
    CHECK(symlink("hwmon9", path) == 0);
    snprintf(path, sizeof path, "%s/opt/rocm", d);
    unlink(path);
    CHECK(symlink("rocm", path) == 0);
    nn_probe_result *r = probe_at(d);
    CHECK(r && r->n_gpus == 1);
    if (r) {
        const nn_probe_gpu *g = gpu(r, "0000:05:00.0");
        CHECK(g && !g->driver[0]);
        const nn_probe_reading *m = g ? nn_probe_find(&g->r, "mem.total") : NULL;
        CHECK(m && !m->available);
        CHECK(reports_are_json(r));
    }
    nn_probe_free(r);
    /* A whole tree that is one loop. */
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices", d);
    CHECK(system("true") == 0);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    CHECK(system(cmd) == 0);
    CHECK(symlink("devices", path) == 0);
    r = probe_at(d);
    CHECK(r && r->n_gpus == 0);
    nn_probe_free(r);
    /* A root that does not exist at all. */
    r = probe_at("/nonexistent/nndb-root");
    CHECK(r && r->n_gpus == 0);
    if (r) CHECK(findings_are(r, "info:no-gpu:host"));
    nn_probe_free(r);
    drop_copy(d);
    user_ids(NULL, NULL);
}

static char **fuzz_files;
static int n_fuzz_files;

static int collect_file(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    if (type == FTW_F && S_ISREG(st->st_mode) && n_fuzz_files < 4096) {
        char **nv = realloc(fuzz_files, (size_t)(n_fuzz_files + 1) * sizeof *nv);
        if (!nv) return 1;
        fuzz_files = nv;
        fuzz_files[n_fuzz_files++] = strdup(path);
    }
    return 0;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

/* Contents a parser might choke on: empty, garbage bytes, huge or negative numbers,
 * half-valid lines, invalid UTF-8 and terminal escapes. */
static void random_contents(FILE *f) {
    static const char *const tokens[] = {"",
                                         "0",
                                         "-1",
                                         "4294967296",
                                         "99999999999999999999",
                                         "0x",
                                         "0xffffffffffffffff",
                                         "16.0 GT/s PCIe",
                                         "Unknown",
                                         "ue: ",
                                         "ce: -5",
                                         "TOTAL_ERR_COR",
                                         ": *",
                                         "0: 100Mhz *",
                                         "\xff\xfe\xc3",
                                         "\033[31m",
                                         "nan",
                                         "inf",
                                         "1e308",
                                         "gfx_target_version 90006",
                                         "location_id 1280",
                                         "\"\\"};
    int kind = (int)(rnd() % 4), n = (int)(rnd() % 24);
    for (int i = 0; i < n; i++) {
        if (kind == 0)
            fputc((int)(rnd() % 256), f);
        else
            fputs(tokens[rnd() % (sizeof tokens / sizeof tokens[0])], f);
        if (rnd() % 3 == 0) fputc(rnd() % 2 ? '\n' : ' ', f);
    }
}

NN_TEST(probe_fuzz_fixtures) {
    static const char *const trees[] = {"cpu-only", "rtx4070", "mi50-chipset", "no-render-group",
                                        "h100-server"};
    user_ids("1000", "1000,44");
    int runs = 0;
    for (size_t t = 0; t < sizeof trees / sizeof trees[0]; t++) {
        char *d = copy_fixture(trees[t]);
        CHECK(d != NULL);
        if (!d) continue;
        n_fuzz_files = 0;
        nftw(d, collect_file, 16, FTW_PHYS);
        for (int round = 0; round < 40; round++) {
            /* Each round rewrites a random half of the files (all of them every 8th round). */
            for (int i = 0; i < n_fuzz_files; i++) {
                if (round % 8 && rnd() % 2) continue;
                FILE *f = fopen(fuzz_files[i], "wb");
                if (!f) continue;
                random_contents(f);
                fclose(f);
            }
            nn_probe_result *r = probe_at(d);
            if (!r) continue;
            CHECK(reports_are_json(r));
            nn_probe_free(r);
            runs++;
        }
        for (int i = 0; i < n_fuzz_files; i++) free(fuzz_files[i]);
        drop_copy(d);
    }
    free(fuzz_files);
    fuzz_files = NULL;
    CHECK(runs == 200);
    user_ids(NULL, NULL);
}
