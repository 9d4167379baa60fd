/* nn_probe_report: the probe's and the doctor's reports as text tables or JSON.
 *
 * Writers only read what they are given and write to a FILE the caller owns.
 * JSON is written by hand: strings are escaped, invalid UTF-8 from odd files
 * becomes U+FFFD, and unavailable readings are null with a "note".
 */
#ifndef NN_PROBE_REPORT_H
#define NN_PROBE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "nn_doctor.h"
#include "nn_probe.h"

void nn_probe_report_text(FILE *out, const nn_probe_result *res, bool color);
void nn_probe_report_json(FILE *out, const nn_probe_result *res);
void nn_doctor_report_text(FILE *out, const nn_probe_result *res, const nn_doctor_report *rep,
                           bool color);
void nn_doctor_report_json(FILE *out, const nn_doctor_report *rep);

/* Write [s] as a JSON string literal (with quotes). */
void nn_probe_json_string(FILE *out, const char *s);

#endif
