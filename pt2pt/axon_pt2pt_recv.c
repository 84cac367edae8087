/* The receiving side: posting a receive (matching the unexpected queue first), delivering a matched
 * message (eager data unpacked at once, rendezvous data fetched with ucp_am_recv_data_nbx), probing,
 * and the acknowledgement of synchronous sends. */
#include "pt2pt/axon_pt2pt_internal.h"
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <stdlib.h>
#include <string.h>

static void axon_pt2pt_status_of_unexpected(MPI_Status *status, const struct axon_pt2pt_unexpected *ux);

static void axon_pt2pt_control_done(void *request, ucs_status_t status, void *user_data)
{
    (void)status;
    free(user_data);
    ucp_request_free(request);
}

void axon_pt2pt_send_control(int world, unsigned am_id, const void *header, size_t length, const char *what)
{
    /* The header lives on the heap until UCX is done with it: we may be inside a callback, where
     * waiting for the send is not allowed. */
    if (axon_runtime_lost(world))
        return; /* nothing to tell a lost rank (the job surviving it) */
    ucp_ep_h ep;
    void *copy = malloc(length);
    if (!copy || axon_ucx_ep_get(world, &ep) != MPI_SUCCESS) {
        free(copy);
        axon_runtime_log_error("cannot send %s to rank %d", what, world);
        axon_runtime_bootstrap_abort(MPI_ERR_INTERN, "cannot send a control message");
    }
    memcpy(copy, header, length);
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = axon_pt2pt_control_done,
        .user_data = copy,
        .flags = UCP_AM_SEND_FLAG_EAGER,
    };
    ucs_status_ptr_t st = ucp_am_send_nbx(ep, am_id, copy, length, NULL, 0, &param);
    if (UCS_PTR_IS_ERR(st))
        axon_runtime_log_error("sending %s to rank %d failed: %s", what, world, ucs_status_string(UCS_PTR_STATUS(st)));
    if (!UCS_PTR_IS_PTR(st))
        free(copy);
}

/* Tells a synchronous sender that its message matched. */
static void axon_pt2pt_send_ack(const struct axon_pt2pt_hdr *hdr)
{
    /* A sender on this node hears it through the ring (no allocation, no trip through UCX). */
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(hdr->sync_world_rank);
    if (peer && axon_pt2pt_shm_send_ack(peer, hdr->sync_index))
        return;
    axon_pt2pt_send_control(hdr->sync_world_rank, AXON_AM_SYNC_ACK, &hdr->sync_index, sizeof(hdr->sync_index),
                            "the acknowledgement of a synchronous send");
}

/* Reads a message described by desc from its sender's memory into the receive: straight into a
 * contiguous buffer, through a temporary copy into a typed one. */
static void axon_pt2pt_cma_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr,
                                   const struct axon_pt2pt_cma_desc *desc)
{
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(hdr->sync_world_rank);
    int64_t capacity = req->count * req->dt.size;
    int64_t take = (int64_t)desc->bytes < capacity ? (int64_t)desc->bytes : capacity;
    int rc = MPI_SUCCESS;
    if (!peer) {
        rc = MPI_ERR_INTERN;
    } else if (take > 0 && req->dt.contig) {
        char *dst = (char *)req->buf + req->dt.true_lb;
        size_t half = (size_t)take;
        _Atomic uint32_t *claim = NULL;
        /* Not while the sender reads a message of ours (an exchange: both cores are busy already). */
        if (axon_config.pt2pt_cma_split > 0 && take >= axon_config.pt2pt_cma_split && peer->cma_pending == 0 &&
            axon_pt2pt_shm_cma_ok(peer)) {
            /* The sender writes from a page boundary of ours near the middle on, while we read up to it. */
            half = (size_t)((((uintptr_t)dst + (uintptr_t)take / 2 + 4095) & ~(uintptr_t)4095) - (uintptr_t)dst);
            struct axon_pt2pt_cma_put put = {desc->addr + half, (uint64_t)(uintptr_t)(dst + half), (uint64_t)take - half,
                                             (uint64_t)(uintptr_t)req};
            if (half >= (size_t)take || !(claim = axon_pt2pt_shm_send_put(peer, &put)))
                half = (size_t)take;
        }
        rc = axon_pt2pt_shm_cma_read(peer, dst, desc->addr, half);
        if (claim && axon_pt2pt_shm_put_reclaim(claim)) {
            /* The sender has not started on its half (busy elsewhere): ours too, rather than wait. */
            if (rc == MPI_SUCCESS)
                rc = axon_pt2pt_shm_cma_read(peer, dst + half, desc->addr + half, (size_t)take - half);
        } else if (claim) {
            req->pending++; /* the sender writes it: its answer completes the receive */
        }
    } else if (take > 0) {
        char *tmp = malloc((size_t)take);
        rc = tmp ? axon_pt2pt_shm_cma_read(peer, tmp, desc->addr, (size_t)take) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS)
            rc = axon_pt2pt_unpack_packed(req, tmp, take);
        free(tmp);
    }
    if (rc != MPI_SUCCESS && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.MPI_ERROR = rc;
}

