/* A fake CUDA driver, built as a shared library (libaxon_fakecuda.so) that Axon loads instead of
 * libcuda.so.1 (AXON_CUDA_LIBRARY=<path>), so multi-process tests run the CUDA paths on machines without
 * a GPU. This file owns the fake: its devices, primary contexts and per-thread context stacks, its table
 * of allocations, its IPC handles, its VMM reservations and physical allocations (cuMemCreate, exported
 * and imported as POSIX fds), the counts tests read and the copy failures they ask for
 * (tests/fakecuda/fakecuda.h).
 *
 * Every function has cuda.h's exact prototype and its exported name (cuMemAlloc_v2, ...), and
 * cuGetProcAddress_v2 hands out the same functions, so both ways Axon's loader finds entry points are
 * exercised. What matters for Axon is followed closely:
 *   - "Device memory" is host memory Axon must not touch: it is mapped PROT_NONE and becomes readable
 *     and writable only inside the fake's own copies and memsets (mprotect around them, under the lock),
 *     so a direct load or store by the library on a device pointer kills the test with SIGSEGV, as it
 *     would fault or read garbage on a real GPU. Each device allocation is a memfd, so another process
 *     can map it through an IPC handle (which names the owner's pid, the fd and the allocation's id).
 *   - Managed and pinned host memory are ordinary accessible memory. Managed memory reports
 *     CU_MEMORYTYPE_DEVICE and IS_MANAGED=1, pinned memory CU_MEMORYTYPE_HOST.
 *   - Pointers the fake did not allocate answer as unregistered host memory does on a real driver:
 *     cuPointerGetAttribute fails with CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes succeeds with
 *     memory type 0 and null values.
 *   - Buffer ids grow with every allocation and are never reused.
 *   - Contexts: only primary contexts exist. cuInit makes none; cuDevicePrimaryCtxRetain makes it
 *     active, its last release destroys it with all the memory made in it; allocations, copies,
 *     memsets and stream waits need a current context (CUDA_ERROR_INVALID_CONTEXT otherwise), as on a
 *     real driver.
 * Streams exist only as names: every operation completes before it returns.
 *   - Modules: cuModuleLoadData takes a fatbin (its magic and length checked) in the current context;
 *     cuModuleGetFunction finds a kernel only when its name is a symbol of that image and the fake can
 *     run it (Axon's reduction kernels, emulated on the CPU by axon_fakecuda_kernels.c, and its copy
 *     kernels: axon_copy_u8 there, axon_copy_list here, a row of the grid per copy); cuLaunchKernel
 *     runs it in the module's context on memory the GPU could reach (device, managed, pinned, VMM or
 *     imported; pageable host memory is CUDA_ERROR_ILLEGAL_ADDRESS).
 *
 * Environment: FAKECUDA_DEVICES (GPUs, default 1; 0 makes cuInit fail with CUDA_ERROR_NO_DEVICE),
 * FAKECUDA_INIT_ERROR (a CUresult cuInit returns, as a machine with a driver but no working GPU does:
 * 999 is CUDA_ERROR_UNKNOWN), FAKECUDA_VERSION (cuDriverGetVersion's answer, default 12080), FAKECUDA_GET_PROC_ADDRESS=0
 * (cuGetProcAddress finds nothing, so callers fall back to dlsym), FAKECUDA_LOG=1 (each call on stderr),
 * FAKECUDA_STATS=1 (the counts on stderr at exit). tests/fakecuda/README.md says more. */
#include <cuda.h>

#include "tests/fakecuda/fakecuda.h"
#include "tests/fakecuda/axon_fakecuda_kernels.h"
#include "cuda_support/axon_cuda_reduce_list.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define FK_MAX_DEVICES 16
#define FK_STACK_MAX 64
#define FK_IPC_MAGIC 0x464b4950u /* "FKIP" */
/* The mapping attributes and memory block ids of recent drivers, spelled as numbers so the fake builds
 * with any cuda.h from 12.0 on. */
#define FK_ATTRIBUTE_MAPPING_SIZE 18
#define FK_ATTRIBUTE_MAPPING_BASE_ADDR 19
#define FK_ATTRIBUTE_MEMORY_BLOCK_ID 20

#define FK_STR_(x) #x
#define FK_STR(x) FK_STR_(x) /* the name after cuda.h's renaming: cuMemAlloc -> "cuMemAlloc_v2" */

/* ---- the entry points ---------------------------------------------------------------------------- */

/* X(function, the CUDA version that brought the variant we export). The base name is what
 * cuGetProcAddress is asked for; cuda.h's macros turn the function into the exported variant. */
#define FK_ENTRIES(X)                                                                                     \
    X(cuInit, 2000) X(cuDriverGetVersion, 2020) X(cuGetErrorString, 6000) X(cuGetErrorName, 6000)         \
    X(cuGetProcAddress, 12000) X(cuDeviceGetCount, 2000) X(cuDeviceGet, 2000) X(cuDeviceGetName, 2000)   \
    X(cuDeviceGetAttribute, 2000) X(cuDeviceCanAccessPeer, 4000) X(cuDevicePrimaryCtxRetain, 7000)        \
    X(cuDevicePrimaryCtxRelease, 11000) X(cuDevicePrimaryCtxGetState, 7000)                               \
    X(cuDevicePrimaryCtxSetFlags, 11000) X(cuCtxGetCurrent, 4000) X(cuCtxSetCurrent, 4000)                \
    X(cuCtxPushCurrent, 4000) X(cuCtxPopCurrent, 4000) X(cuCtxGetDevice, 2000) X(cuCtxSynchronize, 2000)  \
    X(cuMemAlloc, 3020) X(cuMemFree, 3020) X(cuMemAllocManaged, 6000) X(cuMemHostAlloc, 2020)             \
    X(cuMemAllocHost, 3020) X(cuMemFreeHost, 2000) X(cuMemHostRegister, 6050) X(cuMemHostUnregister, 4000) \
    X(cuMemGetAddressRange, 3020) X(cuPointerGetAttribute, 4000) X(cuPointerGetAttributes, 7000)          \
    X(cuMemcpy, 4000) X(cuMemcpyHtoD, 3020) X(cuMemcpyDtoH, 3020) X(cuMemcpyDtoD, 3020)                   \
    X(cuMemcpyAsync, 4000) X(cuMemcpyHtoDAsync, 3020) X(cuMemcpyDtoHAsync, 3020) X(cuMemsetD8, 3020)      \
    X(cuMemsetD8Async, 3020) X(cuStreamCreate, 2000) X(cuStreamDestroy, 4000) X(cuStreamSynchronize, 2000) \
    X(cuStreamQuery, 2000) X(cuMemRetainAllocationHandle, 11000) X(cuMemRelease, 10020)                   \
    X(cuIpcGetMemHandle, 4010) X(cuIpcOpenMemHandle, 11000) X(cuIpcCloseMemHandle, 4010)                  \
    X(cuMemAddressReserve, 10020) X(cuMemAddressFree, 10020) X(cuMemCreate, 10020) X(cuMemMap, 10020)     \
    X(cuMemUnmap, 10020) X(cuMemSetAccess, 10020) X(cuMemGetAllocationGranularity, 10020)                 \
    X(cuMemGetAllocationPropertiesFromHandle, 10020) X(cuMemExportToShareableHandle, 10020)               \
    X(cuMemImportFromShareableHandle, 10020) X(cuModuleLoadData, 2000) X(cuModuleUnload, 2000)              \
    X(cuModuleGetFunction, 2000) X(cuLaunchKernel, 4000)

enum {
#define FK_ENUM(fn, since) FK_##fn,
    FK_ENTRIES(FK_ENUM)
#undef FK_ENUM
    FK_NENTRIES
};

static const struct {
    const char *name;   /* base name */
    const char *symbol; /* exported name */
    void *fn;
    int since;
} fk_entries[FK_NENTRIES] = {
#define FK_TABLE(fn, since) [FK_##fn] = {#fn, FK_STR(fn), (void *)fn, since},
    FK_ENTRIES(FK_TABLE)
#undef FK_TABLE
};

/* ---- state --------------------------------------------------------------------------------------- */

/* cuda.h leaves these opaque: the fake's contexts are its primary contexts, its streams names. */
struct CUctx_st {
    int device;
    int refcount;       /* retains not yet released; 0: inactive (destroyed) */
    unsigned int flags;
};

struct CUstream_st {
    struct CUctx_st *ctx;
};

enum fk_kind {
    FK_DEVICE,     /* cuMemAlloc: PROT_NONE memfd mapping */
    FK_MANAGED,    /* cuMemAllocManaged: accessible */
    FK_PINNED,     /* cuMemHostAlloc / cuMemAllocHost: accessible */
    FK_REGISTERED, /* cuMemHostRegister of the program's memory: not ours to unmap */
    FK_IMPORTED,   /* cuIpcOpenMemHandle: another process's device memory, PROT_NONE */
    FK_VMM,        /* cuMemMap of a physical allocation (struct fk_phys) into a reservation, PROT_NONE */
};

struct fk_alloc {
    enum fk_kind kind;
    uintptr_t base;
    size_t size;        /* as asked for: the range the driver reports */
    size_t map_size;    /* mapped (whole pages); 0 for registered memory */
    int fd;             /* FK_DEVICE: the memfd IPC handles name; -1 otherwise */
    uint64_t id;        /* buffer id */
    int device;
    struct CUctx_st *ctx;
    int ipc_refs;       /* FK_IMPORTED: opens not yet closed */
    pid_t ipc_pid;      /* FK_IMPORTED: the exporter and its id of the allocation */
    uint64_t ipc_id;
    uint64_t vmm_handle;  /* FK_VMM: the physical allocation mapped here (its handle is its block id) */
    uint64_t vmm_access;  /* FK_VMM: the devices cuMemSetAccess let at it (bit per ordinal) */
};

/* VMM: a physical allocation (cuMemCreate, or cuMemImportFromShareableHandle of another process's). It
 * is a memfd named "fakecuda-vmm:<pid>:<id>:<device>:<handle types>", so an import of its exported fd
 * learns what it is; it lives while handles (create, import, retain: refs) or mappings (maps) remain,
 * and its memory while any process holds the memfd, as a shareable handle keeps a real allocation. */
struct fk_phys {
    uint64_t handle;   /* the CUmemGenericAllocationHandle value, also the memory block id */
    size_t size;
    int fd;
    int device;
    unsigned types;    /* requestedHandleTypes */
    int refs, maps;
};

/* VMM: an address range of cuMemAddressReserve (PROT_NONE, MAP_NORESERVE anonymous memory). Its id is
 * the buffer id of every mapping in it: a real driver keeps the buffer id when a mapping is replaced. */
