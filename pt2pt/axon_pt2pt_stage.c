/* Device buffers in point-to-point. Between ranks of one node, GPU memory with an IPC handle (cuMemAlloc
 * memory's legacy handle, or VMM memory's POSIX fds) is read in place: the sender sends the allocation's
 * IPC descriptor instead of the data, the receiver copies from the sender's GPU straight into its buffer
 * (the memory kind's cached handles, memkind/) and acknowledges, which completes the send. Large
 * contiguous messages otherwise go in pipelined chunks (axon_pt2pt_pipeline.c). Everything else is
 * staged through pinned host memory: a send copies its data's span from the GPU into a host copy and the
 * engine sends that copy; a receive notes its GPU buffer when posted and takes its host copy only when a
 * message that needs one matches (holding the device's bytes first when the layout leaves gaps, so the
 * gaps come back unchanged), which goes to the GPU when the message is complete. Every protocol of the
 * engine (the node's rings, UCX eager and rendezvous, typed data) then moves device data unchanged, and
 * nothing but the memory kinds' copies (memkind/) ever reads or writes GPU memory. */
#include "pt2pt/axon_pt2pt_internal.h"
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes count elements of dt at buf touch: [buf + *lo, buf + *lo + *len). */
static void axon_pt2pt_stage_span(const struct axon_request *req, int64_t *lo, int64_t *len)
{
    const struct axon_dtype_layout *dt = &req->dt;
    int64_t stride = (req->count - 1) * dt->extent;
    *lo = dt->true_lb + (stride < 0 ? stride : 0);
    *len = (stride < 0 ? -stride : stride) + dt->true_extent;
}

/* host (a copy of the span gpu.stage_lo/stage_len describe) stands in for the user's buffer: the engine
 * addresses data as buf + offset, so buf moves by the span's offset. */
static void axon_pt2pt_stage_stand_in(struct axon_request *req, char *host)
{
    req->stage = host;
    if (req->kind == AXON_REQUEST_SEND)
        req->send.stage_ipc = false;
    req->buf = (void *)((uintptr_t)host - (uintptr_t)req->gpu.stage_lo);
}

/* What memory p, the start of a request's data, is: the sender's own answer when it gave one for this
 * very address (stage_known), else the classification's. */
static int axon_pt2pt_stage_classify(const struct axon_request *req, const void *p, struct axon_memkind_info *info)
{
    if (req->kind == AXON_REQUEST_SEND && req->send.stage_known && p == req->buf) {
        *info = req->gpu.stage_info;
        return MPI_SUCCESS;
    }
    return axon_memkind_of(p, info);
}

