/* Synchronization of one-sided communication (MPI 4.1 section 12.5): MPI_Win_fence; the general active
 * target calls MPI_Win_post, _start, _complete, _wait and _test; the passive target calls MPI_Win_lock,
 * _unlock, _lock_all, _unlock_all, _flush, _flush_local, _flush_all, _flush_local_all; and MPI_Win_sync.
 * Each checks its arguments (the assertions each call may take, lock types, ranks, groups) and hands the
 * rest to the engine, whose reason for a failure goes into the message raised on the window.
 *
 * Groups are given to the engine as sorted ranks of the window's group. MPI_PROC_NULL is a valid rank
 * for the passive target calls that name one, and they then do nothing, as in MPICH. */
#include "mpi/rma/axon_mpi_win.h"

#include <stdlib.h>

/* The assertions (MPI 4.1 section 12.5.5) each call may be given. */
#define AXON_MPI_RMA_FENCE_MODES (MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)
#define AXON_MPI_RMA_POST_MODES (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT)
#define AXON_MPI_RMA_START_MODES MPI_MODE_NOCHECK
#define AXON_MPI_RMA_LOCK_MODES MPI_MODE_NOCHECK

static int axon_mpi_rma_check_assert(const char *func, struct axon_win *w, int assert, int allowed)
{
    if (assert & ~allowed)
        return axon_mpi_win_error(w, func, MPI_ERR_ASSERT, "assert 0x%x has bits %s does not take (0x%x)",
                                  (unsigned)assert, func, (unsigned)(assert & ~allowed));
    return MPI_SUCCESS;
}

/* A rank of the window's group; MPI_PROC_NULL when proc_null_ok (the caller then does nothing). */
static int axon_mpi_rma_check_rank(const char *func, struct axon_win *w, int rank, bool proc_null_ok)
{
    if ((rank == MPI_PROC_NULL && proc_null_ok) || (rank >= 0 && rank < w->group->size))
        return MPI_SUCCESS;
    return axon_mpi_win_error(w, func, MPI_ERR_RANK, "rank %d is not in the window's group (size %d)", rank,
                              w->group->size);
}

static int axon_mpi_rma_engine(const char *func, struct axon_win *w, int rc, const char *why)
{
    return rc == MPI_SUCCESS ? rc : AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
}

/* ---- fence ---------------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_fence)
int PMPI_Win_fence(int assert, MPI_Win win)
{
    static const char func[] = "MPI_Win_fence";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    int rc = axon_mpi_rma_check_assert(func, w, assert, AXON_MPI_RMA_FENCE_MODES);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_fence(w->engine, assert, &why), why);
}

/* ---- general active target ------------------------------------------------------------------------ */

static int axon_mpi_rma_int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The members of group as sorted ranks of the window's group (*ranks malloc'd, at least one entry). Every
 * member must belong to the window's group: MPI_ERR_GROUP otherwise. */
static int axon_mpi_rma_group_ranks(const char *func, struct axon_win *w, MPI_Group group, int **ranks, int *n)
{
    struct axon_group *g = axon_mpi_group_get(group);
    if (!g)
        return axon_mpi_win_error(w, func, MPI_ERR_GROUP, "invalid group %s", AXON_MPI_HANDLE_NAME(group));
    int *r = malloc(sizeof(int) * (size_t)(g->size > 0 ? g->size : 1));
    if (!r)
        return axon_mpi_win_error(w, func, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < g->size; i++) {
        r[i] = axon_group_ops_find(w->group->world, w->group->size, g->world[i]);
        if (r[i] == MPI_UNDEFINED) {
            free(r);
            return axon_mpi_win_error(w, func, MPI_ERR_GROUP,
                                      "member %d of group %s (MPI_COMM_WORLD rank %d) is not in the window's group",
                                      i, AXON_MPI_HANDLE_NAME(group), g->world[i]);
        }
    }
    qsort(r, (size_t)g->size, sizeof(int), axon_mpi_rma_int_cmp);
    *ranks = r;
    *n = g->size;
    return MPI_SUCCESS;
}

typedef int axon_mpi_rma_epoch_fn(struct axon_rma_win *w, const int *ranks, int n, int assert, const char **why);

