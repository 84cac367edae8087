/* CUDA IPC between the processes of a node: a sender exports the allocation that holds its message (the
 * driver's legacy IPC handle, cached per allocation, since each export asks the driver; for VMM memory
 * the physical allocations under the message, as POSIX fds: axon_cuda_vmm.c), and the receiver opens it
 * and copies straight from the sender's GPU memory into its own buffer (GPU or host). This file owns the
 * legacy exports, the receiver's cache of opened handles and imports, and the copies.
 *
 * Opening a handle maps the peer's memory into this process, a driver call that costs more than most
 * messages (bench/results/2026-11-26-h200-first.md), so opened handles are cached per
 * (peer, buffer id), and imported VMM allocations per (peer, memory block id), in one table of at most
 * AXON_CUDA_IPC_CACHE_MAX entries, the least recently used closed first. A sender that frees an
 * allocation and gets the same address back exports a new id: the entry of the old one covers the same
 * addresses and is closed before the new one opens, so a stale mapping is never read. A VMM message
 * across several allocations is copied allocation by allocation, each imported and mapped on its own:
 * an entry then serves every later message that touches its allocation, whatever allocations lie
 * beside it (an expandable segment that grows adds allocations, it does not change the old ones).
 * Pool and managed memory have no handles: the export fails and the caller stages through host memory
 * instead. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if AXON_HAVE_CUDA_H

_Static_assert(sizeof(CUipcMemHandle) == AXON_MEMKIND_IPC_HANDLE_BYTES, "the descriptor holds a handle");

/* Microseconds, for the debug messages that say what each driver call of a GPU message cost
 * (AXON_VERBOSE=2: exports and opens; 3: every copy), read only when they print. */
static double axon_cuda_ipc_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

/* Handles this process exported, by allocation (an export is a driver call). */
#define AXON_CUDA_IPC_EXPORTS 64

struct axon_cuda_ipc_export {
    uint64_t id;
    uintptr_t base;
    unsigned char handle[AXON_MEMKIND_IPC_HANDLE_BYTES];
    uint64_t used;
};

