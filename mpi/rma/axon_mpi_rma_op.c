/* The one-sided operations: MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, their request forms
 * (MPI_Rput, _Rget, _Raccumulate, _Rget_accumulate), their _c twins, MPI_Fetch_and_op and
 * MPI_Compare_and_swap. Each checks its arguments as MPI 4.1 section 12.3 states them, describes the
 * operation (struct axon_rma_op) and hands it to the engine, which checks the epoch and the target's
 * bounds. An int call and its _c twin share one function of 64-bit counts.
 *
 * A transfer is what a send of the origin's data and a receive into the target's layout would do (put,
 * accumulate), or the reverse (get): a side that receives less than the other sends is
 * MPI_ERR_TRUNCATE, as a receive would be, while sending less than the receiving layout holds is
 * allowed. Accumulates combine element by element, so for them the elements of the one predefined type
 * every datatype is made of are counted. */
#include "mpi/rma/axon_mpi_win.h"

#include "mpi/datatype/axon_mpi_datatype.h"

/* ---- checks --------------------------------------------------------------------------------------- */

static int axon_mpi_rma_check_count(const char *func, struct axon_win *w, int64_t count, const char *what)
{
    if (count < 0)
        return axon_mpi_win_error(w, func, MPI_ERR_COUNT, "%s %lld is negative", what, (long long)count);
    return MPI_SUCCESS;
}

static int axon_mpi_rma_check_type(const char *func, struct axon_win *w, MPI_Datatype type,
                                   struct axon_dtype_layout *dt, const char *what)
{
    if (!axon_mpi_datatype_get(type, dt))
        return axon_mpi_win_error(w, func, MPI_ERR_TYPE, "%s %s is not a valid committed datatype", what,
                                  AXON_MPI_HANDLE_NAME(type));
    return MPI_SUCCESS;
}

/* A rank of the window's group or MPI_PROC_NULL; a displacement that is not negative, except in a
 * dynamic window, where it is an address. */
static int axon_mpi_rma_check_target(const char *func, struct axon_win *w, int target, int64_t disp)
{
    if (target != MPI_PROC_NULL && (target < 0 || target >= w->group->size))
        return axon_mpi_win_error(w, func, MPI_ERR_RANK, "target rank %d is not in the window's group (size %d)",
                                  target, w->group->size);
    if (disp < 0 && w->flavor != AXON_RMA_DYNAMIC)
        return axon_mpi_win_error(w, func, MPI_ERR_DISP, "target_disp %lld is negative", (long long)disp);
    return MPI_SUCCESS;
}

/* That a receiving side (rcount elements of to) takes what the sending side gives (scount elements of
 * from). sunit, runit: what one element of each side holds, in bytes (put, get) or in basic elements
 * (accumulates: elements says so). */
static int axon_mpi_rma_check_fits(const char *func, struct axon_win *w, int64_t scount, int64_t sunit, int64_t rcount,
                                   int64_t runit, bool elements, const char *from, const char *to)
{
    int64_t sent, room;
    if (__builtin_mul_overflow(scount, sunit, &sent) || __builtin_mul_overflow(rcount, runit, &room))
        return axon_mpi_win_error(w, func, MPI_ERR_COUNT, "the %s or %s data is too large to describe", from, to);
    if (sent > room)
        return axon_mpi_win_error(w, func, MPI_ERR_TRUNCATE,
                                  "the %s data (%lld %s) is larger than the %s datatype and count describe (%lld)",
                                  from, (long long)sent, elements ? "elements" : "bytes", to,
                                  (long long)room);
    return MPI_SUCCESS;
}

/* The accumulate rules: every datatype made of one predefined type, the same for all (MPI 4.1 section
 * 12.3.4); the operation predefined, MPI_REPLACE or MPI_NO_OP (never a user's), and defined on that type.
 * tdt is the target's layout, the others' are checked against it (NULL when not used). */
