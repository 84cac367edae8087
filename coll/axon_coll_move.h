/* Helpers of the data-movement collectives (barrier, bcast, gather, scatter, allgather, alltoall):
 * how an algorithm addresses a part of a rank's data. Algorithms that cut messages into segments, or
 * forward other ranks' blocks, agree between ranks only on bytes of the packed data; each rank then
 * decides alone whether its own layout reaches those bytes in place (contiguous data, whole elements,
 * blocks laid end to end) or through a packed copy. Either way the same bytes travel, so ranks with
 * different layouts of one type signature still match. Internal to coll/. */
#ifndef AXON_COLL_MOVE_H
#define AXON_COLL_MOVE_H

#include "coll/coll.h"

/* Bytes of packed data in a block. */
static inline int64_t axon_coll_block_bytes(const struct axon_coll_block *b)
{
    return b->count * b->dt.size;
}

/* The bytes [off, off + len) of block b's packed data as a block of its own, when b's layout reaches
 * them in place: contiguous data, or whole elements. False otherwise (the caller packs). */
bool axon_coll_block_part(const struct axon_coll_block *b, int64_t off, int64_t len, struct axon_coll_block *out);

/* Whether blocks[0..n) are equal counts of one layout laid end to end (what the MPI layer makes of
 * the uniform forms): a run of consecutive blocks is then one block. */
bool axon_coll_blocks_regular(const struct axon_coll_block *blocks, int n);
/* Blocks j .. j+m-1 of regular blocks as one block. */
void axon_coll_blocks_run(const struct axon_coll_block *blocks, int j, int m, struct axon_coll_block *out);

/* A packed scratch area as a block of bytes. */
void axon_coll_block_of_bytes(void *buf, int64_t bytes, struct axon_coll_block *out);

/* Schedule steps on whole blocks. */
void axon_coll_block_send(struct axon_coll_sched *s, const struct axon_coll_block *b, int peer);
void axon_coll_block_recv(struct axon_coll_sched *s, const struct axon_coll_block *b, int peer);
void axon_coll_block_copy(struct axon_coll_sched *s, const struct axon_coll_block *from,
                          const struct axon_coll_block *to);

/* A message of `bytes` bytes in one rank's buffer, cut by an algorithm into parts whose offsets are
 * multiples of a grain (and whose ends are too, or the message's end). When the rank's layout reaches
 * such parts in place, they are addressed there; otherwise the rank works on a packed copy, filled
 * first where the rank holds the data (the root of a bcast) and unpacked last where it receives it. */
struct axon_coll_msg {
    struct axon_coll_block user;
    char *packed; /* NULL: parts are addressed in the user's buffer */
    int64_t bytes;
};
/* Sets m up; a holder's packed copy is filled in the current round. */
void axon_coll_msg_init(struct axon_coll_sched *s, struct axon_coll_msg *m, void *buf, int64_t count,
                        const struct axon_dtype_layout *dt, int64_t grain, bool holder);
/* The part [off, off + len) of the message. */
void axon_coll_msg_part(const struct axon_coll_msg *m, int64_t off, int64_t len, struct axon_coll_block *out);
/* Ends the schedule of a receiver: its packed copy, if any, is unpacked into the user's buffer. */
void axon_coll_msg_finish(struct axon_coll_sched *s, const struct axon_coll_msg *m, bool holder);

/* Binomial trees over ranks relative to a root: rank rel's subtree is [rel, axon_coll_subtree_end),
 * its parent rel - lowbit(rel), its children rel + mask for each power of two mask below lowbit(rel). */
static inline int axon_coll_lowbit(int rel, int n)
{
    if (rel == 0) {
        int p = 1;
        while (p < n)
            p <<= 1;
        return p;
    }
    return rel & -rel;
}
static inline int axon_coll_subtree_end(int rel, int n)
{
    int64_t end = (int64_t)rel + axon_coll_lowbit(rel, n);
    return end < n ? (int)end : n;
}

#endif
