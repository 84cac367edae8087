/* Persistent collectives (MPI_Barrier_init ... MPI_Exscan_init): each made once and started many times
 * with new buffer contents, completed by MPI_Wait, MPI_Test or MPI_Waitall, checked against a reference
 * computed locally; all of them started together by MPI_Startall, mixed with blocking and nonblocking
 * collectives on the same communicator; datatypes and operations freed while their requests live;
 * MPI_Request_free, MPI_Request_get_status, MPI_Cancel on them; and the argument errors. Any number of
 * ranks; each check prints what failed and the program exits non-zero. */
#include "axon_test.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

#define N 7       /* elements per rank in the uniform cases */
#define ITERS 6   /* starts of each request */
#define MAXC 3    /* the most elements a rank has in the v cases */

/* What rank r contributes at index i in round it. */
static int v(int r, int i, int it) { return r * 1000 + i + it * 100000; }
/* The sum over ranks lo..hi-1 of v(r, i, it). */
static int vsum(int lo, int hi, int i, int it)
{
    int s = 0;
    for (int r = lo; r < hi; r++)
        s += v(r, i, it);
    return s;
}
/* A rank's count in the v cases: 1..3, and 0 for some pairs in alltoallv. */
static int vcount(int r) { return r % MAXC + 1; }
static int pair_count(int a, int b) { return (a + b) % MAXC; }

static void fill(int *buf, int n, int value)
{
    for (int i = 0; i < n; i++)
        buf[i] = value;
}

/* A commutative user operation (max), freed right after the request that uses it is made. */
static void user_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        if (((int *)in)[i] > ((int *)inout)[i])
            ((int *)inout)[i] = ((int *)in)[i];
}

/* ---- the cases ------------------------------------------------------------------------------------ */

enum phase { INIT, FILL, CHECK_RESULT, FREE };

struct pcase {
    const char *name;
    void (*run)(struct pcase *pc, enum phase ph, int it);
    MPI_Comm comm;
    MPI_Request req;
    int *s, *r;
    int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Datatype *stypes, *rtypes;
    int root;
};

static int *ints(int n) { return calloc((size_t)(n > 0 ? n : 1), sizeof(int)); }

static void case_barrier(struct pcase *pc, enum phase ph, int it)
{
    (void)it;
    if (ph == INIT)
        MPI_Barrier_init(pc->comm, MPI_INFO_NULL, &pc->req);
}

static void case_bcast(struct pcase *pc, enum phase ph, int it)
{
    int root = size - 1;
    switch (ph) {
    case INIT:
        pc->r = ints(N);
        MPI_Bcast_init(pc->r, N, MPI_INT, root, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N; i++)
            pc->r[i] = rank == root ? v(root, i, it) : -1;
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N; i++)
            CHECK(pc->r[i] == v(root, i, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

static void case_reduce(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N), pc->r = ints(N);
        MPI_Reduce_init(pc->s, pc->r, N, MPI_INT, MPI_SUM, 0, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N; i++)
            pc->s[i] = v(rank, i, it), pc->r[i] = -1;
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N; i++) {
            int want = rank == 0 ? vsum(0, size, i, it) : -1;
            CHECK(pc->r[i] == want, "%s round %d: [%d] = %d, expected %d", pc->name, it, i, pc->r[i], want);
        }
        break;
    case FREE:
        break;
    }
}

/* In place, with a user operation freed at once. */
static void case_allreduce(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT: {
        MPI_Op op;
        MPI_Op_create(user_max, 1, &op);
        pc->r = ints(N);
        MPI_Allreduce_init(MPI_IN_PLACE, pc->r, N, MPI_INT, op, pc->comm, MPI_INFO_NULL, &pc->req);
        MPI_Op_free(&op);
        break;
    }
    case FILL:
        for (int i = 0; i < N; i++)
            pc->r[i] = v(rank, i, it);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N; i++)
            CHECK(pc->r[i] == v(size - 1, i, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

static void case_gather(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N), pc->r = ints(N * size);
        MPI_Gather_init(pc->s, N, MPI_INT, pc->r, N, MPI_INT, 0, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, N * size, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N * size; i++) {
            int want = rank == 0 ? v(i / N, i % N, it) : -1;
            CHECK(pc->r[i] == want, "%s round %d: [%d] = %d, expected %d", pc->name, it, i, pc->r[i], want);
        }
        break;
    case FREE:
        break;
    }
}

