/* Collectives with GPU buffers: every collective but the barrier (the plain, v and w forms, reductions
 * with MPI_SUM and with a non-commutative user operation, neighborhood collectives on a non-periodic
 * ring, the intercommunicator forms, MPI_Reduce_local), blocking, nonblocking and persistent (two starts
 * with fresh data: each start must copy the GPU data afresh), in place and not, at counts 0, 1, 7 and
 * over 1 MiB, contiguous and strided (an int every other int: the gaps of every buffer must come back
 * unchanged), with all buffers on the GPU or host and GPU buffers mixed in one call and across ranks.
 * Every result is checked against a reference computed locally, and so is every buffer the call only
 * reads. On the fake driver also: Axon's copies counted (one each way per GPU buffer, however many
 * blocks; none for host buffers), and copies made to fail (the call fails on that rank only, the GPU's
 * result buffer is left alone, the next call works). Run on the fake driver (tests/fakecuda), whose
 * device memory faults when the CPU touches it, so a path that reads or writes a device pointer directly
 * ends the test; on a real GPU it runs as it is (less the fake's hooks).
 *
 * "cuda_coll query E" checks only that MPIX_Query_cuda_support() and MPIX_GPU_query_support say E
 * (1 with AXON_CUDA=1, 0 with AXON_CUDA=0), and that mpi.h alone defines MPIX_CUDA_AWARE_SUPPORT. */
#include "axon_test.h"

/* Before mpi-ext.h: PyTorch looks for it in mpi.h alone. */
#if !defined(MPIX_CUDA_AWARE_SUPPORT) || MPIX_CUDA_AWARE_SUPPORT != 1
#error "mpi.h does not define MPIX_CUDA_AWARE_SUPPORT as 1"
#endif
#include <mpi-ext.h>

#include "axon_test_cuda.h"
#include "tests/fakecuda/fakecuda.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

static int rank, size;
static int one_node; /* every rank on this node: GPU domains and IPC (axon_test_one_node) */

/* ---- the configuration of the calls being run ------------------------------------------------------- */

enum { M_BLOCK, M_NB, M_PERSIST };
static const char *mode_name[] = {"blocking", "nonblocking", "persistent"};
static int mode;

/* Placement: every buffer on the GPU, or (mixed) on even ranks the send side on the host and the
 * receive side on the GPU, on odd ranks the other way round. */
enum { P_DEV, P_MIX };
static const char *place_name[] = {"device", "mixed"};
static int place;

/* Layout of an element: W ints every S elements' worth of room (S = 2: a gap after each). PAIR is two
 * ints reduced with the non-commutative user operation. */
enum { L_CONTIG, L_STRIDED, L_PAIR };
static const char *layout_name[] = {"contiguous", "strided", "pairs+user op"};
static int layout, W, S;
static MPI_Datatype etype, t_strided, t_pair;
static MPI_Op op, op_affine;

static int cnt;
static bool inplace;
static char what[256];
static MPI_Request preq;

static bool dev_of(int side) /* side 0: what a rank sends, 1: what it receives */
{
    return place == P_DEV || (rank % 2 == 0 ? side == 1 : side == 0);
}

static void set_layout(int l)
{
    layout = l;
    W = l == L_PAIR ? 2 : 1;
    S = l == L_STRIDED ? 2 : 1;
    etype = l == L_CONTIG ? MPI_INT : l == L_STRIDED ? t_strided : t_pair;
    op = l == L_PAIR ? op_affine : MPI_SUM;
}

/* x = in op x, on the affine maps t -> a t + b as pairs (a, b): "in, then x", which does not commute. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const uint32_t *a = in;
    uint32_t *b = inout;
    for (int i = 0; i < *len; i++) {
        uint32_t a1 = a[2 * i], b1 = a[2 * i + 1], a2 = b[2 * i], b2 = b[2 * i + 1];
        b[2 * i] = a1 * a2;
        b[2 * i + 1] = a2 * b1 + b2;
    }
}

/* ---- values -------------------------------------------------------------------------------------------- */

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    return x ^ (x >> 16);
}

/* Element k of what rank r has for block j (salt: the round). Sums of a few stay far below INT_MAX. */
static void value(int r, int j, int64_t k, int salt, uint32_t v[2])
{
    uint32_t h = mix((uint32_t)r * 0x9e3779b9U ^ mix((uint32_t)j + 77U * (uint32_t)salt) ^ mix((uint32_t)k + 1U));
    v[0] = W == 2 ? h | 1U : h & 0x3fffffU;
    v[1] = mix(h);
}

static void combine(const uint32_t in[2], uint32_t x[2])
{
    if (W == 1) {
        x[0] += in[0];
    } else {
        uint32_t a = in[0] * x[0], b = x[0] * in[1] + x[1];
        x[0] = a;
        x[1] = b;
    }
}

/* The reduction, in rank order, of element k of block j of ranks first, first + step, ... (n of them). */
static void fold(int first, int step, int n, int j, int64_t k, int salt, uint32_t out[2])
{
    value(first, j, k, salt, out);
    for (int i = 1; i < n; i++) {
        uint32_t x[2];
        value(first + i * step, j, k, salt, x);
        combine(out, x);
        out[0] = x[0];
        out[1] = x[1];
    }
}

/* ---- buffers: a host image of what the buffer must hold ------------------------------------------------ */

struct buf {
    bool dev;
    size_t n;  /* ints */
    int *img;  /* what it must hold */
    int *init; /* what it held first */
    void *p;
};

static void buf_make(struct buf *b, int64_t elements, bool dev, int id)
{
    b->dev = dev;
    b->n = (size_t)(elements * W * S);
    size_t alloc = (b->n ? b->n : 1) * sizeof(int);
    b->img = malloc(alloc);
    b->init = malloc(alloc);
    for (size_t i = 0; i < b->n; i++)
        b->init[i] = (int)(0x80000000U | mix((uint32_t)i * 2654435761U + (uint32_t)id * 40503U + (uint32_t)rank));
    b->p = dev ? test_cuda_malloc(alloc) : malloc(alloc);
}

/* The image back to what it held first, and on to the buffer. */
static void buf_reset(struct buf *b)
{
    memcpy(b->img, b->init, b->n * sizeof(int));
}

static void buf_put(struct buf *b)
{
    if (b->dev)
        TEST_CU(test_cuda_from_host(b->p, b->img, b->n * sizeof(int)));
    else
        memcpy(b->p, b->img, b->n * sizeof(int));
}

static void el_put(struct buf *b, int64_t e, const uint32_t v[2])
{
    for (int w = 0; w < W; w++)
        b->img[e * W * S + w] = (int)v[w];
}

static void el_value(struct buf *b, int64_t e, int r, int j, int64_t k, int salt)
{
    uint32_t v[2];
    value(r, j, k, salt, v);
    el_put(b, e, v);
}

/* Compares the first `limit` ints of the buffer with its image (all of it when limit is SIZE_MAX). */
static void buf_check_upto(struct buf *b, const char *name, size_t limit)
{
    size_t n = limit < b->n ? limit : b->n;
    int *got = malloc((n ? n : 1) * sizeof(int));
    if (b->dev)
        TEST_CU(test_cuda_to_host(got, b->p, n * sizeof(int)));
    else
        memcpy(got, b->p, n * sizeof(int));
    for (size_t i = 0; i < n; i++) {
        if (got[i] != b->img[i]) {
            if (failures < 30)
                printf("rank %d FAILED: %s: %s (%s) int %zu is %d, expected %d%s\n", rank, what, name,
                       b->dev ? "device" : "host", i, got[i], b->img[i],
                       b->img[i] == b->init[i] ? " (left alone)" : "");
            failures++;
            break;
        }
    }
    free(got);
}

static void buf_check(struct buf *b, const char *name)
{
    buf_check_upto(b, name, SIZE_MAX);
}

