/* nn_probe: what the machine says about its GPUs.
 *
 * nn_probe_run reads PCI sysfs, amdgpu sysfs, NVIDIA /proc, the host's modules,
 * device nodes and groups, and (on a real machine only) NVML, ROCm SMI and the
 * CUDA driver through dlopen. Every reading carries the key it is known by, the
 * file or call it came from, and whether it was available at all, so "not
 * available" never reads as zero. The returned nn_probe_result owns everything
 * it points to; release it with nn_probe_free (which accepts NULL).
 *
 * Test seams (documented in docs/probes.md): NNDB_SYSROOT stands in for "/",
 * and under it nothing is dlopen'ed; NNDB_PROBE_UID and NNDB_PROBE_GROUPS
 * ("44,109") replace the current user's ids; dev/.nndb-nodes in a tree records
 * device-node types, modes and owners that git cannot store.
 */
#ifndef NN_PROBE_H
#define NN_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "nn_error.h"
#include "nn_probe_fs.h"

typedef enum nn_probe_kind {
    NN_PROBE_INT, /* an integer: a count, bytes, MHz, a 0/1 flag */
    NN_PROBE_NUM, /* a real number: degrees C, watts, GT/s, GB/s */
    NN_PROBE_STR, /* text */
} nn_probe_kind;

typedef struct nn_probe_reading {
    char *key; /* "pci.link.cur_width", "temp.edge", ... */
    nn_probe_kind kind;
    bool available; /* false: the source had nothing; value fields are unset */
    int64_t i;
    double num;
    char *str;
    const char *unit; /* static: "bytes", "MHz", "C", "W", "GT/s", "%", or "" */
    char *source;     /* "sys/bus/pci/devices/0000:01:00.0/current_link_width", "nvml:..." */
    char *note;       /* why unavailable, or NULL */
} nn_probe_reading;

typedef struct nn_probe_readings {
    nn_probe_reading *v;
    int n, cap;
} nn_probe_readings;

/* One PCIe port on the path from a GPU up to its root port. path[0] is the GPU. */
typedef struct nn_probe_hop {
    char bdf[16];
    unsigned vendor;
    double cur_speed, max_speed; /* GT/s; 0 when unknown */
    int cur_width, max_width;    /* lanes; 0 when unknown */
} nn_probe_hop;

#define NN_PROBE_MAX_HOPS 12

typedef struct nn_probe_gpu {
    char bdf[16]; /* "0000:01:00.0" */
    unsigned vendor, device;
    char name[160];  /* from pci.ids, NVML or /proc, else hex ids */
    char driver[32]; /* bound driver, "" when none */
    nn_probe_hop path[NN_PROBE_MAX_HOPS];
    int n_path; /* 0 when the device path could not be resolved */
    nn_probe_readings r;
} nn_probe_gpu;

/* A device node the GPU stack needs (/dev/kfd, /dev/dri/renderD128, /dev/nvidia0). */
typedef struct nn_probe_node {
    char path[64]; /* "/dev/kfd" */
    char type;     /* 'c' character device, 'b' block, 'f' other file, '?' */
    unsigned mode, uid, gid;
    char group[32];  /* group name from etc/group, or the gid in decimal */
    bool can_open;   /* read+write for the current user, from mode/owner/group */
    char source[96]; /* "stat" or "dev/.nndb-nodes" */
} nn_probe_node;

typedef struct nn_probe_result {
    char root[NN_PROBE_PATH_MAX]; /* "/" or the recorded tree */
    nn_probe_readings host;       /* host.*, nvidia.driver.*, rocm.*, nvml.status, ... */
    nn_probe_gpu *gpus;
    int n_gpus;
    nn_probe_node *nodes;
    int n_nodes;
    char **other_display; /* display-only adapters (BMC VGA, virtual): "bdf name" */
    int n_other_display;
    unsigned user_uid;
    unsigned user_gids[64];
    int n_user_gids;
} nn_probe_result;

typedef struct nn_probe_options {
    const char *root;       /* NULL: NNDB_SYSROOT or "/" */
    bool use_libraries;     /* dlopen NVML / ROCm SMI / CUDA (forced off under a recorded root) */
    bool measure_bandwidth; /* CUDA copy bandwidth (needs use_libraries) */
} nn_probe_options;

/* Defaults: root from NNDB_SYSROOT, libraries on, bandwidth on. */
nn_probe_options nn_probe_default_options(void);

/* Probe the machine. Returns NULL only when out of memory (with [err] set);
 * missing files are readings marked unavailable, never errors. */
nn_probe_result *nn_probe_run(const nn_probe_options *opt, nn_error *err);
void nn_probe_free(nn_probe_result *res);

/* Readings. */
const nn_probe_reading *nn_probe_find(const nn_probe_readings *r, const char *key);
bool nn_probe_get_int(const nn_probe_readings *r, const char *key, int64_t *out);
bool nn_probe_get_num(const nn_probe_readings *r, const char *key, double *out); /* int or num */
const char *nn_probe_get_str(const nn_probe_readings *r, const char *key);       /* NULL if n/a */

/* Add a reading (the last one with a key wins on lookup). NULL [note] is fine. */
void nn_probe_add_int(nn_probe_readings *r, const char *key, int64_t v, const char *unit,
                      const char *source);
void nn_probe_add_num(nn_probe_readings *r, const char *key, double v, const char *unit,
                      const char *source);
void nn_probe_add_str(nn_probe_readings *r, const char *key, const char *v, const char *source);
void nn_probe_add_na(nn_probe_readings *r, const char *key, nn_probe_kind kind, const char *unit,
                     const char *source, const char *note);
/* Read an integer file [rel] into a reading, scaled by [scale]; marks n/a when
 * missing. Returns whether it was available. */
bool nn_probe_add_file_int(nn_probe_readings *r, const nn_probe_fs *fs, const char *key,
                           const char *rel, const char *unit);
bool nn_probe_add_file_str(nn_probe_readings *r, const nn_probe_fs *fs, const char *key,
                           const char *rel);
void nn_probe_readings_free(nn_probe_readings *r);

/* A PCIe generation's per-lane rate in GT/s to the usable GB/s per lane
 * (after 8b/10b or 128b/130b encoding). 0 for unknown rates. */
double nn_probe_lane_gbps(double gts);
/* "Gen3" style name for a rate in GT/s; "?" when unknown. */
const char *nn_probe_gen_name(double gts);

/* A readable name for PCI ids from pci.ids under the root (usr/share/misc/pci.ids),
 * else "vendor 0x10de device 0x2786". */
void nn_probe_pci_name(const nn_probe_fs *fs, unsigned vendor, unsigned device, char *out,
                       size_t size);

#endif
