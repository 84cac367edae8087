/* MPI_Type_get_value_index (MPI 4.1): the predefined {value, index} pair type of MPI_MAXLOC and
 * MPI_MINLOC for a value type and an index type, or MPI_DATATYPE_NULL when the standard names none. */
#include "mpi/datatype/axon_mpi_datatype.h"

AXON_MPI_WEAK(Type_get_value_index)
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    static const char func[] = "MPI_Type_get_value_index";
    static const struct {
        MPI_Datatype value, index, pair;
    } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    };
    struct axon_dtype_desc d;
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!pair_type)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "pair_type is a NULL pointer");
    if (!axon_mpi_datatype_describe(value_type, &d))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid value_type %s", AXON_MPI_HANDLE_NAME(value_type));
    if (!axon_mpi_datatype_describe(index_type, &d))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid index_type %s", AXON_MPI_HANDLE_NAME(index_type));
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < AXON_ARRAY_SIZE(pairs); i++)
        if (pairs[i].value == value_type && pairs[i].index == index_type)
            *pair_type = pairs[i].pair;
    return MPI_SUCCESS;
}
