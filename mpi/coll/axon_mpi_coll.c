/* The blocking collectives (MPI_Barrier ... MPI_Exscan) and what they share with the nonblocking
 * (mpi/coll/axon_mpi_icoll.c), persistent (mpi/coll/axon_mpi_coll_persist.c) and neighborhood ones: the plan of
 * each call (its argument checks, the user's buffers as blocks) and its hand-over to coll/, which runs
 * it (coll/axon_coll_plan.h). */
#include "mpi/coll/axon_mpi_coll.h"

#include "coll/axon_coll_op.h"
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

int axon_mpi_coll_plan_run(const char *func, struct axon_coll_plan *p, MPI_Request *request)
{
    struct axon_comm *c = axon_mpi_coll_comm(p->cc);
    struct axon_request *req = NULL;
    const char *why = NULL;
    int rc = axon_coll_plan_run(p, request ? &req : NULL, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "%s", why);
    if (request)
        *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

/* The bytes n blocks hold. */
static int64_t axon_mpi_coll_blocks_bytes(const struct axon_coll_block *blocks, int n)
{
    int64_t bytes = 0;
    for (int j = 0; j < n; j++)
        bytes += blocks[j].count * blocks[j].dt.size;
    return bytes;
}

/* ---- plans of the calls --------------------------------------------------------------------------- */

int axon_mpi_barrier_plan(const char *func, MPI_Comm comm, struct axon_coll_plan *p)
{
    struct axon_comm *c;
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    axon_coll_plan_begin(p, AXON_COLL_PLAN_BARRIER, &c->collectives);
    return MPI_SUCCESS;
}

int axon_mpi_bcast_plan(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                        struct axon_coll_plan *p)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    AXON_MPI_COLL_CHECK_ROOT(func, c, root);
    axon_coll_plan_begin(p, AXON_COLL_PLAN_BCAST, &c->collectives);
    p->root = root;
    if (c->is_inter && root == MPI_PROC_NULL)
        return MPI_SUCCESS; /* takes no part: the other arguments mean nothing */
    AXON_MPI_COLL_CHECK_COUNT(func, c, count, "count");
    AXON_MPI_COLL_CHECK_TYPE(func, c, datatype, dt, "datatype");
    AXON_MPI_COLL_CHECK_BUFFER(func, c, buffer, count, dt, "buffer");
    p->mine = (struct axon_coll_block){buffer, count, dt};
    return MPI_SUCCESS;
}

/* The side of a rooted call that every rank has (gather: what it sends; scatter: what it receives),
 * and the root's blocks, one per rank that the call serves (the remote group's on an
 * intercommunicator). Gather and scatter are mirror images: the same checks with the names swapped. */
struct axon_mpi_coll_rooted {
    bool gather;
    void *buf;                  /* each rank's side; MPI_IN_PLACE at the root only */
    int64_t count;
    MPI_Datatype type;
    void *rbuf;                 /* the root's side */
    int64_t rcount;
    struct axon_mpi_array rcounts, displs; /* the v forms (displs.p non-NULL) */
    MPI_Datatype rtype;
};

