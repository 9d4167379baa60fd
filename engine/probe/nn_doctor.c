#include "nn_doctor.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_probe_host.h"
#include "nn_probe_nvidia.h"

const char *nn_doctor_severity_name(nn_doctor_severity s) {
    switch (s) {
    case NN_DOCTOR_OK: return "ok";
    case NN_DOCTOR_INFO: return "info";
    case NN_DOCTOR_WARN: return "warn";
    case NN_DOCTOR_ERROR: return "error";
    }
    return "?";
}

int nn_doctor_version_cmp(const char *a, const char *b) {
    for (int part = 0; part < 4; part++) {
        long x = 0, y = 0;
        char *ea, *eb;
        if (*a) x = strtol(a, &ea, 10), a = ea;
        if (*b) y = strtol(b, &eb, 10), b = eb;
        if (x != y) return x < y ? -1 : 1;
        if (*a == '.')
            a++;
        else
            a = "";
        if (*b == '.')
            b++;
        else
            b = "";
    }
    return 0;
}

static nn_doctor_finding *add(nn_doctor_report *rep, const char *id, nn_doctor_severity sev,
                              const char *device) {
    nn_doctor_finding *nv = realloc(rep->v, (size_t)(rep->n + 1) * sizeof *nv);
    if (!nv) return NULL;
    rep->v = nv;
    nn_doctor_finding *f = &rep->v[rep->n++];
    memset(f, 0, sizeof *f);
    nn_probe_strlcpy(f->id, id, sizeof f->id);
    f->severity = sev;
    nn_probe_strlcpy(f->device, device, sizeof f->device);
    return f;
}

__attribute__((format(printf, 2, 3))) static void summary(nn_doctor_finding *f, const char *fmt,
                                                          ...) {
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->summary, sizeof f->summary, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3))) static void fix(nn_doctor_finding *f, const char *fmt, ...) {
    if (!f) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->fix, sizeof f->fix, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3))) static void evidence_text(nn_doctor_finding *f,
                                                                const char *fmt, ...) {
    if (!f || f->n_evidence >= NN_DOCTOR_MAX_EVIDENCE) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->evidence[f->n_evidence++], sizeof f->evidence[0], fmt, ap);
    va_end(ap);
}

/* Cite the reading [key] as evidence: "key = value unit  (source)". */
static void evidence(nn_doctor_finding *f, const nn_probe_readings *r, const char *key) {
    const nn_probe_reading *x = nn_probe_find(r, key);
    if (!f || !x) return;
    char val[160];
    if (!x->available)
        snprintf(val, sizeof val, "n/a");
    else if (x->kind == NN_PROBE_INT)
        snprintf(val, sizeof val, "%" PRId64, x->i);
    else if (x->kind == NN_PROBE_NUM)
        snprintf(val, sizeof val, "%g", x->num);
    else
        snprintf(val, sizeof val, "%s", x->str);
    evidence_text(f, "%s = %s%s%s  (%s)", key, val, x->unit[0] ? " " : "", x->unit, x->source);
}

static const char *gib(int64_t bytes, char *buf, size_t size) {
    if (bytes >= (int64_t)1 << 30)
        snprintf(buf, size, "%.0f GiB", (double)bytes / (1 << 30));
    else
        snprintf(buf, size, "%.0f MiB", (double)bytes / (1 << 20));
    return buf;
}

/* ---- rules ------------------------------------------------------------------------------- */

static const char *vendor_module(unsigned vendor) {
    return vendor == 0x10de   ? "nvidia"
           : vendor == 0x1002 ? "amdgpu"
           : vendor == 0x8086 ? "i915"
                              : NULL;
}

