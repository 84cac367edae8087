/* mpirun's command line: turns argv into struct axon_mpirun_options. It accepts the spellings of Open MPI
 * and MPICH (Hydra) that make sense on one machine, because job scripts written for either should run
 * unchanged; --bind-to and --report-bindings are kept for axon_mpirun_bind.c, options that only steer
 * placement across machines are accepted and ignored, and any host
 * that is not this machine is an error that points to Slurm. Pure logic: no output and no exit(); every
 * error comes back as a message, so unit tests can call it directly. */
#include "axon_mpirun.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum axon_mpirun_opt_kind {
    AXON_OPT_NRANKS,   /* -n N */
    AXON_OPT_PPN,      /* -N N: ranks per node, which on one node is all of them */
    AXON_OPT_EXPORT,   /* -x VAR or -x VAR=value */
    AXON_OPT_SETENV,   /* -genv VAR value */
    AXON_OPT_ENVLIST,  /* -genvlist VAR1,VAR2 */
    AXON_OPT_TAG,      /* --tag-output */
    AXON_OPT_TIMEOUT,  /* --timeout S */
    AXON_OPT_HELP,
    AXON_OPT_VERSION,
    AXON_OPT_OVERSUB,  /* --oversubscribe */
    AXON_OPT_HOSTFILE, /* --hostfile F */
    AXON_OPT_HOST,     /* --host H1,H2 */
    AXON_OPT_WDIR,     /* -wdir DIR */
    AXON_OPT_BIND,     /* --bind-to X[:qualifiers] */
    AXON_OPT_REPORT,   /* --report-bindings */
    AXON_OPT_HWTHREADS, /* --use-hwthread-cpus */
    AXON_OPT_MPS,      /* --mps */
    AXON_OPT_NOCLEANUP, /* -disable-auto-cleanup */
    AXON_OPT_MEMKINDS, /* -memory-alloc-kinds LIST (MPI 4.1 section 11.5) */
    AXON_OPT_IGNORE0,  /* a flag without a value, accepted and ignored */
    AXON_OPT_IGNORE1,  /* an option with one value, accepted and ignored */
    AXON_OPT_IGNORE2,  /* an option with two values (--mca NAME VALUE), accepted and ignored */
};

struct axon_mpirun_opt {
    const char *name;
    enum axon_mpirun_opt_kind kind;
};

