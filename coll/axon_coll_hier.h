/* Hierarchical compositions: a collective as phases on parts of the communicator (within each node, then
 * among one leader per node, then within each node again), each phase any of the flat algorithms run on
 * a subgroup of the schedule (axon_coll_sched_set_subgroup). They need to know which ranks share a node:
 * a communicator's node map (struct axon_coll_nodes), built once from the runtime's topology (AXON_TOPO's
 * synthetic nodes included) or, in the simulator, from the described machine, and set on each schedule.
 *
 * Each composition is an algorithm named "hier" in its collective's table, forceable with
 * AXON_COLL_<NAME>_ALG=hier; it applies when the group spans two nodes or more and some node holds two
 * ranks or more (AXON_COLL_NEEDS_NODES), the reductions only for commutative operations (the phases
 * reduce node by node). */
#ifndef AXON_COLL_HIER_H
#define AXON_COLL_HIER_H

#include "coll/axon_coll_sched.h"

struct axon_coll_nodes {
    int nranks, nnodes;
    int *node_of;    /* [nranks]: the node of each rank, 0 .. nnodes-1, numbered by their lowest rank */
    int *by_node;    /* [nranks]: the ranks node after node, ascending within a node */
    int *node_start; /* [nnodes + 1]: node k's ranks are by_node[node_start[k] .. node_start[k + 1]) */
    int *leaders;    /* [nnodes]: each node's lowest rank, ascending (so node k's leader is leaders[k]) */
    int max_per_node;
    /* The cost model's answers for this group (AXON_COLL_MODEL_SLOTS of them, coll/axon_coll_select.h),
     * which the selection reads and only coll/axon_coll_select_model.c writes; NULL until the first
     * question. A simulated machine's map never gets any: its calls take the rules. */
    signed char *model_choice;
};

/* Builds the map of n ranks whose nodes are node_id[r], ids in 0 .. nids-1 (the runtime's node
 * indices, say, of which a communicator uses some); MPI_ERR_NO_MEM. */
int axon_coll_nodes_build(struct axon_coll_nodes *nodes, const int *node_id, int n, int nids);
void axon_coll_nodes_free(struct axon_coll_nodes *nodes);

/* AXON_COLL_NEEDS_NODES when the schedule's group has a node map that a composition can use. */
unsigned axon_coll_hier_have(const struct axon_coll_sched *s);

void axon_coll_hier_barrier(struct axon_coll_sched *s);
void axon_coll_hier_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                          int root);
void axon_coll_hier_reduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                           const struct axon_dtype_layout *dt, int root);
void axon_coll_hier_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                              const struct axon_dtype_layout *dt);
struct axon_coll_block;
void axon_coll_hier_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                              const struct axon_coll_block *blocks);
void axon_coll_hier_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                                   const struct axon_dtype_layout *dt);
/* Equal blocks only (AXON_COLL_NEEDS_UNIFORM); send NULL: in place. */
void axon_coll_hier_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                             const struct axon_coll_block *recv);

#endif
