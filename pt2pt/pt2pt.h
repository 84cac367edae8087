/* The point-to-point engine: what the layers above may call. Messages are UCX active messages that
 * carry MPI's envelope (context, source, tag); matching is ours (pt2pt/axon_pt2pt_match.h); UCX chooses
 * eager or rendezvous by size and moves rendezvous payloads zero-copy with ucp_am_recv_data_nbx once a
 * receive has matched. Typed data streams through the data-layout cursor in segments (UCX generic
 * datatype), and contiguous data goes as it is.
 *
 * Requests come from a pool (no malloc per message once warm); the engine completes them from the
 * progress call; waiting goes through axon_ucx_wait. Under MPI_THREAD_MULTIPLE the transport lock
 * (axon_ucx_lock) serializes the engine's entry points with progress, where its callbacks run. */
#ifndef AXON_PT2PT_H
#define AXON_PT2PT_H

#include "memkind/axon_memkind.h"
#include "pt2pt/axon_pt2pt_dloop.h"
#include "pt2pt/axon_pt2pt_match.h"
#include "runtime/runtime.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

/* What the engine needs to know of a datatype. */
struct axon_dtype_layout {
    int64_t size;          /* bytes of data in one element */
    int64_t extent;        /* distance between elements */
    int64_t true_lb;       /* where the first byte of data lies, from the buffer's start */
    int64_t true_extent;   /* bytes from the first to the last byte of data of one element */
    bool contig;           /* count elements are one block of count*size bytes at true_lb */
    const struct axon_dloop *loop; /* the layout, when not contig */
    MPI_Datatype basic;    /* the one predefined type the data is made of (reductions), or
                            * MPI_DATATYPE_NULL when it mixes types; a pair type is its own basic */
    int64_t basic_count;   /* basic elements in one element */
};

/* The layout of a predefined type of size bytes: one basic element, contiguous. */
static inline struct axon_dtype_layout axon_dtype_layout_basic(MPI_Datatype type, int64_t size)
{
    return (struct axon_dtype_layout){.size = size, .extent = size, .true_extent = size, .contig = true,
                                      .basic = type, .basic_count = 1};
}

/* Whether data in layout dt at buf is surely host memory by the inline checks: contiguous, starting in
 * the heap, on the caller's stack or on a page known to be host (memkind/axon_memkind.h). Most host buffers of a
 * CUDA-aware rank are told so without a call or the span's arithmetic (a third of what CUDA support
 * cost a host message). False means "look closer". */
static inline bool axon_pt2pt_data_surely_host(const void *buf, const struct axon_dtype_layout *dt)
{
    return dt->contig && axon_memkind_host_inline((const char *)buf + dt->true_lb);
}

/* A communicator as the engine sees it. The layer above embeds it in its communicator object. */
struct axon_pt2pt_comm {
    uint32_t context_id;   /* of point-to-point traffic; unique among live communicators */
    int rank, size;
    const int *world_ranks; /* rank in the communicator -> rank in MPI_COMM_WORLD; NULL: the same */
    struct axon_match_queues queues;
    atomic_int busy;       /* requests and probed messages that name it: the MPI layer keeps a freed
                            * communicator (and its context id) until none does */
    bool host_only;        /* the program asserted that its buffers here are host memory (MPI 4.1's
                            * mpi_assert_memory_alloc_kinds without a GPU kind): no memory-type checks */
    bool collective;       /* a communicator's collective traffic: once a member is lost, all of it fails,
                            * whoever it is with (axon_pt2pt_lost.c) */
};

enum axon_request_kind {
    AXON_REQUEST_SEND,
    AXON_REQUEST_RECV,
    AXON_REQUEST_DONE,       /* born complete (MPI_PROC_NULL) */
    AXON_REQUEST_COLL,       /* a collective: its schedule (coll/) completes it */
    AXON_REQUEST_USER,       /* completed by the MPI layer (a generalized request: MPI_Grequest_complete) */
    AXON_REQUEST_COMPOSITE,  /* completes when its children do (MPI_Isendrecv); the status is one child's */
};

/* BUFFERED only marks persistent buffered sends: the MPI layer copies their data into the attached
 * buffer and sends the copy in standard mode. */
enum axon_send_mode { AXON_SEND_STANDARD, AXON_SEND_SYNC, AXON_SEND_BUFFERED };

