/* MPI_Bcast: a binomial tree over ranks relative to the root. A rank receives from the rank without
 * its lowest set bit, then sends to the ranks below that bit, all at once. Any size; derived types
 * travel with their layout. */
#include "coll/coll.h"

enum { AXON_BCAST_BINOMIAL };

static const struct axon_coll_alg axon_coll_bcast_algs[] = {
    [AXON_BCAST_BINOMIAL] = {"binomial", "binomial tree from the root: ceil(log2 n) rounds of the whole message", 0},
};
static const struct axon_coll_rule axon_coll_bcast_rules[] = {{0, -1, AXON_BCAST_BINOMIAL}};
const struct axon_coll_desc axon_coll_bcast_desc = {
    "bcast", "bytes of the message", axon_coll_bcast_algs, 1, axon_coll_bcast_rules, 1};

static void axon_coll_bcast_binomial(struct axon_coll_sched *s, void *buf, int64_t count,
                                     const struct axon_dtype_layout *dt, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    if (n <= 1)
        return;
    int rel = (r - root + n) % n;
    int mask = 1;
    while (mask < n) {
        if (rel & mask) {
            axon_coll_sched_recv(s, buf, count, dt, (rel - mask + root) % n);
            axon_coll_sched_round(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            axon_coll_sched_send(s, buf, count, dt, (rel + mask + root) % n);
    axon_coll_sched_round(s);
}

void axon_coll_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                     int root)
{
    switch (axon_coll_select(AXON_COLL_KIND_BCAST, axon_coll_sched_size(s), count * dt->size, 0)) {
    default:
        axon_coll_bcast_binomial(s, buf, count, dt, root);
        break;
    }
}
