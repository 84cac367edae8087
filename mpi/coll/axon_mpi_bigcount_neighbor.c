/* The large-count (_c) neighborhood collectives of MPI 4, blocking, nonblocking and persistent. Each makes
 * the plan of its int twin (mpi/coll/axon_mpi_neighbor.c) from its arguments at full width: the send arrays
 * have an entry per out-neighbor, the receive arrays one per in-neighbor, read where the plan fills the
 * blocks (struct axon_mpi_array), so nothing is narrowed or copied here. The three forms of a family share
 * one function, as the collectives' _c calls do (mpi/coll/axon_mpi_bigcount_coll.c). */
#include "mpi/coll/axon_mpi_coll.h"

/* Plan a and run it as f says. */
static int axon_neighbor_c(struct axon_mpi_coll_form f, const struct axon_mpi_neighbor_args *a, MPI_Comm comm)
{
    struct axon_coll_plan plan;
    int rc = axon_mpi_coll_form_check(&f, comm);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_neighbor_plan(f.func, a, comm, &plan);
    return axon_mpi_coll_form_run(&f, rc, &plan);
}

static int neighbor_allgather_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount,
                                MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLGATHER_ARGS(AXON_MPI_WIDE);
    return axon_neighbor_c(f, &a, comm);
}

static int neighbor_allgatherv_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                 const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLGATHERV_ARGS(AXON_MPI_WIDE);
    return axon_neighbor_c(f, &a, comm);
}

static int neighbor_alltoall_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount,
                               MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALL_ARGS(AXON_MPI_WIDE);
    return axon_neighbor_c(f, &a, comm);
}

static int neighbor_alltoallv_c(struct axon_mpi_coll_form f, const void *sendbuf, const MPI_Count sendcounts[],
                                const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALLV_ARGS(AXON_MPI_WIDE);
    return axon_neighbor_c(f, &a, comm);
}

static int neighbor_alltoallw_c(struct axon_mpi_coll_form f, const void *sendbuf, const MPI_Count sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = AXON_MPI_NEIGHBOR_ALLTOALLW_ARGS(AXON_MPI_WIDE);
    return axon_neighbor_c(f, &a, comm);
}

AXON_MPI_WEAK(Neighbor_allgather_c)
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_allgather_c(axon_mpi_coll_blocking("MPI_Neighbor_allgather_c"), sendbuf, sendcount, sendtype,
                                recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_allgather_c)
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor_allgather_c(axon_mpi_coll_nonblocking("MPI_Ineighbor_allgather_c", request), sendbuf, sendcount,
                                sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_allgather_init_c)
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return neighbor_allgather_c(axon_mpi_coll_persistent("MPI_Neighbor_allgather_init_c", info, request), sendbuf,
                                sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    return neighbor_allgatherv_c(axon_mpi_coll_blocking("MPI_Neighbor_allgatherv_c"), sendbuf, sendcount, sendtype,
                                 recvbuf, recvcounts, displs, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    return neighbor_allgatherv_c(axon_mpi_coll_nonblocking("MPI_Ineighbor_allgatherv_c", request), sendbuf, sendcount,
                                 sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_allgatherv_init_c)
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return neighbor_allgatherv_c(axon_mpi_coll_persistent("MPI_Neighbor_allgatherv_init_c", info, request), sendbuf,
                                 sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoall_c)
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoall_c(axon_mpi_coll_blocking("MPI_Neighbor_alltoall_c"), sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_alltoall_c)
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor_alltoall_c(axon_mpi_coll_nonblocking("MPI_Ineighbor_alltoall_c", request), sendbuf, sendcount,
                               sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoall_init_c)
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return neighbor_alltoall_c(axon_mpi_coll_persistent("MPI_Neighbor_alltoall_init_c", info, request), sendbuf,
                               sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_alltoallv_c(axon_mpi_coll_blocking("MPI_Neighbor_alltoallv_c"), sendbuf, sendcounts, sdispls,
                                sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return neighbor_alltoallv_c(axon_mpi_coll_nonblocking("MPI_Ineighbor_alltoallv_c", request), sendbuf, sendcounts,
                                sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallv_init_c)
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return neighbor_alltoallv_c(axon_mpi_coll_persistent("MPI_Neighbor_alltoallv_init_c", info, request), sendbuf,
                                sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_alltoallw_c(axon_mpi_coll_blocking("MPI_Neighbor_alltoallw_c"), sendbuf, sendcounts, sdispls,
                                sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    return neighbor_alltoallw_c(axon_mpi_coll_nonblocking("MPI_Ineighbor_alltoallw_c", request), sendbuf, sendcounts,
                                sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallw_init_c)
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    return neighbor_alltoallw_c(axon_mpi_coll_persistent("MPI_Neighbor_alltoallw_init_c", info, request), sendbuf,
                                sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}
