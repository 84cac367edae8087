/* Latency of many pairs at once, as OSU's osu_multi_lat measures it: with N ranks, rank i (i < N/2)
 * and rank i + N/2 play ping-pong, all pairs at the same time; each rank's latency is half its round
 * trip, and the figure printed is the average over all ranks of the pairs, in microseconds. Sizes go
 * from MIN (default 0) to MAX (default 4 MiB) by doubling; sizes above 8 KiB get OSU's "large" counts
 * (1000 iterations and 10 warm-up round trips instead of 10000 and 100); -i and -x set the count for
 * every size, as OSU's do. With an odd N the last rank only takes part in the synchronisation. Plain
 * MPI-1 point-to-point calls only: the barriers OSU puts before each size and after the warm-up are
 * zero-byte handshakes with rank 0 here, and the average is gathered with sends to rank 0 rather than
 * a reduction, so bench/compare can build it with any MPI's wrapper and pair its rows across Axon,
 * Open MPI and MPICH. Rank 0 prints.
 * Usage: osu_style_multi_lat [-m [MIN:]MAX] [-i iterations] [-x warmup] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_DATA = 1, TAG_SYNC = 102, TAG_RESULT = 103, LARGE = 8192 };

/* "MAX", "MIN:MAX", "MIN:" or ":MAX"; returns 0 when the text is not one of these. */
static int parse_sizes(const char *arg, long *min, long *max)
{
    char *end;
    const char *colon = strchr(arg, ':');
    if (!colon) {
        *max = strtol(arg, &end, 10);
        return end != arg && *end == '\0';
    }
    if (colon != arg) {
        *min = strtol(arg, &end, 10);
        if (end != colon)
            return 0;
    }
    if (colon[1] != '\0') {
        *max = strtol(colon + 1, &end, 10);
        if (*end != '\0')
            return 0;
    }
    return 1;
}

/* A barrier over ranks 0..n-1 out of point-to-point calls: everyone checks in with rank 0 by a
 * zero-byte message and leaves when rank 0 has heard from all and answers. */
static void sync_ranks(int rank, int n)
{
    char out = 0, in = 0;
    if (rank >= n)
        return;
    if (rank == 0) {
        for (int r = 1; r < n; r++)
            MPI_Recv(&in, 0, MPI_CHAR, r, TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 1; r < n; r++)
            MPI_Send(&out, 0, MPI_CHAR, r, TAG_SYNC, MPI_COMM_WORLD);
    } else {
        MPI_Sendrecv(&out, 0, MPI_CHAR, 0, TAG_SYNC, &in, 0, MPI_CHAR, 0, TAG_SYNC, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    long min = 0, max = 1L << 22;
    int iters = 10000, iters_large = 1000, warmup = 100, warmup_large = 10, opt, bad = 0;
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    while ((opt = getopt(argc, argv, "m:i:x:h")) != -1) {
        if (opt == 'm')
            bad |= !parse_sizes(optarg, &min, &max);
        else if (opt == 'i')
            iters = iters_large = atoi(optarg);
        else if (opt == 'x')
            warmup = warmup_large = atoi(optarg);
        else
            bad = 1 + (opt == 'h');
    }
    if (bad || min < 0 || max < min || max > 1L << 30 || iters < 1 || warmup < 0) {
        if (rank == 0)
            fprintf(bad == 2 ? stdout : stderr,
                    "usage: osu_style_multi_lat [-m [MIN:]MAX] [-i iterations] [-x warmup]\n");
        MPI_Finalize();
        return bad == 2 ? 0 : 1;
    }
    if (nranks < 2) {
        fprintf(stderr, "osu_style_multi_lat needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int pairs = nranks / 2;
    int active = rank < 2 * pairs, sender = rank < pairs;
    int peer = sender ? rank + pairs : rank - pairs;
    size_t bytes = (size_t)(max < 1 ? 1 : max);
    char *sbuf = NULL, *rbuf = NULL;
    if (posix_memalign((void **)&sbuf, 4096, bytes) || posix_memalign((void **)&rbuf, 4096, bytes)) {
        fprintf(stderr, "osu_style_multi_lat: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(sbuf, 'a', bytes);
    memset(rbuf, 'b', bytes);
    if (rank == 0)
        printf("# OSU-style MPI multi latency test\n# [ pairs: %d ]\n%-10s%18s\n", pairs, "# Size",
               "Latency (us)");
    for (long n = min; n <= max; n = n ? n * 2 : 1) {
        int it = n > LARGE ? iters_large : iters, wu = n > LARGE ? warmup_large : warmup;
        double t0 = 0, lat = 0;
        sync_ranks(rank, nranks);
        if (!active)
            sync_ranks(rank, nranks); /* the one after the warm-up */
        for (int i = 0; active && i < it + wu; i++) {
            if (i == wu) {
                /* Every pair starts its timed round trips together, as after OSU's barrier. */
                sync_ranks(rank, nranks);
                t0 = MPI_Wtime();
            }
            if (sender) {
                MPI_Send(sbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD);
                MPI_Recv(rbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD);
            }
        }
        if (active)
            lat = (MPI_Wtime() - t0) * 1e6 / (2.0 * it);
        if (rank == 0) {
            double sum = lat, other;
            for (int r = 1; r < 2 * pairs; r++) {
                MPI_Recv(&other, 1, MPI_DOUBLE, r, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                sum += other;
            }
            printf("%-10ld%18.2f\n", n, sum / (2.0 * pairs));
            fflush(stdout);
        } else if (active) {
            MPI_Send(&lat, 1, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
