/* The GPU agreement: before a call large enough for it to matter, while CUDA support is on, the members
 * learn together whether every one of their buffers is host memory (then the node's shared memory may
 * carry it) or GPU memory (then the rules may pick the domain algorithms, which read the peers' GPU
 * memory in place). A blocking call asks through the node's shared segment; a nonblocking call cannot
 * wait, so its request runs the question first and builds its own schedule when the answer is in; a
 * persistent _init asks once for all its starts. */
#include "coll/axon_coll_path.h"

#include "coll/axon_coll_op.h"
#include "coll/axon_coll_shm.h"
#include "runtime/runtime.h"

#include <stdlib.h>

/* The bytes a rank's part of the call moves, which every member knows alike: a bcast's message, all the
 * blocks of an allgather, a rank's blocks of an equal-block alltoall (-1 for alltoallv and w, whose
 * counts each rank knows only for itself), a reduction's vector (a reduce-scatter's whole input). */
static int64_t axon_coll_plan_moved_bytes(const struct axon_coll_plan *p)
{
    int64_t total = 0;
    switch (p->kind) {
    case AXON_COLL_PLAN_BCAST:
        return p->mine.count * p->mine.dt.size;
    case AXON_COLL_PLAN_ALLGATHER:
        for (int j = 0; j < p->nrecv; j++)
            total += p->rblocks[j].count * p->rblocks[j].dt.size;
        return total;
    case AXON_COLL_PLAN_ALLTOALL:
        if (!(p->have & AXON_COLL_NEEDS_UNIFORM))
            return -1;
        return p->rblocks[0].count * p->rblocks[0].dt.size * p->cc->size;
    case AXON_COLL_PLAN_REDUCTION:
        if (p->red == AXON_COLL_RED_SCATTER || p->red == AXON_COLL_RED_SCATTER_BLOCK)
            return axon_coll_plan_scatter_bytes(p);
        return p->count * p->dt.size;
    default:
        return -1;
    }
}

/* Whether the members first agree where their buffers are (axon_coll_plan_shm_agree), while CUDA
 * support is on: a bcast, allgather, equal-block alltoall or reduction (not a scan) moving more than
 * AXON_COLL_GPU_AGREE_MIN bytes a rank, whichever way it would go. The shared-memory path is taken only
 * where every buffer is host memory (it would stage GPU buffers through its host slots), and where
 * every buffer is GPU memory the rules pick the domain algorithms (AXON_COLL_NEEDS_DEVICE), which read
 * the peers' GPU memory in place. Without the agreement such a call of GPU buffers would go through the
 * shared memory staged, or as point-to-point schedules, many times slower
 * (bench/results/2026-11-26-h200-domain-collectives.md). The cost where all buffers are host memory: one
 * small allreduce through the shared memory, for few of the calls above the threshold (the memo). */
static bool axon_coll_plan_needs_agreement(const struct axon_coll_plan *p)
{
    if (!axon_memkind_enabled() || axon_coll_plan_moved_bytes(p) <= axon_config.coll_gpu_agree_min)
        return false;
    switch (p->kind) {
    case AXON_COLL_PLAN_BCAST:
    case AXON_COLL_PLAN_ALLGATHER:
    case AXON_COLL_PLAN_ALLTOALL:
        return true;
    case AXON_COLL_PLAN_REDUCTION:
        return p->red != AXON_COLL_RED_SCAN && p->red != AXON_COLL_RED_EXSCAN;
    default:
        return false;
    }
}

/* The agreement: an allreduce (minimum) of "my buffers are host memory" and "my buffers are GPU memory"
 * through the same shared memory, one more use of its slots, small against the large calls it lets
 * through the shared memory or to the domain algorithms. *all_host false when any member's
 * buffer is on a GPU; *all_device true when every member's buffers are (the schedule may then pick an
 * algorithm for device data, all members alike). */
static void axon_coll_plan_memkinds(const struct axon_coll_plan *p, int mine[2]);

