/* The predefined attribute copy callback that copies the attribute's value (MPI_COMM_DUP_FN,
 * MPI_TYPE_DUP_FN). It is a library function under the name MPICH's header gives it, MPIR_Dup_fn, so
 * programs built against MPICH's mpi.h and against ours call the same symbol. */
#include "mpi/axon_mpi.h"

int MPIR_Dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out,
                int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    /* The value is the pointer itself: attribute_val_out points to a void * to fill in. */
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}
