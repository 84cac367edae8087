/* Dynamic processes and their rendezvous: MPI_Comm_spawn(_multiple), ports (MPI_Open_port, MPI_Close_port,
 * MPI_Comm_accept, MPI_Comm_connect), MPI_Comm_join, MPI_Comm_disconnect and name publishing. Disconnect
 * is real (every communicator can be disconnected: a barrier and a free). The others: Axon's jobs
 * are fixed at launch (mpirun and PMIx start every rank), so each call returns
 * MPI_ERR_UNSUPPORTED_OPERATION through the handler of its communicator (MPI_COMM_WORLD's without one) and
 * sets its output communicator to MPI_COMM_NULL. They exist because Python bindings (mpi4py) reference
 * every MPI function and load the library with every symbol resolved. */
#include "mpi/axon_mpi.h"

static int axon_mpi_dpm_unsupported(const char *func, MPI_Comm comm)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_UNSUPPORTED_OPERATION,
                          "dynamic process management (spawn, ports, join, name publishing) is not implemented in Axon");
}

AXON_MPI_WEAK(Comm_spawn)
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *intercomm, int array_of_errcodes[])
{
    (void)command, (void)argv, (void)maxprocs, (void)info, (void)root, (void)comm, (void)array_of_errcodes;
    if (intercomm)
        *intercomm = MPI_COMM_NULL;
    return axon_mpi_dpm_unsupported("MPI_Comm_spawn", comm);
}

AXON_MPI_WEAK(Comm_spawn_multiple)
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                             MPI_Comm *intercomm, int array_of_errcodes[])
{
    (void)count, (void)array_of_commands, (void)array_of_argv, (void)array_of_maxprocs, (void)array_of_info, (void)root,
        (void)comm, (void)array_of_errcodes;
    if (intercomm)
        *intercomm = MPI_COMM_NULL;
    return axon_mpi_dpm_unsupported("MPI_Comm_spawn_multiple", comm);
}

AXON_MPI_WEAK(Comm_accept)
int PMPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    (void)port_name, (void)info, (void)root, (void)comm;
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    return axon_mpi_dpm_unsupported("MPI_Comm_accept", comm);
}

AXON_MPI_WEAK(Comm_connect)
int PMPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm)
{
    (void)port_name, (void)info, (void)root, (void)comm;
    if (newcomm)
        *newcomm = MPI_COMM_NULL;
    return axon_mpi_dpm_unsupported("MPI_Comm_connect", comm);
}

AXON_MPI_WEAK(Comm_join)
int PMPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    (void)fd;
    if (intercomm)
        *intercomm = MPI_COMM_NULL;
    return axon_mpi_dpm_unsupported("MPI_Comm_join", MPI_COMM_NULL);
}

/* Real for every communicator Axon can make (none comes from spawn or ports): a collective that waits
 * until every member has reached it, then frees the communicator and nulls the handle. The standard
 * also has it wait for communication still pending on the communicator; the barrier covers what the
 * members started and completed before the call (a program that disconnects with requests in flight is
 * left to MPI_Comm_free's rules: they complete on their own). */
AXON_MPI_WEAK(Comm_disconnect)
int PMPI_Comm_disconnect(MPI_Comm *comm)
{
    static const char func[] = "MPI_Comm_disconnect";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!comm)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "comm is a NULL pointer");
    AXON_MPI_COMM_CHECK(func, *comm, c);
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return axon_mpi_error(c, func, MPI_ERR_COMM, "MPI_COMM_WORLD and MPI_COMM_SELF cannot be disconnected");
    int rc = PMPI_Barrier(*comm);
    return rc == MPI_SUCCESS ? PMPI_Comm_free(comm) : rc;
}

AXON_MPI_WEAK(Open_port)
int PMPI_Open_port(MPI_Info info, char *port_name)
{
    (void)info, (void)port_name;
    return axon_mpi_dpm_unsupported("MPI_Open_port", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Close_port)
int PMPI_Close_port(const char *port_name)
{
    (void)port_name;
    return axon_mpi_dpm_unsupported("MPI_Close_port", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Publish_name)
int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return axon_mpi_dpm_unsupported("MPI_Publish_name", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Unpublish_name)
int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return axon_mpi_dpm_unsupported("MPI_Unpublish_name", MPI_COMM_NULL);
}

AXON_MPI_WEAK(Lookup_name)
int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    (void)service_name, (void)info, (void)port_name;
    return axon_mpi_dpm_unsupported("MPI_Lookup_name", MPI_COMM_NULL);
}
