/* The sessions model of MPI 4: MPI_Session_init and _finalize, the process sets, a session's info and
 * error handler, and MPI_Group_from_session_pset. Communicators come from the groups through
 * MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups (axon_mpi_comm_from_group.c).
 *
 * A session is a handle (0xb8000000 | index, MPICH's direct-handle form for its session kind) to a
 * small record: its error handler and the thread level it got. The first session (or MPI_Init) brings
 * the library up (axon_mpi_library_up); the library stays up while a session lives or the world model
 * is active. When the last session ends and the world model never started, the library stays up all the
 * same, so that a later MPI_Session_init (or MPI_Init) finds it, and goes down at the process's exit; after
 * MPI_Finalize it goes down with the last session. A library that went down cannot start again.
 *
 * Two process sets exist, as the standard requires: "mpi://WORLD" (every process of the job) and
 * "mpi://SELF"; their names are matched without regard to case. A group from a process set remembers its
 * session, and so do the groups and communicators made from it (axon_group.session, axon_comm.session):
 * a session's buffer for buffered sends (MPI 4.1's MPI_Session_attach_buffer, below; the buffer object is
 * mpi/pt2pt/axon_mpi_bsend.c's) serves the communicators that derive from it and have none of their own. */
#include "mpi/axon_mpi.h"
#include "mpi/pt2pt/axon_mpi_bsend.h"
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/runtime.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define AXON_SESSION_DIRECT 0xb8000000u
#define AXON_SESSION_MAX 4096

struct axon_session {
    MPI_Session handle;
    MPI_Errhandler errhandler;
    int thread_level;
    struct axon_bsend_buffer *bsend; /* MPI_Session_attach_buffer's, or NULL (under mpi/pt2pt/axon_mpi_bsend.c's lock) */
    char memkinds[MPI_MAX_INFO_VAL]; /* its "mpi_memory_alloc_kinds": what its info asked for, as supported */
};

static struct axon_session *axon_sessions[AXON_SESSION_MAX];
static pthread_mutex_t axon_session_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const axon_psets[] = {"mpi://WORLD", "mpi://SELF"};
enum { AXON_PSETS = 2 };

static struct axon_session *axon_session_get(MPI_Session handle, unsigned *index)
{
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_SESSION_DIRECT || (h & 0x03ffffffu) >= AXON_SESSION_MAX)
        return NULL;
    pthread_mutex_lock(&axon_session_lock);
    struct axon_session *s = axon_sessions[h & 0x03ffffffu];
    pthread_mutex_unlock(&axon_session_lock);
    if (index)
        *index = h & 0x03ffffffu;
    return s;
}

/* An error of a call on session s (NULL: an invalid session, so the handler of errors on no object when the world
 * model is active, else MPI_ERRORS_ARE_FATAL). */
static int axon_session_error(const struct axon_session *s, MPI_Session handle, const char *func, int errclass,
                              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int axon_session_error(const struct axon_session *s, MPI_Session handle, const char *func, int errclass,
                              const char *fmt, ...)
{
    char detail[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    if (!s) {
        if (atomic_load(&axon_mpi_state.world) == AXON_MPI_PHASE_ACTIVE)
            return axon_mpi_error(NULL, func, errclass, "%s", detail);
        return axon_mpi_error_with(MPI_ERRORS_ARE_FATAL, MPI_SESSION_NULL, NULL, func, errclass, "%s", detail);
    }
    return axon_mpi_error_with(s->errhandler, handle, "a session", func, errclass, "%s", detail);
}

#define AXON_SESSION_CHECK(func, handle, s)                                                          \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        if (!((s) = axon_session_get((handle), NULL)))                                               \
            return axon_session_error(NULL, (handle), (func), MPI_ERR_SESSION, "invalid session %s",  \
                                      AXON_MPI_HANDLE_NAME(handle));                                 \
    } while (0)

/* The index of a process set's name, or -1. */
static int axon_pset_find(const char *name)
{
    for (int i = 0; name && i < AXON_PSETS; i++)
        if (strcasecmp(name, axon_psets[i]) == 0)
            return i;
    return -1;
}

static const char *axon_thread_level_name(int level)
{
    static const char *const names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                        "MPI_THREAD_MULTIPLE"};
    return level >= MPI_THREAD_SINGLE && level <= MPI_THREAD_MULTIPLE ? names[level] : "MPI_THREAD_SINGLE";
}

