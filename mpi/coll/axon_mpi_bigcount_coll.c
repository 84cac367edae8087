/* The large-count (_c) collectives of MPI 4: blocking, nonblocking (MPI_I..._c) and persistent
 * (..._init_c). Each takes its counts and displacements at full width: it makes the same plan as its int
 * twin (mpi/coll/axon_mpi_coll.c), whose plan functions take int64_t counts and read the v and w forms'
 * arrays as they come (struct axon_mpi_array: the _c calls' MPI_Count and MPI_Aint entries, the int
 * calls' ints), so nothing is narrowed or copied here and the argument checks are the int calls'.
 *
 * The three forms of a family share one function, which makes the plan and runs it as the form says
 * (axon_mpi_coll_form_check and _run below: the form's own checks first, as in the int calls). Each
 * exported call is then one line: its form, its name and its arguments. */
#include "mpi/coll/axon_mpi_coll.h"

/* ---- the three forms ------------------------------------------------------------------------------- */

int axon_mpi_coll_form_check(const struct axon_mpi_coll_form *f, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(f->func);
    switch (f->kind) {
    case AXON_MPI_COLL_BLOCKING:
        break;
    case AXON_MPI_COLL_NONBLOCKING:
        AXON_MPI_ICOLL_CHECK_REQUEST(f->func, comm, f->request);
        break;
    case AXON_MPI_COLL_PERSISTENT:
        return axon_mpi_coll_persist_check(f->func, comm, f->info, f->request);
    }
    return MPI_SUCCESS;
}

int axon_mpi_coll_form_run(const struct axon_mpi_coll_form *f, int rc, struct axon_coll_plan *p)
{
    if (rc != MPI_SUCCESS)
        return rc;
    if (f->kind == AXON_MPI_COLL_PERSISTENT)
        return axon_mpi_coll_persist_init(f->func, p, f->request);
    return axon_mpi_coll_plan_run(f->func, p, f->kind == AXON_MPI_COLL_NONBLOCKING ? f->request : NULL);
}

/* The body of a family: the form's checks, the plan (plan_call, writing plan_), then the run. */
#define AXON_MPI_COLL_C_RUN(f, comm, plan_call)                                                          \
    do {                                                                                             \
        struct axon_coll_plan plan_;                                                             \
        int rc_ = axon_mpi_coll_form_check(&(f), comm);                                              \
        if (rc_ == MPI_SUCCESS)                                                                      \
            rc_ = (plan_call);                                                                       \
        return axon_mpi_coll_form_run(&(f), rc_, &plan_);                                            \
    } while (0)

/* The v forms tell the plan so by a non-NULL displacement array; where the call reads it (at the root of
 * a rooted call, everywhere otherwise) NULL is MPI_ERR_ARG, as in the int calls. */
static const MPI_Aint axon_coll_c_no_displs[1];

static int axon_mpi_coll_c_check_displs(const struct axon_mpi_coll_form *f, MPI_Comm comm, bool rooted, int root,
                                    const MPI_Aint *displs)
{
    int rc = axon_mpi_coll_form_check(f, comm);
    if (rc != MPI_SUCCESS || displs)
        return rc;
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (rooted && !(c && axon_mpi_coll_is_root(c, root)))
        return MPI_SUCCESS;
    return axon_mpi_error(c, f->func, MPI_ERR_ARG, "displs is a NULL pointer");
}

/* ---- the families ---------------------------------------------------------------------------------- */

static int bcast_c(struct axon_mpi_coll_form f, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                   MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm, axon_mpi_bcast_plan(f.func, buffer, count, datatype, root, comm, &plan_));
}

static int gather_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_gather_plan(f.func, sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                                         AXON_MPI_NO_ARRAY, recvtype, root, comm, &plan_));
}

static int gatherv_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     int root, MPI_Comm comm)
{
    struct axon_coll_plan plan;
    int rc = axon_mpi_coll_c_check_displs(&f, comm, true, root, displs);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_gather_plan(f.func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_WIDE(recvcounts),
                                  AXON_MPI_WIDE(displs ? displs : axon_coll_c_no_displs), recvtype, root, comm,
                                  &plan);
    return axon_mpi_coll_form_run(&f, rc, &plan);
}

