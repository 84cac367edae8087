/* Point-to-point bandwidth, as OSU's osu_bw measures it: for each size, rank 0 posts a window of
 * nonblocking sends to rank 1 (which has posted as many receives), waits for all of them, and rank 1
 * answers with a 4-byte acknowledgement once its receives are done; the rate is the bytes of the timed
 * windows over the time they took, in MB/s (10^6 bytes per second). As in OSU, every message of a
 * window uses the same send buffer and the same receive buffer. Sizes go from MIN (default 1) to
 * MAX (default 4 MiB) by doubling; sizes above 8 KiB get OSU's "large" counts (20 iterations and 2
 * warm-up windows instead of 100 and 10); -i and -x set the count for every size, as OSU's do. Ranks
 * beyond the first two wait. Plain MPI-1 point-to-point calls only (no collectives: each size starts
 * with a zero-byte handshake between the two ranks instead of a barrier), so bench/compare can build
 * it with any MPI's wrapper and pair its rows across Axon, Open MPI and MPICH. Rank 0 prints.
 * Usage: osu_style_bw [-m [MIN:]MAX] [-i iterations] [-x warmup] [-W window] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { TAG_DATA = 100, TAG_ACK = 101, TAG_SYNC = 102, LARGE = 8192 };

/* "MAX", "MIN:MAX", "MIN:" or ":MAX"; returns 0 when the text is not one of these. */
static int parse_sizes(const char *arg, long *min, long *max)
{
    char *end;
    const char *colon = strchr(arg, ':');
    if (!colon) {
        *max = strtol(arg, &end, 10);
        return end != arg && *end == '\0';
    }
    if (colon != arg) {
        *min = strtol(arg, &end, 10);
        if (end != colon)
            return 0;
    }
    if (colon[1] != '\0') {
        *max = strtol(colon + 1, &end, 10);
        if (*end != '\0')
            return 0;
    }
    return 1;
}

/* A barrier over ranks 0..n-1 out of point-to-point calls: everyone checks in with rank 0 by a
 * zero-byte message and leaves when rank 0 has heard from all and answers. */
static void sync_ranks(int rank, int n)
{
    char out = 0, in = 0;
    if (rank >= n)
        return;
    if (rank == 0) {
        for (int r = 1; r < n; r++)
            MPI_Recv(&in, 0, MPI_CHAR, r, TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 1; r < n; r++)
            MPI_Send(&out, 0, MPI_CHAR, r, TAG_SYNC, MPI_COMM_WORLD);
    } else {
        MPI_Sendrecv(&out, 0, MPI_CHAR, 0, TAG_SYNC, &in, 0, MPI_CHAR, 0, TAG_SYNC, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    long min = 1, max = 1L << 22;
    int iters = 100, iters_large = 20, warmup = 10, warmup_large = 2, window = 64, opt, bad = 0;
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    while ((opt = getopt(argc, argv, "m:i:x:W:h")) != -1) {
        if (opt == 'm')
            bad |= !parse_sizes(optarg, &min, &max);
        else if (opt == 'i')
            iters = iters_large = atoi(optarg);
        else if (opt == 'x')
            warmup = warmup_large = atoi(optarg);
        else if (opt == 'W')
            window = atoi(optarg);
        else
            bad = 1 + (opt == 'h');
    }
    if (bad || min < 0 || max < min || max > 1L << 30 || iters < 1 || warmup < 0 || window < 1) {
        if (rank == 0)
            fprintf(bad == 2 ? stdout : stderr,
                    "usage: osu_style_bw [-m [MIN:]MAX] [-i iterations] [-x warmup] [-W window]\n");
        MPI_Finalize();
        return bad == 2 ? 0 : 1;
    }
    if (nranks < 2) {
        fprintf(stderr, "osu_style_bw needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* The ack is 4 bytes, so the buffers hold at least that much. */
    size_t bytes = (size_t)(max < 4 ? 4 : max);
    char *sbuf = NULL, *rbuf = NULL;
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)window);
    /* Statuses rather than MPI_STATUSES_IGNORE, as in OSU: with MPICH's header, gcc warns about it. */
    MPI_Status *statuses = malloc(sizeof(MPI_Status) * (size_t)window);
    if (posix_memalign((void **)&sbuf, 4096, bytes) || posix_memalign((void **)&rbuf, 4096, bytes) ||
        !req || !statuses) {
        fprintf(stderr, "osu_style_bw: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(sbuf, 'a', bytes);
    memset(rbuf, 'b', bytes);
    if (rank == 0)
        printf("# OSU-style MPI bandwidth test\n# [ window size: %d ]\n%-10s%18s\n", window, "# Size",
               "Bandwidth (MB/s)");
    for (long n = min; n <= max; n = n ? n * 2 : 1) {
        int it = n > LARGE ? iters_large : iters, wu = n > LARGE ? warmup_large : warmup;
        double t0 = 0, t = 0;
        sync_ranks(rank, 2);
        if (rank == 0) {
            for (int i = 0; i < it + wu; i++) {
                if (i == wu)
                    t0 = MPI_Wtime();
                for (int w = 0; w < window; w++)
                    MPI_Isend(sbuf, (int)n, MPI_CHAR, 1, TAG_DATA, MPI_COMM_WORLD, &req[w]);
                MPI_Waitall(window, req, statuses);
                MPI_Recv(rbuf, 4, MPI_CHAR, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            t = MPI_Wtime() - t0;
            printf("%-10ld%18.2f\n", n, (double)n * it * window / 1e6 / t);
            fflush(stdout);
        } else if (rank == 1) {
            for (int i = 0; i < it + wu; i++) {
                for (int w = 0; w < window; w++)
                    MPI_Irecv(rbuf, (int)n, MPI_CHAR, 0, TAG_DATA, MPI_COMM_WORLD, &req[w]);
                MPI_Waitall(window, req, statuses);
                MPI_Send(sbuf, 4, MPI_CHAR, 0, TAG_ACK, MPI_COMM_WORLD);
            }
        }
    }
    free(req);
    free(statuses);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
