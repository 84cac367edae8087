/* Requests at the API: handles, statuses, and the completion calls (MPI_Wait, MPI_Test and their
 * -all, -any and -some forms, MPI_Request_free, MPI_Request_get_status, MPI_Cancel, MPI_Test_cancelled,
 * MPI_Get_count(_c)). Generalized requests take the same paths; their callbacks are run by
 * mpi/pt2pt/axon_mpi_grequest.c. */
#include "mpi/axon_mpi.h"
#include "mpi/coll/axon_mpi_coll.h"

#include <limits.h>
#include <stdlib.h>

struct axon_request *axon_mpi_request_get(MPI_Request handle)
{
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_REQUEST_HANDLE_BASE)
        return handle == AXON_REQUEST_HANDLE_SENT ? &axon_request_sent : NULL;
    return axon_request_get(h & 0x03ffffffu);
}

static int64_t axon_mpi_status_bytes(const MPI_Status *s)
{
    return (int64_t)(uint32_t)s->count_lo | ((int64_t)((uint32_t)s->count_hi_and_cancelled >> 1) << 32);
}

void axon_mpi_status_set(MPI_Status *status, const struct axon_request *req)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    int64_t bytes = 0;
    if (req->kind == AXON_REQUEST_RECV && !req->cancelled) {
        int64_t capacity = req->count * req->dt.size;
        bytes = req->bytes < capacity ? req->bytes : capacity;
    } else if (req->kind == AXON_REQUEST_COMPOSITE && !req->cancelled) {
        bytes = req->bytes; /* its receiving child's, bounded by that child's buffer */
    }
    status->MPI_SOURCE = req->kind == AXON_REQUEST_SEND ? MPI_ANY_SOURCE : req->status.MPI_SOURCE;
    status->MPI_TAG = req->kind == AXON_REQUEST_SEND ? MPI_ANY_TAG
                      : req->partitioned && req->status.MPI_SOURCE != MPI_PROC_NULL ? axon_mpi_partitioned_tag(req)
                                                                                    : req->status.MPI_TAG;
    status->count_lo = (int)(uint32_t)(bytes & 0xffffffff);
    status->count_hi_and_cancelled = (int)((uint32_t)(bytes >> 32) << 1 | (req->cancelled ? 1u : 0u));
}

int axon_mpi_request_complete(MPI_Request *handle, struct axon_request *req, MPI_Status *status)
{
    if (req->kind == AXON_REQUEST_USER)
        return axon_mpi_grequest_finish(handle, req, status);
    int rc = req->status.MPI_ERROR;
    axon_mpi_status_set(status, req);
    if (req->persistent) {
        /* Inactive until the next MPI_Start; the handle stays the user's. */
        req->active = false;
        return rc;
    }
    axon_request_free(req);
    *handle = MPI_REQUEST_NULL;
    return rc;
}

/* A persistent request between a completion and the next MPI_Start: the completion calls treat it as
 * they treat MPI_REQUEST_NULL (an empty status at once). */
static bool axon_mpi_request_inactive(const struct axon_request *req)
{
    return req->persistent && !req->active;
}

/* The empty status of MPI_REQUEST_NULL (and of inactive requests): the standard's, error MPI_SUCCESS
 * included. */
static void axon_mpi_status_empty(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->count_lo = 0;
    status->count_hi_and_cancelled = 0;
}

#define AXON_MPI_REQUEST_LOOKUP(func, handle, req)                                                   \
    do {                                                                                             \
        (req) = axon_mpi_request_get(handle);                                                        \
        if (!(req))                                                                                  \
            return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "invalid request %s", AXON_MPI_HANDLE_NAME((handle))); \
    } while (0)