int axon_pt2pt_stage_begin(struct axon_request *req, bool incoming)
{
    if (incoming)
        req->recv.stage_pending = false;
    if (req->count == 0 || req->dt.size == 0)
        return MPI_SUCCESS;
    int64_t lo, len;
    axon_pt2pt_stage_span(req, &lo, &len);
    char *user = req->buf;
    struct axon_memkind_info info;
    int rc = axon_pt2pt_stage_classify(req, user + lo, &info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (axon_memkind_is_host(&info))
        return MPI_SUCCESS;
    req->gpu.stage_user = user;
    req->gpu.stage_lo = lo;
    req->gpu.stage_len = len;
    req->gpu.stage_info = info;
    if (incoming) {
        /* Noted only: the protocol of the message that matches decides whether a host copy is needed
         * (axon_pt2pt_stage_attach); IPC and pipelined chunks write the GPU buffer directly. A copy
         * taken here would pin the receive's whole size for every receive posted, most of them for
         * nothing (a window of 64 receives of 64 MiB took 4 GiB of pinned memory). */
        req->recv.stage_pending = true;
        return MPI_SUCCESS;
    }
    char *host = axon_memkind_bounce_get((size_t)len, &info);
    if (!host)
        return MPI_ERR_NO_MEM;
    rc = axon_memkind_copy_to_host(host, user + lo, (size_t)len, &info);
    if (rc != MPI_SUCCESS) {
        axon_memkind_bounce_put(host, (size_t)len, &info);
        return rc;
    }
    axon_pt2pt_stage_stand_in(req, host);
    return MPI_SUCCESS;
}

void axon_pt2pt_stage_attach(struct axon_request *req)
{
    req->recv.stage_pending = false;
    int64_t lo = req->gpu.stage_lo, len = req->gpu.stage_len;
    char *host = axon_memkind_bounce_get((size_t)len, &req->gpu.stage_info);
    if (!host) {
        /* The message is on its way and must land somewhere: end the job rather than lose it. */
        char msg[160];
        snprintf(msg, sizeof(msg), "no host memory (%lld bytes) to stage a message into a GPU buffer", (long long)len);
        axon_runtime_log_error("%s", msg);
        axon_runtime_bootstrap_abort(1, msg);
    }
    /* A layout with gaps: the copy holds the device's bytes first, so the gaps go back unchanged. */
    if (!req->dt.contig) {
        int rc = axon_memkind_copy_to_host(host, req->gpu.stage_user + lo, (size_t)len, &req->gpu.stage_info);
        if (rc != MPI_SUCCESS && req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = rc;
    }
    axon_pt2pt_stage_stand_in(req, host);
}

void axon_pt2pt_stage_end(struct axon_request *req)
{
    if (req->kind == AXON_REQUEST_RECV && !req->cancelled) {
        int64_t lo = req->gpu.stage_lo, len = req->gpu.stage_len;
        if (req->dt.contig) {
            /* Only what arrived (never beyond the buffer). */
            int64_t capacity = req->count * req->dt.size;
            len = req->bytes < capacity ? req->bytes : capacity;
        }
        if (len > 0 &&
            axon_memkind_copy_from_host(req->gpu.stage_user + lo, req->stage, (size_t)len, &req->gpu.stage_info) !=
                MPI_SUCCESS &&
            req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = MPI_ERR_OTHER;
    }
    axon_pt2pt_stage_free(req);
    req->buf = req->gpu.stage_user; /* a persistent request starts again from the user's buffer */
}

/* A send of GPU data through host memory: in pipelined chunks when large and contiguous, else one host
 * copy. */
static int axon_pt2pt_staged_send_begin(struct axon_request *req, int64_t bytes, struct axon_pt2pt_pipe_rts *rts)
{
    if (axon_pt2pt_pipe_wanted(req, bytes)) {
        struct axon_memkind_info info;
        int rc = axon_pt2pt_stage_classify(req, (const char *)req->buf + req->dt.true_lb, &info);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!axon_memkind_is_host(&info))
            return axon_pt2pt_pipe_send_begin(req, &info, rts);
        return MPI_SUCCESS;
    }
    return axon_pt2pt_stage_begin(req, false);
}

/* A send of bytes at data (device memory info describes) to rank world of this node: its IPC
 * descriptor goes instead of the data when the memory can be exported, else it is staged. */
static int axon_pt2pt_ipc_send_begin(struct axon_request *req, int world, const char *data, int64_t bytes,
                                     const struct axon_memkind_info *info, bool *ipc, struct axon_pt2pt_pipe_rts *rts)
{
    /* VMM memory goes as POSIX fds the receiver takes with pidfd_getfd, which needs the right to ptrace
     * us: the same right process_vm_readv needs, which the rings' probe established. */
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(world);
    bool fds_ok = peer && axon_pt2pt_shm_cma_ok(peer);
    struct axon_memkind_ipc_desc *desc = axon_memkind_bounce_get(AXON_MEMKIND_IPC_DESC_MAX, info);
    if (!desc)
        return MPI_ERR_NO_MEM;
    if (axon_memkind_ipc_export(data, (size_t)bytes, info, fds_ok, true, desc) == MPI_SUCCESS) {
        desc->bytes = (uint64_t)bytes;
        req->stage = desc;
        req->gpu.stage_info = *info; /* the kind whose bounce buffer holds the descriptor */
        req->gpu.stage_len = AXON_MEMKIND_IPC_DESC_MAX;
        req->send.stage_ipc = true;
        req->gpu.stage_user = req->buf;
        *ipc = true;
        return MPI_SUCCESS;
    }
    axon_memkind_bounce_put(desc, AXON_MEMKIND_IPC_DESC_MAX, info); /* no handle for this memory */
    axon_runtime_log_debug(3, "GPU message of %lld bytes to rank %d: no IPC export, staged", (long long)bytes, world);
    return axon_pt2pt_staged_send_begin(req, bytes, rts);
}

int axon_pt2pt_device_send_begin(struct axon_request *req, int world, bool *ipc, struct axon_pt2pt_pipe_rts *rts)
{
    *ipc = false;
    int64_t bytes = req->count * req->dt.size;
    const struct axon_runtime_job *job = &axon_runtime_job;
    if (bytes > 0 && req->dt.contig && bytes >= axon_config.cuda_ipc_min && world != job->rank &&
        job->node_of_rank[world] == job->node) {
        const char *data = (const char *)req->buf + req->dt.true_lb;
        struct axon_memkind_info info;
        int rc = axon_pt2pt_stage_classify(req, data, &info);
        if (rc != MPI_SUCCESS)
            return rc;
        if (axon_memkind_is_host(&info))
            return MPI_SUCCESS;
        if (axon_memkind_ipc_available(info.kind))
            return axon_pt2pt_ipc_send_begin(req, world, data, bytes, &info, ipc, rts);
    }
    return axon_pt2pt_staged_send_begin(req, bytes, rts);
}

void axon_pt2pt_ipc_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr, const void *data,
                            size_t length)
{
    /* An aligned copy: the payload may lie anywhere in UCX's buffer. */
    _Alignas(16) unsigned char room[AXON_MEMKIND_IPC_DESC_MAX];
    memcpy(room, data, length < sizeof(room) ? length : sizeof(room));
    const struct axon_memkind_ipc_desc *d = (const struct axon_memkind_ipc_desc *)room;
    struct axon_memkind_ipc_desc desc;
    memcpy(&desc, d, sizeof(desc));
    int64_t capacity = req->count * req->dt.size;
    int64_t take = (int64_t)desc.bytes < capacity ? (int64_t)desc.bytes : capacity;
    int rc = MPI_SUCCESS;
    if (take > 0 && req->dt.contig) {
        /* Straight into the user's buffer, GPU or host. */
        char *user = req->recv.stage_pending ? req->gpu.stage_user : req->buf;
        struct axon_memkind_info info;
        if (req->recv.stage_pending)
            info = req->gpu.stage_info;
        else
            axon_memkind_set_host(&info);
        rc = axon_memkind_ipc_copy_from(hdr->sync_world_rank, d, user + req->dt.true_lb, (size_t)take, &info);
    } else if (take > 0) {
        /* A typed layout: the data comes to host memory and unpacks into the buffer (or its host copy). */
        char *tmp = malloc((size_t)take);
        struct axon_memkind_info host;
        axon_memkind_set_host(&host);
        rc = tmp ? axon_memkind_ipc_copy_from(hdr->sync_world_rank, d, tmp, (size_t)take, &host) : MPI_ERR_NO_MEM;
        if (rc == MPI_SUCCESS)
            rc = axon_pt2pt_unpack_packed(req, tmp, take);
        free(tmp);
    }
    if (rc != MPI_SUCCESS && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.MPI_ERROR = rc;
}

void axon_pt2pt_stage_free(struct axon_request *req)
{
    /* A send's descriptor: its exports may close once the receiver has copied. */
    if (req->kind == AXON_REQUEST_SEND && req->send.stage_ipc) {
        axon_memkind_ipc_release(req->stage);
        req->send.stage_ipc = false;
    }
    axon_memkind_bounce_put(req->stage, (size_t)req->gpu.stage_len, &req->gpu.stage_info);
    req->stage = NULL;
}

int axon_pt2pt_unpack_packed(struct axon_request *req, const void *packed, int64_t bytes)
{
    struct axon_dloop_cursor cursor;
    if (axon_dloop_cursor_init(&cursor, req->dt.loop, req->count, req->dt.extent) != 0)
        return MPI_ERR_NO_MEM;
    axon_dloop_unpack(&cursor, req->buf, packed, bytes);
    axon_dloop_cursor_fini(&cursor);
    return MPI_SUCCESS;
}
