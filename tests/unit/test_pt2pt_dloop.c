/* Unit tests of the data layouts: merging of dense shapes, packing in segments of random sizes, with
 * random seeks, checked byte for byte against a reference that walks the same shape recursively, and
 * the merges checked against the typemap that the constructors' arguments define. */
#include "pt2pt/axon_pt2pt_dloop.h"

#include <check.h>
#include <stdbool.h>
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
    /* Two blocks of ints that abut, from displacement 0: one run of 20 bytes. */
    ck_assert_int_eq(idx->kind, AXON_DLOOP_LEAF);
    ck_assert_int_eq(idx->size, 20);
    axon_dloop_release(idx);
    /* The same from displacement 8: a shift of that run. */
    int64_t dp8[3] = {8, 16, 100};
    struct axon_dloop *idx8 = axon_dloop_blocks(3, bl, dp8, ch, ex);
    ck_assert_int_eq(idx8->kind, AXON_DLOOP_BLOCKS);
    ck_assert_int_eq(idx8->u.blocks.n, 1);
    ck_assert_int_eq(idx8->u.blocks.blocklens[0], 1);
    ck_assert_int_eq(idx8->u.blocks.displs[0], 8);
    ck_assert_int_eq(idx8->u.blocks.children[0]->kind, AXON_DLOOP_LEAF);
    ck_assert_int_eq(idx8->size, 20);
    int64_t start;
    ck_assert(axon_dloop_contig_run(idx8, &start));
    ck_assert_int_eq(start, 8);
    /* Equally spaced runs of one length: a vector of bytes. */
    int64_t bl2[4] = {2, 2, 2, 2}, dp2[4] = {4, 36, 68, 100}, ex2[4] = {4, 4, 4, 4};
    struct axon_dloop *ch2[4] = {i4, i4, i4, i4};
    struct axon_dloop *reg = axon_dloop_blocks(4, bl2, dp2, ch2, ex2);
    ck_assert_int_eq(reg->kind, AXON_DLOOP_BLOCKS);
    ck_assert_int_eq(reg->u.blocks.displs[0], 4);
    const struct axon_dloop *rv = reg->u.blocks.children[0];
    ck_assert_int_eq(rv->kind, AXON_DLOOP_VECTOR);
    ck_assert_int_eq(rv->u.vector.count, 4);
    ck_assert_int_eq(rv->u.vector.stride, 32);
    ck_assert_int_eq(rv->u.vector.child->u.leaf.len, 8);
    ck_assert(!axon_dloop_contig_run(reg, &start));
    /* A vector of a shifted run: the shift moves above the vector, whose blocks are plain bytes. */
    struct axon_dloop *vs = axon_dloop_vector(3, 1, 64, idx8, 20);
    ck_assert_int_eq(vs->kind, AXON_DLOOP_BLOCKS);
    ck_assert_int_eq(vs->u.blocks.displs[0], 8);
    ck_assert_int_eq(vs->u.blocks.children[0]->kind, AXON_DLOOP_VECTOR);
    ck_assert_int_eq(vs->u.blocks.children[0]->u.vector.child->kind, AXON_DLOOP_LEAF);
    /* ... and when those blocks abut, one shifted run. */
    struct axon_dloop *vc = axon_dloop_vector(3, 1, 20, idx8, 20);
    ck_assert(axon_dloop_contig_run(vc, &start));
    ck_assert_int_eq(start, 8);
    ck_assert_int_eq(vc->u.blocks.children[0]->u.leaf.len, 60);
    axon_dloop_release(vc);
    axon_dloop_release(vs);
    axon_dloop_release(reg);
    axon_dloop_release(idx8);
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

/* Packs count elements of l in random segments (seeking back now and then) and unpacks them into a clean
 * buffer, both checked byte by byte against ref_walk's offsets. Returns false when the layout does not
 * fit the test's buffers (nothing checked). */
static bool check_pack_unpack(struct axon_dloop *l, int64_t count, int64_t extent, int trial)
{
    /* Room for negative displacements: the buffer's origin sits in the middle. */
    int64_t span = 1 << 16;
    static unsigned char buf[1 << 17], packed[1 << 17], out[1 << 17];
    static int64_t ref_offsets[1 << 17];
    int64_t *refp = ref_offsets, nref = 0;
    if (l->size * count > (int64_t)(sizeof(ref_offsets) / sizeof(ref_offsets[0])))
        return false;
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
        /* Mostly short segments (leaves cut anywhere), now and then long ones (many whole leaves: the
         * strided and indexed fast paths). */
        int64_t want = rand() % 4 == 0 ? 1 + rand() % 400 : 1 + rand() % 13;
        int64_t got = axon_dloop_pack(&c, origin, packed + pos, want);
        if (got != (want < nref - pos ? want : nref - pos))
            ck_abort_msg("trial %d: packed %lld of %lld at %lld/%lld", trial, (long long)got, (long long)want,
                         (long long)pos, (long long)nref);
        pos += got;
    }
    for (int64_t i = 0; i < nref; i++)
        if (packed[i] != origin[ref_offsets[i]])
            ck_abort_msg("trial %d: packed byte %lld differs", trial, (long long)i);

    /* Unpack the stream into a clean buffer: the same bytes land where they came from. */
    memset(out, 0, sizeof(out));
    axon_dloop_cursor_seek(&c, 0);
    for (pos = 0; pos < nref;) {
        int64_t got = axon_dloop_unpack(&c, out + span, packed + pos, rand() % 4 == 0 ? 1 + rand() % 400 : 1 + rand() % 9);
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
    return true;
}

