/* The blocking collectives (MPI_Barrier ... MPI_Exscan) and the bodies they share with the nonblocking
 * ones (mpi/axon_mpi_icoll.c): argument checks, the schedule of the call (coll/coll.h) on the
 * communicator's internal context with a tag from its collective sequence number, and the run: blocking
 * calls start the schedule and wait for it, nonblocking ones hand back its request. Intercommunicators
 * are refused for now. */
#include "mpi/axon_mpi_coll.h"

#include "coll/axon_coll_op.h"
#include "coll/axon_coll_shm.h"
#include "coll/coll.h"
#include "mpi/axon_mpi_comm.h"
#include "runtime/runtime.h"

#include <stdlib.h>

/* ---- shared checks and running -------------------------------------------------------------------- */

#define AXON_COLL_CHECK_COMM(func, comm, c)                                                          \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        if ((c)->is_inter)                                                                           \
            return axon_mpi_error(c, func, MPI_ERR_COMM,                                             \
                                  "collectives on intercommunicators are not supported yet");       \
    } while (0)

#define AXON_COLL_CHECK_COUNT(func, c, count, what)                                                  \
    do {                                                                                             \
        if ((count) < 0)                                                                             \
            return axon_mpi_error(c, func, MPI_ERR_COUNT, "%s %d is negative", what, (int)(count));  \
    } while (0)

#define AXON_COLL_CHECK_TYPE(func, c, type, dt, what)                                                \
    do {                                                                                             \
        if (!axon_mpi_datatype_get(type, &(dt)))                                                     \
            return axon_mpi_error(c, func, MPI_ERR_TYPE, "%s 0x%x is not a valid committed datatype", \
                                  what, (unsigned)(type));                                           \
    } while (0)

#define AXON_COLL_CHECK_ROOT(func, c, root)                                                          \
    do {                                                                                             \
        if ((root) < 0 || (root) >= (c)->size)                                                       \
            return axon_mpi_error(c, func, MPI_ERR_ROOT, "root %d is not a rank of the communicator (size %d)", \
                                  (root), (c)->size);                                                \
    } while (0)

#define AXON_COLL_CHECK_ARRAY(func, c, array, name)                                                  \
    do {                                                                                             \
        if (!(array))                                                                                \
            return axon_mpi_error(c, func, MPI_ERR_ARG, "%s is a NULL pointer", name);               \
    } while (0)

/* A NULL buffer for data that starts at the buffer (not MPI_BOTTOM with absolute addresses). */
static bool axon_coll_bad_buffer(const void *buf, int64_t count, const struct axon_dtype_layout *dt)
{
    return buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0;
}

#define AXON_COLL_CHECK_BUFFER(func, c, buf, count, dt, what)                                        \
    do {                                                                                             \
        if (axon_coll_bad_buffer(buf, count, &(dt)))                                                 \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "%s is NULL with count %d", what, (int)(count)); \
    } while (0)

#define AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, nonempty)                                   \
    do {                                                                                             \
        if ((nonempty) && (sendbuf) == (recvbuf) && (sendbuf) != NULL)                               \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER,                                           \
                                  "the send and receive buffers are the same (use MPI_IN_PLACE)");   \
    } while (0)

/* Creates the schedule of the next collective on c. */
static int axon_coll_sched_of(struct axon_comm *c, struct axon_coll_sched **s)
{
    unsigned seq = atomic_fetch_add_explicit(&c->coll_seq, 1u, memory_order_relaxed);
    return axon_coll_sched_create(&c->coll, c->rank, c->size, (int)(seq % (unsigned)AXON_COMM_TAG_BASE), s);
}

/* Starts the schedule; blocking (request NULL) waits for it. Owns s. */
static int axon_coll_run(const char *func, struct axon_comm *c, struct axon_coll_sched *s, MPI_Request *request)
{
    struct axon_request *req;
    int rc = axon_request_alloc_coll(&req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        return axon_mpi_error(c, func, rc, "cannot allocate the collective's request");
    }
    rc = axon_coll_sched_start(s, req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        /* Completed first: a request freed while incomplete would wait for a completion that never
         * comes, and keep its pool slot. */
        axon_request_coll_complete(req, rc);
        axon_request_free(req);
        return axon_mpi_error(c, func, rc, "cannot build the collective's schedule");
    }
    if (request) {
        *request = axon_mpi_request_handle(req);
        return MPI_SUCCESS;
    }
    axon_request_wait(req);
    rc = req->status.MPI_ERROR;
    axon_request_free(req);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(c, func, rc, "the collective failed");
}

