/* axon_calibrate: measures the cost model's parameters (coll/axon_coll_model.h) on this machine and
 * writes them as a tuning file, which axon_sim --model and axon_info --explain --model read. It is an
 * MPI job of two ranks or more:
 *
 *   mpirun -n 4 axon_calibrate [-o FILE]                         (one node: the node level)
 *   AXON_CUDA=1 mpirun --mps -n 4 axon_calibrate                 (GPUs too: the domain level)
 *   AXON_TOPO=nodes=2,ranks_per_node=2 mpirun -n 4 axon_calibrate (synthetic nodes: the fabric too)
 *
 * Rank 0 measures against the first rank of its node (the node level) and the first rank of another
 * node (the fabric level), with the job's own point-to-point path between them:
 *  - alpha: half a ping-pong of 8 bytes, less the two posts it includes (overhead); the fabric's, the
 *    larger of that and the same with every rank of node 0 ping-ponging one of the other node's at once
 *    (a collective's steps put a node's ranks on the network together);
 *  - beta: the slope of the ping-pong time between 64 KiB and 4 MiB, per byte;
 *  - overhead: what a send costs its sender in a window of 64 small sends (the receiver keeps up);
 *  - node.capacity: the bytes per second of all of node 0's ranks exchanging 4 MiB messages in pairs at
 *    once (kept at the default with one rank on node 0);
 *  - host.capacity: the same for all the ranks of rank 0's machine, when it holds more than node 0
 *    (synthetic nodes, AXON_TOPO: their transfers, the "fabric" between them included, share its
 *    memory; topologies with nodes_per_host > 1 use it);
 *  - gamma: MPI_Reduce_local of floats with MPI_SUM, per byte; copy_beta: memcpy, per byte;
 *  - eager_max: the largest message the node's rings take (AXON_PT2PT_SHM_MAX as the job runs it);
 *  - call: what a collective call costs beyond its steps: an MPI_Iallreduce of 8 bytes on all ranks as
 *    measured, less what the model with the figures above predicts for it (simulated);
 *  - the domain level, with GPU buffers, when CUDA support is on and another rank of rank 0's machine is
 *    in its NVLink domain (measure_domain): alpha and beta from a device ping-pong (beta's slope between
 *    1 MiB and 64 MiB), launch from an 8-byte device-to-device copy, gamma from MPI_Reduce_local on the
 *    GPU, and the capacity from the domain's ranks exchanging in pairs when they share one GPU; and
 *    when every rank of the job is in that domain, call (domain.call) from an 8-byte MPI_Iallreduce of
 *    GPU buffers, less what the model predicts for it without that cost.
 *    AXON_CALIBRATE_DEVICE_MAX (bytes) lowers the 64 MiB, for the fake driver of the tests.
 * What a level this job cannot reach keeps the defaults, and the file says so. Each figure is the median
 * of several repetitions: the machine may be noisy. */
#include "config.h"

#include "coll/axon_coll_model.h"
#include "coll/axon_coll_simulate.h"
#include "cuda_support/cuda_support.h"
#include "runtime/runtime.h"
#if AXON_HAVE_CUDA_H
#include "cuda_support/axon_cuda_internal.h" /* axon_cuda_ctx_enter: a context current, as an application's */
#endif

#include <errno.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 7

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return v[n / 2];
}

/* One round trip of bytes between rank 0 and other (me is 0 or other). */
static void round_trip(char *buf, int bytes, int me, int other)
{
    if (me == 0) {
        MPI_Send(buf, bytes, MPI_BYTE, other, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_BYTE, other, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
}

/* Seconds of one ping-pong of bytes between rank 0 and peer (both call it; others return 0). */
static double pingpong(char *buf, int bytes, int peer, int iters)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me != 0 && me != peer)
        return 0;
    for (int i = 0; i < 2; i++) /* warm-up */
        round_trip(buf, bytes, me, peer);
    double t = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        round_trip(buf, bytes, me, peer);
    return (MPI_Wtime() - t) / iters;
}

