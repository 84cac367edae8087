/* Unit tests of mpirun's command line (runtime/mpirun/axon_mpirun_args.c, compiled into this test): every
 * spelling of every option, the defaults, bad values, unknown options, where options end and that the
 * program keeps its own arguments, -x and MPIEXEC_TIMEOUT, --bind-to's levels and qualifiers, --mps and
 * AXON_MPIRUN_MPS, and the host checks with real host files. */
#include "runtime/mpirun/axon_mpirun.h"

#include <check.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct axon_mpirun_options opts;
static char err[1024];
static char *argv_store[64];

/* Parses "mpirun" followed by the words given (NULL-terminated). */
static enum axon_mpirun_args_result parse(const char *first, ...)
{
    int argc = 0;
    argv_store[argc++] = "mpirun";
    va_list ap;
    va_start(ap, first);
    for (const char *w = first; w; w = va_arg(ap, const char *))
        argv_store[argc++] = (char *)w;
    va_end(ap);
    argv_store[argc] = NULL;
    axon_mpirun_args_free(&opts);
    return axon_mpirun_args_parse(argc, argv_store, &opts, err, sizeof(err));
}

static void setup(void)
{
    unsetenv("MPIEXEC_TIMEOUT");
    unsetenv("AXON_MPIRUN_MPS");
    memset(&opts, 0, sizeof(opts));
}

static void teardown(void)
{
    axon_mpirun_args_free(&opts);
}

static const char *env_value(const char *name)
{
    for (size_t i = 0; i < opts.nenv; i++) {
        if (strcmp(opts.env[i].name, name) == 0)
            return opts.env[i].value;
    }
    return NULL;
}

/* A temp file with the given text; the caller unlinks it. */
static void write_file(char *path, size_t len, const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, len, "%s/test_mpirun_args.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
}

START_TEST(test_defaults)
{
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 1);
    ck_assert_int_eq(opts.ppn, 0);
    ck_assert_int_eq(opts.timeout, 0);
    ck_assert(!opts.tag_output);
    ck_assert(!opts.oversubscribe);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_DEFAULT);
    ck_assert(!opts.bind_if_supported);
    ck_assert(!opts.report_bindings);
    ck_assert(!opts.hwthread_cpus);
    ck_assert(!opts.mps);
    ck_assert_ptr_null(opts.wdir);
    ck_assert_uint_eq(opts.nenv, 0);
    ck_assert_int_eq(opts.prog_argc, 1);
    ck_assert_str_eq(opts.prog_argv[0], "prog");
    ck_assert_ptr_null(opts.prog_argv[1]);
}
END_TEST

