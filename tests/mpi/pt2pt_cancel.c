/* MPI_Cancel on point-to-point operations. A receive that has not matched is cancelled; one that has is
 * not. A send whose completion waits for its receiver (a large message, a synchronous send, persistent
 * or not) and that nobody has received is cancelled: its wait returns, its status says so, and the
 * receiver never sees the message (its next receive on the tag gets the next message). A send that
 * matched first completes uncancelled, and a persistent send cancelled once runs normally when started
 * again. An eager send may or may not be cancelled; whichever, the receiver is told and the message is
 * received exactly when it was not cancelled. Rank 0 sends to the last rank; alone, a rank sends to
 * itself. tests/mpi/pt2pt_cancel.test runs it on each path (rings, single copy, UCX eager and
 * rendezvous). */
#include "axon_test.h"

#include <stdlib.h>
#include <string.h>

enum { BIG = 4 << 20, SMALL = 16, TAG_CTRL = 1, TAG_DATA = 2, SENTINEL = 4242 };
enum send_kind { ISEND, ISSEND, SEND_INIT, SSEND_INIT };
static const char *const kind_names[] = {"MPI_Isend", "MPI_Issend", "MPI_Send_init", "MPI_Ssend_init"};

static int rank, size, sender, receiver;

static void start_send(enum send_kind kind, const char *buf, int count, int dest, MPI_Request *r)
{
    switch (kind) {
    case ISEND:
        MPI_Isend(buf, count, MPI_CHAR, dest, TAG_DATA, MPI_COMM_WORLD, r);
        break;
    case ISSEND:
        MPI_Issend(buf, count, MPI_CHAR, dest, TAG_DATA, MPI_COMM_WORLD, r);
        break;
    case SEND_INIT:
        MPI_Send_init(buf, count, MPI_CHAR, dest, TAG_DATA, MPI_COMM_WORLD, r);
        MPI_Start(r);
        break;
    case SSEND_INIT:
        MPI_Ssend_init(buf, count, MPI_CHAR, dest, TAG_DATA, MPI_COMM_WORLD, r);
        MPI_Start(r);
        break;
    }
}

/* Receives count bytes of 'a' + count % 26 on TAG_DATA from the sender. */
static void recv_data(int count)
{
    char *buf = malloc((size_t)count);
    MPI_Status st;
    int rc = MPI_Recv(buf, count, MPI_CHAR, sender, TAG_DATA, MPI_COMM_WORLD, &st);
    EXPECT(rc == MPI_SUCCESS);
    int got = -1;
    MPI_Get_count(&st, MPI_CHAR, &got);
    EXPECT(got == count);
    for (int i = 0; i < count; i++)
        if (buf[i] != (char)('a' + count % 26)) {
            EXPECT(buf[i] == (char)('a' + count % 26));
            break;
        }
    free(buf);
}

/* The receiver's next message on TAG_DATA is the sentinel, not the cancelled send. */
static void recv_sentinel(void)
{
    int value = 0, got = -1;
    MPI_Status st;
    int rc = MPI_Recv(&value, 1, MPI_INT, sender, TAG_DATA, MPI_COMM_WORLD, &st);
    EXPECT(rc == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &got);
    EXPECT(got == 1 && value == SENTINEL);
}

/* A send nobody receives, cancelled. must: its completion waits for the receiver, so it has to be
 * cancelled (the wait could not return otherwise). */
