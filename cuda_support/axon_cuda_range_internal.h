/* A set of disjoint address ranges, each with what the driver said of it: the memory-type cache's
 * storage, kept free of CUDA types and of locking so it is pure logic a unit test can drive
 * (tests/unit/test_cuda_range.c). The caller locks (axon_cuda_memtype.c holds a rwlock around it). */
#ifndef AXON_CUDA_RANGE_INTERNAL_H
#define AXON_CUDA_RANGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct axon_cuda_range {
    uintptr_t base;
    size_t size;        /* > 0; base + size does not wrap */
    uint64_t id;        /* the driver's id of the allocation, compared on every use */
    uint64_t stamp;     /* insertion order (set by insert): the oldest goes first when the set is full */
    int type;           /* enum axon_cuda_memtype */
    int device;
    unsigned flags;     /* the caller's (which attribute validates the id) */
};

struct axon_cuda_range_set {
    struct axon_cuda_range *v; /* sorted by base; no two overlap */
    size_t n, cap;
    size_t max;                /* entries kept at most */
    uint64_t next_stamp;
};

/* An empty set that keeps at most max entries (max >= 1). */
void axon_cuda_range_set_init(struct axon_cuda_range_set *s, size_t max);
void axon_cuda_range_set_destroy(struct axon_cuda_range_set *s);
void axon_cuda_range_set_clear(struct axon_cuda_range_set *s);

/* Adds r. Every entry that overlaps it goes first: the driver has just said that r is one allocation,
 * so what overlapped was freed. When the set is full the oldest entry goes too. MPI_ERR_ARG for an
 * empty or wrapping range, MPI_ERR_NO_MEM when the array cannot grow (the set is unchanged then). */
int axon_cuda_range_set_insert(struct axon_cuda_range_set *s, const struct axon_cuda_range *r);
/* The entry holding addr, copied into *out (the caller may drop its lock before using it). */
bool axon_cuda_range_set_lookup(const struct axon_cuda_range_set *s, uintptr_t addr, struct axon_cuda_range *out);
/* Removes the entry at base if its id is id: a thread that found an entry stale removes that entry
 * only, never the fresher one another thread may have put at the same base meanwhile. */
bool axon_cuda_range_set_remove(struct axon_cuda_range_set *s, uintptr_t base, uint64_t id);
size_t axon_cuda_range_set_count(const struct axon_cuda_range_set *s);

#endif
