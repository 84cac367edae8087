/* The datatype constructors: MPI_Type_contiguous, _vector, _create_hvector, _indexed, _create_hindexed,
 * _create_indexed_block, _create_hindexed_block, _create_struct, _create_resized, each with its
 * large-count (_c) form of MPI 4, and MPI_Type_dup (whose attribute copy callbacks are run by
 * mpi/datatype/axon_mpi_type_attr.c). Counts are 64-bit from the call on: a type may hold more than INT_MAX bytes.
 *
 * Each one describes the new type from its old types' descriptions with the pure functions at the top
 * (size, bounds with the standard's rules, alignment, data layout, contiguity), then registers it with
 * its contents for MPI_Type_get_contents. Bounds are computed in 128 bits, so a type whose size or
 * bounds leave the 64 bits of MPI_Aint is refused (MPI_ERR_ARG) instead of wrapping around.
 *
 * Bounds (MPI 3.1 section 4.1.6 and 4.1.7): a block of n copies of a child one extent apart reaches from
 * the lowest to the highest copy, also for negative extents and strides. Without markers, lb/ub bound
 * the entries; markers (resized types, MPI_LB/MPI_UB) win over data wherever they appear, and a type
 * built on a marked type is marked. Only structs get padding: like MPICH, the extent of an unmarked
 * struct is rounded up to the largest alignment among its member types, so struct { double d; char c; }
 * described member by member has the extent of its C sizeof (16). */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <limits.h>
#include <stdlib.h>

typedef __int128 axon_wide;

