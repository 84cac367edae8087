/* Memory types: what a user pointer points to (host, pinned host, device, managed, VMM), with the GPU
 * it belongs to and the allocation around it. This file owns the cache of address ranges the driver
 * described, the bounds of host memory that can be told without the driver, and the questions put to
 * the driver on a miss.
 *
 * The cache holds ranges the driver called CUDA memory. A hit is checked by one cheap driver call, the
 * allocation's id at the pointer (the buffer id; for VMM the memory block id): ids are never reused
 * within a process, so a freed range answers with an error and a freed-and-reallocated one with a new
 * id, and either way the driver is asked afresh. Nothing hooks cuMemFree, so without that check a stale
 * range would be served.
 *
 * Host memory is not cached by range. The driver says nothing of a host range's extent, and munmap
 * gives the addresses back to the kernel, where the driver's next reservation of virtual addresses may
 * land, so a cached "host" answer could later be given for a device pointer, and a memcpy from it would
 * fault. Host memory is told apart cheaply in ways that stay true instead:
 *   - the calling thread's stack between its stack pointer and its top (the thread is running on it);
 *   - the heap's brk area, [start_brk, current break): the kernel keeps it one mapping that nothing
 *     else can overlap. The break is glibc's __curbrk, what its sbrk(0) returns, read directly: UCX's
 *     memory hooks replace sbrk with a brk system call, one per classification, which costs more than a
 *     small host message itself (bench/results/2026-11-25-cuda-host-latency.md);
 *   - the program's own loaded segments (static data), never unmapped;
 *   - any address while no CUDA context exists in the process: without a context there is no device
 *     memory. The check asks the driver whether a primary context is active on any GPU or a context is
 *     current in the calling thread, and once it has seen one it is not asked again. It cannot see a
 *     context made with cuCtxCreate that is current only in other threads, nor cuMemCreate memory made
 *     with no context at all; a program doing either must make a context current in the thread that
 *     calls MPI (or have a primary context active), as every runtime-API program does.
 *   - a page the driver (or the context check) called host before, until libucm reports it unmapped
 *     (axon_cuda_hostpage.c).
 * Any other host pointer costs a driver query, once per page.
 *
 * Threads: under MPI_THREAD_MULTIPLE any number of threads classify at once. The range set sits under a
 * rwlock: hits take it for reading and copy the entry out, so the driver call that validates it runs
 * unlocked; only inserting a fresh range or removing a stale one writes. The host checks take no lock
 * (the stack bounds are per thread). A per-thread cache would spare the lock's cache line but would
 * need invalidating in every thread, and stale entries are what must never be served. */
#include "cuda_support/axon_cuda_internal.h"
#include "cuda_support/axon_cuda_range_internal.h"
#include "runtime/runtime.h"

/* The thread's stack bounds, read inline by axon_cuda_memtype_on_stack (cuda_support.h), and where the
 * heap starts, by axon_cuda_memtype_in_heap (0: unknown, the heap check is skipped). Defined in every
 * build: the inline checks are compiled in where cuda.h is missing too. */
__thread struct axon_cuda_stack_bounds axon_cuda_stack __attribute__((tls_model("initial-exec")));
uintptr_t axon_cuda_brk_start;

#if AXON_HAVE_CUDA_H

#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Ranges kept at most; beyond, the oldest go (they are only re-asked). */
#define AXON_CUDA_MEMTYPE_CACHE_MAX 4096
/* A range whose id is the memory block id (VMM), not the buffer id. */
#define AXON_CUDA_RANGE_BY_BLOCK_ID 1u
/* CU_POINTER_ATTRIBUTE_MAPPING_SIZE, _MAPPING_BASE_ADDR and _MEMORY_BLOCK_ID (recent cuda.h only),
 * spelled as their values so the layer builds with older headers. A driver that does not know them
 * refuses them: the mapping then comes from cuMemGetAddressRange, and VMM ranges are not cached. */
