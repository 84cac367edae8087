/* MPI_Wtime and MPI_Wtick, from the monotonic clock: local to each process (MPI_WTIME_IS_GLOBAL is
 * false). They may be called at any time. */
#include "mpi/axon_mpi.h"

#include <time.h>

AXON_MPI_WEAK(Wtime)
double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

AXON_MPI_WEAK(Wtick)
double PMPI_Wtick(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1e-9;
    return (double)res.tv_sec + (double)res.tv_nsec * 1e-9;
}
