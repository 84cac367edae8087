/* MPI_Comm_idup does not block: (1) every rank but 0 starts its duplication of MPI_COMM_WORLD, then
 * sends to rank 0 synchronously, while rank 0 receives from all of them before it starts its own (a
 * blocking duplication deadlocks here); (2) each rank duplicates two communicators it shares with
 * different neighbours, in an order that chains around the ring (neighbour i's second is i+1's first);
 * (3) the same as (1) on an intercommunicator between the even and the odd ranks; (4) several
 * duplications of one communicator outstanding at once, with a nonblocking allreduce between them, and
 * MPI_Comm_idup_with_info's hints; (5) a duplication pending on some ranks while all of them make a
 * communicator by a blocking call (the others start their duplication after it). Every new
 * communicator then carries an allreduce. Then the bad arguments' errors. Any number of ranks from 2. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, failures;

static void check_sum(MPI_Comm c, const char *what)
{
    int n, me, sum = 0;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c);
    if (sum != n * (n - 1) / 2) {
        printf("rank %d FAILED: %s: allreduce gave %d, expected %d\n", rank, what, sum, n * (n - 1) / 2);
        failures++;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    MPI_Request req;
    int token = rank;

    /* (1) */
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            MPI_Recv(&token, 1, MPI_INT, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    } else {
        MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
        MPI_Ssend(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check_sum(dup, "idup while rank 0 waits");
    MPI_Comm_free(&dup);

    /* (2) Pairs (i, i+1) around the ring: my "left" pair and my "right" pair, duplicated right first on
     * even ranks and left first on odd ones (with an odd size, two neighbours start with the same). */
    if (size >= 3) {
        MPI_Comm pair[2], pdup[2];
        MPI_Request preq[2];
        int pair_of[2] = {-1, -1}; /* the pair index of pair[k] */
        for (int i = 0; i < size; i++) {
            /* The pair of ranks i and i+1 (mod size): every rank takes part in each split. */
            int in = rank == i || rank == (i + 1) % size;
            MPI_Comm c;
            MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank == i ? 0 : 1, &c);
            if (rank == i) {
                pair[1] = c; /* right: with i+1 */
                pair_of[1] = i;
            } else if (rank == (i + 1) % size) {
                pair[0] = c; /* left: with i */
                pair_of[0] = i;
            }
        }
        int first = rank % 2 ? 0 : 1;
        MPI_Comm_idup(pair[first], &pdup[first], &preq[0]);
        MPI_Comm_idup(pair[1 - first], &pdup[1 - first], &preq[1]);
        MPI_Waitall(2, preq, MPI_STATUSES_IGNORE);
        /* The blocking checks pair by pair, in one order for all (a rank's own order would cycle). */
        for (int i = 0; i < size; i++)
            for (int k = 0; k < 2; k++)
                if (pair_of[k] == i)
                    check_sum(pdup[k], "overlapping pairs");
        for (int k = 0; k < 2; k++) {
            MPI_Comm_free(&pdup[k]);
            MPI_Comm_free(&pair[k]);
        }
    }

    /* (3) */
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
    int lrank, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    if (lrank == 0) {
        for (int i = 1; i < rsize; i++)
            MPI_Recv(&token, 1, MPI_INT, i, 0, inter, MPI_STATUS_IGNORE);
        MPI_Comm_idup(inter, &dup, &req);
    } else {
        MPI_Comm_idup(inter, &dup, &req);
        MPI_Ssend(&token, 1, MPI_INT, 0, 0, inter);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int flag = 0, rs = -1;
    MPI_Comm_test_inter(dup, &flag);
    MPI_Comm_remote_size(dup, &rs);
    if (!flag || rs != rsize) {
        printf("rank %d FAILED: the intercommunicator's duplicate: inter %d, remote size %d (%d)\n", rank, flag, rs,
               rsize);
        failures++;
    }
    int mine = 1, theirs = 0;
    MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_SUM, dup); /* the remote group's sum */
    if (theirs != rsize) {
        printf("rank %d FAILED: allreduce on the duplicated intercommunicator gave %d, expected %d\n", rank,
               theirs, rsize);
        failures++;
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);

    /* (4) */
    enum { K = 4 };
    MPI_Comm dups[K];
    MPI_Request reqs[K + 1];
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    int one = 1, total = 0;
    MPI_Comm_idup(MPI_COMM_WORLD, &dups[0], &reqs[0]);
    MPI_Iallreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[K]);
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dups[1], &reqs[1]);
    MPI_Comm_idup(MPI_COMM_WORLD, &dups[2], &reqs[2]);
    MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dups[3], &reqs[3]);
    MPI_Info_free(&info);
    MPI_Waitall(K + 1, reqs, MPI_STATUSES_IGNORE);
    if (total != size) {
        printf("rank %d FAILED: the allreduce among the duplications gave %d\n", rank, total);
        failures++;
    }
    for (int k = 0; k < K; k++) {
        int cmp;
        MPI_Comm_compare(dups[k], MPI_COMM_WORLD, &cmp);
        if (cmp != MPI_CONGRUENT) {
            printf("rank %d FAILED: duplicate %d compares %d to MPI_COMM_WORLD\n", rank, k, cmp);
            failures++;
        }
        check_sum(dups[k], "several outstanding");
    }
    MPI_Info got;
    MPI_Comm_get_info(dups[1], &got);
    char value[16] = "";
    int present = 0;
    MPI_Info_get_string(got, "mpi_assert_no_any_tag", &(int){sizeof(value)}, value, &present);
    MPI_Info_free(&got);
    if (!present || strcmp(value, "true") != 0) {
        printf("rank %d FAILED: MPI_Comm_idup_with_info's hint is not on the duplicate\n", rank);
        failures++;
    }
    for (int k = 0; k < K; k++)
        MPI_Comm_free(&dups[k]);

    /* (5) */
    MPI_Comm split;
    if (rank % 2) {
        MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &split);
    } else {
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &split);
        MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    check_sum(dup, "idup across a blocking split");
    check_sum(split, "the split beside it");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);

    /* Bad arguments: the error classes the standard names, nothing started. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls, rc;
    rc = MPI_Comm_idup(MPI_COMM_NULL, &dup, &req);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_COMM) {
        printf("rank %d FAILED: MPI_Comm_idup(MPI_COMM_NULL) gave class %d\n", rank, cls);
        failures++;
    }
    rc = MPI_Comm_idup(MPI_COMM_WORLD, &dup, NULL);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_ARG) {
        printf("rank %d FAILED: MPI_Comm_idup with a NULL request gave class %d\n", rank, cls);
        failures++;
    }
    rc = MPI_Comm_idup_with_info(MPI_COMM_WORLD, (MPI_Info)0x12345, &dup, &req);
    MPI_Error_class(rc, &cls);
    if (cls != MPI_ERR_INFO) {
        printf("rank %d FAILED: MPI_Comm_idup_with_info with a bad info gave class %d\n", rank, cls);
        failures++;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "comm_idup: %d failures\n" : "comm_idup: ok\n", all);
    MPI_Finalize();
    return all != 0;
}
