/* Buffered sends and the buffers they pack into. This file owns the buffer object (struct
 * axon_bsend_buffer) of the process (MPI_Buffer_attach) and of each communicator and session that has its
 * own (MPI 4.1's MPI_Comm_attach_buffer and MPI_Session_attach_buffer, whose calls are in
 * axon_mpi_bsend_comm.c and axon_mpi_session.c), which of them a send uses, the sends (MPI_Bsend,
 * MPI_Ibsend and their large-count _c forms, sharing their functions, and the copy step of persistent
 * buffered sends, MPI_Bsend_init + MPI_Start), the waits for a buffer to empty (detach, MPI_Comm_free,
 * MPI_Session_finalize, MPI_Finalize), the flushes, and the process's buffer calls.
 *
 * A buffered send packs its data into a buffer and sends from there, so it completes at once. It uses its
 * communicator's buffer when one is attached, else that of the session the communicator derives from when
 * one is attached there, else the process's (MPI 4.1 section 3.6). A buffer holds a block per message in
 * flight: a small header (the request that sends it, the block's size, the next block, a sequence number)
 * followed by the packed data, so a message costs at most MPI_BSEND_OVERHEAD bytes beyond its data, as the
 * standard lets programs assume. In a buffer the user gave, blocks are taken first-fit from the gaps
 * between live blocks and given back when their send completes; sends are reaped lazily, whenever a new
 * one needs room and when the buffer is flushed or detached. A message that finds no room waits a while
 * for messages in flight to give theirs back, then is MPI_ERR_BUFFER (the standard's error: waiting longer
 * could be forever). An automatic buffer (MPI_BUFFER_AUTOMATIC) takes each block from malloc and frees it
 * when reaped, so it never runs out of room. The flushes (MPI_Buffer_flush, MPI_Buffer_iflush and the
 * communicators' forms, MPI 4.1) wait for the messages buffered so far to be sent, the nonblocking ones
 * through a request that a progress hook completes.
 *
 * One lock guards every buffer: buffered sends are no fast path, and a single lock lets the progress hook
 * and MPI_Finalize look at all the buffers with no order between locks to keep. */
#include "mpi/pt2pt/axon_mpi_bsend.h"
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define AXON_BSEND_ALIGN 16

struct axon_bsend_block {
    struct axon_bsend_block *next;  /* the next live block (in address order in a user's buffer) */
    struct axon_request *req;       /* the send of its data */
    size_t size;                    /* header and data, rounded up to AXON_BSEND_ALIGN */
    uint64_t seq;                   /* order of the buffered sends: what a flush waits for */
};

struct axon_bsend_buffer {
    struct axon_bsend_owner owner;   /* what it is attached to */
    struct axon_bsend_buffer *next;  /* in the list of every attached buffer */
    bool automatic;                  /* MPI_BUFFER_AUTOMATIC: each block from malloc */
    void *user;                      /* what the user attached, as given (detach returns it) */
    int64_t user_size;
    char *base, *end;                /* the aligned usable part of a user's buffer */
    struct axon_bsend_block *blocks; /* the live blocks */
    uint64_t last_seq;               /* of the newest buffered send */
};

/* A nonblocking flush waiting for the blocks of buf up to target to be sent; its request is a generalized
 * request of the library's own. A buffer is not freed while a flush names it (axon_bsend_forget). */
struct axon_bsend_flush {
    struct axon_bsend_flush *next;
    struct axon_bsend_buffer *buf;
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
    struct axon_bsend_buffer *process;  /* MPI_Buffer_attach's, or NULL */
    struct axon_bsend_buffer *attached; /* every attached buffer, the process's and the communicators' */
    struct axon_bsend_flush *flushes;   /* nonblocking flushes not yet complete */
    bool flush_hooked;                  /* the progress hook that completes them is registered */
} axon_bsend = {.lock = PTHREAD_MUTEX_INITIALIZER};
static atomic_bool axon_bsend_flushing; /* flushes are pending: the hook has work */