static int axon_mpi_coll_rooted_plan(const char *func, const struct axon_mpi_coll_rooted *a, int root, MPI_Comm comm,
                                 struct axon_coll_plan *p)
{
    /* The arguments' names: this rank's side, then the root's. */
    static const char *const names[2][8] = {
        {"recvcount", "recvtype", "recvbuf", "sendtype", "sendcounts", "a send count", "sendcount", "sendbuf"},
        {"sendcount", "sendtype", "sendbuf", "recvtype", "recvcounts", "a receive count", "recvcount", "recvbuf"}};
    const char *const *name = names[a->gather];
    struct axon_comm *c;
    struct axon_dtype_layout dt = {0}, rdt = {0};
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    AXON_MPI_COLL_CHECK_ROOT(func, c, root);
    bool is_root = axon_mpi_coll_is_root(c, root), in_place = is_root && a->buf == MPI_IN_PLACE;
    /* Whether this rank's own side takes part: on an intercommunicator only the other group's does. */
    bool moves = c->is_inter ? !is_root && root != MPI_PROC_NULL : !in_place;
    if (moves && a->buf == MPI_IN_PLACE)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root%s",
                              c->is_inter ? " of an intracommunicator" : "");
    AXON_MPI_COLL_CHECK_NOT_IN_PLACE(func, c, a->buf);
    if (moves) {
        AXON_MPI_COLL_CHECK_COUNT(func, c, a->count, name[0]);
        AXON_MPI_COLL_CHECK_TYPE(func, c, a->type, dt, name[1]);
        AXON_MPI_COLL_CHECK_BUFFER(func, c, a->buf, a->count, dt, name[2]);
    }
    int n = axon_mpi_coll_peers(c);
    if (is_root) {
        AXON_MPI_COLL_CHECK_TYPE(func, c, a->rtype, rdt, name[3]);
        if (a->displs.p) {
            AXON_MPI_COLL_CHECK_ARRAY(func, c, a->rcounts.p, name[4]);
            int64_t total = 0;
            for (int j = 0; j < n; j++) {
                AXON_MPI_COLL_CHECK_COUNT(func, c, axon_mpi_array_get(a->rcounts, j), name[5]);
                total += axon_mpi_array_get(a->rcounts, j);
            }
            AXON_MPI_COLL_CHECK_ALIAS(func, c, a->buf, a->rbuf, moves && a->count > 0 && total > 0);
        } else {
            AXON_MPI_COLL_CHECK_COUNT(func, c, a->rcount, name[6]);
            AXON_MPI_COLL_CHECK_BUFFER(func, c, a->rbuf, a->rcount * n, rdt, name[7]);
            AXON_MPI_COLL_CHECK_ALIAS(func, c, a->buf, a->rbuf, moves && a->rcount > 0);
        }
    }
    struct axon_coll_block *blocks = NULL;
    if (is_root) {
        blocks = axon_coll_comm_blocks_take(&c->collectives, n);
        if (!blocks)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        for (int j = 0; j < n; j++) {
            int64_t at = a->displs.p ? axon_mpi_array_get(a->displs, j) : j * a->rcount;
            blocks[j].buf = (char *)a->rbuf + at * rdt.extent;
            blocks[j].count = a->displs.p ? axon_mpi_array_get(a->rcounts, j) : a->rcount;
            blocks[j].dt = rdt;
        }
        /* The root's own block named as its data, rather than MPI_IN_PLACE: aliasing too. */
        if (moves && !c->is_inter && a->count > 0 && blocks[c->rank].count > 0 && a->buf == blocks[c->rank].buf) {
            axon_coll_comm_blocks_give(&c->collectives, blocks);
            return axon_mpi_error(c, func, MPI_ERR_BUFFER,
                                  "the root's %s is its own block of %s (use MPI_IN_PLACE)", name[2], name[7]);
        }
    }
    axon_coll_plan_begin(p, a->gather ? AXON_COLL_PLAN_GATHER : AXON_COLL_PLAN_SCATTER, &c->collectives);
    p->root = root;
    p->in_place = in_place;
    p->have = a->displs.p ? 0 : AXON_COLL_NEEDS_UNIFORM;
    p->spare_blocks = true;
    if (moves)
        p->mine = (struct axon_coll_block){a->buf, a->count, dt};
    if (a->gather) {
        p->rblocks = blocks;
        p->nrecv = blocks ? n : 0;
    } else {
        p->sblocks = blocks;
        p->nsend = blocks ? n : 0;
    }
    return MPI_SUCCESS;
}

