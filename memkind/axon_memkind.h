/* The memory kinds: the only way pt2pt, coll and mpi touch memory that is not plain host memory. Each
 * kind of memory (host, CUDA; later another GPU vendor's) has one table of operations, indexed by enum
 * axon_memkind: classify a buffer, copy it to and from the host, copy within the device, staging
 * buffers (pinned host bounce buffers, device scratch, a window node peers map), IPC (export a buffer,
 * read or map a peer's, release), and the kernels that reduce and copy on the device. The host entry
 * says "not supported" (NULL, false, MPI_ERR_UNSUPPORTED_OPERATION) for what only a device has, so a
 * caller never tests a kind to know whether it may ask. libfabric's hmem_ops[] are the model.
 *
 * Operations on a buffer take its classification (struct axon_memkind_info) and go to its kind's
 * entry; operations on a device take the kind and the device's ordinal among that kind's; an IPC
 * descriptor names its own kind. A backend (cuda_support/ for CUDA) implements its kind's entry in
 * memkind/axon_memkind_<kind>.c and nothing above memkind/ calls it.
 *
 * The classification's fast path is inline: a host buffer must cost a few comparisons, and CUDA is the
 * only device kind, so its inline checks are the layer's (a second kind adds its own test here). */
#ifndef AXON_MEMKIND_H
#define AXON_MEMKIND_H

#include "cuda_support/cuda_support.h"
#include "memkind/axon_memkind_types.h"

#include <mpi.h>

struct axon_runtime_gpu_ident;

/* One kind's operations. Every entry is set in every kind's table (a refusal where the kind has no
 * such thing). Device ordinals are the kind's own; -1 is "no device". */
struct axon_memkind_ops {
    const char *name;

    /* The kind's support: loaded at MPI_Init (err says why it failed), dropped at MPI_Finalize. */
    int (*init)(char *err, size_t errlen);
    void (*finalize)(void);
    /* Whether buffers of the kind can exist in this process now. */
    bool (*enabled)(void);
    /* This rank's GPU as other ranks must know it (runtime/axon_runtime_topo.h); the device it most
     * likely uses (-1: none). */
    int (*gpu_ident)(int host_local_rank, struct axon_runtime_gpu_ident *out);
    int (*default_device)(void);

    /* Fills info when ptr is memory of this kind and sets *mine; the host entry claims everything. */
    int (*classify)(const void *ptr, struct axon_memkind_info *info, bool *mine);
    /* Synchronous copies between memory of this kind (described by info) and host memory: when they
     * return, the bytes are at their destination. */
    int (*copy_to_host)(void *host_dst, const void *src, size_t len, const struct axon_memkind_info *info);
    int (*copy_from_host)(void *dst, const void *host_src, size_t len, const struct axon_memkind_info *info);
    /* A synchronous copy between any two buffers the device's context reaches (its memory, host
     * memory, a peer's mapped through IPC). */
    int (*copy)(void *dst, const void *src, size_t bytes, int device);

    /* Page-locked host memory near device for staging (cached: give it back with the same size). */
    void *(*bounce_get)(size_t bytes, int device);
    void (*bounce_put)(void *p, size_t bytes);
    /* Device memory for scratch (cached: give it back with the same size and device). */
    void *(*scratch_get)(size_t bytes, int device);
    void (*scratch_put)(void *p, size_t bytes, int device);
    /* Memory of the kind for the program (MPI_Win_allocate asked for it), uncached; NULL (logged) when
     * the device is out of memory, and always for the host, whose memory the caller allocates itself. */
    void *(*mem_alloc)(size_t bytes, int device);
    void (*mem_free)(void *p, int device);
    /* This process's staging window that node peers map (*id says how), and a peer's mapped here. */
    void *(*window_mine)(size_t bytes, int device, struct axon_memkind_window_id *id);
    void *(*window_peer)(int world, const struct axon_memkind_window_id *id, int device);

    /* Whether buffers of the kind can be read in place by node peers. */
    bool (*ipc_available)(void);
    /* Describes bytes at ptr for a peer (fds_ok: the peer may take our descriptors). Unless settle, the
     * caller waits with ipc_settle on each device before any peer reads. MPI_ERR_UNSUPPORTED_OPERATION
     * when this memory has no way: the caller stages. */
    int (*ipc_export)(const void *ptr, size_t bytes, const struct axon_memkind_info *info, bool fds_ok, bool settle,
                      struct axon_memkind_ipc_desc *out);
    int (*ipc_settle)(int device);
    /* The peer has read what d describes: its exports may close. */
    void (*ipc_release)(const struct axon_memkind_ipc_desc *d);
    /* Copies bytes of peer's memory d into dst (any memory; dst_info says which); complete on return. */
    int (*ipc_copy_from)(int peer, const struct axon_memkind_ipc_desc *d, void *dst, size_t bytes,
                         const struct axon_memkind_info *dst_info);
    /* Maps peer's memory d for device's kernels and copies (*local: the descriptor's offset in it), until
     * ipc_unmap_peer. */
    int (*ipc_map_peer)(int peer, const struct axon_memkind_ipc_desc *d, int device, void **local);
    void (*ipc_unmap_peer)(int peer, const struct axon_memkind_ipc_desc *d);

