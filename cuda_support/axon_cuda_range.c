/* The memory-type cache's storage: disjoint address ranges in an array sorted by base, found by binary
 * search. A process has few live GPU allocations (allocators such as PyTorch's carve tensors out of
 * large segments), so an array beats a tree: lookups touch a few cache lines and insertion's memmove
 * is short. Stale entries leave when a new range overlaps them, when their id no longer matches
 * (axon_cuda_memtype.c removes them), or, oldest first, when the set is full. */
#include "cuda_support/axon_cuda_range_internal.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

void axon_cuda_range_set_init(struct axon_cuda_range_set *s, size_t max)
{
    memset(s, 0, sizeof(*s));
    s->max = max ? max : 1;
}

void axon_cuda_range_set_destroy(struct axon_cuda_range_set *s)
{
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

void axon_cuda_range_set_clear(struct axon_cuda_range_set *s)
{
    s->n = 0;
}

size_t axon_cuda_range_set_count(const struct axon_cuda_range_set *s)
{
    return s->n;
}

/* Index of the first entry whose base is above addr (n when none is). */
static size_t axon_cuda_range_upper(const struct axon_cuda_range_set *s, uintptr_t addr)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool axon_cuda_range_set_lookup(const struct axon_cuda_range_set *s, uintptr_t addr, struct axon_cuda_range *out)
{
    size_t i = axon_cuda_range_upper(s, addr);
    if (i == 0)
        return false;
    const struct axon_cuda_range *r = &s->v[i - 1];
    /* Entries do not overlap, so only the last one starting at or below addr can hold it. */
    if (addr - r->base >= r->size)
        return false;
    *out = *r;
    return true;
}

static void axon_cuda_range_erase(struct axon_cuda_range_set *s, size_t from, size_t to)
{
    if (from >= to)
        return;
    memmove(&s->v[from], &s->v[to], (s->n - to) * sizeof(s->v[0]));
    s->n -= to - from;
}

bool axon_cuda_range_set_remove(struct axon_cuda_range_set *s, uintptr_t base, uint64_t id)
{
    size_t i = axon_cuda_range_upper(s, base);
    if (i == 0 || s->v[i - 1].base != base || s->v[i - 1].id != id)
        return false;
    axon_cuda_range_erase(s, i - 1, i);
    return true;
}

int axon_cuda_range_set_insert(struct axon_cuda_range_set *s, const struct axon_cuda_range *r)
{
    if (r->size == 0 || r->base + r->size <= r->base)
        return MPI_ERR_ARG;
    /* Grow before touching anything, so a failure leaves the set as it was. */
    if (s->n == s->cap && s->cap < s->max) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        if (cap > s->max)
            cap = s->max;
        struct axon_cuda_range *v = realloc(s->v, cap * sizeof(*v));
        if (!v)
            return MPI_ERR_NO_MEM;
        s->v = v;
        s->cap = cap;
    }
    /* The overlapping entries are contiguous in the array: back from the first entry that starts at or
     * above r's end, while entries end after r's base (ends are sorted as bases are: nothing overlaps). */
    uintptr_t end = r->base + r->size;
    size_t hi = axon_cuda_range_upper(s, end - 1);
    size_t lo = hi;
    while (lo > 0 && s->v[lo - 1].base + s->v[lo - 1].size > r->base)
        lo--;
    axon_cuda_range_erase(s, lo, hi);

    if (s->n == s->max) {
        size_t oldest = 0;
        for (size_t i = 1; i < s->n; i++)
            if (s->v[i].stamp < s->v[oldest].stamp)
                oldest = i;
        axon_cuda_range_erase(s, oldest, oldest + 1);
        if (oldest < lo)
            lo--;
    }
    memmove(&s->v[lo + 1], &s->v[lo], (s->n - lo) * sizeof(s->v[0]));
    s->v[lo] = *r;
    s->v[lo].stamp = s->next_stamp++;
    s->n++;
    return MPI_SUCCESS;
}
