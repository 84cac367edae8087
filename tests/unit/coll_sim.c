/* The schedule simulator (tests/unit/coll_sim.h): the fake transport, its matching, and the loop that
 * drives the schedule engine's progress hook until every rank's schedule has ended or none can move.
 * Each simulated rank has a fake engine context of its own (struct axon_pt2pt_comm), so the transport
 * tells senders apart by the pc argument the schedule passes. */
#include "tests/unit/coll_sim.h"

#include "pt2pt/axon_pt2pt_dloop.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct coll_sim_msg {
    bool is_send;
    int rank, peer, tag;   /* the rank that posted it, the other side */
    const void *sbuf;      /* send */
    void *rbuf;            /* receive */
    int64_t count;
    struct axon_dtype_layout dt;
    char *snap;            /* send: the packed data when posted */
    int64_t bytes;         /* send: packed size; receive: capacity */
    bool matched, released;
    int err;
    struct coll_sim_msg *next_pending; /* unmatched, in posting order */
    struct coll_sim_msg *next_all;
};

static struct {
    int n;
    struct axon_pt2pt_comm *pcs;
    struct coll_sim_msg *pending, *all;
    struct coll_sim_report *rep;
    bool failed;
    int *ended, *errs;
    int tag;
} sim;

struct axon_pt2pt_comm *coll_sim_comm(int r)
{
    return &sim.pcs[r];
}

int coll_sim_tag(void)
{
    return sim.tag;
}

static void coll_sim_fail(const char *fmt, ...)
{
    struct coll_sim_report *rep = sim.rep;
    size_t len = strlen(rep->why);
    if (len + 2 >= sizeof(rep->why))
        return;
    if (len > 0)
        rep->why[len++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rep->why + len, sizeof(rep->why) - len, fmt, ap);
    va_end(ap);
    sim.failed = true;
}

/* Packs count elements of dt at buf into out (count * dt->size bytes). */
static void coll_sim_pack(const void *buf, int64_t count, const struct axon_dtype_layout *dt, char *out)
{
    int64_t bytes = count * dt->size;
    if (bytes == 0)
        return;
    if (dt->contig) {
        memcpy(out, (const char *)buf + dt->true_lb, (size_t)bytes);
        return;
    }
    struct axon_dloop_cursor cur;
    if (axon_dloop_cursor_init(&cur, dt->loop, count, dt->extent) != 0)
        abort();
    axon_dloop_pack(&cur, buf, out, bytes);
    axon_dloop_cursor_fini(&cur);
}

static void coll_sim_unpack(const char *in, int64_t bytes, void *buf, int64_t count, const struct axon_dtype_layout *dt)
{
    if (bytes == 0)
        return;
    if (dt->contig) {
        memcpy((char *)buf + dt->true_lb, in, (size_t)bytes);
        return;
    }
    struct axon_dloop_cursor cur;
    if (axon_dloop_cursor_init(&cur, dt->loop, count, dt->extent) != 0)
        abort();
    axon_dloop_unpack(&cur, buf, in, bytes);
    axon_dloop_cursor_fini(&cur);
}

/* Delivers send sm into receive rm. */
static void coll_sim_deliver(struct coll_sim_msg *sm, struct coll_sim_msg *rm)
{
    char *now = malloc((size_t)(sm->bytes ? sm->bytes : 1));
    if (!now)
        abort();
    coll_sim_pack(sm->sbuf, sm->count, &sm->dt, now);
    if (memcmp(now, sm->snap, (size_t)sm->bytes) != 0)
        coll_sim_fail("rank %d's send of %lld bytes to rank %d changed while in flight", sm->rank,
                      (long long)sm->bytes, sm->peer);
    free(now);
    if (sm->bytes != rm->bytes) {
        coll_sim_fail("rank %d sent %lld bytes to rank %d, which posted a receive of %lld", sm->rank,
                      (long long)sm->bytes, rm->rank, (long long)rm->bytes);
        if (sm->bytes > rm->bytes)
            rm->err = MPI_ERR_TRUNCATE;
    }
    if (rm->err == MPI_SUCCESS)
        coll_sim_unpack(sm->snap, sm->bytes, rm->rbuf, rm->count, &rm->dt);
    sm->matched = rm->matched = true;
    sim.rep->messages++;
    sim.rep->bytes += sm->bytes;
    if (sm->rank < COLL_SIM_RANKS_COUNTED) {
        sim.rep->rank_messages[sm->rank]++;
        sim.rep->rank_bytes[sm->rank] += sm->bytes;
    }
}

