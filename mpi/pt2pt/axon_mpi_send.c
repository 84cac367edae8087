/* The sends: MPI_Send, MPI_Ssend, MPI_Rsend and their nonblocking forms, each with its large-count (_c)
 * form of MPI 4. A ready send is a standard send (the standard allows it: the receive is known to be
 * posted). The int call and the _c call share one function taking an int64_t count, which the engine
 * takes as it is: the int call's only extra work is the widening. */
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

static int axon_mpi_isend_common(const char *func, const void *buf, int64_t count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, enum axon_send_mode mode, struct axon_request **req)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_CHECK_SEND(func, comm, c, buf, count, datatype, dt, dest, tag);
    int rc = axon_pt2pt_isend(buf, count, &dt, dest, tag, &c->pt2pt, mode, req);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the send to rank %d could not start", dest);
    return MPI_SUCCESS;
}

static int axon_mpi_send_blocking(const char *func, const void *buf, int64_t count, MPI_Datatype datatype, int dest,
                                  int tag, MPI_Comm comm, enum axon_send_mode mode)
{
    if (mode == AXON_SEND_STANDARD) {
        /* The common case costs no request: contiguous data in standard mode. */
        struct axon_comm *c;
        struct axon_dtype_layout dt;
        AXON_MPI_CHECK_SEND(func, comm, c, buf, count, datatype, dt, dest, tag);
        if (dt.contig) {
            int rc = axon_pt2pt_send_contig((const char *)buf + dt.true_lb, count * dt.size, dest, tag,
                                            &c->pt2pt);
            if (rc != MPI_SUCCESS)
                return axon_mpi_error(c, func, rc, "the send to rank %d failed", dest);
            return MPI_SUCCESS;
        }
    }
    struct axon_request *req;
    int rc = axon_mpi_isend_common(func, buf, count, datatype, dest, tag, comm, mode, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_request_wait(req);
    MPI_Request handle = axon_mpi_request_handle(req);
    rc = axon_mpi_request_complete(&handle, req, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, rc, "the send to rank %d failed", dest);
    return MPI_SUCCESS;
}

static int axon_mpi_isend_handle(const char *func, const void *buf, int64_t count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, enum axon_send_mode mode, MPI_Request *request)
{
    if (!request) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "request is a NULL pointer");
    }
    if (mode == AXON_SEND_STANDARD) {
        /* A send that is over as soon as it starts (a small message into the node's ring) needs no
         * request of its own. */
        struct axon_comm *c;
        struct axon_dtype_layout dt;
        AXON_MPI_CHECK_SEND(func, comm, c, buf, count, datatype, dt, dest, tag);
        int rc = axon_pt2pt_isend_now(buf, count, &dt, dest, tag, &c->pt2pt);
        if (rc == MPI_SUCCESS) {
            *request = AXON_REQUEST_HANDLE_SENT;
            return MPI_SUCCESS;
        }
        if (rc != MPI_ERR_PENDING)
            return axon_mpi_error(c, func, rc, "the send to rank %d could not start", dest);
        struct axon_request *req;
        rc = axon_pt2pt_isend(buf, count, &dt, dest, tag, &c->pt2pt, mode, &req);
        if (rc != MPI_SUCCESS)
            return axon_mpi_error(c, func, rc, "the send to rank %d could not start", dest);
        *request = axon_mpi_request_handle(req);
        return MPI_SUCCESS;
    }
    struct axon_request *req;
    int rc = axon_mpi_isend_common(func, buf, count, datatype, dest, tag, comm, mode, &req);
    if (rc == MPI_SUCCESS)
        *request = axon_mpi_request_handle(req);
    return rc;
}

AXON_MPI_WEAK(Send)
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_send_blocking("MPI_Send", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD);
}

AXON_MPI_WEAK(Ssend)
int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_send_blocking("MPI_Ssend", buf, count, datatype, dest, tag, comm, AXON_SEND_SYNC);
}

AXON_MPI_WEAK(Rsend)
int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_send_blocking("MPI_Rsend", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD);
}

AXON_MPI_WEAK(Isend)
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return axon_mpi_isend_handle("MPI_Isend", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD, request);
}

AXON_MPI_WEAK(Issend)
int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return axon_mpi_isend_handle("MPI_Issend", buf, count, datatype, dest, tag, comm, AXON_SEND_SYNC, request);
}

AXON_MPI_WEAK(Irsend)
int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return axon_mpi_isend_handle("MPI_Irsend", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD, request);
}

AXON_MPI_WEAK(Send_c)
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_send_blocking("MPI_Send_c", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD);
}

AXON_MPI_WEAK(Ssend_c)
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_send_blocking("MPI_Ssend_c", buf, count, datatype, dest, tag, comm, AXON_SEND_SYNC);
}

AXON_MPI_WEAK(Rsend_c)
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_send_blocking("MPI_Rsend_c", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD);
}

AXON_MPI_WEAK(Isend_c)
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    return axon_mpi_isend_handle("MPI_Isend_c", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD, request);
}

AXON_MPI_WEAK(Issend_c)
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return axon_mpi_isend_handle("MPI_Issend_c", buf, count, datatype, dest, tag, comm, AXON_SEND_SYNC, request);
}

AXON_MPI_WEAK(Irsend_c)
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return axon_mpi_isend_handle("MPI_Irsend_c", buf, count, datatype, dest, tag, comm, AXON_SEND_STANDARD,
                                 request);
}
