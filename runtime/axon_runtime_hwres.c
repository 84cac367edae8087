/* Where this process sits in its machine's hardware, by hwloc, for the hardware-guided splits of
 * MPI_Comm_split_type (mpi/comm/axon_mpi_comm_split_type.c): which instance of a resource type (a package,
 * a NUMA node, a cache, a core ...) the process is confined to. This file owns the names it accepts and
 * the question put to hwloc; it loads the topology once per call (splits are rare, a load is a few
 * milliseconds, and the binding may have changed since the last one). */
#include "runtime/runtime.h"

#include <hwloc.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *const axon_runtime_hw_levels[AXON_RUNTIME_HW_LEVELS] = {"Package", "NUMANode", "L3Cache",
                                                                    "L2Cache", "Core",    "PU"};

/* Names other MPIs accept for hwloc's types (MPICH's "socket", "hwthread", "numa"). */
static const struct {
    const char *alias, *type;
} axon_hw_aliases[] = {{"socket", "Package"}, {"hwthread", "PU"}, {"numa", "NUMANode"}, {"numanode", "NUMANode"}};

/* The hwloc type a resource name means ("hwloc://" prefix allowed, as MPI 4.1's resource URIs write
 * them; case does not matter); false for a name hwloc does not know. */
static bool axon_hw_type_of(const char *name, hwloc_obj_type_t *type)
{
    if (strncasecmp(name, "hwloc://", 8) == 0)
        name += 8;
    for (size_t i = 0; i < AXON_ARRAY_SIZE(axon_hw_aliases); i++)
        if (strcasecmp(name, axon_hw_aliases[i].alias) == 0)
            name = axon_hw_aliases[i].type;
    if (name[0] == '\0' || hwloc_type_sscanf(name, type, NULL, 0) != 0)
        return false;
    /* Objects without CPUs (PCI and OS devices, memory other than NUMA nodes) hold no process. */
    return hwloc_obj_type_is_normal(*type) || *type == HWLOC_OBJ_NUMANODE;
}

/* The logical index of the one object of type whose CPUs include all of set, or -1 when there is none
 * (the process may run on CPUs of several, or the machine has no object of the type). */
static int axon_hw_container(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_const_bitmap_t set)
{
    int found = -1;
    hwloc_obj_t obj = NULL;
    while ((obj = hwloc_get_next_obj_by_type(topo, type, obj)) != NULL) {
        if (obj->cpuset && !hwloc_bitmap_iszero(obj->cpuset) && hwloc_bitmap_isincluded(set, obj->cpuset)) {
            if (found >= 0)
                return -1; /* two objects of the type hold the same CPUs: not one instance */
            found = (int)obj->logical_index;
        }
    }
    return found;
}

int axon_runtime_hw_locate(const char *const *names, int n, int *index)
{
    hwloc_obj_type_t types[AXON_RUNTIME_HW_LEVELS * 2];
    if (n > (int)(AXON_ARRAY_SIZE(types)))
        return MPI_ERR_INTERN;
    for (int i = 0; i < n; i++)
        index[i] = axon_hw_type_of(names[i], &types[i]) ? AXON_RUNTIME_HW_SPANS : AXON_RUNTIME_HW_UNKNOWN;
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return MPI_ERR_OTHER;
    int rc = MPI_ERR_OTHER;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set && hwloc_topology_load(topo) == 0 && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 &&
        !hwloc_bitmap_iszero(set)) {
        for (int i = 0; i < n; i++)
            if (index[i] != AXON_RUNTIME_HW_UNKNOWN) {
                int found = axon_hw_container(topo, types[i], set);
                index[i] = found >= 0 ? found : AXON_RUNTIME_HW_SPANS;
            }
        rc = MPI_SUCCESS;
    }
    if (set)
        hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
    return rc;
}
