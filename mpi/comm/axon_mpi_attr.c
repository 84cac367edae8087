/* The attribute machinery that communicators, datatypes and windows share: keyvals (their handles,
 * callbacks and lifetime) and the attribute lists that objects carry, with the copy callbacks of a
 * duplication and the delete callbacks of a deletion, an overwrite or a free. The API calls of each
 * object kind are in mpi/comm/axon_mpi_comm_attr.c, mpi/datatype/axon_mpi_type_attr.c and
 * mpi/rma/axon_mpi_win_attr.c; they pass the object's handle and its list.
 *
 * Keyval handles follow MPICH's encoding: direct kind, object type 9 (keyval), the object kind the
 * keyval is for in bits 22-25 (1 communicator, 3 datatype, 8 window), so 0xa4400000 | index for
 * communicators, 0xa4c00000 | index for datatypes and 0xa6000000 | index for windows. One table of
 * indices serves every kind, and a keyval of one kind is MPI_ERR_KEYVAL on an object of another. A keyval, and its handle, live until the handle is
 * freed and no attribute uses it.
 *
 * The callbacks of every kind have the same C type (handles are ints), so one pointer type holds
 * any. One mutex guards keyvals and every list, and it is never held while a user callback runs:
 * callbacks may call MPI (a delete callback that asks MPI_Comm_rank, mpi4py's that free other
 * objects), including these functions. */
#include "mpi/comm/axon_mpi_comm.h"

#include <stdlib.h>
#include <string.h>

#define AXON_KEYVAL_BASE 0xa4000000u
#define AXON_KEYVAL_KIND_SHIFT 22
#define AXON_KEYVAL_KIND_MASK 0xffc00000u
#define AXON_KEYVAL_INDEX_MAX 0x003fffffu

struct axon_keyval {
    enum axon_attr_kind kind;
    axon_attr_copy_fn *copy;
    axon_attr_delete_fn *del;
    void *extra_state;
    int handle;
    int refcount; /* the handle (until freed), and each attribute that uses it */
    bool freed;   /* the handle was freed: it still names the keyval while attributes use it */
};

struct axon_attr {
    struct axon_attr *next;
    struct axon_keyval *kv;
    void *value;
};

static pthread_mutex_t axon_attr_lock = PTHREAD_MUTEX_INITIALIZER;
static struct axon_keyval **axon_keyval_slots;
static uint32_t axon_keyval_nslots, axon_keyval_hint;

static unsigned axon_keyval_prefix(enum axon_attr_kind kind)
{
    return AXON_KEYVAL_BASE | (unsigned)kind << AXON_KEYVAL_KIND_SHIFT;
}

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

/* Under the lock: the keyval of a user handle of kind whose handle has not been freed, or NULL. */
static struct axon_keyval *axon_keyval_lookup(enum axon_attr_kind kind, int handle)
{
    unsigned h = (unsigned)handle;
    if ((h & AXON_KEYVAL_KIND_MASK) != axon_keyval_prefix(kind))
        return NULL;
    uint32_t index = h & AXON_KEYVAL_INDEX_MAX;
    struct axon_keyval *kv = index < axon_keyval_nslots ? axon_keyval_slots[index] : NULL;
    return kv && kv->handle == handle ? kv : NULL;
}

void axon_attr_table_finalize(void)
{
    pthread_mutex_lock(&axon_attr_lock);
    for (uint32_t i = 0; i < axon_keyval_nslots; i++)
        free(axon_keyval_slots[i]);
    free(axon_keyval_slots);
    axon_keyval_slots = NULL;
    axon_keyval_nslots = axon_keyval_hint = 0;
    pthread_mutex_unlock(&axon_attr_lock);
}

int axon_attr_keyval_create(enum axon_attr_kind kind, axon_attr_copy_fn *copy, axon_attr_delete_fn *del,
                            void *extra_state, int *handle)
{
    struct axon_keyval *kv = calloc(1, sizeof(*kv));
    if (!kv)
        return MPI_ERR_NO_MEM;
    *kv = (struct axon_keyval){.kind = kind, .copy = copy, .del = del, .extra_state = extra_state, .refcount = 1};

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
            return MPI_ERR_NO_MEM;
        }
        memset(slots + axon_keyval_nslots, 0, sizeof(*slots) * (grow - axon_keyval_nslots));
        axon_keyval_slots = slots;
        axon_keyval_nslots = grow;
    }
    kv->handle = (int)(axon_keyval_prefix(kind) | index);
    axon_keyval_slots[index] = kv;
    axon_keyval_hint = index + 1;
    pthread_mutex_unlock(&axon_attr_lock);
    *handle = kv->handle;
    return MPI_SUCCESS;
}

int axon_attr_keyval_free(enum axon_attr_kind kind, int handle)
{
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(kind, handle);
    if (kv && !kv->freed) {
        /* The keyval stays while attributes use it, and so does its handle: the standard has a program
         * delete those attributes with MPI_Comm_delete_attr, which needs the (copied) handle, and their
         * callbacks still get its value. So the index is not given to a new keyval until the last
         * attribute goes (handing it out again made a freed key's MPI_Comm_delete_attr delete nothing,
         * and the stale attribute lived on). A second free meanwhile does nothing, as in MPICH (a delete
         * callback that frees its keyval runs once per attribute). */
        kv->freed = true;
        axon_keyval_unref(kv);
    }
    pthread_mutex_unlock(&axon_attr_lock);
    return kv ? MPI_SUCCESS : MPI_ERR_KEYVAL;
}

/* ---- lists --------------------------------------------------------------------------------------- */

