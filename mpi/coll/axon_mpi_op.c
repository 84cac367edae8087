/* Reduction operations at the API: MPI_Op_create, MPI_Op_free, MPI_Op_commutative and MPI_Reduce_local.
 * The operations themselves are coll/'s (coll/axon_coll_op.h); this file checks arguments and, for
 * MPI_Reduce_local with a predefined operation on a non-contiguous datatype, packs both buffers in
 * bounded pieces through the data-layout cursor, reduces the packed pieces and unpacks the result.
 * GPU buffers of MPI_Reduce_local are reduced on the GPU where the result is and a kernel exists, else in
 * host copies (coll/axon_coll_stage.c). MPI_Reduce_local_c takes any count: it shares one function of
 * int64_t counts with MPI_Reduce_local.
 * Errors are tied to no communicator: they go to the handler of errors on no object. */
#include "mpi/datatype/axon_mpi_datatype.h"

#include "coll/axon_coll_op.h"
#include "memkind/axon_memkind.h"
#include "mpi/coll/axon_mpi_coll.h"

#include <stdlib.h>

#define AXON_OP_PIECE 65536 /* bytes of each packed buffer of MPI_Reduce_local */

/* MPI_Op_create and MPI_Op_create_c: the user's function in its int form (fn) or its large-count
 * form (fn_c, MPI 4.0: called once with the whole count as an MPI_Count); exactly one is given. */
static int axon_mpi_op_create(const char *func, MPI_User_function *fn, MPI_User_function_c *fn_c, int commute,
                              MPI_Op *op)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!fn && !fn_c)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "the user function is a NULL pointer");
    if (!op)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "op is a NULL pointer");
    MPI_Op handle;
    int rc = axon_coll_op_create(fn, fn_c, commute != 0, &handle);
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "out of memory for a new operation");
    *op = handle;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Op_create)
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return axon_mpi_op_create("MPI_Op_create", user_fn, NULL, commute, op);
}

AXON_MPI_WEAK(Op_create_c)
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return axon_mpi_op_create("MPI_Op_create_c", NULL, user_fn, commute, op);
}

AXON_MPI_WEAK(Op_free)
int PMPI_Op_free(MPI_Op *op)
{
    static const char func[] = "MPI_Op_free";
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!op)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "op is a NULL pointer");
    struct axon_coll_op *o = axon_coll_op_get(*op);
    if (!o)
        return axon_mpi_error(NULL, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(*op));
    if (axon_coll_op_is_predefined(o))
        return axon_mpi_error(NULL, func, MPI_ERR_OP, "predefined operation %s cannot be freed",
                              AXON_MPI_HANDLE_NAME(*op));
    if (axon_coll_op_free(*op) != MPI_SUCCESS) /* freed by another thread meanwhile */
        return axon_mpi_error(NULL, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(*op));
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Op_commutative)
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    static const char func[] = "MPI_Op_commutative";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_coll_op *o = axon_coll_op_get(op);
    if (!o)
        return axon_mpi_error(NULL, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(op));
    if (!commute)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "commute is a NULL pointer");
    *commute = axon_coll_op_commutative(o);
    return MPI_SUCCESS;
}

/* A predefined operation on count elements of a non-contiguous type: pieces of whole basic elements,
 * packed from both buffers, reduced, and the result unpacked where inout's piece came from. */
static int axon_op_reduce_strided(const struct axon_coll_op *op, const void *inbuf, void *inoutbuf, int64_t count,
                                  const struct axon_dtype_layout *dt)
{
    /* The operation passed axon_coll_op_check, so the type is made of one predefined type. */
    MPI_Datatype basic = dt->basic;
    struct axon_dtype_layout piece_dt;
    if (basic == MPI_DATATYPE_NULL || !axon_mpi_datatype_get(basic, &piece_dt))
        return MPI_ERR_OP;
    int64_t unit = piece_dt.size;
    int64_t total = count * dt->size;
    int64_t piece = AXON_OP_PIECE / unit * unit;
    if (piece > total)
        piece = total;
    char *tmp = malloc((size_t)piece * 2);
    if (!tmp)
        return MPI_ERR_NO_MEM;
    struct axon_dloop_cursor in_c, io_c;
    if (axon_dloop_cursor_init(&in_c, dt->loop, count, dt->extent) != 0) {
        free(tmp);
        return MPI_ERR_NO_MEM;
    }
    if (axon_dloop_cursor_init(&io_c, dt->loop, count, dt->extent) != 0) {
        axon_dloop_cursor_fini(&in_c);
        free(tmp);
        return MPI_ERR_NO_MEM;
    }
    int rc = MPI_SUCCESS;
    for (int64_t done = 0; done < total && rc == MPI_SUCCESS; done += piece) {
        int64_t len = total - done < piece ? total - done : piece;
        axon_dloop_pack(&in_c, inbuf, tmp, len);
        axon_dloop_pack(&io_c, inoutbuf, tmp + piece, len);
        rc = axon_coll_op_apply(op, tmp, tmp + piece, len / unit, basic, &piece_dt);
        axon_dloop_cursor_seek(&io_c, done);
        axon_dloop_unpack(&io_c, inoutbuf, tmp + piece, len);
    }
    axon_dloop_cursor_fini(&io_c);
    axon_dloop_cursor_fini(&in_c);
    free(tmp);
    return rc;
}

