/* Request-based one-sided operations inside MPI_Win_lock_all: MPI_Rput to both ring neighbours (small,
 * and 100000 bytes), waited with MPI_Waitall; MPI_Rget of the neighbours' constant blocks, waited with an
 * MPI_Test loop; MPI_Raccumulate (SUM) from every rank into one counter block on every rank, waited one
 * by one with MPI_Wait; MPI_Rget_accumulate (SUM, fetching the old values) into a per-target counter,
 * then MPI_Waitany. A request's completion means the origin buffer is free (put, accumulate) or holds the
 * data (get, get_accumulate), not that the target has it: MPI_Win_flush_all after the waits makes them
 * complete at the targets, and a barrier with MPI_Win_sync lets each rank check its own memory. The
 * fetched values of get_accumulate, gathered from every rank, must be the counter's steps, each once.
 * Prints "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

enum { SMALL = 10, BIG = 25000 }; /* ints: 40 and 100000 bytes */
/* The window's ints: what the left and right neighbours put (small, then big), a constant block, the
 * counter all accumulate into, the counter get_accumulate steps. */
enum { FROM_LEFT = 0, FROM_RIGHT = FROM_LEFT + SMALL + BIG, CONST = FROM_RIGHT + SMALL + BIG,
       ACC = CONST + BIG, GACC = ACC + SMALL, WIN_INTS = GACC + 1 };

static int rank, size;

static int value(int from, int i) { return from * 1000003 + i; }

