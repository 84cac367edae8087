/* Synchronization: fences, post/start/complete/wait, locks and flushes, MPI_Win_sync.
 *
 * Completing operations: direct and single-copy ones are complete when issued; UCX's once a flush of
 * the endpoint ended; a remote target answers every message once it applied it (a put's or an
 * accumulate's answer is an empty acknowledgement). So a flush flushes UCX's endpoints and waits for
 * every pending answer towards the target: one round trip after the last operation.
 *
 * Locks: a target whose control block is mapped here is locked by CPU atomics on its lock word, waiting
 * (and serving) while it is held; a remote target is asked, and answers once it granted the lock on its
 * own word. Locks are taken when MPI_Win_lock is called (not deferred to the first operation).
 *
 * Active target: a fence is a flush of everything, then a barrier. MPI_Win_post tells each origin of its
 * group, MPI_Win_start waits for the post of each target (the standard lets it), MPI_Win_complete
 * flushes and tells each target, MPI_Win_wait waits for each origin's word. These notices travel on the
 * window's coll context. */
#include "rma/axon_rma_internal.h"

#include "ucx_glue/ucx_glue.h"

#include <stdlib.h>
#include <string.h>

static const struct axon_dtype_layout axon_rma_no_data = {.contig = true, .basic = MPI_BYTE, .basic_count = 1};

struct axon_rma_quiet {
    struct axon_rma_win *w;
    int target; /* AXON_RMA_ALL: any */
};

/* No pending entry towards the target (or any target) is left. */
static bool axon_rma_is_quiet(void *arg)
{
    struct axon_rma_quiet *q = arg;
    axon_ucx_lock();
    bool quiet = true;
    for (struct axon_rma_pending *e = q->w->pending; e && quiet; e = e->next)
        quiet = e->target < 0 || (q->target != AXON_RMA_ALL && e->target != q->target);
    axon_ucx_unlock();
    return quiet;
}

static void axon_rma_wait_quiet(struct axon_rma_win *w, int target)
{
    struct axon_rma_quiet q = {w, target};
    /* A window whose members are all near has nothing pending ever: no lock taken to see it. */
    if (!w->any_am && !__atomic_load_n(&w->pending, __ATOMIC_ACQUIRE))
        return;
    if (!axon_rma_is_quiet(&q))
        axon_rma_wait_until(w, axon_rma_is_quiet, &q);
}

/* An acknowledged message of kind to a remote target (its answer becomes a pending entry). */
static int axon_rma_control(struct axon_rma_win *w, int target, enum axon_rma_msg_kind kind, int lock_type,
                            const char **why)
{
    struct axon_rma_msg m = {.kind = kind, .lock_type = lock_type};
    return axon_rma_send_request(w, target, &m, NULL, NULL, NULL, 0, &axon_rma_no_data, NULL, why);
}

/* Completes every operation towards [lo, hi) (all: AXON_RMA_ALL as target). Near operations are stores
 * this thread made: a release fence orders them before whatever the program does next to tell anyone
 * (a message, a flag, an unlock), which is all completion at the target needs; a target that loads
 * them without such a notice synchronizes with MPI_Win_sync, a full fence. */
static int axon_rma_complete_range(struct axon_rma_win *w, int lo, int hi, int target, const char **why)
{
    int rc = w->any_am ? axon_rma_ucx_flush(w, lo, hi, why) : MPI_SUCCESS;
    axon_rma_wait_quiet(w, target);
    atomic_thread_fence(memory_order_release);
    return rc;
}

int axon_rma_flush(struct axon_rma_win *w, int rank, bool local, const char **why)
{
    if (rank == AXON_RMA_ALL) {
        if (w->nlocks == 0) {
            *why = "no passive-target epoch is open (MPI_Win_lock or MPI_Win_lock_all first)";
            return MPI_ERR_RMA_SYNC;
        }
        if (local) {
            /* A UCX put holds the origin's buffer until flushed. */
            int rc = w->any_am ? axon_rma_ucx_flush(w, 0, w->size, why) : MPI_SUCCESS;
            axon_rma_wait_quiet(w, AXON_RMA_ALL);
            return rc;
        }
        return axon_rma_complete_range(w, 0, w->size, AXON_RMA_ALL, why);
    }
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size) {
        *why = "the rank is not in the window's group";
        return MPI_ERR_RANK;
    }
    if (!w->targets[rank].lock) {
        *why = "no passive-target epoch to that rank is open (MPI_Win_lock or MPI_Win_lock_all first)";
        return MPI_ERR_RMA_SYNC;
    }
    /* The origin's buffers are free once a remote request is packed and sent, and a get's data is
     * there once its answer came: a local flush waits for the pending entries alone. */
    if (local) {
        int rc = axon_rma_ucx_flush(w, rank, rank + 1, why);
        axon_rma_wait_quiet(w, rank);
        return rc;
    }
    return axon_rma_complete_range(w, rank, rank + 1, rank, why);
}

