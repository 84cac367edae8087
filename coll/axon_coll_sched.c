/* The schedule engine: builds the rounds and steps of a collective (coll/axon_coll_sched.h) and runs
 * them. A running schedule sits on one list of outstanding schedules; the progress hook walks the list,
 * and for each schedule starts its current round (local steps run at once, messages are posted) or, once
 * every message of the round has completed, moves on to the next. The list and every schedule on it are
 * guarded by the transport lock (axon_ucx_lock, which nests), so the hook, the calls that start schedules
 * and the engine's own callbacks never race under MPI_THREAD_MULTIPLE.
 *
 * A small collective must not pay for malloc: a schedule keeps its first steps, rounds and scratch
 * bytes inside itself and spills to the heap only beyond them, and ended schedules wait on a short
 * free list for the next collective.
 *
 * Dry schedules (coll/axon_coll_sched.h) are built by the same code for the simulator: their data
 * scratch is placeholder addresses in a reserved range nothing may touch, and they are read back step
 * by step (axon_coll_sched_steps) instead of run. */
#include "coll/axon_coll_sched.h"

#include "coll/axon_coll_op.h"
#include "coll/axon_coll_select.h"
#include "memkind/axon_memkind.h"
#include "ucx_glue/ucx_glue.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

const struct axon_dtype_layout axon_coll_bytes = {.size = 1, .extent = 1, .true_lb = 0, .true_extent = 1,
                                                  .contig = true};

struct axon_coll_scratch {
    void *p;
    size_t size;
};

struct axon_coll_step {
    enum axon_coll_step_kind kind;
    int peer;
    struct axon_pt2pt_comm *pc;  /* send, recv: the engine context of peer's group */
    const void *src;             /* send, copy, reduce (in) */
    void *dst;                   /* recv, copy, reduce (inout) */
    int64_t count, dcount;
    struct axon_dtype_layout dt; /* send, recv, copy's source */
    struct axon_dtype_layout ddt; /* copy's destination */
    void *handle;                /* a posted message */
    int (*call)(void *arg);      /* a copy step that runs this instead (axon_coll_sched_call) */
    void *arg;
    int gpu_ops;                 /* such a step's GPU operations (axon_coll_sched_call_gpu; 0: CPU work) */
};

/* Device scratch of a schedule, given back to its memory kind's cache when it ends. */
struct axon_coll_gpu_scratch {
    void *p;
    size_t size;
    enum axon_memkind kind;
    int device;
};

enum {
    AXON_COLL_INLINE_STEPS = 16,
    AXON_COLL_INLINE_ROUNDS = 16,
    AXON_COLL_INLINE_SCRATCH = 512, /* bytes */
    AXON_COLL_FREE_MAX = 8,         /* ended schedules kept for reuse */
};

struct axon_coll_sched {
    struct axon_pt2pt_comm *pc;
    int rank, size, tag;
    /* Hierarchical compositions (coll/axon_coll_hier.c): the group's node map, and a subgroup that the
     * steps added meanwhile talk within (its ranks are the group's members[i]). */
    const struct axon_coll_nodes *nodes; /* NULL: unknown */
    const int *sub;              /* NULL: the whole group */
    int sub_rank, sub_size;
    bool missed;                 /* miss holds the first choice the cost model could not make yet */
    struct axon_coll_sched_miss miss;
    int err;                     /* the first error, sticky */
    bool dry;                    /* built to be read, never run (axon_coll_sched_set_dry) */
    bool dry_domain;             /* ... of GPU buffers on one NVLink domain (axon_coll_sched_set_dry_domain) */
    size_t dry_used;             /* bytes of placeholder range handed out */

    struct axon_coll_step *steps;
    int nsteps, cap_steps;
    int *round_end;              /* round i is steps [round_end[i-1], round_end[i]) */
    int nrounds, cap_rounds;

    int cur;                     /* the running round */
    bool started;                /* its steps are posted */

    struct axon_coll_op *op;
    MPI_Datatype datatype;
    struct axon_dtype_layout op_dt;

    /* A schedule whose data lives on a GPU (axon_coll_sched_set_gpu): gpu is its ordinal + 1 (0: host
     * data) among those of memory kind gpu_kind, gpu_kernel the reduction kernel; its data scratch is
     * device memory, kept in gpu_scratch. */
    int gpu, gpu_kernel;
    enum axon_memkind gpu_kind;
    bool all_device;             /* the members agreed that all their buffers are GPU memory */
    bool handoff;                /* started by the progress thread, not by the caller */
    bool keep_going;             /* runs to its end after an error: a GPU schedule, or one with call steps */
    struct axon_coll_gpu_scratch *gpu_scratch;
    int ngpu_scratch, cap_gpu_scratch;

    struct axon_coll_scratch *scratch;
    int nscratch, cap_scratch;
    struct axon_dloop **loops;   /* layouts retained while the schedule lives */
    int nloops, cap_loops;

    struct axon_request *req;
    int (*on_end)(void *, int);
    void *on_end_arg;
    struct axon_coll_sched *(*then)(void *, int *); /* the schedule that continues req (axon_coll_sched_then) */
    void *then_arg;
    struct axon_coll_sched *next;

    size_t arena_used;           /* bytes of arena handed out */
    struct axon_coll_step steps_inline[AXON_COLL_INLINE_STEPS];
    int round_end_inline[AXON_COLL_INLINE_ROUNDS];
    _Alignas(16) char arena[AXON_COLL_INLINE_SCRATCH];
};

/* ---- transport ------------------------------------------------------------------------------------ */

static int axon_coll_pt2pt_isend(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int peer,
                                 int tag, struct axon_pt2pt_comm *pc, void **handle)
{
    struct axon_request *req;
    int rc = axon_pt2pt_isend(buf, count, dt, peer, tag, pc, AXON_SEND_STANDARD, &req);
    if (rc == MPI_SUCCESS)
        *handle = req;
    return rc;
}

