/* The cost model and the topology description (coll/axon_coll_model.h): the defaults, every key of the
 * tuning file, its reader's errors (which leave the model as it was), a print that reads back, files,
 * and the topology strings with their levels, malformed ones rejected with the expected form. */
#include "coll/axon_coll_model.h"

#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool near(double x, double y, double rel)
{
    return fabs(x - y) <= rel * fabs(y);
}

static bool same_model(const struct axon_coll_model *a, const struct axon_coll_model *b, double rel)
{
    for (int l = 0; l < AXON_COLL_NLEVELS; l++) {
        const struct axon_coll_model_level *x = &a->level[l], *y = &b->level[l];
        if (!near(x->alpha, y->alpha, rel) || !near(x->beta, y->beta, rel) || !near(x->gamma, y->gamma, rel) ||
            !near(x->capacity, y->capacity, rel))
            return false;
    }
    return near(a->overhead, b->overhead, rel) && near(a->copy_beta, b->copy_beta, rel) &&
           a->eager_max == b->eager_max;
}

START_TEST(defaults)
{
    struct axon_coll_model m;
    axon_coll_model_defaults(&m);
    /* The host path of a GPU cluster: shared memory 0.3 us and 10 GB/s, a 25 GB/s NIC 2 us away. */
    ck_assert_double_eq_tol(m.level[AXON_COLL_LEVEL_NODE].alpha, 0.3e-6, 1e-12);
    ck_assert_double_eq_tol(1 / m.level[AXON_COLL_LEVEL_NODE].beta, 10e9, 1);
    ck_assert_double_eq_tol(m.level[AXON_COLL_LEVEL_FABRIC].alpha, 2e-6, 1e-12);
    ck_assert_double_eq_tol(1 / m.level[AXON_COLL_LEVEL_FABRIC].beta, 25e9, 1);
    /* Each level is slower than the one inside it. */
    ck_assert(m.level[AXON_COLL_LEVEL_DOMAIN].beta < m.level[AXON_COLL_LEVEL_NODE].beta);
    ck_assert(m.level[AXON_COLL_LEVEL_NODE].alpha < m.level[AXON_COLL_LEVEL_FABRIC].alpha);
    ck_assert(m.overhead > 0 && m.copy_beta > 0 && m.eager_max > 0);
    ck_assert_double_eq_tol(axon_coll_model_message(&m, AXON_COLL_LEVEL_FABRIC, 1000000), 2e-6 + 1e6 / 25e9, 1e-15);
    ck_assert_str_eq(axon_coll_level_name(AXON_COLL_LEVEL_DOMAIN), "domain");
    ck_assert_str_eq(axon_coll_level_name(AXON_COLL_LEVEL_FABRIC), "fabric");
}
END_TEST

START_TEST(set_keys)
{
    struct axon_coll_model m, before;
    axon_coll_model_defaults(&m);
    char why[512];
    static const struct {
        const char *key;
        size_t off;
    } keys[] = {
        {"domain.alpha", offsetof(struct axon_coll_model, level[0].alpha)},
        {"domain.beta", offsetof(struct axon_coll_model, level[0].beta)},
        {"domain.gamma", offsetof(struct axon_coll_model, level[0].gamma)},
        {"node.alpha", offsetof(struct axon_coll_model, level[1].alpha)},
        {"node.beta", offsetof(struct axon_coll_model, level[1].beta)},
        {"node.gamma", offsetof(struct axon_coll_model, level[1].gamma)},
        {"node.capacity", offsetof(struct axon_coll_model, level[1].capacity)},
        {"fabric.alpha", offsetof(struct axon_coll_model, level[2].alpha)},
        {"fabric.beta", offsetof(struct axon_coll_model, level[2].beta)},
        {"fabric.gamma", offsetof(struct axon_coll_model, level[2].gamma)},
        {"overhead", offsetof(struct axon_coll_model, overhead)},
        {"copy_beta", offsetof(struct axon_coll_model, copy_beta)},
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        ck_assert_int_eq(axon_coll_model_set(&m, keys[i].key, "1.5e-7", why, sizeof(why)), MPI_SUCCESS);
        ck_assert_double_eq(*(double *)((char *)&m + keys[i].off), 1.5e-7);
    }
    ck_assert_int_eq(axon_coll_model_set(&m, "eager_max", "65536", why, sizeof(why)), MPI_SUCCESS);
    ck_assert_int_eq(m.eager_max, 65536);
    before = m;
    /* Unknown keys name the known ones; bad values name the key. Nothing changes. */
    ck_assert_int_eq(axon_coll_model_set(&m, "fabric.capacity", "1", why, sizeof(why)), MPI_ERR_ARG);
    ck_assert_msg(strstr(why, "unknown key 'fabric.capacity'") && strstr(why, "node.capacity"), "%s", why);
    static const char *const bad[] = {"", "abc", "-1", "1e999", "nan", "3 s", "0x"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(axon_coll_model_set(&m, "node.alpha", bad[i], why, sizeof(why)), MPI_ERR_ARG);
        ck_assert_msg(strstr(why, "node.alpha needs a number >= 0"), "%s", why);
    }
    ck_assert_int_eq(axon_coll_model_set(&m, "eager_max", "1.5", why, sizeof(why)), MPI_ERR_ARG);
    ck_assert_int_eq(axon_coll_model_set(&m, "eager_max", "-2", why, sizeof(why)), MPI_ERR_ARG);
    ck_assert(memcmp(&m, &before, sizeof(m)) == 0);
}
END_TEST

