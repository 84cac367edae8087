/* Group objects and their handles, and the MPI_Group_* calls. A group is an immutable array of
 * MPI_COMM_WORLD ranks shared by reference: communicators hold one, and every group handle holds one
 * (MPI_Comm_group makes a new handle each call). Handles are MPICH's direct ones, 0x88000000 | index,
 * in a table under a mutex (group calls are not on a communication fast path); MPI_GROUP_EMPTY is the
 * predefined 0x48000000. Results that are empty come back as MPI_GROUP_EMPTY, as MPICH does, and
 * freeing MPI_GROUP_EMPTY is allowed for that reason. The set logic is in axon_mpi_group_ops.c. */
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

#define AXON_GROUP_DIRECT 0x88000000u
#define AXON_GROUP_INDEX_MAX 0x03ffffffu

struct axon_group axon_group_empty = {.refcount = 1, .size = 0, .rank = MPI_UNDEFINED};

static pthread_mutex_t axon_group_lock = PTHREAD_MUTEX_INITIALIZER;
static struct axon_group **axon_group_slots;
static uint32_t axon_group_nslots, axon_group_hint;

struct axon_group *axon_group_alloc(int size)
{
    struct axon_group *g = malloc(sizeof(*g) + sizeof(int) * (size_t)(size > 0 ? size : 1));
    if (!g)
        return NULL;
    atomic_init(&g->refcount, 1);
    g->size = size;
    g->rank = MPI_UNDEFINED;
    g->session = 0;
    return g;
}

void axon_group_seal(struct axon_group *g)
{
    g->rank = axon_group_ops_find(g->world, g->size, axon_runtime_job.rank);
}

struct axon_group *axon_group_from_world(const int *world, int size)
{
    if (size == 0) {
        axon_group_retain(&axon_group_empty);
        return &axon_group_empty;
    }
    struct axon_group *g = axon_group_alloc(size);
    if (!g)
        return NULL;
    memcpy(g->world, world, sizeof(int) * (size_t)size);
    axon_group_seal(g);
    return g;
}

struct axon_group *axon_group_in_session(struct axon_group *g, MPI_Session session)
{
    if (g->session == session || g == &axon_group_empty) {
        axon_group_retain(g);
        return g;
    }
    struct axon_group *copy = axon_group_from_world(g->world, g->size);
    if (copy)
        copy->session = session;
    return copy;
}

void axon_group_retain(struct axon_group *g)
{
    atomic_fetch_add_explicit(&g->refcount, 1, memory_order_relaxed);
}

void axon_group_release(struct axon_group *g)
{
    if (!g || g == &axon_group_empty)
        return;
    if (atomic_fetch_sub_explicit(&g->refcount, 1, memory_order_acq_rel) == 1)
        free(g);
}

struct axon_group *axon_mpi_group_get(MPI_Group handle)
{
    if (handle == MPI_GROUP_EMPTY)
        return &axon_group_empty;
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_GROUP_DIRECT)
        return NULL;
    uint32_t index = h & AXON_GROUP_INDEX_MAX;
    struct axon_group *g = NULL;
    pthread_mutex_lock(&axon_group_lock);
    if (index < axon_group_nslots)
        g = axon_group_slots[index];
    pthread_mutex_unlock(&axon_group_lock);
    return g;
}

int axon_mpi_group_handle_new(struct axon_group *g, MPI_Group *handle)
{
    if (g == &axon_group_empty) {
        /* The predefined handle: the reference the caller passed is not needed. */
        *handle = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    pthread_mutex_lock(&axon_group_lock);
    uint32_t index = axon_group_nslots;
    for (uint32_t i = 0; i < axon_group_nslots; i++) {
        uint32_t j = (axon_group_hint + i) % axon_group_nslots;
        if (!axon_group_slots[j]) {
            index = j;
            break;
        }
    }
    if (index == axon_group_nslots) {
        uint32_t grow = axon_group_nslots ? axon_group_nslots * 2 : 64;
        struct axon_group **slots = grow - 1 <= AXON_GROUP_INDEX_MAX
                                        ? realloc(axon_group_slots, sizeof(*slots) * grow)
                                        : NULL;
        if (!slots) {
            pthread_mutex_unlock(&axon_group_lock);
            return MPI_ERR_NO_MEM;
        }
        memset(slots + axon_group_nslots, 0, sizeof(*slots) * (grow - axon_group_nslots));
        axon_group_slots = slots;
        axon_group_nslots = grow;
    }
    axon_group_slots[index] = g;
    axon_group_hint = index + 1;
    pthread_mutex_unlock(&axon_group_lock);
    *handle = (MPI_Group)(AXON_GROUP_DIRECT | index);
    return MPI_SUCCESS;
}

/* Takes the handle's slot away and hands back the reference it held. */
static struct axon_group *axon_mpi_group_handle_take(MPI_Group handle)
{
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_GROUP_DIRECT)
        return NULL;
    uint32_t index = h & AXON_GROUP_INDEX_MAX;
    struct axon_group *g = NULL;
    pthread_mutex_lock(&axon_group_lock);
    if (index < axon_group_nslots) {
        g = axon_group_slots[index];
        axon_group_slots[index] = NULL;
    }
    pthread_mutex_unlock(&axon_group_lock);
    return g;
}

