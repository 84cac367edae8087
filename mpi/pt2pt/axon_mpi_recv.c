/* The receives and probes: MPI_Recv, MPI_Irecv, MPI_Sendrecv, MPI_Sendrecv_replace, MPI_Probe,
 * MPI_Iprobe. The receives and send-receives have large-count (_c) forms of MPI 4, which share one
 * function with their int call, taking int64_t counts (mpi/pt2pt/axon_mpi_pt2pt_check.h). */
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <stdlib.h>
#include <string.h>

static int axon_mpi_irecv_common(const char *func, void *buf, int64_t count, MPI_Datatype datatype, int source,
                                 int tag, MPI_Comm comm, struct axon_request **req)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_CHECK_RECV(func, comm, c, buf, count, datatype, dt, source, tag);
    int rc = axon_pt2pt_irecv(buf, count, &dt, source, tag, &c->pt2pt, req);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the receive could not start");
    return MPI_SUCCESS;
}

static int axon_mpi_recv_blocking(const char *func, void *buf, int64_t count, MPI_Datatype datatype, int source,
                                  int tag, MPI_Comm comm, MPI_Status *status)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_CHECK_RECV(func, comm, c, buf, count, datatype, dt, source, tag);
    /* A blocking receive needs no request from the pool: it lives on this stack until the data is in. */
    struct axon_request req;
    axon_pt2pt_recv(buf, count, &dt, source, tag, &c->pt2pt, &req);
    axon_mpi_status_set(status, &req);
    if (req.status.MPI_ERROR != MPI_SUCCESS)
        return axon_mpi_error(c, func, req.status.MPI_ERROR, "the receive failed");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Recv)
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return axon_mpi_recv_blocking("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

AXON_MPI_WEAK(Recv_c)
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status *status)
{
    return axon_mpi_recv_blocking("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}

static int axon_mpi_irecv_handle(const char *func, void *buf, int64_t count, MPI_Datatype datatype, int source,
                                 int tag, MPI_Comm comm, MPI_Request *request)
{
    if (!request) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "request is a NULL pointer");
    }
    struct axon_request *req;
    int rc = axon_mpi_irecv_common(func, buf, count, datatype, source, tag, comm, &req);
    if (rc == MPI_SUCCESS)
        *request = axon_mpi_request_handle(req);
    return rc;
}

AXON_MPI_WEAK(Irecv)
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    return axon_mpi_irecv_handle("MPI_Irecv", buf, count, datatype, source, tag, comm, request);
}

AXON_MPI_WEAK(Irecv_c)
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    return axon_mpi_irecv_handle("MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}

static int axon_mpi_sendrecv(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype,
                             int dest, int sendtag, void *recvbuf, int64_t recvcount, MPI_Datatype recvtype,
                             int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt, rdt;
    AXON_MPI_CHECK_SENDRECV(func, comm, c, sendbuf, sendcount, sendtype, sdt, dest, sendtag, recvbuf, recvcount,
                            recvtype, rdt, source, recvtag);
    struct axon_request *rreq, *sreq;
    int rc = axon_pt2pt_irecv(recvbuf, recvcount, &rdt, source, recvtag, &c->pt2pt, &rreq);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the receive could not start");
    rc = axon_pt2pt_isend(sendbuf, sendcount, &sdt, dest, sendtag, &c->pt2pt, AXON_SEND_STANDARD, &sreq);
    if (rc != MPI_SUCCESS) {
        axon_pt2pt_cancel(rreq);
        axon_request_wait(rreq);
        axon_request_free(rreq);
        return axon_mpi_error(c, func, rc, "the send to rank %d could not start", dest);
    }
    axon_request_wait(sreq);
    axon_request_wait(rreq);
    MPI_Request sh = axon_mpi_request_handle(sreq), rh = axon_mpi_request_handle(rreq);
    int src = axon_mpi_request_complete(&sh, sreq, MPI_STATUS_IGNORE);
    int rrc = axon_mpi_request_complete(&rh, rreq, status);
    if (src != MPI_SUCCESS || rrc != MPI_SUCCESS)
        return axon_mpi_error(c, func, src != MPI_SUCCESS ? src : rrc, "the exchange failed");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Sendrecv)
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return axon_mpi_sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
}

AXON_MPI_WEAK(Sendrecv_c)
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status)
{
    return axon_mpi_sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
}

void *axon_mpi_packed_copy(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int64_t bytes)
{
    void *packed = malloc(bytes ? (size_t)bytes : 1);
    if (!packed || bytes == 0)
        return packed;
    if (dt->contig) {
        memcpy(packed, (const char *)buf + dt->true_lb, (size_t)bytes);
        return packed;
    }
    struct axon_dloop_cursor cursor;
    if (axon_dloop_cursor_init(&cursor, dt->loop, count, dt->extent) != 0) {
        free(packed);
        return NULL;
    }
    axon_dloop_pack(&cursor, buf, packed, bytes);
    axon_dloop_cursor_fini(&cursor);
    return packed;
}

