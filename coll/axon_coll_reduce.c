/* The reductions: MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter(_block), MPI_Scan and MPI_Exscan.
 * They run on packed copies of the data. The reduction proper is a binomial tree rooted at rank 0 in
 * which a rank always holds the result of a run of consecutive ranks starting at itself, and combines
 * it with the run that follows (lower ranks on the left), so the result is in rank order and right for
 * non-commutative operations too; a root other than 0 gets the result in one more message. First cut:
 * allreduce is that reduce and a broadcast, reduce-scatter that reduce and a scatter. */
#include "coll/coll.h"

enum { AXON_REDUCE_BINOMIAL };
static const struct axon_coll_alg axon_coll_reduce_algs[] = {
    [AXON_REDUCE_BINOMIAL] = {"binomial", "binomial tree to rank 0 in rank order, then to the root", 0},
};
static const struct axon_coll_rule axon_coll_reduce_rules[] = {{0, -1, AXON_REDUCE_BINOMIAL}};
const struct axon_coll_desc axon_coll_reduce_desc = {
    "reduce", "bytes of the vector", axon_coll_reduce_algs, 1, axon_coll_reduce_rules, 1};

enum { AXON_ALLREDUCE_REDUCE_BCAST };
static const struct axon_coll_alg axon_coll_allreduce_algs[] = {
    [AXON_ALLREDUCE_REDUCE_BCAST] = {"reduce_bcast", "binomial reduce to rank 0, then a binomial broadcast", 0},
};
static const struct axon_coll_rule axon_coll_allreduce_rules[] = {{0, -1, AXON_ALLREDUCE_REDUCE_BCAST}};
const struct axon_coll_desc axon_coll_allreduce_desc = {
    "allreduce", "bytes of the vector", axon_coll_allreduce_algs, 1, axon_coll_allreduce_rules, 1};

enum { AXON_REDUCE_SCATTER_REDUCE_THEN_SCATTER };
static const struct axon_coll_alg axon_coll_reduce_scatter_algs[] = {
    [AXON_REDUCE_SCATTER_REDUCE_THEN_SCATTER] = {"reduce_then_scatter",
                                                 "binomial reduce of the whole vector to rank 0, then a scatter", 0},
};
static const struct axon_coll_rule axon_coll_reduce_scatter_rules[] = {
    {0, -1, AXON_REDUCE_SCATTER_REDUCE_THEN_SCATTER}};
const struct axon_coll_desc axon_coll_reduce_scatter_desc = {
    "reduce_scatter", "bytes of the whole vector", axon_coll_reduce_scatter_algs, 1,
    axon_coll_reduce_scatter_rules, 1};

enum { AXON_SCAN_LINEAR };
static const struct axon_coll_alg axon_coll_scan_algs[] = {
    [AXON_SCAN_LINEAR] = {"linear", "a chain: rank r waits for the prefix of ranks below it (scan and exscan)", 0},
};
static const struct axon_coll_rule axon_coll_scan_rules[] = {{0, -1, AXON_SCAN_LINEAR}};
const struct axon_coll_desc axon_coll_scan_desc = {
    "scan", "bytes of the vector", axon_coll_scan_algs, 1, axon_coll_scan_rules, 1};

/* Reduces the packed vectors acc (count elements of esize bytes) of all ranks to rank root. Returns the
 * scratch buffer that holds the result at the root; at other ranks, a buffer of the same size that is
 * free once the schedule has passed this point. NULL when out of memory. */
static void *axon_coll_reduce_packed(struct axon_coll_sched *s, void *acc, int64_t count, int64_t esize, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t bytes = count * esize;
    if (n == 1)
        return acc;
    void *other = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!other)
        return NULL;
    void *cur = acc;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (r & mask) {
            axon_coll_sched_send(s, cur, bytes, &axon_coll_bytes, r - mask);
            axon_coll_sched_round(s);
            break;
        }
        if (r + mask < n) {
            axon_coll_sched_recv(s, other, bytes, &axon_coll_bytes, r + mask);
            axon_coll_sched_round(s);
            /* cur holds ranks [r, r+mask), other the ranks after: other = cur op other. */
            axon_coll_sched_reduce(s, cur, other, count);
            axon_coll_sched_round(s);
            void *t = cur;
            cur = other;
            other = t;
        }
    }
    if (root != 0) {
        if (r == 0)
            axon_coll_sched_send(s, cur, bytes, &axon_coll_bytes, root);
        else if (r == root)
            axon_coll_sched_recv(s, cur, bytes, &axon_coll_bytes, 0);
        axon_coll_sched_round(s);
    }
    return cur;
}

