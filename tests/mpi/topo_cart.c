/* Cartesian topologies at any size: MPI_Dims_create's grid, MPI_Cart_create (periodic in the first
 * dimension only), rank <-> coordinates both ways, MPI_Cart_shift checked by exchanging ranks with the
 * neighbours it names, MPI_Cart_sub rows and columns, MPI_Topo_test, topology kept by MPI_Comm_dup, a
 * grid smaller than the job (the rest get MPI_COMM_NULL), and MPI_ERR_TOPOLOGY on a plain communicator. */
#include "axon_test.h"

#include <mpi.h>
#include <stdio.h>

static int rank, size;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(size, 2, dims);
    CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1], "MPI_Dims_create(%d, 2) gave %dx%d", size, dims[0],
          dims[1]);
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    int status, gr, gs;
    MPI_Topo_test(grid, &status);
    CHECK(status == MPI_CART, "MPI_Topo_test gave %d", status);
    MPI_Comm_rank(grid, &gr);
    MPI_Comm_size(grid, &gs);
    CHECK(gs == size && gr == rank, "grid rank %d of %d", gr, gs);

    int coords[2], d2[2], p2[2], back;
    MPI_Cart_coords(grid, gr, 2, coords);
    CHECK(coords[0] == gr / dims[1] && coords[1] == gr % dims[1], "coords of %d: (%d,%d)", gr, coords[0], coords[1]);
    MPI_Cart_rank(grid, coords, &back);
    CHECK(back == gr, "MPI_Cart_rank(coords of %d) = %d", gr, back);
    MPI_Cart_get(grid, 2, d2, p2, coords);
    CHECK(d2[0] == dims[0] && d2[1] == dims[1] && p2[0] == 1 && p2[1] == 0, "MPI_Cart_get");
    int nd;
    MPI_Cartdim_get(grid, &nd);
    CHECK(nd == 2, "MPI_Cartdim_get gave %d", nd);
    int wrapped[2] = {coords[0] - dims[0], coords[1]};
    MPI_Cart_rank(grid, wrapped, &back);
    CHECK(back == gr, "a periodic coordinate does not wrap");

    /* Shift: exchange ranks with the neighbours, both directions, and check who answered. */
    for (int dir = 0; dir < 2; dir++) {
        int src, dst;
        MPI_Cart_shift(grid, dir, 1, &src, &dst);
        int expect_dst, expect_src;
        if (dir == 0) {
            expect_dst = ((coords[0] + 1) % dims[0]) * dims[1] + coords[1];
            expect_src = ((coords[0] - 1 + dims[0]) % dims[0]) * dims[1] + coords[1];
        } else {
            expect_dst = coords[1] + 1 < dims[1] ? gr + 1 : MPI_PROC_NULL;
            expect_src = coords[1] > 0 ? gr - 1 : MPI_PROC_NULL;
        }
        CHECK(src == expect_src && dst == expect_dst, "shift dir %d: %d/%d, expected %d/%d", dir, src, dst, expect_src,
              expect_dst);
        int got = -7;
        MPI_Sendrecv(&gr, 1, MPI_INT, dst, dir, &got, 1, MPI_INT, src, dir, grid, MPI_STATUS_IGNORE);
        CHECK(src == MPI_PROC_NULL ? got == -7 : got == src, "shift dir %d: got %d from %d", dir, got, src);
    }

    /* Rows keep dimension 1, columns dimension 0. */
    MPI_Comm row, col;
    MPI_Cart_sub(grid, (int[]){0, 1}, &row);
    MPI_Cart_sub(grid, (int[]){1, 0}, &col);
    int rs, cs, rr, cr;
    MPI_Comm_size(row, &rs);
    MPI_Comm_size(col, &cs);
    MPI_Comm_rank(row, &rr);
    MPI_Comm_rank(col, &cr);
    CHECK(rs == dims[1] && cs == dims[0] && rr == coords[1] && cr == coords[0], "sub-grids %d/%d ranks %d/%d", rs,
          cs, rr, cr);
    MPI_Cartdim_get(row, &nd);
    CHECK(nd == 1, "a row has %d dimensions", nd);

    MPI_Comm dup;
    MPI_Comm_dup(grid, &dup);
    MPI_Topo_test(dup, &status);
    CHECK(status == MPI_CART, "MPI_Comm_dup lost the topology");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
    MPI_Comm_free(&grid);

    /* A grid of one process fewer than the job. */
    if (size > 1) {
        int one[1] = {size - 1}, per[1] = {0};
        MPI_Comm small;
        MPI_Cart_create(MPI_COMM_WORLD, 1, one, per, 0, &small);
        CHECK((rank == size - 1) == (small == MPI_COMM_NULL), "the rank outside the grid");
        if (small != MPI_COMM_NULL)
            MPI_Comm_free(&small);
    }

    MPI_Topo_test(MPI_COMM_WORLD, &status);
    CHECK(status == MPI_UNDEFINED, "MPI_COMM_WORLD has a topology: %d", status);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, coords), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TOPOLOGY, "MPI_Cart_coords on MPI_COMM_WORLD gave class %d", cls);
    int toobig[1] = {size + 1}, per1[1] = {0};
    MPI_Comm none = MPI_COMM_WORLD; /* not left as it was */
    rc = MPI_Cart_create(MPI_COMM_WORLD, 1, toobig, per1, 0, &none);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_DIMS, "a grid larger than the job gave class %d", cls);
    CHECK(none == MPI_COMM_NULL, "a refused MPI_Cart_create left its output 0x%x, not MPI_COMM_NULL", (unsigned)none);

    int fails = failures;
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            int f;
            MPI_Recv(&f, 1, MPI_INT, r, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            fails += f;
        }
        printf("topo_cart: %s\n", fails ? "FAILED" : "ok");
    } else {
        MPI_Send(&failures, 1, MPI_INT, 0, 99, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rank == 0 && fails != 0;
}
