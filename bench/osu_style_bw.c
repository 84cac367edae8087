/* Point-to-point bandwidth, as OSU's osu_bw measures it: for each size, rank 0 posts a window of
 * nonblocking sends to rank 1 (which has posted as many receives), waits for all of them, and rank 1
 * answers with a 4-byte acknowledgement once its receives are done; the rate is the bytes of the timed
 * windows over the time they took, in MB/s (10^6 bytes per second). As in OSU, every message of a
 * window uses the same send buffer and the same receive buffer. Sizes go from MIN (default 1) to
 * MAX (default 4 MiB) by doubling; sizes above 8 KiB get OSU's "large" counts (20 iterations and 2
 * warm-up windows instead of 100 and 10); -i and -x set the count for every size, as OSU's do. Ranks
 * beyond the first two wait. Plain MPI-1 point-to-point calls only (no collectives: each size starts
 * with a zero-byte handshake between the two ranks instead of a barrier), so bench/compare can build
 * it with any MPI's wrapper and pair its rows across Axon, Open MPI and MPICH. Rank 0 prints.
 * Usage: osu_style_bw [-m [MIN:]MAX] [-i iterations] [-x warmup] [-W window] */
#include "osu_style_common.h"

enum { TAG_DATA = 100, TAG_ACK = 101 };

int main(int argc, char **argv)
{
    struct osu_bench b;
    osu_init(&b, &argc, &argv, "osu_style_bw", OSU_BANDWIDTH_TEST, OSU_OPT_WINDOW);
    /* The ack is 4 bytes, so the buffers hold at least that much. */
    osu_alloc(&b, 4, b.window);
    osu_print_header(&b, "bandwidth", OSU_OPT_WINDOW, 1, "Bandwidth (MB/s)");
    for (long n = b.min; n <= b.max; n = osu_next_size(n)) {
        int it = osu_iters(&b, n), wu = osu_warmup(&b, n), window = b.window;
        double t0 = 0;
        osu_sync(b.rank, 2);
        if (b.rank == 0) {
            for (int i = 0; i < it + wu; i++) {
                if (i == wu)
                    t0 = MPI_Wtime();
                for (int w = 0; w < window; w++)
                    MPI_Isend(b.sbuf, (int)n, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, &b.req[w]);
                MPI_Waitall(window, b.req, b.statuses);
                MPI_Recv(b.rbuf, 4, MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            double t = MPI_Wtime() - t0;
            osu_print_row(n, 1, (double)n * it * window / 1e6 / t);
        } else if (b.rank == 1) {
            for (int i = 0; i < it + wu; i++) {
                for (int w = 0; w < window; w++)
                    MPI_Irecv(b.rbuf, (int)n, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, &b.req[w]);
                MPI_Waitall(window, b.req, b.statuses);
                MPI_Send(b.sbuf, 4, MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
            }
        }
    }
    osu_finish(&b);
    return 0;
}
