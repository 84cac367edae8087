/* Reductions of vectors larger than a shared-memory slot, which take different ways by size and by the
 * number of ranks (chunks through the node's segment, or a schedule: coll/axon_coll_path.c), checked
 * against the sum every rank can compute: MPI_Reduce at the first and the last rank, in place at the
 * root and not, and MPI_Allreduce, of MPI_INT sums from 64 KiB to 3 MiB plus an odd element; and MPI_Reduce
 * with a non-commutative user operation on 12-byte elements (so that neither a slot nor a piece holds whole
 * ones exactly), whose result depends on the ranks' order. Any number of ranks (the test runs it at 2,
 * where two members fold piece by piece a slot at a time, with the default and with small slots, at 3
 * and at 9, beyond the width where a large reduce leaves the segment). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, failures;

/* The value rank r contributes at element i, and the sum over all ranks. */
static int value(int r, long i)
{
    return (int)((i * 7 + r * 13) % 1000);
}

static int sum(long i)
{
    int s = 0;
    for (int r = 0; r < size; r++)
        s += value(r, i);
    return s;
}

static void check(const int *got, long n, const char *what, int root)
{
    for (long i = 0; i < n; i++) {
        if (got[i] != sum(i)) {
            printf("rank %d FAILED: %s (root %d) of %ld ints: element %ld is %d, expected %d\n", rank, what, root,
                   n, i, got[i], sum(i));
            failures++;
            return;
        }
    }
}

/* An element: the affine map x -> a x + b (unsigned, wrapping) and a count. The operation composes the
 * maps, in then inout (associative, not commutative), and adds the counts. */
struct affine {
    unsigned a, b, c;
};

static struct affine affine_value(int r, long i)
{
    return (struct affine){(unsigned)(i * 3 + r * 5 + 1), (unsigned)(i * 11 + r * 7), (unsigned)r + 1};
}

static struct affine affine_compose(struct affine f, struct affine g)
{
    return (struct affine){f.a * g.a, f.a * g.b + f.b, f.c + g.c};
}

static void affine_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct affine *f = in;
    struct affine *g = inout;
    for (int i = 0; i < *len; i++)
        g[i] = affine_compose(f[i], g[i]);
}

/* MPI_Reduce of n affine elements with the non-commutative operation, at every root in turn (the
 * first and the last at 2 ranks), in place at the root and not. */
static void check_affine(long n)
{
    MPI_Datatype type;
    MPI_Op op;
    MPI_Type_contiguous(3, MPI_UNSIGNED, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(affine_op, 0, &op);
    struct affine *in = malloc(sizeof(*in) * (size_t)n), *out = malloc(sizeof(*out) * (size_t)n);
    if (!in || !out)
        MPI_Abort(MPI_COMM_WORLD, 2);
    int roots[2] = {size - 1, 0};
    for (int k = 0; k < 2; k++) {
        for (int inplace = 0; inplace < 2; inplace++) {
            int root = roots[k];
            for (long i = 0; i < n; i++)
                in[i] = out[i] = affine_value(rank, i);
            const void *src = inplace && rank == root ? MPI_IN_PLACE : in;
            MPI_Reduce(src, out, (int)n, type, op, root, MPI_COMM_WORLD);
            if (rank != root)
                continue;
            for (long i = 0; i < n; i++) {
                struct affine want = affine_value(size - 1, i);
                for (int r = size - 2; r >= 0; r--)
                    want = affine_compose(affine_value(r, i), want);
                if (out[i].a != want.a || out[i].b != want.b || out[i].c != want.c) {
                    printf("rank %d FAILED: MPI_Reduce%s of %ld affine maps (root %d): element %ld is (%u %u %u), "
                           "expected (%u %u %u)\n", rank, inplace ? " in place" : "", n, root, i, out[i].a, out[i].b,
                           out[i].c, want.a, want.b, want.c);
                    failures++;
                    break;
                }
            }
        }
    }
    free(in);
    free(out);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const long bytes[] = {64 << 10, (256 << 10) + 4, (1 << 20) + 4, (3 << 20) + 4};
    for (size_t b = 0; b < sizeof(bytes) / sizeof(bytes[0]); b++) {
        long n = bytes[b] / 4;
        int *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
        if (!in || !out)
            MPI_Abort(MPI_COMM_WORLD, 2);
        int roots[2] = {0, size - 1};
        for (int k = 0; k < 2; k++) {
            int root = roots[k];
            for (int inplace = 0; inplace < 2; inplace++) {
                for (long i = 0; i < n; i++)
                    in[i] = out[i] = value(rank, i);
                const void *src = inplace && rank == root ? MPI_IN_PLACE : in;
                MPI_Reduce(src, out, (int)n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
                if (rank == root)
                    check(out, n, inplace ? "MPI_Reduce in place" : "MPI_Reduce", root);
            }
        }
        for (long i = 0; i < n; i++)
            in[i] = value(rank, i);
        MPI_Allreduce(in, out, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        check(out, n, "MPI_Allreduce", -1);
        free(in);
        free(out);
    }
    check_affine((1 << 20) / 12 + 7);
    check_affine((3 << 20) / 12 + 5);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "coll_reduce_big: %d failures\n" : "coll_reduce_big: ok\n", all);
    MPI_Finalize();
    return all != 0;
}
