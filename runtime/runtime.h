/* The runtime layer: what the job is and how its processes find each other. It owns the configuration
 * knobs (AXON_* environment variables, read once at MPI_Init), the error log, and the bootstrap: a PMIx
 * client that tells rank, size and node layout and exchanges the transport addresses. It is the bottom
 * layer: it calls nothing above it. mpirun, the PMIx server, lives in runtime/mpirun/ and is a program of
 * its own. Functions return MPI error classes. */
#ifndef AXON_RUNTIME_H
#define AXON_RUNTIME_H

#include "runtime/axon_runtime_array.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdnoreturn.h>

/* ---- configuration (axon_runtime_config.c) ------------------------------------------------------- */

enum axon_config_type {
    AXON_CONFIG_INT,      /* a decimal integer */
    AXON_CONFIG_SIZE,     /* bytes, with an optional k/m/g suffix (powers of 1024); "auto" is -1 */
    AXON_CONFIG_BOOL,     /* 1/0, yes/no, on/off, true/false */
    AXON_CONFIG_TRISTATE, /* auto, or a boolean: -1 means auto */
    AXON_CONFIG_ENUM,     /* one of a '|'-separated list of words; stored as its index */
    AXON_CONFIG_STRING,   /* text, kept in a char[AXON_CONFIG_STRING_MAX] of struct axon_config */
};

/* Room for a string knob's value, its terminating 0 included (a path). */
#define AXON_CONFIG_STRING_MAX 1024

/* How a rank waits for communication: spin on progress, or give its core away between polls. */
enum axon_wait_mode {
    AXON_WAIT_AUTO,  /* spin, or yield when the machine is oversubscribed */
    AXON_WAIT_SPIN,
    AXON_WAIT_YIELD,
};

/* Which peers UCX watches for failure (AXON_PEER_WATCH, ucx_glue/axon_ucx_ep.c). */
enum axon_peer_watch {
    AXON_PEER_WATCH_OFF,
    AXON_PEER_WATCH_HOSTS, /* ranks on other machines */
    AXON_PEER_WATCH_NODES, /* ranks on other nodes, AXON_TOPO's synthetic ones included (tests) */
};

/* AXON_RMA_UCX: whether one-sided operations to ranks of other machines are UCX puts and gets. */
enum axon_rma_ucx {
    AXON_RMA_UCX_AUTO, /* when the job spans machines that have an RDMA device */
    AXON_RMA_UCX_ON,   /* always (with AXON_RMA_SHM=0, node peers too: tests) */
    AXON_RMA_UCX_OFF,  /* never: messages the target serves */
};
/* AXON_MODEX: how the ranks' published values (UCX addresses, GPUs, segment names) travel. */
enum axon_modex {
    AXON_MODEX_COLLECT, /* MPI_Init's fence collects them all onto every node */
    AXON_MODEX_DIRECT,  /* the fence collects nothing: a rank's values are fetched from its node when
                         * another node first asks for them */
};

/* Every knob's value after MPI_Init. Tests may set fields directly; no knob is cached elsewhere. */
struct axon_config {
    long wait_mode;     /* enum axon_wait_mode */
    long spin_count;    /* idle polls before a waiting rank backs off */
    long oversubscribed; /* -1 auto (decide from cores), 0, 1 */
    long verbose;
    long eager_limit;   /* largest message sent eagerly; -1 auto (UCX's threshold decides) */
    long pt2pt_shm_max; /* largest message through the node's shared-memory rings; 0: rings off */
    long pt2pt_shm_ring; /* bytes of one ring (per pair of local ranks) */
    long pt2pt_cma;     /* larger messages on a node: one copy from the sender's memory (process_vm_readv) */
    long pt2pt_cma_split; /* from this size, the sender writes half of such a message while the receiver
                           * reads the other half */
    long rma_shm;        /* one-sided: node peers reached through shared memory and single copies */
    long rma_ucx;        /* enum axon_rma_ucx */
    long bsend_wait_ms;  /* how long a buffered send waits for room held by messages in flight */
    long modex;          /* enum axon_modex */
    long peer_watch;     /* enum axon_peer_watch */
    long peer_leave_grace; /* seconds a watched peer's error in MPI_Finalize's barrier waits for its end */
    long coll_shm_max;   /* largest blocking collective through node shared memory (reductions: any) */
    long coll_shm_chunk; /* bytes of a rank's slot in that memory: the chunk of large reductions */
    long coll_gpu_agree_min; /* larger blocking calls first agree where the members' buffers are (CUDA on) */
    long coll_alg[10];  /* AXON_COLL_<NAME>_ALG by collective kind (coll/axon_coll_select.h): 0 auto, else
                         * 1 + the algorithm's index */
    long async_progress; /* 1: a progress thread moves communication while the program computes */
    long cuda;           /* AXON_CUDA: -1 auto, 0 off, 1 required (enum axon_cuda_mode) */
    long cuda_ipc;       /* AXON_CUDA_IPC: GPU messages on a node read in place through CUDA IPC */
    long cuda_ipc_min;   /* smaller GPU messages are staged (one copy each side) instead */
    long cuda_ipc_kernel_max; /* IPC messages up to this size into GPU memory: a copy kernel */
    long cuda_ipc_cache_max; /* IPC handles a process keeps open */
    long cuda_bounce_cache; /* bytes of pinned staging buffers kept for reuse */
    long cuda_pipeline_chunk; /* staged GPU messages above it go in chunks of it */
    long cuda_copy_stream;    /* 1: GPU copies on a non-blocking stream of our own */
    long cuda_mps_warn;       /* 1: say when ranks share a GPU without MPS */
    long coll_domain_fused;   /* 1: the domain allreduce folds into every result in one kernel */
    long cuda_window;         /* 1: node peers' chunks go through the sender's pinned staging window */
    long cuda_pipeline_depth; /* chunks in flight */
    char cuda_library[AXON_CONFIG_STRING_MAX]; /* AXON_CUDA_LIBRARY: the driver dlopen loads */
    char nvml_library[AXON_CONFIG_STRING_MAX]; /* AXON_NVML_LIBRARY: NVML, for the NVLink domains */
    char topo[AXON_CONFIG_STRING_MAX];         /* AXON_TOPO: a synthetic topology, or "" */
    char spare_cpus[AXON_CONFIG_STRING_MAX];   /* AXON_SPARE_CPUS: where the progress thread runs, or "" */
    long coll_select;                          /* AXON_COLL_SELECT: 0 rules, 1 model */
    char coll_model_file[AXON_CONFIG_STRING_MAX]; /* AXON_COLL_MODEL_FILE: a tuning file, or "" */
};

