/* Unit tests of which messages UCX sends eagerly (ucx_glue/axon_ucx_eager.c): the user's AXON_EAGER_LIMIT,
 * UCX's threshold where an RDMA device is there, the TCP fabric's limit where none is, and how a
 * directory of devices reads. */
#include "ucx_glue/ucx_glue.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

START_TEST(test_decide)
{
    /* Across nodes over TCP, a 32 KiB message waited a round trip for rendezvous (19-24 us one way
     * against 11-14 eagerly on the namespace cluster): auto sends it eagerly. */
    ck_assert_int_eq(axon_ucx_eager_limit_decide(-1, false), AXON_UCX_TCP_EAGER_MAX);
    ck_assert(axon_ucx_eager_limit_decide(-1, false) >= 32 * 1024);
    /* With RDMA, UCX's own threshold. */
    ck_assert_int_eq(axon_ucx_eager_limit_decide(-1, true), -1);
    /* The user's limit, 0 included, beats both. */
    ck_assert_int_eq(axon_ucx_eager_limit_decide(0, false), 0);
    ck_assert_int_eq(axon_ucx_eager_limit_decide(4096, true), 4096);
    ck_assert_int_eq(axon_ucx_eager_limit_decide(1L << 20, false), 1L << 20);
}
END_TEST

START_TEST(test_devices)
{
    char dir[] = "/tmp/axon_eager_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert(!axon_ucx_fabric_has_rdma(dir)); /* present but empty, as in a container */
    char dev[sizeof dir + 16];
    snprintf(dev, sizeof dev, "%s/mlx5_0", dir);
    FILE *f = fopen(dev, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    ck_assert(axon_ucx_fabric_has_rdma(dir));
    ck_assert_int_eq(unlink(dev), 0);
    ck_assert_int_eq(rmdir(dir), 0);
    ck_assert(!axon_ucx_fabric_has_rdma(dir)); /* absent: no RDMA stack at all */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ucx_eager");
    TCase *tc = tcase_create("decide");
    tcase_add_test(tc, test_decide);
    tcase_add_test(tc, test_devices);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