static void check_driver(nn_doctor_report *rep, const nn_probe_result *res, const nn_probe_gpu *g) {
    const char *mod = vendor_module(g->vendor);
    if (!mod) return;
    char key[64];
    snprintf(key, sizeof key, "host.module.%s", mod);
    int64_t loaded = -1;
    nn_probe_get_int(&res->host, key, &loaded);
    if (!g->driver[0]) {
        if (loaded == 0) {
            nn_doctor_finding *f = add(rep, "driver-module-missing", NN_DOCTOR_ERROR, g->bdf);
            summary(f, "%s has no driver: the %s kernel module is not loaded", g->name, mod);
            evidence(f, &g->r, "pci.driver");
            evidence(f, &res->host, key);
            if (g->vendor == 0x10de)
                fix(f, "Install the NVIDIA driver (distribution package or the .run installer) and "
                       "run "
                       "`sudo modprobe nvidia`; if it refuses to load, check `dmesg | grep -i "
                       "nvrm` and "
                       "Secure Boot (`mokutil --sb-state`), which blocks unsigned modules.");
            else
                fix(f,
                    "Run `sudo modprobe %s`; if it fails, check `dmesg | grep -i %s`, that it is "
                    "not "
                    "blacklisted (`grep -r %s /etc/modprobe.d`), and that the GPU firmware is "
                    "installed "
                    "(linux-firmware / firmware-amd-graphics).",
                    mod, mod, mod);
        } else {
            nn_doctor_finding *f = add(rep, "driver-not-bound", NN_DOCTOR_ERROR, g->bdf);
            summary(f, "%s has no driver bound%s", g->name,
                    loaded == 1 ? " although the module is loaded: it probably failed to initialise"
                                : "");
            evidence(f, &g->r, "pci.driver");
            evidence(f, &res->host, key);
            fix(f,
                "Look for the reason in `dmesg | grep -i -e %s -e %s` (missing firmware, a GPU "
                "excluded by NVreg_ExcludedGpus, an unsupported device id, or IOMMU faults).",
                g->bdf, g->vendor == 0x10de ? "nvrm" : mod);
        }
        return;
    }
    if (!strcmp(g->driver, mod) || (g->vendor == 0x8086 && !strcmp(g->driver, "xe"))) return;
    bool vfio = !strncmp(g->driver, "vfio", 4) || !strcmp(g->driver, "pci-stub");
    nn_doctor_finding *f =
        add(rep, "driver-not-bound", vfio ? NN_DOCTOR_INFO : NN_DOCTOR_WARN, g->bdf);
    summary(f, "%s is bound to %s, not %s%s", g->name, g->driver, mod,
            vfio ? ": it is reserved for a virtual machine" : ": compute runtimes will not see it");
    evidence(f, &g->r, "pci.driver");
    evidence(f, &res->host, key);
    if (vfio)
        fix(f, "Nothing to do if the GPU is meant for a VM; otherwise remove it from the vfio-pci "
               "ids (kernel command line or /etc/modprobe.d) and reboot.");
    else
        fix(f,
            "Blacklist %s (`echo blacklist %s | sudo tee /etc/modprobe.d/blacklist-%s.conf`), "
            "rebuild the initramfs, install the %s driver and reboot.",
            g->driver, g->driver, g->driver, mod);
}