static void unmatched_send(enum send_kind kind, int count, int must)
{
    int flag = 0;
    if (rank == sender) {
        char *buf = malloc((size_t)count);
        memset(buf, 'a' + count % 26, (size_t)count);
        MPI_Request r;
        MPI_Status st;
        start_send(kind, buf, count, receiver, &r);
        EXPECT(MPI_Cancel(&r) == MPI_SUCCESS);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
        MPI_Test_cancelled(&st, &flag);
        if (must && !flag)
            printf("rank %d FAILED: %s of %d bytes not cancelled\n", rank, kind_names[kind], count), failures++;
        if (kind == SEND_INIT || kind == SSEND_INIT) {
            /* Started again, the same request sends normally. */
            EXPECT(r != MPI_REQUEST_NULL);
            MPI_Send(&flag, 1, MPI_INT, receiver, TAG_CTRL, MPI_COMM_WORLD);
            MPI_Start(&r);
            EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
            int again = 1;
            MPI_Test_cancelled(&st, &again);
            EXPECT(again == 0);
            MPI_Request_free(&r);
        } else {
            MPI_Send(&flag, 1, MPI_INT, receiver, TAG_CTRL, MPI_COMM_WORLD);
        }
        int sentinel = SENTINEL;
        MPI_Send(&sentinel, 1, MPI_INT, receiver, TAG_DATA, MPI_COMM_WORLD);
        free(buf);
    }
    if (rank == receiver) {
        MPI_Recv(&flag, 1, MPI_INT, sender, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (!flag)
            recv_data(count);         /* not cancelled: it is there */
        if (kind == SEND_INIT || kind == SSEND_INIT)
            recv_data(count);         /* the restarted send */
        recv_sentinel();
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A send whose receive matched before the cancel completes uncancelled. */
static void matched_send(enum send_kind kind, int count)
{
    if (rank == sender) {
        char *buf = malloc((size_t)count);
        memset(buf, 'a' + count % 26, (size_t)count);
        MPI_Request r;
        MPI_Status st;
        start_send(kind, buf, count, receiver, &r);
        int got;
        MPI_Recv(&got, 1, MPI_INT, receiver, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Cancel(&r);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
        int flag = 1;
        MPI_Test_cancelled(&st, &flag);
        EXPECT(flag == 0);
        if (kind == SEND_INIT || kind == SSEND_INIT)
            MPI_Request_free(&r);
        free(buf);
    }
    if (rank == receiver) {
        recv_data(count);
        int got = 1;
        MPI_Send(&got, 1, MPI_INT, sender, TAG_CTRL, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Receives: one that nobody sends to is cancelled (from a rank and from any source), one that matched is
 * not; cancelling a completed or null request is harmless. */
static void receives(void)
{
    int value = 0, flag = 0;
    MPI_Request r;
    MPI_Status st;
    int from = (rank + 1) % size;
    MPI_Irecv(&value, 1, MPI_INT, from, 77, MPI_COMM_WORLD, &r);
    EXPECT(MPI_Cancel(&r) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
    MPI_Test_cancelled(&st, &flag);
    EXPECT(flag == 1);
    EXPECT(r == MPI_REQUEST_NULL);

    MPI_Irecv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    flag = 0;
    while (!flag)
        MPI_Test(&r, &flag, &st);
    MPI_Test_cancelled(&st, &flag);
    EXPECT(flag == 1);

    /* Matched: sent to myself first, so it is there when the receive is posted. */
    int one = 11;
    MPI_Request s;
    MPI_Isend(&one, 1, MPI_INT, rank, 78, MPI_COMM_WORLD, &s);
    MPI_Irecv(&value, 1, MPI_INT, rank, 78, MPI_COMM_WORLD, &r);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    flag = 0;
    while (!flag) /* complete, and still the user's to wait for */
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    MPI_Cancel(&r);
    EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
    flag = 1;
    MPI_Test_cancelled(&st, &flag);
    EXPECT(flag == 0 && value == 11);

    r = MPI_REQUEST_NULL;
    EXPECT(MPI_Cancel(&r) != MPI_SUCCESS); /* MPI_REQUEST_NULL is not a request to cancel */
}

/* On an intercommunicator between the lower and the upper half: the first rank of each half sends the
 * other's first rank a synchronous message nobody receives, and cancels it. */
static void intercomm_send(void)
{
    int low = rank < size / 2;
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 55, &inter);
    int hrank;
    MPI_Comm_rank(half, &hrank);
    if (hrank == 0) {
        char msg[SMALL] = {0};
        MPI_Request r;
        MPI_Status st;
        int flag = 0;
        MPI_Issend(msg, SMALL, MPI_CHAR, 0, TAG_DATA, inter, &r);
        MPI_Cancel(&r);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
        MPI_Test_cancelled(&st, &flag);
        EXPECT(flag == 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (hrank == 0) { /* nothing arrived */
        int there = 1;
        MPI_Iprobe(0, TAG_DATA, inter, &there, MPI_STATUS_IGNORE);
        EXPECT(there == 0);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    sender = 0;
    receiver = size - 1;

    receives();
    MPI_Barrier(MPI_COMM_WORLD);

    if (size == 1) {
        /* To myself: nothing receives while the cancel runs, so the receiver's part follows it. */
        for (enum send_kind k = ISEND; k <= SSEND_INIT; k++) {
            char *buf = malloc(BIG);
            memset(buf, 'a' + BIG % 26, BIG);
            MPI_Request r;
            MPI_Status st;
            int flag = 0;
            start_send(k, buf, BIG, 0, &r);
            MPI_Cancel(&r);
            EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS);
            MPI_Test_cancelled(&st, &flag);
            if (!flag)
                printf("rank 0 FAILED: %s of %d bytes to itself not cancelled\n", kind_names[k], BIG), failures++;
            int there = 1;
            MPI_Iprobe(0, TAG_DATA, MPI_COMM_WORLD, &there, MPI_STATUS_IGNORE);
            EXPECT(there == 0);
            if (k == SEND_INIT || k == SSEND_INIT)
                MPI_Request_free(&r);
            free(buf);
        }
    } else {
        for (enum send_kind k = ISEND; k <= SSEND_INIT; k++) {
            int sync = k == ISSEND || k == SSEND_INIT;
            unmatched_send(k, BIG, 1);
            unmatched_send(k, SMALL, sync);
            unmatched_send(k, 0, sync);
            matched_send(k, BIG);
            matched_send(k, SMALL);
        }
        /* Many at once, cancelled in the opposite order. */
        if (rank == sender) {
            enum { N = 8 };
            MPI_Request r[N];
            char *buf = malloc(BIG);
            memset(buf, 'a' + BIG % 26, BIG);
            for (int i = 0; i < N; i++)
                MPI_Issend(buf, i % 2 ? BIG : SMALL, MPI_CHAR, receiver, TAG_DATA, MPI_COMM_WORLD, &r[i]);
            for (int i = N - 1; i >= 0; i--)
                MPI_Cancel(&r[i]);
            MPI_Status st[N];
            EXPECT(MPI_Waitall(N, r, st) == MPI_SUCCESS);
            for (int i = 0; i < N; i++) {
                int flag = 0;
                MPI_Test_cancelled(&st[i], &flag);
                if (!flag)
                    printf("rank %d FAILED: send %d of %d in a row not cancelled\n", rank, i, (int)N), failures++;
            }
            int sentinel = SENTINEL;
            MPI_Send(&sentinel, 1, MPI_INT, receiver, TAG_CTRL, MPI_COMM_WORLD);
            MPI_Send(&sentinel, 1, MPI_INT, receiver, TAG_DATA, MPI_COMM_WORLD);
            free(buf);
        }
        if (rank == receiver) {
            int go;
            MPI_Recv(&go, 1, MPI_INT, sender, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            recv_sentinel();
        }
    }

    if (size > 1)
        intercomm_send();
    MPI_Barrier(MPI_COMM_WORLD);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
