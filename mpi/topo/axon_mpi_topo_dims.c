/* MPI_Dims_create: a balanced grid of nnodes processes in ndims dimensions, some of them fixed by the
 * caller. The free dimensions get the most balanced factorization of what the fixed ones leave, in
 * non-increasing order (the standard asks for both): the least difference between the largest and the
 * smallest dimension, then the larger dimensions from the smallest one up (MPICH's choices too); found
 * by a search over the divisors of the rest, pruned by the best difference so far. Handing prime
 * factors out largest first to the smallest dimension is not balanced: 72 in 2 gives 12x6, not 9x8, and
 * 34425 in 3 gives 45x45x17 where 51x27x25 differs by less (MPICH's topo/dims5 checks both).
 * axon_topo_dims_balance is pure and unit-tested. */
#include "mpi/axon_mpi.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether x^m >= n (no overflow: stops as soon as it gets there). */
static bool axon_dims_pow_reaches(int64_t x, int m, int64_t n)
{
    int64_t p = 1;
    for (int i = 0; i < m; i++) {
        p *= x;
        if (p >= n)
            return true;
    }
    return p >= n;
}

/* The largest x with x^m <= n (the most the smallest of m factors of n can be). */
static int64_t axon_dims_root_floor(int64_t n, int m)
{
    int64_t x = 1;
    while (!axon_dims_pow_reaches(x + 1, m, n + 1))
        x++;
    return x;
}

/* Whether a is greater than b in the last place they differ: of two grids equally spread, the one whose
 * smallest dimensions are larger (MPICH's choice too: its topo/dims5 lists 75,000 grids, all of which
 * this order reproduces; 98784 in 5 is 14x14x9x8x7, not 14x12x12x7x7). */
static bool axon_dims_tail_greater(const int *a, const int *b, int k)
{
    for (int i = k - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return false;
}

struct axon_dims_search {
    const int *divs;
    int ndivs, k;
    int *cur, *best;
    int64_t best_spread;
};

/* cur[level..k-1] from rem, each at most cap, non-increasing; keeps the best complete one. */
static void axon_dims_search(struct axon_dims_search *x, int64_t rem, int level, int64_t cap)
{
    if (level == x->k - 1) {
        if (rem > cap)
            return;
        x->cur[level] = (int)rem;
        int64_t spread = x->cur[0] - rem;
        bool better = spread < x->best_spread ||
                      (spread == x->best_spread && axon_dims_tail_greater(x->cur, x->best, x->k));
        if (better) {
            x->best_spread = spread;
            memcpy(x->best, x->cur, sizeof(int) * (size_t)x->k);
        }
        return;
    }
    int left = x->k - level;
    for (int i = 0; i < x->ndivs && x->divs[i] <= cap && x->divs[i] <= rem; i++) {
        int64_t d = x->divs[i];
        if (rem % d != 0 || !axon_dims_pow_reaches(d, left, rem))
            continue; /* left dimensions this small cannot make rem */
        int64_t top = level == 0 ? d : x->cur[0];
        /* The smallest dimension is at most the (left-1)-th root of what d leaves. */
        if (left > 1 && top - axon_dims_root_floor(rem / d, left - 1) > x->best_spread)
            continue;
        x->cur[level] = (int)d;
        axon_dims_search(x, rem / d, level + 1, d);
    }
}

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
        if (fixed > nnodes)
            return MPI_ERR_DIMS;
    }
    if (nnodes % fixed != 0)
        return MPI_ERR_DIMS;
    int rest = (int)(nnodes / fixed);
    if (nfree == 0)
        return rest == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;

    /* The divisors of rest, ascending (at most 1600 for an int). */
    int ndivs = 0;
    int *divs = malloc(sizeof(int) * 2048), *free_dims = malloc(sizeof(int) * (size_t)nfree),
        *cur = malloc(sizeof(int) * (size_t)nfree);
    if (!divs || !free_dims || !cur) {
        free(divs);
        free(free_dims);
        free(cur);
        return MPI_ERR_NO_MEM;
    }
    int low = 0;
    for (int64_t d = 1; d * d <= rest; d++)
        if (rest % d == 0) {
            divs[ndivs++] = (int)d;
            low++;
        }
    for (int i = low - 1; i >= 0; i--)
        if ((int64_t)divs[i] * divs[i] != rest)
            divs[ndivs++] = rest / divs[i];
    struct axon_dims_search x = {divs, ndivs, nfree, cur, free_dims, INT64_MAX};
    axon_dims_search(&x, rest, 0, rest);
    free(divs);
    free(cur);
    if (x.best_spread == INT64_MAX) { /* cannot happen: rest x 1 x ... x 1 always fits */
        free(free_dims);
        return MPI_ERR_INTERN;
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