int axon_rma_sync(struct axon_rma_win *w, const char **why)
{
    (void)w, (void)why;
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}

/* ---- fences ------------------------------------------------------------------------------------- */

int axon_rma_fence(struct axon_rma_win *w, int assert, const char **why)
{
    if (w->nlocks > 0 || w->nstart > 0 || w->post_group) {
        *why = w->nlocks > 0 ? "a passive-target epoch is open (a lock is held)"
                             : "a post/start epoch is open (MPI_Win_complete or MPI_Win_wait first)";
        return MPI_ERR_RMA_SYNC;
    }
    int rc = MPI_SUCCESS;
    if (!(assert & MPI_MODE_NOPRECEDE))
        rc = axon_rma_complete_range(w, 0, w->size, AXON_RMA_ALL, why);
    /* Every member's operations are complete at their targets once all have passed this point; and no
     * member starts the next epoch's operations before every target left its local stores of this one. */
    int brc = axon_rma_barrier(w);
    if (rc == MPI_SUCCESS && brc != MPI_SUCCESS) {
        rc = brc;
        *why = "the window's members could not meet";
    }
    atomic_thread_fence(memory_order_seq_cst);
    w->access = (assert & MPI_MODE_NOSUCCEED) ? AXON_RMA_ACCESS_NONE : AXON_RMA_ACCESS_FENCE;
    return rc;
}

/* ---- post, start, complete, wait ---------------------------------------------------------------- */

static int axon_rma_notice_send(struct axon_rma_win *w, const int *ranks, int n, int tag)
{
    struct axon_request **reqs = calloc((size_t)(n > 0 ? n : 1), sizeof(*reqs));
    if (!reqs)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = axon_pt2pt_isend(NULL, 0, &axon_rma_no_data, ranks[i], tag, w->coll, AXON_SEND_STANDARD, &reqs[i]);
    for (int i = 0; i < n; i++)
        if (reqs[i]) {
            axon_request_wait(reqs[i]);
            axon_request_free(reqs[i]);
        }
    free(reqs);
    return rc;
}

static int axon_rma_notice_recv(struct axon_rma_win *w, int from, int tag)
{
    struct axon_request req;
    return axon_pt2pt_recv(NULL, 0, &axon_rma_no_data, from, tag, w->coll, &req);
}

int axon_rma_post(struct axon_rma_win *w, const int *ranks, int n, int assert, const char **why)
{
    if (w->post_group) {
        *why = "an exposure epoch is open already (MPI_Win_wait first)";
        return MPI_ERR_RMA_SYNC;
    }
    int *group = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    bool *done = calloc((size_t)(n > 0 ? n : 1), sizeof(bool));
    if (!group || !done) {
        free(group);
        free(done);
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    memcpy(group, ranks, sizeof(int) * (size_t)n);
    /* The window's memory must be as the program left it before any origin writes: a fence of our own
     * stores, then the word to each origin (unless it asserted it needs none). */
    atomic_thread_fence(memory_order_seq_cst);
    int rc = (assert & MPI_MODE_NOCHECK) ? MPI_SUCCESS : axon_rma_notice_send(w, group, n, AXON_RMA_TAG_POST);
    if (rc != MPI_SUCCESS) {
        free(group);
        free(done);
        *why = "cannot tell the origins";
        return rc;
    }
    w->post_group = group;
    w->post_done = done;
    w->npost = n;
    w->npost_done = 0;
    return MPI_SUCCESS;
}

int axon_rma_start(struct axon_rma_win *w, const int *ranks, int n, int assert, const char **why)
{
    if (w->nstart > 0 || w->start_group) {
        *why = "an access epoch is open already (MPI_Win_complete first)";
        return MPI_ERR_RMA_SYNC;
    }
    if (w->access == AXON_RMA_ACCESS_FENCE)
        w->access = AXON_RMA_ACCESS_NONE; /* a fence epoch ends where another kind begins */
    int *group = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!group) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    memcpy(group, ranks, sizeof(int) * (size_t)n);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (!(assert & MPI_MODE_NOCHECK))
            rc = axon_rma_notice_recv(w, group[i], AXON_RMA_TAG_POST);
    if (rc != MPI_SUCCESS) {
        free(group);
        *why = "cannot hear the targets' posts";
        return rc;
    }
    for (int i = 0; i < n; i++)
        w->targets[group[i]].started = true;
    w->start_group = group;
    w->nstart = n;
    return MPI_SUCCESS;
}

