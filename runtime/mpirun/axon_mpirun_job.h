/* The job as mpirun's three launch files share it: the job, its ranks and their output streams, the clock
 * they all time things with, and the few calls one of those files makes into another. The job and its
 * loop are axon_mpirun_launch.c's, the ranks' output and stdin axon_mpirun_output.c's, and the starting
 * of a rank axon_mpirun_spawn.c's. Nothing outside runtime/mpirun includes this header. */
#ifndef AXON_MPIRUN_JOB_H
#define AXON_MPIRUN_JOB_H

#include "axon_mpirun.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

enum {
    AXON_MPIRUN_DRAIN_MAX = 1 << 20, /* bytes read from a pipe in one go, and after its rank ended */
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
    const struct axon_mpirun_binding *binding; /* the CPUs of each rank */
    const struct axon_mpirun_mps *mps;         /* the job's MPS daemon (--mps), or NULL */
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
    /* A rank's report that it lost another (an abort naming that one), held until the lost rank ends and
     * is judged, or until lost_at: its own exit code and message come first. lost_peer -1: none held. */
    int lost_peer, lost_by, lost_code;
    char lost_message[500];
    struct timespec lost_at;
    /* teardown and time limit */
    bool killing;
    bool killed_hard;
    struct timespec kill_at;
    bool has_deadline;
    struct timespec deadline;
};

/* ---- time: inline here because the loop's timers and the output's partial lines share one clock ---- */

static inline struct timespec axon_mpirun_time_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

static inline struct timespec axon_mpirun_time_add_ms(struct timespec t, long ms)
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
static inline long axon_mpirun_time_ms_until(struct timespec t)
{
    struct timespec now = axon_mpirun_time_now();
    long ms = (long)(t.tv_sec - now.tv_sec) * 1000 + (t.tv_nsec - now.tv_nsec) / 1000000L;
    if ((t.tv_nsec - now.tv_nsec) % 1000000L > 0)
        ms++;
    return ms > 0 ? ms : 0;
}

/* ---- the job (axon_mpirun_launch.c) --------------------------------------------------------------- */

/* Fails the job: the first failure sets the message and exit code, and every failure starts the teardown. */
__attribute__((format(printf, 4, 5))) void axon_mpirun_job_fail(struct axon_mpirun_job *job, int code,
                                                                int first_signal, const char *fmt, ...);
/* Puts the signals mpirun handles back to their defaults; async-signal-safe, for a child before exec. */
void axon_mpirun_launch_signals_default(void);

/* ---- output streams and stdin (axon_mpirun_output.c) ---------------------------------------------- */

/* Takes the read end of a rank's stdout (dest 1) or stderr (dest 2) pipe, and makes it non-blocking. */
void axon_mpirun_stream_init(struct axon_mpirun_stream *s, int fd, int dest);
/* Reads what the pipe holds (up to `budget` bytes), then passes on whole lines. Closes at EOF. */
void axon_mpirun_stream_read(struct axon_mpirun_job *job, int rank, struct axon_mpirun_stream *s,
                             size_t budget);
/* Milliseconds until a waiting partial line is due to be passed on; -1 when none waits. */
long axon_mpirun_output_timeout(const struct axon_mpirun_job *job);
/* Passes on the partial lines that have waited long enough for the rest. */
void axon_mpirun_output_flush_partial(struct axon_mpirun_job *job);
/* After the last rank ended: passes on what is left in the pipes and closes them. */
void axon_mpirun_output_drain(struct axon_mpirun_job *job);
/* Takes the write end of rank 0's stdin pipe, and makes it non-blocking. */
void axon_mpirun_stdin_attach(struct axon_mpirun_job *job, int fd);
/* Should the loop poll mpirun's stdin (rank 0 reads, and nothing read is still waiting)? */
bool axon_mpirun_stdin_wanted(const struct axon_mpirun_job *job);
/* Reads mpirun's stdin if `readable`, writes what waits to rank 0, and closes rank 0's stdin once done. */
void axon_mpirun_stdin_forward(struct axon_mpirun_job *job, bool readable);
/* Stops forwarding stdin: closes rank 0's end, if still open. */
void axon_mpirun_stdin_close(struct axon_mpirun_job *job);

/* ---- starting ranks (axon_mpirun_spawn.c) --------------------------------------------------------- */

/* Forks rank `rank`; on failure the job is failed (with a message) and the caller stops launching. */
void axon_mpirun_spawn_rank(struct axon_mpirun_job *job, int rank);

#endif
