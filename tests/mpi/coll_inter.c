/* Collectives on intercommunicators, checked against values every rank computes itself: barrier,
 * bcast, gather(v), scatter(v), allgather(v), alltoall(v, w), reduce, allreduce (with MPI_SUM and with a
 * non-commutative user operation, whose result shows the order of the remote group's ranks),
 * reduce_scatter(_block), in both directions, on two intercommunicators of MPI_COMM_WORLD: even and
 * odd ranks, and rank 0 alone against the others. Then nonblocking and persistent forms, a large
 * allreduce and bcast (in chunks beyond any eager size), a derived datatype, and the errors: MPI_Scan
 * (not defined there), a root out of range, MPI_IN_PLACE. Needs 2 ranks or more; prints "rank R: ok". */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int wrank, wsize;

/* One intercommunicator as its members see it. */
struct side {
    MPI_Comm ic;
    int group;      /* 0 or 1 */
    int rank, size; /* in the local group */
    int rsize;      /* of the remote group */
};

/* The value of element i of what rank r of group g contributes. */
static int val(int g, int r, int i)
{
    return 1000 * g + 10 * r + i;
}

/* ---- a non-commutative operation: concatenation of strings, as (length, polynomial hash) ---------- */

struct str {
    unsigned len, hash;
};

static unsigned pow31(unsigned n)
{
    unsigned p = 1;
    while (n--)
        p *= 31u;
    return p;
}

static struct str concat(struct str a, struct str b)
{
    return (struct str){a.len + b.len, a.hash * pow31(b.len) + b.hash};
}

static void concat_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    struct str *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = concat(a[i], b[i]);
}

/* The string of one rank: one character. */
static struct str letter(int g, int r, int i)
{
    return (struct str){1, (unsigned)val(g, r, i)};
}

/* ---- the checks ----------------------------------------------------------------------------------- */

static void check_bcast(const struct side *s, int from, int count)
{
    /* Group `from`'s last rank is the root. */
    int root = s->group == from ? (s->rank == s->size - 1 ? MPI_ROOT : MPI_PROC_NULL) : s->rsize - 1;
    int *buf = malloc(sizeof(int) * (size_t)(count ? count : 1));
    for (int i = 0; i < count; i++)
        buf[i] = root == MPI_ROOT ? val(from, s->rank, i) : -1;
    EXPECT(MPI_Bcast(buf, count, MPI_INT, root, s->ic) == MPI_SUCCESS);
    for (int i = 0; i < count; i++) {
        int want = root == MPI_PROC_NULL ? -1 : val(from, s->group == from ? s->rank : s->rsize - 1, i);
        if (buf[i] != want) {
            EXPECT(buf[i] == want);
            break;
        }
    }
    free(buf);
}

