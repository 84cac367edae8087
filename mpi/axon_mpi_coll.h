/* The collective calls' shared parts. Each call first checks its arguments and turns them into a plan:
 * what to run (which collective, with the user's buffers as blocks, coll/coll.h). A blocking or
 * nonblocking call builds the schedule of its plan at once and runs it (blocking when request is NULL,
 * MPI_Bcast ..., or handing back the request, MPI_Ibcast ...); a persistent call (MPI_Bcast_init ...)
 * keeps the plan in its request and builds a schedule from it at every MPI_Start. func names the API
 * function for error messages. Only mpi/ includes this. */
#ifndef AXON_MPI_COLL_H
#define AXON_MPI_COLL_H

/* First: it includes mpi.h with default visibility, which the API's definitions need to be exported. */
#include "mpi/axon_mpi.h"

#include "coll/coll.h"

/* ---- argument checks shared by every collective call --------------------------------------------- */

/* Intracommunicators and intercommunicators alike (what each argument means on an intercommunicator is
 * for the call to check). */
#define AXON_COLL_CHECK_COMM(func, comm, c)                                                          \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
    } while (0)

/* The calls that the standard defines on intracommunicators only (scans, neighborhood collectives). */
#define AXON_COLL_CHECK_INTRACOMM(func, c)                                                           \
    do {                                                                                             \
        if ((c)->is_inter)                                                                           \
            return axon_mpi_error(c, func, MPI_ERR_COMM, "not defined on an intercommunicator");     \
    } while (0)

#define AXON_COLL_CHECK_COUNT(func, c, count, what)                                                  \
    do {                                                                                             \
        if ((count) < 0)                                                                             \
            return axon_mpi_error(c, func, MPI_ERR_COUNT, "%s %lld is negative", what, (long long)(count)); \
    } while (0)

#define AXON_COLL_CHECK_TYPE(func, c, type, dt, what)                                                \
    do {                                                                                             \
        if (!axon_mpi_datatype_get(type, &(dt)))                                                     \
            return axon_mpi_error(c, func, MPI_ERR_TYPE, "%s %s is not a valid committed datatype", \
                                  what, AXON_MPI_HANDLE_NAME((type)));                                           \
    } while (0)

/* A rooted call's root: a rank of the communicator; on an intercommunicator MPI_ROOT (the root itself),
 * MPI_PROC_NULL (the rest of the root's group) or the root's rank in the remote group. */
#define AXON_COLL_CHECK_ROOT(func, c, root)                                                          \
    do {                                                                                             \
        if ((c)->is_inter ? (root) != MPI_ROOT && (root) != MPI_PROC_NULL &&                         \
                                ((root) < 0 || (root) >= (c)->remote_size)                           \
                          : (root) < 0 || (root) >= (c)->size)                                       \
            return axon_mpi_error(c, func, MPI_ERR_ROOT, "root %d is not a rank of the %scommunicator (size %d)", \
                                  (root), (c)->is_inter ? "remote group of the inter" : "",          \
                                  (c)->is_inter ? (c)->remote_size : (c)->size);                     \
    } while (0)

/* Whether the caller is the root of a rooted call. */
static inline bool axon_coll_is_root(const struct axon_comm *c, int root)
{
    return c->is_inter ? root == MPI_ROOT : c->rank == root;
}

/* The ranks that a call's per-rank blocks stand for: the remote group's on an intercommunicator. */
static inline int axon_coll_peers(const struct axon_comm *c)
{
    return c->is_inter ? c->remote_size : c->size;
}

/* MPI_IN_PLACE, which no collective takes on an intercommunicator. */
#define AXON_COLL_CHECK_NOT_IN_PLACE(func, c, buf)                                                   \
    do {                                                                                             \
        if ((c)->is_inter && (buf) == MPI_IN_PLACE)                                                  \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE on an intercommunicator");  \
    } while (0)

#define AXON_COLL_CHECK_ARRAY(func, c, array, name)                                                  \
    do {                                                                                             \
        if (!(array))                                                                                \
            return axon_mpi_error(c, func, MPI_ERR_ARG, "%s is a NULL pointer", name);               \
    } while (0)

/* A NULL buffer for data that starts at the buffer (not MPI_BOTTOM with absolute addresses). */
static inline bool axon_coll_bad_buffer(const void *buf, int64_t count, const struct axon_dtype_layout *dt)
{
    return buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0;
}

#define AXON_COLL_CHECK_BUFFER(func, c, buf, count, dt, what)                                        \
    do {                                                                                             \
        if (axon_coll_bad_buffer(buf, count, &(dt)))                                                 \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "%s is NULL with count %lld", what, (long long)(count)); \
    } while (0)

