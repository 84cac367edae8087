/* The large-count (_c) collectives of MPI 4: blocking, nonblocking (MPI_I..._c) and persistent
 * (..._init_c). Each is its int twin when every count and displacement fits in an int, MPI_ERR_COUNT when
 * one does not (mpi/axon_mpi_bigcount.h); the arrays of the v and w forms are converted for the entries
 * the call reads (the group, or the root's), and freed on return, since the int calls build their
 * schedules and plans from them before returning.
 *
 * The three forms of a family share one narrowing function, which ends in the twin of the form it is
 * told (AXON_BIGCOUNT_TWIN); families whose int calls take the same arguments share it too (MPI_Allreduce,
 * MPI_Scan, ...). Each exported call is then one line: its form, its name and its arguments. */
#include "mpi/axon_mpi_bigcount.h"

/* ---- the narrowing functions, one per shape of arguments ------------------------------------------- */

typedef AXON_BIGCOUNT_TWINS(void *, int, MPI_Datatype, int, MPI_Comm) bcast_twins;
static const bcast_twins bcast = {PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init};

static int bcast_c(struct axon_bigcount_call call, void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                   MPI_Comm comm)
{
    int n;
    int rc = axon_bigcount_scalar(call.func, comm, "count", count, &n);
    return rc == MPI_SUCCESS ? AXON_BIGCOUNT_TWIN(&bcast, call, buffer, n, datatype, root, comm) : rc;
}

/* MPI_Gather and MPI_Scatter: a count on each side, and a root. */
typedef AXON_BIGCOUNT_TWINS(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm) gather_twins;
static const gather_twins gather = {PMPI_Gather, PMPI_Igather, PMPI_Gather_init};
static const gather_twins scatter = {PMPI_Scatter, PMPI_Iscatter, PMPI_Scatter_init};

