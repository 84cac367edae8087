/* Puts and gets to remote targets as UCX puts and gets (AXON_RMA_UCX): each member registers its memory
 * when the window is made and the members exchange their remote keys; an origin then moves a put's or
 * get's bytes straight between its buffer and the target's memory, piece by piece of the target
 * layout, and a flush of the endpoint completes them. Where the fabric has RDMA the target takes no
 * part at all.
 *
 * What stays messages: accumulates (their atomicity is the target's accumulate mutex, which node peers
 * take with CPU atomics; a fabric's atomics would not exclude those), locks, dynamic windows (memory
 * attached later has no key at creation), operations with a request (a request completes with its own
 * operation, a UCX flush completes everything to the target), and buffers that are not host memory in
 * one piece. Ordering needs nothing more: MPI orders accumulates only, and puts and gets to the same
 * place in one epoch are erroneous. Every synchronization that completes operations (flush, unlock,
 * fence, complete) flushes these first, before it sends the target its own message. */
#include "rma/axon_rma_internal.h"

#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

/* What each member tells the others about its registered memory. */
struct axon_rma_ucx_info {
    uint64_t base;
    uint64_t rkey_len; /* 0: nothing registered (an empty part, or UCX refused) */
};

int axon_rma_ucx_setup(struct axon_rma_win *w, const char **why)
{
    if (!axon_ucx_rma_enabled() || w->flavor == AXON_RMA_DYNAMIC || w->flavor == AXON_RMA_SHARED)
        return MPI_SUCCESS;
    int n = w->size;
    /* A member whose memory UCX will not register is reached by messages: no error, the same result. */
    /* Device memory stays with messages: this UCX may not reach it (and a fake driver's would fault). */
    if (w->local_size > 0 && w->base && w->kind == AXON_MEMKIND_HOST)
        (void)axon_ucx_rma_mem_map(w->base, (size_t)w->local_size, &w->ucx_mem);
    struct axon_rma_ucx_info mine = {(uint64_t)(uintptr_t)w->base, w->ucx_mem.rkey_len};
    struct axon_rma_ucx_info *info = malloc(sizeof(*info) * (size_t)n);
    char *mykey = NULL, *keys = NULL;
    int rc = MPI_ERR_NO_MEM;
    if (!info)
        goto out;
    if ((rc = axon_rma_allgather(w, &mine, info, sizeof(mine))) != MPI_SUCCESS)
        goto out;
    size_t keymax = 0;
    for (int p = 0; p < n; p++)
        if (info[p].rkey_len > keymax)
            keymax = (size_t)info[p].rkey_len;
    if (keymax == 0)
        goto out;
    rc = MPI_ERR_NO_MEM;
    if (!(mykey = calloc(1, keymax)) || !(keys = malloc(keymax * (size_t)n)))
        goto out;
    if (w->ucx_mem.rkey_len)
        memcpy(mykey, w->ucx_mem.rkey, w->ucx_mem.rkey_len);
    if ((rc = axon_rma_allgather(w, mykey, keys, keymax)) != MPI_SUCCESS)
        goto out;
    for (int p = 0; p < n; p++) {
        struct axon_rma_target *t = &w->targets[p];
        if (t->path != AXON_RMA_PATH_AM || info[p].rkey_len == 0)
            continue;
        /* A key this rank cannot use leaves the target to messages. */
        if (axon_ucx_rma_rkey_unpack(axon_rma_world_rank(w->coll, p), keys + keymax * (size_t)p, &t->rkey) !=
            MPI_SUCCESS) {
            t->rkey = NULL;
            continue;
        }
        t->remote_base = info[p].base;
    }
    int reached = 0;
    for (int p = 0; p < n; p++)
        reached += w->targets[p].rkey != NULL;
    axon_runtime_log_debug(1, "window of %d ranks: puts and gets to %d of them by UCX", n, reached);
out:
    if (rc != MPI_SUCCESS)
        *why = rc == MPI_ERR_NO_MEM ? "out of memory" : "the window's members could not exchange their keys";
    free(info);
    free(mykey);
    free(keys);
    return rc;
}