static const struct axon_mpirun_opt axon_mpirun_opts[] = {
    {"-n", AXON_OPT_NRANKS}, {"-np", AXON_OPT_NRANKS}, {"--n", AXON_OPT_NRANKS}, {"--np", AXON_OPT_NRANKS},
    {"-c", AXON_OPT_NRANKS},
    {"-N", AXON_OPT_PPN}, {"--npernode", AXON_OPT_PPN}, {"-npernode", AXON_OPT_PPN}, {"-ppn", AXON_OPT_PPN},
    {"--ppn", AXON_OPT_PPN},
    {"-x", AXON_OPT_EXPORT},
    {"-genv", AXON_OPT_SETENV}, {"-env", AXON_OPT_SETENV}, {"--genv", AXON_OPT_SETENV},
    {"--env", AXON_OPT_SETENV},
    {"-genvlist", AXON_OPT_ENVLIST}, {"-envlist", AXON_OPT_ENVLIST},
    {"--tag-output", AXON_OPT_TAG}, {"-tag-output", AXON_OPT_TAG},
    {"--timeout", AXON_OPT_TIMEOUT}, {"-timeout", AXON_OPT_TIMEOUT},
    {"--help", AXON_OPT_HELP}, {"-help", AXON_OPT_HELP}, {"-h", AXON_OPT_HELP},
    {"--version", AXON_OPT_VERSION}, {"-version", AXON_OPT_VERSION}, {"-V", AXON_OPT_VERSION},
    {"--oversubscribe", AXON_OPT_OVERSUB}, {"-oversubscribe", AXON_OPT_OVERSUB},
    {"--hostfile", AXON_OPT_HOSTFILE}, {"-hostfile", AXON_OPT_HOSTFILE}, {"--machinefile", AXON_OPT_HOSTFILE},
    {"-machinefile", AXON_OPT_HOSTFILE}, {"-f", AXON_OPT_HOSTFILE},
    {"--host", AXON_OPT_HOST}, {"-host", AXON_OPT_HOST}, {"-H", AXON_OPT_HOST}, {"--hosts", AXON_OPT_HOST},
    {"-hosts", AXON_OPT_HOST},
    {"-wdir", AXON_OPT_WDIR}, {"--wdir", AXON_OPT_WDIR}, {"-wd", AXON_OPT_WDIR}, {"--wd", AXON_OPT_WDIR},
    {"--bind-to", AXON_OPT_BIND}, {"-bind-to", AXON_OPT_BIND},
    {"--report-bindings", AXON_OPT_REPORT}, {"-report-bindings", AXON_OPT_REPORT},
    {"--use-hwthread-cpus", AXON_OPT_HWTHREADS}, {"-use-hwthread-cpus", AXON_OPT_HWTHREADS},
    {"--mps", AXON_OPT_MPS}, {"-mps", AXON_OPT_MPS},
    {"-disable-auto-cleanup", AXON_OPT_NOCLEANUP}, {"--disable-auto-cleanup", AXON_OPT_NOCLEANUP},
    {"-memory-alloc-kinds", AXON_OPT_MEMKINDS}, {"--memory-alloc-kinds", AXON_OPT_MEMKINDS},
    /* Placement options: ranks are placed in order on the one machine (see --bind-to). */
    {"--allow-run-as-root", AXON_OPT_IGNORE0}, {"--display-map", AXON_OPT_IGNORE0}, {"--quiet", AXON_OPT_IGNORE0},
    {"-q", AXON_OPT_IGNORE0}, {"-genvall", AXON_OPT_IGNORE0}, {"-envall", AXON_OPT_IGNORE0},
    {"--map-by", AXON_OPT_IGNORE1}, {"-map-by", AXON_OPT_IGNORE1}, {"--rank-by", AXON_OPT_IGNORE1},
    {"-rank-by", AXON_OPT_IGNORE1},
    /* Open MPI's MCA parameters: scripts pass them; they mean nothing to Axon. */
    {"--mca", AXON_OPT_IGNORE2}, {"-mca", AXON_OPT_IGNORE2}, {"--gmca", AXON_OPT_IGNORE2},
    {"-gmca", AXON_OPT_IGNORE2},
};

static const char axon_mpirun_usage_text[] =
    "Usage: mpirun [options] program [arguments...]\n"
    "Starts the ranks of an MPI job on this machine (for many machines use Slurm: srun --mpi=pmix).\n"
    "Options end at the program's name or at '--'; long options take 'name value' or 'name=value'.\n"
    "\n"
    "  -n N, -np N, -c N       number of ranks (default: 1)\n"
    "  -N N, --npernode N, -ppn N\n"
    "                          ranks per node; on one node, the number of ranks\n"
    "  -x VAR[=value]          set VAR in the ranks' environment (without a value: mpirun's value)\n"
    "  -genv VAR value, -env VAR value\n"
    "                          set VAR in the ranks' environment (MPICH spelling)\n"
    "  -genvlist VAR1,VAR2     pass these variables of mpirun's environment\n"
    "  --tag-output            prefix each output line with [1,rank]<stdout>: or [1,rank]<stderr>:\n"
    "  --timeout S             kill the job after S seconds and exit 124 (also env MPIEXEC_TIMEOUT)\n"
    "  -wdir DIR, -wd DIR      working directory of the ranks\n"
    "  --hostfile F, --machinefile F, -f F\n"
    "  --host H1,H2, -H H1,H2  hosts; each must be this machine\n"
    "  --oversubscribe         accepted: more ranks than cores are always allowed, and ranks are told\n"
    "                          (AXON_OVERSUBSCRIBED=1) so they yield their core while they wait\n"
    "  --bind-to X, -bind-to X\n"
    "                          bind each rank to a hwthread, core, l1cache, l2cache, l3cache, numa,\n"
    "                          socket (package), board or none: rank i to the object holding the\n"
    "                          i-th core, round-robin when ranks outnumber cores (default: core, or\n"
    "                          none when the ranks outnumber the cores); :if-supported accepted\n"
    "  --report-bindings       print each rank's CPUs on stderr\n"
    "  --use-hwthread-cpus     hardware threads count as cores (default binding: hwthread)\n"
    "  --mps                   run a private NVIDIA MPS daemon for the job, so ranks sharing a GPU do\n"
    "                          not time-slice it (also env AXON_MPIRUN_MPS=1)\n"
    "  -disable-auto-cleanup   a failing rank does not end the job: the others run on (as under srun\n"
    "                          by default; MPI_Abort still ends it), and mpirun exits with the first\n"
    "                          failure's code once every rank has ended\n"
    "  -memory-alloc-kinds K1,K2\n"
    "                          the memory allocation kinds the program asks for (MPI 4.1), e.g.\n"
    "                          system,cuda:device; the ranks read what is supported from MPI_INFO_ENV's\n"
    "                          mpi_memory_alloc_kinds (sets AXON_MEMORY_ALLOC_KINDS for them)\n"
    "  --map-by X, --rank-by X, --allow-run-as-root,\n"
    "  --mca NAME VALUE        accepted and ignored\n"
    "  -h, --help              this text\n"
    "  -V, --version           the version\n"
    "\n"
    "Ranks inherit mpirun's environment; rank 0 gets mpirun's stdin, the others /dev/null. mpirun ends\n"
    "the whole job at the first failing rank (a rank that exits with another code than 0, is killed,\n"
    "or ends without MPI_Finalize) and exits with its code (128+signal for a signal, 124 for\n"
    "--timeout).\n";