static void buf_free(struct buf *b)
{
    if (b->dev)
        test_cuda_free(b->p);
    else
        free(b->p);
    free(b->img);
    free(b->init);
}

/* ---- issuing a call in the current mode ----------------------------------------------------------------- */

static int rounds(void)
{
    return mode == M_PERSIST ? 2 : 1;
}

#define OK(call)                                                                                     \
    do {                                                                                             \
        int rc_ = (call);                                                                            \
        if (rc_ != MPI_SUCCESS) {                                                                    \
            printf("rank %d FAILED: %s: %s returned %d\n", rank, what, #call, rc_);                  \
            failures++;                                                                              \
        }                                                                                            \
    } while (0)

/* blk is the blocking call (its _init is the persistent one), nb the nonblocking one. */
#define CALL(round, blk, nb, ...)                                                                    \
    do {                                                                                             \
        if (mode == M_BLOCK) {                                                                       \
            OK(blk(__VA_ARGS__));                                                                    \
        } else if (mode == M_NB) {                                                                   \
            MPI_Request r_;                                                                          \
            OK(nb(__VA_ARGS__, &r_));                                                                \
            OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                                    \
        } else {                                                                                     \
            if ((round) == 0)                                                                        \
                OK(blk##_init(__VA_ARGS__, MPI_INFO_NULL, &preq));                                   \
            OK(MPI_Start(&preq));                                                                    \
            OK(MPI_Wait(&preq, MPI_STATUS_IGNORE));                                                  \
        }                                                                                            \
    } while (0)

static void calls_done(void)
{
    if (mode == M_PERSIST)
        OK(MPI_Request_free(&preq));
}

static void describe(const char *coll)
{
    snprintf(what, sizeof(what), "%s %s, %s buffers, %s, count %d%s", mode_name[mode], coll, place_name[place],
             layout_name[layout], cnt, inplace ? ", in place" : "");
}

/* Blocks of counts c[j] laid out one after another, with a gap of one element after each when gaps. */
static int64_t blocks(int n, const int *c, int *displs, bool gaps)
{
    int64_t at = 0;
    for (int j = 0; j < n; j++) {
        displs[j] = (int)at;
        at += c[j] + (gaps ? 1 : 0);
    }
    return at;
}

static int64_t sum(int n, const int *c)
{
    int64_t s = 0;
    for (int j = 0; j < n; j++)
        s += c[j];
    return s;
}

/* ---- the collectives ------------------------------------------------------------------------------------- */

static void t_bcast(void)
{
    describe("bcast");
    int root = cnt % size;
    struct buf b;
    buf_make(&b, cnt, dev_of(rank == root ? 0 : 1), 1);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&b);
        if (rank == root)
            for (int k = 0; k < cnt; k++)
                el_value(&b, k, root, 0, k, salt);
        buf_put(&b);
        CALL(round, MPI_Bcast, MPI_Ibcast, b.p, cnt, etype, root, MPI_COMM_WORLD);
        for (int k = 0; k < cnt; k++)
            el_value(&b, k, root, 0, k, salt);
        buf_check(&b, "buffer");
    }
    calls_done();
    buf_free(&b);
}

/* Gather (v: gatherv, block j of cnt + j % 2 elements with gaps between blocks). */
static void t_gather(bool v)
{
    describe(v ? "gatherv" : "gather");
    int root = (cnt + 1) % size;
    int *c = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; j++)
        c[j] = v ? cnt + j % 2 : cnt;
    int64_t total = blocks(size, c, displs, v);
    bool in_place = inplace && rank == root;
    struct buf s, r;
    buf_make(&s, c[rank], dev_of(0), 2);
    buf_make(&r, rank == root ? total : 0, dev_of(1), 3);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        for (int k = 0; k < c[rank]; k++) {
            el_value(&s, k, rank, 0, k, salt);
            if (in_place)
                el_value(&r, displs[rank] + k, rank, 0, k, salt);
        }
        buf_put(&s);
        buf_put(&r);
        const void *sb = in_place ? MPI_IN_PLACE : s.p;
        void *rb = rank == root ? r.p : NULL;
        if (v)
            CALL(round, MPI_Gatherv, MPI_Igatherv, sb, c[rank], etype, rb, c, displs, etype, root, MPI_COMM_WORLD);
        else
            CALL(round, MPI_Gather, MPI_Igather, sb, cnt, etype, rb, cnt, etype, root, MPI_COMM_WORLD);
        if (rank == root)
            for (int j = 0; j < size; j++)
                for (int k = 0; k < c[j]; k++)
                    el_value(&r, displs[j] + k, j, 0, k, salt);
        buf_check(&s, "send buffer");
        buf_check(&r, "receive buffer");
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
    free(c);
    free(displs);
}

static void t_scatter(bool v)
{
    describe(v ? "scatterv" : "scatter");
    int root = (cnt + 2) % size;
    int *c = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; j++)
        c[j] = v ? cnt + j % 2 : cnt;
    int64_t total = blocks(size, c, displs, v);
    bool in_place = inplace && rank == root;
    struct buf s, r;
    buf_make(&s, rank == root ? total : 0, dev_of(0), 4);
    buf_make(&r, c[rank], dev_of(1), 5);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        if (rank == root)
            for (int j = 0; j < size; j++)
                for (int k = 0; k < c[j]; k++)
                    el_value(&s, displs[j] + k, root, j, k, salt);
        buf_put(&s);
        buf_put(&r);
        const void *sb = rank == root ? s.p : NULL;
        void *rb = in_place ? MPI_IN_PLACE : r.p;
        if (v)
            CALL(round, MPI_Scatterv, MPI_Iscatterv, sb, c, displs, etype, rb, c[rank], etype, root, MPI_COMM_WORLD);
        else
            CALL(round, MPI_Scatter, MPI_Iscatter, sb, cnt, etype, rb, cnt, etype, root, MPI_COMM_WORLD);
        if (!in_place)
            for (int k = 0; k < c[rank]; k++)
                el_value(&r, k, root, rank, k, salt);
        buf_check(&s, "send buffer");
        buf_check(&r, "receive buffer");
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
    free(c);
    free(displs);
}

static void t_allgather(bool v)
{
    describe(v ? "allgatherv" : "allgather");
    int *c = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; j++)
        c[j] = v ? cnt + j % 2 : cnt;
    int64_t total = blocks(size, c, displs, v);
    struct buf s, r;
    buf_make(&s, c[rank], dev_of(0), 6);
    buf_make(&r, total, dev_of(1), 7);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        for (int k = 0; k < c[rank]; k++) {
            el_value(&s, k, rank, 0, k, salt);
            if (inplace)
                el_value(&r, displs[rank] + k, rank, 0, k, salt);
        }
        buf_put(&s);
        buf_put(&r);
        const void *sb = inplace ? MPI_IN_PLACE : s.p;
        if (v)
            CALL(round, MPI_Allgatherv, MPI_Iallgatherv, sb, c[rank], etype, r.p, c, displs, etype, MPI_COMM_WORLD);
        else
            CALL(round, MPI_Allgather, MPI_Iallgather, sb, cnt, etype, r.p, cnt, etype, MPI_COMM_WORLD);
        for (int j = 0; j < size; j++)
            for (int k = 0; k < c[j]; k++)
                el_value(&r, displs[j] + k, j, 0, k, salt);
        buf_check(&s, "send buffer");
        buf_check(&r, "receive buffer");
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
    free(c);
    free(displs);
}

/* kind 0: alltoall, 1: alltoallv, 2: alltoallw. Rank i sends cnt + (i + j) % 2 elements to rank j in
 * the v and w forms (symmetric, so in place works too). */
