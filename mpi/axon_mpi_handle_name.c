/* Handles in words, for error messages: a user reads "MPI_SUM on MPI_2INT" or "invalid datatype
 * MPI_COMM_WORLD", not 0x58000003 or 0x44000000. MPICH's handles say what they are in their top bits
 * (bits 30-31: null, builtin, direct or indirect; bits 26-29: the kind of object), so any int handle,
 * of any kind and valid or not, can be named without knowing which kind the caller expected: the null
 * and predefined handles by their names in mpi.h, a datatype, communicator or window the program named
 * (MPI_Type_set_name, MPI_Comm_set_name, MPI_Win_set_name) by that name and its number, anything else by
 * its number. */
#include "mpi/axon_mpi.h"
#include "mpi/datatype/axon_mpi_datatype.h"
#include "mpi/rma/axon_mpi_win.h"

#include <stdio.h>

enum axon_handle_kind {
    AXON_HK_COMM = 1, AXON_HK_GROUP = 2, AXON_HK_DATATYPE = 3, AXON_HK_ERRHANDLER = 5, AXON_HK_OP = 6,
    AXON_HK_INFO = 7, AXON_HK_WIN = 8, AXON_HK_REQUEST = 11, AXON_HK_SESSION = 14,
};

static const char *const axon_handle_null_names[16] = {
    [AXON_HK_COMM] = "MPI_COMM_NULL",       [AXON_HK_GROUP] = "MPI_GROUP_NULL",
    [AXON_HK_DATATYPE] = "MPI_DATATYPE_NULL", [AXON_HK_ERRHANDLER] = "MPI_ERRHANDLER_NULL",
    [AXON_HK_OP] = "MPI_OP_NULL",           [AXON_HK_INFO] = "MPI_INFO_NULL",
    [AXON_HK_WIN] = "MPI_WIN_NULL",         [AXON_HK_REQUEST] = "MPI_REQUEST_NULL",
    [AXON_HK_SESSION] = "MPI_SESSION_NULL",
};

/* By the low bits of the builtin handle 0x58000000 + i. */
static const char *const axon_handle_op_names[] = {
    NULL,       "MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",   "MPI_LAND",    "MPI_BAND", "MPI_LOR",
    "MPI_BOR",  "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP",
};

static const char *axon_handle_builtin_name(int handle)
{
    switch (handle) {
    case MPI_COMM_WORLD: return "MPI_COMM_WORLD";
    case MPI_COMM_SELF: return "MPI_COMM_SELF";
    case MPI_GROUP_EMPTY: return "MPI_GROUP_EMPTY";
    case MPI_INFO_ENV: return "MPI_INFO_ENV";
    case MPI_ERRORS_ARE_FATAL: return "MPI_ERRORS_ARE_FATAL";
    case MPI_ERRORS_RETURN: return "MPI_ERRORS_RETURN";
    case MPI_ERRORS_ABORT: return "MPI_ERRORS_ABORT";
    case MPI_MESSAGE_NO_PROC: return "MPI_MESSAGE_NO_PROC";
    }
    unsigned op = (unsigned)handle - 0x58000000u;
    if (op > 0 && op < AXON_ARRAY_SIZE(axon_handle_op_names))
        return axon_handle_op_names[op];
    return NULL;
}

const char *axon_mpi_handle_name(int handle, char *buf, size_t len)
{
    unsigned h = (unsigned)handle;
    unsigned kind = (h >> 26) & 0xfu;
    if (h >> 30 == 0 && (h & 0x03ffffffu) == 0 && axon_handle_null_names[kind]) {
        snprintf(buf, len, "%s", axon_handle_null_names[kind]);
        return buf;
    }
    const char *builtin = h >> 30 == 1 ? axon_handle_builtin_name(handle) : NULL;
    if (builtin) {
        snprintf(buf, len, "%s", builtin);
        return buf;
    }
    char name[MPI_MAX_OBJECT_NAME] = "";
    if (kind == AXON_HK_DATATYPE) {
        axon_mpi_datatype_name_get(handle, name);
    } else if (kind == AXON_HK_COMM) {
        struct axon_comm *c = axon_mpi_comm_get(handle);
        if (c)
            snprintf(name, sizeof(name), "%s", c->name);
    } else if (kind == AXON_HK_WIN) {
        axon_mpi_win_name_get(handle, name);
    }
    /* A predefined datatype is its name; one the program named is that name with its number. */
    if (name[0] && kind == AXON_HK_DATATYPE && axon_mpi_datatype_is_predefined(handle))
        snprintf(buf, len, "%s", name);
    else if (name[0])
        snprintf(buf, len, "\"%s\" (0x%08x)", name, h);
    else
        snprintf(buf, len, "0x%08x", h);
    return buf;
}
