/* The simulator's engine (coll/axon_coll_simulate.h) against what is known exactly:
 *  - for every collective it builds, every algorithm, 2..16 ranks and sizes from empty to several
 *    segments, the messages and bytes each rank sends agree with an exact run of the same schedules on
 *    real data through the strict fake transport (tests/unit/coll_sim.h);
 *  - closed forms of the time: a ring allreduce on 4 ranks of one node (rendezvous and eager, and with
 *    the node's capacity shared by its 4 transfers), recursive doubling on 2 nodes whose NICs the two
 *    transfers of the fabric step share, the domain algorithms' GPU work on GPU buffers;
 *  - dry schedules: placeholders are distinct and untouchable, a dry schedule does not start, and a
 *    64 GiB allreduce simulates (it would need 256 GiB if anything were allocated);
 *  - a call estimated above the limit is refused with its estimate. */
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_op.h"
#include "coll/axon_coll_simulate.h"
#include "coll/coll.h"
#include "runtime/runtime.h"
#include "tests/unit/coll_sim.h"

#include <check.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const enum axon_coll_kind kinds[] = {AXON_COLL_KIND_BARRIER,   AXON_COLL_KIND_BCAST,
                                            AXON_COLL_KIND_REDUCE,    AXON_COLL_KIND_ALLREDUCE,
                                            AXON_COLL_KIND_ALLGATHER, AXON_COLL_KIND_ALLTOALL,
                                            AXON_COLL_KIND_REDUCE_SCATTER};
enum { NKINDS = sizeof(kinds) / sizeof(kinds[0]), MAXN = 16 };

/* ---- against the exact runs ------------------------------------------------------------------------- */

struct vcall {
    struct axon_coll_sim_call call;
    char *send[MAXN], *recv[MAXN];
    const struct axon_coll_nodes *nodes; /* the simulated machine's, for the compositions */
};

static void vbuild(struct axon_coll_sched *s, int r, void *arg)
{
    struct vcall *v = arg;
    axon_coll_sched_set_nodes(s, v->nodes);
    axon_coll_sim_add(s, &v->call, v->send[r], v->recv[r]);
}

static void agree(enum axon_coll_kind kind, int alg, int n, int64_t bytes)
{
    const char *name = axon_coll_desc_of(kind)->name, *algname = axon_coll_desc_of(kind)->algs[alg].name;
    bool reduction = kind == AXON_COLL_KIND_REDUCE || kind == AXON_COLL_KIND_ALLREDUCE ||
                     kind == AXON_COLL_KIND_REDUCE_SCATTER;
    struct vcall v = {.call = {kind, alg, bytes, reduction ? axon_coll_op_get(MPI_SUM) : NULL}};
    /* Two nodes when n is even, so the levels differ (and the compositions apply); the counts must not
     * care. The exact run gets the same node map as the simulation. */
    struct axon_runtime_topo_spec t = {n % 2 ? 1 : 2, n % 2 ? n : n / 2, 1, 1, 1};
    int ids[MAXN];
    for (int r = 0; r < n; r++)
        ids[r] = axon_runtime_topo_spec_node(&t, r);
    struct axon_coll_nodes nodes;
    ck_assert_int_eq(axon_coll_nodes_build(&nodes, ids, n, t.nodes), MPI_SUCCESS);
    v.nodes = &nodes;
    int64_t sb, rb;
    axon_coll_sim_buffers(&v.call, n, &sb, &rb);
    for (int r = 0; r < n; r++) {
        v.send[r] = calloc(1, (size_t)sb + 1);
        v.recv[r] = calloc(1, (size_t)rb + 1);
        ck_assert(v.send[r] && v.recv[r]);
    }
    static struct coll_sim_report rep;
    int rc = coll_sim_run(n, vbuild, &v, &rep);
    ck_assert_msg(rc == 0, "%s/%s n=%d bytes=%lld: %s", name, algname, n, (long long)bytes, rep.why);
    for (int r = 0; r < n; r++) {
        free(v.send[r]);
        free(v.recv[r]);
    }

    axon_coll_nodes_free(&nodes);
    struct axon_coll_model m;
    axon_coll_model_defaults(&m);
    struct axon_coll_sim_opts o = {AXON_COLL_SIM_HOST, 0};
    int64_t msgs[MAXN], sent[MAXN];
    struct axon_coll_sim_result res = {.rank_messages = msgs, .rank_bytes = sent};
    v.call.op = NULL;
    rc = axon_coll_simulate(&t, &m, &v.call, &o, &res);
    ck_assert_msg(rc == MPI_SUCCESS, "%s/%s n=%d bytes=%lld: %s", name, algname, n, (long long)bytes, res.why);
    /* The algorithm itself, or the rules' where it does not apply (a composition on one node). */
    ck_assert_int_eq(res.alg, axon_coll_sim_alg(&v.call, &t));
    ck_assert_int_eq(res.messages, rep.messages);
    ck_assert_int_eq(res.bytes, rep.bytes);
    for (int r = 0; r < n; r++)
        ck_assert_msg(msgs[r] == rep.rank_messages[r] && sent[r] == rep.rank_bytes[r],
                      "%s/%s n=%d bytes=%lld: rank %d sends %lld messages of %lld bytes in the simulator, %ld of %ld "
                      "in the exact run",
                      name, algname, n, (long long)bytes, r, (long long)msgs[r], (long long)sent[r],
                      rep.rank_messages[r], rep.rank_bytes[r]);
    ck_assert(res.time >= 0 && isfinite(res.time));
    ck_assert(bytes == 0 || res.messages == 0 || res.time > 0);
}

