/* The array constructors, MPI_Type_create_subarray and MPI_Type_create_darray, with their large-count
 * (_c) forms (one function each, 64-bit sizes), and MPI_Type_match_size.
 *
 * Both constructors describe, per dimension, which indices of the global array the type selects, as a
 * regular run (`count` blocks of `blocklen` indices, `period` apart, from `first`) and a shorter tail
 * block; a subarray, a BLOCK or a NONE dimension is one block, a CYCLIC one is the regular run plus the
 * tail its last process may get. The type is then built from the fastest-varying dimension out (the
 * last for MPI_ORDER_C, the first for MPI_ORDER_FORTRAN) with the datatype layer's pure builders,
 * exactly as a user would with vectors, structs and resized types: dimension k is a vector of the type
 * of dimension k-1 resized to the stride of one index of k, at the byte offset of its first index. The
 * result is resized to lb 0 and the extent of the whole global array (MPICH's bounds). So the engine
 * sees ordinary layouts; the combiner and the caller's arguments are kept for MPI_Type_get_contents.
 *
 * The process grid of a darray is row-major whatever the order of the array (MPI 3.1 section 4.1.4). */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <limits.h>
#include <stdlib.h>

typedef __int128 axon_wide;

static bool axon_fits64(axon_wide v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

/* The indices one dimension selects. */
struct axon_dim_sel {
    int64_t count, blocklen, period, first; /* count blocks of blocklen, period apart, from first */
    int64_t tail;                           /* then a block of tail indices at first + count * period */
};

/* Builds the type of ndims dimensions (given fastest first: sizes[k], sel[k]) of old; *out gets a new
 * loop reference. An error class (MPI_ERR_ARG when a bound leaves 64 bits). */
static int axon_array_build(int ndims, const int64_t *sizes, const struct axon_dim_sel *sel,
                            const struct axon_dtype_desc *old, struct axon_dtype_desc *out)
{
    struct axon_dtype_desc cur = {0}, resized = {0}, vec = {0};
    bool have_cur = false;
    axon_wide stride = (axon_wide)old->ub - old->lb; /* bytes from one index of dimension k to the next */
    int rc = MPI_SUCCESS;
    for (int k = 0; k < ndims && rc == MPI_SUCCESS; k++) {
        const struct axon_dtype_desc *child = old;
        if (k > 0) {
            rc = axon_dtype_build_resized(&cur, 0, (int64_t)stride, &resized);
            axon_dloop_release(cur.loop);
            have_cur = false;
            if (rc != MPI_SUCCESS)
                break;
            child = &resized;
        }
        struct axon_dtype_block blocks[2];
        int nblocks = 0;
        axon_wide period = (axon_wide)sel[k].period * stride, first = (axon_wide)sel[k].first * stride;
        axon_wide tail_at = ((axon_wide)sel[k].first + (axon_wide)sel[k].count * sel[k].period) * stride;
        if (!axon_fits64(period) || !axon_fits64(first) || !axon_fits64(tail_at))
            rc = MPI_ERR_ARG;
        if (rc == MPI_SUCCESS && sel[k].count > 0 && sel[k].blocklen > 0) {
            rc = axon_dtype_build_vector(sel[k].count, sel[k].blocklen, (int64_t)period, child, &vec);
            blocks[nblocks++] = (struct axon_dtype_block){.blocklen = 1, .disp = (int64_t)first, .child = &vec};
        }
        if (rc == MPI_SUCCESS && sel[k].tail > 0)
            blocks[nblocks++] =
                (struct axon_dtype_block){.blocklen = sel[k].tail, .disp = (int64_t)tail_at, .child = child};
        if (rc == MPI_SUCCESS) {
            rc = axon_dtype_build_blocks(nblocks, blocks, false, &cur);
            have_cur = rc == MPI_SUCCESS;
        }
        axon_dloop_release(vec.loop);
        vec.loop = NULL;
        if (k > 0) {
            axon_dloop_release(resized.loop);
            resized.loop = NULL;
        }
        stride *= sizes[k];
        if (!axon_fits64(stride))
            rc = MPI_ERR_ARG;
    }
    if (rc == MPI_SUCCESS)
        rc = axon_dtype_build_resized(&cur, 0, (int64_t)stride, out);
    if (have_cur)
        axon_dloop_release(cur.loop);
    return rc;
}

/* nlarge large counts follow the ints in the contents of a large-count (_c) constructor; 0 otherwise. */
static int axon_array_register(const char *func, int rc, struct axon_dtype_desc *built, int combiner, int nints,
                               const int *ints, int nlarge, const MPI_Count *large, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    struct axon_dtype_contents k = {.combiner = combiner, .nints = nints, .ints = ints, .nlarge = nlarge,
                                    .large = large, .ntypes = 1, .types = &oldtype};
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_datatype_create(built, &k, newtype);
    if (rc == MPI_ERR_ARG)
        return axon_mpi_error(NULL, func, rc, "the datatype's size or bounds do not fit in an MPI_Aint");
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory for a new datatype");
    return MPI_SUCCESS;
}

static int axon_array_oldtype(const char *func, MPI_Datatype oldtype, struct axon_dtype_desc *old)
{
    if (oldtype == MPI_DATATYPE_NULL || oldtype == MPI_LB || oldtype == MPI_UB ||
        !axon_mpi_datatype_describe(oldtype, old))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid old datatype %s", AXON_MPI_HANDLE_NAME(oldtype));
    return MPI_SUCCESS;
}

/* MPI_Type_create_subarray(_c): the int call widens its arrays; large picks the contents' form (MPI 4.0
 * section 5.1.13: ndims and order as ints, the sizes, subsizes and starts as large counts). */
static int axon_dt_subarray(const char *func, int ndims, const int64_t *array_of_sizes,
                            const int64_t *array_of_subsizes, const int64_t *array_of_starts, int order,
                            MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    if (ndims <= 0 || ndims > (INT_MAX - 2) / 3)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "ndims %d is not positive", ndims);
    if (!array_of_sizes || !array_of_subsizes || !array_of_starts || !newtype)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "an array or newtype is a NULL pointer");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    for (int i = 0; i < ndims; i++) {
        long long n = array_of_sizes[i], sub = array_of_subsizes[i], start = array_of_starts[i];
        if (n <= 0)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_sizes[%d] = %lld is not positive", i, n);
        /* MPI 4.0 allows empty subarrays (3.1 asked for at least one element); allowing them costs nothing. */
        if (sub < 0 || sub > n)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_subsizes[%d] = %lld is not in [0, %lld]", i, sub,
                                  n);
        if (start < 0 || start > n - sub)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_starts[%d] = %lld is not in [0, %lld]", i,
                                  start, n - sub);
    }
    struct axon_dtype_desc old, built;
    int rc = axon_array_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;

    int64_t *sizes = malloc(sizeof(int64_t) * (size_t)ndims);
    struct axon_dim_sel *sel = malloc(sizeof(*sel) * (size_t)ndims);
    int nints = large ? 2 : 3 * ndims + 2, *ints = malloc(sizeof(int) * (size_t)nints);
    int nlarge = large ? 3 * ndims : 0;
    MPI_Count *lc = malloc(sizeof(MPI_Count) * (size_t)(large ? nlarge : 1));
    if (!sizes || !sel || !ints || !lc) {
        rc = axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
        goto out;
    }
    for (int k = 0; k < ndims; k++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - k : k;
        sizes[k] = array_of_sizes[i];
        sel[k] = (struct axon_dim_sel){.count = 1, .blocklen = array_of_subsizes[i], .period = 0,
                                       .first = array_of_starts[i], .tail = 0};
    }
    /* The contents (MPI 3.1 section 4.1.13): ndims, sizes, subsizes, starts, order. */
    ints[0] = ndims;
    ints[nints - 1] = order;
    for (int i = 0; i < ndims; i++) {
        if (large) {
            lc[i] = array_of_sizes[i];
            lc[ndims + i] = array_of_subsizes[i];
            lc[2 * ndims + i] = array_of_starts[i];
        } else {
            ints[1 + i] = (int)array_of_sizes[i];
            ints[1 + ndims + i] = (int)array_of_subsizes[i];
            ints[1 + 2 * ndims + i] = (int)array_of_starts[i];
        }
    }
    rc = axon_array_build(ndims, sizes, sel, &old, &built);
    rc = axon_array_register(func, rc, &built, MPI_COMBINER_SUBARRAY, nints, ints, nlarge, lc, oldtype, newtype);
