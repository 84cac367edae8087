/* Every reduction algorithm (MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter, MPI_Scan, MPI_Exscan),
 * forced one at a time through the configuration's knob slot, run by the schedule simulator
 * (tests/unit/coll_sim.h) on 1..17 ranks, against a reference computed here:
 *  - counts 0, 1, 2, 3, n-1, n, n+1 and a large odd one; for the reduce-scatter also uneven blocks with
 *    empty ones and one large block;
 *  - MPI_SUM on int and double (values whose sums are exact in any order), and a non-commutative user
 *    operation (composition of affine maps modulo 2^32), which only the algorithms that keep rank order
 *    may serve; a derived layout (a strided vector) whose holes must stay untouched;
 *  - MPI_IN_PLACE's form (the input is the output buffer) and every root of MPI_Reduce on small sizes.
 * Also that the simulator itself sees a deadlock and a size mismatch. */
#include "coll/axon_coll_op.h"
#include "coll/axon_coll_shm.h"
#include "coll/coll.h"
#include "mpi/axon_mpi.h"
#include "mpi/datatype/axon_mpi_datatype.h"
#include "runtime/runtime.h"
#include "tests/unit/coll_sim.h"

#include <check.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 17
#define LARGE 4099 /* odd, and not a multiple of any rank count here */
#define SENTINEL 0x5a

enum elem { E_INT, E_DOUBLE, E_AFFINE, E_VECTOR, E_NELEMS };
static const char *const elem_names[] = {"int SUM", "double SUM", "affine (non-commutative)", "vector SUM"};

enum red { R_REDUCE, R_ALLREDUCE, R_REDUCE_SCATTER, R_SCAN, R_EXSCAN };

static MPI_Op affine_op;
static struct axon_dtype_layout vector_dt;

/* x -> a x + b as the pair {a, b}; in op inout is "in, then inout": a2 (a1 x + b1) + b2. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const uint32_t *a = in;
    uint32_t *b = inout;
    for (int i = 0; i < *len; i++) {
        uint32_t m = b[2 * i] * a[2 * i], c = b[2 * i] * a[2 * i + 1] + b[2 * i + 1];
        b[2 * i] = m;
        b[2 * i + 1] = c;
    }
}

static uint32_t hash(int r, int64_t i)
{
    uint32_t h = (uint32_t)r * 2654435761u ^ (uint32_t)i * 40503u;
    h ^= h >> 13;
    return h * 0x9e3779b1u;
}

/* One element's packed bytes and the layout that describes the user's buffers. */
static int64_t elem_size(enum elem e)
{
    return e == E_INT ? 4 : 8;
}

static MPI_Datatype elem_type(enum elem e)
{
    return e == E_INT ? MPI_INT : e == E_DOUBLE ? MPI_DOUBLE : e == E_AFFINE ? MPI_2INT : (MPI_Datatype)0x8c0000ff;
}

static struct axon_dtype_layout elem_layout(enum elem e)
{
    struct axon_dtype_layout dt;
    if (e == E_VECTOR)
        return vector_dt;
    ck_assert(axon_mpi_datatype_get(elem_type(e), &dt));
    return dt;
}

/* Rank r's element i, packed, into v. */
static void elem_value(enum elem e, int r, int64_t i, void *v)
{
    uint32_t h = hash(r, i);
    int32_t small = (int32_t)(h % 2001) - 1000;
    switch (e) {
    case E_INT:
        memcpy(v, &small, 4);
        break;
    case E_DOUBLE: {
        double d = small * 0.25;
        memcpy(v, &d, 8);
        break;
    }
    case E_AFFINE: {
        uint32_t p[2] = {h | 1u, hash(r + 1000, i)};
        memcpy(v, p, 8);
        break;
    }
    case E_VECTOR: {
        int32_t p[2] = {small, (int32_t)(h % 7) - 3};
        memcpy(v, p, 8);
        break;
    }
    default:
        break;
    }
}