static int axon_coll_pt2pt_irecv(void *buf, int64_t count, const struct axon_dtype_layout *dt, int peer, int tag,
                                 struct axon_pt2pt_comm *pc, void **handle)
{
    struct axon_request *req;
    int rc = axon_pt2pt_irecv(buf, count, dt, peer, tag, pc, &req);
    if (rc == MPI_SUCCESS)
        *handle = req;
    return rc;
}

static bool axon_coll_pt2pt_done(void *handle, int *err)
{
    struct axon_request *req = handle;
    if (!axon_pt2pt_request_done(req))
        return false;
    *err = req->status.MPI_ERROR;
    /* The sizes of a collective's messages always agree on correct calls: a longer message means
     * the members disagree about the counts. */
    if (*err == MPI_SUCCESS && req->kind == AXON_REQUEST_RECV && req->bytes > req->count * req->dt.size)
        *err = MPI_ERR_TRUNCATE;
    return true;
}

static void axon_coll_pt2pt_release(void *handle)
{
    axon_request_free(handle);
}

static const struct axon_coll_transport axon_coll_pt2pt_transport = {
    axon_coll_pt2pt_isend, axon_coll_pt2pt_irecv, axon_coll_pt2pt_done, axon_coll_pt2pt_release};
static const struct axon_coll_transport *axon_coll_transport = &axon_coll_pt2pt_transport;

void axon_coll_sched_set_transport(const struct axon_coll_transport *t)
{
    axon_coll_transport = t ? t : &axon_coll_pt2pt_transport;
}

/* ---- building ------------------------------------------------------------------------------------- */

static struct axon_coll_sched *axon_coll_free_list; /* guarded by the transport lock */
static int axon_coll_free_count;

int axon_coll_sched_create(struct axon_pt2pt_comm *pc, int rank, int size, int tag, struct axon_coll_sched **out)
{
    axon_ucx_lock();
    struct axon_coll_sched *s = axon_coll_free_list;
    if (s) {
        axon_coll_free_list = s->next;
        axon_coll_free_count--;
    }
    axon_ucx_unlock();
    if (!s) {
        s = malloc(sizeof(*s));
        if (!s)
            return MPI_ERR_NO_MEM;
    }
    /* Everything before the inline storage starts from zero; the storage itself needs no clearing. */
    memset(s, 0, offsetof(struct axon_coll_sched, steps_inline));
    s->steps = s->steps_inline;
    s->cap_steps = AXON_COLL_INLINE_STEPS;
    s->round_end = s->round_end_inline;
    s->cap_rounds = AXON_COLL_INLINE_ROUNDS;
    s->pc = pc;
    s->rank = rank;
    s->size = size;
    s->tag = tag;
    s->datatype = MPI_DATATYPE_NULL;
    *out = s;
    return MPI_SUCCESS;
}

void axon_coll_sched_set_group(struct axon_coll_sched *s, struct axon_pt2pt_comm *pc, int rank, int size)
{
    s->pc = pc;
    s->rank = rank;
    s->size = size;
}

int axon_coll_sched_rank(const struct axon_coll_sched *s)
{
    return s->sub ? s->sub_rank : s->rank;
}

int axon_coll_sched_size(const struct axon_coll_sched *s)
{
    return s->sub ? s->sub_size : s->size;
}

void axon_coll_sched_set_nodes(struct axon_coll_sched *s, const struct axon_coll_nodes *nodes)
{
    s->nodes = nodes;
}

const struct axon_coll_nodes *axon_coll_sched_nodes(const struct axon_coll_sched *s)
{
    return s->sub ? NULL : s->nodes;
}

void axon_coll_sched_miss_note(struct axon_coll_sched *s, const struct axon_coll_sched_miss *m)
{
    if (s->missed)
        return;
    s->miss = *m;
    s->missed = true;
}

bool axon_coll_sched_miss_get(const struct axon_coll_sched *s, struct axon_coll_sched_miss *m)
{
    if (s->missed)
        *m = s->miss;
    return s->missed;
}

void axon_coll_sched_set_subgroup(struct axon_coll_sched *s, const int *members, int size)
{
    s->sub = members;
    s->sub_size = size;
    s->sub_rank = -1;
    for (int i = 0; members && i < size; i++)
        if (members[i] == s->rank)
            s->sub_rank = i;
}

/* Grows an array to hold one more element; false (and the error recorded) when out of memory. An
 * array that still lives inside the schedule (`inline_storage`) moves to the heap. */
static bool axon_coll_grow(struct axon_coll_sched *s, void **array, int n, int *cap, size_t elem,
                           const void *inline_storage)
{
    if (n < *cap)
        return true;
    int ncap = *cap ? *cap * 2 : 8;
    void *p;
    if (*array == inline_storage) {
        p = malloc(elem * (size_t)ncap);
        if (p && n > 0) /* an array with no inline storage yet is NULL: memcpy must not see it */
            memcpy(p, *array, elem * (size_t)n);
    } else {
        p = realloc(*array, elem * (size_t)ncap);
    }
    if (!p) {
        if (s->err == MPI_SUCCESS)
            s->err = MPI_ERR_NO_MEM;
        return false;
    }
    *array = p;
    *cap = ncap;
    return true;
}

static void axon_coll_keep_loop(struct axon_coll_sched *s, const struct axon_dtype_layout *dt)
{
    if (!dt->loop)
        return;
    if (!axon_coll_grow(s, (void **)&s->loops, s->nloops, &s->cap_loops, sizeof(*s->loops), NULL))
        return;
    axon_dloop_retain((struct axon_dloop *)dt->loop);
    s->loops[s->nloops++] = (struct axon_dloop *)dt->loop;
}

