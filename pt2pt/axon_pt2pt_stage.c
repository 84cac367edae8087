/* Device buffers in point-to-point, staged through host memory: a send copies its data's span from the
 * GPU into a host copy and the engine sends that copy; a receive lands in a host copy (holding the
 * device's bytes first when the layout leaves gaps, so the gaps come back unchanged) that goes to the
 * GPU when the message is complete. Every protocol of the engine (the node's rings, UCX eager and
 * rendezvous, typed data) then moves device data unchanged, and nothing but the memory kinds' copies
 * (cuda_support/) ever reads or writes GPU memory.
 *
 * This is the first device protocol: correct for every buffer, one synchronous copy each side. CUDA IPC
 * on a node and staging in pipelined chunks through pinned buffers come next (ARCHITECTURE.md). */
#include "pt2pt/axon_pt2pt_internal.h"

#include "runtime/runtime.h"

#include <stdlib.h>

/* The bytes count elements of dt at buf touch: [buf + *lo, buf + *lo + *len). */
static void axon_pt2pt_stage_span(const struct axon_request *req, int64_t *lo, int64_t *len)
{
    const struct axon_dtype_layout *dt = &req->dt;
    int64_t stride = (req->count - 1) * dt->extent;
    *lo = dt->true_lb + (stride < 0 ? stride : 0);
    *len = (stride < 0 ? -stride : stride) + dt->true_extent;
}

int axon_pt2pt_stage_begin(struct axon_request *req, bool incoming)
{
    if (req->count == 0 || req->dt.size == 0)
        return MPI_SUCCESS;
    int64_t lo, len;
    axon_pt2pt_stage_span(req, &lo, &len);
    char *user = req->buf;
    struct axon_cuda_memtype_info info;
    int rc = axon_cuda_memtype_of(user + lo, &info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info.kind == AXON_CUDA_MEMKIND_HOST)
        return MPI_SUCCESS;
    char *host = malloc((size_t)len);
    if (!host)
        return MPI_ERR_NO_MEM;
    const struct axon_cuda_memkind_ops *ops = axon_cuda_memkind_get(info.kind);
    /* A send needs the data; a receive into a layout with gaps needs them too, to give them back. */
    if (!incoming || !req->dt.contig) {
        rc = ops->copy_to_host(host, user + lo, (size_t)len, &info);
        if (rc != MPI_SUCCESS) {
            free(host);
            return rc;
        }
    }
    req->stage = host;
    req->stage_user = user;
    req->stage_lo = lo;
    req->stage_len = len;
    req->stage_info = info;
    /* The engine addresses data as buf + offset: the copy stands in at the same offsets. */
    req->buf = (void *)((uintptr_t)host - (uintptr_t)lo);
    return MPI_SUCCESS;
}

void axon_pt2pt_stage_end(struct axon_request *req)
{
    if (req->kind == AXON_REQUEST_RECV && !req->cancelled) {
        int64_t lo = req->stage_lo, len = req->stage_len;
        if (req->dt.contig) {
            /* Only what arrived (never beyond the buffer). */
            int64_t capacity = req->count * req->dt.size;
            len = req->bytes < capacity ? req->bytes : capacity;
        }
        const struct axon_cuda_memkind_ops *ops = axon_cuda_memkind_get(req->stage_info.kind);
        if (len > 0 && ops->copy_from_host(req->stage_user + lo, req->stage, (size_t)len, &req->stage_info) !=
                           MPI_SUCCESS &&
            req->status.MPI_ERROR == MPI_SUCCESS)
            req->status.MPI_ERROR = MPI_ERR_OTHER;
    }
    free(req->stage);
    req->stage = NULL;
    req->buf = req->stage_user; /* a persistent request starts again from the user's buffer */
}
