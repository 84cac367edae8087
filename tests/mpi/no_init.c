/* The last rank exits without ever calling MPI_Init; the others would wait for it in MPI_Init. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    const char *s = getenv("OMPI_COMM_WORLD_SIZE");
    if (r && s && atoi(r) == atoi(s) - 1)
        return 0;
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
