/* The MPI 4 and 5 calls added for mpi4py's MPICH-ABI build that Axon implements, checked against what
 * the standard says (handle conversions, status fields, large-count calls, external32, the ABI version,
 * value-index pairs), and a few it does not implement, which must answer MPI_ERR_UNSUPPORTED_OPERATION
 * and leave their output handles null. Prints "rank R: ok" when every check holds. */
#include "axon_test.h"
#include <mpi-ext.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check_handles(void)
{
    EXPECT(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
    EXPECT(PMPI_Comm_c2f(MPI_COMM_WORLD) == (MPI_Fint)MPI_COMM_WORLD);
    EXPECT(PMPI_Comm_f2c(PMPI_Comm_c2f(MPI_COMM_SELF)) == MPI_COMM_SELF);
    EXPECT(MPI_Comm_fromint(MPI_Comm_toint(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
    EXPECT(MPI_Type_fromint(MPI_Type_toint(MPI_DOUBLE)) == MPI_DOUBLE);
    EXPECT(PMPI_Type_f2c(PMPI_Type_c2f(MPI_INT)) == MPI_INT);
    EXPECT(MPI_Op_fromint(MPI_Op_toint(MPI_SUM)) == MPI_SUM);
    EXPECT(MPI_Group_fromint(MPI_Group_toint(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);
    EXPECT(MPI_Info_fromint(MPI_Info_toint(MPI_INFO_ENV)) == MPI_INFO_ENV);
    EXPECT(MPI_Errhandler_fromint(MPI_Errhandler_toint(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
    EXPECT(MPI_Request_fromint(MPI_Request_toint(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
    EXPECT(MPI_Message_fromint(MPI_Message_toint(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);
    EXPECT(MPI_Win_fromint(MPI_Win_toint(MPI_WIN_NULL)) == MPI_WIN_NULL);
    EXPECT(MPI_Session_fromint(MPI_Session_toint(MPI_SESSION_NULL)) == MPI_SESSION_NULL);
    EXPECT(PMPI_File_f2c(PMPI_File_c2f(MPI_FILE_NULL)) == MPI_FILE_NULL);
    EXPECT(MPI_File_fromint(MPI_File_toint(MPI_FILE_NULL)) == MPI_FILE_NULL);
    /* A derived type's handle round-trips too. */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    EXPECT(PMPI_Type_f2c(PMPI_Type_c2f(vec)) == vec);
    MPI_Type_free(&vec);
}

static void check_status(void)
{
    MPI_Status st, back;
    memset(&st, 0, sizeof(st));
    int v = 0;
    EXPECT(MPI_Status_set_source(&st, 7) == MPI_SUCCESS);
    EXPECT(MPI_Status_set_tag(&st, 42) == MPI_SUCCESS);
    EXPECT(MPI_Status_set_error(&st, MPI_ERR_TAG) == MPI_SUCCESS);
    EXPECT(st.MPI_SOURCE == 7 && st.MPI_TAG == 42 && st.MPI_ERROR == MPI_ERR_TAG);
    EXPECT(MPI_Status_get_source(&st, &v) == MPI_SUCCESS && v == 7);
    EXPECT(MPI_Status_get_tag(&st, &v) == MPI_SUCCESS && v == 42);
    EXPECT(MPI_Status_get_error(&st, &v) == MPI_SUCCESS && v == MPI_ERR_TAG);
    EXPECT(MPI_Status_set_elements_c(&st, MPI_DOUBLE, 3) == MPI_SUCCESS);
    MPI_Count n = 0;
    EXPECT(MPI_Get_count_c(&st, MPI_DOUBLE, &n) == MPI_SUCCESS && n == 3);
    EXPECT(MPI_Get_elements_c(&st, MPI_DOUBLE, &n) == MPI_SUCCESS && n == 3);
    /* The Fortran status is the five ints in order. */
    MPI_Fint f[MPI_F_STATUS_SIZE];
    EXPECT(MPI_Status_c2f(&st, f) == MPI_SUCCESS);
    EXPECT(f[2] == 7 && f[3] == 42 && f[4] == MPI_ERR_TAG && f[0] == 24);
    memset(&back, 0xff, sizeof(back));
    EXPECT(MPI_Status_f2c(f, &back) == MPI_SUCCESS && memcmp(&back, &st, sizeof(st)) == 0);
    EXPECT(MPI_Status_set_tag(MPI_STATUS_IGNORE, 1) == MPI_ERR_ARG);
}

static void check_bigcount(int rank, int size)
{
    /* A ring of MPI_Send_c / MPI_Recv_c. */
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    double out[4] = {rank, rank + 0.5, rank + 1, rank + 1.5}, in[4] = {0};
    MPI_Request req;
    MPI_Status st;
    EXPECT(MPI_Irecv_c(in, 4, MPI_DOUBLE, from, 5, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    EXPECT(MPI_Send_c(out, 4, MPI_DOUBLE, to, 5, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, &st) == MPI_SUCCESS);
    EXPECT(in[0] == from && in[3] == from + 1.5);
    MPI_Count n = -1;
    EXPECT(MPI_Get_count_c(&st, MPI_DOUBLE, &n) == MPI_SUCCESS && n == 4);
    EXPECT(MPI_Sendrecv_c(out, 2, MPI_DOUBLE, to, 6, in, 2, MPI_DOUBLE, from, 6, MPI_COMM_WORLD, &st) ==
           MPI_SUCCESS);
    double one = 0;
    if (rank == 0)
        EXPECT(MPI_Send_c(&out[1], 1, MPI_DOUBLE, 0, 9, MPI_COMM_SELF) == MPI_SUCCESS);
    if (rank == 0)
        EXPECT(MPI_Recv_c(&one, 1, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, &st) == MPI_SUCCESS && one == 0.5);

    long sum = -1, mine = rank + 1;
    EXPECT(MPI_Allreduce_c(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(sum == (long)size * (size + 1) / 2);
    int b = rank == 0 ? 77 : 0;
    EXPECT(MPI_Bcast_c(&b, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS && b == 77);

    /* Alltoallv_c: rank r sends 100 r + i to rank i, one int at displacement i. */
    int *sbuf = malloc(sizeof(int) * size), *rbuf = malloc(sizeof(int) * size);
    MPI_Count *counts = malloc(sizeof(MPI_Count) * size);
    MPI_Aint *displs = malloc(sizeof(MPI_Aint) * size);
    for (int i = 0; i < size; i++) {
        sbuf[i] = 100 * rank + i;
        rbuf[i] = -1;
        counts[i] = 1;
        displs[i] = i;
    }
    EXPECT(MPI_Alltoallv_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
           MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        EXPECT(rbuf[i] == 100 * i + rank);
    /* The nonblocking form: the count arrays may go once the call returns. */
    for (int i = 0; i < size; i++)
        rbuf[i] = -1;
    EXPECT(MPI_Ialltoallv_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, &req) ==
           MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        counts[i] = displs[i] = -5;
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        EXPECT(rbuf[i] == 100 * i + rank);

    /* A message of more than 2^63 bytes: MPI_ERR_COUNT, before any data moves (counts beyond int are
     * fine: tests/mpi/pt2pt_bigcount sends them). */
    EXPECT(MPI_Send_c(out, (MPI_Count)1 << 61, MPI_DOUBLE, to, 5, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    /* The collectives' _c calls take counts beyond INT_MAX too (tests/mpi/coll_bigcount); a negative one
     * is MPI_ERR_COUNT. */
    for (int i = 0; i < size; i++)
        counts[i] = -((MPI_Count)1 << 33);
    EXPECT(MPI_Alltoallv_c(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
           MPI_ERR_COUNT);
    MPI_Datatype t;
    /* A type of 2^42 bytes is fine (its int size is MPI_UNDEFINED); one beyond 2^63 bytes is not. */
    MPI_Count tsize = 0;
    int isize = 0;
    EXPECT(MPI_Type_contiguous_c((MPI_Count)1 << 40, MPI_INT, &t) == MPI_SUCCESS);
    EXPECT(MPI_Type_size_c(t, &tsize) == MPI_SUCCESS && tsize == (MPI_Count)1 << 42);
    EXPECT(MPI_Type_size(t, &isize) == MPI_SUCCESS && isize == MPI_UNDEFINED);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_contiguous_c((MPI_Count)1 << 62, MPI_INT, &t) == MPI_ERR_ARG);
    EXPECT(MPI_Type_contiguous_c(3, MPI_INT, &t) == MPI_SUCCESS);
    EXPECT(MPI_Type_size_c(t, &tsize) == MPI_SUCCESS && tsize == 12);
    MPI_Type_free(&t);
    free(sbuf), free(rbuf), free(counts), free(displs);
}

/* The forms of the _c collectives and point-to-point calls that check_bigcount does not reach, each
 * checked for its data: they share their narrowing by argument shape, so a mix-up of arguments or twins
 * shows as wrong data or a wrong error. */
static void check_bigcount_forms(int rank, int size)
{
    MPI_Request req;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    /* Ibcast_c from the last rank. */
    long v = rank == size - 1 ? 4242 : -1;
    EXPECT(MPI_Ibcast_c(&v, 1, MPI_LONG, size - 1, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && v == 4242);

    /* Allgatherv_c with MPI_Aint displacements: rank i's i + 1 ints land in reverse rank order. */
    MPI_Count *counts = calloc(size, sizeof(MPI_Count));
    MPI_Aint *displs = calloc(size, sizeof(MPI_Aint));
    int total = size * (size + 1) / 2;
    int *all = calloc(total, sizeof(int)), mine[8];
    for (int i = 0, at = 0; i < size; i++) {
        counts[size - 1 - i] = size - i;
        displs[size - 1 - i] = at;
        at += size - i;
    }
    for (int k = 0; k <= rank; k++)
        mine[k] = 10 * rank + k;
    EXPECT(MPI_Allgatherv_c(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        for (int k = 0; k <= i; k++)
            EXPECT(all[displs[i] + k] == 10 * i + k);
    /* A negative count is MPI_ERR_COUNT, found before any data moves, on every rank. */
    counts[0] = -((MPI_Count)1 << 35);
    EXPECT(MPI_Allgatherv_c(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD) ==
           MPI_ERR_COUNT);
    counts[0] = 1;

    /* Scatterv_c: the arrays are read at the root only (NULL elsewhere); rank i gets i + 1 ints. */
    for (int i = 0, at = 0; i < size; i++) {
        counts[i] = i + 1;
        displs[i] = at;
        at += i + 1;
        for (int k = 0; k <= i; k++)
            all[displs[i] + k] = 100 * i + k;
    }
    int got[8] = {0};
    EXPECT(MPI_Scatterv_c(all, rank == 0 ? counts : NULL, rank == 0 ? displs : NULL, MPI_INT, got, rank + 1, MPI_INT,
                          0, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int k = 0; k <= rank; k++)
        EXPECT(got[k] == 100 * rank + k);

    /* Reduce_scatter_block_c: each rank gets the sum of its two-int block. */
    long *contrib = calloc(2 * size, sizeof(long)), block[2] = {-1, -1};
    for (int i = 0; i < 2 * size; i++)
        contrib[i] = i + rank;
    EXPECT(MPI_Reduce_scatter_block_c(contrib, block, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    long base = (long)size * (size - 1) / 2;
    EXPECT(block[0] == 2L * rank * size + base && block[1] == (2L * rank + 1) * size + base);

    /* Allreduce_init_c started twice: the plan keeps the count after the call, with new data each time. */
    long in = 0, out = -1;
    EXPECT(MPI_Allreduce_init_c(&in, &out, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &req) ==
           MPI_SUCCESS);
    for (int round = 1; round <= 2; round++) {
        in = 1000L * round + rank;
        EXPECT(MPI_Start(&req) == MPI_SUCCESS && MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        EXPECT(out == 1000L * round + size - 1);
    }
    EXPECT(MPI_Request_free(&req) == MPI_SUCCESS);
    /* A count beyond INT_MAX is taken (the request freed unstarted: the buffers are one long); a
     * negative one is not. */
    EXPECT(MPI_Allreduce_init_c(&in, &out, (MPI_Count)INT_MAX + 7, MPI_LONG, MPI_MAX, MPI_COMM_WORLD,
                                MPI_INFO_NULL, &req) == MPI_SUCCESS);
    EXPECT(MPI_Request_free(&req) == MPI_SUCCESS);
    EXPECT(MPI_Allreduce_init_c(&in, &out, -1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &req) ==
           MPI_ERR_COUNT);

    /* Iscan_c: the prefix sums of rank + 1. */
    long one = rank + 1, prefix = -1;
    EXPECT(MPI_Iscan_c(&one, &prefix, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && prefix == (long)(rank + 1) * (rank + 2) / 2);

    /* Neighbor_alltoall_c on a periodic ring: block 0 goes left, block 1 right. */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    EXPECT(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    int nsend[2] = {10 * rank, 10 * rank + 1}, nrecv[2] = {-1, -1};
    EXPECT(MPI_Neighbor_alltoall_c(nsend, 1, MPI_INT, nrecv, 1, MPI_INT, ring) == MPI_SUCCESS);
    EXPECT(nrecv[0] == 10 * left + 1 && nrecv[1] == 10 * right);
    /* Its alltoallv form, through the persistent twin: arrays sized by the two neighbors. */
    MPI_Count ncounts[2] = {1, 1};
    MPI_Aint ndispls[2] = {0, 1};
    nrecv[0] = nrecv[1] = -1;
    EXPECT(MPI_Neighbor_alltoallv_init_c(nsend, ncounts, ndispls, MPI_INT, nrecv, ncounts, ndispls, MPI_INT, ring,
                                         MPI_INFO_NULL, &req) == MPI_SUCCESS);
    EXPECT(MPI_Start(&req) == MPI_SUCCESS && MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    EXPECT(nrecv[0] == 10 * left + 1 && nrecv[1] == 10 * right);
    EXPECT(MPI_Request_free(&req) == MPI_SUCCESS);
    ncounts[1] = -((MPI_Count)1 << 32);
    EXPECT(MPI_Ineighbor_alltoallv_c(nsend, ncounts, ndispls, MPI_INT, nrecv, ncounts, ndispls, MPI_INT, ring, &req) ==
           MPI_ERR_COUNT);
    MPI_Comm_free(&ring);

    /* Send_init_c / Recv_init_c around the ring, and Isend_c with its count checked. */
    int token = rank, back = -1;
    MPI_Request pr[2];
    EXPECT(MPI_Recv_init_c(&back, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &pr[0]) == MPI_SUCCESS);
    EXPECT(MPI_Send_init_c(&token, 1, MPI_INT, right, 11, MPI_COMM_WORLD, &pr[1]) == MPI_SUCCESS);
    EXPECT(MPI_Startall(2, pr) == MPI_SUCCESS && MPI_Waitall(2, pr, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    EXPECT(back == left);
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);
    EXPECT(MPI_Isend_c(&token, (MPI_Count)INT_MIN - 1, MPI_INT, right, 12, MPI_COMM_WORLD, &req) == MPI_ERR_COUNT);

    free(counts), free(displs), free(all), free(contrib);
}

static void check_external32(void)
{
    unsigned char buf[64];
    MPI_Aint pos = 0, size = 0;
    int i = 0x01020304, i2 = 0;
    double d = 1.0, d2 = 0;
    EXPECT(MPI_Pack_external_size("external32", 1, MPI_INT, &size) == MPI_SUCCESS && size == 4);
    EXPECT(MPI_Pack_external("external32", &i, 1, MPI_INT, buf, sizeof(buf), &pos) == MPI_SUCCESS && pos == 4);
    EXPECT(MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, buf, sizeof(buf), &pos) == MPI_SUCCESS &&
           pos == 12);
    static const unsigned char want[12] = {1, 2, 3, 4, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    EXPECT(memcmp(buf, want, sizeof(want)) == 0);
    pos = 0;
    EXPECT(MPI_Unpack_external("external32", buf, 12, &pos, &i2, 1, MPI_INT) == MPI_SUCCESS && i2 == i);
    EXPECT(MPI_Unpack_external("external32", buf, 12, &pos, &d2, 1, MPI_DOUBLE) == MPI_SUCCESS && d2 == d);
    EXPECT(pos == 12);
    /* A derived type of one basic type: a strided vector of ints, every element reversed. */
    int v[4] = {0x11223344, -1, 0x55667788, -1}, w[4] = {0, 0, 0, 0};
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    pos = 0;
    EXPECT(MPI_Pack_external("external32", v, 1, vec, buf, sizeof(buf), &pos) == MPI_SUCCESS && pos == 8);
    EXPECT(buf[0] == 0x11 && buf[3] == 0x44 && buf[4] == 0x55 && buf[7] == 0x88);
    pos = 0;
    EXPECT(MPI_Unpack_external("external32", buf, 8, &pos, w, 1, vec) == MPI_SUCCESS);
    EXPECT(w[0] == v[0] && w[2] == v[2] && w[1] == 0);
    MPI_Type_free(&vec);
    MPI_Count csize = 0, cpos = 0;
    EXPECT(MPI_Pack_external_size_c("external32", 2, MPI_DOUBLE, &csize) == MPI_SUCCESS && csize == 16);
    EXPECT(MPI_Pack_external_c("external32", &d, 1, MPI_DOUBLE, buf, 64, &cpos) == MPI_SUCCESS && cpos == 8);
    /* Another representation is an invalid argument; a type external32 cannot be made of is unsupported. */
    pos = 0;
    EXPECT(MPI_Pack_external("native", &i, 1, MPI_INT, buf, sizeof(buf), &pos) == MPI_ERR_ARG);
    MPI_Datatype mixed;
    int blens[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Type_create_struct(2, blens, disps, (MPI_Datatype[]){MPI_DOUBLE, MPI_INT}, &mixed);
    MPI_Type_commit(&mixed);
    EXPECT(MPI_Pack_external("external32", &d, 1, mixed, buf, sizeof(buf), &pos) == MPI_ERR_UNSUPPORTED_OPERATION);
    MPI_Type_free(&mixed);
    /* Narrower in external32: MPI_LONG is 4 bytes there (a value beyond them is a conversion error); the
     * MAXLOC pairs go value by value. */
    long l[2] = {-2, 0x01020304L}, l2[2] = {0, 0}, big = 1L << 40;
    MPI_Aint lsize = 0;
    pos = 0;
    EXPECT(MPI_Pack_external_size("external32", 2, MPI_LONG, &lsize) == MPI_SUCCESS && lsize == 8);
    EXPECT(MPI_Pack_external("external32", l, 2, MPI_LONG, buf, sizeof(buf), &pos) == MPI_SUCCESS && pos == 8);
    EXPECT(buf[0] == 0xff && buf[3] == 0xfe && buf[4] == 0x01 && buf[7] == 0x04);
    pos = 0;
    EXPECT(MPI_Unpack_external("external32", buf, 8, &pos, l2, 2, MPI_LONG) == MPI_SUCCESS && l2[0] == -2 &&
           l2[1] == 0x01020304L);
    pos = 0;
    EXPECT(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf, sizeof(buf), &pos) == MPI_ERR_CONVERSION);
    struct { double v; int k; } di = {1.5, 7}, di2 = {0, 0};
    pos = 0;
    EXPECT(MPI_Pack_external("external32", &di, 1, MPI_DOUBLE_INT, buf, sizeof(buf), &pos) == MPI_SUCCESS &&
           pos == 12);
    EXPECT(buf[0] == 0x3f && buf[1] == 0xf8 && buf[11] == 7);
    pos = 0;
    EXPECT(MPI_Unpack_external("external32", buf, 12, &pos, &di2, 1, MPI_DOUBLE_INT) == MPI_SUCCESS &&
           di2.v == 1.5 && di2.k == 7);
    /* long double: IEEE binary128 in external32 (1.5: sign 0, exponent 0x3fff, fraction .1). */
    long double ld = 1.5L, ld2 = 0;
    pos = 0;
    EXPECT(MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, buf, sizeof(buf), &pos) == MPI_SUCCESS &&
           pos == 16);
    EXPECT(buf[0] == 0x3f && buf[1] == 0xff && buf[2] == 0x80 && buf[3] == 0 && buf[15] == 0);
    pos = 0;
    EXPECT(MPI_Unpack_external("external32", buf, 16, &pos, &ld2, 1, MPI_LONG_DOUBLE) == MPI_SUCCESS && ld2 == ld);
    /* Native packing with large counts. */
    MPI_Count p = 0;
    EXPECT(MPI_Pack_c(&i, 1, MPI_INT, buf, 64, &p, MPI_COMM_WORLD) == MPI_SUCCESS && p == 4);
    p = 0;
    EXPECT(MPI_Unpack_c(buf, 64, &p, &i2, 1, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS && p == 4 && i2 == i);
    EXPECT(MPI_Pack_size_c((MPI_Count)1 << 33, MPI_INT, MPI_COMM_WORLD, &csize) == MPI_SUCCESS &&
           csize == ((MPI_Count)1 << 35));
}

static void check_abi_and_types(void)
{
    int major = 99, minor = 99;
    EXPECT(MPI_Abi_get_version(&major, &minor) == MPI_SUCCESS);
    EXPECT(major == -1 && minor == -1); /* not the MPI 5 standard ABI */
    MPI_Info info = MPI_INFO_NULL;
    char value[32];
    int flag = 0;
    EXPECT(MPI_Abi_get_info(&info) == MPI_SUCCESS && info != MPI_INFO_NULL);
    EXPECT(MPI_Info_get(info, "mpi_aint_size", sizeof(value) - 1, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "8") == 0);
    MPI_Info_free(&info);
    MPI_Datatype pair = MPI_INT;
    EXPECT(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, &pair) == MPI_SUCCESS && pair == MPI_FLOAT_INT);
    EXPECT(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair) == MPI_SUCCESS && pair == MPI_DOUBLE_INT);
    EXPECT(MPI_Type_get_value_index(MPI_INT, MPI_INT, &pair) == MPI_SUCCESS && pair == MPI_2INT);
    EXPECT(MPI_Type_get_value_index(MPI_CHAR, MPI_DOUBLE, &pair) == MPI_SUCCESS && pair == MPI_DATATYPE_NULL);
    /* Request statuses without completion. */
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int index = 0, outcount = 0, indices[2];
    EXPECT(MPI_Request_get_status_all(2, reqs, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS && flag == 1);
    EXPECT(MPI_Request_get_status_any(2, reqs, &index, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag == 1 &&
           index == MPI_UNDEFINED);
    EXPECT(MPI_Request_get_status_some(2, reqs, &outcount, indices, MPI_STATUSES_IGNORE) == MPI_SUCCESS &&
           outcount == MPI_UNDEFINED);
    int x = 3, y = 0;
    MPI_Irecv(&y, 1, MPI_INT, 0, 11, MPI_COMM_SELF, &reqs[0]);
    EXPECT(MPI_Request_get_status_any(2, reqs, &index, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag == 0);
    MPI_Send(&x, 1, MPI_INT, 0, 11, MPI_COMM_SELF);
    do
        EXPECT(MPI_Request_get_status_all(2, reqs, &flag, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    while (!flag);
    EXPECT(reqs[0] != MPI_REQUEST_NULL); /* not freed */
    EXPECT(MPI_Wait(&reqs[0], MPI_STATUS_IGNORE) == MPI_SUCCESS && y == 3);
}

/* MPI_BOTTOM with absolute addresses in the w-forms (every block's base is NULL, its place in the
 * datatype or the displacement), and an alltoallv whose empty send and receive buffers share a pointer
 * (not an aliasing error): both went wrong before mpi4py's test suite ran on Axon. */
static void check_bottom(int rank, int size)
{
    int *out = calloc((size_t)size, sizeof(int)), *in = calloc((size_t)size, sizeof(int));
    int *counts = calloc((size_t)size, sizeof(int)), *displs = calloc((size_t)size, sizeof(int));
    MPI_Datatype *stypes = calloc((size_t)size, sizeof(MPI_Datatype));
    MPI_Datatype *rtypes = calloc((size_t)size, sizeof(MPI_Datatype));
    for (int j = 0; j < size; j++) {
        out[j] = 100 * rank + j;
        in[j] = -1;
        counts[j] = 1;
        MPI_Aint a;
        int one = 1;
        MPI_Get_address(&out[j], &a);
        MPI_Type_create_struct(1, &one, &a, (MPI_Datatype[]){MPI_INT}, &stypes[j]);
        MPI_Type_commit(&stypes[j]);
        MPI_Get_address(&in[j], &a);
        MPI_Type_create_struct(1, &one, &a, (MPI_Datatype[]){MPI_INT}, &rtypes[j]);
        MPI_Type_commit(&rtypes[j]);
    }
    EXPECT(MPI_Alltoallw(MPI_BOTTOM, counts, displs, stypes, MPI_BOTTOM, counts, displs, rtypes, MPI_COMM_WORLD) ==
           MPI_SUCCESS);
    for (int j = 0; j < size; j++) {
        EXPECT(in[j] == 100 * j + rank);
        MPI_Type_free(&stypes[j]);
        MPI_Type_free(&rtypes[j]);
    }
    /* A ring (periodic cart): absolute addresses as the MPI_Aint displacements of MPI_BOTTOM. */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int sv[2] = {rank, rank}, rv[2] = {-1, -1}, c2[2] = {1, 1};
    MPI_Aint sd[2], rd[2];
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT};
    for (int k = 0; k < 2; k++) {
        MPI_Get_address(&sv[k], &sd[k]);
        MPI_Get_address(&rv[k], &rd[k]);
    }
    EXPECT(MPI_Neighbor_alltoallw(MPI_BOTTOM, c2, sd, t2, MPI_BOTTOM, c2, rd, t2, ring) == MPI_SUCCESS);
    EXPECT(rv[0] == (rank + size - 1) % size && rv[1] == (rank + 1) % size);
    MPI_Comm_free(&ring);
    int zeros[64] = {0};
    char empty[1];
    EXPECT(MPI_Alltoallv(empty, zeros, zeros, MPI_INT, empty, zeros, zeros, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    free(out);
    free(in);
    free(counts);
    free(displs);
    free(stypes);
    free(rtypes);
}

/* MPI-1's attribute calls (deprecated, not removed): a keyval whose attribute MPI_DUP_FN copies into a
 * duplicate, read back, deleted and freed. */
static void check_mpi1_attrs(void)
{
    int keyval = MPI_KEYVAL_INVALID, value = 17, *got = NULL, flag = 0;
    EXPECT(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &keyval, NULL) == MPI_SUCCESS);
    EXPECT(MPI_Attr_put(MPI_COMM_WORLD, keyval, &value) == MPI_SUCCESS);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    EXPECT(MPI_Attr_get(dup, keyval, &got, &flag) == MPI_SUCCESS && flag && got == &value);
    EXPECT(MPI_Attr_delete(dup, keyval) == MPI_SUCCESS);
    EXPECT(MPI_Attr_get(dup, keyval, &got, &flag) == MPI_SUCCESS && !flag);
    MPI_Comm_free(&dup);
    EXPECT(MPI_Attr_delete(MPI_COMM_WORLD, keyval) == MPI_SUCCESS);
    EXPECT(MPI_Keyval_free(&keyval) == MPI_SUCCESS && keyval == MPI_KEYVAL_INVALID);
}

/* MPI-1's functions that MPI-3 removed and MPICH's library still exports: the same as their
 * replacements (MPI_LB and MPI_UB set a struct's bounds). */
static int removed_handler_calls;
static void removed_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm, (void)code;
    removed_handler_calls++;
}

static void check_removed_mpi1(void)
{
    double x[4];
    MPI_Aint a = 0, b = 0, lb = -1, ub = -1, extent = -1;
    EXPECT(MPI_Address(&x[2], &a) == MPI_SUCCESS && MPI_Get_address(&x[2], &b) == MPI_SUCCESS && a == b);
    int bl[3] = {1, 2, 1};
    MPI_Aint disp[3] = {-8, 0, 40};
    MPI_Datatype types[3] = {MPI_LB, MPI_INT, MPI_UB}, st, hv, hi;
    EXPECT(MPI_Type_struct(3, bl, disp, types, &st) == MPI_SUCCESS);
    EXPECT(MPI_Type_lb(st, &lb) == MPI_SUCCESS && lb == -8);
    EXPECT(MPI_Type_ub(st, &ub) == MPI_SUCCESS && ub == 40);
    EXPECT(MPI_Type_extent(st, &extent) == MPI_SUCCESS && extent == 48);
    int size = -1, ni, na, nd, combiner = -1;
    MPI_Type_size(st, &size);
    EXPECT(size == 8);
    MPI_Type_get_envelope(st, &ni, &na, &nd, &combiner);
    EXPECT(combiner == MPI_COMBINER_STRUCT);
    EXPECT(MPI_Type_hvector(3, 2, 24, MPI_INT, &hv) == MPI_SUCCESS);
    MPI_Type_size(hv, &size);
    MPI_Type_get_extent(hv, &lb, &extent);
    EXPECT(size == 24 && extent == 2 * 24 + 8);
    int hbl[2] = {1, 3};
    MPI_Aint hdisp[2] = {0, 16};
    EXPECT(MPI_Type_hindexed(2, hbl, hdisp, MPI_INT, &hi) == MPI_SUCCESS);
    MPI_Type_size(hi, &size);
    MPI_Type_get_envelope(hi, &ni, &na, &nd, &combiner);
    EXPECT(size == 16 && combiner == MPI_COMBINER_HINDEXED);
    MPI_Type_free(&st);
    MPI_Type_free(&hv);
    MPI_Type_free(&hi);

    MPI_Errhandler eh, old, got;
    EXPECT(MPI_Errhandler_create(removed_handler, &eh) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_get(MPI_COMM_SELF, &old) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_set(MPI_COMM_SELF, eh) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_get(MPI_COMM_SELF, &got) == MPI_SUCCESS && got == eh);
    MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_OTHER);
    EXPECT(removed_handler_calls == 1);
    MPI_Errhandler_set(MPI_COMM_SELF, old);
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&old);
    MPI_Errhandler_free(&eh);
    /* Bad arguments reach MPI_COMM_WORLD's handler (MPI_ERRORS_RETURN here) with the standard's classes. */
    int cls = -1;
    MPI_Datatype none = MPI_DATATYPE_NULL;
    EXPECT(MPI_Error_class(MPI_Type_extent(MPI_INT, NULL), &cls) == MPI_SUCCESS && cls == MPI_ERR_ARG);
    EXPECT(MPI_Error_class(MPI_Type_lb(MPI_DATATYPE_NULL, &lb), &cls) == MPI_SUCCESS && cls == MPI_ERR_TYPE);
    EXPECT(MPI_Error_class(MPI_Type_struct(-1, bl, disp, types, &none), &cls) == MPI_SUCCESS && cls == MPI_ERR_COUNT);
    EXPECT(MPI_Error_class(MPI_Type_hvector(2, 1, 8, MPI_DATATYPE_NULL, &none), &cls) == MPI_SUCCESS &&
           cls == MPI_ERR_TYPE);
    EXPECT(MPI_Error_class(MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN), &cls) == MPI_SUCCESS &&
           cls == MPI_ERR_COMM);
    EXPECT(MPI_Error_class(MPI_Address(&x[0], NULL), &cls) == MPI_SUCCESS && cls == MPI_ERR_ARG);
}

/* MPICH's fault tolerance calls, where no failure is survived: agreement is an AND over all, shrinking
 * keeps everyone, nothing failed; revoking is refused. */
static void check_ulfm(int rank, int size)
{
    int flag = rank == 0 ? 0x6 : 0x7, all = 0x7, cls = -1;
    for (int r = 0; r < size; r++)
        all &= r == 0 ? 0x6 : 0x7;
    EXPECT(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag == all);
    MPI_Comm shrunk;
    int ssize = -1, srank = -1, sum = 0;
    EXPECT(MPIX_Comm_shrink(MPI_COMM_WORLD, &shrunk) == MPI_SUCCESS);
    MPI_Comm_size(shrunk, &ssize);
    MPI_Comm_rank(shrunk, &srank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, shrunk);
    EXPECT(ssize == size && srank == rank && sum == size * (size - 1) / 2);
    MPI_Comm_free(&shrunk);
    MPI_Group failed = MPI_GROUP_NULL;
    EXPECT(MPIX_Comm_failure_ack(MPI_COMM_WORLD) == MPI_SUCCESS);
    EXPECT(MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &failed) == MPI_SUCCESS && failed == MPI_GROUP_EMPTY);
    EXPECT(MPI_Error_class(MPIX_Comm_revoke(MPI_COMM_WORLD), &cls) == MPI_SUCCESS &&
           cls == MPI_ERR_UNSUPPORTED_OPERATION);
    EXPECT(MPI_Error_class(MPIX_ERR_REVOKED, &cls) == MPI_SUCCESS && cls == MPIX_ERR_REVOKED);
    /* Bad arguments (MPI_COMM_WORLD returns errors here). */
    EXPECT(MPI_Error_class(MPIX_Comm_agree(MPI_COMM_NULL, &flag), &cls) == MPI_SUCCESS && cls == MPI_ERR_COMM);
    EXPECT(MPI_Error_class(MPIX_Comm_agree(MPI_COMM_WORLD, NULL), &cls) == MPI_SUCCESS && cls == MPI_ERR_ARG);
    EXPECT(MPI_Error_class(MPIX_Comm_shrink(MPI_COMM_WORLD, NULL), &cls) == MPI_SUCCESS && cls == MPI_ERR_ARG);
    EXPECT(MPI_Error_class(MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, NULL), &cls) == MPI_SUCCESS &&
           cls == MPI_ERR_ARG);
}

/* MPI_Get_hw_resource_info (MPI 4.1, in MPI 5.0's form): resource types as URIs, each "true" or "false";
 * the machine always holds the process, and a "true" type splits it into a communicator. */
static void check_hw_info(void)
{
    MPI_Info info = MPI_INFO_NULL;
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL];
    int nkeys = 0, flag = 0, cls = -1;
    EXPECT(MPI_Get_hw_resource_info(&info) == MPI_SUCCESS && info != MPI_INFO_NULL);
    EXPECT(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys >= 8);
    for (int i = 0; i < nkeys; i++) {
        int len = sizeof(value);
        EXPECT(MPI_Info_get_nthkey(info, i, key) == MPI_SUCCESS && strstr(key, "://") != NULL);
        EXPECT(MPI_Info_get_string(info, key, &len, value, &flag) == MPI_SUCCESS && flag &&
               (strcmp(value, "true") == 0 || strcmp(value, "false") == 0));
        if (strcmp(value, "true") != 0)
            continue;
        MPI_Info split;
        MPI_Comm c = MPI_COMM_NULL;
        MPI_Info_create(&split);
        MPI_Info_set(split, "mpi_hw_resource_type", key);
        EXPECT(MPI_Comm_split_type(MPI_COMM_SELF, MPI_COMM_TYPE_HW_GUIDED, 0, split, &c) == MPI_SUCCESS &&
               c != MPI_COMM_NULL);
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Info_free(&split);
    }
    int len = sizeof(value);
    EXPECT(MPI_Info_get_string(info, "hwloc://Machine", &len, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "true") == 0);
    MPI_Info_free(&info);
    EXPECT(MPI_Error_class(MPI_Get_hw_resource_info(NULL), &cls) == MPI_SUCCESS && cls == MPI_ERR_ARG);
}

/* MPI_Comm_disconnect is real: a collective that frees the communicator; not for MPI_COMM_NULL or the
 * predefined ones. */
static void check_disconnect(void)
{
    MPI_Comm dup;
    int cls = MPI_SUCCESS;
    EXPECT(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    EXPECT(MPI_Comm_disconnect(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL);
    MPI_Comm null = MPI_COMM_NULL, world = MPI_COMM_WORLD;
    MPI_Error_class(MPI_Comm_disconnect(&null), &cls);
    EXPECT(cls == MPI_ERR_COMM);
    MPI_Error_class(MPI_Comm_disconnect(&world), &cls);
    EXPECT(cls == MPI_ERR_COMM && world == MPI_COMM_WORLD);
}

static void check_unsupported(void)
{
    MPI_File fh = (MPI_File)&fh;
    EXPECT(MPI_File_open(MPI_COMM_WORLD, "/tmp/x", 0, MPI_INFO_NULL, &fh) == MPI_ERR_UNSUPPORTED_OPERATION);
    EXPECT(fh == MPI_FILE_NULL);
    /* Windows exist (tests/mpi/rma_win_api): a bad argument of a constructor leaves the null handle, and
     * an operation on no window is MPI_ERR_WIN. */
    MPI_Win win = 123;
    void *base = NULL;
    int wcls = -1;
    EXPECT(MPI_Error_class(MPI_Win_allocate_shared(64, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), &wcls) ==
               MPI_SUCCESS &&
           wcls == MPI_ERR_DISP);
    EXPECT(win == MPI_WIN_NULL);
    /* Sessions and their buffers work (tests/mpi/session_basic, session_buffer). */
    MPI_Session session = MPI_SESSION_NULL;
    EXPECT(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session) == MPI_SUCCESS);
    char sbuf[256];
    EXPECT(MPI_Session_attach_buffer(session, sbuf, sizeof(sbuf)) == MPI_SUCCESS);
    MPI_Request flush = MPI_REQUEST_NULL;
    EXPECT(MPI_Session_iflush_buffer(session, &flush) == MPI_SUCCESS && flush != MPI_REQUEST_NULL);
    EXPECT(MPI_Wait(&flush, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    EXPECT(MPI_Session_finalize(&session) == MPI_SUCCESS && session == MPI_SESSION_NULL);
    MPI_Comm inter = MPI_COMM_WORLD;
    EXPECT(MPI_Comm_spawn("true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                          MPI_ERRCODES_IGNORE) == MPI_ERR_UNSUPPORTED_OPERATION);
    EXPECT(inter == MPI_COMM_NULL);
    int cls = -1;
    EXPECT(MPI_Error_class(MPI_Accumulate(NULL, 0, MPI_INT, 0, 0, 0, MPI_INT, MPI_SUM, MPI_WIN_NULL), &cls) ==
               MPI_SUCCESS &&
           cls == MPI_ERR_WIN);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    check_handles();
    check_status();
    check_bigcount(rank, size);
    check_bigcount_forms(rank, size);
    check_external32();
    check_abi_and_types();
    check_unsupported();
    check_disconnect();
    check_mpi1_attrs();
    check_removed_mpi1();
    check_ulfm(rank, size);
    check_hw_info();
    check_bottom(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!failures)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