struct axon_config_entry {
    const char *name;          /* environment variable */
    enum axon_config_type type;
    const char *default_value; /* as text, parsed like the environment's */
    size_t offset;             /* of the field in struct axon_config */
    const char *values;        /* AXON_CONFIG_ENUM: "a|b|c" */
    const char *help;          /* one line */
};

extern struct axon_config axon_config;

/* The table of every knob, for axon_info and for tests. */
const struct axon_config_entry *axon_runtime_config_table(size_t *count);
/* Sets every field of cfg to its default, then from the environment. On a malformed value it returns
 * MPI_ERR_OTHER and writes a message naming the variable and the expected form into err. */
int axon_runtime_config_load(struct axon_config *cfg, char *err, size_t errlen);
/* Parses text for one entry into the field it names in cfg. */
int axon_runtime_config_parse(const struct axon_config_entry *entry, const char *text,
                              struct axon_config *cfg, char *err, size_t errlen);
/* Writes the current value of an entry as text (the form the environment takes). */
void axon_runtime_config_format(const struct axon_config_entry *entry, const struct axon_config *cfg,
                                char *buf, size_t len);

/* Creates a new shared-memory segment of this process (O_EXCL, mode 0600) named
 * "/axon-<kind>-<pid>-<64 random bits>-<serial>" into name: its descriptor, or -1 with errno
 * (axon_runtime_shm.c). Every user of a segment unlinks its name once the peers have mapped it; mpirun
 * removes those a rank it reaps left behind. */
int axon_runtime_shm_create(const char *kind, unsigned serial, char *name, size_t len);
/* Removes every segment of process pid named as above and owned by this user; how many. */
int axon_runtime_shm_sweep(long pid);

/* ---- log (axon_runtime_log.c) -------------------------------------------------------------------- */

