/* The node maps of the hierarchical compositions (coll/axon_coll_hier.h): nodes numbered by their
 * lowest rank whatever the ids, ranks grouped by node in ascending order, the leaders, the largest
 * node; and when a schedule may use a composition (AXON_COLL_NEEDS_NODES). */
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_select.h"

#include <check.h>
#include <mpi.h>
#include <stdlib.h>

START_TEST(map_of_scattered_ids)
{
    /* Ids out of order, a node of one rank, nodes interleaved. */
    int ids[] = {7, 2, 7, 5, 2, 7, 0};
    struct axon_coll_nodes m;
    ck_assert_int_eq(axon_coll_nodes_build(&m, ids, 7, 8), MPI_SUCCESS);
    ck_assert_int_eq(m.nnodes, 4);
    ck_assert_int_eq(m.max_per_node, 3);
    int node_of[] = {0, 1, 0, 2, 1, 0, 3}, leaders[] = {0, 1, 3, 6};
    int by_node[] = {0, 2, 5, 1, 4, 3, 6}, start[] = {0, 3, 5, 6, 7};
    for (int r = 0; r < 7; r++) {
        ck_assert_int_eq(m.node_of[r], node_of[r]);
        ck_assert_int_eq(m.by_node[r], by_node[r]);
    }
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(m.leaders[k], leaders[k]);
    for (int k = 0; k <= 4; k++)
        ck_assert_int_eq(m.node_start[k], start[k]);
    axon_coll_nodes_free(&m);
}
END_TEST

START_TEST(when_compositions_apply)
{
    struct axon_coll_sched *s;
    struct axon_coll_nodes spread, one_node, singles;
    int a[] = {0, 0, 1, 1}, b[] = {3, 3, 3, 3}, c[] = {0, 1, 2, 3};
    ck_assert_int_eq(axon_coll_nodes_build(&spread, a, 4, 2), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_nodes_build(&one_node, b, 4, 4), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_nodes_build(&singles, c, 4, 4), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_sched_create(NULL, 1, 4, 0, &s), MPI_SUCCESS);
    axon_coll_sched_set_dry(s);
    ck_assert_uint_eq(axon_coll_hier_have(s), 0); /* no map */
    axon_coll_sched_set_nodes(s, &spread);
    ck_assert_uint_eq(axon_coll_hier_have(s), AXON_COLL_NEEDS_NODES);
    /* Inside a subgroup no composition applies (a phase is never hierarchical itself). */
    int members[] = {0, 1};
    axon_coll_sched_set_subgroup(s, members, 2);
    ck_assert_int_eq(axon_coll_sched_rank(s), 1);
    ck_assert_int_eq(axon_coll_sched_size(s), 2);
    ck_assert_uint_eq(axon_coll_hier_have(s), 0);
    int others[] = {2, 3};
    axon_coll_sched_set_subgroup(s, others, 2);
    ck_assert_int_eq(axon_coll_sched_rank(s), -1);
    axon_coll_sched_set_subgroup(s, NULL, 0);
    ck_assert_int_eq(axon_coll_sched_rank(s), 1);
    ck_assert_int_eq(axon_coll_sched_size(s), 4);
    axon_coll_sched_set_nodes(s, &one_node);
    ck_assert_uint_eq(axon_coll_hier_have(s), 0);
    axon_coll_sched_set_nodes(s, &singles);
    ck_assert_uint_eq(axon_coll_hier_have(s), 0);
    axon_coll_sched_discard(s);
    axon_coll_nodes_free(&spread);
    axon_coll_nodes_free(&one_node);
    axon_coll_nodes_free(&singles);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_hier");
    TCase *tc = tcase_create("hier");
    tcase_add_test(tc, map_of_scattered_ids);
    tcase_add_test(tc, when_compositions_apply);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
