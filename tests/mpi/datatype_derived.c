/* Derived datatypes at work: every constructor's size, extent and true extent against values worked out
 * by hand; messages sent with one type and received with another of the same signature, checked byte
 * for byte (gaps included); structs with padding, resized types with count > 1, a 64 MiB strided vector,
 * types freed while a send uses them, MPI_BOTTOM with absolute addresses, pack and unpack, element
 * counts of partial messages, envelopes and contents, names, errors under MPI_ERRORS_RETURN, 10,000
 * create/commit/free cycles (handles must be reused) and types made and freed by four threads at once.
 * Prints "rank R: ok" when everything holds. */
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int rank, size, left, right;

/* The error class of a call made under MPI_ERRORS_RETURN. */
static int err_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static void expect_type(MPI_Datatype t, MPI_Count size, MPI_Aint lb, MPI_Aint extent, MPI_Aint true_lb,
                        MPI_Aint true_extent, int line)
{
    MPI_Count s, xlb, xext;
    MPI_Aint a_lb, a_ext, t_lb, t_ext;
    int isize;
    MPI_Type_size_x(t, &s);
    MPI_Type_size(t, &isize);
    MPI_Type_get_extent(t, &a_lb, &a_ext);
    MPI_Type_get_extent_x(t, &xlb, &xext);
    MPI_Type_get_true_extent(t, &t_lb, &t_ext);
    if (s != size || isize != size || a_lb != lb || a_ext != extent || xlb != lb || xext != extent ||
        t_lb != true_lb || t_ext != true_extent) {
        printf("rank %d FAILED (line %d): size %lld lb %ld extent %ld true_lb %ld true_extent %ld; expected %lld %ld "
               "%ld %ld %ld\n",
               rank, line, (long long)s, (long)a_lb, (long)a_ext, (long)t_lb, (long)t_ext, (long long)size, (long)lb,
               (long)extent, (long)true_lb, (long)true_extent);
        failures++;
    }
}
#define EXPECT_TYPE(t, size, lb, extent, true_lb, true_extent)                                       \
    expect_type(t, size, lb, extent, true_lb, true_extent, __LINE__)

/* ---- 1. sizes and bounds of every constructor ---------------------------------------------------- */

