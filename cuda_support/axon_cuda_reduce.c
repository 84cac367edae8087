/* Reductions on the GPU: the kernels of cuda_support/axon_cuda_reduce_kernels.cu, which nvcc built into
 * a fatbin that this file embeds (.incbin of the file the build names in AXON_CUDA_KERNELS_FATBIN) and
 * loads with cuModuleLoadData, once per CUDA context that runs one; and device scratch for the
 * collectives that keep GPU data on the GPU (partial results, received vectors), cached like the pinned
 * staging buffers so that a collective does not pay a cuMemAlloc per call.
 *
 * A kernel is known by its loop's name ("sum_f32": coll/axon_coll_op_predefined.c names the host loops
 * the same way), listed in axon_cuda_reduce_list.h, the one list both the kernels and this file are made
 * from. A build without nvcc has no kernels: every lookup says so, and callers keep GPU reductions on
 * the host (staged). Modules are loaded lazily, so a process that reduces no GPU data loads none, and
 * MPI_Init still creates no context. A launch runs on the legacy default stream, in the same context as
 * the layer's copies, and waits for the kernel: the reduce step of a schedule is complete when it
 * returns, as a host loop is. Thread-safe.
 *
 * The same fatbin holds the library's two copy kernels, run from here: axon_copy_u8 (one copy, for the
 * small CUDA IPC messages) and axon_copy_list (up to AXON_CUDA_COPY_LIST_MAX copies a launch, for the
 * domain collectives' blocks). */
#include "cuda_support/axon_cuda_internal.h"
#include "cuda_support/axon_cuda_reduce_list.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernels' names, in the list's order: the kernel index is the position here. */
#define AXON_CUDA_REDUCE_NAME(op, s) #op "_" #s,
#define AXON_CUDA_REDUCE_PAIR_NAME(op, s, V, I) #op "_" #s,
static const char *const axon_cuda_reduce_names[] = {
    AXON_CUDA_REDUCE_KERNELS(AXON_CUDA_REDUCE_NAME) AXON_CUDA_REDUCE_PAIR_KERNELS(AXON_CUDA_REDUCE_PAIR_NAME)};
#define AXON_CUDA_NKERNELS ((int)(AXON_ARRAY_SIZE(axon_cuda_reduce_names)))

#if AXON_HAVE_CUDA_H && defined(AXON_CUDA_KERNELS_FATBIN)

/* The fatbin, in read-only data, 16-byte aligned as cuModuleLoadData wants its image. */
__asm__(".section .rodata\n"
        ".balign 16\n"
        ".type axon_cuda_kernels_image, @object\n"
        "axon_cuda_kernels_image:\n"
        ".incbin \"" AXON_CUDA_KERNELS_FATBIN "\"\n"
        ".byte 0\n"
        ".size axon_cuda_kernels_image, . - axon_cuda_kernels_image\n"
        ".previous\n");
extern const unsigned char axon_cuda_kernels_image[] __attribute__((visibility("hidden")));
#define AXON_CUDA_HAVE_KERNELS 1

#else
#define AXON_CUDA_HAVE_KERNELS 0
#endif

int axon_cuda_reduce_kernel(const char *name)
{
    if (!AXON_CUDA_HAVE_KERNELS || !name)
        return -1;
    for (int k = 0; k < AXON_CUDA_NKERNELS; k++)
        if (strcmp(axon_cuda_reduce_names[k], name) == 0)
            return k;
    return -1;
}

const char *axon_cuda_reduce_kernel_name(int kernel)
{
    return kernel >= 0 && kernel < AXON_CUDA_NKERNELS ? axon_cuda_reduce_names[kernel] : NULL;
}

#if AXON_HAVE_CUDA_H

/* Threads per block, and blocks per multiprocessor: enough resident warps to keep the memory system
 * busy on a grid-stride loop, which needs no more blocks than that however long the vector. */
#define AXON_CUDA_REDUCE_THREADS 256u
#define AXON_CUDA_REDUCE_BLOCKS_PER_SM 8u
/* Contexts that have loaded the kernels (a process rarely has more than one per GPU). */
#define AXON_CUDA_REDUCE_CONTEXTS 16