static void check_gather(const struct side *s, int from, bool v)
{
    /* Group `from` holds the root (its rank 0); the other group sends rank j: j + 1 elements with v. */
    int root = s->group == from ? (s->rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int cnt = v ? s->rank + 1 : 3;
    int send[64], *recv = NULL, *counts = NULL, *displs = NULL, total = 0;
    for (int i = 0; i < cnt; i++)
        send[i] = val(s->group, s->rank, i);
    if (root == MPI_ROOT) {
        counts = malloc(sizeof(int) * (size_t)s->rsize);
        displs = malloc(sizeof(int) * (size_t)s->rsize);
        for (int j = s->rsize - 1; j >= 0; j--) { /* blocks in reverse order: displacements matter */
            counts[j] = v ? j + 1 : 3;
            displs[j] = total;
            total += counts[j];
        }
        recv = malloc(sizeof(int) * (size_t)total);
    }
    if (v)
        EXPECT(MPI_Gatherv(root == MPI_ROOT ? NULL : send, cnt, MPI_INT, recv, counts, displs, MPI_INT, root, s->ic) ==
               MPI_SUCCESS);
    else if (root == MPI_ROOT)
        EXPECT(MPI_Gather(NULL, 0, MPI_DATATYPE_NULL, recv, 3, MPI_INT, root, s->ic) == MPI_SUCCESS);
    else
        EXPECT(MPI_Gather(send, 3, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, s->ic) == MPI_SUCCESS);
    if (root == MPI_ROOT) {
        for (int j = 0; j < s->rsize; j++)
            for (int i = 0; i < counts[j]; i++)
                EXPECT(recv[(v ? displs[j] : 3 * j) + i] == val(1 - from, j, i));
    }
    free(recv);
    free(counts);
    free(displs);
}

static void check_scatter(const struct side *s, int from, bool v)
{
    int root = s->group == from ? (s->rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int *send = NULL, *counts = NULL, *displs = NULL, recv[64], total = 0;
    if (root == MPI_ROOT) {
        counts = malloc(sizeof(int) * (size_t)s->rsize);
        displs = malloc(sizeof(int) * (size_t)s->rsize);
        for (int j = s->rsize - 1; j >= 0; j--) {
            counts[j] = v ? j + 2 : 3;
            displs[j] = v ? total : 3 * j;
            total += counts[j];
        }
        send = malloc(sizeof(int) * (size_t)total);
        for (int j = 0; j < s->rsize; j++)
            for (int i = 0; i < counts[j]; i++)
                send[displs[j] + i] = val(s->group, j, i);
    }
    int cnt = v ? s->rank + 2 : 3;
    memset(recv, 0xff, sizeof(recv));
    if (v)
        EXPECT(MPI_Scatterv(send, counts, displs, MPI_INT, recv, cnt, MPI_INT, root, s->ic) == MPI_SUCCESS);
    else
        EXPECT(MPI_Scatter(send, 3, MPI_INT, recv, cnt, MPI_INT, root, s->ic) == MPI_SUCCESS);
    if (s->group != from)
        for (int i = 0; i < cnt; i++)
            EXPECT(recv[i] == val(from, s->rank, i));
    free(send);
    free(counts);
    free(displs);
}

static void check_allgather(const struct side *s, bool v)
{
    int cnt = v ? s->rank + 1 : 2, send[64], total = 0;
    for (int i = 0; i < cnt; i++)
        send[i] = val(s->group, s->rank, i);
    int *counts = malloc(sizeof(int) * (size_t)s->rsize), *displs = malloc(sizeof(int) * (size_t)s->rsize);
    for (int j = s->rsize - 1; j >= 0; j--) {
        counts[j] = v ? j + 1 : 2;
        displs[j] = v ? total : 2 * j;
        total += counts[j];
    }
    int *recv = malloc(sizeof(int) * (size_t)total);
    if (v)
        EXPECT(MPI_Allgatherv(send, cnt, MPI_INT, recv, counts, displs, MPI_INT, s->ic) == MPI_SUCCESS);
    else
        EXPECT(MPI_Allgather(send, 2, MPI_INT, recv, 2, MPI_INT, s->ic) == MPI_SUCCESS);
    for (int j = 0; j < s->rsize; j++)
        for (int i = 0; i < counts[j]; i++)
            EXPECT(recv[displs[j] + i] == val(1 - s->group, j, i));
    free(recv);
    free(counts);
    free(displs);
}

/* kind 0 alltoall, 1 alltoallv, 2 alltoallw. Rank r sends element (r, j, i) to remote rank j. */
static void check_alltoall(const struct side *s, int kind)
{
    int n = s->rsize;
    int *sc = malloc(sizeof(int) * (size_t)n), *sd = malloc(sizeof(int) * (size_t)n);
    int *rc = malloc(sizeof(int) * (size_t)n), *rd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    int stot = 0, rtot = 0;
    for (int j = 0; j < n; j++) {
        sc[j] = kind ? (s->rank + j) % 3 + 1 : 2; /* what this rank sends to j */
        rc[j] = kind ? (j + s->rank) % 3 + 1 : 2; /* what j sends to this rank */
        sd[j] = stot;
        rd[j] = rtot;
        stot += sc[j];
        rtot += rc[j];
        types[j] = MPI_INT;
    }
    int *send = malloc(sizeof(int) * (size_t)stot), *recv = malloc(sizeof(int) * (size_t)rtot);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < sc[j]; i++)
            send[sd[j] + i] = val(s->group, s->rank, 100 * j + i);
    if (kind == 0) {
        EXPECT(MPI_Alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, s->ic) == MPI_SUCCESS);
    } else if (kind == 1) {
        EXPECT(MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, s->ic) == MPI_SUCCESS);
    } else {
        for (int j = 0; j < n; j++) { /* byte displacements */
            sd[j] *= (int)sizeof(int);
            rd[j] *= (int)sizeof(int);
        }
        EXPECT(MPI_Alltoallw(send, sc, sd, types, recv, rc, rd, types, s->ic) == MPI_SUCCESS);
        for (int j = 0; j < n; j++)
            rd[j] /= (int)sizeof(int);
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < rc[j]; i++)
            EXPECT(recv[rd[j] + i] == val(1 - s->group, j, 100 * s->rank + i));
    free(sc), free(sd), free(rc), free(rd), free(types), free(send), free(recv);
}

