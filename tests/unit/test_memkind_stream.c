/* Unit tests of streaming copies (memkind/axon_memkind_stream.c): every byte lands, none beyond, for
 * lengths around the vector widths and the four-vector loop, at every alignment of both sides. */
#include "memkind/axon_memkind.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_copy)
{
    enum { ROOM = 4096 + 512 };
    unsigned char *src = malloc(ROOM), *dst = malloc(ROOM), *want = malloc(ROOM);
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(dst);
    ck_assert_ptr_nonnull(want);
    for (int i = 0; i < ROOM; i++)
        src[i] = (unsigned char)(i * 7 + 3);
    static const size_t lens[] = {0, 1, 15, 16, 63, 64, 255, 256, 257, 1000, 4095, 4096};
    for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
        for (size_t so = 0; so < 64; so += 7)
            for (size_t dof = 0; dof < 128; dof += 5) {
                size_t len = lens[l];
                memset(dst, 0xee, ROOM);
                memcpy(want, dst, ROOM);
                memcpy(want + dof, src + so, len);
                axon_memkind_host_stream_copy(dst + dof, src + so, len);
                ck_assert_msg(memcmp(dst, want, ROOM) == 0, "len %zu, source offset %zu, destination offset %zu",
                              len, so, dof);
            }
    free(src);
    free(dst);
    free(want);
}
END_TEST

START_TEST(test_large)
{
    size_t len = (8u << 20) + 123;
    unsigned char *src = malloc(len), *dst = malloc(len + 64);
    ck_assert_ptr_nonnull(src);
    ck_assert_ptr_nonnull(dst);
    for (size_t i = 0; i < len; i++)
        src[i] = (unsigned char)(i ^ (i >> 9));
    dst[len + 3] = 0x5a;
    axon_memkind_host_stream_copy(dst + 3, src, len);
    ck_assert(memcmp(dst + 3, src, len) == 0);
    ck_assert_int_eq(dst[len + 3], 0x5a);
    free(src);
    free(dst);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("memkind_stream");
    TCase *tc = tcase_create("copy");
    tcase_add_test(tc, test_copy);
    tcase_add_test(tc, test_large);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