const struct axon_dtype_layout *axon_coll_sched_keep_layout(struct axon_coll_sched *s,
                                                            const struct axon_dtype_layout *dt)
{
    struct axon_dtype_layout *copy = axon_coll_sched_alloc_meta(s, sizeof(*copy));
    if (!copy)
        return NULL;
    *copy = *dt;
    axon_coll_keep_loop(s, dt);
    return copy;
}

void axon_coll_sched_set_op(struct axon_coll_sched *s, struct axon_coll_op *op, MPI_Datatype datatype,
                            const struct axon_dtype_layout *dt)
{
    if (op)
        axon_coll_op_retain(op);
    s->op = op;
    s->datatype = datatype;
    s->op_dt = *dt;
    axon_coll_keep_loop(s, dt);
}

bool axon_coll_sched_commutative(const struct axon_coll_sched *s)
{
    return !s->op || axon_coll_op_commutative(s->op);
}

/* ---- large scratch: a cache across schedules ------------------------------------------------------ */

/* Large scratch (a reduction's vectors, a rotation's copy) goes back to a small cache when its schedule
 * ends. malloc hands out fresh pages beyond its mmap threshold (128 KiB) and gives them back on free,
 * so every call of a large collective would touch new pages and pay a page fault for each, which can cost
 * more than the collective's own copies and folds. Guarded by the transport lock. */
enum {
    AXON_COLL_CACHE_SLOTS = 8,
    AXON_COLL_CACHE_MIN = 64 * 1024,              /* smaller pieces come from malloc's free lists */
};
#define AXON_COLL_CACHE_MAX_BYTES ((size_t)128 << 20)
static struct axon_coll_scratch axon_coll_cache[AXON_COLL_CACHE_SLOTS];
static size_t axon_coll_cache_bytes;

/* A cached block of at least bytes (the smallest such), or NULL. */
static struct axon_coll_scratch axon_coll_cache_take(size_t bytes)
{
    struct axon_coll_scratch got = {NULL, 0};
    axon_ucx_lock();
    int best = -1;
    for (int i = 0; i < AXON_COLL_CACHE_SLOTS; i++)
        if (axon_coll_cache[i].p && axon_coll_cache[i].size >= bytes &&
            (best < 0 || axon_coll_cache[i].size < axon_coll_cache[best].size))
            best = i;
    if (best >= 0) {
        got = axon_coll_cache[best];
        axon_coll_cache[best] = (struct axon_coll_scratch){NULL, 0};
        axon_coll_cache_bytes -= got.size;
    }
    axon_ucx_unlock();
    return got;
}

/* Keeps a block for later schedules, in place of a smaller one when the cache is full; frees what it
 * does not keep. */
static void axon_coll_cache_give(struct axon_coll_scratch b)
{
    if (b.size >= AXON_COLL_CACHE_MIN) {
        axon_ucx_lock();
        int slot = -1;
        for (int i = 0; i < AXON_COLL_CACHE_SLOTS; i++) {
            if (!axon_coll_cache[i].p) {
                slot = i;
                break;
            }
            if (axon_coll_cache[i].size < b.size && (slot < 0 || axon_coll_cache[i].size < axon_coll_cache[slot].size))
                slot = i;
        }
        if (slot >= 0 && axon_coll_cache_bytes - axon_coll_cache[slot].size + b.size <= AXON_COLL_CACHE_MAX_BYTES) {
            struct axon_coll_scratch old = axon_coll_cache[slot];
            axon_coll_cache[slot] = b;
            axon_coll_cache_bytes += b.size - old.size;
            b = old;
        }
        axon_ucx_unlock();
    }
    free(b.p);
}

static void axon_coll_cache_drain(void)
{
    for (int i = 0; i < AXON_COLL_CACHE_SLOTS; i++) {
        free(axon_coll_cache[i].p);
        axon_coll_cache[i] = (struct axon_coll_scratch){NULL, 0};
    }
    axon_coll_cache_bytes = 0;
}

void *axon_coll_sched_alloc_meta(struct axon_coll_sched *s, size_t bytes)
{
    /* Small pieces come from the arena, 16-byte aligned for any element type; an empty one takes 16
     * bytes too, so that distinct pieces never share an address (and the check below counts them: an
     * empty piece asked for when the arena is full must not be handed out past its end). */
    size_t need = bytes ? (bytes + 15) & ~(size_t)15 : 16;
    if (need <= sizeof(s->arena) - s->arena_used) {
        void *p = s->arena + s->arena_used;
        s->arena_used += need;
        return p;
    }
    if (!axon_coll_grow(s, (void **)&s->scratch, s->nscratch, &s->cap_scratch, sizeof(*s->scratch), NULL))
        return NULL;
    struct axon_coll_scratch b = {NULL, 0};
    if (bytes >= AXON_COLL_CACHE_MIN)
        b = axon_coll_cache_take(bytes);
    if (!b.p)
        b = (struct axon_coll_scratch){malloc(bytes ? bytes : 1), bytes};
    if (!b.p) {
        if (s->err == MPI_SUCCESS)
            s->err = MPI_ERR_NO_MEM;
        return NULL;
    }
    s->scratch[s->nscratch++] = b;
    return b.p;
}

/* ---- dry schedules -------------------------------------------------------------------------------- */

/* The placeholder range: reserved once, never accessible, never given back. 1 TiB of address space
 * costs no memory (PROT_NONE, no reserve) and holds the buffers and scratch of one dry schedule of
 * collectives on vectors of tens of GiB; every dry schedule hands out addresses from its start, since
 * nothing ever reads them. */
#define AXON_COLL_DRY_RANGE ((size_t)1 << 40)
static char *axon_coll_dry_base; /* guarded by the transport lock; MAP_FAILED after a failed try */