#define AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, nonempty)                                   \
    do {                                                                                             \
        if ((nonempty) && (sendbuf) == (recvbuf) && (sendbuf) != NULL)                               \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER,                                           \
                                  "the send and receive buffers are the same (use MPI_IN_PLACE)");   \
    } while (0)

/* The request pointer that every nonblocking and persistent collective takes. */
#define AXON_ICOLL_CHECK_REQUEST(func, comm, request)                                                \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        if (!(request))                                                                              \
            return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "request is a NULL pointer"); \
    } while (0)

/* ---- the count and displacement arrays of the v and w forms --------------------------------------- */

/* One such array as the caller gave it: int entries from the int calls, 64-bit ones (MPI_Count, MPI_Aint)
 * from the large-count (_c) calls. The plans read each entry once, as they fill the per-rank blocks
 * (whose counts are int64_t), so neither kind is converted or copied up front, and the int calls pay one
 * predictable branch per entry. p NULL: the argument was NULL (judged by the plan, as before). */
struct axon_mpi_array {
    const void *p;
    bool wide;
};

_Static_assert(sizeof(MPI_Count) == sizeof(int64_t) && sizeof(MPI_Aint) == sizeof(int64_t),
               "the _c calls' arrays are read as int64_t");

#define AXON_MPI_INTS(a) ((struct axon_mpi_array){(a), false})
#define AXON_MPI_WIDE(a) ((struct axon_mpi_array){(a), true})
#define AXON_MPI_NO_ARRAY ((struct axon_mpi_array){NULL, false})

static inline int64_t axon_mpi_array_get(struct axon_mpi_array a, int j)
{
    return a.wide ? ((const int64_t *)a.p)[j] : ((const int *)a.p)[j];
}

/* ---- plans ---------------------------------------------------------------------------------------- */

/* kind: what the reduction is. */
enum axon_mpi_red_kind { AXON_MPI_RED_REDUCE, AXON_MPI_RED_ALLREDUCE, AXON_MPI_RED_SCATTER_BLOCK,
                         AXON_MPI_RED_SCATTER, AXON_MPI_RED_SCAN, AXON_MPI_RED_EXSCAN };

enum axon_mpi_coll_kind {
    AXON_MPI_COLL_BARRIER,
    AXON_MPI_COLL_BCAST,     /* mine: the buffer */
    AXON_MPI_COLL_GATHER,    /* mine (unless in_place) to the root's rblocks (nrecv, the root only) */
    AXON_MPI_COLL_SCATTER,   /* the root's sblocks (nsend, the root only) to mine (unless in_place) */
    AXON_MPI_COLL_ALLGATHER, /* mine (unless in_place) to everyone's rblocks */
    AXON_MPI_COLL_ALLTOALL,  /* sblocks (unless in_place) to rblocks */
    AXON_MPI_COLL_REDUCTION, /* red, in, out, count or counts, datatype, dt, op */
    AXON_MPI_COLL_NEIGHBOR,  /* sblocks to ranks speers, rblocks from ranks rpeers, in posting order */
};

struct axon_mpi_coll_plan {
    enum axon_mpi_coll_kind kind;
    struct axon_comm *c;
    int root;
    bool in_place;
    unsigned have;  /* AXON_COLL_NEEDS_UNIFORM for the equal-block forms (coll/axon_coll_select.h) */
    struct axon_coll_block mine;
    int nsend, nrecv;
    struct axon_coll_block *sblocks, *rblocks;
    int *speers, *rpeers;
    enum axon_mpi_red_kind red;
    const void *in;
    void *out;
    int64_t count;
    int64_t *counts;
    MPI_Datatype datatype;
    struct axon_dtype_layout dt;
    struct axon_coll_op *op;
    bool kept; /* a persistent request's: holds references on its layouts and operation */
    bool spare_blocks; /* sblocks and rblocks came from the communicator's spares (axon_coll_blocks_take) */
    /* A persistent request's collective sequence number, taken at its _init call: every MPI_Start of it
     * runs under that tag, so that the members may start their persistent collectives in different
     * orders (MPI 4: they match by the order of the _init calls). */
    bool seq_fixed;
    unsigned seq;
    /* A reduction whose buffers on this rank are all on one GPU, run there (axon_mpi_coll_gpu_choose):
     * scratch on the GPU, reductions by the kernel, nothing staged through the host. */
    bool on_gpu;
    bool all_device; /* the members agreed that all their buffers are GPU memory (blocking reductions) */
    int gpu_device, gpu_kernel;
};

