/* GPU buffers in collectives, staged through host memory. Every collective call is first a plan
 * (coll/axon_coll_plan.h) naming the user's buffers; when CUDA support is on, this file looks at the
 * plan's buffers before it runs. Each buffer the call touches (a block of a rank, a reduction's input
 * or result) is classified by memory type. The GPU ones get one host copy per user buffer, from its first
 * block's first byte to its last block's last, so that blocks keep their distances (algorithms move a run
 * of consecutive blocks as one); buffers that overlap (an in-place reduction's input and result) share
 * a copy. Before the run the copy is filled from the GPU where the call reads (send data, in-place data,
 * a result a rank leaves alone) and under layouts with gaps (they must come back unchanged); the run
 * gets a copy of the plan whose buffers are the host copies at the same offsets, so every algorithm,
 * the point-to-point engine and the node's shared-memory path (coll/axon_coll_shm.c) see host memory
 * only, and reductions, user operations included, run on the host. When the schedule ends (its end
 * hook: blocking, nonblocking and each MPI_Start of a persistent request alike) the buffers the call
 * wrote go back to the GPU, in runs of touching buffers (so an alltoall's blocks are one copy), never
 * the holes between the blocks of a v form; then the copies are freed. A failed copy becomes the
 * collective's error. MPI_Reduce_local stages its two buffers the same way.
 *
 * A host-only program pays nothing here: the callers test axon_memkind_watching() first. With a device kind
 * on, a call whose buffers are all host memory costs a classification per buffer and no allocation.
 * Staging is the way of the calls the GPU way does not take. The GPU way (the end of this file): a call
 * whose buffers on this rank all lie on one GPU, contiguous (and for a reduction, an operation with a
 * GPU kernel for a packed datatype), keeps its data there as a GPU schedule (coll/axon_coll_sched.h),
 * with no copy through the host. With support off in a process that uses CUDA, a GPU buffer is refused
 * (axon_memkind_of). */
#include "coll/axon_coll_plan.h"

#include "coll/axon_coll_op.h"
#include "memkind/axon_memkind.h"

#include <stdlib.h>
#include <string.h>

/* What the call does with a buffer. */
enum { AXON_STAGE_READ = 1u, AXON_STAGE_WRITE = 2u };

/* One buffer of the call: count elements of dt at buf. */
struct axon_stage_ref {
    char *buf;
    int64_t count;
    const struct axon_dtype_layout *dt;
    unsigned flags;
    int group;                 /* the user's buffer it lies in (the blocks of one side share one) */
    int visit;                 /* its place in the walk of the plan */
    int64_t lo, len;           /* the bytes it touches: [buf + lo, buf + lo + len) */
    struct axon_memkind_info info;
    int span;                  /* the span of its group */
    int seg;                   /* its host copy */
};

/* The bytes of one user buffer that the call touches, from the first block's first byte to the last
 * block's last: its blocks keep their distances in the copy, since algorithms move a run of consecutive
 * blocks as one (coll/axon_coll_move.h). */
struct axon_stage_span {
    uintptr_t start, end;
    int seg;
};

/* A host copy: one span, or spans that overlap (an in-place reduction's input and result). */
struct axon_stage_seg {
    uintptr_t user;            /* its first byte on the GPU */
    int64_t len;
    char *host;
    struct axon_memkind_info info;
};

/* Bytes copied one way: the runs of touching buffers the call reads (filled before) or writes (copied
 * back after). The holes between the blocks of a v form are neither: the GPU's bytes there are left
 * alone, whoever else may be using them. */
struct axon_stage_run {
    uintptr_t user;
    char *host;
    int64_t len;
    int seg;
};

struct axon_coll_stage {
    struct axon_coll_plan plan; /* the call's plan with the host copies; its block arrays are ours */
    struct axon_stage_ref *refs;    /* the GPU buffers, in walk order */
    int nrefs, cap;
    struct axon_stage_seg *segs;
    int nsegs;
    struct axon_stage_run *wruns;   /* what goes back to the GPU */
    int nwruns;
    int err;                        /* a failed copy from the GPU, reported when the call ends */
};

/* ---- buffers, spans and copies -------------------------------------------------------------------- */

