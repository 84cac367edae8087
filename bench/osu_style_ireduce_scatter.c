/* Nonblocking Reduce_scatter latency and overlap, as OSU's osu_ireduce_scatter measures them:
 * MPI_Ireduce_scatter, started and waited for at once (the pure communication time), then started,
 * overlapped with that much computation, and waited for. Sizes are the bytes of the whole vector. The
 * method, the columns and the options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_ireduce_scatter [-m [MIN:]MAX] [-i iterations] [-x warmup] [-t tests] [-f] */
#include "osu_style_coll_common.h"

static void start(struct osu_coll *c, int count, MPI_Request *req)
{
    (void)count; /* c->counts splits it (osu_coll_split) */
    MPI_Ireduce_scatter(c->sbuf, c->rbuf, c->counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, req);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_ireduce_scatter", .title = "Reduce_scatter",
        .type = MPI_FLOAT, .type_name = "MPI_FLOAT",
        .send_blocks = 1, .recv_blocks = 1, .start = start};
    return osu_coll_nonblocking_main(&d, argc, argv);
}
