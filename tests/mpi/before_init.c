/* Calls that are legal before MPI_Init answer; one that is not ends the process with a message. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int flag = -1, version, subversion, len, rank;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Initialized(&flag);
    MPI_Get_version(&version, &subversion);
    MPI_Get_library_version(lib, &len);
    printf("initialized=%d version=%d.%d\n", flag, version, subversion);
    fflush(stdout);
    if (argc > 1)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* erroneous: the process ends here */
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
