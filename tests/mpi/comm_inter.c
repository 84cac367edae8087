/* Intercommunicators: MPI_Intercomm_create over MPI_COMM_WORLD and an even/odd split (as MPICH's tests
 * build them), point-to-point across (ranks name the remote group, sources come back as remote ranks,
 * MPI_ANY_SOURCE too), MPI_Comm_dup and _compare of one, MPI_Comm_split and MPI_Comm_create of one,
 * MPI_Intercomm_merge with each ordering of the high flags, and error classes. One rank has no second
 * group: it only checks the errors. Prints "rank R: ok" when everything holds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

static int wrank, wsize;

/* The world ranks of a group, in its order. */
static void world_of(MPI_Group g, int *out)
{
    MPI_Group wg;
    int n;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(g, &n);
    int *idx = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, wg, out);
    free(idx);
    MPI_Group_free(&wg);
}

/* Every process sends (its world rank, tag) to every remote rank and receives one message from each:
 * the source is the remote rank and the payload that rank's world rank. remote_world gives them. */
static void exchange_across(MPI_Comm ic, const int *remote_world, int tag, int any_source)
{
    int rsize;
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)rsize);
    int *got = malloc(sizeof(int) * (size_t)rsize);
    for (int j = 0; j < rsize; j++)
        MPI_Isend(&wrank, 1, MPI_INT, j, tag, ic, &reqs[j]);
    int *seen = calloc((size_t)rsize, sizeof(int));
    for (int j = 0; j < rsize; j++) {
        MPI_Status st;
        int src = any_source ? MPI_ANY_SOURCE : j;
        MPI_Recv(&got[j], 1, MPI_INT, src, tag, ic, &st);
        EXPECT(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize && st.MPI_TAG == tag);
        if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize) {
            EXPECT(got[j] == remote_world[st.MPI_SOURCE]);
            seen[st.MPI_SOURCE]++;
        }
    }
    for (int j = 0; j < rsize; j++)
        EXPECT(seen[j] == 1);
    MPI_Waitall(rsize, reqs, MPI_STATUSES_IGNORE);
    free(seen);
    free(reqs);
    free(got);
}

/* A ring on an intracommunicator: the neighbours' ranks come back. */
static void ring(MPI_Comm c, int tag)
{
    int r, n;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    int right = (r + 1) % n, left = (r + n - 1) % n, got = -1;
    MPI_Sendrecv(&r, 1, MPI_INT, right, tag, &got, 1, MPI_INT, left, tag, c, MPI_STATUS_IGNORE);
    EXPECT(got == left);
}

