/* The predefined datatypes. MPICH's builtin handles carry their size in bits 8-15, so a builtin costs a
 * shift; the pair types of MAXLOC/MINLOC (MPI_FLOAT_INT ...) have direct handles 0x8c000000 + i and
 * real layouts with gaps, built once at MPI_Init. Derived datatypes join this lookup with the datatype
 * calls. */
#include "mpi/axon_mpi.h"

#include <stddef.h>

#define AXON_HANDLE_KIND(h) (((unsigned)(h)) >> 30)
#define AXON_HANDLE_TYPE(h) ((((unsigned)(h)) >> 26) & 0xfu)
#define AXON_HANDLE_KIND_BUILTIN 1u
#define AXON_HANDLE_KIND_DIRECT 2u
#define AXON_HANDLE_TYPE_DATATYPE 3u

struct axon_pair_layout {
    struct axon_dtype_layout layout;
    struct axon_dloop *loop;
};

static struct axon_pair_layout axon_pair_types[5];

/* A {value, int} pair, as C lays out struct { T value; int index; }. */
static int axon_pair_build(struct axon_pair_layout *p, int64_t value_size, int64_t index_offset, int64_t extent)
{
    struct axon_dloop *value = axon_dloop_leaf(value_size), *index = axon_dloop_leaf(sizeof(int));
    int64_t blocklens[2] = {1, 1}, displs[2] = {0, index_offset}, extents[2] = {value_size, sizeof(int)};
    struct axon_dloop *children[2] = {value, index};
    p->loop = value && index ? axon_dloop_blocks(2, blocklens, displs, children, extents) : NULL;
    axon_dloop_release(value);
    axon_dloop_release(index);
    if (!p->loop)
        return MPI_ERR_NO_MEM;
    p->layout = (struct axon_dtype_layout){
        .size = value_size + (int64_t)sizeof(int),
        .extent = extent,
        .true_lb = 0,
        .contig = index_offset == value_size && extent == value_size + (int64_t)sizeof(int),
        .loop = p->loop,
    };
    return MPI_SUCCESS;
}

int axon_mpi_datatype_init(void)
{
    struct { float v; int i; } fi;
    struct { double v; int i; } di;
    struct { long v; int i; } li;
    struct { short v; int i; } si;
    struct { long double v; int i; } ldi;
    int rc = MPI_SUCCESS;
    rc |= axon_pair_build(&axon_pair_types[0], sizeof(float), offsetof(__typeof__(fi), i), sizeof(fi));
    rc |= axon_pair_build(&axon_pair_types[1], sizeof(double), offsetof(__typeof__(di), i), sizeof(di));
    rc |= axon_pair_build(&axon_pair_types[2], sizeof(long), offsetof(__typeof__(li), i), sizeof(li));
    rc |= axon_pair_build(&axon_pair_types[3], sizeof(short), offsetof(__typeof__(si), i), sizeof(si));
    rc |= axon_pair_build(&axon_pair_types[4], sizeof(long double), offsetof(__typeof__(ldi), i), sizeof(ldi));
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

void axon_mpi_datatype_finalize(void)
{
    for (int i = 0; i < 5; i++) {
        axon_dloop_release(axon_pair_types[i].loop);
        axon_pair_types[i].loop = NULL;
    }
}

bool axon_mpi_datatype_get(MPI_Datatype handle, struct axon_dtype_layout *layout)
{
    unsigned h = (unsigned)handle;
    if (AXON_HANDLE_TYPE(h) != AXON_HANDLE_TYPE_DATATYPE)
        return false;
    if (AXON_HANDLE_KIND(h) == AXON_HANDLE_KIND_BUILTIN) {
        int64_t size = (h >> 8) & 0xffu;
        *layout = (struct axon_dtype_layout){.size = size, .extent = size, .contig = true};
        return true;
    }
    if (AXON_HANDLE_KIND(h) == AXON_HANDLE_KIND_DIRECT && (h & 0x03ffffffu) < 5 && axon_pair_types[h & 7].loop) {
        *layout = axon_pair_types[h & 0x03ffffffu].layout;
        return true;
    }
    return false;
}
