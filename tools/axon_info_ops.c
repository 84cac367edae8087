/* axon_info --ops: the table of reductions, read from the library's own tables rather than written out,
 * so it cannot drift from what MPI_Reduce and its kin accept: a row per predefined datatype, a column
 * per predefined reduction operation, and in each cell whether the pair reduces on the host only (h),
 * on the GPU too (g: this build has a kernel for it), or is refused with MPI_ERR_OP (.). */
#include "tools/axon_info_ops.h"

#include "coll/axon_coll_op.h"
#include "mpi/datatype/axon_mpi_datatype.h"
#include "runtime/axon_runtime_array.h"

#include <mpi.h>
#include <stdio.h>

int axon_info_ops(void)
{
    static const struct {
        MPI_Op op;
        const char *name;
    } ops[] = {
        {MPI_MAX, "MAX"},   {MPI_MIN, "MIN"},   {MPI_SUM, "SUM"},       {MPI_PROD, "PROD"},
        {MPI_LAND, "LAND"}, {MPI_LOR, "LOR"},   {MPI_LXOR, "LXOR"},     {MPI_BAND, "BAND"},
        {MPI_BOR, "BOR"},   {MPI_BXOR, "BXOR"}, {MPI_MAXLOC, "MAXLOC"}, {MPI_MINLOC, "MINLOC"},
    };
    enum { NOPS = AXON_ARRAY_SIZE(ops) };
    if (axon_mpi_datatype_init() != MPI_SUCCESS) {
        fprintf(stderr, "axon_info: --ops: cannot set up the predefined datatypes\n");
        return 1;
    }
    printf("Reductions by predefined operation and datatype (MPI_Reduce, MPI_Allreduce, their nonblocking,\n"
           "persistent and scatter forms, the scans, MPI_Reduce_local): h on the host, g on the GPU too,\n"
           ". refused with MPI_ERR_OP. MPI_REPLACE and MPI_NO_OP reduce nothing (one-sided accumulates).\n\n");
    printf("%-28s", "datatype");
    for (int o = 0; o < NOPS; o++)
        printf(o + 1 < NOPS ? " %-6s" : " %s", ops[o].name);
    printf("\n");
    MPI_Datatype t;
    for (int i = 0; (t = axon_mpi_datatype_predefined_at(i)) != MPI_DATATYPE_NULL; i++) {
        struct axon_dtype_layout dt;
        const char *name = axon_mpi_datatype_predefined_name(t);
        if (t == MPI_LB || t == MPI_UB || !name || !axon_mpi_datatype_get(t, &dt))
            continue;
        printf("%-28s", name);
        for (int o = 0; o < NOPS; o++) {
            const struct axon_coll_op *op = axon_coll_op_get(ops[o].op);
            char cell = '.';
            if (axon_coll_op_check(op, t, &dt) == MPI_SUCCESS)
                cell = axon_coll_op_gpu_kernel_built(AXON_MEMKIND_CUDA, op, t, &dt) >= 0 ? 'g' : 'h';
            printf(o + 1 < NOPS ? " %-6c" : " %c", cell);
        }
        printf("\n");
    }
    axon_mpi_datatype_finalize();
    return 0;
}
