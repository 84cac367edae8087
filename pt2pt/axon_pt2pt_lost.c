/* What a lost rank does to point-to-point operations where the job survives it
 * (runtime/axon_runtime_lost.c): each operation that can no longer complete completes with
 * MPI_ERR_PROC_ABORTED. A receive still posted whose source is lost, or that takes MPI_ANY_SOURCE on a
 * communicator with a lost member, leaves its queue (as a cancelled receive does); a send that waits for
 * its receiver's answer (a synchronous send's acknowledgement, a read of its data, a pipeline's chunks)
 * stops waiting for it; new ones fail as they start. A message the lost rank sent before it ended is
 * still received, and an eager send to it has completed already. A communicator's collective traffic
 * fails whole once a member is lost, between live members too: the members that know have left the
 * collective, and one that waits for them would wait forever. The check runs where an operation's
 * completion is polled (waits, tests, a collective's schedule), and only once some rank is lost: a
 * blocking call's request lives on its caller's stack, out of reach of a sweep of the pool. (The other
 * ranks learn of a loss from ucx_glue/axon_ucx_survivors.c.) */
#include "pt2pt/axon_pt2pt_internal.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

bool axon_pt2pt_lost_peer(const struct axon_pt2pt_comm *comm, int peer)
{
    if (peer == MPI_ANY_SOURCE)
        return axon_runtime_lost_any(comm->world_ranks, comm->size);
    if (peer < 0)
        return false; /* MPI_PROC_NULL */
    return axon_runtime_lost(comm->world_ranks ? comm->world_ranks[peer] : peer);
}

/* Whether an operation of comm with rank `peer` can no longer complete. */
static bool axon_pt2pt_lost_doomed(const struct axon_pt2pt_comm *comm, int peer)
{
    return axon_pt2pt_lost_peer(comm, peer) || (comm->collective && axon_runtime_lost_any(comm->world_ranks, comm->size));
}

/* Completes req with the error if it waits on a lost rank; the transport lock is held. */
static void axon_pt2pt_lost_fail(struct axon_request *req)
{
    if (atomic_load_explicit(&req->complete, memory_order_acquire) || !req->comm)
        return;
    if (req->kind == AXON_REQUEST_RECV) {
        if (axon_pt2pt_lost_doomed(req->comm, req->peer) &&
            axon_pt2pt_match_unpost(&req->comm->queues, &req->recv.match)) {
            req->status.MPI_ERROR = MPI_ERR_PROC_ABORTED;
            axon_pt2pt_request_event(req);
        }
    } else if (req->kind == AXON_REQUEST_SEND && req->send.awaits_receiver) {
        if (axon_pt2pt_lost_peer(req->comm, req->peer)) {
            req->send.awaits_receiver = false;
            req->status.MPI_ERROR = MPI_ERR_PROC_ABORTED;
            axon_pt2pt_request_event(req); /* the answer that will not come */
        } else if (axon_pt2pt_lost_doomed(req->comm, req->peer)) {
            /* Collective traffic to a member that lives: it may still match the message and answer, and
             * an answer naming a request given back would land on another. Cancelled instead, the send
             * completes once the receiver has answered that (axon_pt2pt_cancel.c). */
            axon_pt2pt_cancel(req);
        }
    }
}

/* The losses the requests of the pool were last looked at for. */
static unsigned axon_pt2pt_lost_swept;

bool axon_pt2pt_request_done_lost(struct axon_request *req)
{
    unsigned gen = axon_runtime_lost_generation();
    axon_ucx_lock();
    /* After a new loss, every request in flight, once: some are polled by nobody (a composite's
     * children, a buffered send's), and they would hold up what waits on them. */
    if (gen != axon_pt2pt_lost_swept) {
        axon_pt2pt_lost_swept = gen;
        axon_pt2pt_request_foreach(axon_pt2pt_lost_fail);
    }
    axon_pt2pt_lost_fail(req);
    axon_ucx_unlock();
    return atomic_load_explicit(&req->complete, memory_order_acquire) != 0;
}

bool axon_pt2pt_lost_refuse(struct axon_request *req)
{
    if (!axon_pt2pt_lost_refuses(req->comm, req->peer))
        return false;
    req->status.MPI_ERROR = MPI_ERR_PROC_ABORTED;
    axon_pt2pt_request_event(req);
    return true;
}

bool axon_pt2pt_lost_refuses(const struct axon_pt2pt_comm *comm, int peer)
{
    return __builtin_expect(axon_runtime_lost_generation() != 0, 0) && axon_pt2pt_lost_doomed(comm, peer);
}
