/* One-sided operations at the origin: the checks only the engine can make (an epoch towards the target,
 * the target's window bounds), then the target's path. Direct and single-copy targets are done when the
 * call returns (the origin applies the operation itself, under the target's accumulate mutex for
 * accumulates). Remote targets get puts and gets as UCX puts and gets where the window registered its
 * memory (axon_rma_ucx.c), everything else as one message: the header, the target's pieces and the
 * packed origin data; every message is answered (a get's or fetch's data, else an empty
 * acknowledgement), received straight into the result buffer by a receive posted before the request
 * leaves, so the point-to-point engine unpacks it into any layout and memory kind.
 *
 * Origin and result buffers in GPU memory are reached through host copies of their span on the direct
 * paths (the answer's receive moves them itself on the remote path); into a GPU window, a buffer in one
 * piece is copied by the device directly. */
#include "rma/axon_rma_internal.h"

#include "ucx_glue/ucx_glue.h"

#include <stdlib.h>
#include <string.h>

/* A buffer as host memory: itself, or a host copy of the span a layout covers (device memory). */
struct axon_rma_view {
    char *host;
    char *copy;
    char *user_span;
    size_t span;
    struct axon_memkind_info info;
};

static int axon_rma_view_open(const void *buf, int64_t count, const struct axon_dtype_layout *dt, bool read,
                              struct axon_rma_view *v)
{
    memset(v, 0, sizeof(*v));
    v->host = (char *)buf;
    if (count == 0 || dt->size == 0 || axon_pt2pt_data_surely_host(buf, dt))
        return MPI_SUCCESS;
    int rc = axon_memkind_of((const char *)buf + dt->true_lb, &v->info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (axon_memkind_is_host(&v->info))
        return MPI_SUCCESS;
    v->span = (size_t)((count - 1) * dt->extent + dt->true_extent);
    v->user_span = (char *)buf + dt->true_lb;
    v->copy = malloc(v->span ? v->span : 1);
    if (!v->copy)
        return MPI_ERR_NO_MEM;
    if (read && (rc = axon_memkind_copy_to_host(v->copy, v->user_span, v->span, &v->info)) != MPI_SUCCESS) {
        free(v->copy);
        return rc;
    }
    v->host = v->copy - dt->true_lb;
    return MPI_SUCCESS;
}

static int axon_rma_view_close(struct axon_rma_view *v, bool write)
{
    int rc = MPI_SUCCESS;
    if (v->copy && write)
        rc = axon_memkind_copy_from_host(v->user_span, v->copy, v->span, &v->info);
    free(v->copy);
    return rc;
}

/* Whether buf's layout is one piece of host memory, so the near path reads or writes it in place. The
 * inline checks miss host memory from mmap (large malloc, posix_memalign); the kind's full check is
 * cheap for those while no GPU context exists, and a copy through a bounce buffer costs far more. */
bool axon_rma_host_contig(const void *buf, const struct axon_dtype_layout *dt)
{
    if (!dt->contig)
        return false;
    if (axon_pt2pt_data_surely_host(buf, dt))
        return true;
    struct axon_memkind_info info;
    return axon_memkind_of((const char *)buf + dt->true_lb, &info) == MPI_SUCCESS && axon_memkind_is_host(&info);
}

/* Whether the operation brings data back to the origin (a get, a fetch). */
static bool axon_rma_answers(enum axon_rma_op_kind k)
{
    return k == AXON_RMA_GET || k == AXON_RMA_GET_ACC || k == AXON_RMA_CAS;
}

static enum axon_rma_msg_kind axon_rma_msg_of(enum axon_rma_op_kind k)
{
    switch (k) {
    case AXON_RMA_PUT:
        return AXON_RMA_MSG_PUT;
    case AXON_RMA_GET:
        return AXON_RMA_MSG_GET;
    case AXON_RMA_ACC:
        return AXON_RMA_MSG_ACC;
    case AXON_RMA_GET_ACC:
        return AXON_RMA_MSG_GET_ACC;
    default:
        return AXON_RMA_MSG_CAS;
    }
}

/* The origin's bytes that travel: packed origin data (put, accumulates), or a compare-and-swap's new
 * value then its compare value. */
static int64_t axon_rma_data_bytes(const struct axon_rma_op *op)
{
    switch (op->kind) {
    case AXON_RMA_PUT:
    case AXON_RMA_ACC:
        return op->origin_count * op->origin_dt->size;
    case AXON_RMA_GET_ACC:
        return op->op == MPI_NO_OP ? 0 : op->origin_count * op->origin_dt->size;
    case AXON_RMA_CAS:
        return 2 * op->origin_dt->size;
    default:
        return 0;
    }
}

static int axon_rma_data_pack(const struct axon_rma_op *op, char *out)
{
    struct axon_rma_view v;
    int rc;
    if (op->kind == AXON_RMA_CAS) {
        int64_t n = op->origin_dt->size;
        const struct axon_dtype_layout *dt = op->origin_dt;
        if ((rc = axon_rma_view_open(op->origin, 1, dt, true, &v)) != MPI_SUCCESS)
            return rc;
        axon_rma_pack(v.host, 1, dt, out);
        axon_rma_view_close(&v, false);
        if ((rc = axon_rma_view_open(op->compare, 1, dt, true, &v)) != MPI_SUCCESS)
            return rc;
        axon_rma_pack(v.host, 1, dt, out + n);
        axon_rma_view_close(&v, false);
        return MPI_SUCCESS;
    }
    if ((rc = axon_rma_view_open(op->origin, op->origin_count, op->origin_dt, true, &v)) != MPI_SUCCESS)
        return rc;
    axon_rma_pack(v.host, op->origin_count, op->origin_dt, out);
    return axon_rma_view_close(&v, false);
}

static int64_t axon_rma_basic_size(const struct axon_rma_op *op)
{
    /* Puts and gets never need it, and a division costs as much as the rest of a small put. */
    if (op->kind == AXON_RMA_PUT || op->kind == AXON_RMA_GET)
        return 1;
    const struct axon_dtype_layout *dt = op->target_dt;
    return dt->basic_count > 1 ? dt->size / dt->basic_count : dt->size;
}

/* Direct and single-copy targets: the operation applied here, complete on return. */
static int axon_rma_op_near(struct axon_rma_win *w, struct axon_rma_target *t, const struct axon_rma_op *op,
                            const struct axon_rma_seg *segs, int64_t nseg, const char **why)
{
    int64_t data_bytes = axon_rma_data_bytes(op);
    int64_t target_bytes = 0;
    for (int64_t i = 0; i < nseg; i++)
        target_bytes += segs[i].len;
    bool answers = axon_rma_answers(op->kind);
    int64_t out_bytes = op->kind == AXON_RMA_CAS ? op->origin_dt->size : answers ? target_bytes : 0;
    char *data = NULL, *out = NULL, *data_copy = NULL;
    int rc = MPI_SUCCESS;

    /* A host origin that lies in one piece goes as it is; anything else is packed first. Into a GPU
     * window a put's or get's buffer in one piece of any memory is copied straight by the device (GPU
     * to GPU through IPC: one device copy). */
    bool device_copies = t->path == AXON_RMA_PATH_DIRECT && t->kind != AXON_MEMKIND_HOST &&
                         (op->kind == AXON_RMA_PUT || op->kind == AXON_RMA_GET);
    if (data_bytes > 0) {
        if (op->kind != AXON_RMA_CAS && ((device_copies && op->origin_dt->contig) ||
                                         axon_rma_host_contig(op->origin, op->origin_dt))) {
            data = (char *)op->origin + op->origin_dt->true_lb;
        } else {
            data = data_copy = malloc((size_t)data_bytes);
            if (!data || (rc = axon_rma_data_pack(op, data)) != MPI_SUCCESS) {
                free(data_copy);
                *why = "cannot read the origin buffer";
                return data ? rc : MPI_ERR_NO_MEM;
            }
        }
    }
    struct axon_rma_view rv = {0};
    bool result_direct = false;
    if (answers) {
        const struct axon_dtype_layout *rdt = op->kind == AXON_RMA_CAS ? op->origin_dt : op->result_dt;
        result_direct = (device_copies && rdt->contig) || axon_rma_host_contig(op->result, rdt);
        if (result_direct) {
            out = (char *)op->result + rdt->true_lb;
        } else if (!(out = malloc((size_t)(out_bytes > 0 ? out_bytes : 1)))) {
            free(data_copy);
            *why = "out of memory";
            return MPI_ERR_NO_MEM;
        }
    }
    struct axon_rma_apply a = {
        .kind = axon_rma_msg_of(op->kind),
        .segs = segs,
        .nseg = nseg,
        .data = data,
        .out = out,
        .op = op->kind == AXON_RMA_CAS ? MPI_OP_NULL : op->op,
        .op_obj = op->op_obj,
        .basic = op->target_dt->basic,
        .basic_size = op->kind == AXON_RMA_CAS ? op->origin_dt->size : axon_rma_basic_size(op),
    };
    if (a.basic_size <= 0)
        a.basic_size = 1;
    a.mem_kind = t->kind;
    a.mem_device = t->device;
    if (t->path == AXON_RMA_PATH_DIRECT && w->flavor == AXON_RMA_DYNAMIC && nseg > 0)
        (void)axon_rma_attached_kind(t->mapped + segs[0].off, &a.mem_kind, &a.mem_device);
    if (t->path == AXON_RMA_PATH_DIRECT)
        rc = axon_rma_apply_local(t->mapped, t->ctrl, &a);
    else if (w->flavor == AXON_RMA_CREATE && nseg == 1 && (op->kind == AXON_RMA_PUT || op->kind == AXON_RMA_GET) &&
             axon_rma_split_worth(segs[0].len))
        rc = axon_rma_split_copy(t->ctrl, t->pid, op->kind == AXON_RMA_PUT, op->kind == AXON_RMA_PUT ? data : out,
                                 t->base + (uint64_t)segs[0].off, (uint64_t)segs[0].len);
    else
        rc = axon_rma_apply_cma(t->pid, t->base, t->ctrl, &a);
    if (rc != MPI_SUCCESS)
        *why = t->path == AXON_RMA_PATH_CMA ? "the single copy to or from the target's memory failed"
                                            : "the operation could not be applied";
    if (answers && !result_direct) {
        int64_t rcount = op->kind == AXON_RMA_CAS ? 1 : op->result_count;
        const struct axon_dtype_layout *rdt = op->kind == AXON_RMA_CAS ? op->origin_dt : op->result_dt;
        if (rc == MPI_SUCCESS && (rc = axon_rma_view_open(op->result, rcount, rdt, true, &rv)) == MPI_SUCCESS) {
            axon_rma_unpack(rv.host, rcount, rdt, out, out_bytes);
            rc = axon_rma_view_close(&rv, true);
        }
        free(out);
    }
    free(data_copy);
    return rc;
}

static uint32_t axon_rma_tag_next(struct axon_rma_win *w)
{
    /* Threads of one rank may issue at once (MPI_THREAD_MULTIPLE): each takes its own. */
    uint32_t n = __atomic_fetch_add(&w->next_tag, 1, __ATOMIC_RELAXED);
    uint32_t tag = AXON_RMA_TAG_REPLY_MIN + n % ((uint32_t)0x3fffffff - AXON_RMA_TAG_REPLY_MIN);
    return tag;
}

/* Adds an entry to the origin's pending list (under the transport lock: the hook walks it). */
static int axon_rma_pending_add(struct axon_rma_win *w, struct axon_request *req, struct axon_request *user,
                                void *buf, int target)
{
    struct axon_rma_pending *p = calloc(1, sizeof(*p));
    if (!p)
        return MPI_ERR_NO_MEM;
    *p = (struct axon_rma_pending){.req = req, .user = user, .buf = buf, .target = target};
    axon_ucx_lock();
    p->next = w->pending;
    w->pending = p;
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

int axon_rma_send_request(struct axon_rma_win *w, int target, struct axon_rma_msg *m, const struct axon_rma_seg *segs,
                          const struct axon_rma_op *op, void *answer, int64_t answer_count,
                          const struct axon_dtype_layout *answer_dt, struct axon_request *user, const char **why)
{
    const struct axon_dtype_layout byte = axon_dtype_layout_basic(MPI_BYTE, 1);
    int64_t seg_bytes = m->nseg * (int64_t)sizeof(struct axon_rma_seg);
    int64_t bytes = (int64_t)sizeof(*m) + seg_bytes + m->data_bytes;
    char *msg = malloc((size_t)bytes);
    if (!msg) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    int rc = MPI_SUCCESS;
    bool replies = answer_dt != NULL;
    if (replies)
        m->reply_tag = (int32_t)axon_rma_tag_next(w);
    memcpy(msg, m, sizeof(*m));
    if (seg_bytes)
        memcpy(msg + sizeof(*m), segs, (size_t)seg_bytes);
    if (op && m->data_bytes > 0 && (rc = axon_rma_data_pack(op, msg + sizeof(*m) + seg_bytes)) != MPI_SUCCESS) {
        free(msg);
        *why = "cannot read the origin buffer";
        return rc;
    }
    struct axon_request *rreq = NULL, *sreq = NULL;
    if (replies) {
        rc = axon_pt2pt_irecv(answer, answer_count, answer_dt, target, m->reply_tag, w->reply, &rreq);
        if (rc != MPI_SUCCESS) {
            free(msg);
            *why = "cannot post the receive of the answer";
            return rc;
        }
    }
    rc = axon_pt2pt_isend(msg, bytes, &byte, target, AXON_RMA_TAG_OP, w->ops, AXON_SEND_STANDARD, &sreq);
    if (rc != MPI_SUCCESS) {
        free(msg);
        *why = "cannot send the request to the target";
        /* The answer's receive stays posted: nothing will match it, and the window's free drops it. */
        return rc;
    }
    rc = axon_rma_pending_add(w, sreq, replies ? NULL : user, msg, target);
    if (rc == MPI_SUCCESS && replies)
        rc = axon_rma_pending_add(w, rreq, user, NULL, target);
    if (rc != MPI_SUCCESS)
        *why = "out of memory";
    return rc;
}

int axon_rma_op_start(struct axon_rma_win *w, const struct axon_rma_op *op, struct axon_request **req,
                      const char **why)
{
    if (op->target == MPI_PROC_NULL) {
        if (req)
            return axon_request_alloc_complete(AXON_REQUEST_SEND, req);
        return MPI_SUCCESS;
    }
    if (op->target < 0 || op->target >= w->size) {
        *why = "the target rank is not in the window's group";
        return MPI_ERR_RANK;
    }
    if (w->any_am)
        axon_ucx_progress();
    struct axon_rma_target *t = &w->targets[op->target];
    if (w->access != AXON_RMA_ACCESS_FENCE && !t->started && !t->lock) {
        *why = "no access epoch to the target is open (MPI_Win_fence, MPI_Win_start, MPI_Win_lock or "
               "MPI_Win_lock_all first)";
        return MPI_ERR_RMA_SYNC;
    }
    const struct axon_dtype_layout *tdt = op->target_dt;
    if (w->flavor != AXON_RMA_DYNAMIC && op->target_count > 0 && tdt->size > 0) {
        int64_t lo = op->target_disp * t->disp_unit + tdt->true_lb;
        int64_t hi = op->target_disp * t->disp_unit + (op->target_count - 1) * tdt->extent + tdt->true_lb +
                     tdt->true_extent;
        if (lo < 0 || hi > t->size) {
            *why = "the operation reaches beyond the target's window";
            return MPI_ERR_RMA_RANGE;
        }
    }
    /* What moves: the origin's data where it has any (it may describe less than the target layout). */
    int64_t limit = op->target_count * tdt->size;
    int64_t data = axon_rma_data_bytes(op);
    if (op->kind != AXON_RMA_GET && op->kind != AXON_RMA_CAS && data > 0 && data < limit)
        limit = data;
    struct axon_rma_seg one, *segs;
    int64_t nseg = axon_rma_target_segs(op, w->flavor == AXON_RMA_DYNAMIC ? 1 : t->disp_unit, limit, &one, &segs);
    if (nseg < 0) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    int rc;
    if (t->path != AXON_RMA_PATH_AM) {
        rc = axon_rma_op_near(w, t, op, segs, nseg, why);
        /* A node peer's memory that single copies cannot reach (GPU memory attached to a dynamic
         * window) takes a message instead; the window polls progress from now on. */
        bool by_message = rc == MPI_ERR_UNSUPPORTED_OPERATION && t->path == AXON_RMA_PATH_CMA;
        if (!by_message) {
            if (segs != &one)
                free(segs);
            if (rc == MPI_SUCCESS && req)
                rc = axon_request_alloc_complete(AXON_REQUEST_SEND, req);
            return rc;
        }
        w->any_am = true;
    }

    if (axon_rma_ucx_takes(w, op, req != NULL)) {
        rc = axon_rma_ucx_issue(w, op, segs, nseg, why);
        if (segs != &one)
            free(segs);
        return rc;
    }

    bool answers = axon_rma_answers(op->kind);
    struct axon_request *user = NULL;
    if (req) {
        /* Puts and accumulates are complete for the origin once packed; the others when answered. */
        rc = answers ? axon_request_alloc_coll(&user) : axon_request_alloc_complete(AXON_REQUEST_SEND, &user);
        if (rc != MPI_SUCCESS) {
            if (segs != &one)
                free(segs);
            *why = "out of requests";
            return rc;
        }
    }
    struct axon_rma_msg m = {
        .kind = axon_rma_msg_of(op->kind),
        .basic = (int32_t)tdt->basic,
        .op = (int32_t)op->op,
        .basic_size = (int32_t)(op->kind == AXON_RMA_CAS ? op->origin_dt->size : axon_rma_basic_size(op)),
        .where = 0,
        .nseg = nseg,
        .data_bytes = axon_rma_data_bytes(op),
    };
    /* Every operation is answered once applied (a put or an accumulate with an empty acknowledgement),
     * so a flush only waits for the answers: one round trip, where a flush message of its own would cost
     * one more. */
    static const struct axon_dtype_layout ack = {.contig = true, .basic = MPI_BYTE, .basic_count = 1};
    void *answer = NULL;
    int64_t answer_count = 0;
    const struct axon_dtype_layout *answer_dt = &ack;
    if (answers) {
        answer = op->result;
        answer_count = op->kind == AXON_RMA_CAS ? 1 : op->result_count;
        answer_dt = op->kind == AXON_RMA_CAS ? op->origin_dt : op->result_dt;
    }
    rc = axon_rma_send_request(w, op->target, &m, segs, op, answer, answer_count, answer_dt, answers ? user : NULL,
                               why);
    if (segs != &one)
        free(segs);
    if (rc != MPI_SUCCESS) {
        if (user)
            axon_request_free(user);
        return rc;
    }
    if (req)
        *req = user;
    return MPI_SUCCESS;
}