static char *axon_coll_dry_range(void)
{
    axon_ucx_lock();
    if (!axon_coll_dry_base)
        axon_coll_dry_base = mmap(NULL, AXON_COLL_DRY_RANGE, PROT_NONE,
                                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *base = axon_coll_dry_base;
    axon_ucx_unlock();
    return base == MAP_FAILED ? NULL : base;
}

/* Whether p is a placeholder of a dry schedule (its data), not memory of the builder's own. */
static bool axon_coll_dry_placeholder(const void *p)
{
    const char *base = axon_coll_dry_base;
    return base && base != MAP_FAILED && (const char *)p >= base && (const char *)p < base + AXON_COLL_DRY_RANGE;
}

void axon_coll_sched_set_dry(struct axon_coll_sched *s)
{
    s->dry = true;
    s->dry_used = 0;
}

void axon_coll_sched_set_gpu(struct axon_coll_sched *s, enum axon_memkind kind, int device, int kernel)
{
    s->gpu_kind = kind;
    s->gpu = device + 1;
    s->gpu_kernel = kernel;
    s->keep_going = true; /* a local step may fail for this rank alone (axon_coll_round_start) */
}

void *axon_coll_sched_alloc_device(struct axon_coll_sched *s, enum axon_memkind kind, size_t bytes, int device)
{
    if (s->dry)
        return axon_coll_sched_alloc(s, bytes); /* a placeholder, as for the data scratch */
    if (!axon_coll_grow(s, (void **)&s->gpu_scratch, s->ngpu_scratch, &s->cap_gpu_scratch, sizeof(*s->gpu_scratch),
                        NULL))
        return NULL;
    void *p = axon_memkind_scratch_get(kind, bytes, device);
    if (!p) {
        if (s->err == MPI_SUCCESS)
            s->err = MPI_ERR_NO_MEM;
        return NULL;
    }
    s->gpu_scratch[s->ngpu_scratch++] = (struct axon_coll_gpu_scratch){p, bytes, kind, device};
    return p;
}

/* Data scratch of a GPU schedule: device memory from the layer's cache, given back when it ends. */
static void *axon_coll_sched_alloc_gpu(struct axon_coll_sched *s, size_t bytes)
{
    return axon_coll_sched_alloc_device(s, s->gpu_kind, bytes, s->gpu - 1);
}

int axon_coll_sched_gpu_device(const struct axon_coll_sched *s)
{
    return s->gpu - 1;
}

enum axon_memkind axon_coll_sched_gpu_kind(const struct axon_coll_sched *s)
{
    return s->gpu ? s->gpu_kind : AXON_MEMKIND_HOST;
}

void axon_coll_sched_set_handoff(struct axon_coll_sched *s)
{
    s->handoff = true;
}

void axon_coll_sched_set_all_device(struct axon_coll_sched *s)
{
    s->all_device = true;
}

unsigned axon_coll_sched_device_have(const struct axon_coll_sched *s)
{
    return s->all_device ? AXON_COLL_NEEDS_DEVICE : 0;
}

bool axon_coll_sched_is_dry(const struct axon_coll_sched *s)
{
    return s->dry;
}

void axon_coll_sched_set_dry_domain(struct axon_coll_sched *s)
{
    s->dry_domain = true;
    s->all_device = true;
}

bool axon_coll_sched_is_dry_domain(const struct axon_coll_sched *s)
{
    return s->dry && s->dry_domain;
}

void axon_coll_sched_get_op(const struct axon_coll_sched *s, struct axon_coll_op **op, MPI_Datatype *datatype,
                            const struct axon_dtype_layout **dt)
{
    *op = s->op;
    *datatype = s->datatype;
    *dt = &s->op_dt;
}

int axon_coll_sched_world_rank(const struct axon_coll_sched *s, int peer)
{
    int g = s->sub ? s->sub[peer] : peer;
    const struct axon_pt2pt_comm *pc = s->pc;
    return pc && pc->world_ranks ? pc->world_ranks[g] : g;
}

void *axon_coll_sched_alloc(struct axon_coll_sched *s, size_t bytes)
{
    if (s->gpu && !s->dry)
        return axon_coll_sched_alloc_gpu(s, bytes);
    if (!s->dry)
        return axon_coll_sched_alloc_meta(s, bytes);
    /* Cache-line aligned and at least a line apart, so that distinct buffers never compare equal (a
     * copy onto itself is skipped, in a dry schedule as in a real one). */
    char *base = axon_coll_dry_range();
    size_t need = bytes < AXON_COLL_DRY_RANGE ? bytes + 64 - bytes % 64 : AXON_COLL_DRY_RANGE + 1;
    if (!base || need > AXON_COLL_DRY_RANGE - s->dry_used) {
        if (s->err == MPI_SUCCESS)
            s->err = MPI_ERR_NO_MEM;
        return NULL;
    }
    void *p = base + s->dry_used;
    s->dry_used += need;
    return p;
}

int axon_coll_sched_steps(const struct axon_coll_sched *s, int (*fn)(void *arg, const struct axon_coll_step_info *st),
                          void *arg)
{
    if (s->err != MPI_SUCCESS)
        return s->err;
    int round = 0;
    for (int i = 0; i < s->nsteps; i++) {
        const struct axon_coll_step *st = &s->steps[i];
        while (round < s->nrounds && s->round_end[round] <= i)
            round++;
        struct axon_coll_step_info info = {st->kind, MPI_PROC_NULL, 0, i + 1 == s->nsteps, false};
        if (round < s->nrounds && s->round_end[round] == i + 1)
            info.round_end = true;
        switch (st->kind) {
        case AXON_COLL_SEND:
        case AXON_COLL_RECV:
            info.peer = st->peer;
            info.bytes = st->count * st->dt.size;
            info.host = s->dry && !axon_coll_dry_placeholder(st->kind == AXON_COLL_SEND ? st->src : st->dst);
            break;
        case AXON_COLL_COPY:
            info.bytes = st->src == st->dst ? 0 : st->count * st->dt.size;
            if (st->call && st->gpu_ops > 0) {
                info.kind = AXON_COLL_GPU;
                info.peer = st->gpu_ops;
            }
            break;
        case AXON_COLL_REDUCE:
            info.bytes = st->count * s->op_dt.size;
            break;
        case AXON_COLL_GPU:
            break;
        }
        int rc = fn(arg, &info);
        if (rc != 0)
            return rc;
    }
    return MPI_SUCCESS;
}

void axon_coll_sched_round(struct axon_coll_sched *s)
{
    int last = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nsteps == last)
        return;
    if (!axon_coll_grow(s, (void **)&s->round_end, s->nrounds, &s->cap_rounds, sizeof(*s->round_end),
                        s->round_end_inline))
        return;
    s->round_end[s->nrounds++] = s->nsteps;
}

