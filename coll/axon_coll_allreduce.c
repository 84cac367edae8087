/* MPI_Allreduce: its table and four algorithms.
 *  - recursive_doubling: log2(p) rounds in which partners at distance 1, 2, 4, ... swap their whole
 *    vectors and reduce (the lower run on the left, so order is kept); sizes that are not powers of two
 *    fold first and hand the result back at the end. Fewest rounds: for small vectors.
 *  - rabenseifner: reduce-scatter by recursive halving, then allgather by recursive doubling (folded the
 *    same way, order kept). Each rank sends about twice the vector: for large vectors.
 *  - ring: reduce-scatter around the ring, then allgather around it; 2(n-1) rounds of 1/n of the vector,
 *    each link busy in every round. The reduction of a segment wraps around rank 0, so commutative only.
 *  - reduce_bcast: a binomial reduce to rank 0 and a broadcast; kept as the simplest reference.
 *  - hier (coll/axon_coll_hier.c) and domain (coll/axon_coll_domain.c): compositions over nodes, and
 *    GPU memory read in place within an NVLink domain; never chosen by the rules.
 * The allgather phases run in the user's receive buffer, so the result needs no final copy. */
#include "coll/axon_coll_reduce_internal.h"
#include "coll/axon_coll_domain.h"
#include "coll/axon_coll_hier.h"

enum {
    AXON_ALLREDUCE_REDUCE_BCAST,
    AXON_ALLREDUCE_RECURSIVE_DOUBLING,
    AXON_ALLREDUCE_RABENSEIFNER,
    AXON_ALLREDUCE_RING,
    AXON_ALLREDUCE_HIER,
    AXON_ALLREDUCE_DOMAIN
};
static const struct axon_coll_alg axon_coll_allreduce_algs[] = {
    [AXON_ALLREDUCE_REDUCE_BCAST] = {"reduce_bcast", "binomial reduce to rank 0, then a binomial broadcast", 0},
    [AXON_ALLREDUCE_RECURSIVE_DOUBLING] = {"recursive_doubling",
                                           "log2(n) exchanges of the whole vector, in rank order", 0},
    [AXON_ALLREDUCE_RABENSEIFNER] = {"rabenseifner",
                                     "reduce-scatter by recursive halving, allgather by recursive doubling", 0},
    [AXON_ALLREDUCE_RING] = {"ring", "reduce-scatter and allgather around the ring, segments of 1/n",
                             AXON_COLL_NEEDS_COMMUTATIVE},
    [AXON_ALLREDUCE_HIER] = {"hier", "a reduce in each node, an allreduce among the node leaders, a bcast in each node",
                             AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_NODES},
    [AXON_ALLREDUCE_DOMAIN] = {"domain",
                               "one NVLink domain: each rank's slice by kernels reading the peers' inputs through "
                               "CUDA IPC, then the slices copied from their owners",
                               AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_DOMAIN},
};
/* GPU buffers on one NVLink domain: the domain algorithm reads and writes each member's memory in place
 * with one kernel per peer, where the others move every byte through messages (bench/results/2026-11-26-h200-domain-collectives.md). */
/* Mid-size vectors across nodes with several ranks on some: reduced in each node first, so one vector
 * a node crosses the network. Below, recursive doubling's fewer steps win; beyond 512 KiB
 * rabenseifner's halving keeps every rank's link busy (bench/results/2026-11-29-cluster.md). */
static const struct axon_coll_rule axon_coll_allreduce_rules[] = {
    {0, 16 * 1024, AXON_ALLREDUCE_RECURSIVE_DOUBLING, 0},
    {0, -1, AXON_ALLREDUCE_DOMAIN, AXON_COLL_NEEDS_DEVICE},
    {0, 512 * 1024, AXON_ALLREDUCE_HIER, AXON_COLL_NEEDS_NODES},
    {0, -1, AXON_ALLREDUCE_RABENSEIFNER, 0},
};
const struct axon_coll_desc axon_coll_allreduce_desc = {
    "allreduce", "bytes of the vector", axon_coll_allreduce_algs, 6, axon_coll_allreduce_rules, 4};

static void axon_coll_allreduce_reduce_bcast(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                             const struct axon_dtype_layout *dt)
{
    char *acc = axon_coll_red_pack(s, in, count, dt);
    if (!acc)
        return;
    char *res = axon_coll_red_binomial(s, acc, count, dt->size);
    if (!res)
        return;
    axon_coll_bcast(s, res, count * dt->size, &axon_coll_bytes, 0);
    axon_coll_red_unpack(s, res, out, 0, count, dt);
}

static void axon_coll_allreduce_recursive_doubling(struct axon_coll_sched *s, const void *in, void *out,
                                                   int64_t count, const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t esize = dt->size, bytes = count * esize;
    struct axon_coll_red_fold f;
    axon_coll_red_fold_init(&f, n, r);
    char *acc = axon_coll_red_pack(s, in, count, dt);
    char *tmp = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!acc || !tmp)
        return;
    axon_coll_red_fold_in(s, &f, acc, tmp, count, esize);
    if (f.q < 0) {
        axon_coll_red_recv_typed(s, out, 0, count, dt, r + 1);
        axon_coll_sched_round(s);
        return;
    }
    for (int mask = 1; mask < f.p; mask <<= 1) {
        int pq = f.q ^ mask, peer = axon_coll_red_fold_rank(&f, pq);
        axon_coll_red_send(s, acc, bytes, peer);
        axon_coll_red_recv(s, tmp, bytes, peer);
        axon_coll_sched_round(s);
        if (pq < f.q) {
            axon_coll_sched_reduce(s, tmp, acc, count);
        } else {
            axon_coll_sched_reduce(s, acc, tmp, count); /* tmp = acc op tmp: the partner is on the right */
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
        axon_coll_sched_round(s);
    }
    if (r < 2 * f.rem)
        axon_coll_red_send(s, acc, bytes, r - 1);
    axon_coll_red_unpack(s, acc, out, 0, count, dt);
    axon_coll_sched_round(s);
}

