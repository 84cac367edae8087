/* The large-count (_c) collectives of MPI 4 with counts and displacements beyond INT_MAX, and at ordinary
 * sizes against their int calls.
 *
 * Large: one buffer of 2^31 + 4096 bytes per rank. MPI_Bcast_c of all of it (blocking, then
 * MPI_Ibcast_c and a persistent MPI_Bcast_init_c from other roots), MPI_Allgather_c and MPI_Gather_c
 * of size blocks that fill it (one block of more than INT_MAX bytes on a singleton), MPI_Allreduce_c
 * with MPI_BOR of all of it (each rank holds some bits of every byte), and the v and w forms
 * (Gatherv, Scatterv, Allgatherv, Alltoallv, Ialltoallv, Alltoallw, Neighbor_allgatherv) with blocks at
 * displacements beyond INT_MAX. Contents are checked at both ends, around byte 2^31 and at a sample.
 * A singleton also runs MPI_Reduce_local_c on all of it.
 *
 * Ordinary sizes: every collective's _c call (blocking, nonblocking, persistent) gives what its int call
 * gives, byte for byte. Prints "coll_bigcount: ok" on rank 0 when all passed. */
#include <limits.h>
#include "axon_test.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

#define OK(call) CHECK((call) == MPI_SUCCESS, "%s failed", #call)

#define BIG ((int64_t)INT_MAX + 4097) /* 2^31 + 4096 bytes */
#define D ((int64_t)INT_MAX + 1)      /* where the v forms' blocks lie: 2^31 */
#define SAMPLE 4099                   /* a prime: the sample walks every residue of the words */

/* The bytes of the pattern, 8 at a time: neighbours differ, and a word depends on its offset's high bits
 * too, so a piece landing 2^31 bytes off shows. */
static uint64_t word(uint64_t k)
{
    return (k ^ k >> 28) * 0x9e3779b97f4a7c15ull + 1;
}

static unsigned char pattern(int64_t i)
{
    return (unsigned char)(word((uint64_t)i >> 3) >> 8 * (i & 7));
}

static void fill(unsigned char *p, int64_t n)
{
    for (int64_t k = 0; k < n / 8; k++) {
        uint64_t w = word((uint64_t)k);
        memcpy(p + 8 * k, &w, 8);
    }
    for (int64_t i = n / 8 * 8; i < n; i++)
        p[i] = pattern(i);
}

/* Calls fn on the checked offsets below n: both ends, around 2^31, and a sample. */
#define FOR_CHECKED(i, n)                                                                            \
    for (int64_t pass_ = 0; pass_ < 4; pass_++)                                                      \
        for (int64_t i = pass_ == 0 ? 0 : pass_ == 1 ? D - 2048 : pass_ == 2 ? (n) - 4096 : 0,         \
                     end_ = pass_ == 0 ? 4096 : pass_ == 1 ? D + 2048 : (n);                         \
             i < end_ && i < (n); i += pass_ == 3 ? SAMPLE : 1)                                      \
            if (i >= 0)

/* Poisons the checked offsets in [from, to), so a collective that wrote nothing there fails. */
static void poison(unsigned char *p, int64_t n, int64_t from, int64_t to)
{
    FOR_CHECKED(i, n)
    if (i < from || i >= to)
        p[i] = (unsigned char)~pattern(i);
}

static void verify(const char *what, const unsigned char *p, int64_t n)
{
    int64_t bad = 0;
    FOR_CHECKED(i, n)
    if (p[i] != pattern(i) && bad++ < 3)
        CHECK(0, "%s: byte %lld is 0x%02x, expected 0x%02x", what, (long long)i, p[i], pattern(i));
    CHECK(bad == 0, "%s: %lld checked bytes differ", what, (long long)bad);
}

static void wait_one(MPI_Request *req)
{
    OK(MPI_Wait(req, MPI_STATUS_IGNORE));
}

/* ---- beyond INT_MAX ------------------------------------------------------------------------------- */