const char *axon_mpirun_args_usage(void)
{
    return axon_mpirun_usage_text;
}

__attribute__((format(printf, 3, 4))) static enum axon_mpirun_args_result
axon_mpirun_args_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return AXON_MPIRUN_ARGS_ERROR;
}

static const struct axon_mpirun_opt *axon_mpirun_args_lookup(const char *name, size_t len)
{
    for (size_t i = 0; i < AXON_ARRAY_SIZE(axon_mpirun_opts); i++) {
        if (strlen(axon_mpirun_opts[i].name) == len && strncmp(axon_mpirun_opts[i].name, name, len) == 0)
            return &axon_mpirun_opts[i];
    }
    return NULL;
}

static int axon_mpirun_opt_nvalues(enum axon_mpirun_opt_kind kind)
{
    switch (kind) {
    case AXON_OPT_TAG:
    case AXON_OPT_HELP:
    case AXON_OPT_VERSION:
    case AXON_OPT_OVERSUB:
    case AXON_OPT_REPORT:
    case AXON_OPT_HWTHREADS:
    case AXON_OPT_MPS:
    case AXON_OPT_NOCLEANUP:
    case AXON_OPT_IGNORE0:
        return 0;
    case AXON_OPT_SETENV:
    case AXON_OPT_IGNORE2:
        return 2;
    default:
        return 1;
    }
}

/* A decimal integer > 0 that fits an int, nothing else (no sign, no spaces, no suffix). */
static bool axon_mpirun_args_positive(const char *text, int *out)
{
    if (!text || !isdigit((unsigned char)text[0]))
        return false;
    errno = 0;
    char *end;
    long v = strtol(text, &end, 10);
    if (errno || *end || v <= 0 || v > INT_MAX)
        return false;
    *out = (int)v;
    return true;
}

static bool axon_mpirun_args_env_name_ok(const char *name, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (name[i] == '=' || name[i] == '\0')
            return false;
    }
    return true;
}

/* Sets (or replaces) one variable for the ranks; a later option wins over an earlier one. */
static int axon_mpirun_args_env_add(struct axon_mpirun_options *opts, const char *name, size_t namelen,
                                    const char *value)
{
    char *n = strndup(name, namelen);
    char *v = strdup(value);
    if (!n || !v) {
        free(n);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < opts->nenv; i++) {
        if (strcmp(opts->env[i].name, n) == 0) {
            free(opts->env[i].name);
            free(opts->env[i].value);
            opts->env[i].name = n;
            opts->env[i].value = v;
            return 0;
        }
    }
    struct axon_mpirun_env_var *grown = realloc(opts->env, sizeof(*grown) * (opts->nenv + 1));
    if (!grown) {
        free(n);
        free(v);
        return -1;
    }
    opts->env = grown;
    opts->env[opts->nenv].name = n;
    opts->env[opts->nenv].value = v;
    opts->nenv++;
    return 0;
}

