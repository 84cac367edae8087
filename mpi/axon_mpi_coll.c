/* The blocking collectives (MPI_Barrier ... MPI_Exscan) and what they share with the nonblocking
 * (mpi/axon_mpi_icoll.c), persistent (mpi/axon_mpi_coll_persist.c) and neighborhood ones: the plan of
 * each call (its argument checks, the user's buffers as blocks), the schedule of a plan (coll/coll.h) on
 * the communicator's internal context with a tag from its collective sequence number, and the run:
 * blocking calls start the schedule and wait for it, nonblocking ones hand back its request. A blocking
 * call on a communicator within one node may instead run through the node's shared memory
 * (coll/axon_coll_shm.h).
 * An intercommunicator's collectives are schedules too (coll/axon_coll_inter.c). */
#include "mpi/axon_mpi_coll.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_op.h"
#include "coll/axon_coll_shm.h"
#include "coll/coll.h"
#include "cuda_support/cuda_support.h"
#include "mpi/axon_mpi_comm.h"
#include "runtime/runtime.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- plans: building and running ------------------------------------------------------------------ */

/* The block arrays of a plan: a communicator keeps the two of its last call, so that a stream of small
 * collectives does not pay malloc and free for them (a third of a 2-rank 8-byte MPI_Alltoall's time on
 * the VM). An array taken here has at least axon_coll_peers(c) entries, zeroed, so any may go back to
 * the communicator; an array may serve any call whose n is no more than that.
 * Plain loads and stores, no read-modify-write: only a collective call on c takes or gives (a persistent
 * request's arrays are never given), and threads that call collectives on one communicator must order
 * those calls by their own synchronization (MPI 4.1, 11.6.2), so two never run at once (the node's
 * shared-memory path counts on that too). The four locked exchanges this spares cost 17 ns of a 2-rank
 * 8-byte alltoall's 175 on the VM. */
static struct axon_coll_block *axon_coll_blocks_take(struct axon_comm *c, int n)
{
    int peers = axon_coll_peers(c);
    if (n <= peers) {
        for (int i = 0; i < 2; i++) {
            struct axon_coll_block *b = atomic_load_explicit(&c->spare_blocks[i], memory_order_relaxed);
            if (b) {
                atomic_store_explicit(&c->spare_blocks[i], NULL, memory_order_relaxed);
                memset(b, 0, sizeof(*b) * (size_t)(n > 0 ? n : 1));
                return b;
            }
        }
    }
    n = n > peers ? n : peers;
    return calloc((size_t)(n > 0 ? n : 1), sizeof(struct axon_coll_block));
}

/* Hands an array from axon_coll_blocks_take back to c (freed if c keeps two already). */
static void axon_coll_blocks_give(struct axon_comm *c, struct axon_coll_block *b)
{
    for (int i = 0; b && i < 2; i++) {
        if (!atomic_load_explicit(&c->spare_blocks[i], memory_order_relaxed)) {
            atomic_store_explicit(&c->spare_blocks[i], b, memory_order_relaxed);
            return;
        }
    }
    free(b);
}

/* The bytes n blocks hold. */
static int64_t axon_coll_blocks_bytes(const struct axon_coll_block *blocks, int n)
{
    int64_t bytes = 0;
    for (int j = 0; j < n; j++)
        bytes += blocks[j].count * blocks[j].dt.size;
    return bytes;
}

/* A plan of kind for c, empty otherwise. */
static void axon_coll_plan_begin(struct axon_mpi_coll_plan *p, enum axon_mpi_coll_kind kind, struct axon_comm *c)
{
    *p = (struct axon_mpi_coll_plan){.kind = kind, .c = c, .datatype = MPI_DATATYPE_NULL};
}

/* The schedule of a plan on an intercommunicator (coll/axon_coll_inter.c). */
static void axon_coll_plan_sched_inter(const struct axon_mpi_coll_plan *p, struct axon_coll_sched *s)
{
    struct axon_comm *c = p->c;
    const struct axon_coll_inter ic = {&c->coll, &c->local_comm->coll, c->rank, c->size, c->remote_size};
    switch (p->kind) {
    case AXON_MPI_COLL_BARRIER:
        axon_coll_inter_barrier(s, &ic);
        break;
    case AXON_MPI_COLL_BCAST:
        axon_coll_inter_bcast(s, &ic, p->mine.buf, p->mine.count, &p->mine.dt, p->root);
        break;
    case AXON_MPI_COLL_GATHER:
        axon_coll_inter_gather(s, &ic, &p->mine, p->rblocks, p->root);
        break;
    case AXON_MPI_COLL_SCATTER:
        axon_coll_inter_scatter(s, &ic, p->sblocks, &p->mine, p->root);
        break;
    case AXON_MPI_COLL_ALLGATHER:
        axon_coll_inter_allgather(s, &ic, &p->mine, p->rblocks);
        break;
    case AXON_MPI_COLL_ALLTOALL:
        axon_coll_inter_alltoall(s, &ic, p->sblocks, p->rblocks);
        break;
    case AXON_MPI_COLL_REDUCTION:
        axon_coll_sched_set_op(s, p->op, p->datatype, &p->dt);
        switch (p->red) {
        case AXON_MPI_RED_REDUCE:
            axon_coll_inter_reduce(s, &ic, p->in, p->out, p->count, &p->dt, p->root);
            break;
        case AXON_MPI_RED_ALLREDUCE:
            axon_coll_inter_allreduce(s, &ic, p->in, p->out, p->count, &p->dt);
            break;
        case AXON_MPI_RED_SCATTER_BLOCK:
        case AXON_MPI_RED_SCATTER:
            axon_coll_inter_reduce_scatter(s, &ic, p->in, p->out, p->counts, &p->dt,
                                           p->red == AXON_MPI_RED_SCATTER_BLOCK ? AXON_COLL_NEEDS_UNIFORM : 0);
            break;
        case AXON_MPI_RED_SCAN:
        case AXON_MPI_RED_EXSCAN:
            break; /* refused by the plan */
        }
        break;
    case AXON_MPI_COLL_NEIGHBOR:
        break; /* no topology on an intercommunicator */
    }
}

/* The communicator's node map (coll/axon_coll_hier.h), made at its first collective from the runtime's
 * nodes (AXON_TOPO's when set); NULL when out of memory, which leaves the flat algorithms. Every member
 * makes it from the same job-wide table, so all agree on which compositions apply. */
