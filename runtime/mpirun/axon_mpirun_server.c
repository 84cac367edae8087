/* mpirun's PMIx server: libpmix's server side for one job on one machine. It makes a private temp
 * directory for libpmix's rendezvous files, registers the job's namespace (a secret name, so that only the
 * job's own processes can connect) with everything the ranks ask for at MPI_Init (sizes, local ranks,
 * node ids, host name), registers each rank and gives it the PMIx variables it needs, and answers the ranks' calls through a small callback module: fences return the
 * collected data at once (every participant is local), and connect, finalize and abort are passed to the
 * event loop as records on a pipe, because the callbacks run on libpmix's progress thread. */
#include "axon_mpirun.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pmix.h>
#include <pmix_server.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The callbacks find the job here; there is one server per mpirun. */
static struct axon_mpirun_server *axon_mpirun_server_self;

__attribute__((format(printf, 3, 4))) static int axon_mpirun_server_fail(char *err, size_t errlen,
                                                                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- callbacks: they run on libpmix's progress thread ------------------------------------------ */

static int axon_mpirun_server_rank_of(const pmix_proc_t *proc)
{
    struct axon_mpirun_server *srv = axon_mpirun_server_self;
    if (!srv || !proc || strncmp(proc->nspace, srv->nspace, PMIX_MAX_NSLEN) != 0)
        return -1;
    if (proc->rank >= (pmix_rank_t)srv->nranks)
        return -1;
    return (int)proc->rank;
}

/* One record to the event loop. Records are smaller than PIPE_BUF, so each write is whole; the write
 * end blocks, so none is lost while the loop is busy. */
static void axon_mpirun_server_post(int type, int rank, int code, int peer, const char *message)
{
    struct axon_mpirun_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.type = type;
    ev.rank = rank;
    ev.code = code;
    ev.peer = peer;
    if (message)
        snprintf(ev.message, sizeof(ev.message), "%s", message);
    ssize_t n;
    do {
        n = write(axon_mpirun_server_self->event_fd, &ev, sizeof(ev));
    } while (n < 0 && errno == EINTR);
}

/* Is the rank's process alive and not on its way out? A rank blocked in PMIx_Finalize is; one whose
 * connection closed because it exited is not (PF_EXITING is set before its files are closed). */
static bool axon_mpirun_server_rank_running(int rank)
{
    pid_t pid = atomic_load(&axon_mpirun_server_self->pids[rank]);
    if (pid <= 0)
        return false;
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 || si.si_pid != 0)
        return false; /* reaped already, or a zombie */
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t len = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[len] = '\0';
    /* "pid (comm) state ppid pgrp session tty tpgid flags ...": comm may hold anything, so start after
     * its last ')'. */
    char *p = strrchr(buf, ')');
    char state;
    unsigned long flags;
    if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
        return true;
    const unsigned long pf_exiting = 0x4;
    return state != 'Z' && state != 'X' && !(flags & pf_exiting);
}

