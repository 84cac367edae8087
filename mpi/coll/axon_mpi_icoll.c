/* The nonblocking collectives (MPI_Ibarrier ... MPI_Iexscan): the same checks and schedules as the
 * blocking ones (mpi/coll/axon_mpi_coll.c), with the schedule's request handed back. The request completes
 * through MPI_Wait, MPI_Test and the rest like any other; MPI_Request_free lets the collective run on and
 * free itself. */
#include "mpi/coll/axon_mpi_coll.h"

AXON_MPI_WEAK(Ibarrier)
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ibarrier";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_barrier(func, comm, request);
}

AXON_MPI_WEAK(Ibcast)
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ibcast";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_bcast(func, buffer, count, datatype, root, comm, request);
}

AXON_MPI_WEAK(Igather)
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Igather";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_gather(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY,
                           recvtype, root, comm, request);
}

AXON_MPI_WEAK(Igatherv)
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Igatherv";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && axon_mpi_coll_is_root(c, root) && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_gather(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                           AXON_MPI_INTS(displs ? displs : none), recvtype, root, comm, request);
}

AXON_MPI_WEAK(Iscatter)
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iscatter";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_scatter(func, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, sendtype, recvbuf,
                            recvcount, recvtype, root, comm, request);
}

AXON_MPI_WEAK(Iscatterv)
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iscatterv";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && axon_mpi_coll_is_root(c, root) && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_scatter(func, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(displs ? displs : none),
                            sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

AXON_MPI_WEAK(Iallgather)
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iallgather";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_allgather(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                              AXON_MPI_NO_ARRAY, recvtype, comm, request);
}

AXON_MPI_WEAK(Iallgatherv)
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iallgatherv";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    if (!displs)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "displs is a NULL pointer");
    return axon_mpi_allgather(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                              AXON_MPI_INTS(displs), recvtype, comm, request);
}

AXON_MPI_WEAK(Ialltoall)
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ialltoall";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_alltoall(func, 0, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &sendtype, recvbuf,
                             recvcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &recvtype, comm, request);
}

AXON_MPI_WEAK(Ialltoallv)
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ialltoallv";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_alltoall(func, 1, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls), &sendtype, recvbuf,
                             0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls), &recvtype, comm, request);
}

AXON_MPI_WEAK(Ialltoallw)
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                    const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ialltoallw";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_alltoall(func, 2, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls), sendtypes, recvbuf,
                             0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls), recvtypes, comm, request);
}

AXON_MPI_WEAK(Ireduce)
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ireduce";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_reduction(func, AXON_COLL_RED_REDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op, root,
                              comm, request);
}

AXON_MPI_WEAK(Iallreduce)
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iallreduce";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_reduction(func, AXON_COLL_RED_ALLREDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op, 0,
                              comm, request);
}

AXON_MPI_WEAK(Ireduce_scatter_block)
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ireduce_scatter_block";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_reduction(func, AXON_COLL_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                              datatype, op, 0, comm, request);
}

AXON_MPI_WEAK(Ireduce_scatter)
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Ireduce_scatter";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_reduction(func, AXON_COLL_RED_SCATTER, sendbuf, recvbuf, 0, AXON_MPI_INTS(recvcounts), datatype, op,
                              0, comm, request);
}

AXON_MPI_WEAK(Iscan)
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iscan";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_reduction(func, AXON_COLL_RED_SCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op, 0,
                              comm, request);
}

AXON_MPI_WEAK(Iexscan)
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Iexscan";
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    return axon_mpi_reduction(func, AXON_COLL_RED_EXSCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op, 0,
                              comm, request);
}