AXON_MPI_WEAK(Wait)
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    static const char func[] = "MPI_Wait";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    if (*request == MPI_REQUEST_NULL) {
        axon_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    struct axon_request *req;
    AXON_MPI_REQUEST_LOOKUP(func, *request, req);
    if (axon_mpi_request_inactive(req)) {
        axon_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    axon_request_wait(req);
    int rc = axon_mpi_request_complete(request, req, status);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the request failed");
}

AXON_MPI_WEAK(Test)
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    static const char func[] = "MPI_Test";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request or flag is a NULL pointer");
    if (*request == MPI_REQUEST_NULL) {
        *flag = 1;
        axon_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    struct axon_request *req;
    AXON_MPI_REQUEST_LOOKUP(func, *request, req);
    if (axon_mpi_request_inactive(req)) {
        *flag = 1;
        axon_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = axon_request_test(req);
    if (!*flag)
        return MPI_SUCCESS;
    int rc = axon_mpi_request_complete(request, req, status);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the request failed");
}

/* The request arrays of the multi-request calls live on the stack up to this many (a message-rate
 * window is commonly 64), on the heap beyond. */
#define AXON_MPI_REQUESTS_ON_STACK 64

/* Looks up every handle of an array first, so a bad one is reported before anything completes. */
static int axon_mpi_requests_lookup(const char *func, int count, MPI_Request handles[], struct axon_request **reqs)
{
    for (int i = 0; i < count; i++) {
        reqs[i] = NULL;
        if (handles[i] == MPI_REQUEST_NULL)
            continue;
        reqs[i] = axon_mpi_request_get(handles[i]);
        if (!reqs[i])
            return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "requests[%d] = %s is not a request", i,
                                  AXON_MPI_HANDLE_NAME(handles[i]));
        if (axon_mpi_request_inactive(reqs[i]))
            reqs[i] = NULL;
    }
    return MPI_SUCCESS;
}

#define AXON_MPI_REQUESTS_ARGS(func, count, handles)                                                 \
    do {                                                                                             \
        if ((count) < 0)                                                                             \
            return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %d is negative", (count));       \
        if ((count) > 0 && !(handles))                                                               \
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the request array is NULL");             \
    } while (0)

/* Completes every non-null request of the array that has completed; fills statuses (with MPI_ERROR)
 * when given. Returns MPI_ERR_IN_STATUS if one of them failed. */
static int axon_mpi_requests_finish(int count, MPI_Request handles[], struct axon_request **reqs,
                                    MPI_Status statuses[])
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        if (!reqs[i]) {
            axon_mpi_status_empty(st);
            if (st != MPI_STATUS_IGNORE)
                st->MPI_ERROR = MPI_SUCCESS;
            continue;
        }
        int err = axon_mpi_request_complete(&handles[i], reqs[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = err;
        if (err != MPI_SUCCESS)
            rc = MPI_ERR_IN_STATUS;
    }
    return rc;
}

AXON_MPI_WEAK(Waitall)
int PMPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    static const char func[] = "MPI_Waitall";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_REQUESTS_ARGS(func, count, array_of_requests);
    struct axon_request *small[AXON_MPI_REQUESTS_ON_STACK], **reqs = count <= AXON_MPI_REQUESTS_ON_STACK ? small : malloc(sizeof(*reqs) * (size_t)count);
    if (!reqs)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for %d requests", count);
    int rc = axon_mpi_requests_lookup(func, count, array_of_requests, reqs);
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < count; i++)
            if (reqs[i] && !atomic_load_explicit(&reqs[i]->complete, memory_order_acquire))
                axon_request_wait(reqs[i]);
        rc = axon_mpi_requests_finish(count, array_of_requests, reqs, array_of_statuses);
        if (rc != MPI_SUCCESS)
            rc = axon_mpi_error(NULL, func, rc, "one of the requests failed (see the statuses)");
    }
    if (reqs != small)
        free(reqs);
    return rc;
}

AXON_MPI_WEAK(Testall)
int PMPI_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
    static const char func[] = "MPI_Testall";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_REQUESTS_ARGS(func, count, array_of_requests);
    if (!flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "flag is a NULL pointer");
    struct axon_request *small[AXON_MPI_REQUESTS_ON_STACK], **reqs = count <= AXON_MPI_REQUESTS_ON_STACK ? small : malloc(sizeof(*reqs) * (size_t)count);
    if (!reqs)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for %d requests", count);
    int rc = axon_mpi_requests_lookup(func, count, array_of_requests, reqs);
    if (rc == MPI_SUCCESS) {
        int all = 1;
        for (int i = 0; i < count && all; i++)
            if (reqs[i] && !axon_request_test(reqs[i]))
                all = 0;
        *flag = all;
        /* Complete none unless all are: Testall is all or nothing. */
        if (all) {
            rc = axon_mpi_requests_finish(count, array_of_requests, reqs, array_of_statuses);
            if (rc != MPI_SUCCESS)
                rc = axon_mpi_error(NULL, func, rc, "one of the requests failed (see the statuses)");
        }
    }
    if (reqs != small)
        free(reqs);
    return rc;
}

