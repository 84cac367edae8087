/* mpirun inside a Slurm allocation (salloc, sbatch), as Open MPI's and MPICH's launchers behave there:
 * without -n the job has as many ranks as the allocation has tasks; more than it holds are refused
 * unless --oversubscribe says otherwise; and a job the allocation places beyond this machine (several
 * nodes, or one node that is not this one, as from salloc's shell on a login node) runs through
 * `srun --mpi=pmix`, with mpirun's flags translated where srun has the same thing and named where it
 * has not. mpirun itself is then gone (exec): srun starts, watches and reports the job. */
#include "axon_mpirun.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int axon_mpirun_slurm_tasks_sum(const char *spec)
{
    /* SLURM_TASKS_PER_NODE: "2(x3),1" is 2 tasks on each of 3 nodes, then 1. */
    if (!spec || !*spec)
        return -1;
    long total = 0;
    const char *p = spec;
    while (*p) {
        char *end;
        long tasks = strtol(p, &end, 10);
        if (end == p || tasks < 0)
            return -1;
        long times = 1;
        p = end;
        if (*p == '(') {
            if (p[1] != 'x')
                return -1;
            times = strtol(p + 2, &end, 10);
            if (end == p + 2 || *end != ')' || times < 1)
                return -1;
            p = end + 1;
        }
        total += tasks * times;
        if (total > 1 << 24)
            return -1;
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return (int)total;
}

void axon_mpirun_slurm_read(struct axon_mpirun_slurm *s)
{
    memset(s, 0, sizeof(*s));
    const char *job = getenv("SLURM_JOB_ID");
    if (!job || !*job)
        return;
    s->inside = true;
    s->slots = axon_mpirun_slurm_tasks_sum(getenv("SLURM_TASKS_PER_NODE"));
    if (s->slots <= 0) {
        const char *n = getenv("SLURM_NTASKS");
        s->slots = n && *n ? atoi(n) : 0;
    }
    const char *nodes = getenv("SLURM_JOB_NUM_NODES");
    if (!nodes || !*nodes)
        nodes = getenv("SLURM_NNODES");
    s->nodes = nodes && *nodes ? atoi(nodes) : 1;
    const char *list = getenv("SLURM_JOB_NODELIST");
    snprintf(s->nodelist, sizeof(s->nodelist), "%s", list ? list : "");
}

int axon_mpirun_slurm_size(const struct axon_mpirun_slurm *s, struct axon_mpirun_options *opts, char *err,
                           size_t errlen)
{
    if (!s->inside || s->slots <= 0)
        return 0;
    if (!opts->nranks_given) {
        opts->nranks = s->slots;
        return 0;
    }
    if (opts->nranks > s->slots && !opts->oversubscribe) {
        snprintf(err, errlen,
                 "mpirun: %d ranks asked for, but this Slurm allocation holds %d task%s (SLURM_TASKS_PER_NODE); "
                 "ask for fewer, or say --oversubscribe",
                 opts->nranks, s->slots, s->slots == 1 ? "" : "s");
        return 1;
    }
    return 0;
}

bool axon_mpirun_slurm_remote(const struct axon_mpirun_slurm *s, const char *hostname)
{
    if (!s->inside)
        return false;
    if (s->nodes > 1)
        return true;
    /* One node: this machine unless Slurm names another (its short name, as SLURM_JOB_NODELIST has it). */
    if (!s->nodelist[0] || !hostname)
        return false;
    size_t len = strcspn(hostname, ".");
    return !(strlen(s->nodelist) == len && strncmp(s->nodelist, hostname, len) == 0);
}

/* srun's --cpu-bind word for a binding level, or NULL where srun has none. */
static const char *axon_mpirun_slurm_cpu_bind(int level)
{
    switch (level) {
    case AXON_MPIRUN_BIND_NONE: return "none";
    case AXON_MPIRUN_BIND_HWTHREAD: return "threads";
    case AXON_MPIRUN_BIND_CORE: return "cores";
    case AXON_MPIRUN_BIND_NUMA: return "ldoms";
    case AXON_MPIRUN_BIND_PACKAGE: return "sockets";
    default: return NULL;
    }
}

static void axon_mpirun_slurm_note(char *notes, size_t len, const char *what)
{
    size_t used = strlen(notes);
    snprintf(notes + used, len > used ? len - used : 0, "%s%s", used ? ", " : "", what);
}

/* Appends a copy of word to cmd (kept in cmd->words, freed with it); -1 when out of memory. */
static int axon_mpirun_slurm_word(struct axon_mpirun_slurm_cmd *cmd, size_t *n, const char *word)
{
    char *copy;
    if (cmd->nwords >= (int)(AXON_ARRAY_SIZE(cmd->words)) || !(copy = strdup(word)))
        return -1;
    cmd->words[cmd->nwords++] = copy;
    cmd->argv[(*n)++] = copy;
    return 0;
}

int axon_mpirun_slurm_cmd_make(const struct axon_mpirun_options *opts, struct axon_mpirun_slurm_cmd *cmd,
                               char *notes, size_t noteslen)
{
    memset(cmd, 0, sizeof(*cmd));
    notes[0] = '\0';
    /* srun and its words (at most 12), "--", the program and its arguments, the NULL. */
    cmd->argv = calloc(16 + (size_t)opts->prog_argc, sizeof(*cmd->argv));
    if (!cmd->argv)
        return -1;
    size_t n = 0;
    cmd->argv[n++] = "srun";
    cmd->argv[n++] = "--mpi=pmix";
    char word[PATH_MAX + 16];
    snprintf(word, sizeof(word), "--ntasks=%d", opts->nranks);
    if (axon_mpirun_slurm_word(cmd, &n, word) != 0)
        goto fail;
    snprintf(word, sizeof(word), "--ntasks-per-node=%d", opts->ppn);
    if (opts->ppn > 0 && axon_mpirun_slurm_word(cmd, &n, word) != 0)
        goto fail;
    if (opts->oversubscribe)
        cmd->argv[n++] = "--overcommit";
    /* mpirun ends the job when a rank fails; -disable-auto-cleanup is srun's default. */
    if (!opts->no_cleanup)
        cmd->argv[n++] = "--kill-on-bad-exit=1";
    if (opts->tag_output)
        cmd->argv[n++] = "--label";
    snprintf(word, sizeof(word), "--chdir=%s", opts->wdir ? opts->wdir : "");
    if (opts->wdir && axon_mpirun_slurm_word(cmd, &n, word) != 0)
        goto fail;
    if (opts->timeout > 0) {
        /* srun's limit is in minutes, and a job over it ends as Slurm ends it (not mpirun's 124). */
        snprintf(word, sizeof(word), "--time=%d", (opts->timeout + 59) / 60);
        if (axon_mpirun_slurm_word(cmd, &n, word) != 0)
            goto fail;
        axon_mpirun_slurm_note(notes, noteslen, "--timeout becomes srun --time, in whole minutes");
    }
    const char *bind = opts->bind_to ? axon_mpirun_slurm_cpu_bind(opts->bind_to) : NULL;
    if (opts->bind_to && !bind)
        axon_mpirun_slurm_note(notes, noteslen, "--bind-to is not passed on (srun binds to none, threads, cores, "
                                                "ldoms or sockets)");
    if (bind || opts->report_bindings) {
        snprintf(word, sizeof(word), "--cpu-bind=%s%s%s", opts->report_bindings ? "verbose" : "",
                 opts->report_bindings && bind ? "," : "", bind ? bind : "");
        if (axon_mpirun_slurm_word(cmd, &n, word) != 0)
            goto fail;
    }
    if (opts->mps)
        axon_mpirun_slurm_note(notes, noteslen, "--mps is not passed on (start MPS on each node yourself)");
    cmd->argv[n++] = "--";
    for (int i = 0; i < opts->prog_argc; i++)
        cmd->argv[n++] = opts->prog_argv[i];
    return 0;
fail:
    axon_mpirun_slurm_cmd_free(cmd);
    return -1;
}

void axon_mpirun_slurm_cmd_free(struct axon_mpirun_slurm_cmd *cmd)
{
    for (int i = 0; i < cmd->nwords; i++)
        free(cmd->words[i]);
    free(cmd->argv);
    memset(cmd, 0, sizeof(*cmd));
}
