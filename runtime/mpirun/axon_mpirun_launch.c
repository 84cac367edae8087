/* mpirun's ranks and its event loop. It forks every rank into a process group of its own (so a kill
 * reaches the rank's children too) that dies with mpirun (PR_SET_PDEATHSIG), gives it its environment,
 * pipes for its output and, for rank 0, mpirun's stdin. One poll() loop then forwards output line by
 * line (so ranks' lines do not mix mid-line), forwards stdin and signals, hears the PMIx callbacks'
 * records and the ranks' deaths, and at the first failure ends the job: SIGTERM to every rank's group,
 * SIGKILL a second later, one message naming the failing rank, and the failure's exit code. */
#include "axon_mpirun.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum {
    AXON_MPIRUN_KILL_GRACE_MS = 1000,   /* SIGTERM, then SIGKILL this much later */
    AXON_MPIRUN_PARTIAL_LINE_MS = 100,  /* a line without its newline waits this long for the rest */
    AXON_MPIRUN_LINE_MAX = 65536,       /* longer lines are passed on in pieces */
    AXON_MPIRUN_DRAIN_MAX = 1 << 20,    /* bytes read from a pipe after its rank ended */
};

/* One output pipe of one rank. */
struct axon_mpirun_stream {
    int fd;              /* read end; -1 once closed */
    int dest;            /* 1 (stdout) or 2 (stderr) */
    const char *tag;     /* "stdout" or "stderr", for --tag-output */
    char *buf;           /* bytes not yet passed on: at most one partial line */
    size_t len, cap;
    bool mid_line;       /* part of the current line was passed on already (no tag before the rest) */
    unsigned long emits; /* how many times bytes were passed on: tells a new partial line from an old one */
    struct timespec partial_since; /* when the partial line in buf began to wait */
};

struct axon_mpirun_rank {
    pid_t pid;           /* 0: never started */
    bool running;        /* started and not yet reaped */
    bool connected;      /* PMIx_Init */
    bool finalized;      /* PMIx_Finalize */
    bool aborted;        /* PMIx_Abort */
    struct axon_mpirun_stream out, err;
};

struct axon_mpirun_job {
    const struct axon_mpirun_options *opts;
    struct axon_mpirun_server *srv;
    struct axon_mpirun_rank *ranks;
    int nranks;
    int nrunning;
    int event_fd;            /* read end of the PMIx callbacks' pipe */
    int devnull;             /* stdin of ranks other than 0 */
    /* stdin, mpirun's to rank 0's */
    int stdin_fd;            /* write end of rank 0's stdin pipe; -1 once closed */
    bool stdin_done;         /* mpirun's stdin ended, or rank 0 stopped reading */
    char stdin_buf[65536];
    size_t stdin_len, stdin_off;
    bool dest_dead[3];       /* mpirun's stdout/stderr gone (EPIPE): drop what the ranks write */
    /* failure detection */
    bool any_connected;
    int uninit_rank;         /* first rank that exited 0 without PMIx_Init; -1: none */
    int *ended_rank;         /* ranks reaped in this pass, and their wait status */
    int *ended_status;
    pid_t uninit_pid;
    bool failed;
    int exit_code;
    char message[1024];
    /* teardown and time limit */
    bool killing;
    bool killed_hard;
    struct timespec kill_at;
    bool has_deadline;
    struct timespec deadline;
};

static int axon_mpirun_signal_pipe[2] = {-1, -1};

/* Signals mpirun handles; the children get them back at their defaults before exec. */
static const int axon_mpirun_signals[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};

/* ---- time ---------------------------------------------------------------------------------------- */

static struct timespec axon_mpirun_time_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

