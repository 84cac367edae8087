/* Unit tests of mpirun's binding (runtime/mpirun/axon_mpirun_bind.c, compiled into this test): the pure
 * mapping (rank to object index, the default level) without hwloc, then whole plans on synthetic hwloc
 * topologies bigger than any CI machine: every level, round-robin overload, the oversubscribed default,
 * hwloc's logical order against the OS numbering, a topology restricted to some CPUs, a level the
 * machine lacks, and the --report-bindings lines. */
#include "runtime/mpirun/axon_mpirun.h"

#include <check.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct axon_mpirun_binding plan;
static char warn[512];

static hwloc_topology_t synthetic(const char *description)
{
    hwloc_topology_t topo;
    ck_assert_int_eq(hwloc_topology_init(&topo), 0);
    ck_assert_int_eq(hwloc_topology_set_synthetic(topo, description), 0);
    ck_assert_int_eq(hwloc_topology_load(topo), 0);
    return topo;
}

/* Plans nranks ranks on the topology at `level`. */
static void make_plan(hwloc_topology_t topo, enum axon_mpirun_bind_level level, bool hwthread_cpus,
                      bool if_supported, int nranks)
{
    axon_mpirun_bind_free(&plan);
    axon_mpirun_bind_plan_topology(&plan, topo, level, hwthread_cpus, if_supported, nranks, warn, sizeof(warn));
    ck_assert_int_eq(plan.nranks, nranks);
}

static void expect_rank(int rank, unsigned index, const char *cpus)
{
    ck_assert_ptr_nonnull(plan.ranks);
    ck_assert_ptr_nonnull(plan.ranks[rank].set);
    ck_assert_uint_eq(plan.ranks[rank].index, index);
    ck_assert_str_eq(plan.ranks[rank].cpus, cpus);
    /* The set the child will apply holds exactly the CPUs listed. */
    hwloc_bitmap_t listed = hwloc_bitmap_alloc();
    ck_assert_int_eq(hwloc_bitmap_list_sscanf(listed, cpus), 0);
    for (int cpu = 0; cpu < 64; cpu++)
        ck_assert_int_eq(CPU_ISSET_S(cpu, plan.ranks[rank].setsize, plan.ranks[rank].set) != 0,
                         hwloc_bitmap_isset(listed, (unsigned)cpu));
    hwloc_bitmap_free(listed);
}

static void expect_unbound(void)
{
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_NONE);
    ck_assert_ptr_null(plan.ranks);
    for (int r = 0; r < plan.nranks; r++)
        ck_assert_int_eq(axon_mpirun_bind_apply(&plan, r), 0); /* nothing to apply */
}

static void teardown(void)
{
    axon_mpirun_bind_free(&plan);
}

START_TEST(test_object_index)
{
    ck_assert_int_eq(axon_mpirun_bind_object_index(0, 4), 0);
    ck_assert_int_eq(axon_mpirun_bind_object_index(3, 4), 3);
    ck_assert_int_eq(axon_mpirun_bind_object_index(4, 4), 0); /* overload: round-robin */
    ck_assert_int_eq(axon_mpirun_bind_object_index(9, 4), 1);
    ck_assert_int_eq(axon_mpirun_bind_object_index(6, 1), 0);
    ck_assert_int_eq(axon_mpirun_bind_object_index(0, 0), -1);
    ck_assert_int_eq(axon_mpirun_bind_object_index(-1, 4), -1);
}
END_TEST

START_TEST(test_resolve)
{
    /* The default: core while the ranks fit the cores, none when they oversubscribe. */
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, false, 1, 2, 2), AXON_MPIRUN_BIND_CORE);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, false, 2, 2, 4), AXON_MPIRUN_BIND_CORE);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, false, 3, 2, 4), AXON_MPIRUN_BIND_NONE);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, false, 7, 2, 2), AXON_MPIRUN_BIND_NONE);
    /* Hardware threads as slots. */
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, true, 4, 2, 4), AXON_MPIRUN_BIND_HWTHREAD);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, true, 5, 2, 4), AXON_MPIRUN_BIND_NONE);
    /* No cores known: hardware threads count; nothing known: no binding. */
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, false, 3, 0, 4), AXON_MPIRUN_BIND_CORE);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_DEFAULT, false, 1, 0, 0), AXON_MPIRUN_BIND_NONE);
    /* An explicit level stays, overloaded or not. */
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_CORE, false, 7, 2, 2), AXON_MPIRUN_BIND_CORE);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_HWTHREAD, false, 9, 2, 2),
                     AXON_MPIRUN_BIND_HWTHREAD);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_NONE, false, 1, 8, 8), AXON_MPIRUN_BIND_NONE);
    ck_assert_int_eq(axon_mpirun_bind_resolve(AXON_MPIRUN_BIND_NUMA, true, 1, 8, 8), AXON_MPIRUN_BIND_NUMA);
}
END_TEST