int axon_mpi_gather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_coll_plan *p)
{
    const struct axon_mpi_coll_rooted a = {true, (void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvcounts,
                                       displs, recvtype};
    return axon_mpi_coll_rooted_plan(func, &a, root, comm, p);
}

int axon_mpi_scatter_plan(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                          struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_coll_plan *p)
{
    const struct axon_mpi_coll_rooted a = {false, recvbuf, recvcount, recvtype, (void *)sendbuf, sendcount, sendcounts,
                                       displs, sendtype};
    return axon_mpi_coll_rooted_plan(func, &a, root, comm, p);
}

int axon_mpi_allgather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts,
                            struct axon_mpi_array displs, MPI_Datatype recvtype, MPI_Comm comm,
                            struct axon_coll_plan *p)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt = {0}, rdt = {0};
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    AXON_MPI_COLL_CHECK_NOT_IN_PLACE(func, c, sendbuf);
    bool in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place) {
        AXON_MPI_COLL_CHECK_COUNT(func, c, sendcount, "sendcount");
        AXON_MPI_COLL_CHECK_TYPE(func, c, sendtype, sdt, "sendtype");
        AXON_MPI_COLL_CHECK_BUFFER(func, c, sendbuf, sendcount, sdt, "sendbuf");
    }
    int n = axon_mpi_coll_peers(c);
    AXON_MPI_COLL_CHECK_TYPE(func, c, recvtype, rdt, "recvtype");
    if (displs.p) {
        AXON_MPI_COLL_CHECK_ARRAY(func, c, recvcounts.p, "recvcounts");
        int64_t total = 0;
        for (int j = 0; j < n; j++) {
            AXON_MPI_COLL_CHECK_COUNT(func, c, axon_mpi_array_get(recvcounts, j), "a receive count");
            total += axon_mpi_array_get(recvcounts, j);
        }
        AXON_MPI_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, !in_place && sendcount > 0 && total > 0);
    } else {
        AXON_MPI_COLL_CHECK_COUNT(func, c, recvcount, "recvcount");
        AXON_MPI_COLL_CHECK_BUFFER(func, c, recvbuf, recvcount * n, rdt, "recvbuf");
        AXON_MPI_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, recvcount > 0);
    }
    struct axon_coll_block *blocks = axon_coll_comm_blocks_take(&c->collectives, n);
    if (!blocks)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    for (int j = 0; j < n; j++) {
        int64_t at = displs.p ? axon_mpi_array_get(displs, j) : j * recvcount;
        blocks[j].buf = (char *)recvbuf + at * rdt.extent;
        blocks[j].count = displs.p ? axon_mpi_array_get(recvcounts, j) : recvcount;
        blocks[j].dt = rdt;
    }
    /* A rank's own block of recvbuf named as its data, rather than MPI_IN_PLACE: every rank that does so
     * fails alike (MPICH's errors/coll/noalias2 does it on every rank). */
    if (!in_place && !c->is_inter && sendcount > 0 && blocks[c->rank].count > 0 && sendbuf == blocks[c->rank].buf) {
        axon_coll_comm_blocks_give(&c->collectives, blocks);
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "sendbuf is this rank's own block of recvbuf (use MPI_IN_PLACE)");
    }
    axon_coll_plan_begin(p, AXON_COLL_PLAN_ALLGATHER, &c->collectives);
    p->spare_blocks = true;
    p->in_place = in_place;
    p->have = displs.p ? 0 : AXON_COLL_NEEDS_UNIFORM;
    if (!in_place)
        p->mine = (struct axon_coll_block){(void *)sendbuf, sendcount, sdt};
    p->rblocks = blocks;
    p->nrecv = n;
    return MPI_SUCCESS;
}

/* The blocks of one side of an alltoall of any kind (see axon_mpi_alltoall_plan). */
static int axon_mpi_coll_a2a_blocks(const char *func, struct axon_comm *c, int kind, const void *buf, int64_t count,
                                struct axon_mpi_array counts, struct axon_mpi_array displs, MPI_Datatype type,
                                const MPI_Datatype types[], const char *side, struct axon_coll_block *blocks)
{
    int n = axon_mpi_coll_peers(c);
    struct axon_dtype_layout dt;
    if (kind == 0) {
        AXON_MPI_COLL_CHECK_COUNT(func, c, count, side);
    } else {
        AXON_MPI_COLL_CHECK_ARRAY(func, c, counts.p, "a count array");
        AXON_MPI_COLL_CHECK_ARRAY(func, c, displs.p, "a displacement array");
        if (kind == 2)
            AXON_MPI_COLL_CHECK_ARRAY(func, c, types, "a datatype array");
    }
    if (kind != 2)
        AXON_MPI_COLL_CHECK_TYPE(func, c, type, dt, side);
    for (int j = 0; j < n; j++) {
        int64_t cnt = kind == 0 ? count : axon_mpi_array_get(counts, j);
        AXON_MPI_COLL_CHECK_COUNT(func, c, cnt, side);
        if (kind == 2)
            AXON_MPI_COLL_CHECK_TYPE(func, c, types[j], dt, side);
        int64_t at = kind == 0 ? j * count : axon_mpi_array_get(displs, j);
        int64_t off = kind == 2 ? at : at * dt.extent; /* the w form's displacements are in bytes */
        if (axon_mpi_coll_bad_buffer((const char *)buf + off, cnt, &dt))
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "the %s buffer is NULL", side);
        blocks[j].buf = (char *)buf + off;
        blocks[j].count = cnt;
        blocks[j].dt = dt;
    }
    return MPI_SUCCESS;
}

