/* Internal header of the large-count (_c) calls that narrow (axon_mpi_bigcount*.c): the narrowing of their
 * MPI_Count scalars and MPI_Count/MPI_Aint arrays to the int arguments of the int calls they delegate to.
 *
 * The collectives (and MPI_Reduce_local_c, MPI_Buffer_attach_c, the external32 calls) take int counts at
 * the API, so such a _c call is its int twin whenever every value fits in an int; a value that does not
 * is MPI_ERR_COUNT, raised on the call's communicator (MPI_COMM_WORLD's handler for calls without one),
 * with a message naming the argument. Arrays are converted into temporaries freed at axon_bigcount_end:
 * the int calls, nonblocking and persistent ones included, copy what they need into their schedules and
 * plans before they return. The point-to-point and datatype _c calls do not narrow: each shares one
 * function taking 64-bit counts with its int call, in that call's file. */
#ifndef AXON_MPI_BIGCOUNT_H
#define AXON_MPI_BIGCOUNT_H

#include "mpi/axon_mpi.h"

/* Which entries the count and displacement arrays of a call hold. */
enum axon_bigcount_mode {
    AXON_BIGCOUNT_NONE,      /* no arrays sized by the communicator */
    AXON_BIGCOUNT_GROUP,     /* both sides: the group data goes to and comes from (the remote one of an
                              * intercommunicator) */
    AXON_BIGCOUNT_LOCAL,     /* receive side: the local group (MPI_Reduce_scatter) */
    AXON_BIGCOUNT_ROOT_SEND, /* send side, at the root only (MPI_Scatterv) */
    AXON_BIGCOUNT_ROOT_RECV, /* receive side, at the root only (MPI_Gatherv) */
    AXON_BIGCOUNT_NEIGHBOR,  /* send side: the out-degree, receive side: the in-degree */
};

#define AXON_BIGCOUNT_MAX_TEMP 8

struct axon_bigcount {
    const char *func;
    MPI_Comm comm;
    int nsend, nrecv; /* entries of the send and receive arrays; 0 where they are not read */
    int ntemp;
    void *temp[AXON_BIGCOUNT_MAX_TEMP];
};

/* Checks that MPI is active and, for the modes with arrays, the communicator (MPI_ERR_COMM), and sizes
 * the arrays. root is the call's root argument (ignored by the other modes). */
int axon_bigcount_begin(struct axon_bigcount *bc, const char *func, MPI_Comm comm, enum axon_bigcount_mode mode,
                        int root);
/* value as an int, or MPI_ERR_COUNT (raised) when it does not fit. */
int axon_bigcount_int(struct axon_bigcount *bc, const char *what, MPI_Count value, int *out);
/* n entries as a temporary int array (NULL stays NULL: the int call judges it); MPI_ERR_COUNT as above. */
int axon_bigcount_ints(struct axon_bigcount *bc, const char *what, const MPI_Count *values, int n, const int **out);
int axon_bigcount_displs(struct axon_bigcount *bc, const char *what, const MPI_Aint *values, int n,
                         const int **out);
/* Frees the temporaries. */
void axon_bigcount_end(struct axon_bigcount *bc);

/* The whole narrowing of a call whose one large value is a scalar (begin, int and end in one, with no
 * temporaries to keep): value as an int, or MPI_ERR_COUNT raised for func. */
int axon_bigcount_scalar(const char *func, MPI_Comm comm, const char *what, MPI_Count value, int *out);

/* ---- the three forms of a collective ----------------------------------------------------------------
 * A collective's blocking, nonblocking (MPI_I..._c) and persistent (..._init_c) calls narrow the same
 * arguments and differ only in the int twin they end in and its trailing (request) or (info, request).
 * So each family narrows in one function, handed the twins and an axon_bigcount_call that says which
 * form it serves. */

