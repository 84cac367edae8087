/* Shared-memory collectives of a node's communicator (coll/axon_coll_shm.h).
 *
 * The segment: two sets (parities) of a cache line per rank, a line per rank for the pieces of a
 * two-member reduction, then two sets of slots, a slot per rank of max(AXON_COLL_SHM_MAX,
 * AXON_COLL_SHM_CHUNK) bytes. Each call on the communicator (each chunk of a large reduction) is the next
 * use u of the lines and slots on every member, and uses the set of parity u % 2. A member writes its
 * data (packed) into its slot of that set, or into its line when the data fits there (40 bytes), then
 * stores 2u - 1 into its line's flag with release order; a member that needs another's data waits for
 * that flag to reach 2u - 1 (acquire) and reads the line or the slot. Data in the line comes with the
 * flag, in the one transfer of that line between the cores: a small allreduce or allgather waits for one
 * line per member rather than a line and then a slot.
 *
 * Why two sets are enough: a line or slot of parity u % 2 was last read during use u - 2, and every
 * reader of use u - 2 has finished reading before it raises its flag for use u - 1. So a member waits,
 * before writing for use u, until every flag of parity (u - 1) % 2 is at least 2(u - 1) - 1; it
 * remembers the highest value it saw on every flag, so that in a steady stream of calls this wait costs
 * nothing (a barrier or an allreduce has just seen all flags that high anyway).
 *
 * Reductions fold the slots in rank order (s0 op (s1 op (...))), right for non-commutative operations.
 * Reductions beyond the flat fold go in chunks of a slot, each member folding its share of the chunk
 * (axon_shm_reduce_chunked); a use of the slots is then one chunk, whose members raise their flag a
 * second time once their share of the result is in their slot.
 * Waiting goes through axon_ucx_wait: it keeps the transport progressing and yields the core when the
 * node is oversubscribed. A rank that dies leaves the others waiting until the launcher ends the job. */
#include "coll/axon_coll_shm.h"

#include "coll/coll.h"
#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    AXON_SHM_LINE = 64,
    AXON_SHM_NAME_MAX = 64,
    AXON_SHM_FLAT_MAX = 8192, /* n * bytes up to which every member folds every contribution */
};

/* What a member says of its call, so that the others can tell a mismatch cheaply (different
 * collectives, roots or sizes would otherwise give wrong data or a hang). Kept per parity, like the
 * slots, so that a member may describe its next call while others still check this one. */
struct axon_shm_call {
    int64_t bytes;
    int32_t root;
    int32_t kind;
};

enum {
    AXON_SHM_BARRIER = 1,
    AXON_SHM_BCAST,
    AXON_SHM_REDUCE,
    AXON_SHM_ALLREDUCE,
    AXON_SHM_GATHER,
    AXON_SHM_ALLGATHER,
    AXON_SHM_SCATTER,
    AXON_SHM_ALLTOALL,
    AXON_SHM_REDUCE_SCATTER,
};

/* A member's line of one parity: its flag, its call's description and its data when that is small. */
struct axon_shm_line {
    _Atomic uint64_t seq; /* 2u - 1 once the data of use u (of this parity) is there; 2u once its share of
                           * a chunked reduction's result is */
    struct axon_shm_call call;
    char data[AXON_SHM_LINE - sizeof(uint64_t) - sizeof(struct axon_shm_call)];
};

#define AXON_SHM_INLINE ((int64_t)sizeof(((struct axon_shm_line *)0)->data))

/* A two-member reduction's data arriving in pieces: (use << 40) | bytes in the slot so far, so the
 * reader folds each piece as it lands (axon_shm_reduce_pair). A line of its own: the reader polls it
 * while the writer fills the slot. */
struct axon_shm_ready {
    _Atomic uint64_t ready;
    char pad[AXON_SHM_LINE - sizeof(uint64_t)];
};

struct axon_coll_shm {
    int rank, size;
    int64_t slot;             /* bytes of one slot */
    void *base;               /* the mapping */
    size_t length;
    struct axon_shm_line *lines; /* [2][size] */
    struct axon_shm_ready *ready; /* [size] */
    char *slots;              /* [2][size][slot] */
    uint64_t seq;             /* uses of the slots so far */
    uint64_t min_seen;        /* every flag of that value's parity has been seen at least this high */
    void *fold;               /* slot-sized scratch for reductions into non-contiguous results */
    const int *world;         /* the members' ranks in MPI_COMM_WORLD (NULL: the same) */
    bool broken;              /* a member is lost (the job surviving it): no wait here ends, nor waits */
};

int64_t axon_coll_shm_limit(void)
{
    return axon_config.coll_shm_max > 0 ? axon_config.coll_shm_max : 0;
}

/* The smallest slot any communicator gets: the chunk every member can count on. */
#define AXON_SHM_AUTO_CHUNK_MIN ((int64_t)64 * 1024)
#define AXON_SHM_AUTO_CHUNK_MAX ((int64_t)1024 * 1024)
#define AXON_SHM_AUTO_BUDGET ((int64_t)8 * 1024 * 1024) /* all slots of a communicator, both parities */

int64_t axon_coll_shm_chunk(void)
{
    if (axon_config.coll_shm_chunk < 0)
        return AXON_SHM_AUTO_CHUNK_MIN;
    return axon_config.coll_shm_chunk >= 4096 ? axon_config.coll_shm_chunk : 4096;
}

/* A communicator's slot by default: its share of AXON_SHM_AUTO_BUDGET, between 64 KiB and 1 MiB. Few
 * members get large slots because a slot that the writer refills while the reader still caches its
 * lines costs a transfer of every line between the cores, so the fewer refills a vector takes, the
 * better. The budget leaves 16 ranks slots of 256 KiB, where large reductions and allgathers still
 * gain over 128 KiB (bench/results/2026-11-24-reduce-2-ranks.md and
 * bench/results/2026-11-26-h200-gpu-tests-and-2-16-ranks.md). */
