/* MPI_Alltoall(v,w). Three algorithms:
 * - pairwise: in step i a rank sends to rank + i and receives from rank - i, so every rank talks to
 *   one peer each way per step; n - 1 steps, each block sent once: the choice for large blocks, and
 *   the only one for the v and w forms. In place, the receive blocks are first packed into scratch,
 *   which then serves as the send blocks.
 * - bruck (equal blocks): position i of a rank holds the block for rank + i; in step k every block
 *   whose position has bit k set moves to rank + 2^k, packed with the others into one message, so
 *   after ceil(log2 n) steps each block has travelled its position's distance and sits at its
 *   destination. About (n/2) log2 n blocks cross each link instead of n - 1, in log2 n messages
 *   instead of n - 1: the choice for small blocks. The schedule tracks where each position's data
 *   lies (a send block, or the landing area of the step that brought it), so a block is packed once
 *   per step it travels and copied once at the end; a step that moves one block sends it from where
 *   it is, and receives it at its destination when it travels no further.
 * - scattered: every message to and from a batch of 32 peers posted at once, so medium blocks pay one
 *   round trip per batch rather than one per peer (pairwise), without flooding the fabric with all
 *   n - 1 large messages at once.
 * - hier (equal blocks): the hierarchical composition (coll/axon_coll_hier.c), forced only. */
#include "coll/axon_coll_domain.h"
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_move.h"

enum { AXON_ALLTOALL_PAIRWISE, AXON_ALLTOALL_BRUCK, AXON_ALLTOALL_SCATTERED, AXON_ALLTOALL_HIER, AXON_ALLTOALL_DOMAIN };
enum { AXON_ALLTOALL_BATCH = 32 };

static const struct axon_coll_alg axon_coll_alltoall_algs[] = {
    [AXON_ALLTOALL_PAIRWISE] = {"pairwise", "n-1 steps, one peer each way per step", 0},
    [AXON_ALLTOALL_BRUCK] = {"bruck", "ceil(log2 n) steps, each moving the blocks whose distance has that bit",
                             AXON_COLL_NEEDS_UNIFORM},
    [AXON_ALLTOALL_SCATTERED] = {"scattered", "the messages of 32 peers at a time posted together", 0},
    [AXON_ALLTOALL_HIER] = {"hier", "blocks through each node's leader, one message between the leaders of two nodes",
                            AXON_COLL_NEEDS_UNIFORM | AXON_COLL_NEEDS_NODES},
    [AXON_ALLTOALL_DOMAIN] = {"domain",
                              "one NVLink domain: every rank copies its block from every member through CUDA IPC",
                              AXON_COLL_NEEDS_UNIFORM | AXON_COLL_NEEDS_DOMAIN},
};
/* MPICH's split by block size (256 B, 32 KiB), with scattered up to 64 KiB. Two ranks exchange one
 * message either way; up to 3 ranks Bruck sends as many messages as the others and only adds packing.
 * Blocks of 64 KiB are scattered too: pairwise sends them eagerly (through the node's rings), so a rank
 * ahead of its partner's step leaves its block unexpected, copied once more; beyond, pairwise's blocks
 * are read in place (bench/results/2026-11-26-collectives-2-ranks.md, and for 8 and 16 ranks
 * bench/results/2026-11-26-h200-cuda-targets-met.md and 2026-11-26-h200-domain-collectives.md). */
/* Where every member's buffers are GPU memory on one NVLink domain (agreed before a blocking call above
 * AXON_COLL_GPU_AGREE_MIN, coll/axon_coll_agree.c): the domain algorithm at any size, which reads the peers'
 * blocks in place (bench/results/2026-11-26-h200-domain-collectives.md). */
/* Across nodes, where one batch holds every peer: scattered at every block size beyond Bruck's. Pairwise
 * keeps the network idle while a step's partner is on the rank's own node, and a step waits for its
 * slowest pair; with every message posted at once the links stay busy from first to last (bench/results/2026-11-29-cluster-after-eager-limit.md). */
