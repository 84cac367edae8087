/* Reduce latency, as OSU's osu_reduce measures it: MPI_Reduce (MPI_SUM of floats) to rank 0, each call
 * timed alone; the average over the ranks (-f: also the minimum and maximum). Sizes are the bytes of
 * each rank's vector. The method and the options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_reduce [-m [MIN:]MAX] [-i iterations] [-x warmup] [-f] */
#include "osu_style_coll_common.h"

static void call(struct osu_coll *c, int count)
{
    MPI_Reduce(c->sbuf, c->rbuf, count, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_reduce", .title = "Reduce",
        .type = MPI_FLOAT, .type_name = "MPI_FLOAT",
        .send_blocks = 1, .recv_blocks = 1, .call = call};
    return osu_coll_blocking_main(&d, argc, argv);
}
