/* Persistent collectives (MPI-4): MPI_Barrier_init ... MPI_Exscan_init, and what MPI_Start and
 * MPI_Request_free do with their requests.
 *
 * An _init call checks its arguments exactly as the blocking form does (the same plan function,
 * mpi/coll/axon_mpi_coll.c) and hands the plan to coll/ (axon_coll_plan_persist), which keeps it in an
 * inactive persistent request, with references on its layouts and operation so that freeing a datatype
 * or an operation afterwards is harmless. Each MPI_Start builds a fresh schedule from the plan and runs
 * it on the same request; the completion calls leave the request inactive, and MPI_Request_free frees
 * it (refused while it is active, as the standard says). The request takes the communicator's next
 * collective sequence number at its _init call, and every start runs under that tag: MPI 4 matches
 * persistent collectives by the order of their _init calls, so members may start them in different
 * orders (MPICH's coll/p_order). Successive starts of one request share the tag safely: a start begins
 * only after the last completed here, and messages between two ranks keep their order. The tag comes
 * back to a new collective only after 2^31 more collectives on the communicator while the request
 * lives. With CUDA support on, an _init of more than AXON_COLL_GPU_AGREE_MIN bytes a rank (the kinds a
 * blocking call of that size agrees for) has the members agree once whether all their buffers are GPU
 * memory, which the standard allows (the _init calls are nonlocal and ordered like other collectives):
 * where they are, every start may take the domain algorithms, as the blocking call would. */
#include "mpi/coll/axon_mpi_coll.h"

#include "mpi/comm/axon_mpi_comm.h"

int axon_mpi_coll_persist_check(const char *func, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request);
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_INFO, "invalid info object %s",
                              AXON_MPI_HANDLE_NAME(info));
    return MPI_SUCCESS;
}

int axon_mpi_coll_persist_init(const char *func, struct axon_coll_plan *p, MPI_Request *request)
{
    struct axon_comm *c = axon_mpi_coll_comm(p->cc);
    struct axon_request *req;
    const char *why = NULL;
    int rc = axon_coll_plan_persist(p, &req, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "%s", why);
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

int axon_mpi_coll_persist_start(const char *func, struct axon_request *req)
{
    struct axon_coll_plan *p = req->upper;
    const char *why = NULL;
    int rc = axon_coll_plan_persist_start(req, &why);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(axon_mpi_coll_comm(p->cc), func, rc, "%s", why);
}

int axon_mpi_coll_persist_free(const char *func, struct axon_request *req)
{
    struct axon_coll_plan *p = req->upper;
    if (req->active)
        return axon_mpi_error(axon_mpi_coll_comm(p->cc), func, MPI_ERR_REQUEST,
                              "a persistent collective request is active (started and not completed)");
    axon_coll_plan_persist_free(req);
    return MPI_SUCCESS;
}

/* ---- the _init calls ------------------------------------------------------------------------------ */

/* The body of every _init call: its own checks, the plan of call, then keeping it. */
#define AXON_PERSIST_INIT(func, comm, info, request, call)                                           \
    do {                                                                                             \
        int rc_ = axon_mpi_coll_persist_check(func, comm, info, request);                            \
        if (rc_ != MPI_SUCCESS)                                                                      \
            return rc_;                                                                              \
        struct axon_coll_plan plan_;                                                             \
        rc_ = (call);                                                                                \
        return rc_ == MPI_SUCCESS ? axon_mpi_coll_persist_init(func, &plan_, request) : rc_;         \
    } while (0)

/* The v forms tell the plan so by non-NULL displacements; a NULL one at the root is an error. */
#define AXON_PERSIST_CHECK_DISPLS(func, comm, root, displs)                                          \
    do {                                                                                             \
        struct axon_comm *c_ = axon_mpi_comm_get(comm);                                              \
        if (c_ && axon_mpi_coll_is_root(c_, root) && !(displs))                                          \
            return axon_mpi_error(c_, func, MPI_ERR_ARG, "displs is a NULL pointer");                \
    } while (0)

static const int axon_persist_no_displs[1];

AXON_MPI_WEAK(Barrier_init)
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Barrier_init";
    AXON_PERSIST_INIT(func, comm, info, request, axon_mpi_barrier_plan(func, comm, &plan_));
}

