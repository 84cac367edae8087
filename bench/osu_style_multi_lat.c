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
#include "osu_style_common.h"

enum { TAG_DATA = 1 };

int main(int argc, char **argv)
{
    struct osu_bench b;
    osu_init(&b, &argc, &argv, "osu_style_multi_lat", OSU_LATENCY_TEST, 0);
    int pairs = b.pairs, active = b.rank < 2 * pairs, sender = b.rank < pairs;
    int peer = sender ? b.rank + pairs : b.rank - pairs;
    osu_alloc(&b, 1, 0);
    osu_print_header(&b, "multi latency", OSU_OPT_PAIRS, 1, "Latency (us)");
    for (long n = b.min; n <= b.max; n = osu_next_size(n)) {
        int it = osu_iters(&b, n), wu = osu_warmup(&b, n);
        double t0 = 0, lat = 0;
        osu_start_size(&b, active);
        for (int i = 0; active && i < it + wu; i++) {
            if (i == wu) {
                /* Every pair starts its timed round trips together, as after OSU's barrier. */
                osu_sync(b.rank, b.nranks);
                t0 = MPI_Wtime();
            }
            if (sender) {
                MPI_Send(b.sbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD);
                MPI_Recv(b.rbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(b.rbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(b.sbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD);
            }
        }
        if (active)
            lat = (MPI_Wtime() - t0) * 1e6 / (2.0 * it);
        /* The average over the ranks of the pairs. */
        double sum = osu_collect(b.rank, 2 * pairs, lat, OSU_SUM);
        if (b.rank == 0)
            osu_print_row(n, 1, sum / (2.0 * pairs));
    }
    osu_finish(&b);
    return 0;
}
