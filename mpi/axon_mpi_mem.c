/* Memory the library hands out (MPI_Alloc_mem, MPI_Free_mem) and the profiling control
 * (MPI_Pcontrol).
 *
 * MPI_Alloc_mem returns blocks aligned to 64 bytes (a cache line, and enough for any vector load);
 * nothing is registered with UCX here, since the engine registers what it sends on first use. Every
 * live block is kept in a small hash set keyed by its address, so MPI_Free_mem of a pointer that did
 * not come from MPI_Alloc_mem (or was freed already) is MPI_ERR_ARG rather than a corrupt heap; the set
 * costs one lock and a probe or two per call, and MPI_Free_mem reads nothing at the user's address.
 *
 * MPI_Pcontrol accepts every level and does nothing: Axon has no profiling levels of its own, and the
 * standard lets an implementation ignore the call (a profiler that wants it defines MPI_Pcontrol). */
#include "mpi/axon_mpi.h"
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

#define AXON_MEM_ALIGN 64

/* Open addressing with linear probing; a tombstone marks a removed entry so later probes go on. */
#define AXON_MEM_TOMB ((uintptr_t)1)
static pthread_mutex_t axon_mem_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *axon_mem_set;
static size_t axon_mem_cap, axon_mem_used; /* used counts live entries and tombstones */

static size_t axon_mem_hash(uintptr_t p, size_t cap)
{
    uint64_t h = (uint64_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (cap - 1);
}

/* Under the lock. */
static int axon_mem_grow(void)
{
    size_t cap = axon_mem_cap ? axon_mem_cap * 2 : 64;
    uintptr_t *set = calloc(cap, sizeof(*set));
    if (!set)
        return MPI_ERR_NO_MEM;
    size_t used = 0;
    for (size_t i = 0; i < axon_mem_cap; i++) {
        uintptr_t p = axon_mem_set[i];
        if (p <= AXON_MEM_TOMB)
            continue;
        size_t j = axon_mem_hash(p, cap);
        while (set[j])
            j = (j + 1) & (cap - 1);
        set[j] = p;
        used++;
    }
    free(axon_mem_set);
    axon_mem_set = set;
    axon_mem_cap = cap;
    axon_mem_used = used;
    return MPI_SUCCESS;
}

static int axon_mem_insert(uintptr_t p)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_mem_lock);
    if ((axon_mem_used + 1) * 2 > axon_mem_cap)
        rc = axon_mem_grow();
    if (rc == MPI_SUCCESS) {
        size_t j = axon_mem_hash(p, axon_mem_cap);
        while (axon_mem_set[j] > AXON_MEM_TOMB)
            j = (j + 1) & (axon_mem_cap - 1);
        if (!axon_mem_set[j])
            axon_mem_used++;
        axon_mem_set[j] = p;
    }
    pthread_mutex_unlock(&axon_mem_lock);
    return rc;
}

/* Removes p; false if it was not there. */
static bool axon_mem_remove(uintptr_t p)
{
    bool found = false;
    pthread_mutex_lock(&axon_mem_lock);
    if (axon_mem_cap) {
        size_t j = axon_mem_hash(p, axon_mem_cap);
        while (axon_mem_set[j]) {
            if (axon_mem_set[j] == p) {
                axon_mem_set[j] = AXON_MEM_TOMB;
                found = true;
                break;
            }
            j = (j + 1) & (axon_mem_cap - 1);
        }
    }
    pthread_mutex_unlock(&axon_mem_lock);
    return found;
}

AXON_MPI_WEAK(Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    static const char func[] = "MPI_Alloc_mem";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (size < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size %ld is negative", (long)size);
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info %s", AXON_MPI_HANDLE_NAME(info));
    if (!baseptr)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "baseptr is a NULL pointer");
    /* Size 0 still gets a block of its own, so the pointer can be freed like any other. */
    void *p = NULL;
    size_t bytes = size > 0 ? (size_t)size : 1;
    bytes = (bytes + AXON_MEM_ALIGN - 1) & ~(size_t)(AXON_MEM_ALIGN - 1);
    if (bytes < (size_t)size || posix_memalign(&p, AXON_MEM_ALIGN, bytes) != 0)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "cannot allocate %ld bytes", (long)size);
    if (axon_mem_insert((uintptr_t)p) != MPI_SUCCESS) {
        free(p);
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for the table of blocks");
    }
    /* baseptr is a void * in C that really points at the user's pointer. */
    memcpy(baseptr, &p, sizeof(p));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Free_mem)
int PMPI_Free_mem(void *base)
{
    static const char func[] = "MPI_Free_mem";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!base)
        return MPI_SUCCESS; /* as free(NULL); MPICH accepts it too */
    if (!axon_mem_remove((uintptr_t)base))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%p did not come from MPI_Alloc_mem, or was freed already",
                              base);
    free(base);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Pcontrol)
int PMPI_Pcontrol(const int level, ...)
{
    /* Every level is accepted and ignored (see the top of the file). */
    (void)level;
    AXON_MPI_REQUIRE_ACTIVE("MPI_Pcontrol");
    return MPI_SUCCESS;
}
