/* The CUDA kind's entry: what cuda_support/ does for GPU memory, behind the table of memory kinds. It
 * classifies through the CUDA layer's cache of ranges and copies with the driver; the staging buffers,
 * IPC and kernels are the CUDA layer's own functions. A build without cuda.h gets the CUDA layer's
 * stand-ins, which say "no GPU", and a copy refused here. */
#include "cuda_support/axon_cuda_internal.h"
#include "memkind/axon_memkind.h"
#include "runtime/runtime.h"

#include <string.h>

#if AXON_HAVE_CUDA_H

static int axon_memkind_cuda_classify(const void *ptr, struct axon_memkind_info *info, bool *mine)
{
    *mine = false;
    if (!axon_cuda_enabled())
        return MPI_SUCCESS;
    int rc = axon_cuda_memtype_classify(ptr, info);
    if (rc == MPI_SUCCESS)
        *mine = info->kind == AXON_MEMKIND_CUDA;
    return rc;
}

/* One cuMemcpy (unified addressing tells the direction from the pointers) in the calling thread's
 * context, or in the buffer's device's primary context when the thread has none. */
static int axon_memkind_cuda_copy(void *dst, const void *src, size_t len,
                                       const struct axon_memkind_info *info, bool to_device)
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

static int axon_memkind_cuda_to_host(void *host_dst, const void *src, size_t len,
                                          const struct axon_memkind_info *info)
{
    return axon_memkind_cuda_copy(host_dst, src, len, info, false);
}

static int axon_memkind_cuda_from_host(void *dst, const void *host_src, size_t len,
                                            const struct axon_memkind_info *info)
{
    return axon_memkind_cuda_copy(dst, host_src, len, info, true);
}

#else /* !AXON_HAVE_CUDA_H: nothing is ever CUDA memory, and a copy of it is refused. */

static int axon_memkind_cuda_classify(const void *ptr, struct axon_memkind_info *info, bool *mine)
{
    (void)ptr;
    (void)info;
    *mine = false;
    return MPI_SUCCESS;
}

static int axon_memkind_cuda_refuse(void *dst, const void *src, size_t len,
                                         const struct axon_memkind_info *info)
{
    (void)dst;
    (void)src;
    (void)len;
    (void)info;
    axon_runtime_log_error("a copy of GPU memory was asked for, but this build has no CUDA support");
    return MPI_ERR_OTHER;
}
#define axon_memkind_cuda_to_host axon_memkind_cuda_refuse
#define axon_memkind_cuda_from_host axon_memkind_cuda_refuse

#endif

static int axon_memkind_cuda_init(char *err, size_t errlen)
{
    /* dlopen and cuInit only: no CUDA context is made here. */
    return axon_cuda_init(axon_config.cuda, axon_config.cuda_library, err, errlen);
}

static int axon_memkind_cuda_ipc_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                                        bool fds_ok, bool settle, struct axon_memkind_ipc_desc *out)
{
    return settle ? axon_cuda_ipc_export(ptr, bytes, info, fds_ok, out)
                  : axon_cuda_ipc_export_unsettled(ptr, bytes, info, fds_ok, out);
}

const struct axon_memkind_ops axon_memkind_cuda_ops = {
    .name = "cuda",
    .init = axon_memkind_cuda_init,
    .finalize = axon_cuda_finalize,
    .enabled = axon_cuda_enabled,
    .gpu_ident = axon_cuda_gpu_ident,
    .default_device = axon_cuda_default_device,
    .classify = axon_memkind_cuda_classify,
    .copy_to_host = axon_memkind_cuda_to_host,
    .copy_from_host = axon_memkind_cuda_from_host,
    .copy = axon_cuda_copy,
    .bounce_get = axon_cuda_bounce_get,
    .bounce_put = axon_cuda_bounce_put,
    .scratch_get = axon_cuda_scratch_get,
    .scratch_put = axon_cuda_scratch_put,
    .mem_alloc = axon_cuda_mem_alloc,
    .mem_free = axon_cuda_mem_free,
    .window_mine = axon_cuda_window_mine,
    .window_peer = axon_cuda_window_peer,
    .ipc_available = axon_cuda_ipc_available,
    .ipc_export = axon_memkind_cuda_ipc_export,
    .ipc_settle = axon_cuda_ipc_settle,
    .ipc_release = axon_cuda_ipc_release,
    .ipc_copy_from = axon_cuda_ipc_copy_from,
    .ipc_map_peer = axon_cuda_ipc_map_peer,
    .ipc_unmap_peer = axon_cuda_ipc_unmap_peer,
    .kernels_available = axon_cuda_reduce_available,
    .reduce_kernel = axon_cuda_reduce_kernel,
    .reduce_run = axon_cuda_reduce_run,
    .fold_run = axon_cuda_fold_run,
    .copy_list_run = axon_cuda_copy_list_run,
};

/* The layer above sizes its arrays by the table's limits; the kernels must take that many. */
_Static_assert(AXON_CUDA_FOLD_MAX >= AXON_MEMKIND_FOLD_MAX, "the CUDA fold takes fewer inputs than memkind's");
_Static_assert(AXON_CUDA_COPY_LIST_MAX >= AXON_MEMKIND_COPY_LIST_MAX, "the CUDA copy list is shorter than memkind's");