/* acc = acc op v, acc holding the lower ranks (packed elements). */
static void elem_combine(enum elem e, void *acc, const void *v)
{
    switch (e) {
    case E_INT: {
        int32_t a, b;
        memcpy(&a, acc, 4);
        memcpy(&b, v, 4);
        a += b;
        memcpy(acc, &a, 4);
        break;
    }
    case E_DOUBLE: {
        double a, b;
        memcpy(&a, acc, 8);
        memcpy(&b, v, 8);
        a += b;
        memcpy(acc, &a, 8);
        break;
    }
    case E_AFFINE: {
        uint32_t a[2], b[2];
        memcpy(a, acc, 8);
        memcpy(b, v, 8);
        int one = 1;
        affine(a, b, &one, NULL);
        memcpy(acc, b, 8);
        break;
    }
    case E_VECTOR: {
        int32_t a[2], b[2];
        memcpy(a, acc, 8);
        memcpy(b, v, 8);
        a[0] += b[0];
        a[1] += b[1];
        memcpy(acc, a, 8);
        break;
    }
    default:
        break;
    }
}

/* ---- one simulated call ------------------------------------------------------------------------------ */

struct call {
    enum red red;
    enum elem e;
    int n, root;
    int64_t count;     /* elements in (reduce-scatter: the whole vector) */
    int64_t *counts;   /* reduce-scatter */
    bool inplace;
    struct axon_dtype_layout dt;
    char *in[MAXN], *out[MAXN];
};

/* Typed buffer bytes for count elements. */
static int64_t span(const struct axon_dtype_layout *dt, int64_t count)
{
    return count * dt->extent;
}

/* Writes packed elements into a typed buffer (the simulator's packing is the reference here). */
static void put_elem(const struct axon_dtype_layout *dt, char *buf, int64_t i, const void *v, int64_t esize)
{
    if (dt->contig) {
        memcpy(buf + i * dt->extent + dt->true_lb, v, (size_t)esize);
    } else {
        /* The vector: ints at 0 and 12 of each 16-byte element. */
        memcpy(buf + i * dt->extent, v, 4);
        memcpy(buf + i * dt->extent + 12, (const char *)v + 4, 4);
    }
}

static bool in_place_at(const struct call *c, int r)
{
    return c->inplace && (c->red != R_REDUCE || r == c->root);
}

static void build(struct axon_coll_sched *s, int r, void *arg)
{
    struct call *c = arg;
    MPI_Op op = c->e == E_AFFINE ? affine_op : MPI_SUM;
    axon_coll_sched_set_op(s, axon_coll_op_get(op), elem_type(c->e), &c->dt);
    const void *in = in_place_at(c, r) ? c->out[r] : c->in[r];
    switch (c->red) {
    case R_REDUCE:
        axon_coll_reduce(s, in, c->out[r], c->count, &c->dt, c->root);
        break;
    case R_ALLREDUCE:
        axon_coll_allreduce(s, in, c->out[r], c->count, &c->dt);
        break;
    case R_REDUCE_SCATTER:
        axon_coll_reduce_scatter(s, in, c->out[r], c->counts, &c->dt);
        break;
    case R_SCAN:
    case R_EXSCAN:
        axon_coll_scan(s, in, c->out[r], c->count, &c->dt, c->red == R_EXSCAN);
        break;
    }
}

static const char *const red_names[] = {"reduce", "allreduce", "reduce_scatter", "scan", "exscan"};

/* Runs one call and checks every rank's whole output buffer: the expected elements where the call
 * writes, and every other byte (holes of the layout, ranks that get nothing) as it was. */