enum axon_bigcount_form { AXON_BIGCOUNT_BLOCKING, AXON_BIGCOUNT_NONBLOCKING, AXON_BIGCOUNT_PERSISTENT };

struct axon_bigcount_call {
    const char *func; /* the _c call's name, for its errors */
    enum axon_bigcount_form form;
    MPI_Info info;        /* the persistent form's */
    MPI_Request *request; /* the nonblocking and persistent forms' */
};

static inline struct axon_bigcount_call axon_bigcount_blocking(const char *func)
{
    return (struct axon_bigcount_call){func, AXON_BIGCOUNT_BLOCKING, MPI_INFO_NULL, NULL};
}

static inline struct axon_bigcount_call axon_bigcount_nonblocking(const char *func, MPI_Request *request)
{
    return (struct axon_bigcount_call){func, AXON_BIGCOUNT_NONBLOCKING, MPI_INFO_NULL, request};
}

static inline struct axon_bigcount_call axon_bigcount_persistent(const char *func, MPI_Info info,
                                                                 MPI_Request *request)
{
    return (struct axon_bigcount_call){func, AXON_BIGCOUNT_PERSISTENT, info, request};
}

/* The type of a family's int twins, given the blocking call's parameters: the other two take the same
 * followed by (request) and (info, request). */
#define AXON_BIGCOUNT_TWINS(...)                                                                            \
    struct {                                                                                                 \
        int (*blocking)(__VA_ARGS__);                                                                        \
        int (*nonblocking)(__VA_ARGS__, MPI_Request *);                                                      \
        int (*persistent)(__VA_ARGS__, MPI_Info, MPI_Request *);                                             \
    }

/* Calls the twin of call's form with the narrowed arguments (those of the blocking call). */
#define AXON_BIGCOUNT_TWIN(twins, call, ...)                                                                \
    ((call).form == AXON_BIGCOUNT_BLOCKING      ? (twins)->blocking(__VA_ARGS__)                             \
     : (call).form == AXON_BIGCOUNT_NONBLOCKING ? (twins)->nonblocking(__VA_ARGS__, (call).request)          \
                                                : (twins)->persistent(__VA_ARGS__, (call).info, (call).request))

/* The shapes the collectives share with the neighborhood collectives (axon_mpi_bigcount_coll.c): a send
 * and a receive count (MPI_Allgather, MPI_Alltoall), a send count and receive counts and displacements
 * (MPI_Allgatherv), counts and displacements on both sides (MPI_Alltoallv). mode sizes the arrays:
 * AXON_BIGCOUNT_GROUP or AXON_BIGCOUNT_NEIGHBOR. */
typedef AXON_BIGCOUNT_TWINS(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm)
    axon_bigcount_allgather_twins;
typedef AXON_BIGCOUNT_TWINS(const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype,
                            MPI_Comm) axon_bigcount_allgatherv_twins;
typedef AXON_BIGCOUNT_TWINS(const void *, const int *, const int *, MPI_Datatype, void *, const int *,
                            const int *, MPI_Datatype, MPI_Comm) axon_bigcount_alltoallv_twins;

int axon_bigcount_allgather(const axon_bigcount_allgather_twins *twins, struct axon_bigcount_call call,
                            const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int axon_bigcount_allgatherv(const axon_bigcount_allgatherv_twins *twins, struct axon_bigcount_call call,
                             enum axon_bigcount_mode mode, const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm);
int axon_bigcount_alltoallv(const axon_bigcount_alltoallv_twins *twins, struct axon_bigcount_call call,
                            enum axon_bigcount_mode mode, const void *sendbuf, const MPI_Count sendcounts[],
                            const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                            const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm);
/* One side's counts and displacements, n entries each (counts first: the order their errors are found). */
int axon_bigcount_v(struct axon_bigcount *bc, const char *counts_name, const MPI_Count *counts,
                    const char *displs_name, const MPI_Aint *displs, int n, const int **counts_out,
                    const int **displs_out);

#endif
