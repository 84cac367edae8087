/* Hierarchical compositions (coll/axon_coll_hier.h): the node map of a group, and the compositions of
 * barrier, bcast, reduce, allreduce, allgather, reduce_scatter and alltoall out of the flat algorithms
 * run on subgroups (or, for allgather and alltoall, of messages between a node's ranks and its leader).
 *  - barrier:   a barrier in each node, one among the leaders, one in each node again;
 *  - bcast:     among the leaders (the root stands for its node), then in each node from its leader;
 *  - reduce:    in each node to its leader, then among the leaders to the root (which leads its node);
 *  - allgather: a gather in each node, the leaders swap their nodes' blocks, each leader hands them on;
 *  - allreduce: with nodes of one size, a reduce-scatter in each node, an allreduce of each slice
 *    among the ranks that hold it (one per node), an allgather in each node; else a reduce in each node
 *    to its leader, an allreduce among the leaders and a bcast in each node;
 *  - reduce_scatter: a reduce-scatter in each node into slices, then one among each slice's holders
 *    (one per node), so each rank ends with its own block;
 *  - alltoall: each node's blocks through its leader, the leaders swap one message per pair of nodes.
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

/* ---- reduce_scatter -------------------------------------------------------------------------------- */

/* Elements of the operation's type laid end to end, as the phases of a composition exchange them. */
static struct axon_dtype_layout axon_hier_packed(const struct axon_dtype_layout *dt)
{
    return (struct axon_dtype_layout){.size = dt->size, .extent = dt->size, .true_lb = 0, .true_extent = dt->size,
                                      .contig = true, .basic = dt->basic, .basic_count = dt->basic_count};
}

/* Where the blocks of a reduce-scatter go in the composition below. With most the largest node's ranks,
 * slice t (0 <= t < most) is the blocks of every node's t-th rank, node after node; a node of m ranks
 * keeps slice t at its member t % m, the slice's holder there (so each rank holds its own block's
 * slice, and a smaller node's ranks hold several). */
struct axon_hier_rs {
    const struct axon_coll_nodes *nodes;
    const int64_t *counts;
    int64_t *disp;  /* [nranks + 1]: where each rank's block starts in the vector */
    int64_t *slice; /* [most]: elements of each slice */
};

static int axon_hier_node_size(const struct axon_coll_nodes *nodes, int k)
{
    return nodes->node_start[k + 1] - nodes->node_start[k];
}

/* The t-th rank of node k, or -1 when the node has no more than t ranks. */
static int axon_hier_rank_at(const struct axon_coll_nodes *nodes, int k, int t)
{
    return t < axon_hier_node_size(nodes, k) ? nodes->by_node[nodes->node_start[k] + t] : -1;
}

static bool axon_hier_rs_init(struct axon_coll_sched *s, struct axon_hier_rs *rs, const int64_t *counts)
{
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    rs->nodes = nodes;
    rs->counts = counts;
    rs->disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(nodes->nranks + 1));
    rs->slice = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)nodes->max_per_node);
    if (!rs->disp || !rs->slice)
        return false;
    rs->disp[0] = 0;
    for (int r = 0; r < nodes->nranks; r++)
        rs->disp[r + 1] = rs->disp[r] + counts[r];
    for (int t = 0; t < nodes->max_per_node; t++) {
        rs->slice[t] = 0;
        for (int k = 0; k < nodes->nnodes; k++) {
            int r = axon_hier_rank_at(nodes, k, t);
            if (r >= 0)
                rs->slice[t] += counts[r];
        }
    }
    return true;
}

/* Packs the rank's vector (in, layout dt) into packed, slice after slice in the order of their holders
 * in a node of m ranks (member 0's slices 0, m, 2m ..., then member 1's ...), and sets node_counts[j] to
 * the elements member j holds. Blocks that follow each other in the vector as well are copied as one. */
