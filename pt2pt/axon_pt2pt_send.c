/* The sending side. A small message to a rank of this node is a record in the node's shared-memory ring
 * to it (pt2pt/axon_pt2pt_shm.h), complete as soon as it is written; any other is an active message
 * whose header is MPI's envelope: contiguous data goes as it is, other layouts stream through the
 * generic datatype, and UCX picks eager or rendezvous by size. A synchronous send completes only when
 * the receiver's acknowledgement of the match comes back. */
#include "pt2pt/axon_pt2pt_internal.h"
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <string.h>

static void axon_pt2pt_send_done(void *request, ucs_status_t status, void *user_data)
{
    struct axon_request *req = user_data;
    if (status != UCS_OK && status != UCS_ERR_CANCELED)
        req->status.MPI_ERROR = MPI_ERR_OTHER;
    req->ucx_request = NULL;
    ucp_request_free(request);
    axon_pt2pt_request_event(req);
}

int axon_pt2pt_request_proc_null(struct axon_request **req)
{
    int rc = axon_pt2pt_request_alloc(AXON_REQUEST_DONE, req);
    if (rc != MPI_SUCCESS)
        return rc;
    (*req)->status.MPI_SOURCE = MPI_PROC_NULL;
    (*req)->status.MPI_TAG = MPI_ANY_TAG;
    (*req)->pending = 0;
    atomic_store(&(*req)->complete, 1);
    return MPI_SUCCESS;
}

/* The protocol flag of a message of `bytes`: with an eager limit (AXON_EAGER_LIMIT, or the TCP fabric's),
 * eager up to it and rendezvous beyond; without one (-1), none, and UCX's threshold decides. */
static inline uint32_t axon_pt2pt_protocol_flags(int64_t bytes)
{
    long limit = axon_ucx.eager_limit;
    if (limit < 0)
        return 0;
    return bytes <= limit ? UCP_AM_SEND_FLAG_EAGER : UCP_AM_SEND_FLAG_RNDV;
}

/* An active message to a rank of this node counts for the order across the two paths: it carries how
 * many ring messages went before it, and the ring messages after it how many active messages did. Under
 * the transport lock, with the send itself. */
static inline void axon_pt2pt_stamp_ucx(struct axon_pt2pt_hdr *hdr, int world)
{
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(world);
    if (peer) {
        hdr->shm_before = peer->shm_sent;
        peer->ucx_sent++;
    }
}

/* The send failed at once: the peer will never see it. */
static inline void axon_pt2pt_unstamp_ucx(int world)
{
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(world);
    if (peer)
        peer->ucx_sent--;
}

/* Plain bytes, for the blocking contiguous send. */
static const struct axon_dtype_layout axon_pt2pt_bytes_layout = {.size = 1, .extent = 1, .true_extent = 1,
                                                                 .contig = true, .basic = MPI_BYTE,
                                                                 .basic_count = 1};

/* Writes a message into the ring to a rank of this node: MPI_SUCCESS when it is there (the send is
 * complete, but for a synchronous send's acknowledgement), MPI_ERR_PENDING when the ring is full and the
 * message must go by UCX, another class on an error. */
static int axon_pt2pt_send_shm(struct axon_pt2pt_shm_peer *peer, const struct axon_pt2pt_hdr *hdr, const void *buf,
                               int64_t count, const struct axon_dtype_layout *dt)
{
    int64_t bytes = count * dt->size;
    if (dt->contig && hdr->flags == 0) { /* a plain message: no acknowledgement, no descriptor */
        axon_ucx_lock();
        bool sent = axon_pt2pt_shm_send_eager(peer, hdr->context_id, hdr->source, hdr->tag,
                                              (const char *)buf + dt->true_lb, (size_t)bytes);
        axon_ucx_unlock();
        return sent ? MPI_SUCCESS : MPI_ERR_PENDING;
    }
    struct axon_dloop_cursor cursor;
    bool packing = !dt->contig && bytes > 0;
    if (packing && axon_dloop_cursor_init(&cursor, dt->loop, count, dt->extent) != 0)
        return MPI_ERR_NO_MEM;
    axon_ucx_lock();
    void *slot = axon_pt2pt_shm_reserve(peer, (size_t)bytes, (hdr->flags & AXON_PT2PT_FLAG_SYNC) != 0);
    if (slot) {
        if (packing)
            axon_dloop_pack(&cursor, buf, slot, bytes);
        else if (bytes > 0)
            memcpy(slot, (const char *)buf + dt->true_lb, (size_t)bytes);
        axon_pt2pt_shm_commit(peer, hdr, (size_t)bytes);
    }
    axon_ucx_unlock();
    if (packing)
        axon_dloop_cursor_fini(&cursor);
    return slot ? MPI_SUCCESS : MPI_ERR_PENDING;
}