/* Whether every member of c runs on this node. */
static bool axon_coll_one_node(const struct axon_comm *c)
{
    const int *node = axon_runtime_job.node_of_rank;
    if (!node)
        return axon_runtime_job.num_nodes <= 1;
    for (int j = 0; j < c->group->size; j++)
        if (node[c->group->world[j]] != axon_runtime_job.node)
            return false;
    return true;
}

/* The shared segment for c's small blocking collectives, made by the first call that may use one (all
 * members make that call together, so they make it together); NULL when c spans nodes, has one member,
 * or the members could not all map one. An error of the making is the calling collective's. */
static int axon_coll_shm_of(struct axon_comm *c, struct axon_coll_shm **shm)
{
    if (c->shm_state == 0) {
        c->shm_state = -1;
        if (c->size > 1 && axon_coll_shm_limit() > 0 && axon_coll_one_node(c)) {
            unsigned seq = atomic_fetch_add_explicit(&c->coll_seq, 1u, memory_order_relaxed);
            int rc = axon_coll_shm_create(&c->coll, c->rank, c->size, (int)(seq % (unsigned)AXON_COMM_TAG_BASE),
                                          &c->shm);
            if (rc != MPI_SUCCESS)
                return rc;
            if (c->shm)
                c->shm_state = 1;
        }
    }
    *shm = c->shm;
    return MPI_SUCCESS;
}

#define AXON_COLL_SHM_FAILED                                                                         \
    "the collective failed: its members passed different collectives, roots or counts (AXON_VERBOSE=1 " \
    "says which)"

/* Whether a call goes the shared-memory way: a blocking call (request NULL) that is eligible, on a
 * communicator that has a segment. true with *rc set when making the segment failed (the call fails). */
static bool axon_coll_shm_ready(struct axon_comm *c, MPI_Request *request, bool eligible, int *rc,
                                struct axon_coll_shm **shm)
{
    *rc = MPI_SUCCESS;
    if (request || !eligible)
        return false;
    *rc = axon_coll_shm_of(c, shm);
    return *rc != MPI_SUCCESS || *shm != NULL;
}

/* Runs call (which names shm_) and returns from the body when the call goes the shared-memory way. */
#define AXON_COLL_TRY_SHM(func, c, request, eligible, call)                                          \
    do {                                                                                             \
        struct axon_coll_shm *shm_;                                                                  \
        int rc_;                                                                                     \
        if (axon_coll_shm_ready(c, request, eligible, &rc_, &shm_)) {                                \
            if (rc_ == MPI_SUCCESS)                                                                  \
                rc_ = (call);                                                                        \
            return rc_ == MPI_SUCCESS ? rc_ : axon_mpi_error(c, func, rc_, AXON_COLL_SHM_FAILED);    \
        }                                                                                            \
    } while (0)

#define AXON_COLL_NEW_SCHED(func, c, s)                                                              \
    do {                                                                                             \
        int rc_ = axon_coll_sched_of(c, &(s));                                                       \
        if (rc_ != MPI_SUCCESS)                                                                      \
            return axon_mpi_error(c, func, rc_, "cannot allocate the collective's schedule");        \
    } while (0)

static struct axon_coll_block *axon_coll_blocks_alloc(int n)
{
    return calloc((size_t)(n > 0 ? n : 1), sizeof(struct axon_coll_block));
}

/* ---- bodies --------------------------------------------------------------------------------------- */

int axon_mpi_barrier(const char *func, MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_TRY_SHM(func, c, request, true, axon_coll_shm_barrier(shm_));
    struct axon_coll_sched *s;
    AXON_COLL_NEW_SCHED(func, c, s);
    axon_coll_barrier(s);
    return axon_coll_run(func, c, s, request);
}

