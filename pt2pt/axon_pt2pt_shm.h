/* The node's shared-memory rings: point-to-point messages between the ranks of one node without UCX.
 *
 * Every rank owns one segment holding a ring per other local rank (the messages that rank sends it).
 * A message is a record of 32-byte slots: a 24-byte envelope, then the payload; the sender writes it and
 * publishes it with one release store of its position, the receiver sees it with one load of the slot it
 * expects next. A small message is half a cache line from the sender's cache to the receiver's: UCX's active
 * messages spend several times that in their own headers, callbacks and descriptors (the latency target
 * of the point-to-point issue is UCX's bare floor, which our matching sits on top of).
 *
 * Only eager messages take the rings (up to AXON_PT2PT_SHM_MAX bytes, and never beyond
 * AXON_EAGER_LIMIT); larger ones, and any message that finds its ring full, go through UCX. MPI's
 * non-overtaking rule spans both paths, so each message carries how many messages of the other path its
 * sender had sent to this peer before it: a ring record waits at the head of its ring until those active
 * messages have arrived, and an active message first takes the ring records sent before it (they are
 * already in the ring: a record is complete before the sender moves on). Synchronous sends are
 * acknowledged through the ring too.
 *
 * Everything here runs under the transport lock (axon_ucx_lock), like the rest of the engine. */
#ifndef AXON_PT2PT_SHM_H
#define AXON_PT2PT_SHM_H

#include "pt2pt/axon_pt2pt_internal.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What this rank knows of one other rank of its node. */
struct axon_pt2pt_shm_peer {
    int world;                 /* its rank in MPI_COMM_WORLD */
    /* Our ring in its segment (we write it) ... */
    struct axon_pt2pt_shm_ring *out;
    uint64_t out_nslots;       /* its geometry (a power of two; the owner chose it) */
    uint64_t out_head;         /* the next slot we write */
    uint64_t out_tail_seen;    /* the peer's consumed position, as last read */
    /* ... and its ring in ours (we read it). */
    struct axon_pt2pt_shm_ring *in;
    uint64_t in_nslots;
    uint64_t in_tail;          /* the next slot we read */
    /* Messages sent and received on each path, for the non-overtaking rule across the two. */
    uint32_t shm_sent, ucx_sent;
    uint32_t shm_recvd, ucx_recvd;
    int pid;                   /* its process, for single copies of large messages (process_vm_readv) */
    uint32_t cma_pending;      /* our single-copy sends it has not acknowledged yet: while there are, it
                                * is busy reading them, and we copy its messages to us alone */
};

struct axon_pt2pt_shm {
    size_t max;                /* largest payload a ring takes */
    uint64_t below;            /* max + 1: payloads below it take the rings; 0 while they are off */
    struct axon_pt2pt_shm_peer **of_world; /* by world rank: NULL for ranks of other nodes and self */
    struct axon_pt2pt_shm_peer *peers;     /* the other local ranks */
    int npeers;
};

extern struct axon_pt2pt_shm axon_pt2pt_shm;

/* MPI_Init, before the exchange of addresses: makes this rank's segment and publishes its name. Does
 * nothing for a rank alone on its node or with AXON_PT2PT_SHM_MAX=0. */
int axon_pt2pt_shm_init(void);
/* After the exchange: maps the other local ranks' segments, then removes this rank's name once every
 * one of them has mapped it (nothing is left in /dev/shm however the job ends later). */
int axon_pt2pt_shm_connect(void);
/* MPI_Finalize: this rank is done with MPI (its peers' watchdogs let its process end); the segments stay
 * mapped, and peers watched, through the transport's last fence, until axon_pt2pt_shm_release. */
void axon_pt2pt_shm_finalize(void);
void axon_pt2pt_shm_release(void);

/* The ring peer for a message of bytes to world rank `world`, or NULL when the message goes by UCX. */
static inline struct axon_pt2pt_shm_peer *axon_pt2pt_shm_route(int world, int64_t bytes)
{
    if ((uint64_t)bytes >= axon_pt2pt_shm.below)
        return NULL;
    return axon_pt2pt_shm.of_world[world];
}

/* The local peer that world rank `world` is, or NULL (for ordering UCX messages against the rings). */
static inline struct axon_pt2pt_shm_peer *axon_pt2pt_shm_peer_of(int world)
{
    return axon_pt2pt_shm.of_world ? axon_pt2pt_shm.of_world[world] : NULL;
}

