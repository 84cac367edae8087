/* The memory kinds: one table of operations per kind of memory (host, CUDA; later others), indexed by
 * enum axon_cuda_memkind, so the engines above move any buffer through the same few calls and never
 * call a driver (libfabric's hmem_ops[] are the model). This file owns the table and the entries of
 * both kinds. For now an entry classifies and copies synchronously; registration with the transport,
 * IPC handles and stream-ordered copies join it as the protocols that need them arrive. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <string.h>

static int axon_cuda_memkind_host_classify(const void *ptr, struct axon_cuda_memtype_info *info, bool *mine)
{
    (void)ptr;
    axon_cuda_memtype_set_host(info);
    *mine = true;
    return MPI_SUCCESS;
}

static int axon_cuda_memkind_host_copy(void *dst, const void *src, size_t len,
                                       const struct axon_cuda_memtype_info *info)
{
    (void)info;
    if (len)
        memcpy(dst, src, len);
    return MPI_SUCCESS;
}

#if AXON_HAVE_CUDA_H

static int axon_cuda_memkind_cuda_classify(const void *ptr, struct axon_cuda_memtype_info *info, bool *mine)
{
    *mine = false;
    if (!axon_cuda_enabled())
        return MPI_SUCCESS;
    int rc = axon_cuda_memtype_classify(ptr, info);
    if (rc == MPI_SUCCESS)
        *mine = info->kind == AXON_CUDA_MEMKIND_CUDA;
    return rc;
}

/* One cuMemcpy (unified addressing tells the direction from the pointers) in the calling thread's
 * context, or in the buffer's device's primary context when the thread has none. */
static int axon_cuda_memkind_cuda_copy(void *dst, const void *src, size_t len,
                                       const struct axon_cuda_memtype_info *info, bool to_device)
{
    if (!axon_cuda_enabled()) {
        axon_runtime_log_error("a copy of GPU memory was asked for while CUDA support is off (%s)",
                               axon_cuda_status());
        return MPI_ERR_OTHER;
    }
    if (len == 0)
        return MPI_SUCCESS;
    bool pushed;
    int rc = axon_cuda_ctx_enter(info->device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    /* A copy from pageable host memory to the device may return once the bytes are staged, before they
     * land; the wait on the legacy stream makes them visible to work the application then starts on
     * any stream. */
    enum axon_cuda_side gpu = axon_cuda_side_of(info);
    CUresult cr = to_device ? axon_cuda_copy_sync(dst, gpu, src, AXON_CUDA_SIDE_HOST, len)
                            : axon_cuda_copy_sync(dst, AXON_CUDA_SIDE_HOST, src, gpu, len);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("copy of %zu bytes %s GPU %d memory at %p failed: %s", len, to_device ? "to" : "from",
                               info->device, to_device ? dst : (void *)src, axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

static int axon_cuda_memkind_cuda_to_host(void *host_dst, const void *src, size_t len,
                                          const struct axon_cuda_memtype_info *info)
{
    return axon_cuda_memkind_cuda_copy(host_dst, src, len, info, false);
}

static int axon_cuda_memkind_cuda_from_host(void *dst, const void *host_src, size_t len,
                                            const struct axon_cuda_memtype_info *info)
{
    return axon_cuda_memkind_cuda_copy(dst, host_src, len, info, true);
}

#else /* !AXON_HAVE_CUDA_H: nothing is ever CUDA memory, and a copy of it is refused. */

static int axon_cuda_memkind_cuda_classify(const void *ptr, struct axon_cuda_memtype_info *info, bool *mine)
{
    (void)ptr;
    (void)info;
    *mine = false;
    return MPI_SUCCESS;
}

static int axon_cuda_memkind_cuda_refuse(void *dst, const void *src, size_t len,
                                         const struct axon_cuda_memtype_info *info)
{
    (void)dst;
    (void)src;
    (void)len;
    (void)info;
    axon_runtime_log_error("a copy of GPU memory was asked for, but this build has no CUDA support");
    return MPI_ERR_OTHER;
}
#define axon_cuda_memkind_cuda_to_host axon_cuda_memkind_cuda_refuse
#define axon_cuda_memkind_cuda_from_host axon_cuda_memkind_cuda_refuse

#endif

static const struct axon_cuda_memkind_ops axon_cuda_memkinds[AXON_CUDA_MEMKIND_COUNT] = {
    [AXON_CUDA_MEMKIND_HOST] = {"host", axon_cuda_memkind_host_classify, axon_cuda_memkind_host_copy,
                                axon_cuda_memkind_host_copy},
    [AXON_CUDA_MEMKIND_CUDA] = {"cuda", axon_cuda_memkind_cuda_classify, axon_cuda_memkind_cuda_to_host,
                                axon_cuda_memkind_cuda_from_host},
};

const struct axon_cuda_memkind_ops *axon_cuda_memkind_get(enum axon_cuda_memkind kind)
{
    if ((unsigned)kind >= AXON_CUDA_MEMKIND_COUNT)
        return NULL;
    return &axon_cuda_memkinds[kind];
}