START_TEST(agrees_with_exact_runs)
{
    enum axon_coll_kind kind = kinds[_i];
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    /* Empty, smaller than a block per rank, odd, and beyond the chain bcast's 64 KiB segment. */
    static const int64_t sizes[] = {0, 6, 100, 4100, 70001};
    for (int n = 2; n <= MAXN; n++)
        for (int alg = 0; alg < d->nalgs; alg++)
            for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
                agree(kind, alg, n, sizes[k]);
}
END_TEST

/* ---- closed forms ------------------------------------------------------------------------------------ */

/* A model whose every cost is distinct, so a term counted wrong shows. */
static void closed_model(struct axon_coll_model *m)
{
    axon_coll_model_defaults(m);
    m->level[AXON_COLL_LEVEL_NODE] = (struct axon_coll_model_level){.alpha = 1e-6, .beta = 1e-9, .gamma = 3e-10};
    m->level[AXON_COLL_LEVEL_FABRIC] = (struct axon_coll_model_level){.alpha = 5e-6, .beta = 2e-9};
    m->overhead = 1e-7;
    m->copy_beta = 5e-10;
    m->eager_max = 0;
    m->call = 0; /* the closed forms count steps; ring_allreduce_closed_form checks the call's cost */
}

/* The predicted time of a call forced to alg on topo, its buffers in memory. */
static double simulate_in(const char *topo, const struct axon_coll_model *m, enum axon_coll_kind kind, const char *alg,
                          int64_t bytes, enum axon_coll_sim_memory memory)
{
    struct axon_runtime_topo_spec t;
    char why[512];
    ck_assert_int_eq(axon_runtime_topo_parse(topo, &t, why, sizeof(why)), MPI_SUCCESS);
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    int a = 0;
    while (strcmp(d->algs[a].name, alg) != 0)
        a++;
    struct axon_coll_sim_call c = {kind, a, bytes, NULL, memory};
    struct axon_coll_sim_opts o = {memory, 0};
    struct axon_coll_sim_result res = {0};
    ck_assert_int_eq(axon_coll_simulate(&t, m, &c, &o, &res), MPI_SUCCESS);
    ck_assert_int_eq(res.alg, a);
    return res.time;
}

static double simulate(const char *topo, const struct axon_coll_model *m, enum axon_coll_kind kind, const char *alg,
                       int64_t bytes)
{
    return simulate_in(topo, m, kind, alg, bytes, AXON_COLL_SIM_HOST);
}

/* A model in which everything costs nothing: a test sets the figures it checks. */
static void free_model(struct axon_coll_model *m)
{
    axon_coll_model_defaults(m);
    for (int l = 0; l < AXON_COLL_NLEVELS; l++)
        m->level[l] = (struct axon_coll_model_level){0};
    m->overhead = m->copy_beta = m->call = 0;
}

