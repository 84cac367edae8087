/* Unit tests of the group set logic (mpi/comm/axon_mpi_group_ops.c) against hand-computed results: inclusion
 * and exclusion with their rank checks, rank ranges (strides both ways, bad strides, repeats), union,
 * intersection and difference in the standard's order, translation (MPI_PROC_NULL, members missing),
 * and comparison. Member ids are arbitrary non-negative ints, as MPI_COMM_WORLD ranks would be. */
#include "mpi/comm/axon_mpi_comm.h"

#include <check.h>
#include <stdlib.h>

/* A group: members 10, 20, ..., 70 (ranks 0..6). */
static const int g7[] = {10, 20, 30, 40, 50, 60, 70};

#define ck_assert_ints(got, n, ...)                                                                  \
    do {                                                                                             \
        const int want_[] = {__VA_ARGS__};                                                           \
        ck_assert_int_eq((n), (int)(sizeof(want_) / sizeof(want_[0])));                              \
        for (int i_ = 0; i_ < (n); i_++)                                                             \
            ck_assert_int_eq((got)[i_], want_[i_]);                                                  \
    } while (0)

START_TEST(test_incl)
{
    int out[7], bad = -1;
    const int ranks[] = {6, 0, 3};
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, 3, ranks, out, &bad), MPI_SUCCESS);
    ck_assert_ints(out, 3, 70, 10, 40);
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, 0, NULL, out, &bad), MPI_SUCCESS);
    const int repeat[] = {1, 2, 1};
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, 3, repeat, out, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(bad, 2);
    const int outside[] = {0, 7};
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, 2, outside, out, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(bad, 1);
    const int negative[] = {-1};
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, 1, negative, out, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, -1, ranks, out, &bad), MPI_ERR_ARG);
    ck_assert_int_eq(axon_group_ops_incl(g7, 7, 8, ranks, out, &bad), MPI_ERR_ARG);
}
END_TEST

