/* Starting mpirun's ranks. It finds the program as execvp will (so main() can refuse a typo before any
 * server starts), builds each rank's environment, and forks the rank into a process group of its own (so
 * a kill reaches the rank's children too) that dies with mpirun (PR_SET_PDEATHSIG), bound to its CPUs
 * (axon_mpirun_bind.c's plan), with pipes for its output and, for rank 0, mpirun's stdin. A rank that
 * cannot start fails the job with the reason, which the child reports on a pipe that exec closes; a rank
 * that cannot be bound is a warning, reported on the same pipe, and runs unbound. */
#include "axon_mpirun_job.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* ---- finding the program, as execvp will ------------------------------------------------------- */

static int axon_mpirun_spawn_check_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EACCES;
    return access(path, X_OK) == 0 ? 0 : errno;
}

int axon_mpirun_spawn_find_program(const char *prog, const char *wdir)
{
    char path[PATH_MAX];
    if (strchr(prog, '/')) {
        /* The ranks run it after changing to wdir, so a relative path is relative to that. */
        if (prog[0] != '/' && wdir)
            snprintf(path, sizeof(path), "%s/%s", wdir, prog);
        else
            snprintf(path, sizeof(path), "%s", prog);
        return axon_mpirun_spawn_check_file(path);
    }
    const char *dirs = getenv("PATH");
    if (!dirs)
        dirs = "/bin:/usr/bin";
    bool denied = false;
    while (true) {
        size_t len = strcspn(dirs, ":");
        int n = len ? snprintf(path, sizeof(path), "%.*s/%s", (int)len, dirs, prog)
                    : snprintf(path, sizeof(path), "%s", prog);
        if (n > 0 && (size_t)n < sizeof(path)) {
            int rc = axon_mpirun_spawn_check_file(path);
            if (rc == 0)
                return 0;
            denied |= rc == EACCES;
        }
        if (dirs[len] == '\0')
            break;
        dirs += len + 1;
    }
    return denied ? EACCES : ENOENT;
}

/* ---- environment of a rank ----------------------------------------------------------------------- */

struct axon_mpirun_envp {
    char **v;
    size_t n, cap;
};

static int axon_mpirun_envp_put(struct axon_mpirun_envp *e, char *entry)
{
    size_t namelen = strcspn(entry, "=");
    for (size_t i = 0; i < e->n; i++) {
        if (strncmp(e->v[i], entry, namelen) == 0 && e->v[i][namelen] == '=') {
            free(e->v[i]);
            e->v[i] = entry;
            return 0;
        }
    }
    if (e->n + 2 > e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 128;
        char **grown = realloc(e->v, sizeof(*grown) * cap);
        if (!grown) {
            free(entry);
            return -1;
        }
        e->v = grown;
        e->cap = cap;
    }
    e->v[e->n++] = entry;
    e->v[e->n] = NULL;
    return 0;
}

static int axon_mpirun_envp_set(struct axon_mpirun_envp *e, const char *name, const char *value)
{
    char *entry;
    if (asprintf(&entry, "%s=%s", name, value) < 0)
        return -1;
    return axon_mpirun_envp_put(e, entry);
}

static int axon_mpirun_envp_set_int(struct axon_mpirun_envp *e, const char *name, int value)
{
    char text[24];
    snprintf(text, sizeof(text), "%d", value);
    return axon_mpirun_envp_set(e, name, text);
}

static void axon_mpirun_envp_free(struct axon_mpirun_envp *e)
{
    for (size_t i = 0; i < e->n; i++)
        free(e->v[i]);
    free(e->v);
    e->v = NULL;
    e->n = e->cap = 0;
}

/* Cores this process may run on: the online CPUs, fewer if our affinity mask says so. */
static int axon_mpirun_spawn_cores(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int allowed = CPU_COUNT(&set);
        if (allowed > 0 && (online <= 0 || allowed < online))
            online = allowed;
    }
    return online > 0 ? (int)online : 1;
}

/* mpirun's environment, less the PMIx variables of whatever launched mpirun (but keeping PMIX_MCA_
 * settings), plus the job's MPS daemon (--mps), -x variables (so an explicit -x still wins), the rank
 * variables of Open MPI, MPICH and PMI, and then PMIx's own. */
