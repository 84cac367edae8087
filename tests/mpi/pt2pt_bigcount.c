/* Point-to-point messages of more than INT_MAX elements through the large-count (_c) calls of MPI 4, and
 * a datatype of more than INT_MAX bytes sent with count 1 through the int calls: blocking, nonblocking
 * and persistent, checked at both ends, in the middle (around byte 2^31) and at a sample of positions,
 * with the counts the status gives (MPI_Get_count_c, MPI_Get_elements_c, and MPI_UNDEFINED from the int
 * queries). Also MPI_DATATYPE_NULL towards MPI_PROC_NULL (MPICH's pt2pt/recvnull), accepted, and
 * refused towards a real rank.
 *
 * 2 ranks: rank 0 and rank 1 exchange (the environment picks the path: the node's single copy, or UCX
 * rendezvous with AXON_PT2PT_SHM_MAX=0 AXON_PT2PT_CMA=0). 1 rank: the same message sent to itself.
 * Each rank holds at most two buffers of 2 GiB. Prints "pt2pt_bigcount: ok" on rank 0 when all passed. */
#include <limits.h>
#include "axon_test.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

#define N ((MPI_Count)INT_MAX + 101) /* 2^31 + 100 */
#define SAMPLE 4099                  /* a prime: the sample walks every residue of the words */

/* The 8 bytes a message carries from offset 8 k on, for the pattern seed: neighbours differ, and the
 * word depends on k's high bits too, so a piece landing 2^31 bytes off shows. */
static uint64_t word(uint64_t k, unsigned seed)
{
    return (k ^ k >> 28) * 0x9e3779b97f4a7c15ull + seed;
}

static unsigned char pattern(int64_t i, unsigned seed)
{
    return (unsigned char)(word((uint64_t)i >> 3, seed) >> 8 * (i & 7));
}

static void fill(unsigned char *p, int64_t n, unsigned seed)
{
    int64_t words = n / 8;
    for (int64_t k = 0; k < words; k++) {
        uint64_t w = word((uint64_t)k, seed);
        memcpy(p + 8 * k, &w, 8);
    }
    for (int64_t i = 8 * words; i < n; i++)
        p[i] = pattern(i, seed);
}

/* The offsets checked in n bytes: both ends, around 2^31, and a sample; *k of them. */
static int64_t *checked(int64_t n, size_t *k)
{
    int64_t *at = malloc(sizeof(int64_t) * (size_t)(3 * 4096 + 2 + n / SAMPLE + 1));
    *k = 0;
    if (!at)
        return NULL;
    for (int64_t i = 0; i < 4096 && i < n; i++)
        at[(*k)++] = i;
    for (int64_t i = (int64_t)INT_MAX - 2048; i <= (int64_t)INT_MAX + 2048 && i < n; i++)
        at[(*k)++] = i;
    for (int64_t i = n > 4096 ? n - 4096 : 0; i < n; i++)
        at[(*k)++] = i;
    for (int64_t i = 0; i < n; i += SAMPLE)
        at[(*k)++] = i;
    return at;
}

/* Poisons the checked offsets, so a receive that wrote nothing there fails. */
static void poison(unsigned char *p, int64_t n, unsigned seed)
{
    size_t k;
    int64_t *at = checked(n, &k);
    for (size_t j = 0; j < k; j++)
        p[at[j]] = (unsigned char)~pattern(at[j], seed);
    free(at);
}

/* Byte i of what arrived should be byte i of the pattern, or byte i + gap from gap_at on (a type with a
 * hole of gap bytes there). */
static void verify(const char *what, const unsigned char *p, int64_t n, unsigned seed, int64_t gap_at,
                   int64_t gap)
{
    size_t k;
    int64_t *at = checked(n, &k), bad = 0;
    CHECK(at, "%s: no memory for the offsets", what);
    for (size_t j = 0; at && j < k; j++) {
        int64_t i = at[j], from = i < gap_at ? i : i + gap;
        if (p[i] != pattern(from, seed) && bad++ < 3)
            CHECK(0, "%s: byte %lld is 0x%02x, expected 0x%02x", what, (long long)i, p[i], pattern(from, seed));
    }
    CHECK(bad == 0, "%s: %lld checked bytes differ", what, (long long)bad);
    free(at);
}

static void check_counts(const char *what, const MPI_Status *st, MPI_Datatype type, MPI_Count count,
                         MPI_Count elements)
{
    MPI_Count c = -1, e = -1;
    int ic = -2, ie = -2;
    CHECK(MPI_Get_count_c(st, type, &c) == MPI_SUCCESS && c == count, "%s: MPI_Get_count_c gives %lld, not %lld",
          what, (long long)c, (long long)count);
    CHECK(MPI_Get_elements_c(st, type, &e) == MPI_SUCCESS && e == elements,
          "%s: MPI_Get_elements_c gives %lld, not %lld", what, (long long)e, (long long)elements);
    MPI_Get_count(st, type, &ic);
    MPI_Get_elements(st, type, &ie);
    CHECK(ic == (count > INT_MAX ? MPI_UNDEFINED : (int)count), "%s: MPI_Get_count gives %d", what, ic);
    CHECK(ie == (elements > INT_MAX ? MPI_UNDEFINED : (int)elements), "%s: MPI_Get_elements gives %d", what, ie);
}

