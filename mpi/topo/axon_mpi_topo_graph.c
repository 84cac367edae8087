/* Graph topologies (MPI-1's): MPI_Graph_create, MPI_Graphdims_get, MPI_Graph_get,
 * MPI_Graph_neighbors_count, MPI_Graph_neighbors and MPI_Graph_map, MPI_Cart_map (the mapping of the
 * other topology kind, kept with its twin), and the neighbor lists that MPI_Topo_test and the
 * neighborhood collectives ask of a graph communicator (mpi/topo/axon_mpi_topo.h).
 *
 * Unlike a distributed graph, every process holds the whole graph (nnodes, index, edges as the caller
 * gave them), which is what MPI_Graph_get must return. It rides on the communicator as an attribute
 * under a keyval of the library's own, as Cartesian grids do, so MPI_Comm_dup copies it and
 * MPI_Comm_free drops it. The graph's nodes are the first nnodes ranks of the old communicator in their
 * order (the others get MPI_COMM_NULL); reorder is accepted and not used, so the maps answer each
 * process's own rank. */
#include "mpi/topo/axon_mpi_topo.h"

#include <stdlib.h>
#include <string.h>

struct axon_graph {
    int nnodes;
    int *index; /* [nnodes]: index[i] is the end of node i's edges */
    int *edges; /* [index[nnodes - 1]] */
};


static int axon_graph_nedges(const struct axon_graph *g)
{
    return g->nnodes > 0 ? g->index[g->nnodes - 1] : 0;
}

static struct axon_graph *axon_graph_new(int nnodes, const int *index, const int *edges)
{
    struct axon_graph *g = malloc(sizeof(*g));
    if (!g)
        return NULL;
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    g->nnodes = nnodes;
    g->index = malloc(sizeof(int) * (size_t)(nnodes + 1));
    g->edges = malloc(sizeof(int) * (size_t)(nedges + 1));
    if (!g->index || !g->edges) {
        free(g->index);
        free(g->edges);
        free(g);
        return NULL;
    }
    if (nnodes > 0)
        memcpy(g->index, index, sizeof(int) * (size_t)nnodes);
    if (nedges > 0)
        memcpy(g->edges, edges, sizeof(int) * (size_t)nedges);
    return g;
}

static void axon_graph_delete(struct axon_graph *g)
{
    free(g->index);
    free(g->edges);
    free(g);
}

static void *axon_graph_dup(const void *value)
{
    const struct axon_graph *from = value;
    return axon_graph_new(from->nnodes, from->index, from->edges);
}

static void axon_graph_release(void *value)
{
    axon_graph_delete(value);
}

static struct axon_topo_attr axon_graph_attr = {axon_graph_dup, axon_graph_release, MPI_KEYVAL_INVALID};

static struct axon_graph *axon_graph_of(MPI_Comm comm)
{
    return axon_topo_attr_get(&axon_graph_attr, comm);
}

bool axon_topo_is_graph(MPI_Comm comm)
{
    return axon_graph_of(comm) != NULL;
}

int axon_topo_graph_neighbors(MPI_Comm comm, int rank, int *count, int **ranks)
{
    const struct axon_graph *g = axon_graph_of(comm);
    if (!g)
        return MPI_ERR_TOPOLOGY;
    int first = rank > 0 ? g->index[rank - 1] : 0, n = g->index[rank] - first;
    int *out = malloc(sizeof(int) * (size_t)(n + 1));
    if (!out)
        return MPI_ERR_NO_MEM;
    memcpy(out, g->edges + first, sizeof(int) * (size_t)n);
    *count = n;
    *ranks = out;
    return MPI_SUCCESS;
}

/* The checks of MPI_Graph_create and MPI_Graph_map: a graph of nnodes nodes that fits in c. */
static int axon_graph_check(const char *func, struct axon_comm *c, int nnodes, const int *index, const int *edges)
{
    if (nnodes < 0 || nnodes > c->size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "nnodes %d is not in [0, %d]", nnodes, c->size);
    if (nnodes > 0 && (!index || !edges))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "index or edges is a NULL pointer");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i > 0 ? index[i - 1] : 0))
            return axon_mpi_error(c, func, MPI_ERR_ARG, "index[%d] = %d is below the index before it", i, index[i]);
    int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return axon_mpi_error(c, func, MPI_ERR_ARG, "edges[%d] = %d is not a node of the graph (0..%d)", e,
                                  edges[e], nnodes - 1);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Graph_create)
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *comm_graph)
{
    static const char func[] = "MPI_Graph_create";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm_old, c);
    (void)reorder;
    if (c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "a graph cannot be made on an intercommunicator");
    if (!comm_graph)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "comm_graph is a NULL pointer");
    *comm_graph = MPI_COMM_NULL; /* what an error below leaves */
    int rc = axon_graph_check(func, c, nnodes, index, edges);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_graph *g = axon_graph_new(nnodes, index, edges);
    if (!g)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    MPI_Comm graph;
    rc = PMPI_Comm_split(comm_old, c->rank < nnodes ? 0 : MPI_UNDEFINED, c->rank, &graph);
    if (rc == MPI_SUCCESS && graph != MPI_COMM_NULL) {
        rc = axon_topo_attr_set(&axon_graph_attr, graph, g);
        if (rc != MPI_SUCCESS)
            PMPI_Comm_free(&graph);
    }
    if (rc != MPI_SUCCESS || graph == MPI_COMM_NULL)
        axon_graph_delete(g);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the graph communicator could not be made");
    *comm_graph = graph;
    return MPI_SUCCESS;
}

