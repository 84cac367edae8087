/* What the collective benchmarks share (bench/osu_style_<collective>.c, the blocking latency tests,
 * and bench/osu_style_i<collective>.c, the nonblocking overlap tests). Each program only names its
 * collective (struct osu_coll_desc: title, element type, buffer shapes, and a function that calls it);
 * this header owns everything else: OSU's options and defaults, the buffers, the measuring loops, the
 * statistics over the ranks and the printing, so no two programs repeat a loop.
 *
 * The method is OSU Micro-Benchmarks 7's (osu_allreduce, osu_iallreduce ...), written here:
 * - Blocking: for each size, after a barrier, every rank times each call alone (MPI_Wtime around it) and
 *   a barrier follows each call (none for the barrier test itself); a rank's latency is its average
 *   over the timed calls, and rank 0 prints the average of the ranks' latencies, with -f also the
 *   minimum, the maximum and the iteration count.
 * - Nonblocking: first the pure communication time, start + MPI_Wait timed as above. Then each call is
 *   started, the rank computes (no MPI) for that pure time, and waits: Overall is start to end of the
 *   wait, Compute the computing alone. With -t N the compute is cut into N pieces with an MPI_Test after
 *   each, whose time is counted apart. Every figure is the average over the ranks (-f adds the start,
 *   test and wait times and the minimum and maximum pure time), and
 *   Overlap(%) = max(0, 100 - 100 * (Overall - Compute) / Pure Comm.):
 *   100 when the collective cost nothing beyond the computation, 0 when none of it overlapped.
 * Sizes double from MIN (default 4 bytes) to MAX (default 1 MiB); sizes above 8 KiB get OSU's "large"
 * counts (100 timed calls and 10 warm-up calls instead of 1000 and 100); -i and -x set the count for
 * every size. Reductions sum MPI_FLOAT elements (sizes below 4 bytes are skipped, as OSU skips sizes
 * smaller than one element); the other collectives move MPI_CHAR. The root is rank 0.
 *
 * Plain MPI-3, all static inline, so each program builds from its one .c file with any MPI's wrapper
 * (bench/compare: Axon's mpicc, mpicc.openmpi, mpicc.mpich). */
#ifndef OSU_STYLE_COLL_COMMON_H
#define OSU_STYLE_COLL_COMMON_H

#include "osu_style_common.h"

enum {
    OSU_COLL_ITERS = 1000, OSU_COLL_WARMUP = 100,           /* OSU's COLL_LOOP_SMALL, COLL_SKIP_SMALL */
    OSU_COLL_ITERS_LARGE = 100, OSU_COLL_WARMUP_LARGE = 10, /* above OSU_LARGE bytes */
    OSU_COLL_MIN = 4, OSU_COLL_MAX = 1 << 20,
    OSU_COLL_PER_RANK = -1 /* a buffer of one block per rank (struct osu_coll_desc) */
};

struct osu_coll;

struct osu_coll_desc {
    const char *program;   /* "osu_style_allreduce" */
    const char *title;     /* "Allreduce": "# OSU-style MPI Allreduce Latency Test" */
    MPI_Datatype type;     /* of the elements; MPI_DATATYPE_NULL for a collective without data */
    const char *type_name; /* "MPI_FLOAT" */
    /* How many blocks of the size being measured the send and receive buffers hold: 1, or
     * OSU_COLL_PER_RANK. */
    int send_blocks, recv_blocks;
    /* One of the two: a blocking call, or the start of a nonblocking one (count elements each). */
    void (*call)(struct osu_coll *c, int count);
    void (*start)(struct osu_coll *c, int count, MPI_Request *req);
};

struct osu_coll {
    const struct osu_coll_desc *d;
    int rank, nranks;
    long min, max;
    int iters, iters_large, warmup, warmup_large;
    int full;   /* -f */
    int tests;  /* -t: MPI_Test calls during each computation (nonblocking tests; default 0, as OSU) */
    int type_size;
    enum osu_memory mem; /* -d host|cuda */
    void *sbuf, *rbuf;
    int *counts; /* Reduce_scatter: the elements each rank gets, for the current count */
};

