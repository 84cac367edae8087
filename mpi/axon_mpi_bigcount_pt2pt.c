/* The large-count (_c) point-to-point calls of MPI 4, and MPI_Get_count_c and the buffer calls' _c
 * forms. Each is its int twin when every count fits in an int, MPI_ERR_COUNT when one
 * does not (mpi/axon_mpi_bigcount.h); errors the int call finds are raised under its own name.
 * (MPI_Get_elements_c is with the other element counts, in mpi/axon_mpi_datatype_query.c.) The four
 * send modes, and their nonblocking and persistent forms, take the same arguments, so they share one
 * narrowing function per signature, handed the int call to end in. */
#include "mpi/axon_mpi_bigcount.h"

#include <limits.h>

typedef int send_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm);
typedef int send_request_fn(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
typedef int recv_request_fn(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static int send_c(send_fn *send, const char *func, const void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm)
{
    int n;
    int rc = axon_bigcount_scalar(func, comm, "count", count, &n);
    return rc == MPI_SUCCESS ? send(buf, n, datatype, dest, tag, comm) : rc;
}

/* MPI_Isend and the other nonblocking sends, and the persistent MPI_Send_init and its kin. */
static int send_request_c(send_request_fn *send, const char *func, const void *buf, MPI_Count count,
                          MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    int n;
    int rc = axon_bigcount_scalar(func, comm, "count", count, &n);
    return rc == MPI_SUCCESS ? send(buf, n, datatype, dest, tag, comm, request) : rc;
}

/* MPI_Irecv and MPI_Recv_init. */
static int recv_request_c(recv_request_fn *recv, const char *func, void *buf, MPI_Count count, MPI_Datatype datatype,
                          int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    int n;
    int rc = axon_bigcount_scalar(func, comm, "count", count, &n);
    return rc == MPI_SUCCESS ? recv(buf, n, datatype, source, tag, comm, request) : rc;
}

/* MPI_Sendrecv and MPI_Isendrecv: a count on each side, for their own int calls. */
static int sendrecv_counts(const char *func, MPI_Comm comm, MPI_Count sendcount, MPI_Count recvcount, int *sn,
                           int *rn)
{
    struct axon_bigcount bc;
    int rc = axon_bigcount_begin(&bc, func, comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, sn);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, rn);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Send_c)
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_c(PMPI_Send, "MPI_Send_c", buf, count, datatype, dest, tag, comm);
}

AXON_MPI_WEAK(Bsend_c)
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_c(PMPI_Bsend, "MPI_Bsend_c", buf, count, datatype, dest, tag, comm);
}

AXON_MPI_WEAK(Ssend_c)
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_c(PMPI_Ssend, "MPI_Ssend_c", buf, count, datatype, dest, tag, comm);
}

AXON_MPI_WEAK(Rsend_c)
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return send_c(PMPI_Rsend, "MPI_Rsend_c", buf, count, datatype, dest, tag, comm);
}

AXON_MPI_WEAK(Recv_c)
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status *status)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Recv_c", comm, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Recv(buf, n, datatype, source, tag, comm, status) : rc;
}

AXON_MPI_WEAK(Isend_c)
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    return send_request_c(PMPI_Isend, "MPI_Isend_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Ibsend_c)
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return send_request_c(PMPI_Ibsend, "MPI_Ibsend_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Issend_c)
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return send_request_c(PMPI_Issend, "MPI_Issend_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Irsend_c)
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return send_request_c(PMPI_Irsend, "MPI_Irsend_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Irecv_c)
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    return recv_request_c(PMPI_Irecv, "MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}

AXON_MPI_WEAK(Send_init_c)
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return send_request_c(PMPI_Send_init, "MPI_Send_init_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Bsend_init_c)
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return send_request_c(PMPI_Bsend_init, "MPI_Bsend_init_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Ssend_init_c)
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return send_request_c(PMPI_Ssend_init, "MPI_Ssend_init_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Rsend_init_c)
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    return send_request_c(PMPI_Rsend_init, "MPI_Rsend_init_c", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Recv_init_c)
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    return recv_request_c(PMPI_Recv_init, "MPI_Recv_init_c", buf, count, datatype, source, tag, comm, request);
}

AXON_MPI_WEAK(Sendrecv_c)
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status)
{
    int sn, rn;
    int rc = sendrecv_counts("MPI_Sendrecv_c", comm, sendcount, recvcount, &sn, &rn);
    return rc == MPI_SUCCESS ? PMPI_Sendrecv(sendbuf, sn, sendtype, dest, sendtag, recvbuf, rn, recvtype, source,
                                             recvtag, comm, status)
                             : rc;
}

AXON_MPI_WEAK(Sendrecv_replace_c)
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status *status)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Sendrecv_replace_c", comm, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Sendrecv_replace(buf, n, datatype, dest, sendtag, source, recvtag, comm, status)
                             : rc;
}

AXON_MPI_WEAK(Isendrecv_c)
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                     MPI_Request *request)
{
    int sn, rn;
    int rc = sendrecv_counts("MPI_Isendrecv_c", comm, sendcount, recvcount, &sn, &rn);
    return rc == MPI_SUCCESS ? PMPI_Isendrecv(sendbuf, sn, sendtype, dest, sendtag, recvbuf, rn, recvtype, source,
                                              recvtag, comm, request)
                             : rc;
}

AXON_MPI_WEAK(Isendrecv_replace_c)
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                             int recvtag, MPI_Comm comm, MPI_Request *request)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Isendrecv_replace_c", comm, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Isendrecv_replace(buf, n, datatype, dest, sendtag, source, recvtag, comm, request)
                             : rc;
}

/* A matched message has no communicator argument: a count that does not fit is raised on MPI_COMM_WORLD's
 * handler. */
AXON_MPI_WEAK(Mrecv_c)
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Mrecv_c", MPI_COMM_NULL, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Mrecv(buf, n, datatype, message, status) : rc;
}

AXON_MPI_WEAK(Imrecv_c)
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Imrecv_c", MPI_COMM_NULL, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Imrecv(buf, n, datatype, message, request) : rc;
}

AXON_MPI_WEAK(Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Buffer_attach_c", MPI_COMM_NULL, "size", size, &n);
    return rc == MPI_SUCCESS ? PMPI_Buffer_attach(buffer, n) : rc;
}

AXON_MPI_WEAK(Buffer_detach_c)
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    static const char func[] = "MPI_Buffer_detach_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size is a NULL pointer");
    int n = 0;
    int rc = PMPI_Buffer_detach(buffer_addr, &n);
    if (rc == MPI_SUCCESS)
        *size = n;
    return rc;
}

/* A count of whole elements: the int call's answer widened (MPI_UNDEFINED stays MPI_UNDEFINED). Messages
 * of more than INT_MAX elements cannot arrive through Axon's int engines, so the int answer is exact. */
AXON_MPI_WEAK(Get_count_c)
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    static const char func[] = "MPI_Get_count_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!count)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "count is a NULL pointer");
    int n = 0;
    int rc = PMPI_Get_count(status, datatype, &n);
    if (rc == MPI_SUCCESS)
        *count = n;
    return rc;
}
