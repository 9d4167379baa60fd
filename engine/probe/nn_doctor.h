/* nn_doctor: turn probe readings into findings a person can act on.
 *
 * Each finding has a stable id (docs/probes.md lists them all), a severity, the
 * device it is about ("host" for machine-wide ones), a one-line summary, the
 * evidence (the readings it used, each with its source) and a fix. The doctor
 * only reads the nn_probe_result; the returned nn_doctor_report is the caller's,
 * released with nn_doctor_free (which accepts NULL).
 */
#ifndef NN_DOCTOR_H
#define NN_DOCTOR_H

#include "nn_probe.h"

typedef enum nn_doctor_severity {
    NN_DOCTOR_OK,
    NN_DOCTOR_INFO,
    NN_DOCTOR_WARN,
    NN_DOCTOR_ERROR,
} nn_doctor_severity;

#define NN_DOCTOR_MAX_EVIDENCE 8

typedef struct nn_doctor_finding {
    char id[40]; /* "pcie-link-degraded" */
    nn_doctor_severity severity;
    char device[16]; /* "0000:03:00.0" or "host" */
    char summary[320];
    char evidence[NN_DOCTOR_MAX_EVIDENCE][512]; /* "key = value unit  (source)" */
    int n_evidence;
    char fix[640];
} nn_doctor_finding;

typedef struct nn_doctor_report {
    nn_doctor_finding *v;
    int n;
} nn_doctor_report;

/* Findings for [res], errors first. NULL only when out of memory. */
nn_doctor_report *nn_doctor_run(const nn_probe_result *res);
void nn_doctor_free(nn_doctor_report *rep);

/* The worst severity in [rep] (NN_DOCTOR_OK when empty). */
nn_doctor_severity nn_doctor_worst(const nn_doctor_report *rep);

/* "ok", "info", "warn", "error". */
const char *nn_doctor_severity_name(nn_doctor_severity s);

/* The finding with [id] (and [device] unless NULL), or NULL. */
const nn_doctor_finding *nn_doctor_find(const nn_doctor_report *rep, const char *id,
                                        const char *device);

/* Compare two "6.4.0-47" style versions numerically: <0, 0, >0. */
int nn_doctor_version_cmp(const char *a, const char *b);

#endif
