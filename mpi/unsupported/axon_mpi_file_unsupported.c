/* MPI-IO: the MPI_File_* calls. Axon has no MPI-IO, so no file can be opened: MPI_File_open returns
 * MPI_ERR_UNSUPPORTED_OPERATION and sets *fh to MPI_FILE_NULL, and every call on a file does the same
 * (an output handle set to its null handle). They exist because Python bindings (mpi4py) reference every
 * MPI function and load the library with every symbol resolved.
 *
 * Errors of file calls go, as the standard says for calls without an open file, to the error handler of
 * MPI_FILE_NULL, which is MPI_ERRORS_RETURN until MPI_File_set_errhandler(MPI_FILE_NULL, ...) changes it:
 * then the class is returned as is. Another handler set there is run as an error on no object would
 * be (the error machinery knows communicators only): through MPI_COMM_SELF's handler or MPI_COMM_WORLD's
 * (axon_mpi_error) when it is not MPI_ERRORS_RETURN. The error-handler calls themselves work: file error handlers are
 * communicator error handlers, as in MPICH. */
#include "mpi/axon_mpi.h"

/* MPI_FILE_NULL's error handler. */
static _Atomic MPI_Errhandler axon_file_errhandler = MPI_ERRORS_RETURN;

static int axon_mpi_file_unsupported(const char *func)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (atomic_load(&axon_file_errhandler) == MPI_ERRORS_RETURN)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    return axon_mpi_error(NULL, func, MPI_ERR_UNSUPPORTED_OPERATION, "MPI-IO is not implemented in Axon");
}

AXON_MPI_WEAK(File_create_errhandler)
int PMPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_File_create_errhandler";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!file_errhandler_fn || !errhandler)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "%s is NULL",
                              file_errhandler_fn ? "errhandler" : "the handler function");
    int rc = axon_mpi_errhandler_create((MPI_Comm_errhandler_function *)(void (*)(void))file_errhandler_fn,
                                        AXON_ERRHANDLER_FOR_FILE, errhandler);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "cannot make the error handler (out of memory, or too many)");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(File_set_errhandler)
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    static const char func[] = "MPI_File_set_errhandler";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (file != MPI_FILE_NULL)
        return axon_mpi_file_unsupported(func);
    if (!axon_mpi_errhandler_get(errhandler))
        return axon_mpi_error(NULL, func, MPI_ERR_ERRHANDLER, "invalid error handler %s",
                              AXON_MPI_HANDLE_NAME(errhandler));
    if (!axon_mpi_errhandler_fits(errhandler, AXON_ERRHANDLER_FOR_FILE))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "error handler %s was made for another kind of object",
                              AXON_MPI_HANDLE_NAME(errhandler));
    axon_mpi_errhandler_retain(errhandler);
    axon_mpi_errhandler_release(atomic_exchange(&axon_file_errhandler, errhandler));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(File_get_errhandler)
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    static const char func[] = "MPI_File_get_errhandler";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!errhandler)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "errhandler is a NULL pointer");
    if (file != MPI_FILE_NULL) {
        *errhandler = MPI_ERRHANDLER_NULL;
        return axon_mpi_file_unsupported(func);
    }
    /* The caller gets a reference of its own, to free with MPI_Errhandler_free. */
    *errhandler = atomic_load(&axon_file_errhandler);
    axon_mpi_errhandler_retain(*errhandler);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(File_call_errhandler)
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    (void)fh, (void)errorcode;
    return axon_mpi_file_unsupported("MPI_File_call_errhandler");
}

AXON_MPI_WEAK(File_open)
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    (void)comm, (void)filename, (void)amode, (void)info;
    if (fh)
        *fh = MPI_FILE_NULL;
    return axon_mpi_file_unsupported("MPI_File_open");
}

AXON_MPI_WEAK(File_close)
int PMPI_File_close(MPI_File *fh)
{
    (void)fh;
    return axon_mpi_file_unsupported("MPI_File_close");
}

AXON_MPI_WEAK(File_delete)
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    (void)filename, (void)info;
    return axon_mpi_file_unsupported("MPI_File_delete");
}

AXON_MPI_WEAK(File_set_size)
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    (void)fh, (void)size;
    return axon_mpi_file_unsupported("MPI_File_set_size");
}

AXON_MPI_WEAK(File_preallocate)
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    (void)fh, (void)size;
    return axon_mpi_file_unsupported("MPI_File_preallocate");
}

AXON_MPI_WEAK(File_get_size)
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    (void)fh, (void)size;
    return axon_mpi_file_unsupported("MPI_File_get_size");
}

AXON_MPI_WEAK(File_get_group)
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    (void)fh;
    if (group)
        *group = MPI_GROUP_NULL;
    return axon_mpi_file_unsupported("MPI_File_get_group");
}

AXON_MPI_WEAK(File_get_amode)
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    (void)fh, (void)amode;
    return axon_mpi_file_unsupported("MPI_File_get_amode");
}

