/* What a datatype says about itself: MPI_Type_size(_x, _c), MPI_Type_get_extent(_x, _c),
 * MPI_Type_get_true_extent(_x, _c), MPI_Type_set_name/MPI_Type_get_name, MPI_Type_get_envelope(_c) and
 * MPI_Type_get_contents(_c), and the element counts of a status (MPI_Get_elements(_x, _c)). All of them
 * accept uncommitted types but MPI_Get_elements, which, like MPI_Get_count, names a type used to receive.
 * The int answers that cannot hold a size are MPI_UNDEFINED; the types of large-count constructors are
 * described only by the _c calls (MPI_ERR_TYPE from the int ones, as MPI 4.0 says). */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <limits.h>
#include <string.h>

/* The check that each query starts with: desc gets the description of any valid type. */
#define AXON_DT_DESCRIBE(func, handle, desc)                                                         \
    do {                                                                                             \
        if ((handle) == MPI_DATATYPE_NULL)                                                           \
            return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "the datatype is MPI_DATATYPE_NULL");    \
        if (!axon_mpi_datatype_describe(handle, &(desc)))                                            \
            return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME((handle))); \
    } while (0)

#define AXON_DT_NONNULL(func, ptr, what)                                                             \
    do {                                                                                             \
        if (!(ptr))                                                                                  \
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%s is a NULL pointer", what);            \
    } while (0)

/* ---- size and extents ----------------------------------------------------------------------------- */

AXON_MPI_WEAK(Type_size)
int PMPI_Type_size(MPI_Datatype datatype, int *size)
{
    static const char func[] = "MPI_Type_size";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, size, "size");
    /* Too large for an int: MPI_UNDEFINED, as MPI 3.1 section 4.1.5 says. */
    *size = d.size > INT_MAX ? MPI_UNDEFINED : (int)d.size;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_size_x)
int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    static const char func[] = "MPI_Type_size_x";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, size, "size");
    *size = d.size;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_size_c)
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    static const char func[] = "MPI_Type_size_c";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, size, "size");
    *size = d.size;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_extent)
int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    static const char func[] = "MPI_Type_get_extent";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, lb && extent, "lb or extent");
    *lb = d.lb;
    *extent = d.ub - d.lb;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_extent_x)
int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    static const char func[] = "MPI_Type_get_extent_x";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, lb && extent, "lb or extent");
    *lb = d.lb;
    *extent = d.ub - d.lb;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_extent_c)
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    static const char func[] = "MPI_Type_get_extent_c";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, lb && extent, "lb or extent");
    *lb = d.lb;
    *extent = d.ub - d.lb;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_true_extent)
int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    static const char func[] = "MPI_Type_get_true_extent";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, true_lb && true_extent, "true_lb or true_extent");
    *true_lb = d.true_lb;
    *true_extent = d.true_ub - d.true_lb;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_true_extent_x)
int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    static const char func[] = "MPI_Type_get_true_extent_x";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, true_lb && true_extent, "true_lb or true_extent");
    *true_lb = d.true_lb;
    *true_extent = d.true_ub - d.true_lb;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_true_extent_c)
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    static const char func[] = "MPI_Type_get_true_extent_c";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, true_lb && true_extent, "true_lb or true_extent");
    *true_lb = d.true_lb;
    *true_extent = d.true_ub - d.true_lb;
    return MPI_SUCCESS;
}

/* ---- names ---------------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Type_set_name)
int PMPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    static const char func[] = "MPI_Type_set_name";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, type_name, "type_name");
    int rc = axon_mpi_datatype_name_set(datatype, type_name);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "%s",
                              rc == MPI_ERR_TYPE ? "the datatype was freed meanwhile" : "out of memory for the name");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_name)
int PMPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    static const char func[] = "MPI_Type_get_name";
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    /* The null handle has a name too (MPI 4.1). */
    if (datatype != MPI_DATATYPE_NULL)
        AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, type_name && resultlen, "type_name or resultlen");
    char name[MPI_MAX_OBJECT_NAME] = "MPI_DATATYPE_NULL";
    if (datatype != MPI_DATATYPE_NULL)
        axon_mpi_datatype_name_get(datatype, name);
    size_t n = strlen(name);
    memcpy(type_name, name, n + 1);
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