#define AXON_CUDA_ATTRIBUTE_MAPPING_SIZE ((CUpointer_attribute)18)
#define AXON_CUDA_ATTRIBUTE_MAPPING_BASE_ADDR ((CUpointer_attribute)19)
#define AXON_CUDA_ATTRIBUTE_MEMORY_BLOCK_ID ((CUpointer_attribute)20)

static pthread_rwlock_t axon_cuda_memtype_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct axon_cuda_range_set axon_cuda_memtype_ranges;

/* Host memory for good: the program's loaded segments, and where the brk heap starts. */
#define AXON_CUDA_MAX_STATIC 16
static struct {
    uintptr_t lo, hi;
} axon_cuda_static[AXON_CUDA_MAX_STATIC];
static int axon_cuda_nstatic;
static atomic_bool axon_cuda_ctx_seen;


/* ---- host memory without the driver ------------------------------------------------------------------ */

static int axon_cuda_memtype_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum && axon_cuda_nstatic < AXON_CUDA_MAX_STATIC; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        uintptr_t hi = lo + ph->p_memsz;
        /* Inward to whole pages: the loader maps whole pages, but the page a segment shares with the
         * next one is the next one's business. */
        axon_cuda_static[axon_cuda_nstatic].lo = (lo + page - 1) & ~(page - 1);
        axon_cuda_static[axon_cuda_nstatic].hi = hi & ~(page - 1);
        if (axon_cuda_static[axon_cuda_nstatic].lo < axon_cuda_static[axon_cuda_nstatic].hi)
            axon_cuda_nstatic++;
    }
    return 1; /* the program comes first; shared objects may be unloaded, so they are not counted */
}

/* start_brk is field 47 of /proc/self/stat (Linux 3.3 and later). */
static uintptr_t axon_cuda_memtype_read_start_brk(void)
{
    char buf[2048];
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name (field 2) may hold spaces and parentheses: count from the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p)
        return 0;
    p++;
    for (int field = 2; field < 47; field++) {
        p = strchr(p, ' ');
        if (!p)
            return 0;
        p++;
    }
    return (uintptr_t)strtoull(p, NULL, 10);
}

static void axon_cuda_memtype_learn_stack(void)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    axon_cuda_stack.known = true;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        axon_cuda_stack.lo = (uintptr_t)addr;
        axon_cuda_stack.hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
}

/* True when a is host memory that can be nothing else while the call lasts. */
static bool axon_cuda_memtype_surely_host(uintptr_t a)
{
    if (!axon_cuda_stack.known)
        axon_cuda_memtype_learn_stack();
    /* Callers' frames lie above this one. A program running on a stack of its own making (a coroutine,
     * a signal stack) is below or beyond the thread's bounds: then the stack tells nothing. */
    if (axon_cuda_memtype_on_stack((const void *)a) || axon_cuda_memtype_in_heap((const void *)a))
        return true;
    for (int i = 0; i < axon_cuda_nstatic; i++)
        if (a >= axon_cuda_static[i].lo && a < axon_cuda_static[i].hi)
            return true;
    return false;
}

/* True while no CUDA context can exist in the process (see the top of the file for what it cannot
 * see). Once a context has been seen the answer is false for good: contexts come and go, and asking
 * every device on every host miss would cost more than it saves. */
static bool axon_cuda_memtype_no_context(void)
{
    if (atomic_load_explicit(&axon_cuda_ctx_seen, memory_order_relaxed))
        return false;
    const struct axon_cuda_driver *d = axon_cuda.drv;
    CUcontext cur = NULL;
    if (d->ctx_get_current(&cur) != CUDA_SUCCESS || cur)
        goto seen;
    for (int i = 0; i < axon_cuda.ndevices; i++) {
        unsigned int flags = 0;
        int active = 0;
        if (d->device_primary_ctx_get_state(axon_cuda.devices[i], &flags, &active) != CUDA_SUCCESS || active)
            goto seen;
    }
    return true;
seen:
    atomic_store_explicit(&axon_cuda_ctx_seen, true, memory_order_relaxed);
    return false;
}