/* MPI_Init, the options (-m [MIN:]MAX, -i, -x, -f, -h, and -t for the nonblocking tests) and the
 * buffers. A bad option prints the usage to stderr and exits with 1, -h prints it to stdout and exits
 * with 0 (both after MPI_Finalize); fewer than 2 ranks prints OSU's message and exits with 1. A test
 * without data (the barriers) takes -m and ignores it, so one set of arguments suits every program. */
static inline void osu_coll_init(struct osu_coll *c, const struct osu_coll_desc *d, int *argc, char ***argv)
{
    int opt, bad = 0, nonblocking = d->start != NULL;
    const char *optstring = nonblocking ? "m:i:x:t:d:fh" : "m:i:x:d:fh";
    memset(c, 0, sizeof *c);
    c->d = d;
    c->min = OSU_COLL_MIN;
    c->max = OSU_COLL_MAX;
    c->iters = OSU_COLL_ITERS;
    c->warmup = OSU_COLL_WARMUP;
    c->iters_large = OSU_COLL_ITERS_LARGE;
    c->warmup_large = OSU_COLL_WARMUP_LARGE;
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c->nranks);
    while ((opt = getopt(*argc, *argv, optstring)) != -1) {
        if (opt == 'm')
            bad |= !osu_parse_sizes(optarg, &c->min, &c->max);
        else if (opt == 'i')
            c->iters = c->iters_large = atoi(optarg);
        else if (opt == 'x')
            c->warmup = c->warmup_large = atoi(optarg);
        else if (opt == 't')
            c->tests = atoi(optarg);
        else if (opt == 'd')
            bad |= !osu_parse_memory(optarg, &c->mem);
        else if (opt == 'f')
            c->full = 1;
        else
            bad = 1 + (opt == 'h');
    }
    if (bad || optind < *argc || c->min < 0 || c->max < c->min || c->max > 1L << 30 || c->iters < 1 ||
        c->warmup < 0 || c->tests < 0) {
        if (c->rank == 0)
            fprintf(bad == 2 ? stdout : stderr,
                    "usage: %s [-m [MIN:]MAX] [-i iterations] [-x warmup]%s [-d host|cuda] [-f]\n"
                    "  -m  sizes in bytes, doubling from MIN (default %d) to MAX (default %d)%s\n"
                    "  -i  timed calls per size (default %d, %d above %d bytes)\n"
                    "  -x  warm-up calls per size (default %d, %d above %d bytes)\n"
                    "%s"
                    "  -d  buffers in host (default) or GPU memory\n"
                    "  -f  full statistics: %s\n",
                    d->program, nonblocking ? " [-t tests]" : "", OSU_COLL_MIN, OSU_COLL_MAX,
                    d->type == MPI_DATATYPE_NULL ? "; ignored: no data" : "", OSU_COLL_ITERS,
                    OSU_COLL_ITERS_LARGE, OSU_LARGE, OSU_COLL_WARMUP, OSU_COLL_WARMUP_LARGE, OSU_LARGE,
                    nonblocking ? "  -t  MPI_Test calls spread over each computation (default 0)\n" : "",
                    nonblocking ? "start, test and wait times, minimum and maximum pure communication"
                                : "minimum and maximum latency over the ranks, iterations");
        MPI_Finalize();
        exit(bad == 2 ? 0 : 1);
    }
    if (c->nranks < 2) {
        if (c->rank == 0)
            fprintf(stderr, "This test requires at least two processes\n");
        MPI_Finalize();
        exit(1);
    }

    c->type_size = 1;
    if (d->type != MPI_DATATYPE_NULL)
        MPI_Type_size(d->type, &c->type_size);
    size_t sbytes = (size_t)c->max * (size_t)(d->send_blocks == OSU_COLL_PER_RANK ? c->nranks : 1);
    size_t rbytes = (size_t)c->max * (size_t)(d->recv_blocks == OSU_COLL_PER_RANK ? c->nranks : 1);
    /* At least one element, so that the buffers are never NULL. */
    sbytes = sbytes < 64 ? 64 : sbytes;
    rbytes = rbytes < 64 ? 64 : rbytes;
    c->counts = malloc(sizeof(int) * (size_t)c->nranks);
    c->sbuf = osu_buffer_alloc(c->mem, sbytes);
    c->rbuf = osu_buffer_alloc(c->mem, rbytes);
    char *ones = malloc(sbytes);
    if (!c->counts || !c->sbuf || !c->rbuf || !ones) {
        fprintf(stderr, "%s: out of memory\n", d->program);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* Ones, as floats: sums of them stay exact and never reach denormals or infinities. */
    memset(ones, 0, sbytes);
    for (size_t i = 0; i + sizeof(float) <= sbytes; i += sizeof(float)) {
        float one = 1.0f;
        memcpy(ones + i, &one, sizeof one);
    }
    osu_buffer_write(c->mem, c->sbuf, ones, sbytes);
    free(ones);
    osu_buffer_set(c->mem, c->rbuf, 0, rbytes);
}

