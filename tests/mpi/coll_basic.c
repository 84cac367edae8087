/* Every collective against a reference computed locally: counts 0, 1, odd and large, every root, in
 * place and not, MPI_SUM/MAX/MINLOC and a non-commutative user operation, derived datatypes, the
 * nonblocking forms with many outstanding on several communicators at once, and the argument errors.
 * Any number of ranks; each check prints what failed and the program exits non-zero. */
#include "axon_test.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* The value rank r contributes at index i. */
static int val(int r, int i) { return (r + 1) * 100003 + i * 7; }

static const int counts[] = {0, 1, 7, 1000};
#define NCOUNTS (int)(sizeof(counts) / sizeof(counts[0]))
#define LARGE (256 * 1024) /* ints: 1 MiB */

static int *ints(int n) { return malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)); }

static void check_ints(const int *got, int n, int (*want)(int i, void *arg), void *arg, const char *what)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want(i, arg)) {
            CHECK(0, "%s: element %d is %d, expected %d", what, i, got[i], want(i, arg));
            return;
        }
}

/* ---- barrier and bcast ---------------------------------------------------------------------------- */

static int want_root(int i, void *arg) { return val(*(int *)arg, i); }

static void test_bcast(MPI_Comm comm)
{
    MPI_Barrier(comm);
    for (int k = 0; k <= NCOUNTS; k++) {
        int n = k < NCOUNTS ? counts[k] : LARGE;
        int *buf = ints(n);
        for (int root = 0; root < size; root++) {
            for (int i = 0; i < n; i++)
                buf[i] = rank == root ? val(root, i) : -1;
            MPI_Bcast(buf, n, MPI_INT, root, comm);
            check_ints(buf, n, want_root, &root, "MPI_Bcast");
            if (n == LARGE)
                break;
        }
        free(buf);
    }
    /* A strided type: every other int of the buffer. */
    MPI_Datatype vec;
    MPI_Type_vector(5, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int buf[3 * 10];
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < 30; i++)
            buf[i] = rank == root ? val(root, i) : -1;
        MPI_Bcast(buf, 3, vec, root, comm);
        /* Element e starts at 9e (the extent); its ints lie at 9e + 2j, j < 5. */
        for (int i = 0; i < 30; i++) {
            bool covered = i < 27 && (i % 9) % 2 == 0;
            int want = covered || rank == root ? val(root, i) : -1;
            CHECK(buf[i] == want, "MPI_Bcast(vector) root %d: element %d is %d, expected %d", root, i, buf[i], want);
        }
    }
    MPI_Type_free(&vec);
}

/* ---- gather, scatter, allgather ------------------------------------------------------------------- */

