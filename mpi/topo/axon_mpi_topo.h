/* The topologies' internal header: what the neighborhood collectives (mpi/coll/axon_mpi_neighbor.c) and
 * MPI_Topo_test ask of a communicator's topology. Each topology rides on its communicator as an
 * attribute under a keyval of the library's own (mpi/topo/axon_mpi_topo_cart.c, mpi/topo/axon_mpi_topo_graph.c,
 * mpi/topo/axon_mpi_topo_dist_graph.c). Only mpi/ includes this. */
#ifndef AXON_MPI_TOPO_H
#define AXON_MPI_TOPO_H

#include "mpi/axon_mpi.h"

#include <stdatomic.h>

/* A kind of topology, kept as an attribute of its communicator under a keyval of the library's own
 * (axon_mpi_topo_attr.c): dup copies one for MPI_Comm_dup (NULL when out of memory), release frees one
 * when its communicator goes. keyval starts as MPI_KEYVAL_INVALID and is made on first use. */
struct axon_topo_attr {
    void *(*dup)(const void *value);
    void (*release)(void *value);
    atomic_int keyval;
};
/* The topology of this kind on comm, or NULL when it has none. */
void *axon_topo_attr_get(struct axon_topo_attr *t, MPI_Comm comm);
/* Puts value on comm (the attribute then owns it); MPI_ERR_INTERN when the keyval cannot be made. */
int axon_topo_attr_set(struct axon_topo_attr *t, MPI_Comm comm, void *value);

/* The 2 * ndims neighbors of rank in comm's Cartesian grid, in the order of the neighborhood
 * collectives' buffers: for each dimension d, the source then the destination of MPI_Cart_shift(d, 1),
 * MPI_PROC_NULL off a non-periodic edge. MPI_SUCCESS (*ranks is the caller's to free), MPI_ERR_TOPOLOGY
 * when comm has no grid, or MPI_ERR_NO_MEM. */
int axon_topo_cart_neighbors(MPI_Comm comm, int rank, int *count, int **ranks);

/* Graph topologies (axon_mpi_topo_graph.c): whether comm has one, and the neighbors of rank in it (both
 * directions alike, in the order of MPI_Graph_neighbors), like axon_topo_cart_neighbors. */
bool axon_topo_is_graph(MPI_Comm comm);
int axon_topo_graph_neighbors(MPI_Comm comm, int rank, int *count, int **ranks);

/* This process's edges in a distributed graph: the sources of its incoming edges and the destinations
 * of its outgoing ones, in the order the neighborhood collectives use, with their weights (meaningful
 * when weighted). */
struct axon_dist_graph {
    int indegree, outdegree;
    bool weighted;
    int *sources, *sourceweights;
    int *destinations, *destweights;
};

/* The graph of comm, or NULL when it has none; valid while comm is. */
const struct axon_dist_graph *axon_topo_dist_graph_of(MPI_Comm comm);

#endif
