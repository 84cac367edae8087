/* MPI 4.0's nonblocking send-receives, MPI_Isendrecv and MPI_Isendrecv_replace: the receive and the send
 * start at once and become the children of one composite request (pt2pt/pt2pt.h), which completes when
 * both have and reports the receive's status. The replacing form sends a packed copy of the buffer,
 * owned by the composite, so the incoming message may land in the buffer while the outgoing one is
 * still in flight. Each has a large-count (_c) form sharing its function, which takes int64_t counts. */
#include "mpi/axon_mpi.h"
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

#include <stdlib.h>
#include <string.h>

/* Starts both halves and joins them; scratch passes to the request (freed on failure too). */
static int axon_isendrecv_start(const char *func, struct axon_comm *c, const void *sendbuf, int64_t sendcount,
                                const struct axon_dtype_layout *sdt, int dest, int sendtag, void *recvbuf,
                                int64_t recvcount, const struct axon_dtype_layout *rdt, int source, int recvtag,
                                void *scratch, MPI_Request *request)
{
    struct axon_request *children[2], *req;
    int rc = axon_pt2pt_irecv(recvbuf, recvcount, rdt, source, recvtag, &c->pt2pt, &children[0]);
    if (rc != MPI_SUCCESS) {
        free(scratch);
        return axon_mpi_error(c, func, rc, "the receive could not start");
    }
    rc = axon_pt2pt_isend(sendbuf, sendcount, sdt, dest, sendtag, &c->pt2pt, AXON_SEND_STANDARD, &children[1]);
    if (rc != MPI_SUCCESS) {
        axon_pt2pt_cancel(children[0]);
        axon_request_wait(children[0]);
        axon_request_free(children[0]);
        free(scratch);
        return axon_mpi_error(c, func, rc, "the send to rank %d could not start", dest);
    }
    rc = axon_request_composite(children, 2, 0, scratch, &req);
    if (rc != MPI_SUCCESS) {
        /* Nothing owns the halves: finish them here. */
        axon_request_wait(children[1]);
        axon_request_free(children[1]);
        axon_pt2pt_cancel(children[0]);
        axon_request_wait(children[0]);
        axon_request_free(children[0]);
        free(scratch);
        return axon_mpi_error(c, func, rc, "out of requests");
    }
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

static int axon_mpi_isendrecv(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype,
                              int dest, int sendtag, void *recvbuf, int64_t recvcount, MPI_Datatype recvtype,
                              int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt, rdt;
    AXON_MPI_CHECK_SENDRECV(func, comm, c, sendbuf, sendcount, sendtype, sdt, dest, sendtag, recvbuf, recvcount,
                            recvtype, rdt, source, recvtag);
    if (!request)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "request is a NULL pointer");
    return axon_isendrecv_start(func, c, sendbuf, sendcount, &sdt, dest, sendtag, recvbuf, recvcount, &rdt, source,
                                recvtag, NULL, request);
}

AXON_MPI_WEAK(Isendrecv)
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Request *request)
{
    return axon_mpi_isendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                              recvtype, source, recvtag, comm, request);
}

AXON_MPI_WEAK(Isendrecv_c)
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                     MPI_Request *request)
{
    return axon_mpi_isendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                              recvtype, source, recvtag, comm, request);
}

static int axon_mpi_isendrecv_replace(const char *func, void *buf, int64_t count, MPI_Datatype datatype, int dest,
                                      int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_CHECK_SENDRECV_REPLACE(func, comm, c, buf, count, datatype, dt, dest, sendtag, source, recvtag);
    if (!request)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "request is a NULL pointer");
    int64_t bytes = dest == MPI_PROC_NULL ? 0 : count * dt.size;
    void *packed = axon_mpi_packed_copy(buf, count, &dt, bytes);
    if (!packed)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory for a %lld-byte copy", (long long)bytes);
    struct axon_dtype_layout bytes_dt = {.size = 1, .extent = 1, .contig = true};
    return axon_isendrecv_start(func, c, packed, bytes, &bytes_dt, dest, sendtag, buf, count, &dt, source, recvtag,
                                packed, request);
}

AXON_MPI_WEAK(Isendrecv_replace)
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                           int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return axon_mpi_isendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag,
                                      comm, request);
}

AXON_MPI_WEAK(Isendrecv_replace_c)
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                             int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return axon_mpi_isendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                                      recvtag, comm, request);
}