/* Puts a send request's message on the wire: its fields (comm, peer, tag, mode, buffer) are set. On an
 * error the request is left complete, with nothing in flight. */
int axon_pt2pt_send_post(struct axon_request *req)
{
    struct axon_pt2pt_comm *comm = req->comm;
    int world = comm->world_ranks ? comm->world_ranks[req->peer] : req->peer;
    if (__builtin_expect(axon_runtime_lost_generation() != 0, 0)) {
        axon_ucx_lock();
        bool refused = axon_pt2pt_lost_refuse(req);
        axon_ucx_unlock();
        if (refused)
            return MPI_SUCCESS; /* complete, with its error */
    }
    /* A GPU buffer: its IPC descriptor goes instead of the data (the receiver reads the data in place
     * and acknowledges), or a host copy of the data stands in for it. */
    bool ipc = false;
    struct axon_pt2pt_pipe_rts rts;
    int rc = MPI_SUCCESS;
    if (axon_memkind_watching() && !axon_pt2pt_surely_host(req))
        rc = axon_pt2pt_device_send_begin(req, world, &ipc, &rts);
    if (rc != MPI_SUCCESS) {
        atomic_store(&req->complete, 1);
        return rc;
    }
    bool pipe = req->pipe;
    /* Acknowledged: synchronous sends and IPC; a pipelined send completes with its last chunk, which
     * goes only after the receiver matched. */
    bool acked = (req->send.mode == AXON_SEND_SYNC || ipc) && !pipe;
    req->pending = acked || pipe ? 2 : 1;
    req->send.awaits_receiver = acked || pipe;
    struct axon_pt2pt_hdr hdr = {
        .context_id = comm->context_id,
        .source = comm->rank,
        .tag = req->tag,
        .flags = (acked ? AXON_PT2PT_FLAG_SYNC : 0) | (ipc ? AXON_PT2PT_FLAG_IPC : 0) |
                 (pipe ? AXON_PT2PT_FLAG_PIPE : 0),
        .sync_index = req->index,
        .sync_world_rank = axon_runtime_job.rank,
    };
    const void *sbuf = req->buf;
    int64_t scount = req->count;
    const struct axon_dtype_layout *dt = &req->dt;
    if (ipc) {
        sbuf = req->stage;
        scount = (int64_t)axon_memkind_ipc_desc_bytes(((const struct axon_memkind_ipc_desc *)req->stage)->nparts);
        dt = &axon_pt2pt_bytes_layout;
    } else if (pipe) {
        /* UCX reads a message's payload until the send completes: the request keeps it. */
        _Static_assert(sizeof(rts) == sizeof(req->send.pipe_rts), "the request to send fits the request");
        memcpy(&req->send.pipe_rts, &rts, sizeof(rts));
        sbuf = &req->send.pipe_rts;
        scount = sizeof(rts);
        dt = &axon_pt2pt_bytes_layout;
    }
    int64_t bytes = scount * dt->size;
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_route(world, bytes);
    if (!peer && !ipc && !pipe && dt->contig && bytes > 0 && (peer = axon_pt2pt_shm_peer_of(world)) != NULL &&
        axon_pt2pt_shm_cma_ok(peer)) {
        /* Beyond the rings: the receiver reads it from our memory and says when it has. */
        struct axon_pt2pt_cma_desc desc = {(uint64_t)(uintptr_t)((const char *)sbuf + dt->true_lb), (uint64_t)bytes};
        struct axon_pt2pt_hdr chdr = hdr;
        chdr.flags |= AXON_PT2PT_FLAG_CMA | AXON_PT2PT_FLAG_SYNC;
        req->pending = 2;
        req->send.awaits_receiver = true;
        rc = axon_pt2pt_send_shm(peer, &chdr, &desc, sizeof(desc), &axon_pt2pt_bytes_layout);
        if (rc == MPI_SUCCESS) {
            peer->cma_pending++;
            req->send.cma_peer = peer;
            axon_pt2pt_request_event(req);
            return MPI_SUCCESS;
        }
        req->pending = acked ? 2 : 1;
        req->send.awaits_receiver = acked;
        if (rc != MPI_ERR_PENDING) {
            atomic_store(&req->complete, 1);
            return rc;
        }
        peer = NULL; /* the ring is full: the data goes by UCX */
    }
    if (peer) {
        rc = axon_pt2pt_send_shm(peer, &hdr, sbuf, scount, dt);
        if (rc == MPI_SUCCESS) {
            axon_pt2pt_request_event(req);
            return MPI_SUCCESS;
        }
        if (rc != MPI_ERR_PENDING) {
            atomic_store(&req->complete, 1);
            return rc;
        }
    }

    ucp_ep_h ep;
    rc = axon_ucx_ep_get(world, &ep);
    if (rc != MPI_SUCCESS) {
        atomic_store(&req->complete, 1);
        return rc;
    }
    _Static_assert(sizeof(hdr) <= sizeof(req->send.header), "the header fits the request");
    memcpy(req->send.header, &hdr, sizeof(hdr));
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_DATATYPE |
                        UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = axon_pt2pt_send_done,
        .user_data = req,
        /* A descriptor is always eager: the receiver reads it in the callback. */
        .flags = ipc || pipe ? UCP_AM_SEND_FLAG_EAGER : axon_pt2pt_protocol_flags(bytes),
    };
    const void *payload;
    size_t payload_count;
    if (dt->contig || bytes == 0) {
        param.datatype = ucp_dt_make_contig(1);
        payload = (const char *)sbuf + dt->true_lb;
        payload_count = (size_t)bytes;
    } else {
        if (axon_dloop_cursor_init(&req->cursor, dt->loop, req->count, dt->extent) != 0) {
            atomic_store(&req->complete, 1);
            return MPI_ERR_NO_MEM;
        }
        req->cursor_live = true;
        param.datatype = axon_pt2pt_generic_dt;
        payload = req;
        payload_count = 1;
    }

    axon_ucx_lock();
    axon_pt2pt_stamp_ucx((struct axon_pt2pt_hdr *)req->send.header, world);
    ucs_status_ptr_t st = ucp_am_send_nbx(ep, AXON_AM_PT2PT, req->send.header, sizeof(hdr), payload, payload_count,
                                          &param);
    if (st == NULL) {
        axon_pt2pt_request_event(req);
    } else if (UCS_PTR_IS_ERR(st)) {
        axon_pt2pt_unstamp_ucx(world);
        axon_ucx_unlock();
        axon_runtime_log_error("sending to rank %d failed: %s", world, ucs_status_string(UCS_PTR_STATUS(st)));
        atomic_store(&req->complete, 1);
        return MPI_ERR_OTHER;
    } else {
        req->ucx_request = st;
    }
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