void axon_pt2pt_cma_put_done(uint64_t done, bool failed)
{
    struct axon_request *req = (struct axon_request *)(uintptr_t)done;
    if (failed && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.MPI_ERROR = MPI_ERR_OTHER;
    axon_pt2pt_request_event(req);
}

/* Whether a layout's basic type is one of MAXLOC's pairs (MPICH's handles: the five mixed pairs, and
 * the four built-in ones of one type). */
static inline bool axon_pt2pt_basic_is_pair(MPI_Datatype t)
{
    return ((unsigned)t & 0xfc000000u) == ((unsigned)MPI_FLOAT_INT & 0xfc000000u) || t == MPI_2INT ||
           t == MPI_2INTEGER || t == MPI_2REAL || t == MPI_2DOUBLE_PRECISION;
}

static void axon_pt2pt_recv_set_status(struct axon_request *req, const struct axon_pt2pt_hdr *hdr, size_t length)
{
    int64_t capacity = req->count * req->dt.size;
    req->status.MPI_SOURCE = hdr->source;
    req->status.MPI_TAG = hdr->tag;
    req->bytes = (int64_t)length;
    if ((int64_t)length > capacity) {
        req->status.MPI_ERROR = MPI_ERR_TRUNCATE;
    } else if ((int64_t)length < capacity && req->dt.basic != MPI_DATATYPE_NULL && req->dt.basic_count > 0 &&
               !axon_pt2pt_basic_is_pair(req->dt.basic)) {
        /* A short message that ends inside a basic element of a one-type layout cannot match its type
         * signature (3 bytes into ints): the error MPICH reports too (its errors/pt2pt/truncmsg2). Only
         * short messages are looked at: a full one is a whole number of elements. A pair type (a layout's
         * basic type for MAXLOC) is not one element but two: 5 ints into MPI_2INT pairs match. */
        int64_t unit = req->dt.size / req->dt.basic_count;
        if (unit > 1 && (int64_t)length % unit != 0)
            req->status.MPI_ERROR = MPI_ERR_TYPE;
    }
}

static void axon_pt2pt_rndv_done(void *request, ucs_status_t status, size_t length, void *user_data)
{
    (void)length;
    struct axon_request *req = user_data;
    if (status != UCS_OK && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.MPI_ERROR = MPI_ERR_OTHER;
    req->ucx_request = NULL;
    ucp_request_free(request);
    axon_pt2pt_request_event(req);
}

void axon_pt2pt_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr, void *data, size_t length,
                        bool rndv)
{
    /* A GPU receive takes its host copy now, unless the message writes the GPU buffer itself. */
    if (__builtin_expect(req->recv.stage_pending, 0) &&
        !(req->dt.contig && !rndv && (hdr->flags & (AXON_PT2PT_FLAG_PIPE | AXON_PT2PT_FLAG_IPC))))
        axon_pt2pt_stage_attach(req);
    if (__builtin_expect(hdr->flags & AXON_PT2PT_FLAG_PIPE, 0) && !rndv &&
        length == sizeof(struct axon_pt2pt_pipe_rts)) {
        /* GPU data in chunks: the receive completes with the last of them. */
        struct axon_pt2pt_pipe_rts rts;
        memcpy(&rts, data, sizeof(rts));
        axon_pt2pt_recv_set_status(req, hdr, (size_t)rts.bytes);
        axon_pt2pt_pipe_deliver(req, hdr, &rts);
        return;
    }
    if (__builtin_expect(hdr->flags & AXON_PT2PT_FLAG_CMA, 0) && !rndv &&
        length == sizeof(struct axon_pt2pt_cma_desc)) {
        /* The data is in the sender's memory: read it from there, then let the sender go. */
        struct axon_pt2pt_cma_desc desc;
        memcpy(&desc, data, sizeof(desc));
        axon_pt2pt_recv_set_status(req, hdr, (size_t)desc.bytes);
        axon_pt2pt_cma_deliver(req, hdr, &desc);
        axon_pt2pt_send_ack(hdr);
        axon_pt2pt_request_event(req);
        return;
    }
    uint64_t ipc_bytes;
    if (__builtin_expect(hdr->flags & AXON_PT2PT_FLAG_IPC, 0) && !rndv &&
        axon_memkind_ipc_desc_check(data, length, &ipc_bytes)) {
        /* The data is in the sender's GPU: read it in place, then let the sender go. */
        axon_pt2pt_recv_set_status(req, hdr, (size_t)ipc_bytes);
        axon_pt2pt_ipc_deliver(req, hdr, data, length);
        axon_pt2pt_send_ack(hdr);
        axon_pt2pt_request_event(req);
        return;
    }
    axon_pt2pt_recv_set_status(req, hdr, length);
    if (hdr->flags & AXON_PT2PT_FLAG_SYNC)
        axon_pt2pt_send_ack(hdr);
    int64_t capacity = req->count * req->dt.size;
    int64_t take = (int64_t)length < capacity ? (int64_t)length : capacity;

    if (!req->dt.contig && take > 0) {
        if (axon_dloop_cursor_init(&req->cursor, req->dt.loop, req->count, req->dt.extent) != 0) {
            req->status.MPI_ERROR = MPI_ERR_NO_MEM;
            axon_pt2pt_request_event(req);
            return;
        }
        req->cursor_live = true;
    }
    if (!rndv) {
        if (take > 0) {
            if (req->dt.contig && take <= 8)
                axon_shm_copy_small((char *)req->buf + req->dt.true_lb, data, (size_t)take);
            else if (req->dt.contig)
                memcpy((char *)req->buf + req->dt.true_lb, data, (size_t)take);
            else
                axon_dloop_unpack(&req->cursor, req->buf, data, take);
        }
        axon_pt2pt_request_event(req);
        return;
    }
    /* Rendezvous: UCX fetches the payload into the buffer (through the generic datatype when it is
     * not one block or when the message is longer than the buffer). */
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_DATATYPE,
        .cb.recv_am = axon_pt2pt_rndv_done,
        .user_data = req,
    };
    void *target;
    size_t target_count;
    if (req->dt.contig && (int64_t)length <= capacity) {
        param.datatype = ucp_dt_make_contig(1);
        target = (char *)req->buf + req->dt.true_lb;
        target_count = length;
    } else {
        param.datatype = axon_pt2pt_generic_dt;
        target = req;
        target_count = 1;
    }
    ucs_status_ptr_t st = ucp_am_recv_data_nbx(axon_ucx.worker, data, target, target_count, &param);
    if (st == NULL) {
        axon_pt2pt_request_event(req);
    } else if (UCS_PTR_IS_ERR(st)) {
        axon_runtime_log_error("fetching a rendezvous message from rank %d failed: %s", hdr->source,
                               ucs_status_string(UCS_PTR_STATUS(st)));
        req->status.MPI_ERROR = MPI_ERR_OTHER;
        axon_pt2pt_request_event(req);
    } else {
        req->ucx_request = st;
    }
}

