/* MPI 4.1's MPI_Request_get_status_all, _any and _some: MPI_Testall, MPI_Testany and MPI_Testsome that
 * leave the requests as they are (not freed, not deactivated), built on MPI_Request_get_status, which
 * does so for one request. Null and inactive requests count as complete with an empty status, as there. */
#include "mpi/axon_mpi.h"

static int axon_request_status_check(const char *func, int count, const MPI_Request *requests)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (count < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %d is negative", count);
    if (count > 0 && !requests)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_requests is a NULL pointer");
    return MPI_SUCCESS;
}

/* Whether a request is MPI_REQUEST_NULL or an inactive persistent one (an unknown handle is not: asked
 * about, it gives MPI_Request_get_status's MPI_ERR_REQUEST). */
static bool axon_request_is_idle(MPI_Request request)
{
    if (request == MPI_REQUEST_NULL)
        return true;
    const struct axon_request *req = axon_mpi_request_get(request);
    return req && req->persistent && !req->active;
}

AXON_MPI_WEAK(Request_get_status_all)
int PMPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status *array_of_statuses)
{
    static const char func[] = "MPI_Request_get_status_all";
    int rc = axon_request_status_check(func, count, array_of_requests);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "flag is a NULL pointer");
    /* First whether all are complete; only then the statuses, as MPI_Testall fills them all or none. */
    *flag = 1;
    for (int i = 0; i < count && *flag; i++) {
        rc = PMPI_Request_get_status(array_of_requests[i], flag, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (!*flag || array_of_statuses == MPI_STATUSES_IGNORE)
        return MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        int done = 0;
        rc = PMPI_Request_get_status(array_of_requests[i], &done, &array_of_statuses[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Request_get_status_any)
int PMPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index, int *flag,
                                MPI_Status *status)
{
    static const char func[] = "MPI_Request_get_status_any";
    int rc = axon_request_status_check(func, count, array_of_requests);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!index || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "index or flag is a NULL pointer");
    /* Like MPI_Testany: only active requests can be the one; none active gives flag 1, MPI_UNDEFINED. */
    bool any_active = false;
    for (int i = 0; i < count; i++) {
        if (axon_request_is_idle(array_of_requests[i]))
            continue;
        any_active = true;
        int done = 0;
        rc = PMPI_Request_get_status(array_of_requests[i], &done, status);
        if (rc != MPI_SUCCESS)
            return rc;
        if (done) {
            *index = i;
            *flag = 1;
            return MPI_SUCCESS;
        }
    }
    *index = MPI_UNDEFINED;
    *flag = any_active ? 0 : 1;
    if (!any_active && status && status != MPI_STATUS_IGNORE)
        PMPI_Request_get_status(MPI_REQUEST_NULL, flag, status);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Request_get_status_some)
int PMPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status *array_of_statuses)
{
    static const char func[] = "MPI_Request_get_status_some";
    int rc = axon_request_status_check(func, incount, array_of_requests);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!outcount || (incount > 0 && !array_of_indices))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "outcount or array_of_indices is a NULL pointer");
    /* Like MPI_Testsome: MPI_UNDEFINED when no request is active. */
    bool any_active = false;
    int n = 0;
    for (int i = 0; i < incount; i++) {
        if (axon_request_is_idle(array_of_requests[i]))
            continue;
        any_active = true;
        int done = 0;
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[n];
        rc = PMPI_Request_get_status(array_of_requests[i], &done, st);
        if (rc != MPI_SUCCESS)
            return rc;
        if (done)
            array_of_indices[n++] = i;
    }
    *outcount = any_active ? n : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
