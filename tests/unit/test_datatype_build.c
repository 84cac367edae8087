/* Unit tests of the datatype descriptions (mpi/datatype/axon_mpi_datatype_create.c): sizes, bounds with the
 * standard's rules (negative strides, markers from resized types that win and propagate, empty blocks
 * that add nothing), the alignment padding of structs, contiguity, the layouts the merges leave, and
 * sizes or bounds that would overflow 64 bits, and types of more than INT_MAX bytes (the large-count
 * constructors' counts reach the builders as they are) with the pieces their layouts walk. */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <check.h>
#include <stdlib.h>

static const struct axon_dtype_desc int_desc = {.size = 4, .ub = 4, .true_ub = 4, .align = 4, .nelements = 1,
                                                .contig = true};
static const struct axon_dtype_desc double_desc = {.size = 8, .ub = 8, .true_ub = 8, .align = 8, .nelements = 1,
                                                   .contig = true};
static const struct axon_dtype_desc char_desc = {.size = 1, .ub = 1, .true_ub = 1, .align = 1, .nelements = 1,
                                                 .contig = true};

#define ck_bounds(d, sz, l, u, tl, tu)                                                               \
    do {                                                                                             \
        ck_assert_int_eq((d).size, sz);                                                              \
        ck_assert_int_eq((d).lb, l);                                                                 \
        ck_assert_int_eq((d).ub, u);                                                                 \
        ck_assert_int_eq((d).true_lb, tl);                                                           \
        ck_assert_int_eq((d).true_ub, tu);                                                           \
    } while (0)

START_TEST(test_vector_bounds)
{
    struct axon_dtype_desc v;
    ck_assert_int_eq(axon_dtype_build_vector(3, 2, 16, &int_desc, &v), MPI_SUCCESS);
    ck_bounds(v, 24, 0, 40, 0, 40);
    ck_assert_int_eq(v.nelements, 6);
    ck_assert(!v.contig);
    ck_assert_int_eq(v.loop->kind, AXON_DLOOP_VECTOR);
    axon_dloop_release(v.loop);

    /* Negative stride: the blocks reach down from 0. */
    ck_assert_int_eq(axon_dtype_build_vector(3, 1, -16, &double_desc, &v), MPI_SUCCESS);
    ck_bounds(v, 24, -32, 8, -32, 8);
    axon_dloop_release(v.loop);

    /* Blocks that abut: one contiguous piece, one leaf. */
    ck_assert_int_eq(axon_dtype_build_vector(4, 2, 8, &int_desc, &v), MPI_SUCCESS);
    ck_bounds(v, 32, 0, 32, 0, 32);
    ck_assert(v.contig);
    ck_assert_int_eq(v.loop->kind, AXON_DLOOP_LEAF);
    struct axon_dtype_desc vv;
    ck_assert_int_eq(axon_dtype_build_vector(1, 5, 0, &v, &vv), MPI_SUCCESS);
    ck_assert(vv.contig);
    ck_assert_int_eq(vv.loop->kind, AXON_DLOOP_LEAF);
    ck_assert_int_eq(vv.loop->size, 160);
    axon_dloop_release(vv.loop);
    axon_dloop_release(v.loop);

    /* Nothing: no entries, bounds 0. */
    ck_assert_int_eq(axon_dtype_build_vector(0, 3, 8, &int_desc, &v), MPI_SUCCESS);
    ck_assert(v.empty && v.contig);
    ck_bounds(v, 0, 0, 0, 0, 0);
    axon_dloop_release(v.loop);
}
END_TEST

START_TEST(test_struct_padding)
{
    const struct axon_dtype_desc *members[3] = {&int_desc, &double_desc, &char_desc};
    struct axon_dtype_block b[3];
    for (int i = 0; i < 3; i++)
        b[i] = (struct axon_dtype_block){.blocklen = 1, .disp = 8 * i, .child = members[i]};
    struct axon_dtype_desc s, h;
    ck_assert_int_eq(axon_dtype_build_blocks(3, b, true, &s), MPI_SUCCESS);
    ck_bounds(s, 13, 0, 24, 0, 17); /* rounded up to the double's 8 */
    ck_assert_int_eq(s.align, 8);
    ck_assert_int_eq(s.nelements, 3);
    ck_assert(!s.contig);
    /* The same blocks as an hindexed-like type: no padding. */
    ck_assert_int_eq(axon_dtype_build_blocks(3, b, false, &h), MPI_SUCCESS);
    ck_bounds(h, 13, 0, 17, 0, 17);
    axon_dloop_release(h.loop);
    /* A struct of structs keeps the members' alignment: 24 + char at 24 -> 32. */
    struct axon_dtype_block outer[2] = {{.blocklen = 1, .disp = 0, .child = &s},
                                        {.blocklen = 1, .disp = 24, .child = &char_desc}};
    struct axon_dtype_desc o;
    ck_assert_int_eq(axon_dtype_build_blocks(2, outer, true, &o), MPI_SUCCESS);
    ck_bounds(o, 14, 0, 32, 0, 25);
    axon_dloop_release(o.loop);
    axon_dloop_release(s.loop);

    /* Two ints that abut: contiguous, one leaf, and so is any contiguous run of it. */
    struct axon_dtype_block ii[2] = {{.blocklen = 1, .disp = 0, .child = &int_desc},
                                     {.blocklen = 1, .disp = 4, .child = &int_desc}};
    ck_assert_int_eq(axon_dtype_build_blocks(2, ii, true, &s), MPI_SUCCESS);
    ck_assert(s.contig);
    ck_assert_int_eq(s.loop->kind, AXON_DLOOP_LEAF);
    struct axon_dtype_desc c;
    ck_assert_int_eq(axon_dtype_build_vector(1, 3, 0, &s, &c), MPI_SUCCESS);
    ck_assert(c.contig);
    ck_assert_int_eq(c.loop->kind, AXON_DLOOP_LEAF);
    ck_assert_int_eq(c.loop->size, 24);
    axon_dloop_release(c.loop);
    axon_dloop_release(s.loop);
}
END_TEST

