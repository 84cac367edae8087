/* Unit tests of when a waiting thread yields its core (ucx_glue/axon_ucx_wait_policy.c): ranks against
 * cores, the launcher's word, AXON_WAIT_MODE, and threads of one rank waiting at once. */
#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <check.h>
#include <stdlib.h>

START_TEST(test_ranks_against_cores)
{
    struct axon_ucx_wait_policy p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, -1, 2, 2, false);
    ck_assert(!p.yield_when_idle);
    ck_assert(!axon_ucx_wait_policy_yields(&p, 1));
    ck_assert(!axon_ucx_wait_policy_yields(&p, 8)); /* one thread a rank: the count never exceeds 1 */
    p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, -1, 2, 3, false);
    ck_assert(p.yield_when_idle);
    ck_assert(axon_ucx_wait_policy_yields(&p, 1));
    /* mpirun's word beats the count (it knows the node's ranks; AXON_TOPO may pretend otherwise). */
    p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, 0, 2, 7, false);
    ck_assert(!p.yield_when_idle);
    p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, 1, 64, 2, false);
    ck_assert(p.yield_when_idle);
}
END_TEST

START_TEST(test_modes)
{
    struct axon_ucx_wait_policy p = axon_ucx_wait_policy_decide(AXON_WAIT_SPIN, 1, 1, 16, true);
    ck_assert(!p.yield_when_idle);
    ck_assert(!axon_ucx_wait_policy_yields(&p, 100));
    p = axon_ucx_wait_policy_decide(AXON_WAIT_YIELD, 0, 64, 1, false);
    ck_assert(p.yield_when_idle);
    ck_assert(axon_ucx_wait_policy_yields(&p, 1));
}
END_TEST

/* MPICH's threads/comm/dup_leak_test: 4 threads in each of 2 ranks on 2 cores. mpirun says the node is
 * not oversubscribed (2 ranks, 2 cores), yet 8 spinning threads kept the ones being waited for off the
 * cores: the threads beyond the rank's share of the cores must yield. */
START_TEST(test_threads_share_the_cores)
{
    struct axon_ucx_wait_policy p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, 0, 2, 2, true);
    ck_assert(!p.yield_when_idle);
    ck_assert_int_eq(p.spin_threads_max, 1);
    ck_assert(!axon_ucx_wait_policy_yields(&p, 1));
    ck_assert(axon_ucx_wait_policy_yields(&p, 2));
    ck_assert(axon_ucx_wait_policy_yields(&p, 4));

    p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, -1, 16, 2, true);
    ck_assert_int_eq(p.spin_threads_max, 8);
    ck_assert(!axon_ucx_wait_policy_yields(&p, 8));
    ck_assert(axon_ucx_wait_policy_yields(&p, 9));

    /* Fewer cores than ranks is oversubscribed anyway; a rank alone on a node of one core still gets one
     * spinning thread. */
    p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, -1, 1, 1, true);
    ck_assert_int_eq(p.spin_threads_max, 1);
    p = axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, 0, 2, 3, true);
    ck_assert_int_eq(p.spin_threads_max, 1);
    /* No limit without threads, nor when spinning is asked for. */
    ck_assert_int_eq(axon_ucx_wait_policy_decide(AXON_WAIT_AUTO, 0, 2, 2, false).spin_threads_max, 0);
    ck_assert_int_eq(axon_ucx_wait_policy_decide(AXON_WAIT_SPIN, 0, 2, 2, true).spin_threads_max, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ucx_wait_policy");
    TCase *tc = tcase_create("decide");
    tcase_add_test(tc, test_ranks_against_cores);
    tcase_add_test(tc, test_modes);
    tcase_add_test(tc, test_threads_share_the_cores);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
