/* Neighborhood collectives: the plan shared by the blocking (here), nonblocking and persistent
 * (mpi/coll/axon_mpi_ineighbor.c) forms of MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w), and the
 * blocking calls.
 *
 * A plan is one block per incoming and per outgoing edge of the caller, in the order of the topology's
 * neighbor lists (mpi/topo/axon_mpi_topo.h), which is the order of the user's buffer slots; an edge to
 * MPI_PROC_NULL keeps its slot and moves nothing. Messages between two ranks pair in posting order
 * (coll/axon_coll_neighbor.c). For a distributed graph that is the standard's rule: the k-th edge from
 * p to q at p meets the k-th edge from p at q. For a Cartesian grid the standard pairs by direction
 * instead: what a process sends to its destination along dimension d (slot 2d+1) lands in that
 * neighbor's source slot (2d), and what it sends to its source lands in the neighbor's destination
 * slot. The two differ only where both neighbors of a dimension are the same rank (a periodic dimension
 * of size 1 or 2), and there posting each dimension's send to the destination before the one to the
 * source, while receives stay in slot order (source, then destination), gives the standard's pairing. */
#include "mpi/coll/axon_mpi_coll.h"

#include "mpi/topo/axon_mpi_topo.h"

#include <stdlib.h>
#include <string.h>

/* The caller's neighbor lists: incoming edges' sources and outgoing edges' destinations, the caller's to
 * free. A Cartesian grid's two lists are alike, and so are a graph's. */
static int axon_neighbor_lists(const char *func, struct axon_comm *c, MPI_Comm comm, int *indegree, int **sources,
                               int *outdegree, int **destinations, bool *cart)
{
    int n, *ranks;
    int rc = axon_topo_cart_neighbors(comm, c->rank, &n, &ranks);
    bool is_cart = rc == MPI_SUCCESS;
    /* A graph's neighbors are one list both ways too, paired by posting order as a distributed graph's. */
    if (rc == MPI_ERR_TOPOLOGY)
        rc = axon_topo_graph_neighbors(comm, c->rank, &n, &ranks);
    if (rc == MPI_SUCCESS) {
        int *copy = malloc(sizeof(int) * (size_t)(n + 1));
        if (!copy) {
            free(ranks);
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        }
        memcpy(copy, ranks, sizeof(int) * (size_t)n);
        *indegree = *outdegree = n;
        *sources = ranks;
        *destinations = copy;
        *cart = is_cart;
        return MPI_SUCCESS;
    }
    if (rc != MPI_ERR_TOPOLOGY)
        return axon_mpi_error(c, func, rc, "out of memory");
    const struct axon_dist_graph *g = axon_topo_dist_graph_of(comm);
    if (!g)
        return axon_mpi_error(c, func, MPI_ERR_TOPOLOGY, "the communicator has no topology");
    int *in = malloc(sizeof(int) * (size_t)(g->indegree + 1)), *out = malloc(sizeof(int) * (size_t)(g->outdegree + 1));
    if (!in || !out) {
        free(in), free(out);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    memcpy(in, g->sources, sizeof(int) * (size_t)g->indegree);
    memcpy(out, g->destinations, sizeof(int) * (size_t)g->outdegree);
    *indegree = g->indegree;
    *outdegree = g->outdegree;
    *sources = in;
    *destinations = out;
    *cart = false;
    return MPI_SUCCESS;
}

/* How one side's blocks lie in its buffer. */
enum axon_neighbor_layout {
    AXON_NEIGHBOR_ONE,     /* the same block for every edge (allgather's send side) */
    AXON_NEIGHBOR_UNIFORM, /* block j: count elements at j * count extents */
    AXON_NEIGHBOR_V,       /* block j: counts[j] elements at displs[j] extents */
    AXON_NEIGHBOR_W,       /* block j: counts[j] elements of types[j] at displs[j] bytes */
};

/* The n blocks of one side, checked as the standard asks. */
static int axon_neighbor_blocks(const char *func, struct axon_comm *c, enum axon_neighbor_layout layout,
                                const void *buf, int64_t count, struct axon_mpi_array counts,
                                struct axon_mpi_array displs, MPI_Datatype type, const MPI_Datatype *types, int n,
                                const char *side, struct axon_coll_block *blocks)
{
    struct axon_dtype_layout dt = {0};
    if (buf == MPI_IN_PLACE)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in neighborhood collectives");
    if (layout != AXON_NEIGHBOR_W)
        AXON_MPI_COLL_CHECK_TYPE(func, c, type, dt, side);
    if (layout == AXON_NEIGHBOR_ONE || layout == AXON_NEIGHBOR_UNIFORM)
        AXON_MPI_COLL_CHECK_COUNT(func, c, count, side);
    if (n > 0 && (layout == AXON_NEIGHBOR_V || layout == AXON_NEIGHBOR_W)) {
        AXON_MPI_COLL_CHECK_ARRAY(func, c, counts.p, "a count array");
        AXON_MPI_COLL_CHECK_ARRAY(func, c, displs.p, "a displacement array");
        if (layout == AXON_NEIGHBOR_W)
            AXON_MPI_COLL_CHECK_ARRAY(func, c, types, "a datatype array");
    }
    for (int j = 0; j < n; j++) {
        int64_t cnt = count;
        int64_t off = 0;
        switch (layout) {
        case AXON_NEIGHBOR_ONE:
            break;
        case AXON_NEIGHBOR_UNIFORM:
            off = j * count * dt.extent;
            break;
        case AXON_NEIGHBOR_V:
            cnt = axon_mpi_array_get(counts, j);
            off = axon_mpi_array_get(displs, j) * dt.extent;
            break;
        case AXON_NEIGHBOR_W:
            cnt = axon_mpi_array_get(counts, j);
            off = axon_mpi_array_get(displs, j);
            AXON_MPI_COLL_CHECK_TYPE(func, c, types[j], dt, side);
            break;
        }
        AXON_MPI_COLL_CHECK_COUNT(func, c, cnt, side);
        if (axon_mpi_coll_bad_buffer((const char *)buf + off, cnt, &dt))
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "the %s buffer is NULL with a count of %lld", side,
                                  (long long)cnt);
        blocks[j] = (struct axon_coll_block){(char *)buf + off, cnt, dt};
    }
    return MPI_SUCCESS;
}