static int scatter_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_scatter_plan(f.func, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, sendtype,
                                          recvbuf, recvcount, recvtype, root, comm, &plan_));
}

static int scatterv_c(struct axon_mpi_coll_form f, const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct axon_coll_plan plan;
    int rc = axon_mpi_coll_c_check_displs(&f, comm, true, root, displs);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_scatter_plan(f.func, sendbuf, 0, AXON_MPI_WIDE(sendcounts),
                                   AXON_MPI_WIDE(displs ? displs : axon_coll_c_no_displs), sendtype, recvbuf,
                                   recvcount, recvtype, root, comm, &plan);
    return axon_mpi_coll_form_run(&f, rc, &plan);
}

static int allgather_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_allgather_plan(f.func, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, recvtype, comm, &plan_));
}

static int allgatherv_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_coll_plan plan;
    int rc = axon_mpi_coll_c_check_displs(&f, comm, false, 0, displs);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_allgather_plan(f.func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_WIDE(recvcounts),
                                     AXON_MPI_WIDE(displs), recvtype, comm, &plan);
    return axon_mpi_coll_form_run(&f, rc, &plan);
}

static int alltoall_c(struct axon_mpi_coll_form f, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_alltoall_plan(f.func, 0, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY,
                                           &sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY,
                                           &recvtype, comm, &plan_));
}

static int alltoallv_c(struct axon_mpi_coll_form f, const void *sendbuf, const MPI_Count sendcounts[],
                       const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                       const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_alltoall_plan(f.func, 1, sendbuf, 0, AXON_MPI_WIDE(sendcounts), AXON_MPI_WIDE(sdispls),
                                           &sendtype, recvbuf, 0, AXON_MPI_WIDE(recvcounts), AXON_MPI_WIDE(rdispls),
                                           &recvtype, comm, &plan_));
}

static int alltoallw_c(struct axon_mpi_coll_form f, const void *sendbuf, const MPI_Count sendcounts[],
                       const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                       MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_alltoall_plan(f.func, 2, sendbuf, 0, AXON_MPI_WIDE(sendcounts), AXON_MPI_WIDE(sdispls),
                                           sendtypes, recvbuf, 0, AXON_MPI_WIDE(recvcounts), AXON_MPI_WIDE(rdispls),
                                           recvtypes, comm, &plan_));
}

static int reduce_c(struct axon_mpi_coll_form f, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_reduction_plan(f.func, AXON_COLL_RED_REDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                                            datatype, op, root, comm, &plan_));
}

/* MPI_Allreduce, MPI_Scan, MPI_Exscan and MPI_Reduce_scatter_block: one count, no root. */
static int allreduce_c(enum axon_coll_red_kind kind, struct axon_mpi_coll_form f, const void *sendbuf, void *recvbuf,
                       MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_reduction_plan(f.func, kind, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op,
                                            0, comm, &plan_));
}

static int reduce_scatter_c(struct axon_mpi_coll_form f, const void *sendbuf, void *recvbuf,
                            const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    AXON_MPI_COLL_C_RUN(f, comm,
                    axon_mpi_reduction_plan(f.func, AXON_COLL_RED_SCATTER, sendbuf, recvbuf, 0,
                                            AXON_MPI_WIDE(recvcounts), datatype, op, 0, comm, &plan_));
}

/* ---- the exported calls ---------------------------------------------------------------------------- */

AXON_MPI_WEAK(Bcast_c)
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_c(axon_mpi_coll_blocking("MPI_Bcast_c"), buffer, count, datatype, root, comm);
}

AXON_MPI_WEAK(Ibcast_c)
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return bcast_c(axon_mpi_coll_nonblocking("MPI_Ibcast_c", request), buffer, count, datatype, root, comm);
}

AXON_MPI_WEAK(Bcast_init_c)
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    return bcast_c(axon_mpi_coll_persistent("MPI_Bcast_init_c", info, request), buffer, count, datatype, root, comm);
}

AXON_MPI_WEAK(Gather_c)
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_c(axon_mpi_coll_blocking("MPI_Gather_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    root, comm);
}

AXON_MPI_WEAK(Igather_c)
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather_c(axon_mpi_coll_nonblocking("MPI_Igather_c", request), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Gather_init_c)
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return gather_c(axon_mpi_coll_persistent("MPI_Gather_init_c", info, request), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Gatherv_c)
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    return gatherv_c(axon_mpi_coll_blocking("MPI_Gatherv_c"), sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                     recvtype, root, comm);
}