static bool axon_fits(axon_wide v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

/* ---- descriptions (pure) -------------------------------------------------------------------------- */

struct axon_span {
    axon_wide lb, ub, true_lb, true_ub;
};

/* Where blocklen copies of c, one extent of c apart from disp on, reach. */
static struct axon_span axon_block_span(const struct axon_dtype_desc *c, axon_wide disp, int64_t blocklen)
{
    axon_wide last = (axon_wide)(blocklen - 1) * ((axon_wide)c->ub - c->lb);
    axon_wide lo = last < 0 ? last : 0, hi = last > 0 ? last : 0;
    return (struct axon_span){disp + c->lb + lo, disp + c->ub + hi, disp + c->true_lb + lo, disp + c->true_ub + hi};
}

/* A type with no entries at all (count 0, or blocks of nothing): bounds 0, no layout to walk. */
static int axon_dtype_empty(int64_t align, struct axon_dtype_desc *out)
{
    *out = (struct axon_dtype_desc){.align = align > 0 ? align : 1, .empty = true, .contig = true};
    out->loop = axon_dloop_leaf(0);
    return out->loop ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* The layout of a description: its own loop (a new reference), or a leaf for a builtin type. */
static struct axon_dloop *axon_dtype_loop_ref(const struct axon_dtype_desc *d)
{
    if (d->loop) {
        axon_dloop_retain(d->loop);
        return d->loop;
    }
    return axon_dloop_leaf(d->size);
}

void axon_dtype_set_contig(struct axon_dtype_desc *out)
{
    int64_t start;
    out->contig = out->size == 0 ||
                  (out->ub - out->lb == out->size && axon_dloop_contig_run(out->loop, &start));
}

/* Fills the bounds of out from wide values; MPI_ERR_ARG if any leaves 64 bits. */
static int axon_dtype_set_bounds(struct axon_dtype_desc *out, axon_wide lb, axon_wide ub, axon_wide true_lb,
                                 axon_wide true_ub, axon_wide size, axon_wide nelements)
{
    if (!axon_fits(lb) || !axon_fits(ub) || !axon_fits(ub - lb) || !axon_fits(true_lb) || !axon_fits(true_ub) ||
        !axon_fits(size) || !axon_fits(nelements))
        return MPI_ERR_ARG;
    out->lb = (int64_t)lb;
    out->ub = (int64_t)ub;
    out->true_lb = (int64_t)true_lb;
    out->true_ub = (int64_t)true_ub;
    out->size = (int64_t)size;
    out->nelements = (int64_t)nelements;
    return MPI_SUCCESS;
}

int axon_dtype_build_vector(int64_t count, int64_t blocklen, int64_t stride_bytes, const struct axon_dtype_desc *child,
                            struct axon_dtype_desc *out)
{
    if (count == 0 || blocklen == 0 || child->empty)
        return axon_dtype_empty(child->align, out);
    struct axon_span s = axon_block_span(child, 0, blocklen);
    axon_wide last = (axon_wide)(count - 1) * stride_bytes;
    axon_wide lo = last < 0 ? last : 0, hi = last > 0 ? last : 0;
    axon_wide copies = (axon_wide)count * blocklen;
    bool data = child->size > 0;
    *out = (struct axon_dtype_desc){.align = child->align, .marked = child->marked};
    int rc = axon_dtype_set_bounds(out, s.lb + lo, s.ub + hi, data ? s.true_lb + lo : 0, data ? s.true_ub + hi : 0,
                                   copies * child->size, copies * child->nelements);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_dloop *c = axon_dtype_loop_ref(child);
    if (!c)
        return MPI_ERR_NO_MEM;
    out->loop = axon_dloop_vector(count, blocklen, stride_bytes, c, child->ub - child->lb);
    axon_dloop_release(c);
    if (!out->loop)
        return MPI_ERR_NO_MEM;
    axon_dtype_set_contig(out);
    return MPI_SUCCESS;
}

int axon_dtype_build_blocks(int64_t n, const struct axon_dtype_block *blocks, bool pad, struct axon_dtype_desc *out)
{
    int64_t align = 1;
    axon_wide size = 0, nelements = 0, lb = 0, ub = 0, mlb = 0, mub = 0, tlb = 0, tub = 0;
    bool any = false, marked = false, data = false;
    for (int64_t i = 0; i < n; i++) {
        const struct axon_dtype_block *b = &blocks[i];
        if (b->child->align > align)
            align = b->child->align;
        if (b->blocklen == 0 || b->child->empty)
            continue;
        struct axon_span s = axon_block_span(b->child, b->disp, b->blocklen);
        size += (axon_wide)b->blocklen * b->child->size;
        nelements += (axon_wide)b->blocklen * b->child->nelements;
        if (!axon_fits(size) || !axon_fits(nelements))
            return MPI_ERR_ARG; /* before the sums can leave 128 bits too */
        lb = any && lb < s.lb ? lb : s.lb;
        ub = any && ub > s.ub ? ub : s.ub;
        any = true;
        if (b->child->marked) {
            mlb = marked && mlb < s.lb ? mlb : s.lb;
            mub = marked && mub > s.ub ? mub : s.ub;
            marked = true;
        }
        if (b->child->size > 0) {
            tlb = data && tlb < s.true_lb ? tlb : s.true_lb;
            tub = data && tub > s.true_ub ? tub : s.true_ub;
            data = true;
        }
    }
    if (!any)
        return axon_dtype_empty(align, out);
    if (marked) {
        lb = mlb;
        ub = mub;
    } else if (pad && align > 1) {
        axon_wide rem = (ub - lb) % align;
        if (rem)
            ub += align - rem;
    }
    *out = (struct axon_dtype_desc){.align = align, .marked = marked};
    int rc = axon_dtype_set_bounds(out, lb, ub, tlb, tub, size, nelements);
    if (rc != MPI_SUCCESS)
        return rc;

    /* The layout: the blocks' loops, with one leaf made per builtin child (blocks that share a
     * description share it). */
    int64_t *blocklens = malloc(sizeof(int64_t) * (size_t)n), *displs = malloc(sizeof(int64_t) * (size_t)n);
    int64_t *extents = malloc(sizeof(int64_t) * (size_t)n);
    struct axon_dloop **children = calloc((size_t)n, sizeof(*children));
    bool *owned = calloc((size_t)n, sizeof(bool));
    rc = blocklens && displs && extents && children && owned ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int64_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
        const struct axon_dtype_desc *c = blocks[i].child;
        blocklens[i] = blocks[i].blocklen;
        displs[i] = blocks[i].disp;
        extents[i] = c->ub - c->lb;
        if (c->loop) {
            children[i] = c->loop;
        } else if (i > 0 && c == blocks[i - 1].child) {
            children[i] = children[i - 1];
        } else {
            children[i] = axon_dloop_leaf(c->size);
            owned[i] = true;
            if (!children[i])
                rc = MPI_ERR_NO_MEM;
        }
    }
    if (rc == MPI_SUCCESS) {
        out->loop = axon_dloop_blocks(n, blocklens, displs, children, extents);
        if (!out->loop)
            rc = MPI_ERR_NO_MEM;
    }
    for (int64_t i = 0; children && i < n; i++)
        if (owned[i])
            axon_dloop_release(children[i]);
    free(blocklens);
    free(displs);
    free(extents);
    free(children);
    free(owned);
    if (rc == MPI_SUCCESS)
        axon_dtype_set_contig(out);
    return rc;
}

int axon_dtype_build_resized(const struct axon_dtype_desc *child, int64_t lb, int64_t extent,
                             struct axon_dtype_desc *out)
{
    axon_wide ub = (axon_wide)lb + extent;
    if (!axon_fits(ub))
        return MPI_ERR_ARG;
    *out = *child;
    out->lb = lb;
    out->ub = (int64_t)ub;
    out->marked = true;
    out->empty = false; /* the markers are entries */
    out->loop = axon_dtype_loop_ref(child);
    if (!out->loop)
        return MPI_ERR_NO_MEM;
    axon_dtype_set_contig(out);
    return MPI_SUCCESS;
}

/* ---- the MPI calls -------------------------------------------------------------------------------- */

/* The old type of a constructor: any valid type, committed or not, but not the markers. */
static int axon_dt_oldtype(const char *func, MPI_Datatype handle, struct axon_dtype_desc *desc)
{
    if (handle == MPI_DATATYPE_NULL)
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "the old datatype is MPI_DATATYPE_NULL");
    if (handle == MPI_LB || handle == MPI_UB || !axon_mpi_datatype_describe(handle, desc))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(handle));
    return MPI_SUCCESS;
}