/* The remote group's reduction of element i: the sum, and the concatenation in rank order. */
static int sum_of(int g, int n, int i)
{
    int t = 0;
    for (int r = 0; r < n; r++)
        t += val(g, r, i);
    return t;
}

static struct str concat_of(int g, int n, int i)
{
    struct str t = letter(g, 0, i);
    for (int r = 1; r < n; r++)
        t = concat(t, letter(g, r, i));
    return t;
}

static void check_reduce(const struct side *s, int to, MPI_Op cat, MPI_Datatype str_type)
{
    enum { N = 5 };
    int root = s->group == to ? (s->rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    int in[N], out[N];
    struct str sin[N], sout[N];
    for (int i = 0; i < N; i++) {
        in[i] = val(s->group, s->rank, i);
        sin[i] = letter(s->group, s->rank, i);
        out[i] = -1;
    }
    EXPECT(MPI_Reduce(in, out, N, MPI_INT, MPI_SUM, root, s->ic) == MPI_SUCCESS);
    EXPECT(MPI_Reduce(sin, sout, N, str_type, cat, root, s->ic) == MPI_SUCCESS);
    if (root == MPI_ROOT)
        for (int i = 0; i < N; i++) {
            EXPECT(out[i] == sum_of(1 - to, s->rsize, i));
            struct str want = concat_of(1 - to, s->rsize, i);
            EXPECT(sout[i].len == want.len && sout[i].hash == want.hash);
        }
    else
        EXPECT(out[0] == -1);
}

static void check_allreduce(const struct side *s, MPI_Op cat, MPI_Datatype str_type, int count)
{
    int *in = malloc(sizeof(int) * (size_t)count), *out = malloc(sizeof(int) * (size_t)count);
    for (int i = 0; i < count; i++)
        in[i] = val(s->group, s->rank, i);
    EXPECT(MPI_Allreduce(in, out, count, MPI_INT, MPI_SUM, s->ic) == MPI_SUCCESS);
    for (int i = 0; i < count; i++)
        if (out[i] != sum_of(1 - s->group, s->rsize, i)) {
            EXPECT(out[i] == sum_of(1 - s->group, s->rsize, i));
            break;
        }
    free(in);
    free(out);
    struct str sin[4], sout[4];
    for (int i = 0; i < 4; i++)
        sin[i] = letter(s->group, s->rank, i);
    EXPECT(MPI_Allreduce(sin, sout, 4, str_type, cat, s->ic) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++) {
        struct str want = concat_of(1 - s->group, s->rsize, i);
        EXPECT(sout[i].len == want.len && sout[i].hash == want.hash);
    }
}

static void check_reduce_scatter(const struct side *s, bool block)
{
    /* Both groups reduce vectors of total = size0 * size1 elements. Block form: each rank gets rsize of
     * them; v form: rank r gets a share that depends on r. */
    int total = s->size * s->rsize;
    int *counts = malloc(sizeof(int) * (size_t)s->size), given = 0;
    for (int r = 0; r < s->size; r++) {
        counts[r] = block ? s->rsize : (r == s->size - 1 ? total - given : (r % 2 ? s->rsize + 1 : s->rsize - 1));
        if (!block && r < s->size - 1 && given + counts[r] > total)
            counts[r] = total - given;
        given += counts[r];
    }
    int start = 0;
    for (int r = 0; r < s->rank; r++)
        start += counts[r];
    int *in = malloc(sizeof(int) * (size_t)total), *out = malloc(sizeof(int) * (size_t)(counts[s->rank] + 1));
    for (int i = 0; i < total; i++)
        in[i] = val(s->group, s->rank, i);
    if (block)
        EXPECT(MPI_Reduce_scatter_block(in, out, s->rsize, MPI_INT, MPI_SUM, s->ic) == MPI_SUCCESS);
    else
        EXPECT(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, s->ic) == MPI_SUCCESS);
    for (int i = 0; i < counts[s->rank]; i++)
        EXPECT(out[i] == sum_of(1 - s->group, s->rsize, start + i));
    free(counts);
    free(in);
    free(out);
}