static void t_alltoall(int kind)
{
    static const char *names[] = {"alltoall", "alltoallv", "alltoallw"};
    describe(names[kind]);
    int n = size;
    int *sc = malloc(sizeof(int) * (size_t)n), *rc = malloc(sizeof(int) * (size_t)n);
    int *sd = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    int *sbytes = malloc(sizeof(int) * (size_t)n), *rbytes = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int j = 0; j < n; j++) {
        sc[j] = kind ? cnt + (rank + j) % 2 : cnt;
        rc[j] = kind ? cnt + (j + rank) % 2 : cnt;
        types[j] = etype;
    }
    int64_t stotal = blocks(n, sc, sd, kind != 0), rtotal = blocks(n, rc, rd, kind != 0);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(etype, &lb, &extent);
    for (int j = 0; j < n; j++) {
        sbytes[j] = (int)(sd[j] * extent);
        rbytes[j] = (int)(rd[j] * extent);
    }
    struct buf s, r;
    buf_make(&s, stotal, dev_of(0), 8);
    buf_make(&r, rtotal, dev_of(1), 9);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        for (int j = 0; j < n; j++)
            for (int k = 0; k < sc[j]; k++) {
                el_value(&s, sd[j] + k, rank, j, k, salt);
                if (inplace)
                    el_value(&r, rd[j] + k, rank, j, k, salt);
            }
        buf_put(&s);
        buf_put(&r);
        const void *sb = inplace ? MPI_IN_PLACE : s.p;
        if (kind == 0)
            CALL(round, MPI_Alltoall, MPI_Ialltoall, sb, cnt, etype, r.p, cnt, etype, MPI_COMM_WORLD);
        else if (kind == 1)
            CALL(round, MPI_Alltoallv, MPI_Ialltoallv, sb, sc, sd, etype, r.p, rc, rd, etype, MPI_COMM_WORLD);
        else
            CALL(round, MPI_Alltoallw, MPI_Ialltoallw, sb, sc, sbytes, types, r.p, rc, rbytes, types,
                 MPI_COMM_WORLD);
        for (int j = 0; j < n; j++)
            for (int k = 0; k < rc[j]; k++)
                el_value(&r, rd[j] + k, j, rank, k, salt);
        buf_check(&s, "send buffer");
        buf_check(&r, "receive buffer");
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
    free(sc), free(rc), free(sd), free(rd), free(sbytes), free(rbytes), free(types);
}

enum { R_REDUCE, R_ALLREDUCE, R_SCATTER_BLOCK, R_SCATTER, R_SCAN, R_EXSCAN };
static const char *red_name[] = {"reduce", "allreduce", "reduce_scatter_block", "reduce_scatter", "scan",
                                 "exscan"};

static void t_reduction(int kind)
{
    describe(red_name[kind]);
    int root = (cnt + 3) % size;
    bool scatter = kind == R_SCATTER_BLOCK || kind == R_SCATTER;
    int *c = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int j = 0; j < size; j++)
        c[j] = kind == R_SCATTER ? cnt + j % 2 : cnt;
    blocks(size, c, displs, false);
    int64_t incount = scatter ? sum(size, c) : cnt, outcount = scatter ? c[rank] : cnt;
    bool has_result = kind != R_REDUCE || rank == root;
    bool in_place = inplace && has_result;
    struct buf s, r;
    buf_make(&s, incount, dev_of(0), 10);
    /* In place, the receive buffer holds the contribution first. */
    buf_make(&r, in_place ? incount : has_result ? outcount : 0, dev_of(1), 11);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        struct buf *in = in_place ? &r : &s;
        for (int j = 0; j < (scatter ? size : 1); j++)
            for (int k = 0; k < c[j]; k++)
                el_value(in, displs[j] + k, rank, j, k, salt);
        buf_put(&s);
        buf_put(&r);
        const void *sb = in_place ? MPI_IN_PLACE : s.p;
        void *rb = has_result ? r.p : NULL;
        switch (kind) {
        case R_REDUCE:
            CALL(round, MPI_Reduce, MPI_Ireduce, sb, rb, cnt, etype, op, root, MPI_COMM_WORLD);
            break;
        case R_ALLREDUCE:
            CALL(round, MPI_Allreduce, MPI_Iallreduce, sb, rb, cnt, etype, op, MPI_COMM_WORLD);
            break;
        case R_SCATTER_BLOCK:
            CALL(round, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, sb, rb, cnt, etype, op, MPI_COMM_WORLD);
            break;
        case R_SCATTER:
            CALL(round, MPI_Reduce_scatter, MPI_Ireduce_scatter, sb, rb, c, etype, op, MPI_COMM_WORLD);
            break;
        case R_SCAN:
            CALL(round, MPI_Scan, MPI_Iscan, sb, rb, cnt, etype, op, MPI_COMM_WORLD);
            break;
        case R_EXSCAN:
            CALL(round, MPI_Exscan, MPI_Iexscan, sb, rb, cnt, etype, op, MPI_COMM_WORLD);
            break;
        }
        /* Rank 0 of an exscan gets nothing: its buffer stays as it was. */
        if (has_result && !(kind == R_EXSCAN && rank == 0)) {
            int j = scatter ? rank : 0;
            int ranks = kind == R_SCAN ? rank + 1 : kind == R_EXSCAN ? rank : size;
            for (int k = 0; k < outcount; k++) {
                uint32_t v[2];
                fold(0, 1, ranks, j, k, salt, v);
                el_put(&r, k, v);
            }
        }
        buf_check(&s, "send buffer");
        /* In place, a reduce_scatter leaves the rest of the buffer undefined. */
        buf_check_upto(&r, "receive buffer", in_place && scatter ? (size_t)(outcount * W * S) : SIZE_MAX);
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
    free(c);
    free(displs);
}

static void t_reduce_local(void)
{
    describe("reduce_local");
    struct buf in, io;
    buf_make(&in, cnt, dev_of(0), 12);
    buf_make(&io, cnt, dev_of(1), 13);
    buf_reset(&in);
    buf_reset(&io);
    for (int k = 0; k < cnt; k++) {
        el_value(&in, k, rank, 0, k, 1);
        el_value(&io, k, rank + 1, 0, k, 1);
    }
    buf_put(&in);
    buf_put(&io);
    OK(MPI_Reduce_local(in.p, io.p, cnt, etype, op));
    for (int k = 0; k < cnt; k++) {
        uint32_t v[2];
        fold(rank, 1, 2, 0, k, 1, v);
        el_put(&io, k, v);
    }
    buf_check(&in, "inbuf");
    buf_check(&io, "inoutbuf");
    buf_free(&in);
    buf_free(&io);
}

/* ---- neighborhood collectives on a non-periodic ring: slot 0 is the rank below, 1 the one above -------- */

static MPI_Comm ring;

enum { N_ALLGATHER, N_ALLGATHERV, N_ALLTOALL, N_ALLTOALLV, N_ALLTOALLW };
static const char *nb_name[] = {"neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall",
                                "neighbor_alltoallv", "neighbor_alltoallw"};

