/* MPI 4.1's accessors of a status's public fields: MPI_Status_get_source/_tag/_error and
 * MPI_Status_set_source/_tag/_error. They read and write MPI_SOURCE, MPI_TAG and MPI_ERROR of MPICH's
 * layout, for bindings that do not reach into the struct (mpi4py, the MPI 5 ABI's users). The count and
 * cancelled flag are mpi/pt2pt/axon_mpi_status_set.c's. */
#include "mpi/axon_mpi.h"

#define AXON_STATUS_CHECK(func, status)                                                              \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        if (!(status) || (status) == MPI_STATUS_IGNORE)                                              \
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "status is a NULL pointer or MPI_STATUS_IGNORE"); \
    } while (0)

#define AXON_STATUS_FIELD(Name, field)                                                               \
    AXON_MPI_WEAK(Status_get_##Name)                                                                 \
    int PMPI_Status_get_##Name(const MPI_Status *status, int *value)                                 \
    {                                                                                                \
        AXON_STATUS_CHECK("MPI_Status_get_" #Name, status);                                          \
        if (!value)                                                                                  \
            return axon_mpi_error(NULL, "MPI_Status_get_" #Name, MPI_ERR_ARG, "the output is a NULL pointer"); \
        *value = status->field;                                                                      \
        return MPI_SUCCESS;                                                                          \
    }                                                                                                \
    AXON_MPI_WEAK(Status_set_##Name)                                                                 \
    int PMPI_Status_set_##Name(MPI_Status *status, int value)                                        \
    {                                                                                                \
        AXON_STATUS_CHECK("MPI_Status_set_" #Name, status);                                          \
        status->field = value;                                                                       \
        return MPI_SUCCESS;                                                                          \
    }

AXON_STATUS_FIELD(source, MPI_SOURCE)
AXON_STATUS_FIELD(tag, MPI_TAG)
AXON_STATUS_FIELD(error, MPI_ERROR)
