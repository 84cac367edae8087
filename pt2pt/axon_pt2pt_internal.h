/* Internals shared by the files of the point-to-point engine. */
#ifndef AXON_PT2PT_INTERNAL_H
#define AXON_PT2PT_INTERNAL_H

#include "pt2pt/pt2pt.h"

#include "ucx_glue/ucx_glue.h"

#include <stddef.h>

#define AXON_AM_PT2PT 1     /* a message: header, then the payload */
#define AXON_AM_SYNC_ACK 2  /* a synchronous send's receive has matched */

#define AXON_PT2PT_FLAG_SYNC 1u
#define AXON_PT2PT_FLAG_IPC 2u  /* the payload is a struct axon_memkind_ipc_desc: read the data in place */
#define AXON_PT2PT_FLAG_CMA 4u  /* the payload is a struct axon_pt2pt_cma_desc: read the sender's memory */
#define AXON_PT2PT_FLAG_PIPE 8u /* the payload is a struct axon_pt2pt_pipe_rts: GPU data follows in chunks */

#define AXON_PT2PT_NO_REQUEST UINT32_MAX

/* MPI's envelope, as the active message's header. */
struct axon_pt2pt_hdr {
    uint32_t context_id;
    int32_t source;          /* rank in the communicator */
    int32_t tag;
    uint32_t flags;
    uint32_t sync_index;     /* sender's request, for the acknowledgement of a synchronous send (and a
                              * cancellation); AXON_PT2PT_NO_REQUEST from a send without one */
    int32_t sync_world_rank; /* the sender's rank in MPI_COMM_WORLD: where that acknowledgement goes */
    uint32_t shm_before;     /* messages the sender had sent us through the node's rings before this one
                              * (pt2pt/axon_pt2pt_shm.h), for MPI's order across the two paths */
};

/* A message that arrived before its receive was posted (or before its communicator existed). */
enum { AXON_PT2PT_UNEXPECTED_INLINE = 128 }; /* payload bytes an unexpected entry holds itself */

struct axon_pt2pt_unexpected {
    struct axon_match_entry match;
    struct axon_pt2pt_unexpected *early_next; /* in the list of messages for an unknown context */
    struct axon_pt2pt_hdr hdr;
    uint32_t index;          /* in the pool */
    void *data;              /* payload, or the rendezvous descriptor */
    size_t length;
    bool rndv;
    bool owned;              /* data is our malloc'ed copy (UCX did not let us keep its buffer) */
    bool claimed;            /* taken out by a matched probe (MPI_Mprobe): waits for its MPI_Mrecv */
    struct axon_pt2pt_comm *comm; /* of a claimed message */
    /* A small payload's copy lives here (data points to it), not in a malloc'ed block: not cleared when
     * the entry is taken from the pool. */
    _Alignas(16) unsigned char small[AXON_PT2PT_UNEXPECTED_INLINE];
};

/* The unexpected message of a pool index (a matched probe's handle), or NULL. */
struct axon_pt2pt_unexpected *axon_pt2pt_unexpected_get(uint32_t index);
/* An unexpected message nobody will receive (a cancelled send's, one left on a freed communicator): a
 * rendezvous sender is told its send is over. Under the transport lock. */
void axon_pt2pt_unexpected_drop(struct axon_pt2pt_unexpected *ux);

/* What a cancellation names: the send's envelope and its sender's request. */
struct axon_pt2pt_send_name {
    uint32_t context_id;
    int32_t source;       /* rank in the communicator */
    int32_t sender_world;
    uint32_t sender_index;
};
/* Takes the named message out of the unexpected messages (its communicator's queue, or the list of
 * messages for a communicator not made yet) and returns it; NULL when it is not there (it matched, or
 * its sender does not wait for it). Under the transport lock. */
struct axon_pt2pt_unexpected *axon_pt2pt_unexpected_withdraw(const struct axon_pt2pt_send_name *name);

#define axon_container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* The engine's UCX generic datatype: its pack/unpack state is the request itself. */
extern ucp_datatype_t axon_pt2pt_generic_dt;
int axon_pt2pt_generic_dt_create(void);