struct axon_cuda_reduce_module {
    CUcontext ctx;
    CUmodule module;
    CUfunction fn[2][AXON_CUDA_NKERNELS]; /* [0] the pairwise kernels, [1] the folds */
    CUfunction copy;                      /* axon_copy_u8 */
    CUfunction copy_list;                 /* axon_copy_list */
};

static struct {
    pthread_mutex_t lock;
    struct axon_cuda_reduce_module mods[AXON_CUDA_REDUCE_CONTEXTS];
    int nmods;
    unsigned sms[AXON_CUDA_MAX_DEVICES]; /* multiprocessors per GPU; 0 until asked */
    long launches;                      /* reduction kernels run (tests) */
    long copies;                        /* copy kernels run (tests) */
} axon_red = {.lock = PTHREAD_MUTEX_INITIALIZER};

bool axon_cuda_reduce_available(void)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    return AXON_CUDA_HAVE_KERNELS && axon_cuda_enabled() && d && d->module_load_data && d->module_get_function && d->launch_kernel &&
           d->mem_alloc && d->mem_free;
}

/* The module of the calling thread's current context, loaded there first. Under the lock. */
static int axon_cuda_module_locked(struct axon_cuda_reduce_module **out)
{
#if !AXON_CUDA_HAVE_KERNELS
    (void)out;
    return MPI_ERR_UNSUPPORTED_OPERATION;
#else
    const struct axon_cuda_driver *d = axon_cuda.drv;
    CUcontext ctx = NULL;
    CUresult cr = d->ctx_get_current(&ctx);
    if (cr != CUDA_SUCCESS || !ctx) {
        axon_runtime_log_error("no CUDA context for a kernel of the library: %s", axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    for (int i = 0; i < axon_red.nmods; i++)
        if (axon_red.mods[i].ctx == ctx) {
            *out = &axon_red.mods[i];
            return MPI_SUCCESS;
        }
    if (axon_red.nmods == AXON_CUDA_REDUCE_CONTEXTS) {
        axon_runtime_log_error("the library's kernels: more than %d CUDA contexts", AXON_CUDA_REDUCE_CONTEXTS);
        return MPI_ERR_OTHER;
    }
    CUmodule module;
    cr = d->module_load_data(&module, axon_cuda_kernels_image);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("cannot load the library's kernels (cuModuleLoadData): %s",
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    struct axon_cuda_reduce_module *m = &axon_red.mods[axon_red.nmods++];
    memset(m, 0, sizeof(*m));
    m->ctx = ctx;
    m->module = module;
    *out = m;
    return MPI_SUCCESS;
#endif
}

/* The function called name in the current context's module, found once and kept there: reduction
 * kernel k (its fold when fold), the copy kernel when k is -1, the list's when -2. quiet: a missing one
 * is not logged. */
static int axon_cuda_function(int k, bool fold, const char *name, bool quiet, CUfunction *fn)
{
    struct axon_cuda_reduce_module *m;
    pthread_mutex_lock(&axon_red.lock);
    int rc = axon_cuda_module_locked(&m);
    if (rc == MPI_SUCCESS) {
        CUfunction *slot = k == -1 ? &m->copy : k == -2 ? &m->copy_list : &m->fn[fold][k];
        if (!*slot) {
            CUresult cr = axon_cuda.drv->module_get_function(slot, m->module, name);
            if (cr != CUDA_SUCCESS) {
                *slot = NULL;
                if (!quiet)
                    axon_runtime_log_error("kernel %s not found: %s", name, axon_cuda_driver_error_string(cr));
                rc = MPI_ERR_OTHER;
            }
        }
        *fn = *slot;
    }
    pthread_mutex_unlock(&axon_red.lock);
    return rc;
}

/* The function of kernel k (its fold when fold) in the calling thread's current context. */
static int axon_cuda_reduce_function(int k, bool fold, CUfunction *fn)
{
    char name[64];
    snprintf(name, sizeof(name), "axon_%s_%s", fold ? "fold" : "reduce", axon_cuda_reduce_names[k]);
    return axon_cuda_function(k, fold, name, false, fn);
}

/* Blocks for n elements: one per 256 of them, at most 8 per multiprocessor (1024 when the driver does
 * not say how many there are). */
static unsigned axon_cuda_reduce_blocks(uint64_t n, int device)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    unsigned sms = 0;
    if (device >= 0 && device < axon_cuda.ndevices) {
        sms = __atomic_load_n(&axon_red.sms[device], __ATOMIC_RELAXED);
        int v = 0;
        if (!sms && d->device_get_attribute &&
            d->device_get_attribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, axon_cuda.devices[device]) ==
                CUDA_SUCCESS &&
            v > 0) {
            sms = (unsigned)v;
            __atomic_store_n(&axon_red.sms[device], sms, __ATOMIC_RELAXED);
        }
    }
    uint64_t most = sms ? (uint64_t)sms * AXON_CUDA_REDUCE_BLOCKS_PER_SM : 1024;
    uint64_t want = (n + AXON_CUDA_REDUCE_THREADS - 1) / AXON_CUDA_REDUCE_THREADS;
    return (unsigned)(want < most ? want : most);
}

/* Runs kernel (its fold when fold) over n elements with params, in device's context, and waits for it;
 * a failure is logged with what it was doing (what). */
static int axon_cuda_reduce_launch(int kernel, bool fold, uint64_t n, void **params, int device, const char *what)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    CUfunction fn;
    rc = axon_cuda_reduce_function(kernel, fold, &fn);
    if (rc == MPI_SUCCESS) {
        CUresult cr = d->launch_kernel(fn, axon_cuda_reduce_blocks(n, device), 1, 1, AXON_CUDA_REDUCE_THREADS, 1, 1,
                                       0, CU_STREAM_LEGACY, params, NULL);
        if (cr == CUDA_SUCCESS)
            cr = d->stream_synchronize(CU_STREAM_LEGACY);
        if (cr != CUDA_SUCCESS) {
            axon_runtime_log_error("%s kernel %s on %llu elements (%s) failed: %s", fold ? "fold" : "reduction",
                                   axon_cuda_reduce_names[kernel], (unsigned long long)n, what,
                                   axon_cuda_driver_error_string(cr));
            rc = MPI_ERR_OTHER;
        } else {
            __atomic_add_fetch(&axon_red.launches, 1, __ATOMIC_RELAXED);
        }
    }
    axon_cuda_ctx_leave(pushed);
    return rc;
}

