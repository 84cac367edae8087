/* Topologies (runtime/axon_runtime_topo.h): the description's reader, and the job's nodes and domains,
 * PMIx's or AXON_TOPO's. */
#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"

#include <ctype.h>
#include <hwloc.h>
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void axon_runtime_why(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || whylen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

/* ---- descriptions --------------------------------------------------------------------------------- */

/* A positive int from the whole of [p, end); false otherwise. */
static bool axon_topo_number(const char *p, const char *end, int *out)
{
    if (p == end)
        return false;
    long long v = 0;
    for (const char *q = p; q < end; q++) {
        if (!isdigit((unsigned char)*q))
            return false;
        v = v * 10 + (*q - '0');
        if (v > INT_MAX)
            return false;
    }
    if (v <= 0)
        return false;
    *out = (int)v;
    return true;
}

int axon_runtime_topo_parse(const char *text, struct axon_runtime_topo_spec *t, char *why, size_t whylen)
{
    static const char *const keys[] = {"nodes", "ranks_per_node", "domains_per_node", "nics_per_node",
                                       "ranks_per_domain", "nodes_per_host"};
    enum { NKEYS = 6 };
    int val[NKEYS] = {0};
    if (!text || !*text) {
        axon_runtime_why(why, whylen, "empty topology; expected " AXON_RUNTIME_TOPO_FORM);
        return MPI_ERR_ARG;
    }
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        int len = (int)(end - p);
        if (!eq) {
            axon_runtime_why(why, whylen, "'%.*s' is not key=value; expected " AXON_RUNTIME_TOPO_FORM, len, p);
            return MPI_ERR_ARG;
        }
        int k = 0;
        while (k < NKEYS && !(strlen(keys[k]) == (size_t)(eq - p) && strncmp(keys[k], p, (size_t)(eq - p)) == 0))
            k++;
        if (k == NKEYS) {
            axon_runtime_why(why, whylen, "unknown key '%.*s'; expected " AXON_RUNTIME_TOPO_FORM, (int)(eq - p), p);
            return MPI_ERR_ARG;
        }
        if (val[k]) {
            axon_runtime_why(why, whylen, "'%s' given twice; expected " AXON_RUNTIME_TOPO_FORM, keys[k]);
            return MPI_ERR_ARG;
        }
        if (!axon_topo_number(eq + 1, end, &val[k])) {
            axon_runtime_why(why, whylen, "'%.*s': %s needs a positive integer; expected " AXON_RUNTIME_TOPO_FORM,
                                len, p, keys[k]);
            return MPI_ERR_ARG;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    struct axon_runtime_topo_spec r = {val[0], val[1], val[2] ? val[2] : 1, val[3] ? val[3] : 1, val[5] ? val[5] : 1};
    if (val[4]) {
        long long rpn = (long long)r.domains_per_node * val[4];
        if (rpn > INT_MAX || (r.ranks_per_node && r.ranks_per_node != rpn)) {
            axon_runtime_why(why, whylen,
                                "ranks_per_domain=%d with %d domains per node does not give ranks_per_node=%d; "
                                "expected " AXON_RUNTIME_TOPO_FORM,
                                val[4], r.domains_per_node, r.ranks_per_node);
            return MPI_ERR_ARG;
        }
        r.ranks_per_node = (int)rpn;
    }
    if (!r.nodes || !r.ranks_per_node) {
        axon_runtime_why(why, whylen, "%s missing; expected " AXON_RUNTIME_TOPO_FORM,
                            !r.nodes ? "nodes" : "ranks_per_node");
        return MPI_ERR_ARG;
    }
    if (r.nodes % r.nodes_per_host != 0) {
        axon_runtime_why(why, whylen, "nodes_per_host=%d does not divide nodes=%d; expected " AXON_RUNTIME_TOPO_FORM,
                            r.nodes_per_host, r.nodes);
        return MPI_ERR_ARG;
    }
    if (r.ranks_per_node % r.domains_per_node != 0) {
        axon_runtime_why(why, whylen, "domains_per_node=%d does not divide ranks_per_node=%d; expected " AXON_RUNTIME_TOPO_FORM,
                            r.domains_per_node, r.ranks_per_node);
        return MPI_ERR_ARG;
    }
    if ((long long)r.nodes * r.ranks_per_node > INT_MAX) {
        axon_runtime_why(why, whylen, "%d nodes of %d ranks are more ranks than an int counts", r.nodes,
                            r.ranks_per_node);
        return MPI_ERR_ARG;
    }
    *t = r;
    return MPI_SUCCESS;
}

int axon_runtime_topo_read_file(const char *path, struct axon_runtime_topo_spec *t, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        axon_runtime_why(why, whylen, "%s: %s", path, strerror(errno));
        return MPI_ERR_ARG;
    }
    /* The keys joined by commas, comments and blanks dropped. */
    char text[AXON_CONFIG_STRING_MAX] = "", line[256];
    size_t used = 0;
    bool too_long = false;
    while (fgets(line, sizeof(line), f)) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        for (char *c = line; *c; c++) {
            if (isspace((unsigned char)*c))
                continue;
            char ch = *c;
            if (used + 2 >= sizeof(text)) {
                too_long = true;
                break;
            }
            text[used++] = ch;
        }
        if (used > 0 && text[used - 1] != ',')
            text[used++] = ',';
        text[used] = '\0';
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed || too_long) {
        axon_runtime_why(why, whylen, "%s: %s", path, failed ? "read error" : "too long for a topology");
        return MPI_ERR_ARG;
    }
    while (used > 0 && text[used - 1] == ',')
        text[--used] = '\0';
    char sub[512];
    int rc = axon_runtime_topo_parse(text, t, sub, sizeof(sub));
    if (rc != MPI_SUCCESS)
        axon_runtime_why(why, whylen, "%s: %s", path, sub);
    return rc;
}

