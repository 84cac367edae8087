/* The Fortran 90 parameterized types: MPI_Type_create_f90_real, _complex and _integer (MPI 4.1 section
 * 19.1.9). Each picks the kind that gfortran's selected_real_kind(p, r) or selected_int_kind(r) would,
 * and answers a type that is that kind's explicit-size type (MPI_REAL8, MPI_COMPLEX16, MPI_INTEGER4 ...)
 * in every respect but two the standard names: MPI_Type_get_envelope gives the F90 combiner and
 * MPI_Type_get_contents the (p, r) or (r) of the call.
 *
 * Such a type is a derived entry of the datatype table whose layout is its base type's (a single leaf,
 * with the base as its `basic` type, so reductions and external32 treat it as the base), committed
 * from the start and refused by MPI_Type_free, since the standard calls these types predefined. One
 * entry per (combiner, p, r) is made on first use and cached, so repeated calls with the same arguments
 * give the same handle (the standard's advice to implementors, and what MPICH does) and a program that
 * calls them in a loop does not grow the table. The entries go with the table at MPI_Finalize. */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <stdio.h>
#include <stdlib.h>

/* One cached type: the call that made it and its handle. */
struct axon_f90_entry {
    int combiner;
    int p, r; /* as given; r alone for integers (p is MPI_UNDEFINED there) */
    MPI_Datatype handle;
};

static struct axon_f90_entry *axon_f90_cache;
static int axon_f90_count, axon_f90_cap;
static pthread_mutex_t axon_f90_lock = PTHREAD_MUTEX_INITIALIZER;

void axon_mpi_datatype_f90_finalize(void)
{
    pthread_mutex_lock(&axon_f90_lock);
    free(axon_f90_cache);
    axon_f90_cache = NULL;
    axon_f90_count = axon_f90_cap = 0;
    pthread_mutex_unlock(&axon_f90_lock);
}

MPI_Datatype axon_mpi_datatype_f90_base(MPI_Datatype handle)
{
    const struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    if (!t || (t->combiner != MPI_COMBINER_F90_REAL && t->combiner != MPI_COMBINER_F90_COMPLEX &&
               t->combiner != MPI_COMBINER_F90_INTEGER))
        return MPI_DATATYPE_NULL;
    return t->layout.basic;
}

/* selected_real_kind(p, r) as gfortran answers it, among the kinds Axon has a type for: the first kind
 * whose precision and range both suffice (an omitted argument, MPI_UNDEFINED here, asks nothing;
 * negative ones, as in Fortran, ask nothing either). Returns the kind's index (0: kind 4, 1: kind 8,
 * 2: kind 16) or -1. */
static int axon_f90_real_kind(int p, int r)
{
    static const struct { int precision, range; } kinds[] = {{6, 37}, {15, 307}, {33, 4931}};
    int nkinds = MPI_REAL16 != MPI_DATATYPE_NULL ? 3 : 2;
    for (int i = 0; i < nkinds; i++)
        if ((p == MPI_UNDEFINED || p <= kinds[i].precision) && (r == MPI_UNDEFINED || r <= kinds[i].range))
            return i;
    return -1;
}

/* The type of a call: from the cache, or made now. Returns an error class; the message is the caller's. */
static int axon_f90_get(int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *newtype)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_f90_lock);
    for (int i = 0; i < axon_f90_count; i++) {
        const struct axon_f90_entry *e = &axon_f90_cache[i];
        if (e->combiner == combiner && e->p == p && e->r == r) {
            *newtype = e->handle;
            goto out;
        }
    }
    if (axon_f90_count == axon_f90_cap) {
        int cap = axon_f90_cap ? axon_f90_cap * 2 : 16;
        struct axon_f90_entry *grown = realloc(axon_f90_cache, sizeof(*grown) * (size_t)cap);
        if (!grown) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        axon_f90_cache = grown;
        axon_f90_cap = cap;
    }
    /* The base's own description, with a layout of its own, as every derived entry has. */
    struct axon_dtype_desc desc;
    axon_mpi_datatype_predefined_desc(base, &desc);
    desc.loop = axon_dloop_leaf(desc.size);
    if (!desc.loop) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    /* The contents: (p, r), or (r) alone for an integer. */
    int ints[2] = {p, r};
    bool integer = combiner == MPI_COMBINER_F90_INTEGER;
    struct axon_dtype_contents k = {.combiner = combiner, .nints = integer ? 1 : 2, .ints = integer ? &ints[1] : ints};
    MPI_Datatype handle;
    rc = axon_mpi_datatype_create(&desc, &k, &handle);
    if (rc != MPI_SUCCESS)
        goto out;
    /* Without old types the table finds no basic type; this one reduces, counts elements and converts
     * to external32 as its base, and needs no commit. Nobody else knows the handle yet. */
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    t->layout.basic = base;
    t->layout.basic_count = 1;
    atomic_store_explicit(&t->committed, true, memory_order_release);
    axon_f90_cache[axon_f90_count++] = (struct axon_f90_entry){.combiner = combiner, .p = p, .r = r, .handle = handle};
    *newtype = handle;