static const struct axon_coll_nodes *axon_mpi_coll_nodes(struct axon_comm *c)
{
    int state = atomic_load_explicit(&c->nodes_state, memory_order_acquire);
    if (state != 0)
        return state > 0 ? c->nodes : NULL;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (atomic_load_explicit(&c->nodes_state, memory_order_relaxed) == 0) {
        struct axon_coll_nodes *nodes = malloc(sizeof(*nodes));
        int *ids = malloc(sizeof(int) * (size_t)c->size);
        bool ok = nodes && ids;
        for (int r = 0; ok && r < c->size; r++)
            ids[r] = axon_runtime_job.node_of_rank[c->group->world[r]];
        ok = ok && axon_coll_nodes_build(nodes, ids, c->size, axon_runtime_job.num_nodes) == MPI_SUCCESS;
        free(ids);
        if (!ok) {
            free(nodes);
            nodes = NULL;
        }
        c->nodes = nodes;
        atomic_store_explicit(&c->nodes_state, ok ? 1 : -1, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    return atomic_load_explicit(&c->nodes_state, memory_order_acquire) > 0 ? c->nodes : NULL;
}

int axon_mpi_coll_plan_sched(const struct axon_mpi_coll_plan *p, struct axon_coll_sched **sp)
{
    struct axon_comm *c = p->c;
    unsigned seq = p->seq_fixed ? p->seq : atomic_fetch_add_explicit(&c->coll_seq, 1u, memory_order_relaxed);
    struct axon_coll_sched *s;
    /* An intercommunicator's schedule starts on the bridge: its peers are the remote group. */
    int rc = axon_coll_sched_create(&c->coll, c->rank, c->is_inter ? c->remote_size : c->size,
                                    (int)(seq % (unsigned)AXON_COMM_TAG_BASE), &s);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->is_inter) {
        axon_coll_plan_sched_inter(p, s);
        *sp = s;
        return MPI_SUCCESS;
    }
    axon_coll_sched_set_nodes(s, axon_mpi_coll_nodes(c));
    if (p->on_gpu)
        axon_coll_sched_set_gpu(s, p->gpu_device, p->gpu_kernel);
    if (p->all_device)
        axon_coll_sched_set_all_device(s);
    const struct axon_coll_block *mine = p->in_place ? NULL : &p->mine;
    switch (p->kind) {
    case AXON_MPI_COLL_BARRIER:
        axon_coll_barrier(s);
        break;
    case AXON_MPI_COLL_BCAST:
        axon_coll_bcast(s, p->mine.buf, p->mine.count, &p->mine.dt, p->root);
        break;
    case AXON_MPI_COLL_GATHER:
        axon_coll_gather(s, mine, p->rblocks, p->root, p->have);
        break;
    case AXON_MPI_COLL_SCATTER:
        axon_coll_scatter(s, p->sblocks, mine, p->root, p->have);
        break;
    case AXON_MPI_COLL_ALLGATHER:
        axon_coll_allgather(s, mine, p->rblocks, p->have);
        break;
    case AXON_MPI_COLL_ALLTOALL:
        axon_coll_alltoall(s, p->in_place ? NULL : p->sblocks, p->rblocks, p->have);
        break;
    case AXON_MPI_COLL_REDUCTION:
        axon_coll_sched_set_op(s, p->op, p->datatype, &p->dt);
        switch (p->red) {
        case AXON_MPI_RED_REDUCE:
            axon_coll_reduce(s, p->in, p->out, p->count, &p->dt, p->root);
            break;
        case AXON_MPI_RED_ALLREDUCE:
            axon_coll_allreduce(s, p->in, p->out, p->count, &p->dt);
            break;
        case AXON_MPI_RED_SCATTER_BLOCK:
        case AXON_MPI_RED_SCATTER:
            axon_coll_reduce_scatter(s, p->in, p->out, p->counts, &p->dt);
            break;
        case AXON_MPI_RED_SCAN:
        case AXON_MPI_RED_EXSCAN:
            axon_coll_scan(s, p->in, p->out, p->count, &p->dt, p->red == AXON_MPI_RED_EXSCAN);
            break;
        }
        break;
    case AXON_MPI_COLL_NEIGHBOR:
        axon_coll_neighbor(s, p->nsend, p->sblocks, p->speers, p->nrecv, p->rblocks, p->rpeers);
        break;
    }
    *sp = s;
    return MPI_SUCCESS;
}

static void axon_coll_blocks_release(struct axon_coll_block *blocks, int n)
{
    for (int j = 0; blocks && j < n; j++)
        if (blocks[j].dt.loop)
            axon_dloop_release((struct axon_dloop *)blocks[j].dt.loop);
}

static void axon_coll_blocks_retain(const struct axon_coll_block *blocks, int n)
{
    for (int j = 0; blocks && j < n; j++)
        if (blocks[j].dt.loop)
            axon_dloop_retain((struct axon_dloop *)blocks[j].dt.loop);
}

struct axon_mpi_coll_plan *axon_mpi_coll_plan_keep(struct axon_mpi_coll_plan *p)
{
    struct axon_mpi_coll_plan *kept = malloc(sizeof(*kept));
    if (!kept) {
        axon_mpi_coll_plan_fini(p);
        return NULL;
    }
    *kept = *p;
    axon_coll_blocks_retain(kept->sblocks, kept->nsend);
    axon_coll_blocks_retain(kept->rblocks, kept->nrecv);
    axon_coll_blocks_retain(&kept->mine, 1);
    if (kept->dt.loop)
        axon_dloop_retain((struct axon_dloop *)kept->dt.loop);
    if (kept->op)
        axon_coll_op_retain(kept->op);
    kept->kept = true;
    return kept;
}

void axon_mpi_coll_plan_fini(struct axon_mpi_coll_plan *p)
{
    /* A persistent request's arrays are freed with it, not handed to a communicator it may outlive. */
    bool give = p->spare_blocks && !p->kept;
    if (p->kept) {
        axon_coll_blocks_release(p->sblocks, p->nsend);
        axon_coll_blocks_release(p->rblocks, p->nrecv);
        axon_coll_blocks_release(&p->mine, 1);
        if (p->dt.loop)
            axon_dloop_release((struct axon_dloop *)p->dt.loop);
        if (p->op)
            axon_coll_op_release(p->op);
        p->kept = false;
    }
    if (give) {
        axon_coll_blocks_give(p->c, p->sblocks);
        axon_coll_blocks_give(p->c, p->rblocks);
    } else {
        free(p->sblocks);
        free(p->rblocks);
    }
    free(p->speers);
    free(p->rpeers);
    free(p->counts);
    p->sblocks = p->rblocks = NULL;
    p->speers = p->rpeers = NULL;
    p->counts = NULL;
}

/* ---- the shared-memory path of blocking calls ------------------------------------------------------ */

/* Whether every member of c runs on this node. */
static bool axon_coll_one_node(const struct axon_comm *c)
{
    const int *node = axon_runtime_job.node_of_rank;
    if (!node)
        return axon_runtime_job.num_nodes <= 1;
    for (int j = 0; j < c->group->size; j++)
        if (node[c->group->world[j]] != axon_runtime_job.node)
            return false;
    return true;
}

/* The shared segment for c's small blocking collectives, made by the first call that may use one (all
 * members make that call together, so they make it together); NULL when c spans nodes, has one member,
 * or the members could not all map one. An error of the making is the calling collective's. */
static int axon_coll_shm_of(struct axon_comm *c, struct axon_coll_shm **shm)
{
    if (c->shm_state == 0) {
        c->shm_state = -1;
        if (c->size > 1 && axon_coll_shm_limit() > 0 && axon_coll_one_node(c)) {
            unsigned seq = atomic_fetch_add_explicit(&c->coll_seq, 1u, memory_order_relaxed);
            int rc = axon_coll_shm_create(&c->coll, c->rank, c->size, (int)(seq % (unsigned)AXON_COMM_TAG_BASE),
                                          &c->shm);
            if (rc != MPI_SUCCESS)
                return rc;
            if (c->shm)
                c->shm_state = 1;
        }
    }
    *shm = c->shm;
    return MPI_SUCCESS;
}

/* The bytes of one rank's block in an equal-block gather or scatter, as this rank knows them. */
static int64_t axon_coll_plan_block_bytes(const struct axon_mpi_coll_plan *p, const struct axon_coll_block *blocks)
{
    const struct axon_coll_block *b = p->in_place ? &blocks[p->c->rank] : &p->mine;
    return b->count * b->dt.size;
}

/* Two ranks moving more than this do better with point-to-point: shared memory copies every byte twice
 * (into the slot, out of it), while point-to-point copies it once, straight between the ranks' buffers,
 * both ranks copying a large message at once (2 ranks on the 2-core VM, medians of 5 interleaved runs:
 * shared memory wins at 8 KiB; at 16 KiB point-to-point took 0.7x as long for bcast, 0.8x for
 * allgather, at 64 KiB 0.4x and 1.0x). With more ranks one write serves many readers. */
#define AXON_COLL_SHM_PAIR_MAX ((int64_t)8 * 1024)
/* The same for an allreduce, whose point-to-point way (recursive halving, each rank folding half, the
 * first half sent straight from the user's buffer) overtakes both ranks folding every chunk in shared
 * memory later: 2 ranks, medians of 5 interleaved runs: 0.71x as long at 512 KiB, 0.66x at 1-2 MiB,
 * 0.85x at 4 MiB, but 1.2-1.4x at 128-256 KiB. A reduce's shared-memory way stays as fast throughout
 * (one rank folds, the other only copies in). */
#define AXON_COLL_SHM_PAIR_ALLREDUCE_MAX ((int64_t)256 * 1024)
/* A scatter's blocks go through the root's slot while they add up to this much, whatever the limit: 2
 * ranks on the VM, OSU-style, 3 runs each: 8 KiB blocks 0.30-0.35 us against 0.41-0.53 by
 * point-to-point, 16 KiB 0.47-0.52 against 0.56-0.73; 32 KiB blocks no better either way. (Never more
 * than a slot: AXON_COLL_SHM_CHUNK may make slots smaller.) */
#define AXON_COLL_SHM_SCATTER_MAX ((int64_t)32 * 1024)
/* An alltoall among more than two ranks with blocks up to this size goes through shared memory even
 * when a rank's blocks add up to more than AXON_COLL_SHM_MAX: one write and one flag per rank for all
 * of its blocks, where point-to-point pays a message per pair. On the H200 machine (16 ranks, against
 * Open MPI in the same run) shared memory took 8.1 us at 512-byte blocks (0.60x), point-to-point
 * 21.7 us at 1 KiB (1.35x) and 21.8 us at 2 KiB (1.15x); at 4 KiB and more point-to-point was level
 * with Open MPI or ahead. */
#define AXON_COLL_SHM_ALLTOALL_BLOCK_MAX ((int64_t)2 * 1024)
/* A reduce among more than AXON_COLL_SHM_REDUCE_WIDE ranks of more than a slot, up to this size, runs as
 * a schedule: in chunks through shared memory every member copies its whole vector in and waits for
 * every chunk's fold, where rabenseifner's halving reads the peers' buffers in place; beyond it the
 * shared memory's pipelined chunks win again (bench/results/2026-11-26-h200-gpu-tests-and-2-16-ranks.md). */
#define AXON_COLL_SHM_REDUCE_WIDE 8
#define AXON_COLL_SHM_REDUCE_SCHED_MAX ((int64_t)2 * 1024 * 1024)

/* The packed bytes of a reduce-scatter's contribution: every member knows all the counts alike. */
static int64_t axon_coll_plan_scatter_bytes(const struct axon_mpi_coll_plan *p)
{
    int64_t total = 0;
    for (int j = 0; j < p->c->size; j++)
        total += p->counts[j];
    return total * p->dt.size;
}

/* Whether a blocking call may run through shared memory: only from what every member knows alike
 * (the kind of call, the agreed message size, the operation), so that all of them take the same way. */
static bool axon_coll_plan_shm_eligible(const struct axon_mpi_coll_plan *p)
{
    int64_t limit = axon_coll_shm_limit(), n = p->c->size;
    bool uniform = p->have & AXON_COLL_NEEDS_UNIFORM;
    switch (p->kind) {
    case AXON_MPI_COLL_BARRIER:
        return limit > 0;
    /* Broadcasts, gathers and reductions of any size: beyond a slot they go in chunks. */
    case AXON_MPI_COLL_BCAST:
        return limit > 0 && (n > 2 || p->mine.count * p->mine.dt.size <= AXON_COLL_SHM_PAIR_MAX);
    case AXON_MPI_COLL_GATHER:
    case AXON_MPI_COLL_ALLGATHER:
        return uniform && limit > 0 && (n > 2 || axon_coll_plan_block_bytes(p, p->rblocks) <= AXON_COLL_SHM_PAIR_MAX);
    case AXON_MPI_COLL_SCATTER: {
        /* The root's blocks, all in its slot (at least the limit, at least the chunk): up to
         * AXON_COLL_SHM_SCATTER_MAX even when the limit is lower. */
        int64_t most = axon_coll_shm_slot_for((int)n) < AXON_COLL_SHM_SCATTER_MAX ? axon_coll_shm_slot_for((int)n)
                                                                                : AXON_COLL_SHM_SCATTER_MAX;
        return uniform && limit > 0 && axon_coll_plan_block_bytes(p, p->sblocks) * n <= (limit > most ? limit : most);
    }
    case AXON_MPI_COLL_ALLTOALL: {
        int64_t block = p->rblocks[0].count * p->rblocks[0].dt.size;
        if (!uniform || limit <= 0)
            return false;
        /* Beyond two ranks, blocks up to AXON_COLL_SHM_ALLTOALL_BLOCK_MAX go here while a rank's blocks
         * fit the slot every communicator gets. */
        return block * n <= limit ||
               (n > 2 && block <= AXON_COLL_SHM_ALLTOALL_BLOCK_MAX && block * n <= axon_coll_shm_chunk());
    }
    case AXON_MPI_COLL_REDUCTION:
        /* A reduce-scatter: each member folds its block of all the contributions, in pieces of a slot
         * (2 ranks on the VM, OSU-style: 0.16-0.24 us at 4-2048 bytes against 0.27-0.48 as a schedule,
         * 0.63 us at 16 KiB against 1.2-1.4, 39 at 1 MiB against 73). */
        if (p->red == AXON_MPI_RED_SCATTER || p->red == AXON_MPI_RED_SCATTER_BLOCK)
            return limit > 0 && p->dt.size * n <= axon_coll_shm_slot_for((int)n) &&
                   axon_coll_shm_reduction_fits(p->op, 0, &p->dt);
        if (p->red == AXON_MPI_RED_ALLREDUCE && n == 2 && p->count * p->dt.size > AXON_COLL_SHM_PAIR_ALLREDUCE_MAX)
            return false;
        if (p->red == AXON_MPI_RED_REDUCE && n > AXON_COLL_SHM_REDUCE_WIDE &&
            p->count * p->dt.size > axon_coll_shm_slot_for((int)n) &&
            p->count * p->dt.size <= AXON_COLL_SHM_REDUCE_SCHED_MAX)
            return false;
        /* With CUDA support on, any member's buffers may be on a GPU, where a large reduction runs with
         * kernels (mpi/axon_mpi_coll_stage.c), not staged through this path's host slots: such a call
         * takes this path only if every member's buffers are host memory, which the members agree on
         * first (axon_coll_plan_shm_agree). (CUDA support is on alike for the ranks of a node: one
         * driver, one AXON_CUDA for the job.) */
        return (p->red == AXON_MPI_RED_REDUCE || p->red == AXON_MPI_RED_ALLREDUCE) &&
               axon_coll_shm_reduction_fits(p->op, p->count, &p->dt);
    case AXON_MPI_COLL_NEIGHBOR:
        return false;
    }
    return false;
}

/* The bytes a rank's part of the call moves, which every member knows alike: a bcast's message, all the
 * blocks of an allgather, a rank's blocks of an equal-block alltoall (-1 for alltoallv and w, whose
 * counts each rank knows only for itself), a reduction's vector (a reduce-scatter's whole input). */
static int64_t axon_coll_plan_moved_bytes(const struct axon_mpi_coll_plan *p)
{
    int64_t total = 0;
    switch (p->kind) {
    case AXON_MPI_COLL_BCAST:
        return p->mine.count * p->mine.dt.size;
    case AXON_MPI_COLL_ALLGATHER:
        for (int j = 0; j < p->nrecv; j++)
            total += p->rblocks[j].count * p->rblocks[j].dt.size;
        return total;
    case AXON_MPI_COLL_ALLTOALL:
        if (!(p->have & AXON_COLL_NEEDS_UNIFORM))
            return -1;
        return p->rblocks[0].count * p->rblocks[0].dt.size * p->c->size;
    case AXON_MPI_COLL_REDUCTION:
        if (p->red == AXON_MPI_RED_SCATTER || p->red == AXON_MPI_RED_SCATTER_BLOCK)
            return axon_coll_plan_scatter_bytes(p);
        return p->count * p->dt.size;
    default:
        return -1;
    }
}

/* Whether the members first agree where their buffers are (axon_coll_plan_shm_agree), while CUDA
 * support is on: a bcast, allgather, equal-block alltoall or reduction (not a scan) moving more than
 * AXON_COLL_GPU_AGREE_MIN bytes a rank, whichever way it would go. The shared-memory path is taken only
 * where every buffer is host memory (it would stage GPU buffers through its host slots), and where
 * every buffer is GPU memory the rules pick the domain algorithms (AXON_COLL_NEEDS_DEVICE), which read
 * the peers' GPU memory in place. Without the agreement such a call of GPU buffers would go through the
 * shared memory staged, or as point-to-point schedules, many times slower (bench/results/2026-11-26-h200-domain-collectives.md). The cost where all
 * buffers are host memory: one small allreduce through the shared memory, at most a tenth of the calls
 * above the threshold (the memo). */
static bool axon_coll_plan_needs_agreement(const struct axon_mpi_coll_plan *p)
{
    if (!axon_cuda_enabled() || axon_coll_plan_moved_bytes(p) <= axon_config.coll_gpu_agree_min)
        return false;
    switch (p->kind) {
    case AXON_MPI_COLL_BCAST:
    case AXON_MPI_COLL_ALLGATHER:
    case AXON_MPI_COLL_ALLTOALL:
        return true;
    case AXON_MPI_COLL_REDUCTION:
        return p->red != AXON_MPI_RED_SCAN && p->red != AXON_MPI_RED_EXSCAN;
    default:
        return false;
    }
}

/* The agreement: an allreduce (minimum) of "my buffers are host memory" and "my buffers are GPU memory"
 * through the same shared memory, one more use of its slots (~2 us at 16 ranks on the H200 machine,
 * against the 60-300 us of the reductions it lets through: without it, a 256 KiB reduce of host buffers
 * at 16 ranks ran as a schedule at 1.34x Open MPI's time there). *all_host false when any member's
 * buffer is on a GPU; *all_device true when every member's buffers are (the schedule may then pick an
 * algorithm for device data, all members alike). */
static void axon_coll_plan_memkinds(const struct axon_mpi_coll_plan *p, int mine[2]);

static int axon_coll_plan_shm_agree(const struct axon_mpi_coll_plan *p, struct axon_coll_shm *shm, bool *all_host,
                                    bool *all_device)
{
    int mine[2], all[2] = {0, 0};
    axon_coll_plan_memkinds(p, mine);
    struct axon_dtype_layout dt;
    struct axon_coll_op *min = axon_coll_op_get(MPI_MIN);
    if (!min || !axon_mpi_datatype_get(MPI_INT, &dt))
        return MPI_ERR_INTERN;
    int rc = axon_coll_shm_reduce(shm, mine, all, 2, &dt, MPI_INT, min, -1);
    if (axon_coll_shm_broken(shm))
        rc = MPI_ERR_PROC_ABORTED;
    *all_host = rc == MPI_SUCCESS && all[0] == 1;
    *all_device = rc == MPI_SUCCESS && all[1] == 1;
    return rc;
}

/* What this rank contributes to the agreement: mine[0] 1 when all its buffers are host memory, mine[1]
 * 1 when all are GPU memory. */
static void axon_coll_plan_memkinds(const struct axon_mpi_coll_plan *p, int mine[2])
{
    mine[0] = mine[1] = 1;
    /* The user's buffers of this rank (a block stands for the buffer it lies in). */
    const void *bufs[3] = {NULL, NULL, NULL};
    switch (p->kind) {
    case AXON_MPI_COLL_REDUCTION: /* a reduce's result buffer means nothing but at the root */
        bufs[0] = p->in;
        bufs[1] = p->red != AXON_MPI_RED_REDUCE || axon_coll_is_root(p->c, p->root) ? p->out : NULL;
        break;
    case AXON_MPI_COLL_BCAST:
        bufs[0] = p->mine.buf;
        break;
    default: /* an empty block may name any address: it says nothing of the buffer */
        bufs[0] = p->in_place || p->mine.count == 0 ? NULL : p->mine.buf;
        bufs[1] = p->nsend > 0 && p->sblocks[0].count > 0 ? p->sblocks[0].buf : NULL;
        bufs[2] = p->nrecv > 0 && p->rblocks[0].count > 0 ? p->rblocks[0].buf : NULL;
        break;
    }
    for (int i = 0; i < 3; i++) {
        if (!bufs[i] || bufs[i] == MPI_IN_PLACE)
            continue;
        struct axon_cuda_memtype_info info;
        int rc = axon_cuda_memtype_of(bufs[i], &info);
        if (rc != MPI_SUCCESS || info.kind != AXON_CUDA_MEMKIND_HOST)
            mine[0] = 0; /* a buffer it cannot classify goes the general way too */
        if (rc != MPI_SUCCESS || info.kind == AXON_CUDA_MEMKIND_HOST || info.device < 0)
            mine[1] = 0;
    }
}

/* The agreement where axon_coll_plan_needs_agreement asks for it and the communicator has the node's
 * segment: *agreed, *all_host, and p->all_device. A blocking call (memo) may take an answer for granted
 * after a run of host-only ones (struct axon_coll_agree_memo), and teaches the memo what it hears; a
 * persistent _init always asks (once for all its starts) and teaches nothing. */
static int axon_coll_plan_agree(struct axon_mpi_coll_plan *p, bool memo, bool *agreed, bool *all_host)
{
    struct axon_comm *c = p->c;
    struct axon_coll_shm *seg = NULL;
    bool all_device = false;
    *agreed = *all_host = false;
    if (c->is_inter || !axon_coll_plan_needs_agreement(p))
        return MPI_SUCCESS;
    if (memo && axon_coll_agree_memo_skip(&c->agree_memo)) {
        *agreed = *all_host = true;
        return MPI_SUCCESS;
    }
    int rc = axon_coll_shm_of(c, &seg);
    if (rc != MPI_SUCCESS || !seg)
        return rc;
    rc = axon_coll_plan_shm_agree(p, seg, all_host, &all_device);
    *agreed = rc == MPI_SUCCESS;
    p->all_device = all_device;
    if (memo && *agreed)
        axon_coll_agree_memo_learn(&c->agree_memo, *all_host);
    return rc;
}

int axon_mpi_coll_plan_agree_persistent(struct axon_mpi_coll_plan *p)
{
    bool agreed, all_host;
    return axon_coll_plan_agree(p, false, &agreed, &all_host);
}

static int axon_coll_plan_shm_kind(const struct axon_mpi_coll_plan *p, struct axon_coll_shm *shm);

static int axon_coll_plan_shm_run(const struct axon_mpi_coll_plan *p, struct axon_coll_shm *shm)
{
    int rc = axon_coll_plan_shm_kind(p, shm);
    return axon_coll_shm_broken(shm) ? MPI_ERR_PROC_ABORTED : rc;
}

static int axon_coll_plan_shm_kind(const struct axon_mpi_coll_plan *p, struct axon_coll_shm *shm)
{
    const struct axon_coll_block *mine = p->in_place ? NULL : &p->mine;
    switch (p->kind) {
    case AXON_MPI_COLL_BARRIER:
        return axon_coll_shm_barrier(shm);
    case AXON_MPI_COLL_BCAST:
        return axon_coll_shm_bcast(shm, p->mine.buf, p->mine.count, &p->mine.dt, p->root);
    case AXON_MPI_COLL_GATHER:
        return axon_coll_shm_gather(shm, mine, p->rblocks, axon_coll_plan_block_bytes(p, p->rblocks), p->root);
    case AXON_MPI_COLL_ALLGATHER:
        return axon_coll_shm_gather(shm, mine, p->rblocks, axon_coll_plan_block_bytes(p, p->rblocks), -1);
    case AXON_MPI_COLL_SCATTER:
        return axon_coll_shm_scatter(shm, p->sblocks, mine, axon_coll_plan_block_bytes(p, p->sblocks), p->root);
    case AXON_MPI_COLL_ALLTOALL:
        return axon_coll_shm_alltoall(shm, p->in_place ? NULL : p->sblocks, p->rblocks,
                                      p->rblocks[0].count * p->rblocks[0].dt.size);
    case AXON_MPI_COLL_REDUCTION:
        if (p->red == AXON_MPI_RED_SCATTER || p->red == AXON_MPI_RED_SCATTER_BLOCK)
            return axon_coll_shm_reduce_scatter(shm, p->in, p->out, p->counts, &p->dt, p->datatype, p->op);
        return axon_coll_shm_reduce(shm, p->in, p->out, p->count, &p->dt, p->datatype, p->op,
                                    p->red == AXON_MPI_RED_REDUCE ? p->root : -1);
    case AXON_MPI_COLL_NEIGHBOR:
        break;
    }
    return MPI_ERR_INTERN;
}

#define AXON_COLL_SHM_FAILED                                                                         \
    "the collective failed: its members passed different collectives, roots or counts (AXON_VERBOSE=1 " \
    "says which)"

/* ---- nonblocking calls that agree first ------------------------------------------------------------- */

/* A nonblocking call asks what a blocking one of its size asks (axon_coll_plan_needs_agreement) where the
 * answer can choose a domain algorithm: the communicator lies on one node where CUDA IPC works (known
 * alike). It cannot wait for the answer: its request runs an allreduce of the members' two flags first,
 * then the call's own schedule, built when the answer is in (axon_coll_sched_then, in the progress hook),
 * under the same tag: each pair's messages of the two match in their order, as a persistent request's
 * starts do. What host buffers pay: that allreduce of two ints, log2(n) more small messages. */
static bool axon_coll_plan_agrees_first(const struct axon_mpi_coll_plan *p)
{
    return !p->c->is_inter && p->c->size > 1 && axon_coll_plan_needs_agreement(p) && axon_cuda_ipc_available() &&
           axon_coll_one_node(p->c);
}

struct axon_coll_agreeing {
    struct axon_mpi_coll_plan *plan; /* kept (axon_mpi_coll_plan_keep) until the call's schedule is built */
    int mine[2], all[2];
};

/* The answer is in: the call's schedule, as a persistent start builds it (GPU way or staging). */
static struct axon_coll_sched *axon_coll_plan_agreed(void *arg, int *err)
{
    struct axon_coll_agreeing *a = arg;
    struct axon_mpi_coll_plan *p = a->plan;
    struct axon_coll_sched *s = NULL;
    struct axon_mpi_coll_stage *st = NULL;
    if (*err == MPI_SUCCESS) {
        p->all_device = a->all[1] == 1;
        const struct axon_mpi_coll_plan *run = p;
        if (axon_cuda_watching() && !p->c->pt2pt.host_only) {
            *err = axon_mpi_coll_gpu_prepare(p, false, &st);
            if (*err == MPI_SUCCESS && st)
                run = axon_mpi_coll_stage_plan(st);
        }
        if (*err == MPI_SUCCESS)
            *err = axon_mpi_coll_plan_sched(run, &s);
        if (*err == MPI_SUCCESS && (*err = axon_coll_sched_built(s)) != MPI_SUCCESS) {
            axon_coll_sched_discard(s);
            s = NULL;
        }
        if (*err != MPI_SUCCESS) {
            axon_mpi_coll_stage_abort(st);
        } else {
            if (st)
                axon_mpi_coll_stage_attach(st, s);
            if (axon_config.async_progress)
                axon_coll_sched_set_handoff(s);
        }
    }
    axon_mpi_coll_plan_fini(p);
    free(p);
    return s;
}

static int axon_coll_plan_start_agreeing(const char *func, struct axon_mpi_coll_plan *p, MPI_Request *request)
{
    struct axon_comm *c = p->c;
    struct axon_dtype_layout dt;
    struct axon_coll_op *min = axon_coll_op_get(MPI_MIN);
    if (!min || !axon_mpi_datatype_get(MPI_INT, &dt)) {
        axon_mpi_coll_plan_fini(p);
        return axon_mpi_error(c, func, MPI_ERR_INTERN, "no MPI_MIN on MPI_INT");
    }
    int mine[2];
    axon_coll_plan_memkinds(p, mine);
    struct axon_mpi_coll_plan *kept = axon_mpi_coll_plan_keep(p);
    if (!kept)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    kept->seq_fixed = true;
    kept->seq = atomic_fetch_add_explicit(&c->coll_seq, 1u, memory_order_relaxed);
    struct axon_coll_sched *s = NULL;
    struct axon_request *req = NULL;
    int rc = axon_coll_sched_create(&c->coll, c->rank, c->size, (int)(kept->seq % (unsigned)AXON_COMM_TAG_BASE), &s);
    struct axon_coll_agreeing *a = rc == MPI_SUCCESS ? axon_coll_sched_alloc_meta(s, sizeof(*a)) : NULL;
    if (a) {
        *a = (struct axon_coll_agreeing){kept, {mine[0], mine[1]}, {0, 0}};
        axon_coll_sched_set_op(s, min, MPI_INT, &dt);
        axon_coll_allreduce_small(s, a->mine, a->all, 2, &dt);
        axon_coll_sched_then(s, axon_coll_plan_agreed, a);
        if (axon_config.async_progress)
            axon_coll_sched_set_handoff(s);
        rc = axon_request_alloc_coll(&req);
    }
    if (rc == MPI_SUCCESS && a) {
        rc = axon_coll_sched_start(s, req);
        if (rc == MPI_SUCCESS) {
            *request = axon_mpi_request_handle(req);
            return MPI_SUCCESS;
        }
        axon_request_coll_complete(req, rc);
        axon_request_free(req);
    }
    if (s)
        axon_coll_sched_discard(s);
    axon_mpi_coll_plan_fini(kept);
    free(kept);
    return axon_mpi_error(c, func, rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc, "cannot build the collective's schedule");
}

int axon_mpi_coll_plan_run(const char *func, struct axon_mpi_coll_plan *p, MPI_Request *request)
{
    struct axon_comm *c = p->c;
    /* A lost member (the job surviving it): no collective of the communicator can complete. */
    if (axon_pt2pt_lost_refuses(&c->coll, MPI_ANY_SOURCE)) {
        axon_mpi_coll_plan_fini(p);
        return axon_mpi_error(c, func, MPI_ERR_PROC_ABORTED, "a member of the communicator is lost");
    }
    /* GPU buffers: the run names host copies instead (mpi/axon_mpi_coll_stage.c). */
    struct axon_mpi_coll_stage *st = NULL;
    const struct axon_mpi_coll_plan *run = p;
    /* (A nonblocking call's answer comes later, when members may already have made further calls: it
     * teaches the memo nothing, but a call the memo lets skip asks nothing either.) */
    if (request && axon_coll_plan_agrees_first(p) && !axon_coll_agree_memo_skip(&c->agree_memo))
        return axon_coll_plan_start_agreeing(func, p, request);
    /* Whether it runs through the node's shared memory, known to every member alike (or agreed). */
    bool shm = !request && !c->is_inter && axon_coll_plan_shm_eligible(p);
    if (!request) {
        bool agreed, all_host;
        int rc = axon_coll_plan_agree(p, true, &agreed, &all_host);
        if (rc != MPI_SUCCESS) {
            axon_mpi_coll_plan_fini(p);
            return axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
        }
        if (agreed)
            shm = shm && all_host;
    }
    if (axon_cuda_watching() && !c->pt2pt.host_only) {
        int rc = axon_mpi_coll_gpu_prepare(p, shm, &st);
        if (rc != MPI_SUCCESS) {
            axon_mpi_coll_plan_fini(p);
            return axon_mpi_error(c, func, rc, "cannot stage the collective's GPU buffers through host memory");
        }
        if (st)
            run = axon_mpi_coll_stage_plan(st);
    }
    if (shm) {
        struct axon_coll_shm *shm;
        int rc = axon_coll_shm_of(c, &shm);
        if (rc == MPI_SUCCESS && shm)
            rc = axon_coll_plan_shm_run(run, shm);
        if (rc != MPI_SUCCESS || shm) {
            axon_mpi_coll_plan_fini(p);
            if (st) {
                int ran = rc;
                rc = axon_mpi_coll_stage_end(st, rc);
                if (ran == MPI_SUCCESS && rc != MPI_SUCCESS)
                    return axon_mpi_error(c, func, rc, "cannot copy the collective's GPU buffers to or from the host");
            }
            return rc == MPI_SUCCESS ? rc : axon_mpi_error(c, func, rc, AXON_COLL_SHM_FAILED);
        }
    }
    struct axon_coll_sched *s;
    int rc = axon_mpi_coll_plan_sched(run, &s);
    axon_mpi_coll_plan_fini(p); /* the schedule holds what it needs */
    if (rc != MPI_SUCCESS) {
        axon_mpi_coll_stage_abort(st);
        return axon_mpi_error(c, func, rc, "cannot allocate the collective's schedule");
    }
    if (st)
        axon_mpi_coll_stage_attach(st, s);
    if (request && axon_config.async_progress)
        axon_coll_sched_set_handoff(s);
    struct axon_request *req;
    rc = axon_request_alloc_coll(&req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        axon_mpi_coll_stage_abort(st);
        return axon_mpi_error(c, func, rc, "cannot allocate the collective's request");
    }
    rc = axon_coll_sched_start(s, req);
    if (rc != MPI_SUCCESS) {
        axon_coll_sched_discard(s);
        axon_mpi_coll_stage_abort(st); /* a schedule that never started runs no end hook */
        /* Completed first: a request freed while incomplete would wait for a completion that never
         * comes, and keep its pool slot. */
        axon_request_coll_complete(req, rc);
        axon_request_free(req);
        return axon_mpi_error(c, func, rc, "cannot build the collective's schedule");
    }
    if (request) {
        *request = axon_mpi_request_handle(req);
        return MPI_SUCCESS;
    }
    axon_request_wait(req);
    rc = req->status.MPI_ERROR;
    axon_request_free(req);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(c, func, rc, "the collective failed");
}

/* ---- plans of the calls --------------------------------------------------------------------------- */

int axon_mpi_barrier_plan(const char *func, MPI_Comm comm, struct axon_mpi_coll_plan *p)
{
    struct axon_comm *c;
    AXON_COLL_CHECK_COMM(func, comm, c);
    axon_coll_plan_begin(p, AXON_MPI_COLL_BARRIER, c);
    return MPI_SUCCESS;
}

int axon_mpi_bcast_plan(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                        struct axon_mpi_coll_plan *p)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_ROOT(func, c, root);
    axon_coll_plan_begin(p, AXON_MPI_COLL_BCAST, c);
    p->root = root;
    if (c->is_inter && root == MPI_PROC_NULL)
        return MPI_SUCCESS; /* takes no part: the other arguments mean nothing */
    AXON_COLL_CHECK_COUNT(func, c, count, "count");
    AXON_COLL_CHECK_TYPE(func, c, datatype, dt, "datatype");
    AXON_COLL_CHECK_BUFFER(func, c, buffer, count, dt, "buffer");
    p->mine = (struct axon_coll_block){buffer, count, dt};
    return MPI_SUCCESS;
}

