/* Windows: making one (the exchange of what each member has, the node's segment with the control
 * blocks and the memory of allocated windows, how each target is reached), freeing one, a dynamic
 * window's attached regions, and MPI_Win_shared_query's answer.
 *
 * The node's segment is made by the node's first member of the window and mapped by the others, so a
 * window of MPI_Win_allocate or _allocate_shared is memory every node peer reaches by loads and stores.
 * MPI_Win_allocate_shared lays the members' parts one after the other (contiguous, as the standard's
 * default asks), or each on its own pages with alloc_shared_noncontig; MPI_Win_allocate gives each part
 * its own pages. Memory of MPI_Win_create and dynamic windows stays the program's: node peers reach it
 * by single copies where the kernel lets them (tried once per window), else by messages. A member's GPU
 * memory (MPI_Win_create on it, or MPI_Win_allocate asking for "cuda:device") is not in the segment: it
 * exports an IPC handle that node peers open, else they send messages. */
#include "rma/axon_rma_internal.h"

#include "runtime/runtime.h"
#include "ucx_glue/ucx_glue.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#define AXON_RMA_PAGE 4096
#define AXON_RMA_SEG_NAME_MAX 96
#define AXON_RMA_REGIONS_MAX 4096

static unsigned axon_rma_serial;

bool axon_rma_shm_enabled(void)
{
    return axon_config.rma_shm != 0;
}

static int64_t axon_rma_round_page(int64_t n)
{
    return (n + AXON_RMA_PAGE - 1) / AXON_RMA_PAGE * AXON_RMA_PAGE;
}

/* Whether this process can read peer's memory by a single copy: its probe word, read back. */
static bool axon_rma_cma_probe(const struct axon_rma_peer_info *peer)
{
    uint64_t value = 0;
    struct iovec local = {&value, sizeof(value)};
    struct iovec remote = {(void *)(uintptr_t)peer->probe_addr, sizeof(value)};
    return process_vm_readv(peer->pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof(value) &&
           value == peer->probe_value;
}

/* The node's segment: made by its first member (who sends the name to the others), mapped by all. */
static int axon_rma_segment(struct axon_rma_win *w, const int *local, int nlocal, size_t bytes, const char **why)
{
    const struct axon_dtype_layout byte = axon_dtype_layout_basic(MPI_BYTE, 1);
    char name[AXON_RMA_SEG_NAME_MAX] = {0};
    int rc = MPI_SUCCESS;
    w->seg_bytes = bytes;
    int fd = -1;
    if (nlocal == 1) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            *why = "out of memory for the window";
            rc = MPI_ERR_NO_MEM;
        } else {
            w->seg = p;
        }
    } else if (local[0] == w->rank) {
        fd = axon_runtime_shm_create("win", axon_rma_serial++, name, sizeof(name));
        if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) {
            /* The others still wait for a name: an empty one tells them. */
            name[0] = 0;
            *why = "cannot make the window's shared memory";
            rc = MPI_ERR_NO_MEM;
        }
        for (int i = 1; i < nlocal; i++) {
            struct axon_request *req = NULL;
            int src = axon_pt2pt_isend(name, sizeof(name), &byte, local[i], AXON_RMA_TAG_NAME, w->coll,
                                       AXON_SEND_STANDARD, &req);
            if (src == MPI_SUCCESS) {
                axon_request_wait(req);
                axon_request_free(req);
            } else if (rc == MPI_SUCCESS) {
                rc = src;
                *why = "cannot send the shared memory's name to a node peer";
            }
        }
    } else {
        struct axon_request req;
        rc = axon_pt2pt_recv(name, sizeof(name), &byte, local[0], AXON_RMA_TAG_NAME, w->coll, &req);
        if (rc == MPI_SUCCESS && !name[0]) {
            rc = MPI_ERR_NO_MEM;
            *why = "the node's first member could not make the window's shared memory";
        }
        if (rc == MPI_SUCCESS && (fd = shm_open(name, O_RDWR, 0)) < 0) {
            rc = MPI_ERR_NO_MEM;
            *why = "cannot open the window's shared memory";
        }
    }
    if (rc == MPI_SUCCESS && nlocal > 1) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            rc = MPI_ERR_NO_MEM;
            *why = "cannot map the window's shared memory";
        } else {
            w->seg = p;
        }
    }
    if (fd >= 0)
        close(fd);
    /* Everyone has mapped it (or failed): the name can go. Every member meets here, those alone on their
     * node too, so the window's barriers stay in step across nodes. */
    int brc = axon_rma_barrier(w);
    if (local[0] == w->rank && name[0])
        shm_unlink(name);
    if (rc == MPI_SUCCESS && brc != MPI_SUCCESS) {
        rc = brc;
        *why = "the window's members could not meet";
    }
    return rc;
}