/* A request. Its fields are grouped by the kinds that use them:
 * - every kind (first): kind, completion, status, the persistent flags, the arguments of a point-to-point
 *   operation (comm, buf, count, dt, peer, tag), a composite's parent, scratch;
 * - sends and receives, their data's way: ucx_request, stage, pipe and cursor_live before the union,
 *   cursor and gpu (staging and the pipeline) after it. Completion, release and the pipeline's handlers
 *   read ucx_request, stage, pipe and cursor_live whatever the kind, so they stay out of the union (NULL
 *   and false in a request of another kind);
 * - one kind alone, in a union: `send`, `recv`, and `upper` (COLL, USER). A field of the union is read
 *   only by code that knows the request's kind (test kind first: another kind's fields lie over it);
 *   DONE and COMPOSITE requests use none of it.
 * Clearing: the pool zeroes a request it hands out only up to axon_request_clear_size
 * (axon_pt2pt_request.c): everything before the union, and in each member of the union the fields before
 * its "Not cleared" mark. What follows a mark, and everything after the union, is set before use. A field
 * that must start zero goes before its member's mark; the limit is the end of the longest cleared part
 * (the members' cleared parts overlap: one clear serves all). A blocking receive's request lives on its
 * caller's stack, never cleared: axon_pt2pt_recv sets what a receive reads. axon_request_sent is a static
 * complete send, zero but for kind, index, complete and status. */
struct axon_request {
    enum axon_request_kind kind;
    uint32_t index;            /* in the request pool: the handle's low bits */
    atomic_int complete;
    int pending;               /* events still to come before completion (send done, sync ack) */
    MPI_Status status;         /* MPI_SOURCE, MPI_TAG, MPI_ERROR and the byte count when complete */
    int64_t bytes;             /* bytes received (recv; a composite: its receiving child's) */
    bool cancelled;
    bool async_counted;        /* in the progress thread's count of operations in flight */
    bool user_freed;           /* MPI_Request_free came first: free the request when it completes */

    /* Persistent requests (MPI_Send_init, MPI_Recv_init ...) keep their arguments and are started again
     * and again on the same object; between a completion and the next MPI_Start they are inactive. */
    bool persistent;
    bool partitioned;          /* persistent: MPI_Psend_init / MPI_Precv_init (scratch holds its partitions) */
    bool active;               /* persistent: started (axon_pt2pt_start), and not yet completed for the
                                * user (the MPI layer clears it) */
    int peer;                  /* dest or source, for restarting */
    int tag;

    struct axon_pt2pt_comm *comm;
    void *buf;
    int64_t count;
    struct axon_dtype_layout dt;

    struct axon_request *parent; /* a composite's child: the composite to tell when it completes */
    bool parent_status;        /* ... and its status is the one the composite reports */
    void *scratch;             /* freed with the request (MPI_Isendrecv_replace's copy of the message) */

    /* A send's or a receive's data on its way. */
    void *ucx_request;
    void *stage;                     /* a device buffer's host copy, which buf points into while the
                                      * operation runs (pt2pt/axon_pt2pt_stage.c), or a send's IPC
                                      * descriptor (send.stage_ipc); NULL for host memory */
    bool pipe;                       /* a GPU message moving in chunks (pt2pt/axon_pt2pt_pipeline.c) */
    bool cursor_live;                /* cursor below is set */

    union {
        void *upper;           /* a persistent collective: the MPI layer's record of the call (its plan);
                                * a generalized request: its callbacks */
        struct {
            enum axon_send_mode mode; /* standard, synchronous or (persistent) buffered */
            bool cancel_asked;       /* the receiver was asked to drop its message (MPI_Cancel) */
            bool awaits_receiver;    /* one of the pending events comes from the receiver after it matched
                                      * (the acknowledgement, or the pipeline's last chunk) */
            bool stage_ipc;          /* stage is this send's IPC descriptor (released with it) */
            bool stage_known;        /* the caller classified the data already: gpu.stage_info holds
                                      * the answer (a blocking send of a GPU buffer) */
            void *cma_peer;          /* a single copy: the node peer that reads it, until its ack */
            /* Not cleared: */
            unsigned char header[32]; /* the active message's header: UCX reads it until completion */
            uint64_t pipe_rts[2];    /* the pipeline's request to send (struct axon_pt2pt_pipe_rts) */
            uint64_t pipe_peer;      /* the receiver's request (its address there), for the chunks */
            uint64_t pipe_next;      /* the next chunk's offset */
            int pipe_inflight;       /* chunks sent and not yet completed */
        } send;
        struct {
            struct axon_match_entry match; /* in its communicator's posted queue */
            bool stage_pending;      /* into GPU memory, its host copy not taken yet: its message decides
                                      * (gpu.stage_user, stage_lo/len, stage_info are set) */
            /* Not cleared: */
            bool pipe_unpack;        /* gpu.pipe_data is a host copy to unpack into a typed layout */
            uint64_t pipe_take;      /* how much of the pipelined message the receive keeps */
        } recv;
    };

