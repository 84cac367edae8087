/* Many requests at once and very large messages:
 *   - 1000 receives per rank completed by MPI_Waitany, then by MPI_Waitsome, then by MPI_Testsome,
 *     while the left neighbour sends the messages in a scrambled order;
 *   - truncation inside MPI_Waitall: MPI_ERR_IN_STATUS, with MPI_ERR_TRUNCATE in the status of the one
 *     that failed and MPI_SUCCESS in the others;
 *   - a 256 MiB message from rank 0 to rank 1 (argv[1] = "nobig" skips it), checked byte by byte.
 * Any number of ranks. */
#include "axon_test.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NREQ 1000

static int rank, size;

static void many(int method)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    static int in[NREQ][4], out[NREQ][4];
    static MPI_Request rreq[NREQ], sreq[NREQ];
    static int done[NREQ], idx[NREQ];
    static MPI_Status sts[NREQ];
    for (int i = 0; i < NREQ; i++) {
        MPI_Irecv(in[i], 4, MPI_INT, left, i, MPI_COMM_WORLD, &rreq[i]);
        done[i] = 0;
    }
    /* Sends in a scrambled order (a fixed permutation: i * 7 mod NREQ, as gcd(7, 1000) = 1). */
    for (int k = 0; k < NREQ; k++) {
        int i = (k * 7) % NREQ;
        for (int j = 0; j < 4; j++)
            out[i][j] = rank * 100000 + i * 10 + j + method;
        MPI_Isend(out[i], 1 + i % 4, MPI_INT, right, i, MPI_COMM_WORLD, &sreq[i]);
    }
    int completed = 0;
    while (completed < NREQ) {
        if (method == 0) {
            int index;
            MPI_Status st;
            MPI_Waitany(NREQ, rreq, &index, &st);
            CHECK(index >= 0 && index < NREQ && rreq[index] == MPI_REQUEST_NULL, "MPI_Waitany index %d", index);
            idx[0] = index;
            sts[0] = st;
            int n = 1;
            for (int k = 0; k < n; k++) {
                int i = idx[k], count;
                MPI_Get_count(&sts[k], MPI_INT, &count);
                CHECK(!done[i] && sts[k].MPI_TAG == i && count == 1 + i % 4, "request %d completed badly", i);
                done[i] = 1;
            }
            completed += n;
        } else {
            int n = 0;
            if (method == 1)
                MPI_Waitsome(NREQ, rreq, &n, idx, sts);
            else
                MPI_Testsome(NREQ, rreq, &n, idx, sts);
            CHECK(n != MPI_UNDEFINED, "MPI_%ssome found no active request", method == 1 ? "Wait" : "Test");
            for (int k = 0; k < n; k++) {
                int i = idx[k], count;
                MPI_Get_count(&sts[k], MPI_INT, &count);
                CHECK(!done[i] && rreq[i] == MPI_REQUEST_NULL && sts[k].MPI_TAG == i && count == 1 + i % 4,
                      "request %d completed badly", i);
                done[i] = 1;
            }
            completed += n;
        }
    }
    for (int i = 0; i < NREQ; i++)
        for (int j = 0; j < 1 + i % 4; j++)
            if (in[i][j] != left * 100000 + i * 10 + j + method) {
                CHECK(0, "method %d: message %d element %d is %d", method, i, j, in[i][j]);
                break;
            }
    /* Nothing is active any more: MPI_UNDEFINED from both forms. */
    int index, n;
    MPI_Waitany(NREQ, rreq, &index, MPI_STATUS_IGNORE);
    CHECK(index == MPI_UNDEFINED, "MPI_Waitany over null requests gave index %d", index);
    MPI_Waitsome(NREQ, rreq, &n, idx, MPI_STATUSES_IGNORE);
    CHECK(n == MPI_UNDEFINED, "MPI_Waitsome over null requests gave %d", n);
    MPI_Waitall(NREQ, sreq, MPI_STATUSES_IGNORE);
}

static void truncation(void)
{
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int out[3][8] = {{1}, {2}, {3}}, in[3][8];
    MPI_Request r[3], s[3];
    MPI_Status st[3];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < 3; i++)
        MPI_Irecv(in[i], i == 1 ? 2 : 8, MPI_INT, left, 50 + i, MPI_COMM_WORLD, &r[i]);
    for (int i = 0; i < 3; i++)
        MPI_Isend(out[i], 8, MPI_INT, right, 50 + i, MPI_COMM_WORLD, &s[i]);
    int rc = MPI_Waitall(3, r, st), cls = -1, c1 = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_IN_STATUS, "MPI_Waitall with a truncated receive gave class %d", cls);
    MPI_Error_class(st[1].MPI_ERROR, &c1);
    CHECK(c1 == MPI_ERR_TRUNCATE && st[0].MPI_ERROR == MPI_SUCCESS && st[2].MPI_ERROR == MPI_SUCCESS,
          "statuses of the truncated Waitall: %d %d %d", st[0].MPI_ERROR, st[1].MPI_ERROR, st[2].MPI_ERROR);
    MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void big(void)
{
    if (size < 2 || rank > 1)
        return;
    const size_t n = (size_t)256 << 20;
    unsigned char *buf = malloc(n);
    if (!buf) {
        CHECK(0, "no memory for 256 MiB");
        return;
    }
    if (rank == 0) {
        for (size_t i = 0; i < n; i++)
            buf[i] = (unsigned char)(i * 131 + (i >> 20));
        MPI_Send(buf, (int)n, MPI_BYTE, 1, 77, MPI_COMM_WORLD);
    } else {
        memset(buf, 0, n);
        MPI_Status st;
        MPI_Recv(buf, (int)n, MPI_BYTE, 0, 77, MPI_COMM_WORLD, &st);
        int count;
        MPI_Get_count(&st, MPI_BYTE, &count);
        CHECK((size_t)count == n, "256 MiB message: count %d", count);
        for (size_t i = 0; i < n; i++)
            if (buf[i] != (unsigned char)(i * 131 + (i >> 20))) {
                CHECK(0, "256 MiB message: byte %zu is %d", i, buf[i]);
                break;
            }
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int method = 0; method < 3; method++)
        many(method);
    truncation();
    if (!(argc > 1 && strcmp(argv[1], "nobig") == 0))
        big();
    int fails = failures;
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            int f;
            MPI_Recv(&f, 1, MPI_INT, r, 9999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            fails += f;
        }
        printf("pt2pt_many: %s\n", fails ? "FAILED" : "ok");
    } else {
        MPI_Send(&failures, 1, MPI_INT, 0, 9999, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rank == 0 && fails != 0;
}