/* Where owner's buffer is kept (a communicator's in the communicator, so it dies with it and a duplicate
 * does not inherit it; a session's in the session). Read and written with the lock held. */
static struct axon_bsend_buffer **axon_bsend_slot(struct axon_bsend_owner owner)
{
    if (owner.comm)
        return &owner.comm->bsend;
    if (owner.session)
        return axon_mpi_session_bsend_slot(owner.session);
    return &axon_bsend.process;
}

/* Raises errclass from func on owner: through its communicator's handler, its session's, or for the
 * process's buffer as an error on no object. */
static int axon_bsend_error(struct axon_bsend_owner owner, const char *func, int errclass, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int axon_bsend_error(struct axon_bsend_owner owner, const char *func, int errclass, const char *fmt, ...)
{
    char detail[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    if (owner.session)
        return axon_mpi_session_raise(owner.session, func, errclass, detail);
    return axon_mpi_error(owner.comm, func, errclass, "%s", detail);
}

static const char *axon_bsend_owner_name(struct axon_bsend_owner owner)
{
    return owner.comm ? "the communicator" : owner.session ? "the session" : "the process";
}

/* Every caller of axon_mpi_bsend_start passes a communicator's user view (&c->pt2pt: persistent requests
 * keep only that), so the communicator, and its buffer, are found from it. */
static struct axon_comm *axon_bsend_comm_of(struct axon_pt2pt_comm *view)
{
    return (struct axon_comm *)((char *)view - offsetof(struct axon_comm, pt2pt));
}

/* ---- the blocks ------------------------------------------------------------------------------------ */

/* Gives back the blocks whose sends have completed. Called with the lock held. */
static void axon_bsend_reap(struct axon_bsend_buffer *buf)
{
    struct axon_bsend_block **link = &buf->blocks;
    while (*link) {
        struct axon_bsend_block *b = *link;
        if (atomic_load_explicit(&b->req->complete, memory_order_acquire)) {
            axon_request_free(b->req);
            *link = b->next;
            if (buf->automatic)
                free(b);
        } else {
            link = &b->next;
        }
    }
}

/* A block of size bytes, linked in its place with no request yet; NULL if there is no room (an automatic
 * buffer: no memory). A user's buffer is searched first fit among the gaps between live blocks. Called
 * with the lock held. */
static struct axon_bsend_block *axon_bsend_take(struct axon_bsend_buffer *buf, size_t size)
{
    if (buf->automatic) {
        struct axon_bsend_block *b = malloc(size);
        if (b) {
            *b = (struct axon_bsend_block){.next = buf->blocks, .size = size};
            buf->blocks = b;
        }
        return b;
    }
    char *gap = buf->base;
    struct axon_bsend_block **link = &buf->blocks;
    for (;;) {
        struct axon_bsend_block *next = *link;
        char *gap_end = next ? (char *)next : buf->end;
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

static void axon_bsend_unlink(struct axon_bsend_buffer *buf, struct axon_bsend_block *victim)
{
    for (struct axon_bsend_block **link = &buf->blocks; *link; link = &(*link)->next) {
        if (*link == victim) {
            *link = victim->next;
            if (buf->automatic)
                free(victim);
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
static int axon_bsend_live(const struct axon_bsend_buffer *buf)
{
    int n = 0;
    for (const struct axon_bsend_block *b = buf->blocks; b; b = b->next)
        n++;
    return n;
}

/* Whether every buffered send of buf up to target has been sent (its request complete). Reads only the
 * requests' flags, so a progress hook may ask. Called with the lock held. */
static bool axon_bsend_sent_upto(const struct axon_bsend_buffer *buf, uint64_t target)
{
    for (const struct axon_bsend_block *b = buf->blocks; b; b = b->next)
        if (b->seq <= target && b->req && !atomic_load_explicit(&b->req->complete, memory_order_acquire))
            return false;
    return true;
}

/* ---- sending --------------------------------------------------------------------------------------- */

struct axon_bsend_room {
    struct axon_bsend_owner owner; /* whose buffer */
    struct axon_bsend_buffer *buf;
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

/* Whether the wait for room can end: room was found, nothing is in flight any more, the wait is over, or
 * another thread detached the buffer meanwhile (buf is then NULL). The lock then stays held; block is the
 * room, or NULL. */
static bool axon_bsend_room_found(void *arg)
{
    struct axon_bsend_room *room = arg;
    pthread_mutex_lock(&axon_bsend.lock);
    if (*axon_bsend_slot(room->owner) != room->buf) {
        room->buf = NULL;
        room->block = NULL;
        return true;
    }
    axon_bsend_reap(room->buf);
    room->block = axon_bsend_take(room->buf, room->need);
    if (room->block || !room->buf->blocks || axon_bsend_past(&room->deadline))
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
    struct axon_comm *c = axon_bsend_comm_of(comm);
    pthread_mutex_lock(&axon_bsend.lock);
    /* The communicator's own buffer when it has one, else its session's, else the process's (MPI 4.1). */
    struct axon_bsend_owner owner = AXON_BSEND_PROCESS;
    struct axon_session *session = c->session ? axon_mpi_session_find(c->session) : NULL;
    if (c->bsend)
        owner = AXON_BSEND_COMM(c);
    else if (session && *axon_mpi_session_bsend_slot(session))
        owner = AXON_BSEND_SESSION(session);
    struct axon_bsend_buffer *bb = *axon_bsend_slot(owner);
    if (!bb) {
        pthread_mutex_unlock(&axon_bsend.lock);
        *why = "no buffer is attached (MPI_Buffer_attach, or MPI_Comm_attach_buffer on the communicator, or "
               "MPI_Session_attach_buffer on its session)";
        return MPI_ERR_BUFFER;
    }
    axon_bsend_reap(bb);
    struct axon_bsend_block *b = axon_bsend_take(bb, need);
    if (!b && bb->automatic) {
        pthread_mutex_unlock(&axon_bsend.lock);
        *why = "out of memory for the message's copy (MPI_BUFFER_AUTOMATIC)";
        return MPI_ERR_NO_MEM;
    }
    if (!b && bb->blocks) {
        /* No room while earlier messages are in flight. Those received give their room back as soon as
         * their senders hear of it; those whose receives are not posted may never (a program that sends
         * to itself and receives afterwards), and the standard makes a buffered send without room an
         * error. So wait a while (AXON_BSEND_WAIT_MS) for the room, then fail rather than hang. */
        pthread_mutex_unlock(&axon_bsend.lock);
        struct axon_bsend_room room = {.owner = owner, .buf = bb, .need = need};
        clock_gettime(CLOCK_MONOTONIC, &room.deadline);
        room.deadline.tv_sec += axon_config.bsend_wait_ms / 1000;
        room.deadline.tv_nsec += axon_config.bsend_wait_ms % 1000 * 1000000L;
        if (room.deadline.tv_nsec >= 1000000000L) {
            room.deadline.tv_sec++;
            room.deadline.tv_nsec -= 1000000000L;
        }
        axon_ucx_wait(axon_bsend_room_found, &room);
        b = room.block; /* returned with the lock held */
        bb = room.buf;
        if (!bb) {
            pthread_mutex_unlock(&axon_bsend.lock);
            *why = "the buffer was detached while the send waited for room in it";
            return MPI_ERR_BUFFER;
        }
    }
    if (!b) {
        static __thread char reason[320];
        const char *which = owner.comm      ? "the communicator's buffer"
                            : owner.session ? "the session's buffer"
                                            : "the attached buffer";
        int live = axon_bsend_live(bb);
        if (live)
            snprintf(reason, sizeof(reason),
                     "%s (%lld bytes) has no room for %zu more: %d buffered message%s still "
                     "wait%s for %s receive%s after %ld ms (AXON_BSEND_WAIT_MS)",
                     which, (long long)bb->user_size, need, live, live == 1 ? "" : "s", live == 1 ? "s" : "",
                     live == 1 ? "its" : "their", live == 1 ? "" : "s", axon_config.bsend_wait_ms);
        else
            snprintf(reason, sizeof(reason), "%s (%lld bytes) is smaller than the %zu the message needs", which,
                     (long long)bb->user_size, need);
        pthread_mutex_unlock(&axon_bsend.lock);
        *why = reason;
        return MPI_ERR_BUFFER;
    }
    b->seq = ++bb->last_seq;
    void *packed = (char *)b + AXON_BSEND_HEADER;
    int rc = MPI_SUCCESS;
    axon_bsend_pack(packed, buf, count, dt, bytes, &rc);
    if (rc == MPI_SUCCESS) {
        struct axon_dtype_layout bytes_dt = {.size = 1, .extent = 1, .contig = true};
        rc = axon_pt2pt_isend(packed, bytes, &bytes_dt, dest, tag, comm, AXON_SEND_STANDARD, &b->req);
    }
    if (rc != MPI_SUCCESS) {
        axon_bsend_unlink(bb, b);
        *why = "the send could not start";
    }
    pthread_mutex_unlock(&axon_bsend.lock);
    return rc;
}

/* ---- attaching and detaching ----------------------------------------------------------------------- */

int axon_bsend_attach_call(const char *func, struct axon_bsend_owner owner, void *buffer, int64_t size)
{
    bool automatic = buffer == MPI_BUFFER_AUTOMATIC;
    if (!automatic && size < 0)
        return axon_bsend_error(owner, func, MPI_ERR_ARG, "size %lld is negative", (long long)size);
    if (!automatic && !buffer && size > 0)
        return axon_bsend_error(owner, func, MPI_ERR_BUFFER, "buffer is NULL with size %lld", (long long)size);
    struct axon_bsend_buffer *b = calloc(1, sizeof(*b));
    if (!b)
        return axon_bsend_error(owner, func, MPI_ERR_NO_MEM, "out of memory for the buffer's record");
    b->owner = owner;
    b->automatic = automatic;
    b->user = buffer;
    if (!automatic) {
        uintptr_t start = ((uintptr_t)buffer + AXON_BSEND_ALIGN - 1) & ~(uintptr_t)(AXON_BSEND_ALIGN - 1);
        uintptr_t end = ((uintptr_t)buffer + (uintptr_t)size) & ~(uintptr_t)(AXON_BSEND_ALIGN - 1);
        b->user_size = size;
        b->base = (char *)start;
        b->end = end > start ? (char *)end : (char *)start;
    }
    pthread_mutex_lock(&axon_bsend.lock);
    struct axon_bsend_buffer **slot = axon_bsend_slot(owner);
    if (*slot) {
        pthread_mutex_unlock(&axon_bsend.lock);
        free(b);
        return axon_bsend_error(owner, func, MPI_ERR_BUFFER, "%s has a buffer attached already (detach it first)",
                                axon_bsend_owner_name(owner));
    }
    *slot = b;
    b->next = axon_bsend.attached;
    axon_bsend.attached = b;
    pthread_mutex_unlock(&axon_bsend.lock);
    return MPI_SUCCESS;
}

/* Takes an emptied buffer away from its owner and frees it. Its pending flushes are satisfied (nothing of
 * it is in flight), so they complete now, before the record they name goes. Called with the lock held. */
static void axon_bsend_forget(struct axon_bsend_buffer *buf)
{
    *axon_bsend_slot(buf->owner) = NULL;
    for (struct axon_bsend_buffer **link = &axon_bsend.attached; *link; link = &(*link)->next) {
        if (*link == buf) {
            *link = buf->next;
            break;
        }
    }
    for (struct axon_bsend_flush **link = &axon_bsend.flushes; *link;) {
        struct axon_bsend_flush *f = *link;
        if (f->buf == buf) {
            *link = f->next;
            axon_request_user_complete(f->req);
            free(f);
        } else {
            link = &f->next;
        }
    }
    atomic_store(&axon_bsend_flushing, axon_bsend.flushes != NULL);
    free(buf);
}

/* Whether owner's buffer has no message in flight any more (or is gone). True returns with the lock
 * held, so that the caller detaches the buffer in the same hold, before another send can take a block. */
static bool axon_bsend_emptied(void *arg)
{
    const struct axon_bsend_owner *o = arg;
    pthread_mutex_lock(&axon_bsend.lock);
    struct axon_bsend_buffer *buf = *axon_bsend_slot(*o);
    if (!buf)
        return true;
    axon_bsend_reap(buf);
    if (!buf->blocks)
        return true;
    pthread_mutex_unlock(&axon_bsend.lock);
    return false;
}

int axon_bsend_detach_call(const char *func, struct axon_bsend_owner owner, void *buffer_addr, int64_t max_size,
                           int64_t *size)
{
    if (!buffer_addr || !size)
        return axon_bsend_error(owner, func, MPI_ERR_ARG, "buffer_addr or size is a NULL pointer");
    /* The standard: detach blocks until every message in the buffer has been sent. */
    axon_ucx_wait(axon_bsend_emptied, &owner); /* returns with the lock held */
    struct axon_bsend_buffer *buf = *axon_bsend_slot(owner);
    void *addr = NULL;
    int64_t got = 0;
    if (buf) {
        if (!buf->automatic && buf->user_size > max_size) {
            got = buf->user_size;
            pthread_mutex_unlock(&axon_bsend.lock);
            return axon_bsend_error(owner, func, MPI_ERR_COUNT,
                                  "the buffer's size, %lld bytes, does not fit this call's int (its _c form "
                                  "returns it); the buffer stays attached", (long long)got);
        }
        addr = buf->automatic ? MPI_BUFFER_AUTOMATIC : buf->user;
        got = buf->automatic ? 0 : buf->user_size;
        axon_bsend_forget(buf);
    }
    pthread_mutex_unlock(&axon_bsend.lock);
    *(void **)buffer_addr = addr;
    *size = got;
    return MPI_SUCCESS;
}

/* The end of an owner that still has a buffer (the standard asks the program to detach first): its
 * messages are sent as detach would send them (the wait is the same), and the buffer is forgotten, so
 * nothing touches the user's memory afterwards and an automatic buffer's blocks are freed. MPICH does the
 * same at MPI_Comm_free. */
static void axon_bsend_owner_gone(struct axon_bsend_owner o)
{
    axon_ucx_wait(axon_bsend_emptied, &o); /* returns with the lock held */
    struct axon_bsend_buffer *buf = *axon_bsend_slot(o);
    if (buf)
        axon_bsend_forget(buf);
    pthread_mutex_unlock(&axon_bsend.lock);
}

void axon_mpi_bsend_comm_free(struct axon_comm *c)
{
    axon_bsend_owner_gone(AXON_BSEND_COMM(c));
}

void axon_mpi_bsend_session_free(struct axon_session *s)
{
    axon_bsend_owner_gone(AXON_BSEND_SESSION(s));
}

static bool axon_bsend_all_emptied(void *arg)
{
    (void)arg;
    bool empty = true;
    pthread_mutex_lock(&axon_bsend.lock);
    for (struct axon_bsend_buffer *buf = axon_bsend.attached; buf; buf = buf->next) {
        axon_bsend_reap(buf);
        empty = empty && buf->blocks == NULL;
    }
    pthread_mutex_unlock(&axon_bsend.lock);
    return empty;
}

void axon_mpi_bsend_finalize(void)
{
    /* Every buffer, the process's and the communicators' (freed or not), is drained and forgotten: the
     * user has no request to wait on for a buffered message. */
    axon_ucx_wait(axon_bsend_all_emptied, NULL);
    pthread_mutex_lock(&axon_bsend.lock);
    while (axon_bsend.attached)
        axon_bsend_forget(axon_bsend.attached);
    pthread_mutex_unlock(&axon_bsend.lock);
}

/* ---- flushing (MPI 4.1) ------------------------------------------------------------------------ */

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
        if (axon_bsend_sent_upto(f->buf, f->target)) {
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
    struct axon_bsend_owner owner;
    struct axon_bsend_buffer *buf;
    uint64_t target;
};

static bool axon_bsend_flushed(void *arg)
{
    const struct axon_bsend_upto *u = arg;
    bool sent = true; /* a buffer detached meanwhile: its detach waited for every message */
    pthread_mutex_lock(&axon_bsend.lock);
    if (*axon_bsend_slot(u->owner) == u->buf) {
        axon_bsend_reap(u->buf);
        sent = axon_bsend_sent_upto(u->buf, u->target);
    }
    pthread_mutex_unlock(&axon_bsend.lock);
    return sent;
}

int axon_bsend_flush_call(struct axon_bsend_owner owner)
{
    /* Every message buffered so far leaves (its send completes); later ones are not waited for. */
    pthread_mutex_lock(&axon_bsend.lock);
    struct axon_bsend_upto u = {owner, *axon_bsend_slot(owner), 0};
    if (u.buf)
        u.target = u.buf->last_seq;
    pthread_mutex_unlock(&axon_bsend.lock);
    if (u.buf)
        axon_ucx_wait(axon_bsend_flushed, &u);
    return MPI_SUCCESS;
}

int axon_bsend_iflush_call(const char *func, struct axon_bsend_owner owner, MPI_Request *request)
{
    if (!request)
        return axon_bsend_error(owner, func, MPI_ERR_ARG, "request is a NULL pointer");
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
        return axon_bsend_error(owner, func, MPI_ERR_NO_MEM, "out of memory for a flush");
    }
    pthread_mutex_lock(&axon_bsend.lock);
    struct axon_bsend_buffer *buf = *axon_bsend_slot(owner);
    *f = (struct axon_bsend_flush){axon_bsend.flushes, buf, buf ? buf->last_seq : 0, req};
    bool queued = false;
    if (!buf || axon_bsend_sent_upto(buf, f->target)) {
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
        return axon_bsend_error(owner, func, rc, "no room for the progress hook of flushes");
    }
    *request = handle;
    return MPI_SUCCESS;
}

/* ---- the process's buffer ---------------------------------------------------------------------------- */

AXON_MPI_WEAK(Buffer_flush)
int PMPI_Buffer_flush(void)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Buffer_flush");
    return axon_bsend_flush_call(AXON_BSEND_PROCESS);
}

AXON_MPI_WEAK(Buffer_iflush)
int PMPI_Buffer_iflush(MPI_Request *request)
{
    static const char func[] = "MPI_Buffer_iflush";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_bsend_iflush_call(func, AXON_BSEND_PROCESS, request);
}

AXON_MPI_WEAK(Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size)
{
    static const char func[] = "MPI_Buffer_attach";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_bsend_attach_call(func, AXON_BSEND_PROCESS, buffer, size);
}

AXON_MPI_WEAK(Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    static const char func[] = "MPI_Buffer_detach";
    AXON_MPI_REQUIRE_ACTIVE(func);
    int64_t got = 0;
    int rc = axon_bsend_detach_call(func, AXON_BSEND_PROCESS, buffer_addr, INT_MAX, size ? &got : NULL);
    if (rc == MPI_SUCCESS)
        *size = (int)got;
    return rc;
}

/* ---- the sends --------------------------------------------------------------------------------------- */

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
    /* The data is in the buffer: the user's buffer is free again, so the request is complete. */
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