/* A packed copy of count elements of dt at in (scratch); NULL when out of memory. */
static void *axon_coll_pack_in(struct axon_coll_sched *s, const void *in, int64_t count,
                               const struct axon_dtype_layout *dt)
{
    int64_t bytes = count * dt->size;
    void *acc = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!acc)
        return NULL;
    axon_coll_sched_copy(s, in, count, dt, acc, bytes, &axon_coll_bytes);
    axon_coll_sched_round(s);
    return acc;
}

static void axon_coll_reduce_binomial(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                      const struct axon_dtype_layout *dt, int root)
{
    void *acc = axon_coll_pack_in(s, in, count, dt);
    if (!acc)
        return;
    void *res = axon_coll_reduce_packed(s, acc, count, dt->size, root);
    if (res && axon_coll_sched_rank(s) == root)
        axon_coll_sched_copy(s, res, count * dt->size, &axon_coll_bytes, out, count, dt);
}

static void axon_coll_allreduce_reduce_bcast(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                             const struct axon_dtype_layout *dt)
{
    void *acc = axon_coll_pack_in(s, in, count, dt);
    if (!acc)
        return;
    void *res = axon_coll_reduce_packed(s, acc, count, dt->size, 0);
    if (!res)
        return;
    axon_coll_bcast(s, res, count * dt->size, &axon_coll_bytes, 0);
    axon_coll_sched_copy(s, res, count * dt->size, &axon_coll_bytes, out, count, dt);
}

static void axon_coll_reduce_scatter_reduce_then_scatter(struct axon_coll_sched *s, const void *in, void *out,
                                                        const int64_t *counts, const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t total = 0;
    for (int j = 0; j < n; j++)
        total += counts[j];
    void *acc = axon_coll_pack_in(s, in, total, dt);
    if (!acc)
        return;
    char *res = axon_coll_reduce_packed(s, acc, total, dt->size, 0);
    if (!res)
        return;
    struct axon_coll_block *blocks = NULL;
    if (r == 0) {
        blocks = axon_coll_sched_alloc(s, sizeof(*blocks) * (size_t)n);
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

static void axon_coll_scan_linear(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                  const struct axon_dtype_layout *dt, bool exclusive)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t bytes = count * dt->size;
    void *mine = axon_coll_pack_in(s, in, count, dt);
    void *prefix = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!mine || !prefix)
        return;
    /* A chain: rank r receives the reduction of ranks [0, r) and passes on that of [0, r]. */
    if (r > 0) {
        axon_coll_sched_recv(s, prefix, bytes, &axon_coll_bytes, r - 1);
        axon_coll_sched_round(s);
        if (exclusive)
            axon_coll_sched_copy(s, prefix, bytes, &axon_coll_bytes, out, count, dt);
        axon_coll_sched_reduce(s, prefix, mine, count);
        axon_coll_sched_round(s);
    }
    if (r + 1 < n)
        axon_coll_sched_send(s, mine, bytes, &axon_coll_bytes, r + 1);
    if (!exclusive)
        axon_coll_sched_copy(s, mine, bytes, &axon_coll_bytes, out, count, dt);
    axon_coll_sched_round(s);
}

/* ---- entry points --------------------------------------------------------------------------------- */

/* What a reduction offers the selection: its operation's commutativity. */
static unsigned axon_coll_reduction_have(const struct axon_coll_sched *s)
{
    return axon_coll_sched_commutative(s) ? AXON_COLL_NEEDS_COMMUTATIVE : 0;
}

void axon_coll_reduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                      const struct axon_dtype_layout *dt, int root)
{
    switch (axon_coll_select(AXON_COLL_KIND_REDUCE, axon_coll_sched_size(s), count * dt->size,
                             axon_coll_reduction_have(s))) {
    default:
        axon_coll_reduce_binomial(s, in, out, count, dt, root);
        break;
    }
}

void axon_coll_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                         const struct axon_dtype_layout *dt)
{
    switch (axon_coll_select(AXON_COLL_KIND_ALLREDUCE, axon_coll_sched_size(s), count * dt->size,
                             axon_coll_reduction_have(s))) {
    default:
        axon_coll_allreduce_reduce_bcast(s, in, out, count, dt);
        break;
    }
}

void axon_coll_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                              const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s);
    int64_t total = 0;
    for (int j = 0; j < n; j++)
        total += counts[j];
    switch (axon_coll_select(AXON_COLL_KIND_REDUCE_SCATTER, n, total * dt->size, axon_coll_reduction_have(s))) {
    default:
        axon_coll_reduce_scatter_reduce_then_scatter(s, in, out, counts, dt);
        break;
    }
}

void axon_coll_scan(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                    const struct axon_dtype_layout *dt, bool exclusive)
{
    switch (axon_coll_select(AXON_COLL_KIND_SCAN, axon_coll_sched_size(s), count * dt->size,
                             axon_coll_reduction_have(s))) {
    default:
        axon_coll_scan_linear(s, in, out, count, dt, exclusive);
        break;
    }
}
