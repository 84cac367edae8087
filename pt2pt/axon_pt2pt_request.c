/* Requests: taken from a pool (their pool index is the MPI handle's low bits), completed by the engine's
 * callbacks, waited on through axon_ucx_wait. */
#include "pt2pt/axon_pt2pt_internal.h"

#include "runtime/axon_runtime_pool.h"
#include "ucx_glue/ucx_glue.h"

#include <stddef.h>
#include <stdlib.h>

static struct axon_pool axon_request_pool;

struct axon_request axon_request_sent = {
    .kind = AXON_REQUEST_SEND,
    .index = UINT32_MAX,
    .complete = 1,
    .status = {.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG, .MPI_ERROR = MPI_SUCCESS},
};

static void axon_request_child_done(struct axon_request *child);

/* What the pool zeroes of a request it hands out (pt2pt.h, struct axon_request): the fields before the
 * union, and the longer of its members' cleared parts (each ends at its member's first field not cleared). */
#define AXON_REQUEST_SEND_CLEARED offsetof(struct axon_request, send.header)
#define AXON_REQUEST_RECV_CLEARED offsetof(struct axon_request, recv.pipe_unpack)
static const size_t axon_request_clear_size =
    AXON_REQUEST_SEND_CLEARED > AXON_REQUEST_RECV_CLEARED ? AXON_REQUEST_SEND_CLEARED : AXON_REQUEST_RECV_CLEARED;
_Static_assert(offsetof(struct axon_request, upper) + sizeof(void *) <= AXON_REQUEST_SEND_CLEARED,
               "a collective's or generalized request's upper is cleared");
_Static_assert(offsetof(struct axon_request, cursor) >= AXON_REQUEST_SEND_CLEARED &&
                   offsetof(struct axon_request, cursor) >= AXON_REQUEST_RECV_CLEARED,
               "the clear ends inside the union");

int axon_pt2pt_request_pool_init(void)
{
    int rc = axon_runtime_pool_init(&axon_request_pool, "requests", sizeof(struct axon_request));
    if (rc == MPI_SUCCESS)
        axon_runtime_pool_set_clear_size(&axon_request_pool, axon_request_clear_size);
    return rc;
}

void axon_pt2pt_request_pool_single_thread(void)
{
    axon_runtime_pool_set_thread_safe(&axon_request_pool, false);
}

void axon_pt2pt_request_pool_fini(void)
{
    axon_runtime_pool_fini(&axon_request_pool);
}

int axon_pt2pt_request_alloc(enum axon_request_kind kind, struct axon_request **req)
{
    void *obj;
    uint32_t index;
    int rc = axon_runtime_pool_alloc(&axon_request_pool, &obj, &index);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_request *r = obj;
    r->kind = kind;
    r->index = index;
    r->pending = 1;
    r->async_counted = false;
    r->status.MPI_ERROR = MPI_SUCCESS;
    *req = r;
    return MPI_SUCCESS;
}

int axon_pt2pt_request_init(enum axon_request_kind kind, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                            int peer, int tag, struct axon_pt2pt_comm *comm, enum axon_send_mode mode,
                            struct axon_request **reqp)
{
    struct axon_request *req;
    int rc = axon_pt2pt_request_alloc(kind, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->comm = comm;
    axon_pt2pt_busy_add(comm, 1);
    req->buf = buf;
    req->count = count;
    req->dt = *dt;
    /* A derived type may be freed while this request uses it: keep its layout alive until the end. */
    if (dt->loop)
        axon_dloop_retain((struct axon_dloop *)dt->loop);
    req->peer = peer;
    req->tag = tag;
    if (kind == AXON_REQUEST_SEND)
        req->send.mode = mode;
    *reqp = req;
    return MPI_SUCCESS;
}

/* What MPI_Start does before the operation moves: the last round's leftovers cleared, the request
 * active; false when there is nothing to move (MPI_PROC_NULL: complete at once). */
static bool axon_pt2pt_start_reset(struct axon_request *req)
{
    /* What the last round left: its layout cursor, its status. */
    if (req->cursor_live) {
        axon_dloop_cursor_fini(&req->cursor);
        req->cursor_live = false;
    }
    req->status.MPI_ERROR = MPI_SUCCESS;
    req->cancelled = false;
    if (req->kind == AXON_REQUEST_SEND)
        req->send.cancel_asked = false;
    req->bytes = 0;
    req->ucx_request = NULL;
    req->pending = 1;
    req->active = true;
    if (req->peer == MPI_PROC_NULL) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        req->status.MPI_TAG = MPI_ANY_TAG;
        atomic_store_explicit(&req->complete, 1, memory_order_release);
        return false;
    }
    atomic_store_explicit(&req->complete, 0, memory_order_release);
    return true;
}

