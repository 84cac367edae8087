/* Internal header of the large-count (_c) calls that still narrow: MPI_Buffer_attach_c
 * (axon_mpi_bigcount_pt2pt.c), and the external32 calls, which check their own counts
 * (axon_mpi_datatype_external.c). The process's attached buffer keeps to an int size (MPI_Buffer_detach
 * returns it as one), so a size beyond INT_MAX is MPI_ERR_COUNT, raised on the handler of errors on no object with a
 * message naming the argument. Every other _c call (a communicator's buffer calls included) takes its counts at full width: the point-to-point and datatype calls
 * share one function of int64_t counts with their int calls, in those calls' files; the collectives,
 * neighborhood collectives and MPI_Reduce_local_c make the same plan as their int calls
 * (axon_mpi_bigcount_coll.c, axon_mpi_bigcount_neighbor.c, axon_mpi_op.c). */
#ifndef AXON_MPI_BIGCOUNT_H
#define AXON_MPI_BIGCOUNT_H

#include "mpi/axon_mpi.h"

/* value as an int, or MPI_ERR_COUNT raised for func on comm (MPI_COMM_NULL: the handler of errors on no object)
 * when it does not fit. */
int axon_bigcount_scalar(const char *func, MPI_Comm comm, const char *what, MPI_Count value, int *out);

#endif
