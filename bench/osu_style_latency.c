/* Point-to-point latency, as OSU's osu_latency measures it: ping-pong between ranks 0 and 1, half the
 * round trip, for sizes from MIN (default 0) to MAX (default 4 MiB) by doubling, after warm-up round
 * trips; sizes above 8 KiB get OSU's "large" counts (1000 iterations and 10 warm-up round trips instead
 * of 10000 and 100); -i and -x set the count for every size, as OSU's do. Ranks beyond the first two
 * wait. Plain MPI: builds with any MPI's wrapper, so bench/compare runs the same program on Axon,
 * Open MPI and MPICH. Rank 0 prints.
 * Usage: osu_style_latency [-m [MIN:]MAX] [-i iterations] [-x warmup] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
    long min = 0, max = 1L << 22;
    int iters = 10000, iters_large = 1000, warmup = 100, warmup_large = 10, opt, bad = 0;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
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
                    "usage: osu_style_latency [-m [MIN:]MAX] [-i iterations] [-x warmup]\n");
        MPI_Finalize();
        return bad == 2 ? 0 : 1;
    }
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "osu_style_latency needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *sbuf = malloc((size_t)max + 1), *rbuf = malloc((size_t)max + 1);
    memset(sbuf, 'a', (size_t)max + 1);
    if (rank == 0)
        printf("# OSU-style MPI latency test\n# Size          Latency (us)\n");
    for (long n = min; n <= max; n = n ? n * 2 : 1) {
        int it = n > 8192 ? iters_large : iters, wu = n > 8192 ? warmup_large : warmup;
        double t0 = 0;
        if (rank < 2) {
            for (int i = 0; i < it + wu; i++) {
                if (i == wu)
                    t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Send(sbuf, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(rbuf, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
                }
            }
        }
        if (rank == 0) {
            printf("%-10ld%18.2f\n", n, (MPI_Wtime() - t0) * 1e6 / (2.0 * it));
            fflush(stdout);
        }
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