out:
    pthread_mutex_unlock(&axon_f90_lock);
    return rc;
}

/* The checks and the answer that the three calls share; base is MPI_DATATYPE_NULL when no kind fits. */
static int axon_f90_create(const char *func, int combiner, int p, int r, MPI_Datatype base, MPI_Datatype *newtype)
{
    if (!newtype)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "newtype is a NULL pointer");
    *newtype = MPI_DATATYPE_NULL;
    if (base == MPI_DATATYPE_NULL) {
        if (combiner == MPI_COMBINER_F90_INTEGER)
            return r == MPI_UNDEFINED
                       ? axon_mpi_error(NULL, func, MPI_ERR_ARG, "r is MPI_UNDEFINED: selected_int_kind needs a range")
                       : axon_mpi_error(NULL, func, MPI_ERR_ARG,
                                        "no INTEGER kind has a decimal range of %d digits (Axon's kinds are 1, 2, 4 "
                                        "and 8, up to 18 digits)",
                                        r);
        if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "p and r are both MPI_UNDEFINED: one must be given");
        char ps[16] = "any", rs[16] = "any";
        if (p != MPI_UNDEFINED)
            snprintf(ps, sizeof(ps), "%d", p);
        if (r != MPI_UNDEFINED)
            snprintf(rs, sizeof(rs), "%d", r);
        return axon_mpi_error(NULL, func, MPI_ERR_ARG,
                              "no %s kind has a precision of %s and a decimal range of %s digits (Axon's kinds "
                              "are %s)",
                              combiner == MPI_COMBINER_F90_REAL ? "REAL" : "COMPLEX", ps, rs,
                              MPI_REAL16 != MPI_DATATYPE_NULL ? "4, 8 and 16, up to precision 33 and range 4931"
                                                              : "4 and 8, up to precision 15 and range 307");
    }
    int rc = axon_f90_get(combiner, p, r, base, newtype);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory for the type");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_create_f90_real)
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_f90_real";
    static const MPI_Datatype reals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
    AXON_MPI_REQUIRE_ACTIVE(func);
    /* Fortran refuses selected_real_kind() with neither argument; so does the standard here. */
    int kind = p == MPI_UNDEFINED && r == MPI_UNDEFINED ? -1 : axon_f90_real_kind(p, r);
    return axon_f90_create(func, MPI_COMBINER_F90_REAL, p, r, kind < 0 ? MPI_DATATYPE_NULL : reals[kind], newtype);
}

AXON_MPI_WEAK(Type_create_f90_complex)
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_f90_complex";
    /* A COMPLEX of kind k is two REALs of kind k. */
    static const MPI_Datatype complexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
    AXON_MPI_REQUIRE_ACTIVE(func);
    int kind = p == MPI_UNDEFINED && r == MPI_UNDEFINED ? -1 : axon_f90_real_kind(p, r);
    return axon_f90_create(func, MPI_COMBINER_F90_COMPLEX, p, r, kind < 0 ? MPI_DATATYPE_NULL : complexes[kind],
                           newtype);
}

AXON_MPI_WEAK(Type_create_f90_integer)
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    static const char func[] = "MPI_Type_create_f90_integer";
    /* selected_int_kind(r): the first kind whose range (10^r exclusive) holds r digits. A negative r asks
     * nothing, as in Fortran; MPI_UNDEFINED is no range at all, since selected_int_kind needs one. */
    static const struct { int range; MPI_Datatype type; } kinds[] = {
        {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}};
    AXON_MPI_REQUIRE_ACTIVE(func);
    MPI_Datatype base = MPI_DATATYPE_NULL;
    for (size_t i = 0; r != MPI_UNDEFINED && i < AXON_ARRAY_SIZE(kinds) && base == MPI_DATATYPE_NULL; i++)
        if (r <= kinds[i].range)
            base = kinds[i].type;
    return axon_f90_create(func, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, base, newtype);
}
