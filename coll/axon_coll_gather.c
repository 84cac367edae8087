/* MPI_Gather(v). Two algorithms:
 * - linear: every rank sends its block straight to the root, which posts all receives at once. Serves
 *   gatherv (blocks of any size), and large blocks, where the root's link is the limit anyway.
 * - binomial (equal blocks only): a binomial tree over ranks relative to the root; a rank packs its own
 *   block and its children's subtrees, in relative rank order, into scratch and sends them to its
 *   parent as one message: ceil(log2 n) steps instead of n - 1 messages into the root. The root
 *   receives each child's subtree straight into its blocks when they lie end to end (a uniform
 *   gather's do) and the subtree does not wrap past the last rank; otherwise through scratch. */
#include "coll/axon_coll_move.h"

enum { AXON_GATHER_LINEAR, AXON_GATHER_BINOMIAL };

static const struct axon_coll_alg axon_coll_gather_algs[] = {
    [AXON_GATHER_LINEAR] = {"linear", "every rank sends its block straight to the root", 0},
    [AXON_GATHER_BINOMIAL] = {"binomial", "binomial tree: ranks forward their subtree's blocks packed",
                              AXON_COLL_NEEDS_UNIFORM},
};
static const struct axon_coll_rule axon_coll_gather_rules[] = {
    {0, 4096, AXON_GATHER_BINOMIAL, 0},
    {0, -1, AXON_GATHER_LINEAR, 0},
};
const struct axon_coll_desc axon_coll_gather_desc = {
    "gather", "bytes of one rank's block (0 for gatherv)", axon_coll_gather_algs, 2, axon_coll_gather_rules, 2};

static void axon_coll_gather_linear(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                    const struct axon_coll_block *blocks, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    if (r != root) {
        axon_coll_block_send(s, mine, root);
        axon_coll_sched_round(s);
        return;
    }
    if (mine)
        axon_coll_block_copy(s, mine, &blocks[r]);
    for (int j = 0; j < n; j++)
        if (j != r)
            axon_coll_block_recv(s, &blocks[j], j);
    axon_coll_sched_round(s);
}

/* Packed bytes at p into the blocks of absolute ranks first .. first+m-1 (mod n). */
static void axon_coll_gather_unpack(struct axon_coll_sched *s, const struct axon_coll_block *blocks, bool regular,
                                    int n, int first, int m, char *p, int64_t bb)
{
    struct axon_coll_block from, to;
    while (m > 0) {
        int j = first % n, k = regular ? (j + m <= n ? m : n - j) : 1;
        axon_coll_block_of_bytes(p, k * bb, &from);
        axon_coll_blocks_run(blocks, j, k, &to);
        axon_coll_block_copy(s, &from, &to);
        p += k * bb;
        first += k;
        m -= k;
    }
}

static void axon_coll_gather_binomial(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                      const struct axon_coll_block *blocks, int root, int64_t bb)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int rel = (r - root + n) % n, low = axon_coll_lowbit(rel, n), end = axon_coll_subtree_end(rel, n);
    if (rel != 0) {
        int parent = (rel - low + root) % n;
        if (end - rel == 1) {
            axon_coll_block_send(s, mine, parent);
            axon_coll_sched_round(s);
            return;
        }
        char *tmp = axon_coll_sched_alloc(s, (size_t)((end - rel) * bb));
        struct axon_coll_block part;
        axon_coll_block_of_bytes(tmp, bb, &part);
        axon_coll_block_copy(s, mine, &part);
        for (int mask = 1; mask < low && rel + mask < n; mask <<= 1) {
            axon_coll_block_of_bytes(tmp + mask * bb, (axon_coll_subtree_end(rel + mask, n) - rel - mask) * bb, &part);
            axon_coll_block_recv(s, &part, (rel + mask + root) % n);
        }
        axon_coll_sched_round(s);
        axon_coll_block_of_bytes(tmp, (end - rel) * bb, &part);
        axon_coll_block_send(s, &part, parent);
        axon_coll_sched_round(s);
        return;
    }
    bool regular = axon_coll_blocks_regular(blocks, n);
    if (mine)
        axon_coll_block_copy(s, mine, &blocks[r]);
    /* Subtrees that arrive through scratch: unpacked once everything is in. */
    struct later {
        int first, m;
        char *tmp;
    } *later = axon_coll_sched_alloc_meta(s, sizeof(*later) * 32);
    int nlater = 0;
    if (!later)
        return;
    for (int mask = 1; mask < n; mask <<= 1) {
        int first = (root + mask) % n, m = axon_coll_subtree_end(mask, n) - mask;
        struct axon_coll_block part;
        if (regular && first + m <= n) {
            axon_coll_blocks_run(blocks, first, m, &part);
        } else {
            char *tmp = axon_coll_sched_alloc(s, (size_t)(m * bb));
            later[nlater++] = (struct later){first, m, tmp};
            axon_coll_block_of_bytes(tmp, m * bb, &part);
        }
        axon_coll_block_recv(s, &part, first);
    }
    axon_coll_sched_round(s);
    for (int i = 0; i < nlater; i++)
        axon_coll_gather_unpack(s, blocks, regular, n, later[i].first, later[i].m, later[i].tmp, bb);
    axon_coll_sched_round(s);
}

/* The size of one rank's block as every rank knows it when the blocks are equal: its own. */
static int64_t axon_coll_gather_block_bytes(const struct axon_coll_block *mine, const struct axon_coll_block *blocks,
                                            int rank, unsigned have)
{
    if (!(have & AXON_COLL_NEEDS_UNIFORM))
        return 0;
    return axon_coll_block_bytes(mine ? mine : &blocks[rank]);
}

void axon_coll_gather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                      const struct axon_coll_block *blocks, int root, unsigned have)
{
    int64_t bytes = axon_coll_gather_block_bytes(mine, blocks, axon_coll_sched_rank(s), have);
    int alg = axon_coll_select_sched(AXON_COLL_KIND_GATHER, s, bytes, have);
    /* Equal empty blocks: every member knows there is nothing to move. */
    if ((have & AXON_COLL_NEEDS_UNIFORM) && bytes == 0)
        return;
    /* Steps added before belong to earlier rounds: this data may be what they produce. */
    axon_coll_sched_round(s);
    switch (alg) {
    case AXON_GATHER_BINOMIAL:
        axon_coll_gather_binomial(s, mine, blocks, root, bytes);
        break;
    default:
        axon_coll_gather_linear(s, mine, blocks, root);
        break;
    }
}
