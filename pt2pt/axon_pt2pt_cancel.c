/* MPI_Cancel of point-to-point operations. A receive that has not matched leaves its posted queue. A
 * send whose completion waits for its receiver (a rendezvous message, a synchronous send, a descriptor
 * to read, a pipeline's request to send) asks the receiver to drop the message while nobody has
 * received it: the receiver takes it out of its unexpected messages and answers whether it did. The
 * standard guarantees that a wait on a request marked for cancellation returns whatever the other
 * processes do; such a send would otherwise wait for a receive that may never come. An eager send
 * completed when it left, and stays sent (cancelling sends is deprecated since MPI-4.1; the standard
 * lets it fail).
 *
 * The request to drop goes by UCX and carries how many ring messages the sender had sent before it, so
 * that a message still in the ring is taken before the receiver looks (as any active message does). The
 * answer is one more event of the send: a send whose message was dropped completes once UCX is done with
 * it (a rendezvous sender learns of the drop from the receiver's UCX), with its acknowledgement no
 * longer expected; a send that matched first completes as it would have. */
#include "pt2pt/axon_pt2pt_internal.h"
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <string.h>

#define AXON_AM_SEND_CANCEL 6        /* sender -> receiver: struct axon_cancel_ask */
#define AXON_AM_SEND_CANCEL_ANSWER 7 /* receiver -> sender: struct axon_cancel_answer */

struct axon_cancel_ask {
    struct axon_pt2pt_send_name name;
    uint32_t shm_before; /* ring messages the sender had sent us first */
};

struct axon_cancel_answer {
    uint32_t sender_index;
    uint32_t dropped;
};

/* Asks the receiver of a send in flight to drop its message. Under the transport lock. */
static void axon_pt2pt_cancel_send(struct axon_request *req)
{
    if (req->send.cancel_asked || req->peer == MPI_PROC_NULL)
        return;
    struct axon_pt2pt_comm *comm = req->comm;
    int world = comm->world_ranks ? comm->world_ranks[req->peer] : req->peer;
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(world);
    struct axon_cancel_ask ask = {
        .name = {.context_id = comm->context_id, .source = comm->rank, .sender_world = axon_runtime_job.rank,
                 .sender_index = req->index},
        .shm_before = peer ? peer->shm_sent : 0,
    };
    req->send.cancel_asked = true;
    req->pending++; /* the answer */
    axon_pt2pt_send_control(world, AXON_AM_SEND_CANCEL, &ask, sizeof(ask), "a send's cancellation");
}

int axon_pt2pt_cancel(struct axon_request *req)
{
    axon_ucx_lock();
    if (!atomic_load(&req->complete)) {
        if (req->kind == AXON_REQUEST_RECV) {
            if (axon_pt2pt_match_unpost(&req->comm->queues, &req->recv.match)) {
                req->cancelled = true;
                axon_pt2pt_request_event(req);
            }
        } else if (req->kind == AXON_REQUEST_SEND) {
            axon_pt2pt_cancel_send(req);
        }
    }
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

/* The receiver's side: drops the named message if it is still unexpected, and answers. From the worker's
 * progress, under the transport lock. */
static ucs_status_t axon_pt2pt_am_cancel(void *arg, const void *header, size_t header_length, void *data,
                                         size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_cancel_ask ask;
    if (header_length != sizeof(ask))
        return UCS_OK;
    memcpy(&ask, header, sizeof(ask));
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(ask.name.sender_world);
    if (peer)
        axon_pt2pt_shm_drain(peer, ask.shm_before);
    struct axon_pt2pt_unexpected *ux = axon_pt2pt_unexpected_withdraw(&ask.name);
    if (ux)
        axon_pt2pt_unexpected_drop(ux);
    struct axon_cancel_answer answer = {ask.name.sender_index, ux != NULL};
    axon_pt2pt_send_control(ask.name.sender_world, AXON_AM_SEND_CANCEL_ANSWER, &answer, sizeof(answer),
                            "the answer to a send's cancellation");
    return UCS_OK;
}

/* The sender's side: the answer is the send's last event but for what UCX still owes it. */
static ucs_status_t axon_pt2pt_am_cancel_answer(void *arg, const void *header, size_t header_length, void *data,
                                                size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_cancel_answer answer;
    if (header_length != sizeof(answer))
        return UCS_OK;
    memcpy(&answer, header, sizeof(answer));
    struct axon_request *req = axon_request_get(answer.sender_index);
    if (!req || req->kind != AXON_REQUEST_SEND || !req->send.cancel_asked) {
        axon_runtime_log_error("the answer to a cancellation names no send being cancelled (request %u)",
                               answer.sender_index);
        return UCS_OK;
    }
    if (answer.dropped) {
        req->cancelled = true;
        if (req->send.cma_peer) {
            ((struct axon_pt2pt_shm_peer *)req->send.cma_peer)->cma_pending--;
            req->send.cma_peer = NULL;
        }
        if (req->send.awaits_receiver)
            req->pending--; /* no acknowledgement, no chunk will come */
    }
    axon_pt2pt_request_event(req);
    return UCS_OK;
}

int axon_pt2pt_cancel_init(void)
{
    int rc = axon_ucx_am_set_handler(AXON_AM_SEND_CANCEL, axon_pt2pt_am_cancel, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_SEND_CANCEL_ANSWER, axon_pt2pt_am_cancel_answer, NULL);
    return rc;
}

void axon_pt2pt_cancel_finalize(void)
{
    axon_ucx_am_set_handler(AXON_AM_SEND_CANCEL, NULL, NULL);
    axon_ucx_am_set_handler(AXON_AM_SEND_CANCEL_ANSWER, NULL, NULL);
}
