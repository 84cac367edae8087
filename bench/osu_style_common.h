/* What the osu_style_*.c programs share: their options (-m [MIN:]MAX, -i, -x, -W, -p, -d, -h) and OSU's
 * default counts, the usage message, the buffers, the zero-byte handshake they use instead of
 * MPI_Barrier, the sizes they step through, the gathering of per-rank results to rank 0 and the
 * printing of the header and rows. Each program keeps its own measuring loop. Plain MPI-1
 * point-to-point calls only, all static inline, so that each program still builds from its one .c
 * file with any MPI's wrapper (bench/compare: Axon's mpicc, mpicc.openmpi, mpicc.mpich). */
#ifndef OSU_STYLE_COMMON_H
#define OSU_STYLE_COMMON_H

#include "osu_style_device.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Sizes above OSU_LARGE bytes get the "large" iteration and warm-up counts. The programs' own tags
 * stay below OSU_TAG_SYNC. */
enum { OSU_TAG_SYNC = 102, OSU_TAG_RESULT = 103, OSU_LARGE = 8192 };

/* The kind of test, which picks OSU's defaults, and the options beyond -m, -i, -x and -h. */
enum { OSU_LATENCY_TEST, OSU_BANDWIDTH_TEST };
enum { OSU_OPT_WINDOW = 1, OSU_OPT_PAIRS = 2 };

/* How osu_collect combines the ranks' values. */
enum { OSU_SUM, OSU_MAX };

struct osu_bench {
    const char *name;
    int rank, nranks;
    long min, max;
    int iters, iters_large, warmup, warmup_large;
    int window; /* -W, default 64 */
    int pairs;  /* -p, default half the ranks (rounded down) */
    enum osu_memory mem; /* -d host|cuda: where the buffers are */
    char *sbuf, *rbuf;
    MPI_Request *req;
    /* Statuses rather than MPI_STATUSES_IGNORE, as in OSU: with MPICH's header, gcc warns about it. */
    MPI_Status *statuses;
};

/* "MAX", "MIN:MAX", "MIN:" or ":MAX"; returns 0 when the text is not one of these. */
static inline int osu_parse_sizes(const char *arg, long *min, long *max)
{
    char *end;
    const char *colon = strchr(arg, ':');
    if (!colon) {
        *max = strtol(arg, &end, 10);
        return end != arg && *end == '\0';
    }
    if (colon != arg) {
        *min = strtol(arg, &end, 10);
        if (end != colon)
            return 0;
    }
    if (colon[1] != '\0') {
        *max = strtol(colon + 1, &end, 10);
        if (*end != '\0')
            return 0;
    }
    return 1;
}

/* MPI_Init, then the options (`options`: OSU_OPT_WINDOW for -W, OSU_OPT_PAIRS for -p) with OSU's
 * defaults for the kind of test. A bad option or value prints the usage to stderr and exits with 1,
 * -h prints it to stdout and exits with 0 (both after MPI_Finalize); fewer than 2 ranks is an abort
 * (with -p, a usage error). */