/* Counts what names a communicator (its busy count). Below MPI_THREAD_MULTIPLE one thread at a time
 * touches it, so a plain read-modify-write does: a locked one would cost every message an atomic. */
static inline void axon_pt2pt_busy_add(struct axon_pt2pt_comm *comm, int delta)
{
    if (axon_ucx.thread_multiple)
        atomic_fetch_add_explicit(&comm->busy, delta, memory_order_acq_rel);
    else
        atomic_store_explicit(&comm->busy, atomic_load_explicit(&comm->busy, memory_order_relaxed) + delta,
                              memory_order_relaxed);
}

/* The progress thread's count of operations in flight (AXON_ASYNC_PROGRESS): a nonblocking operation
 * (a started request of the user's or of a collective's schedule, a collective's own request) counts
 * from its start to its completion, so the thread polls eagerly while there is one. Blocking calls are
 * not counted: their caller polls. */
static inline void axon_pt2pt_async_begin(struct axon_request *req)
{
    if (axon_ucx.async_progress && !req->async_counted) {
        req->async_counted = true;
        axon_ucx_async_begin();
    }
}

static inline void axon_pt2pt_async_end(struct axon_request *req)
{
    if (req->async_counted) {
        req->async_counted = false;
        axon_ucx_async_end();
    }
}

/* Requests (axon_pt2pt_request.c). */
/* Calls fn on every request taken from the pool and not given back; under the transport lock. */
void axon_pt2pt_request_foreach(void (*fn)(struct axon_request *));
/* A send or a receive about to go to or wait on a lost rank (axon_pt2pt_lost.c): completes it with
 * MPI_ERR_PROC_ABORTED instead, and says so. Under the transport lock. */
bool axon_pt2pt_lost_refuse(struct axon_request *req);
int axon_pt2pt_request_alloc(enum axon_request_kind kind, struct axon_request **req);
/* One of the events a request waits for has happened; completes it at the last. */
void axon_pt2pt_request_event(struct axon_request *req);
int axon_pt2pt_request_pool_init(void);
/* The request pool is used by one thread at a time (below MPI_THREAD_MULTIPLE). */
void axon_pt2pt_request_pool_single_thread(void);
void axon_pt2pt_request_pool_fini(void);
/* A request born complete: sends to and receives from MPI_PROC_NULL. */
int axon_pt2pt_request_proc_null(struct axon_request **req);

struct axon_pt2pt_pipe_rts;

/* Device buffers staged through host memory (axon_pt2pt_stage.c). begin: when the request's buffer is
 * GPU memory, a send's host copy takes its place, holding the data; a receive's buffer is only noted
 * (recv.stage_pending) and attach, called when its message matches and needs host memory to land in,
 * takes the copy (holding the device's bytes when the layout has gaps). Nothing for host memory. end: a
 * receive's copy goes to the GPU; the copy is freed. Only while CUDA support is on. */
int axon_pt2pt_stage_begin(struct axon_request *req, bool incoming);
/* axon_pt2pt_isend for a caller that has classified the data at buf already (info; NULL: not): the
 * device protocols take that answer instead of asking the driver again (a blocking send of a GPU
 * buffer asked twice). */
int axon_pt2pt_isend_classified(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int dest, int tag,
                                struct axon_pt2pt_comm *comm, enum axon_send_mode mode,
                                const struct axon_memkind_info *info, struct axon_request **reqp);
void axon_pt2pt_stage_attach(struct axon_request *req);
/* A send's device protocol: with *ipc set, req->stage holds the IPC descriptor of the data, to be sent
 * in its place (to a rank of this node, for GPU memory with an IPC handle, from AXON_CUDA_IPC_MIN
 * bytes); with req->pipe set, *rts is to be sent in its place and the data follows in chunks; else the
 * data is staged as above, when it is GPU memory. */
int axon_pt2pt_device_send_begin(struct axon_request *req, int world, bool *ipc, struct axon_pt2pt_pipe_rts *rts);
/* A matched message whose payload is an IPC descriptor: the data is copied from the sender's GPU into
 * the receive, then the sender is told (axon_pt2pt_recv.c calls it from delivery). */