/* The side of a rooted call that every rank has (gather: what it sends; scatter: what it receives),
 * and the root's blocks, one per rank that the call serves (the remote group's on an
 * intercommunicator). Gather and scatter are mirror images: the same checks with the names swapped. */
struct axon_coll_rooted {
    bool gather;
    void *buf;                  /* each rank's side; MPI_IN_PLACE at the root only */
    int64_t count;
    MPI_Datatype type;
    void *rbuf;                 /* the root's side */
    int64_t rcount;
    struct axon_mpi_array rcounts, displs; /* the v forms (displs.p non-NULL) */
    MPI_Datatype rtype;
};

static int axon_coll_rooted_plan(const char *func, const struct axon_coll_rooted *a, int root, MPI_Comm comm,
                                 struct axon_mpi_coll_plan *p)
{
    /* The arguments' names: this rank's side, then the root's. */
    static const char *const names[2][8] = {
        {"recvcount", "recvtype", "recvbuf", "sendtype", "sendcounts", "a send count", "sendcount", "sendbuf"},
        {"sendcount", "sendtype", "sendbuf", "recvtype", "recvcounts", "a receive count", "recvcount", "recvbuf"}};
    const char *const *name = names[a->gather];
    struct axon_comm *c;
    struct axon_dtype_layout dt = {0}, rdt = {0};
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_ROOT(func, c, root);
    bool is_root = axon_coll_is_root(c, root), in_place = is_root && a->buf == MPI_IN_PLACE;
    /* Whether this rank's own side takes part: on an intercommunicator only the other group's does. */
    bool moves = c->is_inter ? !is_root && root != MPI_PROC_NULL : !in_place;
    if (moves && a->buf == MPI_IN_PLACE)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root%s",
                              c->is_inter ? " of an intracommunicator" : "");
    AXON_COLL_CHECK_NOT_IN_PLACE(func, c, a->buf);
    if (moves) {
        AXON_COLL_CHECK_COUNT(func, c, a->count, name[0]);
        AXON_COLL_CHECK_TYPE(func, c, a->type, dt, name[1]);
        AXON_COLL_CHECK_BUFFER(func, c, a->buf, a->count, dt, name[2]);
    }
    int n = axon_coll_peers(c);
    if (is_root) {
        AXON_COLL_CHECK_TYPE(func, c, a->rtype, rdt, name[3]);
        if (a->displs.p) {
            AXON_COLL_CHECK_ARRAY(func, c, a->rcounts.p, name[4]);
            int64_t total = 0;
            for (int j = 0; j < n; j++) {
                AXON_COLL_CHECK_COUNT(func, c, axon_mpi_array_get(a->rcounts, j), name[5]);
                total += axon_mpi_array_get(a->rcounts, j);
            }
            AXON_COLL_CHECK_ALIAS(func, c, a->buf, a->rbuf, moves && a->count > 0 && total > 0);
        } else {
            AXON_COLL_CHECK_COUNT(func, c, a->rcount, name[6]);
            AXON_COLL_CHECK_BUFFER(func, c, a->rbuf, a->rcount * n, rdt, name[7]);
            AXON_COLL_CHECK_ALIAS(func, c, a->buf, a->rbuf, moves && a->rcount > 0);
        }
    }
    struct axon_coll_block *blocks = NULL;
    if (is_root) {
        blocks = axon_coll_blocks_take(c, n);
        if (!blocks)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        for (int j = 0; j < n; j++) {
            int64_t at = a->displs.p ? axon_mpi_array_get(a->displs, j) : j * a->rcount;
            blocks[j].buf = (char *)a->rbuf + at * rdt.extent;
            blocks[j].count = a->displs.p ? axon_mpi_array_get(a->rcounts, j) : a->rcount;
            blocks[j].dt = rdt;
        }
        /* The root's own block named as its data, rather than MPI_IN_PLACE: aliasing too. */
        if (moves && !c->is_inter && a->count > 0 && blocks[c->rank].count > 0 && a->buf == blocks[c->rank].buf) {
            axon_coll_blocks_give(c, blocks);
            return axon_mpi_error(c, func, MPI_ERR_BUFFER,
                                  "the root's %s is its own block of %s (use MPI_IN_PLACE)", name[2], name[7]);
        }
    }
    axon_coll_plan_begin(p, a->gather ? AXON_MPI_COLL_GATHER : AXON_MPI_COLL_SCATTER, c);
    p->root = root;
    p->in_place = in_place;
    p->have = a->displs.p ? 0 : AXON_COLL_NEEDS_UNIFORM;
    p->spare_blocks = true;
    if (moves)
        p->mine = (struct axon_coll_block){a->buf, a->count, dt};
    if (a->gather) {
        p->rblocks = blocks;
        p->nrecv = blocks ? n : 0;
    } else {
        p->sblocks = blocks;
        p->nsend = blocks ? n : 0;
    }
    return MPI_SUCCESS;
}

