/* Rank 1 (or 0 alone) dies of a segmentation fault after MPI_Init; the others sleep. */
#include <mpi.h>
#include <signal.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == (size > 1 ? 1 : 0))
        raise(SIGSEGV);
    sleep(60);
    MPI_Finalize();
    return 0;
}
