/* The large-count (_c) collectives of MPI 4: blocking, nonblocking (MPI_I..._c) and persistent
 * (..._init_c). Each is its int twin when every count and displacement fits in an int, MPI_ERR_COUNT when
 * one does not (mpi/axon_mpi_bigcount.h); the arrays of the v and w forms are converted for the entries
 * the call reads (the group, or the root's), and freed on return, since the int calls build their
 * schedules and plans from them before returning. */
#include "mpi/axon_mpi_bigcount.h"

AXON_MPI_WEAK(Bcast_c)
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Bcast_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bcast(buffer, count_, datatype, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ibcast_c)
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ibcast_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ibcast(buffer, count_, datatype, root, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Bcast_init_c)
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Bcast_init_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bcast_init(buffer, count_, datatype, root, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Gather_c)
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Gather_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Gather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Igather_c)
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Igather_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Igather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Gather_init_c)
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Gather_init_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Gather_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Gatherv_c)
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Gatherv_c", comm, AXON_BIGCOUNT_ROOT_RECV, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Gatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Igatherv_c)
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Igatherv_c", comm, AXON_BIGCOUNT_ROOT_RECV, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Igatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, root, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Gatherv_init_c", comm, AXON_BIGCOUNT_ROOT_RECV, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Gatherv_init(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, root, comm, info,
                               request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Scatter_c)
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Scatter_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scatter(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iscatter_c)
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Iscatter_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Iscatter(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Scatter_init_c)
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Scatter_init_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scatter_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Scatterv_c)
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *displs_ = NULL;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Scatterv_c", comm, AXON_BIGCOUNT_ROOT_SEND, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nsend, &displs_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scatterv(sendbuf, sendcounts_, displs_, sendtype, recvbuf, recvcount_, recvtype, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iscatterv_c)
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *displs_ = NULL;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Iscatterv_c", comm, AXON_BIGCOUNT_ROOT_SEND, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nsend, &displs_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc =
            PMPI_Iscatterv(sendbuf, sendcounts_, displs_, sendtype, recvbuf, recvcount_, recvtype, root, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *displs_ = NULL;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Scatterv_init_c", comm, AXON_BIGCOUNT_ROOT_SEND, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nsend, &displs_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scatterv_init(sendbuf, sendcounts_, displs_, sendtype, recvbuf, recvcount_, recvtype, root, comm,
                                info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Allgather_c)
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Allgather_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iallgather_c)
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Iallgather_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Iallgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Allgather_init_c)
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Allgather_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Allgatherv_c)
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Allgatherv_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Iallgatherv_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Iallgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Allgatherv_init_c)
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    const int *recvcounts_ = NULL;
    const int *displs_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Allgatherv_init_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "displs", displs, bc.nrecv, &displs_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgatherv_init(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, comm, info,
                                  request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Alltoall_c)
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Alltoall_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Alltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ialltoall_c)
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ialltoall_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ialltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Alltoall_init_c)
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Alltoall_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Alltoall_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Alltoallv_c)
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Alltoallv_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Alltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Ialltoallv_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ialltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_, recvtype, comm,
                             request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Alltoallv_init_c)
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Alltoallv_init_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Alltoallv_init(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_, recvtype,
                                 comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Alltoallw_c)
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Alltoallw_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Alltoallw(sendbuf, sendcounts_, sdispls_, sendtypes, recvbuf, recvcounts_, rdispls_, recvtypes, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Ialltoallw_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ialltoallw(sendbuf, sendcounts_, sdispls_, sendtypes, recvbuf, recvcounts_, rdispls_, recvtypes, comm,
                             request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Alltoallw_init_c)
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *sendcounts_ = NULL;
    const int *sdispls_ = NULL;
    const int *recvcounts_ = NULL;
    const int *rdispls_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Alltoallw_init_c", comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "sendcounts", sendcounts, bc.nsend, &sendcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "sdispls", sdispls, bc.nsend, &sdispls_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(&bc, "rdispls", rdispls, bc.nrecv, &rdispls_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Alltoallw_init(sendbuf, sendcounts_, sdispls_, sendtypes, recvbuf, recvcounts_, rdispls_, recvtypes,
                                 comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Reduce_c)
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Reduce_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce(sendbuf, recvbuf, count_, datatype, op, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ireduce_c)
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ireduce_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ireduce(sendbuf, recvbuf, count_, datatype, op, root, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Reduce_init_c)
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Reduce_init_c", comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce_init(sendbuf, recvbuf, count_, datatype, op, root, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Allreduce_c)
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Allreduce_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce(sendbuf, recvbuf, count_, datatype, op, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iallreduce_c)
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Iallreduce_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Iallreduce(sendbuf, recvbuf, count_, datatype, op, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Allreduce_init_c)
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Allreduce_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allreduce_init(sendbuf, recvbuf, count_, datatype, op, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Reduce_scatter_block_c)
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Reduce_scatter_block_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount_, datatype, op, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ireduce_scatter_block_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount_, datatype, op, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Reduce_scatter_block_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount_, datatype, op, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Reduce_scatter_c)
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *recvcounts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Reduce_scatter_c", comm, AXON_BIGCOUNT_LOCAL, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts_, datatype, op, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *recvcounts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Ireduce_scatter_c", comm, AXON_BIGCOUNT_LOCAL, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts_, datatype, op, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    const int *recvcounts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Reduce_scatter_init_c", comm, AXON_BIGCOUNT_LOCAL, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &recvcounts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts_, datatype, op, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Scan_c)
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Scan_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scan(sendbuf, recvbuf, count_, datatype, op, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iscan_c)
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Iscan_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Iscan(sendbuf, recvbuf, count_, datatype, op, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Scan_init_c)
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Scan_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Scan_init(sendbuf, recvbuf, count_, datatype, op, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Exscan_c)
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Exscan_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Exscan(sendbuf, recvbuf, count_, datatype, op, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Iexscan_c)
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Iexscan_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Iexscan(sendbuf, recvbuf, count_, datatype, op, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Exscan_init_c)
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Exscan_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Exscan_init(sendbuf, recvbuf, count_, datatype, op, comm, info, request);
    axon_bigcount_end(&bc);
    return rc;
}
