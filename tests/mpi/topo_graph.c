/* Graph topologies: MPI_Graph_create over a ring with chords (multi-edges at small sizes), the queries
 * against the arrays given, MPI_Topo_test, MPI_Comm_dup keeping the graph, a graph of fewer nodes than
 * processes, a neighborhood allgather along the graph, MPI_Graph_map and MPI_Cart_map, and bad
 * arguments under MPI_ERRORS_RETURN. Prints "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Node i's neighbors: i+1, i-1, i+2, i-2 (mod n), so the graph is symmetric. */
static void ring_graph(int n, int *index, int *edges)
{
    int e = 0;
    for (int i = 0; i < n; i++) {
        edges[e++] = (i + 1) % n;
        edges[e++] = (i + n - 1) % n;
        edges[e++] = (i + 2) % n;
        edges[e++] = (i + 2 * n - 2) % n;
        index[i] = e;
    }
}

int main(int argc, char **argv)
{
    int rank, size, status = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * (size_t)(4 * size));
    ring_graph(size, index, edges);

    MPI_Comm g, d;
    EXPECT(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 1, &g) == MPI_SUCCESS && g != MPI_COMM_NULL);
    EXPECT(MPI_Topo_test(g, &status) == MPI_SUCCESS && status == MPI_GRAPH);
    EXPECT(MPI_Topo_test(MPI_COMM_WORLD, &status) == MPI_SUCCESS && status == MPI_UNDEFINED);
    int nnodes = -1, nedges = -1;
    EXPECT(MPI_Graphdims_get(g, &nnodes, &nedges) == MPI_SUCCESS && nnodes == size && nedges == 4 * size);
    int *gi = malloc(sizeof(int) * (size_t)size), *ge = malloc(sizeof(int) * (size_t)(4 * size));
    EXPECT(MPI_Graph_get(g, size, 4 * size, gi, ge) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < size; i++)
        bad += gi[i] != index[i];
    for (int e = 0; e < 4 * size; e++)
        bad += ge[e] != edges[e];
    EXPECT(bad == 0);
    int part[2] = {-1, -1};
    EXPECT(MPI_Graph_get(g, 1, 2, gi, part) == MPI_SUCCESS && part[0] == edges[0] && part[1] == edges[1]);
    for (int i = 0; i < size; i++) {
        int n = -1, nb[4] = {-1, -1, -1, -1};
        EXPECT(MPI_Graph_neighbors_count(g, i, &n) == MPI_SUCCESS && n == 4);
        EXPECT(MPI_Graph_neighbors(g, i, 4, nb) == MPI_SUCCESS);
        for (int k = 0; k < 4; k++)
            EXPECT(nb[k] == edges[4 * i + k]);
    }

    /* The graph travels with MPI_Comm_dup; neighbors exchange along it. */
    EXPECT(MPI_Comm_dup(g, &d) == MPI_SUCCESS);
    EXPECT(MPI_Topo_test(d, &status) == MPI_SUCCESS && status == MPI_GRAPH);
    int mine = 10 * rank, got[4] = {-1, -1, -1, -1};
    EXPECT(MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, d) == MPI_SUCCESS);
    for (int k = 0; k < 4; k++)
        EXPECT(got[k] == 10 * edges[4 * rank + k]);
    MPI_Comm_free(&d);
    MPI_Comm_free(&g);

    /* Fewer nodes than processes: the last process is left out. */
    if (size > 1) {
        int idx1[64], edg1[256];
        ring_graph(size - 1, idx1, edg1);
        EXPECT(MPI_Graph_create(MPI_COMM_WORLD, size - 1, idx1, edg1, 0, &g) == MPI_SUCCESS);
        EXPECT((rank == size - 1) == (g == MPI_COMM_NULL));
        if (g != MPI_COMM_NULL) {
            int gsize = -1;
            MPI_Comm_size(g, &gsize);
            EXPECT(gsize == size - 1);
            MPI_Comm_free(&g);
        }
    }
    int newrank = -2, dims[2] = {1, size}, periods[2] = {0, 1};
    EXPECT(MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &newrank) == MPI_SUCCESS && newrank == rank);
    EXPECT(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank) == MPI_SUCCESS && newrank == rank);
    dims[1] = 1;
    EXPECT(MPI_Cart_map(MPI_COMM_WORLD, 2, dims, periods, &newrank) == MPI_SUCCESS &&
           newrank == (rank == 0 ? 0 : MPI_UNDEFINED));

    /* Bad arguments. */
    int far[4] = {size, 0, 0, 0}, down[2] = {2, 1}, one_edge[2] = {0, 0}, n = 0, nb[4];
    EXPECT(class_of(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &g)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &g)) == MPI_ERR_ARG);
    int idx_one[1] = {1};
    EXPECT(class_of(MPI_Graph_create(MPI_COMM_WORLD, 1, idx_one, far, 0, &g)) == MPI_ERR_ARG);
    if (size > 1)
        EXPECT(class_of(MPI_Graph_create(MPI_COMM_WORLD, 2, down, one_edge, 0, &g)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Graph_create(MPI_COMM_NULL, size, index, edges, 0, &g)) == MPI_ERR_COMM);
    EXPECT(class_of(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Graphdims_get(MPI_COMM_WORLD, &nnodes, &nedges)) == MPI_ERR_TOPOLOGY);
    EXPECT(class_of(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &n)) == MPI_ERR_TOPOLOGY);
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g);
    EXPECT(class_of(MPI_Graph_neighbors_count(g, size, &n)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Graph_neighbors(g, -1, 4, nb)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Graph_get(g, -1, 0, gi, ge)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Graphdims_get(g, NULL, &nedges)) == MPI_ERR_ARG);
    MPI_Comm_free(&g);
    int big[1] = {size + 1};
    EXPECT(class_of(MPI_Cart_map(MPI_COMM_WORLD, 1, big, periods, &newrank)) == MPI_ERR_DIMS);
    EXPECT(class_of(MPI_Cart_map(MPI_COMM_WORLD, -1, big, periods, &newrank)) == MPI_ERR_DIMS);
    EXPECT(class_of(MPI_Graph_map(MPI_COMM_WORLD, 1, idx_one, far, &newrank)) == MPI_ERR_ARG);

    free(index);
    free(edges);
    free(gi);
    free(ge);
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
