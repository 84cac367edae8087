/* Info objects: ordered (key, value) lists behind MPICH's direct handles 0x9c000000 | index, and the
 * MPI_Info_* calls. MPI_INFO_ENV (0x5c000001) is predefined: empty until the library starts, then
 * "command", "argv" (from /proc/self/cmdline), "maxprocs" (the job's size), "wdir" and
 * "mpi_memory_alloc_kinds" (axon_mpi_memkinds.c); it can be read and duplicated but not changed or
 * freed. Keys are at most MPI_MAX_INFO_KEY characters and values MPI_MAX_INFO_VAL (MPI_ERR_INFO_KEY /
 * MPI_ERR_INFO_VALUE);
 * leading and trailing blanks of a key are not part of it (the standard). One mutex guards the table and
 * every object: no info call is on a fast path. As MPI 4.0 allows, the calls work before MPI_Init and
 * after MPI_Finalize too (their errors are then fatal: there is no communicator's handler to ask), and
 * info objects outlive MPI_Finalize; the table itself lives as long as the process. */
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AXON_INFO_DIRECT 0x9c000000u
#define AXON_INFO_INDEX_MAX 0x03ffffffu

struct axon_info_item {
    char *key, *value;
};

struct axon_info {
    int n, capacity;
    struct axon_info_item *items; /* in the order the keys were first set */
};

static pthread_mutex_t axon_info_lock = PTHREAD_MUTEX_INITIALIZER;
static struct axon_info **axon_info_slots;
static uint32_t axon_info_nslots, axon_info_hint;
static struct axon_info axon_info_env;

static void axon_info_destroy(struct axon_info *info)
{
    if (!info || info == &axon_info_env)
        return;
    for (int i = 0; i < info->n; i++) {
        free(info->items[i].key);
        free(info->items[i].value);
    }
    free(info->items);
    free(info);
}

/* Under the lock. */
static struct axon_info *axon_info_lookup(MPI_Info handle)
{
    if (handle == MPI_INFO_ENV)
        return &axon_info_env;
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_INFO_DIRECT)
        return NULL;
    uint32_t index = h & AXON_INFO_INDEX_MAX;
    return index < axon_info_nslots ? axon_info_slots[index] : NULL;
}

/* Under the lock: a handle for info. */
static int axon_info_handle_new(struct axon_info *info, MPI_Info *handle)
{
    uint32_t index = axon_info_nslots;
    for (uint32_t i = 0; i < axon_info_nslots; i++) {
        uint32_t j = (axon_info_hint + i) % axon_info_nslots;
        if (!axon_info_slots[j]) {
            index = j;
            break;
        }
    }
    if (index == axon_info_nslots) {
        uint32_t grow = axon_info_nslots ? axon_info_nslots * 2 : 32;
        struct axon_info **slots =
            grow - 1 <= AXON_INFO_INDEX_MAX ? realloc(axon_info_slots, sizeof(*slots) * grow) : NULL;
        if (!slots)
            return MPI_ERR_NO_MEM;
        memset(slots + axon_info_nslots, 0, sizeof(*slots) * (grow - axon_info_nslots));
        axon_info_slots = slots;
        axon_info_nslots = grow;
    }
    axon_info_slots[index] = info;
    axon_info_hint = index + 1;
    *handle = (MPI_Info)(AXON_INFO_DIRECT | index);
    return MPI_SUCCESS;
}

static int axon_info_find(const struct axon_info *info, const char *key, size_t keylen)
{
    for (int i = 0; i < info->n; i++)
        if (strlen(info->items[i].key) == keylen && memcmp(info->items[i].key, key, keylen) == 0)
            return i;
    return -1;
}

/* Under the lock: sets key (keylen bytes) to value. */
static int axon_info_put(struct axon_info *info, const char *key, size_t keylen, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return MPI_ERR_NO_MEM;
    int i = axon_info_find(info, key, keylen);
    if (i >= 0) {
        free(info->items[i].value);
        info->items[i].value = v;
        return MPI_SUCCESS;
    }
    if (info->n == info->capacity) {
        int grow = info->capacity ? info->capacity * 2 : 8;
        struct axon_info_item *items = realloc(info->items, sizeof(*items) * (size_t)grow);
        if (!items) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        info->items = items;
        info->capacity = grow;
    }
    char *k = strndup(key, keylen);
    if (!k) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    info->items[info->n++] = (struct axon_info_item){k, v};
    return MPI_SUCCESS;
}