START_TEST(test_level_names)
{
    ck_assert_str_eq(axon_mpirun_bind_level_name(AXON_MPIRUN_BIND_CORE), "core");
    ck_assert_str_eq(axon_mpirun_bind_level_name(AXON_MPIRUN_BIND_HWTHREAD), "hwthread");
    ck_assert_str_eq(axon_mpirun_bind_level_name(AXON_MPIRUN_BIND_L3CACHE), "l3cache");
    ck_assert_str_eq(axon_mpirun_bind_level_name(AXON_MPIRUN_BIND_PACKAGE), "package");
    ck_assert_str_eq(axon_mpirun_bind_level_name(AXON_MPIRUN_BIND_NUMA), "numa");
    ck_assert_str_eq(axon_mpirun_bind_level_name(AXON_MPIRUN_BIND_BOARD), "board");
}
END_TEST

/* Two packages, each with a NUMA node and two L3 caches of two cores of two hardware threads. */
static const char two_sockets[] = "pack:2 [numa] l3:2 core:2 pu:2";

START_TEST(test_core)
{
    hwloc_topology_t topo = synthetic(two_sockets);
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 8);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_CORE);
    ck_assert_str_eq(warn, "");
    char cpus[16];
    for (int r = 0; r < 8; r++) {
        snprintf(cpus, sizeof(cpus), "%d-%d", 2 * r, 2 * r + 1);
        expect_rank(r, (unsigned)r, cpus);
    }
    ck_assert_ptr_null(plan.spare_cpus); /* every core has its rank */
    /* Fewer ranks than cores: the cores left are the progress threads' (AXON_SPARE_CPUS). */
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 3);
    ck_assert_str_eq(plan.spare_cpus, "6-15");
    /* One rank more than cores: the default leaves them all unbound... */
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 9);
    expect_unbound();
    ck_assert_ptr_null(plan.spare_cpus);
    ck_assert_str_eq(warn, "");
    /* ...an explicit core wraps round-robin, silently. */
    make_plan(topo, AXON_MPIRUN_BIND_CORE, false, false, 10);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_CORE);
    ck_assert_str_eq(warn, "");
    expect_rank(7, 7, "14-15");
    expect_rank(8, 0, "0-1");
    expect_rank(9, 1, "2-3");
    make_plan(topo, AXON_MPIRUN_BIND_NONE, false, false, 2);
    expect_unbound();
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_hwthread)
{
    hwloc_topology_t topo = synthetic(two_sockets);
    make_plan(topo, AXON_MPIRUN_BIND_HWTHREAD, false, false, 17);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_HWTHREAD);
    expect_rank(0, 0, "0");
    expect_rank(1, 1, "1");
    expect_rank(15, 15, "15");
    expect_rank(16, 0, "0");
    /* --use-hwthread-cpus: hardware threads are the slots of the default. */
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, true, false, 16);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_HWTHREAD);
    expect_rank(5, 5, "5");
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, true, false, 17);
    expect_unbound();
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_bigger_objects)
{
    hwloc_topology_t topo = synthetic(two_sockets);
    /* Mapped by core, bound to the object that holds the core. */
    make_plan(topo, AXON_MPIRUN_BIND_L3CACHE, false, false, 9);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_L3CACHE);
    expect_rank(0, 0, "0-3");
    expect_rank(1, 0, "0-3");
    expect_rank(2, 1, "4-7");
    expect_rank(7, 3, "12-15");
    expect_rank(8, 0, "0-3");
    make_plan(topo, AXON_MPIRUN_BIND_NUMA, false, false, 6);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_NUMA);
    expect_rank(3, 0, "0-7");
    expect_rank(4, 1, "8-15");
    make_plan(topo, AXON_MPIRUN_BIND_PACKAGE, false, false, 6);
    expect_rank(0, 0, "0-7");
    expect_rank(5, 1, "8-15");
    make_plan(topo, AXON_MPIRUN_BIND_BOARD, false, false, 2);
    expect_rank(1, 0, "0-15");
    ck_assert_str_eq(warn, "");
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_missing_level)
{
    hwloc_topology_t topo = synthetic(two_sockets);
    make_plan(topo, AXON_MPIRUN_BIND_L2CACHE, false, false, 2);
    expect_unbound();
    ck_assert_str_eq(warn, "mpirun: warning: --bind-to l2cache: this machine has no l2cache; the ranks are not "
                           "bound");
    make_plan(topo, AXON_MPIRUN_BIND_L2CACHE, false, true, 2); /* :if-supported */
    expect_unbound();
    ck_assert_str_eq(warn, "");
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_logical_order)
{
    /* The OS numbers the second thread of each core after all the first ones, as on many x86 machines:
     * cores go in hwloc's logical order, each with all of its threads. */
    hwloc_topology_t topo = synthetic("pack:1 [numa] core:4 pu:2(indexes=0,4,1,5,2,6,3,7)");
    make_plan(topo, AXON_MPIRUN_BIND_CORE, false, false, 4);
    expect_rank(0, 0, "0,4");
    expect_rank(1, 1, "1,5");
    expect_rank(3, 3, "3,7");
    make_plan(topo, AXON_MPIRUN_BIND_HWTHREAD, false, false, 3);
    expect_rank(0, 0, "0");
    expect_rank(1, 1, "4");
    expect_rank(2, 2, "1");
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_restricted)
{
    /* mpirun may use CPUs 2-5 only: two cores, which the ranks share out; a third rank oversubscribes. */
    hwloc_topology_t topo = synthetic(two_sockets);
    hwloc_bitmap_t mine = hwloc_bitmap_alloc();
    hwloc_bitmap_set_range(mine, 2, 5);
    ck_assert_int_eq(hwloc_topology_restrict(topo, mine, 0), 0);
    hwloc_bitmap_free(mine);
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 2);
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_CORE);
    expect_rank(0, 0, "2-3");
    expect_rank(1, 1, "4-5");
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 3);
    expect_unbound();
    /* A bigger object is cut to the CPUs mpirun may use. */
    make_plan(topo, AXON_MPIRUN_BIND_PACKAGE, false, false, 2);
    expect_rank(0, 0, "2-5");
    expect_rank(1, 0, "2-5");
    make_plan(topo, AXON_MPIRUN_BIND_L3CACHE, false, false, 2);
    expect_rank(1, 1, "4-5");
    hwloc_topology_destroy(topo);
}
END_TEST

