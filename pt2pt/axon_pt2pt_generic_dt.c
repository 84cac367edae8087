/* The UCX generic datatype through which non-contiguous data streams: UCX asks for the packed bytes
 * of a send (or hands the bytes of a receive) piece by piece at given offsets, and the request's
 * data-layout cursor turns them into the user's layout. Bytes beyond a receive's buffer are dropped:
 * the request reports the truncation itself. */
#include "pt2pt/axon_pt2pt_internal.h"

#include <string.h>

ucp_datatype_t axon_pt2pt_generic_dt;

static void *axon_generic_start(void *context, void *buffer, size_t count)
{
    (void)context;
    (void)count;
    return buffer; /* the request */
}

static void *axon_generic_start_pack(void *context, const void *buffer, size_t count)
{
    return axon_generic_start(context, (void *)buffer, count);
}

static size_t axon_generic_packed_size(void *state)
{
    struct axon_request *req = state;
    /* A send packs all its data; a receive takes the whole message (req->bytes, set before the
     * receive starts) and keeps what fits. */
    return req->kind == AXON_REQUEST_SEND ? (size_t)(req->count * req->dt.size) : (size_t)req->bytes;
}

static size_t axon_generic_pack(void *state, size_t offset, void *dest, size_t max_length)
{
    struct axon_request *req = state;
    if (req->cursor.position != (int64_t)offset)
        axon_dloop_cursor_seek(&req->cursor, (int64_t)offset);
    return (size_t)axon_dloop_pack(&req->cursor, req->buf, dest, (int64_t)max_length);
}

static ucs_status_t axon_generic_unpack(void *state, size_t offset, const void *src, size_t length)
{
    struct axon_request *req = state;
    int64_t capacity = req->count * req->dt.size;
    if ((int64_t)offset >= capacity)
        return UCS_OK;
    if ((int64_t)(offset + length) > capacity)
        length = (size_t)(capacity - (int64_t)offset);
    if (req->dt.contig) {
        memcpy((char *)req->buf + req->dt.true_lb + offset, src, length);
        return UCS_OK;
    }
    if (req->cursor.position != (int64_t)offset)
        axon_dloop_cursor_seek(&req->cursor, (int64_t)offset);
    axon_dloop_unpack(&req->cursor, req->buf, src, (int64_t)length);
    return UCS_OK;
}

static void axon_generic_finish(void *state)
{
    (void)state; /* the request's cursor lives until the request is released */
}

static const ucp_generic_dt_ops_t axon_generic_ops = {
    .start_pack = axon_generic_start_pack,
    .start_unpack = axon_generic_start,
    .packed_size = axon_generic_packed_size,
    .pack = axon_generic_pack,
    .unpack = axon_generic_unpack,
    .finish = axon_generic_finish,
};

int axon_pt2pt_generic_dt_create(void)
{
    return ucp_dt_create_generic(&axon_generic_ops, NULL, &axon_pt2pt_generic_dt) == UCS_OK ? MPI_SUCCESS
                                                                                           : MPI_ERR_INTERN;
}
