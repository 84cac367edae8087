/* Matched probes: MPI_Mprobe, MPI_Improbe, MPI_Mrecv and MPI_Imrecv. A matched probe takes the message
 * out of the matching queue, so no other receive (another thread's, say) can take it before the
 * MPI_Mrecv that names it. Message handles are MPICH-ABI request-class handles of their own range
 * (0xec000000 | index of the queued message); MPI_MESSAGE_NO_PROC stands for a probe of MPI_PROC_NULL.
 * The receives' large-count (_c) forms share their int calls' functions (int64_t counts). */
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#define AXON_MESSAGE_HANDLE_BASE 0xec000000u

static MPI_Message axon_mpi_message_handle(uint32_t index)
{
    return (MPI_Message)(AXON_MESSAGE_HANDLE_BASE | index);
}

/* A probe of MPI_PROC_NULL. Like every call that returns one status, it leaves the MPI_ERROR field
 * alone: only the calls that return several statuses write it. */
static void axon_mpi_status_proc_null(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->count_lo = 0;
    status->count_hi_and_cancelled = 0;
}

static int axon_mpi_mprobe_check(const char *func, int source, int tag, MPI_Comm comm, MPI_Message *message,
                                 struct axon_comm **c)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, *c);
    AXON_MPI_CHECK_SOURCE(func, *c, source);
    AXON_MPI_CHECK_RECV_TAG(func, *c, tag);
    if (!message)
        return axon_mpi_error(*c, func, MPI_ERR_ARG, "message is a NULL pointer");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Improbe)
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    static const char func[] = "MPI_Improbe";
    struct axon_comm *c;
    int rc = axon_mpi_mprobe_check(func, source, tag, comm, message, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "flag is a NULL pointer");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        axon_mpi_status_proc_null(status);
        return MPI_SUCCESS;
    }
    uint32_t index;
    axon_pt2pt_improbe(source, tag, &c->pt2pt, flag, status == MPI_STATUS_IGNORE ? NULL : status, &index);
    if (*flag)
        *message = axon_mpi_message_handle(index);
    return MPI_SUCCESS;
}

struct axon_mpi_mprobe_wait {
    struct axon_comm *c;
    int source, tag;
    MPI_Status *status;
    uint32_t index;
    bool lost; /* no message, and the source is lost (or, for MPI_ANY_SOURCE, a member) */
};

static bool axon_mpi_mprobe_found(void *arg)
{
    struct axon_mpi_mprobe_wait *w = arg;
    int flag = 0;
    axon_pt2pt_improbe(w->source, w->tag, &w->c->pt2pt, &flag, w->status, &w->index);
    if (!flag && __builtin_expect(axon_runtime_lost_generation() != 0, 0))
        w->lost = axon_pt2pt_lost_peer(&w->c->pt2pt, w->source);
    return flag != 0 || w->lost;
}

AXON_MPI_WEAK(Mprobe)
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    static const char func[] = "MPI_Mprobe";
    struct axon_comm *c;
    int rc = axon_mpi_mprobe_check(func, source, tag, comm, message, &c);
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        axon_mpi_status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct axon_mpi_mprobe_wait w = {c, source, tag, status == MPI_STATUS_IGNORE ? NULL : status, 0, false};
    axon_ucx_wait(axon_mpi_mprobe_found, &w);
    if (w.lost)
        return axon_mpi_error(c, func, MPI_ERR_PROC_ABORTED, "no message can come: %s is lost",
                              source == MPI_ANY_SOURCE ? "a rank of the communicator" : "the source");
    *message = axon_mpi_message_handle(w.index);
    return MPI_SUCCESS;
}

/* Starts the receive of a probed message; *req is NULL for MPI_MESSAGE_NO_PROC. */
static int axon_mpi_imrecv_common(const char *func, void *buf, int64_t count, MPI_Datatype datatype,
                                  MPI_Message *message, struct axon_request **req)
{
    struct axon_dtype_layout dt;
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!message)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "message is a NULL pointer");
    int peer = *message == MPI_MESSAGE_NO_PROC ? MPI_PROC_NULL : 0; /* MPI_DATATYPE_NULL is fine for no peer */
    AXON_MPI_CHECK_BUFFER(func, NULL, buf, count, datatype, dt, peer);
    *req = NULL;
    if (*message == MPI_MESSAGE_NO_PROC) {
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    unsigned h = (unsigned)*message;
    if ((h & 0xfc000000u) != AXON_MESSAGE_HANDLE_BASE || !axon_pt2pt_message_valid(h & 0x03ffffffu))
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "%s is not a message from MPI_Mprobe or MPI_Improbe",
                              AXON_MPI_HANDLE_NAME(h));
    int rc = axon_pt2pt_imrecv(buf, count, &dt, h & 0x03ffffffu, req);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "the receive of the probed message could not start");
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

static int axon_mpi_mrecv(const char *func, void *buf, int64_t count, MPI_Datatype datatype, MPI_Message *message,
                          MPI_Status *status)
{
    struct axon_request *req;
    int rc = axon_mpi_imrecv_common(func, buf, count, datatype, message, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!req) {
        axon_mpi_status_proc_null(status);
        return MPI_SUCCESS;
    }
    axon_request_wait(req);
    MPI_Request handle = axon_mpi_request_handle(req);
    rc = axon_mpi_request_complete(&handle, req, status);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the receive failed");
}

AXON_MPI_WEAK(Mrecv)
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    return axon_mpi_mrecv("MPI_Mrecv", buf, count, datatype, message, status);
}

AXON_MPI_WEAK(Mrecv_c)
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    return axon_mpi_mrecv("MPI_Mrecv_c", buf, count, datatype, message, status);
}

static int axon_mpi_imrecv(const char *func, void *buf, int64_t count, MPI_Datatype datatype, MPI_Message *message,
                           MPI_Request *request)
{
    if (!request) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    }
    struct axon_request *req;
    int rc = axon_mpi_imrecv_common(func, buf, count, datatype, message, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!req) {
        /* A receive from MPI_PROC_NULL: born complete, with that status. */
        struct axon_dtype_layout none = {.size = 0, .extent = 0, .contig = true};
        rc = axon_pt2pt_irecv(NULL, 0, &none, MPI_PROC_NULL, MPI_ANY_TAG, NULL, &req);
        if (rc != MPI_SUCCESS)
            return axon_mpi_error(NULL, func, rc, "out of requests");
    }
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Imrecv)
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    return axon_mpi_imrecv("MPI_Imrecv", buf, count, datatype, message, request);
}

AXON_MPI_WEAK(Imrecv_c)
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    return axon_mpi_imrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}
