/* The data-movement collectives (bcast, gather, scatter, allgather, alltoall and their v forms,
 * barrier) against a reference computed locally, with whichever algorithms AXON_COLL_<NAME>_ALG
 * forces: counts 0, 1, n-1, n+1, odd and about 2 MiB, every root (one for the largest), in place and
 * not, and layouts that differ between ranks for one type signature. A unit is U ints (U = 3, then
 * 4), which a rank holds in one of three layouts: U * count MPI_INTs, count contiguous types of U ints,
 * or count vectors of U ints at stride 2 (gaps in between, which must stay untouched). U = 3 makes
 * elements of 12 bytes that segments of powers of two cut mid-element; U = 4 makes 16-byte ones they
 * do not. Any number of ranks; prints "coll_move: ok" on rank 0 when every check passed. */
#include "axon_test.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, U;
static MPI_Datatype contig_t, vector_t;

#define GAP (-7)

/* ---- layouts -------------------------------------------------------------------------------------- */

enum { INTS, CONTIG, VECTOR };

/* The (count, datatype) of `units` units in layout k. */
static int count_of(int k, int units) { return k == INTS ? units * U : units; }
static MPI_Datatype type_of(int k) { return k == INTS ? MPI_INT : k == CONTIG ? contig_t : vector_t; }
/* Where packed int q of a buffer in layout k lies. */
static long pos_of(int k, long q) { return k == VECTOR ? q / U * (2 * U - 1) + 2 * (q % U) : q; }
/* Ints a buffer of `units` units takes. */
static long span_of(int k, long units) { return k == VECTOR ? units * (2 * U - 1) : units * U; }

static int *ints(long n)
{
    int *p = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (!p) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (long i = 0; i < n; i++)
        p[i] = GAP;
    return p;
}

/* The value of packed int q of rank src's data meant for rank dst (-1: for all). */
static int val(int src, int dst, long q)
{
    unsigned h = (unsigned)src * 2654435761u ^ (unsigned)(dst + 1) * 40503u;
    return (int)((h & 0x3fffffff) + (unsigned)q * 3u);
}

/* Units [u0, u0 + units) of a buffer in layout k get src's values for dst, packed ints from q0 on. */
static void put(int *buf, int k, long u0, long units, int src, int dst, long q0)
{
    for (long q = 0; q < units * U; q++)
        buf[pos_of(k, u0 * U + q)] = val(src, dst, q0 + q);
}

/* Compares a buffer of span ints with the expected one; reports the first difference. */
static void same(const int *got, const int *want, long span, const char *what, long c, int root, int inplace)
{
    for (long i = 0; i < span; i++)
        if (got[i] != want[i]) {
            CHECK(0, "%s count=%ld root=%d inplace=%d: int %ld of %ld is %d, expected %d", what, c, root, inplace, i,
                  span, got[i], want[i]);
            return;
        }
}

/* The layouts of the rank's send and receive buffers in pass v. */
static int send_k(int v) { return (rank + v) % 3; }
static int recv_k(int v) { return (rank + v + 1) % 3; }

/* ---- the uniform forms ---------------------------------------------------------------------------- */

static void test_bcast(MPI_Comm comm, long c, int root, int v)
{
    int k = (rank + v) % 3;
    long span = span_of(k, c);
    int *buf = ints(span), *want = ints(span);
    put(want, k, 0, c, root, -1, 0);
    if (rank == root)
        put(buf, k, 0, c, root, -1, 0);
    MPI_Bcast(buf, count_of(k, (int)c), type_of(k), root, comm);
    same(buf, want, span, "MPI_Bcast", c, root, 0);
    free(buf);
    free(want);
}

