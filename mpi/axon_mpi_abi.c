/* MPI 5's ABI queries: MPI_Abi_get_version, MPI_Abi_get_info and MPI_Abi_get_fortran_info.
 *
 * Axon implements the MPICH ABI, not MPI 5's standard ABI, and MPI 5 says an implementation without the
 * standard ABI answers -1 for both version numbers. That matters: mpi4py's loader reads a major version
 * above 0 as "this is the standard ABI" and would then use the standard ABI's handle values. The info
 * describes the ABI there is (the sizes of MPI_Aint, MPI_Count and MPI_Offset); Axon has no Fortran
 * bindings, so the Fortran info is MPI_INFO_NULL. Like MPI_Get_version, the version query may be called
 * before MPI_Init and after MPI_Finalize. */
#include "mpi/axon_mpi.h"

#include <stdio.h>

AXON_MPI_WEAK(Abi_get_version)
int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    if (!abi_major || !abi_minor)
        return MPI_ERR_ARG;
    *abi_major = -1;
    *abi_minor = -1;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Abi_get_info)
int PMPI_Abi_get_info(MPI_Info *info)
{
    static const char func[] = "MPI_Abi_get_info";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "info is a NULL pointer");
    MPI_Info made = MPI_INFO_NULL;
    int rc = PMPI_Info_create(&made);
    const struct {
        const char *key;
        size_t size;
    } sizes[] = {{"mpi_aint_size", sizeof(MPI_Aint)},
                 {"mpi_count_size", sizeof(MPI_Count)},
                 {"mpi_offset_size", sizeof(MPI_Offset)}};
    for (size_t i = 0; rc == MPI_SUCCESS && i < AXON_ARRAY_SIZE(sizes); i++) {
        char value[16];
        snprintf(value, sizeof(value), "%zu", sizes[i].size);
        rc = PMPI_Info_set(made, sizes[i].key, value);
    }
    if (rc != MPI_SUCCESS) {
        if (made != MPI_INFO_NULL)
            PMPI_Info_free(&made);
        return rc;
    }
    *info = made;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Abi_get_fortran_info)
int PMPI_Abi_get_fortran_info(MPI_Info *info)
{
    static const char func[] = "MPI_Abi_get_fortran_info";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "info is a NULL pointer");
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}
