/* MPI_Allgather(v): a ring. Each rank puts its block in place, then in n-1 rounds passes to the right
 * the block it received last from the left. Any size; blocks of any count and layout. */
#include "coll/coll.h"

enum { AXON_ALLGATHER_RING };

static const struct axon_coll_alg axon_coll_allgather_algs[] = {
    [AXON_ALLGATHER_RING] = {"ring", "n-1 rounds, each rank passes one block to its right", 0},
};
static const struct axon_coll_rule axon_coll_allgather_rules[] = {{0, -1, AXON_ALLGATHER_RING}};
const struct axon_coll_desc axon_coll_allgather_desc = {
    "allgather", "bytes of the largest rank's block", axon_coll_allgather_algs, 1, axon_coll_allgather_rules, 1};

static void axon_coll_allgather_ring(struct axon_coll_sched *s, const struct axon_coll_block *mine,
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

void axon_coll_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                         const struct axon_coll_block *blocks, unsigned have)
{
    /* Every rank knows every block's size (the v form passes all counts everywhere). */
    int n = axon_coll_sched_size(s);
    int64_t bytes = 0;
    for (int j = 0; j < n; j++)
        if (blocks[j].count * blocks[j].dt.size > bytes)
            bytes = blocks[j].count * blocks[j].dt.size;
    switch (axon_coll_select(AXON_COLL_KIND_ALLGATHER, n, bytes, have)) {
    default:
        axon_coll_allgather_ring(s, mine, blocks);
        break;
    }
}
