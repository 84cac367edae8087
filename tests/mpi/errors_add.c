/* Error classes, codes and strings added by the program: MPI_Error_class and MPI_Error_string know
 * them, MPI_LASTUSEDCODE follows them, an error handler receives them, and bad arguments give
 * MPI_ERR_ARG. Every rank adds the same ones in the same order, so they get the same values (checked
 * with an allgather). Prints "rank R: ok". */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <string.h>

#include "axon_test.h"

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int handler_code;
static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_code = *code;
}

static int lastused(void)
{
    int *v = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    return flag ? *v : -1;
}

int main(int argc, char **argv)
{
    int rank, size, cls = -1, code1 = -1, code2 = -1, code3 = -1, len = -1;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int before = lastused();
    EXPECT(before >= MPI_ERR_LASTCODE);
    EXPECT(MPI_Add_error_class(&cls) == MPI_SUCCESS);
    EXPECT(cls > MPI_ERR_LASTCODE && lastused() >= cls);
    EXPECT(MPI_Add_error_code(cls, &code1) == MPI_SUCCESS && code1 != cls && code1 > MPI_ERR_LASTCODE);
    EXPECT(MPI_Add_error_code(cls, &code2) == MPI_SUCCESS && code2 != code1 && lastused() >= code2);
    EXPECT(MPI_Add_error_code(MPI_ERR_OTHER, &code3) == MPI_SUCCESS && lastused() >= code3);

    int c = -1;
    EXPECT(MPI_Error_class(cls, &c) == MPI_SUCCESS && c == cls);
    EXPECT(MPI_Error_class(code1, &c) == MPI_SUCCESS && c == cls);
    EXPECT(MPI_Error_class(code2, &c) == MPI_SUCCESS && c == cls);
    EXPECT(MPI_Error_class(code3, &c) == MPI_SUCCESS && c == MPI_ERR_OTHER);

    /* Strings: empty until set, then the program's, replaceable. */
    EXPECT(MPI_Error_string(code1, text, &len) == MPI_SUCCESS && len == 0 && text[0] == '\0');
    EXPECT(MPI_Add_error_string(cls, "the solver diverged") == MPI_SUCCESS);
    EXPECT(MPI_Add_error_string(code1, "residual grew") == MPI_SUCCESS);
    EXPECT(MPI_Add_error_string(code1, "residual grew tenfold") == MPI_SUCCESS);
    EXPECT(MPI_Error_string(cls, text, &len) == MPI_SUCCESS && strcmp(text, "the solver diverged") == 0 &&
           len == (int)strlen(text));
    EXPECT(MPI_Error_string(code1, text, &len) == MPI_SUCCESS && strcmp(text, "residual grew tenfold") == 0);
    EXPECT(MPI_Error_string(MPI_ERR_TYPE, text, &len) == MPI_SUCCESS && strstr(text, "datatype"));

    /* Handlers receive the code. */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    EXPECT(MPI_Comm_call_errhandler(MPI_COMM_SELF, code2) == MPI_SUCCESS && handler_code == code2);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    /* Every rank got the same values. */
    int mine[4] = {cls, code1, code2, code3}, all[4 * 64];
    if (size <= 64) {
        MPI_Allgather(mine, 4, MPI_INT, all, 4, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < size; r++)
            EXPECT(memcmp(&all[4 * r], mine, sizeof(mine)) == 0);
    }

    /* Bad arguments. */
    char longer[MPI_MAX_ERROR_STRING + 10];
    memset(longer, 'x', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    EXPECT(class_of(MPI_Add_error_class(NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Add_error_code(cls, NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Add_error_code(code1, &c)) == MPI_ERR_ARG); /* a code is not a class */
    EXPECT(class_of(MPI_Add_error_code(cls + 1000, &c)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Add_error_code(MPI_SUCCESS, &c)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Add_error_string(MPI_ERR_ARG, "mine now")) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Add_error_string(code1, longer)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Add_error_string(code1, NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Error_class(code3 + 1000, &c)) == MPI_ERR_ARG);

    /* Removal (MPI 4.1; MPICH's MPIX_Delete_* are the same): a class goes only without codes, only
     * added ones go, and a removed value is no longer a class or code. */
    int rcls = -1, rcode = -1, rcode2 = -1, got = -1;
    MPI_Add_error_class(&rcls);
    MPI_Add_error_code(rcls, &rcode);
    MPI_Add_error_code(rcls, &rcode2);
    MPI_Add_error_string(rcode, "about to go");
    EXPECT(class_of(MPI_Remove_error_class(rcls)) == MPI_ERR_ARG); /* it still has codes */
    EXPECT(class_of(MPI_Remove_error_code(rcls)) == MPI_ERR_ARG);  /* a class is not a code */
    EXPECT(class_of(MPI_Remove_error_class(rcode)) == MPI_ERR_ARG); /* a code is not a class */
    EXPECT(class_of(MPI_Remove_error_class(MPI_ERR_ARG)) == MPI_ERR_ARG); /* predefined */
    EXPECT(MPI_Remove_error_code(rcode) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Error_class(rcode, &got)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Remove_error_code(rcode)) == MPI_ERR_ARG); /* gone already */
    EXPECT(MPIX_Delete_error_code(rcode2) == MPI_SUCCESS);
    EXPECT(MPIX_Delete_error_class(rcls) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Error_class(rcls, &got)) == MPI_ERR_ARG);
    /* Removed values are handed out again, the lowest first (every rank alike), and the string of the
     * old owner is gone; MPI_LASTUSEDCODE does not move back. */
    int fresh = -1, fresh_code = -1, *last = NULL, last_before = -1, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    last_before = *last;
    MPI_Add_error_class(&fresh);
    EXPECT(fresh == rcls);
    MPI_Add_error_code(fresh, &fresh_code);
    EXPECT(fresh_code == rcode);
    EXPECT(MPI_Error_class(fresh_code, &got) == MPI_SUCCESS && got == fresh);
    EXPECT(MPI_Error_string(fresh_code, text, &len) == MPI_SUCCESS && len == 0);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    EXPECT(*last == last_before);
    /* Many rounds of adding and removing do not run out of values (MPICH's errhan/adderr). */
    for (int round = 0; round < 70000; round++) {
        int k = -1, kc = -1;
        if (MPI_Add_error_class(&k) != MPI_SUCCESS || MPI_Add_error_code(k, &kc) != MPI_SUCCESS ||
            MPI_Remove_error_code(kc) != MPI_SUCCESS || MPI_Remove_error_class(k) != MPI_SUCCESS) {
            EXPECT(!"adding and removing a class and a code");
            break;
        }
    }

    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