START_TEST(ring_allreduce_closed_form)
{
    struct axon_coll_model m;
    closed_model(&m);
    const double A = 1e-6, B = 1e-9, G = 3e-10, O = 1e-7, C = 5e-10;
    const double S = 4096, b = S / 4; /* 1024 floats: four blocks of 1 KiB */
    /* Pack the vector; 3 steps of (post send and receive, one transfer, reduce the block); unpack the
     * own block; 3 steps of (post send and receive, one transfer). Each round's transfers start when
     * the later side (the receive) is posted. */
    double rendezvous = C * S + 3 * (2 * O + A + b * B + G * b) + C * b + 3 * (2 * O + A + b * B);
    double t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - rendezvous) < 1e-12, "ring: %.15g s, closed form %.15g s", t, rendezvous);

    /* Eager: a transfer leaves when its send is posted, one overhead before the receive is. */
    m.eager_max = 1 << 20;
    double eager = rendezvous - 6 * O;
    t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - eager) < 1e-12, "ring, eager: %.15g s, closed form %.15g s", t, eager);

    /* The call's own cost: every rank starts its first step that much later. */
    m.call = 7e-7;
    t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - (eager + 7e-7)) < 1e-12, "ring, with a call cost: %.15g s, closed form %.15g s", t,
                  eager + 7e-7);
    m.call = 0;

    /* The node's shared memory gives its four concurrent transfers half a transfer's bandwidth each. */
    m.eager_max = 0;
    m.level[AXON_COLL_LEVEL_NODE].capacity = 2 / B;
    double shared = C * S + 3 * (2 * O + A + 2 * b * B + G * b) + C * b + 3 * (2 * O + A + 2 * b * B);
    t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - shared) < 1e-12, "ring, shared: %.15g s, closed form %.15g s", t, shared);
    /* Four times the capacity: no transfer is held back. */
    m.level[AXON_COLL_LEVEL_NODE].capacity = 4 / B;
    t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - rendezvous) < 1e-12, "ring, capacity of 4: %.15g s, closed form %.15g s", t, rendezvous);
    /* Transfers of at most node.capacity_min bytes stay in the caches: the half capacity holds none of
     * the 1 KiB blocks back, and holds them back again one byte below. */
    m.level[AXON_COLL_LEVEL_NODE].capacity = 2 / B;
    m.level[AXON_COLL_LEVEL_NODE].capacity_min = b;
    t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - rendezvous) < 1e-12, "ring, blocks under capacity_min: %.15g s, closed form %.15g s", t,
                  rendezvous);
    m.level[AXON_COLL_LEVEL_NODE].capacity_min = b - 1;
    t = simulate("nodes=1,ranks_per_node=4", &m, AXON_COLL_KIND_ALLREDUCE, "ring", (int64_t)S);
    ck_assert_msg(fabs(t - shared) < 1e-12, "ring, blocks over capacity_min: %.15g s, closed form %.15g s", t, shared);
}
END_TEST

/* The domain algorithms on GPU buffers of one domain, with only the GPU's costs left (every message and
 * post free): their GPU operations (domain.launch each) and bytes (domain.beta each, or a share of
 * domain.capacity). A fused allreduce is one kernel over n slices, a fused reduce too (into the root's
 * result alone); a bcast's non-root ranks copy the
 * vector once; an allgather's and an alltoall's ranks copy every block, their own too (not in place),
 * by one copy-list launch (16 blocks a launch). With host buffers, or a machine of two domains, the
 * algorithms do not apply. */
