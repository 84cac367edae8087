/* MPI_Gather(v) and MPI_Scatter(v): linear. The root posts every receive (or send) in one round and
 * copies its own block locally; the others send (or receive) one message. */
#include "coll/coll.h"

void axon_coll_gather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                      const struct axon_coll_block *blocks, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    if (r != root) {
        axon_coll_sched_send(s, mine->buf, mine->count, &mine->dt, root);
        axon_coll_sched_round(s);
        return;
    }
    if (mine)
        axon_coll_sched_copy(s, mine->buf, mine->count, &mine->dt, blocks[r].buf, blocks[r].count, &blocks[r].dt);
    for (int j = 0; j < n; j++)
        if (j != r)
            axon_coll_sched_recv(s, blocks[j].buf, blocks[j].count, &blocks[j].dt, j);
    axon_coll_sched_round(s);
}

void axon_coll_scatter(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                       const struct axon_coll_block *mine, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    if (r != root) {
        axon_coll_sched_recv(s, mine->buf, mine->count, &mine->dt, root);
        axon_coll_sched_round(s);
        return;
    }
    for (int j = 0; j < n; j++)
        if (j != r)
            axon_coll_sched_send(s, blocks[j].buf, blocks[j].count, &blocks[j].dt, j);
    if (mine)
        axon_coll_sched_copy(s, blocks[r].buf, blocks[r].count, &blocks[r].dt, mine->buf, mine->count, &mine->dt);
    axon_coll_sched_round(s);
}
