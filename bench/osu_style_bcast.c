/* Broadcast latency, as OSU's osu_bcast measures it: MPI_Bcast from rank 0 (one buffer, as OSU's), each
 * call timed alone; the average over the ranks (-f: also the minimum and maximum). Sizes are the bytes
 * broadcast. The method and the options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_bcast [-m [MIN:]MAX] [-i iterations] [-x warmup] [-f] */
#include "osu_style_coll_common.h"

static void call(struct osu_coll *c, int count)
{
    MPI_Bcast(c->sbuf, count, MPI_CHAR, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_bcast", .title = "Broadcast",
        .type = MPI_CHAR, .type_name = "MPI_CHAR",
        .send_blocks = 1, .recv_blocks = 1, .call = call};
    return osu_coll_blocking_main(&d, argc, argv);
}
