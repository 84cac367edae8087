/* Packing with large counts and in the external32 representation: MPI_Pack_size_c, and MPI_Pack_external,
 * MPI_Unpack_external, MPI_Pack_external_size (and their _c forms).
 *
 * external32 is the standard's portable form: big-endian, with fixed sizes per type. Axon packs it as
 * MPI_Pack does (the data's bytes in typemap order, no header) into a temporary, then writes each value
 * of each basic element in external32: its bytes reversed, or, where external32 is narrower than the
 * native type (MPI_LONG and MPI_UNSIGNED_LONG: 4 bytes, MPI_WCHAR: 2), the value narrowed
 * (MPI_ERR_CONVERSION when it does not fit); unpacking widens. Data of one predefined type (a derived type
 * built of MPI_INT, a vector of MPI_DOUBLE ...) and the MAXLOC pairs are done, long double as IEEE
 * binary128 (external32's 16 bytes) from x86's 80-bit format; types of mixed members (structs) give
 * MPI_ERR_UNSUPPORTED_OPERATION. Another datarep
 * than "external32" is MPI_ERR_ARG. Counts of the _c forms beyond INT_MAX are MPI_ERR_COUNT, as for
 * MPI_Buffer_attach_c (mpi/axon_mpi_bigcount.h). Errors without a communicator go to MPI_COMM_WORLD's
 * handler. */
#include "mpi/axon_mpi_bigcount.h"
#include "mpi/datatype/axon_mpi_datatype.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the large-count packed size (MPI_Pack_c and MPI_Unpack_c are in axon_mpi_datatype_pack.c) ---- */

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
        return axon_mpi_error(c, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(datatype));
    if (!size)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "size is a NULL pointer");
    if (d.size > 0 && incount > INT64_MAX / d.size)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "%lld elements do not fit in 63 bits of bytes",
                              (long long)incount);
    *size = incount * d.size;
    return MPI_SUCCESS;
}

/* ---- external32 ----------------------------------------------------------------------------------- */

/* One value of a basic element: its native bytes and its external32 bytes. Where they differ (MPI_LONG
 * and MPI_UNSIGNED_LONG are 8 bytes here, 4 in external32; MPI_WCHAR 4 and 2) the value narrows on the
 * way out, MPI_ERR_CONVERSION when it does not fit, and widens on the way in (sign-extended if signed). */
struct axon_external_part {
    uint8_t native, ext;
    bool is_signed;
    bool x87; /* long double: x86's 80-bit extended format here, IEEE binary128 in external32 */
};

/* The parts of the predefined type every element of a type is made of, in packed order; 0 parts when
 * external32 of it is not implemented (long double, and the types of mixed members). */
static int axon_external_parts(MPI_Datatype basic, struct axon_external_part parts[2])
{
    const struct axon_external_part i4 = {4, 4, true, false};
    switch (basic) {
    case MPI_LONG:
        parts[0] = (struct axon_external_part){8, 4, true, false};
        return 1;
    case MPI_UNSIGNED_LONG:
        parts[0] = (struct axon_external_part){8, 4, false, false};
        return 1;
    case MPI_WCHAR:
        parts[0] = (struct axon_external_part){4, 2, false, false};
        return 1;
    /* The MAXLOC pairs: a value and an int, packed without the padding. */
    case MPI_FLOAT_INT:
        parts[0] = (struct axon_external_part){4, 4, true, false}, parts[1] = i4;
        return 2;
    case MPI_DOUBLE_INT:
        parts[0] = (struct axon_external_part){8, 8, true, false}, parts[1] = i4;
        return 2;
    case MPI_LONG_INT:
        parts[0] = (struct axon_external_part){8, 4, true, false}, parts[1] = i4;
        return 2;
    case MPI_SHORT_INT:
        parts[0] = (struct axon_external_part){2, 2, true, false}, parts[1] = i4;
        return 2;
    case MPI_LONG_DOUBLE:
    case MPI_REAL16:
        parts[0] = (struct axon_external_part){16, 16, true, true};
        return 1;
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX:
    case MPI_COMPLEX32:
        parts[0] = parts[1] = (struct axon_external_part){16, 16, true, true};
        return 2;
    case MPI_LONG_DOUBLE_INT:
        parts[0] = (struct axon_external_part){16, 16, true, true}, parts[1] = i4;
        return 2;
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
    case MPI_2DOUBLE_PRECISION: {
        uint8_t half = (uint8_t)((((unsigned)basic >> 8) & 0xffu) / 2);
        parts[0] = parts[1] = (struct axon_external_part){half, half, true, false};
        return 2;
    }
    default:
        if (!axon_mpi_datatype_is_builtin(basic))
            return 0; /* mixed members */
        uint8_t size = (uint8_t)(((unsigned)basic >> 8) & 0xffu);
        parts[0] = (struct axon_external_part){size, size, true, false};
        return 1;
    }
}

