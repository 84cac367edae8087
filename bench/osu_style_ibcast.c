/* Nonblocking Broadcast latency and overlap, as OSU's osu_ibcast measures them: MPI_Ibcast, started and
 * waited for at once (the pure communication time), then started, overlapped with that much computation,
 * and waited for. Sizes are the bytes broadcast. The method, the columns and the options are in
 * bench/osu_style_coll_common.h.
 * Usage: osu_style_ibcast [-m [MIN:]MAX] [-i iterations] [-x warmup] [-t tests] [-f] */
#include "osu_style_coll_common.h"

static void start(struct osu_coll *c, int count, MPI_Request *req)
{
    MPI_Ibcast(c->sbuf, count, MPI_CHAR, 0, MPI_COMM_WORLD, req);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_ibcast", .title = "Broadcast",
        .type = MPI_CHAR, .type_name = "MPI_CHAR",
        .send_blocks = 1, .recv_blocks = 1, .start = start};
    return osu_coll_nonblocking_main(&d, argc, argv);
}
