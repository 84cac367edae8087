/* Buffered sends: MPI_Buffer_attach, MPI_Buffer_detach, MPI_Bsend and MPI_Ibsend (and their large-count
 * _c forms, sharing their functions), and the copy step of persistent buffered sends (MPI_Bsend_init +
 * MPI_Start).
 *
 * A buffered send packs its data into the buffer the user attached and sends from there, so it completes
 * at once. The buffer holds a block per message in flight: a small header (the request that sends it, the
 * block's size and the next block in address order) followed by the packed data, so a message costs at
 * most MPI_BSEND_OVERHEAD bytes beyond its data, as the standard lets programs assume. Blocks are taken
 * first-fit from the gaps between live blocks and given back when their send completes; sends are reaped
 * lazily, whenever a new one needs room and when the buffer is detached. A message that finds no room
 * waits a while for messages in flight to give theirs back, then is MPI_ERR_BUFFER (the standard's
 * error: waiting longer could be forever). MPI_Buffer_flush and MPI_Buffer_iflush (MPI 4.1) wait for the
 * messages buffered so far to be sent, the second through a request that a progress hook completes. */
#include "mpi/axon_mpi_pt2pt_check.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define AXON_BSEND_ALIGN 16

struct axon_bsend_block {
    struct axon_bsend_block *next;  /* the next live block, in address order */
    struct axon_request *req;       /* the send of its data */
    size_t size;                    /* header and data, rounded up to AXON_BSEND_ALIGN */
    uint64_t seq;                   /* order of the buffered sends: what a flush waits for */
};

/* An MPI_Buffer_iflush waiting for the blocks up to target to be sent; its request is a generalized
 * request of the library's own. */
struct axon_bsend_flush {
    struct axon_bsend_flush *next;
    uint64_t target;
    struct axon_request *req;
};

#define AXON_BSEND_HEADER \
    ((sizeof(struct axon_bsend_block) + AXON_BSEND_ALIGN - 1) / AXON_BSEND_ALIGN * AXON_BSEND_ALIGN)
/* The header and the worst padding (alignment of the block start, rounding of its end). */
_Static_assert(AXON_BSEND_HEADER + 2 * AXON_BSEND_ALIGN <= MPI_BSEND_OVERHEAD,
               "a buffered message needs at most MPI_BSEND_OVERHEAD bytes beyond its data");

static struct {
    pthread_mutex_t lock;
    bool attached;
    char *user;        /* what the user attached, as given (MPI_Buffer_detach returns it) */
    int user_size;
    char *base, *end;  /* the aligned usable part */
    struct axon_bsend_block *blocks;
    uint64_t last_seq;                 /* of the newest buffered send */
    struct axon_bsend_flush *flushes;  /* nonblocking flushes not yet complete */
    bool flush_hooked;                 /* the progress hook that completes them is registered */
} axon_bsend = {.lock = PTHREAD_MUTEX_INITIALIZER};
static atomic_bool axon_bsend_flushing; /* flushes are pending: the hook has work */

/* Gives back the blocks whose sends have completed. Called with the lock held. */
static void axon_bsend_reap(void)
{
    struct axon_bsend_block **link = &axon_bsend.blocks;
    while (*link) {
        struct axon_bsend_block *b = *link;
        if (atomic_load_explicit(&b->req->complete, memory_order_acquire)) {
            axon_request_free(b->req);
            *link = b->next;
        } else {
            link = &b->next;
        }
    }
}

/* First fit among the gaps between live blocks; NULL if no gap holds size bytes. Called with the lock held.
 * The new block is linked in its place, with no request yet. */
static struct axon_bsend_block *axon_bsend_take(size_t size)
{
    char *gap = axon_bsend.base;
    struct axon_bsend_block **link = &axon_bsend.blocks;
    for (;;) {
        struct axon_bsend_block *next = *link;
        char *gap_end = next ? (char *)next : axon_bsend.end;
        if (gap_end >= gap && (size_t)(gap_end - gap) >= size) {
            struct axon_bsend_block *b = (struct axon_bsend_block *)gap;
            b->next = next;
            b->req = NULL;
            b->size = size;
            *link = b;
            return b;
        }
        if (!next)
            return NULL;
        gap = (char *)next + next->size;
        link = &next->next;
    }
}

static void axon_bsend_unlink(struct axon_bsend_block *victim)
{
    for (struct axon_bsend_block **link = &axon_bsend.blocks; *link; link = &(*link)->next) {
        if (*link == victim) {
            *link = victim->next;
            return;
        }
    }
}

