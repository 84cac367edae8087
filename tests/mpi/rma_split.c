/* Large puts and gets into node peers' own memory (MPI_Win_create), which the origin and a target that is
 * in MPI copy together (rma/axon_rma_split.c): every rank puts 3 MiB + 123 bytes at an odd offset into
 * its right neighbour's window and gets 2 MiB + 77 bytes from its left neighbour's, under a lock, first
 * while the targets wait in MPI_Barrier (they may help), then while they compute without MPI for a
 * moment (the origin copies alone), then with all ranks putting at once into each other. Each byte is
 * checked, and the bytes around each piece must stay untouched. Prints "rank R: ok". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "axon_test.h"

#define WIN (8u << 20)
#define PUT_OFF 4097u
#define PUT_LEN ((3u << 20) + 123u)
#define GET_OFF ((5u << 20) + 33u)
#define GET_LEN ((2u << 20) + 77u)

static int rank, size;

static unsigned char pattern(int owner, int round, size_t i)
{
    return (unsigned char)(owner * 31 + round * 7 + i * 13 + (i >> 11));
}

static void spin_ms(int ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void round_trip(MPI_Win win, unsigned char *mem, int round, int mode)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (size_t i = 0; i < WIN; i++)
        mem[i] = pattern(rank, round, i);
    unsigned char *src = malloc(PUT_LEN), *dst = malloc(GET_LEN + 2);
    for (size_t i = 0; i < PUT_LEN; i++)
        src[i] = pattern(rank + 100, round, i);
    dst[0] = dst[GET_LEN + 1] = 0xa5;
    MPI_Barrier(MPI_COMM_WORLD);
    /* mode 0: rank 0 is the only origin, the others wait in MPI; mode 1: likewise, the others compute;
     * mode 2: everyone at once. */
    if (mode == 2 || rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
        MPI_Put(src, PUT_LEN, MPI_BYTE, right, PUT_OFF, PUT_LEN, MPI_BYTE, win);
        MPI_Win_unlock(right, win);
        MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
        MPI_Get(dst + 1, GET_LEN, MPI_BYTE, left, GET_OFF, GET_LEN, MPI_BYTE, win);
        MPI_Win_unlock(left, win);
        int bad = 0;
        for (size_t i = 0; i < GET_LEN; i++)
            bad += dst[i + 1] != pattern(left, round, GET_OFF + i);
        CHECK(bad == 0 && dst[0] == 0xa5 && dst[GET_LEN + 1] == 0xa5, "mode %d: %d bytes of the get wrong", mode, bad);
    } else if (mode == 1) {
        spin_ms(200);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mode == 2 || rank == 1 % size) {
        int bad = 0;
        for (size_t i = 0; i < WIN; i++) {
            unsigned char want = i >= PUT_OFF && i < PUT_OFF + PUT_LEN ? pattern(left + 100, round, i - PUT_OFF)
                                                                       : pattern(rank, round, i);
            bad += mem[i] != want;
        }
        CHECK(bad == 0, "mode %d: %d bytes of the window wrong after the put", mode, bad);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(src);
    free(dst);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char *mem = malloc(WIN);
    MPI_Win win;
    MPI_Win_create(mem, WIN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (int round = 0; round < 3; round++)
        for (int mode = 0; mode < 3; mode++)
            round_trip(win, mem, round, mode);
    MPI_Win_free(&win);
    free(mem);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
