/* Partitioned communication of MPI 4 (MPI_Psend_init, MPI_Precv_init, MPI_Pready*, MPI_Parrived). Not
 * built: each call returns MPI_ERR_UNSUPPORTED_OPERATION through the handler of its communicator
 * (MPI_COMM_WORLD's for the calls on a request) and sets an output request to MPI_REQUEST_NULL. They
 * exist because Python bindings (mpi4py) reference every MPI function and load the library with every
 * symbol resolved. */
#include "mpi/axon_mpi.h"

static int axon_mpi_partitioned_unsupported(const char *func, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "partitioned communication is not implemented in Axon");
}

AXON_MPI_WEAK(Psend_init)
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)buf, (void)partitions, (void)count, (void)datatype, (void)dest, (void)tag, (void)comm, (void)info;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_partitioned_unsupported("MPI_Psend_init", comm);
}

AXON_MPI_WEAK(Precv_init)
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)buf, (void)partitions, (void)count, (void)datatype, (void)source, (void)tag, (void)comm, (void)info;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_partitioned_unsupported("MPI_Precv_init", comm);
}

AXON_MPI_WEAK(Pready)
int PMPI_Pready(int partition, MPI_Request request)
{
    (void)partition, (void)request;
    return axon_mpi_partitioned_unsupported("MPI_Pready", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Pready_range)
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    (void)partition_low, (void)partition_high, (void)request;
    return axon_mpi_partitioned_unsupported("MPI_Pready_range", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Pready_list)
int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    (void)length, (void)array_of_partitions, (void)request;
    return axon_mpi_partitioned_unsupported("MPI_Pready_list", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Parrived)
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    (void)request, (void)partition, (void)flag;
    return axon_mpi_partitioned_unsupported("MPI_Parrived", MPI_COMM_NULL);
}
