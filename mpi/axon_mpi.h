/* Internal header of the mpi/ layer: the MPI API's process state, the communicator and error-handler
 * objects behind the MPICH-ABI integer handles, error raising, and the macros every API function uses
 * for its PMPI_ name and its checks. Only mpi/ includes it. */
#ifndef AXON_MPI_H
#define AXON_MPI_H

/* The public declarations must keep default visibility although the library builds with
 * -fvisibility=hidden: they are the only symbols libmpi.so exports. */
#pragma GCC visibility push(default)
#include <mpi.h>
#include <mpi-ext.h>
#pragma GCC visibility pop

#include "coll/axon_coll_comm.h"
#include "pt2pt/pt2pt.h"
#include "runtime/axon_runtime_array.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdnoreturn.h>

/* Every MPI_X is a weak alias of PMPI_X, which holds the code: a profiler defines MPI_X and calls PMPI_X. */
#define AXON_MPI_PRAGMA(text) _Pragma(#text)
#define AXON_MPI_WEAK(name) AXON_MPI_PRAGMA(weak MPI_##name = PMPI_##name)
#define AXON_MPIX_WEAK(name) AXON_MPI_PRAGMA(weak MPIX_##name = PMPIX_##name)

/* ---- process state (axon_mpi_state.c) ------------------------------------------------------------ */

/* Two models of MPI 4 share one library: the world model (MPI_Init .. MPI_Finalize) and sessions
 * (MPI_Session_init .. MPI_Session_finalize, mpi/session/axon_mpi_session.c). phase is the library's own state:
 * it comes up with the first of MPI_Init and MPI_Session_init and goes down when the world model is
 * finalized and no session is left (or, when only sessions ever used it, at the process's exit, so that
 * a session may be made again after the last one ended). world is the world model's, which
 * MPI_Initialized and MPI_Finalized report. */
enum axon_mpi_phase {
    AXON_MPI_PHASE_PRE_INIT,
    AXON_MPI_PHASE_ACTIVE,
    AXON_MPI_PHASE_FINALIZED,
};

struct axon_mpi_state {
    atomic_int phase;        /* the library: every call but a few needs it ACTIVE */
    atomic_int world;        /* the world model: PRE_INIT, ACTIVE after MPI_Init, FINALIZED after MPI_Finalize */
    int sessions;            /* live sessions (under axon_mpi_init_lock) */
    int thread_level;        /* the library's, fixed when it came up (MPI_Init_thread or the first session) */
    pthread_t main_thread;   /* the thread that called MPI_Init(_thread), or made the first session */
};

extern struct axon_mpi_state axon_mpi_state;
/* Serializes bringing the library up and down (axon_mpi_init.c). */
extern pthread_mutex_t axon_mpi_init_lock;

/* Brings the library up at thread level required (at most MPI_THREAD_MULTIPLE) if it is not; returns
 * MPI_SUCCESS, or MPI_ERR_OTHER when it was finalized already (it cannot start again). A failure on the
 * way ends the job: nothing exists yet to report it to. Called with axon_mpi_init_lock held. */
int axon_mpi_library_up(const char *func, int required);
/* Takes the library down: every engine, the transport, the bootstrap. Called with axon_mpi_init_lock
 * held, by MPI_Finalize or the last MPI_Session_finalize after it. */
int axon_mpi_library_down(void);

/* Calls outside the library's life cannot reach an error handler: they print what happened and end
 * the process with exit code 1 (the initial error handler is MPI_ERRORS_ARE_FATAL). */
noreturn void axon_mpi_state_fail_outside(const char *func);

#define AXON_MPI_REQUIRE_ACTIVE(func)                                                               \
    do {                                                                                             \
        if (__builtin_expect(atomic_load_explicit(&axon_mpi_state.phase, memory_order_acquire) !=   \
                                 AXON_MPI_PHASE_ACTIVE, 0))                                          \
            axon_mpi_state_fail_outside(func);                                                       \
    } while (0)

/* ---- error handlers (axon_mpi_errhandler.c) ------------------------------------------------------ */

enum axon_errhandler_kind {
    AXON_ERRHANDLER_FATAL,
    AXON_ERRHANDLER_RETURN,
    AXON_ERRHANDLER_ABORT,
    AXON_ERRHANDLER_USER,
};