static int64_t axon_shm_chunk_for(int size)
{
    if (axon_config.coll_shm_chunk >= 0)
        return axon_coll_shm_chunk();
    int64_t share = AXON_SHM_AUTO_BUDGET / (2 * (int64_t)(size > 0 ? size : 1)), chunk = AXON_SHM_AUTO_CHUNK_MIN;
    while (chunk * 2 <= share && chunk * 2 <= AXON_SHM_AUTO_CHUNK_MAX)
        chunk *= 2;
    return chunk;
}

int64_t axon_coll_shm_slot_for(int size)
{
    return axon_shm_chunk_for(size);
}

static char *axon_shm_slot(const struct axon_coll_shm *shm, uint64_t seq, int rank)
{
    return shm->slots + ((int64_t)(seq & 1) * shm->size + rank) * shm->slot;
}

static struct axon_shm_line *axon_shm_line_of(const struct axon_coll_shm *shm, uint64_t u, int rank)
{
    return &shm->lines[(int64_t)(u & 1) * shm->size + rank];
}

/* Where rank's data of use u lies when it is bytes long: in its line when it fits there. Every member
 * of a call knows the same bytes (the description checks it), so writer and readers agree. */
static char *axon_shm_area(const struct axon_coll_shm *shm, uint64_t u, int rank, int64_t bytes)
{
    return bytes <= AXON_SHM_INLINE ? axon_shm_line_of(shm, u, rank)->data : axon_shm_slot(shm, u, rank);
}

/* ---- setup ---------------------------------------------------------------------------------------- */

/* Runs a schedule of pc's members to its end (the setup's name broadcast and agreement). */
static int axon_shm_run(struct axon_coll_sched *s)
{
    struct axon_request *req;
    int rc = axon_request_alloc_coll(&req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        return rc;
    }
    rc = axon_coll_sched_start(s, req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        /* Completed first: a request freed while incomplete would wait for a completion that never
         * comes, and keep its pool slot. */
        axon_request_coll_complete(req, rc);
        axon_request_free(req);
        return rc;
    }
    axon_request_wait(req);
    rc = req->status.MPI_ERROR;
    axon_request_free(req);
    return rc;
}

/* Maps the segment named name; rank 0 makes it and names it (name is its buffer there, of
 * AXON_SHM_NAME_MAX bytes). NULL on any failure. */
static struct axon_coll_shm *axon_shm_map(char *name, int rank, int size, int64_t slot)
{
    static unsigned serial;
    struct axon_coll_shm *shm = calloc(1, sizeof(*shm));
    if (!shm)
        return NULL;
    shm->rank = rank;
    shm->size = size;
    shm->slot = slot;
    shm->length = 3 * (size_t)size * AXON_SHM_LINE + 2 * (size_t)size * (size_t)slot;
    shm->fold = malloc((size_t)slot);
    if (!shm->fold)
        goto fail;
    int fd = rank == 0 ? axon_runtime_shm_create("coll", serial++, name, AXON_SHM_NAME_MAX) : shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        /* Not silent: the communicator's small collectives run without shared memory then. */
        axon_runtime_log_error("cannot %s the shared memory %s of a communicator's collectives: %s; they go "
                               "without it", rank == 0 ? "create" : "open", name, strerror(errno));
        goto fail;
    }
    /* Rank 0 sizes it before it names it to the others; the zero fill makes every flag 0. */
    if (rank == 0 && ftruncate(fd, (off_t)shm->length) != 0) {
        close(fd);
        goto fail;
    }
    shm->base = mmap(NULL, shm->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (shm->base == MAP_FAILED) {
        shm->base = NULL;
        goto fail;
    }
    shm->lines = shm->base;
    shm->ready = (struct axon_shm_ready *)((char *)shm->base + 2 * (size_t)size * AXON_SHM_LINE);
    shm->slots = (char *)shm->base + 3 * (size_t)size * AXON_SHM_LINE;
    return shm;
fail:
    axon_coll_shm_destroy(shm);
    return NULL;
}