static struct axon_coll_step *axon_coll_step_add(struct axon_coll_sched *s, enum axon_coll_step_kind kind)
{
    if (!axon_coll_grow(s, (void **)&s->steps, s->nsteps, &s->cap_steps, sizeof(*s->steps), s->steps_inline))
        return NULL;
    struct axon_coll_step *st = &s->steps[s->nsteps++];
    /* The adders set the fields their kind uses; the rest is never read. */
    st->kind = kind;
    st->peer = MPI_PROC_NULL;
    st->pc = s->pc;
    st->handle = NULL;
    st->call = NULL;
    st->gpu_ops = 0;
    return st;
}

void axon_coll_sched_call(struct axon_coll_sched *s, int (*fn)(void *arg), void *arg, int64_t bytes)
{
    struct axon_coll_step *st = axon_coll_step_add(s, AXON_COLL_COPY);
    if (!st)
        return;
    /* A call step works on memory of this rank's peers, which they wait on at the next barrier of the
     * algorithm: after an error the schedule still runs to its end, as a GPU schedule does. */
    s->keep_going = true;
    st->call = fn;
    st->arg = arg;
    /* What the simulator sees: a local copy of that many bytes. */
    st->src = &st->call;
    st->dst = &st->arg;
    st->count = bytes;
    st->dcount = bytes;
    st->dt = axon_coll_bytes;
    st->ddt = axon_coll_bytes;
}

void axon_coll_sched_call_gpu(struct axon_coll_sched *s, int (*fn)(void *arg), void *arg, int64_t bytes, int ops)
{
    int before = s->nsteps;
    axon_coll_sched_call(s, fn, arg, bytes);
    if (s->nsteps > before)
        s->steps[s->nsteps - 1].gpu_ops = ops > 0 ? ops : 1;
}

void axon_coll_sched_send(struct axon_coll_sched *s, const void *buf, int64_t count,
                          const struct axon_dtype_layout *dt, int peer)
{
    if (peer == MPI_PROC_NULL)
        return;
    struct axon_coll_step *st = axon_coll_step_add(s, AXON_COLL_SEND);
    if (!st)
        return;
    st->src = buf;
    st->count = count;
    st->dt = *dt;
    st->peer = s->sub ? s->sub[peer] : peer;
    axon_coll_keep_loop(s, dt);
}

void axon_coll_sched_recv(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                          int peer)
{
    if (peer == MPI_PROC_NULL)
        return;
    struct axon_coll_step *st = axon_coll_step_add(s, AXON_COLL_RECV);
    if (!st)
        return;
    st->dst = buf;
    st->count = count;
    st->dt = *dt;
    st->peer = s->sub ? s->sub[peer] : peer;
    axon_coll_keep_loop(s, dt);
}

void axon_coll_sched_copy(struct axon_coll_sched *s, const void *src, int64_t scount,
                          const struct axon_dtype_layout *sdt, void *dst, int64_t dcount,
                          const struct axon_dtype_layout *ddt)
{
    struct axon_coll_step *st = axon_coll_step_add(s, AXON_COLL_COPY);
    if (!st)
        return;
    st->src = src;
    st->count = scount;
    st->dt = *sdt;
    st->dst = dst;
    st->dcount = dcount;
    st->ddt = *ddt;
    axon_coll_keep_loop(s, sdt);
    axon_coll_keep_loop(s, ddt);
}

void axon_coll_sched_reduce(struct axon_coll_sched *s, const void *in, void *inout, int64_t count)
{
    struct axon_coll_step *st = axon_coll_step_add(s, AXON_COLL_REDUCE);
    if (!st)
        return;
    st->src = in;
    st->dst = inout;
    st->count = count;
}

void axon_coll_sched_on_end(struct axon_coll_sched *s, int (*fn)(void *arg, int err), void *arg)
{
    s->on_end = fn;
    s->on_end_arg = arg;
}

void axon_coll_sched_then(struct axon_coll_sched *s, struct axon_coll_sched *(*fn)(void *arg, int *err), void *arg)
{
    s->then = fn;
    s->then_arg = arg;
}

int axon_coll_sched_built(struct axon_coll_sched *s)
{
    axon_coll_sched_round(s);
    return s->err;
}

