/* Distributed graph topologies: MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
 * MPI_Dist_graph_neighbors_count, MPI_Dist_graph_neighbors, the MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY
 * markers, and the graph of a communicator for the neighborhood collectives (mpi/topo/axon_mpi_topo.h).
 *
 * As with Cartesian grids, a process's edges ride on its communicator as an attribute under a keyval of
 * the library's own, so MPI_Comm_dup copies them and MPI_Comm_free drops them. Each process keeps only
 * its own edges, in the order the standard gives the neighborhood collectives: the order of the
 * adjacent call's arrays; for the general call, by the rank that named the edge, then by its place in
 * that rank's arrays (an edge reaches its two ends through one all-to-all exchange). Ranks keep their
 * order: reorder is accepted and not used. Multigraphs (duplicate edges, self-loops) are allowed. */
#include "mpi/coll/axon_mpi_coll.h"
#include "mpi/comm/axon_mpi_comm.h"
#include "mpi/topo/axon_mpi_topo.h"

#include <stdlib.h>
#include <string.h>

/* The markers are distinct addresses that no user array can have, as MPICH makes them; exported under
 * MPICH's names so that a program built with MPICH's header finds them here. */
static int axon_dist_graph_unweighted_mark, axon_dist_graph_weights_empty_mark;
__attribute__((visibility("default"))) int *const MPI_UNWEIGHTED = &axon_dist_graph_unweighted_mark;
__attribute__((visibility("default"))) int *const MPI_WEIGHTS_EMPTY = &axon_dist_graph_weights_empty_mark;


/* One allocation: the struct, then sources, sourceweights, destinations, destweights. Weights are
 * copied when given (NULL: unweighted, left 0). */
static struct axon_dist_graph *axon_dist_graph_new(int indegree, const int *sources, const int *sourceweights,
                                                   int outdegree, const int *destinations, const int *destweights,
                                                   bool weighted)
{
    size_t ints = 2 * (size_t)indegree + 2 * (size_t)outdegree;
    struct axon_dist_graph *g = calloc(1, sizeof(*g) + sizeof(int) * (ints ? ints : 1));
    if (!g)
        return NULL;
    g->indegree = indegree;
    g->outdegree = outdegree;
    g->weighted = weighted;
    g->sources = (int *)(g + 1);
    g->sourceweights = g->sources + indegree;
    g->destinations = g->sourceweights + indegree;
    g->destweights = g->destinations + outdegree;
    if (indegree > 0)
        memcpy(g->sources, sources, sizeof(int) * (size_t)indegree);
    if (outdegree > 0)
        memcpy(g->destinations, destinations, sizeof(int) * (size_t)outdegree);
    if (sourceweights && indegree > 0)
        memcpy(g->sourceweights, sourceweights, sizeof(int) * (size_t)indegree);
    if (destweights && outdegree > 0)
        memcpy(g->destweights, destweights, sizeof(int) * (size_t)outdegree);
    return g;
}

static void *axon_dist_graph_dup(const void *value)
{
    const struct axon_dist_graph *from = value;
    return axon_dist_graph_new(from->indegree, from->sources, from->sourceweights, from->outdegree,
                               from->destinations, from->destweights, from->weighted);
}

static void axon_dist_graph_release(void *value)
{
    free(value);
}

static struct axon_topo_attr axon_dist_graph_attr = {axon_dist_graph_dup, axon_dist_graph_release, MPI_KEYVAL_INVALID};

const struct axon_dist_graph *axon_topo_dist_graph_of(MPI_Comm comm)
{
    return axon_topo_attr_get(&axon_dist_graph_attr, comm);
}

/* The new communicator: the members of comm_old in their order, without its attributes (a split does
 * not copy them), carrying g. Owns g. */
