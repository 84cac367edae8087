/* Hierarchical compositions (coll/axon_coll_hier.h): the node map of a group, and the compositions of
 * barrier, bcast, reduce and allreduce out of the flat algorithms run on subgroups.
 *  - barrier:   a barrier in each node, one among the leaders, one in each node again;
 *  - bcast:     among the leaders (the root stands for its node), then in each node from its leader;
 *  - reduce:    in each node to its leader, then among the leaders to the root (which leads its node);
 *  - allgather: a gather in each node, the leaders swap their nodes' blocks, each leader hands them on;
 *  - allreduce: with nodes of one size, a reduce-scatter in each node, an allreduce of each slice
 *    among the ranks that hold it (one per node), an allgather in each node; else a reduce in each node
 *    to its leader, an allreduce among the leaders and a bcast in each node.
 * Each phase picks its own algorithm by the rules for its subgroup's size and the message, so a node's
 * phases take the node's algorithms and the leaders' phase the fabric's; inside a subgroup no node map
 * is set, so a phase is never itself hierarchical. */
#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_move.h"
#include "coll/coll.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* ---- node maps ------------------------------------------------------------------------------------- */

int axon_coll_nodes_build(struct axon_coll_nodes *nodes, const int *node_id, int n, int nids)
{
    memset(nodes, 0, sizeof(*nodes));
    nodes->nranks = n;
    size_t cells = (size_t)(n > 0 ? n : 1);
    nodes->node_of = malloc(sizeof(int) * cells);
    nodes->by_node = malloc(sizeof(int) * cells);
    nodes->node_start = calloc(cells + 1, sizeof(int));
    nodes->leaders = malloc(sizeof(int) * cells);
    int *number = malloc(sizeof(int) * (size_t)(nids > 0 ? nids : 1)); /* id -> node number, or -1 */
    if (!nodes->node_of || !nodes->by_node || !nodes->node_start || !nodes->leaders || !number) {
        free(number);
        axon_coll_nodes_free(nodes);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < nids; i++)
        number[i] = -1;
    /* Numbered in the order of their lowest ranks, which become the leaders, ascending. */
    for (int r = 0; r < n; r++) {
        int id = node_id[r];
        if (number[id] < 0) {
            number[id] = nodes->nnodes;
            nodes->leaders[nodes->nnodes++] = r;
        }
        nodes->node_of[r] = number[id];
        nodes->node_start[number[id] + 1]++;
    }
    free(number);
    for (int k = 0; k < nodes->nnodes; k++) {
        if (nodes->node_start[k + 1] > nodes->max_per_node)
            nodes->max_per_node = nodes->node_start[k + 1];
        nodes->node_start[k + 1] += nodes->node_start[k];
    }
    /* Ranks node after node, ascending within each: a counting sort, with the leaders' slots as the
     * running positions (each node's first slot holds its leader, the lowest rank). */
    int *fill = malloc(sizeof(int) * (size_t)(nodes->nnodes > 0 ? nodes->nnodes : 1));
    if (!fill) {
        axon_coll_nodes_free(nodes);
        return MPI_ERR_NO_MEM;
    }
    memcpy(fill, nodes->node_start, sizeof(int) * (size_t)nodes->nnodes);
    for (int r = 0; r < n; r++)
        nodes->by_node[fill[nodes->node_of[r]]++] = r;
    free(fill);
    return MPI_SUCCESS;
}

void axon_coll_nodes_free(struct axon_coll_nodes *nodes)
{
    free(nodes->model_choice);
    free(nodes->node_of);
    free(nodes->by_node);
    free(nodes->node_start);
    free(nodes->leaders);
    memset(nodes, 0, sizeof(*nodes));
}

unsigned axon_coll_hier_have(const struct axon_coll_sched *s)
{
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    return nodes && nodes->nranks == axon_coll_sched_size(s) && nodes->nnodes > 1 && nodes->max_per_node > 1
               ? AXON_COLL_NEEDS_NODES
               : 0;
}

/* ---- compositions ---------------------------------------------------------------------------------- */

/* What one rank needs of the map for a call: its node's ranks, the leaders of the call (each node's
 * lowest rank, or the root for the root's node), and its place in both. */
