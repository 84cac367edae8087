/* The simulator's engine (coll/axon_coll_simulate.h): how a call becomes each rank's collective, the
 * estimate that refuses calls too large to simulate, the build of every rank's dry schedule into compact
 * steps, and the discrete-event simulation of those steps.
 *
 * Scale. At 131,072 ranks no rank's schedule is kept: each is built, read into 16-byte steps and
 * discarded, so memory is the steps of all ranks (a few dozen per rank for the O(log n) algorithms) plus
 * the messages in flight. Events: a rank's round start, a transfer's start (after its latency) and its
 * end, in one binary heap; a transfer's end moves when the sharing around it changes. */
#include "coll/axon_coll_simulate.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_op.h"
#include "coll/coll.h"
#include "runtime/runtime.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reductions are of floats, as in NCCL's tests. */
static const struct axon_dtype_layout axon_coll_sim_float = {
    .size = 4, .extent = 4, .true_lb = 0, .true_extent = 4, .contig = true, .basic = MPI_FLOAT, .basic_count = 1};

/* ---- calls ---------------------------------------------------------------------------------------- */

bool axon_coll_sim_supports(enum axon_coll_kind kind)
{
    switch (kind) {
    case AXON_COLL_KIND_BARRIER:
    case AXON_COLL_KIND_BCAST:
    case AXON_COLL_KIND_REDUCE:
    case AXON_COLL_KIND_ALLREDUCE:
    case AXON_COLL_KIND_ALLGATHER:
    case AXON_COLL_KIND_ALLTOALL:
    case AXON_COLL_KIND_REDUCE_SCATTER:
        return true;
    default:
        return false;
    }
}

int axon_coll_sim_kind(const char *name)
{
    for (int k = 0; k < AXON_COLL_NKINDS; k++)
        if (axon_coll_sim_supports((enum axon_coll_kind)k) && strcmp(axon_coll_desc_of(k)->name, name) == 0)
            return k;
    return -1;
}

/* The call's data on n ranks: count (floats of a reduction's vector, bytes of a bcast) and block (bytes
 * of a rank's block; floats of a reduce_scatter's). */
static void axon_coll_sim_shape(const struct axon_coll_sim_call *c, int n, int64_t *count, int64_t *block)
{
    int64_t bytes = c->bytes > 0 ? c->bytes : 0;
    *count = *block = 0;
    switch (c->kind) {
    case AXON_COLL_KIND_REDUCE:
    case AXON_COLL_KIND_ALLREDUCE:
        *count = bytes / 4;
        break;
    case AXON_COLL_KIND_REDUCE_SCATTER:
        *block = bytes / 4 / n;
        *count = *block * n;
        break;
    case AXON_COLL_KIND_BCAST:
        *count = bytes;
        break;
    case AXON_COLL_KIND_ALLGATHER:
    case AXON_COLL_KIND_ALLTOALL:
        *block = bytes / n;
        break;
    default:
        break;
    }
}

void axon_coll_sim_buffers(const struct axon_coll_sim_call *c, int n, int64_t *send_bytes, int64_t *recv_bytes)
{
    int64_t count, block;
    axon_coll_sim_shape(c, n, &count, &block);
    *send_bytes = *recv_bytes = 0;
    switch (c->kind) {
    case AXON_COLL_KIND_REDUCE:
    case AXON_COLL_KIND_ALLREDUCE:
        *send_bytes = *recv_bytes = count * 4;
        break;
    case AXON_COLL_KIND_REDUCE_SCATTER:
        *send_bytes = count * 4;
        *recv_bytes = block * 4;
        break;
    case AXON_COLL_KIND_BCAST:
        *recv_bytes = count;
        break;
    case AXON_COLL_KIND_ALLGATHER:
        *send_bytes = block;
        *recv_bytes = block * n;
        break;
    case AXON_COLL_KIND_ALLTOALL:
        *send_bytes = *recv_bytes = block * n;
        break;
    default:
        break;
    }
}

int64_t axon_coll_sim_size(const struct axon_coll_sim_call *c, int n)
{
    int64_t count, block;
    axon_coll_sim_shape(c, n, &count, &block);
    switch (c->kind) {
    case AXON_COLL_KIND_REDUCE:
    case AXON_COLL_KIND_ALLREDUCE:
    case AXON_COLL_KIND_REDUCE_SCATTER:
        return count * 4;
    case AXON_COLL_KIND_BCAST:
        return count;
    case AXON_COLL_KIND_ALLGATHER:
    case AXON_COLL_KIND_ALLTOALL:
        return block * n;
    default:
        return 0;
    }
}

double axon_coll_sim_busbw(enum axon_coll_kind kind, int n, int64_t size, double t)
{
    if (t <= 0)
        return 0;
    double s = (double)size / t;
    switch (kind) {
    case AXON_COLL_KIND_ALLREDUCE:
        return s * 2 * (n - 1) / n;
    case AXON_COLL_KIND_ALLGATHER:
    case AXON_COLL_KIND_REDUCE_SCATTER:
    case AXON_COLL_KIND_ALLTOALL:
        return s * (n - 1) / n;
    case AXON_COLL_KIND_BCAST:
    case AXON_COLL_KIND_REDUCE:
        return s;
    default:
        return 0;
    }
}

static bool axon_coll_sim_is_reduction(enum axon_coll_kind kind)
{
    return kind == AXON_COLL_KIND_REDUCE || kind == AXON_COLL_KIND_ALLREDUCE || kind == AXON_COLL_KIND_REDUCE_SCATTER;
}

/* A call on GPU buffers whose machine is one NVLink domain: the domain algorithms may run it. */
static bool axon_coll_sim_one_domain(const struct axon_coll_sim_call *c, const struct axon_runtime_topo_spec *t)
{
    return c->memory == AXON_COLL_SIM_DEVICE && t->nodes == 1 && t->domains_per_node == 1;
}