/* Registers the built type with its contents; *built's loop passes to the new object. */
static int axon_dt_register(const char *func, int rc, struct axon_dtype_desc *built,
                            const struct axon_dtype_contents *contents, MPI_Datatype *newtype)
{
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_datatype_create(built, contents, newtype);
    if (rc == MPI_ERR_ARG)
        return axon_mpi_error(NULL, func, rc, "the datatype's size or bounds do not fit in an MPI_Aint");
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory for a new datatype");
    return MPI_SUCCESS;
}

#define AXON_DT_CHECK_COUNT(func, count)                                                             \
    do {                                                                                             \
        if ((count) < 0)                                                                             \
            return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld is negative", (long long)(count)); \
    } while (0)

#define AXON_DT_CHECK_BLOCKLEN(func, blocklen)                                                       \
    do {                                                                                             \
        if ((blocklen) < 0)                                                                          \
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "blocklength %lld is negative", (long long)(blocklen)); \
    } while (0)

#define AXON_DT_CHECK_OUT(func, ptr, what)                                                           \
    do {                                                                                             \
        if (!(ptr))                                                                                  \
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%s is a NULL pointer", what);            \
    } while (0)

/* Each constructor is one function taking 64-bit counts, which its int call (widening) and its
 * large-count _c call share; large says which of them it serves, for the contents it keeps. */

int64_t *axon_dtype_widen(const int *v, int64_t n)
{
    int64_t *w = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    for (int64_t i = 0; w && v && i < n; i++)
        w[i] = v[i];
    return w;
}

static int axon_dt_contiguous(const char *func, int64_t count, MPI_Datatype oldtype, MPI_Datatype *newtype,
                              bool large)
{
    struct axon_dtype_desc old, built;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_CHECK_COUNT(func, count);
    int rc = axon_dt_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    AXON_DT_CHECK_OUT(func, newtype, "newtype");
    rc = axon_dtype_build_vector(1, count, 0, &old, &built);
    int icount = (int)count;
    MPI_Count lcount = count;
    struct axon_dtype_contents k = {.combiner = MPI_COMBINER_CONTIGUOUS, .ntypes = 1, .types = &oldtype};
    if (large)
        k.nlarge = 1, k.large = &lcount;
    else
        k.nints = 1, k.ints = &icount;
    return axon_dt_register(func, rc, &built, &k, newtype);
}

AXON_MPI_WEAK(Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_contiguous("MPI_Type_contiguous", count, oldtype, newtype, false);
}

AXON_MPI_WEAK(Type_contiguous_c)
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_contiguous("MPI_Type_contiguous_c", count, oldtype, newtype, true);
}

