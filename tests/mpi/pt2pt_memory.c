/* No memory growth in steady traffic: ranks 0 and 1 exchange 1,000,000 small messages (windows of
 * nonblocking sends and receives, plus blocking ones that arrive unexpected), and each compares its
 * resident memory after the first 100,000 with the memory at the end. Requests and unexpected-message
 * descriptors come from pools that are reused, so the growth must stay under 2 MiB. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = atol(line + 6);
    if (f)
        fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long total = argc > 1 ? atol(argv[1]) : 1000000;
    enum { WINDOW = 100 };
    int fail = 0;
    if (size >= 2 && rank < 2) {
        int peer = 1 - rank;
        char out[WINDOW][16], in[WINDOW][16];
        MPI_Request reqs[2 * WINDOW];
        long base_kib = 0;
        for (long done = 0; done < total; done += 2 * WINDOW) {
            if (done >= total / 10 && base_kib == 0)
                base_kib = rss_kib();
            for (int w = 0; w < WINDOW; w++)
                MPI_Irecv(in[w], 16, MPI_CHAR, peer, w, MPI_COMM_WORLD, &reqs[w]);
            for (int w = 0; w < WINDOW; w++) {
                memset(out[w], (int)(done + w), 16);
                MPI_Isend(out[w], 16, MPI_CHAR, peer, w, MPI_COMM_WORLD, &reqs[WINDOW + w]);
            }
            MPI_Waitall(2 * WINDOW, reqs, MPI_STATUSES_IGNORE);
            for (int w = 0; w < WINDOW; w++)
                if (in[w][0] != (char)(done + w))
                    fail = 1;
            /* Messages that arrive before their receive: the unexpected path. */
            MPI_Send(out[0], 16, MPI_CHAR, peer, 1000, MPI_COMM_WORLD);
            MPI_Recv(in[0], 16, MPI_CHAR, peer, 1000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        long end_kib = rss_kib();
        long growth = end_kib - base_kib;
        if (growth > 2048 || fail) {
            fprintf(stderr, "rank %d: resident memory %ld KiB after %ld messages, %ld KiB at the end (+%ld)%s\n",
                    rank, base_kib, total / 10, end_kib, growth, fail ? "; wrong data" : "");
            fail = 1;
        }
    }
    if (rank == 0) {
        int other = 0;
        if (size >= 2)
            MPI_Recv(&other, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("pt2pt_memory: %s\n", fail || other ? "FAILED" : "ok");
    } else if (rank == 1) {
        MPI_Send(&fail, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rank == 0 && fail;
}
