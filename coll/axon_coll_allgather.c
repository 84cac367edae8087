/* MPI_Allgather(v). Three algorithms:
 * - ring: n - 1 steps; in each a rank passes to its right the block it got last from its left. Blocks
 *   of any count and layout (allgatherv); every block crosses each link once, the least traffic for
 *   large blocks.
 * - doubling (equal blocks, n a power of two; Bruck's otherwise): in the step of mask a rank swaps the
 *   mask blocks of its aligned group with rank ^ mask; log2(n) steps, in place in the receive buffer
 *   when its blocks lie end to end (a uniform allgather's do), else through packed scratch.
 * - bruck (equal blocks, any n): in step k a rank sends the first min(2^k, n - 2^k) blocks it has,
 *   counted from its own, to rank - 2^k and gets as many from rank + 2^k; ceil(log2 n) steps in packed
 *   scratch, then a local rotation puts block i at rank + i. The last step lands straight in the
 *   receive buffer where that does not wrap past the last rank. */
#include "coll/axon_coll_domain.h"
#include "coll/axon_coll_move.h"
#include "coll/axon_coll_hier.h"

enum { AXON_ALLGATHER_RING, AXON_ALLGATHER_DOUBLING, AXON_ALLGATHER_BRUCK, AXON_ALLGATHER_HIER, AXON_ALLGATHER_DOMAIN };

static const struct axon_coll_alg axon_coll_allgather_algs[] = {
    [AXON_ALLGATHER_RING] = {"ring", "n-1 steps, each rank passes one block to its right", 0},
    [AXON_ALLGATHER_DOUBLING] = {"doubling",
                                 "recursive doubling: log2 n steps of growing groups (bruck when n is not a "
                                 "power of two)",
                                 AXON_COLL_NEEDS_UNIFORM},
    [AXON_ALLGATHER_BRUCK] = {"bruck", "ceil(log2 n) steps of growing runs of blocks, then a local rotation",
                              AXON_COLL_NEEDS_UNIFORM},
    [AXON_ALLGATHER_HIER] = {"hier", "a gather in each node, the leaders swap their nodes' blocks, then hand them on",
                             AXON_COLL_NEEDS_NODES},
    [AXON_ALLGATHER_DOMAIN] = {"domain",
                               "one NVLink domain: every rank copies every block from its owner through CUDA IPC",
                               AXON_COLL_NEEDS_DOMAIN},
};
/* From 64 KiB blocks the ring wins on 2 ranks: its own block's copy overlaps the transfer. Where every
 * member's buffers are GPU memory on one NVLink domain (agreed before a blocking call above
 * AXON_COLL_GPU_AGREE_MIN, coll/axon_coll_agree.c): the domain algorithm at any size, which reads the peers'
 * blocks in place where the others move every byte through messages (bench/results/2026-11-26-h200-domain-collectives.md). */
static const struct axon_coll_rule axon_coll_allgather_rules[] = {
    {0, -1, AXON_ALLGATHER_DOMAIN, AXON_COLL_NEEDS_DEVICE},
    {0, 32768, AXON_ALLGATHER_DOUBLING, 0},
    /* Across nodes with several ranks on some: doubling's few steps up to 1 MiB blocks; beyond, each
     * node's blocks crossing the network once (hier) outweighs the trips through the leaders
     * (bench/results/2026-11-29-cluster.md). */
    {0, 1 << 20, AXON_ALLGATHER_DOUBLING, AXON_COLL_NEEDS_NODES},
    {0, -1, AXON_ALLGATHER_HIER, AXON_COLL_NEEDS_NODES},
    {0, -1, AXON_ALLGATHER_RING, 0},
};
const struct axon_coll_desc axon_coll_allgather_desc = {
    "allgather", "bytes of the largest rank's block", axon_coll_allgather_algs, 5, axon_coll_allgather_rules, 5};

static void axon_coll_allgather_ring(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                     const struct axon_coll_block *blocks)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    axon_coll_sched_round(s);
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        axon_coll_block_recv(s, &blocks[(r - i - 1 + n) % n], left);
        /* The own block leaves from the send buffer, and its copy into place runs while it travels. */
        axon_coll_block_send(s, i == 0 && mine ? mine : &blocks[(r - i + n) % n], right);
        if (i == 0 && mine)
            axon_coll_block_copy(s, mine, &blocks[r]);
        axon_coll_sched_round(s);
    }
    if (n == 1 && mine)
        axon_coll_block_copy(s, mine, &blocks[r]);
}

/* Blocks j .. j+m-1: in place when the blocks are regular, else in packed scratch (bb bytes each). */
static void axon_coll_allgather_run(const struct axon_coll_block *blocks, char *packed, int64_t bb, int j, int m,
                                    struct axon_coll_block *out)
{
    if (packed)
        axon_coll_block_of_bytes(packed + j * bb, m * bb, out);
    else
        axon_coll_blocks_run(blocks, j, m, out);
}