int axon_coll_sim_alg(const struct axon_coll_sim_call *c, const struct axon_runtime_topo_spec *t)
{
    int n = (int)axon_runtime_topo_spec_ranks(t);
    int64_t count, block, bytes = 0;
    axon_coll_sim_shape(c, n, &count, &block);
    unsigned have = 0;
    /* What each entry point hands the selection (coll/axon_coll_<name>.c). */
    switch (c->kind) {
    case AXON_COLL_KIND_REDUCE:
    case AXON_COLL_KIND_ALLREDUCE:
    case AXON_COLL_KIND_REDUCE_SCATTER:
        bytes = count * 4;
        have = !c->op || axon_coll_op_commutative(c->op) ? AXON_COLL_NEEDS_COMMUTATIVE : 0;
        break;
    case AXON_COLL_KIND_BCAST:
        bytes = count;
        break;
    case AXON_COLL_KIND_ALLGATHER:
    case AXON_COLL_KIND_ALLTOALL:
        bytes = block;
        have = AXON_COLL_NEEDS_UNIFORM;
        break;
    default:
        break;
    }
    /* What axon_coll_hier_have says of the whole machine's node map. */
    if (t->nodes > 1 && t->ranks_per_node > 1)
        have |= AXON_COLL_NEEDS_NODES;
    /* GPU buffers: every member's (what the members agree on before a blocking call that moves more than
     * AXON_COLL_GPU_AGREE_MIN bytes a rank), and the domain algorithms where the machine is one domain
     * (for reductions, with a commutative operation). */
    int64_t moved = c->kind == AXON_COLL_KIND_ALLGATHER || c->kind == AXON_COLL_KIND_ALLTOALL ? block * n : bytes;
    if (c->memory == AXON_COLL_SIM_DEVICE && moved > axon_config.coll_gpu_agree_min) {
        have |= AXON_COLL_NEEDS_DEVICE;
        if (axon_coll_sim_one_domain(c, t) &&
            (!axon_coll_sim_is_reduction(c->kind) || !c->op || axon_coll_op_commutative(c->op)))
            have |= AXON_COLL_NEEDS_DOMAIN;
    }
    long forced = c->alg >= 0 ? c->alg : axon_coll_select_forced(c->kind);
    return axon_coll_select_with(axon_coll_desc_of(c->kind), forced, n, bytes, have);
}

void axon_coll_sim_add(struct axon_coll_sched *s, const struct axon_coll_sim_call *c, void *sendbuf, void *recvbuf)
{
    int n = axon_coll_sched_size(s);
    int64_t count, block;
    axon_coll_sim_shape(c, n, &count, &block);
    /* Forced through the knob's slot, as AXON_COLL_<NAME>_ALG forces it: the entry point picks. */
    long saved = axon_config.coll_alg[c->kind];
    if (c->alg >= 0)
        axon_config.coll_alg[c->kind] = c->alg + 1;
    if (axon_coll_sim_is_reduction(c->kind))
        axon_coll_sched_set_op(s, c->op, MPI_FLOAT, &axon_coll_sim_float);
    switch (c->kind) {
    case AXON_COLL_KIND_BARRIER:
        axon_coll_barrier(s);
        break;
    case AXON_COLL_KIND_BCAST:
        axon_coll_bcast(s, recvbuf, count, &axon_coll_bytes, 0);
        break;
    case AXON_COLL_KIND_REDUCE:
        axon_coll_reduce(s, sendbuf, recvbuf, count, &axon_coll_sim_float, 0);
        break;
    case AXON_COLL_KIND_ALLREDUCE:
        axon_coll_allreduce(s, sendbuf, recvbuf, count, &axon_coll_sim_float);
        break;
    case AXON_COLL_KIND_REDUCE_SCATTER: {
        int64_t *counts = axon_coll_sched_alloc_meta(s, sizeof(*counts) * (size_t)n);
        if (!counts)
            break; /* the schedule holds the error */
        for (int j = 0; j < n; j++)
            counts[j] = block;
        axon_coll_reduce_scatter(s, sendbuf, recvbuf, counts, &axon_coll_sim_float);
        break;
    }
    case AXON_COLL_KIND_ALLGATHER: {
        struct axon_coll_block *blocks = axon_coll_sched_alloc_meta(s, sizeof(*blocks) * (size_t)n);
        if (!blocks)
            break;
        for (int j = 0; j < n; j++)
            blocks[j] = (struct axon_coll_block){(char *)recvbuf + j * block, block, axon_coll_bytes};
        struct axon_coll_block mine = {sendbuf, block, axon_coll_bytes};
        axon_coll_allgather(s, &mine, blocks, AXON_COLL_NEEDS_UNIFORM);
        break;
    }
    case AXON_COLL_KIND_ALLTOALL: {
        struct axon_coll_block *send = axon_coll_sched_alloc_meta(s, sizeof(*send) * (size_t)n);
        struct axon_coll_block *recv = axon_coll_sched_alloc_meta(s, sizeof(*recv) * (size_t)n);
        if (!send || !recv)
            break;
        for (int j = 0; j < n; j++) {
            send[j] = (struct axon_coll_block){(char *)sendbuf + j * block, block, axon_coll_bytes};
            recv[j] = (struct axon_coll_block){(char *)recvbuf + j * block, block, axon_coll_bytes};
        }
        axon_coll_alltoall(s, send, recv, AXON_COLL_NEEDS_UNIFORM);
        break;
    }
    default:
        break;
    }
    axon_config.coll_alg[c->kind] = saved;
}

/* ---- the simulation's state ----------------------------------------------------------------------- */

struct sim_step {
    int64_t bytes;
    int32_t peer;
    uint8_t kind;      /* enum axon_coll_step_kind */
    uint8_t round_end;
    uint8_t host;      /* a message of host memory whatever the call's (axon_coll_step_info) */
};