/* The bytes count elements of dt touch, from the buffer's address (a negative extent runs backwards). */
static void axon_stage_bytes(int64_t count, const struct axon_dtype_layout *dt, int64_t *lo, int64_t *len)
{
    int64_t stride = (count - 1) * dt->extent;
    *lo = dt->true_lb + (stride < 0 ? stride : 0);
    *len = (stride < 0 ? -stride : stride) + dt->true_extent;
}

static uintptr_t axon_stage_start(const struct axon_stage_ref *r)
{
    return (uintptr_t)r->buf + (uintptr_t)r->lo;
}

/* Classifies r; a GPU buffer is kept in st (made on the first one), host memory is left alone.
 * cap: how many buffers the call may have at most. */
static int axon_stage_note(struct axon_coll_stage **stp, int cap, struct axon_stage_ref *r)
{
    if (r->count <= 0 || r->dt->size == 0)
        return MPI_SUCCESS; /* touches nothing */
    axon_stage_bytes(r->count, r->dt, &r->lo, &r->len);
    int rc = axon_memkind_of((const void *)axon_stage_start(r), &r->info);
    if (rc != MPI_SUCCESS || axon_memkind_is_host(&r->info))
        return rc;
    struct axon_coll_stage *st = *stp;
    if (!st) {
        st = calloc(1, sizeof(*st));
        if (!st)
            return MPI_ERR_NO_MEM;
        st->refs = malloc(sizeof(*st->refs) * (size_t)cap);
        if (!st->refs) {
            free(st);
            return MPI_ERR_NO_MEM;
        }
        st->cap = cap;
        *stp = st;
    }
    if (st->nrefs >= st->cap)
        return MPI_ERR_INTERN; /* the walk visited more buffers than its plan holds */
    st->refs[st->nrefs++] = *r;
    return MPI_SUCCESS;
}

/* Orders of the buffers: by allocation then user buffer (spans); by allocation then address (spans
 * into copies); by copy then address (runs). A copy never crosses allocations: the driver copies within
 * one. */
static int axon_stage_cmp_alloc(const struct axon_memkind_info *x, const struct axon_memkind_info *y)
{
    if (x->base != y->base)
        return x->base < y->base ? -1 : 1;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return 0;
}

static int axon_stage_cmp_group(const void *a, const void *b)
{
    const struct axon_stage_ref *x = *(const struct axon_stage_ref *const *)a;
    const struct axon_stage_ref *y = *(const struct axon_stage_ref *const *)b;
    int c = axon_stage_cmp_alloc(&x->info, &y->info);
    return c ? c : x->group != y->group ? (x->group < y->group ? -1 : 1) : x->visit - y->visit;
}

/* Spans by allocation, then start; carries the allocation of a span's first buffer alongside. */
struct axon_stage_span_key {
    struct axon_stage_span *span;
    const struct axon_memkind_info *info;
};

static int axon_stage_cmp_span(const void *a, const void *b)
{
    const struct axon_stage_span_key *x = a, *y = b;
    int c = axon_stage_cmp_alloc(x->info, y->info);
    if (c)
        return c;
    return x->span->start != y->span->start ? (x->span->start < y->span->start ? -1 : 1) : 0;
}

static int axon_stage_cmp_seg(const void *a, const void *b)
{
    const struct axon_stage_ref *x = *(const struct axon_stage_ref *const *)a;
    const struct axon_stage_ref *y = *(const struct axon_stage_ref *const *)b;
    if (x->seg != y->seg)
        return x->seg < y->seg ? -1 : 1;
    uintptr_t xs = axon_stage_start(x), ys = axon_stage_start(y);
    return xs != ys ? (xs < ys ? -1 : 1) : x->visit - y->visit;
}

/* The runs of touching or overlapping buffers (order: by copy, then address) that have one of flags
 * (non-contiguous buffers count as read: the gaps of their layouts come back unchanged only if the copy
 * holds the GPU's bytes there). runs has room for one per buffer. */
