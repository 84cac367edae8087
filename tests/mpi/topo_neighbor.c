/* Neighborhood collectives and distributed graphs. Every neighborhood collective (allgather(v),
 * alltoall(v,w)), blocking, nonblocking and persistent, on Cartesian grids of 1, 2 and 3 dimensions
 * (periodic and not, dimensions of size 1 and 2 where a process is its own neighbor or both neighbors
 * are one rank, a grid smaller than the communicator, no dimensions at all) and on distributed graphs
 * (asymmetric, self-loops, duplicate edges, processes without edges; made by the adjacent and the
 * general call, weighted and not), each against a reference the test computes itself. Then the queries
 * (MPI_Topo_test, MPI_Dist_graph_neighbors(_count)) and the argument errors. Any number of ranks. */
#include "axon_test.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wrank, wsize;

static int *ints(int n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(int)); }

/* ---- neighborhoods as the test sees them ---------------------------------------------------------- */

/* The calling process's edges, in slot order, and for each incoming slot the index, in its sender's
 * list of outgoing edges, of the block that lands there (the reference of every check). */
struct nbhd {
    int indeg, outdeg;
    int *src, *dst, *blk;
};

static void nbhd_free(struct nbhd *t)
{
    free(t->src), free(t->dst), free(t->blk);
}

/* A grid: for each dimension the neighbor at -1 then at +1. What arrives from the -1 neighbor is what it
 * sent towards +1 (its slot 2d+1), and the other way round: the standard pairs by direction. */
static struct nbhd nbhd_cart(int ndims, const int *dims, const int *periods, int me)
{
    struct nbhd t = {2 * ndims, 2 * ndims, ints(2 * ndims), ints(2 * ndims), ints(2 * ndims)};
    int coords[8];
    for (int d = ndims - 1, r = me; d >= 0; d--) {
        coords[d] = r % dims[d];
        r /= dims[d];
    }
    for (int d = 0; d < ndims; d++)
        for (int k = 0; k < 2; k++) {
            int c = coords[d] + (k ? 1 : -1), r = 0;
            if (periods[d])
                c = (c + dims[d]) % dims[d];
            if (c < 0 || c >= dims[d]) {
                r = MPI_PROC_NULL;
            } else {
                for (int i = 0; i < ndims; i++)
                    r = r * dims[i] + (i == d ? c : coords[i]);
            }
            t.src[2 * d + k] = t.dst[2 * d + k] = r;
            t.blk[2 * d + k] = 2 * d + (1 - k);
        }
    return t;
}

/* A graph known whole: outdeg[r] destinations out[r][] of every rank r. The k-th edge from s to me in
 * my incoming list carries s's block of its k-th edge to me. */
static void nbhd_blocks(struct nbhd *t, int me, const int *outdeg, int *const *out)
{
    for (int i = 0; i < t->indeg; i++) {
        int s = t->src[i], k = 0;
        for (int j = 0; j < i; j++)
            k += t->src[j] == s;
        t->blk[i] = -1;
        for (int j = 0; j < outdeg[s]; j++)
            if (out[s][j] == me && k-- == 0) {
                t->blk[i] = j;
                break;
            }
        CHECK(t->blk[i] >= 0, "incoming edge %d from %d has no outgoing match", i, s);
    }
}

/* ---- the collectives ------------------------------------------------------------------------------ */

enum coll { AG, AGV, A2A, A2AV, A2AW, NCOLL };
static const char *const coll_name[] = {"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw"};
enum form { BLOCKING, NONBLOCKING, PERSISTENT };
static const char *const form_name[] = {"blocking", "nonblocking", "persistent"};

#define C 3 /* elements per block in the uniform forms */

/* The element e of block j that rank s sends in round it. */
static int value(int s, int j, int e, int it) { return s * 10000 + j * 100 + e + it * 1000000; }
static int cnt(int s) { return s % 3 + 1; }
static int cnt2(int s, int j) { return (s + 2 * j) % 4; }

static MPI_Datatype spread; /* an int with the extent of two */

struct bufs {
    enum coll k;
    int *s, *r;
    int ns, nr;
    int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Aint *sbytes, *rbytes;
    MPI_Datatype *stypes, *rtypes;
};

