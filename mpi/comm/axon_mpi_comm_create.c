/* Making and freeing intracommunicators, and the calls that describe one: MPI_Comm_dup (also of an
 * intercommunicator), _dup_with_info, _split (the split that _split_type makes too:
 * axon_mpi_comm_split_type.c), _create, _create_group, _free, _compare, _group, _set_name, _get_name,
 * _set_info and _get_info. Each creation agrees on a context id
 * over the parent (axon_mpi_comm_context.c), through the parent's internal context, then builds the
 * object (axon_mpi_comm_table.c). A new communicator inherits its parent's error handler and info hints;
 * MPI_Comm_dup also copies attributes through their copy callbacks. */
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

int axon_comm_make(const char *func, struct axon_comm *parent, uint32_t id, struct axon_group *group,
                          struct axon_group *remote_group, struct axon_comm **out)
{
    struct axon_comm_spec spec = {
        .context_index = id, .group = group, .remote_group = remote_group, .errhandler = parent->errhandler,
        .session = parent->session};
    int rc = axon_comm_new(&spec, out);
    if (rc != MPI_SUCCESS) {
        axon_comm_context_free(id);
        return axon_mpi_error(parent, func, rc, "cannot build the new communicator");
    }
    axon_comm_info_adopt(*out, axon_comm_info_copy(parent->info));
    return MPI_SUCCESS;
}

void axon_comm_info_adopt(struct axon_comm *c, MPI_Info copy)
{
    if (c->info != MPI_INFO_NULL)
        axon_mpi_info_release(c->info);
    c->info = copy;
    bool host_only = axon_mpi_memkinds_host_only(c->info);
    c->pt2pt.host_only = c->coll.host_only = c->tagged.host_only = c->part.host_only = host_only;
}

MPI_Info axon_comm_info_copy(MPI_Info info)
{
    MPI_Info copy = MPI_INFO_NULL;
    if (info != MPI_INFO_NULL && axon_mpi_info_dup_handle(info, &copy) != MPI_SUCCESS)
        copy = MPI_INFO_NULL;
    return copy;
}

static int axon_comm_context_error(const char *func, struct axon_comm *c, int rc)
{
    if (rc == MPI_ERR_INTERN)
        return axon_mpi_error(c, func, rc, "no context id is free on every member (%d exist per process)",
                              AXON_CTX_IDS);
    return axon_mpi_error(c, func, rc, "the agreement on a context id failed");
}

