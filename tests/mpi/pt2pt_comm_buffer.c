/* A communicator's own buffer for buffered sends (MPI 4.1): MPI_Comm_attach_buffer and _detach_buffer
 * (and their _c forms), MPI_Comm_flush_buffer and _iflush_buffer, and MPI_BUFFER_AUTOMATIC on the process
 * and on a communicator. A buffered send on a communicator with a buffer uses it, else the process's; each
 * check below is built so that using the wrong buffer (or none) fails it: a buffer sized for exactly one
 * message of 1 MiB, which stays in flight until its receive is posted, has no room for a second. Any
 * number of ranks (the intercommunicator part needs two); each check prints what failed and the program
 * exits non-zero. */
#include "axon_test.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static int right(int k) { return (rank + k) % size; }
static int left(int k) { return (rank - k % size + size) % size; }

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Whether every byte of in[0..n) is v. */
static int all_bytes(const char *in, size_t n, char v)
{
    for (size_t i = 0; i < n; i++)
        if (in[i] != v)
            return 0;
    return 1;
}

enum { MIB = 1 << 20 };

/* No process buffer: a communicator's buffer carries its sends, and only its sends. Then a process buffer
 * too small for the message: the communicator's is still the one used. Detach gives back the address and
 * size, for both forms. Persistent buffered sends use it too. */