static void bufs_make(struct bufs *b, const struct nbhd *t, enum coll k, int me)
{
    memset(b, 0, sizeof(*b));
    b->k = k;
    int in = t->indeg, out = t->outdeg;
    b->scounts = ints(out), b->sdispls = ints(out), b->rcounts = ints(in), b->rdispls = ints(in);
    b->sbytes = calloc((size_t)out + 1, sizeof(MPI_Aint)), b->rbytes = calloc((size_t)in + 1, sizeof(MPI_Aint));
    b->stypes = calloc((size_t)out + 1, sizeof(MPI_Datatype)), b->rtypes = calloc((size_t)in + 1, sizeof(MPI_Datatype));
    switch (k) {
    case AG:
        b->ns = C, b->nr = in * C;
        break;
    case AGV:
        b->ns = cnt(me), b->nr = in * 4;
        for (int i = 0; i < in; i++) {
            b->rcounts[i] = t->src[i] == MPI_PROC_NULL ? 2 : cnt(t->src[i]);
            b->rdispls[i] = (in - 1 - i) * 4;
        }
        break;
    case A2A:
        b->ns = out * C, b->nr = in * C;
        break;
    case A2AV:
    case A2AW:
        b->ns = out * 4, b->nr = in * (k == A2AV ? 5 : 8);
        for (int j = 0; j < out; j++) {
            b->scounts[j] = cnt2(me, j);
            b->sdispls[j] = (out - 1 - j) * 4;
            b->sbytes[j] = (MPI_Aint)j * 4 * (MPI_Aint)sizeof(int);
            b->stypes[j] = MPI_INT;
        }
        for (int i = 0; i < in; i++) {
            b->rcounts[i] = t->src[i] == MPI_PROC_NULL ? 1 : cnt2(t->src[i], t->blk[i]);
            b->rdispls[i] = i * 5;
            b->rbytes[i] = (MPI_Aint)i * 8 * (MPI_Aint)sizeof(int);
            b->rtypes[i] = i % 2 ? spread : MPI_INT;
        }
        break;
    default:
        break;
    }
    b->s = ints(b->ns), b->r = ints(b->nr);
}

static void bufs_free(struct bufs *b)
{
    free(b->s), free(b->r), free(b->scounts), free(b->sdispls), free(b->rcounts), free(b->rdispls);
    free(b->sbytes), free(b->rbytes), free(b->stypes), free(b->rtypes);
}

static void bufs_fill(struct bufs *b, const struct nbhd *t, int me, int it)
{
    for (int i = 0; i < b->nr; i++)
        b->r[i] = -1;
    switch (b->k) {
    case AG:
    case AGV:
        for (int e = 0; e < b->ns; e++)
            b->s[e] = value(me, 0, e, it);
        break;
    case A2A:
        for (int j = 0; j < t->outdeg; j++)
            for (int e = 0; e < C; e++)
                b->s[j * C + e] = value(me, j, e, it);
        break;
    case A2AV:
        for (int j = 0; j < t->outdeg; j++)
            for (int e = 0; e < 4; e++)
                b->s[b->sdispls[j] + e] = value(me, j, e, it);
        break;
    case A2AW:
        for (int j = 0; j < t->outdeg; j++)
            for (int e = 0; e < 4; e++)
                b->s[j * 4 + e] = value(me, j, e, it);
        break;
    default:
        break;
    }
}

static void bufs_check(const struct bufs *b, const struct nbhd *t, int it, const char *what)
{
    for (int i = 0; i < t->indeg; i++) {
        int s = t->src[i], j = t->blk[i];
        bool none = s == MPI_PROC_NULL;
        int width = b->k == AGV ? 4 : b->k == A2AV ? 5 : b->k == A2AW ? 8 : C;
        int at = b->k == AGV ? b->rdispls[i] : i * width;
        for (int x = 0; x < width; x++) {
            int want = -1, got = b->r[at + x];
            switch (b->k) {
            case AG:
                want = none ? -1 : value(s, 0, x, it);
                break;
            case AGV:
                want = none || x >= cnt(s) ? -1 : value(s, 0, x, it);
                break;
            case A2A:
                want = none ? -1 : value(s, j, x, it);
                break;
            case A2AV:
                want = none || x >= cnt2(s, j) ? -1 : value(s, j, x, it);
                break;
            case A2AW: {
                int e = i % 2 ? x / 2 : x;
                want = none || (i % 2 && x % 2) || e >= cnt2(s, j) ? -1 : value(s, j, e, it);
                break;
            }
            default:
                break;
            }
            if (got != want) {
                CHECK(0, "%s: %s round %d: slot %d (from %d, block %d) [%d] = %d, expected %d", what,
                      coll_name[b->k], it, i, s, j, x, got, want);
                return;
            }
        }
    }
}

