/* Collectives inside one NVLink domain (coll/axon_coll_domain.h). The point-to-point way moves a GPU
 * message as a descriptor the receiver copies from (CUDA IPC), into scratch, which a kernel then folds
 * into the result: every received byte is written and read once more than it needs to be, and every
 * message costs a descriptor and an acknowledgement. Here the ranks exchange, once per call, IPC
 * descriptors of their data (and for reductions of a slice of device scratch), and then work on each
 * other's memory:
 *
 *   allreduce  round 1  each rank sends every peer its descriptors (data the GPU cannot export, host
 *                       memory say, is first copied into exportable device scratch), that of its
 *                       result too when the GPU can export it;
 *              round 2  when every member's result can be written by its peers (all of them said so in
 *                       round 1, so all decide alike) and the domain has at most AXON_MEMKIND_FOLD_MAX
 *                       members, rank i runs one fold kernel over slice i: it reads that slice of
 *                       every member's input and writes the reduced slice into every member's result,
 *                       each byte read once and written once, the memory-traffic floor (fused);
 *                       otherwise rank i reduces slice i into its slice scratch: a copy of its own
 *                       slice, then one kernel per peer reading that peer's input in place;
 *              barrier  every slice is done;
 *              round 3  (not fused) each rank copies every slice from its owner's scratch into its result;
 *              barrier  nobody returns, and reuses its buffers, while a peer still reads them.
 *   reduce_scatter      rounds 1 and 2, the barrier, then the slice (the rank's block) into its result.
 *   bcast, allgather    round 1 (the root's descriptor to all; everyone's to everyone), then each rank
 *                       copies what it lacks from its owner, a barrier.
 *   alltoall            round 1 (everyone's descriptor of its blocks, packed one after another, to
 *                       everyone), then each rank copies its block from every member, a barrier.
 *   (allgather and alltoall on GPU buffers copy by one launch of the copy-list kernel per 16 blocks,
 *   then one wait, instead of a driver copy and a wait per block.)
 *
 * For allreduce the memory traffic per rank is two vectors fused (read every input's slice, write every
 * result's), about five otherwise (the slice copied, each peer's folded in, then every slice copied
 * back), against more for a reduce-scatter of received copies (bench/results/2026-11-26-h200-gpu-copies.md).
 * Opened handles stay in the memory kind's cache (per peer and buffer id), so a loop of calls opens them
 * once. The work after round 1 is only known when it runs (the peers' addresses), so it is done by call
 * steps (axon_coll_sched_call_gpu), which read what the builder left in a struct axon_domain. The simulator
 * builds them too, on a dry schedule of GPU buffers on one domain (axon_coll_sched_set_dry_domain): nothing
 * is exported, and each call step reports the GPU operations and bytes it will cost. */
#include "coll/axon_coll_domain.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_move.h"
#include "coll/axon_coll_op.h"
#include "coll/axon_coll_reduce_internal.h"
#include "coll/axon_coll_select.h"
#include "coll/coll.h"
#include "memkind/axon_memkind.h"
#include "runtime/runtime.h"

#include <string.h>
#include <time.h>

/* ---- who may run them ----------------------------------------------------------------------------- */

/* The GPU that does this rank's work in schedule s: its data's, or the one the rank most likely uses
 * when its data is host memory; false when there is none. */
static bool axon_domain_gpu(const struct axon_coll_sched *s, enum axon_memkind *kind, int *device)
{
    if (axon_coll_sched_gpu_device(s) >= 0) {
        *kind = axon_coll_sched_gpu_kind(s);
        *device = axon_coll_sched_gpu_device(s);
        return true;
    }
    return axon_memkind_default_device(kind, device);
}

unsigned axon_coll_domain_group_have(const struct axon_coll_sched *s)
{
    /* The simulator's dry schedules say what machine they describe (axon_coll_sched_set_dry_domain). */
    if (axon_coll_sched_is_dry(s))
        return axon_coll_sched_is_dry_domain(s) ? AXON_COLL_NEEDS_DOMAIN : 0;
    enum axon_memkind kind;
    int device;
    if (!axon_domain_gpu(s, &kind, &device) || !axon_memkind_ipc_available(kind))
        return 0;
    /* One machine (CUDA IPC does not cross it) and one NVLink domain (the GPUs reach each other;
     * runtime/axon_runtime_topo.h), from the job's tables, which every member reads alike. The group may
     * be a subgroup: a composition's phase within a node runs these too. */
    const struct axon_runtime_job *job = &axon_runtime_job;
    int n = axon_coll_sched_size(s), first = axon_coll_sched_world_rank(s, 0);
    for (int r = 1; r < n; r++) {
        int w = axon_coll_sched_world_rank(s, r);
        if (job->host_of_rank[w] != job->host_of_rank[first] || job->domain_of_rank[w] != job->domain_of_rank[first])
            return 0;
    }
    return AXON_COLL_NEEDS_DOMAIN;
}

