/* Reductions of vectors larger than a shared-memory slot, which take different ways by size and by the
 * number of ranks (chunks through the node's segment, or a schedule: mpi/axon_mpi_coll.c), checked
 * against the sum every rank can compute: MPI_Reduce at the first and the last rank, in place at the
 * root and not, and MPI_Allreduce, of MPI_INT sums from 64 KiB to 3 MiB plus an odd element. Any number
 * of ranks (the test runs it at 3 and at 9, beyond the width where a large reduce leaves the segment). */
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
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "coll_reduce_big: %d failures\n" : "coll_reduce_big: ok\n", all);
    MPI_Finalize();
    return all != 0;
}