/* ---- asking the driver ------------------------------------------------------------------------------ */

static enum axon_memkind axon_cuda_memtype_kind(enum axon_cuda_memtype type)
{
    return type == AXON_CUDA_MEMTYPE_HOST || type == AXON_CUDA_MEMTYPE_PINNED ? AXON_MEMKIND_HOST
                                                                               : AXON_MEMKIND_CUDA;
}

/* The id of the allocation at a now, by the attribute a range of these flags was cached with; false
 * when the driver knows no allocation there any more. */
static bool axon_cuda_memtype_current_id(uintptr_t a, unsigned flags, uint64_t *id)
{
    unsigned long long v = 0;
    CUpointer_attribute attr = flags & AXON_CUDA_RANGE_BY_BLOCK_ID ? AXON_CUDA_ATTRIBUTE_MEMORY_BLOCK_ID
                                                                   : CU_POINTER_ATTRIBUTE_BUFFER_ID;
    if (axon_cuda.drv->pointer_get_attribute(&v, attr, (CUdeviceptr)a) != CUDA_SUCCESS)
        return false;
    *id = v;
    return true;
}

/* cuMemCreate memory is the only kind cuMemRetainAllocationHandle knows. */
static bool axon_cuda_memtype_is_vmm(uintptr_t a)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    if (!d->mem_retain_allocation_handle || !d->mem_release)
        return false;
    CUmemGenericAllocationHandle handle;
    if (d->mem_retain_allocation_handle(&handle, (void *)a) != CUDA_SUCCESS)
        return false;
    d->mem_release(handle);
    return true;
}

