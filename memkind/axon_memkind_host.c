/* The host kind's entry: plain memory the CPU reads and writes. It classifies everything as host and
 * copies with memcpy; what only a device has (bounce buffers, scratch, windows, IPC, kernels) it
 * refuses, so the callers need no test of the kind before they ask. */
#include "memkind/axon_memkind.h"
#include "runtime/axon_runtime_topo.h"

#include <string.h>

static int axon_memkind_host_init(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return MPI_SUCCESS;
}

static void axon_memkind_host_finalize(void)
{
}

static bool axon_memkind_host_yes(void)
{
    return true;
}

static bool axon_memkind_host_no(void)
{
    return false;
}

static int axon_memkind_host_gpu_ident(int host_local_rank, struct axon_runtime_gpu_ident *out)
{
    (void)host_local_rank;
    memset(out, 0, sizeof(*out));
    return MPI_SUCCESS;
}

static int axon_memkind_host_default_device(void)
{
    return -1;
}

static int axon_memkind_host_classify(const void *ptr, struct axon_memkind_info *info, bool *mine)
{
    (void)ptr;
    axon_memkind_set_host(info);
    *mine = true;
    return MPI_SUCCESS;
}

static int axon_memkind_host_copy_info(void *dst, const void *src, size_t len, const struct axon_memkind_info *info)
{
    (void)info;
    if (len)
        memcpy(dst, src, len);
    return MPI_SUCCESS;
}

static int axon_memkind_host_copy(void *dst, const void *src, size_t bytes, int device)
{
    (void)device;
    if (bytes)
        memcpy(dst, src, bytes);
    return MPI_SUCCESS;
}

static void *axon_memkind_host_get(size_t bytes, int device)
{
    (void)bytes;
    (void)device;
    return NULL;
}

static void axon_memkind_host_put(void *p, size_t bytes)
{
    (void)p;
    (void)bytes;
}

static void axon_memkind_host_scratch_put(void *p, size_t bytes, int device)
{
    (void)p;
    (void)bytes;
    (void)device;
}

static void axon_memkind_host_mem_free(void *p, int device)
{
    (void)p;
    (void)device;
}

static void *axon_memkind_host_window_mine(size_t bytes, int device, struct axon_memkind_window_id *id)
{
    (void)bytes;
    (void)device;
    (void)id;
    return NULL;
}

static void *axon_memkind_host_window_peer(int world, const struct axon_memkind_window_id *id, int device)
{
    (void)world;
    (void)id;
    (void)device;
    return NULL;
}

static int axon_memkind_host_ipc_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                                        bool fds_ok, bool settle, struct axon_memkind_ipc_desc *out)
{
    (void)ptr;
    (void)bytes;
    (void)info;
    (void)fds_ok;
    (void)settle;
    (void)out;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static int axon_memkind_host_device_refuse(int device)
{
    (void)device;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static void axon_memkind_host_ipc_release(const struct axon_memkind_ipc_desc *d)
{
    (void)d;
}

static int axon_memkind_host_ipc_copy_from(int peer, const struct axon_memkind_ipc_desc *d, void *dst, size_t bytes,
                                           const struct axon_memkind_info *dst_info)
{
    (void)peer;
    (void)d;
    (void)dst;
    (void)bytes;
    (void)dst_info;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static int axon_memkind_host_ipc_map_peer(int peer, const struct axon_memkind_ipc_desc *d, int device, void **local)
{
    (void)peer;
    (void)d;
    (void)device;
    *local = NULL;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static void axon_memkind_host_ipc_unmap_peer(int peer, const struct axon_memkind_ipc_desc *d)
{
    (void)peer;
    (void)d;
}

static int axon_memkind_host_reduce_kernel(const char *name)
{
    (void)name;
    return -1;
}

static int axon_memkind_host_reduce_run(int kernel, const void *in, void *inout, uint64_t n, int device)
{
    (void)kernel;
    (void)in;
    (void)inout;
    (void)n;
    (void)device;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static int axon_memkind_host_fold_run(int kernel, const void *const *in, int nin, void *const *out, int nout,
                                      uint64_t n, int device)
{
    (void)kernel;
    (void)in;
    (void)nin;
    (void)out;
    (void)nout;
    (void)n;
    (void)device;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

static int axon_memkind_host_copy_list_run(const void *const *src, void *const *dst, const uint64_t *bytes, int n,
                                           int device)
{
    (void)src;
    (void)dst;
    (void)bytes;
    (void)n;
    (void)device;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

const struct axon_memkind_ops axon_memkind_host_ops = {
    .name = "host",
    .init = axon_memkind_host_init,
    .finalize = axon_memkind_host_finalize,
    .enabled = axon_memkind_host_yes,
    .gpu_ident = axon_memkind_host_gpu_ident,
    .default_device = axon_memkind_host_default_device,
    .classify = axon_memkind_host_classify,
    .copy_to_host = axon_memkind_host_copy_info,
    .copy_from_host = axon_memkind_host_copy_info,
    .copy = axon_memkind_host_copy,
    .bounce_get = axon_memkind_host_get,
    .bounce_put = axon_memkind_host_put,
    .scratch_get = axon_memkind_host_get,
    .scratch_put = axon_memkind_host_scratch_put,
    .mem_alloc = axon_memkind_host_get,
    .mem_free = axon_memkind_host_mem_free,
    .window_mine = axon_memkind_host_window_mine,
    .window_peer = axon_memkind_host_window_peer,
    .ipc_available = axon_memkind_host_no,
    .ipc_export = axon_memkind_host_ipc_export,
    .ipc_settle = axon_memkind_host_device_refuse,
    .ipc_release = axon_memkind_host_ipc_release,
    .ipc_copy_from = axon_memkind_host_ipc_copy_from,
    .ipc_map_peer = axon_memkind_host_ipc_map_peer,
    .ipc_unmap_peer = axon_memkind_host_ipc_unmap_peer,
    .kernels_available = axon_memkind_host_no,
    .reduce_kernel = axon_memkind_host_reduce_kernel,
    .reduce_run = axon_memkind_host_reduce_run,
    .fold_run = axon_memkind_host_fold_run,
    .copy_list_run = axon_memkind_host_copy_list_run,
};