static void test_gather_scatter(MPI_Comm comm)
{
    for (int k = 0; k < NCOUNTS; k++) {
        int n = counts[k];
        int *mine = ints(n), *all = ints(n * size);
        for (int root = 0; root < size; root++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int i = 0; i < n; i++)
                    mine[i] = val(rank, i);
                for (int i = 0; i < n * size; i++)
                    all[i] = rank == root && inplace ? val(i / (n ? n : 1), i % (n ? n : 1)) : -1;
                bool ip = inplace && rank == root;
                MPI_Gather(ip ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT, root, comm);
                if (rank == root)
                    for (int i = 0; i < n * size; i++)
                        if (all[i] != val(i / n, i % n)) {
                            CHECK(0, "MPI_Gather n=%d root=%d inplace=%d: element %d is %d", n, root, inplace, i,
                                  all[i]);
                            break;
                        }
                /* Scatter back a different pattern. */
                if (rank == root)
                    for (int i = 0; i < n * size; i++)
                        all[i] = val(i / n + 50, i % n);
                for (int i = 0; i < n; i++)
                    mine[i] = -1;
                MPI_Scatter(all, n, MPI_INT, ip ? MPI_IN_PLACE : mine, n, MPI_INT, root, comm);
                const int *got = ip ? all + (size_t)n * root : mine;
                for (int i = 0; i < n; i++)
                    if (got[i] != val(rank + 50, i)) {
                        CHECK(0, "MPI_Scatter n=%d root=%d inplace=%d: element %d is %d", n, root, inplace, i, got[i]);
                        break;
                    }
            }
        }
        /* Allgather, in place and not. */
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n; i++)
                mine[i] = val(rank, i);
            for (int i = 0; i < n * size; i++)
                all[i] = inplace && i / n == rank ? val(rank, i % n) : -1;
            MPI_Allgather(inplace ? MPI_IN_PLACE : mine, n, MPI_INT, all, n, MPI_INT, comm);
            for (int i = 0; i < n * size; i++)
                if (all[i] != val(i / n, i % n)) {
                    CHECK(0, "MPI_Allgather n=%d inplace=%d: element %d is %d", n, inplace, i, all[i]);
                    break;
                }
        }
        free(mine);
        free(all);
    }

    /* The v forms: rank j has j % 3 + 1 elements, laid out with a gap of 2 after each block. */
    int *rc = ints(size), *displs = ints(size), total = 0;
    for (int j = 0; j < size; j++) {
        rc[j] = j % 3 + 1;
        displs[j] = total;
        total += rc[j] + 2;
    }
    int *all = ints(total), mine[3];
    for (int root = 0; root < size; root++) {
        for (int i = 0; i < rc[rank]; i++)
            mine[i] = val(rank, i);
        for (int i = 0; i < total; i++)
            all[i] = -1;
        MPI_Gatherv(mine, rc[rank], MPI_INT, all, rc, displs, MPI_INT, root, comm);
        if (rank == root)
            for (int j = 0; j < size; j++) {
                for (int i = 0; i < rc[j]; i++)
                    CHECK(all[displs[j] + i] == val(j, i), "MPI_Gatherv root %d: block %d element %d", root, j, i);
                CHECK(all[displs[j] + rc[j]] == -1, "MPI_Gatherv wrote into a gap");
            }
        if (rank == root)
            for (int j = 0; j < size; j++)
                for (int i = 0; i < rc[j]; i++)
                    all[displs[j] + i] = val(j + 20, i);
        memset(mine, 0xff, sizeof(mine));
        MPI_Scatterv(all, rc, displs, MPI_INT, mine, rc[rank], MPI_INT, root, comm);
        for (int i = 0; i < rc[rank]; i++)
            CHECK(mine[i] == val(rank + 20, i), "MPI_Scatterv root %d: element %d is %d", root, i, mine[i]);
    }
    for (int i = 0; i < rc[rank]; i++)
        mine[i] = val(rank, i);
    for (int i = 0; i < total; i++)
        all[i] = -1;
    MPI_Allgatherv(mine, rc[rank], MPI_INT, all, rc, displs, MPI_INT, comm);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < rc[j]; i++)
            CHECK(all[displs[j] + i] == val(j, i), "MPI_Allgatherv block %d element %d is %d", j, i,
                  all[displs[j] + i]);
    free(all);
    free(rc);
    free(displs);

    /* Allgather of a derived type: each rank sends one vector (3 ints at stride 2) and they arrive
     * contiguous. Then a large one. */
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int src[5];
    for (int i = 0; i < 5; i++)
        src[i] = val(rank, i);
    int *got = ints(3 * size);
    MPI_Allgather(src, 1, vec, got, 3, MPI_INT, comm);
    for (int j = 0; j < size; j++)
        for (int i = 0; i < 3; i++)
            CHECK(got[j * 3 + i] == val(j, 2 * i), "MPI_Allgather(vector) rank %d element %d is %d", j, i,
                  got[j * 3 + i]);
    free(got);
    MPI_Type_free(&vec);
    int n = LARGE / size;
    int *big = ints(n * size), *mybig = ints(n);
    for (int i = 0; i < n; i++)
        mybig[i] = val(rank, i);
    MPI_Allgather(mybig, n, MPI_INT, big, n, MPI_INT, comm);
    for (int i = 0; i < n * size; i++)
        if (big[i] != val(i / n, i % n)) {
            CHECK(0, "large MPI_Allgather: element %d is %d", i, big[i]);
            break;
        }
    free(big);
    free(mybig);
}

/* ---- alltoall ------------------------------------------------------------------------------------- */

/* What rank s sends to rank d at index i. */
static int a2a(int s, int d, int i) { return s * 1000000 + d * 1000 + i; }