int axon_mpi_neighbor_plan(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                           struct axon_coll_plan *p)
{
    struct axon_comm *c;
    AXON_MPI_COLL_CHECK_COMM(func, comm, c);
    AXON_MPI_COLL_CHECK_INTRACOMM(func, c);
    int indegree = 0, outdegree = 0, *sources = NULL, *destinations = NULL;
    bool cart = false;
    int rc = axon_neighbor_lists(func, c, comm, &indegree, &sources, &outdegree, &destinations, &cart);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_coll_block *sblocks = calloc((size_t)outdegree + 1, sizeof(*sblocks));
    struct axon_coll_block *rblocks = calloc((size_t)indegree + 1, sizeof(*rblocks));
    if (!sblocks || !rblocks) {
        rc = axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        goto err;
    }
    static const enum axon_neighbor_layout send_layout[] = {
        [AXON_MPI_NEIGHBOR_ALLGATHER] = AXON_NEIGHBOR_ONE,     [AXON_MPI_NEIGHBOR_ALLGATHERV] = AXON_NEIGHBOR_ONE,
        [AXON_MPI_NEIGHBOR_ALLTOALL] = AXON_NEIGHBOR_UNIFORM,  [AXON_MPI_NEIGHBOR_ALLTOALLV] = AXON_NEIGHBOR_V,
        [AXON_MPI_NEIGHBOR_ALLTOALLW] = AXON_NEIGHBOR_W,
    };
    static const enum axon_neighbor_layout recv_layout[] = {
        [AXON_MPI_NEIGHBOR_ALLGATHER] = AXON_NEIGHBOR_UNIFORM, [AXON_MPI_NEIGHBOR_ALLGATHERV] = AXON_NEIGHBOR_V,
        [AXON_MPI_NEIGHBOR_ALLTOALL] = AXON_NEIGHBOR_UNIFORM,  [AXON_MPI_NEIGHBOR_ALLTOALLV] = AXON_NEIGHBOR_V,
        [AXON_MPI_NEIGHBOR_ALLTOALLW] = AXON_NEIGHBOR_W,
    };
    rc = axon_neighbor_blocks(func, c, send_layout[a->form], a->sendbuf, a->sendcount, a->sendcounts, a->sdispls,
                              a->sendtype, a->sendtypes, outdegree, "send", sblocks);
    if (rc != MPI_SUCCESS)
        goto err;
    rc = axon_neighbor_blocks(func, c, recv_layout[a->form], a->recvbuf, a->recvcount, a->recvcounts, a->rdispls,
                              a->recvtype, a->recvtypes, indegree, "receive", rblocks);
    if (rc != MPI_SUCCESS)
        goto err;
    if (cart) {
        /* Destination before source in each dimension (see the top of the file). */
        for (int k = 0; k + 1 < outdegree; k += 2) {
            struct axon_coll_block b = sblocks[k];
            sblocks[k] = sblocks[k + 1];
            sblocks[k + 1] = b;
            int r = destinations[k];
            destinations[k] = destinations[k + 1];
            destinations[k + 1] = r;
        }
    }
    *p = (struct axon_coll_plan){
        .kind = AXON_COLL_PLAN_NEIGHBOR,
        .cc = &c->collectives,
        .datatype = MPI_DATATYPE_NULL,
        .nsend = outdegree,
        .sblocks = sblocks,
        .speers = destinations,
        .nrecv = indegree,
        .rblocks = rblocks,
        .rpeers = sources,
    };
    return MPI_SUCCESS;
err:
    free(sblocks), free(rblocks), free(sources), free(destinations);
    return rc;
}