int axon_mpi_bcast(const char *func, void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_COUNT(func, c, count, "count");
    AXON_COLL_CHECK_TYPE(func, c, datatype, dt, "datatype");
    AXON_COLL_CHECK_ROOT(func, c, root);
    AXON_COLL_CHECK_BUFFER(func, c, buffer, count, dt, "buffer");
    AXON_COLL_TRY_SHM(func, c, request, (int64_t)count * dt.size <= axon_coll_shm_limit(),
                      axon_coll_shm_bcast(shm_, buffer, count, &dt, root));
    struct axon_coll_sched *s;
    AXON_COLL_NEW_SCHED(func, c, s);
    axon_coll_bcast(s, buffer, count, &dt, root);
    return axon_coll_run(func, c, s, request);
}

int axon_mpi_gather(const char *func, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt, rdt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_ROOT(func, c, root);
    bool is_root = c->rank == root, in_place = is_root && sendbuf == MPI_IN_PLACE;
    if (!is_root && sendbuf == MPI_IN_PLACE)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
    if (!in_place) {
        AXON_COLL_CHECK_COUNT(func, c, sendcount, "sendcount");
        AXON_COLL_CHECK_TYPE(func, c, sendtype, sdt, "sendtype");
        AXON_COLL_CHECK_BUFFER(func, c, sendbuf, sendcount, sdt, "sendbuf");
    }
    int n = c->size;
    if (is_root) {
        AXON_COLL_CHECK_TYPE(func, c, recvtype, rdt, "recvtype");
        if (displs) {
            AXON_COLL_CHECK_ARRAY(func, c, recvcounts, "recvcounts");
            for (int j = 0; j < n; j++)
                AXON_COLL_CHECK_COUNT(func, c, recvcounts[j], "a receive count");
        } else {
            AXON_COLL_CHECK_COUNT(func, c, recvcount, "recvcount");
            AXON_COLL_CHECK_BUFFER(func, c, recvbuf, (int64_t)recvcount * n, rdt, "recvbuf");
            AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, recvcount > 0);
        }
    }
    struct axon_coll_block *blocks = NULL;
    if (is_root) {
        blocks = axon_coll_blocks_alloc(n);
        if (!blocks)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        for (int j = 0; j < n; j++) {
            int64_t at = displs ? displs[j] : (int64_t)j * recvcount;
            blocks[j].buf = (char *)recvbuf + at * rdt.extent;
            blocks[j].count = displs ? recvcounts[j] : recvcount;
            blocks[j].dt = rdt;
        }
    }
    struct axon_coll_block mine = {(void *)sendbuf, sendcount, sdt};
    /* Equal blocks: every member knows one block's size, from its own (the root's in place). */
    int64_t bytes = in_place ? (int64_t)recvcount * rdt.size : (int64_t)sendcount * sdt.size;
    struct axon_coll_shm *shm;
    int rc;
    if (axon_coll_shm_ready(c, request, !displs && bytes <= axon_coll_shm_limit(), &rc, &shm)) {
        if (rc == MPI_SUCCESS)
            rc = axon_coll_shm_gather(shm, in_place ? NULL : &mine, blocks, bytes, root);
        free(blocks);
        return rc == MPI_SUCCESS ? rc : axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
    }
    struct axon_coll_sched *s;
    rc = axon_coll_sched_of(c, &s);
    if (rc != MPI_SUCCESS) {
        free(blocks);
        return axon_mpi_error(c, func, rc, "cannot allocate the collective's schedule");
    }
    axon_coll_gather(s, in_place ? NULL : &mine, blocks, root, displs ? 0 : AXON_COLL_NEEDS_UNIFORM);
    free(blocks);
    return axon_coll_run(func, c, s, request);
}