/* The checks every query starts with: a valid communicator that carries a graph. */
#define AXON_GRAPH_LOOKUP(func, comm, c, g)                                                          \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        (g) = axon_graph_of(comm);                                                                   \
        if (!(g))                                                                                    \
            return axon_mpi_error(c, func, MPI_ERR_TOPOLOGY, "the communicator has no graph topology"); \
    } while (0)

AXON_MPI_WEAK(Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    static const char func[] = "MPI_Graphdims_get";
    struct axon_comm *c;
    struct axon_graph *g;
    AXON_GRAPH_LOOKUP(func, comm, c, g);
    if (!nnodes || !nedges)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "nnodes or nedges is a NULL pointer");
    *nnodes = g->nnodes;
    *nedges = axon_graph_nedges(g);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    static const char func[] = "MPI_Graph_get";
    struct axon_comm *c;
    struct axon_graph *g;
    AXON_GRAPH_LOOKUP(func, comm, c, g);
    if (maxindex < 0 || maxedges < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "maxindex %d or maxedges %d is negative", maxindex, maxedges);
    int ni = maxindex < g->nnodes ? maxindex : g->nnodes, nedges = axon_graph_nedges(g);
    int ne = maxedges < nedges ? maxedges : nedges;
    if ((ni > 0 && !index) || (ne > 0 && !edges))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "index or edges is a NULL pointer");
    if (ni > 0)
        memcpy(index, g->index, sizeof(int) * (size_t)ni);
    if (ne > 0)
        memcpy(edges, g->edges, sizeof(int) * (size_t)ne);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    static const char func[] = "MPI_Graph_neighbors_count";
    struct axon_comm *c;
    struct axon_graph *g;
    AXON_GRAPH_LOOKUP(func, comm, c, g);
    if (rank < 0 || rank >= g->nnodes)
        return axon_mpi_error(c, func, MPI_ERR_RANK, "rank %d is not a node of the graph (0..%d)", rank,
                              g->nnodes - 1);
    if (!nneighbors)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "nneighbors is a NULL pointer");
    *nneighbors = g->index[rank] - (rank > 0 ? g->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    static const char func[] = "MPI_Graph_neighbors";
    struct axon_comm *c;
    struct axon_graph *g;
    AXON_GRAPH_LOOKUP(func, comm, c, g);
    if (rank < 0 || rank >= g->nnodes)
        return axon_mpi_error(c, func, MPI_ERR_RANK, "rank %d is not a node of the graph (0..%d)", rank,
                              g->nnodes - 1);
    if (maxneighbors < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "maxneighbors %d is negative", maxneighbors);
    int first = rank > 0 ? g->index[rank - 1] : 0, n = g->index[rank] - first;
    if (n > maxneighbors)
        n = maxneighbors;
    if (n > 0 && !neighbors)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "neighbors is a NULL pointer");
    if (n > 0)
        memcpy(neighbors, g->edges + first, sizeof(int) * (size_t)n);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    static const char func[] = "MPI_Graph_map";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newrank)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newrank is a NULL pointer");
    int rc = axon_graph_check(func, c, nnodes, index, edges);
    if (rc != MPI_SUCCESS)
        return rc;
    /* No reordering: MPI_Graph_create keeps the first nnodes ranks. */
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    static const char func[] = "MPI_Cart_map";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    (void)periods;
    if (!newrank)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newrank is a NULL pointer");
    if (ndims < 0)
        return axon_mpi_error(c, func, MPI_ERR_DIMS, "ndims %d is negative", ndims);
    if (ndims > 0 && !dims)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "dims is a NULL pointer");
    int64_t nodes = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return axon_mpi_error(c, func, MPI_ERR_DIMS, "dims[%d] = %d is not positive", i, dims[i]);
        nodes *= dims[i];
        if (nodes > c->size)
            return axon_mpi_error(c, func, MPI_ERR_DIMS, "the grid has more places than the %d processes", c->size);
    }
    /* No reordering, as in MPI_Cart_create: the first nodes ranks in their order. */
    *newrank = c->rank < nodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