static void check_link(nn_doctor_report *rep, const nn_probe_gpu *g) {
    const nn_probe_readings *r = &g->r;
    double sp, card_sp, cap_sp;
    int64_t w, card_w, cap_w;
    const char *hop = nn_probe_get_str(r, "pci.link.narrowest_hop");
    if (!hop || !nn_probe_get_num(r, "pci.link.narrowest_speed", &sp) ||
        !nn_probe_get_int(r, "pci.link.narrowest_width", &w))
        return;
    if (!nn_probe_get_num(r, "pci.link.card_max_speed", &card_sp) ||
        !nn_probe_get_int(r, "pci.link.card_max_width", &card_w))
        return;
    if (!nn_probe_get_num(r, "pci.link.narrowest_max_speed", &cap_sp)) cap_sp = card_sp;
    if (!nn_probe_get_int(r, "pci.link.narrowest_max_width", &cap_w)) cap_w = card_w;
    double have = nn_probe_lane_gbps(sp) * (double)w;
    double card = nn_probe_lane_gbps(card_sp) * (double)card_w;
    if (have >= card * 0.999) return;

    bool width_trained_low = w < cap_w, speed_trained_low = sp < cap_sp - 0.01;
    bool slot_limits = cap_w < card_w || cap_sp < card_sp - 0.01;
    /* GPUs drop the link to Gen1 when idle (ASPM / dynamic link speed); a lower speed
     * alone, at full width, is usually that. */
    bool idle_only = speed_trained_low && !width_trained_low && !slot_limits;
    nn_doctor_finding *f =
        add(rep, "pcie-link-degraded", idle_only ? NN_DOCTOR_INFO : NN_DOCTOR_WARN, g->bdf);
    char why[200];
    if (slot_limits && !width_trained_low && !speed_trained_low)
        snprintf(why, sizeof why,
                 "the slot is the limit: the port above tops out at x%" PRId64 " %s", cap_w,
                 nn_probe_gen_name(cap_sp));
    else if (width_trained_low)
        snprintf(why, sizeof why, "the link trained narrower than both ends support (x%" PRId64 ")",
                 cap_w);
    else
        snprintf(why, sizeof why,
                 "the link runs slower than both ends support (%s); GPUs lower the "
                 "link speed when idle (ASPM), so re-check under load",
                 nn_probe_gen_name(cap_sp));
    summary(f,
            "%s: PCIe link runs at x%" PRId64 " %s (%.1f GB/s) at hop %s; the card can do x%" PRId64
            " %s (%.1f GB/s): %s",
            g->name, w, nn_probe_gen_name(sp), have, hop, card_w, nn_probe_gen_name(card_sp), card,
            why);
    evidence(f, r, "pci.link.narrowest_hop");
    evidence(f, r, "pci.link.narrowest_width");
    evidence(f, r, "pci.link.narrowest_speed");
    evidence(f, r, "pci.link.narrowest_max_width");
    evidence(f, r, "pci.link.card_max_width");
    evidence(f, r, "pci.link.card_max_speed");
    evidence(f, r, "pci.path");
    if (slot_limits && !width_trained_low && !speed_trained_low)
        fix(f,
            "Move the card to a CPU-attached x16 slot (chipset slots are often x4 and share the "
            "chipset uplink); check the board manual for slots that lose lanes when M.2 or other "
            "slots are populated.");
    else if (width_trained_low)
        fix(f, "Reseat the card, remove or replace any riser cable, check the slot's lane sharing "
               "and bifurcation settings in the firmware setup, and clean the contacts.");
    else
        fix(f,
            "Run a training job and read the link again (`cat "
            "/sys/bus/pci/devices/%s/current_link_speed`); "
            "if it stays low under load, set the slot's PCIe generation explicitly in the firmware "
            "setup and check the riser or cable.",
            g->bdf);
}

static void check_aer(nn_doctor_report *rep, const nn_probe_gpu *g) {
    static const char *const keys[] = {
        "pci.aer.fatal",           "pci.aer.nonfatal",           "pci.aer.correctable",
        "pci.root_port.aer.fatal", "pci.root_port.aer.nonfatal", "pci.root_port.aer.correctable"};
    int64_t v[6] = {0};
    bool any = false, bad = false;
    for (int i = 0; i < 6; i++) {
        if (!nn_probe_get_int(&g->r, keys[i], &v[i])) v[i] = 0;
        if (v[i] > 0) any = true, bad |= i % 3 != 2;
    }
    if (!any) return;
    nn_doctor_finding *f =
        add(rep, "pcie-aer-errors", bad ? NN_DOCTOR_ERROR : NN_DOCTOR_WARN, g->bdf);
    summary(f,
            "%s: PCIe errors recorded on the link (%" PRId64 " fatal, %" PRId64
            " non-fatal, %" PRId64 " correctable, device and root port together)",
            g->name, v[0] + v[3], v[1] + v[4], v[2] + v[5]);
    for (int i = 0; i < 6; i++)
        if (v[i] > 0) evidence(f, &g->r, keys[i]);
    fix(f,
        "Reseat the card and power connectors, remove risers or extenders, and if the counters "
        "keep rising under load lower the slot's PCIe generation in the firmware setup. "
        "Watch them with `cat /sys/bus/pci/devices/%s/aer_dev_correctable`.",
        g->bdf);
}

static void check_bar(nn_doctor_report *rep, const nn_probe_gpu *g) {
    int64_t bar, vram;
    if (!nn_probe_get_int(&g->r, "pci.bar.largest", &bar) ||
        !nn_probe_get_int(&g->r, "mem.total", &vram))
        return;
    if (bar >= vram) return;
    char b1[32], b2[32];
    nn_doctor_finding *f = add(rep, "bar-smaller-than-vram", NN_DOCTOR_WARN, g->bdf);
    summary(f, "%s: the CPU sees %s of the %s VRAM through its largest BAR (no Resizable BAR)",
            g->name, gib(bar, b1, sizeof b1), gib(vram, b2, sizeof b2));
    evidence(f, &g->r, "pci.bar.largest");
    evidence(f, &g->r, "mem.total");
    evidence(f, &g->r, "mem.visible_total");
    fix(f,
        "Enable \"Above 4G Decoding\" and \"Resizable BAR\" (Re-Size BAR Support) in the firmware "
        "setup, with CSM off (UEFI boot); older boards may need a BIOS update. Afterwards "
        "`lspci -vv -s %s` shows the larger BAR.",
        g->bdf);
}

