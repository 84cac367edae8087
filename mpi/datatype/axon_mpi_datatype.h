/* Internal header of the datatype layer of mpi/: what a datatype is (its bounds, alignment, element count
 * and data layout), the derived-datatype object behind a direct handle, the accessors the layer's files
 * share, and the pure functions that compute a new type from its parts (unit-tested on their own).
 *
 * Handles: predefined types keep MPICH's values (builtins carry their size; the MAXLOC/MINLOC pairs are
 * direct handles 0x8c000000..4); derived types are direct handles 0x8c000000 | (8 + pool index). */
#ifndef AXON_MPI_DATATYPE_H
#define AXON_MPI_DATATYPE_H

#include "mpi/axon_mpi.h"

struct axon_attr;

#define AXON_DATATYPE_DIRECT 0x8c000000u
#define AXON_DATATYPE_HANDLE_MASK 0xfc000000u
#define AXON_DATATYPE_INDEX_MASK 0x03ffffffu
#define AXON_DATATYPE_NPAIRS 5          /* MPI_FLOAT_INT .. MPI_LONG_DOUBLE_INT */
#define AXON_DATATYPE_FIRST_DERIVED 8u  /* indices below are MPICH's predefined direct types */

/* What a type is, as far as using it to build other types goes. lb/ub follow MPI 3.1 section 4.1.6:
 * without markers they bound the data (plus a struct's alignment padding); with markers (from
 * MPI_Type_create_resized, or MPI_LB/MPI_UB in a struct) the markers decide, and they propagate through
 * every type built on top. Markers always come in pairs here: a lone MPI_LB or MPI_UB makes a resized
 * type whose other bound is the one the struct had. */
struct axon_dtype_desc {
    int64_t size;              /* bytes of data in one element */
    int64_t lb, ub;            /* extent = ub - lb */
    int64_t true_lb, true_ub;  /* bounds of the data alone; 0 and 0 when there is none */
    int64_t align;             /* the alignment of its most aligned basic member (struct padding) */
    int64_t nelements;         /* basic elements in one element */
    bool marked;               /* lb and ub are explicit markers */
    bool empty;                /* no entries at all (no data, no markers): adds nothing to a parent */
    bool contig;               /* count elements are count * size bytes in one piece from true_lb */
    struct axon_dloop *loop;   /* the data layout; NULL for builtin types (one leaf of size bytes) */
};

/* A derived datatype. The object lives while the user holds a handle to it, or a type built on it
 * does (its contents name it), or MPI_Type_get_contents handed it out again (MPICH's semantics: the
 * same handle comes back and must be freed once more). Pending communications do not need the object:
 * they hold a reference on the data layout (desc.loop), which is refcounted on its own. */
struct axon_datatype {
    MPI_Datatype handle;
    uint32_t index;                  /* in the pool */
    atomic_int refs;
    atomic_bool committed;
    struct axon_dtype_desc desc;     /* desc.loop is a reference owned by the object */
    struct axon_dtype_layout layout; /* what the engine gets (loop is desc.loop, or NULL when contig) */
    /* MPI_Type_get_envelope(_c) / MPI_Type_get_contents(_c): the constructor and its arguments. A type
     * made by a large-count (_c) constructor keeps its counts, displacements and bounds as large counts
     * (MPI 4.0 section 5.1.13), and only the _c queries describe it. */
    int combiner;
    int nints, naddrs, nlarge, ntypes;
    int *ints;
    MPI_Aint *addrs;
    MPI_Count *large;
    MPI_Datatype *types;             /* derived ones are retained */
    char name[MPI_MAX_OBJECT_NAME];  /* read and written under the table's name lock */
    struct axon_attr *attrs;         /* cached attributes (mpi/datatype/axon_mpi_type_attr.c) */
};

/* ---- predefined types (axon_mpi_datatype_builtin.c) ---------------------------------------------- */

static inline bool axon_mpi_datatype_is_builtin(MPI_Datatype handle)
{
    return ((unsigned)handle & 0xfc000000u) == 0x4c000000u;
}

static inline bool axon_mpi_datatype_is_pair(MPI_Datatype handle)
{
    unsigned h = (unsigned)handle;
    return (h & AXON_DATATYPE_HANDLE_MASK) == AXON_DATATYPE_DIRECT &&
           (h & AXON_DATATYPE_INDEX_MASK) < AXON_DATATYPE_NPAIRS;
}

static inline bool axon_mpi_datatype_is_predefined(MPI_Datatype handle)
{
    return axon_mpi_datatype_is_builtin(handle) || axon_mpi_datatype_is_pair(handle);
}

/* The description of a predefined type (loop NULL for builtins); false if handle is not one. */
bool axon_mpi_datatype_predefined_desc(MPI_Datatype handle, struct axon_dtype_desc *desc);
/* The i-th predefined type (the builtins in mpi.h's order, MPI_LB and MPI_UB among them, then the pairs
 * MPI_FLOAT_INT ...), MPI_DATATYPE_NULL past the last: for listing them all. */