static int coll_sim_rank_of(struct axon_pt2pt_comm *pc)
{
    if (pc < sim.pcs || pc >= sim.pcs + sim.n) {
        coll_sim_fail("a schedule posted on an engine context the simulator did not make");
        return -1;
    }
    return (int)(pc - sim.pcs);
}

/* Posts m: matches it with the first unmatched message of the other direction, or queues it. */
static int coll_sim_post(struct coll_sim_msg *m, void **handle)
{
    if (m->rank < 0)
        return MPI_ERR_INTERN;
    if (m->peer < 0 || m->peer >= sim.n) {
        coll_sim_fail("rank %d names peer %d of %d ranks", m->rank, m->peer, sim.n);
        return MPI_ERR_RANK;
    }
    m->next_all = sim.all;
    sim.all = m;
    *handle = m;
    struct coll_sim_msg **p = &sim.pending;
    for (; *p; p = &(*p)->next_pending) {
        struct coll_sim_msg *o = *p;
        if (o->is_send != m->is_send && o->rank == m->peer && o->peer == m->rank && o->tag == m->tag) {
            *p = o->next_pending;
            if (m->is_send)
                coll_sim_deliver(m, o);
            else
                coll_sim_deliver(o, m);
            return MPI_SUCCESS;
        }
    }
    *p = m; /* p is the tail's link */
    return MPI_SUCCESS;
}

static int coll_sim_isend(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int peer, int tag,
                          struct axon_pt2pt_comm *pc, void **handle)
{
    struct coll_sim_msg *m = calloc(1, sizeof(*m));
    if (!m)
        return MPI_ERR_NO_MEM;
    m->is_send = true;
    m->rank = coll_sim_rank_of(pc);
    m->peer = peer;
    m->tag = tag;
    m->sbuf = buf;
    m->count = count;
    m->dt = *dt;
    m->bytes = count * dt->size;
    m->snap = malloc((size_t)(m->bytes ? m->bytes : 1));
    if (!m->snap) {
        free(m);
        return MPI_ERR_NO_MEM;
    }
    coll_sim_pack(buf, count, dt, m->snap);
    int rc = coll_sim_post(m, handle);
    if (rc != MPI_SUCCESS) {
        free(m->snap);
        free(m);
    }
    return rc;
}

static int coll_sim_irecv(void *buf, int64_t count, const struct axon_dtype_layout *dt, int peer, int tag,
                          struct axon_pt2pt_comm *pc, void **handle)
{
    struct coll_sim_msg *m = calloc(1, sizeof(*m));
    if (!m)
        return MPI_ERR_NO_MEM;
    m->rank = coll_sim_rank_of(pc);
    m->peer = peer;
    m->tag = tag;
    m->rbuf = buf;
    m->count = count;
    m->dt = *dt;
    m->bytes = count * dt->size;
    int rc = coll_sim_post(m, handle);
    if (rc != MPI_SUCCESS)
        free(m);
    return rc;
}

static bool coll_sim_done(void *handle, int *err)
{
    struct coll_sim_msg *m = handle;
    if (m->released)
        coll_sim_fail("rank %d polled a released message", m->rank);
    if (!m->matched)
        return false;
    *err = m->err;
    return true;
}

static void coll_sim_release(void *handle)
{
    struct coll_sim_msg *m = handle;
    if (m->released)
        coll_sim_fail("rank %d released a message twice", m->rank);
    m->released = true;
}