/* This rank's memory when it is a device's: allocated here (MPI_Win_allocate asked for "cuda:device"),
 * or the program's (MPI_Win_create on GPU memory), with an IPC export for node peers where the kind
 * has one. Non-zero when the allocation failed (the members fail together, after the exchange). */
static int axon_rma_memory_own(struct axon_rma_win *w, const struct axon_rma_win_spec *spec)
{
    w->kind = AXON_MEMKIND_HOST;
    w->device = -1;
    struct axon_memkind_info minfo;
    if (spec->flavor == AXON_RMA_ALLOCATE && spec->device_memory && spec->size > 0) {
        enum axon_memkind k;
        int dev;
        if (!axon_memkind_default_device(&k, &dev) || !(w->base = axon_memkind_mem_alloc(k, (size_t)spec->size, dev)))
            return 1;
        w->kind = k;
        w->device = dev;
        w->device_owned = true;
    } else if (spec->flavor == AXON_RMA_CREATE && spec->size > 0 && spec->base && axon_memkind_watching() &&
               axon_memkind_of(spec->base, &minfo) == MPI_SUCCESS && !axon_memkind_is_host(&minfo)) {
        w->kind = minfo.kind;
        w->device = minfo.device;
    }
    if (w->kind == AXON_MEMKIND_HOST || !axon_memkind_ipc_available(w->kind))
        return 0;
    /* Node peers open it in place; without an export (memory IPC cannot describe) they send messages. */
    void *mem = w->device_owned ? w->base : spec->base;
    void *room = calloc(1, AXON_MEMKIND_IPC_DESC_MAX);
    if (room && axon_memkind_of(mem, &minfo) == MPI_SUCCESS &&
        axon_memkind_ipc_export(mem, (size_t)spec->size, &minfo, false, true, room) == MPI_SUCCESS &&
        ((struct axon_memkind_ipc_desc *)room)->nparts == 0) {
        w->ipc = room;
        w->ipc->bytes = (uint64_t)spec->size;
    } else {
        free(room);
    }
    return 0;
}

/* A node peer's device memory: opened here through IPC (reached by device copies, as this rank's own
 * device memory is), else by messages. */
static void axon_rma_device_peer(struct axon_rma_win *w, int p, const struct axon_rma_peer_info *peer)
{
    struct axon_rma_target *t = &w->targets[p];
    struct axon_memkind_ipc_desc d;
    memcpy(&d, peer->ipc, sizeof(d));
    enum axon_memkind k;
    int dev = w->device;
    bool have_device = w->kind != AXON_MEMKIND_HOST || axon_memkind_default_device(&k, &dev);
    void *local = NULL;
    t->path = AXON_RMA_PATH_AM;
    if (d.kind != AXON_MEMKIND_HOST && d.nparts == 0 && have_device && (t->ipc = malloc(sizeof(d)))) {
        *t->ipc = d;
        if (axon_memkind_ipc_map_peer(axon_rma_world_rank(w->coll, p), t->ipc, dev, &local) == MPI_SUCCESS) {
            t->path = AXON_RMA_PATH_DIRECT;
            t->mapped = local;
            t->kind = (enum axon_memkind)d.kind;
            t->device = dev;
        } else {
            free(t->ipc);
            t->ipc = NULL;
        }
    }
    w->any_am |= t->path == AXON_RMA_PATH_AM;
    axon_runtime_log_debug(1, "window rank %d's memory is on a GPU: reached %s", p,
                           t->path == AXON_RMA_PATH_DIRECT ? "through IPC"
                           : d.kind == AXON_MEMKIND_HOST   ? "by messages (it exported no IPC handle)"
                                                           : "by messages (its IPC handle did not open here)");
}

