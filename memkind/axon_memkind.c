/* The table of memory kinds and the operations of the layer as a whole: bringing every kind's support
 * up at MPI_Init and down at MPI_Finalize, and the questions asked of whichever device kind is there
 * (this rank's GPU). The per-buffer and per-device operations are inline in axon_memkind.h. */
#include "memkind/axon_memkind.h"

const struct axon_memkind_ops *const axon_memkind_ops[AXON_MEMKIND_COUNT] = {
    [AXON_MEMKIND_HOST] = &axon_memkind_host_ops,
    [AXON_MEMKIND_CUDA] = &axon_memkind_cuda_ops,
};

const struct axon_memkind_ops *axon_memkind_get(enum axon_memkind kind)
{
    return (unsigned)kind < AXON_MEMKIND_COUNT ? axon_memkind_ops[kind] : NULL;
}

int axon_memkind_init(char *err, size_t errlen)
{
    for (int k = 0; k < AXON_MEMKIND_COUNT; k++) {
        int rc = axon_memkind_ops[k]->init(err, errlen);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* In the reverse order of init. */
void axon_memkind_finalize(void)
{
    for (int k = AXON_MEMKIND_COUNT - 1; k >= 0; k--)
        axon_memkind_ops[k]->finalize();
}

/* The first device kind that is on, or the host (whose entry says "no GPU"). */
static enum axon_memkind axon_memkind_device_kind(void)
{
    for (int k = 0; k < AXON_MEMKIND_COUNT; k++)
        if (k != AXON_MEMKIND_HOST && axon_memkind_ops[k]->enabled())
            return (enum axon_memkind)k;
    return AXON_MEMKIND_HOST;
}

int axon_memkind_gpu_ident(int host_local_rank, struct axon_runtime_gpu_ident *out)
{
    return axon_memkind_ops[axon_memkind_device_kind()]->gpu_ident(host_local_rank, out);
}

bool axon_memkind_ipc_any(void)
{
    enum axon_memkind k = axon_memkind_device_kind();
    return k != AXON_MEMKIND_HOST && axon_memkind_ops[k]->ipc_available();
}

bool axon_memkind_default_device(enum axon_memkind *kind, int *device)
{
    enum axon_memkind k = axon_memkind_device_kind();
    int d = axon_memkind_ops[k]->default_device();
    if (d < 0)
        return false;
    *kind = k;
    *device = d;
    return true;
}
