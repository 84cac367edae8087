/* Statuses filled by the user, for generalized requests and layered libraries:
 * MPI_Status_set_elements(_x, _c) and MPI_Status_set_cancelled.
 *
 * They write MPICH's status layout the way the library's own completions do (axon_mpi_status_set): the
 * status counts bytes, count_lo holding the low 32 bits and count_hi_and_cancelled the high bits above
 * the cancelled flag in bit 0. So MPI_Get_elements with the same datatype gives back the count set, and
 * MPI_Get_count gives the whole elements of that type the bytes make, as for a received message. */
#include "mpi/datatype/axon_mpi_datatype.h"

/* The bytes that hold the first count basic elements of a stream of elements of a type; -1 when no
 * byte count ends exactly there (count does not fit the type's members). */
static int64_t axon_status_bytes_of(MPI_Datatype datatype, const struct axon_dtype_desc *d, int64_t count)
{
    if (count == 0 || d->size == 0 || d->nelements == 0)
        return count == 0 ? 0 : -1;
    /* A type made of one basic type: every basic element is that many bytes. */
    if (axon_mpi_datatype_is_builtin(datatype))
        return count <= INT64_MAX / d->size ? count * d->size : -1;
    struct axon_datatype *t = axon_mpi_datatype_lookup(datatype);
    struct axon_dtype_desc basic;
    if (t && t->layout.basic != MPI_DATATYPE_NULL && axon_mpi_datatype_is_builtin(t->layout.basic) &&
        axon_mpi_datatype_predefined_desc(t->layout.basic, &basic) && basic.size > 0)
        return count <= INT64_MAX / basic.size ? count * basic.size : -1;
    /* Mixed members: whole elements, then the shortest prefix of one more that holds the rest. */
    int64_t whole = count / d->nelements, rest = count % d->nelements;
    if (whole > INT64_MAX / d->size)
        return -1;
    int64_t bytes = whole * d->size;
    if (rest == 0)
        return bytes;
    for (int64_t b = 1; b < d->size; b++)
        if (axon_mpi_datatype_elements(datatype, b) == rest)
            return bytes + b;
    return -1;
}

static int axon_status_set_count(const char *func, MPI_Status *status, MPI_Datatype datatype, int64_t count)
{
    struct axon_dtype_desc d;
    if (!status || status == MPI_STATUS_IGNORE)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "status is a NULL pointer or MPI_STATUS_IGNORE");
    if (datatype == MPI_DATATYPE_NULL || !axon_mpi_datatype_describe(datatype, &d))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid datatype %s", AXON_MPI_HANDLE_NAME(datatype));
    if (count < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    int64_t bytes = axon_status_bytes_of(datatype, &d, count);
    /* 31 bits above the flag and the 32 of count_lo: 63 bits of bytes. */
    if (bytes < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG,
                              "%lld basic elements of datatype %s are no whole number of its members, or too many",
                              (long long)count, AXON_MPI_HANDLE_NAME(datatype));
    status->count_lo = (int)(uint32_t)(bytes & 0xffffffff);
    status->count_hi_and_cancelled =
        (int)((uint32_t)(bytes >> 32) << 1 | ((uint32_t)status->count_hi_and_cancelled & 1u));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    static const char func[] = "MPI_Status_set_elements";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_status_set_count(func, status, datatype, count);
}

AXON_MPI_WEAK(Status_set_elements_x)
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    static const char func[] = "MPI_Status_set_elements_x";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_status_set_count(func, status, datatype, count);
}

AXON_MPI_WEAK(Status_set_cancelled)
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    static const char func[] = "MPI_Status_set_cancelled";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!status || status == MPI_STATUS_IGNORE)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "status is a NULL pointer or MPI_STATUS_IGNORE");
    uint32_t hi = (uint32_t)status->count_hi_and_cancelled & ~1u;
    status->count_hi_and_cancelled = (int)(hi | (flag ? 1u : 0u));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Status_set_elements_c)
int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    static const char func[] = "MPI_Status_set_elements_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    return axon_status_set_count(func, status, datatype, count);
}
