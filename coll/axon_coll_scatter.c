/* MPI_Scatter(v). Two algorithms:
 * - linear: the root sends every rank its block, all at once. Serves scatterv (blocks of any size),
 *   and large blocks, where the root's link is the limit anyway.
 * - binomial (equal blocks only): a binomial tree over ranks relative to the root; the root sends each
 *   child the blocks of its subtree as one message, and every rank keeps the first block of what it
 *   receives and passes the rest on the same way, from scratch: ceil(log2 n) steps instead of n - 1
 *   messages out of the root. The root sends a subtree straight from its blocks when they lie end to
 *   end (a uniform scatter's do) and the subtree does not wrap past the last rank; otherwise it packs
 *   it first. */
#include "coll/axon_coll_move.h"

enum { AXON_SCATTER_LINEAR, AXON_SCATTER_BINOMIAL };

static const struct axon_coll_alg axon_coll_scatter_algs[] = {
    [AXON_SCATTER_LINEAR] = {"linear", "the root sends every rank its block", 0},
    [AXON_SCATTER_BINOMIAL] = {"binomial", "binomial tree: ranks pass on their subtree's blocks packed",
                               AXON_COLL_NEEDS_UNIFORM},
};
static const struct axon_coll_rule axon_coll_scatter_rules[] = {
    {0, 4096, AXON_SCATTER_BINOMIAL, 0},
    {0, -1, AXON_SCATTER_LINEAR, 0},
};
const struct axon_coll_desc axon_coll_scatter_desc = {
    "scatter", "bytes of one rank's block (0 for scatterv)", axon_coll_scatter_algs, 2, axon_coll_scatter_rules, 2};

static void axon_coll_scatter_linear(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                                     const struct axon_coll_block *mine, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    if (r != root) {
        axon_coll_block_recv(s, mine, root);
        axon_coll_sched_round(s);
        return;
    }
    for (int j = 0; j < n; j++)
        if (j != r)
            axon_coll_block_send(s, &blocks[j], j);
    if (mine)
        axon_coll_block_copy(s, &blocks[r], mine);
    axon_coll_sched_round(s);
}

/* The blocks of absolute ranks first .. first+m-1 (mod n) packed into p. */
static void axon_coll_scatter_pack(struct axon_coll_sched *s, const struct axon_coll_block *blocks, bool regular,
                                   int n, int first, int m, char *p, int64_t bb)
{
    struct axon_coll_block from, to;
    while (m > 0) {
        int j = first % n, k = regular ? (j + m <= n ? m : n - j) : 1;
        axon_coll_blocks_run(blocks, j, k, &from);
        axon_coll_block_of_bytes(p, k * bb, &to);
        axon_coll_block_copy(s, &from, &to);
        p += k * bb;
        first += k;
        m -= k;
    }
}

static void axon_coll_scatter_binomial(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                                       const struct axon_coll_block *mine, int root, int64_t bb)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int rel = (r - root + n) % n, low = axon_coll_lowbit(rel, n), end = axon_coll_subtree_end(rel, n);
    struct axon_coll_block part;
    if (rel != 0) {
        int parent = (rel - low + root) % n;
        if (end - rel == 1) {
            axon_coll_block_recv(s, mine, parent);
            axon_coll_sched_round(s);
            return;
        }
        char *tmp = axon_coll_sched_alloc(s, (size_t)((end - rel) * bb));
        axon_coll_block_of_bytes(tmp, (end - rel) * bb, &part);
        axon_coll_block_recv(s, &part, parent);
        axon_coll_sched_round(s);
        /* The largest subtree first: it has the longest way to go. */
        for (int mask = low >> 1; mask > 0; mask >>= 1) {
            if (rel + mask >= n)
                continue;
            axon_coll_block_of_bytes(tmp + mask * bb, (axon_coll_subtree_end(rel + mask, n) - rel - mask) * bb, &part);
            axon_coll_block_send(s, &part, (rel + mask + root) % n);
        }
        axon_coll_block_of_bytes(tmp, bb, &part);
        axon_coll_block_copy(s, &part, mine);
        axon_coll_sched_round(s);
        return;
    }
    bool regular = axon_coll_blocks_regular(blocks, n);
    for (int mask = low >> 1; mask > 0; mask >>= 1) {
        int first = (root + mask) % n, m = axon_coll_subtree_end(mask, n) - mask;
        if (regular && first + m <= n) {
            axon_coll_blocks_run(blocks, first, m, &part);
        } else {
            char *tmp = axon_coll_sched_alloc(s, (size_t)(m * bb));
            axon_coll_scatter_pack(s, blocks, regular, n, first, m, tmp, bb);
            axon_coll_block_of_bytes(tmp, m * bb, &part);
        }
        axon_coll_block_send(s, &part, first);
    }
    if (mine)
        axon_coll_block_copy(s, &blocks[r], mine);
    axon_coll_sched_round(s);
}

void axon_coll_scatter(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                       const struct axon_coll_block *mine, int root, unsigned have)
{
    int r = axon_coll_sched_rank(s);
    /* The size of one rank's block as every rank knows it when the blocks are equal: its own. */
    int64_t bytes = have & AXON_COLL_NEEDS_UNIFORM ? axon_coll_block_bytes(mine ? mine : &blocks[r]) : 0;
    int alg = axon_coll_select_sched(AXON_COLL_KIND_SCATTER, s, bytes, have);
    /* Equal empty blocks: every member knows there is nothing to move. */
    if ((have & AXON_COLL_NEEDS_UNIFORM) && bytes == 0)
        return;
    /* Steps added before belong to earlier rounds: this data may be what they produce. */
    axon_coll_sched_round(s);
    switch (alg) {
    case AXON_SCATTER_BINOMIAL:
        axon_coll_scatter_binomial(s, blocks, mine, root, bytes);
        break;
    default:
        axon_coll_scatter_linear(s, blocks, mine, root);
        break;
    }
}