/* A snapshot of a list (attributes and their keyvals referenced), so callbacks run without the lock. */
struct axon_attr_snapshot {
    int n;
    struct axon_keyval **kv;
    void **value;
};

static int axon_attr_snapshot_take(struct axon_attr **list, struct axon_attr_snapshot *s)
{
    pthread_mutex_lock(&axon_attr_lock);
    int n = 0;
    for (struct axon_attr *a = *list; a; a = a->next)
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
    for (struct axon_attr *a = *list; a; a = a->next, i++) {
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

/* Under the lock: sets (or adds, at the end) the attribute of kv on the list. */
static int axon_attr_store(struct axon_attr **list, struct axon_keyval *kv, void *value)
{
    struct axon_attr **link = list;
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

/* Under the lock: takes the attribute of kv off the list; false if it had none. */
static bool axon_attr_unlink(struct axon_attr **list, struct axon_keyval *kv)
{
    for (struct axon_attr **link = list; *link; link = &(*link)->next)
        if ((*link)->kv == kv) {
            struct axon_attr *a = *link;
            *link = a->next;
            axon_keyval_unref(a->kv);
            free(a);
            return true;
        }
    return false;
}

/* Under the lock: the value of kv on the list. */
static bool axon_attr_find(struct axon_attr *const *list, const struct axon_keyval *kv, void **value)
{
    for (struct axon_attr *a = *list; a; a = a->next)
        if (a->kv == kv) {
            *value = a->value;
            return true;
        }
    return false;
}

int axon_attr_set(enum axon_attr_kind kind, struct axon_attr **list, int object, int keyval, void *value)
{
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(kind, keyval);
    void *old = NULL;
    bool had = false;
    if (kv) {
        had = axon_attr_find(list, kv, &old);
        kv->refcount++; /* across the callback */
    }
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return MPI_ERR_KEYVAL;

    /* Overwriting deletes the old value first, through the delete callback. */
    int rc = MPI_SUCCESS;
    if (had && kv->del)
        rc = kv->del(object, kv->handle, old, kv->extra_state);
    pthread_mutex_lock(&axon_attr_lock);
    if (rc == MPI_SUCCESS)
        rc = axon_attr_store(list, kv, value);
    axon_keyval_unref(kv);
    pthread_mutex_unlock(&axon_attr_lock);
    return rc;
}

int axon_attr_get(enum axon_attr_kind kind, struct axon_attr **list, int keyval, void **value, int *flag)
{
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(kind, keyval);
    bool found = kv && axon_attr_find(list, kv, value);
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return MPI_ERR_KEYVAL;
    *flag = found;
    return MPI_SUCCESS;
}

int axon_attr_delete(enum axon_attr_kind kind, struct axon_attr **list, int object, int keyval)
{
    pthread_mutex_lock(&axon_attr_lock);
    struct axon_keyval *kv = axon_keyval_lookup(kind, keyval);
    void *value = NULL;
    bool had = false;
    if (kv) {
        had = axon_attr_find(list, kv, &value);
        kv->refcount++;
    }
    pthread_mutex_unlock(&axon_attr_lock);
    if (!kv)
        return MPI_ERR_KEYVAL;

    int rc = MPI_SUCCESS;
    if (had && kv->del)
        rc = kv->del(object, kv->handle, value, kv->extra_state);
    pthread_mutex_lock(&axon_attr_lock);
    if (rc == MPI_SUCCESS && had)
        axon_attr_unlink(list, kv);
    axon_keyval_unref(kv);
    pthread_mutex_unlock(&axon_attr_lock);
    return rc;
}

int axon_attr_copy_all(struct axon_attr **from, int old_object, struct axon_attr **to)
{
    struct axon_attr_snapshot s;
    int rc = axon_attr_snapshot_take(from, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < s.n && rc == MPI_SUCCESS; i++) {
        struct axon_keyval *kv = s.kv[i];
        if (!kv->copy) /* the NULL_COPY_FN: not copied */
            continue;
        void *out = NULL;
        int flag = 0;
        rc = kv->copy(old_object, kv->handle, kv->extra_state, s.value[i], &out, &flag);
        if (rc == MPI_SUCCESS && flag) {
            pthread_mutex_lock(&axon_attr_lock);
            rc = axon_attr_store(to, kv, out);
            pthread_mutex_unlock(&axon_attr_lock);
        }
    }
    axon_attr_snapshot_free(&s);
    return rc;
}

int axon_attr_delete_all(struct axon_attr **list, int object)
{
    struct axon_attr_snapshot s;
    int rc = axon_attr_snapshot_take(list, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Newest first: the standard asks it for MPI_COMM_SELF at MPI_Finalize, and it is the natural order
     * for attributes that depend on earlier ones. */
    for (int i = s.n - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        struct axon_keyval *kv = s.kv[i];
        if (kv->del)
            rc = kv->del(object, kv->handle, s.value[i], kv->extra_state);
        if (rc == MPI_SUCCESS) {
            pthread_mutex_lock(&axon_attr_lock);
            axon_attr_unlink(list, kv);
            pthread_mutex_unlock(&axon_attr_lock);
        }
    }
    axon_attr_snapshot_free(&s);
    return rc;
}

void axon_attr_drop(struct axon_attr **list)
{
    pthread_mutex_lock(&axon_attr_lock);
    while (*list) {
        struct axon_attr *a = *list;
        *list = a->next;
        axon_keyval_unref(a->kv);
        free(a);
    }
    pthread_mutex_unlock(&axon_attr_lock);
}

bool axon_attr_any(struct axon_attr **list)
{
    pthread_mutex_lock(&axon_attr_lock);
    bool any = *list != NULL;
    pthread_mutex_unlock(&axon_attr_lock);
    return any;
}
