/* Unit tests of the matching queues: the standard's order in small cases, and a long random run
 * checked against a brute-force model (one list in posting order, one in arrival order). */
#include "pt2pt/axon_pt2pt_match.h"

#include <check.h>
#include <mpi.h>
#include <stdlib.h>

static struct axon_match_entry *entry(int source, int tag)
{
    struct axon_match_entry *e = calloc(1, sizeof(*e));
    e->source = source;
    e->tag = tag;
    return e;
}

START_TEST(test_posted_order_any_source)
{
    struct axon_match_queues q;
    ck_assert_int_eq(axon_pt2pt_match_init(&q, 4), MPI_SUCCESS);
    struct axon_match_entry *any = entry(MPI_ANY_SOURCE, 5), *two = entry(2, 5), *anytag = entry(2, MPI_ANY_TAG);
    axon_pt2pt_match_post(&q, any);
    axon_pt2pt_match_post(&q, two);
    axon_pt2pt_match_post(&q, anytag);
    /* The any-source receive was posted first: it takes the first message from 2 with tag 5. */
    ck_assert_ptr_eq(axon_pt2pt_match_take_posted(&q, 2, 5), any);
    ck_assert_ptr_eq(axon_pt2pt_match_take_posted(&q, 2, 5), two);
    ck_assert_ptr_null(axon_pt2pt_match_take_posted(&q, 1, 5));
    ck_assert_ptr_eq(axon_pt2pt_match_take_posted(&q, 2, 99), anytag);
    ck_assert_ptr_null(axon_pt2pt_match_take_posted(&q, 2, 5));
    free(any), free(two), free(anytag);
    axon_pt2pt_match_fini(&q);
}
END_TEST

START_TEST(test_unexpected_order)
{
    struct axon_match_queues q;
    ck_assert_int_eq(axon_pt2pt_match_init(&q, 3), MPI_SUCCESS);
    struct axon_match_entry *a = entry(1, 7), *b = entry(0, 7), *c = entry(1, 8);
    axon_pt2pt_match_add_unexpected(&q, a);
    axon_pt2pt_match_add_unexpected(&q, b);
    axon_pt2pt_match_add_unexpected(&q, c);
    ck_assert_ptr_eq(axon_pt2pt_match_peek_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG), a);
    ck_assert_ptr_eq(axon_pt2pt_match_take_unexpected(&q, 1, 8), c);
    ck_assert_ptr_eq(axon_pt2pt_match_take_unexpected(&q, MPI_ANY_SOURCE, 7), a);
    ck_assert_ptr_eq(axon_pt2pt_match_take_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG), b);
    ck_assert_ptr_null(axon_pt2pt_match_take_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG));
    ck_assert_uint_eq(q.unexpected_count, 0);
    free(a), free(b), free(c);
    axon_pt2pt_match_fini(&q);
}
END_TEST

START_TEST(test_unpost)
{
    struct axon_match_queues q;
    ck_assert_int_eq(axon_pt2pt_match_init(&q, 2), MPI_SUCCESS);
    struct axon_match_entry *a = entry(1, 1), *b = entry(MPI_ANY_SOURCE, 1);
    axon_pt2pt_match_post(&q, a);
    axon_pt2pt_match_post(&q, b);
    ck_assert(axon_pt2pt_match_unpost(&q, a));
    ck_assert(!axon_pt2pt_match_unpost(&q, a));
    ck_assert_ptr_eq(axon_pt2pt_match_take_posted(&q, 1, 1), b);
    free(a), free(b);
    axon_pt2pt_match_fini(&q);
}
END_TEST

/* A cancelled send's message leaves the unexpected queues from the middle: the others keep their order,
 * for a receive from that source and for one from any source. */
static bool tag_is(const struct axon_match_entry *e, const void *arg)
{
    return e->tag == *(const int *)arg;
}

