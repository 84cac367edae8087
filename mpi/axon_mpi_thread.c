/* The thread-level queries: MPI_Query_thread and MPI_Is_thread_main. */
#include "mpi/axon_mpi.h"

AXON_MPI_WEAK(Query_thread)
int PMPI_Query_thread(int *provided)
{
    static const char func[] = "MPI_Query_thread";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!provided)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "provided is a NULL pointer");
    *provided = axon_mpi_state.thread_level;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Is_thread_main)
int PMPI_Is_thread_main(int *flag)
{
    static const char func[] = "MPI_Is_thread_main";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "flag is a NULL pointer");
    *flag = pthread_equal(pthread_self(), axon_mpi_state.main_thread) != 0;
    return MPI_SUCCESS;
}