static void run_call(struct call *c, const char *alg)
{
    int n = c->n;
    int64_t esize = elem_size(c->e), count = c->count;
    c->dt = elem_layout(c->e);
    int64_t inbytes = span(&c->dt, count);
    char *before[MAXN], v[8];
    int64_t outbytes[MAXN];
    for (int r = 0; r < n; r++) {
        int64_t outcount = c->red == R_REDUCE_SCATTER ? c->counts[r] : count;
        outbytes[r] = in_place_at(c, r) ? inbytes : span(&c->dt, outcount);
        c->in[r] = malloc((size_t)inbytes + 1);
        c->out[r] = malloc((size_t)outbytes[r] + 1);
        before[r] = malloc((size_t)outbytes[r] + 1);
        ck_assert(c->in[r] && c->out[r] && before[r]);
        memset(c->in[r], SENTINEL, (size_t)inbytes + 1);
        memset(c->out[r], SENTINEL, (size_t)outbytes[r] + 1);
        for (int64_t i = 0; i < count; i++) {
            elem_value(c->e, r, i, v);
            put_elem(&c->dt, in_place_at(c, r) ? c->out[r] : c->in[r], i, v, esize);
        }
        memcpy(before[r], c->out[r], (size_t)outbytes[r] + 1);
    }
    /* pre[r * count + i]: element i reduced over ranks [0, r]. */
    char *pre = malloc((size_t)(n * count * esize) + 1);
    ck_assert(pre);
    for (int r = 0; r < n; r++)
        for (int64_t i = 0; i < count; i++) {
            char *at = pre + (r * count + i) * esize;
            elem_value(c->e, r, i, at);
            if (r > 0) {
                memcpy(v, at, (size_t)esize);
                memcpy(at, at - count * esize, (size_t)esize);
                elem_combine(c->e, at, v);
            }
        }

    struct coll_sim_report rep;
    int rc = coll_sim_run(n, build, c, &rep);
    ck_assert_msg(rc == 0, "%s/%s, %s, n=%d count=%lld root=%d inplace=%d:\n%s", red_names[c->red], alg,
                  elem_names[c->e], n, (long long)count, c->root, c->inplace, rep.why);

    for (int r = 0; r < n; r++) {
        int64_t first = 0, outcount = count;
        int hi = n - 1; /* the result is of ranks [0, hi]; -1: none */
        switch (c->red) {
        case R_REDUCE:
            hi = r == c->root ? n - 1 : -1;
            break;
        case R_ALLREDUCE:
            break;
        case R_REDUCE_SCATTER:
            for (int j = 0; j < r; j++)
                first += c->counts[j];
            outcount = c->counts[r];
            break;
        case R_SCAN:
            hi = r;
            break;
        case R_EXSCAN:
            hi = r - 1;
            break;
        }
        if (hi >= 0)
            for (int64_t i = 0; i < outcount; i++)
                put_elem(&c->dt, before[r], i, pre + (hi * count + first + i) * esize, esize);
        if (memcmp(before[r], c->out[r], (size_t)outbytes[r] + 1) != 0) {
            int64_t b = 0;
            while (before[r][b] == c->out[r][b])
                b++;
            ck_abort_msg("%s/%s, %s, n=%d count=%lld root=%d inplace=%d: rank %d's buffer differs at byte %lld "
                         "(element %lld)",
                         red_names[c->red], alg, elem_names[c->e], n, (long long)count, c->root, c->inplace, r,
                         (long long)b, (long long)(b / c->dt.extent));
        }
    }
    free(pre);
    for (int r = 0; r < n; r++) {
        free(c->in[r]);
        free(c->out[r]);
        free(before[r]);
    }
}

/* ---- the sweep ---------------------------------------------------------------------------------------- */

static enum axon_coll_kind kind_of(enum red red)
{
    static const enum axon_coll_kind k[] = {AXON_COLL_KIND_REDUCE, AXON_COLL_KIND_ALLREDUCE,
                                            AXON_COLL_KIND_REDUCE_SCATTER, AXON_COLL_KIND_SCAN, AXON_COLL_KIND_SCAN};
    return k[red];
}

/* The counts of the sweep at n ranks (distinct). */
static int sweep_counts(int n, int64_t *out)
{
    int64_t cand[] = {0, 1, 2, 3, n - 1, n, n + 1, LARGE};
    int k = 0;
    for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
        bool seen = false;
        for (int j = 0; j < k; j++)
            seen |= out[j] == cand[i];
        if (!seen && cand[i] >= 0)
            out[k++] = cand[i];
    }
    return k;
}