int axon_mpi_scatter(const char *func, const void *sendbuf, int sendcount, const int sendcounts[],
                     const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt, rdt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_ROOT(func, c, root);
    bool is_root = c->rank == root, in_place = is_root && recvbuf == MPI_IN_PLACE;
    if (!is_root && recvbuf == MPI_IN_PLACE)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
    if (!in_place) {
        AXON_COLL_CHECK_COUNT(func, c, recvcount, "recvcount");
        AXON_COLL_CHECK_TYPE(func, c, recvtype, rdt, "recvtype");
        AXON_COLL_CHECK_BUFFER(func, c, recvbuf, recvcount, rdt, "recvbuf");
    }
    int n = c->size;
    if (is_root) {
        AXON_COLL_CHECK_TYPE(func, c, sendtype, sdt, "sendtype");
        if (displs) {
            AXON_COLL_CHECK_ARRAY(func, c, sendcounts, "sendcounts");
            for (int j = 0; j < n; j++)
                AXON_COLL_CHECK_COUNT(func, c, sendcounts[j], "a send count");
        } else {
            AXON_COLL_CHECK_COUNT(func, c, sendcount, "sendcount");
            AXON_COLL_CHECK_BUFFER(func, c, sendbuf, (int64_t)sendcount * n, sdt, "sendbuf");
            AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, sendcount > 0);
        }
    }
    struct axon_coll_block *blocks = NULL;
    if (is_root) {
        blocks = axon_coll_blocks_alloc(n);
        if (!blocks)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        for (int j = 0; j < n; j++) {
            int64_t at = displs ? displs[j] : (int64_t)j * sendcount;
            blocks[j].buf = (char *)sendbuf + at * sdt.extent;
            blocks[j].count = displs ? sendcounts[j] : sendcount;
            blocks[j].dt = sdt;
        }
    }
    struct axon_coll_block mine = {recvbuf, recvcount, rdt};
    /* The root's blocks all travel in its slot. */
    int64_t bytes = in_place ? (int64_t)sendcount * sdt.size : (int64_t)recvcount * rdt.size;
    struct axon_coll_shm *shm;
    int rc;
    if (axon_coll_shm_ready(c, request, !displs && bytes * n <= axon_coll_shm_limit(), &rc, &shm)) {
        if (rc == MPI_SUCCESS)
            rc = axon_coll_shm_scatter(shm, blocks, in_place ? NULL : &mine, bytes, root);
        free(blocks);
        return rc == MPI_SUCCESS ? rc : axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
    }
    struct axon_coll_sched *s;
    rc = axon_coll_sched_of(c, &s);
    if (rc != MPI_SUCCESS) {
        free(blocks);
        return axon_mpi_error(c, func, rc, "cannot allocate the collective's schedule");
    }
    axon_coll_scatter(s, blocks, in_place ? NULL : &mine, root, displs ? 0 : AXON_COLL_NEEDS_UNIFORM);
    free(blocks);
    return axon_coll_run(func, c, s, request);
}

int axon_mpi_allgather(const char *func, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt, rdt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    bool in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place) {
        AXON_COLL_CHECK_COUNT(func, c, sendcount, "sendcount");
        AXON_COLL_CHECK_TYPE(func, c, sendtype, sdt, "sendtype");
        AXON_COLL_CHECK_BUFFER(func, c, sendbuf, sendcount, sdt, "sendbuf");
    }
    int n = c->size;
    AXON_COLL_CHECK_TYPE(func, c, recvtype, rdt, "recvtype");
    if (displs) {
        AXON_COLL_CHECK_ARRAY(func, c, recvcounts, "recvcounts");
        for (int j = 0; j < n; j++)
            AXON_COLL_CHECK_COUNT(func, c, recvcounts[j], "a receive count");
    } else {
        AXON_COLL_CHECK_COUNT(func, c, recvcount, "recvcount");
        AXON_COLL_CHECK_BUFFER(func, c, recvbuf, (int64_t)recvcount * n, rdt, "recvbuf");
        AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, recvcount > 0);
    }
    struct axon_coll_block *blocks = axon_coll_blocks_alloc(n);
    if (!blocks)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    for (int j = 0; j < n; j++) {
        int64_t at = displs ? displs[j] : (int64_t)j * recvcount;
        blocks[j].buf = (char *)recvbuf + at * rdt.extent;
        blocks[j].count = displs ? recvcounts[j] : recvcount;
        blocks[j].dt = rdt;
    }
    struct axon_coll_block mine = {(void *)sendbuf, sendcount, sdt};
    int64_t bytes = in_place ? (int64_t)recvcount * rdt.size : (int64_t)sendcount * sdt.size;
    struct axon_coll_shm *shm;
    int rc;
    if (axon_coll_shm_ready(c, request, !displs && bytes <= axon_coll_shm_limit(), &rc, &shm)) {
        if (rc == MPI_SUCCESS)
            rc = axon_coll_shm_gather(shm, in_place ? NULL : &mine, blocks, bytes, -1);
        free(blocks);
        return rc == MPI_SUCCESS ? rc : axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
    }
    struct axon_coll_sched *s;
    rc = axon_coll_sched_of(c, &s);
    if (rc != MPI_SUCCESS) {
        free(blocks);
        return axon_mpi_error(c, func, rc, "cannot allocate the collective's schedule");
    }
    axon_coll_allgather(s, in_place ? NULL : &mine, blocks, displs ? 0 : AXON_COLL_NEEDS_UNIFORM);
    free(blocks);
    return axon_coll_run(func, c, s, request);
}

