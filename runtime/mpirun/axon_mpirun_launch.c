/* mpirun's job and its event loop. It starts the ranks (axon_mpirun_spawn.c), then one poll() loop
 * passes on their output and mpirun's stdin (axon_mpirun_output.c), forwards signals, hears the PMIx
 * callbacks' records and the ranks' deaths, and judges them. At the first failure it ends the job:
 * SIGTERM to every rank's group, SIGKILL a second later, one message naming the failing rank, and the
 * failure's exit code. Under -disable-auto-cleanup a rank's own failure ends nothing (MPI_Abort, the time
 * limit and signals still do): the failure is told at once, and its code is mpirun's at the end. */
#include "axon_mpirun_job.h"
#include "runtime/runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum {
    AXON_MPIRUN_KILL_GRACE_MS = 1000, /* SIGTERM, then SIGKILL this much later */
    /* How long a rank's report of a lost peer waits for that peer's own end (a dead process is reaped
     * at once; one that lives on but cannot be reached never ends by itself). */
    AXON_MPIRUN_LOST_GRACE_MS = 2000,
};

static int axon_mpirun_signal_pipe[2] = {-1, -1};

/* Signals mpirun handles; the children get them back at their defaults before exec. */
static const int axon_mpirun_signals[] = {SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2};

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
static void axon_mpirun_job_note(struct axon_mpirun_job *job, int code, const char *fmt, va_list ap)
{
    if (!job->failed) {
        job->failed = true;
        job->exit_code = code;
        vsnprintf(job->message, sizeof(job->message), fmt, ap);
    }
}

void axon_mpirun_job_fail(struct axon_mpirun_job *job, int code, int first_signal, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    axon_mpirun_job_note(job, code, fmt, ap);
    va_end(ap);
    axon_mpirun_job_teardown(job, first_signal);
}

/* A rank's own failure: the job's end, unless -disable-auto-cleanup lets the others run on (then the
 * message is printed at once, and the exit code is still the first failure's). */
static void axon_mpirun_rank_fail(struct axon_mpirun_job *job, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool first = !job->failed;
    axon_mpirun_job_note(job, code, fmt, ap);
    va_end(ap);
    if (!job->opts->no_cleanup) {
        axon_mpirun_job_teardown(job, 0);
    } else if (first) {
        fprintf(stderr, "%s (-disable-auto-cleanup: the other ranks run on)\n", job->message);
        job->message[0] = '\0'; /* said already */
    }
}

