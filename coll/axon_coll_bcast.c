/* MPI_Bcast. Four algorithms over ranks relative to the root:
 * - binomial: each rank receives the whole message from its parent and sends it to its children;
 *   ceil(log2 n) steps of the whole message, the least latency for small messages.
 * - scatter_ring and scatter_doubling (van de Geijn): the message is cut into n segments of
 *   ceil(bytes/n) bytes (the last ones shorter or empty), a binomial scatter leaves segment i at rank i
 *   (and its subtree's segments on the way), then an allgather of the segments completes every copy: a
 *   ring, or recursive doubling when n is a power of two (a ring otherwise). About 2 x bytes cross each
 *   rank's link instead of log2(n) x bytes.
 * - chain: segments of AXON_COLL_BCAST_SEGMENT bytes flow down the chain root, root+1, ...; each rank
 *   forwards segment t while it receives segment t+1, so for long messages the time approaches one
 *   message's transfer plus n segments'.
 * Segments are byte ranges of the packed message, alike on every rank whatever its datatype; a rank
 * whose layout cannot reach them in place works on a packed copy (coll/axon_coll_move.h). Messages the
 * algorithm knows to be useless (empty segments, segments the receiver got in the scatter) are left
 * out on both sides alike. */
#include "coll/axon_coll_domain.h"
#include "coll/axon_coll_move.h"
#include "coll/axon_coll_hier.h"

enum {
    AXON_BCAST_BINOMIAL,
    AXON_BCAST_SCATTER_RING,
    AXON_BCAST_SCATTER_DOUBLING,
    AXON_BCAST_CHAIN,
    AXON_BCAST_HIER,
    AXON_BCAST_DOMAIN
};

/* The chain's segment: large enough that the per-message cost is small against its transfer, small
 * enough that the pipeline fills quickly. A power of two, so the segments of arrays of any basic type
 * stay whole elements (and in place). */
#define AXON_COLL_BCAST_SEGMENT ((int64_t)64 * 1024)

static const struct axon_coll_alg axon_coll_bcast_algs[] = {
    [AXON_BCAST_BINOMIAL] = {"binomial", "binomial tree from the root: ceil(log2 n) steps of the whole message", 0},
    [AXON_BCAST_SCATTER_RING] = {"scatter_ring", "binomial scatter of n segments, then a ring allgather of them", 0},
    [AXON_BCAST_SCATTER_DOUBLING] = {"scatter_doubling",
                                     "binomial scatter of n segments, then a recursive-doubling allgather "
                                     "(a ring when n is not a power of two)",
                                     0},
    [AXON_BCAST_CHAIN] = {"chain", "64 KiB segments pipelined down a chain of the ranks", 0},
    [AXON_BCAST_HIER] = {"hier", "among the node leaders (the root for its node), then in each node",
                         AXON_COLL_NEEDS_NODES},
    [AXON_BCAST_DOMAIN] = {"domain", "one NVLink domain: every rank copies the root's buffer through CUDA IPC",
                           AXON_COLL_NEEDS_DOMAIN},
};
/* Where every member's buffers are GPU memory on one NVLink domain (agreed before a blocking call above
 * AXON_COLL_GPU_AGREE_MIN, coll/axon_coll_agree.c): the domain algorithm at any size: every rank copies the
 * root's buffer once, in place (bench/results/2026-11-26-h200-domain-collectives.md). Across nodes with several ranks on some, hier at every size:
 * the message crosses the network once a node (bench/results/2026-11-29-cluster.md). */
static const struct axon_coll_rule axon_coll_bcast_rules[] = {
    {0, -1, AXON_BCAST_DOMAIN, AXON_COLL_NEEDS_DEVICE},
    {0, -1, AXON_BCAST_HIER, AXON_COLL_NEEDS_NODES},
    {0, 16384, AXON_BCAST_BINOMIAL, 0},
    {0, 1 << 20, AXON_BCAST_SCATTER_DOUBLING, 0},
    {0, -1, AXON_BCAST_SCATTER_RING, 0},
};
const struct axon_coll_desc axon_coll_bcast_desc = {
    "bcast", "bytes of the message", axon_coll_bcast_algs, 6, axon_coll_bcast_rules, 5};

