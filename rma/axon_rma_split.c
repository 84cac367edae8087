/* A large single copy shared with its target: a put or get of one piece of a node peer's own memory
 * (MPI_Win_create) is cut into chunks that the origin and, when it happens to be in MPI, the target copy
 * at once, each on its own core, both by process_vm_readv/_writev (the origin from its side, the target
 * from its own). One kernel copy runs at a fraction of memory bandwidth; two in parallel come near it.
 * The target stays passive: the origin claims chunks itself from the start and finishes alone when
 * the target does not look (computing, or out of MPI), so it never waits for the target, only for the
 * chunks the target has claimed to end.
 *
 * The job is posted in the target's control block (struct axon_rma_help): an owner word (one origin at
 * a time; others copy alone), the job word (a generation, the chunk count and the next chunk to claim,
 * so that one compare-and-swap both validates the job and claims a chunk), the chunks done, and what the
 * copy is. A helper reads the description only after a successful claim: the origin cannot end a job,
 * and so cannot rewrite it, while a claimed chunk is not done. A helper whose copy fails marks the job
 * failed, and the origin copies everything again itself (a put or get may move the same bytes twice). */
#include "rma/axon_rma_internal.h"

#include "runtime/runtime.h"

#include <string.h>
#include <unistd.h>

/* A chunk: an eighth of the copy, so that both sides have several to claim, within bounds that keep the
 * system calls few and the tail short. */
static uint64_t axon_rma_split_chunk(uint64_t bytes)
{
    uint64_t c = (bytes / 8 + 4095) & ~(uint64_t)4095;
    return c < ((uint64_t)16 << 10) ? (uint64_t)16 << 10 : c > ((uint64_t)256 << 10) ? (uint64_t)256 << 10 : c;
}

/* The job word: generation (24 bits), chunk count (20), next chunk (20). */
#define AXON_RMA_JOB(gen, n, next) (((uint64_t)(gen) << 40) | ((uint64_t)(n) << 20) | (uint64_t)(next))
#define AXON_RMA_JOB_GEN(j) ((uint32_t)((j) >> 40))
#define AXON_RMA_JOB_N(j) ((uint32_t)(((j) >> 20) & 0xfffff))
#define AXON_RMA_JOB_NEXT(j) ((uint32_t)((j)&0xfffff))

/* One chunk (or everything): between the origin's buffer (in the origin's process) and the target's
 * memory, moved by this process; to_remote: write into pid's memory. */
static bool axon_rma_split_move(pid_t pid, bool to_remote, void *local, uint64_t remote, size_t len)
{
    const struct axon_rma_seg seg = {.off = 0, .len = (int64_t)len};
    return len == 0 || axon_rma_cma_move(pid, to_remote, local, remote, &seg, 1) == MPI_SUCCESS;
}

/* Claims the next chunk of job generation gen: its index, or -1 when none is left (or the job is gone). */
static int64_t axon_rma_split_claim(struct axon_rma_help *h, uint32_t gen)
{
    uint64_t j = atomic_load_explicit(&h->job, memory_order_acquire);
    for (;;) {
        if (AXON_RMA_JOB_GEN(j) != gen || AXON_RMA_JOB_NEXT(j) >= AXON_RMA_JOB_N(j))
            return -1;
        if (atomic_compare_exchange_weak_explicit(&h->job, &j, j + 1, memory_order_acq_rel, memory_order_acquire))
            return AXON_RMA_JOB_NEXT(j);
    }
}

static uint64_t axon_rma_split_len(uint64_t total, uint64_t size, int64_t chunk)
{
    uint64_t at = (uint64_t)chunk * size;
    return total - at < size ? total - at : size;
}

struct axon_rma_split_wait {
    struct axon_rma_help *h;
    uint32_t n;
};

static bool axon_rma_split_all_done(void *arg)
{
    const struct axon_rma_split_wait *sw = arg;
    return atomic_load_explicit(&sw->h->done, memory_order_acquire) >= sw->n;
}

bool axon_rma_split_worth(int64_t bytes)
{
    return bytes >= AXON_RMA_SPLIT_MIN;
}

