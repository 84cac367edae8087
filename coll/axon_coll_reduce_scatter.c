/* MPI_Reduce_scatter and MPI_Reduce_scatter_block: rank j gets counts[j] elements of the reduced vector
 * (any counts, zeros included). Three algorithms:
 *  - reduce_then_scatter: a binomial reduce of the whole vector to rank 0, then a scatter (reference).
 *  - recursive_halving: the vector is packed with the ranks' blocks in bit-reversed order of their new
 *    ranks, so the order-keeping halving (partners at distance 1, 2, 4, ...; see
 *    coll/axon_coll_reduce_internal.h) leaves each rank its own block: log2(n) rounds and about the
 *    vector's size sent per rank, for any operation. Sizes that are not powers of two fold first; the
 *    odd rank of a pair hands its partner its block at the end.
 *  - ring: n-1 rounds around the ring, each moving one block; commutative operations only.
 *  - hier: the hierarchical composition (coll/axon_coll_hier.c), forced only.
 *  - domain: GPU memory read in place within an NVLink domain (coll/axon_coll_domain.c), forced only. */
#include "coll/axon_coll_domain.h"
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_reduce_internal.h"

enum {
    AXON_REDUCE_SCATTER_REDUCE_THEN_SCATTER,
    AXON_REDUCE_SCATTER_RECURSIVE_HALVING,
    AXON_REDUCE_SCATTER_RING,
    AXON_REDUCE_SCATTER_HIER,
    AXON_REDUCE_SCATTER_DOMAIN
};
static const struct axon_coll_alg axon_coll_reduce_scatter_algs[] = {
    [AXON_REDUCE_SCATTER_REDUCE_THEN_SCATTER] = {"reduce_then_scatter",
                                                 "binomial reduce of the whole vector to rank 0, then a scatter", 0},
    [AXON_REDUCE_SCATTER_RECURSIVE_HALVING] = {"recursive_halving",
                                               "log2(n) rounds exchanging half the window, in rank order", 0},
    [AXON_REDUCE_SCATTER_RING] = {"ring", "n-1 rounds around the ring, one block each",
                                  AXON_COLL_NEEDS_COMMUTATIVE},
    [AXON_REDUCE_SCATTER_HIER] = {"hier",
                                  "a reduce-scatter in each node into slices, then one per slice among its holders "
                                  "(one per node)",
                                  AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_NODES},
    [AXON_REDUCE_SCATTER_DOMAIN] = {"domain",
                                    "one NVLink domain: each rank's block by kernels reading the peers' inputs "
                                    "through CUDA IPC",
                                    AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_DOMAIN},
};
/* Where every member's buffers are GPU memory on one NVLink domain (agreed before a blocking call above
 * AXON_COLL_GPU_AGREE_MIN, coll/axon_coll_agree.c): the domain algorithm, which folds the peers' vectors in
 * place (bench/results/2026-11-26-h200-domain-collectives.md). */
static const struct axon_coll_rule axon_coll_reduce_scatter_rules[] = {
    {0, -1, AXON_REDUCE_SCATTER_DOMAIN, AXON_COLL_NEEDS_DEVICE},
    {0, -1, AXON_REDUCE_SCATTER_RECURSIVE_HALVING, 0},
};
const struct axon_coll_desc axon_coll_reduce_scatter_desc = {
    "reduce_scatter", "bytes of the whole vector", axon_coll_reduce_scatter_algs, 5,
    axon_coll_reduce_scatter_rules, 2};

static void axon_coll_reduce_scatter_reduce_then_scatter(struct axon_coll_sched *s, const void *in, void *out,
                                                        const int64_t *counts, int64_t total,
                                                        const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    char *acc = axon_coll_red_pack(s, in, total, dt);
    if (!acc)
        return;
    char *res = axon_coll_red_binomial(s, acc, total, dt->size);
    if (!res)
        return;
    struct axon_coll_block *blocks = NULL;
    if (r == 0) {
        blocks = axon_coll_sched_alloc_meta(s, sizeof(*blocks) * (size_t)n);
        if (!blocks)
            return;
        int64_t off = 0;
        for (int j = 0; j < n; j++) {
            blocks[j].buf = res + off;
            blocks[j].count = counts[j] * dt->size;
            blocks[j].dt = axon_coll_bytes;
            off += blocks[j].count;
        }
    }
    struct axon_coll_block mine = {out, counts[r], *dt};
    axon_coll_scatter(s, blocks, &mine, 0, 0);
}

