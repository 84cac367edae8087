/* The predefined datatypes, and the lookup every communication call makes. MPICH's builtin handles
 * carry their size in bits 8-15, so a builtin costs a shift; the pair types of MAXLOC/MINLOC
 * (MPI_FLOAT_INT ...) have direct handles 0x8c000000 + i and real layouts with gaps, built once at
 * MPI_Init; derived types are found in the table (axon_mpi_datatype_table.c). This file also knows what
 * the datatype calls need of predefined types: their standard names, their alignment in a C struct and
 * how many basic elements they hold. */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <stddef.h>
#include <wchar.h>

#define AXON_HANDLE_KIND(h) (((unsigned)(h)) >> 30)
#define AXON_HANDLE_TYPE(h) ((((unsigned)(h)) >> 26) & 0xfu)
#define AXON_HANDLE_KIND_BUILTIN 1u
#define AXON_HANDLE_KIND_DIRECT 2u
#define AXON_HANDLE_TYPE_DATATYPE 3u

struct axon_pair_layout {
    struct axon_dtype_layout layout;
    struct axon_dloop *loop;
    int64_t value_size, index_offset, align;
};

static struct axon_pair_layout axon_pair_types[AXON_DATATYPE_NPAIRS];

static const char *const axon_pair_names[AXON_DATATYPE_NPAIRS] = {
    "MPI_FLOAT_INT", "MPI_DOUBLE_INT", "MPI_LONG_INT", "MPI_SHORT_INT", "MPI_LONG_DOUBLE_INT",
};

/* A {value, int} pair, as C lays out struct { T value; int index; }. */
static int axon_pair_build(struct axon_pair_layout *p, int64_t value_size, int64_t value_align, int64_t index_offset,
                           int64_t extent)
{
    struct axon_dloop *value = axon_dloop_leaf(value_size), *index = axon_dloop_leaf(sizeof(int));
    int64_t blocklens[2] = {1, 1}, displs[2] = {0, index_offset}, extents[2] = {value_size, sizeof(int)};
    struct axon_dloop *children[2] = {value, index};
    p->loop = value && index ? axon_dloop_blocks(2, blocklens, displs, children, extents) : NULL;
    axon_dloop_release(value);
    axon_dloop_release(index);
    if (!p->loop)
        return MPI_ERR_NO_MEM;
    p->value_size = value_size;
    p->index_offset = index_offset;
    p->align = value_align > (int64_t)_Alignof(int) ? value_align : (int64_t)_Alignof(int);
    p->layout = (struct axon_dtype_layout){
        .size = value_size + (int64_t)sizeof(int),
        .extent = extent,
        .true_lb = 0,
        .true_extent = index_offset + (int64_t)sizeof(int),
        .contig = index_offset == value_size && extent == value_size + (int64_t)sizeof(int),
        .loop = p->loop,
    };
    return MPI_SUCCESS;
}

/* ---- builtin types: name, alignment, elements ----------------------------------------------------- */

struct axon_builtin_info {
    MPI_Datatype handle;
    const char *name;
    int64_t align;      /* as a member of a C struct on this machine */
    int64_t elements;   /* basic elements: 2 for the Fortran-style pairs (MPI_2INT ...) */
};

#define AXON_BUILTIN(h, align) {h, #h, align, 1}
#define AXON_BUILTIN_PAIR(h, align) {h, #h, align, 2}

