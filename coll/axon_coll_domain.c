/* Collectives inside one NVLink domain (coll/axon_coll_domain.h). The point-to-point way moves a GPU
 * message as a descriptor the receiver copies from (CUDA IPC), into scratch, which a kernel then folds
 * into the result: every received byte is written and read once more than it needs to be, and every
 * message costs a descriptor and an acknowledgement. Here the ranks exchange, once per call, IPC
 * descriptors of their input and of a slice of device scratch, and then work on each other's memory:
 *
 *   allreduce  round 1  each rank sends every peer its two descriptors (an input the GPU cannot export,
 *                       host memory say, is first copied into exportable device scratch);
 *              round 2  rank i reduces slice i of the vector into its slice scratch: a copy of its own
 *                       slice, then one kernel per peer reading that peer's input in place;
 *              barrier  every slice is done;
 *              round 3  each rank copies every slice from its owner's scratch into its result;
 *              barrier  nobody returns, and reuses its buffers, while a peer still reads them.
 *
 * The memory traffic per rank is about three vectors (read n slices and write one, then read and
 * write n - 1 slices), against five for a reduce-scatter of received copies. Opened handles stay in the
 * CUDA layer's cache (per peer and buffer id), so a loop of calls opens them once. The work of rounds 2
 * and 3 is only known when they run (the peers' addresses here), so they are call steps
 * (axon_coll_sched_call); the simulator does not build this algorithm (a dry schedule never offers
 * it). */
#include "coll/axon_coll_domain.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_op.h"
#include "coll/axon_coll_reduce_internal.h"
#include "coll/axon_coll_select.h"
#include "coll/coll.h"
#include "cuda_support/cuda_support.h"
#include "runtime/runtime.h"

#include <string.h>

unsigned axon_coll_domain_have(const struct axon_coll_sched *s)
{
    if (!axon_coll_domain_group_have(s) || !axon_cuda_reduce_available())
        return 0;
    struct axon_coll_op *op;
    MPI_Datatype datatype;
    const struct axon_dtype_layout *dt;
    axon_coll_sched_get_op(s, &op, &datatype, &dt);
    if (!op || !axon_coll_op_commutative(op) || !dt->contig || dt->true_lb != 0 || dt->extent != (int64_t)dt->size ||
        axon_coll_op_gpu_kernel(op, datatype, dt) < 0)
        return 0;
    return AXON_COLL_NEEDS_DOMAIN;
}

/* What each rank sends every peer. */
struct axon_domain_msg {
    struct axon_cuda_ipc_desc in;  /* its input */
    struct axon_cuda_ipc_desc res; /* its reduced slice */
};

struct axon_domain_allreduce {
    int n, me, device, kernel;
    int64_t esize;
    int64_t *disp;                 /* [n + 1]: slice j is elements disp[j] .. disp[j + 1] */
    const char *in;                /* the caller's input (a copy step's source when staged below) */
    char *in_dev;                  /* the input on the GPU: the caller's, or device scratch */
    char *res;                     /* this rank's slice, reduced (device scratch) */
    char *out;                     /* the caller's result */
    int64_t bytes;
    struct axon_domain_msg *all;   /* [n]: every rank's descriptors, this rank's at me */
    int *world;                    /* [n]: the members' ranks in MPI_COMM_WORLD (the IPC cache's key) */
    bool scatter;                  /* a reduce_scatter: out gets this rank's slice only */
    MPI_Datatype datatype;
    const struct axon_dtype_layout *dt;
    bool broken;                   /* its GPU memory could not be exported: every step fails */
};

/* Round 1's first step when the input was not exportable: it goes to device scratch. */
static int axon_domain_stage_in(void *arg)
{
    struct axon_domain_allreduce *a = arg;
    if (a->broken)
        return MPI_ERR_OTHER;
    return axon_cuda_copy(a->in_dev, a->in, (size_t)a->bytes, a->device);
}