/* Blocks in reverse rank order with gaps, at a root in the middle. */
static void case_gatherv(struct pcase *pc, enum phase ph, int it)
{
    int root = size / 2;
    switch (ph) {
    case INIT:
        pc->s = ints(MAXC), pc->r = ints((MAXC + 1) * size);
        pc->rcounts = ints(size), pc->rdispls = ints(size);
        for (int q = 0; q < size; q++)
            pc->rcounts[q] = vcount(q), pc->rdispls[q] = (size - 1 - q) * (MAXC + 1);
        MPI_Gatherv_init(pc->s, vcount(rank), MPI_INT, pc->r, pc->rcounts, pc->rdispls, MPI_INT, root, pc->comm,
                         MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < MAXC; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, (MAXC + 1) * size, -1);
        break;
    case CHECK_RESULT:
        for (int q = 0; q < size; q++)
            for (int i = 0; i <= MAXC; i++) {
                int got = pc->r[pc->rdispls[q] + i];
                int want = rank == root && i < vcount(q) ? v(q, i, it) : -1;
                CHECK(got == want, "%s round %d: rank %d's [%d] = %d, expected %d", pc->name, it, q, i, got, want);
            }
        break;
    case FREE:
        break;
    }
}

static void case_scatter(struct pcase *pc, enum phase ph, int it)
{
    int root = 1 % size;
    switch (ph) {
    case INIT:
        pc->s = ints(N * size), pc->r = ints(N);
        MPI_Scatter_init(pc->s, N, MPI_INT, pc->r, N, MPI_INT, root, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N * size; i++)
            pc->s[i] = rank == root ? v(root, i, it) : -2;
        fill(pc->r, N, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N; i++)
            CHECK(pc->r[i] == v(root, rank * N + i, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

static void case_scatterv(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints((MAXC + 1) * size), pc->r = ints(MAXC + 1);
        pc->scounts = ints(size), pc->sdispls = ints(size);
        for (int q = 0; q < size; q++)
            pc->scounts[q] = vcount(q), pc->sdispls[q] = (size - 1 - q) * (MAXC + 1);
        MPI_Scatterv_init(pc->s, pc->scounts, pc->sdispls, MPI_INT, pc->r, vcount(rank), MPI_INT, 0, pc->comm,
                          MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < (MAXC + 1) * size; i++)
            pc->s[i] = rank == 0 ? v(0, i, it) : -2;
        fill(pc->r, MAXC + 1, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i <= MAXC; i++) {
            int want = i < vcount(rank) ? v(0, (size - 1 - rank) * (MAXC + 1) + i, it) : -1;
            CHECK(pc->r[i] == want, "%s round %d: [%d] = %d, expected %d", pc->name, it, i, pc->r[i], want);
        }
        break;
    case FREE:
        break;
    }
}

static void case_allgather(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N), pc->r = ints(N * size);
        MPI_Allgather_init(pc->s, N, MPI_INT, pc->r, N, MPI_INT, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, N * size, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N * size; i++)
            CHECK(pc->r[i] == v(i / N, i % N, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

/* In place, blocks in reverse order. */
static void case_allgatherv(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->r = ints((MAXC + 1) * size);
        pc->rcounts = ints(size), pc->rdispls = ints(size);
        for (int q = 0; q < size; q++)
            pc->rcounts[q] = vcount(q), pc->rdispls[q] = (size - 1 - q) * (MAXC + 1);
        MPI_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, pc->r, pc->rcounts, pc->rdispls, MPI_INT, pc->comm,
                            MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        fill(pc->r, (MAXC + 1) * size, -1);
        for (int i = 0; i < vcount(rank); i++)
            pc->r[pc->rdispls[rank] + i] = v(rank, i, it);
        break;
    case CHECK_RESULT:
        for (int q = 0; q < size; q++)
            for (int i = 0; i <= MAXC; i++) {
                int got = pc->r[pc->rdispls[q] + i], want = i < vcount(q) ? v(q, i, it) : -1;
                CHECK(got == want, "%s round %d: rank %d's [%d] = %d, expected %d", pc->name, it, q, i, got, want);
            }
        break;
    case FREE:
        break;
    }
}

static void case_alltoall(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N * size), pc->r = ints(N * size);
        MPI_Alltoall_init(pc->s, N, MPI_INT, pc->r, N, MPI_INT, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N * size; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, N * size, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N * size; i++)
            CHECK(pc->r[i] == v(i / N, rank * N + i % N, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

/* Counts that depend on the pair (some 0), blocks at fixed strides. */
static void case_alltoallv(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(MAXC * size), pc->r = ints(MAXC * size);
        pc->scounts = ints(size), pc->sdispls = ints(size), pc->rcounts = ints(size), pc->rdispls = ints(size);
        for (int q = 0; q < size; q++) {
            pc->scounts[q] = pc->rcounts[q] = pair_count(rank, q);
            pc->sdispls[q] = pc->rdispls[q] = q * MAXC;
        }
        MPI_Alltoallv_init(pc->s, pc->scounts, pc->sdispls, MPI_INT, pc->r, pc->rcounts, pc->rdispls, MPI_INT,
                           pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < MAXC * size; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, MAXC * size, -1);
        break;
    case CHECK_RESULT:
        for (int q = 0; q < size; q++)
            for (int i = 0; i < MAXC; i++) {
                int got = pc->r[q * MAXC + i], want = i < pair_count(rank, q) ? v(q, rank * MAXC + i, it) : -1;
                CHECK(got == want, "%s round %d: from %d [%d] = %d, expected %d", pc->name, it, q, i, got, want);
            }
        break;
    case FREE:
        break;
    }
}

/* Odd ranks' blocks arrive spread out (a resized int of extent 2 ints), through a type freed at once. */
static void case_alltoallw(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT: {
        MPI_Datatype spread;
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &spread);
        MPI_Type_commit(&spread);
        pc->s = ints(MAXC * size), pc->r = ints(2 * MAXC * size);
        pc->scounts = ints(size), pc->sdispls = ints(size), pc->rcounts = ints(size), pc->rdispls = ints(size);
        pc->stypes = malloc(sizeof(MPI_Datatype) * (size_t)size);
        pc->rtypes = malloc(sizeof(MPI_Datatype) * (size_t)size);
        for (int q = 0; q < size; q++) {
            pc->scounts[q] = pc->rcounts[q] = pair_count(rank, q);
            pc->sdispls[q] = q * MAXC * (int)sizeof(int);
            pc->rdispls[q] = q * 2 * MAXC * (int)sizeof(int);
            pc->stypes[q] = MPI_INT;
            pc->rtypes[q] = q % 2 ? spread : MPI_INT;
        }
        MPI_Alltoallw_init(pc->s, pc->scounts, pc->sdispls, pc->stypes, pc->r, pc->rcounts, pc->rdispls, pc->rtypes,
                           pc->comm, MPI_INFO_NULL, &pc->req);
        MPI_Type_free(&spread);
        break;
    }
    case FILL:
        for (int i = 0; i < MAXC * size; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, 2 * MAXC * size, -1);
        break;
    case CHECK_RESULT:
        for (int q = 0; q < size; q++)
            for (int i = 0; i < 2 * MAXC; i++) {
                int got = pc->r[q * 2 * MAXC + i], k = q % 2 ? i / 2 : i;
                int want = (q % 2 == 0 || i % 2 == 0) && k < pair_count(rank, q) ? v(q, rank * MAXC + k, it) : -1;
                CHECK(got == want, "%s round %d: from %d [%d] = %d, expected %d", pc->name, it, q, i, got, want);
            }
        break;
    case FREE:
        break;
    }
}

static void case_reduce_scatter_block(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N * size), pc->r = ints(N);
        MPI_Reduce_scatter_block_init(pc->s, pc->r, N, MPI_INT, MPI_SUM, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N * size; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, N, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N; i++)
            CHECK(pc->r[i] == vsum(0, size, rank * N + i, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

static void case_reduce_scatter(struct pcase *pc, enum phase ph, int it)
{
    int total = 0, mine = 0;
    for (int q = 0; q < size; q++) {
        if (q == rank)
            mine = total;
        total += vcount(q);
    }
    switch (ph) {
    case INIT:
        pc->s = ints(total), pc->r = ints(MAXC);
        pc->rcounts = ints(size);
        for (int q = 0; q < size; q++)
            pc->rcounts[q] = vcount(q);
        MPI_Reduce_scatter_init(pc->s, pc->r, pc->rcounts, MPI_INT, MPI_SUM, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < total; i++)
            pc->s[i] = v(rank, i, it);
        fill(pc->r, MAXC, -1);
        break;
    case CHECK_RESULT:
        for (int i = 0; i < MAXC; i++) {
            int want = i < vcount(rank) ? vsum(0, size, mine + i, it) : -1;
            CHECK(pc->r[i] == want, "%s round %d: [%d] = %d, expected %d", pc->name, it, i, pc->r[i], want);
        }
        break;
    case FREE:
        break;
    }
}

static void case_scan(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N), pc->r = ints(N);
        MPI_Scan_init(pc->s, pc->r, N, MPI_INT, MPI_SUM, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N; i++)
            pc->s[i] = v(rank, i, it), pc->r[i] = -1;
        break;
    case CHECK_RESULT:
        for (int i = 0; i < N; i++)
            CHECK(pc->r[i] == vsum(0, rank + 1, i, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

static void case_exscan(struct pcase *pc, enum phase ph, int it)
{
    switch (ph) {
    case INIT:
        pc->s = ints(N), pc->r = ints(N);
        MPI_Exscan_init(pc->s, pc->r, N, MPI_INT, MPI_SUM, pc->comm, MPI_INFO_NULL, &pc->req);
        break;
    case FILL:
        for (int i = 0; i < N; i++)
            pc->s[i] = v(rank, i, it), pc->r[i] = -1;
        break;
    case CHECK_RESULT:
        for (int i = 0; rank > 0 && i < N; i++)
            CHECK(pc->r[i] == vsum(0, rank, i, it), "%s round %d: [%d] = %d", pc->name, it, i, pc->r[i]);
        break;
    case FREE:
        break;
    }
}

#define CASE(name) {#name, case_##name, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
static const struct pcase all_cases[] = {
    CASE(barrier),   CASE(bcast),     CASE(reduce),        CASE(allreduce), CASE(gather),
    CASE(gatherv),   CASE(scatter),   CASE(scatterv),      CASE(allgather), CASE(allgatherv),
    CASE(alltoall),  CASE(alltoallv), CASE(alltoallw),     CASE(reduce_scatter_block),
    CASE(reduce_scatter), CASE(scan), CASE(exscan),
};
#define NCASES (int)(sizeof(all_cases) / sizeof(all_cases[0]))

static void case_free(struct pcase *pc)
{
    pc->run(pc, FREE, 0);
    if (pc->req != MPI_REQUEST_NULL)
        MPI_Request_free(&pc->req);
    CHECK(pc->req == MPI_REQUEST_NULL, "%s: MPI_Request_free left the handle", pc->name);
    free(pc->s), free(pc->r), free(pc->scounts), free(pc->sdispls), free(pc->rcounts), free(pc->rdispls);
    free(pc->stypes), free(pc->rtypes);
}

static void cases_make(struct pcase *cases, MPI_Comm comm)
{
    for (int k = 0; k < NCASES; k++) {
        cases[k] = all_cases[k];
        cases[k].comm = comm;
        cases[k].req = MPI_REQUEST_NULL;
        cases[k].run(&cases[k], INIT, 0);
        CHECK(cases[k].req != MPI_REQUEST_NULL, "%s: no request", cases[k].name);
    }
}

/* ---- started one at a time ------------------------------------------------------------------------ */

static void test_one_by_one(MPI_Comm comm)
{
    struct pcase cases[NCASES];
    cases_make(cases, comm);
    for (int k = 0; k < NCASES; k++) {
        struct pcase *pc = &cases[k];
        /* Inactive before the first start: completes at once with an empty status. */
        int flag = 0;
        MPI_Status st;
        MPI_Test(&pc->req, &flag, &st);
        CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG, "%s: inactive Test", pc->name);
        for (int it = 0; it < ITERS; it++) {
            pc->run(pc, FILL, it);
            MPI_Start(&pc->req);
            switch (it % 3) {
            case 0:
                MPI_Wait(&pc->req, MPI_STATUS_IGNORE);
                break;
            case 1:
                for (flag = 0; !flag;)
                    MPI_Test(&pc->req, &flag, MPI_STATUS_IGNORE);
                break;
            case 2:
                for (flag = 0; !flag;)
                    MPI_Request_get_status(pc->req, &flag, MPI_STATUS_IGNORE);
                MPI_Waitall(1, &pc->req, MPI_STATUSES_IGNORE);
                break;
            }
            CHECK(pc->req != MPI_REQUEST_NULL, "%s: the completion freed the persistent request", pc->name);
            pc->run(pc, CHECK_RESULT, it);
        }
        /* Waiting on it again: inactive, at once. */
        MPI_Wait(&pc->req, MPI_STATUS_IGNORE);
    }
    for (int k = 0; k < NCASES; k++)
        case_free(&cases[k]);
}

/* ---- all together, among other collectives -------------------------------------------------------- */

static void test_startall(MPI_Comm comm)
{
    struct pcase cases[NCASES];
    MPI_Request reqs[NCASES];
    cases_make(cases, comm);
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < NCASES; k++) {
            cases[k].run(&cases[k], FILL, it);
            reqs[k] = cases[k].req;
        }
        /* Collectives before, among and after the persistent ones all take their turn on comm. */
        int token = rank + it, sum = 0;
        MPI_Request ib;
        MPI_Ibcast(&token, 1, MPI_INT, 0, comm, &ib);
        MPI_Startall(NCASES, reqs);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        CHECK(sum == size * (size - 1) / 2, "allreduce among persistent collectives: %d", sum);
        if (it % 2)
            MPI_Waitall(NCASES, reqs, MPI_STATUSES_IGNORE);
        else
            for (int done = 0; done < NCASES; done++) {
                int index;
                MPI_Waitany(NCASES, reqs, &index, MPI_STATUS_IGNORE);
                CHECK(index != MPI_UNDEFINED, "Waitany found nothing active");
            }
        MPI_Wait(&ib, MPI_STATUS_IGNORE);
        CHECK(token == it, "the bcast among persistent collectives gave %d", token);
        for (int k = 0; k < NCASES; k++) {
            CHECK(reqs[k] == cases[k].req, "%s: the handle changed", cases[k].name);
            cases[k].run(&cases[k], CHECK_RESULT, it);
        }
    }
    for (int k = 0; k < NCASES; k++)
        case_free(&cases[k]);
}

/* ---- lifetime and errors -------------------------------------------------------------------------- */

static int err_class(int code)
{
    int cls = code;
    MPI_Error_class(code, &cls);
    return cls;
}

static void test_lifetime(MPI_Comm comm)
{
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* Freed before ever starting. */
    MPI_Request r;
    int buf[N];
    MPI_Bcast_init(buf, N, MPI_INT, 0, comm, MPI_INFO_NULL, &r);
    CHECK(MPI_Request_free(&r) == MPI_SUCCESS && r == MPI_REQUEST_NULL, "free of a never started request");

    /* Active: neither freed, nor started again, nor cancelled; inactive: cancel does nothing. */
    MPI_Barrier_init(comm, MPI_INFO_NULL, &r);
    CHECK(MPI_Cancel(&r) == MPI_SUCCESS, "MPI_Cancel of an inactive request");
    MPI_Start(&r);
    CHECK(err_class(MPI_Start(&r)) == MPI_ERR_REQUEST, "MPI_Start of an active request");
    CHECK(err_class(MPI_Request_free(&r)) == MPI_ERR_REQUEST, "MPI_Request_free of an active request");
    CHECK(r != MPI_REQUEST_NULL, "the refused MPI_Request_free cleared the handle");
    CHECK(MPI_Cancel(&r) != MPI_SUCCESS, "MPI_Cancel of an active persistent collective");
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS, "wait after the refusals");
    CHECK(MPI_Request_free(&r) == MPI_SUCCESS, "free after completion");

    /* The communicator freed while the request lives: the request still runs. */
    MPI_Comm dup;
    MPI_Comm_dup(comm, &dup);
    MPI_Allreduce_init(MPI_IN_PLACE, buf, N, MPI_INT, MPI_SUM, dup, MPI_INFO_NULL, &r);
    MPI_Comm_free(&dup);
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < N; i++)
            buf[i] = v(rank, i, it);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            CHECK(buf[i] == vsum(0, size, i, it), "allreduce on a freed communicator: [%d] = %d", i, buf[i]);
    }
    MPI_Request_free(&r);

    /* A persistent point-to-point request and a persistent collective in one MPI_Startall. */
    int token = -1, mine = rank;
    MPI_Request mix[3];
    MPI_Send_init(&mine, 1, MPI_INT, (rank + 1) % size, 7, comm, &mix[0]);
    MPI_Recv_init(&token, 1, MPI_INT, (rank + size - 1) % size, 7, comm, &mix[1]);
    MPI_Allreduce_init(MPI_IN_PLACE, buf, N, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &mix[2]);
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < N; i++)
            buf[i] = v(rank, i, it);
        MPI_Startall(3, mix);
        MPI_Waitall(3, mix, MPI_STATUSES_IGNORE);
        CHECK(token == (rank + size - 1) % size, "the persistent receive got %d", token);
        CHECK(buf[0] == vsum(0, size, 0, it), "the allreduce started with pt2pt gave %d", buf[0]);
    }
    for (int k = 0; k < 3; k++)
        MPI_Request_free(&mix[k]);

    /* A valid info object is accepted. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "axon_hint", "ignored");
    CHECK(MPI_Barrier_init(comm, info, &r) == MPI_SUCCESS, "barrier_init with an info object");
    MPI_Info_free(&info);
    MPI_Start(&r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_errors(MPI_Comm comm)
{
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int buf[4 * 8] = {0}, out[4 * 8], counts[8] = {0}, me;
    MPI_Comm_rank(comm, &me);
    MPI_Request r = MPI_REQUEST_NULL;
    CHECK(err_class(MPI_Bcast_init(buf, 1, MPI_INT, size, comm, MPI_INFO_NULL, &r)) == MPI_ERR_ROOT, "bad root");
    CHECK(r == MPI_REQUEST_NULL, "a refused _init set the request");
    CHECK(err_class(MPI_Bcast_init(buf, -1, MPI_INT, 0, comm, MPI_INFO_NULL, &r)) == MPI_ERR_COUNT, "negative count");
    CHECK(err_class(MPI_Bcast_init(buf, 1, MPI_DATATYPE_NULL, 0, comm, MPI_INFO_NULL, &r)) == MPI_ERR_TYPE,
          "null datatype");
    CHECK(err_class(MPI_Bcast_init(buf, 1, MPI_INT, 0, comm, MPI_INFO_NULL, NULL)) == MPI_ERR_ARG, "null request");
    CHECK(err_class(MPI_Bcast_init(buf, 1, MPI_INT, 0, comm, (MPI_Info)0x1234, &r)) == MPI_ERR_INFO, "bad info");
    CHECK(err_class(MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &r)) == MPI_ERR_COMM, "null communicator");
    CHECK(err_class(MPI_Allreduce_init(buf, out, 1, MPI_INT, MPI_OP_NULL, comm, MPI_INFO_NULL, &r)) == MPI_ERR_OP,
          "null op");
    CHECK(err_class(MPI_Allreduce_init(buf, buf, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r)) == MPI_ERR_BUFFER,
          "aliased buffers");
    CHECK(err_class(MPI_Gatherv_init(buf, 1, MPI_INT, out, counts, NULL, MPI_INT, me, comm, MPI_INFO_NULL, &r)) ==
              MPI_ERR_ARG,
          "gatherv_init without displs at the root");
    CHECK(err_class(MPI_Alltoallv_init(buf, NULL, NULL, MPI_INT, out, counts, counts, MPI_INT, comm, MPI_INFO_NULL,
                                       &r)) == MPI_ERR_ARG,
          "alltoallv_init without counts");
    CHECK(err_class(MPI_Reduce_scatter_init(buf, out, NULL, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &r)) == MPI_ERR_ARG,
          "reduce_scatter_init without counts");
    CHECK(r == MPI_REQUEST_NULL, "a refused _init set the request");
    /* MPI_Start of things that are not inactive persistent requests. */
    MPI_Request nb;
    MPI_Ibarrier(comm, &nb);
    CHECK(err_class(MPI_Start(&nb)) == MPI_ERR_REQUEST, "MPI_Start of a nonblocking collective");
    MPI_Wait(&nb, MPI_STATUS_IGNORE);
    /* The communicator still works. */
    MPI_Allreduce(&rank, out, 1, MPI_INT, MPI_SUM, comm);
    CHECK(out[0] == size * (size - 1) / 2, "allreduce after errors is %d", out[0]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* MPI 4 matches persistent collectives by the order of their _init calls: the members may start them
 * in different orders (here rank 0 the other way round), again and again. */
static void test_start_order(MPI_Comm comm)
{
    int a = -1, sum = 0, one = 1;
    MPI_Request req[3];
    MPI_Bcast_init(&a, 1, MPI_INT, 0, comm, MPI_INFO_NULL, &req[0]);
    MPI_Barrier_init(comm, MPI_INFO_NULL, &req[1]);
    MPI_Allreduce_init(&one, &sum, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req[2]);
    for (int it = 0; it < 3; it++) {
        a = rank == 0 ? 42 + it : -1;
        sum = 0;
        for (int k = 0; k < 3; k++)
            MPI_Start(&req[rank == 0 ? 2 - k : k]);
        MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
        if (a != 42 + it || sum != size) {
            printf("rank %d FAILED: persistent collectives started out of order: bcast %d, allreduce %d\n", rank, a,
                   sum);
            failures++;
        }
    }
    for (int k = 0; k < 3; k++)
        MPI_Request_free(&req[k]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* The world, and a communicator whose ranks run the other way. */
    MPI_Comm reversed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    test_one_by_one(MPI_COMM_WORLD);
    int wrank = rank;
    MPI_Comm_rank(reversed, &rank);
    test_one_by_one(reversed);
    test_startall(reversed);
    rank = wrank;
    test_startall(MPI_COMM_WORLD);
    test_lifetime(MPI_COMM_WORLD);
    test_errors(reversed);
    test_start_order(MPI_COMM_WORLD);
    MPI_Comm_free(&reversed);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf(total ? "coll_persist: %d failures\n" : "coll_persist: ok\n", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