static int axon_stage_runs(const struct axon_coll_stage *st, struct axon_stage_ref **order, unsigned flags,
                           struct axon_stage_run *runs)
{
    int n = 0;
    for (int i = 0; i < st->nrefs; i++) {
        const struct axon_stage_ref *r = order[i];
        bool gaps_read = (flags & AXON_STAGE_READ) && !r->dt->contig;
        if (!(r->flags & flags) && !gaps_read)
            continue;
        int seg = r->seg;
        uintptr_t start = axon_stage_start(r);
        struct axon_stage_run *last = n ? &runs[n - 1] : NULL;
        if (last && last->seg == seg && start <= last->user + (uintptr_t)last->len) {
            int64_t end = (int64_t)(start - last->user) + r->len;
            if (end > last->len)
                last->len = end;
            continue;
        }
        const struct axon_stage_seg *s = &st->segs[seg];
        runs[n++] = (struct axon_stage_run){start, s->host + (start - s->user), r->len, seg};
    }
    return n;
}

/* Makes the host copies of st's buffers and fills what the call reads from the GPU; a failed fill is
 * kept in st->err and the call goes on, so that the other members, who cannot know, are not left
 * waiting for this one. Then each buffer's place in its copy is known (axon_stage_host_of). */
static int axon_stage_build(struct axon_coll_stage *st)
{
    int n = st->nrefs, nspans = 0, rc = MPI_SUCCESS;
    struct axon_stage_ref **order = malloc(sizeof(*order) * (size_t)n);
    struct axon_stage_span *spans = malloc(sizeof(*spans) * (size_t)n);
    struct axon_stage_span_key *keys = malloc(sizeof(*keys) * (size_t)n);
    struct axon_stage_run *runs = malloc(sizeof(*runs) * (size_t)n);
    st->segs = calloc((size_t)n, sizeof(*st->segs));
    if (!order || !spans || !keys || !runs || !st->segs) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    /* Spans: one per user buffer (and allocation). */
    for (int i = 0; i < n; i++)
        order[i] = &st->refs[i];
    qsort(order, (size_t)n, sizeof(*order), axon_stage_cmp_group);
    const struct axon_stage_ref *prev = NULL;
    for (int i = 0; i < n; i++) {
        struct axon_stage_ref *r = order[i];
        uintptr_t start = axon_stage_start(r), end = start + (uintptr_t)r->len;
        if (!prev || axon_stage_cmp_alloc(&prev->info, &r->info) || prev->group != r->group) {
            spans[nspans] = (struct axon_stage_span){start, end, -1};
            keys[nspans] = (struct axon_stage_span_key){&spans[nspans], &r->info};
            nspans++;
        }
        struct axon_stage_span *sp = &spans[nspans - 1];
        if (start < sp->start)
            sp->start = start;
        if (end > sp->end)
            sp->end = end;
        r->span = nspans - 1;
        prev = r;
    }
    /* Copies: spans that overlap within one allocation share one. */
    qsort(keys, (size_t)nspans, sizeof(*keys), axon_stage_cmp_span);
    struct axon_stage_seg *seg = NULL;
    const struct axon_memkind_info *seg_alloc = NULL;
    for (int k = 0; k < nspans; k++) {
        struct axon_stage_span *sp = keys[k].span;
        if (!seg || axon_stage_cmp_alloc(seg_alloc, keys[k].info) ||
            sp->start >= seg->user + (uintptr_t)seg->len) {
            seg = &st->segs[st->nsegs++];
            seg->user = sp->start;
            seg->info = *keys[k].info;
            seg_alloc = keys[k].info;
        }
        if ((int64_t)(sp->end - seg->user) > seg->len)
            seg->len = (int64_t)(sp->end - seg->user);
        sp->seg = (int)(seg - st->segs);
    }
    for (int k = 0; k < st->nsegs; k++) {
        st->segs[k].host = malloc((size_t)st->segs[k].len);
        if (!st->segs[k].host) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
    }
    /* The places of the buffers, then what is read now and what is written back later. */
    for (int i = 0; i < n; i++) {
        st->refs[i].seg = spans[st->refs[i].span].seg;
        order[i] = &st->refs[i];
    }
    qsort(order, (size_t)n, sizeof(*order), axon_stage_cmp_seg);
    int nread = axon_stage_runs(st, order, AXON_STAGE_READ, runs);
    for (int k = 0; k < nread && st->err == MPI_SUCCESS; k++) {
        const struct axon_stage_seg *s = &st->segs[runs[k].seg];
        st->err = axon_memkind_copy_to_host(runs[k].host, (const void *)runs[k].user, (size_t)runs[k].len, &s->info);
    }
    /* After a failure the call goes on with zeros, not with whatever the heap held. */
    for (int k = 0; k < st->nsegs && st->err != MPI_SUCCESS; k++)
        memset(st->segs[k].host, 0, (size_t)st->segs[k].len);
    st->nwruns = axon_stage_runs(st, order, AXON_STAGE_WRITE, runs);
    st->wruns = runs;
    runs = NULL;
out:
    free(runs);
    free(keys);
    free(spans);
    free(order);
    return rc;
}