/* MPI_Type_vector (stride in extents of the old type) and MPI_Type_create_hvector (in bytes). */
static int axon_dt_vector(const char *func, int64_t count, int64_t blocklength, int64_t stride, bool hvector,
                          MPI_Datatype oldtype, MPI_Datatype *newtype, bool large)
{
    struct axon_dtype_desc old, built;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_CHECK_COUNT(func, count);
    AXON_DT_CHECK_BLOCKLEN(func, blocklength);
    int rc = axon_dt_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    AXON_DT_CHECK_OUT(func, newtype, "newtype");
    /* A stride in extents may reach 2^63 times 2^63: computed wide, checked by the bounds. */
    axon_wide stride_bytes = hvector ? (axon_wide)stride : (axon_wide)stride * (old.ub - old.lb);
    rc = axon_fits(stride_bytes) ? axon_dtype_build_vector(count, blocklength, (int64_t)stride_bytes, &old, &built)
                                 : MPI_ERR_ARG;
    int ints[3] = {(int)count, (int)blocklength, (int)stride};
    MPI_Aint addr = stride;
    MPI_Count lc[3] = {count, blocklength, stride};
    struct axon_dtype_contents k = {.combiner = hvector ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, .ntypes = 1,
                                    .types = &oldtype};
    if (large)
        k.nlarge = 3, k.large = lc;
    else if (hvector)
        k.nints = 2, k.ints = ints, k.naddrs = 1, k.addrs = &addr;
    else
        k.nints = 3, k.ints = ints;
    return axon_dt_register(func, rc, &built, &k, newtype);
}

AXON_MPI_WEAK(Type_vector)
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_vector("MPI_Type_vector", count, blocklength, stride, false, oldtype, newtype, false);
}

AXON_MPI_WEAK(Type_vector_c)
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    return axon_dt_vector("MPI_Type_vector_c", count, blocklength, stride, false, oldtype, newtype, true);
}

AXON_MPI_WEAK(Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_vector("MPI_Type_create_hvector", count, blocklength, stride, true, oldtype, newtype, false);
}

AXON_MPI_WEAK(Type_create_hvector_c)
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    return axon_dt_vector("MPI_Type_create_hvector_c", count, blocklength, stride, true, oldtype, newtype, true);
}

/* The contents of an indexed type (MPI 3.1 section 4.1.13, MPI 4.0 section 5.1.13 for the large-count
 * forms): the int form keeps counts as ints and byte displacements as addresses, the large form all of
 * them as large counts, in the same order. n arrays of n entries, or one value (blocklen). */
