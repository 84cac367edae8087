/* Context ids: which engine contexts a communicator owns. An id gives eight engine contexts, five of
 * them used (user point-to-point, internal collectives, tagged creation traffic, an intercommunicator's
 * local collectives, partitioned communication: axon_ctx_engine), so user messages never match internal
 * ones. Ids 0 and 1 are
 * MPI_COMM_WORLD's and MPI_COMM_SELF's.
 *
 * Agreement: every process keeps a bitmap of its free ids; the members of the new communicator AND
 * their bitmaps (an allreduce over the parent, or over both groups of an intercommunicator through
 * their leaders) and all take the lowest id left. A freed communicator's id goes back to the bitmap, so
 * ids are recycled.
 *
 * Threads (MPI_THREAD_MULTIPLE): two threads of one process may create communicators from different
 * parents at once, and each round's AND must not hand the same id to both. Holding one process-wide lock
 * across the allreduce would serialize them, but it deadlocks: process P's thread 1 could hold the lock
 * in an allreduce over A while its thread 2 waits for the lock to start one over B, and process Q the
 * other way round; neither allreduce can finish. So no lock is held across communication. Instead (the
 * technique MPICH uses) only one operation at a time per process contributes the real bitmap, and
 * takes from it the id the round agreed on; the others contribute an all-zero bitmap with the
 * ownership flag clear, which makes their round fail on every member, and try again. Which operation may
 * own the bitmap is decided by a priority that every member computes the same (the parent's id, and a
 * create_group's tag): the highest-priority operation waiting in a process gets the bitmap as soon as it
 * is free. So the globally highest-priority pending operation eventually owns the bitmap on all its
 * members at once and succeeds; no livelock, and an id is reserved only by an operation that all
 * members agreed on.
 * That holds only if a round that owns a bitmap ends: a round ends once every member has entered the
 * operation, and a member may be a thread still busy with an earlier creation of its own that waits for
 * this very bitmap (as in MPICH's threads/comm/comm_create_group_threads2 at 4 ranks: rank 3's tag-2
 * creation over all ranks owns rank 3's bitmap in its first round while ranks 0-2's tag-2 threads still
 * agree on a creation over ranks 0-2, behind the tag-1 creation over all ranks, which waits for rank 3's
 * bitmap). So where several threads may create communicators (MPI_THREAD_MULTIPLE), an operation's
 * first round owns nothing and keeps nobody from owning: once it ends, every member is
 * in the operation, and from then on its rounds end. One round more per creation there.
 *
 * A communicator of one process needs no agreement, but taking an id from the bitmap while another
 * thread's round is out with it could hand that round an id already gone; and waiting for the bitmap
 * can deadlock: process P's thread 1 owns it in a round over A that waits for Q's thread 1, which is
 * still duplicating MPI_COMM_SELF and waits for Q's bitmap, owned by thread 2 in a round over B that
 * waits for P's thread 2, duplicating MPI_COMM_SELF too (MPICH's threads/comm/comm_dup_deadlock). So
 * the top AXON_CTX_LOCAL_IDS ids are kept for such communicators: they are taken at once, under the
 * lock only, and left out of every contribution and copy of the bitmap, so no agreement picks them.
 * When they run out, a communicator of one process agrees like any other.
 *
 * Nonblocking agreements (MPI_Comm_idup) cannot hold the bitmap across a round: a round waits for
 * members that may not have called yet, and a blocking creation on this process meanwhile would wait
 * for the bitmap for ever. They take two steps per round instead, holding nothing in between: the AND
 * of copies of the bitmaps gives a candidate (the lowest id free everywhere), each member reserves it if
 * it is still free and no blocking agreement holds the bitmap, and the AND of those votes says whether
 * all did; if not, the reservations are given back and another round starts. */
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/runtime.h"

#include <sched.h>
#include <string.h>

/* ---- pure logic (unit-tested) ----------------------------------------------------------------------- */

int axon_ctx_lowest(const uint32_t *mask, int words)
{
    for (int w = 0; w < words; w++)
        if (mask[w])
            return w * 32 + __builtin_ctz(mask[w]);
    return -1;
}

