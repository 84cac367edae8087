/* Point-to-point latency, as OSU's osu_latency measures it: ping-pong between ranks 0 and 1, half the
 * round trip, for sizes from 0 B to the maximum (-m MAX), after warm-up iterations. Plain MPI: builds
 * with any MPI's wrapper, so bench/compare runs the same program on Axon, Open MPI and MPICH.
 * Usage: osu_style_latency [-m max_bytes] [-i iterations] [-x warmup] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long max = 1L << 22;
    int iters = 10000, warmup = 1000, opt;
    MPI_Init(&argc, &argv);
    while ((opt = getopt(argc, argv, "m:i:x:")) != -1) {
        if (opt == 'm') max = atol(optarg);
        else if (opt == 'i') iters = atoi(optarg);
        else if (opt == 'x') warmup = atoi(optarg);
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0)
            fprintf(stderr, "osu_style_latency needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char *sbuf = malloc((size_t)max + 1), *rbuf = malloc((size_t)max + 1);
    memset(sbuf, 'a', (size_t)max + 1);
    if (rank == 0)
        printf("# OSU-style MPI latency test\n# Size          Latency (us)\n");
    for (long n = 0; n <= max; n = n ? n * 2 : 1) {
        int it = n > 65536 ? iters / 10 : iters, wu = n > 65536 ? warmup / 10 : warmup;
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
        if (rank == 0)
            printf("%-10ld%18.2f\n", n, (MPI_Wtime() - t0) * 1e6 / (2.0 * it));
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
