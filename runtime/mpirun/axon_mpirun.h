/* mpirun: a launcher for one machine. It is a PMIx server (libpmix's server API) that forks the ranks of
 * one job, binds them to CPUs, answers their fences, forwards their output, stdin and signals, and ends
 * the whole job at the first failure with the failure's exit code. This header joins the parts main()
 * calls: the command line (axon_mpirun_args.c, pure logic so unit tests can call it), the binding of ranks
 * to CPUs (axon_mpirun_bind.c), the PMIx server (axon_mpirun_server.c), the job's NVIDIA MPS daemon
 * (axon_mpirun_mps.c), the starting of ranks (axon_mpirun_spawn.c), the job and its event loop
 * (axon_mpirun_launch.c, with the ranks' output in axon_mpirun_output.c; axon_mpirun_job.h joins those
 * three), and main() (axon_mpirun_main.c). */
#ifndef AXON_MPIRUN_H
#define AXON_MPIRUN_H

#include "runtime/axon_runtime_array.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#ifndef AXON_VERSION
#define AXON_VERSION "0.1.0"
#endif

/* ---- command line (axon_mpirun_args.c) ----------------------------------------------------------- */

/* What --bind-to asks for (Open MPI's and MPICH's levels). */
enum axon_mpirun_bind_level {
    AXON_MPIRUN_BIND_DEFAULT = 0, /* no --bind-to: core while the ranks fit the cores, else none */
    AXON_MPIRUN_BIND_NONE,
    AXON_MPIRUN_BIND_HWTHREAD,
    AXON_MPIRUN_BIND_CORE,
    AXON_MPIRUN_BIND_L1CACHE,
    AXON_MPIRUN_BIND_L2CACHE,
    AXON_MPIRUN_BIND_L3CACHE,
    AXON_MPIRUN_BIND_NUMA,
    AXON_MPIRUN_BIND_PACKAGE, /* also spelled "socket" */
    AXON_MPIRUN_BIND_BOARD,   /* hwloc knows no boards: the whole machine */
};

/* One variable to set in every rank's environment (-x, -genv, -env). */
struct axon_mpirun_env_var {
    char *name;
    char *value;
};

struct axon_mpirun_options {
    int nranks;           /* -n; 0 while not given (axon_mpirun_args_parse resolves it to >= 1) */
    bool nranks_given;    /* -n or -N was given (else a Slurm allocation's task count decides) */
    int ppn;              /* -N / --npernode; 0 when not given */
    int timeout;          /* seconds; 0 = no limit (--timeout, else MPIEXEC_TIMEOUT) */
    bool tag_output;      /* --tag-output */
    bool oversubscribe;   /* --oversubscribe: accepted; oversubscription is always allowed */
    int bind_to;          /* enum axon_mpirun_bind_level: --bind-to, the last one given */
    bool bind_if_supported; /* --bind-to X:if-supported: no warning when this machine has no X */
    bool report_bindings; /* --report-bindings, or --bind-to X:report */
    bool hwthread_cpus;   /* --use-hwthread-cpus: hardware threads are the slots (default binding hwthread) */
    bool mps;             /* --mps, or AXON_MPIRUN_MPS=1: a private NVIDIA MPS daemon for the job */
    bool no_cleanup;      /* -disable-auto-cleanup (MPICH's name): a failing rank does not end the job */
    const char *wdir;     /* -wdir: working directory of the ranks, or NULL */
    struct axon_mpirun_env_var *env;
    size_t nenv;
    int prog_argc;        /* the program and its arguments: a slice of the argv given to the parser */
    char **prog_argv;     /* NULL-terminated (it is argv's own tail) */
};

enum axon_mpirun_args_result {
    AXON_MPIRUN_ARGS_RUN,     /* start the job */
    AXON_MPIRUN_ARGS_HELP,    /* print axon_mpirun_args_usage() on stdout, exit 0 */
    AXON_MPIRUN_ARGS_VERSION, /* print the version line on stdout, exit 0 */
    AXON_MPIRUN_ARGS_ERROR,   /* print the message on stderr, exit 1 */
};