/* -x VAR=value, or -x VAR: mpirun's own value (nothing when mpirun has none: the ranks lack it too). */
static enum axon_mpirun_args_result axon_mpirun_args_export(struct axon_mpirun_options *opts, const char *opt,
                                                            const char *word, char *err, size_t errlen)
{
    const char *eq = strchr(word, '=');
    size_t len = eq ? (size_t)(eq - word) : strlen(word);
    if (!axon_mpirun_args_env_name_ok(word, len))
        return axon_mpirun_args_fail(err, errlen, "mpirun: %s needs VAR or VAR=value, not '%s'", opt, word);
    const char *value = eq ? eq + 1 : getenv(word);
    if (!value)
        return AXON_MPIRUN_ARGS_RUN;
    if (axon_mpirun_args_env_add(opts, word, len, value) != 0)
        return axon_mpirun_args_fail(err, errlen, "mpirun: out of memory");
    return AXON_MPIRUN_ARGS_RUN;
}

static enum axon_mpirun_args_result axon_mpirun_args_envlist(struct axon_mpirun_options *opts, const char *opt,
                                                             const char *list, char *err, size_t errlen)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        if (len > 0) {
            char *name = strndup(p, len);
            if (!name)
                return axon_mpirun_args_fail(err, errlen, "mpirun: out of memory");
            enum axon_mpirun_args_result r = axon_mpirun_args_export(opts, opt, name, err, errlen);
            free(name);
            if (r != AXON_MPIRUN_ARGS_RUN)
                return r;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return AXON_MPIRUN_ARGS_RUN;
}

static bool axon_mpirun_args_name_eq(const char *a, const char *b, size_t blen)
{
    return strlen(a) == blen && strncasecmp(a, b, blen) == 0;
}

bool axon_mpirun_args_host_is_local(const char *host)
{
    size_t len = strlen(host);
    if (axon_mpirun_args_name_eq("localhost", host, len) || axon_mpirun_args_name_eq("127.0.0.1", host, len) ||
        axon_mpirun_args_name_eq("::1", host, len))
        return true;
    char self[HOST_NAME_MAX + 1];
    if (gethostname(self, sizeof(self)) != 0)
        return false;
    self[sizeof(self) - 1] = '\0';
    if (axon_mpirun_args_name_eq(self, host, len))
        return true;
    /* Our short name ("node1" of "node1.example.org") names us too. */
    size_t shortlen = strcspn(self, ".");
    return shortlen == len && strncasecmp(self, host, len) == 0;
}

/* One host entry: "name", "name:slots" (MPICH's machine files, Open MPI's --host), not "::1". */
static enum axon_mpirun_args_result axon_mpirun_args_check_host(const char *entry, size_t len, char *err,
                                                                size_t errlen)
{
    char host[1024];
    if (len >= sizeof(host))
        len = sizeof(host) - 1;
    memcpy(host, entry, len);
    host[len] = '\0';
    char *colon = strchr(host, ':');
    if (colon && colon != host && !strchr(colon + 1, ':'))
        *colon = '\0';
    if (host[0] == '\0' || axon_mpirun_args_host_is_local(host))
        return AXON_MPIRUN_ARGS_RUN;
    return axon_mpirun_args_fail(err, errlen,
                                 "mpirun: host '%s' is not this machine; Axon's mpirun starts jobs on one machine "
                                 "only. For a job across machines use Slurm: srun --mpi=pmix ...",
                                 host);
}

static enum axon_mpirun_args_result axon_mpirun_args_hosts(const char *list, char *err, size_t errlen)
{
    const char *p = list;
    while (*p) {
        size_t len = strcspn(p, ",");
        enum axon_mpirun_args_result r = axon_mpirun_args_check_host(p, len, err, errlen);
        if (r != AXON_MPIRUN_ARGS_RUN)
            return r;
        p += len;
        if (*p == ',')
            p++;
    }
    return AXON_MPIRUN_ARGS_RUN;
}