void axon_coll_sched_discard(struct axon_coll_sched *s)
{
    for (int i = 0; i < s->nscratch; i++)
        axon_coll_cache_give(s->scratch[i]);
    for (int i = 0; i < s->ngpu_scratch; i++)
        axon_memkind_scratch_put(s->gpu_scratch[i].kind, s->gpu_scratch[i].p, s->gpu_scratch[i].size,
                                 s->gpu_scratch[i].device);
    free(s->gpu_scratch);
    for (int i = 0; i < s->nloops; i++)
        axon_dloop_release(s->loops[i]);
    if (s->op)
        axon_coll_op_release(s->op);
    free(s->scratch);
    free(s->loops);
    if (s->steps != s->steps_inline)
        free(s->steps);
    if (s->round_end != s->round_end_inline)
        free(s->round_end);
    axon_ucx_lock();
    if (axon_coll_free_count < AXON_COLL_FREE_MAX) {
        s->next = axon_coll_free_list;
        axon_coll_free_list = s;
        axon_coll_free_count++;
        s = NULL;
    }
    axon_ucx_unlock();
    free(s);
}

/* ---- local steps ---------------------------------------------------------------------------------- */

int axon_coll_data_copy(const void *src, int64_t scount, const struct axon_dtype_layout *sdt, void *dst,
                        int64_t dcount, const struct axon_dtype_layout *ddt)
{
    int64_t bytes = scount * sdt->size;
    if (bytes > dcount * ddt->size)
        return MPI_ERR_TRUNCATE;
    if (bytes == 0)
        return MPI_SUCCESS;
    const char *s = (const char *)src;
    char *d = (char *)dst;
    /* Nothing to move when both sides are the same bytes: the same address and the same layout (an
     * in-place block). The same base address alone is not that: with MPI_BOTTOM every block's base is
     * NULL and its datatype holds the absolute address. */
    if (sdt->contig && ddt->contig ? s + sdt->true_lb == d + ddt->true_lb
                                   : src == dst && sdt->loop == ddt->loop && sdt->extent == ddt->extent &&
                                         sdt->true_lb == ddt->true_lb && scount == dcount)
        return MPI_SUCCESS;
    struct axon_dloop_cursor cur;
    int rc = MPI_SUCCESS;
    if (sdt->contig && ddt->contig) {
        memmove(d + ddt->true_lb, s + sdt->true_lb, (size_t)bytes);
    } else if (sdt->contig) {
        if (axon_dloop_cursor_init(&cur, ddt->loop, dcount, ddt->extent) != 0)
            return MPI_ERR_NO_MEM;
        axon_dloop_unpack(&cur, d, s + sdt->true_lb, bytes);
        axon_dloop_cursor_fini(&cur);
    } else if (ddt->contig) {
        if (axon_dloop_cursor_init(&cur, sdt->loop, scount, sdt->extent) != 0)
            return MPI_ERR_NO_MEM;
        axon_dloop_pack(&cur, s, d + ddt->true_lb, bytes);
        axon_dloop_cursor_fini(&cur);
    } else {
        char *tmp = malloc((size_t)bytes);
        if (!tmp)
            return MPI_ERR_NO_MEM;
        rc = axon_coll_data_copy(src, scount, sdt, tmp, bytes, &axon_coll_bytes);
        if (rc == MPI_SUCCESS)
            rc = axon_coll_data_copy(tmp, bytes, &axon_coll_bytes, dst, dcount, ddt);
        free(tmp);
    }
    return rc;
}

int axon_coll_data_pack_range(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int64_t off,
                              void *packed, int64_t len)
{
    if (len <= 0)
        return MPI_SUCCESS;
    if (dt->contig) {
        memcpy(packed, (const char *)buf + dt->true_lb + off, (size_t)len);
        return MPI_SUCCESS;
    }
    struct axon_dloop_cursor cur;
    if (axon_dloop_cursor_init(&cur, dt->loop, count, dt->extent) != 0)
        return MPI_ERR_NO_MEM;
    axon_dloop_cursor_seek(&cur, off);
    axon_dloop_pack(&cur, buf, packed, len);
    axon_dloop_cursor_fini(&cur);
    return MPI_SUCCESS;
}

int axon_coll_data_unpack_range(void *buf, int64_t count, const struct axon_dtype_layout *dt, int64_t off,
                                const void *packed, int64_t len)
{
    if (len <= 0)
        return MPI_SUCCESS;
    if (dt->contig) {
        memcpy((char *)buf + dt->true_lb + off, packed, (size_t)len);
        return MPI_SUCCESS;
    }
    struct axon_dloop_cursor cur;
    if (axon_dloop_cursor_init(&cur, dt->loop, count, dt->extent) != 0)
        return MPI_ERR_NO_MEM;
    axon_dloop_cursor_seek(&cur, off);
    axon_dloop_unpack(&cur, buf, packed, len);
    axon_dloop_cursor_fini(&cur);
    return MPI_SUCCESS;
}

/* A user operation on a datatype whose packed form is not its layout (gaps, an offset, a resized
 * extent): the function expects count elements extent apart, as in the user's buffers. So both packed
 * vectors are laid out that way in scratch, the function runs there, and the result is packed back. */
static int axon_coll_reduce_user_layout(const struct axon_coll_op *op, const void *in, void *inout, int64_t count,
                                        MPI_Datatype datatype, const struct axon_dtype_layout *dt)
{
    int64_t reach = (count - 1) * dt->extent;
    int64_t low = (reach < 0 ? reach : 0) + dt->true_lb;
    /* The function may write whole elements (a C struct with its padding): room for count extents
     * beyond the data's own span. */
    int64_t ext = dt->extent < 0 ? -dt->extent : dt->extent;
    size_t span = (size_t)((reach < 0 ? -reach : reach) + dt->true_extent + ext);
    /* The buffers as the function sees them, each at a 64-byte boundary as a C array of the user's
     * struct would be (the function may load its members with aligned instructions): the data lies from
     * low bytes off the buffer's address (true_lb, and any negative reach) for span bytes. */
    const size_t align = 64;
    size_t pre = low < 0 ? ((size_t)-low + align - 1) & ~(align - 1) : 0;
    int64_t end = low + (int64_t)span;
    size_t region = (pre + (size_t)(end > 0 ? end : 0) + align - 1) & ~(align - 1);
    char *tmp = aligned_alloc(align, 2 * (region ? region : align));
    if (!tmp)
        return MPI_ERR_NO_MEM;
    char *in_buf = tmp + pre, *io_buf = tmp + region + pre;
    int64_t bytes = count * dt->size;
    int rc = axon_coll_data_copy(in, bytes, &axon_coll_bytes, in_buf, count, dt);
    if (rc == MPI_SUCCESS)
        rc = axon_coll_data_copy(inout, bytes, &axon_coll_bytes, io_buf, count, dt);
    if (rc == MPI_SUCCESS)
        rc = axon_coll_op_apply(op, in_buf, io_buf, count, datatype, dt);
    if (rc == MPI_SUCCESS)
        rc = axon_coll_data_copy(io_buf, count, dt, inout, bytes, &axon_coll_bytes);
    free(tmp);
    return rc;
}

