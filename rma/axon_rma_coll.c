/* The engine's own collectives over a window's coll context: the barrier of fences and of MPI_Win_free,
 * and the exchange at creation. Point-to-point messages waited for through the engine's wait, which
 * serves the window meanwhile: a rank in a fence must still answer the requests of origins that have
 * not reached it (their flush waits for us). */
#include "rma/axon_rma_internal.h"

#include <stdlib.h>
#include <string.h>

struct axon_rma_reqs {
    struct axon_request **reqs;
    int n;
};

static bool axon_rma_reqs_done(void *arg)
{
    struct axon_rma_reqs *r = arg;
    for (int i = 0; i < r->n; i++)
        if (r->reqs[i] && !axon_pt2pt_request_done(r->reqs[i]))
            return false;
    return true;
}

/* Waits for the requests and frees them; the first error. */
static int axon_rma_reqs_finish(struct axon_rma_win *w, struct axon_request **reqs, int n)
{
    struct axon_rma_reqs r = {reqs, n};
    axon_rma_wait_until(w, axon_rma_reqs_done, &r);
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        if (reqs[i]) {
            if (rc == MPI_SUCCESS && reqs[i]->status.MPI_ERROR != MPI_SUCCESS)
                rc = reqs[i]->status.MPI_ERROR;
            axon_request_free(reqs[i]);
        }
    return rc;
}

/* Dissemination: in round k each rank tells rank + 2^k and hears from rank - 2^k; a tag per round keeps
 * a fast rank's next barrier apart from this one. */
int axon_rma_barrier(struct axon_rma_win *w)
{
    static const struct axon_dtype_layout none = {.contig = true, .basic = MPI_BYTE};
    int n = w->size, me = w->rank;
    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        struct axon_request *reqs[2] = {NULL, NULL};
        int tag = AXON_RMA_TAG_BARRIER + k;
        int rc = axon_pt2pt_irecv(NULL, 0, &none, (me - dist + n) % n, tag, w->coll, &reqs[0]);
        if (rc == MPI_SUCCESS)
            rc = axon_pt2pt_isend(NULL, 0, &none, (me + dist) % n, tag, w->coll, AXON_SEND_STANDARD, &reqs[1]);
        int rc2 = axon_rma_reqs_finish(w, reqs, 2);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS)
            return rc != MPI_SUCCESS ? rc : rc2;
    }
    return MPI_SUCCESS;
}

int axon_rma_allgather(struct axon_rma_win *w, const void *mine, void *all, size_t bytes)
{
    const struct axon_dtype_layout byte = axon_dtype_layout_basic(MPI_BYTE, 1);
    int n = w->size, me = w->rank;
    memcpy((char *)all + (size_t)me * bytes, mine, bytes);
    if (n == 1)
        return MPI_SUCCESS;
    struct axon_request **reqs = calloc((size_t)(2 * n), sizeof(*reqs));
    if (!reqs)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int p = 0; p < n && rc == MPI_SUCCESS; p++)
        if (p != me)
            rc = axon_pt2pt_irecv((char *)all + (size_t)p * bytes, (int64_t)bytes, &byte, p, AXON_RMA_TAG_GATHER,
                                  w->coll, &reqs[p]);
    for (int p = 0; p < n && rc == MPI_SUCCESS; p++)
        if (p != me)
            rc = axon_pt2pt_isend(mine, (int64_t)bytes, &byte, p, AXON_RMA_TAG_GATHER, w->coll, AXON_SEND_STANDARD,
                                  &reqs[n + p]);
    int rc2 = axon_rma_reqs_finish(w, reqs, 2 * n);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : rc2;
}
