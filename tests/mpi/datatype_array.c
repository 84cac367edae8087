/* MPI_Type_create_subarray and MPI_Type_create_darray: rank 0 holds a global array whose elements are
 * their own linear indices and sends each rank its part through the type; the receiver compares the
 * contiguous data with the indices the test lists itself (loops over the global array in the type's
 * order, keeping what the rank owns), in C and Fortran order. Also receives into a subarray type, the
 * bounds and contents of the types, MPI_Type_match_size, and bad arguments (MPI_ERRORS_RETURN).
 * Prints "rank R: ok". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int rank, size;

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Linear index of idx[] in an array of sizes n[] (C: last index fastest; Fortran: first). */
static long linear(int ndims, const int *n, const int *idx, int order)
{
    long l = 0;
    if (order == MPI_ORDER_C)
        for (int i = 0; i < ndims; i++)
            l = l * n[i] + idx[i];
    else
        for (int i = ndims - 1; i >= 0; i--)
            l = l * n[i] + idx[i];
    return l;
}

/* Steps idx[] to the next index in the array's order; false after the last. */
static int next_index(int ndims, const int *n, int *idx, int order)
{
    for (int s = 0; s < ndims; s++) {
        int i = order == MPI_ORDER_C ? ndims - 1 - s : s;
        if (++idx[i] < n[i])
            return 1;
        idx[i] = 0;
    }
    return 0;
}

/* Rank 0 sends each rank its type (from types[r], built by every rank for every r so each checks its
 * own), and rank r compares what arrives with expect[r]. */
static void exchange(MPI_Datatype *types, long total, long **expect, long *nexpect)
{
    int *global = NULL;
    MPI_Request reqs[64];
    int nreq = 0;
    if (rank == 0) {
        global = malloc(sizeof(int) * (size_t)total);
        for (long i = 0; i < total; i++)
            global[i] = (int)i;
        for (int r = 0; r < size; r++)
            MPI_Isend(global, 1, types[r], r, 11, MPI_COMM_WORLD, &reqs[nreq++]);
    }
    long n = nexpect[rank];
    int *got = malloc(sizeof(int) * (size_t)(n + 1));
    MPI_Status st;
    MPI_Recv(got, (int)n + 1, MPI_INT, 0, 11, MPI_COMM_WORLD, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    EXPECT(count == n);
    long bad = 0;
    for (long i = 0; i < n && i < count; i++)
        bad += got[i] != expect[rank][i];
    EXPECT(bad == 0);
    if (bad)
        printf("rank %d: %ld of %ld elements differ\n", rank, bad, n);
    MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
    free(got);
    free(global);
}

static void test_subarray(int order)
{
    int n[3] = {5, 6, 7}, sub[3] = {2, 4, 3}, start[3] = {1, 2, 4};
    MPI_Datatype types[64], t;
    long *expect[64], nexpect[64], total = 5 * 6 * 7;
    /* Every rank gets a different subarray: start shifted by rank along the first dimension. */
    for (int r = 0; r < size; r++) {
        int st[3] = {r % 4, start[1], start[2]};
        EXPECT(MPI_Type_create_subarray(3, n, sub, st, order, MPI_INT, &types[r]) == MPI_SUCCESS);
        MPI_Type_commit(&types[r]);
        expect[r] = malloc(sizeof(long) * 2 * 4 * 3);
        nexpect[r] = 0;
        int idx[3] = {0, 0, 0};
        do {
            int in = 1;
            for (int i = 0; i < 3; i++)
                in &= idx[i] >= st[i] && idx[i] < st[i] + sub[i];
            if (in)
                expect[r][nexpect[r]++] = linear(3, n, idx, order);
        } while (next_index(3, n, idx, order));
    }
    MPI_Aint lb, extent;
    int tsize;
    MPI_Type_get_extent(types[0], &lb, &extent);
    MPI_Type_size(types[0], &tsize);
    EXPECT(lb == 0 && extent == total * 4 && tsize == 2 * 4 * 3 * 4);
    int ni, na, nt, comb, ints[16];
    MPI_Datatype old;
    MPI_Type_get_envelope(types[0], &ni, &na, &nt, &comb);
    EXPECT(comb == MPI_COMBINER_SUBARRAY && ni == 11 && na == 0 && nt == 1);
    MPI_Type_get_contents(types[0], 16, 0, 1, ints, NULL, &old);
    EXPECT(ints[0] == 3 && ints[1] == 5 && ints[4] == 2 && ints[8] == 2 && ints[9] == 4 && ints[10] == order &&
           old == MPI_INT);
    exchange(types, total, expect, nexpect);

    /* Receiving into the type: the elements land in the subarray, the rest is untouched. */
    int *buf = malloc(sizeof(int) * (size_t)total), vals[24];
    for (int i = 0; i < 24; i++)
        vals[i] = 1000 + i;
    for (long i = 0; i < total; i++)
        buf[i] = -1;
    MPI_Sendrecv(vals, 24, MPI_INT, rank, 12, buf, 1, types[rank], rank, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long bad = 0, k = 0;
    for (long i = 0; i < total; i++) {
        int want = k < nexpect[rank] && expect[rank][k] == i ? 1000 + (int)k++ : -1;
        bad += buf[i] != want;
    }
    EXPECT(bad == 0 && k == 24);
    free(buf);

    /* An empty subarray (MPI 4.0 allows it) and a derived old type. */
    int zero[3] = {0, 4, 3};
    EXPECT(MPI_Type_create_subarray(3, n, zero, start, order, MPI_INT, &t) == MPI_SUCCESS);
    MPI_Type_size(t, &tsize);
    MPI_Type_get_extent(t, &lb, &extent);
    EXPECT(tsize == 0 && extent == total * 4);
    MPI_Type_free(&t);
    for (int r = 0; r < size; r++) {
        MPI_Type_free(&types[r]);
        free(expect[r]);
    }
}

/* Owner coordinate of global index j in one darray dimension. */
static int owner(int j, int distrib, int darg, int g, int p)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 0;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return j / b;
    }
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (j / b) % p;
}