int axon_cuda_reduce_run(int kernel, const void *in, void *inout, uint64_t n, int device)
{
    if (kernel < 0 || kernel >= AXON_CUDA_NKERNELS || !axon_cuda_reduce_available())
        return MPI_ERR_INTERN;
    if (n == 0)
        return MPI_SUCCESS;
    CUdeviceptr a = (CUdeviceptr)(uintptr_t)in, b = (CUdeviceptr)(uintptr_t)inout;
    unsigned long long count = n;
    void *params[] = {&a, &b, &count};
    char what[64];
    snprintf(what, sizeof(what), "into %p", inout);
    return axon_cuda_reduce_launch(kernel, false, n, params, device, what);
}

int axon_cuda_fold_run(int kernel, const void *const *in, int nin, void *const *out, int nout, uint64_t n, int device)
{
    if (kernel < 0 || kernel >= AXON_CUDA_NKERNELS || !axon_cuda_reduce_available() || nin < 1 ||
        nin > AXON_CUDA_FOLD_MAX || nout < 0 || nout > AXON_CUDA_FOLD_MAX)
        return MPI_ERR_INTERN;
    if (n == 0 || nout == 0)
        return MPI_SUCCESS;
    struct axon_cuda_fold_args args;
    memset(&args, 0, sizeof(args));
    for (int k = 0; k < nin; k++)
        args.in[k] = in[k];
    for (int k = 0; k < nout; k++)
        args.out[k] = out[k];
    args.nin = (unsigned)nin;
    args.nout = (unsigned)nout;
    unsigned long long count = n;
    void *params[] = {&args, &count};
    char what[64];
    snprintf(what, sizeof(what), "%d inputs into %d outputs", nin, nout);
    return axon_cuda_reduce_launch(kernel, true, n, params, device, what);
}