START_TEST(domain_gpu_closed_form)
{
    struct axon_coll_model m;
    free_model(&m);
    const double L = 7e-6, Bd = 2e-12, S = 4096;
    m.level[AXON_COLL_LEVEL_DOMAIN].launch = L;
    m.level[AXON_COLL_LEVEL_DOMAIN].beta = Bd;
    const char *one = "nodes=1,ranks_per_node=4";
    /* The descriptors' exchange and the barriers are host messages (the node's level, free here): the
     * forms hold exactly. */
    static const struct {
        enum axon_coll_kind kind;
        int ops;
    } forms[] = {{AXON_COLL_KIND_ALLREDUCE, 1}, {AXON_COLL_KIND_BCAST, 1}, {AXON_COLL_KIND_ALLGATHER, 1},
                 {AXON_COLL_KIND_ALLTOALL, 1},  {AXON_COLL_KIND_REDUCE, 1}};
    for (int shared = 0; shared < 2; shared++) {
        /* Shared: one GPU for the four ranks at twice a rank's rate, so each gets half a rank's. */
        m.level[AXON_COLL_LEVEL_DOMAIN].capacity = shared ? 2 / Bd : 0;
        double b = shared ? 2 * Bd : Bd;
        for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
            const char *name = axon_coll_desc_of(forms[k].kind)->name;
            double t1 = simulate_in(one, &m, forms[k].kind, "domain", (int64_t)S, AXON_COLL_SIM_DEVICE);
            double t2 = simulate_in(one, &m, forms[k].kind, "domain", (int64_t)(2 * S), AXON_COLL_SIM_DEVICE);
            ck_assert_msg(fabs(t2 - t1 - S * b) < 1e-15, "domain %s%s: %.15g s more for %g bytes more, not %.15g",
                          name, shared ? " (shared GPU)" : "", t2 - t1, S, S * b);
            double form = forms[k].ops * L + S * b;
            ck_assert_msg(fabs(t1 - form) < 1e-15, "domain %s%s: %.15g s, closed form %.15g s", name,
                          shared ? " (shared GPU)" : "", t1, form);
        }
    }

    /* Where they do not apply. */
    const struct axon_coll_desc *d = axon_coll_desc_of(AXON_COLL_KIND_ALLREDUCE);
    int a = 0;
    while (strcmp(d->algs[a].name, "domain") != 0)
        a++;
    struct axon_runtime_topo_spec t1, t2;
    char why[256];
    ck_assert_int_eq(axon_runtime_topo_parse(one, &t1, why, sizeof(why)), MPI_SUCCESS);
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=1,ranks_per_node=4,domains_per_node=2", &t2, why, sizeof(why)),
                     MPI_SUCCESS);
    struct axon_coll_sim_call c = {AXON_COLL_KIND_ALLREDUCE, a, (int64_t)S, NULL, AXON_COLL_SIM_DEVICE};
    ck_assert_int_eq(axon_coll_sim_alg(&c, &t1), a);
    ck_assert_int_ne(axon_coll_sim_alg(&c, &t2), a);
    c.memory = AXON_COLL_SIM_HOST;
    ck_assert_int_ne(axon_coll_sim_alg(&c, &t1), a);
    /* The rules' choice: GPU buffers take the domain algorithms only above AXON_COLL_GPU_AGREE_MIN (64 KiB
     * a rank by default), where the members agree first that every buffer is GPU memory. */
    struct axon_config saved = axon_config;
    unsetenv("AXON_COLL_GPU_AGREE_MIN");
    ck_assert_int_eq(axon_runtime_config_load(&axon_config, why, sizeof(why)), MPI_SUCCESS);
    const enum axon_coll_kind moves[] = {AXON_COLL_KIND_BCAST, AXON_COLL_KIND_ALLGATHER, AXON_COLL_KIND_ALLTOALL,
                                         AXON_COLL_KIND_REDUCE};
    for (size_t k = 0; k < sizeof(moves) / sizeof(moves[0]); k++) {
        d = axon_coll_desc_of(moves[k]);
        int dom = 0;
        while (strcmp(d->algs[dom].name, "domain") != 0)
            dom++;
        struct axon_coll_sim_call m = {moves[k], -1, 65536, NULL, AXON_COLL_SIM_DEVICE};
        ck_assert_int_ne(axon_coll_sim_alg(&m, &t1), dom);
        m.bytes = 65536 + 4096;
        ck_assert_int_eq(axon_coll_sim_alg(&m, &t1), dom);
        m.memory = AXON_COLL_SIM_HOST;
        ck_assert_int_ne(axon_coll_sim_alg(&m, &t1), dom);
    }
    axon_config = saved;
}
END_TEST

/* A GPU message inside a domain is a copy its receiver makes and waits for, one at a time: a scattered
 * alltoall of GPU buffers on 4 ranks of one domain, every message posted at once, takes the receiver's
 * three copies in turn (3 (A + S B)); of host buffers, the same messages through the node overlap
 * (A + S B). Everything else is free here. */