static void test_comm_instead_of_process(void)
{
    enum { N = 1000 };
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    int out[N], in[N];
    for (int i = 0; i < N; i++)
        out[i] = rank * 100000 + i;

    CHECK(err_class(MPI_Bsend(out, N, MPI_INT, right(1), 1, dup)) == MPI_ERR_BUFFER,
          "MPI_Bsend with no buffer anywhere did not fail with MPI_ERR_BUFFER");

    int bufsize = N * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *cbuf = malloc((size_t)bufsize);
    CHECK(MPI_Comm_attach_buffer(dup, cbuf, bufsize) == MPI_SUCCESS, "MPI_Comm_attach_buffer failed");
    CHECK(MPI_Bsend(out, N, MPI_INT, right(1), 2, dup) == MPI_SUCCESS,
          "MPI_Bsend on a communicator with its own buffer (and none for the process) failed");
    /* The communicator's buffer is not the process's. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(err_class(MPI_Bsend(out, 1, MPI_INT, right(1), 3, MPI_COMM_WORLD)) == MPI_ERR_BUFFER,
          "MPI_Bsend on MPI_COMM_WORLD used another communicator's buffer");
    MPI_Recv(in, N, MPI_INT, left(1), 2, dup, MPI_STATUS_IGNORE);
    CHECK(in[0] == left(1) * 100000 && in[N - 1] == left(1) * 100000 + N - 1, "the buffered message arrived wrong");

    /* A process buffer far too small for the message: the communicator's buffer is used, so it fits. */
    char small[64 + MPI_BSEND_OVERHEAD];
    MPI_Buffer_attach(small, (int)sizeof(small));
    CHECK(MPI_Bsend(out, N, MPI_INT, right(1), 4, dup) == MPI_SUCCESS,
          "MPI_Bsend with a small process buffer and a large communicator buffer failed");
    CHECK(err_class(MPI_Bsend(out, N, MPI_INT, right(1), 5, MPI_COMM_WORLD)) == MPI_ERR_BUFFER,
          "MPI_Bsend larger than the process's buffer did not fail on MPI_COMM_WORLD");
    /* A small one on MPI_COMM_WORLD goes through the process's buffer. */
    CHECK(MPI_Bsend(out, 4, MPI_INT, right(1), 6, MPI_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Bsend that fits the process buffer failed");
    MPI_Recv(in, N, MPI_INT, left(1), 4, dup, MPI_STATUS_IGNORE);
    CHECK(in[N - 1] == left(1) * 100000 + N - 1, "the second buffered message arrived wrong");
    MPI_Recv(in, 4, MPI_INT, left(1), 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[3] == left(1) * 100000 + 3, "the message through the process buffer arrived wrong");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* Persistent buffered sends on the communicator use its buffer too (started three times). */
    MPI_Request preq;
    MPI_Bsend_init(out, N, MPI_INT, right(1), 7, dup, &preq);
    for (int k = 0; k < 3; k++) {
        CHECK(MPI_Start(&preq) == MPI_SUCCESS, "MPI_Start of a persistent buffered send on the communicator failed");
        MPI_Wait(&preq, MPI_STATUS_IGNORE);
        MPI_Recv(in, N, MPI_INT, left(1), 7, dup, MPI_STATUS_IGNORE);
        CHECK(in[N - 1] == left(1) * 100000 + N - 1, "persistent buffered message %d arrived wrong", k);
    }
    MPI_Request_free(&preq);

    void *back = NULL;
    int backsize = -1;
    CHECK(MPI_Comm_detach_buffer(dup, &back, &backsize) == MPI_SUCCESS, "MPI_Comm_detach_buffer failed");
    CHECK(back == cbuf && backsize == bufsize, "MPI_Comm_detach_buffer gave back %p/%d, not %p/%d", back, backsize,
          (void *)cbuf, bufsize);
    MPI_Buffer_detach(&back, &backsize);
    CHECK(back == small && backsize == (int)sizeof(small), "MPI_Buffer_detach gave back %p/%d", back, backsize);
    /* Detached: the communicator has no buffer again. */
    CHECK(err_class(MPI_Bsend(out, 1, MPI_INT, right(1), 8, dup)) == MPI_ERR_BUFFER,
          "MPI_Bsend after MPI_Comm_detach_buffer did not fail");
    MPI_Comm_free(&dup);
    free(cbuf);
}

/* Both buffers at once, each with room for exactly one message of 1 MiB: one such message on each
 * communicator, neither received yet, fits only if each goes to its own buffer. */
static void test_both_attached(void)
{
    int bufsize = MIB + MPI_BSEND_OVERHEAD;
    char *pbuf = malloc((size_t)bufsize), *cbuf = malloc((size_t)bufsize);
    char *msg = malloc(MIB), *in = malloc(MIB);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Buffer_attach(pbuf, bufsize);
    MPI_Comm_attach_buffer_c(dup, cbuf, bufsize);
    memset(msg, rank + 1, MIB);
    CHECK(MPI_Bsend(msg, MIB, MPI_CHAR, right(1), 10, MPI_COMM_WORLD) == MPI_SUCCESS,
          "MPI_Bsend of 1 MiB through the process buffer failed");
    memset(msg, rank + 101, MIB);
    CHECK(MPI_Bsend_c(msg, MIB, MPI_CHAR, right(1), 11, dup) == MPI_SUCCESS,
          "MPI_Bsend_c of 1 MiB through the communicator's buffer failed (the process's full?)");
    MPI_Barrier(MPI_COMM_WORLD); /* nothing received before every rank has sent both */
    MPI_Recv(in, MIB, MPI_CHAR, left(1), 11, dup, MPI_STATUS_IGNORE);
    CHECK(all_bytes(in, MIB, (char)(left(1) + 101)), "the message through the communicator's buffer arrived wrong");
    MPI_Recv(in, MIB, MPI_CHAR, left(1), 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(all_bytes(in, MIB, (char)(left(1) + 1)), "the message through the process buffer arrived wrong");
    void *back;
    MPI_Count backsize_c = -1;
    CHECK(MPI_Comm_detach_buffer_c(dup, &back, &backsize_c) == MPI_SUCCESS && back == cbuf && backsize_c == bufsize,
          "MPI_Comm_detach_buffer_c gave back %p/%lld", back, (long long)backsize_c);
    int backsize;
    MPI_Buffer_detach(&back, &backsize);
    CHECK(back == pbuf && backsize == bufsize, "MPI_Buffer_detach gave back %p/%d", back, backsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&dup);
    free(pbuf);
    free(cbuf);
    free(msg);
    free(in);
}

/* MPI_Comm_detach_buffer waits until the buffer's messages are sent: once it returns the buffer is the
 * program's again, and scribbling over it must not change what the receiver gets. */
static void test_detach_waits(void)
{
    int bufsize = MIB + MPI_BSEND_OVERHEAD;
    char *cbuf = malloc((size_t)bufsize), *msg = malloc(MIB), *in = malloc(MIB);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_attach_buffer(dup, cbuf, bufsize);
    memset(msg, rank + 7, MIB);
    MPI_Bsend(msg, MIB, MPI_CHAR, right(1), 20, dup);
    MPI_Request r;
    MPI_Irecv(in, MIB, MPI_CHAR, left(1), 20, dup, &r);
    void *back;
    int backsize;
    CHECK(MPI_Comm_detach_buffer(dup, &back, &backsize) == MPI_SUCCESS && back == cbuf && backsize == bufsize,
          "MPI_Comm_detach_buffer with a message in flight gave back %p/%d", back, backsize);
    memset(cbuf, 0, (size_t)bufsize);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(all_bytes(in, MIB, (char)(left(1) + 7)), "a message arrived changed after its buffer was detached");
    MPI_Comm_free(&dup);
    free(cbuf);
    free(msg);
    free(in);
}

/* MPI_Comm_iflush_buffer completes once the messages buffered on the communicator before it have been
 * sent, not while its message of 1 MiB waits for its receive; MPI_Comm_flush_buffer waits for them. Both
 * complete at once with nothing buffered, or with no buffer attached. */
static void test_comm_flush(void)
{
    int bufsize = MIB + MPI_BSEND_OVERHEAD;
    char *cbuf = malloc((size_t)bufsize), *msg = malloc(MIB), *in = malloc(MIB);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Request flush;
    int done = -1;
    CHECK(MPI_Comm_iflush_buffer(dup, &flush) == MPI_SUCCESS, "MPI_Comm_iflush_buffer with no buffer failed");
    MPI_Test(&flush, &done, MPI_STATUS_IGNORE);
    CHECK(done, "MPI_Comm_iflush_buffer with no buffer did not complete at once");
    CHECK(MPI_Comm_flush_buffer(dup) == MPI_SUCCESS, "MPI_Comm_flush_buffer with no buffer failed");

    MPI_Comm_attach_buffer(dup, cbuf, bufsize);
    CHECK(MPI_Comm_iflush_buffer(dup, &flush) == MPI_SUCCESS, "MPI_Comm_iflush_buffer of an empty buffer failed");
    done = -1;
    MPI_Test(&flush, &done, MPI_STATUS_IGNORE);
    CHECK(done, "MPI_Comm_iflush_buffer of an empty buffer did not complete at once");

    memset(msg, rank + 3, MIB);
    MPI_Bsend(msg, MIB, MPI_CHAR, right(1), 30, dup);
    CHECK(MPI_Comm_iflush_buffer(dup, &flush) == MPI_SUCCESS, "MPI_Comm_iflush_buffer failed");
    /* The process's flush does not wait for the communicator's messages. */
    MPI_Request pflush;
    done = -1;
    MPI_Buffer_iflush(&pflush);
    MPI_Test(&pflush, &done, MPI_STATUS_IGNORE);
    CHECK(done, "MPI_Buffer_iflush waited for a communicator's buffered message");
    CHECK(MPI_Buffer_flush() == MPI_SUCCESS, "MPI_Buffer_flush failed");
    done = -1;
    for (int i = 0; i < 100; i++)
        MPI_Test(&flush, &done, MPI_STATUS_IGNORE);
    /* To itself (one rank) a message may leave before its receive: only a peer surely waits for it. */
    if (size > 1)
        CHECK(!done, "MPI_Comm_iflush_buffer completed before its message was received");
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has tested before anyone receives */
    MPI_Recv(in, MIB, MPI_CHAR, left(1), 30, dup, MPI_STATUS_IGNORE);
    CHECK(MPI_Wait(&flush, MPI_STATUS_IGNORE) == MPI_SUCCESS && flush == MPI_REQUEST_NULL,
          "waiting for MPI_Comm_iflush_buffer failed");
    CHECK(all_bytes(in, MIB, (char)(left(1) + 3)), "the flushed message arrived wrong");

    /* The blocking flush returns once the message has been sent (its receive is posted first): an iflush
     * right after it has nothing left to wait for. */
    MPI_Request r;
    MPI_Irecv(in, MIB, MPI_CHAR, left(1), 31, dup, &r);
    memset(msg, rank + 13, MIB);
    MPI_Bsend(msg, MIB, MPI_CHAR, right(1), 31, dup);
    CHECK(MPI_Comm_flush_buffer(dup) == MPI_SUCCESS, "MPI_Comm_flush_buffer failed");
    MPI_Comm_iflush_buffer(dup, &flush);
    done = -1;
    MPI_Test(&flush, &done, MPI_STATUS_IGNORE);
    CHECK(done, "MPI_Comm_flush_buffer returned before its message was sent");
    if (!done)
        MPI_Wait(&flush, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(all_bytes(in, MIB, (char)(left(1) + 13)), "the message flushed by MPI_Comm_flush_buffer arrived wrong");

    /* A pending iflush and a detach: the detach waits for the message, and the flush completes with it. */
    MPI_Bsend(msg, MIB, MPI_CHAR, right(1), 33, dup);
    MPI_Comm_iflush_buffer(dup, &flush);
    MPI_Irecv(in, MIB, MPI_CHAR, left(1), 33, dup, &r);
    void *back;
    int backsize;
    MPI_Comm_detach_buffer(dup, &back, &backsize);
    CHECK(back == cbuf && backsize == bufsize, "MPI_Comm_detach_buffer gave back %p/%d", back, backsize);
    CHECK(MPI_Wait(&flush, MPI_STATUS_IGNORE) == MPI_SUCCESS, "an iflush pending at detach did not complete");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm_free(&dup);
    free(cbuf);
    free(msg);
    free(in);
}

/* MPI_BUFFER_AUTOMATIC: sixteen messages of 1 MiB, none received until all are sent, on the process's
 * automatic buffer and on a communicator's, with every form of buffered send; detach returns
 * MPI_BUFFER_AUTOMATIC and 0. No fixed buffer is attached anywhere. */
static void test_automatic(void)
{
    enum { MSGS = 16 };
    char *msg = malloc(MIB), *in = malloc(MIB);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(MPI_BUFFER_AUTOMATIC != NULL && MPI_BUFFER_AUTOMATIC != MPI_IN_PLACE,
          "MPI_BUFFER_AUTOMATIC is not a distinct address constant");
    for (int which = 0; which < 2; which++) {
        MPI_Comm comm = which == 0 ? MPI_COMM_WORLD : dup;
        if (which == 0)
            CHECK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS, "MPI_Buffer_attach(AUTOMATIC) failed");
        else
            CHECK(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS,
                  "MPI_Comm_attach_buffer(AUTOMATIC) failed");
        MPI_Request preq;
        MPI_Bsend_init(msg, MIB, MPI_CHAR, right(1), 40 + MSGS - 1, comm, &preq);
        for (int m = 0; m < MSGS; m++) {
            memset(msg, (rank * 31 + m + which) & 0x7f, MIB);
            int rc = MPI_ERR_OTHER;
            MPI_Request r;
            switch (m % 4) {
            case 0: rc = MPI_Bsend(msg, MIB, MPI_CHAR, right(1), 40 + m, comm); break;
            case 1:
                rc = MPI_Ibsend(msg, MIB, MPI_CHAR, right(1), 40 + m, comm, &r);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
                break;
            case 2: rc = MPI_Bsend_c(msg, MIB, MPI_CHAR, right(1), 40 + m, comm); break;
            default:
                if (m == MSGS - 1) {
                    rc = MPI_Start(&preq);
                    MPI_Wait(&preq, MPI_STATUS_IGNORE);
                } else {
                    rc = MPI_Ibsend_c(msg, MIB, MPI_CHAR, right(1), 40 + m, comm, &r);
                    MPI_Wait(&r, MPI_STATUS_IGNORE);
                }
            }
            CHECK(rc == MPI_SUCCESS, "automatic buffer (%s): buffered send %d of 1 MiB failed",
                  which ? "communicator" : "process", m);
        }
        MPI_Request_free(&preq);
        if (which == 1) {
            /* The communicator's automatic buffer is not the process's: MPI_COMM_WORLD has none now. */
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            CHECK(err_class(MPI_Bsend(msg, 1, MPI_CHAR, right(1), 39, MPI_COMM_WORLD)) == MPI_ERR_BUFFER,
                  "MPI_Bsend on MPI_COMM_WORLD used a communicator's automatic buffer");
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        for (int m = MSGS - 1; m >= 0; m--) {
            MPI_Recv(in, MIB, MPI_CHAR, left(1), 40 + m, comm, MPI_STATUS_IGNORE);
            CHECK(all_bytes(in, MIB, (char)((left(1) * 31 + m + which) & 0x7f)),
                  "automatic buffer (%s): message %d arrived wrong", which ? "communicator" : "process", m);
        }
        void *back = NULL;
        int backsize = -1;
        if (which == 0)
            MPI_Buffer_detach(&back, &backsize);
        else
            MPI_Comm_detach_buffer(dup, &back, &backsize);
        CHECK(back == MPI_BUFFER_AUTOMATIC && backsize == 0, "detaching an automatic buffer (%s) gave back %p/%d",
              which ? "communicator" : "process", back, backsize);
    }
    /* The _c forms: the size is ignored (even one no int holds). */
    void *back;
    MPI_Count backsize_c = -1;
    CHECK(MPI_Buffer_attach_c(MPI_BUFFER_AUTOMATIC, (MPI_Count)1 << 40) == MPI_SUCCESS,
          "MPI_Buffer_attach_c(AUTOMATIC) with a large size failed");
    MPI_Buffer_detach_c(&back, &backsize_c);
    CHECK(back == MPI_BUFFER_AUTOMATIC && backsize_c == 0, "MPI_Buffer_detach_c gave back %p/%lld", back,
          (long long)backsize_c);
    CHECK(MPI_Comm_attach_buffer_c(dup, MPI_BUFFER_AUTOMATIC, -5) == MPI_SUCCESS,
          "MPI_Comm_attach_buffer_c(AUTOMATIC) did not ignore its size");
    MPI_Comm_detach_buffer_c(dup, &back, &backsize_c);
    CHECK(back == MPI_BUFFER_AUTOMATIC && backsize_c == 0, "MPI_Comm_detach_buffer_c gave back %p/%lld", back,
          (long long)backsize_c);
    MPI_Comm_free(&dup);
    free(msg);
    free(in);
}

static int handler_calls;
static MPI_Comm handler_comm;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    handler_calls++;
    handler_comm = *comm;
}

/* The errors, raised through the communicator's own handler (MPI_COMM_WORLD's stays fatal, so an error
 * sent there ends the test), and a null communicator's through MPI_COMM_WORLD's. */
static void test_errors(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(dup, eh);
    char b1[256], b2[256];
    void *back = (void *)b1;
    int backsize = -1;

    /* Detach with none attached: NULL and 0, as MPI_Buffer_detach (and MPICH) do. */
    CHECK(MPI_Comm_detach_buffer(dup, &back, &backsize) == MPI_SUCCESS && back == NULL && backsize == 0,
          "MPI_Comm_detach_buffer with no buffer gave %p/%d", back, backsize);
    CHECK(handler_calls == 0, "detaching no buffer raised an error");

    CHECK(MPI_Comm_attach_buffer(dup, b1, (int)sizeof(b1)) == MPI_SUCCESS, "MPI_Comm_attach_buffer failed");
    int rc = MPI_Comm_attach_buffer(dup, b2, (int)sizeof(b2));
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "a second MPI_Comm_attach_buffer gave class %d, not MPI_ERR_BUFFER",
          err_class(rc));
    CHECK(handler_calls == 1 && handler_comm == dup,
          "the second attach's error did not reach the communicator's handler (%d calls)", handler_calls);
    rc = MPI_Comm_attach_buffer_c(dup, MPI_BUFFER_AUTOMATIC, 0);
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "attaching AUTOMATIC over a buffer gave class %d", err_class(rc));
    rc = MPI_Comm_detach_buffer(dup, NULL, &backsize);
    CHECK(err_class(rc) == MPI_ERR_ARG, "MPI_Comm_detach_buffer(NULL address) gave class %d", err_class(rc));
    rc = MPI_Comm_detach_buffer_c(dup, &back, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "MPI_Comm_detach_buffer_c(NULL size) gave class %d", err_class(rc));
    rc = MPI_Comm_iflush_buffer(dup, NULL);
    CHECK(err_class(rc) == MPI_ERR_ARG, "MPI_Comm_iflush_buffer(NULL) gave class %d", err_class(rc));
    /* The failed calls left the first buffer attached. */
    MPI_Comm_detach_buffer(dup, &back, &backsize);
    CHECK(back == b1 && backsize == (int)sizeof(b1), "after the errors, detach gave back %p/%d", back, backsize);

    handler_calls = 0;
    rc = MPI_Comm_attach_buffer(dup, b1, -1);
    CHECK(err_class(rc) == MPI_ERR_ARG, "a negative size gave class %d", err_class(rc));
    rc = MPI_Comm_attach_buffer_c(dup, NULL, 100);
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "a NULL buffer with a size gave class %d", err_class(rc));
    CHECK(handler_calls == 2, "%d of 2 errors reached the communicator's handler", handler_calls);
    CHECK(MPI_Comm_detach_buffer(dup, &back, &backsize) == MPI_SUCCESS && back == NULL,
          "a failed attach left a buffer attached");

    /* A buffer larger than an int: the int detach cannot report it (MPI_ERR_COUNT, still attached); the
     * _c form does. Nothing is sent, so the memory behind the claimed size is never touched. */
    const MPI_Count big = (MPI_Count)3 << 30;
    CHECK(MPI_Comm_attach_buffer_c(dup, b1, big) == MPI_SUCCESS, "MPI_Comm_attach_buffer_c of 3 GiB failed");
    rc = MPI_Comm_detach_buffer(dup, &back, &backsize);
    CHECK(err_class(rc) == MPI_ERR_COUNT, "the int detach of a 3 GiB buffer gave class %d", err_class(rc));
    MPI_Count backsize_c = -1;
    CHECK(MPI_Comm_detach_buffer_c(dup, &back, &backsize_c) == MPI_SUCCESS && back == b1 && backsize_c == big,
          "MPI_Comm_detach_buffer_c of a 3 GiB buffer gave back %p/%lld", back, (long long)backsize_c);

    /* The process's buffer: a second attach is MPI_ERR_BUFFER too. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Buffer_attach(b1, (int)sizeof(b1));
    rc = MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0);
    CHECK(err_class(rc) == MPI_ERR_BUFFER, "a second MPI_Buffer_attach gave class %d", err_class(rc));
    MPI_Buffer_detach(&back, &backsize);
    CHECK(back == b1, "the process's first buffer did not stay attached");

    /* A null or freed communicator: MPI_ERR_COMM, on MPI_COMM_WORLD's handler. */
    MPI_Comm gone;
    MPI_Comm_dup(MPI_COMM_WORLD, &gone);
    MPI_Comm stale = gone;
    MPI_Comm_free(&gone);
    MPI_Comm bad[2] = {MPI_COMM_NULL, stale};
    for (int i = 0; i < 2; i++) {
        MPI_Request req;
        rc = MPI_Comm_attach_buffer(bad[i], b1, (int)sizeof(b1));
        CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_Comm_attach_buffer(%s) gave class %d", i ? "freed" : "null",
              err_class(rc));
        rc = MPI_Comm_attach_buffer_c(bad[i], b1, (MPI_Count)sizeof(b1));
        CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_Comm_attach_buffer_c(%s) gave class %d", i ? "freed" : "null",
              err_class(rc));
        rc = MPI_Comm_detach_buffer(bad[i], &back, &backsize);
        CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_Comm_detach_buffer(%s) gave class %d", i ? "freed" : "null",
              err_class(rc));
        rc = MPI_Comm_detach_buffer_c(bad[i], &back, &backsize_c);
        CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_Comm_detach_buffer_c(%s) gave class %d", i ? "freed" : "null",
              err_class(rc));
        rc = MPI_Comm_flush_buffer(bad[i]);
        CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_Comm_flush_buffer(%s) gave class %d", i ? "freed" : "null",
              err_class(rc));
        rc = MPI_Comm_iflush_buffer(bad[i], &req);
        CHECK(err_class(rc) == MPI_ERR_COMM, "MPI_Comm_iflush_buffer(%s) gave class %d", i ? "freed" : "null",
              err_class(rc));
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&dup);
    MPI_Errhandler_free(&eh);
}

