/* The narrowing that the large-count (_c) calls of the collectives and a few others share
 * (mpi/axon_mpi_bigcount.h says which, and why they narrow): sizing a call's arrays from its communicator
 * or topology, and turning MPI_Count and MPI_Aint values into ints, or MPI_ERR_COUNT when one does not
 * fit. */
#include "mpi/axon_mpi_bigcount.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

/* Said of a value beyond INT_MAX: which calls narrow, and that the others do not. */
#define AXON_BIGCOUNT_TOO_LARGE                                                                      \
    "%s is %lld: this call takes counts up to INT_MAX in Axon (the point-to-point and datatype calls take " \
    "any)"

static int axon_bigcount_raise(struct axon_bigcount *bc, int errclass, const char *fmt, const char *what,
                               long long value)
{
    char text[256];
    snprintf(text, sizeof(text), fmt, what, value);
    return axon_mpi_error(axon_mpi_comm_get(bc->comm), bc->func, errclass, "%s", text);
}

/* Out-degree and in-degree of comm's topology; 0 and 0 without one (the int call raises
 * MPI_ERR_TOPOLOGY then). */
static void axon_bigcount_degrees(MPI_Comm comm, const struct axon_comm *c, int *out, int *in)
{
    int kind = MPI_UNDEFINED;
    *out = *in = 0;
    if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
        return;
    if (kind == MPI_CART) {
        int ndims = 0;
        if (PMPI_Cartdim_get(comm, &ndims) == MPI_SUCCESS)
            *out = *in = 2 * ndims;
    } else if (kind == MPI_GRAPH) {
        int n = 0;
        if (PMPI_Graph_neighbors_count(comm, c->rank, &n) == MPI_SUCCESS)
            *out = *in = n;
    } else if (kind == MPI_DIST_GRAPH) {
        int weighted = 0;
        if (PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted) != MPI_SUCCESS)
            *out = *in = 0;
    }
}

int axon_bigcount_begin(struct axon_bigcount *bc, const char *func, MPI_Comm comm, enum axon_bigcount_mode mode,
                        int root)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    *bc = (struct axon_bigcount){.func = func, .comm = comm};
    if (mode == AXON_BIGCOUNT_NONE)
        return MPI_SUCCESS;
    struct axon_comm *c;
    AXON_MPI_COMM_CHECK(func, comm, c);
    int group = c->is_inter ? c->remote_size : c->size;
    /* At a root the arrays span the group; elsewhere they are not read, and may be NULL or short. */
    bool at_root = c->is_inter ? root == MPI_ROOT : root == c->rank;
    switch (mode) {
    case AXON_BIGCOUNT_GROUP:
        bc->nsend = bc->nrecv = group;
        break;
    case AXON_BIGCOUNT_LOCAL:
        bc->nrecv = c->size;
        break;
    case AXON_BIGCOUNT_ROOT_SEND:
        bc->nsend = at_root ? group : 0;
        break;
    case AXON_BIGCOUNT_ROOT_RECV:
        bc->nrecv = at_root ? group : 0;
        break;
    case AXON_BIGCOUNT_NEIGHBOR:
        axon_bigcount_degrees(comm, c, &bc->nsend, &bc->nrecv);
        break;
    case AXON_BIGCOUNT_NONE:
        break;
    }
    return MPI_SUCCESS;
}

int axon_bigcount_int(struct axon_bigcount *bc, const char *what, MPI_Count value, int *out)
{
    if (value > INT_MAX || value < INT_MIN)
        return axon_bigcount_raise(bc, MPI_ERR_COUNT, AXON_BIGCOUNT_TOO_LARGE, what,
                                   (long long)value);
    *out = (int)value;
    return MPI_SUCCESS;
}

/* A temporary of n ints that axon_bigcount_end frees. */
static int *axon_bigcount_temp(struct axon_bigcount *bc, int n)
{
    if (bc->ntemp == AXON_BIGCOUNT_MAX_TEMP)
        return NULL;
    int *t = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (t)
        bc->temp[bc->ntemp++] = t;
    return t;
}

int axon_bigcount_ints(struct axon_bigcount *bc, const char *what, const MPI_Count *values, int n, const int **out)
{
    *out = NULL;
    if (!values)
        return MPI_SUCCESS;
    int *t = axon_bigcount_temp(bc, n);
    if (!t)
        return axon_bigcount_raise(bc, MPI_ERR_NO_MEM, "no memory to convert %s (%lld entries)", what, (long long)n);
    for (int i = 0; i < n; i++) {
        if (values[i] > INT_MAX || values[i] < INT_MIN) {
            char name[64];
            snprintf(name, sizeof(name), "%s[%d]", what, i);
            return axon_bigcount_raise(bc, MPI_ERR_COUNT, AXON_BIGCOUNT_TOO_LARGE, name,
                                       (long long)values[i]);
        }
        t[i] = (int)values[i];
    }
    *out = t;
    return MPI_SUCCESS;
}

int axon_bigcount_displs(struct axon_bigcount *bc, const char *what, const MPI_Aint *values, int n,
                         const int **out)
{
    /* MPI_Aint and MPI_Count are the same 64-bit type in the MPICH ABI of x86-64 Linux. */
    _Static_assert(sizeof(MPI_Aint) == sizeof(MPI_Count), "MPI_Aint and MPI_Count differ");
    return axon_bigcount_ints(bc, what, (const MPI_Count *)values, n, out);
}

void axon_bigcount_end(struct axon_bigcount *bc)
{
    for (int i = 0; i < bc->ntemp; i++)
        free(bc->temp[i]);
    bc->ntemp = 0;
}

int axon_bigcount_scalar(const char *func, MPI_Comm comm, const char *what, MPI_Count value, int *out)
{
    struct axon_bigcount bc;
    int rc = axon_bigcount_begin(&bc, func, comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, what, value, out);
    axon_bigcount_end(&bc);
    return rc;
}

int axon_bigcount_v(struct axon_bigcount *bc, const char *counts_name, const MPI_Count *counts,
                    const char *displs_name, const MPI_Aint *displs, int n, const int **counts_out,
                    const int **displs_out)
{
    int rc = axon_bigcount_ints(bc, counts_name, counts, n, counts_out);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_displs(bc, displs_name, displs, n, displs_out);
    return rc;
}
