/* MPI_Reduce: its table and two algorithms, both in rank order (right for non-commutative operations).
 *  - binomial: a binomial tree to rank 0 in which a rank always holds the result of a run of consecutive
 *    ranks starting at itself and takes in the run that follows (lower ranks on the left); a root other
 *    than 0 gets the result in one more message. log2(n) rounds of the whole vector: latency-optimal.
 *  - rabenseifner: a reduce-scatter by recursive halving, then a binomial gather of the segments to the
 *    root; each rank moves about twice the vector whatever n is: bandwidth-optimal for large vectors.
 * (and the compositions over nodes, hier, and within one NVLink domain, domain: coll/axon_coll_domain.c) */
#include "coll/axon_coll_reduce_internal.h"
#include "coll/axon_coll_domain.h"
#include "coll/axon_coll_hier.h"

enum { AXON_REDUCE_BINOMIAL, AXON_REDUCE_RABENSEIFNER, AXON_REDUCE_HIER, AXON_REDUCE_DOMAIN };
static const struct axon_coll_alg axon_coll_reduce_algs[] = {
    [AXON_REDUCE_BINOMIAL] = {"binomial", "binomial tree to rank 0 in rank order, then to the root", 0},
    [AXON_REDUCE_RABENSEIFNER] = {"rabenseifner",
                                  "reduce-scatter by recursive halving, then a binomial gather to the root", 0},
    [AXON_REDUCE_HIER] = {"hier", "a reduce in each node to its leader, then among the leaders to the root",
                          AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_NODES},
    [AXON_REDUCE_DOMAIN] = {"domain",
                            "one NVLink domain: each rank's slice by one kernel reading the peers' inputs through "
                            "CUDA IPC, written into the root's result",
                            AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_DOMAIN},
};
/* On one node the halving wins from a few tens of KiB. Where every member's buffers are GPU memory on
 * one NVLink domain (agreed before a blocking call above AXON_COLL_GPU_AGREE_MIN, coll/axon_coll_agree.c):
 * the domain algorithm, the allreduce's fold writing one result instead of n (bench/results/2026-11-26-h200-domain-collectives.md). */
/* Across nodes the halving's log2(n) exchanges, every rank on the network at each, cost more than the
 * tree's whole vectors up to a few hundred KiB (bench/results/2026-11-29-cluster-after-eager-limit.md), so the tree goes further there. */
static const struct axon_coll_rule axon_coll_reduce_rules[] = {
    {0, -1, AXON_REDUCE_DOMAIN, AXON_COLL_NEEDS_DEVICE},
    {0, 32 * 1024, AXON_REDUCE_BINOMIAL, 0},
    {0, 256 * 1024, AXON_REDUCE_BINOMIAL, AXON_COLL_NEEDS_NODES},
    {0, -1, AXON_REDUCE_RABENSEIFNER, 0},
};
const struct axon_coll_desc axon_coll_reduce_desc = {
    "reduce", "bytes of the vector", axon_coll_reduce_algs, 4, axon_coll_reduce_rules, 4};

static void axon_coll_reduce_binomial(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                      const struct axon_dtype_layout *dt, int root)
{
    int r = axon_coll_sched_rank(s);
    char *acc = axon_coll_red_pack(s, in, count, dt);
    if (!acc)
        return;
    char *res = axon_coll_red_binomial(s, acc, count, dt->size);
    if (!res)
        return;
    if (root == 0) {
        if (r == 0)
            axon_coll_red_unpack(s, res, out, 0, count, dt);
    } else if (r == 0) {
        axon_coll_red_send(s, res, count * dt->size, root);
    } else if (r == root) {
        axon_coll_red_recv_typed(s, out, 0, count, dt, 0);
    }
    axon_coll_sched_round(s);
}

static void axon_coll_reduce_rabenseifner(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                          const struct axon_dtype_layout *dt, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t esize = dt->size;
    struct axon_coll_red_fold f;
    axon_coll_red_fold_init(&f, n, r);
    const char *src;
    char *a = axon_coll_red_pack_halving(s, &f, in, count, dt, &src);
    char *b = axon_coll_sched_alloc(s, (size_t)(count * esize));
    int64_t *pos = axon_coll_sched_alloc_meta(s, sizeof(*pos) * (size_t)(f.p + 1));
    if (!a || !b || !pos)
        return;
    axon_coll_red_split(count, f.p, pos);
    axon_coll_red_fold_in(s, &f, a, b, count, esize);
    /* The root's data was folded into the rank above it when it sits out: that rank gathers for it. */
    int rootq = axon_coll_red_fold_holder(&f, root), proxy = axon_coll_red_fold_rank(&f, rootq);
    if (f.q < 0) {
        if (r == root)
            axon_coll_red_recv_typed(s, out, 0, count, dt, proxy);
        axon_coll_sched_round(s);
        return;
    }
    char *cur = axon_coll_red_halve(s, &f, pos, a, b, esize, src);
    int t = axon_coll_red_bitrev(f.q, f.logp);
    struct axon_coll_red_buf gb = {cur, NULL, esize};
    if (r == root) {
        /* The root gathers straight into the user's buffer. */
        axon_coll_red_unpack(s, cur + pos[t] * esize, out, pos[t], pos[t + 1] - pos[t], dt);
        gb = (struct axon_coll_red_buf){out, dt, esize};
    }
    axon_coll_red_gather(s, &f, pos, &gb, rootq);
    if (r == proxy && r != root) {
        axon_coll_red_send(s, cur, count * esize, root);
        axon_coll_sched_round(s);
    }
}

void axon_coll_reduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                      const struct axon_dtype_layout *dt, int root)
{
    switch (axon_coll_select_sched(AXON_COLL_KIND_REDUCE, s, count * dt->size,
                                   axon_coll_red_have(s) | axon_coll_hier_have(s) | axon_coll_domain_have(s) |
                                       axon_coll_sched_device_have(s))) {
    case AXON_REDUCE_DOMAIN:
        axon_coll_domain_reduce_root(s, in, out, count, dt, root);
        break;
    case AXON_REDUCE_HIER:
        axon_coll_hier_reduce(s, in, out, count, dt, root);
        break;
    case AXON_REDUCE_RABENSEIFNER:
        axon_coll_reduce_rabenseifner(s, in, out, count, dt, root);
        break;
    default:
        axon_coll_reduce_binomial(s, in, out, count, dt, root);
        break;
    }
}