/* A duplicate does not inherit its parent's buffer; a communicator freed with its buffer attached (the
 * program should have detached it) first sends what the buffer holds, for a fixed and an automatic one. */
static void test_dup_and_free(void)
{
    enum { N = 4096 };
    int bufsize = N + MPI_BSEND_OVERHEAD;
    char *cbuf = malloc((size_t)bufsize), msg[N], in[N];
    MPI_Comm dup, dup2;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_attach_buffer(dup, cbuf, bufsize);
    MPI_Comm_dup(dup, &dup2);
    MPI_Comm_set_errhandler(dup2, MPI_ERRORS_RETURN);
    void *back = cbuf;
    int backsize = -1;
    CHECK(MPI_Comm_detach_buffer(dup2, &back, &backsize) == MPI_SUCCESS && back == NULL && backsize == 0,
          "a duplicate inherited its parent's buffer (%p/%d)", back, backsize);
    memset(msg, rank + 5, N);
    CHECK(err_class(MPI_Bsend(msg, N, MPI_CHAR, right(1), 50, dup2)) == MPI_ERR_BUFFER,
          "MPI_Bsend on a duplicate used its parent's buffer");
    MPI_Comm_free(&dup2);

    /* Freed with the message in flight, its receive posted: MPI_Comm_free sends it first. */
    MPI_Request r;
    MPI_Irecv(in, N, MPI_CHAR, left(1), 51, dup, &r);
    CHECK(MPI_Bsend(msg, N, MPI_CHAR, right(1), 51, dup) == MPI_SUCCESS, "MPI_Bsend on the parent failed");
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS, "MPI_Comm_free with a buffer attached failed");
    memset(cbuf, 0, (size_t)bufsize); /* the program's again */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(all_bytes(in, N, (char)(left(1) + 5)), "a message of a freed communicator's buffer arrived wrong");

    /* The same with an automatic buffer and a message of 1 MiB. */
    char *big = malloc(MIB), *bin = malloc(MIB);
    memset(big, rank + 9, MIB);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0);
    MPI_Irecv(bin, MIB, MPI_CHAR, left(1), 52, dup, &r);
    MPI_Bsend(big, MIB, MPI_CHAR, right(1), 52, dup);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS, "MPI_Comm_free with an automatic buffer attached failed");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(all_bytes(bin, MIB, (char)(left(1) + 9)),
          "a message of a freed communicator's automatic buffer arrived wrong");

    /* Attached and never detached nor freed: MPI_Finalize drains and forgets it. */
    MPI_Comm keep;
    MPI_Comm_dup(MPI_COMM_WORLD, &keep);
    MPI_Comm_attach_buffer(keep, MPI_BUFFER_AUTOMATIC, 0);
    MPI_Bsend(big, 16, MPI_CHAR, right(1), 53, keep);
    MPI_Recv(bin, 16, MPI_CHAR, left(1), 53, keep, MPI_STATUS_IGNORE);
    MPI_Comm_attach_buffer(MPI_COMM_SELF, MPI_BUFFER_AUTOMATIC, 0);
    free(big);
    free(bin);
    free(cbuf);
}