/* At the process's exit, when only sessions ever used the library and the last of them ended: take it
 * down in step with the other processes, as MPI_Finalize would. A session still live means the program
 * did not end it: nothing is done, and the launcher reports the rank (as one that skips MPI_Finalize). */
static pid_t axon_session_pid; /* the process that registered the handler: a forked child's exit leaves
                                * the parent's library alone */

static void axon_session_at_exit(void)
{
    if (getpid() != axon_session_pid)
        return;
    pthread_mutex_lock(&axon_mpi_init_lock);
    if (atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_ACTIVE && axon_mpi_state.sessions == 0 &&
        atomic_load(&axon_mpi_state.world) != AXON_MPI_PHASE_ACTIVE)
        axon_mpi_library_down();
    pthread_mutex_unlock(&axon_mpi_init_lock);
}

AXON_MPI_WEAK(Session_init)
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    static const char func[] = "MPI_Session_init";
    /* Before anything is up, the handler given is the one to report to (MPI_ERRHANDLER_NULL: fatal). */
    MPI_Errhandler eh = errhandler == MPI_ERRHANDLER_NULL ? MPI_ERRORS_ARE_FATAL : errhandler;
    if (!axon_mpi_errhandler_get(eh))
        return axon_mpi_error_with(MPI_ERRORS_ARE_FATAL, MPI_SESSION_NULL, NULL, func, MPI_ERR_ERRHANDLER,
                                   "invalid error handler %s", AXON_MPI_HANDLE_NAME(errhandler));
    if (!session)
        return axon_mpi_error_with(eh, MPI_SESSION_NULL, NULL, func, MPI_ERR_ARG, "session is a NULL pointer");
    *session = MPI_SESSION_NULL; /* what an error below leaves */
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error_with(eh, MPI_SESSION_NULL, NULL, func, MPI_ERR_INFO, "invalid info object %s",
                                   AXON_MPI_HANDLE_NAME(info));
    /* The thread level asked for (the info key "thread_level"); without one, the library's when it is
     * up (a program that asked MPI_Init_thread for MULTIPLE has it in its sessions too, as in MPICH),
     * else single. */
    int level = atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_ACTIVE ? axon_mpi_state.thread_level
                                                                             : MPI_THREAD_SINGLE;
    if (info != MPI_INFO_NULL) {
        char value[64];
        int len = (int)sizeof(value), flag = 0;
        if (PMPI_Info_get_string(info, "thread_level", &len, value, &flag) == MPI_SUCCESS && flag) {
            int found = -1;
            for (int l = MPI_THREAD_SINGLE; l <= MPI_THREAD_MULTIPLE; l++)
                if (strcasecmp(value, axon_thread_level_name(l)) == 0)
                    found = l;
            if (found < 0)
                return axon_mpi_error_with(eh, MPI_SESSION_NULL, NULL, func, MPI_ERR_INFO_VALUE,
                                           "thread_level \"%s\" is none of MPI_THREAD_SINGLE, _FUNNELED, "
                                           "_SERIALIZED, _MULTIPLE", value);
            level = found;
        }
    }
    /* The memory allocation kinds asked for (MPI 4.1): the info's, else those asked for at launch. */
    char requested[MPI_MAX_INFO_VAL];
    bool asked = false;
    if (info != MPI_INFO_NULL) {
        int len = (int)sizeof(requested), flag = 0;
        asked = PMPI_Info_get_string(info, AXON_MPI_MEMKINDS_KEY, &len, requested, &flag) == MPI_SUCCESS && flag;
    }
    struct axon_session *s = calloc(1, sizeof(*s));
    if (!s)
        return axon_mpi_error_with(eh, MPI_SESSION_NULL, NULL, func, MPI_ERR_NO_MEM, "out of memory");

    pthread_mutex_lock(&axon_mpi_init_lock);
    bool was_up = atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_ACTIVE;
    if (axon_mpi_library_up(func, level) != MPI_SUCCESS) {
        pthread_mutex_unlock(&axon_mpi_init_lock);
        free(s);
        return axon_mpi_error_with(eh, MPI_SESSION_NULL, NULL, func, MPI_ERR_OTHER,
                                   "MPI was finalized in this process and cannot start again");
    }
    static bool at_exit_set;
    if (!was_up && !at_exit_set && atomic_load(&axon_mpi_state.world) == AXON_MPI_PHASE_PRE_INIT) {
        axon_session_pid = getpid();
        at_exit_set = atexit(axon_session_at_exit) == 0;
    }
    axon_mpi_state.sessions++;
    pthread_mutex_unlock(&axon_mpi_init_lock);

    /* The level there is: a library already up has its own. */
    s->thread_level = level > axon_mpi_state.thread_level ? axon_mpi_state.thread_level : level;
    /* Resolved now the library is up: whether CUDA support is on decides the "cuda" kind. */
    if (asked)
        axon_mpi_memkinds_resolve(requested, s->memkinds, sizeof(s->memkinds));
    else
        axon_mpi_memkinds_world(s->memkinds, sizeof(s->memkinds));
    s->errhandler = eh;
    axon_mpi_errhandler_retain(eh);
    pthread_mutex_lock(&axon_session_lock);
    int index = -1;
    for (int i = 0; i < AXON_SESSION_MAX && index < 0; i++)
        if (!axon_sessions[i])
            index = i;
    if (index >= 0)
        axon_sessions[index] = s;
    pthread_mutex_unlock(&axon_session_lock);
    if (index < 0) {
        axon_mpi_errhandler_release(eh);
        free(s);
        pthread_mutex_lock(&axon_mpi_init_lock);
        axon_mpi_state.sessions--;
        pthread_mutex_unlock(&axon_mpi_init_lock);
        return axon_mpi_error_with(eh, MPI_SESSION_NULL, NULL, func, MPI_ERR_INTERN,
                                   "more than %d sessions exist at once", AXON_SESSION_MAX);
    }
    *session = (MPI_Session)(AXON_SESSION_DIRECT | (unsigned)index);
    s->handle = *session;
    axon_runtime_log_debug(1, "session 0x%x made (%s)", (unsigned)*session, axon_thread_level_name(s->thread_level));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_finalize)
