#include "nn_probe_report.h"

#include <inttypes.h>
#include <string.h>

#define BOLD(c)  ((c) ? "\033[1m" : "")
#define DIM(c)   ((c) ? "\033[2m" : "")
#define RESET(c) ((c) ? "\033[0m" : "")

/* Length of a valid UTF-8 sequence at [s], or 0 when it is not one. */
static int utf8_len(const unsigned char *s) {
    if (s[0] < 0x80) return 1;
    int n = s[0] >= 0xf0 && s[0] <= 0xf4  ? 4
            : s[0] >= 0xe0                ? 3
            : s[0] >= 0xc2 && s[0] < 0xe0 ? 2
                                          : 0;
    if (!n) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;  /* overlong */
    if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0; /* surrogates */
    if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;  /* overlong */
    if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0; /* above U+10FFFF */
    return n;
}

void nn_probe_json_string(FILE *out, const char *s) {
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
            p++;
        } else if (c == '\n') {
            fputs("\\n", out), p++;
        } else if (c == '\t') {
            fputs("\\t", out), p++;
        } else if (c == '\r') {
            fputs("\\r", out), p++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c), p++;
        } else {
            int n = utf8_len(p);
            if (n == 0) {
                fputs("\\ufffd", out);
                p++;
            } else {
                fwrite(p, 1, (size_t)n, out);
                p += n;
            }
        }
    }
    fputc('"', out);
}

/* Text output must not carry terminal escapes or control bytes from odd files. */
static void text_string(FILE *out, const char *s) {
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, out);
}

static void value_text(char *buf, size_t size, const nn_probe_reading *x) {
    if (!x->available) {
        snprintf(buf, size, "n/a%s%s%s", x->note ? " (" : "", x->note ? x->note : "",
                 x->note ? ")" : "");
    } else if (x->kind == NN_PROBE_INT) {
        if (!strcmp(x->unit, "bytes") && x->i >= (int64_t)1 << 30)
            snprintf(buf, size, "%" PRId64 " bytes (%.1f GiB)", x->i, (double)x->i / (1 << 30));
        else if (!strcmp(x->unit, "bytes") && x->i >= (int64_t)1 << 20)
            snprintf(buf, size, "%" PRId64 " bytes (%.0f MiB)", x->i, (double)x->i / (1 << 20));
        else
            snprintf(buf, size, "%" PRId64 "%s%s", x->i, x->unit[0] ? " " : "", x->unit);
    } else if (x->kind == NN_PROBE_NUM) {
        snprintf(buf, size, "%.4g%s%s", x->num, x->unit[0] ? " " : "", x->unit);
    } else {
        snprintf(buf, size, "%s", x->str);
    }
}

static void readings_text(FILE *out, const nn_probe_readings *r, bool color) {
    for (int i = 0; i < r->n; i++) {
        const nn_probe_reading *x = &r->v[i];
        char val[512];
        value_text(val, sizeof val, x);
        fprintf(out, "  %-32s %s", x->key, x->available ? "" : DIM(color));
        text_string(out, val);
        fprintf(out, "%s\n      %sfrom ", x->available ? "" : RESET(color), DIM(color));
        text_string(out, x->source);
        fprintf(out, "%s\n", RESET(color));
    }
}

