/* A fake NVML (libaxon_fakenvml.so), which Axon loads instead of libnvidia-ml.so.1 when
 * AXON_NVML_LIBRARY names it: just what the NVLink domains ask (cuda_support/axon_cuda_topo.c), a GPU
 * by PCI bus id and its GPU fabric clique, for the fake driver's GPUs (PCI bus 0x10 + ordinal, device
 * 0). FAKENVML_CLIQUE_SIZE=N puts GPUs 0..N-1 in clique 1, N..2N-1 in clique 2 and so on, all in one
 * cluster; unset, no GPU has a fabric (NVML_ERROR_NOT_SUPPORTED, as on a machine without NVSwitch
 * fabric manager). The structure is nvmlDeviceGetGpuFabricInfo's first one, written out here as NVML's
 * ABI has it (nvml.h is not installed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fakenvml_fabric_info {
    unsigned char cluster_uuid[16];
    int status;
    unsigned int clique_id;
    unsigned char state;
};

int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, void **device);
int nvmlDeviceGetGpuFabricInfo(void *device, struct fakenvml_fabric_info *info);

int nvmlInit_v2(void)
{
    return 0;
}

int nvmlShutdown(void)
{
    return 0;
}

/* The handle is the ordinal + 1. NVML_ERROR_NOT_FOUND (6) for a bus that is not a fake GPU's. */
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, void **device)
{
    unsigned dom, bus, dev;
    if (!bus_id || !device || sscanf(bus_id, "%x:%x:%x", &dom, &bus, &dev) != 3)
        return 2; /* NVML_ERROR_INVALID_ARGUMENT */
    if (dom != 0 || dev != 0 || bus < 0x10 || bus >= 0x10 + 16)
        return 6;
    *device = (void *)(uintptr_t)(bus - 0x10 + 1);
    return 0;
}

int nvmlDeviceGetGpuFabricInfo(void *device, struct fakenvml_fabric_info *info)
{
    const char *size = getenv("FAKENVML_CLIQUE_SIZE");
    if (!device || !info)
        return 2;
    if (!size || atoi(size) <= 0)
        return 3; /* NVML_ERROR_NOT_SUPPORTED */
    unsigned ordinal = (unsigned)(uintptr_t)device - 1;
    memset(info, 0, sizeof(*info));
    memcpy(info->cluster_uuid, "axon-fake-fabric", 16);
    info->status = 0;
    info->clique_id = ordinal / (unsigned)atoi(size) + 1;
    info->state = 3; /* NVML_GPU_FABRIC_STATE_COMPLETED */
    return 0;
}
