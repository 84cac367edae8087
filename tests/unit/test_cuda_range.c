/* Unit tests of the range set under the memory-type cache (cuda_support/axon_cuda_range.c): lookups at
 * the edges of ranges, removal only of the entry a caller saw, eviction of whatever a new range
 * overlaps, of the oldest entry when the set is full, and a long random run checked against a plain
 * array of pages. */
#include "cuda_support/axon_cuda_range_internal.h"

#include <check.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static struct axon_cuda_range rng(uintptr_t base, size_t size, uint64_t id)
{
    return (struct axon_cuda_range){.base = base, .size = size, .id = id, .type = 2, .device = 0};
}

START_TEST(test_lookup_edges)
{
    struct axon_cuda_range_set s;
    struct axon_cuda_range out;
    axon_cuda_range_set_init(&s, 100);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x1000, &out));
    struct axon_cuda_range a = rng(0x1000, 0x1000, 7), b = rng(0x3000, 0x100, 8);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &b), MPI_SUCCESS);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &a), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 2);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0xfff, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x1000, &out));
    ck_assert_uint_eq(out.id, 7);
    ck_assert(axon_cuda_range_set_lookup(&s, 0x1fff, &out));
    ck_assert_uint_eq(out.id, 7);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x2000, &out)); /* the end is outside */
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x2fff, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x30ff, &out));
    ck_assert_uint_eq(out.id, 8);
    ck_assert_int_eq(out.type, 2);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x3100, &out));
    ck_assert(!axon_cuda_range_set_lookup(&s, UINTPTR_MAX, &out));
    axon_cuda_range_set_destroy(&s);
}
END_TEST

START_TEST(test_bad_ranges)
{
    struct axon_cuda_range_set s;
    axon_cuda_range_set_init(&s, 10);
    struct axon_cuda_range empty = rng(0x1000, 0, 1), wraps = rng(UINTPTR_MAX - 10, 100, 2),
                           to_top = rng(UINTPTR_MAX - 0xfff, 0x1000, 3);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &empty), MPI_ERR_ARG);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &wraps), MPI_ERR_ARG);
    /* A range ending exactly at the top of the address space would wrap to 0: refused too. */
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &to_top), MPI_ERR_ARG);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 0);
    axon_cuda_range_set_destroy(&s);
}
END_TEST

START_TEST(test_remove_checks_id)
{
    struct axon_cuda_range_set s;
    struct axon_cuda_range out;
    axon_cuda_range_set_init(&s, 10);
    struct axon_cuda_range a = rng(0x10000, 0x1000, 1);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &a), MPI_SUCCESS);
    /* Another thread already put a fresher entry at the base: a remove naming the old id leaves it. */
    struct axon_cuda_range fresh = rng(0x10000, 0x2000, 2);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &fresh), MPI_SUCCESS);
    ck_assert(!axon_cuda_range_set_remove(&s, 0x10000, 1));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x11000, &out));
    ck_assert_uint_eq(out.id, 2);
    ck_assert(!axon_cuda_range_set_remove(&s, 0x10008, 2)); /* not the base */
    ck_assert(axon_cuda_range_set_remove(&s, 0x10000, 2));
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x10000, &out));
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 0);
    axon_cuda_range_set_destroy(&s);
}
END_TEST

START_TEST(test_overlap_evicts)
{
    struct axon_cuda_range_set s;
    struct axon_cuda_range out;
    axon_cuda_range_set_init(&s, 100);
    /* Five ranges of 0x1000 with gaps of 0x1000: 0x10000, 0x12000, ... 0x18000. */
    for (uintptr_t i = 0; i < 5; i++) {
        struct axon_cuda_range r = rng(0x10000 + i * 0x2000, 0x1000, 10 + i);
        ck_assert_int_eq(axon_cuda_range_set_insert(&s, &r), MPI_SUCCESS);
    }
    /* One range over the tail of the second, all of the third and the head of the fourth: those three
     * go (their allocations must have been freed), the first and fifth stay. */
    struct axon_cuda_range big = rng(0x12800, 0x4000, 99);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &big), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 3);
    ck_assert(axon_cuda_range_set_lookup(&s, 0x10000, &out));
    ck_assert_uint_eq(out.id, 10);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x12000, &out)); /* what remains of the second is gone */
    ck_assert(axon_cuda_range_set_lookup(&s, 0x12800, &out));
    ck_assert_uint_eq(out.id, 99);
    ck_assert(axon_cuda_range_set_lookup(&s, 0x167ff, &out));
    ck_assert_uint_eq(out.id, 99);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x16800, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x18000, &out));
    ck_assert_uint_eq(out.id, 14);
    /* Touching is not overlapping. */
    struct axon_cuda_range left = rng(0x11000, 0x1800, 100);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &left), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 4);
    /* The same base again (freed and reallocated smaller) replaces. */
    struct axon_cuda_range again = rng(0x12800, 0x100, 101);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &again), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 4);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x12900, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x128ff, &out));
    ck_assert_uint_eq(out.id, 101);
    /* One range over everything leaves only itself. */
    struct axon_cuda_range all = rng(0x1000, 0x100000, 102);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &all), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 1);
    axon_cuda_range_set_destroy(&s);
}
END_TEST