static void axon_mpirun_job_check_uninit(struct axon_mpirun_job *job)
{
    if (job->any_connected && job->uninit_rank >= 0)
        axon_mpirun_rank_fail(job, 1, "mpirun: rank %d (pid %d) exited without calling MPI_Init while other "
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
        axon_mpirun_rank_fail(job, 128 + sig, "mpirun: rank %d (pid %d) was killed by signal %d (%s)", rank,
                             (int)r->pid, sig, strsignal(sig));
    } else if (WEXITSTATUS(status) != 0) {
        axon_mpirun_rank_fail(job, WEXITSTATUS(status), "mpirun: rank %d (pid %d) exited with code %d", rank,
                             (int)r->pid, WEXITSTATUS(status));
    } else if (r->connected && !r->finalized) {
        axon_mpirun_rank_fail(job, 1,
                              "mpirun: rank %d (pid %d) exited without calling MPI_Finalize (or ending its MPI sessions)",
                              rank, (int)r->pid);
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
        if (ev->peer >= 0 && !job->failed) {
            /* A report of a lost rank: its own end names the cause and its exit code, so the report waits
             * until that rank has been reaped and judged (the reaping may be under way: events are read
             * between a batch's reaping and its judging), and stands in for it after a grace. */
            if (job->lost_peer < 0) {
                job->lost_peer = ev->peer;
                job->lost_by = ev->rank;
                job->lost_code = ev->code;
                snprintf(job->lost_message, sizeof(job->lost_message), "%s", ev->message);
                job->lost_at = axon_mpirun_time_add_ms(axon_mpirun_time_now(), AXON_MPIRUN_LOST_GRACE_MS);
            }
            break;
        }
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

/* Whether a batch of ended ranks holds only exits with an error code: consequences, maybe, of a rank
 * that is still on its way out (its PMIx connection closed first, so the others' fence failed, and they
 * exited before it could be reaped). */
static bool axon_mpirun_batch_only_errors(const struct axon_mpirun_job *job, int nended)
{
    if (job->failed || nended == 0)
        return false;
    for (int i = 0; i < nended; i++) {
        int st = job->ended_status[i];
        if (WIFSIGNALED(st) || WEXITSTATUS(st) == 0 || job->ranks[job->ended_rank[i]].aborted)
            return false;
    }
    return true;
}

/* Adds the ranks that have ended since to the batch (from index nended); returns the batch's size. */
static int axon_mpirun_job_reap_some(struct axon_mpirun_job *job, int nended)
{
    pid_t pid;
    int st;
    while (nended < job->nranks && (pid = waitpid(-1, &st, WNOHANG)) > 0) {
        int rank = axon_mpirun_job_rank_of_pid(job, pid);
        if (rank < 0)
            continue;
        job->ranks[rank].running = false;
        job->nrunning--;
        /* A rank killed between making a segment and its peers' mapping it (its rings' in MPI_Init, a
         * communicator's at its first collective) leaves the name behind; nobody else will remove it. */
        axon_runtime_shm_sweep((long)pid);
        job->ended_rank[nended] = rank;
        job->ended_status[nended++] = st;
        if (rank == 0)
            axon_mpirun_stdin_close(job);
    }
    return nended;
}

/* Ends the job for a held report of a lost rank (job->lost_peer), unless the job has failed already:
 * that rank has ended without failing, or it has not ended within the grace (alive but unreachable). */
static void axon_mpirun_job_lost(struct axon_mpirun_job *job)
{
    int peer = job->lost_peer;
    job->lost_peer = -1;
    if (job->failed)
        return;
    axon_mpirun_job_fail(job, axon_mpirun_abort_exit_code(job->lost_code), 0,
                         "mpirun: rank %d called MPI_Abort with code %d: %s (rank %d had not ended)", job->lost_by,
                         job->lost_code, job->lost_message, peer);
}

/* Reaps every ended rank. The PMIx records are read after the reaping and before the judging: a rank's
 * MPI_Finalize or MPI_Abort record is written before the rank is released, so it is in the pipe by the
 * time its death can be seen. */
static void axon_mpirun_job_reap(struct axon_mpirun_job *job)
{
    int nended = 0;
    /* Ranks that ended with an error code get up to 250 ms for a cause to show up among the others. */
    for (int tries = 0;; tries++) {
        nended = axon_mpirun_job_reap_some(job, nended);
        axon_mpirun_job_drain_events(job);
        if (tries == 25 || job->nrunning == 0 || !axon_mpirun_batch_only_errors(job, nended))
            break;
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    /* Causes before consequences: a rank killed by a signal or gone without MPI_Finalize makes the
     * others fail (their PMIx fence reports it, and they exit with an error), and when they end in one
     * batch the message must name the cause, whatever order waitpid gave them in. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < nended; i++) {
            int st = job->ended_status[i];
            bool cause = WIFSIGNALED(st) || WEXITSTATUS(st) == 0;
            if (cause == (pass == 0))
                axon_mpirun_rank_judge(job, job->ended_rank[i], st);
        }
    }
    /* The lost rank has ended and was judged: a failure of its own ended the job with its code (the
     * report is dropped); else the report stands. */
    if (job->lost_peer >= 0 && (job->failed || !job->ranks[job->lost_peer].running))
        axon_mpirun_job_lost(job);
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
    for (size_t i = 0; i < AXON_ARRAY_SIZE(axon_mpirun_signals); i++)
        sigaction(axon_mpirun_signals[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

void axon_mpirun_launch_signals_default(void)
{
    for (size_t i = 0; i < AXON_ARRAY_SIZE(axon_mpirun_signals); i++)
        signal(axon_mpirun_signals[i], SIG_DFL);
}

void axon_mpirun_launch_signals_uninstall(void)
{
    axon_mpirun_launch_signals_default();
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

/* ---- the loop ------------------------------------------------------------------------------------ */

enum { AXON_MPIRUN_POLL_SIGNAL, AXON_MPIRUN_POLL_EVENT, AXON_MPIRUN_POLL_STDIN, AXON_MPIRUN_POLL_STDIN_OUT,
       AXON_MPIRUN_POLL_FIXED };

static long axon_mpirun_min_timeout(long a, long b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

static long axon_mpirun_job_poll_timeout(const struct axon_mpirun_job *job)
{
    long t = -1;
    if (job->killing && !job->killed_hard)
        t = axon_mpirun_min_timeout(t, axon_mpirun_time_ms_until(job->kill_at));
    if (job->has_deadline && !job->killing) /* a failure under -disable-auto-cleanup ends nothing yet */
        t = axon_mpirun_min_timeout(t, axon_mpirun_time_ms_until(job->deadline));
    if (job->lost_peer >= 0)
        t = axon_mpirun_min_timeout(t, axon_mpirun_time_ms_until(job->lost_at));
    return axon_mpirun_min_timeout(t, axon_mpirun_output_timeout(job));
}

static void axon_mpirun_job_timers(struct axon_mpirun_job *job)
{
    if (job->lost_peer >= 0 && axon_mpirun_time_ms_until(job->lost_at) == 0)
        axon_mpirun_job_lost(job);
    if (job->has_deadline && !job->killing && axon_mpirun_time_ms_until(job->deadline) == 0)
        axon_mpirun_job_fail(job, 124, 0, "mpirun: the job exceeded the time limit of %d s; killing it",
                             job->opts->timeout);
    if (job->killing && !job->killed_hard && axon_mpirun_time_ms_until(job->kill_at) == 0) {
        axon_mpirun_job_signal_all(job, SIGKILL);
        job->killed_hard = true;
    }
    axon_mpirun_output_flush_partial(job);
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
    axon_mpirun_stdin_forward(job, pfd[AXON_MPIRUN_POLL_STDIN].fd >= 0 && pfd[AXON_MPIRUN_POLL_STDIN].revents);
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

static int axon_mpirun_job_init(struct axon_mpirun_job *job, const struct axon_mpirun_options *opts,
                                const struct axon_mpirun_binding *binding, const struct axon_mpirun_mps *mps,
                                struct axon_mpirun_server *srv, int event_fd)
{
    memset(job, 0, sizeof(*job));
    job->devnull = -1;
    job->opts = opts;
    job->binding = binding;
    job->mps = mps;
    job->srv = srv;
    job->nranks = opts->nranks;
    job->event_fd = event_fd;
    job->stdin_fd = -1;
    job->uninit_rank = -1;
    job->lost_peer = -1;
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
    axon_mpirun_stdin_close(job);
    if (job->devnull >= 0)
        close(job->devnull);
    free(job->ranks);
    free(job->ended_rank);
    free(job->ended_status);
}

int axon_mpirun_launch_run(const struct axon_mpirun_options *opts, const struct axon_mpirun_binding *binding,
                           const struct axon_mpirun_mps *mps, struct axon_mpirun_server *srv, int event_read_fd,
                           bool *failed)
{
    struct axon_mpirun_job job;
    *failed = true;
    if (axon_mpirun_job_init(&job, opts, binding, mps, srv, event_read_fd) != 0) {
        fprintf(stderr, "mpirun: cannot set up the job: %s\n", strerror(errno));
        axon_mpirun_job_fini(&job);
        return 1;
    }
    /* A signal that came while the server started, or while ranks are forked, stops the launch. */
    for (int r = 0; r < job.nranks && !job.failed; r++) {
        axon_mpirun_job_drain_signals(&job);
        if (!job.failed)
            axon_mpirun_spawn_rank(&job, r);
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
    /* What is left in the pipes is passed on once the last rank ended. */
    axon_mpirun_output_drain(&job);
    if (job.failed && job.message[0])
        fprintf(stderr, "%s\n", job.message);
    int code = job.failed ? job.exit_code : 0;
    *failed = job.failed;
    axon_mpirun_job_fini(&job);
    return code;
}