/* What axon_rma_memory_own and axon_rma_device_peer took. */
static void axon_rma_memory_release(struct axon_rma_win *w)
{
    for (int p = 0; w->targets && p < w->size; p++)
        if (w->targets[p].ipc) {
            axon_memkind_ipc_unmap_peer(axon_rma_world_rank(w->coll, p), w->targets[p].ipc);
            free(w->targets[p].ipc);
            w->targets[p].ipc = NULL;
        }
    if (w->ipc) {
        axon_memkind_ipc_release(w->ipc);
        free(w->ipc);
        w->ipc = NULL;
    }
    if (w->device_owned) {
        axon_memkind_mem_free(w->kind, w->base, w->device);
        w->device_owned = false;
        w->base = NULL;
    }
}

int axon_rma_win_create(const struct axon_rma_win_spec *spec, struct axon_rma_win **out, void **base_out,
                        const char **why)
{
    struct axon_rma_win *w = calloc(1, sizeof(*w));
    if (!w) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    w->flavor = spec->flavor;
    w->ops = spec->ops;
    w->reply = spec->reply;
    w->coll = spec->coll;
    w->rank = spec->coll->rank;
    w->size = spec->coll->size;
    w->local_size = spec->flavor == AXON_RMA_DYNAMIC ? 0 : spec->size;
    w->disp_unit = spec->flavor == AXON_RMA_DYNAMIC ? 1 : spec->disp_unit;
    w->incoming_tail = &w->incoming;
    w->probe_word = 0x41786f6e524d4100ull ^ (uint64_t)(uintptr_t)w;
    int n = w->size, rc;
    struct axon_rma_peer_info *info = calloc((size_t)n, sizeof(*info));
    w->targets = calloc((size_t)n, sizeof(*w->targets));
    int *local = malloc(sizeof(int) * (size_t)n);
    if (!info || !w->targets || !local) {
        *why = "out of memory";
        rc = MPI_ERR_NO_MEM;
        goto err;
    }
    /* Windows registered before the exchange: a member that finished creating may already send us
     * requests, which our waits must serve. */
    axon_rma_serve_register(w);

    int failed = axon_rma_memory_own(w, spec);
    struct axon_rma_peer_info mine = {
        .size = w->local_size,
        .disp_unit = w->disp_unit,
        .base = (uint64_t)(uintptr_t)(spec->flavor == AXON_RMA_CREATE ? spec->base : NULL),
        .probe_addr = (uint64_t)(uintptr_t)&w->probe_word,
        .probe_value = w->probe_word,
        .pid = (int32_t)getpid(),
        .host = axon_runtime_job.host_of_rank ? axon_runtime_job.host_of_rank[axon_rma_world_rank(w->coll, w->rank)]
                                              : 0,
        .kind = (int32_t)w->kind,
        .failed = failed,
    };
    if (w->ipc)
        memcpy(mine.ipc, w->ipc, sizeof(mine.ipc));
    rc = axon_rma_allgather(w, &mine, info, sizeof(mine));
    if (rc != MPI_SUCCESS) {
        *why = "the window's members could not exchange what they have";
        goto err_registered;
    }
    for (int p = 0; p < n; p++)
        if (info[p].failed) {
            *why = p == w->rank ? "cannot allocate the window's memory on the GPU"
                                : "a member could not allocate its part of the window's memory";
            rc = MPI_ERR_NO_MEM;
            goto err_registered;
        }

    /* The node's members of the window, in rank order. A shared window needs them all on this node. */
    bool shared = spec->flavor == AXON_RMA_SHARED;
    bool use_shm = shared || axon_rma_shm_enabled();
    int nlocal = 0, me_local = 0;
    for (int p = 0; p < n; p++)
        if (p == w->rank || (use_shm && info[p].host == mine.host)) {
            if (p == w->rank)
                me_local = nlocal;
            local[nlocal++] = p;
        }
    if (shared && nlocal != n) {
        *why = "MPI_Win_allocate_shared needs every member on one node (MPI_Comm_split_type with "
               "MPI_COMM_TYPE_SHARED makes such a communicator)";
        rc = MPI_ERR_RMA_SHARED;
        goto err_registered;
    }

    /* The segment: control blocks, then the parts of allocated windows. */
    bool allocated = spec->flavor == AXON_RMA_ALLOCATE || shared;
    int64_t ctrl_bytes = axon_rma_round_page((int64_t)sizeof(struct axon_rma_ctrl) * nlocal);
    int64_t *offset = calloc((size_t)nlocal, sizeof(int64_t));
    if (!offset) {
        *why = "out of memory";
        rc = MPI_ERR_NO_MEM;
        goto err_registered;
    }
    int64_t total = ctrl_bytes;
    for (int i = 0; i < nlocal && allocated; i++) {
        int64_t sz = info[local[i]].kind == AXON_MEMKIND_HOST ? info[local[i]].size : 0;
        bool own_pages = !shared || spec->noncontig;
        if (own_pages)
            total = axon_rma_round_page(total);
        offset[i] = total;
        total += sz;
    }
    total = axon_rma_round_page(total > 0 ? total : 1);
    rc = axon_rma_segment(w, local, nlocal, (size_t)total, why);
    if (rc != MPI_SUCCESS) {
        free(offset);
        goto err_registered;
    }
    w->my_ctrl = (struct axon_rma_ctrl *)w->seg + me_local;
    if (!w->device_owned)
        w->base = allocated ? (char *)w->seg + offset[me_local] : spec->base;
    if (spec->flavor == AXON_RMA_DYNAMIC)
        w->base = NULL;

    /* How each target is reached. */
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    for (int p = 0, li = 0; p < n; p++) {
        struct axon_rma_target *t = &w->targets[p];
        t->size = info[p].size;
        t->disp_unit = info[p].disp_unit;
        t->base = info[p].base;
        t->pid = info[p].pid;
        bool is_local = li < nlocal && local[li] == p;
        if (!is_local) {
            t->path = AXON_RMA_PATH_AM;
            w->any_am = true;
            continue;
        }
        t->ctrl = (struct axon_rma_ctrl *)w->seg + li;
        if (p == w->rank) {
            t->path = AXON_RMA_PATH_DIRECT;
            t->mapped = w->base;
            t->kind = w->kind;
            t->device = w->device;
        } else if (info[p].kind != AXON_MEMKIND_HOST) {
            axon_rma_device_peer(w, p, &info[p]);
        } else if (allocated) {
            t->path = AXON_RMA_PATH_DIRECT;
            t->mapped = (char *)w->seg + offset[li];
        } else {
            t->path = axon_rma_cma_probe(&info[p]) ? AXON_RMA_PATH_CMA : AXON_RMA_PATH_AM;
            w->any_am |= t->path == AXON_RMA_PATH_AM;
        }
        li++;
    }
    free(offset);
    free(info);
    free(local);
    info = NULL;
    local = NULL;
    if ((rc = axon_rma_ucx_setup(w, why)) != MPI_SUCCESS) {
        axon_rma_ucx_teardown(w);
        goto err_registered;
    }
    *base_out = w->base;
    *out = w;
    axon_ucx_lock();
    w->ready = true;
    axon_ucx_unlock();
    return MPI_SUCCESS;

err_registered:
    axon_rma_serve_unregister(w);
err:
    axon_rma_memory_release(w);
    if (w->seg)
        munmap(w->seg, w->seg_bytes);
    free(info);
    free(local);
    free(w->targets);
    free(w);
    return rc;
}