/* Under the lock: a copy of info. */
static struct axon_info *axon_info_copy(const struct axon_info *info)
{
    struct axon_info *copy = calloc(1, sizeof(*copy));
    if (!copy)
        return NULL;
    for (int i = 0; info && i < info->n; i++)
        if (axon_info_put(copy, info->items[i].key, strlen(info->items[i].key), info->items[i].value) !=
            MPI_SUCCESS) {
            axon_info_destroy(copy);
            return NULL;
        }
    return copy;
}

bool axon_mpi_info_valid(MPI_Info handle)
{
    pthread_mutex_lock(&axon_info_lock);
    bool valid = axon_info_lookup(handle) != NULL;
    pthread_mutex_unlock(&axon_info_lock);
    return valid;
}

int axon_mpi_info_dup_handle(MPI_Info handle, MPI_Info *out)
{
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *src = handle == MPI_INFO_NULL ? NULL : axon_info_lookup(handle);
    int rc = MPI_SUCCESS;
    if (handle != MPI_INFO_NULL && !src)
        rc = MPI_ERR_INFO;
    struct axon_info *copy = rc == MPI_SUCCESS ? axon_info_copy(src) : NULL;
    if (rc == MPI_SUCCESS && !copy)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        rc = axon_info_handle_new(copy, out);
        if (rc != MPI_SUCCESS)
            axon_info_destroy(copy);
    }
    pthread_mutex_unlock(&axon_info_lock);
    return rc;
}

void axon_mpi_info_release(MPI_Info handle)
{
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *info = handle == MPI_INFO_ENV ? NULL : axon_info_lookup(handle);
    if (info)
        axon_info_slots[(unsigned)handle & AXON_INFO_INDEX_MAX] = NULL;
    pthread_mutex_unlock(&axon_info_lock);
    axon_info_destroy(info);
}

/* ---- the API -------------------------------------------------------------------------------------- */

/* The key without its leading and trailing blanks, checked: MPI_SUCCESS or MPI_ERR_INFO_KEY. */
static int axon_info_key(const char *key, const char **start, size_t *len)
{
    if (!key)
        return MPI_ERR_INFO_KEY;
    size_t n = strlen(key);
    if (n > MPI_MAX_INFO_KEY)
        return MPI_ERR_INFO_KEY;
    const char *s = key, *e = key + n;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if (s == e)
        return MPI_ERR_INFO_KEY;
    *start = s;
    *len = (size_t)(e - s);
    return MPI_SUCCESS;
}

#define AXON_MPI_INFO_KEY(func, key, start, len)                                                     \
    do {                                                                                             \
        if (axon_info_key(key, &(start), &(len)) != MPI_SUCCESS)                                     \
            return axon_mpi_error(NULL, func, MPI_ERR_INFO_KEY,                                      \
                                  "the key is NULL, empty or longer than MPI_MAX_INFO_KEY (%d)", MPI_MAX_INFO_KEY); \
    } while (0)

AXON_MPI_WEAK(Info_create)
int PMPI_Info_create(MPI_Info *info)
{
    static const char func[] = "MPI_Info_create";
    if (!info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "info is a NULL pointer");
    int rc = axon_mpi_info_dup_handle(MPI_INFO_NULL, info);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "cannot make an info object");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_dup)
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    static const char func[] = "MPI_Info_dup";
    if (!newinfo)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "newinfo is a NULL pointer");
    if (info == MPI_INFO_NULL)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "info is MPI_INFO_NULL");
    int rc = axon_mpi_info_dup_handle(info, newinfo);
    if (rc == MPI_ERR_INFO)
        return axon_mpi_error(NULL, func, rc, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "cannot copy the info object");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_free)
