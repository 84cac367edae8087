/* Internal header of one-sided communication at the API (mpi/rma/): the window object behind an MPI_Win
 * handle, its table, the hints a window was made with, and how errors on a window are raised. The engine
 * below (rma/rma.h) owns the window's memory, its operations and synchronization; this layer owns
 * the handle, the hidden communicator whose engine contexts carry the engine's messages, the group,
 * attributes, name, error handler and info hints. Only mpi/ includes this. */
#ifndef AXON_MPI_WIN_H
#define AXON_MPI_WIN_H

#include "mpi/comm/axon_mpi_comm.h"
#include "rma/rma.h"

#include <stdbool.h>
#include <stdint.h>

/* The hints in use (MPI 4.1 section 12.2.1), parsed from the info object of the constructor. Values that
 * are not one of those the standard names are ignored, as hints may be. */
struct axon_win_hints {
    bool no_locks;             /* "no_locks": the program never locks the window */
    bool same_size;            /* "same_size": every member gave the same size */
    bool same_disp_unit;       /* "same_disp_unit" */
    bool noncontig;            /* "alloc_shared_noncontig" (MPI_Win_allocate_shared) */
    bool same_op;              /* "accumulate_ops" is "same_op" (else "same_op_no_op", the default) */
    char accumulate_ordering[32]; /* "rar,raw,war,waw" (the default), a subset of it, or "none" */
    int64_t accumulate_granularity; /* "mpi_accumulate_granularity", bytes; 0 when not given */
};

/* A window. Fields after the handle are fixed at creation, except name, errhandler, attrs and info. */
struct axon_win {
    MPI_Win handle;
    struct axon_rma_win *engine;
    struct axon_comm *comm;    /* hidden duplicate of the creating communicator: its pt2pt, tagged and coll
                                * views are the engine's ops, reply and coll contexts */
    struct axon_group *group;  /* the creating communicator's group (one reference) */
    enum axon_rma_flavor flavor;
    void *base;                /* this rank's part (NULL for dynamic windows: MPI_BOTTOM) */
    int64_t size, disp_unit;
    int model;                 /* MPI_WIN_UNIFIED: the engine keeps one copy of the memory */
    struct axon_win_hints hints;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Errhandler errhandler;
    struct axon_attr *attrs;
    MPI_Info info;             /* hints given to the constructor and MPI_Win_set_info (a copy), or NULL */
    /* What the predefined attributes point to (MPI_WIN_BASE is the base pointer itself). */
    MPI_Aint attr_size;
    int attr_disp_unit, attr_flavor, attr_model;
};

/* ---- the table (axon_mpi_win_table.c) ------------------------------------------------------------ */

/* The window of a handle, or NULL when it is not a live window (MPI_WIN_NULL included). */
struct axon_win *axon_mpi_win_get(MPI_Win handle);
/* Gives w a handle. MPI_ERR_INTERN when every slot is taken. */
int axon_mpi_win_handle_new(struct axon_win *w);
/* Takes w's handle away (MPI_Win_free's end); the caller frees the object. */
void axon_mpi_win_handle_drop(struct axon_win *w);
/* Frees what the MPI layer holds of a window (hidden communicator, group, info, error handler, attribute
 * records without their callbacks); the engine's window must be freed already or abandoned. */
void axon_mpi_win_destroy(struct axon_win *w);
/* MPI_Finalize: the windows the program did not free are dropped (the engine is finalized separately). */
void axon_mpi_win_table_finalize(void);
/* The name the program gave the window of handle, into name (MPI_MAX_OBJECT_NAME bytes); "" when none or
 * no window (axon_mpi_handle_name). */
void axon_mpi_win_name_get(MPI_Win handle, char *name);

/* Raises errclass from func through w's error handler, with a message naming the window. */
int axon_mpi_win_error(struct axon_win *w, const char *func, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The check that every function taking a window starts with: an invalid handle is an error on no
 * object (there is no window whose handler could take it). */
#define AXON_MPI_WIN_CHECK(func, handle, win_var)                                                   \
    do {                                                                                             \
        (win_var) = axon_mpi_win_get(handle);                                                        \
        if (__builtin_expect((win_var) == NULL, 0))                                                  \
            return axon_mpi_error(NULL, func, MPI_ERR_WIN, "invalid window %s",                      \
                                  AXON_MPI_HANDLE_NAME(handle));                                     \
    } while (0)

/* An engine failure: its class, with the engine's reason. */
#define AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why)                                                  \
    axon_mpi_win_error(w, func, rc, "%s", (why) ? (why) : "the one-sided engine failed")

#endif
