/* CUDA IPC between the processes of a node: a sender exports the allocation that holds its message (the
 * driver's legacy IPC handle, cached per allocation, since each export asks the driver), and the
 * receiver opens it and copies straight from the sender's GPU memory into its own buffer (GPU or host).
 *
 * Opening a handle costs ~120 us on the H100 (../shared/gpu/README.md), so opened handles are cached per
 * (peer, buffer id), at most AXON_CUDA_IPC_CACHE_MAX of them, the least recently used closed first. A
 * sender that frees an allocation and gets the same address back exports a new buffer id: the entry of
 * the old one covers the same addresses and is closed before the new one opens, so a stale mapping is
 * never read. Only cuMemAlloc memory has legacy handles: anything else (VMM, pool or managed memory)
 * makes the export fail and the caller stages through host memory instead. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if AXON_HAVE_CUDA_H

_Static_assert(sizeof(CUipcMemHandle) == AXON_CUDA_IPC_HANDLE_BYTES, "the descriptor holds a handle");

/* Handles this process exported, by allocation (an export is a driver call). */
#define AXON_CUDA_IPC_EXPORTS 64

struct axon_cuda_ipc_export {
    uint64_t id;
    uintptr_t base;
    unsigned char handle[AXON_CUDA_IPC_HANDLE_BYTES];
    uint64_t used;
};

struct axon_cuda_ipc_open {
    int peer;
    uint64_t id;
    uintptr_t remote_base;
    size_t size;
    CUdeviceptr local;
    int device;
    uint64_t used;
};

static struct {
    pthread_mutex_t lock;
    struct axon_cuda_ipc_export exports[AXON_CUDA_IPC_EXPORTS];
    struct axon_cuda_ipc_open *opened;
    int nopened, cap;
    uint64_t clock;
} axon_ipc = {.lock = PTHREAD_MUTEX_INITIALIZER};

bool axon_cuda_ipc_available(void)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    return axon_cuda_enabled() && axon_config.cuda_ipc && d && d->ipc_get_mem_handle && d->ipc_open_mem_handle &&
           d->ipc_close_mem_handle;
}

int axon_cuda_ipc_export(const void *ptr, const struct axon_cuda_memtype_info *info, struct axon_cuda_ipc_desc *out)
{
    if (info->type != AXON_CUDA_MEMTYPE_DEVICE || info->id == 0 || info->size == 0 || !axon_cuda_ipc_available())
        return MPI_ERR_UNSUPPORTED_OPERATION;
    pthread_mutex_lock(&axon_ipc.lock);
    struct axon_cuda_ipc_export *slot = NULL, *oldest = &axon_ipc.exports[0];
    for (int i = 0; i < AXON_CUDA_IPC_EXPORTS; i++) {
        struct axon_cuda_ipc_export *e = &axon_ipc.exports[i];
        if (e->used && e->id == info->id && e->base == info->base) {
            slot = e;
            break;
        }
        if (e->used < oldest->used)
            oldest = e;
    }
    int rc = MPI_SUCCESS;
    if (!slot) {
        bool pushed;
        rc = axon_cuda_ctx_enter(info->device, &pushed);
        if (rc == MPI_SUCCESS) {
            CUipcMemHandle h;
            CUresult cr = axon_cuda.drv->ipc_get_mem_handle(&h, (CUdeviceptr)info->base);
            axon_cuda_ctx_leave(pushed);
            if (cr == CUDA_SUCCESS) {
                slot = oldest;
                slot->id = info->id;
                slot->base = info->base;
                memcpy(slot->handle, &h, sizeof(h));
            } else {
                /* Not legacy-IPC memory (a pool's, say): the caller stages it instead. */
                axon_runtime_log_debug(2, "no IPC handle for GPU memory at %p: %s", ptr,
                                       axon_cuda_driver_error_string(cr));
                rc = MPI_ERR_UNSUPPORTED_OPERATION;
            }
        }
    }
    if (slot) {
        slot->used = ++axon_ipc.clock;
        memcpy(out->handle, slot->handle, sizeof(out->handle));
        out->id = info->id;
        out->base = info->base;
        out->size = info->size;
        out->offset = (uintptr_t)ptr - info->base;
    }
    pthread_mutex_unlock(&axon_ipc.lock);
    return rc;
}

static void axon_cuda_ipc_close(struct axon_cuda_ipc_open *o)
{
    bool pushed;
    if (axon_cuda_ctx_enter(o->device, &pushed) == MPI_SUCCESS) {
        CUresult cr = axon_cuda.drv->ipc_close_mem_handle(o->local);
        axon_cuda_ctx_leave(pushed);
        if (cr != CUDA_SUCCESS)
            axon_runtime_log_error("closing the IPC mapping of rank %d's GPU memory failed: %s", o->peer,
                                   axon_cuda_driver_error_string(cr));
    }
}