/* Frees what osu_coll_init took and calls MPI_Finalize. */
static inline void osu_coll_finish(struct osu_coll *c)
{
    free(c->counts);
    osu_buffer_free(c->mem, c->sbuf);
    osu_buffer_free(c->mem, c->rbuf);
    MPI_Finalize();
}

/* Reduce_scatter's share of count elements, as OSU splits it: count / nranks each, the first
 * count % nranks ranks one more (with fewer elements than ranks, one each to the first ranks). */
static inline void osu_coll_split(struct osu_coll *c, int count)
{
    for (int r = 0; r < c->nranks; r++)
        c->counts[r] = count / c->nranks + (r < count % c->nranks);
}

/* ---- printing (rank 0) ---------------------------------------------------------------------------- */

/* OSU's column width. */
enum { OSU_COLL_FIELD = 20 };

/* The title line, the datatype, and for the nonblocking tests OSU's line that says what Overall is. */
static inline void osu_coll_print_preamble(const struct osu_coll *c)
{
    if (c->rank != 0)
        return;
    printf("# OSU-style MPI %s%s Latency Test\n", c->d->start ? "Non-blocking " : "", c->d->title);
    if (c->d->type != MPI_DATATYPE_NULL)
        printf("# Datatype: %s.\n", c->d->type_name);
    if (c->d->start)
        printf("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n");
}

/* The column names. Without data there is no size column, and the first name takes its place after
 * "# ", as in OSU's barrier tests. */
static inline void osu_coll_print_header(const struct osu_coll *c, int ncols, const char *const *names)
{
    if (c->rank != 0)
        return;
    if (c->d->type != MPI_DATATYPE_NULL)
        printf("%-10s%*s", "# Size", OSU_COLL_FIELD, names[0]);
    else
        printf("# %s", names[0]);
    for (int i = 1; i < ncols; i++)
        printf("%*s", strcmp(names[i], "Iterations") == 0 ? 12 : OSU_COLL_FIELD, names[i]);
    printf("\n");
    fflush(stdout);
}

/* A row: the size (none without data), the values, and with iterations > 0 an Iterations column. */
static inline void osu_coll_print_row(const struct osu_coll *c, long size, int nvalues, const double *values,
                                      int iterations)
{
    if (c->rank != 0)
        return;
    if (c->d->type != MPI_DATATYPE_NULL)
        printf("%-10ld%*.2f", size, OSU_COLL_FIELD, values[0]);
    else
        printf("%17.2f", values[0]);
    for (int i = 1; i < nvalues; i++)
        printf("%*.2f", OSU_COLL_FIELD, values[i]);
    if (iterations > 0)
        printf("%12d", iterations);
    printf("\n");
    fflush(stdout);
}

/* ---- the sizes ------------------------------------------------------------------------------------- */

/* The sizes to measure, in order; a collective without data has one pass (size 0). Returns 0 at the
 * end. Sizes smaller than one element are skipped. */
static inline int osu_coll_next(const struct osu_coll *c, long *size, int *first)
{
    if (c->d->type == MPI_DATATYPE_NULL) {
        int go = *first;
        *first = 0;
        *size = 0;
        return go;
    }
    *size = *first ? c->min : osu_next_size(*size);
    *first = 0;
    while (*size <= c->max && *size / c->type_size == 0)
        *size = osu_next_size(*size);
    return *size <= c->max;
}

/* OSU's counts: the large ones above 8 KiB, and always for the nonblocking barrier. */
static inline int osu_coll_iters(const struct osu_coll *c, long size)
{
    int large = size > OSU_LARGE || (c->d->type == MPI_DATATYPE_NULL && c->d->start);
    return large ? c->iters_large : c->iters;
}