static void test_alltoall(MPI_Comm comm)
{
    for (int k = 0; k < NCOUNTS; k++) {
        int n = counts[k] > 100 ? 100 : counts[k];
        int *sb = ints(n * size), *rb = ints(n * size);
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int d = 0; d < size; d++)
                for (int i = 0; i < n; i++) {
                    sb[d * n + i] = a2a(rank, d, i);
                    rb[d * n + i] = inplace ? a2a(rank, d, i) : -1;
                }
            MPI_Alltoall(inplace ? MPI_IN_PLACE : sb, n, MPI_INT, rb, n, MPI_INT, comm);
            for (int s = 0; s < size; s++)
                for (int i = 0; i < n; i++)
                    if (rb[s * n + i] != a2a(s, rank, i)) {
                        CHECK(0, "MPI_Alltoall n=%d inplace=%d: from %d element %d is %d", n, inplace, s, i,
                              rb[s * n + i]);
                        s = size;
                        break;
                    }
        }
        free(sb);
        free(rb);
    }
    /* v: rank s sends (s + d) % 3 elements to d. w: the same in bytes, with MPI_INT types. */
    int *sc = ints(size), *sd = ints(size), *rc = ints(size), *rd = ints(size);
    int *sdb = ints(size), *rdb = ints(size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)size);
    int stot = 0, rtot = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = (rank + j) % 3;
        rc[j] = (j + rank) % 3;
        sd[j] = stot;
        rd[j] = rtot + 1;
        stot += sc[j];
        rtot += rc[j] + 1;
        sdb[j] = sd[j] * (int)sizeof(int);
        rdb[j] = rd[j] * (int)sizeof(int);
        types[j] = MPI_INT;
    }
    int *sb = ints(stot), *rb = ints(rtot + 1);
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < size; j++)
            for (int i = 0; i < sc[j]; i++)
                sb[sd[j] + i] = a2a(rank, j, i);
        for (int i = 0; i <= rtot; i++)
            rb[i] = -1;
        if (pass == 0)
            MPI_Alltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, MPI_INT, comm);
        else
            MPI_Alltoallw(sb, sc, sdb, types, rb, rc, rdb, types, comm);
        for (int j = 0; j < size; j++)
            for (int i = 0; i < rc[j]; i++)
                CHECK(rb[rd[j] + i] == a2a(j, rank, i), "MPI_Alltoall%c from %d element %d is %d", pass ? 'w' : 'v',
                      j, i, rb[rd[j] + i]);
    }
    free(sb);
    free(rb);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(sdb);
    free(rdb);
    free(types);
}

/* ---- reductions ----------------------------------------------------------------------------------- */

/* The non-commutative operation: composition of affine maps x -> a x + b (mod P), "left then right". */
#define P 1000003
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *u = in, *v = inout;
    for (int i = 0; i < *len; i++) {
        long long a = u[2 * i], b = u[2 * i + 1], c = v[2 * i], d = v[2 * i + 1];
        v[2 * i] = (int)(c * a % P);
        v[2 * i + 1] = (int)((c * b + d) % P);
    }
}
static void affine_of(int r, int i, int out[2])
{
    out[0] = (r * 7 + i * 3) % 11 + 2;
    out[1] = (r * 13 + i) % 17 + 1;
}
/* The composition of ranks [lo, hi] at index i. */
static void affine_ref(int lo, int hi, int i, int out[2])
{
    int acc[2] = {1, 0}, m[2];
    for (int r = lo; r <= hi; r++) {
        affine_of(r, i, m);
        int len = 1;
        affine(acc, m, &len, NULL);
        acc[0] = m[0];
        acc[1] = m[1];
    }
    out[0] = acc[0];
    out[1] = acc[1];
}

static long long sum_ref(int hi, int i)
{
    long long s = 0;
    for (int r = 0; r <= hi; r++)
        s += val(r, i);
    return s;
}