/* Round 2: this rank's slice, from every input, each peer's read in place. */
static int axon_domain_reduce_slice(void *arg)
{
    struct axon_domain_allreduce *a = arg;
    if (a->broken)
        return MPI_ERR_OTHER;
    int64_t lo = a->disp[a->me], cnt = a->disp[a->me + 1] - lo;
    if (cnt == 0)
        return MPI_SUCCESS;
    int rc = axon_cuda_copy(a->res, a->in_dev + lo * a->esize, (size_t)(cnt * a->esize), a->device);
    for (int k = 1; k < a->n && rc == MPI_SUCCESS; k++) {
        int j = (a->me + k) % a->n;
        void *peer_in;
        rc = axon_cuda_ipc_map_peer(a->world[j], &a->all[j].in, a->device, &peer_in);
        if (rc == MPI_SUCCESS)
            rc = axon_coll_op_apply_gpu(a->kernel, (const char *)peer_in + lo * a->esize, a->res, cnt, a->datatype,
                                        a->dt, a->device);
    }
    return rc;
}

/* A reduce_scatter's last round: the slice into the result (after the barrier: in place, the result
 * overlaps the input the peers were reading). */
static int axon_domain_deliver_slice(void *arg)
{
    struct axon_domain_allreduce *a = arg;
    if (a->broken)
        return MPI_ERR_OTHER;
    int64_t cnt = a->disp[a->me + 1] - a->disp[a->me];
    return cnt ? axon_cuda_copy(a->out, a->res, (size_t)(cnt * a->esize), a->device) : MPI_SUCCESS;
}

/* Round 3: every slice from its owner's scratch into the result. */
static int axon_domain_gather_slices(void *arg)
{
    struct axon_domain_allreduce *a = arg;
    if (a->broken)
        return MPI_ERR_OTHER;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < a->n && rc == MPI_SUCCESS; j++) {
        int64_t cnt = a->disp[j + 1] - a->disp[j];
        if (cnt == 0)
            continue;
        void *src = a->res;
        if (j != a->me)
            rc = axon_cuda_ipc_map_peer(a->world[j], &a->all[j].res, a->device, &src);
        if (rc == MPI_SUCCESS)
            rc = axon_cuda_copy(a->out + a->disp[j] * a->esize, src, (size_t)(cnt * a->esize), a->device);
    }
    return rc;
}

/* An IPC descriptor of bytes at p (device memory); MPI_ERR_UNSUPPORTED_OPERATION when the GPU cannot
 * export it (host, managed, pool or VMM memory). */
