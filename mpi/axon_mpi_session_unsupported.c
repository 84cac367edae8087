/* The sessions model of MPI 4 (MPI_Session_*, process sets, MPI_Group_from_session_pset,
 * MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups). Axon has the world model only: each call
 * returns MPI_ERR_UNSUPPORTED_OPERATION through MPI_COMM_WORLD's handler (no session exists to carry one)
 * and sets its output handle to the null handle. They exist because Python bindings (mpi4py) reference
 * every MPI function and load the library with every symbol resolved. */
#include "mpi/axon_mpi.h"

static int axon_mpi_session_unsupported(const char *func, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "MPI sessions and process sets are not implemented in Axon");
}

AXON_MPI_WEAK(Session_init)
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    (void)info, (void)errhandler;
    if (session)
        *session = MPI_SESSION_NULL;
    return axon_mpi_session_unsupported("MPI_Session_init", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_finalize)
int PMPI_Session_finalize(MPI_Session *session)
{
    (void)session;
    return axon_mpi_session_unsupported("MPI_Session_finalize", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_get_num_psets)
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    (void)session, (void)info, (void)npset_names;
    return axon_mpi_session_unsupported("MPI_Session_get_num_psets", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_get_nth_pset)
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    (void)session, (void)info, (void)n, (void)pset_len, (void)pset_name;
    return axon_mpi_session_unsupported("MPI_Session_get_nth_pset", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_get_pset_info)
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    (void)session, (void)pset_name;
    if (info)
        *info = MPI_INFO_NULL;
    return axon_mpi_session_unsupported("MPI_Session_get_pset_info", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_get_info)
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    (void)session;
    if (info_used)
        *info_used = MPI_INFO_NULL;
    return axon_mpi_session_unsupported("MPI_Session_get_info", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_set_errhandler)
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    (void)session, (void)errhandler;
    return axon_mpi_session_unsupported("MPI_Session_set_errhandler", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_get_errhandler)
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    (void)session;
    if (errhandler)
        *errhandler = MPI_ERRHANDLER_NULL;
    return axon_mpi_session_unsupported("MPI_Session_get_errhandler", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_call_errhandler)
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    (void)session, (void)errorcode;
    return axon_mpi_session_unsupported("MPI_Session_call_errhandler", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_attach_buffer)
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    (void)session, (void)buffer, (void)size;
    return axon_mpi_session_unsupported("MPI_Session_attach_buffer", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_attach_buffer_c)
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    (void)session, (void)buffer, (void)size;
    return axon_mpi_session_unsupported("MPI_Session_attach_buffer_c", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_detach_buffer)
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    (void)session, (void)buffer_addr, (void)size;
    return axon_mpi_session_unsupported("MPI_Session_detach_buffer", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_detach_buffer_c)
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    (void)session, (void)buffer_addr, (void)size;
    return axon_mpi_session_unsupported("MPI_Session_detach_buffer_c", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_flush_buffer)
int PMPI_Session_flush_buffer(MPI_Session session)
{
    (void)session;
    return axon_mpi_session_unsupported("MPI_Session_flush_buffer", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Session_iflush_buffer)
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    (void)session;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_session_unsupported("MPI_Session_iflush_buffer", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Group_from_session_pset)
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    (void)session, (void)pset_name;
    if (newgroup)
        *newgroup = MPI_GROUP_NULL;
    return axon_mpi_session_unsupported("MPI_Group_from_session_pset", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Comm_create_from_group)
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    (void)group, (void)stringtag, (void)info, (void)errhandler;
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    return axon_mpi_session_unsupported("MPI_Comm_create_from_group", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Intercomm_create_from_groups)
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    (void)local_group, (void)local_leader, (void)remote_group, (void)remote_leader, (void)stringtag, (void)info,
        (void)errhandler;
    if (newintercomm)
        *newintercomm = MPI_COMM_NULL;
    return axon_mpi_session_unsupported("MPI_Intercomm_create_from_groups", MPI_COMM_NULL);
}

/* Session error handlers are communicator error handlers (the same object kind, as in MPICH), so one can
 * be made although no session exists to carry it. */
AXON_MPI_WEAK(Session_create_errhandler)
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Session_create_errhandler");
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))session_errhandler_fn,
                                       errhandler);
}
