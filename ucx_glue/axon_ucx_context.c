/* The UCP context and the worker: created at MPI_Init, with the features the library uses (active
 * messages, whose rendezvous UCX completes zero-copy on its own RMA lanes; RMA when one-sided traffic may
 * cross machines), and torn down at MPI_Finalize. */
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct axon_ucx axon_ucx;

#define AXON_UCX_ADDRESS_KEY "axon.ucx.worker"

/* Whether every rank of the job runs on this machine (AXON_TOPO's synthetic nodes included). */
static bool axon_ucx_one_machine(void)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    for (int r = 0; r < job->size; r++)
        if (job->host_of_rank[r] != job->host_of_rank[job->rank])
            return false;
    return true;
}

int axon_ucx_init(bool thread_multiple, char *err, size_t errlen)
{
    ucp_config_t *config = NULL;
    ucp_address_t *address = NULL;
    size_t address_len = 0;
    ucs_status_t st;
    int rc = MPI_ERR_OTHER;

    /* The progress thread enters the worker and the engines beside the application's thread(s), so the
     * library locks as under MPI_THREAD_MULTIPLE; the level reported to the user is not changed. */
    axon_ucx.async_progress = axon_config.async_progress != 0;
    thread_multiple = thread_multiple || axon_ucx.async_progress;
    axon_ucx.thread_multiple = thread_multiple;
    /* The machine's ranks, not AXON_TOPO's. */
    axon_ucx.wait = axon_ucx_wait_policy_decide(axon_config.wait_mode, axon_config.oversubscribed,
                                                sysconf(_SC_NPROCESSORS_ONLN), axon_runtime_job.host_local_size,
                                                thread_multiple);
    axon_ucx.eager_limit = axon_ucx_eager_limit_decide(axon_config.eager_limit,
                                                       axon_ucx_fabric_has_rdma("/sys/class/infiniband"));
    axon_ucx.nranks = axon_runtime_job.size;
    atomic_store(&axon_ucx.leaving, AXON_UCX_RUNNING);
    axon_ucx_ep_watch_init();
    axon_ucx.eps = calloc((size_t)axon_ucx.nranks, sizeof(ucp_ep_h));
    if (!axon_ucx.eps) {
        snprintf(err, errlen, "out of memory for %d endpoints", axon_ucx.nranks);
        return MPI_ERR_NO_MEM;
    }

    st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK) {
        snprintf(err, errlen, "ucp_config_read failed: %s", ucs_status_string(st));
        goto err_eps;
    }
    /* A job on one machine listens on the loopback only: UCX's TCP transport otherwise opens a port on
     * every interface (reachable from the network, for nothing). Across machines UCX_NET_DEVICES chooses,
     * as the user sets it (README, Running on a cluster). */
    if (!getenv("UCX_NET_DEVICES") && axon_ucx_one_machine()) {
        st = ucp_config_modify(config, "NET_DEVICES", "lo");
        if (st != UCS_OK)
            axon_runtime_log_debug(1, "UCX would not take NET_DEVICES=lo (%s); it listens on every interface",
                                   ucs_status_string(st));
    }
    /* Active messages: rendezvous moves payloads zero-copy without more (UCX adds its RMA lanes for that
     * by itself). RMA only where one-sided operations cross machines over RDMA: its interfaces are
     * polled on every progress call; within a machine the one-sided engine moves data by shared memory;
     * and over TCP UCX emulates puts and gets with messages and a flush round trip, where the engine's
     * own acknowledged messages take one round trip less. */
    axon_ucx.rma = axon_config.rma_ucx == AXON_RMA_UCX_ON ||
                   (axon_config.rma_ucx == AXON_RMA_UCX_AUTO && !axon_ucx_one_machine() &&
                    axon_ucx_fabric_has_rdma("/sys/class/infiniband"));
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                      UCP_PARAM_FIELD_ESTIMATED_NUM_EPS,
        .features = UCP_FEATURE_AM | (axon_ucx.rma ? UCP_FEATURE_RMA : 0),
        .mt_workers_shared = 0,
        .estimated_num_eps = (size_t)axon_ucx.nranks,
    };
    st = ucp_init(&params, config, &axon_ucx.context);
    ucp_config_release(config);
    if (st != UCS_OK) {
        snprintf(err, errlen, "ucp_init failed: %s", ucs_status_string(st));
        goto err_eps;
    }

    ucp_worker_params_t wparams = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = thread_multiple ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE,
    };
    st = ucp_worker_create(axon_ucx.context, &wparams, &axon_ucx.worker);
    if (st != UCS_OK) {
        snprintf(err, errlen, "ucp_worker_create failed: %s", ucs_status_string(st));
        goto err_context;
    }
    if (thread_multiple) {
        ucp_worker_attr_t attr = {.field_mask = UCP_WORKER_ATTR_FIELD_THREAD_MODE};
        if (ucp_worker_query(axon_ucx.worker, &attr) == UCS_OK && attr.thread_mode != UCS_THREAD_MODE_MULTI) {
            snprintf(err, errlen, "this UCX cannot make a thread-safe worker (needs --enable-mt)");
            goto err_worker;
        }
    }

    st = ucp_worker_get_address(axon_ucx.worker, &address, &address_len);
    if (st != UCS_OK) {
        snprintf(err, errlen, "ucp_worker_get_address failed: %s", ucs_status_string(st));
        goto err_worker;
    }
    rc = axon_ucx_survivors_init();
    if (rc != MPI_SUCCESS) {
        ucp_worker_release_address(axon_ucx.worker, address);
        snprintf(err, errlen, "cannot set up the messages about lost ranks");
        goto err_worker;
    }
    rc = axon_runtime_bootstrap_put(AXON_UCX_ADDRESS_KEY, address, address_len);
    ucp_worker_release_address(axon_ucx.worker, address);
    if (rc != MPI_SUCCESS) {
        snprintf(err, errlen, "could not publish the UCX worker address");
        goto err_worker;
    }
    axon_runtime_log_debug(1,
                           "UCX worker ready (%zu-byte address, thread mode %s, %s when idle, threads yield "
                           "beyond %d waiting%s)",
                           address_len, thread_multiple ? "multi" : "single",
                           axon_ucx.wait.yield_when_idle ? "yield" : "spin", axon_ucx.wait.spin_threads_max,
                           axon_ucx.async_progress ? ", progress thread" : "");
    return MPI_SUCCESS;