    /* Whether the kind's kernels can run; the reduction kernel called name (coll's loop names), -1 when
     * there is none. The runs are complete when they return. */
    bool (*kernels_available)(void);
    int (*reduce_kernel)(const char *name);
    int (*reduce_run)(int kernel, const void *in, void *inout, uint64_t n, int device);
    int (*fold_run)(int kernel, const void *const *in, int nin, void *const *out, int nout, uint64_t n, int device);
    int (*copy_list_run)(const void *const *src, void *const *dst, const uint64_t *bytes, int n, int device);
};

/* The table (memkind/axon_memkind.c) of the entries (memkind/axon_memkind_<kind>.c); axon_memkind_get
 * is NULL past the last kind. */
extern const struct axon_memkind_ops axon_memkind_host_ops, axon_memkind_cuda_ops;
extern const struct axon_memkind_ops *const axon_memkind_ops[AXON_MEMKIND_COUNT];
const struct axon_memkind_ops *axon_memkind_get(enum axon_memkind kind);

/* ---- the layer ------------------------------------------------------------------------------------ */

/* MPI_Init: every kind's support (a failure names the kind in err). MPI_Finalize: dropped again. */
int axon_memkind_init(char *err, size_t errlen);
void axon_memkind_finalize(void);
/* This rank's GPU for the topology exchange, of the first device kind that has one. */
int axon_memkind_gpu_ident(int host_local_rank, struct axon_runtime_gpu_ident *out);
/* Whether a device kind is on whose buffers node peers can read in place. */
bool axon_memkind_ipc_any(void);
/* The GPU this rank most likely uses: false when no device kind is on. */
bool axon_memkind_default_device(enum axon_memkind *kind, int *device);

/* Whether memory of kind can exist in this process now (its support is on). */
static inline bool axon_memkind_kind_enabled(enum axon_memkind kind)
{
    return axon_memkind_ops[kind]->enabled();
}

/* Whether some device kind is on. */
static inline bool axon_memkind_enabled(void)
{
    return axon_cuda_enabled();
}

/* Whether user buffers must be classified at all: a device kind is on, or a process that loaded a
 * driver itself runs with support off (its device buffers are refused by name rather than read by the
 * CPU). Host-only paths test this first and pay nothing more. */
static inline bool axon_memkind_watching(void)
{
    return axon_cuda_watching();
}

/* Whether ptr is host memory by the checks that need no call (heap, caller's stack, known host page). */
static inline bool axon_memkind_host_inline(const void *ptr)
{
    return axon_cuda_memtype_host_inline(ptr);
}

/* What memory ptr points to: a few comparisons for a host buffer, a query of the kind's driver
 * otherwise. MPI_ERR_BUFFER for an address no kind can use (logged, naming it). */
static inline int axon_memkind_of(const void *ptr, struct axon_memkind_info *info)
{
    return axon_cuda_memtype_of(ptr, info);
}

/* A copy of len bytes of host memory that another process reads next, with non-temporal stores and a
 * store fence (axon_memkind_stream.c); for copies beyond AXON_MEMKIND_STREAM_MIN, below which the
 * destination's lines are worth keeping in the cache. */
#define AXON_MEMKIND_STREAM_MIN ((size_t)1 << 20)
void axon_memkind_host_stream_copy(void *dst, const void *src, size_t len);

/* ---- a buffer's operations (info from axon_memkind_of) ------------------------------------------ */

static inline int axon_memkind_copy_to_host(void *host_dst, const void *src, size_t len,
                                            const struct axon_memkind_info *info)
{
    return axon_memkind_ops[info->kind]->copy_to_host(host_dst, src, len, info);
}

static inline int axon_memkind_copy_from_host(void *dst, const void *host_src, size_t len,
                                              const struct axon_memkind_info *info)
{
    return axon_memkind_ops[info->kind]->copy_from_host(dst, host_src, len, info);
}

/* A staging buffer for the memory info describes: pinned near its device; NULL for host memory. */
static inline void *axon_memkind_bounce_get(size_t bytes, const struct axon_memkind_info *info)
{
    return axon_memkind_ops[info->kind]->bounce_get(bytes, info->device);
}

