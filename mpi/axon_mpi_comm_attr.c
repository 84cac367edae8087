/* Attribute caching on communicators: keyvals (MPI_Comm_create_keyval, MPI_Comm_free_keyval), the
 * attributes themselves (MPI_Comm_set_attr, _get_attr, _delete_attr), their copy callbacks at
 * MPI_Comm_dup and delete callbacks at MPI_Comm_free, MPI_Comm_delete_attr and overwrite, and the
 * predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE,
 * MPI_APPNUM, MPI_LASTUSEDCODE), whose values are pointers to ints as the C binding says.
 *
 * Keyval handles follow MPICH's encoding: direct kind, object type 9 (keyval), object kind 1
 * (communicator) in bits 22-25, so 0xa4400000 | index; the predefined ones are 0x644000xx and cannot
 * collide. A keyval lives until its handle is freed and no attribute uses it.
 *
 * One mutex guards keyvals and every communicator's attribute list, and it is never held while a user
 * callback runs: callbacks may call MPI (a delete callback that asks MPI_Comm_rank, mpi4py's that free
 * other objects), including these functions. */
#include "mpi/axon_mpi_comm.h"

#include "mpi/axon_mpi_pt2pt_check.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

#define AXON_KEYVAL_DIRECT 0xa4400000u
#define AXON_KEYVAL_KIND_MASK 0xffc00000u
#define AXON_KEYVAL_INDEX_MAX 0x003fffffu

struct axon_keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra_state;
    int handle;
    int refcount; /* the handle, and each attribute that uses it */
};

struct axon_attr {
    struct axon_attr *next;
    struct axon_keyval *kv;
    void *value;
};

static pthread_mutex_t axon_attr_lock = PTHREAD_MUTEX_INITIALIZER;
static struct axon_keyval **axon_keyval_slots;
static uint32_t axon_keyval_nslots, axon_keyval_hint;

/* Under the lock. */
static void axon_keyval_unref(struct axon_keyval *kv)
{
    if (--kv->refcount == 0) {
        uint32_t index = (uint32_t)kv->handle & AXON_KEYVAL_INDEX_MAX;
        if (index < axon_keyval_nslots && axon_keyval_slots[index] == kv)
            axon_keyval_slots[index] = NULL;
        free(kv);
    }
}

/* Under the lock: the keyval of a user handle whose handle has not been freed, or NULL. */
static struct axon_keyval *axon_keyval_lookup(int handle)
{
    unsigned h = (unsigned)handle;
    if ((h & AXON_KEYVAL_KIND_MASK) != AXON_KEYVAL_DIRECT)
        return NULL;
    uint32_t index = h & AXON_KEYVAL_INDEX_MAX;
    struct axon_keyval *kv = index < axon_keyval_nslots ? axon_keyval_slots[index] : NULL;
    return kv && kv->handle == handle ? kv : NULL;
}

void axon_mpi_keyval_table_finalize(void)
{
    pthread_mutex_lock(&axon_attr_lock);
    for (uint32_t i = 0; i < axon_keyval_nslots; i++)
        free(axon_keyval_slots[i]);
    free(axon_keyval_slots);
    axon_keyval_slots = NULL;
    axon_keyval_nslots = axon_keyval_hint = 0;
    pthread_mutex_unlock(&axon_attr_lock);
}

/* ---- the predefined attributes -------------------------------------------------------------------- */

static int axon_attr_tag_ub = AXON_TAG_UB;
static int axon_attr_host = MPI_PROC_NULL;
static int axon_attr_io = MPI_ANY_SOURCE; /* every process can do I/O */
static int axon_attr_wtime_is_global = 0;
static int axon_attr_universe_size, axon_attr_appnum, axon_attr_lastusedcode = MPI_ERR_LASTCODE;

