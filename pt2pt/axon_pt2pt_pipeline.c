/* GPU messages larger than a chunk, staged in a pipeline: the sender copies chunk after chunk off its GPU
 * into pinned buffers and sends each as it is ready, while the receiver copies the previous ones onto
 * its GPU, so the two copies and the wire overlap instead of following one another for the whole
 * message (AXON_CUDA_PIPELINE_CHUNK, AXON_CUDA_PIPELINE_DEPTH chunks in flight).
 *
 * The protocol: the send's message carries only a request to send (its length and the sender's
 * request), flagged AXON_PT2PT_FLAG_PIPE, through the ring or UCX like any message, so matching and
 * MPI's order are untouched. Once it matches, the receiver answers with a clear-to-send active message
 * naming its request; the sender then streams the chunks as active messages of their own, addressed to
 * that request (no matching), and completes when UCX has taken the last; the receiver completes when the
 * last chunk has landed. A synchronous send needs nothing more: the clear-to-send comes after the match.
 * Requests are named by pool index on the sender's side and by address on the receiver's (a blocking
 * receive's request lives on its caller's stack); neither leaves its process but to come back.
 *
 * Between ranks of a node (that may read each other's memory), chunks go through the sender's staging
 * window instead (the memory kind's window: pinned host memory both processes map): the sender
 * copies a chunk off its GPU into a slot of its window and sends only where it is; the receiver copies it
 * from there onto its GPU and gives the slot back, which ends the chunk's flight. Two DMA copies and no
 * CPU copy per chunk. A message that finds every slot taken by others (a window of 64 sends) waits in
 * line for one: some slot is always held by a chunk in flight, whose return pumps the line. */
#include "pt2pt/axon_pt2pt_internal.h"
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

