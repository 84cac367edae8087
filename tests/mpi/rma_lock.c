/* Passive target synchronization and the atomic operations. (1) A counter on rank 0 that every rank adds
 * to ITER times with MPI_Accumulate(SUM) under MPI_Win_lock(MPI_LOCK_SHARED): the total must be exact.
 * (2) A counter on the last rank that every rank increments ITER times with MPI_Fetch_and_op under
 * MPI_Win_lock_all, each result made available by MPI_Win_flush: the results of all ranks together must
 * be 0..size*ITER-1, each once (fetch and add is atomic). (3) A mutex built from MPI_Compare_and_swap on
 * rank 0 protecting a read-modify-write (get, flush, put, flush) of a plain value on the last rank, which
 * is exact only if the mutex excludes. (4) MPI_Get_accumulate with MPI_REPLACE (an atomic swap: the old
 * values and the final one are the initial value and every rank's, each once) and MPI_NO_OP (an atomic
 * read). (5) MPI_Win_lock(MPI_LOCK_EXCLUSIVE) protecting a multi-element read-modify-write by get and put.
 * (6) Puts around the ring under lock_all with MPI_Win_flush_local (origin buffer reused right after),
 * MPI_Win_flush_local_all, MPI_Win_flush_all, and the target reading its memory after MPI_Win_sync and a
 * barrier, as the standard's examples do. (7) A target busy in a loop of about 0.5 s that makes no MPI
 * call while every other rank locks it, puts and unlocks: the program must finish and the data be right
 * after a barrier, whether the origins' epochs completed during the loop or only after it. A rank reads
 * its own window under a lock on itself (the separate memory model allows no less). (8) Rank 0 polls a
 * flag in its own window under exclusive locks on itself, with no other MPI call between them, until the
 * last rank set it under an exclusive lock of its own (MPICH's linked_list_bench_lock_excl does so): the
 * waiting origin must get the lock between the target's own epochs. Prints "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

enum { ITER = 50, CS_ITER = 10, K = 64, P = 500 };
/* The window's ints. */
enum { COUNTER_A, COUNTER_F, MUTEX, VALUE, SWAP, READ_ONLY, FLAG, ARRAY = 8, RING = ARRAY + K };
#define BUSY_AT(r) (RING + 2 * P + (r) * P)

static int rank, size, last;
static int *mem;
static MPI_Win win;

static void read_own(int *out, int at, int n)
{
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    for (int i = 0; i < n; i++)
        out[i] = mem[at + i];
    MPI_Win_unlock(rank, win);
}

static void shared_lock_counter(void)
{
    int one = 1;
    for (int i = 0; i < ITER; i++) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Accumulate(&one, 1, MPI_INT, 0, COUNTER_A, 1, MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int total = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&total, 1, MPI_INT, 0, COUNTER_A, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    CHECK(total == size * ITER, "shared-lock accumulate: counter %d, expected %d", total, size * ITER);
}

static int cmp_int(const void *a, const void *b) { return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b); }

static void fetch_and_op_counter(void)
{
    int one = 1, got[ITER];
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ITER; i++) {
        MPI_Fetch_and_op(&one, &got[i], MPI_INT, last, COUNTER_F, MPI_SUM, win);
        MPI_Win_flush(last, win);
    }
    MPI_Win_unlock_all(win);
    int *all = rank == 0 ? malloc(sizeof(int) * (size_t)size * ITER) : NULL;
    MPI_Gather(got, ITER, MPI_INT, all, ITER, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        qsort(all, (size_t)size * ITER, sizeof(int), cmp_int);
        int bad = 0;
        for (int i = 0; i < size * ITER; i++)
            bad += all[i] != i;
        CHECK(bad == 0, "fetch_and_op: %d of the fetched values are not 0..%d each once", bad, size * ITER - 1);
        free(all);
    }
    /* Each rank's own results grow: its increments are ordered (flush after each). */
    for (int i = 1; i < ITER; i++)
        CHECK(got[i] > got[i - 1], "fetch_and_op: result %d (%d) not above the one before (%d)", i, got[i], got[i - 1]);
}

