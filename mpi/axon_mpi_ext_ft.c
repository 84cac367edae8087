/* MPICH's process fault tolerance extension (ULFM: MPIX_Comm_agree, _shrink, _failure_ack,
 * _failure_get_acked, _revoke), as far as it means something where no failure is survived: in Axon a
 * dead rank ends the job (the launcher names it), so every live communicator has all its processes.
 * Then agreement is an allreduce of the flags with MPI_BAND, shrinking makes a communicator of the same
 * processes, and there is never a failure to acknowledge. Revoking would have to reach every member
 * while some of them wait in calls on the communicator, which the engine has no way to interrupt: it is
 * MPI_ERR_UNSUPPORTED_OPERATION. A program written for ULFM runs here as long as nothing fails. */
#include "mpi/axon_mpi.h"

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
    (void)c;
    return MPI_SUCCESS; /* no failure to acknowledge */
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
    *failedgrp = MPI_GROUP_EMPTY;
    return MPI_SUCCESS;
}

AXON_MPIX_WEAK(Comm_revoke)
int PMPIX_Comm_revoke(MPI_Comm comm)
{
    static const char func[] = "MPIX_Comm_revoke";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    return axon_mpi_error(c, func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "revoking a communicator is not implemented in Axon (a dead rank ends the job)");
}