/* N chars from rank `from` to rank `to` (the same rank when alone), blocking or not. */
static void exchange_chars(unsigned char *out, unsigned char *in, int from, int to, bool blocking, unsigned seed)
{
    const char *what = blocking ? "MPI_Send_c/MPI_Recv_c" : "MPI_Isend_c/MPI_Irecv_c";
    MPI_Status st;
    if (rank == from)
        fill(out, N, seed);
    if (rank == to)
        poison(in, N, seed);
    if (from == to) {
        MPI_Request r;
        CHECK(MPI_Irecv_c(in, N, MPI_CHAR, to, 1, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "%s: irecv", what);
        if (blocking)
            CHECK(MPI_Send_c(out, N, MPI_CHAR, to, 1, MPI_COMM_WORLD) == MPI_SUCCESS, "%s: send", what);
        else {
            MPI_Request s;
            CHECK(MPI_Isend_c(out, N, MPI_CHAR, to, 1, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "%s: isend", what);
            MPI_Wait(&s, MPI_STATUS_IGNORE);
        }
        MPI_Wait(&r, &st);
    } else if (rank == from) {
        if (blocking)
            CHECK(MPI_Send_c(out, N, MPI_CHAR, to, 1, MPI_COMM_WORLD) == MPI_SUCCESS, "%s: send", what);
        else {
            MPI_Request s;
            CHECK(MPI_Isend_c(out, N, MPI_CHAR, to, 1, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "%s: isend", what);
            MPI_Wait(&s, MPI_STATUS_IGNORE);
        }
    } else if (rank == to) {
        if (blocking)
            CHECK(MPI_Recv_c(in, N, MPI_CHAR, from, 1, MPI_COMM_WORLD, &st) == MPI_SUCCESS, "%s: recv", what);
        else {
            MPI_Request r;
            CHECK(MPI_Irecv_c(in, N, MPI_CHAR, from, 1, MPI_COMM_WORLD, &r) == MPI_SUCCESS, "%s: irecv", what);
            MPI_Wait(&r, &st);
        }
    }
    if (rank == to) {
        CHECK(st.MPI_SOURCE == from && st.MPI_TAG == 1, "%s: status source %d tag %d", what, st.MPI_SOURCE,
              st.MPI_TAG);
        check_counts(what, &st, MPI_CHAR, N, N);
        verify(what, in, N, seed, N, 0);
    }
}

/* Types of more than INT_MAX bytes, one element each: a contiguous one through MPI_Ssend/MPI_Recv (the
 * int calls), then a vector of two blocks with a gap through persistent requests (the data streams
 * through the layout cursor), received as plain chars. */
static void exchange_big_types(unsigned char *out, unsigned char *in, int from, int to, unsigned seed)
{
    MPI_Datatype contig, vec;
    MPI_Count tsize = 0, lb = -1, extent = 0;
    int isize = 0;
    CHECK(MPI_Type_contiguous_c(N, MPI_CHAR, &contig) == MPI_SUCCESS, "MPI_Type_contiguous_c");
    MPI_Type_commit(&contig);
    MPI_Type_size(contig, &isize);
    MPI_Type_size_c(contig, &tsize);
    MPI_Type_get_extent_c(contig, &lb, &extent);
    CHECK(isize == MPI_UNDEFINED, "MPI_Type_size of a contiguous type of 2^31+100 bytes gives %d", isize);
    CHECK(tsize == N && lb == 0 && extent == N, "contiguous type: size %lld lb %lld extent %lld", (long long)tsize,
          (long long)lb, (long long)extent);

    MPI_Status st;
    if (rank == from)
        fill(out, N, seed);
    if (rank == to)
        poison(in, N, seed);
    MPI_Request r = MPI_REQUEST_NULL;
    if (rank == to)
        MPI_Irecv(in, 1, contig, from, 2, MPI_COMM_WORLD, &r);
    if (rank == from)
        CHECK(MPI_Ssend(out, 1, contig, to, 2, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Ssend of the contiguous type");
    if (rank == to) {
        MPI_Wait(&r, &st);
        check_counts("contiguous type", &st, contig, 1, N);
        check_counts("contiguous type as chars", &st, MPI_CHAR, N, N);
        verify("contiguous type", in, N, seed, N, 0);
    }

    /* Two blocks of N/2 bytes, 64 bytes apart: the sender's buffer holds the extent, N + 64 bytes. */
    const MPI_Count half = N / 2, stride = half + 64;
    CHECK(MPI_Type_vector_c(2, half, stride, MPI_CHAR, &vec) == MPI_SUCCESS, "MPI_Type_vector_c");
    MPI_Type_commit(&vec);
    MPI_Type_size_c(vec, &tsize);
    MPI_Type_get_extent_c(vec, &lb, &extent);
    CHECK(tsize == N && extent == N + 64, "vector: size %lld extent %lld", (long long)tsize, (long long)extent);
    MPI_Count ni = -1, na = -1, nc = -1, nd = -1;
    int combiner = -1;
    MPI_Type_get_envelope_c(vec, &ni, &na, &nc, &nd, &combiner);
    CHECK(combiner == MPI_COMBINER_VECTOR && ni == 0 && na == 0 && nc == 3 && nd == 1,
          "vector_c envelope: combiner %d, %lld %lld %lld %lld", combiner, (long long)ni, (long long)na,
          (long long)nc, (long long)nd);
    MPI_Count large[3] = {0, 0, 0};
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    MPI_Type_get_contents_c(vec, 0, 0, 3, 1, NULL, NULL, large, &inner);
    CHECK(large[0] == 2 && large[1] == half && large[2] == stride && inner == MPI_CHAR,
          "vector_c contents: %lld %lld %lld", (long long)large[0], (long long)large[1], (long long)large[2]);

    if (rank == from)
        fill(out, N + 64, seed + 1);
    if (rank == to)
        poison(in, N, seed + 1);
    MPI_Request p;
    if (rank == to) {
        CHECK(MPI_Recv_init_c(in, N, MPI_CHAR, from, 3, MPI_COMM_WORLD, &p) == MPI_SUCCESS, "MPI_Recv_init_c");
        MPI_Start(&p);
    }
    if (rank == from) {
        MPI_Request s;
        CHECK(MPI_Send_init_c(out, 1, vec, to, 3, MPI_COMM_WORLD, &s) == MPI_SUCCESS, "MPI_Send_init_c");
        MPI_Start(&s);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        MPI_Request_free(&s);
    }
    if (rank == to) {
        MPI_Wait(&p, &st);
        MPI_Request_free(&p);
        check_counts("vector type as chars", &st, MPI_CHAR, N, N);
        verify("vector type", in, N, seed + 1, half, 64);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&contig);
}

/* MPI_DATATYPE_NULL is fine towards MPI_PROC_NULL (MPICH's pt2pt/recvnull), and an error otherwise. */
static void check_null_type(void)
{
    MPI_Status st;
    MPI_Request r;
    st.MPI_SOURCE = -5;
    CHECK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st) == MPI_SUCCESS &&
              st.MPI_SOURCE == MPI_PROC_NULL,
          "MPI_Recv of MPI_DATATYPE_NULL from MPI_PROC_NULL");
    st.MPI_SOURCE = -5;
    CHECK(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r) == MPI_SUCCESS &&
              MPI_Wait(&r, &st) == MPI_SUCCESS && st.MPI_SOURCE == MPI_PROC_NULL,
          "MPI_Irecv of MPI_DATATYPE_NULL from MPI_PROC_NULL");
    CHECK(MPI_Recv_c(NULL, 5, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st) == MPI_SUCCESS,
          "MPI_Recv_c of 5 MPI_DATATYPE_NULL from MPI_PROC_NULL");
    CHECK(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Send of MPI_DATATYPE_NULL to MPI_PROC_NULL");
    CHECK(MPI_Isend(NULL, 3, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r) == MPI_SUCCESS &&
              MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS,
          "MPI_Isend of MPI_DATATYPE_NULL to MPI_PROC_NULL");
    int x = 0, cls = MPI_SUCCESS;
    MPI_Error_class(MPI_Send(&x, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_TYPE, "MPI_Send of MPI_DATATYPE_NULL to a rank gives class %d", cls);
    MPI_Error_class(MPI_Irecv(&x, 1, MPI_DATATYPE_NULL, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r), &cls);
    CHECK(cls == MPI_ERR_TYPE, "MPI_Irecv of MPI_DATATYPE_NULL from any source gives class %d", cls);
    MPI_Error_class(MPI_Sendrecv_replace(&x, 1, MPI_DATATYPE_NULL, MPI_PROC_NULL, 0, rank, 0, MPI_COMM_WORLD, &st),
                    &cls);
    CHECK(cls == MPI_ERR_TYPE, "MPI_Sendrecv_replace of MPI_DATATYPE_NULL from a rank gives class %d", cls);
    /* Bytes beyond 2^63: MPI_ERR_COUNT before anything moves, whoever the peer. */
    MPI_Error_class(MPI_Send_c(&x, (MPI_Count)1 << 62, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_COUNT, "2^62 ints give class %d", cls);
    MPI_Error_class(MPI_Irecv_c(&x, -1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r), &cls);
    CHECK(cls == MPI_ERR_COUNT, "a negative count gives class %d", cls);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_null_type();

    int from = 0, to = size > 1 ? 1 : 0;
    unsigned char *out = NULL, *in = NULL;
    if (rank == from)
        out = malloc((size_t)N + 64);
    if (rank == to)
        in = malloc((size_t)N);
    CHECK((rank != from || out) && (rank != to || in), "no memory for 2 GiB buffers");
    if (rank <= 1 && !failures) {
        exchange_chars(out, in, from, to, true, 1);
        exchange_chars(out, in, from, to, false, 2);
        exchange_big_types(out, in, from, to, 3);
    }
    free(out);
    free(in);

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("pt2pt_bigcount: ok\n");
    MPI_Finalize();
    return all != 0;
}
