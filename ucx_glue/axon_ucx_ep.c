/* Endpoints to the other ranks, made on first use: a job of many ranks where each talks to a few peers
 * never pays for the rest. The peer's worker address comes from the bootstrap's exchange.
 *
 * A peer on another machine is watched by UCX (UCP_ERR_HANDLING_MODE_PEER: a closed connection, or its
 * keepalive going unanswered): a rank there that ends without MPI_Finalize ends the job with a message
 * naming it, under any launcher (srun lets the other tasks run on by default). Peers on this node are
 * watched through their processes (pt2pt/axon_pt2pt_shm.c), and endpoints to this machine keep UCX's
 * default mode: under the peer mode UCX leaves out its shared-memory transports (an AXON_TOPO node on
 * the same machine would go through TCP's loopback, many times slower). AXON_PEER_WATCH=nodes watches
 * those too, for tests. A receive from a named source makes the endpoint to a watched peer if it is not
 * made yet (a gather's root never sends to its children); a receive from MPI_ANY_SOURCE watches the
 * peers this rank has endpoints to. MPI_Finalize's first barrier ends at each rank in its own time, and a
 * peer past it closes its endpoints: an error heard while this rank still waits there is held for
 * AXON_PEER_LEAVE_GRACE seconds, and counts only if the barrier has not ended here by then (a peer that
 * died in it). Past the barrier, peers leave as they please: their endpoints' errors are ignored. */
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The first peer error heard in MPI_Finalize's first barrier (AXON_UCX_FENCING), held back; rank -1:
 * none. Only the finalizing thread runs the worker then. */
static struct {
    int rank;
    const char *why;
    struct timespec at;
} axon_ucx_ep_held = {.rank = -1};

/* The message for a watched peer that is gone (why: UCX's word; when: what it had not done). */
static void axon_ucx_peer_lost_message(char *message, size_t len, int rank, const char *why, const char *when)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    snprintf(message, len, "lost rank %d (node %d) %s: %s (it ended, or its node or the network failed)", rank,
             job->node_of_rank ? job->node_of_rank[rank] : -1, when, why);
}

/* Ends the job: a peer lost in MPI_Finalize's barrier, which it can no longer pass. */
static void axon_ucx_peer_lost_now(int rank, const char *why, const char *when)
{
    char message[256];
    axon_ucx_peer_lost_message(message, sizeof(message), rank, why, when);
    axon_runtime_log_error("%s; ending the job", message);
    axon_runtime_bootstrap_abort_lost(rank, message);
}

static void axon_ucx_peer_lost(int rank, const char *why)
{
    char message[256];
    if (axon_runtime_lost(rank))
        return; /* known lost, the job surviving it */
    switch (atomic_load_explicit(&axon_ucx.leaving, memory_order_relaxed)) {
    case AXON_UCX_RUNNING:
        /* The job ends, or, where it survives lost ranks, the rank is marked so (runtime/axon_runtime_lost.c). */
        axon_ucx_peer_lost_message(message, sizeof(message), rank, why, "before it finished MPI");
        axon_runtime_peer_lost(rank, message);
        return;
    case AXON_UCX_FENCING:
        if (axon_ucx_ep_held.rank < 0) {
            axon_ucx_ep_held.rank = rank;
            axon_ucx_ep_held.why = why;
            clock_gettime(CLOCK_MONOTONIC, &axon_ucx_ep_held.at);
        }
        return;
    default: return; /* past the barrier: peers leave */
    }
}

void axon_ucx_ep_fence_check(void)
{
    if (axon_ucx_ep_held.rank < 0 ||
        atomic_load_explicit(&axon_ucx.leaving, memory_order_relaxed) != AXON_UCX_FENCING)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - axon_ucx_ep_held.at.tv_sec >= axon_config.peer_leave_grace)
        axon_ucx_peer_lost_now(axon_ucx_ep_held.rank, axon_ucx_ep_held.why,
                               "while MPI_Finalize waited for every rank to arrive");
}

/* The error handler of a watched endpoint (arg: the peer's rank), called from the worker's progress. */
static void axon_ucx_ep_failed(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    (void)ep;
    axon_ucx_peer_lost((int)(intptr_t)arg, ucs_status_string(status));
}

/* Whether the endpoint to rank is made in the peer error mode (AXON_PEER_WATCH). */
static bool axon_ucx_ep_watched(int rank)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    if (axon_config.peer_watch == AXON_PEER_WATCH_HOSTS)
        return job->host_of_rank && job->host_of_rank[rank] != job->host_of_rank[job->rank];
    if (axon_config.peer_watch == AXON_PEER_WATCH_NODES)
        return job->node_of_rank && job->node_of_rank[rank] != job->node;
    return false;
}

void axon_ucx_ep_watch_init(void)
{
    axon_ucx.watch_any = false;
    for (int r = 0; r < axon_runtime_job.size && !axon_ucx.watch_any; r++)
        axon_ucx.watch_any = axon_ucx_ep_watched(r);
}

void axon_ucx_ep_watch_make(int rank)
{
    ucp_ep_h ep;
    /* A peer that cannot be reached at all is as lost as one whose endpoint fails later (UCX refuses
     * the endpoint when the peer's process is already gone and the connection is refused). */
    if (rank >= 0 && rank < axon_ucx.nranks && axon_ucx_ep_watched(rank) && axon_ucx_ep_get(rank, &ep) != MPI_SUCCESS)
        axon_ucx_peer_lost(rank, "cannot connect to it");
}

static int axon_ucx_ep_create(int rank, ucp_ep_h *ep)
{
    void *address = NULL;
    size_t len = 0;
    int rc = axon_runtime_bootstrap_get(rank, "axon.ucx.worker", &address, &len);
    if (rc != MPI_SUCCESS)
        return rc;
    ucp_ep_params_t params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
        .address = address,
    };
    if (axon_ucx_ep_watched(rank)) {
        params.field_mask |= UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER;
        params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
        params.err_handler.cb = axon_ucx_ep_failed;
        params.err_handler.arg = (void *)(intptr_t)rank;
    }
    ucs_status_t st = ucp_ep_create(axon_ucx.worker, &params, ep);
    free(address);
    if (st != UCS_OK) {
        axon_runtime_log_error("cannot connect to rank %d: %s", rank, ucs_status_string(st));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_ucx_ep_get(int rank, ucp_ep_h *ep)
{
    if (rank < 0 || rank >= axon_ucx.nranks)
        return MPI_ERR_RANK;
    ucp_ep_h cached = __atomic_load_n(&axon_ucx.eps[rank], __ATOMIC_ACQUIRE);
    if (cached) {
        *ep = cached;
        return MPI_SUCCESS;
    }
    /* Threads may race to the first use of the same peer: one creates, the others see it. The creation
     * runs under the transport lock, the one that progress holds while UCX runs our callbacks with its
     * worker lock held: a lock of our own here would be taken in the other order by a callback that
     * needs an endpoint (an acknowledgement's), while ucp_ep_create waited for the worker lock under
     * it: a deadlock. The transport lock nests, so a callback that makes an endpoint takes it again. */
    int rc = MPI_SUCCESS;
    axon_ucx_lock();
    if (!axon_ucx.eps[rank]) {
        ucp_ep_h created;
        rc = axon_ucx_ep_create(rank, &created);
        if (rc == MPI_SUCCESS)
            __atomic_store_n(&axon_ucx.eps[rank], created, __ATOMIC_RELEASE);
    }
    if (rc == MPI_SUCCESS)
        *ep = axon_ucx.eps[rank];
    axon_ucx_unlock();
    return rc;
}
