/* Internals of the CUDA layer: the table of driver entry points, the state the driver loader leaves
 * for the memory-type cache and the memory kinds, and the hooks unit tests use to install a fake driver.
 * Everything here needs cuda.h's types; without it (AXON_HAVE_CUDA_H unset) the layer is compiled as
 * stubs and this header declares nothing. */
#ifndef AXON_CUDA_INTERNAL_H
#define AXON_CUDA_INTERNAL_H

#include "config.h"
#include "cuda_support/cuda_support.h"

#if AXON_HAVE_CUDA_H
#include <cuda.h>

/* The oldest driver we accept (11.3): the pointer attributes the classification asks for all exist
 * there. */
#define AXON_CUDA_MIN_DRIVER_VERSION 11030
/* The CUDA version whose signatures the entry points below have; cuGetProcAddress is asked for this
 * ABI, so a newer driver still hands out functions that match these prototypes. */
#define AXON_CUDA_ABI_VERSION 12000
/* GPUs the layer keeps handles for. */
#define AXON_CUDA_MAX_DEVICES 64

/* Every driver function the layer calls, in one table: loaded from libcuda.so.1 by
 * axon_cuda_driver.c, or filled by a unit test with fakes (axon_cuda_driver_install). Field names
 * drop the cu prefix because cuda.h turns several driver names into macros (cuMemcpy and others). */
struct axon_cuda_driver {
    CUresult (*init)(unsigned int flags);
    CUresult (*driver_get_version)(int *version);
    CUresult (*get_error_string)(CUresult error, const char **str);
    CUresult (*device_get_count)(int *count);
    CUresult (*device_get)(CUdevice *device, int ordinal);
    CUresult (*device_get_name)(char *name, int len, CUdevice device);
    CUresult (*device_can_access_peer)(int *can, CUdevice device, CUdevice peer);
    CUresult (*device_primary_ctx_get_state)(CUdevice device, unsigned int *flags, int *active);
    CUresult (*device_primary_ctx_retain)(CUcontext *ctx, CUdevice device);
    CUresult (*device_primary_ctx_release)(CUdevice device);
    CUresult (*ctx_get_current)(CUcontext *ctx);
    CUresult (*ctx_push_current)(CUcontext ctx);
    CUresult (*ctx_pop_current)(CUcontext *ctx);
    CUresult (*pointer_get_attribute)(void *data, CUpointer_attribute attribute, CUdeviceptr ptr);
    CUresult (*pointer_get_attributes)(unsigned int count, CUpointer_attribute *attributes, void **data,
                                       CUdeviceptr ptr);
    CUresult (*mem_get_address_range)(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);
    /* Optional (NULL: no VMM memory is recognized, it reads as device memory). */
    CUresult (*mem_retain_allocation_handle)(CUmemGenericAllocationHandle *handle, void *addr);
    CUresult (*mem_release)(CUmemGenericAllocationHandle handle);
    CUresult (*mem_copy)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
    /* Optional (NULL: cuMemcpy instead): the copies that name their direction (axon_cuda_copy_sync). */
    CUresult (*mem_copy_dtod)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
    CUresult (*mem_copy_dtoh)(void *dst, CUdeviceptr src, size_t bytes);
    CUresult (*mem_copy_htod)(CUdeviceptr dst, const void *src, size_t bytes);
    /* Optional (NULL: staging buffers are pageable memory). */
    CUresult (*mem_host_alloc)(void **p, size_t bytes, unsigned int flags);
    CUresult (*mem_free_host)(void *p);
    /* Optional (NULL: no staging windows shared between processes, axon_cuda_window.c). */
    CUresult (*mem_host_register)(void *p, size_t bytes, unsigned int flags);
    CUresult (*mem_host_unregister)(void *p);
    /* Optional (NULL: no CUDA IPC; GPU buffers are staged through host memory). */
    CUresult (*ipc_get_mem_handle)(CUipcMemHandle *handle, CUdeviceptr ptr);
    CUresult (*ipc_open_mem_handle)(CUdeviceptr *ptr, CUipcMemHandle handle, unsigned int flags);
    CUresult (*ipc_close_mem_handle)(CUdeviceptr ptr);
    CUresult (*stream_synchronize)(CUstream stream);
    /* Optional (NULL: copies run on the legacy stream whatever AXON_CUDA_COPY_STREAM says). */
    CUresult (*stream_create)(CUstream *stream, unsigned int flags);
    CUresult (*stream_destroy)(CUstream stream);
    CUresult (*mem_copy_async)(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream);
    /* Optional (NULL: VMM memory is staged): IPC of cuMemCreate memory through POSIX fds. */
    CUresult (*mem_export_to_shareable_handle)(void *shareable, CUmemGenericAllocationHandle handle,
                                               CUmemAllocationHandleType type, unsigned long long flags);
    CUresult (*mem_import_from_shareable_handle)(CUmemGenericAllocationHandle *handle, void *os_handle,
                                                 CUmemAllocationHandleType type);
    CUresult (*mem_address_reserve)(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                    unsigned long long flags);
    CUresult (*mem_address_free)(CUdeviceptr ptr, size_t size);
    CUresult (*mem_map)(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                        unsigned long long flags);
    CUresult (*mem_unmap)(CUdeviceptr ptr, size_t size);
    CUresult (*mem_set_access)(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count);
    /* Optional (NULL: reductions of GPU data run on the host after staging; collectives scratch stays on
     * the host): device scratch and the reduction kernels (axon_cuda_reduce.c, axon_cuda_scratch.c). */
    CUresult (*mem_alloc)(CUdeviceptr *ptr, size_t bytes);
    CUresult (*mem_free)(CUdeviceptr ptr);
    CUresult (*module_load_data)(CUmodule *module, const void *image);
    CUresult (*module_unload)(CUmodule module);
    CUresult (*module_get_function)(CUfunction *fn, CUmodule module, const char *name);
    CUresult (*launch_kernel)(CUfunction fn, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
                              unsigned int block_x, unsigned int block_y, unsigned int block_z,
                              unsigned int shared_bytes, CUstream stream, void **params, void **extra);
    CUresult (*device_get_attribute)(int *value, CUdevice_attribute attribute, CUdevice device);
};