/* The outgoing data is packed into a temporary buffer first, so the incoming message can land in the
 * user's buffer while the outgoing one is still in flight. */
static int axon_mpi_sendrecv_replace(const char *func, void *buf, int64_t count, MPI_Datatype datatype, int dest,
                                     int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_CHECK_SENDRECV_REPLACE(func, comm, c, buf, count, datatype, dt, dest, sendtag, source, recvtag);
    int64_t bytes = dest == MPI_PROC_NULL ? 0 : count * dt.size;
    void *packed = axon_mpi_packed_copy(buf, count, &dt, bytes);
    if (!packed)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory for a %lld-byte copy", (long long)bytes);
    struct axon_dtype_layout bytes_dt = {.size = 1, .extent = 1, .contig = true};
    struct axon_request *rreq, *sreq;
    int rc = axon_pt2pt_irecv(buf, count, &dt, source, recvtag, &c->pt2pt, &rreq);
    if (rc != MPI_SUCCESS) {
        free(packed);
        return axon_mpi_error(c, func, rc, "the receive could not start");
    }
    rc = axon_pt2pt_isend(packed, bytes, &bytes_dt, dest, sendtag, &c->pt2pt, AXON_SEND_STANDARD, &sreq);
    if (rc != MPI_SUCCESS) {
        axon_pt2pt_cancel(rreq);
        axon_request_wait(rreq);
        axon_request_free(rreq);
        free(packed);
        return axon_mpi_error(c, func, rc, "the send to rank %d could not start", dest);
    }
    axon_request_wait(sreq);
    axon_request_wait(rreq);
    free(packed);
    MPI_Request sh = axon_mpi_request_handle(sreq), rh = axon_mpi_request_handle(rreq);
    int src = axon_mpi_request_complete(&sh, sreq, MPI_STATUS_IGNORE);
    int rrc = axon_mpi_request_complete(&rh, rreq, status);
    if (src != MPI_SUCCESS || rrc != MPI_SUCCESS)
        return axon_mpi_error(c, func, src != MPI_SUCCESS ? src : rrc, "the exchange failed");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Sendrecv_replace)
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                          int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return axon_mpi_sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag,
                                     comm, status);
}

AXON_MPI_WEAK(Sendrecv_replace_c)
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return axon_mpi_sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag,
                                     comm, status);
}

static int axon_mpi_probe_check(const char *func, int source, int tag, MPI_Comm comm, struct axon_comm **c)
{
    *c = axon_mpi_comm_get(comm);
    if (!*c)
        return axon_mpi_error(NULL, func, MPI_ERR_COMM, "invalid communicator %s", AXON_MPI_HANDLE_NAME(comm));
    AXON_MPI_CHECK_SOURCE(func, *c, source);
    AXON_MPI_CHECK_RECV_TAG(func, *c, tag);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    static const char func[] = "MPI_Iprobe";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc = axon_mpi_probe_check(func, source, tag, comm, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "flag is a NULL pointer");
    return axon_pt2pt_iprobe(source, tag, &c->pt2pt, flag, status == MPI_STATUS_IGNORE ? NULL : status);
}

struct axon_mpi_probe_wait {
    struct axon_comm *c;
    int source, tag;
    MPI_Status *status;
    bool lost; /* no message, and the source is lost (or, for MPI_ANY_SOURCE, a member) */
};

static bool axon_mpi_probe_found(void *arg)
{
    struct axon_mpi_probe_wait *w = arg;
    int flag = 0;
    axon_pt2pt_iprobe(w->source, w->tag, &w->c->pt2pt, &flag, w->status);
    if (!flag && __builtin_expect(axon_runtime_lost_generation() != 0, 0))
        w->lost = axon_pt2pt_lost_peer(&w->c->pt2pt, w->source);
    return flag != 0 || w->lost;
}

AXON_MPI_WEAK(Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    static const char func[] = "MPI_Probe";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc = axon_mpi_probe_check(func, source, tag, comm, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_mpi_probe_wait w = {c, source, tag, status == MPI_STATUS_IGNORE ? NULL : status, false};
    axon_ucx_wait(axon_mpi_probe_found, &w);
    if (w.lost)
        return axon_mpi_error(c, func, MPI_ERR_PROC_ABORTED, "no message can come: %s is lost",
                              source == MPI_ANY_SOURCE ? "a rank of the communicator" : "the source");
    return MPI_SUCCESS;
}