/* MPICH's builtin handles differ in their low byte, which indexes the table below at run time. */
static const struct axon_builtin_info axon_builtin_list[] = {
    AXON_BUILTIN(MPI_CHAR, _Alignof(char)),
    AXON_BUILTIN(MPI_SIGNED_CHAR, _Alignof(signed char)),
    AXON_BUILTIN(MPI_UNSIGNED_CHAR, _Alignof(unsigned char)),
    AXON_BUILTIN(MPI_BYTE, 1),
    AXON_BUILTIN(MPI_WCHAR, _Alignof(wchar_t)),
    AXON_BUILTIN(MPI_SHORT, _Alignof(short)),
    AXON_BUILTIN(MPI_UNSIGNED_SHORT, _Alignof(unsigned short)),
    AXON_BUILTIN(MPI_INT, _Alignof(int)),
    AXON_BUILTIN(MPI_UNSIGNED, _Alignof(unsigned)),
    AXON_BUILTIN(MPI_LONG, _Alignof(long)),
    AXON_BUILTIN(MPI_UNSIGNED_LONG, _Alignof(unsigned long)),
    AXON_BUILTIN(MPI_LONG_LONG_INT, _Alignof(long long)),
    AXON_BUILTIN(MPI_UNSIGNED_LONG_LONG, _Alignof(unsigned long long)),
    AXON_BUILTIN(MPI_FLOAT, _Alignof(float)),
    AXON_BUILTIN(MPI_DOUBLE, _Alignof(double)),
    AXON_BUILTIN(MPI_LONG_DOUBLE, _Alignof(long double)),
    AXON_BUILTIN(MPI_PACKED, 1),
    AXON_BUILTIN(MPI_LB, 1),
    AXON_BUILTIN(MPI_UB, 1),
    AXON_BUILTIN(MPI_INT8_T, _Alignof(int8_t)),
    AXON_BUILTIN(MPI_INT16_T, _Alignof(int16_t)),
    AXON_BUILTIN(MPI_INT32_T, _Alignof(int32_t)),
    AXON_BUILTIN(MPI_INT64_T, _Alignof(int64_t)),
    AXON_BUILTIN(MPI_UINT8_T, _Alignof(uint8_t)),
    AXON_BUILTIN(MPI_UINT16_T, _Alignof(uint16_t)),
    AXON_BUILTIN(MPI_UINT32_T, _Alignof(uint32_t)),
    AXON_BUILTIN(MPI_UINT64_T, _Alignof(uint64_t)),
    AXON_BUILTIN(MPI_C_BOOL, _Alignof(_Bool)),
    AXON_BUILTIN(MPI_C_COMPLEX, _Alignof(float _Complex)), /* MPI_C_FLOAT_COMPLEX too; MPICH names it so */
    AXON_BUILTIN(MPI_C_DOUBLE_COMPLEX, _Alignof(double _Complex)),
    AXON_BUILTIN(MPI_C_LONG_DOUBLE_COMPLEX, _Alignof(long double _Complex)),
    AXON_BUILTIN(MPI_AINT, _Alignof(MPI_Aint)),
    AXON_BUILTIN(MPI_OFFSET, _Alignof(MPI_Offset)),
    AXON_BUILTIN(MPI_COUNT, _Alignof(MPI_Count)),
    AXON_BUILTIN(MPIX_C_FLOAT16, 2),
    AXON_BUILTIN(MPIX_BFLOAT16, 2),
    AXON_BUILTIN(MPI_CXX_BOOL, _Alignof(_Bool)),
    AXON_BUILTIN(MPI_CXX_FLOAT_COMPLEX, _Alignof(float _Complex)),
    AXON_BUILTIN(MPI_CXX_DOUBLE_COMPLEX, _Alignof(double _Complex)),
    AXON_BUILTIN(MPI_CXX_LONG_DOUBLE_COMPLEX, _Alignof(long double _Complex)),
    AXON_BUILTIN_PAIR(MPI_2INT, _Alignof(int)),
    /* Fortran types, aligned as gfortran lays out a derived type of them. */
    AXON_BUILTIN(MPI_CHARACTER, 1),
    AXON_BUILTIN(MPI_LOGICAL, 4),
    AXON_BUILTIN(MPI_INTEGER, 4),
    AXON_BUILTIN(MPI_REAL, 4),
    AXON_BUILTIN(MPI_DOUBLE_PRECISION, 8),
    AXON_BUILTIN(MPI_COMPLEX, 4),
    AXON_BUILTIN(MPI_DOUBLE_COMPLEX, 8),
    AXON_BUILTIN_PAIR(MPI_2INTEGER, 4),
    AXON_BUILTIN_PAIR(MPI_2REAL, 4),
    AXON_BUILTIN_PAIR(MPI_2DOUBLE_PRECISION, 8),
    AXON_BUILTIN(MPI_REAL4, 4),
    AXON_BUILTIN(MPI_REAL8, 8),
    AXON_BUILTIN(MPI_REAL16, 16),
    AXON_BUILTIN(MPI_COMPLEX8, 4),
    AXON_BUILTIN(MPI_COMPLEX16, 8),
    AXON_BUILTIN(MPI_COMPLEX32, 16),
    AXON_BUILTIN(MPI_INTEGER1, 1),
    AXON_BUILTIN(MPI_INTEGER2, 2),
    AXON_BUILTIN(MPI_INTEGER4, 4),
    AXON_BUILTIN(MPI_INTEGER8, 8),
    AXON_BUILTIN(MPI_REAL2, 2),
    AXON_BUILTIN(MPI_COMPLEX4, 2),
    AXON_BUILTIN(MPI_LOGICAL1, 1),
    AXON_BUILTIN(MPI_LOGICAL2, 2),
    AXON_BUILTIN(MPI_LOGICAL4, 4),
    AXON_BUILTIN(MPI_LOGICAL8, 8),
    AXON_BUILTIN(MPI_LOGICAL16, 16),
};

