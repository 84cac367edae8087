/* The collectives layer: what the MPI layer calls. Each algorithm adds the rounds of one collective to
 * a schedule (coll/axon_coll_sched.h) for the calling rank; the caller starts it and waits, or hands
 * back a request. Every algorithm works for any communicator size and for empty data.
 *
 * Data is described by blocks: count elements of a layout at buf. The MPI layer turns the (buffer,
 * counts, displacements, datatypes) of a call into one block per rank, so one algorithm serves the
 * plain, v and w forms. Reductions work on packed (contiguous) copies of the data, whose elements the
 * schedule's operation reduces (axon_coll_sched_set_op).
 *
 * Each entry point below picks its algorithm (coll/axon_coll_select.h) from what every member of the
 * communicator knows alike: the communicator size, the message size the standard makes them agree on,
 * the operation, and `have`, the AXON_COLL_NEEDS_* bits the call offers (AXON_COLL_NEEDS_UNIFORM for the
 * forms whose blocks are all the same size). A pick from anything one rank alone knows (its own
 * datatype's layout, a v-form's counts at the root) could differ between ranks and hang the collective. */
#ifndef AXON_COLL_H
#define AXON_COLL_H

#include "coll/axon_coll_sched.h"
#include "coll/axon_coll_select.h"

struct axon_coll_block {
    void *buf;
    int64_t count;
    struct axon_dtype_layout dt;
};

/* The data-movement collectives. Each picks among its algorithms (axon_info lists them), all of which
 * serve any size, empty data and blocks whose layouts differ between ranks (same type signature); those
 * marked AXON_COLL_NEEDS_UNIFORM only the forms with equal blocks. Steps added to s before belong to
 * earlier rounds. */
void axon_coll_barrier(struct axon_coll_sched *s);
void axon_coll_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                     int root);
/* The binomial tree, whatever the rules and the AXON_COLL_BCAST_ALG knob say: for the library's own
 * exchanges of a few host bytes (the node segment's name), which a forced algorithm meant for the
 * program's calls (a domain one stages host data through the GPU) must not reach. */
void axon_coll_bcast_tree(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                          int root);
/* The root receives block j from rank j (blocks: the root's, one per rank; NULL elsewhere). mine NULL at
 * the root: in place (its block already holds its data). */
void axon_coll_gather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                      const struct axon_coll_block *blocks, int root, unsigned have);
/* The root sends block j to rank j; mine NULL at the root: in place. */
void axon_coll_scatter(struct axon_coll_sched *s, const struct axon_coll_block *blocks,
                       const struct axon_coll_block *mine, int root, unsigned have);
/* Every rank's blocks[j] receives rank j's mine; mine NULL: in place. */
void axon_coll_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                         const struct axon_coll_block *blocks, unsigned have);
/* send[j] goes to rank j's recv[me]; send NULL: in place (recv holds the data). */
void axon_coll_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                        const struct axon_coll_block *recv, unsigned have);

/* Reductions; in is the rank's contribution (the receive buffer for MPI_IN_PLACE), out its result.
 * Elements of the operation's datatype, whose layout is dt. Rank order is kept, so non-commutative
 * operations are right. */
void axon_coll_reduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                      const struct axon_dtype_layout *dt, int root);
void axon_coll_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                         const struct axon_dtype_layout *dt);
/* Recursive doubling, whatever the knobs and rules say: for the library's own small agreements (a
 * forced AXON_COLL_ALLREDUCE_ALG is the program's calls', and the domain one would take these few host
 * bytes through the GPU). */
void axon_coll_allreduce_small(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                               const struct axon_dtype_layout *dt);
/* Rank j gets counts[j] elements of the reduced vector of sum(counts) elements. */
void axon_coll_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                              const struct axon_dtype_layout *dt);
void axon_coll_scan(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                    const struct axon_dtype_layout *dt, bool exclusive);

/* Neighborhood exchange (axon_coll_neighbor.c): send[k] to rank to[k], recv[k] from rank from[k]
 * (MPI_PROC_NULL: skipped), in one round. Messages between two ranks pair in list order: the k-th send
 * from p to q fills the k-th receive from p at q. */
void axon_coll_neighbor(struct axon_coll_sched *s, int nsend, const struct axon_coll_block *send, const int *to,
                        int nrecv, const struct axon_coll_block *recv, const int *from);

/* Intercommunicators (axon_coll_inter.c). The schedule is made on the bridge (peers are remote ranks);
 * rank is the caller's in its local group. Roots are MPI_ROOT, MPI_PROC_NULL or a remote rank; blocks
 * of the other group (gather and scatter at the root, allgather, alltoall) are remote_size long; a
 * reduce_scatter's counts are the local group's. */
struct axon_coll_inter {
    struct axon_pt2pt_comm *bridge, *local;
    int rank, local_size, remote_size;
};
void axon_coll_inter_barrier(struct axon_coll_sched *s, const struct axon_coll_inter *ic);
void axon_coll_inter_bcast(struct axon_coll_sched *s, const struct axon_coll_inter *ic, void *buf, int64_t count,
                           const struct axon_dtype_layout *dt, int root);
void axon_coll_inter_gather(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                            const struct axon_coll_block *mine, const struct axon_coll_block *blocks, int root);
void axon_coll_inter_scatter(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                             const struct axon_coll_block *blocks, const struct axon_coll_block *mine, int root);
void axon_coll_inter_allgather(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                               const struct axon_coll_block *mine, const struct axon_coll_block *blocks);
void axon_coll_inter_alltoall(struct axon_coll_sched *s, const struct axon_coll_inter *ic,
                              const struct axon_coll_block *send, const struct axon_coll_block *recv);
void axon_coll_inter_reduce(struct axon_coll_sched *s, const struct axon_coll_inter *ic, const void *in, void *out,
                            int64_t count, const struct axon_dtype_layout *dt, int root);
void axon_coll_inter_allreduce(struct axon_coll_sched *s, const struct axon_coll_inter *ic, const void *in,
                               void *out, int64_t count, const struct axon_dtype_layout *dt);
void axon_coll_inter_reduce_scatter(struct axon_coll_sched *s, const struct axon_coll_inter *ic, const void *in,
                                    void *out, const int64_t *counts, const struct axon_dtype_layout *dt,
                                    unsigned have);

#endif