int axon_mpi_op_check(struct axon_comm *c, const char *func, MPI_Op op, const struct axon_coll_op *o,
                      MPI_Datatype datatype, const struct axon_dtype_layout *dt)
{
    if (axon_coll_op_check(o, datatype, dt) == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return axon_mpi_error(c, func, MPI_ERR_OP, "%s combines one-sided accumulates only, not reductions",
                              AXON_MPI_HANDLE_NAME(op));
    if (axon_mpi_datatype_is_predefined(datatype))
        return axon_mpi_error(c, func, MPI_ERR_OP, "%s is not defined on %s", AXON_MPI_HANDLE_NAME(op),
                              AXON_MPI_HANDLE_NAME(datatype));
    /* A derived type: what it is made of says why. */
    if (dt->basic == MPI_DATATYPE_NULL)
        return axon_mpi_error(c, func, MPI_ERR_OP,
                              "%s is not defined on datatype %s, whose members are of different types",
                              AXON_MPI_HANDLE_NAME(op), AXON_MPI_HANDLE_NAME(datatype));
    return axon_mpi_error(c, func, MPI_ERR_OP, "%s is not defined on datatype %s, made of %s",
                          AXON_MPI_HANDLE_NAME(op), AXON_MPI_HANDLE_NAME(datatype), AXON_MPI_HANDLE_NAME(dt->basic));
}

/* MPI_Reduce_local and MPI_Reduce_local_c: the int call widens its count, and both share the rest. */
static int axon_mpi_reduce_local(const char *func, const void *inbuf, void *inoutbuf, int64_t count,
                                 MPI_Datatype datatype, MPI_Op op)
{
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (count < 0)
        return axon_mpi_error(NULL, func, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    struct axon_dtype_layout dt;
    if (!axon_mpi_datatype_get(datatype, &dt))
        return axon_mpi_error(NULL, func, MPI_ERR_TYPE, "invalid or uncommitted datatype %s",
                              AXON_MPI_HANDLE_NAME(datatype));
    struct axon_coll_op *o = axon_coll_op_get(op);
    if (!o)
        return axon_mpi_error(NULL, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(op));
    int rc = axon_mpi_op_check(NULL, func, op, o, datatype, &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return axon_mpi_error(NULL, func, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed here");
    if (count == 0 || dt.size == 0)
        return MPI_SUCCESS;
    if (!inbuf || !inoutbuf)
        return axon_mpi_error(NULL, func, MPI_ERR_BUFFER, "%s is a NULL pointer", inbuf ? "inoutbuf" : "inbuf");
    if (inbuf == inoutbuf)
        return axon_mpi_error(NULL, func, MPI_ERR_BUFFER, "inbuf and inoutbuf are the same buffer");

    /* A result on a GPU: reduced there by a kernel when the operation has one for the datatype; other
     * GPU buffers are reduced in host copies, the result copied back. */
    struct axon_coll_stage *st = NULL;
    bool host = axon_pt2pt_data_surely_host(inbuf, &dt) && axon_pt2pt_data_surely_host(inoutbuf, &dt);
    if (axon_memkind_watching() && !host) {
        bool done;
        rc = axon_coll_gpu_local(o, datatype, &dt, inbuf, inoutbuf, count, &done);
        if (done || rc != MPI_SUCCESS)
            return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "cannot reduce on the GPU");
        rc = axon_coll_stage_local(&inbuf, &inoutbuf, count, &dt, &st);
        if (rc != MPI_SUCCESS)
            return axon_mpi_error(NULL, func, rc, "cannot copy the GPU buffers to the host");
    }
    if (!axon_coll_op_is_predefined(o))
        rc = axon_coll_op_apply(o, inbuf, inoutbuf, count, datatype, &dt); /* the user's layout */
    else if (dt.contig)
        rc = axon_coll_op_apply(o, (const char *)inbuf + dt.true_lb, (char *)inoutbuf + dt.true_lb, count, datatype,
                                &dt);
    else
        rc = axon_op_reduce_strided(o, inbuf, inoutbuf, count, &dt);
    if (rc != MPI_SUCCESS) {
        axon_coll_stage_abort(st);
        return axon_mpi_error(NULL, func, rc, "cannot reduce %lld elements of datatype %s", (long long)count,
                              AXON_MPI_HANDLE_NAME(datatype));
    }
    if (st && (rc = axon_coll_stage_end(st, MPI_SUCCESS)) != MPI_SUCCESS)
        return axon_mpi_error(NULL, func, rc, "cannot copy the result to the GPU");
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Reduce_local)
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    return axon_mpi_reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, datatype, op);
}

AXON_MPI_WEAK(Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op)
{
    return axon_mpi_reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, datatype, op);
}