unsigned axon_coll_domain_have(const struct axon_coll_sched *s)
{
    bool dry = axon_coll_sched_is_dry(s);
    enum axon_memkind kind = AXON_MEMKIND_HOST;
    int device;
    if (!axon_coll_domain_group_have(s) || (!dry && (!axon_domain_gpu(s, &kind, &device) ||
                                                     !axon_memkind_kernels_available(kind))))
        return 0;
    struct axon_coll_op *op;
    MPI_Datatype datatype;
    const struct axon_dtype_layout *dt;
    axon_coll_sched_get_op(s, &op, &datatype, &dt);
    /* A simulated call's operation (none: a sum of floats) has a kernel wherever there are GPUs. */
    if (dry)
        return !op || axon_coll_op_commutative(op) ? AXON_COLL_NEEDS_DOMAIN : 0;
    if (!op || !axon_coll_op_commutative(op) || !dt->contig || dt->true_lb != 0 || dt->extent != (int64_t)dt->size ||
        axon_coll_op_gpu_kernel(kind, op, datatype, dt) < 0)
        return 0;
    return AXON_COLL_NEEDS_DOMAIN;
}

/* ---- the state the call steps read ------------------------------------------------------------------ */

/* What each rank sends its peers: its data, and for reductions its reduced slice. */
struct axon_domain_msg {
    struct axon_memkind_ipc_desc data;
    struct axon_memkind_ipc_desc res;
    struct axon_memkind_ipc_desc out; /* an allreduce's result, for the fused fold */
    uint32_t out_ok;               /* out is exported (its GPU memory, contiguous and packed) */
    uint32_t pad;
};

struct axon_domain {
    int n, me, root, device;       /* root: a bcast's, else -1; device: this rank's GPU, */
    enum axon_memkind kind;        /* of this memory kind */
    bool dry;                      /* built for the simulator: nothing exported, nothing run */
    int *world;                    /* [n]: the members' ranks in MPI_COMM_WORLD (the IPC cache's key) */
    struct axon_domain_msg *all;   /* [n]: every rank's descriptors, this rank's at me */
    /* This rank's data as its peers read it: its own GPU memory when contiguous and exportable, else a
     * packed copy in device scratch made when the call starts (from host memory, packed by the CPU
     * first when its layout has gaps: a rank with such a layout runs with its buffers staged). */
    const char *buf;
    int64_t count;
    const struct axon_dtype_layout *dt;
    int64_t bytes;                 /* packed */
    char *dev;                     /* what the peers read */
    char *pack;                    /* host scratch to pack into (a layout with gaps) */
    bool staged;
    char *tmp;                     /* host scratch to unpack from (receiving into a layout with gaps) */
    bool broken;                   /* its GPU memory could not be exported: every step fails */
    uint64_t settle;               /* GPUs of exported program buffers still to wait for (axon_domain_settle) */
    /* reductions */
    int kernel;
    int dest;                      /* a reduce's root, the one result (-1: every member's) */
    int64_t esize;
    int64_t *disp;                 /* [n + 1]: slice j is elements disp[j] .. disp[j + 1] */
    char *res;                     /* this rank's slice, reduced (device scratch) */
    char *out;                     /* the caller's result */
    bool fused;                    /* round 2 wrote every result (decided when it runs) */
    MPI_Datatype datatype;
    bool scatter;                  /* a reduce_scatter: out gets this rank's slice only */
    /* bcast, allgather and alltoall */
    struct axon_coll_block *blocks;/* an allgather's or alltoall's receive blocks (copies, layouts kept) */
    bool in_place;                 /* an allgather's own block is already in place */
    int64_t block_bytes;           /* an alltoall's block: peer j's block for this rank is at me * it */
    bool listed;                   /* GPU buffers and kernels: contiguous blocks by one copy-list launch */
    struct axon_coll_block *sblocks;/* an alltoall's blocks to publish when they need a packed copy */
    const void **list_src;         /* [n]: the list's copies (axon_domain_fetch_blocks) */
    void **list_dst;
    uint64_t *list_bytes;
    int *list_peer;                /* whose mapping each copy reads (-1: this rank's own data) */
    /* AXON_VERBOSE=3: when each phase of an allreduce ended (axon_domain_now, us), for its report */
    double t_start, t_built, t_fold0, t_fold1, t_gather0, t_gather1;
};

/* Microseconds of a monotonic clock, for the phase report of AXON_VERBOSE=3. */
static double axon_domain_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* AXON_VERBOSE=3: one line per allreduce saying where its time went (the last step of its schedule): the
 * exports and their wait when the call was built, the descriptors' exchange, the fold (kernel and its
 * wait), the barrier after it, the gather of the slices (nothing when fused) and the last barrier. A
 * GPU session reads these to find the fixed cost of the domain allreduce. */
static int axon_domain_report(void *arg)
{
    struct axon_domain *d = arg;
    double end = axon_domain_now();
    axon_runtime_log_debug(3,
                           "domain %s of %lld bytes (%s): build %.1f us, exchange %.1f, fold %.1f, "
                           "barrier %.1f, gather %.1f, barrier %.1f, total %.1f",
                           d->dest < 0 ? "allreduce" : "reduce", (long long)d->bytes, d->fused ? "fused" : "not fused",
                           d->t_built - d->t_start,
                           d->t_fold0 - d->t_built, d->t_fold1 - d->t_fold0, d->t_gather0 - d->t_fold1,
                           d->t_gather1 - d->t_gather0, end - d->t_gather1, end - d->t_start);
    return MPI_SUCCESS;
}