int axon_pt2pt_post(struct axon_request *req)
{
    axon_pt2pt_async_begin(req);
    int rc;
    if (req->kind == AXON_REQUEST_SEND) {
        rc = axon_pt2pt_send_post(req);
    } else {
        req->recv.match.source = req->peer;
        req->recv.match.tag = req->tag;
        rc = axon_pt2pt_recv_post(req);
    }
    if (rc != MPI_SUCCESS)
        axon_pt2pt_async_end(req); /* left complete, nothing in flight */
    return rc;
}

int axon_pt2pt_start(struct axon_request *req)
{
    return axon_pt2pt_start_reset(req) ? axon_pt2pt_post(req) : MPI_SUCCESS;
}

bool axon_pt2pt_start_deferred(struct axon_request *req)
{
    return axon_pt2pt_start_reset(req);
}

int axon_request_alloc_complete(enum axon_request_kind kind, struct axon_request **reqp)
{
    struct axon_request *req;
    int rc = axon_pt2pt_request_alloc(kind, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->pending = 0;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    atomic_store_explicit(&req->complete, 1, memory_order_release);
    *reqp = req;
    return MPI_SUCCESS;
}

int axon_request_alloc_coll(struct axon_request **reqp)
{
    struct axon_request *req;
    int rc = axon_pt2pt_request_alloc(AXON_REQUEST_COLL, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    atomic_store_explicit(&req->complete, 0, memory_order_release);
    axon_pt2pt_async_begin(req);
    *reqp = req;
    return MPI_SUCCESS;
}

int axon_request_alloc_coll_persistent(struct axon_pt2pt_comm *comm, void *upper, struct axon_request **reqp)
{
    struct axon_request *req;
    int rc = axon_pt2pt_request_alloc(AXON_REQUEST_COLL, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->persistent = true;
    req->upper = upper;
    req->comm = comm;
    axon_pt2pt_busy_add(comm, 1);
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    *reqp = req;
    return MPI_SUCCESS;
}

void axon_request_coll_restart(struct axon_request *req)
{
    req->status.MPI_ERROR = MPI_SUCCESS;
    req->pending = 1;
    req->active = true;
    atomic_store_explicit(&req->complete, 0, memory_order_release);
}

void axon_request_coll_complete(struct axon_request *req, int err)
{
    req->status.MPI_ERROR = err;
    axon_pt2pt_request_event(req);
}

int axon_request_alloc_user(void *upper, struct axon_request **reqp)
{
    struct axon_request *req;
    int rc = axon_pt2pt_request_alloc(AXON_REQUEST_USER, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->upper = upper;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    atomic_store_explicit(&req->complete, 0, memory_order_release);
    *reqp = req;
    return MPI_SUCCESS;
}

void axon_request_user_complete(struct axon_request *req)
{
    axon_ucx_lock();
    axon_pt2pt_request_event(req);
    axon_ucx_unlock();
}

void axon_request_user_complete_locked(struct axon_request *req)
{
    axon_pt2pt_request_event(req);
}

int axon_request_composite(struct axon_request **children, int n, int status_child, void *scratch,
                           struct axon_request **reqp)
{
    struct axon_request *req;
    int rc = axon_pt2pt_request_alloc(AXON_REQUEST_COMPOSITE, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    req->scratch = scratch;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    atomic_store_explicit(&req->complete, 0, memory_order_release);
    /* One count per child and one for this setup, so the composite cannot complete before every child
     * is attached; children that completed already count down at once. */
    req->pending = n + 1;
    axon_ucx_lock();
    for (int i = 0; i < n; i++) {
        struct axon_request *c = children[i];
        c->parent = req;
        c->parent_status = i == status_child;
        if (atomic_load_explicit(&c->complete, memory_order_acquire))
            axon_request_child_done(c);
    }
    axon_pt2pt_request_event(req);
    axon_ucx_unlock();
    *reqp = req;
    return MPI_SUCCESS;
}

void axon_pt2pt_request_foreach(void (*fn)(struct axon_request *))
{
    uint32_t n = axon_request_pool.nchunks * AXON_POOL_CHUNK_OBJECTS;
    for (uint32_t i = 0; i < n; i++) {
        struct axon_request *req = axon_runtime_pool_get(&axon_request_pool, i);
        if (req)
            fn(req);
    }
}

struct axon_request *axon_request_get(uint32_t index)
{
    return axon_runtime_pool_get(&axon_request_pool, index);
}

static void axon_request_release(struct axon_request *req)
{
    axon_pt2pt_async_end(req); /* a request freed before it ever completed */
    if (req->cursor_live) {
        axon_dloop_cursor_fini(&req->cursor);
        req->cursor_live = false;
    }
    if (req->comm) {
        axon_pt2pt_busy_add(req->comm, -1);
        req->comm = NULL;
    }
    if (req->dt.loop) {
        axon_dloop_release((struct axon_dloop *)req->dt.loop);
        req->dt.loop = NULL;
    }
    if (req->stage)
        axon_pt2pt_stage_free(req);
    if (req->scratch) {
        free(req->scratch);
        req->scratch = NULL;
    }
    axon_runtime_pool_free(&axon_request_pool, req->index);
}

/* Under the transport lock: a composite's child has completed; it passes its status (if it is the one
 * the composite reports) and its error on, goes back to the pool, and counts down its parent. */
static void axon_request_child_done(struct axon_request *child)
{
    struct axon_request *parent = child->parent;
    child->parent = NULL;
    if (child->parent_status) {
        parent->status.MPI_SOURCE = child->status.MPI_SOURCE;
        parent->status.MPI_TAG = child->status.MPI_TAG;
        parent->cancelled = child->cancelled;
        parent->bytes = 0;
        if (child->kind == AXON_REQUEST_RECV && !child->cancelled) {
            int64_t capacity = child->count * child->dt.size;
            parent->bytes = child->bytes < capacity ? child->bytes : capacity;
        }
    }
    if (child->status.MPI_ERROR != MPI_SUCCESS && parent->status.MPI_ERROR == MPI_SUCCESS)
        parent->status.MPI_ERROR = child->status.MPI_ERROR;
    axon_request_release(child);
    axon_pt2pt_request_event(parent);
}

void axon_pt2pt_request_event(struct axon_request *req)
{
    if (--req->pending > 0)
        return;
    if (req->stage)
        axon_pt2pt_stage_end(req);
    axon_pt2pt_async_end(req);
    if (req->parent) {
        axon_request_child_done(req);
        return;
    }
    if (req->user_freed) {
        axon_request_release(req);
        return;
    }
    atomic_store_explicit(&req->complete, 1, memory_order_release);
}

void axon_request_free(struct axon_request *req)
{
    if (req == &axon_request_sent)
        return;
    axon_ucx_lock();
    if (atomic_load_explicit(&req->complete, memory_order_acquire) || (req->persistent && !req->active))
        axon_request_release(req);
    else
        req->user_freed = true; /* the engine frees it when it completes */
    axon_ucx_unlock();
}

static bool axon_request_is_complete(void *arg)
{
    return axon_pt2pt_request_done(arg);
}

bool axon_request_test(struct axon_request *req)
{
    if (axon_request_is_complete(req))
        return true;
    axon_ucx_progress();
    return axon_request_is_complete(req);
}

void axon_request_wait(struct axon_request *req)
{
    axon_ucx_wait(axon_request_is_complete, req);
}

struct axon_request_any {
    struct axon_request **reqs;
    int n;
};

static bool axon_request_any_complete(void *arg)
{
    struct axon_request_any *any = arg;
    for (int i = 0; i < any->n; i++)
        if (any->reqs[i] && axon_request_is_complete(any->reqs[i]))
            return true;
    return false;
}

void axon_request_wait_any(struct axon_request **reqs, int n)
{
    struct axon_request_any any = {reqs, n};
    axon_ucx_wait(axon_request_any_complete, &any);
}
