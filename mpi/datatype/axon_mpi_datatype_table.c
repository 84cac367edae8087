/* The table of derived datatypes: their handles (MPICH's direct form 0x8c000000 | index, from index 8
 * up, as 0-4 are the MAXLOC/MINLOC pairs), creation and destruction with reference counts, lookup,
 * names (the user's, and the overrides of predefined types' names), and MPI_Type_commit and
 * MPI_Type_free.
 *
 * Objects come from a pool with dense indices (runtime/axon_runtime_pool.h): a lookup is two loads with
 * no lock, and a freed index is the next one handed out, so a program that makes and frees types in a
 * loop keeps small handles. The pool's own mutex makes creation and destruction safe from many threads;
 * names, which a user may set while another thread reads them, have a lock of their own. */
#include "mpi/datatype/axon_mpi_datatype.h"
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/axon_runtime_pool.h"

#include <stdlib.h>
#include <string.h>

static struct axon_pool axon_datatype_pool;
static bool axon_datatype_pool_ready;

/* Names given to predefined types with MPI_Type_set_name, by builtin low byte (0-255) or pair (256+). */
#define AXON_PREDEFINED_SLOTS (256 + AXON_DATATYPE_NPAIRS)
static char *axon_predefined_names[AXON_PREDEFINED_SLOTS];
/* And their attributes. */
static struct axon_attr *axon_predefined_attrs[AXON_PREDEFINED_SLOTS];
static pthread_mutex_t axon_datatype_name_lock = PTHREAD_MUTEX_INITIALIZER;

int axon_mpi_datatype_table_init(void)
{
    int rc = axon_runtime_pool_init(&axon_datatype_pool, "datatypes", sizeof(struct axon_datatype));
    axon_datatype_pool_ready = rc == MPI_SUCCESS;
    return rc;
}

static void axon_datatype_destroy(struct axon_datatype *t);

void axon_mpi_datatype_table_finalize(void)
{
    if (!axon_datatype_pool_ready)
        return;
    /* Types the program never freed: their memory goes back (types they name are in the pool too). */
    for (uint32_t i = 0; i < axon_datatype_pool.nchunks << AXON_POOL_CHUNK_SHIFT; i++) {
        struct axon_datatype *t = axon_runtime_pool_get(&axon_datatype_pool, i);
        if (!t)
            continue;
        axon_dloop_release(t->desc.loop);
        axon_attr_drop(&t->attrs);
        free(t->ints);
        free(t->addrs);
        free(t->large);
        free(t->types);
    }
    axon_runtime_pool_fini(&axon_datatype_pool);
    axon_datatype_pool_ready = false;
    for (int i = 0; i < AXON_PREDEFINED_SLOTS; i++) {
        free(axon_predefined_names[i]);
        axon_predefined_names[i] = NULL;
        axon_attr_drop(&axon_predefined_attrs[i]);
    }
}

struct axon_datatype *axon_mpi_datatype_lookup(MPI_Datatype handle)
{
    unsigned h = (unsigned)handle;
    if ((h & AXON_DATATYPE_HANDLE_MASK) != AXON_DATATYPE_DIRECT)
        return NULL;
    unsigned index = h & AXON_DATATYPE_INDEX_MASK;
    if (index < AXON_DATATYPE_FIRST_DERIVED || !axon_datatype_pool_ready)
        return NULL;
    return axon_runtime_pool_get(&axon_datatype_pool, index - AXON_DATATYPE_FIRST_DERIVED);
}

bool axon_mpi_datatype_describe(MPI_Datatype handle, struct axon_dtype_desc *desc)
{
    if (axon_mpi_datatype_is_predefined(handle))
        return axon_mpi_datatype_predefined_desc(handle, desc);
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    if (!t)
        return false;
    *desc = t->desc;
    return true;
}

/* ---- creation and references ---------------------------------------------------------------------- */

/* The one predefined type that the old types are made of (markers aside), for reductions; how many of
 * it make one element. */
static void axon_datatype_basic(int ntypes, const MPI_Datatype *types, struct axon_dtype_layout *layout)
{
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    for (int i = 0; i < ntypes; i++) {
        if (types[i] == MPI_LB || types[i] == MPI_UB)
            continue;
        const struct axon_datatype *child = axon_mpi_datatype_lookup(types[i]);
        MPI_Datatype b = axon_mpi_datatype_is_predefined(types[i]) ? types[i] : child ? child->layout.basic
                                                                                      : MPI_DATATYPE_NULL;
        if (b == MPI_DATATYPE_NULL || (basic != MPI_DATATYPE_NULL && b != basic)) {
            basic = MPI_DATATYPE_NULL;
            break;
        }
        basic = b;
    }
    struct axon_dtype_desc d;
    layout->basic = MPI_DATATYPE_NULL;
    layout->basic_count = 0;
    if (basic != MPI_DATATYPE_NULL && axon_mpi_datatype_predefined_desc(basic, &d) && d.size > 0) {
        layout->basic = basic;
        layout->basic_count = layout->size / d.size;
    }
}