/* ---- envelope and contents ------------------------------------------------------------------------ */

/* The envelope of any type; large: the caller is MPI_Type_get_envelope_c, which alone may describe a
 * type made by a large-count constructor (MPI 4.0 section 5.1.13). */
static int axon_dt_envelope(const char *func, MPI_Datatype datatype, MPI_Count *ni, MPI_Count *na, MPI_Count *nc,
                            MPI_Count *nd, int *combiner, bool large)
{
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    AXON_DT_NONNULL(func, ni && na && nc && nd && combiner, "an output argument");
    struct axon_datatype *t = axon_mpi_datatype_lookup(datatype);
    if (!t) {
        *ni = *na = *nc = *nd = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    if (t->nlarge && !large)
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE,
                              "datatype %s was made by a large-count constructor: only %s_c describes it",
                              AXON_MPI_HANDLE_NAME(datatype), func);
    *ni = t->nints;
    *na = t->naddrs;
    *nc = t->nlarge;
    *nd = t->ntypes;
    *combiner = t->combiner;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes,
                           int *combiner)
{
    MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
    int rc = axon_dt_envelope("MPI_Type_get_envelope", datatype, &ni, &na, &nc, &nd, combiner, false);
    if (rc == MPI_SUCCESS && (!num_integers || !num_addresses || !num_datatypes))
        rc = axon_mpi_error(NULL, "MPI_Type_get_envelope", MPI_ERR_ARG, "an output argument is a NULL pointer");
    if (rc != MPI_SUCCESS)
        return rc;
    *num_integers = (int)ni;
    *num_addresses = (int)na;
    *num_datatypes = (int)nd;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_envelope_c)
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    return axon_dt_envelope("MPI_Type_get_envelope_c", datatype, num_integers, num_addresses, num_large_counts,
                            num_datatypes, combiner, true);
}

/* The contents of a derived type into arrays of at least the envelope's sizes; large_counts NULL with
 * max_large 0: the int call, which refuses a type made by a large-count constructor. */
static int axon_dt_contents(const char *func, MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                            MPI_Count max_large, MPI_Count max_datatypes, int array_of_integers[],
                            MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                            MPI_Datatype array_of_datatypes[], bool large)
{
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_DESCRIBE(func, datatype, d);
    struct axon_datatype *t = axon_mpi_datatype_lookup(datatype);
    if (!t)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "predefined datatype %s has no contents (MPI_COMBINER_NAMED)",
                              AXON_MPI_HANDLE_NAME(datatype));
    if (t->nlarge && !large)
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE,
                              "datatype %s was made by a large-count constructor: only %s_c describes it",
                              AXON_MPI_HANDLE_NAME(datatype), func);
    if (max_integers < t->nints || max_addresses < t->naddrs || max_large < t->nlarge || max_datatypes < t->ntypes)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG,
                              "the arrays are too small: %d integers, %d addresses, %d large counts and %d datatypes "
                              "needed",
                              t->nints, t->naddrs, t->nlarge, t->ntypes);
    if ((t->nints && !array_of_integers) || (t->naddrs && !array_of_addresses) ||
        (t->nlarge && !array_of_large_counts) || (t->ntypes && !array_of_datatypes))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "an output array is a NULL pointer");
    if (t->nints)
        memcpy(array_of_integers, t->ints, sizeof(int) * (size_t)t->nints);
    if (t->naddrs)
        memcpy(array_of_addresses, t->addrs, sizeof(MPI_Aint) * (size_t)t->naddrs);
    if (t->nlarge)
        memcpy(array_of_large_counts, t->large, sizeof(MPI_Count) * (size_t)t->nlarge);
    /* Derived types come back as the same handles with one more reference each, which the caller frees
     * (MPICH does the same; the standard asks only for handles to equivalent types). Those of
     * MPI_Type_create_f90_* are predefined: the caller may not free them, so they take no reference. */
    for (int i = 0; i < t->ntypes; i++) {
        array_of_datatypes[i] = t->types[i];
        if (axon_mpi_datatype_f90_base(t->types[i]) == MPI_DATATYPE_NULL)
            axon_mpi_datatype_retain(t->types[i]);
    }
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    return axon_dt_contents("MPI_Type_get_contents", datatype, max_integers, max_addresses, 0, max_datatypes,
                            array_of_integers, array_of_addresses, NULL, array_of_datatypes, false);
}

