/* The path of a collective call (coll/axon_coll_plan.h): a blocking call on a communicator within one
 * node runs through the node's shared memory (coll/axon_coll_shm.h) when every member can tell from
 * what they all know alike (the kind of call, the agreed message size, the operation, the answer of the
 * GPU agreement) that it should; any other call, and every nonblocking one, runs as a schedule. GPU
 * buffers first take the GPU-resident way or are staged (coll/axon_coll_stage.c). A persistent request
 * builds a fresh schedule from its plan at every start. */
#include "coll/axon_coll_path.h"

#include "coll/axon_coll_op.h"
#include "coll/axon_coll_shm.h"
#include "runtime/runtime.h"

#include <stdlib.h>

#define AXON_COLL_STAGE_FAILED "cannot stage the collective's GPU buffers through host memory"

/* The bytes of one rank's block in an equal-block gather or scatter, as this rank knows them. */
static int64_t axon_coll_plan_block_bytes(const struct axon_coll_plan *p, const struct axon_coll_block *blocks)
{
    const struct axon_coll_block *b = p->in_place ? &blocks[p->cc->rank] : &p->mine;
    return b->count * b->dt.size;
}

/* Two ranks moving more than this do better with point-to-point: shared memory copies every byte twice
 * (into the slot, out of it), while point-to-point copies it once, straight between the ranks' buffers.
 * With more ranks one write serves many readers. */
#define AXON_COLL_SHM_PAIR_MAX ((int64_t)8 * 1024)
/* The same for an allreduce, whose point-to-point way (recursive halving, each rank folding half, the
 * first half sent straight from the user's buffer) overtakes both ranks folding every chunk in shared
 * memory only later. A reduce's shared-memory way stays as fast throughout (one rank folds, the other
 * only copies in). */
#define AXON_COLL_SHM_PAIR_ALLREDUCE_MAX ((int64_t)256 * 1024)
/* A scatter's blocks go through the root's slot while they add up to this much, whatever the limit
 * (never more than a slot: AXON_COLL_SHM_CHUNK may make slots smaller). */
#define AXON_COLL_SHM_SCATTER_MAX ((int64_t)32 * 1024)
/* An alltoall among more than two ranks with blocks up to this size goes through shared memory even
 * when a rank's blocks add up to more than AXON_COLL_SHM_MAX: one write and one flag per rank for all
 * of its blocks, where point-to-point pays a message per pair; larger blocks do better point-to-point. */
#define AXON_COLL_SHM_ALLTOALL_BLOCK_MAX ((int64_t)2 * 1024)
/* A reduce among more than AXON_COLL_SHM_REDUCE_WIDE ranks of more than a slot, up to this size, runs as
 * a schedule: in chunks through shared memory every member copies its whole vector in and waits for
 * every chunk's fold, where rabenseifner's halving reads the peers' buffers in place; beyond it the
 * shared memory's pipelined chunks win again. (The measurements behind these limits:
 * bench/results/, 2026-11-26 onwards.) */
#define AXON_COLL_SHM_REDUCE_WIDE 8
#define AXON_COLL_SHM_REDUCE_SCHED_MAX ((int64_t)2 * 1024 * 1024)

/* The packed bytes of a reduce-scatter's contribution: every member knows all the counts alike. */
int64_t axon_coll_plan_scatter_bytes(const struct axon_coll_plan *p)
{
    int64_t total = 0;
    for (int j = 0; j < p->cc->size; j++)
        total += p->counts[j];
    return total * p->dt.size;
}

/* Whether a blocking call may run through shared memory: only from what every member knows alike
 * (the kind of call, the agreed message size, the operation), so that all of them take the same way. */
