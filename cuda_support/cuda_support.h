/* The CUDA layer: what the layers above may call. It loads the CUDA driver (libcuda.so.1) at run time,
 * never at link time, so one build runs on machines with and without GPUs; it tells the memory type of
 * any user pointer (host, pinned host, device, managed, VMM) through a cache of address ranges; and it
 * puts every kind of memory behind one table of operations (the memory kinds), so pt2pt and coll move
 * data without calling the driver themselves.
 *
 * Without a driver, with AXON_CUDA=0, or in a build whose configure found no cuda.h, every buffer is
 * host memory and the classification costs one load of a flag. MPI_Init loads the driver and calls
 * cuInit, which creates no CUDA context; the first copy that needs one retains the primary context of
 * the buffer's device (a context already current in the calling thread is used as it is).
 *
 * Functions return MPI error classes; the function that sees a driver error logs the driver's message. */
#ifndef AXON_CUDA_SUPPORT_H
#define AXON_CUDA_SUPPORT_H

#include "cuda_support/axon_cuda_reduce_list.h"
#include "memkind/axon_memkind_types.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* ---- the layer (axon_cuda_driver.c) --------------------------------------------------------------- */

/* AXON_CUDA's values (a tristate knob: -1 is auto). */
enum axon_cuda_mode {
    AXON_CUDA_MODE_AUTO = -1, /* CUDA support when a driver and a GPU are there */
    AXON_CUDA_MODE_OFF = 0,   /* every buffer is host memory; the driver is not even loaded */
    AXON_CUDA_MODE_ON = 1,    /* a missing driver or GPU is an error */
};

/* Loads the driver, library (AXON_CUDA_LIBRARY: "libcuda.so.1" or a path, e.g. the tests' fake driver),
 * and calls cuInit (no context). Without a driver or GPU it succeeds and leaves CUDA support off, unless
 * mode is AXON_CUDA_MODE_ON: then it returns MPI_ERR_OTHER with the reason in err. */
int axon_cuda_init(long mode, const char *library, char *err, size_t errlen);
/* Releases the primary contexts the layer retained and empties the memory-type cache. The driver stays
 * loaded: the application's CUDA runtime shares it. */
void axon_cuda_finalize(void);

/* Set by axon_cuda_init; read through axon_cuda_enabled (a global so the check inlines). */
extern atomic_bool axon_cuda_active;

/* True while CUDA support is on (a driver, at least one GPU, AXON_CUDA not 0). */
static inline bool axon_cuda_enabled(void)
{
    return atomic_load_explicit(&axon_cuda_active, memory_order_relaxed);
}

/* Set while user buffers must be looked at: CUDA support is on, or it is off (AXON_CUDA=0) in a process
 * that had loaded the CUDA driver itself, where a GPU buffer passed to MPI must be refused with an error
 * that names it rather than read by the CPU (a crash). The paths that classify buffers test this. */
extern atomic_bool axon_cuda_watch;
static inline bool axon_cuda_watching(void)
{
    return atomic_load_explicit(&axon_cuda_watch, memory_order_relaxed);
}

/* Why CUDA support is off, or "on", for axon_info and error messages. */
const char *axon_cuda_status(void);
/* The driver's version as 1000 * major + 10 * minor (13000 for 13.0); 0 when no driver was loaded. */
int axon_cuda_driver_version(void);
/* GPUs the driver shows this process (0 when support is off). */
int axon_cuda_device_count(void);
/* The name of a GPU, e.g. "NVIDIA H100 80GB HBM3". */
int axon_cuda_device_get_name(int device, char *name, size_t len);
/* Whether device can read and write peer's memory directly (P2P over NVLink or PCIe). */
int axon_cuda_device_get_peer_access(int device, int peer, bool *can);

/* ---- memory types (axon_cuda_memtype.c) ------------------------------------------------------------ */

enum axon_cuda_memtype {
    AXON_CUDA_MEMTYPE_HOST,      /* pageable host memory, or memory the driver does not know */
    AXON_CUDA_MEMTYPE_PINNED,    /* page-locked host memory: cuMemHostAlloc, cuMemHostRegister */
    AXON_CUDA_MEMTYPE_DEVICE,    /* cuMemAlloc / cudaMalloc, and stream-ordered pool allocations */
    AXON_CUDA_MEMTYPE_MANAGED,   /* cuMemAllocManaged / cudaMallocManaged */
    AXON_CUDA_MEMTYPE_VMM,       /* cuMemCreate memory mapped with cuMemMap (PyTorch's expandable
                                  * segments) */
};

/* The classification behind axon_cuda_memtype_of, for when CUDA support is on. */
int axon_cuda_memtype_classify(const void *ptr, struct axon_memkind_info *info);

