/* MPI's order across the node's two paths: small messages go through the shared-memory rings, larger
 * ones and any that find their ring full through UCX, and still no message overtakes an earlier one from
 * the same sender. Every rank sends every other rank ROUNDS bursts of messages whose sizes straddle the
 * rings' limit (0 B to 3x AXON_PT2PT_SHM_MAX, some synchronous, some of a strided type), all started
 * before the receiver posts anything, so the rings fill and the overflow goes by UCX. The receiver takes
 * them with MPI_ANY_TAG (and in the second half with MPI_ANY_SOURCE too) and checks that each source's
 * messages come in the order sent, byte for byte. Run at 2, 3 and 5 ranks, with rings small enough to
 * wrap and fill all the time. */
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BURST 200
#define ROUNDS 6
#define MAXMSG (40 * 1024)

static int rank, size;

/* The first wrong message ends the job: the ones after it would only repeat the news. */
static void check(bool ok, const char *fmt, ...)
{
    if (ok)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("rank %d FAILED: ", rank);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* The size of message i from src to dst in round r: a spread over 0 .. MAXMSG, mostly small. */
static int msg_size(int src, int dst, int r, int i)
{
    unsigned h = (unsigned)src * 7919u + (unsigned)dst * 104729u + (unsigned)r * 1299709u + (unsigned)i * 15485863u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    switch (h % 8) {
    case 0: return 0;
    case 1: case 2: case 3: return (int)(h % 64);
    case 4: case 5: return (int)(h % 2048);
    default: return (int)(h % MAXMSG);
    }
}

static unsigned char pattern(int src, int r, int i, int k)
{
    return (unsigned char)(src * 31 + r * 17 + i * 7 + k);
}

/* Sends that are over as they start share one request: every completion call must treat it as its
 * own, complete request, and freeing or cancelling it must harm no other. */
static void check_done_requests(void)
{
    int peer = rank ^ 1;
    if (peer >= size)
        return;
    int out[4] = {rank, 1, 2, 3}, in[4][4];
    MPI_Request r[4];
    for (int i = 0; i < 4; i++)
        MPI_Irecv(in[i], 4, MPI_INT, peer, 77 + i, MPI_COMM_WORLD, &r[i]);
    MPI_Request s[5];
    for (int i = 0; i < 4; i++)
        MPI_Isend(out, 4, MPI_INT, peer, 77 + i, MPI_COMM_WORLD, &s[i]);
    int flag = 0;
    MPI_Status st;
    while (!flag)
        MPI_Request_get_status(s[0], &flag, &st);
    check(s[0] != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
    MPI_Test(&s[0], &flag, &st);
    check(flag == 1 && s[0] == MPI_REQUEST_NULL, "MPI_Test of a finished send left it active");
    int cancelled = 1;
    MPI_Cancel(&s[1]);
    MPI_Wait(&s[1], &st);
    MPI_Test_cancelled(&st, &cancelled);
    check(!cancelled && s[1] == MPI_REQUEST_NULL, "a finished send reads as cancelled");
    MPI_Request_free(&s[2]);
    check(s[2] == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    s[0] = s[1] = s[2] = MPI_REQUEST_NULL;
    s[4] = MPI_REQUEST_NULL;
    int index = -1;
    MPI_Waitany(5, s, &index, &st);
    check(index == 3 && s[3] == MPI_REQUEST_NULL, "MPI_Waitany gave index %d", index);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 4; i++)
        check(in[i][0] == peer && in[i][3] == 3, "message %d of the request test is wrong", i);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Every other byte of a buffer twice the message: a vector type packs into the ring. */
    MPI_Datatype strided;
    MPI_Type_vector(MAXMSG, 1, 2, MPI_BYTE, &strided);
    MPI_Type_commit(&strided);

    int npeers = size - 1;
    size_t per_msg = MAXMSG + 8;
    unsigned char *sbuf = malloc((size_t)npeers * BURST * per_msg * 2);
    unsigned char *rbuf = malloc(per_msg * 2);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)npeers * BURST);
    int *next = calloc((size_t)size, sizeof(int)); /* per source: the next message expected */
    check(sbuf && rbuf && reqs && next, "out of memory");

    for (int r = 0; r < ROUNDS; r++) {
        int nreq = 0;
        /* Every send of the round is started before anyone receives (the barrier below). */
        for (int p = 1; p < size; p++) {
            int dst = (rank + p) % size;
            for (int i = 0; i < BURST; i++) {
                int n = msg_size(rank, dst, r, i);
                unsigned char *b = sbuf + ((size_t)(p - 1) * BURST + (size_t)i) * per_msg * 2;
                bool typed = i % 5 == 3 && n > 0;
                for (int k = 0; k < n; k++)
                    b[typed ? 2 * k : k] = pattern(rank, r, i, k);
                if (typed) {
                    MPI_Datatype t;
                    MPI_Type_vector(n, 1, 2, MPI_BYTE, &t);
                    MPI_Type_commit(&t);
                    MPI_Isend(b, 1, t, dst, i, MPI_COMM_WORLD, &reqs[nreq++]);
                    MPI_Type_free(&t);
                } else if (i % 7 == 5) {
                    MPI_Issend(b, n, MPI_BYTE, dst, i, MPI_COMM_WORLD, &reqs[nreq++]);
                } else {
                    MPI_Isend(b, n, MPI_BYTE, dst, i, MPI_COMM_WORLD, &reqs[nreq++]);
                }
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        memset(next, 0, sizeof(int) * (size_t)size);
        bool any_source = r >= ROUNDS / 2;
        for (int m = 0; m < npeers * BURST; m++) {
            int want_src = any_source ? MPI_ANY_SOURCE : (rank + 1 + m / BURST) % size;
            MPI_Status st;
            int i, src, n, got;
            bool typed;
            /* A strided receive for every third message from a specific source: the ring's payload
             * unpacks through the type. Its sender's size is known only after a probe. */
            if (!any_source && m % 3 == 1) {
                MPI_Probe(want_src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                src = st.MPI_SOURCE;
                i = st.MPI_TAG;
                MPI_Get_count(&st, MPI_BYTE, &n);
                MPI_Datatype t;
                MPI_Type_vector(n > 0 ? n : 1, 1, 2, MPI_BYTE, &t);
                MPI_Type_commit(&t);
                MPI_Recv(rbuf, n > 0 ? 1 : 0, t, src, i, MPI_COMM_WORLD, &st);
                MPI_Type_free(&t);
                typed = true;
            } else {
                MPI_Recv(rbuf, MAXMSG, MPI_BYTE, want_src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                src = st.MPI_SOURCE;
                i = st.MPI_TAG;
                typed = false;
            }
            MPI_Get_count(&st, MPI_BYTE, &got);
            check(i == next[src], "round %d: from %d got message %d, expected %d (overtaken)", r, src, i,
                   next[src]);
            n = msg_size(src, rank, r, i);
            check(got == n, "round %d: message %d from %d has %d bytes, expected %d", r, i, src, got, n);
            for (int k = 0; k < n; k++)
                check(rbuf[typed ? 2 * k : k] == pattern(src, r, i, k),
                       "round %d: message %d from %d differs at byte %d", r, i, src, k);
            next[src]++;
        }
        MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        /* A peer done with this round must not start the next before everyone has received this one:
         * a receive from MPI_ANY_SOURCE would rightly take its next round's first message (sends that
         * all went through the rings complete at once, so nothing else holds it back). */
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* Every rank done with the rounds first: the last rounds receive from MPI_ANY_SOURCE, which a
     * faster peer's messages below would otherwise match (rightly: they are later messages of that
     * peer, but the round counts only its own). */
    MPI_Barrier(MPI_COMM_WORLD);
    check_done_requests();
    MPI_Type_free(&strided);
    free(sbuf);
    free(rbuf);
    free(reqs);
    free(next);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("pt2pt_shm: %d ranks, %d messages each way per pair, ok\n", size, BURST * ROUNDS);
    MPI_Finalize();
    return 0;
}
