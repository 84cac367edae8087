/* The narrowing of MPI_Buffer_attach_c's size to the int that the buffered sends keep
 * (mpi/axon_mpi_bigcount.h): the value as an int, or MPI_ERR_COUNT when it does not fit. */
#include "mpi/axon_mpi_bigcount.h"

#include <limits.h>

int axon_bigcount_scalar(const char *func, MPI_Comm comm, const char *what, MPI_Count value, int *out)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (value > INT_MAX || value < INT_MIN)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_COUNT,
                              "%s is %lld: this call takes values up to INT_MAX in Axon (every other _c call "
                              "takes any)", what, (long long)value);
    *out = (int)value;
    return MPI_SUCCESS;
}
