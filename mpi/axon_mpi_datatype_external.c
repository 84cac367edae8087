/* Packing with large counts and in the external32 representation: MPI_Pack_c, MPI_Unpack_c,
 * MPI_Pack_size_c, and MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size (and their _c
 * forms).
 *
 * external32 is the standard's portable form: big-endian, with fixed sizes per type. Axon packs it as
 * MPI_Pack does (the data's bytes in typemap order, no header) and then reverses the bytes of each basic
 * element, which is right for every type whose native size on x86-64 Linux is its external32 size and
 * whose data is made of one predefined type (a derived type built of MPI_INT, a vector of MPI_DOUBLE ...;
 * complex types and MPI_2INT-like pairs reverse each half). Types of mixed members (structs, MPI_FLOAT_INT
 * and the other MAXLOC pairs) and those whose sizes differ (MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes in
 * external32, MPI_WCHAR 2, long double an IEEE quad) give MPI_ERR_UNSUPPORTED_OPERATION. Another datarep
 * than "external32" is MPI_ERR_ARG. Counts of the _c forms beyond INT_MAX are MPI_ERR_COUNT, as for the
 * other large-count calls (mpi/axon_mpi_bigcount.h). Errors without a communicator go to MPI_COMM_WORLD's
 * handler. */
#include "mpi/axon_mpi_bigcount.h"
#include "mpi/axon_mpi_datatype.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- large-count MPI_Pack and MPI_Unpack -------------------------------------------------------- */

AXON_MPI_WEAK(Pack_c)
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_, size_, pos_;
    int rc = axon_bigcount_begin(&bc, "MPI_Pack_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS && !position)
        rc = axon_mpi_error(axon_mpi_comm_get(comm), bc.func, MPI_ERR_ARG, "position is a NULL pointer");
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "incount", incount, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "outsize", outsize, &size_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "position", *position, &pos_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Pack(inbuf, count_, datatype, outbuf, size_, &pos_, comm);
    if (rc == MPI_SUCCESS)
        *position = pos_;
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Unpack_c)
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
    struct axon_bigcount bc;
    int count_, size_, pos_;
    int rc = axon_bigcount_begin(&bc, "MPI_Unpack_c", comm, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS && !position)
        rc = axon_mpi_error(axon_mpi_comm_get(comm), bc.func, MPI_ERR_ARG, "position is a NULL pointer");
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "insize", insize, &size_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "position", *position, &pos_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "outcount", outcount, &count_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Unpack(inbuf, size_, &pos_, outbuf, count_, datatype, comm);
    if (rc == MPI_SUCCESS)
        *position = pos_;
    axon_bigcount_end(&bc);
    return rc;
}

/* The packed size has no int limit here: the answer is an MPI_Count. */
AXON_MPI_WEAK(Pack_size_c)
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    static const char func[] = "MPI_Pack_size_c";
    struct axon_comm *c;
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (incount < 0)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "incount %lld is negative", (long long)incount);
    if (!axon_mpi_datatype_describe(datatype, &d))
        return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid datatype 0x%x", (unsigned)datatype);
    if (!size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "size is a NULL pointer");
    if (d.size > 0 && incount > INT64_MAX / d.size)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "%lld elements do not fit in 63 bits of bytes",
                              (long long)incount);
    *size = incount * d.size;
    return MPI_SUCCESS;
}

/* ---- external32 ----------------------------------------------------------------------------------- */

/* The bytes of one basic element whose order external32 reverses, for the predefined type every element
 * of a type is made of; 0 when external32 cannot be made from the native bytes (see the top). */
static int64_t axon_external_unit(MPI_Datatype basic)
{
    if (!axon_mpi_datatype_is_builtin(basic))
        return 0; /* mixed members, or a MAXLOC pair */
    switch (basic) {
    case MPI_LONG:
    case MPI_UNSIGNED_LONG:
    case MPI_WCHAR:
    case MPI_LONG_DOUBLE:
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX:
    case MPI_REAL16:
    case MPI_COMPLEX32:
        return 0;
    /* Two values of half the size each. */
    case MPI_C_FLOAT_COMPLEX:
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX8:
    case MPI_COMPLEX16:
    case MPI_2INT:
    case MPI_2INTEGER:
    case MPI_2REAL:
    case MPI_2DOUBLE_PRECISION:
        return (((unsigned)basic >> 8) & 0xffu) / 2;
    default:
        return ((unsigned)basic >> 8) & 0xffu;
    }
}

static void axon_external_swap(unsigned char *p, int64_t bytes, int64_t unit)
{
    if (unit <= 1)
        return;
    for (int64_t off = 0; off + unit <= bytes; off += unit)
        for (int64_t i = 0, j = unit - 1; i < j; i++, j--) {
            unsigned char t = p[off + i];
            p[off + i] = p[off + j];
            p[off + j] = t;
        }
}

