/* MPICH's process fault tolerance extension (ULFM: MPIX_Comm_agree, _shrink, _failure_ack,
 * _failure_get_acked, _revoke), as far as Axon survives failures. A lost rank ends the job unless the
 * program sees MPI_COMM_WORLD's errors; then the operations that involve it return MPI_ERR_PROC_ABORTED
 * (runtime/axon_runtime_lost.c) and the ranks that live run on. Acknowledging records the members of the
 * communicator lost so far, and the group of those is what get_acked returns. Agreement is an allreduce
 * of the flags with MPI_BAND and shrinking makes a communicator of the same processes, while every member
 * lives; with a member lost both would need a consensus of the survivors on who is lost, which Axon does
 * not have: they are MPI_ERR_UNSUPPORTED_OPERATION then. Revoking would have to reach every member while
 * some of them wait in calls on the communicator, which the engine has no way to interrupt: it is
 * MPI_ERR_UNSUPPORTED_OPERATION too. */
#include "mpi/axon_mpi.h"

#include <stdlib.h>

AXON_MPIX_WEAK(Comm_agree)
int PMPIX_Comm_agree(MPI_Comm comm, int *flag)
{
    static const char func[] = "MPIX_Comm_agree";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!flag)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "flag is a NULL pointer");
    if (c->is_inter)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "agreement on an intercommunicator is not implemented in Axon");
    if (axon_pt2pt_lost_refuses(&c->coll, MPI_ANY_SOURCE))
        return axon_mpi_error(c, func, MPI_ERR_UNSUPPORTED_OPERATION,
                              "agreement among the survivors of a lost member is not implemented in Axon");
    return PMPI_Allreduce(MPI_IN_PLACE, flag, 1, MPI_INT, MPI_BAND, comm);
}

AXON_MPIX_WEAK(Comm_shrink)
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm)
{
    static const char func[] = "MPIX_Comm_shrink";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!newcomm)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "newcomm is a NULL pointer");
    if (axon_pt2pt_lost_refuses(&c->coll, MPI_ANY_SOURCE))
        return axon_mpi_error(c, func, MPI_ERR_UNSUPPORTED_OPERATION,
                              "shrinking a communicator with a lost member is not implemented in Axon");
    /* Every process is alive: the same group, in the same order, without the attributes (as a
     * communicator made from a group has none). */
    return PMPI_Comm_split(comm, 0, c->rank, newcomm);
}

AXON_MPIX_WEAK(Comm_failure_ack)
int PMPIX_Comm_failure_ack(MPI_Comm comm)
{
    static const char func[] = "MPIX_Comm_failure_ack";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    const struct axon_pt2pt_comm *members = &c->pt2pt;
    int *lost = malloc(sizeof(int) * (size_t)(members->size > 0 ? members->size : 1));
    if (!lost)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    int n = 0;
    for (int r = 0; r < members->size; r++)
        if (axon_pt2pt_lost_peer(members, r))
            lost[n++] = r;
    free(c->ft_acked);
    c->ft_acked = lost;
    c->ft_nacked = n;
    return MPI_SUCCESS;
}

AXON_MPIX_WEAK(Comm_failure_get_acked)
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp)
{
    static const char func[] = "MPIX_Comm_failure_get_acked";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!failedgrp)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "failedgrp is a NULL pointer");
    if (c->ft_nacked == 0) {
        *failedgrp = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    /* The acknowledged members, from the group they belong to (an intercommunicator's remote one). */
    MPI_Group all;
    int rc = c->is_inter ? PMPI_Comm_remote_group(comm, &all) : PMPI_Comm_group(comm, &all);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Group_incl(all, c->ft_nacked, c->ft_acked, failedgrp);
        PMPI_Group_free(&all);
    }
    return rc;
}

AXON_MPIX_WEAK(Comm_revoke)
int PMPIX_Comm_revoke(MPI_Comm comm)
{
    static const char func[] = "MPIX_Comm_revoke";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    return axon_mpi_error(c, func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "revoking a communicator is not implemented in Axon");
}
