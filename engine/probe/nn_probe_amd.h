/* nn_probe_amd: AMD GPUs through amdgpu sysfs, the KFD topology, the ROCm
 * install, and ROCm SMI (dlopen'ed at run time, types declared here).
 *
 * Readings go into the nn_probe_gpu / nn_probe_result the caller owns.
 */
#ifndef NN_PROBE_AMD_H
#define NN_PROBE_AMD_H

#include "nn_probe.h"

/* amdgpu sysfs and hwmon of one GPU: memory, busy %, DPM clocks and PCIe levels,
 * temperatures and limits, power and cap, fan presence, VBIOS, RAS, unique_id and
 * the gfx target. */
void nn_probe_amd_read_gpu(const nn_probe_fs *fs, nn_probe_gpu *gpu);

/* The ROCm install: rocm.version and rocm.path from opt/rocm*. */
void nn_probe_amd_read_host(const nn_probe_fs *fs, nn_probe_result *res);

/* "gfx906" for a KFD gfx_target_version such as 90006; false when implausible. */
bool nn_probe_amd_gfx_name(int64_t version, char *out, size_t size);

/* A gfx target from a small table of PCI device ids, or NULL. */
const char *nn_probe_amd_gfx_from_device(unsigned device);

/* ROCm SMI entry points (rsmi_status_t is an int; 0 is success). */
typedef struct nn_probe_rsmi_api {
    int (*init)(uint64_t flags);
    int (*shut_down)(void);
    int (*num_monitor_devices)(uint32_t *n);
    int (*dev_pci_id_get)(uint32_t dv, uint64_t *bdfid);
    int (*dev_temp_metric_get)(uint32_t dv, uint32_t sensor, int metric, int64_t *millic);
    int (*dev_power_ave_get)(uint32_t dv, uint32_t sensor, uint64_t *microwatts);
    int (*dev_memory_total_get)(uint32_t dv, int type, uint64_t *bytes);
    int (*dev_busy_percent_get)(uint32_t dv, uint32_t *percent);
} nn_probe_rsmi_api;

/* Read every ROCm SMI device into the GPU with the same PCI address. */
void nn_probe_rsmi_apply(nn_probe_result *res, const nn_probe_rsmi_api *api, const char *lib);

/* dlopen ROCm SMI and apply it; records rocm_smi.status either way. */
void nn_probe_amd_libraries(nn_probe_result *res);

#endif