/* Host files: one host per line, its first word; '#' starts a comment; "slots=N" and the like follow. */
static enum axon_mpirun_args_result axon_mpirun_args_hostfile(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return axon_mpirun_args_fail(err, errlen, "mpirun: cannot read the host file '%s': %s", path,
                                     strerror(errno));
    enum axon_mpirun_args_result r = AXON_MPIRUN_ARGS_RUN;
    char *line = NULL;
    size_t cap = 0;
    while (r == AXON_MPIRUN_ARGS_RUN && getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "#")] = '\0';
        const char *word = line + strspn(line, " \t\r\n");
        size_t len = strcspn(word, " \t\r\n");
        if (len > 0)
            r = axon_mpirun_args_check_host(word, len, err, errlen);
    }
    if (r == AXON_MPIRUN_ARGS_RUN && ferror(f))
        r = axon_mpirun_args_fail(err, errlen, "mpirun: cannot read the host file '%s': %s", path,
                                  strerror(errno));
    free(line);
    fclose(f);
    return r;
}

/* --bind-to LEVEL[:QUALIFIER[,QUALIFIER]...]. Open MPI's qualifiers: if-supported (no warning when the
 * machine lacks the level) and report (as --report-bindings) matter here; the others (overload-allowed:
 * more ranks than objects are always allowed, ordered, MPICH's counts) are accepted and ignored. */
static enum axon_mpirun_args_result axon_mpirun_args_bind(struct axon_mpirun_options *opts, const char *opt,
                                                          const char *value, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        enum axon_mpirun_bind_level level;
    } levels[] = {{"none", AXON_MPIRUN_BIND_NONE},       {"hwthread", AXON_MPIRUN_BIND_HWTHREAD},
                  {"core", AXON_MPIRUN_BIND_CORE},       {"l1cache", AXON_MPIRUN_BIND_L1CACHE},
                  {"l2cache", AXON_MPIRUN_BIND_L2CACHE}, {"l3cache", AXON_MPIRUN_BIND_L3CACHE},
                  {"socket", AXON_MPIRUN_BIND_PACKAGE},  {"package", AXON_MPIRUN_BIND_PACKAGE},
                  {"numa", AXON_MPIRUN_BIND_NUMA},       {"board", AXON_MPIRUN_BIND_BOARD}};
    size_t len = strcspn(value, ":");
    size_t i = 0;
    while (i < AXON_ARRAY_SIZE(levels) && !axon_mpirun_args_name_eq(levels[i].name, value, len))
        i++;
    if (i == AXON_ARRAY_SIZE(levels))
        return axon_mpirun_args_fail(err, errlen,
                                     "mpirun: %s takes hwthread, core, l1cache, l2cache, l3cache, numa, socket, "
                                     "package, board or none, not '%s'",
                                     opt, value);
    opts->bind_to = levels[i].level;
    opts->bind_if_supported = false;
    for (const char *q = value + len; *q;) {
        q++; /* past the ':' or ',' */
        size_t qlen = strcspn(q, ":,");
        if (axon_mpirun_args_name_eq("if-supported", q, qlen))
            opts->bind_if_supported = true;
        else if (axon_mpirun_args_name_eq("report", q, qlen))
            opts->report_bindings = true;
        q += qlen;
    }
    return AXON_MPIRUN_ARGS_RUN;
}

static enum axon_mpirun_args_result axon_mpirun_args_count(const char *opt, const char *value, int *out,
                                                           char *err, size_t errlen)
{
    if (!axon_mpirun_args_positive(value, out))
        return axon_mpirun_args_fail(err, errlen, "mpirun: %s needs a positive integer, not '%s'", opt, value);
    return AXON_MPIRUN_ARGS_RUN;
}

