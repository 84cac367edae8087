/* The table of AXON_* knobs and their parsing. Each knob is declared once here, with its type, default
 * and one line of help (UCX's config tables are the model); MPI_Init reads them all into axon_config,
 * and axon_info prints the table. Nothing else reads the environment for a knob. */
#include "runtime/runtime.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct axon_config axon_config;

#define AXON_CONFIG_FIELD(f) offsetof(struct axon_config, f)

static const struct axon_config_entry axon_config_entries[] = {
    {"AXON_WAIT_MODE", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(wait_mode), "auto|spin|yield",
     "how a waiting rank behaves: spin, yield its core between polls, or auto (yield when oversubscribed)"},
    {"AXON_SPIN_COUNT", AXON_CONFIG_INT, "10", AXON_CONFIG_FIELD(spin_count), NULL,
     "progress polls without news before a waiting rank starts to yield"},
    {"AXON_OVERSUBSCRIBED", AXON_CONFIG_TRISTATE, "auto", AXON_CONFIG_FIELD(oversubscribed), NULL,
     "whether this node runs more ranks than cores (mpirun sets it; auto: compare local ranks to cores)"},
    {"AXON_EAGER_LIMIT", AXON_CONFIG_SIZE, "auto", AXON_CONFIG_FIELD(eager_limit), NULL,
     "largest message sent eagerly (in the active message); larger ones go by zero-copy rendezvous; "
     "auto: 128k where the machine has no RDMA device (TCP between nodes), else UCX's threshold for the transport"},
    {"AXON_PT2PT_SHM_MAX", AXON_CONFIG_SIZE, "64k", AXON_CONFIG_FIELD(pt2pt_shm_max), NULL,
     "largest point-to-point message between ranks of one node that goes through the node's shared-memory "
     "rings instead of UCX (at most a quarter of a ring, and never beyond AXON_EAGER_LIMIT); 0: no rings"},
    {"AXON_PT2PT_SHM_RING", AXON_CONFIG_SIZE, "auto", AXON_CONFIG_FIELD(pt2pt_shm_ring), NULL,
     "bytes of the ring from one local rank to another (a power of two, 4k or more); the rings a rank "
     "receives on share 4 MiB, so a ring is never larger than its share; auto: the share, up to 1 MiB"},
    {"AXON_PT2PT_CMA", AXON_CONFIG_BOOL, "1", AXON_CONFIG_FIELD(pt2pt_cma), NULL,
     "contiguous messages between ranks of one node beyond the rings are read by the receiver straight from "
     "the sender's memory (process_vm_readv: one copy); 0: through UCX"},
    {"AXON_PT2PT_CMA_SPLIT", AXON_CONFIG_SIZE, "64k", AXON_CONFIG_FIELD(pt2pt_cma_split), NULL,
     "from this size, such a message is copied by both sides at once: the receiver asks the sender to write "
     "the second half into its buffer (process_vm_writev) while it reads the first; 0: the receiver copies all"},
    {"AXON_RMA_SHM", AXON_CONFIG_BOOL, "1", AXON_CONFIG_FIELD(rma_shm), NULL,
     "one-sided operations reach the windows of ranks on this node by loads and stores (allocated windows, in "
     "shared memory) or single copies (the program's memory), without the target's help; 0: by messages its "
     "progress serves, as ranks of other nodes are"},
    {"AXON_RMA_UCX", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(rma_ucx), "auto|on|off",
     "one-sided puts and gets to ranks of other machines (and to node peers with AXON_RMA_SHM=0) move as UCX "
     "puts and gets into memory registered when the window is made: RDMA where the fabric has it, without "
     "the target's help; accumulates and locks stay messages; auto: on when the job spans machines with an "
     "RDMA device (over TCP UCX emulates them with messages, slower than the engine's own); off: everything "
     "by messages the target's progress serves"},
    {"AXON_BSEND_WAIT_MS", AXON_CONFIG_INT, "2000", AXON_CONFIG_FIELD(bsend_wait_ms), NULL,
     "milliseconds a buffered send waits for room that earlier buffered messages hold, then MPI_ERR_BUFFER"},
    {"AXON_MODEX", AXON_CONFIG_ENUM, "collect", AXON_CONFIG_FIELD(modex), "collect|direct",
     "how ranks learn each other's addresses: collect: MPI_Init's fence hands every rank's to every node; "
     "direct: the fence collects nothing, a rank asks PMIx for another node's rank's address when it first "
     "talks to it (the server fetches it from that node), and GPU domains are found among the node's own ranks "
     "only"},
    {"AXON_PEER_WATCH", AXON_CONFIG_ENUM, "hosts", AXON_CONFIG_FIELD(peer_watch), "off|hosts|nodes",
     "which peers' endpoints UCX watches (a closed connection, unanswered keepalives), so that a rank there "
     "that ends without MPI_Finalize ends the job: those on other machines; nodes: on other nodes, AXON_TOPO's "
     "included (UCX then leaves out its shared-memory transports for them); off: none (ranks of this node "
     "are watched through their processes whatever this says)"},
    {"AXON_PEER_LEAVE_GRACE", AXON_CONFIG_INT, "10", AXON_CONFIG_FIELD(peer_leave_grace), NULL,
     "seconds that a watched peer's error, heard while MPI_Finalize's first barrier waits, is held: a peer past "
     "that barrier closes its endpoints while others still wait in it; the error ends the job only if the "
     "barrier has not ended by then"},
    {"AXON_COLL_SHM_MAX", AXON_CONFIG_SIZE, "8k", AXON_CONFIG_FIELD(coll_shm_max), NULL,
     "blocking collectives run through the node's shared memory when the communicator's ranks share it: "
     "barrier, and bcast, reduce, allreduce, gather, allgather of any size (in chunks beyond a slot); "
     "scatter and alltoall up to this many bytes of a rank's blocks; 0: none of them"},
    {"AXON_COLL_SHM_CHUNK", AXON_CONFIG_SIZE, "auto", AXON_CONFIG_FIELD(coll_shm_chunk), NULL,
     "bytes of each rank's slot in that shared memory: the chunk in which large reductions are pipelined; "
     "auto: the communicator's share of 8 MiB, between 64 KiB and 1 MiB (1 MiB up to 4 ranks)"},
    {"AXON_COLL_GPU_AGREE_MIN", AXON_CONFIG_SIZE, "64k", AXON_CONFIG_FIELD(coll_gpu_agree_min), NULL,
     "with CUDA support on, a bcast, allgather, alltoall or reduction (not a scan) of a communicator on one node "
     "that moves more than this many bytes a rank first asks whether all members' buffers are host memory (then "
     "the node's shared memory) or all GPU memory (then the domain algorithms): a blocking call at once, a "
     "persistent one at its _init, a nonblocking one as its request's first round; below it GPU buffers are "
     "staged through host memory"},
    /* One per collective, in the order of enum axon_coll_kind; the words after "auto" are the
     * algorithms of the collective's table, in its order (tests/unit/test_coll_select.c checks). */
    {"AXON_COLL_BARRIER_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[0]), "auto|dissemination|hier",
     "MPI_Barrier's algorithm (axon_info lists them and the rules auto follows)"},
    {"AXON_COLL_BCAST_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[1]),
     "auto|binomial|scatter_ring|scatter_doubling|chain|hier|domain", "MPI_Bcast's algorithm"},
    {"AXON_COLL_REDUCE_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[2]),
     "auto|binomial|rabenseifner|hier|domain", "MPI_Reduce's algorithm"},
    {"AXON_COLL_ALLREDUCE_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[3]),
     "auto|reduce_bcast|recursive_doubling|rabenseifner|ring|hier|domain",
     "MPI_Allreduce's algorithm"},
    {"AXON_COLL_GATHER_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[4]), "auto|linear|binomial",
     "MPI_Gather(v)'s algorithm"},
    {"AXON_COLL_SCATTER_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[5]), "auto|linear|binomial",
     "MPI_Scatter(v)'s algorithm"},
    {"AXON_COLL_ALLGATHER_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[6]), "auto|ring|doubling|bruck|hier|domain",
     "MPI_Allgather(v)'s algorithm"},
    {"AXON_COLL_ALLTOALL_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[7]),
     "auto|pairwise|bruck|scattered|hier|domain", "MPI_Alltoall(v,w)'s algorithm"},
    {"AXON_COLL_REDUCE_SCATTER_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[8]),
     "auto|reduce_then_scatter|recursive_halving|ring|hier|domain", "MPI_Reduce_scatter(_block)'s algorithm"},
    {"AXON_COLL_SCAN_ALG", AXON_CONFIG_ENUM, "auto", AXON_CONFIG_FIELD(coll_alg[9]), "auto|linear|recursive_doubling",
     "MPI_Scan's and MPI_Exscan's algorithm"},
    {"AXON_COLL_SELECT", AXON_CONFIG_ENUM, "rules", AXON_CONFIG_FIELD(coll_select), "rules|model",
     "how a collective's algorithm is chosen where no AXON_COLL_<NAME>_ALG forces one: by the rules "
     "axon_info lists, or by the least time the cost model predicts for the communicator's nodes "
     "(simulated once per collective and size class; every rank must see the same model)"},
    {"AXON_COLL_MODEL_FILE", AXON_CONFIG_STRING, "", AXON_CONFIG_FIELD(coll_model_file), NULL,
     "the cost model's tuning file for AXON_COLL_SELECT=model (axon_calibrate writes one); empty: the "
     "model's defaults"},
    {"AXON_ASYNC_PROGRESS", AXON_CONFIG_BOOL, "0", AXON_CONFIG_FIELD(async_progress), NULL,
     "a progress thread moves nonblocking operations while the program computes without calling MPI "
     "(the library then locks as under MPI_THREAD_MULTIPLE)"},
    {"AXON_SPARE_CPUS", AXON_CONFIG_STRING, "", AXON_CONFIG_FIELD(spare_cpus), NULL,
     "CPUs no rank of this node is bound to, as a list (\"8-15,20\"), where the progress thread runs; mpirun "
     "sets it when it binds ranks and some CPUs are left; empty: the thread shares its rank's CPUs"},
    {"AXON_CUDA", AXON_CONFIG_TRISTATE, "auto", AXON_CONFIG_FIELD(cuda), NULL,
     "CUDA support: auto (on when the driver, AXON_CUDA_LIBRARY, loads and shows a GPU), 0 (off: every "
     "buffer is host memory, the driver is not loaded), 1 (MPI_Init fails without a CUDA driver and GPU)"},
    {"AXON_CUDA_IPC", AXON_CONFIG_BOOL, "1", AXON_CONFIG_FIELD(cuda_ipc), NULL,
     "GPU messages between ranks of one node are read in place through CUDA IPC: legacy handles for "
     "cuMemAlloc memory, POSIX fds (pidfd_getfd) for cuMemCreate (VMM) memory (0: staged through host memory)"},
    {"AXON_CUDA_IPC_MIN", AXON_CONFIG_SIZE, "0", AXON_CONFIG_FIELD(cuda_ipc_min), NULL,
     "GPU messages smaller than this are staged through host memory even when CUDA IPC could carry them"},
    {"AXON_CUDA_IPC_KERNEL_MAX", AXON_CONFIG_SIZE, "64k", AXON_CONFIG_FIELD(cuda_ipc_kernel_max), NULL,
     "GPU messages through CUDA IPC up to this many bytes into GPU memory are copied by a kernel of the "
     "library rather than by cuMemcpy (0: always cuMemcpy)"},
    {"AXON_CUDA_IPC_CACHE_MAX", AXON_CONFIG_INT, "64", AXON_CONFIG_FIELD(cuda_ipc_cache_max), NULL,
     "opened CUDA IPC handles and imported VMM allocations a process keeps (the least recently used is "
     "closed first)"},
    {"AXON_CUDA_BOUNCE_CACHE", AXON_CONFIG_SIZE, "256m", AXON_CONFIG_FIELD(cuda_bounce_cache), NULL,
     "bytes of pinned host buffers (for staging GPU messages) a process keeps for reuse"},
    {"AXON_CUDA_PIPELINE_CHUNK", AXON_CONFIG_SIZE, "1m", AXON_CONFIG_FIELD(cuda_pipeline_chunk), NULL,
     "staged GPU messages (another node, or no IPC) longer than this go in chunks of it, the copies off and "
     "onto the GPUs overlapping the wire"},
    {"AXON_COLL_DOMAIN_FUSED", AXON_CONFIG_BOOL, "1", AXON_CONFIG_FIELD(coll_domain_fused), NULL,
     "the domain allreduce folds each slice of every member's input into every member's result with one "
     "kernel when all results are GPU memory the peers can open; 0: slices reduced into scratch, then "
     "copied back"},
    {"AXON_CUDA_MPS_WARN", AXON_CONFIG_BOOL, "1", AXON_CONFIG_FIELD(cuda_mps_warn), NULL,
     "a rank says once when it reads a peer's GPU memory on its own GPU without NVIDIA MPS (each "
     "message then waits for the GPU to switch processes: mpirun --mps avoids it)"},
    {"AXON_CUDA_COPY_STREAM", AXON_CONFIG_BOOL, "0", AXON_CONFIG_FIELD(cuda_copy_stream), NULL,
     "GPU copies run on a non-blocking stream of Axon's own (one per context), each waited for, instead of "
     "as synchronous copies on the legacy default stream"},
    {"AXON_CUDA_WINDOW", AXON_CONFIG_BOOL, "1", AXON_CONFIG_FIELD(cuda_window), NULL,
     "pipelined GPU messages to ranks of this node go through a pinned window of host memory both processes "
     "map (two DMA copies per chunk, no CPU copy); 0: through the transport"},
    {"AXON_CUDA_PIPELINE_DEPTH", AXON_CONFIG_INT, "4", AXON_CONFIG_FIELD(cuda_pipeline_depth), NULL,
     "chunks of a pipelined GPU message in flight at once"},
    {"AXON_TOPO", AXON_CONFIG_STRING, "", AXON_CONFIG_FIELD(topo), NULL,
     "a synthetic topology, so that the ranks of one machine act as several nodes and NVLink domains: "
     "nodes=N,ranks_per_node=R[,domains_per_node=D] (or ranks_per_domain=P), or a file holding that; "
     "ranks go node by node; empty: the nodes the launcher reports, with NVLink domains from the ranks' GPUs"},
    {"AXON_CUDA_LIBRARY", AXON_CONFIG_STRING, "libcuda.so.1", AXON_CONFIG_FIELD(cuda_library), NULL,
     "the CUDA driver library to load: a name the dynamic loader searches for, or a path (tests name the "
     "fake driver, tests/fakecuda, here)"},
    {"AXON_NVML_LIBRARY", AXON_CONFIG_STRING, "libnvidia-ml.so.1", AXON_CONFIG_FIELD(nvml_library), NULL,
     "NVML, asked at MPI_Init for each GPU's fabric clique (a multi-node NVLink domain): a name or a path "
     "(tests name a fake, tests/fakecuda); none found: domains end at the node"},
    {"AXON_VERBOSE", AXON_CONFIG_INT, "0", AXON_CONFIG_FIELD(verbose), NULL,
     "debug messages to stderr: 0 none, 1 setup decisions, 2 and more detail"},
};

