/* axon_sim: predicts the time and bus bandwidth of a collective on a described machine, by simulating
 * the schedules Axon's own algorithms build for every rank (coll/axon_coll_simulate.h) under the cost
 * model (coll/axon_coll_model.h: defaults, or a tuning file). This file owns the command line and the
 * table it prints; the engine does the rest.
 *
 *   axon_sim --topo nodes=4,ranks_per_node=4 --coll allreduce --alg auto|<name>|all --sizes 8:16m
 *            [--model FILE] [--memory host|device] [--max-steps N] [--print-model] */
#include "coll/axon_coll_model.h"
#include "coll/axon_coll_simulate.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Beyond this many steps (all ranks) a simulation is skipped: 16 bytes a step, and tens of seconds
 * of one core. */
#define AXON_SIM_MAX_STEPS ((int64_t)50 * 1000 * 1000)
enum { AXON_SIM_MAX_SIZES = 64 };

static void axon_sim_usage(FILE *out)
{
    fprintf(out,
            "usage: axon_sim --topo SPEC --coll NAME [--alg auto|NAME|all] [--sizes LIST] [--model FILE]\n"
            "                [--memory host|device] [--max-steps N] [--print-model]\n"
            "Predicts a collective's time and bus bandwidth by simulating the schedules Axon builds for\n"
            "every rank of the described machine.\n"
            "  --topo SPEC      %s\n"
            "  --coll NAME      barrier, bcast, reduce, allreduce, allgather, alltoall, reduce_scatter\n"
            "  --alg A          auto (the selection's choice, default), an algorithm (axon_info lists them),\n"
            "                   or all (each, * marking the selection's choice)\n"
            "  --sizes LIST     sizes in bytes as NCCL's tests count them: MIN:MAX (powers of two from MIN),\n"
            "                   or S1,S2,...; k, m, g suffixes are KiB, MiB, GiB (default 8:16m)\n"
            "  --model FILE     a tuning file of `key = value` lines over the defaults (--print-model shows\n"
            "                   every key)\n"
            "  --memory M       host (default) or device buffers: device messages inside a domain cost\n"
            "                   the domain level, and reductions its gamma\n"
            "  --max-steps N    skip an algorithm whose estimated steps (all ranks) exceed N (default %lld;\n"
            "                   0: no limit)\n"
            "  --print-model    print the model in the tuning file's form and exit\n",
            AXON_RUNTIME_TOPO_FORM, (long long)AXON_SIM_MAX_STEPS);
}

/* A size with an optional k, m or g suffix; -1 when malformed. */
static int64_t axon_sim_size(const char *p, const char *end)
{
    char buf[32];
    if (end - p <= 0 || end - p >= (long)sizeof(buf))
        return -1;
    memcpy(buf, p, (size_t)(end - p));
    buf[end - p] = 0;
    char *q;
    errno = 0;
    long long v = strtoll(buf, &q, 10);
    if (q == buf || errno || v < 0)
        return -1;
    int shift = 0;
    if (*q == 'k' || *q == 'K')
        shift = 10;
    else if (*q == 'm' || *q == 'M')
        shift = 20;
    else if (*q == 'g' || *q == 'G')
        shift = 30;
    if (shift)
        q++;
    if (*q || v > (INT64_MAX >> shift))
        return -1;
    return (int64_t)v << shift;
}

