/* Rank 1 (or 0 alone) dies of a segmentation fault after MPI_Init; the others sleep, or with the argument
 * "barrier" wait for it in MPI_Barrier (so that they hear of its loss while it dies). */
#include <mpi.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int barrier = argc > 1 && strcmp(argv[1], "barrier") == 0;
    if (barrier)
        MPI_Barrier(MPI_COMM_WORLD); /* every endpoint made: the loss is heard at once */
    if (rank == (size > 1 ? 1 : 0)) {
        if (barrier)
            usleep(200000);
        raise(SIGSEGV);
    }
    if (barrier)
        MPI_Barrier(MPI_COMM_WORLD);
    else
        sleep(60);
    MPI_Finalize();
    return 0;
}