static void test_gather(MPI_Comm comm, long c, int root, int inplace, int v)
{
    int ks = send_k(v), kr = recv_k(v);
    bool ip = inplace && rank == root;
    int *sb = ints(span_of(ks, c)), *rb = NULL, *want = NULL;
    long rspan = span_of(kr, c * size);
    put(sb, ks, 0, c, rank, -1, 0);
    if (rank == root) {
        rb = ints(rspan);
        want = ints(rspan);
        for (int j = 0; j < size; j++)
            put(want, kr, j * c, c, j, -1, 0);
        if (ip)
            put(rb, kr, rank * c, c, rank, -1, 0);
    }
    MPI_Gather(ip ? MPI_IN_PLACE : sb, count_of(ks, (int)c), type_of(ks), rb, count_of(kr, (int)c), type_of(kr), root,
               comm);
    if (rank == root)
        same(rb, want, rspan, "MPI_Gather", c, root, inplace);
    free(sb);
    free(rb);
    free(want);
}

static void test_scatter(MPI_Comm comm, long c, int root, int inplace, int v)
{
    int ks = send_k(v), kr = recv_k(v);
    bool ip = inplace && rank == root;
    int *sb = NULL, *rb = ints(span_of(kr, c)), *want = ints(span_of(kr, c));
    if (rank == root) {
        sb = ints(span_of(ks, c * size));
        for (int j = 0; j < size; j++)
            put(sb, ks, j * c, c, root, j, 0);
    }
    if (!ip)
        put(want, kr, 0, c, root, rank, 0);
    MPI_Scatter(sb, count_of(ks, (int)c), type_of(ks), ip ? MPI_IN_PLACE : rb, count_of(kr, (int)c), type_of(kr), root,
                comm);
    same(rb, want, span_of(kr, c), "MPI_Scatter", c, root, inplace);
    if (ip) {
        /* The root's own block stays where it was. */
        int *sw = ints(span_of(ks, c * size));
        for (int j = 0; j < size; j++)
            put(sw, ks, j * c, c, root, j, 0);
        same(sb, sw, span_of(ks, c * size), "MPI_Scatter (root's buffer)", c, root, inplace);
        free(sw);
    }
    free(sb);
    free(rb);
    free(want);
}

static void test_allgather(MPI_Comm comm, long c, int inplace, int v)
{
    int ks = send_k(v), kr = recv_k(v);
    long rspan = span_of(kr, c * size);
    int *sb = ints(span_of(ks, c)), *rb = ints(rspan), *want = ints(rspan);
    put(sb, ks, 0, c, rank, -1, 0);
    for (int j = 0; j < size; j++)
        put(want, kr, j * c, c, j, -1, 0);
    if (inplace)
        put(rb, kr, rank * c, c, rank, -1, 0);
    MPI_Allgather(inplace ? MPI_IN_PLACE : sb, count_of(ks, (int)c), type_of(ks), rb, count_of(kr, (int)c),
                  type_of(kr), comm);
    same(rb, want, rspan, "MPI_Allgather", c, -1, inplace);
    free(sb);
    free(rb);
    free(want);
}

static void test_alltoall(MPI_Comm comm, long c, int inplace, int v)
{
    int ks = send_k(v), kr = inplace ? ks : recv_k(v);
    long sspan = span_of(ks, c * size), rspan = span_of(kr, c * size);
    int *sb = ints(sspan), *rb = ints(rspan), *want = ints(rspan);
    for (int d = 0; d < size; d++) {
        put(sb, ks, d * c, c, rank, d, 0);
        put(want, kr, d * c, c, d, rank, 0);
        if (inplace)
            put(rb, kr, d * c, c, rank, d, 0);
    }
    MPI_Alltoall(inplace ? MPI_IN_PLACE : sb, count_of(ks, (int)c), type_of(ks), rb, count_of(kr, (int)c),
                 type_of(kr), comm);
    same(rb, want, rspan, "MPI_Alltoall", c, -1, inplace);
    free(sb);
    free(rb);
    free(want);
}

/* ---- the v forms: rank j's block is (j % 3) * c + 1 units, with a unit of gap after each ----------- */

static void v_layout(long c, int *units, int *displ, long *total)
{
    long t = 0;
    for (int j = 0; j < size; j++) {
        units[j] = (int)((j % 3) * c + 1);
        displ[j] = (int)t;
        t += units[j] + 1;
    }
    *total = t;
}