static const struct axon_coll_rule axon_coll_alltoall_rules[] = {
    {0, -1, AXON_ALLTOALL_DOMAIN, AXON_COLL_NEEDS_DEVICE},
    {2, -1, AXON_ALLTOALL_PAIRWISE, 0},
    {3, 65536, AXON_ALLTOALL_SCATTERED, 0},
    {0, 256, AXON_ALLTOALL_BRUCK, 0},
    {AXON_ALLTOALL_BATCH + 1, -1, AXON_ALLTOALL_SCATTERED, AXON_COLL_NEEDS_NODES},
    {0, 65536, AXON_ALLTOALL_SCATTERED, 0},
    {0, -1, AXON_ALLTOALL_PAIRWISE, 0},
};
const struct axon_coll_desc axon_coll_alltoall_desc = {
    "alltoall", "bytes of one block (0 for alltoallv and alltoallw)", axon_coll_alltoall_algs, 5,
    axon_coll_alltoall_rules, 7};

/* In place: the receive blocks other than the own one packed into scratch, as send blocks (NULL when
 * out of memory; the schedule has the error). */
static struct axon_coll_block *axon_coll_alltoall_save(struct axon_coll_sched *s, const struct axon_coll_block *recv)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    struct axon_coll_block *saved = axon_coll_sched_alloc_meta(s, sizeof(*saved) * (size_t)n);
    if (!saved)
        return NULL;
    int64_t total = 0;
    for (int j = 0; j < n; j++)
        if (j != r)
            total += axon_coll_block_bytes(&recv[j]);
    char *p = axon_coll_sched_alloc(s, (size_t)total);
    if (!p)
        return NULL;
    for (int j = 0; j < n; j++) {
        axon_coll_block_of_bytes(p, j == r ? 0 : axon_coll_block_bytes(&recv[j]), &saved[j]);
        if (j == r)
            continue;
        axon_coll_block_copy(s, &recv[j], &saved[j]);
        p += saved[j].count;
    }
    return saved;
}

static void axon_coll_alltoall_pairwise(struct axon_coll_sched *s, const struct axon_coll_block *send,
                                        const struct axon_coll_block *recv)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    /* The own block's copy goes into the first round of messages, after they are posted, so that it runs
     * while they travel; in place the own block is where it belongs already. */
    const struct axon_coll_block *own = send ? &send[r] : NULL;
    if (!send && n > 1) {
        send = axon_coll_alltoall_save(s, recv);
        if (!send)
            return;
        axon_coll_sched_round(s);
    }
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        axon_coll_block_recv(s, &recv[from], from);
        axon_coll_block_send(s, &send[to], to);
        if (i == 1 && own)
            axon_coll_block_copy(s, own, &recv[r]);
        axon_coll_sched_round(s);
    }
    if (n == 1 && own)
        axon_coll_block_copy(s, own, &recv[r]);
}

static void axon_coll_alltoall_scattered(struct axon_coll_sched *s, const struct axon_coll_block *send,
                                         const struct axon_coll_block *recv)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    const struct axon_coll_block *own = send ? &send[r] : NULL; /* copied while the first batch travels */
    if (!send) {
        send = axon_coll_alltoall_save(s, recv);
        if (!send)
            return;
        axon_coll_sched_round(s);
    }
    for (int first = 1; first < n; first += AXON_ALLTOALL_BATCH) {
        int end = first + AXON_ALLTOALL_BATCH < n ? first + AXON_ALLTOALL_BATCH : n;
        /* Receives first: each is posted before its message can arrive unexpected. */
        for (int i = first; i < end; i++) {
            int from = (r - i + n) % n;
            axon_coll_block_recv(s, &recv[from], from);
        }
        for (int i = first; i < end; i++) {
            int to = (r + i) % n;
            axon_coll_block_send(s, &send[to], to);
        }
        if (first == 1 && own)
            axon_coll_block_copy(s, own, &recv[r]);
        axon_coll_sched_round(s);
    }
}