/* What a user's handler was made for (MPI_Comm_create_errhandler, _Win_, _File_, _Session_): it may be
 * set on objects of that kind only (MPI_ERR_ARG elsewhere, as MPICH answers). */
enum axon_errhandler_object {
    AXON_ERRHANDLER_FOR_COMM,
    AXON_ERRHANDLER_FOR_WIN,
    AXON_ERRHANDLER_FOR_FILE,
    AXON_ERRHANDLER_FOR_SESSION,
};

struct axon_errhandler {
    enum axon_errhandler_kind kind;
    enum axon_errhandler_object object; /* AXON_ERRHANDLER_USER */
    MPI_Comm_errhandler_function *fn;   /* AXON_ERRHANDLER_USER */
    int refcount;                       /* user handles: freed when it reaches 0 */
};

/* The object of a handle, or NULL if the handle is not a live error handler. */
struct axon_errhandler *axon_mpi_errhandler_get(MPI_Errhandler handle);
void axon_mpi_errhandler_retain(MPI_Errhandler handle);
void axon_mpi_errhandler_release(MPI_Errhandler handle);
/* A new user handler calling fn: MPI_SUCCESS, MPI_ERR_NO_MEM, or MPI_ERR_INTERN when the table is full.
 * Needs no MPI_Init (MPI_Session_create_errhandler comes before MPI_Session_init). */
int axon_mpi_errhandler_create(MPI_Comm_errhandler_function *fn, enum axon_errhandler_object object,
                               MPI_Errhandler *errhandler);
/* Whether a live handler may be set on an object of that kind: a predefined one anywhere, a user's where
 * it was made for. */
bool axon_mpi_errhandler_fits(MPI_Errhandler handle, enum axon_errhandler_object object);

/* ---- communicators (axon_mpi_comm_table.c) ------------------------------------------------------- */

struct axon_group;
struct axon_attr;
struct axon_bsend_buffer;

/* The rest of the communicator layer (groups, context ids, creation, attributes, info) is in
 * mpi/comm/axon_mpi_comm.h. */
struct axon_comm {
    MPI_Comm handle;
    int rank, size;                /* in the local group (the only group of an intracommunicator) */
    MPI_Errhandler errhandler;
    bool errhandler_chosen;        /* by MPI_Comm_set_errhandler (MPI_COMM_SELF's then takes unbound errors) */
    char name[MPI_MAX_OBJECT_NAME];
    struct axon_pt2pt_comm pt2pt;  /* user point-to-point; on an intercommunicator its ranks (size, world_ranks)
                                    * are the remote group's, while the envelope carries our local rank */
    struct axon_pt2pt_comm coll;   /* internal collective traffic, which user receives never match */
    struct axon_pt2pt_comm tagged; /* creation traffic keyed by a user's tag (MPI_Comm_create_group,
                                    * MPI_Intercomm_create's leaders) */
    struct axon_pt2pt_comm part;   /* partitioned communication, attached at its first MPI_Psend_init or
                                    * MPI_Precv_init (axon_mpi_partitioned.c) */
    struct axon_part_pair *part_pairs; /* the initializations so far, by peer, tag and direction */
    uint32_t context_index;        /* the allocated id: engine contexts 8 * index + 0 .. 4 */
    bool is_inter;
    int remote_size;               /* intercommunicator: the remote group's size */
    struct axon_group *group, *remote_group;
    struct axon_comm *local_comm;  /* intercommunicator: a hidden intracommunicator over the local group */
    struct axon_attr *attrs;       /* cached attributes, in the order they were first set */
    MPI_Info info;                 /* MPI_Comm_set_info's hints, or MPI_INFO_NULL */
    struct axon_comm *zombie_next; /* freed, waiting for its last request */
    struct axon_coll_comm collectives; /* what the collectives know and keep of it (coll/axon_coll_comm.h) */
    atomic_uint idup_seq;          /* MPI_Comm_idup calls on it: their rounds' tags (axon_mpi_comm_idup.c) */
    struct axon_bsend_buffer *bsend; /* MPI_Comm_attach_buffer's, or NULL: buffered sends on it then use its
                                      * session's or the process's (mpi/pt2pt/axon_mpi_bsend.c; not copied by
                                      * duplication) */
    MPI_Session session;             /* the session it derives from (through its groups or its parent); 0:
                                      * the world model */
    int *ft_acked;                   /* MPIX_Comm_failure_ack's: the members lost then (pt2pt ranks) */
    int ft_nacked;
};

