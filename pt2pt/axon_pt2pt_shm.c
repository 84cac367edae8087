/* The node's shared-memory rings (pt2pt/axon_pt2pt_shm.h): the segments, the rings' layout, writing and
 * publishing records, and taking them in order on the receiving side.
 *
 * A ring is a control line (the receiver's consumed position, which the sender reads only when the ring
 * looks full) and a power-of-two number of 32-byte slots. A record starts on a slot with its 24-byte
 * envelope, so a message of up to 8 bytes is one slot and two of them share a cache line (the message
 * rate of small messages is the rate of cache lines crossing between the cores; Open MPI's shared-memory
 * fast boxes align to 32 bytes for the same reason); a record of two slots never straddles two lines.
 * Its first word is a stamp of the position it was written at, never zero, stored last with release
 * order, so the receiver, which knows where the next record starts, tells a new record from anything
 * else with one compare. Before the sender publishes a record it zeroes the first word of the slot just
 * after it, where the receiver looks next: the receiver then never meets stale bytes there (the middle
 * of an older, longer record, an old stamp), since whatever it reads at its tail was written after that
 * zero (the record's stamp orders it). So the sender needs one slot of room beyond each record, and the
 * receiver writes nothing into the ring: its lines travel one way, from the sender's core to the
 * receiver's, where a receiver that zeroed every consumed slot (as this ring did before) pulled each line
 * back and made the sender fetch it again (message rate at 4-16 KiB ...). A record does not wrap: one
 * that would is preceded by a pad record to the ring's end. */
#include "pt2pt/axon_pt2pt_shm.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define AXON_SHM_KEY "axon.pt2pt.shm"
#define AXON_SHM_MAGIC 0x41784d52u /* "AxMR" */
#define AXON_SHM_SLOT 32u
#define AXON_SHM_ENVELOPE 24u
#define AXON_SHM_LINE 64u
/* The rings a rank receives on share this budget, so a node of many ranks stays within a few MiB per rank. */
#define AXON_SHM_SEGMENT_BUDGET (4u << 20)
#define AXON_SHM_MIN_RING 4096u
#define AXON_SHM_AUTO_RING (1u << 20) /* the default ring's largest size */
#define AXON_SHM_MAX_RING (64u << 20) /* a pad record counts its slots in 24 bits */
/* Records taken from one ring per poll: a flood from one peer must not starve the others. */
#define AXON_SHM_POLL_BATCH 32

enum {
    AXON_SHM_F_SYNC = 1u << 24, /* a synchronous send: acknowledge when matched; the sender's request
                                 * index is the first word after the envelope, the payload starts on the
                                 * next slot */
    AXON_SHM_F_ACK = 2u << 24,  /* the acknowledgement of one: tag holds our request's index */
    AXON_SHM_F_PAD = 4u << 24,  /* no message: skip the slots the length counts */
    AXON_SHM_F_IPC = 8u << 24,  /* the payload is a GPU buffer's IPC descriptor (AXON_PT2PT_FLAG_IPC) */
    AXON_SHM_F_CMA = 16u << 24, /* the payload describes the sender's buffer (AXON_PT2PT_FLAG_CMA) */
    AXON_SHM_F_PIPE = 32u << 24, /* the payload asks for a pipelined GPU message (AXON_PT2PT_FLAG_PIPE) */
    AXON_SHM_F_PUT = 64u << 24,  /* no message: write a part of one for its receiver (struct
                                  * axon_pt2pt_cma_put is the payload) */
    AXON_SHM_F_DONE = 128u << 24, /* no message: such a part is written; the payload is the receiver's
                                   * request, tag is 1 if the write failed */
    AXON_SHM_LENGTH_MASK = (1u << 24) - 1,
};

/* A record's first slot. */
struct axon_pt2pt_shm_record {
    _Atomic uint32_t seq;   /* the position's stamp once published; 0 while free */
    uint32_t length_flags;  /* payload bytes | AXON_SHM_F_* */
    uint32_t context_id;
    int32_t source;         /* rank in the communicator */
    int32_t tag;
    uint32_t ucx_before;    /* active messages the sender had sent us before this record */
    unsigned char payload[AXON_SHM_SLOT - AXON_SHM_ENVELOPE]; /* continues into the next slots */
};
_Static_assert(sizeof(struct axon_pt2pt_shm_record) == AXON_SHM_SLOT, "a record's envelope is one slot");
_Static_assert(offsetof(struct axon_pt2pt_shm_record, payload) == AXON_SHM_ENVELOPE, "the envelope's size");

/* The stamp of a record at pos: never 0 (a consumed slot), and different for neighbouring laps. */
static inline uint32_t axon_shm_stamp(uint64_t pos)
{
    return (uint32_t)pos | 0x80000000u;
}

struct axon_pt2pt_shm_ring {
    _Alignas(64) _Atomic uint64_t tail; /* slots the receiver has consumed */
    _Atomic uint32_t cma_ok;            /* the receiver can read the sender's memory (process_vm_readv) */
    _Alignas(64) struct axon_pt2pt_shm_record slots[];
};

