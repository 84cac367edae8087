/* The MPI process state (mpi/axon_mpi.h): the library's phase and the world model's, and the count of
 * live sessions. It decides which calls are legal when, and ends the process with a message when a
 * call comes at the wrong time. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>

struct axon_mpi_state axon_mpi_state = {.phase = AXON_MPI_PHASE_PRE_INIT, .world = AXON_MPI_PHASE_PRE_INIT};

noreturn void axon_mpi_state_fail_outside(const char *func)
{
    int phase = atomic_load(&axon_mpi_state.phase), world = atomic_load(&axon_mpi_state.world);
    const char *when = world == AXON_MPI_PHASE_FINALIZED || phase == AXON_MPI_PHASE_FINALIZED
                           ? "after MPI_Finalize"
                       : phase == AXON_MPI_PHASE_ACTIVE ? "before MPI_Init (only sessions are active)"
                                                        : "before MPI_Init or MPI_Session_init";
    axon_runtime_log_error("%s was called %s; MPI_ERRORS_ARE_FATAL ends the process", func, when);
    fflush(stdout);
    exit(1);
}
