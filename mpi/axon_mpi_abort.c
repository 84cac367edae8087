/* MPI_Abort: ends every process of the job (Axon does not end just the communicator's: the standard
 * allows that) with the code given. Our mpirun prints who aborted and why; under another launcher, or
 * alone, the library says so itself. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>

AXON_MPI_WEAK(Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    struct axon_comm *c = NULL;
    if (atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_ACTIVE)
        c = axon_mpi_comm_get(comm);
    char message[256];
    snprintf(message, sizeof(message), "MPI_Abort(%s, %d) called by rank %d", c ? c->name : "<invalid comm>",
             errorcode, axon_runtime_job.rank);
    if (strcmp(axon_runtime_job.launcher, "mpirun") != 0)
        axon_runtime_log_error("%s; ending the job", message);
    axon_runtime_bootstrap_abort(errorcode, message);
}
