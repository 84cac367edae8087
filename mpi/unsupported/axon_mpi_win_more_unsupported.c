/* The window calls of MPI 3 and 4 beyond the common ones of mpi/unsupported/axon_mpi_win_unsupported.c: shared-memory
 * windows, the large-count constructors, flushes, synchronization tests, window attributes, names, info
 * and error handlers. No window exists (one-sided communication is not built yet), so each returns
 * MPI_ERR_UNSUPPORTED_OPERATION through the handler of errors on no object (the constructors: of their
 * communicator) and sets its output handle to the null handle. They exist because Python bindings
 * (mpi4py) reference every MPI function and load the library with every symbol resolved. */
#include "mpi/axon_mpi.h"

#include <string.h>

static int axon_mpi_win_more_unsupported(const char *func, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "one-sided communication is not implemented in Axon yet");
}

AXON_MPI_WEAK(Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    (void)size, (void)disp_unit, (void)info, (void)baseptr;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_allocate_shared", comm);
}

AXON_MPI_WEAK(Win_allocate_shared_c)
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    (void)size, (void)disp_unit, (void)info, (void)baseptr;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_allocate_shared_c", comm);
}

AXON_MPI_WEAK(Win_allocate_c)
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    (void)size, (void)disp_unit, (void)info, (void)baseptr;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_allocate_c", comm);
}

AXON_MPI_WEAK(Win_create_c)
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void)base, (void)size, (void)disp_unit, (void)info;
    if (win)
        *win = MPI_WIN_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_create_c", comm);
}

AXON_MPI_WEAK(Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    (void)win, (void)rank, (void)size, (void)disp_unit, (void)baseptr;
    return axon_mpi_win_more_unsupported("MPI_Win_shared_query", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_shared_query_c)
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    (void)win, (void)rank, (void)size, (void)disp_unit, (void)baseptr;
    return axon_mpi_win_more_unsupported("MPI_Win_shared_query_c", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win)
{
    (void)win;
    return axon_mpi_win_more_unsupported("MPI_Win_flush_all", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win)
{
    (void)win;
    return axon_mpi_win_more_unsupported("MPI_Win_flush_local_all", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_sync)
int PMPI_Win_sync(MPI_Win win)
{
    (void)win;
    return axon_mpi_win_more_unsupported("MPI_Win_sync", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_test)
int PMPI_Win_test(MPI_Win win, int *flag)
{
    (void)win, (void)flag;
    return axon_mpi_win_more_unsupported("MPI_Win_test", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    (void)win;
    if (group)
        *group = MPI_GROUP_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_get_group", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    (void)win, (void)info;
    return axon_mpi_win_more_unsupported("MPI_Win_set_info", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    (void)win;
    if (info_used)
        *info_used = MPI_INFO_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_get_info", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    (void)win, (void)win_name;
    return axon_mpi_win_more_unsupported("MPI_Win_set_name", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char func[] = "MPI_Win_get_name";
    /* The null handle's name is the one answer without windows (MPI 4.1 names null handles). */
    if (win == MPI_WIN_NULL && win_name && resultlen) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        static const char null_name[] = "MPI_WIN_NULL";
        memcpy(win_name, null_name, sizeof(null_name));
        *resultlen = (int)sizeof(null_name) - 1;
        return MPI_SUCCESS;
    }
    return axon_mpi_win_more_unsupported(func, MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state)
{
    (void)win_copy_attr_fn, (void)win_delete_attr_fn, (void)win_keyval, (void)extra_state;
    return axon_mpi_win_more_unsupported("MPI_Win_create_keyval", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_free_keyval)
int PMPI_Win_free_keyval(int *win_keyval)
{
    (void)win_keyval;
    return axon_mpi_win_more_unsupported("MPI_Win_free_keyval", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    (void)win, (void)win_keyval, (void)attribute_val;
    return axon_mpi_win_more_unsupported("MPI_Win_set_attr", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    (void)win, (void)win_keyval, (void)attribute_val, (void)flag;
    return axon_mpi_win_more_unsupported("MPI_Win_get_attr", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    (void)win, (void)win_keyval;
    return axon_mpi_win_more_unsupported("MPI_Win_delete_attr", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    (void)win, (void)errhandler;
    return axon_mpi_win_more_unsupported("MPI_Win_set_errhandler", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    (void)win;
    if (errhandler)
        *errhandler = MPI_ERRHANDLER_NULL;
    return axon_mpi_win_more_unsupported("MPI_Win_get_errhandler", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    (void)win, (void)errorcode;
    return axon_mpi_win_more_unsupported("MPI_Win_call_errhandler", MPI_COMM_NULL);
}

/* Window error handlers are communicator error handlers (the same object kind, as in MPICH), so one can
 * be made although no window exists to carry it. */
AXON_MPI_WEAK(Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Win_create_errhandler");
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))win_errhandler_fn,
                                       errhandler);
}
