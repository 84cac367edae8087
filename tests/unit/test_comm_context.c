/* Unit tests of the context-id agreement logic (mpi/comm/axon_mpi_comm_context.c): the bitmap, then a
 * simulation of several processes running several creations at once over overlapping memberships, in
 * random interleavings (as threads under MPI_THREAD_MULTIPLE would), checking that every operation ends,
 * that its members agree on its id, that no process gets one id twice, that freed ids come back, and
 * that running out is reported alike on every member. */
#include "mpi/comm/axon_mpi_comm.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(test_bitmap)
{
    uint32_t mask[4] = {0, 0, 0, 0};
    ck_assert_int_eq(axon_ctx_lowest(mask, 4), -1);
    mask[2] = 0x10;
    ck_assert_int_eq(axon_ctx_lowest(mask, 4), 68);
    mask[1] = 0x80000000u;
    ck_assert_int_eq(axon_ctx_lowest(mask, 4), 63);

    static struct axon_ctx_state s;
    axon_ctx_state_init(&s, 2);
    ck_assert_int_eq(axon_ctx_lowest(s.free_mask, AXON_CTX_WORDS), 2);
    axon_ctx_release(&s, 0);
    ck_assert_int_eq(axon_ctx_lowest(s.free_mask, AXON_CTX_WORDS), 0);
    axon_ctx_release(&s, AXON_CTX_IDS + 5); /* out of range: ignored */
}
END_TEST

/* One operation alone on one process (a team of one): it owns the bitmap and takes the lowest id. */
START_TEST(test_single)
{
    static struct axon_ctx_state s;
    axon_ctx_state_init(&s, 2);
    struct axon_ctx_waiter w;
    uint32_t contrib[AXON_CTX_CONTRIB_WORDS], id = 0;
    for (uint32_t expect = 2; expect < 10; expect++) {
        axon_ctx_register(&s, &w, 7, false);
        axon_ctx_contribute(&s, &w, contrib);
        ck_assert(w.own);
        ck_assert_int_eq(contrib[AXON_CTX_WORDS], 1);
        ck_assert_int_eq(axon_ctx_decide(&s, &w, contrib, &id), AXON_CTX_DONE);
        ck_assert_uint_eq(id, expect);
        axon_ctx_unregister(&s, &w);
        ck_assert(!s.mask_in_use);
    }
    axon_ctx_release(&s, 4);
    axon_ctx_register(&s, &w, 7, false);
    axon_ctx_contribute(&s, &w, contrib);
    ck_assert_int_eq(axon_ctx_decide(&s, &w, contrib, &id), AXON_CTX_DONE);
    ck_assert_uint_eq(id, 4); /* recycled */
    axon_ctx_unregister(&s, &w);
}
END_TEST

/* Communicators of one process take the top ids at once, even while a round is out with the bitmap, and
 * no agreement ever sees those ids: a round's contribution leaves them out, so what the round picks
 * cannot be one of them. Released, they are taken again; when they run out, none is taken. */
START_TEST(test_local_range)
{
    static struct axon_ctx_state s;
    axon_ctx_state_init(&s, 2);
    struct axon_ctx_waiter w;
    uint32_t contrib[AXON_CTX_CONTRIB_WORDS], id = 0, local = 0;
    axon_ctx_register(&s, &w, 7, false);
    axon_ctx_contribute(&s, &w, contrib);
    ck_assert(w.own && s.mask_in_use);
    for (uint32_t i = AXON_CTX_LOCAL_FIRST; i < AXON_CTX_IDS; i++)
        ck_assert(!(contrib[i / 32] >> (i % 32) & 1u));
    ck_assert(axon_ctx_take_local(&s, &local)); /* while the round is out */
    ck_assert_uint_eq(local, AXON_CTX_LOCAL_FIRST);
    ck_assert_int_eq(axon_ctx_decide(&s, &w, contrib, &id), AXON_CTX_DONE);
    ck_assert_uint_eq(id, 2);
    axon_ctx_unregister(&s, &w);
    for (uint32_t i = 1; i < AXON_CTX_LOCAL_IDS; i++) {
        ck_assert(axon_ctx_take_local(&s, &local));
        ck_assert_uint_eq(local, AXON_CTX_LOCAL_FIRST + i);
    }
    ck_assert(!axon_ctx_take_local(&s, &local));
    axon_ctx_release(&s, AXON_CTX_LOCAL_FIRST + 5);
    ck_assert(axon_ctx_take_local(&s, &local));
    ck_assert_uint_eq(local, AXON_CTX_LOCAL_FIRST + 5);
}
END_TEST