/* The head of a segment: the rings follow, one per local rank (by local index; our own is unused). */
struct axon_pt2pt_shm_segment {
    _Alignas(64) uint32_t magic;
    uint32_t nlocal;
    uint64_t ring_bytes;      /* slot bytes of each ring */
    _Atomic int32_t attached; /* peers that have mapped this segment */
    int32_t pid;              /* the owner, for single copies from its memory */
    _Atomic int32_t done;     /* the owner has finished with MPI: its process may end (axon_shm_watch) */
    uint64_t probe;           /* the address of a word of the owner's private memory holding probe_value */
    uint64_t probe_value;
};

/* What a reader of this process's memory checks it can see (the segment names its address). */
static volatile uint64_t axon_shm_probe_word;

struct axon_pt2pt_shm axon_pt2pt_shm;

static struct {
    struct axon_pt2pt_shm_segment *own;
    size_t own_size;
    char name[64];
    bool linked;              /* our name is still in /dev/shm */
    int nlocal, local_index;
    int *local_world;         /* local index -> world rank */
    void **mapped;            /* by local index: peers' segments */
    size_t *mapped_size;
    /* Every local peer whose segment we mapped, rings or not: the watchdog's list. */
    struct axon_shm_watched {
        int world, pid;
        unsigned long long start;    /* its process's start time, to tell its pid reused; 0: unknown */
        const _Atomic int32_t *done; /* in its segment: it has finished with MPI */
    } *watched;
    int nwatched;
} axon_shm;

static inline size_t axon_shm_ring_size(uint64_t ring_bytes)
{
    return sizeof(struct axon_pt2pt_shm_ring) + (size_t)ring_bytes;
}

static inline struct axon_pt2pt_shm_ring *axon_shm_ring_at(void *segment, uint64_t ring_bytes, int index)
{
    return (struct axon_pt2pt_shm_ring *)((char *)segment + sizeof(struct axon_pt2pt_shm_segment) +
                                          (size_t)index * axon_shm_ring_size(ring_bytes));
}

/* Where a record's payload starts: after the envelope, or on the next slot for a synchronous send,
 * whose request index comes first. */
static inline size_t axon_shm_payload_offset(bool sync)
{
    return sync ? AXON_SHM_SLOT : AXON_SHM_ENVELOPE;
}

static inline uint64_t axon_shm_slots_for(size_t length, bool sync)
{
    return (axon_shm_payload_offset(sync) + length + AXON_SHM_SLOT - 1) / AXON_SHM_SLOT;
}

