/* Unit tests of the data layouts: merging of dense shapes, and packing in segments of random sizes,
 * with random seeks, checked byte for byte against a reference that walks the same shape recursively. */
#include "pt2pt/axon_pt2pt_dloop.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Reference: the offsets of every byte of count elements, in typemap order. */
static void ref_walk(const struct axon_dloop *l, int64_t base, int64_t **out, int64_t *n)
{
    switch (l->kind) {
    case AXON_DLOOP_LEAF:
        for (int64_t b = 0; b < l->u.leaf.len; b++)
            (*out)[(*n)++] = base + b;
        return;
    case AXON_DLOOP_VECTOR:
        for (int64_t i = 0; i < l->u.vector.count; i++)
            for (int64_t j = 0; j < l->u.vector.blocklen; j++)
                ref_walk(l->u.vector.child, base + i * l->u.vector.stride + j * l->u.vector.child_extent, out, n);
        return;
    case AXON_DLOOP_BLOCKS:
        for (int64_t i = 0; i < l->u.blocks.n; i++)
            for (int64_t j = 0; j < l->u.blocks.blocklens[i]; j++)
                ref_walk(l->u.blocks.children[i], base + l->u.blocks.displs[i] + j * l->u.blocks.child_extents[i],
                         out, n);
        return;
    }
}

START_TEST(test_dense_shapes_merge)
{
    struct axon_dloop *i4 = axon_dloop_leaf(4);
    struct axon_dloop *contig = axon_dloop_vector(10, 1, 4, i4, 4);
    ck_assert_int_eq(contig->kind, AXON_DLOOP_LEAF);
    ck_assert_int_eq(contig->size, 40);
    struct axon_dloop *vec = axon_dloop_vector(3, 2, 32, i4, 4);
    ck_assert_int_eq(vec->kind, AXON_DLOOP_VECTOR);
    ck_assert_int_eq(vec->u.vector.child->kind, AXON_DLOOP_LEAF);
    ck_assert_int_eq(vec->u.vector.child->u.leaf.len, 8);
    int64_t bl[3] = {2, 3, 0}, dp[3] = {0, 8, 100}, ex[3] = {4, 4, 4};
    struct axon_dloop *ch[3] = {i4, i4, i4};
    struct axon_dloop *idx = axon_dloop_blocks(3, bl, dp, ch, ex);
    ck_assert_int_eq(idx->kind, AXON_DLOOP_BLOCKS);
    ck_assert_int_eq(idx->u.blocks.n, 1);
    ck_assert_int_eq(idx->u.blocks.blocklens[0], 5);
    ck_assert_int_eq(idx->size, 20);
    axon_dloop_release(idx);
    axon_dloop_release(vec);
    axon_dloop_release(contig);
    axon_dloop_release(i4);
}
END_TEST

/* A random layout of bounded depth; *extent gets a plausible extent (its span, sometimes padded). */
static struct axon_dloop *random_loop(int depth, int64_t *extent)
{
    if (depth == 0 || rand() % 4 == 0) {
        int64_t len = 1 + rand() % 8;
        *extent = len + (rand() % 3 == 0 ? rand() % 4 : 0);
        return axon_dloop_leaf(len);
    }
    int64_t child_extent;
    struct axon_dloop *child = random_loop(depth - 1, &child_extent);
    struct axon_dloop *l;
    if (rand() % 2) {
        int64_t count = rand() % 4, blocklen = rand() % 3 + (rand() % 5 == 0 ? 0 : 1);
        int64_t stride = blocklen * child_extent + rand() % 5 - (rand() % 6 == 0 ? blocklen * child_extent * 2 : 0);
        l = axon_dloop_vector(count, blocklen, stride, child, child_extent);
        *extent = (count ? count : 1) * (stride > 0 ? stride : child_extent * (blocklen + 1)) + 3;
    } else {
        int64_t n = 1 + rand() % 4, bl[4], dp[4], ex[4];
        struct axon_dloop *ch[4];
        int64_t cext[4];
        struct axon_dloop *other = random_loop(depth - 1, &cext[0]);
        int64_t at = rand() % 7;
        for (int64_t i = 0; i < n; i++) {
            int use_other = rand() % 2;
            ch[i] = use_other ? other : child;
            ex[i] = use_other ? cext[0] : child_extent;
            bl[i] = rand() % 3;
            dp[i] = at;
            at += bl[i] * ex[i] + rand() % 6;
        }
        l = axon_dloop_blocks(n, bl, dp, ch, ex);
        *extent = at + 1;
        axon_dloop_release(other);
    }
    axon_dloop_release(child);
    return l;
}