/* The object of a handle, or NULL if the handle is not a live communicator (MPI_COMM_NULL included). */
struct axon_comm *axon_mpi_comm_get(MPI_Comm handle);
int axon_mpi_comm_table_init(void);
void axon_mpi_comm_table_finalize(void);
/* The start of MPI_Finalize: MPI_COMM_SELF's attributes are deleted (their callbacks run, newest first)
 * while MPI is still fully usable, as the standard says. */
void axon_mpi_comm_finalize_callbacks(void);

/* ---- datatypes (axon_mpi_datatype_builtin.c) ------------------------------------------------------ */

int axon_mpi_datatype_init(void);
void axon_mpi_datatype_finalize(void);
/* The layout of a datatype handle; false if the handle is not a usable datatype (uncommitted derived
 * types are not: communication with them is MPI_ERR_TYPE). The rest of the datatype layer is in
 * mpi/datatype/axon_mpi_datatype.h. */
bool axon_mpi_datatype_get_other(MPI_Datatype handle, struct axon_dtype_layout *layout);
/* Every communication call makes this lookup, so the common case, a predefined type, is inline: MPICH's
 * builtin handles (kind 1, type 3 in the top bits) carry their size in bits 8-15. */
static inline bool axon_mpi_datatype_get(MPI_Datatype handle, struct axon_dtype_layout *layout)
{
    unsigned h = (unsigned)handle;
    if (__builtin_expect((h >> 26) == ((1u << 4) | 3u), 1)) {
        /* Field by field: GCC builds an assigned compound literal on the stack with stores of mixed
         * widths and reads it back in 16-byte loads, which the store buffer cannot forward. */
        int64_t size = (h >> 8) & 0xffu;
        layout->size = size;
        layout->extent = size;
        layout->true_lb = 0;
        layout->true_extent = size;
        layout->contig = true;
        layout->loop = NULL;
        layout->basic = handle;
        layout->basic_count = 1;
        return true;
    }
    return axon_mpi_datatype_get_other(handle, layout);
}

/* ---- requests (axon_mpi_request.c) ---------------------------------------------------------------- */

#define AXON_REQUEST_HANDLE_BASE 0xac000000u /* MPICH's direct request handles */
/* The shared request of sends that completed as they started (axon_request_sent), in MPICH's builtin
 * form. */
#define AXON_REQUEST_HANDLE_SENT ((MPI_Request)0x6c000001)
static inline MPI_Request axon_mpi_request_handle(const struct axon_request *req)
{
    return (MPI_Request)(AXON_REQUEST_HANDLE_BASE | req->index);
}
/* The request of a handle, or NULL (MPI_REQUEST_NULL included). */
struct axon_request *axon_mpi_request_get(MPI_Request handle);
/* Fills a user status from a completed request (status may be MPI_STATUS_IGNORE). */
void axon_mpi_status_set(MPI_Status *status, const struct axon_request *req);
/* Completes a request for the user: its status, then frees it and sets *handle to MPI_REQUEST_NULL.
 * Returns the request's error. */
int axon_mpi_request_complete(MPI_Request *handle, struct axon_request *req, MPI_Status *status);

/* Generalized requests (axon_mpi_grequest.c), kind AXON_REQUEST_USER: a completion call's end (query_fn
 * fills status, free_fn runs, the request is freed and *handle nulled); MPI_Request_get_status's query;
 * MPI_Request_free (free_fn); MPI_Cancel (cancel_fn). Each returns the class a callback returned. */
int axon_mpi_grequest_finish(MPI_Request *handle, struct axon_request *req, MPI_Status *status);
int axon_mpi_grequest_status(struct axon_request *req, MPI_Status *status);
int axon_mpi_grequest_free(struct axon_request *req);
int axon_mpi_grequest_cancel(struct axon_request *req);

/* ---- topologies (axon_mpi_topo_*.c) -------------------------------------------------------------- */

/* Fills the zero entries of dims with a balanced factorization (MPI_Dims_create); an error class. */
int axon_topo_dims_balance(int nnodes, int ndims, int *dims);

/* ---- partitioned communication (axon_mpi_partitioned.c) ------------------------------------------- */