static struct axon_domain *axon_domain_new(struct axon_coll_sched *s, int root)
{
    int n = axon_coll_sched_size(s);
    struct axon_domain *d = axon_coll_sched_alloc_meta(s, sizeof(*d));
    struct axon_domain_msg *all = axon_coll_sched_alloc_meta(s, sizeof(*all) * (size_t)n);
    int *world = axon_coll_sched_alloc_meta(s, sizeof(int) * (size_t)n);
    if (!d || !all || !world)
        return NULL;
    memset(d, 0, sizeof(*d));
    memset(all, 0, sizeof(*all) * (size_t)n);
    d->n = n;
    d->me = axon_coll_sched_rank(s);
    d->root = root;
    d->all = all;
    d->world = world;
    d->dry = axon_coll_sched_is_dry(s);
    /* The rank's GPU: its buffers', or the one it most likely uses when they are host memory. */
    d->kind = AXON_MEMKIND_HOST;
    d->device = 0;
    if (!d->dry && !axon_domain_gpu(s, &d->kind, &d->device))
        d->device = -1;
    for (int j = 0; j < n; j++)
        world[j] = axon_coll_sched_world_rank(s, j);
    return d;
}

/* An IPC descriptor of bytes at p (device memory); MPI_ERR_UNSUPPORTED_OPERATION when the GPU cannot
 * export it (host, managed, pool or VMM memory). Whichever GPU holds it: device scratch lands on the GPU
 * of the context current in the thread, where the layer's copies and kernels run too. The program's
 * buffers (user) put their GPU in d->settle: the builder waits once per GPU for what the program queued
 * on its default stream (axon_domain_settle), rather than each export waiting on its own (two or three
 * driver calls per allreduce). The library's own scratch needs no wait. */
static int axon_domain_export(struct axon_domain *d, const void *p, int64_t bytes, bool user,
                              struct axon_memkind_ipc_desc *desc)
{
    if (d->dry)
        return MPI_SUCCESS; /* a simulated member's GPU exports whatever it holds */
    struct axon_memkind_info info;
    int rc = axon_memkind_of(p, &info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info.kind != d->kind)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    rc = axon_memkind_ipc_export(p, (size_t)bytes, &info, false, false, desc);
    desc->bytes = (uint64_t)bytes;
    if (rc == MPI_SUCCESS && user && info.device >= 0 && info.device < 64)
        d->settle |= 1ull << info.device;
    return rc;
}

/* The one wait of the builder's exports (axon_domain_export), before round 1 tells the peers. */
static void axon_domain_settle(struct axon_domain *d)
{
    for (int dev = 0; dev < 64 && d->settle; dev++)
        if (d->settle & (1ull << dev)) {
            d->settle &= ~(1ull << dev);
            d->broken |= axon_memkind_ipc_settle(d->kind, dev) != MPI_SUCCESS;
        }
}

/* Device scratch that the peers may read: its descriptor in *desc. Every member offered the algorithm
 * alike, so one that cannot export (a driver without IPC after all, the GPU out of memory) still takes
 * part: its steps fail, its zeroed descriptors fail its peers' maps, and the barriers keep everyone
 * going to the end. */
static char *axon_domain_scratch(struct axon_coll_sched *s, struct axon_domain *d, int64_t bytes,
                                 struct axon_memkind_ipc_desc *desc)
{
    char *p = axon_coll_sched_alloc_device(s, d->kind, (size_t)(bytes > 0 ? bytes : 1), d->device);
    d->broken |= !p || axon_domain_export(d, p, bytes > 0 ? bytes : 1, false, desc) != MPI_SUCCESS;
    return p;
}

/* Makes count elements of dt at buf this rank's data (see struct axon_domain). */
static void axon_domain_publish(struct axon_coll_sched *s, struct axon_domain *d, const void *buf, int64_t count,
                                const struct axon_dtype_layout *dt)
{
    dt = axon_coll_sched_keep_layout(s, dt); /* read again when the call runs */
    if (!dt) {
        d->broken = true;
        return;
    }
    d->buf = buf;
    d->count = count;
    d->dt = dt;
    d->bytes = count * dt->size;
    d->dev = (char *)buf + dt->true_lb;
    struct axon_memkind_ipc_desc *mine = &d->all[d->me].data;
    d->staged = d->bytes > 0 && (!dt->contig || axon_domain_export(d, d->dev, d->bytes, true, mine) != MPI_SUCCESS);
    if (!d->staged)
        return;
    d->dev = axon_domain_scratch(s, d, d->bytes, mine);
    d->pack = dt->contig ? NULL : axon_coll_sched_alloc_meta(s, (size_t)d->bytes);
    d->broken |= !dt->contig && !d->pack;
}

/* Round 1's first step, when the data needs a packed copy on the GPU. */
static int axon_domain_stage(void *arg)
{
    struct axon_domain *d = arg;
    if (d->broken)
        return MPI_ERR_OTHER;
    const char *from = d->buf + d->dt->true_lb;
    if (!d->dt->contig) {
        int rc = axon_coll_data_copy(d->buf, d->count, d->dt, d->pack, d->bytes, &axon_coll_bytes);
        if (rc != MPI_SUCCESS)
            return rc;
        from = d->pack;
    }
    return axon_memkind_copy(d->kind, d->dev, from, (size_t)d->bytes, d->device);
}

/* Round 1: the staging copy if any, then this rank's descriptors to every peer (root >= 0: only the
 * root sends, to all) and theirs in. */