static void *axon_datatype_copy(const void *src, size_t n, size_t elem)
{
    if (n == 0)
        return NULL;
    void *dst = malloc(n * elem);
    if (dst)
        memcpy(dst, src, n * elem);
    return dst;
}

int axon_mpi_datatype_create(const struct axon_dtype_desc *desc, const struct axon_dtype_contents *contents,
                             MPI_Datatype *newtype)
{
    int ntypes = contents->ntypes;
    const MPI_Datatype *types = contents->types;
    void *obj;
    uint32_t index;
    int rc = axon_runtime_pool_alloc(&axon_datatype_pool, &obj, &index);
    if (rc != MPI_SUCCESS) {
        axon_dloop_release(desc->loop);
        return rc;
    }
    if (index > AXON_DATATYPE_INDEX_MASK - AXON_DATATYPE_FIRST_DERIVED) {
        /* The 26 bits of a direct handle are full. */
        axon_runtime_pool_free(&axon_datatype_pool, index);
        axon_dloop_release(desc->loop);
        return MPI_ERR_NO_MEM;
    }
    struct axon_datatype *t = obj;
    t->index = index;
    t->handle = (MPI_Datatype)(AXON_DATATYPE_DIRECT | (index + AXON_DATATYPE_FIRST_DERIVED));
    atomic_init(&t->refs, 1);
    atomic_init(&t->committed, false);
    t->desc = *desc;
    t->layout = (struct axon_dtype_layout){
        .size = desc->size,
        .extent = desc->ub - desc->lb,
        .true_lb = desc->true_lb,
        .true_extent = desc->true_ub - desc->true_lb,
        .contig = desc->contig,
        /* The engine walks the layout only when the data is not in one piece; leaving it out of
         * contiguous types also spares their requests a reference count. */
        .loop = desc->contig ? NULL : desc->loop,
    };
    axon_datatype_basic(ntypes, types, &t->layout);
    t->attrs = NULL;
    t->combiner = contents->combiner;
    t->nints = contents->nints;
    t->naddrs = contents->naddrs;
    t->nlarge = contents->nlarge;
    t->ntypes = ntypes;
    t->ints = axon_datatype_copy(contents->ints, (size_t)t->nints, sizeof(int));
    t->addrs = axon_datatype_copy(contents->addrs, (size_t)t->naddrs, sizeof(MPI_Aint));
    t->large = axon_datatype_copy(contents->large, (size_t)t->nlarge, sizeof(MPI_Count));
    t->types = axon_datatype_copy(types, (size_t)ntypes, sizeof(MPI_Datatype));
    if ((t->nints && !t->ints) || (t->naddrs && !t->addrs) || (t->nlarge && !t->large) || (ntypes && !t->types)) {
        free(t->ints);
        free(t->addrs);
        free(t->large);
        free(t->types);
        axon_runtime_pool_free(&axon_datatype_pool, index);
        axon_dloop_release(desc->loop);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < ntypes; i++)
        axon_mpi_datatype_retain(types[i]);
    *newtype = t->handle;
    return MPI_SUCCESS;
}

static void axon_datatype_destroy(struct axon_datatype *t)
{
    /* The last reference went elsewhere than MPI_Type_free (a type built on this one was freed): the
     * delete callbacks run now, with nobody left to hear of a failure. */
    if (axon_attr_any(&t->attrs)) {
        axon_mpi_type_attr_delete_all(t->handle);
        axon_attr_drop(&t->attrs);
    }
    /* Pending communications keep the layout alive through their own reference. */
    axon_dloop_release(t->desc.loop);
    for (int i = 0; i < t->ntypes; i++)
        axon_mpi_datatype_release(t->types[i]);
    free(t->ints);
    free(t->addrs);
    free(t->large);
    free(t->types);
    axon_runtime_pool_free(&axon_datatype_pool, t->index);
}

void axon_mpi_datatype_retain(MPI_Datatype handle)
{
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    if (t)
        atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
}

void axon_mpi_datatype_release(MPI_Datatype handle)
{
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    if (t && atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) == 1)
        axon_datatype_destroy(t);
}

/* ---- names and attributes ------------------------------------------------------------------------- */

