/* MPI_THREAD_MULTIPLE: four threads per rank communicate at once on MPI_COMM_WORLD.
 *   - each thread t runs a ring exchange on its own tag (blocking and nonblocking, small and large);
 *   - then all threads of a rank take messages of one shared tag with MPI_Mprobe + MPI_Mrecv while the
 *     other ranks send them: every message must be received exactly once, by some thread.
 * Any number of ranks (a single rank sends to itself). */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 200
#define SHARED_TAG 1000
#define PER_SENDER 400

static int rank, size;
static int failures[THREADS];
static int claimed[THREADS];
static int *seen; /* [size * PER_SENDER]: how often each shared message was received */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;

static void *ring(void *arg)
{
    int t = (int)(long)arg;
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    int big = 100000;
    int *out = malloc(sizeof(int) * (size_t)big), *in = malloc(sizeof(int) * (size_t)big);
    for (int r = 0; r < ROUNDS; r++) {
        int n = r % 10 == 0 ? big : 1 + r % 50;
        for (int i = 0; i < n; i++)
            out[i] = rank * 1000003 + t * 10007 + r * 101 + i;
        if (r % 2) {
            MPI_Request q[2];
            MPI_Irecv(in, n, MPI_INT, left, t, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(out, n, MPI_INT, right, t, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        } else {
            MPI_Status st;
            MPI_Sendrecv(out, n, MPI_INT, right, t, in, n, MPI_INT, MPI_ANY_SOURCE, t, MPI_COMM_WORLD, &st);
            if (st.MPI_SOURCE != left)
                failures[t]++;
        }
        for (int i = 0; i < n; i++)
            if (in[i] != left * 1000003 + t * 10007 + r * 101 + i) {
                if (failures[t]++ < 3)
                    fprintf(stderr, "rank %d thread %d round %d: element %d is %d\n", rank, t, r, i, in[i]);
                break;
            }
    }
    free(out);
    free(in);
    return NULL;
}

/* Takes messages of SHARED_TAG until this rank has received its share from every sender. */
static void *take(void *arg)
{
    int t = (int)(long)arg;
    for (;;) {
        pthread_mutex_lock(&seen_lock);
        int done = 1;
        for (int i = 0; i < size * PER_SENDER && done; i++)
            done = seen[i] > 0;
        pthread_mutex_unlock(&seen_lock);
        if (done)
            break;
        MPI_Message msg;
        int flag = 0;
        MPI_Status st;
        MPI_Improbe(MPI_ANY_SOURCE, SHARED_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
        if (!flag)
            continue;
        int v[2];
        MPI_Mrecv(v, 2, MPI_INT, &msg, &st);
        if (v[0] != st.MPI_SOURCE || v[1] < 0 || v[1] >= PER_SENDER) {
            failures[t]++;
            continue;
        }
        pthread_mutex_lock(&seen_lock);
        seen[v[0] * PER_SENDER + v[1]]++;
        pthread_mutex_unlock(&seen_lock);
        claimed[t]++;
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
        fprintf(stderr, "provided thread level %d\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, ring, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);

    seen = calloc((size_t)size * PER_SENDER, sizeof(int));
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, take, (void *)t);
    /* The main thread sends this rank's messages to every rank while the takers run. */
    MPI_Request *reqs = malloc(sizeof(*reqs) * (size_t)size * PER_SENDER);
    int (*vals)[2] = malloc(sizeof(*vals) * (size_t)size * PER_SENDER);
    for (int k = 0; k < PER_SENDER; k++)
        for (int d = 0; d < size; d++) {
            int i = k * size + d;
            vals[i][0] = rank;
            vals[i][1] = k;
            MPI_Isend(vals[i], 2, MPI_INT, d, SHARED_TAG, MPI_COMM_WORLD, &reqs[i]);
        }
    MPI_Waitall(size * PER_SENDER, reqs, MPI_STATUSES_IGNORE);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    int total = 0, twice = 0;
    for (int i = 0; i < size * PER_SENDER; i++) {
        total += seen[i];
        twice += seen[i] > 1;
    }
    int fails = twice + (total != size * PER_SENDER);
    for (int t = 0; t < THREADS; t++)
        fails += failures[t];
    if (twice || total != size * PER_SENDER)
        fprintf(stderr, "rank %d: %d shared messages received, %d of them more than once\n", rank, total, twice);

    /* The verdict at rank 0, by point-to-point. */
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            int f;
            MPI_Recv(&f, 1, MPI_INT, r, 9999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            fails += f;
        }
        printf("pt2pt_threads: %s\n", fails ? "FAILED" : "ok");
    } else {
        MPI_Send(&fails, 1, MPI_INT, 0, 9999, MPI_COMM_WORLD);
    }
    free(reqs);
    free(vals);
    free(seen);
    MPI_Finalize();
    return rank == 0 && fails != 0;
}
