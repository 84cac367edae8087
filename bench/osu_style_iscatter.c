/* Nonblocking Scatter latency and overlap, as OSU's osu_iscatter measures them: MPI_Iscatter, started
 * and waited for at once (the pure communication time), then started, overlapped with that much
 * computation, and waited for. Sizes are the bytes each rank receives. The method, the columns and the
 * options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_iscatter [-m [MIN:]MAX] [-i iterations] [-x warmup] [-t tests] [-f] */
#include "osu_style_coll_common.h"

static void start(struct osu_coll *c, int count, MPI_Request *req)
{
    MPI_Iscatter(c->sbuf, count, MPI_CHAR, c->rbuf, count, MPI_CHAR, 0, MPI_COMM_WORLD, req);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_iscatter", .title = "Scatter",
        .type = MPI_CHAR, .type_name = "MPI_CHAR",
        .send_blocks = OSU_COLL_PER_RANK, .recv_blocks = 1, .start = start};
    return osu_coll_nonblocking_main(&d, argc, argv);
}
