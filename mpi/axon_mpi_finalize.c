/* MPI_Finalize and MPI_Finalized, and taking the library down (for MPI_Finalize, or the last
 * MPI_Session_finalize after it): stop the progress thread, shut the transport down in step with the
 * other ranks (nothing in flight is lost), leave the PMIx server, and mark the library finalized. */
#include "mpi/axon_mpi.h"
#include "mpi/comm/axon_mpi_comm.h"
#include "mpi/rma/axon_mpi_win.h"

#include "coll/axon_coll_sched.h"
#include "memkind/axon_memkind.h"
#include "rma/rma.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

int axon_mpi_library_down(void)
{
    /* From here this thread alone drives the engines: their teardown below runs without the progress
     * thread inside them. */
    axon_ucx_progress_thread_stop();

    /* Everything matched has been delivered (MPI requires it of a correct program), so the engine
     * can go before the transport: its queues hold only messages nobody will receive. Buffered sends
     * are the exception: the user has no request to wait on, so they are drained here. */
    axon_mpi_bsend_finalize();
    /* Windows the program did not free: the engine lets go of them first, then their MPI objects go,
     * before the communicators (each window holds a hidden one). */
    axon_rma_finalize();
    axon_mpi_win_table_finalize();
    axon_coll_finalize();
    axon_mpi_comm_table_finalize();
    axon_pt2pt_finalize();
    axon_mpi_datatype_finalize();
    axon_attr_table_finalize(); /* after every object that may hold attributes */
    int rc = axon_ucx_finalize();
    axon_pt2pt_release(); /* the node's segments: peers are watched through the transport's last fence */
    axon_memkind_finalize();
    atomic_store(&axon_mpi_state.phase, AXON_MPI_PHASE_FINALIZED);
    axon_runtime_bootstrap_finalize();
    return rc;
}

AXON_MPI_WEAK(Finalize)
int PMPI_Finalize(void)
{
    static const char func[] = "MPI_Finalize";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (atomic_load(&axon_mpi_state.world) != AXON_MPI_PHASE_ACTIVE)
        axon_mpi_state_fail_outside(func); /* sessions alone brought the library up */

    /* MPI_COMM_SELF's attribute delete callbacks run first, while MPI is whole (the standard; mpi4py
     * relies on it). */
    axon_mpi_comm_finalize_callbacks();
    pthread_mutex_lock(&axon_mpi_init_lock);
    atomic_store(&axon_mpi_state.world, AXON_MPI_PHASE_FINALIZED);
    /* Live sessions keep the library up: the last one's MPI_Session_finalize takes it down. */
    int rc = axon_mpi_state.sessions == 0 ? axon_mpi_library_down() : MPI_SUCCESS;
    pthread_mutex_unlock(&axon_mpi_init_lock);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "the transport did not shut down cleanly");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Finalized)
int PMPI_Finalized(int *flag)
{
    if (!flag)
        return axon_mpi_error(NULL, "MPI_Finalized", MPI_ERR_ARG, "flag is a NULL pointer");
    *flag = atomic_load(&axon_mpi_state.world) == AXON_MPI_PHASE_FINALIZED;
    return MPI_SUCCESS;
}
