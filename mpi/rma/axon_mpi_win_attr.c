/* What a window carries besides its memory: attributes (MPI_Win_create_keyval, _free_keyval, _set_attr,
 * _get_attr, _delete_attr, and the predefined MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
 * MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL), its name, its group, and its error handler
 * (MPI_Win_create_errhandler, _set_errhandler, _get_errhandler, _call_errhandler).
 *
 * Keyvals and attribute lists are the shared machinery of mpi/comm/axon_mpi_attr.c, under the kind
 * AXON_ATTR_WIN (handles 0xa6000000 | index); the predefined keyvals (0x660000xx in mpi.h) cannot collide
 * with them. Windows are never duplicated, so copy callbacks never run; delete callbacks run at
 * MPI_Win_delete_attr, at an overwrite and at MPI_Win_free. A window error handler is an error handler
 * object like a communicator's: MPI_Win_errhandler_function has the same shape, and the handle it gets is
 * the window's. */
#include "mpi/rma/axon_mpi_win.h"

#include <string.h>

/* ---- attributes ----------------------------------------------------------------------------------- */

static bool axon_mpi_win_attr_is_predefined(int keyval)
{
    return keyval == MPI_WIN_BASE || keyval == MPI_WIN_SIZE || keyval == MPI_WIN_DISP_UNIT ||
           keyval == MPI_WIN_CREATE_FLAVOR || keyval == MPI_WIN_MODEL;
}

AXON_MPI_WEAK(Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state)
{
    static const char func[] = "MPI_Win_create_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!win_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "win_keyval is a NULL pointer");
    int rc = axon_attr_keyval_create(AXON_ATTR_WIN, win_copy_attr_fn, win_delete_attr_fn, extra_state, win_keyval);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "out of memory for keyvals");
}

AXON_MPI_WEAK(Win_free_keyval)
int PMPI_Win_free_keyval(int *win_keyval)
{
    static const char func[] = "MPI_Win_free_keyval";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!win_keyval)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "win_keyval is a NULL pointer");
    if (axon_mpi_win_attr_is_predefined(*win_keyval))
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "keyval %s is predefined and cannot be freed",
                              AXON_MPI_HANDLE_NAME(*win_keyval));
    if (axon_attr_keyval_free(AXON_ATTR_WIN, *win_keyval) != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, MPI_ERR_KEYVAL, "invalid window keyval %s",
                              AXON_MPI_HANDLE_NAME(*win_keyval));
    *win_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    static const char func[] = "MPI_Win_set_attr";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (axon_mpi_win_attr_is_predefined(win_keyval))
        return axon_mpi_win_error(w, func, MPI_ERR_KEYVAL, "keyval %s is predefined and cannot be set",
                                  AXON_MPI_HANDLE_NAME(win_keyval));
    int rc = axon_attr_set(AXON_ATTR_WIN, &w->attrs, w->handle, win_keyval, attribute_val);
    if (rc == MPI_ERR_KEYVAL)
        return axon_mpi_win_error(w, func, rc, "invalid window keyval %s", AXON_MPI_HANDLE_NAME(win_keyval));
    if (rc == MPI_ERR_NO_MEM)
        return axon_mpi_win_error(w, func, rc, "out of memory for an attribute");
    if (rc != MPI_SUCCESS)
        return axon_mpi_win_error(w, func, rc, "the delete callback of the old value returned %d", rc);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    static const char func[] = "MPI_Win_get_attr";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!attribute_val || !flag)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "attribute_val or flag is a NULL pointer");
    /* The C binding: MPI_WIN_BASE is the base address itself, the others point to their value. */
    void *value;
    switch (win_keyval) {
    case MPI_WIN_BASE:
        value = w->base;
        break;
    case MPI_WIN_SIZE:
        value = &w->attr_size;
        break;
    case MPI_WIN_DISP_UNIT:
        value = &w->attr_disp_unit;
        break;
    case MPI_WIN_CREATE_FLAVOR:
        value = &w->attr_flavor;
        break;
    case MPI_WIN_MODEL:
        value = &w->attr_model;
        break;
    default: {
        int found = 0;
        value = NULL;
        if (axon_attr_get(AXON_ATTR_WIN, &w->attrs, win_keyval, &value, &found) != MPI_SUCCESS)
            return axon_mpi_win_error(w, func, MPI_ERR_KEYVAL, "invalid window keyval %s",
                                      AXON_MPI_HANDLE_NAME(win_keyval));
        *flag = found;
        if (found)
            *(void **)attribute_val = value;
        return MPI_SUCCESS;
    }
    }
    *flag = 1;
    *(void **)attribute_val = value;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    static const char func[] = "MPI_Win_delete_attr";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (axon_mpi_win_attr_is_predefined(win_keyval))
        return axon_mpi_win_error(w, func, MPI_ERR_KEYVAL, "keyval %s is predefined and cannot be deleted",
                                  AXON_MPI_HANDLE_NAME(win_keyval));
    int rc = axon_attr_delete(AXON_ATTR_WIN, &w->attrs, w->handle, win_keyval);
    if (rc == MPI_ERR_KEYVAL)
        return axon_mpi_win_error(w, func, rc, "invalid window keyval %s", AXON_MPI_HANDLE_NAME(win_keyval));
    if (rc != MPI_SUCCESS)
        return axon_mpi_win_error(w, func, rc, "the delete callback returned %d", rc);
    return MPI_SUCCESS;
}

