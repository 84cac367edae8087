/* The MPI tool information interface (MPI_T, the standard's chapter "Tool Support"): its initialization
 * count, control variables, enumerations, the one category, and the performance-variable, event and
 * source calls, which have nothing to show.
 *
 * The control variables are Axon's configuration knobs (runtime/axon_runtime_config.c), in the table's
 * order, named as their environment variables and described by their help text. Their scope is
 * MPI_T_SCOPE_READONLY: MPI_Init reads them once, so MPI_T_cvar_write answers MPI_T_ERR_CVAR_SET_NEVER.
 * Their types:
 *   int, boolean and tristate knobs   MPI_INT, count 1 (a tristate's "auto" is -1)
 *   sizes                             MPI_LONG_LONG, count 1, in bytes ("auto" is -1)
 *   word lists (AXON_WAIT_MODE ...)   MPI_INT, count 1, with an MPI_T_enum whose items are the words and
 *                                     whose values are their positions (0 is the first word)
 *   strings (paths ...)               MPI_CHAR, count AXON_CONFIG_STRING_MAX (room for any value, its
 *                                     terminating 0 included); a read writes the value and its 0
 * A read once the library came up (MPI_Init or a session, and after MPI_Finalize) gives the value in use;
 * before, the value MPI_Init would take: the environment's when it parses, else the default.
 *
 * Axon has no performance variables, events or event sources: their counts are 0, an index is
 * MPI_T_ERR_INVALID_INDEX, a handle MPI_T_ERR_INVALID_HANDLE. Performance-variable sessions exist all the
 * same (a tool makes one before it looks), and MPI_T_pvar_start/_stop/_reset of MPI_T_PVAR_ALL_HANDLES
 * act on the session's no handles; _read, _write and _readreset take no MPI_T_PVAR_ALL_HANDLES (the
 * standard forbids it there). One category, "axon", holds every control variable; it never changes.
 *
 * These calls return their error class and never reach an error handler (the standard's rule for
 * MPI_T), and work without the library: before MPI_Init and after MPI_Finalize. One mutex guards the
 * initialization count and the live handles; the last MPI_T_finalize frees the handles left. */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The handles' structures, opaque in mpi.h. A handle is valid while it is on its list. */
struct MPIR_T_cvar_handle_s {
    struct MPIR_T_cvar_handle_s *next;
    int index;
};

struct MPIR_T_pvar_session_s {
    struct MPIR_T_pvar_session_s *next;
};

/* An enumeration: one per word-list knob, made at the first MPI_T_init_thread. */
struct MPIR_T_enum_s {
    const struct axon_config_entry *entry;
    int items;
};

/* No performance-variable handle exists; this one only gives MPI_T_PVAR_ALL_HANDLES an address. */
struct MPIR_T_pvar_handle_s {
    char unused;
};

static struct MPIR_T_pvar_handle_s axon_tool_all_handles_mark;
__attribute__((visibility("default"))) struct MPIR_T_pvar_handle_s *const MPI_T_PVAR_ALL_HANDLES =
    &axon_tool_all_handles_mark;

static pthread_mutex_t axon_tool_lock = PTHREAD_MUTEX_INITIALIZER;
static int axon_tool_refcount;
static struct MPIR_T_cvar_handle_s *axon_tool_cvar_handles;
static struct MPIR_T_pvar_session_s *axon_tool_sessions;
static struct MPIR_T_enum_s *axon_tool_enums; /* by cvar index; items 0 for knobs that are no word list */

static const char axon_tool_category_name[] = "axon";
static const char axon_tool_category_desc[] =
    "Axon's configuration knobs: the AXON_* environment variables, read once when the library comes up";

/* ---- helpers -------------------------------------------------------------------------------------- */

static bool axon_tool_active(void)
{
    pthread_mutex_lock(&axon_tool_lock);
    bool active = axon_tool_refcount > 0;
    pthread_mutex_unlock(&axon_tool_lock);
    return active;
}

#define AXON_TOOL_REQUIRE_INIT()               \
    do {                                       \
        if (!axon_tool_active())               \
            return MPI_T_ERR_NOT_INITIALIZED;  \
    } while (0)