int axon_mpi_alltoall_plan(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                           struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf, int64_t recvcount,
                           struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                           const MPI_Datatype recvtypes[], MPI_Comm comm, struct axon_coll_plan *p)
{
    struct axon_comm *c;
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    AXON_MPI_COLL_CHECK_NOT_IN_PLACE(func, c, sendbuf);
    bool in_place = sendbuf == MPI_IN_PLACE;
    int n = axon_mpi_coll_peers(c);
    struct axon_coll_block *sblocks = axon_coll_comm_blocks_take(&c->collectives, n);
    struct axon_coll_block *rblocks = axon_coll_comm_blocks_take(&c->collectives, n);
    int rc = MPI_SUCCESS;
    if (!sblocks || !rblocks) {
        rc = axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        goto err;
    }
    MPI_Datatype stype = kind == 2 ? MPI_DATATYPE_NULL : *(const MPI_Datatype *)sendtypes;
    MPI_Datatype rtype = kind == 2 ? MPI_DATATYPE_NULL : *(const MPI_Datatype *)recvtypes;
    if (!in_place) {
        rc = axon_mpi_coll_a2a_blocks(func, c, kind, sendbuf, sendcount, sendcounts, sdispls, stype, sendtypes,
                                  "send", sblocks);
        if (rc != MPI_SUCCESS)
            goto err;
    }
    rc = axon_mpi_coll_a2a_blocks(func, c, kind, recvbuf, recvcount, recvcounts, rdispls, rtype, recvtypes, "receive",
                              rblocks);
    if (rc != MPI_SUCCESS)
        goto err;
    /* The same buffer on both sides is an error only where both hold data: empty buffers occupy no
     * memory (Python's empty arrays share one address). */
    if (!in_place && sendbuf == recvbuf && sendbuf != NULL && axon_mpi_coll_blocks_bytes(sblocks, n) > 0 &&
        axon_mpi_coll_blocks_bytes(rblocks, n) > 0) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "the send and receive buffers are the same (use MPI_IN_PLACE)");
        goto err;
    }
    axon_coll_plan_begin(p, AXON_COLL_PLAN_ALLTOALL, &c->collectives);
    p->in_place = in_place;
    p->have = kind == 0 ? AXON_COLL_NEEDS_UNIFORM : 0;
    p->spare_blocks = true;
    p->sblocks = sblocks;
    p->nsend = in_place ? 0 : n;
    p->rblocks = rblocks;
    p->nrecv = n;
    return MPI_SUCCESS;
err:
    axon_coll_comm_blocks_give(&c->collectives, sblocks);
    axon_coll_comm_blocks_give(&c->collectives, rblocks);
    return rc;
}