/* Asks the driver what a is. Fills info, and *range with *cacheable when the answer may be cached. */
static int axon_cuda_memtype_ask(uintptr_t a, struct axon_memkind_info *info, struct axon_cuda_range *range,
                                 bool *cacheable)
{
    const struct axon_cuda_driver *d = axon_cuda.drv;
    /* The flags are read as "non-zero", into zeroed 8-byte words: the documentation says "a boolean"
     * without a width. The others have the types it names. */
    unsigned int memtype = 0;
    unsigned long long buffer_id = 0;
    uint64_t managed = 0, mapped = 0, legacy_ipc = 0;
    int ordinal = -1;
    CUdeviceptr start = 0;
    size_t size = 0;
    void *pool = NULL;
    CUpointer_attribute attrs[] = {
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_BUFFER_ID, CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
        CU_POINTER_ATTRIBUTE_MAPPED, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE,
        CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
    };
    void *data[] = {&memtype, &buffer_id, &managed, &ordinal, &start, &size, &mapped, &legacy_ipc, &pool};
    *cacheable = false;
    /* Unlike cuPointerGetAttribute, the plural call answers a pointer the driver does not know with
     * zeros and success. */
    CUresult rc = d->pointer_get_attributes(AXON_ARRAY_SIZE(attrs), attrs, data, (CUdeviceptr)a);
    if (rc == CUDA_ERROR_INVALID_CONTEXT) {
        /* Its meaning here: no context with unified addressing made or registered this pointer. */
        axon_memkind_set_host(info);
        return MPI_SUCCESS;
    }
    if (rc != CUDA_SUCCESS) {
        axon_runtime_log_error("cannot tell the memory type of %p: cuPointerGetAttributes: %s", (void *)a,
                               axon_cuda_driver_error_string(rc));
        return MPI_ERR_OTHER;
    }
    enum axon_cuda_memtype type;
    if (managed) {
        type = AXON_CUDA_MEMTYPE_MANAGED;
    } else if (memtype == CU_MEMORYTYPE_HOST) {
        type = AXON_CUDA_MEMTYPE_PINNED;
    } else if (memtype == CU_MEMORYTYPE_DEVICE || memtype == CU_MEMORYTYPE_UNIFIED) {
        /* Legacy-IPC-capable memory is cuMemAlloc's; pool memory (cudaMallocAsync) is VMM inside the
         * driver but is handed out and reused by its pool as cuMemAlloc's is. */
        if (legacy_ipc || pool)
            type = AXON_CUDA_MEMTYPE_DEVICE;
        else if (axon_cuda_memtype_is_vmm(a))
            type = AXON_CUDA_MEMTYPE_VMM;
        else if (!mapped)
            goto unmapped;
        else
            type = AXON_CUDA_MEMTYPE_DEVICE;
    } else if (memtype == 0) {
        /* Unknown to the driver: host memory. */
        axon_memkind_set_host(info);
        return MPI_SUCCESS;
    } else {
        axon_runtime_log_error("%p is CUDA memory of type %u (an array?), not a buffer MPI can move", (void *)a,
                               memtype);
        return MPI_ERR_BUFFER;
    }

    uint64_t id = buffer_id;
    unsigned flags = 0;
    bool trusted_id = buffer_id != 0;
    if (type == AXON_CUDA_MEMTYPE_VMM) {
        /* The range attributes name the whole reservation, which may hold several mappings side by side
         * (PyTorch's expandable segments): the allocation is the one mapping around a. And a mapping can
         * be replaced at the same address without the buffer id changing, so VMM ranges are cached only
         * when the driver gives the memory block id, which names the physical allocation. */
        CUdeviceptr map_base = 0;
        size_t map_size = 0;
        if (d->pointer_get_attribute(&map_base, AXON_CUDA_ATTRIBUTE_MAPPING_BASE_ADDR, (CUdeviceptr)a) ==
                CUDA_SUCCESS &&
            d->pointer_get_attribute(&map_size, AXON_CUDA_ATTRIBUTE_MAPPING_SIZE, (CUdeviceptr)a) == CUDA_SUCCESS) {
            start = map_base;
            size = map_size;
        } else {
            start = 0; /* cuMemGetAddressRange below gives the mapping */
            size = 0;
        }
        unsigned long long block = 0;
        trusted_id = d->pointer_get_attribute(&block, AXON_CUDA_ATTRIBUTE_MEMORY_BLOCK_ID, (CUdeviceptr)a) ==
                         CUDA_SUCCESS && block != 0;
        if (trusted_id) {
            id = block;
            flags |= AXON_CUDA_RANGE_BY_BLOCK_ID;
        }
    }
    if (size == 0 || a < start || a - start >= size) {
        if (d->mem_get_address_range(&start, &size, (CUdeviceptr)a) != CUDA_SUCCESS || a < start ||
            a - start >= size)
            start = 0, size = 0;
    }
    info->type = type;
    info->kind = axon_cuda_memtype_kind(type);
    info->device = ordinal;
    info->base = (uintptr_t)start;
    info->size = size;
    info->id = id;
    if (trusted_id && size > 0) {
        *range = (struct axon_cuda_range){.base = (uintptr_t)start, .size = size, .id = id, .type = type,
                                          .device = ordinal, .flags = flags};
        *cacheable = true;
    }
    return MPI_SUCCESS;

unmapped:
    axon_runtime_log_error("%p lies in GPU address space where no memory is mapped (an unmapped part of a "
                           "cuMemAddressReserve range?)", (void *)a);
    return MPI_ERR_BUFFER;
}

/* ---- classification --------------------------------------------------------------------------------- */

