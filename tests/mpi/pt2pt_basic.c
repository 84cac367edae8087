/* Point-to-point basics on MPI_COMM_WORLD with predefined datatypes: a ring of blocking sends, every
 * size from 0 B to 8 MiB (eager and rendezvous), MPI_ANY_SOURCE and MPI_ANY_TAG with the standard's
 * order, synchronous sends, truncation, a type with gaps (MPI_DOUBLE_INT), MPI_PROC_NULL, probe,
 * cancel, and bad arguments under MPI_ERRORS_RETURN. Prints "rank R: ok" when everything holds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int rank, size;

static unsigned char pattern(long i, int from) { return (unsigned char)(i * 7 + from * 13 + 1); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    int count;

    /* 1. Sizes across the eager/rendezvous switch, around a ring, with Sendrecv. */
    for (long n = 0; n <= 8L << 20; n = n ? n * 4 : 1) {
        unsigned char *out = malloc((size_t)n + 1), *in = malloc((size_t)n + 1);
        for (long i = 0; i < n; i++)
            out[i] = pattern(i, rank);
        memset(in, 0, (size_t)n + 1);
        MPI_Sendrecv(out, (int)n, MPI_BYTE, right, 5, in, (int)n, MPI_BYTE, left, 5, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        EXPECT(count == n && st.MPI_SOURCE == left && st.MPI_TAG == 5);
        long bad = 0;
        for (long i = 0; i < n; i++)
            bad += in[i] != pattern(i, left);
        EXPECT(bad == 0);
        free(out);
        free(in);
    }

    /* 2. Rank 0 receives from everyone with MPI_ANY_SOURCE; order per source is kept. */
    if (rank == 0) {
        int got[64] = {0};
        for (int k = 0; k < 3 * (size - 1); k++) {
            int v[2];
            MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            EXPECT(v[0] == st.MPI_SOURCE && v[1] == got[st.MPI_SOURCE] && st.MPI_TAG == 10 + v[1]);
            got[st.MPI_SOURCE]++;
        }
    } else {
        for (int k = 0; k < 3; k++) {
            int v[2] = {rank, k};
            MPI_Send(v, 2, MPI_INT, 0, 10 + k, MPI_COMM_WORLD);
        }
    }

    /* Rank 0 lets the others go on only when it has all of them: its MPI_ANY_TAG receives above must
     * not see the messages below. */
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Send(&rank, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&count, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    /* 3. Synchronous sends, nonblocking receives posted in reverse tag order. */
    {
        MPI_Request reqs[4];
        double a[3] = {rank, rank + 0.5, rank + 0.25}, b[3] = {0};
        int i1 = -1, i2 = -1;
        MPI_Irecv(&i1, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(b, 3, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Issend(a, 3, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[2]);
        MPI_Isend(&rank, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &reqs[3]);
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
        EXPECT(i1 == left && b[0] == left && b[1] == left + 0.5 && b[2] == left + 0.25);
        EXPECT(reqs[0] == MPI_REQUEST_NULL && reqs[3] == MPI_REQUEST_NULL);
        /* A ring of blocking Ssends would deadlock: the even ranks send first. */
        if (size == 1) {
            i2 = rank;
        } else if (rank % 2 == 0) {
            MPI_Ssend(&rank, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
            MPI_Recv(&i2, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&i2, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Ssend(&rank, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
        }
        EXPECT(i2 == left);
    }

    /* 4. A type with gaps (MPI_DOUBLE_INT: 12 bytes of data in a 16-byte extent), eager and large. */
    for (int n = 1; n <= 100000; n *= 100) {
        struct { double v; int i; } *out = malloc(sizeof(*out) * n), *in = calloc(n, sizeof(*in));
        for (int i = 0; i < n; i++) {
            out[i].v = rank * 1000.0 + i;
            out[i].i = i ^ rank;
        }
        MPI_Sendrecv(out, n, MPI_DOUBLE_INT, right, 7, in, n, MPI_DOUBLE_INT, left, 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE_INT, &count);
        EXPECT(count == n);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += in[i].v != left * 1000.0 + i || in[i].i != (i ^ left);
        EXPECT(bad == 0);
        free(out);
        free(in);
    }

    /* 5. Truncation: a message longer than the buffer, eager and rendezvous. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int n = 16; n <= (1 << 20); n *= 256) {
        char *out = calloc(n, 1), *in = calloc(n, 1);
        MPI_Request r;
        MPI_Isend(out, n, MPI_CHAR, right, 8, MPI_COMM_WORLD, &r);
        int rc = MPI_Recv(in, n / 2, MPI_CHAR, left, 8, MPI_COMM_WORLD, &st);
        int cls;
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_TRUNCATE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        free(out);
        free(in);
    }

    /* 5b. A short message that ends inside an element of the receive's one basic type (3 bytes into
     * ints, eager and rendezvous) does not match its type signature: MPI_ERR_TYPE. Whole elements are
     * fine, fewer than the buffer holds. */
    for (int n = 3; n <= (1 << 20) + 3; n += (1 << 20)) {
        char *out = calloc((size_t)n, 1);
        int *in = calloc((size_t)n / 4 + 2, sizeof(int));
        MPI_Request r;
        MPI_Isend(out, n, MPI_CHAR, right, 10, MPI_COMM_WORLD, &r);
        int rc = MPI_Recv(in, n / 4 + 2, MPI_INT, left, 10, MPI_COMM_WORLD, &st), cls = -1;
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_TYPE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Isend(out, n - 3, MPI_CHAR, right, 11, MPI_COMM_WORLD, &r);
        EXPECT(MPI_Recv(in, n / 4 + 2, MPI_INT, left, 11, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT(count == (n - 3) / 4);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        free(out);
        free(in);
    }

    /* 6. MPI_PROC_NULL, probe, cancel. */
    EXPECT(MPI_Send(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(MPI_Recv(&count, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    EXPECT(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    MPI_Send(&rank, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
    MPI_Probe(left, 9, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    EXPECT(st.MPI_SOURCE == left && count == 1);
    int flag = 0, v = -1;
    MPI_Iprobe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    EXPECT(flag == 1);
    MPI_Recv(&v, 1, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(v == left);
    {
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, left, 12345, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        MPI_Test_cancelled(&st, &flag);
        EXPECT(flag == 1);
    }

    /* 7. Bad arguments give the classes the standard names. */
    int cls, rc;
    rc = MPI_Send(&rank, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_RANK);
    rc = MPI_Recv(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD, &st);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_RANK);
    rc = MPI_Send(&rank, 1, MPI_INT, right, -2, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_TAG);
    rc = MPI_Send(&rank, -1, MPI_INT, right, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COUNT);
    rc = MPI_Send(&rank, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_TYPE);
    rc = MPI_Send(NULL, 4, MPI_INT, right, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    rc = MPI_Send(&rank, 1, MPI_INT, right, 0, MPI_COMM_NULL);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    MPI_Request bogus = (MPI_Request)0x12345;
    rc = MPI_Wait(&bogus, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_REQUEST);

    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