#define AXON_AM_PIPE_CTS 3  /* receiver -> sender: header struct axon_pipe_cts */
#define AXON_AM_PIPE_DATA 4 /* sender -> receiver: header struct axon_pipe_chunk, then the chunk; or header
                             * struct axon_pipe_slot_chunk alone (the chunk is in the sender's window) */
#define AXON_AM_PIPE_FREE 5 /* receiver -> sender: header struct axon_pipe_slot_free */
#define AXON_PIPE_SLOTS 8   /* slots of a staging window, of a chunk each */
#define AXON_PIPE_LINE 4096 /* sends waiting for a slot (beyond it, the transport's way) */

struct axon_pipe_cts {
    uint32_t sender_index;
    uint32_t pad;
    uint64_t receiver;
};

struct axon_pipe_chunk {
    uint64_t receiver;
    uint64_t offset;
};

/* A chunk in slot `slot` of the sender's window, at slot_offset in it. */
struct axon_pipe_slot_chunk {
    uint64_t receiver;
    uint64_t offset;
    uint64_t slot_offset;
    uint64_t len;
    struct axon_memkind_window_id window;
    int32_t sender; /* its world rank */
    uint32_t slot;
    uint32_t failed; /* the copy off the sender's GPU failed: the receive fails too, rather than wait */
    uint32_t pad;
};

struct axon_pipe_slot_free {
    uint32_t slot;
    uint32_t ok;
};

/* A chunk in flight, for its completion. */
struct axon_pipe_flight {
    struct axon_request *req;
    void *bounce;
    uint64_t len;
    int slot;                   /* its slot of our window, or -1 (a bounce buffer sent through UCX) */
    struct axon_pipe_chunk hdr; /* UCX reads it until the send completes */
};

/* Our staging window's slots: the flight holding each (NULL: free). Under the transport lock. */
static struct {
    bool tried;
    char *base;
    struct axon_memkind_window_id id;
    uint64_t slot_bytes;
    struct axon_pipe_flight *held[AXON_PIPE_SLOTS];
    uint32_t line[AXON_PIPE_LINE]; /* request indices waiting for a slot, oldest first (a ring) */
    int line_head, line_len;
} axon_pipe_win;

static uint64_t axon_pipe_chunk_bytes(void)
{
    return axon_config.cuda_pipeline_chunk > 0 ? (uint64_t)axon_config.cuda_pipeline_chunk : 1u << 20;
}

bool axon_pt2pt_pipe_wanted(const struct axon_request *req, int64_t bytes)
{
    return req->dt.contig && (uint64_t)bytes > axon_pipe_chunk_bytes();
}

static void axon_pipe_pump(struct axon_request *req);

/* One chunk has left: its buffer goes back, and the next may go. Under the transport lock. */
static void axon_pipe_flight_end(struct axon_pipe_flight *f, bool ok)
{
    struct axon_request *req = f->req;
    if (f->slot < 0)
        axon_memkind_bounce_put(f->bounce, (size_t)axon_pipe_chunk_bytes(), &req->gpu.pipe_info);
    if (!ok && req->status.MPI_ERROR == MPI_SUCCESS)
        req->status.MPI_ERROR = MPI_ERR_OTHER;
    req->gpu.pipe_done += f->len;
    req->send.pipe_inflight--;
    free(f);
    if (req->gpu.pipe_done == req->gpu.pipe_bytes) {
        req->pipe = false;
        axon_pt2pt_request_event(req); /* the whole message has left */
    } else {
        axon_pipe_pump(req);
    }
}

static void axon_pipe_chunk_sent(void *request, ucs_status_t status, void *user_data)
{
    ucp_request_free(request);
    axon_pipe_flight_end(user_data, status == UCS_OK);
}

/* Whether chunks to rank world may go through our window: a node peer that may take our descriptors
 * (the same right as reading our memory) and a window we could make. */
static bool axon_pipe_window_for(int world, const struct axon_request *req)
{
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(world);
    if (!peer || !axon_pt2pt_shm_cma_ok(peer) || !axon_config.cuda_window)
        return false;
    if (!axon_pipe_win.tried) {
        axon_pipe_win.tried = true;
        axon_pipe_win.slot_bytes = axon_pipe_chunk_bytes();
        axon_pipe_win.base = axon_memkind_window_mine(req->gpu.pipe_info.kind,
                                                      (size_t)(AXON_PIPE_SLOTS * axon_pipe_win.slot_bytes),
                                                      req->gpu.pipe_info.device, &axon_pipe_win.id);
    }
    return axon_pipe_win.base != NULL && axon_pipe_win.slot_bytes == axon_pipe_chunk_bytes();
}

static int axon_pipe_slot_take(void)
{
    for (int i = 0; i < AXON_PIPE_SLOTS; i++)
        if (!axon_pipe_win.held[i])
            return i;
    return -1;
}

/* Starts chunks while fewer than AXON_CUDA_PIPELINE_DEPTH are in flight: copy off the GPU (into a slot of
 * our window, or a bounce buffer), then send (where the slot is, or the chunk). */
static void axon_pipe_pump(struct axon_request *req)
{
    uint64_t chunk = axon_pipe_chunk_bytes();
    long depth = axon_config.cuda_pipeline_depth > 0 ? axon_config.cuda_pipeline_depth : 1;
    int world = req->comm->world_ranks ? req->comm->world_ranks[req->peer] : req->peer;
    ucp_ep_h ep;
    if (axon_ucx_ep_get(world, &ep) != MPI_SUCCESS)
        ep = NULL;
    bool window = axon_pipe_window_for(world, req);
    while (req->send.pipe_inflight < depth && req->send.pipe_next < req->gpu.pipe_bytes) {
        uint64_t left = req->gpu.pipe_bytes - req->send.pipe_next;
        uint64_t len = left < chunk ? left : chunk;
        int slot = window ? axon_pipe_slot_take() : -1;
        if (window && slot < 0 && req->send.pipe_inflight > 0)
            return; /* a slot of ours comes back with each of its chunks: wait for one */
        if (window && slot < 0 && axon_pipe_win.line_len < AXON_PIPE_LINE) {
            /* Others hold every slot: in line, pumped when one comes back. */
            axon_pipe_win.line[(axon_pipe_win.line_head + axon_pipe_win.line_len++) % AXON_PIPE_LINE] = req->index;
            return;
        }
        struct axon_pipe_flight *f = malloc(sizeof(*f));
        if (!f)
            axon_runtime_bootstrap_abort(MPI_ERR_NO_MEM, "out of memory for a chunk of a GPU message");
        if (slot >= 0) {
            void *dst = axon_pipe_win.base + (uint64_t)slot * axon_pipe_win.slot_bytes;
            bool ok = axon_memkind_copy_to_host(dst, req->gpu.pipe_data + req->send.pipe_next, (size_t)len,
                                                &req->gpu.pipe_info) == MPI_SUCCESS;
            *f = (struct axon_pipe_flight){.req = req, .bounce = dst, .len = len, .slot = slot};
            struct axon_pipe_slot_chunk sc = {.receiver = req->send.pipe_peer, .offset = req->send.pipe_next,
                                              .slot_offset = (uint64_t)slot * axon_pipe_win.slot_bytes, .len = len,
                                              .window = axon_pipe_win.id, .sender = axon_runtime_job.rank,
                                              .slot = (uint32_t)slot, .failed = !ok};
            req->send.pipe_next += len;
            req->send.pipe_inflight++;
            if (!ok) {
                /* Sent all the same, marked: the receiver counts it and fails, and the send with it. */
                axon_runtime_log_error("staging a chunk of a GPU message to rank %d failed", world);
                if (req->status.MPI_ERROR == MPI_SUCCESS)
                    req->status.MPI_ERROR = MPI_ERR_OTHER;
            }
            /* Held until the receiver gives the slot back (axon_pipe_am_free ends the flight). */
            axon_pipe_win.held[slot] = f;
            axon_pt2pt_send_control(world, AXON_AM_PIPE_DATA, &sc, sizeof(sc), "a chunk of a GPU message");
            continue;
        }
        void *bounce = axon_memkind_bounce_get((size_t)chunk, &req->gpu.pipe_info);
        bool ok = ep && bounce &&
                  axon_memkind_copy_to_host(bounce, req->gpu.pipe_data + req->send.pipe_next, (size_t)len,
                                            &req->gpu.pipe_info) == MPI_SUCCESS;
        *f = (struct axon_pipe_flight){.req = req, .bounce = bounce, .len = len, .slot = -1,
                                       .hdr = {.receiver = req->send.pipe_peer, .offset = req->send.pipe_next}};
        req->send.pipe_next += len;
        req->send.pipe_inflight++;
        if (!ok) {
            axon_runtime_log_error("staging a chunk of a GPU message to rank %d failed", world);
            axon_pipe_flight_end(f, false);
            return;
        }
        ucp_request_param_t param = {
            .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
            .cb.send = axon_pipe_chunk_sent,
            .user_data = f,
            /* Whole, in the receiver's callback: a chunk is at most a few MiB. */
            .flags = UCP_AM_SEND_FLAG_EAGER,
        };
        ucs_status_ptr_t st = ucp_am_send_nbx(ep, AXON_AM_PIPE_DATA, &f->hdr, sizeof(f->hdr), bounce, (size_t)len,
                                              &param);
        if (st == NULL) {
            axon_pipe_flight_end(f, true);
            return; /* flight_end pumped on */
        }
        if (UCS_PTR_IS_ERR(st)) {
            axon_runtime_log_error("sending a chunk of a GPU message to rank %d failed: %s", world,
                                   ucs_status_string(UCS_PTR_STATUS(st)));
            axon_pipe_flight_end(f, false);
            return;
        }
    }
}

int axon_pt2pt_pipe_send_begin(struct axon_request *req, const struct axon_memkind_info *info,
                               struct axon_pt2pt_pipe_rts *rts)
{
    req->pipe = true;
    req->gpu.pipe_data = (char *)req->buf + req->dt.true_lb;
    req->gpu.pipe_info = *info;
    req->gpu.pipe_bytes = (uint64_t)(req->count * req->dt.size);
    req->send.pipe_next = req->gpu.pipe_done = 0;
    req->send.pipe_inflight = 0;
    rts->bytes = req->gpu.pipe_bytes;
    rts->sender_index = req->index;
    rts->pad = 0;
    return MPI_SUCCESS;
}

/* The receiver matched: stream. */
static ucs_status_t axon_pipe_am_cts(void *arg, const void *header, size_t header_length, void *data, size_t length,
                                     const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_pipe_cts cts;
    if (header_length != sizeof(cts))
        return UCS_OK;
    memcpy(&cts, header, sizeof(cts));
    struct axon_request *req = axon_request_get(cts.sender_index);
    if (!req || req->kind != AXON_REQUEST_SEND || !req->pipe) {
        axon_runtime_log_error("a clear-to-send names no pipelined send (request %u)", cts.sender_index);
        return UCS_OK;
    }
    req->send.pipe_peer = cts.receiver;
    axon_pipe_pump(req);
    return UCS_OK;
}

void axon_pt2pt_pipe_deliver(struct axon_request *req, const struct axon_pt2pt_hdr *hdr,
                             const struct axon_pt2pt_pipe_rts *rts)
{
    int64_t capacity = req->count * req->dt.size;
    req->pipe = true;
    req->gpu.pipe_bytes = rts->bytes;
    req->recv.pipe_take = rts->bytes < (uint64_t)capacity ? rts->bytes : (uint64_t)capacity;
    req->gpu.pipe_done = 0;
    req->recv.pipe_unpack = false;
    if (req->dt.contig && req->recv.stage_pending) {
        /* Straight onto the user's GPU buffer: no host copy of it. */
        req->gpu.pipe_data = req->gpu.stage_user + req->dt.true_lb;
        req->gpu.pipe_info = req->gpu.stage_info;
    } else if (req->dt.contig) {
        req->gpu.pipe_data = (char *)req->buf + req->dt.true_lb;
        axon_memkind_set_host(&req->gpu.pipe_info);
    } else {
        /* A typed layout: the chunks gather in a host copy that unpacks at the end. */
        req->gpu.pipe_data = req->recv.pipe_take ? malloc((size_t)req->recv.pipe_take) : NULL;
        axon_memkind_set_host(&req->gpu.pipe_info);
        req->recv.pipe_unpack = true;
        if (req->recv.pipe_take && !req->gpu.pipe_data) {
            req->status.MPI_ERROR = MPI_ERR_NO_MEM;
            req->recv.pipe_take = 0;
        }
    }
    struct axon_pipe_cts cts = {.sender_index = rts->sender_index, .receiver = (uint64_t)(uintptr_t)req};
    axon_pt2pt_send_control(hdr->sync_world_rank, AXON_AM_PIPE_CTS, &cts, sizeof(cts),
                            "the clear-to-send of a pipelined GPU message");
}

/* Copies a chunk's bytes (what of them the receive keeps) to where they go. src NULL: lost (an error). */
static void axon_pipe_land(struct axon_request *req, uint64_t offset, const void *src, uint64_t length)
{
    if (src && offset < req->recv.pipe_take) {
        uint64_t n = req->recv.pipe_take - offset < length ? req->recv.pipe_take - offset : length;
        if (axon_memkind_copy_from_host(req->gpu.pipe_data + offset, src, (size_t)n, &req->gpu.pipe_info) !=
                MPI_SUCCESS &&
            req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = MPI_ERR_OTHER;
    }
}

/* length more bytes of the message have come: the last completes the receive. */
static void axon_pipe_count(struct axon_request *req, uint64_t length)
{
    req->gpu.pipe_done += length;
    if (req->gpu.pipe_done >= req->gpu.pipe_bytes) {
        if (req->recv.pipe_unpack && req->gpu.pipe_data) {
            if (axon_pt2pt_unpack_packed(req, req->gpu.pipe_data, (int64_t)req->recv.pipe_take) != MPI_SUCCESS &&
                req->status.MPI_ERROR == MPI_SUCCESS)
                req->status.MPI_ERROR = MPI_ERR_NO_MEM;
            free(req->gpu.pipe_data);
        }
        req->pipe = false;
        axon_pt2pt_request_event(req);
    }
}

/* A chunk arrived for one of our receives. */
static ucs_status_t axon_pipe_am_data(void *arg, const void *header, size_t header_length, void *data, size_t length,
                                      const ucp_am_recv_param_t *param)
{
    (void)arg, (void)param;
    struct axon_pipe_chunk ch;
    if (header_length == sizeof(struct axon_pipe_slot_chunk)) {
        /* In the sender's window: copied from there, and the slot given back. */
        struct axon_pipe_slot_chunk sc;
        memcpy(&sc, header, sizeof(sc));
        struct axon_request *req = (struct axon_request *)(uintptr_t)sc.receiver;
        const char *win = sc.failed ? NULL : axon_memkind_window_peer(sc.sender, &sc.window, req->gpu.pipe_info.device);
        if (!win && req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = MPI_ERR_OTHER;
        struct axon_pipe_slot_free fr = {.slot = sc.slot, .ok = win != NULL || sc.failed};
        axon_pipe_land(req, sc.offset, win ? win + sc.slot_offset : NULL, sc.len);
        axon_pt2pt_send_control(sc.sender, AXON_AM_PIPE_FREE, &fr, sizeof(fr), "the slot of a GPU message's chunk");
        axon_pipe_count(req, sc.len);
        return UCS_OK;
    }
    if (header_length != sizeof(ch))
        return UCS_OK;
    memcpy(&ch, header, sizeof(ch));
    struct axon_request *req = (struct axon_request *)(uintptr_t)ch.receiver;
    axon_pipe_land(req, ch.offset, data, length);
    axon_pipe_count(req, length);
    return UCS_OK;
}

/* The receiver gave a slot of our window back: its chunk's flight ends. */
static ucs_status_t axon_pipe_am_free(void *arg, const void *header, size_t header_length, void *data, size_t length,
                                      const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_pipe_slot_free fr;
    if (header_length != sizeof(fr))
        return UCS_OK;
    memcpy(&fr, header, sizeof(fr));
    struct axon_pipe_flight *f = fr.slot < AXON_PIPE_SLOTS ? axon_pipe_win.held[fr.slot] : NULL;
    if (!f) {
        axon_runtime_log_error("a peer gave back slot %u of our staging window, which holds no chunk", fr.slot);
        return UCS_OK;
    }
    axon_pipe_win.held[fr.slot] = NULL;
    axon_pipe_flight_end(f, fr.ok != 0);
    /* Slots left free after the flight's own message took its next: the line's. */
    while (axon_pipe_win.line_len > 0 && axon_pipe_slot_take() >= 0) {
        struct axon_request *next = axon_request_get(axon_pipe_win.line[axon_pipe_win.line_head]);
        axon_pipe_win.line_head = (axon_pipe_win.line_head + 1) % AXON_PIPE_LINE;
        axon_pipe_win.line_len--;
        if (next && next->kind == AXON_REQUEST_SEND && next->pipe)
            axon_pipe_pump(next);
    }
    return UCS_OK;
}

int axon_pt2pt_pipe_init(void)
{
    int rc = axon_ucx_am_set_handler(AXON_AM_PIPE_CTS, axon_pipe_am_cts, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_PIPE_DATA, axon_pipe_am_data, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_PIPE_FREE, axon_pipe_am_free, NULL);
    return rc;
}

void axon_pt2pt_pipe_finalize(void)
{
    axon_ucx_am_set_handler(AXON_AM_PIPE_CTS, NULL, NULL);
    axon_ucx_am_set_handler(AXON_AM_PIPE_DATA, NULL, NULL);
    axon_ucx_am_set_handler(AXON_AM_PIPE_FREE, NULL, NULL);
    /* The window itself goes with its memory kind (axon_memkind_finalize). */
    memset(&axon_pipe_win, 0, sizeof(axon_pipe_win));
}