/* Calls collective b->k in form f (request: nonblocking and persistent). */
static int call(struct bufs *b, enum form f, MPI_Comm comm, MPI_Request *req)
{
    switch (b->k) {
    case AG:
        return f == BLOCKING ? MPI_Neighbor_allgather(b->s, C, MPI_INT, b->r, C, MPI_INT, comm)
               : f == NONBLOCKING ? MPI_Ineighbor_allgather(b->s, C, MPI_INT, b->r, C, MPI_INT, comm, req)
                                  : MPI_Neighbor_allgather_init(b->s, C, MPI_INT, b->r, C, MPI_INT, comm,
                                                                MPI_INFO_NULL, req);
    case AGV:
        return f == BLOCKING
                   ? MPI_Neighbor_allgatherv(b->s, b->ns, MPI_INT, b->r, b->rcounts, b->rdispls, MPI_INT, comm)
               : f == NONBLOCKING
                   ? MPI_Ineighbor_allgatherv(b->s, b->ns, MPI_INT, b->r, b->rcounts, b->rdispls, MPI_INT, comm, req)
                   : MPI_Neighbor_allgatherv_init(b->s, b->ns, MPI_INT, b->r, b->rcounts, b->rdispls, MPI_INT, comm,
                                                  MPI_INFO_NULL, req);
    case A2A:
        return f == BLOCKING ? MPI_Neighbor_alltoall(b->s, C, MPI_INT, b->r, C, MPI_INT, comm)
               : f == NONBLOCKING ? MPI_Ineighbor_alltoall(b->s, C, MPI_INT, b->r, C, MPI_INT, comm, req)
                                  : MPI_Neighbor_alltoall_init(b->s, C, MPI_INT, b->r, C, MPI_INT, comm,
                                                               MPI_INFO_NULL, req);
    case A2AV:
        return f == BLOCKING ? MPI_Neighbor_alltoallv(b->s, b->scounts, b->sdispls, MPI_INT, b->r, b->rcounts,
                                                      b->rdispls, MPI_INT, comm)
               : f == NONBLOCKING ? MPI_Ineighbor_alltoallv(b->s, b->scounts, b->sdispls, MPI_INT, b->r, b->rcounts,
                                                            b->rdispls, MPI_INT, comm, req)
                                  : MPI_Neighbor_alltoallv_init(b->s, b->scounts, b->sdispls, MPI_INT, b->r,
                                                                b->rcounts, b->rdispls, MPI_INT, comm,
                                                                MPI_INFO_NULL, req);
    case A2AW:
        return f == BLOCKING ? MPI_Neighbor_alltoallw(b->s, b->scounts, b->sbytes, b->stypes, b->r, b->rcounts,
                                                      b->rbytes, b->rtypes, comm)
               : f == NONBLOCKING ? MPI_Ineighbor_alltoallw(b->s, b->scounts, b->sbytes, b->stypes, b->r, b->rcounts,
                                                            b->rbytes, b->rtypes, comm, req)
                                  : MPI_Neighbor_alltoallw_init(b->s, b->scounts, b->sbytes, b->stypes, b->r,
                                                                b->rcounts, b->rbytes, b->rtypes, comm,
                                                                MPI_INFO_NULL, req);
    default:
        return MPI_ERR_ARG;
    }
}