/* Where the program's heap (brk) starts, 0 when unknown (axon_cuda_memtype.c). */
extern uintptr_t axon_cuda_brk_start;
#if defined(__GLIBC__)
extern void *__curbrk;
#endif

/* Whether ptr lies in the brk heap: host memory, whatever else is true of it. Inline, and the first test
 * of axon_cuda_memtype_of: every message of a CUDA-aware rank asks, and a call into the classification
 * is a visible share of a small host message. The current break is glibc's __curbrk, what sbrk(0)
 * returns, read without the call (axon_cuda_memtype.c says why). */
static inline bool axon_cuda_memtype_in_heap(const void *ptr)
{
    uintptr_t a = (uintptr_t)ptr, lo = axon_cuda_brk_start;
#if defined(__GLIBC__)
    uintptr_t brk = (uintptr_t)__atomic_load_n(&__curbrk, __ATOMIC_RELAXED);
#else
    uintptr_t brk = (uintptr_t)sbrk(0);
#endif
    return lo && a >= lo && a < brk;
}

/* The calling thread's stack, [lo, hi): set by the thread's first classification that reaches
 * axon_cuda_memtype_classify (hi is 0 until then, and the check below fails). Initial-exec TLS: a load
 * relative to the thread pointer, where the default model of a shared library calls __tls_get_addr,
 * twice per stack buffer (bench/results/2026-11-26-cuda-overhead-host-buffers.md). glibc keeps room for a
 * few such bytes in libraries opened later, as mpi4py opens this one. */
struct axon_cuda_stack_bounds {
    uintptr_t lo, hi;
    bool known; /* asked once per thread, whether or not pthread could tell */
};
extern __thread struct axon_cuda_stack_bounds axon_cuda_stack __attribute__((tls_model("initial-exec")));

/* Whether ptr lies on the calling thread's stack above the current frame: host memory, in the frame of
 * an active caller (a buffer in a frame below, or on a stack of the program's making, is not seen). The
 * second test of axon_cuda_memtype_of, inline: scalars on the stack (a reduction's `double x`) are the
 * most common small buffers. */
static inline bool axon_cuda_memtype_on_stack(const void *ptr)
{
    uintptr_t a = (uintptr_t)ptr, sp = (uintptr_t)__builtin_frame_address(0);
    return a >= sp && a < axon_cuda_stack.hi && sp >= axon_cuda_stack.lo;
}

/* Pages the driver called host, until libucm reports them unmapped (axon_cuda_hostpage.c): a slot holds
 * its page's address | 1, or 0. Two-way: a page may sit in either slot of its pair, found by a hash of
 * its number (under a plain modulo, buffers at a power-of-two distance, such as two 4 MiB mmaps side by
 * side, fall on one slot and take turns evicting each other, so every message of theirs asks again). */
#define AXON_CUDA_HOSTPAGE_SLOTS 1024 /* 2 << AXON_CUDA_HOSTPAGE_PAIR_BITS */
extern _Atomic uintptr_t axon_cuda_hostpage_slot[AXON_CUDA_HOSTPAGE_SLOTS];
extern unsigned axon_cuda_hostpage_shift;

#define AXON_CUDA_HOSTPAGE_PAIR_BITS 9 /* log2 of the pairs */

/* The first slot of page number pn's pair (Fibonacci hashing: the top bits of pn times 2^64/phi). */
static inline unsigned axon_cuda_hostpage_pair(uintptr_t pn)
{
    return (unsigned)(((uint64_t)pn * 0x9e3779b97f4a7c15ull) >> (64 - AXON_CUDA_HOSTPAGE_PAIR_BITS)) * 2;
}

/* Whether ptr's page is one of those: a host buffer outside the heap, stack and static data (mmap'd:
 * a large malloc, a numpy array, jemalloc's arenas) seen before. */
static inline bool axon_cuda_hostpage_known(const void *ptr)
{
    uintptr_t pn = (uintptr_t)ptr >> axon_cuda_hostpage_shift, tag = (pn << axon_cuda_hostpage_shift) | 1;
    unsigned i = axon_cuda_hostpage_pair(pn);
    return __atomic_load_n(&axon_cuda_hostpage_slot[i], __ATOMIC_ACQUIRE) == tag ||
           __atomic_load_n(&axon_cuda_hostpage_slot[i + 1], __ATOMIC_ACQUIRE) == tag;
}

/* Whether ptr is host memory by the checks that need no call (heap, caller's stack, known host page). */
static inline bool axon_cuda_memtype_host_inline(const void *ptr)
{
    return axon_cuda_memtype_in_heap(ptr) || axon_cuda_memtype_on_stack(ptr) || axon_cuda_hostpage_known(ptr);
}

