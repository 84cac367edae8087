/* The one-sided engine: windows (their memory, how each target is reached) and the operations and
 * synchronizations of MPI's RMA chapter, for the MPI layer (mpi/rma/), which checks arguments, owns the
 * handles, attributes, names and error handlers, and gives each window a hidden duplicate of its
 * communicator whose three engine contexts carry the engine's messages.
 *
 * How a target is reached (rma/README.md has the details):
 * - itself, and a node peer whose window lies in shared memory (MPI_Win_allocate, _allocate_shared):
 *   loads, stores and memcpy, with no help from the target;
 * - a node peer whose window is the program's memory (MPI_Win_create, dynamic windows): one copy by
 *   process_vm_readv/_writev, again with no help from the target;
 * - anything else (another node, a peer that may not be read, GPU memory): messages that the target's
 *   progress engine serves (a progress hook while any window lives), through the point-to-point engine,
 *   so they go by its rings, UCX, staging and pipelines like any message.
 * Locks, the accumulate mutex and the counters of each rank live in a small control block in shared
 * memory that the node's ranks map: node peers take them with CPU atomics, and a remote origin asks the
 * target, which takes them with the same atomics on its behalf, so every atomic on a word is a CPU
 * atomic and the two kinds of origin exclude each other. Accumulates are applied under the target's
 * accumulate mutex, which makes them element-wise atomic whatever mix of operations and sizes arrives. */
#ifndef AXON_RMA_H
#define AXON_RMA_H

#include "coll/axon_coll_op.h"
#include "pt2pt/pt2pt.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

struct axon_rma_win;

enum axon_rma_flavor {
    AXON_RMA_CREATE = MPI_WIN_FLAVOR_CREATE,
    AXON_RMA_ALLOCATE = MPI_WIN_FLAVOR_ALLOCATE,
    AXON_RMA_DYNAMIC = MPI_WIN_FLAVOR_DYNAMIC,
    AXON_RMA_SHARED = MPI_WIN_FLAVOR_SHARED,
};

/* What a new window is. Every member calls axon_rma_win_create with the same flavor and views. */
struct axon_rma_win_spec {
    enum axon_rma_flavor flavor;
    void *base;               /* AXON_RMA_CREATE: the program's memory */
    int64_t size;             /* bytes (CREATE, ALLOCATE, SHARED); 0 for DYNAMIC */
    int64_t disp_unit;
    bool noncontig;           /* SHARED: alloc_shared_noncontig (each rank's part page-aligned) */
    bool device_memory;       /* ALLOCATE: the memory is the rank's GPU's (a device kind is on) */
    bool accumulate_ordered;  /* accumulate_ordering is not "none"; the engine applies every origin's
                               * accumulates in order either way */
    /* The window's hidden communicator: its engine contexts, all over the same members. ops carries
     * requests to targets (tag AXON_RMA_TAG_OP) and their data, reply the answers, coll the engine's own
     * barriers and exchanges. */
    struct axon_pt2pt_comm *ops, *reply, *coll;
};

/* Makes a window (collective over spec's members): *base_out gets this rank's memory (for ALLOCATE and
 * SHARED, memory the engine allocated; NULL when size is 0). Returns an error class, with *why saying
 * what went wrong. */
int axon_rma_win_create(const struct axon_rma_win_spec *spec, struct axon_rma_win **out, void **base_out,
                        const char **why);
/* Frees a window (collective): waits until every member is done with it. MPI_ERR_RMA_SYNC (and nothing
 * freed) while this rank still holds an epoch open. */
int axon_rma_win_free(struct axon_rma_win *w, const char **why);
/* Its local part, which changes nothing: MPI_ERR_RMA_SYNC while an epoch is open here. */
int axon_rma_win_can_free(const struct axon_rma_win *w, const char **why);

/* Dynamic windows: memory made reachable and taken back (local calls). MPI_ERR_RMA_ATTACH when the
 * region overlaps one attached already, or too many are; MPI_ERR_RMA_RANGE for detaching what is not
 * attached. */
int axon_rma_win_attach(struct axon_rma_win *w, void *base, int64_t size, const char **why);
int axon_rma_win_detach(struct axon_rma_win *w, const void *base, const char **why);

/* MPI_Win_shared_query: rank's part of a window in shared memory (MPI_PROC_NULL: the first rank with a
 * non-empty part); size 0 at NULL when rank's memory cannot be reached by loads and stores here or is
 * empty (MPI 4.1 lets every flavour be asked). */