/* The blocks of one side of an alltoall of any kind (see axon_mpi_alltoall). */
static int axon_coll_a2a_blocks(const char *func, struct axon_comm *c, int kind, const void *buf, int count,
                                const int counts[], const int displs[], MPI_Datatype type,
                                const MPI_Datatype types[], const char *side, struct axon_coll_block *blocks)
{
    int n = c->size;
    struct axon_dtype_layout dt;
    if (kind == 0) {
        AXON_COLL_CHECK_COUNT(func, c, count, side);
    } else {
        AXON_COLL_CHECK_ARRAY(func, c, counts, "a count array");
        AXON_COLL_CHECK_ARRAY(func, c, displs, "a displacement array");
        if (kind == 2)
            AXON_COLL_CHECK_ARRAY(func, c, types, "a datatype array");
    }
    if (kind != 2)
        AXON_COLL_CHECK_TYPE(func, c, type, dt, side);
    for (int j = 0; j < n; j++) {
        int cnt = kind == 0 ? count : counts[j];
        AXON_COLL_CHECK_COUNT(func, c, cnt, side);
        if (kind == 2)
            AXON_COLL_CHECK_TYPE(func, c, types[j], dt, side);
        int64_t off = kind == 0 ? (int64_t)j * count * dt.extent
                                : kind == 1 ? (int64_t)displs[j] * dt.extent : (int64_t)displs[j];
        if (axon_coll_bad_buffer(buf, cnt, &dt))
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "the %s buffer is NULL", side);
        blocks[j].buf = (char *)buf + off;
        blocks[j].count = cnt;
        blocks[j].dt = dt;
    }
    return MPI_SUCCESS;
}

int axon_mpi_alltoall(const char *func, int kind, const void *sendbuf, int sendcount, const int sendcounts[],
                      const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, int recvcount,
                      const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    struct axon_comm *c;
    AXON_COLL_CHECK_COMM(func, comm, c);
    bool in_place = sendbuf == MPI_IN_PLACE;
    int n = c->size;
    struct axon_coll_block *sblocks = axon_coll_blocks_alloc(n), *rblocks = axon_coll_blocks_alloc(n);
    int rc = MPI_SUCCESS;
    if (!sblocks || !rblocks) {
        rc = axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        goto out;
    }
    MPI_Datatype stype = kind == 2 ? MPI_DATATYPE_NULL : *(const MPI_Datatype *)sendtypes;
    MPI_Datatype rtype = kind == 2 ? MPI_DATATYPE_NULL : *(const MPI_Datatype *)recvtypes;
    if (!in_place) {
        rc = axon_coll_a2a_blocks(func, c, kind, sendbuf, sendcount, sendcounts, sdispls, stype, sendtypes,
                                  "send", sblocks);
        if (rc != MPI_SUCCESS)
            goto out;
    }
    rc = axon_coll_a2a_blocks(func, c, kind, recvbuf, recvcount, recvcounts, rdispls, rtype, recvtypes, "receive",
                              rblocks);
    if (rc != MPI_SUCCESS)
        goto out;
    if (!in_place && sendbuf == recvbuf && sendbuf != NULL) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "the send and receive buffers are the same (use MPI_IN_PLACE)");
        goto out;
    }
    /* Each rank's n blocks travel in its slot. */
    int64_t bytes = rblocks[0].count * rblocks[0].dt.size;
    struct axon_coll_shm *shm;
    if (axon_coll_shm_ready(c, request, kind == 0 && bytes * n <= axon_coll_shm_limit(), &rc, &shm)) {
        if (rc == MPI_SUCCESS)
            rc = axon_coll_shm_alltoall(shm, in_place ? NULL : sblocks, rblocks, bytes);
        if (rc != MPI_SUCCESS)
            rc = axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
        goto out;
    }
    struct axon_coll_sched *s;
    rc = axon_coll_sched_of(c, &s);
    if (rc != MPI_SUCCESS) {
        rc = axon_mpi_error(c, func, rc, "cannot allocate the collective's schedule");
        goto out;
    }
    axon_coll_alltoall(s, in_place ? NULL : sblocks, rblocks, kind == 0 ? AXON_COLL_NEEDS_UNIFORM : 0);
    rc = axon_coll_run(func, c, s, request);