struct fk_reserve {
    uintptr_t base;
    size_t size;
    uint64_t id;
};

/* What a CUipcMemHandle holds (64 bytes in cuda.h). */
struct fk_ipc_handle {
    uint32_t magic;
    int32_t pid;
    int32_t fd;
    int32_t device;
    uint64_t id;
    uint64_t size;
    uint64_t map_size;
};
_Static_assert(sizeof(struct fk_ipc_handle) <= CU_IPC_HANDLE_SIZE, "the IPC handle must fit cuda.h's");

/* One lock for the tables, the contexts' counts and the copies: copies open device memory for access,
 * and two copies of the same allocation must not close it under each other. */
static pthread_mutex_t fk_lock = PTHREAD_MUTEX_INITIALIZER;
static void fk_late_land(void); /* held-back copies land (FAKECUDA_LATE_HTOD); under the lock */
static atomic_bool fk_initialized;
static struct CUctx_st fk_primary[FK_MAX_DEVICES];
static __thread struct CUctx_st *fk_stack[FK_STACK_MAX];
static __thread int fk_depth;
static struct fk_alloc *fk_allocs;
static size_t fk_nallocs, fk_cap;
static struct CUstream_st **fk_streams;
static size_t fk_nstreams, fk_streams_cap;
static uint64_t fk_next_id = 1;
static size_t fk_page = 4096;
static struct fk_phys *fk_physs;
static size_t fk_nphys, fk_phys_cap;
static struct fk_reserve *fk_reserves;
static size_t fk_nreserves, fk_reserves_cap;
/* cuMemGetAllocationGranularity's answer, as on current GPUs: sizes, offsets and addresses of VMM
 * calls are multiples of it. */
#define FK_VMM_GRANULARITY ((size_t)2 << 20)

/* Set from the environment when the library is loaded. */
static int fk_ndevices = 1;
static int fk_init_error; /* FAKECUDA_INIT_ERROR: cuInit's answer when not 0 */
static int fk_peer_group = FK_MAX_DEVICES; /* GPUs that are each other's peers: ordinals / group alike */
static int fk_version = 12080;
static bool fk_log, fk_stats_at_exit, fk_proc_address = true;

static atomic_ullong fk_calls[FK_NENTRIES];
static struct fakecuda_copy_stats fk_copies; /* under fk_lock */

/* ---- errors, counting and the log -------------------------------------------------------------- */

static const struct {
    CUresult rc;
    const char *name, *text;
} fk_errors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"},
    {CUDA_ERROR_MAP_FAILED, "CUDA_ERROR_MAP_FAILED", "mapping of buffer object failed"},
    {CUDA_ERROR_ALREADY_MAPPED, "CUDA_ERROR_ALREADY_MAPPED", "resource already mapped"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static int fk_error_index(CUresult rc)
{
    for (size_t i = 0; i < sizeof(fk_errors) / sizeof(fk_errors[0]); i++)
        if (fk_errors[i].rc == rc)
            return (int)i;
    return -1;
}

/* Every entry point returns through here: the call is counted, and logged under FAKECUDA_LOG. */
static CUresult fk_ret(int entry, CUresult rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static CUresult fk_ret(int entry, CUresult rc, const char *fmt, ...)
{
    atomic_fetch_add_explicit(&fk_calls[entry], 1, memory_order_relaxed);
    if (fk_log) {
        char args[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(args, sizeof(args), fmt, ap);
        va_end(ap);
        int e = fk_error_index(rc);
        fprintf(stderr, "fakecuda[%d]: %s(%s) = %s\n", (int)getpid(), fk_entries[entry].symbol, args,
                e >= 0 ? fk_errors[e].name : "?");
    }
    return rc;
}

static bool fk_env_flag(const char *name, bool dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    return strcmp(v, "0") != 0 && strcmp(v, "no") != 0 && strcmp(v, "off") != 0;
}

static int fk_env_int(const char *name, int dflt, int lo, int hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end != '\0' || x < lo || x > hi) {
        fprintf(stderr, "fakecuda: %s='%s' is not a number in [%d, %d]; using %d\n", name, v, lo, hi, dflt);
        return dflt;
    }
    return (int)x;
}

__attribute__((constructor)) static void fk_load(void)
{
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0)
        fk_page = (size_t)page;
    fk_ndevices = fk_env_int("FAKECUDA_DEVICES", 1, 0, FK_MAX_DEVICES);
    fk_init_error = fk_env_int("FAKECUDA_INIT_ERROR", 0, 0, 999);
    fk_peer_group = fk_env_int("FAKECUDA_PEER_GROUP", FK_MAX_DEVICES, 1, FK_MAX_DEVICES);
    fk_version = fk_env_int("FAKECUDA_VERSION", 12080, 1000, 99990);
    fk_proc_address = fk_env_flag("FAKECUDA_GET_PROC_ADDRESS", true);
    fk_log = fk_env_flag("FAKECUDA_LOG", false);
    fk_stats_at_exit = fk_env_flag("FAKECUDA_STATS", false);
    for (int i = 0; i < FK_MAX_DEVICES; i++)
        fk_primary[i].device = i;
}

__attribute__((destructor)) static void fk_unload(void)
{
    if (!fk_stats_at_exit)
        return;
    fprintf(stderr, "fakecuda[%d]: calls:", (int)getpid());
    for (int i = 0; i < FK_NENTRIES; i++) {
        unsigned long long n = atomic_load(&fk_calls[i]);
        if (n)
            fprintf(stderr, " %s %llu", fk_entries[i].name, n);
    }
    fprintf(stderr, "\nfakecuda[%d]: copies: htod %llu (%llu bytes) dtoh %llu (%llu bytes) dtod %llu (%llu bytes) "
            "htoh %llu (%llu bytes)\n", (int)getpid(), fk_copies.htod, fk_copies.bytes_htod, fk_copies.dtoh,
            fk_copies.bytes_dtoh, fk_copies.dtod, fk_copies.bytes_dtod, fk_copies.htoh, fk_copies.bytes_htoh);
}

unsigned long long fakecuda_calls(const char *name)
{
    unsigned long long n = 0;
    for (int i = 0; i < FK_NENTRIES; i++)
        if (!name || strcmp(name, fk_entries[i].name) == 0 || strcmp(name, fk_entries[i].symbol) == 0)
            n += atomic_load(&fk_calls[i]);
    return n;
}

void fakecuda_copy_stats(struct fakecuda_copy_stats *out)
{
    pthread_mutex_lock(&fk_lock);
    *out = fk_copies;
    pthread_mutex_unlock(&fk_lock);
}

/* Failures to inject into cuMemcpy (under fk_lock): after fk_fail_skip more calls, fk_fail_count fail. */
static unsigned long long fk_fail_skip, fk_fail_count;

void fakecuda_fail_memcpy(unsigned long long skip, unsigned long long count)
{
    pthread_mutex_lock(&fk_lock);
    fk_fail_skip = skip;
    fk_fail_count = count;
    pthread_mutex_unlock(&fk_lock);
}

/* Whether this cuMemcpy is one to fail. */
static bool fk_fail_now(void)
{
    pthread_mutex_lock(&fk_lock);
    bool fail = false;
    if (fk_fail_skip > 0)
        fk_fail_skip--;
    else if (fk_fail_count > 0) {
        fk_fail_count--;
        fail = true;
    }
    pthread_mutex_unlock(&fk_lock);
    return fail;
}

void fakecuda_reset_stats(void)
{
    pthread_mutex_lock(&fk_lock);
    memset(&fk_copies, 0, sizeof(fk_copies));
    pthread_mutex_unlock(&fk_lock);
    for (int i = 0; i < FK_NENTRIES; i++)
        atomic_store(&fk_calls[i], 0);
}

/* ---- the allocation table (under fk_lock) --------------------------------------------------------- */

/* The allocation whose reported range holds a. */
static struct fk_alloc *fk_find(uintptr_t a)
{
    for (size_t i = 0; i < fk_nallocs; i++)
        if (a >= fk_allocs[i].base && a - fk_allocs[i].base < fk_allocs[i].size)
            return &fk_allocs[i];
    return NULL;
}

/* A new slot; pointers into the table are invalid afterwards. */
static struct fk_alloc *fk_add(void)
{
    if (fk_nallocs == fk_cap) {
        size_t cap = fk_cap ? 2 * fk_cap : 64;
        struct fk_alloc *t = realloc(fk_allocs, cap * sizeof(*t));
        if (!t)
            return NULL;
        fk_allocs = t;
        fk_cap = cap;
    }
    struct fk_alloc *f = &fk_allocs[fk_nallocs++];
    memset(f, 0, sizeof(*f));
    f->fd = -1;
    return f;
}

static void fk_phys_unref(uint64_t handle, bool mapping);

/* Unmaps what the fake mapped and forgets the allocation. A VMM mapping gives its addresses back to
 * its reservation (PROT_NONE again) and drops its hold on the physical allocation. */
static void fk_remove(struct fk_alloc *f)
{
    if (f->kind == FK_VMM) {
        mmap((void *)f->base, f->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
        uint64_t h = f->vmm_handle;
        *f = fk_allocs[--fk_nallocs];
        fk_phys_unref(h, true);
        return;
    }
    if (f->map_size)
        munmap((void *)f->base, f->map_size);
    if (f->fd >= 0)
        close(f->fd);
    *f = fk_allocs[--fk_nallocs];
}

static bool fk_is_device(const struct fk_alloc *f)
{
    return f && (f->kind == FK_DEVICE || f->kind == FK_MANAGED || f->kind == FK_IMPORTED || f->kind == FK_VMM);
}

static bool fk_is_protected(const struct fk_alloc *f)
{
    return f && (f->kind == FK_DEVICE || f->kind == FK_IMPORTED || f->kind == FK_VMM);
}

static size_t fk_round_to_page(size_t n)
{
    return (n + fk_page - 1) / fk_page * fk_page;
}

/* The calling thread's context, which must be usable for an allocation or a copy. */
static CUresult fk_current(struct CUctx_st **ctx)
{
    if (!atomic_load(&fk_initialized))
        return CUDA_ERROR_NOT_INITIALIZED;
    if (fk_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    struct CUctx_st *c = fk_stack[fk_depth - 1];
    if (c->refcount == 0)
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    *ctx = c;
    return CUDA_SUCCESS;
}

static struct CUctx_st *fk_context_of(CUcontext ctx)
{
    for (int i = 0; i < fk_ndevices; i++)
        if (ctx == &fk_primary[i])
            return &fk_primary[i];
    return NULL;
}

static bool fk_device_ok(CUdevice dev)
{
    return dev >= 0 && dev < fk_ndevices;
}

static bool fk_stream_ok(CUstream s)
{
    if (s == NULL || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
        return true;
    for (size_t i = 0; i < fk_nstreams; i++)
        if (fk_streams[i] == s)
            return true;
    return false;
}

/* A context's last release destroys it and, as on a real driver, everything allocated in it. */
static void fk_destroy_context(struct CUctx_st *c)
{
    for (size_t i = fk_nallocs; i-- > 0;)
        if (fk_allocs[i].ctx == c)
            fk_remove(&fk_allocs[i]);
    for (size_t i = fk_nstreams; i-- > 0;)
        if (fk_streams[i]->ctx == c) {
            free(fk_streams[i]);
            fk_streams[i] = fk_streams[--fk_nstreams];
        }
}

/* ---- initialization and devices ------------------------------------------------------------------ */

CUresult CUDAAPI cuInit(unsigned int Flags)
{
    CUresult rc = CUDA_SUCCESS;
    if (Flags != 0)
        rc = CUDA_ERROR_INVALID_VALUE;
    else if (fk_init_error)
        rc = (CUresult)fk_init_error;
    else if (fk_ndevices == 0)
        rc = CUDA_ERROR_NO_DEVICE;
    else
        atomic_store(&fk_initialized, true);
    return fk_ret(FK_cuInit, rc, "%u", Flags);
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
    CUresult rc = driverVersion ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    if (driverVersion)
        *driverVersion = fk_version;
    return fk_ret(FK_cuDriverGetVersion, rc, "%p", (void *)driverVersion);
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr)
{
    int e = fk_error_index(error);
    if (pStr)
        *pStr = e >= 0 ? fk_errors[e].text : NULL;
    return fk_ret(FK_cuGetErrorString, pStr && e >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE, "%d", (int)error);
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr)
{
    int e = fk_error_index(error);
    if (pStr)
        *pStr = e >= 0 ? fk_errors[e].name : NULL;
    return fk_ret(FK_cuGetErrorName, pStr && e >= 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE, "%d", (int)error);
}

/* Older variants (the 32-bit cuMemAlloc of CUDA 3.1 ...) are not provided: asked for an ABI older than
 * the variant exported here, it answers VERSION_NOT_SUFFICIENT. The per-thread default stream variants
 * are the same functions, since every operation completes before it returns. */
CUresult CUDAAPI cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                  CUdriverProcAddressQueryResult *symbolStatus)
{
    CUresult rc = CUDA_ERROR_NOT_FOUND;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!symbol || !pfn || (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                                                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))) {
        rc = CUDA_ERROR_INVALID_VALUE;
        goto out;
    }
    *pfn = NULL;
    if (!fk_proc_address)
        goto out;
    for (int i = 0; i < FK_NENTRIES; i++) {
        if (strcmp(symbol, fk_entries[i].name) != 0)
            continue;
        if (cudaVersion < fk_entries[i].since) {
            status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
            break;
        }
        *pfn = fk_entries[i].fn;
        status = CU_GET_PROC_ADDRESS_SUCCESS;
        rc = CUDA_SUCCESS;
        break;
    }
out:
    if (symbolStatus)
        *symbolStatus = status;
    return fk_ret(FK_cuGetProcAddress, rc, "\"%s\", %d, %#llx", symbol ? symbol : "(null)", cudaVersion,
                  (unsigned long long)flags);
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !count                      ? CUDA_ERROR_INVALID_VALUE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        *count = fk_ndevices;
    return fk_ret(FK_cuDeviceGetCount, rc, "%p", (void *)count);
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !device                     ? CUDA_ERROR_INVALID_VALUE
                  : !fk_device_ok(ordinal)      ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        *device = ordinal;
    return fk_ret(FK_cuDeviceGet, rc, "%d", ordinal);
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !name || len <= 0           ? CUDA_ERROR_INVALID_VALUE
                  : !fk_device_ok(dev)          ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "Axon fake GPU");
    return fk_ret(FK_cuDeviceGetName, rc, "%p, %d, %d", (void *)name, len, (int)dev);
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !pi                         ? CUDA_ERROR_INVALID_VALUE
                  : !fk_device_ok(dev)          ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) {
        /* A Hopper-like GPU on its own PCI bus, without GPUDirect RDMA; what is not listed is 0. */
        switch (attrib) {
        case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
        case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
        case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
        case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
            *pi = 1;
            break;
        case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *pi = 9; break;
        case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = 132; break;
        case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *pi = 32; break;
        case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: *pi = 0x10 + (int)dev; break;
        /* FAKECUDA_MPS=0: a GPU without MPS (default: with, so that ranks sharing it are quiet). */
        case (CUdevice_attribute)133: *pi = fk_env_flag("FAKECUDA_MPS", true); break;
        default:
            if ((int)attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX)
                rc = CUDA_ERROR_INVALID_VALUE;
            else
                *pi = 0;
        }
    }
    return fk_ret(FK_cuDeviceGetAttribute, rc, "%d, %d", (int)attrib, (int)dev);
}

