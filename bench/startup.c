/* Start-up cost: how long MPI_Init takes on each rank and how much memory a rank holds once it returns
 * (and after a first message to every other rank, which makes every endpoint), as the maximum and the
 * mean over the ranks. Memory both as resident (RSS: every page the rank has mapped, so a shared page
 * counts in full in each rank that touched it, even one the kernel mapped only because a neighbouring
 * page was read) and proportional (PSS: a shared page split among the processes that map it, so the sum
 * over a node's ranks is what the node holds for them). Plain MPI, so it builds with any
 * implementation's mpicc:
 *   mpicc -O2 bench/startup.c -o startup && mpirun -n 64 ./startup */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Resident memory now, in KiB (VmRSS), or the peak where /proc is missing. */
static double rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kib = -1;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %lf", &kib) == 1)
            break;
    if (f)
        fclose(f);
    if (kib < 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        kib = (double)ru.ru_maxrss;
    }
    return kib;
}

/* Proportional memory now, in KiB (smaps_rollup's Pss), or -1 where the kernel does not tell. */
static double pss_kib(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    char line[256];
    double kib = -1;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "Pss: %lf", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static void report(const char *what, double v, int rank, int size)
{
    double max, sum;
    MPI_Reduce(&v, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&v, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%-28s max %10.1f  mean %10.1f\n", what, max, sum / size);
}

int main(int argc, char **argv)
{
    double before = rss_kib(), pss_before = pss_kib(), t0 = now();
    MPI_Init(&argc, &argv);
    double init_ms = 1e3 * (now() - t0), after = rss_kib();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* A message to and from every other rank: every endpoint made. */
    char *out = calloc((size_t)size, 1), *in = calloc((size_t)size, 1);
    MPI_Alltoall(out, 1, MPI_CHAR, in, 1, MPI_CHAR, MPI_COMM_WORLD);
    for (int k = 1; k < size; k++) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        MPI_Sendrecv(out, 1, MPI_CHAR, to, 0, in, 1, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every rank's pages made before any rank counts its share */
    double connected = rss_kib(), pss_connected = pss_kib();
    if (rank == 0)
        printf("# startup: %d ranks\n", size);
    report("MPI_Init (ms)", init_ms, rank, size);
    report("RSS added by MPI_Init (KiB)", after - before, rank, size);
    report("RSS all connected (KiB)", connected - before, rank, size);
    if (pss_before >= 0)
        report("PSS all connected (KiB)", pss_connected - pss_before, rank, size);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