void nn_probe_report_text(FILE *out, const nn_probe_result *res, bool color) {
    fprintf(out, "%snndb probe%s  (root: ", BOLD(color), RESET(color));
    text_string(out, res->root);
    fprintf(out, ")\n\n%sHost%s\n", BOLD(color), RESET(color));
    readings_text(out, &res->host, color);
    if (res->n_nodes) {
        fprintf(out, "\n%sDevice nodes%s\n", BOLD(color), RESET(color));
        for (int i = 0; i < res->n_nodes; i++) {
            const nn_probe_node *nd = &res->nodes[i];
            fprintf(out, "  %-24s %c %04o uid %-5u group %-10s %s%s%s\n", nd->path, nd->type,
                    nd->mode, nd->uid, nd->group, nd->can_open ? "" : BOLD(color),
                    nd->can_open ? "can open" : "CANNOT open", nd->can_open ? "" : RESET(color));
        }
    }
    for (int i = 0; i < res->n_other_display; i++) {
        fprintf(out, "%s  display-only adapter: ", i ? "" : "\n");
        text_string(out, res->other_display[i]);
        fputc('\n', out);
    }
    if (res->n_gpus == 0) fprintf(out, "\nNo GPUs found.\n");
    for (int g = 0; g < res->n_gpus; g++) {
        const nn_probe_gpu *gpu = &res->gpus[g];
        fprintf(out, "\n%sGPU %s  ", BOLD(color), gpu->bdf);
        text_string(out, gpu->name);
        fprintf(out, "%s\n", RESET(color));
        if (gpu->n_path > 0) {
            fprintf(out, "  PCIe path (GPU first, root port last):\n");
            for (int h = 0; h < gpu->n_path; h++) {
                const nn_probe_hop *p = &gpu->path[h];
                fprintf(out, "    %s  x%d %.1f GT/s (%s)   max x%d %.1f GT/s (%s)\n", p->bdf,
                        p->cur_width, p->cur_speed, nn_probe_gen_name(p->cur_speed), p->max_width,
                        p->max_speed, nn_probe_gen_name(p->max_speed));
            }
        }
        readings_text(out, &gpu->r, color);
    }
}

static void reading_json(FILE *out, const nn_probe_reading *x) {
    fputs("{\"key\": ", out);
    nn_probe_json_string(out, x->key);
    fputs(", \"value\": ", out);
    if (!x->available)
        fputs("null", out);
    else if (x->kind == NN_PROBE_INT)
        fprintf(out, "%" PRId64, x->i);
    else if (x->kind == NN_PROBE_NUM)
        fprintf(out, "%.10g", x->num);
    else
        nn_probe_json_string(out, x->str);
    fputs(", \"unit\": ", out);
    nn_probe_json_string(out, x->unit);
    fputs(", \"source\": ", out);
    nn_probe_json_string(out, x->source);
    if (x->note) {
        fputs(", \"note\": ", out);
        nn_probe_json_string(out, x->note);
    }
    fputc('}', out);
}

static void readings_json(FILE *out, const nn_probe_readings *r, const char *indent) {
    fputc('[', out);
    for (int i = 0; i < r->n; i++) {
        fprintf(out, "%s\n%s", i ? "," : "", indent);
        reading_json(out, &r->v[i]);
    }
    fputc(']', out);
}

void nn_probe_report_json(FILE *out, const nn_probe_result *res) {
    fputs("{\n  \"root\": ", out);
    nn_probe_json_string(out, res->root);
    fputs(",\n  \"host\": ", out);
    readings_json(out, &res->host, "    ");
    fputs(",\n  \"device_nodes\": [", out);
    for (int i = 0; i < res->n_nodes; i++) {
        const nn_probe_node *nd = &res->nodes[i];
        fprintf(out, "%s\n    {\"path\": ", i ? "," : "");
        nn_probe_json_string(out, nd->path);
        fprintf(out,
                ", \"type\": \"%c\", \"mode\": \"%04o\", \"uid\": %u, \"gid\": %u, \"group\": ",
                nd->type == '"' || nd->type == '\\' ? '?' : nd->type, nd->mode, nd->uid, nd->gid);
        nn_probe_json_string(out, nd->group);
        fprintf(out, ", \"can_open\": %s, \"source\": ", nd->can_open ? "true" : "false");
        nn_probe_json_string(out, nd->source);
        fputc('}', out);
    }
    fputs("],\n  \"display_only\": [", out);
    for (int i = 0; i < res->n_other_display; i++) {
        if (i) fputs(", ", out);
        nn_probe_json_string(out, res->other_display[i]);
    }
    fputs("],\n  \"gpus\": [", out);
    for (int g = 0; g < res->n_gpus; g++) {
        const nn_probe_gpu *gpu = &res->gpus[g];
        fprintf(out, "%s\n    {\"bdf\": ", g ? "," : "");
        nn_probe_json_string(out, gpu->bdf);
        fprintf(out, ", \"vendor\": \"0x%04x\", \"device\": \"0x%04x\", \"name\": ", gpu->vendor,
                gpu->device);
        nn_probe_json_string(out, gpu->name);
        fputs(", \"driver\": ", out);
        if (gpu->driver[0])
            nn_probe_json_string(out, gpu->driver);
        else
            fputs("null", out);
        fputs(",\n     \"path\": [", out);
        for (int h = 0; h < gpu->n_path; h++) {
            const nn_probe_hop *p = &gpu->path[h];
            fprintf(out, "%s{\"bdf\": ", h ? ", " : "");
            nn_probe_json_string(out, p->bdf);
            fprintf(out,
                    ", \"cur_speed_gts\": %g, \"cur_width\": %d, \"max_speed_gts\": %g, "
                    "\"max_width\": %d}",
                    p->cur_speed, p->cur_width, p->max_speed, p->max_width);
        }
        fputs("],\n     \"readings\": ", out);
        readings_json(out, &gpu->r, "      ");
        fputc('}', out);
    }
    fputs("]\n}\n", out);
}

