/* MPI_Barrier: dissemination. In round k every rank signals rank + 2^k and waits for rank - 2^k; after
 * ceil(log2 n) rounds every rank has heard, directly or not, from every other. Any size. */
#include "coll/coll.h"

void axon_coll_barrier(struct axon_coll_sched *s)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    for (int k = 1; k < n; k <<= 1) {
        axon_coll_sched_recv(s, NULL, 0, &axon_coll_bytes, (r - k + n) % n);
        axon_coll_sched_send(s, NULL, 0, &axon_coll_bytes, (r + k) % n);
        axon_coll_sched_round(s);
    }
}
