/* MPI_Reduce_local_c, the one large-count (_c) call of the datatype family that still narrows: it is its
 * int twin when the count fits in an int, MPI_ERR_COUNT otherwise (mpi/axon_mpi_bigcount.h). The
 * constructors' and queries' _c forms share one 64-bit function with their int calls, in their files
 * (mpi/axon_mpi_datatype_create.c, _subarray.c, _query.c). */
#include "mpi/axon_mpi_bigcount.h"

AXON_MPI_WEAK(Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Reduce_local_c", MPI_COMM_NULL, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Reduce_local(inbuf, inoutbuf, n, datatype, op) : rc;
}