START_TEST(gpu_messages_serialize_at_receiver)
{
    struct axon_coll_model m;
    free_model(&m);
    const double A = 9e-6, B = 3e-12, S = 65536;
    m.level[AXON_COLL_LEVEL_DOMAIN].alpha = m.level[AXON_COLL_LEVEL_NODE].alpha = A;
    m.level[AXON_COLL_LEVEL_DOMAIN].beta = m.level[AXON_COLL_LEVEL_NODE].beta = B;
    const char *one = "nodes=1,ranks_per_node=4";
    /* (The own block's copy, S / 4 B on the GPU, runs while the messages are under way.) */
    double gpu = simulate_in(one, &m, AXON_COLL_KIND_ALLTOALL, "scattered", (int64_t)S, AXON_COLL_SIM_DEVICE);
    double expect = 3 * (A + S / 4 * B);
    ck_assert_msg(fabs(gpu - expect) < 1e-12, "GPU buffers: %.15g s, closed form %.15g s", gpu, expect);
    double host = simulate_in(one, &m, AXON_COLL_KIND_ALLTOALL, "scattered", (int64_t)S, AXON_COLL_SIM_HOST);
    ck_assert_msg(fabs(host - (A + S / 4 * B)) < 1e-12, "host buffers: %.15g s, closed form %.15g s", host,
                  A + S / 4 * B);
}
END_TEST

START_TEST(doubling_shares_nics)
{
    struct axon_coll_model m;
    closed_model(&m);
    const double An = 1e-6, Bn = 1e-9, G = 3e-10, Af = 5e-6, Bf = 2e-9, O = 1e-7, C = 5e-10, S = 8192;
    /* 2 nodes of 2 ranks: the first exchange stays in the node, the second crosses the fabric, where
     * both ranks of a node send (and receive) at once through its NICs. */
    for (int nics = 1; nics <= 4; nics++) {
        double share = nics >= 2 ? 1 : 2.0 / nics;
        double expect = C * S + (2 * O + An + S * Bn + G * S) + (2 * O + Af + S * Bf * share + G * S) + C * S;
        char topo[128];
        snprintf(topo, sizeof(topo), "nodes=2,ranks_per_node=2,nics_per_node=%d", nics);
        double t = simulate(topo, &m, AXON_COLL_KIND_ALLREDUCE, "recursive_doubling", (int64_t)S);
        ck_assert_msg(fabs(t - expect) < 1e-12, "%d NICs: %.15g s, closed form %.15g s", nics, t, expect);
    }
    /* Device memory changes nothing here: every pair is a node's or the fabric's, not a domain's. */
}
END_TEST

