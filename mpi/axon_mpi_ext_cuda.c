/* Axon's CUDA extension queries (mpi-ext.h). CUDA support arrives with cuda_support/; until then every
 * buffer is host memory and these say so. */
#include "mpi/axon_mpi.h"

AXON_MPIX_WEAK(Query_cuda_support)
int PMPIX_Query_cuda_support(void)
{
    return 0;
}

AXON_MPIX_WEAK(GPU_query_support)
int PMPIX_GPU_query_support(int gpu_type, int *is_supported)
{
    if (!is_supported)
        return axon_mpi_error(NULL, "MPIX_GPU_query_support", MPI_ERR_ARG, "is_supported is a NULL pointer");
    (void)gpu_type;
    *is_supported = 0;
    return MPI_SUCCESS;
}