/* Shared by Waitany and Testany: the first completed request, if any. */
static int axon_mpi_any(const char *func, int count, MPI_Request handles[], int *index, int *flag,
                        MPI_Status *status, bool wait)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_REQUESTS_ARGS(func, count, handles);
    if (!index)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "index is a NULL pointer");
    struct axon_request *small[AXON_MPI_REQUESTS_ON_STACK], **reqs = count <= AXON_MPI_REQUESTS_ON_STACK ? small : malloc(sizeof(*reqs) * (size_t)count);
    if (!reqs)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for %d requests", count);
    int rc = axon_mpi_requests_lookup(func, count, handles, reqs);
    if (rc != MPI_SUCCESS)
        goto out;
    int active = 0;
    for (int i = 0; i < count; i++)
        active += reqs[i] != NULL;
    *index = MPI_UNDEFINED;
    if (active == 0) {
        *flag = 1;
        axon_mpi_status_empty(status);
        goto out;
    }
    if (wait)
        axon_request_wait_any(reqs, count);
    for (int pass = 0; pass < 2 && *index == MPI_UNDEFINED; pass++) {
        for (int i = 0; i < count; i++) {
            if (reqs[i] && (pass ? axon_request_test(reqs[i]) : atomic_load(&reqs[i]->complete))) {
                *index = i;
                break;
            }
        }
    }
    *flag = *index != MPI_UNDEFINED;
    if (*flag) {
        rc = axon_mpi_request_complete(&handles[*index], reqs[*index], status);
        if (rc != MPI_SUCCESS)
            rc = axon_mpi_error(NULL, func, rc, "request %d failed", *index);
    }
out:
    if (reqs != small)
        free(reqs);
    return rc;
}

AXON_MPI_WEAK(Waitany)
int PMPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    int flag;
    return axon_mpi_any("MPI_Waitany", count, array_of_requests, index, &flag, status, true);
}

AXON_MPI_WEAK(Testany)
int PMPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)
{
    if (!flag) {
        AXON_MPI_REQUIRE_ACTIVE("MPI_Testany");
        return axon_mpi_error(NULL, "MPI_Testany", MPI_ERR_ARG, "flag is a NULL pointer");
    }
    return axon_mpi_any("MPI_Testany", count, array_of_requests, index, flag, status, false);
}

/* Shared by Waitsome and Testsome: every completed request. */
static int axon_mpi_some(const char *func, int incount, MPI_Request handles[], int *outcount, int indices[],
                         MPI_Status statuses[], bool wait)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_REQUESTS_ARGS(func, incount, handles);
    if (!outcount || (incount > 0 && !indices))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "outcount or indices is a NULL pointer");
    struct axon_request *small[16], **reqs = incount <= 16 ? small : malloc(sizeof(*reqs) * (size_t)incount);
    if (!reqs)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for %d requests", incount);
    int rc = axon_mpi_requests_lookup(func, incount, handles, reqs);
    if (rc != MPI_SUCCESS)
        goto out;
    int active = 0;
    for (int i = 0; i < incount; i++)
        active += reqs[i] != NULL;
    if (active == 0) {
        *outcount = MPI_UNDEFINED;
        goto out;
    }
    if (wait)
        axon_request_wait_any(reqs, incount);
    int n = 0;
    for (int i = 0; i < incount; i++) {
        if (reqs[i] && axon_request_test(reqs[i])) {
            MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
            int err = axon_mpi_request_complete(&handles[i], reqs[i], st);
            if (st != MPI_STATUS_IGNORE)
                st->MPI_ERROR = err;
            if (err != MPI_SUCCESS)
                rc = MPI_ERR_IN_STATUS;
            indices[n++] = i;
        }
    }
    *outcount = n;
    if (rc != MPI_SUCCESS)
        rc = axon_mpi_error(NULL, func, rc, "one of the requests failed (see the statuses)");