static int axon_dt_indexed_contents(int combiner, int64_t count, const int64_t *blocklens, int64_t blocklen,
                                    const int64_t *displs, bool large, struct axon_dtype_contents *k, int **ints,
                                    MPI_Count **lc)
{
    bool h = combiner == MPI_COMBINER_HINDEXED || combiner == MPI_COMBINER_HINDEXED_BLOCK;
    int64_t n = blocklens ? 2 * count + 1 : count + 2; /* every value, counts and displacements */
    int64_t nints = large ? 0 : h ? n - count : n;
    *ints = malloc(sizeof(int) * (size_t)(nints > 0 ? nints : 1));
    *lc = malloc(sizeof(MPI_Count) * (size_t)(large ? n : 1));
    if (!*ints || !*lc)
        return MPI_ERR_NO_MEM;
    int64_t at = 0;
    MPI_Count *to = *lc;
    if (large) {
        to[at++] = count;
        for (int64_t i = 0; blocklens && i < count; i++)
            to[at++] = blocklens[i];
        if (!blocklens)
            to[at++] = blocklen;
        for (int64_t i = 0; i < count; i++)
            to[at++] = displs[i];
        k->nlarge = (int)n, k->large = to;
        return MPI_SUCCESS;
    }
    int *ti = *ints;
    ti[at++] = (int)count;
    for (int64_t i = 0; blocklens && i < count; i++)
        ti[at++] = (int)blocklens[i];
    if (!blocklens)
        ti[at++] = (int)blocklen;
    for (int64_t i = 0; !h && i < count; i++)
        ti[at++] = (int)displs[i];
    k->nints = (int)at, k->ints = ti;
    if (h)
        k->naddrs = (int)count, k->addrs = displs;
    return MPI_SUCCESS;
}

/* The indexed family: count blocks of one old type. blocklens NULL: every block has blocklen copies;
 * displacements in bytes (the h- forms) or in extents of the old type. */
static int axon_dt_indexed(const char *func, int64_t count, const int64_t *blocklens, int64_t blocklen,
                           const int64_t *displs, MPI_Datatype oldtype, MPI_Datatype *newtype, int combiner,
                           bool large)
{
    struct axon_dtype_desc old, built;
    bool h = combiner == MPI_COMBINER_HINDEXED || combiner == MPI_COMBINER_HINDEXED_BLOCK;
    AXON_DT_CHECK_COUNT(func, count);
    if (!blocklens)
        AXON_DT_CHECK_BLOCKLEN(func, blocklen);
    if (count > 0 && ((combiner == MPI_COMBINER_INDEXED || combiner == MPI_COMBINER_HINDEXED) && !blocklens))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_blocklengths is a NULL pointer");
    if (count > 0 && !displs)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_displacements is a NULL pointer");
    for (int64_t i = 0; blocklens && i < count; i++)
        if (blocklens[i] < 0)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_blocklengths[%lld] = %lld is negative",
                                  (long long)i, (long long)blocklens[i]);
    int rc = axon_dt_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    AXON_DT_CHECK_OUT(func, newtype, "newtype");
    if (count > (INT_MAX - 2) / 2)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld is too large for the type's contents",
                              (long long)count);

    struct axon_dtype_block *blocks = malloc(sizeof(*blocks) * (size_t)(count > 0 ? count : 1));
    struct axon_dtype_contents k = {.combiner = combiner, .ntypes = 1, .types = &oldtype};
    int *ints = NULL;
    MPI_Count *lc = NULL;
    rc = blocks ? axon_dt_indexed_contents(combiner, count, blocklens, blocklen, displs, large, &k, &ints, &lc)
                : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(blocks);
        free(ints);
        free(lc);
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
    }
    for (int64_t i = 0; i < count; i++) {
        axon_wide disp = h ? (axon_wide)displs[i] : (axon_wide)displs[i] * (old.ub - old.lb);
        if (!axon_fits(disp))
            rc = MPI_ERR_ARG;
        blocks[i] = (struct axon_dtype_block){.blocklen = blocklens ? blocklens[i] : blocklen,
                                              .disp = (int64_t)disp, .child = &old};
    }
    if (rc == MPI_SUCCESS)
        rc = axon_dtype_build_blocks(count, blocks, false, &built);
    rc = axon_dt_register(func, rc, &built, &k, newtype);
    free(blocks);
    free(ints);
    free(lc);
    return rc;
}

