/* Packing and addresses: MPI_Pack, MPI_Unpack (each with its large-count _c form, sharing one 64-bit
 * function), MPI_Pack_size, MPI_Get_address, MPI_Aint_add and MPI_Aint_diff.
 *
 * The packed form is the data's bytes in typemap order and nothing else (no header), so MPI_Pack_size is
 * exact, and a message packed here and sent as MPI_PACKED can be received with the original type.
 * A buffer too small for the data is an invalid argument (MPI_ERR_ARG), for MPI_Pack and MPI_Unpack
 * alike: MPI 3.1 keeps MPI_ERR_TRUNCATE for a message longer than a receive buffer, and MPICH, whose ABI
 * programs are built for, answers MPI_ERR_ARG too. The input buffer of MPI_Pack (and the output buffer of
 * MPI_Unpack) may be MPI_BOTTOM with a type of absolute addresses. */
#include "mpi/datatype/axon_mpi_datatype.h"

#include <limits.h>
#include <string.h>

/* Copies count elements between a typed buffer and packed bytes. */
static int axon_dt_copy(bool pack, void *typed, void *packed, int64_t count, const struct axon_dtype_layout *dt)
{
    int64_t bytes = count * dt->size;
    if (bytes == 0)
        return MPI_SUCCESS;
    if (dt->contig) {
        if (pack)
            memcpy(packed, (char *)typed + dt->true_lb, (size_t)bytes);
        else
            memcpy((char *)typed + dt->true_lb, packed, (size_t)bytes);
        return MPI_SUCCESS;
    }
    struct axon_dloop_cursor cursor;
    if (axon_dloop_cursor_init(&cursor, dt->loop, count, dt->extent) != 0)
        return MPI_ERR_NO_MEM;
    if (pack)
        axon_dloop_pack(&cursor, typed, packed, bytes);
    else
        axon_dloop_unpack(&cursor, typed, packed, bytes);
    axon_dloop_cursor_fini(&cursor);
    return MPI_SUCCESS;
}

/* MPI_Pack and MPI_Unpack, and their large-count (_c) forms, in one function of 64-bit counts, sizes and
 * position (an int call's position, within its int size, narrows back exactly). pack: typed -> packed. */
static int axon_dt_pack(const char *func, bool pack, void *typed, int64_t count, MPI_Datatype datatype, void *packed,
                        int64_t packed_size, int64_t *position, MPI_Comm comm)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (count < 0)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    if (!axon_mpi_datatype_get(datatype, &dt))
        return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid or uncommitted datatype %s",
                              AXON_MPI_HANDLE_NAME(datatype));
    if (!position)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "position is a NULL pointer");
    if (packed_size < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "the packed buffer's size %lld is negative",
                              (long long)packed_size);
    if (*position < 0 || *position > packed_size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "position %lld lies outside the packed buffer of %lld bytes",
                              (long long)*position, (long long)packed_size);
    int64_t bytes;
    if (__builtin_mul_overflow(count, dt.size, &bytes) || bytes > packed_size - *position)
        return axon_mpi_error(c, func, MPI_ERR_ARG,
                              "%lld elements of %lld bytes do not fit the %lld bytes left in the packed buffer",
                              (long long)count, (long long)dt.size, (long long)(packed_size - *position));
    if (bytes > 0 && !packed)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "the packed buffer is a NULL pointer");
    int rc = axon_dt_copy(pack, typed, (char *)packed + *position, count, &dt);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "out of memory");
    *position += bytes;
    return MPI_SUCCESS;
}

/* An int call's position through the 64-bit function. */
static int axon_dt_pack_int(const char *func, bool pack, void *typed, int count, MPI_Datatype datatype, void *packed,
                            int packed_size, int *position, MPI_Comm comm)
{
    int64_t pos = position ? *position : 0;
    int rc = axon_dt_pack(func, pack, typed, count, datatype, packed, packed_size, position ? &pos : NULL, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

AXON_MPI_WEAK(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    return axon_dt_pack_int("MPI_Pack", true, (void *)inbuf, incount, datatype, outbuf, outsize, position, comm);
}

AXON_MPI_WEAK(Pack_c)
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    return axon_dt_pack("MPI_Pack_c", true, (void *)inbuf, incount, datatype, outbuf, outsize, position, comm);
}

AXON_MPI_WEAK(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    return axon_dt_pack_int("MPI_Unpack", false, outbuf, outcount, datatype, (void *)inbuf, insize, position, comm);
}

AXON_MPI_WEAK(Unpack_c)
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
    return axon_dt_pack("MPI_Unpack_c", false, outbuf, outcount, datatype, (void *)inbuf, insize, position, comm);
}

AXON_MPI_WEAK(Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    static const char func[] = "MPI_Pack_size";
    struct axon_comm *c;
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (incount < 0)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "incount %d is negative", incount);
    if (!axon_mpi_datatype_describe(datatype, &d))
        return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(datatype));
    if (!size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "size is a NULL pointer");
    int64_t bytes = (int64_t)incount * d.size;
    if (bytes > INT_MAX)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "%d elements pack into %lld bytes, more than an int holds",
                              incount, (long long)bytes);
    *size = (int)bytes;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Get_address)
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    static const char func[] = "MPI_Get_address";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!address)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "address is a NULL pointer");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

/* Address arithmetic in unsigned integers: no overflow of signed values, whatever the addresses are.
 * These cannot report errors (they return the address), so they need no MPI state either. */
AXON_MPI_WEAK(Aint_add)
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

AXON_MPI_WEAK(Aint_diff)
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