static uint64_t axon_shm_pow2_floor(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

/* ---- set-up -------------------------------------------------------------------------------------- */

/* The bytes of each ring among nlocal local ranks. By default the share, up to 1 MiB: a window of
 * mid-size messages (64 of 16 KiB in osu_bw) that overflows a smaller ring goes by UCX at half the speed,
 * while a larger one cycles small messages through more lines than a core's L2 keeps, and their rate
 * drops. */
static uint64_t axon_shm_ring_bytes(int nlocal)
{
    uint64_t fair = axon_shm_pow2_floor(AXON_SHM_SEGMENT_BUDGET / (uint64_t)(nlocal - 1));
    uint64_t ring = axon_config.pt2pt_shm_ring > 0 ? axon_shm_pow2_floor((uint64_t)axon_config.pt2pt_shm_ring)
                                                   : (fair < AXON_SHM_AUTO_RING ? fair : AXON_SHM_AUTO_RING);
    if (ring > fair)
        ring = fair;
    if (ring > AXON_SHM_MAX_RING)
        ring = AXON_SHM_MAX_RING;
    if (ring < AXON_SHM_MIN_RING)
        ring = AXON_SHM_MIN_RING;
    return ring;
}

/* Makes this rank's segment: its rings, or with the rings off (AXON_PT2PT_SHM_MAX=0) only the head,
 * whose pid and done words the node's other ranks watch (axon_shm_watch): a local peer that dies must
 * end the job whichever path the messages take. */
static int axon_shm_create(void)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    if (job->local_size < 2 || job->singleton)
        return MPI_SUCCESS;

    axon_shm.local_world = malloc(sizeof(int) * (size_t)job->size);
    if (!axon_shm.local_world)
        return MPI_ERR_NO_MEM;
    axon_shm.nlocal = 0;
    axon_shm.local_index = -1;
    for (int r = 0; r < job->size; r++) {
        if (job->node_of_rank[r] != job->node)
            continue;
        if (r == job->rank)
            axon_shm.local_index = axon_shm.nlocal;
        axon_shm.local_world[axon_shm.nlocal++] = r;
    }
    if (axon_shm.nlocal < 2)
        return MPI_SUCCESS;

    uint64_t ring = axon_config.pt2pt_shm_max > 0 ? axon_shm_ring_bytes(axon_shm.nlocal) : 0; /* 0: head only */
    axon_shm.own_size = sizeof(struct axon_pt2pt_shm_segment) +
                        (ring ? (size_t)axon_shm.nlocal * axon_shm_ring_size(ring) : 0);
    int fd = axon_runtime_shm_create("pt2pt", (unsigned)job->rank, axon_shm.name, sizeof(axon_shm.name));
    if (fd < 0) {
        axon_runtime_log_error("cannot create the shared memory %s for point-to-point (%s); using UCX only",
                               axon_shm.name, strerror(errno));
        return MPI_SUCCESS;
    }
    axon_shm.linked = true;
    /* Populated now, not on first touch: a page fault per 4 KiB of ring in the middle of the first
     * messages costs more than the messages (the first size of a message-rate run read 30% low). */
    if (ftruncate(fd, (off_t)axon_shm.own_size) != 0) {
        axon_runtime_log_error("cannot size the shared memory %s (%zu bytes): %s; using UCX only", axon_shm.name,
                               axon_shm.own_size, strerror(errno));
        goto err_unlink;
    }
    void *p = mmap(NULL, axon_shm.own_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
        axon_runtime_log_error("cannot map the shared memory %s: %s; using UCX only", axon_shm.name, strerror(errno));
        goto err_unlink;
    }
    close(fd);
    axon_shm.own = p;
    axon_shm.own->nlocal = (uint32_t)axon_shm.nlocal;
    axon_shm.own->ring_bytes = ring;
    atomic_store(&axon_shm.own->attached, 0);
    /* Peers read large messages straight from our memory (process_vm_readv); where Yama restricts
     * ptrace to ancestors, that needs our consent. */
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    axon_shm_probe_word = 0x4178434d41000000ull ^ (uint64_t)getpid();
    axon_shm.own->pid = (int32_t)getpid();
    axon_shm.own->probe = (uint64_t)(uintptr_t)&axon_shm_probe_word;
    axon_shm.own->probe_value = axon_shm_probe_word;
    axon_shm.own->magic = AXON_SHM_MAGIC;
    return MPI_SUCCESS;

err_unlink:
    close(fd);
    shm_unlink(axon_shm.name);
    axon_shm.linked = false;
    return MPI_SUCCESS;
}

int axon_pt2pt_shm_init(void)
{
    int rc = axon_shm_create();
    if (rc != MPI_SUCCESS)
        return rc;
    /* Every rank names its segment, or an empty name when it has none: a peer asks for every local
     * rank's, and a key never put would keep it waiting for PMIx's timeout. */
    const char *name = axon_shm.own ? axon_shm.name : "";
    rc = axon_runtime_bootstrap_put(AXON_SHM_KEY, name, strlen(name) + 1);
    if (rc != MPI_SUCCESS && axon_shm.own) {
        munmap(axon_shm.own, axon_shm.own_size);
        axon_shm.own = NULL;
        shm_unlink(axon_shm.name);
        axon_shm.linked = false;
    }
    return rc;
}

/* Maps the segment of local rank `index`, named under our key by that rank: *seg stays NULL when the
 * rank has none (its rings are off; a peer maps ours only when it has one too, so both sides agree).
 * A segment named but unusable is an error: that rank would write rings we never read. */
static int axon_shm_map_peer(int index, size_t *size, void **seg_out)
{
    *seg_out = NULL;
    int world = axon_shm.local_world[index];
    void *value = NULL;
    size_t len = 0;
    if (axon_runtime_bootstrap_get(world, AXON_SHM_KEY, &value, &len) != MPI_SUCCESS || !value)
        return MPI_ERR_OTHER;
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1), (char *)value);
    free(value);
    if (name[0] == '\0')
        return MPI_SUCCESS; /* it has no rings */
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        axon_runtime_log_error("cannot open rank %d's shared memory %s: %s", world, name, strerror(errno));
        return MPI_ERR_OTHER;
    }
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct axon_pt2pt_shm_segment))
        p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        axon_runtime_log_error("cannot map rank %d's shared memory %s", world, name);
        return MPI_ERR_OTHER;
    }
    struct axon_pt2pt_shm_segment *seg = p;
    /* ring_bytes 0: a head without rings (that rank's rings are off), watched only. */
    if (seg->magic != AXON_SHM_MAGIC || seg->nlocal != (uint32_t)axon_shm.nlocal ||
        (seg->ring_bytes != 0 &&
         (seg->ring_bytes < AXON_SHM_MIN_RING || (seg->ring_bytes & (seg->ring_bytes - 1)) != 0 ||
          (size_t)st.st_size < sizeof(*seg) + (size_t)axon_shm.nlocal * axon_shm_ring_size(seg->ring_bytes)))) {
        axon_runtime_log_error("rank %d's shared memory %s is not what this rank expects", world, name);
        munmap(p, (size_t)st.st_size);
        return MPI_ERR_OTHER;
    }
    *size = (size_t)st.st_size;
    *seg_out = p;
    return MPI_SUCCESS;
}

