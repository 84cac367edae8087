/* Error classes, codes and strings that the program adds: MPI_Add_error_class, MPI_Add_error_code and
 * MPI_Add_error_string, and what MPI_Error_class, MPI_Error_string and the error handlers learn of
 * them.
 *
 * The predefined codes are the classes 0..MPI_ERR_LASTCODE, so added ones take the values above it,
 * MPI_ERR_LASTCODE + 1 + n for the n-th added class or code alike (each remembers its class; a class is
 * its own), and the MPI_LASTUSEDCODE attribute follows the largest one handed out. A removed value is
 * handed out again, the lowest first, so ranks that add and remove alike still agree, and a library that
 * adds and removes its classes at every use does not run out (MPICH's errhan/adderr does 10000 rounds).
 * Entries live in chunks that never move, so a lookup reads them without the lock once their slot is
 * published; a string may be replaced while another thread reads it, so strings are read and written
 * under the lock. */
#include "mpi/axon_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AXON_DYN_FIRST (MPI_ERR_LASTCODE + 1)
#define AXON_DYN_CHUNK 256
#define AXON_DYN_CHUNKS 256 /* up to 65536 added classes and codes */

struct axon_dyn_error {
    int errclass;   /* the class of a code; a class's own value */
    _Atomic bool removed; /* MPI_Remove_error_class/_code: no longer a class or code, free for reuse */
    char name[48];  /* for messages: "user error class 0x40000002" */
    char *text;     /* MPI_Add_error_string's, or NULL */
};

static pthread_mutex_t axon_dyn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct axon_dyn_error *_Atomic axon_dyn_chunks[AXON_DYN_CHUNKS];
static atomic_int axon_dyn_count; /* published entries */
static int axon_dyn_removed;      /* of those, removed ones (under the lock) */

static struct axon_dyn_error *axon_dyn_get(int code)
{
    if (code < AXON_DYN_FIRST)
        return NULL;
    int i = code - AXON_DYN_FIRST;
    if (i >= atomic_load_explicit(&axon_dyn_count, memory_order_acquire))
        return NULL;
    struct axon_dyn_error *chunk = atomic_load_explicit(&axon_dyn_chunks[i / AXON_DYN_CHUNK], memory_order_acquire);
    struct axon_dyn_error *e = chunk ? &chunk[i % AXON_DYN_CHUNK] : NULL;
    return e && !atomic_load_explicit(&e->removed, memory_order_acquire) ? e : NULL;
}

bool axon_mpi_error_dynamic(int code, int *errclass, const char **name)
{
    struct axon_dyn_error *e = axon_dyn_get(code);
    if (!e)
        return false;
    if (errclass)
        *errclass = e->errclass;
    if (name)
        *name = e->name;
    return true;
}

void axon_mpi_error_dynamic_text(int code, char *out, size_t size)
{
    struct axon_dyn_error *e = axon_dyn_get(code);
    pthread_mutex_lock(&axon_dyn_lock);
    snprintf(out, size, "%s", e && e->text ? e->text : "");
    pthread_mutex_unlock(&axon_dyn_lock);
}

/* A new entry of class errclass (-1: a new class); an error class. */
static int axon_dyn_add(int errclass, int *code)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_dyn_lock);
    int count = atomic_load_explicit(&axon_dyn_count, memory_order_relaxed), i = count;
    struct axon_dyn_error *chunk = NULL;
    for (int j = 0; axon_dyn_removed > 0 && j < count; j++) {
        struct axon_dyn_error *c = atomic_load_explicit(&axon_dyn_chunks[j / AXON_DYN_CHUNK], memory_order_relaxed);
        if (atomic_load_explicit(&c[j % AXON_DYN_CHUNK].removed, memory_order_relaxed)) {
            i = j;
            chunk = c;
            break;
        }
    }
    if (chunk) {
        axon_dyn_removed--;
    } else if (i >= AXON_DYN_CHUNK * AXON_DYN_CHUNKS) {
        rc = MPI_ERR_INTERN;
    } else {
        chunk = atomic_load_explicit(&axon_dyn_chunks[i / AXON_DYN_CHUNK], memory_order_relaxed);
        if (!chunk) {
            chunk = calloc(AXON_DYN_CHUNK, sizeof(*chunk));
            if (chunk)
                atomic_store_explicit(&axon_dyn_chunks[i / AXON_DYN_CHUNK], chunk, memory_order_release);
            else
                rc = MPI_ERR_NO_MEM;
        }
    }
    if (rc == MPI_SUCCESS) {
        struct axon_dyn_error *e = &chunk[i % AXON_DYN_CHUNK];
        int value = AXON_DYN_FIRST + i;
        e->errclass = errclass < 0 ? value : errclass;
        snprintf(e->name, sizeof(e->name), errclass < 0 ? "user error class %d" : "user error code %d", value);
        e->text = NULL;
        if (i == count) {
            atomic_store_explicit(&axon_dyn_count, i + 1, memory_order_release);
            axon_mpi_attr_lastusedcode_set(value);
        } else {
            atomic_store_explicit(&e->removed, false, memory_order_release); /* published again */
        }
        *code = value;
    }
    pthread_mutex_unlock(&axon_dyn_lock);
    return rc;
}