/* An intercommunicator's buffer: the two halves of MPI_COMM_WORLD (even and odd ranks) send to each other
 * through it, with no process buffer, and flush it. */
static void test_intercomm(void)
{
    if (size < 2)
        return;
    enum { N = 1 << 16 };
    MPI_Comm local, inter;
    int color = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 60, &inter);
    int lrank, lsize, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    int bufsize = N + MPI_BSEND_OVERHEAD;
    char *cbuf = malloc((size_t)bufsize), *msg = malloc(N), *in = malloc(N);
    CHECK(MPI_Comm_attach_buffer(inter, cbuf, bufsize) == MPI_SUCCESS,
          "MPI_Comm_attach_buffer on an intercommunicator failed");
    memset(msg, rank + 11, N);
    /* Local rank r sends to remote rank r % rsize: each receives from the remote ranks q with q % lsize ==
     * lrank. */
    CHECK(MPI_Bsend(msg, N, MPI_CHAR, lrank % rsize, 61, inter) == MPI_SUCCESS,
          "MPI_Bsend on an intercommunicator with its own buffer failed");
    MPI_Request flush;
    CHECK(MPI_Comm_iflush_buffer(inter, &flush) == MPI_SUCCESS,
          "MPI_Comm_iflush_buffer on an intercommunicator failed");
    for (int q = 0; q < rsize; q++) {
        if (q % lsize != lrank)
            continue;
        MPI_Status st;
        MPI_Recv(in, N, MPI_CHAR, q, 61, inter, &st);
        /* The remote rank q is world rank 2q (+1 on the odd side). */
        int world_q = 2 * q + (1 - color);
        CHECK(st.MPI_SOURCE == q && all_bytes(in, N, (char)(world_q + 11)),
              "the intercommunicator's message from remote rank %d arrived wrong", q);
    }
    MPI_Wait(&flush, MPI_STATUS_IGNORE);
    CHECK(MPI_Comm_flush_buffer(inter) == MPI_SUCCESS, "MPI_Comm_flush_buffer on an intercommunicator failed");
    void *back;
    int backsize;
    MPI_Comm_detach_buffer(inter, &back, &backsize);
    CHECK(back == cbuf && backsize == bufsize, "the intercommunicator's detach gave back %p/%d", back, backsize);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    free(cbuf);
    free(msg);
    free(in);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_comm_instead_of_process();
    test_both_attached();
    test_detach_waits();
    test_comm_flush();
    test_automatic();
    test_errors();
    test_intercomm();
    test_dup_and_free();
    int ok = axon_test_verdict_p2p("pt2pt_comm_buffer", rank, size);
    MPI_Finalize();
    return ok ? 0 : 1;
}