AXON_MPI_WEAK(Igatherv_c)
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    return gatherv_c(axon_mpi_coll_nonblocking("MPI_Igatherv_c", request), sendbuf, sendcount, sendtype, recvbuf,
                     recvcounts, displs, recvtype, root, comm);
}

AXON_MPI_WEAK(Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gatherv_c(axon_mpi_coll_persistent("MPI_Gatherv_init_c", info, request), sendbuf, sendcount, sendtype,
                     recvbuf, recvcounts, displs, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatter_c)
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_c(axon_mpi_coll_blocking("MPI_Scatter_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, root, comm);
}

AXON_MPI_WEAK(Iscatter_c)
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return scatter_c(axon_mpi_coll_nonblocking("MPI_Iscatter_c", request), sendbuf, sendcount, sendtype, recvbuf,
                     recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatter_init_c)
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return scatter_c(axon_mpi_coll_persistent("MPI_Scatter_init_c", info, request), sendbuf, sendcount, sendtype,
                     recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatterv_c)
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatterv_c(axon_mpi_coll_blocking("MPI_Scatterv_c"), sendbuf, sendcounts, displs, sendtype, recvbuf,
                      recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Iscatterv_c)
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    return scatterv_c(axon_mpi_coll_nonblocking("MPI_Iscatterv_c", request), sendbuf, sendcounts, displs, sendtype,
                      recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scatterv_c(axon_mpi_coll_persistent("MPI_Scatterv_init_c", info, request), sendbuf, sendcounts, displs,
                      sendtype, recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Allgather_c)
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_c(axon_mpi_coll_blocking("MPI_Allgather_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, comm);
}

AXON_MPI_WEAK(Iallgather_c)
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return allgather_c(axon_mpi_coll_nonblocking("MPI_Iallgather_c", request), sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Allgather_init_c)
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return allgather_c(axon_mpi_coll_persistent("MPI_Allgather_init_c", info, request), sendbuf, sendcount, sendtype,
                       recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Allgatherv_c)
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgatherv_c(axon_mpi_coll_blocking("MPI_Allgatherv_c"), sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                        displs, recvtype, comm);
}

AXON_MPI_WEAK(Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    return allgatherv_c(axon_mpi_coll_nonblocking("MPI_Iallgatherv_c", request), sendbuf, sendcount, sendtype, recvbuf,
                        recvcounts, displs, recvtype, comm);
}

AXON_MPI_WEAK(Allgatherv_init_c)
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request)
{
    return allgatherv_c(axon_mpi_coll_persistent("MPI_Allgatherv_init_c", info, request), sendbuf, sendcount, sendtype,
                        recvbuf, recvcounts, displs, recvtype, comm);
}

AXON_MPI_WEAK(Alltoall_c)
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_c(axon_mpi_coll_blocking("MPI_Alltoall_c"), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                      recvtype, comm);
}

AXON_MPI_WEAK(Ialltoall_c)
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoall_c(axon_mpi_coll_nonblocking("MPI_Ialltoall_c", request), sendbuf, sendcount, sendtype, recvbuf,
                      recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Alltoall_init_c)
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoall_c(axon_mpi_coll_persistent("MPI_Alltoall_init_c", info, request), sendbuf, sendcount, sendtype,
                      recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Alltoallv_c)
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    return alltoallv_c(axon_mpi_coll_blocking("MPI_Alltoallv_c"), sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                       recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return alltoallv_c(axon_mpi_coll_nonblocking("MPI_Ialltoallv_c", request), sendbuf, sendcounts, sdispls, sendtype,
                       recvbuf, recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Alltoallv_init_c)
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return alltoallv_c(axon_mpi_coll_persistent("MPI_Alltoallv_init_c", info, request), sendbuf, sendcounts, sdispls,
                       sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Alltoallw_c)
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_c(axon_mpi_coll_blocking("MPI_Alltoallw_c"), sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                       recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return alltoallw_c(axon_mpi_coll_nonblocking("MPI_Ialltoallw_c", request), sendbuf, sendcounts, sdispls, sendtypes,
                       recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Alltoallw_init_c)
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return alltoallw_c(axon_mpi_coll_persistent("MPI_Alltoallw_init_c", info, request), sendbuf, sendcounts, sdispls,
                       sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Reduce_c)
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm)
{
    return reduce_c(axon_mpi_coll_blocking("MPI_Reduce_c"), sendbuf, recvbuf, count, datatype, op, root, comm);
}

AXON_MPI_WEAK(Ireduce_c)
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    return reduce_c(axon_mpi_coll_nonblocking("MPI_Ireduce_c", request), sendbuf, recvbuf, count, datatype, op, root,
                    comm);
}

AXON_MPI_WEAK(Reduce_init_c)
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_c(axon_mpi_coll_persistent("MPI_Reduce_init_c", info, request), sendbuf, recvbuf, count, datatype, op,
                    root, comm);
}

