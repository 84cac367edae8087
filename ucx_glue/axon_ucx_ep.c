/* Endpoints to the other ranks, made on first use: a job of many ranks where each talks to a few peers
 * never pays for the rest. The peer's worker address comes from the bootstrap's exchange. */
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t axon_ucx_ep_lock = PTHREAD_MUTEX_INITIALIZER;

static int axon_ucx_ep_create(int rank, ucp_ep_h *ep)
{
    void *address = NULL;
    size_t len = 0;
    int rc = axon_runtime_bootstrap_get(rank, "axon.ucx.worker", &address, &len);
    if (rc != MPI_SUCCESS)
        return rc;
    ucp_ep_params_t params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
        .address = address,
    };
    ucs_status_t st = ucp_ep_create(axon_ucx.worker, &params, ep);
    free(address);
    if (st != UCS_OK) {
        axon_runtime_log_error("cannot connect to rank %d: %s", rank, ucs_status_string(st));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_ucx_ep_get(int rank, ucp_ep_h *ep)
{
    if (rank < 0 || rank >= axon_ucx.nranks)
        return MPI_ERR_RANK;
    ucp_ep_h cached = __atomic_load_n(&axon_ucx.eps[rank], __ATOMIC_ACQUIRE);
    if (cached) {
        *ep = cached;
        return MPI_SUCCESS;
    }
    /* Threads may race to the first use of the same peer: one creates, the others see it. */
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_ucx_ep_lock);
    if (!axon_ucx.eps[rank]) {
        ucp_ep_h created;
        rc = axon_ucx_ep_create(rank, &created);
        if (rc == MPI_SUCCESS)
            __atomic_store_n(&axon_ucx.eps[rank], created, __ATOMIC_RELEASE);
    }
    if (rc == MPI_SUCCESS)
        *ep = axon_ucx.eps[rank];
    pthread_mutex_unlock(&axon_ucx_ep_lock);
    return rc;
}
