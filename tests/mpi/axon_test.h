/* What the multi-process tests share: the count of failed checks, and EXPECT, which counts a check that
 * does not hold and says which one and where (with the rank in MPI_COMM_WORLD while MPI is up). A test
 * prints its verdict from the count at the end. */
#ifndef AXON_TEST_H
#define AXON_TEST_H

#include <mpi.h>
#include <stdio.h>

static int failures;

static inline int axon_test_rank(void)
{
    int up = 0, down = 0, rank = -1;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

#define EXPECT(cond)                                                                                 \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            printf("rank %d FAILED: %s (line %d)\n", axon_test_rank(), #cond, __LINE__);             \
            failures++;                                                                              \
        }                                                                                            \
    } while (0)

/* EXPECT with a message of the test's own (printf's arguments), on stderr. */
#define CHECK(cond, ...)                                                                             \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            fprintf(stderr, "rank %d: %s:%d: ", axon_test_rank(), __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                                            \
            fputc('\n', stderr);                                                                     \
            failures++;                                                                              \
        }                                                                                            \
    } while (0)

/* The job's verdict at rank 0, gathered with point-to-point only (for tests of point-to-point, which
 * should not lean on the collectives): prints "name: ok" or "name: FAILED" there; true when every rank
 * passed (at rank 0; elsewhere, when this rank did). */
static inline int axon_test_verdict_p2p(const char *name, int rank, int size)
{
    int all = failures;
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            int f;
            MPI_Recv(&f, 1, MPI_INT, r, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            all += f;
        }
        printf("%s: %s\n", name, all ? "FAILED" : "ok");
    } else {
        MPI_Send(&failures, 1, MPI_INT, 0, 999, MPI_COMM_WORLD);
    }
    return all == 0;
}

/* Whether every rank of MPI_COMM_WORLD shares this one's node (a machine, or an AXON_TOPO node): the
 * checks of what only happens within a node (IPC, shared memory, GPU domains) hold only then; across the
 * nodes of make check-cluster the same traffic goes through UCX. Collective over MPI_COMM_WORLD. */
static inline int axon_test_one_node(void)
{
    MPI_Comm node;
    int size, wsize;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &size);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_free(&node);
    return size == wsize;
}

/* Whether ranks a and b of MPI_COMM_WORLD share a node. Collective over MPI_COMM_WORLD. */
static inline int axon_test_same_node(int a, int b)
{
    MPI_Comm node;
    int wrank, first, fa, fb;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Allreduce(&wrank, &first, 1, MPI_INT, MPI_MIN, node); /* the node's name: its lowest rank */
    MPI_Comm_free(&node);
    fa = fb = first;
    MPI_Bcast(&fa, 1, MPI_INT, a, MPI_COMM_WORLD);
    MPI_Bcast(&fb, 1, MPI_INT, b, MPI_COMM_WORLD);
    return fa == fb;
}

#endif