static void test_darray(int ndims, const int *g, const int *distrib, const int *darg, const int *p, int order)
{
    MPI_Datatype types[64];
    long *expect[64], nexpect[64], total = 1, sum = 0;
    for (int i = 0; i < ndims; i++)
        total *= g[i];
    for (int r = 0; r < size; r++) {
        int rc = MPI_Type_create_darray(size, r, ndims, g, distrib, darg, p, order, MPI_INT, &types[r]);
        EXPECT(rc == MPI_SUCCESS);
        MPI_Type_commit(&types[r]);
        int coords[8], rest = r;
        for (int i = ndims - 1; i >= 0; i--) { /* the process grid is row-major in both orders */
            coords[i] = rest % p[i];
            rest /= p[i];
        }
        expect[r] = malloc(sizeof(long) * (size_t)total);
        nexpect[r] = 0;
        int idx[8] = {0};
        do {
            int mine = 1;
            for (int i = 0; i < ndims; i++)
                mine &= owner(idx[i], distrib[i], darg[i], g[i], p[i]) == coords[i];
            if (mine)
                expect[r][nexpect[r]++] = linear(ndims, g, idx, order);
        } while (next_index(ndims, g, idx, order));
        int tsize;
        MPI_Aint lb, extent;
        MPI_Type_size(types[r], &tsize);
        MPI_Type_get_extent(types[r], &lb, &extent);
        EXPECT(tsize == nexpect[r] * 4 && lb == 0 && extent == total * 4);
        sum += nexpect[r];
    }
    EXPECT(sum == total); /* the parts tile the array */
    int ni, na, nt, comb;
    MPI_Type_get_envelope(types[0], &ni, &na, &nt, &comb);
    EXPECT(comb == MPI_COMBINER_DARRAY && ni == 4 * ndims + 4 && na == 0 && nt == 1);
    exchange(types, total, expect, nexpect);
    for (int r = 0; r < size; r++) {
        MPI_Type_free(&types[r]);
        free(expect[r]);
    }
}