static void check_nodes(nn_doctor_report *rep, const nn_probe_result *res, const nn_probe_gpu *g) {
    char want[4][64];
    int n = 0;
    if (g->vendor == 0x1002 && !strcmp(g->driver, "amdgpu")) {
        snprintf(want[n++], sizeof want[0], "/dev/kfd");
        const char *rn = nn_probe_get_str(&g->r, "drm.render_node");
        if (rn) snprintf(want[n++], sizeof want[0], "/dev/dri/%.40s", rn);
        if (!nn_probe_host_node(res, "/dev/kfd")) {
            nn_doctor_finding *f = add(rep, "device-node-missing", NN_DOCTOR_WARN, g->bdf);
            summary(f, "%s: amdgpu is bound but /dev/kfd does not exist, so ROCm sees no GPU",
                    g->name);
            evidence(f, &g->r, "pci.driver");
            evidence_text(f, "/dev/kfd: missing  (dev)");
            fix(f, "Check `dmesg | grep -i kfd`: KFD skips GPUs it does not support and needs the "
                   "IOMMU in passthrough or off on some boards (`iommu=pt`).");
        }
    } else if (g->vendor == 0x10de && !strcmp(g->driver, "nvidia")) {
        snprintf(want[n++], sizeof want[0], "/dev/nvidiactl");
        int64_t minor;
        if (nn_probe_get_int(&g->r, "nvidia.device_minor", &minor) && minor >= 0 && minor < 1000)
            snprintf(want[n++], sizeof want[0], "/dev/nvidia%d", (int)minor);
        snprintf(want[n++], sizeof want[0], "/dev/nvidia-uvm");
    } else {
        return;
    }
    nn_doctor_finding *f = NULL;
    char groups[128] = "";
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        const nn_probe_node *nd = nn_probe_host_node(res, want[i]);
        if (!nd || nd->can_open) continue;
        if (!f) {
            f = add(rep, "device-node-permission", NN_DOCTOR_ERROR, g->bdf);
            evidence(f, &res->host, "host.user.uid");
            evidence(f, &res->host, "host.user.groups");
        }
        evidence_text(f,
                      "%s: %c %04o uid %u group %s, not readable and writable by this user  (%s)",
                      nd->path, nd->type, nd->mode, nd->uid, nd->group, nd->source);
        if (!strstr(groups, nd->group) && off < sizeof groups)
            off += (size_t)snprintf(groups + off, sizeof groups - off, "%s%s", off ? "," : "",
                                    nd->group);
    }
    if (!f) return;
    summary(f, "%s: this user cannot open the GPU's device nodes (not in group %s)", g->name,
            groups);
    fix(f,
        "Add the user to the group(s): `sudo usermod -aG %s $USER`, then log out and back in "
        "(or run `newgrp %s` in this shell). Containers need the nodes passed in with the same "
        "groups.",
        groups[0] ? groups : "render,video", groups[0] ? groups : "render");
}

static bool server_chassis(const nn_probe_result *res) {
    int64_t t;
    /* SMBIOS chassis types: 17 main server, 23 rack mount, 25 multi-system, 28 blade. */
    return nn_probe_get_int(&res->host, "host.chassis_type", &t) &&
           (t == 17 || t == 23 || t == 25 || t == 28 || t == 29);
}

static void check_cooling(nn_doctor_report *rep, const nn_probe_result *res,
                          const nn_probe_gpu *g) {
    int64_t fan;
    if (!nn_probe_get_int(&g->r, "fan.present", &fan) || fan != 0) return;
    bool server = server_chassis(res);
    nn_doctor_finding *f =
        add(rep, "passive-cooling", server ? NN_DOCTOR_INFO : NN_DOCTOR_WARN, g->bdf);
    summary(f, "%s has no fan: it depends on chassis airflow%s", g->name,
            server ? " (server chassis: make sure its fans are set for a passive GPU)"
                   : ", which a desktop case does not give it");
    evidence(f, &g->r, "fan.present");
    evidence(f, &res->host, "host.chassis_type");
    evidence(f, &g->r, "temp.junction");
    fix(f, "Fit a blower or a ducted fan that pushes air through the card's fins front to back, "
           "and watch the junction temperature under load; passive Instinct/datacentre cards "
           "throttle or shut down within minutes without it.");
}

