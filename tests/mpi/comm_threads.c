/* Communicator creation from four threads at once under MPI_THREAD_MULTIPLE: each thread has its own
 * duplicate of MPI_COMM_WORLD (made in advance) and, many times over, duplicates it, splits the
 * duplicate, and makes a communicator with MPI_Comm_create_group on one communicator that all threads
 * share (each thread its own tag), with a ring of messages on everything it made. Messages carry the
 * thread and the iteration: two live communicators given one context would cross them. The threads
 * start in different orders on different ranks, so creations over different communicators overlap in
 * every order; each thread also duplicates MPI_COMM_SELF, one per rank late. Prints "rank R: ok" when
 * everything holds. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NTHREADS 4
#define ITERS 40

static int wrank, wsize;
static MPI_Comm own[NTHREADS], shared;
static MPI_Group world_group;
static int failures[NTHREADS];

#define EXPECT(t, cond)                                                                              \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            printf("rank %d thread %d FAILED: %s (line %d)\n", wrank, (t), #cond, __LINE__);         \
            failures[t]++;                                                                           \
        }                                                                                            \
    } while (0)

static void ring(int t, MPI_Comm c, int iter)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int right = (r + 1) % n, left = (r + n - 1) % n;
    int out[3] = {t, iter, r}, in[3] = {-1, -1, -1};
    MPI_Status st;
    MPI_Sendrecv(out, 3, MPI_INT, right, 0, in, 3, MPI_INT, left, 0, c, &st);
    EXPECT(t, in[0] == t && in[1] == iter && in[2] == left && st.MPI_SOURCE == left);
}

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < ITERS; i++) {
        MPI_Comm d, s, g, self;
        /* One thread per rank comes late to its first MPI_COMM_SELF duplicate, while the others are out
         * agreeing over their own communicators (MPICH's comm_dup_deadlock hung so). */
        if (i == 0 && t == wrank % NTHREADS)
            usleep(100000);
        EXPECT(t, MPI_Comm_dup(MPI_COMM_SELF, &self) == MPI_SUCCESS);
        ring(t, self, i);
        EXPECT(t, MPI_Comm_free(&self) == MPI_SUCCESS);
        EXPECT(t, MPI_Comm_dup(own[t], &d) == MPI_SUCCESS);
        ring(t, d, i);
        EXPECT(t, MPI_Comm_split(d, wrank % 2, wrank, &s) == MPI_SUCCESS);
        ring(t, s, i);
        EXPECT(t, MPI_Comm_create_group(shared, world_group, 100 + t, &g) == MPI_SUCCESS);
        ring(t, g, i);
        ring(t, d, i);
        EXPECT(t, MPI_Comm_free(&g) == MPI_SUCCESS);
        EXPECT(t, MPI_Comm_free(&s) == MPI_SUCCESS);
        EXPECT(t, MPI_Comm_free(&d) == MPI_SUCCESS);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("rank %d FAILED: provided %d\n", wrank, provided);
        MPI_Finalize();
        return 1;
    }
    for (int t = 0; t < NTHREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &own[t]);
    MPI_Comm_dup(MPI_COMM_WORLD, &shared);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);

    pthread_t th[NTHREADS];
    /* Start order differs by rank: rotate. */
    for (int k = 0; k < NTHREADS; k++) {
        int t = (k + wrank) % NTHREADS;
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);

    int total = 0;
    for (int t = 0; t < NTHREADS; t++) {
        total += failures[t];
        MPI_Comm_free(&own[t]);
    }
    MPI_Comm_free(&shared);
    MPI_Group_free(&world_group);
    if (total == 0)
        printf("rank %d: ok\n", wrank);
    MPI_Finalize();
    return total != 0;
}