static void test_bad(void)
{
    int n[2] = {4, 4}, sub[2] = {2, 2}, st[2] = {1, 1}, big[2] = {5, 2}, far[2] = {3, 0};
    MPI_Datatype t;
    EXPECT(class_of(MPI_Type_create_subarray(0, n, sub, st, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_subarray(2, n, big, st, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_subarray(2, n, sub, far, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_subarray(2, n, sub, st, 99, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_subarray(2, n, sub, st, MPI_ORDER_C, MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Type_create_subarray(2, NULL, sub, st, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    int g[2] = {8, 8}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE};
    int a[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, p[2] = {2, 2}, p1[2] = {4, 1};
    EXPECT(class_of(MPI_Type_create_darray(4, 0, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_darray(3, 0, 2, g, d, a, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_darray(4, 4, 2, g, d, a, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    int small[2] = {1, MPI_DISTRIBUTE_DFLT_DARG}; /* 1 * 4 processes cannot cover 8 */
    EXPECT(class_of(MPI_Type_create_darray(4, 0, 2, g, d, small, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    int wrong[2] = {7, MPI_DISTRIBUTE_NONE};
    EXPECT(class_of(MPI_Type_create_darray(4, 0, 2, g, wrong, a, p1, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_create_darray(4, 0, 2, g, d, a, p1, MPI_ORDER_C, (MPI_Datatype)0x8c0fffff, &t)) ==
           MPI_ERR_TYPE);
    EXPECT(MPI_Type_create_darray(4, 3, 2, g, d, a, p1, MPI_ORDER_FORTRAN, MPI_INT, &t) == MPI_SUCCESS);
    MPI_Type_free(&t);

    MPI_Datatype m = MPI_DATATYPE_NULL;
    int s = 0;
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m) == MPI_SUCCESS && MPI_Type_size(m, &s) == 0 && s == 8);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &m) == MPI_SUCCESS && m == MPI_REAL4);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &m) == MPI_SUCCESS && MPI_Type_size(m, &s) == 0 && s == 2);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &m) == MPI_SUCCESS && MPI_Type_size(m, &s) == 0 && s == 16);
    EXPECT(class_of(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &m)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_match_size(42, 4, &m)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, NULL)) == MPI_ERR_ARG);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size > 64) {
        printf("rank %d: at most 64 ranks\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    test_subarray(MPI_ORDER_C);
    test_subarray(MPI_ORDER_FORTRAN);

    int p2[2] = {0, 0}, p3[3] = {0, 1, 0};
    MPI_Dims_create(size, 2, p2);
    int g2[2] = {7, 10}, d2[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int a2[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2};
    test_darray(2, g2, d2, a2, p2, MPI_ORDER_C);
    test_darray(2, g2, d2, a2, p2, MPI_ORDER_FORTRAN);
    int c2[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC}, a3c[2] = {3, MPI_DISTRIBUTE_DFLT_DARG};
    test_darray(2, g2, c2, a3c, p2, MPI_ORDER_C);
    test_darray(2, g2, c2, a3c, p2, MPI_ORDER_FORTRAN);
    MPI_Dims_create(size, 3, p3);
    int g3[3] = {5, 4, 6}, d3[3] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK};
    int a3[3] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    test_darray(3, g3, d3, a3, p3, MPI_ORDER_C);
    test_darray(3, g3, d3, a3, p3, MPI_ORDER_FORTRAN);
    /* An explicit block size larger than the default leaves the last ranks empty. */
    int g1[1] = {10}, d1[1] = {MPI_DISTRIBUTE_BLOCK}, a1[1] = {(10 + size - 1) / size + 1}, p1[1] = {size};
    test_darray(1, g1, d1, a1, p1, MPI_ORDER_C);
    test_bad();
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
