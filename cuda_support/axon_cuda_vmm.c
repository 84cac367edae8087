/* CUDA IPC of VMM memory (cuMemCreate allocations mapped with cuMemMap, as PyTorch's expandable segments
 * are): this file owns the sender's exports (each physical allocation's POSIX fd, cached per allocation:
 * an export is a driver call) and the receiver's side of one import (taking the fd, importing, mapping,
 * granting access, and undoing it). The cache of imports is axon_cuda_ipc.c's, shared with legacy
 * handles.
 *
 * A message in VMM memory may lie across several allocations mapped side by side; the sender walks its
 * range mapping by mapping and names each allocation (memory block id, its mapping, its fd). The fds
 * reach the receiver by pidfd_getfd: the sender only writes its descriptor numbers into the descriptor
 * and keeps the fds open until the send completes, and the receiver takes copies when it matches. We
 * chose it over SCM_RIGHTS on a Unix socket because the descriptor then travels like any other (ring or
 * UCX, in MPI order), nothing is connected or listened to per pair of ranks, one export serves every
 * peer and every message, and no fd can sit unread in a socket. It needs Linux 5.6 and the right to
 * ptrace the sender, which is what process_vm_readv needs: the sender asks for it only towards a peer
 * that proved it can read our memory (the node rings' CMA probe; MPI_Init set PR_SET_PTRACER_ANY), and
 * only once pidfd_getfd worked on itself here (no seccomp filter refusing it); otherwise VMM messages
 * are staged through host memory.
 *
 * Each cached export holds the physical memory alive while its fd is open, even after the application
 * released the allocation: an export is closed when the same addresses are exported with another
 * block id (the application re-created memory there), when it is the least recently used of
 * AXON_CUDA_VMM_EXPORTS, and at MPI_Finalize; never while a send that names it is in flight. A driver
 * without memory block ids cannot tell a re-created allocation at the same address, so its exports are
 * made afresh for every message and closed when the send completes. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if AXON_HAVE_CUDA_H

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/* The memory block id attribute of CUDA 12.x drivers, by number (older cuda.h lack the name). */
#define AXON_CUDA_VMM_ATTRIBUTE_BLOCK_ID ((CUpointer_attribute)20)
/* Exports kept open. */
#define AXON_CUDA_VMM_EXPORTS 64

struct axon_cuda_vmm_export {
    bool live;
    bool once;          /* no block id: closed when its send completes */
    uint64_t id;
    uintptr_t base;
    size_t size;
    int fd;
    int inflight;       /* sends naming it, not yet complete */
    uint64_t used;
};

static struct {
    pthread_mutex_t lock;
    struct axon_cuda_vmm_export exports[AXON_CUDA_VMM_EXPORTS];
    uint64_t clock;
} axon_vmm = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* -1: not tried yet; 0: pidfd_getfd refused here; 1: it works. */
static atomic_int axon_cuda_vmm_pidfd = -1;

int axon_cuda_take_fd(int pid, int fd)
{
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0)
        return -1;
    int mine = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
    int err = errno;
    close(pidfd);
    errno = err;
    return mine;
}

bool axon_cuda_vmm_available(void)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d || !d->mem_retain_allocation_handle || !d->mem_release || !d->mem_export_to_shareable_handle ||
        !d->mem_import_from_shareable_handle || !d->mem_address_reserve || !d->mem_address_free || !d->mem_map ||
        !d->mem_unmap || !d->mem_set_access)
        return false;
    return axon_cuda_take_fd_works();
}

bool axon_cuda_take_fd_works(void)
{
    int ok = atomic_load_explicit(&axon_cuda_vmm_pidfd, memory_order_relaxed);
    if (ok < 0) {
        /* Taking one of our own descriptors (the pidfd itself) shows the kernel has the calls and no
         * filter refuses them. */
        int pidfd = (int)syscall(SYS_pidfd_open, (int)getpid(), 0);
        int probe = pidfd >= 0 ? (int)syscall(SYS_pidfd_getfd, pidfd, pidfd, 0) : -1;
        if (probe < 0)
            axon_runtime_log_debug(1, "pidfd_getfd: %s: GPU messages in VMM memory and the staging windows go through other paths", strerror(errno));
        else
            close(probe);
        if (pidfd >= 0)
            close(pidfd);
        ok = probe >= 0;
        atomic_store_explicit(&axon_cuda_vmm_pidfd, ok, memory_order_relaxed);
    }
    return ok == 1;
}

static void axon_cuda_vmm_export_close(struct axon_cuda_vmm_export *e)
{
    close(e->fd);
    e->live = false;
}