static inline void axon_memkind_bounce_put(void *p, size_t bytes, const struct axon_memkind_info *info)
{
    axon_memkind_ops[info->kind]->bounce_put(p, bytes);
}

static inline int axon_memkind_ipc_export(const void *ptr, size_t bytes, const struct axon_memkind_info *info,
                                          bool fds_ok, bool settle, struct axon_memkind_ipc_desc *out)
{
    return axon_memkind_ops[info->kind]->ipc_export(ptr, bytes, info, fds_ok, settle, out);
}

/* ---- a device's operations ------------------------------------------------------------------------ */

static inline bool axon_memkind_ipc_available(enum axon_memkind kind)
{
    return axon_memkind_ops[kind]->ipc_available();
}

static inline int axon_memkind_ipc_settle(enum axon_memkind kind, int device)
{
    return axon_memkind_ops[kind]->ipc_settle(device);
}

static inline int axon_memkind_copy(enum axon_memkind kind, void *dst, const void *src, size_t bytes, int device)
{
    return axon_memkind_ops[kind]->copy(dst, src, bytes, device);
}

static inline void *axon_memkind_scratch_get(enum axon_memkind kind, size_t bytes, int device)
{
    return axon_memkind_ops[kind]->scratch_get(bytes, device);
}

static inline void axon_memkind_scratch_put(enum axon_memkind kind, void *p, size_t bytes, int device)
{
    axon_memkind_ops[kind]->scratch_put(p, bytes, device);
}

static inline void *axon_memkind_mem_alloc(enum axon_memkind kind, size_t bytes, int device)
{
    return axon_memkind_ops[kind]->mem_alloc(bytes, device);
}

static inline void axon_memkind_mem_free(enum axon_memkind kind, void *p, int device)
{
    axon_memkind_ops[kind]->mem_free(p, device);
}

static inline void *axon_memkind_window_mine(enum axon_memkind kind, size_t bytes, int device,
                                             struct axon_memkind_window_id *id)
{
    return axon_memkind_ops[kind]->window_mine(bytes, device, id);
}


static inline bool axon_memkind_kernels_available(enum axon_memkind kind)
{
    return axon_memkind_ops[kind]->kernels_available();
}

static inline int axon_memkind_reduce_kernel(enum axon_memkind kind, const char *name)
{
    return axon_memkind_ops[kind]->reduce_kernel(name);
}

static inline int axon_memkind_reduce_run(enum axon_memkind kind, int kernel, const void *in, void *inout, uint64_t n,
                                          int device)
{
    return axon_memkind_ops[kind]->reduce_run(kernel, in, inout, n, device);
}

static inline int axon_memkind_fold_run(enum axon_memkind kind, int kernel, const void *const *in, int nin,
                                        void *const *out, int nout, uint64_t n, int device)
{
    return axon_memkind_ops[kind]->fold_run(kernel, in, nin, out, nout, n, device);
}

static inline int axon_memkind_copy_list_run(enum axon_memkind kind, const void *const *src, void *const *dst,
                                             const uint64_t *bytes, int n, int device)
{
    return axon_memkind_ops[kind]->copy_list_run(src, dst, bytes, n, device);
}

/* ---- a peer's memory (the descriptor names its kind) ---------------------------------------------- */

/* The entry of a kind a peer named (in a descriptor or a window id); the host's, which refuses, for a
 * kind this build does not know: a peer's bytes are never an index unchecked. */
static inline const struct axon_memkind_ops *axon_memkind_named(uint32_t kind)
{
    return axon_memkind_ops[kind < AXON_MEMKIND_COUNT ? kind : AXON_MEMKIND_HOST];
}

/* Rank world's window, mapped here (near device) by the backend that made it. */
static inline void *axon_memkind_window_peer(int world, const struct axon_memkind_window_id *id, int device)
{
    return axon_memkind_named(id->kind)->window_peer(world, id, device);
}

static inline void axon_memkind_ipc_release(const struct axon_memkind_ipc_desc *d)
{
    axon_memkind_named(d->kind)->ipc_release(d);
}

static inline int axon_memkind_ipc_copy_from(int peer, const struct axon_memkind_ipc_desc *d, void *dst, size_t bytes,
                                             const struct axon_memkind_info *dst_info)
{
    return axon_memkind_named(d->kind)->ipc_copy_from(peer, d, dst, bytes, dst_info);
}

static inline int axon_memkind_ipc_map_peer(int peer, const struct axon_memkind_ipc_desc *d, int device, void **local)
{
    return axon_memkind_named(d->kind)->ipc_map_peer(peer, d, device, local);
}

static inline void axon_memkind_ipc_unmap_peer(int peer, const struct axon_memkind_ipc_desc *d)
{
    axon_memkind_named(d->kind)->ipc_unmap_peer(peer, d);
}

#endif
