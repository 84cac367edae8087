/* axon_info: what this installation of Axon is and what it finds on this machine: its version and
 * configure options, the UCX it runs on and the transports UCX offers here, the CUDA driver and GPUs it
 * finds (version, names, which GPUs reach each other's memory), every AXON_* knob with its default,
 * its current value and one line of help, and the collectives' algorithms with the rules that choose
 * among them. With --topo, run under mpirun as a job, it prints instead what the job sees of the
 * machine: each rank's host, node, local rank, NVLink domain, cores and NUMA nodes (AXON_TOPO's
 * synthetic nodes and domains when it is set). With --ops, the table of which predefined operations
 * reduce which predefined datatypes (tools/axon_info_ops.c). */
#include "config.h"
#include "coll/axon_coll_explain.h"
#include "coll/axon_coll_select.h"
#include "coll/axon_coll_simulate.h"
#include "cuda_support/cuda_support.h"
#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"
#include "tools/axon_info_ops.h"

#include <mpi.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

static void axon_info_ucx(void)
{
    unsigned major, minor, release;
    ucp_get_version(&major, &minor, &release);
    printf("UCX:              %u.%u.%u (built against %s)\n", major, minor, release, AXON_UCX_BUILD_VERSION);

    ucp_config_t *config;
    ucp_context_h context;
    if (ucp_config_read(NULL, NULL, &config) != UCS_OK) {
        printf("UCX transports:   (cannot read the UCX configuration)\n");
        return;
    }
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_AM | UCP_FEATURE_RMA};
    ucs_status_t st = ucp_init(&params, config, &context);
    ucp_config_release(config);
    if (st != UCS_OK) {
        printf("UCX transports:   (ucp_init failed: %s)\n", ucs_status_string(st));
        return;
    }
    /* UCX has no query for its transport list: read the resource lines of its own report. */
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        ucp_context_print_info(context, mem);
        fclose(mem);
    }
    printf("UCX transports:  ");
    int found = 0;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        char *flags = strstr(line, "resource");
        char *tl = flags ? strstr(line, "-- ") : NULL;
        if (tl) {
            printf(" %s", tl + 3);
            found++;
        }
    }
    printf("%s\n", found ? "" : " (none reported)");
    free(text);
    ucp_cleanup(context);
}

static void axon_info_cuda(void)
{
#if !AXON_HAVE_CUDA_H
    printf("CUDA driver:      not looked for: this build has no CUDA support (configure found no cuda.h)\n");
    printf("CUDA support:     off: every buffer is host memory\n");
#else
    /* The machine is probed whatever AXON_CUDA says, so this describes what a rank would find; the knob
     * is reported with the result. */
    char err[256];
    struct axon_config cfg;
    if (axon_runtime_config_load(&cfg, err, sizeof(err)) != MPI_SUCCESS) {
        cfg.cuda = AXON_CUDA_MODE_AUTO;
        snprintf(cfg.cuda_library, sizeof(cfg.cuda_library), "libcuda.so.1");
    }
    axon_cuda_init(AXON_CUDA_MODE_AUTO, cfg.cuda_library, err, sizeof(err));
    if (!axon_cuda_enabled()) {
        printf("CUDA driver:      %s\n", axon_cuda_status());
        printf("CUDA support:     off: every buffer is host memory\n");
        return;
    }
    int version = axon_cuda_driver_version(), n = axon_cuda_device_count();
    printf("CUDA driver:      %d.%d, %d GPU%s (%s)\n", version / 1000, version % 1000 / 10, n, n == 1 ? "" : "s",
           cfg.cuda_library);
    if (cfg.cuda == AXON_CUDA_MODE_OFF)
        printf("CUDA support:     off (AXON_CUDA=0): every buffer is host memory\n");
    else
        printf("CUDA support:     on: GPU buffers are taken by point-to-point calls and collectives (staged "
               "through host memory), MPIX_Query_cuda_support() returns 1\n");
    for (int i = 0; i < n; i++) {
        char name[256];
        if (axon_cuda_device_get_name(i, name, sizeof(name)) != MPI_SUCCESS)
            snprintf(name, sizeof(name), "(name unknown)");
        printf("  GPU %-2d          %s\n", i, name);
    }
    if (n > 1) {
        /* Row i, column j: GPU i can read and write GPU j's memory directly (NVLink or PCIe P2P). */
        printf("  P2P access (row reaches column):\n      ");
        for (int j = 0; j < n; j++)
            printf(" %3d", j);
        printf("\n");
        for (int i = 0; i < n; i++) {
            printf("  %3d ", i);
            for (int j = 0; j < n; j++) {
                bool can = false;
                int rc = i == j ? MPI_SUCCESS : axon_cuda_device_get_peer_access(i, j, &can);
                printf(" %3s", i == j ? "-" : rc != MPI_SUCCESS ? "?" : can ? "Y" : "N");
            }
            printf("\n");
        }
    }
    axon_cuda_finalize();
#endif
}

