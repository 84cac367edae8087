/* One-sided transfers through UCX: memory registered for remote access and its packed remote key,
 * remote keys unpacked towards a peer, puts and gets into a peer's registered memory, and the flush
 * that completes them. Where the fabric has RDMA the target's CPU takes no part; over TCP, UCX emulates
 * them with its own messages, served whenever the target's worker progresses (any MPI call, or the
 * progress thread). The one-sided engine (rma/) uses them for targets on other machines.
 *
 * Operations are issued without completion callbacks: a put's or get's request is released at once and
 * the endpoint's flush is what completes them, as MPI's own flush and unlock do. */
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

bool axon_ucx_rma_enabled(void)
{
    return axon_ucx.rma;
}

int axon_ucx_rma_mem_map(void *addr, size_t len, struct axon_ucx_rma_mem *m)
{
    memset(m, 0, sizeof(*m));
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = addr,
        .length = len,
    };
    axon_ucx_lock();
    ucs_status_t st = ucp_mem_map(axon_ucx.context, &params, &m->memh);
    if (st == UCS_OK) {
        st = ucp_rkey_pack(axon_ucx.context, m->memh, &m->rkey, &m->rkey_len);
        if (st != UCS_OK) {
            ucp_mem_unmap(axon_ucx.context, m->memh);
            m->memh = NULL;
        }
    }
    axon_ucx_unlock();
    if (st != UCS_OK) {
        axon_runtime_log_debug(1, "UCX would not register %zu bytes at %p for remote access: %s", len, addr,
                               ucs_status_string(st));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

void axon_ucx_rma_mem_unmap(struct axon_ucx_rma_mem *m)
{
    if (!m->memh)
        return;
    axon_ucx_lock();
    ucp_rkey_buffer_release(m->rkey);
    ucp_mem_unmap(axon_ucx.context, m->memh);
    axon_ucx_unlock();
    memset(m, 0, sizeof(*m));
}

int axon_ucx_rma_rkey_unpack(int world, const void *packed, ucp_rkey_h *rkey)
{
    ucp_ep_h ep;
    int rc = axon_ucx_ep_get(world, &ep);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_ucx_lock();
    ucs_status_t st = ucp_ep_rkey_unpack(ep, packed, rkey);
    axon_ucx_unlock();
    if (st != UCS_OK) {
        axon_runtime_log_debug(1, "UCX would not unpack rank %d's remote key: %s", world, ucs_status_string(st));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

void axon_ucx_rma_rkey_destroy(ucp_rkey_h rkey)
{
    if (!rkey)
        return;
    axon_ucx_lock();
    ucp_rkey_destroy(rkey);
    axon_ucx_unlock();
}

/* A put or get: issued, its request (if any) released; the endpoint's flush completes it. */
static int axon_ucx_rma_move(int world, bool put, void *buf, size_t len, uint64_t raddr, ucp_rkey_h rkey)
{
    ucp_ep_h ep;
    int rc = axon_ucx_ep_get(world, &ep);
    if (rc != MPI_SUCCESS)
        return rc;
    ucp_request_param_t param = {.op_attr_mask = 0};
    axon_ucx_lock();
    ucs_status_ptr_t sp =
        put ? ucp_put_nbx(ep, buf, len, raddr, rkey, &param) : ucp_get_nbx(ep, buf, len, raddr, rkey, &param);
    ucs_status_t st = UCS_OK;
    if (UCS_PTR_IS_ERR(sp))
        st = UCS_PTR_STATUS(sp);
    else if (sp)
        ucp_request_free(sp);
    axon_ucx_unlock();
    if (st != UCS_OK) {
        axon_runtime_log_debug(1, "UCX %s of %zu bytes with rank %d failed: %s", put ? "put" : "get", len, world,
                               ucs_status_string(st));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_ucx_rma_put(int world, const void *buf, size_t len, uint64_t raddr, ucp_rkey_h rkey)
{
    return axon_ucx_rma_move(world, true, (void *)buf, len, raddr, rkey);
}

int axon_ucx_rma_get(int world, void *buf, size_t len, uint64_t raddr, ucp_rkey_h rkey)
{
    return axon_ucx_rma_move(world, false, buf, len, raddr, rkey);
}

int axon_ucx_rma_flush_start(int world, ucs_status_ptr_t *flush)
{
    ucp_ep_h ep;
    int rc = axon_ucx_ep_get(world, &ep);
    if (rc != MPI_SUCCESS)
        return rc;
    ucp_request_param_t param = {.op_attr_mask = 0};
    axon_ucx_lock();
    *flush = ucp_ep_flush_nbx(ep, &param);
    axon_ucx_unlock();
    return UCS_PTR_IS_ERR(*flush) ? MPI_ERR_OTHER : MPI_SUCCESS;
}

bool axon_ucx_rma_flush_done(ucs_status_ptr_t flush)
{
    if (flush == NULL || UCS_PTR_IS_ERR(flush))
        return true;
    axon_ucx_lock();
    bool done = ucp_request_check_status(flush) != UCS_INPROGRESS;
    axon_ucx_unlock();
    return done;
}

int axon_ucx_rma_flush_end(ucs_status_ptr_t flush)
{
    if (flush == NULL)
        return MPI_SUCCESS;
    if (UCS_PTR_IS_ERR(flush))
        return MPI_ERR_OTHER;
    axon_ucx_lock();
    ucs_status_t st = ucp_request_check_status(flush);
    ucp_request_free(flush);
    axon_ucx_unlock();
    return st == UCS_OK ? MPI_SUCCESS : MPI_ERR_OTHER;
}