/* The checks the external32 calls share: the datarep, the type (*dt, *unit), the count (*count as an
 * int) and the buffer's room from *position (*bytes of data). */
static int axon_external_check(const char *func, const char *datarep, MPI_Count count, MPI_Datatype datatype,
                               const void *packed, MPI_Aint packed_size, const MPI_Aint *position,
                               struct axon_dtype_layout *dt, int64_t *unit, int *count_int, int64_t *bytes)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!datarep || strcmp(datarep, "external32") != 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "datarep \"%s\" is not \"external32\"",
                              datarep ? datarep : "(null)");
    if (count < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    if (count > INT_MAX)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld: Axon takes counts up to INT_MAX",
                              (long long)count);
    if (!axon_mpi_datatype_get(datatype, dt))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid or uncommitted datatype 0x%x", (unsigned)datatype);
    *unit = dt->size == 0 ? 1 : axon_external_unit(dt->basic);
    if (*unit == 0)
        return axon_mpi_error(NULL, func, MPI_ERR_UNSUPPORTED_OPERATION,
                              "external32 of datatype 0x%x (mixed members, or a type whose external32 size "
                              "differs from its native one) is not implemented in Axon",
                              (unsigned)datatype);
    *count_int = (int)count;
    *bytes = count * dt->size;
    if (!position)
        return MPI_SUCCESS; /* MPI_Pack_external_size */
    if (packed_size < 0 || *position < 0 || *position > packed_size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "position %ld lies outside the packed buffer of %ld bytes",
                              (long)*position, (long)packed_size);
    if (*bytes > packed_size - *position)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG,
                              "%lld bytes of data do not fit the %ld bytes left in the packed buffer",
                              (long long)*bytes, (long)(packed_size - *position));
    if (*bytes > INT_MAX)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "%lld bytes of data: Axon packs up to INT_MAX bytes",
                              (long long)*bytes);
    if (*bytes > 0 && !packed)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the packed buffer is a NULL pointer");
    return MPI_SUCCESS;
}

static int axon_pack_external(const char *func, const char *datarep, const void *inbuf, MPI_Count incount,
                              MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    struct axon_dtype_layout dt;
    int64_t unit, bytes;
    int count;
    if (!position) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "position is a NULL pointer");
    }
    int rc = axon_external_check(func, datarep, incount, datatype, outbuf, outsize, position, &dt, &unit, &count,
                                 &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    unsigned char *at = (unsigned char *)outbuf + *position;
    int done = 0;
    rc = PMPI_Pack(inbuf, count, datatype, at, (int)bytes, &done, MPI_COMM_SELF);
    if (rc != MPI_SUCCESS)
        return rc;
    axon_external_swap(at, bytes, unit);
    *position += bytes;
    return MPI_SUCCESS;
}

static int axon_unpack_external(const char *func, const char *datarep, const void *inbuf, MPI_Aint insize,
                                MPI_Aint *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    struct axon_dtype_layout dt;
    int64_t unit, bytes;
    int count;
    if (!position) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "position is a NULL pointer");
    }
    int rc = axon_external_check(func, datarep, outcount, datatype, inbuf, insize, position, &dt, &unit, &count,
                                 &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The packed bytes are the caller's and read-only: native order goes into a copy. */
    unsigned char *native = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!native)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "no memory for %lld bytes", (long long)bytes);
    if (bytes > 0)
        memcpy(native, (const unsigned char *)inbuf + *position, (size_t)bytes);
    axon_external_swap(native, bytes, unit);
    int done = 0;
    rc = PMPI_Unpack(native, (int)bytes, &done, outbuf, count, datatype, MPI_COMM_SELF);
    free(native);
    if (rc != MPI_SUCCESS)
        return rc;
    *position += bytes;
    return MPI_SUCCESS;
}

static int axon_pack_external_size(const char *func, const char *datarep, MPI_Count incount,
                                   MPI_Datatype datatype, MPI_Count *size)
{
    struct axon_dtype_layout dt;
    int64_t unit, bytes;
    int count;
    int rc = axon_external_check(func, datarep, incount, datatype, NULL, 0, NULL, &dt, &unit, &count, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size is a NULL pointer");
    *size = bytes;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Pack_external)
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position)
{
    return axon_pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

AXON_MPI_WEAK(Pack_external_c)
int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype,
                         void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    return axon_pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize,
                              position);
}

AXON_MPI_WEAK(Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                         void *outbuf, int outcount, MPI_Datatype datatype)
{
    return axon_unpack_external("MPI_Unpack_external", datarep, inbuf, insize, position, outbuf, outcount,
                                datatype);
}

AXON_MPI_WEAK(Unpack_external_c)
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    return axon_unpack_external("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf, outcount,
                                datatype);
}

AXON_MPI_WEAK(Pack_external_size)
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size)
{
    return axon_pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size);
}

AXON_MPI_WEAK(Pack_external_size_c)
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size)
{
    return axon_pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size);
}
