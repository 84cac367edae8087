/* Reduction operations: the predefined MPI_Op handles (MPI_SUM ... MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP)
 * on the predefined datatypes the standard allows for each, and user operations (MPI_Op_create). The
 * collectives apply an operation with axon_coll_op_apply; the MPI layer turns handles into operations.
 *
 * Semantics are MPI's: apply computes inout[i] = in[i] op inout[i] for count elements, where in holds the
 * contribution of the lower ranks, so a non-commutative operation reduces in rank order when the caller
 * keeps that order. Predefined operations run as vectorizable loops over the element type; user
 * operations call the user's function with (in, inout, &len, &datatype), in pieces whose len fits an int. */
#ifndef AXON_COLL_OP_H
#define AXON_COLL_OP_H

#include "memkind/axon_memkind_types.h"
#include "pt2pt/pt2pt.h" /* struct axon_dtype_layout */

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

struct axon_coll_op;

/* The operation of a handle (predefined or made by MPI_Op_create and not freed), or NULL. */
struct axon_coll_op *axon_coll_op_get(MPI_Op handle);
bool axon_coll_op_commutative(const struct axon_coll_op *op);
/* MPI_SUCCESS if op may reduce elements of the datatype whose handle and layout are given (a predefined
 * type, a pair type for MAXLOC/MINLOC, or, for predefined ops, a derived type made of one such type:
 * the layout names it), else MPI_ERR_OP. User operations accept any datatype; MPI_REPLACE and MPI_NO_OP
 * none (they are for accumulates, which apply them to any type). */
int axon_coll_op_check(const struct axon_coll_op *op, MPI_Datatype datatype, const struct axon_dtype_layout *dt);
/* inout = in op inout, count elements of the datatype. Predefined operations take both buffers packed:
 * count * dt->size bytes in typemap order without gaps (for a contiguous layout, the user's buffer from
 * dt->true_lb; a pair type such as MPI_DOUBLE_INT packs to value then index, sizeof(double) + sizeof(int)
 * bytes an element). User operations take the buffers as their function expects them: count elements
 * dt->extent apart from in and inout (the two forms agree for contiguous types with true_lb 0). */
int axon_coll_op_apply(const struct axon_coll_op *op, const void *in, void *inout, int64_t count,
                       MPI_Datatype datatype, const struct axon_dtype_layout *dt);
/* A pending collective keeps its user operation alive although MPI_Op_free was called. */
void axon_coll_op_retain(struct axon_coll_op *op);
void axon_coll_op_release(struct axon_coll_op *op);
/* Whether op is a predefined operation (whose buffers are packed, above). */
bool axon_coll_op_is_predefined(const struct axon_coll_op *op);

/* MPI_Op_create and MPI_Op_free without the API's checks (also for unit tests, before MPI_Init):
 * MPI_SUCCESS or MPI_ERR_NO_MEM; free: MPI_ERR_OP when handle is not a live user operation. */
int axon_coll_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commute, MPI_Op *handle);
int axon_coll_op_free(MPI_Op handle);

/* Between the two files of the layer (axon_coll_op_predefined.c): the loop of predefined operation
 * opi (its handle's low byte - 1, MPI_MAX .. MPI_MAXLOC) on a predefined basic datatype, NULL when the
 * standard does not allow that pair. A table lookup. */
typedef void axon_coll_op_loop(const void *restrict in, void *restrict inout, int64_t n);
axon_coll_op_loop *axon_coll_op_predefined_loop(unsigned opi, MPI_Datatype basic);
/* The loop's name, "<op>_<type>" ("sum_u32", "maxloc_double_int"), which its GPU kernel shares; NULL
 * where there is no loop. */
const char *axon_coll_op_predefined_name(unsigned opi, MPI_Datatype basic);
/* Its kernel on memory kind mk (the kind's reduce_kernel of that name, looked up once), or -1. */
int axon_coll_op_predefined_kernel(enum axon_memkind mk, unsigned opi, MPI_Datatype basic);

/* ---- on the GPU ----------------------------------------------------------------------------------- */

/* The kernel of memory kind mk (memkind/axon_memkind.h) that applies op to packed elements of the
 * datatype, or -1: a user operation, MPI_REPLACE or MPI_NO_OP, a type the GPU has no arithmetic for
 * (long double), a datatype that mixes types, or a build or driver without kernels. */
int axon_coll_op_gpu_kernel(enum axon_memkind mk, const struct axon_coll_op *op, MPI_Datatype datatype,
                            const struct axon_dtype_layout *dt);
/* The kernel this build has for the pair, whether or not a driver is there to run it (axon_info's table). */
int axon_coll_op_gpu_kernel_built(enum axon_memkind mk, const struct axon_coll_op *op, MPI_Datatype datatype,
                                  const struct axon_dtype_layout *dt);
/* inout = in op inout over count packed elements in memory of kind mk on device, by that kernel. */
int axon_coll_op_apply_gpu(enum axon_memkind mk, int kernel, const void *in, void *inout, int64_t count,
                           MPI_Datatype datatype, const struct axon_dtype_layout *dt, int device);

#endif
