/* A collective call as the MPI layer hands it over: a plan, what to run (which collective, with the
 * user's buffers as blocks, coll/coll.h) on which communicator (coll/axon_coll_comm.h). The MPI layer
 * checks the call's arguments and fills the plan; from there coll/ alone decides how it runs: through
 * the node's shared memory or as a schedule of point-to-point steps, with GPU buffers kept on the GPU,
 * staged through host memory, or (after the members agree that every buffer is GPU memory) read in
 * place by the domain algorithms.
 *
 * A blocking or nonblocking call runs its plan at once (axon_coll_plan_run); a persistent call keeps it
 * in its request (axon_coll_plan_persist) and builds a schedule from it at every start. Errors come back
 * as an error class and a sentence (why) for the MPI layer to raise on the communicator. */
#ifndef AXON_COLL_PLAN_H
#define AXON_COLL_PLAN_H

#include "coll/axon_coll_comm.h"
#include "coll/coll.h"
#include "memkind/axon_memkind.h"

/* What a reduction is. */
enum axon_coll_red_kind { AXON_COLL_RED_REDUCE, AXON_COLL_RED_ALLREDUCE, AXON_COLL_RED_SCATTER_BLOCK,
                          AXON_COLL_RED_SCATTER, AXON_COLL_RED_SCAN, AXON_COLL_RED_EXSCAN };

enum axon_coll_plan_kind {
    AXON_COLL_PLAN_BARRIER,
    AXON_COLL_PLAN_BCAST,     /* mine: the buffer */
    AXON_COLL_PLAN_GATHER,    /* mine (unless in_place) to the root's rblocks (nrecv, the root only) */
    AXON_COLL_PLAN_SCATTER,   /* the root's sblocks (nsend, the root only) to mine (unless in_place) */
    AXON_COLL_PLAN_ALLGATHER, /* mine (unless in_place) to everyone's rblocks */
    AXON_COLL_PLAN_ALLTOALL,  /* sblocks (unless in_place) to rblocks */
    AXON_COLL_PLAN_REDUCTION, /* red, in, out, count or counts, datatype, dt, op */
    AXON_COLL_PLAN_NEIGHBOR,  /* sblocks to ranks speers, rblocks from ranks rpeers, in posting order */
};

struct axon_coll_plan {
    enum axon_coll_plan_kind kind;
    struct axon_coll_comm *cc;
    int root;
    bool in_place;
    unsigned have;  /* AXON_COLL_NEEDS_UNIFORM for the equal-block forms (coll/axon_coll_select.h) */
    struct axon_coll_block mine;
    int nsend, nrecv;
    struct axon_coll_block *sblocks, *rblocks;
    int *speers, *rpeers;
    enum axon_coll_red_kind red;
    const void *in;
    void *out;
    int64_t count;
    int64_t *counts;
    MPI_Datatype datatype;
    struct axon_dtype_layout dt;
    struct axon_coll_op *op;
    bool kept; /* a persistent request's: holds references on its layouts and operation */
    bool spare_blocks; /* sblocks and rblocks came from the communicator's spares (axon_coll_comm_blocks_take) */
    /* A persistent request's collective sequence number, taken at its _init call: every MPI_Start of it
     * runs under that tag, so that the members may start their persistent collectives in different
     * orders (MPI 4: they match by the order of the _init calls). */
    bool seq_fixed;
    unsigned seq;
    /* A reduction whose buffers on this rank are all on one GPU, run there (axon_coll_gpu_choose):
     * scratch on the GPU, reductions by the kernel, nothing staged through the host. */
    bool on_gpu;
    bool all_device; /* the members agreed that all their buffers are GPU memory (blocking reductions) */
    enum axon_memkind gpu_kind;
    int gpu_device, gpu_kernel;
};

/* A plan of kind on cc, empty otherwise. */
static inline void axon_coll_plan_begin(struct axon_coll_plan *p, enum axon_coll_plan_kind kind,
                                        struct axon_coll_comm *cc)
{
    *p = (struct axon_coll_plan){.kind = kind, .cc = cc, .datatype = MPI_DATATYPE_NULL};
}