void axon_rma_ucx_teardown(struct axon_rma_win *w)
{
    for (int p = 0; p < w->size; p++)
        if (w->targets[p].rkey) {
            axon_ucx_rma_rkey_destroy(w->targets[p].rkey);
            w->targets[p].rkey = NULL;
        }
    axon_ucx_rma_mem_unmap(&w->ucx_mem);
}

bool axon_rma_ucx_takes(const struct axon_rma_win *w, const struct axon_rma_op *op, bool with_request)
{
    if (with_request || !w->targets[op->target].rkey)
        return false;
    if (op->kind == AXON_RMA_PUT)
        return axon_rma_host_contig(op->origin, op->origin_dt);
    if (op->kind == AXON_RMA_GET)
        return axon_rma_host_contig(op->result, op->result_dt);
    return false;
}

int axon_rma_ucx_issue(struct axon_rma_win *w, const struct axon_rma_op *op, const struct axon_rma_seg *segs,
                       int64_t nseg, const char **why)
{
    struct axon_rma_target *t = &w->targets[op->target];
    int world = axon_rma_world_rank(w->coll, op->target);
    bool put = op->kind == AXON_RMA_PUT;
    char *buf = put ? (char *)op->origin + op->origin_dt->true_lb : (char *)op->result + op->result_dt->true_lb;
    int64_t pos = 0;
    for (int64_t i = 0; i < nseg; i++) {
        uint64_t raddr = t->remote_base + (uint64_t)segs[i].off;
        size_t len = (size_t)segs[i].len;
        int rc = put ? axon_ucx_rma_put(world, buf + pos, len, raddr, t->rkey)
                     : axon_ucx_rma_get(world, buf + pos, len, raddr, t->rkey);
        if (rc != MPI_SUCCESS) {
            *why = put ? "UCX could not put to the target" : "UCX could not get from the target";
            return rc;
        }
        pos += segs[i].len;
    }
    __atomic_add_fetch(&t->ucx_unflushed, 1, __ATOMIC_RELAXED);
    return MPI_SUCCESS;
}

struct axon_rma_ucx_flushes {
    ucs_status_ptr_t *req;
    int n;
};

static bool axon_rma_ucx_flushed(void *arg)
{
    struct axon_rma_ucx_flushes *f = arg;
    for (int i = 0; i < f->n; i++)
        if (!axon_ucx_rma_flush_done(f->req[i]))
            return false;
    return true;
}

int axon_rma_ucx_flush(struct axon_rma_win *w, int lo, int hi, const char **why)
{
    int n = 0;
    for (int p = lo; p < hi; p++)
        n += __atomic_load_n(&w->targets[p].ucx_unflushed, __ATOMIC_RELAXED) > 0;
    if (n == 0)
        return MPI_SUCCESS;
    ucs_status_ptr_t one, *req = n == 1 ? &one : calloc((size_t)n, sizeof(*req));
    if (!req) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    /* Every flush started first, then one wait serving the window: targets flush at once. */
    int rc = MPI_SUCCESS, k = 0;
    for (int p = lo; p < hi; p++) {
        struct axon_rma_target *t = &w->targets[p];
        if (k == n || __atomic_exchange_n(&t->ucx_unflushed, 0, __ATOMIC_RELAXED) == 0)
            continue;
        req[k] = NULL;
        int frc = axon_ucx_rma_flush_start(axon_rma_world_rank(w->coll, p), &req[k]);
        if (frc != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = frc;
        k++;
    }
    struct axon_rma_ucx_flushes f = {req, k};
    if (!axon_rma_ucx_flushed(&f))
        axon_rma_wait_until(w, axon_rma_ucx_flushed, &f);
    for (int i = 0; i < k; i++) {
        int frc = axon_ucx_rma_flush_end(req[i]);
        if (frc != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = frc;
    }
    if (req != &one)
        free(req);
    if (rc != MPI_SUCCESS)
        *why = "UCX could not complete the puts and gets to the target";
    return rc;
}
