/* Every rank says who it is; the test compares the sorted lines. With an argument, rank 0 also prints
 * the library version (the MPICH-ABI test uses it to show which library answered). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    printf("Hello from rank %d of %d\n", rank, size);
    if (argc > 1 && rank == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        MPI_Get_library_version(version, &len);
        printf("library: %s\n", version);
    }
    MPI_Finalize();
    return 0;
}
