/* MPI_Dims_create's factorization (axon_topo_dims_balance): balanced grids in non-increasing order,
 * fixed dimensions kept, and the error classes of impossible requests. */
#include "mpi/axon_mpi.h"

#include <check.h>
#include <stdlib.h>

static void expect(int nnodes, int ndims, const int *given, const int *want)
{
    int dims[8];
    for (int i = 0; i < ndims; i++)
        dims[i] = given[i];
    ck_assert_int_eq(axon_topo_dims_balance(nnodes, ndims, dims), MPI_SUCCESS);
    for (int i = 0; i < ndims; i++)
        ck_assert_msg(dims[i] == want[i], "nnodes %d ndims %d: dims[%d] = %d, expected %d", nnodes, ndims, i, dims[i],
                      want[i]);
}

START_TEST(balanced_grids)
{
    expect(6, 2, (int[]){0, 0}, (int[]){3, 2});
    expect(12, 2, (int[]){0, 0}, (int[]){4, 3});
    expect(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    expect(7, 2, (int[]){0, 0}, (int[]){7, 1});
    expect(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    expect(64, 3, (int[]){0, 0, 0}, (int[]){4, 4, 4});
    expect(30, 3, (int[]){0, 0, 0}, (int[]){5, 3, 2});
    expect(5, 1, (int[]){0}, (int[]){5});
    /* The most balanced, not the first factoring: largest prime factors first to the smallest
     * dimension gave 12x6, 45x45x17 and 55x48x38 (MPICH's topo/dims5 wants these). */
    expect(72, 2, (int[]){0, 0}, (int[]){9, 8});
    expect(34425, 3, (int[]){0, 0, 0}, (int[]){51, 27, 25});
    expect(100320, 3, (int[]){0, 0, 0}, (int[]){57, 44, 40});
    expect(72, 3, (int[]){0, 2, 0}, (int[]){6, 2, 6});
    /* Equally spread grids: the one whose smaller dimensions are larger (not the lexicographically
     * larger or smaller one: 17x16x9x7x7 and 17x12x12x7x7 lose to 17x14x9x8x7). */
    expect(98784, 5, (int[]){0, 0, 0, 0, 0}, (int[]){14, 14, 9, 8, 7});
    expect(119952, 5, (int[]){0, 0, 0, 0, 0}, (int[]){17, 14, 9, 8, 7});
    expect(134064, 5, (int[]){0, 0, 0, 0, 0}, (int[]){19, 14, 9, 8, 7});
}
END_TEST

START_TEST(fixed_dimensions_kept)
{
    expect(12, 2, (int[]){2, 0}, (int[]){2, 6});
    expect(24, 3, (int[]){0, 3, 0}, (int[]){4, 3, 2});
    expect(6, 2, (int[]){3, 2}, (int[]){3, 2});
}
END_TEST

START_TEST(property_product_and_order)
{
    for (int n = 1; n <= 500; n++) {
        for (int nd = 1; nd <= 4; nd++) {
            int dims[4] = {0, 0, 0, 0};
            ck_assert_int_eq(axon_topo_dims_balance(n, nd, dims), MPI_SUCCESS);
            long prod = 1;
            for (int i = 0; i < nd; i++) {
                prod *= dims[i];
                if (i > 0)
                    ck_assert_msg(dims[i] <= dims[i - 1], "n %d: not non-increasing", n);
            }
            ck_assert_int_eq(prod, n);
        }
    }
}
END_TEST

START_TEST(impossible_requests)
{
    int d2[2] = {5, 0};
    ck_assert_int_eq(axon_topo_dims_balance(12, 2, d2), MPI_ERR_DIMS);
    int d1[2] = {-1, 0};
    ck_assert_int_eq(axon_topo_dims_balance(12, 2, d1), MPI_ERR_DIMS);
    int d3[2] = {3, 3};
    ck_assert_int_eq(axon_topo_dims_balance(12, 2, d3), MPI_ERR_DIMS);
    int d4[1] = {0};
    ck_assert_int_eq(axon_topo_dims_balance(0, 1, d4), MPI_ERR_ARG);
    ck_assert_int_eq(axon_topo_dims_balance(4, -1, d4), MPI_ERR_DIMS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("topo_dims");
    TCase *tc = tcase_create("dims");
    tcase_add_test(tc, balanced_grids);
    tcase_add_test(tc, fixed_dimensions_kept);
    tcase_add_test(tc, property_product_and_order);
    tcase_add_test(tc, impossible_requests);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