/* Where buffer r lies in its host copy: the same offsets from the returned address. */
static char *axon_stage_host_of(const struct axon_coll_stage *st, const struct axon_stage_ref *r)
{
    const struct axon_stage_seg *seg = &st->segs[r->seg];
    return (char *)((uintptr_t)seg->host + (axon_stage_start(r) - seg->user) - (uintptr_t)r->lo);
}

static void axon_stage_free(struct axon_coll_stage *st)
{
    for (int k = 0; k < st->nsegs; k++)
        free(st->segs[k].host);
    free(st->segs);
    free(st->wruns);
    free(st->refs);
    free(st->plan.sblocks);
    free(st->plan.rblocks);
    free(st);
}

/* ---- the buffers of a plan ------------------------------------------------------------------------ */

/* Visits the buffers of plan p in a fixed order, with what the call does with each; fn may move a buffer
 * (set r->buf), which is then written into the plan. Buffers a rank's call ignores (a reduce's result
 * away from the root, edges to MPI_PROC_NULL) are not visited: a host copy of them would write back
 * bytes the call never filled. */
typedef int axon_stage_visit_fn(void *ctx, struct axon_stage_ref *r);

#define AXON_STAGE_VISIT(lvalue, cnt, dtp, fl, grp)                                                  \
    do {                                                                                             \
        struct axon_stage_ref r_ = {.buf = (char *)(lvalue), .count = (cnt), .dt = (dtp), .flags = (fl), \
                                    .group = (grp), .visit = visit++};                               \
        int rc_ = fn(ctx, &r_);                                                                      \
        if (rc_ != MPI_SUCCESS)                                                                      \
            return rc_;                                                                              \
        if (r_.buf != (char *)(lvalue))                                                              \
            (lvalue) = r_.buf;                                                                       \
    } while (0)

#define AXON_STAGE_VISIT_BLOCK(b, fl, grp) AXON_STAGE_VISIT((b).buf, (b).count, &(b).dt, fl, grp)

static int axon_stage_walk(struct axon_coll_plan *p, axon_stage_visit_fn *fn, void *ctx)
{
    /* Groups: the user's buffers of the call, 1 for the send side, 2 for the receive side. */
    const unsigned R = AXON_STAGE_READ, W = AXON_STAGE_WRITE;
    const struct axon_coll_comm *c = p->cc;
    int visit = 0;
    switch (p->kind) {
    case AXON_COLL_PLAN_BARRIER:
        break;
    case AXON_COLL_PLAN_BCAST:
        AXON_STAGE_VISIT_BLOCK(p->mine, axon_coll_comm_is_root(c, p->root) ? R : W, 1);
        break;
    case AXON_COLL_PLAN_GATHER:
    case AXON_COLL_PLAN_ALLGATHER:
        /* mine is empty in place, and where this rank's side takes no part. */
        AXON_STAGE_VISIT_BLOCK(p->mine, R, 1);
        for (int j = 0; j < p->nrecv; j++)
            AXON_STAGE_VISIT_BLOCK(p->rblocks[j], p->in_place && j == c->rank ? R | W : W, 2);
        break;
    case AXON_COLL_PLAN_SCATTER:
        for (int j = 0; j < p->nsend; j++)
            AXON_STAGE_VISIT_BLOCK(p->sblocks[j], R, 1);
        AXON_STAGE_VISIT_BLOCK(p->mine, W, 2);
        break;
    case AXON_COLL_PLAN_ALLTOALL:
        for (int j = 0; j < p->nsend; j++)
            AXON_STAGE_VISIT_BLOCK(p->sblocks[j], R, 1);
        for (int j = 0; j < p->nrecv; j++)
            AXON_STAGE_VISIT_BLOCK(p->rblocks[j], p->in_place ? R | W : W, 2);
        break;
    case AXON_COLL_PLAN_REDUCTION: {
        /* The same roles as the MPI layer's reduction plan gives (mpi/coll/axon_mpi_coll.c): who contributes,
         * who gets a result. */
        bool reduce = p->red == AXON_COLL_RED_REDUCE;
        bool has_result = !reduce || axon_coll_comm_is_root(c, p->root);
        bool contributes = !(c->is_inter && reduce && (p->root == MPI_ROOT || p->root == MPI_PROC_NULL));
        int64_t incount = p->count, outcount = p->count;
        if (p->red == AXON_COLL_RED_SCATTER || p->red == AXON_COLL_RED_SCATTER_BLOCK) {
            incount = 0;
            for (int j = 0; j < c->size; j++)
                incount += p->counts[j];
            outcount = p->counts[c->rank];
        }
        if (contributes)
            AXON_STAGE_VISIT(p->in, incount, &p->dt, R, 1);
        /* Rank 0 of an exscan gets no result: its buffer must come back as it was. In place, the input
         * and the result overlap and so share a copy. */
        if (has_result)
            AXON_STAGE_VISIT(p->out, outcount, &p->dt, p->red == AXON_COLL_RED_EXSCAN && c->rank == 0 ? R | W : W, 2);
        break;
    }
    case AXON_COLL_PLAN_NEIGHBOR:
        for (int j = 0; j < p->nsend; j++)
            if (p->speers[j] != MPI_PROC_NULL)
                AXON_STAGE_VISIT_BLOCK(p->sblocks[j], R, 1);
        for (int j = 0; j < p->nrecv; j++)
            if (p->rpeers[j] != MPI_PROC_NULL)
                AXON_STAGE_VISIT_BLOCK(p->rblocks[j], W, 2);
        break;
    }
    return MPI_SUCCESS;
}