static void axon_bsend_pack(void *packed, const void *buf, int64_t count, const struct axon_dtype_layout *dt,
                            int64_t bytes, int *rc)
{
    if (bytes == 0)
        return;
    if (dt->contig) {
        memcpy(packed, (const char *)buf + dt->true_lb, (size_t)bytes);
        return;
    }
    struct axon_dloop_cursor cursor;
    if (axon_dloop_cursor_init(&cursor, dt->loop, count, dt->extent) != 0) {
        *rc = MPI_ERR_NO_MEM;
        return;
    }
    axon_dloop_pack(&cursor, buf, packed, bytes);
    axon_dloop_cursor_fini(&cursor);
}

/* How many blocks are live. Called with the lock held. */
static int axon_bsend_live(void)
{
    int n = 0;
    for (struct axon_bsend_block *b = axon_bsend.blocks; b; b = b->next)
        n++;
    return n;
}

struct axon_bsend_room {
    size_t need;
    struct axon_bsend_block *block;
    struct timespec deadline;
};

static bool axon_bsend_past(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* Whether the wait for room can end: room was found, nothing is in flight any more, or the wait is over
 * (the lock then stays held; block is the room, or NULL). */
static bool axon_bsend_room_found(void *arg)
{
    struct axon_bsend_room *room = arg;
    pthread_mutex_lock(&axon_bsend.lock);
    axon_bsend_reap();
    room->block = axon_bsend_take(room->need);
    if (room->block || !axon_bsend.blocks || axon_bsend_past(&room->deadline))
        return true;
    pthread_mutex_unlock(&axon_bsend.lock);
    return false;
}

int axon_mpi_bsend_start(struct axon_pt2pt_comm *comm, const void *buf, int64_t count, const struct axon_dtype_layout *dt,
                         int dest, int tag, const char **why)
{
    *why = NULL;
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int64_t bytes = count * dt->size;
    size_t need = AXON_BSEND_HEADER + ((size_t)bytes + AXON_BSEND_ALIGN - 1) / AXON_BSEND_ALIGN * AXON_BSEND_ALIGN;
    pthread_mutex_lock(&axon_bsend.lock);
    if (!axon_bsend.attached) {
        pthread_mutex_unlock(&axon_bsend.lock);
        *why = "no buffer is attached (MPI_Buffer_attach)";
        return MPI_ERR_BUFFER;
    }
    axon_bsend_reap();
    struct axon_bsend_block *b = axon_bsend_take(need);
    if (!b && axon_bsend.blocks) {
        /* No room while earlier messages are in flight. Those received give their room back as soon as
         * their senders hear of it; those whose receives are not posted may never (a program that sends
         * to itself and receives afterwards), and the standard makes a buffered send without room an
         * error. So wait a while (AXON_BSEND_WAIT_MS) for the room, then fail rather than hang. */
        pthread_mutex_unlock(&axon_bsend.lock);
        struct axon_bsend_room room = {.need = need};
        clock_gettime(CLOCK_MONOTONIC, &room.deadline);
        room.deadline.tv_sec += axon_config.bsend_wait_ms / 1000;
        room.deadline.tv_nsec += axon_config.bsend_wait_ms % 1000 * 1000000L;
        if (room.deadline.tv_nsec >= 1000000000L) {
            room.deadline.tv_sec++;
            room.deadline.tv_nsec -= 1000000000L;
        }
        axon_ucx_wait(axon_bsend_room_found, &room);
        b = room.block; /* returned with the lock held */
    }
    if (!b) {
        static __thread char reason[256];
        int live = axon_bsend_live();
        if (live)
            snprintf(reason, sizeof(reason),
                     "the attached buffer (%d bytes) has no room for %zu more: %d buffered message%s still "
                     "wait%s for %s receive%s after %ld ms (AXON_BSEND_WAIT_MS)",
                     axon_bsend.user_size, need, live, live == 1 ? "" : "s", live == 1 ? "s" : "",
                     live == 1 ? "its" : "their", live == 1 ? "" : "s", axon_config.bsend_wait_ms);
        else
            snprintf(reason, sizeof(reason), "the attached buffer (%d bytes) is smaller than the %zu the message needs",
                     axon_bsend.user_size, need);
        pthread_mutex_unlock(&axon_bsend.lock);
        *why = reason;
        return MPI_ERR_BUFFER;
    }
    b->seq = ++axon_bsend.last_seq;
    void *packed = (char *)b + AXON_BSEND_HEADER;
    int rc = MPI_SUCCESS;
    axon_bsend_pack(packed, buf, count, dt, bytes, &rc);
    if (rc == MPI_SUCCESS) {
        struct axon_dtype_layout bytes_dt = {.size = 1, .extent = 1, .contig = true};
        rc = axon_pt2pt_isend(packed, bytes, &bytes_dt, dest, tag, comm, AXON_SEND_STANDARD, &b->req);
    }
    if (rc != MPI_SUCCESS) {
        axon_bsend_unlink(b);
        *why = "the send could not start";
    }
    pthread_mutex_unlock(&axon_bsend.lock);
    return rc;
}

struct axon_bsend_drain {
    bool empty;
};

static bool axon_bsend_drained(void *arg)
{
    struct axon_bsend_drain *d = arg;
    pthread_mutex_lock(&axon_bsend.lock);
    axon_bsend_reap();
    d->empty = axon_bsend.blocks == NULL;
    pthread_mutex_unlock(&axon_bsend.lock);
    return d->empty;
}

void axon_mpi_bsend_finalize(void)
{
    struct axon_bsend_drain d;
    if (axon_bsend.attached)
        axon_ucx_wait(axon_bsend_drained, &d);
    axon_bsend.attached = false;
    axon_bsend.user = axon_bsend.base = axon_bsend.end = NULL;
    axon_bsend.user_size = 0;
}

/* ---- flushing (MPI 4.1) ------------------------------------------------------------------------ */

/* Whether every buffered send up to target has been sent (its request complete). Reads only the
 * requests' flags, so a progress hook may ask. Called with the lock held. */
static bool axon_bsend_sent_upto(uint64_t target)
{
    for (struct axon_bsend_block *b = axon_bsend.blocks; b; b = b->next)
        if (b->seq <= target && b->req && !atomic_load_explicit(&b->req->complete, memory_order_acquire))
            return false;
    return true;
}

/* The progress hook: completes the nonblocking flushes whose sends are out. It runs under the transport
 * lock, which the buffered sends take inside this file's lock: so it only tries this one, and leaves the
 * flushes for the next round when a send holds it. */
static int axon_bsend_flush_progress(void)
{
    if (pthread_mutex_trylock(&axon_bsend.lock) != 0)
        return 0;
    int done = 0;
    for (struct axon_bsend_flush **link = &axon_bsend.flushes; *link;) {
        struct axon_bsend_flush *f = *link;
        if (axon_bsend_sent_upto(f->target)) {
            *link = f->next;
            axon_request_user_complete_locked(f->req);
            free(f);
            done++;
        } else {
            link = &f->next;
        }
    }
    atomic_store(&axon_bsend_flushing, axon_bsend.flushes != NULL);
    pthread_mutex_unlock(&axon_bsend.lock);
    return done;
}

struct axon_bsend_upto {
    uint64_t target;
};

static bool axon_bsend_flushed(void *arg)
{
    const struct axon_bsend_upto *u = arg;
    pthread_mutex_lock(&axon_bsend.lock);
    axon_bsend_reap();
    bool sent = axon_bsend_sent_upto(u->target);
    pthread_mutex_unlock(&axon_bsend.lock);
    return sent;
}

AXON_MPI_WEAK(Buffer_flush)
int PMPI_Buffer_flush(void)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Buffer_flush");
    /* Every message buffered so far leaves (its send completes); later ones are not waited for. */
    pthread_mutex_lock(&axon_bsend.lock);
    struct axon_bsend_upto u = {axon_bsend.last_seq};
    pthread_mutex_unlock(&axon_bsend.lock);
    axon_ucx_wait(axon_bsend_flushed, &u);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Buffer_iflush)
