/* MPI_Comm_idup and MPI_Comm_idup_with_info: duplication that does not block. The context id is agreed
 * in rounds that the progress engine runs, each a schedule; the next round, or the new communicator, is
 * made when one ends. So a process may have several duplications pending at once, over overlapping
 * groups, and compute, communicate or create other communicators meanwhile (MPICH's comm_idup tests:
 * orders that deadlock a blocking dup).
 *
 * A round holds nothing while it waits (axon_mpi_comm_context.c): the members AND copies of their
 * free-id bitmaps, which gives a candidate (the lowest id free on all), each reserves it if it can, and
 * they AND their votes; all yes: the id is the new communicator's; else the reservations go back and
 * another round starts. Each AND is a gather to the group's rank 0 and a broadcast back (a few words;
 * the collectives' algorithms and their knobs stay out of it), and for an intercommunicator the two
 * groups' rank 0 swap their groups' ANDs in between, over its own internal context. A round's tag on the
 * parent's internal context is the duplication's own, counted per parent (every member starts its
 * duplications of a communicator in the same order, as the standard requires), so rounds of different
 * duplications, and blocking creations meanwhile, never match each other's messages. The parent's
 * internal contexts are held (their busy counts) until the end, so freeing the parent meanwhile waits
 * for it. Attribute copy callbacks run when the new communicator is made, from whichever thread
 * progresses then. */
#include "mpi/comm/axon_mpi_comm.h"

#include "coll/coll.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

/* Tags of the duplications' rounds on a parent's internal context: above the creation tag, in a window
 * of their own. */
#define AXON_COMM_TAG_IDUP (AXON_COMM_TAG_BASE + 0x100)
#define AXON_COMM_IDUP_TAGS 0x1000

/* The words of one AND: the bitmap's, or a vote's. */
enum { AXON_IDUP_MASK = AXON_CTX_WORDS, AXON_IDUP_VOTE = 1 };

/* One AND over the members: this process's words, the AND, and the other group's (an
 * intercommunicator's leaders); rank 0 gathers the others' words into gathered (members - 1 rows of
 * AXON_IDUP_MASK words, shared by the AND steps, which run one after the other). */
struct axon_idup_and {
    uint32_t mine[AXON_IDUP_MASK], all[AXON_IDUP_MASK], other[AXON_IDUP_MASK];
    int words, members;
    uint32_t *gathered;
};

struct axon_idup {
    struct axon_comm *parent;
    MPI_Comm *newcomm;
    MPI_Info info;              /* _with_info's hints (a copy), or MPI_INFO_NULL: the parent's */
    bool with_info;
    struct axon_request *req;   /* the caller's */
    struct axon_comm_team t;
    struct axon_comm_bridge b;  /* an intercommunicator's leaders */
    bool inter;
    int remote_size;
    unsigned long rounds;
    struct axon_idup_and mask, vote;
    int candidate;              /* the round's id, -1: none is free on every member */
    bool reserved;              /* this process reserved it */
};

static int axon_idup_round(struct axon_idup *op);

/* Rank 0's step: the AND of every member's words (its own in all already). */
static int axon_idup_and_group(void *arg)
{
    struct axon_idup_and *x = arg;
    for (int j = 1; j < x->members; j++)
        for (int k = 0; k < x->words; k++)
            x->all[k] &= x->gathered[(size_t)(j - 1) * AXON_IDUP_MASK + (size_t)k];
    return MPI_SUCCESS;
}

/* An intercommunicator's leader: the other group's AND into ours. */
static int axon_idup_and_other(void *arg)
{
    struct axon_idup_and *x = arg;
    for (int k = 0; k < x->words; k++)
        x->all[k] &= x->other[k];
    return MPI_SUCCESS;
}

/* Every member's step between the two ANDs: the candidate, reserved here if it can be. */
static int axon_idup_reserve(void *arg)
{
    struct axon_idup *op = arg;
    op->candidate = axon_ctx_lowest(op->mask.all, AXON_IDUP_MASK);
    op->reserved = op->candidate >= 0 && axon_comm_context_reserve((uint32_t)op->candidate);
    op->vote.mine[0] = op->vote.all[0] = op->reserved;
    return MPI_SUCCESS;
}