/* Every collective in every form on comm, whose neighborhood for the caller is t. */
static void run_all(MPI_Comm comm, const struct nbhd *t, const char *what)
{
    int me;
    MPI_Comm_rank(comm, &me);
    struct bufs b[NCOLL];
    for (int k = 0; k < NCOLL; k++)
        bufs_make(&b[k], t, (enum coll)k, me);
    char label[160];
    /* Blocking, one after the other. */
    for (int it = 0; it < 2; it++)
        for (int k = 0; k < NCOLL; k++) {
            bufs_fill(&b[k], t, me, it);
            CHECK(call(&b[k], BLOCKING, comm, NULL) == MPI_SUCCESS, "%s: blocking %s", what, coll_name[k]);
            snprintf(label, sizeof(label), "%s (%s)", what, form_name[BLOCKING]);
            bufs_check(&b[k], t, it, label);
        }
    /* Nonblocking, all outstanding at once. */
    MPI_Request reqs[NCOLL];
    for (int it = 2; it < 4; it++) {
        for (int k = 0; k < NCOLL; k++) {
            bufs_fill(&b[k], t, me, it);
            CHECK(call(&b[k], NONBLOCKING, comm, &reqs[k]) == MPI_SUCCESS, "%s: nonblocking %s", what, coll_name[k]);
        }
        MPI_Waitall(NCOLL, reqs, MPI_STATUSES_IGNORE);
        snprintf(label, sizeof(label), "%s (%s)", what, form_name[NONBLOCKING]);
        for (int k = 0; k < NCOLL; k++)
            bufs_check(&b[k], t, it, label);
    }
    /* Persistent: made once, started one by one, then all together. */
    for (int k = 0; k < NCOLL; k++)
        CHECK(call(&b[k], PERSISTENT, comm, &reqs[k]) == MPI_SUCCESS, "%s: persistent %s", what, coll_name[k]);
    snprintf(label, sizeof(label), "%s (%s)", what, form_name[PERSISTENT]);
    for (int it = 4; it < 7; it++) {
        for (int k = 0; k < NCOLL; k++) {
            bufs_fill(&b[k], t, me, it);
            MPI_Start(&reqs[k]);
            MPI_Wait(&reqs[k], MPI_STATUS_IGNORE);
            bufs_check(&b[k], t, it, label);
        }
    }
    for (int it = 7; it < 10; it++) {
        for (int k = 0; k < NCOLL; k++)
            bufs_fill(&b[k], t, me, it);
        MPI_Startall(NCOLL, reqs);
        MPI_Waitall(NCOLL, reqs, MPI_STATUSES_IGNORE);
        for (int k = 0; k < NCOLL; k++)
            bufs_check(&b[k], t, it, label);
    }
    for (int k = 0; k < NCOLL; k++) {
        MPI_Request_free(&reqs[k]);
        bufs_free(&b[k]);
    }
}

/* ---- Cartesian grids ------------------------------------------------------------------------------ */

static void test_cart(int ndims, const int *dims, const int *periods)
{
    char what[128];
    int at = snprintf(what, sizeof(what), "cart [");
    for (int d = 0; d < ndims; d++)
        at += snprintf(what + at, sizeof(what) - (size_t)at, "%s%d%s", d ? " " : "", dims[d], periods[d] ? "p" : "");
    snprintf(what + at, sizeof(what) - (size_t)at, "]");
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart);
    if (cart == MPI_COMM_NULL)
        return;
    int me, status;
    MPI_Comm_rank(cart, &me);
    MPI_Topo_test(cart, &status);
    CHECK(status == MPI_CART, "%s: MPI_Topo_test gives %d", what, status);
    struct nbhd t = nbhd_cart(ndims, dims, periods, me);
    /* The neighbors agree with MPI_Cart_shift. */
    for (int d = 0; d < ndims; d++) {
        int s, r;
        MPI_Cart_shift(cart, d, 1, &s, &r);
        CHECK(s == t.src[2 * d] && r == t.src[2 * d + 1], "%s: MPI_Cart_shift(%d) gives %d %d, the test %d %d", what,
              d, s, r, t.src[2 * d], t.src[2 * d + 1]);
    }
    run_all(cart, &t, what);
    nbhd_free(&t);
    MPI_Comm_free(&cart);
}

