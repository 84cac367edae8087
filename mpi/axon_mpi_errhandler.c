/* Error handler objects and the calls that manage them: the predefined MPI_ERRORS_ARE_FATAL,
 * MPI_ERRORS_RETURN and MPI_ERRORS_ABORT, and user handlers from MPI_Comm_create_errhandler (direct
 * handles 0x94000000 | index, as MPICH numbers them). */
#include "mpi/axon_mpi.h"

#include "runtime/runtime.h"

#include <stdlib.h>

#define AXON_ERRHANDLER_DIRECT 0x94000000u
#define AXON_ERRHANDLER_MAX 1024

static struct axon_errhandler axon_errhandler_fatal = {.kind = AXON_ERRHANDLER_FATAL};
static struct axon_errhandler axon_errhandler_return = {.kind = AXON_ERRHANDLER_RETURN};
static struct axon_errhandler axon_errhandler_abort = {.kind = AXON_ERRHANDLER_ABORT};
static struct axon_errhandler *axon_errhandler_user[AXON_ERRHANDLER_MAX];
static pthread_mutex_t axon_errhandler_lock = PTHREAD_MUTEX_INITIALIZER;

static bool axon_errhandler_is_user(MPI_Errhandler handle, unsigned *index)
{
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_ERRHANDLER_DIRECT)
        return false;
    *index = h & 0x03ffffffu;
    return *index < AXON_ERRHANDLER_MAX;
}

struct axon_errhandler *axon_mpi_errhandler_get(MPI_Errhandler handle)
{
    unsigned index;
    if (handle == MPI_ERRORS_ARE_FATAL)
        return &axon_errhandler_fatal;
    if (handle == MPI_ERRORS_RETURN)
        return &axon_errhandler_return;
    if (handle == MPI_ERRORS_ABORT)
        return &axon_errhandler_abort;
    if (!axon_errhandler_is_user(handle, &index))
        return NULL;
    pthread_mutex_lock(&axon_errhandler_lock);
    struct axon_errhandler *eh = axon_errhandler_user[index];
    pthread_mutex_unlock(&axon_errhandler_lock);
    return eh;
}

void axon_mpi_errhandler_retain(MPI_Errhandler handle)
{
    unsigned index;
    if (!axon_errhandler_is_user(handle, &index))
        return;
    pthread_mutex_lock(&axon_errhandler_lock);
    if (axon_errhandler_user[index])
        axon_errhandler_user[index]->refcount++;
    pthread_mutex_unlock(&axon_errhandler_lock);
}

void axon_mpi_errhandler_release(MPI_Errhandler handle)
{
    unsigned index;
    if (!axon_errhandler_is_user(handle, &index))
        return;
    pthread_mutex_lock(&axon_errhandler_lock);
    struct axon_errhandler *eh = axon_errhandler_user[index];
    if (eh && --eh->refcount == 0) {
        axon_errhandler_user[index] = NULL;
        free(eh);
    }
    pthread_mutex_unlock(&axon_errhandler_lock);
}

bool axon_mpi_errhandler_fits(MPI_Errhandler handle, enum axon_errhandler_object object)
{
    const struct axon_errhandler *eh = axon_mpi_errhandler_get(handle);
    return eh && (eh->kind != AXON_ERRHANDLER_USER || eh->object == object);
}

int axon_mpi_errhandler_create(MPI_Comm_errhandler_function *fn, enum axon_errhandler_object object,
                               MPI_Errhandler *errhandler)
{
    struct axon_errhandler *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return MPI_ERR_NO_MEM;
    eh->kind = AXON_ERRHANDLER_USER;
    eh->object = object;
    eh->fn = fn;
    eh->refcount = 1;
    pthread_mutex_lock(&axon_errhandler_lock);
    int index = -1;
    for (int i = 0; i < AXON_ERRHANDLER_MAX && index < 0; i++)
        if (!axon_errhandler_user[i])
            index = i;
    if (index >= 0)
        axon_errhandler_user[index] = eh;
    pthread_mutex_unlock(&axon_errhandler_lock);
    if (index < 0) {
        free(eh);
        return MPI_ERR_INTERN;
    }
    *errhandler = (MPI_Errhandler)(AXON_ERRHANDLER_DIRECT | (unsigned)index);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Comm_create_errhandler";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!fn)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the handler function is NULL");
    if (!errhandler)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    int rc = axon_mpi_errhandler_create(fn, AXON_ERRHANDLER_FOR_COMM, errhandler);
    if (rc == MPI_ERR_INTERN)
        return axon_mpi_error(NULL, func, rc, "more than %d error handlers exist at once", AXON_ERRHANDLER_MAX);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Errhandler_free";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!errhandler)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    if (!axon_mpi_errhandler_get(*errhandler))
        return axon_mpi_error(NULL, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                              AXON_MPI_HANDLE_NAME(*errhandler));
    /* Communicators that use it hold their own reference: it lives until the last of them lets go. */
    axon_mpi_errhandler_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    static const char func[] = "MPI_Comm_set_errhandler";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!axon_mpi_errhandler_get(errhandler))
        return axon_mpi_error(c, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                              AXON_MPI_HANDLE_NAME(errhandler));
    if (!axon_mpi_errhandler_fits(errhandler, AXON_ERRHANDLER_FOR_COMM))
        return axon_mpi_error(c, func, MPI_ERR_ARG, "error handler %s was made for another kind of object",
                              AXON_MPI_HANDLE_NAME(errhandler));
    axon_mpi_errhandler_retain(errhandler);
    MPI_Errhandler old = c->errhandler;
    c->errhandler = errhandler;
    c->errhandler_chosen = true;
    axon_mpi_errhandler_release(old);
    /* A program that sees MPI_COMM_WORLD's errors survives a lost rank (runtime/axon_runtime_lost.c). */
    if (comm == MPI_COMM_WORLD)
        axon_runtime_lost_set_survive(errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_ABORT);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Comm_get_errhandler";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!errhandler)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    /* The caller gets a reference of its own, which it frees with MPI_Errhandler_free. */
    axon_mpi_errhandler_retain(c->errhandler);
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    static const char func[] = "MPI_Comm_call_errhandler";
    struct axon_comm *c;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    axon_mpi_error(c, func, errorcode, "raised by the application");
    return MPI_SUCCESS;
}
