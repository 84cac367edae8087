/* Aggregate bandwidth and message rate of many pairs, as OSU's osu_mbw_mr measures them: with N ranks
 * and P pairs (default N/2), rank i < P sends windows of nonblocking sends to rank i + P, which posts
 * as many receives and answers each window with a 4-byte acknowledgement, as in osu_bw, all pairs at
 * the same time. The time is the slowest sender's, from the end of the warm-up (all ranks start
 * together) to its last acknowledgement; MB/s is the bytes all pairs sent in that time (10^6 bytes per
 * second) and Messages/s the number of messages all pairs sent per second. As in OSU, every message of
 * a window uses the same send buffer and the same receive buffer. Sizes go from MIN (default 1) to MAX
 * (default 4 MiB) by doubling; sizes above 8 KiB get OSU's "large" counts (20 iterations and 2 warm-up
 * windows instead of 100 and 10); -i and -x set the count for every size, as OSU's do. Ranks outside
 * the pairs only take part in the synchronisation. Plain MPI-1 point-to-point calls only: OSU's
 * barriers are zero-byte handshakes with rank 0 here, and the slowest time is gathered with sends to
 * rank 0 rather than a reduction, so bench/compare can build it with any MPI's wrapper and pair its
 * rows across Axon, Open MPI and MPICH. Rank 0 prints "size MB/s Messages/s" rows.
 * Usage: osu_style_mbw_mr [-m [MIN:]MAX] [-i iterations] [-x warmup] [-W window] [-p pairs] */
#include "osu_style_common.h"

enum { TAG_DATA = 100, TAG_ACK = 101 };

int main(int argc, char **argv)
{
    struct osu_bench b;
    osu_init(&b, &argc, &argv, "osu_style_mbw_mr", OSU_BANDWIDTH_TEST, OSU_OPT_WINDOW | OSU_OPT_PAIRS);
    int pairs = b.pairs, window = b.window;
    int sender = b.rank < pairs, receiver = !sender && b.rank < 2 * pairs;
    /* The ack is 4 bytes, so the buffers hold at least that much. */
    osu_alloc(&b, 4, window);
    osu_print_header(&b, "multiple bandwidth / message rate", OSU_OPT_PAIRS | OSU_OPT_WINDOW, 2, "MB/s",
                     "Messages/s");
    for (long n = b.min; n <= b.max; n = osu_next_size(n)) {
        int it = osu_iters(&b, n), wu = osu_warmup(&b, n);
        double t0 = 0, t = 0;
        osu_start_size(&b, sender || receiver);
        for (int i = 0; (sender || receiver) && i < it + wu; i++) {
            if (i == wu) {
                /* Every pair starts its timed windows together, as after OSU's barrier. */
                osu_sync(b.rank, b.nranks);
                t0 = MPI_Wtime();
            }
            if (sender) {
                for (int w = 0; w < window; w++)
                    MPI_Isend(b.sbuf, (int)n, MPI_CHAR, b.rank + pairs, TAG_DATA, MPI_COMM_WORLD,
                              &b.req[w]);
                MPI_Waitall(window, b.req, b.statuses);
                MPI_Recv(b.rbuf, 4, MPI_CHAR, b.rank + pairs, TAG_ACK, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            } else {
                for (int w = 0; w < window; w++)
                    MPI_Irecv(b.rbuf, (int)n, MPI_CHAR, b.rank - pairs, TAG_DATA, MPI_COMM_WORLD,
                              &b.req[w]);
                MPI_Waitall(window, b.req, b.statuses);
                MPI_Send(b.sbuf, 4, MPI_CHAR, b.rank - pairs, TAG_ACK, MPI_COMM_WORLD);
            }
        }
        if (sender)
            t = MPI_Wtime() - t0;
        /* The slowest sender's time. */
        t = osu_collect(b.rank, pairs, t, OSU_MAX);
        if (b.rank == 0) {
            double msgs = (double)pairs * it * window;
            osu_print_row(n, 2, msgs * n / 1e6 / t, msgs / t);
        }
    }
    osu_finish(&b);
    return 0;
}