static void test_carts(void)
{
    int n = wsize;
    int p1[] = {1}, p0[] = {0};
    int d1[] = {n};
    test_cart(1, d1, p1);
    test_cart(1, d1, p0);
    int d2[2] = {0, 0}, p10[] = {1, 0};
    MPI_Dims_create(n, 2, d2);
    test_cart(2, d2, p10);
    int d3[3] = {0, 0, 0}, p110[] = {1, 1, 0};
    MPI_Dims_create(n, 3, d3);
    test_cart(3, d3, p110);
    /* Dimensions of size 1: periodic, the process is both its neighbors; not, it has none. */
    int d1n[] = {1, n}, p11[] = {1, 1};
    test_cart(2, d1n, p11);
    int dn11[] = {n, 1, 1}, p010[] = {0, 1, 0};
    test_cart(3, dn11, p010);
    int d111[] = {1, 1, 1}, p111[] = {1, 1, 1};
    test_cart(3, d111, p111);
    /* Dimensions of size 2, periodic: both neighbors are the same rank. */
    if (n >= 2) {
        int d2h[] = {2, n / 2};
        test_cart(2, d2h, p11);
        int d2only[] = {2};
        test_cart(1, d2only, p1);
        int dh21[] = {n / 2, 2, 1}, p011[] = {0, 1, 1};
        test_cart(3, dh21, p011);
    }
    /* Fewer places than processes (the others get MPI_COMM_NULL), and no dimensions at all. */
    if (n >= 2) {
        int dless[] = {n - 1};
        test_cart(1, dless, p1);
    }
    test_cart(0, NULL, NULL);
}

/* ---- distributed graphs --------------------------------------------------------------------------- */

/* A whole graph: outdeg[r] destinations out[r][] (weights outw[r][]) of every rank. */
struct graph {
    int n;
    int *outdeg;
    int **out, **outw;
};

static struct graph graph_new(int n)
{
    struct graph g = {n, ints(n), calloc((size_t)n, sizeof(int *)), calloc((size_t)n, sizeof(int *))};
    for (int r = 0; r < n; r++)
        g.out[r] = ints(4 * n + 4), g.outw[r] = ints(4 * n + 4);
    return g;
}

static void graph_add(struct graph *g, int s, int d)
{
    int k = g->outdeg[s]++;
    g->out[s][k] = d;
    g->outw[s][k] = 100 * s + 10 * d + k;
}

static void graph_free(struct graph *g)
{
    for (int r = 0; r < g->n; r++)
        free(g->out[r]), free(g->outw[r]);
    free(g->outdeg), free(g->out), free(g->outw);
}

/* Asymmetric: to the next rank, to self on even ranks, two ahead, and to the next again (a duplicate). */
static struct graph graph_mixed(int n)
{
    struct graph g = graph_new(n);
    for (int r = 0; r < n; r++) {
        graph_add(&g, r, (r + 1) % n);
        if (r % 2 == 0)
            graph_add(&g, r, r);
        graph_add(&g, r, (r + 2) % n);
        graph_add(&g, r, (r + 1) % n);
    }
    return g;
}

/* A star into rank 0 from the odd ranks: most processes have no incoming edge, some no edge at all. */
static struct graph graph_star(int n)
{
    struct graph g = graph_new(n);
    for (int r = 1; r < n; r += 2)
        graph_add(&g, r, 0);
    return g;
}

/* The incoming edges of me, sources in descending rank order (each source's edges in its order), so
 * the slots are not in the order of the senders' lists. */
static struct nbhd graph_nbhd(const struct graph *g, int me, int **inw)
{
    struct nbhd t = {0, g->outdeg[me], ints(4 * g->n * g->n + 1), ints(g->outdeg[me]), ints(4 * g->n * g->n + 1)};
    *inw = ints(4 * g->n * g->n + 1);
    memcpy(t.dst, g->out[me], sizeof(int) * (size_t)g->outdeg[me]);
    for (int s = g->n - 1; s >= 0; s--)
        for (int j = 0; j < g->outdeg[s]; j++)
            if (g->out[s][j] == me) {
                (*inw)[t.indeg] = g->outw[s][j];
                t.src[t.indeg++] = s;
            }
    nbhd_blocks(&t, me, g->outdeg, g->out);
    return t;
}

static void check_counts(MPI_Comm comm, int indeg, int outdeg, int weighted, const char *what)
{
    int in, out, w, status;
    MPI_Topo_test(comm, &status);
    CHECK(status == MPI_DIST_GRAPH, "%s: MPI_Topo_test gives %d", what, status);
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &w);
    CHECK(in == indeg && out == outdeg && !w == !weighted, "%s: counts %d %d %d, expected %d %d %d", what, in, out, w,
          indeg, outdeg, weighted);
}