struct axon_stage_collect {
    struct axon_coll_stage *st;
    int cap;
    bool uniform;          /* the plain form: each side's blocks lie in one buffer of the user's */
    unsigned host_groups;  /* the groups (sides) found to be host memory */
};

/* In the plain forms (equal blocks side by side: MPI_Gather, MPI_Alltoall ...) a side is one buffer of
 * the user's, so once one of its blocks is host memory the others are too and are not classified: each
 * block of an mmap'd host buffer would cost a driver query, far slower than the small block's copy it
 * decides. GPU blocks are each classified still (cache hits), and the v and w forms, whose blocks may
 * lie anywhere, block by block. */
static int axon_stage_collect(void *ctx, struct axon_stage_ref *r)
{
    struct axon_stage_collect *k = ctx;
    unsigned bit = 1u << (r->group & 31);
    if (k->uniform && (k->host_groups & bit))
        return MPI_SUCCESS;
    int rc = axon_stage_note(&k->st, k->cap, r);
    if (rc == MPI_SUCCESS && k->uniform && r->count > 0 && r->dt->size > 0 && axon_memkind_is_host(&r->info))
        k->host_groups |= bit;
    return rc;
}

struct axon_stage_subst {
    struct axon_coll_stage *st;
    int next; /* the next GPU buffer, in walk order */
};

static int axon_stage_substitute(void *ctx, struct axon_stage_ref *r)
{
    struct axon_stage_subst *k = ctx;
    struct axon_coll_stage *st = k->st;
    if (k->next < st->nrefs && st->refs[k->next].visit == r->visit)
        r->buf = axon_stage_host_of(st, &st->refs[k->next++]);
    return MPI_SUCCESS;
}

static struct axon_coll_block *axon_stage_blocks_dup(const struct axon_coll_block *b, int n)
{
    struct axon_coll_block *copy = malloc(sizeof(*copy) * (size_t)(n > 0 ? n : 1));
    if (copy && n > 0)
        memcpy(copy, b, sizeof(*copy) * (size_t)n);
    return copy;
}