/* The mutex: 0 when free, owner + 1 when held. Acquire spins on compare-and-swap; release swaps back. */
static void mutex_acquire(void)
{
    int want = rank + 1, free_v = 0, old = -1;
    do {
        MPI_Compare_and_swap(&want, &free_v, &old, MPI_INT, 0, MUTEX, win);
        MPI_Win_flush(0, win);
    } while (old != 0);
}

static void mutex_release(void)
{
    int mine = rank + 1, free_v = 0, old = -1;
    MPI_Compare_and_swap(&free_v, &mine, &old, MPI_INT, 0, MUTEX, win);
    MPI_Win_flush(0, win);
    CHECK(old == mine, "mutex: released a mutex holding %d, not this rank's %d", old, mine);
}

static void cas_mutex(void)
{
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < CS_ITER; i++) {
        mutex_acquire();
        /* Not atomic: without the mutex two ranks would read the same value and one increment be lost. */
        int v = -1;
        MPI_Get(&v, 1, MPI_INT, last, VALUE, 1, MPI_INT, win);
        MPI_Win_flush(last, win);
        v++;
        MPI_Put(&v, 1, MPI_INT, last, VALUE, 1, MPI_INT, win);
        MPI_Win_flush(last, win);
        mutex_release();
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int v = -1, m = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, last, 0, win);
    MPI_Get(&v, 1, MPI_INT, last, VALUE, 1, MPI_INT, win);
    MPI_Win_unlock(last, win);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&m, 1, MPI_INT, 0, MUTEX, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    CHECK(v == size * CS_ITER, "CAS mutex: value %d, expected %d (an increment was lost)", v, size * CS_ITER);
    CHECK(m == 0, "CAS mutex: left at %d, not free", m);
}

static void get_accumulate(void)
{
    /* Swap this rank's value (1000 + rank) into rank 0's SWAP, initially 7, and read READ_ONLY (initially
     * 42) atomically with MPI_NO_OP, whose origin buffer is ignored. */
    int mine = 1000 + rank, old = -1, ro = -1, ignored = -99;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get_accumulate(&mine, 1, MPI_INT, &old, 1, MPI_INT, 0, SWAP, 1, MPI_INT, MPI_REPLACE, win);
    MPI_Get_accumulate(&ignored, 1, MPI_INT, &ro, 1, MPI_INT, 0, READ_ONLY, 1, MPI_INT, MPI_NO_OP, win);
    MPI_Win_unlock(0, win);
    CHECK(ro == 42, "get_accumulate NO_OP: read %d, expected 42", ro);
    int *olds = rank == 0 ? malloc(sizeof(int) * (size_t)(size + 1)) : NULL;
    MPI_Gather(&old, 1, MPI_INT, olds, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        read_own(&olds[size], SWAP, 1);
        int ro_now;
        read_own(&ro_now, READ_ONLY, 1);
        CHECK(ro_now == 42, "get_accumulate NO_OP changed the target to %d", ro_now);
        /* Every value that was ever there, each exactly once: 7 and 1000..1000+size-1. */
        qsort(olds, (size_t)size + 1, sizeof(int), cmp_int);
        int bad = olds[0] != 7;
        for (int r = 0; r < size; r++)
            bad += olds[r + 1] != 1000 + r;
        CHECK(bad == 0, "get_accumulate REPLACE: the swapped-out values and the final one are not 7 and every rank's once");
        free(olds);
    }
}

static void exclusive_rmw(void)
{
    int buf[K];
    for (int i = 0; i < ITER / 5; i++) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(buf, K, MPI_INT, 0, ARRAY, K, MPI_INT, win);
        MPI_Win_flush(0, win);
        for (int j = 0; j < K; j++)
            buf[j] += rank + 1 + j;
        MPI_Put(buf, K, MPI_INT, 0, ARRAY, K, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int got[K], bad = 0;
        read_own(got, ARRAY, K);
        for (int j = 0; j < K; j++)
            bad += got[j] != j + (ITER / 5) * (size * (size + 1) / 2 + size * j);
        CHECK(bad == 0, "exclusive read-modify-write: %d of %d elements wrong (an update was lost)", bad, K);
    }
}