static const struct axon_coll_transport coll_sim_transport = {coll_sim_isend, coll_sim_irecv, coll_sim_done,
                                                              coll_sim_release};

static int coll_sim_on_end(void *arg, int err)
{
    int r = (int)(intptr_t)arg;
    sim.ended[r] = 1;
    sim.errs[r] = err;
    return err;
}

/* Says which messages nobody matched. */
static void coll_sim_report_stuck(void)
{
    int shown = 0;
    for (struct coll_sim_msg *m = sim.pending; m && shown < 16; m = m->next_pending, shown++) {
        if (m->is_send)
            coll_sim_fail("  rank %d waits to send %lld bytes to rank %d", m->rank, (long long)m->bytes, m->peer);
        else
            coll_sim_fail("  rank %d waits to receive %lld bytes from rank %d", m->rank, (long long)m->bytes,
                          m->peer);
    }
}

int coll_sim_run(int n, coll_sim_build_fn *build, void *arg, struct coll_sim_report *rep)
{
    static int next_tag;
    struct coll_sim_report local;
    if (!rep)
        rep = &local;
    memset(rep, 0, sizeof(*rep));
    memset(&sim, 0, sizeof(sim));
    sim.n = n;
    sim.rep = rep;
    sim.pcs = calloc((size_t)n, sizeof(*sim.pcs));
    sim.ended = calloc((size_t)n, sizeof(int));
    sim.errs = calloc((size_t)n, sizeof(int));
    struct axon_coll_sched **scheds = calloc((size_t)n, sizeof(*scheds));
    if (!sim.pcs || !sim.ended || !sim.errs || !scheds)
        abort();
    int tag = next_tag++ & 0xffff;
    sim.tag = tag;
    axon_coll_sched_set_transport(&coll_sim_transport);

    for (int r = 0; r < n; r++) {
        sim.pcs[r].rank = r;
        sim.pcs[r].size = n;
        if (axon_coll_sched_create(&sim.pcs[r], r, n, tag, &scheds[r]) != MPI_SUCCESS)
            abort();
        build(scheds[r], r, arg);
        axon_coll_sched_on_end(scheds[r], coll_sim_on_end, (void *)(intptr_t)r);
    }
    /* Started in rank order; each start already runs its schedule as far as it goes. */
    for (int r = 0; r < n; r++) {
        int rc = axon_coll_sched_start(scheds[r], NULL);
        if (rc != MPI_SUCCESS) {
            coll_sim_fail("rank %d's schedule did not start: error %d", r, rc);
            axon_coll_sched_discard(scheds[r]);
            sim.ended[r] = 1;
            sim.errs[r] = rc;
        }
    }
    for (;;) {
        int left = axon_coll_outstanding(); /* continuations too */
        for (int r = 0; r < n; r++)
            left += !sim.ended[r];
        if (left == 0)
            break;
        if (!axon_coll_progress()) {
            char who[256] = "";
            size_t len = 0;
            for (int r = 0; r < n && len + 8 < sizeof(who); r++)
                if (!sim.ended[r])
                    len += (size_t)snprintf(who + len, sizeof(who) - len, " %d", r);
            coll_sim_fail("deadlock on %d ranks: ranks%s cannot move", n, who);
            coll_sim_report_stuck();
            axon_coll_finalize(); /* drops the stuck schedules */
            break;
        }
    }
    for (int r = 0; r < n; r++)
        if (sim.ended[r] && sim.errs[r] != MPI_SUCCESS)
            coll_sim_fail("rank %d's schedule ended with error %d", r, sim.errs[r]);
    for (struct coll_sim_msg *m = sim.all; m;) {
        struct coll_sim_msg *next = m->next_all;
        if (!m->released && m->matched)
            coll_sim_fail("rank %d's message to or from rank %d was never released", m->rank, m->peer);
        free(m->snap);
        free(m);
        m = next;
    }
    axon_coll_sched_set_transport(NULL);
    free(scheds);
    free(sim.pcs);
    free(sim.ended);
    free(sim.errs);
    return sim.failed ? -1 : 0;
}