int axon_mpi_reduction_plan(const char *func, enum axon_coll_red_kind kind, const void *sendbuf, void *recvbuf,
                            int64_t count, struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, struct axon_coll_plan *p)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    if (kind == AXON_COLL_RED_SCAN || kind == AXON_COLL_RED_EXSCAN)
        AXON_MPI_COLL_CHECK_INTRACOMM(func, c);
    int n = c->size;
    if (kind == AXON_COLL_RED_REDUCE)
        AXON_MPI_COLL_CHECK_ROOT(func, c, root);
    /* is_root: has a result; contributes: has data to reduce (on an intercommunicator, the root's
     * group of a reduce only receives, and MPI_PROC_NULL takes no part). */
    bool is_root = kind != AXON_COLL_RED_REDUCE || axon_mpi_coll_is_root(c, root);
    bool contributes = !(c->is_inter && kind == AXON_COLL_RED_REDUCE && (root == MPI_ROOT || root == MPI_PROC_NULL));
    if (c->is_inter && kind == AXON_COLL_RED_REDUCE && root == MPI_PROC_NULL) {
        axon_coll_plan_begin(p, AXON_COLL_PLAN_REDUCTION, &c->collectives);
        p->red = kind;
        p->root = root;
        return MPI_SUCCESS; /* takes no part: the other arguments mean nothing */
    }
    AXON_MPI_COLL_CHECK_NOT_IN_PLACE(func, c, sendbuf);
    bool in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
    AXON_MPI_COLL_CHECK_TYPE(func, c, datatype, dt, "datatype");
    struct axon_coll_op *o = axon_coll_op_get(op);
    if (!o)
        return axon_mpi_error(c, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(op));
    int rc = axon_mpi_op_check(c, func, op, o, datatype, &dt);
    if (rc != MPI_SUCCESS)
        return rc;

    /* in: the contribution (count elements), out: the result (outcount elements). */
    int64_t incount = count, outcount = count;
    int64_t *counts = NULL;
    if (kind == AXON_COLL_RED_SCATTER || kind == AXON_COLL_RED_SCATTER_BLOCK) {
        if (kind == AXON_COLL_RED_SCATTER)
            AXON_MPI_COLL_CHECK_ARRAY(func, c, recvcounts.p, "recvcounts");
        else
            AXON_MPI_COLL_CHECK_COUNT(func, c, count, "recvcount");
        counts = malloc(sizeof(*counts) * (size_t)n);
        if (!counts)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        incount = 0;
        for (int j = 0; j < n; j++) {
            counts[j] = kind == AXON_COLL_RED_SCATTER ? axon_mpi_array_get(recvcounts, j) : count;
            if (counts[j] < 0) {
                long long bad = (long long)counts[j];
                free(counts);
                return axon_mpi_error(c, func, MPI_ERR_COUNT, "recvcounts[%d] = %lld is negative", j, bad);
            }
            incount += counts[j];
        }
        outcount = counts[c->rank];
    } else {
        AXON_MPI_COLL_CHECK_COUNT(func, c, count, "count");
    }
    const void *in = in_place ? recvbuf : sendbuf;
    if ((contributes && axon_mpi_coll_bad_buffer(in, incount, &dt)) ||
        (is_root && axon_mpi_coll_bad_buffer(recvbuf, outcount, &dt))) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "a buffer is NULL with a non-zero count");
        goto err;
    }
    if (!in_place && is_root && contributes && sendbuf == recvbuf && sendbuf != NULL && incount > 0) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "the send and receive buffers are the same (use MPI_IN_PLACE)");
        goto err;
    }
    axon_coll_plan_begin(p, AXON_COLL_PLAN_REDUCTION, &c->collectives);
    p->red = kind;
    p->root = root;
    p->in = in;
    p->out = recvbuf;
    p->count = count;
    p->counts = counts;
    p->datatype = datatype;
    p->dt = dt;
    p->op = o;
    return MPI_SUCCESS;
err:
    free(counts);
    return rc;
}

/* ---- plan and run --------------------------------------------------------------------------------- */

/* The body of the blocking and nonblocking forms: the plan of call, then its run. */
#define AXON_MPI_COLL_PLAN_RUN(func, request, call)                                                      \
    do {                                                                                             \
        struct axon_coll_plan plan_;                                                             \
        int rc_ = (call);                                                                            \
        return rc_ == MPI_SUCCESS ? axon_mpi_coll_plan_run(func, &plan_, request) : rc_;             \
    } while (0)

int axon_mpi_barrier(const char *func, MPI_Comm comm, MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request, axon_mpi_barrier_plan(func, comm, &plan_));
}

