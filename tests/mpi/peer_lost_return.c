/* A job that survives a lost rank: MPI_COMM_WORLD's error handler is MPI_ERRORS_RETURN, and the last rank
 * ends without MPI_Finalize (exit code 3) once all have met. Every operation of the others that involves it
 * returns MPI_ERR_PROC_ABORTED instead of waiting forever: a barrier they entered before it ended, a
 * receive posted before it ended, a blocking receive, a synchronous send, a receive from MPI_ANY_SOURCE that
 * nobody else will match, a probe, a test loop, a barrier and an allreduce of a communicator it belongs to
 * (and MPIX_Comm_failure_get_acked names it after MPIX_Comm_failure_ack); while what the survivors do among themselves works (an
 * allreduce on a communicator of theirs made before, messages between them on MPI_COMM_WORLD), and each
 * finishes with MPI_Finalize. Each survivor prints one line, "peer_lost_return: rank R: ok", or what went
 * wrong. */
#include <mpi.h>
#include <mpi-ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

static void expect_aborted(int rank, const char *what, int rc)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_PROC_ABORTED) {
        char text[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        if (rc != MPI_SUCCESS)
            MPI_Error_string(rc, text, &len);
        printf("peer_lost_return: rank %d: %s returned class %d (%s), not MPI_ERR_PROC_ABORTED\n", rank, what, cls,
               rc == MPI_SUCCESS ? "success" : text);
        failures++;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int lost = size - 1;
    MPI_Comm survivors, all;
    MPI_Comm_split(MPI_COMM_WORLD, rank == lost ? MPI_UNDEFINED : 0, rank, &survivors);
    MPI_Comm_dup(MPI_COMM_WORLD, &all); /* inherits MPI_ERRORS_RETURN */
    int x = 0, y = 0;
    MPI_Request early;
    if (rank != lost)
        MPI_Irecv(&x, 1, MPI_INT, lost, 1, MPI_COMM_WORLD, &early);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == lost) {
        fflush(stdout);
        usleep(300000); /* the others are in the barrier below by then */
        _exit(3);
    }

    expect_aborted(rank, "MPI_Barrier of a communicator with the lost rank, entered before it ended",
                   MPI_Barrier(all));
    expect_aborted(rank, "MPI_Wait of a receive posted before", MPI_Wait(&early, MPI_STATUS_IGNORE));
    expect_aborted(rank, "MPI_Recv", MPI_Recv(&x, 1, MPI_INT, lost, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_aborted(rank, "MPI_Ssend", MPI_Ssend(&x, 1, MPI_INT, lost, 3, MPI_COMM_WORLD));
    expect_aborted(rank, "MPI_Recv from MPI_ANY_SOURCE",
                   MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_aborted(rank, "MPI_Probe", MPI_Probe(lost, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_Request r;
    MPI_Irecv(&x, 1, MPI_INT, lost, 6, MPI_COMM_WORLD, &r);
    int flag = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < 1000000 && !flag && rc == MPI_SUCCESS; i++)
        rc = MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    expect_aborted(rank, "MPI_Test of a receive posted after", rc);
    expect_aborted(rank, "MPI_Barrier of a communicator with the lost rank", MPI_Barrier(all));
    expect_aborted(rank, "MPI_Allreduce of a communicator with the lost rank",
                   MPI_Allreduce(&rank, &y, 1, MPI_INT, MPI_SUM, all));

    /* ULFM's acknowledgement names the lost rank. */
    MPI_Group failed = MPI_GROUP_NULL;
    int nfailed = -1, failed_rank = -1, zero = 0;
    if (MPIX_Comm_failure_ack(MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &failed) != MPI_SUCCESS) {
        printf("peer_lost_return: rank %d: MPIX_Comm_failure_ack or _get_acked failed\n", rank);
        failures++;
    } else {
        MPI_Group world_group;
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_size(failed, &nfailed);
        if (nfailed == 1)
            MPI_Group_translate_ranks(failed, 1, &zero, world_group, &failed_rank);
        if (nfailed != 1 || failed_rank != lost) {
            printf("peer_lost_return: rank %d: the acknowledged failures are %d rank(s), the first %d\n", rank,
                   nfailed, failed_rank);
            failures++;
        }
        MPI_Group_free(&world_group);
        if (failed != MPI_GROUP_EMPTY)
            MPI_Group_free(&failed);
    }

    /* Among the survivors all works. */
    int sum = -1;
    rc = MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, survivors);
    if (rc != MPI_SUCCESS || sum != (size - 1) * (size - 2) / 2) {
        printf("peer_lost_return: rank %d: allreduce of the survivors: rc %d, sum %d\n", rank, rc, sum);
        failures++;
    }
    int next = (rank + 1) % (size - 1), prev = (rank + size - 2) % (size - 1);
    int got = -1;
    rc = MPI_Sendrecv(&rank, 1, MPI_INT, next, 8, &got, 1, MPI_INT, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || got != prev) {
        printf("peer_lost_return: rank %d: a ring of the survivors: rc %d, got %d from %d\n", rank, rc, got, prev);
        failures++;
    }
    MPI_Comm_free(&survivors);
    MPI_Comm_free(&all);
    rc = MPI_Finalize();
    if (rc != MPI_SUCCESS) {
        printf("peer_lost_return: rank %d: MPI_Finalize returned %d\n", rank, rc);
        failures++;
    }
    if (!failures)
        printf("peer_lost_return: rank %d: ok\n", rank);
    return failures ? 1 : 0;
}
