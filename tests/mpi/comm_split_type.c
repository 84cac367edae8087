/* MPI_Comm_split_type's split types (mpi/comm/axon_mpi_comm_split_type.c): shared memory, the hardware-
 * guided splits (mpi_shared_memory, nvlink_domain, hwloc types), the resource-guided ones (also by
 * process set), the unguided split, and what gives MPI_COMM_NULL or an error. Arguments: the ranks of
 * this rank's node and of its NVLink domain (defaults: all of MPI_COMM_WORLD), as AXON_TOPO set them,
 * and of its GPU (default 0: none).
 * Prints "comm_split_type: ok" at rank 0 when every check holds on every rank. */
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int wrank, wsize;

/* The split of MPI_COMM_WORLD by type with info key=value (key NULL: MPI_INFO_NULL; value NULL: an
 * info object without it). */
static MPI_Comm split(int type, const char *key, const char *value)
{
    MPI_Info info = MPI_INFO_NULL;
    if (key) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "some_other_key", "1");
        if (value)
            MPI_Info_set(info, key, value);
    }
    MPI_Comm c = MPI_COMM_WORLD; /* not MPI_COMM_NULL: the call must set it */
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, type, wrank, info, &c) == MPI_SUCCESS);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    return c;
}

static int size_of(MPI_Comm c)
{
    int n = 0;
    if (c != MPI_COMM_NULL)
        MPI_Comm_size(c, &n);
    return n;
}

static void release(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL)
        MPI_Comm_free(c);
}

/* Whether a and b hold the same ranks in the same order. */
static int congruent(MPI_Comm a, MPI_Comm b)
{
    int result = MPI_UNEQUAL;
    if (a == MPI_COMM_NULL || b == MPI_COMM_NULL)
        return a == b;
    MPI_Comm_compare(a, b, &result);
    return result == MPI_CONGRUENT;
}

/* The split by type with key=value holds the ranks of expected, in its order. */
static void expect_like(int type, const char *key, const char *value, MPI_Comm expected, int line)
{
    MPI_Comm c = split(type, key, value);
    if (!congruent(c, expected)) {
        printf("rank %d FAILED: split by %s=%s is not as expected (line %d)\n", wrank, key, value, line);
        failures++;
    }
    release(&c);
}
#define EXPECT_LIKE(type, key, value, expected) expect_like(type, key, value, expected, __LINE__)

/* The one CPU this process may run on, or -1 when it may run on several. */
static int only_cpu(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0 || CPU_COUNT(&set) != 1)
        return -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            return c;
    return -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int node_size = argc > 1 ? atoi(argv[1]) : wsize;
    int domain_size = argc > 2 ? atoi(argv[2]) : node_size;
    int gpu_size = argc > 3 ? atoi(argv[3]) : 0; /* 0: no GPU (MPI_COMM_NULL) */

    /* Shared memory: the node. */
    MPI_Comm shared = split(MPI_COMM_TYPE_SHARED, NULL, NULL);
    EXPECT(size_of(shared) == node_size);

    /* Guided by a resource: mpi_shared_memory is the node again, the machine too (every process runs
     * inside it), nvlink_domain the domain; the names of hwloc, in any case, with or without hwloc://. */
    EXPECT_LIKE(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "mpi_shared_memory", shared);
    EXPECT_LIKE(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "Machine", shared);
    EXPECT_LIKE(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "hwloc://machine", shared);
    MPI_Comm c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "nvlink_domain");
    EXPECT(size_of(c) == domain_size);
    release(&c);
    c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "gpu");
    EXPECT(size_of(c) == gpu_size);
    release(&c);

    /* One processing unit: a rank bound to a single CPU shares it with the ranks bound to the same CPU
     * (on its node); an unbound rank is confined to no single PU and gets MPI_COMM_NULL. */
    int cpu = only_cpu();
    c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "PU");
    if (cpu < 0) {
        EXPECT(c == MPI_COMM_NULL);
    } else {
        EXPECT(c != MPI_COMM_NULL);
        int n = size_of(c), *cpus = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
        if (c != MPI_COMM_NULL && cpus) {
            MPI_Allgather(&cpu, 1, MPI_INT, cpus, 1, MPI_INT, c);
            for (int i = 0; i < n; i++)
                EXPECT(cpus[i] == cpu);
        }
        free(cpus);
        /* Every rank of the node bound to the same CPU is in it. */
        int *all = malloc(sizeof(int) * (size_t)node_size), same = 0;
        if (all) {
            MPI_Allgather(&cpu, 1, MPI_INT, all, 1, MPI_INT, shared);
            for (int i = 0; i < node_size; i++)
                same += all[i] == cpu;
        }
        EXPECT(size_of(c) == same);
        free(all);
    }
    release(&c);
    c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "hwthread"); /* MPICH's name for it */
    EXPECT((c == MPI_COMM_NULL) == (cpu < 0));
    release(&c);

    /* No resource named, or none Axon knows: MPI_COMM_NULL everywhere (and no error). */
    c = split(MPI_COMM_TYPE_HW_GUIDED, NULL, NULL);
    EXPECT(c == MPI_COMM_NULL);
    c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", NULL);
    EXPECT(c == MPI_COMM_NULL);
    c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "__no_such_resource__");
    EXPECT(c == MPI_COMM_NULL);
    c = split(MPI_COMM_TYPE_HW_GUIDED, "mpi_hw_resource_type", "Bridge"); /* holds no CPUs */
    EXPECT(c == MPI_COMM_NULL);
    c = split(MPI_UNDEFINED, NULL, NULL);
    EXPECT(c == MPI_COMM_NULL);

    /* Guided by a resource or a process set (MPI 4.1). */
    EXPECT_LIKE(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_hw_resource_type", "mpi_shared_memory", shared);
    EXPECT_LIKE(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://WORLD", MPI_COMM_WORLD);
    c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://self");
    EXPECT(size_of(c) == 1);
    release(&c);
    c = split(MPI_COMM_TYPE_RESOURCE_GUIDED, "mpi_pset_name", "mpi://nowhere");
    EXPECT(c == MPI_COMM_NULL);

    /* Unguided: a strict subset at the first level that splits the world, named in the info object
     * (the node, when the job spans several), or MPI_COMM_NULL everywhere. */
    MPI_Info info;
    MPI_Info_create(&info);
    c = MPI_COMM_WORLD;
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, 0, info, &c) == MPI_SUCCESS);
    char level[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, level, &flag);
    int got = c != MPI_COMM_NULL, anyone = 0;
    MPI_Allreduce(&got, &anyone, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (node_size < wsize) {
        EXPECT(congruent(c, shared));
        EXPECT(flag && strcmp(level, "mpi_shared_memory") == 0);
    } else if (got) {
        EXPECT(size_of(c) < wsize);
        EXPECT(flag && level[0] != '\0');
    } else if (anyone) {
        EXPECT(flag); /* a level was chosen, this rank is in none of its instances */
    }
    release(&c);
    MPI_Info_free(&info);

    /* Errors. */
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &c) == MPI_ERR_ARG);
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, NULL) == MPI_ERR_ARG);

    MPI_Comm_free(&shared);
    int all = 0;
    MPI_Reduce(&failures, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("comm_split_type: %s\n", all ? "FAILED" : "ok");
    MPI_Finalize();
    return all ? 1 : 0;
}
