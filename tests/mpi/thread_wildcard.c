/* MPI_THREAD_MULTIPLE with wildcards: on every rank SENDERS threads send ROUNDS messages each to every
 * other rank, alternating MPI_Send and MPI_Ssend (small, and every fifth one past the eager limit), while
 * RECEIVERS threads take them all with MPI_ANY_SOURCE and MPI_ANY_TAG. Every message says who sent it
 * (source, thread, sequence number) and carries a pattern of those: each must arrive exactly once, with
 * a status that matches its contents. Run over UCX alone (the rings and CMA off) it exercises the
 * transport's thread safety: synchronous sends wait for acknowledgements that a receiving thread's
 * progress must deliver while other threads send. Any number of ranks (alone, nothing is sent). */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

#define SENDERS 4
#define RECEIVERS 4
#define ROUNDS 100
#define BIG 65536 /* ints past the eager limit */

static int rank, size;
static atomic_int to_receive; /* receives not yet claimed by a receiving thread */
static unsigned char *seen;   /* [size][SENDERS][ROUNDS]: how often each message arrived */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int bad;

static int length(int seq)
{
    return seq % 5 == 4 ? BIG : 3 + seq % 7;
}

static void *sender(void *arg)
{
    int t = (int)(long)arg;
    int *buf = malloc(sizeof(int) * BIG);
    for (int seq = 0; seq < ROUNDS; seq++)
        for (int k = 1; k < size; k++) {
            int dest = (rank + k) % size, n = length(seq);
            for (int i = 0; i < n; i++)
                buf[i] = rank * 1000003 + t * 10007 + seq * 31 + i;
            int tag = t * ROUNDS + seq;
            int rc = seq % 2 ? MPI_Ssend(buf, n, MPI_INT, dest, tag, MPI_COMM_WORLD)
                             : MPI_Send(buf, n, MPI_INT, dest, tag, MPI_COMM_WORLD);
            if (rc != MPI_SUCCESS)
                atomic_fetch_add(&bad, 1);
        }
    free(buf);
    return NULL;
}

static void *receiver(void *arg)
{
    (void)arg;
    int *buf = malloc(sizeof(int) * BIG);
    while (atomic_fetch_sub(&to_receive, 1) > 0) {
        MPI_Status st;
        if (MPI_Recv(buf, BIG, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS) {
            atomic_fetch_add(&bad, 1);
            continue;
        }
        int count, src = st.MPI_SOURCE, t = st.MPI_TAG / ROUNDS, seq = st.MPI_TAG % ROUNDS;
        MPI_Get_count(&st, MPI_INT, &count);
        int ok = src >= 0 && src < size && src != rank && t >= 0 && t < SENDERS && count == length(seq);
        for (int i = 0; ok && i < count; i++)
            ok = buf[i] == src * 1000003 + t * 10007 + seq * 31 + i;
        if (!ok) {
            printf("rank %d FAILED: a message from %d with tag %d: %d ints, not what was sent\n", rank, src,
                   st.MPI_TAG, count);
            atomic_fetch_add(&bad, 1);
            continue;
        }
        pthread_mutex_lock(&seen_lock);
        seen[((size_t)src * SENDERS + (size_t)t) * ROUNDS + (size_t)seq]++;
        pthread_mutex_unlock(&seen_lock);
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT(provided == MPI_THREAD_MULTIPLE);
    seen = calloc((size_t)size * SENDERS * ROUNDS, 1);
    atomic_store(&to_receive, (size - 1) * SENDERS * ROUNDS);
    pthread_t th[SENDERS + RECEIVERS];
    for (long i = 0; i < RECEIVERS; i++)
        pthread_create(&th[i], NULL, receiver, NULL);
    for (long i = 0; i < SENDERS; i++)
        pthread_create(&th[RECEIVERS + i], NULL, sender, (void *)i);
    for (int i = 0; i < SENDERS + RECEIVERS; i++)
        pthread_join(th[i], NULL);
    for (int src = 0; src < size; src++)
        for (int t = 0; t < SENDERS; t++)
            for (int seq = 0; seq < ROUNDS; seq++) {
                int n = seen[((size_t)src * SENDERS + (size_t)t) * ROUNDS + (size_t)seq];
                if (n != (src == rank ? 0 : 1)) {
                    printf("rank %d FAILED: message %d of thread %d of rank %d arrived %d times\n", rank, seq, t,
                           src, n);
                    failures++;
                }
            }
    failures += atomic_load(&bad);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("thread_wildcard: %s\n", all ? "FAILED" : "ok");
    free(seen);
    MPI_Finalize();
    return all ? 1 : 0;
}