static void axon_coll_bcast_binomial(struct axon_coll_sched *s, void *buf, int64_t count,
                                     const struct axon_dtype_layout *dt, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int rel = (r - root + n) % n, low = axon_coll_lowbit(rel, n);
    if (rel != 0) {
        axon_coll_sched_recv(s, buf, count, dt, (rel - low + root) % n);
        axon_coll_sched_round(s);
    }
    /* The largest subtree first: it has the longest way to go. */
    for (int mask = low >> 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            axon_coll_sched_send(s, buf, count, dt, (rel + mask + root) % n);
    axon_coll_sched_round(s);
}

/* ---- scatter + allgather ------------------------------------------------------------------------ */

struct axon_coll_bcast_segs {
    struct axon_coll_msg msg;
    int64_t chunk; /* bytes of a segment; the last ones are shorter or empty */
    int n, rel, root;
};

/* Bytes [from, to) of segments lo .. hi-1. */
static void axon_coll_bcast_range(const struct axon_coll_bcast_segs *g, int lo, int hi, int64_t *from, int64_t *to)
{
    int64_t a = (int64_t)lo * g->chunk, b = (int64_t)hi * g->chunk;
    *from = a < g->msg.bytes ? a : g->msg.bytes;
    *to = b < g->msg.bytes ? b : g->msg.bytes;
}

/* Segments lo .. hi-1 to or from relative rank peer; nothing when they are empty. */
static void axon_coll_bcast_move(struct axon_coll_sched *s, const struct axon_coll_bcast_segs *g, int lo, int hi,
                                 int peer, bool send)
{
    int64_t from, to;
    axon_coll_bcast_range(g, lo, hi, &from, &to);
    if (to == from)
        return;
    struct axon_coll_block part;
    axon_coll_msg_part(&g->msg, from, to - from, &part);
    int abs = (peer + g->root) % g->n;
    if (send)
        axon_coll_block_send(s, &part, abs);
    else
        axon_coll_block_recv(s, &part, abs);
}

/* Whether relative rank rel received segments lo .. hi-1 in the scatter (they are in its subtree). */
static bool axon_coll_bcast_holds(const struct axon_coll_bcast_segs *g, int rel, int lo, int hi)
{
    return rel <= lo && hi <= axon_coll_subtree_end(rel, g->n);
}

static void axon_coll_bcast_scatter(struct axon_coll_sched *s, const struct axon_coll_bcast_segs *g)
{
    int n = g->n, rel = g->rel, low = axon_coll_lowbit(rel, n);
    if (rel != 0) {
        axon_coll_bcast_move(s, g, rel, axon_coll_subtree_end(rel, n), rel - low, false);
        axon_coll_sched_round(s);
    }
    for (int mask = low >> 1; mask > 0; mask >>= 1)
        if (rel + mask < n)
            axon_coll_bcast_move(s, g, rel + mask, axon_coll_subtree_end(rel + mask, n), rel + mask, true);
    axon_coll_sched_round(s);
}

/* In step i a rank passes segment rel - i to its right and gets segment rel - i - 1 from its left,
 * unless the receiver got it in the scatter; then it forwards its own copy in the next step. */
static void axon_coll_bcast_ring(struct axon_coll_sched *s, const struct axon_coll_bcast_segs *g)
{
    int n = g->n, rel = g->rel, right = (rel + 1) % n, left = (rel - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int out = (rel - i + n) % n, in = (rel - i - 1 + n) % n;
        if (!axon_coll_bcast_holds(g, rel, in, in + 1))
            axon_coll_bcast_move(s, g, in, in + 1, left, false);
        if (!axon_coll_bcast_holds(g, right, out, out + 1))
            axon_coll_bcast_move(s, g, out, out + 1, right, true);
        axon_coll_sched_round(s);
    }
}

/* n a power of two: in the step of mask, a rank holds the mask segments of its aligned group and
 * swaps them with rank rel ^ mask for that rank's group. */
static void axon_coll_bcast_doubling(struct axon_coll_sched *s, const struct axon_coll_bcast_segs *g)
{
    int n = g->n, rel = g->rel;
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = rel ^ mask, mine = rel & ~(mask - 1), theirs = peer & ~(mask - 1);
        if (!axon_coll_bcast_holds(g, rel, theirs, theirs + mask))
            axon_coll_bcast_move(s, g, theirs, theirs + mask, peer, false);
        if (!axon_coll_bcast_holds(g, peer, mine, mine + mask))
            axon_coll_bcast_move(s, g, mine, mine + mask, peer, true);
        axon_coll_sched_round(s);
    }
}