static const struct axon_config_entry *axon_tool_cvars(int *count)
{
    size_t n;
    const struct axon_config_entry *table = axon_runtime_config_table(&n);
    *count = (int)n;
    return table;
}

static const struct axon_config_entry *axon_tool_cvar(int index)
{
    int n;
    const struct axon_config_entry *table = axon_tool_cvars(&n);
    return index >= 0 && index < n ? &table[index] : NULL;
}

/* The standard's convention for returning strings: with no buffer (NULL, or *len 0) the length the
 * string needs, its 0 included; else as much as fits in *len with the 0, and *len set to what was
 * written, the 0 included. A NULL len returns nothing. */
static void axon_tool_string(const char *src, char *dst, int *len)
{
    if (!len)
        return;
    size_t n = strlen(src);
    if (!dst || *len <= 0) {
        *len = (int)n + 1;
        return;
    }
    if (n > (size_t)*len - 1)
        n = (size_t)*len - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    *len = (int)n + 1;
}

/* Words in a "a|b|c" list. */
static int axon_tool_words(const char *values)
{
    int n = 1;
    for (const char *p = values; *p; p++)
        n += *p == '|';
    return n;
}

/* The n-th word of a "a|b|c" list, into buf. */
static void axon_tool_word(const char *values, int n, char *buf, size_t len)
{
    const char *p = values;
    for (int i = 0; i < n && p; i++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    size_t wlen = p ? strcspn(p, "|") : 0;
    if (wlen >= len)
        wlen = len - 1;
    memcpy(buf, p ? p : "", wlen);
    buf[wlen] = '\0';
}

static bool axon_tool_enum_valid(MPI_T_enum e)
{
    int n;
    axon_tool_cvars(&n);
    if (!axon_tool_enums || e < axon_tool_enums || e >= axon_tool_enums + n)
        return false;
    return e->items > 0;
}

/* Verbosity: the knobs a user sets to get going are USER_BASIC, the transport's and the collectives'
 * tuning TUNER_BASIC, the GPU path's details TUNER_DETAIL. */
static int axon_tool_verbosity(const struct axon_config_entry *e)
{
    static const char *const user[] = {"AXON_VERBOSE", "AXON_CUDA", "AXON_ASYNC_PROGRESS", "AXON_TOPO",
                                       "AXON_WAIT_MODE"};
    for (size_t i = 0; i < AXON_ARRAY_SIZE(user); i++)
        if (strcmp(e->name, user[i]) == 0)
            return MPI_T_VERBOSITY_USER_BASIC;
    if (strncmp(e->name, "AXON_CUDA_", 10) == 0)
        return MPI_T_VERBOSITY_TUNER_DETAIL;
    return MPI_T_VERBOSITY_TUNER_BASIC;
}

static MPI_Datatype axon_tool_datatype(const struct axon_config_entry *e, int *count)
{
    *count = 1;
    switch (e->type) {
    case AXON_CONFIG_SIZE:
        return MPI_LONG_LONG;
    case AXON_CONFIG_STRING:
        *count = AXON_CONFIG_STRING_MAX;
        return MPI_CHAR;
    default:
        return MPI_INT;
    }
}

/* ---- initialization ------------------------------------------------------------------------------- */

AXON_MPI_WEAK(T_init_thread)
int PMPI_T_init_thread(int required, int *provided)
{
    if (!provided)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&axon_tool_lock);
    if (!axon_tool_enums) {
        int n;
        const struct axon_config_entry *table = axon_tool_cvars(&n);
        axon_tool_enums = calloc((size_t)n, sizeof(*axon_tool_enums));
        if (!axon_tool_enums) {
            pthread_mutex_unlock(&axon_tool_lock);
            return MPI_T_ERR_MEMORY;
        }
        for (int i = 0; i < n; i++) {
            axon_tool_enums[i].entry = &table[i];
            if (table[i].type == AXON_CONFIG_ENUM)
                axon_tool_enums[i].items = axon_tool_words(table[i].values);
        }
    }
    axon_tool_refcount++;
    pthread_mutex_unlock(&axon_tool_lock);
    /* Every call takes the mutex, so any level is given as asked. */
    *provided = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_finalize)
