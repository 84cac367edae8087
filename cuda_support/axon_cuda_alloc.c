/* Device memory the library allocates for the program: a window's memory when MPI_Win_allocate's info
 * asks for "cuda:device" (mpi_memory_alloc_kinds). Straight from the driver and back, in the device's
 * primary context, with no cache: such memory lives as long as its window, and the collectives' scratch
 * cache (axon_cuda_reduce.c) is for memory the library uses briefly itself. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#if AXON_HAVE_CUDA_H

void *axon_cuda_mem_alloc(size_t bytes, int device)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d || !d->mem_alloc || device < 0)
        return NULL;
    bool pushed;
    if (axon_cuda_ctx_enter(device, &pushed) != MPI_SUCCESS)
        return NULL;
    CUdeviceptr p = 0;
    CUresult cr = d->mem_alloc(&p, bytes ? bytes : 1);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("cuMemAlloc of %zu bytes on GPU %d failed: %s", bytes, device,
                               axon_cuda_driver_error_string(cr));
        return NULL;
    }
    return (void *)(uintptr_t)p;
}

void axon_cuda_mem_free(void *p, int device)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    bool pushed;
    if (!p || !d || !d->mem_free || axon_cuda_ctx_enter(device, &pushed) != MPI_SUCCESS)
        return;
    CUresult cr = d->mem_free((CUdeviceptr)(uintptr_t)p);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS)
        axon_runtime_log_error("cuMemFree on GPU %d failed: %s", device, axon_cuda_driver_error_string(cr));
}

#else /* !AXON_HAVE_CUDA_H: no device memory exists */

void *axon_cuda_mem_alloc(size_t bytes, int device)
{
    (void)bytes;
    (void)device;
    return NULL;
}

void axon_cuda_mem_free(void *p, int device)
{
    (void)p;
    (void)device;
}

#endif