out:
    free(sizes);
    free(sel);
    free(ints);
    free(lc);
    return rc;
}

AXON_MPI_WEAK(Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_subarray";
    AXON_MPI_REQUIRE_ACTIVE(func);
    int64_t n = ndims > 0 ? ndims : 0;
    int64_t *sizes = array_of_sizes ? axon_dtype_widen(array_of_sizes, n) : NULL;
    int64_t *subsizes = array_of_subsizes ? axon_dtype_widen(array_of_subsizes, n) : NULL;
    int64_t *starts = array_of_starts ? axon_dtype_widen(array_of_starts, n) : NULL;
    int rc;
    if ((array_of_sizes && !sizes) || (array_of_subsizes && !subsizes) || (array_of_starts && !starts))
        rc = axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
    else
        rc = axon_dt_subarray(func, ndims, sizes, subsizes, starts, order, oldtype, newtype, false);
    free(sizes);
    free(subsizes);
    free(starts);
    return rc;
}

AXON_MPI_WEAK(Type_create_subarray_c)
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_subarray_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_dt_subarray(func, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, newtype,
                            true);
}

/* The indices of one darray dimension that process coordinate c of p owns; an error message or NULL. */
static const char *axon_darray_dim(int64_t gsize, int distrib, int darg, int64_t p, int64_t c,
                                   struct axon_dim_sel *sel)
{
    switch (distrib) {
    case MPI_DISTRIBUTE_NONE:
        if (p != 1)
            return "MPI_DISTRIBUTE_NONE needs a process grid dimension of size 1";
        *sel = (struct axon_dim_sel){.count = 1, .blocklen = gsize};
        return NULL;
    case MPI_DISTRIBUTE_BLOCK: {
        int64_t b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + p - 1) / p : darg;
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && (darg <= 0 || (axon_wide)b * p < gsize))
            return "the block size of MPI_DISTRIBUTE_BLOCK is not positive or too small to cover the dimension";
        int64_t mine = gsize - b * c;
        mine = mine < 0 ? 0 : mine > b ? b : mine;
        *sel = (struct axon_dim_sel){.count = 1, .blocklen = mine, .first = mine ? b * c : 0};
        return NULL;
    }
    case MPI_DISTRIBUTE_CYCLIC: {
        int64_t b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
            return "the block size of MPI_DISTRIBUTE_CYCLIC is not positive";
        /* Blocks c, c + p, c + 2p ... of size b; the global last block may be short. */
        int64_t first = b * c, period = b * p;
        int64_t full = 0, tail = 0;
        if (first < gsize) {
            int64_t span = gsize - first;              /* indices from my first block on */
            full = span / period;                      /* whole periods: one full block each */
            int64_t rest = span - full * period;       /* what the last period leaves me */
            if (rest >= b)
                full++;
            else
                tail = rest;
        }
        *sel = (struct axon_dim_sel){.count = full, .blocklen = b, .period = period, .first = first, .tail = tail};
        return NULL;
    }
    default:
        return "a distribution is not MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE";
    }
}

