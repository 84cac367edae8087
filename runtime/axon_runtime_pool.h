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
#include <string.h>

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
static inline int axon_runtime_pool_alloc(struct axon_pool *pool, void **object, uint32_t *index);
static inline void axon_runtime_pool_free(struct axon_pool *pool, uint32_t index);
/* What the inline calls leave to a function: a thread-safe pool (its lock), growing, a bad index. */
int axon_runtime_pool_alloc_locked(struct axon_pool *pool, void **object, uint32_t *index);
void axon_runtime_pool_free_locked(struct axon_pool *pool, uint32_t index);
/* The live object at index, or NULL (index never handed out, or freed). */
static inline void *axon_runtime_pool_get(struct axon_pool *pool, uint32_t index);

/* ---- inline: a request is taken, looked up and given back on every message ---------------------- */

#define AXON_POOL_CHUNK_OBJECTS (1u << AXON_POOL_CHUNK_SHIFT)

static inline uint8_t *axon_pool_live_flag(struct axon_pool *pool, uint32_t index)
{
    return (uint8_t *)pool->chunks[index >> AXON_POOL_CHUNK_SHIFT] + pool->object_size * AXON_POOL_CHUNK_OBJECTS +
           (index & (AXON_POOL_CHUNK_OBJECTS - 1));
}

static inline void *axon_pool_address(struct axon_pool *pool, uint32_t index)
{
    return pool->chunks[index >> AXON_POOL_CHUNK_SHIFT] +
           (size_t)(index & (AXON_POOL_CHUNK_OBJECTS - 1)) * pool->object_size;
}

static inline int axon_runtime_pool_alloc(struct axon_pool *pool, void **object, uint32_t *index)
{
    if (__builtin_expect(pool->thread_safe || pool->nfree == 0, 0))
        return axon_runtime_pool_alloc_locked(pool, object, index);
    uint32_t i = pool->free_list[--pool->nfree];
    pool->nlive++;
    void *obj = axon_pool_address(pool, i);
    memset(obj, 0, pool->clear_size);
    __atomic_store_n(axon_pool_live_flag(pool, i), 1, __ATOMIC_RELEASE);
    *object = obj;
    *index = i;
    return 0; /* MPI_SUCCESS */
}

static inline void axon_runtime_pool_free(struct axon_pool *pool, uint32_t index)
{
    uint8_t *live;
    if (__builtin_expect(pool->thread_safe || index >= pool->nchunks * AXON_POOL_CHUNK_OBJECTS ||
                             !*(live = axon_pool_live_flag(pool, index)), 0)) {
        axon_runtime_pool_free_locked(pool, index);
        return;
    }
    __atomic_store_n(live, 0, __ATOMIC_RELEASE);
    pool->nlive--;
    pool->free_list[pool->nfree++] = index;
}

static inline void *axon_runtime_pool_get(struct axon_pool *pool, uint32_t index)
{
    /* Chunks never move and live flags are bytes: a racing reader sees either state, never freed memory. */
    if (index >= __atomic_load_n(&pool->nchunks, __ATOMIC_ACQUIRE) * AXON_POOL_CHUNK_OBJECTS)
        return NULL;
    if (!__atomic_load_n(axon_pool_live_flag(pool, index), __ATOMIC_ACQUIRE))
        return NULL;
    return axon_pool_address(pool, index);
}

#endif
