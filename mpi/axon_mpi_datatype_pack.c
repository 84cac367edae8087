/* Packing and addresses: MPI_Pack, MPI_Unpack, MPI_Pack_size, MPI_Get_address, MPI_Aint_add and
 * MPI_Aint_diff.
 *
 * The packed form is the data's bytes in typemap order and nothing else (no header), so MPI_Pack_size is
 * exact, and a message packed here and sent as MPI_PACKED can be received with the original type.
 * A buffer too small for the data is an invalid argument (MPI_ERR_ARG), for MPI_Pack and MPI_Unpack
 * alike: MPI 3.1 keeps MPI_ERR_TRUNCATE for a message longer than a receive buffer, and MPICH, whose ABI
 * programs are built for, answers MPI_ERR_ARG too. The input buffer of MPI_Pack (and the output buffer of
 * MPI_Unpack) may be MPI_BOTTOM with a type of absolute addresses. */
#include "mpi/axon_mpi_datatype.h"

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

/* The checks MPI_Pack and MPI_Unpack share; *bytes gets the size of the packed data. */
static int axon_dt_pack_check(const char *func, struct axon_comm *c, int count, MPI_Datatype datatype,
                              const void *packed, int packed_size, const int *position, struct axon_dtype_layout *dt,
                              int64_t *bytes)
{
    if (count < 0)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "count %d is negative", count);
    if (!axon_mpi_datatype_get(datatype, dt))
        return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid or uncommitted datatype 0x%x", (unsigned)datatype);
    if (!position)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "position is a NULL pointer");
    if (packed_size < 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "the packed buffer's size %d is negative", packed_size);
    if (*position < 0 || *position > packed_size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "position %d lies outside the packed buffer of %d bytes",
                              *position, packed_size);
    *bytes = (int64_t)count * dt->size;
    if (*bytes > packed_size - *position)
        return axon_mpi_error(c, func, MPI_ERR_ARG,
                              "%lld bytes of data do not fit the %d bytes left in the packed buffer",
                              (long long)*bytes, packed_size - *position);
    if (*bytes > 0 && !packed)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "the packed buffer is a NULL pointer");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    static const char func[] = "MPI_Pack";
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    int64_t bytes;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    int rc = axon_dt_pack_check(func, c, incount, datatype, outbuf, outsize, position, &dt, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = axon_dt_copy(true, (void *)inbuf, (char *)outbuf + *position, incount, &dt);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "out of memory");
    *position += (int)bytes;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
    static const char func[] = "MPI_Unpack";
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    int64_t bytes;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    int rc = axon_dt_pack_check(func, c, outcount, datatype, inbuf, insize, position, &dt, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = axon_dt_copy(false, outbuf, (char *)inbuf + *position, outcount, &dt);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "out of memory");
    *position += (int)bytes;
    return MPI_SUCCESS;
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
        return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid datatype 0x%x", (unsigned)datatype);
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
