/* Bringing the library up (for MPI_Init, MPI_Init_thread and the first MPI_Session_init): read the
 * knobs, join the job through the bootstrap, bring up UCX, exchange worker addresses, make the
 * predefined communicators, and start the progress thread when AXON_ASYNC_PROGRESS asks for one. CUDA
 * support loads the driver here (AXON_CUDA), but no CUDA context is made; each rank's GPU travels with
 * the addresses, for the job's NVLink domains. Also MPI_Initialized. */
#include "mpi/axon_mpi.h"
#include "mpi/comm/axon_mpi_comm.h"

#include "coll/axon_coll_sched.h"
#include "memkind/axon_memkind.h"
#include "rma/rma.h"

#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The PMIx key of a rank's GPU (struct axon_runtime_gpu_ident). */
#define AXON_MPI_GPU_KEY "axon.gpu"

/* Every rank's GPU, after the exchange, makes the job's NVLink domains (unless AXON_TOPO drew them).
 * With AXON_MODEX=direct only the node's ranks are asked: asking every rank would fetch every node's
 * values after all, one request at a time. */
static int axon_mpi_init_domains(bool node_only)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    int n = job->size;
    struct axon_runtime_gpu_ident *ids = calloc((size_t)n, sizeof(*ids));
    if (!ids)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int r = 0; r < n && rc == MPI_SUCCESS; r++) {
        if (node_only && job->host_of_rank[r] != job->host_of_rank[job->rank])
            continue; /* on another machine: its values stay there */
        void *v = NULL;
        size_t len = 0;
        rc = axon_runtime_bootstrap_get(r, AXON_MPI_GPU_KEY, &v, &len);
        if (rc == MPI_SUCCESS && len == sizeof(ids[r]))
            memcpy(&ids[r], v, len); /* another length: another build's rank, taken as having no GPU */
        free(v);
    }
    if (rc == MPI_SUCCESS)
        rc = axon_runtime_topo_set_gpus(ids, node_only);
    free(ids);
    return rc;
}

pthread_mutex_t axon_mpi_init_lock = PTHREAD_MUTEX_INITIALIZER;

/* A failure before the communicators exist has no error handler to go to: it ends the job. */
static noreturn void axon_mpi_init_fail(const char *func, const char *what)
{
    axon_runtime_log_error("%s failed: %s", func, what);
    char message[300];
    snprintf(message, sizeof(message), "%s failed: %s", func, what);
    axon_runtime_bootstrap_abort(1, message);
}

