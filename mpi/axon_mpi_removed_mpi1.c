/* The rest of MPI-1's functions that MPI-3 removed, which MPICH's libmpi.so.12 still exports (programs
 * built against it call them): MPI_Address, MPI_Type_extent, MPI_Type_lb, MPI_Type_ub,
 * MPI_Errhandler_create, MPI_Errhandler_get and MPI_Errhandler_set, each its MPI-2 replacement under the
 * old name. (MPI_Type_hvector, _hindexed and _struct are with the other constructors, in
 * axon_mpi_datatype_create.c.) */
#include "mpi/axon_mpi.h"

AXON_MPI_WEAK(Address)
int PMPI_Address(void *location, MPI_Aint *address)
{
    return PMPI_Get_address(location, address);
}

AXON_MPI_WEAK(Type_extent)
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_extent");
    if (!extent)
        return axon_mpi_error(NULL, "MPI_Type_extent", MPI_ERR_ARG, "extent is a NULL pointer");
    MPI_Aint lb;
    return PMPI_Type_get_extent(datatype, &lb, extent);
}

/* MPI-1's bounds: the lower bound, and the upper bound (lower bound plus extent). */
static int axon_type_bound(const char *func, MPI_Datatype datatype, MPI_Aint *displacement, bool upper)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!displacement)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "displacement is a NULL pointer");
    MPI_Aint lb, extent;
    int rc = PMPI_Type_get_extent(datatype, &lb, &extent);
    if (rc == MPI_SUCCESS)
        *displacement = upper ? lb + extent : lb;
    return rc;
}

AXON_MPI_WEAK(Type_lb)
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return axon_type_bound("MPI_Type_lb", datatype, displacement, false);
}

AXON_MPI_WEAK(Type_ub)
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    return axon_type_bound("MPI_Type_ub", datatype, displacement, true);
}

AXON_MPI_WEAK(Errhandler_create)
int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)function, errhandler);
}

AXON_MPI_WEAK(Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_get_errhandler(comm, errhandler);
}

AXON_MPI_WEAK(Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return PMPI_Comm_set_errhandler(comm, errhandler);
}