static void axon_coll_alltoall_bruck(struct axon_coll_sched *s, const struct axon_coll_block *send,
                                     const struct axon_coll_block *recv, int64_t bb)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    /* at[i]: where the data of position i lies now; done[i]: it reached its receive block. */
    struct axon_coll_block *at = axon_coll_sched_alloc_meta(s, sizeof(*at) * (size_t)n);
    bool *done = axon_coll_sched_alloc_meta(s, sizeof(*done) * (size_t)n);
    if (!at || !done)
        return;
    if (send) {
        axon_coll_block_copy(s, &send[r], &recv[r]);
    } else {
        send = axon_coll_alltoall_save(s, recv);
        if (!send)
            return;
    }
    for (int i = 0; i < n; i++) {
        at[i] = send[(r + i) % n];
        done[i] = i == 0;
    }
    /* The packing area of a step, reused: a step starts once the previous one's messages are done. */
    int most = 0;
    for (int bit = 1; bit < n; bit <<= 1) {
        int m = 0;
        for (int i = 1; i < n; i++)
            m += (i & bit) != 0;
        if (m > most)
            most = m;
    }
    char *pack = most > 1 ? axon_coll_sched_alloc(s, (size_t)(most * bb)) : NULL;
    axon_coll_sched_round(s);
    struct axon_coll_block b;
    for (int bit = 1; bit < n; bit <<= 1) {
        int to = (r + bit) % n, from = (r - bit + n) % n, m = 0, only = 0;
        for (int i = 1; i < n; i++)
            if (i & bit) {
                only = i;
                m++;
            }
        if (m == 1) {
            /* One block (n <= 2 bit + 1): sent from where it is, and received at its destination, since
             * a position below n has no higher bit. */
            axon_coll_block_send(s, &at[only], to);
            axon_coll_block_recv(s, &recv[(r - only + n) % n], from);
            done[only] = true;
            axon_coll_sched_round(s);
            continue;
        }
        char *land = axon_coll_sched_alloc(s, (size_t)(m * bb));
        int k = 0;
        for (int i = 1; i < n; i++) {
            if (!(i & bit))
                continue;
            axon_coll_block_of_bytes(pack + k * bb, bb, &b);
            axon_coll_block_copy(s, &at[i], &b);
            axon_coll_block_of_bytes(land + k * bb, bb, &at[i]);
            k++;
        }
        axon_coll_block_of_bytes(pack, m * bb, &b);
        axon_coll_block_send(s, &b, to);
        axon_coll_block_of_bytes(land, m * bb, &b);
        axon_coll_block_recv(s, &b, from);
        axon_coll_sched_round(s);
    }
    /* Position i came from rank r - i. */
    for (int i = 1; i < n; i++)
        if (!done[i])
            axon_coll_block_copy(s, &at[i], &recv[(r - i + n) % n]);
    axon_coll_sched_round(s);
}

void axon_coll_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                        const struct axon_coll_block *recv, unsigned have)
{
    int n = axon_coll_sched_size(s);
    int64_t bytes = have & AXON_COLL_NEEDS_UNIFORM ? axon_coll_block_bytes(&recv[0]) : 0;
    int alg = axon_coll_select_sched(AXON_COLL_KIND_ALLTOALL, s, bytes,
                                     have | axon_coll_hier_have(s) | axon_coll_domain_group_have(s) |
                                         axon_coll_sched_device_have(s));
    /* Steps added before belong to earlier rounds: this data may be what they produce. */
    axon_coll_sched_round(s);
    if ((have & AXON_COLL_NEEDS_UNIFORM) && bytes == 0)
        return;
    switch (n > 1 ? alg : AXON_ALLTOALL_PAIRWISE) {
    case AXON_ALLTOALL_BRUCK:
        axon_coll_alltoall_bruck(s, send, recv, bytes);
        break;
    case AXON_ALLTOALL_SCATTERED:
        axon_coll_alltoall_scattered(s, send, recv);
        break;
    case AXON_ALLTOALL_HIER:
        axon_coll_hier_alltoall(s, send, recv);
        break;
    case AXON_ALLTOALL_DOMAIN:
        axon_coll_domain_alltoall(s, send, recv);
        break;
    default:
        axon_coll_alltoall_pairwise(s, send, recv);
        break;
    }
}
