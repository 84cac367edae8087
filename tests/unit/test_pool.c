/* Unit tests of the object pools: indices are dense and reused, freed or unknown indices give NULL,
 * growth past a chunk keeps every object where it was, objects come zeroed. */
#include "runtime/axon_runtime_pool.h"

#include <check.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

struct thing {
    int value;
    char pad[37];
};

START_TEST(test_alloc_get_free)
{
    struct axon_pool pool;
    ck_assert_int_eq(axon_runtime_pool_init(&pool, "things", sizeof(struct thing)), MPI_SUCCESS);
    enum { COUNT = 3000 }; /* three chunks */
    static struct thing *objs[COUNT];
    static uint32_t idx[COUNT];
    for (int i = 0; i < COUNT; i++) {
        void *p;
        ck_assert_int_eq(axon_runtime_pool_alloc(&pool, &p, &idx[i]), MPI_SUCCESS);
        objs[i] = p;
        ck_assert_int_eq(objs[i]->value, 0);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        objs[i]->value = i + 1;
        ck_assert_uint_eq(idx[i], (uint32_t)i);
    }
    for (int i = 0; i < COUNT; i++) {
        ck_assert_ptr_eq(axon_runtime_pool_get(&pool, idx[i]), objs[i]);
        ck_assert_int_eq(objs[i]->value, i + 1);
    }
    ck_assert_ptr_null(axon_runtime_pool_get(&pool, 5000000));
    axon_runtime_pool_free(&pool, idx[17]);
    ck_assert_ptr_null(axon_runtime_pool_get(&pool, idx[17]));
    axon_runtime_pool_free(&pool, idx[17]); /* twice: ignored */
    ck_assert_uint_eq(pool.nlive, COUNT - 1);
    void *p;
    uint32_t again;
    ck_assert_int_eq(axon_runtime_pool_alloc(&pool, &p, &again), MPI_SUCCESS);
    ck_assert_uint_eq(again, idx[17]);
    ck_assert_int_eq(((struct thing *)p)->value, 0);
    axon_runtime_pool_fini(&pool);
}
END_TEST

START_TEST(test_steady_state_reuses)
{
    struct axon_pool pool;
    ck_assert_int_eq(axon_runtime_pool_init(&pool, "things", sizeof(struct thing)), MPI_SUCCESS);
    for (int round = 0; round < 100000; round++) {
        void *p;
        uint32_t i;
        ck_assert_int_eq(axon_runtime_pool_alloc(&pool, &p, &i), MPI_SUCCESS);
        axon_runtime_pool_free(&pool, i);
    }
    ck_assert_uint_eq(pool.nchunks, 1);
    axon_runtime_pool_fini(&pool);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pool");
    TCase *tc = tcase_create("pool");
    tcase_add_test(tc, test_alloc_get_free);
    tcase_add_test(tc, test_steady_state_reuses);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
