/* MPI_Isendrecv and MPI_Isendrecv_replace around a ring: small and rendezvous-sized messages, a strided
 * datatype, MPI_PROC_NULL halves, completion by MPI_Test polling, MPI_Waitall over several, a request
 * freed before it completes, and bad arguments under MPI_ERRORS_RETURN. Prints "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    int rank, size, count = -1, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request r;
    MPI_Status st;

    /* Small and large (1 MiB, past the eager limit) messages, polled with MPI_Test. */
    int sizes[2] = {5, 1 << 18};
    for (int k = 0; k < 2; k++) {
        int n = sizes[k];
        int *out = malloc(sizeof(int) * (size_t)n), *in = malloc(sizeof(int) * (size_t)(n + 1));
        for (int i = 0; i < n; i++)
            out[i] = rank * 1000003 + i;
        EXPECT(MPI_Isendrecv(out, n, MPI_INT, right, 3, in, n + 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r) ==
               MPI_SUCCESS);
        do
            MPI_Test(&r, &flag, &st);
        while (!flag);
        EXPECT(r == MPI_REQUEST_NULL && st.MPI_SOURCE == left && st.MPI_TAG == 3);
        EXPECT(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == n);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += in[i] != left * 1000003 + i;
        EXPECT(bad == 0);

        /* In place: the buffer is replaced with the left neighbor's. */
        for (int i = 0; i < n; i++)
            in[i] = rank * 7 + i;
        EXPECT(MPI_Isendrecv_replace(in, n, MPI_INT, right, 4, left, 4, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS && st.MPI_SOURCE == left);
        bad = 0;
        for (int i = 0; i < n; i++)
            bad += in[i] != left * 7 + i;
        EXPECT(bad == 0);
        free(out);
        free(in);
    }

    /* A strided type, replaced in place: only the selected elements change. */
    int grid[12];
    MPI_Datatype every_third;
    MPI_Type_vector(4, 1, 3, MPI_INT, &every_third);
    MPI_Type_commit(&every_third);
    for (int i = 0; i < 12; i++)
        grid[i] = rank * 100 + i;
    EXPECT(MPI_Isendrecv_replace(grid, 1, every_third, right, 5, left, 5, MPI_COMM_WORLD, &r) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS && MPI_Get_count(&st, every_third, &count) == MPI_SUCCESS && count == 1);
    for (int i = 0; i < 12; i++)
        EXPECT(grid[i] == (i % 3 == 0 ? left : rank) * 100 + i);
    MPI_Type_free(&every_third);

    /* MPI_PROC_NULL on either side; several at once in a Waitall (tags keep them apart). */
    int a = rank, b = -1, c[4] = {-1, -1, -1, -1};
    MPI_Request rs[4];
    EXPECT(MPI_Isendrecv(&a, 1, MPI_INT, MPI_PROC_NULL, 0, &b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r) ==
           MPI_SUCCESS);
    EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS && st.MPI_SOURCE == MPI_PROC_NULL && b == -1);
    EXPECT(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 0);
    for (int i = 0; i < 4; i++)
        MPI_Isendrecv(&a, 1, MPI_INT, right, 10 + i, &c[3 - i], 1, MPI_INT, left, 10 + (3 - i), MPI_COMM_WORLD,
                      &rs[i]);
    MPI_Status sts[4];
    EXPECT(MPI_Waitall(4, rs, sts) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        EXPECT(c[i] == left && sts[i].MPI_TAG == 10 + (3 - i));

    /* Freed before it completes: the exchange still happens. */
    int d = -1;
    MPI_Isendrecv(&a, 1, MPI_INT, right, 20, &d, 1, MPI_INT, left, 20, MPI_COMM_WORLD, &r);
    EXPECT(MPI_Request_free(&r) == MPI_SUCCESS && r == MPI_REQUEST_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    int e = -1;
    MPI_Sendrecv(&a, 1, MPI_INT, right, 21, &e, 1, MPI_INT, left, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    while (d == -1) {
        int f;
        MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE); /* progress */
    }
    EXPECT(d == left && e == left);

    /* Bad arguments. */
    EXPECT(class_of(MPI_Isendrecv(&a, 1, MPI_INT, size, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r)) ==
           MPI_ERR_RANK);
    EXPECT(class_of(MPI_Isendrecv(&a, 1, MPI_INT, right, -2, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r)) ==
           MPI_ERR_TAG);
    EXPECT(class_of(MPI_Isendrecv(&a, -1, MPI_INT, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r)) ==
           MPI_ERR_COUNT);
    EXPECT(class_of(MPI_Isendrecv(&a, 1, MPI_INT, right, 0, &b, 1, MPI_DATATYPE_NULL, left, 0, MPI_COMM_WORLD, &r)) ==
           MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Isendrecv(&a, 1, MPI_INT, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_NULL, &r)) ==
           MPI_ERR_COMM);
    EXPECT(class_of(MPI_Isendrecv(&a, 1, MPI_INT, right, 0, &b, 1, MPI_INT, left, 0, MPI_COMM_WORLD, NULL)) ==
           MPI_ERR_ARG);
    EXPECT(class_of(MPI_Isendrecv_replace(&a, 1, MPI_INT, right, 0, -5, 0, MPI_COMM_WORLD, &r)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Isendrecv_replace(&a, 1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, NULL)) == MPI_ERR_ARG);

    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