int PMPI_Session_finalize(MPI_Session *session)
{
    static const char func[] = "MPI_Session_finalize";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!session)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "session is a NULL pointer");
    unsigned index;
    struct axon_session *s = axon_session_get(*session, &index);
    if (!s)
        return axon_session_error(NULL, *session, func, MPI_ERR_SESSION, "invalid session %s",
                                  AXON_MPI_HANDLE_NAME(*session));
    /* A buffer still attached has its messages sent and is forgotten (as detach would), before the session
     * it hangs on goes. */
    axon_mpi_bsend_session_free(s);
    pthread_mutex_lock(&axon_session_lock);
    axon_sessions[index] = NULL;
    pthread_mutex_unlock(&axon_session_lock);
    axon_mpi_errhandler_release(s->errhandler);
    free(s);
    *session = MPI_SESSION_NULL;

    pthread_mutex_lock(&axon_mpi_init_lock);
    int rc = MPI_SUCCESS;
    /* After MPI_Finalize, the last session takes the library down; before MPI_Init (or without it), the
     * library waits for the next session or the process's exit (axon_session_at_exit). */
    if (--axon_mpi_state.sessions == 0 && atomic_load(&axon_mpi_state.world) == AXON_MPI_PHASE_FINALIZED)
        rc = axon_mpi_library_down();
    pthread_mutex_unlock(&axon_mpi_init_lock);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error_with(MPI_ERRORS_ARE_FATAL, MPI_SESSION_NULL, NULL, func, rc,
                                   "the transport did not shut down cleanly");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_get_num_psets)
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    static const char func[] = "MPI_Session_get_num_psets";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_session_error(s, session, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    if (!npset_names)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "npset_names is a NULL pointer");
    *npset_names = AXON_PSETS;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_get_nth_pset)
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    static const char func[] = "MPI_Session_get_nth_pset";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_session_error(s, session, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    if (n < 0 || n >= AXON_PSETS)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "n %d is not the number of a process set (0 to %d)",
                                  n, AXON_PSETS - 1);
    if (!pset_len)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "pset_len is a NULL pointer");
    int need = (int)strlen(axon_psets[n]) + 1;
    /* pset_len 0 asks for the length only (with the terminating null, as the standard says). */
    if (*pset_len > 0) {
        if (!pset_name)
            return axon_session_error(s, session, func, MPI_ERR_ARG, "pset_name is a NULL pointer");
        snprintf(pset_name, (size_t)*pset_len, "%s", axon_psets[n]);
    } else if (*pset_len < 0) {
        return axon_session_error(s, session, func, MPI_ERR_ARG, "pset_len %d is negative", *pset_len);
    }
    *pset_len = need;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_get_pset_info)
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    static const char func[] = "MPI_Session_get_pset_info";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (!info)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "info is a NULL pointer");
    *info = MPI_INFO_NULL;
    int p = axon_pset_find(pset_name);
    if (p < 0)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "\"%s\" is no process set (mpi://WORLD, mpi://SELF)",
                                  pset_name ? pset_name : "(null)");
    char size[32];
    snprintf(size, sizeof(size), "%d", p == 0 ? axon_runtime_job.size : 1);
    int rc = PMPI_Info_create(info);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(*info, "mpi_size", size);
    if (rc != MPI_SUCCESS)
        return axon_session_error(s, session, func, rc, "cannot make the info object");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_get_info)
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    static const char func[] = "MPI_Session_get_info";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (!info_used)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "info_used is a NULL pointer");
    int rc = PMPI_Info_create(info_used);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Info_set(*info_used, "thread_level", axon_thread_level_name(s->thread_level));
    if (rc == MPI_SUCCESS && s->memkinds[0])
        rc = PMPI_Info_set(*info_used, AXON_MPI_MEMKINDS_KEY, s->memkinds);
    if (rc != MPI_SUCCESS)
        return axon_session_error(s, session, func, rc, "cannot make the info object");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_set_errhandler)
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    static const char func[] = "MPI_Session_set_errhandler";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (!axon_mpi_errhandler_get(errhandler))
        return axon_session_error(s, session, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                                  AXON_MPI_HANDLE_NAME(errhandler));
    if (!axon_mpi_errhandler_fits(errhandler, AXON_ERRHANDLER_FOR_SESSION))
        return axon_session_error(s, session, func, MPI_ERR_ARG, "error handler %s was made for another kind of object",
                                  AXON_MPI_HANDLE_NAME(errhandler));
    axon_mpi_errhandler_retain(errhandler);
    MPI_Errhandler old = s->errhandler;
    s->errhandler = errhandler;
    axon_mpi_errhandler_release(old);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_get_errhandler)
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Session_get_errhandler";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (!errhandler)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    /* A new reference, which the caller frees with MPI_Errhandler_free. */
    axon_mpi_errhandler_retain(s->errhandler);
    *errhandler = s->errhandler;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Session_call_errhandler)
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    static const char func[] = "MPI_Session_call_errhandler";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    return axon_session_error(s, session, func, errorcode, "MPI_Session_call_errhandler with error code %d",
                              errorcode);
}

