/* Persistent point-to-point requests: MPI_Send_init, MPI_Ssend_init, MPI_Rsend_init, MPI_Bsend_init,
 * MPI_Recv_init, MPI_Start and MPI_Startall (which also start persistent collectives, whose requests
 * mpi/coll/axon_mpi_coll_persist.c makes and runs).
 *
 * A persistent request is an ordinary engine request that keeps its arguments; MPI_Start puts the same
 * object in motion again (no allocation per round), the completion calls leave it inactive instead of
 * freeing it, and MPI_Request_free frees it (at once when inactive, at completion when active). A
 * buffered one copies its data into the attached buffer at each start and is complete at once. The
 * large-count (_c) forms of the five constructors share their int calls' function (int64_t counts). */
#include "mpi/coll/axon_mpi_coll.h"
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

static int axon_mpi_persistent_init(const char *func, enum axon_request_kind kind, enum axon_send_mode mode,
                                    const void *buf, int64_t count, MPI_Datatype datatype, int peer, int tag,
                                    MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!request)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "request is a NULL pointer");
    AXON_MPI_CHECK_BUFFER(func, c, buf, count, datatype, dt, peer);
    if (kind == AXON_REQUEST_SEND) {
        AXON_MPI_CHECK_DEST(func, c, peer);
        AXON_MPI_CHECK_SEND_TAG(func, c, tag);
    } else {
        AXON_MPI_CHECK_SOURCE(func, c, peer);
        AXON_MPI_CHECK_RECV_TAG(func, c, tag);
    }
    struct axon_request *req;
    int rc = axon_pt2pt_request_init(kind, (void *)buf, count, &dt, peer, tag, &c->pt2pt, mode, &req);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "out of requests");
    req->persistent = true;
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Send_init)
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Send_init", AXON_REQUEST_SEND, AXON_SEND_STANDARD, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Ssend_init)
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Ssend_init", AXON_REQUEST_SEND, AXON_SEND_SYNC, buf, count, datatype,
                                    dest, tag, comm, request);
}

/* A ready send is a standard send: the receive is known to be posted, which a standard send never needs. */
AXON_MPI_WEAK(Rsend_init)
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Rsend_init", AXON_REQUEST_SEND, AXON_SEND_STANDARD, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Bsend_init)
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Bsend_init", AXON_REQUEST_SEND, AXON_SEND_BUFFERED, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Recv_init)
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Recv_init", AXON_REQUEST_RECV, AXON_SEND_STANDARD, buf, count, datatype,
                                    source, tag, comm, request);
}

AXON_MPI_WEAK(Send_init_c)
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Send_init_c", AXON_REQUEST_SEND, AXON_SEND_STANDARD, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Ssend_init_c)
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Ssend_init_c", AXON_REQUEST_SEND, AXON_SEND_SYNC, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Rsend_init_c)
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Rsend_init_c", AXON_REQUEST_SEND, AXON_SEND_STANDARD, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Bsend_init_c)
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Bsend_init_c", AXON_REQUEST_SEND, AXON_SEND_BUFFERED, buf, count, datatype,
                                    dest, tag, comm, request);
}

AXON_MPI_WEAK(Recv_init_c)
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return axon_mpi_persistent_init("MPI_Recv_init_c", AXON_REQUEST_RECV, AXON_SEND_STANDARD, buf, count, datatype,
                                    source, tag, comm, request);
}

/* Starts one persistent request, after the checks. */
static int axon_mpi_start_one(const char *func, struct axon_request *req)
{
    if (req->kind == AXON_REQUEST_COLL)
        return axon_mpi_coll_persist_start(func, req);
    if (req->partitioned) {
        int rc = axon_mpi_partitioned_start(req);
        if (rc != MPI_SUCCESS) {
            req->active = false;
            return axon_mpi_error(NULL, func, rc, "the partitioned operation could not start");
        }
        return MPI_SUCCESS;
    }
    if (req->kind != AXON_REQUEST_SEND || req->send.mode != AXON_SEND_BUFFERED) {
        int rc = axon_pt2pt_start(req);
        if (rc != MPI_SUCCESS) {
            req->active = false;
            return axon_mpi_error(NULL, func, rc, "the operation could not start");
        }
        return MPI_SUCCESS;
    }
    const char *why;
    int rc = axon_mpi_bsend_start(req->comm, req->buf, req->count, &req->dt, req->peer, req->tag, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "buffered send to rank %d: %s", req->peer, why);
    req->status.MPI_ERROR = MPI_SUCCESS;
    req->active = true;
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    return MPI_SUCCESS;
}

/* The request of a handle that MPI_Start may start: persistent and inactive. */
static int axon_mpi_start_lookup(const char *func, MPI_Request handle, int i, struct axon_request **req)
{
    *req = axon_mpi_request_get(handle);
    if (!*req)
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "request[%d] %s is not a request", i,
                              AXON_MPI_HANDLE_NAME(handle));
    if (!(*req)->persistent)
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "request[%d] is not a persistent request", i);
    if ((*req)->active)
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "request[%d] is active (started and not completed)", i);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Start)
int PMPI_Start(MPI_Request *request)
{
    static const char func[] = "MPI_Start";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    struct axon_request *req;
    int rc = axon_mpi_start_lookup(func, *request, 0, &req);
    return rc == MPI_SUCCESS ? axon_mpi_start_one(func, req) : rc;
}

AXON_MPI_WEAK(Startall)
int PMPI_Startall(int count, MPI_Request array_of_requests[])
{
    static const char func[] = "MPI_Startall";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (count < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %d is negative", count);
    if (count > 0 && !array_of_requests)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the request array is NULL");
    /* Every handle is checked before any starts, so an error leaves none of them started. */
    for (int i = 0; i < count; i++) {
        struct axon_request *req;
        int rc = axon_mpi_start_lookup(func, array_of_requests[i], i, &req);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (int i = 0; i < count; i++) {
        int rc = axon_mpi_start_one(func, axon_mpi_request_get(array_of_requests[i]));
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