/* Seconds of one MPI_Iallreduce of 8 bytes and its wait on every rank (a schedule, never the node's
 * shared-memory path), the median of REPS runs of 200 calls; every rank calls it. */
static double allreduce_small(void)
{
    double t[REPS], in[1] = {1}, out[1];
    for (int r = 0; r < REPS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < 200; i++) {
            MPI_Request req;
            MPI_Iallreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        t[r] = (MPI_Wtime() - t0) / 200;
    }
    return median(t, REPS);
}

/* The time the model m predicts for an 8-byte allreduce on machine t, its buffers in memory; false when
 * it cannot be simulated. What measure_call and measure_device_call take from what they measured. */
static bool predict_small_allreduce(const struct axon_runtime_topo_spec *t, const struct axon_coll_model *m,
                                    enum axon_coll_sim_memory memory, double *time)
{
    struct axon_coll_sim_call c = {.kind = AXON_COLL_KIND_ALLREDUCE, .alg = -1, .bytes = 8, .memory = memory};
    struct axon_coll_sim_opts opts = {.memory = memory};
    struct axon_coll_sim_result res;
    memset(&res, 0, sizeof(res));
    if (axon_coll_simulate(t, m, &c, &opts, &res) != MPI_SUCCESS)
        return false;
    *time = res.time;
    return true;
}

/* The cost of a collective call beyond its steps: a small allreduce as measured, less what the model
 * (call = 0) predicts for the same call on this job's machine; 0 when the model already predicts more
 * or the machine has no regular description. */
static double measure_call(struct axon_coll_model *m, double measured)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    struct axon_runtime_topo_spec t;
    char why[256];
    /* AXON_TOPO's description, or a file that holds one (a value without '='). */
    if (job->topo[0] ? (strchr(job->topo, '=') ? axon_runtime_topo_parse(job->topo, &t, why, sizeof(why))
                                               : axon_runtime_topo_read_file(job->topo, &t, why, sizeof(why))) !=
                           MPI_SUCCESS
                     : job->size % job->num_nodes != 0)
        return 0;
    if (!job->topo[0])
        t = (struct axon_runtime_topo_spec){.nodes = job->num_nodes, .ranks_per_node = job->size / job->num_nodes,
                                            .domains_per_node = 1, .nics_per_node = 1, .nodes_per_host = 1};
    struct axon_coll_model zero = *m;
    zero.call = 0;
    double predicted;
    if (!predict_small_allreduce(&t, &zero, AXON_COLL_SIM_HOST, &predicted))
        return 0;
    return measured > predicted ? measured - predicted : 0;
}

/* What a collective call on GPU buffers costs beyond one on host buffers (domain.call): a small
 * allreduce of GPU buffers on every rank (all of them in one domain of one machine) as measured, less
 * what the model with the figures above and no such cost predicts for it. */
static double measure_device_call(const struct axon_coll_model *m, double measured, int n)
{
    struct axon_runtime_topo_spec t = {.nodes = 1, .ranks_per_node = n, .domains_per_node = 1, .nics_per_node = 1,
                                        .nodes_per_host = 1};
    struct axon_coll_model zero = *m;
    zero.level[AXON_COLL_LEVEL_DOMAIN].call = 0;
    double predicted;
    if (!predict_small_allreduce(&t, &zero, AXON_COLL_SIM_DEVICE, &predicted))
        return m->level[AXON_COLL_LEVEL_DOMAIN].call;
    return measured > predicted ? measured - predicted : 0;
}

/* A level's alpha and beta between rank 0 and peer, beta from the slope between mid and large bytes
 * (buf holds large); every rank calls it (the others wait). */