START_TEST(parse_text)
{
    struct axon_coll_model m, d;
    axon_coll_model_defaults(&m);
    axon_coll_model_defaults(&d);
    char why[512];
    const char *text = "# a measured cluster\n"
                       "\n"
                       "node.alpha = 4e-7   # shared memory\n"
                       "  fabric.beta=5e-11\r\n"
                       "eager_max = 16384\n"
                       "overhead = 0";
    ck_assert_int_eq(axon_coll_model_parse(&m, text, why, sizeof(why)), MPI_SUCCESS);
    ck_assert_double_eq(m.level[AXON_COLL_LEVEL_NODE].alpha, 4e-7);
    ck_assert_double_eq(m.level[AXON_COLL_LEVEL_FABRIC].beta, 5e-11);
    ck_assert_int_eq(m.eager_max, 16384);
    ck_assert_double_eq(m.overhead, 0);
    /* Keys not named keep their values. */
    ck_assert_double_eq(m.level[AXON_COLL_LEVEL_FABRIC].alpha, d.level[AXON_COLL_LEVEL_FABRIC].alpha);
    ck_assert_double_eq(m.copy_beta, d.copy_beta);

    /* An error names its line and leaves the whole model alone, the lines before it too. */
    struct axon_coll_model before = m;
    ck_assert_int_eq(axon_coll_model_parse(&m, "node.alpha = 1\nnode.beta 2\n", why, sizeof(why)), MPI_ERR_ARG);
    ck_assert_msg(strstr(why, "line 2") && strstr(why, "key = value"), "%s", why);
    ck_assert_int_eq(axon_coll_model_parse(&m, "node.alpha = 1\n\n# x\nnode.bogus = 2\n", why, sizeof(why)),
                     MPI_ERR_ARG);
    ck_assert_msg(strstr(why, "line 4") && strstr(why, "node.bogus"), "%s", why);
    ck_assert_int_eq(axon_coll_model_parse(&m, "fabric.alpha = fast\n", why, sizeof(why)), MPI_ERR_ARG);
    ck_assert_msg(strstr(why, "line 1") && strstr(why, "fast"), "%s", why);
    ck_assert(memcmp(&m, &before, sizeof(m)) == 0);
    /* An empty text changes nothing. */
    ck_assert_int_eq(axon_coll_model_parse(&m, "", why, sizeof(why)), MPI_SUCCESS);
    ck_assert(memcmp(&m, &before, sizeof(m)) == 0);
}
END_TEST