static int axon_mpirun_spawn_env(const struct axon_mpirun_job *job, int rank, char **pmix_env,
                                 struct axon_mpirun_envp *e)
{
    int n = job->nranks, rc = 0;
    for (char **p = environ; *p && rc == 0; p++) {
        if (strncmp(*p, "PMIX_", 5) == 0 && strncmp(*p, "PMIX_MCA_", 9) != 0)
            continue;
        char *copy = strdup(*p);
        rc = copy ? axon_mpirun_envp_put(e, copy) : -1;
    }
    if (rc == 0 && job->mps && job->mps->running) {
        rc = axon_mpirun_envp_set(e, "CUDA_MPS_PIPE_DIRECTORY", axon_mpirun_mps_pipe_dir(job->mps));
        if (rc == 0)
            rc = axon_mpirun_envp_set(e, "CUDA_MPS_LOG_DIRECTORY", axon_mpirun_mps_log_dir(job->mps));
    }
    for (size_t i = 0; i < job->opts->nenv && rc == 0; i++)
        rc = axon_mpirun_envp_set(e, job->opts->env[i].name, job->opts->env[i].value);
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                            "OMPI_COMM_WORLD_NODE_RANK", "MPI_LOCALRANKID", "PMI_RANK"};
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                            "MPI_LOCALNRANKS", "PMI_SIZE"};
    for (size_t i = 0; i < AXON_ARRAY_SIZE(rank_vars) && rc == 0; i++)
        rc = axon_mpirun_envp_set_int(e, rank_vars[i], rank);
    for (size_t i = 0; i < AXON_ARRAY_SIZE(size_vars) && rc == 0; i++)
        rc = axon_mpirun_envp_set_int(e, size_vars[i], n);
    if (rc == 0)
        rc = axon_mpirun_envp_set(e, "AXON_LAUNCHER", "mpirun");
    if (rc == 0)
        rc = axon_mpirun_envp_set(e, "AXON_OVERSUBSCRIBED", n > axon_mpirun_spawn_cores() ? "1" : "0");
    if (rc == 0 && job->binding && job->binding->spare_cpus)
        rc = axon_mpirun_envp_set(e, "AXON_SPARE_CPUS", job->binding->spare_cpus);
    if (rc == 0)
        rc = axon_mpirun_envp_set_int(e, "PMIX_RANK", rank);
    for (char **p = pmix_env; p && *p && rc == 0; p++) {
        char *copy = strdup(*p);
        rc = copy ? axon_mpirun_envp_put(e, copy) : -1;
    }
    return rc;
}

/* ---- forking a rank ------------------------------------------------------------------------------ */

/* What a child tells the parent when it cannot exec; nothing arrives when exec succeeds. */
struct axon_mpirun_child_error {
    int stage; /* 0: chdir, 1: exec, 2: setup; 3: binding (a warning: the child goes on) */
    int err;
};

/* The pipes of one rank being started: [0] read end, [1] write end. */
struct axon_mpirun_child_fds {
    int in[2], out[2], err[2], report[2];
};

static noreturn void axon_mpirun_child_fail(int report_fd, int stage, int err)
{
    struct axon_mpirun_child_error ce = {.stage = stage, .err = err};
    ssize_t n = write(report_fd, &ce, sizeof(ce));
    (void)n;
    _exit(127);
}

/* In the child, between fork and exec: only async-signal-safe calls (the parent has threads). */
static noreturn void axon_mpirun_child_exec(const struct axon_mpirun_job *job, int rank,
                                            const struct axon_mpirun_child_fds *fds, char **envp,
                                            const sigset_t *mask, pid_t parent)
{
    axon_mpirun_launch_signals_default();
    signal(SIGPIPE, SIG_DFL); /* mpirun ignores it; an ignored signal would stay ignored across exec */
    sigprocmask(SIG_SETMASK, mask, NULL);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127); /* mpirun died before we could ask to die with it */
    int in = rank == 0 ? fds->in[0] : job->devnull;
    if (dup2(in, 0) < 0 || dup2(fds->out[1], 1) < 0 || dup2(fds->err[1], 2) < 0)
        axon_mpirun_child_fail(fds->report[1], 2, errno);
    int bind_err = axon_mpirun_bind_apply(job->binding, rank);
    if (bind_err) {
        struct axon_mpirun_child_error ce = {.stage = 3, .err = bind_err};
        ssize_t n = write(fds->report[1], &ce, sizeof(ce));
        (void)n;
    }
    /* Nothing of mpirun's (PMIx sockets, other ranks' pipes, the caller's descriptors) reaches the rank;
     * CLOEXEC rather than close, so the report pipe stays open until exec. */
    (void)close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    if (job->opts->wdir && chdir(job->opts->wdir) != 0)
        axon_mpirun_child_fail(fds->report[1], 0, errno);
    execvpe(job->opts->prog_argv[0], job->opts->prog_argv, envp);
    axon_mpirun_child_fail(fds->report[1], 1, errno);
}

static void axon_mpirun_fds_close_pair(int p[2])
{
    for (int i = 0; i < 2; i++) {
        if (p[i] >= 0)
            close(p[i]);
        p[i] = -1;
    }
}