int PMPI_Buffer_iflush(MPI_Request *request)
{
    static const char func[] = "MPI_Buffer_iflush";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!request)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "request is a NULL pointer");
    /* A generalized request with no callbacks: waits and tests treat it as any request, and it
     * completes from the progress hook (or at once, with nothing to wait for). */
    MPI_Request handle;
    int rc = PMPI_Grequest_start(NULL, NULL, NULL, NULL, &handle);
    if (rc != MPI_SUCCESS)
        return rc;
    struct axon_request *req = axon_mpi_request_get(handle);
    struct axon_bsend_flush *f = malloc(sizeof(*f));
    if (!f) {
        PMPI_Grequest_complete(handle);
        PMPI_Request_free(&handle);
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for a flush");
    }
    pthread_mutex_lock(&axon_bsend.lock);
    *f = (struct axon_bsend_flush){axon_bsend.flushes, axon_bsend.last_seq, req};
    bool queued = false;
    if (axon_bsend_sent_upto(f->target)) {
        axon_request_user_complete(req);
    } else {
        if (!axon_bsend.flush_hooked) {
            rc = axon_ucx_progress_hook_add(axon_bsend_flush_progress, &axon_bsend_flushing);
            axon_bsend.flush_hooked = rc == MPI_SUCCESS;
        }
        if (rc == MPI_SUCCESS) {
            axon_bsend.flushes = f;
            atomic_store(&axon_bsend_flushing, true);
            queued = true;
        }
    }
    pthread_mutex_unlock(&axon_bsend.lock);
    if (!queued)
        free(f);
    if (rc != MPI_SUCCESS) {
        PMPI_Grequest_complete(handle);
        PMPI_Request_free(&handle);
        return axon_mpi_error(NULL, func, rc, "no room for the progress hook of flushes");
    }
    *request = handle;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size)
{
    static const char func[] = "MPI_Buffer_attach";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (size < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size %d is negative", size);
    if (!buffer && size > 0)
        return axon_mpi_error(NULL, func, MPI_ERR_BUFFER, "buffer is NULL with size %d", size);
    pthread_mutex_lock(&axon_bsend.lock);
    if (axon_bsend.attached) {
        pthread_mutex_unlock(&axon_bsend.lock);
        return axon_mpi_error(NULL, func, MPI_ERR_BUFFER, "a buffer is already attached");
    }
    uintptr_t start = ((uintptr_t)buffer + AXON_BSEND_ALIGN - 1) & ~(uintptr_t)(AXON_BSEND_ALIGN - 1);
    uintptr_t end = ((uintptr_t)buffer + (uintptr_t)size) & ~(uintptr_t)(AXON_BSEND_ALIGN - 1);
    axon_bsend.attached = true;
    axon_bsend.user = buffer;
    axon_bsend.user_size = size;
    axon_bsend.base = (char *)start;
    axon_bsend.end = end > start ? (char *)end : (char *)start;
    axon_bsend.blocks = NULL;
    pthread_mutex_unlock(&axon_bsend.lock);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    static const char func[] = "MPI_Buffer_detach";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!buffer_addr || !size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "buffer_addr or size is a NULL pointer");
    /* The standard: detach blocks until every message in the buffer has been sent. */
    struct axon_bsend_drain d;
    if (axon_bsend.attached)
        axon_ucx_wait(axon_bsend_drained, &d);
    pthread_mutex_lock(&axon_bsend.lock);
    *(void **)buffer_addr = axon_bsend.user;
    *size = axon_bsend.user_size;
    axon_bsend.attached = false;
    axon_bsend.user = axon_bsend.base = axon_bsend.end = NULL;
    axon_bsend.user_size = 0;
    pthread_mutex_unlock(&axon_bsend.lock);
    return MPI_SUCCESS;
}

