/* The point-to-point modes beyond the basic sends: buffered sends (MPI_Bsend, MPI_Ibsend, the attached
 * buffer and its limits), persistent requests (every *_init, MPI_Start, MPI_Startall, inactive
 * requests), matched probes (MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv) and MPI_Sendrecv_replace.
 * Any number of ranks; each check prints what failed and the program exits non-zero. */
#include "axon_test.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static int right(int k) { return (rank + k) % size; }
static int left(int k) { return (rank - k % size + size) % size; }

static void test_bsend(void)
{
    enum { N = 1000, MSGS = 8 };
    int bufsize = MSGS * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *attached = malloc((size_t)bufsize);
    MPI_Buffer_attach(attached, bufsize);

    /* Every message fits, all at once, before the receiver posts anything. */
    int *data = malloc(sizeof(int) * N * MSGS);
    for (int m = 0; m < MSGS; m++)
        for (int i = 0; i < N; i++)
            data[m * N + i] = rank * 1000000 + m * N + i;
    for (int m = 0; m < MSGS - 1; m++)
        MPI_Bsend(data + m * N, N, MPI_INT, right(1), 100 + m, MPI_COMM_WORLD);
    MPI_Request req;
    MPI_Ibsend(data + (MSGS - 1) * N, N, MPI_INT, right(1), 100 + MSGS - 1, MPI_COMM_WORLD, &req);
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    CHECK(flag, "an MPI_Ibsend request is not complete at once");
    if (!flag)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* The data is copied: overwriting the user's buffer must not change what arrives. */
    memset(data, 0xff, sizeof(int) * N * MSGS);

    int *in = malloc(sizeof(int) * N);
    for (int m = MSGS - 1; m >= 0; m--) {
        MPI_Recv(in, N, MPI_INT, left(1), 100 + m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (in[i] != left(1) * 1000000 + m * N + i) {
                CHECK(0, "buffered message %d: element %d is %d", m, i, in[i]);
                break;
            }
    }

    /* A message larger than the whole buffer: MPI_ERR_BUFFER, through the error handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *big = calloc((size_t)bufsize, 1);
    int rc = MPI_Bsend(big, bufsize / (int)sizeof(int), MPI_INT, right(1), 99, MPI_COMM_WORLD);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "MPI_Bsend beyond the buffer gave class %d, not MPI_ERR_BUFFER", cls);
    free(big);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    void *back;
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    CHECK(back == attached && backsize == bufsize, "MPI_Buffer_detach gave back %p/%d, not %p/%d", back, backsize,
          (void *)attached, bufsize);

    /* Without a buffer a buffered send fails. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Bsend(in, 1, MPI_INT, right(1), 98, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "MPI_Bsend without a buffer gave class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(attached);
    free(data);
    free(in);
}

/* A buffered send that finds no room while an earlier buffered message waits for its receive fails with
 * MPI_ERR_BUFFER instead of waiting (here the receive comes only after the call returns: a wait would be
 * forever). A message of 1 MiB to the next rank waits for its receive on every path (single copy,
 * rendezvous). Once it is received, the room is there again. */
static void test_bsend_full(void)
{
    enum { N = 1 << 20 };
    int bufsize = N + MPI_BSEND_OVERHEAD;
    char *attached = malloc((size_t)bufsize), *msg = malloc(N), *in = malloc(N);
    MPI_Buffer_attach(attached, bufsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    memset(msg, rank + 1, N);
    CHECK(MPI_Bsend(msg, N, MPI_CHAR, right(1), 60, MPI_COMM_WORLD) == MPI_SUCCESS, "the first MPI_Bsend failed");
    int rc = MPI_Bsend(msg, N, MPI_CHAR, right(1), 61, MPI_COMM_WORLD), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER, "MPI_Bsend into a full buffer gave class %d, not MPI_ERR_BUFFER", cls);
    MPI_Barrier(MPI_COMM_WORLD); /* no receive before every rank has had its error */
    MPI_Recv(in, N, MPI_CHAR, left(1), 60, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[0] == (char)(left(1) + 1) && in[N - 1] == (char)(left(1) + 1), "the buffered message arrived wrong");
    /* Sent and received, each rank's message leaves the buffer: room for the next one. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Bsend(msg, N, MPI_CHAR, right(1), 62, MPI_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Bsend after the buffer emptied failed");
    MPI_Recv(in, N, MPI_CHAR, left(1), 62, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    void *back;
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(attached);
    free(msg);
    free(in);
}

/* MPI_Buffer_iflush completes once the messages buffered before it have been sent: not while the one
 * message of 1 MiB (which waits for its receive on every path) is unreceived, and then once it is.
 * MPI_Buffer_flush with nothing in flight returns at once; an iflush with nothing buffered completes at
 * once. */
static void test_bsend_flush(void)
{
    enum { N = 1 << 20 };
    int bufsize = N + MPI_BSEND_OVERHEAD;
    char *attached = malloc((size_t)bufsize), *msg = calloc(N, 1), *in = malloc(N);
    MPI_Buffer_attach(attached, bufsize);
    MPI_Request flush;
    int done = -1;
    CHECK(MPI_Buffer_iflush(&flush) == MPI_SUCCESS, "MPI_Buffer_iflush of an empty buffer failed");
    MPI_Test(&flush, &done, MPI_STATUS_IGNORE);
    CHECK(done, "MPI_Buffer_iflush of an empty buffer did not complete at once");
    MPI_Bsend(msg, N, MPI_CHAR, right(1), 70, MPI_COMM_WORLD);
    CHECK(MPI_Buffer_iflush(&flush) == MPI_SUCCESS, "MPI_Buffer_iflush failed");
    done = -1;
    for (int i = 0; i < 100; i++)
        MPI_Test(&flush, &done, MPI_STATUS_IGNORE);
    CHECK(!done, "MPI_Buffer_iflush completed before its message was received");
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has tested before anyone receives */
    MPI_Recv(in, N, MPI_CHAR, left(1), 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(MPI_Wait(&flush, MPI_STATUS_IGNORE) == MPI_SUCCESS && flush == MPI_REQUEST_NULL,
          "waiting for MPI_Buffer_iflush failed");
    CHECK(MPI_Buffer_flush() == MPI_SUCCESS, "MPI_Buffer_flush failed");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Error_class(MPI_Buffer_iflush(NULL), &cls);
    CHECK(cls == MPI_ERR_ARG, "MPI_Buffer_iflush(NULL) gave class %d, not MPI_ERR_ARG", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    void *back;
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    free(attached);
    free(msg);
    free(in);
}

static void test_persistent(void)
{
    enum { ROUNDS = 50, N = 4096 };
    double *out = malloc(sizeof(double) * N), *in = malloc(sizeof(double) * N);
    char *bbuf = malloc(N * sizeof(double) + MPI_BSEND_OVERHEAD);
    MPI_Buffer_attach(bbuf, N * (int)sizeof(double) + MPI_BSEND_OVERHEAD);
    MPI_Request reqs[2];
    for (int mode = 0; mode < 4; mode++) {
        int tag = 10 + mode;
        MPI_Recv_init(in, N, MPI_DOUBLE, left(1), tag, MPI_COMM_WORLD, &reqs[0]);
        switch (mode) {
        case 0: MPI_Send_init(out, N, MPI_DOUBLE, right(1), tag, MPI_COMM_WORLD, &reqs[1]); break;
        case 1: MPI_Ssend_init(out, N, MPI_DOUBLE, right(1), tag, MPI_COMM_WORLD, &reqs[1]); break;
        case 2: MPI_Rsend_init(out, N, MPI_DOUBLE, right(1), tag, MPI_COMM_WORLD, &reqs[1]); break;
        default: MPI_Bsend_init(out, N, MPI_DOUBLE, right(1), tag, MPI_COMM_WORLD, &reqs[1]); break;
        }
        /* Inactive requests complete at once with an empty status. */
        MPI_Status st;
        int flag = 0;
        MPI_Test(&reqs[0], &flag, &st);
        CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
              "an inactive persistent request: flag %d source %d tag %d", flag, st.MPI_SOURCE, st.MPI_TAG);
        CHECK(reqs[0] != MPI_REQUEST_NULL, "MPI_Test freed an inactive persistent request");
        for (int r = 0; r < ROUNDS; r++) {
            for (int i = 0; i < N; i++)
                out[i] = rank + r * 0.5 + i * 1e-3 + mode;
            if (mode == 2) {
                /* A ready send needs the receive posted first: start it, then synchronize. */
                MPI_Start(&reqs[0]);
                MPI_Sendrecv(MPI_BOTTOM, 0, MPI_INT, left(1), 8, MPI_BOTTOM, 0, MPI_INT, right(1), 8, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                MPI_Start(&reqs[1]);
            } else {
                MPI_Startall(2, reqs);
            }
            MPI_Status sts[2];
            MPI_Waitall(2, reqs, sts);
            CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL, "MPI_Waitall freed persistent requests");
            CHECK(sts[0].MPI_SOURCE == left(1) && sts[0].MPI_TAG == tag, "round %d: status %d/%d", r, sts[0].MPI_SOURCE,
                  sts[0].MPI_TAG);
            for (int i = 0; i < N; i++)
                if (in[i] != left(1) + r * 0.5 + i * 1e-3 + mode) {
                    CHECK(0, "mode %d round %d: element %d is %g", mode, r, i, in[i]);
                    break;
                }
        }
        /* Starting an active request is an error. (Its receive names a tag nobody sends.) */
        MPI_Request_free(&reqs[0]);
        MPI_Recv_init(in, N, MPI_DOUBLE, left(1), 555, MPI_COMM_WORLD, &reqs[0]);
        MPI_Start(&reqs[0]);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Start(&reqs[0]), cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_REQUEST, "MPI_Start of an active request gave class %d", cls);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Cancel(&reqs[0]);
        MPI_Status st2;
        MPI_Wait(&reqs[0], &st2);
        int cancelled = 0;
        MPI_Test_cancelled(&st2, &cancelled);
        CHECK(cancelled, "a persistent receive that nothing matched was not cancelled");
        MPI_Request_free(&reqs[0]);
        MPI_Request_free(&reqs[1]);
        CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "MPI_Request_free left a handle");
    }
    /* Persistent operations with MPI_PROC_NULL complete at once with its status. */
    MPI_Request pr;
    MPI_Recv_init(in, 1, MPI_DOUBLE, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &pr);
    MPI_Start(&pr);
    MPI_Status st;
    MPI_Wait(&pr, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "persistent MPI_PROC_NULL receive status");
    MPI_Request_free(&pr);
    void *back;
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    free(bbuf);
    free(out);
    free(in);
}

static void test_mprobe(void)
{
    /* Every rank sends three messages of different sizes to its right; the receiver probes them out of
     * order by tag, with both forms, and receives each through its message handle. */
    int sizes[3] = {1, 1000, 300000};
    int *out[3], *in;
    MPI_Request sreq[3];
    for (int k = 0; k < 3; k++) {
        out[k] = malloc(sizeof(int) * (size_t)sizes[k]);
        for (int i = 0; i < sizes[k]; i++)
            out[k][i] = rank * 7 + k * 100 + i;
        MPI_Isend(out[k], sizes[k], MPI_INT, right(1), 20 + k, MPI_COMM_WORLD, &sreq[k]);
    }
    for (int k = 2; k >= 0; k--) {
        MPI_Message msg;
        MPI_Status st;
        if (k == 1) {
            int flag = 0;
            while (!flag)
                MPI_Improbe(left(1), 20 + k, MPI_COMM_WORLD, &flag, &msg, &st);
        } else {
            MPI_Mprobe(MPI_ANY_SOURCE, 20 + k, MPI_COMM_WORLD, &msg, &st);
        }
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == sizes[k] && st.MPI_SOURCE == left(1), "probe %d: count %d source %d", k, count, st.MPI_SOURCE);
        /* The message is out of the queue: a plain probe no longer sees it. */
        int seen = 1;
        MPI_Iprobe(left(1), 20 + k, MPI_COMM_WORLD, &seen, MPI_STATUS_IGNORE);
        CHECK(!seen, "a matched-probed message is still visible to MPI_Iprobe");
        in = malloc(sizeof(int) * (size_t)sizes[k]);
        if (k == 0) {
            MPI_Request r;
            MPI_Imrecv(in, count, MPI_INT, &msg, &r);
            MPI_Wait(&r, &st);
        } else {
            MPI_Mrecv(in, count, MPI_INT, &msg, &st);
        }
        CHECK(msg == MPI_MESSAGE_NULL, "the message handle is not MPI_MESSAGE_NULL after the receive");
        for (int i = 0; i < sizes[k]; i++)
            if (in[i] != left(1) * 7 + k * 100 + i) {
                CHECK(0, "probed message %d: element %d is %d", k, i, in[i]);
                break;
            }
        free(in);
    }
    MPI_Waitall(3, sreq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 3; k++)
        free(out[k]);

    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Mprobe of MPI_PROC_NULL");
    MPI_Mrecv(NULL, 0, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Mrecv of MPI_MESSAGE_NO_PROC");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    msg = MPI_MESSAGE_NULL;
    int rc = MPI_Mrecv(NULL, 0, MPI_INT, &msg, &st), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_REQUEST, "MPI_Mrecv of MPI_MESSAGE_NULL gave class %d", cls);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_sendrecv_replace(void)
{
    /* Shift a buffer two places round the ring: the data ints, with markers between them. */
    enum { N = 20000 };
    int *buf = malloc(sizeof(int) * 2 * N);
    for (int i = 0; i < 2 * N; i++)
        buf[i] = i % 2 ? -1 : rank * N + i / 2;
    MPI_Status st;
    MPI_Sendrecv_replace(buf, 2 * N, MPI_INT, right(2), 5, left(2), 5, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == left(2) && st.MPI_TAG == 5, "MPI_Sendrecv_replace status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
    for (int i = 0; i < N; i++)
        if (buf[2 * i] != left(2) * N + i || buf[2 * i + 1] != -1) {
            CHECK(0, "MPI_Sendrecv_replace: element %d is %d", i, buf[2 * i]);
            break;
        }
    MPI_Sendrecv_replace(buf, 2 * N, MPI_INT, MPI_PROC_NULL, 5, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Sendrecv_replace with MPI_PROC_NULL: source %d", st.MPI_SOURCE);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_bsend();
    test_bsend_full();
    test_bsend_flush();
    test_persistent();
    test_mprobe();
    test_sendrecv_replace();
    int ok = axon_test_verdict_p2p("pt2pt_modes", rank, size);
    MPI_Finalize();
    return ok ? 0 : 1;
}