static void axon_domain_exchange(struct axon_coll_sched *s, struct axon_domain *d)
{
    int n = d->n, me = d->me;
    axon_coll_sched_round(s);
    if (d->staged)
        axon_coll_sched_call_gpu(s, axon_domain_stage, d, d->bytes, 1);
    int64_t size = (int64_t)sizeof(struct axon_domain_msg);
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        if (d->root < 0 || me == d->root)
            axon_coll_sched_send(s, &d->all[me], size, &axon_coll_bytes, to);
        if (d->root < 0)
            axon_coll_sched_recv(s, &d->all[from], size, &axon_coll_bytes, from);
    }
    if (d->root >= 0 && me != d->root)
        axon_coll_sched_recv(s, &d->all[d->root], size, &axon_coll_bytes, d->root);
    axon_coll_sched_round(s);
}

/* bytes of packed GPU memory at from into count elements of dt at buf: one driver copy into a
 * contiguous layout (GPU or host memory alike), else through host scratch, unpacked by the CPU. */
static int axon_domain_put(const struct axon_domain *d, const void *from, void *buf, int64_t count,
                           const struct axon_dtype_layout *dt)
{
    int64_t bytes = count * dt->size;
    if (bytes == 0)
        return MPI_SUCCESS;
    if (dt->contig)
        return axon_memkind_copy(d->kind, (char *)buf + dt->true_lb, from, (size_t)bytes, d->device);
    int rc = axon_memkind_copy(d->kind, d->tmp, from, (size_t)bytes, d->device);
    return rc == MPI_SUCCESS ? axon_coll_data_copy(d->tmp, bytes, &axon_coll_bytes, buf, count, dt) : rc;
}

/* ---- allreduce and reduce_scatter ----------------------------------------------------------------- */

/* Whether member j's result receives the reduced slices (every member's, or a reduce's root's). */
static bool axon_domain_writes(const struct axon_domain *d, int j)
{
    return d->dest < 0 || j == d->dest;
}

/* Round 2, fused: this rank's slice of every input folded into that slice of every result (a reduce's:
 * the root's), by one kernel reading and writing the peers' memory in place. */
static int axon_domain_fold_slice(struct axon_domain *d)
{
    int n = d->n, rc = MPI_SUCCESS, mapped = 0, nout = 0;
    int64_t lo = d->disp[d->me], cnt = d->disp[d->me + 1] - lo;
    const void *in[AXON_MEMKIND_FOLD_MAX];
    void *out[AXON_MEMKIND_FOLD_MAX];
    /* This rank's input first, then the next ranks' in turn: the order the unfused way folds them in,
     * so both give the same bits. */
    for (int k = 0; k < n && rc == MPI_SUCCESS; k++, mapped = k) {
        int j = (d->me + k) % n;
        void *src, *dst = NULL;
        if (j == d->me) {
            src = d->dev;
            dst = axon_domain_writes(d, j) ? d->out : NULL;
        } else {
            rc = axon_memkind_ipc_map_peer(d->world[j], &d->all[j].data, d->device, &src);
            if (rc != MPI_SUCCESS)
                break;
            if (axon_domain_writes(d, j))
                rc = axon_memkind_ipc_map_peer(d->world[j], &d->all[j].out, d->device, &dst);
            if (rc != MPI_SUCCESS) {
                axon_memkind_ipc_unmap_peer(d->world[j], &d->all[j].data);
                break;
            }
        }
        in[k] = (const char *)src + lo * d->esize;
        if (dst)
            out[nout++] = (char *)dst + lo * d->esize;
    }
    if (rc == MPI_SUCCESS && cnt > 0)
        rc = axon_memkind_fold_run(d->kind, d->kernel, in, n, out, nout, (uint64_t)cnt, d->device);
    axon_runtime_log_debug(2, "%s slice of %lld elements folded into the %d result%s by one kernel",
                           d->dest < 0 ? "allreduce" : "reduce", (long long)cnt, nout, nout == 1 ? "" : "s");
    for (int k = 1; k < mapped; k++) {
        int j = (d->me + k) % n;
        axon_memkind_ipc_unmap_peer(d->world[j], &d->all[j].data);
        if (axon_domain_writes(d, j))
            axon_memkind_ipc_unmap_peer(d->world[j], &d->all[j].out);
    }
    return rc;
}

static int axon_domain_reduce_slice_run(struct axon_domain *d);

/* Round 2: this rank's slice, from every input, each peer's read in place (fused when every member's
 * result is open to its peers: axon_domain_fold_slice). */
static int axon_domain_reduce_slice(void *arg)
{
    struct axon_domain *d = arg;
    if (d->broken)
        return MPI_ERR_OTHER;
    int rc = axon_domain_reduce_slice_run(d);
    if (axon_config.verbose >= 3)
        d->t_fold1 = axon_domain_now();
    return rc;
}