static void check_temps(nn_doctor_report *rep, const nn_probe_gpu *g) {
    for (int i = 0; i < g->r.n; i++) {
        const nn_probe_reading *x = &g->r.v[i];
        if (strncmp(x->key, "temp.", 5) || strchr(x->key + 5, '.') || !x->available) continue;
        char key[96];
        double limit, t = x->num;
        snprintf(key, sizeof key, "%s.slowdown", x->key);
        if (!nn_probe_get_num(&g->r, key, &limit)) {
            snprintf(key, sizeof key, "%s.crit", x->key);
            if (!nn_probe_get_num(&g->r, key, &limit)) continue;
        }
        if (limit <= 0 || t < limit - 10) continue;
        nn_doctor_finding *f = add(rep, "temperature-near-critical",
                                   t >= limit ? NN_DOCTOR_ERROR : NN_DOCTOR_WARN, g->bdf);
        summary(f, "%s: %s is %.0f C, %s its limit of %.0f C", g->name, x->key + 5, t,
                t >= limit ? "at or above" : "within 10 C of", limit);
        evidence(f, &g->r, x->key);
        evidence(f, &g->r, key);
        fix(f,
            "Improve airflow (case fans, a blower for passive cards, dust), check the fan curve, "
            "or lower the power cap until the temperature settles.");
    }
}

static void check_power(nn_doctor_report *rep, const nn_probe_gpu *g) {
    double cap, def, avg;
    if (!nn_probe_get_num(&g->r, "power.cap", &cap) || cap <= 0) return;
    bool lowered = nn_probe_get_num(&g->r, "power.cap_default", &def) && cap < def * 0.9;
    bool at_cap = nn_probe_get_num(&g->r, "power.average", &avg) && avg >= cap * 0.95;
    if (!lowered && !at_cap) return;
    nn_doctor_finding *f =
        add(rep, "power-capped", lowered ? NN_DOCTOR_WARN : NN_DOCTOR_INFO, g->bdf);
    if (lowered)
        summary(f, "%s: power limit is %.0f W, below the default %.0f W; clocks will be held back",
                g->name, cap, def);
    else
        summary(f, "%s: drawing %.0f W against a %.0f W cap: clocks are limited by power", g->name,
                avg, cap);
    evidence(f, &g->r, "power.average");
    evidence(f, &g->r, "power.cap");
    evidence(f, &g->r, "power.cap_default");
    fix(f, "%s",
        g->vendor == 0x10de
            ? "If unintended, restore it with `sudo nvidia-smi -pl <default watts>`; otherwise "
              "this is a deliberate trade of speed for heat and noise."
            : "If unintended, write the default back to hwmon power1_cap (microwatts) or use "
              "`rocm-smi --resetpoweroverdrive`; check the PSU can supply the card.");
}

static void check_ras(nn_doctor_report *rep, const nn_probe_gpu *g) {
    int64_t ue = 0, ce = 0, pages = 0;
    nn_probe_get_int(&g->r, "ras.ue_total", &ue);
    nn_probe_get_int(&g->r, "ras.ce_total", &ce);
    nn_probe_get_int(&g->r, "ras.bad_pages", &pages);
    if (ue > 0 || ce > 0 || pages > 0) {
        nn_doctor_finding *f =
            add(rep, "ras-errors", ue > 0 ? NN_DOCTOR_ERROR : NN_DOCTOR_WARN, g->bdf);
        summary(f,
                "%s: %" PRId64 " uncorrectable and %" PRId64
                " correctable memory/RAS errors, %" PRId64 " retired VRAM pages",
                g->name, ue, ce, pages);
        evidence(f, &g->r, "ras.ue_total");
        evidence(f, &g->r, "ras.ce_total");
        evidence(f, &g->r, "ras.bad_pages");
        fix(f, "Uncorrectable errors corrupt results: rerun the job and compare, and if they recur "
               "the card is failing (RMA or retire it). A few correctable errors and retired pages "
               "are tolerable; watch whether they grow.");
    }
    int64_t eu = 0, ec = 0;
    nn_probe_get_int(&g->r, "ecc.uncorrected", &eu);
    nn_probe_get_int(&g->r, "ecc.corrected", &ec);
    if (eu > 0 || ec > 0) {
        nn_doctor_finding *f =
            add(rep, "ecc-errors", eu > 0 ? NN_DOCTOR_ERROR : NN_DOCTOR_WARN, g->bdf);
        summary(f, "%s: %" PRId64 " uncorrected and %" PRId64 " corrected ECC errors (lifetime)",
                g->name, eu, ec);
        evidence(f, &g->r, "ecc.uncorrected");
        evidence(f, &g->r, "ecc.corrected");
        fix(f,
            "Check `nvidia-smi -q -d ECC,PAGE_RETIREMENT,ROW_REMAPPER`; pending row remaps need a "
            "GPU reset. Recurring uncorrected errors mean the card should be replaced.");
    }
}