/* Nonblocking forms outstanding together, then persistent ones started twice. */
static void check_nonblocking(const struct side *s)
{
    int a[3], b[3], c[2], d[2];
    for (int i = 0; i < 3; i++)
        a[i] = val(s->group, s->rank, i);
    c[0] = c[1] = s->group == 0 && s->rank == 0 ? 77 : -1;
    int root = s->group == 0 ? (s->rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    MPI_Request reqs[3];
    EXPECT(MPI_Iallreduce(a, b, 3, MPI_INT, MPI_SUM, s->ic, &reqs[0]) == MPI_SUCCESS);
    EXPECT(MPI_Ibcast(c, 2, MPI_INT, root, s->ic, &reqs[1]) == MPI_SUCCESS);
    EXPECT(MPI_Ibarrier(s->ic, &reqs[2]) == MPI_SUCCESS);
    EXPECT(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    for (int i = 0; i < 3; i++)
        EXPECT(b[i] == sum_of(1 - s->group, s->rsize, i));
    if (s->group == 1)
        EXPECT(c[0] == 77 && c[1] == 77);

    MPI_Request p;
    EXPECT(MPI_Allreduce_init(a, b, 3, MPI_INT, MPI_MAX, s->ic, MPI_INFO_NULL, &p) == MPI_SUCCESS);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 3; i++)
            a[i] = val(s->group, s->rank, i) + round;
        EXPECT(MPI_Start(&p) == MPI_SUCCESS);
        EXPECT(MPI_Wait(&p, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int i = 0; i < 3; i++)
            EXPECT(b[i] == val(1 - s->group, s->rsize - 1, i) + round);
    }
    MPI_Request_free(&p);
    d[0] = d[1] = -1;
    EXPECT(MPI_Gather_init(a, 2, MPI_INT, d, 1, MPI_INT, MPI_PROC_NULL, s->ic, MPI_INFO_NULL, &p) == MPI_SUCCESS);
    EXPECT(MPI_Start(&p) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&p, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    EXPECT(d[0] == -1);
    MPI_Request_free(&p);
}

/* Every rank of one group sends a strided vector (every other int); the other receives contiguously. */
static void check_derived(const struct side *s)
{
    MPI_Datatype strided;
    MPI_Type_vector(4, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int send[8], *recv = malloc(sizeof(int) * 4 * (size_t)s->rsize);
    for (int i = 0; i < 8; i++)
        send[i] = i % 2 ? -7 : val(s->group, s->rank, i / 2);
    EXPECT(MPI_Allgather(send, 1, strided, recv, 4, MPI_INT, s->ic) == MPI_SUCCESS);
    for (int j = 0; j < s->rsize; j++)
        for (int i = 0; i < 4; i++)
            EXPECT(recv[4 * j + i] == val(1 - s->group, j, i));
    MPI_Type_free(&strided);
    free(recv);
}

static void check_errors(const struct side *s)
{
    MPI_Comm_set_errhandler(s->ic, MPI_ERRORS_RETURN);
    int a = 1, b = 0, cls = 0;
    MPI_Error_class(MPI_Scan(&a, &b, 1, MPI_INT, MPI_SUM, s->ic), &cls);
    EXPECT(cls == MPI_ERR_COMM);
    MPI_Error_class(MPI_Exscan(&a, &b, 1, MPI_INT, MPI_SUM, s->ic), &cls);
    EXPECT(cls == MPI_ERR_COMM);
    MPI_Error_class(MPI_Bcast(&a, 1, MPI_INT, s->rsize, s->ic), &cls);
    EXPECT(cls == MPI_ERR_ROOT);
    MPI_Error_class(MPI_Reduce(&a, &b, 1, MPI_INT, MPI_SUM, -5, s->ic), &cls);
    EXPECT(cls == MPI_ERR_ROOT);
    MPI_Error_class(MPI_Allreduce(MPI_IN_PLACE, &b, 1, MPI_INT, MPI_SUM, s->ic), &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    MPI_Error_class(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, &b, 1, MPI_INT, s->ic), &cls);
    EXPECT(cls == MPI_ERR_BUFFER);
    MPI_Comm_set_errhandler(s->ic, MPI_ERRORS_ARE_FATAL);
}

static void check_all(struct side *s, MPI_Op cat, MPI_Datatype str_type)
{
    MPI_Comm_rank(s->ic, &s->rank);
    MPI_Comm_size(s->ic, &s->size);
    MPI_Comm_remote_size(s->ic, &s->rsize);
    EXPECT(MPI_Barrier(s->ic) == MPI_SUCCESS);
    for (int from = 0; from < 2; from++) {
        check_bcast(s, from, 5);
        check_bcast(s, from, 0);
        check_gather(s, from, false);
        check_gather(s, from, true);
        check_scatter(s, from, false);
        check_scatter(s, from, true);
        check_reduce(s, from, cat, str_type);
    }
    check_allgather(s, false);
    check_allgather(s, true);
    for (int kind = 0; kind < 3; kind++)
        check_alltoall(s, kind);
    check_allreduce(s, cat, str_type, 7);
    check_reduce_scatter(s, true);
    check_reduce_scatter(s, false);
    check_nonblocking(s);
    check_derived(s);
    /* Large: past the eager size and any single message of a chunked protocol. */
    check_bcast(s, 1, 300000);
    check_allreduce(s, cat, str_type, 300000);
    check_errors(s);
    EXPECT(MPI_Barrier(s->ic) == MPI_SUCCESS);
}

static void make_side(int group, int other_leader, struct side *s)
{
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, group, wrank, &local);
    s->group = group;
    EXPECT(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, other_leader, 42, &s->ic) == MPI_SUCCESS);
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2) {
        printf("coll_inter needs 2 ranks or more\n");
        MPI_Finalize();
        return 1;
    }
    MPI_Op cat;
    MPI_Op_create(concat_op, 0, &cat);
    MPI_Datatype str_type;
    MPI_Type_contiguous(2, MPI_UNSIGNED, &str_type);
    MPI_Type_commit(&str_type);

    /* Even and odd ranks; the leaders are world ranks 0 and 1. */
    struct side s;
    make_side(wrank % 2, wrank % 2 ? 0 : 1, &s);
    check_all(&s, cat, str_type);
    MPI_Comm_free(&s.ic);
    /* Rank 0 alone against the others (leaders 0 and 1 again). */
    make_side(wrank != 0, wrank ? 0 : 1, &s);
    check_all(&s, cat, str_type);
    MPI_Comm_free(&s.ic);

    MPI_Type_free(&str_type);
    MPI_Op_free(&cat);
    MPI_Finalize();
    if (failures == 0)
        printf("rank %d: ok\n", wrank);
    return failures != 0;
}