static int axon_domain_reduce_slice_run(struct axon_domain *d)
{
    if (axon_config.verbose >= 3)
        d->t_fold0 = axon_domain_now();
    d->fused = !d->scatter && d->n <= AXON_MEMKIND_FOLD_MAX && axon_config.coll_domain_fused;
    for (int j = 0; j < d->n && d->fused; j++)
        d->fused = !axon_domain_writes(d, j) || d->all[j].out_ok != 0;
    if (d->fused)
        return axon_domain_fold_slice(d);
    int64_t lo = d->disp[d->me], cnt = d->disp[d->me + 1] - lo;
    if (cnt == 0)
        return MPI_SUCCESS;
    int rc = axon_memkind_copy(d->kind, d->res, d->dev + lo * d->esize, (size_t)(cnt * d->esize), d->device);
    for (int k = 1; k < d->n && rc == MPI_SUCCESS; k++) {
        int j = (d->me + k) % d->n;
        void *peer;
        rc = axon_memkind_ipc_map_peer(d->world[j], &d->all[j].data, d->device, &peer);
        if (rc == MPI_SUCCESS) {
            rc = axon_coll_op_apply_gpu(d->kind, d->kernel, (const char *)peer + lo * d->esize, d->res, cnt,
                                        d->datatype, d->dt, d->device);
            axon_memkind_ipc_unmap_peer(d->world[j], &d->all[j].data);
        }
    }
    return rc;
}

/* A reduce_scatter's last round: the slice into the result (after the barrier: in place, the result
 * overlaps the input the peers were reading). */
static int axon_domain_deliver_slice(void *arg)
{
    struct axon_domain *d = arg;
    if (d->broken)
        return MPI_ERR_OTHER;
    int64_t cnt = d->disp[d->me + 1] - d->disp[d->me];
    return cnt ? axon_memkind_copy(d->kind, d->out, d->res, (size_t)(cnt * d->esize), d->device) : MPI_SUCCESS;
}

static int axon_domain_gather_slices_run(struct axon_domain *d);

/* An allreduce's round 3: every slice from its owner's scratch into the result (nothing when round 2
 * wrote them all). */
static int axon_domain_gather_slices(void *arg)
{
    struct axon_domain *d = arg;
    if (d->broken)
        return MPI_ERR_OTHER;
    if (axon_config.verbose >= 3)
        d->t_gather0 = axon_domain_now();
    int rc = axon_domain_gather_slices_run(d);
    if (axon_config.verbose >= 3)
        d->t_gather1 = axon_domain_now();
    return rc;
}

static int axon_domain_gather_slices_run(struct axon_domain *d)
{
    if (d->fused || !axon_domain_writes(d, d->me))
        return MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < d->n && rc == MPI_SUCCESS; j++) {
        int64_t cnt = d->disp[j + 1] - d->disp[j];
        if (cnt == 0)
            continue;
        char *to = d->out + d->disp[j] * d->esize;
        if (j == d->me) {
            rc = axon_memkind_copy(d->kind, to, d->res, (size_t)(cnt * d->esize), d->device);
            continue;
        }
        void *src;
        rc = axon_memkind_ipc_map_peer(d->world[j], &d->all[j].res, d->device, &src);
        if (rc != MPI_SUCCESS)
            break;
        rc = axon_memkind_copy(d->kind, to, src, (size_t)(cnt * d->esize), d->device);
        axon_memkind_ipc_unmap_peer(d->world[j], &d->all[j].res);
    }
    return rc;
}

/* The reductions: the slices are disp's (n + 1 positions, in elements); dest a reduce's root (else -1). */
static void axon_coll_domain_reduce(struct axon_coll_sched *s, const void *in, void *out, const int64_t *disp,
                                    const struct axon_dtype_layout *dt, bool scatter, int dest)
{
    struct axon_domain *d = axon_domain_new(s, -1);
    if (!d)
        return;
    if (axon_config.verbose >= 3)
        d->t_start = axon_domain_now();
    int n = d->n;
    struct axon_coll_op *op;
    const struct axon_dtype_layout *op_dt;
    axon_coll_sched_get_op(s, &op, &d->datatype, &op_dt);
    d->kernel = d->dry ? -1 : axon_coll_op_gpu_kernel(d->kind, op, d->datatype, op_dt);
    d->scatter = scatter;
    d->dest = dest;
    d->esize = dt->size;
    d->out = out;
    d->disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    if (!d->disp)
        return;
    memcpy(d->disp, disp, sizeof(int64_t) * (size_t)(n + 1));
    int64_t slice = 0; /* the largest slice, in bytes */
    for (int j = 0; j < n; j++)
        if ((disp[j + 1] - disp[j]) * d->esize > slice)
            slice = (disp[j + 1] - disp[j]) * d->esize;
    /* The layout is packed and contiguous (axon_coll_domain_have): the input as the peers read it. */
    axon_domain_publish(s, d, in, disp[n], dt);
    d->res = axon_domain_scratch(s, d, slice, &d->all[d->me].res);
    /* An allreduce's result (a reduce's root's), open to the peers for the fused fold when the GPU can
     * export it (in place, the same memory as the input). The flag travels with the descriptors: all
     * members decide alike. */
    struct axon_domain_msg *mine = &d->all[d->me];
    mine->out_ok = !scatter && axon_domain_writes(d, d->me) && !d->broken && d->bytes > 0 && dt->contig &&
                   axon_domain_export(d, (char *)out + dt->true_lb, d->bytes, true, &mine->out) == MPI_SUCCESS;
    axon_domain_settle(d);
    if (axon_config.verbose >= 3)
        d->t_built = axon_domain_now();
    const char *what = scatter ? "reduce_scatter" : dest >= 0 ? "reduce" : "allreduce";
    if (d->broken)
        axon_runtime_log_error("the domain %s cannot export GPU memory to its peers (IPC)", what);
    axon_runtime_log_debug(2, "%s of %lld bytes by the domain algorithm on %d ranks (GPU %d, input %s)", what,
                           (long long)d->bytes, n, d->device, d->staged ? "staged to the GPU" : "read in place");

    axon_domain_exchange(s, d);
    /* What the simulator prices (the run decides on fusing when every result's export is known): one
     * kernel reading the slice of every input and writing it into every result, or a copy of the own
     * slice and a kernel per peer reading its slice and reading and writing the scratch. The simulator's
     * tools read no knobs: they price the default, fused. */
    bool fused = !scatter && n <= AXON_MEMKIND_FOLD_MAX && (d->dry || axon_config.coll_domain_fused);
    if (fused)
        axon_coll_sched_call_gpu(s, axon_domain_reduce_slice, d, (int64_t)n * slice, 1);
    else
        axon_coll_sched_call_gpu(s, axon_domain_reduce_slice, d, slice + (int64_t)(n - 1) * slice * 3 / 2, n);
    axon_coll_sched_round(s);
    axon_coll_barrier(s);
    axon_coll_sched_round(s);
    if (scatter) {
        /* Nobody reads this rank's memory any more: no second barrier. */
        axon_coll_sched_call_gpu(s, axon_domain_deliver_slice, d, slice, 1);
        axon_coll_sched_round(s);
        return;
    }
    if (fused || !axon_domain_writes(d, d->me))
        axon_coll_sched_call(s, axon_domain_gather_slices, d, 0); /* nothing left to copy */
    else
        axon_coll_sched_call_gpu(s, axon_domain_gather_slices, d, d->bytes, n);
    axon_coll_sched_round(s);
    axon_coll_barrier(s);
    if (axon_config.verbose >= 3) {
        axon_coll_sched_round(s);
        axon_coll_sched_call(s, axon_domain_report, d, 0);
    }
}