START_TEST(test_random_layouts_against_reference)
{
    srand(4242);
    for (int trial = 0; trial < 3000; trial++) {
        int64_t extent;
        struct axon_dloop *l = random_loop(1 + rand() % 4, &extent);
        check_pack_unpack(l, rand() % 4, extent, trial);
        axon_dloop_release(l);
    }
}
END_TEST

/* Indexed layouts of many blocks, as MPI_Type_indexed and create_indexed_block make them: every block
 * one leaf of one length (the fixed-length loop), leaves of several lengths where neighbouring blocks
 * touch (the run loop), and blocks of several copies of a strided child (the general loop); irregular
 * gaps, so that nothing becomes a vector. */
START_TEST(test_indexed_many_blocks)
{
    srand(777);
    for (int trial = 0; trial < 300; trial++) {
        int shape = trial % 3;
        int64_t n = 2 + rand() % 300, elem = (int64_t[]){1, 4, 8, 16, 12}[rand() % 5];
        int64_t *bl = malloc(sizeof(int64_t) * (size_t)n), *dp = malloc(sizeof(int64_t) * (size_t)n);
        int64_t *ex = malloc(sizeof(int64_t) * (size_t)n);
        struct axon_dloop **ch = malloc(sizeof(*ch) * (size_t)n);
        struct axon_dloop *leaf = axon_dloop_leaf(elem);
        struct axon_dloop *strided = axon_dloop_vector(2, 1, elem + 3, leaf, elem);
        int64_t at = rand() % 5;
        for (int64_t i = 0; i < n; i++) {
            ch[i] = shape == 2 && rand() % 2 ? strided : leaf;
            ex[i] = ch[i] == strided ? 2 * elem + 3 : elem;
            bl[i] = shape == 0 ? 1 : 1 + rand() % 3;
            dp[i] = at;
            /* A gap of at least one element and never the same twice in a row; sometimes none at all
             * (the blocks touch: a longer run). */
            int64_t gap = shape == 1 && rand() % 3 == 0 ? 0 : elem * (1 + i % 3) + rand() % 3;
            at += bl[i] * ex[i] + gap;
        }
        struct axon_dloop *l = axon_dloop_blocks(n, bl, dp, ch, ex);
        ck_assert_ptr_nonnull(l);
        if (shape == 0 && l->kind == AXON_DLOOP_BLOCKS)
            ck_assert_int_eq(l->u.blocks.unit_len, elem);
        check_pack_unpack(l, 1 + rand() % 3, at + rand() % 8, trial);
        axon_dloop_release(l);
        axon_dloop_release(strided);
        axon_dloop_release(leaf);
        free(bl);
        free(dp);
        free(ex);
        free(ch);
    }
}
END_TEST

/* A random typemap as the constructors' arguments define it (byte offsets of one element, in order),
 * built together with its loop: the merges must never change it. */
struct ref_type {
    struct axon_dloop *loop;
    int64_t extent;
    int64_t n;
    int64_t *offsets;
};

static void ref_free(struct ref_type *t)
{
    axon_dloop_release(t->loop);
    free(t->offsets);
}