/* An int call of the indexed family: its int arrays widened (NULL stays NULL, for the checks). */
static int axon_dt_indexed_int(const char *func, int count, const int *blocklens, int blocklen, const int *idispls,
                               const MPI_Aint *haddrs, MPI_Datatype oldtype, MPI_Datatype *newtype, int combiner)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    int64_t n = count > 0 ? count : 0;
    int64_t *bl = blocklens ? axon_dtype_widen(blocklens, n) : NULL;
    int64_t *id = idispls ? axon_dtype_widen(idispls, n) : NULL;
    if ((blocklens && !bl) || (idispls && !id)) {
        free(bl);
        free(id);
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
    }
    int rc = axon_dt_indexed(func, count, bl, blocklen, haddrs ? haddrs : id, oldtype, newtype, combiner, false);
    free(bl);
    free(id);
    return rc;
}

/* MPI_Count arrays are int64_t arrays in the MPICH ABI of x86-64 Linux. */
_Static_assert(sizeof(MPI_Count) == sizeof(int64_t), "MPI_Count is not 64 bits");
#define AXON_DT_LARGE(a) ((const int64_t *)(const void *)(a))

AXON_MPI_WEAK(Type_indexed)
int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_indexed_int("MPI_Type_indexed", count, array_of_blocklengths, 0, array_of_displacements, NULL,
                               oldtype, newtype, MPI_COMBINER_INDEXED);
}

AXON_MPI_WEAK(Type_indexed_c)
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_indexed_c");
    return axon_dt_indexed("MPI_Type_indexed_c", count, AXON_DT_LARGE(array_of_blocklengths), 0,
                           AXON_DT_LARGE(array_of_displacements), oldtype, newtype, MPI_COMBINER_INDEXED, true);
}

AXON_MPI_WEAK(Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_indexed_int("MPI_Type_create_hindexed", count, array_of_blocklengths, 0, NULL,
                               array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED);
}

AXON_MPI_WEAK(Type_create_hindexed_c)
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_create_hindexed_c");
    return axon_dt_indexed("MPI_Type_create_hindexed_c", count, AXON_DT_LARGE(array_of_blocklengths), 0,
                           AXON_DT_LARGE(array_of_displacements), oldtype, newtype, MPI_COMBINER_HINDEXED, true);
}

AXON_MPI_WEAK(Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_indexed_int("MPI_Type_create_indexed_block", count, NULL, blocklength, array_of_displacements,
                               NULL, oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK);
}

AXON_MPI_WEAK(Type_create_indexed_block_c)
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_create_indexed_block_c");
    return axon_dt_indexed("MPI_Type_create_indexed_block_c", count, NULL, blocklength,
                           AXON_DT_LARGE(array_of_displacements), oldtype, newtype, MPI_COMBINER_INDEXED_BLOCK, true);
}

AXON_MPI_WEAK(Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_indexed_int("MPI_Type_create_hindexed_block", count, NULL, blocklength, NULL,
                               array_of_displacements, oldtype, newtype, MPI_COMBINER_HINDEXED_BLOCK);
}

AXON_MPI_WEAK(Type_create_hindexed_block_c)
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_create_hindexed_block_c");
    return axon_dt_indexed("MPI_Type_create_hindexed_block_c", count, NULL, blocklength,
                           AXON_DT_LARGE(array_of_displacements), oldtype, newtype, MPI_COMBINER_HINDEXED_BLOCK,
                           true);
}