/* Applies one recognised option with its values (v[0], v[1]; as many as the kind takes). */
static enum axon_mpirun_args_result axon_mpirun_args_apply(struct axon_mpirun_options *opts,
                                                           const struct axon_mpirun_opt *o, const char *const *v,
                                                           char *err, size_t errlen)
{
    switch (o->kind) {
    case AXON_OPT_NRANKS: return axon_mpirun_args_count(o->name, v[0], &opts->nranks, err, errlen);
    case AXON_OPT_PPN: return axon_mpirun_args_count(o->name, v[0], &opts->ppn, err, errlen);
    case AXON_OPT_TIMEOUT: return axon_mpirun_args_count(o->name, v[0], &opts->timeout, err, errlen);
    case AXON_OPT_EXPORT: return axon_mpirun_args_export(opts, o->name, v[0], err, errlen);
    case AXON_OPT_ENVLIST: return axon_mpirun_args_envlist(opts, o->name, v[0], err, errlen);
    case AXON_OPT_SETENV:
        if (!axon_mpirun_args_env_name_ok(v[0], strlen(v[0])))
            return axon_mpirun_args_fail(err, errlen, "mpirun: %s needs a variable name, not '%s'", o->name, v[0]);
        if (axon_mpirun_args_env_add(opts, v[0], strlen(v[0]), v[1]) != 0)
            return axon_mpirun_args_fail(err, errlen, "mpirun: out of memory");
        return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_TAG: opts->tag_output = true; return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_NOCLEANUP: opts->no_cleanup = true; return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_OVERSUB: opts->oversubscribe = true; return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_HELP: return AXON_MPIRUN_ARGS_HELP;
    case AXON_OPT_VERSION: return AXON_MPIRUN_ARGS_VERSION;
    case AXON_OPT_HOSTFILE: return axon_mpirun_args_hostfile(v[0], err, errlen);
    case AXON_OPT_HOST: return axon_mpirun_args_hosts(v[0], err, errlen);
    case AXON_OPT_WDIR:
        if (v[0][0] == '\0')
            return axon_mpirun_args_fail(err, errlen, "mpirun: %s needs a directory", o->name);
        opts->wdir = v[0];
        return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_BIND: return axon_mpirun_args_bind(opts, o->name, v[0], err, errlen);
    case AXON_OPT_REPORT: opts->report_bindings = true; return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_HWTHREADS: opts->hwthread_cpus = true; return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_MPS: opts->mps = true; return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_MEMKINDS:
        if (v[0][0] == '\0')
            return axon_mpirun_args_fail(err, errlen, "mpirun: %s needs a list of kinds (system,cuda:device)",
                                         o->name);
        if (axon_mpirun_args_env_add(opts, "AXON_MEMORY_ALLOC_KINDS", strlen("AXON_MEMORY_ALLOC_KINDS"), v[0]) != 0)
            return axon_mpirun_args_fail(err, errlen, "mpirun: out of memory");
        return AXON_MPIRUN_ARGS_RUN;
    case AXON_OPT_IGNORE0:
    case AXON_OPT_IGNORE1:
    case AXON_OPT_IGNORE2: return AXON_MPIRUN_ARGS_RUN;
    }
    return AXON_MPIRUN_ARGS_RUN;
}

/* The option at argv[*i]: finds it, gathers its values ("--name=value" or the next words), applies it
 * and advances *i past everything it used. */
static enum axon_mpirun_args_result axon_mpirun_args_option(struct axon_mpirun_options *opts, int argc,
                                                            char **argv, int *i, char *err, size_t errlen)
{
    const char *word = argv[*i];
    const char *eq = strchr(word, '=');
    size_t namelen = eq ? (size_t)(eq - word) : strlen(word);
    const struct axon_mpirun_opt *o = axon_mpirun_args_lookup(word, namelen);
    if (!o)
        return axon_mpirun_args_fail(err, errlen, "mpirun: unknown option '%s'; see mpirun --help", word);
    int need = axon_mpirun_opt_nvalues(o->kind);
    const char *v[2] = {NULL, NULL};
    int have = 0;
    if (eq) {
        if (need == 0)
            return axon_mpirun_args_fail(err, errlen, "mpirun: %s takes no value (got '%s')", o->name, word);
        v[have++] = eq + 1;
    }
    (*i)++;
    while (have < need) {
        if (*i >= argc)
            return axon_mpirun_args_fail(err, errlen, "mpirun: %s needs %s", o->name,
                                         need == 2 ? "two values" : "a value");
        v[have++] = argv[(*i)++];
    }
    return axon_mpirun_args_apply(opts, o, v, err, errlen);
}

