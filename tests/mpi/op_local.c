/* Reduction operations through the API: MPI_Reduce_local with predefined operations on contiguous,
 * strided and pair types and with user operations (commutative or not); MPI_Op_create, MPI_Op_free and
 * MPI_Op_commutative; the errors the standard names (MPI_ERR_OP for an operation a type does not allow,
 * or for freeing a predefined one). Then a user operation on a struct type with padding (its packed
 * form is not its layout) in MPI_Allreduce and MPI_Reduce, small and large, against a local reference.
 * MPI_CHAR reduced as the C char it is (as MPICH and Open MPI do: OSU's benchmarks reduce it) by every
 * reduction call; MPI_REPLACE and MPI_NO_OP refused to reductions, as both do. Any number of ranks. */
#include "axon_test.h"

#include <mpi.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* inout = in - inout, element by element: order matters. */
static void minus(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
}

struct pair {
    double v;
    int i;
    /* 4 bytes of padding: the type's size is 12, its extent 16 */
};

static int misaligned; /* calls whose vectors were not aligned as arrays of struct pair are */

/* The larger v wins; on a tie the lower i. */
static void pair_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    if ((uintptr_t)in % _Alignof(struct pair) || (uintptr_t)inout % _Alignof(struct pair))
        misaligned++;
    struct pair *a = in, *b = inout;
    for (int k = 0; k < *len; k++)
        if (a[k].v > b[k].v || (a[k].v == b[k].v && a[k].i < b[k].i))
            b[k] = a[k];
}

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static void test_local(void)
{
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
    CHECK(MPI_Reduce_local(a, b, 5, MPI_INT, MPI_SUM) == MPI_SUCCESS, "MPI_SUM on MPI_INT");
    for (int i = 0; i < 5; i++)
        CHECK(b[i] == 11 * (i + 1), "sum[%d] = %d", i, b[i]);

    /* Every other double: the odd ones stay as they were. */
    double x[8], y[8];
    for (int i = 0; i < 8; i++)
        x[i] = i, y[i] = 100 + i;
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    CHECK(MPI_Reduce_local(x, y, 1, every_other, MPI_MAX) == MPI_SUCCESS, "MPI_MAX on a vector");
    for (int i = 0; i < 8; i++)
        CHECK(y[i] == 100 + i, "vector max[%d] = %g", i, y[i]);
    for (int i = 0; i < 8; i++)
        x[i] = 1000 + i;
    MPI_Reduce_local(x, y, 1, every_other, MPI_MAX);
    for (int i = 0; i < 8; i++)
        CHECK(y[i] == (i % 2 ? 100 + i : 1000 + i), "vector max[%d] = %g", i, y[i]);
    MPI_Type_free(&every_other);

    struct { double v; int i; } p[2] = {{3.0, 7}, {1.0, 2}}, q[2] = {{3.0, 4}, {2.0, 9}};
    CHECK(MPI_Reduce_local(p, q, 2, MPI_DOUBLE_INT, MPI_MAXLOC) == MPI_SUCCESS, "MPI_MAXLOC");
    CHECK(q[0].v == 3.0 && q[0].i == 4 && q[1].v == 2.0 && q[1].i == 9, "maxloc: (%g,%d) (%g,%d)", q[0].v, q[0].i,
          q[1].v, q[1].i);

    MPI_Op op;
    int commute = -1;
    CHECK(MPI_Op_create(minus, 0, &op) == MPI_SUCCESS, "MPI_Op_create");
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 0, "a non-commutative operation says %d", commute);
    MPI_Op_commutative(MPI_SUM, &commute);
    CHECK(commute == 1, "MPI_SUM says %d", commute);
    int c[3] = {5, 5, 5}, d[3] = {1, 2, 3};
    MPI_Reduce_local(c, d, 3, MPI_INT, op);
    CHECK(d[0] == 4 && d[1] == 3 && d[2] == 2, "minus: %d %d %d", d[0], d[1], d[2]);
    CHECK(MPI_Op_free(&op) == MPI_SUCCESS && op == MPI_OP_NULL, "MPI_Op_free");

    /* Errors, returned through MPI_COMM_WORLD's handler. */
    int two[4] = {0};
    CHECK(error_class(MPI_Reduce_local(two, two + 2, 1, MPI_2INT, MPI_SUM)) == MPI_ERR_OP, "MPI_SUM on MPI_2INT");
    CHECK(error_class(MPI_Reduce_local(x, y, 1, MPI_DOUBLE, MPI_BAND)) == MPI_ERR_OP, "MPI_BAND on MPI_DOUBLE");
    MPI_Op sum = MPI_SUM;
    CHECK(error_class(MPI_Op_free(&sum)) == MPI_ERR_OP, "freeing MPI_SUM");
    CHECK(error_class(MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM)) == MPI_ERR_COUNT, "negative count");
    int out = 0, in = 1;
    CHECK(error_class(MPI_Allreduce(two, two + 2, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_OP,
          "MPI_Allreduce with MPI_SUM on MPI_2INT");
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(out == size, "the world still reduces: %d", out);
}

/* Rank r's k-th char: negative, zero and positive, small enough that sums over 7 ranks stay in range. */
static char char_of(int r, int k)
{
    return (char)((r * 5 + k * 3) % 17 - 8);
}

/* MPI_CHAR through every kind of reduction call, against sums, minima and maxima computed here. */
static void test_char(void)
{
    enum { K = 6 };
    static const MPI_Op ops[] = {MPI_SUM, MPI_MIN, MPI_MAX, MPI_BXOR, MPI_LOR};
    static const char *const names[] = {"MPI_SUM", "MPI_MIN", "MPI_MAX", "MPI_BXOR", "MPI_LOR"};
    char in[K * 8], out[K * 8], want[K * 8];
    if (size > 8)
        return;
    for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
        int n = K * size; /* reduce_scatter_block gives each rank K */
        for (int k = 0; k < n; k++) {
            in[k] = char_of(rank, k);
            int w = char_of(0, k);
            for (int r = 1; r < size; r++) {
                int x = char_of(r, k);
                w = o == 0 ? w + x : o == 1 ? (x < w ? x : w) : o == 2 ? (x > w ? x : w) : o == 3 ? w ^ x : (w || x);
            }
            want[k] = (char)w;
        }
        for (int call = 0; call < 4; call++) {
            static const char *const calls[] = {"MPI_Allreduce", "MPI_Reduce", "MPI_Iallreduce",
                                                "MPI_Reduce_scatter_block"};
            memset(out, 0x55, sizeof(out));
            int rc, off = 0, len = n;
            MPI_Request req;
            if (call == 0) {
                rc = MPI_Allreduce(in, out, n, MPI_CHAR, ops[o], MPI_COMM_WORLD);
            } else if (call == 1) {
                rc = MPI_Reduce(in, out, n, MPI_CHAR, ops[o], size - 1, MPI_COMM_WORLD);
                if (rank != size - 1)
                    len = 0;
            } else if (call == 2) {
                rc = MPI_Iallreduce(in, out, n, MPI_CHAR, ops[o], MPI_COMM_WORLD, &req);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
            } else {
                rc = MPI_Reduce_scatter_block(in, out, K, MPI_CHAR, ops[o], MPI_COMM_WORLD);
                off = rank * K;
                len = K;
            }
            CHECK(rc == MPI_SUCCESS, "%s with %s on MPI_CHAR: error class %d", calls[call], names[o], error_class(rc));
            for (int k = 0; rc == MPI_SUCCESS && k < len; k++)
                if (out[k] != want[off + k]) {
                    CHECK(0, "%s with %s on MPI_CHAR, element %d: %d, expected %d", calls[call], names[o], off + k,
                          out[k], want[off + k]);
                    break;
                }
        }
    }
    /* The local form, and the char's sign: -5 is less than 5 where char is signed. */
    char a[2] = {-5, 5}, b[2] = {5, -5};
    CHECK(MPI_Reduce_local(a, b, 2, MPI_CHAR, MPI_MAX) == MPI_SUCCESS, "MPI_Reduce_local with MPI_MAX on MPI_CHAR");
    CHECK(b[0] == (CHAR_MIN < 0 ? 5 : -5) && b[1] == b[0], "MPI_MAX on MPI_CHAR: %d %d", b[0], b[1]);

    /* The accumulate operations are not reductions. */
    int x = 1, y = 2;
    CHECK(error_class(MPI_Reduce_local(&x, &y, 1, MPI_INT, MPI_REPLACE)) == MPI_ERR_OP, "MPI_REPLACE reduced");
    CHECK(error_class(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_NO_OP, MPI_COMM_WORLD)) == MPI_ERR_OP,
          "MPI_NO_OP reduced");
    CHECK(y == 2, "a refused reduction wrote its result: %d", y);
}

