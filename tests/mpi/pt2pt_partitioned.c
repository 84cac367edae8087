/* Partitioned communication (MPI 4): around a ring, each rank sends to the next and receives from the
 * previous, the two sides cutting the message differently (8 partitions of n/8 against 4 of n/4), small
 * and large (through the node's rings and the single-copy path), started three times each, the
 * partitions marked by MPI_Pready, MPI_Pready_range, MPI_Pready_list and from four threads at once;
 * MPI_Parrived watched until it says yes; a partitioned and an ordinary message with the same tag each
 * reaching their own kind of receive; MPI_PROC_NULL; and the errors. Prints "rank R: ok". */
#include "axon_test.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { SEND_PARTS = 8, RECV_PARTS = 4, THREADS = 4 };

struct marker {
    MPI_Request req;
    int first, count;
};

static void *mark_some(void *arg)
{
    struct marker *m = arg;
    for (int p = m->first + m->count - 1; p >= m->first; p--)
        if (MPI_Pready(p, m->req) != MPI_SUCCESS)
            failures++;
    return NULL;
}

static void ring(int rank, int size, int n, int round)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *out = calloc((size_t)n, sizeof(int)), *in = calloc((size_t)n, sizeof(int));
    MPI_Request req[2];
    CHECK(MPI_Psend_init(out, SEND_PARTS, n / SEND_PARTS, MPI_INT, next, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]) ==
              MPI_SUCCESS, "MPI_Psend_init");
    CHECK(MPI_Precv_init(in, RECV_PARTS, n / RECV_PARTS, MPI_INT, prev, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]) ==
              MPI_SUCCESS, "MPI_Precv_init");
    int flag = 0;
    MPI_Parrived(req[1], 0, &flag);
    CHECK(flag, "MPI_Parrived on a receive never started says no");
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < n; i++) {
            out[i] = rank * 1000003 + it * 7919 + i + round;
            in[i] = -1;
        }
        MPI_Startall(2, req);
        int how = (it + round) % 4, part = n / SEND_PARTS;
        (void)part;
        if (how == 0) {
            for (int p = SEND_PARTS - 1; p >= 0; p--)
                MPI_Pready(p, req[0]);
        } else if (how == 1) {
            MPI_Pready_range(0, SEND_PARTS / 2 - 1, req[0]);
            MPI_Pready_range(SEND_PARTS / 2, SEND_PARTS - 1, req[0]);
        } else if (how == 2) {
            int list[SEND_PARTS];
            for (int p = 0; p < SEND_PARTS; p++)
                list[p] = (p * 3) % SEND_PARTS; /* every partition once, out of order */
            MPI_Pready_list(SEND_PARTS, list, req[0]);
        } else {
            pthread_t th[THREADS];
            struct marker m[THREADS];
            for (int t = 0; t < THREADS; t++) {
                m[t] = (struct marker){req[0], t * (SEND_PARTS / THREADS), SEND_PARTS / THREADS};
                pthread_create(&th[t], NULL, mark_some, &m[t]);
            }
            for (int t = 0; t < THREADS; t++)
                pthread_join(th[t], NULL);
        }
        /* Every partition of the receive arrives, MPI_Parrived says so, then the wait completes. */
        for (int p = 0; p < RECV_PARTS; p++) {
            int arrived = 0;
            while (!arrived)
                MPI_Parrived(req[1], p, &arrived);
        }
        MPI_Status st[2];
        MPI_Waitall(2, req, st);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += in[i] != prev * 1000003 + it * 7919 + i + round;
        CHECK(bad == 0, "n %d round %d iteration %d: %d elements wrong", n, round, it, bad);
        int got = -1;
        MPI_Get_count(&st[1], MPI_INT, &got);
        CHECK(got == n && st[1].MPI_SOURCE == prev && st[1].MPI_TAG == 11, "status: count %d source %d tag %d", got,
              st[1].MPI_SOURCE, st[1].MPI_TAG);
    }
    MPI_Request_free(&req[0]);
    MPI_Request_free(&req[1]);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "thread level %d", provided);

    for (int round = 0; round < 4; round++) {
        ring(rank, size, 64, round);
        ring(rank, size, 1 << 20, round); /* 4 MiB */
    }

    /* An ordinary and a partitioned message of one tag to the same rank: each finds its own kind of
     * receive, whichever was posted first. */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int po = 100 + rank, oo = 200 + rank, pi = -1, oi = -1;
    MPI_Request r[4];
    MPI_Precv_init(&pi, 1, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
    MPI_Start(&r[0]);
    MPI_Irecv(&oi, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(&oo, 1, MPI_INT, next, 5, MPI_COMM_WORLD, &r[2]);
    MPI_Psend_init(&po, 1, 1, MPI_INT, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[3]);
    MPI_Start(&r[3]);
    MPI_Pready(0, r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    CHECK(pi == 100 + prev && oi == 200 + prev, "partitioned got %d, ordinary got %d", pi, oi);
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[3]);

    /* Three operations of one tag pair in the order of their initialization, whatever the order of
     * MPI_Start and MPI_Pready (the sends start last to first); then one with a tag of 2^24 and more
     * (one such may live per peer and tag). */
    for (int big = 0; big < 2; big++) {
        int tag = big ? (1 << 24) + 12345 : 9, sv[3], rv[3] = {-1, -1, -1}, ops = big ? 1 : 3;
        MPI_Request s3[3], r3[3];
        for (int i = 0; i < ops; i++) {
            sv[i] = rank * 10 + i;
            MPI_Psend_init(&sv[i], 1, 1, MPI_INT, next, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &s3[i]);
            MPI_Precv_init(&rv[i], 1, 1, MPI_INT, prev, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &r3[i]);
        }
        for (int i = 0; i < ops; i++)
            MPI_Start(&r3[i]);
        for (int i = ops - 1; i >= 0; i--) {
            MPI_Start(&s3[i]);
            MPI_Pready(0, s3[i]);
        }
        MPI_Status st3[3];
        MPI_Waitall(ops, r3, st3);
        MPI_Waitall(ops, s3, MPI_STATUSES_IGNORE);
        for (int i = 0; i < ops; i++) {
            CHECK(rv[i] == prev * 10 + i, "tag %d, operation %d got %d", tag, i, rv[i]);
            CHECK(st3[i].MPI_TAG == tag, "status tag %d, not %d", st3[i].MPI_TAG, tag);
        }
        for (int i = 0; i < ops; i++) {
            MPI_Request_free(&s3[i]);
            MPI_Request_free(&r3[i]);
        }
        /* One live operation per peer and large tag: a second is refused. */
        if (big) {
            MPI_Request a, b = MPI_REQUEST_NULL;
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            MPI_Psend_init(&sv[0], 1, 1, MPI_INT, next, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &a);
            CHECK(MPI_Psend_init(&sv[1], 1, 1, MPI_INT, next, tag, MPI_COMM_WORLD, MPI_INFO_NULL, &b) ==
                      MPI_ERR_UNSUPPORTED_OPERATION && b == MPI_REQUEST_NULL,
                  "a second live operation with a large tag refused");
            MPI_Request_free(&a);
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        }
    }

    /* MPI_PROC_NULL: complete once started, the partitions may still be marked. */
    MPI_Request pn;
    MPI_Psend_init(&po, 2, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &pn);
    MPI_Start(&pn);
    CHECK(MPI_Pready_range(0, 1, pn) == MPI_SUCCESS, "MPI_Pready to MPI_PROC_NULL");
    MPI_Wait(&pn, MPI_STATUS_IGNORE);
    MPI_Request_free(&pn);

    /* Errors. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request e = MPI_REQUEST_NULL, s, rr;
    CHECK(MPI_Precv_init(&pi, 1, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &e) == MPI_ERR_RANK &&
              e == MPI_REQUEST_NULL, "MPI_ANY_SOURCE refused");
    CHECK(MPI_Precv_init(&pi, 1, 1, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &e) == MPI_ERR_TAG,
          "MPI_ANY_TAG refused");
    CHECK(MPI_Psend_init(&po, 0, 1, MPI_INT, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &e) == MPI_ERR_ARG,
          "zero partitions refused");
    MPI_Psend_init(&po, 2, 1, MPI_INT, next, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(&pi, 1, 2, MPI_INT, prev, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &rr);
    CHECK(MPI_Pready(0, s) == MPI_ERR_REQUEST, "MPI_Pready before MPI_Start refused");
    int pair[2] = {-1, -1}, two[2] = {7, 8};
    MPI_Request_free(&rr);
    MPI_Precv_init(pair, 1, 2, MPI_INT, prev, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &rr);
    MPI_Request_free(&s);
    MPI_Psend_init(two, 2, 1, MPI_INT, next, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Start(&rr);
    MPI_Start(&s);
    int flag = -1;
    CHECK(MPI_Pready(0, rr) == MPI_ERR_REQUEST, "MPI_Pready on a receive refused");
    CHECK(MPI_Parrived(s, 0, &flag) == MPI_ERR_REQUEST, "MPI_Parrived on a send refused");
    CHECK(MPI_Pready(2, s) == MPI_ERR_ARG, "partition out of range refused");
    CHECK(MPI_Parrived(rr, 1, &flag) == MPI_ERR_ARG, "MPI_Parrived out of range refused");
    CHECK(MPI_Pready(1, s) == MPI_SUCCESS, "MPI_Pready");
    CHECK(MPI_Pready(1, s) == MPI_ERR_ARG, "a partition marked twice refused");
    CHECK(MPI_Pready_range(1, 0, s) == MPI_ERR_ARG, "an empty range refused");
    MPI_Pready(0, s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    CHECK(pair[0] == 7 && pair[1] == 8, "after the errors: %d %d", pair[0], pair[1]);
    MPI_Request_free(&s);
    MPI_Request_free(&rr);

    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures ? 1 : 0;
}