static void large_bcast(unsigned char *big)
{
    if (rank == 0)
        fill(big, BIG);
    else
        poison(big, BIG, 0, 0);
    OK(MPI_Bcast_c(big, BIG, MPI_BYTE, 0, MPI_COMM_WORLD));
    verify("MPI_Bcast_c", big, BIG);

    /* Every rank holds the pattern now: the others' checked bytes are poisoned again before each call. */
    MPI_Request req;
    int root = size - 1;
    if (rank != root)
        poison(big, BIG, 0, 0);
    OK(MPI_Ibcast_c(big, BIG, MPI_BYTE, root, MPI_COMM_WORLD, &req));
    wait_one(&req);
    verify("MPI_Ibcast_c", big, BIG);

    root = size > 1 ? 1 : 0;
    OK(MPI_Bcast_init_c(big, BIG, MPI_BYTE, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req));
    if (rank != root)
        poison(big, BIG, 0, 0);
    OK(MPI_Start(&req));
    wait_one(&req);
    OK(MPI_Request_free(&req));
    verify("MPI_Bcast_init_c", big, BIG);
}

/* size blocks of block bytes fill the buffer; rank r's is at r * block, in place. */
static void large_gathers(unsigned char *big)
{
    int64_t block = BIG / size;
    poison(big, size * block, rank * block, (rank + 1) * block);
    OK(MPI_Allgather_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, big, block, MPI_BYTE, MPI_COMM_WORLD));
    verify("MPI_Allgather_c", big, size * block);

    if (rank == 0)
        poison(big, size * block, 0, block);
    OK(MPI_Gather_c(rank == 0 ? MPI_IN_PLACE : big + rank * block, block, MPI_BYTE, big, block, MPI_BYTE, 0,
                    MPI_COMM_WORLD));
    if (rank == 0)
        verify("MPI_Gather_c", big, size * block);
}

/* Rank r keeps the bits j of every byte with j % size == r; their MPI_BOR is the pattern again. */
static void large_allreduce(unsigned char *big)
{
    unsigned char mask = 0;
    for (int j = 0; j < 8; j++)
        if (j % size == rank)
            mask |= (unsigned char)(1u << j);
    for (int64_t i = 0; i < BIG; i++)
        big[i] &= mask;
    OK(MPI_Allreduce_c(MPI_IN_PLACE, big, BIG, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD));
    verify("MPI_Allreduce_c", big, BIG);
}

/* A block of 64 bytes, each the value v, at p. */
static void block_set(unsigned char *p, int v)
{
    memset(p, v, 64);
}

static void block_check(const char *what, const unsigned char *p, int v, int from)
{
    int bad = 0;
    for (int k = 0; k < 64; k++)
        bad += p[k] != (unsigned char)v;
    CHECK(bad == 0, "%s: the block from rank %d holds %d wrong bytes (0x%02x, expected 0x%02x)", what, from, bad,
          p[0], (unsigned char)v);
}

/* The v and w forms with blocks beyond byte 2^31: sent from big + D + 2048 + 64 j, received at
 * big + 8 + D + 64 j (a receive buffer apart from the send buffer, so that they do not alias). */