const struct axon_config_entry *axon_runtime_config_table(size_t *count)
{
    *count = AXON_ARRAY_SIZE(axon_config_entries);
    return axon_config_entries;
}

static long *axon_config_slot(const struct axon_config_entry *entry, struct axon_config *cfg)
{
    return (long *)((char *)cfg + entry->offset);
}

static int axon_config_parse_long(const char *text, long *out, long scale_allowed)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || errno != 0)
        return -1;
    if (scale_allowed && *end != '\0') {
        long mul;
        switch (*end) {
        case 'k': case 'K': mul = 1L << 10; break;
        case 'm': case 'M': mul = 1L << 20; break;
        case 'g': case 'G': mul = 1L << 30; break;
        default: return -1;
        }
        end++;
        if (*end == 'b' || *end == 'B')
            end++;
        if (v > 0 && v > __LONG_MAX__ / mul)
            return -1;
        v *= mul;
    }
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

static int axon_config_parse_bool(const char *text, long *out)
{
    static const char *const yes[] = {"1", "yes", "on", "true", "y"};
    static const char *const no[] = {"0", "no", "off", "false", "n"};
    for (size_t i = 0; i < AXON_ARRAY_SIZE(yes); i++) {
        if (strcasecmp(text, yes[i]) == 0) { *out = 1; return 0; }
        if (strcasecmp(text, no[i]) == 0) { *out = 0; return 0; }
    }
    return -1;
}