/* A reduce step: inout = in op inout over count packed elements. */
static int axon_coll_reduce_packed(const struct axon_coll_sched *s, const void *in, void *inout, int64_t count)
{
    const struct axon_dtype_layout *dt = &s->op_dt;
    if (!axon_coll_op_is_predefined(s->op) && !(dt->contig && dt->true_lb == 0 && dt->extent == dt->size))
        return axon_coll_reduce_user_layout(s->op, in, inout, count, s->datatype, dt);
    return axon_coll_op_apply(s->op, in, inout, count, s->datatype, dt);
}

/* The local steps of a GPU schedule. Its layouts are contiguous (axon_coll_sched_set_gpu's contract), so
 * a copy is one driver copy (GPU to GPU, or to or from host memory the algorithm names) and a reduce
 * step one kernel, both complete when they return. */
static int axon_coll_gpu_copy(const struct axon_coll_sched *s, const void *src, int64_t scount,
                              const struct axon_dtype_layout *sdt, void *dst, int64_t dcount,
                              const struct axon_dtype_layout *ddt)
{
    int64_t bytes = scount * sdt->size;
    if (bytes > dcount * ddt->size)
        return MPI_ERR_TRUNCATE;
    if (bytes == 0 || src == dst)
        return MPI_SUCCESS;
    if (!sdt->contig || !ddt->contig)
        return MPI_ERR_INTERN;
    return axon_memkind_copy(s->gpu_kind, (char *)dst + ddt->true_lb, (const char *)src + sdt->true_lb, (size_t)bytes,
                             s->gpu - 1);
}

static int axon_coll_gpu_reduce(const struct axon_coll_sched *s, const void *in, void *inout, int64_t count)
{
    return axon_coll_op_apply_gpu(s->gpu_kind, s->gpu_kernel, in, inout, count, s->datatype, &s->op_dt, s->gpu - 1);
}

/* ---- running -------------------------------------------------------------------------------------- */

static struct axon_coll_sched *axon_coll_list; /* outstanding schedules, oldest first */
static int axon_coll_count;
/* Whether the list may be non-empty, read without the lock: the hook runs on every poll of every wait,
 * and with no collective outstanding it must cost one load. A schedule added by another thread while
 * this one reads false is seen at the next poll. */
static atomic_bool axon_coll_any;
static bool axon_coll_in_progress;             /* the hook runs (a nested progress skips it) */

static void axon_coll_note(struct axon_coll_sched *s, int rc)
{
    if (rc != MPI_SUCCESS && s->err == MPI_SUCCESS)
        s->err = rc;
}

/* Whether the schedule runs on after its error. A schedule that keeps going does (below), and so does
 * every schedule after a truncated receive: the members disagree about the message's size, and a member
 * that stopped there would leave the others, whose own steps went well, waiting forever for its next
 * messages (a bcast whose root's count is larger, split into segments: the others' receives truncate
 * in the scatter, and the root waits for their part of the allgather). Where the steps an algorithm
 * takes do not depend on the message's size (the trees; scatter-allgather while no segment is empty),
 * the steps after it match the others' one for one; the data they carry is undefined, as MPI leaves
 * it. */
static bool axon_coll_goes_on(const struct axon_coll_sched *s)
{
    return s->err == MPI_SUCCESS || s->keep_going || s->err == MPI_ERR_TRUNCATE;
}

/* Starts the current round: local steps run, messages are posted. After an error the remaining steps
 * are skipped (what was posted still completes before the schedule ends), except in a schedule that
 * keeps going (a GPU schedule, or one with call steps): there a local step can fail for reasons of this
 * rank alone (a copy or a kernel the driver refuses), and the other members, who cannot know, would
 * wait forever for the messages skipped; so it goes on to its end and completes with the error. */
static void axon_coll_round_start(struct axon_coll_sched *s)
{
    int first = s->cur ? s->round_end[s->cur - 1] : 0, end = s->round_end[s->cur];
    for (int i = first; i < end && axon_coll_goes_on(s); i++) {
        struct axon_coll_step *st = &s->steps[i];
        switch (st->kind) {
        case AXON_COLL_SEND:
            axon_coll_note(s, axon_coll_transport->isend(st->src, st->count, &st->dt, st->peer, s->tag, st->pc,
                                                         &st->handle));
            break;
        case AXON_COLL_RECV:
            axon_coll_note(s, axon_coll_transport->irecv(st->dst, st->count, &st->dt, st->peer, s->tag, st->pc,
                                                         &st->handle));
            break;
        case AXON_COLL_COPY:
            if (st->call)
                axon_coll_note(s, st->call(st->arg));
            else
                axon_coll_note(s, s->gpu ? axon_coll_gpu_copy(s, st->src, st->count, &st->dt, st->dst, st->dcount,
                                                              &st->ddt)
                                         : axon_coll_data_copy(st->src, st->count, &st->dt, st->dst, st->dcount,
                                                               &st->ddt));
            break;
        case AXON_COLL_REDUCE:
            if (st->count > 0)
                axon_coll_note(s, s->gpu ? axon_coll_gpu_reduce(s, st->src, st->dst, st->count)
                                         : axon_coll_reduce_packed(s, st->src, st->dst, st->count));
            break;
        case AXON_COLL_GPU:
            break; /* only in what axon_coll_sched_steps reports */
        }
    }
    s->started = true;
}