int64_t axon_runtime_topo_spec_ranks(const struct axon_runtime_topo_spec *t)
{
    return (int64_t)t->nodes * t->ranks_per_node;
}

int axon_runtime_topo_spec_node(const struct axon_runtime_topo_spec *t, int rank)
{
    return rank / t->ranks_per_node;
}

int axon_runtime_topo_spec_domain(const struct axon_runtime_topo_spec *t, int rank)
{
    int per_domain = t->ranks_per_node / t->domains_per_node;
    return rank / t->ranks_per_node * t->domains_per_node + rank % t->ranks_per_node / per_domain;
}

/* ---- the job's topology -------------------------------------------------------------------------- */

/* A value names a file when it holds no '=' (a description always does). */
static bool axon_topo_is_file(const char *text)
{
    return strchr(text, '=') == NULL;
}

int axon_runtime_topo_init(const char *text, char *err, size_t errlen)
{
    struct axon_runtime_job *job = &axon_runtime_job;
    int n = job->size;
    job->host_of_rank = malloc(sizeof(int) * (size_t)n);
    job->domain_of_rank = malloc(sizeof(int) * (size_t)n);
    if (!job->host_of_rank || !job->domain_of_rank) {
        axon_runtime_why(err, errlen, "out of memory for the topology of %d ranks", n);
        return MPI_ERR_NO_MEM;
    }
    memcpy(job->host_of_rank, job->node_of_rank, sizeof(int) * (size_t)n);
    job->host_local_rank = job->local_rank;
    job->host_local_size = job->local_size;
    job->topo[0] = '\0';
    if (!text || !*text) {
        /* PMIx's nodes, one domain each. */
        memcpy(job->domain_of_rank, job->node_of_rank, sizeof(int) * (size_t)n);
        job->domain = job->node;
        job->num_domains = job->num_nodes;
        return MPI_SUCCESS;
    }

    struct axon_runtime_topo_spec t;
    char why[768];
    int rc = axon_topo_is_file(text) ? axon_runtime_topo_read_file(text, &t, why, sizeof(why))
                                     : axon_runtime_topo_parse(text, &t, why, sizeof(why));
    if (rc != MPI_SUCCESS) {
        axon_runtime_why(err, errlen, "AXON_TOPO=%s: %s", text, why);
        return rc;
    }
    if (axon_runtime_topo_spec_ranks(&t) < n) {
        axon_runtime_why(err, errlen,
                      "AXON_TOPO=%s describes %lld ranks, fewer than the job's %d; expected " AXON_RUNTIME_TOPO_FORM
                      " with nodes*ranks_per_node >= %d",
                      text, (long long)axon_runtime_topo_spec_ranks(&t), n, n);
        return MPI_ERR_ARG;
    }
    /* A synthetic node shares memory: its ranks must be on one real node. */
    for (int r = 1; r < n; r++) {
        int first = axon_runtime_topo_spec_node(&t, r) * t.ranks_per_node;
        if (job->host_of_rank[r] != job->host_of_rank[first]) {
            axon_runtime_why(err, errlen,
                          "AXON_TOPO=%s puts ranks %d and %d in node %d, but they run on different machines "
                          "(a synthetic node must lie within one machine: ranks go node by node)",
                          text, first, r, axon_runtime_topo_spec_node(&t, r));
            return MPI_ERR_ARG;
        }
    }
    job->num_nodes = 0;
    job->num_domains = 0;
    job->local_rank = 0;
    job->local_size = 0;
    for (int r = 0; r < n; r++) {
        job->node_of_rank[r] = axon_runtime_topo_spec_node(&t, r);
        job->domain_of_rank[r] = axon_runtime_topo_spec_domain(&t, r);
        if (job->node_of_rank[r] + 1 > job->num_nodes)
            job->num_nodes = job->node_of_rank[r] + 1;
        if (job->domain_of_rank[r] + 1 > job->num_domains)
            job->num_domains = job->domain_of_rank[r] + 1;
    }
    job->node = job->node_of_rank[job->rank];
    job->domain = job->domain_of_rank[job->rank];
    for (int r = 0; r < n; r++) {
        if (job->node_of_rank[r] != job->node)
            continue;
        if (r < job->rank)
            job->local_rank++;
        job->local_size++;
    }
    snprintf(job->topo, sizeof(job->topo), "%s", text);
    return MPI_SUCCESS;
}

