/* Under MPI_ERRORS_RETURN, bad arguments come back as the error classes the standard names; a user
 * error handler is called; the default handler is MPI_ERRORS_ARE_FATAL. Prints "ok" when all hold. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "axon_test.h"

static int user_calls, user_code;
static MPI_Comm user_comm = MPI_COMM_NULL;
static void user_handler(MPI_Comm *comm, int *code, ...)
{
    user_comm = *comm;
    user_calls++;
    user_code = *code;
}

int main(int argc, char **argv)
{
    int rank = -1, size = -1, cls = -1, rc;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, user;
    MPI_Init(&argc, &argv);

    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    EXPECT(eh == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    EXPECT(eh == MPI_ERRHANDLER_NULL);

    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    rc = MPI_Comm_rank((MPI_Comm)0x44000123, &rank);
    EXPECT(rc != MPI_SUCCESS);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Comm_size(MPI_COMM_NULL, &size);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ARG);
    rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, (MPI_Errhandler)0x1234);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ERRHANDLER); /* MPI 4.1's class for an invalid handler */
    MPI_Errhandler bad = (MPI_Errhandler)0x1234;
    rc = MPI_Errhandler_free(&bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ERRHANDLER);
    rc = MPI_Error_class(-5, &cls);
    EXPECT(rc == MPI_ERR_ARG);

    char text[MPI_MAX_ERROR_STRING];
    int len;
    EXPECT(MPI_Error_string(MPI_ERR_COMM, text, &len) == MPI_SUCCESS && strstr(text, "communicator"));
    EXPECT(MPI_Error_string(MPI_ERR_ERRHANDLER, text, &len) == MPI_SUCCESS && strstr(text, "error handler"));
    EXPECT(MPI_Error_string(MPI_T_ERR_NOT_ACCESSIBLE, text, &len) == MPI_SUCCESS &&
           strstr(text, "MPI_T_ERR_NOT_ACCESSIBLE"));
    int version, subversion;
    EXPECT(MPI_Get_version(&version, &subversion) == MPI_SUCCESS && version == 4 && subversion == 1);

    EXPECT(MPI_Comm_create_errhandler(user_handler, &user) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_SELF, user) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_free(&user) == MPI_SUCCESS); /* MPI_COMM_SELF keeps its own reference */
    rc = MPI_Comm_size(MPI_COMM_SELF, NULL);
    EXPECT(rc == MPI_ERR_ARG && user_calls == 1 && user_code == MPI_ERR_ARG);
    EXPECT(MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER) == MPI_SUCCESS);
    EXPECT(user_calls == 2 && user_code == MPI_ERR_OTHER);
    /* An error on no valid communicator goes to MPI_COMM_SELF's handler now that one was set there
     * (MPI 4.0); before, MPI_COMM_WORLD's MPI_ERRORS_RETURN took it (above). */
    rc = MPI_Comm_size(MPI_COMM_NULL, &size);
    EXPECT(rc == MPI_ERR_COMM && user_calls == 3 && user_code == MPI_ERR_COMM && user_comm == MPI_COMM_SELF);
    rc = MPI_Type_size(MPI_DATATYPE_NULL, &size);
    EXPECT(rc == MPI_ERR_TYPE && user_calls == 4 && user_code == MPI_ERR_TYPE);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    rc = MPI_Comm_size(MPI_COMM_NULL, &size);
    EXPECT(rc == MPI_ERR_COMM && user_calls == 4);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL) == MPI_SUCCESS);

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT(rank >= 0 && rank < size);
    double t0 = MPI_Wtime();
    EXPECT(MPI_Wtick() > 0 && MPI_Wtick() < 1e-3 && MPI_Wtime() >= t0);

    /* An error in a call that takes a communicator goes to that communicator's handler, though the
     * world's and self's are fatal: a window constructor's (no window exists yet) and a reduction's. */
    MPI_Comm mine;
    EXPECT(MPI_Comm_dup(MPI_COMM_WORLD, &mine) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(mine, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL) == MPI_SUCCESS);
    MPI_Win win;
    int cell;
    rc = MPI_Win_create(&cell, sizeof(cell), 1, MPI_INFO_NULL, mine, &win);
    EXPECT(rc == MPI_SUCCESS && win != MPI_WIN_NULL);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
    rc = MPI_Win_create(&cell, sizeof(cell), 0, MPI_INFO_NULL, mine, &win);
    EXPECT(rc == MPI_ERR_DISP && win == MPI_WIN_NULL);
    int two[4] = {0};
    rc = MPI_Allreduce(two, two + 2, 1, MPI_2INT, MPI_SUM, mine);
    EXPECT(rc == MPI_ERR_OP);
    MPI_Comm_free(&mine);

    if (argc > 1 && !strcmp(argv[1], "fatal")) {
        /* Back to the default: this error ends the job, naming the function and the rank. */
        MPI_Comm_rank(MPI_COMM_NULL, &rank);
        printf("FAILED: still running after a fatal error\n");
    }
    if (argc > 1 && !strcmp(argv[1], "fatal-op")) {
        /* The message names the handles: the operation, the datatype and the communicator. */
        MPI_Allreduce(two, two + 2, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD);
        printf("FAILED: still running after a fatal error\n");
    }
    if (argc > 1 && !strcmp(argv[1], "fatal-type")) {
        MPI_Send(&cell, 1, (MPI_Datatype)MPI_COMM_WORLD, 0, 0, MPI_COMM_WORLD);
        printf("FAILED: still running after a fatal error\n");
    }
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
