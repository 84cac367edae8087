/* Internal header of the buffered sends' buffers, between mpi/pt2pt/axon_mpi_bsend.c (the buffer objects, their
 * blocks, drains and flushes, and the process's buffer calls), mpi/pt2pt/axon_mpi_bsend_comm.c (a
 * communicator's buffer calls, MPI 4.1) and mpi/session/axon_mpi_session.c (a session's). A buffer is named by
 * its owner. Each function checks the arguments that every owner shares and raises its errors as func on
 * the owner (a communicator's handler, a session's, or for the process's buffer the handler of errors on
 * no object), so the three kinds of calls fail alike; the caller has checked the owner itself. */
#ifndef AXON_MPI_BSEND_H
#define AXON_MPI_BSEND_H

#include "mpi/axon_mpi.h"

#include <stdint.h>

struct axon_session;

/* Whose buffer (MPI 4.1 section 3.6): a communicator's, a session's, or (neither) the process's. */
struct axon_bsend_owner {
    struct axon_comm *comm;
    struct axon_session *session;
};

#define AXON_BSEND_PROCESS ((struct axon_bsend_owner){NULL, NULL})
#define AXON_BSEND_COMM(c) ((struct axon_bsend_owner){(c), NULL})
#define AXON_BSEND_SESSION(s) ((struct axon_bsend_owner){NULL, (s)})

/* Attaches buffer (size bytes; MPI_BUFFER_AUTOMATIC: the library allocates per message, size ignored) as
 * owner's buffer. MPI_ERR_ARG (negative size), MPI_ERR_BUFFER (NULL with a size, or one is attached
 * already), MPI_ERR_NO_MEM. */
int axon_bsend_attach_call(const char *func, struct axon_bsend_owner owner, void *buffer, int64_t size);
/* Waits until every message in owner's buffer has been sent, then detaches it: *(void **)buffer_addr and
 * *size get what attach got (MPI_BUFFER_AUTOMATIC and 0 for an automatic one; NULL and 0 when none is
 * attached, as MPI_Buffer_detach has always done here and MPICH does). A buffer larger than max_size (the
 * int forms pass INT_MAX) is MPI_ERR_COUNT and stays attached. */
int axon_bsend_detach_call(const char *func, struct axon_bsend_owner owner, void *buffer_addr, int64_t max_size,
                           int64_t *size);
/* Waits until the messages buffered so far in owner's buffer have been sent (none attached: at once). */
int axon_bsend_flush_call(struct axon_bsend_owner owner);
/* The nonblocking form: *request is a generalized request of the library's, completed by a progress hook. */
int axon_bsend_iflush_call(const char *func, struct axon_bsend_owner owner, MPI_Request *request);

/* The session's side (mpi/session/axon_mpi_session.c): where session s keeps its buffer; raises errclass from func
 * on s through its handler; the live session of a handle, or NULL. */
struct axon_bsend_buffer **axon_mpi_session_bsend_slot(struct axon_session *s);
int axon_mpi_session_raise(struct axon_session *s, const char *func, int errclass, const char *detail);
struct axon_session *axon_mpi_session_find(MPI_Session handle);
/* At MPI_Session_finalize: a buffer still attached to s is drained (as detach would) and forgotten. */
void axon_mpi_bsend_session_free(struct axon_session *s);

#endif