static bool axon_coll_plan_shm_eligible(const struct axon_coll_plan *p)
{
    int64_t limit = axon_coll_shm_limit(), n = p->cc->size;
    bool uniform = p->have & AXON_COLL_NEEDS_UNIFORM;
    switch (p->kind) {
    case AXON_COLL_PLAN_BARRIER:
        return limit > 0;
    /* Broadcasts, gathers and reductions of any size: beyond a slot they go in chunks. */
    case AXON_COLL_PLAN_BCAST:
        return limit > 0 && (n > 2 || p->mine.count * p->mine.dt.size <= AXON_COLL_SHM_PAIR_MAX);
    case AXON_COLL_PLAN_GATHER:
    case AXON_COLL_PLAN_ALLGATHER:
        return uniform && limit > 0 && (n > 2 || axon_coll_plan_block_bytes(p, p->rblocks) <= AXON_COLL_SHM_PAIR_MAX);
    case AXON_COLL_PLAN_SCATTER: {
        /* The root's blocks, all in its slot (at least the limit, at least the chunk): up to
         * AXON_COLL_SHM_SCATTER_MAX even when the limit is lower. */
        int64_t most = axon_coll_shm_slot_for((int)n) < AXON_COLL_SHM_SCATTER_MAX ? axon_coll_shm_slot_for((int)n)
                                                                                : AXON_COLL_SHM_SCATTER_MAX;
        return uniform && limit > 0 && axon_coll_plan_block_bytes(p, p->sblocks) * n <= (limit > most ? limit : most);
    }
    case AXON_COLL_PLAN_ALLTOALL: {
        int64_t block = p->rblocks[0].count * p->rblocks[0].dt.size;
        if (!uniform || limit <= 0)
            return false;
        /* Beyond two ranks, blocks up to AXON_COLL_SHM_ALLTOALL_BLOCK_MAX go here while a rank's blocks
         * fit the slot every communicator gets. */
        return block * n <= limit ||
               (n > 2 && block <= AXON_COLL_SHM_ALLTOALL_BLOCK_MAX && block * n <= axon_coll_shm_chunk());
    }
    case AXON_COLL_PLAN_REDUCTION:
        /* A reduce-scatter: each member folds its block of all the contributions, in pieces of a slot. */
        if (p->red == AXON_COLL_RED_SCATTER || p->red == AXON_COLL_RED_SCATTER_BLOCK)
            return limit > 0 && p->dt.size * n <= axon_coll_shm_slot_for((int)n) &&
                   axon_coll_shm_reduction_fits(p->op, 0, &p->dt);
        if (p->red == AXON_COLL_RED_ALLREDUCE && n == 2 && p->count * p->dt.size > AXON_COLL_SHM_PAIR_ALLREDUCE_MAX)
            return false;
        if (p->red == AXON_COLL_RED_REDUCE && n > AXON_COLL_SHM_REDUCE_WIDE &&
            p->count * p->dt.size > axon_coll_shm_slot_for((int)n) &&
            p->count * p->dt.size <= AXON_COLL_SHM_REDUCE_SCHED_MAX)
            return false;
        /* With CUDA support on, any member's buffers may be on a GPU, where a large reduction runs with
         * kernels (coll/axon_coll_stage.c), not staged through this path's host slots: such a call
         * takes this path only if every member's buffers are host memory, which the members agree on
         * first (axon_coll_plan_shm_agree). (CUDA support is on alike for the ranks of a node: one
         * driver, one AXON_CUDA for the job.) */
        return (p->red == AXON_COLL_RED_REDUCE || p->red == AXON_COLL_RED_ALLREDUCE) &&
               axon_coll_shm_reduction_fits(p->op, p->count, &p->dt);
    case AXON_COLL_PLAN_NEIGHBOR:
        return false;
    }
    return false;
}

static int axon_coll_plan_shm_kind(const struct axon_coll_plan *p, struct axon_coll_shm *shm);

static int axon_coll_plan_shm_run(const struct axon_coll_plan *p, struct axon_coll_shm *shm)
{
    int rc = axon_coll_plan_shm_kind(p, shm);
    return axon_coll_shm_broken(shm) ? MPI_ERR_PROC_ABORTED : rc;
}