int axon_mpi_gather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_mpi_coll_plan *p)
{
    const struct axon_coll_rooted a = {true, (void *)sendbuf, sendcount, sendtype, recvbuf, recvcount, recvcounts,
                                       displs, recvtype};
    return axon_coll_rooted_plan(func, &a, root, comm, p);
}

int axon_mpi_scatter_plan(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                          struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, struct axon_mpi_coll_plan *p)
{
    const struct axon_coll_rooted a = {false, recvbuf, recvcount, recvtype, (void *)sendbuf, sendcount, sendcounts,
                                       displs, sendtype};
    return axon_coll_rooted_plan(func, &a, root, comm, p);
}

int axon_mpi_allgather_plan(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts,
                            struct axon_mpi_array displs, MPI_Datatype recvtype, MPI_Comm comm,
                            struct axon_mpi_coll_plan *p)
{
    struct axon_comm *c;
    struct axon_dtype_layout sdt = {0}, rdt = {0};
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_NOT_IN_PLACE(func, c, sendbuf);
    bool in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place) {
        AXON_COLL_CHECK_COUNT(func, c, sendcount, "sendcount");
        AXON_COLL_CHECK_TYPE(func, c, sendtype, sdt, "sendtype");
        AXON_COLL_CHECK_BUFFER(func, c, sendbuf, sendcount, sdt, "sendbuf");
    }
    int n = axon_coll_peers(c);
    AXON_COLL_CHECK_TYPE(func, c, recvtype, rdt, "recvtype");
    if (displs.p) {
        AXON_COLL_CHECK_ARRAY(func, c, recvcounts.p, "recvcounts");
        int64_t total = 0;
        for (int j = 0; j < n; j++) {
            AXON_COLL_CHECK_COUNT(func, c, axon_mpi_array_get(recvcounts, j), "a receive count");
            total += axon_mpi_array_get(recvcounts, j);
        }
        AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, !in_place && sendcount > 0 && total > 0);
    } else {
        AXON_COLL_CHECK_COUNT(func, c, recvcount, "recvcount");
        AXON_COLL_CHECK_BUFFER(func, c, recvbuf, recvcount * n, rdt, "recvbuf");
        AXON_COLL_CHECK_ALIAS(func, c, sendbuf, recvbuf, recvcount > 0);
    }
    struct axon_coll_block *blocks = axon_coll_blocks_take(c, n);
    if (!blocks)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    for (int j = 0; j < n; j++) {
        int64_t at = displs.p ? axon_mpi_array_get(displs, j) : j * recvcount;
        blocks[j].buf = (char *)recvbuf + at * rdt.extent;
        blocks[j].count = displs.p ? axon_mpi_array_get(recvcounts, j) : recvcount;
        blocks[j].dt = rdt;
    }
    /* A rank's own block of recvbuf named as its data, rather than MPI_IN_PLACE: every rank that does so
     * fails alike (MPICH's errors/coll/noalias2 does it on every rank). */
    if (!in_place && !c->is_inter && sendcount > 0 && blocks[c->rank].count > 0 && sendbuf == blocks[c->rank].buf) {
        axon_coll_blocks_give(c, blocks);
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "sendbuf is this rank's own block of recvbuf (use MPI_IN_PLACE)");
    }
    axon_coll_plan_begin(p, AXON_MPI_COLL_ALLGATHER, c);
    p->spare_blocks = true;
    p->in_place = in_place;
    p->have = displs.p ? 0 : AXON_COLL_NEEDS_UNIFORM;
    if (!in_place)
        p->mine = (struct axon_coll_block){(void *)sendbuf, sendcount, sdt};
    p->rblocks = blocks;
    p->nrecv = n;
    return MPI_SUCCESS;
}