void axon_mpi_group_table_finalize(void)
{
    pthread_mutex_lock(&axon_group_lock);
    for (uint32_t i = 0; i < axon_group_nslots; i++)
        axon_group_release(axon_group_slots[i]);
    free(axon_group_slots);
    axon_group_slots = NULL;
    axon_group_nslots = axon_group_hint = 0;
    pthread_mutex_unlock(&axon_group_lock);
}

/* ---- the API -------------------------------------------------------------------------------------- */

#define AXON_MPI_GROUP_CHECK(func, handle, var)                                                      \
    do {                                                                                             \
        (var) = axon_mpi_group_get(handle);                                                          \
        if (!(var))                                                                                  \
            return axon_mpi_error(NULL, func, MPI_ERR_GROUP, "invalid group %s", AXON_MPI_HANDLE_NAME((handle))); \
    } while (0)

/* A handle for the members in world[0..n), derived from session (0: the world model): the way every
 * constructor ends. */
static int axon_mpi_group_result(const char *func, const int *world, int n, MPI_Session session, MPI_Group *newgroup)
{
    struct axon_group *g = axon_group_from_world(world, n);
    if (!g)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a group of %d", n);
    if (g != &axon_group_empty)
        g->session = session;
    int rc = axon_mpi_group_handle_new(g, newgroup);
    if (rc != MPI_SUCCESS) {
        axon_group_release(g);
        return axon_mpi_error(NULL, func, rc, "cannot make a group handle");
    }
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Group_size)
int PMPI_Group_size(MPI_Group group, int *size)
{
    static const char func[] = "MPI_Group_size";
    struct axon_group *g;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group, g);
    if (!size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size is a NULL pointer");
    *size = g->size;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Group_rank)
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    static const char func[] = "MPI_Group_rank";
    struct axon_group *g;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group, g);
    if (!rank)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "rank is a NULL pointer");
    *rank = g->rank;
    return MPI_SUCCESS;
}

static int axon_mpi_group_incl_excl(const char *func, MPI_Group group, int n, const int ranks[], bool exclude,
                                    MPI_Group *newgroup)
{
    struct axon_group *g;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group, g);
    if (!newgroup)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "newgroup is a NULL pointer");
    if (n < 0 || n > g->size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "n = %d is not in 0..%d (the group's size)", n, g->size);
    if (n > 0 && !ranks)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "ranks is a NULL pointer");
    int *out = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    if (!out)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory");
    int outn = n, bad = 0;
    int rc = exclude ? axon_group_ops_excl(g->world, g->size, n, ranks, out, &outn, &bad)
                     : axon_group_ops_incl(g->world, g->size, n, ranks, out, &bad);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_group_result(func, out, outn, g->session, newgroup);
    else if (rc == MPI_ERR_RANK)
        rc = axon_mpi_error(NULL, func, rc, "ranks[%d] = %d is not a rank of the group (size %d) or repeats one",
                            bad, ranks[bad], g->size);
    else
        rc = axon_mpi_error(NULL, func, rc, "cannot build the group");
    free(out);
    return rc;
}

AXON_MPI_WEAK(Group_incl)
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return axon_mpi_group_incl_excl("MPI_Group_incl", group, n, ranks, false, newgroup);
}

AXON_MPI_WEAK(Group_excl)
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    return axon_mpi_group_incl_excl("MPI_Group_excl", group, n, ranks, true, newgroup);
}

