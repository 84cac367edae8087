/* Small blocking collectives for the communicator calls, written straight on the point-to-point engine:
 * an allreduce of int arrays (recursive doubling, with the usual fold of the ranks beyond the largest
 * power of two), a ring allgather, a binomial broadcast, a barrier, and the bridged forms that join the
 * two groups of an intercommunicator through their leaders. They run on a communicator's internal
 * context (or its tagged one), so user receives never see their messages, and they are only used where
 * the standard makes the call collective; the collective layer (coll/) has its own, faster algorithms.
 * Thread-safe: each call only touches its own requests, and different communicators use different
 * contexts. */
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

static const struct axon_dtype_layout axon_comm_bytes = {.size = 1, .extent = 1, .true_lb = 0, .contig = true};

static int axon_comm_pc_rank(const struct axon_comm_team *t, int r)
{
    return t->to_pc ? t->to_pc[r] : r;
}

/* Waits for a request, frees it and returns its error (truncation included: sizes always agree here, so
 * a mismatch means the members disagree about the call). */
static int axon_comm_finish(struct axon_request *req)
{
    if (!req)
        return MPI_SUCCESS;
    axon_request_wait(req);
    int rc = req->status.MPI_ERROR;
    axon_request_free(req);
    return rc;
}

/* Sends to and receives from peers (ranks of pc; MPI_PROC_NULL skips a side) and waits for both. */
static int axon_comm_sendrecv(struct axon_pt2pt_comm *pc, int tag, const void *send, size_t sbytes, int dest,
                              void *recv, size_t rbytes, int source)
{
    struct axon_request *rreq = NULL, *sreq = NULL;
    int rc = MPI_SUCCESS;
    if (source != MPI_PROC_NULL)
        rc = axon_pt2pt_irecv(recv, (int64_t)rbytes, &axon_comm_bytes, source, tag, pc, &rreq);
    if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL)
        rc = axon_pt2pt_isend(send, (int64_t)sbytes, &axon_comm_bytes, dest, tag, pc, AXON_SEND_STANDARD, &sreq);
    int rc_send = axon_comm_finish(sreq);
    int rc_recv = axon_comm_finish(rreq);
    if (rc == MPI_SUCCESS)
        rc = rc_send != MPI_SUCCESS ? rc_send : rc_recv;
    return rc;
}

static void axon_comm_combine(int *inout, const int *in, int count, enum axon_comm_op op)
{
    for (int i = 0; i < count; i++) {
        switch (op) {
        case AXON_COMM_OP_BAND:
            inout[i] &= in[i];
            break;
        case AXON_COMM_OP_BOR:
            inout[i] |= in[i];
            break;
        case AXON_COMM_OP_MAX:
            inout[i] = in[i] > inout[i] ? in[i] : inout[i];
            break;
        case AXON_COMM_OP_MIN:
            inout[i] = in[i] < inout[i] ? in[i] : inout[i];
            break;
        case AXON_COMM_OP_SUM:
            inout[i] += in[i];
            break;
        }
    }
}

int axon_comm_coll_allreduce(const struct axon_comm_team *t, int *buf, int count, enum axon_comm_op op)
{
    int n = t->size, me = t->rank;
    if (n <= 1 || count == 0)
        return MPI_SUCCESS;
    size_t bytes = sizeof(int) * (size_t)count;
    int *tmp = malloc(bytes);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;

    /* pof2 ranks take part in the doubling. The first 2*rem ranks pair up: the even one hands its data
     * to the odd one and waits for the result. (Every operation here is commutative.) */
    int pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2;
    int newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            rc = axon_comm_sendrecv(t->pc, t->tag, buf, bytes, axon_comm_pc_rank(t, me + 1), NULL, 0, MPI_PROC_NULL);
            newrank = -1;
        } else {
            rc = axon_comm_sendrecv(t->pc, t->tag, NULL, 0, MPI_PROC_NULL, tmp, bytes, axon_comm_pc_rank(t, me - 1));
            if (rc == MPI_SUCCESS)
                axon_comm_combine(buf, tmp, count, op);
            newrank = me / 2;
        }
    } else {
        newrank = me - rem;
    }

    if (newrank >= 0) {
        for (int mask = 1; mask < pof2 && rc == MPI_SUCCESS; mask <<= 1) {
            int newpeer = newrank ^ mask;
            int peer = newpeer < rem ? newpeer * 2 + 1 : newpeer + rem;
            int pc_peer = axon_comm_pc_rank(t, peer);
            rc = axon_comm_sendrecv(t->pc, t->tag, buf, bytes, pc_peer, tmp, bytes, pc_peer);
            if (rc == MPI_SUCCESS)
                axon_comm_combine(buf, tmp, count, op);
        }
    }

    /* The odd ones of the folded pairs hand the result back. */
    if (rc == MPI_SUCCESS && me < 2 * rem) {
        if (me % 2 == 1)
            rc = axon_comm_sendrecv(t->pc, t->tag, buf, bytes, axon_comm_pc_rank(t, me - 1), NULL, 0, MPI_PROC_NULL);
        else
            rc = axon_comm_sendrecv(t->pc, t->tag, NULL, 0, MPI_PROC_NULL, buf, bytes, axon_comm_pc_rank(t, me + 1));
    }
    free(tmp);
    return rc;
}