int axon_mpi_library_up(const char *func, int required)
{
    char err[512] = "";
    int phase = atomic_load(&axon_mpi_state.phase);
    if (phase == AXON_MPI_PHASE_ACTIVE)
        return MPI_SUCCESS;
    if (phase == AXON_MPI_PHASE_FINALIZED)
        return MPI_ERR_OTHER;

    if (axon_runtime_config_load(&axon_config, err, sizeof(err)) != MPI_SUCCESS)
        axon_mpi_init_fail(func, err);
    if (axon_runtime_bootstrap_init(err, sizeof(err)) != MPI_SUCCESS)
        axon_mpi_init_fail(func, err);
    /* Before anything that asks which ranks share a node: AXON_TOPO may redraw the nodes. */
    if (axon_runtime_topo_init(axon_config.topo, err, sizeof(err)) != MPI_SUCCESS)
        axon_mpi_init_fail(func, err);
    /* The memory kinds' drivers are loaded here; no GPU context is made. */
    if (axon_memkind_init(err, sizeof(err)) != MPI_SUCCESS)
        axon_mpi_init_fail(func, err);

    /* The level granted is the one asked for (at most MULTIPLE), progress thread or not: the thread is
     * the library's, and the library locks for it on its own (axon_ucx_init). */
    int level = required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    if (axon_ucx_init(level == MPI_THREAD_MULTIPLE, err, sizeof(err)) != MPI_SUCCESS)
        axon_mpi_init_fail(func, err);
    /* The handlers are in place before any peer can know our address (the exchange tells them). */
    if (axon_pt2pt_init() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot set up the point-to-point engine");
    /* Each rank's GPU travels with the addresses: the NVLink domains need every rank's. */
    struct axon_runtime_gpu_ident gpu;
    axon_memkind_gpu_ident(axon_runtime_job.host_local_rank, &gpu);
    if (axon_runtime_bootstrap_put(AXON_MPI_GPU_KEY, &gpu, sizeof(gpu)) != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot publish this rank's GPU through PMIx");
    bool collect = axon_config.modex == AXON_MODEX_COLLECT;
    if (axon_runtime_bootstrap_exchange(collect) != MPI_SUCCESS)
        axon_mpi_init_fail(func, "the exchange of UCX addresses through PMIx failed");
    if (axon_mpi_init_domains(!collect) != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot learn the other ranks' GPUs through PMIx");
    if (axon_pt2pt_connect() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot connect the point-to-point engine to the node's other ranks");
    if (axon_mpi_datatype_init() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot build the predefined datatypes");
    if (axon_mpi_comm_table_init() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot create the predefined communicators");
    if (axon_coll_init() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot set up the collectives");
    if (axon_rma_init() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot set up one-sided communication");
    axon_mpi_info_env_fill();
    /* Last: everything it progresses exists now. */
    if (axon_ucx.async_progress && axon_ucx_progress_thread_start() != MPI_SUCCESS)
        axon_mpi_init_fail(func, "cannot start the progress thread (AXON_ASYNC_PROGRESS=1)");

    axon_mpi_state.thread_level = level;
    axon_mpi_state.main_thread = pthread_self();
    atomic_store_explicit(&axon_mpi_state.phase, AXON_MPI_PHASE_ACTIVE, memory_order_release);
    axon_runtime_log_debug(1, "MPI initialized (%s): rank %d of %d, local %d of %d, %d node(s), launcher %s", func,
                           axon_runtime_job.rank, axon_runtime_job.size, axon_runtime_job.local_rank,
                           axon_runtime_job.local_size, axon_runtime_job.num_nodes, axon_runtime_job.launcher);
    return MPI_SUCCESS;
}

static int axon_mpi_init_common(const char *func, int required, int *provided)
{
    pthread_mutex_lock(&axon_mpi_init_lock);
    int world = atomic_load(&axon_mpi_state.world);
    if (world != AXON_MPI_PHASE_PRE_INIT) {
        pthread_mutex_unlock(&axon_mpi_init_lock);
        if (world == AXON_MPI_PHASE_FINALIZED)
            axon_mpi_state_fail_outside(func);
        return axon_mpi_error(NULL, func, MPI_ERR_OTHER, "MPI is already initialized");
    }
    if (axon_mpi_library_up(func, required) != MPI_SUCCESS) {
        /* Sessions alone used it, and it went down (MPI_Finalize can only come later): the same as a
         * second MPI_Init. */
        pthread_mutex_unlock(&axon_mpi_init_lock);
        axon_mpi_state_fail_outside(func);
    }
    /* A session may have brought the library up first, at its own level: that is the level there is. */
    int level = required > axon_mpi_state.thread_level ? axon_mpi_state.thread_level : required;
    axon_mpi_state.main_thread = pthread_self();
    atomic_store_explicit(&axon_mpi_state.world, AXON_MPI_PHASE_ACTIVE, memory_order_release);
    pthread_mutex_unlock(&axon_mpi_init_lock);
    if (provided)
        *provided = level;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Init)
int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return axon_mpi_init_common("MPI_Init", MPI_THREAD_SINGLE, NULL);
}

AXON_MPI_WEAK(Init_thread)
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    static const char func[] = "MPI_Init_thread";
    (void)argc;
    (void)argv;
    if (!provided)
        axon_mpi_init_fail(func, "provided is a NULL pointer");
    if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
        required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE) {
        char what[128];
        snprintf(what, sizeof(what), "required thread level %d is none of MPI_THREAD_SINGLE, _FUNNELED, "
                 "_SERIALIZED, _MULTIPLE", required);
        axon_mpi_init_fail(func, what);
    }
    return axon_mpi_init_common(func, required, provided);
}

AXON_MPI_WEAK(Initialized)
int PMPI_Initialized(int *flag)
{
    if (!flag)
        return axon_mpi_error(NULL, "MPI_Initialized", MPI_ERR_ARG, "flag is a NULL pointer");
    /* The world model's: sessions alone leave it false (MPI 4.0). */
    *flag = atomic_load(&axon_mpi_state.world) != AXON_MPI_PHASE_PRE_INIT;
    return MPI_SUCCESS;
}