static int gather_c(const gather_twins *twins, struct axon_bigcount_call call, const void *sendbuf,
                    MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sn, rn;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_NONE, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sn);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &rn);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(twins, call, sendbuf, sn, sendtype, recvbuf, rn, recvtype, root, comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Allgather and MPI_Alltoall, and their neighborhood forms: a count on each side. */
static const axon_bigcount_allgather_twins allgather = {PMPI_Allgather, PMPI_Iallgather, PMPI_Allgather_init};
static const axon_bigcount_allgather_twins alltoall = {PMPI_Alltoall, PMPI_Ialltoall, PMPI_Alltoall_init};

int axon_bigcount_allgather(const axon_bigcount_allgather_twins *twins, struct axon_bigcount_call call,
                            const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sn, rn;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sn);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &rn);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(twins, call, sendbuf, sn, sendtype, recvbuf, rn, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Gatherv: a send count, and receive counts and displacements read at the root only. */
typedef AXON_BIGCOUNT_TWINS(const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, int,
                            MPI_Comm) gatherv_twins;
static const gatherv_twins gatherv = {PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init};

static int gatherv_c(struct axon_bigcount_call call, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sn;
    const int *rcounts = NULL, *rdispls = NULL;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_ROOT_RECV, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sn);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "recvcounts", recvcounts, "displs", displs, bc.nrecv, &rcounts, &rdispls);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(&gatherv, call, sendbuf, sn, sendtype, recvbuf, rcounts, rdispls, recvtype, root,
                                comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Allgatherv and its neighborhood form: a send count, and receive counts and displacements. */
static const axon_bigcount_allgatherv_twins allgatherv = {PMPI_Allgatherv, PMPI_Iallgatherv,
                                                          PMPI_Allgatherv_init};

int axon_bigcount_allgatherv(const axon_bigcount_allgatherv_twins *twins, struct axon_bigcount_call call,
                             enum axon_bigcount_mode mode, const void *sendbuf, MPI_Count sendcount,
                             MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int sn;
    const int *rcounts = NULL, *rdispls = NULL;
    int rc = axon_bigcount_begin(&bc, call.func, comm, mode, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "sendcount", sendcount, &sn);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "recvcounts", recvcounts, "displs", displs, bc.nrecv, &rcounts, &rdispls);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(twins, call, sendbuf, sn, sendtype, recvbuf, rcounts, rdispls, recvtype, comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Scatterv: send counts and displacements read at the root only, and a receive count. */
typedef AXON_BIGCOUNT_TWINS(const void *, const int *, const int *, MPI_Datatype, void *, int, MPI_Datatype, int,
                            MPI_Comm) scatterv_twins;
static const scatterv_twins scatterv = {PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init};

static int scatterv_c(struct axon_bigcount_call call, const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *scounts = NULL, *sdispls = NULL;
    int rn;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_ROOT_SEND, root);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "sendcounts", sendcounts, "displs", displs, bc.nsend, &scounts, &sdispls);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "recvcount", recvcount, &rn);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(&scatterv, call, sendbuf, scounts, sdispls, sendtype, recvbuf, rn, recvtype, root,
                                comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Alltoallv and its neighborhood form: counts and displacements on both sides. */
static const axon_bigcount_alltoallv_twins alltoallv = {PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init};

int axon_bigcount_alltoallv(const axon_bigcount_alltoallv_twins *twins, struct axon_bigcount_call call,
                            enum axon_bigcount_mode mode, const void *sendbuf, const MPI_Count sendcounts[],
                            const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                            const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *scounts = NULL, *sdisp = NULL, *rcounts = NULL, *rdisp = NULL;
    int rc = axon_bigcount_begin(&bc, call.func, comm, mode, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "sendcounts", sendcounts, "sdispls", sdispls, bc.nsend, &scounts, &sdisp);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "recvcounts", recvcounts, "rdispls", rdispls, bc.nrecv, &rcounts, &rdisp);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(twins, call, sendbuf, scounts, sdisp, sendtype, recvbuf, rcounts, rdisp, recvtype,
                                comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Alltoallw: as MPI_Alltoallv, with a datatype per peer. */
typedef AXON_BIGCOUNT_TWINS(const void *, const int *, const int *, const MPI_Datatype *, void *, const int *,
                            const int *, const MPI_Datatype *, MPI_Comm) alltoallw_twins;
static const alltoallw_twins alltoallw = {PMPI_Alltoallw, PMPI_Ialltoallw, PMPI_Alltoallw_init};

static int alltoallw_c(struct axon_bigcount_call call, const void *sendbuf, const MPI_Count sendcounts[],
                       const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                       MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *scounts = NULL, *sdisp = NULL, *rcounts = NULL, *rdisp = NULL;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_GROUP, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "sendcounts", sendcounts, "sdispls", sdispls, bc.nsend, &scounts, &sdisp);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_v(&bc, "recvcounts", recvcounts, "rdispls", rdispls, bc.nrecv, &rcounts, &rdisp);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(&alltoallw, call, sendbuf, scounts, sdisp, sendtypes, recvbuf, rcounts, rdisp,
                                recvtypes, comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* MPI_Reduce: one count, and a root. */
typedef AXON_BIGCOUNT_TWINS(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm) reduce_twins;
static const reduce_twins reduce = {PMPI_Reduce, PMPI_Ireduce, PMPI_Reduce_init};

static int reduce_c(struct axon_bigcount_call call, const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    int n;
    int rc = axon_bigcount_scalar(call.func, comm, "count", count, &n);
    return rc == MPI_SUCCESS ? AXON_BIGCOUNT_TWIN(&reduce, call, sendbuf, recvbuf, n, datatype, op, root, comm) : rc;
}

/* MPI_Allreduce, MPI_Scan, MPI_Exscan and MPI_Reduce_scatter_block: one count, named count_name. */
typedef AXON_BIGCOUNT_TWINS(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm) allreduce_twins;
static const allreduce_twins allreduce = {PMPI_Allreduce, PMPI_Iallreduce, PMPI_Allreduce_init};
static const allreduce_twins scan = {PMPI_Scan, PMPI_Iscan, PMPI_Scan_init};
static const allreduce_twins exscan = {PMPI_Exscan, PMPI_Iexscan, PMPI_Exscan_init};
static const allreduce_twins reduce_scatter_block = {PMPI_Reduce_scatter_block, PMPI_Ireduce_scatter_block,
                                                     PMPI_Reduce_scatter_block_init};

static int allreduce_c(const allreduce_twins *twins, struct axon_bigcount_call call, const char *count_name,
                       const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm)
{
    int n;
    int rc = axon_bigcount_scalar(call.func, comm, count_name, count, &n);
    return rc == MPI_SUCCESS ? AXON_BIGCOUNT_TWIN(twins, call, sendbuf, recvbuf, n, datatype, op, comm) : rc;
}

/* MPI_Reduce_scatter: receive counts for the local group. */
typedef AXON_BIGCOUNT_TWINS(const void *, void *, const int *, MPI_Datatype, MPI_Op, MPI_Comm) reduce_scatter_twins;
static const reduce_scatter_twins reduce_scatter = {PMPI_Reduce_scatter, PMPI_Ireduce_scatter,
                                                    PMPI_Reduce_scatter_init};

static int reduce_scatter_c(struct axon_bigcount_call call, const void *sendbuf, void *recvbuf,
                            const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    struct axon_bigcount bc;
    const int *rcounts = NULL;
    int rc = axon_bigcount_begin(&bc, call.func, comm, AXON_BIGCOUNT_LOCAL, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "recvcounts", recvcounts, bc.nrecv, &rcounts);
    if (rc == MPI_SUCCESS)
        rc = AXON_BIGCOUNT_TWIN(&reduce_scatter, call, sendbuf, recvbuf, rcounts, datatype, op, comm);
    axon_bigcount_end(&bc);
    return rc;
}

/* ---- the exported calls ---------------------------------------------------------------------------- */

AXON_MPI_WEAK(Bcast_c)
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_c(axon_bigcount_blocking("MPI_Bcast_c"), buffer, count, datatype, root, comm);
}

AXON_MPI_WEAK(Ibcast_c)
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request)
{
    return bcast_c(axon_bigcount_nonblocking("MPI_Ibcast_c", request), buffer, count, datatype, root, comm);
}

AXON_MPI_WEAK(Bcast_init_c)
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    return bcast_c(axon_bigcount_persistent("MPI_Bcast_init_c", info, request), buffer, count, datatype, root, comm);
}

