/* What a rank tells the others of its GPU at MPI_Init, so that the job knows its NVLink domains
 * (runtime/axon_runtime_topo.h): which GPU is the rank's, the GPUs that GPU reaches directly (P2P over
 * NVLink or PCIe: cuDeviceCanAccessPeer), and its NVML fabric clique, which GPUs of one multi-node
 * NVLink domain (an NVL72 rack) share across nodes.
 *
 * A rank's GPU is the one it will most likely use: its ordinal is the machine-local rank modulo the
 * GPUs it sees (what launch scripts and frameworks do by default; a rank that sees one GPU, as with a
 * per-rank CUDA_VISIBLE_DEVICES, has that one). GPUs are named by PCI address, the one name that is the
 * same in every process whatever it sees. None of this creates a CUDA context: device attributes and
 * peer queries need none. NVML (libnvidia-ml.so.1, or AXON_NVML_LIBRARY) is loaded with dlopen when it is there, asked, and
 * closed; without it, or on GPUs without a fabric (H100 on PCIe or NVSwitch within a node), the clique
 * stays empty and domains end at the node. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#if AXON_HAVE_CUDA_H

/* NVML's types and calls that we use, as its ABI has them (nvml.h is not part of the CUDA toolkit's
 * headers): nvmlDeviceGetGpuFabricInfo's first structure. */
#define AXON_NVML_FABRIC_UUID_LEN 16
#define AXON_NVML_FABRIC_STATE_COMPLETED 3
struct axon_nvml_fabric_info {
    unsigned char cluster_uuid[AXON_NVML_FABRIC_UUID_LEN];
    int status;            /* nvmlReturn_t: 0 when the GPU is registered with the fabric */
    unsigned int clique_id;
    unsigned char state;   /* nvmlGpuFabricState_t */
};
typedef struct axon_nvml_device *axon_nvml_device_t;

/* The PCI address of a GPU the process sees, packed; false when the driver does not say. */
static bool axon_cuda_pci_of(int ordinal, uint32_t *pci)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    int dom = 0, bus = 0, dev = 0;
    CUdevice h = axon_cuda.devices[ordinal];
    if (!d->device_get_attribute || d->device_get_attribute(&dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, h) != CUDA_SUCCESS ||
        d->device_get_attribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, h) != CUDA_SUCCESS ||
        d->device_get_attribute(&dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, h) != CUDA_SUCCESS)
        return false;
    *pci = (uint32_t)(dom & 0xffff) << 16 | (uint32_t)(bus & 0xff) << 8 | (uint32_t)(dev & 0xff);
    return true;
}

/* The GPU's fabric clique from NVML (cluster UUID, clique id), or nothing. */
static void axon_cuda_nvml_clique(uint32_t pci, uint8_t clique[AXON_RUNTIME_GPU_CLIQUE_BYTES])
{
    void *lib = dlopen(axon_config.nvml_library[0] ? axon_config.nvml_library : "libnvidia-ml.so.1",
                       RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    int (*init)(void) = (int (*)(void))dlsym(lib, "nvmlInit_v2");
    int (*shutdown)(void) = (int (*)(void))dlsym(lib, "nvmlShutdown");
    int (*by_pci)(const char *, axon_nvml_device_t *) =
        (int (*)(const char *, axon_nvml_device_t *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    int (*fabric)(axon_nvml_device_t, struct axon_nvml_fabric_info *) =
        (int (*)(axon_nvml_device_t, struct axon_nvml_fabric_info *))dlsym(lib, "nvmlDeviceGetGpuFabricInfo");
    if (init && shutdown && by_pci && fabric && init() == 0) {
        char bus_id[32];
        snprintf(bus_id, sizeof(bus_id), "%08x:%02x:%02x.0", pci >> 16, (pci >> 8) & 0xff, pci & 0xff);
        axon_nvml_device_t dev;
        struct axon_nvml_fabric_info info;
        memset(&info, 0, sizeof(info));
        if (by_pci(bus_id, &dev) == 0 && fabric(dev, &info) == 0 && info.status == 0 &&
            info.state == AXON_NVML_FABRIC_STATE_COMPLETED) {
            memcpy(clique, info.cluster_uuid, AXON_NVML_FABRIC_UUID_LEN);
            memcpy(clique + AXON_NVML_FABRIC_UUID_LEN, &info.clique_id, sizeof(info.clique_id));
        }
        shutdown();
    }
    dlclose(lib);
}

int axon_cuda_default_device(void)
{
    if (!axon_cuda_enabled() || axon_cuda.ndevices <= 0)
        return -1;
    int r = axon_runtime_job.host_local_rank;
    return (r >= 0 ? r : 0) % axon_cuda.ndevices;
}

int axon_cuda_gpu_ident(int host_local_rank, struct axon_runtime_gpu_ident *out)
{
    memset(out, 0, sizeof(*out));
    if (!axon_cuda_enabled() || axon_cuda.ndevices <= 0)
        return MPI_SUCCESS;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    int mine = (host_local_rank >= 0 ? host_local_rank : 0) % axon_cuda.ndevices;
    if (!axon_cuda_pci_of(mine, &out->pci))
        return MPI_SUCCESS; /* no name that other processes share: no GPU to tell of */
    out->present = 1;
    for (int e = 0; e < axon_cuda.ndevices && out->npeers < AXON_RUNTIME_GPU_PEERS_MAX; e++) {
        int can = 0;
        uint32_t pci;
        if (e != mine && d->device_can_access_peer(&can, axon_cuda.devices[mine], axon_cuda.devices[e]) == CUDA_SUCCESS &&
            can && axon_cuda_pci_of(e, &pci))
            out->peers[out->npeers++] = pci;
    }
    axon_cuda_nvml_clique(out->pci, out->clique);
    return MPI_SUCCESS;
}

#else

int axon_cuda_default_device(void)
{
    return -1;
}

int axon_cuda_gpu_ident(int host_local_rank, struct axon_runtime_gpu_ident *out)
{
    (void)host_local_rank;
    memset(out, 0, sizeof(*out));
    return MPI_SUCCESS;
}

#endif
