/* Reduce_scatter latency, as OSU's osu_reduce_scatter measures it: MPI_Reduce_scatter (MPI_SUM of
 * floats; the vector split among the ranks as OSU splits it), each call timed alone; the average over
 * the ranks (-f: also the minimum and maximum). Sizes are the bytes of the whole vector. The method and
 * the options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_reduce_scatter [-m [MIN:]MAX] [-i iterations] [-x warmup] [-f] */
#include "osu_style_coll_common.h"

static void call(struct osu_coll *c, int count)
{
    (void)count; /* c->counts splits it (osu_coll_split) */
    MPI_Reduce_scatter(c->sbuf, c->rbuf, c->counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_reduce_scatter", .title = "Reduce_scatter",
        .type = MPI_FLOAT, .type_name = "MPI_FLOAT",
        .send_blocks = 1, .recv_blocks = 1, .call = call};
    return osu_coll_blocking_main(&d, argc, argv);
}