/* Session error handlers are the same kind of object as communicators' (as in MPICH). They may be made
 * before any session exists, to be given to MPI_Session_init. */
AXON_MPI_WEAK(Session_create_errhandler)
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Session_create_errhandler";
    if (!session_errhandler_fn || !errhandler)
        return axon_mpi_error_with(MPI_ERRORS_ARE_FATAL, MPI_SESSION_NULL, NULL, func, MPI_ERR_ARG, "%s is NULL",
                                   session_errhandler_fn ? "errhandler" : "the handler function");
    int rc = axon_mpi_errhandler_create((MPI_Comm_errhandler_function *)(void (*)(void))session_errhandler_fn,
                                        AXON_ERRHANDLER_FOR_SESSION, errhandler);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error_with(MPI_ERRORS_ARE_FATAL, MPI_SESSION_NULL, NULL, func, rc,
                                   "cannot make the error handler (out of memory, or too many)");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Group_from_session_pset)
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    static const char func[] = "MPI_Group_from_session_pset";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    if (!newgroup)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "newgroup is a NULL pointer");
    *newgroup = MPI_GROUP_NULL;
    int p = axon_pset_find(pset_name);
    if (p < 0)
        return axon_session_error(s, session, func, MPI_ERR_ARG, "\"%s\" is no process set (mpi://WORLD, mpi://SELF)",
                                  pset_name ? pset_name : "(null)");
    /* The members of MPI_COMM_WORLD or MPI_COMM_SELF, as a group of this session. */
    struct axon_comm *c = axon_mpi_comm_get(p == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF);
    struct axon_group *g = axon_group_in_session(c->group, session);
    if (!g)
        return axon_session_error(s, session, func, MPI_ERR_NO_MEM, "out of memory for the group");
    int rc = axon_mpi_group_handle_new(g, newgroup);
    if (rc != MPI_SUCCESS) {
        axon_group_release(g);
        return axon_session_error(s, session, func, rc, "cannot make the group");
    }
    return MPI_SUCCESS;
}