err_worker:
    ucp_worker_destroy(axon_ucx.worker);
    axon_ucx.worker = NULL;
err_context:
    ucp_cleanup(axon_ucx.context);
    axon_ucx.context = NULL;
err_eps:
    free(axon_ucx.eps);
    axon_ucx.eps = NULL;
    return rc == MPI_SUCCESS ? MPI_ERR_OTHER : rc;
}

int axon_ucx_am_set_handler(unsigned id, ucp_am_recv_callback_t cb, void *arg)
{
    /* cb NULL removes the handler. */
    ucp_am_handler_param_t param = {
        .field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                      UCP_AM_HANDLER_PARAM_FIELD_ARG | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
        .id = id,
        .cb = cb,
        .arg = arg,
        .flags = UCP_AM_FLAG_WHOLE_MSG | UCP_AM_FLAG_PERSISTENT_DATA,
    };
    ucs_status_t st = ucp_worker_set_am_recv_handler(axon_ucx.worker, &param);
    if (st != UCS_OK) {
        axon_runtime_log_error("cannot register active message %u: %s", id, ucs_status_string(st));
        return MPI_ERR_INTERN;
    }
    return MPI_SUCCESS;
}

/* Used as the bootstrap barrier's progress callback during shutdown. */
static void axon_ucx_progress_cb(void *arg)
{
    (void)arg;
    ucp_worker_progress(axon_ucx.worker);
    axon_ucx_watch_tick(); /* a peer that died without MPI_Finalize would hold the fence forever */
    axon_ucx_ep_fence_check();
}