/* A basic element's native bytes and its external32 bytes. */
static void axon_external_sizes(const struct axon_external_part *parts, int n, int64_t *native, int64_t *ext)
{
    *native = *ext = 0;
    for (int i = 0; i < n; i++) {
        *native += parts[i].native;
        *ext += parts[i].ext;
    }
}

/* A long double between x86's extended format (a 64-bit significand with its integer bit, then the sign
 * and 15-bit exponent, little-endian in 16 bytes) and IEEE binary128 big-endian: the same sign, exponent
 * and bias; binary128's 112-bit fraction is the extended significand's 63 fraction bits, shifted to the
 * top (the way back keeps the top 63: values that came from an x86 long double come back exact). */
static void axon_external_x87(const unsigned char *from, unsigned char *to, bool out)
{
    uint64_t mant, hi, lo;
    uint16_t se;
    if (out) {
        memcpy(&mant, from, 8);
        memcpy(&se, from + 8, 2);
        hi = (uint64_t)se << 48 | (mant & ~(1ull << 63)) >> 15;
        lo = mant << 49;
        for (int i = 0; i < 8; i++) {
            to[i] = (unsigned char)(hi >> (56 - 8 * i));
            to[8 + i] = (unsigned char)(lo >> (56 - 8 * i));
        }
        return;
    }
    hi = lo = 0;
    for (int i = 0; i < 8; i++) {
        hi = hi << 8 | from[i];
        lo = lo << 8 | from[8 + i];
    }
    se = (uint16_t)(hi >> 48);
    mant = (hi & 0xffffffffffffull) << 15 | lo >> 49;
    if (se & 0x7fff)
        mant |= 1ull << 63; /* the integer bit: set but for zeros and denormals */
    memset(to, 0, 16);
    memcpy(to, &mant, 8);
    memcpy(to + 8, &se, 2);
}

/* One value from native to external32 (out) or back (in). Same sizes: the bytes reversed. */
static bool axon_external_value(const struct axon_external_part *part, const unsigned char *from, unsigned char *to,
                                bool out)
{
    if (part->x87) {
        axon_external_x87(from, to, out);
        return true;
    }
    if (part->native == part->ext) {
        for (int i = 0; i < part->native; i++)
            to[i] = from[part->native - 1 - i];
        return true;
    }
    if (out) {
        uint64_t u = 0;
        memcpy(&u, from, part->native); /* little-endian: the value's low bytes first */
        int bits = 8 * part->ext;
        if (part->is_signed) {
            int64_t v = (int64_t)u, lim = (int64_t)1 << (bits - 1);
            if (part->native < 8)
                v = (int64_t)(u << (64 - 8 * part->native)) >> (64 - 8 * part->native);
            if (v < -lim || v >= lim)
                return false;
        } else if (bits < 64 && u >> bits) {
            return false;
        }
        for (int i = 0; i < part->ext; i++)
            to[i] = (unsigned char)(u >> (8 * (part->ext - 1 - i)));
        return true;
    }
    uint64_t u = 0;
    for (int i = 0; i < part->ext; i++)
        u = u << 8 | from[i];
    if (part->is_signed && (u >> (8 * part->ext - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * part->ext);
    memcpy(to, &u, part->native);
    return true;
}

/* count basic elements between native packed bytes and external32 bytes; false when a value does not fit
 * its external32 size. */
static bool axon_external_convert(const struct axon_external_part *parts, int nparts, int64_t count,
                                  const unsigned char *from, unsigned char *to, bool out)
{
    for (int64_t e = 0; e < count; e++)
        for (int i = 0; i < nparts; i++) {
            if (!axon_external_value(&parts[i], from, to, out))
                return false;
            from += out ? parts[i].native : parts[i].ext;
            to += out ? parts[i].ext : parts[i].native;
        }
    return true;
}

/* What the external32 calls share, checked: the datarep, the type (*dt and its parts), the count, and the
 * packed buffer's room from *position. *native: bytes of the data packed natively; *ext: in external32. */
struct axon_external_call {
    struct axon_dtype_layout dt;
    struct axon_external_part parts[2];
    int nparts;
    int count;
    int64_t elements; /* basic elements */
    int64_t native, ext;
};

static int axon_external_check(const char *func, const char *datarep, MPI_Count count, MPI_Datatype datatype,
                               const void *packed, MPI_Aint packed_size, const MPI_Aint *position,
                               struct axon_external_call *x)
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
    if (!axon_mpi_datatype_get(datatype, &x->dt))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid or uncommitted datatype %s",
                              AXON_MPI_HANDLE_NAME(datatype));
    x->count = (int)count;
    x->native = count * x->dt.size;
    x->nparts = 0;
    x->elements = 0;
    x->ext = 0;
    if (x->dt.size > 0) {
        x->nparts = axon_external_parts(x->dt.basic, x->parts);
        if (x->nparts == 0)
            return axon_mpi_error(NULL, func, MPI_ERR_UNSUPPORTED_OPERATION,
                                  "external32 of datatype %s (of mixed members) is not implemented in Axon",
                                  AXON_MPI_HANDLE_NAME(datatype));
        int64_t native, ext;
        axon_external_sizes(x->parts, x->nparts, &native, &ext);
        x->elements = x->native / native;
        x->ext = x->elements * ext;
    }
    if (!position)
        return MPI_SUCCESS; /* MPI_Pack_external_size */
    if (packed_size < 0 || *position < 0 || *position > packed_size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "position %ld lies outside the packed buffer of %ld bytes",
                              (long)*position, (long)packed_size);
    if (x->ext > packed_size - *position)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG,
                              "%lld bytes of data do not fit the %ld bytes left in the packed buffer",
                              (long long)x->ext, (long)(packed_size - *position));
    if (x->native > INT_MAX)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "%lld bytes of data: Axon packs up to INT_MAX bytes",
                              (long long)x->native);
    if (x->ext > 0 && !packed)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the packed buffer is a NULL pointer");
    return MPI_SUCCESS;
}

