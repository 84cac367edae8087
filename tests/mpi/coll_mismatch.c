/* Collectives whose members disagree give an error, not wrong data or a hang, where that is cheap to
 * tell: a broadcast whose root sends more than a member receives (MPI_ERR_TRUNCATE; small, and large
 * enough to be split into segments, under every algorithm the .test forces), members naming
 * different roots (MPI_ERR_ROOT, on the shared-memory path), an allreduce with different counts, a
 * reduce larger than a slot with different counts (2 ranks, shared memory). Run at 2 ranks through
 * schedules (AXON_COLL_SHM_MAX=0) and through shared memory, and at 3 through shared memory (the cases of
 * shared memory only where the ranks share a node: elsewhere a disagreement may hang); each case
 * on a fresh communicator, since a failed collective leaves its communicator's state undefined. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, failures;

static void expect(int rc, int want, const char *what)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != want) {
        fprintf(stderr, "rank %d: %s: error class %d, expected %d\n", rank, what, cls, want);
        failures++;
    }
}

static MPI_Comm fresh(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
}

/* A bcast whose root's count is larger: every member returns; the root without error, the others with
 * MPI_ERR_TRUNCATE or none (in a tree, a member fed by another member that holds the smaller count
 * sees no truncation), and at least one of them with it. Every rank calls it. */
static void expect_bcast_mismatch(int rc, int root, const char *what)
{
    int cls = MPI_SUCCESS, truncated, any;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    truncated = cls == MPI_ERR_TRUNCATE;
    if (rank == root || !truncated)
        expect(rc, MPI_SUCCESS, what);
    MPI_Allreduce(&truncated, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any && rank == 0) {
        fprintf(stderr, "%s: no member saw the truncation\n", what);
        failures++;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* The default sends these small calls through the node's shared memory, when the ranks share one. */
    MPI_Comm node;
    int node_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_free(&node);
    int shm = getenv("AXON_COLL_SHM_MAX") == NULL && node_size == size;
    int buf[16] = {0};

    /* The root sends 16 ints, the others expect 8. */
    MPI_Comm c = fresh();
    int rc = MPI_Bcast(buf, rank == 0 ? 16 : 8, MPI_INT, 0, c);
    expect_bcast_mismatch(rc, 0, "MPI_Bcast, counts disagree");
    MPI_Barrier(MPI_COMM_WORLD);

    /* The same, large enough to be split into segments (scatter_ring, scatter_doubling): the others'
     * receives truncate in the scatter, and the root, whose allgather waits for their segments, hung. */
    {
        enum { BIG = 1 << 16 }; /* ints */
        int *big = calloc(BIG, sizeof(int));
        if (!big)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (int root = 0; root < size && root < 2; root++) {
            MPI_Comm b = fresh();
            rc = MPI_Bcast(big, rank == root ? BIG : BIG / 2, MPI_INT, root, b);
            expect_bcast_mismatch(rc, root, "MPI_Bcast of 256 KiB, counts disagree");
            MPI_Barrier(MPI_COMM_WORLD);
        }
        free(big);
    }

    if (shm && size >= 3) {
        /* Ranks 0 and 1 say root 0, rank 2 says root 1: rank 2 hears rank 1 name another root. */
        MPI_Comm d = fresh();
        rc = MPI_Bcast(buf, 4, MPI_INT, rank == 2 ? 1 : 0, d);
        expect(rc, rank == 2 ? MPI_ERR_ROOT : MPI_SUCCESS, "MPI_Bcast, roots disagree");
        MPI_Barrier(MPI_COMM_WORLD);

        /* Every member reads every contribution: all of them see the disagreement. */
        MPI_Comm e = fresh();
        int out[16];
        rc = MPI_Allreduce(buf, out, rank == 0 ? 4 : 3, MPI_INT, MPI_SUM, e);
        expect(rc, MPI_ERR_TRUNCATE, "MPI_Allreduce, counts disagree");
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (shm && size == 2) {
        /* A reduce larger than a slot, which two members fold a slot at a time: with more uses of the
         * slots on one side than on the other, the one with more waited forever for the other's next.
         * Both ways round; each member hears the other's size in the first use. */
        enum { FEW = 300000, MANY = 700000 }; /* ints: 2 and 3 uses of 1 MiB slots */
        int *in = calloc(MANY, sizeof(int)), *out = calloc(MANY, sizeof(int));
        if (!in || !out)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (int k = 0; k < 2; k++) {
            MPI_Comm f = fresh();
            int count = (rank == 0) == (k == 0) ? FEW : MANY;
            rc = MPI_Reduce(in, out, count, MPI_INT, MPI_SUM, 0, f);
            expect(rc, MPI_ERR_TRUNCATE,
                   k ? "MPI_Reduce, the root's count larger" : "MPI_Reduce, the root's count smaller");
            MPI_Barrier(MPI_COMM_WORLD);
        }
        free(in);
        free(out);
    }
    /* The world still works. */
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size)
        failures++;
    if (failures == 0 && rank == 0)
        printf("coll_mismatch: ok\n");
    MPI_Finalize();
    return failures ? 1 : 0;
}