static pmix_status_t axon_mpirun_server_connected(const pmix_proc_t *proc, void *server_object,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    int rank = axon_mpirun_server_rank_of(proc);
    if (rank >= 0)
        axon_mpirun_server_post(AXON_MPIRUN_EVENT_CONNECTED, rank, 0, -1, NULL);
    /* The record is written before the rank is let go, so the loop learns of it before the rank can end. */
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static pmix_status_t axon_mpirun_server_connected2(const pmix_proc_t *proc, void *server_object,
                                                   pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                   void *cbdata)
{
    (void)info;
    (void)ninfo;
    return axon_mpirun_server_connected(proc, server_object, cbfunc, cbdata);
}

/* Some libpmix versions also call this when a client's connection is lost without PMIx_Finalize; only
 * a rank that is still running (blocked in PMIx_Finalize, waiting for our answer) finalized. */
static pmix_status_t axon_mpirun_server_finalized(const pmix_proc_t *proc, void *server_object,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    int rank = axon_mpirun_server_rank_of(proc);
    if (rank >= 0 && axon_mpirun_server_rank_running(rank))
        axon_mpirun_server_post(AXON_MPIRUN_EVENT_FINALIZED, rank, 0, -1, NULL);
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static pmix_status_t axon_mpirun_server_abort(const pmix_proc_t *proc, void *server_object, int status,
                                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)server_object;
    /* Whatever subset was named, an abort ends the whole job here. One other rank of the job named alone
     * is an Axon rank's report that it lost that one (axon_runtime_bootstrap_abort_lost): the loop
     * gives the lost rank's own end the first word. */
    int rank = axon_mpirun_server_rank_of(proc);
    int peer = nprocs == 1 ? axon_mpirun_server_rank_of(&procs[0]) : -1;
    if (peer == rank)
        peer = -1;
    if (rank >= 0)
        axon_mpirun_server_post(AXON_MPIRUN_EVENT_ABORT, rank, status, peer, msg);
    if (cbfunc)
        cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static void axon_mpirun_server_release_copy(void *cbdata)
{
    free(cbdata);
}

/* Every participant of a fence is on this machine, so libpmix has all their contributions already: the
 * data handed to us is the whole result. libpmix owns `data`; we answer with our own copy, released by
 * libpmix through the release function when it is done with it. */
static pmix_status_t axon_mpirun_server_fence(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                                              void *cbdata)
{
    (void)procs;
    (void)nprocs;
    (void)info;
    (void)ninfo;
    char *copy = NULL;
    if (ndata > 0) {
        copy = malloc(ndata);
        if (!copy)
            return PMIX_ERR_NOMEM;
        memcpy(copy, data, ndata);
    }
    cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, copy ? axon_mpirun_server_release_copy : NULL, copy);
    return PMIX_SUCCESS;
}

static pmix_server_module_t axon_mpirun_server_module = {
    .client_connected = axon_mpirun_server_connected,
    .client_connected2 = axon_mpirun_server_connected2,
    .client_finalized = axon_mpirun_server_finalized,
    .abort = axon_mpirun_server_abort,
    .fence_nb = axon_mpirun_server_fence,
    /* no direct_modex: with one machine every rank's data is in our own store */
};

/* ---- waiting for libpmix's non-blocking registration calls ------------------------------------- */

struct axon_mpirun_server_wait {
    atomic_int done;
    pmix_status_t status;
};

static void axon_mpirun_server_op_done(pmix_status_t status, void *cbdata)
{
    struct axon_mpirun_server_wait *w = cbdata;
    w->status = status;
    atomic_store(&w->done, 1);
}

/* rc is what the call returned: PMIX_SUCCESS means the callback will come. */
static pmix_status_t axon_mpirun_server_wait_for(pmix_status_t rc, struct axon_mpirun_server_wait *w)
{
    if (rc == PMIX_OPERATION_SUCCEEDED)
        return PMIX_SUCCESS;
    if (rc != PMIX_SUCCESS)
        return rc;
    while (!atomic_load(&w->done)) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    return w->status;
}

/* ---- the temp directory -------------------------------------------------------------------------- */

static int axon_mpirun_server_remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path); /* keep going: remove as much as we can */
    return 0;
}

