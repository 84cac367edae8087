/* MPI_Comm_split_type: the splits by what the processes share.
 *   MPI_COMM_TYPE_SHARED           the ranks of a node (AXON_TOPO's synthetic node where one is set).
 *   MPI_COMM_TYPE_HW_GUIDED        by the resource the info key "mpi_hw_resource_type" names:
 *                                  "mpi_shared_memory" (the node), "nvlink_domain" (the ranks whose GPUs
 *                                  reach each other directly: runtime/axon_runtime_topo.h), "gpu" (the
 *                                  ranks of one GPU: the one each announced at MPI_Init, its local rank
 *                                  modulo the GPUs it sees; MPI_COMM_NULL without one), or an hwloc
 *                                  object type ("Package", "NUMANode", "L3Cache", "Core", "PU" ...:
 *                                  runtime/axon_runtime_hwres.c), a rank joining the others confined to
 *                                  the same instance on its node (MPI_Get_hw_resource_info lists them,
 *                                  "axon://" before Axon's own). A rank that is not confined to one
 *                                  instance (an unbound process and "Core"), or that names no resource
 *                                  or one Axon does not know, gets MPI_COMM_NULL, as the standard says.
 *   MPI_COMM_TYPE_RESOURCE_GUIDED  (MPI 4.1) the same, or by "mpi_pset_name": "mpi://WORLD" (all of
 *                                  comm) and "mpi://SELF" (each rank alone).
 *   MPI_COMM_TYPE_HW_UNGUIDED      the first level, from the node down through hwloc's levels
 *                                  (axon_runtime_hw_levels), whose instances split comm into strict
 *                                  subsets; every rank learns every rank's instances in one allgather, so
 *                                  all pick the same level. The level's name goes into the info object
 *                                  passed (when not MPI_INFO_NULL) under "mpi_hw_resource_type", as
 *                                  MPICH does; MPI_COMM_NULL for all when no level splits comm.
 * The standard wants every rank to pass the same resource name; Axon does not check (a rank that names
 * another resource is grouped by that resource's colors, which may meet the others' by chance). */
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A color for an instance of a resource: the node and the instance's index there (nodes do not share
 * hardware; index below 2^32), or MPI_UNDEFINED for a negative index. */
static int64_t axon_split_color(int64_t index)
{
    if (index < 0)
        return MPI_UNDEFINED;
    return ((int64_t)axon_runtime_job.node_of_rank[axon_runtime_job.rank] << 32) | (int64_t)index;
}

/* The color of this rank for a resource name (HW_GUIDED's values). */
static int64_t axon_split_guided_color(const char *name)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    if (strncasecmp(name, "axon://", 7) == 0) /* MPI_Get_hw_resource_info's form of Axon's own names */
        name += 7;
    if (strcasecmp(name, "mpi_shared_memory") == 0)
        return job->node_of_rank[job->rank];
    if (strcasecmp(name, "nvlink_domain") == 0)
        return job->domain_of_rank ? job->domain_of_rank[job->rank] : job->node_of_rank[job->rank];
    if (strcasecmp(name, "gpu") == 0) {
        return axon_split_color(axon_runtime_topo_gpu_of(job->rank)); /* its PCI id, -1 for none */
    }
    int index;
    const char *names[1] = {name};
    if (axon_runtime_hw_locate(names, 1, &index) != MPI_SUCCESS)
        return MPI_UNDEFINED;
    return axon_split_color(index);
}

/* A key's value in info, into value (of len bytes); false when info is MPI_INFO_NULL or lacks it. */
static bool axon_split_info_get(MPI_Info info, const char *key, char *value, int len)
{
    int flag = 0;
    if (info == MPI_INFO_NULL)
        return false;
    return PMPI_Info_get(info, key, len - 1, value, &flag) == MPI_SUCCESS && flag;
}

/* HW_UNGUIDED: every rank's instance at every level (the node first), gathered, and the first level
 * that splits comm into more than one part. */