AXON_MPI_WEAK(Add_error_class)
int PMPI_Add_error_class(int *errorclass)
{
    static const char func[] = "MPI_Add_error_class";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!errorclass)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errorclass is a NULL pointer");
    int rc = axon_dyn_add(-1, errorclass);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "no room for another error class");
}

AXON_MPI_WEAK(Add_error_code)
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    static const char func[] = "MPI_Add_error_code";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!errorcode)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errorcode is a NULL pointer");
    /* A predefined class, or an added class (not an added code). */
    int cls = -1;
    bool valid = errorclass != MPI_SUCCESS && (axon_mpi_error_class_name(errorclass) != NULL ||
                                               (axon_mpi_error_dynamic(errorclass, &cls, NULL) && cls == errorclass));
    if (!valid)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%d is not an error class", errorclass);
    int rc = axon_dyn_add(errorclass, errorcode);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "no room for another error code");
}

AXON_MPI_WEAK(Add_error_string)
int PMPI_Add_error_string(int errorcode, const char *string)
{
    static const char func[] = "MPI_Add_error_string";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!string)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "string is a NULL pointer");
    size_t n = strlen(string);
    if (n >= MPI_MAX_ERROR_STRING)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the string has %zu characters, more than MPI_MAX_ERROR_STRING - 1",
                              n);
    struct axon_dyn_error *e = axon_dyn_get(errorcode);
    if (!e)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG,
                              "%d is not an error class or code added by MPI_Add_error_class or MPI_Add_error_code",
                              errorcode);
    char *copy = strdup(string);
    if (!copy)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "out of memory for the string");
    pthread_mutex_lock(&axon_dyn_lock);
    char *old = e->text;
    e->text = copy;
    pthread_mutex_unlock(&axon_dyn_lock);
    free(old);
    return MPI_SUCCESS;
}

/* Removing (MPI 4.1): a removed class or code is no longer one (MPI_Error_class refuses it, its string
 * goes) until its value is handed out again. A class may go only once none of its codes is left, and
 * only added ones may go. MPICH's earlier names, MPIX_Delete_error_class, _code and _string, are the same
 * calls. */
static int axon_dyn_remove(const char *func, int value, bool is_class)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    pthread_mutex_lock(&axon_dyn_lock);
    struct axon_dyn_error *e = axon_dyn_get(value);
    const char *why = NULL;
    if (!e || (e->errclass == value) != is_class) {
        why = is_class ? "is not an error class the program added" : "is not an error code the program added";
    } else if (is_class) {
        int n = atomic_load_explicit(&axon_dyn_count, memory_order_relaxed);
        for (int code = AXON_DYN_FIRST; code < AXON_DYN_FIRST + n && !why; code++) {
            struct axon_dyn_error *c = axon_dyn_get(code);
            if (c && code != value && c->errclass == value)
                why = "still has error codes (remove them first)";
        }
    }
    char *old = NULL;
    if (!why) {
        atomic_store_explicit(&e->removed, true, memory_order_release);
        axon_dyn_removed++;
        old = e->text;
        e->text = NULL;
    }
    pthread_mutex_unlock(&axon_dyn_lock);
    free(old);
    if (why)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%d %s", value, why);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Remove_error_class)
int PMPI_Remove_error_class(int errorclass)
{
    return axon_dyn_remove("MPI_Remove_error_class", errorclass, true);
}

AXON_MPI_WEAK(Remove_error_code)
int PMPI_Remove_error_code(int errorcode)
{
    return axon_dyn_remove("MPI_Remove_error_code", errorcode, false);
}

AXON_MPIX_WEAK(Delete_error_class)
int PMPIX_Delete_error_class(int errorclass)
{
    return axon_dyn_remove("MPIX_Delete_error_class", errorclass, true);
}

AXON_MPIX_WEAK(Delete_error_code)
int PMPIX_Delete_error_code(int errorcode)
{
    return axon_dyn_remove("MPIX_Delete_error_code", errorcode, false);
}

AXON_MPIX_WEAK(Delete_error_string)
int PMPIX_Delete_error_string(int errorcode)
{
    return PMPI_Remove_error_string(errorcode);
}

AXON_MPI_WEAK(Remove_error_string)
int PMPI_Remove_error_string(int errorcode)
{
    static const char func[] = "MPI_Remove_error_string";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_dyn_error *e = axon_dyn_get(errorcode);
    if (!e)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%d is not an error code or class the program added",
                              errorcode);
    pthread_mutex_lock(&axon_dyn_lock);
    char *old = e->text;
    e->text = NULL;
    pthread_mutex_unlock(&axon_dyn_lock);
    free(old);
    return MPI_SUCCESS;
}