int axon_ucx_finalize(void)
{
    int rc = MPI_SUCCESS;
    if (!axon_ucx.worker)
        return MPI_SUCCESS;

    /* 1. Everything this rank sent has reached its peers' workers. */
    ucp_request_param_t rp = {.op_attr_mask = 0};
    ucs_status_t st = axon_ucx_request_wait(ucp_worker_flush_nbx(axon_ucx.worker, &rp));
    /* Towards a lost rank (the job surviving it) nothing can be flushed. */
    if (st != UCS_OK && axon_runtime_lost_count() == 0) {
        axon_runtime_log_error("flushing the UCX worker at MPI_Finalize failed: %s", ucs_status_string(st));
        rc = MPI_ERR_OTHER;
    }
    /* 2. ... and every other rank's traffic has reached us: nobody closes while a peer still sends. The
     * barrier ends at each rank in its own time (on each node when the node's PMIx server hears): a peer
     * that passed it first may already close its endpoints towards us, so its error now waits for our
     * barrier's end before it counts. */
    atomic_store(&axon_ucx.leaving, AXON_UCX_FENCING);
    int brc = axon_runtime_bootstrap_barrier(axon_ucx_progress_cb, NULL);
    /* Where a rank was lost (the job surviving it) the launcher's fence cannot end: the ranks that live
     * meet through UCX (axon_ucx_survivors.c), twice: everyone has flushed, then everyone knows that
     * everyone has. Their endpoints then close at once, with nothing in flight, and no last barrier is
     * needed (nor possible) while peers close theirs. */
    bool survivors = brc == MPI_ERR_PROC_ABORTED;
    if (survivors) {
        if (axon_ucx_survivors_meet(0) != MPI_SUCCESS)
            rc = MPI_ERR_OTHER;
        axon_ucx_request_wait(ucp_worker_flush_nbx(axon_ucx.worker, &rp));
        if (axon_ucx_survivors_meet(1) != MPI_SUCCESS)
            rc = MPI_ERR_OTHER;
        axon_ucx_request_wait(ucp_worker_flush_nbx(axon_ucx.worker, &rp));
    } else if (brc != MPI_SUCCESS) {
        rc = MPI_ERR_OTHER;
    }

    /* 3. Close the endpoints, all at once, and wait for them while progressing. From here on a peer
     * that is gone has finished: its endpoint's error is no news. */
    atomic_store(&axon_ucx.leaving, AXON_UCX_LEAVING);
    ucs_status_ptr_t *closing = calloc((size_t)axon_ucx.nranks, sizeof(*closing));
    for (int r = 0; r < axon_ucx.nranks; r++) {
        if (!axon_ucx.eps[r])
            continue;
        /* A lost rank's endpoint cannot be closed in step with it. */
        ucp_request_param_t cp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                                  .flags = survivors || axon_runtime_lost(r) ? UCP_EP_CLOSE_FLAG_FORCE : 0};
        ucs_status_ptr_t req = ucp_ep_close_nbx(axon_ucx.eps[r], &cp);
        axon_ucx.eps[r] = NULL;
        if (closing)
            closing[r] = req;
        else
            axon_ucx_request_wait(req);
    }
    if (closing) {
        for (int r = 0; r < axon_ucx.nranks; r++)
            if (closing[r])
                axon_ucx_request_wait(closing[r]);
        free(closing);
    }
    /* 4. Peers may still be closing their endpoints towards us: keep our worker up until they are done. */
    if (!survivors && axon_runtime_bootstrap_barrier(axon_ucx_progress_cb, NULL) != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    axon_ucx_survivors_finalize();

    ucp_worker_destroy(axon_ucx.worker);
    axon_ucx.worker = NULL;
    ucp_cleanup(axon_ucx.context);
    axon_ucx.context = NULL;
    free(axon_ucx.eps);
    axon_ucx.eps = NULL;
    return rc;
}