int axon_rma_complete(struct axon_rma_win *w, const char **why)
{
    if (!w->start_group) {
        *why = "no access epoch is open (MPI_Win_start first)";
        return MPI_ERR_RMA_SYNC;
    }
    int rc = MPI_SUCCESS;
    for (int i = 0; i < w->nstart && rc == MPI_SUCCESS; i++)
        rc = axon_rma_ucx_flush(w, w->start_group[i], w->start_group[i] + 1, why);
    axon_rma_wait_quiet(w, AXON_RMA_ALL);
    atomic_thread_fence(memory_order_seq_cst);
    if (rc == MPI_SUCCESS && (rc = axon_rma_notice_send(w, w->start_group, w->nstart, AXON_RMA_TAG_COMPLETE)) !=
                                 MPI_SUCCESS)
        *why = "cannot tell the targets";
    for (int i = 0; i < w->nstart; i++)
        w->targets[w->start_group[i]].started = false;
    free(w->start_group);
    w->start_group = NULL;
    w->nstart = 0;
    return rc;
}

static void axon_rma_post_end(struct axon_rma_win *w)
{
    free(w->post_group);
    free(w->post_done);
    w->post_group = NULL;
    w->post_done = NULL;
    w->npost = w->npost_done = 0;
    atomic_thread_fence(memory_order_seq_cst);
}

int axon_rma_wait(struct axon_rma_win *w, const char **why)
{
    if (!w->post_group) {
        *why = "no exposure epoch is open (MPI_Win_post first)";
        return MPI_ERR_RMA_SYNC;
    }
    int rc = MPI_SUCCESS;
    for (int i = 0; i < w->npost && rc == MPI_SUCCESS; i++)
        if (!w->post_done[i])
            rc = axon_rma_notice_recv(w, w->post_group[i], AXON_RMA_TAG_COMPLETE);
    if (rc != MPI_SUCCESS)
        *why = "cannot hear the origins' completion";
    axon_rma_post_end(w);
    return rc;
}

int axon_rma_test(struct axon_rma_win *w, bool *flag, const char **why)
{
    if (!w->post_group) {
        *why = "no exposure epoch is open (MPI_Win_post first)";
        return MPI_ERR_RMA_SYNC;
    }
    axon_ucx_progress();
    for (int i = 0; i < w->npost; i++) {
        if (w->post_done[i])
            continue;
        int there = 0;
        MPI_Status st;
        int rc = axon_pt2pt_iprobe(w->post_group[i], AXON_RMA_TAG_COMPLETE, w->coll, &there, &st);
        if (rc == MPI_SUCCESS && there)
            rc = axon_rma_notice_recv(w, w->post_group[i], AXON_RMA_TAG_COMPLETE);
        if (rc != MPI_SUCCESS) {
            *why = "cannot hear the origins' completion";
            return rc;
        }
        if (there) {
            w->post_done[i] = true;
            w->npost_done++;
        }
    }
    *flag = w->npost_done == w->npost;
    if (*flag)
        axon_rma_post_end(w);
    return MPI_SUCCESS;
}

/* ---- locks --------------------------------------------------------------------------------------- */

struct axon_rma_lock_try_arg {
    struct axon_rma_ctrl *ctrl;
    int lock_type;
};

static bool axon_rma_lock_try_cb(void *arg)
{
    struct axon_rma_lock_try_arg *a = arg;
    return axon_rma_lock_try(a->ctrl, a->lock_type);
}

/* Takes the lock of one target: by atomics where its control block is mapped, else by asking it (the
 * grant then becomes a pending entry; the caller waits for it). */
static int axon_rma_lock_take(struct axon_rma_win *w, int rank, int lock_type, const char **why)
{
    struct axon_rma_target *t = &w->targets[rank];
    if (t->ctrl) {
        /* Remote origins waiting for this word are granted first (the grants happen in progress): a
         * rank that locks, reads and unlocks in a loop would otherwise take it again every time. */
        if (w->any_am)
            axon_ucx_progress();
        struct axon_rma_lock_try_arg a = {t->ctrl, lock_type};
        if (!axon_rma_lock_try_cb(&a))
            axon_rma_wait_until(w, axon_rma_lock_try_cb, &a);
        return MPI_SUCCESS;
    }
    return axon_rma_control(w, rank, AXON_RMA_MSG_LOCK, lock_type, why);
}

/* Completes what went to one target and lets its lock go (the remote kind in one message: the unlock
 * is answered after everything before it). */