int axon_comm_dup_common(const char *func, struct axon_comm *c, MPI_Comm *newcomm)
{
    struct axon_comm_team t;
    struct axon_comm_bridge b;
    axon_comm_team_of(c, &t);
    if (c->is_inter)
        axon_comm_bridge_of(c, &b);
    uint32_t id;
    int rc = axon_comm_context_alloc(&t, c->is_inter ? &b : NULL, axon_ctx_priority(c->context_index, false, 0), &id);
    if (rc != MPI_SUCCESS)
        return axon_comm_context_error(func, c, rc);
    struct axon_comm *n;
    rc = axon_comm_make(func, c, id, c->group, c->remote_group, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = axon_comm_attr_copy(c, n);
    if (rc != MPI_SUCCESS) {
        /* What was copied is deleted again, through its callbacks (the new communicator never existed). */
        axon_comm_attr_delete_all(n);
        axon_comm_discard(n);
        return axon_mpi_error(c, func, rc, "an attribute copy callback returned %d", rc);
    }
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_dup";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    return axon_comm_dup_common(func, c, newcomm);
}

int axon_comm_dup_info(const char *func, struct axon_comm *c, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = axon_comm_dup_common(func, c, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_comm_info_adopt(axon_mpi_comm_get(*newcomm), axon_comm_info_copy(info));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_dup_with_info";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    return axon_comm_dup_info(func, c, info, newcomm);
}

/* ---- split ---------------------------------------------------------------------------------------- */

/* What each member tells the others: its color (an int of MPI_Comm_split's, or a wider one of
 * MPI_Comm_split_type's: node and resource together), key and rank. */
struct axon_comm_split_entry {
    int64_t color;
    int key, rank;
};

static int axon_comm_split_cmp(const void *a, const void *b)
{
    const struct axon_comm_split_entry *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->rank > y->rank) - (x->rank < y->rank);
}

int axon_comm_split_intra(const char *func, struct axon_comm *c, int64_t color, int key, MPI_Comm *newcomm)
{
    struct axon_comm_team t;
    axon_comm_team_of(c, &t);
    int n = c->size;
    struct axon_comm_split_entry *all = malloc(sizeof(*all) * (size_t)n);
    struct axon_comm_split_entry *members = malloc(sizeof(*members) * (size_t)n);
    int *world = malloc(sizeof(int) * (size_t)n);
    if (!all || !members || !world) {
        free(all);
        free(members);
        free(world);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    struct axon_comm_split_entry mine = {color, key, c->rank};
    int rc = axon_comm_coll_allgather(&t, &mine, all, sizeof(mine));
    uint32_t id = 0;
    if (rc == MPI_SUCCESS) {
        /* One id for every color: the new communicators are disjoint. */
        rc = axon_comm_context_alloc(&t, NULL, axon_ctx_priority(c->context_index, false, 0), &id);
        if (rc != MPI_SUCCESS)
            rc = axon_comm_context_error(func, c, rc);
    } else {
        rc = axon_mpi_error(c, func, rc, "the exchange of colors and keys failed");
    }
    if (rc == MPI_SUCCESS && color == MPI_UNDEFINED) {
        axon_comm_context_free(id);
        *newcomm = MPI_COMM_NULL;
    } else if (rc == MPI_SUCCESS) {
        int k = 0;
        for (int r = 0; r < n; r++)
            if (all[r].color == color)
                members[k++] = (struct axon_comm_split_entry){color, all[r].key, r};
        /* By key, ties by rank in the parent. */
        qsort(members, (size_t)k, sizeof(*members), axon_comm_split_cmp);
        for (int i = 0; i < k; i++)
            world[i] = c->group->world[members[i].rank];
        struct axon_group *g = axon_group_from_world(world, k);
        struct axon_comm *nc = NULL;
        if (!g) {
            axon_comm_context_free(id);
            rc = axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        } else {
            rc = axon_comm_make(func, c, id, g, NULL, &nc);
            axon_group_release(g);
        }
        if (rc == MPI_SUCCESS)
            *newcomm = nc->handle;
    }
    free(all);
    free(members);
    free(world);
    return rc;
}

AXON_MPI_WEAK(Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_split";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    if (color < 0 && color != MPI_UNDEFINED)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "color %d is negative and not MPI_UNDEFINED", color);
    if (c->is_inter)
        return axon_comm_split_inter(func, c, color, key, newcomm);
    return axon_comm_split_intra(func, c, color, key, newcomm);
}

/* ---- create, create_group ------------------------------------------------------------------------------ */

/* Whether every member of g is in c's (local) group. */
static bool axon_comm_group_within(const struct axon_comm *c, const struct axon_group *g)
{
    int *ranks = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    int *idx = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    bool within = ranks && idx;
    if (within) {
        for (int i = 0; i < g->size; i++)
            idx[i] = i;
        within = axon_group_ops_translate(g->world, g->size, g->size, idx, c->group->world, c->group->size, ranks,
                                          NULL) == MPI_SUCCESS;
        for (int i = 0; within && i < g->size; i++)
            within = ranks[i] != MPI_UNDEFINED;
    }
    free(ranks);
    free(idx);
    return within;
}

AXON_MPI_WEAK(Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_create";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    struct axon_group *g = axon_mpi_group_get(group);
    if (!g)
        return axon_mpi_error(c, func, MPI_ERR_GROUP, "invalid group %s", AXON_MPI_HANDLE_NAME(group));
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    if (!axon_comm_group_within(c, g))
        return axon_mpi_error(c, func, MPI_ERR_GROUP, "the group has members outside the communicator");
    if (c->is_inter)
        return axon_comm_create_inter(func, c, g, newcomm);

    /* Collective over all of comm (those outside the group too): one id for every group given, since
     * the groups that different members pass must be disjoint. */
    struct axon_comm_team t;
    axon_comm_team_of(c, &t);
    uint32_t id;
    int rc = axon_comm_context_alloc(&t, NULL, axon_ctx_priority(c->context_index, false, 0), &id);
    if (rc != MPI_SUCCESS)
        return axon_comm_context_error(func, c, rc);
    if (g->rank == MPI_UNDEFINED) {
        axon_comm_context_free(id);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    struct axon_comm *n;
    rc = axon_comm_make(func, c, id, g, NULL, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    return rc;
}

AXON_MPI_WEAK(Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_create_group";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "the communicator is an intercommunicator");
    struct axon_group *g = axon_mpi_group_get(group);
    if (!g)
        return axon_mpi_error(c, func, MPI_ERR_GROUP, "invalid group %s", AXON_MPI_HANDLE_NAME(group));
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    if (tag < 0)
        return axon_mpi_error(c, func, MPI_ERR_TAG, "tag %d is negative", tag);
    if (!axon_comm_group_within(c, g))
        return axon_mpi_error(c, func, MPI_ERR_GROUP, "the group has members outside the communicator");
    if (g->rank == MPI_UNDEFINED) {
        /* Only the group's members take part; anyone else gets nothing. */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }

    /* Collective over the group's members only: they talk on comm's tagged context, with the user's
     * tag, so creations over other groups of comm at the same time (other tags) stay apart. */
    int *to_pc = malloc(sizeof(int) * (size_t)g->size), *idx = malloc(sizeof(int) * (size_t)g->size);
    if (!to_pc || !idx) {
        free(to_pc);
        free(idx);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    for (int i = 0; i < g->size; i++)
        idx[i] = i;
    axon_group_ops_translate(g->world, g->size, g->size, idx, c->group->world, c->group->size, to_pc, NULL);
    struct axon_comm_team t = {.pc = &c->tagged, .rank = g->rank, .size = g->size, .to_pc = to_pc, .tag = tag};
    uint32_t id;
    int rc = axon_comm_context_alloc(&t, NULL, axon_ctx_priority(c->context_index, true, tag), &id);
    free(to_pc);
    free(idx);
    if (rc != MPI_SUCCESS)
        return axon_comm_context_error(func, c, rc);
    struct axon_comm *n;
    rc = axon_comm_make(func, c, id, g, NULL, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    return rc;
}

/* ---- free ------------------------------------------------------------------------------------------ */

AXON_MPI_WEAK(Comm_free)
int PMPI_Comm_free(MPI_Comm *comm)
{
    static const char func[] = "MPI_Comm_free";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!comm)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "comm is a NULL pointer");
    AXON_MPI_COMM_CHECK(func, *comm, c);
    if (axon_comm_is_predefined(c))
        return axon_mpi_error(c, func, MPI_ERR_COMM, "%s is predefined and cannot be freed", c->name);
    /* Delete callbacks first, while the communicator is still whole; a failing one keeps it alive. */
    int rc = axon_comm_attr_delete_all(c);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "an attribute delete callback returned %d", rc);
    axon_mpi_bsend_comm_free(c);
    axon_comm_release(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* ---- descriptions ---------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    static const char func[] = "MPI_Comm_compare";
    struct axon_comm *a, *b;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm1, a);
    AXON_MPI_COMM_CHECK(func, comm2, b);
    if (!result)
        return axon_mpi_error(a, func, MPI_ERR_ARG, "result is a NULL pointer");
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (a->is_inter != b->is_inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int local = axon_group_ops_compare(a->group->world, a->group->size, b->group->world, b->group->size);
    int remote = MPI_IDENT;
    if (a->is_inter)
        remote = axon_group_ops_compare(a->remote_group->world, a->remote_group->size, b->remote_group->world,
                                        b->remote_group->size);
    int worst = local > remote ? local : remote;
    /* Identical groups make different communicators congruent; MPI_SIMILAR and MPI_UNEQUAL stay. */
    *result = worst == MPI_IDENT ? MPI_CONGRUENT : worst;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    static const char func[] = "MPI_Comm_group";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!group)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "group is a NULL pointer");
    /* The group derives from the communicator's session, as the communicator does. */
    struct axon_group *g = axon_group_in_session(c->group, c->session);
    if (!g)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory for the group");
    int rc = axon_mpi_group_handle_new(g, group);
    if (rc != MPI_SUCCESS) {
        axon_group_release(g);
        return axon_mpi_error(c, func, rc, "cannot make a group handle");
    }
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    static const char func[] = "MPI_Comm_set_name";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!comm_name)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "comm_name is a NULL pointer");
    /* Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters (the standard allows it). */
    size_t n = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(c->name, comm_name, n);
    c->name[n] = '\0';
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    static const char func[] = "MPI_Comm_get_name";
    struct axon_comm *c = NULL;
    AXON_MPI_REQUIRE_ACTIVE(func);
    /* The null handle has a name too (MPI 4.1). */
    if (comm != MPI_COMM_NULL)
        AXON_MPI_COMM_CHECK(func, comm, c);
    if (!comm_name || !resultlen)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "comm_name or resultlen is a NULL pointer");
    const char *name = c ? c->name : "MPI_COMM_NULL";
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm_name, name, n);
    comm_name[n] = '\0';
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    static const char func[] = "MPI_Comm_set_info";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (info == MPI_INFO_NULL || !axon_mpi_info_valid(info))
        return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    MPI_Info copy;
    int rc = axon_mpi_info_dup_handle(info, &copy);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "cannot copy the info object");
    axon_comm_info_adopt(c, copy);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    static const char func[] = "MPI_Comm_get_info";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!info_used)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "info_used is a NULL pointer");
    /* A new object the caller frees: the hints set (none is ignored), and the memory allocation kinds the
     * communicator takes (MPI 4.1): its session's or the world model's, or of those the hint
     * "mpi_assert_memory_alloc_kinds" restricts it to, the supported ones. */
    int rc = axon_mpi_info_dup_handle(c->info, info_used);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "cannot copy the info object");
    char asserted[MPI_MAX_INFO_VAL], kinds[MPI_MAX_INFO_VAL] = "";
    int len = (int)sizeof(asserted), flag = 0;
    if (PMPI_Info_get_string(*info_used, AXON_MPI_MEMKINDS_ASSERT_KEY, &len, asserted, &flag) == MPI_SUCCESS && flag)
        rc = axon_mpi_memkinds_restrict(asserted, kinds, sizeof(kinds));
    else if (!c->session || !axon_mpi_session_memkinds(c->session, kinds, sizeof(kinds)))
        rc = axon_mpi_memkinds_world(kinds, sizeof(kinds));
    if (rc == MPI_SUCCESS && kinds[0])
        rc = PMPI_Info_set(*info_used, AXON_MPI_MEMKINDS_KEY, kinds);
    if (rc != MPI_SUCCESS) {
        PMPI_Info_free(info_used);
        return axon_mpi_error(c, func, rc, "cannot make the info object");
    }
    return MPI_SUCCESS;
}