static int axon_mpi_rma_check_acc(const char *func, struct axon_win *w, MPI_Op op, struct axon_coll_op **o_out,
                                  MPI_Datatype ttype, const struct axon_dtype_layout *tdt, MPI_Datatype otype,
                                  const struct axon_dtype_layout *odt, MPI_Datatype rtype,
                                  const struct axon_dtype_layout *rdt)
{
    if (tdt->basic == MPI_DATATYPE_NULL)
        return axon_mpi_win_error(w, func, MPI_ERR_TYPE,
                                  "target datatype %s mixes predefined types, which accumulates do not allow",
                                  AXON_MPI_HANDLE_NAME(ttype));
    const struct {
        const char *what;
        MPI_Datatype type;
        const struct axon_dtype_layout *dt;
    } others[] = {{"origin", otype, odt}, {"result", rtype, rdt}};
    for (size_t i = 0; i < AXON_ARRAY_SIZE(others); i++) {
        const struct axon_dtype_layout *dt = others[i].dt;
        MPI_Datatype type = others[i].type;
        if (!dt || dt->basic == tdt->basic)
            continue;
        if (dt->basic == MPI_DATATYPE_NULL)
            return axon_mpi_win_error(w, func, MPI_ERR_TYPE,
                                      "%s datatype %s mixes predefined types, which accumulates do not allow",
                                      others[i].what, AXON_MPI_HANDLE_NAME(type));
        /* "origin datatype MPI_INT and target datatype 0x8c000001 (made of MPI_DOUBLE) differ" */
        return axon_mpi_win_error(w, func, MPI_ERR_TYPE, "%s datatype %s%s%s%s and target datatype %s%s%s%s differ",
                                  others[i].what, AXON_MPI_HANDLE_NAME(type), type == dt->basic ? "" : " (made of ",
                                  type == dt->basic ? "" : AXON_MPI_HANDLE_NAME(dt->basic),
                                  type == dt->basic ? "" : ")", AXON_MPI_HANDLE_NAME(ttype),
                                  ttype == tdt->basic ? "" : " (made of ",
                                  ttype == tdt->basic ? "" : AXON_MPI_HANDLE_NAME(tdt->basic),
                                  ttype == tdt->basic ? "" : ")");
    }
    struct axon_coll_op *o = axon_coll_op_get(op);
    if (!o)
        return axon_mpi_win_error(w, func, MPI_ERR_OP, "invalid operation %s", AXON_MPI_HANDLE_NAME(op));
    if (!axon_coll_op_is_predefined(o))
        return axon_mpi_win_error(w, func, MPI_ERR_OP,
                                  "operation %s is the program's own; accumulates take predefined operations only",
                                  AXON_MPI_HANDLE_NAME(op));
    /* MPI_REPLACE and MPI_NO_OP apply to any predefined type; the others to those a reduction allows. */
    if (op != MPI_REPLACE && op != MPI_NO_OP && axon_coll_op_check(o, ttype, tdt) != MPI_SUCCESS)
        return axon_mpi_win_error(w, func, MPI_ERR_OP, "%s is not defined on %s%s%s%s", AXON_MPI_HANDLE_NAME(op),
                                  AXON_MPI_HANDLE_NAME(tdt->basic),
                                  tdt->basic == ttype ? "" : ", of which target datatype ",
                                  tdt->basic == ttype ? "" : AXON_MPI_HANDLE_NAME(ttype),
                                  tdt->basic == ttype ? "" : " is made");
    *o_out = o;
    return MPI_SUCCESS;
}

/* Fills every field of an operation's description. Not an initializer: GCC zeroes an initialized
 * description with rep stos, whose start-up costs a third of an 8-byte put. */
