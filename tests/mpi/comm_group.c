/* Groups through the API: every MPI_Group_* call against results computed by hand from the world size
 * (inclusion, exclusion, ranges, union, intersection, difference, translation with MPI_PROC_NULL,
 * comparison), MPI_GROUP_EMPTY, the groups of split communicators, and error classes under
 * MPI_ERRORS_RETURN. Prints "rank R: ok" when everything holds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "axon_test.h"

static int wrank, wsize;

static MPI_Group world;

/* Whether g's members are, in order, the world ranks want[0..n). */
static int members_are(MPI_Group g, const int *want, int n)
{
    int size;
    MPI_Group_size(g, &size);
    if (size != n)
        return 0;
    int *idx = malloc(sizeof(int) * (size_t)(n + 1)), *w = malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, world, w);
    int same = 1;
    for (int i = 0; i < n; i++)
        same &= w[i] == want[i];
    free(idx);
    free(w);
    return same;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n = wsize, size, rank, result, cls, rc;
    int *want = malloc(sizeof(int) * (size_t)(2 * n + 1)), *ranks = malloc(sizeof(int) * (size_t)(2 * n + 1));

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(world, &size);
    MPI_Group_rank(world, &rank);
    EXPECT(size == n && rank == wrank);

    /* Incl, reversed: my rank is mirrored. */
    MPI_Group rev;
    for (int i = 0; i < n; i++)
        ranks[i] = want[i] = n - 1 - i;
    EXPECT(MPI_Group_incl(world, n, ranks, &rev) == MPI_SUCCESS);
    EXPECT(members_are(rev, want, n));
    MPI_Group_rank(rev, &rank);
    EXPECT(rank == n - 1 - wrank);
    MPI_Group_compare(world, rev, &result);
    EXPECT(result == (n == 1 ? MPI_IDENT : MPI_SIMILAR));

    /* Excl of the odd ranks = range_incl (0, n-1, 2) = range_excl (1, n-1, 2). */
    MPI_Group evens, evens2, evens3;
    int k = 0, e = 0;
    for (int i = 1; i < n; i += 2)
        ranks[k++] = i;
    for (int i = 0; i < n; i += 2)
        want[e++] = i;
    EXPECT(MPI_Group_excl(world, k, ranks, &evens) == MPI_SUCCESS);
    EXPECT(members_are(evens, want, e));
    int r_in[1][3] = {{0, n - 1, 2}};
    EXPECT(MPI_Group_range_incl(world, 1, r_in, &evens2) == MPI_SUCCESS);
    MPI_Group_compare(evens, evens2, &result);
    EXPECT(result == MPI_IDENT);
    if (n > 1) {
        int r_ex[1][3] = {{1, n - 1, 2}};
        EXPECT(MPI_Group_range_excl(world, 1, r_ex, &evens3) == MPI_SUCCESS);
    } else {
        EXPECT(MPI_Group_range_excl(world, 0, NULL, &evens3) == MPI_SUCCESS);
    }
    MPI_Group_compare(evens, evens3, &result);
    EXPECT(result == MPI_IDENT);
    MPI_Group_rank(evens, &rank);
    EXPECT(rank == (wrank % 2 ? MPI_UNDEFINED : wrank / 2));

    /* A descending range: (n-1, 0, -3). */
    MPI_Group desc;
    int r_desc[1][3] = {{n - 1, 0, -3}};
    k = 0;
    for (int i = n - 1; i >= 0; i -= 3)
        want[k++] = i;
    EXPECT(MPI_Group_range_incl(world, 1, r_desc, &desc) == MPI_SUCCESS);
    EXPECT(members_are(desc, want, k));

    /* The first half (ranks 0 .. h-1) against the evens. */
    int h = (n + 1) / 2;
    MPI_Group first;
    for (int i = 0; i < h; i++)
        ranks[i] = i;
    MPI_Group_incl(world, h, ranks, &first);
    MPI_Group u, in, d;
    EXPECT(MPI_Group_union(first, evens, &u) == MPI_SUCCESS);
    k = 0;
    for (int i = 0; i < h; i++)
        want[k++] = i;
    for (int i = 0; i < n; i += 2)
        if (i >= h)
            want[k++] = i;
    EXPECT(members_are(u, want, k));
    EXPECT(MPI_Group_intersection(evens, first, &in) == MPI_SUCCESS);
    k = 0;
    for (int i = 0; i < h; i += 2)
        want[k++] = i;
    EXPECT(members_are(in, want, k));
    EXPECT(MPI_Group_difference(first, evens, &d) == MPI_SUCCESS);
    k = 0;
    for (int i = 1; i < h; i += 2)
        want[k++] = i;
    EXPECT(members_are(d, want, k));
    if (k == 0) {
        /* Empty results are MPI_GROUP_EMPTY. */
        EXPECT(d == MPI_GROUP_EMPTY);
    }

    /* Translate from the reversed group into the evens, with MPI_PROC_NULL. */
    for (int i = 0; i < n; i++)
        ranks[i] = i;
    ranks[n] = MPI_PROC_NULL;
    int *out = malloc(sizeof(int) * (size_t)(n + 1));
    EXPECT(MPI_Group_translate_ranks(rev, n + 1, ranks, evens, out) == MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int w = n - 1 - i;
        EXPECT(out[i] == (w % 2 ? MPI_UNDEFINED : w / 2));
    }
    EXPECT(out[n] == MPI_PROC_NULL);
    free(out);

    /* MPI_GROUP_EMPTY. */
    MPI_Group empty, empty2;
    EXPECT(MPI_Group_incl(world, 0, NULL, &empty) == MPI_SUCCESS && empty == MPI_GROUP_EMPTY);
    MPI_Group_size(MPI_GROUP_EMPTY, &size);
    MPI_Group_rank(MPI_GROUP_EMPTY, &rank);
    EXPECT(size == 0 && rank == MPI_UNDEFINED);
    EXPECT(MPI_Group_difference(world, world, &empty2) == MPI_SUCCESS && empty2 == MPI_GROUP_EMPTY);
    MPI_Group_compare(empty, MPI_GROUP_EMPTY, &result);
    EXPECT(result == MPI_IDENT);
    EXPECT(MPI_Group_free(&empty) == MPI_SUCCESS && empty == MPI_GROUP_NULL);
    MPI_Group_free(&empty2);
    MPI_Group wu;
    EXPECT(MPI_Group_union(MPI_GROUP_EMPTY, world, &wu) == MPI_SUCCESS);
    MPI_Group_compare(wu, world, &result);
    EXPECT(result == MPI_IDENT);
    MPI_Group_free(&wu);

    /* A split communicator's group. */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, -wrank, &half);
    MPI_Group hg;
    MPI_Comm_group(half, &hg);
    k = 0;
    for (int i = n - 1; i >= 0; i--)
        if (i % 2 == wrank % 2)
            want[k++] = i;
    EXPECT(members_are(hg, want, k));
    if (wrank % 2 == 0) {
        MPI_Group_compare(hg, evens, &result);
        EXPECT(result == (k == 1 ? MPI_IDENT : MPI_SIMILAR));
    }
    MPI_Group_free(&hg);
    MPI_Comm_free(&half);

    /* Errors. */
    rc = MPI_Group_size((MPI_Group)0x88ffffff, &size);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_GROUP);
    rc = MPI_Group_size(MPI_GROUP_NULL, &size);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_GROUP);
    ranks[0] = n;
    MPI_Group bad;
    rc = MPI_Group_incl(world, 1, ranks, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_RANK);
    ranks[0] = 0;
    ranks[1] = 0;
    if (n >= 2) {
        rc = MPI_Group_incl(world, 2, ranks, &bad);
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_RANK);
    }
    rc = MPI_Group_excl(world, 1, (int[]){-1}, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_RANK);
    int r_bad[1][3] = {{0, n - 1, 0}};
    rc = MPI_Group_range_incl(world, 1, r_bad, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ARG);
    ranks[0] = n;
    rc = MPI_Group_translate_ranks(world, 1, ranks, evens, want);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_RANK);
    MPI_Group gone;
    MPI_Group_incl(world, 1, (int[]){0}, &gone);
    MPI_Group stale = gone;
    MPI_Group_free(&gone);
    EXPECT(gone == MPI_GROUP_NULL);
    rc = MPI_Group_rank(stale, &rank);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_GROUP);
    rc = MPI_Group_free(&gone);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_GROUP);

    MPI_Group *all[] = {&rev, &evens, &evens2, &evens3, &desc, &first, &u, &in, &d, &world};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        EXPECT(MPI_Group_free(all[i]) == MPI_SUCCESS && *all[i] == MPI_GROUP_NULL);
    free(want);
    free(ranks);
    if (failures == 0)
        printf("rank %d: ok\n", wrank);
    MPI_Finalize();
    return failures != 0;
}
