/* Staging windows: pinned host memory that the processes of a node share, so that a GPU message staged
 * between two of them (no CUDA IPC: AXON_CUDA_IPC=0, or memory without handles) crosses the host with
 * two DMA copies and no CPU copy: the sender copies a chunk off its GPU into a slot of its window, the
 * receiver copies it from the same pages onto its GPU. Through the transport instead, each chunk would
 * be copied twice more by CPUs (into UCX's fragments and out of them, from pageable memory), at a
 * fraction of a DMA's rate (bench/results/2026-11-26-h200-gpu-copies.md).
 *
 * A process's window is one memfd, mapped shared and registered with the driver (cuMemHostRegister,
 * portable: usable from every context), made when it first stages a message to a node peer and kept until
 * MPI_Finalize. A receiver takes the sender's descriptor with pidfd_getfd (axon_cuda_take_fd: the right
 * to ptrace the sender, which the node's CMA probe established), maps and registers it once, and keeps
 * it. The slots belong to the sender (pt2pt/axon_pt2pt_pipeline.c hands them out and gets them back);
 * this file owns the memory. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if AXON_HAVE_CUDA_H

/* A window mapped here: ours (world -1) or a peer's. */
struct axon_cuda_window_map {
    int world;
    int pid, fd; /* the owner's process and descriptor: a peer that makes a new window gets a new entry */
    char *base;
    size_t bytes;
    bool registered;
};

static struct {
    pthread_mutex_t lock;
    bool tried;                       /* our own window was attempted (it is not tried twice) */
    struct axon_cuda_window_map mine; /* base NULL: none */
    struct axon_cuda_window_map *peers;
    int npeers, cap;
} axon_win = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Maps bytes of fd shared and registers them with the driver; false (logged) when either refuses. */
static bool axon_cuda_window_map(struct axon_cuda_window_map *m, int fd, size_t bytes, int device)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        axon_runtime_log_debug(1, "mapping a staging window of %zu bytes failed: %s", bytes, strerror(errno));
        return false;
    }
    bool pushed;
    CUresult cr = CUDA_ERROR_NOT_INITIALIZED;
    if (axon_cuda_ctx_enter(device >= 0 ? device : 0, &pushed) == MPI_SUCCESS) {
        cr = axon_cuda.drv->mem_host_register(p, bytes, CU_MEMHOSTREGISTER_PORTABLE);
        axon_cuda_ctx_leave(pushed);
    }
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_debug(1, "pinning a staging window of %zu bytes failed: %s", bytes,
                               axon_cuda_driver_error_string(cr));
        munmap(p, bytes);
        return false;
    }
    m->base = p;
    m->bytes = bytes;
    m->registered = true;
    return true;
}

static void axon_cuda_window_unmap(struct axon_cuda_window_map *m)
{
    if (!m->base)
        return;
    if (m->registered && axon_cuda.drv && axon_cuda.drv->mem_host_unregister) {
        bool pushed;
        if (axon_cuda_ctx_enter(0, &pushed) == MPI_SUCCESS) {
            axon_cuda.drv->mem_host_unregister(m->base);
            axon_cuda_ctx_leave(pushed);
        }
    }
    munmap(m->base, m->bytes);
    m->base = NULL;
}

void *axon_cuda_window_mine(size_t bytes, int device, struct axon_memkind_window_id *id)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    pthread_mutex_lock(&axon_win.lock);
    if (!axon_win.tried) {
        axon_win.tried = true;
        int fd = -1;
        if (d && d->mem_host_register && d->mem_host_unregister && axon_cuda_take_fd_works() &&
            (fd = memfd_create("axon-staging-window", MFD_CLOEXEC)) >= 0 && ftruncate(fd, (off_t)bytes) == 0 &&
            axon_cuda_window_map(&axon_win.mine, fd, bytes, device)) {
            axon_win.mine.world = -1;
            axon_win.mine.pid = (int)getpid();
            axon_win.mine.fd = fd; /* open until MPI_Finalize: peers take it when their first chunk comes */
            axon_runtime_log_debug(1, "staging window of %zu bytes, pinned and shared with the node", bytes);
        } else {
            if (fd >= 0)
                close(fd);
            axon_runtime_log_debug(1, "no staging window: GPU messages staged to node peers go through the "
                                      "transport");
        }
    }
    void *base = axon_win.mine.base;
    if (base) {
        id->pid = axon_win.mine.pid;
        id->fd = axon_win.mine.fd;
        id->bytes = axon_win.mine.bytes;
        id->kind = AXON_MEMKIND_CUDA;
        id->unused = 0;
    }
    pthread_mutex_unlock(&axon_win.lock);
    return base;
}

void *axon_cuda_window_peer(int world, const struct axon_memkind_window_id *id, int device)
{
    pthread_mutex_lock(&axon_win.lock);
    for (int i = 0; i < axon_win.npeers; i++) {
        struct axon_cuda_window_map *m = &axon_win.peers[i];
        if (m->world == world && m->pid == id->pid && m->fd == id->fd && m->bytes == id->bytes) {
            pthread_mutex_unlock(&axon_win.lock);
            return m->base;
        }
    }
    char *base = NULL;
    if (axon_win.npeers == axon_win.cap) {
        int cap = axon_win.cap ? 2 * axon_win.cap : 8;
        struct axon_cuda_window_map *v = realloc(axon_win.peers, sizeof(*v) * (size_t)cap);
        if (v) {
            axon_win.peers = v;
            axon_win.cap = cap;
        }
    }
    int fd = axon_win.npeers < axon_win.cap ? axon_cuda_take_fd(id->pid, id->fd) : -1;
    if (fd < 0) {
        axon_runtime_log_error("cannot take rank %d's staging window (pidfd_getfd): %s", world, strerror(errno));
    } else {
        struct axon_cuda_window_map m = {.world = world, .pid = id->pid, .fd = id->fd};
        if (axon_cuda_window_map(&m, fd, (size_t)id->bytes, device)) {
            axon_win.peers[axon_win.npeers++] = m;
            base = m.base;
        } else {
            axon_runtime_log_error("cannot map rank %d's staging window", world);
        }
        close(fd); /* the mapping holds the memory */
    }
    pthread_mutex_unlock(&axon_win.lock);
    return base;
}

void axon_cuda_window_finalize(void)
{
    pthread_mutex_lock(&axon_win.lock);
    for (int i = 0; i < axon_win.npeers; i++)
        axon_cuda_window_unmap(&axon_win.peers[i]);
    free(axon_win.peers);
    axon_win.peers = NULL;
    axon_win.npeers = axon_win.cap = 0;
    if (axon_win.mine.base) {
        axon_cuda_window_unmap(&axon_win.mine);
        close(axon_win.mine.fd);
    }
    axon_win.tried = false;
    pthread_mutex_unlock(&axon_win.lock);
}

#else /* !AXON_HAVE_CUDA_H: nothing is ever staged */

void *axon_cuda_window_mine(size_t bytes, int device, struct axon_memkind_window_id *id)
{
    (void)bytes, (void)device, (void)id;
    return NULL;
}

void *axon_cuda_window_peer(int world, const struct axon_memkind_window_id *id, int device)
{
    (void)world, (void)id, (void)device;
    return NULL;
}

void axon_cuda_window_finalize(void)
{
}

#endif