static struct timespec axon_mpirun_time_add_ms(struct timespec t, long ms)
{
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

/* Milliseconds from now until t, rounded up; 0 when t has passed. */
static long axon_mpirun_time_ms_until(struct timespec t)
{
    struct timespec now = axon_mpirun_time_now();
    long ms = (long)(t.tv_sec - now.tv_sec) * 1000 + (t.tv_nsec - now.tv_nsec) / 1000000L;
    if ((t.tv_nsec - now.tv_nsec) % 1000000L > 0)
        ms++;
    return ms > 0 ? ms : 0;
}

/* ---- finding the program, as execvp will ------------------------------------------------------- */

static int axon_mpirun_launch_check_file(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return errno;
    if (S_ISDIR(st.st_mode))
        return EACCES;
    return access(path, X_OK) == 0 ? 0 : errno;
}

int axon_mpirun_launch_find_program(const char *prog, const char *wdir)
{
    char path[PATH_MAX];
    if (strchr(prog, '/')) {
        /* The ranks run it after changing to wdir, so a relative path is relative to that. */
        if (prog[0] != '/' && wdir)
            snprintf(path, sizeof(path), "%s/%s", wdir, prog);
        else
            snprintf(path, sizeof(path), "%s", prog);
        return axon_mpirun_launch_check_file(path);
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
            int rc = axon_mpirun_launch_check_file(path);
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

/* ---- output: mpirun's stdout and stderr --------------------------------------------------------- */

static void axon_mpirun_output_write(struct axon_mpirun_job *job, int dest, const char *data, size_t len)
{
    while (len > 0 && !job->dest_dead[dest]) {
        ssize_t n = write(dest, data, len);
        if (n > 0) {
            data += n;
            len -= (size_t)n;
        } else if (n < 0 && errno == EAGAIN) {
            struct pollfd p = {.fd = dest, .events = POLLOUT};
            poll(&p, 1, 100);
        } else if (!(n < 0 && errno == EINTR)) {
            job->dest_dead[dest] = true; /* closed reader or full disk: nothing more to do for it */
        }
    }
}

/* Passes on len bytes of the stream's buffer, putting the tag before each line that starts in them. */
static void axon_mpirun_stream_emit(struct axon_mpirun_job *job, int rank, struct axon_mpirun_stream *s,
                                    size_t len)
{
    if (!job->opts->tag_output) {
        axon_mpirun_output_write(job, s->dest, s->buf, len);
    } else {
        char tag[64];
        int taglen = snprintf(tag, sizeof(tag), "[1,%d]<%s>:", rank, s->tag);
        size_t pos = 0;
        while (pos < len) {
            const char *nl = memchr(s->buf + pos, '\n', len - pos);
            size_t piece = nl ? (size_t)(nl - (s->buf + pos)) + 1 : len - pos;
            if (!s->mid_line)
                axon_mpirun_output_write(job, s->dest, tag, (size_t)taglen);
            axon_mpirun_output_write(job, s->dest, s->buf + pos, piece);
            s->mid_line = !nl;
            pos += piece;
        }
    }
    if (len > 0)
        s->mid_line = s->buf[len - 1] != '\n';
    s->emits++;
    memmove(s->buf, s->buf + len, s->len - len);
    s->len -= len;
}

/* Passes on the complete lines in the buffer; a partial line waits, unless it is already too long. */
static void axon_mpirun_stream_emit_lines(struct axon_mpirun_job *job, int rank, struct axon_mpirun_stream *s)
{
    size_t end = s->len;
    while (end > 0 && s->buf[end - 1] != '\n')
        end--;
    if (end > 0)
        axon_mpirun_stream_emit(job, rank, s, end);
    if (s->len >= AXON_MPIRUN_LINE_MAX)
        axon_mpirun_stream_emit(job, rank, s, s->len);
}

static void axon_mpirun_stream_close(struct axon_mpirun_job *job, int rank, struct axon_mpirun_stream *s)
{
    if (s->len > 0)
        axon_mpirun_stream_emit(job, rank, s, s->len);
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

static bool axon_mpirun_stream_grow(struct axon_mpirun_stream *s)
{
    size_t cap = s->cap ? s->cap * 2 : 32768;
    char *grown = realloc(s->buf, cap);
    if (!grown)
        return false;
    s->buf = grown;
    s->cap = cap;
    return true;
}

/* Reads what the pipe holds (up to `budget` bytes), then passes on whole lines. Closes at EOF. */
static void axon_mpirun_stream_read(struct axon_mpirun_job *job, int rank, struct axon_mpirun_stream *s,
                                    size_t budget)
{
    size_t got = 0;
    bool had_partial = s->len > 0;
    unsigned long emits = s->emits;
    while (s->fd >= 0 && got < budget) {
        if (s->cap - s->len < 16384 && !axon_mpirun_stream_grow(s)) {
            axon_mpirun_stream_emit(job, rank, s, s->len); /* no memory: pass on what we have as it is */
            if (s->cap == 0) {
                axon_mpirun_stream_close(job, rank, s);
                return;
            }
        }
        ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (n > 0) {
            s->len += (size_t)n;
            got += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            break;
        } else {
            axon_mpirun_stream_close(job, rank, s); /* EOF, or an error we cannot do better with */
            return;
        }
        if (s->len >= AXON_MPIRUN_LINE_MAX)
            axon_mpirun_stream_emit_lines(job, rank, s);
    }
    axon_mpirun_stream_emit_lines(job, rank, s);
    /* A partial line that was already waiting keeps its age; a new one starts its clock now. */
    if (s->len > 0 && (!had_partial || s->emits != emits))
        s->partial_since = axon_mpirun_time_now();
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
static int axon_mpirun_launch_cores(void)
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
 * settings), plus -x variables, the rank variables of Open MPI, MPICH and PMI, and then PMIx's own. */
static int axon_mpirun_launch_env(const struct axon_mpirun_job *job, int rank, char **pmix_env,
                                  struct axon_mpirun_envp *e)
{
    int n = job->nranks, rc = 0;
    for (char **p = environ; *p && rc == 0; p++) {
        if (strncmp(*p, "PMIX_", 5) == 0 && strncmp(*p, "PMIX_MCA_", 9) != 0)
            continue;
        char *copy = strdup(*p);
        rc = copy ? axon_mpirun_envp_put(e, copy) : -1;
    }
    for (size_t i = 0; i < job->opts->nenv && rc == 0; i++)
        rc = axon_mpirun_envp_set(e, job->opts->env[i].name, job->opts->env[i].value);
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                            "OMPI_COMM_WORLD_NODE_RANK", "MPI_LOCALRANKID", "PMI_RANK"};
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
                                            "MPI_LOCALNRANKS", "PMI_SIZE"};
    for (size_t i = 0; i < sizeof(rank_vars) / sizeof(rank_vars[0]) && rc == 0; i++)
        rc = axon_mpirun_envp_set_int(e, rank_vars[i], rank);
    for (size_t i = 0; i < sizeof(size_vars) / sizeof(size_vars[0]) && rc == 0; i++)
        rc = axon_mpirun_envp_set_int(e, size_vars[i], n);
    if (rc == 0)
        rc = axon_mpirun_envp_set(e, "AXON_LAUNCHER", "mpirun");
    if (rc == 0)
        rc = axon_mpirun_envp_set(e, "AXON_OVERSUBSCRIBED", n > axon_mpirun_launch_cores() ? "1" : "0");
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
    int stage; /* 0: chdir, 1: exec, 2: setup */
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
    for (size_t i = 0; i < sizeof(axon_mpirun_signals) / sizeof(axon_mpirun_signals[0]); i++)
        signal(axon_mpirun_signals[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL); /* mpirun ignores it; an ignored signal would stay ignored across exec */
    sigprocmask(SIG_SETMASK, mask, NULL);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127); /* mpirun died before we could ask to die with it */
    int in = rank == 0 ? fds->in[0] : job->devnull;
    if (dup2(in, 0) < 0 || dup2(fds->out[1], 1) < 0 || dup2(fds->err[1], 2) < 0)
        axon_mpirun_child_fail(fds->report[1], 2, errno);
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

static void axon_mpirun_set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

__attribute__((format(printf, 4, 5))) static void axon_mpirun_job_fail(struct axon_mpirun_job *job, int code,
                                                                     int first_signal, const char *fmt, ...);

/* Waits for the child's exec (the report pipe closes) or its report of why it could not. */
static void axon_mpirun_launch_await_exec(struct axon_mpirun_job *job, int report_fd)
{
    struct axon_mpirun_child_error ce;
    ssize_t n;
    do {
        n = read(report_fd, &ce, sizeof(ce));
    } while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof(ce))
        return;
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

static void axon_mpirun_stream_init(struct axon_mpirun_stream *s, int fd, int dest)
{
    memset(s, 0, sizeof(*s));
    s->fd = fd;
    s->dest = dest;
    s->tag = dest == 1 ? "stdout" : "stderr";
    axon_mpirun_set_nonblock(fd);
}

/* Forks rank `rank`; on failure the job is failed (with a message) and the caller stops launching. */
static void axon_mpirun_launch_rank(struct axon_mpirun_job *job, int rank)
{
    char err[512];
    char **pmix_env = NULL;
    struct axon_mpirun_envp envp = {0};
    struct axon_mpirun_child_fds fds;
    if (axon_mpirun_server_rank_setup(job->srv, rank, &pmix_env, err, sizeof(err)) != 0) {
        axon_mpirun_job_fail(job, 1, 0, "%s", err);
        goto out_env;
    }
    if (axon_mpirun_launch_env(job, rank, pmix_env, &envp) != 0) {
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
        job->stdin_fd = fds.in[1];
        axon_mpirun_set_nonblock(job->stdin_fd);
    }
    axon_mpirun_launch_await_exec(job, fds.report[0]);
    close(fds.report[0]);
out_env:
    axon_mpirun_envp_free(&envp);
    axon_mpirun_server_env_free(pmix_env);
}

/* ---- failure and teardown ------------------------------------------------------------------------ */

static void axon_mpirun_job_signal_all(struct axon_mpirun_job *job, int sig)
{
    for (int r = 0; r < job->nranks; r++) {
        if (job->ranks[r].running)
            kill(-job->ranks[r].pid, sig);
    }
}

/* Starts the teardown: `first_signal` (SIGTERM unless mpirun itself got a signal) to every rank, SIGKILL
 * a grace period later. */
static void axon_mpirun_job_teardown(struct axon_mpirun_job *job, int first_signal)
{
    if (job->killing)
        return;
    job->killing = true;
    axon_mpirun_server_quiet(job->srv);
    axon_mpirun_job_signal_all(job, first_signal ? first_signal : SIGTERM);
    job->kill_at = axon_mpirun_time_add_ms(axon_mpirun_time_now(), AXON_MPIRUN_KILL_GRACE_MS);
}

/* The first failure decides the message and the exit code; later ones are consequences. */
static void axon_mpirun_job_fail(struct axon_mpirun_job *job, int code, int first_signal, const char *fmt, ...)
{
    if (!job->failed) {
        job->failed = true;
        job->exit_code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(job->message, sizeof(job->message), fmt, ap);
        va_end(ap);
    }
    axon_mpirun_job_teardown(job, first_signal);
}

static void axon_mpirun_job_check_uninit(struct axon_mpirun_job *job)
{
    if (job->any_connected && job->uninit_rank >= 0)
        axon_mpirun_job_fail(job, 1, 0, "mpirun: rank %d (pid %d) exited without calling MPI_Init while other "
                             "ranks did", job->uninit_rank, (int)job->uninit_pid);
}

/* A rank has ended with wait status `status`: was that a failure? */
static void axon_mpirun_rank_judge(struct axon_mpirun_job *job, int rank, int status)
{
    struct axon_mpirun_rank *r = &job->ranks[rank];
    if (job->failed || r->aborted)
        return;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        axon_mpirun_job_fail(job, 128 + sig, 0, "mpirun: rank %d (pid %d) was killed by signal %d (%s)", rank,
                             (int)r->pid, sig, strsignal(sig));
    } else if (WEXITSTATUS(status) != 0) {
        axon_mpirun_job_fail(job, WEXITSTATUS(status), 0, "mpirun: rank %d (pid %d) exited with code %d", rank,
                             (int)r->pid, WEXITSTATUS(status));
    } else if (r->connected && !r->finalized) {
        axon_mpirun_job_fail(job, 1, 0, "mpirun: rank %d (pid %d) exited without calling MPI_Finalize", rank,
                             (int)r->pid);
    } else if (!r->connected && job->uninit_rank < 0) {
        /* Fine if no rank uses MPI (mpirun -n 3 hostname); a failure once another rank joins. */
        job->uninit_rank = rank;
        job->uninit_pid = r->pid;
        axon_mpirun_job_check_uninit(job);
    }
}

/* An exit code for MPI_Abort's code: the low byte, as the rank's own exit would give, but never 0 for a
 * non-zero code. */
static int axon_mpirun_abort_exit_code(int code)
{
    int low = code & 0xff;
    return low == 0 && code != 0 ? 1 : low;
}

static void axon_mpirun_job_event(struct axon_mpirun_job *job, const struct axon_mpirun_event *ev)
{
    if (ev->rank < 0 || ev->rank >= job->nranks)
        return;
    struct axon_mpirun_rank *r = &job->ranks[ev->rank];
    switch (ev->type) {
    case AXON_MPIRUN_EVENT_CONNECTED:
        r->connected = true;
        job->any_connected = true;
        axon_mpirun_job_check_uninit(job);
        break;
    case AXON_MPIRUN_EVENT_FINALIZED:
        r->finalized = true;
        break;
    case AXON_MPIRUN_EVENT_ABORT:
        if (!job->failed)
            r->aborted = true;
        if (ev->message[0])
            axon_mpirun_job_fail(job, axon_mpirun_abort_exit_code(ev->code), 0,
                                 "mpirun: rank %d called MPI_Abort with code %d: %s", ev->rank, ev->code,
                                 ev->message);
        else
            axon_mpirun_job_fail(job, axon_mpirun_abort_exit_code(ev->code), 0,
                                 "mpirun: rank %d called MPI_Abort with code %d", ev->rank, ev->code);
        break;
    }
}

static void axon_mpirun_job_drain_events(struct axon_mpirun_job *job)
{
    struct axon_mpirun_event ev;
    while (true) {
        ssize_t n = read(job->event_fd, &ev, sizeof(ev));
        if (n == (ssize_t)sizeof(ev))
            axon_mpirun_job_event(job, &ev);
        else if (!(n < 0 && errno == EINTR))
            return;
    }
}

static int axon_mpirun_job_rank_of_pid(const struct axon_mpirun_job *job, pid_t pid)
{
    for (int r = 0; r < job->nranks; r++) {
        if (job->ranks[r].pid == pid && job->ranks[r].running)
            return r;
    }
    return -1;
}

static void axon_mpirun_job_close_stdin(struct axon_mpirun_job *job)
{
    if (job->stdin_fd >= 0)
        close(job->stdin_fd);
    job->stdin_fd = -1;
    job->stdin_done = true;
}

/* Reaps every ended rank. The PMIx records are read after the reaping and before the judging: a rank's
 * MPI_Finalize or MPI_Abort record is written before the rank is released, so it is in the pipe by the
 * time its death can be seen. */
static void axon_mpirun_job_reap(struct axon_mpirun_job *job)
{
    int nended = 0;
    pid_t pid;
    int st;
    while (nended < job->nranks && (pid = waitpid(-1, &st, WNOHANG)) > 0) {
        int rank = axon_mpirun_job_rank_of_pid(job, pid);
        if (rank < 0)
            continue;
        job->ranks[rank].running = false;
        job->nrunning--;
        job->ended_rank[nended] = rank;
        job->ended_status[nended++] = st;
        if (rank == 0)
            axon_mpirun_job_close_stdin(job);
    }
    axon_mpirun_job_drain_events(job);
    for (int i = 0; i < nended; i++)
        axon_mpirun_rank_judge(job, job->ended_rank[i], job->ended_status[i]);
}

/* ---- signals ------------------------------------------------------------------------------------- */

static void axon_mpirun_signal_handler(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    ssize_t n = write(axon_mpirun_signal_pipe[1], &b, 1);
    (void)n;
    errno = saved;
}

int axon_mpirun_launch_signals_install(void)
{
    if (pipe2(axon_mpirun_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = axon_mpirun_signal_handler;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(axon_mpirun_signals) / sizeof(axon_mpirun_signals[0]); i++)
        sigaction(axon_mpirun_signals[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

void axon_mpirun_launch_signals_uninstall(void)
{
    for (size_t i = 0; i < sizeof(axon_mpirun_signals) / sizeof(axon_mpirun_signals[0]); i++)
        signal(axon_mpirun_signals[i], SIG_DFL);
    for (int i = 0; i < 2; i++) {
        if (axon_mpirun_signal_pipe[i] >= 0)
            close(axon_mpirun_signal_pipe[i]);
        axon_mpirun_signal_pipe[i] = -1;
    }
}

/* SIGINT, SIGTERM, SIGHUP: passed to the ranks, and the job ends (a second one: SIGKILL at once).
 * SIGUSR1, SIGUSR2: passed on only. */
static void axon_mpirun_job_on_signal(struct axon_mpirun_job *job, int sig)
{
    if (sig == SIGCHLD)
        return;
    if (sig == SIGUSR1 || sig == SIGUSR2) {
        axon_mpirun_job_signal_all(job, sig);
        return;
    }
    if (job->killing) {
        axon_mpirun_job_signal_all(job, SIGKILL);
        job->killed_hard = true;
        return;
    }
    axon_mpirun_job_fail(job, 128 + sig, sig, "mpirun: got signal %d (%s); the job was stopped", sig,
                         strsignal(sig));
}

static void axon_mpirun_job_drain_signals(struct axon_mpirun_job *job)
{
    unsigned char sigs[64];
    ssize_t n;
    while ((n = read(axon_mpirun_signal_pipe[0], sigs, sizeof(sigs))) > 0) {
        for (ssize_t i = 0; i < n; i++)
            axon_mpirun_job_on_signal(job, sigs[i]);
    }
}

/* ---- stdin --------------------------------------------------------------------------------------- */

static void axon_mpirun_stdin_read(struct axon_mpirun_job *job)
{
    ssize_t n;
    do {
        n = read(0, job->stdin_buf, sizeof(job->stdin_buf));
    } while (n < 0 && errno == EINTR);
    if (n < 0 && errno == EAGAIN)
        return;
    if (n <= 0) {
        job->stdin_done = true; /* the pipe closes once what is buffered is written */
        return;
    }
    job->stdin_len = (size_t)n;
    job->stdin_off = 0;
}

static void axon_mpirun_stdin_write(struct axon_mpirun_job *job)
{
    while (job->stdin_fd >= 0 && job->stdin_off < job->stdin_len) {
        ssize_t n = write(job->stdin_fd, job->stdin_buf + job->stdin_off, job->stdin_len - job->stdin_off);
        if (n > 0) {
            job->stdin_off += (size_t)n;
        } else if (n < 0 && errno == EAGAIN) {
            return;
        } else if (!(n < 0 && errno == EINTR)) {
            axon_mpirun_job_close_stdin(job); /* rank 0 closed its stdin: stop forwarding */
        }
    }
    job->stdin_len = job->stdin_off = 0;
}

/* ---- the loop ------------------------------------------------------------------------------------ */

enum { AXON_MPIRUN_POLL_SIGNAL, AXON_MPIRUN_POLL_EVENT, AXON_MPIRUN_POLL_STDIN, AXON_MPIRUN_POLL_STDIN_OUT,
       AXON_MPIRUN_POLL_FIXED };

static bool axon_mpirun_stdin_wanted(const struct axon_mpirun_job *job)
{
    return job->stdin_fd >= 0 && !job->stdin_done && job->stdin_len == 0;
}

static long axon_mpirun_min_timeout(long a, long b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static long axon_mpirun_job_poll_timeout(const struct axon_mpirun_job *job)
{
    long t = -1;
    if (job->killing && !job->killed_hard)
        t = axon_mpirun_min_timeout(t, axon_mpirun_time_ms_until(job->kill_at));
    if (job->has_deadline && !job->failed)
        t = axon_mpirun_min_timeout(t, axon_mpirun_time_ms_until(job->deadline));
    for (int r = 0; r < job->nranks; r++) {
        const struct axon_mpirun_stream *ss[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int k = 0; k < 2; k++) {
            if (ss[k]->len > 0)
                t = axon_mpirun_min_timeout(
                    t, axon_mpirun_time_ms_until(axon_mpirun_time_add_ms(ss[k]->partial_since,
                                                                         AXON_MPIRUN_PARTIAL_LINE_MS)));
        }
    }
    return t;
}

static void axon_mpirun_job_timers(struct axon_mpirun_job *job)
{
    if (job->has_deadline && !job->failed && axon_mpirun_time_ms_until(job->deadline) == 0)
        axon_mpirun_job_fail(job, 124, 0, "mpirun: the job exceeded the time limit of %d s; killing it",
                             job->opts->timeout);
    if (job->killing && !job->killed_hard && axon_mpirun_time_ms_until(job->kill_at) == 0) {
        axon_mpirun_job_signal_all(job, SIGKILL);
        job->killed_hard = true;
    }
    for (int r = 0; r < job->nranks; r++) {
        struct axon_mpirun_stream *ss[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int k = 0; k < 2; k++) {
            struct axon_mpirun_stream *s = ss[k];
            if (s->len > 0 && axon_mpirun_time_ms_until(axon_mpirun_time_add_ms(s->partial_since,
                                                                                AXON_MPIRUN_PARTIAL_LINE_MS)) == 0)
                axon_mpirun_stream_emit(job, r, s, s->len);
        }
    }
}

/* One pass: poll everything, then act on what is ready. */
static void axon_mpirun_job_iterate(struct axon_mpirun_job *job, struct pollfd *pfd, int *owner)
{
    int n = AXON_MPIRUN_POLL_FIXED;
    pfd[AXON_MPIRUN_POLL_SIGNAL] = (struct pollfd){.fd = axon_mpirun_signal_pipe[0], .events = POLLIN};
    pfd[AXON_MPIRUN_POLL_EVENT] = (struct pollfd){.fd = job->event_fd, .events = POLLIN};
    pfd[AXON_MPIRUN_POLL_STDIN] = (struct pollfd){.fd = axon_mpirun_stdin_wanted(job) ? 0 : -1, .events = POLLIN};
    pfd[AXON_MPIRUN_POLL_STDIN_OUT] = (struct pollfd){
        .fd = job->stdin_fd >= 0 && job->stdin_len > 0 ? job->stdin_fd : -1, .events = POLLOUT};
    for (int r = 0; r < job->nranks; r++) {
        struct axon_mpirun_stream *ss[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int k = 0; k < 2; k++) {
            if (ss[k]->fd >= 0) {
                owner[n] = r * 2 + k;
                pfd[n++] = (struct pollfd){.fd = ss[k]->fd, .events = POLLIN};
            }
        }
    }
    int ready = poll(pfd, (nfds_t)n, (int)axon_mpirun_job_poll_timeout(job));
    if (ready < 0 && errno != EINTR)
        ready = 0;
    axon_mpirun_job_drain_signals(job);
    axon_mpirun_job_reap(job);
    axon_mpirun_job_drain_events(job);
    for (int i = AXON_MPIRUN_POLL_FIXED; i < n && ready > 0; i++) {
        if (pfd[i].revents) {
            struct axon_mpirun_rank *r = &job->ranks[owner[i] / 2];
            axon_mpirun_stream_read(job, owner[i] / 2, owner[i] % 2 ? &r->err : &r->out, AXON_MPIRUN_DRAIN_MAX);
        }
    }
    if (pfd[AXON_MPIRUN_POLL_STDIN].fd >= 0 && pfd[AXON_MPIRUN_POLL_STDIN].revents)
        axon_mpirun_stdin_read(job);
    if (job->stdin_len > 0)
        axon_mpirun_stdin_write(job);
    if (job->stdin_done && job->stdin_len == 0 && job->stdin_fd >= 0)
        axon_mpirun_job_close_stdin(job);
    axon_mpirun_job_timers(job);
}

/* In a teardown the ranks are gone, but processes they started may still be in their groups: they get
 * what is left of the grace period, then SIGKILL. */
static void axon_mpirun_job_kill_leftovers(struct axon_mpirun_job *job)
{
    if (!job->killing)
        return;
    bool alive = true;
    while (alive && !job->killed_hard && axon_mpirun_time_ms_until(job->kill_at) > 0) {
        alive = false;
        for (int r = 0; r < job->nranks; r++)
            alive |= job->ranks[r].pid > 0 && kill(-job->ranks[r].pid, 0) == 0;
        if (alive) {
            struct timespec ts = {0, 10 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    for (int r = 0; r < job->nranks && alive; r++) {
        if (job->ranks[r].pid > 0)
            kill(-job->ranks[r].pid, SIGKILL);
    }
}

/* After the last rank ended: what is left in the pipes is passed on, without waiting for processes the
 * ranks may have left behind that still hold a pipe open. */
static void axon_mpirun_job_drain_output(struct axon_mpirun_job *job)
{
    for (int r = 0; r < job->nranks; r++) {
        struct axon_mpirun_stream *ss[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int k = 0; k < 2; k++) {
            if (ss[k]->fd >= 0)
                axon_mpirun_stream_read(job, r, ss[k], AXON_MPIRUN_DRAIN_MAX);
            axon_mpirun_stream_close(job, r, ss[k]);
        }
    }
}

static int axon_mpirun_job_init(struct axon_mpirun_job *job, const struct axon_mpirun_options *opts,
                                struct axon_mpirun_server *srv, int event_fd)
{
    memset(job, 0, sizeof(*job));
    job->devnull = -1;
    job->opts = opts;
    job->srv = srv;
    job->nranks = opts->nranks;
    job->event_fd = event_fd;
    job->stdin_fd = -1;
    job->uninit_rank = -1;
    job->ranks = calloc((size_t)opts->nranks, sizeof(*job->ranks));
    job->ended_rank = calloc((size_t)opts->nranks, sizeof(int));
    job->ended_status = calloc((size_t)opts->nranks, sizeof(int));
    job->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (!job->ranks || !job->ended_rank || !job->ended_status || job->devnull < 0)
        return -1;
    for (int r = 0; r < job->nranks; r++) {
        job->ranks[r].out.fd = -1;
        job->ranks[r].err.fd = -1;
    }
    /* In the background of a terminal, reading it would stop mpirun (SIGTTIN): rank 0 gets EOF instead. */
    if (isatty(0) && tcgetpgrp(0) != getpgrp())
        job->stdin_done = true;
    if (opts->timeout > 0) {
        job->has_deadline = true;
        job->deadline = axon_mpirun_time_add_ms(axon_mpirun_time_now(), (long)opts->timeout * 1000);
    }
    return 0;
}

static void axon_mpirun_job_fini(struct axon_mpirun_job *job)
{
    axon_mpirun_job_close_stdin(job);
    if (job->devnull >= 0)
        close(job->devnull);
    free(job->ranks);
    free(job->ended_rank);
    free(job->ended_status);
}

int axon_mpirun_launch_run(const struct axon_mpirun_options *opts, struct axon_mpirun_server *srv,
                           int event_read_fd, bool *failed)
{
    struct axon_mpirun_job job;
    *failed = true;
    if (axon_mpirun_job_init(&job, opts, srv, event_read_fd) != 0) {
        fprintf(stderr, "mpirun: cannot set up the job: %s\n", strerror(errno));
        axon_mpirun_job_fini(&job);
        return 1;
    }
    /* A signal that came while the server started, or while ranks are forked, stops the launch. */
    for (int r = 0; r < job.nranks && !job.failed; r++) {
        axon_mpirun_job_drain_signals(&job);
        if (!job.failed)
            axon_mpirun_launch_rank(&job, r);
    }
    size_t npfd = AXON_MPIRUN_POLL_FIXED + 2 * (size_t)job.nranks;
    struct pollfd *pfd = calloc(npfd, sizeof(*pfd));
    int *owner = calloc(npfd, sizeof(*owner));
    if (!pfd || !owner) {
        axon_mpirun_job_fail(&job, 1, 0, "mpirun: out of memory");
        /* Without the loop's buffers, wait for the ranks plainly; the teardown has killed them. */
        while (job.nrunning > 0 && waitpid(-1, NULL, 0) > 0)
            job.nrunning--;
    }
    while (job.nrunning > 0 && pfd && owner)
        axon_mpirun_job_iterate(&job, pfd, owner);
    free(pfd);
    free(owner);
    axon_mpirun_job_kill_leftovers(&job);
    axon_mpirun_job_drain_output(&job);
    if (job.failed && job.message[0])
        fprintf(stderr, "%s\n", job.message);
    int code = job.failed ? job.exit_code : 0;
    *failed = job.failed;
    axon_mpirun_job_fini(&job);
    return code;
}
