/* Barrier latency, as OSU's osu_barrier measures it: MPI_Barrier over all the ranks (no data: one row,
 * no size column), each call timed alone; the average over the ranks (-f: also the minimum and maximum).
 * The method and the options are in bench/osu_style_coll_common.h.
 * Usage: osu_style_barrier [-m [MIN:]MAX] [-i iterations] [-x warmup] [-f] */
#include "osu_style_coll_common.h"

static void call(struct osu_coll *c, int count)
{
    (void)c;
    (void)count;
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_barrier", .title = "Barrier",
        .type = MPI_DATATYPE_NULL, .type_name = "none",
        .send_blocks = 1, .recv_blocks = 1, .call = call};
    return osu_coll_blocking_main(&d, argc, argv);
}
