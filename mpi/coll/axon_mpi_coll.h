/* The collective calls' shared parts. Each call checks its arguments and turns them into a plan (what
 * to run: which collective, with the user's buffers as blocks, coll/axon_coll_plan.h), then hands the
 * plan to coll/, which decides how it runs: a blocking or nonblocking call runs it at once (blocking
 * when request is NULL, MPI_Bcast ..., or handing back the request, MPI_Ibcast ...); a persistent call
 * (MPI_Bcast_init ...) keeps it in its request, run afresh at every MPI_Start. func names the API
 * function for error messages, raised here on the communicator. Only mpi/ includes this. */
#ifndef AXON_MPI_COLL_H
#define AXON_MPI_COLL_H

/* First: it includes mpi.h with default visibility, which the API's definitions need to be exported. */
#include "mpi/axon_mpi.h"

#include "coll/axon_coll_plan.h"
#include "coll/coll.h"

#include <stddef.h>

/* ---- argument checks shared by every collective call --------------------------------------------- */

/* Intracommunicators and intercommunicators alike (what each argument means on an intercommunicator is
 * for the call to check). */
#define AXON_MPI_COLL_CHECK_COMM(func, comm, c)                                                          \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
    } while (0)

/* The calls that the standard defines on intracommunicators only (scans, neighborhood collectives). */
#define AXON_MPI_COLL_CHECK_INTRACOMM(func, c)                                                           \
    do {                                                                                             \
        if ((c)->is_inter)                                                                           \
            return axon_mpi_error(c, func, MPI_ERR_COMM, "not defined on an intercommunicator");     \
    } while (0)

#define AXON_MPI_COLL_CHECK_COUNT(func, c, count, what)                                                  \
    do {                                                                                             \
        if ((count) < 0)                                                                             \
            return axon_mpi_error(c, func, MPI_ERR_COUNT, "%s %lld is negative", what, (long long)(count)); \
    } while (0)

#define AXON_MPI_COLL_CHECK_TYPE(func, c, type, dt, what)                                                \
    do {                                                                                             \
        if (!axon_mpi_datatype_get(type, &(dt)))                                                     \
            return axon_mpi_error(c, func, MPI_ERR_TYPE, "%s %s is not a valid committed datatype", \
                                  what, AXON_MPI_HANDLE_NAME((type)));                                           \
    } while (0)

/* A rooted call's root: a rank of the communicator; on an intercommunicator MPI_ROOT (the root itself),
 * MPI_PROC_NULL (the rest of the root's group) or the root's rank in the remote group. */
#define AXON_MPI_COLL_CHECK_ROOT(func, c, root)                                                          \
    do {                                                                                             \
        if ((c)->is_inter ? (root) != MPI_ROOT && (root) != MPI_PROC_NULL &&                         \
                                ((root) < 0 || (root) >= (c)->remote_size)                           \
                          : (root) < 0 || (root) >= (c)->size)                                       \
            return axon_mpi_error(c, func, MPI_ERR_ROOT, "root %d is not a rank of the %scommunicator (size %d)", \
                                  (root), (c)->is_inter ? "remote group of the inter" : "",          \
                                  (c)->is_inter ? (c)->remote_size : (c)->size);                     \
    } while (0)

/* Whether the caller is the root of a rooted call. */
static inline bool axon_mpi_coll_is_root(const struct axon_comm *c, int root)
{
    return axon_coll_comm_is_root(&c->collectives, root);
}

/* The ranks that a call's per-rank blocks stand for: the remote group's on an intercommunicator. */
static inline int axon_mpi_coll_peers(const struct axon_comm *c)
{
    return axon_coll_comm_peers(&c->collectives);
}

/* MPI_IN_PLACE, which no collective takes on an intercommunicator. */
#define AXON_MPI_COLL_CHECK_NOT_IN_PLACE(func, c, buf)                                                   \
    do {                                                                                             \
        if ((c)->is_inter && (buf) == MPI_IN_PLACE)                                                  \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE on an intercommunicator");  \
    } while (0)

#define AXON_MPI_COLL_CHECK_ARRAY(func, c, array, name)                                                  \
    do {                                                                                             \
        if (!(array))                                                                                \
            return axon_mpi_error(c, func, MPI_ERR_ARG, "%s is a NULL pointer", name);               \
    } while (0)

/* A NULL buffer for data that starts at the buffer (not MPI_BOTTOM with absolute addresses). */
static inline bool axon_mpi_coll_bad_buffer(const void *buf, int64_t count, const struct axon_dtype_layout *dt)
{
    return buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0;
}

#define AXON_MPI_COLL_CHECK_BUFFER(func, c, buf, count, dt, what)                                        \
    do {                                                                                             \
        if (axon_mpi_coll_bad_buffer(buf, count, &(dt)))                                                 \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "%s is NULL with count %lld", what, (long long)(count)); \
    } while (0)