int axon_rma_win_shared_query(struct axon_rma_win *w, int rank, int64_t *size, int64_t *disp_unit, void **base,
                              const char **why);
/* This rank's part (what MPI_WIN_BASE and MPI_WIN_SIZE say). */
void axon_rma_win_local(const struct axon_rma_win *w, void **base, int64_t *size, int64_t *disp_unit);

enum axon_rma_op_kind {
    AXON_RMA_PUT,
    AXON_RMA_GET,
    AXON_RMA_ACC,      /* MPI_Accumulate: origin op target, into the target */
    AXON_RMA_GET_ACC,  /* MPI_Get_accumulate and MPI_Fetch_and_op: the target's old data into result */
    AXON_RMA_CAS,      /* MPI_Compare_and_swap: one element */
};

/* One operation, its arguments checked by the MPI layer (datatypes committed, the target datatype made
 * of the origin's basic type for accumulates, counts non-negative). The target layout describes the
 * target's memory from target_disp * disp_unit. */
struct axon_rma_op {
    enum axon_rma_op_kind kind;
    const void *origin;         /* PUT, ACC, GET_ACC (unused for MPI_NO_OP), CAS (the new value) */
    int64_t origin_count;
    const struct axon_dtype_layout *origin_dt; /* NULL when the kind uses no origin buffer */
    void *result;               /* GET (the destination), GET_ACC, CAS */
    int64_t result_count;
    const struct axon_dtype_layout *result_dt; /* NULL without a result buffer */
    const void *compare;        /* CAS */
    int target;                 /* rank in the window's group, or MPI_PROC_NULL */
    int64_t target_disp;
    int64_t target_count;
    const struct axon_dtype_layout *target_dt;
    MPI_Op op;                  /* ACC, GET_ACC: a predefined operation, MPI_REPLACE or MPI_NO_OP */
    struct axon_coll_op *op_obj;
};

/* Starts an operation. With req NULL it completes at the next synchronization (flush, unlock, fence,
 * complete); else *req is a request that completes when the origin's buffers may be reused (put,
 * accumulate) or the result has arrived (get, get-accumulate, compare-and-swap). Errors: MPI_ERR_RMA_SYNC
 * outside an access epoch to the target, MPI_ERR_RMA_RANGE beyond the target's window, MPI_ERR_RANK. */
int axon_rma_op_start(struct axon_rma_win *w, const struct axon_rma_op *op, struct axon_request **req,
                      const char **why);

/* Synchronization. Ranks are of the window's group; each returns an error class and *why.
 * assert is MPI's MPI_MODE_* bits. */
int axon_rma_fence(struct axon_rma_win *w, int assert, const char **why);
/* Exposure (post/wait/test) and access (start/complete) epochs over a group given as sorted window
 * ranks. */
int axon_rma_post(struct axon_rma_win *w, const int *ranks, int n, int assert, const char **why);
int axon_rma_start(struct axon_rma_win *w, const int *ranks, int n, int assert, const char **why);
int axon_rma_complete(struct axon_rma_win *w, const char **why);
int axon_rma_wait(struct axon_rma_win *w, const char **why);
int axon_rma_test(struct axon_rma_win *w, bool *flag, const char **why);
/* Passive target. lock_type is MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED. */
int axon_rma_lock(struct axon_rma_win *w, int lock_type, int rank, int assert, const char **why);
int axon_rma_unlock(struct axon_rma_win *w, int rank, const char **why);
int axon_rma_lock_all(struct axon_rma_win *w, int assert, const char **why);
int axon_rma_unlock_all(struct axon_rma_win *w, const char **why);
/* rank MPI_PROC_NULL... not allowed; AXON_RMA_ALL: every target. local: only the origin's buffers. */
#define AXON_RMA_ALL (-1)
int axon_rma_flush(struct axon_rma_win *w, int rank, bool local, const char **why);
/* MPI_Win_sync: the window's memory and its public copy agree (a full memory barrier). */
int axon_rma_sync(struct axon_rma_win *w, const char **why);

/* The engine's life: its progress hook and knobs (MPI_Init), and its end (MPI_Finalize, after the
 * program freed its windows or not). */
int axon_rma_init(void);
void axon_rma_finalize(void);

#define AXON_RMA_TAG_OP 0 /* requests to a target, on the ops context; data follows on other tags */

#endif
