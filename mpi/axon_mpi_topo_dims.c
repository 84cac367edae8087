/* MPI_Dims_create: a balanced grid of nnodes processes in ndims dimensions, some of them fixed by the
 * caller. The free dimensions get the prime factors of what the fixed ones leave, largest factor first,
 * each to the free dimension whose product is smallest so far; sorting them in non-increasing order (the
 * standard asks for that order) gives grids as square as factoring allows (12 in 2: 4x3; 16 in 3: 4x2x2).
 * axon_topo_dims_balance is pure and unit-tested. */
#include "mpi/axon_mpi.h"

#include <stdlib.h>

int axon_topo_dims_balance(int nnodes, int ndims, int *dims)
{
    if (ndims < 0)
        return MPI_ERR_DIMS;
    if (nnodes <= 0)
        return MPI_ERR_ARG;
    int64_t fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            nfree++;
    }
    if (fixed > nnodes || nnodes % fixed != 0)
        return MPI_ERR_DIMS;
    int rest = (int)(nnodes / fixed);
    if (nfree == 0)
        return rest == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;

    /* Prime factors of rest, largest first (at most 31 of them for an int). */
    int factors[32], nf = 0;
    for (int p = 2, r = rest; r > 1;) {
        if ((int64_t)p * p > r) {
            factors[nf++] = r;
            break;
        }
        if (r % p == 0) {
            factors[nf++] = p;
            r /= p;
        } else {
            p += p == 2 ? 1 : 2;
        }
    }
    int *free_dims = malloc(sizeof(int) * (size_t)nfree);
    if (!free_dims)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < nfree; j++)
        free_dims[j] = 1;
    for (int f = nf - 1; f >= 0; f--) {
        int smallest = 0;
        for (int j = 1; j < nfree; j++)
            if (free_dims[j] < free_dims[smallest])
                smallest = j;
        free_dims[smallest] *= factors[f];
    }
    /* Non-increasing order, into the free slots from the left. */
    for (int a = 1; a < nfree; a++)
        for (int b = a; b > 0 && free_dims[b] > free_dims[b - 1]; b--) {
            int t = free_dims[b];
            free_dims[b] = free_dims[b - 1];
            free_dims[b - 1] = t;
        }
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = free_dims[j++];
    free(free_dims);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Dims_create)
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    static const char func[] = "MPI_Dims_create";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (ndims > 0 && !dims)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "dims is a NULL pointer");
    int rc = axon_topo_dims_balance(nnodes, ndims, dims);
    if (rc == MPI_ERR_DIMS)
        return axon_mpi_error(NULL, func, rc, "%d processes do not fit the %d dimensions given", nnodes, ndims);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "invalid number of processes %d", nnodes);
    return MPI_SUCCESS;
}