START_TEST(test_full_evicts_oldest)
{
    struct axon_cuda_range_set s;
    struct axon_cuda_range out;
    axon_cuda_range_set_init(&s, 4);
    /* Inserted out of address order, so age and position differ. */
    uintptr_t bases[] = {0x50000, 0x10000, 0x40000, 0x20000};
    for (int i = 0; i < 4; i++) {
        struct axon_cuda_range r = rng(bases[i], 0x1000, (uint64_t)i + 1);
        ck_assert_int_eq(axon_cuda_range_set_insert(&s, &r), MPI_SUCCESS);
    }
    struct axon_cuda_range r5 = rng(0x30000, 0x1000, 5);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &r5), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 4);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x50000, &out)); /* the oldest went */
    ck_assert(axon_cuda_range_set_lookup(&s, 0x30000, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x10000, &out));
    struct axon_cuda_range r6 = rng(0x60000, 0x1000, 6);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &r6), MPI_SUCCESS);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x10000, &out)); /* the next oldest */
    ck_assert(axon_cuda_range_set_lookup(&s, 0x60000, &out));
    /* A range that overlaps one entry of a full set takes that entry's place: nothing else goes. */
    struct axon_cuda_range r7 = rng(0x40800, 0x100, 7);
    ck_assert_int_eq(axon_cuda_range_set_insert(&s, &r7), MPI_SUCCESS);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 4);
    ck_assert(axon_cuda_range_set_lookup(&s, 0x20000, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x30000, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x60000, &out));
    ck_assert(axon_cuda_range_set_lookup(&s, 0x40800, &out));
    ck_assert_uint_eq(out.id, 7);
    axon_cuda_range_set_clear(&s);
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), 0);
    ck_assert(!axon_cuda_range_set_lookup(&s, 0x20000, &out));
    axon_cuda_range_set_destroy(&s);
}
END_TEST

/* Random inserts and removes over 256 pages, against a model that records which id owns each page;
 * large enough a set that nothing is evicted for being full. */
START_TEST(test_random_against_model)
{
    enum { PAGES = 256, PAGE = 0x1000 };
    const uintptr_t origin = 0x7f0000000000;
    static uint64_t owner[PAGES]; /* 0: no range */
    static uintptr_t base_of[PAGES];
    memset(owner, 0, sizeof(owner));
    struct axon_cuda_range_set s;
    struct axon_cuda_range out;
    axon_cuda_range_set_init(&s, 1000);
    unsigned seed = 12345;
    uint64_t next_id = 1;
    for (int step = 0; step < 20000; step++) {
        int first = rand_r(&seed) % PAGES;
        if (rand_r(&seed) % 4 == 0) {
            /* Remove the range holding a page, by its base and id, as a stale hit would. */
            if (owner[first]) {
                uint64_t id = owner[first];
                ck_assert(axon_cuda_range_set_remove(&s, base_of[first], id));
                for (int p = 0; p < PAGES; p++)
                    if (owner[p] == id)
                        owner[p] = 0;
            }
        } else {
            int len = 1 + rand_r(&seed) % 8;
            if (first + len > PAGES)
                len = PAGES - first;
            struct axon_cuda_range r = rng(origin + (uintptr_t)first * PAGE, (size_t)len * PAGE, next_id);
            ck_assert_int_eq(axon_cuda_range_set_insert(&s, &r), MPI_SUCCESS);
            /* Every range that touched the new one's pages disappears whole. */
            for (int p = first; p < first + len; p++) {
                uint64_t old = owner[p];
                if (old)
                    for (int q = 0; q < PAGES; q++)
                        if (owner[q] == old)
                            owner[q] = 0;
            }
            for (int p = first; p < first + len; p++) {
                owner[p] = next_id;
                base_of[p] = r.base;
            }
            next_id++;
        }
        int probe = rand_r(&seed) % PAGES;
        uintptr_t addr = origin + (uintptr_t)probe * PAGE + (uintptr_t)(rand_r(&seed) % PAGE);
        bool found = axon_cuda_range_set_lookup(&s, addr, &out);
        ck_assert_int_eq(found, owner[probe] != 0);
        if (found)
            ck_assert_uint_eq(out.id, owner[probe]);
    }
    size_t live = 0;
    for (int p = 0; p < PAGES; p++)
        if (owner[p] && (p == 0 || owner[p - 1] != owner[p]))
            live++;
    ck_assert_uint_eq(axon_cuda_range_set_count(&s), live);
    axon_cuda_range_set_destroy(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuda_range");
    TCase *tc = tcase_create("cuda_range");
    tcase_add_test(tc, test_lookup_edges);
    tcase_add_test(tc, test_bad_ranges);
    tcase_add_test(tc, test_remove_checks_id);
    tcase_add_test(tc, test_overlap_evicts);
    tcase_add_test(tc, test_full_evicts_oldest);
    tcase_add_test(tc, test_random_against_model);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