static void axon_coll_reduce_scatter_recursive_halving(struct axon_coll_sched *s, const void *in, void *out,
                                                       const int64_t *counts, int64_t total,
                                                       const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t esize = dt->size;
    struct axon_coll_red_fold f;
    axon_coll_red_fold_init(&f, n, r);
    char *a = axon_coll_sched_alloc(s, (size_t)(total * esize));
    char *b = axon_coll_sched_alloc(s, (size_t)(total * esize));
    int64_t *pos = axon_coll_sched_alloc_meta(s, sizeof(*pos) * (size_t)(f.p + 1));
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(*disp) * (size_t)(n + 1));
    if (!a || !b || !pos || !disp)
        return;
    disp[0] = 0;
    for (int j = 0; j < n; j++)
        disp[j + 1] = disp[j] + counts[j];
    /* Segment t of the halving holds the blocks of new rank bitrev(t) (two ranks' blocks for a folded
     * pair), which is where the halving leaves that new rank. */
    pos[0] = 0;
    for (int t = 0; t < f.p; t++) {
        int u = axon_coll_red_bitrev(t, f.logp), lo = u < f.rem ? 2 * u : u + f.rem, hi = u < f.rem ? lo + 2 : lo + 1;
        int64_t cnt = disp[hi] - disp[lo];
        if (cnt > 0)
            axon_coll_sched_copy(s, (const char *)in + disp[lo] * dt->extent, cnt, dt, a + pos[t] * esize,
                                 cnt * esize, &axon_coll_bytes);
        pos[t + 1] = pos[t] + cnt;
    }
    axon_coll_sched_round(s);
    axon_coll_red_fold_in(s, &f, a, b, total, esize);
    if (f.q < 0) {
        axon_coll_red_recv_typed(s, out, 0, counts[r], dt, r + 1);
        axon_coll_sched_round(s);
        return;
    }
    char *cur = axon_coll_red_halve(s, &f, pos, a, b, esize, NULL);
    char *seg = cur + pos[axon_coll_red_bitrev(f.q, f.logp)] * esize;
    if (r < 2 * f.rem) {
        axon_coll_red_send(s, seg, counts[r - 1] * esize, r - 1);
        seg += counts[r - 1] * esize;
    }
    axon_coll_red_unpack(s, seg, out, 0, counts[r], dt);
    axon_coll_sched_round(s);
}

static void axon_coll_reduce_scatter_ring(struct axon_coll_sched *s, const void *in, void *out,
                                          const int64_t *counts, int64_t total, const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t esize = dt->size, most = 0;
    char *acc = axon_coll_red_pack(s, in, total, dt);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(*disp) * (size_t)(n + 1));
    if (!acc || !disp)
        return;
    disp[0] = 0;
    for (int j = 0; j < n; j++) {
        disp[j + 1] = disp[j] + counts[j];
        if (counts[j] > most)
            most = counts[j];
    }
    char *tmp = axon_coll_sched_alloc(s, (size_t)(most * esize));
    if (!tmp)
        return;
    axon_coll_red_ring_reduce_scatter(s, acc, tmp, disp, esize);
    axon_coll_red_unpack(s, acc + disp[r] * esize, out, 0, counts[r], dt);
    axon_coll_sched_round(s);
}

void axon_coll_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                              const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s);
    int64_t total = 0;
    for (int j = 0; j < n; j++)
        total += counts[j];
    switch (axon_coll_select_sched(AXON_COLL_KIND_REDUCE_SCATTER, s, total * dt->size,
                                   axon_coll_red_have(s) | axon_coll_hier_have(s) | axon_coll_domain_have(s) |
                                       axon_coll_sched_device_have(s))) {
    case AXON_REDUCE_SCATTER_DOMAIN:
        axon_coll_domain_reduce_scatter(s, in, out, counts, dt);
        break;
    case AXON_REDUCE_SCATTER_HIER:
        axon_coll_hier_reduce_scatter(s, in, out, counts, dt);
        break;
    case AXON_REDUCE_SCATTER_RECURSIVE_HALVING:
        axon_coll_reduce_scatter_recursive_halving(s, in, out, counts, total, dt);
        break;
    case AXON_REDUCE_SCATTER_RING:
        axon_coll_reduce_scatter_ring(s, in, out, counts, total, dt);
        break;
    default:
        axon_coll_reduce_scatter_reduce_then_scatter(s, in, out, counts, total, dt);
        break;
    }
}
