/* MPI_Alltoall(v,w): pairwise exchange. In round i a rank sends to rank + i and receives from rank - i,
 * so every rank talks to one peer each way per round. In place, the receive blocks are first packed
 * into scratch, which then serves as the send blocks. */
#include "coll/coll.h"

enum { AXON_ALLTOALL_PAIRWISE };

static const struct axon_coll_alg axon_coll_alltoall_algs[] = {
    [AXON_ALLTOALL_PAIRWISE] = {"pairwise", "n-1 rounds, one peer each way per round", 0},
};
static const struct axon_coll_rule axon_coll_alltoall_rules[] = {{0, -1, AXON_ALLTOALL_PAIRWISE}};
const struct axon_coll_desc axon_coll_alltoall_desc = {
    "alltoall", "bytes of one block (0 for alltoallv and alltoallw)", axon_coll_alltoall_algs, 1,
    axon_coll_alltoall_rules, 1};

static void axon_coll_alltoall_pairwise(struct axon_coll_sched *s, const struct axon_coll_block *send,
                                        const struct axon_coll_block *recv)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    void **packed = NULL;
    if (!send) {
        packed = axon_coll_sched_alloc(s, sizeof(void *) * (size_t)n);
        if (!packed)
            return;
        for (int j = 0; j < n; j++) {
            packed[j] = NULL;
            if (j == r)
                continue;
            int64_t bytes = recv[j].count * recv[j].dt.size;
            packed[j] = axon_coll_sched_alloc(s, (size_t)bytes);
            if (!packed[j])
                return;
            axon_coll_sched_copy(s, recv[j].buf, recv[j].count, &recv[j].dt, packed[j], bytes, &axon_coll_bytes);
        }
    } else {
        axon_coll_sched_copy(s, send[r].buf, send[r].count, &send[r].dt, recv[r].buf, recv[r].count, &recv[r].dt);
    }
    axon_coll_sched_round(s);
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        axon_coll_sched_recv(s, recv[from].buf, recv[from].count, &recv[from].dt, from);
        if (send)
            axon_coll_sched_send(s, send[to].buf, send[to].count, &send[to].dt, to);
        else
            axon_coll_sched_send(s, packed[to], recv[to].count * recv[to].dt.size, &axon_coll_bytes, to);
        axon_coll_sched_round(s);
    }
}

void axon_coll_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                        const struct axon_coll_block *recv, unsigned have)
{
    int64_t bytes = have & AXON_COLL_NEEDS_UNIFORM ? recv[0].count * recv[0].dt.size : 0;
    switch (axon_coll_select(AXON_COLL_KIND_ALLTOALL, axon_coll_sched_size(s), bytes, have)) {
    default:
        axon_coll_alltoall_pairwise(s, send, recv);
        break;
    }
}
