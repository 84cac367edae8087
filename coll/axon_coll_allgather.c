/* MPI_Allgather(v): a ring. Each rank puts its block in place, then in n-1 rounds passes to the right
 * the block it received last from the left. Any size; blocks of any count and layout. */
#include "coll/coll.h"

void axon_coll_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                         const struct axon_coll_block *blocks)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    if (mine)
        axon_coll_sched_copy(s, mine->buf, mine->count, &mine->dt, blocks[r].buf, blocks[r].count, &blocks[r].dt);
    axon_coll_sched_round(s);
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        const struct axon_coll_block *out = &blocks[(r - i + n) % n], *in = &blocks[(r - i - 1 + n) % n];
        axon_coll_sched_recv(s, in->buf, in->count, &in->dt, left);
        axon_coll_sched_send(s, out->buf, out->count, &out->dt, right);
        axon_coll_sched_round(s);
    }
}
