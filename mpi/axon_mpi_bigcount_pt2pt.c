/* The large-count (_c) point-to-point calls of MPI 4, and MPI_Get_count_c, MPI_Get_elements_c and the
 * buffer calls' _c forms. Each is its int twin when every count fits in an int, MPI_ERR_COUNT when one
 * does not (mpi/axon_mpi_bigcount.h); errors the int call finds are raised under its own name. */
#include "mpi/axon_mpi_bigcount.h"

#include <limits.h>

AXON_MPI_WEAK(Send_c)
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Send_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Send(buf, count_, datatype, dest, tag, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Bsend_c)
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Bsend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bsend(buf, count_, datatype, dest, tag, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ssend_c)
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ssend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ssend(buf, count_, datatype, dest, tag, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Rsend_c)
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Rsend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Rsend(buf, count_, datatype, dest, tag, comm);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Recv_c)
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status *status)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Recv_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Recv(buf, count_, datatype, source, tag, comm, status);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Isend_c)
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Isend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isend(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ibsend_c)
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ibsend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ibsend(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Issend_c)
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Issend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Issend(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Irsend_c)
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Irsend_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Irsend(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Irecv_c)
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Irecv_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Irecv(buf, count_, datatype, source, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Send_init_c)
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Send_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Send_init(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Bsend_init_c)
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Bsend_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bsend_init(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Ssend_init_c)
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Ssend_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Ssend_init(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Rsend_init_c)
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Rsend_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Rsend_init(buf, count_, datatype, dest, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Recv_init_c)
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Recv_init_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Recv_init(buf, count_, datatype, source, tag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Sendrecv_c)
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status *status)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Sendrecv_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Sendrecv(sendbuf, sendcount_, sendtype, dest, sendtag, recvbuf, recvcount_, recvtype, source, recvtag,
                           comm, status);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Sendrecv_replace_c)
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Sendrecv_replace_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Sendrecv_replace(buf, count_, datatype, dest, sendtag, source, recvtag, comm, status);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Isendrecv_c)
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                     MPI_Request *request)
{
    struct axon_bigcount bc;
    int sendcount_;
    int recvcount_;
    int rc = axon_bigcount_begin(&bc, "MPI_Isendrecv_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sendcount_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &recvcount_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isendrecv(sendbuf, sendcount_, sendtype, dest, sendtag, recvbuf, recvcount_, recvtype, source,
                            recvtag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Isendrecv_replace_c)
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                             int recvtag, MPI_Comm comm, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Isendrecv_replace_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isendrecv_replace(buf, count_, datatype, dest, sendtag, source, recvtag, comm, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Mrecv_c)
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Mrecv_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Mrecv(buf, count_, datatype, message, status);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Imrecv_c)
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request)
{
    struct axon_bigcount bc;
    int count_;
    int rc = axon_bigcount_begin(&bc, "MPI_Imrecv_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Imrecv(buf, count_, datatype, message, request);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    struct axon_bigcount bc;
    int size_;
    int rc = axon_bigcount_begin(&bc, "MPI_Buffer_attach_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "size", size, &size_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Buffer_attach(buffer, size_);
    axon_bigcount_end(&bc);
    return rc;
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

/* MPI_Get_elements_x already answers in MPI_Count. */
AXON_MPI_WEAK(Get_elements_c)
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Get_elements_c");
    return PMPI_Get_elements_x(status, datatype, count);
}
