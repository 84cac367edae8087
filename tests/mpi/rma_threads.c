/* One window, four threads per rank under MPI_THREAD_MULTIPLE, inside one MPI_Win_lock_all epoch: each
 * thread puts into its own slots of every other rank's window, gets them back after a flush, adds to a
 * counter every thread of every rank shares (MPI_Accumulate), fetches-and-adds another (MPI_Fetch_and_op)
 * and gets with a request (MPI_Rget). The .test runs it with the default paths and with every target
 * reached by messages (AXON_RMA_SHM=0), where the threads share the engine's tags, lists and counts.
 * At the end each rank checks its counters (every thread's every addition) and its slots. Prints
 * "rank R: ok". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

#define THREADS 4
#define ROUNDS 200

static int rank, size;
static MPI_Win win;
static long *mem; /* [0] accumulate counter, [1] fetch-and-op counter, then THREADS slots per rank */
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static int thread_failures;

static long slot_value(int origin, int thread, int round)
{
    return (long)origin * 1000000 + thread * 10000 + round;
}

static void *work(void *arg)
{
    int th = (int)(intptr_t)arg, bad = 0;
    for (int round = 0; round < ROUNDS; round++)
        for (int t = 0; t < size; t++) {
            if (t == rank && size > 1)
                continue;
            long v = slot_value(rank, th, round), back = -1, fetched = -1, one = 1, rback = -1;
            MPI_Aint slot = 2 + (MPI_Aint)rank * THREADS + th;
            MPI_Put(&v, 1, MPI_LONG, t, slot, 1, MPI_LONG, win);
            MPI_Accumulate(&one, 1, MPI_LONG, t, 0, 1, MPI_LONG, MPI_SUM, win);
            MPI_Win_flush(t, win);
            MPI_Get(&back, 1, MPI_LONG, t, slot, 1, MPI_LONG, win);
            MPI_Fetch_and_op(&one, &fetched, MPI_LONG, t, 1, MPI_SUM, win);
            MPI_Request req;
            MPI_Rget(&rback, 1, MPI_LONG, t, slot, 1, MPI_LONG, win, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            MPI_Win_flush(t, win);
            bad += back != v || rback != v || fetched < 0;
        }
    if (bad) {
        pthread_mutex_lock(&fail_lock);
        fprintf(stderr, "rank %d thread %d: %d rounds read back the wrong value\n", rank, th, bad);
        thread_failures++;
        pthread_mutex_unlock(&fail_lock);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("rank %d FAILED: MPI_THREAD_MULTIPLE not provided\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Aint n = 2 + (MPI_Aint)size * THREADS;
    MPI_Win_allocate(n * (MPI_Aint)sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (MPI_Aint i = 0; i < n; i++)
        mem[i] = i < 2 ? 0 : -1;
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Win_lock_all(0, win);
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, work, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);

    failures += thread_failures;
    int origins = size > 1 ? size - 1 : 1;
    long want = (long)origins * THREADS * ROUNDS;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    CHECK(mem[0] == want, "the accumulated counter is %ld, expected %ld", mem[0], want);
    CHECK(mem[1] == want, "the fetch-and-op counter is %ld, expected %ld", mem[1], want);
    for (int o = 0; o < size; o++)
        for (int t = 0; t < THREADS; t++) {
            long v = mem[2 + o * THREADS + t];
            long expect = (o == rank && size > 1) ? -1 : slot_value(o, t, ROUNDS - 1);
            CHECK(v == expect, "slot of rank %d thread %d holds %ld, expected %ld", o, t, v, expect);
        }
    MPI_Win_unlock(rank, win);
    MPI_Win_free(&win);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
