/* The engine's set-up and its incoming side: the table from context ids to communicators, the active
 * message handlers (a message; a synchronous send's acknowledgement), and the unexpected messages,
 * including those that arrive for a communicator this rank has not made yet. */
#include "pt2pt/axon_pt2pt_internal.h"
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/axon_runtime_pool.h"
#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <stdlib.h>
#include <string.h>

#define AXON_PT2PT_MAX_CONTEXTS 131072 /* 8 for each of the MPI layer's 16384 context ids */

static struct axon_pt2pt_comm *axon_pt2pt_contexts[AXON_PT2PT_MAX_CONTEXTS];
static struct axon_pt2pt_unexpected *axon_pt2pt_early_head, *axon_pt2pt_early_tail;
static struct axon_pool axon_unexpected_pool;

static struct axon_pt2pt_comm *axon_pt2pt_context_find(uint32_t context_id)
{
    return context_id < AXON_PT2PT_MAX_CONTEXTS ? axon_pt2pt_contexts[context_id] : NULL;
}

void axon_pt2pt_unexpected_release(struct axon_pt2pt_unexpected *ux)
{
    if (ux->owned)
        free(ux->data);
    else if (!ux->rndv && ux->data && ux->data != (void *)ux->small)
        ucp_am_data_release(axon_ucx.worker, ux->data);
    axon_runtime_pool_free(&axon_unexpected_pool, ux->index);
}

struct axon_pt2pt_unexpected *axon_pt2pt_unexpected_get(uint32_t index)
{
    return axon_runtime_pool_get(&axon_unexpected_pool, index);
}

void axon_pt2pt_unexpected_drop(struct axon_pt2pt_unexpected *ux)
{
    /* A rendezvous message's descriptor given back unread tells its sender's UCX that the send is over. */
    if (ux->rndv && ux->data) {
        ucp_am_data_release(axon_ucx.worker, ux->data);
        ux->data = NULL;
    }
    axon_pt2pt_unexpected_release(ux);
}

/* Whether an unexpected message is the send that a cancellation names. Only messages whose sender waits
 * for us (rendezvous, synchronous, a descriptor to read, a pipeline's request to send) are named: such a
 * sender's request is alive until we answer, so its pool index names one message; an eager message's
 * request may have completed and its index gone to a later send. */
static bool axon_pt2pt_unexpected_is(const struct axon_match_entry *e, const void *arg)
{
    const struct axon_pt2pt_unexpected *ux = axon_container_of(e, struct axon_pt2pt_unexpected, match);
    const struct axon_pt2pt_send_name *name = arg;
    if (ux->hdr.context_id != name->context_id || ux->hdr.source != name->source ||
        ux->hdr.sync_world_rank != name->sender_world)
        return false;
    if (ux->hdr.flags & AXON_PT2PT_FLAG_PIPE) {
        /* The ring does not carry the index in the header: the request to send names its send. */
        struct axon_pt2pt_pipe_rts rts;
        if (ux->length != sizeof(rts))
            return false;
        memcpy(&rts, ux->data, sizeof(rts));
        return rts.sender_index == name->sender_index;
    }
    return (ux->rndv || (ux->hdr.flags & AXON_PT2PT_FLAG_SYNC)) && ux->hdr.sync_index == name->sender_index;
}

struct axon_pt2pt_unexpected *axon_pt2pt_unexpected_withdraw(const struct axon_pt2pt_send_name *name)
{
    struct axon_pt2pt_comm *comm = axon_pt2pt_context_find(name->context_id);
    if (comm) {
        struct axon_match_entry *e =
            axon_pt2pt_match_find_unexpected(&comm->queues, name->source, axon_pt2pt_unexpected_is, name);
        if (!e)
            return NULL;
        axon_pt2pt_match_withdraw_unexpected(&comm->queues, e);
        return axon_container_of(e, struct axon_pt2pt_unexpected, match);
    }
    /* Its communicator is not made here yet: the message waits in the early list. */
    struct axon_pt2pt_unexpected **link = &axon_pt2pt_early_head, *last = NULL;
    for (; *link; last = *link, link = &(*link)->early_next) {
        struct axon_pt2pt_unexpected *ux = *link;
        if (axon_pt2pt_unexpected_is(&ux->match, name)) {
            *link = ux->early_next;
            if (axon_pt2pt_early_tail == ux)
                axon_pt2pt_early_tail = last;
            return ux;
        }
    }
    return NULL;
}