START_TEST(test_markers)
{
    struct axon_dtype_desc r, c, s;
    ck_assert_int_eq(axon_dtype_build_resized(&int_desc, -4, 16, &r), MPI_SUCCESS);
    ck_bounds(r, 4, -4, 12, 0, 4);
    ck_assert(r.marked && !r.contig);
    /* Copies one marked extent apart; the markers stay markers. */
    ck_assert_int_eq(axon_dtype_build_vector(1, 2, 0, &r, &c), MPI_SUCCESS);
    ck_bounds(c, 8, -4, 28, 0, 20);
    ck_assert(c.marked);
    axon_dloop_release(c.loop);
    /* In a struct, the markers decide the bounds even with data beyond them, and no padding. */
    struct axon_dtype_block b[2] = {{.blocklen = 1, .disp = 0, .child = &r},
                                    {.blocklen = 1, .disp = 100, .child = &double_desc}};
    ck_assert_int_eq(axon_dtype_build_blocks(2, b, true, &s), MPI_SUCCESS);
    ck_bounds(s, 12, -4, 12, 0, 108);
    ck_assert(s.marked);
    axon_dloop_release(s.loop);
    /* Resizing to the data's own shape makes it contiguous again. */
    struct axon_dtype_desc back;
    ck_assert_int_eq(axon_dtype_build_resized(&r, 0, 4, &back), MPI_SUCCESS);
    ck_assert(back.contig);
    axon_dloop_release(back.loop);
    axon_dloop_release(r.loop);

    /* An empty member adds nothing to the bounds; a resized empty type is markers only. */
    struct axon_dtype_desc e, em;
    ck_assert_int_eq(axon_dtype_build_vector(0, 1, 0, &int_desc, &e), MPI_SUCCESS);
    struct axon_dtype_block eb[2] = {{.blocklen = 1, .disp = 0, .child = &e},
                                     {.blocklen = 1, .disp = 100, .child = &int_desc}};
    ck_assert_int_eq(axon_dtype_build_blocks(2, eb, true, &s), MPI_SUCCESS);
    ck_bounds(s, 4, 100, 104, 100, 104);
    ck_assert(s.contig);
    axon_dloop_release(s.loop);
    ck_assert_int_eq(axon_dtype_build_resized(&e, 0, 10, &em), MPI_SUCCESS);
    ck_assert(!em.empty && em.marked && em.size == 0);
    struct axon_dtype_block mb[2] = {{.blocklen = 1, .disp = 50, .child = &em},
                                     {.blocklen = 1, .disp = 100, .child = &int_desc}};
    ck_assert_int_eq(axon_dtype_build_blocks(2, mb, true, &s), MPI_SUCCESS);
    ck_bounds(s, 4, 50, 60, 100, 104);
    axon_dloop_release(s.loop);
    axon_dloop_release(em.loop);
    axon_dloop_release(e.loop);
}
END_TEST