void axon_ctx_state_init(struct axon_ctx_state *s, uint32_t reserved)
{
    memset(s, 0, sizeof(*s));
    memset(s->free_mask, 0xff, sizeof(s->free_mask));
    for (uint32_t id = 0; id < reserved && id < AXON_CTX_IDS; id++)
        s->free_mask[id / 32] &= ~(1u << (id % 32));
}

void axon_ctx_register(struct axon_ctx_state *s, struct axon_ctx_waiter *w, uint64_t priority, bool rendezvous)
{
    w->priority = priority;
    w->own = false;
    w->live = !rendezvous;
    /* After those of the same priority: equal priorities keep their order of arrival. */
    struct axon_ctx_waiter **link = &s->waiters;
    while (*link && (*link)->priority <= priority)
        link = &(*link)->next;
    w->next = *link;
    *link = w;
}

void axon_ctx_unregister(struct axon_ctx_state *s, struct axon_ctx_waiter *w)
{
    for (struct axon_ctx_waiter **link = &s->waiters; *link; link = &(*link)->next)
        if (*link == w) {
            *link = w->next;
            break;
        }
    if (w->own) {
        s->mask_in_use = false;
        w->own = false;
    }
}

/* The bitmap as agreements see it: without the local range. */
static void axon_ctx_shared_copy(const struct axon_ctx_state *s, uint32_t *mask)
{
    memcpy(mask, s->free_mask, sizeof(s->free_mask));
    memset(mask + AXON_CTX_LOCAL_FIRST / 32, 0, sizeof(uint32_t) * (AXON_CTX_LOCAL_IDS / 32));
}

bool axon_ctx_take_local(struct axon_ctx_state *s, uint32_t *id)
{
    int lowest = axon_ctx_lowest(s->free_mask + AXON_CTX_LOCAL_FIRST / 32, AXON_CTX_LOCAL_IDS / 32);
    if (lowest < 0)
        return false;
    *id = AXON_CTX_LOCAL_FIRST + (uint32_t)lowest;
    s->free_mask[*id / 32] &= ~(1u << (*id % 32));
    return true;
}

/* The first waiter, in priority order, that may own the mask. */
static const struct axon_ctx_waiter *axon_ctx_first_live(const struct axon_ctx_state *s)
{
    const struct axon_ctx_waiter *w = s->waiters;
    while (w && !w->live)
        w = w->next;
    return w;
}

void axon_ctx_contribute(struct axon_ctx_state *s, struct axon_ctx_waiter *w, uint32_t *contrib)
{
    w->own = w->live && !s->mask_in_use && axon_ctx_first_live(s) == w;
    if (w->own) {
        s->mask_in_use = true;
        axon_ctx_shared_copy(s, contrib);
        contrib[AXON_CTX_WORDS] = 1;
    } else {
        memset(contrib, 0, sizeof(uint32_t) * AXON_CTX_CONTRIB_WORDS);
    }
}

enum axon_ctx_outcome axon_ctx_decide(struct axon_ctx_state *s, struct axon_ctx_waiter *w, const uint32_t *result,
                                      uint32_t *id)
{
    enum axon_ctx_outcome outcome = AXON_CTX_RETRY;
    /* The flag survives the AND only if every member owned its bitmap this round, us included. */
    if (result[AXON_CTX_WORDS] && w->own) {
        int lowest = axon_ctx_lowest(result, AXON_CTX_WORDS);
        if (lowest < 0) {
            outcome = AXON_CTX_EXHAUSTED;
        } else {
            s->free_mask[lowest / 32] &= ~(1u << (lowest % 32));
            *id = (uint32_t)lowest;
            outcome = AXON_CTX_DONE;
        }
    }
    if (w->own) {
        s->mask_in_use = false;
        w->own = false;
    }
    w->live = true; /* a round has ended, so every member is in the operation */
    return outcome;
}

void axon_ctx_release(struct axon_ctx_state *s, uint32_t id)
{
    if (id < AXON_CTX_IDS)
        s->free_mask[id / 32] |= 1u << (id % 32);
}

/* ---- the process's instance ------------------------------------------------------------------------- */

static struct axon_ctx_state axon_ctx;
static pthread_mutex_t axon_ctx_lock = PTHREAD_MUTEX_INITIALIZER;
/* For AXON_VERBOSE: agreements made, and rounds beyond the first that they needed. */
static unsigned long axon_ctx_agreements, axon_ctx_extra_rounds;