/* What memory ptr points to. With CUDA support off this is a load and a store. On, a host buffer on the
 * caller's stack, in the heap's brk area or in the program's static data costs a few comparisons (any
 * host buffer does while no CUDA context exists); a cached GPU range costs one driver call (the
 * allocation's id, to see that it is still the same allocation); anything else a query of the driver.
 * MPI_ERR_BUFFER when ptr lies in GPU address space where nothing is mapped, and, with support off in
 * a process that uses CUDA (axon_cuda_watching), when it is GPU memory (logged, naming the buffer);
 * MPI_ERR_OTHER when the driver fails (its message is logged). */
static inline int axon_cuda_memtype_of(const void *ptr, struct axon_memkind_info *info)
{
    if (!axon_cuda_watching() || axon_cuda_memtype_host_inline(ptr)) {
        axon_memkind_set_host(info);
        return MPI_SUCCESS;
    }
    return axon_cuda_memtype_classify(ptr, info);
}

/* ---- pinned staging buffers (axon_cuda_bounce.c) ---------------------------------------------------- */

/* A page-locked host buffer of at least bytes (pinned once, then reused), near GPU device; NULL when
 * out of memory. Give it back with the same byte count. */
void *axon_cuda_bounce_get(size_t bytes, int device);
void axon_cuda_bounce_put(void *p, size_t bytes);
/* Buffers taken from the driver so far (tests). */
long axon_cuda_bounce_allocated(void);
/* Returns the cached buffers to the driver (MPI_Finalize). */
void axon_cuda_bounce_finalize(void);

/* ---- staging windows shared by the processes of a node (axon_cuda_window.c) ------------------------ */

/* This process's window: bytes of pinned host memory that node peers can map (made on the first call,
 * near GPU device, with bytes then; later calls return it as it is); NULL when the driver or the kernel
 * refuse (the caller uses another path). *id says how a peer maps it. */
void *axon_cuda_window_mine(size_t bytes, int device, struct axon_memkind_window_id *id);
/* Rank world's window, mapped and pinned here on first use (near GPU device); NULL, logged, on failure. */
void *axon_cuda_window_peer(int world, const struct axon_memkind_window_id *id, int device);
/* Unmaps every window (MPI_Finalize). */
void axon_cuda_window_finalize(void);

/* ---- CUDA IPC (axon_cuda_ipc.c) ----------------------------------------------------------------- */

/* Whether this process can use CUDA IPC (support on, AXON_CUDA_IPC not 0, the driver has the calls). */
bool axon_cuda_ipc_available(void);
/* Describes the bytes at ptr (info from axon_cuda_memtype_of) for a peer on this node, into out (room
 * for AXON_MEMKIND_IPC_DESC_MAX bytes). cuMemAlloc memory: its legacy IPC handle. VMM memory, when
 * fds_ok (the peer may take our descriptors: pidfd_getfd): the physical allocations the bytes lie in,
 * exported as POSIX fds (cached per allocation), held until axon_cuda_ipc_release. 
 * MPI_ERR_UNSUPPORTED_OPERATION when there is no way (pool or managed memory, IPC off, a VMM range with
 * a hole or of more than AXON_MEMKIND_IPC_PARTS_MAX allocations): the caller then stages. */
int axon_cuda_ipc_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info, bool fds_ok,
                         struct axon_memkind_ipc_desc *out);
/* The same without the wait for the device's default stream that lets a peer read what the program
 * queued there before the call: a caller exporting several buffers waits once, with
 * axon_cuda_ipc_settle on each device, before any peer can read them. */
int axon_cuda_ipc_export_unsettled(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                                   bool fds_ok, struct axon_memkind_ipc_desc *out);
int axon_cuda_ipc_settle(int device);
/* The send that carried d is complete (the receiver has copied): its exports may be closed again. */
void axon_cuda_ipc_release(const struct axon_memkind_ipc_desc *d);
/* Copies bytes from rank peer's memory described by d into dst (GPU or host memory, described by
 * dst_info); complete on return. Opened handles and imported allocations are cached
 * (AXON_CUDA_IPC_CACHE_MAX). */
/* peer's legacy-IPC memory d (nparts 0) mapped here for device's context, where its kernels and copies
 * may read and write it directly: *local is the descriptor's offset in it. The opened handle is the
 * cache's, pinned there (never closed) until axon_cuda_ipc_unmap_peer. MPI_ERR_UNSUPPORTED_OPERATION for
 * VMM descriptors (copy them with axon_cuda_ipc_copy_from). */