/* A node's lists of transfers that share a capacity; a host's list is kept at its first node. */
enum { SIM_OUT, SIM_IN, SIM_LOCAL, SIM_HOST, SIM_DOMAIN, SIM_NLISTS };

/* A message: its send and receive sides, which meet in the matching queue of (source, destination), and
 * its transfer. */
struct sim_xfer {
    int64_t bytes;
    double send_post, recv_post, arrival;
    double remaining, rate, last; /* a shared transfer's progress, updated when its rate changes */
    int32_t src, dst;
    int32_t next;                 /* the queue's (or the free list's) next */
    int32_t heap;                 /* position of its event in the heap, -1 */
    int32_t prev_link[3], next_link[3]; /* in the node lists: [0] out, local or domain, [1] in, [2] host */
    uint8_t has_send, has_recv, ended, level, listed;
    uint8_t host;                 /* of host memory whatever the call's: never the domain level */
};

struct sim_rank {
    int64_t next;    /* its first step not yet started */
    double cpu;      /* when its CPU is free */
    double done;     /* the latest completion in the running round */
    double ipc_free; /* when its GPU messages' copies are done (it makes them one at a time) */
    int32_t pending; /* messages of the running round not complete */
    uint8_t posting, finished;
};

struct sim_node {
    int32_t head[SIM_NLISTS];
    int32_t count[SIM_NLISTS];
    uint8_t dirty;
};

enum { EV_RANK, EV_BEGIN, EV_END };
struct sim_event {
    double time;
    int32_t kind, id;
};

/* A slot of the matching table: the queue of one-sided messages from src to dst (key 0: empty). */
struct sim_queue {
    uint64_t key;
    int32_t head, tail;
};

struct sim {
    const struct axon_runtime_topo_spec *topo;
    const struct axon_coll_model *m;
    const struct axon_coll_sim_opts *opts;
    struct axon_coll_sim_result *res;
    int n;
    double gamma;
    bool device;     /* the buffers are GPU memory: copies and reductions are GPU operations */
    double gpu_beta; /* s per byte of GPU work of one rank: domain.beta, or its share of domain.capacity */

    struct sim_step *steps;
    int64_t nsteps, cap_steps;
    int64_t *first; /* rank r's steps are [first[r], first[r+1]) */

    struct sim_rank *ranks;
    struct sim_node *nodes;
    int32_t *dirty;
    int ndirty;

    struct sim_xfer *x;
    int32_t nx, cap_x, free_x;

    struct sim_event *heap;
    int32_t nheap, cap_heap;

    struct sim_queue *q;
    uint64_t cap_q, nq;

    int err;
    double end;
    int finished;
};

static void sim_fail(struct sim *S, int err, const char *fmt, ...)
{
    if (S->err != MPI_SUCCESS)
        return;
    S->err = err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(S->res->why, sizeof(S->res->why), fmt, ap);
    va_end(ap);
}

/* Grows an array to hold `need` elements; false (and the error set) when out of memory. */
static bool sim_grow(struct sim *S, void **array, int64_t need, int64_t *cap, size_t elem)
{
    if (need <= *cap)
        return true;
    int64_t ncap = *cap ? *cap : 1024;
    while (ncap < need)
        ncap *= 2;
    void *p = realloc(*array, elem * (size_t)ncap);
    if (!p) {
        sim_fail(S, MPI_ERR_NO_MEM, "out of memory (%lld elements of %zu bytes)", (long long)ncap, elem);
        return false;
    }
    *array = p;
    *cap = ncap;
    return true;
}

/* ---- the event heap ------------------------------------------------------------------------------- */

static void sim_heap_set(struct sim *S, int32_t pos, struct sim_event ev)
{
    S->heap[pos] = ev;
    if (ev.kind != EV_RANK)
        S->x[ev.id].heap = pos;
}

static void sim_heap_up(struct sim *S, int32_t pos)
{
    struct sim_event ev = S->heap[pos];
    while (pos > 0) {
        int32_t parent = (pos - 1) / 2;
        if (S->heap[parent].time <= ev.time)
            break;
        sim_heap_set(S, pos, S->heap[parent]);
        pos = parent;
    }
    sim_heap_set(S, pos, ev);
}

static void sim_heap_down(struct sim *S, int32_t pos)
{
    struct sim_event ev = S->heap[pos];
    for (;;) {
        int32_t child = 2 * pos + 1;
        if (child >= S->nheap)
            break;
        if (child + 1 < S->nheap && S->heap[child + 1].time < S->heap[child].time)
            child++;
        if (S->heap[child].time >= ev.time)
            break;
        sim_heap_set(S, pos, S->heap[child]);
        pos = child;
    }
    sim_heap_set(S, pos, ev);
}

static void sim_push(struct sim *S, int kind, int32_t id, double time)
{
    int64_t cap = S->cap_heap;
    if (!sim_grow(S, (void **)&S->heap, (int64_t)S->nheap + 1, &cap, sizeof(*S->heap)))
        return;
    S->cap_heap = (int32_t)cap;
    S->heap[S->nheap] = (struct sim_event){time, kind, id};
    sim_heap_up(S, S->nheap++);
}

static struct sim_event sim_pop(struct sim *S)
{
    struct sim_event top = S->heap[0];
    if (top.kind != EV_RANK)
        S->x[top.id].heap = -1;
    if (--S->nheap > 0) {
        S->heap[0] = S->heap[S->nheap];
        sim_heap_down(S, 0);
    }
    return top;
}

/* Moves a transfer's pending event to a new time. */
static void sim_reschedule(struct sim *S, int32_t xi, double time)
{
    int32_t pos = S->x[xi].heap;
    double old = S->heap[pos].time;
    S->heap[pos].time = time;
    if (time < old)
        sim_heap_up(S, pos);
    else
        sim_heap_down(S, pos);
}

/* ---- matching ------------------------------------------------------------------------------------- */

static uint64_t sim_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    return k ^ (k >> 33);
}