/* MPI_Type_create_darray(_c): the int call widens gsizes; large picks the contents' form (MPI 4.0: the
 * gsizes as large counts, the rest as ints in their order). */
static int axon_dt_darray(const char *func, int size, int rank, int ndims, const int64_t array_of_gsizes[],
                          const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                          int order, MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    if (size <= 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size %d is not positive", size);
    if (rank < 0 || rank >= size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "rank %d is not in [0, %d)", rank, size);
    if (ndims <= 0 || ndims > (INT_MAX - 4) / 4)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "ndims %d is not positive", ndims);
    if (!array_of_gsizes || !array_of_distribs || !array_of_dargs || !array_of_psizes || !newtype)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "an array or newtype is a NULL pointer");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    int64_t grid = 1;
    for (int i = 0; i < ndims; i++) {
        if (array_of_gsizes[i] <= 0)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_gsizes[%d] = %lld is not positive", i,
                                  (long long)array_of_gsizes[i]);
        if (array_of_psizes[i] <= 0)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_psizes[%d] = %d is not positive", i,
                                  array_of_psizes[i]);
        grid *= array_of_psizes[i];
        if (grid > size)
            break;
    }
    if (grid != size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the process grid (array_of_psizes) does not have %d processes",
                              size);
    struct axon_dtype_desc old, built;
    int rc = axon_array_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;

    int64_t *sizes = malloc(sizeof(int64_t) * (size_t)ndims);
    struct axon_dim_sel *sel = malloc(sizeof(*sel) * (size_t)ndims);
    int nints = (large ? 3 : 4) * ndims + 4, *ints = malloc(sizeof(int) * (size_t)nints);
    MPI_Count *lc = malloc(sizeof(MPI_Count) * (size_t)ndims);
    if (!sizes || !sel || !ints || !lc) {
        rc = axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
        goto out;
    }
    /* The coordinates of rank in the row-major grid, and each dimension's indices. */
    int64_t rest = rank;
    for (int i = ndims - 1; i >= 0; i--) {
        int64_t c = rest % array_of_psizes[i];
        rest /= array_of_psizes[i];
        int k = order == MPI_ORDER_C ? ndims - 1 - i : i;
        sizes[k] = array_of_gsizes[i];
        const char *why = axon_darray_dim(array_of_gsizes[i], array_of_distribs[i], array_of_dargs[i],
                                          array_of_psizes[i], c, &sel[k]);
        if (why) {
            rc = axon_mpi_error(NULL, func, MPI_ERR_ARG, "dimension %d: %s", i, why);
            goto out;
        }
    }
    /* The contents: size, rank, ndims, gsizes, distribs, dargs, psizes, order; the gsizes apart, as large
     * counts, for the _c call. */
    int at = 0;
    ints[at++] = size;
    ints[at++] = rank;
    ints[at++] = ndims;
    for (int i = 0; i < ndims; i++) {
        lc[i] = array_of_gsizes[i];
        if (!large)
            ints[at++] = (int)array_of_gsizes[i];
    }
    for (int i = 0; i < ndims; i++)
        ints[at++] = array_of_distribs[i];
    for (int i = 0; i < ndims; i++)
        ints[at++] = array_of_dargs[i];
    for (int i = 0; i < ndims; i++)
        ints[at++] = array_of_psizes[i];
    ints[at++] = order;
    rc = axon_array_build(ndims, sizes, sel, &old, &built);
    rc = axon_array_register(func, rc, &built, MPI_COMBINER_DARRAY, nints, ints, large ? ndims : 0, lc, oldtype,
                             newtype);