static int axon_coll_plan_shm_kind(const struct axon_coll_plan *p, struct axon_coll_shm *shm)
{
    const struct axon_coll_block *mine = p->in_place ? NULL : &p->mine;
    switch (p->kind) {
    case AXON_COLL_PLAN_BARRIER:
        return axon_coll_shm_barrier(shm);
    case AXON_COLL_PLAN_BCAST:
        return axon_coll_shm_bcast(shm, p->mine.buf, p->mine.count, &p->mine.dt, p->root);
    case AXON_COLL_PLAN_GATHER:
        return axon_coll_shm_gather(shm, mine, p->rblocks, axon_coll_plan_block_bytes(p, p->rblocks), p->root);
    case AXON_COLL_PLAN_ALLGATHER:
        return axon_coll_shm_gather(shm, mine, p->rblocks, axon_coll_plan_block_bytes(p, p->rblocks), -1);
    case AXON_COLL_PLAN_SCATTER:
        return axon_coll_shm_scatter(shm, p->sblocks, mine, axon_coll_plan_block_bytes(p, p->sblocks), p->root);
    case AXON_COLL_PLAN_ALLTOALL:
        return axon_coll_shm_alltoall(shm, p->in_place ? NULL : p->sblocks, p->rblocks,
                                      p->rblocks[0].count * p->rblocks[0].dt.size);
    case AXON_COLL_PLAN_REDUCTION:
        if (p->red == AXON_COLL_RED_SCATTER || p->red == AXON_COLL_RED_SCATTER_BLOCK)
            return axon_coll_shm_reduce_scatter(shm, p->in, p->out, p->counts, &p->dt, p->datatype, p->op);
        return axon_coll_shm_reduce(shm, p->in, p->out, p->count, &p->dt, p->datatype, p->op,
                                    p->red == AXON_COLL_RED_REDUCE ? p->root : -1);
    case AXON_COLL_PLAN_NEIGHBOR:
        break;
    }
    return MPI_ERR_INTERN;
}

#define AXON_COLL_SHM_FAILED                                                                         \
    "the collective failed: its members passed different collectives, roots or counts (AXON_VERBOSE=1 " \
    "says which)"

int axon_coll_plan_build(const struct axon_coll_plan *run, struct axon_coll_stage *st, bool handoff,
                         struct axon_coll_sched **s, const char **why)
{
    int rc = axon_coll_plan_sched(run, s);
    if (rc != MPI_SUCCESS) {
        axon_coll_stage_abort(st);
        *why = "cannot allocate the collective's schedule";
        return rc;
    }
    if (st)
        axon_coll_stage_attach(st, *s);
    if (handoff && axon_config.async_progress)
        axon_coll_sched_set_handoff(*s);
    return MPI_SUCCESS;
}