/* The blocks of one side of an alltoall of any kind (see axon_mpi_alltoall_plan). */
static int axon_coll_a2a_blocks(const char *func, struct axon_comm *c, int kind, const void *buf, int64_t count,
                                struct axon_mpi_array counts, struct axon_mpi_array displs, MPI_Datatype type,
                                const MPI_Datatype types[], const char *side, struct axon_coll_block *blocks)
{
    int n = axon_coll_peers(c);
    struct axon_dtype_layout dt;
    if (kind == 0) {
        AXON_COLL_CHECK_COUNT(func, c, count, side);
    } else {
        AXON_COLL_CHECK_ARRAY(func, c, counts.p, "a count array");
        AXON_COLL_CHECK_ARRAY(func, c, displs.p, "a displacement array");
        if (kind == 2)
            AXON_COLL_CHECK_ARRAY(func, c, types, "a datatype array");
    }
    if (kind != 2)
        AXON_COLL_CHECK_TYPE(func, c, type, dt, side);
    for (int j = 0; j < n; j++) {
        int64_t cnt = kind == 0 ? count : axon_mpi_array_get(counts, j);
        AXON_COLL_CHECK_COUNT(func, c, cnt, side);
        if (kind == 2)
            AXON_COLL_CHECK_TYPE(func, c, types[j], dt, side);
        int64_t at = kind == 0 ? j * count : axon_mpi_array_get(displs, j);
        int64_t off = kind == 2 ? at : at * dt.extent; /* the w form's displacements are in bytes */
        if (axon_coll_bad_buffer((const char *)buf + off, cnt, &dt))
            return axon_mpi_error(c, func, MPI_ERR_BUFFER, "the %s buffer is NULL", side);
        blocks[j].buf = (char *)buf + off;
        blocks[j].count = cnt;
        blocks[j].dt = dt;
    }
    return MPI_SUCCESS;
}