int PMPI_Info_free(MPI_Info *info)
{
    static const char func[] = "MPI_Info_free";
    if (!info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "info is a NULL pointer");
    if (*info == MPI_INFO_ENV)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be freed");
    if (!axon_mpi_info_valid(*info))
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(*info));
    axon_mpi_info_release(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_set)
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static const char func[] = "MPI_Info_set";
    const char *k;
    size_t klen;
    AXON_MPI_INFO_KEY(func, key, k, klen);
    if (!value || strlen(value) > MPI_MAX_INFO_VAL)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO_VALUE, "the value is NULL or longer than MPI_MAX_INFO_VAL (%d)",
                              MPI_MAX_INFO_VAL);
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int rc = !obj || obj == &axon_info_env ? MPI_ERR_INFO : axon_info_put(obj, k, klen, value);
    pthread_mutex_unlock(&axon_info_lock);
    if (rc == MPI_ERR_INFO)
        return axon_mpi_error(NULL, func, rc, "invalid (or predefined, read-only) info object %s",
                              AXON_MPI_HANDLE_NAME(info));
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_delete)
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    static const char func[] = "MPI_Info_delete";
    const char *k;
    size_t klen;
    AXON_MPI_INFO_KEY(func, key, k, klen);
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int rc = MPI_SUCCESS;
    if (!obj || obj == &axon_info_env) {
        rc = MPI_ERR_INFO;
    } else {
        int i = axon_info_find(obj, k, klen);
        if (i < 0) {
            rc = MPI_ERR_INFO_NOKEY;
        } else {
            free(obj->items[i].key);
            free(obj->items[i].value);
            memmove(&obj->items[i], &obj->items[i + 1], sizeof(obj->items[0]) * (size_t)(obj->n - i - 1));
            obj->n--;
        }
    }
    pthread_mutex_unlock(&axon_info_lock);
    if (rc == MPI_ERR_INFO)
        return axon_mpi_error(NULL, func, rc, "invalid (or predefined, read-only) info object %s",
                              AXON_MPI_HANDLE_NAME(info));
    if (rc == MPI_ERR_INFO_NOKEY)
        return axon_mpi_error(NULL, func, rc, "the key \"%.*s\" is not set", (int)klen, k);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_get)
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    static const char func[] = "MPI_Info_get";
    const char *k;
    size_t klen;
    AXON_MPI_INFO_KEY(func, key, k, klen);
    if (valuelen < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "valuelen %d is negative", valuelen);
    if (!value || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "value or flag is a NULL pointer");
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int found = 0;
    if (obj) {
        int i = axon_info_find(obj, k, klen);
        if (i >= 0) {
            /* At most valuelen characters, and the NUL (value has valuelen + 1 bytes). */
            size_t n = strlen(obj->items[i].value);
            if (n > (size_t)valuelen)
                n = (size_t)valuelen;
            memcpy(value, obj->items[i].value, n);
            value[n] = '\0';
            found = 1;
        }
    }
    pthread_mutex_unlock(&axon_info_lock);
    if (!obj)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    *flag = found;
    return MPI_SUCCESS;
}

/* MPI 4.0's replacement of MPI_Info_get and _get_valuelen in one call: *buflen is the room in value on
 * entry (the NUL included) and the value's length plus one on return; value gets as much as fits. */
AXON_MPI_WEAK(Info_get_string)
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    static const char func[] = "MPI_Info_get_string";
    const char *k;
    size_t klen;
    AXON_MPI_INFO_KEY(func, key, k, klen);
    if (!buflen || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "buflen or flag is a NULL pointer");
    if (*buflen < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "*buflen %d is negative", *buflen);
    if (*buflen > 0 && !value)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "value is a NULL pointer");
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int found = 0, len = 0;
    if (obj) {
        int i = axon_info_find(obj, k, klen);
        if (i >= 0) {
            size_t n = strlen(obj->items[i].value);
            len = (int)n;
            if (*buflen > 0) {
                if (n > (size_t)*buflen - 1)
                    n = (size_t)*buflen - 1;
                memcpy(value, obj->items[i].value, n);
                value[n] = '\0';
            }
            found = 1;
        }
    }
    pthread_mutex_unlock(&axon_info_lock);
    if (!obj)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    *flag = found;
    if (found)
        *buflen = len + 1;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_get_valuelen)
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    static const char func[] = "MPI_Info_get_valuelen";
    const char *k;
    size_t klen;
    AXON_MPI_INFO_KEY(func, key, k, klen);
    if (!valuelen || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "valuelen or flag is a NULL pointer");
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int found = 0, len = 0;
    if (obj) {
        int i = axon_info_find(obj, k, klen);
        if (i >= 0) {
            found = 1;
            len = (int)strlen(obj->items[i].value);
        }
    }
    pthread_mutex_unlock(&axon_info_lock);
    if (!obj)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    *flag = found;
    if (found)
        *valuelen = len;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_get_nkeys)
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    static const char func[] = "MPI_Info_get_nkeys";
    if (!nkeys)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "nkeys is a NULL pointer");
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int n = obj ? obj->n : 0;
    pthread_mutex_unlock(&axon_info_lock);
    if (!obj)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    *nkeys = n;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Info_get_nthkey)
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    static const char func[] = "MPI_Info_get_nthkey";
    if (!key)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "key is a NULL pointer");
    pthread_mutex_lock(&axon_info_lock);
    struct axon_info *obj = axon_info_lookup(info);
    int nkeys = obj ? obj->n : 0;
    if (obj && n >= 0 && n < nkeys)
        strcpy(key, obj->items[n].key); /* at most MPI_MAX_INFO_KEY characters: the set checked */
    pthread_mutex_unlock(&axon_info_lock);
    if (!obj)
        return axon_mpi_error(NULL, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    if (n < 0 || n >= nkeys)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "n = %d is not in 0..%d (the number of keys - 1)", n, nkeys - 1);
    return MPI_SUCCESS;
}