static bool axon_attr_is_predefined(int keyval)
{
    return keyval == MPI_TAG_UB || keyval == MPI_HOST || keyval == MPI_IO || keyval == MPI_WTIME_IS_GLOBAL ||
           keyval == MPI_UNIVERSE_SIZE || keyval == MPI_LASTUSEDCODE || keyval == MPI_APPNUM;
}

/* The value of a predefined attribute (a pointer to an int), or NULL when it has none. */
static int *axon_attr_predefined(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
        return &axon_attr_tag_ub;
    case MPI_HOST:
        return &axon_attr_host;
    case MPI_IO:
        return &axon_attr_io;
    case MPI_WTIME_IS_GLOBAL:
        return &axon_attr_wtime_is_global;
    case MPI_UNIVERSE_SIZE:
        axon_attr_universe_size = axon_runtime_job.universe_size;
        return axon_attr_universe_size > 0 ? &axon_attr_universe_size : NULL;
    case MPI_APPNUM:
        axon_attr_appnum = axon_runtime_job.appnum;
        return axon_attr_appnum >= 0 ? &axon_attr_appnum : NULL;
    case MPI_LASTUSEDCODE:
        return &axon_attr_lastusedcode;
    default:
        return NULL;
    }
}

/* ---- the lists, for the rest of the layer ------------------------------------------------------------ */

/* A snapshot of a list (attributes and their keyvals referenced), so callbacks run without the lock. */
struct axon_attr_snapshot {
    int n;
    struct axon_keyval **kv;
    void **value;
};

static int axon_attr_snapshot_take(struct axon_comm *c, struct axon_attr_snapshot *s)
{
    pthread_mutex_lock(&axon_attr_lock);
    int n = 0;
    for (struct axon_attr *a = c->attrs; a; a = a->next)
        n++;
    s->n = n;
    s->kv = malloc(sizeof(*s->kv) * (size_t)(n ? n : 1));
    s->value = malloc(sizeof(*s->value) * (size_t)(n ? n : 1));
    if (!s->kv || !s->value) {
        pthread_mutex_unlock(&axon_attr_lock);
        free(s->kv);
        free(s->value);
        return MPI_ERR_NO_MEM;
    }
    int i = 0;
    for (struct axon_attr *a = c->attrs; a; a = a->next, i++) {
        s->kv[i] = a->kv;
        s->value[i] = a->value;
        a->kv->refcount++;
    }
    pthread_mutex_unlock(&axon_attr_lock);
    return MPI_SUCCESS;
}

static void axon_attr_snapshot_free(struct axon_attr_snapshot *s)
{
    pthread_mutex_lock(&axon_attr_lock);
    for (int i = 0; i < s->n; i++)
        axon_keyval_unref(s->kv[i]);
    pthread_mutex_unlock(&axon_attr_lock);
    free(s->kv);
    free(s->value);
}

/* Under the lock: sets (or adds, at the end) the attribute of kv on c. */
static int axon_attr_store(struct axon_comm *c, struct axon_keyval *kv, void *value)
{
    struct axon_attr **link = &c->attrs;
    for (; *link; link = &(*link)->next)
        if ((*link)->kv == kv) {
            (*link)->value = value;
            return MPI_SUCCESS;
        }
    struct axon_attr *a = malloc(sizeof(*a));
    if (!a)
        return MPI_ERR_NO_MEM;
    *a = (struct axon_attr){.next = NULL, .kv = kv, .value = value};
    kv->refcount++;
    *link = a;
    return MPI_SUCCESS;
}

/* Under the lock: takes the attribute of kv off c; false if it had none. */
static bool axon_attr_unlink(struct axon_comm *c, struct axon_keyval *kv)
{
    for (struct axon_attr **link = &c->attrs; *link; link = &(*link)->next)
        if ((*link)->kv == kv) {
            struct axon_attr *a = *link;
            *link = a->next;
            axon_keyval_unref(a->kv);
            free(a);
            return true;
        }
    return false;
}