/* Rank r's element k: values that tie across ranks at some k, so the lower-index rule matters. */
static struct pair contribution(int r, int k)
{
    return (struct pair){(double)((r * 7 + k * 3) % 5), r * 1000 + k};
}

static void test_struct_op(void)
{
    MPI_Datatype pair;
    int lens[2] = {1, 1};
    MPI_Aint disps[2] = {offsetof(struct pair, v), offsetof(struct pair, i)};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(2, lens, disps, types, &pair);
    MPI_Type_create_resized(pair, 0, sizeof(struct pair), &pair);
    MPI_Type_commit(&pair);
    MPI_Op op;
    MPI_Op_create(pair_max, 1, &op);
    int counts[] = {1, 5, 3000};
    for (int t = 0; t < 3; t++) {
        int n = counts[t];
        struct pair *in = malloc(sizeof(*in) * (size_t)n), *out = malloc(sizeof(*out) * (size_t)n);
        for (int k = 0; k < n; k++)
            in[k] = contribution(rank, k);
        for (int root = -1; root < size; root += size > 1 ? size - 1 : 2) {
            memset(out, 0xff, sizeof(*out) * (size_t)n);
            if (root < 0)
                MPI_Allreduce(in, out, n, pair, op, MPI_COMM_WORLD);
            else
                MPI_Reduce(in, out, n, pair, op, root, MPI_COMM_WORLD);
            if (root >= 0 && rank != root)
                continue;
            for (int k = 0; k < n; k++) {
                struct pair want = contribution(0, k);
                for (int r = 1; r < size; r++) {
                    struct pair c = contribution(r, k);
                    if (c.v > want.v || (c.v == want.v && c.i < want.i))
                        want = c;
                }
                if (out[k].v != want.v || out[k].i != want.i) {
                    CHECK(0, "count %d root %d element %d: (%g,%d), expected (%g,%d)", n, root, k, out[k].v,
                          out[k].i, want.v, want.i);
                    break;
                }
            }
        }
        free(in);
        free(out);
    }
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
}