static void large_displs(unsigned char *big)
{
    int m = size > 2 ? size : 2; /* entries: a rank each, or the ring's two neighbors */
    MPI_Count *counts = malloc(sizeof(MPI_Count) * m);
    MPI_Aint *sdispls = malloc(sizeof(MPI_Aint) * m), *rdispls = malloc(sizeof(MPI_Aint) * m);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * m);
    unsigned char *send = big + D + 2048, *recv = big + 8 + D;
    for (int j = 0; j < m; j++) {
        counts[j] = 64;
        sdispls[j] = D + 2048 + 64 * j;
        rdispls[j] = D + 64 * j;
        types[j] = MPI_BYTE;
    }

    /* Alltoallv_c, Ialltoallv_c, Alltoallw_c: rank r's block to j holds 16 r + j (+ 1, + 2). */
    for (int form = 0; form < 3; form++) {
        const char *what = form == 0 ? "MPI_Alltoallv_c" : form == 1 ? "MPI_Ialltoallv_c" : "MPI_Alltoallw_c";
        for (int j = 0; j < size; j++) {
            block_set(send + 64 * j, 16 * rank + j + form);
            block_set(recv + 64 * j, 0xee);
        }
        if (form == 0) {
            OK(MPI_Alltoallv_c(big, counts, sdispls, MPI_BYTE, big + 8, counts, rdispls, MPI_BYTE, MPI_COMM_WORLD));
        } else if (form == 1) {
            MPI_Request req;
            OK(MPI_Ialltoallv_c(big, counts, sdispls, MPI_BYTE, big + 8, counts, rdispls, MPI_BYTE, MPI_COMM_WORLD,
                                &req));
            wait_one(&req);
        } else {
            OK(MPI_Alltoallw_c(big, counts, sdispls, types, big + 8, counts, rdispls, types, MPI_COMM_WORLD));
        }
        for (int j = 0; j < size; j++)
            block_check(what, recv + 64 * j, 16 * j + rank + form, j);
    }

    /* Gatherv_c to rank 0 and Allgatherv_c: rank r's block holds r + 1 (+ 0x40); the counts and
     * displacements are the receive side's. */
    block_set(send, rank + 1);
    for (int j = 0; j < size; j++)
        block_set(recv + 64 * j, 0xee);
    OK(MPI_Gatherv_c(send, 64, MPI_BYTE, big + 8, rank == 0 ? counts : NULL, rank == 0 ? rdispls : NULL, MPI_BYTE,
                     0, MPI_COMM_WORLD));
    for (int j = 0; rank == 0 && j < size; j++)
        block_check("MPI_Gatherv_c", recv + 64 * j, j + 1, j);
    block_set(send, rank + 0x41);
    OK(MPI_Allgatherv_c(send, 64, MPI_BYTE, big + 8, counts, rdispls, MPI_BYTE, MPI_COMM_WORLD));
    for (int j = 0; j < size; j++)
        block_check("MPI_Allgatherv_c", recv + 64 * j, j + 0x41, j);

    /* Scatterv_c from the last rank: block j holds 0x80 + j. */
    int root = size - 1;
    for (int j = 0; j < size; j++)
        block_set(send + 64 * j, 0x80 + j);
    unsigned char got[64];
    memset(got, 0xee, sizeof(got));
    OK(MPI_Scatterv_c(big, rank == root ? counts : NULL, rank == root ? sdispls : NULL, MPI_BYTE, got, 64, MPI_BYTE,
                      root, MPI_COMM_WORLD));
    block_check("MPI_Scatterv_c", got, 0x80 + rank, root);

    /* Neighbor_allgatherv_c on a periodic ring: the left neighbor's block (0x20 + rank) at D, the right's
     * at D + 64. */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    block_set(send, 0x20 + rank);
    block_set(recv, 0xee);
    block_set(recv + 64, 0xee);
    OK(MPI_Neighbor_allgatherv_c(send, 64, MPI_BYTE, big + 8, counts, rdispls, MPI_BYTE, ring));
    block_check("MPI_Neighbor_allgatherv_c", recv, 0x20 + left, left);
    block_check("MPI_Neighbor_allgatherv_c", recv + 64, 0x20 + right, right);
    MPI_Comm_free(&ring);
    free(counts), free(sdispls), free(rdispls), free(types);
    for (int64_t i = D; i < D + 2048 + 64 * m; i++) /* the pattern again, for the allreduce */
        big[i] = pattern(i);
}

/* MPI_Reduce_local_c of all of big into a zeroed buffer with MPI_BOR: the pattern. */
static void large_reduce_local(const unsigned char *big)
{
    unsigned char *out = calloc((size_t)BIG, 1);
    CHECK(out, "no memory for MPI_Reduce_local_c's buffer");
    if (!out)
        return;
    OK(MPI_Reduce_local_c(big, out, BIG, MPI_BYTE, MPI_BOR));
    verify("MPI_Reduce_local_c", out, BIG);
    free(out);
}

/* ---- ordinary sizes: each _c call against its int call -------------------------------------------- */

#define K 5 /* ints per block */

/* Runs one form of a collective: 0 blocking, 1 nonblocking (waited for), 2 persistent (started once,
 * waited for, freed). The three calls are named; their arguments are the blocking call's. */
