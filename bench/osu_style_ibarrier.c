/* Nonblocking Barrier latency and overlap, as OSU's osu_ibarrier measures them: MPI_Ibarrier, started
 * and waited for at once (the pure communication time), then started, overlapped with that much
 * computation, and waited for. The method, the columns and the options are in
 * bench/osu_style_coll_common.h.
 * Usage: osu_style_ibarrier [-m [MIN:]MAX] [-i iterations] [-x warmup] [-t tests] [-f] */
#include "osu_style_coll_common.h"

static void start(struct osu_coll *c, int count, MPI_Request *req)
{
    (void)c;
    (void)count;
    MPI_Ibarrier(MPI_COMM_WORLD, req);
}

int main(int argc, char **argv)
{
    const struct osu_coll_desc d = {
        .program = "osu_style_ibarrier", .title = "Barrier",
        .type = MPI_DATATYPE_NULL, .type_name = "none",
        .send_blocks = 1, .recv_blocks = 1, .start = start};
    return osu_coll_nonblocking_main(&d, argc, argv);
}