void axon_coll_domain_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    if (!disp)
        return;
    axon_coll_red_split(count, n, disp);
    axon_coll_domain_reduce(s, in, out, disp, dt, false, -1);
}

void axon_coll_domain_reduce_root(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                  const struct axon_dtype_layout *dt, int root)
{
    int n = axon_coll_sched_size(s);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    if (!disp)
        return;
    axon_coll_red_split(count, n, disp);
    axon_coll_domain_reduce(s, in, out, disp, dt, false, root);
}

void axon_coll_domain_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                                     const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    if (!disp)
        return;
    disp[0] = 0;
    for (int j = 0; j < n; j++)
        disp[j + 1] = disp[j] + counts[j];
    axon_coll_domain_reduce(s, in, out, disp, dt, true, -1);
}

/* ---- bcast and allgather: copies straight from the owner's memory ---------------------------------- */

static int axon_domain_bcast_fetch(void *arg)
{
    struct axon_domain *d = arg;
    if (d->broken)
        return MPI_ERR_OTHER;
    void *from;
    int rc = axon_memkind_ipc_map_peer(d->world[d->root], &d->all[d->root].data, d->device, &from);
    if (rc != MPI_SUCCESS)
        return rc;
    if (d->listed && d->dt->contig) {
        /* GPU buffers: the copy kernel, as for a small IPC message (a driver copy from a peer's memory
         * costs more than the kernel's one launch). */
        const void *src = from;
        void *dst = (char *)d->buf + d->dt->true_lb;
        uint64_t len = (uint64_t)(d->count * d->dt->size);
        rc = axon_memkind_copy_list_run(d->kind, &src, &dst, &len, 1, d->device);
        axon_runtime_log_debug(2, "the domain bcast's %llu bytes fetched by a copy list", (unsigned long long)len);
    } else {
        rc = axon_domain_put(d, from, (void *)d->buf, d->count, d->dt);
    }
    axon_memkind_ipc_unmap_peer(d->world[d->root], &d->all[d->root].data);
    return rc;
}

/* Block j of the receive blocks from member j's data, at offset (j's block for this rank: 0 for an
 * allgather, me * block_bytes for an alltoall). With GPU buffers and the library's kernels, the blocks
 * that land contiguous go by one copy-list launch (AXON_MEMKIND_COPY_LIST_MAX copies each) and one wait,
 * where a driver copy each waited once per block; the others (layouts with gaps, host buffers) one copy
 * each, through host scratch where the layout has gaps. */
