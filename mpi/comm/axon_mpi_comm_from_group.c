/* Communicators of the sessions model, made from groups with no parent communicator (MPI 4):
 * MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups.
 *
 * Without a parent, the members still need a channel on which to agree on a context id: a hidden
 * communicator over the world group (axon_mpi_comm_sessions), whose tagged context carries the
 * agreement keyed by a tag made from the string tag, as MPI_Comm_create_group's is keyed by its
 * integer tag. No user traffic uses that communicator, so only two creations the standard forbids to
 * run at once (the same string tag over overlapping groups) could meet; two different string tags that
 * hash alike over overlapping groups at the same time could too, which a 30-bit hash makes unlikely (MPICH
 * does the same). An intercommunicator is a communicator over each group, then MPI_Intercomm_create's
 * work with the hidden communicator as the peer, the leaders named by their world ranks. */
#include "mpi/axon_mpi.h"
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

/* FNV-1a of the string tag, seeded apart for the two calls, as a non-negative tag. */
static int axon_stringtag_hash(const char *stringtag, uint32_t seed)
{
    uint32_t h = 2166136261u ^ seed;
    for (const unsigned char *p = (const unsigned char *)stringtag; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int)(h & 0x3fffffffu);
}

#define AXON_FROM_GROUP_SEED 0u
#define AXON_FROM_GROUPS_SEED 0x9e3779b9u

/* The checks both calls share; an error class (raised by the caller) with why said. */
static int axon_from_group_check(struct axon_group *g, const char *stringtag, MPI_Info info, const char **why)
{
    if (!g) {
        *why = "invalid group";
        return MPI_ERR_GROUP;
    }
    if (!stringtag) {
        *why = "stringtag is a NULL pointer";
        return MPI_ERR_ARG;
    }
    if (strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN) {
        *why = "stringtag is longer than MPI_MAX_STRINGTAG_LEN - 1 characters";
        return MPI_ERR_ARG;
    }
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info)) {
        *why = "invalid info object";
        return MPI_ERR_INFO;
    }
    return MPI_SUCCESS;
}

/* The communicator over g (this process a member), its members agreeing over the hidden communicator
 * with tag; errhandler becomes its handler. An error class, with why said. */
