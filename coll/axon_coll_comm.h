/* A communicator as the collectives see it: its ranks and the views of its internal traffic, which the
 * MPI layer sets when it makes the communicator (axon_coll_comm_init), and what coll/ keeps for it from
 * one collective to the next: the sequence number that tags each collective, the node map of the
 * hierarchical algorithms, the node's shared segment, the memo of the GPU agreement and two spare block
 * arrays. The MPI layer embeds one in each communicator and frees what it holds with it
 * (axon_coll_comm_fini). */
#ifndef AXON_COLL_COMM_H
#define AXON_COLL_COMM_H

#include "coll/axon_coll_select.h"
#include "pt2pt/pt2pt.h"

#include <stdatomic.h>

/* Collectives tag their messages below this (the sequence number modulo it); the communicator layer's
 * own exchanges, on the same context, use tags from here up. */
#define AXON_COLL_TAG_LIMIT 0x7fff0000

struct axon_coll_block;
struct axon_coll_nodes;
struct axon_coll_shm;

struct axon_coll_comm {
    /* Set when the communicator is made. */
    struct axon_pt2pt_comm *view;       /* its collective traffic; the peers are the remote group's on an
                                         * intercommunicator */
    struct axon_pt2pt_comm *local_view; /* an intercommunicator's traffic within its local group; NULL else */
    int rank, size;                     /* in the local group */
    bool is_inter;
    int remote_size;                    /* an intercommunicator's remote group */
    const int *world;                   /* [size]: the local group's ranks in the job */

    /* Kept between collectives. */
    atomic_uint seq;                        /* collectives started on it: their tags */
    struct axon_coll_agree_memo agree_memo; /* how often its members ask where their buffers are */
    struct axon_coll_shm *shm;              /* the node's shared segment, made at the first collective that
                                             * may use one (axon_coll_comm_shm) */
    int shm_state;                          /* 0 not tried yet, 1 shm is set, -1 none */
    struct axon_coll_nodes *nodes;          /* which ranks share a node (axon_coll_comm_nodes) */
    atomic_int nodes_state;                 /* 0 not made yet, 1 nodes is set, -1 none (out of memory) */
    _Atomic(void *) spare_blocks[2];        /* block arrays of a finished call, for the next one's */
};

/* Sets the communicator's part (the rest zero). */
void axon_coll_comm_init(struct axon_coll_comm *cc, struct axon_pt2pt_comm *view, struct axon_pt2pt_comm *local_view,
                         int rank, int size, int remote_size, const int *world);
/* Frees what the collectives kept (the segment, the node map, the spare arrays). */
void axon_coll_comm_fini(struct axon_coll_comm *cc);

/* The ranks that a call's per-rank blocks stand for: the remote group's on an intercommunicator. */
static inline int axon_coll_comm_peers(const struct axon_coll_comm *cc)
{
    return cc->is_inter ? cc->remote_size : cc->size;
}

/* Whether the caller is the root of a rooted call (MPI_ROOT on an intercommunicator). */
static inline bool axon_coll_comm_is_root(const struct axon_coll_comm *cc, int root)
{
    return cc->is_inter ? root == MPI_ROOT : cc->rank == root;
}

/* The next collective's sequence number. */
static inline unsigned axon_coll_comm_next_seq(struct axon_coll_comm *cc)
{
    return atomic_fetch_add_explicit(&cc->seq, 1u, memory_order_relaxed);
}

/* The tag of a collective's messages from its sequence number. */
static inline int axon_coll_comm_tag(unsigned seq)
{
    return (int)(seq % (unsigned)AXON_COLL_TAG_LIMIT);
}

/* Whether every member runs on this node. */
bool axon_coll_comm_one_node(const struct axon_coll_comm *cc);
/* The node map, made at the first call; NULL when out of memory (the flat algorithms then). */
const struct axon_coll_nodes *axon_coll_comm_nodes(struct axon_coll_comm *cc);
/* The node's shared segment, made by the first call that may use one (all members make that call
 * together); *shm NULL when the communicator spans nodes, has one member, or the members could not all
 * map one. An error of the making is the calling collective's. */
int axon_coll_comm_shm_make(struct axon_coll_comm *cc, struct axon_coll_shm **shm);
static inline int axon_coll_comm_shm(struct axon_coll_comm *cc, struct axon_coll_shm **shm)
{
    if (cc->shm_state == 0)
        return axon_coll_comm_shm_make(cc, shm);
    *shm = cc->shm;
    return MPI_SUCCESS;
}

/* A zeroed block array of at least n entries (at least axon_coll_comm_peers), from the spares when one
 * is free; NULL when out of memory. */
struct axon_coll_block *axon_coll_comm_blocks_take(struct axon_coll_comm *cc, int n);
/* Hands an array from axon_coll_comm_blocks_take back (freed if two are spare already). */
void axon_coll_comm_blocks_give(struct axon_coll_comm *cc, struct axon_coll_block *b);

#endif