static int axon_coll_plan_shm_agree(const struct axon_coll_plan *p, struct axon_coll_shm *shm, bool *all_host,
                                    bool *all_device)
{
    int mine[2], all[2] = {0, 0};
    axon_coll_plan_memkinds(p, mine);
    struct axon_dtype_layout dt = axon_dtype_layout_basic(MPI_INT, sizeof(int));
    struct axon_coll_op *min = axon_coll_op_get(MPI_MIN);
    if (!min)
        return MPI_ERR_INTERN;
    int rc = axon_coll_shm_reduce(shm, mine, all, 2, &dt, MPI_INT, min, -1);
    if (axon_coll_shm_broken(shm))
        rc = MPI_ERR_PROC_ABORTED;
    *all_host = rc == MPI_SUCCESS && all[0] == 1;
    *all_device = rc == MPI_SUCCESS && all[1] == 1;
    return rc;
}

/* What this rank contributes to the agreement: mine[0] 1 when all its buffers are host memory, mine[1]
 * 1 when all are GPU memory. */
static void axon_coll_plan_memkinds(const struct axon_coll_plan *p, int mine[2])
{
    mine[0] = mine[1] = 1;
    /* The user's buffers of this rank (a block stands for the buffer it lies in). */
    const void *bufs[3] = {NULL, NULL, NULL};
    switch (p->kind) {
    case AXON_COLL_PLAN_REDUCTION: /* a reduce's result buffer means nothing but at the root */
        bufs[0] = p->in;
        bufs[1] = p->red != AXON_COLL_RED_REDUCE || axon_coll_comm_is_root(p->cc, p->root) ? p->out : NULL;
        break;
    case AXON_COLL_PLAN_BCAST:
        bufs[0] = p->mine.buf;
        break;
    default: /* an empty block may name any address: it says nothing of the buffer */
        bufs[0] = p->in_place || p->mine.count == 0 ? NULL : p->mine.buf;
        bufs[1] = p->nsend > 0 && p->sblocks[0].count > 0 ? p->sblocks[0].buf : NULL;
        bufs[2] = p->nrecv > 0 && p->rblocks[0].count > 0 ? p->rblocks[0].buf : NULL;
        break;
    }
    for (int i = 0; i < 3; i++) {
        if (!bufs[i] || bufs[i] == MPI_IN_PLACE)
            continue;
        struct axon_memkind_info info;
        int rc = axon_memkind_of(bufs[i], &info);
        if (rc != MPI_SUCCESS || !axon_memkind_is_host(&info))
            mine[0] = 0; /* a buffer it cannot classify goes the general way too */
        if (rc != MPI_SUCCESS || axon_memkind_is_host(&info) || info.device < 0)
            mine[1] = 0;
    }
}

/* The agreement where axon_coll_plan_needs_agreement asks for it and the communicator has the node's
 * segment: *agreed, *all_host, and p->all_device. A blocking call (memo) may take an answer for granted
 * after a run of host-only ones (struct axon_coll_agree_memo), and teaches the memo what it hears; a
 * persistent _init always asks (once for all its starts) and teaches nothing. */
int axon_coll_plan_agree(struct axon_coll_plan *p, bool memo, bool *agreed, bool *all_host)
{
    struct axon_coll_comm *cc = p->cc;
    struct axon_coll_shm *seg = NULL;
    bool all_device = false;
    *agreed = *all_host = false;
    if (cc->is_inter || !axon_coll_plan_needs_agreement(p))
        return MPI_SUCCESS;
    if (memo && axon_coll_agree_memo_skip(&cc->agree_memo)) {
        *agreed = *all_host = true;
        return MPI_SUCCESS;
    }
    int rc = axon_coll_comm_shm(cc, &seg);
    if (rc != MPI_SUCCESS || !seg)
        return rc;
    rc = axon_coll_plan_shm_agree(p, seg, all_host, &all_device);
    *agreed = rc == MPI_SUCCESS;
    p->all_device = all_device;
    if (memo && *agreed)
        axon_coll_agree_memo_learn(&cc->agree_memo, *all_host);
    return rc;
}

/* ---- nonblocking calls that agree first ------------------------------------------------------------- */

