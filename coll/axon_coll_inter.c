/* The collectives of intercommunicators (MPI 3.1, 5.2.2): what one group sends, the other receives.
 * A schedule here moves between two groups (axon_coll_sched_set_group): the bridge, whose peers are the
 * remote group's ranks, and the local group's own context, on which the intracommunicator algorithms
 * run unchanged.
 *  - Rooted calls (bcast, gather, scatter, reduce) take the standard's root: MPI_ROOT at the root,
 *    MPI_PROC_NULL at the rest of its group (they take no part), the root's rank in the remote group on
 *    the other side. Data that one rank sends to or receives from every rank of the other group goes
 *    directly (gather, scatter, allgather, alltoall: one round); a broadcast goes to the remote group's
 *    rank 0, which broadcasts it in its group.
 *  - Reductions reduce each group's contributions in its own group first (rank order, so
 *    non-commutative operations are right), to its rank 0; the two leaders swap the results, and each
 *    leader hands its group what it received (broadcast, or scattered for reduce_scatter).
 *  - Barrier: a barrier in each group, the leaders swap empty messages, a second barrier in each group.
 *    Nobody leaves the second one before its leader enters it, and its leader enters it only once the
 *    other leader has said that its whole group has arrived. */
#include "coll/coll.h"

static void axon_coll_inter_on_bridge(struct axon_coll_sched *s, const struct axon_coll_inter *ic)
{
    axon_coll_sched_round(s);
    axon_coll_sched_set_group(s, ic->bridge, ic->rank, ic->remote_size);
}

static void axon_coll_inter_on_local(struct axon_coll_sched *s, const struct axon_coll_inter *ic)
{
    axon_coll_sched_round(s);
    axon_coll_sched_set_group(s, ic->local, ic->rank, ic->local_size);
}

/* Scratch for count elements of layout dt, as a buffer of that layout (its data may start before or
 * after the pointer: true_lb, negative extents). */
static void *axon_coll_inter_tmp(struct axon_coll_sched *s, int64_t count, const struct axon_dtype_layout *dt)
{
    if (count <= 0 || dt->size == 0)
        return axon_coll_sched_alloc(s, 0);
    int64_t reach = (count - 1) * dt->extent;
    int64_t low = (reach < 0 ? reach : 0) + dt->true_lb;
    char *p = axon_coll_sched_alloc(s, (size_t)((reach < 0 ? -reach : reach) + dt->true_extent));
    return p ? p - low : NULL;
}

void axon_coll_inter_barrier(struct axon_coll_sched *s, const struct axon_coll_inter *ic)
{
    axon_coll_inter_on_local(s, ic);
    axon_coll_barrier(s);
    axon_coll_inter_on_bridge(s, ic);
    if (ic->rank == 0) {
        axon_coll_sched_recv(s, NULL, 0, &axon_coll_bytes, 0);
        axon_coll_sched_send(s, NULL, 0, &axon_coll_bytes, 0);
    }
    axon_coll_inter_on_local(s, ic);
    axon_coll_barrier(s);
    axon_coll_sched_round(s);
}

void axon_coll_inter_bcast(struct axon_coll_sched *s, const struct axon_coll_inter *ic, void *buf, int64_t count,
                           const struct axon_dtype_layout *dt, int root)
{
    if (root == MPI_PROC_NULL)
        return;
    axon_coll_inter_on_bridge(s, ic);
    if (root == MPI_ROOT) {
        axon_coll_sched_send(s, buf, count, dt, 0);
        axon_coll_sched_round(s);
        return;
    }
    if (ic->rank == 0)
        axon_coll_sched_recv(s, buf, count, dt, root);
    axon_coll_inter_on_local(s, ic);
    axon_coll_bcast(s, buf, count, dt, 0);
    axon_coll_sched_round(s);
}

void axon_coll_inter_gather(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                            const struct axon_coll_block *mine, const struct axon_coll_block *blocks, int root)
{
    axon_coll_inter_on_bridge(s, ic);
    if (root == MPI_ROOT) {
        for (int j = 0; j < ic->remote_size; j++)
            axon_coll_sched_recv(s, blocks[j].buf, blocks[j].count, &blocks[j].dt, j);
    } else if (root != MPI_PROC_NULL) {
        axon_coll_sched_send(s, mine->buf, mine->count, &mine->dt, root);
    }
    axon_coll_sched_round(s);
}

void axon_coll_inter_scatter(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                             const struct axon_coll_block *blocks, const struct axon_coll_block *mine, int root)
{
    axon_coll_inter_on_bridge(s, ic);
    if (root == MPI_ROOT) {
        for (int j = 0; j < ic->remote_size; j++)
            axon_coll_sched_send(s, blocks[j].buf, blocks[j].count, &blocks[j].dt, j);
    } else if (root != MPI_PROC_NULL) {
        axon_coll_sched_recv(s, mine->buf, mine->count, &mine->dt, root);
    }
    axon_coll_sched_round(s);
}