static int axon_mpi_bsend_common(const char *func, const void *buf, int64_t count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_CHECK_SEND(func, comm, c, buf, count, datatype, dt, dest, tag);
    const char *why;
    int rc = axon_mpi_bsend_start(&c->pt2pt, buf, count, &dt, dest, tag, &why);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "buffered send of %lld bytes to rank %d: %s",
                              (long long)(count * dt.size), dest, why);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Bsend)
int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_bsend_common("MPI_Bsend", buf, count, datatype, dest, tag, comm);
}

static int axon_mpi_ibsend(const char *func, const void *buf, int64_t count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm, MPI_Request *request)
{
    if (!request) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "request is a NULL pointer");
    }
    int rc = axon_mpi_bsend_common(func, buf, count, datatype, dest, tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The data is in the attached buffer: the user's buffer is free again, so the request is complete. */
    struct axon_request *req;
    rc = axon_request_alloc_complete(AXON_REQUEST_SEND, &req);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, rc, "out of requests");
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Ibsend)
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request)
{
    return axon_mpi_ibsend("MPI_Ibsend", buf, count, datatype, dest, tag, comm, request);
}

AXON_MPI_WEAK(Bsend_c)
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return axon_mpi_bsend_common("MPI_Bsend_c", buf, count, datatype, dest, tag, comm);
}

AXON_MPI_WEAK(Ibsend_c)
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    return axon_mpi_ibsend("MPI_Ibsend_c", buf, count, datatype, dest, tag, comm, request);
}