void axon_pt2pt_ipc_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr, const void *desc,
                            size_t length);
void axon_pt2pt_stage_end(struct axon_request *req);
/* Unpacks bytes of packed data into a receive's typed layout (a message that came whole through a side
 * path: IPC, a single copy, pipelined chunks). */
int axon_pt2pt_unpack_packed(struct axon_request *req, const void *packed, int64_t bytes);
/* Gives the host copy (or descriptor) back, with nothing copied (a request freed early). */
void axon_pt2pt_stage_free(struct axon_request *req);
/* axon_pt2pt_data_surely_host (pt2pt.h) of a request's data, or its communicator's assertion. */
static inline bool axon_pt2pt_surely_host(const struct axon_request *req)
{
    return (req->comm && req->comm->host_only) || axon_pt2pt_data_surely_host(req->buf, &req->dt);
}

static inline int axon_pt2pt_stage_maybe(struct axon_request *req, bool incoming)
{
    if (!axon_memkind_watching())
        return MPI_SUCCESS;
    if (axon_pt2pt_surely_host(req)) {
        if (incoming)
            req->recv.stage_pending = false;
        return MPI_SUCCESS;
    }
    return axon_pt2pt_stage_begin(req, incoming);
}

/* GPU messages in pipelined chunks (axon_pt2pt_pipeline.c). */
struct axon_pt2pt_pipe_rts {
    uint64_t bytes;
    uint32_t sender_index; /* the send's request, which the receiver's clear-to-send names */
    uint32_t pad;
};
/* Whether a staged send of bytes goes in chunks (contiguous, above AXON_CUDA_PIPELINE_CHUNK). */
bool axon_pt2pt_pipe_wanted(const struct axon_request *req, int64_t bytes);
/* Sets a send up for the pipeline (its GPU data at req->buf, described by info); rts is its message. */
int axon_pt2pt_pipe_send_begin(struct axon_request *req, const struct axon_memkind_info *info,
                               struct axon_pt2pt_pipe_rts *rts);
/* A receive matched a pipelined message: asks the sender for the chunks; the receive completes with the
 * last of them. */
void axon_pt2pt_pipe_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr,
                             const struct axon_pt2pt_pipe_rts *rts);
int axon_pt2pt_pipe_init(void);
void axon_pt2pt_pipe_finalize(void);

/* Cancellation's active messages (axon_pt2pt_cancel.c). */
int axon_pt2pt_cancel_init(void);
void axon_pt2pt_cancel_finalize(void);

/* Putting a set-up request's operation in motion (axon_pt2pt_send.c, axon_pt2pt_recv.c). */
int axon_pt2pt_send_post(struct axon_request *req);
int axon_pt2pt_recv_post(struct axon_request *req);

/* A message arrived, through UCX or a ring: it goes to the earliest posted receive that matches, or
 * into the unexpected queue (axon_pt2pt_engine.c). how is a set of AXON_ARRIVE_*; true when the engine
 * kept `data` itself (UCX's descriptor: the active-message callback then returns UCS_INPROGRESS). */
enum {
    AXON_ARRIVE_RNDV = 1,     /* data is UCX's rendezvous descriptor */
    AXON_ARRIVE_KEEPABLE = 2, /* UCX lets us keep data beyond the callback */
};
bool axon_pt2pt_arrive(const struct axon_pt2pt_hdr *hdr, void *data, size_t length, unsigned how);
/* A synchronous send's receive has matched: its request (by pool index) gets its last event. */
void axon_pt2pt_sync_acked(uint32_t index);

/* A control message of the engine (an acknowledgement, a clear-to-send): header only, eager, to world
 * rank `world` on active-message id am_id; the header is copied. what names it in error messages
 * (axon_pt2pt_recv.c). */
void axon_pt2pt_send_control(int world, unsigned am_id, const void *header, size_t length, const char *what);

/* Delivering a matched message to a receive (axon_pt2pt_recv.c). */
void axon_pt2pt_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr, void *data, size_t length,
                        bool rndv);
void axon_pt2pt_unexpected_release(struct axon_pt2pt_unexpected *ux);

#endif