static void axon_coll_bcast_scatter_allgather(struct axon_coll_sched *s, void *buf, int64_t count,
                                              const struct axon_dtype_layout *dt, int root, bool doubling)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    struct axon_coll_bcast_segs g = {.n = n, .rel = (r - root + n) % n, .root = root};
    int64_t bytes = count * dt->size;
    g.chunk = (bytes + n - 1) / n;
    axon_coll_msg_init(s, &g.msg, buf, count, dt, g.chunk, g.rel == 0);
    axon_coll_sched_round(s);
    axon_coll_bcast_scatter(s, &g);
    if (doubling && (n & (n - 1)) == 0)
        axon_coll_bcast_doubling(s, &g);
    else
        axon_coll_bcast_ring(s, &g);
    axon_coll_msg_finish(s, &g.msg, g.rel == 0);
}

/* ---- chain ---------------------------------------------------------------------------------------- */

static void axon_coll_bcast_chain(struct axon_coll_sched *s, void *buf, int64_t count,
                                  const struct axon_dtype_layout *dt, int root)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s), rel = (r - root + n) % n;
    const int64_t seg = AXON_COLL_BCAST_SEGMENT;
    struct axon_coll_msg msg;
    axon_coll_msg_init(s, &msg, buf, count, dt, seg, rel == 0);
    axon_coll_sched_round(s);
    int64_t nseg = (msg.bytes + seg - 1) / seg;
    int left = rel > 0 ? (r - 1 + n) % n : MPI_PROC_NULL, right = rel + 1 < n ? (r + 1) % n : MPI_PROC_NULL;
    /* The root sends segment t in step t; the others receive segment t and pass on segment t - 1. */
    int lag = rel == 0 ? 0 : 1;
    for (int64_t t = 0; t < nseg + lag; t++) {
        struct axon_coll_block part;
        if (rel > 0 && t < nseg) {
            int64_t from = t * seg;
            axon_coll_msg_part(&msg, from, msg.bytes - from < seg ? msg.bytes - from : seg, &part);
            axon_coll_block_recv(s, &part, left);
        }
        int64_t out = t - lag;
        if (right != MPI_PROC_NULL && out >= 0) {
            int64_t from = out * seg;
            axon_coll_msg_part(&msg, from, msg.bytes - from < seg ? msg.bytes - from : seg, &part);
            axon_coll_block_send(s, &part, right);
        }
        axon_coll_sched_round(s);
    }
    axon_coll_msg_finish(s, &msg, rel == 0);
}

void axon_coll_bcast_tree(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                          int root)
{
    if (axon_coll_sched_size(s) <= 1 || count * dt->size == 0)
        return;
    axon_coll_sched_round(s);
    axon_coll_bcast_binomial(s, buf, count, dt, root);
}

void axon_coll_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                     int root)
{
    int n = axon_coll_sched_size(s);
    int64_t bytes = count * dt->size;
    int alg = axon_coll_select_sched(AXON_COLL_KIND_BCAST, s, bytes,
                                     axon_coll_hier_have(s) | axon_coll_domain_group_have(s) |
                                         axon_coll_sched_device_have(s));
    /* Every member knows the message's size, so all of them leave out an empty one. */
    if (n <= 1 || bytes == 0)
        return;
    /* Steps added before belong to earlier rounds: this data may be what they produce. */
    axon_coll_sched_round(s);
    switch (alg) {
    case AXON_BCAST_SCATTER_RING:
    case AXON_BCAST_SCATTER_DOUBLING:
        axon_coll_bcast_scatter_allgather(s, buf, count, dt, root, alg == AXON_BCAST_SCATTER_DOUBLING);
        break;
    case AXON_BCAST_CHAIN:
        axon_coll_bcast_chain(s, buf, count, dt, root);
        break;
    case AXON_BCAST_HIER:
        axon_coll_hier_bcast(s, buf, count, dt, root);
        break;
    case AXON_BCAST_DOMAIN:
        axon_coll_domain_bcast(s, buf, count, dt, root);
        break;
    default:
        axon_coll_bcast_binomial(s, buf, count, dt, root);
        break;
    }
}
