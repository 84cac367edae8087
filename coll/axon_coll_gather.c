/* MPI_Gather(v) and MPI_Scatter(v): linear. The root posts every receive (or send) in one round and
 * copies its own block locally; the others send (or receive) one message. */
#include "coll/coll.h"

enum { AXON_GATHER_LINEAR };

static const struct axon_coll_alg axon_coll_gather_algs[] = {
    [AXON_GATHER_LINEAR] = {"linear", "every rank sends its block straight to the root", 0},
};
static const struct axon_coll_rule axon_coll_gather_rules[] = {{0, -1, AXON_GATHER_LINEAR}};
const struct axon_coll_desc axon_coll_gather_desc = {
    "gather", "bytes of one rank's block (0 for gatherv)", axon_coll_gather_algs, 1, axon_coll_gather_rules, 1};

enum { AXON_SCATTER_LINEAR };

static const struct axon_coll_alg axon_coll_scatter_algs[] = {
    [AXON_SCATTER_LINEAR] = {"linear", "the root sends every rank its block", 0},
};
static const struct axon_coll_rule axon_coll_scatter_rules[] = {{0, -1, AXON_SCATTER_LINEAR}};
const struct axon_coll_desc axon_coll_scatter_desc = {
    "scatter", "bytes of one rank's block (0 for scatterv)", axon_coll_scatter_algs, 1, axon_coll_scatter_rules, 1};

/* The size of one rank's block as every rank knows it when the blocks are uniform: its own. */
static int64_t axon_coll_block_bytes(const struct axon_coll_block *mine, const struct axon_coll_block *blocks,
                                     int rank, unsigned have)
{
    if (!(have & AXON_COLL_NEEDS_UNIFORM))
        return 0;
    const struct axon_coll_block *b = mine ? mine : &blocks[rank];
    return b->count * b->dt.size;
}

static void axon_coll_gather_linear(struct axon_coll_sched *s, const struct axon_coll_block *mine,
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

static void axon_coll_scatter_linear(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
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

void axon_coll_gather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                      const struct axon_coll_block *blocks, int root, unsigned have)
{
    int64_t bytes = axon_coll_block_bytes(mine, blocks, axon_coll_sched_rank(s), have);
    switch (axon_coll_select(AXON_COLL_KIND_GATHER, axon_coll_sched_size(s), bytes, have)) {
    default:
        axon_coll_gather_linear(s, mine, blocks, root);
        break;
    }
}

void axon_coll_scatter(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                       const struct axon_coll_block *mine, int root, unsigned have)
{
    int64_t bytes = axon_coll_block_bytes(mine, blocks, axon_coll_sched_rank(s), have);
    switch (axon_coll_select(AXON_COLL_KIND_SCATTER, axon_coll_sched_size(s), bytes, have)) {
    default:
        axon_coll_scatter_linear(s, blocks, mine, root);
        break;
    }
}
