/* Gather latency, as OSU's osu_gather measures it: MPI_Gather to rank 0, each call timed alone; the
 * average over the ranks (-f: also the minimum and maximum). Sizes are the bytes each rank sends. The
 * method and the options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_gather [-m [MIN:]MAX] [-i iterations] [-x warmup] [-f] */
#include "osu_style_coll_common.h"

static void call(struct osu_coll *c, int count)
{
    MPI_Gather(c->sbuf, count, MPI_CHAR, c->rbuf, count, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_gather", .title = "Gather",
        .type = MPI_CHAR, .type_name = "MPI_CHAR",
        .send_blocks = 1, .recv_blocks = OSU_COLL_PER_RANK, .call = call};
    return osu_coll_blocking_main(&d, argc, argv);
}