/* Appends one AND of x over the members (and the other group) to s. */
static void axon_idup_add_and(struct axon_coll_sched *s, struct axon_idup *op, struct axon_idup_and *x)
{
    const struct axon_comm_team *t = &op->t;
    int64_t bytes = x->words * (int64_t)sizeof(uint32_t);
    if (t->rank == 0) {
        for (int j = 1; j < t->size; j++)
            axon_coll_sched_recv(s, x->gathered + (size_t)(j - 1) * AXON_IDUP_MASK, bytes, &axon_coll_bytes, j);
        axon_coll_sched_round(s);
        axon_coll_sched_call(s, axon_idup_and_group, x, bytes * t->size);
        axon_coll_sched_round(s);
        if (op->inter) {
            axon_coll_sched_set_group(s, op->b.pc, t->rank, op->remote_size);
            axon_coll_sched_send(s, x->all, bytes, &axon_coll_bytes, op->b.remote_leader);
            axon_coll_sched_recv(s, x->other, bytes, &axon_coll_bytes, op->b.remote_leader);
            axon_coll_sched_round(s);
            axon_coll_sched_call(s, axon_idup_and_other, x, bytes);
            axon_coll_sched_round(s);
            axon_coll_sched_set_group(s, t->pc, t->rank, t->size);
        }
        for (int j = 1; j < t->size; j++)
            axon_coll_sched_send(s, x->all, bytes, &axon_coll_bytes, j);
    } else {
        axon_coll_sched_send(s, x->mine, bytes, &axon_coll_bytes, 0);
        axon_coll_sched_round(s);
        axon_coll_sched_recv(s, x->all, bytes, &axon_coll_bytes, 0);
    }
    axon_coll_sched_round(s);
}

/* The end: the communicator made (or the error), the caller's request completed, everything let go. */
static void axon_idup_finish(struct axon_idup *op, int rc, uint32_t id)
{
    static const char func[] = "MPI_Comm_idup";
    axon_runtime_log_debug(2, "MPI_Comm_idup: context id %u after %lu round(s)", id, op->rounds);
    struct axon_comm *c = op->parent, *n = NULL;
    if (rc == MPI_SUCCESS)
        rc = axon_comm_make(func, c, id, c->group, op->inter ? c->remote_group : NULL, &n);
    if (rc == MPI_SUCCESS) {
        int arc = axon_comm_attr_copy(c, n);
        if (arc != MPI_SUCCESS) {
            /* What was copied is deleted again (the new communicator never existed); MPI_Wait says so. */
            axon_comm_attr_delete_all(n);
            axon_comm_discard(n);
            n = NULL;
            axon_runtime_log_debug(1, "%s: an attribute copy callback returned %d", func, arc);
            rc = arc;
        }
    }
    if (n && op->with_info) {
        /* The hints given replace the parent's. */
        axon_comm_info_adopt(n, op->info);
        op->info = MPI_INFO_NULL;
    }
    if (n)
        *op->newcomm = n->handle;
    if (op->info != MPI_INFO_NULL)
        axon_mpi_info_release(op->info);
    atomic_fetch_sub(&c->coll.busy, 1);
    if (op->inter)
        atomic_fetch_sub(&c->local_comm->coll.busy, 1);
    axon_request_coll_complete(op->req, rc);
    free(op->mask.gathered);
    free(op);
}

/* A round's schedule has ended: the id, another round, or the end. */
static int axon_idup_round_end(void *arg, int err)
{
    struct axon_idup *op = arg;
    if (err == MPI_SUCCESS && op->vote.all[0]) {
        axon_idup_finish(op, MPI_SUCCESS, (uint32_t)op->candidate);
        return err;
    }
    if (op->reserved)
        axon_comm_context_free((uint32_t)op->candidate);
    op->reserved = false;
    int rc = err;
    if (rc == MPI_SUCCESS && op->candidate < 0) {
        axon_runtime_log_error("MPI_Comm_idup: no context id is free on every member (%d exist per process)",
                               AXON_CTX_IDS);
        rc = MPI_ERR_INTERN;
    }
    if (rc == MPI_SUCCESS)
        rc = axon_idup_round(op); /* some member could not reserve it (taken meanwhile): again */
    if (rc != MPI_SUCCESS)
        axon_idup_finish(op, rc, 0);
    return err;
}