out:
    free(sblocks);
    free(rblocks);
    return rc;
}

int axon_mpi_reduction(const char *func, enum axon_mpi_red_kind kind, const void *sendbuf, void *recvbuf, int count,
                       const int recvcounts[], MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    int n = c->size;
    if (kind == AXON_MPI_RED_REDUCE)
        AXON_COLL_CHECK_ROOT(func, c, root);
    bool is_root = kind != AXON_MPI_RED_REDUCE || c->rank == root;
    bool in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
    AXON_COLL_CHECK_TYPE(func, c, datatype, dt, "datatype");
    struct axon_coll_op *o = axon_coll_op_get(op);
    if (!o)
        return axon_mpi_error(c, func, MPI_ERR_OP, "invalid operation 0x%x", (unsigned)op);
    if (axon_coll_op_check(o, datatype, &dt) != MPI_SUCCESS)
        return axon_mpi_error(c, func, MPI_ERR_OP, "operation 0x%x is not defined for datatype 0x%x",
                              (unsigned)op, (unsigned)datatype);

    /* in: the contribution (count elements), out: the result (outcount elements). */
    int64_t incount = count, outcount = count;
    int64_t *counts = NULL;
    if (kind == AXON_MPI_RED_SCATTER || kind == AXON_MPI_RED_SCATTER_BLOCK) {
        if (kind == AXON_MPI_RED_SCATTER)
            AXON_COLL_CHECK_ARRAY(func, c, recvcounts, "recvcounts");
        else
            AXON_COLL_CHECK_COUNT(func, c, count, "recvcount");
        counts = malloc(sizeof(*counts) * (size_t)n);
        if (!counts)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        incount = 0;
        for (int j = 0; j < n; j++) {
            counts[j] = kind == AXON_MPI_RED_SCATTER ? recvcounts[j] : count;
            if (counts[j] < 0) {
                free(counts);
                return axon_mpi_error(c, func, MPI_ERR_COUNT, "recvcounts[%d] = %lld is negative", j,
                                      (long long)counts[j]);
            }
            incount += counts[j];
        }
        outcount = counts[c->rank];
    } else {
        AXON_COLL_CHECK_COUNT(func, c, count, "count");
    }
    int rc = MPI_SUCCESS;
    const void *in = in_place ? recvbuf : sendbuf;
    if (axon_coll_bad_buffer(in, incount, &dt) || (is_root && axon_coll_bad_buffer(recvbuf, outcount, &dt))) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "a buffer is NULL with a non-zero count");
        goto out;
    }
    if (!in_place && is_root && sendbuf == recvbuf && sendbuf != NULL && incount > 0) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "the send and receive buffers are the same (use MPI_IN_PLACE)");
        goto out;
    }
    struct axon_coll_shm *shm;
    if (axon_coll_shm_ready(c, request,
                            (kind == AXON_MPI_RED_REDUCE || kind == AXON_MPI_RED_ALLREDUCE) &&
                                axon_coll_shm_reduction_fits(o, count, &dt),
                            &rc, &shm)) {
        if (rc == MPI_SUCCESS)
            rc = axon_coll_shm_reduce(shm, in, recvbuf, count, &dt, datatype, o,
                                      kind == AXON_MPI_RED_REDUCE ? root : -1);
        if (rc != MPI_SUCCESS)
            rc = axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
        goto out;
    }
    struct axon_coll_sched *s;
    rc = axon_coll_sched_of(c, &s);
    if (rc != MPI_SUCCESS) {
        rc = axon_mpi_error(c, func, rc, "cannot allocate the collective's schedule");
        goto out;
    }
    axon_coll_sched_set_op(s, o, datatype, &dt);
    switch (kind) {
    case AXON_MPI_RED_REDUCE:
        axon_coll_reduce(s, in, recvbuf, count, &dt, root);
        break;
    case AXON_MPI_RED_ALLREDUCE:
        axon_coll_allreduce(s, in, recvbuf, count, &dt);
        break;
    case AXON_MPI_RED_SCATTER_BLOCK:
    case AXON_MPI_RED_SCATTER:
        axon_coll_reduce_scatter(s, in, recvbuf, counts, &dt);
        break;
    case AXON_MPI_RED_SCAN:
    case AXON_MPI_RED_EXSCAN:
        axon_coll_scan(s, in, recvbuf, count, &dt, kind == AXON_MPI_RED_EXSCAN);
        break;
    }
    rc = axon_coll_run(func, c, s, request);
