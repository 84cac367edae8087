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

#endif