/* One step of the setup: a schedule over pc whose steps build() adds, run to its end. */
static int axon_shm_step(struct axon_pt2pt_comm *pc, int rank, int size, int tag,
                         void (*build)(struct axon_coll_sched *s, void *arg), void *arg)
{
    struct axon_coll_sched *s;
    int rc = axon_coll_sched_create(pc, rank, size, tag, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    build(s, arg);
    return axon_shm_run(s);
}

static void axon_shm_bcast_name(struct axon_coll_sched *s, void *name)
{
    axon_coll_bcast_tree(s, name, AXON_SHM_NAME_MAX, &axon_coll_bytes, 0);
}

static void axon_shm_bcast_verdict(struct axon_coll_sched *s, void *verdict)
{
    axon_coll_bcast_tree(s, verdict, 1, &axon_coll_bytes, 0);
}

/* Rank 0 collects every member's "mapped it" byte: arg is the array at rank 0, the byte elsewhere. */
static void axon_shm_gather_ok(struct axon_coll_sched *s, void *arg)
{
    int n = axon_coll_sched_size(s);
    if (axon_coll_sched_rank(s) == 0) {
        for (int j = 1; j < n; j++)
            axon_coll_sched_recv(s, (char *)arg + j, 1, &axon_coll_bytes, j);
    } else {
        axon_coll_sched_send(s, arg, 1, &axon_coll_bytes, 0);
    }
}

int axon_coll_shm_create(struct axon_pt2pt_comm *pc, int rank, int size, int tag, struct axon_coll_shm **out)
{
    *out = NULL;
    int64_t chunk = axon_shm_chunk_for(size);
    int64_t want = axon_coll_shm_limit() > chunk ? axon_coll_shm_limit() : chunk;
    int64_t slot = (want + AXON_SHM_LINE - 1) / AXON_SHM_LINE * AXON_SHM_LINE;
    char name[AXON_SHM_NAME_MAX] = "";
    char *oks = calloc((size_t)size, 1);
    if (!oks)
        return MPI_ERR_NO_MEM;
    struct axon_coll_shm *shm = NULL;
    char verdict = 0;

    /* Rank 0 makes the segment (sized and zeroed) before it names it to the others; every member
     * then says whether it mapped it, and the communicator uses it only if all did. All of it on
     * the communicator's collective context. */
    if (rank == 0) {
        shm = axon_shm_map(name, rank, size, slot);
        if (!shm)
            name[0] = '\0';
    }
    int rc = axon_shm_step(pc, rank, size, tag, axon_shm_bcast_name, name);
    if (rc == MPI_SUCCESS && rank != 0 && name[0] != '\0')
        shm = axon_shm_map(name, rank, size, slot);
    oks[0] = (char)(shm != NULL);
    if (rc == MPI_SUCCESS)
        rc = axon_shm_step(pc, rank, size, tag, axon_shm_gather_ok, oks);
    if (rc == MPI_SUCCESS && rank == 0) {
        verdict = 1;
        for (int j = 0; j < size; j++)
            verdict = (char)(verdict && oks[j]);
    }
    /* Every member has mapped the segment or given up once rank 0 has all the bytes: the name can
     * go, and nothing is left in /dev/shm whatever happens to the job later. */
    if (rank == 0 && name[0] != '\0')
        shm_unlink(name);
    if (rc == MPI_SUCCESS)
        rc = axon_shm_step(pc, rank, size, tag, axon_shm_bcast_verdict, &verdict);
    free(oks);
    if (rc != MPI_SUCCESS || !verdict) {
        axon_coll_shm_destroy(shm);
        return rc;
    }
    shm->world = pc->world_ranks;
    *out = shm;
    return MPI_SUCCESS;
}

void axon_coll_shm_destroy(struct axon_coll_shm *shm)
{
    if (!shm)
        return;
    if (shm->base)
        munmap(shm->base, shm->length);
    free(shm->fold);
    free(shm);
}

/* ---- waiting -------------------------------------------------------------------------------------- */

/* Flag values: use u of the slots (one call, or one chunk of a large reduction) raises 2u - 1 once the
 * member's data is in its slot, and 2u once its share of a reduction's result is (the chunked
 * reductions only). */
static uint64_t axon_shm_data(uint64_t u)
{
    return 2 * u - 1;
}

static uint64_t axon_shm_result(uint64_t u)
{
    return 2 * u;
}

struct axon_shm_wait {
    struct axon_coll_shm *shm;
    uint64_t u, seq; /* the use, whose parity names the lines, and the value awaited */
    int rank;        /* one rank's flag, or -1 for all of them */
};

/* Whether a member is lost, where the job survives lost ranks (runtime/axon_runtime_lost.c): a wait for
 * its flag would never end. The communicator's segment is broken from then on: its waits return at
 * once, whatever the slots hold, and the call that saw it fails (axon_coll_shm_broken). */
static bool axon_shm_lost(struct axon_coll_shm *shm)
{
    if (!shm->broken && __builtin_expect(axon_runtime_lost_generation() != 0, 0))
        shm->broken = axon_runtime_lost_any(shm->world, shm->size);
    return shm->broken;
}

bool axon_coll_shm_broken(const struct axon_coll_shm *shm)
{
    return shm->broken;
}

static bool axon_shm_flags_reached(const struct axon_shm_wait *w)
{
    if (w->rank >= 0)
        return atomic_load_explicit(&axon_shm_line_of(w->shm, w->u, w->rank)->seq, memory_order_acquire) >= w->seq;
    const struct axon_shm_line *line = axon_shm_line_of(w->shm, w->u, 0);
    for (int j = 0; j < w->shm->size; j++)
        if (atomic_load_explicit(&line[j].seq, memory_order_acquire) < w->seq)
            return false;
    return true;
}

static bool axon_shm_reached(void *arg)
{
    struct axon_shm_wait *w = arg;
    return axon_shm_flags_reached(w) || axon_shm_lost(w->shm);
}

/* Waits until rank's flag of use u's parity (every such flag for -1) is at least seq. */
static void axon_shm_wait_value(struct axon_coll_shm *shm, int rank, uint64_t u, uint64_t seq)
{
    if (shm->broken)
        return;
    struct axon_shm_wait w = {shm, u, seq, rank};
    if (!axon_shm_reached(&w))
        axon_ucx_wait(axon_shm_reached, &w);
    if (rank < 0 && seq > shm->min_seen && !shm->broken)
        shm->min_seen = seq;
}

/* Waits until rank (every rank for -1) has its data of use u in its line or slot. */
static void axon_shm_wait(struct axon_coll_shm *shm, int rank, uint64_t u)
{
    axon_shm_wait_value(shm, rank, u, axon_shm_data(u));
}

/* Starts a use of the slots: its number, once the slots of its parity are free (see the top): every
 * member has started the previous use, so it is done with the one before. */
static uint64_t axon_shm_begin(struct axon_coll_shm *shm)
{
    uint64_t u = ++shm->seq;
    if (u > 1 && shm->min_seen < axon_shm_data(u - 1))
        axon_shm_wait(shm, -1, u - 1);
    return u;
}

/* Describes the call and raises the flag; the release order publishes both and the slot. */
static void axon_shm_raise(struct axon_coll_shm *shm, uint64_t s, int kind, int root, int64_t bytes)
{
    struct axon_shm_line *line = axon_shm_line_of(shm, s, shm->rank);
    line->call = (struct axon_shm_call){bytes, root, kind};
    atomic_store_explicit(&line->seq, axon_shm_data(s), memory_order_release);
}

/* Says that this member's share of a chunked reduction's result is in its slot. */
static void axon_shm_raise_result(struct axon_coll_shm *shm, uint64_t u)
{
    atomic_store_explicit(&axon_shm_line_of(shm, u, shm->rank)->seq, axon_shm_result(u), memory_order_release);
}

/* Checks the call of rank j (whose flag has reached s) against ours. */
static int axon_shm_check(const struct axon_coll_shm *shm, uint64_t s, int j, int kind, int root, int64_t bytes)
{
    const struct axon_shm_call *c = &axon_shm_line_of(shm, s, j)->call;
    if (c->kind != kind) {
        axon_runtime_log_debug(1, "collective mismatch: rank %d of the communicator called another collective "
                               "than rank %d", j, shm->rank);
        return MPI_ERR_OTHER;
    }
    if (c->root != root) {
        axon_runtime_log_debug(1, "collective mismatch: rank %d names root %d, rank %d root %d", j, c->root,
                               shm->rank, root);
        return MPI_ERR_ROOT;
    }
    if (c->bytes != bytes) {
        axon_runtime_log_debug(1, "collective mismatch: rank %d passes %lld bytes, rank %d %lld", j,
                               (long long)c->bytes, shm->rank, (long long)bytes);
        return MPI_ERR_TRUNCATE;
    }
    return MPI_SUCCESS;
}

/* Checks every member's description of call s; the first disagreement's error. */
static int axon_shm_check_all(const struct axon_coll_shm *shm, uint64_t s, int kind, int root, int64_t bytes)
{
    int rc = MPI_SUCCESS;
    for (int j = 0; j < shm->size && rc == MPI_SUCCESS; j++)
        rc = axon_shm_check(shm, s, j, kind, root, bytes);
    return rc;
}

/* ---- the collectives ------------------------------------------------------------------------------ */

/* axon_shm_reader_order: where every member reads every slot (an allgather's blocks, the shares of a
 * chunked reduction's result) and the order does not matter, member me reads slot me, me + 1, ... in
 * turn. Read in rank order, all members would ask the core that wrote slot 0 for the same lines at
 * once, then slot 1's, each writer's cache serving the whole node in turn; staggered, each serves about
 * one reader at a time. (Folds stay in rank order where the operation needs it.) */

int axon_coll_shm_barrier(struct axon_coll_shm *shm)
{
    uint64_t s = axon_shm_begin(shm);
    axon_shm_raise(shm, s, AXON_SHM_BARRIER, -1, 0);
    axon_shm_wait(shm, -1, s);
    /* One neighbour's word is enough to catch a barrier matched with another collective. */
    return axon_shm_check(shm, s, (shm->rank + 1) % shm->size, AXON_SHM_BARRIER, -1, 0);
}

/* A message larger than a slot goes in chunks through the root's slot; the root may write the next
 * chunk into the other set while the others still read this one. */
static int axon_shm_bcast_chunked(struct axon_coll_shm *shm, void *buf, int64_t count,
                                  const struct axon_dtype_layout *dt, int root)
{
    int64_t bytes = count * dt->size;
    int rc = MPI_SUCCESS;
    for (int64_t off = 0; off < bytes; off += shm->slot) {
        int64_t len = bytes - off < shm->slot ? bytes - off : shm->slot;
        uint64_t u = axon_shm_begin(shm);
        char *slot = axon_shm_slot(shm, u, root);
        if (shm->rank == root) {
            int rc_chunk = axon_coll_data_pack_range(buf, count, dt, off, slot, len);
            axon_shm_raise(shm, u, AXON_SHM_BCAST, root, bytes);
            if (rc == MPI_SUCCESS)
                rc = rc_chunk;
            continue;
        }
        axon_shm_raise(shm, u, AXON_SHM_BCAST, root, bytes);
        axon_shm_wait(shm, root, u);
        if (off == 0) {
            int rc_check = axon_shm_check(shm, u, root, AXON_SHM_BCAST, root, bytes);
            if (rc_check != MPI_SUCCESS)
                return rc_check;
        }
        if (rc == MPI_SUCCESS)
            rc = axon_coll_data_unpack_range(buf, count, dt, off, slot, len);
    }
    return rc;
}

int axon_coll_shm_bcast(struct axon_coll_shm *shm, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                        int root)
{
    int64_t bytes = count * dt->size;
    if (bytes > shm->slot)
        return axon_shm_bcast_chunked(shm, buf, count, dt, root);
    uint64_t s = axon_shm_begin(shm);
    char *slot = axon_shm_area(shm, s, root, bytes);
    int rc = MPI_SUCCESS;
    if (shm->rank == root) {
        rc = axon_coll_data_copy(buf, count, dt, slot, bytes, &axon_coll_bytes);
        axon_shm_raise(shm, s, AXON_SHM_BCAST, root, bytes);
        return rc;
    }
    /* Raised on arrival too: the root's next writes to this parity wait for it (see the top). */
    axon_shm_raise(shm, s, AXON_SHM_BCAST, root, bytes);
    axon_shm_wait(shm, root, s);
    rc = axon_shm_check(shm, s, root, AXON_SHM_BCAST, root, bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    return axon_coll_data_copy(slot, bytes, &axon_coll_bytes, buf, count, dt);
}

bool axon_coll_shm_reduction_fits(const struct axon_coll_op *op, int64_t count, const struct axon_dtype_layout *dt)
{
    (void)count;
    /* Predefined operations reduce packed data; a user function expects its datatype's own layout,
     * which packed data has only for a contiguous type that starts at its buffer. Any count: what does
     * not fit the flat fold goes in chunks, of whole elements. */
    if (!axon_coll_op_is_predefined(op) && !(dt->contig && dt->true_lb == 0 && dt->extent == dt->size))
        return false;
    return axon_coll_shm_limit() > 0 && dt->size <= axon_coll_shm_chunk();
}

/* The fold of count elements, from element first on, of every member's data of use u (region bytes
 * each, in its line or slot: axon_shm_area), in rank order, into out (elements of layout dt): in place
 * when out is one packed block, else through scratch. own, when not NULL, is this member's packed data,
 * read in place of its own (which it then need not have written). */
static int axon_shm_fold_out_at(struct axon_coll_shm *shm, uint64_t u, int64_t region, int64_t first,
                                const void *own, void *out, int64_t count, const struct axon_dtype_layout *dt,
                                MPI_Datatype datatype, struct axon_coll_op *op)
{
    int n = shm->size, me = shm->rank, rc = MPI_SUCCESS;
    int64_t bytes = count * dt->size;
    bool direct = dt->contig;
    char *acc = direct ? (char *)out + dt->true_lb : shm->fold;
#define AXON_SHM_PART(j) ((j) == me && own ? own : (const void *)(axon_shm_area(shm, u, j, region) + first * dt->size))
    memcpy(acc, AXON_SHM_PART(n - 1), (size_t)bytes);
    for (int j = n - 2; j >= 0 && rc == MPI_SUCCESS; j--)
        rc = axon_coll_op_apply(op, AXON_SHM_PART(j), acc, count, datatype, dt);
#undef AXON_SHM_PART
    if (rc == MPI_SUCCESS && !direct)
        rc = axon_coll_data_copy(acc, bytes, &axon_coll_bytes, out, count, dt);
    return rc;
}

/* The same for data of region bytes per member (in the line or the slot, axon_shm_area), from its start. */
static int axon_shm_fold_out(struct axon_coll_shm *shm, uint64_t u, int64_t region, const void *own, void *out,
                             int64_t count, const struct axon_dtype_layout *dt, MPI_Datatype datatype,
                             struct axon_coll_op *op)
{
    return axon_shm_fold_out_at(shm, u, region, 0, own, out, count, dt, datatype, op);
}

/* Reductions too large for the flat fold go in chunks of a slot: every member puts its chunk in its
 * slot; each folds its share (1/n of the chunk's elements) of all the slots in rank order and leaves
 * the result in its own slot, where the others' shares of the same chunk never lie; once every share
 * is there, every member (the root alone for a reduce) copies the shares out. Each member thus reads
 * about as much as it writes, whatever the number of members. */
static int axon_shm_reduce_chunked(struct axon_coll_shm *shm, const void *in, void *out, int64_t count,
                                   const struct axon_dtype_layout *dt, MPI_Datatype datatype,
                                   struct axon_coll_op *op, int root, int kind)
{
    int n = shm->size, me = shm->rank, rc = MPI_SUCCESS;
    int64_t esize = dt->size, per = shm->slot / esize, total = count * esize;
    bool commute = axon_coll_op_commutative(op);
    for (int64_t k = 0; k < count; k += per) {
        int64_t ce = count - k < per ? count - k : per;
        uint64_t u = axon_shm_begin(shm);
        char *mine = axon_shm_slot(shm, u, me);
        /* The root of a reduce between two members is the only reader: it folds its own data where it
         * is (unless that is the result's place, MPI_IN_PLACE). */
        const char *own = n <= 2 && me == root && dt->contig && in != out ? (const char *)in + dt->true_lb + k * esize
                                                                           : NULL;
        int rc_in = own ? MPI_SUCCESS
                        : axon_coll_data_copy((const char *)in + k * dt->extent, ce, dt, mine, ce * esize,
                                              &axon_coll_bytes);
        axon_shm_raise(shm, u, kind, root, total);
        axon_shm_wait(shm, -1, u);
        /* Every member checks every description of the first chunk alike, so all of them stop there
         * together when they disagree. */
        if (k == 0 && rc == MPI_SUCCESS)
            rc = axon_shm_check_all(shm, u, kind, root, total);
        if (rc == MPI_SUCCESS)
            rc = rc_in;
        if (rc != MPI_SUCCESS && k == 0)
            return rc;
        if (n <= 2) {
            /* Two members: folding the whole chunk straight into the result reads no more than
             * folding a share and then gathering the shares, and needs no second wait. */
            if (rc == MPI_SUCCESS && (root < 0 || me == root))
                rc = axon_shm_fold_out(shm, u, shm->slot, own, (char *)out + k * dt->extent, ce, dt, datatype, op);
            continue;
        }
        int64_t lo = ce * me / n, segc = ce * (me + 1) / n - lo;
        char *share = mine + lo * esize;
        if (segc > 0 && commute) {
            /* In place in this member's slot: the order does not matter, so each member starts with the
             * next member's slot (see axon_shm_reader_order). */
            for (int k2 = 1; k2 < n && rc == MPI_SUCCESS; k2++) {
                int j = (me + k2) % n;
                rc = axon_coll_op_apply(op, axon_shm_slot(shm, u, j) + lo * esize, share, segc, datatype, dt);
            }
        } else if (segc > 0) {
            char *acc = shm->fold;
            memcpy(acc, axon_shm_slot(shm, u, n - 1) + lo * esize, (size_t)(segc * esize));
            for (int j = n - 2; j >= 0 && rc == MPI_SUCCESS; j--)
                rc = axon_coll_op_apply(op, axon_shm_slot(shm, u, j) + lo * esize, acc, segc, datatype, dt);
            memcpy(share, acc, (size_t)(segc * esize));
        }
        axon_shm_raise_result(shm, u);
        if (root >= 0 && me != root)
            continue;
        axon_shm_wait_value(shm, -1, u, axon_shm_result(u));
        for (int k2 = 0; k2 < n && rc == MPI_SUCCESS; k2++) {
            int j = (me + k2) % n; /* staggered: axon_shm_reader_order */
            int64_t jlo = ce * j / n, jc = ce * (j + 1) / n - jlo;
            if (jc > 0)
                rc = axon_coll_data_copy(axon_shm_slot(shm, u, j) + jlo * esize, jc * esize, &axon_coll_bytes,
                                         (char *)out + (k + jlo) * dt->extent, jc, dt);
        }
    }
    return rc;
}

/* Two members, contiguous data: the writer copies its vector into its slot in pieces and says after
 * each how far it got; the reader (the root of a reduce, both members of an allreduce) folds each piece
 * as soon as it is there, so the fold follows the copy instead of waiting for all of it (a 2-rank
 * reduce of 64-256 KiB copied, then folded, one after the other). A vector larger than a slot goes a
 * slot at a time, each a use of the slots: the writer fills the next one (the other parity) while the
 * reader folds this one. (Whole slots copied, then folded, as the chunked form does, make every fold
 * wait for a whole slot's copy: bench/results/2026-11-26-h200-gpu-tests-and-2-16-ranks.md.) */
#define AXON_SHM_PIECE ((int64_t)16 * 1024)

struct axon_shm_piece_wait {
    struct axon_coll_shm *shm;
    int peer;
    uint64_t u;
    int64_t done;  /* the bytes of use u wanted */
    uint64_t seq;  /* or the whole use raised (a mismatch shows then) */
};

static bool axon_shm_piece_covered(const struct axon_shm_piece_wait *w)
{
    return axon_coll_shm_ready_covers(atomic_load_explicit(&w->shm->ready[w->peer].ready, memory_order_acquire), w->u,
                                 w->done);
}

static bool axon_shm_piece_reached(void *arg)
{
    struct axon_shm_piece_wait *w = arg;
    return axon_shm_piece_covered(w) ||
           atomic_load_explicit(&axon_shm_line_of(w->shm, w->u, w->peer)->seq, memory_order_acquire) >= w->seq ||
           axon_shm_lost(w->shm);
}

/* One use of the pair form: `bytes` of the vector from `base` (bytes), `total` the call's. */
/* One use of the pair form: `bytes` of the vector from `base` (bytes), `total` the call's. Every use
 * runs on both members whatever happened before, so that they stay at the same use of the slots: after
 * an error in an earlier one (fold false) the root only waits the use out. */
static int axon_shm_reduce_pair_use(struct axon_coll_shm *shm, const char *src, const char *own, char *acc,
                                    int64_t base, int64_t bytes, int64_t total, const struct axon_dtype_layout *dt,
                                    MPI_Datatype datatype, struct axon_coll_op *op, int root, int kind, bool first,
                                    bool last, bool fold, bool *disagree)
{
    int me = shm->rank, peer = 1 - me, rc = MPI_SUCCESS;
    int64_t esize = dt->size, piece = AXON_SHM_PIECE / esize * esize > 0 ? AXON_SHM_PIECE / esize * esize : esize;
    uint64_t s = axon_shm_begin(shm);
    if (!own) {
        char *mine = axon_shm_slot(shm, s, me);
        for (int64_t off = 0; off < bytes; off += piece) {
            int64_t len = bytes - off < piece ? bytes - off : piece;
            memcpy(mine + off, src + base + off, (size_t)len);
            atomic_store_explicit(&shm->ready[me].ready, axon_coll_shm_ready_word(s, off + len), memory_order_release);
        }
    }
    axon_shm_raise(shm, s, kind, root, total);
    if (root >= 0 && me != root) {
        /* The writer of a vector of several uses checks the first's descriptions before it goes on: with
         * another size at the root the two would count their uses differently, and the one with more
         * would wait forever for the other's next. */
        if (!first || last)
            return MPI_SUCCESS;
        axon_shm_wait(shm, -1, s);
        rc = axon_shm_check_all(shm, s, kind, root, total);
        *disagree = rc != MPI_SUCCESS;
        return rc;
    }
    /* In rank order: rank 1's part is copied into the result, rank 0's folded onto it on the left. */
    const char *part[2];
    part[me] = own ? own + base : axon_shm_slot(shm, s, me);
    part[peer] = axon_shm_slot(shm, s, peer);
    char *to = acc + base;
    bool mismatch = false;
    for (int64_t off = 0; fold && off < bytes && rc == MPI_SUCCESS; off += piece) {
        int64_t len = bytes - off < piece ? bytes - off : piece;
        struct axon_shm_piece_wait w = {shm, peer, s, off + len, axon_shm_data(s)};
        if (!axon_shm_piece_reached(&w) && !shm->broken)
            axon_ucx_wait(axon_shm_piece_reached, &w);
        if (!axon_shm_piece_covered(&w)) {
            mismatch = true; /* the peer raised without this piece: another call, which the check reports */
            break;
        }
        if (to + off != part[1] + off)
            memcpy(to + off, part[1] + off, (size_t)len);
        rc = axon_coll_op_apply(op, part[0] + off, to + off, len / esize, datatype, dt);
    }
    axon_shm_wait(shm, -1, s);
    /* Both members check the first use alike; a later one can only disagree where the first did not
     * see it (a piece missing), and then it is checked too. */
    if (first || mismatch) {
        int rc_check = axon_shm_check_all(shm, s, kind, root, total);
        *disagree = rc_check != MPI_SUCCESS;
        if (rc_check != MPI_SUCCESS)
            return rc_check;
    }
    return rc;
}

static int axon_shm_reduce_pair(struct axon_coll_shm *shm, const void *in, void *out, int64_t count,
                                const struct axon_dtype_layout *dt, MPI_Datatype datatype, struct axon_coll_op *op,
                                int root, int kind)
{
    int64_t esize = dt->size, bytes = count * esize;
    int64_t per = shm->slot / esize * esize; /* a use's bytes: whole elements of a slot */
    const char *src = (const char *)in + dt->true_lb;
    /* A reduce's root reads its own data where it is; every other member's goes into its slot. */
    const char *own = shm->rank == root && in != out ? src : NULL;
    int rc = MPI_SUCCESS;
    bool disagree = false;
    for (int64_t base = 0; base < bytes && !disagree; base += per) {
        int64_t len = bytes - base < per ? bytes - base : per;
        /* The members disagree about the call (both find it in the first use): neither goes on. */
        int rc_use = axon_shm_reduce_pair_use(shm, src, own, (char *)out + dt->true_lb, base, len, bytes, dt,
                                              datatype, op, root, kind, base == 0, base + len >= bytes,
                                              rc == MPI_SUCCESS, &disagree);
        if (rc == MPI_SUCCESS)
            rc = rc_use;
    }
    return rc;
}

int axon_coll_shm_reduce(struct axon_coll_shm *shm, const void *in, void *out, int64_t count,
                         const struct axon_dtype_layout *dt, MPI_Datatype datatype, struct axon_coll_op *op, int root)
{
    int64_t bytes = count * dt->size;
    int n = shm->size;
    int kind = root >= 0 ? AXON_SHM_REDUCE : AXON_SHM_ALLREDUCE;
    /* The flat fold reads every member's whole vector. For an allreduce every member does, which pays
     * only while n times the vector is small; for a reduce the root alone does, while the others
     * leave at once, which pays as long as the vector fits a slot. */
    /* Two members of a reduce fold piece by piece at any size (a slot at a time beyond one). */
    if (n == 2 && root >= 0 && dt->contig && bytes >= 2 * AXON_SHM_PIECE && shm->slot >= dt->size)
        return axon_shm_reduce_pair(shm, in, out, count, dt, datatype, op, root, kind);
    if (bytes > shm->slot || (root < 0 && bytes * n > AXON_SHM_FLAT_MAX))
        return axon_shm_reduce_chunked(shm, in, out, count, dt, datatype, op, root, kind);
    uint64_t s = axon_shm_begin(shm);
    /* A reduce's root is the only reader: it folds its own data where it is (see the chunked form). */
    const char *own = shm->rank == root && dt->contig && in != out ? (const char *)in + dt->true_lb : NULL;
    int rc = own ? MPI_SUCCESS
                 : axon_coll_data_copy(in, count, dt, axon_shm_area(shm, s, shm->rank, bytes), bytes, &axon_coll_bytes);
    axon_shm_raise(shm, s, kind, root, bytes);
    if (root >= 0 && shm->rank != root)
        return rc;
    axon_shm_wait(shm, -1, s);
    if (rc == MPI_SUCCESS)
        rc = axon_shm_check_all(shm, s, kind, root, bytes);
    if (rc != MPI_SUCCESS || bytes == 0)
        return rc;
    return axon_shm_fold_out(shm, s, bytes, own, out, count, dt, datatype, op);
}

/* A contribution larger than a slot goes in uses of w elements of every block: in use k each member's
 * slot holds elements k*w .. (k+1)*w of every block j of its contribution (at j*w), and each member
 * folds its own block's piece of every slot, so that all of them fold in every use (chunks of the whole
 * vector would leave all but one or two members idle in each). */
static int axon_shm_reduce_scatter_chunked(struct axon_coll_shm *shm, const void *in, void *out,
                                           const int64_t *counts, int64_t most, const struct axon_dtype_layout *dt,
                                           MPI_Datatype datatype, struct axon_coll_op *op, int64_t bytes)
{
    int n = shm->size, me = shm->rank, rc = MPI_SUCCESS;
    int64_t esize = dt->size, w = shm->slot / esize / n;
    if (w < 1)
        return MPI_ERR_INTERN; /* the caller keeps an element within a slot's share */
    for (int64_t at = 0; at < most; at += w) {
        uint64_t u = axon_shm_begin(shm);
        char *mine = axon_shm_slot(shm, u, me);
        int64_t disp = 0; /* block j's first element in the contribution */
        for (int j = 0; j < n && rc == MPI_SUCCESS; disp += counts[j], j++) {
            int64_t len = counts[j] - at < w ? counts[j] - at : w;
            if (len > 0)
                rc = axon_coll_data_copy((const char *)in + (disp + at) * dt->extent, len, dt, mine + j * w * esize,
                                         len * esize, &axon_coll_bytes);
        }
        axon_shm_raise(shm, u, AXON_SHM_REDUCE_SCATTER, -1, bytes);
        axon_shm_wait(shm, -1, u);
        if (at == 0) {
            int rc_check = axon_shm_check_all(shm, u, AXON_SHM_REDUCE_SCATTER, -1, bytes);
            if (rc_check != MPI_SUCCESS)
                return rc_check;
        }
        int64_t len = counts[me] - at < w ? counts[me] - at : w;
        if (rc == MPI_SUCCESS && len > 0)
            rc = axon_shm_fold_out_at(shm, u, shm->slot, me * w, NULL, (char *)out + at * dt->extent, len, dt, datatype,
                                      op);
    }
    return rc;
}

int axon_coll_shm_reduce_scatter(struct axon_coll_shm *shm, const void *in, void *out, const int64_t *counts,
                                 const struct axon_dtype_layout *dt, MPI_Datatype datatype, struct axon_coll_op *op)
{
    int n = shm->size, me = shm->rank;
    int64_t total = 0, first = 0, most = 0;
    for (int j = 0; j < n; j++) {
        if (j == me)
            first = total;
        total += counts[j];
        most = counts[j] > most ? counts[j] : most;
    }
    int64_t bytes = total * dt->size;
    /* In place, use k's result lands on elements the later uses no longer read: block j's next piece
     * starts at its displacement + (k + 1) * w or later. */
    if (bytes > shm->slot)
        return axon_shm_reduce_scatter_chunked(shm, in, out, counts, most, dt, datatype, op, bytes);
    uint64_t s = axon_shm_begin(shm);
    int rc = axon_coll_data_copy(in, total, dt, axon_shm_area(shm, s, me, bytes), bytes, &axon_coll_bytes);
    axon_shm_raise(shm, s, AXON_SHM_REDUCE_SCATTER, -1, bytes);
    axon_shm_wait(shm, -1, s);
    int rc_check = axon_shm_check_all(shm, s, AXON_SHM_REDUCE_SCATTER, -1, bytes);
    if (rc_check != MPI_SUCCESS)
        return rc_check;
    if (rc != MPI_SUCCESS || counts[me] == 0)
        return rc;
    /* In place, the result overwrites the start of the receive buffer, whose data is in the slot by
     * now. */
    return axon_shm_fold_out_at(shm, s, bytes, first, NULL, out, counts[me], dt, datatype, op);
}

/* Blocks larger than a slot go in chunks: each member's chunk in its slot, read by the root (by all
 * for an allgather) once every flag says it is there. */
static int axon_shm_gather_chunked(struct axon_coll_shm *shm, const struct axon_coll_block *mine,
                                   const struct axon_coll_block *blocks, int64_t bytes, int root, int kind)
{
    int me = shm->rank, rc = MPI_SUCCESS;
    const struct axon_coll_block *src = mine ? mine : &blocks[me];
    for (int64_t off = 0; off < bytes; off += shm->slot) {
        int64_t len = bytes - off < shm->slot ? bytes - off : shm->slot;
        uint64_t u = axon_shm_begin(shm);
        int rc_chunk = axon_coll_data_pack_range(src->buf, src->count, &src->dt, off, axon_shm_slot(shm, u, me), len);
        axon_shm_raise(shm, u, kind, root, bytes);
        if (rc == MPI_SUCCESS)
            rc = rc_chunk;
        if (root >= 0 && me != root)
            continue;
        axon_shm_wait(shm, -1, u);
        if (off == 0) {
            int rc_check = axon_shm_check_all(shm, u, kind, root, bytes);
            if (rc_check != MPI_SUCCESS)
                return rc_check;
        }
        for (int k = 0; k < shm->size && rc == MPI_SUCCESS; k++) {
            int j = (me + k) % shm->size; /* staggered: axon_shm_reader_order */
            if (j != me || mine)
                rc = axon_coll_data_unpack_range(blocks[j].buf, blocks[j].count, &blocks[j].dt, off,
                                                 axon_shm_slot(shm, u, j), len);
        }
    }
    return rc;
}

int axon_coll_shm_gather(struct axon_coll_shm *shm, const struct axon_coll_block *mine,
                         const struct axon_coll_block *blocks, int64_t bytes, int root)
{
    if (bytes > shm->slot)
        return axon_shm_gather_chunked(shm, mine, blocks, bytes, root,
                                       root >= 0 ? AXON_SHM_GATHER : AXON_SHM_ALLGATHER);
    uint64_t s = axon_shm_begin(shm);
    int me = shm->rank, kind = root >= 0 ? AXON_SHM_GATHER : AXON_SHM_ALLGATHER;
    const struct axon_coll_block *src = mine ? mine : &blocks[me];
    int rc = axon_coll_data_copy(src->buf, src->count, &src->dt, axon_shm_area(shm, s, me, bytes), bytes,
                                 &axon_coll_bytes);
    axon_shm_raise(shm, s, kind, root, bytes);
    if (root >= 0 && me != root)
        return rc;
    axon_shm_wait(shm, -1, s);
    if (rc == MPI_SUCCESS)
        rc = axon_shm_check_all(shm, s, kind, root, bytes);
    for (int k = 0; k < shm->size && rc == MPI_SUCCESS; k++) {
        int j = (me + k) % shm->size; /* staggered: axon_shm_reader_order */
        if (j == me && !mine)
            continue; /* in place: the block is there already */
        rc = axon_coll_data_copy(axon_shm_area(shm, s, j, bytes), bytes, &axon_coll_bytes, blocks[j].buf,
                                 blocks[j].count, &blocks[j].dt);
    }
    return rc;
}

int axon_coll_shm_scatter(struct axon_coll_shm *shm, const struct axon_coll_block *blocks,
                          const struct axon_coll_block *mine, int64_t bytes, int root)
{
    uint64_t s = axon_shm_begin(shm);
    int me = shm->rank, rc = MPI_SUCCESS;
    char *slot = axon_shm_area(shm, s, root, bytes * shm->size);
    if (me == root) {
        for (int j = 0; j < shm->size && rc == MPI_SUCCESS; j++)
            if (j != me)
                rc = axon_coll_data_copy(blocks[j].buf, blocks[j].count, &blocks[j].dt, slot + j * bytes, bytes,
                                         &axon_coll_bytes);
        axon_shm_raise(shm, s, AXON_SHM_SCATTER, root, bytes);
        if (rc == MPI_SUCCESS && mine)
            rc = axon_coll_data_copy(blocks[me].buf, blocks[me].count, &blocks[me].dt, mine->buf, mine->count,
                                     &mine->dt);
        return rc;
    }
    axon_shm_raise(shm, s, AXON_SHM_SCATTER, root, bytes);
    axon_shm_wait(shm, root, s);
    rc = axon_shm_check(shm, s, root, AXON_SHM_SCATTER, root, bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    return axon_coll_data_copy(slot + me * bytes, bytes, &axon_coll_bytes, mine->buf, mine->count, &mine->dt);
}

int axon_coll_shm_alltoall(struct axon_coll_shm *shm, const struct axon_coll_block *send,
                           const struct axon_coll_block *recv, int64_t bytes)
{
    uint64_t s = axon_shm_begin(shm);
    int me = shm->rank, n = shm->size, rc = MPI_SUCCESS;
    /* In place, the data to send is in the receive blocks; it is all in the slot before any is
     * overwritten. */
    const struct axon_coll_block *out = send ? send : recv;
    char *mine = axon_shm_area(shm, s, me, bytes * n);
    for (int j = 0; j < n && rc == MPI_SUCCESS; j++)
        if (j != me)
            rc = axon_coll_data_copy(out[j].buf, out[j].count, &out[j].dt, mine + j * bytes, bytes,
                                     &axon_coll_bytes);
    axon_shm_raise(shm, s, AXON_SHM_ALLTOALL, -1, bytes);
    /* This rank's own block goes straight across while the others write theirs (in place it is there). */
    if (send && rc == MPI_SUCCESS)
        rc = axon_coll_data_copy(send[me].buf, send[me].count, &send[me].dt, recv[me].buf, recv[me].count,
                                 &recv[me].dt);
    axon_shm_wait(shm, -1, s);
    if (rc == MPI_SUCCESS)
        rc = axon_shm_check_all(shm, s, AXON_SHM_ALLTOALL, -1, bytes);
    for (int j = 0; j < n && rc == MPI_SUCCESS; j++)
        if (j != me)
            rc = axon_coll_data_copy(axon_shm_area(shm, s, j, bytes * n) + me * bytes, bytes, &axon_coll_bytes,
                                     recv[j].buf, recv[j].count, &recv[j].dt);
    return rc;
}
