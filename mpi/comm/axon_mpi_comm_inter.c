/* Intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge, MPI_Comm_test_inter,
 * MPI_Comm_remote_size and MPI_Comm_remote_group, and MPI_Comm_split and MPI_Comm_create of an
 * intercommunicator (their entry points are in axon_mpi_comm_create.c).
 *
 * An intercommunicator's engine views map ranks to the remote group, while a message's envelope carries
 * the sender's rank in its own (local) group, which is the rank the receiver knows it by: the engine
 * needs no change. Both groups use the same context id, found free on every member of both groups: each
 * group ANDs its members' bitmaps, the leaders combine the two results and each broadcasts the outcome
 * in its group (axon_comm_coll_allreduce_bridged). A hidden intracommunicator over the local group
 * carries each side's part of the collectives. */
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

/* Priority of MPI_Intercomm_create: made from both local communicators' ids (exchanged first, so both
 * sides compute the same) and the tag, above every other operation's. */
static uint64_t axon_inter_create_priority(uint32_t id_a, uint32_t id_b, int tag)
{
    uint64_t lo = id_a < id_b ? id_a : id_b, hi = id_a < id_b ? id_b : id_a;
    return 1ull << 63 | lo << 46 | hi << 32 | (uint32_t)tag;
}

/* Leaders swap world-rank lists of known lengths; then each leader broadcasts what it got in its group. */
static int axon_inter_swap_and_share(const struct axon_comm_team *t, const struct axon_comm_bridge *b, const int *send,
                                     int nsend, int *recv, int nrecv)
{
    int rc = MPI_SUCCESS;
    if (t->rank == b->leader)
        rc = axon_comm_coll_leader_swap(b, send, sizeof(int) * (size_t)nsend, recv, sizeof(int) * (size_t)nrecv);
    int brc = axon_comm_coll_bcast(t, recv, sizeof(int) * (size_t)nrecv, b->leader);
    return rc != MPI_SUCCESS ? rc : brc;
}

AXON_MPI_WEAK(Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm *newintercomm)
{
    static const char func[] = "MPI_Intercomm_create";
    struct axon_comm *lc, *pc = NULL;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, local_comm, lc);
    if (lc->is_inter)
        return axon_mpi_error(lc, func, MPI_ERR_COMM, "local_comm is an intercommunicator");
    if (!newintercomm)
        return axon_mpi_error(lc, func, MPI_ERR_ARG, "newintercomm is a NULL pointer");
    *newintercomm = MPI_COMM_NULL; /* what an error below leaves */
    if (local_leader < 0 || local_leader >= lc->size)
        return axon_mpi_error(lc, func, MPI_ERR_RANK, "local_leader %d is not a rank of local_comm (size %d)",
                              local_leader, lc->size);
    if (tag < 0)
        return axon_mpi_error(lc, func, MPI_ERR_TAG, "tag %d is negative", tag);
    bool leader = lc->rank == local_leader;
    if (leader) {
        /* peer_comm and remote_leader mean something at the leaders only. */
        pc = axon_mpi_comm_get(peer_comm);
        if (!pc)
            return axon_mpi_error(lc, func, MPI_ERR_COMM, "invalid peer_comm %s", AXON_MPI_HANDLE_NAME(peer_comm));
        if (remote_leader < 0 || remote_leader >= pc->pt2pt.size || (!pc->is_inter && remote_leader == pc->rank))
            return axon_mpi_error(lc, func, MPI_ERR_RANK,
                                  "remote_leader %d is not another rank of peer_comm (size %d, this leader %d)",
                                  remote_leader, pc->pt2pt.size, pc->rank);
    }

    return axon_comm_intercomm_create(func, lc, local_leader, pc, remote_leader, tag, newintercomm);
}

