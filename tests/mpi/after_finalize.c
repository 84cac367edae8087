/* After MPI_Finalize, MPI_Finalized and MPI_Initialized answer; MPI_Comm_size ends the process. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int init = -1, fin = -1, size;
    MPI_Init(&argc, &argv);
    MPI_Finalized(&fin);
    printf("before: finalized=%d\n", fin);
    MPI_Finalize();
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    printf("after: initialized=%d finalized=%d\n", init, fin);
    fflush(stdout);
    if (argc > 1)
        MPI_Comm_size(MPI_COMM_WORLD, &size); /* erroneous: the process ends here */
    return 0;
}