static void axon_hier_rs_pack(struct axon_coll_sched *s, const struct axon_hier_rs *rs, int m, const void *in,
                              const struct axon_dtype_layout *dt, char *packed, int64_t *node_counts)
{
    const struct axon_coll_nodes *nodes = rs->nodes;
    int64_t at = 0, run_first = 0, run_count = 0, run_at = 0;
    for (int j = 0; j < m; j++) {
        node_counts[j] = 0;
        for (int t = j; t < nodes->max_per_node; t += m) {
            node_counts[j] += rs->slice[t];
            for (int k = 0; k < nodes->nnodes; k++) {
                int r = axon_hier_rank_at(nodes, k, t);
                if (r < 0 || rs->counts[r] == 0)
                    continue;
                if (run_count > 0 && rs->disp[r] != run_first + run_count) {
                    axon_coll_sched_copy(s, (const char *)in + run_first * dt->extent, run_count, dt,
                                         packed + run_at * dt->size, run_count * dt->size, &axon_coll_bytes);
                    run_count = 0;
                }
                if (run_count == 0) {
                    run_first = rs->disp[r];
                    run_at = at;
                }
                run_count += rs->counts[r];
                at += rs->counts[r];
            }
        }
    }
    if (run_count > 0)
        axon_coll_sched_copy(s, (const char *)in + run_first * dt->extent, run_count, dt, packed + run_at * dt->size,
                             run_count * dt->size, &axon_coll_bytes);
}

/* Reduce-scatter, commutative operations, any counts and node sizes:
 *  1. a reduce-scatter in each node of the rank's vector packed by holders (axon_hier_rs_pack) leaves
 *     each rank its node's sum of the slices it holds;
 *  2. for each slice, a reduce-scatter among its holders, one per node, in node order, with each
 *     node's t-th rank receiving its own block (a node without a t-th rank receives nothing): every
 *     rank's block ends reduced over all nodes. All of a node's ranks do this at once, each with its own
 *     slice, so all of the node's links to the fabric work, as in the allreduce; a rank that holds several
 *     slices takes them in slice order, as every rank does, so the phases of two ranks pair up;
 *  3. the rank's block, packed, is copied into its receive buffer.
 * The vector is read in the first round only and the result written in the last, so MPI_IN_PLACE (in
 * is out) is safe. With nodes of one size m each rank holds one slice: it sends about the vector's
 * size within its node and 1/m of it across the fabric. */
void axon_coll_hier_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                                   const struct axon_dtype_layout *dt)
{
    struct axon_hier_view v;
    struct axon_hier_rs rs;
    if (!axon_hier_view(s, -1, &v) || !axon_hier_rs_init(s, &rs, counts))
        return;
    const struct axon_coll_nodes *nodes = rs.nodes;
    int me = axon_coll_sched_rank(s), m = v.nmembers, i = 0, nn = nodes->nnodes;
    int64_t total = rs.disp[nodes->nranks], esize = dt->size;
    if (total == 0)
        return; /* every rank has the same counts, so all stop here */
    while (v.members[i] != me)
        i++;
    struct axon_dtype_layout packed = axon_hier_packed(dt);
    int64_t *node_counts = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)m);
    char *vec = axon_coll_sched_alloc(s, (size_t)(total * esize));
    if (!node_counts || !vec)
        return;
    axon_coll_sched_round(s); /* steps added before belong to earlier rounds */
    axon_hier_rs_pack(s, &rs, m, in, dt, vec, node_counts);
    /* Never empty: axon_coll_sched_alloc_meta steps 16 bytes past the end of a schedule's arena when a
     * zero-byte piece finds it exactly full, so a rank with nothing to hold asks for one element. */
    char *held = axon_coll_sched_alloc(s, (size_t)((node_counts[i] > 0 ? node_counts[i] : 1) * esize));
    char *mine = axon_coll_sched_alloc(s, (size_t)((counts[me] > 0 ? counts[me] : 1) * esize));
    if (!held || !mine)
        return;
    axon_hier_phase(s, v.members, m);
    axon_coll_reduce_scatter(s, vec, held, node_counts, &packed);
    char *slice = held;
    for (int t = i; t < nodes->max_per_node; t += m) {
        if (rs.slice[t] == 0)
            continue; /* nothing to reduce (every rank knows the counts, so all skip it) */
        /* Each phase its own lists: the schedule keeps pointing at a subgroup until the next phase. */
        int64_t *holder_counts = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)nn);
        int *holders = axon_coll_sched_alloc_meta(s, sizeof(int) * (size_t)nn);
        if (!holder_counts || !holders)
            return;
        for (int k = 0; k < nn; k++) {
            int r = axon_hier_rank_at(nodes, k, t);
            holders[k] = nodes->by_node[nodes->node_start[k] + t % axon_hier_node_size(nodes, k)];
            holder_counts[k] = r >= 0 ? counts[r] : 0;
        }
        /* Only at t == i does this node have a t-th rank (this one), so only then is a block received. */
        axon_hier_phase(s, holders, nn);
        axon_coll_reduce_scatter(s, slice, mine, holder_counts, &packed);
        slice += rs.slice[t] * esize;
    }
    axon_hier_phase(s, NULL, 0);
    if (counts[me] > 0)
        axon_coll_sched_copy(s, mine, counts[me] * esize, &axon_coll_bytes, out, counts[me], dt);
    axon_coll_sched_round(s);
}