/* Priorities: only the highest-priority waiter of a process may own the bitmap; the others contribute
 * nothing and their round fails. */
START_TEST(test_priority)
{
    static struct axon_ctx_state s;
    axon_ctx_state_init(&s, 2);
    struct axon_ctx_waiter lo, hi;
    uint32_t c1[AXON_CTX_CONTRIB_WORDS], c2[AXON_CTX_CONTRIB_WORDS], id = 0;
    axon_ctx_register(&s, &lo, 50, false);
    axon_ctx_register(&s, &hi, 10, false);
    axon_ctx_contribute(&s, &lo, c1);
    ck_assert(!lo.own);
    ck_assert_int_eq(c1[AXON_CTX_WORDS], 0);
    ck_assert_int_eq(axon_ctx_decide(&s, &lo, c1, &id), AXON_CTX_RETRY);
    axon_ctx_contribute(&s, &hi, c2);
    ck_assert(hi.own);
    /* While hi's round is out, nobody else gets the bitmap. */
    axon_ctx_contribute(&s, &lo, c1);
    ck_assert(!lo.own);
    ck_assert_int_eq(axon_ctx_decide(&s, &hi, c2, &id), AXON_CTX_DONE);
    axon_ctx_unregister(&s, &hi);
    axon_ctx_decide(&s, &lo, c1, &id);
    axon_ctx_contribute(&s, &lo, c1);
    ck_assert(lo.own);
    axon_ctx_decide(&s, &lo, c1, &id);
    axon_ctx_unregister(&s, &lo);
}
END_TEST

/* ---- the simulation ------------------------------------------------------------------------------- */

enum { NPROC = 5, MAXOPS = 12 };

enum sim_step { SIM_REGISTER, SIM_CONTRIBUTE, SIM_WAIT, SIM_DONE };

/* A member's contribution of round r sits in slot r % 2: a member can be at most one round ahead of
 * another (a round ends only when every member has contributed to it), so the slot of the round being
 * read is never overwritten. */
struct sim_member {
    enum sim_step step;
    struct axon_ctx_waiter w;
    int round;
    bool contributed; /* to its current round */
    uint32_t contrib[2][AXON_CTX_CONTRIB_WORDS];
    enum axon_ctx_outcome outcome;
    uint32_t id;
};

struct sim_op {
    int nmembers;
    int members[NPROC];
    uint64_t priority;
    int after;       /* an op that must be done on a process before this one starts there (the same
                      * thread's earlier creation), or -1 */
    bool rendezvous; /* axon_ctx_register's: the first round owns nothing */
    struct sim_member m[NPROC];
};

static struct axon_ctx_state sim_state[NPROC];
static struct sim_op sim_ops[MAXOPS];

/* Whether round r's allreduce has finished for op (every member gave to it), and its result. */
static bool sim_round_result(const struct sim_op *op, int r, uint32_t *result)
{
    memset(result, 0xff, sizeof(uint32_t) * AXON_CTX_CONTRIB_WORDS);
    for (int i = 0; i < op->nmembers; i++) {
        const struct sim_member *q = &op->m[i];
        bool gave = q->round > r || (q->round == r && q->contributed);
        if (!gave)
            return false;
        for (int k = 0; k < AXON_CTX_CONTRIB_WORDS; k++)
            result[k] &= q->contrib[r % 2][k];
    }
    return true;
}

/* Whether op is done on process p (or p is not one of its members). */
static bool sim_done_on(const struct sim_op *op, int p)
{
    for (int i = 0; i < op->nmembers; i++)
        if (op->members[i] == p)
            return op->m[i].step == SIM_DONE;
    return true;
}

/* Runs ops in a random interleaving until all are done; returns the number of steps, or -1 when they
 * are not done after limit steps (no progress). */