#define FORMS(what, form, blocking, nonblocking, persistent, ...)                                   \
    do {                                                                                             \
        MPI_Request req_;                                                                            \
        int rc_ = (form) == 0   ? blocking(__VA_ARGS__)                                              \
                  : (form) == 1 ? nonblocking(__VA_ARGS__, &req_)                                    \
                                : persistent(__VA_ARGS__, MPI_INFO_NULL, &req_);                     \
        CHECK(rc_ == MPI_SUCCESS, "%s (form %d) failed with %d", what, form, rc_);                   \
        if (rc_ == MPI_SUCCESS && (form) == 2)                                                       \
            OK(MPI_Start(&req_));                                                                    \
        if (rc_ == MPI_SUCCESS && (form) > 0)                                                        \
            wait_one(&req_);                                                                         \
        if (rc_ == MPI_SUCCESS && (form) == 2)                                                       \
            OK(MPI_Request_free(&req_));                                                             \
    } while (0)

/* The int call's and the _c call's results, compared. */
static int ref[1024], got[1024];

static void same(const char *what, int form)
{
    CHECK(memcmp(ref, got, sizeof(ref)) == 0, "%s (form %d): the _c call's result differs from the int call's",
          what, form);
}

static void reset(void)
{
    for (int i = 0; i < 1024; i++)
        ref[i] = got[i] = -7;
}