/* Builds the schedule of a plan, as the next collective on its communicator (a new sequence number). */
int axon_coll_plan_sched(const struct axon_coll_plan *p, struct axon_coll_sched **s);
/* Frees what the plan holds (not the plan itself). */
void axon_coll_plan_fini(struct axon_coll_plan *p);
/* A copy of p in memory of its own that holds references on its layouts and operation (kept), for a
 * plan that outlives its call (a persistent request's, a nonblocking call's that agrees first); free it
 * with axon_coll_plan_fini and free. p's arrays move to it. NULL when out of memory (p finished). */
struct axon_coll_plan *axon_coll_plan_keep(struct axon_coll_plan *p);

/* Runs a plan now: blocking when req is NULL, else *req gets the collective's request, which completes
 * when the collective does. Consumes the plan (frees what it holds), whatever happens. On failure
 * returns the error class and sets *why. */
int axon_coll_plan_run(struct axon_coll_plan *p, struct axon_request **req, const char **why);
/* A persistent collective's _init (nonlocal, ordered with the communicator's other collectives, MPI 4.1
 * section 6.13): the members agree once, as a blocking call of that size would, whether every buffer is
 * GPU memory (for every start: the buffers stay those of the _init); then the plan is kept (consumed,
 * whatever happens) in a new inactive persistent request, *req. */
int axon_coll_plan_persist(struct axon_coll_plan *p, struct axon_request **req, const char **why);
/* MPI_Start of such a request (inactive: checked by the caller). */
int axon_coll_plan_persist_start(struct axon_request *req, const char **why);
/* The plan of such a request, freed with it (the request must be inactive). */
void axon_coll_plan_persist_free(struct axon_request *req);

/* ---- GPU buffers (coll/axon_coll_stage.c) --------------------------------------------------------- */

/* Only while CUDA support is on (the callers test axon_memkind_watching() first, so host-only runs pay one
 * load). */
struct axon_coll_stage;
/* When some buffer that plan p touches is GPU memory: *st gets host copies of them, filled with what
 * the call reads, and a copy of the plan that names them instead (axon_coll_stage_plan); NULL when
 * every buffer is host memory (run p as it is). p is not changed. */
int axon_coll_stage_begin(struct axon_coll_plan *p, struct axon_coll_stage **st);
const struct axon_coll_plan *axon_coll_stage_plan(const struct axon_coll_stage *st);
/* The schedule built from the staged plan ends by copying back and freeing st (its end hook); what the
 * plan held is no longer needed. If the schedule then never starts, axon_coll_stage_abort(st). */
void axon_coll_stage_attach(struct axon_coll_stage *st, struct axon_coll_sched *s);
/* The call has ended with err: the copies it wrote go to the GPU and st is freed. Returns err, else the
 * error of a copy (either way). */
int axon_coll_stage_end(struct axon_coll_stage *st, int err);
/* Frees st without copying anything back (NULL is fine). */
void axon_coll_stage_abort(struct axon_coll_stage *st);
/* Sets p->on_gpu when p is a reduction (not on an intercommunicator) whose operation has a GPU kernel
 * for its datatype, whose layout is contiguous, and every buffer of which this rank touches lies on one
 * GPU: its schedule then keeps the data there (coll's GPU schedules) instead of staging. Other members
 * may decide otherwise for their own buffers: the messages are the same. */
int axon_coll_gpu_choose(struct axon_coll_plan *p);
/* What axon_coll_gpu_prepare does when the inline checks cannot call every buffer host memory. */
int axon_coll_gpu_examine(struct axon_coll_plan *p, bool shm, struct axon_coll_stage **st);

/* Whether count elements of dt at buf are surely host memory by the inline checks alone: contiguous data
 * in the heap, on the caller's stack or on a page known to be host (or no data). False only means "look
 * closer". */
static inline bool axon_coll_plan_quick_host_block(const void *buf, int64_t count, const struct axon_dtype_layout *dt)
{
    return count <= 0 || dt->size == 0 || axon_pt2pt_data_surely_host(buf, dt);
}

