/* The error classes: their names and descriptions, and MPI_Error_string / MPI_Error_class. Axon's error
 * codes are its error classes, so a returned code compares equal to the class the standard names; the
 * classes and codes a program adds (mpi/axon_mpi_error_add.c) are answered from their own table. */
#include "mpi/axon_mpi.h"

#include <stdio.h>
#include <string.h>

struct axon_error_class_info {
    const char *name;
    const char *text;
};

#define AXON_EC(cls, description) [cls] = {#cls, description}

static const struct axon_error_class_info axon_error_classes[] = {
    AXON_EC(MPI_SUCCESS, "no error"),
    AXON_EC(MPI_ERR_BUFFER, "invalid buffer pointer"),
    AXON_EC(MPI_ERR_COUNT, "invalid count argument"),
    AXON_EC(MPI_ERR_TYPE, "invalid datatype"),
    AXON_EC(MPI_ERR_TAG, "invalid tag"),
    AXON_EC(MPI_ERR_COMM, "invalid communicator"),
    AXON_EC(MPI_ERR_RANK, "invalid rank"),
    AXON_EC(MPI_ERR_ROOT, "invalid root"),
    AXON_EC(MPI_ERR_TRUNCATE, "message truncated"),
    AXON_EC(MPI_ERR_GROUP, "invalid group"),
    AXON_EC(MPI_ERR_OP, "invalid reduce operation"),
    AXON_EC(MPI_ERR_REQUEST, "invalid request"),
    AXON_EC(MPI_ERR_TOPOLOGY, "invalid topology"),
    AXON_EC(MPI_ERR_DIMS, "invalid dimension argument"),
    AXON_EC(MPI_ERR_ARG, "invalid argument"),
    AXON_EC(MPI_ERR_OTHER, "other error"),
    AXON_EC(MPI_ERR_UNKNOWN, "unknown error"),
    AXON_EC(MPI_ERR_INTERN, "internal error"),
    AXON_EC(MPI_ERR_IN_STATUS, "error code is in status"),
    AXON_EC(MPI_ERR_PENDING, "pending request"),
    AXON_EC(MPI_ERR_ACCESS, "permission denied"),
    AXON_EC(MPI_ERR_AMODE, "invalid file access mode"),
    AXON_EC(MPI_ERR_BAD_FILE, "invalid file name"),
    AXON_EC(MPI_ERR_CONVERSION, "data conversion error"),
    AXON_EC(MPI_ERR_DUP_DATAREP, "duplicate data representation"),
    AXON_EC(MPI_ERR_FILE_EXISTS, "file exists"),
    AXON_EC(MPI_ERR_FILE_IN_USE, "file in use"),
    AXON_EC(MPI_ERR_FILE, "invalid file handle"),
    AXON_EC(MPI_ERR_IO, "I/O error"),
    AXON_EC(MPI_ERR_NO_SPACE, "no space left"),
    AXON_EC(MPI_ERR_NO_SUCH_FILE, "no such file"),
    AXON_EC(MPI_ERR_READ_ONLY, "read-only file or file system"),
    AXON_EC(MPI_ERR_UNSUPPORTED_DATAREP, "unsupported data representation"),
    AXON_EC(MPI_ERR_INFO, "invalid info object"),
    AXON_EC(MPI_ERR_INFO_KEY, "invalid info key"),
    AXON_EC(MPI_ERR_INFO_VALUE, "invalid info value"),
    AXON_EC(MPI_ERR_INFO_NOKEY, "info key not found"),
    AXON_EC(MPI_ERR_NAME, "invalid service name"),
    AXON_EC(MPI_ERR_NO_MEM, "out of memory"),
    AXON_EC(MPI_ERR_NOT_SAME, "arguments differ between processes"),
    AXON_EC(MPI_ERR_PORT, "invalid port name"),
    AXON_EC(MPI_ERR_QUOTA, "quota exceeded"),
    AXON_EC(MPI_ERR_SERVICE, "invalid service"),
    AXON_EC(MPI_ERR_SPAWN, "could not spawn processes"),
    AXON_EC(MPI_ERR_UNSUPPORTED_OPERATION, "operation not supported"),
    AXON_EC(MPI_ERR_WIN, "invalid window"),
    AXON_EC(MPI_ERR_BASE, "invalid base address"),
    AXON_EC(MPI_ERR_LOCKTYPE, "invalid lock type"),
    AXON_EC(MPI_ERR_KEYVAL, "invalid attribute key"),
    AXON_EC(MPI_ERR_RMA_CONFLICT, "conflicting accesses to a window"),
    AXON_EC(MPI_ERR_RMA_SYNC, "wrong synchronization of RMA calls"),
    AXON_EC(MPI_ERR_SIZE, "invalid size"),
    AXON_EC(MPI_ERR_DISP, "invalid displacement"),
    AXON_EC(MPI_ERR_ASSERT, "invalid assert"),
    AXON_EC(MPI_ERR_RMA_RANGE, "target memory is outside the window"),
    AXON_EC(MPI_ERR_RMA_ATTACH, "memory cannot be attached"),
    AXON_EC(MPI_ERR_RMA_SHARED, "memory cannot be shared"),
    AXON_EC(MPI_ERR_RMA_FLAVOR, "wrong window flavor"),
    AXON_EC(MPI_T_ERR_MEMORY, "out of memory (tools interface)"),
    AXON_EC(MPI_T_ERR_NOT_INITIALIZED, "the tools interface is not initialized"),
    AXON_EC(MPI_T_ERR_CANNOT_INIT, "the tools interface cannot be initialized"),
    AXON_EC(MPI_T_ERR_INVALID_INDEX, "invalid index"),
    AXON_EC(MPI_T_ERR_INVALID_ITEM, "invalid item index"),
    AXON_EC(MPI_T_ERR_INVALID_HANDLE, "invalid tools interface handle"),
    AXON_EC(MPI_T_ERR_OUT_OF_HANDLES, "no more tools interface handles"),
    AXON_EC(MPI_T_ERR_OUT_OF_SESSIONS, "no more performance variable sessions"),
    AXON_EC(MPI_T_ERR_INVALID_SESSION, "invalid performance variable session"),
    AXON_EC(MPI_T_ERR_CVAR_SET_NOT_NOW, "the control variable cannot be set now"),
    AXON_EC(MPI_T_ERR_CVAR_SET_NEVER, "the control variable can never be set"),
    AXON_EC(MPI_T_ERR_PVAR_NO_STARTSTOP, "the performance variable cannot be started or stopped"),
    AXON_EC(MPI_T_ERR_PVAR_NO_WRITE, "the performance variable cannot be written or reset"),
    AXON_EC(MPI_T_ERR_PVAR_NO_ATOMIC, "the performance variable cannot be read and reset atomically"),
    AXON_EC(MPI_T_ERR_INVALID_NAME, "no variable, category or event of that name"),
    AXON_EC(MPI_T_ERR_INVALID, "invalid use of the tools interface"),
    AXON_EC(MPI_ERR_SESSION, "invalid session"),
    AXON_EC(MPI_ERR_PROC_ABORTED, "a process aborted"),
    AXON_EC(MPI_ERR_VALUE_TOO_LARGE, "value too large for the output argument"),
    AXON_EC(MPI_T_ERR_NOT_SUPPORTED, "not supported by the tools interface"),
    AXON_EC(MPI_T_ERR_NOT_ACCESSIBLE, "not accessible through the tools interface now"),
    AXON_EC(MPI_ERR_ERRHANDLER, "invalid error handler"),
    /* MPICH's fault tolerance classes (mpi-ext.h); Axon raises none of them: a dead rank ends the job. */
    AXON_EC(MPIX_ERR_PROC_FAILED, "a process failed"),
    AXON_EC(MPIX_ERR_PROC_FAILED_PENDING, "a process failure left this request pending"),
    AXON_EC(MPIX_ERR_REVOKED, "the communicator was revoked"),
};

