/* When a waiting thread gives its core away: the pure decision behind axon_ucx_wait, made once at
 * MPI_Init from AXON_WAIT_MODE, the node's cores and ranks, and the thread level, and consulted on every
 * idle poll with the count of the process's threads waiting at that moment. */
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

struct axon_ucx_wait_policy axon_ucx_wait_policy_decide(long wait_mode, long oversubscribed, long cores,
                                                        long local_ranks, bool thread_multiple)
{
    struct axon_ucx_wait_policy p = {false, 0};
    if (cores < 1)
        cores = 1;
    if (local_ranks < 1)
        local_ranks = 1;
    switch (wait_mode) {
    case AXON_WAIT_SPIN: return p;
    case AXON_WAIT_YIELD: p.yield_when_idle = true; return p;
    default: break;
    }
    /* The ranks: the launcher's word (mpirun counts the node's ranks), else the cores against them. */
    p.yield_when_idle = oversubscribed >= 0 ? oversubscribed != 0 : local_ranks > cores;
    /* The threads: several waiting at once spin on the cores as ranks do (4 in each of 2 ranks on 2
     * cores keep the one thread the others wait for off its core for a time slice). Every rank of the
     * node is taken to have as many waiting threads as this one, so each gets its share of the cores. */
    if (thread_multiple && !p.yield_when_idle)
        p.spin_threads_max = cores / local_ranks > 0 ? (int)(cores / local_ranks) : 1;
    return p;
}

bool axon_ucx_wait_policy_yields(const struct axon_ucx_wait_policy *p, int waiting_threads)
{
    return p->yield_when_idle || (p->spin_threads_max > 0 && waiting_threads > p->spin_threads_max);
}