static void check_rocm_target(nn_doctor_report *rep, const nn_probe_result *res,
                              const nn_probe_gpu *g) {
    const char *gfx = nn_probe_get_str(&g->r, "amdgpu.gfx_target");
    const char *ver = nn_probe_get_str(&res->host, "rocm.version");
    if (!gfx || !ver) return;
    /* Targets AMD has dropped from ROCm's support list, and from which release on. */
    static const struct {
        const char *gfx, *since, *cards;
    } dropped[] = {{"gfx906", "6.4", "MI50/MI60/Radeon VII"},
                   {"gfx900", "5.0", "MI25/Vega 56/64"},
                   {"gfx803", "4.0", "Polaris/Fiji"}};
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++) {
        if (strcmp(gfx, dropped[i].gfx) || nn_doctor_version_cmp(ver, dropped[i].since) < 0)
            continue;
        nn_doctor_finding *f = add(rep, "rocm-target-deprecated", NN_DOCTOR_WARN, g->bdf);
        summary(f,
                "%s is %s (%s), which ROCm %s no longer supports: prebuilt libraries and "
                "framework wheels may have no kernels for it",
                g->name, gfx, dropped[i].cards, ver);
        evidence(f, &g->r, "amdgpu.gfx_target");
        evidence(f, &res->host, "rocm.version");
        fix(f,
            "Check the framework lists %s (e.g. `torch.cuda.get_arch_list()` on ROCm builds). "
            "If not, use the last ROCm release that supports it, or build the libraries with "
            "AMDGPU_TARGETS=%s.",
            gfx, gfx);
    }
}

static void check_atomics(nn_doctor_report *rep, const nn_probe_gpu *g) {
    int64_t en;
    if (strcmp(g->driver, "amdgpu") ||
        !nn_probe_get_int(&g->r, "pci.atomics.requester_enabled", &en) || en)
        return;
    nn_doctor_finding *f = add(rep, "pcie-atomics-unavailable", NN_DOCTOR_WARN, g->bdf);
    summary(f,
            "%s: PCIe atomics are not enabled on the path to the CPU; ROCm features that need "
            "them (host-device atomics, and everything on gfx8) fail",
            g->name);
    evidence(f, &g->r, "pci.atomics.requester_enabled");
    evidence(f, &g->r, "pci.root_port.atomics.completer64");
    evidence(f, &g->r, "pci.path");
    fix(f,
        "Move the card to a CPU-attached slot: chipset slots and some PCIe switches do not route "
        "atomics. `dmesg | grep -i atomic` confirms what amdgpu found.");
}

static void check_nvidia_versions(nn_doctor_report *rep, const nn_probe_result *res) {
    const char *k = nn_probe_get_str(&res->host, "nvidia.driver.kernel_version");
    const char *l = nn_probe_get_str(&res->host, "nvidia.driver.lib_version");
    int64_t init_err = 0;
    bool rm_mismatch = nn_probe_get_int(&res->host, "nvml.init_error", &init_err) &&
                       init_err == NN_NVML_RM_VERSION_MISMATCH;
    if (!(k && l && strcmp(k, l)) && !rm_mismatch) return;
    nn_doctor_finding *f = add(rep, "nvidia-driver-mismatch", NN_DOCTOR_ERROR, "host");
    if (k && l && strcmp(k, l))
        summary(f,
                "The NVIDIA kernel module is %s but the user-space driver is %s: CUDA and NVML "
                "will fail to initialise",
                k, l);
    else
        summary(f, "NVML reports a driver/library version mismatch: CUDA will fail to initialise");
    evidence(f, &res->host, "nvidia.driver.kernel_version");
    evidence(f, &res->host, "nvidia.driver.lib_version");
    evidence(f, &res->host, "nvml.init_error");
    fix(f, "This happens after a driver upgrade without a reboot: reboot (or unload and reload the "
           "nvidia modules). If it persists, remove the stale driver packages so only one version "
           "is installed.");
}