/* Parses argv (argv[0] is mpirun itself) into opts. On AXON_MPIRUN_ARGS_ERROR, err holds a message that
 * starts with "mpirun: " and has no newline. opts must be released with axon_mpirun_args_free whatever
 * the result. Reads the environment (-x VAR, MPIEXEC_TIMEOUT, AXON_MPIRUN_MPS), host files and the host
 * name. */
enum axon_mpirun_args_result axon_mpirun_args_parse(int argc, char **argv, struct axon_mpirun_options *opts,
                                                    char *err, size_t errlen);
void axon_mpirun_args_free(struct axon_mpirun_options *opts);
const char *axon_mpirun_args_usage(void);
/* Is this host name this machine (localhost, 127.0.0.1, our name or its short form)? */
bool axon_mpirun_args_host_is_local(const char *host);

/* ---- inside a Slurm allocation (axon_mpirun_slurm.c) ------------------------------------------------ */

struct axon_mpirun_slurm {
    bool inside;         /* SLURM_JOB_ID is set: salloc's shell, an sbatch script */
    int slots;           /* the tasks it holds (SLURM_TASKS_PER_NODE summed, else SLURM_NTASKS); 0: unknown */
    int nodes;           /* SLURM_JOB_NUM_NODES */
    char nodelist[256];  /* SLURM_JOB_NODELIST */
};
/* The sum of a SLURM_TASKS_PER_NODE value ("2(x3),1" is 7); -1 when malformed. */
int axon_mpirun_slurm_tasks_sum(const char *spec);
/* Reads the allocation from the environment. */
void axon_mpirun_slurm_read(struct axon_mpirun_slurm *s);
/* The job's size within the allocation: its tasks without -n; more than it holds refused (1, message in
 * err) unless --oversubscribe. 0 when the size stands. */
int axon_mpirun_slurm_size(const struct axon_mpirun_slurm *s, struct axon_mpirun_options *opts, char *err,
                           size_t errlen);
/* Whether the allocation puts the job beyond this machine (hostname: ours), so srun must start it. */
bool axon_mpirun_slurm_remote(const struct axon_mpirun_slurm *s, const char *hostname);
/* srun's command line for the job (srun --mpi=pmix ... -- program args); notes gets the flags srun takes
 * otherwise or not at all, comma-separated ("" when none). -1 when out of memory. */
struct axon_mpirun_slurm_cmd {
    char **argv;        /* NULL-terminated */
    char *words[8];     /* the formatted ones, owned */
    int nwords;
};
int axon_mpirun_slurm_cmd_make(const struct axon_mpirun_options *opts, struct axon_mpirun_slurm_cmd *cmd,
                               char *notes, size_t noteslen);
void axon_mpirun_slurm_cmd_free(struct axon_mpirun_slurm_cmd *cmd);

/* ---- binding ranks to CPUs (axon_mpirun_bind.c) -------------------------------------------------- */

/* Mapping, without hwloc: the object a rank is placed on. Local rank i takes object i of nobjs, round-robin
 * when there are more ranks than objects (Open MPI's overload); -1 when there are no objects. */
int axon_mpirun_bind_object_index(int local_rank, int nobjs);
/* The level a job binds to: an explicit request as it is; by default core (hwthread with
 * --use-hwthread-cpus) while the ranks fit the cores (hardware threads), none when they oversubscribe, so
 * the ranks share all CPUs freely. A machine with no cores known counts hardware threads as cores. */
enum axon_mpirun_bind_level axon_mpirun_bind_resolve(enum axon_mpirun_bind_level requested, bool hwthread_cpus,
                                                     int nranks, int ncores, int npus);
/* The level's name as --bind-to spells it ("core", "package", ...). */
const char *axon_mpirun_bind_level_name(enum axon_mpirun_bind_level level);

/* The CPUs of one rank. */
struct axon_mpirun_bind_rank {
    cpu_set_t *set;  /* CPU_ALLOC'd; NULL: not bound */
    size_t setsize;  /* bytes of set, for sched_setaffinity */
    unsigned index;  /* the object's logical index in hwloc's order */
    char *cpus;      /* the CPUs as a list ("0-3,8"), for --report-bindings and warnings */
};

