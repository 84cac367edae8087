/* MPI_Alltoall(v,w): pairwise exchange. In round i a rank sends to rank + i and receives from rank - i,
 * so every rank talks to one peer each way per round. In place, the receive blocks are first packed
 * into scratch, which then serves as the send blocks. */
#include "coll/coll.h"

void axon_coll_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
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