static void axon_coll_allgather_doubling(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                         const struct axon_coll_block *blocks, int64_t bb)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    char *packed = NULL;
    struct axon_coll_block b;
    if (!axon_coll_blocks_regular(blocks, n)) {
        packed = axon_coll_sched_alloc(s, (size_t)(n * bb));
        axon_coll_block_of_bytes(packed + r * bb, bb, &b);
        axon_coll_block_copy(s, mine ? mine : &blocks[r], &b);
    } else if (mine) {
        axon_coll_block_copy(s, mine, &blocks[r]);
    }
    axon_coll_sched_round(s);
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = r ^ mask;
        axon_coll_allgather_run(blocks, packed, bb, peer & ~(mask - 1), mask, &b);
        axon_coll_block_recv(s, &b, peer);
        axon_coll_allgather_run(blocks, packed, bb, r & ~(mask - 1), mask, &b);
        axon_coll_block_send(s, &b, peer);
        axon_coll_sched_round(s);
    }
    if (!packed)
        return;
    for (int j = 0; j < n; j++) {
        if (j == r)
            continue;
        axon_coll_block_of_bytes(packed + j * bb, bb, &b);
        axon_coll_block_copy(s, &b, &blocks[j]);
    }
    axon_coll_sched_round(s);
}

/* Positions first .. first+m-1 of the rotated order (position i is rank r + i's block) from packed
 * bytes at p into the blocks, in as few copies as the layout allows. */
static void axon_coll_allgather_unrotate(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                                         bool regular, int n, int r, int first, int m, char *p, int64_t bb)
{
    struct axon_coll_block from, to;
    while (m > 0) {
        int j = (r + first) % n, k = regular ? (j + m <= n ? m : n - j) : 1;
        axon_coll_block_of_bytes(p, k * bb, &from);
        axon_coll_blocks_run(blocks, j, k, &to);
        axon_coll_block_copy(s, &from, &to);
        p += k * bb;
        first += k;
        m -= k;
    }
}

static void axon_coll_allgather_bruck(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                      const struct axon_coll_block *blocks, int64_t bb)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    const struct axon_coll_block *own = mine ? mine : &blocks[r];
    bool regular = axon_coll_blocks_regular(blocks, n);
    struct axon_coll_block b;
    /* The last step gets positions [last, n); only the earlier ones need scratch. */
    int last = 1;
    while (last * 2 < n)
        last *= 2;
    char *tmp = NULL;
    if (n > 2) {
        tmp = axon_coll_sched_alloc(s, (size_t)(last * bb));
        axon_coll_block_of_bytes(tmp, bb, &b);
        axon_coll_block_copy(s, own, &b);
    }
    if (mine)
        axon_coll_block_copy(s, mine, &blocks[r]);
    axon_coll_sched_round(s);
    for (int dist = 1; dist < n; dist <<= 1) {
        int m = dist < n - dist ? dist : n - dist;
        int to = (r - dist + n) % n, from = (r + dist) % n;
        bool final = dist == last;
        char *landing = NULL;
        int j = (r + dist) % n;
        if (!final) {
            axon_coll_block_of_bytes(tmp + dist * bb, m * bb, &b);
        } else if (regular && j + m <= n) {
            axon_coll_blocks_run(blocks, j, m, &b);
        } else {
            landing = axon_coll_sched_alloc(s, (size_t)(m * bb));
            axon_coll_block_of_bytes(landing, m * bb, &b);
        }
        axon_coll_block_recv(s, &b, from);
        /* Step 0 sends the own block alone: straight from where it is. */
        if (dist == 1)
            axon_coll_block_send(s, own, to);
        else {
            axon_coll_block_of_bytes(tmp, m * bb, &b);
            axon_coll_block_send(s, &b, to);
        }
        axon_coll_sched_round(s);
        if (final) {
            if (landing)
                axon_coll_allgather_unrotate(s, blocks, regular, n, r, dist, m, landing, bb);
            if (dist > 1)
                axon_coll_allgather_unrotate(s, blocks, regular, n, r, 1, dist - 1, tmp + bb, bb);
        }
    }
    axon_coll_sched_round(s);
}

void axon_coll_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                         const struct axon_coll_block *blocks, unsigned have)
{
    /* Every rank knows every block's size (the v form passes all counts everywhere). */
    int n = axon_coll_sched_size(s);
    int64_t bytes = 0;
    for (int j = 0; j < n; j++)
        if (axon_coll_block_bytes(&blocks[j]) > bytes)
            bytes = axon_coll_block_bytes(&blocks[j]);
    int alg = axon_coll_select_sched(AXON_COLL_KIND_ALLGATHER, s, bytes,
                                     have | axon_coll_hier_have(s) | axon_coll_domain_group_have(s) |
                                         axon_coll_sched_device_have(s));
    /* Steps added before belong to earlier rounds: this data may be what they produce. */
    axon_coll_sched_round(s);
    if (n == 1 || bytes == 0) {
        int r = axon_coll_sched_rank(s);
        if (mine)
            axon_coll_block_copy(s, mine, &blocks[r]);
        axon_coll_sched_round(s);
        return;
    }
    /* Recursive doubling needs a power of two; Bruck's serves any n in as many steps. */
    if (alg == AXON_ALLGATHER_DOUBLING && (n & (n - 1)) != 0)
        alg = AXON_ALLGATHER_BRUCK;
    switch (alg) {
    case AXON_ALLGATHER_HIER:
        axon_coll_hier_allgather(s, mine, blocks);
        break;
    case AXON_ALLGATHER_DOMAIN:
        axon_coll_domain_allgather(s, mine, blocks);
        break;
    case AXON_ALLGATHER_DOUBLING:
        axon_coll_allgather_doubling(s, mine, blocks, bytes);
        break;
    case AXON_ALLGATHER_BRUCK:
        axon_coll_allgather_bruck(s, mine, blocks, bytes);
        break;
    default:
        axon_coll_allgather_ring(s, mine, blocks);
        break;
    }
}