/* MPI_Start of a partitioned request: a receive is posted, a send waits for its partitions. */
int axon_mpi_partitioned_start(struct axon_request *req);
/* MPI_Request_free of one: its place among its peer's and tag's live operations is given back. */
void axon_mpi_partitioned_free(struct axon_request *req);
/* The tag it was made with (its messages carry another: axon_mpi_partitioned.c). */
int axon_mpi_partitioned_tag(const struct axon_request *req);
/* A communicator's record of its partitioned initializations goes with it. */
void axon_mpi_partitioned_comm_destroy(struct axon_comm *c);

/* ---- buffered sends (axon_mpi_bsend.c) ----------------------------------------------------------- */

/* Copies a message into the buffer it uses (its communicator's, else the process's) and starts its send;
 * returns an error class, with *why saying what went wrong. comm is a communicator's user view (&c->pt2pt). */
int axon_mpi_bsend_start(struct axon_pt2pt_comm *comm, const void *buf, int64_t count,
                         const struct axon_dtype_layout *dt, int dest, int tag, const char **why);
/* At MPI_Finalize: waits until the buffered messages have left, and forgets every buffer. */
void axon_mpi_bsend_finalize(void);
/* At MPI_Comm_free: a buffer still attached to c is drained (as detach would) and forgotten. */
void axon_mpi_bsend_comm_free(struct axon_comm *c);

/* ---- errors (axon_mpi_error_raise.c, axon_mpi_error_string.c) ------------------------------------ */

/* Raises errclass from func on comm through its error handler, with a message that says what was wrong.
 * comm NULL: an error tied to no communicator or to an invalid one, raised on MPI_COMM_SELF once the
 * program set a handler there (MPI 4.0), else on MPI_COMM_WORLD (MPI 3.1). Returns the code the API
 * function returns, if the handler returns at all. */
int axon_mpi_error(struct axon_comm *comm, const char *func, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same through a given handler (a session's, or the one a creation from a group names), whose user
 * function gets handle; on names the object in the fatal message (or NULL). */
int axon_mpi_error_with(MPI_Errhandler errhandler, int handle, const char *on, const char *func, int errclass,
                        const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The name ("MPI_ERR_COMM") and the description of an error class, or NULL if it is not one. */
const char *axon_mpi_error_class_name(int errclass);
const char *axon_mpi_error_class_text(int errclass);
/* Codes and classes the program added (axon_mpi_error_add.c): false if code is not one; else its class
 * and a name for messages. */
bool axon_mpi_error_dynamic(int code, int *errclass, const char **name);
/* Its MPI_Add_error_string text ("" if none), cut to size. */
void axon_mpi_error_dynamic_text(int code, char *out, size_t size);
/* The value of the MPI_LASTUSEDCODE attribute (axon_mpi_comm_attr.c). */
void axon_mpi_attr_lastusedcode_set(int code);

/* A handle of any kind in words for a message (axon_mpi_handle_name.c): "MPI_SUM", "MPI_COMM_NULL",
 * "MPI_DOUBLE_INT", "\"halo\" (0x8c000003)" for a datatype, communicator or window the program
 * named, else its number "0x98000001". Written into buf, which it returns. AXON_MPI_HANDLE_NAME(h) gives one a
 * buffer of its own that lives to the end of the enclosing statement: use it for arguments. */
const char *axon_mpi_handle_name(int handle, char *buf, size_t len);
#define AXON_MPI_HANDLE_NAME_MAX (MPI_MAX_OBJECT_NAME + 16)
#define AXON_MPI_HANDLE_NAME(h)                                                                      \
    axon_mpi_handle_name((int)(h), (char[AXON_MPI_HANDLE_NAME_MAX]){0}, AXON_MPI_HANDLE_NAME_MAX)

/* The check that every function taking a communicator starts with. */
#define AXON_MPI_COMM_CHECK(func, handle, comm_var)                                                 \
    do {                                                                                             \
        (comm_var) = axon_mpi_comm_get(handle);                                                      \
        if (__builtin_expect((comm_var) == NULL, 0))                                                 \
            return axon_mpi_error(NULL, func, MPI_ERR_COMM, "invalid communicator %s",               \
                                  AXON_MPI_HANDLE_NAME(handle));                                     \
    } while (0)

#endif