START_TEST(host_shares_memory)
{
    struct axon_coll_model m;
    closed_model(&m);
    const double G = 3e-10, Af = 5e-6, Bf = 2e-9, O = 1e-7, C = 5e-10, S = 8192;
    /* 2 nodes of 1 rank exchange once through the fabric, each on its own NIC: a full link each. When
     * the two nodes are one machine's (synthetic nodes: nodes_per_host=2), both transfers also share
     * its memory; at a host capacity of one link's rate each gets half. Without a host capacity, or with
     * a host per node, nothing is shared. */
    struct {
        const char *topo;
        double host_capacity, share;
    } cases[] = {
        {"nodes=2,ranks_per_node=1", 1 / Bf, 1},
        {"nodes=2,ranks_per_node=1,nodes_per_host=2", 0, 1},
        {"nodes=2,ranks_per_node=1,nodes_per_host=2", 1 / Bf, 2},
        {"nodes=2,ranks_per_node=1,nodes_per_host=2", 4 / Bf, 1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        m.host_capacity = cases[i].host_capacity;
        double expect = C * S + (2 * O + Af + S * Bf * cases[i].share + G * S) + C * S;
        double t = simulate(cases[i].topo, &m, AXON_COLL_KIND_ALLREDUCE, "recursive_doubling", (int64_t)S);
        ck_assert_msg(fabs(t - expect) < 1e-12, "%s, host capacity %g: %.15g s, closed form %.15g s", cases[i].topo,
                      cases[i].host_capacity, t, expect);
    }
}
END_TEST

START_TEST(staggered_sharing)
{
    /* A binomial bcast on 4 nodes of 1 rank (1 NIC each): the root sends to rank 2, then to rank 1, in
     * one round, so its two transfers share its NIC; rank 2 then forwards to rank 3 alone. */
    struct axon_coll_model m;
    closed_model(&m);
    m.overhead = 0;
    const double Af = 5e-6, Bf = 2e-9, S = 100000;
    /* Rank 0 posts both sends at 0; they share its NIC for their whole length: 2 S Bf each. Rank 2 then
     * forwards to rank 3 alone: S Bf. */
    double expect = (Af + 2 * S * Bf) + (Af + S * Bf);
    double t = simulate("nodes=4,ranks_per_node=1", &m, AXON_COLL_KIND_BCAST, "binomial", (int64_t)S);
    ck_assert_msg(fabs(t - expect) < 1e-12, "bcast: %.15g s, closed form %.15g s", t, expect);
    /* With a post overhead, the second send starts O later: the first runs alone for O (at full rate),
     * the two share until the first ends, the second finishes alone. */
    const double O = 1e-6;
    m.overhead = O;
    /* First transfer: begins at O + Af, alone for O, then at half rate: done at O + Af + O + 2 (S - O/Bf) Bf. */
    double first_end = O + Af + O + 2 * (S * Bf - O);
    /* Second: begins at 2 O + Af, half rate until first_end, then full rate for what is left. */
    double second_done = (first_end - (2 * O + Af)) / (2 * Bf);
    double second_end = first_end + (S - second_done) * Bf;
    /* Rank 2 received the first (to rank 2: the larger subtree goes first) and forwards it: its receive
     * was posted at O; its send to 3 is posted at first_end + O, and rank 3's receive at O. */
    double expect2 = fmax(second_end, first_end + O + Af + S * Bf);
    t = simulate("nodes=4,ranks_per_node=1", &m, AXON_COLL_KIND_BCAST, "binomial", (int64_t)S);
    ck_assert_msg(fabs(t - expect2) < 1e-12, "bcast with overhead: %.15g s, closed form %.15g s", t, expect2);
}
END_TEST

/* ---- dry schedules and scale --------------------------------------------------------------------------- */

static sigjmp_buf touched;
static void on_segv(int sig)
{
    (void)sig;
    siglongjmp(touched, 1);
}

START_TEST(dry_placeholders)
{
    struct axon_coll_sched *s;
    ck_assert_int_eq(axon_coll_sched_create(NULL, 0, 2, 0, &s), MPI_SUCCESS);
    axon_coll_sched_set_dry(s);
    char *a = axon_coll_sched_alloc(s, (size_t)1 << 30), *b = axon_coll_sched_alloc(s, 0);
    char *c = axon_coll_sched_alloc(s, 100);
    ck_assert(a && b && c && a != b && b != c && a != c);
    /* Meta memory is real: the builder writes it. */
    int64_t *meta = axon_coll_sched_alloc_meta(s, 4096 * sizeof(int64_t));
    ck_assert(meta);
    meta[4095] = 7;
    /* A placeholder faults when touched. */
    struct sigaction sa = {.sa_handler = on_segv}, old;
    sigaction(SIGSEGV, &sa, &old);
    volatile bool faulted = false;
    if (sigsetjmp(touched, 1) == 0)
        *(volatile char *)(a + 12345) = 1;
    else
        faulted = true;
    sigaction(SIGSEGV, &old, NULL);
    ck_assert(faulted);
    axon_coll_sched_send(s, a, (int64_t)1 << 30, &axon_coll_bytes, 1);
    ck_assert_int_eq(axon_coll_sched_start(s, NULL), MPI_ERR_INTERN);
    axon_coll_sched_discard(s);

    /* The range has an end: beyond it, the schedule holds MPI_ERR_NO_MEM. */
    ck_assert_int_eq(axon_coll_sched_create(NULL, 0, 2, 0, &s), MPI_SUCCESS);
    axon_coll_sched_set_dry(s);
    ck_assert_ptr_null(axon_coll_sched_alloc(s, (size_t)1 << 41));
    ck_assert_int_eq(axon_coll_sched_start(s, NULL), MPI_ERR_NO_MEM);
    axon_coll_sched_discard(s);
}
END_TEST

START_TEST(dry_large)
{
    /* 64 GiB a rank: the buffers and the scratch of four ranks would be a terabyte. */
    struct axon_coll_model m;
    axon_coll_model_defaults(&m);
    double t = simulate("nodes=2,ranks_per_node=2", &m, AXON_COLL_KIND_ALLREDUCE, "rabenseifner", (int64_t)64 << 30);
    ck_assert(t > 1 && t < 100);
}
END_TEST

START_TEST(refuses_beyond_limit)
{
    struct axon_runtime_topo_spec t = {64, 64, 1, 1, 1};
    struct axon_coll_model m;
    axon_coll_model_defaults(&m);
    struct axon_coll_sim_opts o = {AXON_COLL_SIM_HOST, 1000000};
    /* The ring: about 5 steps per rank for each of 2 (n-1) rounds, 4096 ranks: 8e7 steps. */
    struct axon_coll_sim_call c = {AXON_COLL_KIND_ALLREDUCE, 3, 1 << 20, NULL, AXON_COLL_SIM_HOST};
    ck_assert_str_eq(axon_coll_desc_of(AXON_COLL_KIND_ALLREDUCE)->algs[3].name, "ring");
    struct axon_coll_sim_result res = {0};
    ck_assert_int_eq(axon_coll_simulate(&t, &m, &c, &o, &res), MPI_ERR_OTHER);
    ck_assert_msg(strstr(res.why, "above the limit") && res.steps_estimate > 40000000, "%s", res.why);
    /* Rabenseifner's log2 rounds fit. */
    c.alg = 2;
    ck_assert_int_eq(axon_coll_simulate(&t, &m, &c, &o, &res), MPI_SUCCESS);
    ck_assert_int_le(res.steps, 1000000);
    /* The estimate of a symmetric algorithm is exact. */
    ck_assert_int_eq(res.steps, res.steps_estimate);
}
END_TEST

START_TEST(busbw)
{
    ck_assert_double_eq_tol(axon_coll_sim_busbw(AXON_COLL_KIND_ALLREDUCE, 4, 1000, 1e-6), 1.5e9, 1);
    ck_assert_double_eq_tol(axon_coll_sim_busbw(AXON_COLL_KIND_ALLGATHER, 4, 1000, 1e-6), 0.75e9, 1);
    ck_assert_double_eq_tol(axon_coll_sim_busbw(AXON_COLL_KIND_REDUCE_SCATTER, 4, 1000, 1e-6), 0.75e9, 1);
    ck_assert_double_eq_tol(axon_coll_sim_busbw(AXON_COLL_KIND_BCAST, 4, 1000, 1e-6), 1e9, 1);
    ck_assert_double_eq_tol(axon_coll_sim_busbw(AXON_COLL_KIND_REDUCE, 4, 1000, 1e-6), 1e9, 1);
    ck_assert_double_eq(axon_coll_sim_busbw(AXON_COLL_KIND_BARRIER, 4, 0, 1e-6), 0);
    /* NCCL's sizes: whole floats, whole blocks. */
    struct axon_coll_sim_call c = {AXON_COLL_KIND_ALLGATHER, -1, 1003, NULL, AXON_COLL_SIM_HOST};
    ck_assert_int_eq(axon_coll_sim_size(&c, 4), 1000);
    c.kind = AXON_COLL_KIND_REDUCE_SCATTER;
    ck_assert_int_eq(axon_coll_sim_size(&c, 4), 992);
    c.kind = AXON_COLL_KIND_ALLREDUCE;
    ck_assert_int_eq(axon_coll_sim_size(&c, 4), 1000);
    ck_assert_int_eq(axon_coll_sim_kind("reduce_scatter"), AXON_COLL_KIND_REDUCE_SCATTER);
    ck_assert_int_eq(axon_coll_sim_kind("scan"), -1);
    ck_assert_int_eq(axon_coll_sim_kind("nonsense"), -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_simulate");
    TCase *tc = tcase_create("simulate");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, agrees_with_exact_runs, 0, NKINDS);
    tcase_add_test(tc, ring_allreduce_closed_form);
    tcase_add_test(tc, domain_gpu_closed_form);
    tcase_add_test(tc, gpu_messages_serialize_at_receiver);
    tcase_add_test(tc, doubling_shares_nics);
    tcase_add_test(tc, host_shares_memory);
    tcase_add_test(tc, staggered_sharing);
    tcase_add_test(tc, dry_placeholders);
    tcase_add_test(tc, dry_large);
    tcase_add_test(tc, refuses_beyond_limit);
    tcase_add_test(tc, busbw);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