/* Whether every buffer the call touches on this rank is surely host memory without the walks: the small
 * calls of a CUDA-aware program (a `double` on the stack, a vector from malloc), where the two walks of
 * the plan (the GPU way's check and the staging's) would cost a third of an 8-byte allreduce. Covers the
 * rooted and reduction calls and the equal-block forms, whose sides are one buffer each (their first
 * block stands for the rest, as in axon_stage_collect of coll/axon_coll_stage.c); the others take the
 * walks. */
static inline bool axon_coll_plan_quick_host(const struct axon_coll_plan *p)
{
    switch (p->kind) {
    case AXON_COLL_PLAN_BARRIER:
        return true;
    case AXON_COLL_PLAN_BCAST:
        return axon_coll_plan_quick_host_block(p->mine.buf, p->mine.count, &p->mine.dt);
    case AXON_COLL_PLAN_REDUCTION: {
        if (p->red == AXON_COLL_RED_SCATTER || p->red == AXON_COLL_RED_SCATTER_BLOCK)
            return false;
        /* The roles of the staging's walk: a reduce's non-root has no result buffer (often NULL). */
        bool reduce = p->red == AXON_COLL_RED_REDUCE;
        bool has_result = !reduce || axon_coll_comm_is_root(p->cc, p->root);
        bool contributes = !(p->cc->is_inter && reduce && (p->root == MPI_ROOT || p->root == MPI_PROC_NULL));
        return (!contributes || axon_coll_plan_quick_host_block(p->in, p->count, &p->dt)) &&
               (!has_result || axon_coll_plan_quick_host_block(p->out, p->count, &p->dt));
    }
    case AXON_COLL_PLAN_GATHER:
    case AXON_COLL_PLAN_ALLGATHER:
    case AXON_COLL_PLAN_SCATTER:
    case AXON_COLL_PLAN_ALLTOALL:
        if (!(p->have & AXON_COLL_NEEDS_UNIFORM))
            return false;
        if (!axon_coll_plan_quick_host_block(p->mine.buf, p->mine.count, &p->mine.dt))
            return false;
        if (p->nsend > 0 &&
            !axon_coll_plan_quick_host_block(p->sblocks[0].buf, p->sblocks[0].count, &p->sblocks[0].dt))
            return false;
        return p->nrecv == 0 ||
               axon_coll_plan_quick_host_block(p->rblocks[0].buf, p->rblocks[0].count, &p->rblocks[0].dt);
    case AXON_COLL_PLAN_NEIGHBOR:
        break;
    }
    return false;
}

/* Everything a call does about GPU buffers before it runs: the GPU-resident way when it applies (not for
 * a call that runs through the node's shared memory, shm), else staging (*st, as axon_coll_stage_begin);
 * nothing when the inline checks call every buffer host memory. Only while CUDA support is on. */
static inline int axon_coll_gpu_prepare(struct axon_coll_plan *p, bool shm, struct axon_coll_stage **st)
{
    if (axon_coll_plan_quick_host(p)) {
        *st = NULL;
        p->on_gpu = false;
        return MPI_SUCCESS;
    }
    return axon_coll_gpu_examine(p, shm, st);
}

/* MPI_Reduce_local on the GPU, when its result buffer is GPU memory and the operation has a kernel for
 * the (contiguous) datatype: an input elsewhere is copied to the result's GPU first. *done says whether
 * it ran (else the caller stages). */
int axon_coll_gpu_local(const struct axon_coll_op *op, MPI_Datatype datatype, const struct axon_dtype_layout *dt,
                        const void *in, void *inout, int64_t count, bool *done);
/* MPI_Reduce_local's buffers: count elements of dt at *in (read) and *inout (read and written); GPU
 * ones are replaced by host copies, and *st is set (end it with axon_coll_stage_end), else NULL. */
int axon_coll_stage_local(const void **in, void **inout, int64_t count, const struct axon_dtype_layout *dt,
                          struct axon_coll_stage **st);

#endif
