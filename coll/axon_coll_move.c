/* Helpers of the data-movement collectives (coll/axon_coll_move.h): parts of blocks addressed in
 * place, runs of regular blocks, packed copies of messages, and steps on whole blocks. */
#include "coll/axon_coll_move.h"

bool axon_coll_block_part(const struct axon_coll_block *b, int64_t off, int64_t len, struct axon_coll_block *out)
{
    if (b->dt.contig || len == 0) {
        /* Contiguous data is bytes from true_lb on. */
        axon_coll_block_of_bytes((char *)b->buf + b->dt.true_lb + off, len, out);
        return true;
    }
    if (off % b->dt.size != 0 || len % b->dt.size != 0)
        return false;
    out->buf = (char *)b->buf + off / b->dt.size * b->dt.extent;
    out->count = len / b->dt.size;
    out->dt = b->dt;
    return true;
}

static bool axon_coll_same_layout(const struct axon_dtype_layout *a, const struct axon_dtype_layout *b)
{
    return a->size == b->size && a->extent == b->extent && a->true_lb == b->true_lb && a->contig == b->contig &&
           a->loop == b->loop;
}

bool axon_coll_blocks_regular(const struct axon_coll_block *blocks, int n)
{
    for (int j = 1; j < n; j++)
        if (blocks[j].count != blocks[0].count || !axon_coll_same_layout(&blocks[j].dt, &blocks[0].dt) ||
            (char *)blocks[j].buf != (char *)blocks[0].buf + j * blocks[0].count * blocks[0].dt.extent)
            return false;
    return true;
}

void axon_coll_blocks_run(const struct axon_coll_block *blocks, int j, int m, struct axon_coll_block *out)
{
    out->buf = blocks[j].buf;
    out->count = blocks[j].count * m;
    out->dt = blocks[j].dt;
}

void axon_coll_block_of_bytes(void *buf, int64_t bytes, struct axon_coll_block *out)
{
    out->buf = buf;
    out->count = bytes;
    out->dt = axon_coll_bytes;
}

void axon_coll_block_send(struct axon_coll_sched *s, const struct axon_coll_block *b, int peer)
{
    axon_coll_sched_send(s, b->buf, b->count, &b->dt, peer);
}

void axon_coll_block_recv(struct axon_coll_sched *s, const struct axon_coll_block *b, int peer)
{
    axon_coll_sched_recv(s, b->buf, b->count, &b->dt, peer);
}

void axon_coll_block_copy(struct axon_coll_sched *s, const struct axon_coll_block *from,
                          const struct axon_coll_block *to)
{
    axon_coll_sched_copy(s, from->buf, from->count, &from->dt, to->buf, to->count, &to->dt);
}

void axon_coll_msg_init(struct axon_coll_sched *s, struct axon_coll_msg *m, void *buf, int64_t count,
                        const struct axon_dtype_layout *dt, int64_t grain, bool holder)
{
    m->user.buf = buf;
    m->user.count = count;
    m->user.dt = *dt;
    m->bytes = count * dt->size;
    m->packed = NULL;
    /* Every part starts at a multiple of the grain and ends at one or at the end (a whole number of
     * elements): whole elements exactly when the grain is. */
    if (dt->contig || m->bytes == 0 || grain % dt->size == 0)
        return;
    m->packed = axon_coll_sched_alloc(s, (size_t)m->bytes);
    if (m->packed && holder)
        axon_coll_sched_copy(s, buf, count, dt, m->packed, m->bytes, &axon_coll_bytes);
}

void axon_coll_msg_part(const struct axon_coll_msg *m, int64_t off, int64_t len, struct axon_coll_block *out)
{
    if (m->packed || !axon_coll_block_part(&m->user, off, len, out))
        axon_coll_block_of_bytes(m->packed + off, len, out);
}

void axon_coll_msg_finish(struct axon_coll_sched *s, const struct axon_coll_msg *m, bool holder)
{
    if (!m->packed || holder)
        return;
    axon_coll_sched_round(s);
    axon_coll_sched_copy(s, m->packed, m->bytes, &axon_coll_bytes, m->user.buf, m->user.count, &m->user.dt);
    axon_coll_sched_round(s);
}