static int axon_domain_fetch_blocks(struct axon_domain *d, int64_t offset)
{
    int rc = MPI_SUCCESS, nlist = 0;
    for (int k = 0; k < d->n && rc == MPI_SUCCESS; k++) {
        int j = (d->me + k) % d->n;
        const struct axon_coll_block *b = &d->blocks[j];
        if ((j == d->me && d->in_place) || b->count * b->dt.size == 0)
            continue; /* nothing to fetch (an empty block has no descriptor) */
        void *from = d->dev;
        if (j != d->me) {
            rc = axon_memkind_ipc_map_peer(d->world[j], &d->all[j].data, d->device, &from);
            if (rc != MPI_SUCCESS)
                break;
        }
        from = (char *)from + offset;
        if (d->listed && b->dt.contig) {
            d->list_src[nlist] = from;
            d->list_dst[nlist] = (char *)b->buf + b->dt.true_lb;
            d->list_bytes[nlist] = (uint64_t)(b->count * b->dt.size);
            d->list_peer[nlist++] = j == d->me ? -1 : j;
            continue; /* unmapped once the list has run */
        }
        rc = axon_domain_put(d, from, b->buf, b->count, &b->dt);
        if (j != d->me)
            axon_memkind_ipc_unmap_peer(d->world[j], &d->all[j].data);
    }
    if (rc == MPI_SUCCESS && nlist > 0) {
        rc = axon_memkind_copy_list_run(d->kind, d->list_src, d->list_dst, d->list_bytes, nlist, d->device);
        axon_runtime_log_debug(2, "%d blocks of the domain %s fetched by copy lists", nlist,
                               offset || d->block_bytes ? "alltoall" : "allgather");
    }
    for (int i = 0; i < nlist; i++)
        if (d->list_peer[i] >= 0)
            axon_memkind_ipc_unmap_peer(d->world[d->list_peer[i]], &d->all[d->list_peer[i]].data);
    return rc;
}

static int axon_domain_allgather_fetch(void *arg)
{
    struct axon_domain *d = arg;
    return d->broken ? MPI_ERR_OTHER : axon_domain_fetch_blocks(d, 0);
}

static int axon_domain_alltoall_fetch(void *arg)
{
    struct axon_domain *d = arg;
    return d->broken ? MPI_ERR_OTHER : axon_domain_fetch_blocks(d, d->me * d->block_bytes);
}

/* Room for the copy list when the blocks land in GPU memory and the library has kernels (not in the
 * simulator's dry schedules, which price the list as one launch either way). */
static void axon_domain_list_prepare(struct axon_coll_sched *s, struct axon_domain *d)
{
    int n = d->n;
    d->listed = !d->dry && axon_memkind_kernels_available(axon_coll_sched_gpu_kind(s));
    if (!d->listed)
        return;
    d->list_src = axon_coll_sched_alloc_meta(s, sizeof(*d->list_src) * (size_t)n);
    d->list_dst = axon_coll_sched_alloc_meta(s, sizeof(*d->list_dst) * (size_t)n);
    d->list_bytes = axon_coll_sched_alloc_meta(s, sizeof(*d->list_bytes) * (size_t)n);
    d->list_peer = axon_coll_sched_alloc_meta(s, sizeof(*d->list_peer) * (size_t)n);
    d->listed = d->list_src && d->list_dst && d->list_bytes && d->list_peer;
}

/* The launches a fetch of nblocks blocks costs: lists of AXON_MEMKIND_COPY_LIST_MAX on GPU buffers, what the
 * simulator prices (a dry schedule describes GPU buffers), else one copy a block. */
static int axon_domain_fetch_ops(struct axon_coll_sched *s, int nblocks)
{
    if (axon_coll_sched_is_dry(s) || axon_coll_sched_gpu_device(s) >= 0)
        return (nblocks + AXON_MEMKIND_COPY_LIST_MAX - 1) / AXON_MEMKIND_COPY_LIST_MAX;
    return nblocks;
}

void axon_coll_domain_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                            int root)
{
    struct axon_domain *d = axon_domain_new(s, root);
    if (!d)
        return;
    int64_t bytes = count * dt->size;
    if (d->me == root) {
        axon_domain_publish(s, d, buf, count, dt);
    } else {
        /* Where the root's data goes: the layout kept for the call step. */
        d->buf = buf;
        d->count = count;
        d->dt = axon_coll_sched_keep_layout(s, dt);
        d->tmp = dt->contig ? NULL : axon_coll_sched_alloc_meta(s, (size_t)bytes);
        d->broken |= !d->dt || (!dt->contig && !d->tmp);
    }
    axon_domain_settle(d);
    if (d->broken)
        axon_runtime_log_error("the domain bcast cannot export GPU memory to its peers (IPC)");
    axon_runtime_log_debug(2, "bcast of %lld bytes by the domain algorithm on %d ranks (GPU %d)", (long long)bytes,
                           d->n, d->device);
    axon_domain_exchange(s, d);
    if (d->me != root) {
        d->listed = !d->dry && axon_memkind_kernels_available(axon_coll_sched_gpu_kind(s));
        axon_coll_sched_call_gpu(s, axon_domain_bcast_fetch, d, bytes, 1);
        axon_coll_sched_round(s);
    }
    /* The root's memory is read until everyone has its copy. */
    axon_coll_barrier(s);
}

/* The receive blocks of an allgather or alltoall, kept for the call step (the caller's array is gone
 * when it runs), their bytes in *total, and host scratch for the largest whose layout has gaps (it
 * unpacks from there). false: out of memory, the call abandoned. */
static bool axon_domain_keep_blocks(struct axon_coll_sched *s, struct axon_domain *d,
                                    const struct axon_coll_block *blocks, int64_t *total)
{
    int n = d->n;
    d->blocks = axon_coll_sched_alloc_meta(s, sizeof(*d->blocks) * (size_t)n);
    if (!d->blocks)
        return false;
    int64_t most = 0;
    *total = 0;
    for (int j = 0; j < n; j++) {
        d->blocks[j] = blocks[j];
        if (!axon_coll_sched_keep_layout(s, &blocks[j].dt))
            return false;
        int64_t b = axon_coll_block_bytes(&blocks[j]);
        *total += b;
        if (!blocks[j].dt.contig && b > most)
            most = b;
    }
    d->tmp = most ? axon_coll_sched_alloc_meta(s, (size_t)most) : NULL;
    d->broken |= most && !d->tmp;
    return true;
}