/* Builds the schedule of a plan, as the next collective on its communicator (a new sequence number). */
int axon_mpi_coll_plan_sched(const struct axon_mpi_coll_plan *p, struct axon_coll_sched **s);
/* Frees what the plan holds (not the plan itself). */
void axon_mpi_coll_plan_fini(struct axon_mpi_coll_plan *p);
/* Runs a plan now: blocking when request is NULL, else handing back the collective's request. Consumes
 * the plan (frees what it holds), whatever happens. */
int axon_mpi_coll_plan_run(const char *func, struct axon_mpi_coll_plan *p, MPI_Request *request);
/* A copy of p in memory of its own that holds references on its layouts and operation (kept), for a
 * plan that outlives its call (a persistent request's, a nonblocking call's that agrees first); free it
 * with axon_mpi_coll_plan_fini and free. p's arrays move to it. NULL when out of memory (p finished). */
struct axon_mpi_coll_plan *axon_mpi_coll_plan_keep(struct axon_mpi_coll_plan *p);
/* A persistent collective's _init (nonlocal, ordered with the communicator's other collectives, MPI 4.1
 * section 6.13): the members agree once, as a blocking call of that size would, whether every buffer is
 * GPU memory (p->all_device, for every start: the buffers stay those of the _init). */
int axon_mpi_coll_plan_agree_persistent(struct axon_mpi_coll_plan *p);

/* The plans of the calls: the checks of the standard, each error raised on the communicator. On
 * success the caller owns the plan. */
int axon_mpi_barrier_plan(const char *func, MPI_Comm comm, struct axon_mpi_coll_plan *p);
int axon_mpi_bcast_plan(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                        struct axon_mpi_coll_plan *p);
/* Gather and gatherv: recvcounts without an array (AXON_MPI_NO_ARRAY) means recvcount for every rank,
 * displs without one the blocks in order. */
int axon_mpi_gather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_mpi_coll_plan *p);
int axon_mpi_scatter_plan(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                          struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_mpi_coll_plan *p);
int axon_mpi_allgather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts,
                            struct axon_mpi_array displs, MPI_Datatype recvtype, MPI_Comm comm,
                            struct axon_mpi_coll_plan *p);
/* kind: 0 alltoall (counts uniform), 1 alltoallv (displacements in extents), 2 alltoallw (byte
 * displacements, a type per rank). */
int axon_mpi_alltoall_plan(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                           struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf, int64_t recvcount,
                           struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                           const MPI_Datatype recvtypes[], MPI_Comm comm, struct axon_mpi_coll_plan *p);
int axon_mpi_reduction_plan(const char *func, enum axon_mpi_red_kind kind, const void *sendbuf, void *recvbuf,
                            int64_t count, struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, struct axon_mpi_coll_plan *p);