static int axon_cuda_memtype_lookup(const void *ptr, struct axon_memkind_info *info)
{
    uintptr_t a = (uintptr_t)ptr;
    if (!axon_cuda.drv || a == 0 || axon_cuda_memtype_surely_host(a) || axon_cuda_hostpage_known((const void *)a)) {
        axon_memkind_set_host(info);
        return MPI_SUCCESS;
    }
    struct axon_cuda_range r;
    pthread_rwlock_rdlock(&axon_cuda_memtype_lock);
    bool hit = axon_cuda_range_set_lookup(&axon_cuda_memtype_ranges, a, &r);
    pthread_rwlock_unlock(&axon_cuda_memtype_lock);
    if (hit) {
        uint64_t id;
        if (axon_cuda_memtype_current_id(a, r.flags, &id) && id == r.id) {
            info->type = (enum axon_cuda_memtype)r.type;
            info->kind = axon_cuda_memtype_kind(info->type);
            info->device = r.device;
            info->base = r.base;
            info->size = r.size;
            info->id = r.id;
            return MPI_SUCCESS;
        }
        pthread_rwlock_wrlock(&axon_cuda_memtype_lock);
        axon_cuda_range_set_remove(&axon_cuda_memtype_ranges, r.base, r.id);
        pthread_rwlock_unlock(&axon_cuda_memtype_lock);
    } else if (axon_cuda_memtype_no_context()) {
        axon_memkind_set_host(info);
        axon_cuda_hostpage_note(a);
        return MPI_SUCCESS;
    }
    bool cacheable;
    int rc = axon_cuda_memtype_ask(a, info, &r, &cacheable);
    if (rc == MPI_SUCCESS && info->type == AXON_CUDA_MEMTYPE_HOST)
        axon_cuda_hostpage_note(a);
    if (rc == MPI_SUCCESS && cacheable) {
        pthread_rwlock_wrlock(&axon_cuda_memtype_lock);
        /* A failure to grow only means the next use asks again. */
        (void)axon_cuda_range_set_insert(&axon_cuda_memtype_ranges, &r);
        pthread_rwlock_unlock(&axon_cuda_memtype_lock);
    }
    return rc;
}

static const char *const axon_cuda_memtype_names[] = {"host", "pinned host", "device", "managed", "VMM"};

int axon_cuda_memtype_classify(const void *ptr, struct axon_memkind_info *info)
{
    int rc = axon_cuda_memtype_lookup(ptr, info);
    /* Support off, the driver installed only to look (AXON_CUDA=0 in a process that uses CUDA): a GPU
     * buffer is refused, by name, before anything reads it. */
    if (rc == MPI_SUCCESS && info->kind != AXON_MEMKIND_HOST && !axon_cuda_enabled()) {
        axon_runtime_log_error("buffer %p is GPU memory (%s, GPU %d), but CUDA support is off (AXON_CUDA=0): "
                               "pass host memory, or leave CUDA support on (AXON_CUDA=auto)",
                               ptr, axon_cuda_memtype_names[info->type], info->device);
        axon_memkind_set_host(info);
        return MPI_ERR_BUFFER;
    }
    return rc;
}

void axon_cuda_memtype_init(void)
{
    pthread_rwlock_wrlock(&axon_cuda_memtype_lock);
    axon_cuda_range_set_destroy(&axon_cuda_memtype_ranges);
    axon_cuda_range_set_init(&axon_cuda_memtype_ranges, AXON_CUDA_MEMTYPE_CACHE_MAX);
    pthread_rwlock_unlock(&axon_cuda_memtype_lock);
    atomic_store(&axon_cuda_ctx_seen, false);
    if (axon_cuda_nstatic == 0)
        dl_iterate_phdr(axon_cuda_memtype_phdr, NULL);
    if (axon_cuda_brk_start == 0)
        axon_cuda_brk_start = axon_cuda_memtype_read_start_brk();
    axon_cuda_hostpage_init();
}

void axon_cuda_memtype_finalize(void)
{
    axon_cuda_hostpage_finalize();
    pthread_rwlock_wrlock(&axon_cuda_memtype_lock);
    axon_cuda_range_set_destroy(&axon_cuda_memtype_ranges);
    pthread_rwlock_unlock(&axon_cuda_memtype_lock);
}

#else /* !AXON_HAVE_CUDA_H */

int axon_cuda_memtype_classify(const void *ptr, struct axon_memkind_info *info)
{
    (void)ptr;
    axon_memkind_set_host(info);
    return MPI_SUCCESS;
}

#endif