/* MPI_Type_create_struct(_c): blocklens widened by the int call; displs are bytes in both. */
static int axon_dt_struct(const char *func, int64_t count, const int64_t *blocklens, const int64_t *displs,
                          const MPI_Datatype *types, MPI_Datatype *newtype, bool large)
{
    AXON_DT_CHECK_COUNT(func, count);
    if (count > 0 && (!blocklens || !displs || !types))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "an array argument is a NULL pointer");
    if (count > (INT_MAX - 1) / 2)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld is too large for the type's contents",
                              (long long)count);
    for (int64_t i = 0; i < count; i++)
        if (blocklens[i] < 0)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "array_of_blocklengths[%lld] = %lld is negative",
                                  (long long)i, (long long)blocklens[i]);
    AXON_DT_CHECK_OUT(func, newtype, "newtype");

    size_t n = (size_t)(count > 0 ? count : 1);
    struct axon_dtype_desc *descs = malloc(sizeof(*descs) * n), built;
    struct axon_dtype_block *blocks = calloc(n, sizeof(*blocks)); /* zeroed: gcc cannot see it is written first */
    int *ints = malloc(sizeof(int) * (n + 1));
    MPI_Count *lc = malloc(sizeof(MPI_Count) * (large ? 2 * n + 1 : 1));
    int rc = MPI_SUCCESS;
    if (!descs || !blocks || !ints || !lc) {
        rc = axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
        goto out;
    }
    /* MPI_LB and MPI_UB (MPI-1's markers) are not members: as MPICH does, the struct of the other
     * members is built and then given the lowest MPI_LB and the highest MPI_UB as its bounds. */
    int64_t nblocks = 0;
    bool has_lb = false, has_ub = false;
    int64_t lb_marker = 0, ub_marker = 0;
    ints[0] = (int)count;
    lc[0] = count;
    for (int64_t i = 0; i < count; i++) {
        MPI_Datatype t = types[i];
        int64_t bl = blocklens[i];
        if (large) {
            lc[1 + i] = bl;
            lc[1 + count + i] = displs[i];
        } else {
            ints[1 + i] = (int)bl;
        }
        if (t == MPI_LB || t == MPI_UB) {
            if (bl == 0)
                continue;
            int64_t d = displs[i];
            if (t == MPI_LB) {
                lb_marker = has_lb && lb_marker < d ? lb_marker : d;
                has_lb = true;
            } else {
                ub_marker = has_ub && ub_marker > d ? ub_marker : d;
                has_ub = true;
            }
            continue;
        }
        if (t == MPI_DATATYPE_NULL || !axon_mpi_datatype_describe(t, &descs[i])) {
            rc = axon_mpi_error(NULL, func, MPI_ERR_TYPE, "array_of_types[%lld] = %s is not a valid datatype",
                                (long long)i, AXON_MPI_HANDLE_NAME(t));
            goto out;
        }
        blocks[nblocks++] = (struct axon_dtype_block){.blocklen = bl, .disp = displs[i], .child = &descs[i]};
    }
    rc = axon_dtype_build_blocks(nblocks, blocks, true, &built);
    if (rc == MPI_SUCCESS && (has_lb || has_ub)) {
        int64_t lb = has_lb ? (built.marked && built.lb < lb_marker ? built.lb : lb_marker) : built.lb;
        int64_t ub = has_ub ? (built.marked && built.ub > ub_marker ? built.ub : ub_marker) : built.ub;
        if (!axon_fits((axon_wide)ub - lb)) {
            axon_dloop_release(built.loop);
            rc = MPI_ERR_ARG;
        } else {
            built.lb = lb;
            built.ub = ub;
            built.marked = true;
            built.empty = false;
            axon_dtype_set_contig(&built);
        }
    }
    struct axon_dtype_contents k = {.combiner = MPI_COMBINER_STRUCT, .ntypes = (int)count, .types = types};
    if (large)
        k.nlarge = (int)(2 * count + 1), k.large = lc;
    else
        k.nints = (int)(count + 1), k.ints = ints, k.naddrs = (int)count, k.addrs = displs;
    rc = axon_dt_register(func, rc, &built, &k, newtype);
out:
    free(descs);
    free(blocks);
    free(ints);
    free(lc);
    return rc;
}

/* The int-count struct constructors (MPI_Type_create_struct, MPI-1's MPI_Type_struct). */
static int axon_dt_struct_int(const char *func, int count, const int *blocklens, const MPI_Aint *displs,
                              const MPI_Datatype *types, MPI_Datatype *newtype)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    int64_t *bl = blocklens ? axon_dtype_widen(blocklens, count > 0 ? count : 0) : NULL;
    if (blocklens && !bl)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a new datatype");
    int rc = axon_dt_struct(func, count, bl, displs, types, newtype, false);
    free(bl);
    return rc;
}

