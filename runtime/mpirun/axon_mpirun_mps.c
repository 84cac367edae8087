/* mpirun --mps: a private NVIDIA MPS control daemon for one job. Ranks that share a GPU without MPS each
 * hold a CUDA context of their own, and the GPU time-slices between the contexts: every GPU message between
 * two of them waits for a switch, far longer than the copy (bench/results/2026-11-26-h200-gpu-copies.md).
 * This file owns the daemon's life: a private directory for its pipe and log, its start before any rank
 * (a failure stops mpirun: a job that asked for MPS should not silently run without it), the two
 * variables that point the ranks at it, and its stop once the job has ended, however it ended, with the
 * directory removed. The control program runs through posix_spawnp, never a shell: the stop may come
 * while libpmix's threads still run, and posix_spawn is safe there where fork's child would not be. */
#include "axon_mpirun.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum {
    /* `-d` returns once the daemon has forked, and `quit` once it is told; a control program that hangs
     * must not hold the job (or mpirun's exit) forever, so it is killed after this long. */
    AXON_MPIRUN_MPS_WAIT_MS = 10000,
    /* The daemon may still be closing its log when `quit` returns: the directory's removal is retried. */
    AXON_MPIRUN_MPS_REMOVE_TRIES = 20,
};

static const char axon_mpirun_mps_pipe_var[] = "CUDA_MPS_PIPE_DIRECTORY";
static const char axon_mpirun_mps_log_var[] = "CUDA_MPS_LOG_DIRECTORY";

/* The values, past "NAME=" in the entries (sizeof counts the name's NUL, which stands for the '='). */
const char *axon_mpirun_mps_pipe_dir(const struct axon_mpirun_mps *mps)
{
    return mps->pipe_entry + sizeof(axon_mpirun_mps_pipe_var);
}

const char *axon_mpirun_mps_log_dir(const struct axon_mpirun_mps *mps)
{
    return mps->log_entry + sizeof(axon_mpirun_mps_log_var);
}

static const char *axon_mpirun_mps_program(void)
{
    const char *prog = getenv("AXON_MPS_CONTROL");
    return prog && *prog ? prog : "nvidia-cuda-mps-control";
}

static void axon_mpirun_mps_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* mpirun's environment with the two MPS variables pointing at our directory (a user's
 * CUDA_MPS_LOG_DIRECTORY alone would otherwise send our daemon's log elsewhere). The strings are
 * environ's and the mps struct's; only the array is malloc'd. */
static char **axon_mpirun_mps_environ(struct axon_mpirun_mps *mps)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = malloc(sizeof(*env) * (n + 3));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(environ[i], "CUDA_MPS_PIPE_DIRECTORY=", 24) != 0 &&
            strncmp(environ[i], "CUDA_MPS_LOG_DIRECTORY=", 23) != 0)
            env[k++] = environ[i];
    }
    env[k++] = mps->pipe_entry;
    env[k++] = mps->log_entry;
    env[k] = NULL;
    return env;
}

/* Waits for the control program, killing it past the limit; returns its wait status, or -1. */
static int axon_mpirun_mps_wait(pid_t pid, bool *timed_out)
{
    int st;
    *timed_out = false;
    for (long waited = 0;; waited += 10) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return st;
        if (r < 0 && errno != EINTR)
            return -1;
        if (waited >= AXON_MPIRUN_MPS_WAIT_MS && !*timed_out) {
            *timed_out = true;
            kill(-pid, SIGKILL);
        }
        axon_mpirun_mps_sleep_ms(10);
    }
}

/* Runs the control program with one argument (or none), stdin from in_fd and stdout/stderr to out_fd and
 * err_fd, and waits for it. Returns 0 with its wait status in *status, or an errno value (the program
 * could not be started; ETIMEDOUT: it was killed past the limit). */