static void check_merge(MPI_Comm ic, int high, int evens_first, int color, int nevens, int nodds)
{
    MPI_Comm merged;
    EXPECT(MPI_Intercomm_merge(ic, high, &merged) == MPI_SUCCESS);
    int r, n, inter = 1;
    MPI_Comm_rank(merged, &r);
    MPI_Comm_size(merged, &n);
    MPI_Comm_test_inter(merged, &inter);
    EXPECT(n == wsize && inter == 0);
    int in_group = wrank / 2;
    int expect = (color == 0) == evens_first ? in_group : (color == 0 ? nodds : nevens) + in_group;
    EXPECT(r == expect);
    ring(merged, 5);
    MPI_Comm_free(&merged);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls, rc;

    /* Errors first (every size). */
    MPI_Comm bad;
    rc = MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Intercomm_create(MPI_COMM_WORLD, wsize, MPI_COMM_WORLD, 0, 1, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_RANK);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    rc = MPI_Comm_remote_size(MPI_COMM_SELF, &cls);
    EXPECT(rc != MPI_SUCCESS);
    MPI_Group g;
    rc = MPI_Comm_remote_group(MPI_COMM_WORLD, &g);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);

    if (wsize >= 2) {
        int color = wrank % 2;
        int nevens = (wsize + 1) / 2, nodds = wsize / 2;
        MPI_Comm local, ic;
        MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
        /* The other group's leader, as a rank of MPI_COMM_WORLD. */
        int remote_leader = color == 0 ? 1 : 0;
        EXPECT(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, 123, &ic) == MPI_SUCCESS);
        MPI_Comm_set_errhandler(ic, MPI_ERRORS_RETURN);

        int inter = 0, r, n, rn;
        MPI_Comm_test_inter(ic, &inter);
        MPI_Comm_rank(ic, &r);
        MPI_Comm_size(ic, &n);
        MPI_Comm_remote_size(ic, &rn);
        EXPECT(inter == 1);
        EXPECT(r == wrank / 2 && n == (color == 0 ? nevens : nodds) && rn == (color == 0 ? nodds : nevens));

        /* The remote group: the other parity, in world order. */
        MPI_Group rg, lg;
        MPI_Comm_remote_group(ic, &rg);
        MPI_Comm_group(ic, &lg);
        int *rworld = malloc(sizeof(int) * (size_t)rn), *lworld = malloc(sizeof(int) * (size_t)n);
        world_of(rg, rworld);
        world_of(lg, lworld);
        for (int j = 0; j < rn; j++)
            EXPECT(rworld[j] == 2 * j + 1 - color);
        for (int j = 0; j < n; j++)
            EXPECT(lworld[j] == 2 * j + color);
        MPI_Group_free(&rg);
        MPI_Group_free(&lg);

        /* Across, by rank and by MPI_ANY_SOURCE; the same tag on the local communicator meanwhile. */
        exchange_across(ic, rworld, 9, 0);
        ring(local, 9);
        exchange_across(ic, rworld, 9, 1);

        /* Bad rank on an intercommunicator: the remote group's size bounds it. */
        int v = 0;
        rc = MPI_Send(&v, 1, MPI_INT, rn, 0, ic);
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_RANK);

        /* Dup: congruent, its own context. */
        MPI_Comm icdup;
        EXPECT(MPI_Comm_dup(ic, &icdup) == MPI_SUCCESS);
        int result;
        MPI_Comm_compare(ic, icdup, &result);
        EXPECT(result == MPI_CONGRUENT);
        MPI_Comm_test_inter(icdup, &inter);
        EXPECT(inter == 1);
        MPI_Comm_compare(ic, local, &result);
        EXPECT(result == MPI_UNEQUAL);
        exchange_across(icdup, rworld, 9, 1);

        /* Merge: the low group first, either way; equal flags, the group of world rank 0 first. */
        check_merge(ic, color, 1, color, nevens, nodds);
        check_merge(ic, 1 - color, 0, color, nevens, nodds);
        check_merge(icdup, 0, 1, color, nevens, nodds);
        check_merge(icdup, 1, 1, color, nevens, nodds);

        /* Split of an intercommunicator: local rank 0 of each side out; the rest stays paired unless a
         * side is left empty. */
        MPI_Comm sub;
        EXPECT(MPI_Comm_split(ic, r == 0 ? MPI_UNDEFINED : 1, -r, &sub) == MPI_SUCCESS);
        if (r == 0 || nodds < 2) {
            EXPECT(sub == MPI_COMM_NULL);
        } else {
            int sr, sn, srn;
            MPI_Comm_rank(sub, &sr);
            MPI_Comm_size(sub, &sn);
            MPI_Comm_remote_size(sub, &srn);
            EXPECT(sn == n - 1 && srn == rn - 1 && sr == n - 1 - r); /* reversed keys */
            MPI_Group srg;
            MPI_Comm_remote_group(sub, &srg);
            int *sw = malloc(sizeof(int) * (size_t)srn);
            world_of(srg, sw);
            for (int j = 0; j < srn; j++)
                EXPECT(sw[j] == rworld[rn - 1 - j]);
            exchange_across(sub, sw, 4, 1);
            free(sw);
            MPI_Group_free(&srg);
            MPI_Comm_free(&sub);
        }

        /* Create of an intercommunicator: each side passes its group without its last member. */
        MPI_Group mine, part;
        MPI_Comm_group(ic, &mine);
        int last = n - 1;
        MPI_Group_excl(mine, 1, &last, &part);
        MPI_Comm cc;
        EXPECT(MPI_Comm_create(ic, part, &cc) == MPI_SUCCESS);
        if (r == n - 1 || nodds < 2) {
            EXPECT(cc == MPI_COMM_NULL);
        } else {
            int cn, crn;
            MPI_Comm_size(cc, &cn);
            MPI_Comm_remote_size(cc, &crn);
            EXPECT(cn == n - 1 && crn == rn - 1);
            exchange_across(cc, rworld, 6, 0);
            MPI_Comm_free(&cc);
        }
        MPI_Group_free(&part);
        MPI_Group_free(&mine);

        /* Freeing the intercommunicator leaves its dup working. */
        MPI_Comm_free(&ic);
        exchange_across(icdup, rworld, 10, 0);
        MPI_Comm_free(&icdup);
        MPI_Comm_free(&local);
        free(rworld);
        free(lworld);
    }

    if (failures == 0)
        printf("rank %d: ok\n", wrank);
    MPI_Finalize();
    return failures != 0;
}
