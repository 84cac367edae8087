/* Attribute caching on communicators: MPI_Comm_create_keyval, MPI_Comm_free_keyval, MPI_Comm_set_attr,
 * _get_attr and _delete_attr, the copy callbacks at MPI_Comm_dup and delete callbacks at MPI_Comm_free,
 * and the predefined attributes (MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE,
 * MPI_APPNUM, MPI_LASTUSEDCODE), whose values are pointers to ints as the C binding says. Keyvals and
 * attribute lists are the shared machinery of mpi/comm/axon_mpi_attr.c (datatypes use it too); the
 * predefined keyvals (0x644000xx) cannot collide with its handles. */
#include "mpi/comm/axon_mpi_comm.h"

#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"
#include "runtime/runtime.h"

#include <stdlib.h>
#include <string.h>

/* ---- the predefined attributes -------------------------------------------------------------------- */

static int axon_attr_tag_ub = AXON_TAG_UB;
static int axon_attr_host = MPI_PROC_NULL;
static int axon_attr_io = MPI_ANY_SOURCE; /* every process can do I/O */
static int axon_attr_wtime_is_global = 0;
static int axon_attr_universe_size, axon_attr_appnum, axon_attr_lastusedcode = MPI_ERR_LASTCODE;

void axon_mpi_attr_lastusedcode_set(int code)
{
    __atomic_store_n(&axon_attr_lastusedcode, code, __ATOMIC_RELEASE);
}

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

int axon_comm_attr_copy(struct axon_comm *old, struct axon_comm *new_comm)
{
    return axon_attr_copy_all(&old->attrs, old->handle, &new_comm->attrs);
}

int axon_comm_attr_delete_all(struct axon_comm *c)
{
    return axon_attr_delete_all(&c->attrs, c->handle);
}

void axon_comm_attr_drop(struct axon_comm *c)
{
    axon_attr_drop(&c->attrs);
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
    int rc = axon_attr_keyval_create(AXON_ATTR_COMM, comm_copy_attr_fn, comm_delete_attr_fn, extra_state,
                                     comm_keyval);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "out of memory for keyvals");
}

AXON_MPI_WEAK(Comm_free_keyval)
int PMPI_Comm_free_keyval(int *comm_keyval)
{
    static const char func[] = "MPI_Comm_free_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!comm_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "comm_keyval is a NULL pointer");
    if (axon_attr_is_predefined(*comm_keyval))
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "keyval %s is predefined and cannot be freed",
                              AXON_MPI_HANDLE_NAME(*comm_keyval));
    if (axon_attr_keyval_free(AXON_ATTR_COMM, *comm_keyval) != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "invalid keyval %s", AXON_MPI_HANDLE_NAME(*comm_keyval));
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
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "keyval %s is predefined and cannot be set",
                              AXON_MPI_HANDLE_NAME(comm_keyval));
    int rc = axon_attr_set(AXON_ATTR_COMM, &c->attrs, c->handle, comm_keyval, attribute_val);
    if (rc == MPI_ERR_KEYVAL)
        return axon_mpi_error(c, func, rc, "invalid keyval %s", AXON_MPI_HANDLE_NAME(comm_keyval));
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
    void *value = NULL;
    int found = 0;
    if (axon_attr_get(AXON_ATTR_COMM, &c->attrs, comm_keyval, &value, &found) != MPI_SUCCESS)
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "invalid keyval %s", AXON_MPI_HANDLE_NAME(comm_keyval));
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
        return axon_mpi_error(c, func, MPI_ERR_KEYVAL, "keyval %s is predefined and cannot be deleted",
                              AXON_MPI_HANDLE_NAME(comm_keyval));
    int rc = axon_attr_delete(AXON_ATTR_COMM, &c->attrs, c->handle, comm_keyval);
    if (rc == MPI_ERR_KEYVAL)
        return axon_mpi_error(c, func, rc, "invalid keyval %s", AXON_MPI_HANDLE_NAME(comm_keyval));
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the delete callback returned %d", rc);
    return MPI_SUCCESS;
}