/* Room for a message of length payload bytes in the ring to peer: where to write the payload, or NULL
 * when the ring is full (the message then goes by UCX). sync: a synchronous send (its record carries the
 * request to acknowledge). Nothing is visible to the peer until axon_pt2pt_shm_commit; no other record
 * may be reserved in between. */
void *axon_pt2pt_shm_reserve(struct axon_pt2pt_shm_peer *peer, size_t length, bool sync);
/* Publishes the reserved record: the envelope of hdr (context, source, tag, flags, sync_index). */
void axon_pt2pt_shm_commit(struct axon_pt2pt_shm_peer *peer, const struct axon_pt2pt_hdr *hdr, size_t length);
/* The whole of a standard-mode send of contiguous bytes: reserve, copy and commit in one (the message
 * rate of small sends depends on it). False when the ring is full. */
bool axon_pt2pt_shm_send_eager(struct axon_pt2pt_shm_peer *peer, uint32_t context_id, int source, int tag,
                               const void *data, size_t length);
/* Copies n bytes, at most 8 (a one-slot record's payload), without a call to memcpy: two overlapping
 * word moves, or a loop for fewer than 4 bytes. */
static inline void axon_shm_copy_small(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}
/* Acknowledges a synchronous send of peer's (its request index) through the ring; false when full. */
bool axon_pt2pt_shm_send_ack(struct axon_pt2pt_shm_peer *peer, uint32_t sync_index);

/* Large messages between ranks of a node: the sender puts a descriptor of its buffer (struct
 * axon_pt2pt_cma_desc) in the ring, flagged AXON_PT2PT_FLAG_CMA and synchronous; the receiver, once
 * matched, reads the data straight from the sender's memory with process_vm_readv (one copy, by the
 * kernel, as Open MPI's shared-memory transport does) and acknowledges. cma_ok: peer can read our memory
 * (it tried at MPI_Init); cma_read: one such read, whole. */
struct axon_pt2pt_cma_desc {
    uint64_t addr;
    uint64_t bytes;
};
bool axon_pt2pt_shm_cma_ok(struct axon_pt2pt_shm_peer *peer);
int axon_pt2pt_shm_cma_read(struct axon_pt2pt_shm_peer *peer, void *dst, uint64_t src, size_t bytes);

/* Both cores copy a large message (AXON_PT2PT_CMA_SPLIT): the receiver, once matched, puts a request in
 * its ring to the sender to write the message's second half into the receive buffer
 * (process_vm_writev; the right to do so is the one tried at MPI_Init, ptrace's, which covers reading
 * and writing alike), reads the first half itself meanwhile, and acknowledges the message as usual. The
 * sender takes the request in its progress, writes, and answers through its ring; the receive completes
 * with that answer. The acknowledgement follows the request in the same ring, so the sender has written
 * before its send completes. A sender busy elsewhere (copying its own receives, in a bidirectional
 * exchange) must not keep the receiver waiting: whoever comes first claims the second half in the
 * request's claim word, so a receiver done with its half before the sender started takes the rest
 * back and copies it itself (and no answer comes). */
struct axon_pt2pt_cma_put {
    uint64_t src;   /* in the sender's memory */
    uint64_t dst;   /* in the receiver's */
    uint64_t bytes;
    uint64_t done;  /* the receiver's request (its address there), named in the answer */
};
/* Puts the request in the ring to peer, and only if the acknowledgement that is to follow it fits too
 * (so that it cannot take UCX's path and overtake the request). Returns the request's claim word, or
 * NULL when they do not both fit. */
_Atomic uint32_t *axon_pt2pt_shm_send_put(struct axon_pt2pt_shm_peer *peer, const struct axon_pt2pt_cma_put *put);
/* The receiver takes the second half back: true when the sender had not claimed it (it never will). To
 * be called before anything else is written to that ring (the request's slots are still the request). */
static inline bool axon_pt2pt_shm_put_reclaim(_Atomic uint32_t *claim)
{
    uint32_t free_word = 0;
    return atomic_compare_exchange_strong_explicit(claim, &free_word, 2, memory_order_acq_rel, memory_order_acquire);
}
/* The receiving engine's side of the answer (pt2pt/axon_pt2pt_recv.c): the part was written, or the
 * write failed (failed). */
void axon_pt2pt_cma_put_done(uint64_t done, bool failed);

/* An active message from peer arrived that was sent after shm_before ring records: takes those first. */
void axon_pt2pt_shm_drain(struct axon_pt2pt_shm_peer *peer, uint32_t shm_before);

/* Takes what has arrived in the rings (the progress call's first poll); the number of records taken. */
int axon_pt2pt_shm_poll(void);

#endif
