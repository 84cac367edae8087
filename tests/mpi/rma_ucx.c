/* Puts and gets that UCX moves (AXON_RMA_UCX; the .test also runs it on one machine with AXON_RMA_SHM=0
 * AXON_RMA_UCX=on, where node peers are reached as other machines' ranks are). Rank 0 is the origin,
 * every other rank a target, for a window of the program's memory (MPI_Win_create) and an allocated one
 * (MPI_Win_allocate):
 *  (1) a busy target: with AXON_TEST_BUSY_TARGET=1 each target, after a barrier, computes without calling
 *      MPI until the origin's put lands in its memory (up to 20 seconds); the origin reads the target's
 *      values with MPI_Get, flushes, and puts values derived from them, inside MPI_Win_lock_all with
 *      MPI_MODE_NOCHECK. Where the fabric moves them without the target (RDMA) nothing more is needed;
 *      where UCX emulates them with messages (TCP, and the program's memory within a machine) the
 *      progress thread (AXON_ASYNC_PROGRESS=1) serves them while the target computes. Without the
 *      variable the targets wait in MPI_Barrier instead (the check of values stays).
 *  (2) layouts: a strided target type (several pieces per operation) for puts and gets with a
 *      contiguous origin, a strided origin (not one piece: it goes by messages) in the same epoch, and an
 *      accumulate between them, in a fence epoch; each target checks every element.
 * Prints "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axon_test.h"

#define N 64

static int rank, size, busy;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static MPI_Win make(int allocate, long **mem)
{
    MPI_Win win;
    if (allocate) {
        MPI_Win_allocate(N * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, mem, &win);
    } else {
        *mem = malloc(N * sizeof(long));
        MPI_Win_create(*mem, N * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    return win;
}

static void busy_target(int allocate)
{
    long *mem;
    MPI_Win win = make(allocate, &mem);
    volatile long *v = mem;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (int i = 0; i < N; i++)
        v[i] = rank * 7 + i;
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
        for (int t = 1; t < size; t++) {
            long got[N], put[N];
            MPI_Get(got, N, MPI_LONG, t, 0, N, MPI_LONG, win);
            MPI_Win_flush(t, win);
            for (int i = 0; i < N; i++) {
                CHECK(got[i] == t * 7 + i, "window %d: target %d element %d is %ld, not %d", allocate, t, i,
                      got[i], t * 7 + i);
                put[i] = got[i] + 1000;
            }
            MPI_Put(put, N, MPI_LONG, t, 0, N, MPI_LONG, win);
            MPI_Win_flush(t, win);
        }
        MPI_Win_unlock_all(win);
    } else if (busy) {
        /* Computing, no MPI call: only a transfer the target takes no part in gets here. */
        double end = now() + 20;
        while (v[N - 1] != rank * 7 + N - 1 + 1000 && now() < end)
            ;
        CHECK(v[N - 1] == rank * 7 + N - 1 + 1000, "window %d: the origin's put never reached this busy target",
              allocate);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
        for (int i = 0; i < N; i++)
            CHECK(v[i] == rank * 7 + i + 1000, "window %d: element %d is %ld after the put", allocate, i, v[i]);
        MPI_Win_unlock(rank, win);
    }
    MPI_Win_free(&win);
    if (!allocate)
        free(mem);
}

/* Element i of target t after the epoch: the even ones came from puts (strided target), the odd ones in
 * the first half from a strided origin, the odd ones of the second half were accumulated. */
static long want(int t, int i)
{
    if (i % 2 == 0)
        return 100 * t + i;
    if (i < N / 2)
        return -(100 * t + i);
    return t + i + 5;
}

static void layouts(int allocate)
{
    long *mem;
    MPI_Win win = make(allocate, &mem);
    for (int i = 0; i < N; i++)
        mem[i] = rank + i;
    MPI_Datatype every2;
    MPI_Type_vector(N / 2, 1, 2, MPI_LONG, &every2);
    MPI_Type_commit(&every2);
    MPI_Datatype half_odd; /* the odd elements of one half */
    MPI_Type_vector(N / 4, 1, 2, MPI_LONG, &half_odd);
    MPI_Type_commit(&half_odd);
    long got[N / 2];
    long src[N];
    MPI_Win_fence(0, win);
    if (rank == 0)
        for (int t = 1; t < size; t++) {
            long even[N / 2], five[N / 4];
            for (int i = 0; i < N / 2; i++)
                even[i] = 100 * t + 2 * i;
            for (int i = 0; i < N; i++)
                src[i] = -(100 * t + i);
            for (int i = 0; i < N / 4; i++)
                five[i] = 5;
            /* A strided target from a contiguous origin: UCX puts, one per element. */
            MPI_Put(even, N / 2, MPI_LONG, t, 0, 1, every2, win);
            /* A strided origin: packed, by messages. */
            MPI_Put(src + 1, 1, half_odd, t, 1, 1, half_odd, win);
            MPI_Accumulate(five, N / 4, MPI_LONG, t, N / 2 + 1, 1, half_odd, MPI_SUM, win);
        }
    MPI_Win_fence(0, win);
    if (rank > 0)
        for (int i = 0; i < N; i++)
            CHECK(mem[i] == want(rank, i), "window %d: element %d is %ld, not %ld", allocate, i, mem[i],
                  want(rank, i));
    /* Gets of the odd elements back through a strided target. */
    MPI_Win_fence(0, win);
    if (rank == 0)
        for (int t = 1; t < size; t++) {
            MPI_Get(got, N / 2, MPI_LONG, t, 1, 1, every2, win);
            MPI_Win_fence(0, win);
            for (int i = 0; i < N / 2; i++)
                CHECK(got[i] == want(t, 2 * i + 1), "window %d: got %ld of target %d's element %d, not %ld", allocate,
                      got[i], t, 2 * i + 1, want(t, 2 * i + 1));
        }
    else
        for (int t = 1; t < size; t++)
            MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Type_free(&every2);
    MPI_Type_free(&half_odd);
    MPI_Win_free(&win);
    if (!allocate)
        free(mem);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *b = getenv("AXON_TEST_BUSY_TARGET");
    busy = b && strcmp(b, "1") == 0;
    for (int allocate = 0; allocate < 2; allocate++) {
        busy_target(allocate);
        layouts(allocate);
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