static int axon_dist_graph_attach(const char *func, struct axon_comm *c, MPI_Comm comm_old,
                                  struct axon_dist_graph *g, MPI_Comm *comm_dist_graph)
{
    MPI_Comm graph;
    int rc = PMPI_Comm_split(comm_old, 0, c->rank, &graph);
    if (rc == MPI_SUCCESS) {
        rc = axon_topo_attr_set(&axon_dist_graph_attr, graph, g);
        if (rc != MPI_SUCCESS)
            PMPI_Comm_free(&graph);
    }
    if (rc != MPI_SUCCESS) {
        free(g);
        return axon_mpi_error(c, func, rc, "the graph communicator could not be made");
    }
    *comm_dist_graph = graph;
    return MPI_SUCCESS;
}

/* The checks both creation calls start with. */
#define AXON_DIST_GRAPH_CHECK_COMM(func, comm_old, c, info, out)                                     \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm_old, c);                                                      \
        if ((c)->is_inter)                                                                           \
            return axon_mpi_error(c, func, MPI_ERR_COMM, "a topology needs an intracommunicator");   \
        if (!(out))                                                                                  \
            return axon_mpi_error(c, func, MPI_ERR_ARG, "comm_dist_graph is a NULL pointer");        \
        *(out) = MPI_COMM_NULL; /* what an error below leaves */                                     \
        if ((info) != MPI_INFO_NULL && !axon_mpi_info_valid(info))                                   \
            return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME((info))); \
    } while (0)

/* n ranks of c, and their weights when given: every rank in the communicator, every weight >= 0. */
static int axon_dist_graph_check_ranks(const char *func, struct axon_comm *c, int n, const int *ranks,
                                       const int *weights, const char *what)
{
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= c->size)
            return axon_mpi_error(c, func, MPI_ERR_RANK, "%s[%d] = %d is not a rank of the communicator (size %d)",
                                  what, i, ranks[i], c->size);
        if (weights && weights[i] < 0)
            return axon_mpi_error(c, func, MPI_ERR_ARG, "the weight of %s[%d] is negative (%d)", what, i,
                                  weights[i]);
    }
    return MPI_SUCCESS;
}

/* A weight array's meaning: NULL when unweighted; an error when weights are due and missing. */
static int axon_dist_graph_weights(const char *func, struct axon_comm *c, int n, const int *weights,
                                   const char *what, const int **out)
{
    *out = NULL;
    if (weights == MPI_UNWEIGHTED)
        return MPI_SUCCESS;
    if (n > 0 && (!weights || weights == MPI_WEIGHTS_EMPTY))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "%s is missing for %d edges", what, n);
    *out = n > 0 ? weights : NULL;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Dist_graph_create_adjacent)
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                    int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    static const char func[] = "MPI_Dist_graph_create_adjacent";
    struct axon_comm *c;
    AXON_DIST_GRAPH_CHECK_COMM(func, comm_old, c, info, comm_dist_graph);
    (void)reorder;
    if (indegree < 0 || outdegree < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "indegree %d or outdegree %d is negative", indegree, outdegree);
    if ((indegree > 0 && !sources) || (outdegree > 0 && !destinations))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "sources or destinations is a NULL pointer");
    const int *sw, *dw;
    int rc = axon_dist_graph_weights(func, c, indegree, sourceweights, "sourceweights", &sw);
    if (rc == MPI_SUCCESS)
        rc = axon_dist_graph_weights(func, c, outdegree, destweights, "destweights", &dw);
    if (rc == MPI_SUCCESS)
        rc = axon_dist_graph_check_ranks(func, c, indegree, sources, sw, "sources");
    if (rc == MPI_SUCCESS)
        rc = axon_dist_graph_check_ranks(func, c, outdegree, destinations, dw, "destinations");
    if (rc != MPI_SUCCESS)
        return rc;
    bool weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
    struct axon_dist_graph *g =
        axon_dist_graph_new(indegree, sources, weighted ? sw : NULL, outdegree, destinations, weighted ? dw : NULL,
                            weighted);
    if (!g)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    return axon_dist_graph_attach(func, c, comm_old, g, comm_dist_graph);
}

/* What one edge tells one of its ends: an edge out of it (to peer) or into it (from peer). Three ints
 * on the wire. */
enum { AXON_EDGE_OUT, AXON_EDGE_IN, AXON_EDGE_INTS = 3 };