static void measure_level(char *buf, int peer, double overhead, int mid_bytes, int large_bytes,
                          struct axon_coll_model_level *l)
{
    enum { SMALL = 8, TRIES = 3 };
    double s[REPS], m[REPS], g[REPS];
    /* On a loaded machine a slice lost in the mid-size runs can make the slope come out flat or
     * negative: measure again (rank 0's figure decides, for every rank), and keep the default after
     * TRIES. */
    for (int t = 0; t < TRIES; t++) {
        for (int r = 0; r < REPS; r++) {
            s[r] = pingpong(buf, SMALL, peer, 2000) / 2;
            m[r] = pingpong(buf, mid_bytes, peer, 200) / 2;
            /* 10 round trips of the large size: 4 MiB of host memory, 64 MiB of a GPU's, a few ms each. */
            g[r] = pingpong(buf, large_bytes, peer, 10) / 2;
        }
        double small = median(s, REPS), mid = median(m, REPS), large = median(g, REPS);
        double alpha = small - 2 * overhead;
        l->alpha = alpha > 1e-9 ? alpha : small / 2;
        double beta = (large - mid) / (double)(large_bytes - mid_bytes);
        MPI_Bcast(&beta, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (beta > 0) {
            l->beta = beta;
            return;
        }
    }
}

/* The sender's cost of a send in a window of 64 small ones to peer, whose receives keep up. */
static double measure_overhead(int peer)
{
    enum { WINDOW = 64, ROUNDS = 200 };
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double v[REPS];
    char small[8] = {0}, rbuf[WINDOW][8];
    MPI_Request req[WINDOW];
    for (int r = 0; r < REPS; r++) {
        double posting = 0;
        for (int k = 0; k < ROUNDS; k++) {
            if (me == 0) {
                double t = MPI_Wtime();
                for (int w = 0; w < WINDOW; w++)
                    MPI_Isend(small, 8, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &req[w]);
                posting += MPI_Wtime() - t;
                MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
                MPI_Recv(small, 0, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (me == peer) {
                for (int w = 0; w < WINDOW; w++)
                    MPI_Irecv(rbuf[w], 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &req[w]);
                MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
                MPI_Send(small, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
            }
        }
        v[r] = posting / (ROUNDS * WINDOW);
    }
    return median(v, REPS);
}

/* Bytes per second of the ranks in local (node 0's, its machine's, or rank 0's domain's) exchanging
 * messages of bytes (buf and buf2 hold them) in pairs, all at once; every rank calls it. */
static double measure_capacity(char *buf, char *buf2, int bytes, const int *local, int nlocal)
{
    enum { ITERS = 10 };
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int idx = -1;
    for (int i = 0; i < nlocal; i++)
        if (local[i] == me)
            idx = i;
    int pairs = nlocal / 2;
    double v[REPS];
    for (int r = 0; r < REPS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        if (idx >= 0 && idx < 2 * pairs) {
            int partner = local[idx ^ 1];
            for (int i = 0; i < ITERS; i++)
                MPI_Sendrecv(buf, bytes, MPI_BYTE, partner, 4, buf2, bytes, MPI_BYTE, partner, 4, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        }
        double mine = MPI_Wtime() - t, slowest;
        MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        /* Each pair moves 2 * bytes per iteration, one transfer each way. */
        v[r] = slowest > 0 ? 2.0 * pairs * bytes * ITERS / slowest : 0;
    }
    return median(v, REPS);
}

/* Half the round trip of 8 bytes between the ranks of node 0 (local) and as many of another node
 * (remote, ascending), every pair at once: what a message across the fabric costs when all of a node's
 * ranks are on the network together, as a collective's steps put them. Rank 0's pair's figure, the
 * median of REPS; every rank calls it; 0 where fewer than 2 pairs form. */
static double fabric_concurrent(char *buf, const int *local, int nlocal, const int *remote, int nremote)
{
    enum { ITERS = 2000 };
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int pairs = nlocal < nremote ? nlocal : nremote;
    if (pairs < 2)
        return 0;
    int partner = -1;
    bool first = false;
    for (int i = 0; i < pairs; i++) {
        if (local[i] == me) {
            partner = remote[i];
            first = true;
        } else if (remote[i] == me) {
            partner = local[i];
        }
    }
    double v[REPS];
    for (int r = 0; r < REPS; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        for (int i = 0; partner >= 0 && i < ITERS + 2; i++) {
            if (i == 2)
                t = MPI_Wtime(); /* after two round trips of warm-up */
            if (first) {
                MPI_Send(buf, 8, MPI_BYTE, partner, 5, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, 8, MPI_BYTE, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, partner, 5, MPI_COMM_WORLD);
            }
        }
        v[r] = (MPI_Wtime() - t) / ITERS / 2;
    }
    double half = median(v, REPS);
    MPI_Bcast(&half, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return half;
}

/* ---- the domain level: GPU buffers ------------------------------------------------------------------ */

/* What measure_domain did, for the file's comments. */
struct domain_result {
    bool measured;               /* alpha, beta, launch and gamma */
    bool capacity;               /* domain.capacity too */
    const char *why_not;         /* nothing measured: why (NULL: CUDA support is off on rank 0) */
    const char *why_no_capacity; /* measured without the capacity: why */
    int nranks;                  /* the ranks of rank 0's domain on its machine */
    bool staged_gamma;           /* no reduction kernels: MPI_Reduce_local went through host copies */
    double small;                /* an 8-byte MPI_Allreduce on GPU buffers, when every rank is of that
                                  * domain (domain.call's measure: measure_device_call); 0: not measured */
};

/* AXON_CALIBRATE_DEVICE_MAX: the largest GPU buffer in bytes (default 64 MiB, large enough that
 * launches and latencies vanish in it); the fake driver's copies are the CPU's, and its test sets
 * it small. 256 KiB to 1 GiB (an int's count); -1 for anything else. */
static long long device_max(void)
{
    const char *v = getenv("AXON_CALIBRATE_DEVICE_MAX");
    if (!v || !*v)
        return 64LL << 20;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < (256LL << 10) || x > (1LL << 30))
        return -1;
    return x & ~3LL; /* whole floats for the reduction */
}

/* A GPU operation that must work, or the figures mean nothing: the job stops, saying which. */
static void device_check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "axon_calibrate: %s failed on the GPU\n", what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* The domain level with GPU buffers, when CUDA support is on and rank 0's NVLink domain holds another
 * rank of its machine: alpha and beta from rank 0's device ping-pong with the first such rank (8 bytes;
 * the slope between min(1 MiB, large/4) and large), launch from rank 0's 8-byte device-to-device
 * axon_cuda_copy (which waits for it), gamma from rank 0's MPI_Reduce_local of large bytes of floats on
 * two device buffers (a kernel, launch included: what one reduction of that size costs), and the
 * capacity from all those ranks exchanging large bytes in pairs at once, measured only when they all
 * use one GPU (their transfers then share its memory; on several GPUs each has its own, and the default
 * 0, no limit, stands). Every rank calls it; the figures are rank 0's. */
static void measure_domain(struct axon_coll_model *m, int large, struct domain_result *res)
{
    const struct axon_runtime_job *job = &axon_runtime_job;
    int me = job->rank, n = job->size;
    memset(res, 0, sizeof(*res));
    /* Each rank's GPU (PCI id) as MPI_Init exchanged it: -1 where CUDA support is off, so every rank
     * decides alike without a message. */
    long gpu0 = axon_runtime_topo_gpu_of(0);
    if (gpu0 < 0)
        return;
    int *dom = malloc(sizeof(int) * (size_t)n);
    if (!dom)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int ndom = 0;
    bool mine = false, same_gpu = true;
    for (int r = 0; r < n; r++)
        if (job->host_of_rank[r] == job->host_of_rank[0] && job->domain_of_rank[r] == job->domain_of_rank[0] &&
            axon_runtime_topo_gpu_of(r) >= 0) {
            dom[ndom++] = r;
            mine |= r == me;
            same_gpu &= axon_runtime_topo_gpu_of(r) == gpu0;
        }
    res->nranks = ndom;
    if (ndom < 2) {
        res->why_not = "no other rank of rank 0's NVLink domain on its machine";
        free(dom);
        return;
    }
    int device = mine ? axon_cuda_default_device() : -1, ok = 1;
    char *d1 = NULL, *d2 = NULL;
#if AXON_HAVE_CUDA_H
    bool pushed = false;
    /* The GPU's primary context current for the whole measurement, as an application's is while it
     * calls MPI: otherwise every copy and message would push and pop one, which they do not pay. */
    if (mine) {
        ok = axon_cuda_ctx_enter(device, &pushed) == MPI_SUCCESS;
        d1 = ok ? axon_cuda_scratch_get((size_t)large, device) : NULL;
        d2 = ok ? axon_cuda_scratch_get((size_t)large, device) : NULL;
        ok = d1 && d2;
    }
#else
    ok = !mine; /* unreachable: without cuda.h no rank has a GPU */
#endif
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) {
        res->why_not = "GPU memory refused";
    } else {
        int mid = large / 4 < (1 << 20) ? large / 4 : 1 << 20;
        measure_level(d1, dom[1], m->overhead, mid, large, &m->level[AXON_COLL_LEVEL_DOMAIN]);
        if (same_gpu) {
            double c = measure_capacity(d1, d2, large, dom, ndom);
            if (c > 0)
                m->level[AXON_COLL_LEVEL_DOMAIN].capacity = c;
            res->capacity = c > 0;
        } else {
            res->why_no_capacity = "the domain's ranks use different GPUs";
        }
        if (me == 0) {
            enum { LAUNCHES = 1000, ZERO = 1 << 20 };
            double l[REPS], g[REPS];
            device_check(axon_cuda_copy(d2, d1, 8, device), "an 8-byte copy"); /* warm-up */
            for (int r = 0; r < REPS; r++) {
                double t = MPI_Wtime();
                for (int i = 0; i < LAUNCHES; i++)
                    device_check(axon_cuda_copy(d2, d1, 8, device), "an 8-byte copy");
                l[r] = (MPI_Wtime() - t) / LAUNCHES;
            }
            m->level[AXON_COLL_LEVEL_DOMAIN].launch = median(l, REPS);
            /* Zeros (cuMemAlloc leaves garbage, and NaNs or denormals might cost the kernel): 0 + 0 stays 0
             * however often it runs. */
            char *zero = calloc(1, ZERO);
            if (!zero)
                MPI_Abort(MPI_COMM_WORLD, 1);
            for (int off = 0; off < large; off += ZERO) {
                size_t len = (size_t)(large - off < ZERO ? large - off : ZERO);
                device_check(axon_cuda_copy(d1 + off, zero, len, device), "a copy to the GPU");
                device_check(axon_cuda_copy(d2 + off, zero, len, device), "a copy to the GPU");
            }
            free(zero);
            int count = large / (int)sizeof(float);
            /* The first loads the kernels' module: not part of a reduction's cost. */
            device_check(MPI_Reduce_local(d1, d2, count, MPI_FLOAT, MPI_SUM), "MPI_Reduce_local");
            for (int r = 0; r < REPS; r++) {
                double t = MPI_Wtime();
                device_check(MPI_Reduce_local(d1, d2, count, MPI_FLOAT, MPI_SUM), "MPI_Reduce_local");
                g[r] = (MPI_Wtime() - t) / large;
            }
            m->level[AXON_COLL_LEVEL_DOMAIN].gamma = median(g, REPS);
            res->staged_gamma = !axon_cuda_reduce_available();
        }
        /* A small allreduce on GPU buffers, what a GPU call costs beyond its steps (every rank of the job
         * must hold GPU buffers: only when all of them are in this domain). Nonblocking, so that it runs
         * as a GPU schedule, what the model describes: a small blocking one is staged through the node's
         * shared memory instead. */
        if (ndom == n) {
            double t[REPS];
            for (int r = 0; r < REPS; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < 200; i++) {
                    MPI_Request req;
                    device_check(MPI_Iallreduce(d1, d2, 2, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &req),
                                 "an allreduce of GPU buffers");
                    device_check(MPI_Wait(&req, MPI_STATUS_IGNORE), "an allreduce of GPU buffers");
                }
                t[r] = (MPI_Wtime() - t0) / 200;
            }
            res->small = median(t, REPS);
        }
        res->measured = true;
    }
    if (d1)
        axon_cuda_scratch_put(d1, (size_t)large, device);
    if (d2)
        axon_cuda_scratch_put(d2, (size_t)large, device);
#if AXON_HAVE_CUDA_H
    axon_cuda_ctx_leave(pushed);
#endif
    free(dom);
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else {
            fprintf(stderr, "usage: mpirun -n N axon_calibrate [-o FILE]   (N >= 2; AXON_TOPO for several "
                            "nodes)\n");
            return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 2) {
        if (me == 0)
            fprintf(stderr, "axon_calibrate: needs 2 ranks or more (mpirun -n 2 axon_calibrate)\n");
        MPI_Finalize();
        return 2;
    }
    long long large_device = device_max();
    if (large_device < 0) {
        if (me == 0)
            fprintf(stderr, "axon_calibrate: AXON_CALIBRATE_DEVICE_MAX='%s' is not a byte count from 262144 to "
                            "1073741824\n", getenv("AXON_CALIBRATE_DEVICE_MAX"));
        MPI_Finalize();
        return 2;
    }
    const struct axon_runtime_job *job = &axon_runtime_job;
    int node_peer = -1, fabric_peer = -1, nlocal = 0, nhost = 0, nremote = 0;
    int *local = malloc(sizeof(int) * (size_t)n), *host = malloc(sizeof(int) * (size_t)n);
    int *remote = malloc(sizeof(int) * (size_t)n);
    if (!local || !host || !remote)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int r = 0; r < n; r++) {
        if (job->host_of_rank[r] == job->host_of_rank[0])
            host[nhost++] = r;
        if (job->node_of_rank[r] == job->node_of_rank[0]) {
            local[nlocal++] = r;
            if (r != 0 && node_peer < 0)
                node_peer = r;
        } else if (fabric_peer < 0) {
            fabric_peer = r;
        }
        if (fabric_peer >= 0 && job->node_of_rank[r] == job->node_of_rank[fabric_peer])
            remote[nremote++] = r;
    }
    enum { BIG = 4 * 1024 * 1024 };
    char *buf = calloc(1, BIG), *buf2 = calloc(1, BIG);
    float *fa = malloc(BIG), *fb = malloc(BIG);
    if (!local || !buf || !buf2 || !fa || !fb)
        MPI_Abort(MPI_COMM_WORLD, 1);
    struct axon_coll_model m;
    axon_coll_model_defaults(&m);
    int measured_peer = node_peer >= 0 ? node_peer : fabric_peer;
    m.overhead = measure_overhead(measured_peer);
    MPI_Bcast(&m.overhead, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (node_peer >= 0)
        measure_level(buf, node_peer, m.overhead, 64 * 1024, BIG, &m.level[AXON_COLL_LEVEL_NODE]);
    double fabric_alone = 0, fabric_together = 0;
    if (fabric_peer >= 0) {
        measure_level(buf, fabric_peer, m.overhead, 64 * 1024, BIG, &m.level[AXON_COLL_LEVEL_FABRIC]);
        /* The latency with every pair of the two nodes at once, where that is more: those messages share
         * the nodes' network stacks (and here their cores), which a lone pair has to itself. The
         * bandwidth stays the lone pair's: the simulator already shares a node's link among the
         * transfers on it. */
        fabric_alone = m.level[AXON_COLL_LEVEL_FABRIC].alpha;
        fabric_together = fabric_concurrent(buf, local, nlocal, remote, nremote) - 2 * m.overhead;
        if (fabric_together > fabric_alone)
            m.level[AXON_COLL_LEVEL_FABRIC].alpha = fabric_together;
    }
    double capacity = nlocal >= 2 ? measure_capacity(buf, buf2, BIG, local, nlocal) : 0;
    double host_capacity = nhost > nlocal && nhost >= 2 ? measure_capacity(buf, buf2, BIG, host, nhost) : 0;
    struct domain_result dom;
    measure_domain(&m, (int)large_device, &dom);
    double small = allreduce_small();
    if (me == 0) {
        double g[REPS], c[REPS];
        size_t count = BIG / sizeof(float);
        for (size_t i = 0; i < count; i++)
            fa[i] = fb[i] = 1.0f;
        for (int r = 0; r < REPS; r++) {
            double t = MPI_Wtime();
            MPI_Reduce_local(fa, fb, (int)count, MPI_FLOAT, MPI_SUM);
            g[r] = (MPI_Wtime() - t) / BIG;
            t = MPI_Wtime();
            memcpy(buf2, buf, BIG);
            __asm__ volatile("" : : "r"(buf2) : "memory");
            c[r] = (MPI_Wtime() - t) / BIG;
        }
        m.level[AXON_COLL_LEVEL_NODE].gamma = median(g, REPS);
        m.copy_beta = median(c, REPS);
        if (capacity > 0)
            m.level[AXON_COLL_LEVEL_NODE].capacity = capacity;
        m.host_capacity = host_capacity;
        if (axon_config.pt2pt_shm_max > 0)
            m.eager_max = axon_config.pt2pt_shm_max;
        m.call = measure_call(&m, small);
        if (dom.small > 0)
            m.level[AXON_COLL_LEVEL_DOMAIN].call = measure_device_call(&m, dom.small, n);
        FILE *out = path ? fopen(path, "w") : stdout;
        if (!out) {
            perror(path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        fprintf(out, "# axon_calibrate on %s: %d ranks, %d node(s)%s%s\n", job->hostname, n, job->num_nodes,
                job->topo[0] ? ", AXON_TOPO=" : "", job->topo);
        char domain[256] = "", kept[256] = "";
        if (dom.measured)
            snprintf(domain, sizeof(domain), "; domain alpha, beta, launch, gamma%s%s (GPU buffers, %d ranks of "
                     "rank 0's domain%s%s)", dom.capacity ? ", capacity" : "", dom.small > 0 ? ", call" : "",
                     dom.nranks, dom.capacity ? " on one GPU" : "",
                     dom.staged_gamma ? "; gamma staged through the host" : "");
        if (!dom.measured)
            snprintf(kept, sizeof(kept), "domain level%s%s%s", dom.why_not ? " (" : "", dom.why_not ? dom.why_not : "",
                     dom.why_not ? ")" : "");
        else if (!dom.capacity)
            snprintf(kept, sizeof(kept), "domain capacity (%s)",
                     dom.why_no_capacity ? dom.why_no_capacity : "no pair measured");
        size_t len = strlen(kept);
        if (fabric_peer < 0)
            snprintf(kept + len, sizeof(kept) - len, "%sfabric level (one node)", len ? ", " : "");
        fprintf(out, "# measured: node alpha, beta, gamma%s; overhead, copy_beta, eager_max, call%s%s%s\n",
                capacity > 0 ? ", capacity" : " (capacity: the default, one rank on node 0)",
                fabric_peer >= 0 ? "; fabric alpha, beta" : "",
                host_capacity > 0 ? "; host capacity (synthetic nodes of one machine)" : "", domain);
        fprintf(out, "# defaults kept: %s\n", kept[0] ? kept : "none");
        if (fabric_together > 0)
            fprintf(out, "# fabric alpha: %.3g us for a lone pair, %.3g us with node 0's ranks all at once (the "
                         "larger is kept)\n", fabric_alone * 1e6, fabric_together * 1e6);
        axon_coll_model_print(&m, out);
        if (path)
            fclose(out);
    }
    free(local);
    free(host);
    free(remote);
    free(buf);
    free(buf2);
    free(fa);
    free(fb);
    MPI_Finalize();
    return 0;
}