int axon_mpi_alltoall_plan(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                           struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls,
                           const MPI_Datatype sendtypes[], void *recvbuf, int64_t recvcount,
                           struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                           const MPI_Datatype recvtypes[], MPI_Comm comm, struct axon_mpi_coll_plan *p)
{
    struct axon_comm *c;
    AXON_COLL_CHECK_COMM(func, comm, c);
    AXON_COLL_CHECK_NOT_IN_PLACE(func, c, sendbuf);
    bool in_place = sendbuf == MPI_IN_PLACE;
    int n = axon_coll_peers(c);
    struct axon_coll_block *sblocks = axon_coll_blocks_take(c, n), *rblocks = axon_coll_blocks_take(c, n);
    int rc = MPI_SUCCESS;
    if (!sblocks || !rblocks) {
        rc = axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        goto err;
    }
    MPI_Datatype stype = kind == 2 ? MPI_DATATYPE_NULL : *(const MPI_Datatype *)sendtypes;
    MPI_Datatype rtype = kind == 2 ? MPI_DATATYPE_NULL : *(const MPI_Datatype *)recvtypes;
    if (!in_place) {
        rc = axon_coll_a2a_blocks(func, c, kind, sendbuf, sendcount, sendcounts, sdispls, stype, sendtypes,
                                  "send", sblocks);
        if (rc != MPI_SUCCESS)
            goto err;
    }
    rc = axon_coll_a2a_blocks(func, c, kind, recvbuf, recvcount, recvcounts, rdispls, rtype, recvtypes, "receive",
                              rblocks);
    if (rc != MPI_SUCCESS)
        goto err;
    /* The same buffer on both sides is an error only where both hold data: empty buffers occupy no
     * memory (Python's empty arrays share one address). */
    if (!in_place && sendbuf == recvbuf && sendbuf != NULL && axon_coll_blocks_bytes(sblocks, n) > 0 &&
        axon_coll_blocks_bytes(rblocks, n) > 0) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "the send and receive buffers are the same (use MPI_IN_PLACE)");
        goto err;
    }
    axon_coll_plan_begin(p, AXON_MPI_COLL_ALLTOALL, c);
    p->in_place = in_place;
    p->have = kind == 0 ? AXON_COLL_NEEDS_UNIFORM : 0;
    p->spare_blocks = true;
    p->sblocks = sblocks;
    p->nsend = in_place ? 0 : n;
    p->rblocks = rblocks;
    p->nrecv = n;
    return MPI_SUCCESS;
