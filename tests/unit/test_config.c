/* Unit tests of the AXON_* knob table: defaults, every type's parsing, and the messages for bad values. */
#include "runtime/runtime.h"

#include <check.h>
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

START_TEST(test_defaults_parse)
{
    struct axon_config cfg;
    char err[256];
    size_t n;
    const struct axon_config_entry *t = axon_runtime_config_table(&n);
    ck_assert_uint_gt(n, 0);
    for (size_t i = 0; i < n; i++) {
        unsetenv(t[i].name);
        ck_assert_msg(strncmp(t[i].name, "AXON_", 5) == 0, "%s is not an AXON_ name", t[i].name);
        ck_assert_msg(t[i].help && *t[i].help, "%s has no help", t[i].name);
    }
    ck_assert_int_eq(axon_runtime_config_load(&cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.wait_mode, AXON_WAIT_AUTO);
    ck_assert_int_eq(cfg.oversubscribed, -1);
    ck_assert_int_eq(cfg.spin_count, 10);
    ck_assert_int_eq(cfg.async_progress, 0);
    ck_assert_int_eq(cfg.cuda, -1); /* AXON_CUDA=auto */
    ck_assert_str_eq(cfg.cuda_library, "libcuda.so.1");
}
END_TEST

START_TEST(test_environment_overrides)
{
    struct axon_config cfg;
    char err[256];
    setenv("AXON_WAIT_MODE", "yield", 1);
    setenv("AXON_OVERSUBSCRIBED", "1", 1);
    setenv("AXON_SPIN_COUNT", "42", 1);
    setenv("AXON_ASYNC_PROGRESS", "yes", 1);
    ck_assert_int_eq(axon_runtime_config_load(&cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.async_progress, 1);
    ck_assert_int_eq(cfg.wait_mode, AXON_WAIT_YIELD);
    ck_assert_int_eq(cfg.oversubscribed, 1);
    ck_assert_int_eq(cfg.spin_count, 42);
    unsetenv("AXON_WAIT_MODE");
    unsetenv("AXON_OVERSUBSCRIBED");
    unsetenv("AXON_SPIN_COUNT");
    unsetenv("AXON_ASYNC_PROGRESS");
}
END_TEST

START_TEST(test_bad_values_named)
{
    struct axon_config cfg;
    char err[256];
    setenv("AXON_WAIT_MODE", "sometimes", 1);
    ck_assert_int_eq(axon_runtime_config_load(&cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "AXON_WAIT_MODE='sometimes'"));
    ck_assert_ptr_nonnull(strstr(err, "auto|spin|yield"));
    unsetenv("AXON_WAIT_MODE");
    setenv("AXON_SPIN_COUNT", "12abc", 1);
    ck_assert_int_eq(axon_runtime_config_load(&cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "AXON_SPIN_COUNT"));
    unsetenv("AXON_SPIN_COUNT");
    /* A boolean knob takes a word it knows, nothing else: "2" is not "on". */
    setenv("AXON_ASYNC_PROGRESS", "2", 1);
    ck_assert_int_eq(axon_runtime_config_load(&cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "AXON_ASYNC_PROGRESS='2'"));
    ck_assert_ptr_nonnull(strstr(err, "yes/no"));
    unsetenv("AXON_ASYNC_PROGRESS");
}
END_TEST

START_TEST(test_types)
{
    struct axon_config cfg;
    char err[256], buf[64];
    /* A SIZE entry of our own, aimed at a long field, to test suffixes without a real SIZE knob. */
    struct axon_config_entry size = {"AXON_TEST_SIZE", AXON_CONFIG_SIZE, "0",
                                     offsetof(struct axon_config, spin_count), NULL, "test"};
    ck_assert_int_eq(axon_runtime_config_parse(&size, "64k", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.spin_count, 65536);
    ck_assert_int_eq(axon_runtime_config_parse(&size, "4MB", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.spin_count, 4L << 20);
    ck_assert_int_eq(axon_runtime_config_parse(&size, "-1", &cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_int_eq(axon_runtime_config_parse(&size, "3x", &cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_int_eq(axon_runtime_config_parse(&size, "auto", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.spin_count, -1);
    axon_runtime_config_format(&size, &cfg, buf, sizeof(buf));
    ck_assert_str_eq(buf, "auto");
    const struct axon_config_entry *eager = find("AXON_EAGER_LIMIT");
    ck_assert_ptr_nonnull(eager);
    ck_assert_int_eq(axon_runtime_config_parse(eager, "8k", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.eager_limit, 8192);

    const struct axon_config_entry *tri = find("AXON_OVERSUBSCRIBED");
    ck_assert_ptr_nonnull(tri);
    ck_assert_int_eq(axon_runtime_config_parse(tri, "auto", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.oversubscribed, -1);
    axon_runtime_config_format(tri, &cfg, buf, sizeof(buf));
    ck_assert_str_eq(buf, "auto");
    ck_assert_int_eq(axon_runtime_config_parse(tri, "off", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.oversubscribed, 0);
    ck_assert_int_eq(axon_runtime_config_parse(tri, "maybe", &cfg, err, sizeof(err)), MPI_ERR_OTHER);

    const struct axon_config_entry *mode = find("AXON_WAIT_MODE");
    ck_assert_int_eq(axon_runtime_config_parse(mode, "SPIN", &cfg, err, sizeof(err)), MPI_SUCCESS);
    axon_runtime_config_format(mode, &cfg, buf, sizeof(buf));
    ck_assert_str_eq(buf, "spin");
    ck_assert_int_eq(axon_runtime_config_parse(mode, "spi", &cfg, err, sizeof(err)), MPI_ERR_OTHER);

    const struct axon_config_entry *async = find("AXON_ASYNC_PROGRESS");
    ck_assert_ptr_nonnull(async);
    ck_assert_int_eq(async->type, AXON_CONFIG_BOOL);
    ck_assert_int_eq(axon_runtime_config_parse(async, "on", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.async_progress, 1);
    axon_runtime_config_format(async, &cfg, buf, sizeof(buf));
    ck_assert_str_eq(buf, "yes");
    ck_assert_int_eq(axon_runtime_config_parse(async, "FALSE", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.async_progress, 0);

    /* AXON_CUDA: auto, off or required. */
    const struct axon_config_entry *cuda = find("AXON_CUDA");
    ck_assert_ptr_nonnull(cuda);
    ck_assert_int_eq(cuda->type, AXON_CONFIG_TRISTATE);
    ck_assert_int_eq(axon_runtime_config_parse(cuda, "1", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.cuda, 1);
    ck_assert_int_eq(axon_runtime_config_parse(cuda, "0", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.cuda, 0);
    ck_assert_int_eq(axon_runtime_config_parse(cuda, "auto", &cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_int_eq(cfg.cuda, -1);
    ck_assert_int_eq(axon_runtime_config_parse(cuda, "sometimes", &cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "AXON_CUDA='sometimes'"));

    /* AXON_CUDA_LIBRARY, the string knob: copied out of the environment, too long a value refused. */
    const struct axon_config_entry *lib = find("AXON_CUDA_LIBRARY");
    ck_assert_ptr_nonnull(lib);
    ck_assert_int_eq(lib->type, AXON_CONFIG_STRING);
    char path[] = "/opt/test/libfakecuda.so";
    ck_assert_int_eq(axon_runtime_config_parse(lib, path, &cfg, err, sizeof(err)), MPI_SUCCESS);
    path[1] = 'x';
    ck_assert_str_eq(cfg.cuda_library, "/opt/test/libfakecuda.so");
    char text[AXON_CONFIG_STRING_MAX];
    axon_runtime_config_format(lib, &cfg, text, sizeof(text));
    ck_assert_str_eq(text, "/opt/test/libfakecuda.so");
    char longer[AXON_CONFIG_STRING_MAX + 1];
    memset(longer, 'a', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    ck_assert_int_eq(axon_runtime_config_parse(lib, longer, &cfg, err, sizeof(err)), MPI_ERR_OTHER);
    ck_assert_ptr_nonnull(strstr(err, "AXON_CUDA_LIBRARY"));
    ck_assert_str_eq(cfg.cuda_library, "/opt/test/libfakecuda.so");
    setenv("AXON_CUDA_LIBRARY", "libcuda.so", 1);
    ck_assert_int_eq(axon_runtime_config_load(&cfg, err, sizeof(err)), MPI_SUCCESS);
    ck_assert_str_eq(cfg.cuda_library, "libcuda.so");
    unsetenv("AXON_CUDA_LIBRARY");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, test_defaults_parse);
    tcase_add_test(tc, test_environment_overrides);
    tcase_add_test(tc, test_bad_values_named);
    tcase_add_test(tc, test_types);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
