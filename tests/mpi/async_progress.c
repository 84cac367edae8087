/* The progress thread (AXON_ASYNC_PROGRESS=1) moves communication while a rank computes without calling
 * MPI. Rank 0 posts a receive, an MPI_Ibcast (root 1), an MPI_Iallreduce and a send, all of
 * rendezvous size (the .test sets AXON_EAGER_LIMIT), then tells the others to go and computes in a
 * loop that calls no MPI. The others do their part, note when each of their calls returned
 * (CLOCK_MONOTONIC, which every process of a machine shares) and raise a flag in a file that every rank
 * maps, which rank 0's loop watches.
 *
 * The check is causal, not a speed limit: some other rank has to send to rank 0 in each of the first
 * three operations, and a rendezvous send completes only after rank 0's side answered (it fetches the
 * data, or asks for it, then acknowledges), so that rank's call cannot return before rank 0 makes
 * progress. With "progress" as argument rank 0 computes until every other rank is done (at most
 * PROGRESS_LIMIT seconds, however loaded the machine): they must all finish while it computes. With
 * "no-progress" (the same run without the thread, the control) rank 0 computes CONTROL_SECONDS, and
 * each of those calls must return after that. Data is checked in both. Rank 0 prints one line. Also
 * checks that the thread level granted is the one asked for: the progress thread does not change what
 * the user is told. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { BIG = 4 << 20, TAG_GO = 1, TAG_TO_0 = 2, TAG_FROM_0 = 3, TAG_TIMES = 4, NOPS = 3 };
static const double PROGRESS_LIMIT = 60.0, CONTROL_SECONDS = 1.5;
static const char *const op_names[NOPS] = {"receive", "Ibcast", "Iallreduce"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void fail(const char *what)
{
    fprintf(stderr, "async_progress: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void fill(char *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)((i * 7 + (size_t)seed) & 0x7f);
}

static int same(const char *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != (char)((i * 7 + (size_t)seed) & 0x7f))
            return 0;
    return 1;
}

/* The flags the other ranks raise when they are done, one int per rank, in a file every rank maps. */
static int *done_flags;

static int all_done(int size)
{
    for (int r = 1; r < size; r++)
        if (!__atomic_load_n(&done_flags[r], __ATOMIC_ACQUIRE))
            return 0;
    return 1;
}

/* Busy with no MPI call, the work a rank does while its collectives should move: for `seconds`, or
 * until the other ranks are done when until_done is set. */
static void compute(double seconds, int until_done, int size)
{
    volatile double x = 1.0;
    double end = now() + seconds;
    while (now() < end && !(until_done && all_done(size)))
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
}

