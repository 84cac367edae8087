/* The large-count (_c) neighborhood collectives of MPI 4, blocking, nonblocking and persistent. Each is
 * its int twin when every count and displacement fits in an int, MPI_ERR_COUNT when one does not
 * (mpi/axon_mpi_bigcount.h). The send arrays have an entry per out-neighbor, the receive arrays one per
 * in-neighbor of the communicator's topology; the w forms' displacements are MPI_Aint in the int calls
 * too, so they pass unchanged. */
#include "mpi/axon_mpi_bigcount.h"

AXON_MPI_WEAK(Neighbor_allgather_c)
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_allgather_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_allgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ineighbor_allgather_c)
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ineighbor_allgather_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ineighbor_allgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_allgather_init_c)
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_allgather_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_allgather_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, info,
                                          request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_allgatherv_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_allgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Ineighbor_allgatherv_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ineighbor_allgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, comm,
                                       request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_allgatherv_init_c)
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_allgatherv_init_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_allgatherv_init(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, comm,
                                           info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_alltoall_c)
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_alltoall_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_alltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ineighbor_alltoall_c)
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ineighbor_alltoall_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ineighbor_alltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_alltoall_init_c)
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_alltoall_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_alltoall_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, info,
                                         request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_alltoallv_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_alltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_, recvtype,
                                     comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Ineighbor_alltoallv_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ineighbor_alltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_,
                                      recvtype, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_alltoallv_init_c)
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_alltoallv_init_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_alltoallv_init(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_,
                                          recvtype, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *recvcounts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_alltoallw_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_alltoallw(sendbuf, sendcounts_, sdispls, sendtypes, recvbuf, recvcounts_, rdispls, recvtypes,
                                     comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *recvcounts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Ineighbor_alltoallw_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ineighbor_alltoallw(sendbuf, sendcounts_, sdispls, sendtypes, recvbuf, recvcounts_, rdispls,
                                      recvtypes, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Neighbor_alltoallw_init_c)
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *recvcounts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Neighbor_alltoallw_init_c", comm, AXON_BIGCOUNT_NEIGHBOR, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Neighbor_alltoallw_init(sendbuf, sendcounts_, sdispls, sendtypes, recvbuf, recvcounts_, rdispls,
                                          recvtypes, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}