/* The watchdog (axon_ucx_set_watchdog): a local peer whose process is gone while it had not finished
 * with MPI ended without MPI_Finalize (killed, crashed, or exit() in the middle), and whatever this rank
 * waits for may never come. Our mpirun ends the job itself then; srun, by default, lets the other tasks
 * run on. (Ranks on other nodes are not watched here.) */
/* What /proc says of process pid: 1 running (*start: its start time, in clock ticks after boot), 0 gone
 * or a zombie not reaped yet, -1 unknown (no /proc, or not readable). */
static int axon_shm_proc_state(int pid, unsigned long long *start)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* "pid (comm) state ppid ...": the command may hold spaces and parentheses, so from the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return -1;
    char state = p[2];
    if (state == 'Z' || state == 'X' || state == 'x')
        return 0;
    p += 3;
    for (int field = 4; field < 22 && p; field++) /* to field 22, starttime */
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p, " %llu", start) != 1)
        return -1;
    return 1;
}

/* Whether a peer's process is gone: /proc's word where there is one (a zombie, or its pid now another
 * process's, count as gone), else kill(pid, 0). */
static bool axon_shm_peer_gone(const struct axon_shm_watched *peer)
{
    unsigned long long start = 0;
    int state = axon_shm_proc_state(peer->pid, &start);
    if (state >= 0)
        return state == 0 || (peer->start && start != peer->start);
    return kill(peer->pid, 0) != 0 && errno == ESRCH;
}

static void axon_shm_watch(void)
{
    for (int p = 0; p < axon_shm.nwatched; p++) {
        const struct axon_shm_watched *peer = &axon_shm.watched[p];
        if (atomic_load_explicit(peer->done, memory_order_acquire) || axon_runtime_lost(peer->world) ||
            !axon_shm_peer_gone(peer))
            continue;
        char message[256];
        snprintf(message, sizeof(message), "rank %d (pid %d, on this node) ended without MPI_Finalize", peer->world,
                 peer->pid);
        axon_runtime_peer_lost(peer->world, message);
    }
}