int PMPI_T_finalize(void)
{
    pthread_mutex_lock(&axon_tool_lock);
    if (axon_tool_refcount == 0) {
        pthread_mutex_unlock(&axon_tool_lock);
        return MPI_T_ERR_NOT_INITIALIZED;
    }
    if (--axon_tool_refcount == 0) {
        /* The handles die with the interface: a later MPI_T_init_thread starts without them. The
         * enumerations stay, being the same every time. */
        while (axon_tool_cvar_handles) {
            struct MPIR_T_cvar_handle_s *h = axon_tool_cvar_handles;
            axon_tool_cvar_handles = h->next;
            free(h);
        }
        while (axon_tool_sessions) {
            struct MPIR_T_pvar_session_s *s = axon_tool_sessions;
            axon_tool_sessions = s->next;
            free(s);
        }
    }
    pthread_mutex_unlock(&axon_tool_lock);
    return MPI_SUCCESS;
}

/* ---- enumerations --------------------------------------------------------------------------------- */

AXON_MPI_WEAK(T_enum_get_info)
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!axon_tool_enum_valid(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (num)
        *num = enumtype->items;
    axon_tool_string(enumtype->entry->name, name, name_len);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_enum_get_item)
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!axon_tool_enum_valid(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (indx < 0 || indx >= enumtype->items)
        return MPI_T_ERR_INVALID_INDEX;
    char word[128];
    axon_tool_word(enumtype->entry->values, indx, word, sizeof(word));
    if (value)
        *value = indx;
    axon_tool_string(word, name, name_len);
    return MPI_SUCCESS;
}

/* ---- control variables ---------------------------------------------------------------------------- */

AXON_MPI_WEAK(T_cvar_get_num)
int PMPI_T_cvar_get_num(int *num_cvar)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!num_cvar)
        return MPI_T_ERR_INVALID;
    axon_tool_cvars(num_cvar);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_cvar_get_info)
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    AXON_TOOL_REQUIRE_INIT();
    const struct axon_config_entry *e = axon_tool_cvar(cvar_index);
    if (!e)
        return MPI_T_ERR_INVALID_INDEX;
    int count;
    axon_tool_string(e->name, name, name_len);
    if (verbosity)
        *verbosity = axon_tool_verbosity(e);
    if (datatype)
        *datatype = axon_tool_datatype(e, &count);
    if (enumtype)
        *enumtype = e->type == AXON_CONFIG_ENUM ? &axon_tool_enums[cvar_index] : MPI_T_ENUM_NULL;
    axon_tool_string(e->help, desc, desc_len);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = MPI_T_SCOPE_READONLY;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_cvar_get_index)
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!name || !cvar_index)
        return MPI_T_ERR_INVALID;
    int n;
    const struct axon_config_entry *table = axon_tool_cvars(&n);
    for (int i = 0; i < n; i++) {
        if (strcmp(table[i].name, name) == 0) {
            *cvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

AXON_MPI_WEAK(T_cvar_handle_alloc)
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    (void)obj_handle; /* every variable binds to no object */
    AXON_TOOL_REQUIRE_INIT();
    const struct axon_config_entry *e = axon_tool_cvar(cvar_index);
    if (!e)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_cvar_handle_s *h = malloc(sizeof(*h));
    if (!h)
        return MPI_T_ERR_MEMORY;
    h->index = cvar_index;
    pthread_mutex_lock(&axon_tool_lock);
    h->next = axon_tool_cvar_handles;
    axon_tool_cvar_handles = h;
    pthread_mutex_unlock(&axon_tool_lock);
    axon_tool_datatype(e, count);
    *handle = h;
    return MPI_SUCCESS;
}

/* Whether h is a live control-variable handle; call with axon_tool_lock held. */
static bool axon_tool_cvar_handle_live(MPI_T_cvar_handle h)
{
    for (struct MPIR_T_cvar_handle_s *p = axon_tool_cvar_handles; p; p = p->next)
        if (p == h)
            return true;
    return false;
}

AXON_MPI_WEAK(T_cvar_handle_free)
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!handle)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&axon_tool_lock);
    for (struct MPIR_T_cvar_handle_s **p = &axon_tool_cvar_handles; *p; p = &(*p)->next) {
        if (*p == *handle) {
            struct MPIR_T_cvar_handle_s *h = *p;
            *p = h->next;
            pthread_mutex_unlock(&axon_tool_lock);
            free(h);
            *handle = MPI_T_CVAR_HANDLE_NULL;
            return MPI_SUCCESS;
        }
    }
    pthread_mutex_unlock(&axon_tool_lock);
    return MPI_T_ERR_INVALID_HANDLE;
}