/* Index of word in a "a|b|c" list, or -1. */
static long axon_config_enum_index(const char *values, const char *word)
{
    size_t wlen = strlen(word);
    long index = 0;
    for (const char *p = values; ; index++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == wlen && strncasecmp(p, word, len) == 0)
            return index;
        if (!bar)
            return -1;
        p = bar + 1;
    }
}

static const char *axon_config_expected(const struct axon_config_entry *entry)
{
    switch (entry->type) {
    case AXON_CONFIG_INT: return "an integer";
    case AXON_CONFIG_SIZE: return "a size in bytes such as 8192, 64k or 4m";
    case AXON_CONFIG_BOOL: return "1/0, yes/no, on/off or true/false";
    case AXON_CONFIG_TRISTATE: return "auto, 1/0, yes/no, on/off or true/false";
    case AXON_CONFIG_ENUM: return entry->values;
    case AXON_CONFIG_STRING: return "a string";
    }
    return "?";
}

int axon_runtime_config_parse(const struct axon_config_entry *entry, const char *text,
                              struct axon_config *cfg, char *err, size_t errlen)
{
    long value = 0;
    int rc = 0;
    switch (entry->type) {
    case AXON_CONFIG_INT: rc = axon_config_parse_long(text, &value, 0); break;
    case AXON_CONFIG_SIZE:
        if (strcasecmp(text, "auto") == 0) {
            value = -1;
            break;
        }
        rc = axon_config_parse_long(text, &value, 1);
        if (rc == 0 && value < 0)
            rc = -1;
        break;
    case AXON_CONFIG_BOOL: rc = axon_config_parse_bool(text, &value); break;
    case AXON_CONFIG_TRISTATE:
        if (strcasecmp(text, "auto") == 0)
            value = -1;
        else
            rc = axon_config_parse_bool(text, &value);
        break;
    case AXON_CONFIG_ENUM:
        value = axon_config_enum_index(entry->values, text);
        rc = value < 0 ? -1 : 0;
        break;
    case AXON_CONFIG_STRING:
        /* Copied: the environment may change after MPI_Init. */
        if (strlen(text) >= AXON_CONFIG_STRING_MAX) {
            snprintf(err, errlen, "%s is not valid: longer than %d characters", entry->name,
                     AXON_CONFIG_STRING_MAX - 1);
            return MPI_ERR_OTHER;
        }
        snprintf((char *)cfg + entry->offset, AXON_CONFIG_STRING_MAX, "%s", text);
        return MPI_SUCCESS;
    }
    if (rc != 0) {
        snprintf(err, errlen, "%s='%s' is not valid: expected %s", entry->name, text,
                 axon_config_expected(entry));
        return MPI_ERR_OTHER;
    }
    *axon_config_slot(entry, cfg) = value;
    return MPI_SUCCESS;
}

