/* Axon MPI's extensions to the MPI interface: the CUDA-awareness queries that GPU programs test before
 * they hand device pointers to MPI (the names Open MPI and MPICH use, so such programs build unchanged).
 *
 * MPIX_CUDA_AWARE_SUPPORT says at compile time that the library can take GPU (CUDA) buffers in every
 * point-to-point call and collective (it is in mpi.h as well, where PyTorch looks for it).
 * MPIX_Query_cuda_support() says whether it does in this run: 1 while CUDA support is on (a driver and a
 * GPU were found at MPI_Init and AXON_CUDA is not 0), else 0; MPIX_GPU_query_support agrees for
 * MPIX_GPU_SUPPORT_CUDA and says 0 for the other kinds.
 */
#ifndef AXON_MPI_EXT_H
#define AXON_MPI_EXT_H

#include <mpi.h>

#if defined(__cplusplus)
extern "C" {
#endif

#ifndef MPIX_CUDA_AWARE_SUPPORT
#define MPIX_CUDA_AWARE_SUPPORT 1
#endif

/* GPU kinds of MPIX_GPU_query_support (MPICH's values). */
#define MPIX_GPU_SUPPORT_CUDA 0
#define MPIX_GPU_SUPPORT_ZE 1
#define MPIX_GPU_SUPPORT_HIP 2

int MPIX_Query_cuda_support(void);
int PMPIX_Query_cuda_support(void);
int MPIX_GPU_query_support(int gpu_type, int *is_supported);
int PMPIX_GPU_query_support(int gpu_type, int *is_supported);
/* MPICH's: HIP and Level Zero buffers are not supported (always 0). */
int MPIX_Query_hip_support(void);
int PMPIX_Query_hip_support(void);
int MPIX_Query_ze_support(void);
int PMPIX_Query_ze_support(void);
/* MPICH's fault tolerance extension (ULFM), for a library in which no failure is survived
 * (mpi/axon_mpi_ext_ft.c): its error classes at MPICH's values, agreement, shrinking, acknowledgement;
 * MPIX_Comm_revoke is MPI_ERR_UNSUPPORTED_OPERATION. */
#define MPIX_ERR_PROC_FAILED 101
#define MPIX_ERR_PROC_FAILED_PENDING 102
#define MPIX_ERR_REVOKED 103
int MPIX_Comm_agree(MPI_Comm comm, int *flag);
int PMPIX_Comm_agree(MPI_Comm comm, int *flag);
int MPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm);
int MPIX_Comm_failure_ack(MPI_Comm comm);
int PMPIX_Comm_failure_ack(MPI_Comm comm);
int MPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp);
int MPIX_Comm_revoke(MPI_Comm comm);
int PMPIX_Comm_revoke(MPI_Comm comm);
/* MPICH's names of MPI 4.1's MPI_Remove_error_class, _code and _string. */
int MPIX_Delete_error_class(int errorclass);
int PMPIX_Delete_error_class(int errorclass);
int MPIX_Delete_error_code(int errorcode);
int PMPIX_Delete_error_code(int errorcode);
int MPIX_Delete_error_string(int errorcode);
int PMPIX_Delete_error_string(int errorcode);

#if defined(__cplusplus)
}
#endif

#endif /* AXON_MPI_EXT_H */
