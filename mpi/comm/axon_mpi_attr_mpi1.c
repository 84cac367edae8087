/* MPI-1's communicator attribute calls, deprecated since MPI-2 but not removed (MPI 4.1 still has them):
 * MPI_Keyval_create, MPI_Keyval_free, MPI_Attr_put, MPI_Attr_get and MPI_Attr_delete. MPICH's
 * libmpi.so.12 exports them, so programs built against MPICH's mpi.h that use them must find them here.
 * Each is its MPI-2 twin on communicators (mpi/comm/axon_mpi_comm_attr.c): MPI_Copy_function and
 * MPI_Delete_function have the signatures of the MPI_Comm_ callbacks. Errors are reported under the
 * twin's name. */
#include "mpi/axon_mpi.h"

AXON_MPI_WEAK(Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    return PMPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

AXON_MPI_WEAK(Keyval_free)
int PMPI_Keyval_free(int *keyval)
{
    return PMPI_Comm_free_keyval(keyval);
}

AXON_MPI_WEAK(Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return PMPI_Comm_set_attr(comm, keyval, attribute_val);
}

AXON_MPI_WEAK(Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return PMPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

AXON_MPI_WEAK(Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return PMPI_Comm_delete_attr(comm, keyval);
}