static int axon_from_group_make(struct axon_group *g, int tag, MPI_Errhandler errhandler, MPI_Info info,
                                struct axon_comm **out, const char **why)
{
    struct axon_comm *sessions = axon_mpi_comm_sessions();
    /* The hidden communicator's ranks are world ranks: the group's members as they are. */
    struct axon_comm_team t = {.pc = &sessions->tagged, .rank = g->rank, .size = g->size, .to_pc = g->world, .tag = tag};
    uint32_t id;
    int rc = axon_comm_context_alloc(&t, NULL, axon_ctx_priority(sessions->context_index, true, tag), &id);
    if (rc != MPI_SUCCESS) {
        *why = rc == MPI_ERR_INTERN ? "no context id is free on every member" : "the agreement on a context id failed";
        return rc;
    }
    struct axon_comm_spec spec = {.context_index = id, .group = g, .errhandler = errhandler, .session = g->session};
    rc = axon_comm_new(&spec, out);
    if (rc != MPI_SUCCESS) {
        axon_comm_context_free(id);
        *why = "cannot build the new communicator";
        return rc;
    }
    axon_comm_info_adopt(*out, axon_comm_info_copy(info));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_create_from_group)
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    static const char func[] = "MPI_Comm_create_from_group";
    AXON_MPI_REQUIRE_ACTIVE(func);
    /* Errors go to the handler the call names (MPI_ERRHANDLER_NULL: MPI_ERRORS_ARE_FATAL, which the new
     * communicator gets then too). */
    MPI_Errhandler eh = errhandler == MPI_ERRHANDLER_NULL ? MPI_ERRORS_ARE_FATAL : errhandler;
    if (!axon_mpi_errhandler_get(eh))
        return axon_mpi_error(NULL, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                              AXON_MPI_HANDLE_NAME(errhandler));
    if (!newcomm)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    *newcomm = MPI_COMM_NULL; /* what an error below leaves */
    struct axon_group *g = axon_mpi_group_get(group);
    const char *why;
    struct axon_comm *n;
    int rc = axon_from_group_check(g, stringtag, info, &why);
    /* A process outside the group (MPI_GROUP_EMPTY, say) gets MPI_COMM_NULL, as from
     * MPI_Comm_create_group: it takes no part. */
    if (rc == MPI_SUCCESS && g->rank == MPI_UNDEFINED)
        return MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = axon_from_group_make(g, axon_stringtag_hash(stringtag, AXON_FROM_GROUP_SEED), eh, info, &n, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, rc, "%s", why);
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Intercomm_create_from_groups)
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    static const char func[] = "MPI_Intercomm_create_from_groups";
    AXON_MPI_REQUIRE_ACTIVE(func);
    MPI_Errhandler eh = errhandler == MPI_ERRHANDLER_NULL ? MPI_ERRORS_ARE_FATAL : errhandler;
    if (!axon_mpi_errhandler_get(eh))
        return axon_mpi_error(NULL, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                              AXON_MPI_HANDLE_NAME(errhandler));
    if (!newintercomm)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_ARG, "newintercomm is a NULL pointer");
    *newintercomm = MPI_COMM_NULL; /* what an error below leaves */
    struct axon_group *lg = axon_mpi_group_get(local_group), *rg = axon_mpi_group_get(remote_group);
    const char *why;
    int rc = axon_from_group_check(lg, stringtag, info, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, rc, "local_group: %s", why);
    if (lg->rank == MPI_UNDEFINED)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_GROUP,
                                   "the calling process is not a member of local_group");
    if (!rg)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_GROUP, "invalid remote_group %s",
                                   AXON_MPI_HANDLE_NAME(remote_group));
    if (local_leader < 0 || local_leader >= lg->size)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_RANK,
                                   "local_leader %d is not a rank of local_group (size %d)", local_leader, lg->size);
    if (remote_leader < 0 || remote_leader >= rg->size)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_RANK,
                                   "remote_leader %d is not a rank of remote_group (size %d)", remote_leader, rg->size);
    if (rg->rank != MPI_UNDEFINED)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, MPI_ERR_GROUP,
                                   "the calling process is a member of remote_group too");

    /* Each side's communicator over its own group (the two groups are disjoint, so the same tag keeps
     * them apart from each other), then the leaders meet on the hidden communicator, where ranks are
     * world ranks, with a tag of their own: a leader's message may come while the other side still
     * agrees on its local communicator. */
    int tag = axon_stringtag_hash(stringtag, AXON_FROM_GROUPS_SEED);
    int leaders_tag = axon_stringtag_hash(stringtag, AXON_FROM_GROUPS_SEED + 1);
    struct axon_comm *lc;
    rc = axon_from_group_make(lg, tag, eh, MPI_INFO_NULL, &lc, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error_with(eh, MPI_COMM_NULL, NULL, func, rc, "the local group's communicator: %s", why);
    bool leader = lg->rank == local_leader;
    rc = axon_comm_intercomm_create(func, lc, local_leader, leader ? axon_mpi_comm_sessions() : NULL,
                                    rg->world[remote_leader], leaders_tag, newintercomm);
    MPI_Comm local = lc->handle;
    PMPI_Comm_free(&local);
    if (rc != MPI_SUCCESS)
        return rc; /* raised on the local communicator, whose handler is eh */
    /* The hints given (the local communicator passed on none). */
    struct axon_comm *n = axon_mpi_comm_get(*newintercomm);
    if (n)
        axon_comm_info_adopt(n, axon_comm_info_copy(info));
    return MPI_SUCCESS;
}
