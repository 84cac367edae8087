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

/* Allreduce: each rank reduces its slice of the vector by kernels that read every peer's input in
 * place, the ranks wait for each other, then each copies every other slice straight from its owner.
 * Any member's buffers may be host memory (their data goes through device scratch). */
void axon_coll_domain_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                const struct axon_dtype_layout *dt);
/* Reduce_scatter: the same first half, rank i's slice being its counts[i] elements; it reaches out after
 * the barrier (in place, out overlaps the input the peers read). */
void axon_coll_domain_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                                     const struct axon_dtype_layout *dt);

#endif