START_TEST(print_and_load)
{
    struct axon_coll_model m, back;
    axon_coll_model_defaults(&m);
    m.level[AXON_COLL_LEVEL_DOMAIN].gamma = 3.25e-13;
    m.eager_max = 12345;
    char path[] = "/tmp/axon_model_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    axon_coll_model_print(&m, f);
    fclose(f);
    /* What print writes, load reads back: over different values, every key is replaced. */
    memset(&back, 0, sizeof(back));
    char why[512];
    ck_assert_int_eq(axon_coll_model_load(&back, path, why, sizeof(why)), MPI_SUCCESS);
    ck_assert(same_model(&back, &m, 1e-8));
    unlink(path);
    ck_assert_int_eq(axon_coll_model_load(&back, path, why, sizeof(why)), MPI_ERR_NO_SUCH_FILE);
    ck_assert_msg(strstr(why, path) != NULL, "%s", why);
    /* A directory is no tuning file. */
    ck_assert_int_ne(axon_coll_model_load(&back, "/", why, sizeof(why)), MPI_SUCCESS);
}
END_TEST

START_TEST(topo_parse)
{
    struct axon_runtime_topo_spec t;
    char why[1024];
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=1024,ranks_per_node=128,domains_per_node=2,nics_per_node=8", &t,
                                          why, sizeof(why)),
                     MPI_SUCCESS);
    ck_assert_int_eq(t.nodes, 1024);
    ck_assert_int_eq(t.ranks_per_node, 128);
    ck_assert_int_eq(t.domains_per_node, 2);
    ck_assert_int_eq(t.nics_per_node, 8);
    ck_assert_int_eq(axon_runtime_topo_spec_ranks(&t), 131072);
    /* Defaults and any order. */
    ck_assert_int_eq(axon_runtime_topo_parse("ranks_per_node=4,nodes=4", &t, why, sizeof(why)), MPI_SUCCESS);
    ck_assert(t.nodes == 4 && t.ranks_per_node == 4 && t.domains_per_node == 1 && t.nics_per_node == 1);
    /* AXON_TOPO's form: ranks per domain. */
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=4,domains_per_node=2,ranks_per_domain=2", &t, why, sizeof(why)),
                     MPI_SUCCESS);
    ck_assert(t.nodes == 4 && t.ranks_per_node == 4 && t.domains_per_node == 2);
    ck_assert_int_eq(
        axon_runtime_topo_parse("nodes=2,ranks_per_node=6,domains_per_node=3,ranks_per_domain=2", &t, why, sizeof(why)),
        MPI_SUCCESS);
    ck_assert_int_eq(t.ranks_per_node, 6);
    /* Synthetic nodes of one machine: the nodes that share its memory (default 1). */
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=4,ranks_per_node=4", &t, why, sizeof(why)), MPI_SUCCESS);
    ck_assert_int_eq(t.nodes_per_host, 1);
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=4,ranks_per_node=4,nodes_per_host=4", &t, why, sizeof(why)),
                     MPI_SUCCESS);
    ck_assert_int_eq(t.nodes_per_host, 4);

    static const char *const bad[] = {
        "",
        "nodes",
        "nodes=4",
        "ranks_per_node=4",
        "nodes=0,ranks_per_node=4",
        "nodes=-1,ranks_per_node=4",
        "nodes=x,ranks_per_node=4",
        "nodes=4,ranks_per_node=4x",
        "nodes=4,ranks_per_node=",
        "nodes=4,ranks_per_node=4,",
        "nodes=4,,ranks_per_node=4",
        "nodes=4,ranks_per_node=4,gpus=8",
        "nodes=4,nodes=4,ranks_per_node=4",
        "nodes=4,ranks_per_node=6,domains_per_node=4",
        "nodes=4,ranks_per_node=6,domains_per_node=2,ranks_per_domain=2",
        "nodes=65536,ranks_per_node=65536",
        "nodes=99999999999,ranks_per_node=1",
        " nodes=4,ranks_per_node=4",
        "nodes=4,ranks_per_node=4,nodes_per_host=3",
        "nodes=4,ranks_per_node=4,nodes_per_host=0",
    };
    struct axon_runtime_topo_spec keep = t;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        why[0] = 0;
        ck_assert_msg(axon_runtime_topo_parse(bad[i], &t, why, sizeof(why)) == MPI_ERR_ARG, "'%s' accepted", bad[i]);
        ck_assert(memcmp(&t, &keep, sizeof(t)) == 0);
        if (i != 15) /* the one that is merely too large */
            ck_assert_msg(strstr(why, "nodes=N,ranks_per_node=R"), "'%s': %s", bad[i], why);
    }
}
END_TEST

