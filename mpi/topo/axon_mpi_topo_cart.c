/* Cartesian topologies: MPI_Cart_create, MPI_Cart_get, MPI_Cartdim_get, MPI_Cart_rank, MPI_Cart_coords,
 * MPI_Cart_shift, MPI_Cart_sub and MPI_Topo_test, and the neighbors of a grid's process for the
 * neighborhood collectives (mpi/topo/axon_mpi_topo.h).
 *
 * A communicator's grid (dimensions and periodicity) rides on it as an attribute under a keyval of the
 * library's own: MPI_Comm_dup copies it and MPI_Comm_free drops it through the keyval's callbacks, so
 * the communicator layer needs to know nothing of topologies. Ranks are laid out in row-major order (the
 * last dimension varies fastest), as the standard prescribes; reorder is accepted and not used. */
#include "mpi/topo/axon_mpi_topo.h"

#include <stdlib.h>
#include <string.h>

struct axon_cart {
    int ndims;
    int *dims;
    int *periods;
};


static struct axon_cart *axon_cart_new(int ndims, const int *dims, const int *periods)
{
    struct axon_cart *cart = malloc(sizeof(*cart));
    if (!cart)
        return NULL;
    cart->ndims = ndims;
    cart->dims = malloc(sizeof(int) * (size_t)(ndims ? ndims : 1));
    cart->periods = malloc(sizeof(int) * (size_t)(ndims ? ndims : 1));
    if (!cart->dims || !cart->periods) {
        free(cart->dims);
        free(cart->periods);
        free(cart);
        return NULL;
    }
    for (int i = 0; i < ndims; i++) {
        cart->dims[i] = dims[i];
        cart->periods[i] = periods[i] != 0;
    }
    return cart;
}

static void axon_cart_delete(struct axon_cart *cart)
{
    free(cart->dims);
    free(cart->periods);
    free(cart);
}

static void *axon_cart_dup(const void *value)
{
    const struct axon_cart *from = value;
    return axon_cart_new(from->ndims, from->dims, from->periods);
}

static void axon_cart_release(void *value)
{
    axon_cart_delete(value);
}

static struct axon_topo_attr axon_cart_attr = {axon_cart_dup, axon_cart_release, MPI_KEYVAL_INVALID};

/* The grid of a communicator, or NULL when it has none. */
static struct axon_cart *axon_cart_of(MPI_Comm comm)
{
    return axon_topo_attr_get(&axon_cart_attr, comm);
}

/* The checks every query starts with: a valid communicator that carries a grid. */
#define AXON_CART_LOOKUP(func, comm, c, cart)                                                        \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        (cart) = axon_cart_of(comm);                                                                 \
        if (!(cart))                                                                                 \
            return axon_mpi_error(c, func, MPI_ERR_TOPOLOGY, "the communicator has no Cartesian topology"); \
    } while (0)

static void axon_cart_coords_of(const struct axon_cart *cart, int rank, int *coords)
{
    for (int i = cart->ndims - 1; i >= 0; i--) {
        coords[i] = rank % cart->dims[i];
        rank /= cart->dims[i];
    }
}