static int axon_rma_lock_give(struct axon_rma_win *w, int rank, const char **why)
{
    struct axon_rma_target *t = &w->targets[rank];
    int rc = MPI_SUCCESS;
    if (t->ctrl) {
        /* A node peer reached by messages (no single copy) has applied them once it acknowledged them. */
        if (w->any_am) {
            rc = axon_rma_ucx_flush(w, rank, rank + 1, why);
            axon_rma_wait_quiet(w, rank);
        }
        atomic_thread_fence(memory_order_seq_cst);
        if (!t->lock_nocheck)
            axon_rma_lock_release(t->ctrl, t->lock);
    } else {
        /* The target lets the lock go when the unlock arrives: UCX's puts and gets must be done first. */
        rc = axon_rma_ucx_flush(w, rank, rank + 1, why);
        if (!t->lock_nocheck) {
            int mrc = axon_rma_control(w, rank, AXON_RMA_MSG_UNLOCK, t->lock, why);
            rc = rc != MPI_SUCCESS ? rc : mrc;
        }
    }
    t->lock = 0;
    t->lock_nocheck = false;
    return rc;
}

int axon_rma_lock(struct axon_rma_win *w, int lock_type, int rank, int assert, const char **why)
{
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size) {
        *why = "the rank is not in the window's group";
        return MPI_ERR_RANK;
    }
    struct axon_rma_target *t = &w->targets[rank];
    if (t->lock || w->lock_all || w->start_group) {
        *why = w->start_group ? "an access epoch of MPI_Win_start is open (MPI_Win_complete first)"
               : w->lock_all  ? "MPI_Win_lock_all holds every target's lock already"
                              : "this rank holds that target's lock already";
        return MPI_ERR_RMA_SYNC;
    }
    /* A passive-target epoch ends the fence epoch: operations after the unlock need a fence again. */
    w->access = AXON_RMA_ACCESS_NONE;
    if (!(assert & MPI_MODE_NOCHECK)) {
        int rc = axon_rma_lock_take(w, rank, lock_type, why);
        if (rc != MPI_SUCCESS)
            return rc;
        axon_rma_wait_quiet(w, rank);
    }
    t->lock = lock_type;
    t->lock_nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    w->nlocks++;
    return MPI_SUCCESS;
}

int axon_rma_unlock(struct axon_rma_win *w, int rank, const char **why)
{
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (rank < 0 || rank >= w->size) {
        *why = "the rank is not in the window's group";
        return MPI_ERR_RANK;
    }
    struct axon_rma_target *t = &w->targets[rank];
    if (!t->lock || w->lock_all) {
        *why = w->lock_all ? "the lock was taken by MPI_Win_lock_all (MPI_Win_unlock_all releases it)"
                           : "this rank does not hold that target's lock";
        return MPI_ERR_RMA_SYNC;
    }
    int rc = axon_rma_lock_give(w, rank, why);
    axon_rma_wait_quiet(w, rank);
    w->nlocks--;
    return rc;
}

int axon_rma_lock_all(struct axon_rma_win *w, int assert, const char **why)
{
    if (w->nlocks > 0 || w->start_group) {
        *why = w->start_group ? "an access epoch of MPI_Win_start is open (MPI_Win_complete first)"
               : w->lock_all  ? "MPI_Win_lock_all was called already"
                              : "a lock of MPI_Win_lock is still held";
        return MPI_ERR_RMA_SYNC;
    }
    w->access = AXON_RMA_ACCESS_NONE;
    int rc = MPI_SUCCESS;
    bool nocheck = (assert & MPI_MODE_NOCHECK) != 0;
    /* Remote targets are asked all at once; mapped ones are taken in turn. */
    for (int p = 0; p < w->size && rc == MPI_SUCCESS && !nocheck; p++)
        rc = axon_rma_lock_take(w, p, MPI_LOCK_SHARED, why);
    axon_rma_wait_quiet(w, AXON_RMA_ALL);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int p = 0; p < w->size; p++) {
        w->targets[p].lock = MPI_LOCK_SHARED;
        w->targets[p].lock_nocheck = nocheck;
    }
    w->nlocks = w->size;
    w->lock_all = true;
    return MPI_SUCCESS;
}

int axon_rma_unlock_all(struct axon_rma_win *w, const char **why)
{
    if (!w->lock_all) {
        *why = "MPI_Win_lock_all was not called";
        return MPI_ERR_RMA_SYNC;
    }
    int rc = MPI_SUCCESS;
    for (int p = 0; p < w->size; p++) {
        int prc = axon_rma_lock_give(w, p, why);
        if (rc == MPI_SUCCESS)
            rc = prc;
    }
    axon_rma_wait_quiet(w, AXON_RMA_ALL);
    w->nlocks = 0;
    w->lock_all = false;
    return rc;
}