static void t_neighbor(int kind)
{
    describe(nb_name[kind]);
    int nbr[2] = {rank > 0 ? rank - 1 : MPI_PROC_NULL, rank + 1 < size ? rank + 1 : MPI_PROC_NULL};
    bool v = kind == N_ALLGATHERV || kind == N_ALLTOALLV || kind == N_ALLTOALLW;
    bool a2a = kind >= N_ALLTOALL;
    /* Going up (to slot 1) a v form sends one element more than going down. */
    int sc[2] = {cnt, a2a && v ? cnt + 1 : cnt}, rc[2] = {a2a && v ? cnt + 1 : cnt, cnt};
    int sd[2], rd[2];
    int64_t stotal = a2a ? blocks(2, sc, sd, v) : cnt, rtotal = blocks(2, rc, rd, v);
    MPI_Aint lb, extent, sbytes[2], rbytes[2];
    MPI_Type_get_extent(etype, &lb, &extent);
    for (int j = 0; j < 2; j++) {
        sbytes[j] = sd[j] * extent;
        rbytes[j] = rd[j] * extent;
    }
    MPI_Datatype types[2] = {etype, etype};
    struct buf s, r;
    buf_make(&s, stotal, dev_of(0), 14);
    buf_make(&r, rtotal, dev_of(1), 15);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        for (int j = 0; j < (a2a ? 2 : 1); j++)
            for (int k = 0; k < sc[j]; k++)
                el_value(&s, (a2a ? sd[j] : 0) + k, rank, j, k, salt);
        buf_put(&s);
        buf_put(&r);
        switch (kind) {
        case N_ALLGATHER:
            CALL(round, MPI_Neighbor_allgather, MPI_Ineighbor_allgather, s.p, cnt, etype, r.p, cnt, etype, ring);
            break;
        case N_ALLGATHERV:
            CALL(round, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, s.p, cnt, etype, r.p, rc, rd, etype, ring);
            break;
        case N_ALLTOALL:
            CALL(round, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, s.p, cnt, etype, r.p, cnt, etype, ring);
            break;
        case N_ALLTOALLV:
            CALL(round, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, s.p, sc, sd, etype, r.p, rc, rd, etype,
                 ring);
            break;
        case N_ALLTOALLW:
            CALL(round, MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, s.p, sc, sbytes, types, r.p, rc, rbytes,
                 types, ring);
            break;
        }
        /* Slot 0 gets what the rank below sent up (its block 1), slot 1 what the one above sent down. */
        for (int j = 0; j < 2; j++)
            if (nbr[j] != MPI_PROC_NULL)
                for (int k = 0; k < rc[j]; k++)
                    el_value(&r, rd[j] + k, nbr[j], a2a ? 1 - j : 0, k, salt);
        buf_check(&s, "send buffer");
        buf_check(&r, "receive buffer");
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
}

/* ---- intercommunicators: even ranks against odd ones; world rank 0 is the root ---------------------- */

static MPI_Comm inter;
static int group, lrank, rsize;

static int world_of(int g, int local)
{
    return 2 * local + g;
}

enum { I_BCAST, I_GATHER, I_SCATTER, I_ALLGATHER, I_ALLTOALL, I_REDUCE, I_ALLREDUCE };
static const char *inter_name[] = {"inter bcast", "inter gather", "inter scatter", "inter allgather",
                                   "inter alltoall", "inter reduce", "inter allreduce"};

static void t_inter(int kind)
{
    describe(inter_name[kind]);
    int other = 1 - group;
    /* The root's group passes MPI_ROOT (the root) or MPI_PROC_NULL, the other group the root's rank. */
    int root = group == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    bool is_root = root == MPI_ROOT, idle = root == MPI_PROC_NULL;
    int64_t sn = 0, rn = 0;
    switch (kind) {
    case I_BCAST:
        sn = idle ? 0 : cnt;
        break;
    case I_GATHER:
        sn = group == 1 ? cnt : 0;
        rn = is_root ? (int64_t)rsize * cnt : 0;
        break;
    case I_SCATTER:
        sn = is_root ? (int64_t)rsize * cnt : 0;
        rn = group == 1 ? cnt : 0;
        break;
    case I_ALLGATHER:
    case I_ALLTOALL:
        sn = kind == I_ALLTOALL ? (int64_t)rsize * cnt : cnt;
        rn = (int64_t)rsize * cnt;
        break;
    case I_REDUCE:
        sn = group == 1 ? cnt : 0;
        rn = is_root ? cnt : 0;
        break;
    case I_ALLREDUCE:
        sn = rn = cnt;
        break;
    }
    struct buf s, r;
    /* bcast moves one buffer: the root's is read, the others' written. */
    buf_make(&s, sn, dev_of(kind == I_BCAST && !is_root ? 1 : 0), 16);
    buf_make(&r, rn, dev_of(1), 17);
    for (int round = 0; round < rounds(); round++) {
        int salt = round + 1;
        buf_reset(&s);
        buf_reset(&r);
        if (kind == I_ALLTOALL || (kind == I_SCATTER && is_root))
            for (int j = 0; j < rsize; j++)
                for (int k = 0; k < cnt; k++)
                    el_value(&s, (int64_t)j * cnt + k, rank, world_of(other, j), k, salt);
        else if (!(kind == I_BCAST && !is_root))
            for (int k = 0; k < sn; k++)
                el_value(&s, k, rank, 0, k, salt);
        buf_put(&s);
        buf_put(&r);
        switch (kind) {
        case I_BCAST:
            CALL(round, MPI_Bcast, MPI_Ibcast, s.p, cnt, etype, root, inter);
            if (group == 1)
                for (int k = 0; k < cnt; k++)
                    el_value(&s, k, 0, 0, k, salt);
            break;
        case I_GATHER:
            CALL(round, MPI_Gather, MPI_Igather, s.p, cnt, etype, r.p, cnt, etype, root, inter);
            if (is_root)
                for (int j = 0; j < rsize; j++)
                    for (int k = 0; k < cnt; k++)
                        el_value(&r, (int64_t)j * cnt + k, world_of(other, j), 0, k, salt);
            break;
        case I_SCATTER:
            CALL(round, MPI_Scatter, MPI_Iscatter, s.p, cnt, etype, r.p, cnt, etype, root, inter);
            if (group == 1)
                for (int k = 0; k < cnt; k++)
                    el_value(&r, k, 0, rank, k, salt);
            break;
        case I_ALLGATHER:
            CALL(round, MPI_Allgather, MPI_Iallgather, s.p, cnt, etype, r.p, cnt, etype, inter);
            for (int j = 0; j < rsize; j++)
                for (int k = 0; k < cnt; k++)
                    el_value(&r, (int64_t)j * cnt + k, world_of(other, j), 0, k, salt);
            break;
        case I_ALLTOALL:
            CALL(round, MPI_Alltoall, MPI_Ialltoall, s.p, cnt, etype, r.p, cnt, etype, inter);
            for (int j = 0; j < rsize; j++)
                for (int k = 0; k < cnt; k++)
                    el_value(&r, (int64_t)j * cnt + k, world_of(other, j), rank, k, salt);
            break;
        case I_REDUCE:
        case I_ALLREDUCE:
            if (kind == I_REDUCE)
                CALL(round, MPI_Reduce, MPI_Ireduce, s.p, r.p, cnt, etype, op, root, inter);
            else
                CALL(round, MPI_Allreduce, MPI_Iallreduce, s.p, r.p, cnt, etype, op, inter);
            if (rn)
                for (int k = 0; k < cnt; k++) {
                    uint32_t v[2];
                    fold(other, 2, rsize, 0, k, salt, v);
                    el_put(&r, k, v);
                }
            break;
        }
        buf_check(&s, kind == I_BCAST ? "buffer" : "send buffer");
        buf_check(&r, "receive buffer");
    }
    calls_done();
    buf_free(&s);
    buf_free(&r);
}

/* ---- on the fake driver: copies counted, copies failed ----------------------------------------------- */

/* Axon's copies: the fake's copy calls of every direction, counted where the test makes none itself. */
static fakecuda_calls_fn fake_calls;
static fakecuda_reset_stats_fn fake_reset;
static fakecuda_fail_memcpy_fn fake_fail;
static fakecuda_copy_stats_fn fake_stats;

static unsigned long long copies_since(void)
{
    /* Synchronous copies, or asynchronous ones on Axon's copy stream (AXON_CUDA_COPY_STREAM=1). */
    unsigned long long n = fake_calls("cuMemcpy") + fake_calls("cuMemcpyDtoD") + fake_calls("cuMemcpyHtoD") +
                           fake_calls("cuMemcpyDtoH") + fake_calls("cuMemcpyAsync");
    fake_reset();
    return n;
}