void axon_comm_context_init(void)
{
    pthread_mutex_lock(&axon_ctx_lock);
    axon_ctx_state_init(&axon_ctx, AXON_CTX_SESSIONS + 1);
    pthread_mutex_unlock(&axon_ctx_lock);
}

void axon_comm_context_report(void)
{
    axon_runtime_log_debug(1, "context ids: %lu agreements, %lu extra rounds (contention between threads)",
                           axon_ctx_agreements, axon_ctx_extra_rounds);
}

void axon_comm_context_snapshot(uint32_t *mask)
{
    pthread_mutex_lock(&axon_ctx_lock);
    axon_ctx_shared_copy(&axon_ctx, mask);
    pthread_mutex_unlock(&axon_ctx_lock);
}

bool axon_comm_context_reserve(uint32_t id)
{
    pthread_mutex_lock(&axon_ctx_lock);
    bool ok = id < AXON_CTX_LOCAL_FIRST && !axon_ctx.mask_in_use && (axon_ctx.free_mask[id / 32] >> (id % 32) & 1u);
    if (ok)
        axon_ctx.free_mask[id / 32] &= ~(1u << (id % 32));
    pthread_mutex_unlock(&axon_ctx_lock);
    return ok;
}

void axon_comm_context_free(uint32_t id)
{
    pthread_mutex_lock(&axon_ctx_lock);
    axon_ctx_release(&axon_ctx, id);
    pthread_mutex_unlock(&axon_ctx_lock);
}

int axon_comm_context_alloc(const struct axon_comm_team *t, const struct axon_comm_bridge *b, uint64_t priority,
                            uint32_t *id)
{
    uint32_t contrib[AXON_CTX_CONTRIB_WORDS];
    struct axon_ctx_waiter w;
    pthread_mutex_lock(&axon_ctx_lock);
    if (!b && t->size == 1 && axon_ctx_take_local(&axon_ctx, id)) {
        axon_ctx_agreements++;
        pthread_mutex_unlock(&axon_ctx_lock);
        return MPI_SUCCESS;
    }
    /* Where other threads may be agreeing at the same time, the first round only tells that every member
     * is here. */
    axon_ctx_register(&axon_ctx, &w, priority, axon_mpi_state.thread_level == MPI_THREAD_MULTIPLE);
    pthread_mutex_unlock(&axon_ctx_lock);

    int rc;
    enum axon_ctx_outcome outcome;
    unsigned long rounds = 0;
    do {
        rounds++;
        pthread_mutex_lock(&axon_ctx_lock);
        axon_ctx_contribute(&axon_ctx, &w, contrib);
        bool own = w.own;
        pthread_mutex_unlock(&axon_ctx_lock);

        /* Unsigned words through the int allreduce: AND is bitwise either way. */
        rc = axon_comm_coll_allreduce_bridged(t, b, (int *)contrib, AXON_CTX_CONTRIB_WORDS, AXON_COMM_OP_BAND);

        pthread_mutex_lock(&axon_ctx_lock);
        if (rc != MPI_SUCCESS) {
            outcome = AXON_CTX_EXHAUSTED;
        } else {
            outcome = axon_ctx_decide(&axon_ctx, &w, contrib, id);
        }
        if (w.own) { /* a failed allreduce: give the bitmap back */
            axon_ctx.mask_in_use = false;
            w.own = false;
        }
        w.live = true;
        pthread_mutex_unlock(&axon_ctx_lock);
        /* A round without the bitmap: let the thread that has it (or a peer on this core) move first. */
        if (outcome == AXON_CTX_RETRY && !own)
            sched_yield();
    } while (outcome == AXON_CTX_RETRY);

    pthread_mutex_lock(&axon_ctx_lock);
    axon_ctx_unregister(&axon_ctx, &w);
    axon_ctx_agreements++;
    axon_ctx_extra_rounds += rounds - 1;
    pthread_mutex_unlock(&axon_ctx_lock);
    if (rc != MPI_SUCCESS)
        return rc;
    return outcome == AXON_CTX_DONE ? MPI_SUCCESS : MPI_ERR_INTERN;
}
