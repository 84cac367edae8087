/* A communicator's own buffer for buffered sends (MPI 4.1 section 3.6): MPI_Comm_attach_buffer,
 * MPI_Comm_detach_buffer (and their large-count _c forms, sharing one function of int64_t sizes),
 * MPI_Comm_flush_buffer and MPI_Comm_iflush_buffer. This file checks the communicator and raises its
 * errors through the communicator's handler; the buffer itself (its blocks, drains and flushes, which a
 * buffered send on the communicator uses before the process's) is mpi/pt2pt/axon_mpi_bsend.c's, the same
 * object and code as the process's buffer, so both behave alike: at most one buffer each (a second attach
 * is MPI_ERR_BUFFER), MPI_BUFFER_AUTOMATIC allocates per message, detach waits for the buffer's messages
 * to be sent. A duplicate does not inherit the buffer (it lives in the communicator object), and
 * MPI_Comm_free of a communicator that still has one drains and forgets it (axon_mpi_bsend_comm_free). */
#include "mpi/pt2pt/axon_mpi_bsend.h"

#include <limits.h>

static int axon_mpi_comm_attach_buffer(const char *func, MPI_Comm comm, void *buffer, int64_t size)
{
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    return axon_bsend_attach_call(func, AXON_BSEND_COMM(c), buffer, size);
}

AXON_MPI_WEAK(Comm_attach_buffer)
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    return axon_mpi_comm_attach_buffer("MPI_Comm_attach_buffer", comm, buffer, size);
}

AXON_MPI_WEAK(Comm_attach_buffer_c)
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    return axon_mpi_comm_attach_buffer("MPI_Comm_attach_buffer_c", comm, buffer, size);
}

/* max_size: what the call's size argument can hold; a larger buffer is MPI_ERR_COUNT and stays attached. */
static int axon_mpi_comm_detach_buffer(const char *func, MPI_Comm comm, void *buffer_addr, int64_t max_size,
                                       int64_t *size)
{
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    return axon_bsend_detach_call(func, AXON_BSEND_COMM(c), buffer_addr, max_size, size);
}

AXON_MPI_WEAK(Comm_detach_buffer)
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    int64_t got = 0;
    int rc = axon_mpi_comm_detach_buffer("MPI_Comm_detach_buffer", comm, buffer_addr, INT_MAX, size ? &got : NULL);
    if (rc == MPI_SUCCESS)
        *size = (int)got;
    return rc;
}

AXON_MPI_WEAK(Comm_detach_buffer_c)
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    int64_t got = 0;
    int rc = axon_mpi_comm_detach_buffer("MPI_Comm_detach_buffer_c", comm, buffer_addr, INT64_MAX,
                                         size ? &got : NULL);
    if (rc == MPI_SUCCESS)
        *size = got;
    return rc;
}

AXON_MPI_WEAK(Comm_flush_buffer)
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    static const char func[] = "MPI_Comm_flush_buffer";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    return axon_bsend_flush_call(AXON_BSEND_COMM(c));
}

AXON_MPI_WEAK(Comm_iflush_buffer)
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    static const char func[] = "MPI_Comm_iflush_buffer";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    return axon_bsend_iflush_call(func, AXON_BSEND_COMM(c), request);
}