static long sim_run_limited(int nops, unsigned seed, long limit)
{
    srand(seed);
    long steps = 0;
    uint32_t result[AXON_CTX_CONTRIB_WORDS];
    for (;;) {
        int pending = 0;
        for (int o = 0; o < nops; o++)
            for (int i = 0; i < sim_ops[o].nmembers; i++)
                pending += sim_ops[o].m[i].step != SIM_DONE;
        if (!pending)
            return steps;
        if (steps >= limit)
            return -1;
        struct sim_op *op = &sim_ops[rand() % nops];
        int i = rand() % op->nmembers;
        struct sim_member *m = &op->m[i];
        struct axon_ctx_state *s = &sim_state[op->members[i]];
        steps++;
        switch (m->step) {
        case SIM_REGISTER:
            if (op->after >= 0 && !sim_done_on(&sim_ops[op->after], op->members[i]))
                break; /* its thread is still in the earlier creation */
            axon_ctx_register(s, &m->w, op->priority, op->rendezvous);
            m->step = SIM_CONTRIBUTE;
            break;
        case SIM_CONTRIBUTE:
            axon_ctx_contribute(s, &m->w, m->contrib[m->round % 2]);
            m->contributed = true;
            m->step = SIM_WAIT;
            break;
        case SIM_WAIT:
            if (!sim_round_result(op, m->round, result))
                break; /* the allreduce has not finished: others still have to give */
            m->outcome = axon_ctx_decide(s, &m->w, result, &m->id);
            if (m->outcome == AXON_CTX_RETRY) {
                m->round++;
                m->contributed = false;
                m->step = SIM_CONTRIBUTE;
            } else {
                axon_ctx_unregister(s, &m->w);
                m->step = SIM_DONE;
                m->round++; /* it gave to every round it will be asked about */
                m->contributed = false;
            }
            break;
        case SIM_DONE:
            break;
        }
    }
}

static long sim_run(int nops, unsigned seed)
{
    long steps = sim_run_limited(nops, seed, 2000000);
    ck_assert_msg(steps >= 0, "no progress: livelock");
    return steps;
}

static void sim_op_init(int o, uint64_t priority, int nmembers, const int *members)
{
    memset(&sim_ops[o], 0, sizeof(sim_ops[o]));
    sim_ops[o].priority = priority;
    sim_ops[o].after = -1;
    sim_ops[o].nmembers = nmembers;
    memcpy(sim_ops[o].members, members, sizeof(int) * (size_t)nmembers);
}

/* Every op's members agree, and no process holds one id for two live ops. */
static void sim_check(int nops)
{
    for (int o = 0; o < nops; o++) {
        ck_assert_int_eq(sim_ops[o].m[0].outcome, AXON_CTX_DONE);
        for (int i = 1; i < sim_ops[o].nmembers; i++) {
            ck_assert_int_eq(sim_ops[o].m[i].outcome, AXON_CTX_DONE);
            ck_assert_uint_eq(sim_ops[o].m[i].id, sim_ops[o].m[0].id);
        }
    }
    for (int p = 0; p < NPROC; p++)
        for (int a = 0; a < nops; a++)
            for (int b = a + 1; b < nops; b++) {
                bool in_a = false, in_b = false;
                for (int i = 0; i < sim_ops[a].nmembers; i++)
                    in_a |= sim_ops[a].members[i] == p;
                for (int i = 0; i < sim_ops[b].nmembers; i++)
                    in_b |= sim_ops[b].members[i] == p;
                if (in_a && in_b)
                    ck_assert_uint_ne(sim_ops[a].m[0].id, sim_ops[b].m[0].id);
            }
}

START_TEST(test_concurrent_overlapping)
{
    /* Memberships that overlap in cycles (the case a fixed lock order would deadlock on). */
    static const int all[] = {0, 1, 2, 3, 4}, a[] = {0, 1}, b[] = {1, 2}, c[] = {2, 0}, d[] = {3, 4, 0},
                     e[] = {4, 3}, f[] = {1, 3};
    for (unsigned seed = 1; seed <= 300; seed++) {
        for (int p = 0; p < NPROC; p++)
            axon_ctx_state_init(&sim_state[p], 2);
        /* Some ids already taken here and there, so the ANDs differ from each bitmap. */
        sim_state[1].free_mask[0] &= ~(1u << 2);
        sim_state[3].free_mask[0] &= ~(1u << 3);
        sim_op_init(0, 40, 2, a);
        sim_op_init(1, 30, 2, b);
        sim_op_init(2, 20, 2, c);
        sim_op_init(3, 10, 3, d);
        sim_op_init(4, 15, 2, e);
        sim_op_init(5, 25, 2, f);
        sim_op_init(6, 5, 5, all);
        sim_run(7, seed);
        sim_check(7);
        /* The taken ids are not handed out. */
        for (int o = 0; o < 7; o++) {
            for (int i = 0; i < sim_ops[o].nmembers; i++) {
                if (sim_ops[o].members[i] == 1)
                    ck_assert_uint_ne(sim_ops[o].m[i].id, 2);
                if (sim_ops[o].members[i] == 3)
                    ck_assert_uint_ne(sim_ops[o].m[i].id, 3);
            }
        }
        /* Every process's bitmap lost exactly the ids of its operations. */
        for (int p = 0; p < NPROC; p++)
            ck_assert(!sim_state[p].mask_in_use && sim_state[p].waiters == NULL);
    }
}
END_TEST