static void axon_coll_allreduce_rabenseifner(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                             const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t esize = dt->size;
    struct axon_coll_red_fold f;
    axon_coll_red_fold_init(&f, n, r);
    const char *src;
    char *a;
    if (dt->contig && count > 0 && in != out && r >= 2 * f.rem) {
        /* The user's result buffer serves as the halving's first scratch: the kept run is folded there
         * and not copied out at the end (at 2 ranks, 2 of the 5 passes over the data). */
        src = (const char *)in + dt->true_lb;
        a = (char *)out + dt->true_lb;
    } else {
        a = axon_coll_red_pack_halving(s, &f, in, count, dt, &src);
    }
    char *b = axon_coll_sched_alloc(s, (size_t)(count * esize));
    int64_t *pos = axon_coll_sched_alloc_meta(s, sizeof(*pos) * (size_t)(f.p + 1));
    if (!a || !b || !pos)
        return;
    axon_coll_red_split(count, f.p, pos);
    axon_coll_red_fold_in(s, &f, a, b, count, esize);
    if (f.q < 0) {
        axon_coll_red_recv_typed(s, out, 0, count, dt, r + 1);
        axon_coll_sched_round(s);
        return;
    }
    char *cur = axon_coll_red_halve(s, &f, pos, a, b, esize, src);
    int t = axon_coll_red_bitrev(f.q, f.logp);
    axon_coll_red_unpack(s, cur + pos[t] * esize, out, pos[t], pos[t + 1] - pos[t], dt);
    axon_coll_sched_round(s);
    struct axon_coll_red_buf ob = {out, dt, esize};
    axon_coll_red_allgather(s, &f, pos, &ob);
    if (r < 2 * f.rem) {
        axon_coll_red_send_typed(s, out, 0, count, dt, r - 1);
        axon_coll_sched_round(s);
    }
}

/* The ring's reduce-scatter (shared with MPI_Reduce_scatter): in step i rank r passes block r-i-1 to its
 * right and takes in block r-i-2 from its left, so block j starts at rank j+1 and ends, after n-1 hops,
 * at rank j. */
void axon_coll_red_ring_reduce_scatter(struct axon_coll_sched *s, char *acc, char *tmp, const int64_t *disp,
                                       int64_t esize)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = ((r - i - 1) % n + n) % n, rb = ((r - i - 2) % n + n) % n;
        int64_t rcnt = disp[rb + 1] - disp[rb];
        axon_coll_red_send(s, acc + disp[sb] * esize, (disp[sb + 1] - disp[sb]) * esize, right);
        axon_coll_red_recv(s, tmp, rcnt * esize, left);
        axon_coll_sched_round(s);
        if (rcnt > 0) {
            axon_coll_sched_reduce(s, tmp, acc + disp[rb] * esize, rcnt);
            axon_coll_sched_round(s);
        }
    }
}

static void axon_coll_allreduce_ring(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                     const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t esize = dt->size;
    char *acc = axon_coll_red_pack(s, in, count, dt);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(*disp) * (size_t)(n + 1));
    if (!acc || !disp)
        return;
    axon_coll_red_split(count, n, disp);
    char *tmp = axon_coll_sched_alloc(s, (size_t)((disp[1] - disp[0]) * esize)); /* block 0 is the largest */
    if (!tmp)
        return;
    axon_coll_red_ring_reduce_scatter(s, acc, tmp, disp, esize);
    axon_coll_red_unpack(s, acc + disp[r] * esize, out, disp[r], disp[r + 1] - disp[r], dt);
    axon_coll_sched_round(s);
    /* The allgather: in step i rank r passes block r-i to its right, in the user's buffer. */
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = ((r - i) % n + n) % n, rb = ((r - i - 1) % n + n) % n;
        axon_coll_red_send_typed(s, out, disp[sb], disp[sb + 1] - disp[sb], dt, right);
        axon_coll_red_recv_typed(s, out, disp[rb], disp[rb + 1] - disp[rb], dt, left);
        axon_coll_sched_round(s);
    }
}

void axon_coll_allreduce_small(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                               const struct axon_dtype_layout *dt)
{
    axon_coll_allreduce_recursive_doubling(s, in, out, count, dt);
}

void axon_coll_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                         const struct axon_dtype_layout *dt)
{
    switch (axon_coll_select_sched(AXON_COLL_KIND_ALLREDUCE, s, count * dt->size,
                             axon_coll_red_have(s) | axon_coll_hier_have(s) | axon_coll_domain_have(s) |
                                 axon_coll_sched_device_have(s))) {
    case AXON_ALLREDUCE_DOMAIN:
        axon_coll_domain_allreduce(s, in, out, count, dt);
        break;
    case AXON_ALLREDUCE_HIER:
        axon_coll_hier_allreduce(s, in, out, count, dt);
        break;
    case AXON_ALLREDUCE_RECURSIVE_DOUBLING:
        axon_coll_allreduce_recursive_doubling(s, in, out, count, dt);
        break;
    case AXON_ALLREDUCE_RABENSEIFNER:
        axon_coll_allreduce_rabenseifner(s, in, out, count, dt);
        break;
    case AXON_ALLREDUCE_RING:
        axon_coll_allreduce_ring(s, in, out, count, dt);
        break;
    default:
        axon_coll_allreduce_reduce_bcast(s, in, out, count, dt);
        break;
    }
}