static uint64_t sim_key(int src, int dst)
{
    return ((uint64_t)(uint32_t)src << 32 | (uint32_t)dst) + 1;
}

/* The slot of key, or of the empty slot where it would go. */
static uint64_t sim_slot(const struct sim *S, uint64_t key)
{
    uint64_t mask = S->cap_q - 1, i = sim_hash(key) & mask;
    while (S->q[i].key != 0 && S->q[i].key != key)
        i = (i + 1) & mask;
    return i;
}

static bool sim_queue_grow(struct sim *S)
{
    if (S->nq * 2 < S->cap_q)
        return true;
    uint64_t old_cap = S->cap_q;
    struct sim_queue *old = S->q;
    S->cap_q = old_cap ? old_cap * 2 : 1024;
    S->q = calloc(S->cap_q, sizeof(*S->q));
    if (!S->q) {
        S->q = old;
        S->cap_q = old_cap;
        sim_fail(S, MPI_ERR_NO_MEM, "out of memory (matching table of %llu slots)", (unsigned long long)old_cap * 2);
        return false;
    }
    for (uint64_t i = 0; i < old_cap; i++)
        if (old[i].key)
            S->q[sim_slot(S, old[i].key)] = old[i];
    free(old);
    return true;
}

/* The first one-sided message from src to dst, or -1. */
static int32_t sim_queue_head(const struct sim *S, int src, int dst)
{
    const struct sim_queue *e = &S->q[sim_slot(S, sim_key(src, dst))];
    return e->key ? e->head : -1;
}

static void sim_queue_append(struct sim *S, int32_t xi)
{
    if (!sim_queue_grow(S))
        return;
    struct sim_xfer *x = &S->x[xi];
    uint64_t key = sim_key(x->src, x->dst), i = sim_slot(S, key);
    x->next = -1;
    if (S->q[i].key) {
        S->x[S->q[i].tail].next = xi;
        S->q[i].tail = xi;
    } else {
        S->q[i] = (struct sim_queue){key, xi, xi};
        S->nq++;
    }
}

/* Takes the head of src -> dst's queue off; an emptied queue leaves the table (backward-shift deletion
 * keeps linear probing's runs whole). */
