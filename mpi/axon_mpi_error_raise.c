/* Raising an error: the function that first sees a bad argument or a failure calls axon_mpi_error with
 * what was wrong; the communicator's error handler decides what happens. MPI_ERRORS_ARE_FATAL (the
 * default) prints the function, the error and the rank, then ends the job; MPI_ERRORS_RETURN hands the
 * class back; a user handler is called with it. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdio.h>

/* What eh (NULL: no handler to ask) makes of an error: returned, handed to the user's function with
 * handle (a communicator's or a session's), or the end of the job. on names the object, or is NULL. */
static int axon_mpi_error_dispatch(struct axon_errhandler *eh, int handle, const char *on, const char *func,
                                   int errclass, const char *detail)
{
    const char *name = axon_mpi_error_class_name(errclass);
    if (!name)
        axon_mpi_error_dynamic(errclass, NULL, &name); /* a class or code the program added */

    if (eh && eh->kind == AXON_ERRHANDLER_RETURN) {
        axon_runtime_log_debug(1, "%s: %s: %s (returned)", func, name ? name : "?", detail);
        return errclass;
    }
    if (eh && eh->kind == AXON_ERRHANDLER_USER) {
        /* MPI_Comm and MPI_Session are both ints in the MPICH ABI: a session's handler gets its handle. */
        MPI_Comm h = handle;
        int code = errclass;
        eh->fn(&h, &code, func, detail);
        return errclass;
    }
    /* MPI_ERRORS_ARE_FATAL, MPI_ERRORS_ABORT, or no handler to ask (outside the library's life). */
    axon_runtime_log_error("%s%s%s: %s: %s; %s ends the job", func, on ? " on " : "", on ? on : "",
                           name ? name : "unknown error class", detail,
                           eh && eh->kind == AXON_ERRHANDLER_ABORT ? "MPI_ERRORS_ABORT" : "MPI_ERRORS_ARE_FATAL");
    char message[256];
    snprintf(message, sizeof(message), "%s failed (%s) under MPI_ERRORS_ARE_FATAL", func,
             name ? name : "unknown error class");
    axon_runtime_bootstrap_abort(errclass ? errclass : 1, message);
}

int axon_mpi_error(struct axon_comm *comm, const char *func, int errclass, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);

    /* Errors tied to no communicator (or to an invalid one) go to MPI_COMM_SELF's handler, as MPI 4.0
     * says, once the program has chosen one there; until then to MPI_COMM_WORLD's, as MPI 3.1 said:
     * programs written for it set MPI_ERRORS_RETURN there and expect it to hold (MPICH does the same). */
    struct axon_comm *target = comm;
    if (!target && atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_ACTIVE) {
        target = axon_mpi_comm_get(MPI_COMM_SELF);
        if (!target || !target->errhandler_chosen)
            target = axon_mpi_comm_get(MPI_COMM_WORLD);
    }
    struct axon_errhandler *eh = target ? axon_mpi_errhandler_get(target->errhandler) : NULL;
    /* "on MPI_COMM_WORLD", "on communicator \"halo\" (0x84000002)", "on communicator 0x84000003". */
    char on[AXON_MPI_HANDLE_NAME_MAX + 16] = "";
    if (comm) {
        const char *name = AXON_MPI_HANDLE_NAME(comm->handle);
        snprintf(on, sizeof(on), "%s%s", name[0] == '"' || name[0] == '0' ? "communicator " : "", name);
    }
    return axon_mpi_error_dispatch(eh, target ? target->handle : MPI_COMM_NULL, comm ? on : NULL, func, errclass,
                                   detail);
}

int axon_mpi_error_with(MPI_Errhandler errhandler, int handle, const char *on, const char *func, int errclass,
                        const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    return axon_mpi_error_dispatch(axon_mpi_errhandler_get(errhandler), handle, on, func, errclass, detail);
}
