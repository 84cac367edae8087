/* MPI_Scan and MPI_Exscan: rank r gets the reduction of ranks [0, r] (exclusive: [0, r-1]; rank 0's
 * buffer is left alone). Two algorithms, both in rank order:
 *  - linear: a chain; rank r waits for the prefix of the ranks below it. n-1 rounds.
 *  - recursive_doubling: each rank keeps `partial`, the reduction of the aligned run of 2^k ranks around
 *    it, and its result. In step k partners at distance 2^k swap partials; a partial from below is put on
 *    the left of both, one from above on the right of the partial. ceil(log2 n) rounds. */
#include "coll/axon_coll_reduce_internal.h"

enum { AXON_SCAN_LINEAR, AXON_SCAN_RECURSIVE_DOUBLING };
static const struct axon_coll_alg axon_coll_scan_algs[] = {
    [AXON_SCAN_LINEAR] = {"linear", "a chain: rank r waits for the prefix of ranks below it (scan and exscan)", 0},
    [AXON_SCAN_RECURSIVE_DOUBLING] = {"recursive_doubling",
                                      "ceil(log2 n) exchanges of partial reductions, in rank order", 0},
};
static const struct axon_coll_rule axon_coll_scan_rules[] = {{0, -1, AXON_SCAN_RECURSIVE_DOUBLING, 0}};
const struct axon_coll_desc axon_coll_scan_desc = {
    "scan", "bytes of the vector", axon_coll_scan_algs, 2, axon_coll_scan_rules, 1};

static void axon_coll_scan_linear(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                  const struct axon_dtype_layout *dt, bool exclusive)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t bytes = count * dt->size;
    char *mine = axon_coll_red_pack(s, in, count, dt);
    char *prefix = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!mine || !prefix)
        return;
    /* Rank r receives the reduction of ranks [0, r) and passes on that of [0, r]. */
    if (r > 0) {
        axon_coll_red_recv(s, prefix, bytes, r - 1);
        axon_coll_sched_round(s);
        if (exclusive)
            axon_coll_red_unpack(s, prefix, out, 0, count, dt);
        axon_coll_sched_reduce(s, prefix, mine, count);
        axon_coll_sched_round(s);
    }
    if (r + 1 < n)
        axon_coll_red_send(s, mine, bytes, r + 1);
    if (!exclusive)
        axon_coll_red_unpack(s, mine, out, 0, count, dt);
    axon_coll_sched_round(s);
}

/* Whether rank y still exchanges with a partner after the step of distance mask (so it needs its partial
 * brought up to date). */
static bool axon_coll_scan_more(int y, int mask, int n)
{
    for (int m = mask << 1; m > 0 && m < n; m <<= 1)
        if ((y ^ m) < n)
            return true;
    return false;
}

/* Whether rank y uses rank x's partial in the step of distance mask: always from below (its result
 * needs it), from above only to bring its partial up to date for a later step. */
static bool axon_coll_scan_wants(int y, int x, int mask, int n)
{
    return x < y || axon_coll_scan_more(y, mask, n);
}

static void axon_coll_scan_recursive_doubling(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                              const struct axon_dtype_layout *dt, bool exclusive)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t bytes = count * dt->size;
    char *partial = axon_coll_red_pack(s, in, count, dt);
    char *result = exclusive ? axon_coll_sched_alloc(s, (size_t)bytes) : axon_coll_red_pack(s, in, count, dt);
    char *tmp = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!partial || !result || !tmp)
        return;
    bool have = !exclusive; /* whether result holds something yet */
    for (int mask = 1; mask < n && bytes > 0; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= n)
            continue;
        bool more = axon_coll_scan_more(r, mask, n);
        if (axon_coll_scan_wants(peer, r, mask, n))
            axon_coll_red_send(s, partial, bytes, peer);
        if (!axon_coll_scan_wants(r, peer, mask, n)) {
            axon_coll_sched_round(s);
            continue;
        }
        /* The first partial from below is an exclusive scan's result as it stands: straight in. */
        bool first = peer < r && !have;
        axon_coll_red_recv(s, first ? result : tmp, bytes, peer);
        axon_coll_sched_round(s);
        if (peer < r) {
            if (first) {
                if (more)
                    axon_coll_sched_reduce(s, result, partial, count);
                have = true;
            } else {
                if (more)
                    axon_coll_sched_reduce(s, tmp, partial, count);
                axon_coll_sched_reduce(s, tmp, result, count);
            }
        } else {
            axon_coll_sched_reduce(s, partial, tmp, count); /* tmp = partial op tmp: the peer is on the right */
            char *t = partial;
            partial = tmp;
            tmp = t;
        }
        axon_coll_sched_round(s);
    }
    if (have)
        axon_coll_red_unpack(s, result, out, 0, count, dt);
    axon_coll_sched_round(s);
}

void axon_coll_scan(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                    const struct axon_dtype_layout *dt, bool exclusive)
{
    switch (axon_coll_select_sched(AXON_COLL_KIND_SCAN, s, count * dt->size,
                             axon_coll_red_have(s))) {
    case AXON_SCAN_RECURSIVE_DOUBLING:
        axon_coll_scan_recursive_doubling(s, in, out, count, dt, exclusive);
        break;
    default:
        axon_coll_scan_linear(s, in, out, count, dt, exclusive);
        break;
    }
}
