/* A rank dies while a communicator's first collective makes its shared memory: rank 0 makes the segment
 * and names it to the others, and waits for them to map it; rank 1 never comes (it ends by SIGKILL a
 * second later). The segment's name, which rank 0 would have unlinked once all had mapped it, must not
 * stay in /dev/shm after the job (mpirun removes what the ranks it reaps left). Rank 0 prints its pid
 * first, for the .test to look for its names. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (rank == 0) {
        printf("shm_orphan: rank 0 pid %d\n", (int)getpid());
        fflush(stdout);
    }
    if (rank == 1) {
        sleep(1);
        kill(getpid(), SIGKILL);
    }
    int x = 1, y = 0;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, c);
    printf("shm_orphan: rank %d was not stopped\n", rank);
    MPI_Finalize();
    return 1;
}