AXON_MPI_WEAK(Type_get_contents_c)
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    return axon_dt_contents("MPI_Type_get_contents_c", datatype, max_integers, max_addresses, max_large_counts,
                            max_datatypes, array_of_integers, array_of_addresses, array_of_large_counts,
                            array_of_datatypes, true);
}

/* ---- element counts ------------------------------------------------------------------------------- */

/* Basic elements in the first bytes (0 <= bytes < size) of one element of handle; -1 if bytes ends
 * inside a basic element. The packed order is the typemap's, so the walk follows the constructors'
 * arguments: a struct's blocks in order, any other type as copies of its one old type. */
static int64_t axon_dt_prefix(MPI_Datatype handle, int64_t bytes)
{
    if (bytes == 0)
        return 0;
    if (axon_mpi_datatype_is_predefined(handle))
        return axon_mpi_datatype_predefined_prefix(handle, bytes);
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    struct axon_dtype_desc c;
    if (!t)
        return -1;
    MPI_Datatype f90 = axon_mpi_datatype_f90_base(handle);
    if (f90 != MPI_DATATYPE_NULL)
        return axon_mpi_datatype_predefined_prefix(f90, bytes); /* no old types: it is its base */
    if (t->combiner != MPI_COMBINER_STRUCT) {
        if (!axon_mpi_datatype_describe(t->types[0], &c) || c.size == 0)
            return -1;
        int64_t r = axon_dt_prefix(t->types[0], bytes % c.size);
        return r < 0 ? -1 : bytes / c.size * c.nelements + r;
    }
    int64_t n = 0;
    for (int i = 0; i < t->ntypes; i++) {
        int64_t blocklen = t->nlarge ? t->large[1 + i] : t->ints[1 + i];
        if (blocklen == 0 || !axon_mpi_datatype_describe(t->types[i], &c) || c.size == 0)
            continue;
        if (bytes >= blocklen * c.size) {
            n += blocklen * c.nelements;
            bytes -= blocklen * c.size;
            continue;
        }
        int64_t r = axon_dt_prefix(t->types[i], bytes % c.size);
        return r < 0 ? -1 : n + bytes / c.size * c.nelements + r;
    }
    return -1;
}

int64_t axon_mpi_datatype_elements(MPI_Datatype handle, int64_t bytes)
{
    struct axon_dtype_desc d;
    if (!axon_mpi_datatype_describe(handle, &d) || d.size == 0)
        return 0;
    int64_t r = axon_dt_prefix(handle, bytes % d.size);
    return r < 0 ? -1 : bytes / d.size * d.nelements + r;
}

static int axon_dt_elements_of(const char *func, const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    struct axon_dtype_layout layout;
    if (!status || status == MPI_STATUS_IGNORE)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "status is a NULL pointer or MPI_STATUS_IGNORE");
    if (!axon_mpi_datatype_get(datatype, &layout))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid or uncommitted datatype %s",
                              AXON_MPI_HANDLE_NAME(datatype));
    /* The status counts bytes: count_lo and the high bits above the cancelled flag. */
    int64_t bytes = (int64_t)(uint32_t)status->count_lo |
                    ((int64_t)((uint32_t)status->count_hi_and_cancelled >> 1) << 32);
    int64_t n = axon_mpi_datatype_elements(datatype, bytes);
    *count = n < 0 ? MPI_UNDEFINED : n;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Get_elements)
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    static const char func[] = "MPI_Get_elements";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_NONNULL(func, count, "count");
    MPI_Count n;
    int rc = axon_dt_elements_of(func, status, datatype, &n);
    if (rc == MPI_SUCCESS)
        *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return rc;
}

AXON_MPI_WEAK(Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    static const char func[] = "MPI_Get_elements_x";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_NONNULL(func, count, "count");
    return axon_dt_elements_of(func, status, datatype, count);
}

AXON_MPI_WEAK(Get_elements_c)
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    static const char func[] = "MPI_Get_elements_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_DT_NONNULL(func, count, "count");
    return axon_dt_elements_of(func, status, datatype, count);
}
