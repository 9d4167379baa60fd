/* nn_probe_nvidia: NVIDIA GPUs through /proc/driver/nvidia, the installed NVML
 * library's version, NVML itself and the CUDA driver (both dlopen'ed at run
 * time with the few types they need declared here; no vendor header).
 *
 * Readings go into the nn_probe_gpu / nn_probe_result the caller owns.
 */
#ifndef NN_PROBE_NVIDIA_H
#define NN_PROBE_NVIDIA_H

#include "nn_probe.h"

/* /proc/driver/nvidia/gpus/<bdf>/information: model, UUID, VBIOS, device minor. */
void nn_probe_nvidia_read_gpu(const nn_probe_fs *fs, nn_probe_gpu *gpu);

/* The kernel module's version (/proc/driver/nvidia/version, sys/module/nvidia/version)
 * and the user-space library's (the file libnvidia-ml.so.1 points at). */
void nn_probe_nvidia_read_host(const nn_probe_fs *fs, nn_probe_result *res);

/* "550.54.14" from "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu ..." */
bool nn_probe_nvidia_parse_version(const char *text, char *out, size_t size);

/* NVML return codes the probe tells apart. */
enum {
    NN_NVML_SUCCESS = 0,
    NN_NVML_NOT_SUPPORTED = 3,
    NN_NVML_DRIVER_NOT_LOADED = 9,
    NN_NVML_RM_VERSION_MISMATCH = 18,
};

typedef struct nn_nvml_device *nn_nvml_device; /* nvmlDevice_t, opaque */
typedef struct nn_nvml_memory {
    unsigned long long total, free, used;
} nn_nvml_memory;
typedef struct nn_nvml_utilization {
    unsigned gpu, memory;
} nn_nvml_utilization;
typedef struct nn_nvml_pci_info { /* nvmlPciInfo_t (v3 layout) */
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
} nn_nvml_pci_info;

typedef struct nn_probe_nvml_api {
    int (*init)(void);
    int (*shutdown)(void);
    const char *(*error_string)(int rc);
    int (*system_driver_version)(char *buf, unsigned len);
    int (*device_count)(unsigned *n);
    int (*device_by_index)(unsigned i, nn_nvml_device *dev);
    int (*device_pci_info)(nn_nvml_device dev, nn_nvml_pci_info *pci);
    int (*device_name)(nn_nvml_device dev, char *buf, unsigned len);
    int (*device_memory)(nn_nvml_device dev, nn_nvml_memory *mem);
    int (*device_curr_pcie_gen)(nn_nvml_device dev, unsigned *gen);
    int (*device_max_pcie_gen)(nn_nvml_device dev, unsigned *gen);
    int (*device_curr_pcie_width)(nn_nvml_device dev, unsigned *width);
    int (*device_max_pcie_width)(nn_nvml_device dev, unsigned *width);
    int (*device_temperature)(nn_nvml_device dev, int sensor, unsigned *c);
    int (*device_temperature_threshold)(nn_nvml_device dev, int type, unsigned *c);
    int (*device_power_usage)(nn_nvml_device dev, unsigned *mw);
    int (*device_enforced_power_limit)(nn_nvml_device dev, unsigned *mw);
    int (*device_default_power_limit)(nn_nvml_device dev, unsigned *mw);
    int (*device_clock)(nn_nvml_device dev, int type, unsigned *mhz);
    int (*device_max_clock)(nn_nvml_device dev, int type, unsigned *mhz);
    int (*device_utilization)(nn_nvml_device dev, nn_nvml_utilization *u);
    int (*device_total_ecc_errors)(nn_nvml_device dev, int error_type, int counter_type,
                                   unsigned long long *count);
    int (*device_fan_speed)(nn_nvml_device dev, unsigned *percent);
} nn_probe_nvml_api;

/* Read every NVML device into the GPU at the same PCI address; records nvml.status.
 * [lib] names the library in each reading's source. */
void nn_probe_nvml_apply(nn_probe_result *res, const nn_probe_nvml_api *api, const char *lib);

/* dlopen NVML (and, when [bandwidth], the CUDA driver to time copies). */
void nn_probe_nvidia_libraries(nn_probe_result *res, bool bandwidth);

#endif