out:
    if (reqs != small)
        free(reqs);
    return rc;
}

AXON_MPI_WEAK(Waitsome)
int PMPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[])
{
    return axon_mpi_some("MPI_Waitsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                         true);
}

AXON_MPI_WEAK(Testsome)
int PMPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                  MPI_Status array_of_statuses[])
{
    return axon_mpi_some("MPI_Testsome", incount, array_of_requests, outcount, array_of_indices, array_of_statuses,
                         false);
}

AXON_MPI_WEAK(Request_free)
int PMPI_Request_free(MPI_Request *request)
{
    static const char func[] = "MPI_Request_free";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    struct axon_request *req;
    AXON_MPI_REQUEST_LOOKUP(func, *request, req);
    if (req->persistent && req->kind == AXON_REQUEST_COLL) {
        /* Its plan goes too; refused while it runs. */
        int rc = axon_mpi_coll_persist_free(func, req);
        if (rc != MPI_SUCCESS)
            return rc;
    } else if (req->kind == AXON_REQUEST_USER) {
        *request = MPI_REQUEST_NULL;
        int rc = axon_mpi_grequest_free(req);
        return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the free_fn callback returned %d", rc);
    } else {
        if (req->partitioned)
            axon_mpi_partitioned_free(req);
        axon_request_free(req);
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Request_get_status)
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    static const char func[] = "MPI_Request_get_status";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "flag is a NULL pointer");
    if (request == MPI_REQUEST_NULL) {
        *flag = 1;
        axon_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    struct axon_request *req;
    AXON_MPI_REQUEST_LOOKUP(func, request, req);
    if (axon_mpi_request_inactive(req)) {
        *flag = 1;
        axon_mpi_status_empty(status);
        return MPI_SUCCESS;
    }
    *flag = axon_request_test(req);
    if (*flag && req->kind == AXON_REQUEST_USER) {
        int rc = axon_mpi_grequest_status(req, status);
        return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the query_fn callback returned %d", rc);
    }
    if (*flag)
        axon_mpi_status_set(status, req);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cancel)
int PMPI_Cancel(MPI_Request *request)
{
    static const char func[] = "MPI_Cancel";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    struct axon_request *req;
    AXON_MPI_REQUEST_LOOKUP(func, *request, req);
    if (axon_mpi_request_inactive(req))
        return MPI_SUCCESS; /* nothing is in flight */
    if (req->kind == AXON_REQUEST_COLL)
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "a nonblocking collective cannot be cancelled");
    if (req->kind == AXON_REQUEST_USER) {
        int rc = axon_mpi_grequest_cancel(req);
        return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the cancel_fn callback returned %d", rc);
    }
    return axon_pt2pt_cancel(req);
}

AXON_MPI_WEAK(Test_cancelled)
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    static const char func[] = "MPI_Test_cancelled";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!status || status == MPI_STATUS_IGNORE || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "status or flag is a NULL pointer");
    *flag = status->count_hi_and_cancelled & 1;
    return MPI_SUCCESS;
}

static int axon_mpi_count_of(const char *func, const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    struct axon_dtype_layout dt;
    if (!status || status == MPI_STATUS_IGNORE || !count)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "status or count is a NULL pointer");
    if (!axon_mpi_datatype_get(datatype, &dt))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(datatype));
    int64_t bytes = axon_mpi_status_bytes(status);
    if (dt.size == 0)
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    else
        *count = bytes % dt.size ? MPI_UNDEFINED : bytes / dt.size;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Get_count)
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    static const char func[] = "MPI_Get_count";
    AXON_MPI_REQUIRE_ACTIVE(func);
    MPI_Count c = 0;
    if (!count)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "count is a NULL pointer");
    int rc = axon_mpi_count_of(func, status, datatype, &c);
    if (rc == MPI_SUCCESS)
        *count = c > INT_MAX ? MPI_UNDEFINED : (int)c;
    return rc;
}

AXON_MPI_WEAK(Get_count_c)
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    static const char func[] = "MPI_Get_count_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_count_of(func, status, datatype, count);
}
