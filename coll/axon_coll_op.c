/* Reduction operations as objects: the predefined ones (a static table indexed by the handle's low
 * byte, found with no lock) and the user's (MPI_Op_create), and applying either to data.
 *
 * User operations have MPICH's direct handles 0x98000000 | index and live in a pool
 * (runtime/axon_runtime_pool.h), made on the first MPI_Op_create. An operation is refcounted: the
 * user's handle is one reference and every pending collective that uses it holds another, so
 * MPI_Op_free (which ends the handle at once) leaves the function callable until the last collective
 * releases it. Creation and destruction take a mutex; a lookup is two loads. */
#include "coll/axon_coll_op.h"

#include "memkind/axon_memkind.h"
#include "runtime/axon_runtime_pool.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define AXON_OP_PREDEFINED_BASE 0x58000000u
#define AXON_OP_NPREDEFINED 14u           /* MPI_MAX (0x58000001) .. MPI_NO_OP (0x5800000e) */
#define AXON_OP_OPI_REPLACE 12u
#define AXON_OP_OPI_NO_OP 13u
#define AXON_OP_USER_BASE 0x98000000u     /* MPICH's direct op handles */
#define AXON_OP_USER_MASK 0xfc000000u
#define AXON_OP_USER_INDEX 0x03ffffffu
#define AXON_OP_USER ((unsigned)-1)

struct axon_coll_op {
    MPI_Op handle;
    unsigned opi;              /* predefined: the handle's low byte - 1; AXON_OP_USER otherwise */
    bool commute;
    MPI_User_function *fn;     /* user operations: the int form, */
    MPI_User_function_c *fn_c; /* or the large-count one (MPI_Op_create_c) */
    uint32_t index;            /* in the pool */
    atomic_int refs;           /* user operations: the handle's and the pending collectives' */
    atomic_bool freed;         /* MPI_Op_free came: the handle names nothing any more */
};

#define AXON_OP_PREDEF(i) {.handle = (MPI_Op)(AXON_OP_PREDEFINED_BASE + (i) + 1), .opi = (i), .commute = true}

static struct axon_coll_op axon_op_predefined[AXON_OP_NPREDEFINED] = {
    AXON_OP_PREDEF(0),  AXON_OP_PREDEF(1),  AXON_OP_PREDEF(2),  AXON_OP_PREDEF(3),  AXON_OP_PREDEF(4),
    AXON_OP_PREDEF(5),  AXON_OP_PREDEF(6),  AXON_OP_PREDEF(7),  AXON_OP_PREDEF(8),  AXON_OP_PREDEF(9),
    AXON_OP_PREDEF(10), AXON_OP_PREDEF(11), AXON_OP_PREDEF(12), AXON_OP_PREDEF(13),
};

static struct axon_pool axon_op_pool;
static atomic_bool axon_op_pool_ready;
static pthread_mutex_t axon_op_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- handles ---------------------------------------------------------------------------------------- */

struct axon_coll_op *axon_coll_op_get(MPI_Op handle)
{
    unsigned h = (unsigned)handle;
    unsigned predefined = h - AXON_OP_PREDEFINED_BASE - 1u;
    if (predefined < AXON_OP_NPREDEFINED)
        return &axon_op_predefined[predefined];
    if ((h & AXON_OP_USER_MASK) != AXON_OP_USER_BASE ||
        !atomic_load_explicit(&axon_op_pool_ready, memory_order_acquire))
        return NULL;
    struct axon_coll_op *op = axon_runtime_pool_get(&axon_op_pool, h & AXON_OP_USER_INDEX);
    if (!op || atomic_load_explicit(&op->freed, memory_order_acquire))
        return NULL;
    return op;
}

bool axon_coll_op_commutative(const struct axon_coll_op *op)
{
    return op->commute;
}

bool axon_coll_op_is_predefined(const struct axon_coll_op *op)
{
    return op->opi != AXON_OP_USER;
}

int axon_coll_op_create(MPI_User_function *fn, MPI_User_function_c *fn_c, bool commute, MPI_Op *handle)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_op_lock);
    if (!atomic_load_explicit(&axon_op_pool_ready, memory_order_relaxed)) {
        rc = axon_runtime_pool_init(&axon_op_pool, "reduction operations", sizeof(struct axon_coll_op));
        if (rc != MPI_SUCCESS)
            goto out;
        atomic_store_explicit(&axon_op_pool_ready, true, memory_order_release);
    }
    void *obj;
    uint32_t index;
    rc = axon_runtime_pool_alloc(&axon_op_pool, &obj, &index);
    if (rc != MPI_SUCCESS)
        goto out;
    if (index > AXON_OP_USER_INDEX) {
        axon_runtime_pool_free(&axon_op_pool, index);
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    struct axon_coll_op *op = obj;
    op->handle = (MPI_Op)(AXON_OP_USER_BASE | index);
    op->opi = AXON_OP_USER;
    op->commute = commute;
    op->fn = fn;
    op->fn_c = fn_c;
    op->index = index;
    atomic_init(&op->refs, 1);
    atomic_init(&op->freed, false);
    *handle = op->handle;
out:
    pthread_mutex_unlock(&axon_op_lock);
    return rc;
}

int axon_coll_op_free(MPI_Op handle)
{
    pthread_mutex_lock(&axon_op_lock);
    struct axon_coll_op *op = axon_coll_op_get(handle);
    bool user = op && op->opi == AXON_OP_USER;
    if (user)
        atomic_store_explicit(&op->freed, true, memory_order_release);
    pthread_mutex_unlock(&axon_op_lock);
    if (!user)
        return MPI_ERR_OP;
    axon_coll_op_release(op);
    return MPI_SUCCESS;
}