/* Rank 0 makes the file (in TMPDIR, which the test harness checks is left empty) and tells its name. */
static char *map_flags(int rank, int size)
{
    static char path[512];
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/async_progress.%ld", dir && *dir ? dir : "/tmp", (long)getpid());
    }
    MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
    int fd = rank == 0 ? open(path, O_RDWR | O_CREAT | O_EXCL, 0600) : -1;
    if (rank == 0 && (fd < 0 || ftruncate(fd, (off_t)(sizeof(int) * (size_t)size)) != 0))
        fail("cannot create the flag file");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0 && (fd = open(path, O_RDWR)) < 0)
        fail("cannot open the flag file");
    done_flags = mmap(NULL, sizeof(int) * (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (done_flags == MAP_FAILED)
        fail("cannot map the flag file");
    return path;
}

int main(int argc, char **argv)
{
    int rank, size, provided, expect_progress;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || (strcmp(argv[1], "progress") != 0 && strcmp(argv[1], "no-progress") != 0))
        fail("usage: async_progress progress|no-progress");
    expect_progress = strcmp(argv[1], "progress") == 0;
    if (size < 2)
        fail("needs at least 2 ranks");
    if (provided != MPI_THREAD_FUNNELED)
        fail("MPI_Init_thread did not grant the level asked for");
    int queried;
    MPI_Query_thread(&queried);
    if (queried != MPI_THREAD_FUNNELED)
        fail("MPI_Query_thread does not say the level granted");

    int count = BIG / (int)sizeof(int);
    char *to0 = malloc(BIG), *from0 = malloc(BIG), *bcast = malloc(BIG);
    int *mine = malloc(BIG), *sum = malloc(BIG);
    if (!to0 || !from0 || !bcast || !mine || !sum)
        fail("out of memory");
    for (int i = 0; i < count; i++)
        mine[i] = rank + i % 1000;
    if (rank == 1)
        fill(bcast, BIG, 11);
    char go = 0;
    char *flag_path = map_flags(rank, size);

    if (rank == 0) {
        MPI_Request req[4];
        MPI_Irecv(to0, BIG, MPI_CHAR, 1, TAG_TO_0, MPI_COMM_WORLD, &req[0]);
        MPI_Ibcast(bcast, BIG, MPI_CHAR, 1, MPI_COMM_WORLD, &req[1]);
        MPI_Iallreduce(mine, sum, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[2]);
        fill(from0, BIG, 5);
        MPI_Isend(from0, BIG, MPI_CHAR, 1, TAG_FROM_0, MPI_COMM_WORLD, &req[3]);
        /* Everything is posted: the others may start (so nothing of theirs arrives before our posts). */
        for (int r = 1; r < size; r++)
            MPI_Send(&go, 1, MPI_CHAR, r, TAG_GO, MPI_COMM_WORLD);
        compute(expect_progress ? PROGRESS_LIMIT : CONTROL_SECONDS, expect_progress, size);
        double end = now();
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        if (!same(to0, BIG, 3) || !same(bcast, BIG, 11))
            fail("wrong data received");
        for (int i = 0; i < count; i++)
            if (sum[i] != size * (i % 1000) + size * (size - 1) / 2)
                fail("wrong MPI_Iallreduce result");

        /* When each other rank's calls returned; the latest of them per operation. */
        double latest[NOPS] = {0, 0, 0}, times[NOPS];
        for (int r = 1; r < size; r++) {
            MPI_Recv(times, NOPS, MPI_DOUBLE, r, TAG_TIMES, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int k = 0; k < NOPS; k++)
                latest[k] = times[k] > latest[k] ? times[k] : latest[k];
        }
        for (int k = 0; k < NOPS; k++) {
            if (expect_progress && latest[k] >= end) {
                fprintf(stderr, "async_progress: the %s returned %.3f s after rank 0 stopped computing "
                        "(%.0f s)\n", op_names[k], latest[k] - end, PROGRESS_LIMIT);
                fail("no progress while rank 0 computed");
            }
            if (!expect_progress && latest[k] < end) {
                fprintf(stderr, "async_progress: the %s returned %.3f s before rank 0 stopped computing\n",
                        op_names[k], end - latest[k]);
                fail("progress without a progress thread: the check proves nothing");
            }
        }
        printf("async_progress: ok (%s)\n", expect_progress ? "progressed while computing" : "waited for MPI calls");
    } else {
        double times[NOPS] = {0, 0, 0};
        MPI_Request req;
        MPI_Recv(&go, 1, MPI_CHAR, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank == 1) {
            fill(to0, BIG, 3);
            MPI_Send(to0, BIG, MPI_CHAR, 0, TAG_TO_0, MPI_COMM_WORLD);
            times[0] = now();
        }
        MPI_Ibcast(bcast, BIG, MPI_CHAR, 1, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        times[1] = now();
        MPI_Iallreduce(mine, sum, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        times[2] = now();
        if (rank == 1) {
            MPI_Recv(from0, BIG, MPI_CHAR, 0, TAG_FROM_0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (!same(from0, BIG, 5))
                fail("wrong data from rank 0");
        }
        if (!same(bcast, BIG, 11))
            fail("wrong MPI_Ibcast data");
        for (int i = 0; i < count; i++)
            if (sum[i] != size * (i % 1000) + size * (size - 1) / 2)
                fail("wrong MPI_Iallreduce result");
        __atomic_store_n(&done_flags[rank], 1, __ATOMIC_RELEASE);
        MPI_Send(times, NOPS, MPI_DOUBLE, 0, TAG_TIMES, MPI_COMM_WORLD);
    }
    munmap(done_flags, sizeof(int) * (size_t)size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(flag_path);
    free(to0);
    free(from0);
    free(bcast);
    free(mine);
    free(sum);
    MPI_Finalize();
    return 0;
}