/* MPIEXEC_TIMEOUT, the MPI standard's variable, when --timeout was not given; 0 or empty: no limit. */
static enum axon_mpirun_args_result axon_mpirun_args_env_timeout(struct axon_mpirun_options *opts, char *err,
                                                                 size_t errlen)
{
    const char *t = getenv("MPIEXEC_TIMEOUT");
    if (opts->timeout > 0 || !t || !*t || strcmp(t, "0") == 0)
        return AXON_MPIRUN_ARGS_RUN;
    if (!axon_mpirun_args_positive(t, &opts->timeout))
        return axon_mpirun_args_fail(err, errlen, "mpirun: MPIEXEC_TIMEOUT='%s' is not a number of seconds", t);
    return AXON_MPIRUN_ARGS_RUN;
}

/* AXON_MPIRUN_MPS, when --mps was not given: the library's boolean words; unset or empty: off. */
static enum axon_mpirun_args_result axon_mpirun_args_env_mps(struct axon_mpirun_options *opts, char *err,
                                                             size_t errlen)
{
    static const char *const yes[] = {"1", "yes", "on", "true", "y"};
    static const char *const no[] = {"0", "no", "off", "false", "n"};
    const char *v = getenv("AXON_MPIRUN_MPS");
    if (opts->mps || !v || !*v)
        return AXON_MPIRUN_ARGS_RUN;
    for (size_t i = 0; i < AXON_ARRAY_SIZE(yes); i++) {
        if (strcasecmp(v, yes[i]) == 0) {
            opts->mps = true;
            return AXON_MPIRUN_ARGS_RUN;
        }
        if (strcasecmp(v, no[i]) == 0)
            return AXON_MPIRUN_ARGS_RUN;
    }
    return axon_mpirun_args_fail(err, errlen, "mpirun: AXON_MPIRUN_MPS='%s' is not 1 or 0 (yes/no, on/off)", v);
}

/* The number of ranks from -n and -N, which on one machine mean the same. */
static enum axon_mpirun_args_result axon_mpirun_args_resolve_size(struct axon_mpirun_options *opts, char *err,
                                                                  size_t errlen)
{
    if (opts->nranks > 0 && opts->ppn > 0 && opts->nranks != opts->ppn)
        return axon_mpirun_args_fail(err, errlen,
                                     "mpirun: -n %d and %d ranks per node disagree; on one machine all ranks "
                                     "are on the one node",
                                     opts->nranks, opts->ppn);
    opts->nranks_given = opts->nranks > 0 || opts->ppn > 0;
    if (opts->nranks == 0)
        opts->nranks = opts->ppn > 0 ? opts->ppn : 1;
    return AXON_MPIRUN_ARGS_RUN;
}

enum axon_mpirun_args_result axon_mpirun_args_parse(int argc, char **argv, struct axon_mpirun_options *opts,
                                                    char *err, size_t errlen)
{
    memset(opts, 0, sizeof(*opts));
    if (errlen > 0)
        err[0] = '\0';
    int i = 1;
    while (i < argc && argv[i][0] == '-') {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        enum axon_mpirun_args_result r = axon_mpirun_args_option(opts, argc, argv, &i, err, errlen);
        if (r != AXON_MPIRUN_ARGS_RUN)
            return r;
    }
    if (i >= argc || argv[i][0] == '\0')
        return axon_mpirun_args_fail(err, errlen, "mpirun: no program to run; see mpirun --help");
    opts->prog_argc = argc - i;
    opts->prog_argv = argv + i;
    enum axon_mpirun_args_result r = axon_mpirun_args_env_timeout(opts, err, errlen);
    if (r == AXON_MPIRUN_ARGS_RUN)
        r = axon_mpirun_args_env_mps(opts, err, errlen);
    if (r != AXON_MPIRUN_ARGS_RUN)
        return r;
    return axon_mpirun_args_resolve_size(opts, err, errlen);
}

void axon_mpirun_args_free(struct axon_mpirun_options *opts)
{
    for (size_t i = 0; i < opts->nenv; i++) {
        free(opts->env[i].name);
        free(opts->env[i].value);
    }
    free(opts->env);
    opts->env = NULL;
    opts->nenv = 0;
}