int axon_comm_intercomm_create(const char *func, struct axon_comm *lc, int local_leader, struct axon_comm *pc,
                               int remote_leader, int tag, MPI_Comm *newintercomm)
{
    struct axon_comm_team t;
    axon_comm_team_of(lc, &t);
    struct axon_comm_bridge b = {
        .leader = local_leader, .pc = pc ? &pc->tagged : NULL, .remote_leader = remote_leader, .tag = tag};

    /* The sizes and local communicators' ids, then the members, go across and round each group. */
    int hdr[2] = {lc->size, (int)lc->context_index}, rhdr[2] = {0, 0};
    int rc = axon_inter_swap_and_share(&t, &b, hdr, 2, rhdr, 2);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(lc, func, rc, "the leaders' exchange failed");
    int rsize = rhdr[0];
    int *rworld = malloc(sizeof(int) * (size_t)(rsize > 0 ? rsize : 1));
    if (!rworld)
        return axon_mpi_error(lc, func, MPI_ERR_NO_MEM, "out of memory");
    rc = axon_inter_swap_and_share(&t, &b, lc->group->world, lc->size, rworld, rsize);
    if (rc != MPI_SUCCESS) {
        free(rworld);
        return axon_mpi_error(lc, func, rc, "the leaders' exchange failed");
    }

    /* Every member sees both groups, so every member finds an overlap the same way: no hang. */
    int *common = malloc(sizeof(int) * (size_t)(rsize > 0 ? rsize : 1));
    int ncommon = 0;
    if (!common || axon_group_ops_intersection(rworld, rsize, lc->group->world, lc->size, common, &ncommon) !=
                       MPI_SUCCESS) {
        free(common);
        free(rworld);
        return axon_mpi_error(lc, func, MPI_ERR_NO_MEM, "out of memory");
    }
    free(common);
    if (ncommon > 0) {
        free(rworld);
        return axon_mpi_error(lc, func, MPI_ERR_COMM, "the two groups share %d process(es)", ncommon);
    }

    uint32_t id;
    rc = axon_comm_context_alloc(&t, &b, axon_inter_create_priority(lc->context_index, (uint32_t)rhdr[1], tag), &id);
    if (rc != MPI_SUCCESS) {
        free(rworld);
        return axon_mpi_error(lc, func, rc, "no context id is free on every member of both groups");
    }
    struct axon_group *rgroup = axon_group_from_world(rworld, rsize);
    free(rworld);
    if (!rgroup) {
        axon_comm_context_free(id);
        return axon_mpi_error(lc, func, MPI_ERR_NO_MEM, "out of memory");
    }
    struct axon_comm_spec spec = {
        .context_index = id, .group = lc->group, .remote_group = rgroup, .errhandler = lc->errhandler,
        .session = lc->session};
    struct axon_comm *n;
    rc = axon_comm_new(&spec, &n);
    axon_group_release(rgroup);
    if (rc != MPI_SUCCESS) {
        axon_comm_context_free(id);
        return axon_mpi_error(lc, func, rc, "cannot build the intercommunicator");
    }
    *newintercomm = n->handle;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    static const char func[] = "MPI_Intercomm_merge";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, intercomm, c);
    if (!c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "the communicator is not an intercommunicator");
    if (!newintracomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newintracomm is a NULL pointer");
    *newintracomm = MPI_COMM_NULL; /* what an error below leaves */
    struct axon_comm_team t;
    struct axon_comm_bridge b;
    axon_comm_team_of(c, &t);
    axon_comm_bridge_of(c, &b);

    /* The group's flag is its leader's (the standard wants the same in a group); the other side's comes
     * across. Low group first; equal flags: the group whose first member has the lower world rank. */
    int mine[2] = {high ? 1 : 0, 0}, theirs = 0;
    int rc = MPI_SUCCESS;
    if (t.rank == b.leader)
        rc = axon_comm_coll_leader_swap(&b, &mine[0], sizeof(int), &theirs, sizeof(int));
    mine[1] = theirs;
    int brc = axon_comm_coll_bcast(&t, mine, sizeof(mine), b.leader);
    if (rc == MPI_SUCCESS)
        rc = brc;
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the exchange of the high flags failed");
    bool local_first = mine[0] != mine[1] ? mine[0] == 0 : c->group->world[0] < c->remote_group->world[0];

    int n = c->size + c->remote_size;
    int *world = malloc(sizeof(int) * (size_t)n);
    if (!world)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    const struct axon_group *first = local_first ? c->group : c->remote_group;
    const struct axon_group *second = local_first ? c->remote_group : c->group;
    memcpy(world, first->world, sizeof(int) * (size_t)first->size);
    memcpy(world + first->size, second->world, sizeof(int) * (size_t)second->size);

    uint32_t id;
    rc = axon_comm_context_alloc(&t, &b, axon_ctx_priority(c->context_index, false, 0), &id);
    if (rc != MPI_SUCCESS) {
        free(world);
        return axon_mpi_error(c, func, rc, "no context id is free on every member of both groups");
    }
    struct axon_group *g = axon_group_from_world(world, n);
    free(world);
    if (!g) {
        axon_comm_context_free(id);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    struct axon_comm_spec spec = {
        .context_index = id, .group = g, .remote_group = NULL, .errhandler = c->errhandler, .session = c->session};
    struct axon_comm *nc;
    rc = axon_comm_new(&spec, &nc);
    axon_group_release(g);
    if (rc != MPI_SUCCESS) {
        axon_comm_context_free(id);
        return axon_mpi_error(c, func, rc, "cannot build the merged communicator");
    }
    *newintracomm = nc->handle;
    return MPI_SUCCESS;
}

/* The members of both sides whose entries (color, key) pairs carry color, sorted by key then rank. */
static int axon_inter_pick(const int *pairs, const struct axon_group *g, int color, int *world)
{
    int k = 0;
    /* Insertion by (key, rank): groups are small enough, and this keeps the code obvious. */
    int *order = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    if (!order)
        return -1;
    for (int r = 0; r < g->size; r++) {
        if (color == MPI_UNDEFINED || pairs[2 * r] != color)
            continue;
        int i = k++;
        while (i > 0 && pairs[2 * order[i - 1] + 1] > pairs[2 * r + 1]) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = r;
    }
    for (int i = 0; i < k; i++)
        world[i] = g->world[order[i]];
    free(order);
    return k;
}

/* Builds an intercommunicator over the parts of c's groups given, or hands the id back and gives
 * MPI_COMM_NULL when either part is empty (this process outside its part included). */
static int axon_inter_make_sub(const char *func, struct axon_comm *c, uint32_t id, const int *lworld, int nl,
                               const int *rworld, int nr, MPI_Comm *newcomm)
{
    struct axon_group *lg = nl > 0 ? axon_group_from_world(lworld, nl) : NULL;
    if (nl > 0 && !lg) {
        axon_comm_context_free(id);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    if (nl == 0 || nr == 0 || lg->rank == MPI_UNDEFINED) {
        axon_group_release(lg);
        axon_comm_context_free(id);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    struct axon_group *rg = axon_group_from_world(rworld, nr);
    if (!rg) {
        axon_group_release(lg);
        axon_comm_context_free(id);
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    }
    struct axon_comm_spec spec = {
        .context_index = id, .group = lg, .remote_group = rg, .errhandler = c->errhandler, .session = c->session};
    struct axon_comm *n;
    int rc = axon_comm_new(&spec, &n);
    axon_group_release(lg);
    axon_group_release(rg);
    if (rc != MPI_SUCCESS) {
        axon_comm_context_free(id);
        return axon_mpi_error(c, func, rc, "cannot build the intercommunicator");
    }
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int axon_comm_split_inter(const char *func, struct axon_comm *c, int color, int key, MPI_Comm *newcomm)
{
    struct axon_comm_team t;
    struct axon_comm_bridge b;
    axon_comm_team_of(c, &t);
    axon_comm_bridge_of(c, &b);
    int nl = c->size, nr = c->remote_size;
    int *lpairs = malloc(sizeof(int) * 2 * (size_t)nl), *rpairs = malloc(sizeof(int) * 2 * (size_t)nr);
    int *lworld = malloc(sizeof(int) * (size_t)nl), *rworld = malloc(sizeof(int) * (size_t)nr);
    int rc = lpairs && rpairs && lworld && rworld ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    /* Every member learns every (color, key) of both groups, then agrees on one id for all colors. */
    int mine[2] = {color, key};
    if (rc == MPI_SUCCESS)
        rc = axon_comm_coll_allgather(&t, mine, lpairs, sizeof(mine));
    if (rc == MPI_SUCCESS)
        rc = axon_inter_swap_and_share(&t, &b, lpairs, 2 * nl, rpairs, 2 * nr);
    uint32_t id = 0;
    if (rc == MPI_SUCCESS)
        rc = axon_comm_context_alloc(&t, &b, axon_ctx_priority(c->context_index, false, 0), &id);
    if (rc == MPI_SUCCESS) {
        int kl = axon_inter_pick(lpairs, c->group, color, lworld);
        int kr = axon_inter_pick(rpairs, c->remote_group, color, rworld);
        if (kl < 0 || kr < 0) {
            axon_comm_context_free(id);
            rc = axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        } else {
            rc = axon_inter_make_sub(func, c, id, lworld, kl, rworld, kr, newcomm);
        }
    } else {
        rc = axon_mpi_error(c, func, rc, "the split's exchange or context agreement failed");
    }
    free(lpairs);
    free(rpairs);
    free(lworld);
    free(rworld);
    return rc;
}

int axon_comm_create_inter(const char *func, struct axon_comm *c, struct axon_group *g, MPI_Comm *newcomm)
{
    struct axon_comm_team t;
    struct axon_comm_bridge b;
    axon_comm_team_of(c, &t);
    axon_comm_bridge_of(c, &b);
    /* Each side's members pass the same subgroup of their group; the leaders swap theirs. */
    int hdr = g->size, rsize = 0;
    int rc = axon_inter_swap_and_share(&t, &b, &hdr, 1, &rsize, 1);
    int *rworld = rc == MPI_SUCCESS ? malloc(sizeof(int) * (size_t)(rsize > 0 ? rsize : 1)) : NULL;
    if (rc == MPI_SUCCESS && !rworld)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = axon_inter_swap_and_share(&t, &b, g->world, g->size, rworld, rsize);
    uint32_t id = 0;
    if (rc == MPI_SUCCESS)
        rc = axon_comm_context_alloc(&t, &b, axon_ctx_priority(c->context_index, false, 0), &id);
    if (rc == MPI_SUCCESS)
        rc = axon_inter_make_sub(func, c, id, g->world, g->size, rworld, rsize, newcomm);
    else
        rc = axon_mpi_error(c, func, rc, "the exchange of the groups or the context agreement failed");
    free(rworld);
    return rc;
}

AXON_MPI_WEAK(Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    static const char func[] = "MPI_Comm_test_inter";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!flag)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "flag is a NULL pointer");
    *flag = c->is_inter;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    static const char func[] = "MPI_Comm_remote_size";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "the communicator is not an intercommunicator");
    if (!size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "size is a NULL pointer");
    *size = c->remote_size;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    static const char func[] = "MPI_Comm_remote_group";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "the communicator is not an intercommunicator");
    if (!group)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "group is a NULL pointer");
    axon_group_retain(c->remote_group);
    int rc = axon_mpi_group_handle_new(c->remote_group, group);
    if (rc != MPI_SUCCESS) {
        axon_group_release(c->remote_group);
        return axon_mpi_error(c, func, rc, "cannot make a group handle");
    }
    return MPI_SUCCESS;
}