static int axon_predefined_slot(MPI_Datatype handle)
{
    if (axon_mpi_datatype_is_pair(handle))
        return 256 + (int)((unsigned)handle & AXON_DATATYPE_INDEX_MASK);
    return (int)((unsigned)handle & 0xffu);
}

struct axon_attr **axon_mpi_datatype_attrs(MPI_Datatype handle)
{
    if (axon_mpi_datatype_is_predefined(handle)) {
        struct axon_dtype_desc d;
        return axon_mpi_datatype_predefined_desc(handle, &d) ? &axon_predefined_attrs[axon_predefined_slot(handle)]
                                                             : NULL;
    }
    struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
    return t ? &t->attrs : NULL;
}

void axon_mpi_datatype_name_get(MPI_Datatype handle, char name[MPI_MAX_OBJECT_NAME])
{
    const char *src = "";
    pthread_mutex_lock(&axon_datatype_name_lock);
    if (axon_mpi_datatype_is_predefined(handle)) {
        const char *custom = axon_predefined_names[axon_predefined_slot(handle)];
        const char *standard = axon_mpi_datatype_predefined_name(handle);
        src = custom ? custom : standard ? standard : "";
    } else {
        struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
        if (t)
            src = t->name;
    }
    size_t n = strnlen(src, MPI_MAX_OBJECT_NAME - 1);
    memcpy(name, src, n);
    name[n] = '\0';
    pthread_mutex_unlock(&axon_datatype_name_lock);
}

int axon_mpi_datatype_name_set(MPI_Datatype handle, const char *name)
{
    /* Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters (the standard allows it). */
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_datatype_name_lock);
    if (axon_mpi_datatype_is_predefined(handle)) {
        char **slot = &axon_predefined_names[axon_predefined_slot(handle)];
        if (!*slot)
            *slot = malloc(MPI_MAX_OBJECT_NAME);
        if (*slot) {
            memcpy(*slot, name, n);
            (*slot)[n] = '\0';
        } else {
            rc = MPI_ERR_NO_MEM;
        }
    } else {
        struct axon_datatype *t = axon_mpi_datatype_lookup(handle);
        if (t) {
            memcpy(t->name, name, n);
            t->name[n] = '\0';
        } else {
            rc = MPI_ERR_TYPE; /* freed by another thread meanwhile */
        }
    }
    pthread_mutex_unlock(&axon_datatype_name_lock);
    return rc;
}

/* ---- MPI_Type_commit, MPI_Type_free ---------------------------------------------------------------- */

AXON_MPI_WEAK(Type_commit)
int PMPI_Type_commit(MPI_Datatype *datatype)
{
    static const char func[] = "MPI_Type_commit";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!datatype)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "datatype is a NULL pointer");
    struct axon_dtype_desc desc;
    if (!axon_mpi_datatype_describe(*datatype, &desc) || *datatype == MPI_LB || *datatype == MPI_UB)
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(*datatype));
    /* Predefined types are committed already; a derived type's layout was built with it, so committing
     * only makes it usable for communication. */
    struct axon_datatype *t = axon_mpi_datatype_lookup(*datatype);
    if (t)
        atomic_store_explicit(&t->committed, true, memory_order_release);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_free)
int PMPI_Type_free(MPI_Datatype *datatype)
{
    static const char func[] = "MPI_Type_free";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!datatype)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "datatype is a NULL pointer");
    if (axon_mpi_datatype_is_predefined(*datatype))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "predefined datatype %s cannot be freed",
                              AXON_MPI_HANDLE_NAME(*datatype));
    struct axon_datatype *t = axon_mpi_datatype_lookup(*datatype);
    if (!t)
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(*datatype));
    /* The standard calls the types of MPI_Type_create_f90_* predefined; a later call hands the same one
     * out again. */
    if (axon_mpi_datatype_f90_base(*datatype) != MPI_DATATYPE_NULL)
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE,
                              "datatype %s comes from MPI_Type_create_f90_*: such types are predefined and "
                              "cannot be freed",
                              AXON_MPI_HANDLE_NAME(*datatype));
    /* The last reference: the delete callbacks run here, so a failing one fails the call and leaves the
     * type as it was. A type still named by others keeps its attributes until they let it go. */
    if (atomic_load_explicit(&t->refs, memory_order_acquire) == 1 && axon_attr_any(&t->attrs)) {
        int rc = axon_mpi_type_attr_delete_all(*datatype);
        if (rc != MPI_SUCCESS)
            return axon_mpi_error(NULL, func, rc, "an attribute delete callback returned %d", rc);
    }
    axon_mpi_datatype_release(*datatype);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
