/* Intracommunicators: MPI_Comm_dup, _idup, _split (odd/even, reversed keys, MPI_UNDEFINED), _split_type,
 * _create, _create_group and _free, each new communicator carrying point-to-point traffic that must not
 * cross into its parent's (same tag, same peers, messages sent on the child first and received on the
 * parent first); MPI_Comm_compare's four answers; names; 10,000 dup/free cycles (context ids are
 * recycled); a communicator freed with a receive still pending; and the error classes under
 * MPI_ERRORS_RETURN. Prints "rank R: ok" when everything holds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int wrank, wsize;

/* A ring exchange on child and parent with the same tag: each message carries where it was sent, and
 * the child's is sent first but received last. */
static void check_isolation(MPI_Comm parent, MPI_Comm child, int marker)
{
    int prank, psize, crank, csize;
    MPI_Comm_rank(parent, &prank);
    MPI_Comm_size(parent, &psize);
    MPI_Comm_rank(child, &crank);
    MPI_Comm_size(child, &csize);
    int cright = (crank + 1) % csize, cleft = (crank + csize - 1) % csize;
    int pright = (prank + 1) % psize, pleft = (prank + psize - 1) % psize;
    MPI_Request reqs[2];
    int out_child[2] = {marker, crank}, out_parent[2] = {-marker, prank};
    int in_child[2] = {0, 0}, in_parent[2] = {0, 0};
    MPI_Isend(out_child, 2, MPI_INT, cright, 7, child, &reqs[0]);
    MPI_Isend(out_parent, 2, MPI_INT, pright, 7, parent, &reqs[1]);
    MPI_Status st;
    MPI_Recv(in_parent, 2, MPI_INT, pleft, 7, parent, &st);
    EXPECT(in_parent[0] == -marker && in_parent[1] == pleft && st.MPI_SOURCE == pleft);
    MPI_Recv(in_child, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, child, &st);
    EXPECT(in_child[0] == marker && in_child[1] == cleft && st.MPI_SOURCE == cleft && st.MPI_TAG == 7);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
}