static void test_bounds(void)
{
    MPI_Datatype t, u, r;
    MPI_Type_contiguous(3, MPI_INT, &t);
    EXPECT_TYPE(t, 12, 0, 12, 0, 12);
    MPI_Type_free(&t);
    EXPECT(t == MPI_DATATYPE_NULL);

    MPI_Type_contiguous(0, MPI_INT, &t);
    EXPECT_TYPE(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);

    MPI_Type_vector(3, 2, 4, MPI_INT, &t); /* ints 0-1, 4-5, 8-9 */
    EXPECT_TYPE(t, 24, 0, 40, 0, 40);
    MPI_Type_free(&t);

    MPI_Type_vector(3, 1, -2, MPI_DOUBLE, &t); /* doubles at 0, -16, -32 */
    EXPECT_TYPE(t, 24, -32, 40, -32, 40);
    MPI_Type_free(&t);

    MPI_Type_create_hvector(2, 3, 100, MPI_CHAR, &t);
    EXPECT_TYPE(t, 6, 0, 103, 0, 103);
    MPI_Type_free(&t);

    int bl[3] = {2, 1, 3}, dp[3] = {5, 0, 10};
    MPI_Type_indexed(3, bl, dp, MPI_INT, &t); /* [20,28) [0,4) [40,52) */
    EXPECT_TYPE(t, 24, 0, 52, 0, 52);
    MPI_Type_free(&t);

    int hbl[2] = {1, 2};
    MPI_Aint hdp[2] = {-8, 16};
    MPI_Type_create_hindexed(2, hbl, hdp, MPI_DOUBLE, &t); /* [-8,0) [16,32) */
    EXPECT_TYPE(t, 24, -8, 40, -8, 40);
    MPI_Type_free(&t);

    int ibd[3] = {0, 3, 7};
    MPI_Type_create_indexed_block(3, 2, ibd, MPI_SHORT, &t); /* [0,4) [6,10) [14,18) */
    EXPECT_TYPE(t, 12, 0, 18, 0, 18);
    MPI_Type_free(&t);

    MPI_Aint hbd[2] = {4, 12};
    MPI_Type_create_hindexed_block(2, 1, hbd, MPI_INT, &t);
    EXPECT_TYPE(t, 8, 4, 12, 4, 12);
    MPI_Type_free(&t);

    /* Structs are padded to their most aligned member, like the C struct they describe. */
    int sbl[3] = {1, 1, 1};
    MPI_Aint sdp[3] = {0, 8, 16};
    MPI_Datatype sty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MPI_Type_create_struct(3, sbl, sdp, sty, &t);
    EXPECT_TYPE(t, 13, 0, 24, 0, 17);
    MPI_Type_free(&t);
    MPI_Datatype cc[2] = {MPI_CHAR, MPI_CHAR};
    MPI_Aint cdp[2] = {0, 1};
    MPI_Type_create_struct(2, sbl, cdp, cc, &t);
    EXPECT_TYPE(t, 2, 0, 2, 0, 2);
    MPI_Type_free(&t);
    struct { double d; char c; } dc;
    MPI_Datatype dct[2] = {MPI_DOUBLE, MPI_CHAR};
    MPI_Aint dcd[2] = {offsetof(__typeof__(dc), d), offsetof(__typeof__(dc), c)};
    MPI_Type_create_struct(2, sbl, dcd, dct, &t);
    EXPECT_TYPE(t, 9, 0, (MPI_Aint)sizeof(dc), 0, 9);
    MPI_Type_free(&t);

    /* Resized: markers win, also inside types built on top (MPI 3.1 section 4.1.7). */
    MPI_Type_create_resized(MPI_INT, -4, 16, &r);
    EXPECT_TYPE(r, 4, -4, 16, 0, 4);
    MPI_Type_contiguous(2, r, &t); /* ints at 0 and 16 */
    EXPECT_TYPE(t, 8, -4, 32, 0, 20);
    MPI_Type_free(&t);
    MPI_Type_vector(2, 1, 3, r, &t); /* ints at 0 and 48 */
    EXPECT_TYPE(t, 8, -4, 64, 0, 52);
    MPI_Type_free(&t);
    MPI_Datatype rs[2] = {r, MPI_DOUBLE};
    MPI_Aint rsd[2] = {0, 100};
    MPI_Type_create_struct(2, sbl, rsd, rs, &t); /* the double lies outside the markers: no padding */
    EXPECT_TYPE(t, 12, -4, 16, 0, 108);
    MPI_Type_free(&t);

    /* MPI_LB and MPI_UB in a struct set the bounds. */
    int lbl[3] = {1, 1, 1};
    MPI_Aint ld[3] = {-8, 0, 32};
    MPI_Datatype lt[3] = {MPI_LB, MPI_INT, MPI_UB};
    MPI_Type_create_struct(3, lbl, ld, lt, &t);
    EXPECT_TYPE(t, 4, -8, 40, 0, 4);
    MPI_Type_free(&t);

    /* Dup keeps everything; dup of a predefined type is a derived type of the same shape. */
    MPI_Type_dup(r, &u);
    EXPECT_TYPE(u, 4, -4, 16, 0, 4);
    MPI_Type_free(&u);
    MPI_Type_dup(MPI_DOUBLE_INT, &u);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &ext);
    EXPECT_TYPE(u, 12, 0, ext, 0, 12);
    MPI_Type_free(&u);
    MPI_Type_free(&r);
}

/* ---- 2. one type out, another in ------------------------------------------------------------------ */

/* Sends n ints from a strided buffer (every int of a block of 3, blocks 7 ints apart) to the right,
 * receives them from the left into a contiguous buffer, and the other way round: gaps stay untouched. */