AXON_MPI_WEAK(T_cvar_read)
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    AXON_TOOL_REQUIRE_INIT();
    pthread_mutex_lock(&axon_tool_lock);
    bool live = axon_tool_cvar_handle_live(handle);
    int index = live ? handle->index : -1;
    pthread_mutex_unlock(&axon_tool_lock);
    if (!live)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    const struct axon_config_entry *e = axon_tool_cvar(index);

    /* Once the library came up, axon_config holds what it runs with (and keeps it after MPI_Finalize);
     * before, what MPI_Init would read: the default, then the environment's value if it parses. */
    static struct axon_config scratch; /* large (its strings); guarded by axon_tool_lock */
    pthread_mutex_lock(&axon_tool_lock);
    const struct axon_config *cfg = &axon_config;
    if (atomic_load(&axon_mpi_state.phase) == AXON_MPI_PHASE_PRE_INIT) {
        char err[256];
        const char *env = getenv(e->name);
        axon_runtime_config_parse(e, e->default_value, &scratch, err, sizeof(err));
        if (env && *env)
            axon_runtime_config_parse(e, env, &scratch, err, sizeof(err)); /* a bad one leaves the default */
        cfg = &scratch;
    }
    const char *field = (const char *)cfg + e->offset;
    switch (e->type) {
    case AXON_CONFIG_STRING: {
        size_t n = strnlen(field, AXON_CONFIG_STRING_MAX - 1);
        memcpy(buf, field, n);
        ((char *)buf)[n] = '\0';
        break;
    }
    case AXON_CONFIG_SIZE: {
        long long v = *(const long *)field;
        memcpy(buf, &v, sizeof(v));
        break;
    }
    default: {
        int v = (int)*(const long *)field;
        memcpy(buf, &v, sizeof(v));
        break;
    }
    }
    pthread_mutex_unlock(&axon_tool_lock);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_cvar_write)
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    (void)buf;
    AXON_TOOL_REQUIRE_INIT();
    pthread_mutex_lock(&axon_tool_lock);
    bool live = axon_tool_cvar_handle_live(handle);
    pthread_mutex_unlock(&axon_tool_lock);
    /* Read once at MPI_Init, and the engines size themselves by them: none can change. */
    return live ? MPI_T_ERR_CVAR_SET_NEVER : MPI_T_ERR_INVALID_HANDLE;
}

/* ---- performance variables: sessions, and no variable --------------------------------------------- */

AXON_MPI_WEAK(T_pvar_get_num)
int PMPI_T_pvar_get_num(int *num_pvar)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!num_pvar)
        return MPI_T_ERR_INVALID;
    *num_pvar = 0;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_pvar_get_info)
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    (void)pvar_index, (void)name, (void)name_len, (void)verbosity, (void)var_class, (void)datatype;
    (void)enumtype, (void)desc, (void)desc_len, (void)bind, (void)readonly, (void)continuous, (void)atomic;
    AXON_TOOL_REQUIRE_INIT();
    return MPI_T_ERR_INVALID_INDEX;
}

AXON_MPI_WEAK(T_pvar_get_index)
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    (void)var_class;
    AXON_TOOL_REQUIRE_INIT();
    if (!name || !pvar_index)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}

