/* Object pools (see axon_runtime_pool.h). */
#include "runtime/axon_runtime_pool.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(MPI_SUCCESS == 0, "axon_runtime_pool_alloc (inline) returns 0 for MPI_SUCCESS");

int axon_runtime_pool_init(struct axon_pool *pool, const char *name, size_t object_size)
{
    memset(pool, 0, sizeof(*pool));
    pool->name = name;
    pool->object_size = (object_size + 15) & ~(size_t)15; /* keep every object 16-byte aligned */
    pool->clear_size = pool->object_size;
    pool->chunks = calloc(AXON_POOL_MAX_CHUNKS, sizeof(char *));
    if (!pool->chunks)
        return MPI_ERR_NO_MEM;
    pthread_mutex_init(&pool->lock, NULL);
    pool->thread_safe = true;
    return MPI_SUCCESS;
}

void axon_runtime_pool_fini(struct axon_pool *pool)
{
    if (!pool->chunks)
        return;
    for (uint32_t c = 0; c < pool->nchunks; c++)
        free(pool->chunks[c]);
    free(pool->chunks);
    free(pool->free_list);
    pthread_mutex_destroy(&pool->lock);
    memset(pool, 0, sizeof(*pool));
}

/* Adds one chunk; its objects go on the free list, lowest index on top. Called with the lock held. */
static int axon_pool_grow(struct axon_pool *pool)
{
    if (pool->nchunks == AXON_POOL_MAX_CHUNKS)
        return MPI_ERR_NO_MEM;
    uint32_t total = (pool->nchunks + 1) * AXON_POOL_CHUNK_OBJECTS;
    char *chunk = calloc(1, pool->object_size * AXON_POOL_CHUNK_OBJECTS + AXON_POOL_CHUNK_OBJECTS);
    uint32_t *free_list = realloc(pool->free_list, sizeof(uint32_t) * total);
    if (free_list)
        pool->free_list = free_list;
    if (!chunk || !free_list) {
        free(chunk);
        return MPI_ERR_NO_MEM;
    }
    uint32_t first = pool->nchunks * AXON_POOL_CHUNK_OBJECTS;
    for (uint32_t i = 0; i < AXON_POOL_CHUNK_OBJECTS; i++)
        pool->free_list[pool->nfree++] = first + AXON_POOL_CHUNK_OBJECTS - 1 - i;
    pool->free_capacity = total;
    pool->chunks[pool->nchunks] = chunk;
    __atomic_store_n(&pool->nchunks, pool->nchunks + 1, __ATOMIC_RELEASE);
    return MPI_SUCCESS;
}

static inline void axon_pool_lock(struct axon_pool *pool)
{
    if (pool->thread_safe)
        pthread_mutex_lock(&pool->lock);
}

static inline void axon_pool_unlock(struct axon_pool *pool)
{
    if (pool->thread_safe)
        pthread_mutex_unlock(&pool->lock);
}

void axon_runtime_pool_set_clear_size(struct axon_pool *pool, size_t bytes)
{
    pool->clear_size = bytes < pool->object_size ? bytes : pool->object_size;
}

void axon_runtime_pool_set_thread_safe(struct axon_pool *pool, bool thread_safe)
{
    pool->thread_safe = thread_safe;
}

int axon_runtime_pool_alloc_locked(struct axon_pool *pool, void **object, uint32_t *index)
{
    axon_pool_lock(pool);
    if (pool->nfree == 0) {
        int rc = axon_pool_grow(pool);
        if (rc != MPI_SUCCESS) {
            axon_pool_unlock(pool);
            return rc;
        }
    }
    uint32_t i = pool->free_list[--pool->nfree];
    pool->nlive++;
    axon_pool_unlock(pool);
    void *obj = axon_pool_address(pool, i);
    memset(obj, 0, pool->clear_size);
    __atomic_store_n(axon_pool_live_flag(pool, i), 1, __ATOMIC_RELEASE);
    *object = obj;
    *index = i;
    return MPI_SUCCESS;
}

void axon_runtime_pool_free_locked(struct axon_pool *pool, uint32_t index)
{
    axon_pool_lock(pool);
    if (index < pool->nchunks * AXON_POOL_CHUNK_OBJECTS && *axon_pool_live_flag(pool, index)) {
        __atomic_store_n(axon_pool_live_flag(pool, index), 0, __ATOMIC_RELEASE);
        pool->nlive--;
        pool->free_list[pool->nfree++] = index;
    }
    axon_pool_unlock(pool);
}