err:
    axon_coll_blocks_give(c, sblocks);
    axon_coll_blocks_give(c, rblocks);
    return rc;
}

int axon_mpi_reduction_plan(const char *func, enum axon_mpi_red_kind kind, const void *sendbuf, void *recvbuf,
                            int64_t count, struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root,
                            MPI_Comm comm, struct axon_mpi_coll_plan *p)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_COLL_CHECK_COMM(func, comm, c);
    if (kind == AXON_MPI_RED_SCAN || kind == AXON_MPI_RED_EXSCAN)
        AXON_COLL_CHECK_INTRACOMM(func, c);
    int n = c->size;
    if (kind == AXON_MPI_RED_REDUCE)
        AXON_COLL_CHECK_ROOT(func, c, root);
    /* is_root: has a result; contributes: has data to reduce (on an intercommunicator, the root's
     * group of a reduce only receives, and MPI_PROC_NULL takes no part). */
    bool is_root = kind != AXON_MPI_RED_REDUCE || axon_coll_is_root(c, root);
    bool contributes = !(c->is_inter && kind == AXON_MPI_RED_REDUCE && (root == MPI_ROOT || root == MPI_PROC_NULL));
    if (c->is_inter && kind == AXON_MPI_RED_REDUCE && root == MPI_PROC_NULL) {
        axon_coll_plan_begin(p, AXON_MPI_COLL_REDUCTION, c);
        p->red = kind;
        p->root = root;
        return MPI_SUCCESS; /* takes no part: the other arguments mean nothing */
    }
    AXON_COLL_CHECK_NOT_IN_PLACE(func, c, sendbuf);
    bool in_place = sendbuf == MPI_IN_PLACE;
    if (in_place && !is_root)
        return axon_mpi_error(c, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
    AXON_COLL_CHECK_TYPE(func, c, datatype, dt, "datatype");
    struct axon_coll_op *o = axon_coll_op_get(op);
    if (!o)
        return axon_mpi_error(c, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(op));
    int rc = axon_mpi_op_check(c, func, op, o, datatype, &dt);
    if (rc != MPI_SUCCESS)
        return rc;

    /* in: the contribution (count elements), out: the result (outcount elements). */
    int64_t incount = count, outcount = count;
    int64_t *counts = NULL;
    if (kind == AXON_MPI_RED_SCATTER || kind == AXON_MPI_RED_SCATTER_BLOCK) {
        if (kind == AXON_MPI_RED_SCATTER)
            AXON_COLL_CHECK_ARRAY(func, c, recvcounts.p, "recvcounts");
        else
            AXON_COLL_CHECK_COUNT(func, c, count, "recvcount");
        counts = malloc(sizeof(*counts) * (size_t)n);
        if (!counts)
            return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
        incount = 0;
        for (int j = 0; j < n; j++) {
            counts[j] = kind == AXON_MPI_RED_SCATTER ? axon_mpi_array_get(recvcounts, j) : count;
            if (counts[j] < 0) {
                long long bad = (long long)counts[j];
                free(counts);
                return axon_mpi_error(c, func, MPI_ERR_COUNT, "recvcounts[%d] = %lld is negative", j, bad);
            }
            incount += counts[j];
        }
        outcount = counts[c->rank];
    } else {
        AXON_COLL_CHECK_COUNT(func, c, count, "count");
    }
    const void *in = in_place ? recvbuf : sendbuf;
    if ((contributes && axon_coll_bad_buffer(in, incount, &dt)) ||
        (is_root && axon_coll_bad_buffer(recvbuf, outcount, &dt))) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "a buffer is NULL with a non-zero count");
        goto err;
    }
    if (!in_place && is_root && contributes && sendbuf == recvbuf && sendbuf != NULL && incount > 0) {
        rc = axon_mpi_error(c, func, MPI_ERR_BUFFER, "the send and receive buffers are the same (use MPI_IN_PLACE)");
        goto err;
    }
    axon_coll_plan_begin(p, AXON_MPI_COLL_REDUCTION, c);
    p->red = kind;
    p->root = root;
    p->in = in;
    p->out = recvbuf;
    p->count = count;
    p->counts = counts;
    p->datatype = datatype;
    p->dt = dt;
    p->op = o;
    return MPI_SUCCESS;