int axon_rma_win_can_free(const struct axon_rma_win *w, const char **why)
{
    if (w->nlocks > 0 || w->nstart > 0 || w->post_group) {
        *why = w->nlocks > 0 ? "a lock is still held (MPI_Win_unlock or MPI_Win_unlock_all first)"
                             : "an access or exposure epoch is still open (MPI_Win_complete or MPI_Win_wait first)";
        return MPI_ERR_RMA_SYNC;
    }
    return MPI_SUCCESS;
}

int axon_rma_win_free(struct axon_rma_win *w, const char **why)
{
    int crc = axon_rma_win_can_free(w, why);
    if (crc != MPI_SUCCESS)
        return crc;
    /* Our own operations are complete (every epoch closed); the barrier waits until everyone's are, so
     * nobody reaches this memory after it goes. */
    int rc = axon_rma_barrier(w);
    axon_rma_serve_unregister(w);
    axon_rma_win_teardown(w, true);
    if (rc != MPI_SUCCESS)
        *why = "the window's members could not meet";
    return rc;
}

void axon_rma_win_teardown(struct axon_rma_win *w, bool wait)
{
    /* Answers whose sends are still on their way, and requests nobody answered. */
    while (w->pending) {
        struct axon_rma_pending *e = w->pending;
        if (wait)
            axon_request_wait(e->req);
        w->pending = e->next;
        if (e->user) {
            axon_ucx_lock();
            axon_request_coll_complete(e->user, e->req->status.MPI_ERROR);
            axon_ucx_unlock();
        }
        axon_request_free(e->req);
        free(e->buf);
        free(e);
    }
    while (w->incoming) {
        struct axon_rma_incoming *in = w->incoming;
        w->incoming = in->next;
        if (wait)
            axon_request_wait(in->req);
        axon_request_free(in->req);
        free(in->msg);
        free(in);
    }
    while (w->lock_waits) {
        struct axon_rma_lock_wait *lw = w->lock_waits;
        w->lock_waits = lw->next;
        free(lw);
    }
    axon_rma_ucx_teardown(w);
    axon_rma_memory_release(w);
    if (w->seg)
        munmap(w->seg, w->seg_bytes);
    free(w->targets);
    free(w->regions);
    free(w->start_group);
    free(w->post_group);
    free(w->post_done);
    free(w);
}