/* Packs natively (MPI_Pack) into a temporary, then converts each value into the caller's buffer. */
static int axon_pack_external(const char *func, const char *datarep, const void *inbuf, MPI_Count incount,
                              MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    struct axon_external_call x;
    if (!position) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "position is a NULL pointer");
    }
    int rc = axon_external_check(func, datarep, incount, datatype, outbuf, outsize, position, &x);
    if (rc != MPI_SUCCESS || x.native == 0)
        return rc;
    unsigned char *native = malloc((size_t)x.native);
    if (!native)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "no memory for %lld bytes", (long long)x.native);
    int done = 0;
    rc = PMPI_Pack(inbuf, x.count, datatype, native, (int)x.native, &done, MPI_COMM_SELF);
    if (rc == MPI_SUCCESS &&
        !axon_external_convert(x.parts, x.nparts, x.elements, native, (unsigned char *)outbuf + *position, true))
        rc = axon_mpi_error(NULL, func, MPI_ERR_CONVERSION,
                            "a value of datatype %s does not fit its external32 size", AXON_MPI_HANDLE_NAME(datatype));
    free(native);
    if (rc == MPI_SUCCESS)
        *position += x.ext;
    return rc;
}

static int axon_unpack_external(const char *func, const char *datarep, const void *inbuf, MPI_Aint insize,
                                MPI_Aint *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
    struct axon_external_call x;
    if (!position) {
        AXON_MPI_REQUIRE_ACTIVE(func);
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "position is a NULL pointer");
    }
    int rc = axon_external_check(func, datarep, outcount, datatype, inbuf, insize, position, &x);
    if (rc != MPI_SUCCESS || x.native == 0)
        return rc;
    unsigned char *native = malloc((size_t)x.native);
    if (!native)
        return axon_mpi_error(NULL, func, MPI_ERR_NO_MEM, "no memory for %lld bytes", (long long)x.native);
    axon_external_convert(x.parts, x.nparts, x.elements, (const unsigned char *)inbuf + *position, native, false);
    int done = 0;
    rc = PMPI_Unpack(native, (int)x.native, &done, outbuf, x.count, datatype, MPI_COMM_SELF);
    free(native);
    if (rc == MPI_SUCCESS)
        *position += x.ext;
    return rc;
}

static int axon_pack_external_size(const char *func, const char *datarep, MPI_Count incount,
                                   MPI_Datatype datatype, MPI_Count *size)
{
    struct axon_external_call x;
    int rc = axon_external_check(func, datarep, incount, datatype, NULL, 0, NULL, &x);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!size)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "size is a NULL pointer");
    *size = x.ext;
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