int axon_cuda_copy_kernel_run(void *dst, const void *src, size_t bytes, int device)
{
    if (!axon_cuda_reduce_available())
        return MPI_ERR_UNSUPPORTED_OPERATION;
    if (bytes == 0)
        return MPI_SUCCESS;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    CUfunction fn;
    /* A fatbin without the kernel (none is built without it, but a failed lookup costs nothing to
     * handle): quietly the caller's cuMemcpy. */
    if (axon_cuda_function(-1, false, "axon_copy_u8", true, &fn) != MPI_SUCCESS)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    CUdeviceptr a = (CUdeviceptr)(uintptr_t)src, b = (CUdeviceptr)(uintptr_t)dst;
    unsigned long long n = bytes;
    void *params[] = {&a, &b, &n};
    /* 16 bytes a thread: one element of the reduction grid's sizing per 16 bytes. */
    CUresult cr = d->launch_kernel(fn, axon_cuda_reduce_blocks((n + 15) / 16, device), 1, 1, AXON_CUDA_REDUCE_THREADS,
                                   1, 1, 0, CU_STREAM_LEGACY, params, NULL);
    if (cr == CUDA_SUCCESS)
        cr = d->stream_synchronize(CU_STREAM_LEGACY);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("copy kernel of %zu bytes from %p to %p failed: %s", bytes, src, dst,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    __atomic_add_fetch(&axon_red.copies, 1, __ATOMIC_RELAXED);
    return MPI_SUCCESS;
}

long axon_cuda_copy_kernel_launches(void)
{
    return __atomic_load_n(&axon_red.copies, __ATOMIC_RELAXED);
}

int axon_cuda_copy_list_run(const void *const *src, void *const *dst, const uint64_t *bytes, int n, int device)
{
    if (!axon_cuda_reduce_available() || n < 0)
        return MPI_ERR_INTERN;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    CUfunction fn;
    rc = axon_cuda_function(-2, false, "axon_copy_list", false, &fn);
    /* AXON_CUDA_COPY_LIST_MAX copies a launch, all launched before one wait. */
    CUresult cr = CUDA_SUCCESS;
    int launched = 0;
    for (int at = 0; rc == MPI_SUCCESS && cr == CUDA_SUCCESS && at < n; at += AXON_CUDA_COPY_LIST_MAX) {
        struct axon_cuda_copy_list list;
        memset(&list, 0, sizeof(list));
        uint64_t most = 0;
        for (int k = at; k < n && k < at + AXON_CUDA_COPY_LIST_MAX; k++) {
            if (bytes[k] == 0)
                continue;
            list.src[list.n] = src[k];
            list.dst[list.n] = dst[k];
            list.bytes[list.n++] = bytes[k];
            most = bytes[k] > most ? bytes[k] : most;
        }
        if (list.n == 0)
            continue;
        void *params[] = {&list};
        cr = d->launch_kernel(fn, axon_cuda_reduce_blocks((most + 15) / 16, device), list.n, 1,
                              AXON_CUDA_REDUCE_THREADS, 1, 1, 0, CU_STREAM_LEGACY, params, NULL);
        launched++;
    }
    if (rc == MPI_SUCCESS && cr == CUDA_SUCCESS && launched)
        cr = d->stream_synchronize(CU_STREAM_LEGACY);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("a list of %d copies on GPU %d failed: %s", n, device,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    if (rc == MPI_SUCCESS)
        __atomic_add_fetch(&axon_red.copies, launched, __ATOMIC_RELAXED);
    return rc;
}

long axon_cuda_reduce_launches(void)
{
    return __atomic_load_n(&axon_red.launches, __ATOMIC_RELAXED);
}

void axon_cuda_reduce_finalize(void)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    pthread_mutex_lock(&axon_red.lock);
    /* A module goes with its context; one still current somewhere may be unloaded now. */
    for (int i = 0; i < axon_red.nmods; i++)
        if (d && d->module_unload && d->ctx_push_current(axon_red.mods[i].ctx) == CUDA_SUCCESS) {
            d->module_unload(axon_red.mods[i].module);
            CUcontext popped;
            d->ctx_pop_current(&popped);
        }
    axon_red.nmods = 0;
    memset(axon_red.sms, 0, sizeof(axon_red.sms));
    pthread_mutex_unlock(&axon_red.lock);
}

/* ---- device scratch ------------------------------------------------------------------------------- */

/* Freed scratch waits here for the next collective, smallest fitting block first, up to
 * AXON_CUDA_SCRATCH_SLOTS blocks and AXON_CUDA_SCRATCH_CACHE_MAX bytes (cuMemAlloc and cuMemFree cost
 * tens of microseconds, and cuMemFree synchronizes the device). */
#define AXON_CUDA_SCRATCH_SLOTS 16
#define AXON_CUDA_SCRATCH_CACHE_MAX ((size_t)512 << 20)

struct axon_cuda_scratch_block {
    CUdeviceptr p;
    size_t size;
    int device;
};

static struct {
    pthread_mutex_t lock;
    struct axon_cuda_scratch_block cache[AXON_CUDA_SCRATCH_SLOTS];
    size_t cached;
    long allocated;
} axon_scratch = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Sizes round up to 64 KiB, then to a quarter of their power of two, so near sizes share blocks. */
static size_t axon_cuda_scratch_round(size_t bytes)
{
    size_t r = (bytes + 0xffff) & ~(size_t)0xffff;
    size_t p = 1;
    while (p < r)
        p <<= 1;
    size_t q = p / 4 > 0x10000 ? p / 4 : 0x10000;
    return (r + q - 1) / q * q;
}

void *axon_cuda_scratch_get(size_t bytes, int device)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d || !d->mem_alloc)
        return NULL;
    size_t size = axon_cuda_scratch_round(bytes ? bytes : 1);
    pthread_mutex_lock(&axon_scratch.lock);
    int best = -1;
    for (int i = 0; i < AXON_CUDA_SCRATCH_SLOTS; i++) {
        const struct axon_cuda_scratch_block *b = &axon_scratch.cache[i];
        if (b->p && b->device == device && b->size >= size && b->size <= 2 * size &&
            (best < 0 || b->size < axon_scratch.cache[best].size))
            best = i;
    }
    CUdeviceptr p = 0;
    if (best >= 0) {
        p = axon_scratch.cache[best].p;
        axon_scratch.cached -= axon_scratch.cache[best].size;
        axon_scratch.cache[best].p = 0;
    }
    pthread_mutex_unlock(&axon_scratch.lock);
    if (p)
        return (void *)(uintptr_t)p;
    bool pushed;
    if (axon_cuda_ctx_enter(device, &pushed) != MPI_SUCCESS)
        return NULL;
    CUresult cr = d->mem_alloc(&p, size);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("cuMemAlloc of %zu bytes of collective scratch on GPU %d failed: %s", size, device,
                               axon_cuda_driver_error_string(cr));
        return NULL;
    }
    __atomic_add_fetch(&axon_scratch.allocated, 1, __ATOMIC_RELAXED);
    return (void *)(uintptr_t)p;
}