static int by_severity(const void *a, const void *b) {
    const nn_doctor_finding *x = a, *y = b;
    if (x->severity != y->severity) return x->severity > y->severity ? -1 : 1;
    int c = strcmp(x->device, y->device);
    return c ? c : strcmp(x->id, y->id);
}

nn_doctor_report *nn_doctor_run(const nn_probe_result *res) {
    nn_doctor_report *rep = calloc(1, sizeof *rep);
    if (!rep) return NULL;
    int compute = 0;
    for (int i = 0; i < res->n_gpus; i++) {
        const nn_probe_gpu *g = &res->gpus[i];
        if (g->vendor != 0x10de && g->vendor != 0x1002) continue;
        compute++;
        int before = rep->n;
        check_driver(rep, res, g);
        check_link(rep, g);
        check_aer(rep, g);
        check_bar(rep, g);
        check_nodes(rep, res, g);
        check_cooling(rep, res, g);
        check_temps(rep, g);
        check_power(rep, g);
        check_ras(rep, g);
        check_rocm_target(rep, res, g);
        check_atomics(rep, g);
        bool worried = false;
        for (int k = before; k < rep->n; k++) worried |= rep->v[k].severity >= NN_DOCTOR_WARN;
        if (!worried) {
            nn_doctor_finding *f = add(rep, "gpu-ok", NN_DOCTOR_OK, g->bdf);
            int64_t w = 0;
            double sp = 0;
            nn_probe_get_int(&g->r, "pci.link.narrowest_width", &w);
            nn_probe_get_num(&g->r, "pci.link.narrowest_speed", &sp);
            summary(f, "%s: no problems found (driver %s, link x%" PRId64 " %s)", g->name,
                    g->driver[0] ? g->driver : "none", w, nn_probe_gen_name(sp));
            evidence(f, &g->r, "pci.driver");
            evidence(f, &g->r, "pci.link.narrowest_hop");
        }
    }
    check_nvidia_versions(rep, res);
    if (compute == 0) {
        nn_doctor_finding *f = add(rep, "no-gpu", NN_DOCTOR_INFO, "host");
        bool intel = false;
        for (int i = 0; i < res->n_gpus; i++) intel |= res->gpus[i].vendor == 0x8086;
        summary(f,
                "No NVIDIA or AMD GPU found%s: nndb will train on the CPU, which is fine for "
                "small models",
                intel ? " (an Intel GPU is present; nndb does not use it)" : "");
        evidence(f, &res->host, "host.pci_devices");
        for (int i = 0; i < res->n_other_display && f; i++)
            evidence_text(f, "display-only adapter: %s  (sys/bus/pci/devices)",
                          res->other_display[i]);
        fix(f, "Nothing to do. If this machine should have a GPU, check it is seated and powered "
               "and that `lspci | grep -i -e vga -e 3d -e accel` lists it.");
    }
    if (rep->n > 1) qsort(rep->v, (size_t)rep->n, sizeof rep->v[0], by_severity);
    return rep;
}

void nn_doctor_free(nn_doctor_report *rep) {
    if (!rep) return;
    free(rep->v);
    free(rep);
}

nn_doctor_severity nn_doctor_worst(const nn_doctor_report *rep) {
    nn_doctor_severity w = NN_DOCTOR_OK;
    for (int i = 0; rep && i < rep->n; i++)
        if (rep->v[i].severity > w) w = rep->v[i].severity;
    return w;
}

const nn_doctor_finding *nn_doctor_find(const nn_doctor_report *rep, const char *id,
                                        const char *device) {
    for (int i = 0; rep && i < rep->n; i++)
        if (!strcmp(rep->v[i].id, id) && (!device || !strcmp(rep->v[i].device, device)))
            return &rep->v[i];
    return NULL;
}