START_TEST(test_nranks_spellings)
{
    static const char *const names[] = {"-n", "-np", "--n", "--np", "-c"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        ck_assert_int_eq(parse(names[i], "4", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert_int_eq(opts.nranks, 4);
        ck_assert_str_eq(opts.prog_argv[0], "prog");
    }
    ck_assert_int_eq(parse("--np=6", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 6);
    ck_assert_int_eq(parse("--n=2", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 2);
}
END_TEST

START_TEST(test_nranks_invalid)
{
    static const char *const bad[] = {"0", "-1", "abc", "4x", "", " 4", "+4", "99999999999", "2.5"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(parse("-n", bad[i], "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
        ck_assert_ptr_nonnull(strstr(err, "-n"));
        ck_assert_ptr_nonnull(strstr(err, "positive integer"));
        ck_assert(strncmp(err, "mpirun: ", 8) == 0);
    }
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(parse("-n", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: -n needs a value");
}
END_TEST

START_TEST(test_ppn)
{
    static const char *const names[] = {"-N", "--npernode", "-npernode", "-ppn", "--ppn"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        ck_assert_int_eq(parse(names[i], "3", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert_int_eq(opts.nranks, 3);
        ck_assert_int_eq(opts.ppn, 3);
    }
    ck_assert_int_eq(parse("-n", "3", "-N", "3", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 3);
    ck_assert_int_eq(parse("-n", "2", "-N", "3", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_int_eq(parse("-N", "0", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
}
END_TEST

START_TEST(test_program_args_kept)
{
    ck_assert_int_eq(parse("-n", "2", "prog", "-n", "5", "--tag-output", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 2);
    ck_assert(!opts.tag_output);
    ck_assert_int_eq(opts.prog_argc, 4);
    ck_assert_str_eq(opts.prog_argv[0], "prog");
    ck_assert_str_eq(opts.prog_argv[1], "-n");
    ck_assert_str_eq(opts.prog_argv[2], "5");
    ck_assert_str_eq(opts.prog_argv[3], "--tag-output");
    ck_assert_ptr_null(opts.prog_argv[4]);
}
END_TEST

START_TEST(test_double_dash)
{
    ck_assert_int_eq(parse("-n", "2", "--", "-weird", "x", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 2);
    ck_assert_int_eq(opts.prog_argc, 2);
    ck_assert_str_eq(opts.prog_argv[0], "-weird");
    ck_assert_int_eq(parse("--", "prog", "--", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.prog_argc, 2);
    ck_assert_str_eq(opts.prog_argv[1], "--");
    ck_assert_int_eq(parse("-n", "2", "--", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: no program to run; see mpirun --help");
}
END_TEST

START_TEST(test_missing_program)
{
    ck_assert_int_eq(parse(NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: no program to run; see mpirun --help");
    ck_assert_int_eq(parse("-n", "2", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: no program to run; see mpirun --help");
}
END_TEST

START_TEST(test_unknown_option)
{
    ck_assert_int_eq(parse("--frobnicate", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: unknown option '--frobnicate'; see mpirun --help");
    ck_assert_int_eq(parse("-n", "2", "-z", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: unknown option '-z'; see mpirun --help");
    ck_assert_int_eq(parse("--tag-output=yes", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
}
END_TEST

START_TEST(test_help_version)
{
    ck_assert_int_eq(parse("--help", NULL), AXON_MPIRUN_ARGS_HELP);
    ck_assert_int_eq(parse("-h", NULL), AXON_MPIRUN_ARGS_HELP);
    ck_assert_int_eq(parse("-n", "2", "--help", "prog", NULL), AXON_MPIRUN_ARGS_HELP);
    ck_assert_int_eq(parse("--version", NULL), AXON_MPIRUN_ARGS_VERSION);
    ck_assert_int_eq(parse("-V", NULL), AXON_MPIRUN_ARGS_VERSION);
    /* After the program, --help is the program's. */
    ck_assert_int_eq(parse("prog", "--help", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_ptr_nonnull(strstr(axon_mpirun_args_usage(), "default: 1"));
}
END_TEST

START_TEST(test_export)
{
    setenv("AXON_TEST_EXPORTED", "from-mpirun", 1);
    unsetenv("AXON_TEST_UNSET");
    ck_assert_int_eq(parse("-x", "A=1", "-x", "AXON_TEST_EXPORTED", "-x", "AXON_TEST_UNSET", "-x", "EMPTY=", "prog",
                           NULL),
                     AXON_MPIRUN_ARGS_RUN);
    ck_assert_str_eq(env_value("A"), "1");
    ck_assert_str_eq(env_value("AXON_TEST_EXPORTED"), "from-mpirun");
    ck_assert_ptr_null(env_value("AXON_TEST_UNSET"));
    ck_assert_str_eq(env_value("EMPTY"), "");
    ck_assert_uint_eq(opts.nenv, 3);
    /* A value may hold '='; a later setting wins. */
    ck_assert_int_eq(parse("-x", "A=b=c", "-x", "A=2", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_str_eq(env_value("A"), "2");
    ck_assert_uint_eq(opts.nenv, 1);
    ck_assert_int_eq(parse("-x", "=v", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_int_eq(parse("-x", NULL), AXON_MPIRUN_ARGS_ERROR);
    unsetenv("AXON_TEST_EXPORTED");
}
END_TEST

START_TEST(test_genv)
{
    ck_assert_int_eq(parse("-genv", "A", "1", "-env", "B", "two words", "--genv", "C", "3", "prog", NULL),
                     AXON_MPIRUN_ARGS_RUN);
    ck_assert_str_eq(env_value("A"), "1");
    ck_assert_str_eq(env_value("B"), "two words");
    ck_assert_str_eq(env_value("C"), "3");
    ck_assert_str_eq(opts.prog_argv[0], "prog");
    ck_assert_int_eq(parse("-genv", "A", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: -genv needs two values");
    setenv("AXON_TEST_L1", "x", 1);
    setenv("AXON_TEST_L2", "y", 1);
    ck_assert_int_eq(parse("-genvlist", "AXON_TEST_L1,AXON_TEST_L2", "-genvall", "prog", NULL),
                     AXON_MPIRUN_ARGS_RUN);
    ck_assert_str_eq(env_value("AXON_TEST_L1"), "x");
    ck_assert_str_eq(env_value("AXON_TEST_L2"), "y");
    unsetenv("AXON_TEST_L1");
    unsetenv("AXON_TEST_L2");
}
END_TEST

START_TEST(test_mca_ignored)
{
    ck_assert_int_eq(parse("--mca", "btl", "self,vader", "-mca", "pml", "ob1", "-n", "2", "prog", NULL),
                     AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.nranks, 2);
    ck_assert_int_eq(opts.prog_argc, 1);
    ck_assert_str_eq(opts.prog_argv[0], "prog");
    ck_assert_uint_eq(opts.nenv, 0);
    ck_assert_int_eq(parse("--mca", "btl", NULL), AXON_MPIRUN_ARGS_ERROR);
}
END_TEST

START_TEST(test_flags_accepted)
{
    ck_assert_int_eq(parse("--tag-output", "--oversubscribe", "--allow-run-as-root", "--report-bindings",
                           "--bind-to", "core", "--map-by", "ppr:2:node", "--map-by=slot", "--bind-to=none",
                           "-bind-to", "numa", "--bind-to", "socket", "--bind-to", "hwthread", "--rank-by", "core",
                           "prog", NULL),
                     AXON_MPIRUN_ARGS_RUN);
    ck_assert(opts.tag_output);
    ck_assert(opts.oversubscribe);
    ck_assert(opts.report_bindings);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_HWTHREAD); /* the last --bind-to wins */
    ck_assert_int_eq(opts.prog_argc, 1);
}
END_TEST

START_TEST(test_bind_to)
{
    static const struct {
        const char *value;
        enum axon_mpirun_bind_level level;
    } levels[] = {{"none", AXON_MPIRUN_BIND_NONE},       {"hwthread", AXON_MPIRUN_BIND_HWTHREAD},
                  {"core", AXON_MPIRUN_BIND_CORE},       {"CORE", AXON_MPIRUN_BIND_CORE},
                  {"l1cache", AXON_MPIRUN_BIND_L1CACHE}, {"l2cache", AXON_MPIRUN_BIND_L2CACHE},
                  {"l3cache", AXON_MPIRUN_BIND_L3CACHE}, {"numa", AXON_MPIRUN_BIND_NUMA},
                  {"socket", AXON_MPIRUN_BIND_PACKAGE},  {"package", AXON_MPIRUN_BIND_PACKAGE},
                  {"board", AXON_MPIRUN_BIND_BOARD}};
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        ck_assert_int_eq(parse("--bind-to", levels[i].value, "prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert_int_eq(opts.bind_to, levels[i].level);
        ck_assert(!opts.bind_if_supported);
        ck_assert(!opts.report_bindings);
    }
    /* MPICH's spelling, the '=' form, and Open MPI's qualifiers. */
    ck_assert_int_eq(parse("-bind-to", "core", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_CORE);
    ck_assert_int_eq(parse("--bind-to=numa", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_NUMA);
    ck_assert_int_eq(parse("--bind-to", "core:overload-allowed", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_CORE);
    ck_assert(!opts.bind_if_supported);
    ck_assert_int_eq(parse("--bind-to", "l3cache:overload-allowed,if-supported", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_L3CACHE);
    ck_assert(opts.bind_if_supported);
    ck_assert_int_eq(parse("--bind-to", "socket:IF-SUPPORTED:report", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_PACKAGE);
    ck_assert(opts.bind_if_supported);
    ck_assert(opts.report_bindings);
    ck_assert_int_eq(parse("-bind-to", "core:2", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_CORE);
    /* A later --bind-to drops the earlier one's qualifiers. */
    ck_assert_int_eq(parse("--bind-to", "numa:if-supported", "--bind-to", "core", "prog", NULL),
                     AXON_MPIRUN_ARGS_RUN);
    ck_assert(!opts.bind_if_supported);
    /* --report-bindings, --use-hwthread-cpus. */
    ck_assert_int_eq(parse("-report-bindings", "-use-hwthread-cpus", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(opts.report_bindings);
    ck_assert(opts.hwthread_cpus);
    ck_assert_int_eq(opts.bind_to, AXON_MPIRUN_BIND_DEFAULT);
    ck_assert_int_eq(parse("--report-bindings=yes", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    /* Bad levels. */
    ck_assert_int_eq(parse("--bind-to", "elbow", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "elbow"));
    ck_assert_ptr_nonnull(strstr(err, "hwthread, core"));
    ck_assert_int_eq(parse("--bind-to", "", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_int_eq(parse("--bind-to", ":core", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_int_eq(parse("--bind-to", NULL), AXON_MPIRUN_ARGS_ERROR);
}
END_TEST

START_TEST(test_timeout)
{
    ck_assert_int_eq(parse("--timeout", "5", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.timeout, 5);
    ck_assert_int_eq(parse("--timeout=7", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.timeout, 7);
    ck_assert_int_eq(parse("--timeout", "0", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_int_eq(parse("--timeout", "soon", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    setenv("MPIEXEC_TIMEOUT", "9", 1);
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.timeout, 9);
    ck_assert_int_eq(parse("--timeout", "3", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.timeout, 3); /* the flag wins */
    setenv("MPIEXEC_TIMEOUT", "0", 1);
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(opts.timeout, 0);
    setenv("MPIEXEC_TIMEOUT", "later", 1);
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "MPIEXEC_TIMEOUT"));
    unsetenv("MPIEXEC_TIMEOUT");
}
END_TEST

START_TEST(test_no_cleanup)
{
    ck_assert_int_eq(parse("-n", "2", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(!opts.no_cleanup);
    /* A flag without a value: the option after it is read as one. */
    ck_assert_int_eq(parse("-disable-auto-cleanup", "--timeout", "60", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(opts.no_cleanup);
    ck_assert_int_eq(opts.timeout, 60);
    ck_assert_str_eq(opts.prog_argv[0], "prog");
    ck_assert_int_eq(parse("--disable-auto-cleanup", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(opts.no_cleanup);
    ck_assert_int_eq(parse("prog", "-disable-auto-cleanup", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(!opts.no_cleanup);
}
END_TEST

START_TEST(test_mps)
{
    ck_assert_int_eq(parse("--mps", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(opts.mps);
    ck_assert_str_eq(opts.prog_argv[0], "prog");
    ck_assert_int_eq(parse("-mps", "-n", "2", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(opts.mps);
    ck_assert_int_eq(opts.nranks, 2);
    ck_assert_int_eq(parse("--mps=yes", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    /* After the program's name, --mps is the program's. */
    ck_assert_int_eq(parse("prog", "--mps", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(!opts.mps);
    ck_assert_int_eq(opts.prog_argc, 2);
    /* AXON_MPIRUN_MPS: the library's boolean words; empty is off; anything else is an error. */
    static const char *const on[] = {"1", "yes", "ON", "true"};
    for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
        setenv("AXON_MPIRUN_MPS", on[i], 1);
        ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert(opts.mps);
    }
    static const char *const off[] = {"0", "no", "off", ""};
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
        setenv("AXON_MPIRUN_MPS", off[i], 1);
        ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert(!opts.mps);
    }
    ck_assert_int_eq(parse("--mps", "prog", NULL), AXON_MPIRUN_ARGS_RUN); /* the flag wins over "0" */
    ck_assert(opts.mps);
    setenv("AXON_MPIRUN_MPS", "sometimes", 1);
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "AXON_MPIRUN_MPS"));
    unsetenv("AXON_MPIRUN_MPS");
    ck_assert_int_eq(parse("prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert(!opts.mps);
    ck_assert_ptr_nonnull(strstr(axon_mpirun_args_usage(), "--mps"));
}
END_TEST

START_TEST(test_wdir)
{
    static const char *const names[] = {"-wdir", "--wdir", "-wd", "--wd"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        ck_assert_int_eq(parse(names[i], "/usr", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert_str_eq(opts.wdir, "/usr");
    }
    ck_assert_int_eq(parse("--wdir=/tmp", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_str_eq(opts.wdir, "/tmp");
    ck_assert_int_eq(parse("-wdir", NULL), AXON_MPIRUN_ARGS_ERROR);
}
END_TEST

START_TEST(test_hosts_local)
{
    char self[HOST_NAME_MAX + 1], shortname[HOST_NAME_MAX + 1], list[3 * HOST_NAME_MAX];
    ck_assert_int_eq(gethostname(self, sizeof(self)), 0);
    snprintf(shortname, sizeof(shortname), "%.*s", (int)strcspn(self, "."), self);
    ck_assert(axon_mpirun_args_host_is_local("localhost"));
    ck_assert(axon_mpirun_args_host_is_local("127.0.0.1"));
    ck_assert(axon_mpirun_args_host_is_local(self));
    ck_assert(axon_mpirun_args_host_is_local(shortname));
    ck_assert(!axon_mpirun_args_host_is_local("othermachine"));
    snprintf(list, sizeof(list), "localhost,%s:2,%s,127.0.0.1", self, shortname);
    static const char *const names[] = {"--host", "-host", "-H", "--hosts"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        ck_assert_int_eq(parse(names[i], list, "prog", NULL), AXON_MPIRUN_ARGS_RUN);
    ck_assert_int_eq(parse("--host=localhost", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
}
END_TEST

START_TEST(test_hosts_remote)
{
    ck_assert_int_eq(parse("--host", "localhost,othermachine", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_str_eq(err, "mpirun: host 'othermachine' is not this machine; Axon's mpirun starts jobs on one "
                          "machine only. For a job across machines use Slurm: srun --mpi=pmix ...");
    ck_assert_int_eq(parse("-H", "othermachine:4", "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "'othermachine'"));
}
END_TEST

START_TEST(test_hostfile)
{
    char self[HOST_NAME_MAX + 1], text[1024], path[4096];
    ck_assert_int_eq(gethostname(self, sizeof(self)), 0);
    snprintf(text, sizeof(text),
             "# a comment\n\nlocalhost slots=4\n   %s   slots=2 max_slots=8 # trailing\n127.0.0.1:2\n\t\n", self);
    write_file(path, sizeof(path), text);
    static const char *const names[] = {"--hostfile", "-hostfile", "--machinefile", "-machinefile", "-f"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        ck_assert_int_eq(parse(names[i], path, "-n", "2", "prog", NULL), AXON_MPIRUN_ARGS_RUN);
        ck_assert_int_eq(opts.nranks, 2);
    }
    unlink(path);

    write_file(path, sizeof(path), "localhost slots=2\nothermachine slots=2\n");
    ck_assert_int_eq(parse("--hostfile", path, "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "host 'othermachine' is not this machine"));
    ck_assert_ptr_nonnull(strstr(err, "srun --mpi=pmix"));
    unlink(path);

    ck_assert_int_eq(parse("--hostfile", path, "prog", NULL), AXON_MPIRUN_ARGS_ERROR);
    ck_assert_ptr_nonnull(strstr(err, "cannot read the host file"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mpirun_args");
    TCase *tc = tcase_create("mpirun_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_defaults);
    tcase_add_test(tc, test_nranks_spellings);
    tcase_add_test(tc, test_nranks_invalid);
    tcase_add_test(tc, test_ppn);
    tcase_add_test(tc, test_program_args_kept);
    tcase_add_test(tc, test_double_dash);
    tcase_add_test(tc, test_missing_program);
    tcase_add_test(tc, test_unknown_option);
    tcase_add_test(tc, test_help_version);
    tcase_add_test(tc, test_export);
    tcase_add_test(tc, test_genv);
    tcase_add_test(tc, test_mca_ignored);
    tcase_add_test(tc, test_flags_accepted);
    tcase_add_test(tc, test_bind_to);
    tcase_add_test(tc, test_timeout);
    tcase_add_test(tc, test_mps);
    tcase_add_test(tc, test_no_cleanup);
    tcase_add_test(tc, test_wdir);
    tcase_add_test(tc, test_hosts_local);
    tcase_add_test(tc, test_hosts_remote);
    tcase_add_test(tc, test_hostfile);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
