/* Selection by the cost model (AXON_COLL_SELECT=model): for a collective and a size class, the algorithm
 * with the least time that the simulator predicts (coll/axon_coll_simulate.h) for the communicator's
 * nodes. Worked out at the first call of each class on the communicator and kept in its node map, so
 * it costs one simulation per algorithm once; later calls look it up.
 *
 * Every member must choose alike, and does: the inputs are the communicator's size and node shape,
 * the size class, the call's `have` bits and the model, all the same on every rank (the model file too,
 * which the knob's help says), and the simulation is deterministic. What the simulator cannot describe
 * takes the rules: gather, scatter and scan (not simulated), groups whose nodes are not all of one size
 * or that are larger than AXON_MODEL_MAX_RANKS (the first call would wait too long; so are algorithms
 * whose schedules are too long to simulate quickly, AXON_MODEL_MAX_STEPS), calls inside a
 * composition's subgroup (no map) and the simulator's own schedules (no_model). */
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_model.h"
#include "coll/axon_coll_simulate.h"
#include "runtime/runtime.h"

#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>

#define AXON_MODEL_MAX_RANKS 4096
/* An algorithm whose schedules (all ranks) exceed this many steps is left out of the comparison: the
 * first call of a class must not wait seconds (the ring allreduce at 4096 ranks has 33 million). */
#define AXON_MODEL_MAX_STEPS ((int64_t)2 * 1000 * 1000)
#define AXON_MODEL_CLASSES 48 /* 0 bytes, then [2^(c-1), 2^c) */

static struct axon_coll_model axon_select_model;
static pthread_once_t axon_select_model_once = PTHREAD_ONCE_INIT;

static void axon_select_model_load(void)
{
    axon_coll_model_defaults(&axon_select_model);
    if (!axon_config.coll_model_file[0])
        return;
    char why[512];
    if (axon_coll_model_load(&axon_select_model, axon_config.coll_model_file, why, sizeof(why)) != MPI_SUCCESS)
        axon_runtime_log_error("AXON_COLL_MODEL_FILE: %s; using the model's defaults", why);
}

static int axon_select_class(int64_t bytes)
{
    int c = 0;
    while (bytes > 0 && c < AXON_MODEL_CLASSES - 1) {
        bytes >>= 1;
        c++;
    }
    return c;
}

/* The simulator's size of a call (as NCCL's tests count it) from the selection's bytes. */
static int64_t axon_select_sim_bytes(enum axon_coll_kind kind, int n, int64_t bytes)
{
    return kind == AXON_COLL_KIND_ALLGATHER || kind == AXON_COLL_KIND_ALLTOALL ? bytes * n : bytes;
}

int axon_coll_select_sched(enum axon_coll_kind kind, struct axon_coll_sched *s, int64_t bytes, unsigned have)
{
    int n = axon_coll_sched_size(s);
    int rules = axon_coll_select(kind, n, bytes, have);
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    if (axon_config.coll_select != 1 || axon_coll_select_forced(kind) >= 0 || !nodes || nodes->no_model ||
        !axon_coll_sim_supports(kind) || n > AXON_MODEL_MAX_RANKS || n < 2 ||
        nodes->nnodes * nodes->max_per_node != nodes->nranks)
        return rules;
    /* The cache belongs to the map, which the communicator keeps (the schedule holds it as const). */
    struct axon_coll_nodes *map = (struct axon_coll_nodes *)nodes;
    signed char *cache = __atomic_load_n(&map->model_choice, __ATOMIC_ACQUIRE);
    if (!cache) {
        signed char *fresh = malloc(AXON_COLL_NKINDS * AXON_MODEL_CLASSES * 4);
        if (!fresh)
            return rules;
        for (int i = 0; i < AXON_COLL_NKINDS * AXON_MODEL_CLASSES * 4; i++)
            fresh[i] = -1;
        signed char *none = NULL;
        if (!__atomic_compare_exchange_n(&map->model_choice, &none, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            free(fresh);
            cache = none;
        } else {
            cache = fresh;
        }
    }
    /* What the call offers makes classes of their own: a commutative operation, equal blocks (a v-form
     * must never get an algorithm chosen for the equal-block form of the same size). */
    unsigned offers = have & (AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_UNIFORM);
    _Static_assert((AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_UNIFORM) == 3, "two bits of offers");
    int slot = (kind * AXON_MODEL_CLASSES + axon_select_class(bytes)) * 4 + (int)offers;
    signed char known = __atomic_load_n(&cache[slot], __ATOMIC_ACQUIRE);
    if (known >= 0)
        return known;

    pthread_once(&axon_select_model_once, axon_select_model_load);
    struct axon_runtime_topo_spec t = {nodes->nnodes, nodes->max_per_node, 1, 1, 1};
    struct axon_coll_sim_opts opts = {.memory = AXON_COLL_SIM_HOST, .max_steps = AXON_MODEL_MAX_STEPS};
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    int best = rules;
    double best_time = -1;
    for (int a = 0; a < d->nalgs; a++) {
        /* Only algorithms this call can run: the same needs the rules check. */
        if (axon_coll_select_with(d, a, n, bytes, have) != a)
            continue;
        struct axon_coll_sim_call call = {kind, a, axon_select_sim_bytes(kind, n, bytes), NULL, AXON_COLL_SIM_HOST};
        struct axon_coll_sim_result res = {0};
        if (axon_coll_simulate(&t, &axon_select_model, &call, &opts, &res) != MPI_SUCCESS || res.alg != a)
            continue;
        if (best_time < 0 || res.time < best_time) {
            best = a;
            best_time = res.time;
        }
    }
    axon_runtime_log_debug(2, "the model picks %s for %s of %lld bytes on %d nodes of %d ranks (rules: %s)",
                           d->algs[best].name, d->name, (long long)bytes, nodes->nnodes, nodes->max_per_node,
                           d->algs[rules].name);
    __atomic_store_n(&cache[slot], (signed char)best, __ATOMIC_RELEASE);
    return best;
}