static void sim_queue_pop(struct sim *S, int src, int dst)
{
    uint64_t mask = S->cap_q - 1, i = sim_slot(S, sim_key(src, dst));
    int32_t next = S->x[S->q[i].head].next;
    if (next >= 0) {
        S->q[i].head = next;
        return;
    }
    S->q[i].key = 0;
    S->nq--;
    for (uint64_t j = (i + 1) & mask; S->q[j].key; j = (j + 1) & mask) {
        uint64_t home = sim_hash(S->q[j].key) & mask;
        /* The entry at j may fill the hole at i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            S->q[i] = S->q[j];
            S->q[j].key = 0;
            i = j;
        }
    }
}

static int32_t sim_xfer_new(struct sim *S, int src, int dst)
{
    int32_t xi = S->free_x;
    if (xi >= 0) {
        S->free_x = S->x[xi].next;
    } else {
        int64_t cap = S->cap_x;
        if (!sim_grow(S, (void **)&S->x, (int64_t)S->nx + 1, &cap, sizeof(*S->x)))
            return -1;
        S->cap_x = (int32_t)cap;
        xi = S->nx++;
    }
    S->x[xi] = (struct sim_xfer){.src = src, .dst = dst, .next = -1, .heap = -1, .send_post = -1, .recv_post = -1};
    return xi;
}

static void sim_xfer_free(struct sim *S, int32_t xi)
{
    S->x[xi].next = S->free_x;
    S->free_x = xi;
}

/* ---- ranks ---------------------------------------------------------------------------------------- */

static void sim_round_over(struct sim *S, int r)
{
    struct sim_rank *R = &S->ranks[r];
    sim_push(S, EV_RANK, r, R->done > R->cpu ? R->done : R->cpu);
}

/* One of rank r's messages completed at time t. */
static void sim_complete(struct sim *S, int r, double t)
{
    struct sim_rank *R = &S->ranks[r];
    if (t > R->done)
        R->done = t;
    if (--R->pending == 0 && !R->posting)
        sim_round_over(S, r);
}

/* ---- transfers ------------------------------------------------------------------------------------ */

/* A message inside a domain is the domain's (CUDA IPC) only for GPU data: host buffers, and the host
 * messages of a GPU call (a domain algorithm's descriptors, a barrier's), go through the node. */
static enum axon_coll_level sim_level(const struct sim *S, const struct sim_xfer *x)
{
    enum axon_coll_level l = axon_coll_topo_level(S->topo, x->src, x->dst);
    if (l == AXON_COLL_LEVEL_DOMAIN && (S->opts->memory == AXON_COLL_SIM_HOST || x->host))
        l = AXON_COLL_LEVEL_NODE;
    return l;
}

/* The transfer waits its level's latency, then starts moving bytes. A GPU message inside a domain is a
 * copy its receiver makes from the sender's memory (CUDA IPC) and waits for, one at a time: it starts
 * when the receiver's copies before it are done. */
static void sim_launch(struct sim *S, int32_t xi, double start)
{
    struct sim_xfer *x = &S->x[xi];
    x->level = (uint8_t)sim_level(S, x);
    const struct axon_coll_model_level *lv = &S->m->level[x->level];
    if (x->level == AXON_COLL_LEVEL_DOMAIN) {
        struct sim_rank *R = &S->ranks[x->dst];
        if (R->ipc_free > start)
            start = R->ipc_free;
        R->ipc_free = start + lv->alpha + (double)x->bytes * lv->beta;
    }
    sim_push(S, EV_BEGIN, xi, start + lv->alpha);
}

/* The link slot a list uses in its transfers. */
static int sim_list_slot(int list)
{
    return list == SIM_IN ? 1 : list == SIM_HOST ? 2 : 0;
}

static void sim_list_add(struct sim *S, int node, int list, int32_t xi)
{
    int slot = sim_list_slot(list);
    struct sim_node *N = &S->nodes[node];
    struct sim_xfer *x = &S->x[xi];
    x->prev_link[slot] = -1;
    x->next_link[slot] = N->head[list];
    if (N->head[list] >= 0)
        S->x[N->head[list]].prev_link[slot] = xi;
    N->head[list] = xi;
    N->count[list]++;
    if (!N->dirty) {
        N->dirty = 1;
        S->dirty[S->ndirty++] = node;
    }
}

static void sim_list_remove(struct sim *S, int node, int list, int32_t xi)
{
    int slot = sim_list_slot(list);
    struct sim_node *N = &S->nodes[node];
    struct sim_xfer *x = &S->x[xi];
    if (x->prev_link[slot] >= 0)
        S->x[x->prev_link[slot]].next_link[slot] = x->next_link[slot];
    else
        N->head[list] = x->next_link[slot];
    if (x->next_link[slot] >= 0)
        S->x[x->next_link[slot]].prev_link[slot] = x->prev_link[slot];
    N->count[list]--;
    if (!N->dirty) {
        N->dirty = 1;
        S->dirty[S->ndirty++] = node;
    }
}

/* Whether every transfer shares its machine's capacity: several nodes on one host, and a capacity. */
static bool sim_host_shared(const struct sim *S)
{
    return S->topo->nodes_per_host > 1 && S->m->host_capacity > 0;
}

/* The first node of the host of rank r, where the host's list lives. */
static int sim_host_node(const struct sim *S, int r)
{
    int node = axon_runtime_topo_spec_node(S->topo, r);
    return node - node % S->topo->nodes_per_host;
}

/* Bytes/s of a shared transfer now: its share of every capacity it draws on, at most one link's. */
/* The list of shared memory capacity a transfer of the node or domain level draws on (SIM_LOCAL,
 * SIM_DOMAIN), or -1: none set for its level, or a transfer small enough to stay in the caches
 * (node.capacity_min). */
static int sim_capacity_list(const struct sim *S, const struct sim_xfer *x)
{
    if (x->bytes <= S->m->level[AXON_COLL_LEVEL_NODE].capacity_min ||
        !(S->m->level[x->level].capacity > 0))
        return -1;
    return x->level == AXON_COLL_LEVEL_NODE ? SIM_LOCAL : x->level == AXON_COLL_LEVEL_DOMAIN ? SIM_DOMAIN : -1;
}

/* Whether a transfer also draws on its machine's memory: synthetic nodes of one host (sim_host_shared),
 * unless it stays in the caches. */
static bool sim_draws_on_host(const struct sim *S, const struct sim_xfer *x)
{
    return sim_host_shared(S) && x->bytes > S->m->level[AXON_COLL_LEVEL_NODE].capacity_min;
}

static double sim_rate(const struct sim *S, const struct sim_xfer *x)
{
    const struct axon_coll_model_level *lv = &S->m->level[x->level];
    double rate = lv->beta > 0 ? 1 / lv->beta : INFINITY;
    if (x->level == AXON_COLL_LEVEL_FABRIC) {
        double cap = rate * S->topo->nics_per_node;
        const struct sim_node *from = &S->nodes[axon_runtime_topo_spec_node(S->topo, x->src)];
        const struct sim_node *to = &S->nodes[axon_runtime_topo_spec_node(S->topo, x->dst)];
        rate = fmin(rate, fmin(cap / from->count[SIM_OUT], cap / to->count[SIM_IN]));
    } else {
        int list = sim_capacity_list(S, x);
        const struct sim_node *at = &S->nodes[axon_runtime_topo_spec_node(S->topo, x->src)];
        if (list == SIM_LOCAL)
            rate = fmin(rate, lv->capacity / at->count[SIM_LOCAL]);
        else if (list == SIM_DOMAIN) /* each domain's, the node's domains taken as equally busy */
            rate = fmin(rate, lv->capacity * S->topo->domains_per_node / at->count[SIM_DOMAIN]);
    }
    if (sim_draws_on_host(S, x)) {
        const struct sim_node *host = &S->nodes[sim_host_node(S, x->src)];
        rate = fmin(rate, S->m->host_capacity / host->count[SIM_HOST]);
    }
    return rate;
}

static void sim_xfer_end(struct sim *S, int32_t xi, double t);

static void sim_xfer_begin(struct sim *S, int32_t xi, double t)
{
    struct sim_xfer *x = &S->x[xi];
    const struct axon_coll_model_level *lv = &S->m->level[x->level];
    if (x->bytes == 0) {
        sim_xfer_end(S, xi, t);
        return;
    }
    int from = axon_runtime_topo_spec_node(S->topo, x->src), to = axon_runtime_topo_spec_node(S->topo, x->dst);
    bool host = sim_draws_on_host(S, x);
    int list = sim_capacity_list(S, x);
    if (x->level == AXON_COLL_LEVEL_FABRIC) {
        sim_list_add(S, from, SIM_OUT, xi);
        sim_list_add(S, to, SIM_IN, xi);
    } else if (list >= 0) {
        sim_list_add(S, from, list, xi);
    } else if (!host) {
        /* Unshared: its end is known now. */
        sim_push(S, EV_END, xi, t + (double)x->bytes * lv->beta);
        return;
    }
    /* Synthetic nodes of one machine: every transfer also draws on the machine's memory (the sender's
     * host; a transfer between hosts draws on the sender's alone). */
    if (host)
        sim_list_add(S, sim_host_node(S, x->src), SIM_HOST, xi);
    x = &S->x[xi];
    x->listed = 1;
    x->remaining = (double)x->bytes;
    x->rate = 0;
    x->last = t;
    /* Its end is set once the rates at its nodes are recomputed, after this instant's events. */
    sim_push(S, EV_END, xi, INFINITY);
}

static void sim_xfer_end(struct sim *S, int32_t xi, double t)
{
    struct sim_xfer *x = &S->x[xi];
    if (x->listed) {
        int from = axon_runtime_topo_spec_node(S->topo, x->src), to = axon_runtime_topo_spec_node(S->topo, x->dst);
        int list = sim_capacity_list(S, x);
        if (x->level == AXON_COLL_LEVEL_FABRIC) {
            sim_list_remove(S, from, SIM_OUT, xi);
            sim_list_remove(S, to, SIM_IN, xi);
        } else if (list >= 0) {
            sim_list_remove(S, from, list, xi);
        }
        if (sim_draws_on_host(S, x))
            sim_list_remove(S, sim_host_node(S, x->src), SIM_HOST, xi);
        x->listed = 0;
    }
    sim_complete(S, x->src, t);
    if (x->has_recv) {
        sim_complete(S, x->dst, x->recv_post > t ? x->recv_post : t);
        sim_xfer_free(S, xi);
    } else {
        /* An eager message ahead of its receive waits in the queue. */
        x->ended = 1;
        x->arrival = t;
    }
}

/* Brings a shared transfer's progress to time t and its end in line with its new rate. */
static void sim_xfer_update(struct sim *S, int32_t xi, double t)
{
    struct sim_xfer *x = &S->x[xi];
    if (t > x->last) {
        x->remaining -= x->rate * (t - x->last);
        x->last = t;
    }
    if (!(x->remaining > 0))
        x->remaining = 0;
    x->rate = sim_rate(S, x);
    sim_reschedule(S, xi, x->remaining > 0 ? t + x->remaining / x->rate : t);
}

static void sim_recompute(struct sim *S, double t)
{
    for (int i = 0; i < S->ndirty; i++) {
        struct sim_node *N = &S->nodes[S->dirty[i]];
        N->dirty = 0;
        for (int list = 0; list < SIM_NLISTS; list++) {
            int slot = sim_list_slot(list);
            for (int32_t xi = N->head[list]; xi >= 0; xi = S->x[xi].next_link[slot])
                sim_xfer_update(S, xi, t);
        }
    }
    S->ndirty = 0;
}

/* ---- posting -------------------------------------------------------------------------------------- */

static bool sim_peer_ok(struct sim *S, int r, int peer)
{
    if (peer >= 0 && peer < S->n)
        return true;
    sim_fail(S, MPI_ERR_INTERN, "rank %d names peer %d of %d ranks", r, peer, S->n);
    return false;
}

static void sim_post_send(struct sim *S, int r, int peer, int64_t bytes, bool host, double c)
{
    if (!sim_peer_ok(S, r, peer))
        return;
    struct axon_coll_sim_result *res = S->res;
    res->messages++;
    res->bytes += bytes;
    if (res->rank_messages)
        res->rank_messages[r]++;
    if (res->rank_bytes)
        res->rank_bytes[r] += bytes;
    int32_t xi = sim_queue_head(S, r, peer);
    if (xi >= 0 && S->x[xi].has_recv) {
        sim_queue_pop(S, r, peer);
        if (S->x[xi].bytes != bytes) {
            sim_fail(S, MPI_ERR_INTERN, "rank %d sends %lld bytes to rank %d, which receives %lld", r,
                     (long long)bytes, peer, (long long)S->x[xi].bytes);
            return;
        }
    } else {
        xi = sim_xfer_new(S, r, peer);
        if (xi < 0)
            return;
        sim_queue_append(S, xi);
    }
    struct sim_xfer *x = &S->x[xi];
    x->has_send = 1;
    x->send_post = c;
    x->bytes = bytes;
    x->host |= host;
    if (bytes <= S->m->eager_max)
        sim_launch(S, xi, c);
    else if (x->has_recv)
        sim_launch(S, xi, x->recv_post > c ? x->recv_post : c);
}

static void sim_post_recv(struct sim *S, int r, int peer, int64_t bytes, bool host, double c)
{
    if (!sim_peer_ok(S, r, peer))
        return;
    int32_t xi = sim_queue_head(S, peer, r);
    if (xi >= 0 && S->x[xi].has_send) {
        sim_queue_pop(S, peer, r);
        struct sim_xfer *x = &S->x[xi];
        if (x->bytes != bytes) {
            sim_fail(S, MPI_ERR_INTERN, "rank %d sends %lld bytes to rank %d, which receives %lld", peer,
                     (long long)x->bytes, r, (long long)bytes);
            return;
        }
        x->has_recv = 1;
        x->recv_post = c;
        x->host |= host;
        if (x->ended) {
            sim_complete(S, r, x->arrival > c ? x->arrival : c);
            sim_xfer_free(S, xi);
        } else if (bytes > S->m->eager_max) {
            sim_launch(S, xi, x->send_post > c ? x->send_post : c);
        }
        return;
    }
    xi = sim_xfer_new(S, peer, r);
    if (xi < 0)
        return;
    S->x[xi].has_recv = 1;
    S->x[xi].recv_post = c;
    S->x[xi].bytes = bytes;
    S->x[xi].host = host;
    sim_queue_append(S, xi);
}

/* Rank r at time t: its running round has ended (or it starts); it starts the next, or is done. */
static void sim_rank_event(struct sim *S, int r, double t)
{
    struct sim_rank *R = &S->ranks[r];
    int64_t i = R->next, end = S->first[r + 1];
    if (i == end) {
        R->finished = 1;
        S->finished++;
        if (R->cpu > t)
            t = R->cpu;
        if (t > S->end)
            S->end = t;
        return;
    }
    const struct axon_coll_model *m = S->m;
    double c = t > R->cpu ? t : R->cpu;
    R->posting = 1;
    R->done = t;
    while (i < end && S->err == MPI_SUCCESS) {
        const struct sim_step *st = &S->steps[i++];
        switch (st->kind) {
        case AXON_COLL_SEND:
            c += m->overhead;
            R->pending++;
            sim_post_send(S, r, st->peer, st->bytes, st->host, c);
            break;
        case AXON_COLL_RECV:
            c += m->overhead;
            R->pending++;
            sim_post_recv(S, r, st->peer, st->bytes, st->host, c);
            break;
        case AXON_COLL_COPY:
            /* On GPU buffers a copy is a driver copy the rank waits for (none for nothing to copy). */
            if (S->device)
                c += st->bytes ? m->level[AXON_COLL_LEVEL_DOMAIN].launch + (double)st->bytes * S->gpu_beta : 0;
            else
                c += (double)st->bytes * m->copy_beta;
            break;
        case AXON_COLL_REDUCE:
            c += (double)st->bytes * S->gamma + (S->device && st->bytes ? m->level[AXON_COLL_LEVEL_DOMAIN].launch : 0);
            break;
        case AXON_COLL_GPU:
            /* A domain algorithm's GPU work: its operations (peer holds their number), each started and
             * waited for, and its bytes. */
            c += st->peer * m->level[AXON_COLL_LEVEL_DOMAIN].launch + (double)st->bytes * S->gpu_beta;
            break;
        }
        R = &S->ranks[r];
        if (st->round_end)
            break;
    }
    R->next = i;
    R->cpu = c;
    R->posting = 0;
    if (R->pending == 0)
        sim_round_over(S, r);
}

/* ---- building ------------------------------------------------------------------------------------- */

typedef int sim_step_fn(void *arg, const struct axon_coll_step_info *st);

/* Builds rank r's dry schedule of the call and hands its steps to fn. */
static int sim_build_rank(const struct axon_runtime_topo_spec *t, const struct axon_coll_nodes *nodes,
                          const struct axon_coll_sim_call *c, int r, sim_step_fn *fn, void *arg)
{
    int n = (int)axon_runtime_topo_spec_ranks(t);
    struct axon_coll_sched *s;
    int rc = axon_coll_sched_create(NULL, r, n, 0, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_coll_sched_set_dry(s);
    axon_coll_sched_set_nodes(s, nodes);
    if (axon_coll_sim_one_domain(c, t))
        axon_coll_sched_set_dry_domain(s);
    else if (c->memory == AXON_COLL_SIM_DEVICE)
        axon_coll_sched_set_all_device(s);
    int64_t sb, rb;
    axon_coll_sim_buffers(c, n, &sb, &rb);
    /* Placeholders, distinct from each other and from the scratch: an in-place call is not this one. */
    void *send = axon_coll_sched_alloc(s, (size_t)sb), *recv = axon_coll_sched_alloc(s, (size_t)rb);
    if (send && recv)
        axon_coll_sim_add(s, c, send, recv);
    rc = axon_coll_sched_steps(s, fn, arg);
    axon_coll_sched_discard(s);
    return rc;
}

static int sim_count_step(void *arg, const struct axon_coll_step_info *st)
{
    (void)st;
    ++*(int64_t *)arg;
    return 0;
}

static int sim_keep_step(void *arg, const struct axon_coll_step_info *st)
{
    struct sim *S = arg;
    if (!sim_grow(S, (void **)&S->steps, S->nsteps + 1, &S->cap_steps, sizeof(*S->steps)))
        return MPI_ERR_NO_MEM;
    S->steps[S->nsteps++] = (struct sim_step){st->bytes, st->peer, (uint8_t)st->kind, st->round_end, st->host};
    return 0;
}

/* Steps of all ranks, from a few ranks' schedules: the root (rank 0), the middle and the last. */
static int sim_estimate(const struct axon_runtime_topo_spec *t, const struct axon_coll_nodes *nodes,
                        const struct axon_coll_sim_call *c, int64_t *out)
{
    int n = (int)axon_runtime_topo_spec_ranks(t);
    int samples[3] = {0, n / 2, n - 1}, ns = 0;
    int64_t steps = 0;
    for (int i = 0; i < 3; i++) {
        if (i > 0 && samples[i] == samples[i - 1])
            continue;
        int rc = sim_build_rank(t, nodes, c, samples[i], sim_count_step, &steps);
        if (rc != MPI_SUCCESS)
            return rc;
        ns++;
    }
    *out = (int64_t)((double)steps / ns * n);
    return MPI_SUCCESS;
}

/* Says which messages nobody matched. */
static void sim_report_stuck(struct sim *S)
{
    int stuck = S->n - S->finished, shown = 0;
    char list[300] = "";
    size_t len = 0;
    for (uint64_t i = 0; i < S->cap_q && shown < 3; i++) {
        if (!S->q[i].key)
            continue;
        const struct sim_xfer *x = &S->x[S->q[i].head];
        len += (size_t)snprintf(list + len, sizeof(list) - len, "%s rank %d %s %lld bytes %s rank %d",
                                shown ? ";" : "", x->has_send ? x->src : x->dst,
                                x->has_send ? "sends" : "receives", (long long)x->bytes,
                                x->has_send ? "to" : "from", x->has_send ? x->dst : x->src);
        shown++;
        if (len >= sizeof(list))
            break;
    }
    sim_fail(S, MPI_ERR_INTERN, "%d ranks never finished; unmatched:%s", stuck, shown ? list : " none");
}

static int sim_run(struct sim *S)
{
    int n = S->n;
    S->ranks = calloc((size_t)n, sizeof(*S->ranks));
    S->nodes = calloc((size_t)S->topo->nodes, sizeof(*S->nodes));
    S->dirty = malloc(sizeof(*S->dirty) * (size_t)S->topo->nodes);
    if (!S->ranks || !S->nodes || !S->dirty) {
        sim_fail(S, MPI_ERR_NO_MEM, "out of memory (state of %d ranks)", n);
        return S->err;
    }
    for (int i = 0; i < S->topo->nodes; i++)
        for (int l = 0; l < SIM_NLISTS; l++)
            S->nodes[i].head[l] = -1;
    S->free_x = -1;
    if (!sim_queue_grow(S))
        return S->err;
    for (int r = 0; r < n && S->err == MPI_SUCCESS; r++) {
        S->ranks[r].next = S->first[r];
        /* The call's own cost comes before its first step (more on GPU buffers). */
        S->ranks[r].cpu = S->m->call + (S->device ? S->m->level[AXON_COLL_LEVEL_DOMAIN].call : 0);
        sim_push(S, EV_RANK, r, 0);
    }
    int64_t events = 0;
    while (S->nheap > 0 && S->err == MPI_SUCCESS) {
        double t = S->heap[0].time;
        /* Every event of this instant first, then the shared rates, once. */
        while (S->nheap > 0 && S->heap[0].time <= t && S->err == MPI_SUCCESS) {
            struct sim_event ev = sim_pop(S);
            events++;
            switch (ev.kind) {
            case EV_RANK:
                sim_rank_event(S, ev.id, t);
                break;
            case EV_BEGIN:
                sim_xfer_begin(S, ev.id, t);
                break;
            case EV_END:
                sim_xfer_end(S, ev.id, t);
                break;
            }
        }
        if (S->ndirty)
            sim_recompute(S, t);
    }
    S->res->events = events;
    if (S->err == MPI_SUCCESS && S->finished < n)
        sim_report_stuck(S);
    return S->err;
}

int axon_coll_simulate(const struct axon_runtime_topo_spec *t, const struct axon_coll_model *m,
                       const struct axon_coll_sim_call *c, const struct axon_coll_sim_opts *opts,
                       struct axon_coll_sim_result *res)
{
    int64_t *rank_messages = res->rank_messages, *rank_bytes = res->rank_bytes;
    *res = (struct axon_coll_sim_result){.rank_messages = rank_messages, .rank_bytes = rank_bytes};
    struct sim S = {.topo = t, .m = m, .opts = opts, .res = res, .err = MPI_SUCCESS};
    int n = (int)axon_runtime_topo_spec_ranks(t);
    S.n = n;
    S.gamma = m->level[opts->memory == AXON_COLL_SIM_DEVICE ? AXON_COLL_LEVEL_DOMAIN : AXON_COLL_LEVEL_NODE].gamma;
    S.device = opts->memory == AXON_COLL_SIM_DEVICE;
    /* The ranks of a domain work on their GPUs at once (the domain algorithms are symmetric): with a
     * capacity (one GPU shared by them), each gets its share of it. */
    const struct axon_coll_model_level *dom = &m->level[AXON_COLL_LEVEL_DOMAIN];
    double per_domain = t->domains_per_node > 0 ? (double)t->ranks_per_node / t->domains_per_node : 1;
    S.gpu_beta = dom->beta;
    if (dom->capacity > 0 && per_domain / dom->capacity > S.gpu_beta)
        S.gpu_beta = per_domain / dom->capacity;
    if (!axon_coll_sim_supports(c->kind)) {
        snprintf(res->why, sizeof(res->why), "the simulator does not build %s", axon_coll_desc_of(c->kind)->name);
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    res->alg = axon_coll_sim_alg(c, t);
    if (rank_messages)
        memset(rank_messages, 0, sizeof(*rank_messages) * (size_t)n);
    if (rank_bytes)
        memset(rank_bytes, 0, sizeof(*rank_bytes) * (size_t)n);

    /* The machine's nodes, as a communicator's map: the hierarchical compositions read it. */
    struct axon_coll_nodes nodes;
    int *ids = malloc(sizeof(int) * (size_t)n);
    int rc = ids ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int r = 0; ids && r < n; r++)
        ids[r] = axon_runtime_topo_spec_node(t, r);
    if (rc == MPI_SUCCESS)
        rc = axon_coll_nodes_build(&nodes, ids, n, t->nodes);
    free(ids);
    if (rc != MPI_SUCCESS) {
        snprintf(res->why, sizeof(res->why), "out of memory for the node map of %d ranks", n);
        return rc;
    }
    rc = sim_estimate(t, &nodes, c, &res->steps_estimate);
    if (rc != MPI_SUCCESS) {
        snprintf(res->why, sizeof(res->why), "building a sample rank's schedule failed (error %d)", rc);
        goto out;
    }
    if (opts->max_steps > 0 && res->steps_estimate > opts->max_steps) {
        snprintf(res->why, sizeof(res->why),
                 "about %.3g steps (%.3g per rank x %d ranks), above the limit of %.3g",
                 (double)res->steps_estimate, (double)res->steps_estimate / n, n, (double)opts->max_steps);
        rc = MPI_ERR_OTHER;
        goto out;
    }

    S.first = malloc(sizeof(*S.first) * ((size_t)n + 1));
    if (!S.first) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    /* Room for the estimate and a little more: growing an array of hundreds of MiB copies it. */
    if (!sim_grow(&S, (void **)&S.steps, res->steps_estimate + res->steps_estimate / 8 + 16, &S.cap_steps,
                  sizeof(*S.steps))) {
        rc = S.err;
        goto out;
    }
    for (int r = 0; r < n; r++) {
        S.first[r] = S.nsteps;
        rc = sim_build_rank(t, &nodes, c, r, sim_keep_step, &S);
        if (rc != MPI_SUCCESS) {
            if (S.err == MPI_SUCCESS)
                snprintf(res->why, sizeof(res->why), "building rank %d's schedule failed (error %d)", r, rc);
            goto out;
        }
    }
    S.first[n] = S.nsteps;
    res->steps = S.nsteps;
    rc = sim_run(&S);
    res->time = S.end;
out:
    axon_coll_nodes_free(&nodes);
    free(S.steps);
    free(S.first);
    free(S.ranks);
    free(S.nodes);
    free(S.dirty);
    free(S.x);
    free(S.heap);
    free(S.q);
    return rc;
}
