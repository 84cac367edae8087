/* Internal header of the buffered sends' buffers, between mpi/axon_mpi_bsend.c (the buffer objects, their
 * blocks, drains and flushes, and the process's buffer calls) and mpi/axon_mpi_bsend_comm.c (a
 * communicator's buffer calls, MPI 4.1). A buffer is named by its owner: a communicator, or NULL for the
 * process's. Each function checks the arguments that every owner shares and raises its errors as func on
 * the owner (NULL: the handler of errors on no object), so the process's and a communicator's calls fail alike; the
 * caller has checked the communicator itself. */
#ifndef AXON_MPI_BSEND_H
#define AXON_MPI_BSEND_H

#include "mpi/axon_mpi.h"

#include <stdint.h>

/* Attaches buffer (size bytes; MPI_BUFFER_AUTOMATIC: the library allocates per message, size ignored) as
 * owner's buffer. MPI_ERR_ARG (negative size), MPI_ERR_BUFFER (NULL with a size, or one is attached
 * already), MPI_ERR_NO_MEM. */
int axon_bsend_attach_call(const char *func, struct axon_comm *owner, void *buffer, int64_t size);
/* Waits until every message in owner's buffer has been sent, then detaches it: *(void **)buffer_addr and
 * *size get what attach got (MPI_BUFFER_AUTOMATIC and 0 for an automatic one; NULL and 0 when none is
 * attached, as MPI_Buffer_detach has always done here and MPICH does). A buffer larger than max_size (the
 * int forms pass INT_MAX) is MPI_ERR_COUNT and stays attached. */
int axon_bsend_detach_call(const char *func, struct axon_comm *owner, void *buffer_addr, int64_t max_size,
                           int64_t *size);
/* Waits until the messages buffered so far in owner's buffer have been sent (none attached: at once). */
int axon_bsend_flush_call(struct axon_comm *owner);
/* The nonblocking form: *request is a generalized request of the library's, completed by a progress hook. */
int axon_bsend_iflush_call(const char *func, struct axon_comm *owner, MPI_Request *request);

#endif