/* The local address of peer's allocation d (opened now or found in the cache). Under the lock. */
static int axon_cuda_ipc_map(int peer, const struct axon_cuda_ipc_desc *d, int device, CUdeviceptr *local)
{
    for (int i = 0; i < axon_ipc.nopened; i++) {
        struct axon_cuda_ipc_open *o = &axon_ipc.opened[i];
        if (o->peer != peer || d->base >= o->remote_base + o->size || o->remote_base >= d->base + d->size)
            continue;
        if (o->id == d->id && o->remote_base == d->base) {
            o->used = ++axon_ipc.clock;
            *local = o->local;
            return MPI_SUCCESS;
        }
        /* The same addresses, another allocation: the old one was freed there. */
        axon_cuda_ipc_close(o);
        axon_ipc.opened[i--] = axon_ipc.opened[--axon_ipc.nopened];
    }
    long max = axon_config.cuda_ipc_cache_max > 0 ? axon_config.cuda_ipc_cache_max : 1;
    while (axon_ipc.nopened >= max) {
        int lru = 0;
        for (int i = 1; i < axon_ipc.nopened; i++)
            if (axon_ipc.opened[i].used < axon_ipc.opened[lru].used)
                lru = i;
        axon_cuda_ipc_close(&axon_ipc.opened[lru]);
        axon_ipc.opened[lru] = axon_ipc.opened[--axon_ipc.nopened];
    }
    if (axon_ipc.nopened == axon_ipc.cap) {
        int cap = axon_ipc.cap ? 2 * axon_ipc.cap : 16;
        struct axon_cuda_ipc_open *v = realloc(axon_ipc.opened, sizeof(*v) * (size_t)cap);
        if (!v)
            return MPI_ERR_NO_MEM;
        axon_ipc.opened = v;
        axon_ipc.cap = cap;
    }
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    CUipcMemHandle h;
    memcpy(&h, d->handle, sizeof(h));
    CUresult cr = axon_cuda.drv->ipc_open_mem_handle(local, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("opening rank %d's GPU memory through CUDA IPC failed: %s", peer,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    axon_ipc.opened[axon_ipc.nopened++] = (struct axon_cuda_ipc_open){
        .peer = peer, .id = d->id, .remote_base = d->base, .size = d->size, .local = *local, .device = device,
        .used = ++axon_ipc.clock};
    return MPI_SUCCESS;
}

int axon_cuda_ipc_copy_from(int peer, const struct axon_cuda_ipc_desc *d, void *dst, size_t bytes,
                            const struct axon_cuda_memtype_info *dst_info)
{
    if (bytes == 0)
        return MPI_SUCCESS;
    if (d->offset + bytes > d->size) {
        axon_runtime_log_error("rank %d's IPC descriptor does not hold %zu bytes", peer, bytes);
        return MPI_ERR_OTHER;
    }
    /* The copy runs in the receiving buffer's GPU's context, or the first GPU's for host memory. */
    int device = dst_info->device >= 0 ? dst_info->device : 0;
    pthread_mutex_lock(&axon_ipc.lock);
    CUdeviceptr src;
    int rc = axon_cuda_ipc_map(peer, d, device, &src);
    pthread_mutex_unlock(&axon_ipc.lock);
    if (rc != MPI_SUCCESS)
        return rc;
    bool pushed;
    rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct axon_cuda_driver *drv = axon_cuda.drv;
    CUresult cr = drv->mem_copy((CUdeviceptr)dst, src + d->offset, bytes);
    /* A device-to-device cuMemcpy returns before the copy ends: the sender may reuse its buffer as soon
     * as we say we are done. */
    if (cr == CUDA_SUCCESS)
        cr = drv->stream_synchronize(CU_STREAM_LEGACY);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("copying %zu bytes from rank %d's GPU memory failed: %s", bytes, peer,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_cuda_ipc_cached(void)
{
    pthread_mutex_lock(&axon_ipc.lock);
    int n = axon_ipc.nopened;
    pthread_mutex_unlock(&axon_ipc.lock);
    return n;
}

void axon_cuda_ipc_finalize(void)
{
    pthread_mutex_lock(&axon_ipc.lock);
    if (axon_cuda.drv)
        for (int i = 0; i < axon_ipc.nopened; i++)
            axon_cuda_ipc_close(&axon_ipc.opened[i]);
    free(axon_ipc.opened);
    axon_ipc.opened = NULL;
    axon_ipc.nopened = axon_ipc.cap = 0;
    memset(axon_ipc.exports, 0, sizeof(axon_ipc.exports));
    pthread_mutex_unlock(&axon_ipc.lock);
}

#else /* !AXON_HAVE_CUDA_H */

bool axon_cuda_ipc_available(void)
{
    return false;
}

int axon_cuda_ipc_export(const void *ptr, const struct axon_cuda_memtype_info *info, struct axon_cuda_ipc_desc *out)
{
    (void)ptr, (void)info, (void)out;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

int axon_cuda_ipc_copy_from(int peer, const struct axon_cuda_ipc_desc *d, void *dst, size_t bytes,
                            const struct axon_cuda_memtype_info *dst_info)
{
    (void)peer, (void)d, (void)dst, (void)bytes, (void)dst_info;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

int axon_cuda_ipc_cached(void)
{
    return 0;
}

void axon_cuda_ipc_finalize(void)
{
}

#endif