bool axon_pt2pt_arrive(const struct axon_pt2pt_hdr *hdr, void *data, size_t length, unsigned how)
{
    bool rndv = (how & AXON_ARRIVE_RNDV) != 0;
    struct axon_pt2pt_comm *comm = axon_pt2pt_context_find(hdr->context_id);
    if (comm) {
        struct axon_match_entry *e = axon_pt2pt_match_take_posted(&comm->queues, hdr->source, hdr->tag);
        if (e) {
            axon_pt2pt_deliver(axon_container_of(e, struct axon_request, recv.match), hdr, data, length, rndv);
            return false;
        }
    }

    /* Nobody waits for it yet: keep it (UCX's buffer when it lets us, else a copy). */
    void *obj;
    uint32_t index;
    if (axon_runtime_pool_alloc(&axon_unexpected_pool, &obj, &index) != MPI_SUCCESS) {
        axon_runtime_log_error("out of memory for an unexpected message; ending the job");
        axon_runtime_bootstrap_abort(MPI_ERR_NO_MEM, "out of memory for an unexpected message");
    }
    struct axon_pt2pt_unexpected *ux = obj;
    ux->index = index;
    ux->hdr = *hdr;
    ux->match.source = hdr->source;
    ux->match.tag = hdr->tag;
    ux->length = length;
    ux->rndv = rndv;
    bool kept = false;
    if (!rndv && length <= sizeof(ux->small)) {
        /* The common small message: copied into the entry, no malloc and no UCX descriptor held (the
         * message rate of a window of sends that arrive before their receives depends on it). */
        ux->data = ux->small;
        memcpy(ux->data, data, length);
    } else if (rndv || (how & AXON_ARRIVE_KEEPABLE)) {
        ux->data = data;
        kept = true;
    } else {
        ux->data = malloc(length);
        if (!ux->data)
            axon_runtime_bootstrap_abort(MPI_ERR_NO_MEM, "out of memory for an unexpected message");
        memcpy(ux->data, data, length);
        ux->owned = true;
    }
    if (comm) {
        axon_pt2pt_match_add_unexpected(&comm->queues, &ux->match);
    } else {
        /* Its communicator is still being made here: it gets the message when it attaches. */
        ux->early_next = NULL;
        if (axon_pt2pt_early_tail)
            axon_pt2pt_early_tail->early_next = ux;
        else
            axon_pt2pt_early_head = ux;
        axon_pt2pt_early_tail = ux;
    }
    return kept;
}

/* A message arrived through UCX. Called from the worker's progress, under the transport lock. */
static ucs_status_t axon_pt2pt_am_message(void *arg, const void *header, size_t header_length, void *data,
                                          size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg;
    if (header_length != sizeof(struct axon_pt2pt_hdr)) {
        axon_runtime_log_error("dropped a message with a %zu-byte header (expected %zu)", header_length,
                               sizeof(struct axon_pt2pt_hdr));
        return UCS_OK;
    }
    /* UCX hands the header at any alignment (its self transport at odd addresses): read it by a copy,
     * which costs the same unaligned loads and is defined behaviour. */
    struct axon_pt2pt_hdr copy;
    memcpy(&copy, header, sizeof(copy));
    const struct axon_pt2pt_hdr *hdr = &copy;
    /* From a rank of this node: the ring messages it sent first go first. */
    struct axon_pt2pt_shm_peer *peer = axon_pt2pt_shm_peer_of(hdr->sync_world_rank);
    if (peer)
        axon_pt2pt_shm_drain(peer, hdr->shm_before);
    unsigned how = 0;
    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)
        how |= AXON_ARRIVE_RNDV;
    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA)
        how |= AXON_ARRIVE_KEEPABLE;
    bool kept = axon_pt2pt_arrive(hdr, data, length, how);
    if (peer)
        peer->ucx_recvd++;
    return kept ? UCS_INPROGRESS : UCS_OK;
}

void axon_pt2pt_sync_acked(uint32_t index)
{
    struct axon_request *req = axon_request_get(index);
    if (!req)
        return;
    if (req->kind == AXON_REQUEST_SEND && req->send.cma_peer) {
        ((struct axon_pt2pt_shm_peer *)req->send.cma_peer)->cma_pending--;
        req->send.cma_peer = NULL;
    }
    axon_pt2pt_request_event(req);
}

static ucs_status_t axon_pt2pt_am_sync_ack(void *arg, const void *header, size_t header_length, void *data,
                                           size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    uint32_t index;
    if (header_length != sizeof(index))
        return UCS_OK;
    memcpy(&index, header, sizeof(index));
    axon_pt2pt_sync_acked(index);
    return UCS_OK;
}