static void test_reduce(MPI_Comm comm)
{
    MPI_Op op_affine;
    MPI_Op_create(affine, 0, &op_affine);
    for (int k = 0; k <= NCOUNTS; k++) {
        int n = k < NCOUNTS ? counts[k] : LARGE;
        int *in = ints(n), *out = ints(n);
        for (int root = 0; root < size; root++) {
            for (int inplace = 0; inplace < 2; inplace++) {
                bool ip = inplace && rank == root;
                for (int i = 0; i < n; i++) {
                    in[i] = val(rank, i);
                    out[i] = ip ? in[i] : -1;
                }
                MPI_Reduce(ip ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_SUM, root, comm);
                if (rank == root)
                    for (int i = 0; i < n; i++)
                        if (out[i] != (int)sum_ref(size - 1, i)) {
                            CHECK(0, "MPI_Reduce(SUM) n=%d root=%d inplace=%d: element %d is %d", n, root, inplace, i,
                                  out[i]);
                            break;
                        }
            }
            if (n == LARGE)
                break;
        }
        /* Allreduce SUM and MAX, in place and not. */
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < n; i++)
                out[i] = in[i] = (i % 2 ? -1 : 1) * val(rank, i);
            MPI_Allreduce(inplace ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_MAX, comm);
            for (int i = 0; i < n; i++) {
                int want = i % 2 ? -val(0, i) : val(size - 1, i);
                if (out[i] != want) {
                    CHECK(0, "MPI_Allreduce(MAX) n=%d inplace=%d: element %d is %d, expected %d", n, inplace, i,
                          out[i], want);
                    break;
                }
            }
            for (int i = 0; i < n; i++)
                out[i] = in[i] = val(rank, i);
            MPI_Allreduce(inplace ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_SUM, comm);
            for (int i = 0; i < n; i++)
                if (out[i] != (int)sum_ref(size - 1, i)) {
                    CHECK(0, "MPI_Allreduce(SUM) n=%d: element %d is %d", n, i, out[i]);
                    break;
                }
        }
        /* Scan and exscan. */
        if (n <= 1000) {
            for (int inplace = 0; inplace < 2; inplace++) {
                for (int i = 0; i < n; i++)
                    out[i] = in[i] = val(rank, i);
                MPI_Scan(inplace ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_SUM, comm);
                for (int i = 0; i < n; i++)
                    if (out[i] != (int)sum_ref(rank, i)) {
                        CHECK(0, "MPI_Scan n=%d inplace=%d: element %d is %d", n, inplace, i, out[i]);
                        break;
                    }
                for (int i = 0; i < n; i++)
                    out[i] = in[i] = val(rank, i);
                MPI_Exscan(inplace ? MPI_IN_PLACE : in, out, n, MPI_INT, MPI_SUM, comm);
                if (rank > 0)
                    for (int i = 0; i < n; i++)
                        if (out[i] != (int)sum_ref(rank - 1, i)) {
                            CHECK(0, "MPI_Exscan n=%d inplace=%d: element %d is %d", n, inplace, i, out[i]);
                            break;
                        }
            }
        }
        free(in);
        free(out);
    }

    /* MINLOC on {value, index} pairs: the minimum is at rank (i % size). */
    enum { NP = 9 };
    int pin[2 * NP], pout[2 * NP];
    for (int i = 0; i < NP; i++) {
        pin[2 * i] = rank == i % size ? -5 : rank + 100;
        pin[2 * i + 1] = rank;
    }
    for (int root = 0; root < size; root++) {
        MPI_Reduce(pin, pout, NP, MPI_2INT, MPI_MINLOC, root, comm);
        if (rank == root)
            for (int i = 0; i < NP; i++)
                CHECK(pout[2 * i] == -5 && pout[2 * i + 1] == i % size, "MPI_Reduce(MINLOC) pair %d is {%d, %d}", i,
                      pout[2 * i], pout[2 * i + 1]);
    }
    MPI_Allreduce(pin, pout, NP, MPI_2INT, MPI_MINLOC, comm);
    for (int i = 0; i < NP; i++)
        CHECK(pout[2 * i] == -5 && pout[2 * i + 1] == i % size, "MPI_Allreduce(MINLOC) pair %d", i);

    /* The non-commutative operation, in rank order, through every reduction. */
    for (int k = 0; k < NCOUNTS; k++) {
        int n = counts[k];
        int *in = ints(2 * n), *out = ints(2 * n * size), ref[2];
        for (int i = 0; i < n; i++)
            affine_of(rank, i, in + 2 * i);
        for (int root = 0; root < size; root++) {
            MPI_Reduce(in, out, n, MPI_2INT, op_affine, root, comm);
            if (rank == root)
                for (int i = 0; i < n; i++) {
                    affine_ref(0, size - 1, i, ref);
                    CHECK(out[2 * i] == ref[0] && out[2 * i + 1] == ref[1], "MPI_Reduce(affine) n=%d root=%d: %d", n,
                          root, i);
                }
        }
        MPI_Allreduce(in, out, n, MPI_2INT, op_affine, comm);
        for (int i = 0; i < n; i++) {
            affine_ref(0, size - 1, i, ref);
            CHECK(out[2 * i] == ref[0] && out[2 * i + 1] == ref[1], "MPI_Allreduce(affine) n=%d: %d", n, i);
        }
        MPI_Scan(in, out, n, MPI_2INT, op_affine, comm);
        for (int i = 0; i < n; i++) {
            affine_ref(0, rank, i, ref);
            CHECK(out[2 * i] == ref[0] && out[2 * i + 1] == ref[1], "MPI_Scan(affine) n=%d: %d", n, i);
        }
        MPI_Exscan(in, out, n, MPI_2INT, op_affine, comm);
        if (rank > 0)
            for (int i = 0; i < n; i++) {
                affine_ref(0, rank - 1, i, ref);
                CHECK(out[2 * i] == ref[0] && out[2 * i + 1] == ref[1], "MPI_Exscan(affine) n=%d: %d", n, i);
            }
        /* Reduce_scatter_block: n pairs per rank. */
        int *full = ints(2 * n * size);
        for (int j = 0; j < n * size; j++)
            affine_of(rank, j, full + 2 * j);
        MPI_Reduce_scatter_block(full, out, n, MPI_2INT, op_affine, comm);
        for (int i = 0; i < n; i++) {
            affine_ref(0, size - 1, rank * n + i, ref);
            CHECK(out[2 * i] == ref[0] && out[2 * i + 1] == ref[1], "MPI_Reduce_scatter_block(affine) n=%d: %d", n, i);
        }
        free(full);
        free(in);
        free(out);
    }

    /* Reduce_scatter with uneven counts (rank j gets j % 3 times 1 or 2000 elements: empty, small and
     * large blocks side by side), in place and not, SUM. */
    for (int scale = 1; scale <= 2000; scale *= 2000) {
        int *rcounts = ints(size), total = 0;
        for (int j = 0; j < size; j++)
            total += rcounts[j] = j % 3 * scale;
        int *in = ints(total), *out = ints(total);
        for (int inplace = 0; inplace < 2; inplace++) {
            for (int i = 0; i < total; i++)
                out[i] = in[i] = val(rank, i);
            MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : in, out, rcounts, MPI_INT, MPI_SUM, comm);
            int first = 0;
            for (int j = 0; j < rank; j++)
                first += rcounts[j];
            for (int i = 0; i < rcounts[rank]; i++)
                CHECK(out[i] == (int)sum_ref(size - 1, first + i), "MPI_Reduce_scatter inplace=%d: element %d is %d",
                      inplace, i, out[i]);
            for (int i = 0; i < total; i++)
                out[i] = in[i] = val(rank, i);
            int blk = total / (size ? size : 1);
            MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : in, out, blk, MPI_INT, MPI_SUM, comm);
            for (int i = 0; i < blk; i++)
                CHECK(out[i] == (int)sum_ref(size - 1, rank * blk + i),
                      "MPI_Reduce_scatter_block inplace=%d: element %d is %d", inplace, i, out[i]);
        }
        free(in);
        free(out);
        free(rcounts);
    }

    /* Allreduce SUM of a derived type: a vector of 2 ints at stride 3 per element. */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int vin[4 * 4], vout[4 * 4];
    for (int i = 0; i < 16; i++) {
        vin[i] = val(rank, i);
        vout[i] = -7;
    }
    MPI_Allreduce(vin, vout, 4, vec, MPI_SUM, comm); /* extent 4 ints: element e at 4e and 4e+3 */
    for (int e = 0; e < 4; e++)
        for (int i = 0; i < 4; i++) {
            int at = e * 4 + i;
            int want = (i == 0 || i == 3) ? (int)sum_ref(size - 1, at) : -7;
            CHECK(vout[at] == want, "MPI_Allreduce(vector) element %d is %d, expected %d", at, vout[at], want);
        }
    MPI_Type_free(&vec);
    MPI_Op_free(&op_affine);
}