int axon_mpi_bcast(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request, axon_mpi_bcast_plan(func, buffer, count, datatype, root, comm, &plan_));
}

int axon_mpi_gather(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request,
                       axon_mpi_gather_plan(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvcounts,
                                            displs, recvtype, root, comm, &plan_));
}

int axon_mpi_scatter(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                     struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request,
                       axon_mpi_scatter_plan(func, sendbuf, sendcount, sendcounts, displs, sendtype, recvbuf,
                                             recvcount, recvtype, root, comm, &plan_));
}

int axon_mpi_allgather(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request,
                       axon_mpi_allgather_plan(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvcounts,
                                               displs, recvtype, comm, &plan_));
}

int axon_mpi_alltoall(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                      struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls, const MPI_Datatype sendtypes[],
                      void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request,
                       axon_mpi_alltoall_plan(func, kind, sendbuf, sendcount, sendcounts, sdispls, sendtypes,
                                              recvbuf, recvcount, recvcounts, rdispls, recvtypes, comm, &plan_));
}

int axon_mpi_reduction(const char *func, enum axon_coll_red_kind kind, const void *sendbuf, void *recvbuf, int64_t count,
                       struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    AXON_MPI_COLL_PLAN_RUN(func, request,
                       axon_mpi_reduction_plan(func, kind, sendbuf, recvbuf, count, recvcounts, datatype, op, root,
                                               comm, &plan_));
}

/* ---- the blocking calls --------------------------------------------------------------------------- */

AXON_MPI_WEAK(Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    return axon_mpi_barrier("MPI_Barrier", comm, NULL);
}

AXON_MPI_WEAK(Bcast)
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return axon_mpi_bcast("MPI_Bcast", buffer, count, datatype, root, comm, NULL);
}

AXON_MPI_WEAK(Gather)
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return axon_mpi_gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                           AXON_MPI_NO_ARRAY, recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Gatherv)
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char func[] = "MPI_Gatherv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && axon_mpi_coll_is_root(c, root) && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_gather(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                           AXON_MPI_INTS(displs ? displs : none), recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Scatter)
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return axon_mpi_scatter("MPI_Scatter", sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, sendtype, recvbuf,
                            recvcount, recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Scatterv)
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char func[] = "MPI_Scatterv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && axon_mpi_coll_is_root(c, root) && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_scatter(func, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(displs ? displs : none),
                            sendtype, recvbuf, recvcount, recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                              AXON_MPI_NO_ARRAY, recvtype, comm, NULL);
}

AXON_MPI_WEAK(Allgatherv)
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char func[] = "MPI_Allgatherv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!displs)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "displs is a NULL pointer");
    return axon_mpi_allgather(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                              AXON_MPI_INTS(displs), recvtype, comm, NULL);
}

AXON_MPI_WEAK(Alltoall)
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoall", 0, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &sendtype,
                             recvbuf, recvcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &recvtype, comm, NULL);
}

AXON_MPI_WEAK(Alltoallv)
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoallv", 1, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls),
                             &sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls), &recvtype, comm,
                             NULL);
}

AXON_MPI_WEAK(Alltoallw)
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoallw", 2, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls),
                             sendtypes, recvbuf, 0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls), recvtypes, comm,
                             NULL);
}

AXON_MPI_WEAK(Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce", AXON_COLL_RED_REDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype,
                              op, root, comm, NULL);
}

AXON_MPI_WEAK(Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Allreduce", AXON_COLL_RED_ALLREDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                              datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce_scatter_block", AXON_COLL_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                              AXON_MPI_NO_ARRAY, datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Reduce_scatter)
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce_scatter", AXON_COLL_RED_SCATTER, sendbuf, recvbuf, 0,
                              AXON_MPI_INTS(recvcounts), datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Scan)
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Scan", AXON_COLL_RED_SCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op,
                              0, comm, NULL);
}

AXON_MPI_WEAK(Exscan)
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Exscan", AXON_COLL_RED_EXSCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype,
                              op, 0, comm, NULL);
}