AXON_MPI_WEAK(File_set_info)
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    (void)fh, (void)info;
    return axon_mpi_file_unsupported("MPI_File_set_info");
}

AXON_MPI_WEAK(File_get_info)
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    (void)fh;
    if (info_used)
        *info_used = MPI_INFO_NULL;
    return axon_mpi_file_unsupported("MPI_File_get_info");
}

AXON_MPI_WEAK(File_set_view)
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep,
                       MPI_Info info)
{
    (void)fh, (void)disp, (void)etype, (void)filetype, (void)datarep, (void)info;
    return axon_mpi_file_unsupported("MPI_File_set_view");
}

AXON_MPI_WEAK(File_get_view)
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    (void)fh, (void)disp, (void)datarep;
    if (etype)
        *etype = MPI_DATATYPE_NULL;
    if (filetype)
        *filetype = MPI_DATATYPE_NULL;
    return axon_mpi_file_unsupported("MPI_File_get_view");
}

AXON_MPI_WEAK(File_seek)
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    (void)fh, (void)offset, (void)whence;
    return axon_mpi_file_unsupported("MPI_File_seek");
}

AXON_MPI_WEAK(File_seek_shared)
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    (void)fh, (void)offset, (void)whence;
    return axon_mpi_file_unsupported("MPI_File_seek_shared");
}

AXON_MPI_WEAK(File_get_position)
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    (void)fh, (void)offset;
    return axon_mpi_file_unsupported("MPI_File_get_position");
}

AXON_MPI_WEAK(File_get_position_shared)
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    (void)fh, (void)offset;
    return axon_mpi_file_unsupported("MPI_File_get_position_shared");
}

AXON_MPI_WEAK(File_get_byte_offset)
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    (void)fh, (void)offset, (void)disp;
    return axon_mpi_file_unsupported("MPI_File_get_byte_offset");
}

AXON_MPI_WEAK(File_get_type_extent)
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    (void)fh, (void)datatype, (void)extent;
    return axon_mpi_file_unsupported("MPI_File_get_type_extent");
}

AXON_MPI_WEAK(File_get_type_extent_c)
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    (void)fh, (void)datatype, (void)extent;
    return axon_mpi_file_unsupported("MPI_File_get_type_extent_c");
}

AXON_MPI_WEAK(File_set_atomicity)
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    (void)fh, (void)flag;
    return axon_mpi_file_unsupported("MPI_File_set_atomicity");
}

AXON_MPI_WEAK(File_get_atomicity)
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    (void)fh, (void)flag;
    return axon_mpi_file_unsupported("MPI_File_get_atomicity");
}

AXON_MPI_WEAK(File_sync)
int PMPI_File_sync(MPI_File fh)
{
    (void)fh;
    return axon_mpi_file_unsupported("MPI_File_sync");
}

AXON_MPI_WEAK(File_read)
int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read");
}

AXON_MPI_WEAK(File_iread)
int PMPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread");
}

AXON_MPI_WEAK(File_read_at)
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_at");
}

AXON_MPI_WEAK(File_iread_at)
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                       MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_at");
}

AXON_MPI_WEAK(File_read_all)
int PMPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_all");
}

AXON_MPI_WEAK(File_iread_all)
int PMPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_all");
}

AXON_MPI_WEAK(File_read_at_all)
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                          MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_at_all");
}

AXON_MPI_WEAK(File_iread_at_all)
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                           MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_at_all");
}

AXON_MPI_WEAK(File_read_shared)
int PMPI_File_read_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_shared");
}

AXON_MPI_WEAK(File_iread_shared)
int PMPI_File_iread_shared(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_shared");
}

AXON_MPI_WEAK(File_read_ordered)
int PMPI_File_read_ordered(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_ordered");
}

AXON_MPI_WEAK(File_read_all_begin)
int PMPI_File_read_all_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_read_all_begin");
}

AXON_MPI_WEAK(File_read_all_end)
int PMPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)fh, (void)buf, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_all_end");
}

AXON_MPI_WEAK(File_read_at_all_begin)
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_read_at_all_begin");
}

AXON_MPI_WEAK(File_read_at_all_end)
int PMPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)fh, (void)buf, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_at_all_end");
}

AXON_MPI_WEAK(File_read_ordered_begin)
int PMPI_File_read_ordered_begin(MPI_File fh, void *buf, int count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_read_ordered_begin");
}

AXON_MPI_WEAK(File_read_ordered_end)
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)fh, (void)buf, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_ordered_end");
}

AXON_MPI_WEAK(File_write)
int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write");
}

AXON_MPI_WEAK(File_iwrite)
int PMPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite");
}

AXON_MPI_WEAK(File_write_at)
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_at");
}

AXON_MPI_WEAK(File_iwrite_at)
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                        MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_at");
}

AXON_MPI_WEAK(File_write_all)
int PMPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_all");
}

