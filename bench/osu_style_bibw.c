/* Bidirectional point-to-point bandwidth, as OSU's osu_bibw measures it: for each size, ranks 0 and 1
 * each post a window of nonblocking receives from the other, then a window of nonblocking sends to
 * the other, and wait for all of them; both directions run at once, and the rate is the bytes moved
 * both ways in the timed windows over the time rank 0 saw them take, in MB/s (10^6 bytes per second).
 * As in OSU, every message of a window uses the same send buffer and the same receive buffer, and no
 * acknowledgement is needed (each side's next window waits on the other's sends). Sizes go from MIN
 * (default 1) to MAX (default 4 MiB) by doubling; sizes above 8 KiB get OSU's "large" counts (20
 * iterations and 2 warm-up windows instead of 100 and 10); -i and -x set the count for every size, as
 * OSU's do. Ranks beyond the first two wait. Plain MPI-1 point-to-point calls only (no collectives:
 * each size starts with a zero-byte handshake between the two ranks instead of a barrier), so
 * bench/compare can build it with any MPI's wrapper and pair its rows across Axon, Open MPI and MPICH.
 * Rank 0 prints.
 * Usage: osu_style_bibw [-m [MIN:]MAX] [-i iterations] [-x warmup] [-W window] */
#include "osu_style_common.h"

enum { TAG_DATA = 100 };

int main(int argc, char **argv)
{
    struct osu_bench b;
    osu_init(&b, &argc, &argv, "osu_style_bibw", OSU_BANDWIDTH_TEST, OSU_OPT_WINDOW);
    /* The window's receives first, then its sends: one Waitall over both. */
    osu_alloc(&b, 1, 2 * b.window);
    osu_print_header(&b, "bidirectional bandwidth", OSU_OPT_WINDOW, 1, "Bandwidth (MB/s)");
    for (long n = b.min; n <= b.max; n = osu_next_size(n)) {
        int it = osu_iters(&b, n), wu = osu_warmup(&b, n), window = b.window;
        double t0 = 0;
        osu_sync(b.rank, 2);
        if (b.rank < 2) {
            int peer = 1 - b.rank;
            for (int i = 0; i < it + wu; i++) {
                if (i == wu)
                    t0 = MPI_Wtime();
                for (int w = 0; w < window; w++)
                    MPI_Irecv(b.rbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD, &b.req[w]);
                for (int w = 0; w < window; w++)
                    MPI_Isend(b.sbuf, (int)n, MPI_CHAR, peer, TAG_DATA, MPI_COMM_WORLD,
                              &b.req[window + w]);
                MPI_Waitall(2 * window, b.req, b.statuses);
            }
        }
        if (b.rank == 0) {
            double t = MPI_Wtime() - t0;
            osu_print_row(n, 1, 2.0 * n * it * window / 1e6 / t);
        }
    }
    osu_finish(&b);
    return 0;
}
