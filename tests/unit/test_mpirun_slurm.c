/* mpirun inside a Slurm allocation (runtime/mpirun/axon_mpirun_slurm.c): the task count read from
 * SLURM_TASKS_PER_NODE, the job's size against it, when the job must go through srun, and the srun
 * command line mpirun's flags become. */
#include "runtime/mpirun/axon_mpirun.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static void clear_env(void)
{
    const char *vars[] = {"SLURM_JOB_ID", "SLURM_TASKS_PER_NODE", "SLURM_NTASKS", "SLURM_JOB_NUM_NODES",
                          "SLURM_NNODES", "SLURM_JOB_NODELIST"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        unsetenv(vars[i]);
}

START_TEST(test_tasks_sum)
{
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("4"), 4);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("2(x3),1"), 7);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("1,2,3"), 6);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("8(x2)"), 16);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum(""), -1);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum(NULL), -1);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("2(3)"), -1);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("2(x)"), -1);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("a"), -1);
    ck_assert_int_eq(axon_mpirun_slurm_tasks_sum("2,"), 2);
}
END_TEST

START_TEST(test_read)
{
    struct axon_mpirun_slurm s;
    clear_env();
    axon_mpirun_slurm_read(&s);
    ck_assert(!s.inside);
    setenv("SLURM_JOB_ID", "42", 1);
    setenv("SLURM_TASKS_PER_NODE", "2(x2)", 1);
    setenv("SLURM_NTASKS", "3", 1); /* the per-node count wins: it is what the allocation holds */
    setenv("SLURM_JOB_NUM_NODES", "2", 1);
    setenv("SLURM_JOB_NODELIST", "axon[1-2]", 1);
    axon_mpirun_slurm_read(&s);
    ck_assert(s.inside);
    ck_assert_int_eq(s.slots, 4);
    ck_assert_int_eq(s.nodes, 2);
    ck_assert_str_eq(s.nodelist, "axon[1-2]");
    unsetenv("SLURM_TASKS_PER_NODE");
    axon_mpirun_slurm_read(&s);
    ck_assert_int_eq(s.slots, 3);
    clear_env();
}
END_TEST

START_TEST(test_size)
{
    struct axon_mpirun_slurm s = {.inside = true, .slots = 4, .nodes = 2};
    struct axon_mpirun_options o = {.nranks = 1, .nranks_given = false};
    char err[256] = "";
    ck_assert_int_eq(axon_mpirun_slurm_size(&s, &o, err, sizeof(err)), 0);
    ck_assert_int_eq(o.nranks, 4); /* no -n: the allocation's tasks */
    o.nranks = 3;
    o.nranks_given = true;
    ck_assert_int_eq(axon_mpirun_slurm_size(&s, &o, err, sizeof(err)), 0);
    ck_assert_int_eq(o.nranks, 3);
    o.nranks = 5;
    ck_assert_int_eq(axon_mpirun_slurm_size(&s, &o, err, sizeof(err)), 1);
    ck_assert_ptr_nonnull(strstr(err, "5 ranks asked for, but this Slurm allocation holds 4 tasks"));
    ck_assert_ptr_nonnull(strstr(err, "--oversubscribe"));
    o.oversubscribe = true;
    ck_assert_int_eq(axon_mpirun_slurm_size(&s, &o, err, sizeof(err)), 0);
    struct axon_mpirun_slurm outside = {0};
    o.nranks_given = false;
    o.nranks = 1;
    ck_assert_int_eq(axon_mpirun_slurm_size(&outside, &o, err, sizeof(err)), 0);
    ck_assert_int_eq(o.nranks, 1);
}
END_TEST

START_TEST(test_remote)
{
    struct axon_mpirun_slurm s = {.inside = true, .slots = 2, .nodes = 1};
    strcpy(s.nodelist, "axon2");
    ck_assert(axon_mpirun_slurm_remote(&s, "axon1"));   /* salloc's shell on the login node */
    ck_assert(!axon_mpirun_slurm_remote(&s, "axon2"));  /* the allocated node itself (sbatch) */
    ck_assert(!axon_mpirun_slurm_remote(&s, "axon2.cluster.example"));
    ck_assert(axon_mpirun_slurm_remote(&s, "axon22"));
    s.nodes = 2;
    strcpy(s.nodelist, "axon[1-2]");
    ck_assert(axon_mpirun_slurm_remote(&s, "axon1"));
    struct axon_mpirun_slurm outside = {0};
    ck_assert(!axon_mpirun_slurm_remote(&outside, "axon1"));
}
END_TEST

static char *joined(char **argv)
{
    static char buf[1024];
    buf[0] = '\0';
    for (int i = 0; argv[i]; i++) {
        strcat(buf, i ? " " : "");
        strcat(buf, argv[i]);
    }
    return buf;
}

START_TEST(test_cmd)
{
    char *prog[] = {"./app", "-x", "1", NULL};
    struct axon_mpirun_options o = {.nranks = 4, .prog_argc = 3, .prog_argv = prog};
    struct axon_mpirun_slurm_cmd cmd;
    char notes[512];
    ck_assert_int_eq(axon_mpirun_slurm_cmd_make(&o, &cmd, notes, sizeof(notes)), 0);
    ck_assert_str_eq(joined(cmd.argv), "srun --mpi=pmix --ntasks=4 --kill-on-bad-exit=1 -- ./app -x 1");
    ck_assert_str_eq(notes, "");
    axon_mpirun_slurm_cmd_free(&cmd);

    o.ppn = 2;
    o.oversubscribe = true;
    o.no_cleanup = true;
    o.tag_output = true;
    o.wdir = "/data";
    o.timeout = 61;
    o.bind_to = AXON_MPIRUN_BIND_CORE;
    o.report_bindings = true;
    ck_assert_int_eq(axon_mpirun_slurm_cmd_make(&o, &cmd, notes, sizeof(notes)), 0);
    ck_assert_str_eq(joined(cmd.argv), "srun --mpi=pmix --ntasks=4 --ntasks-per-node=2 --overcommit --label "
                                       "--chdir=/data --time=2 --cpu-bind=verbose,cores -- ./app -x 1");
    ck_assert_ptr_nonnull(strstr(notes, "--timeout becomes srun --time"));
    axon_mpirun_slurm_cmd_free(&cmd);

    /* What srun cannot do is named, not dropped silently. */
    o = (struct axon_mpirun_options){.nranks = 2, .prog_argc = 1, .prog_argv = prog, .mps = true,
                                     .bind_to = AXON_MPIRUN_BIND_L2CACHE};
    ck_assert_int_eq(axon_mpirun_slurm_cmd_make(&o, &cmd, notes, sizeof(notes)), 0);
    ck_assert_str_eq(joined(cmd.argv), "srun --mpi=pmix --ntasks=2 --kill-on-bad-exit=1 -- ./app");
    ck_assert_ptr_nonnull(strstr(notes, "--bind-to is not passed on"));
    ck_assert_ptr_nonnull(strstr(notes, "--mps is not passed on"));
    axon_mpirun_slurm_cmd_free(&cmd);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mpirun_slurm");
    TCase *tc = tcase_create("mpirun_slurm");
    tcase_add_test(tc, test_tasks_sum);
    tcase_add_test(tc, test_read);
    tcase_add_test(tc, test_size);
    tcase_add_test(tc, test_remote);
    tcase_add_test(tc, test_cmd);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