static int axon_mpi_rma_epoch_open(const char *func, MPI_Group group, int assert, MPI_Win win, int allowed,
                                   axon_mpi_rma_epoch_fn *open)
{
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    int rc = axon_mpi_rma_check_assert(func, w, assert, allowed);
    if (rc != MPI_SUCCESS)
        return rc;
    int *ranks = NULL, n = 0;
    rc = axon_mpi_rma_group_ranks(func, w, group, &ranks, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = NULL;
    rc = open(w->engine, ranks, n, assert, &why);
    free(ranks);
    return axon_mpi_rma_engine(func, w, rc, why);
}

AXON_MPI_WEAK(Win_post)
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    return axon_mpi_rma_epoch_open("MPI_Win_post", group, assert, win, AXON_MPI_RMA_POST_MODES, axon_rma_post);
}

AXON_MPI_WEAK(Win_start)
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    return axon_mpi_rma_epoch_open("MPI_Win_start", group, assert, win, AXON_MPI_RMA_START_MODES, axon_rma_start);
}

AXON_MPI_WEAK(Win_complete)
int PMPI_Win_complete(MPI_Win win)
{
    static const char func[] = "MPI_Win_complete";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_complete(w->engine, &why), why);
}

AXON_MPI_WEAK(Win_wait)
int PMPI_Win_wait(MPI_Win win)
{
    static const char func[] = "MPI_Win_wait";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_wait(w->engine, &why), why);
}

AXON_MPI_WEAK(Win_test)
int PMPI_Win_test(MPI_Win win, int *flag)
{
    static const char func[] = "MPI_Win_test";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!flag)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "flag is a NULL pointer");
    bool done = false;
    const char *why = NULL;
    int rc = axon_rma_test(w->engine, &done, &why);
    if (rc != MPI_SUCCESS)
        return AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
    *flag = done;
    return MPI_SUCCESS;
}

/* ---- passive target ------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    static const char func[] = "MPI_Win_lock";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return axon_mpi_win_error(w, func, MPI_ERR_LOCKTYPE,
                                  "lock_type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
    int rc = axon_mpi_rma_check_rank(func, w, rank, true);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_rma_check_assert(func, w, assert, AXON_MPI_RMA_LOCK_MODES);
    if (rc != MPI_SUCCESS || rank == MPI_PROC_NULL)
        return rc;
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_lock(w->engine, lock_type, rank, assert, &why), why);
}

AXON_MPI_WEAK(Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    static const char func[] = "MPI_Win_unlock";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    int rc = axon_mpi_rma_check_rank(func, w, rank, true);
    if (rc != MPI_SUCCESS || rank == MPI_PROC_NULL)
        return rc;
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_unlock(w->engine, rank, &why), why);
}

AXON_MPI_WEAK(Win_lock_all)
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    static const char func[] = "MPI_Win_lock_all";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    int rc = axon_mpi_rma_check_assert(func, w, assert, AXON_MPI_RMA_LOCK_MODES);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_lock_all(w->engine, assert, &why), why);
}

AXON_MPI_WEAK(Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win)
{
    static const char func[] = "MPI_Win_unlock_all";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_unlock_all(w->engine, &why), why);
}

/* The four flushes: one target (rank), or every one (all); local: only the origin's buffers. */
static int axon_mpi_rma_flush_common(const char *func, int rank, bool all, bool local, MPI_Win win)
{
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!all) {
        /* Checked here, before MPI_PROC_NULL (-1 in MPICH's ABI) could pass for AXON_RMA_ALL. */
        int rc = axon_mpi_rma_check_rank(func, w, rank, true);
        if (rc != MPI_SUCCESS || rank == MPI_PROC_NULL)
            return rc;
    }
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_flush(w->engine, all ? AXON_RMA_ALL : rank, local, &why), why);
}

AXON_MPI_WEAK(Win_flush)
int PMPI_Win_flush(int rank, MPI_Win win)
{
    return axon_mpi_rma_flush_common("MPI_Win_flush", rank, false, false, win);
}

AXON_MPI_WEAK(Win_flush_local)
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    return axon_mpi_rma_flush_common("MPI_Win_flush_local", rank, false, true, win);
}

AXON_MPI_WEAK(Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win)
{
    return axon_mpi_rma_flush_common("MPI_Win_flush_all", 0, true, false, win);
}

AXON_MPI_WEAK(Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win)
{
    return axon_mpi_rma_flush_common("MPI_Win_flush_local_all", 0, true, true, win);
}

/* ---- memory --------------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_sync)
int PMPI_Win_sync(MPI_Win win)
{
    static const char func[] = "MPI_Win_sync";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    const char *why = NULL;
    return axon_mpi_rma_engine(func, w, axon_rma_sync(w->engine, &why), why);
}
