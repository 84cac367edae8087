/* The last rank calls MPI_Abort with the code given (default 7) while the others sleep inside MPI's
 * reach; the job must end with that code, soon. */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1)
        MPI_Abort(MPI_COMM_WORLD, argc > 1 ? atoi(argv[1]) : 7);
    sleep(60);
    MPI_Finalize();
    return 0;
}