int axon_pt2pt_shm_connect(void)
{
    if (!axon_shm.own)
        return MPI_SUCCESS;
    int n = axon_shm.nlocal;
    axon_shm.mapped = calloc((size_t)n, sizeof(void *));
    axon_shm.mapped_size = calloc((size_t)n, sizeof(size_t));
    axon_pt2pt_shm.peers = calloc((size_t)n, sizeof(struct axon_pt2pt_shm_peer));
    axon_pt2pt_shm.of_world = calloc((size_t)axon_runtime_job.size, sizeof(struct axon_pt2pt_shm_peer *));
    axon_shm.watched = calloc((size_t)n, sizeof(*axon_shm.watched));
    if (!axon_shm.mapped || !axon_shm.mapped_size || !axon_pt2pt_shm.peers || !axon_pt2pt_shm.of_world ||
        !axon_shm.watched)
        return MPI_ERR_NO_MEM;

    int expected = 0;
    for (int i = 0; i < n; i++) {
        if (i == axon_shm.local_index)
            continue;
        void *seg;
        int rc = axon_shm_map_peer(i, &axon_shm.mapped_size[i], &seg);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!seg)
            continue;
        axon_shm.mapped[i] = seg;
        expected++;
        struct axon_pt2pt_shm_segment *ps = seg;
        atomic_fetch_add_explicit(&ps->attached, 1, memory_order_acq_rel);
        struct axon_shm_watched *w = &axon_shm.watched[axon_shm.nwatched++];
        w->world = axon_shm.local_world[i];
        w->pid = ps->pid;
        w->done = &ps->done;
        if (axon_shm_proc_state(ps->pid, &w->start) != 1)
            w->start = 0;
        /* Rings only where both sides have them. */
        if (ps->ring_bytes == 0 || axon_shm.own->ring_bytes == 0)
            continue;
        struct axon_pt2pt_shm_peer *peer = &axon_pt2pt_shm.peers[axon_pt2pt_shm.npeers];
        peer->world = axon_shm.local_world[i];
        peer->out = axon_shm_ring_at(seg, ps->ring_bytes, axon_shm.local_index);
        peer->in = axon_shm_ring_at(axon_shm.own, axon_shm.own->ring_bytes, i);
        peer->pid = ps->pid;
        /* Whether we can read its memory: tried once on a word it named; it learns the answer from
         * its ring in our segment, and until then sends large messages by UCX. */
        uint64_t seen = 0;
        struct iovec local = {&seen, sizeof(seen)}, remote = {(void *)(uintptr_t)ps->probe, sizeof(seen)};
        bool readable = axon_config.pt2pt_cma && process_vm_readv(ps->pid, &local, 1, &remote, 1, 0) ==
                                                      (ssize_t)sizeof(seen) && seen == ps->probe_value;
        atomic_store_explicit(&peer->in->cma_ok, readable, memory_order_release);
        peer->out_nslots = ps->ring_bytes / AXON_SHM_SLOT;
        /* Our page tables for the ring we write, filled now rather than by faults while sending. */
        for (uint64_t off = 0; off < ps->ring_bytes; off += 4096)
            (void)atomic_load_explicit(&((struct axon_pt2pt_shm_record *)((char *)peer->out->slots + off))->seq,
                                       memory_order_relaxed);
        peer->in_nslots = axon_shm.own->ring_bytes / AXON_SHM_SLOT;
        axon_pt2pt_shm.npeers++;
    }

    /* Our name goes once every peer that uses us has mapped us: they do so right after the exchange, as
     * we did, so this wait is short; a peer that died meanwhile ends the job through the launcher. */
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load_explicit(&axon_shm.own->attached, memory_order_acquire) < expected) {
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 120) {
            axon_runtime_log_error("local ranks did not map this rank's shared memory within 2 minutes");
            return MPI_ERR_OTHER;
        }
    }
    shm_unlink(axon_shm.name);
    axon_shm.linked = false;

    if (axon_shm.nwatched > 0)
        axon_ucx_set_watchdog(axon_shm_watch);
    if (axon_pt2pt_shm.npeers == 0)
        return MPI_SUCCESS;
    /* The largest payload: a quarter of the smallest ring, so several fit at once; never beyond the
     * eager limit, which asks for rendezvous above it. Where two copies through a ring beat the single
     * copy (a system call and the kernel's copy) is the machine's: AXON_PT2PT_SHM_MAX moves it
     * (bench/results/2026-11-26-pt2pt-node.md, 2026-11-30-issue27-memkind-request.md). */
    uint64_t smallest = UINT64_MAX;
    for (int p = 0; p < axon_pt2pt_shm.npeers; p++) {
        struct axon_pt2pt_shm_peer *peer = &axon_pt2pt_shm.peers[p];
        axon_pt2pt_shm.of_world[peer->world] = peer;
        uint64_t bytes = peer->out_nslots * AXON_SHM_SLOT;
        if (bytes < smallest)
            smallest = bytes;
    }
    uint64_t max = (uint64_t)axon_config.pt2pt_shm_max;
    if (max > smallest / 4)
        max = smallest / 4;
    if (axon_config.eager_limit >= 0 && max > (uint64_t)axon_config.eager_limit)
        max = (uint64_t)axon_config.eager_limit;
    axon_pt2pt_shm.max = max;
    axon_pt2pt_shm.below = max + 1;
    int readable = 0;
    for (int p = 0; p < axon_pt2pt_shm.npeers; p++)
        readable += atomic_load(&axon_pt2pt_shm.peers[p].in->cma_ok) != 0;
    axon_runtime_log_debug(1, "point-to-point rings with %d local rank(s): %llu-byte rings, messages up to %zu bytes; "
                           "larger ones read from the memory of %d of them",
                           axon_pt2pt_shm.npeers, (unsigned long long)axon_shm.own->ring_bytes, axon_pt2pt_shm.max,
                           readable);
    return MPI_SUCCESS;
}

void axon_pt2pt_shm_finalize(void)
{
    if (axon_shm.own)
        atomic_store_explicit(&axon_shm.own->done, 1, memory_order_release);
}

void axon_pt2pt_shm_release(void)
{
    axon_ucx_set_watchdog(NULL);
    for (int i = 0; axon_shm.mapped && i < axon_shm.nlocal; i++)
        if (axon_shm.mapped[i])
            munmap(axon_shm.mapped[i], axon_shm.mapped_size[i]);
    if (axon_shm.own)
        munmap(axon_shm.own, axon_shm.own_size);
    if (axon_shm.linked)
        shm_unlink(axon_shm.name);
    free(axon_shm.mapped);
    free(axon_shm.mapped_size);
    free(axon_shm.watched);
    axon_shm.watched = NULL;
    axon_shm.nwatched = 0;
    free(axon_shm.local_world);
    free(axon_pt2pt_shm.peers);
    free(axon_pt2pt_shm.of_world);
    memset(&axon_shm, 0, sizeof(axon_shm));
    memset(&axon_pt2pt_shm, 0, sizeof(axon_pt2pt_shm));
}

/* ---- sending ------------------------------------------------------------------------------------- */

static inline struct axon_pt2pt_shm_record *axon_shm_slot(struct axon_pt2pt_shm_ring *ring, uint64_t nslots,
                                                          uint64_t pos)
{
    return &ring->slots[pos & (nslots - 1)];
}

/* Publishes the record of `slots` slots at pos: the next record's first word zeroed, then the stamp. The
 * room checks count that slot (AXON_SHM_NEXT). */