err:
    free(counts);
    return rc;
}

/* ---- plan and run --------------------------------------------------------------------------------- */

/* The body of the blocking and nonblocking forms: the plan of call, then its run. */
#define AXON_COLL_PLAN_RUN(func, request, call)                                                      \
    do {                                                                                             \
        struct axon_mpi_coll_plan plan_;                                                             \
        int rc_ = (call);                                                                            \
        return rc_ == MPI_SUCCESS ? axon_mpi_coll_plan_run(func, &plan_, request) : rc_;             \
    } while (0)

int axon_mpi_barrier(const char *func, MPI_Comm comm, MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request, axon_mpi_barrier_plan(func, comm, &plan_));
}

int axon_mpi_bcast(const char *func, void *buffer, int64_t count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request, axon_mpi_bcast_plan(func, buffer, count, datatype, root, comm, &plan_));
}

int axon_mpi_gather(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request,
                       axon_mpi_gather_plan(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvcounts,
                                            displs, recvtype, root, comm, &plan_));
}

int axon_mpi_scatter(const char *func, const void *sendbuf, int64_t sendcount, struct axon_mpi_array sendcounts,
                     struct axon_mpi_array displs, MPI_Datatype sendtype, void *recvbuf, int64_t recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request,
                       axon_mpi_scatter_plan(func, sendbuf, sendcount, sendcounts, displs, sendtype, recvbuf,
                                             recvcount, recvtype, root, comm, &plan_));
}

int axon_mpi_allgather(const char *func, const void *sendbuf, int64_t sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array displs,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request,
                       axon_mpi_allgather_plan(func, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvcounts,
                                               displs, recvtype, comm, &plan_));
}

int axon_mpi_alltoall(const char *func, int kind, const void *sendbuf, int64_t sendcount,
                      struct axon_mpi_array sendcounts, struct axon_mpi_array sdispls, const MPI_Datatype sendtypes[],
                      void *recvbuf, int64_t recvcount, struct axon_mpi_array recvcounts, struct axon_mpi_array rdispls,
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request,
                       axon_mpi_alltoall_plan(func, kind, sendbuf, sendcount, sendcounts, sdispls, sendtypes,
                                              recvbuf, recvcount, recvcounts, rdispls, recvtypes, comm, &plan_));
}

int axon_mpi_reduction(const char *func, enum axon_mpi_red_kind kind, const void *sendbuf, void *recvbuf, int64_t count,
                       struct axon_mpi_array recvcounts, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    AXON_COLL_PLAN_RUN(func, request,
                       axon_mpi_reduction_plan(func, kind, sendbuf, recvbuf, count, recvcounts, datatype, op, root,
                                               comm, &plan_));
}

/* ---- the blocking calls --------------------------------------------------------------------------- */

AXON_MPI_WEAK(Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    return axon_mpi_barrier("MPI_Barrier", comm, NULL);
}

AXON_MPI_WEAK(Bcast)
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return axon_mpi_bcast("MPI_Bcast", buffer, count, datatype, root, comm, NULL);
}

AXON_MPI_WEAK(Gather)
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return axon_mpi_gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                           AXON_MPI_NO_ARRAY, recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Gatherv)
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char func[] = "MPI_Gatherv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && axon_coll_is_root(c, root) && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_gather(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                           AXON_MPI_INTS(displs ? displs : none), recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Scatter)
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return axon_mpi_scatter("MPI_Scatter", sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, sendtype, recvbuf,
                            recvcount, recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Scatterv)
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    static const char func[] = "MPI_Scatterv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_comm *c = axon_mpi_comm_get(comm);
    if (c && axon_coll_is_root(c, root) && !displs)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "displs is a NULL pointer");
    static const int none[1];
    return axon_mpi_scatter(func, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(displs ? displs : none),
                            sendtype, recvbuf, recvcount, recvtype, root, comm, NULL);
}

AXON_MPI_WEAK(Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, AXON_MPI_NO_ARRAY,
                              AXON_MPI_NO_ARRAY, recvtype, comm, NULL);
}

AXON_MPI_WEAK(Allgatherv)
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    static const char func[] = "MPI_Allgatherv";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!displs)
        return axon_mpi_error(axon_mpi_comm_get(comm), func, MPI_ERR_ARG, "displs is a NULL pointer");
    return axon_mpi_allgather(func, sendbuf, sendcount, sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts),
                              AXON_MPI_INTS(displs), recvtype, comm, NULL);
}

AXON_MPI_WEAK(Alltoall)
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoall", 0, sendbuf, sendcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &sendtype,
                             recvbuf, recvcount, AXON_MPI_NO_ARRAY, AXON_MPI_NO_ARRAY, &recvtype, comm, NULL);
}

AXON_MPI_WEAK(Alltoallv)
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoallv", 1, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls),
                             &sendtype, recvbuf, 0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls), &recvtype, comm,
                             NULL);
}

AXON_MPI_WEAK(Alltoallw)
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
    return axon_mpi_alltoall("MPI_Alltoallw", 2, sendbuf, 0, AXON_MPI_INTS(sendcounts), AXON_MPI_INTS(sdispls),
                             sendtypes, recvbuf, 0, AXON_MPI_INTS(recvcounts), AXON_MPI_INTS(rdispls), recvtypes, comm,
                             NULL);
}

AXON_MPI_WEAK(Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce", AXON_MPI_RED_REDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype,
                              op, root, comm, NULL);
}

AXON_MPI_WEAK(Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Allreduce", AXON_MPI_RED_ALLREDUCE, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY,
                              datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce_scatter_block", AXON_MPI_RED_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                              AXON_MPI_NO_ARRAY, datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Reduce_scatter)
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Reduce_scatter", AXON_MPI_RED_SCATTER, sendbuf, recvbuf, 0,
                              AXON_MPI_INTS(recvcounts), datatype, op, 0, comm, NULL);
}

AXON_MPI_WEAK(Scan)
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Scan", AXON_MPI_RED_SCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype, op,
                              0, comm, NULL);
}

AXON_MPI_WEAK(Exscan)
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return axon_mpi_reduction("MPI_Exscan", AXON_MPI_RED_EXSCAN, sendbuf, recvbuf, count, AXON_MPI_NO_ARRAY, datatype,
                              op, 0, comm, NULL);
}