/* A nonblocking call asks what a blocking one of its size asks (axon_coll_plan_needs_agreement) where the
 * answer can choose a domain algorithm: the communicator lies on one node where CUDA IPC works (known
 * alike). It cannot wait for the answer: its request runs an allreduce of the members' two flags first,
 * then the call's own schedule, built when the answer is in (axon_coll_sched_then, in the progress hook),
 * under the same tag: each pair's messages of the two match in their order, as a persistent request's
 * starts do. What host buffers pay: that allreduce of two ints, log2(n) more small messages. */
bool axon_coll_plan_agrees_first(const struct axon_coll_plan *p)
{
    return !p->cc->is_inter && p->cc->size > 1 && axon_coll_plan_needs_agreement(p) && axon_memkind_ipc_any() &&
           axon_coll_comm_one_node(p->cc);
}

struct axon_coll_agreeing {
    struct axon_coll_plan *plan; /* kept (axon_coll_plan_keep) until the call's schedule is built */
    int mine[2], all[2];
};

/* The answer is in: the call's schedule, as a persistent start builds it (GPU way or staging). */
static struct axon_coll_sched *axon_coll_plan_agreed(void *arg, int *err)
{
    struct axon_coll_agreeing *a = arg;
    struct axon_coll_plan *p = a->plan;
    struct axon_coll_sched *s = NULL;
    struct axon_coll_stage *st = NULL;
    if (*err == MPI_SUCCESS) {
        p->all_device = a->all[1] == 1;
        const struct axon_coll_plan *run;
        const char *why;
        *err = axon_coll_plan_gpu(p, false, &st, &run);
        if (*err != MPI_SUCCESS) {
            axon_coll_stage_abort(st);
        } else if ((*err = axon_coll_plan_build(run, st, true, &s, &why)) == MPI_SUCCESS &&
                   (*err = axon_coll_sched_built(s)) != MPI_SUCCESS) {
            axon_coll_sched_discard(s); /* never started: its end hook does not run */
            axon_coll_stage_abort(st);
            s = NULL;
        }
    }
    axon_coll_plan_fini(p);
    free(p);
    return s;
}

int axon_coll_plan_start_agreeing(struct axon_coll_plan *p, struct axon_request **reqp, const char **why)
{
    struct axon_coll_comm *cc = p->cc;
    struct axon_dtype_layout dt = axon_dtype_layout_basic(MPI_INT, sizeof(int));
    struct axon_coll_op *min = axon_coll_op_get(MPI_MIN);
    if (!min) {
        axon_coll_plan_fini(p);
        *why = "no MPI_MIN on MPI_INT";
        return MPI_ERR_INTERN;
    }
    int mine[2];
    axon_coll_plan_memkinds(p, mine);
    struct axon_coll_plan *kept = axon_coll_plan_keep(p);
    if (!kept) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    kept->seq_fixed = true;
    kept->seq = axon_coll_comm_next_seq(cc);
    struct axon_coll_sched *s = NULL;
    struct axon_request *req = NULL;
    int rc = axon_coll_sched_create(cc->view, cc->rank, cc->size, axon_coll_comm_tag(kept->seq), &s);
    struct axon_coll_agreeing *a = rc == MPI_SUCCESS ? axon_coll_sched_alloc_meta(s, sizeof(*a)) : NULL;
    if (a) {
        *a = (struct axon_coll_agreeing){kept, {mine[0], mine[1]}, {0, 0}};
        axon_coll_sched_set_op(s, min, MPI_INT, &dt);
        axon_coll_allreduce_small(s, a->mine, a->all, 2, &dt);
        axon_coll_sched_then(s, axon_coll_plan_agreed, a);
        if (axon_config.async_progress)
            axon_coll_sched_set_handoff(s);
        rc = axon_request_alloc_coll(&req);
    }
    if (rc == MPI_SUCCESS && a) {
        rc = axon_coll_sched_start(s, req);
        if (rc == MPI_SUCCESS) {
            *reqp = req;
            return MPI_SUCCESS;
        }
        axon_request_coll_complete(req, rc);
        axon_request_free(req);
    }
    if (s)
        axon_coll_sched_discard(s);
    axon_coll_plan_fini(kept);
    free(kept);
    *why = "cannot build the collective's schedule";
    return rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc;
}
