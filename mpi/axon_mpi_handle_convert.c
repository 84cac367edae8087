/* Handle conversions: MPI_<Kind>_c2f and _f2c (to and from Fortran's MPI_Fint), MPI 5's
 * MPI_<Kind>_toint and _fromint, and MPI_Status_c2f/_f2c.
 *
 * In the MPICH ABI every handle but a file is an int, and the Fortran handle is that same int, so each
 * conversion is the identity; mpi.h also defines the c2f/f2c names as macros, as MPICH's does, and the
 * functions here serve programs and bindings (mpi4py) that take their addresses or call them through
 * the library. MPI_File is a pointer: no file can be opened in Axon, so MPI_FILE_NULL, as 0, is the only
 * file handle that converts, and any other int gives MPI_FILE_NULL back. None of these can report an
 * error (they return the handle), and the standard lets them be called at any time, so they check
 * nothing, not even that MPI is active. */
#include "mpi/axon_mpi.h"

#include <string.h>

/* The four conversions of an int-handle kind. */
#define AXON_HANDLE_CONVERT(Kind, Type)                                                              \
    AXON_MPI_WEAK(Kind##_c2f)                                                                        \
    MPI_Fint PMPI_##Kind##_c2f(Type handle)                                                          \
    {                                                                                                \
        return (MPI_Fint)handle;                                                                     \
    }                                                                                                \
    AXON_MPI_WEAK(Kind##_f2c)                                                                        \
    Type PMPI_##Kind##_f2c(MPI_Fint handle)                                                          \
    {                                                                                                \
        return (Type)handle;                                                                         \
    }                                                                                                \
    AXON_MPI_WEAK(Kind##_toint)                                                                      \
    int PMPI_##Kind##_toint(Type handle)                                                             \
    {                                                                                                \
        return (int)handle;                                                                          \
    }                                                                                                \
    AXON_MPI_WEAK(Kind##_fromint)                                                                    \
    Type PMPI_##Kind##_fromint(int handle)                                                           \
    {                                                                                                \
        return (Type)handle;                                                                         \
    }

AXON_HANDLE_CONVERT(Comm, MPI_Comm)
AXON_HANDLE_CONVERT(Errhandler, MPI_Errhandler)
AXON_HANDLE_CONVERT(Group, MPI_Group)
AXON_HANDLE_CONVERT(Info, MPI_Info)
AXON_HANDLE_CONVERT(Message, MPI_Message)
AXON_HANDLE_CONVERT(Op, MPI_Op)
AXON_HANDLE_CONVERT(Request, MPI_Request)
AXON_HANDLE_CONVERT(Session, MPI_Session)
AXON_HANDLE_CONVERT(Type, MPI_Datatype)
AXON_HANDLE_CONVERT(Win, MPI_Win)

AXON_MPI_WEAK(File_c2f)
MPI_Fint PMPI_File_c2f(MPI_File file)
{
    (void)file;
    return 0;
}

AXON_MPI_WEAK(File_f2c)
MPI_File PMPI_File_f2c(MPI_Fint file)
{
    (void)file;
    return MPI_FILE_NULL;
}

AXON_MPI_WEAK(File_toint)
int PMPI_File_toint(MPI_File file)
{
    (void)file;
    return 0;
}

AXON_MPI_WEAK(File_fromint)
MPI_File PMPI_File_fromint(int file)
{
    (void)file;
    return MPI_FILE_NULL;
}

/* A Fortran status is MPI_F_STATUS_SIZE integers holding the C status's five ints in order (count_lo,
 * count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR), as in the MPICH ABI. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint), "MPI_Status is not 5 MPI_Fints");

AXON_MPI_WEAK(Status_c2f)
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    static const char func[] = "MPI_Status_c2f";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!c_status || c_status == MPI_STATUS_IGNORE)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "c_status is a NULL pointer or MPI_STATUS_IGNORE");
    if (!f_status)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "f_status is a NULL pointer");
    memcpy(f_status, c_status, sizeof(*c_status));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Status_f2c)
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    static const char func[] = "MPI_Status_f2c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!f_status)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "f_status is a NULL pointer");
    if (!c_status || c_status == MPI_STATUS_IGNORE)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "c_status is a NULL pointer or MPI_STATUS_IGNORE");
    memcpy(c_status, f_status, sizeof(*c_status));
    return MPI_SUCCESS;
}
