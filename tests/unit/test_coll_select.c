/* Unit tests of the collectives' algorithm selection: every kind's table agrees with its knob in the
 * configuration table, keeps an algorithm that needs nothing first and ends with a rule that matches
 * every call; the pick honours a forced algorithm only when it applies, and skips rules whose
 * algorithm the call cannot use; alltoall's measured split; the cost model's answers, which the
 * selection only looks up and notes the questions of. */
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_select.h"
#include "coll/axon_coll_select_model.h"
#include "runtime/runtime.h"

#include <check.h>
#include <ctype.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static const struct axon_config_entry *find(const char *name)
{
    size_t n;
    const struct axon_config_entry *t = axon_runtime_config_table(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

START_TEST(tables_match_knobs)
{
    for (int k = 0; k < AXON_COLL_NKINDS; k++) {
        const struct axon_coll_desc *d = axon_coll_desc_of(k);
        ck_assert_ptr_nonnull(d);
        char knob[64] = "AXON_COLL_", words[1024] = "auto";
        size_t len = strlen(knob);
        for (const char *p = d->name; *p; p++)
            knob[len++] = (char)toupper((unsigned char)*p);
        strcpy(knob + len, "_ALG");
        const struct axon_config_entry *e = find(knob);
        ck_assert_msg(e != NULL, "no knob %s", knob);
        ck_assert_int_eq(e->type, AXON_CONFIG_ENUM);
        ck_assert_str_eq(e->default_value, "auto");
        ck_assert_uint_eq(e->offset, offsetof(struct axon_config, coll_alg) + sizeof(long) * (size_t)k);
        for (int i = 0; i < d->nalgs; i++) {
            strcat(words, "|");
            strcat(words, d->algs[i].name);
            ck_assert_msg(d->algs[i].about && *d->algs[i].about, "%s/%s has no description", d->name,
                          d->algs[i].name);
        }
        ck_assert_msg(strcmp(e->values, words) == 0, "%s lists '%s', the table '%s'", knob, e->values, words);
        ck_assert_msg(d->algs[0].needs == 0, "%s: the first algorithm must serve every call", d->name);
        ck_assert_int_gt(d->nrules, 0);
        const struct axon_coll_rule *last = &d->rules[d->nrules - 1];
        ck_assert_msg(last->max_ranks == 0 && last->max_bytes < 0, "%s: the last rule must match any call",
                      d->name);
        for (int i = 0; i < d->nrules; i++)
            ck_assert(d->rules[i].alg >= 0 && d->rules[i].alg < d->nalgs);
    }
}
END_TEST

/* A table of three: a fallback, a commutative-only one for small messages, one for many ranks. */
static const struct axon_coll_alg algs[] = {
    {"plain", "needs nothing", 0},
    {"fast", "commutative only", AXON_COLL_NEEDS_COMMUTATIVE},
    {"wide", "equal blocks only", AXON_COLL_NEEDS_UNIFORM},
};
static const struct axon_coll_rule rules[] = {{0, 1024, 1, 0}, {8, -1, 0, 0}, {0, -1, 2, 0}};
static const struct axon_coll_desc desc = {"test", "bytes", algs, 3, rules, 3};

START_TEST(pick)
{
    unsigned all = AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_UNIFORM;
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 4, 100, all), 1);
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 4, 1024, all), 1);
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 4, 1025, all), 0);
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 9, 1025, all), 2);
    /* A rule whose algorithm does not apply is passed over. */
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 4, 100, AXON_COLL_NEEDS_UNIFORM), 0);
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 9, 100, AXON_COLL_NEEDS_UNIFORM), 2);
    ck_assert_int_eq(axon_coll_select_with(&desc, -1, 9, 100, 0), 0);
    /* Forced: taken when it applies, else the rules decide. */
    ck_assert_int_eq(axon_coll_select_with(&desc, 2, 2, 100, all), 2);
    ck_assert_int_eq(axon_coll_select_with(&desc, 1, 2, 1 << 20, AXON_COLL_NEEDS_COMMUTATIVE), 1);
    ck_assert_int_eq(axon_coll_select_with(&desc, 1, 2, 100, AXON_COLL_NEEDS_UNIFORM), 0);
    ck_assert_int_eq(axon_coll_select_with(&desc, 7, 2, 1 << 20, all), 0);
}
END_TEST

