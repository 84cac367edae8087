/* Axon MPI's extensions to the MPI interface: the CUDA-awareness queries that GPU programs test before
 * they hand device pointers to MPI (the names Open MPI and MPICH use, so such programs build unchanged).
 *
 * MPIX_CUDA_AWARE_SUPPORT says at compile time whether this build moves GPU buffers; it is 0 until
 * Axon's cuda_support/ layer lands. MPIX_Query_cuda_support() says the same at run time (it will also
 * need a CUDA driver to be present once the layer exists).
 */
#ifndef AXON_MPI_EXT_H
#define AXON_MPI_EXT_H

#include <mpi.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define MPIX_CUDA_AWARE_SUPPORT 0

/* GPU kinds of MPIX_GPU_query_support (MPICH's values). */
#define MPIX_GPU_SUPPORT_CUDA 0
#define MPIX_GPU_SUPPORT_ZE 1
#define MPIX_GPU_SUPPORT_HIP 2

int MPIX_Query_cuda_support(void);
int PMPIX_Query_cuda_support(void);
int MPIX_GPU_query_support(int gpu_type, int *is_supported);
int PMPIX_GPU_query_support(int gpu_type, int *is_supported);

#if defined(__cplusplus)
}
#endif

#endif /* AXON_MPI_EXT_H */