AXON_MPI_WEAK(Type_create_struct)
int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return axon_dt_struct_int("MPI_Type_create_struct", count, array_of_blocklengths, array_of_displacements,
                              array_of_types, newtype);
}

AXON_MPI_WEAK(Type_create_struct_c)
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_struct_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_dt_struct(func, count, AXON_DT_LARGE(array_of_blocklengths), AXON_DT_LARGE(array_of_displacements),
                          array_of_types, newtype, true);
}

static int axon_dt_resized(const char *func, MPI_Datatype oldtype, int64_t lb, int64_t extent, MPI_Datatype *newtype,
                           bool large)
{
    struct axon_dtype_desc old, built;
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc = axon_dt_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    AXON_DT_CHECK_OUT(func, newtype, "newtype");
    rc = axon_dtype_build_resized(&old, lb, extent, &built);
    MPI_Aint addrs[2] = {lb, extent};
    MPI_Count lc[2] = {lb, extent};
    struct axon_dtype_contents k = {.combiner = MPI_COMBINER_RESIZED, .ntypes = 1, .types = &oldtype};
    if (large)
        k.nlarge = 2, k.large = lc;
    else
        k.naddrs = 2, k.addrs = addrs;
    return axon_dt_register(func, rc, &built, &k, newtype);
}

AXON_MPI_WEAK(Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    return axon_dt_resized("MPI_Type_create_resized", oldtype, lb, extent, newtype, false);
}

AXON_MPI_WEAK(Type_create_resized_c)
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return axon_dt_resized("MPI_Type_create_resized_c", oldtype, lb, extent, newtype, true);
}

AXON_MPI_WEAK(Type_dup)
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_dup";
    struct axon_dtype_desc old;
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc = axon_dt_oldtype(func, oldtype, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    AXON_DT_CHECK_OUT(func, newtype, "newtype");
    old.loop = axon_dtype_loop_ref(&old);
    struct axon_dtype_contents k = {.combiner = MPI_COMBINER_DUP, .ntypes = 1, .types = &oldtype};
    rc = axon_dt_register(func, old.loop ? MPI_SUCCESS : MPI_ERR_NO_MEM, &old, &k, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The copy is committed when the original is (MPI 3.1 section 4.1.10); predefined types are. */
    struct axon_datatype *orig = axon_mpi_datatype_lookup(oldtype), *copy = axon_mpi_datatype_lookup(*newtype);
    bool committed = !orig || atomic_load_explicit(&orig->committed, memory_order_acquire);
    atomic_store_explicit(&copy->committed, committed, memory_order_release);
    /* The attributes' copy callbacks (MPI 3.1 section 6.7.4); a failing one fails the dup. */
    rc = axon_mpi_type_attr_copy(oldtype, *newtype);
    if (rc != MPI_SUCCESS) {
        axon_mpi_datatype_release(*newtype);
        *newtype = MPI_DATATYPE_NULL;
        return axon_mpi_error(NULL, func, rc, "an attribute copy callback returned %d", rc);
    }
    return MPI_SUCCESS;
}

/* ---- MPI-1's constructors that MPI-3 removed --------------------------------------------------------- */

/* MPICH's libmpi.so.12 still exports them, so programs built against it call them: the same types as
 * their MPI-2 replacements (and the same combiners, as MPI 2.2 gives them for C callers). */
AXON_MPI_WEAK(Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return axon_dt_vector("MPI_Type_hvector", count, blocklength, stride, true, oldtype, newtype, false);
}

AXON_MPI_WEAK(Type_hindexed)
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    return axon_dt_indexed_int("MPI_Type_hindexed", count, array_of_blocklengths, 0, NULL, array_of_displacements,
                               oldtype, newtype, MPI_COMBINER_HINDEXED);
}

AXON_MPI_WEAK(Type_struct)
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return axon_dt_struct_int("MPI_Type_struct", count, array_of_blocklengths, array_of_displacements, array_of_types,
                              newtype);
}