#define AXON_SHM_NEXT 1u
static inline void axon_shm_publish(struct axon_pt2pt_shm_peer *peer, struct axon_pt2pt_shm_record *rec, uint64_t pos,
                                    uint64_t slots)
{
    atomic_store_explicit(&axon_shm_slot(peer->out, peer->out_nslots, pos + slots)->seq, 0, memory_order_relaxed);
    atomic_store_explicit(&rec->seq, axon_shm_stamp(pos), memory_order_release);
}

/* Makes room for a record of `slots` slots at the sender's head: a pad record first when the record
 * would wrap, or when a record of one line's size would straddle two. False when the ring has no room
 * (even after a fresh look at the receiver's tail). */
static bool axon_shm_make_room(struct axon_pt2pt_shm_peer *peer, uint64_t slots)
{
    const uint64_t per_line = AXON_SHM_LINE / AXON_SHM_SLOT;
    uint64_t nslots = peer->out_nslots;
    uint64_t pos = peer->out_head;
    uint64_t at = pos & (nslots - 1);
    uint64_t pad = 0;
    if (slots > nslots - at)
        pad = nslots - at;
    else if (slots > 1 && slots <= per_line && at / per_line != (at + slots - 1) / per_line)
        pad = per_line - at % per_line;
    if (pos + pad + slots + AXON_SHM_NEXT - peer->out_tail_seen > nslots) {
        peer->out_tail_seen = atomic_load_explicit(&peer->out->tail, memory_order_acquire);
        if (pos + pad + slots + AXON_SHM_NEXT - peer->out_tail_seen > nslots)
            return false;
    }
    if (pad) {
        struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->out, nslots, pos);
        rec->length_flags = AXON_SHM_F_PAD | (uint32_t)pad;
        axon_shm_publish(peer, rec, pos, pad);
        peer->out_head = pos + pad;
    }
    return true;
}

void *axon_pt2pt_shm_reserve(struct axon_pt2pt_shm_peer *peer, size_t length, bool sync)
{
    if (!axon_shm_make_room(peer, axon_shm_slots_for(length, sync)))
        return NULL;
    return (char *)axon_shm_slot(peer->out, peer->out_nslots, peer->out_head) + axon_shm_payload_offset(sync);
}

bool axon_pt2pt_shm_send_eager(struct axon_pt2pt_shm_peer *peer, uint32_t context_id, int source, int tag,
                               const void *data, size_t length)
{
    uint64_t slots = axon_shm_slots_for(length, false);
    uint64_t pos = peer->out_head;
    /* A one-slot record never needs a pad: the common case skips make_room unless the ring looks full. */
    if ((slots > 1 || pos + 1 + AXON_SHM_NEXT - peer->out_tail_seen > peer->out_nslots) &&
        !axon_shm_make_room(peer, slots))
        return false;
    pos = peer->out_head;
    struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->out, peer->out_nslots, pos);
    if (length <= AXON_SHM_SLOT - AXON_SHM_ENVELOPE)
        axon_shm_copy_small(rec->payload, data, length);
    else
        memcpy(rec->payload, data, length);
    rec->length_flags = (uint32_t)length;
    rec->context_id = context_id;
    rec->source = source;
    rec->tag = tag;
    rec->ucx_before = peer->ucx_sent;
    axon_shm_publish(peer, rec, pos, slots);
    peer->out_head = pos + slots;
    peer->shm_sent++;
    return true;
}

void axon_pt2pt_shm_commit(struct axon_pt2pt_shm_peer *peer, const struct axon_pt2pt_hdr *hdr, size_t length)
{
    uint64_t pos = peer->out_head;
    bool sync = (hdr->flags & AXON_PT2PT_FLAG_SYNC) != 0;
    struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->out, peer->out_nslots, pos);
    rec->length_flags = (uint32_t)length | (sync ? AXON_SHM_F_SYNC : 0) |
                        ((hdr->flags & AXON_PT2PT_FLAG_IPC) ? AXON_SHM_F_IPC : 0) |
                        ((hdr->flags & AXON_PT2PT_FLAG_CMA) ? AXON_SHM_F_CMA : 0) |
                        ((hdr->flags & AXON_PT2PT_FLAG_PIPE) ? AXON_SHM_F_PIPE : 0);
    rec->context_id = hdr->context_id;
    rec->source = hdr->source;
    rec->tag = hdr->tag;
    rec->ucx_before = peer->ucx_sent;
    if (sync)
        memcpy(rec->payload, &hdr->sync_index, sizeof(hdr->sync_index));
    uint64_t slots = axon_shm_slots_for(length, sync);
    axon_shm_publish(peer, rec, pos, slots);
    peer->out_head = pos + slots;
    peer->shm_sent++;
}

/* Whether `slots` more slots (pads included) fit in the ring to peer now. */
static bool axon_shm_has_room(struct axon_pt2pt_shm_peer *peer, uint64_t slots)
{
    if (peer->out_head + slots + AXON_SHM_NEXT - peer->out_tail_seen <= peer->out_nslots)
        return true;
    peer->out_tail_seen = atomic_load_explicit(&peer->out->tail, memory_order_acquire);
    return peer->out_head + slots + AXON_SHM_NEXT - peer->out_tail_seen <= peer->out_nslots;
}