AXON_MPI_WEAK(T_pvar_session_create)
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!session)
        return MPI_T_ERR_INVALID;
    struct MPIR_T_pvar_session_s *s = malloc(sizeof(*s));
    if (!s)
        return MPI_T_ERR_MEMORY;
    pthread_mutex_lock(&axon_tool_lock);
    s->next = axon_tool_sessions;
    axon_tool_sessions = s;
    pthread_mutex_unlock(&axon_tool_lock);
    *session = s;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_pvar_session_free)
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!session)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&axon_tool_lock);
    for (struct MPIR_T_pvar_session_s **p = &axon_tool_sessions; *p; p = &(*p)->next) {
        if (*p == *session) {
            struct MPIR_T_pvar_session_s *s = *p;
            *p = s->next;
            pthread_mutex_unlock(&axon_tool_lock);
            free(s);
            *session = MPI_T_PVAR_SESSION_NULL;
            return MPI_SUCCESS;
        }
    }
    pthread_mutex_unlock(&axon_tool_lock);
    return MPI_T_ERR_INVALID_SESSION;
}

/* MPI_SUCCESS if the interface is up and session lives, else the error to return. */
static int axon_tool_session_check(MPI_T_pvar_session session)
{
    int rc = MPI_T_ERR_INVALID_SESSION;
    pthread_mutex_lock(&axon_tool_lock);
    if (axon_tool_refcount == 0)
        rc = MPI_T_ERR_NOT_INITIALIZED;
    else
        for (struct MPIR_T_pvar_session_s *p = axon_tool_sessions; p; p = p->next)
            if (p == session)
                rc = MPI_SUCCESS;
    pthread_mutex_unlock(&axon_tool_lock);
    return rc;
}

AXON_MPI_WEAK(T_pvar_handle_alloc)
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle,
                             int *count)
{
    (void)pvar_index, (void)obj_handle, (void)handle, (void)count;
    int rc = axon_tool_session_check(session);
    return rc != MPI_SUCCESS ? rc : MPI_T_ERR_INVALID_INDEX;
}

AXON_MPI_WEAK(T_pvar_handle_free)
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    (void)handle;
    int rc = axon_tool_session_check(session);
    return rc != MPI_SUCCESS ? rc : MPI_T_ERR_INVALID_HANDLE;
}

/* start, stop and reset: MPI_T_PVAR_ALL_HANDLES means every handle of the session, here none. */
static int axon_tool_pvar_all(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    int rc = axon_tool_session_check(session);
    if (rc != MPI_SUCCESS)
        return rc;
    return handle == MPI_T_PVAR_ALL_HANDLES ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

/* read, write and readreset: a single handle only, and none exists. */
static int axon_tool_pvar_one(MPI_T_pvar_session session)
{
    int rc = axon_tool_session_check(session);
    return rc != MPI_SUCCESS ? rc : MPI_T_ERR_INVALID_HANDLE;
}

AXON_MPI_WEAK(T_pvar_start)
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return axon_tool_pvar_all(session, handle);
}

AXON_MPI_WEAK(T_pvar_stop)
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return axon_tool_pvar_all(session, handle);
}

AXON_MPI_WEAK(T_pvar_reset)
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return axon_tool_pvar_all(session, handle);
}

AXON_MPI_WEAK(T_pvar_read)
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    (void)handle, (void)buf;
    return axon_tool_pvar_one(session);
}

AXON_MPI_WEAK(T_pvar_write)
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    (void)handle, (void)buf;
    return axon_tool_pvar_one(session);
}

AXON_MPI_WEAK(T_pvar_readreset)
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    (void)handle, (void)buf;
    return axon_tool_pvar_one(session);
}

/* ---- events and their sources: none --------------------------------------------------------------- */

AXON_MPI_WEAK(T_event_get_num)
int PMPI_T_event_get_num(int *num_events)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = 0;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_event_get_info)
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[],
                          MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info,
                          char *desc, int *desc_len, int *bind)
{
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc, (void)desc_len;
    (void)bind;
    AXON_TOOL_REQUIRE_INIT();
    return MPI_T_ERR_INVALID_INDEX;
}

AXON_MPI_WEAK(T_event_get_index)
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!name || !event_index)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}

AXON_MPI_WEAK(T_event_handle_alloc)
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    AXON_TOOL_REQUIRE_INIT();
    return MPI_T_ERR_INVALID_INDEX;
}