void axon_coll_op_retain(struct axon_coll_op *op)
{
    if (op->opi == AXON_OP_USER)
        atomic_fetch_add_explicit(&op->refs, 1, memory_order_relaxed);
}

void axon_coll_op_release(struct axon_coll_op *op)
{
    if (op->opi != AXON_OP_USER || atomic_fetch_sub_explicit(&op->refs, 1, memory_order_acq_rel) != 1)
        return;
    pthread_mutex_lock(&axon_op_lock);
    axon_runtime_pool_free(&axon_op_pool, op->index);
    pthread_mutex_unlock(&axon_op_lock);
}

/* ---- checking and applying ---------------------------------------------------------------------------- */

/* The predefined type the elements are made of, and how many of it make count elements; false when the
 * datatype mixes types. */
static bool axon_op_basic(MPI_Datatype datatype, const struct axon_dtype_layout *dt, int64_t count,
                          MPI_Datatype *basic, int64_t *n)
{
    /* Builtin handles (0x4c......), and the MAXLOC/MINLOC pairs 0x8c000000..4, are their own basic type. */
    if (((unsigned)datatype & 0xfc000000u) == 0x4c000000u || (unsigned)datatype - (unsigned)MPI_FLOAT_INT < 5u) {
        *basic = datatype;
        *n = count;
        return true;
    }
    if (!dt || dt->basic == MPI_DATATYPE_NULL)
        return false;
    *basic = dt->basic;
    *n = count * dt->basic_count;
    return true;
}

int axon_coll_op_check(const struct axon_coll_op *op, MPI_Datatype datatype, const struct axon_dtype_layout *dt)
{
    if (op->opi == AXON_OP_USER)
        return MPI_SUCCESS;
    /* MPI_REPLACE and MPI_NO_OP combine one-sided accumulates (MPI 4.1 section 12.3.4), not reductions. */
    if (op->opi == AXON_OP_OPI_REPLACE || op->opi == AXON_OP_OPI_NO_OP)
        return MPI_ERR_OP;
    MPI_Datatype basic;
    int64_t n;
    if (!axon_op_basic(datatype, dt, 1, &basic, &n) || !axon_coll_op_predefined_loop(op->opi, basic))
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

int axon_coll_op_apply(const struct axon_coll_op *op, const void *in, void *inout, int64_t count,
                       MPI_Datatype datatype, const struct axon_dtype_layout *dt)
{
    if (count <= 0)
        return MPI_SUCCESS;
    if (op->opi == AXON_OP_USER && op->fn_c) {
        /* The large-count form takes the whole count at once. */
        MPI_Datatype type = datatype;
        MPI_Count len = count;
        op->fn_c((void *)in, inout, &len, &type);
        return MPI_SUCCESS;
    }
    if (op->opi == AXON_OP_USER) {
        /* The user's function takes an int count: pieces of at most INT_MAX elements. */
        MPI_Datatype type = datatype;
        const char *src = in;
        char *dst = inout;
        while (count > 0) {
            int len = count > INT_MAX ? INT_MAX : (int)count;
            op->fn((void *)src, dst, &len, &type);
            src += (int64_t)len * dt->extent;
            dst += (int64_t)len * dt->extent;
            count -= len;
        }
        return MPI_SUCCESS;
    }
    if (op->opi == AXON_OP_OPI_NO_OP)
        return MPI_SUCCESS;
    if (op->opi == AXON_OP_OPI_REPLACE) {
        if (in != inout)
            memmove(inout, in, (size_t)(count * dt->size));
        return MPI_SUCCESS;
    }
    MPI_Datatype basic;
    int64_t n;
    axon_coll_op_loop *loop = NULL;
    if (axon_op_basic(datatype, dt, count, &basic, &n))
        loop = axon_coll_op_predefined_loop(op->opi, basic);
    if (!loop)
        return MPI_ERR_OP;
    loop(in, inout, n);
    return MPI_SUCCESS;
}

/* ---- on the GPU ----------------------------------------------------------------------------------- */

int axon_coll_op_gpu_kernel_built(enum axon_memkind mk, const struct axon_coll_op *op, MPI_Datatype datatype,
                                  const struct axon_dtype_layout *dt)
{
    if (op->opi == AXON_OP_USER || op->opi == AXON_OP_OPI_REPLACE || op->opi == AXON_OP_OPI_NO_OP)
        return -1;
    MPI_Datatype basic;
    int64_t n;
    if (!axon_op_basic(datatype, dt, 1, &basic, &n))
        return -1;
    return axon_coll_op_predefined_kernel(mk, op->opi, basic);
}

int axon_coll_op_gpu_kernel(enum axon_memkind mk, const struct axon_coll_op *op, MPI_Datatype datatype,
                            const struct axon_dtype_layout *dt)
{
    return axon_memkind_kernels_available(mk) ? axon_coll_op_gpu_kernel_built(mk, op, datatype, dt) : -1;
}

int axon_coll_op_apply_gpu(enum axon_memkind mk, int kernel, const void *in, void *inout, int64_t count,
                           MPI_Datatype datatype, const struct axon_dtype_layout *dt, int device)
{
    MPI_Datatype basic;
    int64_t n;
    if (count <= 0)
        return MPI_SUCCESS;
    if (!axon_op_basic(datatype, dt, count, &basic, &n))
        return MPI_ERR_OP;
    return axon_memkind_reduce_run(mk, kernel, in, inout, (uint64_t)n, device);
}