int axon_cuda_ipc_map_peer(int peer, const struct axon_memkind_ipc_desc *d, int device, void **local);
void axon_cuda_ipc_unmap_peer(int peer, const struct axon_memkind_ipc_desc *d);
int axon_cuda_ipc_copy_from(int peer, const struct axon_memkind_ipc_desc *d, void *dst, size_t bytes,
                            const struct axon_memkind_info *dst_info);
/* Handles and imports open in the cache (tests). */
int axon_cuda_ipc_cached(void);
/* Closes every cached handle and import, and this process's exports (MPI_Finalize). */
void axon_cuda_ipc_finalize(void);

/* ---- the rank's GPU, for the NVLink domains (axon_cuda_topo.c) ------------------------------------ */

struct axon_runtime_gpu_ident;
/* What this rank tells the others of its GPU (runtime/axon_runtime_topo.h): the GPU of ordinal
 * host_local_rank modulo those it sees, the GPUs that one reaches by P2P, its NVML fabric clique.
 * Nothing (present 0) while CUDA support is off. Makes no CUDA context. */
int axon_cuda_gpu_ident(int host_local_rank, struct axon_runtime_gpu_ident *out);
/* The GPU this rank most likely uses (the machine-local rank modulo the GPUs it sees, as above); -1
 * while CUDA support is off. */
int axon_cuda_default_device(void);

/* ---- reductions on the GPU, device scratch (axon_cuda_reduce.c) ------------------------------------ */

/* The kernel of the predefined operation loop called name ("sum_f32", "maxloc_double_int": the names of
 * coll/axon_coll_op_predefined.c), or -1 when this build has none (built without nvcc, or a type the
 * GPU has no arithmetic for, such as long double). */
int axon_cuda_reduce_kernel(const char *name);
const char *axon_cuda_reduce_kernel_name(int kernel);
/* Whether kernels can run: this build has them and the driver has what loading, launching and device
 * scratch need. */
bool axon_cuda_reduce_available(void);
/* inout = in op inout over n packed elements, on the GPU (both pointers GPU memory that device's
 * context reaches; the module is loaded there on first use), complete when it returns. */
int axon_cuda_reduce_run(int kernel, const void *in, void *inout, uint64_t n, int device);
/* out[k][i] = in[0][i] op ... op in[nin - 1][i] for each of nout outputs, over n packed elements, in one
 * pass on the GPU (at most AXON_CUDA_FOLD_MAX of each; an output may be an input), complete when it
 * returns. */
int axon_cuda_fold_run(int kernel, const void *const *in, int nin, void *const *out, int nout, uint64_t n, int device);
/* Reduction kernels run so far (tests). */
long axon_cuda_reduce_launches(void);
/* dst = src's bytes (GPU memory, or any the current context's kernels reach; no overlap) by the
 * library's copy kernel, in the calling thread's current context (the caller entered it; device sizes
 * the grid), complete when it returns. MPI_ERR_UNSUPPORTED_OPERATION, nothing logged, where there is no
 * such kernel: the caller copies otherwise. */
int axon_cuda_copy_kernel_run(void *dst, const void *src, size_t bytes, int device);
/* Copy kernels run so far, lists' launches included (tests). */
long axon_cuda_copy_kernel_launches(void);
/* n copies, dst[k] = bytes[k] bytes of src[k] (GPU memory that device's context reaches, a peer's opened
 * through IPC included; none overlapping), by the copy-list kernel, AXON_CUDA_COPY_LIST_MAX a launch, in
 * device's context; complete when it returns. MPI_ERR_INTERN without kernels (the caller checks
 * axon_cuda_reduce_available first). */
int axon_cuda_copy_list_run(const void *const *src, void *const *dst, const uint64_t *bytes, int n, int device);
/* Unloads the modules (MPI_Finalize, before the contexts go). */
void axon_cuda_reduce_finalize(void);

/* Device memory for a collective's scratch on GPU device: cached after use, so a collective called in a
 * loop allocates once; NULL (logged) when the GPU is out of memory. Give it back with the same size. */
void *axon_cuda_scratch_get(size_t bytes, int device);
void axon_cuda_scratch_put(void *ptr, size_t bytes, int device);
/* Blocks taken from the driver so far (tests). */
long axon_cuda_scratch_allocated(void);
void axon_cuda_scratch_finalize(void);
/* Device memory for the program (MPI_Win_allocate asked for "cuda:device"), from the driver and back to
 * it, uncached (axon_cuda_alloc.c); NULL, logged, when the GPU is out of memory. */
void *axon_cuda_mem_alloc(size_t bytes, int device);
void axon_cuda_mem_free(void *p, int device);
/* A synchronous copy between any two buffers (host or GPU: unified addressing) in device's context. */
int axon_cuda_copy(void *dst, const void *src, size_t bytes, int device);

#endif
