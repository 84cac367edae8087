/* Point-to-point latency, as OSU's osu_latency measures it: ping-pong between ranks 0 and 1, half the
 * round trip, for sizes from MIN (default 0) to MAX (default 4 MiB) by doubling, after warm-up round
 * trips; sizes above 8 KiB get OSU's "large" counts (1000 iterations and 10 warm-up round trips instead
 * of 10000 and 100); -i and -x set the count for every size, as OSU's do. Ranks beyond the first two
 * wait. Plain MPI: builds with any MPI's wrapper, so bench/compare runs the same program on Axon,
 * Open MPI and MPICH. Rank 0 prints.
 * Usage: osu_style_latency [-m [MIN:]MAX] [-i iterations] [-x warmup] */
#include "osu_style_common.h"

enum { TAG_DATA = 1 };

int main(int argc, char **argv)
{
    struct osu_bench b;
    osu_init(&b, &argc, &argv, "osu_style_latency", OSU_LATENCY_TEST, 0);
    osu_alloc(&b, 1, 0);
    osu_print_header(&b, "latency", 0, 1, "Latency (us)");
    for (long n = b.min; n <= b.max; n = osu_next_size(n)) {
        int it = osu_iters(&b, n), wu = osu_warmup(&b, n);
        double t0 = 0;
        if (b.rank < 2) {
            for (int i = 0; i < it + wu; i++) {
                if (i == wu)
                    t0 = MPI_Wtime();
                if (b.rank == 0) {
                    MPI_Send(b.sbuf, (int)n, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD);
                    MPI_Recv(b.rbuf, (int)n, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(b.rbuf, (int)n, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(b.sbuf, (int)n, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD);
                }
            }
        }
        if (b.rank == 0)
            osu_print_row(n, 1, (MPI_Wtime() - t0) * 1e6 / (2.0 * it));
    }
    osu_finish(&b);
    return 0;
}
