#include "nn_probe_cli.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn_doctor.h"
#include "nn_probe.h"
#include "nn_probe_report.h"

static void usage(FILE *f) {
    fputs("usage: nndb probe [--json] [--no-bandwidth]\n"
          "       nndb doctor [--json]\n"
          "  probe   what the machine says about its GPUs, and where each reading came from\n"
          "  doctor  what those readings mean and what to do (exit 1 on warnings or errors)\n"
          "  NNDB_SYSROOT=<dir> reads a recorded sys/proc/dev/etc/opt tree instead of /\n",
          f);
}

int nn_probe_cli(int argc, char **argv, FILE *out, FILE *err) {
    if (argc < 1 || !argv[0]) {
        usage(err);
        return 2;
    }
    bool doctor = !strcmp(argv[0], "doctor");
    if (!doctor && strcmp(argv[0], "probe") != 0) {
        fprintf(err, "nndb: unknown command '%s'\n", argv[0]);
        usage(err);
        return 2;
    }
    bool json = false, bandwidth = !doctor;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = true;
        } else if (!strcmp(argv[i], "--no-bandwidth")) {
            bandwidth = false;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(out);
            return 0;
        } else {
            fprintf(err, "nndb %s: unknown option '%s'\n", argv[0], argv[i]);
            usage(err);
            return 2;
        }
    }
    const char *nc = getenv("NO_COLOR");
    bool color = !json && isatty(fileno(out)) && !(nc && nc[0]);

    nn_probe_options opt = nn_probe_default_options();
    opt.measure_bandwidth = bandwidth;
    nn_error e;
    nn_error_clear(&e);
    nn_probe_result *res = nn_probe_run(&opt, &e);
    if (!res) {
        fprintf(err, "nndb %s: %s\n", argv[0], e.msg);
        return 3;
    }
    int status = 0;
    if (!doctor) {
        if (json)
            nn_probe_report_json(out, res);
        else
            nn_probe_report_text(out, res, color);
    } else {
        nn_doctor_report *rep = nn_doctor_run(res);
        if (!rep) {
            fprintf(err, "nndb doctor: out of memory\n");
            nn_probe_free(res);
            return 3;
        }
        if (json)
            nn_doctor_report_json(out, rep);
        else
            nn_doctor_report_text(out, res, rep, color);
        status = nn_doctor_worst(rep) >= NN_DOCTOR_WARN ? 1 : 0;
        nn_doctor_free(rep);
    }
    fflush(out);
    nn_probe_free(res);
    return status;
}