static const char *sev_colour(nn_doctor_severity s) {
    switch (s) {
    case NN_DOCTOR_OK: return "\033[32m";
    case NN_DOCTOR_INFO: return "\033[36m";
    case NN_DOCTOR_WARN: return "\033[33m";
    case NN_DOCTOR_ERROR: return "\033[31m";
    }
    return "";
}

void nn_doctor_report_text(FILE *out, const nn_probe_result *res, const nn_doctor_report *rep,
                           bool color) {
    int counts[4] = {0};
    for (int i = 0; i < rep->n; i++) counts[rep->v[i].severity]++;
    fprintf(out, "%snndb doctor%s: %d GPU%s checked; %d error%s, %d warning%s, %d note%s\n",
            BOLD(color), RESET(color), res->n_gpus, res->n_gpus == 1 ? "" : "s", counts[3],
            counts[3] == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s", counts[1],
            counts[1] == 1 ? "" : "s");
    for (int i = 0; i < rep->n; i++) {
        const nn_doctor_finding *f = &rep->v[i];
        char sev[8];
        snprintf(sev, sizeof sev, "%s", nn_doctor_severity_name(f->severity));
        for (char *c = sev; *c; c++) *c = (char)(*c - 'a' + 'A');
        fprintf(out, "\n%s%-5s%s %s%s%s  [%s]\n  ", color ? sev_colour(f->severity) : "", sev,
                RESET(color), BOLD(color), f->id, RESET(color), f->device);
        text_string(out, f->summary);
        fputc('\n', out);
        for (int e = 0; e < f->n_evidence; e++) {
            fprintf(out, "    %s", DIM(color));
            text_string(out, f->evidence[e]);
            fprintf(out, "%s\n", RESET(color));
        }
        fputs("  fix: ", out);
        text_string(out, f->fix);
        fputc('\n', out);
    }
}

void nn_doctor_report_json(FILE *out, const nn_doctor_report *rep) {
    fprintf(out, "{\n  \"worst\": \"%s\",\n  \"findings\": [",
            nn_doctor_severity_name(nn_doctor_worst(rep)));
    for (int i = 0; i < rep->n; i++) {
        const nn_doctor_finding *f = &rep->v[i];
        fprintf(out, "%s\n    {\"id\": ", i ? "," : "");
        nn_probe_json_string(out, f->id);
        fprintf(out, ", \"severity\": \"%s\", \"device\": ", nn_doctor_severity_name(f->severity));
        nn_probe_json_string(out, f->device);
        fputs(",\n     \"summary\": ", out);
        nn_probe_json_string(out, f->summary);
        fputs(",\n     \"evidence\": [", out);
        for (int e = 0; e < f->n_evidence; e++) {
            if (e) fputs(", ", out);
            nn_probe_json_string(out, f->evidence[e]);
        }
        fputs("],\n     \"fix\": ", out);
        nn_probe_json_string(out, f->fix);
        fputc('}', out);
    }
    fputs("]\n}\n", out);
}