static int axon_domain_export(const void *p, int64_t bytes, int device, struct axon_cuda_ipc_desc *d)
{
    struct axon_cuda_memtype_info info;
    int rc = axon_cuda_memtype_of(p, &info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (info.kind != AXON_CUDA_MEMKIND_CUDA || info.device != device)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    rc = axon_cuda_ipc_export(p, (size_t)bytes, &info, false, d);
    d->bytes = (uint64_t)bytes;
    return rc;
}

/* The reduction of both: the slices are disp's (n + 1 positions, in elements). */
static void axon_coll_domain_reduce(struct axon_coll_sched *s, const void *in, void *out, const int64_t *disp,
                                    const struct axon_dtype_layout *dt, bool scatter)
{
    int n = axon_coll_sched_size(s), me = axon_coll_sched_rank(s);
    struct axon_domain_allreduce *a = axon_coll_sched_alloc_meta(s, sizeof(*a));
    if (!a)
        return;
    memset(a, 0, sizeof(*a));
    struct axon_coll_op *op;
    axon_coll_sched_get_op(s, &op, &a->datatype, &a->dt);
    a->n = n;
    a->me = me;
    a->scatter = scatter;
    a->kernel = axon_coll_op_gpu_kernel(op, a->datatype, a->dt);
    /* The rank's GPU: its buffers', or the one it most likely uses when they are host memory. */
    a->device = axon_coll_sched_gpu_device(s) >= 0 ? axon_coll_sched_gpu_device(s) : axon_cuda_default_device();
    a->esize = dt->size;
    a->bytes = disp[n] * dt->size;
    a->in = in;
    a->out = out;
    a->disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    a->all = axon_coll_sched_alloc_meta(s, sizeof(*a->all) * (size_t)n);
    a->world = axon_coll_sched_alloc_meta(s, sizeof(int) * (size_t)n);
    if (!a->disp || !a->all || !a->world)
        return;
    memcpy(a->disp, disp, sizeof(int64_t) * (size_t)(n + 1));
    int64_t slice = 0; /* the largest slice, in bytes */
    for (int j = 0; j < n; j++) {
        a->world[j] = axon_coll_sched_world_rank(s, j);
        if ((disp[j + 1] - disp[j]) * a->esize > slice)
            slice = (disp[j + 1] - disp[j]) * a->esize;
    }
    memset(a->all, 0, sizeof(*a->all) * (size_t)n);
    struct axon_domain_msg *mine = &a->all[me];
    /* The input in place when the GPU exports it, else a copy in device scratch (exportable: cuMemAlloc
     * memory) made at the start. */
    bool staged = a->bytes > 0 && axon_domain_export(in, a->bytes, a->device, &mine->in) != MPI_SUCCESS;
    a->in_dev = (char *)in;
    if (staged) {
        a->in_dev = axon_coll_sched_alloc_device(s, (size_t)a->bytes, a->device);
        a->broken |= !a->in_dev || axon_domain_export(a->in_dev, a->bytes, a->device, &mine->in) != MPI_SUCCESS;
    }
    a->res = axon_coll_sched_alloc_device(s, (size_t)(slice > 0 ? slice : 1), a->device);
    a->broken |= !a->res || axon_domain_export(a->res, slice > 0 ? slice : 1, a->device, &mine->res) != MPI_SUCCESS;
    /* Every member offered this algorithm alike, so one that cannot export device scratch (a driver
     * without IPC after all, the GPU out of memory) still takes part: its steps fail and its zeroed
     * descriptors fail its peers' maps, and the barriers keep everyone going to the end. */
    if (a->broken)
        axon_runtime_log_error("the domain %s cannot export GPU memory through CUDA IPC",
                               scatter ? "reduce_scatter" : "allreduce");
    axon_runtime_log_debug(2, "%s of %lld bytes by the domain algorithm on %d ranks (GPU %d, input %s)",
                           scatter ? "reduce_scatter" : "allreduce", (long long)a->bytes, n, a->device,
                           staged ? "staged to the GPU" : "read in place");

    axon_coll_sched_round(s);
    if (staged)
        axon_coll_sched_call(s, axon_domain_stage_in, a, a->bytes);
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        axon_coll_sched_send(s, mine, (int64_t)sizeof(*mine), &axon_coll_bytes, to);
        axon_coll_sched_recv(s, &a->all[from], (int64_t)sizeof(*mine), &axon_coll_bytes, from);
    }
    axon_coll_sched_round(s);
    axon_coll_sched_call(s, axon_domain_reduce_slice, a, (int64_t)n * slice);
    axon_coll_sched_round(s);
    axon_coll_barrier(s);
    axon_coll_sched_round(s);
    if (scatter) {
        /* Nobody reads this rank's memory any more: no second barrier. */
        axon_coll_sched_call(s, axon_domain_deliver_slice, a, slice);
        axon_coll_sched_round(s);
        return;
    }
    axon_coll_sched_call(s, axon_domain_gather_slices, a, a->bytes);
    axon_coll_sched_round(s);
    axon_coll_barrier(s);
}

void axon_coll_domain_allreduce(struct axon_coll_sched *s, const void *in, void *out, int64_t count,
                                const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    if (!disp)
        return;
    axon_coll_red_split(count, n, disp);
    axon_coll_domain_reduce(s, in, out, disp, dt, false);
}

