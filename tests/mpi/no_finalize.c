/* Rank 0 returns from main without MPI_Finalize; the others finalize (and would wait for rank 0). */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        return 0;
    MPI_Finalize();
    return 0;
}