static void axon_info_knobs(void)
{
    char err[256];
    struct axon_config current;
    int rc = axon_runtime_config_load(&current, err, sizeof(err));
    if (rc != 0)
        printf("warning: %s (showing defaults)\n", err);

    size_t n;
    const struct axon_config_entry *table = axon_runtime_config_table(&n);
    printf("\nEnvironment variables (default; current value):\n");
    for (size_t i = 0; i < n; i++) {
        char value[AXON_CONFIG_STRING_MAX] = "";
        if (rc == 0)
            axon_runtime_config_format(&table[i], &current, value, sizeof(value));
        printf("  %-28s default %-8s now %-8s %s%s%s%s\n", table[i].name, table[i].default_value,
               rc == 0 ? value : table[i].default_value, table[i].help,
               table[i].values ? " [" : "", table[i].values ? table[i].values : "", table[i].values ? "]" : "");
    }
}

static void axon_info_usage(FILE *out)
{
    fprintf(out, "Usage: axon_info [--help|--version|--ops|--topo|--explain COLLECTIVE BYTES]\n"
                 "Prints Axon MPI's version, build options, the UCX transports and CUDA driver found on this\n"
                 "machine, and every AXON_* environment variable with its default, value and meaning.\n"
                 "  --ops   which predefined operations reduce which predefined datatypes (host, GPU)\n"
                 "  --topo  (as a job: mpirun -n N axon_info --topo) each rank's host, node, local rank,\n"
                 "          domain, cores and NUMA nodes, as the job sees them (AXON_TOPO included)\n"
                 "  --explain COLLECTIVE BYTES [--machine SPEC] [--model FILE] [--memory host|device]\n"
                 "          every algorithm of the collective for one call, with its time predicted by\n"
                 "          simulating its schedules under the cost model, the rules' choice and the least\n"
                 "          predicted time; the machine is SPEC, else AXON_TOPO, else one node of this\n"
                 "          machine's cores (SPEC as axon_sim's --topo); the buffers host memory (default)\n"
                 "          or GPU memory\n");
}

static int axon_info_explain(int argc, char **argv)
{
    if (argc < 4) {
        axon_info_usage(stderr);
        return 1;
    }
    int kind = axon_coll_sim_kind(argv[2]);
    if (kind < 0) {
        fprintf(stderr, "axon_info: --explain: unknown collective '%s' (barrier, bcast, reduce, allreduce, "
                        "allgather, alltoall, reduce_scatter)\n", argv[2]);
        return 1;
    }
    /* BYTES as the knobs read sizes (8192, 64k, 4m). */
    struct axon_config scratch;
    struct axon_config_entry size_entry = {"BYTES", AXON_CONFIG_SIZE, "0", offsetof(struct axon_config, eager_limit),
                                           NULL, "the call's bytes"};
    char err[512];
    if (axon_runtime_config_parse(&size_entry, argv[3], &scratch, err, sizeof(err)) != 0 || scratch.eager_limit < 0) {
        fprintf(stderr, "axon_info: --explain: '%s' is not a size such as 8192, 64k or 4m\n", argv[3]);
        return 1;
    }
    const char *machine = NULL, *model_file = NULL;
    bool device = false;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "--machine") == 0 && i + 1 < argc) {
            machine = argv[++i];
        } else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc) {
            model_file = argv[++i];
        } else if (strcmp(argv[i], "--memory") == 0 && i + 1 < argc) {
            const char *m = argv[++i];
            if (strcmp(m, "host") != 0 && strcmp(m, "device") != 0) {
                fprintf(stderr, "axon_info: --explain: --memory takes host or device, not '%s'\n", m);
                return 1;
            }
            device = strcmp(m, "device") == 0;
        } else {
            fprintf(stderr, "axon_info: --explain: unknown option '%s'\n", argv[i]);
            return 1;
        }
    }
    struct axon_config cfg;
    if (!machine && axon_runtime_config_load(&cfg, err, sizeof(err)) == 0 && cfg.topo[0])
        machine = cfg.topo;
    char own[64];
    if (!machine) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(own, sizeof(own), "nodes=1,ranks_per_node=%ld", cores > 1 ? cores : 2);
        machine = own;
    }
    struct axon_runtime_topo_spec t;
    int rc = strchr(machine, '=') ? axon_runtime_topo_parse(machine, &t, err, sizeof(err))
                                  : axon_runtime_topo_read_file(machine, &t, err, sizeof(err));
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "axon_info: --explain: %s\n", err);
        return 1;
    }
    struct axon_coll_model model;
    axon_coll_model_defaults(&model);
    if (model_file && axon_coll_model_load(&model, model_file, err, sizeof(err)) != MPI_SUCCESS) {
        fprintf(stderr, "axon_info: --explain: %s\n", err);
        return 1;
    }
    if (axon_coll_explain(stdout, &t, &model, (enum axon_coll_kind)kind, scratch.eager_limit, device, err,
                          sizeof(err)) < 0) {
        fprintf(stderr, "axon_info: --explain: %s\n", err);
        return 1;
    }
    return 0;
}