struct axon_hier_view {
    const int *members; /* this rank's node, ascending */
    int nmembers;
    int lead;           /* the index in members of this node's leader for the call */
    const int *leaders; /* one per node, node order */
    int nleaders;
    int root_node;      /* the node of the call's root (0 without one) */
    bool leading;       /* this rank is its node's leader */
};

static bool axon_hier_view(struct axon_coll_sched *s, int root, struct axon_hier_view *v)
{
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    int me = axon_coll_sched_rank(s);
    int k = nodes->node_of[me];
    v->members = nodes->by_node + nodes->node_start[k];
    v->nmembers = nodes->node_start[k + 1] - nodes->node_start[k];
    v->leaders = nodes->leaders;
    v->nleaders = nodes->nnodes;
    v->root_node = root >= 0 ? nodes->node_of[root] : 0;
    if (root >= 0 && nodes->leaders[v->root_node] != root) {
        /* The root leads its node for this call: a copy of the leaders with it in its node's place. */
        int *lead = axon_coll_sched_alloc_meta(s, sizeof(int) * (size_t)nodes->nnodes);
        if (!lead)
            return false;
        memcpy(lead, nodes->leaders, sizeof(int) * (size_t)nodes->nnodes);
        lead[v->root_node] = root;
        v->leaders = lead;
    }
    int leader = v->leaders[k];
    v->lead = 0;
    while (v->members[v->lead] != leader)
        v->lead++;
    v->leading = me == leader;
    return true;
}

/* Ends the phase: its steps form rounds of their own, and the next phase talks within members. */
static void axon_hier_phase(struct axon_coll_sched *s, const int *members, int n)
{
    axon_coll_sched_round(s);
    axon_coll_sched_set_subgroup(s, members, n);
}

void axon_coll_hier_barrier(struct axon_coll_sched *s)
{
    struct axon_hier_view v;
    if (!axon_hier_view(s, -1, &v))
        return;
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_barrier(s);
    if (v.leading) {
        axon_hier_phase(s, v.leaders, v.nleaders);
        axon_coll_barrier(s);
    }
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_barrier(s);
    axon_hier_phase(s, NULL, 0);
}

void axon_coll_hier_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                          int root)
{
    struct axon_hier_view v;
    if (!axon_hier_view(s, root, &v))
        return;
    if (v.leading) {
        axon_hier_phase(s, v.leaders, v.nleaders);
        axon_coll_bcast(s, buf, count, dt, v.root_node);
    }
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_bcast(s, buf, count, dt, v.lead);
    axon_hier_phase(s, NULL, 0);
}

void axon_coll_hier_reduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                           const struct axon_dtype_layout *dt, int root)
{
    struct axon_hier_view v;
    if (!axon_hier_view(s, root, &v))
        return;
    /* A leader other than the root keeps its node's result in scratch of the same layout (a reduce's
     * receive buffer means nothing away from the root). */
    void *node_out = out;
    if (v.leading && axon_coll_sched_rank(s) != root && count > 0) {
        int64_t span = (count - 1) * dt->extent + dt->true_extent;
        char *scratch = axon_coll_sched_alloc(s, (size_t)span);
        if (!scratch)
            return;
        node_out = scratch - dt->true_lb;
    }
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_reduce(s, in, node_out, count, dt, v.lead);
    if (v.leading) {
        axon_hier_phase(s, v.leaders, v.nleaders);
        axon_coll_reduce(s, node_out, node_out, count, dt, v.root_node);
    }
    axon_hier_phase(s, NULL, 0);
}

/* Nodes of one size m: each of the node's m ranks owns a slice of the vector. A reduce-scatter in each
 * node leaves rank i of the node the node's sum of slice i; an allreduce among the ranks i of all nodes
 * (one per node: m of them run at once, each on 1/m of the vector, so all the node's links to the
 * fabric work) completes slice i everywhere; an allgather in each node puts the slices together. */
