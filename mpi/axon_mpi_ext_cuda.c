/* Axon's CUDA extension queries (mpi-ext.h). They answer yes while CUDA support is on (a CUDA driver
 * with a GPU was loaded at MPI_Init and AXON_CUDA is not 0): then every point-to-point call and every
 * collective takes GPU buffers (pt2pt/axon_pt2pt_stage.c, coll/axon_coll_stage.c). Without a driver,
 * with AXON_CUDA=0, or in a build without cuda.h every buffer is host memory and they answer no, so a
 * program that asks before handing MPI device pointers keeps working. */
#include "mpi/axon_mpi.h"

#include "memkind/axon_memkind.h"

AXON_MPIX_WEAK(Query_cuda_support)
int PMPIX_Query_cuda_support(void)
{
    return axon_memkind_kind_enabled(AXON_MEMKIND_CUDA) ? 1 : 0;
}

AXON_MPIX_WEAK(GPU_query_support)
int PMPIX_GPU_query_support(int gpu_type, int *is_supported)
{
    if (!is_supported)
        return axon_mpi_error(NULL, "MPIX_GPU_query_support", MPI_ERR_ARG, "is_supported is a NULL pointer");
    /* Only CUDA: Level Zero and HIP buffers are host memory to us. */
    *is_supported = gpu_type == MPIX_GPU_SUPPORT_CUDA && axon_memkind_kind_enabled(AXON_MEMKIND_CUDA);
    return MPI_SUCCESS;
}

/* MPICH's queries for the other GPU kinds (its libmpi.so.12 exports them): no, always. */
AXON_MPIX_WEAK(Query_hip_support)
int PMPIX_Query_hip_support(void)
{
    return 0;
}

AXON_MPIX_WEAK(Query_ze_support)
int PMPIX_Query_ze_support(void)
{
    return 0;
}