CUresult CUDAAPI cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    CUresult rc = !atomic_load(&fk_initialized)                ? CUDA_ERROR_NOT_INITIALIZED
                  : !canAccessPeer                             ? CUDA_ERROR_INVALID_VALUE
                  : !fk_device_ok(dev) || !fk_device_ok(peerDev) ? CUDA_ERROR_INVALID_DEVICE
                                                               : CUDA_SUCCESS;
    /* Every pair, as on an NVLink machine, or within groups of FAKECUDA_PEER_GROUP GPUs (two NVLink
     * islands on PCIe without P2P between them); a device and itself, as on the real driver, are not
     * peers. */
    if (rc == CUDA_SUCCESS)
        *canAccessPeer = dev != peerDev && dev / fk_peer_group == peerDev / fk_peer_group;
    return fk_ret(FK_cuDeviceCanAccessPeer, rc, "%d, %d", (int)dev, (int)peerDev);
}

/* ---- contexts ----------------------------------------------------------------------------------- */

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !pctx                       ? CUDA_ERROR_INVALID_VALUE
                  : !fk_device_ok(dev)          ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) {
        pthread_mutex_lock(&fk_lock);
        fk_primary[dev].refcount++;
        pthread_mutex_unlock(&fk_lock);
        *pctx = &fk_primary[dev];
    }
    return fk_ret(FK_cuDevicePrimaryCtxRetain, rc, "%d", (int)dev);
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !fk_device_ok(dev)          ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) {
        pthread_mutex_lock(&fk_lock);
        if (fk_primary[dev].refcount == 0)
            rc = CUDA_ERROR_INVALID_CONTEXT;
        else if (--fk_primary[dev].refcount == 0)
            fk_destroy_context(&fk_primary[dev]);
        pthread_mutex_unlock(&fk_lock);
    }
    return fk_ret(FK_cuDevicePrimaryCtxRelease, rc, "%d", (int)dev);
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !flags || !active           ? CUDA_ERROR_INVALID_VALUE
                  : !fk_device_ok(dev)          ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) {
        pthread_mutex_lock(&fk_lock);
        *flags = fk_primary[dev].flags;
        *active = fk_primary[dev].refcount > 0;
        pthread_mutex_unlock(&fk_lock);
    }
    return fk_ret(FK_cuDevicePrimaryCtxGetState, rc, "%d", (int)dev);
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !fk_device_ok(dev)          ? CUDA_ERROR_INVALID_DEVICE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS) {
        pthread_mutex_lock(&fk_lock);
        fk_primary[dev].flags = flags;
        pthread_mutex_unlock(&fk_lock);
    }
    return fk_ret(FK_cuDevicePrimaryCtxSetFlags, rc, "%d, %#x", (int)dev, flags);
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult rc = !atomic_load(&fk_initialized) ? CUDA_ERROR_NOT_INITIALIZED
                  : !pctx                       ? CUDA_ERROR_INVALID_VALUE
                                                : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        *pctx = fk_depth ? fk_stack[fk_depth - 1] : NULL;
    return fk_ret(FK_cuCtxGetCurrent, rc, "%p", (void *)pctx);
}

/* Replaces the top of the thread's stack (pushes onto an empty one); NULL pops. */
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
    CUresult rc = CUDA_SUCCESS;
    struct CUctx_st *c = fk_context_of(ctx);
    if (!atomic_load(&fk_initialized))
        rc = CUDA_ERROR_NOT_INITIALIZED;
    else if (!ctx) {
        if (fk_depth)
            fk_depth--;
    } else if (!c)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    else if (fk_depth)
        fk_stack[fk_depth - 1] = c;
    else
        fk_stack[fk_depth++] = c;
    return fk_ret(FK_cuCtxSetCurrent, rc, "%p", (void *)ctx);
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx)
{
    CUresult rc = CUDA_SUCCESS;
    struct CUctx_st *c = fk_context_of(ctx);
    if (!atomic_load(&fk_initialized))
        rc = CUDA_ERROR_NOT_INITIALIZED;
    else if (!ctx)
        rc = CUDA_ERROR_INVALID_VALUE;
    else if (!c)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    else if (fk_depth == FK_STACK_MAX)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    else
        fk_stack[fk_depth++] = c;
    return fk_ret(FK_cuCtxPushCurrent, rc, "%p", (void *)ctx);
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext *pctx)
{
    CUresult rc = CUDA_SUCCESS;
    if (!atomic_load(&fk_initialized))
        rc = CUDA_ERROR_NOT_INITIALIZED;
    else if (fk_depth == 0)
        rc = CUDA_ERROR_INVALID_CONTEXT;
    else {
        struct CUctx_st *c = fk_stack[--fk_depth];
        if (pctx)
            *pctx = c;
    }
    return fk_ret(FK_cuCtxPopCurrent, rc, "%p", (void *)pctx);
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    struct CUctx_st *c = NULL;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = device ? fk_current(&c) : CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_unlock(&fk_lock);
    if (rc == CUDA_SUCCESS)
        *device = c->device;
    return fk_ret(FK_cuCtxGetDevice, rc, "%p", (void *)device);
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
    struct CUctx_st *c;
    pthread_mutex_lock(&fk_lock);
    fk_late_land();
    CUresult rc = fk_current(&c);
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuCtxSynchronize, rc, "%s", "");
}

/* ---- memory ------------------------------------------------------------------------------------- */