static const struct axon_builtin_info *axon_builtin_by_low_byte[256];

static const struct axon_builtin_info *axon_builtin_info(MPI_Datatype handle)
{
    const struct axon_builtin_info *info = axon_builtin_by_low_byte[(unsigned)handle & 0xffu];
    return info && info->handle == handle ? info : NULL;
}

/* ---- lifetime ------------------------------------------------------------------------------------- */

int axon_mpi_datatype_init(void)
{
    struct { float v; int i; } fi;
    struct { double v; int i; } di;
    struct { long v; int i; } li;
    struct { short v; int i; } si;
    struct { long double v; int i; } ldi;
    for (size_t i = 0; i < AXON_ARRAY_SIZE(axon_builtin_list); i++)
        axon_builtin_by_low_byte[(unsigned)axon_builtin_list[i].handle & 0xffu] = &axon_builtin_list[i];
    int rc = MPI_SUCCESS;
    rc |= axon_pair_build(&axon_pair_types[0], sizeof(float), _Alignof(float), offsetof(__typeof__(fi), i),
                          sizeof(fi));
    rc |= axon_pair_build(&axon_pair_types[1], sizeof(double), _Alignof(double), offsetof(__typeof__(di), i),
                          sizeof(di));
    rc |= axon_pair_build(&axon_pair_types[2], sizeof(long), _Alignof(long), offsetof(__typeof__(li), i), sizeof(li));
    rc |= axon_pair_build(&axon_pair_types[3], sizeof(short), _Alignof(short), offsetof(__typeof__(si), i),
                          sizeof(si));
    rc |= axon_pair_build(&axon_pair_types[4], sizeof(long double), _Alignof(long double),
                          offsetof(__typeof__(ldi), i), sizeof(ldi));
    if (rc != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    for (unsigned i = 0; i < AXON_DATATYPE_NPAIRS; i++) {
        axon_pair_types[i].layout.basic = (MPI_Datatype)(AXON_DATATYPE_DIRECT | i);
        axon_pair_types[i].layout.basic_count = 1;
    }
    return axon_mpi_datatype_table_init();
}

void axon_mpi_datatype_finalize(void)
{
    axon_mpi_datatype_f90_finalize();
    axon_mpi_datatype_table_finalize();
    for (int i = 0; i < AXON_DATATYPE_NPAIRS; i++) {
        axon_dloop_release(axon_pair_types[i].loop);
        axon_pair_types[i].loop = NULL;
    }
}

/* ---- lookups -------------------------------------------------------------------------------------- */

_Static_assert((AXON_HANDLE_KIND_BUILTIN << 4 | AXON_HANDLE_TYPE_DATATYPE) == ((1u << 4) | 3u),
               "axon_mpi_datatype_get (mpi/axon_mpi.h) decodes builtin datatype handles inline");

/* What the inline axon_mpi_datatype_get leaves to us: pair types and derived types (and bad handles). */
bool axon_mpi_datatype_get_other(MPI_Datatype handle, struct axon_dtype_layout *layout)
{
    unsigned h = (unsigned)handle;
    if (AXON_HANDLE_TYPE(h) != AXON_HANDLE_TYPE_DATATYPE)
        return false;
    if (AXON_HANDLE_KIND(h) != AXON_HANDLE_KIND_DIRECT)
        return false;
    unsigned index = h & AXON_DATATYPE_INDEX_MASK;
    if (index < AXON_DATATYPE_NPAIRS) {
        if (!axon_pair_types[index].loop)
            return false;
        *layout = axon_pair_types[index].layout;
        return true;
    }
    /* Derived types: communication needs them committed (MPI_ERR_TYPE otherwise). */
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    if (!t || !atomic_load_explicit(&t->committed, memory_order_acquire))
        return false;
    *layout = t->layout;
    return true;
}

bool axon_mpi_datatype_predefined_desc(MPI_Datatype handle, struct axon_dtype_desc *desc)
{
    if (axon_mpi_datatype_is_pair(handle)) {
        const struct axon_pair_layout *p = &axon_pair_types[(unsigned)handle & AXON_DATATYPE_INDEX_MASK];
        if (!p->loop)
            return false;
        *desc = (struct axon_dtype_desc){
            .size = p->layout.size,
            .lb = 0,
            .ub = p->layout.extent,
            .true_lb = 0,
            .true_ub = p->index_offset + (int64_t)sizeof(int),
            .align = p->align,
            .nelements = 2,
            .contig = p->layout.contig,
            .loop = p->loop,
        };
        return true;
    }
    if (!axon_mpi_datatype_is_builtin(handle))
        return false;
    int64_t size = ((unsigned)handle >> 8) & 0xffu;
    const struct axon_builtin_info *info = axon_builtin_info(handle);
    if (handle == MPI_LB || handle == MPI_UB) {
        /* Markers, not data: only MPI_Type_create_struct gives them a meaning. */
        *desc = (struct axon_dtype_desc){.align = 1, .empty = true, .contig = true};
        return true;
    }
    if (size == 0)
        return false;
    /* A builtin we have no entry for (a newer MPICH's): aligned to its size, up to 8. */
    int64_t align = info ? info->align : 1;
    if (!info)
        while (align < 8 && align * 2 <= size && size % (align * 2) == 0)
            align *= 2;
    *desc = (struct axon_dtype_desc){
        .size = size,
        .lb = 0,
        .ub = size,
        .true_lb = 0,
        .true_ub = size,
        .align = align,
        .nelements = info ? info->elements : 1,
        .contig = true,
    };
    return true;
}

MPI_Datatype axon_mpi_datatype_predefined_at(int i)
{
    int nbuiltin = (int)(AXON_ARRAY_SIZE(axon_builtin_list));
    if (i >= 0 && i < nbuiltin)
        return axon_builtin_list[i].handle;
    if (i >= nbuiltin && i < nbuiltin + AXON_DATATYPE_NPAIRS)
        return (MPI_Datatype)(AXON_DATATYPE_DIRECT | (unsigned)(i - nbuiltin));
    return MPI_DATATYPE_NULL;
}

const char *axon_mpi_datatype_predefined_name(MPI_Datatype handle)
{
    if (axon_mpi_datatype_is_pair(handle))
        return axon_pair_names[(unsigned)handle & AXON_DATATYPE_INDEX_MASK];
    const struct axon_builtin_info *info = axon_mpi_datatype_is_builtin(handle) ? axon_builtin_info(handle) : NULL;
    return info ? info->name : NULL;
}

int64_t axon_mpi_datatype_predefined_prefix(MPI_Datatype handle, int64_t bytes)
{
    if (axon_mpi_datatype_is_pair(handle)) {
        const struct axon_pair_layout *p = &axon_pair_types[(unsigned)handle & AXON_DATATYPE_INDEX_MASK];
        return bytes == p->value_size ? 1 : -1;
    }
    const struct axon_builtin_info *info = axon_builtin_info(handle);
    int64_t size = ((unsigned)handle >> 8) & 0xffu;
    if (info && info->elements == 2 && bytes * 2 == size)
        return 1;
    return -1;
}