int axon_runtime_config_load(struct axon_config *cfg, char *err, size_t errlen)
{
    size_t n;
    const struct axon_config_entry *table = axon_runtime_config_table(&n);
    for (size_t i = 0; i < n; i++) {
        int rc = axon_runtime_config_parse(&table[i], table[i].default_value, cfg, err, errlen);
        if (rc != MPI_SUCCESS)
            return rc;
        const char *env = getenv(table[i].name);
        if (env && *env) {
            rc = axon_runtime_config_parse(&table[i], env, cfg, err, errlen);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}

void axon_runtime_config_format(const struct axon_config_entry *entry, const struct axon_config *cfg,
                                char *buf, size_t len)
{
    if (entry->type == AXON_CONFIG_STRING) {
        snprintf(buf, len, "%s", (const char *)cfg + entry->offset);
        return;
    }
    long value = *axon_config_slot(entry, (struct axon_config *)cfg);
    switch (entry->type) {
    case AXON_CONFIG_BOOL:
        snprintf(buf, len, "%s", value ? "yes" : "no");
        return;
    case AXON_CONFIG_TRISTATE:
        snprintf(buf, len, "%s", value < 0 ? "auto" : value ? "yes" : "no");
        return;
    case AXON_CONFIG_SIZE:
        if (value < 0)
            snprintf(buf, len, "auto");
        else
            snprintf(buf, len, "%ld", value);
        return;
    case AXON_CONFIG_ENUM: {
        const char *p = entry->values;
        for (long i = 0; i < value && p; i++) {
            p = strchr(p, '|');
            if (p)
                p++;
        }
        size_t wlen = p ? strcspn(p, "|") : 0;
        snprintf(buf, len, "%.*s", (int)wlen, p ? p : "");
        return;
    }
    default:
        snprintf(buf, len, "%ld", value);
        return;
    }
}