static inline int osu_coll_warmup(const struct osu_coll *c, long size)
{
    int large = size > OSU_LARGE || (c->d->type == MPI_DATATYPE_NULL && c->d->start);
    return large ? c->warmup_large : c->warmup;
}

/* ---- blocking latency ------------------------------------------------------------------------------ */

/* The whole blocking test: for each size, the calls timed one by one, then the average, minimum and
 * maximum over the ranks of their average latencies. */
static inline int osu_coll_blocking_main(const struct osu_coll_desc *d, int argc, char **argv)
{
    static const char *const names[] = {"Avg Latency(us)", "Min Latency(us)", "Max Latency(us)",
                                        "Iterations"};
    struct osu_coll c;
    long size = 0;
    int first = 1;
    osu_coll_init(&c, d, &argc, &argv);
    osu_coll_print_preamble(&c);
    osu_coll_print_header(&c, c.full ? 4 : 1, names);
    int sync_each = d->type != MPI_DATATYPE_NULL; /* OSU's barrier test has no barrier between calls */
    while (osu_coll_next(&c, &size, &first)) {
        int count = (int)(size / c.type_size), it = osu_coll_iters(&c, size), wu = osu_coll_warmup(&c, size);
        double timer = 0, lat, lat_min, lat_max, lat_sum;
        osu_coll_split(&c, count);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < it + wu; i++) {
            double t0 = MPI_Wtime();
            d->call(&c, count);
            double t1 = MPI_Wtime();
            if (sync_each)
                MPI_Barrier(MPI_COMM_WORLD);
            if (i >= wu)
                timer += t1 - t0;
        }
        if (!sync_each)
            MPI_Barrier(MPI_COMM_WORLD);
        lat = timer * 1e6 / it;
        MPI_Reduce(&lat, &lat_min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&lat, &lat_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&lat, &lat_sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        double values[3] = {lat_sum / c.nranks, lat_min, lat_max};
        osu_coll_print_row(&c, size, c.full ? 3 : 1, values, c.full ? it : 0);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    osu_coll_finish(&c);
    return 0;
}

/* ---- nonblocking overlap --------------------------------------------------------------------------- */

/* The computation the overlap tests run while a collective is in flight: a small matrix-vector product
 * that stays in the L1 cache and calls no MPI. The result goes to a volatile, so the compiler keeps the
 * work. */
enum { OSU_COLL_DIM = 32 };
static float osu_coll_matrix[OSU_COLL_DIM][OSU_COLL_DIM], osu_coll_vector[OSU_COLL_DIM];
static volatile float osu_coll_sink;

static inline void osu_coll_compute_once(void)
{
    float next[OSU_COLL_DIM];
    for (int i = 0; i < OSU_COLL_DIM; i++) {
        float s = 0;
        for (int j = 0; j < OSU_COLL_DIM; j++)
            s += osu_coll_matrix[i][j] * osu_coll_vector[j];
        next[i] = s;
    }
    /* The matrix holds 1/DIM everywhere, so the vector keeps its average and never grows. */
    memcpy(osu_coll_vector, next, sizeof next);
    osu_coll_sink = osu_coll_vector[0];
}

/* Computes for at least `seconds`, counting only the time spent computing, as OSU's dummy compute. */
static inline void osu_coll_compute(double seconds)
{
    double elapsed = 0;
    while (elapsed < seconds) {
        double t0 = MPI_Wtime();
        osu_coll_compute_once();
        elapsed += MPI_Wtime() - t0;
    }
}

/* Computes for `seconds` in all, with `tests` MPI_Test calls in between (after each share, as OSU does);
 * returns the time the tests took. */
static inline double osu_coll_compute_and_test(const struct osu_coll *c, double seconds, MPI_Request *req)
{
    double test_time = 0;
    int flag;
    if (c->tests == 0) {
        osu_coll_compute(seconds);
        return 0;
    }
    for (int i = 0; i < c->tests; i++) {
        osu_coll_compute(seconds / c->tests);
        double t0 = MPI_Wtime();
        MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        test_time += MPI_Wtime() - t0;
    }
    return test_time;
}

/* The sum over the ranks of each of n values, to rank 0. */
static inline void osu_coll_sum(const struct osu_coll *c, double *values, int n)
{
    MPI_Reduce(c->rank == 0 ? MPI_IN_PLACE : values, values, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}

/* The whole nonblocking test: for each size, the pure communication time, then the overlapped run. */
static inline int osu_coll_nonblocking_main(const struct osu_coll_desc *d, int argc, char **argv)
{
    static const char *const short_names[] = {"Overall(us)", "Compute(us)", "Pure Comm.(us)", "Overlap(%)"};
    static const char *const full_names[] = {"Overall(us)", "Compute(us)", "Coll. Init(us)", "MPI_Test(us)",
                                             "MPI_Wait(us)", "Pure Comm.(us)", "Min Comm.(us)",
                                             "Max Comm.(us)", "Overlap(%)"};
    struct osu_coll c;
    long size = 0;
    int first = 1;
    osu_coll_init(&c, d, &argc, &argv);
    for (int i = 0; i < OSU_COLL_DIM; i++) {
        osu_coll_vector[i] = 1.0f;
        for (int j = 0; j < OSU_COLL_DIM; j++)
            osu_coll_matrix[i][j] = 1.0f / OSU_COLL_DIM;
    }
    osu_coll_print_preamble(&c);
    osu_coll_print_header(&c, c.full ? 9 : 4, c.full ? full_names : short_names);
    /* OSU's nonblocking barrier test has no barrier between its pure-communication calls. */
    int sync_each = d->type != MPI_DATATYPE_NULL;
    while (osu_coll_next(&c, &size, &first)) {
        int count = (int)(size / c.type_size), it = osu_coll_iters(&c, size), wu = osu_coll_warmup(&c, size);
        MPI_Request req;
        double timer = 0;
        osu_coll_split(&c, count);
        MPI_Barrier(MPI_COMM_WORLD);

        /* 1. Pure communication: start and wait at once. */
        for (int i = 0; i < it + wu; i++) {
            double t0 = MPI_Wtime();
            d->start(&c, count, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            double t1 = MPI_Wtime();
            if (sync_each)
                MPI_Barrier(MPI_COMM_WORLD);
            if (i >= wu)
                timer += t1 - t0;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double pure = timer / it; /* seconds: how long each rank computes below */
        MPI_Barrier(MPI_COMM_WORLD);

        /* 2. Start, compute for the pure time, wait. */
        double overall = 0, init = 0, compute = 0, test = 0, wait = 0;
        for (int i = 0; i < it + wu; i++) {
            double t0 = MPI_Wtime();
            d->start(&c, count, &req);
            double t1 = MPI_Wtime();
            double tested = osu_coll_compute_and_test(&c, pure, &req);
            double t2 = MPI_Wtime();
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            double t3 = MPI_Wtime();
            MPI_Barrier(MPI_COMM_WORLD);
            if (i >= wu) {
                overall += t3 - t0;
                init += t1 - t0;
                compute += t2 - t1; /* with the tests; they are taken out below */
                test += tested;
                wait += t3 - t2;
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);

        /* 3. Averages over the ranks, in microseconds per call. */
        double scale = 1e6 / it, pure_us = pure * 1e6, pure_min, pure_max;
        double sums[6] = {overall * scale, compute * scale, init * scale, test * scale, wait * scale,
                          pure_us};
        osu_coll_sum(&c, sums, 6);
        MPI_Reduce(&pure_us, &pure_min, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&pure_us, &pure_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        for (int i = 0; i < 6; i++)
            sums[i] /= c.nranks;
        double o = sums[0], cpu = sums[1] - sums[3], comm = sums[5];
        double overlap = comm > 0 ? 100 - (o - cpu) / comm * 100 : 0;
        overlap = overlap < 0 ? 0 : overlap;
        if (c.full) {
            double values[9] = {o, cpu, sums[2], sums[3], sums[4], comm, pure_min, pure_max, overlap};
            osu_coll_print_row(&c, size, 9, values, 0);
        } else {
            double values[4] = {o, cpu, comm, overlap};
            osu_coll_print_row(&c, size, 4, values, 0);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    osu_coll_finish(&c);
    return 0;
}

#endif
