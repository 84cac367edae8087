/* The nonblocking (MPI_Ineighbor_*) and persistent (MPI_Neighbor_*_init) neighborhood collectives: the
 * plan of the blocking form (mpi/coll/axon_mpi_neighbor.c), run at once with its request handed back, or
 * kept in a persistent request that each MPI_Start runs again (mpi/coll/axon_mpi_coll_persist.c). */
#include "mpi/coll/axon_mpi_coll.h"

/* A nonblocking call: its request checked, then plan and run. */
static int axon_ineighbor(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                          MPI_Request *request)
{
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_neighbor(func, a, comm, request);
}

/* A persistent call: its own arguments checked, then the plan kept. */
static int axon_neighbor_init(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request)
{
    int rc = axon_mpi_coll_persist_check(func, comm, info, request);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_coll_plan plan;
    rc = axon_mpi_neighbor_plan(func, a, comm, &plan);
    return rc == MPI_SUCCESS ? axon_mpi_coll_persist_init(func, &plan, request) : rc;
}

/* ---- nonblocking ---------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Ineighbor_allgather)
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLGATHER_ARGS(AXON_MPI_INTS);
    return axon_ineighbor("MPI_Ineighbor_allgather", &a, comm, request);
}

AXON_MPI_WEAK(Ineighbor_allgatherv)
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLGATHERV_ARGS(AXON_MPI_INTS);
    return axon_ineighbor("MPI_Ineighbor_allgatherv", &a, comm, request);
}

AXON_MPI_WEAK(Ineighbor_alltoall)
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALL_ARGS(AXON_MPI_INTS);
    return axon_ineighbor("MPI_Ineighbor_alltoall", &a, comm, request);
}

AXON_MPI_WEAK(Ineighbor_alltoallv)
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALLV_ARGS(AXON_MPI_INTS);
    return axon_ineighbor("MPI_Ineighbor_alltoallv", &a, comm, request);
}

AXON_MPI_WEAK(Ineighbor_alltoallw)
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALLW_ARGS(AXON_MPI_INTS);
    return axon_ineighbor("MPI_Ineighbor_alltoallw", &a, comm, request);
}

/* ---- persistent ----------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Neighbor_allgather_init)
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLGATHER_ARGS(AXON_MPI_INTS);
    return axon_neighbor_init("MPI_Neighbor_allgather_init", &a, comm, info, request);
}

AXON_MPI_WEAK(Neighbor_allgatherv_init)
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLGATHERV_ARGS(AXON_MPI_INTS);
    return axon_neighbor_init("MPI_Neighbor_allgatherv_init", &a, comm, info, request);
}

AXON_MPI_WEAK(Neighbor_alltoall_init)
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALL_ARGS(AXON_MPI_INTS);
    return axon_neighbor_init("MPI_Neighbor_alltoall_init", &a, comm, info, request);
}

AXON_MPI_WEAK(Neighbor_alltoallv_init)
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALLV_ARGS(AXON_MPI_INTS);
    return axon_neighbor_init("MPI_Neighbor_alltoallv_init", &a, comm, info, request);
}

AXON_MPI_WEAK(Neighbor_alltoallw_init)
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALLW_ARGS(AXON_MPI_INTS);
    return axon_neighbor_init("MPI_Neighbor_alltoallw_init", &a, comm, info, request);
}
