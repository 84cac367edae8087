/* The large-count (_c) datatype calls of MPI 4: constructors, size and extent queries, the envelope and
 * contents, and MPI_Reduce_local_c. Constructors are their int twins when every count fits in an int
 * (MPI_ERR_COUNT otherwise, mpi/axon_mpi_bigcount.h); byte displacements, strides and bounds are MPI_Aint
 * in the int calls and pass unchanged. A type made by a _c constructor is described by its envelope as
 * the int constructor's, with no large counts: the library keeps one form of contents. */
#include "mpi/axon_mpi_bigcount.h"

#include <limits.h>

AXON_MPI_WEAK(Type_contiguous_c)
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Type_contiguous_c", MPI_COMM_NULL, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Type_contiguous(n, oldtype, newtype) : rc;
}

AXON_MPI_WEAK(Type_vector_c)
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    int blocklength_;
    int stride_;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_vector_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "blocklength", blocklength, &blocklength_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "stride", stride, &stride_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_vector(count_, blocklength_, stride_, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_hvector_c)
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    int blocklength_;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_hvector_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "blocklength", blocklength, &blocklength_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_hvector(count_, blocklength_, stride, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_indexed_c)
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    const int *array_of_blocklengths_ = NULL;
    const int *array_of_displacements_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_indexed_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_blocklengths", array_of_blocklengths, count_, &array_of_blocklengths_);
    if (rc == MPI_SUCCESS)
        rc =
            axon_bigcount_ints(&bc, "array_of_displacements", array_of_displacements, count_, &array_of_displacements_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_indexed(count_, array_of_blocklengths_, array_of_displacements_, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_hindexed_c)
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    const int *array_of_blocklengths_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_hindexed_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_blocklengths", array_of_blocklengths, count_, &array_of_blocklengths_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_hindexed(count_, array_of_blocklengths_, array_of_displacements, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_indexed_block_c)
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    int blocklength_;
    const int *array_of_displacements_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_indexed_block_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "blocklength", blocklength, &blocklength_);
    if (rc == MPI_SUCCESS)
        rc =
            axon_bigcount_ints(&bc, "array_of_displacements", array_of_displacements, count_, &array_of_displacements_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_indexed_block(count_, blocklength_, array_of_displacements_, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_hindexed_block_c)
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    int blocklength_;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_hindexed_block_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "blocklength", blocklength, &blocklength_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_hindexed_block(count_, blocklength_, array_of_displacements, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_struct_c)
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                              MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    int count_;
    const int *array_of_blocklengths_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_struct_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "count", count, &count_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_blocklengths", array_of_blocklengths, count_, &array_of_blocklengths_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_struct(count_, array_of_blocklengths_, array_of_displacements, array_of_types, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_subarray_c)
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    const int *array_of_sizes_ = NULL;
    const int *array_of_subsizes_ = NULL;
    const int *array_of_starts_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_subarray_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_sizes", array_of_sizes, ndims, &array_of_sizes_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_subsizes", array_of_subsizes, ndims, &array_of_subsizes_);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_starts", array_of_starts, ndims, &array_of_starts_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_subarray(ndims, array_of_sizes_, array_of_subsizes_, array_of_starts_, order, oldtype,
                                       newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_darray_c)
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                              int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct axon_bigcount bc;
    const int *array_of_gsizes_ = NULL;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_create_darray_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_ints(&bc, "array_of_gsizes", array_of_gsizes, ndims, &array_of_gsizes_);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_create_darray(size, rank, ndims, array_of_gsizes_, array_of_distribs, array_of_dargs,
                                     array_of_psizes, order, oldtype, newtype);
    axon_bigcount_end(&bc);
    return rc;
}

AXON_MPI_WEAK(Type_create_resized_c)
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    /* lb and extent are MPI_Aint in the int call too: nothing to narrow. */
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_create_resized_c");
    return PMPI_Type_create_resized(oldtype, lb, extent, newtype);
}

AXON_MPI_WEAK(Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    int n;
    int rc = axon_bigcount_scalar("MPI_Reduce_local_c", MPI_COMM_NULL, "count", count, &n);
    return rc == MPI_SUCCESS ? PMPI_Reduce_local(inbuf, inoutbuf, n, datatype, op) : rc;
}

/* The _x queries already answer in MPI_Count. */
AXON_MPI_WEAK(Type_size_c)
int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_size_c");
    return PMPI_Type_size_x(datatype, size);
}

AXON_MPI_WEAK(Type_get_extent_c)
int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_get_extent_c");
    return PMPI_Type_get_extent_x(datatype, lb, extent);
}

AXON_MPI_WEAK(Type_get_true_extent_c)
int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    AXON_MPI_REQUIRE_ACTIVE("MPI_Type_get_true_extent_c");
    return PMPI_Type_get_true_extent_x(datatype, true_lb, true_extent);
}

AXON_MPI_WEAK(Type_get_envelope_c)
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                             MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    static const char func[] = "MPI_Type_get_envelope_c";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "an output count is a NULL pointer");
    int ni = 0, na = 0, nd = 0;
    int rc = PMPI_Type_get_envelope(datatype, &ni, &na, &nd, combiner);
    if (rc != MPI_SUCCESS)
        return rc;
    *num_integers = ni;
    *num_addresses = na;
    *num_large_counts = 0;
    *num_datatypes = nd;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Type_get_contents_c)
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    struct axon_bigcount bc;
    int ni, na, nd;
    (void)array_of_large_counts;
    int rc = axon_bigcount_begin(&bc, "MPI_Type_get_contents_c", MPI_COMM_NULL, AXON_BIGCOUNT_NONE, 0);
    if (rc == MPI_SUCCESS && max_large_counts < 0)
        rc = axon_mpi_error(NULL, bc.func, MPI_ERR_ARG, "max_large_counts %lld is negative",
                            (long long)max_large_counts);
    /* The int call needs no more room than the envelope said, so larger maxima may be clipped. */
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "max_integers", max_integers > INT_MAX ? INT_MAX : max_integers, &ni);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "max_addresses", max_addresses > INT_MAX ? INT_MAX : max_addresses, &na);
    if (rc == MPI_SUCCESS)
        rc = axon_bigcount_int(&bc, "max_datatypes", max_datatypes > INT_MAX ? INT_MAX : max_datatypes, &nd);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_contents(datatype, ni, na, nd, array_of_integers, array_of_addresses,
                                    array_of_datatypes);
    axon_bigcount_end(&bc);
    return rc;
}
