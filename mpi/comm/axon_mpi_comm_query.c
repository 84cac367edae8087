/* MPI_Comm_rank and MPI_Comm_size, for every communicator: the rank and size in the local group (the
 * only group of an intracommunicator; MPI_Comm_remote_size tells an intercommunicator's other one);
 * and MPI_Comm_get_parent. */
#include "mpi/axon_mpi.h"

AXON_MPI_WEAK(Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    static const char func[] = "MPI_Comm_rank";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!rank)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "rank is a NULL pointer");
    *rank = c->rank;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    static const char func[] = "MPI_Comm_size";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "size is a NULL pointer");
    *size = c->size;
    return MPI_SUCCESS;
}

/* Axon starts no processes at run time (no MPI_Comm_spawn), so no process has a parent: the standard's
 * answer is MPI_COMM_NULL. Libraries built against MPICH (mpi4py among them) link this call. */
AXON_MPI_WEAK(Comm_get_parent)
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    static const char func[] = "MPI_Comm_get_parent";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!parent)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "parent is a NULL pointer");
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
