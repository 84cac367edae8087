/* Collectives inside one NVLink domain on GPU memory: the ranks read each other's buffers directly
 * through CUDA IPC, with the reduction kernels reading the peers' memory in place, instead of moving
 * messages (coll/axon_coll_domain.c). */
#ifndef AXON_COLL_DOMAIN_H
#define AXON_COLL_DOMAIN_H

#include "coll/axon_coll_sched.h"

/* AXON_COLL_NEEDS_DOMAIN when the schedule's group lies in one NVLink domain, CUDA support is on with
 * IPC and the reduction kernels, and the schedule's operation commutes and has a kernel for its packed,
 * contiguous datatype: what every member knows alike (whatever memory its own buffers are in). */
unsigned axon_coll_domain_have(const struct axon_coll_sched *s);
/* The same for the collectives without an operation: the group is one NVLink domain with CUDA IPC. */
unsigned axon_coll_domain_group_have(const struct axon_coll_sched *s);

/* Allreduce: each rank reduces its slice of the vector by kernels that read every peer's input in
 * place, the ranks wait for each other, then each copies every other slice straight from its owner.
 * Any member's buffers may be host memory (their data goes through device scratch). */
void axon_coll_domain_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                const struct axon_dtype_layout *dt);
/* Reduce: the same, but the slices reach only the root's result (fused: the one result every rank's
 * kernel writes its slice into; else the root copies every slice from its owner). */
void axon_coll_domain_reduce_root(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                  const struct axon_dtype_layout *dt, int root);
/* Reduce_scatter: the same first half, rank i's slice being its counts[i] elements; it reaches out after
 * the barrier (in place, out overlaps the input the peers read). */
void axon_coll_domain_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                                     const struct axon_dtype_layout *dt);

/* Bcast: the root publishes its buffer (in place when the GPU exports it, else a packed copy in device
 * scratch), every other rank copies it straight into its own buffer, then a barrier. */
struct axon_coll_block;
void axon_coll_domain_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                            int root);
/* Allgather (any blocks, the v form too): each rank publishes its block so, every rank copies every
 * other block straight from its owner, then a barrier. Layouts may differ between ranks: a layout with
 * gaps is packed or unpacked by the CPU through host scratch (such a rank's buffers are host memory). */
void axon_coll_domain_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                const struct axon_coll_block *blocks);
/* Alltoall, equal blocks (send NULL: in place): each rank publishes its blocks one after another (its
 * send buffer itself when they lie so and the GPU exports it, else a packed copy in device scratch, and
 * always in place, where the receive blocks are overwritten while the peers read), every rank copies its
 * block from every member's data straight into its receive blocks (on GPU buffers one copy-list launch
 * per 16 members), then a barrier. */
void axon_coll_domain_alltoall(struct axon_coll_sched *s, const struct axon_coll_block *send,
                               const struct axon_coll_block *recv);

#endif
