/* The MPI process state: before MPI_Init, active, finalized. It decides which calls are legal when,
 * and ends the process with a message when a call comes at the wrong time. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>

struct axon_mpi_state axon_mpi_state = {.phase = AXON_MPI_PHASE_PRE_INIT};

noreturn void axon_mpi_state_fail_outside(const char *func)
{
    int phase = atomic_load(&axon_mpi_state.phase);
    axon_runtime_log_error("%s was called %s; MPI_ERRORS_ARE_FATAL ends the process", func,
                           phase == AXON_MPI_PHASE_FINALIZED ? "after MPI_Finalize" : "before MPI_Init");
    fflush(stdout);
    exit(1);
}