#define AXON_NCLASSES ((int)(AXON_ARRAY_SIZE(axon_error_classes)))

const char *axon_mpi_error_class_name(int errclass)
{
    if (errclass < 0 || errclass >= AXON_NCLASSES)
        return NULL;
    return axon_error_classes[errclass].name;
}

const char *axon_mpi_error_class_text(int errclass)
{
    if (errclass < 0 || errclass >= AXON_NCLASSES)
        return NULL;
    return axon_error_classes[errclass].text;
}

/* Error_string and Error_class may be called at any time, even before MPI_Init (MPI-4 lists them among
 * the calls allowed outside it), so they do not check the state. */
AXON_MPI_WEAK(Error_string)
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    static const char func[] = "MPI_Error_string";
    if (!string || !resultlen)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "string or resultlen is a NULL pointer");
    if (axon_mpi_error_dynamic(errorcode, NULL, NULL)) {
        /* The program's string, or an empty one if it gave none (the standard's answer). */
        axon_mpi_error_dynamic_text(errorcode, string, MPI_MAX_ERROR_STRING);
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    const char *name = axon_mpi_error_class_name(errorcode);
    if (!name)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%d is not an error code", errorcode);
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", name, axon_mpi_error_class_text(errorcode));
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Error_class)
int PMPI_Error_class(int errorcode, int *errorclass)
{
    static const char func[] = "MPI_Error_class";
    if (!errorclass)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errorclass is a NULL pointer");
    int cls = errorcode;
    if (!axon_mpi_error_class_name(errorcode) && !axon_mpi_error_dynamic(errorcode, &cls, NULL))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%d is not an error code", errorcode);
    *errorclass = cls;
    return MPI_SUCCESS;
}