/* Plan and run in one call (the blocking and nonblocking forms): request NULL blocks. */
int axon_mpi_barrier(const char *func, MPI_Comm comm, MPI_Request *request);
int axon_mpi_bcast(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request);
int axon_mpi_gather(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int axon_mpi_scatter(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                     struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int axon_mpi_allgather(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int axon_mpi_alltoall(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                      struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls, const MPI_Datatype sendtypes[],
                      void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request);
int axon_mpi_reduction(const char *func, enum axon_mpi_red_kind kind, const void *sendbuf, void *recvbuf, int64_t count,
                       struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       MPI_Request *request);

/* ---- the three forms of a large-count (_c) call (axon_mpi_bigcount_coll.c) ------------------------- */

/* The _c calls of a family (MPI_Bcast_c, MPI_Ibcast_c, MPI_Bcast_init_c) share one function that makes
 * the plan; what differs is this. */
enum axon_mpi_coll_form_kind { AXON_MPI_COLL_BLOCKING, AXON_MPI_COLL_NONBLOCKING, AXON_MPI_COLL_PERSISTENT };

struct axon_mpi_coll_form {
    const char *func; /* the call's name, for its errors */
    enum axon_mpi_coll_form_kind kind;
    MPI_Info info;        /* the persistent form's */
    MPI_Request *request; /* the nonblocking and persistent forms' */
};

static inline struct axon_mpi_coll_form axon_mpi_coll_blocking(const char *func)
{
    return (struct axon_mpi_coll_form){func, AXON_MPI_COLL_BLOCKING, MPI_INFO_NULL, NULL};
}

static inline struct axon_mpi_coll_form axon_mpi_coll_nonblocking(const char *func, MPI_Request *request)
{
    return (struct axon_mpi_coll_form){func, AXON_MPI_COLL_NONBLOCKING, MPI_INFO_NULL, request};
}

static inline struct axon_mpi_coll_form axon_mpi_coll_persistent(const char *func, MPI_Info info,
                                                                 MPI_Request *request)
{
    return (struct axon_mpi_coll_form){func, AXON_MPI_COLL_PERSISTENT, info, request};
}

/* The form's own checks, made before the collective's as the int calls make them: MPI active, the
 * request pointer, the info object. */
int axon_mpi_coll_form_check(const struct axon_mpi_coll_form *f, MPI_Comm comm);
/* After the plan was made with result rc: runs it (blocking, or handing back the request) or keeps it in
 * a persistent request; rc when the plan failed. Consumes the plan. */
int axon_mpi_coll_form_run(const struct axon_mpi_coll_form *f, int rc, struct axon_mpi_coll_plan *p);

/* ---- GPU buffers, staged through host memory (axon_mpi_coll_stage.c) ------------------------------ */

/* Only while CUDA support is on (the callers test axon_cuda_enabled() first, so host-only runs pay one
 * load). */
struct axon_mpi_coll_stage;
/* When some buffer that plan p touches is GPU memory: *st gets host copies of them, filled with what
 * the call reads, and a copy of the plan that names them instead (axon_mpi_coll_stage_plan); NULL when
 * every buffer is host memory (run p as it is). p is not changed. */
int axon_mpi_coll_stage_begin(struct axon_mpi_coll_plan *p, struct axon_mpi_coll_stage **st);
const struct axon_mpi_coll_plan *axon_mpi_coll_stage_plan(const struct axon_mpi_coll_stage *st);
/* The schedule built from the staged plan ends by copying back and freeing st (its end hook); what the
 * plan held is no longer needed. If the schedule then never starts, axon_mpi_coll_stage_abort(st). */
void axon_mpi_coll_stage_attach(struct axon_mpi_coll_stage *st, struct axon_coll_sched *s);
/* The call has ended with err: the copies it wrote go to the GPU and st is freed. Returns err, else the
 * error of a copy (either way). */
int axon_mpi_coll_stage_end(struct axon_mpi_coll_stage *st, int err);
/* Frees st without copying anything back (NULL is fine). */
void axon_mpi_coll_stage_abort(struct axon_mpi_coll_stage *st);
/* Sets p->on_gpu when p is a reduction (not on an intercommunicator) whose operation has a GPU kernel
 * for its datatype, whose layout is contiguous, and every buffer of which this rank touches lies on one
 * GPU: its schedule then keeps the data there (coll's GPU schedules) instead of staging. Other members
 * may decide otherwise for their own buffers: the messages are the same. */
int axon_mpi_coll_gpu_choose(struct axon_mpi_coll_plan *p);
/* What axon_mpi_coll_gpu_prepare does when the inline checks cannot call every buffer host memory. */
int axon_mpi_coll_gpu_examine(struct axon_mpi_coll_plan *p, bool shm, struct axon_mpi_coll_stage **st);

/* Whether count elements of dt at buf are surely host memory by the inline checks alone: contiguous data
 * in the heap, on the caller's stack or on a page known to be host (or no data). False only means "look
 * closer". */
static inline bool axon_mpi_coll_quick_host_block(const void *buf, int64_t count, const struct axon_dtype_layout *dt)
{
    return count <= 0 || dt->size == 0 || axon_pt2pt_data_surely_host(buf, dt);
}

/* Whether every buffer the call touches on this rank is surely host memory without the walks: the small
 * calls of a CUDA-aware program (a `double` on the stack, a vector from malloc), where the two walks of
 * the plan (the GPU way's check and the staging's) cost a third of an 8-byte allreduce. Covers the
 * rooted and reduction calls and the equal-block forms, whose sides are one buffer each (their first
 * block stands for the rest, as in axon_stage_collect of axon_mpi_coll_stage.c); the others take the walks. */
static inline bool axon_mpi_coll_quick_host(const struct axon_mpi_coll_plan *p)
{
    switch (p->kind) {
    case AXON_MPI_COLL_BARRIER:
        return true;
    case AXON_MPI_COLL_BCAST:
        return axon_mpi_coll_quick_host_block(p->mine.buf, p->mine.count, &p->mine.dt);
    case AXON_MPI_COLL_REDUCTION: {
        if (p->red == AXON_MPI_RED_SCATTER || p->red == AXON_MPI_RED_SCATTER_BLOCK)
            return false;
        /* The roles of the staging's walk: a reduce's non-root has no result buffer (often NULL). */
        bool reduce = p->red == AXON_MPI_RED_REDUCE;
        bool has_result = !reduce || axon_coll_is_root(p->c, p->root);
        bool contributes = !(p->c->is_inter && reduce && (p->root == MPI_ROOT || p->root == MPI_PROC_NULL));
        return (!contributes || axon_mpi_coll_quick_host_block(p->in, p->count, &p->dt)) &&
               (!has_result || axon_mpi_coll_quick_host_block(p->out, p->count, &p->dt));
    }
    case AXON_MPI_COLL_GATHER:
    case AXON_MPI_COLL_ALLGATHER:
    case AXON_MPI_COLL_SCATTER:
    case AXON_MPI_COLL_ALLTOALL:
        if (!(p->have & AXON_COLL_NEEDS_UNIFORM))
            return false;
        if (!axon_mpi_coll_quick_host_block(p->mine.buf, p->mine.count, &p->mine.dt))
            return false;
        if (p->nsend > 0 &&
            !axon_mpi_coll_quick_host_block(p->sblocks[0].buf, p->sblocks[0].count, &p->sblocks[0].dt))
            return false;
        return p->nrecv == 0 ||
               axon_mpi_coll_quick_host_block(p->rblocks[0].buf, p->rblocks[0].count, &p->rblocks[0].dt);
    case AXON_MPI_COLL_NEIGHBOR:
        break;
    }
    return false;
}

/* Everything a call does about GPU buffers before it runs: the GPU-resident way when it applies (not for
 * a call that runs through the node's shared memory, shm), else staging (*st, as
 * axon_mpi_coll_stage_begin); nothing when the inline checks call every buffer host memory. Only while
 * CUDA support is on. */
static inline int axon_mpi_coll_gpu_prepare(struct axon_mpi_coll_plan *p, bool shm, struct axon_mpi_coll_stage **st)
{
    if (axon_mpi_coll_quick_host(p)) {
        *st = NULL;
        p->on_gpu = false;
        return MPI_SUCCESS;
    }
    return axon_mpi_coll_gpu_examine(p, shm, st);
}

/* MPI_Reduce_local on the GPU, when its result buffer is GPU memory and the operation has a kernel for
 * the (contiguous) datatype: an input elsewhere is copied to the result's GPU first. *done says whether
 * it ran (else the caller stages). */
int axon_mpi_coll_gpu_local(const struct axon_coll_op *op, MPI_Datatype datatype, const struct axon_dtype_layout *dt,
                            const void *in, void *inout, int64_t count, bool *done);
/* MPI_Reduce_local's buffers: count elements of dt at *in (read) and *inout (read and written); GPU
 * ones are replaced by host copies, and *st is set (end it with axon_mpi_coll_stage_end), else NULL. */
int axon_mpi_coll_stage_local(const void **in, void **inout, int64_t count, const struct axon_dtype_layout *dt,
                              struct axon_mpi_coll_stage **st);

/* Checks that op may reduce datatype (coll/axon_coll_op.h's table); if not, raises MPI_ERR_OP from func
 * on c (NULL: on no object) with the pair in words: "MPI_BAND is not defined on MPI_DOUBLE". */
int axon_mpi_op_check(struct axon_comm *c, const char *func, MPI_Op op, const struct axon_coll_op *o,
                      MPI_Datatype datatype, const struct axon_dtype_layout *dt);

/* ---- neighborhood collectives (axon_mpi_neighbor.c) ---------------------------------------------- */

enum axon_mpi_neighbor_form {
    AXON_MPI_NEIGHBOR_ALLGATHER,
    AXON_MPI_NEIGHBOR_ALLGATHERV,
    AXON_MPI_NEIGHBOR_ALLTOALL,
    AXON_MPI_NEIGHBOR_ALLTOALLV,
    AXON_MPI_NEIGHBOR_ALLTOALLW,
};

/* The arguments of any neighborhood collective, the unused ones left zero. Displacements are in
 * extents or, for the w form, in bytes (MPI_Aint in its int call too). */
struct axon_mpi_neighbor_args {
    enum axon_mpi_neighbor_form form;
    const void *sendbuf;
    int64_t sendcount;
    struct axon_mpi_array sendcounts, sdispls;
    MPI_Datatype sendtype;
    const MPI_Datatype *sendtypes;
    void *recvbuf;
    int64_t recvcount;
    struct axon_mpi_array recvcounts, rdispls;
    MPI_Datatype recvtype;
    const MPI_Datatype *recvtypes;
};

/* The arguments of each form, as the calls name them; ARRAY wraps their count arrays (and the v forms'
 * displacements): AXON_MPI_INTS in the int calls, AXON_MPI_WIDE in the _c calls. */
#define AXON_MPI_NEIGHBOR_ALLGATHER_ARGS(ARRAY)                                                      \
    {.form = AXON_MPI_NEIGHBOR_ALLGATHER, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype, \
     .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype}
#define AXON_MPI_NEIGHBOR_ALLGATHERV_ARGS(ARRAY)                                                     \
    {.form = AXON_MPI_NEIGHBOR_ALLGATHERV, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype, \
     .recvbuf = recvbuf, .recvcounts = ARRAY(recvcounts), .rdispls = ARRAY(displs), .recvtype = recvtype}
#define AXON_MPI_NEIGHBOR_ALLTOALL_ARGS(ARRAY)                                                       \
    {.form = AXON_MPI_NEIGHBOR_ALLTOALL, .sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype, \
     .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype}
#define AXON_MPI_NEIGHBOR_ALLTOALLV_ARGS(ARRAY)                                                      \
    {.form = AXON_MPI_NEIGHBOR_ALLTOALLV, .sendbuf = sendbuf, .sendcounts = ARRAY(sendcounts),        \
     .sdispls = ARRAY(sdispls), .sendtype = sendtype, .recvbuf = recvbuf, .recvcounts = ARRAY(recvcounts), \
     .rdispls = ARRAY(rdispls), .recvtype = recvtype}
#define AXON_MPI_NEIGHBOR_ALLTOALLW_ARGS(ARRAY)                                                      \
    {.form = AXON_MPI_NEIGHBOR_ALLTOALLW, .sendbuf = sendbuf, .sendcounts = ARRAY(sendcounts),        \
     .sdispls = AXON_MPI_WIDE(sdispls), .sendtypes = sendtypes, .recvbuf = recvbuf,                  \
     .recvcounts = ARRAY(recvcounts), .rdispls = AXON_MPI_WIDE(rdispls), .recvtypes = recvtypes}

/* The plan of a neighborhood collective on comm's topology (MPI_ERR_TOPOLOGY without one). */
int axon_mpi_neighbor_plan(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                           struct axon_mpi_coll_plan *p);
/* Plan and run: request NULL blocks. */
int axon_mpi_neighbor(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                      MPI_Request *request);

/* ---- persistent collectives (axon_mpi_coll_persist.c) --------------------------------------------- */

/* The checks of a persistent call's own arguments (info, request), before those of the collective. */
int axon_mpi_coll_persist_check(const char *func, MPI_Comm comm, MPI_Info info, MPI_Request *request);
/* Keeps the plan (consumed, whatever happens) in a new inactive persistent request. */
int axon_mpi_coll_persist_init(const char *func, struct axon_mpi_coll_plan *p, MPI_Request *request);
/* MPI_Start of a persistent collective request (persistent, inactive: checked by the caller). */
int axon_mpi_coll_persist_start(const char *func, struct axon_request *req);
/* MPI_Request_free of one: MPI_ERR_REQUEST (raised) while it is active. */
int axon_mpi_coll_persist_free(const char *func, struct axon_request *req);

#endif