static void axon_hier_allreduce_slices(struct axon_coll_sched *s, const struct axon_hier_view *v, const void *in,
                                       void *out, int64_t count, const struct axon_dtype_layout *dt)
{
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    int m = v->nmembers, me = axon_coll_sched_rank(s), i = 0;
    while (v->members[i] != me)
        i++;
    int64_t *counts = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)m);
    struct axon_coll_block *blocks = axon_coll_sched_alloc_meta(s, sizeof(*blocks) * (size_t)m);
    int *slice = axon_coll_sched_alloc_meta(s, sizeof(int) * (size_t)nodes->nnodes);
    if (!counts || !blocks || !slice)
        return;
    int64_t first = 0, mine_first = 0;
    for (int j = 0; j < m; j++) {
        counts[j] = count * (j + 1) / m - count * j / m;
        blocks[j] = (struct axon_coll_block){(char *)out + first * dt->extent, counts[j], *dt};
        if (j == i)
            mine_first = first;
        first += counts[j];
    }
    for (int k = 0; k < nodes->nnodes; k++)
        slice[k] = nodes->by_node[nodes->node_start[k] + i];
    void *my_slice = (char *)out + mine_first * dt->extent;
    axon_hier_phase(s, v->members, m);
    axon_coll_reduce_scatter(s, in, my_slice, counts, dt);
    axon_hier_phase(s, slice, nodes->nnodes);
    axon_coll_allreduce(s, my_slice, my_slice, counts[i], dt);
    axon_hier_phase(s, v->members, m);
    axon_coll_allgather(s, NULL, blocks, 0);
    axon_hier_phase(s, NULL, 0);
}

void axon_coll_hier_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                              const struct axon_dtype_layout *dt)
{
    struct axon_hier_view v;
    if (!axon_hier_view(s, -1, &v))
        return;
    /* Slices when every node has as many ranks and each gets some of the vector; else the vector goes
     * whole through each node's leader. */
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    if (nodes->max_per_node * nodes->nnodes == nodes->nranks && count >= nodes->max_per_node) {
        axon_hier_allreduce_slices(s, &v, in, out, count, dt);
        return;
    }
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_reduce(s, in, out, count, dt, v.lead);
    if (v.leading) {
        axon_hier_phase(s, v.leaders, v.nleaders);
        axon_coll_allreduce(s, out, out, count, dt);
    }
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_bcast(s, out, count, dt, v.lead);
    axon_hier_phase(s, NULL, 0);
}

/* Allgather(v), any blocks: each node's blocks to its leader (a gather in the node); the leaders swap
 * their nodes' blocks in one round (each sends its node's blocks, in the node's rank order, to every
 * other leader, which receives them in the same order); each leader hands every member, in one round,
 * every block but the member's own. */
void axon_coll_hier_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                              const struct axon_coll_block *blocks)
{
    struct axon_hier_view v;
    if (!axon_hier_view(s, -1, &v))
        return;
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    int me = axon_coll_sched_rank(s), n = nodes->nranks;
    const struct axon_coll_block *own = mine ? mine : &blocks[me];
    struct axon_coll_block *node_blocks = axon_coll_sched_alloc_meta(s, sizeof(*node_blocks) * (size_t)v.nmembers);
    if (!node_blocks)
        return;
    for (int i = 0; i < v.nmembers; i++)
        node_blocks[i] = blocks[v.members[i]];
    axon_hier_phase(s, v.members, v.nmembers);
    axon_coll_gather(s, v.leading ? mine : own, node_blocks, v.lead, 0);
    axon_hier_phase(s, NULL, 0);
    if (v.leading) {
        for (int k = 0; k < nodes->nnodes; k++) {
            int leader = nodes->leaders[k];
            if (leader == me)
                continue;
            for (int i = 0; i < v.nmembers; i++)
                axon_coll_block_send(s, &blocks[v.members[i]], leader);
            for (int i = nodes->node_start[k]; i < nodes->node_start[k + 1]; i++)
                axon_coll_block_recv(s, &blocks[nodes->by_node[i]], leader);
        }
        axon_coll_sched_round(s);
        for (int i = 0; i < v.nmembers; i++) {
            int member = v.members[i];
            for (int j = 0; member != me && j < n; j++)
                if (j != member)
                    axon_coll_block_send(s, &blocks[j], member);
        }
    } else {
        int leader = v.members[v.lead];
        for (int j = 0; j < n; j++)
            if (j != me)
                axon_coll_block_recv(s, &blocks[j], leader);
        if (mine)
            axon_coll_block_copy(s, mine, &blocks[me]);
    }
    axon_coll_sched_round(s);
}