static void axon_mpirun_fds_close(struct axon_mpirun_child_fds *fds)
{
    axon_mpirun_fds_close_pair(fds->in);
    axon_mpirun_fds_close_pair(fds->out);
    axon_mpirun_fds_close_pair(fds->err);
    axon_mpirun_fds_close_pair(fds->report);
}

static int axon_mpirun_fds_open(struct axon_mpirun_child_fds *fds, bool with_stdin)
{
    fds->in[0] = fds->in[1] = fds->out[0] = fds->out[1] = -1;
    fds->err[0] = fds->err[1] = fds->report[0] = fds->report[1] = -1;
    if ((with_stdin && pipe2(fds->in, O_CLOEXEC) != 0) || pipe2(fds->out, O_CLOEXEC) != 0 ||
        pipe2(fds->err, O_CLOEXEC) != 0 || pipe2(fds->report, O_CLOEXEC) != 0) {
        axon_mpirun_fds_close(fds);
        return -1;
    }
    return 0;
}

/* Waits for the child's exec (the report pipe closes) or its report of why it could not; a warning that
 * the rank could not be bound may come first. */
static void axon_mpirun_spawn_await_exec(struct axon_mpirun_job *job, int rank, int report_fd)
{
    struct axon_mpirun_child_error ce;
    ssize_t n;
    while (true) {
        do {
            n = read(report_fd, &ce, sizeof(ce));
        } while (n < 0 && errno == EINTR);
        if (n != (ssize_t)sizeof(ce))
            return;
        if (ce.stage != 3)
            break;
        fprintf(stderr, "mpirun: warning: cannot bind rank %d to cpus %s: %s; it runs unbound\n", rank,
                job->binding->ranks[rank].cpus, strerror(ce.err));
    }
    const char *prog = job->opts->prog_argv[0];
    if (ce.stage == 0)
        axon_mpirun_job_fail(job, 1, 0, "mpirun: cannot change to directory '%s': %s", job->opts->wdir,
                             strerror(ce.err));
    else if (ce.stage == 1)
        axon_mpirun_job_fail(job, ce.err == ENOENT || ce.err == ENOTDIR ? 127 : 126, 0,
                             "mpirun: cannot run '%s': %s", prog, strerror(ce.err));
    else
        axon_mpirun_job_fail(job, 1, 0, "mpirun: cannot set up the standard streams of a rank: %s",
                             strerror(ce.err));
}

void axon_mpirun_spawn_rank(struct axon_mpirun_job *job, int rank)
{
    char err[512];
    char **pmix_env = NULL;
    struct axon_mpirun_envp envp = {0};
    struct axon_mpirun_child_fds fds;
    if (axon_mpirun_server_rank_setup(job->srv, rank, &pmix_env, err, sizeof(err)) != 0) {
        axon_mpirun_job_fail(job, 1, 0, "%s", err);
        goto out_env;
    }
    if (axon_mpirun_spawn_env(job, rank, pmix_env, &envp) != 0) {
        axon_mpirun_job_fail(job, 1, 0, "mpirun: out of memory for the environment of rank %d", rank);
        goto out_env;
    }
    if (axon_mpirun_fds_open(&fds, rank == 0) != 0) {
        axon_mpirun_job_fail(job, 1, 0, "mpirun: cannot make pipes for rank %d: %s", rank, strerror(errno));
        goto out_env;
    }
    /* Signals stay blocked across fork until the child has put our handlers back to the defaults: a
     * signal in between would otherwise run mpirun's handler in the child. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        axon_mpirun_child_exec(job, rank, &fds, envp.v, &old, parent);
    int fork_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        axon_mpirun_fds_close(&fds);
        axon_mpirun_job_fail(job, 1, 0, "mpirun: cannot fork rank %d: %s", rank, strerror(fork_errno));
        goto out_env;
    }
    setpgid(pid, pid); /* also here, so a kill right after fork already reaches the group */
    struct axon_mpirun_rank *r = &job->ranks[rank];
    r->pid = pid;
    r->running = true;
    job->nrunning++;
    axon_mpirun_server_rank_started(job->srv, rank, pid);
    close(fds.out[1]);
    close(fds.err[1]);
    close(fds.report[1]);
    axon_mpirun_stream_init(&r->out, fds.out[0], 1);
    axon_mpirun_stream_init(&r->err, fds.err[0], 2);
    if (rank == 0) {
        close(fds.in[0]);
        axon_mpirun_stdin_attach(job, fds.in[1]);
    }
    axon_mpirun_spawn_await_exec(job, rank, fds.report[0]);
    close(fds.report[0]);
out_env:
    axon_mpirun_envp_free(&envp);
    axon_mpirun_server_env_free(pmix_env);
}