/* Matches a receive request against the messages that came first, or posts it. The caller has set
 * req->recv.match.source and req->recv.match.tag: the fresh receives from the call's arguments, which are
 * in registers (reading back req->peer and req->tag, just stored as two ints, as one 8-byte load defeats
 * store forwarding and stalled the message-rate loop's receiver on it). */
int axon_pt2pt_recv_post(struct axon_request *req)
{
    struct axon_pt2pt_comm *comm = req->comm;
    int rc = axon_pt2pt_stage_maybe(req, true);
    if (rc != MPI_SUCCESS) {
        req->status.MPI_ERROR = rc;
        atomic_store(&req->complete, 1);
        return rc;
    }
    axon_ucx_lock();
    /* Receives posted ahead of their messages (the common case of a message-rate loop) skip the search. */
    struct axon_match_entry *e = comm->queues.unexpected_count
                                     ? axon_pt2pt_match_take_unexpected(&comm->queues, req->peer, req->tag)
                                     : NULL;
    if (e) {
        struct axon_pt2pt_unexpected *ux = axon_container_of(e, struct axon_pt2pt_unexpected, match);
        axon_pt2pt_deliver(req, &ux->hdr, ux->data, ux->length, ux->rndv);
        if (ux->rndv)
            ux->data = NULL; /* the descriptor now belongs to the rendezvous receive */
        axon_pt2pt_unexpected_release(ux);
    } else if (__builtin_expect(axon_runtime_lost_generation() == 0, 1) || !axon_pt2pt_lost_refuse(req)) {
        axon_pt2pt_match_post(&comm->queues, &req->recv.match);
        /* It waits on that peer: UCX should tell us if the peer is lost (only where some peer is
         * watched: one load otherwise). */
        if (__builtin_expect(axon_ucx.watch_any, 0) && req->peer >= 0)
            axon_ucx_ep_watch(comm->world_ranks ? comm->world_ranks[req->peer] : req->peer);
    }
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

int axon_pt2pt_recv(void *buf, int64_t count, const struct axon_dtype_layout *dt, int source, int tag,
                    struct axon_pt2pt_comm *comm, struct axon_request *req)
{
    /* Only what a receive reads is set: the rest of the (large) request is never touched here. */
    req->kind = AXON_REQUEST_RECV;
    atomic_store_explicit(&req->complete, 0, memory_order_relaxed);
    req->pending = 1;
    req->status.MPI_ERROR = MPI_SUCCESS;
    req->bytes = 0;
    req->cancelled = false;
    req->async_counted = false; /* the caller waits: the progress thread need not hurry */
    req->user_freed = false;
    req->parent = NULL;
    req->persistent = false;
    req->partitioned = false;
    req->cursor_live = false;
    req->ucx_request = NULL;
    req->stage = NULL;
    req->recv.stage_pending = false;
    req->comm = comm;
    req->buf = buf;
    req->count = count;
    req->dt = *dt;
    req->peer = source;
    req->tag = tag;
    if (source == MPI_PROC_NULL) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        req->status.MPI_TAG = MPI_ANY_TAG;
        return MPI_SUCCESS;
    }
    req->recv.match.source = source;
    req->recv.match.tag = tag;
    axon_pt2pt_busy_add(comm, 1);
    axon_pt2pt_recv_post(req);
    axon_request_wait(req);
    if (req->cursor_live) {
        axon_dloop_cursor_fini(&req->cursor);
        req->cursor_live = false;
    }
    axon_pt2pt_busy_add(comm, -1);
    return MPI_SUCCESS;
}

