/* Attribute caching on datatypes: MPI_Type_create_keyval, MPI_Type_free_keyval, MPI_Type_set_attr,
 * _get_attr and _delete_attr, and the callbacks of MPI_Type_dup (copy) and MPI_Type_free (delete), on
 * the machinery communicators use (mpi/comm/axon_mpi_attr.c). Every valid type may carry attributes,
 * predefined ones included (their lists are in the datatype table), committed or not.
 *
 * A derived type lives while anything names it (mpi/datatype/axon_mpi_datatype.h), so the delete callbacks run
 * when its last reference goes: in MPI_Type_free for a type nothing else uses, where a failing callback
 * fails the call, or when the last type built on it is freed. MPI_TYPE_NULL_COPY_FN,
 * MPI_TYPE_NULL_DELETE_FN and MPI_TYPE_DUP_FN are MPICH's (two null pointers and MPIR_Dup_fn). */
#include "mpi/comm/axon_mpi_comm.h"
#include "mpi/datatype/axon_mpi_datatype.h"

int axon_mpi_type_attr_copy(MPI_Datatype old, MPI_Datatype copy)
{
    struct axon_attr **from = axon_mpi_datatype_attrs(old), **to = axon_mpi_datatype_attrs(copy);
    if (!from || !to || !axon_attr_any(from))
        return MPI_SUCCESS;
    return axon_attr_copy_all(from, old, to);
}

int axon_mpi_type_attr_delete_all(MPI_Datatype handle)
{
    struct axon_attr **list = axon_mpi_datatype_attrs(handle);
    return list ? axon_attr_delete_all(list, handle) : MPI_SUCCESS;
}

/* The check that every call on a type's attributes starts with: list gets its attribute list. */
#define AXON_TYPE_ATTRS(func, handle, list)                                                          \
    do {                                                                                             \
        (list) = (handle) == MPI_DATATYPE_NULL ? NULL : axon_mpi_datatype_attrs(handle);             \
        if (!(list))                                                                                 \
            return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME((handle))); \
    } while (0)

AXON_MPI_WEAK(Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state)
{
    static const char func[] = "MPI_Type_create_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!type_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "type_keyval is a NULL pointer");
    int rc = axon_attr_keyval_create(AXON_ATTR_TYPE, type_copy_attr_fn, type_delete_attr_fn, extra_state,
                                     type_keyval);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "out of memory for keyvals");
}

AXON_MPI_WEAK(Type_free_keyval)
int PMPI_Type_free_keyval(int *type_keyval)
{
    static const char func[] = "MPI_Type_free_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!type_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "type_keyval is a NULL pointer");
    if (axon_attr_keyval_free(AXON_ATTR_TYPE, *type_keyval) != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "invalid datatype keyval %s",
                              AXON_MPI_HANDLE_NAME(*type_keyval));
    *type_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    static const char func[] = "MPI_Type_set_attr";
    struct axon_attr **list;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_TYPE_ATTRS(func, datatype, list);
    int rc = axon_attr_set(AXON_ATTR_TYPE, list, datatype, type_keyval, attribute_val);
    if (rc == MPI_ERR_KEYVAL)
        return axon_mpi_error(NULL, func, rc, "invalid datatype keyval %s", AXON_MPI_HANDLE_NAME(type_keyval));
    if (rc == MPI_ERR_NO_MEM)
        return axon_mpi_error(NULL, func, rc, "out of memory for an attribute");
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "the delete callback of the old value returned %d", rc);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    static const char func[] = "MPI_Type_get_attr";
    struct axon_attr **list;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_TYPE_ATTRS(func, datatype, list);
    if (!attribute_val || !flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "attribute_val or flag is a NULL pointer");
    void *value = NULL;
    int found = 0;
    if (axon_attr_get(AXON_ATTR_TYPE, list, type_keyval, &value, &found) != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "invalid datatype keyval %s",
                              AXON_MPI_HANDLE_NAME(type_keyval));
    *flag = found;
    if (found)
        *(void **)attribute_val = value;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    static const char func[] = "MPI_Type_delete_attr";
    struct axon_attr **list;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_TYPE_ATTRS(func, datatype, list);
    int rc = axon_attr_delete(AXON_ATTR_TYPE, list, datatype, type_keyval);
    if (rc == MPI_ERR_KEYVAL)
        return axon_mpi_error(NULL, func, rc, "invalid datatype keyval %s", AXON_MPI_HANDLE_NAME(type_keyval));
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "the delete callback returned %d", rc);
    return MPI_SUCCESS;
}
