/* The one-sided calls that programs link even when they never use them (OSU's shared code links them
 * into every benchmark). One-sided communication is not built yet: each call checks that MPI is active
 * and returns MPI_ERR_UNSUPPORTED_OPERATION, with a message that says so, through the handler of the
 * communicator a window would be made on (the constructors) or of errors on no object (the others: no
 * window exists to carry one). MPI_Accumulate, MPI_Get_accumulate and the atomics are present too
 * (mpi/unsupported/axon_mpi_rma_unsupported.c, unsupported likewise), because Python bindings (mpi4py's
 * MPICH-ABI build) reference every MPI function and load the library with every symbol resolved, even
 * though configure scripts probing for them then find them. */
#include "mpi/axon_mpi.h"

static int axon_mpi_win_unsupported(const char *func, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "one-sided communication is not implemented in Axon yet");
}

AXON_MPI_WEAK(Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void)base, (void)size, (void)disp_unit, (void)info;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_unsupported("MPI_Win_create", comm);
}

AXON_MPI_WEAK(Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    (void)size, (void)disp_unit, (void)info, (void)baseptr;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_unsupported("MPI_Win_allocate", comm);
}

AXON_MPI_WEAK(Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void)info;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_unsupported("MPI_Win_create_dynamic", comm);
}

AXON_MPI_WEAK(Win_attach)
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    (void)win, (void)base, (void)size;
    return axon_mpi_win_unsupported("MPI_Win_attach", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_detach)
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    (void)win, (void)base;
    return axon_mpi_win_unsupported("MPI_Win_detach", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_free)
int PMPI_Win_free(MPI_Win *win)
{
    (void)win;
    return axon_mpi_win_unsupported("MPI_Win_free", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_fence)
int PMPI_Win_fence(int assert, MPI_Win win)
{
    (void)assert, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_fence", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    (void)lock_type, (void)rank, (void)assert, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_lock", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    (void)rank, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_unlock", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_lock_all)
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    (void)assert, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_lock_all", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win)
{
    (void)win;
    return axon_mpi_win_unsupported("MPI_Win_unlock_all", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_flush)
int PMPI_Win_flush(int rank, MPI_Win win)
{
    (void)rank, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_flush", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_flush_local)
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    (void)rank, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_flush_local", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_post)
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    (void)group, (void)assert, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_post", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_start)
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    (void)group, (void)assert, (void)win;
    return axon_mpi_win_unsupported("MPI_Win_start", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_complete)
int PMPI_Win_complete(MPI_Win win)
{
    (void)win;
    return axon_mpi_win_unsupported("MPI_Win_complete", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_wait)
int PMPI_Win_wait(MPI_Win win)
{
    (void)win;
    return axon_mpi_win_unsupported("MPI_Win_wait", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Put)
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp;
    (void)target_count, (void)target_datatype, (void)win;
    return axon_mpi_win_unsupported("MPI_Put", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Get)
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp;
    (void)target_count, (void)target_datatype, (void)win;
    return axon_mpi_win_unsupported("MPI_Get", MPI_COMM_NULL);
}
