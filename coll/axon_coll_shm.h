/* Small blocking collectives through shared memory, for communicators whose members all run on one node.
 * A point-to-point message costs a transport's full latency; a barrier, a broadcast or a reduction of a
 * few kilobytes among the ranks of one node is faster as stores and loads in one shared segment: every
 * rank publishes its data in a slot of its own and raises its sequence flag, and the ranks that need
 * the data read the slots once the flags say so (MPICH's "release/gather" and Open MPI's coll/sm do the
 * same). Only blocking calls come here: the nonblocking ones run schedules (a blocking collective never
 * matches a nonblocking one, so the members of a communicator always agree on the path).
 *
 * Every member decides alike whether a call comes here: from the communicator, the operation, the
 * datatype argument (the same on all members for reductions) and the message size, which all agree on;
 * never from a member's own layout. */
#ifndef AXON_COLL_SHM_H
#define AXON_COLL_SHM_H

#include "coll/axon_coll_op.h"
#include "coll/coll.h"
#include "pt2pt/pt2pt.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

struct axon_coll_shm;

/* The segment of a communicator: made by rank 0, named to the others over pc (a collective on it, with
 * the tag of a collective sequence number) and mapped by all. *out is NULL, with MPI_SUCCESS, when some
 * member could not map it: every member then learns that and the communicator goes without. */
int axon_coll_shm_create(struct axon_pt2pt_comm *pc, int rank, int size, int tag, struct axon_coll_shm **out);
/* Whether a member of the communicator was found lost during a call (the job surviving lost ranks): the
 * call's result means nothing, and it fails with MPI_ERR_PROC_ABORTED; so does every later one. */
bool axon_coll_shm_broken(const struct axon_coll_shm *shm);
void axon_coll_shm_destroy(struct axon_coll_shm *shm);

/* Largest message (packed bytes) a call may move here; 0 when shared-memory collectives are off.
 * Reductions are the exception: any size, in chunks of a member's slot, axon_coll_shm_chunk() bytes at
 * least (larger for communicators of few members by default). */
int64_t axon_coll_shm_limit(void);
int64_t axon_coll_shm_chunk(void);
/* Whether a reduction of count elements of the datatype under op may run here (see the top). */
/* The bytes of each member's slot in the segment of a communicator of size members. */
int64_t axon_coll_shm_slot_for(int size);
bool axon_coll_shm_reduction_fits(const struct axon_coll_op *op, int64_t count, const struct axon_dtype_layout *dt);

/* A member's progress word in a two-member reduction that folds piece by piece: the use of the slots
 * (modulo 2^24) in the top bits, the bytes of it written below. */
#define AXON_COLL_SHM_READY_SHIFT 40
#define AXON_COLL_SHM_READY_USES ((uint64_t)1 << (64 - AXON_COLL_SHM_READY_SHIFT))

static inline uint64_t axon_coll_shm_ready_word(uint64_t u, int64_t done)
{
    return u << AXON_COLL_SHM_READY_SHIFT | (uint64_t)done;
}

/* Whether the word says that `done` bytes of use u are written: the writer is at u and past them, or
 * at a later use (it may fill the next slot while the reader folds this one). Compared modulo the uses
 * the word holds: compared whole, the word of use 2^24 - 1 read as far ahead of use 2^24's, and the
 * reader folded a slot before it was written. */
static inline bool axon_coll_shm_ready_covers(uint64_t word, uint64_t u, int64_t done)
{
    uint64_t ahead = ((word >> AXON_COLL_SHM_READY_SHIFT) - u) & (AXON_COLL_SHM_READY_USES - 1);
    if (ahead == 0)
        return (word & (((uint64_t)1 << AXON_COLL_SHM_READY_SHIFT) - 1)) >= (uint64_t)done;
    return ahead < AXON_COLL_SHM_READY_USES / 2;
}

int axon_coll_shm_barrier(struct axon_coll_shm *shm);
int axon_coll_shm_bcast(struct axon_coll_shm *shm, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                        int root);
/* MPI_Reduce to root, or MPI_Allreduce when root is -1; in is the contribution (the receive buffer for
 * MPI_IN_PLACE), out the result (read at the root only for a reduce). */
int axon_coll_shm_reduce(struct axon_coll_shm *shm, const void *in, void *out, int64_t count,
                         const struct axon_dtype_layout *dt, MPI_Datatype datatype, struct axon_coll_op *op, int root);
/* MPI_Reduce_scatter(_block): every member's whole contribution (the sum of counts elements; the
 * receive buffer for MPI_IN_PLACE) goes into its slot, and each folds its own block of all of them in
 * rank order into out; beyond a slot, in uses of a piece of every block. Needs an element within
 * 1/size of axon_coll_shm_slot_for(size). */
int axon_coll_shm_reduce_scatter(struct axon_coll_shm *shm, const void *in, void *out, const int64_t *counts,
                                 const struct axon_dtype_layout *dt, MPI_Datatype datatype, struct axon_coll_op *op);

/* The equal-block forms, blocks as in coll/coll.h (mine NULL: in place), bytes the size of one rank's
 * block. Gather to root, or allgather when root is -1: needs bytes within the limit. */
int axon_coll_shm_gather(struct axon_coll_shm *shm, const struct axon_coll_block *mine,
                         const struct axon_coll_block *blocks, int64_t bytes, int root);
/* The root's n blocks travel in its one slot: needs n * bytes within the limit. */
int axon_coll_shm_scatter(struct axon_coll_shm *shm, const struct axon_coll_block *blocks,
                          const struct axon_coll_block *mine, int64_t bytes, int root);
/* Each rank's n blocks travel in its slot: needs n * bytes within the limit. */
int axon_coll_shm_alltoall(struct axon_coll_shm *shm, const struct axon_coll_block *send,
                           const struct axon_coll_block *recv, int64_t bytes);

#endif