int axon_coll_stage_begin(struct axon_coll_plan *p, struct axon_coll_stage **out)
{
    *out = NULL;
    struct axon_stage_collect k = {NULL, p->nsend + p->nrecv + 2, (p->have & AXON_COLL_NEEDS_UNIFORM) != 0, 0};
    int rc = axon_stage_walk(p, axon_stage_collect, &k);
    struct axon_coll_stage *st = k.st;
    if (rc != MPI_SUCCESS)
        goto err;
    if (!st)
        return MPI_SUCCESS; /* all host memory: the plan runs as it is */
    st->plan = *p;
    st->plan.kept = false;
    st->plan.spare_blocks = false; /* its arrays are its own copies */
    st->plan.sblocks = p->sblocks ? axon_stage_blocks_dup(p->sblocks, p->nsend) : NULL;
    st->plan.rblocks = p->rblocks ? axon_stage_blocks_dup(p->rblocks, p->nrecv) : NULL;
    if ((p->sblocks && !st->plan.sblocks) || (p->rblocks && !st->plan.rblocks)) {
        rc = MPI_ERR_NO_MEM;
        goto err;
    }
    rc = axon_stage_build(st);
    if (rc != MPI_SUCCESS)
        goto err;
    struct axon_stage_subst s = {st, 0};
    rc = axon_stage_walk(&st->plan, axon_stage_substitute, &s);
    if (rc != MPI_SUCCESS)
        goto err;
    *out = st;
    return MPI_SUCCESS;
err:
    if (st)
        axon_stage_free(st);
    return rc;
}

const struct axon_coll_plan *axon_coll_stage_plan(const struct axon_coll_stage *st)
{
    return &st->plan;
}

int axon_coll_stage_end(struct axon_coll_stage *st, int err)
{
    int rc = st->err;
    /* A failed call's results are undefined: the GPU keeps what it had rather than half-filled copies. */
    for (int k = 0; k < st->nwruns && err == MPI_SUCCESS && rc == MPI_SUCCESS; k++) {
        const struct axon_stage_run *run = &st->wruns[k];
        const struct axon_stage_seg *seg = &st->segs[run->seg];
        rc = axon_memkind_copy_from_host((void *)run->user, run->host, (size_t)run->len, &seg->info);
    }
    axon_stage_free(st);
    return err != MPI_SUCCESS ? err : rc;
}

void axon_coll_stage_abort(struct axon_coll_stage *st)
{
    if (st)
        axon_stage_free(st);
}

static int axon_stage_on_end(void *arg, int err)
{
    return axon_coll_stage_end(arg, err);
}

void axon_coll_stage_attach(struct axon_coll_stage *st, struct axon_coll_sched *s)
{
    /* The schedule holds what it needs of the plan: only the host copies live on. */
    free(st->plan.sblocks);
    free(st->plan.rblocks);
    free(st->refs);
    st->plan.sblocks = st->plan.rblocks = NULL;
    st->refs = NULL;
    st->nrefs = 0;
    axon_coll_sched_on_end(s, axon_stage_on_end, st);
}

int axon_coll_stage_local(const void **in, void **inout, int64_t count, const struct axon_dtype_layout *dt,
                              struct axon_coll_stage **out)
{
    *out = NULL;
    struct axon_coll_stage *st = NULL;
    struct axon_stage_ref r[2] = {
        {.buf = (char *)*in, .count = count, .dt = dt, .flags = AXON_STAGE_READ, .group = 1, .visit = 0},
        {.buf = (char *)*inout, .count = count, .dt = dt, .flags = AXON_STAGE_READ | AXON_STAGE_WRITE, .group = 2,
         .visit = 1},
    };
    int rc = MPI_SUCCESS;
    for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++)
        rc = axon_stage_note(&st, 2, &r[i]);
    if (rc == MPI_SUCCESS && st)
        rc = axon_stage_build(st);
    if (rc == MPI_SUCCESS && st)
        rc = st->err; /* nothing else waits on this call: fail it at once */
    if (rc != MPI_SUCCESS) {
        if (st)
            axon_stage_free(st);
        return rc;
    }
    if (!st)
        return MPI_SUCCESS;
    for (int i = 0; i < st->nrefs; i++) {
        char *host = axon_stage_host_of(st, &st->refs[i]);
        if (st->refs[i].visit == 0)
            *in = host;
        else
            *inout = host;
    }
    *out = st;
    return MPI_SUCCESS;
}

/* ---- reductions that stay on the GPU --------------------------------------------------------------- */

struct axon_gpu_check {
    enum axon_memkind kind; /* of the first buffer, */
    int device;             /* and its GPU; -1 before it */
    bool ok;                /* every buffer so far on that GPU */
};