/* MPI_Dist_graph_create's exchange: every edge named here goes to both its ends, which gather theirs. */
static int axon_dist_graph_exchange(const char *func, struct axon_comm *c, MPI_Comm comm, int n,
                                    const int *sources, const int *degrees, const int *destinations,
                                    const int *weights, bool weighted, struct axon_dist_graph **out)
{
    int size = c->size, rc = MPI_ERR_NO_MEM;
    int *scounts = calloc((size_t)size, sizeof(int)), *rcounts = calloc((size_t)size, sizeof(int));
    int *sdispls = calloc((size_t)size, sizeof(int)), *rdispls = calloc((size_t)size, sizeof(int));
    int *sbuf = NULL, *rbuf = NULL, *in = NULL, *inw = NULL, *outr = NULL, *outw = NULL;
    if (!scounts || !rcounts || !sdispls || !rdispls)
        goto done;
    int edges = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, edges++) {
            scounts[sources[i]] += AXON_EDGE_INTS;
            scounts[destinations[edges]] += AXON_EDGE_INTS;
        }
    int stotal = 0;
    for (int r = 0; r < size; r++) {
        sdispls[r] = stotal;
        stotal += scounts[r];
    }
    sbuf = malloc(sizeof(int) * (size_t)(stotal ? stotal : 1));
    if (!sbuf)
        goto done;
    /* sdispls advance as the records go in, in the order of the edges; then they are rebuilt. */
    edges = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, edges++) {
            int s = sources[i], d = destinations[edges], w = weights ? weights[edges] : 0;
            int *rec = sbuf + sdispls[s];
            rec[0] = AXON_EDGE_OUT, rec[1] = d, rec[2] = w;
            sdispls[s] += AXON_EDGE_INTS;
            rec = sbuf + sdispls[d];
            rec[0] = AXON_EDGE_IN, rec[1] = s, rec[2] = w;
            sdispls[d] += AXON_EDGE_INTS;
        }
    for (int r = 0; r < size; r++)
        sdispls[r] -= scounts[r];
    static const MPI_Datatype ints = MPI_INT;
    rc = axon_mpi_alltoall(func, 0, scounts, 1, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &ints, rcounts, 1,
                           AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &ints, comm, NULL);
    if (rc != MPI_SUCCESS)
        goto done;
    int rtotal = 0;
    for (int r = 0; r < size; r++) {
        rdispls[r] = rtotal;
        rtotal += rcounts[r];
    }
    rc = MPI_ERR_NO_MEM;
    rbuf = malloc(sizeof(int) * (size_t)(rtotal ? rtotal : 1));
    int nrec = rtotal / AXON_EDGE_INTS;
    in = malloc(sizeof(int) * (size_t)(nrec + 1)), inw = malloc(sizeof(int) * (size_t)(nrec + 1));
    outr = malloc(sizeof(int) * (size_t)(nrec + 1)), outw = malloc(sizeof(int) * (size_t)(nrec + 1));
    if (!rbuf || !in || !inw || !outr || !outw)
        goto done;
    rc = axon_mpi_alltoall(func, 1, sbuf, 0, AXON_MPI_INTS(scounts), AXON_MPI_INTS(sdispls), &ints, rbuf, 0,
                           AXON_MPI_INTS(rcounts), AXON_MPI_INTS(rdispls), &ints, comm, NULL);
    if (rc != MPI_SUCCESS)
        goto done;
    /* The records come grouped by the rank that named them, each group in that rank's order. */
    int nin = 0, nout = 0;
    for (int k = 0; k < nrec; k++) {
        const int *rec = rbuf + k * AXON_EDGE_INTS;
        if (rec[0] == AXON_EDGE_OUT) {
            outr[nout] = rec[1];
            outw[nout++] = rec[2];
        } else {
            in[nin] = rec[1];
            inw[nin++] = rec[2];
        }
    }
    *out = axon_dist_graph_new(nin, in, weighted ? inw : NULL, nout, outr, weighted ? outw : NULL, weighted);
    rc = *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
done:
    if (rc == MPI_ERR_NO_MEM)
        rc = axon_mpi_error(c, func, rc, "out of memory");
    free(scounts), free(rcounts), free(sdispls), free(rdispls);
    free(sbuf), free(rbuf), free(in), free(inw), free(outr), free(outw);
    return rc;
}