int axon_pt2pt_irecv(void *buf, int64_t count, const struct axon_dtype_layout *dt, int source, int tag,
                     struct axon_pt2pt_comm *comm, struct axon_request **reqp)
{
    if (source == MPI_PROC_NULL)
        return axon_pt2pt_request_proc_null(reqp);
    struct axon_request *req;
    int rc = axon_pt2pt_request_init(AXON_REQUEST_RECV, buf, count, dt, source, tag, comm, AXON_SEND_STANDARD, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->recv.match.source = source;
    req->recv.match.tag = tag;
    axon_pt2pt_async_begin(req);
    axon_pt2pt_recv_post(req);
    *reqp = req;
    return MPI_SUCCESS;
}

int axon_pt2pt_iprobe(int source, int tag, struct axon_pt2pt_comm *comm, int *flag, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        if (status) {
            /* MPI_ERROR is left alone, as by every call that returns one status. */
            status->MPI_SOURCE = MPI_PROC_NULL;
            status->MPI_TAG = MPI_ANY_TAG;
            status->count_lo = 0;
            status->count_hi_and_cancelled = 0;
        }
        return MPI_SUCCESS;
    }
    axon_ucx_progress();
    axon_ucx_lock();
    struct axon_match_entry *e = axon_pt2pt_match_peek_unexpected(&comm->queues, source, tag);
    *flag = e != NULL;
    if (e && status)
        axon_pt2pt_status_of_unexpected(status, axon_container_of(e, struct axon_pt2pt_unexpected, match));
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

static void axon_pt2pt_status_of_unexpected(MPI_Status *status, const struct axon_pt2pt_unexpected *ux)
{
    status->MPI_SOURCE = ux->hdr.source;
    status->MPI_TAG = ux->hdr.tag; /* MPI_ERROR left alone: a probe returns one status */
    /* A descriptor's message reports its own length, not the descriptor's. */
    uint64_t length = ux->length;
    uint64_t ipc_bytes;
    if ((ux->hdr.flags & AXON_PT2PT_FLAG_IPC) && !ux->rndv &&
        axon_memkind_ipc_desc_check(ux->data, length, &ipc_bytes)) {
        length = ipc_bytes;
    } else if ((ux->hdr.flags & AXON_PT2PT_FLAG_PIPE) && !ux->rndv && length == sizeof(struct axon_pt2pt_pipe_rts)) {
        struct axon_pt2pt_pipe_rts rts;
        memcpy(&rts, ux->data, sizeof(rts));
        length = rts.bytes;
    } else if ((ux->hdr.flags & AXON_PT2PT_FLAG_CMA) && !ux->rndv && length == sizeof(struct axon_pt2pt_cma_desc)) {
        struct axon_pt2pt_cma_desc desc;
        memcpy(&desc, ux->data, sizeof(desc));
        length = desc.bytes;
    }
    status->count_lo = (int)(length & 0xffffffffu);
    status->count_hi_and_cancelled = (int)((length >> 32) << 1);
}

int axon_pt2pt_improbe(int source, int tag, struct axon_pt2pt_comm *comm, int *flag, MPI_Status *status,
                       uint32_t *message)
{
    axon_ucx_progress();
    axon_ucx_lock();
    struct axon_match_entry *e = axon_pt2pt_match_take_unexpected(&comm->queues, source, tag);
    *flag = e != NULL;
    if (e) {
        struct axon_pt2pt_unexpected *ux = axon_container_of(e, struct axon_pt2pt_unexpected, match);
        ux->claimed = true;
        ux->comm = comm;
        axon_pt2pt_busy_add(comm, 1);
        *message = ux->index;
        if (status)
            axon_pt2pt_status_of_unexpected(status, ux);
    }
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

bool axon_pt2pt_message_valid(uint32_t message)
{
    axon_ucx_lock();
    struct axon_pt2pt_unexpected *ux = axon_pt2pt_unexpected_get(message);
    bool valid = ux && ux->claimed;
    axon_ucx_unlock();
    return valid;
}

int axon_pt2pt_imrecv(void *buf, int64_t count, const struct axon_dtype_layout *dt, uint32_t message,
                      struct axon_request **reqp)
{
    axon_ucx_lock();
    struct axon_pt2pt_unexpected *ux = axon_pt2pt_unexpected_get(message);
    if (!ux || !ux->claimed) {
        axon_ucx_unlock();
        return MPI_ERR_REQUEST;
    }
    struct axon_request *req;
    int rc = axon_pt2pt_request_init(AXON_REQUEST_RECV, buf, count, dt, ux->hdr.source, ux->hdr.tag, ux->comm,
                                     AXON_SEND_STANDARD, &req);
    if (rc != MPI_SUCCESS) {
        axon_ucx_unlock();
        return rc;
    }
    axon_pt2pt_async_begin(req);
    rc = axon_pt2pt_stage_maybe(req, true);
    if (rc != MPI_SUCCESS) {
        axon_ucx_unlock();
        axon_pt2pt_async_end(req);
        axon_request_free(req);
        return rc;
    }
    axon_pt2pt_deliver(req, &ux->hdr, ux->data, ux->length, ux->rndv);
    if (ux->rndv)
        ux->data = NULL; /* the descriptor now belongs to the rendezvous receive */
    ux->claimed = false;
    axon_pt2pt_busy_add(ux->comm, -1);
    axon_pt2pt_unexpected_release(ux);
    axon_ucx_unlock();
    *reqp = req;
    return MPI_SUCCESS;
}
