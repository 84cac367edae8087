/* The cost model's answers (coll/axon_coll_select_model.h): for a collective and a size class, the
 * algorithm with the least time that the simulator predicts for the group's nodes. Worked out for the
 * question a build noted, kept in the group's node map, so each class costs one simulation per algorithm
 * once; the builds after it find the answer there.
 *
 * Every member must choose alike, and does: the inputs are the group's size and node shape, the size
 * class, the call's `have` bits and the model, all the same on every rank (the model file too, which the
 * knob's help says), and the simulation is deterministic; every member asks the same questions, since
 * its builds follow the same answers. What the simulator cannot describe takes the rules: gather,
 * scatter and scan are not simulated (their answers are AXON_COLL_MODEL_RULES), and algorithms whose
 * schedules are too long to simulate quickly (AXON_MODEL_MAX_STEPS) are left out of the comparison.
 * Which groups and calls the model answers for at all, coll/axon_coll_select.h says. The simulator's
 * own maps get no answers: their questions are never put here. */
#include "coll/axon_coll_select_model.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_model.h"
#include "coll/axon_coll_simulate.h"
#include "runtime/runtime.h"

#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>

/* An algorithm whose schedules (all ranks) exceed this many steps is left out of the comparison: the
 * first call of a class must not wait seconds (the ring allreduce at 4096 ranks has 33 million). */
#define AXON_MODEL_MAX_STEPS ((int64_t)2 * 1000 * 1000)

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

/* The map's answers, made at the first question: every kind the simulator does not build answers "the
 * rules" at once. NULL when out of memory. The answers belong to the map, which the communicator keeps
 * (a schedule holds it as const). */
static signed char *axon_select_model_answers(const struct axon_coll_nodes *nodes)
{
    struct axon_coll_nodes *map = (struct axon_coll_nodes *)nodes;
    signed char *answers = __atomic_load_n(&map->model_choice, __ATOMIC_ACQUIRE);
    if (answers)
        return answers;
    signed char *fresh = malloc(AXON_COLL_MODEL_SLOTS);
    if (!fresh)
        return NULL;
    for (int i = 0; i < AXON_COLL_MODEL_SLOTS; i++)
        fresh[i] = axon_coll_sim_supports((enum axon_coll_kind)(i / (AXON_COLL_MODEL_CLASSES * 4)))
                       ? AXON_COLL_MODEL_UNKNOWN
                       : AXON_COLL_MODEL_RULES;
    signed char *none = NULL;
    if (!__atomic_compare_exchange_n(&map->model_choice, &none, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        free(fresh);
        return none;
    }
    return fresh;
}

/* The simulator's size of a call (as NCCL's tests count it) from the selection's bytes. */
static int64_t axon_select_sim_bytes(enum axon_coll_kind kind, int n, int64_t bytes)
{
    return kind == AXON_COLL_KIND_ALLGATHER || kind == AXON_COLL_KIND_ALLTOALL ? bytes * n : bytes;
}

/* The algorithm of least predicted time for the question (the rules' when none could be simulated). */
static int axon_select_model_best(const struct axon_coll_sched_miss *q)
{
    int n = q->nranks;
    int rules = axon_coll_select(q->kind, n, q->bytes, q->have);
    pthread_once(&axon_select_model_once, axon_select_model_load);
    struct axon_runtime_topo_spec t = {q->nodes->nnodes, q->nodes->max_per_node, 1, 1, 1};
    struct axon_coll_sim_opts opts = {.memory = AXON_COLL_SIM_HOST, .max_steps = AXON_MODEL_MAX_STEPS};
    const struct axon_coll_desc *d = axon_coll_desc_of(q->kind);
    int best = rules;
    double best_time = -1;
    for (int a = 0; a < d->nalgs; a++) {
        /* Only algorithms this call can run: the same needs the rules check. */
        if (axon_coll_select_with(d, a, n, q->bytes, q->have) != a)
            continue;
        struct axon_coll_sim_call call = {q->kind, a, axon_select_sim_bytes(q->kind, n, q->bytes), NULL,
                                          AXON_COLL_SIM_HOST};
        struct axon_coll_sim_result res = {0};
        if (axon_coll_simulate(&t, &axon_select_model, &call, &opts, &res) != MPI_SUCCESS || res.alg != a)
            continue;
        if (best_time < 0 || res.time < best_time) {
            best = a;
            best_time = res.time;
        }
    }
    axon_runtime_log_debug(2, "the model picks %s for %s of %lld bytes on %d nodes of %d ranks (rules: %s)",
                           d->algs[best].name, d->name, (long long)q->bytes, q->nodes->nnodes,
                           q->nodes->max_per_node, d->algs[rules].name);
    return best;
}

bool axon_coll_select_model_fill(const struct axon_coll_sched *s)
{
    struct axon_coll_sched_miss q;
    if (!axon_coll_sched_miss_get(s, &q))
        return false;
    signed char *answers = axon_select_model_answers(q.nodes);
    if (!answers)
        return false;
    int slot = axon_coll_select_model_slot(q.kind, q.bytes, q.have);
    /* Another thread's build of the same communicator may have answered meanwhile (the same answer). */
    if (__atomic_load_n(&answers[slot], __ATOMIC_ACQUIRE) == AXON_COLL_MODEL_UNKNOWN)
        __atomic_store_n(&answers[slot], (signed char)axon_select_model_best(&q), __ATOMIC_RELEASE);
    return true;
}