/* Whether every message of the current round has completed; releases those that have. */
static bool axon_coll_round_done(struct axon_coll_sched *s)
{
    int first = s->cur ? s->round_end[s->cur - 1] : 0, end = s->round_end[s->cur];
    bool all = true;
    for (int i = first; i < end; i++) {
        struct axon_coll_step *st = &s->steps[i];
        if (!st->handle)
            continue;
        int err = MPI_SUCCESS;
        if (!axon_coll_transport->done(st->handle, &err)) {
            all = false;
            continue;
        }
        axon_coll_note(s, err);
        axon_coll_transport->release(st->handle);
        st->handle = NULL;
    }
    return all;
}

/* Runs a schedule as far as it goes now; true when it has ended. */
static bool axon_coll_advance(struct axon_coll_sched *s, bool *moved)
{
    while (s->cur < s->nrounds) {
        if (!s->started) {
            axon_coll_round_start(s);
            *moved = true;
        }
        if (!axon_coll_round_done(s))
            return false;
        *moved = true;
        s->started = false;
        s->cur = axon_coll_goes_on(s) ? s->cur + 1 : s->nrounds;
    }
    return true;
}

/* Appended at the tail of the outstanding schedules: older ones go first in the hook (the caller holds
 * the lock). */
static void axon_coll_enqueue(struct axon_coll_sched *s)
{
    struct axon_coll_sched **p = &axon_coll_list;
    while (*p)
        p = &(*p)->next;
    *p = s;
    s->next = NULL;
    axon_coll_count++;
    atomic_store_explicit(&axon_coll_any, true, memory_order_relaxed);
}

/* A schedule has ended: its hooks, then its request completes, unless its continuation takes the request
 * on (queued: the hook's loop, which may be running, reaches it at the tail). */
static void axon_coll_end(struct axon_coll_sched *s)
{
    int err = s->err;
    struct axon_request *req = s->req;
    if (s->on_end)
        err = s->on_end(s->on_end_arg, err);
    struct axon_coll_sched *next = s->then ? s->then(s->then_arg, &err) : NULL;
    axon_coll_sched_discard(s);
    if (next) {
        next->req = req;
        axon_coll_enqueue(next);
        return;
    }
    if (req)
        axon_request_coll_complete(req, err);
}

int axon_coll_sched_start(struct axon_coll_sched *s, struct axon_request *req)
{
    axon_coll_sched_round(s); /* closes the last round */
    if (s->err != MPI_SUCCESS)
        return s->err;
    if (s->dry)
        return MPI_ERR_INTERN; /* placeholders: nothing to run on */
    s->req = req;
    axon_ucx_lock();
    bool moved = false;
    /* Handed off only to a thread with CPUs of its own: one that shares the program's core would take
     * the same time from it later, and slower. */
    bool handoff = s->handoff && axon_ucx_progress_thread_has_cpus();
    if (!handoff && axon_coll_advance(s, &moved))
        axon_coll_end(s);
    else
        axon_coll_enqueue(s);
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

int axon_coll_progress(void)
{
    if (!atomic_load_explicit(&axon_coll_any, memory_order_relaxed))
        return 0;
    axon_ucx_lock();
    if (axon_coll_in_progress || !axon_coll_list) {
        axon_ucx_unlock();
        return 0;
    }
    axon_coll_in_progress = true;
    bool moved = false;
    struct axon_coll_sched **p = &axon_coll_list;
    while (*p) {
        struct axon_coll_sched *s = *p;
        if (axon_coll_advance(s, &moved)) {
            *p = s->next;
            axon_coll_count--;
            axon_coll_end(s);
        } else {
            p = &s->next;
        }
    }
    axon_coll_in_progress = false;
    if (!axon_coll_list)
        atomic_store_explicit(&axon_coll_any, false, memory_order_relaxed);
    axon_ucx_unlock();
    return moved ? 1 : 0;
}

int axon_coll_outstanding(void)
{
    axon_ucx_lock();
    int n = axon_coll_count;
    axon_ucx_unlock();
    return n;
}

int axon_coll_init(void)
{
    static bool hooked;
    if (hooked)
        return MPI_SUCCESS;
    int rc = axon_ucx_progress_hook_add(axon_coll_progress, &axon_coll_any);
    if (rc == MPI_SUCCESS)
        hooked = true;
    return rc;
}

void axon_coll_finalize(void)
{
    /* A correct program has completed its collectives; what is left (freed requests whose peers never
     * joined) is dropped without its messages. */
    axon_ucx_lock();
    while (axon_coll_list) {
        struct axon_coll_sched *s = axon_coll_list;
        axon_coll_list = s->next;
        for (int i = 0; i < s->nsteps; i++)
            if (s->steps[i].handle)
                axon_coll_transport->release(s->steps[i].handle);
        s->nsteps = 0;
        s->req = NULL;
        s->then = NULL; /* nothing continues */
        axon_coll_end(s);
    }
    axon_coll_count = 0;
    atomic_store_explicit(&axon_coll_any, false, memory_order_relaxed);
    while (axon_coll_free_list) {
        struct axon_coll_sched *s = axon_coll_free_list;
        axon_coll_free_list = s->next;
        free(s);
    }
    axon_coll_free_count = 0;
    axon_coll_cache_drain();
    axon_ucx_unlock();
}
