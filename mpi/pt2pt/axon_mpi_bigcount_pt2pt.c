/* The large-count (_c) forms of the process's buffer calls, MPI_Buffer_attach_c and MPI_Buffer_detach_c.
 * The process's buffer keeps to an int size (MPI_Buffer_detach returns it as one), so a larger one is
 * MPI_ERR_COUNT (mpi/axon_mpi_bigcount.h); MPI_BUFFER_AUTOMATIC's size is ignored. A communicator's buffer
 * calls take any size (mpi/pt2pt/axon_mpi_bsend_comm.c). The point-to-point _c calls are not here: each shares
 * one function, taking int64_t counts, with its int call, in that call's file. */
#include "mpi/axon_mpi_bigcount.h"

AXON_MPI_WEAK(Buffer_attach_c)
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    int n = 0, rc = MPI_SUCCESS;
    /* MPI_BUFFER_AUTOMATIC's size is ignored: nothing to narrow. */
    if (buffer != MPI_BUFFER_AUTOMATIC)
        rc = axon_bigcount_scalar("MPI_Buffer_attach_c", MPI_COMM_NULL, "size", size, &n);
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