/* One rank's view, gathered at rank 0. */
struct axon_info_place {
    int rank, host_index, node, local_rank, local_size, domain;
    char host[64], cores[96], numa[32], gpu[16];
};

static int axon_info_topo(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const struct axon_runtime_job *job = &axon_runtime_job;
    struct axon_info_place me = {
        .rank = job->rank,
        .host_index = job->host_of_rank[job->rank],
        .node = job->node,
        .local_rank = job->local_rank,
        .local_size = job->local_size,
        .domain = job->domain,
    };
    snprintf(me.host, sizeof(me.host), "%.63s", job->hostname);
    /* The GPU the rank announced for the domains, by PCI address (domain:bus:device). */
    long gpu = axon_runtime_topo_gpu_of(job->rank);
    if (gpu < 0)
        snprintf(me.gpu, sizeof(me.gpu), "-");
    else
        snprintf(me.gpu, sizeof(me.gpu), "%04x:%02x:%02x", (unsigned)(gpu >> 16) & 0xffffu,
                 (unsigned)(gpu >> 8) & 0xffu, (unsigned)gpu & 0xffu);
    axon_runtime_topo_locality(me.cores, sizeof(me.cores), me.numa, sizeof(me.numa));
    struct axon_info_place *all = job->rank == 0 ? malloc(sizeof(*all) * (size_t)job->size) : NULL;
    if (job->rank == 0 && !all) {
        fprintf(stderr, "axon_info: out of memory for %d ranks\n", job->size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(&me, (int)sizeof(me), MPI_BYTE, all, (int)sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (job->rank == 0) {
        if (job->num_domains >= 0)
            printf("# %d rank(s) on %d node(s), %d domain(s)", job->size, job->num_nodes, job->num_domains);
        else /* AXON_MODEX=direct: each node knows its own, named by their lowest rank */
            printf("# %d rank(s) on %d node(s), domains by node", job->size, job->num_nodes);
        if (job->topo[0])
            printf(", synthetic: AXON_TOPO=%s", job->topo);
        else
            printf(" (the launcher's nodes; domains: GPUs that reach each other)");
        printf("\n# %-5s %-20s %-5s %-5s %-7s %-7s %-12s %-12s %s\n", "rank", "host", "hidx", "node", "local",
               "domain", "gpu", "cores", "numa");
        for (int r = 0; r < job->size; r++)
            printf("  %-5d %-20s %-5d %-5d %d/%-5d %-7d %-12s %-12s %s\n", all[r].rank, all[r].host,
                   all[r].host_index, all[r].node, all[r].local_rank, all[r].local_size, all[r].domain, all[r].gpu,
                   all[r].cores, all[r].numa);
        fflush(stdout);
    }
    free(all);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            axon_info_usage(stdout);
            return 0;
        }
        if (strcmp(argv[1], "--topo") == 0)
            return axon_info_topo(argc, argv);
        if (strcmp(argv[1], "--ops") == 0)
            return axon_info_ops();
        if (strcmp(argv[1], "--explain") == 0)
            return axon_info_explain(argc, argv);
        if (strcmp(argv[1], "--version") == 0) {
            printf("axon_info (Axon MPI) %s\n", PACKAGE_VERSION);
            return 0;
        }
        fprintf(stderr, "axon_info: unknown option '%s'\n", argv[1]);
        axon_info_usage(stderr);
        return 1;
    }
    printf("Axon MPI:         %s (MPI %d.%d, MPICH ABI, libmpi.so.12)\n", PACKAGE_VERSION, MPI_VERSION,
           MPI_SUBVERSION);
    printf("Configured with:  %s\n", AXON_CONFIGURE_ARGS[0] ? AXON_CONFIGURE_ARGS : "(no options)");
    printf("PMIx:             built against %s\n", AXON_PMIX_BUILD_VERSION);
    axon_info_ucx();
    axon_info_cuda();
    axon_info_knobs();
    printf("\nCollective algorithms (AXON_COLL_<NAME>_ALG=<algorithm> forces one where it applies; auto\n"
           "follows the rules):\n");
    axon_coll_select_print(stdout);
    return 0;
}