/* An export of the allocation mapped at [base, base + size) with block id id (0: none), one more
 * send holding it; NULL when the driver refuses (the allocation was made without the POSIX fd handle
 * type) or every slot is held by sends in flight. Under the lock. */
static struct axon_cuda_vmm_export *axon_cuda_vmm_export_get(uint64_t id, uintptr_t base, size_t size, int device)
{
    struct axon_cuda_vmm_export *slot = NULL, *lru = NULL;
    for (int i = 0; i < AXON_CUDA_VMM_EXPORTS; i++) {
        struct axon_cuda_vmm_export *e = &axon_vmm.exports[i];
        if (!e->live)
            continue;
        if (id && e->id == id && e->base == base && e->size == size) {
            slot = e;
            break;
        }
        /* Other memory at these addresses now: the allocation exported there was released. */
        if (e->inflight == 0 && !e->once && e->base < base + size && base < e->base + e->size)
            axon_cuda_vmm_export_close(e);
    }
    if (!slot) {
        for (int i = 0; i < AXON_CUDA_VMM_EXPORTS && !slot; i++)
            if (!axon_vmm.exports[i].live)
                slot = &axon_vmm.exports[i];
        for (int i = 0; i < AXON_CUDA_VMM_EXPORTS && !slot; i++) {
            struct axon_cuda_vmm_export *e = &axon_vmm.exports[i];
            if (e->inflight == 0 && (!lru || e->used < lru->used))
                lru = e;
        }
        if (!slot && !lru)
            return NULL;
        if (!slot) {
            axon_cuda_vmm_export_close(lru);
            slot = lru;
        }
        const struct axon_cuda_driver *d = axon_cuda.drv;
        bool pushed;
        if (axon_cuda_ctx_enter(device, &pushed) != MPI_SUCCESS)
            return NULL;
        CUmemGenericAllocationHandle h;
        int fd = -1;
        CUresult cr = d->mem_retain_allocation_handle(&h, (void *)base);
        if (cr == CUDA_SUCCESS) {
            cr = d->mem_export_to_shareable_handle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
            d->mem_release(h);
        }
        axon_cuda_ctx_leave(pushed);
        if (cr != CUDA_SUCCESS) {
            axon_runtime_log_debug(2, "no POSIX fd for the GPU memory at %#lx: %s", (unsigned long)base,
                                   axon_cuda_driver_error_string(cr));
            return NULL;
        }
        *slot = (struct axon_cuda_vmm_export){.live = true, .once = id == 0, .id = id, .base = base, .size = size,
                                              .fd = fd};
    }
    slot->inflight++;
    slot->used = ++axon_vmm.clock;
    return slot;
}

/* Drops a send's hold on the export of fd. Under the lock. */
static void axon_cuda_vmm_export_put(int fd)
{
    for (int i = 0; i < AXON_CUDA_VMM_EXPORTS; i++) {
        struct axon_cuda_vmm_export *e = &axon_vmm.exports[i];
        if (e->live && e->fd == fd && e->inflight > 0) {
            if (--e->inflight == 0 && e->once)
                axon_cuda_vmm_export_close(e);
            return;
        }
    }
}

int axon_cuda_vmm_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                         struct axon_memkind_ipc_desc *out)
{
    uintptr_t a = (uintptr_t)ptr, end = a + bytes;
    struct axon_memkind_info m = *info;
    uint32_t n = 0;
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_vmm.lock);
    for (;;) {
        /* The next mapping must start where the last ended: a hole, or other memory, ends the walk. */
        if (m.type != AXON_CUDA_MEMTYPE_VMM || m.size == 0 || (n > 0 && m.base != out->parts[n - 1].base +
                                                                                 out->parts[n - 1].size) ||
            n == AXON_MEMKIND_IPC_PARTS_MAX) {
            rc = MPI_ERR_UNSUPPORTED_OPERATION;
            break;
        }
        unsigned long long id = 0;
        if (axon_cuda.drv->pointer_get_attribute(&id, AXON_CUDA_VMM_ATTRIBUTE_BLOCK_ID, (CUdeviceptr)m.base) !=
            CUDA_SUCCESS)
            id = 0;
        struct axon_cuda_vmm_export *e = axon_cuda_vmm_export_get(id, m.base, m.size, m.device);
        if (!e) {
            rc = MPI_ERR_UNSUPPORTED_OPERATION;
            break;
        }
        out->parts[n++] = (struct axon_memkind_ipc_part){.id = id, .base = m.base, .size = m.size, .fd = e->fd};
        uintptr_t next = m.base + m.size;
        if (next >= end)
            break;
        if (axon_cuda_memtype_of((const void *)next, &m) != MPI_SUCCESS) {
            rc = MPI_ERR_UNSUPPORTED_OPERATION;
            break;
        }
    }
    if (rc != MPI_SUCCESS) {
        for (uint32_t i = 0; i < n; i++)
            axon_cuda_vmm_export_put(out->parts[i].fd);
        pthread_mutex_unlock(&axon_vmm.lock);
        return rc;
    }
    pthread_mutex_unlock(&axon_vmm.lock);
    memset(out->handle, 0, sizeof(out->handle));
    out->nparts = n;
    out->pid = (int32_t)getpid();
    out->id = 0;
    out->base = out->parts[0].base;
    out->size = out->parts[n - 1].base + out->parts[n - 1].size - out->base;
    out->offset = a - out->base;
    return MPI_SUCCESS;
}

