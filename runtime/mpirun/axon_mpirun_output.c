/* mpirun's side of the ranks' standard streams. It passes each rank's stdout and stderr on to mpirun's
 * line by line, so lines of different ranks do not mix mid-line (with the rank's tag before each line
 * under --tag-output), lets a partial line wait a little for the rest, and stops writing to a stdout or
 * stderr that is gone. It also forwards mpirun's stdin to rank 0, a buffer at a time. */
#include "axon_mpirun_job.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    AXON_MPIRUN_PARTIAL_LINE_MS = 100, /* a line without its newline waits this long for the rest */
    AXON_MPIRUN_LINE_MAX = 65536,      /* longer lines are passed on in pieces */
};

static void axon_mpirun_output_set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* ---- mpirun's stdout and stderr ------------------------------------------------------------------ */

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

/* ---- a rank's output streams --------------------------------------------------------------------- */

void axon_mpirun_stream_init(struct axon_mpirun_stream *s, int fd, int dest)
{
    memset(s, 0, sizeof(*s));
    s->fd = fd;
    s->dest = dest;
    s->tag = dest == 1 ? "stdout" : "stderr";
    axon_mpirun_output_set_nonblock(fd);
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

void axon_mpirun_stream_read(struct axon_mpirun_job *job, int rank, struct axon_mpirun_stream *s,
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

/* Milliseconds until the stream's partial line is due; only for a stream that holds one. */
static long axon_mpirun_stream_partial_due(const struct axon_mpirun_stream *s)
{
    return axon_mpirun_time_ms_until(axon_mpirun_time_add_ms(s->partial_since, AXON_MPIRUN_PARTIAL_LINE_MS));
}

long axon_mpirun_output_timeout(const struct axon_mpirun_job *job)
{
    long t = -1;
    for (int r = 0; r < job->nranks; r++) {
        const struct axon_mpirun_stream *ss[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int k = 0; k < 2; k++) {
            if (ss[k]->len > 0) {
                long due = axon_mpirun_stream_partial_due(ss[k]);
                t = t < 0 || due < t ? due : t;
            }
        }
    }
    return t;
}

void axon_mpirun_output_flush_partial(struct axon_mpirun_job *job)
{
    for (int r = 0; r < job->nranks; r++) {
        struct axon_mpirun_stream *ss[2] = {&job->ranks[r].out, &job->ranks[r].err};
        for (int k = 0; k < 2; k++) {
            struct axon_mpirun_stream *s = ss[k];
            if (s->len > 0 && axon_mpirun_stream_partial_due(s) == 0)
                axon_mpirun_stream_emit(job, r, s, s->len);
        }
    }
}

/* Without waiting for processes the ranks may have left behind that still hold a pipe open. */
void axon_mpirun_output_drain(struct axon_mpirun_job *job)
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

/* ---- stdin, mpirun's to rank 0's ----------------------------------------------------------------- */

void axon_mpirun_stdin_attach(struct axon_mpirun_job *job, int fd)
{
    job->stdin_fd = fd;
    axon_mpirun_output_set_nonblock(fd);
}

bool axon_mpirun_stdin_wanted(const struct axon_mpirun_job *job)
{
    return job->stdin_fd >= 0 && !job->stdin_done && job->stdin_len == 0;
}

void axon_mpirun_stdin_close(struct axon_mpirun_job *job)
{
    if (job->stdin_fd >= 0)
        close(job->stdin_fd);
    job->stdin_fd = -1;
    job->stdin_done = true;
}

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
            axon_mpirun_stdin_close(job); /* rank 0 closed its stdin: stop forwarding */
        }
    }
    job->stdin_len = job->stdin_off = 0;
}

void axon_mpirun_stdin_forward(struct axon_mpirun_job *job, bool readable)
{
    if (readable)
        axon_mpirun_stdin_read(job);
    if (job->stdin_len > 0)
        axon_mpirun_stdin_write(job);
    if (job->stdin_done && job->stdin_len == 0 && job->stdin_fd >= 0)
        axon_mpirun_stdin_close(job);
}
