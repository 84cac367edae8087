/* The one-sided data movement calls beyond MPI_Put and MPI_Get: their large-count forms, the
 * request-based ones (MPI_Rput, MPI_Rget, ...), the accumulates and the atomics (MPI_Fetch_and_op,
 * MPI_Compare_and_swap). One-sided communication is not built yet (mpi/unsupported/axon_mpi_win_unsupported.c): each
 * call returns MPI_ERR_UNSUPPORTED_OPERATION through the handler of errors on no object and sets an output request
 * to MPI_REQUEST_NULL. They are present, even though configure scripts probing for them then find them,
 * because Python bindings (mpi4py) reference every MPI function and load the library with every symbol
 * resolved, and a missing one fails the import. Programs that need one-sided communication learn at run
 * time, with a clear message. */
#include "mpi/axon_mpi.h"

static int axon_mpi_rma_unsupported(const char *func)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(NULL, func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "one-sided communication is not implemented in Axon yet");
}

AXON_MPI_WEAK(Put_c)
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)win;
    return axon_mpi_rma_unsupported("MPI_Put_c");
}

AXON_MPI_WEAK(Get_c)
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)win;
    return axon_mpi_rma_unsupported("MPI_Get_c");
}

AXON_MPI_WEAK(Rput)
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Rput");
}

AXON_MPI_WEAK(Rput_c)
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Rput_c");
}

AXON_MPI_WEAK(Rget)
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
              int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Rget");
}

AXON_MPI_WEAK(Rget_c)
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Rget_c");
}

AXON_MPI_WEAK(Accumulate)
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)op, (void)win;
    return axon_mpi_rma_unsupported("MPI_Accumulate");
}

AXON_MPI_WEAK(Accumulate_c)
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)op, (void)win;
    return axon_mpi_rma_unsupported("MPI_Accumulate_c");
}

AXON_MPI_WEAK(Raccumulate)
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)op, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Raccumulate");
}

AXON_MPI_WEAK(Raccumulate_c)
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                       MPI_Win win, MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)target_rank, (void)target_disp,
        (void)target_count, (void)target_datatype, (void)op, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Raccumulate_c");
}

AXON_MPI_WEAK(Get_accumulate)
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)result_addr, (void)result_count,
        (void)result_datatype, (void)target_rank, (void)target_disp, (void)target_count, (void)target_datatype,
        (void)op, (void)win;
    return axon_mpi_rma_unsupported("MPI_Get_accumulate");
}

AXON_MPI_WEAK(Get_accumulate_c)
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)result_addr, (void)result_count,
        (void)result_datatype, (void)target_rank, (void)target_disp, (void)target_count, (void)target_datatype,
        (void)op, (void)win;
    return axon_mpi_rma_unsupported("MPI_Get_accumulate_c");
}

AXON_MPI_WEAK(Rget_accumulate)
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)result_addr, (void)result_count,
        (void)result_datatype, (void)target_rank, (void)target_disp, (void)target_count, (void)target_datatype,
        (void)op, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Rget_accumulate");
}

AXON_MPI_WEAK(Rget_accumulate_c)
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    (void)origin_addr, (void)origin_count, (void)origin_datatype, (void)result_addr, (void)result_count,
        (void)result_datatype, (void)target_rank, (void)target_disp, (void)target_count, (void)target_datatype,
        (void)op, (void)win;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_rma_unsupported("MPI_Rget_accumulate_c");
}

AXON_MPI_WEAK(Fetch_and_op)
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    (void)origin_addr, (void)result_addr, (void)datatype, (void)target_rank, (void)target_disp, (void)op, (void)win;
    return axon_mpi_rma_unsupported("MPI_Fetch_and_op");
}

AXON_MPI_WEAK(Compare_and_swap)
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    (void)origin_addr, (void)compare_addr, (void)result_addr, (void)datatype, (void)target_rank, (void)target_disp,
        (void)win;
    return axon_mpi_rma_unsupported("MPI_Compare_and_swap");
}
