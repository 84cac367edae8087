/* Unit tests of the error classes: every class MPI defines has a name and a description, names match
 * the macros, and MPI_Error_string / MPI_Error_class answer for each (they are legal before MPI_Init). */
#include "mpi/axon_mpi.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static const struct { int cls; const char *name; } classes[] = {
#define C(x) {x, #x}
    C(MPI_SUCCESS), C(MPI_ERR_BUFFER), C(MPI_ERR_COUNT), C(MPI_ERR_TYPE), C(MPI_ERR_TAG), C(MPI_ERR_COMM),
    C(MPI_ERR_RANK), C(MPI_ERR_ROOT), C(MPI_ERR_TRUNCATE), C(MPI_ERR_GROUP), C(MPI_ERR_OP),
    C(MPI_ERR_REQUEST), C(MPI_ERR_TOPOLOGY), C(MPI_ERR_DIMS), C(MPI_ERR_ARG), C(MPI_ERR_OTHER),
    C(MPI_ERR_UNKNOWN), C(MPI_ERR_INTERN), C(MPI_ERR_IN_STATUS), C(MPI_ERR_PENDING), C(MPI_ERR_INFO),
    C(MPI_ERR_NO_MEM), C(MPI_ERR_KEYVAL), C(MPI_ERR_UNSUPPORTED_OPERATION), C(MPI_ERR_WIN),
    C(MPI_ERR_RMA_SYNC), C(MPI_ERR_SIZE), C(MPI_ERR_DISP), C(MPI_ERR_PROC_ABORTED),
#undef C
};

START_TEST(test_class_names)
{
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
        const char *name = axon_mpi_error_class_name(classes[i].cls);
        ck_assert_msg(name != NULL, "class %s has no name", classes[i].name);
        ck_assert_str_eq(name, classes[i].name);
        ck_assert_ptr_nonnull(axon_mpi_error_class_text(classes[i].cls));
    }
    ck_assert_ptr_null(axon_mpi_error_class_name(-1));
    ck_assert_ptr_null(axon_mpi_error_class_name(100000));
}
END_TEST

START_TEST(test_error_string_and_class)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = -1, cls = -1;
    ck_assert_int_eq(MPI_Error_string(MPI_ERR_RANK, text, &len), MPI_SUCCESS);
    ck_assert_str_eq(text, "MPI_ERR_RANK: invalid rank");
    ck_assert_int_eq(len, (int)strlen(text));
    ck_assert_int_eq(MPI_Error_class(MPI_ERR_TRUNCATE, &cls), MPI_SUCCESS);
    ck_assert_int_eq(cls, MPI_ERR_TRUNCATE);
    ck_assert_int_eq(MPI_Error_string(MPI_SUCCESS, text, &len), MPI_SUCCESS);
    ck_assert_str_eq(text, "MPI_SUCCESS: no error");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("errors");
    tcase_add_test(tc, test_class_names);
    tcase_add_test(tc, test_error_string_and_class);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