/* Device (a PROT_NONE memfd mapping), managed or pinned memory of bytes, in the current context. */
static CUresult fk_alloc_memory(enum fk_kind kind, size_t bytes, uintptr_t *out)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    if (rc != CUDA_SUCCESS)
        goto out;
    if (!out || bytes == 0) {
        rc = CUDA_ERROR_INVALID_VALUE;
        goto out;
    }
    size_t map_size = fk_round_to_page(bytes);
    uint64_t id = fk_next_id++;
    int fd = -1;
    void *p;
    if (kind == FK_DEVICE) {
        /* The name ties a handle to this allocation: cuIpcOpenMemHandle checks it, so an fd number
         * reused after a free is not mistaken for the memory the handle named. */
        char name[64];
        snprintf(name, sizeof(name), "fakecuda:%d:%llu", (int)getpid(), (unsigned long long)id);
        fd = memfd_create(name, MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)map_size) != 0) {
            if (fd >= 0)
                close(fd);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
            goto out;
        }
        p = mmap(NULL, map_size, PROT_NONE, MAP_SHARED, fd, 0);
    } else {
        p = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    struct fk_alloc *f = p == MAP_FAILED ? NULL : fk_add();
    if (!f) {
        if (p != MAP_FAILED)
            munmap(p, map_size);
        if (fd >= 0)
            close(fd);
        rc = CUDA_ERROR_OUT_OF_MEMORY;
        goto out;
    }
    f->kind = kind;
    f->base = (uintptr_t)p;
    f->size = bytes;
    f->map_size = map_size;
    f->fd = fd;
    f->id = id;
    f->device = ctx->device;
    f->ctx = ctx;
    *out = (uintptr_t)p;
out:
    pthread_mutex_unlock(&fk_lock);
    return rc;
}

/* Frees the allocation that starts at p, if it is of one of the two kinds. */
static CUresult fk_free_memory(uintptr_t p, enum fk_kind kind1, enum fk_kind kind2)
{
    if (!atomic_load(&fk_initialized))
        return CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    fk_late_land();
    struct fk_alloc *f = fk_find(p);
    CUresult rc = CUDA_ERROR_INVALID_VALUE;
    if (f && f->base == p && (f->kind == kind1 || f->kind == kind2)) {
        fk_remove(f);
        rc = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&fk_lock);
    return rc;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize)
{
    uintptr_t p = 0;
    CUresult rc = fk_alloc_memory(FK_DEVICE, bytesize, dptr ? &p : NULL);
    if (rc == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)p;
    return fk_ret(FK_cuMemAlloc, rc, "%zu -> %#lx", bytesize, (unsigned long)p);
}

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr)
{
    CUresult rc = fk_free_memory((uintptr_t)dptr, FK_DEVICE, FK_MANAGED);
    return fk_ret(FK_cuMemFree, rc, "%#llx", (unsigned long long)dptr);
}

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    uintptr_t p = 0;
    CUresult rc = flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST
                      ? CUDA_ERROR_INVALID_VALUE
                      : fk_alloc_memory(FK_MANAGED, bytesize, dptr ? &p : NULL);
    if (rc == CUDA_SUCCESS)
        *dptr = (CUdeviceptr)p;
    return fk_ret(FK_cuMemAllocManaged, rc, "%zu, %#x -> %#lx", bytesize, flags, (unsigned long)p);
}

CUresult CUDAAPI cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    uintptr_t p = 0;
    CUresult rc = fk_alloc_memory(FK_PINNED, bytesize, pp ? &p : NULL);
    if (rc == CUDA_SUCCESS)
        *pp = (void *)p;
    return fk_ret(FK_cuMemHostAlloc, rc, "%zu, %#x -> %#lx", bytesize, Flags, (unsigned long)p);
}

CUresult CUDAAPI cuMemAllocHost(void **pp, size_t bytesize)
{
    uintptr_t p = 0;
    CUresult rc = fk_alloc_memory(FK_PINNED, bytesize, pp ? &p : NULL);
    if (rc == CUDA_SUCCESS)
        *pp = (void *)p;
    return fk_ret(FK_cuMemAllocHost, rc, "%zu -> %#lx", bytesize, (unsigned long)p);
}

CUresult CUDAAPI cuMemFreeHost(void *p)
{
    CUresult rc = fk_free_memory((uintptr_t)p, FK_PINNED, FK_PINNED);
    return fk_ret(FK_cuMemFreeHost, rc, "%p", p);
}

CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    if (rc == CUDA_SUCCESS && (!p || bytesize == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < fk_nallocs; i++) {
        const struct fk_alloc *g = &fk_allocs[i];
        if ((uintptr_t)p < g->base + g->size && g->base < (uintptr_t)p + bytesize)
            rc = g->kind == FK_PINNED || g->kind == FK_REGISTERED ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
                                                                  : CUDA_ERROR_INVALID_VALUE;
    }
    struct fk_alloc *f = rc == CUDA_SUCCESS ? fk_add() : NULL;
    if (rc == CUDA_SUCCESS && !f)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (f) {
        f->kind = FK_REGISTERED;
        f->base = (uintptr_t)p;
        f->size = bytesize;
        f->id = fk_next_id++;
        f->device = ctx->device;
        f->ctx = ctx;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemHostRegister, rc, "%p, %zu, %#x", p, bytesize, Flags);
}

CUresult CUDAAPI cuMemHostUnregister(void *p)
{
    CUresult rc = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    if (!atomic_load(&fk_initialized))
        rc = CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    struct fk_alloc *f = rc == CUDA_ERROR_NOT_INITIALIZED ? NULL : fk_find((uintptr_t)p);
    if (f && f->kind == FK_REGISTERED && f->base == (uintptr_t)p) {
        fk_remove(f);
        rc = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemHostUnregister, rc, "%p", p);
}

CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    CUresult rc = CUDA_ERROR_NOT_FOUND;
    if (!atomic_load(&fk_initialized))
        rc = CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    struct fk_alloc *f = rc == CUDA_ERROR_NOT_INITIALIZED ? NULL : fk_find((uintptr_t)dptr);
    if (f) {
        if (pbase)
            *pbase = (CUdeviceptr)f->base;
        if (psize)
            *psize = f->size;
        rc = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemGetAddressRange, rc, "%#llx", (unsigned long long)dptr);
}

/* ---- virtual memory management (cuMemCreate, cuMemMap ...) ------------------------------------------- */

/* The physical allocation of a handle (under fk_lock). */
static struct fk_phys *fk_phys_of(uint64_t handle)
{
    for (size_t i = 0; i < fk_nphys; i++)
        if (fk_physs[i].handle == handle)
            return &fk_physs[i];
    return NULL;
}

/* A new physical allocation over memfd fd (taken over); NULL when out of memory. */
static struct fk_phys *fk_phys_add(int fd, size_t size, int device, unsigned types)
{
    if (fk_nphys == fk_phys_cap) {
        size_t cap = fk_phys_cap ? 2 * fk_phys_cap : 16;
        struct fk_phys *t = realloc(fk_physs, cap * sizeof(*t));
        if (!t)
            return NULL;
        fk_physs = t;
        fk_phys_cap = cap;
    }
    struct fk_phys *p = &fk_physs[fk_nphys++];
    *p = (struct fk_phys){.handle = fk_next_id++, .size = size, .fd = fd, .device = device, .types = types,
                          .refs = 1};
    return p;
}

/* Drops a handle reference or a mapping; the allocation goes with the last of both. */
static void fk_phys_unref(uint64_t handle, bool mapping)
{
    struct fk_phys *p = fk_phys_of(handle);
    if (!p)
        return;
    if (mapping)
        p->maps--;
    else
        p->refs--;
    if (p->refs <= 0 && p->maps <= 0) {
        close(p->fd);
        *p = fk_physs[--fk_nphys];
    }
}

/* The reservation holding a (under fk_lock). */
static struct fk_reserve *fk_reserve_of(uintptr_t a)
{
    for (size_t i = 0; i < fk_nreserves; i++)
        if (a >= fk_reserves[i].base && a - fk_reserves[i].base < fk_reserves[i].size)
            return &fk_reserves[i];
    return NULL;
}

static bool fk_vmm_aligned(uintptr_t x)
{
    return x % FK_VMM_GRANULARITY == 0;
}

static bool fk_vmm_prop_ok(const CUmemAllocationProp *prop)
{
    return prop && prop->type == CU_MEM_ALLOCATION_TYPE_PINNED && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
           fk_device_ok(prop->location.id) &&
           (prop->requestedHandleTypes & ~(unsigned)CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) == 0;
}

CUresult CUDAAPI cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                               CUmemAllocationGranularity_flags option)
{
    CUresult rc = !atomic_load(&fk_initialized)                  ? CUDA_ERROR_NOT_INITIALIZED
                  : !granularity || !fk_vmm_prop_ok(prop) || option > 1 ? CUDA_ERROR_INVALID_VALUE
                                                                 : CUDA_SUCCESS;
    if (rc == CUDA_SUCCESS)
        *granularity = FK_VMM_GRANULARITY;
    return fk_ret(FK_cuMemGetAllocationGranularity, rc, "%d", (int)option);
}

/* Address space only: PROT_NONE, aligned to the granularity (or the alignment asked, if larger). The
 * address hint is ignored, as a real driver may. */
CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                                     unsigned long long flags)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    uintptr_t base = 0;
    size_t align = alignment > FK_VMM_GRANULARITY ? alignment : FK_VMM_GRANULARITY;
    if (rc == CUDA_SUCCESS && (!ptr || size == 0 || !fk_vmm_aligned(size) || flags != 0 || (align & (align - 1))))
        rc = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&fk_lock);
    if (rc == CUDA_SUCCESS && fk_nreserves == fk_reserves_cap) {
        size_t cap = fk_reserves_cap ? 2 * fk_reserves_cap : 16;
        struct fk_reserve *t = realloc(fk_reserves, cap * sizeof(*t));
        if (t) {
            fk_reserves = t;
            fk_reserves_cap = cap;
        } else {
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    if (rc == CUDA_SUCCESS) {
        void *p = mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            uintptr_t raw = (uintptr_t)p;
            base = (raw + align - 1) & ~(uintptr_t)(align - 1);
            if (base > raw)
                munmap(p, base - raw);
            if (raw + size + align > base + size)
                munmap((void *)(base + size), raw + size + align - (base + size));
            fk_reserves[fk_nreserves++] = (struct fk_reserve){.base = base, .size = size, .id = fk_next_id++};
            *ptr = (CUdeviceptr)base;
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemAddressReserve, rc, "%zu, %zu, %#llx -> %#lx", size, alignment, (unsigned long long)addr,
                  (unsigned long)base);
}

/* A whole reservation, with nothing mapped in it any more. */
CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    struct fk_reserve *r = rc == CUDA_ERROR_NOT_INITIALIZED ? NULL : fk_reserve_of((uintptr_t)ptr);
    if (r && r->base == (uintptr_t)ptr && r->size == size) {
        rc = CUDA_SUCCESS;
        for (size_t i = 0; i < fk_nallocs; i++)
            if (fk_allocs[i].kind == FK_VMM && fk_allocs[i].base - r->base < r->size)
                rc = CUDA_ERROR_INVALID_VALUE; /* still mapped */
        if (rc == CUDA_SUCCESS) {
            munmap((void *)r->base, r->size);
            *r = fk_reserves[--fk_nreserves];
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemAddressFree, rc, "%#llx, %zu", (unsigned long long)ptr, size);
}

/* Physical memory of a GPU: a memfd, shareable as a POSIX fd when the properties asked for it. Needs
 * cuInit, not a context, as on a real driver. */
CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                             unsigned long long flags)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    uint64_t h = 0;
    if (rc == CUDA_SUCCESS && (!handle || size == 0 || !fk_vmm_aligned(size) || !fk_vmm_prop_ok(prop) || flags))
        rc = CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&fk_lock);
    if (rc == CUDA_SUCCESS) {
        char name[96];
        snprintf(name, sizeof(name), "fakecuda-vmm:%d:%llu:%d:%u", (int)getpid(), (unsigned long long)fk_next_id,
                 prop->location.id, (unsigned)prop->requestedHandleTypes);
        int fd = memfd_create(name, MFD_CLOEXEC);
        struct fk_phys *p = NULL;
        if (fd >= 0 && ftruncate(fd, (off_t)size) == 0)
            p = fk_phys_add(fd, size, prop->location.id, (unsigned)prop->requestedHandleTypes);
        if (!p) {
            if (fd >= 0)
                close(fd);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            h = p->handle;
            *handle = h;
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemCreate, rc, "%zu -> %#llx", size, (unsigned long long)h);
}

CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    struct fk_phys *p = rc == CUDA_ERROR_NOT_INITIALIZED ? NULL : fk_phys_of(handle);
    if (p && p->refs > 0) {
        fk_phys_unref(handle, false);
        rc = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemRelease, rc, "%#llx", (unsigned long long)handle);
}

/* Maps [offset, offset + size) of the allocation at ptr, inside one reservation, over nothing already
 * mapped. The mapping starts with no access (cuMemSetAccess grants it). */
CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                          unsigned long long flags)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    uintptr_t a = (uintptr_t)ptr;
    pthread_mutex_lock(&fk_lock);
    struct fk_reserve *r = fk_reserve_of(a);
    struct fk_phys *p = fk_phys_of(handle);
    if (rc == CUDA_SUCCESS && (!r || !p || flags || size == 0 || !fk_vmm_aligned(a) || !fk_vmm_aligned(size) ||
                               !fk_vmm_aligned(offset) || size > r->base + r->size - a || offset > p->size ||
                               size > p->size - offset))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < fk_nallocs; i++)
        if (fk_allocs[i].kind == FK_VMM && fk_allocs[i].base < a + size && a < fk_allocs[i].base + fk_allocs[i].size)
            rc = CUDA_ERROR_ALREADY_MAPPED;
    struct fk_alloc *f = NULL;
    if (rc == CUDA_SUCCESS) {
        int fd = p->fd;
        int device = p->device;
        f = fk_add();
        if (!f || mmap((void *)a, size, PROT_NONE, MAP_SHARED | MAP_FIXED, fd, (off_t)offset) == MAP_FAILED) {
            if (f)
                fk_nallocs--;
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            f->kind = FK_VMM;
            f->base = a;
            f->size = size;
            f->map_size = size;
            f->id = handle;
            f->device = device;
            f->vmm_handle = handle;
            fk_phys_of(handle)->maps++;
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemMap, rc, "%#llx, %zu, %zu, %#llx", (unsigned long long)ptr, size, offset,
                  (unsigned long long)handle);
}

/* Whole mappings only (the range may hold several side by side), as the real driver requires. */
CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    uintptr_t a = (uintptr_t)ptr;
    pthread_mutex_lock(&fk_lock);
    size_t covered = 0;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < fk_nallocs; i++) {
        const struct fk_alloc *g = &fk_allocs[i];
        if (g->kind != FK_VMM || g->base >= a + size || a >= g->base + g->size)
            continue;
        if (g->base < a || g->base + g->size > a + size)
            rc = CUDA_ERROR_INVALID_VALUE; /* a part of a mapping */
        covered += g->size;
    }
    if (rc == CUDA_SUCCESS && (size == 0 || covered != size))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = fk_nallocs; rc == CUDA_SUCCESS && i-- > 0;)
        if (fk_allocs[i].kind == FK_VMM && fk_allocs[i].base >= a && fk_allocs[i].base < a + size)
            fk_remove(&fk_allocs[i]);
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemUnmap, rc, "%#llx, %zu", (unsigned long long)ptr, size);
}

/* Grants (or, with CU_MEM_ACCESS_FLAGS_PROT_NONE, takes away) devices' access to mapped memory; the range
 * must be mapped throughout. Copies through a mapping the copying context's device may not access fail
 * with CUDA_ERROR_ILLEGAL_ADDRESS. Read-only access counts as access: the fake does not tell reads from
 * writes. */
CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    uintptr_t a = (uintptr_t)ptr;
    if (rc == CUDA_SUCCESS && (!desc || count == 0 || size == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t k = 0; rc == CUDA_SUCCESS && k < count; k++)
        if (desc[k].location.type != CU_MEM_LOCATION_TYPE_DEVICE || !fk_device_ok(desc[k].location.id))
            rc = CUDA_ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&fk_lock);
    size_t covered = 0;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < fk_nallocs; i++) {
        const struct fk_alloc *g = &fk_allocs[i];
        if (g->kind == FK_VMM && g->base < a + size && a < g->base + g->size)
            covered += (g->base + g->size < a + size ? g->base + g->size : a + size) - (g->base > a ? g->base : a);
    }
    if (rc == CUDA_SUCCESS && covered != size)
        rc = CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; rc == CUDA_SUCCESS && i < fk_nallocs; i++) {
        struct fk_alloc *g = &fk_allocs[i];
        if (g->kind != FK_VMM || g->base >= a + size || a >= g->base + g->size)
            continue;
        for (size_t k = 0; k < count; k++) {
            uint64_t bit = 1ull << desc[k].location.id;
            g->vmm_access = desc[k].flags == CU_MEM_ACCESS_FLAGS_PROT_NONE ? g->vmm_access & ~bit : g->vmm_access | bit;
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemSetAccess, rc, "%#llx, %zu, %zu", (unsigned long long)ptr, size, count);
}

/* Any address inside a mapping gives the handle mapped there, one more reference to release. */
CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    const struct fk_alloc *f = rc == CUDA_ERROR_NOT_INITIALIZED ? NULL : fk_find((uintptr_t)addr);
    if (handle && f && f->kind == FK_VMM) {
        fk_phys_of(f->vmm_handle)->refs++;
        *handle = f->vmm_handle;
        rc = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemRetainAllocationHandle, rc, "%p", addr);
}

CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    const struct fk_phys *p = rc == CUDA_ERROR_NOT_INITIALIZED ? NULL : fk_phys_of(handle);
    if (prop && p) {
        memset(prop, 0, sizeof(*prop));
        prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
        prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        prop->location.id = p->device;
        prop->requestedHandleTypes = (CUmemAllocationHandleType)p->types;
        rc = CUDA_SUCCESS;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemGetAllocationPropertiesFromHandle, rc, "%#llx", (unsigned long long)handle);
}

/* A POSIX fd of the allocation: a new descriptor of its memfd, the caller's to close (or to pass to
 * another process). Only for allocations created asking for that handle type. */
