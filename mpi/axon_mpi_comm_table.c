/* The communicator table: MPICH-ABI handles to communicator objects. For now it holds the two
 * predefined communicators; communicators made at run time will take direct handles
 * (0x84000000 | index) in the same table when the communicator calls arrive. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>

static struct axon_comm axon_comm_world, axon_comm_self;

/* Context ids 0 and 1 are the predefined communicators'; made ones take the next free ids. */
#define AXON_CONTEXT_WORLD 0u
#define AXON_CONTEXT_SELF 1u

int axon_mpi_comm_table_init(void)
{
    axon_comm_world = (struct axon_comm){
        .handle = MPI_COMM_WORLD,
        .rank = axon_runtime_job.rank,
        .size = axon_runtime_job.size,
        .errhandler = MPI_ERRORS_ARE_FATAL,
    };
    snprintf(axon_comm_world.name, sizeof(axon_comm_world.name), "MPI_COMM_WORLD");
    axon_comm_self = (struct axon_comm){
        .handle = MPI_COMM_SELF,
        .rank = 0,
        .size = 1,
        .errhandler = MPI_ERRORS_ARE_FATAL,
    };
    snprintf(axon_comm_self.name, sizeof(axon_comm_self.name), "MPI_COMM_SELF");

    axon_comm_world.pt2pt = (struct axon_pt2pt_comm){
        .context_id = AXON_CONTEXT_WORLD, .rank = axon_comm_world.rank, .size = axon_comm_world.size};
    static int self_world_rank;
    self_world_rank = axon_runtime_job.rank;
    axon_comm_self.pt2pt = (struct axon_pt2pt_comm){
        .context_id = AXON_CONTEXT_SELF, .rank = 0, .size = 1, .world_ranks = &self_world_rank};
    int rc = axon_pt2pt_comm_attach(&axon_comm_world.pt2pt);
    if (rc == MPI_SUCCESS)
        rc = axon_pt2pt_comm_attach(&axon_comm_self.pt2pt);
    return rc;
}

void axon_mpi_comm_table_finalize(void)
{
    axon_pt2pt_comm_detach(&axon_comm_self.pt2pt);
    axon_pt2pt_comm_detach(&axon_comm_world.pt2pt);
    axon_mpi_errhandler_release(axon_comm_world.errhandler);
    axon_mpi_errhandler_release(axon_comm_self.errhandler);
    axon_comm_world.errhandler = axon_comm_self.errhandler = MPI_ERRHANDLER_NULL;
}

struct axon_comm *axon_mpi_comm_get(MPI_Comm handle)
{
    if (handle == MPI_COMM_WORLD)
        return &axon_comm_world;
    if (handle == MPI_COMM_SELF)
        return &axon_comm_self;
    return NULL;
}