AXON_MPI_WEAK(Allreduce_c)
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    return allreduce_c(AXON_COLL_RED_ALLREDUCE, axon_mpi_coll_blocking("MPI_Allreduce_c"), sendbuf, recvbuf, count,
                       datatype, op, comm);
}

AXON_MPI_WEAK(Iallreduce_c)
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_ALLREDUCE, axon_mpi_coll_nonblocking("MPI_Iallreduce_c", request), sendbuf, recvbuf,
                       count, datatype, op, comm);
}

AXON_MPI_WEAK(Allreduce_init_c)
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_ALLREDUCE, axon_mpi_coll_persistent("MPI_Allreduce_init_c", info, request), sendbuf,
                       recvbuf, count, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_block_c)
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    return allreduce_c(AXON_COLL_RED_SCATTER_BLOCK, axon_mpi_coll_blocking("MPI_Reduce_scatter_block_c"), sendbuf,
                       recvbuf, recvcount, datatype, op, comm);
}

AXON_MPI_WEAK(Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_SCATTER_BLOCK, axon_mpi_coll_nonblocking("MPI_Ireduce_scatter_block_c", request),
                       sendbuf, recvbuf, recvcount, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_SCATTER_BLOCK,
                       axon_mpi_coll_persistent("MPI_Reduce_scatter_block_init_c", info, request), sendbuf, recvbuf,
                       recvcount, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_c)
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_c(axon_mpi_coll_blocking("MPI_Reduce_scatter_c"), sendbuf, recvbuf, recvcounts, datatype, op,
                            comm);
}

AXON_MPI_WEAK(Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_c(axon_mpi_coll_nonblocking("MPI_Ireduce_scatter_c", request), sendbuf, recvbuf, recvcounts,
                            datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_c(axon_mpi_coll_persistent("MPI_Reduce_scatter_init_c", info, request), sendbuf, recvbuf,
                            recvcounts, datatype, op, comm);
}

AXON_MPI_WEAK(Scan_c)
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_c(AXON_COLL_RED_SCAN, axon_mpi_coll_blocking("MPI_Scan_c"), sendbuf, recvbuf, count, datatype, op,
                       comm);
}

AXON_MPI_WEAK(Iscan_c)
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_SCAN, axon_mpi_coll_nonblocking("MPI_Iscan_c", request), sendbuf, recvbuf, count,
                       datatype, op, comm);
}

AXON_MPI_WEAK(Scan_init_c)
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_SCAN, axon_mpi_coll_persistent("MPI_Scan_init_c", info, request), sendbuf, recvbuf,
                       count, datatype, op, comm);
}

AXON_MPI_WEAK(Exscan_c)
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_c(AXON_COLL_RED_EXSCAN, axon_mpi_coll_blocking("MPI_Exscan_c"), sendbuf, recvbuf, count, datatype,
                       op, comm);
}

AXON_MPI_WEAK(Iexscan_c)
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_EXSCAN, axon_mpi_coll_nonblocking("MPI_Iexscan_c", request), sendbuf, recvbuf,
                       count, datatype, op, comm);
}

AXON_MPI_WEAK(Exscan_init_c)
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(AXON_COLL_RED_EXSCAN, axon_mpi_coll_persistent("MPI_Exscan_init_c", info, request), sendbuf,
                       recvbuf, count, datatype, op, comm);
}