/* Whether blocking calls may take the node's shared-memory path (AXON_COLL_SHM_MAX=0: they run
 * schedules too). */
static bool shm_on(void)
{
    const char *v = getenv("AXON_COLL_SHM_MAX");
    return !v || strcmp(v, "0") != 0;
}

/* Allgathers of GPU buffers above AXON_COLL_GPU_AGREE_MIN (160,000-byte blocks), persistent and
 * nonblocking: the persistent _init has the members agree once that every buffer is GPU memory, the
 * nonblocking call runs the agreement as its request's first schedule, and both then take the domain
 * algorithm, whose blocks come by copy-list kernels. With the receive buffers in host memory the
 * nonblocking call moves its blocks as messages, copied by the driver (IPC messages above 64 KiB take no
 * kernel). All checked against the reference. */
static bool domain_forced(void);
static void t_agreed_device(void)
{
    if (domain_forced() || getenv("AXON_TOPO") || getenv("AXON_COLL_GPU_AGREE_MIN") ||
        (getenv("AXON_COLL_SHM_MAX") && strcmp(getenv("AXON_COLL_SHM_MAX"), "0") == 0))
        return;
    const int blk = 40000;
    static const char *const form_name[] = {"persistent", "nonblocking", "nonblocking into host memory"};
    size_t bytes = (size_t)blk * sizeof(int);
    int *h = malloc(bytes * (size_t)size), *got = malloc(bytes * (size_t)size);
    void *s = test_cuda_malloc(bytes), *r = test_cuda_malloc(bytes * (size_t)size);
    for (int i = 0; i < blk; i++)
        h[i] = rank * 1000003 + i;
    TEST_CU(test_cuda_from_host(s, h, bytes));
    unsigned long long launches[3];
    for (int form = 0; form < 3; form++) {
        MPI_Request req;
        void *into = form == 2 ? (void *)got : r;
        if (form == 2)
            memset(got, 0, bytes * (size_t)size);
        else
            TEST_CU(test_cuda_from_host(r, h, bytes)); /* stale data in the first block */
        if (form == 0)
            OK(MPI_Allgather_init(s, blk, MPI_INT, r, blk, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
        fake_reset();
        for (int start = 0; start < (form == 0 ? 2 : 1); start++) {
            if (form == 0)
                OK(MPI_Start(&req));
            else
                OK(MPI_Iallgather(s, blk, MPI_INT, into, blk, MPI_INT, MPI_COMM_WORLD, &req));
            OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        launches[form] = fake_calls("cuLaunchKernel");
        if (form == 0)
            OK(MPI_Request_free(&req));
        if (form != 2)
            TEST_CU(test_cuda_to_host(got, r, bytes * (size_t)size));
        for (int q = 0, bad = 0; q < size && !bad; q++)
            for (int i = 0; i < blk && !bad; i++)
                if (got[(size_t)q * blk + (size_t)i] != q * 1000003 + i) {
                    printf("rank %d FAILED: %s allgather of GPU buffers: block %d element %d is %d\n", rank,
                           form_name[form], q, i, got[(size_t)q * blk + (size_t)i]);
                    failures++;
                    bad = 1;
                }
    }
    if (size > 1 && one_node && (launches[0] == 0 || launches[1] == 0 || launches[2] != 0)) {
        printf("rank %d FAILED: allgathers launched %llu kernels persistent, %llu nonblocking (domain: some), "
               "%llu nonblocking into host memory (none)\n", rank, launches[0], launches[1], launches[2]);
        failures++;
    }
    /* The memo of host-only answers (coll/axon_coll_select.h), on a communicator of its own: one GPU
     * call (answer: GPU, the memo empty), then 10 blocking allgathers of host buffers: they ask at the
     * 1st, 3rd and 7th (1, 3, 7 calls skipped after), so 4 calls are still to skip; the next 4 GPU
     * allgathers take host memory for granted (staged: no kernel) and the 5th asks and runs the domain
     * algorithm. All of them against the reference. */
    MPI_Comm mc;
    OK(MPI_Comm_dup(MPI_COMM_WORLD, &mc));
    int *hs = malloc(bytes), *hr = malloc(bytes * (size_t)size);
    memcpy(hs, h, bytes);
    for (int call = 0; call < 16; call++) {
        bool gpu = call == 0 || call >= 11;
        if (gpu)
            TEST_CU(test_cuda_from_host(r, h, bytes));
        else
            memset(hr, 0, bytes * (size_t)size);
        fake_reset();
        OK(MPI_Allgather(gpu ? s : (void *)hs, blk, MPI_INT, gpu ? r : (void *)hr, blk, MPI_INT, mc));
        unsigned long long k = fake_calls("cuLaunchKernel");
        if (gpu)
            TEST_CU(test_cuda_to_host(got, r, bytes * (size_t)size));
        const int *res = gpu ? got : hr;
        for (int q = 0, bad = 0; q < size && !bad; q++)
            for (int i = 0; i < blk && !bad; i++)
                if (res[(size_t)q * blk + (size_t)i] != q * 1000003 + i) {
                    printf("rank %d FAILED: allgather %d of the memo's sequence: block %d element %d is %d\n",
                           rank, call, q, i, res[(size_t)q * blk + (size_t)i]);
                    failures++;
                    bad = 1;
                }
        bool domain = call == 0 || call == 15;
        if (size > 1 && one_node && gpu && (k != 0) != domain) {
            printf("rank %d FAILED: GPU allgather %d of the memo's sequence launched %llu kernels (%s expected)\n",
                   rank, call, k, domain ? "some" : "none");
            failures++;
        }
    }
    OK(MPI_Comm_free(&mc));
    free(hs);
    free(hr);
    test_cuda_free(s);
    test_cuda_free(r);
    free(h);
    free(got);
}

/* Whether a knob forces a domain algorithm (coll/axon_coll_domain.c) on a collective of this test. */
static bool domain_forced(void)
{
    static const char *const knobs[] = {"AXON_COLL_ALLREDUCE_ALG", "AXON_COLL_REDUCE_SCATTER_ALG",
                                        "AXON_COLL_BCAST_ALG",     "AXON_COLL_ALLGATHER_ALG",
                                        "AXON_COLL_ALLTOALL_ALG",  "AXON_COLL_REDUCE_ALG"};
    for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
        const char *v = getenv(knobs[i]);
        if (v && strcmp(v, "domain") == 0)
            return true;
    }
    return false;
}

/* Staged (the small alltoall below takes the shared-memory path): one copy each way per user buffer on
 * the GPU, whatever the number of blocks; none for host memory. As a schedule with every buffer on the
 * GPU: no copy to or from the host at all (the blocks move GPU to GPU). */
static void t_copies(void)
{
    /* A forced domain algorithm moves even host data through the GPU (the members cannot know each
     * other's memory, so one that applies runs on all of them), the library's own collectives included
     * (the node's shared-memory setup broadcasts its name): these counts are for the other algorithms. */
    if (domain_forced())
        return;
    set_layout(L_CONTIG);
    place = P_DEV;
    inplace = false;
    cnt = 7;
    snprintf(what, sizeof(what), "copies of an alltoall");
    struct buf s, r, h;
    buf_make(&s, (int64_t)size * cnt, true, 20);
    buf_make(&r, (int64_t)size * cnt, true, 21);
    buf_make(&h, (int64_t)size * cnt, false, 22);
    buf_reset(&s);
    buf_put(&s);
    copies_since();
    struct fakecuda_copy_stats c0, c1;
    fake_stats(&c0);
    OK(MPI_Alltoall(s.p, cnt, MPI_INT, r.p, cnt, MPI_INT, MPI_COMM_WORLD));
    fake_stats(&c1);
    unsigned long long n = copies_since();
    if (!shm_on()) {
        /* Between nodes (AXON_TOPO's too) messages of GPU memory go through UCX, staged. */
        if (one_node && (c1.htod != c0.htod || c1.dtoh != c0.dtoh)) {
            printf("rank %d FAILED: an alltoall of GPU buffers as a schedule copied through the host\n", rank);
            failures++;
        }
    } else if (n != 2) {
        printf("rank %d FAILED: an alltoall of GPU buffers made %llu copies, expected 2\n", rank, n);
        failures++;
    }
    OK(MPI_Alltoall(h.p, cnt, MPI_INT, r.p, cnt, MPI_INT, MPI_COMM_WORLD));
    n = copies_since();
    if (n != 1) {
        printf("rank %d FAILED: an alltoall from host to GPU made %llu copies, expected 1\n", rank, n);
        failures++;
    }
    OK(MPI_Allreduce((int *)h.p, (int *)h.p + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    n = copies_since();
    if (n != 0) {
        printf("rank %d FAILED: an allreduce of host buffers made %llu copies, expected none\n", rank, n);
        failures++;
    }
    buf_free(&s);
    buf_free(&r);
    buf_free(&h);
}

/* A failed copy fails the call on the rank where it failed and on no other, and the next collective
 * works. Blocking (the shared-memory path, staged), which 0: the copy of the input to the host fails,
 * 1: the copy of the result back, which leaves the GPU's result buffer alone. Nonblocking (a schedule
 * that keeps the data on the GPU): its first copy fails. */
static void t_copy_errors(void)
{
    set_layout(L_CONTIG);
    place = P_DEV;
    cnt = 5;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    /* MPI_Wait raises its errors on MPI_COMM_WORLD here, not on the request's communicator. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bool staged = shm_on();
    struct buf s, r;
    buf_make(&s, cnt, true, 23);
    buf_make(&r, cnt, true, 24);
    /* The domain allreduce folding into every result makes no copy at all on GPU buffers: nothing to fail. */
    const char *fused = getenv("AXON_COLL_DOMAIN_FUSED");
    bool no_copy = domain_forced() && !(fused && strcmp(fused, "0") == 0);
    for (int nb = 0; nb < 2; nb++)
        for (int which = 0; which < (staged && !nb ? 2 : 1); which++) {
            if (nb && no_copy)
                continue;
            snprintf(what, sizeof(what), "%s allreduce whose copy %s fails on rank 0", nb ? "nonblocking" : "blocking",
                     which ? "back to the GPU" : "to the host");
            buf_reset(&s);
            buf_reset(&r);
            for (int k = 0; k < cnt; k++)
                el_value(&s, k, rank, 0, k, 1);
            buf_put(&s);
            buf_put(&r);
            if (rank == 0)
                fake_fail((unsigned long long)which, 1);
            int rc;
            if (nb) {
                MPI_Request req;
                rc = MPI_Iallreduce(s.p, r.p, cnt, MPI_INT, MPI_SUM, comm, &req);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            } else {
                rc = MPI_Allreduce(s.p, r.p, cnt, MPI_INT, MPI_SUM, comm);
            }
            fake_fail(0, 0);
            int cls = MPI_SUCCESS;
            MPI_Error_class(rc, &cls);
            if (rank == 0 ? cls != MPI_ERR_OTHER : rc != MPI_SUCCESS) {
                printf("rank %d FAILED: %s: error class %d\n", rank, what, cls);
                failures++;
            }
            /* Staged (blocking, through shared memory), the result stays untouched: nothing goes back
             * after an error. A nonblocking allreduce of GPU buffers runs on the GPU, its first copy
             * there failing: it writes the result in place, undefined after an error, and goes on to its
             * end, so that the other ranks are not left waiting. */
            if (rank == 0 && staged && !nb)
                buf_check(&r, "receive buffer");
            /* And all is well again. */
            OK(MPI_Allreduce(s.p, r.p, cnt, MPI_INT, MPI_SUM, comm));
            buf_reset(&r);
            for (int k = 0; k < cnt; k++) {
                uint32_t v[2];
                fold(0, 1, size, 0, k, 1, v);
                el_put(&r, k, v);
            }
            buf_check(&r, "receive buffer after");
        }
    buf_free(&s);
    buf_free(&r);
    MPI_Comm_free(&comm);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* ---- reductions on the GPU: every predefined operation on every type it takes ----------------------- */

/* A reduction of GPU buffers whose operation has a kernel runs on the GPU: the fake driver runs its own
 * reference of each kernel (tests/fakecuda/axon_fakecuda_kernels.c), which must agree byte for byte with
 * Axon's host loops on the same data, for MPI_Reduce_local and for a nonblocking allreduce (a schedule:
 * GPU scratch, kernels, no copy through the host). Values are small integers, so floating-point sums
 * and products are exact whatever the order. */
struct gpu_type {
    MPI_Datatype type;
    const char *name;
    int size;
    char form; /* 'i' integer, 'u' unsigned, 'f' float, 'd' double, 'h' half, 'b' bfloat16,
                * 'c'/'z' complex float/double, 'p' pair */
};

static void gpu_fill(const struct gpu_type *t, unsigned char *b, int n, int salt)
{
    for (int i = 0; i < n; i++) {
        unsigned char *e = b + (size_t)i * t->size;
        int v = (salt * 7 + i * 3) % 5 - 1; /* -1 .. 3 */
        unsigned u = (unsigned)(salt * 37 + i * 11) % 251u;
        memset(e, 0, (size_t)t->size);
        switch (t->form) {
        case 'i': {
            int64_t x = v;
            memcpy(e, &x, (size_t)t->size); /* little endian: the low bytes */
            break;
        }
        case 'u': {
            uint64_t x = i % 3 == 0 ? 0 : u;
            memcpy(e, &x, (size_t)t->size);
            break;
        }
        case 'f': {
            float x = (float)v;
            memcpy(e, &x, 4);
            break;
        }
        case 'd': {
            double x = v;
            memcpy(e, &x, 8);
            break;
        }
        case 'h': { /* half: small integers are exact */
            _Float16 x = (_Float16)v;
            memcpy(e, &x, 2);
            break;
        }
        case 'b': { /* bfloat16: a float's upper half, exact for small integers */
            float x = (float)v;
            uint32_t u;
            memcpy(&u, &x, 4);
            uint16_t b = (uint16_t)(u >> 16);
            memcpy(e, &b, 2);
            break;
        }
        case 'c': {
            float x[2] = {(float)v, (float)(v - 1)};
            memcpy(e, x, 8);
            break;
        }
        case 'z': {
            double x[2] = {v, v - 1};
            memcpy(e, x, 16);
            break;
        }
        }
    }
}

/* Pairs {value, index}: the values collide often, so equal values pick the smaller index. */
static void gpu_fill_pair(MPI_Datatype type, unsigned char *b, int n, int salt)
{
    for (int i = 0; i < n; i++) {
        int v = (salt + i) % 3, idx = salt * 10 + i % 4;
        if (type == MPI_FLOAT_INT) {
            struct { float v; int i; } x = {(float)v, idx};
            memcpy(b + (size_t)i * 8, &x, 8);
        } else if (type == MPI_DOUBLE_INT) {
            double dv = v;
            memcpy(b + (size_t)i * 12, &dv, 8);
            memcpy(b + (size_t)i * 12 + 8, &idx, 4);
        } else if (type == MPI_LONG_INT) {
            long lv = v;
            memcpy(b + (size_t)i * 12, &lv, 8);
            memcpy(b + (size_t)i * 12 + 8, &idx, 4);
        } else if (type == MPI_SHORT_INT) {
            short sv = (short)v;
            memcpy(b + (size_t)i * 6, &sv, 2);
            memcpy(b + (size_t)i * 6 + 2, &idx, 4);
        } else if (type == MPI_2INT) {
            int x[2] = {v, idx};
            memcpy(b + (size_t)i * 8, x, 8);
        } else if (type == MPI_2DOUBLE_PRECISION) {
            double x[2] = {v, idx};
            memcpy(b + (size_t)i * 16, x, 16);
        } else {
            float x[2] = {(float)v, (float)idx};
            memcpy(b + (size_t)i * 8, x, 8);
        }
    }
}

static void t_gpu_ops(void)
{
    static const struct gpu_type types[] = {
        {MPI_CHAR, "MPI_CHAR", 1, CHAR_MIN < 0 ? 'i' : 'u'}, {MPI_CHARACTER, "MPI_CHARACTER", 1, 'u'},
        {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 'i'}, {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 'u'},
        {MPI_SHORT, "MPI_SHORT", 2, 'i'}, {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", 2, 'u'},
        {MPI_INT, "MPI_INT", 4, 'i'}, {MPI_UNSIGNED, "MPI_UNSIGNED", 4, 'u'}, {MPI_LONG, "MPI_LONG", 8, 'i'},
        {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", 8, 'u'}, {MPI_INT8_T, "MPI_INT8_T", 1, 'i'},
        {MPI_UINT16_T, "MPI_UINT16_T", 2, 'u'}, {MPI_INT64_T, "MPI_INT64_T", 8, 'i'},
        {MPI_UINT64_T, "MPI_UINT64_T", 8, 'u'}, {MPI_AINT, "MPI_AINT", 8, 'i'}, {MPI_INTEGER, "MPI_INTEGER", 4, 'i'},
        {MPI_FLOAT, "MPI_FLOAT", 4, 'f'}, {MPI_DOUBLE, "MPI_DOUBLE", 8, 'd'}, {MPI_REAL8, "MPI_REAL8", 8, 'd'},
#if defined(__FLT16_MAX__)
        {MPIX_C_FLOAT16, "MPIX_C_FLOAT16", 2, 'h'},
#endif
        {MPIX_BFLOAT16, "MPIX_BFLOAT16", 2, 'b'},
        {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 8, 'c'}, {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16, 'z'},
        {MPI_C_BOOL, "MPI_C_BOOL", 1, 'u'}, {MPI_LOGICAL, "MPI_LOGICAL", 4, 'u'}, {MPI_BYTE, "MPI_BYTE", 1, 'u'},
        {MPI_FLOAT_INT, "MPI_FLOAT_INT", 8, 'p'}, {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", 12, 'p'},
        {MPI_LONG_INT, "MPI_LONG_INT", 12, 'p'}, {MPI_SHORT_INT, "MPI_SHORT_INT", 6, 'p'},
        {MPI_2INT, "MPI_2INT", 8, 'p'}, {MPI_2REAL, "MPI_2REAL", 8, 'p'},
        {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 'p'},
    };
    static const MPI_Op ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                                 MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
    static const char *const opnames[] = {"MAX", "MIN", "SUM", "PROD", "LAND", "BAND",
                                          "LOR", "BOR", "LXOR", "BXOR", "MAXLOC", "MINLOC"};
    const int n = 37; /* odd, and one block of threads, mostly idle */
    size_t cap = (size_t)n * 16;
    unsigned char *in = malloc(cap), *io = malloc(cap), *want = malloc(cap), *got = malloc(cap);
    void *din = test_cuda_malloc(cap), *dio = test_cuda_malloc(cap);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    long pairs = 0, padded = 0;
    bool fake = fake_calls && fake_stats; /* the fake driver counts kernels and copies */
    unsigned long long launches0 = fake ? fake_calls("cuLaunchKernel") : 0;
    for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
        for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
            const struct gpu_type *ty = &types[t];
            size_t bytes = (size_t)n * (size_t)ty->size;
            if (ty->form == 'p') {
                gpu_fill_pair(ty->type, in, n, rank + 1);
                gpu_fill_pair(ty->type, io, n, rank + 2);
            } else {
                gpu_fill(ty, in, n, rank + 1);
                gpu_fill(ty, io, n, rank + 2);
            }
            memcpy(want, io, bytes);
            /* The host's answer; an operation the type does not take is refused (and skipped). */
            if (MPI_Reduce_local(in, want, n, ty->type, ops[o]) != MPI_SUCCESS)
                continue;
            /* The pair types with padding (MPI_DOUBLE_INT is 12 bytes in a 16-byte extent) are not laid
             * out as their packed elements: reduced on the host after staging. */
            if (ty->form == 'p' && ty->size != 8 && ty->size != 16)
                padded++;
            else
                pairs++;
            TEST_CU(test_cuda_from_host(din, in, bytes));
            TEST_CU(test_cuda_from_host(dio, io, bytes));
            int rc = MPI_Reduce_local(din, dio, n, ty->type, ops[o]);
            TEST_CU(test_cuda_to_host(got, dio, bytes));
            if (rc != MPI_SUCCESS || memcmp(got, want, bytes) != 0) {
                printf("rank %d FAILED: MPI_Reduce_local(%s, %s) on the GPU: rc %d, %s\n", rank, opnames[o], ty->name,
                       rc, rc == MPI_SUCCESS ? "a different result than on the host" : "an error");
                failures++;
            }
            /* Host data into a GPU result: the input goes to the GPU first. */
            TEST_CU(test_cuda_from_host(dio, io, bytes));
            rc = MPI_Reduce_local(in, dio, n, ty->type, ops[o]);
            TEST_CU(test_cuda_to_host(got, dio, bytes));
            if (rc != MPI_SUCCESS || memcmp(got, want, bytes) != 0) {
                printf("rank %d FAILED: MPI_Reduce_local(%s, %s) of host data into GPU memory\n", rank, opnames[o],
                       ty->name);
                failures++;
            }
            /* A nonblocking allreduce of the same data, on the host and on the GPU. */
            MPI_Request req;
            OK(MPI_Iallreduce(in, want, n, ty->type, ops[o], MPI_COMM_WORLD, &req));
            OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            OK(MPI_Iallreduce(din, dio, n, ty->type, ops[o], MPI_COMM_WORLD, &req));
            OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
            TEST_CU(test_cuda_to_host(got, dio, bytes));
            if (memcmp(got, want, bytes) != 0) {
                printf("rank %d FAILED: MPI_Iallreduce(%s, %s) of GPU buffers differs from the host's\n", rank,
                       opnames[o], ty->name);
                failures++;
            }
        }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* Every pair ran at least one kernel (Reduce_local twice), the allreduces more where there are peers. */
    unsigned long long launches = fake ? fake_calls("cuLaunchKernel") - launches0 : 2ULL * (unsigned long long)pairs;
    if (pairs < 100 || padded != 6 || launches < 2ULL * (unsigned long long)pairs) {
        printf("rank %d FAILED: %ld operation/type pairs (and %ld with padding) ran %llu kernels\n", rank, pairs,
               padded, launches);
        failures++;
    }
    /* A GPU allreduce moves nothing through host memory: nonblocking, and blocking above the size of
     * the node's shared-memory path (which stages small ones). */
    struct fakecuda_copy_stats c0, c1;
    const int big = 64 * 1024;
    void *dbig = test_cuda_malloc((size_t)big * sizeof(int));
    int *zeros = calloc((size_t)big, sizeof(int));
    TEST_CU(test_cuda_from_host(dbig, zeros, (size_t)big * sizeof(int)));
    free(zeros);
    memset(&c0, 0, sizeof(c0));
    memset(&c1, 0, sizeof(c1));
    if (fake)
        fake_stats(&c0);
    MPI_Request req;
    OK(MPI_Iallreduce(din, dio, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Allreduce(MPI_IN_PLACE, dbig, big, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    OK(MPI_Reduce(rank ? dbig : MPI_IN_PLACE, dbig, big, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    /* Collectives without reductions too, when they run as schedules (nonblocking here). */
    OK(MPI_Ibcast(dbig, big, MPI_INT, size - 1, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, dbig, big / size, MPI_INT, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    OK(MPI_Ialltoall(dio, 1, MPI_INT, din, 1, MPI_INT, MPI_COMM_WORLD, &req));
    OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    if (fake)
        fake_stats(&c1);
    test_cuda_free(dbig);
    /* Between nodes (AXON_TOPO's too) messages of GPU memory go through UCX, staged; the blocking
     * reductions stay on the GPU only above AXON_COLL_GPU_AGREE_MIN (64 KiB unless the test run sets it). */
    if (one_node && !getenv("AXON_COLL_GPU_AGREE_MIN") && (c1.htod != c0.htod || c1.dtoh != c0.dtoh)) {
        printf("rank %d FAILED: collectives of GPU buffers copied %llu times to and %llu times from the GPU\n", rank,
               c1.htod - c0.htod, c1.dtoh - c0.dtoh);
        failures++;
    }
    test_cuda_free(din);
    test_cuda_free(dio);
    free(in);
    free(io);
    free(want);
    free(got);
}

/* ---- the matrix -------------------------------------------------------------------------------------------- */

static void run_all(void)
{
    bool reductions_only = layout == L_PAIR;
    for (int ip = 0; ip < 2; ip++) {
        inplace = ip;
        if (!reductions_only) {
            if (!inplace)
                t_bcast();
            for (int v = 0; v < 2; v++) {
                t_gather(v);
                t_scatter(v);
                t_allgather(v);
            }
            for (int kind = 0; kind < 3; kind++)
                t_alltoall(kind);
        }
        for (int kind = R_REDUCE; kind <= R_EXSCAN; kind++)
            t_reduction(kind);
    }
    inplace = false;
    if (!reductions_only)
        for (int kind = N_ALLGATHER; kind <= N_ALLTOALLW; kind++)
            t_neighbor(kind);
    for (int kind = I_BCAST; kind <= I_ALLREDUCE && size > 1; kind++)
        if (!reductions_only || kind >= I_REDUCE)
            t_inter(kind);
    if (mode == M_BLOCK)
        t_reduce_local();
}

static int query(int expect)
{
    int up = MPIX_Query_cuda_support();
    int cuda = -1, ze = -1, hip = -1;
    EXPECT(MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &cuda) == MPI_SUCCESS);
    EXPECT(MPIX_GPU_query_support(MPIX_GPU_SUPPORT_ZE, &ze) == MPI_SUCCESS);
    EXPECT(MPIX_GPU_query_support(MPIX_GPU_SUPPORT_HIP, &hip) == MPI_SUCCESS);
    if (up != expect || cuda != expect || ze != 0 || hip != 0) {
        printf("rank %d FAILED: MPIX_Query_cuda_support() = %d, GPU_query_support CUDA %d ZE %d HIP %d; expected "
               "%d\n", rank, up, cuda, ze, hip, expect);
        failures++;
    }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? "cuda_coll query: %d failures\n" : "cuda_coll query: ok\n", total);
    MPI_Finalize();
    return total != 0;
}

/* AXON_CUDA=0 in a process that uses CUDA: a GPU buffer passed to MPI is an error (MPI_ERR_BUFFER, the
 * log naming the buffer), never read by the CPU (which faults on the fake's device memory); host
 * buffers work as ever. */
static int support_off(void)
{
    test_cuda_setup();
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *d = test_cuda_malloc(64 * sizeof(int));
    int h[64] = {0}, cls = 0;
    EXPECT(MPIX_Query_cuda_support() == 0);
    /* Every rank refuses its own buffer before any message: nobody is left waiting. */
    MPI_Error_class(MPI_Allreduce(d, h, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD), &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    MPI_Request req;
    cls = 0;
    MPI_Error_class(MPI_Iallreduce(h, d, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    cls = 0;
    MPI_Error_class(MPI_Reduce_local(h, d, 64, MPI_INT, MPI_SUM), &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    cls = 0;
    MPI_Error_class(MPI_Send(d, 64, MPI_INT, rank, 1, MPI_COMM_WORLD), &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    cls = 0;
    int rc = MPI_Isend(d, 64, MPI_INT, rank, 2, MPI_COMM_WORLD, &req);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    /* Host buffers: all is well. */
    for (int i = 0; i < 64; i++)
        h[i] = rank + i;
    OK(MPI_Allreduce(MPI_IN_PLACE, h, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    EXPECT(h[5] == size * (size - 1) / 2 + 5 * size);
    test_cuda_free(d);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? "cuda_coll off: %d failures\n" : "cuda_coll off: ok\n", total);
    MPI_Finalize();
    return total != 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "off") == 0)
        return support_off();
    bool only_query = argc > 2 && strcmp(argv[1], "query") == 0;
    if (!only_query)
        test_cuda_setup();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    one_node = axon_test_one_node();
    if (only_query)
        return query(atoi(argv[2]));
    if (MPIX_Query_cuda_support() != 1) {
        printf("rank %d FAILED: MPIX_Query_cuda_support() is not 1\n", rank);
        failures++;
    }

    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &t_strided);
    MPI_Type_commit(&t_strided);
    MPI_Type_contiguous(2, MPI_INT, &t_pair);
    MPI_Type_commit(&t_pair);
    MPI_Op_create(affine, 0, &op_affine);
    int dims[1] = {size}, periods[1] = {0};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    group = rank % 2;
    lrank = rank / 2;
    rsize = group == 0 ? size / 2 : (size + 1) / 2;
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, group, rank, &local);
    if (size > 1)
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - group, 7, &inter);
    MPI_Comm_free(&local);

    fake_calls = (fakecuda_calls_fn)test_cuda_sym(FAKECUDA_CALLS_SYMBOL);
    fake_reset = (fakecuda_reset_stats_fn)test_cuda_sym(FAKECUDA_RESET_STATS_SYMBOL);
    fake_fail = (fakecuda_fail_memcpy_fn)test_cuda_sym(FAKECUDA_FAIL_MEMCPY_SYMBOL);
    fake_stats = (fakecuda_copy_stats_fn)test_cuda_sym(FAKECUDA_COPY_STATS_SYMBOL);
    if (fake_calls && fake_reset && fake_fail && fake_stats) { /* not on a real GPU */
        t_copies();
        t_copy_errors();
        t_agreed_device();
    }
    t_gpu_ops(); /* on a real GPU too: the kernels themselves */

    /* Counts: empty, one, odd, and over 1 MiB of ints (contiguous only; every buffer on the GPU, and
     * for blocking calls with the rules' algorithms mixed too: above AXON_COLL_GPU_AGREE_MIN the members
     * first agree on where their buffers are, and the domain algorithms run only where all of them are
     * GPU memory). */
    bool rules = !domain_forced() && !getenv("AXON_TOPO");
    static const int counts[] = {0, 1, 7, (1 << 18) + 3};
    for (int ci = 0; ci < 4; ci++) {
        cnt = counts[ci];
        bool large = ci == 3;
        for (mode = M_BLOCK; mode <= M_PERSIST; mode++)
            for (place = P_DEV; place <= (large && !(mode == M_BLOCK && rules) ? P_DEV : P_MIX); place++)
                for (int l = L_CONTIG; l <= (large ? L_CONTIG : L_PAIR); l++) {
                    set_layout(l);
                    run_all();
                }
    }

    if (size > 1)
        MPI_Comm_free(&inter);
    MPI_Comm_free(&ring);
    MPI_Op_free(&op_affine);
    MPI_Type_free(&t_strided);
    MPI_Type_free(&t_pair);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? "cuda_coll: %d failures\n" : "cuda_coll: ok\n", total);
    MPI_Finalize();
    return total != 0;
}