static inline void osu_init(struct osu_bench *b, int *argc, char ***argv, const char *name, int kind,
                            int options)
{
    int latency = kind == OSU_LATENCY_TEST, opt, bad = 0;
    char optstring[16] = "m:i:x:d:";
    memset(b, 0, sizeof *b);
    b->name = name;
    b->min = latency ? 0 : 1;
    b->max = 1L << 22;
    b->iters = latency ? 10000 : 100;
    b->iters_large = latency ? 1000 : 20;
    b->warmup = latency ? 100 : 10;
    b->warmup_large = latency ? 10 : 2;
    b->window = 64;
    if (options & OSU_OPT_WINDOW)
        strcat(optstring, "W:");
    if (options & OSU_OPT_PAIRS)
        strcat(optstring, "p:");
    strcat(optstring, "h");
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->nranks);
    while ((opt = getopt(*argc, *argv, optstring)) != -1) {
        if (opt == 'm')
            bad |= !osu_parse_sizes(optarg, &b->min, &b->max);
        else if (opt == 'i')
            b->iters = b->iters_large = atoi(optarg);
        else if (opt == 'x')
            b->warmup = b->warmup_large = atoi(optarg);
        else if (opt == 'd')
            bad |= !osu_parse_memory(optarg, &b->mem);
        else if (opt == 'W')
            b->window = atoi(optarg);
        else if (opt == 'p')
            b->pairs = atoi(optarg);
        else
            bad = 1 + (opt == 'h');
    }
    if (b->pairs == 0)
        b->pairs = b->nranks / 2;
    if (bad || b->min < 0 || b->max < b->min || b->max > 1L << 30 || b->iters < 1 || b->warmup < 0 ||
        b->window < 1 || ((options & OSU_OPT_PAIRS) && (b->pairs < 1 || b->pairs > b->nranks / 2))) {
        if (b->rank == 0)
            fprintf(bad == 2 ? stdout : stderr,
                    "usage: %s [-m [MIN:]MAX] [-i iterations] [-x warmup] [-d host|cuda]%s%s\n", name,
                    options & OSU_OPT_WINDOW ? " [-W window]" : "",
                    options & OSU_OPT_PAIRS
                        ? " [-p pairs]\n(at least 2 ranks; pairs at most half the ranks)"
                        : "");
        MPI_Finalize();
        exit(bad == 2 ? 0 : 1);
    }
    if (b->nranks < 2) {
        if (b->rank == 0)
            fprintf(stderr, "%s needs at least 2 ranks\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* The send and receive buffers, page-aligned, of the largest size but at least `least` bytes, and
 * nreq requests and statuses. */
static inline void osu_alloc(struct osu_bench *b, size_t least, int nreq)
{
    size_t bytes = (size_t)b->max < least ? least : (size_t)b->max;
    if (nreq > 0) {
        b->req = malloc(sizeof(MPI_Request) * (size_t)nreq);
        b->statuses = malloc(sizeof(MPI_Status) * (size_t)nreq);
    }
    b->sbuf = osu_buffer_alloc(b->mem, bytes);
    b->rbuf = osu_buffer_alloc(b->mem, bytes);
    if (!b->sbuf || !b->rbuf || (nreq > 0 && (!b->req || !b->statuses))) {
        fprintf(stderr, "%s: out of memory\n", b->name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    osu_buffer_set(b->mem, b->sbuf, 'a', bytes);
    osu_buffer_set(b->mem, b->rbuf, 'b', bytes);
}

/* Frees what osu_alloc took and calls MPI_Finalize. */
static inline void osu_finish(struct osu_bench *b)
{
    free(b->req);
    free(b->statuses);
    osu_buffer_free(b->mem, b->sbuf);
    osu_buffer_free(b->mem, b->rbuf);
    MPI_Finalize();
}

/* The sizes: MIN, then doubling up to MAX (0 is followed by 1). */
static inline long osu_next_size(long n)
{
    return n ? n * 2 : 1;
}

/* The iteration and warm-up counts for size n. */
static inline int osu_iters(const struct osu_bench *b, long n)
{
    return n > OSU_LARGE ? b->iters_large : b->iters;
}

static inline int osu_warmup(const struct osu_bench *b, long n)
{
    return n > OSU_LARGE ? b->warmup_large : b->warmup;
}

/* A barrier over ranks 0..n-1 out of point-to-point calls: everyone checks in with rank 0 by a
 * zero-byte message and leaves when rank 0 has heard from all and answers. */
static inline void osu_sync(int rank, int n)
{
    char out = 0, in = 0;
    if (rank >= n)
        return;
    if (rank == 0) {
        for (int r = 1; r < n; r++)
            MPI_Recv(&in, 0, MPI_CHAR, r, OSU_TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 1; r < n; r++)
            MPI_Send(&out, 0, MPI_CHAR, r, OSU_TAG_SYNC, MPI_COMM_WORLD);
    } else {
        MPI_Sendrecv(&out, 0, MPI_CHAR, 0, OSU_TAG_SYNC, &in, 0, MPI_CHAR, 0, OSU_TAG_SYNC,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* For the tests where all ranks take part in OSU's two barriers of a size, the one before it and the
 * one after its warm-up: the first, and for a rank that runs no loop (active == 0) the second too.
 * The ranks that run the loop call osu_sync at its end of warm-up themselves. */
static inline void osu_start_size(const struct osu_bench *b, int active)
{
    osu_sync(b->rank, b->nranks);
    if (!active)
        osu_sync(b->rank, b->nranks); /* the one after the warm-up */
}

/* A reduction to rank 0 out of sends: ranks 1..n-1 send `mine` to rank 0, which returns the sum or
 * the maximum (how) of its own and theirs, taken in rank order; other ranks get `mine` back. */
static inline double osu_collect(int rank, int n, double mine, int how)
{
    double all = mine, other;
    if (rank == 0) {
        for (int r = 1; r < n; r++) {
            MPI_Recv(&other, 1, MPI_DOUBLE, r, OSU_TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (how == OSU_SUM)
                all += other;
            else if (other > all)
                all = other;
        }
    } else if (rank < n) {
        MPI_Send(&mine, 1, MPI_DOUBLE, 0, OSU_TAG_RESULT, MPI_COMM_WORLD);
    }
    return all;
}

/* On rank 0, OSU's header: the title line, the pairs and window when asked for (OSU_OPT_PAIRS,
 * OSU_OPT_WINDOW), and the column names, "# Size" and ncols more. */
static inline void osu_print_header(const struct osu_bench *b, const char *title, int show, int ncols,
                                    ...)
{
    va_list ap;
    if (b->rank != 0)
        return;
    printf("# OSU-style MPI %s test\n", title);
    if (show) {
        printf("#");
        if (show & OSU_OPT_PAIRS)
            printf(" [ pairs: %d ]", b->pairs);
        if (show & OSU_OPT_WINDOW)
            printf(" [ window size: %d ]", b->window);
        printf("\n");
    }
    printf("%-10s", "# Size");
    va_start(ap, ncols);
    for (int c = 0; c < ncols; c++)
        printf("%18s", va_arg(ap, const char *));
    va_end(ap);
    printf("\n");
}

/* A row: the size, then nvalues doubles. */
static inline void osu_print_row(long n, int nvalues, ...)
{
    va_list ap;
    printf("%-10ld", n);
    va_start(ap, nvalues);
    for (int c = 0; c < nvalues; c++)
        printf("%18.2f", va_arg(ap, double));
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

#endif