void axon_coll_domain_reduce_scatter(struct axon_coll_sched *s, const void *in, void *out, const int64_t *counts,
                                     const struct axon_dtype_layout *dt)
{
    int n = axon_coll_sched_size(s);
    int64_t *disp = axon_coll_sched_alloc_meta(s, sizeof(int64_t) * (size_t)(n + 1));
    if (!disp)
        return;
    disp[0] = 0;
    for (int j = 0; j < n; j++)
        disp[j + 1] = disp[j] + counts[j];
    axon_coll_domain_reduce(s, in, out, disp, dt, true);
}

/* ---- bcast and allgather: copies straight from the owner's memory ---------------------------------- */

/* A block this rank makes readable by its peers: its own GPU memory when contiguous and exportable,
 * else a packed copy in device scratch, made when the call starts (from host memory, unpacked by the CPU
 * first when its layout has gaps: a rank with such a layout runs with its buffers staged, on the host). */
struct axon_domain_src {
    const char *buf;               /* the caller's data */
    int64_t count;
    const struct axon_dtype_layout *dt;
    int64_t bytes;                 /* packed */
    char *dev;                     /* what the peers read */
    char *tmp;                     /* host scratch for a layout with gaps */
    bool staged;
    int device;
};

struct axon_domain_move {
    int n, me, root, device;       /* root: a bcast's, -1 for an allgather */
    struct axon_domain_src src;    /* this rank's data (a bcast's non-roots have none) */
    struct axon_cuda_ipc_desc *all;/* [n]: every rank's descriptor (a bcast: the root's only) */
    int *world;
    struct axon_coll_block *blocks;/* an allgather's receive blocks (copies, layouts kept), bcast: NULL */
    void *bcast_buf;               /* a bcast's buffer */
    int64_t bcast_count;
    const struct axon_dtype_layout *bcast_dt;
    char *tmp;                     /* host scratch for receiving into a layout with gaps */
    bool in_place;                 /* an allgather's own block is already in place */
    bool broken;
};

/* Round 1's first step: the packed copy the peers will read, when this rank's data needs one. */
static int axon_domain_stage_src(void *arg)
{
    struct axon_domain_move *m = arg;
    struct axon_domain_src *src = &m->src;
    if (m->broken)
        return MPI_ERR_OTHER;
    const char *from = src->buf + src->dt->true_lb;
    if (!src->dt->contig) {
        int rc = axon_coll_data_copy(src->buf, src->count, src->dt, src->tmp, src->bytes, &axon_coll_bytes);
        if (rc != MPI_SUCCESS)
            return rc;
        from = src->tmp;
    }
    return axon_cuda_copy(src->dev, from, (size_t)src->bytes, src->device);
}

/* bytes of packed GPU memory at from into count elements of dt at buf: one driver copy into a
 * contiguous layout (GPU or host memory alike), else through host scratch, unpacked by the CPU. */
static int axon_domain_put(const void *from, int64_t bytes, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                           char *tmp, int device)
{
    if (bytes == 0)
        return MPI_SUCCESS;
    if (dt->contig)
        return axon_cuda_copy((char *)buf + dt->true_lb, from, (size_t)bytes, device);
    int rc = axon_cuda_copy(tmp, from, (size_t)bytes, device);
    return rc == MPI_SUCCESS ? axon_coll_data_copy(tmp, bytes, &axon_coll_bytes, buf, count, dt) : rc;
}