void axon_coll_domain_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                const struct axon_coll_block *blocks)
{
    struct axon_domain *d = axon_domain_new(s, -1);
    if (!d)
        return;
    int n = d->n;
    int64_t total;
    if (!axon_domain_keep_blocks(s, d, blocks, &total))
        return;
    const struct axon_coll_block *own = mine ? mine : &blocks[d->me];
    axon_domain_publish(s, d, own->buf, own->count, &own->dt);
    d->in_place = !mine;
    axon_domain_settle(d);
    if (d->broken)
        axon_runtime_log_error("the domain allgather cannot export GPU memory to its peers (IPC)");
    axon_runtime_log_debug(2, "allgather of %lld bytes by the domain algorithm on %d ranks (GPU %d)", (long long)total,
                           n, d->device);
    axon_domain_exchange(s, d);
    axon_domain_list_prepare(s, d);
    int64_t kept = d->in_place ? blocks[d->me].count * blocks[d->me].dt.size : 0;
    axon_coll_sched_call_gpu(s, axon_domain_allgather_fetch, d, total - kept,
                             axon_domain_fetch_ops(s, d->in_place ? n - 1 : n));
    axon_coll_sched_round(s);
    axon_coll_barrier(s);
}

/* An alltoall's blocks that do not lie one after another in an exportable buffer (or in place): packed
 * into device scratch, block j at j * block_bytes, when the call starts (a layout with gaps by the CPU
 * through host scratch first). */
static int axon_domain_alltoall_stage(void *arg)
{
    struct axon_domain *d = arg;
    if (d->broken)
        return MPI_ERR_OTHER;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < d->n && rc == MPI_SUCCESS; j++) {
        const struct axon_coll_block *b = &d->sblocks[j];
        char *to = d->dev + j * d->block_bytes;
        const char *from = (const char *)b->buf + b->dt.true_lb;
        if (!b->dt.contig) {
            rc = axon_coll_data_copy(b->buf, b->count, &b->dt, d->pack, d->block_bytes, &axon_coll_bytes);
            from = d->pack;
        }
        if (rc == MPI_SUCCESS)
            rc = axon_memkind_copy(d->kind, to, from, (size_t)d->block_bytes, d->device);
    }
    return rc;
}

void axon_coll_domain_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                               const struct axon_coll_block *recv)
{
    struct axon_domain *d = axon_domain_new(s, -1);
    if (!d)
        return;
    int n = d->n;
    int64_t total;
    if (!axon_domain_keep_blocks(s, d, recv, &total))
        return;
    d->block_bytes = axon_coll_block_bytes(&recv[0]);
    /* Blocks one after another: n * count elements of the first block's layout from its start. */
    bool together = send != NULL;
    for (int j = 1; j < n && together; j++) {
        const struct axon_dtype_layout *a = &send[0].dt, *b = &send[j].dt;
        together = send[j].count == send[0].count && b->size == a->size && b->extent == a->extent &&
                   b->true_lb == a->true_lb && b->contig == a->contig && b->loop == a->loop &&
                   (const char *)send[j].buf == (const char *)send[0].buf + j * send[0].count * a->extent;
    }
    if (together) {
        axon_domain_publish(s, d, send[0].buf, n * send[0].count, &send[0].dt);
    } else {
        /* Scratch the peers read, filled by the stage step; in place its blocks are the receive ones. */
        const struct axon_coll_block *from = send ? send : recv;
        d->sblocks = axon_coll_sched_alloc_meta(s, sizeof(*d->sblocks) * (size_t)n);
        d->broken |= !d->sblocks;
        bool sgaps = false;
        for (int j = 0; j < n && d->sblocks; j++) {
            d->sblocks[j] = from[j];
            d->broken |= !axon_coll_sched_keep_layout(s, &from[j].dt);
            sgaps |= !from[j].dt.contig;
        }
        d->bytes = n * d->block_bytes;
        d->dev = axon_domain_scratch(s, d, d->bytes, &d->all[d->me].data);
        d->pack = sgaps ? axon_coll_sched_alloc_meta(s, (size_t)d->block_bytes) : NULL;
        d->broken |= sgaps && !d->pack;
    }
    axon_domain_settle(d);
    if (d->broken)
        axon_runtime_log_error("the domain alltoall cannot export GPU memory to its peers (IPC)");
    axon_runtime_log_debug(2, "alltoall of %lld bytes a block by the domain algorithm on %d ranks (GPU %d, blocks %s)",
                           (long long)d->block_bytes, n, d->device,
                           together && !d->staged ? "read in place" : "staged to the GPU");
    if (!together)
        axon_coll_sched_call_gpu(s, axon_domain_alltoall_stage, d, d->bytes, n);
    axon_domain_exchange(s, d);
    axon_domain_list_prepare(s, d);
    axon_coll_sched_call_gpu(s, axon_domain_alltoall_fetch, d, total, axon_domain_fetch_ops(s, n));
    axon_coll_sched_round(s);
    /* The members' data is read until everyone has its blocks. */
    axon_coll_barrier(s);
}