AXON_MPI_WEAK(Dist_graph_create)
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    static const char func[] = "MPI_Dist_graph_create";
    struct axon_comm *c;
    AXON_DIST_GRAPH_CHECK_COMM(func, comm_old, c, info, comm_dist_graph);
    (void)reorder;
    if (n < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "n %d is negative", n);
    if (n > 0 && (!sources || !degrees))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "sources or degrees is a NULL pointer");
    int64_t edges = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return axon_mpi_error(c, func, MPI_ERR_ARG, "degrees[%d] = %d is negative", i, degrees[i]);
        edges += degrees[i];
    }
    /* Each edge travels as AXON_EDGE_INTS ints to each end, counted in an int. */
    if (edges > INT32_MAX / (2 * AXON_EDGE_INTS))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "%lld edges are too many", (long long)edges);
    if (edges > 0 && !destinations)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "destinations is a NULL pointer");
    const int *w;
    int rc = axon_dist_graph_weights(func, c, (int)edges, weights, "weights", &w);
    if (rc == MPI_SUCCESS)
        rc = axon_dist_graph_check_ranks(func, c, n, sources, NULL, "sources");
    if (rc == MPI_SUCCESS)
        rc = axon_dist_graph_check_ranks(func, c, (int)edges, destinations, w, "destinations");
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_dist_graph *g = NULL;
    rc = axon_dist_graph_exchange(func, c, comm_old, n, sources, degrees, destinations, w,
                                  weights != MPI_UNWEIGHTED, &g);
    if (rc != MPI_SUCCESS)
        return rc;
    return axon_dist_graph_attach(func, c, comm_old, g, comm_dist_graph);
}

/* The checks every query starts with: a valid communicator that carries a graph. */
#define AXON_DIST_GRAPH_LOOKUP(func, comm, c, g)                                                     \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        (g) = axon_topo_dist_graph_of(comm);                                                         \
        if (!(g))                                                                                    \
            return axon_mpi_error(c, func, MPI_ERR_TOPOLOGY, "the communicator has no distributed graph topology"); \
    } while (0)

AXON_MPI_WEAK(Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    static const char func[] = "MPI_Dist_graph_neighbors_count";
    struct axon_comm *c;
    const struct axon_dist_graph *g;
    AXON_DIST_GRAPH_LOOKUP(func, comm, c, g);
    if (!indegree || !outdegree || !weighted)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "indegree, outdegree or weighted is a NULL pointer");
    *indegree = g->indegree;
    *outdegree = g->outdegree;
    *weighted = g->weighted;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Dist_graph_neighbors)
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[])
{
    static const char func[] = "MPI_Dist_graph_neighbors";
    struct axon_comm *c;
    const struct axon_dist_graph *g;
    AXON_DIST_GRAPH_LOOKUP(func, comm, c, g);
    if (maxindegree < g->indegree || maxoutdegree < g->outdegree)
        return axon_mpi_error(c, func, MPI_ERR_ARG,
                              "maxindegree %d or maxoutdegree %d is less than the degree (%d in, %d out)",
                              maxindegree, maxoutdegree, g->indegree, g->outdegree);
    if ((g->indegree > 0 && !sources) || (g->outdegree > 0 && !destinations))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "sources or destinations is a NULL pointer");
    /* Weights go out only for a weighted graph, and only into arrays the caller gave. */
    bool sw = g->weighted && sourceweights && sourceweights != MPI_UNWEIGHTED && sourceweights != MPI_WEIGHTS_EMPTY;
    bool dw = g->weighted && destweights && destweights != MPI_UNWEIGHTED && destweights != MPI_WEIGHTS_EMPTY;
    for (int i = 0; i < g->indegree; i++) {
        sources[i] = g->sources[i];
        if (sw)
            sourceweights[i] = g->sourceweights[i];
    }
    for (int i = 0; i < g->outdegree; i++) {
        destinations[i] = g->destinations[i];
        if (dw)
            destweights[i] = g->destweights[i];
    }
    return MPI_SUCCESS;
}