int axon_rma_win_attach(struct axon_rma_win *w, void *base, int64_t size, const char **why)
{
    uint64_t lo = (uint64_t)(uintptr_t)base, hi = lo + (uint64_t)size;
    for (int i = 0; i < w->nregions; i++)
        if (lo < w->regions[i].base + w->regions[i].size && w->regions[i].base < hi) {
            *why = "the memory overlaps memory attached already";
            return MPI_ERR_RMA_ATTACH;
        }
    if (w->nregions == AXON_RMA_REGIONS_MAX) {
        *why = "too many regions are attached to the window";
        return MPI_ERR_RMA_ATTACH;
    }
    if (w->nregions == w->cap_regions) {
        int cap = w->cap_regions ? 2 * w->cap_regions : 8;
        struct axon_rma_region *r = realloc(w->regions, sizeof(*r) * (size_t)cap);
        if (!r) {
            *why = "out of memory";
            return MPI_ERR_NO_MEM;
        }
        w->regions = r;
        w->cap_regions = cap;
    }
    axon_ucx_lock();
    w->regions[w->nregions++] = (struct axon_rma_region){lo, (uint64_t)size};
    axon_ucx_unlock();
    return MPI_SUCCESS;
}

int axon_rma_win_detach(struct axon_rma_win *w, const void *base, const char **why)
{
    uint64_t lo = (uint64_t)(uintptr_t)base;
    for (int i = 0; i < w->nregions; i++)
        if (w->regions[i].base == lo) {
            axon_ucx_lock();
            w->regions[i] = w->regions[--w->nregions];
            axon_ucx_unlock();
            return MPI_SUCCESS;
        }
    *why = "no memory attached to the window starts there";
    return MPI_ERR_RMA_RANGE;
}

int axon_rma_win_shared_query(struct axon_rma_win *w, int rank, int64_t *size, int64_t *disp_unit, void **base,
                              const char **why)
{
    if (rank == MPI_PROC_NULL) {
        for (int p = 0; p < w->size; p++)
            if (w->targets[p].size > 0 && w->targets[p].path == AXON_RMA_PATH_DIRECT) {
                rank = p;
                break;
            }
        if (rank == MPI_PROC_NULL) {
            *size = 0;
            *disp_unit = 1;
            *base = NULL;
            return MPI_SUCCESS;
        }
    }
    const struct axon_rma_target *t = &w->targets[rank];
    (void)why;
    /* MPI 4.1 lets any window be asked: memory this process cannot load from, and an empty part, is
     * size 0 at NULL. */
    bool reachable = t->path == AXON_RMA_PATH_DIRECT && t->kind == AXON_MEMKIND_HOST &&
                     w->flavor != AXON_RMA_DYNAMIC && t->size > 0;
    *size = reachable ? t->size : 0;
    *disp_unit = t->disp_unit;
    *base = reachable ? t->mapped : NULL;
    return MPI_SUCCESS;
}

void axon_rma_win_local(const struct axon_rma_win *w, void **base, int64_t *size, int64_t *disp_unit)
{
    *base = w->base;
    *size = w->local_size;
    *disp_unit = w->disp_unit;
}