/* Runs the sweep for one collective with algorithm alg forced. */
static void sweep(enum red red, int alg)
{
    enum axon_coll_kind kind = kind_of(red);
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    struct axon_config saved = axon_config;
    axon_config.coll_alg[kind] = alg + 1;
    const char *name = d->algs[alg].name;
    for (int n = 1; n <= MAXN; n++) {
        int64_t counts[8];
        int nc = sweep_counts(n, counts);
        for (enum elem e = 0; e < E_NELEMS; e++) {
            bool commutes = e != E_AFFINE;
            /* An algorithm that needs a commutative operation is never picked for this one. */
            if (!commutes && (d->algs[alg].needs & AXON_COLL_NEEDS_COMMUTATIVE))
                continue;
            for (int k = 0; k < nc; k++) {
                /* The derived layout and double once per size: the packing is shared code. */
                if ((e == E_VECTOR || e == E_DOUBLE) && counts[k] != n + 1 && counts[k] != LARGE)
                    continue;
                int64_t c = counts[k];
                struct call call = {.red = red, .e = e, .n = n, .count = c};
                int64_t *blocks = NULL;
                if (red == R_REDUCE_SCATTER) {
                    /* The large case: a large odd vector in all, not per rank. */
                    if (c == LARGE)
                        c = (LARGE / n) | 1;
                    blocks = malloc(sizeof(*blocks) * (size_t)n);
                    for (int j = 0; j < n; j++)
                        blocks[j] = c;
                    call.counts = blocks;
                    call.count = c * n;
                }
                int roots[3] = {0, n / 2, n - 1}, nroots = red == R_REDUCE ? 3 : 1;
                for (int ri = 0; ri < nroots; ri++) {
                    if (ri > 0 && roots[ri] == roots[ri - 1])
                        continue;
                    call.root = roots[ri];
                    for (int ip = 0; ip < 2; ip++) {
                        /* In place on the integers only, and with the small counts. */
                        if (ip && (e != E_INT || c == LARGE))
                            continue;
                        call.inplace = ip;
                        run_call(&call, name);
                    }
                }
                free(blocks);
            }
        }
        if (red == R_REDUCE_SCATTER) {
            /* Uneven blocks: some empty, then one large block among small ones. */
            int64_t *blocks = malloc(sizeof(*blocks) * (size_t)n);
            for (int pattern = 0; pattern < 2; pattern++) {
                int64_t total = 0;
                for (int j = 0; j < n; j++)
                    total += blocks[j] = pattern == 0 ? (j * 7 + 3) % 5 : (j == n / 2 ? 1001 : j % 2);
                for (enum elem e = 0; e < E_NELEMS; e++) {
                    if (e == E_AFFINE && (d->algs[alg].needs & AXON_COLL_NEEDS_COMMUTATIVE))
                        continue;
                    for (int ip = 0; ip < 2; ip++) {
                        struct call call = {.red = red, .e = e, .n = n, .count = total, .counts = blocks,
                                            .inplace = ip && e == E_INT};
                        run_call(&call, name);
                    }
                }
            }
            free(blocks);
        }
    }
    axon_config = saved;
}

static void setup(void)
{
    ck_assert_int_eq(axon_mpi_datatype_init(), MPI_SUCCESS);
    ck_assert_int_eq(axon_coll_op_create(affine, NULL, false, &affine_op), MPI_SUCCESS);
    /* MPI_Type_vector(2, 1, 3, MPI_INT): two ints 12 bytes apart, extent 16. */
    struct axon_dtype_desc v;
    static const struct axon_dtype_desc int_desc = {.size = 4, .ub = 4, .true_ub = 4, .align = 4, .nelements = 1,
                                                    .contig = true};
    ck_assert_int_eq(axon_dtype_build_vector(2, 1, 12, &int_desc, &v), MPI_SUCCESS);
    vector_dt = (struct axon_dtype_layout){.size = v.size, .extent = v.ub - v.lb, .true_lb = v.true_lb,
                                           .contig = false, .loop = v.loop, .basic = MPI_INT, .basic_count = 2};
    ck_assert_int_eq(vector_dt.size, 8);
    ck_assert_int_eq(vector_dt.extent, 16);
}

static void teardown(void)
{
    axon_dloop_release((struct axon_dloop *)vector_dt.loop);
    axon_coll_op_free(affine_op);
    axon_mpi_datatype_finalize();
}

#define SWEEP_TEST(name, red)                                                                  \
    START_TEST(name)                                                                                 \
    {                                                                                                \
        const struct axon_coll_desc *d = axon_coll_desc_of(kind_of(red));                            \
        ck_assert_int_lt(_i, d->nalgs);                                                              \
        sweep(red, _i);                                                                              \
    }                                                                                                \
    END_TEST

SWEEP_TEST(reduce_algs, R_REDUCE)
SWEEP_TEST(allreduce_algs, R_ALLREDUCE)
SWEEP_TEST(reduce_scatter_algs, R_REDUCE_SCATTER)
SWEEP_TEST(scan_algs, R_SCAN)
SWEEP_TEST(exscan_algs, R_EXSCAN)