out:
    free(sizes);
    free(sel);
    free(ints);
    free(lc);
    return rc;
}

AXON_MPI_WEAK(Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                            const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_darray";
    AXON_MPI_REQUIRE_ACTIVE(func);
    int64_t *gsizes = array_of_gsizes ? axon_dtype_widen(array_of_gsizes, ndims > 0 ? ndims : 0) : NULL;
    if (array_of_gsizes && !gsizes)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
    int rc = axon_dt_darray(func, size, rank, ndims, gsizes, array_of_distribs, array_of_dargs, array_of_psizes, order,
                            oldtype, newtype, false);
    free(gsizes);
    return rc;
}

AXON_MPI_WEAK(Type_create_darray_c)
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_darray_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_dt_darray(func, size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes,
                          order, oldtype, newtype, true);
}

AXON_MPI_WEAK(Type_match_size)
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const char func[] = "MPI_Type_match_size";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!datatype)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "datatype is a NULL pointer");
    /* The Fortran types of explicit size, as MPICH answers: the call exists for Fortran's kinds. */
    static const MPI_Datatype reals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    static const MPI_Datatype integers[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8};
    static const MPI_Datatype complexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    const MPI_Datatype *list;
    int n;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        list = reals;
        n = 3;
        break;
    case MPI_TYPECLASS_INTEGER:
        list = integers;
        n = 4;
        break;
    case MPI_TYPECLASS_COMPLEX:
        list = complexes;
        n = 3;
        break;
    default:
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "typeclass %d is not MPI_TYPECLASS_REAL, _INTEGER or _COMPLEX",
                              typeclass);
    }
    for (int i = 0; i < n; i++) {
        struct axon_dtype_desc d;
        if (axon_mpi_datatype_predefined_desc(list[i], &d) && d.size == size) {
            *datatype = list[i];
            return MPI_SUCCESS;
        }
    }
    return axon_mpi_error(NULL, func, MPI_ERR_ARG, "no type of typeclass %d has %d bytes", typeclass, size);
}