/* Writes a control record (no message: nothing to match, no order to keep against UCX) of payload
 * bytes after the envelope; false when the ring is full. */
static bool axon_shm_send_control(struct axon_pt2pt_shm_peer *peer, uint32_t flag, int32_t tag, const void *payload,
                                  size_t length)
{
    uint64_t slots = axon_shm_slots_for(length, false);
    if (!axon_shm_make_room(peer, slots))
        return false;
    uint64_t pos = peer->out_head;
    struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->out, peer->out_nslots, pos);
    memcpy(rec->payload, payload, length);
    rec->length_flags = flag | (uint32_t)length;
    rec->tag = tag;
    axon_shm_publish(peer, rec, pos, slots);
    peer->out_head = pos + slots;
    return true;
}

/* A write request's payload: the request, then the word that the sender or the receiver claims. */
struct axon_shm_put_payload {
    struct axon_pt2pt_cma_put put;
    _Atomic uint32_t claim; /* 0 free; 1 the sender writes; 2 the receiver took it back */
};
_Static_assert(AXON_SHM_ENVELOPE + sizeof(struct axon_shm_put_payload) <= AXON_SHM_LINE,
               "a write request is one line");

_Atomic uint32_t *axon_pt2pt_shm_send_put(struct axon_pt2pt_shm_peer *peer, const struct axon_pt2pt_cma_put *put)
{
    /* The request (with a pad before it at worst) and the acknowledgement after it. */
    struct axon_shm_put_payload payload = {.put = *put};
    uint64_t slots = axon_shm_slots_for(sizeof(payload), false);
    if (!axon_shm_has_room(peer, slots + (AXON_SHM_LINE / AXON_SHM_SLOT - 1) + 1))
        return NULL;
    if (!axon_shm_send_control(peer, AXON_SHM_F_PUT, 0, &payload, sizeof(payload)))
        return NULL;
    /* Where it went: after a pad, if one was needed, so it ends where the head is now. */
    struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->out, peer->out_nslots, peer->out_head - slots);
    return &((struct axon_shm_put_payload *)(void *)rec->payload)->claim;
}

/* Moves bytes between our memory (mine) and the peer's (theirs) with process_vm_readv or _writev, which
 * take the same arguments, resuming after partial transfers. */
static int axon_shm_cma_move(struct axon_pt2pt_shm_peer *peer, bool write, char *mine, uint64_t theirs, size_t bytes)
{
    ssize_t (*move)(pid_t, const struct iovec *, unsigned long, const struct iovec *, unsigned long,
                    unsigned long) = write ? process_vm_writev : process_vm_readv;
    while (bytes > 0) {
        struct iovec local = {mine, bytes}, remote = {(void *)(uintptr_t)theirs, bytes};
        ssize_t n = move(peer->pid, &local, 1, &remote, 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            axon_runtime_log_error("%s %zu bytes of a message %s rank %d's memory failed: %s",
                                   write ? "writing" : "reading", bytes, write ? "into" : "from", peer->world,
                                   n < 0 ? strerror(errno) : "nothing moved");
            return MPI_ERR_OTHER;
        }
        mine += n;
        theirs += (uint64_t)n;
        bytes -= (size_t)n;
    }
    return MPI_SUCCESS;
}

/* A receiver asks us to write part of a message we sent it. The answer must go through the ring (a
 * receive waits for it there): without room for it, the request stays at the head of the ring and is
 * taken again at the next poll, once the receiver, polling for the answer, has made room. */
static bool axon_shm_take_put(struct axon_pt2pt_shm_peer *peer, struct axon_pt2pt_shm_record *rec)
{
    if (!axon_shm_has_room(peer, AXON_SHM_LINE / AXON_SHM_SLOT))
        return false;
    struct axon_shm_put_payload *payload = (void *)rec->payload;
    uint32_t free_word = 0;
    if (!atomic_compare_exchange_strong_explicit(&payload->claim, &free_word, 1, memory_order_acq_rel,
                                                 memory_order_acquire))
        return true; /* the receiver copied it itself, and waits for no answer */
    struct axon_pt2pt_cma_put put = payload->put;
    int rc = axon_shm_cma_move(peer, true, (char *)(uintptr_t)put.src, put.dst, (size_t)put.bytes);
    bool sent = axon_shm_send_control(peer, AXON_SHM_F_DONE, rc != MPI_SUCCESS, &put.done, sizeof(put.done));
    (void)sent; /* room was made sure of above */
    return true;
}

