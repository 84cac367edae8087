/* The bootstrap: a PMIx client. It learns who this process is (rank, size, local rank, the node of every
 * rank) from whichever PMIx server started it (our mpirun, or Slurm's srun --mpi=pmix), publishes and
 * fetches the transport addresses, and offers a barrier and job abort. A process that no PMIx launcher
 * started runs as a singleton of size 1, without PMIx at all. */
#include "runtime/axon_runtime_topo.h"
#include "runtime/runtime.h"

#include <mpi.h>
#include <pmix.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct axon_runtime_job axon_runtime_job;

static pmix_proc_t axon_bootstrap_self;
static bool axon_bootstrap_pmix_up;

static bool axon_bootstrap_launched_by_pmix(void)
{
    /* PMIx servers hand their clients the namespace and a way to reach the server. */
    return getenv("PMIX_NAMESPACE") != NULL &&
           (getenv("PMIX_SERVER_URI41") || getenv("PMIX_SERVER_URI4") || getenv("PMIX_SERVER_URI3") ||
            getenv("PMIX_SERVER_URI21") || getenv("PMIX_SERVER_URI2") || getenv("PMIX_SERVER_URI"));
}

/* A job-level or per-rank value as a uint32; PMIX_OPTIONAL keeps a missing key from going to the server. */
static int axon_bootstrap_get_u32(int rank, const char *key, uint32_t *out)
{
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    pmix_info_t info;
    bool optional = true;
    PMIX_LOAD_PROCID(&proc, axon_bootstrap_self.nspace, rank < 0 ? PMIX_RANK_WILDCARD : (pmix_rank_t)rank);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&proc, key, &info, 1, &val);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS || !val)
        return -1;
    int ok = 0;
    switch (val->type) {
    case PMIX_UINT32: *out = val->data.uint32; break;
    case PMIX_UINT16: *out = val->data.uint16; break;
    case PMIX_INT: *out = (uint32_t)val->data.integer; break;
    case PMIX_PROC_RANK: *out = val->data.rank; break;
    case PMIX_UINT64: *out = (uint32_t)val->data.uint64; break;
    default: ok = -1; break;
    }
    PMIX_VALUE_RELEASE(val);
    return ok;
}

static int axon_bootstrap_get_string(int rank, const char *key, char *buf, size_t len)
{
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    pmix_info_t info;
    bool optional = true;
    PMIX_LOAD_PROCID(&proc, axon_bootstrap_self.nspace, rank < 0 ? PMIX_RANK_WILDCARD : (pmix_rank_t)rank);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&proc, key, &info, 1, &val);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS || !val)
        return -1;
    int ok = -1;
    if (val->type == PMIX_STRING && val->data.string) {
        snprintf(buf, len, "%s", val->data.string);
        ok = 0;
    }
    PMIX_VALUE_RELEASE(val);
    return ok;
}

/* The node of every rank: PMIX_NODEID when the server gives it, else the rank's host name. Node
 * indices are renumbered densely in order of first appearance, so rank 0 is on node 0. */