/* The large-count form of minus (MPI_Op_create_c): its count comes as an MPI_Count. */
static MPI_Count minus_c_calls;
static void minus_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)type;
    minus_c_calls++;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
}

/* The left operand wins: associative, not commutative; a reduction's result is rank 0's input. */
static void first_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)type;
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

/* Large-count user operations: MPI_Reduce_local and MPI_Reduce_local_c with one, and MPI_Allreduce(_c)
 * of a non-commutative one in rank order (x0 op x1 op ...: rank 0's values). Bad arguments refused. */
static void test_op_c(void)
{
    MPI_Op op;
    CHECK(MPI_Op_create_c(minus_c, 0, &op) == MPI_SUCCESS, "MPI_Op_create_c");
    int commute = -1;
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 0, "MPI_Op_commutative of a non-commutative _c operation gave %d", commute);
    int in[5] = {10, 20, 30, 40, 50}, io[5] = {1, 2, 3, 4, 5};
    minus_c_calls = 0;
    CHECK(MPI_Reduce_local(in, io, 5, MPI_INT, op) == MPI_SUCCESS, "MPI_Reduce_local with a _c operation");
    CHECK(io[0] == 9 && io[4] == 45 && minus_c_calls > 0, "MPI_Reduce_local with a _c operation: %d %d", io[0],
          io[4]);
    CHECK(MPI_Reduce_local_c(in, io, (MPI_Count)5, MPI_INT, op) == MPI_SUCCESS, "MPI_Reduce_local_c");
    CHECK(io[0] == 1 && io[4] == 5, "MPI_Reduce_local_c with a _c operation: %d %d", io[0], io[4]);
    enum { N = 1000 };
    int *x = malloc(N * sizeof(int)), *r = malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        x[i] = (rank + 1) * 1000 + i;
    CHECK(MPI_Op_free(&op) == MPI_SUCCESS && op == MPI_OP_NULL, "MPI_Op_free of a _c operation");
    CHECK(MPI_Op_create_c(first_c, 0, &op) == MPI_SUCCESS, "MPI_Op_create_c");
    for (int form = 0; form < 2; form++) {
        memset(r, 0xff, N * sizeof(int));
        int rc = form ? MPI_Allreduce_c(x, r, (MPI_Count)N, MPI_INT, op, MPI_COMM_WORLD)
                      : MPI_Allreduce(x, r, N, MPI_INT, op, MPI_COMM_WORLD);
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += r[i] != 1000 + i;
        CHECK(rc == MPI_SUCCESS && bad == 0, "MPI_Allreduce%s with a _c operation: %d wrong elements",
              form ? "_c" : "", bad);
    }
    MPI_Op_free(&op);
    int cls = -1;
    MPI_Error_class(MPI_Op_create_c(NULL, 1, &op), &cls);
    CHECK(cls == MPI_ERR_ARG, "MPI_Op_create_c(NULL) gave class %d", cls);
    free(x);
    free(r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    test_local();
    test_char();
    test_struct_op();
    test_op_c();
    int all = 0;
    EXPECT(misaligned == 0); /* the library's scratch vectors too (UBSan found them 4 bytes off) */
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("op_local: ok\n");
    MPI_Finalize();
    return all ? 1 : 0;
}