struct axon_cuda_ipc_open {
    int peer;
    bool vmm;           /* an imported VMM allocation (else a legacy handle) */
    uint64_t id;
    uintptr_t remote_base;
    size_t size;
    CUdeviceptr local;
    int device;         /* the context it was opened in */
    bool near;          /* legacy: the memory is on that context's GPU, so its kernels read it */
    uint64_t access;    /* VMM: the GPUs allowed to read it (bit per ordinal) */
    uint64_t used;
    int pins;           /* callers using its address now (axon_cuda_ipc_map_peer): never closed then */
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

/* Peers read exported memory in place, from their own processes, where nothing orders their copies
 * after the work this process queued on the legacy default stream: a cuMemcpyHtoD from pageable memory,
 * for one, returns once the bytes are staged, before they land (a peer would otherwise read the
 * buffer's old contents). Waiting for that stream makes what the program wrote before the MPI call what
 * the peer reads; when it is idle the wait costs a driver call. Work the program queued on streams of
 * its own is its to wait for, as with any MPI call. */
int axon_cuda_ipc_settle(int device)
{
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    double t0 = axon_config.verbose >= 3 ? axon_cuda_ipc_us() : 0;
    CUresult cr = axon_cuda.drv->stream_synchronize(CU_STREAM_LEGACY);
    axon_cuda_ctx_leave(pushed);
    if (axon_config.verbose >= 3)
        axon_runtime_log_debug(3, "waited for GPU %d's default stream before an IPC export: %.1f us", device,
                               axon_cuda_ipc_us() - t0);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("waiting for GPU %d's default stream before a peer reads its memory failed: %s",
                               device, axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_cuda_ipc_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info, bool fds_ok,
                         struct axon_memkind_ipc_desc *out)
{
    int rc = axon_cuda_ipc_export_unsettled(ptr, bytes, info, fds_ok, out);
    return rc == MPI_SUCCESS ? axon_cuda_ipc_settle(info->device) : rc;
}

int axon_cuda_ipc_export_unsettled(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                                   bool fds_ok, struct axon_memkind_ipc_desc *out)
{
    out->kind = AXON_MEMKIND_CUDA;
    out->unused = 0;
    if (info->type == AXON_CUDA_MEMTYPE_VMM) {
        if (!fds_ok || bytes == 0 || !axon_cuda_ipc_available() || !axon_cuda_vmm_available())
            return MPI_ERR_UNSUPPORTED_OPERATION;
        return axon_cuda_vmm_export(ptr, bytes, info, out);
    }
    if (info->type != AXON_CUDA_MEMTYPE_DEVICE || info->id == 0 || info->size == 0 || !axon_cuda_ipc_available())
        return MPI_ERR_UNSUPPORTED_OPERATION;
    out->nparts = 0;
    out->pid = 0;
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
            double t0 = axon_config.verbose >= 2 ? axon_cuda_ipc_us() : 0;
            CUresult cr = axon_cuda.drv->ipc_get_mem_handle(&h, (CUdeviceptr)info->base);
            axon_cuda_ctx_leave(pushed);
            if (cr == CUDA_SUCCESS && axon_config.verbose >= 2)
                axon_runtime_log_debug(2, "exported GPU memory at %#lx (%zu bytes) for CUDA IPC: %.1f us",
                                       (unsigned long)info->base, info->size, axon_cuda_ipc_us() - t0);
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

void axon_cuda_ipc_release(const struct axon_memkind_ipc_desc *d)
{
    if (d->nparts > 0)
        axon_cuda_vmm_release(d);
}

static void axon_cuda_ipc_close(struct axon_cuda_ipc_open *o)
{
    if (o->vmm) {
        axon_cuda_vmm_close(o->local, o->size, o->device);
        return;
    }
    bool pushed;
    if (axon_cuda_ctx_enter(o->device, &pushed) == MPI_SUCCESS) {
        CUresult cr = axon_cuda.drv->ipc_close_mem_handle(o->local);
        axon_cuda_ctx_leave(pushed);
        if (cr != CUDA_SUCCESS)
            axon_runtime_log_error("closing the IPC mapping of rank %d's GPU memory failed: %s", o->peer,
                                   axon_cuda_driver_error_string(cr));
    }
}

/* Closes peer's entries over [base, base + size) of the sender's addresses but of another allocation
 * (id): the old one was freed there. Under the lock. */
static void axon_cuda_ipc_drop_stale(int peer, bool vmm, uint64_t id, uintptr_t base, size_t size)
{
    for (int i = 0; i < axon_ipc.nopened; i++) {
        struct axon_cuda_ipc_open *o = &axon_ipc.opened[i];
        if (o->peer != peer || base >= o->remote_base + o->size || o->remote_base >= base + size)
            continue;
        if ((o->vmm == vmm && o->id == id && id != 0 && o->remote_base == base && o->size == size) || o->pins)
            continue; /* the same allocation, or one in use: a pinned stale entry goes when unpinned */
        axon_cuda_ipc_close(o);
        axon_ipc.opened[i--] = axon_ipc.opened[--axon_ipc.nopened];
    }
}

/* The cached entry of peer's allocation, or NULL. Under the lock. */
static struct axon_cuda_ipc_open *axon_cuda_ipc_find(int peer, bool vmm, uint64_t id, uintptr_t base, size_t size)
{
    for (int i = 0; i < axon_ipc.nopened; i++) {
        struct axon_cuda_ipc_open *o = &axon_ipc.opened[i];
        if (o->peer == peer && o->vmm == vmm && o->id == id && o->remote_base == base && o->size == size) {
            o->used = ++axon_ipc.clock;
            return o;
        }
    }
    return NULL;
}

/* Room for one more entry: the least recently used go beyond AXON_CUDA_IPC_CACHE_MAX. Under the lock. */
static int axon_cuda_ipc_make_room(void)
{
    long max = axon_config.cuda_ipc_cache_max > 0 ? axon_config.cuda_ipc_cache_max : 1;
    while (axon_ipc.nopened >= max) {
        /* The least recently used of those not in use; all in use: the cache grows past its bound. */
        int lru = -1;
        for (int i = 0; i < axon_ipc.nopened; i++)
            if (!axon_ipc.opened[i].pins && (lru < 0 || axon_ipc.opened[i].used < axon_ipc.opened[lru].used))
                lru = i;
        if (lru < 0)
            break;
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
    return MPI_SUCCESS;
}

/* The device attribute of drivers since 12.x saying contexts on a GPU go through MPS, by number (older
 * cuda.h lack the name). */
#define AXON_CUDA_DEVICE_ATTRIBUTE_MPS_ENABLED ((CUdevice_attribute)133)

/* Says once per process, on the first peer memory it opens, that two ranks exchange GPU memory on one
 * GPU without MPS (the receiving side opens, so a pair that only sends one way hears it once): the GPU
 * then time-slices between their processes' contexts, and each message waits for a switch, far longer
 * than the copy, which no protocol of ours can avoid (bench/gpu_reference's ipc_pingpong_us measures it;
 * bench/results/2026-11-26-h200-gpu-copies.md). Silent when the driver cannot say (older drivers) or
 * with AXON_CUDA_MPS_WARN=0. on_device: the peer's memory, opened in device's context, lies on device. */
static void axon_cuda_ipc_mps_check(int peer, bool on_device, int device)
{
    static atomic_bool said;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!axon_config.cuda_mps_warn || atomic_load(&said) ||
        !d->device_get_attribute || device < 0 || device >= axon_cuda.ndevices)
        return;
    int mps = 0;
    if (!on_device ||
        d->device_get_attribute(&mps, AXON_CUDA_DEVICE_ATTRIBUTE_MPS_ENABLED, axon_cuda.devices[device]) !=
            CUDA_SUCCESS ||
        mps)
        return;
    if (atomic_exchange(&said, true))
        return;
    axon_runtime_log_error("warning: rank %d and this rank share GPU %d without MPS: every GPU message between "
                           "ranks of one GPU waits for it to switch between their processes (~150 us each on an "
                           "H200); start the job with `mpirun --mps` (or under an MPS daemon) to avoid it "
                           "(AXON_CUDA_MPS_WARN=0 silences this)",
                           peer, device);
}

/* The local address of peer's allocation d (opened now or found in the cache). *near (may be NULL):
 * the memory lies on device's GPU, where a kernel of device's context reads it for sure. Under the lock. */
static int axon_cuda_ipc_map(int peer, const struct axon_memkind_ipc_desc *d, int device, CUdeviceptr *local,
                             bool *near)
{
    axon_cuda_ipc_drop_stale(peer, false, d->id, d->base, d->size);
    struct axon_cuda_ipc_open *o = axon_cuda_ipc_find(peer, false, d->id, d->base, d->size);
    if (o) {
        *local = o->local;
        if (near)
            *near = o->near && o->device == device;
        return MPI_SUCCESS;
    }
    int rc = axon_cuda_ipc_make_room();
    if (rc != MPI_SUCCESS)
        return rc;
    bool pushed;
    rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    CUipcMemHandle h;
    memcpy(&h, d->handle, sizeof(h));
    double t0 = axon_config.verbose >= 2 ? axon_cuda_ipc_us() : 0;
    CUresult cr = axon_cuda.drv->ipc_open_mem_handle(local, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    axon_cuda_ctx_leave(pushed);
    if (cr == CUDA_SUCCESS && axon_config.verbose >= 2)
        axon_runtime_log_debug(2, "opened rank %d's GPU memory at %#lx (%zu bytes) through CUDA IPC: %.1f us", peer,
                               (unsigned long)d->base, (size_t)d->size, axon_cuda_ipc_us() - t0);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("opening rank %d's GPU memory through CUDA IPC failed: %s", peer,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    int home = -1;
    bool on_device = axon_cuda.drv->pointer_get_attribute(&home, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, *local) ==
                         CUDA_SUCCESS &&
                     home == device;
    axon_ipc.opened[axon_ipc.nopened++] = (struct axon_cuda_ipc_open){
        .peer = peer, .id = d->id, .remote_base = d->base, .size = d->size, .local = *local, .device = device,
        .near = on_device, .used = ++axon_ipc.clock};
    if (near)
        *near = on_device;
    axon_cuda_ipc_mps_check(peer, on_device, device);
    return MPI_SUCCESS;
}

/* The local address of one of peer's VMM allocations, readable by device: imported now or found in the
 * cache. *cached false: an allocation without block id, which the caller closes after its copy. Under
 * the lock. */
static int axon_cuda_ipc_map_part(int peer, int pid, const struct axon_memkind_ipc_part *p, int device, CUdeviceptr *local,
                                  bool *cached)
{
    axon_cuda_ipc_drop_stale(peer, true, p->id, p->base, p->size);
    struct axon_cuda_ipc_open *o = p->id ? axon_cuda_ipc_find(peer, true, p->id, p->base, p->size) : NULL;
    *cached = p->id != 0;
    if (o) {
        if (!(o->access >> device & 1)) {
            bool pushed;
            int rc = axon_cuda_ctx_enter(device, &pushed);
            if (rc == MPI_SUCCESS) {
                rc = axon_cuda_vmm_grant(o->local, o->size, device);
                axon_cuda_ctx_leave(pushed);
            }
            if (rc != MPI_SUCCESS)
                return rc;
            o->access |= 1ull << device;
        }
        *local = o->local;
        return MPI_SUCCESS;
    }
    int rc = *cached ? axon_cuda_ipc_make_room() : MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = axon_cuda_vmm_import(pid, p, device, local);
    if (rc != MPI_SUCCESS || !*cached)
        return rc;
    axon_ipc.opened[axon_ipc.nopened++] = (struct axon_cuda_ipc_open){
        .peer = peer, .vmm = true, .id = p->id, .remote_base = p->base, .size = p->size, .local = *local,
        .device = device, .access = 1ull << device, .used = ++axon_ipc.clock};
    return MPI_SUCCESS;
}

/* One synchronous copy from a peer's memory mapped here into dst, GPU or host memory (dside). near: a
 * kernel of device's context reads src (see axon_cuda_ipc_map). */
static int axon_cuda_ipc_copy(int peer, int device, CUdeviceptr dst, enum axon_cuda_side dside, CUdeviceptr src,
                              size_t bytes, bool near)
{
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    double t0 = axon_config.verbose >= 3 ? axon_cuda_ipc_us() : 0;
    /* Complete when it returns: the sender may reuse its buffer as soon as we say we are done. A small
     * message into GPU memory that a kernel reaches from where it lies: the library's copy kernel, one
     * launch, where a cuMemcpyDtoD between two processes' memory costs well above a copy within one
     * (ipc_copy8_us of bench/gpu_reference.c measures it). */
    rc = MPI_ERR_UNSUPPORTED_OPERATION; /* the kernel's answer where there is none */
    if (near && dside == AXON_CUDA_SIDE_DEVICE && bytes <= (size_t)axon_config.cuda_ipc_kernel_max)
        rc = axon_cuda_copy_kernel_run((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, device);
    bool by_kernel = rc != MPI_ERR_UNSUPPORTED_OPERATION;
    CUresult cr = CUDA_SUCCESS;
    if (!by_kernel) {
        cr = axon_cuda_copy_sync((void *)(uintptr_t)dst, dside, (const void *)(uintptr_t)src, AXON_CUDA_SIDE_DEVICE,
                                 bytes);
        rc = MPI_SUCCESS;
    }
    axon_cuda_ctx_leave(pushed);
    if (axon_config.verbose >= 3)
        axon_runtime_log_debug(3, "IPC copy (%s) of %zu bytes from rank %d into %s memory: %.1f us",
                               by_kernel ? "kernel" : "cuMemcpy", bytes, peer,
                               dside == AXON_CUDA_SIDE_HOST ? "host" : "GPU", axon_cuda_ipc_us() - t0);
    if (rc != MPI_SUCCESS)
        return rc; /* the kernel's failure, logged */
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("copying %zu bytes from rank %d's GPU memory failed: %s", bytes, peer,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

/* A VMM message: the bytes of each allocation it lies in, one copy each. */
static int axon_cuda_ipc_copy_parts(int peer, const struct axon_memkind_ipc_desc *d, char *dst, enum axon_cuda_side dside,
                                    size_t bytes, int device)
{
    uint64_t from = d->offset, to = d->offset + bytes, at = 0;
    for (uint32_t i = 0; i < d->nparts && at < to; i++) {
        const struct axon_memkind_ipc_part *p = &d->parts[i];
        if (p->base != d->base + at) {
            axon_runtime_log_error("rank %d's IPC descriptor names GPU memory with holes", peer);
            return MPI_ERR_OTHER;
        }
        uint64_t lo = from > at ? from : at, hi = to < at + p->size ? to : at + p->size;
        if (lo < hi) {
            CUdeviceptr src;
            bool cached;
            pthread_mutex_lock(&axon_ipc.lock);
            int rc = axon_cuda_ipc_map_part(peer, d->pid, p, device, &src, &cached);
            pthread_mutex_unlock(&axon_ipc.lock);
            if (rc == MPI_SUCCESS)
                rc = axon_cuda_ipc_copy(peer, device, (CUdeviceptr)(dst + (lo - from)), dside, src + (lo - at),
                                        hi - lo, true); /* access granted to device's context */
            if (rc == MPI_SUCCESS && !cached)
                axon_cuda_vmm_close(src, p->size, device);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        at += p->size;
    }
    return MPI_SUCCESS;
}

int axon_cuda_ipc_copy_from(int peer, const struct axon_memkind_ipc_desc *d, void *dst, size_t bytes,
                            const struct axon_memkind_info *dst_info)
{
    if (bytes == 0)
        return MPI_SUCCESS;
    if (d->offset + bytes > d->size) {
        axon_runtime_log_error("rank %d's IPC descriptor does not hold %zu bytes", peer, bytes);
        return MPI_ERR_OTHER;
    }
    /* The copy runs in the receiving buffer's GPU's context, or the first GPU's for host memory. */
    int device = dst_info->device >= 0 ? dst_info->device : 0;
    enum axon_cuda_side dside = axon_cuda_side_of(dst_info);
    if (d->nparts > 0)
        return axon_cuda_ipc_copy_parts(peer, d, dst, dside, bytes, device);
    pthread_mutex_lock(&axon_ipc.lock);
    CUdeviceptr src;
    bool near;
    int rc = axon_cuda_ipc_map(peer, d, device, &src, &near);
    pthread_mutex_unlock(&axon_ipc.lock);
    if (rc != MPI_SUCCESS)
        return rc;
    return axon_cuda_ipc_copy(peer, device, (CUdeviceptr)dst, dside, src + d->offset, bytes, near);
}

int axon_cuda_ipc_map_peer(int peer, const struct axon_memkind_ipc_desc *d, int device, void **local)
{
    if (d->nparts != 0)
        return MPI_ERR_UNSUPPORTED_OPERATION; /* VMM memory: copied through axon_cuda_ipc_copy_from */
    pthread_mutex_lock(&axon_ipc.lock);
    CUdeviceptr base;
    int rc = axon_cuda_ipc_map(peer, d, device, &base, NULL);
    if (rc == MPI_SUCCESS) {
        axon_cuda_ipc_find(peer, false, d->id, d->base, d->size)->pins++;
        *local = (void *)(uintptr_t)(base + d->offset);
    }
    pthread_mutex_unlock(&axon_ipc.lock);
    return rc;
}

void axon_cuda_ipc_unmap_peer(int peer, const struct axon_memkind_ipc_desc *d)
{
    pthread_mutex_lock(&axon_ipc.lock);
    struct axon_cuda_ipc_open *o = axon_cuda_ipc_find(peer, false, d->id, d->base, d->size);
    if (o && o->pins > 0)
        o->pins--;
    pthread_mutex_unlock(&axon_ipc.lock);
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
    axon_cuda_vmm_finalize();
}

#else /* !AXON_HAVE_CUDA_H */

bool axon_cuda_ipc_available(void)
{
    return false;
}

int axon_cuda_ipc_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info, bool fds_ok,
                         struct axon_memkind_ipc_desc *out)
{
    (void)ptr, (void)bytes, (void)info, (void)fds_ok, (void)out;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

int axon_cuda_ipc_export_unsettled(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                                   bool fds_ok, struct axon_memkind_ipc_desc *out)
{
    (void)ptr, (void)bytes, (void)info, (void)fds_ok, (void)out;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

int axon_cuda_ipc_settle(int device)
{
    (void)device;
    return MPI_SUCCESS;
}

void axon_cuda_ipc_release(const struct axon_memkind_ipc_desc *d)
{
    (void)d;
}

int axon_cuda_ipc_map_peer(int peer, const struct axon_memkind_ipc_desc *d, int device, void **local)
{
    (void)peer, (void)d, (void)device, (void)local;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

void axon_cuda_ipc_unmap_peer(int peer, const struct axon_memkind_ipc_desc *d)
{
    (void)peer, (void)d;
}

int axon_cuda_ipc_copy_from(int peer, const struct axon_memkind_ipc_desc *d, void *dst, size_t bytes,
                            const struct axon_memkind_info *dst_info)
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