static void test_adjacent(const struct graph *g, bool weighted, const char *what)
{
    int *inw;
    struct nbhd t = graph_nbhd(g, wrank, &inw);
    MPI_Comm comm;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t.indeg, t.src,
                                   weighted ? (t.indeg ? inw : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED,
                                   t.outdeg, t.dst,
                                   weighted ? (t.outdeg ? g->outw[wrank] : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 1, &comm);
    check_counts(comm, t.indeg, t.outdeg, weighted, what);
    /* The lists come back as given. */
    int *src = ints(t.indeg), *sw = ints(t.indeg), *dst = ints(t.outdeg), *dw = ints(t.outdeg);
    MPI_Dist_graph_neighbors(comm, t.indeg, src, sw, t.outdeg, dst, dw);
    for (int i = 0; i < t.indeg; i++)
        CHECK(src[i] == t.src[i] && (!weighted || sw[i] == inw[i]), "%s: source %d is %d (%d)", what, i, src[i], sw[i]);
    for (int i = 0; i < t.outdeg; i++)
        CHECK(dst[i] == t.dst[i] && (!weighted || dw[i] == g->outw[wrank][i]), "%s: destination %d is %d (%d)", what,
              i, dst[i], dw[i]);
    free(src), free(sw), free(dst), free(dw);
    run_all(comm, &t, what);
    /* A duplicate keeps the graph. */
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    check_counts(dup, t.indeg, t.outdeg, weighted, what);
    run_all(dup, &t, what);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
    nbhd_free(&t);
    free(inw);
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Whether the n (peer, weight) pairs equal the m expected ones, as multisets. */
static bool same_edges(const int *peers, const int *weights, int n, const int *epeers, const int *eweights, int m,
                       bool weighted)
{
    if (n != m)
        return false;
    int *a = ints(2 * n), *b = ints(2 * n);
    for (int i = 0; i < n; i++) {
        a[2 * i] = peers[i], a[2 * i + 1] = weighted ? weights[i] : 0;
        b[2 * i] = epeers[i], b[2 * i + 1] = weighted ? eweights[i] : 0;
    }
    qsort(a, (size_t)n, 2 * sizeof(int), cmp_pair);
    qsort(b, (size_t)n, 2 * sizeof(int), cmp_pair);
    bool same = memcmp(a, b, sizeof(int) * 2 * (size_t)n) == 0;
    free(a), free(b);
    return same;
}

/* The general call: each process names edges of other processes (namer(s) names the edges out of s),
 * and some name none. */
static void test_general(const struct graph *g, bool weighted, int (*namer)(int s, int n), const char *what)
{
    int n = g->n, nsrc = 0, nedges = 0;
    int *sources = ints(n), *degrees = ints(n), *dests = ints(4 * n * n), *weights = ints(4 * n * n);
    for (int s = 0; s < n; s++) {
        if (namer(s, n) != wrank)
            continue;
        sources[nsrc] = s;
        degrees[nsrc++] = g->outdeg[s];
        for (int j = 0; j < g->outdeg[s]; j++) {
            dests[nedges] = g->out[s][j];
            weights[nedges++] = g->outw[s][j];
        }
    }
    MPI_Comm comm;
    MPI_Dist_graph_create(MPI_COMM_WORLD, nsrc, sources, degrees, dests,
                          weighted ? (nedges ? weights : MPI_WEIGHTS_EMPTY) : MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
    int *einw;
    struct nbhd want = graph_nbhd(g, wrank, &einw);
    check_counts(comm, want.indeg, want.outdeg, weighted, what);
    /* The edges are the ones named, in an order of the library's. */
    struct nbhd t = {want.indeg, want.outdeg, ints(want.indeg), ints(want.outdeg), ints(want.indeg)};
    int *sw = ints(t.indeg), *dw = ints(t.outdeg);
    MPI_Dist_graph_neighbors(comm, t.indeg, t.src, weighted ? sw : MPI_UNWEIGHTED, t.outdeg, t.dst,
                             weighted ? dw : MPI_UNWEIGHTED);
    CHECK(same_edges(t.src, sw, t.indeg, want.src, einw, want.indeg, weighted), "%s: incoming edges differ", what);
    CHECK(same_edges(t.dst, dw, t.outdeg, g->out[wrank], g->outw[wrank], g->outdeg[wrank], weighted),
          "%s: outgoing edges differ", what);
    /* Everyone's outgoing lists as the library ordered them give the reference. */
    int *outdeg = ints(n), *displs = ints(n), total = 0;
    MPI_Allgather(&t.outdeg, 1, MPI_INT, outdeg, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < n; r++)
        displs[r] = total, total += outdeg[r];
    int *all = ints(total), **out = calloc((size_t)n, sizeof(int *));
    MPI_Allgatherv(t.dst, t.outdeg, MPI_INT, all, outdeg, displs, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < n; r++)
        out[r] = all + displs[r];
    nbhd_blocks(&t, wrank, outdeg, out);
    run_all(comm, &t, what);
    MPI_Comm_free(&comm);
    free(outdeg), free(displs), free(all), free(out), free(sw), free(dw), free(einw);
    nbhd_free(&t);
    nbhd_free(&want);
    free(sources), free(degrees), free(dests), free(weights);
}

static int namer_next(int s, int n) { return (s + 1) % n; }
static int namer_zero(int s, int n) { (void)s, (void)n; return 0; }

static void test_graphs(void)
{
    struct graph mixed = graph_mixed(wsize), star = graph_star(wsize);
    test_adjacent(&mixed, true, "adjacent mixed graph, weighted");
    test_adjacent(&mixed, false, "adjacent mixed graph");
    test_adjacent(&star, false, "adjacent star");
    test_general(&mixed, true, namer_next, "general mixed graph, weighted");
    test_general(&mixed, false, namer_zero, "general mixed graph named by rank 0");
    test_general(&star, true, namer_next, "general star, weighted");
    graph_free(&mixed);
    graph_free(&star);
}

/* ---- errors --------------------------------------------------------------------------------------- */

static int err_class(int code)
{
    int cls = code;
    MPI_Error_class(code, &cls);
    return cls;
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[64] = {0}, out[64], counts[8] = {1, 1, 1, 1, 1, 1, 1, 1}, status, in_, out_, w_;
    MPI_Request r;
    MPI_Comm g = MPI_COMM_NULL;
    MPI_Topo_test(MPI_COMM_WORLD, &status);
    CHECK(status == MPI_UNDEFINED, "MPI_Topo_test of the world gives %d", status);
    CHECK(err_class(MPI_Neighbor_allgather(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD)) == MPI_ERR_TOPOLOGY,
          "neighbor allgather without a topology");
    CHECK(err_class(MPI_Ineighbor_alltoall(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, &r)) == MPI_ERR_TOPOLOGY,
          "ineighbor alltoall without a topology");
    CHECK(err_class(MPI_Neighbor_alltoall_init(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r)) ==
              MPI_ERR_TOPOLOGY,
          "neighbor alltoall_init without a topology");
    CHECK(err_class(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in_, &out_, &w_)) == MPI_ERR_TOPOLOGY,
          "neighbors_count without a topology");
    CHECK(err_class(MPI_Neighbor_allgather(buf, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_NULL)) == MPI_ERR_COMM,
          "neighbor allgather on MPI_COMM_NULL");

    /* A ring, for the argument checks of the collectives. */
    int dims[] = {wsize}, periods[] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    CHECK(err_class(MPI_Dist_graph_neighbors_count(ring, &in_, &out_, &w_)) == MPI_ERR_TOPOLOGY,
          "neighbors_count on a Cartesian communicator");
    CHECK(err_class(MPI_Neighbor_alltoall(buf, -1, MPI_INT, out, 1, MPI_INT, ring)) == MPI_ERR_COUNT, "negative count");
    CHECK(err_class(MPI_Neighbor_alltoall(buf, 1, MPI_DATATYPE_NULL, out, 1, MPI_INT, ring)) == MPI_ERR_TYPE,
          "null datatype");
    CHECK(err_class(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, out, 1, MPI_INT, ring)) == MPI_ERR_BUFFER,
          "MPI_IN_PLACE");
    CHECK(err_class(MPI_Neighbor_alltoall(NULL, 1, MPI_INT, out, 1, MPI_INT, ring)) == MPI_ERR_BUFFER, "NULL buffer");
    CHECK(err_class(MPI_Neighbor_alltoallv(buf, NULL, counts, MPI_INT, out, counts, counts, MPI_INT, ring)) ==
              MPI_ERR_ARG,
          "alltoallv without send counts");
    CHECK(err_class(MPI_Neighbor_allgatherv(buf, 1, MPI_INT, out, counts, NULL, MPI_INT, ring)) == MPI_ERR_ARG,
          "allgatherv without displacements");
    CHECK(err_class(MPI_Ineighbor_allgather(buf, 1, MPI_INT, out, 1, MPI_INT, ring, NULL)) == MPI_ERR_ARG,
          "null request");
    CHECK(err_class(MPI_Neighbor_allgather_init(buf, 1, MPI_INT, out, 1, MPI_INT, ring, (MPI_Info)0x1234, &r)) ==
              MPI_ERR_INFO,
          "bad info");
    /* The ring still works. */
    int left, right;
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    MPI_Neighbor_allgather(&wrank, 1, MPI_INT, out, 1, MPI_INT, ring);
    CHECK(out[0] == left && out[1] == right, "the ring after errors: %d %d", out[0], out[1]);

    /* Graph creation. */
    int bad[] = {wsize}, ok[] = {0}, neg[] = {-1};
    CHECK(err_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, ok, MPI_UNWEIGHTED, 0, ok, MPI_UNWEIGHTED,
                                                   MPI_INFO_NULL, 0, &g)) == MPI_ERR_ARG,
          "negative indegree");
    CHECK(err_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, bad, MPI_UNWEIGHTED, 0, ok, MPI_UNWEIGHTED,
                                                   MPI_INFO_NULL, 0, &g)) == MPI_ERR_RANK,
          "source out of range");
    CHECK(err_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, ok, neg, 1, ok, neg, MPI_INFO_NULL, 0, &g)) ==
              MPI_ERR_ARG,
          "negative weight");
    CHECK(err_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, ok, NULL, 1, ok, NULL, MPI_INFO_NULL, 0, &g)) ==
              MPI_ERR_ARG,
          "missing weights");
    CHECK(err_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, ok, MPI_UNWEIGHTED, 0, ok, MPI_UNWEIGHTED,
                                                   (MPI_Info)0x1234, 0, &g)) == MPI_ERR_INFO,
          "bad info");
    CHECK(err_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, ok, MPI_UNWEIGHTED, 0, ok, MPI_UNWEIGHTED,
                                                   MPI_INFO_NULL, 0, NULL)) == MPI_ERR_ARG,
          "NULL comm_dist_graph");
    CHECK(err_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, ok, neg, ok, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g)) ==
              MPI_ERR_ARG,
          "negative degree");
    CHECK(err_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, ok, counts, bad, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g)) ==
              MPI_ERR_RANK,
          "destination out of range");
    CHECK(err_class(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, ok, ok, ok, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g)) ==
              MPI_ERR_ARG,
          "negative n");
    CHECK(g == MPI_COMM_NULL, "a refused creation set the communicator");

    /* Queries on a graph: too small arrays; the Cartesian calls refuse it. */
    int self[] = {wrank};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, self, MPI_UNWEIGHTED, 1, self, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                   &g);
    MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
    int s1[2], d1[2];
    CHECK(err_class(MPI_Dist_graph_neighbors(g, 0, s1, MPI_UNWEIGHTED, 1, d1, MPI_UNWEIGHTED)) == MPI_ERR_ARG,
          "maxindegree too small");
    CHECK(err_class(MPI_Cart_shift(g, 0, 1, &left, &right)) == MPI_ERR_TOPOLOGY, "MPI_Cart_shift on a graph");
    /* A self-loop: the process is its only neighbor. */
    MPI_Neighbor_alltoall(&wrank, 1, MPI_INT, out, 1, MPI_INT, g);
    CHECK(out[0] == wrank, "self-loop alltoall gives %d", out[0]);
    MPI_Comm_free(&g);
    MPI_Comm_free(&ring);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spread);
    MPI_Type_commit(&spread);
    test_carts();
    test_graphs();
    test_errors();
    MPI_Type_free(&spread);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        printf(total ? "topo_neighbor: %d failures\n" : "topo_neighbor: ok\n", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