static void test_vector_vs_contiguous(int blocks)
{
    MPI_Datatype vec, con;
    MPI_Type_vector(blocks, 3, 7, MPI_INT, &vec);
    MPI_Type_contiguous(3 * blocks, MPI_INT, &con);
    MPI_Type_commit(&vec);
    MPI_Type_commit(&con);
    size_t span = (size_t)blocks * 7;
    int *strided = malloc(span * sizeof(int)), *packed = malloc((size_t)blocks * 3 * sizeof(int));
    for (size_t i = 0; i < span; i++)
        strided[i] = i % 7 < 3 ? (int)(i * 31 + (size_t)rank) : -1;
    memset(packed, 0, (size_t)blocks * 3 * sizeof(int));
    MPI_Status st;
    MPI_Sendrecv(strided, 1, vec, right, 1, packed, 1, con, left, 1, MPI_COMM_WORLD, &st);
    long bad = 0;
    for (long b = 0; b < blocks; b++)
        for (long k = 0; k < 3; k++)
            bad += packed[b * 3 + k] != (int)((b * 7 + k) * 31 + left);
    EXPECT(bad == 0);
    int count;
    MPI_Get_count(&st, con, &count);
    EXPECT(count == 1);
    MPI_Get_count(&st, MPI_INT, &count);
    EXPECT(count == 3 * blocks);

    /* Back: contiguous out, strided in; the gaps keep their -2. */
    for (size_t i = 0; i < span; i++)
        strided[i] = -2;
    for (long i = 0; i < 3L * blocks; i++)
        packed[i] = (int)(i * 5 + rank);
    MPI_Sendrecv(packed, 1, con, right, 2, strided, 1, vec, left, 2, MPI_COMM_WORLD, &st);
    bad = 0;
    for (size_t i = 0; i < span; i++) {
        long b = (long)(i / 7), k = (long)(i % 7);
        int want = k < 3 ? (int)((b * 3 + k) * 5 + left) : -2;
        bad += strided[i] != want;
    }
    EXPECT(bad == 0);
    free(strided);
    free(packed);
    MPI_Type_free(&vec);
    MPI_Type_free(&con);
}

/* ---- 3. a C struct with padding, sent as an array -------------------------------------------------- */

struct particle {
    int id;
    double x[3];
    char tag;
    short flags;
};

static MPI_Datatype particle_type(void)
{
    static struct particle p; /* only its addresses are taken */
    int bl[4] = {1, 3, 1, 1};
    MPI_Aint base, d[4];
    MPI_Get_address(&p, &base);
    MPI_Get_address(&p.id, &d[0]);
    MPI_Get_address(&p.x[0], &d[1]);
    MPI_Get_address(&p.tag, &d[2]);
    MPI_Get_address(&p.flags, &d[3]);
    for (int i = 0; i < 4; i++)
        d[i] = MPI_Aint_diff(d[i], base);
    MPI_Datatype types[4] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_SHORT}, t;
    MPI_Type_create_struct(4, bl, d, types, &t);
    return t;
}