int axon_pt2pt_init(void)
{
    int rc = axon_pt2pt_request_pool_init();
    if (rc == MPI_SUCCESS)
        rc = axon_runtime_pool_init(&axon_unexpected_pool, "unexpected messages",
                                    sizeof(struct axon_pt2pt_unexpected));
    if (rc == MPI_SUCCESS)
        axon_runtime_pool_set_clear_size(&axon_unexpected_pool, offsetof(struct axon_pt2pt_unexpected, small));
    /* Below MPI_THREAD_MULTIPLE one thread at a time runs the engine (a progress thread, when there is
     * one, must make these pools thread-safe again): their locks would only cost time per message. */
    if (rc == MPI_SUCCESS && !axon_ucx.thread_multiple) {
        axon_runtime_pool_set_thread_safe(&axon_unexpected_pool, false);
        axon_pt2pt_request_pool_single_thread();
    }
    if (rc == MPI_SUCCESS)
        rc = axon_pt2pt_generic_dt_create();
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_PT2PT, axon_pt2pt_am_message, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_SYNC_ACK, axon_pt2pt_am_sync_ack, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_pt2pt_cancel_init();
    if (rc == MPI_SUCCESS)
        rc = axon_pt2pt_pipe_init();
    /* The node's rings: the segment now, its name published with the UCX address. */
    if (rc == MPI_SUCCESS)
        rc = axon_pt2pt_shm_init();
    return rc;
}

int axon_pt2pt_connect(void)
{
    int rc = axon_pt2pt_shm_connect();
    if (rc == MPI_SUCCESS && axon_pt2pt_shm.npeers > 0)
        axon_ucx_progress_set_first(axon_pt2pt_shm_poll);
    return rc;
}

void axon_pt2pt_finalize(void)
{
    /* From here a message (only an erroneous program sends one) finds no handler: UCX drops it. */
    axon_ucx_am_set_handler(AXON_AM_PT2PT, NULL, NULL);
    axon_ucx_am_set_handler(AXON_AM_SYNC_ACK, NULL, NULL);
    axon_pt2pt_cancel_finalize();
    axon_pt2pt_pipe_finalize();
    while (axon_pt2pt_early_head) {
        struct axon_pt2pt_unexpected *ux = axon_pt2pt_early_head;
        axon_pt2pt_early_head = ux->early_next;
        axon_pt2pt_unexpected_release(ux);
    }
    axon_pt2pt_early_tail = NULL;
    axon_ucx_progress_set_first(NULL);
    axon_pt2pt_shm_finalize();
    ucp_dt_destroy(axon_pt2pt_generic_dt);
    axon_runtime_pool_fini(&axon_unexpected_pool);
    axon_pt2pt_request_pool_fini();
}

void axon_pt2pt_release(void)
{
    axon_pt2pt_shm_release();
}

int axon_pt2pt_comm_attach(struct axon_pt2pt_comm *comm)
{
    if (comm->context_id >= AXON_PT2PT_MAX_CONTEXTS)
        return MPI_ERR_INTERN;
    int rc = axon_pt2pt_match_init(&comm->queues, comm->size);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_ucx_lock();
    axon_pt2pt_contexts[comm->context_id] = comm;
    /* Messages that came first, in the order they came. */
    struct axon_pt2pt_unexpected **link = &axon_pt2pt_early_head, *last = NULL;
    while (*link) {
        struct axon_pt2pt_unexpected *ux = *link;
        if (ux->hdr.context_id == comm->context_id) {
            *link = ux->early_next;
            axon_pt2pt_match_add_unexpected(&comm->queues, &ux->match);
        } else {
            last = ux;
            link = &ux->early_next;
        }
    }
    axon_pt2pt_early_tail = last;
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

void axon_pt2pt_comm_detach(struct axon_pt2pt_comm *comm)
{
    axon_ucx_lock();
    if (comm->context_id < AXON_PT2PT_MAX_CONTEXTS && axon_pt2pt_contexts[comm->context_id] == comm)
        axon_pt2pt_contexts[comm->context_id] = NULL;
    /* Messages nobody received are dropped with the communicator (the program was erroneous: MPICH's
     * MPI_Comm_free returns an error then; here AXON_VERBOSE=1 says so, since turning it into an error
     * would end sloppy but working programs under MPI_ERRORS_ARE_FATAL). */
    struct axon_match_entry *e;
    unsigned long dropped = 0;
    int first_source = 0, first_tag = 0;
    while ((e = axon_pt2pt_match_take_unexpected(&comm->queues, MPI_ANY_SOURCE, MPI_ANY_TAG)) != NULL) {
        if (dropped++ == 0) {
            first_source = e->source;
            first_tag = e->tag;
        }
        axon_pt2pt_unexpected_drop(axon_container_of(e, struct axon_pt2pt_unexpected, match));
    }
    axon_ucx_unlock();
    if (dropped)
        axon_runtime_log_debug(1, "a communicator (engine context %u) went with %lu message(s) sent to it that no "
                               "receive matched, the first from its rank %d with tag %d",
                               comm->context_id, dropped, first_source, first_tag);
    axon_pt2pt_match_fini(&comm->queues);
}