int axon_coll_plan_run(struct axon_coll_plan *p, struct axon_request **request, const char **why)
{
    struct axon_coll_comm *cc = p->cc;
    /* A lost member (the job surviving it): no collective of the communicator can complete. */
    if (axon_pt2pt_lost_refuses(cc->view, MPI_ANY_SOURCE)) {
        axon_coll_plan_fini(p);
        *why = "a member of the communicator is lost";
        return MPI_ERR_PROC_ABORTED;
    }
    /* GPU buffers: the run names host copies instead (coll/axon_coll_stage.c). */
    struct axon_coll_stage *st = NULL;
    const struct axon_coll_plan *run = p;
    /* (A nonblocking call's answer comes later, when members may already have made further calls: it
     * teaches the memo nothing, but a call the memo lets skip asks nothing either.) */
    if (request && axon_coll_plan_agrees_first(p) && !axon_coll_agree_memo_skip(&cc->agree_memo))
        return axon_coll_plan_start_agreeing(p, request, why);
    /* Whether it runs through the node's shared memory, known to every member alike (or agreed). */
    bool shm = !request && !cc->is_inter && axon_coll_plan_shm_eligible(p);
    if (!request && axon_memkind_enabled()) { /* (no agreement without a device kind) */
        bool agreed, all_host;
        int rc = axon_coll_plan_agree(p, true, &agreed, &all_host);
        if (rc != MPI_SUCCESS) {
            axon_coll_plan_fini(p);
            *why = AXON_COLL_SHM_FAILED;
            return rc;
        }
        if (agreed)
            shm = shm && all_host;
    }
    int rc = axon_coll_plan_gpu(p, shm, &st, &run);
    if (rc != MPI_SUCCESS) {
        axon_coll_plan_fini(p);
        *why = AXON_COLL_STAGE_FAILED;
        return rc;
    }
    if (shm) {
        struct axon_coll_shm *shm;
        rc = axon_coll_comm_shm(cc, &shm);
        if (rc == MPI_SUCCESS && shm)
            rc = axon_coll_plan_shm_run(run, shm);
        if (rc != MPI_SUCCESS || shm) {
            axon_coll_plan_fini(p);
            if (st) {
                int ran = rc;
                rc = axon_coll_stage_end(st, rc);
                if (ran == MPI_SUCCESS && rc != MPI_SUCCESS) {
                    *why = "cannot copy the collective's GPU buffers to or from the host";
                    return rc;
                }
            }
            *why = AXON_COLL_SHM_FAILED;
            return rc;
        }
    }
    struct axon_coll_sched *s;
    rc = axon_coll_plan_build(run, st, request != NULL, &s, why);
    axon_coll_plan_fini(p); /* the schedule holds what it needs */
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_request *req;
    rc = axon_request_alloc_coll(&req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        axon_coll_stage_abort(st);
        *why = "cannot allocate the collective's request";
        return rc;
    }
    rc = axon_coll_sched_start(s, req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        axon_coll_stage_abort(st); /* a schedule that never started runs no end hook */
        /* Completed first: a request freed while incomplete would wait for a completion that never
         * comes, and keep its pool slot. */
        axon_request_coll_complete(req, rc);
        axon_request_free(req);
        *why = "cannot build the collective's schedule";
        return rc;
    }
    if (request) {
        *request = req;
        return MPI_SUCCESS;
    }
    axon_request_wait(req);
    rc = req->status.MPI_ERROR;
    axon_request_free(req);
    *why = "the collective failed";
    return rc;
}

/* ---- persistent requests -------------------------------------------------------------------------- */

int axon_coll_plan_persist(struct axon_coll_plan *p, struct axon_request **req, const char **why)
{
    bool agreed, all_host;
    int rc = axon_coll_plan_agree(p, false, &agreed, &all_host);
    if (rc != MPI_SUCCESS) {
        axon_coll_plan_fini(p);
        *why = "the members' agreement on where their buffers are failed: they passed different collectives or "
               "counts (AXON_VERBOSE=1 says which)";
        return rc;
    }
    /* The user may free the datatypes and the operation before the request. */
    struct axon_coll_plan *kept = axon_coll_plan_keep(p);
    if (!kept) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    kept->seq_fixed = true;
    kept->seq = axon_coll_comm_next_seq(kept->cc);
    rc = axon_request_alloc_coll_persistent(kept->cc->view, kept, req);
    if (rc != MPI_SUCCESS) {
        axon_coll_plan_fini(kept);
        free(kept);
        *why = "cannot allocate the collective's request";
    }
    return rc;
}

int axon_coll_plan_persist_start(struct axon_request *req, const char **why)
{
    struct axon_coll_plan *p = req->upper;
    /* GPU buffers are staged afresh at every start: their contents are the user's at this moment. */
    struct axon_coll_stage *st;
    const struct axon_coll_plan *run;
    int rc = axon_coll_plan_gpu(p, false, &st, &run);
    if (rc != MPI_SUCCESS) {
        *why = AXON_COLL_STAGE_FAILED;
        return rc;
    }
    struct axon_coll_sched *s;
    rc = axon_coll_plan_build(run, st, true, &s, why);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_request_coll_restart(req);
    rc = axon_coll_sched_start(s, req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        axon_coll_stage_abort(st); /* a schedule that never started runs no end hook */
        req->active = false;
        *why = "cannot build the collective's schedule";
    }
    return rc;
}

void axon_coll_plan_persist_free(struct axon_request *req)
{
    struct axon_coll_plan *p = req->upper;
    axon_coll_plan_fini(p);
    free(p);
    req->upper = NULL;
    axon_request_free(req);
}
