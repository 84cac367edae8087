/* The remote path's two ends, moved by a progress hook while any window lives:
 * - the target takes requests from its window's ops context (a matched probe for the size, then a
 *   receive), applies them in the order it took them (so an origin's operations apply in the order it
 *   issued them, and an unlock is answered only after what came before it), answers each once applied
 *   (data, or an empty acknowledgement) on the reply context, and grants waiting locks when they come
 *   free;
 * - the origin's pending answers (gets, fetches, acknowledgements): a result staged through host memory
 *   is copied to its place, the program's request completed, the entry dropped.
 * A target that computes without calling MPI serves nothing meanwhile: remote origins then wait for it
 * (or for the progress thread, AXON_ASYNC_PROGRESS=1); node peers never need it (rma/rma.h). */
#include "rma/axon_rma_internal.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <stdlib.h>
#include <string.h>

static struct axon_rma_win *axon_rma_windows;
static atomic_bool axon_rma_any;
static bool axon_rma_serving;

void axon_rma_serve_register(struct axon_rma_win *w)
{
    axon_ucx_lock();
    w->next = axon_rma_windows;
    axon_rma_windows = w;
    atomic_store_explicit(&axon_rma_any, true, memory_order_relaxed);
    axon_ucx_unlock();
}

void axon_rma_serve_unregister(struct axon_rma_win *w)
{
    axon_ucx_lock();
    for (struct axon_rma_win **p = &axon_rma_windows; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    if (!axon_rma_windows)
        atomic_store_explicit(&axon_rma_any, false, memory_order_relaxed);
    axon_ucx_unlock();
}

static int64_t axon_rma_status_bytes(const MPI_Status *s)
{
    return (int64_t)(uint32_t)s->count_lo | ((int64_t)((uint32_t)s->count_hi_and_cancelled >> 1) << 32);
}

/* An answer to an origin on its reply tag: bytes at data, owned (freed once sent) or not (the window's
 * own memory, which the send reads in place). */
static void axon_rma_answer_bytes(struct axon_rma_win *w, int origin, int tag, void *data, int64_t bytes, bool owned)
{
    const struct axon_dtype_layout byte = axon_dtype_layout_basic(MPI_BYTE, 1);
    struct axon_request *req = NULL;
    void *buf = owned ? data : NULL;
    int rc = axon_pt2pt_isend(data, bytes, &byte, origin, tag, w->reply, AXON_SEND_STANDARD, &req);
    if (rc != MPI_SUCCESS) {
        axon_runtime_log_error("one-sided: cannot answer rank %d of a window: error %d", origin, rc);
        free(buf);
        return;
    }
    if (!data || axon_pt2pt_request_done(req)) {
        free(buf);
        axon_request_free(req);
        return;
    }
    /* The send still reads data: it goes with the origin's pending entries (target -1: no flush waits). */
    struct axon_rma_pending *p = calloc(1, sizeof(*p));
    if (!p) {
        axon_request_wait(req);
        axon_request_free(req);
        free(buf);
        return;
    }
    *p = (struct axon_rma_pending){.next = w->pending, .req = req, .buf = buf, .target = -1};
    w->pending = p;
}

static void axon_rma_answer(struct axon_rma_win *w, int origin, int tag, void *data, int64_t bytes)
{
    axon_rma_answer_bytes(w, origin, tag, data, bytes, true);
}

static void axon_rma_answer_from(struct axon_rma_win *w, int origin, int tag, const void *mem, int64_t bytes)
{
    axon_rma_answer_bytes(w, origin, tag, (void *)mem, bytes, false);
}

/* Whether [where + off, + len) of every piece lies in an attached region (dynamic windows), or in the
 * window (the others). */
static bool axon_rma_segs_valid(struct axon_rma_win *w, uint64_t where, const struct axon_rma_seg *segs,
                                int64_t nseg)
{
    for (int64_t i = 0; i < nseg; i++) {
        uint64_t lo = where + (uint64_t)segs[i].off, hi = lo + (uint64_t)segs[i].len;
        if (segs[i].off < 0 || segs[i].len < 0 || hi < lo)
            return false;
        if (w->flavor != AXON_RMA_DYNAMIC) {
            if (hi > (uint64_t)w->local_size)
                return false;
            continue;
        }
        /* Every byte attached: a piece may run across regions attached side by side. */
        uint64_t pos = lo;
        while (pos < hi) {
            uint64_t next = pos;
            for (int r = 0; r < w->nregions && next == pos; r++)
                if (pos >= w->regions[r].base && pos < w->regions[r].base + w->regions[r].size)
                    next = w->regions[r].base + w->regions[r].size;
            if (next == pos)
                return false;
            pos = next;
        }
    }
    return true;
}

static void axon_rma_serve_lock(struct axon_rma_win *w, int source, int lock_type, int tag)
{
    if (axon_rma_lock_try(w->my_ctrl, lock_type)) {
        axon_rma_answer(w, source, tag, NULL, 0);
        return;
    }
    struct axon_rma_lock_wait *lw = malloc(sizeof(*lw));
    if (!lw) {
        axon_runtime_log_error("one-sided: out of memory for a lock request of rank %d", source);
        return;
    }
    *lw = (struct axon_rma_lock_wait){.source = source, .lock_type = lock_type, .reply_tag = tag};
    struct axon_rma_lock_wait **tail = &w->lock_waits;
    while (*tail)
        tail = &(*tail)->next;
    *tail = lw;
}

/* Applies one request this rank took. */
static void axon_rma_serve_one(struct axon_rma_win *w, struct axon_rma_incoming *in)
{
    if (in->bytes < (int64_t)sizeof(struct axon_rma_msg)) {
        axon_runtime_log_error("one-sided: a request of %lld bytes from rank %d is too short", (long long)in->bytes,
                               in->source);
        return;
    }
    struct axon_rma_msg m;
    memcpy(&m, in->msg, sizeof(m));
    switch (m.kind) {
    case AXON_RMA_MSG_LOCK:
        axon_rma_serve_lock(w, in->source, m.lock_type, m.reply_tag);
        return;
    case AXON_RMA_MSG_UNLOCK:
        axon_rma_lock_release(w->my_ctrl, m.lock_type);
        axon_rma_answer(w, in->source, m.reply_tag, NULL, 0);
        return;
    default:
        break;
    }
    int64_t head = (int64_t)sizeof(m), seg_bytes = m.nseg * (int64_t)sizeof(struct axon_rma_seg);
    if (m.nseg < 0 || m.data_bytes < 0 || head + seg_bytes + m.data_bytes != in->bytes) {
        axon_runtime_log_error("one-sided: a malformed request from rank %d", in->source);
        axon_rma_answer(w, in->source, m.reply_tag, NULL, 0); /* its origin waits for an answer */
        return;
    }
    const struct axon_rma_seg *segs = (const void *)(in->msg + head);
    if (!axon_rma_segs_valid(w, m.where, segs, m.nseg)) {
        axon_runtime_log_error("one-sided: rank %d reached outside this rank's window (or its attached memory); "
                               "the operation is dropped", in->source);
        axon_rma_answer(w, in->source, m.reply_tag, NULL, 0);
        return;
    }
    int64_t out_bytes = 0;
    for (int64_t i = 0; i < m.nseg; i++)
        out_bytes += segs[i].len;
    bool answers = m.kind == AXON_RMA_MSG_GET || m.kind == AXON_RMA_MSG_GET_ACC || m.kind == AXON_RMA_MSG_CAS;
    char *mem = w->flavor == AXON_RMA_DYNAMIC ? (char *)(uintptr_t)m.where : w->base + m.where;
    enum axon_memkind mem_kind = w->kind;
    int mem_device = w->device;
    if (w->flavor == AXON_RMA_DYNAMIC && m.nseg > 0 &&
        axon_rma_attached_kind(mem + segs[0].off, &mem_kind, &mem_device) != MPI_SUCCESS) {
        axon_runtime_log_error("one-sided: rank %d's operation reached memory of no known kind", in->source);
        axon_rma_answer(w, in->source, m.reply_tag, NULL, 0);
        return;
    }
    /* A get of one piece of host memory is answered from the window itself: no copy (the program may not
     * change those bytes while the get is in flight: that would be a conflicting access). */
    if (m.kind == AXON_RMA_MSG_GET && m.nseg == 1 && mem_kind == AXON_MEMKIND_HOST) {
        axon_rma_answer_from(w, in->source, m.reply_tag, mem + segs[0].off, segs[0].len);
        return;
    }
    char *out = NULL;
    if (answers && out_bytes > 0 && !(out = malloc((size_t)out_bytes))) {
        axon_runtime_log_error("one-sided: out of memory answering rank %d", in->source);
        return;
    }
    struct axon_rma_apply a = {
        .kind = (enum axon_rma_msg_kind)m.kind,
        .segs = segs,
        .nseg = m.nseg,
        .data = in->msg + head + seg_bytes,
        .out = out,
        .op = (MPI_Op)m.op,
        .basic = (MPI_Datatype)m.basic,
        .basic_size = m.basic_size > 0 ? m.basic_size : 1,
    };
    a.mem_kind = mem_kind;
    a.mem_device = mem_device;
    int rc = axon_rma_apply_local(mem, w->my_ctrl, &a);
    if (rc != MPI_SUCCESS)
        axon_runtime_log_error("one-sided: applying rank %d's operation failed (error %d)", in->source, rc);
    axon_rma_answer(w, in->source, m.reply_tag, out, answers ? out_bytes : 0);
}

bool axon_rma_serve_window(struct axon_rma_win *w)
{
    bool moved = false;
    /* Requests that arrived: once the window is made (a member that finished making it may ask before
     * this rank has its memory; the request waits in the engine's queue meanwhile). */
    for (int taken = 0; taken < 32 && w->ready; taken++) {
        int flag = 0;
        MPI_Status st;
        uint32_t message;
        if (axon_pt2pt_improbe(MPI_ANY_SOURCE, AXON_RMA_TAG_OP, w->ops, &flag, &st, &message) != MPI_SUCCESS || !flag)
            break;
        struct axon_rma_incoming *in = calloc(1, sizeof(*in));
        int64_t bytes = axon_rma_status_bytes(&st);
        char *msg = malloc((size_t)(bytes > 0 ? bytes : 1));
        const struct axon_dtype_layout byte = axon_dtype_layout_basic(MPI_BYTE, 1);
        if (!in || !msg || axon_pt2pt_imrecv(msg, bytes, &byte, message, &in->req) != MPI_SUCCESS) {
            axon_runtime_log_error("one-sided: cannot take a request of rank %d", st.MPI_SOURCE);
            free(in);
            free(msg);
            break;
        }
        in->msg = msg;
        in->bytes = bytes;
        in->source = st.MPI_SOURCE;
        *w->incoming_tail = in;
        w->incoming_tail = &in->next;
        moved = true;
    }
    /* Applied in the order taken. */
    while (w->incoming && axon_pt2pt_request_done(w->incoming->req)) {
        struct axon_rma_incoming *in = w->incoming;
        w->incoming = in->next;
        if (!w->incoming)
            w->incoming_tail = &w->incoming;
        axon_rma_serve_one(w, in);
        axon_request_free(in->req);
        free(in->msg);
        free(in);
        moved = true;
    }
    /* Locks that came free. */
    for (struct axon_rma_lock_wait **p = &w->lock_waits; *p;) {
        struct axon_rma_lock_wait *lw = *p;
        if (axon_rma_lock_try(w->my_ctrl, lw->lock_type)) {
            *p = lw->next;
            axon_rma_answer(w, lw->source, lw->reply_tag, NULL, 0);
            free(lw);
            moved = true;
        } else {
            p = &lw->next;
        }
    }
    /* The origin's answers. */
    for (struct axon_rma_pending **p = &w->pending; *p;) {
        struct axon_rma_pending *e = *p;
        if (!axon_pt2pt_request_done(e->req)) {
            p = &e->next;
            continue;
        }
        *p = e->next;
        if (e->user)
            axon_request_coll_complete(e->user, e->req->status.MPI_ERROR);
        axon_request_free(e->req);
        free(e->buf);
        free(e);
        moved = true;
    }
    return moved;
}

static int axon_rma_progress(void)
{
    if (!atomic_load_explicit(&axon_rma_any, memory_order_relaxed))
        return 0;
    axon_ucx_lock();
    if (axon_rma_serving) {
        axon_ucx_unlock();
        return 0;
    }
    axon_rma_serving = true;
    bool moved = false;
    for (struct axon_rma_win *w = axon_rma_windows; w; w = w->next) {
        moved |= axon_rma_serve_window(w);
        /* A node peer's large copy into or out of this rank's memory, shared while we are here. */
        if (w->flavor == AXON_RMA_CREATE)
            moved |= axon_rma_split_help(w->my_ctrl);
    }
    axon_rma_serving = false;
    axon_ucx_unlock();
    return moved ? 1 : 0;
}

void axon_rma_wait_until(struct axon_rma_win *w, bool (*done)(void *), void *arg)
{
    (void)w; /* the hook serves every window, this one included */
    axon_ucx_wait(done, arg);
}

int axon_rma_init(void)
{
    static bool hooked;
    if (hooked)
        return MPI_SUCCESS;
    int rc = axon_ucx_progress_hook_add(axon_rma_progress, &axon_rma_any);
    if (rc == MPI_SUCCESS)
        hooked = true;
    return rc;
}

void axon_rma_finalize(void)
{
    /* Windows the program never freed go without meeting anyone: no peer reaches them once MPI is down
     * (the standard has them freed first; their memory is the program's no more). */
    axon_ucx_lock();
    struct axon_rma_win *left = axon_rma_windows;
    axon_rma_windows = NULL;
    atomic_store_explicit(&axon_rma_any, false, memory_order_relaxed);
    axon_ucx_unlock();
    while (left) {
        struct axon_rma_win *w = left;
        left = w->next;
        axon_rma_win_teardown(w, false);
    }
}