out:
    free(counts);
    return rc;
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
    return axon_mpi_gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype,
                           root, comm, NULL);
}

AXON_MPI_WEAK(Gatherv)
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char func[] = "MPI_Gatherv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && !c->is_inter && c->rank == root && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_gather(func, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs ? displs : none,
                           recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Scatter)
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return axon_mpi_scatter("MPI_Scatter", sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, NULL);
}

AXON_MPI_WEAK(Scatterv)
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char func[] = "MPI_Scatterv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && !c->is_inter && c->rank == root && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_scatter(func, sendbuf, 0, sendcounts, displs ? displs : none, sendtype, recvbuf, recvcount,
                            recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                              recvtype, comm, NULL);
}

AXON_MPI_WEAK(Allgatherv)
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char func[] = "MPI_Allgatherv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!displs)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "displs is a NULL pointer");
    return axon_mpi_allgather(func, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                              NULL);
}

AXON_MPI_WEAK(Alltoall)
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoall", 0, sendbuf, sendcount, NULL, NULL, &sendtype, recvbuf, recvcount, NULL,
                             NULL, &recvtype, comm, NULL);
}

AXON_MPI_WEAK(Alltoallv)
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoallv", 1, sendbuf, 0, sendcounts, sdispls, &sendtype, recvbuf, 0, recvcounts,
                             rdispls, &recvtype, comm, NULL);
}

AXON_MPI_WEAK(Alltoallw)
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoallw", 2, sendbuf, 0, sendcounts, sdispls, sendtypes, recvbuf, 0, recvcounts,
                             rdispls, recvtypes, comm, NULL);
}

AXON_MPI_WEAK(Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce", AXON_MPI_RED_REDUCE, sendbuf, recvbuf, count, NULL, datatype, op, root,
                              comm, NULL);
}

AXON_MPI_WEAK(Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Allreduce", AXON_MPI_RED_ALLREDUCE, sendbuf, recvbuf, count, NULL, datatype, op,
                              0, comm, NULL);
}

AXON_MPI_WEAK(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce_scatter_block", AXON_MPI_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                              NULL, datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Reduce_scatter)
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce_scatter", AXON_MPI_RED_SCATTER, sendbuf, recvbuf, 0, recvcounts, datatype,
                              op, 0, comm, NULL);
}

AXON_MPI_WEAK(Scan)
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Scan", AXON_MPI_RED_SCAN, sendbuf, recvbuf, count, NULL, datatype, op, 0, comm,
                              NULL);
}

AXON_MPI_WEAK(Exscan)
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Exscan", AXON_MPI_RED_EXSCAN, sendbuf, recvbuf, count, NULL, datatype, op, 0,
                              comm, NULL);
}