int axon_rma_split_copy(struct axon_rma_ctrl *ctrl, pid_t pid, bool put, char *local, uint64_t remote,
                        uint64_t bytes)
{
    struct axon_rma_help *h = &ctrl->help;
    uint32_t none = 0, me = (uint32_t)getpid();
    uint64_t size = axon_rma_split_chunk(bytes), n = (bytes + size - 1) / size;
    bool shared = n <= 0xfffff &&
                  atomic_compare_exchange_strong_explicit(&h->owner, &none, me, memory_order_acquire,
                                                          memory_order_relaxed);
    if (!shared)
        return axon_rma_split_move(pid, put, local, remote, (size_t)bytes) ? MPI_SUCCESS : MPI_ERR_OTHER;
    /* The description first, then the job word that publishes it. */
    uint32_t gen = (AXON_RMA_JOB_GEN(atomic_load_explicit(&h->job, memory_order_relaxed)) + 1) & 0xffffff;
    if (gen == 0)
        gen = 1;
    h->origin_pid = (int32_t)me;
    h->put = put;
    h->origin_addr = (uint64_t)(uintptr_t)local;
    h->target_addr = remote;
    h->bytes = bytes;
    h->chunk = (uint32_t)size;
    atomic_store_explicit(&h->done, 0, memory_order_relaxed);
    atomic_store_explicit(&h->failed, 0, memory_order_relaxed);
    atomic_store_explicit(&h->job, AXON_RMA_JOB(gen, n, 0), memory_order_release);
    bool ok = true;
    for (int64_t c; (c = axon_rma_split_claim(h, gen)) >= 0;) {
        uint64_t at = (uint64_t)c * size;
        ok &= axon_rma_split_move(pid, put, local + at, remote + at, (size_t)axon_rma_split_len(bytes, size, c));
        atomic_fetch_add_explicit(&h->done, 1, memory_order_release);
    }
    /* Every chunk is claimed: wait for those the target copies (a chunk's copy), progressing meanwhile,
     * so that a target lost in the middle of one ends the job with its name instead of a hang. */
    struct axon_rma_split_wait sw = {h, (uint32_t)n};
    if (!axon_rma_split_all_done(&sw))
        axon_ucx_wait(axon_rma_split_all_done, &sw);
    bool helper_failed = atomic_load_explicit(&h->failed, memory_order_acquire) != 0;
    atomic_store_explicit(&h->owner, 0, memory_order_release);
    if (ok && helper_failed)
        ok = axon_rma_split_move(pid, put, local, remote, (size_t)bytes);
    return ok ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* Set once a helper's copy failed (the kernel refuses this process the origins' memory): it stops
 * offering, since each failure makes the origin copy everything twice. */
static bool axon_rma_split_refused;

bool axon_rma_split_help(struct axon_rma_ctrl *ctrl)
{
    if (!ctrl || axon_rma_split_refused)
        return false;
    struct axon_rma_help *h = &ctrl->help;
    uint64_t j = atomic_load_explicit(&h->job, memory_order_acquire);
    if (AXON_RMA_JOB_NEXT(j) >= AXON_RMA_JOB_N(j))
        return false;
    uint32_t gen = AXON_RMA_JOB_GEN(j);
    int chunks = 0;
    for (int64_t c; (c = axon_rma_split_claim(h, gen)) >= 0; chunks++) {
        /* Stable while the claimed chunk is not done. */
        pid_t pid = h->origin_pid;
        uint64_t size = h->chunk, at = (uint64_t)c * size;
        char *mine = (char *)(uintptr_t)(h->target_addr + at);
        /* A put: the target reads the origin's bytes into its memory; a get: writes its bytes there. */
        if (!axon_rma_split_move(pid, !h->put, mine, h->origin_addr + at,
                                 (size_t)axon_rma_split_len(h->bytes, size, c))) {
            atomic_store_explicit(&h->failed, 1, memory_order_relaxed);
            axon_rma_split_refused = true;
        }
        atomic_fetch_add_explicit(&h->done, 1, memory_order_release);
    }
    if (chunks > 0)
        axon_runtime_log_debug(2, "one-sided: copied %d of %u chunks of a node peer's large copy", chunks,
                               AXON_RMA_JOB_N(j));
    return chunks > 0;
}