/* ---- MPI_INFO_ENV and MPI_Info_create_env ------------------------------------------------------------ */

static void axon_info_env_put(struct axon_info *info, const char *key, const char *value)
{
    char clipped[MPI_MAX_INFO_VAL];
    size_t len = strnlen(value, sizeof(clipped) - 1); /* a value longer than the standard's bound is cut */
    memcpy(clipped, value, len);
    clipped[len] = '\0';
    pthread_mutex_lock(&axon_info_lock);
    (void)axon_info_put(info, key, strlen(key), clipped); /* out of memory: the key is missing */
    pthread_mutex_unlock(&axon_info_lock);
}

/* What the process's start says: the command and its arguments (argv[0..argc) when given, else what the
 * kernel has: MPI_Init may have been given no argv), the working directory, and when the library is up
 * the job's size and the memory allocation kinds (which need to know whether CUDA support is on). */
static void axon_info_env_build(struct axon_info *info, int argc, char **argv, bool up)
{
    char text[MPI_MAX_INFO_VAL];
    if (argc > 0 && argv && argv[0]) {
        axon_info_env_put(info, "command", argv[0]);
        size_t n = 0;
        text[0] = '\0';
        for (int a = 1; a < argc && argv[a] && n + 1 < sizeof(text); a++)
            n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s", a > 1 ? " " : "", argv[a]);
        if (argc > 1)
            axon_info_env_put(info, "argv", text);
    } else {
        char cmdline[4096];
        size_t n = 0;
        FILE *f = fopen("/proc/self/cmdline", "r");
        if (f) {
            n = fread(cmdline, 1, sizeof(cmdline) - 1, f);
            fclose(f);
        }
        cmdline[n] = '\0';
        if (n > 0) {
            axon_info_env_put(info, "command", cmdline);
            size_t first = strlen(cmdline) + 1;
            for (size_t i = first; i + 1 < n; i++)
                if (cmdline[i] == '\0')
                    cmdline[i] = ' '; /* the arguments, separated by blanks, as MPICH gives them */
            if (first < n)
                axon_info_env_put(info, "argv", cmdline + first);
        }
    }
    if (getcwd(text, sizeof(text)))
        axon_info_env_put(info, "wdir", text);
    if (up) {
        snprintf(text, sizeof(text), "%d", axon_runtime_job.size);
        axon_info_env_put(info, "maxprocs", text);
        if (axon_mpi_memkinds_world(text, sizeof(text)) == MPI_SUCCESS)
            axon_info_env_put(info, AXON_MPI_MEMKINDS_KEY, text);
    }
}

void axon_mpi_info_env_fill(void)
{
    axon_info_env_build(&axon_info_env, 0, NULL, true); /* called as the library comes up */
}

/* MPI 4's MPI_Info_create_env: what MPI_INFO_ENV holds of a program started with argc and argv (which
 * may be 0 and NULL): the command, its arguments and the working directory. Allowed before MPI_Init and
 * after MPI_Finalize, and the same whenever it is called (MPICH's infocreateenv compares); the job's
 * size and the memory kinds, known only while the library is up, are MPI_INFO_ENV's alone. */
AXON_MPI_WEAK(Info_create_env)
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    static const char func[] = "MPI_Info_create_env";
    if (!info)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "info is a NULL pointer");
    struct axon_info *obj = calloc(1, sizeof(*obj));
    if (!obj)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for an info object");
    axon_info_env_build(obj, argc, argv, false);
    pthread_mutex_lock(&axon_info_lock);
    int rc = axon_info_handle_new(obj, info);
    pthread_mutex_unlock(&axon_info_lock);
    if (rc != MPI_SUCCESS) {
        axon_info_destroy(obj);
        return axon_mpi_error(NULL, func, rc, "out of memory for an info handle");
    }
    return MPI_SUCCESS;
}