/* Where the ranks of a job run. */
struct axon_mpirun_binding {
    enum axon_mpirun_bind_level level; /* what the ranks are bound to; NONE: they are not */
    int nranks;
    struct axon_mpirun_bind_rank *ranks; /* nranks entries; NULL when no rank is bound */
    char *spare_cpus; /* while ranks are bound: the CPUs none of them is bound to, as a list ("8-15");
                       * NULL when there are none. Progress threads run there (AXON_SPARE_CPUS). */
};

struct hwloc_topology;
/* Plans the binding of opts->nranks ranks on this machine: hwloc's topology restricted to the CPUs mpirun
 * may use (its own binding, within its cgroup). Never fails the job: without a topology the ranks are
 * not bound. A binding that was asked for and cannot be made leaves a message (starting "mpirun:
 * warning:", no newline) in warn, else warn is empty. Release b with axon_mpirun_bind_free. */
void axon_mpirun_bind_plan(struct axon_mpirun_binding *b, const struct axon_mpirun_options *opts, char *warn,
                           size_t warnlen);
/* The same on a given (loaded) topology; unit tests give synthetic ones. */
void axon_mpirun_bind_plan_topology(struct axon_mpirun_binding *b, struct hwloc_topology *topo,
                                    enum axon_mpirun_bind_level requested, bool hwthread_cpus,
                                    bool if_supported, int nranks, char *warn, size_t warnlen);
/* One line per rank, like "mpirun: rank 0 bound to core 0 (cpus 0)" or "mpirun: rank 3 not bound". */
void axon_mpirun_bind_report(const struct axon_mpirun_binding *b, FILE *f);
/* Binds the calling process as rank `rank`: 0 or an errno value. Async-signal-safe (a child before exec). */
int axon_mpirun_bind_apply(const struct axon_mpirun_binding *b, int rank);
void axon_mpirun_bind_free(struct axon_mpirun_binding *b);

/* ---- PMIx server (axon_mpirun_server.c) ---------------------------------------------------------- */

/* What the PMIx callbacks tell the event loop. They run on libpmix's progress thread, so they only
 * write one of these fixed-size records to a pipe; the write is atomic (smaller than PIPE_BUF). */
enum axon_mpirun_event_type {
    AXON_MPIRUN_EVENT_CONNECTED, /* PMIx_Init: the rank called MPI_Init */
    AXON_MPIRUN_EVENT_FINALIZED, /* PMIx_Finalize: the rank called MPI_Finalize */
    AXON_MPIRUN_EVENT_ABORT,     /* PMIx_Abort: MPI_Abort, with a code and a message */
};

struct axon_mpirun_event {
    int type; /* enum axon_mpirun_event_type */
    int rank;
    int code;
    int peer; /* ABORT: the rank whose loss made this one abort (the one process PMIx_Abort named); -1: none */
    char message[500];
};

struct axon_mpirun_server {
    char tmpdir[4096];  /* private directory for the rendezvous files; removed at stop */
    char ucx_dir[256];  /* private directory in /dev/shm for UCX's shared-memory files; removed at stop */
    char nspace[256];
    int nranks;
    int event_fd;       /* the write end of the event pipe */
    bool up;            /* PMIx_server_init succeeded */
    atomic_int *pids;   /* each rank's pid once forked (0 before): the callbacks look at them */
    int diag_fd;        /* where libpmix prints its own diagnostics: stderr, until quieted */
};

/* Makes the private temp directory, starts the PMIx server and registers the job's namespace. */
int axon_mpirun_server_start(struct axon_mpirun_server *srv, int nranks, int event_fd, char *err,
                             size_t errlen);
/* Registers one rank and appends the PMIx variables it needs to *env (a malloc'd NULL-terminated array of
 * malloc'd "NAME=value" strings, which the caller frees with axon_mpirun_server_env_free). */
