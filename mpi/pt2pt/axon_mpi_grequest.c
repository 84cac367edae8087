/* Generalized requests: MPI_Grequest_start and MPI_Grequest_complete, and what the completion calls,
 * MPI_Request_free, MPI_Request_get_status and MPI_Cancel do with them (mpi/pt2pt/axon_mpi_request.c asks
 * this file).
 *
 * A generalized request is a request of the engine's pool of kind AXON_REQUEST_USER, so every
 * completion call (MPI_Wait, MPI_Test and their -all, -any and -some forms) waits on it as on any other:
 * MPI_Grequest_complete, from any thread, completes it under the transport lock. The callbacks are the
 * program's and run in the calling thread with no lock held: query_fn fills the status when a
 * completion call or MPI_Request_get_status reports it, free_fn runs once, when a completion call
 * retires the request or MPI_Request_free frees it (which may come before MPI_Grequest_complete: the
 * request then goes back to the pool when it completes), and cancel_fn on MPI_Cancel, told whether the
 * request has completed. An error that query_fn or free_fn returns is the completion call's error (in
 * the status for the calls with several requests). */
#include "mpi/axon_mpi.h"

#include <stdlib.h>

struct axon_grequest {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
};

/* The status query_fn starts from: an empty one, as for a request with nothing received. */
static void axon_grequest_status_init(MPI_Status *st)
{
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->count_lo = 0;
    st->count_hi_and_cancelled = 0;
}

int axon_mpi_grequest_finish(MPI_Request *handle, struct axon_request *req, MPI_Status *status)
{
    struct axon_grequest *g = req->upper;
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    axon_grequest_status_init(st);
    int rc = g->query_fn ? g->query_fn(g->extra_state, st) : MPI_SUCCESS;
    int rc_free = g->free_fn ? g->free_fn(g->extra_state) : MPI_SUCCESS;
    free(g);
    req->upper = NULL;
    axon_request_free(req);
    *handle = MPI_REQUEST_NULL;
    return rc != MPI_SUCCESS ? rc : rc_free;
}

int axon_mpi_grequest_status(struct axon_request *req, MPI_Status *status)
{
    struct axon_grequest *g = req->upper;
    MPI_Status local;
    MPI_Status *st = status == MPI_STATUS_IGNORE ? &local : status;
    axon_grequest_status_init(st);
    return g->query_fn ? g->query_fn(g->extra_state, st) : MPI_SUCCESS;
}

int axon_mpi_grequest_free(struct axon_request *req)
{
    struct axon_grequest *g = req->upper;
    int rc = g->free_fn ? g->free_fn(g->extra_state) : MPI_SUCCESS;
    free(g);
    req->upper = NULL;
    axon_request_free(req); /* back to the pool now, or when MPI_Grequest_complete comes */
    return rc;
}

int axon_mpi_grequest_cancel(struct axon_request *req)
{
    struct axon_grequest *g = req->upper;
    int complete = atomic_load_explicit(&req->complete, memory_order_acquire) != 0;
    return g->cancel_fn ? g->cancel_fn(g->extra_state, complete) : MPI_SUCCESS;
}

AXON_MPI_WEAK(Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    static const char func[] = "MPI_Grequest_start";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    /* The standard has the three callbacks given; MPICH accepts null ones as doing nothing, and so do we. */
    struct axon_grequest *g = malloc(sizeof(*g));
    if (!g)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a generalized request");
    *g = (struct axon_grequest){query_fn, free_fn, cancel_fn, extra_state};
    struct axon_request *req;
    int rc = axon_request_alloc_user(g, &req);
    if (rc != MPI_SUCCESS) {
        free(g);
        return axon_mpi_error(NULL, func, rc, "out of requests");
    }
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request)
{
    static const char func[] = "MPI_Grequest_complete";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_request *req = axon_mpi_request_get(request);
    if (!req || req->kind != AXON_REQUEST_USER)
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "%s is not a generalized request",
                              AXON_MPI_HANDLE_NAME(request));
    if (atomic_load_explicit(&req->complete, memory_order_acquire))
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "generalized request %s is complete already",
                              AXON_MPI_HANDLE_NAME(request));
    axon_request_user_complete(req);
    return MPI_SUCCESS;
}