static int axon_mpirun_mps_run(struct axon_mpirun_mps *mps, const char *arg, int in_fd, int out_fd, int err_fd,
                               int *status)
{
    char **env = axon_mpirun_mps_environ(mps);
    if (!env)
        return ENOMEM;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
    posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
    posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
    /* Nothing else of mpirun's (PMIx sockets, the event pipes) reaches the daemon, which outlives this. */
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    /* A group of its own: a Ctrl-C at the terminal reaches mpirun's group, and mpirun, not the daemon,
     * decides when the daemon ends. SIGPIPE back to its default: mpirun ignores it, and an ignored signal
     * would stay ignored across exec. */
    sigset_t none, pipe_sig;
    sigemptyset(&none);
    sigemptyset(&pipe_sig);
    sigaddset(&pipe_sig, SIGPIPE);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &pipe_sig);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const char *prog = axon_mpirun_mps_program();
    char *argv[] = {(char *)prog, (char *)arg, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, prog, &fa, &attr, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    free(env);
    if (rc != 0)
        return rc;
    bool timed_out;
    *status = axon_mpirun_mps_wait(pid, &timed_out);
    if (timed_out)
        return ETIMEDOUT;
    return *status < 0 ? ECHILD : 0;
}

/* A short account of a wait status that is not success: "it exited with code 2". */
static void axon_mpirun_mps_describe(int status, char *text, size_t len)
{
    if (WIFSIGNALED(status))
        snprintf(text, len, "it was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(text, len, "it exited with code %d", WEXITSTATUS(status));
}

/* The first line the start wrote (its own explanation of a failure), or "". */
static void axon_mpirun_mps_first_line(int fd, char *line, size_t len)
{
    line[0] = '\0';
    ssize_t n = pread(fd, line, len - 1, 0);
    if (n <= 0)
        return;
    line[n] = '\0';
    line[strcspn(line, "\n")] = '\0';
}

static void axon_mpirun_mps_remove(struct axon_mpirun_mps *mps)
{
    if (!mps->dir[0])
        return;
    for (int i = 0; i < AXON_MPIRUN_MPS_REMOVE_TRIES; i++) {
        axon_mpirun_server_remove_tree(mps->dir);
        if (access(mps->dir, F_OK) != 0)
            break;
        axon_mpirun_mps_sleep_ms(50);
    }
    if (access(mps->dir, F_OK) == 0)
        fprintf(stderr, "mpirun: warning: --mps: cannot remove %s\n", mps->dir);
    mps->dir[0] = '\0';
}

__attribute__((format(printf, 4, 5))) static int axon_mpirun_mps_fail(struct axon_mpirun_mps *mps, char *err,
                                                                      size_t errlen, const char *fmt, ...)
{
    int n = snprintf(err, errlen, "mpirun: --mps: cannot start nvidia-cuda-mps-control: ");
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    axon_mpirun_mps_remove(mps);
    return -1;
}

/* The private directory with its pipe/ and log/, and the two variables' entries. */
static int axon_mpirun_mps_make_dir(struct axon_mpirun_mps *mps, char *err, size_t errlen)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    int n = snprintf(mps->dir, sizeof(mps->dir), "%s/axon-mps-XXXXXX", base);
    if (n < 0 || (size_t)n >= sizeof(mps->dir)) {
        mps->dir[0] = '\0';
        return axon_mpirun_mps_fail(mps, err, errlen, "the directory name is too long (TMPDIR=%s)", base);
    }
    if (!mkdtemp(mps->dir)) {
        int e = errno;
        mps->dir[0] = '\0';
        return axon_mpirun_mps_fail(mps, err, errlen, "cannot make a directory in %s: %s", base, strerror(e));
    }
    n = snprintf(mps->pipe_entry, sizeof(mps->pipe_entry), "%s=%s/pipe", axon_mpirun_mps_pipe_var, mps->dir);
    int m = snprintf(mps->log_entry, sizeof(mps->log_entry), "%s=%s/log", axon_mpirun_mps_log_var, mps->dir);
    if (n < 0 || (size_t)n >= sizeof(mps->pipe_entry) || m < 0 || (size_t)m >= sizeof(mps->log_entry))
        return axon_mpirun_mps_fail(mps, err, errlen, "the directory name is too long (%s)", mps->dir);
    const char *dirs[] = {axon_mpirun_mps_pipe_dir(mps), axon_mpirun_mps_log_dir(mps)};
    for (int i = 0; i < 2; i++) {
        if (mkdir(dirs[i], 0700) != 0)
            return axon_mpirun_mps_fail(mps, err, errlen, "cannot make %s: %s", dirs[i], strerror(errno));
    }
    return 0;
}