/* Makes src readable by the peers (see struct axon_domain_src); *mine gets its descriptor. */
static void axon_domain_publish(struct axon_coll_sched *s, struct axon_domain_move *m, const void *buf, int64_t count,
                                const struct axon_dtype_layout *dt, struct axon_cuda_ipc_desc *mine)
{
    struct axon_domain_src *src = &m->src;
    dt = axon_coll_sched_keep_layout(s, dt); /* read again when the call runs */
    if (!dt) {
        m->broken = true;
        return;
    }
    src->buf = buf;
    src->count = count;
    src->dt = dt;
    src->bytes = count * dt->size;
    src->device = m->device;
    src->dev = (char *)buf + dt->true_lb;
    src->staged = !dt->contig || axon_domain_export(src->dev, src->bytes, m->device, mine) != MPI_SUCCESS;
    if (!src->staged)
        return;
    src->dev = axon_coll_sched_alloc_device(s, (size_t)src->bytes, m->device);
    src->tmp = dt->contig ? NULL : axon_coll_sched_alloc_meta(s, (size_t)src->bytes);
    m->broken |= !src->dev || (!dt->contig && !src->tmp) ||
                 axon_domain_export(src->dev, src->bytes, m->device, mine) != MPI_SUCCESS;
}

static struct axon_domain_move *axon_domain_move_new(struct axon_coll_sched *s, int root)
{
    int n = axon_coll_sched_size(s);
    struct axon_domain_move *m = axon_coll_sched_alloc_meta(s, sizeof(*m));
    struct axon_cuda_ipc_desc *all = axon_coll_sched_alloc_meta(s, sizeof(*all) * (size_t)n);
    int *world = axon_coll_sched_alloc_meta(s, sizeof(int) * (size_t)n);
    if (!m || !all || !world)
        return NULL;
    memset(m, 0, sizeof(*m));
    memset(all, 0, sizeof(*all) * (size_t)n);
    m->n = n;
    m->me = axon_coll_sched_rank(s);
    m->root = root;
    m->all = all;
    m->world = world;
    m->device = axon_coll_sched_gpu_device(s) >= 0 ? axon_coll_sched_gpu_device(s) : axon_cuda_default_device();
    for (int j = 0; j < n; j++)
        world[j] = axon_coll_sched_world_rank(s, j);
    return m;
}

static int axon_domain_bcast_fetch(void *arg)
{
    struct axon_domain_move *m = arg;
    if (m->broken)
        return MPI_ERR_OTHER;
    void *from;
    int rc = axon_cuda_ipc_map_peer(m->world[m->root], &m->all[m->root], m->device, &from);
    if (rc == MPI_SUCCESS)
        rc = axon_domain_put(from, m->bcast_count * m->bcast_dt->size, m->bcast_buf, m->bcast_count, m->bcast_dt,
                             m->tmp, m->device);
    return rc;
}

static int axon_domain_allgather_fetch(void *arg)
{
    struct axon_domain_move *m = arg;
    if (m->broken)
        return MPI_ERR_OTHER;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < m->n && rc == MPI_SUCCESS; k++) {
        int j = (m->me + k) % m->n;
        const struct axon_coll_block *b = &m->blocks[j];
        void *from = m->src.dev;
        if (j == m->me && m->in_place)
            continue;
        if (j != m->me)
            rc = axon_cuda_ipc_map_peer(m->world[j], &m->all[j], m->device, &from);
        if (rc == MPI_SUCCESS)
            rc = axon_domain_put(from, b->count * b->dt.size, b->buf, b->count, &b->dt, m->tmp, m->device);
    }
    return rc;
}

unsigned axon_coll_domain_group_have(const struct axon_coll_sched *s)
{
    if (axon_coll_sched_is_dry(s) || !axon_cuda_ipc_available())
        return 0;
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    int n = axon_coll_sched_size(s);
    if (!nodes || nodes->nnodes != 1 || nodes->nranks != n)
        return 0;
    int domain = axon_runtime_job.domain_of_rank[axon_coll_sched_world_rank(s, 0)];
    for (int r = 1; r < n; r++)
        if (axon_runtime_job.domain_of_rank[axon_coll_sched_world_rank(s, r)] != domain)
            return 0;
    return AXON_COLL_NEEDS_DOMAIN;
}

