/* Raising an error: the function that first sees a bad argument or a failure calls axon_mpi_error with
 * what was wrong; the communicator's error handler decides what happens. MPI_ERRORS_ARE_FATAL (the
 * default) prints the function, the error and the rank, then ends the job; MPI_ERRORS_RETURN hands the
 * class back; a user handler is called with it. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdio.h>

int axon_mpi_error(struct axon_comm *comm, const char *func, int errclass, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);

    /* Errors tied to no communicator (or to an invalid one) go to MPI_COMM_WORLD's handler, as MPI 3.1
     * (the version we advertise) says; programs set MPI_ERRORS_RETURN there and expect it to hold. */
    struct axon_comm *target = comm;
    if (!target && atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_ACTIVE)
        target = axon_mpi_comm_get(MPI_COMM_WORLD);
    struct axon_errhandler *eh = target ? axon_mpi_errhandler_get(target->errhandler) : NULL;
    const char *name = axon_mpi_error_class_name(errclass);
    if (!name)
        axon_mpi_error_dynamic(errclass, NULL, &name); /* a class or code the program added */

    if (eh && eh->kind == AXON_ERRHANDLER_RETURN) {
        axon_runtime_log_debug(1, "%s: %s: %s (returned)", func, name ? name : "?", detail);
        return errclass;
    }
    if (eh && eh->kind == AXON_ERRHANDLER_USER) {
        MPI_Comm handle = target->handle;
        int code = errclass;
        eh->fn(&handle, &code, func, detail);
        return errclass;
    }
    /* MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT, or no handler to ask (outside MPI_Init..MPI_Finalize). */
    axon_runtime_log_error("%s%s%s: %s: %s; %s ends the job", func, comm ? " on " : "",
                           comm ? comm->name : "", name ? name : "unknown error class", detail,
                           eh && eh->kind == AXON_ERRHANDLER_ABORT ? "MPI_ERRORS_ABORT" : "MPI_ERRORS_ARE_FATAL");
    char message[256];
    snprintf(message, sizeof(message), "%s failed (%s) under MPI_ERRORS_ARE_FATAL", func,
             name ? name : "unknown error class");
    axon_runtime_bootstrap_abort(errclass ? errclass : 1, message);
}
