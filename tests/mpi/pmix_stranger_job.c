/* The job a stranger tries to join (pmix_stranger.test): rank 0 writes its PMIx variables to the file
 * named first, then every rank waits until the file named second exists (at most 60 s) and meets the
 * others in a barrier and an allreduce before finishing. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        fprintf(stderr, "usage: pmix_stranger_job ENV-FILE GO-FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0) {
        char tmp[4096];
        snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            perror(tmp);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "PMIX_", 5) == 0)
                fprintf(f, "%s\n", *e);
        fclose(f);
        rename(tmp, argv[1]);
    }
    for (int i = 0; i < 600 && access(argv[2], F_OK) != 0; i++)
        usleep(100000);
    MPI_Barrier(MPI_COMM_WORLD);
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size) {
        fprintf(stderr, "pmix_stranger_job: rank %d: sum %d, not %d\n", rank, sum, size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("pmix_stranger_job: %d ranks done\n", size);
    MPI_Finalize();
    return 0;
}