int axon_comm_attr_copy(struct axon_comm *old, struct axon_comm *new_comm)
{
    struct axon_attr_snapshot s;
    int rc = axon_attr_snapshot_take(old, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < s.n && rc == MPI_SUCCESS; i++) {
        struct axon_keyval *kv = s.kv[i];
        if (!kv->copy) /* MPI_COMM_NULL_COPY_FN: not copied */
            continue;
        void *out = NULL;
        int flag = 0;
        rc = kv->copy(old->handle, kv->handle, kv->extra_state, s.value[i], &out, &flag);
        if (rc == MPI_SUCCESS && flag) {
            pthread_mutex_lock(&axon_attr_lock);
            rc = axon_attr_store(new_comm, kv, out);
            pthread_mutex_unlock(&axon_attr_lock);
        }
    }
    axon_attr_snapshot_free(&s);
    return rc;
}

int axon_comm_attr_delete_all(struct axon_comm *c)
{
    struct axon_attr_snapshot s;
    int rc = axon_attr_snapshot_take(c, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Newest first: the standard asks it for MPI_COMM_SELF at MPI_Finalize, and it is the natural order
     * for attributes that depend on earlier ones. */
    for (int i = s.n - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        struct axon_keyval *kv = s.kv[i];
        if (kv->del)
            rc = kv->del(c->handle, kv->handle, s.value[i], kv->extra_state);
        if (rc == MPI_SUCCESS) {
            pthread_mutex_lock(&axon_attr_lock);
            axon_attr_unlink(c, kv);
            pthread_mutex_unlock(&axon_attr_lock);
        }
    }
    axon_attr_snapshot_free(&s);
    return rc;
}

void axon_comm_attr_drop(struct axon_comm *c)
{
    pthread_mutex_lock(&axon_attr_lock);
    while (c->attrs) {
        struct axon_attr *a = c->attrs;
        c->attrs = a->next;
        axon_keyval_unref(a->kv);
        free(a);
    }
    pthread_mutex_unlock(&axon_attr_lock);
}

void axon_mpi_comm_finalize_callbacks(void)
{
    struct axon_comm *self = axon_mpi_comm_get(MPI_COMM_SELF);
    int rc = axon_comm_attr_delete_all(self);
    if (rc != MPI_SUCCESS)
        axon_runtime_log_error("MPI_Finalize: an attribute delete callback on MPI_COMM_SELF returned %d", rc);
}

/* ---- the API -------------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state)
{
    static const char func[] = "MPI_Comm_create_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!comm_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "comm_keyval is a NULL pointer");
    struct axon_keyval *kv = calloc(1, sizeof(*kv));
    if (!kv)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory");
    kv->copy = comm_copy_attr_fn;
    kv->del = comm_delete_attr_fn;
    kv->extra_state = extra_state;
    kv->refcount = 1;

    pthread_mutex_lock(&axon_attr_lock);
    uint32_t index = axon_keyval_nslots;
    for (uint32_t i = 0; i < axon_keyval_nslots; i++) {
        uint32_t j = (axon_keyval_hint + i) % axon_keyval_nslots;
        if (!axon_keyval_slots[j]) {
            index = j;
            break;
        }
    }
    if (index == axon_keyval_nslots) {
        uint32_t grow = axon_keyval_nslots ? axon_keyval_nslots * 2 : 32;
        struct axon_keyval **slots =
            grow - 1 <= AXON_KEYVAL_INDEX_MAX ? realloc(axon_keyval_slots, sizeof(*slots) * grow) : NULL;
        if (!slots) {
            pthread_mutex_unlock(&axon_attr_lock);
            free(kv);
            return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for keyvals");
        }
        memset(slots + axon_keyval_nslots, 0, sizeof(*slots) * (grow - axon_keyval_nslots));
        axon_keyval_slots = slots;
        axon_keyval_nslots = grow;
    }
    kv->handle = (int)(AXON_KEYVAL_DIRECT | index);
    axon_keyval_slots[index] = kv;
    axon_keyval_hint = index + 1;
    pthread_mutex_unlock(&axon_attr_lock);
    *comm_keyval = kv->handle;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_free_keyval)
int PMPI_Comm_free_keyval(int *comm_keyval)
{
    static const char func[] = "MPI_Comm_free_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!comm_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "comm_keyval is a NULL pointer");
    if (axon_attr_is_predefined(*comm_keyval))
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "keyval 0x%x is predefined and cannot be freed",
                              (unsigned)*comm_keyval);
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(*comm_keyval);
    if (kv) {
        /* The handle goes now; the keyval stays for the attributes that still use it (their callbacks
         * still get the old handle's value, as MPICH's do). */
        axon_keyval_slots[(uint32_t)kv->handle & AXON_KEYVAL_INDEX_MAX] = NULL;
        axon_keyval_unref(kv);
    }
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "invalid keyval 0x%x", (unsigned)*comm_keyval);
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    static const char func[] = "MPI_Comm_set_attr";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (axon_attr_is_predefined(comm_keyval))
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "keyval 0x%x is predefined and cannot be set",
                              (unsigned)comm_keyval);
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(comm_keyval);
    void *old = NULL;
    bool had = false;
    if (kv) {
        for (struct axon_attr *a = c->attrs; a; a = a->next)
            if (a->kv == kv) {
                old = a->value;
                had = true;
            }
        kv->refcount++; /* across the callback */
    }
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "invalid keyval 0x%x", (unsigned)comm_keyval);

    /* Overwriting deletes the old value first, through the delete callback. */
    int rc = MPI_SUCCESS;
    if (had && kv->del)
        rc = kv->del(c->handle, kv->handle, old, kv->extra_state);
    pthread_mutex_lock(&axon_attr_lock);
    if (rc == MPI_SUCCESS)
        rc = axon_attr_store(c, kv, attribute_val);
    axon_keyval_unref(kv);
    pthread_mutex_unlock(&axon_attr_lock);
    if (rc == MPI_ERR_NO_MEM)
        return axon_mpi_error(c, func, rc, "out of memory for an attribute");
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the delete callback of the old value returned %d", rc);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    static const char func[] = "MPI_Comm_get_attr";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!attribute_val || !flag)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "attribute_val or flag is a NULL pointer");
    if (axon_attr_is_predefined(comm_keyval)) {
        /* Defined on MPI_COMM_WORLD by the standard; every communicator answers the same, as MPICH's do. */
        int *value = axon_attr_predefined(comm_keyval);
        *flag = value != NULL;
        if (value)
            *(int **)attribute_val = value;
        return MPI_SUCCESS;
    }
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(comm_keyval);
    int found = 0;
    void *value = NULL;
    if (kv)
        for (struct axon_attr *a = c->attrs; a; a = a->next)
            if (a->kv == kv) {
                value = a->value;
                found = 1;
            }
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "invalid keyval 0x%x", (unsigned)comm_keyval);
    *flag = found;
    if (found)
        *(void **)attribute_val = value;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    static const char func[] = "MPI_Comm_delete_attr";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (axon_attr_is_predefined(comm_keyval))
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "keyval 0x%x is predefined and cannot be deleted",
                              (unsigned)comm_keyval);
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(comm_keyval);
    void *value = NULL;
    bool had = false;
    if (kv) {
        for (struct axon_attr *a = c->attrs; a; a = a->next)
            if (a->kv == kv) {
                value = a->value;
                had = true;
            }
        kv->refcount++;
    }
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "invalid keyval 0x%x", (unsigned)comm_keyval);

    int rc = MPI_SUCCESS;
    if (had && kv->del)
        rc = kv->del(c->handle, kv->handle, value, kv->extra_state);
    pthread_mutex_lock(&axon_attr_lock);
    if (rc == MPI_SUCCESS && had)
        axon_attr_unlink(c, kv);
    axon_keyval_unref(kv);
    pthread_mutex_unlock(&axon_attr_lock);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the delete callback returned %d", rc);
    return MPI_SUCCESS;
}