int axon_mpi_neighbor(const char *func, const struct axon_mpi_neighbor_args *a, MPI_Comm comm,
                      MPI_Request *request)
{
    struct axon_coll_plan plan;
    int rc = axon_mpi_neighbor_plan(func, a, comm, &plan);
    return rc == MPI_SUCCESS ? axon_mpi_coll_plan_run(func, &plan, request) : rc;
}

/* ---- the blocking calls --------------------------------------------------------------------------- */

AXON_MPI_WEAK(Neighbor_allgather)
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = {.form = AXON_MPI_NEIGHBOR_ALLGATHER, .sendbuf = sendbuf,
                                       .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,
                                       .recvcount = recvcount, .recvtype = recvtype};
    return axon_mpi_neighbor("MPI_Neighbor_allgather", &a, comm, NULL);
}

AXON_MPI_WEAK(Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = {.form = AXON_MPI_NEIGHBOR_ALLGATHERV, .sendbuf = sendbuf,
                                       .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,
                                       .recvcounts = AXON_MPI_INTS(recvcounts),
                                       .rdispls = AXON_MPI_INTS(displs), .recvtype = recvtype};
    return axon_mpi_neighbor("MPI_Neighbor_allgatherv", &a, comm, NULL);
}

AXON_MPI_WEAK(Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = {.form = AXON_MPI_NEIGHBOR_ALLTOALL, .sendbuf = sendbuf,
                                       .sendcount = sendcount, .sendtype = sendtype, .recvbuf = recvbuf,
                                       .recvcount = recvcount, .recvtype = recvtype};
    return axon_mpi_neighbor("MPI_Neighbor_alltoall", &a, comm, NULL);
}

AXON_MPI_WEAK(Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = {.form = AXON_MPI_NEIGHBOR_ALLTOALLV, .sendbuf = sendbuf,
                                       .sendcounts = AXON_MPI_INTS(sendcounts), .sdispls = AXON_MPI_INTS(sdispls),
                                       .sendtype = sendtype, .recvbuf = recvbuf,
                                       .recvcounts = AXON_MPI_INTS(recvcounts), .rdispls = AXON_MPI_INTS(rdispls),
                                       .recvtype = recvtype};
    return axon_mpi_neighbor("MPI_Neighbor_alltoallv", &a, comm, NULL);
}

AXON_MPI_WEAK(Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct axon_mpi_neighbor_args a = {.form = AXON_MPI_NEIGHBOR_ALLTOALLW, .sendbuf = sendbuf,
                                       .sendcounts = AXON_MPI_INTS(sendcounts), .sdispls = AXON_MPI_WIDE(sdispls),
                                       .sendtypes = sendtypes, .recvbuf = recvbuf,
                                       .recvcounts = AXON_MPI_INTS(recvcounts), .rdispls = AXON_MPI_WIDE(rdispls),
                                       .recvtypes = recvtypes};
    return axon_mpi_neighbor("MPI_Neighbor_alltoallw", &a, comm, NULL);
}