static void axon_cuda_scratch_release(CUdeviceptr p, int device)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    bool pushed;
    if (d && axon_cuda_ctx_enter(device, &pushed) == MPI_SUCCESS) {
        d->mem_free(p);
        axon_cuda_ctx_leave(pushed);
    }
}

void axon_cuda_scratch_put(void *ptr, size_t bytes, int device)
{
    if (!ptr)
        return;
    struct axon_cuda_scratch_block b = {(CUdeviceptr)(uintptr_t)ptr, axon_cuda_scratch_round(bytes ? bytes : 1),
                                        device};
    pthread_mutex_lock(&axon_scratch.lock);
    int slot = -1;
    for (int i = 0; i < AXON_CUDA_SCRATCH_SLOTS && slot < 0; i++)
        if (!axon_scratch.cache[i].p)
            slot = i;
    if (slot >= 0 && axon_scratch.cached + b.size <= AXON_CUDA_SCRATCH_CACHE_MAX) {
        axon_scratch.cache[slot] = b;
        axon_scratch.cached += b.size;
        b.p = 0;
    }
    pthread_mutex_unlock(&axon_scratch.lock);
    if (b.p)
        axon_cuda_scratch_release(b.p, b.device);
}

long axon_cuda_scratch_allocated(void)
{
    return __atomic_load_n(&axon_scratch.allocated, __ATOMIC_RELAXED);
}

