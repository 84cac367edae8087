/* MPI_Barrier: dissemination. In round k every rank signals rank + 2^k and waits for rank - 2^k; after
 * ceil(log2 n) rounds every rank has heard, directly or not, from every other. Any size. */
#include "coll/coll.h"
#include "coll/axon_coll_hier.h"

enum { AXON_BARRIER_DISSEMINATION, AXON_BARRIER_HIER };

static const struct axon_coll_alg axon_coll_barrier_algs[] = {
    [AXON_BARRIER_DISSEMINATION] = {"dissemination", "ceil(log2 n) rounds, one message each way per round", 0},
    [AXON_BARRIER_HIER] = {"hier", "a barrier in each node, among the node leaders, in each node again",
                           AXON_COLL_NEEDS_NODES},
};
/* Across nodes with several ranks on some: the node's barrier through shared memory, then few messages
 * between nodes (bench/results/2026-11-29-cluster.md). */
static const struct axon_coll_rule axon_coll_barrier_rules[] = {{0, -1, AXON_BARRIER_HIER, AXON_COLL_NEEDS_NODES},
                                                                {0, -1, AXON_BARRIER_DISSEMINATION, 0}};
const struct axon_coll_desc axon_coll_barrier_desc = {
    "barrier", "none", axon_coll_barrier_algs, 2, axon_coll_barrier_rules, 2};

static void axon_coll_barrier_dissemination(struct axon_coll_sched *s)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    for (int k = 1; k < n; k <<= 1) {
        axon_coll_sched_recv(s, NULL, 0, &axon_coll_bytes, (r - k + n) % n);
        axon_coll_sched_send(s, NULL, 0, &axon_coll_bytes, (r + k) % n);
        axon_coll_sched_round(s);
    }
}

void axon_coll_barrier(struct axon_coll_sched *s)
{
    /* One algorithm: the selection still runs, so AXON_COLL_BARRIER_ALG is checked like the others. */
    int alg = axon_coll_select_sched(AXON_COLL_KIND_BARRIER, s, 0, axon_coll_hier_have(s));
    /* Steps added before belong to earlier rounds: the barrier comes after them. */
    axon_coll_sched_round(s);
    switch (alg) {
    case AXON_BARRIER_HIER:
        axon_coll_hier_barrier(s);
        break;
    default:
        axon_coll_barrier_dissemination(s);
        break;
    }
}