/* Starts one round: the AND of the bitmaps, the reservation, the AND of the votes. */
static int axon_idup_round(struct axon_idup *op)
{
    op->rounds++;
    axon_comm_context_snapshot(op->mask.mine);
    memcpy(op->mask.all, op->mask.mine, sizeof(op->mask.all));
    op->candidate = -1;
    op->reserved = false;
    const struct axon_comm_team *t = &op->t;
    struct axon_coll_sched *s;
    int rc = axon_coll_sched_create(t->pc, t->rank, t->size, t->tag, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_idup_add_and(s, op, &op->mask);
    axon_coll_sched_call(s, axon_idup_reserve, op, 0);
    axon_coll_sched_round(s);
    axon_idup_add_and(s, op, &op->vote);
    axon_coll_sched_on_end(s, axon_idup_round_end, op);
    rc = axon_coll_sched_start(s, NULL);
    if (rc != MPI_SUCCESS)
        axon_coll_sched_discard(s);
    return rc;
}

static int axon_comm_idup_start(const char *func, struct axon_comm *c, bool with_info, MPI_Info info,
                                MPI_Comm *newcomm, MPI_Request *request)
{
    struct axon_request *req;
    int rc = axon_request_alloc_coll(&req);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "out of requests");
    struct axon_idup *op = calloc(1, sizeof(*op));
    MPI_Info hints = MPI_INFO_NULL;
    /* Rank 0's copies of the others' words. */
    int others = c->is_inter ? c->local_comm->size - 1 : c->size - 1;
    if (op && others > 0)
        op->mask.gathered = op->vote.gathered = malloc(sizeof(uint32_t) * AXON_IDUP_MASK * (size_t)others);
    if (!op || (others > 0 && !op->mask.gathered) ||
        (with_info && info != MPI_INFO_NULL && axon_mpi_info_dup_handle(info, &hints) != MPI_SUCCESS)) {
        if (op)
            free(op->mask.gathered);
        free(op);
        axon_request_coll_complete(req, MPI_SUCCESS);
        axon_request_free(req);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    op->parent = c;
    op->newcomm = newcomm;
    op->info = hints;
    op->with_info = with_info;
    op->req = req;
    axon_comm_team_of(c, &op->t);
    op->mask.words = AXON_IDUP_MASK;
    op->vote.words = AXON_IDUP_VOTE;
    op->mask.members = op->vote.members = op->t.size;
    op->t.tag = AXON_COMM_TAG_IDUP + (int)(atomic_fetch_add(&c->idup_seq, 1u) % AXON_COMM_IDUP_TAGS);
    op->inter = c->is_inter;
    if (op->inter) {
        axon_comm_bridge_of(c, &op->b);
        op->remote_size = c->remote_size;
        atomic_fetch_add(&c->local_comm->coll.busy, 1);
    }
    atomic_fetch_add(&c->coll.busy, 1); /* the parent's internal contexts outlive the agreement */
    *request = axon_mpi_request_handle(req);
    rc = axon_idup_round(op);
    if (rc != MPI_SUCCESS)
        axon_idup_finish(op, rc, 0); /* the request completes with the error */
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_idup)
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    static const char func[] = "MPI_Comm_idup";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm || !request)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm or request is a NULL pointer");
    return axon_comm_idup_start(func, c, false, MPI_INFO_NULL, newcomm, request);
}

AXON_MPI_WEAK(Comm_idup_with_info)
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    static const char func[] = "MPI_Comm_idup_with_info";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm || !request)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm or request is a NULL pointer");
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    return axon_comm_idup_start(func, c, true, info, newcomm, request);
}