START_TEST(test_layouts)
{
    /* One block at 8: contiguous data that starts at 8 (a shifted leaf). */
    struct axon_dtype_block one = {.blocklen = 3, .disp = 8, .child = &int_desc};
    struct axon_dtype_desc d;
    ck_assert_int_eq(axon_dtype_build_blocks(1, &one, false, &d), MPI_SUCCESS);
    ck_bounds(d, 12, 8, 20, 8, 20);
    ck_assert(d.contig);
    int64_t start;
    ck_assert(axon_dloop_contig_run(d.loop, &start));
    ck_assert_int_eq(start, 8);
    axon_dloop_release(d.loop);
    /* Equally spaced blocks of one length: a vector of byte runs. */
    struct axon_dtype_block reg[4];
    for (int i = 0; i < 4; i++)
        reg[i] = (struct axon_dtype_block){.blocklen = 2, .disp = 4 + 32 * i, .child = &double_desc};
    ck_assert_int_eq(axon_dtype_build_blocks(4, reg, false, &d), MPI_SUCCESS);
    ck_assert_int_eq(d.loop->kind, AXON_DLOOP_BLOCKS); /* the shift by 4 */
    ck_assert_int_eq(d.loop->u.blocks.children[0]->kind, AXON_DLOOP_VECTOR);
    ck_assert_int_eq(d.loop->u.blocks.children[0]->u.vector.child->u.leaf.len, 16);
    axon_dloop_release(d.loop);
}
END_TEST

START_TEST(test_overflow)
{
    struct axon_dtype_desc big, v;
    ck_assert_int_eq(axon_dtype_build_vector(1, 1 << 30, 0, &double_desc, &big), MPI_SUCCESS);
    ck_assert_int_eq(big.size, 8LL << 30);
    ck_assert_int_eq(axon_dtype_build_vector(1 << 30, 1 << 30, 0, &big, &v), MPI_ERR_ARG);
    ck_assert_int_eq(axon_dtype_build_vector(2, 1, INT64_MAX, &double_desc, &v), MPI_ERR_ARG);
    ck_assert_int_eq(axon_dtype_build_resized(&double_desc, INT64_MAX - 2, 8, &v), MPI_ERR_ARG);
    struct axon_dtype_block b[3];
    for (int i = 0; i < 3; i++)
        b[i] = (struct axon_dtype_block){.blocklen = 1 << 30, .disp = 0, .child = &big};
    ck_assert_int_eq(axon_dtype_build_blocks(3, b, true, &v), MPI_ERR_ARG);
    axon_dloop_release(big.loop);
}
END_TEST

/* Counts, block lengths and displacements beyond INT_MAX: 64-bit sizes and bounds, and layout pieces
 * of more than 2^31 bytes (walked without touching memory). */
START_TEST(test_beyond_int)
{
    const int64_t big = ((int64_t)1 << 31) + 100;
    struct axon_dtype_desc c, v, h;
    ck_assert_int_eq(axon_dtype_build_vector(1, big, 0, &char_desc, &c), MPI_SUCCESS);
    ck_bounds(c, big, 0, big, 0, big);
    ck_assert_int_eq(c.nelements, big);
    ck_assert(c.contig);

    /* Three blocks of 2^31 + 100 chars, 2^32 bytes apart. */
    const int64_t stride = (int64_t)1 << 32;
    ck_assert_int_eq(axon_dtype_build_vector(3, big, stride, &char_desc, &v), MPI_SUCCESS);
    ck_bounds(v, 3 * big, 0, 2 * stride + big, 0, 2 * stride + big);
    ck_assert(!v.contig);
    struct axon_dloop_cursor cur;
    int64_t offset = -1;
    ck_assert_int_eq(axon_dloop_cursor_init(&cur, v.loop, 2, v.ub - v.lb), 0);
    ck_assert_int_eq(axon_dloop_cursor_next(&cur, INT64_MAX, &offset), big);
    ck_assert_int_eq(offset, 0);
    ck_assert_int_eq(axon_dloop_cursor_next(&cur, INT64_MAX, &offset), big);
    ck_assert_int_eq(offset, stride);
    axon_dloop_cursor_seek(&cur, 4 * big + 5); /* the second element's second block, 5 bytes in */
    ck_assert_int_eq(axon_dloop_cursor_next(&cur, 10, &offset), 10);
    ck_assert_int_eq(offset, (2 * stride + big) + stride + 5);
    axon_dloop_cursor_fini(&cur);

    /* An hindexed-like pair of such blocks beyond 2^33, and a struct of the vector and a char. */
    struct axon_dtype_block b[2] = {{.blocklen = big, .disp = (int64_t)1 << 34, .child = &char_desc},
                                    {.blocklen = 1, .disp = -8, .child = &v}};
    ck_assert_int_eq(axon_dtype_build_blocks(2, b, true, &h), MPI_SUCCESS);
    ck_assert_int_eq(h.size, 4 * big);
    ck_assert_int_eq(h.lb, -8);
    ck_assert_int_eq(h.ub, ((int64_t)1 << 34) + big);
    axon_dloop_release(h.loop);
    axon_dloop_release(v.loop);
    axon_dloop_release(c.loop);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("datatype_build");
    TCase *tc = tcase_create("build");
    tcase_add_test(tc, test_vector_bounds);
    tcase_add_test(tc, test_struct_padding);
    tcase_add_test(tc, test_markers);
    tcase_add_test(tc, test_layouts);
    tcase_add_test(tc, test_overflow);
    tcase_add_test(tc, test_beyond_int);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