/* ---- the simulator's own checks ---------------------------------------------------------------------- */

static void build_deadlock(struct axon_coll_sched *s, int r, void *arg)
{
    (void)arg;
    static int x[2];
    /* Both ranks receive first: a rendezvous transport never lets either send. */
    axon_coll_sched_recv(s, &x[r], 4, &axon_coll_bytes, 1 - r);
    axon_coll_sched_round(s);
    axon_coll_sched_send(s, &x[r], 4, &axon_coll_bytes, 1 - r);
}

static void build_mismatch(struct axon_coll_sched *s, int r, void *arg)
{
    (void)arg;
    static char x[2][16];
    if (r == 0)
        axon_coll_sched_send(s, x[0], 8, &axon_coll_bytes, 1);
    else
        axon_coll_sched_recv(s, x[1], 16, &axon_coll_bytes, 0);
}

static void build_exchange(struct axon_coll_sched *s, int r, void *arg)
{
    int (*x)[2] = arg;
    int n = axon_coll_sched_size(s);
    x[r][0] = r * 10;
    axon_coll_sched_send(s, &x[r][0], 4, &axon_coll_bytes, (r + 1) % n);
    axon_coll_sched_recv(s, &x[r][1], 4, &axon_coll_bytes, (r + n - 1) % n);
}

/* A schedule that continues another's request (axon_coll_sched_then): each rank's first schedule is an
 * allreduce (sum) of rank + 1 through axon_coll_allreduce_small; its continuation, built when that has
 * ended, broadcasts from the last rank the sum it learnt times ten, under the same tag. */
struct chain {
    int n;
    struct axon_dtype_layout int_dt;
    int in[8], sum[8], out[8];
    int built[8], continued_ended[8];
};
static struct chain *chain_arg; /* the hook's argument is its rank's slot in built[] */

static int chain_ended(void *arg, int err)
{
    int *slot = arg;
    *slot = 1;
    return err;
}

static struct axon_coll_sched *chain_then(void *arg, int *err)
{
    struct chain *c = chain_arg;
    int r = (int)((int *)arg - c->built);
    c->built[r] = 1;
    if (*err != MPI_SUCCESS)
        return NULL;
    struct axon_coll_sched *s;
    int n = c->n;
    ck_assert_int_eq(axon_coll_sched_create(coll_sim_comm(r), r, n, coll_sim_tag(), &s), MPI_SUCCESS);
    c->out[r] = r == n - 1 ? c->sum[r] * 10 : -1;
    axon_coll_bcast(s, &c->out[r], 4, &axon_coll_bytes, n - 1);
    axon_coll_sched_on_end(s, chain_ended, &c->continued_ended[r]);
    ck_assert_int_eq(axon_coll_sched_built(s), MPI_SUCCESS);
    return s;
}

static void build_chain(struct axon_coll_sched *s, int r, void *arg)
{
    struct chain *c = arg;
    c->in[r] = r + 1;
    axon_coll_sched_set_op(s, axon_coll_op_get(MPI_SUM), MPI_INT, &c->int_dt);
    axon_coll_allreduce_small(s, &c->in[r], &c->sum[r], 1, &c->int_dt);
    axon_coll_sched_then(s, chain_then, &c->built[r]);
}

START_TEST(continued_schedules)
{
    for (int n = 2; n <= 7; n++) {
        struct chain c;
        memset(&c, 0, sizeof(c));
        c.n = n;
        c.int_dt = elem_layout(E_INT);
        chain_arg = &c;
        struct coll_sim_report rep;
        ck_assert_msg(coll_sim_run(n, build_chain, &c, &rep) == 0, "%d ranks: %s", n, rep.why);
        for (int r = 0; r < n; r++) {
            ck_assert_int_eq(c.sum[r], n * (n + 1) / 2);
            ck_assert(c.built[r] && c.continued_ended[r]);
            ck_assert_int_eq(c.out[r], 10 * n * (n + 1) / 2);
        }
    }
}
END_TEST

