/* MPI_Get_hw_resource_info (MPI 4.1): the hardware resource types the calling process could split by,
 * as MPI 5.0 pins the format down: each key a resource type in URI form, each value "true" when the
 * process is confined to a single instance of it at the time of the call (MPI_Comm_split_type with
 * MPI_COMM_TYPE_HW_GUIDED and that value then puts it in a communicator), "false" otherwise. Keys:
 *   hwloc://Machine, Package, NUMANode, L3Cache, L2Cache, L1Cache, Core, PU   (from the process's CPU
 *       binding, runtime/axon_runtime_hwres.c: an unbound process is true only for the machine)
 *   axon://nvlink_domain   always true (every rank is in one domain, a GPU's or its node's)
 *   axon://gpu             true when the rank has a GPU (the one it announced at MPI_Init)
 * The names are those MPI_Comm_split_type takes (mpi/comm/axon_mpi_comm_split_type.c). The program frees
 * the object with MPI_Info_free. */
#include "mpi/axon_mpi.h"

#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"

#include <stdio.h>

static const char *const axon_hw_info_types[] = {"Machine", "Package", "NUMANode", "L3Cache",
                                                 "L2Cache", "L1Cache", "Core",     "PU"};
#define AXON_HW_INFO_TYPES ((int)(AXON_ARRAY_SIZE(axon_hw_info_types)))

AXON_MPI_WEAK(Get_hw_resource_info)
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    static const char func[] = "MPI_Get_hw_resource_info";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!hw_info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "hw_info is a NULL pointer");
    *hw_info = MPI_INFO_NULL;
    int index[AXON_HW_INFO_TYPES];
    if (axon_runtime_hw_locate(axon_hw_info_types, AXON_HW_INFO_TYPES, index) != MPI_SUCCESS)
        for (int i = 0; i < AXON_HW_INFO_TYPES; i++)
            index[i] = AXON_RUNTIME_HW_SPANS; /* hwloc cannot tell: confined to nothing we can name */
    MPI_Info info;
    int rc = PMPI_Info_create(&info);
    char key[64];
    for (int i = 0; i < AXON_HW_INFO_TYPES && rc == MPI_SUCCESS; i++) {
        snprintf(key, sizeof(key), "hwloc://%s", axon_hw_info_types[i]);
        rc = PMPI_Info_set(info, key, index[i] >= 0 ? "true" : "false");
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(info, "axon://nvlink_domain", "true");
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(info, "axon://gpu", axon_runtime_topo_gpu_of(axon_runtime_job.rank) >= 0 ? "true" : "false");
    if (rc != MPI_SUCCESS) {
        if (info != MPI_INFO_NULL)
            PMPI_Info_free(&info);
        return axon_mpi_error(NULL, func, rc, "cannot make the info object");
    }
    *hw_info = info;
    return MPI_SUCCESS;
}
