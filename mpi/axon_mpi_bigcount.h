/* Internal header of the large-count (_c) calls of MPI 4 (axon_mpi_bigcount*.c): the narrowing of their
 * MPI_Count scalars and MPI_Count/MPI_Aint arrays to the int arguments of the int calls they delegate to.
 *
 * Axon's engines take int counts at the API, so a _c call is its int twin whenever every value fits in
 * an int; a value that does not is MPI_ERR_COUNT, raised on the call's communicator (MPI_COMM_WORLD's
 * handler for calls without one), with a message naming the argument. Arrays are converted into
 * temporaries freed at axon_bigcount_end: the int calls, nonblocking and persistent ones included, copy
 * what they need into their schedules and plans before they return. */
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

#endif