static void small_calls(void)
{
    int n = size, in[1024];
    int icounts[64], vcounts[64], vdispls[64], scounts[64], sdispls[64];
    MPI_Count ccounts[64], cvcounts[64], cscounts[64];
    MPI_Aint cvdispls[64], bytes[64], csdispls[64];
    int ibytes[64];
    MPI_Datatype types[64];
    for (int i = 0; i < 1024; i++)
        in[i] = 1000 * rank + i;
    /* Uniform blocks (counts K at K j) and uneven ones (j + 1 ints, in reverse order with gaps). */
    for (int j = 0, at = 0; j < n; j++) {
        icounts[j] = K, ccounts[j] = K;
        ibytes[j] = (int)(K * j * sizeof(int)), bytes[j] = ibytes[j];
        types[j] = MPI_INT;
        int r = n - 1 - j;
        vcounts[r] = j + 1, vdispls[r] = at;
        cvcounts[r] = j + 1, cvdispls[r] = at;
        at += j + 2;
        /* Alltoallv: (rank + j) % 3 + 1 ints each way between rank and j, at 4 j. */
        scounts[j] = (rank + j) % 3 + 1, cscounts[j] = scounts[j];
        sdispls[j] = 4 * j, csdispls[j] = 4 * j;
    }

    for (int form = 0; form < 3; form++) {
        reset();
        memcpy(ref, in, K * sizeof(int));
        memcpy(got, in, K * sizeof(int));
        FORMS("MPI_Bcast", form, MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, ref, K, MPI_INT, n - 1, MPI_COMM_WORLD);
        FORMS("MPI_Bcast_c", form, MPI_Bcast_c, MPI_Ibcast_c, MPI_Bcast_init_c, got, K, MPI_INT, n - 1,
              MPI_COMM_WORLD);
        same("MPI_Bcast_c", form);

        reset();
        FORMS("MPI_Reduce", form, MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, in, ref, K, MPI_INT, MPI_SUM, 0,
              MPI_COMM_WORLD);
        FORMS("MPI_Reduce_c", form, MPI_Reduce_c, MPI_Ireduce_c, MPI_Reduce_init_c, in, got, K, MPI_INT, MPI_SUM, 0,
              MPI_COMM_WORLD);
        same("MPI_Reduce_c", form);

        reset();
        FORMS("MPI_Allreduce", form, MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, in, ref, K, MPI_INT, MPI_MAX,
              MPI_COMM_WORLD);
        FORMS("MPI_Allreduce_c", form, MPI_Allreduce_c, MPI_Iallreduce_c, MPI_Allreduce_init_c, in, got, K, MPI_INT,
              MPI_MAX, MPI_COMM_WORLD);
        same("MPI_Allreduce_c", form);

        reset();
        FORMS("MPI_Reduce_scatter_block", form, MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block,
              MPI_Reduce_scatter_block_init, in, ref, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        FORMS("MPI_Reduce_scatter_block_c", form, MPI_Reduce_scatter_block_c, MPI_Ireduce_scatter_block_c,
              MPI_Reduce_scatter_block_init_c, in, got, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        same("MPI_Reduce_scatter_block_c", form);

        reset();
        FORMS("MPI_Reduce_scatter", form, MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init, in, ref,
              vcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        FORMS("MPI_Reduce_scatter_c", form, MPI_Reduce_scatter_c, MPI_Ireduce_scatter_c, MPI_Reduce_scatter_init_c,
              in, got, cvcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        same("MPI_Reduce_scatter_c", form);

        reset();
        FORMS("MPI_Scan", form, MPI_Scan, MPI_Iscan, MPI_Scan_init, in, ref, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        FORMS("MPI_Scan_c", form, MPI_Scan_c, MPI_Iscan_c, MPI_Scan_init_c, in, got, K, MPI_INT, MPI_SUM,
              MPI_COMM_WORLD);
        same("MPI_Scan_c", form);

        reset();
        FORMS("MPI_Exscan", form, MPI_Exscan, MPI_Iexscan, MPI_Exscan_init, in, ref, K, MPI_INT, MPI_SUM,
              MPI_COMM_WORLD);
        FORMS("MPI_Exscan_c", form, MPI_Exscan_c, MPI_Iexscan_c, MPI_Exscan_init_c, in, got, K, MPI_INT, MPI_SUM,
              MPI_COMM_WORLD);
        same("MPI_Exscan_c", form);

        reset();
        FORMS("MPI_Gather", form, MPI_Gather, MPI_Igather, MPI_Gather_init, in, K, MPI_INT, ref, K, MPI_INT, 0,
              MPI_COMM_WORLD);
        FORMS("MPI_Gather_c", form, MPI_Gather_c, MPI_Igather_c, MPI_Gather_init_c, in, K, MPI_INT, got, K, MPI_INT,
              0, MPI_COMM_WORLD);
        same("MPI_Gather_c", form);

        reset();
        FORMS("MPI_Gatherv", form, MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, in, vcounts[rank], MPI_INT, ref,
              vcounts, vdispls, MPI_INT, 0, MPI_COMM_WORLD);
        FORMS("MPI_Gatherv_c", form, MPI_Gatherv_c, MPI_Igatherv_c, MPI_Gatherv_init_c, in, cvcounts[rank], MPI_INT,
              got, cvcounts, cvdispls, MPI_INT, 0, MPI_COMM_WORLD);
        same("MPI_Gatherv_c", form);

        reset();
        FORMS("MPI_Scatter", form, MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, in, K, MPI_INT, ref, K, MPI_INT,
              n - 1, MPI_COMM_WORLD);
        FORMS("MPI_Scatter_c", form, MPI_Scatter_c, MPI_Iscatter_c, MPI_Scatter_init_c, in, K, MPI_INT, got, K,
              MPI_INT, n - 1, MPI_COMM_WORLD);
        same("MPI_Scatter_c", form);

        reset();
        FORMS("MPI_Scatterv", form, MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, in, vcounts, vdispls, MPI_INT,
              ref, vcounts[rank], MPI_INT, n - 1, MPI_COMM_WORLD);
        FORMS("MPI_Scatterv_c", form, MPI_Scatterv_c, MPI_Iscatterv_c, MPI_Scatterv_init_c, in, cvcounts, cvdispls,
              MPI_INT, got, cvcounts[rank], MPI_INT, n - 1, MPI_COMM_WORLD);
        same("MPI_Scatterv_c", form);

        reset();
        FORMS("MPI_Allgather", form, MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, in, K, MPI_INT, ref, K,
              MPI_INT, MPI_COMM_WORLD);
        FORMS("MPI_Allgather_c", form, MPI_Allgather_c, MPI_Iallgather_c, MPI_Allgather_init_c, in, K, MPI_INT, got,
              K, MPI_INT, MPI_COMM_WORLD);
        same("MPI_Allgather_c", form);

        reset();
        FORMS("MPI_Allgatherv", form, MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, in, vcounts[rank],
              MPI_INT, ref, vcounts, vdispls, MPI_INT, MPI_COMM_WORLD);
        FORMS("MPI_Allgatherv_c", form, MPI_Allgatherv_c, MPI_Iallgatherv_c, MPI_Allgatherv_init_c, in,
              cvcounts[rank], MPI_INT, got, cvcounts, cvdispls, MPI_INT, MPI_COMM_WORLD);
        same("MPI_Allgatherv_c", form);

        reset();
        FORMS("MPI_Alltoall", form, MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, in, K, MPI_INT, ref, K, MPI_INT,
              MPI_COMM_WORLD);
        FORMS("MPI_Alltoall_c", form, MPI_Alltoall_c, MPI_Ialltoall_c, MPI_Alltoall_init_c, in, K, MPI_INT, got, K,
              MPI_INT, MPI_COMM_WORLD);
        same("MPI_Alltoall_c", form);

        reset();
        FORMS("MPI_Alltoallv", form, MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, in, scounts, sdispls,
              MPI_INT, ref, scounts, sdispls, MPI_INT, MPI_COMM_WORLD);
        FORMS("MPI_Alltoallv_c", form, MPI_Alltoallv_c, MPI_Ialltoallv_c, MPI_Alltoallv_init_c, in, cscounts,
              csdispls, MPI_INT, got, cscounts, csdispls, MPI_INT, MPI_COMM_WORLD);
        same("MPI_Alltoallv_c", form);

        reset();
        FORMS("MPI_Alltoallw", form, MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, in, icounts, ibytes, types,
              ref, icounts, ibytes, types, MPI_COMM_WORLD);
        FORMS("MPI_Alltoallw_c", form, MPI_Alltoallw_c, MPI_Ialltoallw_c, MPI_Alltoallw_init_c, in, ccounts, bytes,
              types, got, ccounts, bytes, types, MPI_COMM_WORLD);
        same("MPI_Alltoallw_c", form);

        /* The neighborhood collectives on a periodic ring (two neighbors, the same rank twice at 1 and 2
         * ranks). */
        MPI_Comm ring;
        int dims[1] = {n}, periods[1] = {1};
        OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));

        reset();
        FORMS("MPI_Neighbor_allgather", form, MPI_Neighbor_allgather, MPI_Ineighbor_allgather,
              MPI_Neighbor_allgather_init, in, K, MPI_INT, ref, K, MPI_INT, ring);
        FORMS("MPI_Neighbor_allgather_c", form, MPI_Neighbor_allgather_c, MPI_Ineighbor_allgather_c,
              MPI_Neighbor_allgather_init_c, in, K, MPI_INT, got, K, MPI_INT, ring);
        same("MPI_Neighbor_allgather_c", form);

        /* Two neighbors: the first two entries of the uneven counts, at displacements 7 and 0. */
        int nic[2] = {3, 2}, nid[2] = {7, 0};
        MPI_Count ncc[2] = {3, 2};
        MPI_Aint ncd[2] = {7, 0}, nbytes[2] = {7 * sizeof(int), 0};
        MPI_Datatype ntypes[2] = {MPI_INT, MPI_INT};
        reset();
        FORMS("MPI_Neighbor_allgatherv", form, MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv,
              MPI_Neighbor_allgatherv_init, in, 3, MPI_INT, ref, (int[2]){3, 3}, nid, MPI_INT, ring);
        FORMS("MPI_Neighbor_allgatherv_c", form, MPI_Neighbor_allgatherv_c, MPI_Ineighbor_allgatherv_c,
              MPI_Neighbor_allgatherv_init_c, in, 3, MPI_INT, got, (MPI_Count[2]){3, 3}, ncd, MPI_INT, ring);
        same("MPI_Neighbor_allgatherv_c", form);

        reset();
        FORMS("MPI_Neighbor_alltoall", form, MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall,
              MPI_Neighbor_alltoall_init, in, K, MPI_INT, ref, K, MPI_INT, ring);
        FORMS("MPI_Neighbor_alltoall_c", form, MPI_Neighbor_alltoall_c, MPI_Ineighbor_alltoall_c,
              MPI_Neighbor_alltoall_init_c, in, K, MPI_INT, got, K, MPI_INT, ring);
        same("MPI_Neighbor_alltoall_c", form);

        /* Block 0 goes to the left neighbor, block 1 to the right; slot 0 gets the left neighbor's block
         * 1 and slot 1 the right one's block 0 (on rings of 1 and 2 too: the standard pairs by direction),
         * so counts {3, 2} go out and {2, 3} come in. */
        int nrc[2] = {2, 3};
        MPI_Count nrcc[2] = {2, 3};
        reset();
        FORMS("MPI_Neighbor_alltoallv", form, MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv,
              MPI_Neighbor_alltoallv_init, in, nic, nid, MPI_INT, ref, nrc, nid, MPI_INT, ring);
        FORMS("MPI_Neighbor_alltoallv_c", form, MPI_Neighbor_alltoallv_c, MPI_Ineighbor_alltoallv_c,
              MPI_Neighbor_alltoallv_init_c, in, ncc, ncd, MPI_INT, got, nrcc, ncd, MPI_INT, ring);
        same("MPI_Neighbor_alltoallv_c", form);

        reset();
        FORMS("MPI_Neighbor_alltoallw", form, MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw,
              MPI_Neighbor_alltoallw_init, in, nic, nbytes, ntypes, ref, nrc, nbytes, ntypes, ring);
        FORMS("MPI_Neighbor_alltoallw_c", form, MPI_Neighbor_alltoallw_c, MPI_Ineighbor_alltoallw_c,
              MPI_Neighbor_alltoallw_init_c, in, ncc, nbytes, ntypes, got, nrcc, nbytes, ntypes, ring);
        same("MPI_Neighbor_alltoallw_c", form);
        MPI_Comm_free(&ring);
    }

    /* MPI_Reduce_local_c against MPI_Reduce_local. */
    reset();
    memcpy(ref, in, sizeof(in));
    memcpy(got, in, sizeof(in));
    OK(MPI_Reduce_local(in + 1, ref, 100, MPI_INT, MPI_PROD));
    OK(MPI_Reduce_local_c(in + 1, got, 100, MPI_INT, MPI_PROD));
    same("MPI_Reduce_local_c", 0);

    /* The checks are the int calls': a negative count is MPI_ERR_COUNT, a NULL displacement array at
     * the root MPI_ERR_ARG. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(MPI_Bcast_c(got, -1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_ERR_COUNT, "MPI_Bcast_c of -1 elements");
    MPI_Count neg[64];
    for (int j = 0; j < n; j++)
        neg[j] = j == n - 1 ? -((MPI_Count)1 << 40) : 1;
    CHECK(MPI_Allgatherv_c(in, 1, MPI_INT, got, neg, cvdispls, MPI_INT, MPI_COMM_WORLD) == MPI_ERR_COUNT,
          "MPI_Allgatherv_c with a negative count");
    CHECK(MPI_Gatherv_c(in, 1, MPI_INT, got, cvcounts, NULL, MPI_INT, 0, MPI_COMM_SELF) == MPI_ERR_ARG,
          "MPI_Gatherv_c without displacements at the root");
    MPI_Request req;
    CHECK(MPI_Iallreduce_c(in, got, -3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req) == MPI_ERR_COUNT,
          "MPI_Iallreduce_c of -3 elements");
    CHECK(MPI_Alltoall_init_c(in, 1, MPI_INT, got, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, NULL) == MPI_ERR_ARG,
          "MPI_Alltoall_init_c without a request");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        if (rank == 0)
            fprintf(stderr, "coll_bigcount: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    small_calls();

    unsigned char *big = malloc((size_t)BIG);
    int have = big != NULL, all = 0;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    CHECK(all, "no memory for the 2 GiB buffers");
    if (all) {
        large_bcast(big);
        large_gathers(big);
        if (size == 1)
            large_reduce_local(big);
        large_displs(big);
        large_allreduce(big);
    }
    free(big);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf("coll_bigcount: ok\n");
    MPI_Finalize();
    return total != 0;
}