    /* Not cleared: set before use. */
    struct axon_dloop_cursor cursor; /* non-contiguous data, while it streams (cursor_live) */
    /* A send's or a receive's GPU data: staged through a host copy, or moving in chunks. */
    struct {
        char *stage_user;            /* while stage (or recv.stage_pending) is set: the user's buffer, */
        int64_t stage_lo, stage_len; /* the span of it the copy holds, */
        struct axon_memkind_info stage_info; /* and what memory it is */
        /* While pipe is set: the chunks' target or source and what memory it is, */
        char *pipe_data;
        struct axon_memkind_info pipe_info;
        uint64_t pipe_bytes;         /* the message's length, */
        uint64_t pipe_done;          /* and the bytes sent (acknowledged) or received */
    } gpu;
};

/* MPI_Init: the engine, before the exchange of addresses (its handlers and its shared memory exist
 * before any peer can send), then connect, after the exchange (the node's rings mapped). */
int axon_pt2pt_init(void);
int axon_pt2pt_connect(void);
void axon_pt2pt_finalize(void);
/* After the transport's last fence: unmaps the node's segments (axon_pt2pt_shm_release). */
void axon_pt2pt_release(void);

/* Attaches a communicator: messages that came for its context before it existed are matched now. */
int axon_pt2pt_comm_attach(struct axon_pt2pt_comm *comm);
void axon_pt2pt_comm_detach(struct axon_pt2pt_comm *comm);

/* Start a send or a receive; *req is a request to wait on and free. dest/source are ranks of comm,
 * MPI_PROC_NULL, or (receives) MPI_ANY_SOURCE; tag may be MPI_ANY_TAG on receives. */
int axon_pt2pt_isend(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int dest, int tag,
                     struct axon_pt2pt_comm *comm, enum axon_send_mode mode, struct axon_request **req);
/* A standard-mode send that completes as it starts, when it can: a small message to a rank of this node
 * is written into the ring to it, and nothing remains to wait for. MPI_SUCCESS when it went so (the
 * caller hands out axon_request_sent), MPI_ERR_PENDING when it needs a request of its own (another path,
 * or a full ring), another class on an error. */
int axon_pt2pt_isend_now(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int dest, int tag,
                         struct axon_pt2pt_comm *comm);
/* The one request of every send that completed as it started: complete for ever, shared, never freed
 * (MPICH hands out builtin complete requests the same way), so such a send costs no request at all. */
extern struct axon_request axon_request_sent;
/* A blocking standard-mode send of bytes contiguous bytes at buf (the fast path of MPI_Send). */
int axon_pt2pt_send_contig(const void *buf, int64_t bytes, int dest, int tag, struct axon_pt2pt_comm *comm);
/* A blocking receive into a request the caller owns (on its stack): no pool, no handle. When it
 * returns the request holds the status (axon_request's status and bytes) and nothing else to free. */
int axon_pt2pt_recv(void *buf, int64_t count, const struct axon_dtype_layout *dt, int source, int tag,
                    struct axon_pt2pt_comm *comm, struct axon_request *req);
int axon_pt2pt_irecv(void *buf, int64_t count, const struct axon_dtype_layout *dt, int source, int tag,
                     struct axon_pt2pt_comm *comm, struct axon_request **req);
/* A request that is not started: the arguments of a send or a receive, for axon_pt2pt_start (persistent
 * requests). kind is AXON_REQUEST_SEND or AXON_REQUEST_RECV. */
int axon_pt2pt_request_init(enum axon_request_kind kind, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                            int peer, int tag, struct axon_pt2pt_comm *comm, enum axon_send_mode mode,
                            struct axon_request **req);
/* Starts (again) the operation a request holds; the request must be complete or never started. */
int axon_pt2pt_start(struct axon_request *req);
/* The same in two steps, for a partitioned send that moves once its last partition is ready: the request
 * made active and incomplete (false: MPI_PROC_NULL, complete already, nothing to post), then posted. */