CUresult CUDAAPI cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                              CUmemAllocationHandleType handleType, unsigned long long flags)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    int fd = -1;
    pthread_mutex_lock(&fk_lock);
    const struct fk_phys *p = fk_phys_of(handle);
    if (rc == CUDA_SUCCESS && (!shareableHandle || !p || flags || handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
        rc = CUDA_ERROR_INVALID_VALUE;
    else if (rc == CUDA_SUCCESS && !(p->types & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
        rc = CUDA_ERROR_NOT_PERMITTED;
    if (rc == CUDA_SUCCESS) {
        fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
        if (fd < 0)
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        else
            *(int *)shareableHandle = fd;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemExportToShareableHandle, rc, "%#llx, %d -> fd %d", (unsigned long long)handle,
                  (int)handleType, fd);
}

/* A handle of the allocation behind an exported fd (which stays the caller's: the import keeps its own
 * descriptor). The fd must be a fake VMM allocation's (its memfd's name says so); its device and
 * handle types come from that name. */
CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                                CUmemAllocationHandleType shHandleType)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
    int fd = (int)(intptr_t)osHandle;
    uint64_t h = 0;
    if (rc == CUDA_SUCCESS && (!handle || shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
        rc = CUDA_ERROR_INVALID_VALUE;
    char path[64], link[160];
    int pid = 0, device = 0;
    unsigned long long id = 0;
    unsigned types = 0;
    struct stat st;
    if (rc == CUDA_SUCCESS) {
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        ssize_t len = readlink(path, link, sizeof(link) - 1);
        if (len < 0 || (link[len] = '\0', sscanf(link, "/memfd:fakecuda-vmm:%d:%llu:%d:%u", &pid, &id, &device,
                                                 &types) != 4) ||
            fstat(fd, &st) != 0 || st.st_size <= 0)
            rc = CUDA_ERROR_INVALID_HANDLE;
    }
    pthread_mutex_lock(&fk_lock);
    if (rc == CUDA_SUCCESS) {
        int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        struct fk_phys *p = own >= 0 && fk_device_ok(device) ? fk_phys_add(own, (size_t)st.st_size, device, types)
                                                             : NULL;
        if (!p) {
            if (own >= 0)
                close(own);
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            h = p->handle;
            *handle = h;
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuMemImportFromShareableHandle, rc, "fd %d (pid %d id %llu) -> %#llx", fd, pid, id,
                  (unsigned long long)h);
}

/* ---- pointer attributes --------------------------------------------------------------------------- */

/* Writes one attribute of the memory at a; f is the allocation around it, NULL when the fake knows
 * none; r the VMM reservation around it, if any. Booleans are written as int. The single-attribute call
 * refuses an unknown pointer; the plural one gives it null values (plural).
 *
 * VMM memory answers as on a real driver: device memory, not legacy-IPC capable; its buffer id is the
 * reservation's and the range attributes name the whole reservation (which may hold several mappings
 * side by side), while the mapping attributes and cuMemGetAddressRange name the one mapping around a
 * and the memory block id names the physical allocation mapped there; the allowed handle types are
 * those cuMemCreate was asked for. An address reserved but not mapped is device memory that is not
 * MAPPED (the plural call; the single one refuses it as unknown). */
static CUresult fk_attribute(CUpointer_attribute attr, void *data, const struct fk_alloc *f,
                             const struct fk_reserve *r, uintptr_t a, bool plural)
{
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    if (!f && !plural)
        return CUDA_ERROR_INVALID_VALUE;
    bool dev = f && fk_is_device(f);
    bool vmm = f && f->kind == FK_VMM;
    switch ((int)attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = f ? f->ctx : NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned int *)data = !f ? (r ? CU_MEMORYTYPE_DEVICE : 0) : dev ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(CUdeviceptr *)data = f ? (CUdeviceptr)a : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (fk_is_protected(f) && !plural)
            return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = f && !fk_is_protected(f) ? (void *)a : NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
        *(int *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = vmm && r ? r->id : f ? f->id : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = f && f->kind == FK_MANAGED;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = f ? f->device : -2;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
        *(int *)data = f && f->kind == FK_DEVICE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(CUdeviceptr *)data = (vmm || !f) && r ? (CUdeviceptr)r->base : f ? (CUdeviceptr)f->base : 0;
        return CUDA_SUCCESS;
    case FK_ATTRIBUTE_MAPPING_BASE_ADDR:
        *(CUdeviceptr *)data = f ? (CUdeviceptr)f->base : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = (vmm || !f) && r ? r->size : f ? f->size : 0;
        return CUDA_SUCCESS;
    case FK_ATTRIBUTE_MAPPING_SIZE:
        *(size_t *)data = f ? f->size : 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(int *)data = f != NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: {
        const struct fk_phys *p = vmm ? fk_phys_of(f->vmm_handle) : NULL;
        *(unsigned long long *)data = p ? p->types : 0;
        return CUDA_SUCCESS;
    }
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(CUmemoryPool *)data = NULL;
        return CUDA_SUCCESS;
    case FK_ATTRIBUTE_MEMORY_BLOCK_ID:
        /* One block per allocation; for VMM, the physical allocation mapped at a. */
        *(unsigned long long *)data = vmm ? f->vmm_handle : f ? f->id : 0;
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    CUresult rc = CUDA_ERROR_NOT_INITIALIZED;
    if (atomic_load(&fk_initialized)) {
        pthread_mutex_lock(&fk_lock);
        rc = fk_attribute(attribute, data, fk_find((uintptr_t)ptr), fk_reserve_of((uintptr_t)ptr), (uintptr_t)ptr,
                          false);
        pthread_mutex_unlock(&fk_lock);
    }
    return fk_ret(FK_cuPointerGetAttribute, rc, "%d, %#llx", (int)attribute, (unsigned long long)ptr);
}

CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                        CUdeviceptr ptr)
{
    CUresult rc = CUDA_ERROR_NOT_INITIALIZED;
    if (atomic_load(&fk_initialized)) {
        rc = numAttributes && attributes && data ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
        pthread_mutex_lock(&fk_lock);
        const struct fk_alloc *f = fk_find((uintptr_t)ptr);
        const struct fk_reserve *r = fk_reserve_of((uintptr_t)ptr);
        for (unsigned int i = 0; rc == CUDA_SUCCESS && i < numAttributes; i++)
            rc = fk_attribute(attributes[i], data[i], f, r, (uintptr_t)ptr, true);
        pthread_mutex_unlock(&fk_lock);
    }
    return fk_ret(FK_cuPointerGetAttributes, rc, "%u, %#llx", numAttributes, (unsigned long long)ptr);
}

/* ---- copies -------------------------------------------------------------------------------------- */

/* What a side of a copy must be: anything (cuMemcpy infers it), or memory the fake calls device
 * memory (the device side of cuMemcpyHtoD and friends). */
enum fk_side { FK_ANY, FK_DEV };

/* The allocations one side of a copy or memset covers: the one around p, or, for VMM memory, the
 * mappings side by side from p on (a real GPU reads across them, the addresses being contiguous).
 * Empty when p is memory the fake does not know (host memory). */
#define FK_SPAN_MAX 256
struct fk_span {
    struct fk_alloc *a[FK_SPAN_MAX];
    int n;
};

/* Fills s for [p, p + len); false when it runs past what the fake allocated there. */
static bool fk_span_of(uintptr_t p, size_t len, struct fk_span *s)
{
    s->n = 0;
    struct fk_alloc *f = fk_find(p);
    if (!f)
        return true;
    s->a[s->n++] = f;
    uintptr_t end = f->base + f->size;
    while (len > end - p) {
        if (f->kind != FK_VMM || s->n == FK_SPAN_MAX)
            return false;
        f = fk_find(end);
        if (!f || f->kind != FK_VMM)
            return false;
        s->a[s->n++] = f;
        end = f->base + f->size;
    }
    return true;
}

/* Whether the context's device may access every VMM mapping of s (cuMemSetAccess). */
static bool fk_span_accessible(const struct fk_span *s, const struct CUctx_st *ctx)
{
    for (int i = 0; i < s->n; i++)
        if (s->a[i]->kind == FK_VMM && !(s->a[i]->vmm_access >> ctx->device & 1))
            return false;
    return true;
}

/* Opens or closes a protected allocation for the CPU. */
static bool fk_access(const struct fk_alloc *f, bool open)
{
    if (!fk_is_protected(f))
        return true;
    return mprotect((void *)f->base, f->map_size, open ? PROT_READ | PROT_WRITE : PROT_NONE) == 0;
}

/* Opens (or closes) every allocation of s not also in other (the other side of a copy, opened or
 * closed with it). */
static bool fk_span_access(const struct fk_span *s, const struct fk_span *other, bool open)
{
    bool ok = true;
    for (int i = 0; i < s->n; i++) {
        bool shared = false;
        for (int j = 0; other && j < other->n; j++)
            shared |= other->a[j] == s->a[i];
        if (!shared)
            ok &= fk_access(s->a[i], open);
    }
    return ok;
}

/* FAKECUDA_LATE_HTOD (default 1; 0: every copy lands at once): a cuMemcpyHtoD from pageable host memory returns with its bytes held back, as
 * a real driver's may (it returns once it has staged them; they land when the DMA runs). They land at
 * this process's next call that orders GPU work after it (a copy, memset, launch, synchronization or
 * free), never for another process that reads the memory through IPC: it finds the old bytes unless
 * the writer waited for its default stream first. Under the lock. */
struct fk_late {
    uintptr_t dst;
    size_t n;
    struct fk_late *next;
    unsigned char bytes[];
};
static struct fk_late *fk_late_first;
static struct fk_late **fk_late_end = &fk_late_first;

static void fk_late_land(void)
{
    struct fk_late *l = fk_late_first;
    fk_late_first = NULL;
    fk_late_end = &fk_late_first;
    while (l) {
        struct fk_late *next = l->next;
        struct fk_span d;
        if (fk_span_of(l->dst, l->n, &d) && d.n && fk_span_access(&d, NULL, true))
            memcpy((void *)l->dst, l->bytes, l->n);
        fk_span_access(&d, NULL, false);
        free(l);
        l = next;
    }
}

/* Holds n bytes from src back for dst; false when there is no memory to (the copy then lands now). */
static bool fk_late_hold(uintptr_t dst, const void *src, size_t n)
{
    struct fk_late *l = malloc(sizeof(*l) + n);
    if (!l)
        return false;
    l->dst = dst;
    l->n = n;
    l->next = NULL;
    memcpy(l->bytes, src, n);
    *fk_late_end = l;
    fk_late_end = &l->next;
    return true;
}

/* Every copy of the fake: in the calling thread's context, complete when it returns. Device memory is
 * opened for the CPU only for the copy, under the lock. */
static CUresult fk_copy(uintptr_t dst, uintptr_t src, size_t n, enum fk_side dside, enum fk_side sside,
                        CUstream stream)
{
    struct CUctx_st *ctx;
    struct fk_span d, s;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    if (rc != CUDA_SUCCESS)
        goto out;
    if (!fk_stream_ok(stream)) {
        rc = CUDA_ERROR_INVALID_HANDLE;
        goto out;
    }
    if (n == 0)
        goto out;
    if (!dst || !src || !fk_span_of(dst, n, &d) || !fk_span_of(src, n, &s) ||
        (dside == FK_DEV && !(d.n && fk_is_device(d.a[0]))) || (sside == FK_DEV && !(s.n && fk_is_device(s.a[0])))) {
        rc = CUDA_ERROR_INVALID_VALUE;
        goto out;
    }
    if (!fk_span_accessible(&d, ctx) || !fk_span_accessible(&s, ctx)) {
        rc = CUDA_ERROR_ILLEGAL_ADDRESS;
        goto out;
    }
    fk_late_land();
    static int late = -1;
    if (late < 0)
        late = fk_env_flag("FAKECUDA_LATE_HTOD", true);
    if (late && dside == FK_DEV && s.n == 0 && !stream && fk_late_hold(dst, (const void *)src, n)) {
        fk_copies.htod++;
        fk_copies.bytes_htod += n;
        goto out;
    }
    if (!fk_span_access(&d, NULL, true) || !fk_span_access(&s, &d, true)) {
        rc = CUDA_ERROR_UNKNOWN;
        fk_span_access(&d, NULL, false);
        fk_span_access(&s, &d, false);
        goto out;
    }
    memmove((void *)dst, (const void *)src, n);
    fk_span_access(&d, NULL, false);
    fk_span_access(&s, &d, false);
    bool dd = d.n && fk_is_device(d.a[0]), sd = s.n && fk_is_device(s.a[0]);
    if (dd && sd) {
        fk_copies.dtod++;
        fk_copies.bytes_dtod += n;
    } else if (dd) {
        fk_copies.htod++;
        fk_copies.bytes_htod += n;
    } else if (sd) {
        fk_copies.dtoh++;
        fk_copies.bytes_dtoh += n;
    } else {
        fk_copies.htoh++;
        fk_copies.bytes_htoh += n;
    }
out:
    pthread_mutex_unlock(&fk_lock);
    return rc;
}

CUresult CUDAAPI cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    CUresult rc = fk_fail_now() ? CUDA_ERROR_UNKNOWN
                                : fk_copy((uintptr_t)dst, (uintptr_t)src, ByteCount, FK_ANY, FK_ANY, NULL);
    return fk_ret(FK_cuMemcpy, rc, "%#llx, %#llx, %zu", (unsigned long long)dst, (unsigned long long)src,
                  ByteCount);
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    CUresult rc = fk_fail_now() ? CUDA_ERROR_UNKNOWN : fk_copy((uintptr_t)dstDevice, (uintptr_t)srcHost, ByteCount, FK_DEV, FK_ANY, NULL);
    return fk_ret(FK_cuMemcpyHtoD, rc, "%#llx, %p, %zu", (unsigned long long)dstDevice, srcHost, ByteCount);
}

CUresult CUDAAPI cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    CUresult rc = fk_fail_now() ? CUDA_ERROR_UNKNOWN : fk_copy((uintptr_t)dstHost, (uintptr_t)srcDevice, ByteCount, FK_ANY, FK_DEV, NULL);
    return fk_ret(FK_cuMemcpyDtoH, rc, "%p, %#llx, %zu", dstHost, (unsigned long long)srcDevice, ByteCount);
}

CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    CUresult rc = fk_fail_now() ? CUDA_ERROR_UNKNOWN : fk_copy((uintptr_t)dstDevice, (uintptr_t)srcDevice, ByteCount, FK_DEV, FK_DEV, NULL);
    return fk_ret(FK_cuMemcpyDtoD, rc, "%#llx, %#llx, %zu", (unsigned long long)dstDevice,
                  (unsigned long long)srcDevice, ByteCount);
}

CUresult CUDAAPI cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    CUresult rc = fk_fail_now() ? CUDA_ERROR_UNKNOWN
                                : fk_copy((uintptr_t)dst, (uintptr_t)src, ByteCount, FK_ANY, FK_ANY, hStream);
    return fk_ret(FK_cuMemcpyAsync, rc, "%#llx, %#llx, %zu, %p", (unsigned long long)dst, (unsigned long long)src,
                  ByteCount, (void *)hStream);
}

CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    CUresult rc = fk_copy((uintptr_t)dstDevice, (uintptr_t)srcHost, ByteCount, FK_DEV, FK_ANY, hStream);
    return fk_ret(FK_cuMemcpyHtoDAsync, rc, "%#llx, %p, %zu, %p", (unsigned long long)dstDevice, srcHost,
                  ByteCount, (void *)hStream);
}

CUresult CUDAAPI cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    CUresult rc = fk_copy((uintptr_t)dstHost, (uintptr_t)srcDevice, ByteCount, FK_ANY, FK_DEV, hStream);
    return fk_ret(FK_cuMemcpyDtoHAsync, rc, "%p, %#llx, %zu, %p", dstHost, (unsigned long long)srcDevice,
                  ByteCount, (void *)hStream);
}

/* Memsets need memory the fake knows (device, managed or pinned), as on a real driver. */
static CUresult fk_memset(uintptr_t dst, unsigned char value, size_t n, CUstream stream)
{
    struct CUctx_st *ctx;
    struct fk_span d = {.n = 0};
    pthread_mutex_lock(&fk_lock);
    fk_late_land();
    CUresult rc = fk_current(&ctx);
    if (rc == CUDA_SUCCESS && !fk_stream_ok(stream))
        rc = CUDA_ERROR_INVALID_HANDLE;
    else if (rc == CUDA_SUCCESS && n && (!fk_span_of(dst, n, &d) || d.n == 0))
        rc = CUDA_ERROR_INVALID_VALUE;
    else if (rc == CUDA_SUCCESS && n && !fk_span_accessible(&d, ctx))
        rc = CUDA_ERROR_ILLEGAL_ADDRESS;
    if (rc == CUDA_SUCCESS && n) {
        if (fk_span_access(&d, NULL, true)) {
            memset((void *)dst, value, n);
        } else {
            rc = CUDA_ERROR_UNKNOWN;
        }
        fk_span_access(&d, NULL, false);
    }
    pthread_mutex_unlock(&fk_lock);
    return rc;
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    CUresult rc = fk_memset((uintptr_t)dstDevice, uc, N, NULL);
    return fk_ret(FK_cuMemsetD8, rc, "%#llx, %#x, %zu", (unsigned long long)dstDevice, uc, N);
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    CUresult rc = fk_memset((uintptr_t)dstDevice, uc, N, hStream);
    return fk_ret(FK_cuMemsetD8Async, rc, "%#llx, %#x, %zu, %p", (unsigned long long)dstDevice, uc, N,
                  (void *)hStream);
}

/* ---- streams ------------------------------------------------------------------------------------- */

CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    if (rc == CUDA_SUCCESS && !phStream)
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && fk_nstreams == fk_streams_cap) {
        size_t cap = fk_streams_cap ? 2 * fk_streams_cap : 16;
        struct CUstream_st **t = realloc(fk_streams, cap * sizeof(*t));
        if (t) {
            fk_streams = t;
            fk_streams_cap = cap;
        } else {
            rc = CUDA_ERROR_OUT_OF_MEMORY;
        }
    }
    struct CUstream_st *s = rc == CUDA_SUCCESS ? malloc(sizeof(*s)) : NULL;
    if (rc == CUDA_SUCCESS && !s)
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (s) {
        s->ctx = ctx;
        fk_streams[fk_nstreams++] = s;
        *phStream = s;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuStreamCreate, rc, "%#x -> %p", Flags, (void *)s);
}

CUresult CUDAAPI cuStreamDestroy(CUstream hStream)
{
    CUresult rc = atomic_load(&fk_initialized) ? CUDA_ERROR_INVALID_HANDLE : CUDA_ERROR_NOT_INITIALIZED;
    pthread_mutex_lock(&fk_lock);
    for (size_t i = 0; rc == CUDA_ERROR_INVALID_HANDLE && i < fk_nstreams; i++)
        if (fk_streams[i] == hStream) {
            free(fk_streams[i]);
            fk_streams[i] = fk_streams[--fk_nstreams];
            rc = CUDA_SUCCESS;
        }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuStreamDestroy, rc, "%p", (void *)hStream);
}

/* Nothing is ever pending: a wait only checks its arguments (and, as on a real driver, wants a context). */
static CUresult fk_stream_wait(CUstream s)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    fk_late_land();
    CUresult rc = fk_current(&ctx);
    if (rc == CUDA_SUCCESS && !fk_stream_ok(s))
        rc = CUDA_ERROR_INVALID_HANDLE;
    pthread_mutex_unlock(&fk_lock);
    return rc;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream)
{
    return fk_ret(FK_cuStreamSynchronize, fk_stream_wait(hStream), "%p", (void *)hStream);
}

CUresult CUDAAPI cuStreamQuery(CUstream hStream)
{
    return fk_ret(FK_cuStreamQuery, fk_stream_wait(hStream), "%p", (void *)hStream);
}

/* ---- IPC ----------------------------------------------------------------------------------------- */

/* The handle names the exporter's memfd by pid and fd number, and the allocation by its id, which the
 * memfd's name repeats. It must be the base of a cuMemAlloc allocation (the legacy-IPC-capable kind). */
CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle *pHandle, CUdeviceptr dptr)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    const struct fk_alloc *f = fk_find((uintptr_t)dptr);
    if (rc == CUDA_SUCCESS && (!pHandle || !f || f->kind != FK_DEVICE || f->base != (uintptr_t)dptr))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        struct fk_ipc_handle h = {.magic = FK_IPC_MAGIC, .pid = (int32_t)getpid(), .fd = f->fd,
                                  .device = f->device, .id = f->id, .size = f->size, .map_size = f->map_size};
        memset(pHandle, 0, sizeof(*pHandle));
        memcpy(pHandle->reserved, &h, sizeof(h));
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuIpcGetMemHandle, rc, "%#llx", (unsigned long long)dptr);
}

/* Maps the exporter's memfd through /proc/<pid>/fd (the exporter must be alive and keep the memory,
 * as with real IPC). Opening a handle again in the same context counts one more open of the same
 * mapping; a process's own handle is refused, as the real driver does. */
CUresult CUDAAPI cuIpcOpenMemHandle(CUdeviceptr *pdptr, CUipcMemHandle handle, unsigned int Flags)
{
    struct fk_ipc_handle h;
    memcpy(&h, handle.reserved, sizeof(h));
    struct CUctx_st *ctx;
    uintptr_t base = 0;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    if (rc != CUDA_SUCCESS)
        goto out;
    if (!pdptr || (Flags & ~(unsigned int)CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)) {
        rc = CUDA_ERROR_INVALID_VALUE;
        goto out;
    }
    if (h.magic != FK_IPC_MAGIC || h.map_size == 0 || h.size > h.map_size) {
        rc = CUDA_ERROR_INVALID_HANDLE;
        goto out;
    }
    if (h.pid == (int32_t)getpid()) {
        rc = CUDA_ERROR_INVALID_CONTEXT;
        goto out;
    }
    for (size_t i = 0; i < fk_nallocs; i++) {
        struct fk_alloc *g = &fk_allocs[i];
        if (g->kind == FK_IMPORTED && g->ipc_pid == h.pid && g->ipc_id == h.id && g->ctx == ctx) {
            g->ipc_refs++;
            base = g->base;
            goto out;
        }
    }
    char path[64], link[128], expect[96];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)h.pid, (int)h.fd);
    snprintf(expect, sizeof(expect), "/memfd:fakecuda:%d:%llu ", (int)h.pid, (unsigned long long)h.id);
    ssize_t len = readlink(path, link, sizeof(link) - 1);
    if (len < 0 || (link[len] = '\0', strncmp(link, expect, strlen(expect)) != 0)) {
        rc = CUDA_ERROR_INVALID_HANDLE; /* the exporter is gone or freed the memory */
        goto out;
    }
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    void *p = MAP_FAILED;
    if (fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_size >= h.map_size)
        p = mmap(NULL, h.map_size, PROT_NONE, MAP_SHARED, fd, 0);
    if (fd >= 0)
        close(fd); /* the mapping keeps the memory */
    struct fk_alloc *f = p == MAP_FAILED ? NULL : fk_add();
    if (!f) {
        if (p != MAP_FAILED)
            munmap(p, h.map_size);
        rc = CUDA_ERROR_MAP_FAILED;
        goto out;
    }
    f->kind = FK_IMPORTED;
    f->base = (uintptr_t)p;
    f->size = h.size;
    f->map_size = h.map_size;
    f->id = fk_next_id++;
    f->device = ctx->device;
    f->ctx = ctx;
    f->ipc_refs = 1;
    f->ipc_pid = h.pid;
    f->ipc_id = h.id;
    base = f->base;
out:
    if (rc == CUDA_SUCCESS)
        *pdptr = (CUdeviceptr)base;
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuIpcOpenMemHandle, rc, "pid %d id %llu, %#x -> %#lx", (int)h.pid, (unsigned long long)h.id,
                  Flags, (unsigned long)base);
}

CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    struct fk_alloc *f = fk_find((uintptr_t)dptr);
    if (rc == CUDA_SUCCESS && (!f || f->kind != FK_IMPORTED || f->base != (uintptr_t)dptr))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && --f->ipc_refs == 0)
        fk_remove(f);
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuIpcCloseMemHandle, rc, "%#llx", (unsigned long long)dptr);
}

/* ---- modules and kernels ------------------------------------------------------------------------- */