/* counts and displacements in elements of layout k. */
static void v_counts(int k, const int *units, const int *displ, int *cnt, int *dsp)
{
    for (int j = 0; j < size; j++) {
        cnt[j] = count_of(k, units[j]);
        dsp[j] = count_of(k, displ[j]);
    }
}

static void test_vforms(MPI_Comm comm, long c, int v)
{
    int ks = send_k(v), kr = recv_k(v);
    int *units = malloc(sizeof(int) * (size_t)size), *displ = malloc(sizeof(int) * (size_t)size);
    int *cnt = malloc(sizeof(int) * (size_t)size), *dsp = malloc(sizeof(int) * (size_t)size);
    long total;
    v_layout(c, units, displ, &total);
    int mine = units[rank];
    for (int root = 0; root < size; root++) {
        int *sb = ints(span_of(ks, mine)), *rb = ints(span_of(kr, total)), *want = ints(span_of(kr, total));
        put(sb, ks, 0, mine, rank, -1, 0);
        for (int j = 0; j < size; j++)
            put(want, kr, displ[j], units[j], j, -1, 0);
        v_counts(kr, units, displ, cnt, dsp);
        MPI_Gatherv(sb, count_of(ks, mine), type_of(ks), rb, cnt, dsp, type_of(kr), root, comm);
        if (rank == root)
            same(rb, want, span_of(kr, total), "MPI_Gatherv", c, root, 0);
        free(sb);
        free(rb);
        free(want);

        sb = ints(span_of(ks, total));
        rb = ints(span_of(kr, mine));
        want = ints(span_of(kr, mine));
        for (int j = 0; j < size; j++)
            put(sb, ks, displ[j], units[j], root, j, 0);
        put(want, kr, 0, mine, root, rank, 0);
        v_counts(ks, units, displ, cnt, dsp);
        MPI_Scatterv(sb, cnt, dsp, type_of(ks), rb, count_of(kr, mine), type_of(kr), root, comm);
        same(rb, want, span_of(kr, mine), "MPI_Scatterv", c, root, 0);
        free(sb);
        free(rb);
        free(want);
    }
    for (int inplace = 0; inplace < 2; inplace++) {
        int *sb = ints(span_of(ks, mine)), *rb = ints(span_of(kr, total)), *want = ints(span_of(kr, total));
        put(sb, ks, 0, mine, rank, -1, 0);
        for (int j = 0; j < size; j++)
            put(want, kr, displ[j], units[j], j, -1, 0);
        if (inplace)
            put(rb, kr, displ[rank], mine, rank, -1, 0);
        v_counts(kr, units, displ, cnt, dsp);
        MPI_Allgatherv(inplace ? MPI_IN_PLACE : sb, count_of(ks, mine), type_of(ks), rb, cnt, dsp, type_of(kr), comm);
        same(rb, want, span_of(kr, total), "MPI_Allgatherv", c, -1, inplace);
        free(sb);
        free(rb);
        free(want);
    }
    /* Alltoallv: rank s sends (s + d) % 3 * c + 1 units to d, packed one after the other. */
    int *scnt = malloc(sizeof(int) * (size_t)size), *sdsp = malloc(sizeof(int) * (size_t)size);
    int *su = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
    int *ru = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
    long st = 0, rt = 0;
    for (int j = 0; j < size; j++) {
        su[j] = (int)((rank + j) % 3 * c + 1);
        sd[j] = (int)st;
        st += su[j];
        ru[j] = (int)((j + rank) % 3 * c + 1);
        rd[j] = (int)rt;
        rt += ru[j] + 1;
    }
    int *sb = ints(span_of(ks, st)), *rb = ints(span_of(kr, rt)), *want = ints(span_of(kr, rt));
    for (int j = 0; j < size; j++) {
        put(sb, ks, sd[j], su[j], rank, j, 0);
        put(want, kr, rd[j], ru[j], j, rank, 0);
    }
    v_counts(ks, su, sd, scnt, sdsp);
    v_counts(kr, ru, rd, cnt, dsp);
    MPI_Alltoallv(sb, scnt, sdsp, type_of(ks), rb, cnt, dsp, type_of(kr), comm);
    same(rb, want, span_of(kr, rt), "MPI_Alltoallv", c, -1, 0);
    free(sb);
    free(rb);
    free(want);
    free(scnt);
    free(sdsp);
    free(su);
    free(sd);
    free(ru);
    free(rd);
    free(units);
    free(displ);
    free(cnt);
    free(dsp);
}

