/* A topology as an attribute of its communicator (mpi/topo/axon_mpi_topo.h): each kind (Cartesian grid,
 * graph, distributed graph) has a keyval of the library's own, made on first use, whose callbacks copy
 * the topology on MPI_Comm_dup and free it on MPI_Comm_free. The callbacks are shared: the kind rides
 * along as the keyval's extra state. */
#include "mpi/topo/axon_mpi_topo.h"

#include <pthread.h>

static pthread_mutex_t axon_topo_attr_lock = PTHREAD_MUTEX_INITIALIZER;

static int axon_topo_attr_copy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm, (void)keyval;
    const struct axon_topo_attr *t = extra;
    void *copy = t->dup(in);
    if (!copy)
        return MPI_ERR_NO_MEM;
    *(void **)out = copy;
    *flag = 1;
    return MPI_SUCCESS;
}

static int axon_topo_attr_delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval;
    const struct axon_topo_attr *t = extra;
    t->release(value);
    return MPI_SUCCESS;
}

/* The kind's keyval, made now if need be; MPI_KEYVAL_INVALID when it cannot be made. */
static int axon_topo_attr_keyval(struct axon_topo_attr *t)
{
    int keyval = atomic_load_explicit(&t->keyval, memory_order_acquire);
    if (keyval != MPI_KEYVAL_INVALID)
        return keyval;
    pthread_mutex_lock(&axon_topo_attr_lock);
    keyval = atomic_load_explicit(&t->keyval, memory_order_relaxed);
    if (keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(axon_topo_attr_copy_fn, axon_topo_attr_delete_fn, &keyval, t) == MPI_SUCCESS)
        atomic_store_explicit(&t->keyval, keyval, memory_order_release);
    pthread_mutex_unlock(&axon_topo_attr_lock);
    return keyval;
}

void *axon_topo_attr_get(struct axon_topo_attr *t, MPI_Comm comm)
{
    int keyval = axon_topo_attr_keyval(t);
    void *value = NULL;
    int flag = 0;
    if (keyval == MPI_KEYVAL_INVALID || PMPI_Comm_get_attr(comm, keyval, &value, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return value;
}

int axon_topo_attr_set(struct axon_topo_attr *t, MPI_Comm comm, void *value)
{
    int keyval = axon_topo_attr_keyval(t);
    return keyval == MPI_KEYVAL_INVALID ? MPI_ERR_INTERN : PMPI_Comm_set_attr(comm, keyval, value);
}
