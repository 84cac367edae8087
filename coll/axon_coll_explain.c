/* axon_coll_explain (coll/axon_coll_explain.h): one simulation per algorithm, then the table. */
#include "coll/axon_coll_explain.h"
#include "coll/axon_coll_simulate.h"

#include <mpi.h>
#include <stdlib.h>

/* Calls larger than this (steps over all ranks) are left out: an explanation should take seconds. */
#define AXON_EXPLAIN_MAX_STEPS ((int64_t)20 * 1000 * 1000)

int axon_coll_explain(FILE *out, const struct axon_runtime_topo_spec *t, const struct axon_coll_model *m,
                      enum axon_coll_kind kind, int64_t bytes, bool device, char *why, size_t whylen)
{
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    int n = (int)axon_runtime_topo_spec_ranks(t);
    enum axon_coll_sim_memory memory = device ? AXON_COLL_SIM_DEVICE : AXON_COLL_SIM_HOST;
    struct axon_coll_sim_opts opts = {.memory = memory, .max_steps = AXON_EXPLAIN_MAX_STEPS};
    struct axon_coll_sim_call call = {.kind = kind, .alg = -1, .bytes = bytes, .memory = memory};
    int rules = axon_coll_sim_alg(&call, t);
    int64_t size = axon_coll_sim_size(&call, n);
    fprintf(out, "# %s of %lld bytes on nodes=%d,ranks_per_node=%d,domains_per_node=%d,nics_per_node=%d (%d ranks)%s\n",
            d->name, (long long)size, t->nodes, t->ranks_per_node, t->domains_per_node, t->nics_per_node, n,
            device ? ", GPU buffers" : "");
    fprintf(out, "# %-24s %14s %12s  %s\n", "algorithm", "predicted us", "busbw GB/s", "");
    int best = -1;
    double best_time = 0;
    double *times = calloc((size_t)d->nalgs, sizeof(double));
    if (!times) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    for (int a = 0; a < d->nalgs; a++) {
        call.alg = a;
        struct axon_coll_sim_result res = {0};
        int rc = axon_coll_simulate(t, m, &call, &opts, &res);
        if (rc == MPI_SUCCESS && res.alg != a) {
            fprintf(out, "  %-24s %14s %12s  does not apply to this call\n", d->algs[a].name, "-", "-");
            continue;
        }
        if (rc != MPI_SUCCESS) {
            fprintf(out, "  %-24s %14s %12s  not simulated: %s\n", d->algs[a].name, "-", "-", res.why);
            continue;
        }
        times[a] = res.time;
        if (best < 0 || res.time < best_time) {
            best = a;
            best_time = res.time;
        }
        fprintf(out, "  %-24s %14.3f %12.3f  %s\n", d->algs[a].name, res.time * 1e6,
                axon_coll_sim_busbw(kind, n, size, res.time) / 1e9, a == rules ? "<- the rules' choice" : "");
    }
    if (best < 0) {
        snprintf(why, whylen, "no algorithm could be simulated");
        free(times);
        return -1;
    }
    fprintf(out, "# least predicted time: %s", d->algs[best].name);
    if (best != rules && times[rules] > 0)
        fprintf(out, " (%.2fx faster than the rules' %s)", times[rules] / best_time, d->algs[rules].name);
    fprintf(out, "\n");
    free(times);
    return best;
}
