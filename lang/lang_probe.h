/* lang_probe: the GPU probe and the GPU doctor in the language.
 *
 * gpus() gives one record per GPU (name, vendor, pci, driver, vram, link,
 * temperature, ... and the raw .readings / .sources / .units dicts),
 * doctor() gives the findings as records, and the %probe / %doctor magics
 * show the same reports as `nndb probe` / `nndb doctor` through the front
 * end as a MIME bundle: text/plain is the engine's text report without
 * colour, text/html a table per GPU (reading, value, source) or a table of
 * findings with their severity in colour.
 *
 * Owned by the probe engineer. The engine's nn_probe_result and
 * nn_doctor_report live only inside one call: everything handed to the
 * language is a copy. A root (gpus(root=...), %doctor --root DIR) reads a
 * recorded machine tree instead of "/", as NNDB_SYSROOT does; a root that
 * is not a directory is an IOError naming it.
 */
#ifndef LANG_PROBE_H
#define LANG_PROBE_H

#include <stdbool.h>

#include "lang_vm.h"

/* Fill [out] (initialised by the caller, who frees it with lang_mime_free)
 * with the report of %probe ([doctor] false) or %doctor for the magic's
 * argument text [args] ("--json --root DIR"). False with an error raised
 * on an unknown option or a missing root. */
bool lang_probe_bundle(lang_vm *vm, bool doctor, const char *args, lang_mime *out);

/* Run %probe or %doctor: the bundle above, shown through lang_vm_display. */
bool lang_probe_magic(lang_vm *vm, bool doctor, const char *args);

#endif