int axon_mpirun_mps_start(struct axon_mpirun_mps *mps, char *err, size_t errlen)
{
    memset(mps, 0, sizeof(*mps));
    err[0] = '\0';
    /* The user runs a daemon already: the ranks inherit its variables, and a second one would only
     * compete with it for the GPU. */
    const char *user_pipe = getenv(axon_mpirun_mps_pipe_var);
    if (user_pipe && *user_pipe)
        return 0;
    if (axon_mpirun_mps_make_dir(mps, err, errlen) != 0)
        return -1;
    /* What the start prints goes to a file, not to mpirun's stderr: the daemon forked by `-d` might keep
     * whatever it inherits open for as long as it lives, and a pipe reader waiting on mpirun's stderr
     * would then wait for the daemon too. The file only explains a failure. */
    char out_path[sizeof(mps->dir) + 16];
    snprintf(out_path, sizeof(out_path), "%s/start.out", mps->dir);
    int out = open(out_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (out < 0 || in < 0) {
        int e = errno;
        if (out >= 0)
            close(out);
        if (in >= 0)
            close(in);
        return axon_mpirun_mps_fail(mps, err, errlen, "cannot open %s: %s", out < 0 ? out_path : "/dev/null",
                                    strerror(e));
    }
    int status = 0;
    int rc = axon_mpirun_mps_run(mps, "-d", in, out, out, &status);
    char said[256];
    axon_mpirun_mps_first_line(out, said, sizeof(said));
    close(out);
    close(in);
    const char *prog = axon_mpirun_mps_program();
    if (rc == ETIMEDOUT)
        return axon_mpirun_mps_fail(mps, err, errlen, "'%s -d' did not return within %d s", prog,
                                    AXON_MPIRUN_MPS_WAIT_MS / 1000);
    if (rc != 0)
        return axon_mpirun_mps_fail(mps, err, errlen, "cannot run '%s': %s", prog, strerror(rc));
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char how[128];
        axon_mpirun_mps_describe(status, how, sizeof(how));
        return axon_mpirun_mps_fail(mps, err, errlen, "'%s -d' failed: %s%s%s", prog, how, said[0] ? ": " : "",
                                    said);
    }
    mps->running = true;
    return 0;
}

void axon_mpirun_mps_stop(struct axon_mpirun_mps *mps)
{
    if (mps->running) {
        mps->running = false;
        /* `echo quit | nvidia-cuda-mps-control`: the command waits in the pipe before the program starts,
         * and the write end is closed, so the program sees the command and then the end of its input. */
        int p[2];
        int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (devnull < 0 || pipe2(p, O_CLOEXEC) != 0) {
            fprintf(stderr, "mpirun: warning: --mps: cannot stop the MPS daemon: %s\n", strerror(errno));
        } else {
            ssize_t n = write(p[1], "quit\n", 5);
            (void)n;
            close(p[1]);
            int status = 0;
            int rc = axon_mpirun_mps_run(mps, NULL, p[0], devnull, 2, &status);
            close(p[0]);
            char how[128];
            if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
                axon_mpirun_mps_describe(status, how, sizeof(how));
                fprintf(stderr, "mpirun: warning: --mps: '%s' (quit) failed: %s\n", axon_mpirun_mps_program(),
                        how);
            } else if (rc != 0) {
                fprintf(stderr, "mpirun: warning: --mps: '%s' (quit) failed: %s\n", axon_mpirun_mps_program(),
                        strerror(rc));
            }
        }
        if (devnull >= 0)
            close(devnull);
    }
    axon_mpirun_mps_remove(mps);
}
