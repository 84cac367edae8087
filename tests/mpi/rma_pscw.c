/* General active target synchronization (MPI_Win_post, MPI_Win_start, MPI_Win_complete, MPI_Win_wait):
 * (1) every rank exposes its window to its ring neighbours and accesses theirs at once, with MPI_Put into
 * the neighbour's slot for this rank, MPI_Get of the neighbour's constant block and MPI_Accumulate (SUM)
 * into one counter both neighbours add to; (2) a subset: ranks r with r % 3 == 0 are targets only, the
 * others origins only, each origin putting, accumulating and getting at every target, the targets ending
 * their exposure with an MPI_Win_test loop instead of MPI_Win_wait (and doing local work meanwhile); (3)
 * an epoch of gets only, posted with MPI_MODE_NOPUT. The groups are built without duplicates (at 1 and 2
 * ranks both neighbours are one rank). Every value is compared with what the test computes. Prints
 * "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

enum { N = 300 };           /* ints per slot: 1200 bytes */
enum { CONST_AT = 0 };      /* slot of the constant block others read */
enum { COUNTER_AT = 1 };    /* slot of the counter others add to (N ints) */
enum { SLOTS_AT = 2 };      /* slot 2 + r: what rank r put */

static int rank, size;
static int *mem;
static MPI_Win win;
static MPI_Group world_group;

static int constant(int owner, int i) { return owner * 1000 + i; }
static int put_value(int from, int to, int i) { return from * 100000 + to * 1000 + i + 1; }
static int add_value(int from, int i) { return from + 1 + i % 7; }

static int *slot(int s) { return mem + (size_t)s * N; }

static void reset(void)
{
    for (int i = 0; i < N; i++) {
        slot(CONST_AT)[i] = constant(rank, i);
        slot(COUNTER_AT)[i] = 0;
    }
    for (int r = 0; r < size; r++)
        for (int i = 0; i < N; i++)
            slot(SLOTS_AT + r)[i] = -1;
}

/* The group of the distinct ranks in list. */
static MPI_Group group_of(const int *list, int n)
{
    int uniq[8], nu = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < nu; j++)
            seen |= uniq[j] == list[i];
        if (!seen)
            uniq[nu++] = list[i];
    }
    MPI_Group g;
    MPI_Group_incl(world_group, nu, uniq, &g);
    return g;
}

/* The origin buffers of an epoch stay untouched until MPI_Win_complete: one per target, freed after. */
static int *pending[64];

/* The origin's side against each of targets (distinct): put, accumulate, get into got[k]. */
static void access(const int *targets, int nt, int *got)
{
    for (int k = 0; k < nt; k++) {
        int t = targets[k];
        int *o = pending[k] = malloc(sizeof(int) * 2 * N);
        for (int i = 0; i < N; i++) {
            o[i] = put_value(rank, t, i);
            o[N + i] = add_value(rank, i);
        }
        MPI_Put(o, N, MPI_INT, t, (MPI_Aint)(SLOTS_AT + rank) * N, N, MPI_INT, win);
        MPI_Accumulate(o + N, N, MPI_INT, t, (MPI_Aint)COUNTER_AT * N, N, MPI_INT, MPI_SUM, win);
        MPI_Get(got + (size_t)k * N, N, MPI_INT, t, (MPI_Aint)CONST_AT * N, N, MPI_INT, win);
    }
}

static void check_origin(const char *what, const int *targets, int nt, int *got)
{
    for (int k = 0; k < nt; k++) {
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += got[(size_t)k * N + i] != constant(targets[k], i);
        CHECK(bad == 0, "%s: %d elements got from rank %d wrong", what, bad, targets[k]);
        free(pending[k]);
    }
}

static void check_target(const char *what, const int *origins, int no)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int k = 0; k < no; k++)
            want += add_value(origins[k], i);
        bad += slot(COUNTER_AT)[i] != want;
    }
    CHECK(bad == 0, "%s: %d counter elements wrong", what, bad);
    for (int r = 0; r < size; r++) {
        int from = 0;
        for (int k = 0; k < no; k++)
            from |= origins[k] == r;
        bad = 0;
        for (int i = 0; i < N; i++)
            bad += slot(SLOTS_AT + r)[i] != (from ? put_value(r, rank, i) : -1);
        CHECK(bad == 0, "%s: %d elements of the slot of rank %d wrong", what, bad, r);
    }
}

/* The distinct ranks of list, in place; returns their count. */
static int distinct(int *list, int n)
{
    int nu = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < nu; j++)
            seen |= list[j] == list[i];
        if (!seen)
            list[nu++] = list[i];
    }
    return nu;
}

