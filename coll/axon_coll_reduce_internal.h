/* Between the files of the reductions (coll/axon_coll_reduce*.c, axon_coll_allreduce.c,
 * axon_coll_reduce_scatter.c, axon_coll_scan.c): the building blocks they share, all on packed data
 * (elements of the schedule's operation datatype laid end to end, esize bytes each).
 *
 * Order. Every block here keeps rank order: a rank always holds the reduction of a run of consecutive
 * ranks and combines it with a neighbouring run, the lower run on the left, so the algorithms built from
 * them are right for non-commutative operations.
 *
 * Sizes that are not powers of two are folded: with p the largest power of two <= n and rem = n - p,
 * each of the first rem even ranks hands its vector to the odd rank above it and sits out; the p active
 * ranks renumber 0..p-1 in rank order (new rank q is rank 2q+1 for q < rem, q+rem after), so a run of new
 * ranks is still a run of ranks. */
#ifndef AXON_COLL_REDUCE_INTERNAL_H
#define AXON_COLL_REDUCE_INTERNAL_H

#include "coll/coll.h"

/* What a reduction offers the selection: its operation's commutativity. */
unsigned axon_coll_red_have(const struct axon_coll_sched *s);

/* Messages of packed bytes; none when bytes is 0 (both sides always agree on the size, so both skip). */
void axon_coll_red_send(struct axon_coll_sched *s, const void *buf, int64_t bytes, int peer);
void axon_coll_red_recv(struct axon_coll_sched *s, void *buf, int64_t bytes, int peer);
/* count elements straight into (or out of) the user's typed buffer at element offset first; none when
 * count is 0. The other side sends (receives) packed bytes. */
void axon_coll_red_send_typed(struct axon_coll_sched *s, const void *buf, int64_t first, int64_t count,
                              const struct axon_dtype_layout *dt, int peer);
void axon_coll_red_recv_typed(struct axon_coll_sched *s, void *buf, int64_t first, int64_t count,
                              const struct axon_dtype_layout *dt, int peer);

/* A packed copy of count elements of dt at in, in scratch, made in a round of its own (so a result may
 * then overwrite in: MPI_IN_PLACE). NULL when out of memory. */
char *axon_coll_red_pack(struct axon_coll_sched *s, const void *in, int64_t count, const struct axon_dtype_layout *dt);
/* Copies count packed elements at src to elements [first, first+count) of the typed buffer out. */
void axon_coll_red_unpack(struct axon_coll_sched *s, const char *src, void *out, int64_t first, int64_t count,
                          const struct axon_dtype_layout *dt);

/* Binomial tree to rank 0 in rank order over the packed vector acc (count elements). Returns the buffer
 * holding the result at rank 0; elsewhere a buffer free once the schedule has passed this point. NULL when
 * out of memory. */
char *axon_coll_red_binomial(struct axon_coll_sched *s, char *acc, int64_t count, int64_t esize);

/* ---- folding and recursive halving ---------------------------------------------------------------- */

struct axon_coll_red_fold {
    int n, p, rem; /* p: largest power of two <= n; rem = n - p */
    int logp;
    int q;         /* this rank's new rank, -1 when it sits out */
};

void axon_coll_red_fold_init(struct axon_coll_red_fold *f, int n, int rank);
/* The rank of new rank q. */
int axon_coll_red_fold_rank(const struct axon_coll_red_fold *f, int q);
/* The new rank that holds rank r's data: its own, or that of the odd rank above it. */
int axon_coll_red_fold_holder(const struct axon_coll_red_fold *f, int r);
/* The fold: a rank that sits out sends acc (count elements) to the rank above; that rank receives it in
 * tmp and reduces it into acc on the left. */
void axon_coll_red_fold_in(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, char *acc, char *tmp,
                           int64_t count, int64_t esize);
/* Which bits q's windows follow: position bitrev(q) of p is where recursive halving leaves new rank q. */
int axon_coll_red_bitrev(int q, int logp);

/* The vector a recursive halving starts from (count elements of dt at in): a packed copy in scratch, as
 * axon_coll_red_pack makes; or, for contiguous data of a rank the fold leaves alone, scratch not yet
 * filled, with *src pointing at the data: the halving's first step then sends from the user's buffer
 * and copies only the half it keeps, while the other half travels (half the copying, and overlapped). */
char *axon_coll_red_pack_halving(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const void *in,
                                 int64_t count, const struct axon_dtype_layout *dt, const char **src);

/* Reduce-scatter by recursive halving among the active ranks, keeping order. The vector is cut in p
 * segments: segment t is elements [pos[t], pos[t+1]). a holds the rank's (folded) vector, b is scratch
 * of the same size. At step k (distance 2^k, so partners hold neighbouring runs of ranks) each rank keeps
 * half of its window of segments and sends the other half to its partner; new rank q ends with segment
 * bitrev(q) reduced over all ranks, in the returned buffer (a or b). Only active ranks call it. src:
 * NULL, or the data a does not hold yet (axon_coll_red_pack_halving). */
char *axon_coll_red_halve(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const int64_t *pos,
                          char *a, char *b, int64_t esize, const char *src);
/* Where the segments of the two blocks below live: packed scratch (dt NULL, esize bytes an element)
 * or the user's typed buffer (dt its layout). */
struct axon_coll_red_buf {
    void *buf;
    const struct axon_dtype_layout *dt;
    int64_t esize;
};
/* The reverse, by recursive doubling: starting from segment bitrev(q) in b, every active rank ends with
 * the whole vector in b. */
void axon_coll_red_allgather(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const int64_t *pos,
                             const struct axon_coll_red_buf *b);
/* The same tree as a binomial gather to active new rank rootq only (each rank sends its window once). */
void axon_coll_red_gather(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const int64_t *pos,
                          const struct axon_coll_red_buf *b, int rootq);

/* The ring's reduce-scatter: block j of the packed vector acc, elements [disp[j], disp[j+1]), ends at
 * rank j reduced over all ranks (commutative operations only: the ring wraps around rank 0). tmp holds
 * the largest block. */
void axon_coll_red_ring_reduce_scatter(struct axon_coll_sched *s, char *acc, char *tmp, const int64_t *disp,
                                       int64_t esize);

/* Cuts count elements into parts segments as even as whole elements allow: pos[0..parts]. */
void axon_coll_red_split(int64_t count, int parts, int64_t *pos);

#endif
