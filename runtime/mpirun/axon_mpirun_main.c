/* mpirun's main(): reads the command line, checks the program and the working directory before anything
 * starts (so a typo costs no PMIx server), plans the ranks' binding (before libpmix starts its threads),
 * starts the MPS daemon for --mps and the PMIx server, runs the job and cleans up: the daemon is told to
 * quit and the temp directories are removed however the job ended. It prints nothing of its own on
 * success, but for --report-bindings and binding warnings. */
#include "axon_mpirun.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A closed stdin, stdout or stderr would let a pipe take its number and confuse the ranks' streams. */
static void axon_mpirun_main_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (nfd >= 0 && nfd != fd) {
                dup2(nfd, fd);
                close(nfd);
            }
        }
    }
}

/* 0 when the program can be run; else the message is printed and the exit code returned. */
static int axon_mpirun_main_check(const struct axon_mpirun_options *opts)
{
    if (opts->wdir) {
        struct stat st;
        int err = stat(opts->wdir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
        if (err) {
            fprintf(stderr, "mpirun: cannot change to directory '%s': %s\n", opts->wdir, strerror(err));
            return 1;
        }
    }
    const char *prog = opts->prog_argv[0];
    int err = axon_mpirun_spawn_find_program(prog, opts->wdir);
    if (err) {
        fprintf(stderr, "mpirun: cannot run '%s': %s\n", prog, strerror(err));
        return err == ENOENT || err == ENOTDIR ? 127 : 126;
    }
    return 0;
}

/* Runs the job; *server_down tells whether libpmix is finalized (else the process must _exit). */
static int axon_mpirun_main_run(const struct axon_mpirun_options *opts, const struct axon_mpirun_binding *binding,
                                bool *server_down)
{
    *server_down = true;
    int events[2];
    if (pipe2(events, O_CLOEXEC) != 0) {
        fprintf(stderr, "mpirun: cannot make a pipe: %s\n", strerror(errno));
        return 1;
    }
    fcntl(events[0], F_SETFL, fcntl(events[0], F_GETFL) | O_NONBLOCK);
    if (axon_mpirun_launch_signals_install() != 0) {
        fprintf(stderr, "mpirun: cannot set up signal handling: %s\n", strerror(errno));
        close(events[0]);
        close(events[1]);
        return 1;
    }
    char err[1024];
    /* The daemon starts after the signal handlers are in place: a Ctrl-C while it starts is then seen by
     * the launch, which starts no rank, and the daemon is still stopped below. It starts before the PMIx
     * server, so a job that cannot have MPS costs no server. */
    struct axon_mpirun_mps mps = {0};
    if (opts->mps && axon_mpirun_mps_start(&mps, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        axon_mpirun_launch_signals_uninstall();
        close(events[0]);
        close(events[1]);
        return 1;
    }
    struct axon_mpirun_server srv;
    int code;
    bool failed = true;
    if (axon_mpirun_server_start(&srv, opts->nranks, events[1], err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        code = 1;
    } else {
        code = axon_mpirun_launch_run(opts, binding, &mps, &srv, events[0], &failed);
    }
    /* Every way the job ends comes back here (a failing rank, a signal, --timeout: the launch has reaped
     * every rank by then), so this is the one place the daemon stops; the ranks, its clients, are gone. */
    axon_mpirun_mps_stop(&mps);
    *server_down = axon_mpirun_server_stop(&srv, !failed);
    if (!*server_down)
        return code; /* libpmix's thread may still use the pipe and the handlers: leave them */
    axon_mpirun_launch_signals_uninstall();
    close(events[0]);
    close(events[1]);
    return code;
}

/* Inside a Slurm allocation: the job's size from it, and a job beyond this machine handed to srun (this
 * process becomes srun). 0 to run the job here. */
static int axon_mpirun_main_slurm(struct axon_mpirun_options *opts)
{
    struct axon_mpirun_slurm s;
    axon_mpirun_slurm_read(&s);
    char err[512];
    if (axon_mpirun_slurm_size(&s, opts, err, sizeof(err)) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    if (!axon_mpirun_slurm_remote(&s, host))
        return 0;
    struct axon_mpirun_slurm_cmd cmd;
    char notes[512];
    if (axon_mpirun_slurm_cmd_make(opts, &cmd, notes, sizeof(notes)) != 0) {
        fprintf(stderr, "mpirun: out of memory\n");
        return 1;
    }
    if (notes[0])
        fprintf(stderr, "mpirun: this Slurm allocation's job runs through srun --mpi=pmix: %s\n", notes);
    for (size_t i = 0; i < opts->nenv; i++)
        setenv(opts->env[i].name, opts->env[i].value, 1); /* srun passes the environment on */
    fflush(stdout);
    fflush(stderr);
    execvp(cmd.argv[0], cmd.argv);
    fprintf(stderr, "mpirun: cannot run srun for this Slurm allocation's job (%s %s): %s\n",
            s.nodes > 1 ? "nodes" : "node", s.nodelist, strerror(errno));
    axon_mpirun_slurm_cmd_free(&cmd);
    return 127;
}

int main(int argc, char **argv)
{
    axon_mpirun_main_std_fds();
    struct axon_mpirun_options opts;
    struct axon_mpirun_binding binding = {0};
    char err[1024];
    int code = 0;
    bool server_down = true;
    switch (axon_mpirun_args_parse(argc, argv, &opts, err, sizeof(err))) {
    case AXON_MPIRUN_ARGS_HELP:
        fputs(axon_mpirun_args_usage(), stdout);
        break;
    case AXON_MPIRUN_ARGS_VERSION:
        printf("mpirun (Axon MPI) %s\n", AXON_VERSION);
        break;
    case AXON_MPIRUN_ARGS_ERROR:
        fprintf(stderr, "%s\n", err);
        code = 1;
        break;
    case AXON_MPIRUN_ARGS_RUN:
        code = axon_mpirun_main_check(&opts);
        if (code == 0)
            code = axon_mpirun_main_slurm(&opts);
        if (code != 0)
            break;
        axon_mpirun_bind_plan(&binding, &opts, err, sizeof(err));
        if (err[0])
            fprintf(stderr, "%s\n", err);
        if (opts.report_bindings)
            axon_mpirun_bind_report(&binding, stderr);
        code = axon_mpirun_main_run(&opts, &binding, &server_down);
        break;
    }
    axon_mpirun_bind_free(&binding);
    axon_mpirun_args_free(&opts);
    fflush(stdout);
    fflush(stderr);
    if (!server_down)
        _exit(code); /* no exit handlers while libpmix's thread runs */
    return code;
}