/* ---- alltoall -------------------------------------------------------------------------------------- */

/* Alltoall, equal blocks of bb bytes, any node sizes: the fabric carries one message each way between
 * two nodes, holding every block their ranks send each other, instead of one per pair of ranks (the
 * gain for small blocks, where a message costs its latency and posts, not its bytes). With node k of m
 * ranks, node l of m_l, and the ranks numbered node after node as by_node lists them:
 *  1. each rank packs its blocks in that order and hands its leader the part for each node l (m_l
 *     blocks); the leader lays them out in `out`, one area per destination node, m x m_l blocks:
 *     [member][destination in node l];
 *  2. the leaders swap the areas in one round: area l goes to node l's leader, which keeps it in `in`
 *     as the area of source node k, m x m_l blocks there too: [source in node k][member of l]; its own
 *     node's area of `out` already has that form and stays where it is;
 *  3. each leader picks out for every member the blocks meant for it, in by_node order of their
 *     sources, into one message (its own straight into its receive blocks), and the member unpacks it.
 * Every block crosses its node at most twice more than in a flat alltoall (to and from the leader):
 * the leaders do the node's packing, so this is for small blocks. The data to send is read in the first
 * round and the receive blocks written in the last, so MPI_IN_PLACE (send NULL) is safe. */
struct axon_hier_a2a {
    const struct axon_coll_nodes *nodes;
    int64_t bb; /* bytes of a block */
    int m;      /* ranks of this rank's node */
};

/* The area of node l in the leader's out or in: m_l blocks for each of the m members, node by node. */
static char *axon_hier_a2a_area(const struct axon_hier_a2a *a, char *buf, int l)
{
    return buf + (int64_t)a->nodes->node_start[l] * a->m * a->bb;
}

/* Step 1: the rank's blocks packed in by_node order of their destinations: at a member (row < 0), n
 * blocks end to end in buf; at a leader, straight into its row (its index in the node) of each area of
 * out (buf). */
static void axon_hier_a2a_pack(struct axon_coll_sched *s, const struct axon_hier_a2a *a,
                               const struct axon_coll_block *src, char *buf, int row)
{
    const struct axon_coll_nodes *nodes = a->nodes;
    struct axon_coll_block b;
    for (int l = 0; l < nodes->nnodes; l++) {
        int ml = axon_hier_node_size(nodes, l);
        for (int p = nodes->node_start[l]; p < nodes->node_start[l + 1]; p++) {
            int64_t q = p - nodes->node_start[l];
            char *at = row < 0 ? buf + p * a->bb : axon_hier_a2a_area(a, buf, l) + ((int64_t)row * ml + q) * a->bb;
            axon_coll_block_of_bytes(at, a->bb, &b);
            axon_coll_block_copy(s, &src[nodes->by_node[p]], &b);
        }
    }
}

/* Step 3 at a leader: for member t (index in the node), the blocks of every source, by_node order, into
 * dst (packed) or, for the leader itself, into its receive blocks. */
static void axon_hier_a2a_pick(struct axon_coll_sched *s, const struct axon_hier_a2a *a, char *out, char *in,
                               int own_node, int t, char *dst, const struct axon_coll_block *recv)
{
    const struct axon_coll_nodes *nodes = a->nodes;
    struct axon_coll_block from, to;
    for (int l = 0; l < nodes->nnodes; l++) {
        char *area = axon_hier_a2a_area(a, l == own_node ? out : in, l);
        for (int p = nodes->node_start[l]; p < nodes->node_start[l + 1]; p++) {
            int j = p - nodes->node_start[l];
            axon_coll_block_of_bytes(area + ((int64_t)j * a->m + t) * a->bb, a->bb, &from);
            if (dst)
                axon_coll_block_of_bytes(dst + p * a->bb, a->bb, &to);
            axon_coll_block_copy(s, &from, dst ? &to : &recv[nodes->by_node[p]]);
        }
    }
}