static void test_struct_array(void)
{
    MPI_Datatype t = particle_type();
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    EXPECT(lb == 0 && ext == (MPI_Aint)sizeof(struct particle));
    MPI_Type_commit(&t);
    enum { N = 100 };
    static struct particle out[N], in[N];
    memset(out, 0x11, sizeof(out));
    memset(in, 0xab, sizeof(in));
    for (int i = 0; i < N; i++) {
        out[i].id = i + 1000 * rank;
        for (int k = 0; k < 3; k++)
            out[i].x[k] = i * 0.5 + k + rank;
        out[i].tag = (char)('a' + i % 26);
        out[i].flags = (short)(i * 3 + rank);
    }
    MPI_Sendrecv(out, N, t, right, 3, in, N, t, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long bad = 0;
    for (int i = 0; i < N; i++) {
        bad += in[i].id != i + 1000 * left;
        for (int k = 0; k < 3; k++)
            bad += in[i].x[k] != i * 0.5 + k + left;
        bad += in[i].tag != (char)('a' + i % 26);
        bad += in[i].flags != (short)(i * 3 + left);
        /* The padding between tag and flags was not written. */
        bad += ((unsigned char *)&in[i])[offsetof(struct particle, tag) + 1] != 0xab;
    }
    EXPECT(bad == 0);
    MPI_Type_free(&t);
}

/* ---- 4. resized types with count > 1 ------------------------------------------------------------- */

static void test_resized_count(void)
{
    MPI_Datatype r; /* one int every 12 bytes */
    MPI_Type_create_resized(MPI_INT, 0, 12, &r);
    MPI_Type_commit(&r);
    int out[5], in[15];
    for (int i = 0; i < 5; i++)
        out[i] = i * 11 + rank;
    for (int i = 0; i < 15; i++)
        in[i] = -7;
    MPI_Sendrecv(out, 5, MPI_INT, right, 4, in, 5, r, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long bad = 0;
    for (int i = 0; i < 15; i++)
        bad += in[i] != (i % 3 == 0 ? (i / 3) * 11 + left : -7);
    EXPECT(bad == 0);
    /* And out of a resized type with a negative lb: elements step by the extent. */
    MPI_Datatype n;
    MPI_Type_create_resized(MPI_INT, -8, 8, &n); /* ints 0, 8, 16 bytes apart (every other int) */
    MPI_Type_commit(&n);
    int src[6] = {1, 2, 3, 4, 5, 6}, dst[3] = {0};
    MPI_Sendrecv(src, 3, n, right, 5, dst, 3, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(dst[0] == 1 && dst[1] == 3 && dst[2] == 5);
    MPI_Type_free(&n);
    MPI_Type_free(&r);
}

/* ---- 5. a 64 MiB strided vector, streamed -------------------------------------------------------- */

static void test_large_vector(void)
{
    const long n = 4L << 20; /* 4 Mi doubles, every other one: 32 MiB of data over 64 MiB */
    MPI_Datatype v;
    MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    double *out = malloc((size_t)n * 2 * sizeof(double)), *in = malloc((size_t)n * 2 * sizeof(double));
    for (long i = 0; i < 2 * n; i++) {
        out[i] = (double)(i * 3 + rank);
        in[i] = -1.0;
    }
    MPI_Request reqs[2];
    MPI_Irecv(in, 1, v, left, 6, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, 1, v, right, 6, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    long bad = 0;
    for (long i = 0; i < 2 * n; i++)
        bad += in[i] != (i % 2 == 0 ? (double)(i * 3 + left) : -1.0);
    EXPECT(bad == 0);
    free(out);
    free(in);
    MPI_Type_free(&v);
}

/* ---- 6. a type freed while sends use it ---------------------------------------------------------- */

static void test_free_while_pending(void)
{
    const int blocks = 1 << 18; /* 3 MiB of data: a rendezvous message */
    MPI_Datatype vec;
    MPI_Type_vector(blocks, 3, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *src = malloc((size_t)blocks * 4 * sizeof(int)), *dst = malloc((size_t)blocks * 3 * sizeof(int));
    for (long i = 0; i < 4L * blocks; i++)
        src[i] = (int)(i ^ (rank << 20));
    MPI_Request send, persistent;
    MPI_Isend(src, 1, vec, right, 7, MPI_COMM_WORLD, &send);
    MPI_Send_init(src, 1, vec, right, 8, MPI_COMM_WORLD, &persistent);
    MPI_Type_free(&vec);
    EXPECT(vec == MPI_DATATYPE_NULL);
    for (int round = 0; round < 3; round++) {
        if (round > 0)
            MPI_Start(&persistent);
        memset(dst, 0, (size_t)blocks * 3 * sizeof(int));
        MPI_Recv(dst, 3 * blocks, MPI_INT, left, round == 0 ? 7 : 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long bad = 0;
        for (long b = 0; b < blocks; b++)
            for (long k = 0; k < 3; k++)
                bad += dst[b * 3 + k] != (int)((b * 4 + k) ^ (left << 20));
        EXPECT(bad == 0);
        MPI_Wait(round == 0 ? &send : &persistent, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&persistent);
    free(src);
    free(dst);
}

/* ---- 7. MPI_BOTTOM and absolute addresses --------------------------------------------------------- */

static void test_bottom(void)
{
    int a = 100 + rank, got_a = -1;
    double b[2] = {rank + 0.25, rank + 0.75}, got_b[2] = {0, 0};
    int bl[2] = {1, 2};
    MPI_Aint d[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, out, in;
    MPI_Get_address(&a, &d[0]);
    MPI_Get_address(b, &d[1]);
    MPI_Type_create_struct(2, bl, d, types, &out);
    MPI_Get_address(&got_a, &d[0]);
    MPI_Get_address(got_b, &d[1]);
    MPI_Type_create_struct(2, bl, d, types, &in);
    MPI_Type_commit(&out);
    MPI_Type_commit(&in);
    MPI_Sendrecv(MPI_BOTTOM, 1, out, right, 9, MPI_BOTTOM, 1, in, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(got_a == 100 + left && got_b[0] == left + 0.25 && got_b[1] == left + 0.75);
    EXPECT(MPI_Aint_add(d[0], 16) == d[0] + 16 && MPI_Aint_diff(d[1], d[0]) == d[1] - d[0]);
    MPI_Type_free(&out);
    MPI_Type_free(&in);
}

/* ---- 8. pack and unpack -------------------------------------------------------------------------- */

static void test_pack(void)
{
    MPI_Datatype pt = particle_type(), vec;
    MPI_Type_commit(&pt);
    MPI_Type_vector(10, 2, 5, MPI_SHORT, &vec);
    MPI_Type_commit(&vec);
    struct particle p[4], q[4];
    memset(p, 0, sizeof(p));
    memset(q, 0, sizeof(q));
    for (int i = 0; i < 4; i++) {
        p[i].id = i + 10 * rank;
        p[i].x[0] = p[i].x[1] = p[i].x[2] = i + 0.5;
        p[i].tag = (char)('k' + i);
        p[i].flags = (short)(-i);
    }
    short s[50], t[50];
    for (int i = 0; i < 50; i++) {
        s[i] = (short)(i * 9 + rank);
        t[i] = -1;
    }
    int psize, vsize, isize;
    MPI_Pack_size(4, pt, MPI_COMM_WORLD, &psize);
    MPI_Pack_size(1, vec, MPI_COMM_WORLD, &vsize);
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &isize);
    EXPECT(psize == 4 * (4 + 24 + 1 + 2) && vsize == 40 && isize == 4);
    int total = psize + vsize + isize;
    char *buf = malloc((size_t)total);
    int pos = 0, marker = 4242 + rank;
    MPI_Pack(p, 4, pt, buf, total, &pos, MPI_COMM_WORLD);
    EXPECT(pos == psize);
    MPI_Pack(s, 1, vec, buf, total, &pos, MPI_COMM_WORLD);
    MPI_Pack(&marker, 1, MPI_INT, buf, total, &pos, MPI_COMM_WORLD);
    EXPECT(pos == total);

    /* Unpacked here, in the same order. */
    int back = 0, unpos = 0;
    MPI_Unpack(buf, total, &unpos, q, 4, pt, MPI_COMM_WORLD);
    MPI_Unpack(buf, total, &unpos, t, 1, vec, MPI_COMM_WORLD);
    MPI_Unpack(buf, total, &unpos, &back, 1, MPI_INT, MPI_COMM_WORLD);
    EXPECT(unpos == total && back == marker);
    long bad = 0;
    for (int i = 0; i < 4; i++)
        bad += q[i].id != p[i].id || q[i].x[2] != p[i].x[2] || q[i].tag != p[i].tag || q[i].flags != p[i].flags;
    for (int i = 0; i < 50; i++)
        bad += t[i] != (i % 5 < 2 ? s[i] : -1);
    EXPECT(bad == 0);

    /* Sent as MPI_PACKED, received with the original types (the packed form is the data itself). */
    struct particle r[4];
    memset(r, 0, sizeof(r));
    MPI_Sendrecv(buf, psize, MPI_PACKED, right, 10, r, 4, pt, left, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; i++)
        bad += r[i].id != i + 10 * left || r[i].tag != (char)('k' + i);
    EXPECT(bad == 0);
    free(buf);
    MPI_Type_free(&pt);
    MPI_Type_free(&vec);
}

/* ---- 9. element counts of partial messages -------------------------------------------------------- */

static void test_get_elements(void)
{
    /* T = {int, double}: 12 bytes of data, 2 basic elements. */
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {0, 8};
    MPI_Datatype tt[2] = {MPI_INT, MPI_DOUBLE}, T, S;
    MPI_Type_create_struct(2, bl, d, tt, &T);
    MPI_Type_commit(&T);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(T, &lb, &ext);
    /* The sender's S = {T, T, int}: the same signature as 2.5 T. */
    int sbl[2] = {2, 1};
    MPI_Aint sd[2] = {0, 2 * ext};
    MPI_Datatype st[2] = {T, MPI_INT};
    MPI_Type_create_struct(2, sbl, sd, st, &S);
    MPI_Type_commit(&S);
    char out[64] = {0}, in[3 * 16];
    MPI_Status status;
    int count, elements;
    MPI_Count xelements;
    MPI_Sendrecv(out, 1, S, right, 11, in, 3, T, left, 11, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, T, &count);
    MPI_Get_elements(&status, T, &elements);
    MPI_Get_elements_x(&status, T, &xelements);
    EXPECT(count == MPI_UNDEFINED && elements == 5 && xelements == 5);
    MPI_Get_elements(&status, MPI_INT, &elements); /* 28 bytes as ints */
    EXPECT(elements == 7);

    /* 14 bytes: inside T's double: no whole number of basic elements. */
    MPI_Sendrecv(out, 14, MPI_BYTE, right, 12, in, 3, T, left, 12, MPI_COMM_WORLD, &status);
    MPI_Get_elements(&status, T, &elements);
    EXPECT(elements == MPI_UNDEFINED);
    MPI_Get_elements(&status, MPI_SHORT, &elements);
    EXPECT(elements == 7);

    /* A vector of pairs: every element counts. */
    MPI_Datatype v;
    MPI_Type_vector(2, 3, 4, MPI_2INT, &v);
    MPI_Type_commit(&v);
    char big[128];
    MPI_Sendrecv(out, 5, MPI_INT, right, 13, big, 1, v, left, 13, MPI_COMM_WORLD, &status);
    MPI_Get_elements(&status, v, &elements);
    EXPECT(elements == 5);
    MPI_Get_count(&status, v, &count);
    EXPECT(count == MPI_UNDEFINED);
    MPI_Type_free(&v);
    MPI_Type_free(&S);
    MPI_Type_free(&T);
}

/* ---- 10. envelopes, contents, names -------------------------------------------------------------- */

static void test_contents_and_names(void)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0);

    MPI_Datatype a, b, c, got[4];
    int ints[8];
    MPI_Aint addrs[4];
    MPI_Type_contiguous(2, MPI_INT, &a);
    MPI_Type_vector(3, 1, 5, a, &b);
    MPI_Type_get_envelope(b, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
    MPI_Type_free(&a); /* b still names it */
    MPI_Type_get_contents(b, 8, 4, 4, ints, addrs, got);
    EXPECT(ints[0] == 3 && ints[1] == 1 && ints[2] == 5);
    int sz;
    MPI_Type_size(got[0], &sz); /* the old type, alive through b and handed out again */
    EXPECT(sz == 8);
    MPI_Type_get_envelope(got[0], &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && nd == 1);
    MPI_Type_free(&got[0]);

    MPI_Aint hd[2] = {8, 40};
    MPI_Type_create_hindexed_block(2, 3, hd, MPI_FLOAT, &c);
    MPI_Type_get_envelope(c, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_HINDEXED_BLOCK && ni == 2 && na == 2 && nd == 1);
    MPI_Type_get_contents(c, 8, 4, 4, ints, addrs, got);
    EXPECT(ints[0] == 2 && ints[1] == 3 && addrs[0] == 8 && addrs[1] == 40 && got[0] == MPI_FLOAT);
    MPI_Type_free(&c);

    MPI_Type_create_resized(b, -2, 100, &c);
    MPI_Type_get_envelope(c, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1);
    MPI_Type_get_contents(c, 0, 2, 1, NULL, addrs, got);
    EXPECT(addrs[0] == -2 && addrs[1] == 100 && got[0] == b);
    MPI_Type_free(&got[0]);
    MPI_Type_free(&c);

    MPI_Datatype st = particle_type();
    MPI_Type_get_envelope(st, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_STRUCT && ni == 5 && na == 4 && nd == 4);
    MPI_Type_get_contents(st, 8, 4, 4, ints, addrs, got);
    EXPECT(ints[0] == 4 && ints[2] == 3 && got[1] == MPI_DOUBLE && addrs[3] == offsetof(struct particle, flags));
    MPI_Type_dup(st, &c);
    MPI_Type_get_envelope(c, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1);
    MPI_Type_free(&c);

    int idx_bl[2] = {1, 2}, idx_d[2] = {4, 0};
    MPI_Type_indexed(2, idx_bl, idx_d, MPI_INT, &c);
    MPI_Type_get_envelope(c, &ni, &na, &nd, &comb);
    EXPECT(comb == MPI_COMBINER_INDEXED && ni == 5 && na == 0 && nd == 1);
    MPI_Type_get_contents(c, 8, 0, 1, ints, NULL, got);
    EXPECT(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && ints[3] == 4 && ints[4] == 0);
    MPI_Type_free(&c);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_INT, name, &len);
    EXPECT(strcmp(name, "MPI_INT") == 0 && len == 7);
    MPI_Type_get_name(MPI_DOUBLE_INT, name, &len);
    EXPECT(strcmp(name, "MPI_DOUBLE_INT") == 0);
    MPI_Type_get_name(MPI_UNSIGNED_LONG_LONG, name, &len);
    EXPECT(strcmp(name, "MPI_UNSIGNED_LONG_LONG") == 0);
    MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len); /* null handles have names (MPI 4.1) */
    EXPECT(strcmp(name, "MPI_DATATYPE_NULL") == 0 && len == 17);
    MPI_Type_get_name(MPI_LOGICAL8, name, &len);
    EXPECT(strcmp(name, "MPI_LOGICAL8") == 0);
    int lsize = -1;
    EXPECT(MPI_Type_size(MPI_LOGICAL8, &lsize) == MPI_SUCCESS && lsize == 8);
    EXPECT(MPI_Type_size(MPI_REAL2, &lsize) == MPI_SUCCESS && lsize == 2);
    EXPECT(MPI_Type_size(MPI_COMPLEX4, &lsize) == MPI_SUCCESS && lsize == 4);
    MPI_Type_get_name(st, name, &len);
    EXPECT(len == 0 && name[0] == '\0');
    MPI_Type_set_name(st, "particle");
    MPI_Type_get_name(st, name, &len);
    EXPECT(strcmp(name, "particle") == 0 && len == 8);
    MPI_Type_free(&st);
    MPI_Type_free(&b);
}

/* ---- 11. errors ---------------------------------------------------------------------------------- */

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype t, v;
    int buf[16] = {0};
    MPI_Type_vector(2, 1, 2, MPI_INT, &v); /* not committed */
    EXPECT(err_class(MPI_Send(buf, 1, v, right, 20, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
    int sz;
    EXPECT(err_class(MPI_Type_size(v, &sz)) == MPI_SUCCESS && sz == 8); /* queries take uncommitted types */
    MPI_Type_free(&v);

    t = MPI_INT;
    EXPECT(err_class(MPI_Type_free(&t)) == MPI_ERR_TYPE && t == MPI_INT);
    t = MPI_FLOAT_INT;
    EXPECT(err_class(MPI_Type_free(&t)) == MPI_ERR_TYPE);
    EXPECT(err_class(MPI_Type_contiguous(-1, MPI_INT, &t)) == MPI_ERR_COUNT);
    EXPECT(err_class(MPI_Type_vector(2, -1, 3, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE);
    EXPECT(err_class(MPI_Type_contiguous(2, MPI_INT, NULL)) == MPI_ERR_ARG);
    int nbl[2] = {1, -3}, nd[2] = {0, 1};
    EXPECT(err_class(MPI_Type_indexed(2, nbl, nd, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Send(buf, -1, MPI_INT, right, 20, MPI_COMM_WORLD)) == MPI_ERR_COUNT);
    EXPECT(err_class(MPI_Type_size(MPI_DATATYPE_NULL, &sz)) == MPI_ERR_TYPE);
    int ints[2];
    MPI_Aint addrs[2];
    MPI_Datatype types[2];
    EXPECT(err_class(MPI_Type_get_contents(MPI_INT, 2, 2, 2, ints, addrs, types)) == MPI_ERR_ARG);

    /* A freed handle is no type any more. */
    MPI_Type_contiguous(4, MPI_INT, &t);
    MPI_Datatype stale = t;
    MPI_Type_free(&t);
    EXPECT(err_class(MPI_Type_size(stale, &sz)) == MPI_ERR_TYPE);
    EXPECT(err_class(MPI_Type_commit(&stale)) == MPI_ERR_TYPE);

    /* Pack and unpack into too little room: invalid arguments, and position does not move. */
    char small[8];
    int pos = 0;
    EXPECT(err_class(MPI_Pack(buf, 3, MPI_INT, small, 8, &pos, MPI_COMM_WORLD)) == MPI_ERR_ARG && pos == 0);
    pos = 4;
    EXPECT(err_class(MPI_Unpack(small, 8, &pos, buf, 2, MPI_INT, MPI_COMM_WORLD)) == MPI_ERR_ARG && pos == 4);
    EXPECT(err_class(MPI_Pack(buf, 1, MPI_INT, small, 8, NULL, MPI_COMM_WORLD)) == MPI_ERR_ARG);
    EXPECT(err_class(MPI_Pack(buf, 1, MPI_INT, small, 8, &pos, MPI_COMM_NULL)) == MPI_ERR_COMM);
    MPI_Status st = {0};
    int n;
    EXPECT(err_class(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &n)) == MPI_ERR_TYPE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* ---- 12. handles are reused ---------------------------------------------------------------------- */

static void test_cycles(void)
{
    MPI_Datatype first = MPI_DATATYPE_NULL;
    int reused = 1;
    for (int i = 0; i < 10000; i++) {
        MPI_Datatype t;
        MPI_Type_vector(4, 1, 3 + i % 5, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        if (i == 0)
            first = t;
        reused &= t == first;
        MPI_Type_free(&t);
    }
    EXPECT(reused);
    EXPECT(((unsigned)first & 0xfc000000u) == 0x8c000000u && ((unsigned)first & 0x03ffffffu) >= 8 &&
           ((unsigned)first & 0x03ffffffu) < 64);
}

/* ---- 13. threads making and freeing types -------------------------------------------------------- */

static void *type_churn(void *arg)
{
    long id = (long)arg, bad = 0;
    for (int i = 0; i < 2000; i++) {
        MPI_Datatype a, b;
        MPI_Type_contiguous((int)(id + 1), MPI_INT, &a);
        MPI_Type_vector(3, 1, 2, a, &b);
        MPI_Type_commit(&b);
        MPI_Type_free(&a);
        int sz;
        MPI_Type_size(b, &sz);
        bad += sz != (int)(3 * 4 * (id + 1));
        MPI_Type_free(&b);
    }
    return (void *)bad;
}

static void test_threads(int provided)
{
    if (provided < MPI_THREAD_MULTIPLE)
        return;
    pthread_t th[4];
    for (long t = 0; t < 4; t++)
        pthread_create(&th[t], NULL, type_churn, (void *)t);
    for (int t = 0; t < 4; t++) {
        void *bad;
        pthread_join(th[t], &bad);
        EXPECT(bad == NULL);
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;

    test_bounds();
    test_vector_vs_contiguous(10);       /* eager */
    test_vector_vs_contiguous(1 << 17);  /* rendezvous */
    test_struct_array();
    test_resized_count();
    test_large_vector();
    test_free_while_pending();
    test_bottom();
    test_pack();
    test_get_elements();
    test_contents_and_names();
    test_errors();
    test_cycles();
    test_threads(provided);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