AXON_MPI_WEAK(Cart_create)
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart)
{
    static const char func[] = "MPI_Cart_create";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm_old, c);
    (void)reorder;
    if (!comm_cart)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "comm_cart is a NULL pointer");
    *comm_cart = MPI_COMM_NULL; /* what an error below leaves */
    if (ndims < 0)
        return axon_mpi_error(c, func, MPI_ERR_DIMS, "ndims %d is negative", ndims);
    if (ndims > 0 && (!dims || !periods))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "dims or periods is a NULL pointer");
    int64_t nodes = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return axon_mpi_error(c, func, MPI_ERR_DIMS, "dims[%d] = %d is not positive", i, dims[i]);
        nodes *= dims[i];
        if (nodes > c->size)
            break;
    }
    if (nodes > c->size)
        return axon_mpi_error(c, func, MPI_ERR_DIMS, "the grid has more places than the %d processes", c->size);
    struct axon_cart *cart = axon_cart_new(ndims, dims, periods);
    if (!cart)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    /* The first nodes ranks form the grid, in their order; the others get MPI_COMM_NULL. */
    MPI_Comm grid;
    int rc = PMPI_Comm_split(comm_old, c->rank < nodes ? 0 : MPI_UNDEFINED, c->rank, &grid);
    if (rc == MPI_SUCCESS && grid != MPI_COMM_NULL) {
        rc = axon_topo_attr_set(&axon_cart_attr, grid, cart);
        if (rc != MPI_SUCCESS)
            PMPI_Comm_free(&grid);
    }
    if (rc != MPI_SUCCESS || grid == MPI_COMM_NULL)
        axon_cart_delete(cart);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the grid communicator could not be made");
    *comm_cart = grid;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    static const char func[] = "MPI_Cartdim_get";
    struct axon_comm *c;
    struct axon_cart *cart;
    AXON_CART_LOOKUP(func, comm, c, cart);
    if (!ndims)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "ndims is a NULL pointer");
    *ndims = cart->ndims;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    static const char func[] = "MPI_Cart_get";
    struct axon_comm *c;
    struct axon_cart *cart;
    AXON_CART_LOOKUP(func, comm, c, cart);
    if (maxdims < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "maxdims %d is negative", maxdims);
    int n = maxdims < cart->ndims ? maxdims : cart->ndims;
    if (n > 0 && (!dims || !periods || !coords))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "dims, periods or coords is a NULL pointer");
    int *mine = malloc(sizeof(int) * (size_t)(cart->ndims ? cart->ndims : 1));
    if (!mine)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    axon_cart_coords_of(cart, c->rank, mine);
    for (int i = 0; i < n; i++) {
        dims[i] = cart->dims[i];
        periods[i] = cart->periods[i];
        coords[i] = mine[i];
    }
    free(mine);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cart_rank)
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    static const char func[] = "MPI_Cart_rank";
    struct axon_comm *c;
    struct axon_cart *cart;
    AXON_CART_LOOKUP(func, comm, c, cart);
    if (!rank || (cart->ndims > 0 && !coords))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "coords or rank is a NULL pointer");
    int r = 0;
    for (int i = 0; i < cart->ndims; i++) {
        int x = coords[i], d = cart->dims[i];
        if (cart->periods[i])
            x = ((x % d) + d) % d;
        else if (x < 0 || x >= d)
            return axon_mpi_error(c, func, MPI_ERR_ARG, "coords[%d] = %d is outside the non-periodic dimension of %d",
                                  i, x, d);
        r = r * d + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cart_coords)
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    static const char func[] = "MPI_Cart_coords";
    struct axon_comm *c;
    struct axon_cart *cart;
    AXON_CART_LOOKUP(func, comm, c, cart);
    if (rank < 0 || rank >= c->size)
        return axon_mpi_error(c, func, MPI_ERR_RANK, "rank %d is not in the communicator (size %d)", rank, c->size);
    if (maxdims < cart->ndims)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "maxdims %d is less than the %d dimensions", maxdims,
                              cart->ndims);
    if (cart->ndims > 0 && !coords)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "coords is a NULL pointer");
    axon_cart_coords_of(cart, rank, coords);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cart_shift)
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    static const char func[] = "MPI_Cart_shift";
    struct axon_comm *c;
    struct axon_cart *cart;
    AXON_CART_LOOKUP(func, comm, c, cart);
    if (!rank_source || !rank_dest)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "rank_source or rank_dest is a NULL pointer");
    if (direction < 0 || direction >= cart->ndims)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "direction %d is not a dimension (ndims %d)", direction,
                              cart->ndims);
    int *coords = malloc(sizeof(int) * (size_t)cart->ndims);
    if (!coords)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    axon_cart_coords_of(cart, c->rank, coords);
    int d = cart->dims[direction], here = coords[direction];
    int ends[2] = {here - disp, here + disp}, out[2];
    for (int k = 0; k < 2; k++) {
        int x = ends[k];
        if (cart->periods[direction]) {
            x = ((x % d) + d) % d;
        } else if (x < 0 || x >= d) {
            out[k] = MPI_PROC_NULL;
            continue;
        }
        coords[direction] = x;
        int r = 0;
        for (int i = 0; i < cart->ndims; i++)
            r = r * cart->dims[i] + coords[i];
        out[k] = r;
    }
    free(coords);
    *rank_source = out[0];
    *rank_dest = out[1];
    return MPI_SUCCESS;
}