bool axon_pt2pt_start_deferred(struct axon_request *req);
int axon_pt2pt_post(struct axon_request *req);

/* Whether a message that a receive (source, tag) would match has arrived; fills status if so. */
int axon_pt2pt_iprobe(int source, int tag, struct axon_pt2pt_comm *comm, int *flag, MPI_Status *status);
/* A matched probe (MPI_Improbe): like iprobe, but the message is taken out of the queue, so no other
 * receive can match it; *message names it for axon_pt2pt_imrecv. */
int axon_pt2pt_improbe(int source, int tag, struct axon_pt2pt_comm *comm, int *flag, MPI_Status *status,
                       uint32_t *message);
/* Whether message names a message taken by a matched probe and not yet received. */
bool axon_pt2pt_message_valid(uint32_t message);
/* Receives a message taken by a matched probe. */
int axon_pt2pt_imrecv(void *buf, int64_t count, const struct axon_dtype_layout *dt, uint32_t message,
                      struct axon_request **req);
/* Marks an operation for cancellation: a receive that has not matched is cancelled at once; a send whose
 * receiver holds its message unreceived (and whose completion waits for the receiver) is cancelled when
 * the receiver drops it; an eager send is not cancelled (it completed as it left). */
int axon_pt2pt_cancel(struct axon_request *req);

/* A request born complete, of the kind given (a buffered send, whose data is already copied). */
int axon_request_alloc_complete(enum axon_request_kind kind, struct axon_request **req);
/* A collective's request: not complete until axon_request_coll_complete, which the schedule calls
 * under the transport lock (a request the user freed meanwhile goes back to the pool then). */
int axon_request_alloc_coll(struct axon_request **req);
void axon_request_coll_complete(struct axon_request *req, int err);
/* A persistent collective's request (MPI_Bcast_init ...): inactive, holding upper (the MPI layer's record
 * of the call), and naming comm until it is freed, so a communicator freed meanwhile stays alive. */
int axon_request_alloc_coll_persistent(struct axon_pt2pt_comm *comm, void *upper, struct axon_request **req);
/* Makes it ready for its next run (active, not complete, a fresh status) before its schedule starts. */
void axon_request_coll_restart(struct axon_request *req);
/* A request the MPI layer completes (generalized requests), holding upper; not complete until
 * axon_request_user_complete, which may come from any thread. */
int axon_request_alloc_user(void *upper, struct axon_request **req);
void axon_request_user_complete(struct axon_request *req);
/* The same, by a caller that holds the transport lock (a progress hook). */
void axon_request_user_complete_locked(struct axon_request *req);
/* A request that completes when all n children do, which it takes over (they go back to the pool as they
 * complete; the caller must not touch them again). Its status is that of children[status_child] (source,
 * tag, received bytes, cancelled), its error the first child's error; scratch (may be NULL) is freed with
 * it. */
int axon_request_composite(struct axon_request **children, int n, int status_child, void *scratch,
                           struct axon_request **req);
struct axon_request *axon_request_get(uint32_t index);
void axon_request_free(struct axon_request *req);
/* Whether req is complete. Where ranks were lost (and the job survives them), one that waits on a lost
 * rank completes here with MPI_ERR_PROC_ABORTED (axon_pt2pt_request_done_lost, axon_pt2pt_lost.c):
 * every poll of a request's completion goes through this. */
bool axon_pt2pt_request_done_lost(struct axon_request *req);
static inline bool axon_pt2pt_request_done(struct axon_request *req)
{
    if (atomic_load_explicit(&req->complete, memory_order_acquire))
        return true;
    return __builtin_expect(axon_runtime_lost_generation() != 0, 0) && axon_pt2pt_request_done_lost(req);
}
/* Whether rank `peer` of comm (or, for MPI_ANY_SOURCE, any member) is lost. */
bool axon_pt2pt_lost_peer(const struct axon_pt2pt_comm *comm, int peer);
/* Whether an operation of comm with rank `peer` would go to or wait on a lost rank (or be collective
 * traffic of a communicator with one). */
bool axon_pt2pt_lost_refuses(const struct axon_pt2pt_comm *comm, int peer);
bool axon_request_test(struct axon_request *req);   /* one round of progress if not complete */
void axon_request_wait(struct axon_request *req);
/* Waits until at least one of reqs (NULL entries skipped) completes. */
void axon_request_wait_any(struct axon_request **reqs, int n);

#endif
