/* MPI_Get_version, MPI_Get_library_version and MPI_Get_processor_name. The version calls may be made
 * before MPI_Init and after MPI_Finalize. */
#include "mpi/axon_mpi.h"

#include "config.h"
#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>
#include <ucp/api/ucp.h>
#include <unistd.h>

AXON_MPI_WEAK(Get_version)
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return axon_mpi_error(NULL, "MPI_Get_version", MPI_ERR_ARG, "version or subversion is a NULL pointer");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Get_library_version)
int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return axon_mpi_error(NULL, "MPI_Get_library_version", MPI_ERR_ARG,
                              "version or resultlen is a NULL pointer");
    unsigned major, minor, release;
    ucp_get_version(&major, &minor, &release);
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "Axon MPI %s (MPI %d.%d, UCX %u.%u.%u, PMIx %s)",
                     PACKAGE_VERSION, MPI_VERSION, MPI_SUBVERSION, major, minor, release,
                     AXON_PMIX_BUILD_VERSION);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Get_processor_name)
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    static const char func[] = "MPI_Get_processor_name";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!name || !resultlen)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "name or resultlen is a NULL pointer");
    int n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", axon_runtime_job.hostname);
    *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}