int axon_comm_coll_bcast(const struct axon_comm_team *t, void *buf, size_t bytes, int root)
{
    int n = t->size;
    if (n <= 1)
        return MPI_SUCCESS;
    int rel = (t->rank - root + n) % n;
    /* Binomial tree on ranks relative to the root: receive from the parent (the rank without our
     * lowest set bit), then send to the children below that bit. */
    int mask = 1, rc = MPI_SUCCESS;
    while (mask < n) {
        if (rel & mask) {
            int parent = (rel - mask + root) % n;
            rc = axon_comm_sendrecv(t->pc, t->tag, NULL, 0, MPI_PROC_NULL, buf, bytes, axon_comm_pc_rank(t, parent));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        if (rel + mask < n) {
            int child = (rel + mask + root) % n;
            rc = axon_comm_sendrecv(t->pc, t->tag, buf, bytes, axon_comm_pc_rank(t, child), NULL, 0, MPI_PROC_NULL);
        }
    }
    return rc;
}

int axon_comm_coll_allgather(const struct axon_comm_team *t, const void *send, void *recv, size_t bytes)
{
    int n = t->size, me = t->rank;
    char *out = recv;
    memmove(out + (size_t)me * bytes, send, bytes);
    if (n <= 1)
        return MPI_SUCCESS;
    /* Ring: in step s, pass on the block that came from s ranks to the left. */
    int right = axon_comm_pc_rank(t, (me + 1) % n), left = axon_comm_pc_rank(t, (me - 1 + n) % n);
    int rc = MPI_SUCCESS;
    for (int s = 0; s < n - 1 && rc == MPI_SUCCESS; s++) {
        int send_block = (me - s + n) % n, recv_block = (me - s - 1 + n) % n;
        rc = axon_comm_sendrecv(t->pc, t->tag, out + (size_t)send_block * bytes, bytes, right,
                                out + (size_t)recv_block * bytes, bytes, left);
    }
    return rc;
}

int axon_comm_coll_barrier(const struct axon_comm_team *t)
{
    int token = 0;
    return axon_comm_coll_allreduce(t, &token, 1, AXON_COMM_OP_BAND);
}

int axon_comm_coll_leader_swap(const struct axon_comm_bridge *b, const void *send, size_t bytes, void *recv,
                               size_t rbytes)
{
    return axon_comm_sendrecv(b->pc, b->tag, send, bytes, b->remote_leader, recv, rbytes, b->remote_leader);
}

int axon_comm_coll_allreduce_bridged(const struct axon_comm_team *t, const struct axon_comm_bridge *b, int *buf,
                                     int count, enum axon_comm_op op)
{
    int rc = axon_comm_coll_allreduce(t, buf, count, op);
    if (rc != MPI_SUCCESS || !b)
        return rc;
    if (t->rank == b->leader) {
        size_t bytes = sizeof(int) * (size_t)count;
        int *other = malloc(bytes ? bytes : 1);
        if (!other)
            return MPI_ERR_NO_MEM; /* the other side hangs, but a process out of memory is lost anyway */
        rc = axon_comm_coll_leader_swap(b, buf, bytes, other, bytes);
        if (rc == MPI_SUCCESS)
            axon_comm_combine(buf, other, count, op);
        free(other);
    }
    /* The leader's error is not known to the others: they would wait in the broadcast for ever; a
     * transport failure ends the job soon anyway. */
    int brc = axon_comm_coll_bcast(t, buf, sizeof(int) * (size_t)count, b->leader);
    return rc != MPI_SUCCESS ? rc : brc;
}

void axon_comm_team_of(struct axon_comm *c, struct axon_comm_team *t)
{
    struct axon_comm *local = c->is_inter ? c->local_comm : c;
    *t = (struct axon_comm_team){
        .pc = &local->coll, .rank = local->rank, .size = local->size, .to_pc = NULL, .tag = AXON_COMM_TAG_CREATE};
}

void axon_comm_bridge_of(struct axon_comm *inter, struct axon_comm_bridge *b)
{
    *b = (struct axon_comm_bridge){.leader = 0, .pc = &inter->coll, .remote_leader = 0, .tag = AXON_COMM_TAG_CREATE};
}
