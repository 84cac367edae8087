/* Rank 1 ends with exit code 3 in the middle of the job, without MPI_Finalize ("kill": by SIGKILL); rank 0
 * waits for a message from it and the other ranks in a barrier with it, which would never end. (peer_exit.test runs
 * it under mpirun -disable-auto-cleanup, where only the library's watch of its node's peers ends the
 * job.) */
#include <mpi.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* "first": rank 1 ends before anyone has sent it anything (rank 0 then waits on a peer it has no
     * endpoint to). */
    bool first = argc > 1 && strcmp(argv[1], "first") == 0;
    if (!first)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        if (argc > 1 && strcmp(argv[1], "kill") == 0)
            kill(getpid(), SIGKILL);
        _exit(3);
    }
    if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Barrier(MPI_COMM_WORLD);
    printf("peer_exit: rank %d was not stopped\n", rank);
    MPI_Finalize();
    return 1;
}
