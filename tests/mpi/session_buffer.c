/* A session's buffer for buffered sends (MPI 4.1 section 3.6), in the sessions model alone: a buffered send
 * on a communicator uses the communicator's own buffer, else that of the session the communicator derives
 * from (through groups from its process sets, and communicators duplicated, split or made from those
 * communicators' groups), else the process's. The sizes tell which buffer a send took: the session's
 * buffer holds one small message, the process's a large one. Also the session calls' errors, flushes and
 * MPI_Session_finalize with a buffer still attached. Prints "rank R: ok" when every check held. */
#include "axon_test.h"

#include <stdlib.h>
#include <string.h>

enum { SMALL = 64, LARGE = 4096 };

static int rank, size;

/* A buffered ring exchange of n ints on comm; the send's return code. */
static int ring(MPI_Comm comm, int n)
{
    int *out = malloc(sizeof(int) * (size_t)n), *in = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        out[i] = rank * 1000 + i;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int rc = MPI_Bsend(out, n, MPI_INT, right, 5, comm);
    if (rc == MPI_SUCCESS) {
        CHECK(MPI_Recv(in, n, MPI_INT, left, 5, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS, "receive %d ints", n);
        for (int i = 0; i < n; i++)
            CHECK(in[i] == left * 1000 + i, "element %d: %d", i, in[i]);
    }
    free(out);
    free(in);
    return rc;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm comm, dup, half, again;
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS, "MPI_Session_init");
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g) == MPI_SUCCESS, "group of mpi://WORLD");
    CHECK(MPI_Comm_create_from_group(g, "session_buffer", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm) == MPI_SUCCESS,
          "MPI_Comm_create_from_group");
    MPI_Group_free(&g);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);

    /* No buffer anywhere: MPI_ERR_BUFFER. */
    EXPECT(error_class(ring(comm, 1)) == MPI_ERR_BUFFER);

    /* Room for one small message in the session's buffer, a large one in the process's. */
    int small_bytes = 0, large_bytes = 0;
    MPI_Pack_size(SMALL, MPI_INT, comm, &small_bytes);
    MPI_Pack_size(LARGE, MPI_INT, comm, &large_bytes);
    int session_size = small_bytes + MPI_BSEND_OVERHEAD, process_size = large_bytes + MPI_BSEND_OVERHEAD;
    char *session_buf = malloc((size_t)session_size), *process_buf = malloc((size_t)process_size);
    CHECK(MPI_Session_attach_buffer(s, session_buf, session_size) == MPI_SUCCESS, "MPI_Session_attach_buffer");
    CHECK(MPI_Buffer_attach(process_buf, process_size) == MPI_SUCCESS, "MPI_Buffer_attach");
    EXPECT(ring(comm, SMALL) == MPI_SUCCESS);
    /* The session's buffer takes the large one too, and has no room: the process's is not used. */
    EXPECT(error_class(ring(comm, LARGE)) == MPI_ERR_BUFFER);

    /* Communicators derived from the session use its buffer as well. */
    CHECK(MPI_Comm_dup(comm, &dup) == MPI_SUCCESS, "MPI_Comm_dup");
    EXPECT(ring(dup, SMALL) == MPI_SUCCESS);
    EXPECT(error_class(ring(dup, LARGE)) == MPI_ERR_BUFFER);
    CHECK(MPI_Comm_split(comm, 0, size - rank, &half) == MPI_SUCCESS, "MPI_Comm_split");
    EXPECT(error_class(ring(half, LARGE)) == MPI_ERR_BUFFER);
    MPI_Group dg;
    MPI_Comm_group(dup, &dg);
    CHECK(MPI_Comm_create_from_group(dg, "session_buffer again", MPI_INFO_NULL, MPI_ERRORS_RETURN, &again) ==
              MPI_SUCCESS,
          "MPI_Comm_create_from_group of a derived communicator's group");
    MPI_Group_free(&dg);
    EXPECT(error_class(ring(again, LARGE)) == MPI_ERR_BUFFER);

    /* A communicator's own buffer comes first. */
    CHECK(MPI_Comm_attach_buffer(dup, MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS, "MPI_Comm_attach_buffer");
    EXPECT(ring(dup, LARGE) == MPI_SUCCESS);

    /* One buffer per session; errors go to the session's handler (MPI_ERRORS_RETURN here). */
    EXPECT(error_class(MPI_Session_attach_buffer(s, session_buf, session_size)) == MPI_ERR_BUFFER);
    EXPECT(error_class(MPI_Session_attach_buffer(s, session_buf, -1)) == MPI_ERR_ARG);
    EXPECT(error_class(MPI_Session_detach_buffer(s, NULL, NULL)) == MPI_ERR_ARG);
    /* (An invalid session handle has no handler to go to: in the sessions model alone, it is fatal.) */
    int got_size = -1;
    void *got = NULL;

    /* Flushes, then detaching gives back what was attached; without it the process's buffer serves. */
    EXPECT(MPI_Session_flush_buffer(s) == MPI_SUCCESS);
    MPI_Request flush = MPI_REQUEST_NULL;
    EXPECT(MPI_Session_iflush_buffer(s, &flush) == MPI_SUCCESS && flush != MPI_REQUEST_NULL);
    EXPECT(MPI_Wait(&flush, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    EXPECT(MPI_Session_detach_buffer(s, &got, &got_size) == MPI_SUCCESS);
    EXPECT(got == session_buf && got_size == session_size);
    EXPECT(ring(comm, LARGE) == MPI_SUCCESS);
    MPI_Count got_c = -1;
    EXPECT(MPI_Session_detach_buffer_c(s, &got, &got_c) == MPI_SUCCESS && got == NULL && got_c == 0);

    /* An automatic buffer (the _c form), still attached when the session ends: its messages go out. */
    EXPECT(MPI_Session_attach_buffer_c(s, MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS);
    EXPECT(ring(comm, 3 * LARGE) == MPI_SUCCESS);
    void *pgot = NULL;
    int pgot_size = -1;
    EXPECT(MPI_Buffer_detach(&pgot, &pgot_size) == MPI_SUCCESS && pgot == process_buf);
    int last = rank;
    EXPECT(MPI_Bsend(&last, 1, MPI_INT, (rank + 1) % size, 6, comm) == MPI_SUCCESS);
    int first = -1;
    EXPECT(MPI_Recv(&first, 1, MPI_INT, (rank + size - 1) % size, 6, comm, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    EXPECT(first == (rank + size - 1) % size);

    /* The checks' verdict over the communicator (axon_test.h's report uses MPI_COMM_WORLD, which the
     * sessions model does not have). */
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, comm);
    MPI_Comm_free(&again);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
    EXPECT(MPI_Session_finalize(&s) == MPI_SUCCESS && s == MPI_SESSION_NULL);
    free(session_buf);
    free(process_buf);
    printf("rank %d: %s\n", rank, failures || all ? "FAILED" : "ok");
    return failures != 0;
}