/* ---- name and group ------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    static const char func[] = "MPI_Win_set_name";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!win_name)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "win_name is a NULL pointer");
    /* Longer names are cut to MPI_MAX_OBJECT_NAME - 1 characters (the standard allows it). */
    size_t n = strnlen(win_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(w->name, win_name, n);
    w->name[n] = '\0';
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    static const char func[] = "MPI_Win_get_name";
    struct axon_win *w = NULL;
    AXON_MPI_REQUIRE_ACTIVE(func);
    /* The null handle has a name too (MPI 4.1); a window the program did not name has "", as in MPICH. */
    if (win != MPI_WIN_NULL)
        AXON_MPI_WIN_CHECK(func, win, w);
    if (!win_name || !resultlen) {
        if (!w)
            return axon_mpi_error(NULL, func, MPI_ERR_ARG, "win_name or resultlen is a NULL pointer");
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "win_name or resultlen is a NULL pointer");
    }
    const char *name = w ? w->name : "MPI_WIN_NULL";
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(win_name, name, n);
    win_name[n] = '\0';
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    static const char func[] = "MPI_Win_get_group";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!group)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "group is a NULL pointer");
    /* A new handle, which the caller frees with MPI_Group_free, on a reference of its own. */
    axon_group_retain(w->group);
    int rc = axon_mpi_group_handle_new(w->group, group);
    if (rc != MPI_SUCCESS) {
        axon_group_release(w->group);
        return axon_mpi_win_error(w, func, rc, "cannot make a group handle");
    }
    return MPI_SUCCESS;
}

/* ---- error handlers ------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Win_create_errhandler";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!win_errhandler_fn)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the handler function is NULL");
    if (!errhandler)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    /* The same C shape as a communicator's handler (MPI_Win and MPI_Comm are both int): one kind of
     * object serves both, and it gets the window's handle when an error on the window calls it. */
    int rc = axon_mpi_errhandler_create((MPI_Comm_errhandler_function *)(void (*)(void))win_errhandler_fn,
                                        AXON_ERRHANDLER_FOR_WIN,
                                        errhandler);
    if (rc == MPI_ERR_INTERN)
        return axon_mpi_error(NULL, func, rc, "too many error handlers exist at once");
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    static const char func[] = "MPI_Win_set_errhandler";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!axon_mpi_errhandler_get(errhandler))
        return axon_mpi_win_error(w, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                                  AXON_MPI_HANDLE_NAME(errhandler));
    if (!axon_mpi_errhandler_fits(errhandler, AXON_ERRHANDLER_FOR_WIN))
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "error handler %s was made for another kind of object",
                                  AXON_MPI_HANDLE_NAME(errhandler));
    /* The window holds its own reference: the program may free its handle at once. */
    axon_mpi_errhandler_retain(errhandler);
    MPI_Errhandler old = w->errhandler;
    w->errhandler = errhandler;
    axon_mpi_errhandler_release(old);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_Win_get_errhandler";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!errhandler)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    /* The caller gets a reference of its own, which it frees with MPI_Errhandler_free. */
    axon_mpi_errhandler_retain(w->errhandler);
    *errhandler = w->errhandler;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    static const char func[] = "MPI_Win_call_errhandler";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    axon_mpi_win_error(w, func, errorcode, "raised by the application");
    return MPI_SUCCESS;
}
