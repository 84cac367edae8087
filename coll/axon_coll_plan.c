/* A plan's life (coll/axon_coll_plan.h): the schedule it stands for, built by the entry point of its
 * collective (coll/coll.h) on the communicator's collective traffic with a tag from its sequence number
 * (an intercommunicator's by coll/axon_coll_inter.c), and the copies that outlive a call. */
#include "coll/axon_coll_plan.h"

#include "coll/axon_coll_op.h"
#include "coll/axon_coll_select_model.h"

#include <stdlib.h>

/* The schedule of a plan on an intercommunicator (coll/axon_coll_inter.c). */
static void axon_coll_plan_sched_inter(const struct axon_coll_plan *p, struct axon_coll_sched *s)
{
    const struct axon_coll_comm *cc = p->cc;
    const struct axon_coll_inter ic = {cc->view, cc->local_view, cc->rank, cc->size, cc->remote_size};
    switch (p->kind) {
    case AXON_COLL_PLAN_BARRIER:
        axon_coll_inter_barrier(s, &ic);
        break;
    case AXON_COLL_PLAN_BCAST:
        axon_coll_inter_bcast(s, &ic, p->mine.buf, p->mine.count, &p->mine.dt, p->root);
        break;
    case AXON_COLL_PLAN_GATHER:
        axon_coll_inter_gather(s, &ic, &p->mine, p->rblocks, p->root);
        break;
    case AXON_COLL_PLAN_SCATTER:
        axon_coll_inter_scatter(s, &ic, p->sblocks, &p->mine, p->root);
        break;
    case AXON_COLL_PLAN_ALLGATHER:
        axon_coll_inter_allgather(s, &ic, &p->mine, p->rblocks);
        break;
    case AXON_COLL_PLAN_ALLTOALL:
        axon_coll_inter_alltoall(s, &ic, p->sblocks, p->rblocks);
        break;
    case AXON_COLL_PLAN_REDUCTION:
        axon_coll_sched_set_op(s, p->op, p->datatype, &p->dt);
        switch (p->red) {
        case AXON_COLL_RED_REDUCE:
            axon_coll_inter_reduce(s, &ic, p->in, p->out, p->count, &p->dt, p->root);
            break;
        case AXON_COLL_RED_ALLREDUCE:
            axon_coll_inter_allreduce(s, &ic, p->in, p->out, p->count, &p->dt);
            break;
        case AXON_COLL_RED_SCATTER_BLOCK:
        case AXON_COLL_RED_SCATTER:
            axon_coll_inter_reduce_scatter(s, &ic, p->in, p->out, p->counts, &p->dt,
                                           p->red == AXON_COLL_RED_SCATTER_BLOCK ? AXON_COLL_NEEDS_UNIFORM : 0);
            break;
        case AXON_COLL_RED_SCAN:
        case AXON_COLL_RED_EXSCAN:
            break; /* refused by the plan */
        }
        break;
    case AXON_COLL_PLAN_NEIGHBOR:
        break; /* no topology on an intercommunicator */
    }
}

/* The schedule of a plan on an intracommunicator, on s as created. */
static void axon_coll_plan_sched_intra(const struct axon_coll_plan *p, struct axon_coll_sched *s)
{
    axon_coll_sched_set_nodes(s, axon_coll_comm_nodes(p->cc));
    if (p->on_gpu)
        axon_coll_sched_set_gpu(s, p->gpu_kind, p->gpu_device, p->gpu_kernel);
    if (p->all_device)
        axon_coll_sched_set_all_device(s);
    const struct axon_coll_block *mine = p->in_place ? NULL : &p->mine;
    switch (p->kind) {
    case AXON_COLL_PLAN_BARRIER:
        axon_coll_barrier(s);
        break;
    case AXON_COLL_PLAN_BCAST:
        axon_coll_bcast(s, p->mine.buf, p->mine.count, &p->mine.dt, p->root);
        break;
    case AXON_COLL_PLAN_GATHER:
        axon_coll_gather(s, mine, p->rblocks, p->root, p->have);
        break;
    case AXON_COLL_PLAN_SCATTER:
        axon_coll_scatter(s, p->sblocks, mine, p->root, p->have);
        break;
    case AXON_COLL_PLAN_ALLGATHER:
        axon_coll_allgather(s, mine, p->rblocks, p->have);
        break;
    case AXON_COLL_PLAN_ALLTOALL:
        axon_coll_alltoall(s, p->in_place ? NULL : p->sblocks, p->rblocks, p->have);
        break;
    case AXON_COLL_PLAN_REDUCTION:
        axon_coll_sched_set_op(s, p->op, p->datatype, &p->dt);
        switch (p->red) {
        case AXON_COLL_RED_REDUCE:
            axon_coll_reduce(s, p->in, p->out, p->count, &p->dt, p->root);
            break;
        case AXON_COLL_RED_ALLREDUCE:
            axon_coll_allreduce(s, p->in, p->out, p->count, &p->dt);
            break;
        case AXON_COLL_RED_SCATTER_BLOCK:
        case AXON_COLL_RED_SCATTER:
            axon_coll_reduce_scatter(s, p->in, p->out, p->counts, &p->dt);
            break;
        case AXON_COLL_RED_SCAN:
        case AXON_COLL_RED_EXSCAN:
            axon_coll_scan(s, p->in, p->out, p->count, &p->dt, p->red == AXON_COLL_RED_EXSCAN);
            break;
        }
        break;
    case AXON_COLL_PLAN_NEIGHBOR:
        axon_coll_neighbor(s, p->nsend, p->sblocks, p->speers, p->nrecv, p->rblocks, p->rpeers);
        break;
    }
}