/* The blocking contiguous send of a message that needs a request (a GPU buffer to stage, a single copy
 * to be acknowledged): started as a nonblocking send and waited for. */
static int axon_pt2pt_send_contig_by_request(const void *buf, int64_t bytes, int dest, int tag,
                                             struct axon_pt2pt_comm *comm, const struct axon_memkind_info *info)
{
    struct axon_request *req;
    int rc = axon_pt2pt_isend_classified(buf, bytes, &axon_pt2pt_bytes_layout, dest, tag, comm, AXON_SEND_STANDARD,
                                         info, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_request_wait(req);
    rc = req->status.MPI_ERROR;
    axon_request_free(req);
    return rc;
}

/* Standard-mode blocking send of contiguous data: no request of ours, the header on the stack (the call
 * waits for the send, so it outlives UCX's use of it). A short message leaves inside ucp_am_send_nbx and
 * costs no allocation at all. */
int axon_pt2pt_send_contig(const void *buf, int64_t bytes, int dest, int tag, struct axon_pt2pt_comm *comm)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (axon_pt2pt_lost_refuses(comm, dest))
        return MPI_ERR_PROC_ABORTED;
    if (axon_memkind_watching() && !comm->host_only) {
        /* A device buffer goes through a request, which stages it through host memory. */
        struct axon_memkind_info info;
        int rc = axon_memkind_of(buf, &info);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!axon_memkind_is_host(&info)) {
            return axon_pt2pt_send_contig_by_request(buf, bytes, dest, tag, comm, &info);
        }
    }
    int world = comm->world_ranks ? comm->world_ranks[dest] : dest;
    struct axon_pt2pt_hdr hdr = {
        .context_id = comm->context_id,
        .source = comm->rank,
        .tag = tag,
        .sync_index = AXON_PT2PT_NO_REQUEST,
        .sync_world_rank = axon_runtime_job.rank,
    };
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_route(world, bytes);
    if (peer) {
        int rc = axon_pt2pt_send_shm(peer, &hdr, buf, bytes, &axon_pt2pt_bytes_layout);
        if (rc != MPI_ERR_PENDING)
            return rc;
    } else if (bytes > 0 && (peer = axon_pt2pt_shm_peer_of(world)) != NULL && axon_pt2pt_shm_cma_ok(peer)) {
        /* A single copy by the receiver needs its acknowledgement: a request of ours to wait on. */
        return axon_pt2pt_send_contig_by_request(buf, bytes, dest, tag, comm, NULL);
    }
    ucp_ep_h ep;
    int rc = axon_ucx_ep_get(world, &ep);
    if (rc != MPI_SUCCESS)
        return rc;
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_FLAGS,
        .datatype = ucp_dt_make_contig(1),
        .flags = axon_pt2pt_protocol_flags(bytes),
    };
    axon_ucx_lock();
    axon_pt2pt_stamp_ucx(&hdr, world);
    ucs_status_ptr_t st = ucp_am_send_nbx(ep, AXON_AM_PT2PT, &hdr, sizeof(hdr), buf, (size_t)bytes, &param);
    if (UCS_PTR_IS_ERR(st))
        axon_pt2pt_unstamp_ucx(world);
    axon_ucx_unlock();
    ucs_status_t status = axon_ucx_request_wait(st);
    if (status != UCS_OK) {
        axon_runtime_log_error("sending to rank %d failed: %s", world, ucs_status_string(status));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_pt2pt_isend_now(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int dest, int tag,
                         struct axon_pt2pt_comm *comm)
{
    /* A device buffer takes the request path, which stages it: with a device kind on, only data the
     * inline checks call host goes straight, so small host sends keep the request-free path's message
     * rate. */
    if (dest == MPI_PROC_NULL || (axon_memkind_watching() && !comm->host_only && !axon_pt2pt_data_surely_host(buf, dt)))
        return MPI_ERR_PENDING;
    int world = comm->world_ranks ? comm->world_ranks[dest] : dest;
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_route(world, count * dt->size);
    if (!peer)
        return MPI_ERR_PENDING;
    struct axon_pt2pt_hdr hdr = {
        .context_id = comm->context_id,
        .source = comm->rank,
        .tag = tag,
    };
    return axon_pt2pt_send_shm(peer, &hdr, buf, count, dt);
}

int axon_pt2pt_isend(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int dest, int tag,
                     struct axon_pt2pt_comm *comm, enum axon_send_mode mode, struct axon_request **reqp)
{
    return axon_pt2pt_isend_classified(buf, count, dt, dest, tag, comm, mode, NULL, reqp);
}

int axon_pt2pt_isend_classified(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int dest, int tag,
                                struct axon_pt2pt_comm *comm, enum axon_send_mode mode,
                                const struct axon_memkind_info *info, struct axon_request **reqp)
{
    if (dest == MPI_PROC_NULL)
        return axon_pt2pt_request_proc_null(reqp);
    struct axon_request *req;
    int rc = axon_pt2pt_request_init(AXON_REQUEST_SEND, (void *)buf, count, dt, dest, tag, comm, mode, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info) {
        req->gpu.stage_info = *info;
        req->send.stage_known = true;
    }
    axon_pt2pt_async_begin(req);
    rc = axon_pt2pt_send_post(req);
    if (rc != MPI_SUCCESS) {
        axon_pt2pt_async_end(req);
        axon_request_free(req);
        return rc;
    }
    *reqp = req;
    return MPI_SUCCESS;
}