/* Messages to stderr, prefixed with "axon" and the rank once it is known. */
void axon_runtime_log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void axon_runtime_log_debug(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- bootstrap (axon_runtime_bootstrap.c) -------------------------------------------------------- */

struct axon_runtime_job {
    int rank, size;             /* in MPI_COMM_WORLD */
    int local_rank, local_size; /* among the ranks of this node */
    int node, num_nodes;        /* this rank's node index, and how many nodes the job spans */
    int *node_of_rank;          /* size entries: node index of every rank, 0 .. num_nodes-1 */
    /* The nodes above are AXON_TOPO's synthetic ones when it is set (runtime/axon_runtime_topo.h);
     * these are the machines' own, which the cores are shared on (how hard a waiting rank may spin). */
    int host_local_rank, host_local_size;
    int *host_of_rank;          /* size entries: the real node of every rank */
    int domain, num_domains;    /* this rank's domain (GPUs that reach each other), and how many */
    int *domain_of_rank;        /* size entries, 0 .. num_domains-1, numbered by their lowest rank */
    char topo[AXON_CONFIG_STRING_MAX]; /* AXON_TOPO's description as read, or "" */
    int appnum;
    int universe_size;
    bool singleton;             /* started without a launcher: no PMIx, size 1 */
    bool known;                 /* bootstrap_init succeeded */
    char launcher[32];          /* "mpirun", "pmix" (another PMIx launcher) or "singleton" */
    char hostname[256];
};

extern struct axon_runtime_job axon_runtime_job;

/* Connects to the PMIx server (or becomes a singleton) and fills axon_runtime_job. */
int axon_runtime_bootstrap_init(char *err, size_t errlen);
/* Publishes a value under key for every other rank; visible after bootstrap_exchange. */
int axon_runtime_bootstrap_put(const char *key, const void *value, size_t len);
/* Commits what was put and waits until every rank has (a fence that collects the data onto every
 * node); without collect the fence collects nothing, and a get of another node's rank is fetched from
 * that node's server when first made (direct modex). */
int axon_runtime_bootstrap_exchange(bool collect);
/* What rank published under key; *value is malloc'ed and the caller frees it. */
int axon_runtime_bootstrap_get(int rank, const char *key, void **value, size_t *len);
/* A barrier of every rank; calls progress(arg) while waiting, so the transport keeps moving.
 * MPI_ERR_PROC_ABORTED, at once or while it waits, where a rank is lost (and the job survives it): the
 * launcher's fence cannot end then (see axon_ucx_finalize for what the ranks that live do instead). */
int axon_runtime_bootstrap_barrier(void (*progress)(void *), void *arg);
/* Ends the whole job with code; message goes to the launcher. Never returns. */
noreturn void axon_runtime_bootstrap_abort(int code, const char *message);
/* Ends the whole job because rank `lost` is gone (message names it). The lost rank's own end is the
 * job's cause: under our mpirun, which is told the rank, waits for its end and returns its code, with
 * code 1; under any other launcher with code 0, which Slurm's PMIx plugin does not put in place of its
 * tasks' codes, so srun's exit status is the lost rank's, as it would be without MPI (139 for a
 * SIGSEGV). */
noreturn void axon_runtime_bootstrap_abort_lost(int lost, const char *message);
/* Disconnects from the PMIx server. */
void axon_runtime_bootstrap_finalize(void);

/* ---- ranks found lost (axon_runtime_lost.c) ---------------------------------------------------------- */

/* Sized for the job (bootstrap_init) and released (bootstrap_finalize). */
int axon_runtime_lost_init(int nranks);
void axon_runtime_lost_fini(void);
/* Whether the job survives a lost rank: MPI_COMM_WORLD's error handler is not fatal (the MPI layer says,
 * whenever it changes). */
void axon_runtime_lost_set_survive(bool survive);
/* A watcher found rank `world` gone (message names it, and how). Ends the job (never returns) unless it
 * survives; then the rank is marked lost, once, with the message on stderr. */
void axon_runtime_peer_lost(int world, const char *message);
/* How many losses were marked: 0 almost always, so a caller tests this one load first (inline: it sits
 * on every post and every poll of a request). */
extern atomic_uint axon_runtime_lost_gen;
static inline unsigned axon_runtime_lost_generation(void)
{
    return atomic_load_explicit(&axon_runtime_lost_gen, memory_order_acquire);
}
bool axon_runtime_lost(int world);
/* Whether any of n ranks (world_ranks[i], or i where world_ranks is NULL) is lost. */
bool axon_runtime_lost_any(const int *world_ranks, int n);
int axon_runtime_lost_count(void);
/* Another rank told us that it found rank `world` gone: marked as above (or the job ends), not news. */
void axon_runtime_lost_heard(int world, int by);
/* Set while a rank found lost by our own watch is still to be told to the others; take_news returns one
 * such rank and forgets it (-1: none). */
const atomic_bool *axon_runtime_lost_news(void);
int axon_runtime_lost_take_news(void);

/* ---- hardware resources (axon_runtime_hwres.c) ------------------------------------------------------ */

/* The levels of a machine below a node, largest first, as hwloc names them: MPI_COMM_TYPE_HW_UNGUIDED
 * tries them in turn. */
#define AXON_RUNTIME_HW_LEVELS 6
extern const char *const axon_runtime_hw_levels[AXON_RUNTIME_HW_LEVELS];
enum {
    AXON_RUNTIME_HW_SPANS = -1,   /* the process may run on CPUs of several instances (or of none) */
    AXON_RUNTIME_HW_UNKNOWN = -2, /* not a resource type hwloc knows (or one that holds no CPUs) */
};
/* For each of n resource type names (hwloc's: "Package", "NUMANode", "L3Cache", "Core", "PU" ...; also
 * "socket", "numa", "hwthread", and an "hwloc://" prefix; case does not matter), the logical index of the
 * instance whose CPUs include every CPU this process may run on, else AXON_RUNTIME_HW_SPANS or
 * _UNKNOWN, in index[i]. MPI_ERR_OTHER when hwloc cannot tell (index then holds SPANS or UNKNOWN). */
int axon_runtime_hw_locate(const char *const *names, int n, int *index);

#endif
