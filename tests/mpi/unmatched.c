/* Rank 0 sends a message on a duplicate of MPI_COMM_WORLD that rank 1 never receives, and both free the
 * communicator: an erroneous program that Axon lets run, saying so under AXON_VERBOSE=1 (unmatched.test). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, x = 42;
    MPI_Comm comm;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 5, comm);
    MPI_Barrier(comm);
    int rc = MPI_Comm_free(&comm);
    printf("unmatched: rank %d freed the communicator: %s\n", rank, rc == MPI_SUCCESS ? "ok" : "error");
    MPI_Finalize();
    return 0;
}