int axon_mpirun_server_remove_tree(const char *path)
{
    return nftw(path, axon_mpirun_server_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int axon_mpirun_server_make_tmpdir(struct axon_mpirun_server *srv, char *err, size_t errlen)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    int n = snprintf(srv->tmpdir, sizeof(srv->tmpdir), "%s/axon-mpirun.XXXXXX", base);
    if (n < 0 || (size_t)n >= sizeof(srv->tmpdir))
        return axon_mpirun_server_fail(err, errlen, "mpirun: the temp directory name is too long (TMPDIR=%s)",
                                       base);
    if (!mkdtemp(srv->tmpdir)) {
        int e = errno;
        srv->tmpdir[0] = '\0';
        return axon_mpirun_server_fail(err, errlen, "mpirun: cannot make a temp directory in %s: %s", base,
                                       strerror(e));
    }
    return 0;
}

/* UCX's shared-memory transport makes its files in /dev/shm and removes each name only once it has
 * written the whole segment: a rank killed meanwhile (in MPI_Init, say) leaves its file there, under a
 * name that says nothing of whose it is. The ranks make them in a directory of the job's instead
 * (UCX_POSIX_DIR; still in /dev/shm, so the same memory), which goes with the job whatever happens to the
 * ranks. A user's own UCX_POSIX_DIR stands; without /dev/shm UCX keeps its default. */
static void axon_mpirun_server_make_ucx_dir(struct axon_mpirun_server *srv)
{
    srv->ucx_dir[0] = '\0';
    if (getenv("UCX_POSIX_DIR"))
        return;
    snprintf(srv->ucx_dir, sizeof(srv->ucx_dir), "/dev/shm/axon-ucx-%d-XXXXXX", (int)getpid());
    if (!mkdtemp(srv->ucx_dir)) {
        srv->ucx_dir[0] = '\0';
        return;
    }
    setenv("UCX_POSIX_DIR", srv->ucx_dir, 1);
}

/* ---- libpmix's own messages ----------------------------------------------------------------------- */

/* libpmix writes its diagnostics to a descriptor of our choosing (PMIX_OUTPUT_STDERR_FD, read at init):
 * a copy of stderr, so they can be silenced once we kill ranks on purpose (a rank killed while it
 * connects makes libpmix print "PMIX ERROR: UNREACHABLE"), while our own message still goes out. */
static void axon_mpirun_server_diag_setup(struct axon_mpirun_server *srv)
{
    srv->diag_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
    if (srv->diag_fd < 0)
        return;
    char text[16];
    snprintf(text, sizeof(text), "%d", srv->diag_fd);
    setenv("PMIX_OUTPUT_STDERR_FD", text, 1);
}

void axon_mpirun_server_quiet(struct axon_mpirun_server *srv)
{
    if (srv->diag_fd < 0)
        return;
    int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (nul >= 0) {
        dup3(nul, srv->diag_fd, O_CLOEXEC);
        close(nul);
    }
}

/* ---- starting the server and registering the job ----------------------------------------------- */

static pmix_status_t axon_mpirun_server_init_pmix(struct axon_mpirun_server *srv)
{
    void *list = PMIx_Info_list_start();
    bool no = false;
    PMIx_Info_list_add(list, PMIX_SERVER_TMPDIR, srv->tmpdir, PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_SYSTEM_TMPDIR, srv->tmpdir, PMIX_STRING);
    /* A private server for one job: no system-wide rendezvous, no tools, nothing from other machines. */
    PMIx_Info_list_add(list, PMIX_SERVER_SYSTEM_SUPPORT, &no, PMIX_BOOL);
    PMIx_Info_list_add(list, PMIX_SERVER_SESSION_SUPPORT, &no, PMIX_BOOL);
    PMIx_Info_list_add(list, PMIX_SERVER_TOOL_SUPPORT, &no, PMIX_BOOL);
    PMIx_Info_list_add(list, PMIX_SERVER_REMOTE_CONNECTIONS, &no, PMIX_BOOL);
    pmix_data_array_t arr;
    pmix_status_t rc = PMIx_Info_list_convert(list, &arr);
    PMIx_Info_list_release(list);
    if (rc != PMIX_SUCCESS)
        return rc;
    rc = PMIx_server_init(&axon_mpirun_server_module, arr.array, arr.size);
    PMIx_Data_array_destruct(&arr);
    return rc;
}

static void axon_mpirun_server_add_u32(void *list, const char *key, uint32_t v)
{
    PMIx_Info_list_add(list, key, &v, PMIX_UINT32);
}

static void axon_mpirun_server_add_rank(void *list, const char *key, pmix_rank_t v)
{
    PMIx_Info_list_add(list, key, &v, PMIX_PROC_RANK);
}

static void axon_mpirun_server_add_u16(void *list, const char *key, uint16_t v)
{
    PMIx_Info_list_add(list, key, &v, PMIX_UINT16);
}

/* Adds an array of pmix_info_t built in `sub` under `key`, and releases `sub`. */
static pmix_status_t axon_mpirun_server_add_array(void *list, const char *key, void *sub)
{
    pmix_data_array_t arr;
    pmix_status_t rc = PMIx_Info_list_convert(sub, &arr);
    PMIx_Info_list_release(sub);
    if (rc != PMIX_SUCCESS)
        return rc;
    rc = PMIx_Info_list_add(list, key, &arr, PMIX_DATA_ARRAY);
    PMIx_Data_array_destruct(&arr);
    return rc;
}

/* "0,1,...,n-1": the ranks on this node, which are all of them. */
static char *axon_mpirun_server_peers(int nranks)
{
    size_t cap = (size_t)nranks * 12 + 1;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t used = 0;
    s[0] = '\0';
    for (int r = 0; r < nranks; r++)
        used += (size_t)snprintf(s + used, cap - used, r ? ",%d" : "%d", r);
    return s;
}

/* PMIx's compact node and process maps: one node, holding every rank. The process map wants the ranks
 * listed ("0,1,2"): this libpmix reads a range ("0-2") as one rank. Optional for our own clients, but
 * other PMIx clients expect them. */
static void axon_mpirun_server_add_maps(void *list, const char *host, const char *peers)
{
    char *regex = NULL, *ppn = NULL;
    if (PMIx_generate_regex(host, &regex) == PMIX_SUCCESS && regex)
        PMIx_Info_list_add(list, PMIX_NODE_MAP, regex, PMIX_REGEX);
    if (PMIx_generate_ppn(peers, &ppn) == PMIX_SUCCESS && ppn)
        PMIx_Info_list_add(list, PMIX_PROC_MAP, ppn, PMIX_REGEX);
    free(regex);
    free(ppn);
}

static pmix_status_t axon_mpirun_server_add_node(void *list, const char *host, const char *peers, int nranks)
{
    void *node = PMIx_Info_list_start();
    axon_mpirun_server_add_u32(node, PMIX_NODEID, 0);
    PMIx_Info_list_add(node, PMIX_HOSTNAME, host, PMIX_STRING);
    axon_mpirun_server_add_u32(node, PMIX_LOCAL_SIZE, (uint32_t)nranks);
    axon_mpirun_server_add_u32(node, PMIX_NODE_SIZE, (uint32_t)nranks);
    PMIx_Info_list_add(node, PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    axon_mpirun_server_add_rank(node, PMIX_LOCALLDR, 0);
    return axon_mpirun_server_add_array(list, PMIX_NODE_INFO_ARRAY, node);
}

static pmix_status_t axon_mpirun_server_add_app(void *list, int nranks)
{
    void *app = PMIx_Info_list_start();
    axon_mpirun_server_add_u32(app, PMIX_APPNUM, 0);
    axon_mpirun_server_add_u32(app, PMIX_APP_SIZE, (uint32_t)nranks);
    axon_mpirun_server_add_rank(app, PMIX_APPLDR, 0);
    return axon_mpirun_server_add_array(list, PMIX_APP_INFO_ARRAY, app);
}

/* Per rank: its ranks (global, local, on the node), app and node. PMIx wants PMIX_RANK first. */
static pmix_status_t axon_mpirun_server_add_proc(void *list, const char *host, int rank)
{
    void *proc = PMIx_Info_list_start();
    axon_mpirun_server_add_rank(proc, PMIX_RANK, (pmix_rank_t)rank);
    axon_mpirun_server_add_u16(proc, PMIX_LOCAL_RANK, (uint16_t)rank);
    axon_mpirun_server_add_u16(proc, PMIX_NODE_RANK, (uint16_t)rank);
    axon_mpirun_server_add_rank(proc, PMIX_GLOBAL_RANK, (pmix_rank_t)rank);
    axon_mpirun_server_add_rank(proc, PMIX_APP_RANK, (pmix_rank_t)rank);
    axon_mpirun_server_add_u32(proc, PMIX_APPNUM, 0);
    axon_mpirun_server_add_u32(proc, PMIX_NODEID, 0);
    PMIx_Info_list_add(proc, PMIX_HOSTNAME, host, PMIX_STRING);
    return axon_mpirun_server_add_array(list, PMIX_PROC_INFO_ARRAY, proc);
}

static pmix_status_t axon_mpirun_server_job_info(void *list, const struct axon_mpirun_server *srv,
                                                 const char *host, const char *peers)
{
    uint32_t n = (uint32_t)srv->nranks;
    PMIx_Info_list_add(list, PMIX_JOBID, srv->nspace, PMIX_STRING);
    axon_mpirun_server_add_u32(list, PMIX_JOB_SIZE, n);
    axon_mpirun_server_add_u32(list, PMIX_UNIV_SIZE, n);
    axon_mpirun_server_add_u32(list, PMIX_MAX_PROCS, n);
    axon_mpirun_server_add_u32(list, PMIX_LOCAL_SIZE, n);
    axon_mpirun_server_add_u32(list, PMIX_NODE_SIZE, n);
    axon_mpirun_server_add_u32(list, PMIX_NUM_NODES, 1);
    axon_mpirun_server_add_u32(list, PMIX_JOB_NUM_APPS, 1);
    axon_mpirun_server_add_u32(list, PMIX_NODEID, 0);
    axon_mpirun_server_add_rank(list, PMIX_LOCALLDR, 0);
    PMIx_Info_list_add(list, PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIx_Info_list_add(list, PMIX_HOSTNAME, host, PMIX_STRING);
    axon_mpirun_server_add_maps(list, host, peers);
    pmix_status_t rc = axon_mpirun_server_add_node(list, host, peers, srv->nranks);
    if (rc == PMIX_SUCCESS)
        rc = axon_mpirun_server_add_app(list, srv->nranks);
    for (int r = 0; r < srv->nranks && rc == PMIX_SUCCESS; r++)
        rc = axon_mpirun_server_add_proc(list, host, r);
    return rc;
}

static pmix_status_t axon_mpirun_server_register_job(struct axon_mpirun_server *srv)
{
    char host[HOST_NAME_MAX + 1];
    if (gethostname(host, sizeof(host)) != 0)
        snprintf(host, sizeof(host), "localhost");
    host[sizeof(host) - 1] = '\0';
    char *peers = axon_mpirun_server_peers(srv->nranks);
    if (!peers)
        return PMIX_ERR_NOMEM;
    void *list = PMIx_Info_list_start();
    pmix_status_t rc = axon_mpirun_server_job_info(list, srv, host, peers);
    free(peers);
    pmix_data_array_t arr = {0};
    if (rc == PMIX_SUCCESS)
        rc = PMIx_Info_list_convert(list, &arr);
    PMIx_Info_list_release(list);
    if (rc != PMIX_SUCCESS)
        return rc;
    struct axon_mpirun_server_wait w = {.done = 0, .status = PMIX_SUCCESS};
    rc = PMIx_server_register_nspace(srv->nspace, srv->nranks, arr.array, arr.size,
                                     axon_mpirun_server_op_done, &w);
    rc = axon_mpirun_server_wait_for(rc, &w);
    PMIx_Data_array_destruct(&arr);
    return rc;
}

/* The job's namespace is its secret. libpmix listens on TCP loopback, open to every local user, and its
 * native security believes the uid a client reports, so a client is as good as the namespace it names:
 * "axon.<pid>-<128 random bits>" cannot be guessed, and only the ranks hold it (in their environment,
 * which no other user may read). libpmix turns a client of an unknown namespace away before anything
 * else, and cleanly; refusing one that named a registered rank would take its error path, which in
 * libpmix 4.2 releases that rank's record twice. */
static int axon_mpirun_server_name_job(struct axon_mpirun_server *srv, char *err, size_t errlen)
{
    unsigned char r[16];
    size_t got = 0;
    while (got < sizeof(r)) {
        ssize_t n = getrandom(r + got, sizeof(r) - got, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return axon_mpirun_server_fail(err, errlen, "mpirun: no random bytes for the job's name: %s",
                                           strerror(errno));
        got += (size_t)n;
    }
    int len = snprintf(srv->nspace, sizeof(srv->nspace), "axon.%d-", (int)getpid());
    for (size_t i = 0; i < sizeof(r); i++)
        len += snprintf(srv->nspace + len, sizeof(srv->nspace) - (size_t)len, "%02x", r[i]);
    return 0;
}

int axon_mpirun_server_start(struct axon_mpirun_server *srv, int nranks, int event_fd, char *err, size_t errlen)
{
    memset(srv, 0, sizeof(*srv));
    srv->diag_fd = -1;
    srv->nranks = nranks;
    srv->event_fd = event_fd;
    if (axon_mpirun_server_name_job(srv, err, errlen) != 0)
        return -1;
    srv->pids = calloc((size_t)nranks, sizeof(*srv->pids));
    if (!srv->pids)
        return axon_mpirun_server_fail(err, errlen, "mpirun: out of memory for %d ranks", nranks);
    axon_mpirun_server_self = srv;
    if (axon_mpirun_server_make_tmpdir(srv, err, errlen) != 0)
        return -1;
    axon_mpirun_server_make_ucx_dir(srv);
    /* gds/hash keeps the job's data in memory; the shared-memory stores would leave files behind if we
     * were killed. The ranks inherit the choice, so both sides agree. */
    setenv("PMIX_MCA_gds", "hash", 0);
    axon_mpirun_server_diag_setup(srv);
    pmix_status_t rc = axon_mpirun_server_init_pmix(srv);
    if (rc != PMIX_SUCCESS)
        return axon_mpirun_server_fail(err, errlen, "mpirun: PMIx_server_init failed: %s", PMIx_Error_string(rc));
    srv->up = true;
    rc = axon_mpirun_server_register_job(srv);
    if (rc != PMIX_SUCCESS)
        return axon_mpirun_server_fail(err, errlen, "mpirun: cannot register the job with PMIx: %s",
                                       PMIx_Error_string(rc));
    return 0;
}

int axon_mpirun_server_rank_setup(struct axon_mpirun_server *srv, int rank, char ***env, char *err, size_t errlen)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, srv->nspace, (pmix_rank_t)rank);
    struct axon_mpirun_server_wait w = {.done = 0, .status = PMIX_SUCCESS};
    pmix_status_t rc = PMIx_server_register_client(&proc, getuid(), getgid(), NULL, axon_mpirun_server_op_done, &w);
    rc = axon_mpirun_server_wait_for(rc, &w);
    if (rc != PMIX_SUCCESS)
        return axon_mpirun_server_fail(err, errlen, "mpirun: cannot register rank %d with PMIx: %s", rank,
                                       PMIx_Error_string(rc));
    rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS)
        return axon_mpirun_server_fail(err, errlen, "mpirun: PMIx cannot set up rank %d: %s", rank,
                                       PMIx_Error_string(rc));
    return 0;
}

void axon_mpirun_server_rank_started(struct axon_mpirun_server *srv, int rank, pid_t pid)
{
    atomic_store(&srv->pids[rank], pid);
}

void axon_mpirun_server_env_free(char **env)
{
    if (!env)
        return;
    for (char **e = env; *e; e++)
        free(*e);
    free(env);
}

bool axon_mpirun_server_stop(struct axon_mpirun_server *srv, bool finalize)
{
    bool finalized = !srv->up;
    if (srv->up && finalize) {
        PMIx_server_finalize();
        srv->up = false;
        finalized = true;
    }
    if (srv->tmpdir[0]) {
        axon_mpirun_server_remove_tree(srv->tmpdir);
        srv->tmpdir[0] = '\0';
    }
    if (srv->ucx_dir[0]) {
        axon_mpirun_server_remove_tree(srv->ucx_dir);
        srv->ucx_dir[0] = '\0';
    }
    if (finalized) {
        if (srv->diag_fd >= 0)
            close(srv->diag_fd);
        srv->diag_fd = -1;
        axon_mpirun_server_self = NULL;
        free((void *)srv->pids);
        srv->pids = NULL;
    }
    return finalized;
}