/* The world ranks of a communicator's members, in its order. */
static void world_ranks_of(MPI_Comm comm, int *out)
{
    MPI_Group g, wg;
    int n;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(g, &n);
    int *idx = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Group_translate_ranks(g, n, idx, wg, out);
    free(idx);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    int rank, size, result;

    /* 1. Dup: same ranks, congruent, isolated, inherits the error handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm dup;
    EXPECT(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    MPI_Comm_rank(dup, &rank);
    MPI_Comm_size(dup, &size);
    EXPECT(rank == wrank && size == wsize);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
    EXPECT(result == MPI_CONGRUENT);
    MPI_Comm_compare(dup, dup, &result);
    EXPECT(result == MPI_IDENT);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(dup, &eh);
    EXPECT(eh == MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    check_isolation(MPI_COMM_WORLD, dup, 11);
    int inter = -1;
    MPI_Comm_test_inter(dup, &inter);
    EXPECT(inter == 0);
    MPI_Comm parent = MPI_COMM_WORLD;
    EXPECT(MPI_Comm_get_parent(&parent) == MPI_SUCCESS && parent == MPI_COMM_NULL);

    /* 2. Split odd/even with reversed keys: rank order reversed within each color. */
    MPI_Comm half;
    EXPECT(MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &half) == MPI_SUCCESS);
    MPI_Comm_rank(half, &rank);
    MPI_Comm_size(half, &size);
    int nsame = (wsize + 1 - wrank % 2) / 2; /* how many world ranks share my parity */
    EXPECT(size == nsame);
    {
        int *w = malloc(sizeof(int) * (size_t)size);
        world_ranks_of(half, w);
        /* Highest world rank of my parity first. */
        int expect = (wsize - 1) - ((wsize - 1) % 2 != wrank % 2);
        for (int i = 0; i < size; i++, expect -= 2)
            EXPECT(w[i] == expect);
        EXPECT(w[rank] == wrank);
        free(w);
    }
    MPI_Comm_compare(MPI_COMM_WORLD, half, &result);
    EXPECT(result == (wsize == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
    check_isolation(MPI_COMM_WORLD, half, 22);
    check_isolation(dup, half, 23);

    /* 3. Split with MPI_UNDEFINED for rank 0: it gets MPI_COMM_NULL; the others one communicator in
     * world order (equal keys: ties go by rank). */
    MPI_Comm rest;
    EXPECT(MPI_Comm_split(dup, wrank == 0 ? MPI_UNDEFINED : 5, 0, &rest) == MPI_SUCCESS);
    if (wrank == 0) {
        EXPECT(rest == MPI_COMM_NULL);
    } else {
        MPI_Comm_rank(rest, &rank);
        MPI_Comm_size(rest, &size);
        EXPECT(rank == wrank - 1 && size == wsize - 1);
        MPI_Comm rest2; /* every member of a parent must take part in check_isolation */
        MPI_Comm_dup(rest, &rest2);
        check_isolation(rest, rest2, 33);
        MPI_Comm_free(&rest2);
        MPI_Comm_free(&rest);
        EXPECT(rest == MPI_COMM_NULL);
    }

    /* 4. Split to identical membership in a shuffled order: similar. */
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -wrank, &rev);
    MPI_Comm_rank(rev, &rank);
    EXPECT(rank == wsize - 1 - wrank);
    MPI_Comm_compare(MPI_COMM_WORLD, rev, &result);
    EXPECT(result == (wsize == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
    check_isolation(MPI_COMM_WORLD, rev, 44);

    /* 5. Create from a group: the even world ranks. */
    MPI_Group wgroup, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &wgroup);
    int range[1][3] = {{0, wsize - 1, 2}};
    MPI_Group_range_incl(wgroup, 1, range, &evens);
    MPI_Comm ecomm;
    EXPECT(MPI_Comm_create(MPI_COMM_WORLD, evens, &ecomm) == MPI_SUCCESS);
    if (wrank % 2) {
        EXPECT(ecomm == MPI_COMM_NULL);
    } else {
        MPI_Comm_rank(ecomm, &rank);
        MPI_Comm_size(ecomm, &size);
        EXPECT(rank == wrank / 2 && size == (wsize + 1) / 2);
        check_isolation(half, ecomm, 55); /* half: the even ranks too */
        /* The same members as the even half of the split, in the other order. */
        if (wrank % 2 == 0) {
            MPI_Comm_compare(ecomm, half, &result);
            EXPECT(result == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
        }
    }

    /* 6. Create_group: only the members of the group call, on a communicator whose other members are
     * busy with something else (a dup among themselves). */
    MPI_Comm gcomm = MPI_COMM_NULL, other = MPI_COMM_NULL;
    if (wrank % 2 == 0) {
        EXPECT(MPI_Comm_create_group(dup, evens, 99, &gcomm) == MPI_SUCCESS);
        MPI_Comm_rank(gcomm, &rank);
        EXPECT(rank == wrank / 2);
        check_isolation(ecomm, gcomm, 66);
    } else {
        MPI_Comm_dup(half, &other);
        check_isolation(half, other, 67);
    }

    /* 7. Idup: a request that MPI_Wait accepts. */
    MPI_Comm idup;
    MPI_Request req;
    EXPECT(MPI_Comm_idup(half, &idup, &req) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
    check_isolation(half, idup, 77);

    /* 8. Split by node: the ranks whose processor name is this rank's (everyone on one machine). */
    char names[64][MPI_MAX_PROCESSOR_NAME] = {{0}}, mine[MPI_MAX_PROCESSOR_NAME] = {0};
    int namelen, here = 0;
    MPI_Get_processor_name(mine, &namelen);
    if (wsize <= 64) {
        MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
        for (int r = 0; r < wsize; r++)
            here += strcmp(names[r], mine) == 0;
    }
    MPI_Comm node;
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, wrank, MPI_INFO_NULL, &node) == MPI_SUCCESS);
    MPI_Comm_size(node, &size);
    MPI_Comm_compare(node, MPI_COMM_WORLD, &result);
    EXPECT(wsize > 64 || size == here);
    EXPECT(here != wsize || result == MPI_CONGRUENT);
    MPI_Comm none;
    EXPECT(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none) == MPI_SUCCESS);
    EXPECT(none == MPI_COMM_NULL);

    /* 9. Names. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    EXPECT(strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14);
    MPI_Comm_get_name(MPI_COMM_NULL, name, &len); /* null handles have names (MPI 4.1) */
    EXPECT(strcmp(name, "MPI_COMM_NULL") == 0 && len == 13);
    MPI_Comm_get_name(dup, name, &len);
    EXPECT(len == 0 && name[0] == '\0');
    MPI_Comm_set_name(dup, "my dup");
    MPI_Comm_get_name(dup, name, &len);
    EXPECT(strcmp(name, "my dup") == 0 && len == 6);

    /* 10. 10,000 dup/free cycles, with a message on every twentieth. */
    for (int i = 0; i < 10000; i++) {
        MPI_Comm c;
        if (MPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS) {
            EXPECT(!"dup failed");
            break;
        }
        if (i % 20 == 0)
            check_isolation(MPI_COMM_WORLD, c, 1000 + i);
        MPI_Comm_free(&c);
    }

    /* 11. Freed with a send and a receive pending: both still complete, and communicators made
     * meanwhile do not take the freed one's context from under them. */
    {
        MPI_Comm c, c2;
        MPI_Request rr, sr;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        int got = -1, val = 42 + wrank;
        int right = (wrank + 1) % wsize, left = (wrank + wsize - 1) % wsize;
        MPI_Irecv(&got, 1, MPI_INT, left, 3, c, &rr);
        MPI_Isend(&val, 1, MPI_INT, right, 3, c, &sr);
        MPI_Comm_free(&c);
        EXPECT(c == MPI_COMM_NULL);
        MPI_Comm_dup(MPI_COMM_WORLD, &c2);
        check_isolation(MPI_COMM_WORLD, c2, 88);
        MPI_Wait(&rr, MPI_STATUS_IGNORE);
        MPI_Wait(&sr, MPI_STATUS_IGNORE);
        EXPECT(got == 42 + left);
        MPI_Comm_free(&c2);
    }

    /* 12. Error classes under MPI_ERRORS_RETURN. */
    int cls, rc;
    MPI_Comm bad = MPI_COMM_WORLD;
    rc = MPI_Comm_free(&bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM && bad == MPI_COMM_WORLD);
    bad = MPI_COMM_SELF;
    rc = MPI_Comm_free(&bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Comm_dup((MPI_Comm)0x84001234, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Comm_dup(MPI_COMM_NULL, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    {
        MPI_Comm stale;
        MPI_Comm_dup(MPI_COMM_SELF, &stale);
        MPI_Comm keep = stale;
        MPI_Comm_free(&stale);
        rc = MPI_Comm_rank(keep, &rank); /* a freed handle is invalid, not another communicator */
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_COMM);
    }
    rc = MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ARG);
    rc = MPI_Comm_create(MPI_COMM_WORLD, (MPI_Group)0x88abcdef, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_GROUP);
    rc = MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &result);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Comm_remote_size(MPI_COMM_WORLD, &size);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    if (wsize > 1) {
        /* A rank of the parent is not a rank of the half. */
        int v = 0;
        MPI_Comm_size(half, &size);
        rc = MPI_Send(&v, 1, MPI_INT, size, 0, half);
        MPI_Error_class(rc, &cls);
        EXPECT(cls == MPI_ERR_RANK);
    }
    rc = MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL, &bad);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ARG);

    MPI_Comm_free(&idup);
    MPI_Comm_free(&node);
    if (gcomm != MPI_COMM_NULL)
        MPI_Comm_free(&gcomm);
    if (other != MPI_COMM_NULL)
        MPI_Comm_free(&other);
    if (ecomm != MPI_COMM_NULL)
        MPI_Comm_free(&ecomm);
    MPI_Group_free(&evens);
    MPI_Group_free(&wgroup);
    MPI_Comm_free(&rev);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    EXPECT(dup == MPI_COMM_NULL);

    if (failures == 0)
        printf("rank %d: ok\n", wrank);
    MPI_Finalize();
    return failures != 0;
}