AXON_MPI_WEAK(Bcast_init)
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    static const char func[] = "MPI_Bcast_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_bcast_plan(func, buffer, count, datatype, root, comm, &plan_));
}

AXON_MPI_WEAK(Gather_init)
int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Gather_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_gather_plan(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                                           AXON_MPI_NO_ARRAY, recvtype, root, comm, &plan_));
}

AXON_MPI_WEAK(Gatherv_init)
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Gatherv_init";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_PERSIST_CHECK_DISPLS(func, comm, root, displs);
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_gather_plan(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                                           AXON_MPI_INTS(displs ? displs : axon_persist_no_displs), recvtype, root,
                                           comm, &plan_));
}

AXON_MPI_WEAK(Scatter_init)
int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Scatter_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_scatter_plan(func, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, sendtype,
                                            recvbuf, recvcount, recvtype, root, comm, &plan_));
}

AXON_MPI_WEAK(Scatterv_init)
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    static const char func[] = "MPI_Scatterv_init";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_PERSIST_CHECK_DISPLS(func, comm, root, displs);
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_scatter_plan(func, sendbuf, 0, AXON_MPI_INTS(sendcounts),
                                            AXON_MPI_INTS(displs ? displs : axon_persist_no_displs), sendtype, recvbuf,
                                            recvcount, recvtype, root, comm, &plan_));
}

AXON_MPI_WEAK(Allgather_init)
int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Allgather_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_allgather_plan(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                                              AXON_MPI_NO_ARRAY, recvtype, comm, &plan_));
}

AXON_MPI_WEAK(Allgatherv_init)
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Allgatherv_init";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!displs)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "displs is a NULL pointer");
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_allgather_plan(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                                              AXON_MPI_INTS(displs), recvtype, comm, &plan_));
}

AXON_MPI_WEAK(Alltoall_init)
int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Alltoall_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_alltoall_plan(func, 0, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY,
                                             &sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY,
                                             &recvtype, comm, &plan_));
}

AXON_MPI_WEAK(Alltoallv_init)
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Alltoallv_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_alltoall_plan(func, 1, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls),
                                             &sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls),
                                             &recvtype, comm, &plan_));
}

AXON_MPI_WEAK(Alltoallw_init)
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Alltoallw_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_alltoall_plan(func, 2, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls),
                                             sendtypes, recvbuf, 0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls),
                                             recvtypes, comm, &plan_));
}

AXON_MPI_WEAK(Reduce_init)
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Reduce_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_reduction_plan(func, AXON_COLL_RED_REDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                                              datatype, op, root, comm, &plan_));
}

AXON_MPI_WEAK(Allreduce_init)
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Allreduce_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_reduction_plan(func, AXON_COLL_RED_ALLREDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                                              datatype, op, 0, comm, &plan_));
}

AXON_MPI_WEAK(Reduce_scatter_block_init)
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Reduce_scatter_block_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_reduction_plan(func, AXON_COLL_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                              AXON_MPI_NO_ARRAY, datatype, op, 0, comm, &plan_));
}

AXON_MPI_WEAK(Reduce_scatter_init)
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Reduce_scatter_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_reduction_plan(func, AXON_COLL_RED_SCATTER, sendbuf, recvbuf, 0,
                                              AXON_MPI_INTS(recvcounts), datatype, op, 0, comm, &plan_));
}

AXON_MPI_WEAK(Scan_init)
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Scan_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_reduction_plan(func, AXON_COLL_RED_SCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                                              datatype, op, 0, comm, &plan_));
}

AXON_MPI_WEAK(Exscan_init)
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    static const char func[] = "MPI_Exscan_init";
    AXON_PERSIST_INIT(func, comm, info, request,
                      axon_mpi_reduction_plan(func, AXON_COLL_RED_EXSCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                                              datatype, op, 0, comm, &plan_));
}