void axon_coll_domain_bcast(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                            int root)
{
    struct axon_domain_move *m = axon_domain_move_new(s, root);
    if (!m)
        return;
    int64_t bytes = count * dt->size;
    m->bcast_buf = buf;
    m->bcast_count = count;
    m->bcast_dt = axon_coll_sched_keep_layout(s, dt);
    if (!m->bcast_dt)
        return;
    axon_coll_sched_round(s);
    if (m->me == root) {
        axon_domain_publish(s, m, buf, count, dt, &m->all[root]);
        if (m->broken)
            axon_runtime_log_error("the domain bcast cannot export GPU memory through CUDA IPC");
        if (m->src.staged)
            axon_coll_sched_call(s, axon_domain_stage_src, m, bytes);
        for (int j = 0; j < m->n; j++)
            if (j != root)
                axon_coll_sched_send(s, &m->all[root], (int64_t)sizeof(m->all[root]), &axon_coll_bytes, j);
        axon_coll_sched_round(s);
    } else {
        m->tmp = dt->contig ? NULL : axon_coll_sched_alloc_meta(s, (size_t)bytes);
        axon_coll_sched_recv(s, &m->all[root], (int64_t)sizeof(m->all[root]), &axon_coll_bytes, root);
        axon_coll_sched_round(s);
        axon_coll_sched_call(s, axon_domain_bcast_fetch, m, bytes);
        axon_coll_sched_round(s);
    }
    axon_runtime_log_debug(2, "bcast of %lld bytes by the domain algorithm on %d ranks (GPU %d)", (long long)bytes,
                           m->n, m->device);
    /* The root's memory is read until everyone has its copy. */
    axon_coll_barrier(s);
}

void axon_coll_domain_allgather(struct axon_coll_sched *s, const struct axon_coll_block *mine,
                                const struct axon_coll_block *blocks)
{
    struct axon_domain_move *m = axon_domain_move_new(s, -1);
    if (!m)
        return;
    int n = m->n, me = m->me;
    /* The blocks are read again when the call runs, after the caller's array is gone. */
    m->blocks = axon_coll_sched_alloc_meta(s, sizeof(*m->blocks) * (size_t)n);
    if (!m->blocks)
        return;
    for (int j = 0; j < n; j++) {
        m->blocks[j] = blocks[j];
        const struct axon_dtype_layout *kept = axon_coll_sched_keep_layout(s, &blocks[j].dt);
        if (!kept)
            return;
    }
    const struct axon_coll_block *own = mine ? mine : &blocks[me];
    axon_domain_publish(s, m, own->buf, own->count, &own->dt, &m->all[me]);
    m->in_place = !mine;
    if (m->broken)
        axon_runtime_log_error("the domain allgather cannot export GPU memory through CUDA IPC");
    int64_t most = 0, total = 0;
    for (int j = 0; j < n; j++) {
        int64_t b = blocks[j].count * blocks[j].dt.size;
        total += b;
        if (!blocks[j].dt.contig && b > most)
            most = b;
    }
    m->tmp = most ? axon_coll_sched_alloc_meta(s, (size_t)most) : NULL;
    axon_coll_sched_round(s);
    if (m->src.staged)
        axon_coll_sched_call(s, axon_domain_stage_src, m, m->src.bytes);
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n, from = (me - k + n) % n;
        axon_coll_sched_send(s, &m->all[me], (int64_t)sizeof(m->all[me]), &axon_coll_bytes, to);
        axon_coll_sched_recv(s, &m->all[from], (int64_t)sizeof(m->all[from]), &axon_coll_bytes, from);
    }
    axon_coll_sched_round(s);
    axon_coll_sched_call(s, axon_domain_allgather_fetch, m, total);
    axon_coll_sched_round(s);
    axon_runtime_log_debug(2, "allgather of %lld bytes by the domain algorithm on %d ranks (GPU %d)", (long long)total,
                           n, m->device);
    axon_coll_barrier(s);
}
