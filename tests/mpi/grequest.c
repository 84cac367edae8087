/* Generalized requests: query_fn fills the status of every completion call (Wait, Test, Waitall,
 * Waitany, Waitsome, mixed with point-to-point requests), free_fn runs once (also on MPI_Request_free
 * before completion), cancel_fn gets the completion state, a callback's error is the call's,
 * MPI_Grequest_complete from another thread ends an MPI_Wait, and bad requests give MPI_ERR_REQUEST.
 * Prints "rank R: ok". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "axon_test.h"

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

struct op {
    int id;
    int queries, frees, cancels, cancel_complete;
    int query_error, cancelled;
};

static int query_fn(void *extra, MPI_Status *st)
{
    struct op *o = extra;
    o->queries++;
    st->MPI_SOURCE = o->id;
    st->MPI_TAG = 100 + o->id;
    MPI_Status_set_elements(st, MPI_INT, o->id + 1);
    MPI_Status_set_cancelled(st, o->cancelled);
    return o->query_error;
}

static int free_fn(void *extra)
{
    ((struct op *)extra)->frees++;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    struct op *o = extra;
    o->cancels++;
    o->cancel_complete = complete;
    if (!complete)
        o->cancelled = 1;
    return MPI_SUCCESS;
}

static void *completer(void *arg)
{
    usleep(20000);
    MPI_Grequest_complete(*(MPI_Request *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int rank, size, provided, flag = -1, count = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Status st;

    /* Wait after complete: the status is query_fn's. */
    struct op a = {.id = 3};
    MPI_Request r;
    EXPECT(MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &r) == MPI_SUCCESS && r != MPI_REQUEST_NULL);
    EXPECT(MPI_Test(&r, &flag, &st) == MPI_SUCCESS && flag == 0 && a.queries == 0);
    EXPECT(MPI_Grequest_complete(r) == MPI_SUCCESS);
    EXPECT(MPI_Request_get_status(r, &flag, &st) == MPI_SUCCESS && flag == 1 && a.queries == 1 && a.frees == 0);
    EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS && r == MPI_REQUEST_NULL);
    EXPECT(a.queries == 2 && a.frees == 1 && st.MPI_SOURCE == 3 && st.MPI_TAG == 103);
    EXPECT(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 4);

    /* Completed by another thread while this one waits. */
    if (provided == MPI_THREAD_MULTIPLE) {
        struct op b = {.id = 5};
        pthread_t th;
        MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &r);
        MPI_Request copy = r;
        pthread_create(&th, NULL, completer, &copy);
        EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS && st.MPI_TAG == 105 && b.frees == 1);
        pthread_join(th, NULL);
    }

    /* Mixed with point-to-point in Waitall, Waitany and Waitsome. */
    struct op ops[3] = {{.id = 0}, {.id = 1}, {.id = 2}};
    int sendv = 40 + rank, recvv = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request reqs[5];
    MPI_Status sts[5];
    for (int i = 0; i < 3; i++)
        MPI_Grequest_start(query_fn, free_fn, cancel_fn, &ops[i], &reqs[i]);
    MPI_Irecv(&recvv, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[3]);
    MPI_Isend(&sendv, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[4]);
    for (int i = 0; i < 3; i++)
        MPI_Grequest_complete(reqs[i]);
    EXPECT(MPI_Waitall(5, reqs, sts) == MPI_SUCCESS);
    EXPECT(recvv == 40 + left && sts[3].MPI_SOURCE == left);
    for (int i = 0; i < 3; i++)
        EXPECT(sts[i].MPI_SOURCE == i && sts[i].MPI_TAG == 100 + i && ops[i].frees == 1 && reqs[i] == MPI_REQUEST_NULL);

    struct op c = {.id = 8}, d = {.id = 9};
    int index = -1, outcount = -1, indices[2];
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &c, &reqs[0]);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &d, &reqs[1]);
    MPI_Grequest_complete(reqs[1]);
    EXPECT(MPI_Waitany(2, reqs, &index, &st) == MPI_SUCCESS && index == 1 && st.MPI_SOURCE == 9 && d.frees == 1);
    EXPECT(MPI_Testsome(2, reqs, &outcount, indices, sts) == MPI_SUCCESS && outcount == 0);
    MPI_Grequest_complete(reqs[0]);
    EXPECT(MPI_Waitsome(2, reqs, &outcount, indices, sts) == MPI_SUCCESS && outcount == 1 && indices[0] == 0 &&
           sts[0].MPI_SOURCE == 8 && c.frees == 1);

    /* Cancel: cancel_fn learns whether it completed; the status says what query_fn says. */
    struct op e = {.id = 2};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &e, &r);
    EXPECT(MPI_Cancel(&r) == MPI_SUCCESS && e.cancels == 1 && e.cancel_complete == 0);
    MPI_Grequest_complete(r);
    EXPECT(MPI_Cancel(&r) == MPI_SUCCESS && e.cancels == 2 && e.cancel_complete == 1);
    EXPECT(MPI_Wait(&r, &st) == MPI_SUCCESS && MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag == 1);

    /* Freed before completion: free_fn now, completion later still allowed. */
    struct op f = {.id = 4};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &f, &r);
    MPI_Request saved = r;
    EXPECT(MPI_Request_free(&r) == MPI_SUCCESS && r == MPI_REQUEST_NULL && f.frees == 1);
    EXPECT(MPI_Grequest_complete(saved) == MPI_SUCCESS && f.queries == 0 && f.frees == 1);

    /* A failing query_fn: the call's error, or MPI_ERR_IN_STATUS with it in the status. */
    struct op g = {.id = 1, .query_error = MPI_ERR_OTHER}, h = {.id = 1, .query_error = MPI_ERR_OTHER};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &r);
    MPI_Grequest_complete(r);
    EXPECT(class_of(MPI_Wait(&r, &st)) == MPI_ERR_OTHER && g.frees == 1 && r == MPI_REQUEST_NULL);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &h, &reqs[0]);
    MPI_Grequest_complete(reqs[0]);
    reqs[1] = MPI_REQUEST_NULL;
    EXPECT(class_of(MPI_Waitall(2, reqs, sts)) == MPI_ERR_IN_STATUS && sts[0].MPI_ERROR == MPI_ERR_OTHER &&
           sts[1].MPI_ERROR == MPI_SUCCESS);

    /* Bad requests. */
    MPI_Request p2p;
    MPI_Irecv(&recvv, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &p2p);
    EXPECT(class_of(MPI_Grequest_complete(MPI_REQUEST_NULL)) == MPI_ERR_REQUEST);
    EXPECT(class_of(MPI_Grequest_complete(p2p)) == MPI_ERR_REQUEST);
    EXPECT(class_of(MPI_Grequest_complete((MPI_Request)0x12345)) == MPI_ERR_REQUEST);
    EXPECT(class_of(MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, NULL)) == MPI_ERR_ARG);
    MPI_Wait(&p2p, MPI_STATUS_IGNORE);
    struct op k = {.id = 0};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &k, &r);
    MPI_Grequest_complete(r);
    EXPECT(class_of(MPI_Grequest_complete(r)) == MPI_ERR_REQUEST); /* twice */
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