AXON_MPI_WEAK(Gather_c)
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_c(&gather, axon_bigcount_blocking("MPI_Gather_c"), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Igather_c)
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather_c(&gather, axon_bigcount_nonblocking("MPI_Igather_c", request), sendbuf, sendcount, sendtype,
                    recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Gather_init_c)
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return gather_c(&gather, axon_bigcount_persistent("MPI_Gather_init_c", info, request), sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Gatherv_c)
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm)
{
    return gatherv_c(axon_bigcount_blocking("MPI_Gatherv_c"), sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                     displs, recvtype, root, comm);
}

AXON_MPI_WEAK(Igatherv_c)
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request)
{
    return gatherv_c(axon_bigcount_nonblocking("MPI_Igatherv_c", request), sendbuf, sendcount, sendtype, recvbuf,
                     recvcounts, displs, recvtype, root, comm);
}

AXON_MPI_WEAK(Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return gatherv_c(axon_bigcount_persistent("MPI_Gatherv_init_c", info, request), sendbuf, sendcount, sendtype,
                     recvbuf, recvcounts, displs, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatter_c)
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_c(&scatter, axon_bigcount_blocking("MPI_Scatter_c"), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Iscatter_c)
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    return gather_c(&scatter, axon_bigcount_nonblocking("MPI_Iscatter_c", request), sendbuf, sendcount, sendtype,
                    recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatter_init_c)
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return gather_c(&scatter, axon_bigcount_persistent("MPI_Scatter_init_c", info, request), sendbuf, sendcount,
                    sendtype, recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatterv_c)
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatterv_c(axon_bigcount_blocking("MPI_Scatterv_c"), sendbuf, sendcounts, displs, sendtype, recvbuf,
                      recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Iscatterv_c)
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_Request *request)
{
    return scatterv_c(axon_bigcount_nonblocking("MPI_Iscatterv_c", request), sendbuf, sendcounts, displs, sendtype,
                      recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return scatterv_c(axon_bigcount_persistent("MPI_Scatterv_init_c", info, request), sendbuf, sendcounts, displs,
                      sendtype, recvbuf, recvcount, recvtype, root, comm);
}

AXON_MPI_WEAK(Allgather_c)
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_bigcount_allgather(&allgather, axon_bigcount_blocking("MPI_Allgather_c"), sendbuf, sendcount,
                                   sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Iallgather_c)
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_allgather(&allgather, axon_bigcount_nonblocking("MPI_Iallgather_c", request), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Allgather_init_c)
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return axon_bigcount_allgather(&allgather, axon_bigcount_persistent("MPI_Allgather_init_c", info, request),
                                   sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Allgatherv_c)
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_bigcount_allgatherv(&allgatherv, axon_bigcount_blocking("MPI_Allgatherv_c"), AXON_BIGCOUNT_GROUP,
                                    sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

AXON_MPI_WEAK(Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_Request *request)
{
    return axon_bigcount_allgatherv(&allgatherv, axon_bigcount_nonblocking("MPI_Iallgatherv_c", request),
                                    AXON_BIGCOUNT_GROUP, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm);
}

AXON_MPI_WEAK(Allgatherv_init_c)
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Info info, MPI_Request *request)
{
    return axon_bigcount_allgatherv(&allgatherv, axon_bigcount_persistent("MPI_Allgatherv_init_c", info, request),
                                    AXON_BIGCOUNT_GROUP, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm);
}

AXON_MPI_WEAK(Alltoall_c)
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_bigcount_allgather(&alltoall, axon_bigcount_blocking("MPI_Alltoall_c"), sendbuf, sendcount, sendtype,
                                   recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Ialltoall_c)
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_allgather(&alltoall, axon_bigcount_nonblocking("MPI_Ialltoall_c", request), sendbuf,
                                   sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Alltoall_init_c)
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return axon_bigcount_allgather(&alltoall, axon_bigcount_persistent("MPI_Alltoall_init_c", info, request),
                                   sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

AXON_MPI_WEAK(Alltoallv_c)
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    return axon_bigcount_alltoallv(&alltoallv, axon_bigcount_blocking("MPI_Alltoallv_c"), AXON_BIGCOUNT_GROUP,
                                   sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   comm);
}

AXON_MPI_WEAK(Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return axon_bigcount_alltoallv(&alltoallv, axon_bigcount_nonblocking("MPI_Ialltoallv_c", request),
                                   AXON_BIGCOUNT_GROUP, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Alltoallv_init_c)
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return axon_bigcount_alltoallv(&alltoallv, axon_bigcount_persistent("MPI_Alltoallv_init_c", info, request),
                                   AXON_BIGCOUNT_GROUP, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm);
}

AXON_MPI_WEAK(Alltoallw_c)
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_c(axon_bigcount_blocking("MPI_Alltoallw_c"), sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                       recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    return alltoallw_c(axon_bigcount_nonblocking("MPI_Ialltoallw_c", request), sendbuf, sendcounts, sdispls,
                       sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Alltoallw_init_c)
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    return alltoallw_c(axon_bigcount_persistent("MPI_Alltoallw_init_c", info, request), sendbuf, sendcounts, sdispls,
                       sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

AXON_MPI_WEAK(Reduce_c)
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm)
{
    return reduce_c(axon_bigcount_blocking("MPI_Reduce_c"), sendbuf, recvbuf, count, datatype, op, root, comm);
}

AXON_MPI_WEAK(Ireduce_c)
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    return reduce_c(axon_bigcount_nonblocking("MPI_Ireduce_c", request), sendbuf, recvbuf, count, datatype, op, root,
                    comm);
}

AXON_MPI_WEAK(Reduce_init_c)
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_c(axon_bigcount_persistent("MPI_Reduce_init_c", info, request), sendbuf, recvbuf, count, datatype,
                    op, root, comm);
}

