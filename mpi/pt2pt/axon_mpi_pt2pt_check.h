/* The argument checks that the point-to-point calls share: count, datatype, buffer, peer rank and tag.
 * Each returns through the communicator's error handler with the class the standard names. */
#ifndef AXON_MPI_PT2PT_CHECK_H
#define AXON_MPI_PT2PT_CHECK_H

#include "mpi/axon_mpi.h"

#include <limits.h>

#define AXON_TAG_UB INT_MAX

/* dt_out gets the datatype's layout. count is an int64_t: the int calls widen theirs, the large-count
 * (_c) calls pass theirs as they are, and both share everything after. A NULL buffer is MPI_BOTTOM when
 * the type's data starts elsewhere (a type built from absolute addresses). The message's bytes must fit
 * in an int64_t (one multiplication that sets a flag: the engine multiplies count by size everywhere).
 * MPI_DATATYPE_NULL is accepted when the peer is MPI_PROC_NULL or the count is 0 (nothing is read or
 * written, as MPICH allows, and its tests use: part/nonblocking_pready's zero-byte handshake); that test
 * sits behind the failed lookup, so a valid type pays nothing for it. */
#define AXON_MPI_CHECK_BUFFER(func, c, buf, count, datatype, dt_out, peer)                           \
    do {                                                                                             \
        if ((count) < 0)                                                                             \
            return axon_mpi_error(c, func, MPI_ERR_COUNT, "count %lld is negative", (long long)(count)); \
        if (!axon_mpi_datatype_get(datatype, &(dt_out))) {                                           \
            if ((datatype) != MPI_DATATYPE_NULL || ((peer) != MPI_PROC_NULL && (count) != 0))        \
                return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME((datatype))); \
            (dt_out) = axon_mpi_layout_nothing;                                                      \
        }                                                                                            \
        int64_t bytes_;                                                                              \
        if (__builtin_mul_overflow((int64_t)(count), (dt_out).size, &bytes_))                        \
            return axon_mpi_error(c, func, MPI_ERR_COUNT, "count %lld of %lld-byte elements is more than " \
                                  "2^63 bytes", (long long)(count), (long long)(dt_out).size);       \
        if ((buf) == NULL && (count) > 0 && (dt_out).size > 0 && (dt_out).true_lb == 0)             \
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "buffer is NULL with count %lld",         \
                                  (long long)(count));                                               \
    } while (0)

/* The layout of MPI_DATATYPE_NULL towards MPI_PROC_NULL: no bytes. */
static const struct axon_dtype_layout axon_mpi_layout_nothing = {.contig = true, .basic = MPI_DATATYPE_NULL};

/* Peers are ranks of the engine's view: the remote group's on an intercommunicator. */
#define AXON_MPI_CHECK_DEST(func, c, dest)                                                           \
    do {                                                                                             \
        if ((dest) != MPI_PROC_NULL && ((dest) < 0 || (dest) >= (c)->pt2pt.size))                   \
            return axon_mpi_error(c, func, MPI_ERR_RANK, "rank %d is not in the communicator (size %d)", \
                                  (dest), (c)->pt2pt.size);                                          \
    } while (0)

#define AXON_MPI_CHECK_SOURCE(func, c, source)                                                       \
    do {                                                                                             \
        if ((source) != MPI_ANY_SOURCE && (source) != MPI_PROC_NULL &&                               \
            ((source) < 0 || (source) >= (c)->pt2pt.size))                                           \
            return axon_mpi_error(c, func, MPI_ERR_RANK, "rank %d is not in the communicator (size %d)", \
                                  (source), (c)->pt2pt.size);                                        \
    } while (0)

#define AXON_MPI_CHECK_SEND_TAG(func, c, tag)                                                        \
    do {                                                                                             \
        if ((tag) < 0)                                                                               \
            return axon_mpi_error(c, func, MPI_ERR_TAG, "tag %d is negative", (tag));                \
    } while (0)

#define AXON_MPI_CHECK_RECV_TAG(func, c, tag)                                                        \
    do {                                                                                             \
        if ((tag) < 0 && (tag) != MPI_ANY_TAG)                                                       \
            return axon_mpi_error(c, func, MPI_ERR_TAG, "tag %d is negative and not MPI_ANY_TAG", (tag)); \
    } while (0)

/* Everything a send checks, from MPI being up to the tag: c gets the communicator, dt_out the layout. */
#define AXON_MPI_CHECK_SEND(func, comm, c, buf, count, datatype, dt_out, dest, tag)                  \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        AXON_MPI_CHECK_BUFFER(func, c, buf, count, datatype, dt_out, dest);                         \
        AXON_MPI_CHECK_DEST(func, c, dest);                                                          \
        AXON_MPI_CHECK_SEND_TAG(func, c, tag);                                                       \
    } while (0)

/* Everything a receive checks: c gets the communicator, dt_out the layout. */
#define AXON_MPI_CHECK_RECV(func, comm, c, buf, count, datatype, dt_out, source, tag)                \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        AXON_MPI_CHECK_BUFFER(func, c, buf, count, datatype, dt_out, source);                       \
        AXON_MPI_CHECK_SOURCE(func, c, source);                                                      \
        AXON_MPI_CHECK_RECV_TAG(func, c, tag);                                                       \
    } while (0)

/* Everything a send-receive with two buffers checks (MPI_Sendrecv, MPI_Isendrecv), in one order. */
#define AXON_MPI_CHECK_SENDRECV(func, comm, c, sendbuf, sendcount, sendtype, sdt, dest, sendtag, recvbuf,  \
                                recvcount, recvtype, rdt, source, recvtag)                           \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        AXON_MPI_CHECK_BUFFER(func, c, sendbuf, sendcount, sendtype, sdt, dest);                     \
        AXON_MPI_CHECK_BUFFER(func, c, recvbuf, recvcount, recvtype, rdt, source);                   \
        AXON_MPI_CHECK_DEST(func, c, dest);                                                          \
        AXON_MPI_CHECK_SEND_TAG(func, c, sendtag);                                                   \
        AXON_MPI_CHECK_SOURCE(func, c, source);                                                      \
        AXON_MPI_CHECK_RECV_TAG(func, c, recvtag);                                                   \
    } while (0)

/* Everything a send-receive in place checks (MPI_Sendrecv_replace, MPI_Isendrecv_replace): its one type
 * may be MPI_DATATYPE_NULL only when both peers are MPI_PROC_NULL. */
#define AXON_MPI_CHECK_SENDRECV_REPLACE(func, comm, c, buf, count, datatype, dt, dest, sendtag, source, recvtag) \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        AXON_MPI_CHECK_BUFFER(func, c, buf, count, datatype, dt,                                     \
                              (dest) == MPI_PROC_NULL ? (source) : (dest));                         \
        AXON_MPI_CHECK_DEST(func, c, dest);                                                          \
        AXON_MPI_CHECK_SEND_TAG(func, c, sendtag);                                                   \
        AXON_MPI_CHECK_SOURCE(func, c, source);                                                      \
        AXON_MPI_CHECK_RECV_TAG(func, c, recvtag);                                                   \
    } while (0)

/* The packed copy of count elements of dt at buf (bytes of them; 0 gives an empty copy): the outgoing
 * data of a send-receive in place, which must not change while the incoming message lands in buf.
 * NULL when out of memory; the caller frees it. */
void *axon_mpi_packed_copy(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int64_t bytes);

#endif