int axon_mpirun_server_rank_setup(struct axon_mpirun_server *srv, int rank, char ***env, char *err,
                                  size_t errlen);
void axon_mpirun_server_env_free(char **env);
/* Tells the callbacks the pid of a rank just forked. */
void axon_mpirun_server_rank_started(struct axon_mpirun_server *srv, int rank, pid_t pid);
/* Silences libpmix's diagnostics from now on: the job is being killed, and what libpmix has to say
 * about ranks vanishing mid-conversation is noise next to mpirun's one message. */
void axon_mpirun_server_quiet(struct axon_mpirun_server *srv);
/* Removes the temp directory with all it holds, after finalizing the PMIx server if `finalize`. After a
 * failed job the caller passes false: libpmix 4.2 may touch freed memory in PMIx_server_finalize when a
 * rank was killed while it connected, and a process about to exit loses nothing by skipping it. Returns
 * whether the server is down; if not, the caller must end the process with _exit (libpmix's thread
 * still runs). */
bool axon_mpirun_server_stop(struct axon_mpirun_server *srv, bool finalize);
/* Removes a directory tree; used for the temp directory, whatever libpmix put in it. */
int axon_mpirun_server_remove_tree(const char *path);

/* ---- the job's NVIDIA MPS daemon (axon_mpirun_mps.c) ---------------------------------------------- */

struct axon_mpirun_mps {
    bool running;           /* our daemon is up: the ranks are pointed at it, and the stop must quit it */
    char dir[4096];         /* the private directory (pipe/, log/); "" when there is none */
    char pipe_entry[4160];  /* "CUDA_MPS_PIPE_DIRECTORY=<dir>/pipe" */
    char log_entry[4160];   /* "CUDA_MPS_LOG_DIRECTORY=<dir>/log" */
};

/* For --mps, before any rank starts: makes the private directory and starts nvidia-cuda-mps-control -d
 * (or $AXON_MPS_CONTROL) in it. Does nothing (and succeeds) when CUDA_MPS_PIPE_DIRECTORY is set already:
 * that is the user's own daemon, which the ranks inherit. On failure nothing is left behind, err holds a
 * message starting "mpirun: --mps: " (no newline), and the job must not start. */
int axon_mpirun_mps_start(struct axon_mpirun_mps *mps, char *err, size_t errlen);
/* Sends the daemon `quit` and removes the directory; warnings go to stderr. Calling it again, or after a
 * failed or skipped start, does nothing. */
void axon_mpirun_mps_stop(struct axon_mpirun_mps *mps);
/* The values of CUDA_MPS_PIPE_DIRECTORY and CUDA_MPS_LOG_DIRECTORY for the ranks, while running. */
const char *axon_mpirun_mps_pipe_dir(const struct axon_mpirun_mps *mps);
const char *axon_mpirun_mps_log_dir(const struct axon_mpirun_mps *mps);

/* ---- starting ranks (axon_mpirun_spawn.c) -------------------------------------------------------- */

/* Finds the program as execvp would (PATH search unless it has a '/'); 0, or an errno value. */
int axon_mpirun_spawn_find_program(const char *prog, const char *wdir);

/* ---- the job and the event loop (axon_mpirun_launch.c) ------------------------------------------- */

/* mpirun's signal handling (a self-pipe the loop reads; SIGPIPE ignored), from before the server starts
 * until it is gone, so a signal at any time still ends in the cleanup. */
int axon_mpirun_launch_signals_install(void);
void axon_mpirun_launch_signals_uninstall(void);
/* Runs the whole job: forks the ranks, loops until they have all ended, returns mpirun's exit code and
 * tells whether the job failed (MPI_Abort with code 0 fails with exit code 0). The server must be
 * started; its event pipe's read end is event_read_fd. Each rank is bound as `binding` says, and pointed
 * at the MPS daemon when mps->running. */
int axon_mpirun_launch_run(const struct axon_mpirun_options *opts, const struct axon_mpirun_binding *binding,
                           const struct axon_mpirun_mps *mps, struct axon_mpirun_server *srv, int event_read_fd,
                           bool *failed);

#endif