AXON_MPI_WEAK(Allreduce_c)
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm)
{
    return allreduce_c(&allreduce, axon_bigcount_blocking("MPI_Allreduce_c"), "count", sendbuf, recvbuf, count,
                       datatype, op, comm);
}

AXON_MPI_WEAK(Iallreduce_c)
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Request *request)
{
    return allreduce_c(&allreduce, axon_bigcount_nonblocking("MPI_Iallreduce_c", request), "count", sendbuf, recvbuf,
                       count, datatype, op, comm);
}

AXON_MPI_WEAK(Allreduce_init_c)
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(&allreduce, axon_bigcount_persistent("MPI_Allreduce_init_c", info, request), "count", sendbuf,
                       recvbuf, count, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_block_c)
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm)
{
    return allreduce_c(&reduce_scatter_block, axon_bigcount_blocking("MPI_Reduce_scatter_block_c"), "recvcount",
                       sendbuf, recvbuf, recvcount, datatype, op, comm);
}

AXON_MPI_WEAK(Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return allreduce_c(&reduce_scatter_block, axon_bigcount_nonblocking("MPI_Ireduce_scatter_block_c", request),
                       "recvcount", sendbuf, recvbuf, recvcount, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(&reduce_scatter_block,
                       axon_bigcount_persistent("MPI_Reduce_scatter_block_init_c", info, request), "recvcount",
                       sendbuf, recvbuf, recvcount, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_c)
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_c(axon_bigcount_blocking("MPI_Reduce_scatter_c"), sendbuf, recvbuf, recvcounts, datatype,
                            op, comm);
}

AXON_MPI_WEAK(Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_c(axon_bigcount_nonblocking("MPI_Ireduce_scatter_c", request), sendbuf, recvbuf,
                            recvcounts, datatype, op, comm);
}

AXON_MPI_WEAK(Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return reduce_scatter_c(axon_bigcount_persistent("MPI_Reduce_scatter_init_c", info, request), sendbuf, recvbuf,
                            recvcounts, datatype, op, comm);
}

AXON_MPI_WEAK(Scan_c)
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_c(&scan, axon_bigcount_blocking("MPI_Scan_c"), "count", sendbuf, recvbuf, count, datatype, op,
                       comm);
}

AXON_MPI_WEAK(Iscan_c)
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    return allreduce_c(&scan, axon_bigcount_nonblocking("MPI_Iscan_c", request), "count", sendbuf, recvbuf, count,
                       datatype, op, comm);
}

AXON_MPI_WEAK(Scan_init_c)
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(&scan, axon_bigcount_persistent("MPI_Scan_init_c", info, request), "count", sendbuf, recvbuf,
                       count, datatype, op, comm);
}

AXON_MPI_WEAK(Exscan_c)
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return allreduce_c(&exscan, axon_bigcount_blocking("MPI_Exscan_c"), "count", sendbuf, recvbuf, count, datatype,
                       op, comm);
}

AXON_MPI_WEAK(Iexscan_c)
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request *request)
{
    return allreduce_c(&exscan, axon_bigcount_nonblocking("MPI_Iexscan_c", request), "count", sendbuf, recvbuf,
                       count, datatype, op, comm);
}

AXON_MPI_WEAK(Exscan_init_c)
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return allreduce_c(&exscan, axon_bigcount_persistent("MPI_Exscan_init_c", info, request), "count", sendbuf,
                       recvbuf, count, datatype, op, comm);
}