/* ---- GPUs and NVLink domains ------------------------------------------------------------------- */

static long *axon_topo_gpu; /* [size]: each rank's GPU (PCI id), -1 for none */

static int axon_topo_find(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void axon_topo_union(int *parent, int a, int b)
{
    a = axon_topo_find(parent, a);
    b = axon_topo_find(parent, b);
    if (a != b)
        parent[a > b ? a : b] = a < b ? a : b; /* the lower rank is the root: domains by lowest rank */
}

static bool axon_topo_reaches(const struct axon_runtime_gpu_ident *a, uint32_t pci)
{
    for (uint32_t k = 0; k < a->npeers && k < AXON_RUNTIME_GPU_PEERS_MAX; k++)
        if (a->peers[k] == pci)
            return true;
    return false;
}

static bool axon_topo_has_clique(const struct axon_runtime_gpu_ident *a)
{
    for (int k = 0; k < AXON_RUNTIME_GPU_CLIQUE_BYTES; k++)
        if (a->clique[k])
            return true;
    return false;
}

int axon_runtime_topo_set_gpus(const struct axon_runtime_gpu_ident *ids, bool node_only)
{
    struct axon_runtime_job *job = &axon_runtime_job;
    int n = job->size;
    long *gpu = malloc(sizeof(*gpu) * (size_t)n);
    int *parent = malloc(sizeof(*parent) * (size_t)n);
    int *first_plain = malloc(sizeof(*first_plain) * (size_t)(job->num_nodes > 0 ? job->num_nodes : 1));
    if (!gpu || !parent || !first_plain) {
        free(gpu);
        free(parent);
        free(first_plain);
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < n; r++)
        gpu[r] = ids[r].present ? (long)ids[r].pci : -1;
    free(axon_topo_gpu);
    axon_topo_gpu = gpu;
    if (job->topo[0]) {
        free(parent);
        free(first_plain);
        return MPI_SUCCESS; /* AXON_TOPO's domains stand */
    }
    for (int r = 0; r < n; r++)
        parent[r] = r;
    for (int k = 0; k < job->num_nodes; k++)
        first_plain[k] = -1;
    /* Quadratic in the ranks of a node (pairs on one node) and in the ranks with a clique: a few
     * thousand operations for a node of 8 GPUs, done once. */
    for (int r = 0; r < n; r++) {
        const struct axon_runtime_gpu_ident *a = &ids[r];
        int node = job->node_of_rank[r];
        if (node_only && node != job->node)
            continue;
        if (!a->present) {
            if (first_plain[node] < 0)
                first_plain[node] = r;
            else
                axon_topo_union(parent, first_plain[node], r);
            continue;
        }
        for (int q = 0; q < r; q++) {
            const struct axon_runtime_gpu_ident *b = &ids[q];
            if (!b->present)
                continue;
            if (node_only && job->node_of_rank[q] != node)
                continue;
            bool same_node = job->node_of_rank[q] == node;
            if ((same_node && (a->pci == b->pci || (axon_topo_reaches(a, b->pci) && axon_topo_reaches(b, a->pci)))) ||
                (axon_topo_has_clique(a) && memcmp(a->clique, b->clique, sizeof(a->clique)) == 0))
                axon_topo_union(parent, q, r);
        }
    }
    if (node_only) {
        /* Named by their lowest rank: dense numbers would need every node's domains. */
        for (int r = 0; r < n; r++)
            job->domain_of_rank[r] = job->node_of_rank[r] == job->node ? axon_topo_find(parent, r) : -1;
        job->num_domains = -1;
        job->domain = job->domain_of_rank[job->rank];
        free(parent);
        free(first_plain);
        return MPI_SUCCESS;
    }
    /* Dense numbers, by lowest rank: each root is its domain's lowest rank, numbered before the rest. */
    int count = 0;
    for (int r = 0; r < n; r++) {
        int root = axon_topo_find(parent, r);
        job->domain_of_rank[r] = root == r ? count++ : job->domain_of_rank[root];
    }
    job->num_domains = count;
    job->domain = job->domain_of_rank[job->rank];
    free(parent);
    free(first_plain);
    return MPI_SUCCESS;
}

long axon_runtime_topo_gpu_of(int rank)
{
    return axon_topo_gpu && rank >= 0 && rank < axon_runtime_job.size ? axon_topo_gpu[rank] : -1;
}

void axon_runtime_topo_finalize(void)
{
    free(axon_topo_gpu);
    axon_topo_gpu = NULL;
    free(axon_runtime_job.host_of_rank);
    free(axon_runtime_job.domain_of_rank);
    axon_runtime_job.host_of_rank = NULL;
    axon_runtime_job.domain_of_rank = NULL;
}

void axon_runtime_topo_locality(char *cores, size_t coreslen, char *numa, size_t numalen)
{
    snprintf(cores, coreslen, "?");
    snprintf(numa, numalen, "?");
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return;
    hwloc_bitmap_t set = hwloc_bitmap_alloc(), nodes = hwloc_bitmap_alloc();
    if (set && nodes && hwloc_topology_load(topo) == 0 && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
        hwloc_bitmap_list_snprintf(cores, coreslen, set);
        hwloc_obj_t node = NULL;
        while ((node = hwloc_get_next_obj_by_type(topo, HWLOC_OBJ_NUMANODE, node)) != NULL)
            if (node->cpuset && hwloc_bitmap_intersects(node->cpuset, set))
                hwloc_bitmap_set(nodes, node->os_index);
        if (!hwloc_bitmap_iszero(nodes))
            hwloc_bitmap_list_snprintf(numa, numalen, nodes);
    }
    hwloc_bitmap_free(set);
    hwloc_bitmap_free(nodes);
    hwloc_topology_destroy(topo);
}