static int axon_mpi_group_ranges(const char *func, MPI_Group group, int n, int ranges[][3], bool exclude,
                                 MPI_Group *newgroup)
{
    struct axon_group *g;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group, g);
    if (!newgroup)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "newgroup is a NULL pointer");
    if (n < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "n = %d is negative", n);
    if (n > 0 && !ranges)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "ranges is a NULL pointer");
    int *out = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    if (!out)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory");
    int outn = 0, bad = 0;
    int rc = axon_group_ops_ranges(g->world, g->size, n, (const int(*)[3])ranges, exclude, out, &outn, &bad);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_group_result(func, out, outn, g->session, newgroup);
    else if (rc == MPI_ERR_RANK || rc == MPI_ERR_ARG)
        rc = axon_mpi_error(NULL, func, rc,
                            "ranges[%d] = (%d, %d, %d) leaves the group (size %d), repeats a rank or has a bad stride",
                            bad, ranges[bad][0], ranges[bad][1], ranges[bad][2], g->size);
    else
        rc = axon_mpi_error(NULL, func, rc, "cannot build the group");
    free(out);
    return rc;
}

AXON_MPI_WEAK(Group_range_incl)
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return axon_mpi_group_ranges("MPI_Group_range_incl", group, n, ranges, false, newgroup);
}

AXON_MPI_WEAK(Group_range_excl)
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return axon_mpi_group_ranges("MPI_Group_range_excl", group, n, ranges, true, newgroup);
}

enum axon_group_setop { AXON_GROUP_UNION, AXON_GROUP_INTERSECTION, AXON_GROUP_DIFFERENCE };

static int axon_mpi_group_setop(const char *func, MPI_Group group1, MPI_Group group2, enum axon_group_setop op,
                                MPI_Group *newgroup)
{
    struct axon_group *a, *b;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group1, a);
    AXON_MPI_GROUP_CHECK(func, group2, b);
    if (!newgroup)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "newgroup is a NULL pointer");
    int room = a->size + b->size;
    int *out = malloc(sizeof(int) * (size_t)(room > 0 ? room : 1));
    if (!out)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory");
    int outn = 0, rc;
    if (op == AXON_GROUP_UNION)
        rc = axon_group_ops_union(a->world, a->size, b->world, b->size, out, &outn);
    else if (op == AXON_GROUP_INTERSECTION)
        rc = axon_group_ops_intersection(a->world, a->size, b->world, b->size, out, &outn);
    else
        rc = axon_group_ops_difference(a->world, a->size, b->world, b->size, out, &outn);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_group_result(func, out, outn, a->session ? a->session : b->session, newgroup);
    else
        rc = axon_mpi_error(NULL, func, rc, "out of memory");
    free(out);
    return rc;
}

AXON_MPI_WEAK(Group_union)
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return axon_mpi_group_setop("MPI_Group_union", group1, group2, AXON_GROUP_UNION, newgroup);
}

AXON_MPI_WEAK(Group_intersection)
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return axon_mpi_group_setop("MPI_Group_intersection", group1, group2, AXON_GROUP_INTERSECTION, newgroup);
}

AXON_MPI_WEAK(Group_difference)
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return axon_mpi_group_setop("MPI_Group_difference", group1, group2, AXON_GROUP_DIFFERENCE, newgroup);
}

AXON_MPI_WEAK(Group_translate_ranks)
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
    static const char func[] = "MPI_Group_translate_ranks";
    struct axon_group *a, *b;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group1, a);
    AXON_MPI_GROUP_CHECK(func, group2, b);
    if (n < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "n = %d is negative", n);
    if (n > 0 && (!ranks1 || !ranks2))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "ranks1 or ranks2 is a NULL pointer");
    int bad = 0;
    int rc = axon_group_ops_translate(a->world, a->size, n, ranks1, b->world, b->size, ranks2, &bad);
    if (rc == MPI_ERR_RANK)
        return axon_mpi_error(NULL, func, rc, "ranks1[%d] = %d is not a rank of group1 (size %d)", bad, ranks1[bad],
                              a->size);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Group_compare)
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    static const char func[] = "MPI_Group_compare";
    struct axon_group *a, *b;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_GROUP_CHECK(func, group1, a);
    AXON_MPI_GROUP_CHECK(func, group2, b);
    if (!result)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "result is a NULL pointer");
    *result = axon_group_ops_compare(a->world, a->size, b->world, b->size);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Group_free)
int PMPI_Group_free(MPI_Group *group)
{
    static const char func[] = "MPI_Group_free";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!group)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "group is a NULL pointer");
    if (*group == MPI_GROUP_EMPTY) {
        *group = MPI_GROUP_NULL;
        return MPI_SUCCESS;
    }
    struct axon_group *g = axon_mpi_group_handle_take(*group);
    if (!g)
        return axon_mpi_error(NULL, func, MPI_ERR_GROUP, "invalid group %s", AXON_MPI_HANDLE_NAME(*group));
    axon_group_release(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