#define FK_FATBIN_MAGIC 0xba55ed50u

struct CUmod_st {
    struct CUctx_st *ctx;
    const unsigned char *image;
    size_t size;
    struct CUfunc_st *funcs; /* looked up so far */
};

struct CUfunc_st {
    struct CUmod_st *mod;
    const struct fk_kernel *kernel; /* a fold's: the pairwise kernel of its operation and type */
    bool fold;                      /* axon_fold_<op>_<type>(struct axon_cuda_fold_args, n) */
    bool list;                      /* axon_copy_list(struct axon_cuda_copy_list) */
    size_t elem;
    struct CUfunc_st *next;
};

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
    struct CUctx_st *ctx;
    pthread_mutex_lock(&fk_lock);
    CUresult rc = fk_current(&ctx);
    uint32_t magic = 0;
    uint16_t header = 0;
    uint64_t body = 0;
    if (rc == CUDA_SUCCESS && (!module || !image))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS) {
        /* A fatbin: magic, version (2 bytes), header size (2), then the size of what follows (8). */
        memcpy(&magic, image, 4);
        memcpy(&header, (const char *)image + 6, 2);
        memcpy(&body, (const char *)image + 8, 8);
        if (magic != FK_FATBIN_MAGIC || header < 16 || body == 0 || body > ((uint64_t)1 << 30))
            rc = CUDA_ERROR_INVALID_IMAGE;
    }
    struct CUmod_st *m = NULL;
    if (rc == CUDA_SUCCESS && !(m = calloc(1, sizeof(*m))))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        m->ctx = ctx;
        m->image = image;
        m->size = header + body;
        *module = m;
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuModuleLoadData, rc, "%p", image);
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
    CUresult rc = hmod ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
    if (hmod) {
        pthread_mutex_lock(&fk_lock);
        while (hmod->funcs) {
            struct CUfunc_st *f = hmod->funcs;
            hmod->funcs = f->next;
            free(f);
        }
        pthread_mutex_unlock(&fk_lock);
        free(hmod);
    }
    return fk_ret(FK_cuModuleUnload, rc, "%p", (void *)hmod);
}

/* Whether name is a symbol of the image: NUL-delimited, as in the string tables of its ELF images. */
static bool fk_image_has(const struct CUmod_st *m, const char *name)
{
    size_t len = strlen(name);
    const unsigned char *p = m->image, *end = m->image + m->size;
    while (p + len + 2 <= end) {
        const unsigned char *hit = memmem(p, (size_t)(end - p), name, len);
        if (!hit || hit + len >= end)
            return false;
        /* A name of its own in a string table, or a function's section (".text.<name>": the assembler
         * may keep only that string, the symbol's name sharing its tail), or a PTX entry ("<name>("). */
        if (hit > m->image && (hit[-1] == 0 || hit[-1] == '.' || hit[-1] == ' ') && (hit[len] == 0 || hit[len] == '('))
            return true;
        p = hit + 1;
    }
    return false;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    CUresult rc = !hfunc || !name ? CUDA_ERROR_INVALID_VALUE : !hmod ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
    const struct fk_kernel *k = NULL;
    /* A fold runs its operation's pairwise kernel over its inputs in turn. */
    bool fold = name && strncmp(name, "axon_fold_", 10) == 0;
    char pairwise[128];
    if (fold)
        snprintf(pairwise, sizeof(pairwise), "axon_reduce_%s", name + 10);
    bool list = name && strcmp(name, "axon_copy_list") == 0;
    if (rc == CUDA_SUCCESS &&
        (!fk_image_has(hmod, name) || (!list && !(k = fk_kernel_find(fold ? pairwise : name)))))
        rc = CUDA_ERROR_NOT_FOUND;
    struct CUfunc_st *f = NULL;
    if (rc == CUDA_SUCCESS && !(f = calloc(1, sizeof(*f))))
        rc = CUDA_ERROR_OUT_OF_MEMORY;
    if (rc == CUDA_SUCCESS) {
        f->mod = hmod;
        f->kernel = k;
        f->fold = fold;
        f->list = list;
        f->elem = list ? 1 : fk_kernel_element_size(k);
        pthread_mutex_lock(&fk_lock);
        f->next = hmod->funcs;
        hmod->funcs = f;
        pthread_mutex_unlock(&fk_lock);
        *hfunc = f;
    }
    return fk_ret(FK_cuModuleGetFunction, rc, "%p, %s", (void *)hmod, name ? name : "(null)");
}

/* Whether the GPU could reach [p, p + len): memory the fake allocated or registered (device, managed,
 * pinned, VMM, imported), VMM mappings only with the context's access. */
static bool fk_kernel_reaches(uintptr_t p, size_t len, struct fk_span *s, const struct CUctx_st *ctx)
{
    return len == 0 || (p && fk_span_of(p, len, s) && s->n > 0 && fk_span_accessible(s, ctx));
}

/* A fold (struct axon_cuda_fold_args, unsigned long long n): the first input copied aside, each other
 * folded into the copy by the pairwise kernel (every operation with a kernel commutes), the copy stored
 * to every output; each operand opened for the CPU alone, so outputs may be inputs. Under the lock. */
static CUresult fk_fold(const struct CUfunc_st *f, void **kernelParams, const struct CUctx_st *ctx)
{
    struct axon_cuda_fold_args a;
    unsigned long long n;
    memcpy(&a, kernelParams[0], sizeof(a));
    memcpy(&n, kernelParams[1], sizeof(n));
    if (a.nin < 1 || a.nin > AXON_CUDA_FOLD_MAX || a.nout > AXON_CUDA_FOLD_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    size_t len = (size_t)n * f->elem;
    struct fk_span s;
    for (unsigned k = 0; k < a.nin + a.nout; k++) {
        uintptr_t p = (uintptr_t)(k < a.nin ? a.in[k] : a.out[k - a.nin]);
        if (!fk_kernel_reaches(p, len, &s, ctx))
            return CUDA_ERROR_ILLEGAL_ADDRESS;
    }
    if (len == 0)
        return CUDA_SUCCESS;
    unsigned char *acc = malloc(len);
    if (!acc)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult rc = CUDA_SUCCESS;
    for (unsigned k = 0; k < a.nin + a.nout && rc == CUDA_SUCCESS; k++) {
        uintptr_t p = (uintptr_t)(k < a.nin ? a.in[k] : a.out[k - a.nin]);
        fk_span_of(p, len, &s);
        if (!fk_span_access(&s, NULL, true))
            rc = CUDA_ERROR_UNKNOWN;
        else if (k == 0)
            memcpy(acc, (const void *)p, len);
        else if (k < a.nin)
            f->kernel->run((const void *)p, acc, n);
        else
            memcpy((void *)p, acc, len);
        fk_span_access(&s, NULL, false);
    }
    free(acc);
    return rc;
}

/* A list of copies (struct axon_cuda_copy_list): row k of the grid copies entry k, so the grid must have
 * a row for each; every end must be reachable, and each copy is made with its two ends opened for the
 * CPU. Under the lock. */
static CUresult fk_copy_list(void **kernelParams, unsigned rows, const struct CUctx_st *ctx)
{
    struct axon_cuda_copy_list a;
    memcpy(&a, kernelParams[0], sizeof(a));
    if (a.n > AXON_CUDA_COPY_LIST_MAX || rows < a.n)
        return CUDA_ERROR_INVALID_VALUE;
    struct fk_span x, y;
    for (unsigned k = 0; k < a.n; k++)
        if (!fk_kernel_reaches((uintptr_t)a.src[k], a.bytes[k], &x, ctx) ||
            !fk_kernel_reaches((uintptr_t)a.dst[k], a.bytes[k], &y, ctx))
            return CUDA_ERROR_ILLEGAL_ADDRESS;
    CUresult rc = CUDA_SUCCESS;
    for (unsigned k = 0; k < a.n && rc == CUDA_SUCCESS; k++) {
        if (a.bytes[k] == 0)
            continue;
        fk_span_of((uintptr_t)a.src[k], a.bytes[k], &x);
        fk_span_of((uintptr_t)a.dst[k], a.bytes[k], &y);
        if (!fk_span_access(&y, NULL, true) || !fk_span_access(&x, &y, true))
            rc = CUDA_ERROR_UNKNOWN;
        else
            memmove(a.dst[k], a.src[k], a.bytes[k]);
        fk_span_access(&y, NULL, false);
        fk_span_access(&x, &y, false);
    }
    return rc;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    struct CUctx_st *ctx;
    struct fk_span a, b;
    pthread_mutex_lock(&fk_lock);
    fk_late_land();
    CUresult rc = fk_current(&ctx);
    if (rc == CUDA_SUCCESS && (!f || f->mod->ctx != ctx || !fk_stream_ok(hStream)))
        rc = CUDA_ERROR_INVALID_HANDLE;
    if (rc == CUDA_SUCCESS &&
        (!gridDimX || !gridDimY || !gridDimZ || !blockDimX || !blockDimY || !blockDimZ ||
         (unsigned long long)blockDimX * blockDimY * blockDimZ > 1024 || sharedMemBytes > 48 * 1024 ||
         !kernelParams || extra))
        rc = CUDA_ERROR_INVALID_VALUE;
    if (rc == CUDA_SUCCESS && f->list) {
        rc = fk_copy_list(kernelParams, gridDimY, ctx);
    } else if (rc == CUDA_SUCCESS && f->fold) {
        rc = fk_fold(f, kernelParams, ctx);
    } else if (rc == CUDA_SUCCESS) {
        /* (const void *in, void *inout, unsigned long long n) */
        CUdeviceptr in, io;
        unsigned long long n;
        memcpy(&in, kernelParams[0], sizeof(in));
        memcpy(&io, kernelParams[1], sizeof(io));
        memcpy(&n, kernelParams[2], sizeof(n));
        size_t len = (size_t)n * f->elem;
        if (!fk_kernel_reaches((uintptr_t)in, len, &a, ctx) || !fk_kernel_reaches((uintptr_t)io, len, &b, ctx)) {
            rc = CUDA_ERROR_ILLEGAL_ADDRESS;
        } else if (len) {
            if (!fk_span_access(&b, NULL, true) || !fk_span_access(&a, &b, true))
                rc = CUDA_ERROR_UNKNOWN;
            else
                f->kernel->run((const void *)(uintptr_t)in, (void *)(uintptr_t)io, n);
            fk_span_access(&b, NULL, false);
            fk_span_access(&a, &b, false);
        }
    }
    pthread_mutex_unlock(&fk_lock);
    return fk_ret(FK_cuLaunchKernel, rc, "%p, %u, %u, %p", (void *)f, gridDimX, blockDimX, (void *)hStream);
}