/* ---- nonblocking ---------------------------------------------------------------------------------- */

#define NB 20
#define NBN 33

static void test_nonblocking(void)
{
    MPI_Comm comms[3];
    for (int c = 0; c < 3; c++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
    MPI_Request reqs[NB];
    int *bufs[NB], *outs[NB], kinds[NB];
    /* Ireduce_scatter's blocks: some empty, none longer than NBN. */
    int *nb_counts = ints(size), nb_first = 0;
    for (int j = 0; j < size; j++) {
        nb_counts[j] = j % 4 * 5;
        if (j < rank)
            nb_first += nb_counts[j];
    }
    for (int q = 0; q < NB; q++) {
        MPI_Comm comm = comms[q % 3];
        int kind = kinds[q] = (q * 5 + 3) % 8;
        bufs[q] = ints(NBN * size);
        outs[q] = ints(NBN * size);
        for (int i = 0; i < NBN * size; i++) {
            bufs[q][i] = val(rank, i + q);
            outs[q][i] = -1;
        }
        int root = q % size;
        switch (kind) {
        case 0:
            MPI_Ibarrier(comm, &reqs[q]);
            break;
        case 1:
            MPI_Ibcast(bufs[q], NBN, MPI_INT, root, comm, &reqs[q]);
            break;
        case 2:
            MPI_Iallreduce(bufs[q], outs[q], NBN, MPI_INT, MPI_SUM, comm, &reqs[q]);
            break;
        case 3:
            MPI_Iallgather(bufs[q], NBN, MPI_INT, outs[q], NBN, MPI_INT, comm, &reqs[q]);
            break;
        case 4:
            MPI_Ialltoall(bufs[q], NBN, MPI_INT, outs[q], NBN, MPI_INT, comm, &reqs[q]);
            break;
        case 5:
            MPI_Iscan(bufs[q], outs[q], NBN, MPI_INT, MPI_SUM, comm, &reqs[q]);
            break;
        case 6:
            MPI_Ireduce_scatter_block(bufs[q], outs[q], NBN, MPI_INT, MPI_SUM, comm, &reqs[q]);
            break;
        case 7:
            MPI_Ireduce_scatter(bufs[q], outs[q], nb_counts, MPI_INT, MPI_SUM, comm, &reqs[q]);
            break;
        }
    }
    /* Complete them out of order: the odd ones by testing, then all. */
    int done = 0;
    while (!done) {
        done = 1;
        for (int q = NB - 1; q >= 0; q -= 2) {
            int flag;
            MPI_Test(&reqs[q], &flag, MPI_STATUS_IGNORE);
            done &= flag;
        }
    }
    MPI_Waitall(NB, reqs, MPI_STATUSES_IGNORE);
    for (int q = 0; q < NB; q++) {
        int root = q % size, bad = -1;
        switch (kinds[q]) {
        case 1:
            for (int i = 0; i < NBN && bad < 0; i++)
                if (bufs[q][i] != val(root, i + q))
                    bad = i;
            break;
        case 2:
            for (int i = 0; i < NBN && bad < 0; i++)
                if (outs[q][i] != (int)sum_ref(size - 1, i + q))
                    bad = i;
            break;
        case 3:
            for (int i = 0; i < NBN * size && bad < 0; i++)
                if (outs[q][i] != val(i / NBN, i % NBN + q))
                    bad = i;
            break;
        case 4:
            for (int i = 0; i < NBN * size && bad < 0; i++)
                if (outs[q][i] != val(i / NBN, rank * NBN + i % NBN + q))
                    bad = i;
            break;
        case 5:
            for (int i = 0; i < NBN && bad < 0; i++)
                if (outs[q][i] != (int)sum_ref(rank, i + q))
                    bad = i;
            break;
        case 6:
            for (int i = 0; i < NBN && bad < 0; i++)
                if (outs[q][i] != (int)sum_ref(size - 1, rank * NBN + i + q))
                    bad = i;
            break;
        case 7:
            for (int i = 0; i < nb_counts[rank] && bad < 0; i++)
                if (outs[q][i] != (int)sum_ref(size - 1, nb_first + i + q))
                    bad = i;
            break;
        }
        CHECK(bad < 0, "nonblocking collective %d (kind %d): element %d wrong", q, kinds[q], bad);
        free(bufs[q]);
        free(outs[q]);
    }
    free(nb_counts);
    /* A freed request: the collective completes on its own. Cancel is refused. */
    MPI_Request r;
    MPI_Ibarrier(comms[0], &r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Cancel(&r) != MPI_SUCCESS, "MPI_Cancel of a nonblocking collective succeeded");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    MPI_Barrier(comms[0]);
    for (int c = 0; c < 3; c++)
        MPI_Comm_free(&comms[c]);
}

/* ---- errors --------------------------------------------------------------------------------------- */

static int err_class(int code)
{
    int cls = code;
    MPI_Error_class(code, &cls);
    return cls;
}

static void test_errors(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[4] = {0}, out[4];
    CHECK(err_class(MPI_Bcast(buf, 1, MPI_INT, size, comm)) == MPI_ERR_ROOT, "bad root");
    CHECK(err_class(MPI_Bcast(buf, -1, MPI_INT, 0, comm)) == MPI_ERR_COUNT, "negative count");
    CHECK(err_class(MPI_Bcast(buf, 1, MPI_DATATYPE_NULL, 0, comm)) == MPI_ERR_TYPE, "null datatype");
    CHECK(err_class(MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, comm)) == MPI_ERR_OP, "null op");
    CHECK(err_class(MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, comm)) == MPI_ERR_BUFFER, "aliased buffers");
    CHECK(err_class(MPI_Allgather(buf, 1, MPI_INT, buf, 1, MPI_INT, comm)) == MPI_ERR_BUFFER, "aliased allgather");
    /* The v forms too (MPICH's errors/coll/noalias2 hung in Gatherv). The rooted ones fail at the root
     * before anything moves: only the root calls them, as a program that gets the error would. */
    int *counts = calloc((size_t)size, sizeof(int)), *displs = calloc((size_t)size, sizeof(int));
    int *vbuf = calloc((size_t)size, sizeof(int));
    for (int r = 0; r < size; r++)
        counts[r] = 1, displs[r] = r;
    CHECK(err_class(MPI_Allgatherv(vbuf, 1, MPI_INT, vbuf, counts, displs, MPI_INT, comm)) == MPI_ERR_BUFFER,
          "aliased allgatherv");
    /* A negative entry of Reduce_scatter's counts (the last rank's, on every rank alike). */
    int *vsend = calloc((size_t)size, sizeof(int)), vout[1];
    counts[size - 1] = -1;
    CHECK(err_class(MPI_Reduce_scatter(vsend, vout, counts, MPI_INT, MPI_SUM, comm)) == MPI_ERR_COUNT,
          "negative reduce_scatter count");
    counts[size - 1] = 1;
    free(vsend);
    /* Each rank's own block of the receive buffer as its send buffer: refused on every rank alike. */
    CHECK(err_class(MPI_Allgatherv(vbuf + rank, 1, MPI_INT, vbuf, counts, displs, MPI_INT, comm)) ==
              MPI_ERR_BUFFER, "own block as allgatherv's send buffer");
    CHECK(err_class(MPI_Allgather(vbuf + rank, 1, MPI_INT, vbuf, 1, MPI_INT, comm)) == MPI_ERR_BUFFER,
          "own block as allgather's send buffer");
    if (rank == 0) {
        CHECK(err_class(MPI_Gatherv(vbuf, 1, MPI_INT, vbuf, counts, displs, MPI_INT, 0, comm)) == MPI_ERR_BUFFER,
              "aliased gatherv");
        CHECK(err_class(MPI_Scatterv(vbuf, counts, displs, MPI_INT, vbuf, 1, MPI_INT, 0, comm)) == MPI_ERR_BUFFER,
              "aliased scatterv");
        CHECK(err_class(MPI_Gather(vbuf, 1, MPI_INT, vbuf, 1, MPI_INT, 0, comm)) == MPI_ERR_BUFFER, "aliased gather");
        CHECK(err_class(MPI_Scatter(vbuf, 1, MPI_INT, vbuf, 1, MPI_INT, 0, comm)) == MPI_ERR_BUFFER,
              "aliased scatter");
    }
    free(counts);
    free(displs);
    free(vbuf);
    CHECK(err_class(MPI_Barrier(MPI_COMM_NULL)) == MPI_ERR_COMM, "null communicator");
    CHECK(err_class(MPI_Ibarrier(comm, NULL)) == MPI_ERR_ARG, "null request");
    /* The communicator still works after refused calls. */
    MPI_Allreduce(&rank, out, 1, MPI_INT, MPI_SUM, comm);
    CHECK(out[0] == size * (size - 1) / 2, "allreduce after errors is %d", out[0]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_bcast(MPI_COMM_WORLD);
    test_gather_scatter(MPI_COMM_WORLD);
    test_alltoall(MPI_COMM_WORLD);
    test_reduce(MPI_COMM_WORLD);
    test_nonblocking();
    test_errors();
    /* Everyone's verdict. */
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? "coll_basic: %d failures\n" : "coll_basic: ok\n", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