static inline void axon_mpi_rma_op_set(struct axon_rma_op *r, enum axon_rma_op_kind kind, const void *origin,
                                       int64_t origin_count, const struct axon_dtype_layout *origin_dt,
                                       void *result, int64_t result_count, const struct axon_dtype_layout *result_dt,
                                       int target, int64_t target_disp, int64_t target_count,
                                       const struct axon_dtype_layout *target_dt, MPI_Op op, struct axon_coll_op *o)
{
    r->kind = kind;
    r->origin = origin;
    r->origin_count = origin_count;
    r->origin_dt = origin_dt;
    r->result = result;
    r->result_count = result_count;
    r->result_dt = result_dt;
    r->compare = NULL;
    r->target = target;
    r->target_disp = target_disp;
    r->target_count = target_count;
    r->target_dt = target_dt;
    r->op = op;
    r->op_obj = o;
}

/* Hands the operation to the engine; request (the R-forms) gets a request handle. A target of
 * MPI_PROC_NULL is the engine's to decide too (it does nothing); should it give no request then, the
 * call's request is born complete. */
static int axon_mpi_rma_start(const char *func, struct axon_win *w, const struct axon_rma_op *op, MPI_Request *request)
{
    struct axon_request *req = NULL;
    const char *why = NULL;
    int rc = axon_rma_op_start(w->engine, op, request ? &req : NULL, &why);
    if (rc != MPI_SUCCESS)
        return AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
    if (request) {
        if (!req && axon_request_alloc_complete(AXON_REQUEST_DONE, &req) != MPI_SUCCESS)
            return axon_mpi_win_error(w, func, MPI_ERR_NO_MEM, "out of requests");
        *request = axon_mpi_request_handle(req);
    }
    return MPI_SUCCESS;
}

/* The R-forms' output: a place for the handle, MPI_REQUEST_NULL until the operation started. */
#define AXON_MPI_RMA_CHECK_REQUEST(func, w, request, wants)                                              \
    do {                                                                                             \
        if (wants) {                                                                                 \
            if (!(request))                                                                          \
                return axon_mpi_win_error(w, func, MPI_ERR_ARG, "request is a NULL pointer");       \
            *(request) = MPI_REQUEST_NULL;                                                           \
        }                                                                                            \
    } while (0)

/* ---- put and get ---------------------------------------------------------------------------------- */

static int axon_mpi_rma_put_get(const char *func, enum axon_rma_op_kind kind, const void *origin_addr,
                                int64_t origin_count, MPI_Datatype origin_datatype, int target_rank,
                                int64_t target_disp, int64_t target_count, MPI_Datatype target_datatype, MPI_Win win,
                                bool wants_request, MPI_Request *request)
{
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    AXON_MPI_RMA_CHECK_REQUEST(func, w, request, wants_request);
    struct axon_dtype_layout odt_, tdt_, *odt = &odt_, *tdt = &tdt_;
    bool put = kind == AXON_RMA_PUT;
    int rc;
    if ((rc = axon_mpi_rma_check_count(func, w, origin_count, "origin_count")) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_count(func, w, target_count, "target_count")) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_type(func, w, origin_datatype, odt, "origin datatype")) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_type(func, w, target_datatype, tdt, "target datatype")) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_target(func, w, target_rank, target_disp)) != MPI_SUCCESS)
        return rc;
    if (put)
        rc = axon_mpi_rma_check_fits(func, w, origin_count, odt->size, target_count, tdt->size, false, "origin",
                                     "target");
    else
        rc = axon_mpi_rma_check_fits(func, w, target_count, tdt->size, origin_count, odt->size, false, "target",
                                     "origin");
    if (rc != MPI_SUCCESS)
        return rc;

    struct axon_rma_op op;
    /* a get's origin buffer is where the data lands */
    axon_mpi_rma_op_set(&op, kind, put ? origin_addr : NULL, put ? origin_count : 0, put ? odt : NULL,
                        put ? NULL : (void *)origin_addr, put ? 0 : origin_count, put ? NULL : odt, target_rank,
                        target_disp, target_count, tdt, MPI_OP_NULL, NULL);
    return axon_mpi_rma_start(func, w, &op, wants_request ? request : NULL);
}