/* What the loader found; set by axon_cuda_driver_install, cleared by axon_cuda_driver_uninstall. */
struct axon_cuda_state {
    const struct axon_cuda_driver *drv; /* NULL while support is off */
    int driver_version;
    int ndevices;
    CUdevice devices[AXON_CUDA_MAX_DEVICES]; /* by ordinal */
    CUcontext retained[AXON_CUDA_MAX_DEVICES]; /* primary contexts this layer retained (copies) */
};

extern struct axon_cuda_state axon_cuda;

/* Makes drv the driver: cuInit, version check, devices. On success CUDA support is on. On failure
 * support stays off and err says why (the caller decides whether that is an error: AXON_CUDA=1). Unit
 * tests call it with a table of fakes; axon_cuda_init with the functions it loaded. */
int axon_cuda_driver_install(const struct axon_cuda_driver *drv, char *err, size_t errlen);
/* Turns support off and forgets the driver (its primary contexts released, the cache emptied). */
void axon_cuda_driver_uninstall(void);
/* The driver's text for an error code ("out of memory"), or the code itself in words if the driver has
 * none. */
const char *axon_cuda_driver_error_string(CUresult rc);

/* Makes a context current for a copy on device's memory when the calling thread has none: the device's
 * primary context, retained once (this creates it the first time) and pushed. *pushed says whether
 * axon_cuda_ctx_leave must pop it. */
int axon_cuda_ctx_enter(int device, bool *pushed);

/* What one side of a copy is, for axon_cuda_copy_sync: GPU memory (device, VMM, or a peer's opened
 * through IPC), host memory (pageable or pinned), or not known (managed memory, say). */
enum axon_cuda_side { AXON_CUDA_SIDE_ANY, AXON_CUDA_SIDE_DEVICE, AXON_CUDA_SIDE_HOST };
enum axon_cuda_side axon_cuda_side_of(const struct axon_memkind_info *info);

/* A copy of bytes in the current context, complete (landed) when it returns: by the call that names
 * its direction where both sides are known, else by cuMemcpy, then a wait for the legacy stream. */
CUresult axon_cuda_copy_sync(void *dst, enum axon_cuda_side dside, const void *src, enum axon_cuda_side sside,
                             size_t bytes);
void axon_cuda_ctx_leave(bool pushed);

/* VMM IPC (axon_cuda_vmm.c), for axon_cuda_ipc.c. Whether the driver and the kernel allow it. */
bool axon_cuda_vmm_available(void);
/* Taking a descriptor of another process of the node (pidfd_getfd, Linux 5.6, the right to ptrace it):
 * whether the kernel allows it here (tried once on ourselves), and a copy of process pid's fd (-1 and
 * errno on failure). For VMM IPC and the staging windows (axon_cuda_window.c). */
bool axon_cuda_take_fd_works(void);
int axon_cuda_take_fd(int pid, int fd);
/* Fills out's parts for the bytes at ptr (VMM memory, info the mapping holding ptr): the exported fds,
 * held until axon_cuda_vmm_release. */
int axon_cuda_vmm_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                         struct axon_memkind_ipc_desc *out);
void axon_cuda_vmm_release(const struct axon_memkind_ipc_desc *d);
/* Imports part p of process pid (pidfd_getfd, then the driver), reserves addresses, maps it there and
 * lets device read it: *local is its address here. */
int axon_cuda_vmm_import(int pid, const struct axon_memkind_ipc_part *p, int device, CUdeviceptr *local);
/* Lets device read an import too (one made for another GPU's copies). */
int axon_cuda_vmm_grant(CUdeviceptr local, size_t size, int device);
/* Unmaps an import and gives its addresses back. */
void axon_cuda_vmm_close(CUdeviceptr local, size_t size, int device);
/* Closes the exports (MPI_Finalize). */
void axon_cuda_vmm_finalize(void);

/* The memory-type cache's life, driven by install and uninstall. */
void axon_cuda_memtype_init(void);
void axon_cuda_memtype_finalize(void);

/* Pages known to be host memory until they are unmapped (axon_cuda_hostpage.c; the lookup is
 * axon_cuda_hostpage_known in cuda_support.h): note records the page of a, which the driver called host,
 * if the CPU can read it (nothing when libucm's memory events are unavailable). init (with
 * memtype_init) asks libucm for its events. */
void axon_cuda_hostpage_note(uintptr_t a);
void axon_cuda_hostpage_init(void);
void axon_cuda_hostpage_finalize(void);

#endif /* AXON_HAVE_CUDA_H */

#endif