START_TEST(knob_drives_select)
{
    struct axon_config saved = axon_config;
    char err[256];
    setenv("AXON_COLL_ALLREDUCE_ALG", axon_coll_allreduce_desc.algs[axon_coll_allreduce_desc.nalgs - 1].name, 1);
    ck_assert_int_eq(axon_runtime_config_load(&axon_config, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_select_forced(AXON_COLL_KIND_ALLREDUCE), axon_coll_allreduce_desc.nalgs - 1);
    ck_assert_int_eq(axon_coll_select(AXON_COLL_KIND_ALLREDUCE, 5, 8,
                                      AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_DOMAIN),
                     axon_coll_allreduce_desc.nalgs - 1);
    /* The last is the domain algorithm: without a domain to use, the rules pick. */
    ck_assert_int_ne(axon_coll_select(AXON_COLL_KIND_ALLREDUCE, 5, 8,
                                      AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_NODES),
                     axon_coll_allreduce_desc.nalgs - 1);
    ck_assert_int_eq(axon_coll_select_forced(AXON_COLL_KIND_BCAST), -1);
    /* Unforced, a large vector takes the domain algorithm only when the members agreed that every
     * buffer is on a GPU (a domain of host buffers would copy them to a GPU and back). */
    setenv("AXON_COLL_ALLREDUCE_ALG", "auto", 1);
    ck_assert_int_eq(axon_runtime_config_load(&axon_config, err, sizeof(err)), MPI_SUCCESS);
    unsigned domain = AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_DOMAIN;
    ck_assert_int_eq(axon_coll_select(AXON_COLL_KIND_ALLREDUCE, 4, 1 << 26, domain | AXON_COLL_NEEDS_DEVICE),
                     axon_coll_allreduce_desc.nalgs - 1);
    ck_assert_int_ne(axon_coll_select(AXON_COLL_KIND_ALLREDUCE, 4, 1 << 26, domain), axon_coll_allreduce_desc.nalgs - 1);
    ck_assert_int_ne(axon_coll_select(AXON_COLL_KIND_ALLREDUCE, 4, 1 << 26, AXON_COLL_NEEDS_DEVICE),
                     axon_coll_allreduce_desc.nalgs - 1);
    setenv("AXON_COLL_ALLREDUCE_ALG", "no_such_algorithm", 1);
    ck_assert_int_ne(axon_runtime_config_load(&axon_config, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_msg(strstr(err, "AXON_COLL_ALLREDUCE_ALG") != NULL, "message: %s", err);
    unsetenv("AXON_COLL_ALLREDUCE_ALG");
    axon_config = saved;
}
END_TEST

/* Alltoall's rules as measured (coll/axon_coll_alltoall.c): blocks up to 64 KiB (sent eagerly) are
 * scattered at any count above two ranks, larger ones go pairwise (read in place), tiny ones by Bruck. */
START_TEST(alltoall_rules)
{
    const struct axon_coll_desc *d = &axon_coll_alltoall_desc;
    int pairwise = -1, scattered = -1, bruck = -1;
    for (int i = 0; i < d->nalgs; i++) {
        pairwise = strcmp(d->algs[i].name, "pairwise") == 0 ? i : pairwise;
        scattered = strcmp(d->algs[i].name, "scattered") == 0 ? i : scattered;
        bruck = strcmp(d->algs[i].name, "bruck") == 0 ? i : bruck;
    }
    ck_assert(pairwise >= 0 && scattered >= 0 && bruck >= 0);
    ck_assert_int_eq(axon_coll_select_with(d, -1, 2, 65536, AXON_COLL_NEEDS_UNIFORM), pairwise);
    ck_assert_int_eq(axon_coll_select_with(d, -1, 3, 65536, AXON_COLL_NEEDS_UNIFORM), scattered);
    ck_assert_int_eq(axon_coll_select_with(d, -1, 5, 64, AXON_COLL_NEEDS_UNIFORM), bruck);
    for (int n = 4; n <= 64; n *= 2) {
        ck_assert_int_eq(axon_coll_select_with(d, -1, n, 32768, AXON_COLL_NEEDS_UNIFORM), scattered);
        ck_assert_int_eq(axon_coll_select_with(d, -1, n, 65536, AXON_COLL_NEEDS_UNIFORM), scattered);
        ck_assert_int_eq(axon_coll_select_with(d, -1, n, 65537, AXON_COLL_NEEDS_UNIFORM), pairwise);
    }
}
END_TEST

/* Where the members agreed that every buffer is GPU memory and they share a domain, bcast, allgather,
 * alltoall, reduce_scatter and reduce take their domain algorithms at every size and count (the
 * agreement itself only happens above AXON_COLL_GPU_AGREE_MIN, coll/axon_coll_agree.c); without the
 * agreement, or without a domain, the host rules. */
START_TEST(device_rules_pick_domain)
{
    const enum axon_coll_kind kinds[] = {AXON_COLL_KIND_BCAST, AXON_COLL_KIND_ALLGATHER, AXON_COLL_KIND_ALLTOALL,
                                         AXON_COLL_KIND_REDUCE_SCATTER, AXON_COLL_KIND_REDUCE};
    const int64_t sizes[] = {8, 65536, (int64_t)1 << 24};
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        const struct axon_coll_desc *d = axon_coll_desc_of(kinds[k]);
        int domain = -1;
        for (int i = 0; i < d->nalgs; i++)
            domain = strcmp(d->algs[i].name, "domain") == 0 ? i : domain;
        ck_assert_msg(domain >= 0, "%s has no domain algorithm", d->name);
        for (int n = 2; n <= 9; n++) {
            for (size_t b = 0; b < sizeof(sizes) / sizeof(sizes[0]); b++) {
                unsigned have = AXON_COLL_NEEDS_UNIFORM | AXON_COLL_NEEDS_COMMUTATIVE;
                ck_assert_int_eq(axon_coll_select_with(d, -1, n, sizes[b],
                                                       have | AXON_COLL_NEEDS_DOMAIN | AXON_COLL_NEEDS_DEVICE),
                                 domain);
                ck_assert_int_ne(axon_coll_select_with(d, -1, n, sizes[b], have | AXON_COLL_NEEDS_DOMAIN), domain);
                ck_assert_int_ne(axon_coll_select_with(d, -1, n, sizes[b], have | AXON_COLL_NEEDS_DEVICE), domain);
            }
        }
    }
}
END_TEST

/* The agreement's memo: after k host-only answers in a row the next 2^k - 1 calls skip the question
 * (at most 63), and any other answer starts over. */
/* Across nodes of several ranks (the call offers AXON_COLL_NEEDS_NODES) the rules pick the hierarchical
 * compositions where they measured faster on real nodes, and the flat ones elsewhere; on one node the
 * flat ones always. */
START_TEST(node_rules_pick_hier)
{
    const unsigned flat = AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_UNIFORM;
    const unsigned nodes = flat | AXON_COLL_NEEDS_NODES;
    const struct {
        const struct axon_coll_desc *d;
        int64_t bytes;
        const char *across, *within;
    } cases[] = {
        {&axon_coll_barrier_desc, 0, "hier", "dissemination"},
        {&axon_coll_bcast_desc, 8, "hier", "binomial"},
        {&axon_coll_bcast_desc, 1 << 20, "hier", "scatter_doubling"},
        {&axon_coll_allreduce_desc, 8, "recursive_doubling", "recursive_doubling"},
        {&axon_coll_allreduce_desc, 256 * 1024, "hier", "rabenseifner"},
        {&axon_coll_allreduce_desc, 4 << 20, "rabenseifner", "rabenseifner"},
        {&axon_coll_allgather_desc, 512 * 1024, "doubling", "ring"},
        {&axon_coll_allgather_desc, 4 << 20, "hier", "ring"},
        {&axon_coll_reduce_desc, 128 * 1024, "binomial", "rabenseifner"},
        {&axon_coll_reduce_desc, 1 << 20, "rabenseifner", "rabenseifner"},
        {&axon_coll_alltoall_desc, 64, "bruck", "bruck"},
        {&axon_coll_alltoall_desc, 1 << 20, "scattered", "pairwise"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct axon_coll_desc *d = cases[i].d;
        int a = axon_coll_select_with(d, -1, 8, cases[i].bytes, nodes);
        int w = axon_coll_select_with(d, -1, 8, cases[i].bytes, flat);
        ck_assert_msg(strcmp(d->algs[a].name, cases[i].across) == 0, "%s of %lld bytes across nodes: %s, not %s",
                      d->name, (long long)cases[i].bytes, d->algs[a].name, cases[i].across);
        ck_assert_msg(strcmp(d->algs[w].name, cases[i].within) == 0, "%s of %lld bytes on one node: %s, not %s",
                      d->name, (long long)cases[i].bytes, d->algs[w].name, cases[i].within);
    }
}
END_TEST

START_TEST(agree_memo_backs_off)
{
    struct axon_coll_agree_memo m = {0, 0};
    ck_assert(!axon_coll_agree_memo_skip(&m));
    for (unsigned k = 1; k <= 8; k++) {
        axon_coll_agree_memo_learn(&m, true);
        unsigned want = (1u << (k < 6 ? k : 6)) - 1, skipped = 0;
        while (axon_coll_agree_memo_skip(&m))
            skipped++;
        ck_assert_uint_eq(skipped, want);
    }
    axon_coll_agree_memo_learn(&m, false);
    ck_assert(!axon_coll_agree_memo_skip(&m));
    axon_coll_agree_memo_learn(&m, true);
    ck_assert(axon_coll_agree_memo_skip(&m));
    ck_assert(!axon_coll_agree_memo_skip(&m));
}
END_TEST

static int alg_named(enum axon_coll_kind kind, const char *name)
{
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    for (int a = 0; a < d->nalgs; a++)
        if (strcmp(d->algs[a].name, name) == 0)
            return a;
    return -1;
}

/* A schedule of rank 0 of 4 on map, not built. */
static struct axon_coll_sched *sched_on(const struct axon_coll_nodes *map)
{
    struct axon_coll_sched *s;
    ck_assert_int_eq(axon_coll_sched_create(NULL, 0, 4, 0, &s), MPI_SUCCESS);
    axon_coll_sched_set_nodes(s, map);
    return s;
}

/* AXON_COLL_SELECT=model: a choice the map has no answer for takes the rules and is noted on the
 * schedule, the first one only; the model's fill answers it in the map, and the next schedule takes the
 * answer and asks nothing. Kinds the simulator does not build answer "the rules". Rules mode, a forced
 * knob and a subgroup ask nothing. */
START_TEST(model_answers_outside_the_algorithms)
{
    struct axon_config saved = axon_config;
    axon_config.coll_select = 1;
    for (int k = 0; k < AXON_COLL_NKINDS; k++)
        axon_config.coll_alg[k] = 0;
    axon_config.coll_model_file[0] = '\0';
    int ids[] = {0, 0, 1, 1};
    struct axon_coll_nodes map;
    ck_assert_int_eq(axon_coll_nodes_build(&map, ids, 4, 2), MPI_SUCCESS);
    struct axon_coll_sched *s = sched_on(&map);
    unsigned have = axon_coll_hier_have(s);
    ck_assert_uint_eq(have, AXON_COLL_NEEDS_NODES);
    int barrier_rules = axon_coll_select(AXON_COLL_KIND_BARRIER, 4, 0, have);
    int bcast_rules = axon_coll_select(AXON_COLL_KIND_BCAST, 4, 100, have);
    struct axon_coll_sched_miss q;
    ck_assert(!axon_coll_sched_miss_get(s, &q));
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_BARRIER, s, 0, have), barrier_rules);
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_BCAST, s, 100, have), bcast_rules);
    ck_assert(axon_coll_sched_miss_get(s, &q));
    ck_assert_int_eq(q.kind, AXON_COLL_KIND_BARRIER);
    ck_assert_int_eq(q.nranks, 4);
    ck_assert_int_eq(q.bytes, 0);
    ck_assert_uint_eq(q.have, have);
    ck_assert_ptr_eq(q.nodes, &map);
    ck_assert_ptr_null(map.model_choice); /* looking up answers none */

    ck_assert(axon_coll_select_model_fill(s));
    axon_coll_sched_discard(s);
    ck_assert_ptr_nonnull(map.model_choice);
    /* The model's defaults take the barrier through the node leaders (tests/mpi/coll_model_select.test). */
    int hier = alg_named(AXON_COLL_KIND_BARRIER, "hier");
    ck_assert_int_eq(map.model_choice[axon_coll_select_model_slot(AXON_COLL_KIND_BARRIER, 0, have)], hier);
    ck_assert_int_eq(map.model_choice[axon_coll_select_model_slot(AXON_COLL_KIND_BCAST, 100, have)],
                     AXON_COLL_MODEL_UNKNOWN);
    ck_assert_int_eq(map.model_choice[axon_coll_select_model_slot(AXON_COLL_KIND_GATHER, 100, have)],
                     AXON_COLL_MODEL_RULES);

    s = sched_on(&map);
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_BARRIER, s, 0, have), hier);
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_GATHER, s, 100, have),
                     axon_coll_select(AXON_COLL_KIND_GATHER, 4, 100, have));
    ck_assert(!axon_coll_sched_miss_get(s, &q));
    ck_assert(!axon_coll_select_model_fill(s));
    /* The same size class and offers share the answer; other offers are another question. */
    ck_assert_int_eq(axon_coll_select_model_slot(AXON_COLL_KIND_BCAST, 64, have),
                     axon_coll_select_model_slot(AXON_COLL_KIND_BCAST, 127, have));
    ck_assert_int_ne(axon_coll_select_model_slot(AXON_COLL_KIND_BCAST, 127, have),
                     axon_coll_select_model_slot(AXON_COLL_KIND_BCAST, 128, have));
    ck_assert_int_ne(axon_coll_select_model_slot(AXON_COLL_KIND_ALLGATHER, 100, have),
                     axon_coll_select_model_slot(AXON_COLL_KIND_ALLGATHER, 100, have | AXON_COLL_NEEDS_UNIFORM));

    axon_config.coll_select = 0;
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_BCAST, s, 100, have), bcast_rules);
    axon_config.coll_select = 1;
    axon_config.coll_alg[AXON_COLL_KIND_BCAST] = 1; /* the first algorithm, forced */
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_BCAST, s, 100, have), 0);
    axon_config.coll_alg[AXON_COLL_KIND_BCAST] = 0;
    int members[] = {0, 1};
    axon_coll_sched_set_subgroup(s, members, 2);
    ck_assert_int_eq(axon_coll_select_sched(AXON_COLL_KIND_BCAST, s, 100, 0),
                     axon_coll_select(AXON_COLL_KIND_BCAST, 2, 100, 0));
    axon_coll_sched_set_subgroup(s, NULL, 0);
    ck_assert(!axon_coll_sched_miss_get(s, &q));
    axon_coll_sched_discard(s);
    axon_coll_nodes_free(&map);
    axon_config = saved;
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_select");
    TCase *tc = tcase_create("select");
    tcase_add_test(tc, tables_match_knobs);
    tcase_add_test(tc, pick);
    tcase_add_test(tc, knob_drives_select);
    tcase_add_test(tc, alltoall_rules);
    tcase_add_test(tc, device_rules_pick_domain);
    tcase_add_test(tc, agree_memo_backs_off);
    tcase_add_test(tc, node_rules_pick_hier);
    tcase_add_test(tc, model_answers_outside_the_algorithms);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