/* ---- several outstanding at once ------------------------------------------------------------------ */

static void test_nonblocking(MPI_Comm comm, long c, int v)
{
    int k = (rank + v) % 3, root = size - 1;
    long bspan = span_of(k, c), aspan = span_of(k, c * size);
    int *bb = ints(bspan), *bw = ints(bspan), *ab = ints(aspan), *aw = ints(aspan);
    int *ts = ints(aspan), *tr = ints(aspan), *tw = ints(aspan);
    put(bw, k, 0, c, root, -1, 0);
    if (rank == root)
        put(bb, k, 0, c, root, -1, 0);
    for (int j = 0; j < size; j++) {
        put(aw, k, j * c, c, j, -1, 0);
        put(ts, k, j * c, c, rank, j, 0);
        put(tw, k, j * c, c, j, rank, 0);
    }
    put(ab, k, rank * c, c, rank, -1, 0);
    MPI_Request req[4];
    MPI_Ibcast(bb, count_of(k, (int)c), type_of(k), root, comm, &req[0]);
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ab, count_of(k, (int)c), type_of(k), comm, &req[1]);
    MPI_Ialltoall(ts, count_of(k, (int)c), type_of(k), tr, count_of(k, (int)c), type_of(k), comm, &req[2]);
    MPI_Ibarrier(comm, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    same(bb, bw, bspan, "MPI_Ibcast", c, root, 0);
    same(ab, aw, aspan, "MPI_Iallgather", c, -1, 1);
    same(tr, tw, aspan, "MPI_Ialltoall", c, -1, 0);
    free(bb);
    free(bw);
    free(ab);
    free(aw);
    free(ts);
    free(tr);
    free(tw);
}

/* ---- driver --------------------------------------------------------------------------------------- */

static void make_types(void)
{
    MPI_Type_contiguous(U, MPI_INT, &contig_t);
    MPI_Type_commit(&contig_t);
    MPI_Type_vector(U, 1, 2, MPI_INT, &vector_t);
    MPI_Type_commit(&vector_t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* Bytes of the largest messages: a bcast's, and the whole buffer of the others. About 2 MiB with
     * 12-byte units (segments cut elements), less with 16-byte ones (still several 64 KiB segments). */
    long big_bytes = argc > 1 ? atol(argv[1]) : 2L << 20;
    for (int v = 0; v < 2; v++) {
        U = 3 + v;
        make_types();
        long big = (v == 0 ? big_bytes : big_bytes / 8) / (4 * U) + 1;
        long counts[] = {0, 1, size - 1, size + 1, 7, big / size + 1, big};
        int ncounts = (int)(sizeof(counts) / sizeof(counts[0]));
        for (int i = 0; i < ncounts; i++) {
            long c = counts[i];
            bool large = c > 1000;
            MPI_Barrier(comm);
            for (int root = 0; root < size; root++) {
                /* Large ones at one root, not rank 0, so the ranks relative to it differ. */
                if (large && root != size - 1)
                    continue;
                test_bcast(comm, c, root, v);
                if (c == big)
                    continue;
                for (int inplace = 0; inplace < 2; inplace++) {
                    test_gather(comm, c, root, inplace, v);
                    test_scatter(comm, c, root, inplace, v);
                }
            }
            if (c == big)
                continue;
            for (int inplace = 0; inplace < 2; inplace++) {
                test_allgather(comm, c, inplace, v);
                test_alltoall(comm, c, inplace, v);
            }
            if (!large)
                test_vforms(comm, c, v);
            test_nonblocking(comm, c, v);
        }
        MPI_Type_free(&contig_t);
        MPI_Type_free(&vector_t);
    }
    int all;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, comm);
    MPI_Comm_free(&comm);
    if (rank == 0 && all == 0)
        printf("coll_move: ok\n");
    MPI_Finalize();
    return all ? 1 : 0;
}
