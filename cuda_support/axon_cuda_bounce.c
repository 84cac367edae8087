/* Pinned host buffers for staging GPU data: the host copies that stand in for GPU buffers in
 * point-to-point (pt2pt/axon_pt2pt_stage.c) come from here, page-locked by the driver once
 * (cuMemHostAlloc) and kept for reuse, never allocated per message. A copy between the GPU and pinned
 * memory runs at the bus's speed in one DMA; from pageable memory the driver copies through its own
 * staging buffer in pieces, well below it, and pinning a buffer per message would cost more than
 * most messages.
 *
 * Buffers come in power-of-two sizes from 4 KiB; freed ones wait in a list per size, up to
 * AXON_CUDA_BOUNCE_CACHE bytes in all (beyond that they go back to the driver). Thread-safe. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define AXON_CUDA_BOUNCE_MIN_SHIFT 12
#define AXON_CUDA_BOUNCE_CLASSES 40

struct axon_cuda_bounce_free {
    struct axon_cuda_bounce_free *next;
};

static struct {
    pthread_mutex_t lock;
    struct axon_cuda_bounce_free *free[AXON_CUDA_BOUNCE_CLASSES];
    size_t cached;   /* bytes waiting in the lists */
    long allocated;  /* buffers taken from the driver (tests) */
} axon_bounce = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The size class of a buffer of at least bytes. */
static int axon_cuda_bounce_class(size_t bytes)
{
    int c = 0;
    while (c + 1 < AXON_CUDA_BOUNCE_CLASSES && ((size_t)1 << (c + AXON_CUDA_BOUNCE_MIN_SHIFT)) < bytes)
        c++;
    return c;
}

static size_t axon_cuda_bounce_class_bytes(int c)
{
    return (size_t)1 << (c + AXON_CUDA_BOUNCE_MIN_SHIFT);
}

#if AXON_HAVE_CUDA_H

void *axon_cuda_bounce_get(size_t bytes, int device)
{
    int c = axon_cuda_bounce_class(bytes ? bytes : 1);
    pthread_mutex_lock(&axon_bounce.lock);
    struct axon_cuda_bounce_free *f = axon_bounce.free[c];
    if (f) {
        axon_bounce.free[c] = f->next;
        axon_bounce.cached -= axon_cuda_bounce_class_bytes(c);
    }
    pthread_mutex_unlock(&axon_bounce.lock);
    if (f)
        return f;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d || !d->mem_host_alloc)
        return malloc(axon_cuda_bounce_class_bytes(c));
    bool pushed;
    if (axon_cuda_ctx_enter(device >= 0 ? device : 0, &pushed) != MPI_SUCCESS)
        return NULL;
    void *p = NULL;
    /* Portable: usable with every context, whichever GPU the next message's buffer is on. */
    CUresult cr = d->mem_host_alloc(&p, axon_cuda_bounce_class_bytes(c), CU_MEMHOSTALLOC_PORTABLE);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("cuMemHostAlloc of %zu bytes for staging failed: %s", axon_cuda_bounce_class_bytes(c),
                               axon_cuda_driver_error_string(cr));
        return NULL;
    }
    __atomic_add_fetch(&axon_bounce.allocated, 1, __ATOMIC_RELAXED);
    return p;
}

static void axon_cuda_bounce_release(void *p)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d || !d->mem_free_host) {
        free(p);
        return;
    }
    d->mem_free_host(p);
}

void axon_cuda_bounce_put(void *p, size_t bytes)
{
    if (!p)
        return;
    int c = axon_cuda_bounce_class(bytes ? bytes : 1);
    size_t size = axon_cuda_bounce_class_bytes(c);
    pthread_mutex_lock(&axon_bounce.lock);
    if (axon_bounce.cached + size <= (size_t)axon_config.cuda_bounce_cache) {
        struct axon_cuda_bounce_free *f = p;
        f->next = axon_bounce.free[c];
        axon_bounce.free[c] = f;
        axon_bounce.cached += size;
        p = NULL;
    }
    pthread_mutex_unlock(&axon_bounce.lock);
    if (p)
        axon_cuda_bounce_release(p);
}

void axon_cuda_bounce_finalize(void)
{
    /* A context only where there is something to free: a process that never staged made none. */
    bool pushed = false, entered = axon_cuda.drv && axon_cuda_bounce_allocated() > 0 &&
                                   axon_cuda_ctx_enter(0, &pushed) == MPI_SUCCESS;
    pthread_mutex_lock(&axon_bounce.lock);
    for (int c = 0; c < AXON_CUDA_BOUNCE_CLASSES; c++) {
        while (axon_bounce.free[c]) {
            struct axon_cuda_bounce_free *f = axon_bounce.free[c];
            axon_bounce.free[c] = f->next;
            axon_cuda_bounce_release(f);
        }
    }
    axon_bounce.cached = 0;
    pthread_mutex_unlock(&axon_bounce.lock);
    if (entered)
        axon_cuda_ctx_leave(pushed);
}

#else /* !AXON_HAVE_CUDA_H: plain host memory (nothing is ever staged in such a build) */

void *axon_cuda_bounce_get(size_t bytes, int device)
{
    (void)device;
    return malloc(axon_cuda_bounce_class_bytes(axon_cuda_bounce_class(bytes ? bytes : 1)));
}

void axon_cuda_bounce_put(void *p, size_t bytes)
{
    (void)bytes;
    free(p);
}

void axon_cuda_bounce_finalize(void)
{
}

#endif

long axon_cuda_bounce_allocated(void)
{
    return __atomic_load_n(&axon_bounce.allocated, __ATOMIC_RELAXED);
}