AXON_MPI_WEAK(Put)
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return axon_mpi_rma_put_get("MPI_Put", AXON_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, false, NULL);
}

AXON_MPI_WEAK(Put_c)
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return axon_mpi_rma_put_get("MPI_Put_c", AXON_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, false, NULL);
}

AXON_MPI_WEAK(Rput)
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return axon_mpi_rma_put_get("MPI_Rput", AXON_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, true, request);
}

AXON_MPI_WEAK(Rput_c)
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return axon_mpi_rma_put_get("MPI_Rput_c", AXON_RMA_PUT, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, true, request);
}

AXON_MPI_WEAK(Get)
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return axon_mpi_rma_put_get("MPI_Get", AXON_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, false, NULL);
}

AXON_MPI_WEAK(Get_c)
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return axon_mpi_rma_put_get("MPI_Get_c", AXON_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, false, NULL);
}

AXON_MPI_WEAK(Rget)
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
              int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return axon_mpi_rma_put_get("MPI_Rget", AXON_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, true, request);
}

AXON_MPI_WEAK(Rget_c)
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return axon_mpi_rma_put_get("MPI_Rget_c", AXON_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                                target_disp, target_count, target_datatype, win, true, request);
}

/* ---- accumulates ---------------------------------------------------------------------------------- */

/* MPI_Accumulate (result_addr NULL, kind ACC) and MPI_Get_accumulate (kind GET_ACC) with their R-forms. */
static int axon_mpi_rma_accumulate(const char *func, enum axon_rma_op_kind kind, const void *origin_addr,
                                   int64_t origin_count, MPI_Datatype origin_datatype, void *result_addr,
                                   int64_t result_count, MPI_Datatype result_datatype, int target_rank,
                                   int64_t target_disp, int64_t target_count, MPI_Datatype target_datatype, MPI_Op op,
                                   MPI_Win win, bool wants_request, MPI_Request *request)
{
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    AXON_MPI_RMA_CHECK_REQUEST(func, w, request, wants_request);
    bool fetch = kind == AXON_RMA_GET_ACC;
    /* MPI_NO_OP ignores the origin's buffer, count and datatype (MPI 4.1 section 12.3.4). */
    bool uses_origin = !(fetch && op == MPI_NO_OP);
    struct axon_dtype_layout odt = {0}, rdt = {0}, tdt;
    int rc;
    if (uses_origin &&
        ((rc = axon_mpi_rma_check_count(func, w, origin_count, "origin_count")) != MPI_SUCCESS ||
         (rc = axon_mpi_rma_check_type(func, w, origin_datatype, &odt, "origin datatype")) != MPI_SUCCESS))
        return rc;
    if (fetch && ((rc = axon_mpi_rma_check_count(func, w, result_count, "result_count")) != MPI_SUCCESS ||
                  (rc = axon_mpi_rma_check_type(func, w, result_datatype, &rdt, "result datatype")) != MPI_SUCCESS))
        return rc;
    if ((rc = axon_mpi_rma_check_count(func, w, target_count, "target_count")) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_type(func, w, target_datatype, &tdt, "target datatype")) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_target(func, w, target_rank, target_disp)) != MPI_SUCCESS)
        return rc;
    struct axon_coll_op *o = NULL;
    /* Nothing moves when the target side holds no data (a zero count or a type of size zero): the
     * datatypes need not agree then (MPICH's suite calls so with anything, rma/badrma). */
    if (target_count * tdt.size == 0 && (!uses_origin || origin_count * odt.size == 0) &&
        (!fetch || result_count * rdt.size == 0)) {
        static const struct axon_dtype_layout nothing = {.contig = true};
        struct axon_rma_op none = {.kind = kind,
                                   .origin_dt = &nothing,
                                   .result_dt = &nothing,
                                   .target = target_rank,
                                   .target_dt = &nothing,
                                   .op = MPI_NO_OP};
        return axon_mpi_rma_start(func, w, &none, wants_request ? request : NULL);
    }
    rc = axon_mpi_rma_check_acc(func, w, op, &o, target_datatype, &tdt, origin_datatype, uses_origin ? &odt : NULL,
                                result_datatype, fetch ? &rdt : NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    if (uses_origin)
        rc = axon_mpi_rma_check_fits(func, w, origin_count, odt.basic_count, target_count, tdt.basic_count, true,
                                     "origin", "target");
    if (rc == MPI_SUCCESS && fetch)
        rc = axon_mpi_rma_check_fits(func, w, target_count, tdt.basic_count, result_count, rdt.basic_count, true,
                                     "target", "result");
    if (rc != MPI_SUCCESS)
        return rc;

    struct axon_rma_op rop;
    axon_mpi_rma_op_set(&rop, kind, uses_origin ? origin_addr : NULL, uses_origin ? origin_count : 0,
                        uses_origin ? &odt : NULL, fetch ? result_addr : NULL, fetch ? result_count : 0,
                        fetch ? &rdt : NULL, target_rank, target_disp, target_count, &tdt, op, o);
    return axon_mpi_rma_start(func, w, &rop, wants_request ? request : NULL);
}

