/* The large-count (_c) neighborhood collectives of MPI 4, blocking, nonblocking and persistent. Each is
 * its int twin when every count and displacement fits in an int, MPI_ERR_COUNT when one does not
 * (mpi/axon_mpi_bigcount.h). The send arrays have an entry per out-neighbor, the receive arrays one per
 * in-neighbor of the communicator's topology; the w forms' displacements are MPI_Aint in the int calls
 * too, so they pass unchanged. The allgather, allgatherv, alltoall and alltoallv shapes are the
 * collectives' (axon_mpi_bigcount_coll.c), with the arrays sized by AXON_BIGCOUNT_NEIGHBOR. */
#include "mpi/axon_mpi_bigcount.h"

static const axon_bigcount_allgather_twins neighbor_allgather = {
    PMPI_Neighbor_allgather, PMPI_Ineighbor_allgather, PMPI_Neighbor_allgather_init};
static const axon_bigcount_allgatherv_twins neighbor_allgatherv = {
    PMPI_Neighbor_allgatherv, PMPI_Ineighbor_allgatherv, PMPI_Neighbor_allgatherv_init};
static const axon_bigcount_allgather_twins neighbor_alltoall = {
    PMPI_Neighbor_alltoall, PMPI_Ineighbor_alltoall, PMPI_Neighbor_alltoall_init};
static const axon_bigcount_alltoallv_twins neighbor_alltoallv = {
    PMPI_Neighbor_alltoallv, PMPI_Ineighbor_alltoallv, PMPI_Neighbor_alltoallv_init};

/* MPI_Neighbor_alltoallw: counts on both sides; the displacements are already MPI_Aint. */
typedef AXON_BIGCOUNT_TWINS(const void *, const int *, const MPI_Aint *, const MPI_Datatype *, void *, const int *,
                            const MPI_Aint *, const MPI_Datatype *, MPI_Comm) neighbor_alltoallw_twins;
static const neighbor_alltoallw_twins neighbor_alltoallw = {
    PMPI_Neighbor_alltoallw, PMPI_Ineighbor_alltoallw, PMPI_Neighbor_alltoallw_init};

static int neighbor_alltoallw_c(struct axon_bigcount_call call, const void *sendbuf, const MPI_Count sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *scounts = NULL, *rcounts = NULL;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &scounts);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &rcounts);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(&neighbor_alltoallw, call, sendbuf, scounts, sdispls, sendtypes, recvbuf, rcounts,
                                rdispls, recvtypes, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_allgather_c)
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_bigcount_allgather(&neighbor_allgather, axon_bigcount_blocking("MPI_Neighbor_allgather_c"), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_allgather_c)
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_allgather(&neighbor_allgather,
                                   axon_bigcount_nonblocking("MPI_Ineighbor_allgather_c", request), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_allgather_init_c)
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return axon_bigcount_allgather(&neighbor_allgather,
                                   axon_bigcount_persistent("MPI_Neighbor_allgather_init_c", info, request), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    return axon_bigcount_allgatherv(&neighbor_allgatherv, axon_bigcount_blocking("MPI_Neighbor_allgatherv_c"),
                                    AXON_BIGCOUNT_NEIGHBOR, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_allgatherv(&neighbor_allgatherv,
                                    axon_bigcount_nonblocking("MPI_Ineighbor_allgatherv_c", request),
                                    AXON_BIGCOUNT_NEIGHBOR, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_allgatherv_init_c)
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return axon_bigcount_allgatherv(&neighbor_allgatherv,
                                    axon_bigcount_persistent("MPI_Neighbor_allgatherv_init_c", info, request),
                                    AXON_BIGCOUNT_NEIGHBOR, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoall_c)
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_bigcount_allgather(&neighbor_alltoall, axon_bigcount_blocking("MPI_Neighbor_alltoall_c"), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_alltoall_c)
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_allgather(&neighbor_alltoall, axon_bigcount_nonblocking("MPI_Ineighbor_alltoall_c", request),
                                   sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoall_init_c)
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return axon_bigcount_allgather(&neighbor_alltoall,
                                   axon_bigcount_persistent("MPI_Neighbor_alltoall_init_c", info, request), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_bigcount_alltoallv(&neighbor_alltoallv, axon_bigcount_blocking("MPI_Neighbor_alltoallv_c"),
                                   AXON_BIGCOUNT_NEIGHBOR, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_alltoallv(&neighbor_alltoallv,
                                   axon_bigcount_nonblocking("MPI_Ineighbor_alltoallv_c", request),
                                   AXON_BIGCOUNT_NEIGHBOR, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallv_init_c)
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    return axon_bigcount_alltoallv(&neighbor_alltoallv,
                                   axon_bigcount_persistent("MPI_Neighbor_alltoallv_init_c", info, request),
                                   AXON_BIGCOUNT_NEIGHBOR, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                   recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_alltoallw_c(axon_bigcount_blocking("MPI_Neighbor_alltoallw_c"), sendbuf, sendcounts, sdispls,
                                sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    return neighbor_alltoallw_c(axon_bigcount_nonblocking("MPI_Ineighbor_alltoallw_c", request), sendbuf, sendcounts,
                                sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Neighbor_alltoallw_init_c)
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    return neighbor_alltoallw_c(axon_bigcount_persistent("MPI_Neighbor_alltoallw_init_c", info, request), sendbuf,
                                sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}