void axon_cuda_vmm_release(const struct axon_memkind_ipc_desc *d)
{
    pthread_mutex_lock(&axon_vmm.lock);
    for (uint32_t i = 0; i < d->nparts && i < AXON_MEMKIND_IPC_PARTS_MAX; i++)
        axon_cuda_vmm_export_put(d->parts[i].fd);
    pthread_mutex_unlock(&axon_vmm.lock);
}

int axon_cuda_vmm_grant(CUdeviceptr local, size_t size, int device)
{
    /* Read access is all a receiver needs. */
    CUmemAccessDesc access = {.location = {.type = CU_MEM_LOCATION_TYPE_DEVICE, .id = device},
                              .flags = CU_MEM_ACCESS_FLAGS_PROT_READ};
    CUresult cr = axon_cuda.drv->mem_set_access(local, size, &access, 1);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("letting GPU %d read an imported allocation failed: %s", device,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_cuda_vmm_import(int pid, const struct axon_memkind_ipc_part *p, int device, CUdeviceptr *local)
{
    int fd = axon_cuda_take_fd(pid, p->fd);
    if (fd < 0) {
        axon_runtime_log_error("taking process %d's GPU memory descriptor %d with pidfd_getfd failed: %s", pid,
                               (int)p->fd, strerror(errno));
        return MPI_ERR_OTHER;
    }
    const struct axon_cuda_driver *d = axon_cuda.drv;
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS) {
        close(fd);
        return rc;
    }
    CUmemGenericAllocationHandle h;
    CUdeviceptr va = 0;
    const char *step = "import";
    CUresult cr = d->mem_import_from_shareable_handle(&h, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    close(fd); /* the imported handle holds the memory */
    if (cr == CUDA_SUCCESS) {
        step = "address reservation";
        cr = d->mem_address_reserve(&va, (size_t)p->size, 0, 0, 0);
        if (cr == CUDA_SUCCESS) {
            step = "mapping";
            cr = d->mem_map(va, (size_t)p->size, 0, h, 0);
            if (cr != CUDA_SUCCESS)
                d->mem_address_free(va, (size_t)p->size);
        }
        d->mem_release(h); /* the mapping holds it from now on */
    }
    if (cr == CUDA_SUCCESS && axon_cuda_vmm_grant(va, (size_t)p->size, device) != MPI_SUCCESS) {
        d->mem_unmap(va, (size_t)p->size);
        d->mem_address_free(va, (size_t)p->size);
        axon_cuda_ctx_leave(pushed);
        return MPI_ERR_OTHER;
    }
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("process %d's GPU memory (%llu bytes): %s failed: %s", pid,
                               (unsigned long long)p->size, step, axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    *local = va;
    return MPI_SUCCESS;
}

void axon_cuda_vmm_close(CUdeviceptr local, size_t size, int device)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    bool pushed;
    if (axon_cuda_ctx_enter(device, &pushed) != MPI_SUCCESS)
        return;
    CUresult cr = d->mem_unmap(local, size);
    if (cr == CUDA_SUCCESS)
        cr = d->mem_address_free(local, size);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS)
        axon_runtime_log_error("unmapping an imported GPU allocation failed: %s", axon_cuda_driver_error_string(cr));
}

void axon_cuda_vmm_finalize(void)
{
    pthread_mutex_lock(&axon_vmm.lock);
    for (int i = 0; i < AXON_CUDA_VMM_EXPORTS; i++)
        if (axon_vmm.exports[i].live)
            axon_cuda_vmm_export_close(&axon_vmm.exports[i]);
    pthread_mutex_unlock(&axon_vmm.lock);
}

#else

typedef int axon_cuda_vmm_none; /* a build without cuda.h: IPC of VMM memory does not exist */

#endif /* AXON_HAVE_CUDA_H */