MPI_Datatype axon_mpi_datatype_predefined_at(int i);
/* The standard name of a predefined type ("MPI_INT"), or NULL for an unknown handle. */
const char *axon_mpi_datatype_predefined_name(MPI_Datatype handle);
/* Basic elements in the first bytes (0 < bytes < size) of a predefined type: 1 when bytes ends the
 * first member of a pair, -1 (not a whole number of elements) otherwise. */
int64_t axon_mpi_datatype_predefined_prefix(MPI_Datatype handle, int64_t bytes);

/* ---- the table of derived types (axon_mpi_datatype_table.c) -------------------------------------- */

int axon_mpi_datatype_table_init(void);
void axon_mpi_datatype_table_finalize(void);
/* The derived type of a handle (committed or not), or NULL. */
struct axon_datatype *axon_mpi_datatype_lookup(MPI_Datatype handle);
/* Any valid type, committed or not (the constructors and queries accept uncommitted types). */
bool axon_mpi_datatype_describe(MPI_Datatype handle, struct axon_dtype_desc *desc);
/* What MPI_Type_get_contents(_c) gives back of a type: its constructor and the arguments it took. */
struct axon_dtype_contents {
    int combiner;
    int nints;
    const int *ints;
    int naddrs;
    const MPI_Aint *addrs;
    int nlarge;
    const MPI_Count *large;
    int ntypes;
    const MPI_Datatype *types;
};

/* A new derived type from desc (its loop reference passes to the object, even on failure), with its
 * contents (copied; derived types among them are retained). Returns an error class. */
int axon_mpi_datatype_create(const struct axon_dtype_desc *desc, const struct axon_dtype_contents *contents,
                             MPI_Datatype *newtype);
/* References on a type handle; no-ops for predefined types. */
void axon_mpi_datatype_retain(MPI_Datatype handle);
void axon_mpi_datatype_release(MPI_Datatype handle);
/* The attribute list of any valid type (predefined types keep theirs in a table of the library), or
 * NULL. Guarded by the attribute machinery's lock (mpi/comm/axon_mpi_attr.c). */
struct axon_attr **axon_mpi_datatype_attrs(MPI_Datatype handle);
/* Names: the user's name, or the standard one for predefined types; "" for unnamed derived types. */
void axon_mpi_datatype_name_get(MPI_Datatype handle, char name[MPI_MAX_OBJECT_NAME]);
int axon_mpi_datatype_name_set(MPI_Datatype handle, const char *name);

/* ---- attributes (axon_mpi_type_attr.c) ------------------------------------------------------------ */

/* MPI_Type_dup's copy callbacks, from old onto its copy; MPI_SUCCESS or the class a callback returned. */
int axon_mpi_type_attr_copy(MPI_Datatype old, MPI_Datatype copy);
/* The delete callbacks of a type whose last reference goes (newest first); stops at a failing one. */
int axon_mpi_type_attr_delete_all(MPI_Datatype handle);

/* ---- building types (axon_mpi_datatype_create.c): pure computations on descriptions -------------- */

/* One block of a constructor: blocklen copies of child, one child extent apart, from disp bytes. */
struct axon_dtype_block {
    int64_t blocklen;
    int64_t disp;
    const struct axon_dtype_desc *child;
};

/* Each fills *out (with a new loop reference) and returns MPI_SUCCESS, MPI_ERR_ARG when a size or a
 * bound would not fit in 64 bits, or MPI_ERR_NO_MEM. */
int axon_dtype_build_vector(int64_t count, int64_t blocklen, int64_t stride_bytes, const struct axon_dtype_desc *child,
                            struct axon_dtype_desc *out);
/* Indexed, hindexed, (h)indexed_block and struct. pad: round the extent up to the alignment (struct). */
int axon_dtype_build_blocks(int64_t n, const struct axon_dtype_block *blocks, bool pad, struct axon_dtype_desc *out);
int axon_dtype_build_resized(const struct axon_dtype_desc *child, int64_t lb, int64_t extent,
                             struct axon_dtype_desc *out);
/* n ints as a new array of int64_t (malloc'd, at least one entry; NULL when out of memory): an int
 * constructor's arrays for the 64-bit function it shares with its large-count twin. */
int64_t *axon_dtype_widen(const int *v, int64_t n);
/* out->contig from out->loop, size and extent (for types whose bounds were changed afterwards). */
void axon_dtype_set_contig(struct axon_dtype_desc *out);

/* ---- Fortran 90 parameterized types (axon_mpi_datatype_f90.c) ------------------------------------ */

/* The predefined type a type of MPI_Type_create_f90_* stands for (MPI_REAL8 ...), or MPI_DATATYPE_NULL
 * for any other handle. Such types are derived entries that the standard calls predefined: never freed,
 * and their contents are (p, r) with no old types. */
MPI_Datatype axon_mpi_datatype_f90_base(MPI_Datatype handle);
/* Forgets the cached types (the table frees their entries). */
void axon_mpi_datatype_f90_finalize(void);

/* ---- element counts (axon_mpi_datatype_query.c) -------------------------------------------------- */

/* Basic elements in bytes bytes of a stream of elements of handle; -1 if bytes ends inside one. */
int64_t axon_mpi_datatype_elements(MPI_Datatype handle, int64_t bytes);

#endif