/* ---- MPI 4.1's session buffers --------------------------------------------------------------------- */

struct axon_bsend_buffer **axon_mpi_session_bsend_slot(struct axon_session *s)
{
    return &s->bsend;
}

int axon_mpi_session_raise(struct axon_session *s, const char *func, int errclass, const char *detail)
{
    return axon_session_error(s, s->handle, func, errclass, "%s", detail);
}

struct axon_session *axon_mpi_session_find(MPI_Session handle)
{
    return axon_session_get(handle, NULL);
}

bool axon_mpi_session_memkinds(MPI_Session handle, char *out, size_t size)
{
    struct axon_session *s = axon_session_get(handle, NULL);
    if (s)
        snprintf(out, size, "%s", s->memkinds);
    return s != NULL;
}

static int axon_session_attach_buffer(const char *func, MPI_Session session, void *buffer, int64_t size)
{
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    return axon_bsend_attach_call(func, AXON_BSEND_SESSION(s), buffer, size);
}

AXON_MPI_WEAK(Session_attach_buffer)
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    return axon_session_attach_buffer("MPI_Session_attach_buffer", session, buffer, size);
}

AXON_MPI_WEAK(Session_attach_buffer_c)
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    return axon_session_attach_buffer("MPI_Session_attach_buffer_c", session, buffer, size);
}

/* max_size: what the call's size argument can hold; a larger buffer is MPI_ERR_COUNT and stays attached. */
static int axon_session_detach_buffer(const char *func, MPI_Session session, void *buffer_addr, int64_t max_size,
                                      int64_t *size)
{
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    return axon_bsend_detach_call(func, AXON_BSEND_SESSION(s), buffer_addr, max_size, size);
}

AXON_MPI_WEAK(Session_detach_buffer)
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    int64_t got = 0;
    int rc = axon_session_detach_buffer("MPI_Session_detach_buffer", session, buffer_addr, INT_MAX,
                                        size ? &got : NULL);
    if (rc == MPI_SUCCESS)
        *size = (int)got;
    return rc;
}

AXON_MPI_WEAK(Session_detach_buffer_c)
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    int64_t got = 0;
    int rc = axon_session_detach_buffer("MPI_Session_detach_buffer_c", session, buffer_addr, INT64_MAX,
                                        size ? &got : NULL);
    if (rc == MPI_SUCCESS)
        *size = got;
    return rc;
}

AXON_MPI_WEAK(Session_flush_buffer)
int PMPI_Session_flush_buffer(MPI_Session session)
{
    static const char func[] = "MPI_Session_flush_buffer";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    return axon_bsend_flush_call(AXON_BSEND_SESSION(s));
}

AXON_MPI_WEAK(Session_iflush_buffer)
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    static const char func[] = "MPI_Session_iflush_buffer";
    struct axon_session *s;
    AXON_SESSION_CHECK(func, session, s);
    return axon_bsend_iflush_call(func, AXON_BSEND_SESSION(s), request);
}
