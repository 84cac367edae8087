/* Object pools: fixed-size objects carved from chunks that are never freed while the pool lives, each
 * object known by a dense index. MPI handles of objects made at run time (requests, communicators,
 * datatypes, ...) carry that index, so a handle turns into its object with two loads and no search, and
 * a steady state allocates nothing: freed objects go back to a free list.
 * Thread-safe: a mutex guards the free list, unless the owner says only one thread at a time uses the
 * pool (below MPI_THREAD_MULTIPLE, where the lock would be pure cost on every message). */
#ifndef AXON_RUNTIME_POOL_H
#define AXON_RUNTIME_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AXON_POOL_CHUNK_SHIFT 10 /* 1024 objects a chunk */
#define AXON_POOL_MAX_CHUNKS 65536 /* 64M objects: an MPICH direct handle holds a 26-bit index */

struct axon_pool {
    size_t object_size;      /* rounded up to hold the free-list link */
    const char *name;        /* for messages */
    pthread_mutex_t lock;
    bool thread_safe;        /* take the lock (the default) */
    size_t clear_size;       /* bytes of a new object that alloc zeroes (object_size unless told less) */
    /* [AXON_POOL_MAX_CHUNKS], filled as the pool grows. A chunk is its objects followed by one byte per
     * object, 1 while it is allocated: a stale handle is caught, and growth never moves what a reader
     * in another thread may be looking at. */
    char **chunks;
    uint32_t nchunks;
    uint32_t *free_list;     /* indices of free objects, a stack */
    uint32_t nfree, free_capacity;
    uint64_t nlive;
};

int axon_runtime_pool_init(struct axon_pool *pool, const char *name, size_t object_size);
void axon_runtime_pool_fini(struct axon_pool *pool);
/* Whether the pool guards itself against concurrent callers (true after init). */
void axon_runtime_pool_set_thread_safe(struct axon_pool *pool, bool thread_safe);
/* A zeroed object and its index; MPI_ERR_NO_MEM when the pool cannot grow. */
/* Only the first bytes of an object are zeroed by alloc: the rest is for the user to set before use (a
 * request's layout cursor and message header, hundreds of bytes written on every message otherwise). */
void axon_runtime_pool_set_clear_size(struct axon_pool *pool, size_t bytes);
int axon_runtime_pool_alloc(struct axon_pool *pool, void **object, uint32_t *index);
void axon_runtime_pool_free(struct axon_pool *pool, uint32_t index);
/* The live object at index, or NULL (index never handed out, or freed). */
void *axon_runtime_pool_get(struct axon_pool *pool, uint32_t index);

#endif