/* The sizes of --sizes; their number, or -1 when malformed. */
static int axon_sim_sizes(const char *text, int64_t *sizes)
{
    const char *colon = strchr(text, ':');
    int n = 0;
    if (colon) {
        int64_t lo = axon_sim_size(text, colon), hi = axon_sim_size(colon + 1, colon + strlen(colon));
        if (lo < 0 || hi < lo)
            return -1;
        for (int64_t s = lo; s <= hi && n < AXON_SIM_MAX_SIZES; s = s ? s * 2 : 1)
            sizes[n++] = s;
        return n;
    }
    for (const char *p = text;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        int64_t s = axon_sim_size(p, end);
        if (s < 0 || n == AXON_SIM_MAX_SIZES)
            return -1;
        sizes[n++] = s;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static double axon_sim_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Simulates one algorithm at one size and prints its line; false when the engine failed. */
static bool axon_sim_line(const struct axon_runtime_topo_spec *topo, const struct axon_coll_model *m,
                          const struct axon_coll_sim_opts *opts, struct axon_coll_sim_call *call, int chosen)
{
    const struct axon_coll_desc *d = axon_coll_desc_of(call->kind);
    int n = (int)axon_runtime_topo_spec_ranks(topo);
    struct axon_coll_sim_result res = {0};
    double t0 = axon_sim_now();
    int rc = axon_coll_simulate(topo, m, call, opts, &res);
    double wall = axon_sim_now() - t0;
    int64_t size = axon_coll_sim_size(call, n);
    char name[64];
    if (call->alg >= 0 && res.alg != call->alg) /* it does not apply to this call: the selection's runs */
        snprintf(name, sizeof(name), "%s(->%s)", d->algs[call->alg].name, d->algs[res.alg].name);
    else
        snprintf(name, sizeof(name), "%s%s", d->algs[res.alg].name, res.alg == chosen ? "*" : "");
    if (rc == MPI_ERR_OTHER) {
        printf("%14lld  %-24s skipped: %s\n", (long long)size, name, res.why);
        return true;
    }
    if (rc != MPI_SUCCESS) {
        printf("%14lld  %-24s error: %s\n", (long long)size, name, res.why);
        return false;
    }
    printf("%14lld  %-24s %14.3f %12.3f %12lld %12lld %12lld %8.2f\n", (long long)size, name, res.time * 1e6,
           axon_coll_sim_busbw(call->kind, n, size, res.time) / 1e9, (long long)res.messages,
           (long long)res.steps, (long long)res.events, wall);
    fflush(stdout);
    return true;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"topo", required_argument, NULL, 't'},   {"coll", required_argument, NULL, 'c'},
        {"alg", required_argument, NULL, 'a'},    {"sizes", required_argument, NULL, 's'},
        {"model", required_argument, NULL, 'm'},  {"memory", required_argument, NULL, 'M'},
        {"max-steps", required_argument, NULL, 'x'}, {"print-model", no_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    const char *topo_text = NULL, *coll = NULL, *alg = "auto", *sizes_text = "8:16m", *model_file = NULL;
    struct axon_coll_sim_opts opts = {.memory = AXON_COLL_SIM_HOST, .max_steps = AXON_SIM_MAX_STEPS};
    bool print_model = false;
    char why[1024];
    int o;
    while ((o = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (o) {
        case 't':
            topo_text = optarg;
            break;
        case 'c':
            coll = optarg;
            break;
        case 'a':
            alg = optarg;
            break;
        case 's':
            sizes_text = optarg;
            break;
        case 'm':
            model_file = optarg;
            break;
        case 'M':
            if (strcmp(optarg, "host") == 0) {
                opts.memory = AXON_COLL_SIM_HOST;
            } else if (strcmp(optarg, "device") == 0) {
                opts.memory = AXON_COLL_SIM_DEVICE;
            } else {
                fprintf(stderr, "axon_sim: --memory takes host or device, not '%s'\n", optarg);
                return 2;
            }
            break;
        case 'x': {
            char *end;
            errno = 0;
            long long v = strtoll(optarg, &end, 10);
            if (end == optarg || *end || errno || v < 0) {
                fprintf(stderr, "axon_sim: --max-steps takes an integer >= 0, not '%s'\n", optarg);
                return 2;
            }
            opts.max_steps = v;
            break;
        }
        case 'p':
            print_model = true;
            break;
        case 'h':
            axon_sim_usage(stdout);
            return 0;
        default:
            axon_sim_usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "axon_sim: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }

    struct axon_coll_model model;
    axon_coll_model_defaults(&model);
    if (model_file && axon_coll_model_load(&model, model_file, why, sizeof(why)) != MPI_SUCCESS) {
        fprintf(stderr, "axon_sim: --model %s\n", why);
        return 2;
    }
    if (print_model) {
        axon_coll_model_print(&model, stdout);
        return 0;
    }
    if (!topo_text || !coll) {
        fprintf(stderr, "axon_sim: --topo and --coll are needed\n");
        axon_sim_usage(stderr);
        return 2;
    }
    struct axon_runtime_topo_spec topo;
    if (axon_runtime_topo_parse(topo_text, &topo, why, sizeof(why)) != MPI_SUCCESS) {
        fprintf(stderr, "axon_sim: --topo %s: %s\n", topo_text, why);
        return 2;
    }
    int kind = axon_coll_sim_kind(coll);
    if (kind < 0) {
        fprintf(stderr, "axon_sim: --coll %s: not one of barrier, bcast, reduce, allreduce, allgather, alltoall, "
                        "reduce_scatter\n",
                coll);
        return 2;
    }
    const struct axon_coll_desc *d = axon_coll_desc_of(kind);
    int first = -1, last = -1; /* algorithms to run; -1 -1: auto */
    if (strcmp(alg, "all") == 0) {
        first = 0;
        last = d->nalgs - 1;
    } else if (strcmp(alg, "auto") != 0) {
        for (int i = 0; i < d->nalgs; i++)
            if (strcmp(d->algs[i].name, alg) == 0)
                first = last = i;
        if (first < 0) {
            fprintf(stderr, "axon_sim: --alg %s: %s has auto, all", alg, d->name);
            for (int i = 0; i < d->nalgs; i++)
                fprintf(stderr, ", %s", d->algs[i].name);
            fprintf(stderr, "\n");
            return 2;
        }
    }
    int64_t sizes[AXON_SIM_MAX_SIZES];
    int nsizes = axon_sim_sizes(sizes_text, sizes);
    if (nsizes <= 0) {
        fprintf(stderr, "axon_sim: --sizes %s: expected MIN:MAX or S1,S2,... (bytes, k/m/g suffixes)\n", sizes_text);
        return 2;
    }

    int n = (int)axon_runtime_topo_spec_ranks(&topo);
    printf("# axon_sim: %s on nodes=%d,ranks_per_node=%d,domains_per_node=%d,nics_per_node=%d (%d ranks), "
           "%s memory, model %s\n",
           d->name, topo.nodes, topo.ranks_per_node, topo.domains_per_node, topo.nics_per_node, n,
           opts.memory == AXON_COLL_SIM_HOST ? "host" : "device", model_file ? model_file : "defaults");
    printf("# * the selection's choice; busbw by NCCL's definitions; sim s: this program's time\n");
    printf("# %12s  %-24s %14s %12s %12s %12s %12s %8s\n", "bytes", "algorithm", "time (us)", "busbw (GB/s)",
           "messages", "steps", "events", "sim s");
    int rc = 0;
    for (int i = 0; i < nsizes; i++) {
        struct axon_coll_sim_call call = {.kind = kind, .alg = -1, .bytes = sizes[i], .memory = opts.memory};
        int chosen = axon_coll_sim_alg(&call, &topo);
        if (first < 0) {
            if (!axon_sim_line(&topo, &model, &opts, &call, chosen))
                rc = 1;
            continue;
        }
        for (int a = first; a <= last; a++) {
            call.alg = a;
            if (!axon_sim_line(&topo, &model, &opts, &call, chosen))
                rc = 1;
        }
    }
    return rc;
}