static int axon_split_unguided(const char *func, struct axon_comm *c, int key, MPI_Info info, MPI_Comm *newcomm)
{
    enum { LEVELS = AXON_RUNTIME_HW_LEVELS + 1 };
    int64_t mine[LEVELS];
    int index[AXON_RUNTIME_HW_LEVELS];
    mine[0] = axon_runtime_job.node_of_rank[axon_runtime_job.rank];
    if (axon_runtime_hw_locate(axon_runtime_hw_levels, AXON_RUNTIME_HW_LEVELS, index) != MPI_SUCCESS)
        for (int l = 0; l < AXON_RUNTIME_HW_LEVELS; l++)
            index[l] = AXON_RUNTIME_HW_SPANS;
    for (int l = 0; l < AXON_RUNTIME_HW_LEVELS; l++)
        mine[l + 1] = axon_split_color(index[l]);
    int n = c->size;
    int64_t *all = malloc(sizeof(mine) * (size_t)n);
    if (!all)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    struct axon_comm_team t;
    axon_comm_team_of(c, &t);
    int rc = axon_comm_coll_allgather(&t, mine, all, sizeof(mine));
    if (rc != MPI_SUCCESS) {
        free(all);
        return axon_mpi_error(c, func, rc, "the exchange of the ranks' hardware failed");
    }
    /* A level splits comm when some rank is confined to one of its instances and the ranks are not all
     * in the same one: each instance's ranks are then a strict subset (the unconfined get
     * MPI_COMM_NULL). */
    int level = -1;
    for (int l = 0; l < LEVELS && level < 0; l++) {
        int64_t first = all[l];
        bool any = false, same = true;
        for (int r = 0; r < n; r++) {
            int64_t v = all[(size_t)r * LEVELS + (size_t)l];
            any |= v != MPI_UNDEFINED;
            same &= v == first;
        }
        if (any && !(same && first != MPI_UNDEFINED))
            level = l;
    }
    free(all);
    if (level < 0) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS; /* every rank decided so from the same data: no communicator to agree on */
    }
    const char *name = level == 0 ? "mpi_shared_memory" : axon_runtime_hw_levels[level - 1];
    if (info != MPI_INFO_NULL && (rc = PMPI_Info_set(info, "mpi_hw_resource_type", name)) != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "cannot set mpi_hw_resource_type in the info object");
    return axon_comm_split_intra(func, c, mine[level], key, newcomm);
}

AXON_MPI_WEAK(Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_split_type";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    if (c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "the communicator is an intercommunicator");
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_COMM_TYPE_HW_GUIDED &&
        split_type != MPI_COMM_TYPE_HW_UNGUIDED && split_type != MPI_COMM_TYPE_RESOURCE_GUIDED &&
        split_type != MPI_UNDEFINED)
        return axon_mpi_error(c, func, MPI_ERR_ARG,
                              "split_type %d is none of MPI_COMM_TYPE_SHARED, MPI_COMM_TYPE_HW_GUIDED, "
                              "MPI_COMM_TYPE_HW_UNGUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED and MPI_UNDEFINED",
                              split_type);
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    int64_t color = MPI_UNDEFINED;
    char value[MPI_MAX_INFO_VAL + 1];
    switch (split_type) {
    case MPI_COMM_TYPE_SHARED:
        /* The runtime numbers nodes densely, so the node is a color. */
        color = axon_runtime_job.node_of_rank[axon_runtime_job.rank];
        break;
    case MPI_COMM_TYPE_HW_UNGUIDED:
        return axon_split_unguided(func, c, key, info, newcomm);
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        if (axon_split_info_get(info, "mpi_hw_resource_type", value, (int)sizeof(value)))
            color = axon_split_guided_color(value);
        else if (split_type == MPI_COMM_TYPE_RESOURCE_GUIDED &&
                 axon_split_info_get(info, "mpi_pset_name", value, (int)sizeof(value)))
            color = strcasecmp(value, "mpi://WORLD") == 0  ? 0
                    : strcasecmp(value, "mpi://SELF") == 0 ? (int64_t)1 + c->rank
                                                           : MPI_UNDEFINED;
        break;
    default: /* MPI_UNDEFINED */
        break;
    }
    return axon_comm_split_intra(func, c, color, key, newcomm);
}