static void ring(void)
{
    int nb[2] = {(rank + size - 1) % size, (rank + 1) % size};
    int n = distinct(nb, 2);
    MPI_Group g = group_of(nb, n);
    int *got = malloc(sizeof(int) * 2 * N);
    reset();
    /* The local stores above precede the exposure epoch; MPI_Win_post orders them before the peers'
     * accesses (separate model: post synchronizes the public copy). Post before start: start may block
     * until the matching posts, and every rank does both. */
    MPI_Win_post(g, 0, win);
    MPI_Win_start(g, 0, win);
    access(nb, n, got);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    check_origin("ring", nb, n, got);
    check_target("ring", nb, n);
    MPI_Group_free(&g);
    free(got);
}

/* Targets r % 3 == 0, origins the rest: each side's group is the other set. */
static void subset(void)
{
    int targets[64], origins[64], nt = 0, no = 0;
    for (int r = 0; r < size; r++) {
        if (r % 3 == 0)
            targets[nt++] = r;
        else
            origins[no++] = r;
    }
    reset();
    /* The barrier orders every rank's reset before any access: a rank that only originates starts its
     * epoch once the targets posted, and posting follows their own reset. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (no == 0)
        return; /* alone: no origin, so no epoch */
    if (rank % 3 == 0) {
        MPI_Group g;
        MPI_Group_incl(world_group, no, origins, &g);
        MPI_Win_post(g, 0, win);
        /* Local work while exposed (on memory outside the window), then poll MPI_Win_test until every
         * origin completed: test must neither block nor return true early. */
        volatile long work = 0;
        int flag = 0, polls = 0;
        for (int i = 0; i < 100000; i++)
            work += i;
        while (!flag) {
            MPI_Win_test(win, &flag);
            polls++;
        }
        EXPECT(work == 4999950000L && polls >= 1);
        check_target("subset", origins, no);
        MPI_Group_free(&g);
    } else {
        MPI_Group g;
        MPI_Group_incl(world_group, nt, targets, &g);
        int *got = malloc(sizeof(int) * (size_t)nt * N);
        MPI_Win_start(g, 0, win);
        access(targets, nt, got);
        MPI_Win_complete(win);
        check_origin("subset", targets, nt, got);
        MPI_Group_free(&g);
        free(got);
    }
}

/* Gets only: exposures asserting MPI_MODE_NOPUT. Each rank reads both neighbours' counters, as the last
 * epochs left them. */
static void gets_only(const int *last_counter)
{
    int nb[2] = {(rank + size - 1) % size, (rank + 1) % size};
    int n = distinct(nb, 2);
    MPI_Group g = group_of(nb, n);
    int got[2][N], want[2][N];
    for (int k = 0; k < n; k++)
        for (int i = 0; i < N; i++)
            got[k][i] = -5;
    /* Each neighbour sends its counter (what the read must return) by point-to-point; nonblocking, as
     * in a ring each rank's left neighbour is busy with its own left. */
    MPI_Request req[4];
    for (int k = 0; k < n; k++) {
        MPI_Irecv(want[k], N, MPI_INT, nb[k], 7, MPI_COMM_WORLD, &req[2 * k]);
        MPI_Isend(last_counter, N, MPI_INT, nb[k], 7, MPI_COMM_WORLD, &req[2 * k + 1]);
    }
    MPI_Status st[4];
    MPI_Waitall(2 * n, req, st);
    MPI_Win_post(g, MPI_MODE_NOPUT, win);
    MPI_Win_start(g, 0, win);
    for (int k = 0; k < n; k++)
        MPI_Get(got[k], N, MPI_INT, nb[k], (MPI_Aint)COUNTER_AT * N, N, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    for (int k = 0; k < n; k++) {
        int bad = 0;
        for (int i = 0; i < N; i++)
            bad += got[k][i] != want[k][i];
        CHECK(bad == 0, "gets only: %d counter elements of rank %d wrong", bad, nb[k]);
    }
    MPI_Group_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    MPI_Win_allocate((MPI_Aint)sizeof(int) * N * (SLOTS_AT + size), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &mem, &win);
    for (int round = 0; round < 3; round++) {
        ring();
        subset();
    }
    int counter[N];
    for (int i = 0; i < N; i++)
        counter[i] = slot(COUNTER_AT)[i];
    MPI_Barrier(MPI_COMM_WORLD);
    gets_only(counter);
    MPI_Win_free(&win);
    MPI_Group_free(&world_group);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
