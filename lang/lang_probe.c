/* lang_probe: gpus(), doctor() and the %probe / %doctor reports (see
 * lang_probe.h). Owned by the probe engineer; docs/probes.md, section "In
 * the language", is the user's description.
 *
 * The engine's probe result is read once per call and copied into language
 * values (records, lists, dicts, str) or into report text, then freed: a
 * record never points into engine memory.
 */
#include "lang_probe.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lang_builtins.h"
#include "lang_eval.h" /* vm->sandbox */
#include "probe/nn_doctor.h"
#include "probe/nn_probe.h"
#include "probe/nn_probe_report.h"

/* ---------------------------------------------------------------- running */

/* The tree to read: [root] when given, else NNDB_SYSROOT when set, else
 * NULL for the real machine. A named tree must be a directory: a typo in a
 * root would otherwise read as a machine with nothing in it. */
static bool resolve_root(lang_vm *vm, const char *who, const char *root, const char **out) {
    *out = NULL;
    if (!root) {
        const char *env = getenv("NNDB_SYSROOT");
        if (!env || !env[0]) return true;
        root = env;
    }
    if (strlen(root) >= NN_PROBE_PATH_MAX - 128)
        return lang_raise(vm, LANG_ERR_VALUE, "%s: the root path is too long", who);
    struct stat st;
    if (stat(root, &st) != 0)
        return lang_raise(vm, LANG_ERR_IO, "%s: cannot read the machine tree '%s': %s", who, root,
                          strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return lang_raise(vm, LANG_ERR_IO, "%s: the machine tree '%s' is not a directory", who,
                          root);
    *out = root;
    return true;
}

/* Probe the machine (or the tree at [root]); NULL with an error raised. */
static nn_probe_result *run_probe(lang_vm *vm, const char *who, const char *root, bool bandwidth) {
    /* The fuzzing sandbox must not dlopen vendor libraries or time copies. */
    if (vm->sandbox) {
        lang_raise(vm, LANG_ERR_RUNTIME, "%s is off in this sandbox", who);
        return NULL;
    }
    const char *tree;
    if (!resolve_root(vm, who, root, &tree)) return NULL;
    nn_probe_options o = nn_probe_default_options();
    o.root = tree;
    o.measure_bandwidth = bandwidth && o.use_libraries;
    nn_error e;
    nn_error_clear(&e);
    nn_probe_result *res = nn_probe_run(&o, &e);
    if (!res) lang_raise(vm, LANG_ERR_MEMORY, "%s: %s", who, e.msg[0] ? e.msg : "out of memory");
    return res;
}

/* The optional root= argument of gpus() and doctor(): NULL when absent. */
static bool root_arg(lang_vm *vm, const lang_args *a, const char *fname, const char **root) {
    lang_val r = lang_none();
    *root = NULL;
    if (!lang_parse_args(vm, a, fname, "|root", &r)) return false;
    if (r.kind == LANG_NONE) return true;
    if (!lang_is_obj(r, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s(): root must be a str (a directory), not %s",
                          fname, lang_type_name(r));
    *root = lang_str_cstr(r);
    return true;
}

/* ------------------------------------------------------- values from readings */

/* Store [v] in [rec] and drop the caller's reference to it. */
static bool set_owned(lang_vm *vm, lang_val rec, const char *field, lang_val v) {
    bool ok = lang_record_set(vm, rec, field, v);
    lang_val_release(v);
    return ok;
}

static bool str_or_none(lang_vm *vm, const char *s, lang_val *out) {
    if (!s) {
        *out = lang_none();
        return true;
    }
    return lang_str_new(vm, s, strlen(s), out);
}

static bool set_str(lang_vm *vm, lang_val rec, const char *field, const char *s) {
    lang_val v;
    if (!str_or_none(vm, s, &v)) return false;
    return set_owned(vm, rec, field, v);
}

/* A reading as a value: int, float or str, and None when the source had
 * nothing (never 0). */
static bool reading_value(lang_vm *vm, const nn_probe_reading *x, lang_val *out) {
    *out = lang_none();
    if (!x || !x->available) return true;
    switch (x->kind) {
    case NN_PROBE_INT: *out = lang_int(x->i); return true;
    case NN_PROBE_NUM: *out = lang_float(x->num); return true;
    case NN_PROBE_STR: return str_or_none(vm, x->str ? x->str : "", out);
    }
    return true;
}

/* The first available reading among [keys] (NULL-terminated), or NULL. */
static const nn_probe_reading *first_of(const nn_probe_readings *r, const char *const *keys) {
    for (; *keys; keys++) {
        const nn_probe_reading *x = nn_probe_find(r, *keys);
        if (x && x->available) return x;
    }
    return NULL;
}

static bool set_first(lang_vm *vm, lang_val rec, const char *field, const nn_probe_readings *r,
                      const char *const *keys) {
    lang_val v;
    if (!reading_value(vm, first_of(r, keys), &v)) return false;
    return set_owned(vm, rec, field, v);
}

static bool set_key(lang_vm *vm, lang_val rec, const char *field, const nn_probe_readings *r,
                    const char *key) {
    const char *keys[] = {key, NULL};
    return set_first(vm, rec, field, r, keys);
}

/* "x4 Gen3" from a width and a speed reading; false when either is n/a. */
static bool link_text(const nn_probe_readings *r, const char *wkey, const char *skey, char *buf,
                      size_t size) {
    int64_t w;
    double s;
    if (!nn_probe_get_int(r, wkey, &w) || !nn_probe_get_num(r, skey, &s) || w <= 0 || s <= 0)
        return false;
    const char *gen = nn_probe_gen_name(s);
    if (strcmp(gen, "?") != 0)
        snprintf(buf, size, "x%" PRId64 " %s", w, gen);
    else
        snprintf(buf, size, "x%" PRId64 " %g GT/s", w, s);
    return true;
}

/* [pairs]: width key, speed key, ... NULL; the first pair that reads wins. */
static bool set_link(lang_vm *vm, lang_val rec, const char *field, const nn_probe_readings *r,
                     const char *const *pairs) {
    char buf[64];
    for (; pairs[0] && pairs[1]; pairs += 2)
        if (link_text(r, pairs[0], pairs[1], buf, sizeof buf)) return set_str(vm, rec, field, buf);
    return set_owned(vm, rec, field, lang_none());
}

static const char *vendor_name(unsigned vendor) {
    switch (vendor) {
    case 0x10de: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x8086: return "Intel";
    default: return NULL;
    }
}

/* The readings as three dicts: key -> value, key -> source, key -> unit.
 * A key read twice keeps its last reading, as nn_probe_find does. */
static bool readings_dicts(lang_vm *vm, const nn_probe_readings *r, lang_val rec) {
    lang_val d[3] = {lang_none(), lang_none(), lang_none()};
    bool ok = true;
    for (int k = 0; ok && k < 3; k++) ok = lang_dict_new(vm, &d[k]);
    for (int i = 0; ok && i < r->n; i++) {
        const nn_probe_reading *x = &r->v[i];
        lang_val key, val[3];
        if (!lang_str_new(vm, x->key, strlen(x->key), &key)) {
            ok = false;
            break;
        }
        val[1] = val[2] = lang_none();
        ok = reading_value(vm, x, &val[0]) && str_or_none(vm, x->source, &val[1]) &&
             str_or_none(vm, x->unit ? x->unit : "", &val[2]);
        for (int k = 0; ok && k < 3; k++) ok = lang_dict_set(vm, d[k], key, val[k]);
        lang_val_release(key);
        for (int k = 0; k < 3; k++) lang_val_release(val[k]);
    }
    static const char *const names[3] = {"readings", "sources", "units"};
    for (int k = 0; k < 3; k++) {
        if (ok) ok = lang_record_set(vm, rec, names[k], d[k]);
        lang_val_release(d[k]);
    }
    return ok;
}

static bool gpu_fields(lang_vm *vm, const nn_probe_result *res, const nn_probe_gpu *g,
                       lang_val rec) {
    const nn_probe_readings *r = &g->r;
    bool nvidia = g->vendor == 0x10de, amd = g->vendor == 0x1002;
    char vend[16];
    const char *vn = vendor_name(g->vendor);
    if (!vn) {
        snprintf(vend, sizeof vend, "0x%04x", g->vendor);
        vn = vend;
    }
    static const char *const vram_total[] = {"mem.total", "rsmi.mem.total", NULL};
    static const char *const temperature[] = {"temp.gpu", "temp.edge", "rsmi.temp.edge",
                                              "temp.junction", NULL};
    static const char *const power[] = {"power.average", "rsmi.power.average", NULL};
    static const char *const link[] = {"pci.link.narrowest_width", "pci.link.narrowest_speed",
                                       "pci.link.cur_width", "pci.link.cur_speed", NULL};
    static const char *const link_max[] = {"pci.link.card_max_width", "pci.link.card_max_speed",
                                           "pci.link.max_width", "pci.link.max_speed", NULL};
    static const char *const nv_driver[] = {"nvidia.driver.kernel_version", "nvml.driver_version",
                                            NULL};
    static const char *const vbios[] = {"amdgpu.vbios", "nvidia.vbios", NULL};
    if (!set_str(vm, rec, "name", g->name) || !set_str(vm, rec, "vendor", vn) ||
        !set_str(vm, rec, "pci", g->bdf) ||
        !set_str(vm, rec, "driver", g->driver[0] ? g->driver : NULL) ||
        !set_first(vm, rec, "vram_total", r, vram_total) ||
        !set_key(vm, rec, "vram_used", r, "mem.used") || !set_link(vm, rec, "link", r, link) ||
        !set_link(vm, rec, "link_max", r, link_max) ||
        !set_key(vm, rec, "narrowest_hop", r, "pci.link.narrowest_hop") ||
        !set_key(vm, rec, "link_gbps", r, "pci.link.narrowest_gbps") ||
        !set_first(vm, rec, "temperature", r, temperature) ||
        !set_first(vm, rec, "power", r, power) || !set_key(vm, rec, "power_cap", r, "power.cap"))
        return false;
    /* fan: whether the card has one (None when nothing says); its speed
     * is fan_rpm (amdgpu hwmon) or fan_percent (NVML). */
    int64_t fan;
    lang_val fv = nn_probe_get_int(r, "fan.present", &fan) ? lang_bool(fan != 0) : lang_none();
    if (!set_owned(vm, rec, "fan", fv) || !set_key(vm, rec, "fan_rpm", r, "fan.rpm") ||
        !set_key(vm, rec, "fan_percent", r, "fan.percent"))
        return false;
    /* The kernel writes -1 for "no NUMA affinity": that is None, not a node. */
    int64_t numa;
    lang_val nv =
        nn_probe_get_int(r, "pci.numa_node", &numa) && numa >= 0 ? lang_int(numa) : lang_none();
    if (!set_owned(vm, rec, "numa_node", nv) ||
        !set_key(vm, rec, "iommu_group", r, "pci.iommu_group") ||
        !set_key(vm, rec, "gfx_target", r, "amdgpu.gfx_target"))
        return false;
    /* Driver and stack versions are machine-wide readings; each GPU shows
     * the ones of its own vendor. */
    lang_val dv = lang_none(), rv = lang_none();
    if (nvidia && !reading_value(vm, first_of(&res->host, nv_driver), &dv)) return false;
    if (!set_owned(vm, rec, "driver_version", dv)) return false;
    if (amd && !reading_value(vm, nn_probe_find(&res->host, "rocm.version"), &rv)) return false;
    if (!set_owned(vm, rec, "rocm_version", rv)) return false;
    return set_first(vm, rec, "vbios", r, vbios) && set_key(vm, rec, "uuid", r, "nvidia.uuid") &&
           set_key(vm, rec, "render_node", r, "drm.render_node") &&
           set_key(vm, rec, "bar_size", r, "pci.bar.largest") && readings_dicts(vm, r, rec);
}

static bool f_gpus(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *root;
    if (!root_arg(vm, a, "gpus", &root)) return false;
    nn_probe_result *res = run_probe(vm, "gpus()", root, false);
    if (!res) return false;
    lang_val list;
    bool ok = lang_list_new(vm, 0, &list);
    for (int i = 0; ok && i < res->n_gpus; i++) {
        lang_val rec;
        ok = lang_record_new(vm, "GPU", &rec);
        if (!ok) break;
        ok = gpu_fields(vm, res, &res->gpus[i], rec) && lang_list_append(vm, list, rec);
        lang_val_release(rec);
    }
    nn_probe_free(res);
    if (!ok) {
        lang_val_release(list);
        return false;
    }
    *out = list;
    return true;
}

static bool finding_record(lang_vm *vm, const nn_doctor_finding *f, lang_val *out) {
    lang_val rec, ev;
    if (!lang_record_new(vm, "Finding", &rec)) return false;
    bool ok = set_str(vm, rec, "id", f->id) &&
              set_str(vm, rec, "severity", nn_doctor_severity_name(f->severity)) &&
              set_str(vm, rec, "device", f->device) && set_str(vm, rec, "summary", f->summary);
    if (ok) ok = lang_list_new(vm, 0, &ev);
    if (ok) {
        for (int i = 0; ok && i < f->n_evidence; i++) {
            lang_val s;
            ok = lang_str_new(vm, f->evidence[i], strlen(f->evidence[i]), &s);
            if (ok) {
                ok = lang_list_append(vm, ev, s);
                lang_val_release(s);
            }
        }
        ok = set_owned(vm, rec, "evidence", ev) && ok;
    }
    ok = ok && set_str(vm, rec, "fix", f->fix);
    if (!ok) {
        lang_val_release(rec);
        return false;
    }
    *out = rec;
    return true;
}

static bool f_doctor(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *root;
    if (!root_arg(vm, a, "doctor", &root)) return false;
    nn_probe_result *res = run_probe(vm, "doctor()", root, false);
    if (!res) return false;
    nn_doctor_report *rep = nn_doctor_run(res);
    if (!rep) {
        nn_probe_free(res);
        return lang_raise(vm, LANG_ERR_MEMORY, "doctor(): out of memory");
    }
    lang_val list;
    bool ok = lang_list_new(vm, 0, &list);
    for (int i = 0; ok && i < rep->n; i++) {
        lang_val rec;
        ok = finding_record(vm, &rep->v[i], &rec);
        if (!ok) break;
        ok = lang_list_append(vm, list, rec);
        lang_val_release(rec);
    }
    nn_doctor_free(rep);
    nn_probe_free(res);
    if (!ok) {
        lang_val_release(list);
        return false;
    }
    *out = list;
    return true;
}

/* ------------------------------------------------------------------ reports */

enum report_kind { PROBE_TEXT, PROBE_JSON, DOCTOR_TEXT, DOCTOR_JSON };

/* One of the engine's reports as malloc'ed text (no colour), NULL when out
 * of memory. The writers take a FILE, so a memory stream catches them. */
static char *report_text(enum report_kind k, const nn_probe_result *res,
                         const nn_doctor_report *rep) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    switch (k) {
    case PROBE_TEXT: nn_probe_report_text(f, res, false); break;
    case PROBE_JSON: nn_probe_report_json(f, res); break;
    case DOCTOR_TEXT: nn_doctor_report_text(f, res, rep, false); break;
    case DOCTOR_JSON: nn_doctor_report_json(f, rep); break;
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* HTML text: markup characters escaped, control bytes from odd files shown
 * as '?' as the text report does. */
static void html_text(lang_buf *b, const char *s) {
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '<': lang_buf_puts(b, "&lt;"); break;
        case '>': lang_buf_puts(b, "&gt;"); break;
        case '&': lang_buf_puts(b, "&amp;"); break;
        case '"': lang_buf_puts(b, "&quot;"); break;
        case '\'': lang_buf_puts(b, "&#39;"); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                lang_buf_puts(b, "?");
            else
                lang_buf_add(b, (const char *)p, 1);
        }
    }
}

/* A reading's value as the text report shows it: units, bytes also in
 * MiB/GiB, "n/a (why)". */
static void value_text(const nn_probe_reading *x, char *buf, size_t size) {
    if (!x->available)
        snprintf(buf, size, "n/a%s%s%s", x->note ? " (" : "", x->note ? x->note : "",
                 x->note ? ")" : "");
    else if (x->kind == NN_PROBE_INT && !strcmp(x->unit, "bytes") && x->i >= (int64_t)1 << 30)
        snprintf(buf, size, "%" PRId64 " bytes (%.1f GiB)", x->i, (double)x->i / (1 << 30));
    else if (x->kind == NN_PROBE_INT && !strcmp(x->unit, "bytes") && x->i >= (int64_t)1 << 20)
        snprintf(buf, size, "%" PRId64 " bytes (%.0f MiB)", x->i, (double)x->i / (1 << 20));
    else if (x->kind == NN_PROBE_INT)
        snprintf(buf, size, "%" PRId64 "%s%s", x->i, x->unit[0] ? " " : "", x->unit);
    else if (x->kind == NN_PROBE_NUM)
        snprintf(buf, size, "%.4g%s%s", x->num, x->unit[0] ? " " : "", x->unit);
    else
        snprintf(buf, size, "%s", x->str ? x->str : "");
}

#define TABLE "<table style=\"border-collapse:collapse;font-size:90%;margin:0.3em 0\">"
#define TH    "<th style=\"text-align:left;padding:1px 10px 1px 0;border-bottom:1px solid #999\">"
#define TD    "<td style=\"text-align:left;padding:1px 10px 1px 0;vertical-align:top\">"
#define MUTED "color:#777"

static void html_readings(lang_buf *b, const nn_probe_readings *r) {
    lang_buf_puts(b, TABLE "<thead><tr>" TH "reading</th>" TH "value</th>" TH
                           "source</th></tr></thead><tbody>\n");
    char val[1024];
    for (int i = 0; i < r->n; i++) {
        const nn_probe_reading *x = &r->v[i];
        value_text(x, val, sizeof val);
        lang_buf_puts(b, x->available ? "<tr>" : "<tr style=\"" MUTED "\">");
        lang_buf_puts(b, TD "<code>");
        html_text(b, x->key);
        lang_buf_puts(b, "</code></td>" TD);
        html_text(b, val);
        lang_buf_puts(b, "</td>" TD "<code style=\"" MUTED "\">");
        html_text(b, x->source);
        lang_buf_puts(b, "</code></td></tr>\n");
    }
    lang_buf_puts(b, "</tbody></table>\n");
}

static void html_hop_link(lang_buf *b, int width, double speed) {
    if (width <= 0 || speed <= 0) {
        lang_buf_puts(b, "?");
        return;
    }
    lang_buf_printf(b, "x%d %.1f GT/s (%s)", width, speed, nn_probe_gen_name(speed));
}

static void html_gpu(lang_buf *b, const nn_probe_gpu *g) {
    lang_buf_puts(b, "<h4 style=\"margin:0.9em 0 0.2em\">GPU <code>");
    html_text(b, g->bdf);
    lang_buf_puts(b, "</code> &mdash; ");
    html_text(b, g->name);
    lang_buf_puts(b, "</h4>\n");
    if (g->n_path > 0) {
        lang_buf_puts(b, "<div>PCIe path (GPU first, root port last)</div>\n" TABLE "<thead><tr>" TH
                         "port</th>" TH "link now</th>" TH "link max</th></tr></thead><tbody>\n");
        for (int i = 0; i < g->n_path; i++) {
            const nn_probe_hop *h = &g->path[i];
            lang_buf_puts(b, "<tr>" TD "<code>");
            html_text(b, h->bdf);
            lang_buf_puts(b, "</code></td>" TD);
            html_hop_link(b, h->cur_width, h->cur_speed);
            lang_buf_puts(b, "</td>" TD);
            html_hop_link(b, h->max_width, h->max_speed);
            lang_buf_puts(b, "</td></tr>\n");
        }
        lang_buf_puts(b, "</tbody></table>\n");
    }
    html_readings(b, &g->r);
}

/* The first line of a text report, the heading both forms share. */
static void html_heading(lang_buf *b, const char *text) {
    const char *nl = strchr(text, '\n');
    size_t n = nl ? (size_t)(nl - text) : strlen(text);
    char *line = strndup(text, n);
    lang_buf_puts(b, "<p style=\"margin:0.2em 0\"><b>");
    html_text(b, line ? line : "");
    lang_buf_puts(b, "</b></p>\n");
    free(line);
}

static char *probe_html(const nn_probe_result *res, const char *text) {
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_puts(&b, "<div class=\"nndb-probe\">\n");
    html_heading(&b, text);
    lang_buf_printf(&b, "<details><summary>Host: %d readings, %d device nodes</summary>\n",
                    res->host.n, res->n_nodes);
    html_readings(&b, &res->host);
    if (res->n_nodes > 0) {
        lang_buf_puts(&b, TABLE "<thead><tr>" TH "device node</th>" TH "type</th>" TH "mode</th>" TH
                                "owner</th>" TH "group</th>" TH "can open</th>" TH
                                "source</th></tr></thead><tbody>\n");
        for (int i = 0; i < res->n_nodes; i++) {
            const nn_probe_node *nd = &res->nodes[i];
            lang_buf_puts(&b, "<tr>" TD "<code>");
            html_text(&b, nd->path);
            lang_buf_printf(&b, "</code></td>" TD "%c</td>" TD "%04o</td>" TD "uid %u</td>" TD,
                            nd->type, nd->mode & 07777, nd->uid);
            html_text(&b, nd->group);
            lang_buf_printf(&b, "</td>" TD "%s</td>" TD "<code style=\"" MUTED "\">",
                            nd->can_open ? "yes" : "<b style=\"color:#c62828\">no</b>");
            html_text(&b, nd->source);
            lang_buf_puts(&b, "</code></td></tr>\n");
        }
        lang_buf_puts(&b, "</tbody></table>\n");
    }
    lang_buf_puts(&b, "</details>\n");
    for (int i = 0; i < res->n_other_display; i++) {
        lang_buf_puts(&b, "<div style=\"" MUTED "\">Display-only adapter: ");
        html_text(&b, res->other_display[i]);
        lang_buf_puts(&b, "</div>\n");
    }
    if (res->n_gpus == 0)
        lang_buf_puts(&b, "<p>No NVIDIA, AMD or Intel GPU found: nndb trains on the CPU.</p>\n");
    for (int i = 0; i < res->n_gpus; i++) html_gpu(&b, &res->gpus[i]);
    lang_buf_puts(&b, "</div>\n");
    return lang_buf_take(&b);
}

static const char *severity_colour(nn_doctor_severity s) {
    switch (s) {
    case NN_DOCTOR_ERROR: return "#c62828";
    case NN_DOCTOR_WARN: return "#e65100";
    case NN_DOCTOR_INFO: return "#1565c0";
    case NN_DOCTOR_OK: return "#2e7d32";
    }
    return "#777";
}

static char *doctor_html(const nn_doctor_report *rep, const char *text) {
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_puts(&b, "<div class=\"nndb-doctor\">\n");
    html_heading(&b, text);
    if (rep->n == 0) lang_buf_puts(&b, "<p>No findings.</p>\n");
    if (rep->n > 0)
        lang_buf_puts(&b,
                      TABLE "<thead><tr>" TH "severity</th>" TH "finding</th>" TH "device</th>" TH
                            "summary, evidence and fix</th></tr></thead><tbody>\n");
    for (int i = 0; i < rep->n; i++) {
        const nn_doctor_finding *f = &rep->v[i];
        const char *name = nn_doctor_severity_name(f->severity);
        lang_buf_printf(&b,
                        "<tr style=\"border-top:1px solid #ddd\">" TD
                        "<span style=\"background:%s;color:#fff;padding:0 6px;border-radius:3px;"
                        "font-weight:bold\">",
                        severity_colour(f->severity));
        for (const char *p = name; *p; p++)
            lang_buf_printf(&b, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
        lang_buf_puts(&b, "</span></td>" TD "<code>");
        html_text(&b, f->id);
        lang_buf_puts(&b, "</code></td>" TD "<code>");
        html_text(&b, f->device);
        lang_buf_puts(&b, "</code></td>" TD);
        html_text(&b, f->summary);
        if (f->n_evidence > 0) {
            lang_buf_puts(&b, "<ul style=\"margin:0.2em 0\">");
            for (int k = 0; k < f->n_evidence; k++) {
                lang_buf_puts(&b, "<li><code style=\"" MUTED "\">");
                html_text(&b, f->evidence[k]);
                lang_buf_puts(&b, "</code></li>");
            }
            lang_buf_puts(&b, "</ul>");
        }
        lang_buf_puts(&b, "<div><b>fix:</b> ");
        html_text(&b, f->fix);
        lang_buf_puts(&b, "</div></td></tr>\n");
    }
    if (rep->n > 0) lang_buf_puts(&b, "</tbody></table>\n");
    lang_buf_puts(&b, "</div>\n");
    return lang_buf_take(&b);
}

/* ------------------------------------------------------------------ magics */

typedef struct magic_opts {
    bool json, bandwidth;
    char *root; /* points into the caller's copy of the arguments */
} magic_opts;

/* The next word of [*p] (quotes '...' and "..." keep spaces), cut in place;
 * NULL at the end. */
static char *next_word(char **p) {
    char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) return NULL;
    char *w = s, *o = s;
    char quote = 0;
    for (; *s; s++) {
        if (quote) {
            if (*s == quote)
                quote = 0;
            else
                *o++ = *s;
        } else if (*s == '\'' || *s == '"') {
            quote = *s;
        } else if (*s == ' ' || *s == '\t') {
            s++;
            break;
        } else {
            *o++ = *s;
        }
    }
    *o = '\0';
    *p = s;
    return w;
}

static bool parse_magic(lang_vm *vm, bool doctor, char *args, magic_opts *o) {
    const char *magic = doctor ? "%doctor" : "%probe";
    o->json = false;
    o->bandwidth = !doctor;
    o->root = NULL;
    char *p = args, *w;
    while ((w = next_word(&p))) {
        if (!strcmp(w, "--json")) {
            o->json = true;
        } else if (!doctor && !strcmp(w, "--no-bandwidth")) {
            o->bandwidth = false;
        } else if (!strncmp(w, "--root=", 7)) {
            o->root = w + 7;
        } else if (!strcmp(w, "--root")) {
            o->root = next_word(&p);
            if (!o->root)
                return lang_raise(vm, LANG_ERR_VALUE, "%s --root needs a directory", magic);
        } else {
            return lang_raise(vm, LANG_ERR_VALUE, "%s: unknown option '%s'; the options are %s",
                              magic, w,
                              doctor ? "--json, --root DIR" : "--json, --no-bandwidth, --root DIR");
        }
    }
    return true;
}

bool lang_probe_bundle(lang_vm *vm, bool doctor, const char *args, lang_mime *out) {
    char *copy = strdup(args ? args : "");
    if (!copy) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    magic_opts o;
    if (!parse_magic(vm, doctor, copy, &o)) {
        free(copy);
        return false;
    }
    nn_probe_result *res = run_probe(vm, doctor ? "%doctor" : "%probe", o.root, o.bandwidth);
    free(copy);
    if (!res) return false;
    nn_doctor_report *rep = NULL;
    if (doctor && !(rep = nn_doctor_run(res))) {
        nn_probe_free(res);
        return lang_raise(vm, LANG_ERR_MEMORY, "%%doctor: out of memory");
    }
    enum report_kind k =
        doctor ? (o.json ? DOCTOR_JSON : DOCTOR_TEXT) : (o.json ? PROBE_JSON : PROBE_TEXT);
    char *text = report_text(k, res, rep);
    /* JSON goes out as text: the front ends carry bundle entries as strings,
     * and Jupyter wants an object, not a string, under application/json. */
    char *html = NULL;
    if (text && !o.json) html = doctor ? doctor_html(rep, text) : probe_html(res, text);
    bool ok = text && (o.json || html);
    if (ok) {
        lang_mime_add(out, "text/plain", text);
        if (html) lang_mime_add(out, "text/html", html);
    } else {
        free(text);
        free(html);
    }
    nn_doctor_free(rep);
    nn_probe_free(res);
    return ok ? true : lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
}

bool lang_probe_magic(lang_vm *vm, bool doctor, const char *args) {
    lang_mime m;
    lang_mime_init(&m);
    bool ok = lang_probe_bundle(vm, doctor, args, &m);
    if (ok) lang_vm_display(vm, &m, NULL, false);
    lang_mime_free(&m);
    return ok;
}

/* ---------------------------------------------------------------- builtins */

const lang_builtin_def lang_probe_builtins[] = {
    {"gpus",
     f_gpus,
     {"gpus", "gpus(root=None)",
      "The machine's GPUs as a list of GPU records, [] on a CPU-only machine. Each has name, "
      "vendor, pci (the PCI address), driver, vram_total and vram_used (bytes), link (the "
      "narrowest PCIe hop on the way to the CPU, 'x4 Gen3'), link_max (what the card can do), "
      "narrowest_hop, link_gbps, temperature (C), power and power_cap (W), fan (True/False), "
      "fan_rpm, fan_percent, numa_node, iommu_group, gfx_target (AMD), driver_version "
      "(NVIDIA), rocm_version (AMD), vbios, uuid, render_node and bar_size; .readings maps "
      "every probe key to its value, .sources to the file or call it came from and .units to "
      "its unit. None means the machine did not say: it is never written as 0. root= reads a "
      "recorded machine tree instead of / (as NNDB_SYSROOT does); %probe shows the full "
      "report.",
      "g = gpus(); [(x.name, x.link, x.vram_total) for x in g]"}},
    {"doctor",
     f_doctor,
     {"doctor", "doctor(root=None)",
      "What the probe's readings mean: a list of Finding records (id, severity 'ok' / 'info' "
      "/ 'warn' / 'error', device (a PCI address or 'host'), summary, evidence (a list of "
      "'key = value (source)' strings) and fix), errors first. docs/probes.md lists every id. "
      "root= reads a recorded machine tree instead of /; %doctor shows the same as a report.",
      "[f.id for f in doctor() if f.severity in ('warn', 'error')]"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
