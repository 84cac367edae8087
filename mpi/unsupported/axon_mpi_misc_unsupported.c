/* MPI 4 calls Axon does not implement that belong to no larger missing feature: user data representations
 * (MPI_Register_datarep, for MPI-IO, which Axon lacks). Each returns
 * MPI_ERR_UNSUPPORTED_OPERATION through its communicator's
 * handler (MPI_COMM_WORLD's without one) and sets its output handle to the null handle. They exist
 * because Python bindings (mpi4py) reference every MPI function and load the library with every symbol
 * resolved. */
#include "mpi/axon_mpi.h"

static int axon_mpi_misc_unsupported(const char *func, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "%s is not implemented in Axon", func);
}

AXON_MPI_WEAK(Register_datarep)
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    (void)datarep, (void)read_conversion_fn, (void)write_conversion_fn, (void)dtype_file_extent_fn, (void)extra_state;
    return axon_mpi_misc_unsupported("MPI_Register_datarep", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Register_datarep_c)
int PMPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    (void)datarep, (void)read_conversion_fn, (void)write_conversion_fn, (void)dtype_file_extent_fn, (void)extra_state;
    return axon_mpi_misc_unsupported("MPI_Register_datarep_c", MPI_COMM_NULL);
}