int main(int argc, char **argv)
{
    int *mem;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    /* The size a whole count of 4 KiB pages: MPICH 4.0.2 (ch4) misplaces accesses to rank 1 in an
     * MPI_Win_allocate window of any other size (at 2 ranks, a put to the last int of a 1025-int window
     * lands elsewhere), and the peers must pass for the test to be trusted. */
    MPI_Aint bytes = ((MPI_Aint)sizeof(int) * WIN_INTS + 4095) / 4096 * 4096;
    MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    MPI_Win_lock_all(0, win);
    /* Local stores inside the epoch, made public with MPI_Win_sync before the barrier after which peers
     * read and write. */
    for (int i = 0; i < WIN_INTS; i++)
        mem[i] = -1;
    for (int i = 0; i < BIG; i++)
        mem[CONST + i] = value(rank, i) ^ 0x55;
    for (int i = 0; i < SMALL; i++)
        mem[ACC + i] = i;
    mem[GACC] = 0;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);

    /* Rput: this rank is the right neighbour's left and the left neighbour's right. */
    int *out = malloc(sizeof(int) * (SMALL + BIG));
    for (int i = 0; i < SMALL + BIG; i++)
        out[i] = value(rank, i);
    MPI_Request put[4];
    MPI_Status st[4];
    MPI_Rput(out, SMALL, MPI_INT, right, FROM_LEFT, SMALL, MPI_INT, win, &put[0]);
    MPI_Rput(out + SMALL, BIG, MPI_INT, right, FROM_LEFT + SMALL, BIG, MPI_INT, win, &put[1]);
    MPI_Rput(out, SMALL, MPI_INT, left, FROM_RIGHT, SMALL, MPI_INT, win, &put[2]);
    MPI_Rput(out + SMALL, BIG, MPI_INT, left, FROM_RIGHT + SMALL, BIG, MPI_INT, win, &put[3]);
    MPI_Waitall(4, put, st);
    for (int i = 0; i < 4; i++)
        EXPECT(put[i] == MPI_REQUEST_NULL);
    /* Local completion: the buffer may change now without changing what arrives. */
    for (int i = 0; i < SMALL + BIG; i++)
        out[i] = -7;

    /* Rget of both neighbours' constant blocks, polled with MPI_Test. */
    int *in = malloc(sizeof(int) * 2 * BIG);
    for (int i = 0; i < 2 * BIG; i++)
        in[i] = -2;
    MPI_Request get[2];
    MPI_Rget(in, BIG, MPI_INT, left, CONST, BIG, MPI_INT, win, &get[0]);
    MPI_Rget(in + BIG, BIG, MPI_INT, right, CONST, BIG, MPI_INT, win, &get[1]);
    for (int k = 0; k < 2; k++) {
        int done = 0;
        while (!done)
            MPI_Test(&get[k], &done, MPI_STATUS_IGNORE);
    }
    int bad = 0;
    for (int i = 0; i < BIG; i++) {
        bad += in[i] != (value(left, i) ^ 0x55);
        bad += in[BIG + i] != (value(right, i) ^ 0x55);
    }
    CHECK(bad == 0, "rget: %d elements of the neighbours' blocks wrong", bad);

    /* Raccumulate to every rank's ACC, each waited by MPI_Wait; each request its own buffer. */
    int *add = malloc(sizeof(int) * (size_t)size * SMALL);
    for (int t = 0; t < size; t++) {
        MPI_Request r;
        for (int i = 0; i < SMALL; i++)
            add[t * SMALL + i] = (rank + 1) * (i + 1);
        MPI_Raccumulate(&add[t * SMALL], SMALL, MPI_INT, t, ACC, SMALL, MPI_INT, MPI_SUM, win, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        EXPECT(r == MPI_REQUEST_NULL);
    }

    /* Rget_accumulate: add rank + 1 to every rank's GACC and fetch the value before, waited with
     * MPI_Waitany. */
    int *inc = malloc(sizeof(int) * (size_t)size), *old = malloc(sizeof(int) * (size_t)size);
    MPI_Request *ga = malloc(sizeof(MPI_Request) * (size_t)size);
    for (int t = 0; t < size; t++) {
        inc[t] = rank + 1;
        old[t] = -5;
        MPI_Rget_accumulate(&inc[t], 1, MPI_INT, &old[t], 1, MPI_INT, t, GACC, 1, MPI_INT, MPI_SUM, win, &ga[t]);
    }
    for (int k = 0; k < size; k++) {
        int idx;
        MPI_Waitany(size, ga, &idx, MPI_STATUS_IGNORE);
        EXPECT(idx >= 0 && idx < size && ga[idx] == MPI_REQUEST_NULL);
    }

    /* Completion at the targets, then everyone's updates visible here. */
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    bad = 0;
    for (int i = 0; i < SMALL + BIG; i++) {
        bad += mem[FROM_LEFT + i] != value(left, i);
        bad += mem[FROM_RIGHT + i] != value(right, i);
    }
    CHECK(bad == 0, "rput: %d elements from the neighbours wrong", bad);
    bad = 0;
    for (int i = 0; i < SMALL; i++)
        bad += mem[ACC + i] != i + size * (size + 1) / 2 * (i + 1);
    CHECK(bad == 0, "raccumulate: %d counter elements wrong", bad);
    CHECK(mem[GACC] == size * (size + 1) / 2, "rget_accumulate: counter %d, expected %d", mem[GACC],
          size * (size + 1) / 2);
    MPI_Win_unlock_all(win);

    /* At each target the fetched values are the prefix sums of the increments in the order they were
     * applied: sorted, they differ by the increments, which are 1..size each once. Gathered per target. */
    int *seen = malloc(sizeof(int) * (size_t)size), *incs = malloc(sizeof(int) * (size_t)size);
    MPI_Alltoall(old, 1, MPI_INT, seen, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        incs[r] = r + 1; /* rank r added r + 1 */
    /* Sort (seen, incs) by seen: then seen[0] = 0 and seen[k+1] = seen[k] + incs[k]. */
    for (int a = 1; a < size; a++)
        for (int b = a; b > 0 && seen[b - 1] > seen[b]; b--) {
            int s = seen[b], i = incs[b];
            seen[b] = seen[b - 1], incs[b] = incs[b - 1];
            seen[b - 1] = s, incs[b - 1] = i;
        }
    bad = seen[0] != 0;
    for (int k = 0; k + 1 < size; k++)
        bad += seen[k + 1] != seen[k] + incs[k];
    CHECK(bad == 0, "rget_accumulate: the fetched values are not the counter's steps");

    MPI_Win_free(&win);
    free(out);
    free(in);
    free(add);
    free(inc);
    free(old);
    free(ga);
    free(seen);
    free(incs);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