START_TEST(test_random_layouts_against_reference)
{
    srand(4242);
    for (int trial = 0; trial < 3000; trial++) {
        int64_t extent;
        struct axon_dloop *l = random_loop(1 + rand() % 4, &extent);
        int64_t count = rand() % 4;
        /* Room for negative displacements: the buffer's origin sits in the middle. */
        int64_t span = 1 << 16;
        static unsigned char buf[1 << 17], packed[1 << 17], out[1 << 17];
        static int64_t ref_offsets[1 << 17];
        int64_t *refp = ref_offsets, nref = 0;
        if (l->size * count > (int64_t)(sizeof(ref_offsets) / sizeof(ref_offsets[0]))) {
            axon_dloop_release(l);
            continue;
        }
        for (int64_t e = 0; e < count; e++)
            ref_walk(l, e * extent, &refp, &nref);
        ck_assert_int_eq(nref, l->size * count);
        for (int64_t i = 0; i < nref; i++)
            if (ref_offsets[i] <= -span || ref_offsets[i] >= span)
                ck_abort_msg("trial %d: offset %lld out of the test buffer", trial, (long long)ref_offsets[i]);
        for (size_t i = 0; i < sizeof(buf); i++)
            buf[i] = (unsigned char)(rand() & 0xff);
        unsigned char *origin = buf + span;

        /* Pack in random segments, seeking back and forth now and then. */
        struct axon_dloop_cursor c;
        ck_assert_int_eq(axon_dloop_cursor_init(&c, l, count, extent), 0);
        int64_t pos = 0;
        while (pos < nref) {
            if (rand() % 5 == 0) {
                pos -= rand() % (pos < 16 ? pos + 1 : 16); /* a little back: what lies before stays written */
                axon_dloop_cursor_seek(&c, pos);
            }
            int64_t want = 1 + rand() % 13;
            int64_t got = axon_dloop_pack(&c, origin, packed + pos, want);
            if (got != (want < nref - pos ? want : nref - pos))
                ck_abort_msg("trial %d: packed %lld of %lld at %lld/%lld",
                          trial, (long long)got, (long long)want, (long long)pos, (long long)nref);
            pos += got;
        }
        for (int64_t i = 0; i < nref; i++)
            if (packed[i] != origin[ref_offsets[i]])
                ck_abort_msg("trial %d: packed byte %lld differs", trial, (long long)i);

        /* Unpack the stream into a clean buffer: the same bytes land where they came from. */
        memset(out, 0, sizeof(out));
        axon_dloop_cursor_seek(&c, 0);
        for (pos = 0; pos < nref;) {
            int64_t got = axon_dloop_unpack(&c, out + span, packed + pos, 1 + rand() % 9);
            if (got <= 0)
                ck_abort_msg("trial %d: unpack stopped at %lld of %lld", trial, (long long)pos, (long long)nref);
            pos += got;
        }
        for (int64_t i = 0; i < nref; i++)
            if (out[span + ref_offsets[i]] != origin[ref_offsets[i]])
                ck_abort_msg("trial %d: unpacked byte %lld differs", trial, (long long)i);
        int64_t off;
        if (axon_dloop_cursor_next(&c, 100, &off) != 0)
            ck_abort_msg("trial %d: data after the end", trial);
        axon_dloop_cursor_fini(&c);
        axon_dloop_release(l);
    }
}
END_TEST

START_TEST(test_large_vector_streams)
{
    /* A vector of a million doubles with stride 2: seeking to the middle is arithmetic, not a walk. */
    struct axon_dloop *d = axon_dloop_leaf(8);
    struct axon_dloop *v = axon_dloop_vector(1000000, 1, 16, d, 8);
    struct axon_dloop_cursor c;
    ck_assert_int_eq(axon_dloop_cursor_init(&c, v, 1, 16000000), 0);
    axon_dloop_cursor_seek(&c, 8 * 500000 + 3);
    int64_t off, n = axon_dloop_cursor_next(&c, 100, &off);
    ck_assert_int_eq(n, 5);
    ck_assert_int_eq(off, 16 * 500000 + 3);
    axon_dloop_cursor_fini(&c);
    axon_dloop_release(v);
    axon_dloop_release(d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pt2pt_dloop");
    TCase *tc = tcase_create("dloop");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_dense_shapes_merge);
    tcase_add_test(tc, test_random_layouts_against_reference);
    tcase_add_test(tc, test_large_vector_streams);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