#define AXON_MPI_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, nonempty)                                   \
    do {                                                                                             \
        if ((nonempty) && (sendbuf) == (recvbuf) && (sendbuf) != NULL)                               \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER,                                           \
                                  "the send and receive buffers are the same (use MPI_IN_PLACE)");   \
    } while (0)

/* The request pointer that every nonblocking and persistent collective takes. */
#define AXON_MPI_ICOLL_CHECK_REQUEST(func, comm, request)                                                \
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

/* ---- plans (coll/axon_coll_plan.h) --------------------------------------------------------------- */

/* The communicator whose collectives' part cc is. */
static inline struct axon_comm *axon_mpi_coll_comm(const struct axon_coll_comm *cc)
{
    return (struct axon_comm *)((const char *)cc - offsetof(struct axon_comm, collectives));
}

/* Runs a plan now (axon_coll_plan_run): blocking when request is NULL, else handing back the
 * collective's request; an error is raised on the communicator from func. Consumes the plan. */
int axon_mpi_coll_plan_run(const char *func, struct axon_coll_plan *p, MPI_Request *request);

/* The plans of the calls: the checks of the standard, each error raised on the communicator. On
 * success the caller owns the plan. */
int axon_mpi_barrier_plan(const char *func, MPI_Comm comm, struct axon_coll_plan *p);
int axon_mpi_bcast_plan(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                        struct axon_coll_plan *p);
/* Gather and gatherv: recvcounts without an array (AXON_MPI_NO_ARRAY) means recvcount for every rank,
 * displs without one the blocks in order. */
int axon_mpi_gather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_coll_plan *p);
int axon_mpi_scatter_plan(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                          struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_coll_plan *p);
int axon_mpi_allgather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts,
                            struct axon_mpi_array displs, MPI_Datatype recvtype, MPI_Comm comm,
                            struct axon_coll_plan *p);
/* kind: 0 alltoall (counts uniform), 1 alltoallv (displacements in extents), 2 alltoallw (byte
 * displacements, a type per rank). */
int axon_mpi_alltoall_plan(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                           struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf, int64_t recvcount,
                           struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                           const MPI_Datatype recvtypes[], MPI_Comm comm, struct axon_coll_plan *p);
int axon_mpi_reduction_plan(const char *func, enum axon_coll_red_kind kind, const void *sendbuf, void *recvbuf,
                            int64_t count, struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, struct axon_coll_plan *p);

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
int axon_mpi_reduction(const char *func, enum axon_coll_red_kind kind, const void *sendbuf, void *recvbuf, int64_t count,
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
int axon_mpi_coll_form_run(const struct axon_mpi_coll_form *f, int rc, struct axon_coll_plan *p);

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
                           struct axon_coll_plan *p);
/* Plan and run: request NULL blocks. */
int axon_mpi_neighbor(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                      MPI_Request *request);

/* ---- persistent collectives (axon_mpi_coll_persist.c) --------------------------------------------- */

/* The checks of a persistent call's own arguments (info, request), before those of the collective. */
int axon_mpi_coll_persist_check(const char *func, MPI_Comm comm, MPI_Info info, MPI_Request *request);
/* Keeps the plan (consumed, whatever happens) in a new inactive persistent request. */
int axon_mpi_coll_persist_init(const char *func, struct axon_coll_plan *p, MPI_Request *request);
/* MPI_Start of a persistent collective request (persistent, inactive: checked by the caller). */
int axon_mpi_coll_persist_start(const char *func, struct axon_request *req);
/* MPI_Request_free of one: MPI_ERR_REQUEST (raised) while it is active. */
int axon_mpi_coll_persist_free(const char *func, struct axon_request *req);

#endif