START_TEST(simulator_checks)
{
    struct coll_sim_report rep;
    ck_assert_int_ne(coll_sim_run(2, build_deadlock, NULL, &rep), 0);
    ck_assert_msg(strstr(rep.why, "deadlock") && strstr(rep.why, "waits to receive"), "%s", rep.why);
    ck_assert_int_ne(coll_sim_run(2, build_mismatch, NULL, &rep), 0);
    ck_assert_msg(strstr(rep.why, "posted a receive of 16"), "%s", rep.why);
    int x[5][2];
    ck_assert_int_eq(coll_sim_run(5, build_exchange, x, &rep), 0);
    ck_assert_msg(rep.why[0] == 0, "%s", rep.why);
    ck_assert_int_eq(rep.messages, 5);
    for (int r = 0; r < 5; r++)
        ck_assert_int_eq(x[r][1], ((r + 4) % 5) * 10);
}
END_TEST

/* The schedule's small-scratch arena: an empty piece asked for once it is full comes from elsewhere,
 * not from just past its end (which put every later small piece outside the schedule). */
START_TEST(arena_full_empty_piece)
{
    struct axon_coll_sched *s;
    ck_assert_int_eq(axon_coll_sched_create(NULL, 0, 2, 0, &s), MPI_SUCCESS);
    char *prev = axon_coll_sched_alloc_meta(s, 16), *p;
    while ((p = axon_coll_sched_alloc_meta(s, 16)) == prev + 16)
        prev = p; /* the arena fills 16 bytes at a time; p is the first piece beyond it */
    char *empty = axon_coll_sched_alloc_meta(s, 0), *next = axon_coll_sched_alloc_meta(s, 16);
    ck_assert_ptr_nonnull(empty);
    ck_assert_ptr_ne(empty, prev + 16);
    ck_assert_ptr_ne(next, prev + 32);
    ck_assert_ptr_ne(empty, next);
    memset(next, 0x5a, 16); /* its own memory: the schedule's fields after the arena stay intact */
    axon_coll_sched_discard(s);
}
END_TEST

/* The progress word of a two-member reduction in shared memory: a word of the same use covers the bytes
 * it counts, a later use's covers all (the writer filling the next slot), an earlier use's none, also
 * across the 2^24 uses the word holds (the 2^24th use once took the previous use's word as ahead). */
START_TEST(shm_ready_word)
{
    const uint64_t wrap = AXON_COLL_SHM_READY_USES;
    for (uint64_t u = 1; u < 4 * wrap; u += wrap - 1) {
        uint64_t w = axon_coll_shm_ready_word(u, 32768);
        ck_assert(axon_coll_shm_ready_covers(w, u, 16384));
        ck_assert(axon_coll_shm_ready_covers(w, u, 32768));
        ck_assert(!axon_coll_shm_ready_covers(w, u, 49152));
        ck_assert(axon_coll_shm_ready_covers(axon_coll_shm_ready_word(u + 1, 16384), u, (int64_t)1 << 39));
        ck_assert(!axon_coll_shm_ready_covers(axon_coll_shm_ready_word(u - 1, (int64_t)1 << 30), u, 1));
        ck_assert(!axon_coll_shm_ready_covers(axon_coll_shm_ready_word(u - 2, 16384), u, 1));
    }
    /* Use 2^24 against the word of use 2^24 - 1, which exceeds it whole. */
    uint64_t stale = axon_coll_shm_ready_word(wrap - 1, 1 << 20);
    ck_assert_uint_gt(stale, axon_coll_shm_ready_word(wrap, 16384));
    ck_assert(!axon_coll_shm_ready_covers(stale, wrap, 16384));
}
END_TEST

int main(void)
{
    /* The sweep allocates and frees thousands of buffers of up to a few MiB: keep the memory in the
     * process instead of faulting fresh pages in each time. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    Suite *s = suite_create("coll_algs");
    TCase *tc = tcase_create("reductions");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, simulator_checks);
    tcase_add_test(tc, continued_schedules);
    tcase_add_test(tc, arena_full_empty_piece);
    tcase_add_test(tc, shm_ready_word);
    tcase_add_loop_test(tc, reduce_algs, 0, axon_coll_reduce_desc.nalgs);
    tcase_add_loop_test(tc, allreduce_algs, 0, axon_coll_allreduce_desc.nalgs);
    tcase_add_loop_test(tc, reduce_scatter_algs, 0, axon_coll_reduce_scatter_desc.nalgs);
    tcase_add_loop_test(tc, scan_algs, 0, axon_coll_scan_desc.nalgs);
    tcase_add_loop_test(tc, exscan_algs, 0, axon_coll_scan_desc.nalgs);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
