/* The collective calls' shared bodies: each checks its arguments, builds the collective's schedule
 * (coll/coll.h) and runs it, blocking when request is NULL (MPI_Bcast ...) or returning a request
 * (MPI_Ibcast ...). func names the API function for error messages. Only mpi/ includes this. */
#ifndef AXON_MPI_COLL_H
#define AXON_MPI_COLL_H

#include "mpi/axon_mpi.h"

int axon_mpi_barrier(const char *func, MPI_Comm comm, MPI_Request *request);
int axon_mpi_bcast(const char *func, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request);
/* Gather and gatherv: recvcounts NULL means recvcount for every rank, displs NULL the blocks in order. */
int axon_mpi_gather(const char *func, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request);
int axon_mpi_scatter(const char *func, const void *sendbuf, int sendcount, const int sendcounts[],
                     const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Request *request);
int axon_mpi_allgather(const char *func, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Request *request);
/* kind: 0 alltoall (counts uniform), 1 alltoallv (displacements in extents), 2 alltoallw (byte
 * displacements, a type per rank). */
int axon_mpi_alltoall(const char *func, int kind, const void *sendbuf, int sendcount, const int sendcounts[],
                      const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, int recvcount,
                      const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request);
/* kind: what the reduction is. */
enum axon_mpi_red_kind { AXON_MPI_RED_REDUCE, AXON_MPI_RED_ALLREDUCE, AXON_MPI_RED_SCATTER_BLOCK,
                         AXON_MPI_RED_SCATTER, AXON_MPI_RED_SCAN, AXON_MPI_RED_EXSCAN };
int axon_mpi_reduction(const char *func, enum axon_mpi_red_kind kind, const void *sendbuf, void *recvbuf, int count,
                       const int recvcounts[], MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       MPI_Request *request);

#endif