START_TEST(test_excl)
{
    int out[7], n = -1, bad = -1;
    const int ranks[] = {5, 1};
    ck_assert_int_eq(axon_group_ops_excl(g7, 7, 2, ranks, out, &n, &bad), MPI_SUCCESS);
    ck_assert_ints(out, n, 10, 30, 40, 50, 70);
    const int all[] = {0, 1, 2, 3, 4, 5, 6};
    ck_assert_int_eq(axon_group_ops_excl(g7, 7, 7, all, out, &n, &bad), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(axon_group_ops_excl(g7, 7, 0, NULL, out, &n, &bad), MPI_SUCCESS);
    ck_assert_ints(out, n, 10, 20, 30, 40, 50, 60, 70);
    const int repeat[] = {3, 3};
    ck_assert_int_eq(axon_group_ops_excl(g7, 7, 2, repeat, out, &n, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(bad, 1);
}
END_TEST

START_TEST(test_ranges)
{
    int out[7], n = -1, bad = -1;
    /* (0, 6, 3) -> 0, 3, 6; (5, 4, -1) -> 5, 4. */
    const int r1[][3] = {{0, 6, 3}, {5, 4, -1}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 2, r1, false, out, &n, &bad), MPI_SUCCESS);
    ck_assert_ints(out, n, 10, 40, 70, 60, 50);
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 2, r1, true, out, &n, &bad), MPI_SUCCESS);
    ck_assert_ints(out, n, 20, 30);
    /* The last rank need not be reached: (1, 6, 2) -> 1, 3, 5. */
    const int r2[][3] = {{1, 6, 2}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 1, r2, false, out, &n, &bad), MPI_SUCCESS);
    ck_assert_ints(out, n, 20, 40, 60);
    /* A single rank. */
    const int r3[][3] = {{4, 4, 1}, {2, 2, -5}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 2, r3, false, out, &n, &bad), MPI_SUCCESS);
    ck_assert_ints(out, n, 50, 30);
    /* Errors: repeats across triplets, stride 0, walking away, outside. */
    const int repeat[][3] = {{0, 4, 2}, {4, 6, 1}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 2, repeat, false, out, &n, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(bad, 1);
    const int zero[][3] = {{0, 4, 0}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 1, zero, false, out, &n, &bad), MPI_ERR_ARG);
    const int away[][3] = {{4, 0, 1}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 1, away, false, out, &n, &bad), MPI_ERR_ARG);
    const int outside[][3] = {{0, 7, 1}};
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 1, outside, true, out, &n, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(axon_group_ops_ranges(g7, 7, 0, NULL, false, out, &n, &bad), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_set_operations)
{
    const int a[] = {5, 1, 9, 3};
    const int b[] = {3, 8, 5, 2};
    int out[8], n = -1;
    /* Union: a's order, then what b adds, in b's order. */
    ck_assert_int_eq(axon_group_ops_union(a, 4, b, 4, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 5, 1, 9, 3, 8, 2);
    ck_assert_int_eq(axon_group_ops_union(b, 4, a, 4, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 3, 8, 5, 2, 1, 9);
    /* Intersection and difference: a's order. */
    ck_assert_int_eq(axon_group_ops_intersection(a, 4, b, 4, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 5, 3);
    ck_assert_int_eq(axon_group_ops_intersection(b, 4, a, 4, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 3, 5);
    ck_assert_int_eq(axon_group_ops_difference(a, 4, b, 4, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 1, 9);
    ck_assert_int_eq(axon_group_ops_difference(b, 4, a, 4, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 8, 2);
    /* With the empty group. */
    ck_assert_int_eq(axon_group_ops_union(a, 4, NULL, 0, out, &n), MPI_SUCCESS);
    ck_assert_ints(out, n, 5, 1, 9, 3);
    ck_assert_int_eq(axon_group_ops_intersection(a, 4, NULL, 0, out, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(axon_group_ops_difference(NULL, 0, a, 4, out, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(axon_group_ops_difference(a, 4, a, 4, out, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_translate)
{
    const int a[] = {5, 1, 9, 3};
    const int b[] = {3, 8, 5, 2};
    const int r1[] = {0, 1, MPI_PROC_NULL, 3, 2};
    int r2[5], bad = -1;
    ck_assert_int_eq(axon_group_ops_translate(a, 4, 5, r1, b, 4, r2, &bad), MPI_SUCCESS);
    ck_assert_int_eq(r2[0], 2);
    ck_assert_int_eq(r2[1], MPI_UNDEFINED);
    ck_assert_int_eq(r2[2], MPI_PROC_NULL);
    ck_assert_int_eq(r2[3], 0);
    ck_assert_int_eq(r2[4], MPI_UNDEFINED);
    const int outside[] = {0, 4};
    ck_assert_int_eq(axon_group_ops_translate(a, 4, 2, outside, b, 4, r2, &bad), MPI_ERR_RANK);
    ck_assert_int_eq(bad, 1);
    ck_assert_int_eq(axon_group_ops_translate(a, 4, -1, r1, b, 4, r2, &bad), MPI_ERR_ARG);
    /* Into the empty group: nothing is there. */
    ck_assert_int_eq(axon_group_ops_translate(a, 4, 1, r1, NULL, 0, r2, &bad), MPI_SUCCESS);
    ck_assert_int_eq(r2[0], MPI_UNDEFINED);
}
END_TEST

START_TEST(test_compare_and_find)
{
    const int a[] = {5, 1, 9, 3};
    const int same[] = {5, 1, 9, 3};
    const int shuffled[] = {3, 9, 5, 1};
    const int other[] = {5, 1, 9, 4};
    ck_assert_int_eq(axon_group_ops_compare(a, 4, same, 4), MPI_IDENT);
    ck_assert_int_eq(axon_group_ops_compare(a, 4, shuffled, 4), MPI_SIMILAR);
    ck_assert_int_eq(axon_group_ops_compare(a, 4, other, 4), MPI_UNEQUAL);
    ck_assert_int_eq(axon_group_ops_compare(a, 4, a, 3), MPI_UNEQUAL);
    ck_assert_int_eq(axon_group_ops_compare(NULL, 0, NULL, 0), MPI_IDENT);
    ck_assert_int_eq(axon_group_ops_find(a, 4, 9), 2);
    ck_assert_int_eq(axon_group_ops_find(a, 4, 7), MPI_UNDEFINED);
}
END_TEST

/* Large groups: the sorted index keeps the set operations correct at scale (every other id). */
START_TEST(test_large)
{
    enum { N = 100000 };
    int *a = malloc(sizeof(int) * N), *b = malloc(sizeof(int) * N), *out = malloc(sizeof(int) * 2 * N);
    for (int i = 0; i < N; i++) {
        a[i] = N - 1 - i;   /* N-1 .. 0 */
        b[i] = 2 * i;       /* evens up to 2N-2 */
    }
    int n;
    ck_assert_int_eq(axon_group_ops_intersection(a, N, b, N, out, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, N / 2);
    ck_assert_int_eq(out[0], N - 2);
    ck_assert_int_eq(axon_group_ops_union(a, N, b, N, out, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, N + N / 2);
    ck_assert_int_eq(out[N], N);
    free(a);
    free(b);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("group_ops");
    TCase *tc = tcase_create("group_ops");
    tcase_add_test(tc, test_incl);
    tcase_add_test(tc, test_excl);
    tcase_add_test(tc, test_ranges);
    tcase_add_test(tc, test_set_operations);
    tcase_add_test(tc, test_translate);
    tcase_add_test(tc, test_compare_and_find);
    tcase_add_test(tc, test_large);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