AXON_MPI_WEAK(File_iwrite_all)
int PMPI_File_iwrite_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_all");
}

AXON_MPI_WEAK(File_write_at_all)
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                           MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_at_all");
}

AXON_MPI_WEAK(File_iwrite_at_all)
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype,
                            MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_at_all");
}

AXON_MPI_WEAK(File_write_shared)
int PMPI_File_write_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_shared");
}

AXON_MPI_WEAK(File_iwrite_shared)
int PMPI_File_iwrite_shared(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_shared");
}

AXON_MPI_WEAK(File_write_ordered)
int PMPI_File_write_ordered(MPI_File fh, const void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_ordered");
}

AXON_MPI_WEAK(File_write_all_begin)
int PMPI_File_write_all_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_write_all_begin");
}

AXON_MPI_WEAK(File_write_all_end)
int PMPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)fh, (void)buf, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_all_end");
}

AXON_MPI_WEAK(File_write_at_all_begin)
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void *buf, int count, MPI_Datatype datatype)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_write_at_all_begin");
}

AXON_MPI_WEAK(File_write_at_all_end)
int PMPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)fh, (void)buf, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_at_all_end");
}

AXON_MPI_WEAK(File_write_ordered_begin)
int PMPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_write_ordered_begin");
}

AXON_MPI_WEAK(File_write_ordered_end)
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)fh, (void)buf, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_ordered_end");
}

AXON_MPI_WEAK(File_read_c)
int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_c");
}

AXON_MPI_WEAK(File_iread_c)
int PMPI_File_iread_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_c");
}

AXON_MPI_WEAK(File_read_at_c)
int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_at_c");
}

AXON_MPI_WEAK(File_iread_at_c)
int PMPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_at_c");
}

AXON_MPI_WEAK(File_read_all_c)
int PMPI_File_read_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_all_c");
}

AXON_MPI_WEAK(File_iread_all_c)
int PMPI_File_iread_all_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_all_c");
}

AXON_MPI_WEAK(File_read_at_all_c)
int PMPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_at_all_c");
}

AXON_MPI_WEAK(File_iread_at_all_c)
int PMPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_at_all_c");
}

AXON_MPI_WEAK(File_read_shared_c)
int PMPI_File_read_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_shared_c");
}

AXON_MPI_WEAK(File_iread_shared_c)
int PMPI_File_iread_shared_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iread_shared_c");
}

AXON_MPI_WEAK(File_read_ordered_c)
int PMPI_File_read_ordered_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_read_ordered_c");
}

AXON_MPI_WEAK(File_read_all_begin_c)
int PMPI_File_read_all_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_read_all_begin_c");
}

AXON_MPI_WEAK(File_read_at_all_begin_c)
int PMPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_read_at_all_begin_c");
}

AXON_MPI_WEAK(File_read_ordered_begin_c)
int PMPI_File_read_ordered_begin_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_read_ordered_begin_c");
}

AXON_MPI_WEAK(File_write_c)
int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_c");
}

AXON_MPI_WEAK(File_iwrite_c)
int PMPI_File_iwrite_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_c");
}

AXON_MPI_WEAK(File_write_at_c)
int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_at_c");
}

AXON_MPI_WEAK(File_iwrite_at_c)
int PMPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                          MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_at_c");
}

AXON_MPI_WEAK(File_write_all_c)
int PMPI_File_write_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_all_c");
}

AXON_MPI_WEAK(File_iwrite_all_c)
int PMPI_File_iwrite_all_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_all_c");
}

AXON_MPI_WEAK(File_write_at_all_c)
int PMPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Status *status)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_at_all_c");
}

AXON_MPI_WEAK(File_iwrite_at_all_c)
int PMPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_at_all_c");
}

AXON_MPI_WEAK(File_write_shared_c)
int PMPI_File_write_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_shared_c");
}

AXON_MPI_WEAK(File_iwrite_shared_c)
int PMPI_File_iwrite_shared_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    if (request)
        *request = MPI_REQUEST_NULL;
    return axon_mpi_file_unsupported("MPI_File_iwrite_shared_c");
}

AXON_MPI_WEAK(File_write_ordered_c)
int PMPI_File_write_ordered_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status)
{
    (void)fh, (void)buf, (void)count, (void)datatype, (void)status;
    return axon_mpi_file_unsupported("MPI_File_write_ordered_c");
}

AXON_MPI_WEAK(File_write_all_begin_c)
int PMPI_File_write_all_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_write_all_begin_c");
}

AXON_MPI_WEAK(File_write_at_all_begin_c)
int PMPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                   MPI_Datatype datatype)
{
    (void)fh, (void)offset, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_write_at_all_begin_c");
}

AXON_MPI_WEAK(File_write_ordered_begin_c)
int PMPI_File_write_ordered_begin_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype)
{
    (void)fh, (void)buf, (void)count, (void)datatype;
    return axon_mpi_file_unsupported("MPI_File_write_ordered_begin_c");
}