static struct ref_type ref_random(int depth)
{
    struct ref_type t = {0};
    int shape = depth == 0 ? 0 : rand() % 4;
    if (shape == 0) {
        int64_t len = 1 + rand() % 6;
        t.loop = axon_dloop_leaf(len);
        t.extent = len + (rand() % 3 == 0 ? rand() % 3 : 0);
        t.n = len;
        t.offsets = malloc(sizeof(int64_t) * (size_t)len);
        for (int64_t b = 0; b < len; b++)
            t.offsets[b] = b;
        return t;
    }
    struct ref_type c = ref_random(depth - 1);
    if (shape == 1) { /* vector, often with abutting blocks or copies */
        int64_t count = rand() % 4, blocklen = rand() % 3;
        int64_t ce = rand() % 2 ? c.extent : (int64_t)(rand() % 12);
        int64_t stride = rand() % 2 ? blocklen * ce : (int64_t)(rand() % 40) - 10;
        t.loop = axon_dloop_vector(count, blocklen, stride, c.loop, ce);
        t.offsets = malloc(sizeof(int64_t) * (size_t)(count * blocklen * c.n + 1));
        for (int64_t j = 0; j < count; j++)
            for (int64_t i = 0; i < blocklen; i++)
                for (int64_t k = 0; k < c.n; k++)
                    t.offsets[t.n++] = j * stride + i * ce + c.offsets[k];
        t.extent = count * (stride > 0 ? stride : 1) + blocklen * ce + 2;
    } else if (shape == 2) { /* blocks of one child, often abutting or equally spaced */
        int64_t nb = 1 + rand() % 4, bl[4], dp[4], ex[4];
        struct axon_dloop *ch[4];
        int64_t ce = rand() % 2 ? c.extent : c.n, at = rand() % 9 - 4, gap = rand() % 3 ? 0 : rand() % 7;
        int64_t total = 0;
        for (int64_t i = 0; i < nb; i++) {
            bl[i] = rand() % 3;
            dp[i] = at;
            ex[i] = ce;
            ch[i] = c.loop;
            at += rand() % 2 ? bl[i] * ce + gap : rand() % 20;
            total += bl[i];
        }
        t.loop = axon_dloop_blocks(nb, bl, dp, ch, ex);
        t.offsets = malloc(sizeof(int64_t) * (size_t)(total * c.n + 1));
        for (int64_t i = 0; i < nb; i++)
            for (int64_t j = 0; j < bl[i]; j++)
                for (int64_t k = 0; k < c.n; k++)
                    t.offsets[t.n++] = dp[i] + j * ce + c.offsets[k];
        t.extent = at + 24;
    } else { /* a shift */
        int64_t d = rand() % 17 - 8;
        t.loop = axon_dloop_shift(d, c.loop);
        t.offsets = malloc(sizeof(int64_t) * (size_t)(c.n + 1));
        for (int64_t k = 0; k < c.n; k++)
            t.offsets[t.n++] = d + c.offsets[k];
        t.extent = c.extent;
    }
    ref_free(&c);
    return t;
}

START_TEST(test_merges_keep_the_typemap)
{
    srand(777);
    static unsigned char buf[1 << 18], packed[1 << 18];
    int64_t span = 1 << 17;
    for (int64_t i = 0; i < (int64_t)sizeof(buf); i++)
        buf[i] = (unsigned char)(i * 131 + (i >> 8));
    unsigned char *origin = buf + span;
    for (int trial = 0; trial < 5000; trial++) {
        struct ref_type t = ref_random(1 + rand() % 4);
        ck_assert_ptr_nonnull(t.loop);
        ck_assert_int_eq(t.loop->size, t.n);
        int64_t count = 1 + rand() % 3;
        if (t.n * count > span / 2) {
            ref_free(&t);
            continue;
        }
        struct axon_dloop_cursor c;
        ck_assert_int_eq(axon_dloop_cursor_init(&c, t.loop, count, t.extent), 0);
        int64_t got = 0, n;
        while ((n = axon_dloop_pack(&c, origin, packed + got, 1 + rand() % 11)) > 0)
            got += n;
        ck_assert_int_eq(got, t.n * count);
        for (int64_t e = 0; e < count; e++)
            for (int64_t k = 0; k < t.n; k++)
                if (packed[e * t.n + k] != origin[e * t.extent + t.offsets[k]])
                    ck_abort_msg("trial %d: byte %lld of element %lld is not where the typemap says", trial,
                                 (long long)k, (long long)e);
        /* One contiguous run exactly when the typemap's offsets follow each other. */
        bool run = true;
        for (int64_t k = 1; k < t.n; k++)
            run = run && t.offsets[k] == t.offsets[k - 1] + 1;
        int64_t start = 0;
        if (t.n > 0) {
            if (axon_dloop_contig_run(t.loop, &start) != run)
                ck_abort_msg("trial %d: contig_run says %d, the typemap %d", trial, !run, run);
            if (run)
                ck_assert_int_eq(start, t.offsets[0]);
            /* Contiguous data is a leaf, or a shifted leaf. */
            if (run && t.loop->kind != AXON_DLOOP_LEAF) {
                ck_assert_int_eq(t.loop->kind, AXON_DLOOP_BLOCKS);
                ck_assert_int_eq(t.loop->u.blocks.n, 1);
                ck_assert_int_eq(t.loop->u.blocks.children[0]->kind, AXON_DLOOP_LEAF);
            }
        }
        axon_dloop_cursor_fini(&c);
        ref_free(&t);
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
    tcase_add_test(tc, test_indexed_many_blocks);
    tcase_add_test(tc, test_merges_keep_the_typemap);
    tcase_add_test(tc, test_large_vector_streams);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
