/* The ranks that live, where the job survives lost ranks (runtime/axon_runtime_lost.c): the news of a
 * loss, and how they meet at MPI_Finalize.
 *
 * News: a rank this rank's own watch found lost is told to every other rank by an active message, sent
 * from a progress hook (outside UCX's callbacks): a rank of another node is watched only by those that
 * have an endpoint to it, and the others must learn of it too, or one of them could wait for a
 * collective that the ranks which know have left. The handler stays until the worker goes, so that the
 * news reaches a rank already in MPI_Finalize.
 *
 * Meeting: MPI_Finalize's barrier is the launcher's fence while every rank lives. Once one is lost, that
 * fence cannot end (Slurm's waits for the lost rank, and one over the ranks that live fails across
 * nodes), and the ranks that live meet through UCX instead: each tells the lowest of them (the leader)
 * that it has arrived, and the leader, once all have, tells them to go. Rounds are numbered, so that one
 * round's messages are not taken for another's. */
#include "ucx_glue/axon_ucx_internal.h"
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define AXON_AM_LOST 9        /* any rank -> every other: struct axon_survivors_msg (a: the lost rank) */
#define AXON_AM_ARRIVED 10    /* a rank -> the leader: (a: the round) */
#define AXON_AM_GO 11         /* the leader -> every other: (a: the round) */
#define AXON_SURVIVORS_ROUNDS 4

struct axon_survivors_msg {
    int32_t a, from;
};

static struct {
    atomic_uchar *arrived;                 /* [ROUNDS][nranks]: at the leader, who arrived in each round */
    atomic_bool go[AXON_SURVIVORS_ROUNDS]; /* the leader said go */
    atomic_bool hooked;
} axon_survivors;

static void axon_survivors_sent(void *request, ucs_status_t status, void *user_data)
{
    (void)status;
    free(user_data);
    ucp_request_free(request);
}

/* One small message to rank `to`; a rank that cannot be reached (lost meanwhile) is not told. */
static void axon_survivors_send(int to, unsigned am_id, int32_t a)
{
    ucp_ep_h ep;
    struct axon_survivors_msg *msg = malloc(sizeof(*msg));
    if (!msg || axon_runtime_lost(to) || axon_ucx_ep_get(to, &ep) != MPI_SUCCESS) {
        free(msg);
        return;
    }
    msg->a = a;
    msg->from = axon_runtime_job.rank;
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = axon_survivors_sent,
        .user_data = msg,
        .flags = UCP_AM_SEND_FLAG_EAGER,
    };
    ucs_status_ptr_t st = ucp_am_send_nbx(ep, am_id, msg, sizeof(*msg), NULL, 0, &param);
    if (!UCS_PTR_IS_PTR(st))
        free(msg);
}

static bool axon_survivors_read(const void *header, size_t length, struct axon_survivors_msg *msg)
{
    if (length != sizeof(*msg))
        return false;
    memcpy(msg, header, sizeof(*msg));
    return msg->from >= 0 && msg->from < axon_ucx.nranks;
}

/* ---- news ------------------------------------------------------------------------------------------ */

static int axon_survivors_tell(void)
{
    int told = 0, lost;
    while ((lost = axon_runtime_lost_take_news()) >= 0) {
        for (int r = 0; r < axon_ucx.nranks; r++)
            if (r != axon_runtime_job.rank)
                axon_survivors_send(r, AXON_AM_LOST, lost);
        told++;
    }
    return told;
}

static ucs_status_t axon_survivors_am_lost(void *arg, const void *header, size_t header_length, void *data,
                                           size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_survivors_msg msg;
    if (axon_survivors_read(header, header_length, &msg) && msg.a >= 0 && msg.a < axon_ucx.nranks)
        axon_runtime_lost_heard(msg.a, msg.from);
    return UCS_OK;
}

/* ---- meeting --------------------------------------------------------------------------------------- */

static ucs_status_t axon_survivors_am_arrived(void *arg, const void *header, size_t header_length, void *data,
                                              size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_survivors_msg msg;
    if (axon_survivors_read(header, header_length, &msg) && msg.a >= 0 && msg.a < AXON_SURVIVORS_ROUNDS)
        atomic_store(&axon_survivors.arrived[(size_t)msg.a * (size_t)axon_ucx.nranks + (size_t)msg.from], 1);
    return UCS_OK;
}

static ucs_status_t axon_survivors_am_go(void *arg, const void *header, size_t header_length, void *data,
                                         size_t length, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)data, (void)length, (void)param;
    struct axon_survivors_msg msg;
    if (axon_survivors_read(header, header_length, &msg) && msg.a >= 0 && msg.a < AXON_SURVIVORS_ROUNDS)
        atomic_store(&axon_survivors.go[msg.a], true);
    return UCS_OK;
}

static int axon_survivors_leader(void)
{
    for (int r = 0; r < axon_ucx.nranks; r++)
        if (!axon_runtime_lost(r))
            return r;
    return axon_runtime_job.rank;
}

static void axon_survivors_poll(void)
{
    axon_ucx_progress();
    axon_ucx_ep_fence_check();
}

int axon_ucx_survivors_meet(int round)
{
    if (round < 0 || round >= AXON_SURVIVORS_ROUNDS || !axon_survivors.arrived)
        return MPI_ERR_INTERN;
    int me = axon_runtime_job.rank, n = axon_ucx.nranks;
    atomic_uchar *arrived = axon_survivors.arrived + (size_t)round * (size_t)n;
    int leader = -1;
    for (;;) {
        int now = axon_survivors_leader();
        if (now == me) {
            bool all = true;
            for (int r = 0; r < n && all; r++)
                all = r == me || axon_runtime_lost(r) || atomic_load(&arrived[r]);
            if (all)
                break;
        } else {
            if (now != leader) /* the first time, or the leader was lost meanwhile */
                axon_survivors_send(now, AXON_AM_ARRIVED, round);
            if (atomic_load(&axon_survivors.go[round]))
                return MPI_SUCCESS;
        }
        leader = now;
        axon_survivors_poll();
    }
    for (int r = 0; r < n; r++)
        if (r != me)
            axon_survivors_send(r, AXON_AM_GO, round);
    return MPI_SUCCESS;
}

int axon_ucx_survivors_init(void)
{
    free(axon_survivors.arrived);
    axon_survivors.arrived = calloc((size_t)AXON_SURVIVORS_ROUNDS * (size_t)axon_ucx.nranks, 1);
    if (!axon_survivors.arrived)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < AXON_SURVIVORS_ROUNDS; i++)
        atomic_store(&axon_survivors.go[i], false);
    int rc = axon_ucx_am_set_handler(AXON_AM_LOST, axon_survivors_am_lost, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_ARRIVED, axon_survivors_am_arrived, NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_ucx_am_set_handler(AXON_AM_GO, axon_survivors_am_go, NULL);
    /* Hooks stay for the process's life: one is enough, whatever the number of initializations. */
    if (rc == MPI_SUCCESS && !atomic_exchange(&axon_survivors.hooked, true))
        rc = axon_ucx_progress_hook_add(axon_survivors_tell, axon_runtime_lost_news());
    return rc;
}

void axon_ucx_survivors_finalize(void)
{
    free(axon_survivors.arrived);
    axon_survivors.arrived = NULL;
}