void axon_coll_inter_allgather(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                               const struct axon_coll_block *mine, const struct axon_coll_block *blocks)
{
    axon_coll_inter_on_bridge(s, ic);
    /* Receives first in the round: each is posted before the matching send can arrive unexpected. */
    for (int j = 0; j < ic->remote_size; j++)
        axon_coll_sched_recv(s, blocks[j].buf, blocks[j].count, &blocks[j].dt, j);
    for (int k = 0; k < ic->remote_size; k++) {
        /* Staggered, so that the remote ranks are not all sent to in the same order. */
        int j = (ic->rank + k) % ic->remote_size;
        axon_coll_sched_send(s, mine->buf, mine->count, &mine->dt, j);
    }
    axon_coll_sched_round(s);
}

void axon_coll_inter_alltoall(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                              const struct axon_coll_block *send, const struct axon_coll_block *recv)
{
    axon_coll_inter_on_bridge(s, ic);
    for (int j = 0; j < ic->remote_size; j++)
        axon_coll_sched_recv(s, recv[j].buf, recv[j].count, &recv[j].dt, j);
    for (int k = 0; k < ic->remote_size; k++) {
        int j = (ic->rank + k) % ic->remote_size;
        axon_coll_sched_send(s, send[j].buf, send[j].count, &send[j].dt, j);
    }
    axon_coll_sched_round(s);
}

/* This group's contributions (count elements of dt at in) reduced to its rank 0, whose copy is
 * returned (a scratch buffer of layout dt; NULL elsewhere). */
static void *axon_coll_inter_reduce_local(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                                          const void *in, int64_t count, const struct axon_dtype_layout *dt)
{
    void *acc = ic->rank == 0 ? axon_coll_inter_tmp(s, count, dt) : NULL;
    axon_coll_inter_on_local(s, ic);
    axon_coll_reduce(s, in, acc, count, dt, 0);
    return acc;
}

void axon_coll_inter_reduce(struct axon_coll_sched *s, const struct axon_coll_inter *ic, const void *in, void *out,
                            int64_t count, const struct axon_dtype_layout *dt, int root)
{
    if (root == MPI_PROC_NULL)
        return;
    if (root == MPI_ROOT) {
        axon_coll_inter_on_bridge(s, ic);
        axon_coll_sched_recv(s, out, count, dt, 0);
        axon_coll_sched_round(s);
        return;
    }
    void *acc = axon_coll_inter_reduce_local(s, ic, in, count, dt);
    axon_coll_inter_on_bridge(s, ic);
    if (ic->rank == 0)
        axon_coll_sched_send(s, acc, count, dt, root);
    axon_coll_sched_round(s);
}

void axon_coll_inter_allreduce(struct axon_coll_sched *s, const struct axon_coll_inter *ic, const void *in,
                               void *out, int64_t count, const struct axon_dtype_layout *dt)
{
    void *acc = axon_coll_inter_reduce_local(s, ic, in, count, dt);
    axon_coll_inter_on_bridge(s, ic);
    if (ic->rank == 0) {
        axon_coll_sched_recv(s, out, count, dt, 0);
        axon_coll_sched_send(s, acc, count, dt, 0);
    }
    axon_coll_inter_on_local(s, ic);
    axon_coll_bcast(s, out, count, dt, 0);
    axon_coll_sched_round(s);
}

void axon_coll_inter_reduce_scatter(struct axon_coll_sched *s, const struct axon_coll_inter *ic, const void *in,
                                    void *out, const int64_t *counts, const struct axon_dtype_layout *dt,
                                    unsigned have)
{
    /* Both groups reduce vectors of the same length (the standard requires it): the sum of counts. */
    int64_t total = 0;
    for (int j = 0; j < ic->local_size; j++)
        total += counts[j];
    void *acc = axon_coll_inter_reduce_local(s, ic, in, total, dt);
    struct axon_coll_block *blocks = NULL;
    void *got = NULL;
    if (ic->rank == 0) {
        got = axon_coll_inter_tmp(s, total, dt);
        blocks = axon_coll_sched_alloc_meta(s, sizeof(*blocks) * (size_t)ic->local_size);
        if (!got || !blocks)
            return; /* the schedule holds the error */
        int64_t at = 0;
        for (int j = 0; j < ic->local_size; j++) {
            blocks[j] = (struct axon_coll_block){(char *)got + at * dt->extent, counts[j], *dt};
            at += counts[j];
        }
        axon_coll_inter_on_bridge(s, ic);
        axon_coll_sched_recv(s, got, total, dt, 0);
        axon_coll_sched_send(s, acc, total, dt, 0);
    }
    axon_coll_inter_on_local(s, ic);
    struct axon_coll_block mine = {out, counts[ic->rank], *dt};
    axon_coll_scatter(s, blocks, &mine, 0, have);
    axon_coll_sched_round(s);
}