static int axon_gpu_check_visit(void *ctx, struct axon_stage_ref *r)
{
    struct axon_gpu_check *k = ctx;
    if (!k->ok || r->count <= 0 || r->dt->size == 0)
        return MPI_SUCCESS;
    /* The schedule's copies are driver copies of contiguous bytes. */
    if (!r->dt->contig) {
        k->ok = false;
        return MPI_SUCCESS;
    }
    struct axon_memkind_info info;
    int64_t lo, len;
    axon_stage_bytes(r->count, r->dt, &lo, &len);
    int rc = axon_memkind_of(r->buf + lo, &info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (axon_memkind_is_host(&info) || info.device < 0 ||
        (k->device >= 0 && (info.kind != k->kind || info.device != k->device))) {
        k->ok = false;
    } else {
        k->kind = info.kind;
        k->device = info.device;
    }
    return MPI_SUCCESS;
}

int axon_coll_gpu_choose(struct axon_coll_plan *p)
{
    p->on_gpu = false;
    /* Neighborhood collectives and intercommunicators stay staged (their schedules are built apart). */
    if (p->kind == AXON_COLL_PLAN_NEIGHBOR || p->kind == AXON_COLL_PLAN_BARRIER || p->cc->is_inter)
        return MPI_SUCCESS;
    /* Packed elements are the buffer's bytes: the kernels and the driver's copies see them as they are. */
    const struct axon_dtype_layout *dt = &p->dt;
    bool reduction = p->kind == AXON_COLL_PLAN_REDUCTION;
    if (reduction && (!p->op || !dt->contig || dt->true_lb != 0 || dt->extent != (int64_t)dt->size))
        return MPI_SUCCESS;
    struct axon_gpu_check k = {AXON_MEMKIND_HOST, -1, true};
    int rc = axon_stage_walk(p, axon_gpu_check_visit, &k);
    if (rc != MPI_SUCCESS || !k.ok || k.device < 0)
        return rc;
    int kernel = reduction ? axon_coll_op_gpu_kernel(k.kind, p->op, p->datatype, dt) : -1;
    if (reduction && kernel < 0)
        return MPI_SUCCESS;
    p->on_gpu = true;
    p->gpu_kind = k.kind;
    p->gpu_device = k.device;
    p->gpu_kernel = kernel;
    return MPI_SUCCESS;
}

int axon_coll_gpu_examine(struct axon_coll_plan *p, bool shm, struct axon_coll_stage **st)
{
    *st = NULL;
    p->on_gpu = false;
    if (!shm) {
        int rc = axon_coll_gpu_choose(p);
        if (rc != MPI_SUCCESS || p->on_gpu)
            return rc;
    }
    return axon_coll_stage_begin(p, st);
}

int axon_coll_gpu_local(const struct axon_coll_op *op, MPI_Datatype datatype, const struct axon_dtype_layout *dt,
                            const void *in, void *inout, int64_t count, bool *done)
{
    *done = false;
    if (!dt->contig || dt->extent != (int64_t)dt->size)
        return MPI_SUCCESS;
    const char *src = (const char *)in + dt->true_lb;
    char *dst = (char *)inout + dt->true_lb;
    struct axon_memkind_info io, ii;
    int rc = axon_memkind_of(dst, &io);
    if (rc != MPI_SUCCESS || axon_memkind_is_host(&io) || io.device < 0)
        return rc;
    int kernel = axon_coll_op_gpu_kernel(io.kind, op, datatype, dt);
    if (kernel < 0)
        return MPI_SUCCESS;
    rc = axon_memkind_of(src, &ii);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The result is on the GPU: the input goes there too when it is not (one copy, not two). */
    size_t bytes = (size_t)(count * dt->size);
    void *tmp = NULL;
    if (ii.kind != io.kind || ii.device != io.device) {
        tmp = axon_memkind_scratch_get(io.kind, bytes, io.device);
        if (!tmp)
            return MPI_ERR_NO_MEM;
        rc = axon_memkind_copy(io.kind, tmp, src, bytes, io.device);
        src = tmp;
    }
    if (rc == MPI_SUCCESS)
        rc = axon_coll_op_apply_gpu(io.kind, kernel, src, dst, count, datatype, dt, io.device);
    if (tmp)
        axon_memkind_scratch_put(io.kind, tmp, bytes, io.device);
    *done = true;
    return rc;
}