/* The --report-bindings lines of the current plan. */
static char *report(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    axon_mpirun_bind_report(&plan, f);
    fclose(f);
    return text;
}

START_TEST(test_report)
{
    hwloc_topology_t topo = synthetic(two_sockets);
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 2);
    char *text = report();
    ck_assert_str_eq(text, "mpirun: rank 0 bound to core 0 (cpus 0-1)\nmpirun: rank 1 bound to core 1 (cpus 2-3)\n");
    free(text);
    make_plan(topo, AXON_MPIRUN_BIND_NUMA, false, false, 5);
    text = report();
    ck_assert_ptr_nonnull(strstr(text, "mpirun: rank 4 bound to numa 1 (cpus 8-15)\n"));
    free(text);
    make_plan(topo, AXON_MPIRUN_BIND_DEFAULT, false, false, 9);
    text = report();
    ck_assert_ptr_nonnull(strstr(text, "mpirun: rank 0 not bound\n"));
    ck_assert_ptr_nonnull(strstr(text, "mpirun: rank 8 not bound\n"));
    free(text);
    hwloc_topology_destroy(topo);
}
END_TEST

/* The plan of this machine, whatever it is: never a failure, and --bind-to none reads no topology. */
START_TEST(test_this_machine)
{
    struct axon_mpirun_options opts = {.nranks = 1, .bind_to = AXON_MPIRUN_BIND_NONE};
    axon_mpirun_bind_free(&plan);
    axon_mpirun_bind_plan(&plan, &opts, warn, sizeof(warn));
    expect_unbound();
    ck_assert_str_eq(warn, "");
    opts.bind_to = AXON_MPIRUN_BIND_DEFAULT;
    axon_mpirun_bind_free(&plan);
    axon_mpirun_bind_plan(&plan, &opts, warn, sizeof(warn));
    ck_assert_str_eq(warn, "");
    ck_assert_int_eq(plan.level, AXON_MPIRUN_BIND_CORE); /* one rank fits any machine */
    ck_assert_ptr_nonnull(plan.ranks[0].set);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mpirun_bind");
    TCase *tc = tcase_create("mpirun_bind");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, test_object_index);
    tcase_add_test(tc, test_resolve);
    tcase_add_test(tc, test_level_names);
    tcase_add_test(tc, test_core);
    tcase_add_test(tc, test_hwthread);
    tcase_add_test(tc, test_bigger_objects);
    tcase_add_test(tc, test_missing_level);
    tcase_add_test(tc, test_logical_order);
    tcase_add_test(tc, test_restricted);
    tcase_add_test(tc, test_report);
    tcase_add_test(tc, test_this_machine);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