void axon_cuda_scratch_finalize(void)
{
    pthread_mutex_lock(&axon_scratch.lock);
    struct axon_cuda_scratch_block cache[AXON_CUDA_SCRATCH_SLOTS];
    memcpy(cache, axon_scratch.cache, sizeof(cache));
    memset(axon_scratch.cache, 0, sizeof(axon_scratch.cache));
    axon_scratch.cached = 0;
    pthread_mutex_unlock(&axon_scratch.lock);
    for (int i = 0; i < AXON_CUDA_SCRATCH_SLOTS; i++)
        if (cache[i].p)
            axon_cuda_scratch_release(cache[i].p, cache[i].device);
}

int axon_cuda_copy(void *dst, const void *src, size_t bytes, int device)
{
    if (bytes == 0 || dst == src)
        return MPI_SUCCESS;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d)
        return MPI_ERR_INTERN;
    bool pushed;
    int rc = axon_cuda_ctx_enter(device, &pushed);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Each side's kind from the memory-type cache, so the copy names its direction (a peer's memory
     * opened through IPC is GPU memory; see axon_cuda_copy_sync for why it matters). */
    struct axon_memkind_info di, si;
    enum axon_cuda_side dside = AXON_CUDA_SIDE_ANY, sside = AXON_CUDA_SIDE_ANY;
    if (axon_cuda_memtype_classify(dst, &di) == MPI_SUCCESS && axon_cuda_memtype_classify(src, &si) == MPI_SUCCESS) {
        dside = axon_cuda_side_of(&di);
        sside = axon_cuda_side_of(&si);
    }
    CUresult cr = axon_cuda_copy_sync(dst, dside, src, sside, bytes);
    axon_cuda_ctx_leave(pushed);
    if (cr != CUDA_SUCCESS) {
        axon_runtime_log_error("copy of %zu bytes from %p to %p (GPU %d) failed: %s", bytes, src, dst, device,
                               axon_cuda_driver_error_string(cr));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

#else /* !AXON_HAVE_CUDA_H */

bool axon_cuda_reduce_available(void)
{
    return false;
}

int axon_cuda_reduce_run(int kernel, const void *in, void *inout, uint64_t n, int device)
{
    (void)kernel, (void)in, (void)inout, (void)n, (void)device;
    return MPI_ERR_INTERN;
}

int axon_cuda_fold_run(int kernel, const void *const *in, int nin, void *const *out, int nout, uint64_t n, int device)
{
    (void)kernel, (void)in, (void)nin, (void)out, (void)nout, (void)n, (void)device;
    return MPI_ERR_INTERN;
}

int axon_cuda_copy_kernel_run(void *dst, const void *src, size_t bytes, int device)
{
    (void)dst, (void)src, (void)bytes, (void)device;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

int axon_cuda_copy_list_run(const void *const *src, void *const *dst, const uint64_t *bytes, int n, int device)
{
    (void)src, (void)dst, (void)bytes, (void)n, (void)device;
    return MPI_ERR_UNSUPPORTED_OPERATION;
}

long axon_cuda_copy_kernel_launches(void)
{
    return 0;
}

long axon_cuda_reduce_launches(void)
{
    return 0;
}

void axon_cuda_reduce_finalize(void)
{
}

void *axon_cuda_scratch_get(size_t bytes, int device)
{
    (void)bytes, (void)device;
    return NULL;
}

void axon_cuda_scratch_put(void *ptr, size_t bytes, int device)
{
    (void)ptr, (void)bytes, (void)device;
}

long axon_cuda_scratch_allocated(void)
{
    return 0;
}

void axon_cuda_scratch_finalize(void)
{
}

int axon_cuda_copy(void *dst, const void *src, size_t bytes, int device)
{
    (void)dst, (void)src, (void)bytes, (void)device;
    return MPI_ERR_INTERN;
}

#endif