static int axon_bootstrap_map_nodes(char *err, size_t errlen)
{
    struct axon_runtime_job *job = &axon_runtime_job;
    int n = job->size;
    uint32_t *raw = malloc(sizeof(*raw) * (size_t)n);
    char (*hosts)[256] = NULL;
    int rc = MPI_ERR_OTHER;
    job->node_of_rank = malloc(sizeof(int) * (size_t)n);
    if (!raw || !job->node_of_rank) {
        snprintf(err, errlen, "out of memory for the node map of %d ranks", n);
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    bool by_id = true;
    for (int r = 0; r < n && by_id; r++)
        by_id = axon_bootstrap_get_u32(r, PMIX_NODEID, &raw[r]) == 0;
    if (!by_id) {
        hosts = malloc(sizeof(*hosts) * (size_t)n);
        if (!hosts) {
            rc = MPI_ERR_NO_MEM;
            snprintf(err, errlen, "out of memory for the host names of %d ranks", n);
            goto out;
        }
        for (int r = 0; r < n; r++) {
            if (axon_bootstrap_get_string(r, PMIX_HOSTNAME, hosts[r], sizeof(hosts[r])) != 0) {
                snprintf(err, errlen, "the PMIx server tells neither the node id nor the host of rank %d", r);
                goto out;
            }
        }
    }
    /* Dense renumbering; quadratic only in the number of distinct nodes seen so far. */
    int *first_rank_of_node = malloc(sizeof(int) * (size_t)n);
    if (!first_rank_of_node) {
        rc = MPI_ERR_NO_MEM;
        snprintf(err, errlen, "out of memory for the node map");
        goto out;
    }
    int nodes = 0;
    for (int r = 0; r < n; r++) {
        int found = -1;
        for (int k = nodes - 1; k >= 0 && found < 0; k--) {
            int f = first_rank_of_node[k];
            if (by_id ? raw[f] == raw[r] : strcmp(hosts[f], hosts[r]) == 0)
                found = k;
        }
        if (found < 0) {
            found = nodes;
            first_rank_of_node[nodes++] = r;
        }
        job->node_of_rank[r] = found;
    }
    free(first_rank_of_node);
    job->num_nodes = nodes;
    job->node = job->node_of_rank[job->rank];
    rc = MPI_SUCCESS;
out:
    free(raw);
    free(hosts);
    return rc;
}

static int axon_bootstrap_init_singleton(void)
{
    struct axon_runtime_job *job = &axon_runtime_job;
    job->node_of_rank = malloc(sizeof(int));
    if (!job->node_of_rank)
        return MPI_ERR_NO_MEM;
    job->node_of_rank[0] = 0;
    job->rank = 0;
    job->size = 1;
    job->local_rank = 0;
    job->local_size = 1;
    job->node = 0;
    job->num_nodes = 1;
    job->appnum = 0;
    job->universe_size = 1;
    job->singleton = true;
    snprintf(job->launcher, sizeof(job->launcher), "singleton");
    return MPI_SUCCESS;
}

int axon_runtime_bootstrap_init(char *err, size_t errlen)
{
    struct axon_runtime_job *job = &axon_runtime_job;
    int rc;
    if (gethostname(job->hostname, sizeof(job->hostname)) != 0)
        snprintf(job->hostname, sizeof(job->hostname), "localhost");
    job->hostname[sizeof(job->hostname) - 1] = '\0';

    if (!axon_bootstrap_launched_by_pmix()) {
        rc = axon_bootstrap_init_singleton();
        if (rc != MPI_SUCCESS)
            snprintf(err, errlen, "out of memory");
        job->known = rc == MPI_SUCCESS;
        return rc;
    }

    pmix_status_t prc = PMIx_Init(&axon_bootstrap_self, NULL, 0);
    if (prc != PMIX_SUCCESS) {
        snprintf(err, errlen, "PMIx_Init failed: %s (is the launcher's PMIx server still there?)",
                 PMIx_Error_string(prc));
        return MPI_ERR_OTHER;
    }
    axon_bootstrap_pmix_up = true;
    job->rank = (int)axon_bootstrap_self.rank;

    uint32_t v;
    if (axon_bootstrap_get_u32(-1, PMIX_JOB_SIZE, &v) != 0) {
        snprintf(err, errlen, "the PMIx server did not give the job size (PMIX_JOB_SIZE)");
        rc = MPI_ERR_OTHER;
        goto err_pmix;
    }
    job->size = (int)v;
    job->local_rank = axon_bootstrap_get_u32(job->rank, PMIX_LOCAL_RANK, &v) == 0 ? (int)v : 0;
    job->local_size = axon_bootstrap_get_u32(-1, PMIX_LOCAL_SIZE, &v) == 0 ? (int)v : 1;
    job->appnum = axon_bootstrap_get_u32(job->rank, PMIX_APPNUM, &v) == 0 ? (int)v : 0;
    job->universe_size = axon_bootstrap_get_u32(-1, PMIX_UNIV_SIZE, &v) == 0 ? (int)v : job->size;
    const char *launcher = getenv("AXON_LAUNCHER");
    snprintf(job->launcher, sizeof(job->launcher), "%s", launcher && *launcher ? launcher : "pmix");

    rc = axon_bootstrap_map_nodes(err, errlen);
    if (rc != MPI_SUCCESS)
        goto err_pmix;
    if (axon_runtime_lost_init(job->size) != 0) {
        snprintf(err, errlen, "out of memory");
        rc = MPI_ERR_NO_MEM;
        goto err_pmix;
    }
    job->known = true;
    return MPI_SUCCESS;

err_pmix:
    PMIx_Finalize(NULL, 0);
    axon_bootstrap_pmix_up = false;
    return rc;
}

/* Singletons keep their one rank's published values here, so get() works the same for them. */
struct axon_bootstrap_local_kv {
    struct axon_bootstrap_local_kv *next;
    char *key;
    void *value;
    size_t len;
};
static struct axon_bootstrap_local_kv *axon_bootstrap_local;

int axon_runtime_bootstrap_put(const char *key, const void *value, size_t len)
{
    if (!axon_bootstrap_pmix_up) {
        struct axon_bootstrap_local_kv *kv = calloc(1, sizeof(*kv));
        if (!kv || !(kv->key = strdup(key)) || !(kv->value = malloc(len ? len : 1))) {
            if (kv)
                free(kv->key);
            free(kv);
            return MPI_ERR_NO_MEM;
        }
        memcpy(kv->value, value, len);
        kv->len = len;
        kv->next = axon_bootstrap_local;
        axon_bootstrap_local = kv;
        return MPI_SUCCESS;
    }
    pmix_value_t val;
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo.bytes = (char *)value;
    val.data.bo.size = len;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &val);
    if (rc != PMIX_SUCCESS) {
        axon_runtime_log_error("PMIx_Put(%s) failed: %s", key, PMIx_Error_string(rc));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_runtime_bootstrap_exchange(bool collect)
{
    if (!axon_bootstrap_pmix_up)
        return MPI_SUCCESS;
    pmix_status_t rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS) {
        axon_runtime_log_error("PMIx_Commit failed: %s", PMIx_Error_string(rc));
        return MPI_ERR_OTHER;
    }
    /* Direct: the fence collects nothing. Slurm's PMIx plugin then ends it on each node once the node's
     * ranks are in (libpmix's server in mpirun, once all are), so each rank's node has the values of its
     * own ranks in the node's server; another node's are fetched from there when first asked for. Without
     * any fence a get of a rank of this node that has not committed yet is not always answered once it
     * commits (libpmix's server, in mpirun, left 15 of 32 ranks waiting), nor is a fence over an explicit
     * list of this node's ranks ended (8 ranks and more). */
    pmix_proc_t all;
    pmix_info_t info;
    PMIX_LOAD_PROCID(&all, axon_bootstrap_self.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (!collect && rc == PMIX_SUCCESS)
        axon_runtime_log_debug(1, "values committed, none collected: other nodes' are fetched when first needed "
                                  "(AXON_MODEX=direct)");
    if (rc != PMIX_SUCCESS) {
        axon_runtime_log_error("PMIx_Fence (address exchange) failed: %s", PMIx_Error_string(rc));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int axon_runtime_bootstrap_get(int rank, const char *key, void **value, size_t *len)
{
    if (!axon_bootstrap_pmix_up) {
        for (struct axon_bootstrap_local_kv *kv = axon_bootstrap_local; kv; kv = kv->next) {
            if (rank == 0 && strcmp(kv->key, key) == 0) {
                void *copy = malloc(kv->len ? kv->len : 1);
                if (!copy)
                    return MPI_ERR_NO_MEM;
                memcpy(copy, kv->value, kv->len);
                *value = copy;
                *len = kv->len;
                return MPI_SUCCESS;
            }
        }
        return MPI_ERR_OTHER;
    }
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&proc, axon_bootstrap_self.nspace, (pmix_rank_t)rank);
    pmix_status_t rc = PMIx_Get(&proc, key, NULL, 0, &val);
    if (rc != PMIX_SUCCESS || !val || val->type != PMIX_BYTE_OBJECT) {
        axon_runtime_log_error("PMIx_Get(%s) of rank %d failed: %s", key, rank,
                               rc != PMIX_SUCCESS ? PMIx_Error_string(rc) : "wrong type");
        if (val)
            PMIX_VALUE_RELEASE(val);
        return MPI_ERR_OTHER;
    }
    void *copy = malloc(val->data.bo.size ? val->data.bo.size : 1);
    if (!copy) {
        PMIX_VALUE_RELEASE(val);
        return MPI_ERR_NO_MEM;
    }
    memcpy(copy, val->data.bo.bytes, val->data.bo.size);
    *value = copy;
    *len = val->data.bo.size;
    PMIX_VALUE_RELEASE(val);
    return MPI_SUCCESS;
}

struct axon_bootstrap_fence_state {
    atomic_int done;
    pmix_status_t status;
};

static void axon_bootstrap_fence_done(pmix_status_t status, void *cbdata)
{
    struct axon_bootstrap_fence_state *state = cbdata;
    state->status = status;
    atomic_store_explicit(&state->done, 1, memory_order_release);
}

int axon_runtime_bootstrap_barrier(void (*progress)(void *), void *arg)
{
    if (!axon_bootstrap_pmix_up)
        return MPI_SUCCESS;
    /* A rank lost while we wait (the job surviving it) never comes: Slurm's fence would wait for it
     * forever (and one over the ranks that live fails across nodes), so the wait is given up and the
     * caller meets the others its own way. The state then stays: libpmix may still answer. */
    unsigned losses = axon_runtime_lost_generation();
    if (axon_runtime_lost_count() > 0)
        return MPI_ERR_PROC_ABORTED;
    struct axon_bootstrap_fence_state *state = calloc(1, sizeof(*state));
    if (!state)
        return MPI_ERR_NO_MEM;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, axon_bootstrap_self.nspace, PMIX_RANK_WILDCARD);
    /* With PMIX_COLLECT_DATA: Slurm's PMIx plugin (22.05) completes a fence that collects nothing on each
     * node as soon as that node's ranks are in, without waiting for the other nodes, which is no
     * barrier (a rank could leave MPI_Finalize and close its endpoints under peers still computing).
     * Collecting makes every node wait for all; there is nothing new to collect, so it costs one round
     * of the fence's tree. The info is copied into the request at once. */
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, &info, 1, axon_bootstrap_fence_done, state);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS) {
        free(state);
        axon_runtime_log_error("PMIx_Fence_nb failed: %s", PMIx_Error_string(rc));
        return MPI_ERR_OTHER;
    }
    /* The transport must keep moving while we wait: a peer may still be flushing towards us. */
    unsigned idle = 0;
    while (!atomic_load_explicit(&state->done, memory_order_acquire)) {
        if (progress)
            progress(arg);
        if (axon_runtime_lost_generation() != losses)
            return MPI_ERR_PROC_ABORTED; /* state left to libpmix's answer */
        if (++idle > 100) {
            struct timespec ts = {0, 20000};
            nanosleep(&ts, NULL);
        }
    }
    pmix_status_t status = state->status;
    free(state);
    if (status != PMIX_SUCCESS) {
        axon_runtime_log_error("PMIx fence failed: %s", PMIx_Error_string(status));
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

/* Asks the launcher to end the job with launcher_code, naming rank `named` as the one process given to
 * PMIx_Abort (-1: none, the whole namespace); PMIx_Abort normally ends us from its side, and without a
 * launcher (or if it returns) we end ourselves with exit_code. */
static noreturn void axon_bootstrap_abort_with(int launcher_code, int exit_code, const char *message, int named)
{
    fflush(stdout);
    fflush(stderr);
    if (axon_bootstrap_pmix_up) {
        pmix_proc_t proc;
        if (named >= 0)
            PMIX_PROC_LOAD(&proc, axon_bootstrap_self.nspace, (pmix_rank_t)named);
        PMIx_Abort(launcher_code, message, named >= 0 ? &proc : NULL, named >= 0 ? 1 : 0);
    }
    _exit(exit_code);
}

noreturn void axon_runtime_bootstrap_abort(int code, const char *message)
{
    axon_bootstrap_abort_with(code, code, message, -1);
}

noreturn void axon_runtime_bootstrap_abort_lost(int lost, const char *message)
{
    /* This rank did not finish either: it never exits 0. Our mpirun is told which rank was lost (the one
     * process PMIx_Abort names), so that the lost rank's own exit code and message, which it learns
     * when it reaps it, come before this report; srun is not (Slurm's plugin would abort that one only). */
    bool ours = strcmp(axon_runtime_job.launcher, "mpirun") == 0;
    axon_bootstrap_abort_with(ours ? 1 : 0, 1, message, ours ? lost : -1);
}

void axon_runtime_bootstrap_finalize(void)
{
    if (axon_bootstrap_pmix_up) {
        PMIx_Finalize(NULL, 0);
        axon_bootstrap_pmix_up = false;
    }
    while (axon_bootstrap_local) {
        struct axon_bootstrap_local_kv *kv = axon_bootstrap_local;
        axon_bootstrap_local = kv->next;
        free(kv->key);
        free(kv->value);
        free(kv);
    }
    free(axon_runtime_job.node_of_rank);
    axon_runtime_job.node_of_rank = NULL;
    axon_runtime_lost_fini();
    axon_runtime_topo_finalize();
}
