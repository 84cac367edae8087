/* Nonblocking Reduce latency and overlap, as OSU's osu_ireduce measures them: MPI_Ireduce, started and
 * waited for at once (the pure communication time), then started, overlapped with that much computation,
 * and waited for. Sizes are the bytes of each rank's vector. The method, the columns and the options are
 * in bench/osu_style_coll_common.h.
 * Usage: osu_style_ireduce [-m [MIN:]MAX] [-i iterations] [-x warmup] [-t tests] [-f] */
#include "osu_style_coll_common.h"

static void start(struct osu_coll *c, int count, MPI_Request *req)
{
    MPI_Ireduce(c->sbuf, c->rbuf, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD, req);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_ireduce", .title = "Reduce",
        .type = MPI_FLOAT, .type_name = "MPI_FLOAT",
        .send_blocks = 1, .recv_blocks = 1, .start = start};
    return osu_coll_nonblocking_main(&d, argc, argv);
}