int axon_topo_cart_neighbors(MPI_Comm comm, int rank, int *count, int **ranks)
{
    struct axon_cart *cart = axon_cart_of(comm);
    if (!cart)
        return MPI_ERR_TOPOLOGY;
    int n = cart->ndims;
    int *out = malloc(sizeof(int) * (size_t)(2 * n + 1)), *coords = malloc(sizeof(int) * (size_t)(n + 1));
    if (!out || !coords) {
        free(out), free(coords);
        return MPI_ERR_NO_MEM;
    }
    axon_cart_coords_of(cart, rank, coords);
    for (int d = 0; d < n; d++) {
        int dim = cart->dims[d], here = coords[d];
        for (int k = 0; k < 2; k++) {
            int x = here + (k ? 1 : -1);
            if (cart->periods[d])
                x = (x + dim) % dim;
            if (x < 0 || x >= dim) {
                out[2 * d + k] = MPI_PROC_NULL;
                continue;
            }
            coords[d] = x;
            int r = 0;
            for (int i = 0; i < n; i++)
                r = r * cart->dims[i] + coords[i];
            out[2 * d + k] = r;
            coords[d] = here;
        }
    }
    free(coords);
    *count = 2 * n;
    *ranks = out;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Cart_sub)
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Cart_sub";
    struct axon_comm *c;
    struct axon_cart *cart;
    AXON_CART_LOOKUP(func, comm, c, cart);
    if (!newcomm || (cart->ndims > 0 && !remain_dims))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "remain_dims or newcomm is a NULL pointer");
    int n = cart->ndims ? cart->ndims : 1;
    int *coords = malloc(sizeof(int) * (size_t)n), *dims = malloc(sizeof(int) * (size_t)n),
        *periods = malloc(sizeof(int) * (size_t)n);
    if (!coords || !dims || !periods) {
        free(coords), free(dims), free(periods);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    axon_cart_coords_of(cart, c->rank, coords);
    /* Ranks that agree on every dropped coordinate form one sub-grid; within it, row-major order of the
     * kept coordinates (the same as the order of the old ranks). */
    int color = 0, key = 0, kept = 0;
    for (int i = 0; i < cart->ndims; i++) {
        if (remain_dims[i]) {
            key = key * cart->dims[i] + coords[i];
            dims[kept] = cart->dims[i];
            periods[kept] = cart->periods[i];
            kept++;
        } else {
            color = color * cart->dims[i] + coords[i];
        }
    }
    struct axon_cart *sub = axon_cart_new(kept, dims, periods);
    free(coords), free(dims), free(periods);
    if (!sub)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    MPI_Comm part;
    int rc = PMPI_Comm_split(comm, color, key, &part);
    if (rc == MPI_SUCCESS) {
        rc = axon_topo_attr_set(&axon_cart_attr, part, sub);
        if (rc != MPI_SUCCESS)
            PMPI_Comm_free(&part);
    }
    if (rc != MPI_SUCCESS) {
        axon_cart_delete(sub);
        return axon_mpi_error(c, func, rc, "the sub-grid communicator could not be made");
    }
    *newcomm = part;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    static const char func[] = "MPI_Topo_test";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!status)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "status is a NULL pointer");
    *status = axon_cart_of(comm)              ? MPI_CART
              : axon_topo_is_graph(comm)        ? MPI_GRAPH
              : axon_topo_dist_graph_of(comm)   ? MPI_DIST_GRAPH
                                                : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