AXON_MPI_WEAK(Accumulate)
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return axon_mpi_rma_accumulate("MPI_Accumulate", AXON_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0,
                                   MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win,
                                   false, NULL);
}

AXON_MPI_WEAK(Accumulate_c)
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    return axon_mpi_rma_accumulate("MPI_Accumulate_c", AXON_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL,
                                   0, MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op,
                                   win, false, NULL);
}

AXON_MPI_WEAK(Raccumulate)
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    return axon_mpi_rma_accumulate("MPI_Raccumulate", AXON_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0,
                                   MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win,
                                   true, request);
}

AXON_MPI_WEAK(Raccumulate_c)
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                       MPI_Win win, MPI_Request *request)
{
    return axon_mpi_rma_accumulate("MPI_Raccumulate_c", AXON_RMA_ACC, origin_addr, origin_count, origin_datatype, NULL,
                                   0, MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op,
                                   win, true, request);
}

AXON_MPI_WEAK(Get_accumulate)
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return axon_mpi_rma_accumulate("MPI_Get_accumulate", AXON_RMA_GET_ACC, origin_addr, origin_count, origin_datatype,
                                   result_addr, result_count, result_datatype, target_rank, target_disp, target_count,
                                   target_datatype, op, win, false, NULL);
}

AXON_MPI_WEAK(Get_accumulate_c)
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    return axon_mpi_rma_accumulate("MPI_Get_accumulate_c", AXON_RMA_GET_ACC, origin_addr, origin_count, origin_datatype,
                                   result_addr, result_count, result_datatype, target_rank, target_disp, target_count,
                                   target_datatype, op, win, false, NULL);
}

AXON_MPI_WEAK(Rget_accumulate)
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                         MPI_Request *request)
{
    return axon_mpi_rma_accumulate("MPI_Rget_accumulate", AXON_RMA_GET_ACC, origin_addr, origin_count, origin_datatype,
                                   result_addr, result_count, result_datatype, target_rank, target_disp, target_count,
                                   target_datatype, op, win, true, request);
}

AXON_MPI_WEAK(Rget_accumulate_c)
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    return axon_mpi_rma_accumulate("MPI_Rget_accumulate_c", AXON_RMA_GET_ACC, origin_addr, origin_count,
                                   origin_datatype, result_addr, result_count, result_datatype, target_rank,
                                   target_disp, target_count, target_datatype, op, win, true, request);
}

/* ---- atomics -------------------------------------------------------------------------------------- */