static void ring_flushes(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int buf[P];
    MPI_Win_lock_all(0, win);
    /* First half: put, flush_local, then reuse the buffer at once for the second put. */
    for (int i = 0; i < P; i++)
        buf[i] = rank * 1000 + i;
    MPI_Put(buf, P, MPI_INT, right, RING, P, MPI_INT, win);
    MPI_Win_flush_local(right, win);
    for (int i = 0; i < P; i++)
        buf[i] = -(rank * 1000 + i);
    MPI_Put(buf, P, MPI_INT, right, RING + P, P, MPI_INT, win);
    MPI_Win_flush_local_all(win);
    /* The buffer is free again; only flush_all completes the puts at the targets. */
    for (int i = 0; i < P; i++)
        buf[i] = 0x5a5a;
    MPI_Win_flush_all(win);
    /* Every rank's puts are complete at their targets; MPI_Win_sync then makes them visible in this
     * rank's private copy (the standard's pattern for reading one's window inside a lock_all epoch). */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    int bad = 0;
    for (int i = 0; i < P; i++) {
        bad += mem[RING + i] != left * 1000 + i;
        bad += mem[RING + P + i] != -(left * 1000 + i);
    }
    MPI_Win_unlock_all(win);
    CHECK(bad == 0, "ring with flushes: %d elements from rank %d wrong", bad, left);
}

static void busy_target(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        /* About 0.5 s without an MPI call: only a progress engine that does not need this rank, or the
         * barrier below, lets the origins' epochs end. */
        double t0 = MPI_Wtime();
        volatile unsigned long spin = 0;
        while (MPI_Wtime() - t0 < 0.5)
            for (int i = 0; i < 10000; i++)
                spin += (unsigned long)i;
        (void)spin;
    } else {
        int buf[P];
        for (int i = 0; i < P; i++)
            buf[i] = rank * 100000 + i;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(buf, P, MPI_INT, 0, BUSY_AT(rank), P, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int *got = malloc(sizeof(int) * (size_t)size * P), bad = 0;
        read_own(got, BUSY_AT(0), size * P);
        for (int r = 1; r < size; r++)
            for (int i = 0; i < P; i++)
                bad += got[r * P + i] != r * 100000 + i;
        for (int i = 0; i < P; i++)
            bad += got[i] != -3; /* nobody writes rank 0's own slot */
        CHECK(bad == 0, "busy target: %d elements wrong", bad);
        free(got);
    }
}

static void self_lock_poll(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && size > 1) {
        int flag = 0;
        long polls = 0;
        while (!flag) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            MPI_Get(&flag, 1, MPI_INT, 0, FLAG, 1, MPI_INT, win);
            MPI_Win_unlock(0, win);
            polls++;
        }
        CHECK(flag == 77 && polls > 0, "self-lock poll: flag %d", flag);
    } else if (rank == last) {
        int set = 77;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&set, 1, MPI_INT, 0, FLAG, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    last = size - 1;
    int n = BUSY_AT(size);
    /* Whole 4 KiB pages: MPICH 4.0.2 misplaces accesses in MPI_Win_allocate windows of other sizes (see
     * rma_requests.c). */
    MPI_Aint bytes = ((MPI_Aint)sizeof(int) * n + 4095) / 4096 * 4096;
    MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    /* Local stores to the window go inside a lock on this rank; the barrier orders them before anyone's
     * access. */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    for (int i = 0; i < n; i++)
        mem[i] = i >= BUSY_AT(0) ? -3 : 0;
    mem[SWAP] = 7;
    mem[READ_ONLY] = 42;
    for (int j = 0; j < K; j++)
        mem[ARRAY + j] = j;
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);

    shared_lock_counter();
    fetch_and_op_counter();
    cas_mutex();
    get_accumulate();
    exclusive_rmw();
    ring_flushes();
    busy_target();
    self_lock_poll();

    MPI_Win_free(&win);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