/* AXON_COLL_SELECT=model: the cost model's answers are worked out here, outside the algorithms (whose
 * schedules the model's simulator builds). A build that met a choice the communicator's node map had no
 * answer for took the rules' algorithm there; once the model has answered, the schedule is built again
 * under the same tag (building sends nothing, and discarding gives back what the build took). A build
 * may meet a further question (a collective that calls another), hence rounds. Every member asks the
 * same questions in the same order, so all build alike. */
static int axon_coll_plan_sched_answer(const struct axon_coll_plan *p, int tag, struct axon_coll_sched **sp)
{
    struct axon_coll_comm *cc = p->cc;
    for (int round = 0; round < AXON_COLL_MODEL_REBUILDS && axon_coll_select_model_fill(*sp); round++) {
        axon_coll_sched_discard(*sp);
        *sp = NULL;
        int rc = axon_coll_sched_create(cc->view, cc->rank, cc->size, tag, sp);
        if (rc != MPI_SUCCESS)
            return rc;
        axon_coll_plan_sched_intra(p, *sp);
    }
    return MPI_SUCCESS;
}

int axon_coll_plan_sched(const struct axon_coll_plan *p, struct axon_coll_sched **sp)
{
    struct axon_coll_comm *cc = p->cc;
    unsigned seq = p->seq_fixed ? p->seq : axon_coll_comm_next_seq(cc);
    int tag = axon_coll_comm_tag(seq);
    struct axon_coll_sched *s;
    /* An intercommunicator's schedule starts on the bridge: its peers are the remote group. */
    int rc = axon_coll_sched_create(cc->view, cc->rank, axon_coll_comm_peers(cc), tag, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    *sp = s;
    if (cc->is_inter) {
        axon_coll_plan_sched_inter(p, s);
        return MPI_SUCCESS;
    }
    axon_coll_plan_sched_intra(p, s);
    return axon_coll_plan_sched_answer(p, tag, sp);
}

static void axon_coll_blocks_release(struct axon_coll_block *blocks, int n)
{
    for (int j = 0; blocks && j < n; j++)
        if (blocks[j].dt.loop)
            axon_dloop_release((struct axon_dloop *)blocks[j].dt.loop);
}

static void axon_coll_blocks_retain(const struct axon_coll_block *blocks, int n)
{
    for (int j = 0; blocks && j < n; j++)
        if (blocks[j].dt.loop)
            axon_dloop_retain((struct axon_dloop *)blocks[j].dt.loop);
}

struct axon_coll_plan *axon_coll_plan_keep(struct axon_coll_plan *p)
{
    struct axon_coll_plan *kept = malloc(sizeof(*kept));
    if (!kept) {
        axon_coll_plan_fini(p);
        return NULL;
    }
    *kept = *p;
    axon_coll_blocks_retain(kept->sblocks, kept->nsend);
    axon_coll_blocks_retain(kept->rblocks, kept->nrecv);
    axon_coll_blocks_retain(&kept->mine, 1);
    if (kept->dt.loop)
        axon_dloop_retain((struct axon_dloop *)kept->dt.loop);
    if (kept->op)
        axon_coll_op_retain(kept->op);
    kept->kept = true;
    return kept;
}

void axon_coll_plan_fini(struct axon_coll_plan *p)
{
    /* A persistent request's arrays are freed with it, not handed to a communicator it may outlive. */
    bool give = p->spare_blocks && !p->kept;
    if (p->kept) {
        axon_coll_blocks_release(p->sblocks, p->nsend);
        axon_coll_blocks_release(p->rblocks, p->nrecv);
        axon_coll_blocks_release(&p->mine, 1);
        if (p->dt.loop)
            axon_dloop_release((struct axon_dloop *)p->dt.loop);
        if (p->op)
            axon_coll_op_release(p->op);
        p->kept = false;
    }
    if (give) {
        axon_coll_comm_blocks_give(p->cc, p->sblocks);
        axon_coll_comm_blocks_give(p->cc, p->rblocks);
    } else {
        free(p->sblocks);
        free(p->rblocks);
    }
    free(p->speers);
    free(p->rpeers);
    free(p->counts);
    p->sblocks = p->rblocks = NULL;
    p->speers = p->rpeers = NULL;
    p->counts = NULL;
}