/* One element of a predefined datatype (MPI 4.1 section 12.3.4: "datatype ... predefined"). */
static int axon_mpi_rma_check_element(const char *func, struct axon_win *w, MPI_Datatype datatype,
                                      struct axon_dtype_layout *dt)
{
    if (!axon_mpi_datatype_is_predefined(datatype) || !axon_mpi_datatype_get(datatype, dt))
        return axon_mpi_win_error(w, func, MPI_ERR_TYPE, "datatype %s is not a predefined datatype",
                                  AXON_MPI_HANDLE_NAME(datatype));
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Fetch_and_op)
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    static const char func[] = "MPI_Fetch_and_op";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    struct axon_dtype_layout dt;
    struct axon_coll_op *o;
    int rc;
    if ((rc = axon_mpi_rma_check_element(func, w, datatype, &dt)) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_target(func, w, target_rank, target_disp)) != MPI_SUCCESS ||
        (rc = axon_mpi_rma_check_acc(func, w, op, &o, datatype, &dt, datatype, &dt, datatype, &dt)) != MPI_SUCCESS)
        return rc;
    bool uses_origin = op != MPI_NO_OP;
    struct axon_rma_op rop;
    axon_mpi_rma_op_set(&rop, AXON_RMA_GET_ACC, uses_origin ? origin_addr : NULL, uses_origin ? 1 : 0, &dt,
                        result_addr, 1, &dt, target_rank, target_disp, 1, &dt, op, o);
    return axon_mpi_rma_start(func, w, &rop, NULL);
}

/* The types compare-and-swap takes (MPI 4.1 section 12.3.4): C integer, Fortran integer, logical,
 * multi-language (MPI_AINT, MPI_OFFSET, MPI_COUNT) and byte; and MPI_CHAR and MPI_WCHAR, which MPICH and
 * Open MPI take too (the OSU benchmarks' osu_cas_latency swaps MPI_CHAR), so a program that runs on both
 * runs here. MPI_INTEGER16 is absent: this build has no such type (it is MPI_DATATYPE_NULL in mpi.h). */
static bool axon_mpi_rma_cas_type(MPI_Datatype t)
{
    static const MPI_Datatype allowed[] = {
        MPI_INT,         MPI_LONG,          MPI_SHORT,     MPI_UNSIGNED_SHORT, MPI_UNSIGNED,   MPI_UNSIGNED_LONG,
        MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T, MPI_INT16_T,
        MPI_INT32_T,     MPI_INT64_T,       MPI_UINT8_T,   MPI_UINT16_T,       MPI_UINT32_T,   MPI_UINT64_T,
        MPI_INTEGER,     MPI_INTEGER1,      MPI_INTEGER2,  MPI_INTEGER4,       MPI_INTEGER8,   MPI_LOGICAL,
        MPI_C_BOOL,      MPI_CXX_BOOL,      MPI_AINT,      MPI_OFFSET,         MPI_COUNT,      MPI_BYTE,
        MPI_CHAR,        MPI_WCHAR,
    };
    for (size_t i = 0; i < AXON_ARRAY_SIZE(allowed); i++)
        if (t == allowed[i] && t != MPI_DATATYPE_NULL)
            return true;
    return false;
}

AXON_MPI_WEAK(Compare_and_swap)
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    static const char func[] = "MPI_Compare_and_swap";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    struct axon_dtype_layout dt;
    int rc = axon_mpi_rma_check_element(func, w, datatype, &dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!axon_mpi_rma_cas_type(datatype))
        return axon_mpi_win_error(w, func, MPI_ERR_TYPE,
                                  "datatype %s is not an integer, logical, byte or address type, which "
                                  "compare-and-swap takes",
                                  AXON_MPI_HANDLE_NAME(datatype));
    if ((rc = axon_mpi_rma_check_target(func, w, target_rank, target_disp)) != MPI_SUCCESS)
        return rc;
    struct axon_rma_op rop;
    axon_mpi_rma_op_set(&rop, AXON_RMA_CAS, origin_addr, 1, &dt, result_addr, 1, &dt, target_rank, target_disp, 1,
                        &dt, MPI_OP_NULL, NULL);
    rop.compare = compare_addr;
    return axon_mpi_rma_start(func, w, &rop, NULL);
}