/* Two threads on each of 4 processes, each creating over ranks 0-2 and then over all four with its own
 * tag (MPICH's threads/comm/comm_create_group_threads2; rank 3 only takes part in the second). Without
 * the rendezvous round, rank 3's second creation of the lower priority could own rank 3's bitmap while
 * ranks 0-2 were still in its first, behind the other thread's second, which waited for rank 3's bitmap:
 * no progress for ever. Returns whether every run finished. */
static bool sim_create_group_threads(bool rendezvous, unsigned seeds)
{
    static const int three[] = {0, 1, 2}, four[] = {0, 1, 2, 3};
    for (unsigned seed = 1; seed <= seeds; seed++) {
        for (int p = 0; p < NPROC; p++)
            axon_ctx_state_init(&sim_state[p], 2);
        for (int t = 0; t < 2; t++) {
            uint64_t priority = 10 + (uint64_t)t;
            sim_op_init(2 * t, priority, 3, three);
            sim_op_init(2 * t + 1, priority, 4, four);
            sim_ops[2 * t + 1].after = 2 * t;
            sim_ops[2 * t].rendezvous = sim_ops[2 * t + 1].rendezvous = rendezvous;
        }
        if (sim_run_limited(4, seed, 200000) < 0)
            return false;
        sim_check(4);
    }
    return true;
}

START_TEST(test_rendezvous)
{
    ck_assert_msg(sim_create_group_threads(true, 300), "a run made no progress with the rendezvous round");
    /* The simulation does find the deadlock without it (so the test above can fail). */
    ck_assert_msg(!sim_create_group_threads(false, 300), "no run got stuck without the rendezvous round");
}
END_TEST

START_TEST(test_recycling)
{
    static const int pair[] = {0, 1};
    for (int p = 0; p < NPROC; p++)
        axon_ctx_state_init(&sim_state[p], 2);
    /* 10,000 creations and frees: the same id comes back each time. */
    for (int round = 0; round < 10000; round++) {
        sim_op_init(0, 1, 2, pair);
        sim_run(1, (unsigned)round);
        sim_check(1);
        ck_assert_uint_eq(sim_ops[0].m[0].id, 2);
        axon_ctx_release(&sim_state[0], sim_ops[0].m[0].id);
        axon_ctx_release(&sim_state[1], sim_ops[0].m[1].id);
    }
}
END_TEST

START_TEST(test_exhaustion)
{
    static const int pair[] = {0, 1};
    for (int p = 0; p < NPROC; p++)
        axon_ctx_state_init(&sim_state[p], 2);
    /* Process 0 has only even ids left, process 1 only odd ones: no id is free on both. */
    for (uint32_t id = 2; id < AXON_CTX_IDS; id++) {
        if (id % 2)
            sim_state[0].free_mask[id / 32] &= ~(1u << (id % 32));
        else
            sim_state[1].free_mask[id / 32] &= ~(1u << (id % 32));
    }
    sim_op_init(0, 1, 2, pair);
    sim_run(1, 1);
    ck_assert_int_eq(sim_ops[0].m[0].outcome, AXON_CTX_EXHAUSTED);
    ck_assert_int_eq(sim_ops[0].m[1].outcome, AXON_CTX_EXHAUSTED);
    ck_assert(!sim_state[0].mask_in_use && !sim_state[1].mask_in_use);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("comm_context");
    TCase *tc = tcase_create("comm_context");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bitmap);
    tcase_add_test(tc, test_single);
    tcase_add_test(tc, test_local_range);
    tcase_add_test(tc, test_priority);
    tcase_add_test(tc, test_concurrent_overlapping);
    tcase_add_test(tc, test_rendezvous);
    tcase_add_test(tc, test_recycling);
    tcase_add_test(tc, test_exhaustion);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