static void axon_hier_alltoall_lead(struct axon_coll_sched *s, const struct axon_hier_view *v,
                                    const struct axon_hier_a2a *a, const struct axon_coll_block *src,
                                    const struct axon_coll_block *recv)
{
    const struct axon_coll_nodes *nodes = a->nodes;
    int me = axon_coll_sched_rank(s), k = nodes->node_of[me], n = nodes->nranks, m = a->m;
    int64_t bb = a->bb, node_bytes = (int64_t)m * n * bb;
    char *out = axon_coll_sched_alloc(s, (size_t)node_bytes);
    char *in = axon_coll_sched_alloc(s, (size_t)node_bytes);   /* its own node's area unused */
    char *picked = axon_coll_sched_alloc(s, (size_t)node_bytes); /* n blocks a member; its own unused */
    if (!out || !in || !picked)
        return;
    /* 1: its own row of out packed, the members' rows received, in one round (they do not overlap). */
    axon_hier_a2a_pack(s, a, src, out, v->lead);
    for (int i = 0; i < m; i++)
        for (int l = 0; i != v->lead && l < nodes->nnodes; l++) {
            int ml = axon_hier_node_size(nodes, l);
            axon_coll_sched_recv(s, axon_hier_a2a_area(a, out, l) + (int64_t)i * ml * bb, ml * bb, &axon_coll_bytes,
                                 v->members[i]);
        }
    axon_coll_sched_round(s);
    /* 2: the swap. */
    for (int l = 0; l < nodes->nnodes; l++) {
        if (l == k)
            continue;
        int64_t bytes = (int64_t)axon_hier_node_size(nodes, l) * m * bb;
        axon_coll_sched_recv(s, axon_hier_a2a_area(a, in, l), bytes, &axon_coll_bytes, nodes->leaders[l]);
        axon_coll_sched_send(s, axon_hier_a2a_area(a, out, l), bytes, &axon_coll_bytes, nodes->leaders[l]);
    }
    axon_coll_sched_round(s);
    /* 3: each member's blocks picked out, then sent; its own picked while those messages travel. */
    for (int t = 0; t < m; t++)
        if (t != v->lead)
            axon_hier_a2a_pick(s, a, out, in, k, t, picked + (int64_t)t * n * bb, recv);
    axon_coll_sched_round(s);
    for (int t = 0; t < m; t++)
        if (t != v->lead)
            axon_coll_sched_send(s, picked + (int64_t)t * n * bb, n * bb, &axon_coll_bytes, v->members[t]);
    axon_hier_a2a_pick(s, a, out, in, k, v->lead, NULL, recv);
    axon_coll_sched_round(s);
}

static void axon_hier_alltoall_member(struct axon_coll_sched *s, const struct axon_hier_view *v,
                                      const struct axon_hier_a2a *a, const struct axon_coll_block *src,
                                      const struct axon_coll_block *recv)
{
    const struct axon_coll_nodes *nodes = a->nodes;
    int n = nodes->nranks, leader = v->members[v->lead];
    int64_t bb = a->bb;
    char *packed = axon_coll_sched_alloc(s, (size_t)(n * bb));
    if (!packed)
        return;
    axon_hier_a2a_pack(s, a, src, packed, -1);
    axon_coll_sched_round(s);
    for (int l = 0; l < nodes->nnodes; l++)
        axon_coll_sched_send(s, packed + nodes->node_start[l] * bb, axon_hier_node_size(nodes, l) * bb,
                             &axon_coll_bytes, leader);
    axon_coll_sched_round(s);
    /* The same scratch again: its messages have left. */
    axon_coll_sched_recv(s, packed, n * bb, &axon_coll_bytes, leader);
    axon_coll_sched_round(s);
    struct axon_coll_block b;
    for (int p = 0; p < n; p++) {
        axon_coll_block_of_bytes(packed + p * bb, bb, &b);
        axon_coll_block_copy(s, &b, &recv[nodes->by_node[p]]);
    }
    axon_coll_sched_round(s);
}

void axon_coll_hier_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                             const struct axon_coll_block *recv)
{
    struct axon_hier_view v;
    if (!axon_hier_view(s, -1, &v))
        return;
    struct axon_hier_a2a a = {axon_coll_sched_nodes(s), axon_coll_block_bytes(&recv[0]), v.nmembers};
    if (a.bb == 0)
        return;
    axon_coll_sched_round(s); /* steps added before belong to earlier rounds */
    const struct axon_coll_block *src = send ? send : recv;
    if (v.leading)
        axon_hier_alltoall_lead(s, &v, &a, src, recv);
    else
        axon_hier_alltoall_member(s, &v, &a, src, recv);
}