/* Every call on a registration or an event instance: none can exist. */
#define AXON_TOOL_NO_HANDLE()            \
    do {                                 \
        AXON_TOOL_REQUIRE_INIT();        \
        return MPI_T_ERR_INVALID_HANDLE; \
    } while (0)

AXON_MPI_WEAK(T_event_handle_free)
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    (void)event_registration, (void)user_data, (void)free_cb_function;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_handle_get_info)
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    (void)event_registration, (void)info_used;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_handle_set_info)
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)event_registration, (void)info;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_register_callback)
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function)
{
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data, (void)event_cb_function;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_callback_get_info)
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    (void)event_registration, (void)cb_safety, (void)info_used;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_callback_set_info)
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info)
{
    (void)event_registration, (void)cb_safety, (void)info;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_set_dropped_handler)
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    (void)event_registration, (void)dropped_cb_function;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_read)
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    (void)event_instance, (void)element_index, (void)buffer;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_copy)
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance, (void)buffer;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_get_timestamp)
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    (void)event_instance, (void)event_timestamp;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_event_get_source)
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)event_instance, (void)source_index;
    AXON_TOOL_NO_HANDLE();
}

AXON_MPI_WEAK(T_source_get_num)
int PMPI_T_source_get_num(int *num_sources)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!num_sources)
        return MPI_T_ERR_INVALID;
    *num_sources = 0;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_source_get_info)
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    (void)source_index, (void)name, (void)name_len, (void)desc, (void)desc_len, (void)ordering;
    (void)ticks_per_second, (void)max_ticks, (void)info;
    AXON_TOOL_REQUIRE_INIT();
    return MPI_T_ERR_INVALID_INDEX;
}

AXON_MPI_WEAK(T_source_get_timestamp)
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    (void)source_index, (void)timestamp;
    AXON_TOOL_REQUIRE_INIT();
    return MPI_T_ERR_INVALID_INDEX;
}

/* ---- categories: "axon", every control variable --------------------------------------------------- */

AXON_MPI_WEAK(T_category_get_num)
int PMPI_T_category_get_num(int *num_cat)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!num_cat)
        return MPI_T_ERR_INVALID;
    *num_cat = 1;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_category_get_info)
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    AXON_TOOL_REQUIRE_INIT();
    if (cat_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    axon_tool_string(axon_tool_category_name, name, name_len);
    axon_tool_string(axon_tool_category_desc, desc, desc_len);
    if (num_cvars)
        axon_tool_cvars(num_cvars);
    if (num_pvars)
        *num_pvars = 0;
    if (num_categories)
        *num_categories = 0;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_category_get_index)
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!name || !cat_index)
        return MPI_T_ERR_INVALID;
    if (strcmp(name, axon_tool_category_name) != 0)
        return MPI_T_ERR_INVALID_NAME;
    *cat_index = 0;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_category_get_cvars)
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    AXON_TOOL_REQUIRE_INIT();
    if (cat_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    int n;
    axon_tool_cvars(&n);
    for (int i = 0; i < n && i < len; i++)
        indices[i] = i;
    return MPI_SUCCESS;
}

/* The category holds no performance variable, category or event: nothing is written. */
static int axon_tool_category_empty(int cat_index, int len, int indices[])
{
    AXON_TOOL_REQUIRE_INIT();
    if (cat_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_category_get_pvars)
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    return axon_tool_category_empty(cat_index, len, indices);
}

AXON_MPI_WEAK(T_category_get_categories)
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    return axon_tool_category_empty(cat_index, len, indices);
}

AXON_MPI_WEAK(T_category_get_events)
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    return axon_tool_category_empty(cat_index, len, indices);
}

AXON_MPI_WEAK(T_category_get_num_events)
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    AXON_TOOL_REQUIRE_INIT();
    if (cat_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!num_events)
        return MPI_T_ERR_INVALID;
    *num_events = 0;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(T_category_changed)
int PMPI_T_category_changed(int *update_number)
{
    AXON_TOOL_REQUIRE_INIT();
    if (!update_number)
        return MPI_T_ERR_INVALID;
    /* The variables and the category are fixed when the library is built. */
    *update_number = 0;
    return MPI_SUCCESS;
}