START_TEST(test_withdraw_unexpected)
{
    struct axon_match_queues q;
    ck_assert_int_eq(axon_pt2pt_match_init(&q, 3), MPI_SUCCESS);
    struct axon_match_entry *a = entry(1, 7), *b = entry(1, 8), *c = entry(2, 8), *d = entry(1, 9);
    axon_pt2pt_match_add_unexpected(&q, a);
    axon_pt2pt_match_add_unexpected(&q, b);
    axon_pt2pt_match_add_unexpected(&q, c);
    axon_pt2pt_match_add_unexpected(&q, d);
    int tag = 8;
    ck_assert_ptr_eq(axon_pt2pt_match_find_unexpected(&q, 1, tag_is, &tag), b);
    ck_assert_ptr_eq(axon_pt2pt_match_find_unexpected(&q, 2, tag_is, &tag), c);
    ck_assert_ptr_null(axon_pt2pt_match_find_unexpected(&q, 0, tag_is, &tag));
    ck_assert_ptr_null(axon_pt2pt_match_find_unexpected(&q, 3, tag_is, &tag)); /* no such source */
    axon_pt2pt_match_withdraw_unexpected(&q, b);
    ck_assert_uint_eq(q.unexpected_count, 3);
    ck_assert_ptr_null(axon_pt2pt_match_find_unexpected(&q, 1, tag_is, &tag));
    ck_assert_ptr_eq(axon_pt2pt_match_take_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG), a);
    ck_assert_ptr_eq(axon_pt2pt_match_take_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG), c);
    ck_assert_ptr_eq(axon_pt2pt_match_take_unexpected(&q, 1, MPI_ANY_TAG), d);
    ck_assert_ptr_null(axon_pt2pt_match_take_unexpected(&q, MPI_ANY_SOURCE, MPI_ANY_TAG));
    free(a), free(b), free(c), free(d);
    axon_pt2pt_match_fini(&q);
}
END_TEST

/* The model: arrays in order; matching is "first that fits". */
#define N 4000
struct model {
    struct axon_match_entry *posted[N];
    int nposted;
    struct axon_match_entry *unexpected[N];
    int nunexpected;
};

static int fits(int wanted_source, int wanted_tag, int source, int tag)
{
    return (wanted_source == MPI_ANY_SOURCE || wanted_source == source) &&
           (wanted_tag == MPI_ANY_TAG || wanted_tag == tag);
}

static struct axon_match_entry *model_take(struct axon_match_entry **list, int *n, int posted, int source, int tag)
{
    for (int i = 0; i < *n; i++) {
        struct axon_match_entry *e = list[i];
        int ok = posted ? fits(e->source, e->tag, source, tag) : fits(source, tag, e->source, e->tag);
        if (ok) {
            for (int j = i; j < *n - 1; j++)
                list[j] = list[j + 1];
            (*n)--;
            return e;
        }
    }
    return NULL;
}

START_TEST(test_random_against_model)
{
    enum { SOURCES = 5, TAGS = 3 };
    struct axon_match_queues q;
    static struct model m;
    m.nposted = m.nunexpected = 0;
    srand(12345);
    ck_assert_int_eq(axon_pt2pt_match_init(&q, SOURCES), MPI_SUCCESS);
    for (int step = 0; step < 20000; step++) {
        int source = rand() % SOURCES, tag = rand() % TAGS;
        if (rand() % 2) {
            /* A message arrives. */
            struct axon_match_entry *want = model_take(m.posted, &m.nposted, 1, source, tag);
            struct axon_match_entry *got = axon_pt2pt_match_take_posted(&q, source, tag);
            ck_assert_ptr_eq(got, want);
            if (got) {
                free(got);
            } else if (m.nunexpected < N) {
                struct axon_match_entry *e = entry(source, tag);
                axon_pt2pt_match_add_unexpected(&q, e);
                m.unexpected[m.nunexpected++] = e;
            }
        } else {
            /* A receive is posted, with wildcards now and then. */
            if (rand() % 4 == 0)
                source = MPI_ANY_SOURCE;
            if (rand() % 4 == 0)
                tag = MPI_ANY_TAG;
            if (rand() % 8 == 0) {
                /* A probe sees what a receive would take, and leaves it. */
                struct axon_match_entry *first = NULL;
                for (int i = 0; i < m.nunexpected && !first; i++)
                    if (fits(source, tag, m.unexpected[i]->source, m.unexpected[i]->tag))
                        first = m.unexpected[i];
                ck_assert_ptr_eq(axon_pt2pt_match_peek_unexpected(&q, source, tag), first);
            }
            struct axon_match_entry *want = model_take(m.unexpected, &m.nunexpected, 0, source, tag);
            struct axon_match_entry *got = axon_pt2pt_match_take_unexpected(&q, source, tag);
            ck_assert_ptr_eq(got, want);
            if (got) {
                free(got);
            } else if (m.nposted < N) {
                struct axon_match_entry *e = entry(source, tag);
                axon_pt2pt_match_post(&q, e);
                m.posted[m.nposted++] = e;
            }
        }
    }
    ck_assert_uint_eq(q.unexpected_count, (uint64_t)m.nunexpected);
    for (int i = 0; i < m.nposted; i++)
        free(m.posted[i]);
    for (int i = 0; i < m.nunexpected; i++)
        free(m.unexpected[i]);
    axon_pt2pt_match_fini(&q);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pt2pt_match");
    TCase *tc = tcase_create("match");
    tcase_add_test(tc, test_posted_order_any_source);
    tcase_add_test(tc, test_unexpected_order);
    tcase_add_test(tc, test_unpost);
    tcase_add_test(tc, test_withdraw_unexpected);
    tcase_add_test(tc, test_random_against_model);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