START_TEST(topo_levels)
{
    struct axon_runtime_topo_spec t;
    char why[512];
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=3,ranks_per_node=8,domains_per_node=2", &t, why, sizeof(why)),
                     MPI_SUCCESS);
    /* Node by node, domain by domain: node 0 = ranks 0-7, its domains 0-3 and 4-7. */
    ck_assert_int_eq(axon_runtime_topo_spec_node(&t, 7), 0);
    ck_assert_int_eq(axon_runtime_topo_spec_node(&t, 8), 1);
    ck_assert_int_eq(axon_runtime_topo_spec_node(&t, 23), 2);
    ck_assert_int_eq(axon_coll_topo_level(&t, 0, 3), AXON_COLL_LEVEL_DOMAIN);
    ck_assert_int_eq(axon_coll_topo_level(&t, 3, 4), AXON_COLL_LEVEL_NODE);
    ck_assert_int_eq(axon_coll_topo_level(&t, 4, 7), AXON_COLL_LEVEL_DOMAIN);
    ck_assert_int_eq(axon_coll_topo_level(&t, 7, 8), AXON_COLL_LEVEL_FABRIC);
    ck_assert_int_eq(axon_coll_topo_level(&t, 12, 9), AXON_COLL_LEVEL_NODE);
    ck_assert_int_eq(axon_coll_topo_level(&t, 5, 5), AXON_COLL_LEVEL_DOMAIN);
    ck_assert_int_eq(axon_coll_topo_level(&t, 0, 23), AXON_COLL_LEVEL_FABRIC);
    /* One domain per node: node and domain are one. */
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=2,ranks_per_node=4", &t, why, sizeof(why)), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_topo_level(&t, 0, 3), AXON_COLL_LEVEL_DOMAIN);
    ck_assert_int_eq(axon_coll_topo_level(&t, 3, 4), AXON_COLL_LEVEL_FABRIC);
}
END_TEST

START_TEST(topo_domains)
{
    struct axon_runtime_topo_spec t;
    char why[512];
    /* Domains numbered across the machine: node 1's follow node 0's. */
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=3,domains_per_node=2,ranks_per_domain=3", &t, why, sizeof(why)),
                     MPI_SUCCESS);
    int expect[18] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5};
    for (int r = 0; r < 18; r++)
        ck_assert_int_eq(axon_runtime_topo_spec_domain(&t, r), expect[r]);
    ck_assert_int_eq(axon_runtime_topo_parse("nodes=2,ranks_per_node=3", &t, why, sizeof(why)), MPI_SUCCESS);
    ck_assert_int_eq(axon_runtime_topo_spec_domain(&t, 2), 0);
    ck_assert_int_eq(axon_runtime_topo_spec_domain(&t, 3), 1);
}
END_TEST

/* A file holds the same keys, on lines or separated by commas, with '#' comments. */
START_TEST(topo_file)
{
    char path[] = "/tmp/axon_topo_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# four nodes of two domains\nnodes = 4\n\ndomains_per_node=2, ranks_per_domain=2  # 4 a node\n");
    fclose(f);
    struct axon_runtime_topo_spec t;
    char why[512];
    ck_assert_int_eq(axon_runtime_topo_read_file(path, &t, why, sizeof(why)), MPI_SUCCESS);
    ck_assert_int_eq(t.nodes, 4);
    ck_assert_int_eq(t.ranks_per_node, 4);
    ck_assert_int_eq(t.domains_per_node, 2);
    f = fopen(path, "w");
    fprintf(f, "nodes=4\nranks=2\n");
    fclose(f);
    ck_assert_int_eq(axon_runtime_topo_read_file(path, &t, why, sizeof(why)), MPI_ERR_ARG);
    ck_assert_msg(strstr(why, path) && strstr(why, "unknown key 'ranks'") && strstr(why, "nodes=N,ranks_per_node=R"),
                  "%s", why);
    unlink(path);
    ck_assert_int_eq(axon_runtime_topo_read_file(path, &t, why, sizeof(why)), MPI_ERR_ARG);
    ck_assert_msg(strstr(why, "No such file"), "%s", why);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_model");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, set_keys);
    tcase_add_test(tc, parse_text);
    tcase_add_test(tc, print_and_load);
    tcase_add_test(tc, topo_parse);
    tcase_add_test(tc, topo_levels);
    tcase_add_test(tc, topo_domains);
    tcase_add_test(tc, topo_file);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