bool axon_pt2pt_shm_send_ack(struct axon_pt2pt_shm_peer *peer, uint32_t sync_index)
{
    if (!axon_shm_make_room(peer, 1))
        return false;
    uint64_t pos = peer->out_head;
    struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->out, peer->out_nslots, pos);
    rec->length_flags = AXON_SHM_F_ACK;
    rec->tag = (int32_t)sync_index;
    axon_shm_publish(peer, rec, pos, 1);
    peer->out_head = pos + 1;
    return true;
}

/* ---- receiving ----------------------------------------------------------------------------------- */

/* Hands `slots` consumed slots from pos back to the sender (nothing written into them: the sender
 * zeroes where the next record starts). */
static inline void axon_shm_release(struct axon_pt2pt_shm_peer *peer, uint64_t pos, uint64_t slots)
{
    peer->in_tail = pos + slots;
    atomic_store_explicit(&peer->in->tail, peer->in_tail, memory_order_release);
}

/* Takes the record at the head of peer's ring, if one is there and may go now (no active message it
 * must follow is still missing). Returns 1 for a message or an acknowledgement taken, 0 otherwise. */
static int axon_shm_take_one(struct axon_pt2pt_shm_peer *peer)
{
    for (;;) {
        uint64_t pos = peer->in_tail;
        struct axon_pt2pt_shm_record *rec = axon_shm_slot(peer->in, peer->in_nslots, pos);
        if (atomic_load_explicit(&rec->seq, memory_order_acquire) != axon_shm_stamp(pos))
            return 0;
        uint32_t lf = rec->length_flags;
        if (lf & AXON_SHM_F_PAD) {
            axon_shm_release(peer, pos, lf & AXON_SHM_LENGTH_MASK);
            continue;
        }
        if (lf & AXON_SHM_F_ACK) {
            uint32_t index = (uint32_t)rec->tag;
            axon_shm_release(peer, pos, 1);
            axon_pt2pt_sync_acked(index);
            return 1;
        }
        if (lf & AXON_SHM_F_PUT) {
            if (!axon_shm_take_put(peer, rec))
                return 0;
            axon_shm_release(peer, pos, axon_shm_slots_for(lf & AXON_SHM_LENGTH_MASK, false));
            return 1;
        }
        if (lf & AXON_SHM_F_DONE) {
            uint64_t done;
            memcpy(&done, rec->payload, sizeof(done));
            bool failed = rec->tag != 0;
            axon_shm_release(peer, pos, 1);
            axon_pt2pt_cma_put_done(done, failed);
            return 1;
        }
        if ((int32_t)(rec->ucx_before - peer->ucx_recvd) > 0)
            return 0; /* an active message sent before it has not arrived yet */
        size_t length = lf & AXON_SHM_LENGTH_MASK;
        bool sync = (lf & AXON_SHM_F_SYNC) != 0;
        struct axon_pt2pt_hdr hdr = {
            .context_id = rec->context_id,
            .source = rec->source,
            .tag = rec->tag,
            .flags = (sync ? AXON_PT2PT_FLAG_SYNC : 0) | ((lf & AXON_SHM_F_IPC) ? AXON_PT2PT_FLAG_IPC : 0) |
                     ((lf & AXON_SHM_F_CMA) ? AXON_PT2PT_FLAG_CMA : 0) | ((lf & AXON_SHM_F_PIPE) ? AXON_PT2PT_FLAG_PIPE : 0),
            .sync_world_rank = peer->world,
        };
        if (sync)
            memcpy(&hdr.sync_index, rec->payload, sizeof(hdr.sync_index));
        /* The payload is read in place: delivered into a posted receive, or copied when unexpected. */
        axon_pt2pt_arrive(&hdr, (char *)rec + axon_shm_payload_offset(sync), length, 0);
        peer->shm_recvd++;
        axon_shm_release(peer, pos, axon_shm_slots_for(length, sync));
        return 1;
    }
}

void axon_pt2pt_shm_drain(struct axon_pt2pt_shm_peer *peer, uint32_t shm_before)
{
    /* Those records were published before the active message was sent, and UCX's delivery of it
     * orders them before us: each is there (the loop only waits out the pause of a store in flight). */
    while ((int32_t)(shm_before - peer->shm_recvd) > 0)
        if (!axon_shm_take_one(peer))
            sched_yield();
}

int axon_pt2pt_shm_poll(void)
{
    int taken = 0;
    for (int p = 0; p < axon_pt2pt_shm.npeers; p++) {
        struct axon_pt2pt_shm_peer *peer = &axon_pt2pt_shm.peers[p];
        for (int n = 0; n < AXON_SHM_POLL_BATCH && axon_shm_take_one(peer); n++)
            taken++;
    }
    return taken;
}

bool axon_pt2pt_shm_cma_ok(struct axon_pt2pt_shm_peer *peer)
{
    return atomic_load_explicit(&peer->out->cma_ok, memory_order_acquire) != 0;
}

int axon_pt2pt_shm_cma_read(struct axon_pt2pt_shm_peer *peer, void *dst, uint64_t src, size_t bytes)
{
    return axon_shm_cma_move(peer, false, dst, src, bytes);
}
