/* Windows made and freed: MPI_Win_create, _allocate, _allocate_shared, _create_dynamic and their _c twins,
 * MPI_Win_free, MPI_Win_attach and _detach, MPI_Win_shared_query(_c), and the info hints of a window
 * (parsed at creation; MPI_Win_get_info and _set_info). Each constructor checks its arguments, duplicates
 * the communicator into a hidden one whose engine contexts carry the engine's messages (so no user
 * message ever meets them), has the engine make the window, and gives it a handle.
 *
 * Errors of the constructors go to the communicator's handler (no window exists yet); every other call
 * raises its errors through the window's. The int and _c forms share one function of 64-bit sizes. */
#include "mpi/rma/axon_mpi_win.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hints ---------------------------------------------------------------------------------------- */

#define AXON_MPI_WIN_ORDERING_ALL "rar,raw,war,waw"

/* The value of key in info, or false when info has none (or MPI_INFO_NULL). */
static bool axon_mpi_win_info_value(MPI_Info info, const char *key, char *value, int size)
{
    int flag = 0, len = size;
    if (info == MPI_INFO_NULL)
        return false;
    return PMPI_Info_get_string(info, key, &len, value, &flag) == MPI_SUCCESS && flag && len <= size;
}

static void axon_mpi_win_hint_bool(MPI_Info info, const char *key, bool *out)
{
    char v[MPI_MAX_INFO_VAL];
    if (!axon_mpi_win_info_value(info, key, v, (int)sizeof(v)))
        return;
    if (!strcmp(v, "true"))
        *out = true;
    else if (!strcmp(v, "false"))
        *out = false;
}

/* "accumulate_ordering": "none", or a comma-separated list of rar, raw, war and waw. A valid value is kept
 * in the standard's order; anything else leaves the default (the strictest ordering, which the
 * standard's default is). */
static void axon_mpi_win_hint_ordering(MPI_Info info, char out[32])
{
    char v[MPI_MAX_INFO_VAL];
    if (!axon_mpi_win_info_value(info, "accumulate_ordering", v, (int)sizeof(v)))
        return;
    if (!strcmp(v, "none")) {
        snprintf(out, 32, "none");
        return;
    }
    static const char *const kinds[] = {"rar", "raw", "war", "waw"};
    bool seen[4] = {false};
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t len = strcspn(tok, " ");
        int which = -1;
        for (int k = 0; k < 4; k++)
            if (len == 3 && !strncmp(tok, kinds[k], 3))
                which = k;
        if (which < 0 || tok[len + strspn(tok + len, " ")] != '\0')
            return; /* not a value the standard names: ignored */
        seen[which] = true;
        n++;
    }
    if (n == 0)
        return;
    out[0] = '\0';
    for (int k = 0; k < 4; k++)
        if (seen[k])
            snprintf(out + strlen(out), 32 - strlen(out), "%s%s", out[0] ? "," : "", kinds[k]);
}

static void axon_mpi_win_hints_parse(MPI_Info info, struct axon_win_hints *h)
{
    char v[MPI_MAX_INFO_VAL];
    axon_mpi_win_hint_bool(info, "no_locks", &h->no_locks);
    axon_mpi_win_hint_bool(info, "same_size", &h->same_size);
    axon_mpi_win_hint_bool(info, "same_disp_unit", &h->same_disp_unit);
    axon_mpi_win_hint_bool(info, "alloc_shared_noncontig", &h->noncontig);
    axon_mpi_win_hint_ordering(info, h->accumulate_ordering);
    if (axon_mpi_win_info_value(info, "accumulate_ops", v, (int)sizeof(v))) {
        if (!strcmp(v, "same_op"))
            h->same_op = true;
        else if (!strcmp(v, "same_op_no_op"))
            h->same_op = false;
    }
    if (axon_mpi_win_info_value(info, "mpi_accumulate_granularity", v, (int)sizeof(v))) {
        char *end;
        long long g = strtoll(v, &end, 10);
        if (end != v && *end == '\0' && g >= 0)
            h->accumulate_granularity = g;
    }
}

static void axon_mpi_win_hints_default(struct axon_win_hints *h)
{
    *h = (struct axon_win_hints){.same_op = false};
    snprintf(h->accumulate_ordering, sizeof(h->accumulate_ordering), "%s", AXON_MPI_WIN_ORDERING_ALL);
}

/* ---- construction --------------------------------------------------------------------------------- */

/* The hidden communicator: the creating one's members with a context id of their own. Unlike
 * MPI_Comm_dup it copies no attributes: no user callback should see a communicator it never made. Its
 * errors (the agreement on an id) are raised on c. */
static int axon_mpi_win_comm_dup(const char *func, struct axon_comm *c, struct axon_comm **out)
{
    struct axon_comm_team t;
    axon_comm_team_of(c, &t);
    uint32_t id;
    int rc = axon_comm_context_alloc(&t, NULL, axon_ctx_priority(c->context_index, false, 0), &id);
    if (rc == MPI_ERR_INTERN)
        return axon_mpi_error(c, func, rc, "no context id is free on every member for the window's communicator");
    if (rc != MPI_SUCCESS)
        return axon_mpi_error(c, func, rc, "the agreement on a context id for the window's communicator failed");
    rc = axon_comm_make(func, c, id, c->group, NULL, out); /* raises on c itself */
    if (rc == MPI_SUCCESS)
        snprintf((*out)->name, sizeof((*out)->name), "the communicator of a window");
    return rc;
}

/* What every constructor does once its arguments are checked: size, disp_unit and base as the flavor
 * needs them; baseptr (ALLOCATE, SHARED) gets the memory's address. */
static int axon_mpi_win_make(const char *func, struct axon_comm *c, enum axon_rma_flavor flavor, void *base,
                             int64_t size, int64_t disp_unit, MPI_Info info, void *baseptr, MPI_Win *win)
{
    struct axon_win *w = calloc(1, sizeof(*w));
    if (!w)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory for a window");
    w->errhandler = MPI_ERRORS_ARE_FATAL; /* MPI 4.1 section 9.3: a window's initial handler */
    w->info = MPI_INFO_NULL;
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;
    axon_mpi_win_hints_default(&w->hints);
    axon_mpi_win_hints_parse(info, &w->hints);
    if (flavor != AXON_RMA_SHARED)
        w->hints.noncontig = false; /* the hint means something only for shared memory */
    /* The handle is taken first, so that nothing can fail locally once the members have made the window
     * together (its freeing would be collective too). Nobody knows the handle before it is returned. */
    if (axon_mpi_win_handle_new(w) != MPI_SUCCESS) {
        free(w);
        return axon_mpi_error(c, func, MPI_ERR_INTERN, "too many windows exist at once");
    }

    struct axon_comm *hc;
    int rc = axon_mpi_win_comm_dup(func, c, &hc);
    if (rc != MPI_SUCCESS) {
        axon_mpi_win_handle_drop(w);
        free(w);
        return rc;
    }
    /* A window's own assertion of the memory kinds it uses governs its traffic. */
    char kinds[MPI_MAX_INFO_VAL];
    if (axon_mpi_win_info_value(info, AXON_MPI_MEMKINDS_ASSERT_KEY, kinds, (int)sizeof(kinds)))
        axon_comm_info_adopt(hc, axon_comm_info_copy(info));

    /* MPI_Win_allocate's memory is the GPU's when its info asks for "cuda:device". */
    bool device_memory = flavor == AXON_RMA_ALLOCATE &&
                         axon_mpi_win_info_value(info, AXON_MPI_MEMKINDS_KEY, kinds, (int)sizeof(kinds)) &&
                         axon_mpi_memkinds_asks_device(kinds);

    struct axon_rma_win_spec spec = {
        .flavor = flavor,
        .device_memory = device_memory,
        .base = base,
        .size = size,
        .disp_unit = disp_unit,
        .noncontig = w->hints.noncontig,
        .accumulate_ordered = strcmp(w->hints.accumulate_ordering, "none") != 0,
        .ops = &hc->pt2pt,
        .reply = &hc->tagged,
        .coll = &hc->coll,
    };
    const char *why = NULL;
    void *mem = NULL;
    rc = axon_rma_win_create(&spec, &w->engine, &mem, &why);
    if (rc != MPI_SUCCESS) {
        axon_comm_discard(hc);
        axon_mpi_win_handle_drop(w);
        free(w);
        return axon_mpi_error(c, func, rc, "%s", why ? why : "the one-sided engine cannot make the window");
    }

    w->comm = hc;
    w->group = c->group;
    axon_group_retain(w->group);
    w->info = axon_comm_info_copy(info);
    axon_rma_win_local(w->engine, &w->base, &w->size, &w->disp_unit);
    w->attr_size = (MPI_Aint)w->size;
    /* An int attribute cannot hold a _c constructor's larger unit: MPI_Win_get_attr says MPI_UNDEFINED. */
    w->attr_disp_unit = w->disp_unit <= INT_MAX ? (int)w->disp_unit : MPI_UNDEFINED;
    w->attr_flavor = (int)flavor;
    w->attr_model = w->model;
    if (baseptr)
        *(void **)baseptr = w->base;
    *win = w->handle;
    return MPI_SUCCESS;
}

/* The checks every constructor shares: a live intracommunicator, a place for the handle, a valid info. */
#define AXON_MPI_WIN_CTOR_CHECK(func, comm, c, info, win)                                            \
    do {                                                                                             \
        AXON_MPI_REQUIRE_ACTIVE(func);                                                               \
        if (win)                                                                                     \
            *(win) = MPI_WIN_NULL; /* what an error leaves */                                        \
        AXON_MPI_COMM_CHECK(func, comm, c);                                                          \
        if (!(win))                                                                                  \
            return axon_mpi_error(c, func, MPI_ERR_ARG, "win is a NULL pointer");                   \
        if ((c)->is_inter)                                                                           \
            return axon_mpi_error(c, func, MPI_ERR_COMM, "windows are made on intracommunicators, not %s", \
                                  AXON_MPI_HANDLE_NAME(comm));                                       \
        if ((info) != MPI_INFO_NULL && !axon_mpi_info_valid(info))                                   \
            return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s",                   \
                                  AXON_MPI_HANDLE_NAME(info));                                       \
    } while (0)

static int axon_mpi_win_check_size(const char *func, struct axon_comm *c, int64_t size, int64_t disp_unit)
{
    if (size < 0)
        return axon_mpi_error(c, func, MPI_ERR_SIZE, "size %lld is negative", (long long)size);
    if (disp_unit <= 0)
        return axon_mpi_error(c, func, MPI_ERR_DISP, "disp_unit %lld is not positive", (long long)disp_unit);
    return MPI_SUCCESS;
}

static int axon_mpi_win_create(const char *func, void *base, int64_t size, int64_t disp_unit, MPI_Info info,
                               MPI_Comm comm, MPI_Win *win)
{
    struct axon_comm *c;
    AXON_MPI_WIN_CTOR_CHECK(func, comm, c, info, win);
    int rc = axon_mpi_win_check_size(func, c, size, disp_unit);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!base && size > 0)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "base is NULL with size %lld", (long long)size);
    return axon_mpi_win_make(func, c, AXON_RMA_CREATE, base, size, disp_unit, info, NULL, win);
}

static int axon_mpi_win_allocate(const char *func, enum axon_rma_flavor flavor, int64_t size, int64_t disp_unit,
                                 MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    struct axon_comm *c;
    AXON_MPI_WIN_CTOR_CHECK(func, comm, c, info, win);
    int rc = axon_mpi_win_check_size(func, c, size, disp_unit);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!baseptr)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "baseptr is a NULL pointer");
    return axon_mpi_win_make(func, c, flavor, NULL, size, disp_unit, info, baseptr, win);
}

AXON_MPI_WEAK(Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return axon_mpi_win_create("MPI_Win_create", base, size, disp_unit, info, comm, win);
}

AXON_MPI_WEAK(Win_create_c)
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return axon_mpi_win_create("MPI_Win_create_c", base, size, disp_unit, info, comm, win);
}

AXON_MPI_WEAK(Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return axon_mpi_win_allocate("MPI_Win_allocate", AXON_RMA_ALLOCATE, size, disp_unit, info, comm, baseptr, win);
}

AXON_MPI_WEAK(Win_allocate_c)
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return axon_mpi_win_allocate("MPI_Win_allocate_c", AXON_RMA_ALLOCATE, size, disp_unit, info, comm, baseptr, win);
}

AXON_MPI_WEAK(Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return axon_mpi_win_allocate("MPI_Win_allocate_shared", AXON_RMA_SHARED, size, disp_unit, info, comm, baseptr, win);
}

AXON_MPI_WEAK(Win_allocate_shared_c)
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    return axon_mpi_win_allocate("MPI_Win_allocate_shared_c", AXON_RMA_SHARED, size, disp_unit, info, comm, baseptr,
                                 win);
}

AXON_MPI_WEAK(Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    static const char func[] = "MPI_Win_create_dynamic";
    struct axon_comm *c;
    AXON_MPI_WIN_CTOR_CHECK(func, comm, c, info, win);
    /* Displacements into a dynamic window are addresses: the unit is one byte. */
    return axon_mpi_win_make(func, c, AXON_RMA_DYNAMIC, NULL, 0, 1, info, NULL, win);
}

/* ---- freeing -------------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_free)
int PMPI_Win_free(MPI_Win *win)
{
    static const char func[] = "MPI_Win_free";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    if (!win)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "win is a NULL pointer");
    AXON_MPI_WIN_CHECK(func, *win, w);
    /* A window still in an epoch is refused before anything goes (its attributes included). */
    const char *why = NULL;
    int rc = axon_rma_win_can_free(w->engine, &why);
    if (rc != MPI_SUCCESS)
        return AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
    /* Delete callbacks next, while the window is whole (they may query it); a failing one keeps it. */
    rc = axon_attr_delete_all(&w->attrs, w->handle);
    if (rc != MPI_SUCCESS)
        return axon_mpi_win_error(w, func, rc, "an attribute delete callback returned %d", rc);
    rc = axon_rma_win_free(w->engine, &why);
    if (rc != MPI_SUCCESS)
        return AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
    axon_mpi_win_handle_drop(w);
    axon_mpi_win_destroy(w); /* the hidden communicator goes with it */
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

/* ---- dynamic windows ------------------------------------------------------------------------------ */

AXON_MPI_WEAK(Win_attach)
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    static const char func[] = "MPI_Win_attach";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (w->flavor != AXON_RMA_DYNAMIC)
        return axon_mpi_win_error(w, func, MPI_ERR_RMA_FLAVOR, "memory is attached only to dynamic windows");
    if (size < 0)
        return axon_mpi_win_error(w, func, MPI_ERR_SIZE, "size %lld is negative", (long long)size);
    if (!base && size > 0)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "base is NULL with size %lld", (long long)size);
    const char *why = NULL;
    int rc = axon_rma_win_attach(w->engine, base, size, &why);
    return rc == MPI_SUCCESS ? rc : AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
}

AXON_MPI_WEAK(Win_detach)
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    static const char func[] = "MPI_Win_detach";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (w->flavor != AXON_RMA_DYNAMIC)
        return axon_mpi_win_error(w, func, MPI_ERR_RMA_FLAVOR, "memory is detached only from dynamic windows");
    const char *why = NULL;
    int rc = axon_rma_win_detach(w->engine, base, &why);
    return rc == MPI_SUCCESS ? rc : AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
}

/* ---- shared memory -------------------------------------------------------------------------------- */

/* MPI 4 lets any window be asked; the engine says MPI_ERR_RMA_FLAVOR where rank's memory cannot be reached
 * by loads and stores. */
static int axon_mpi_win_shared_query(const char *func, MPI_Win win, int rank, MPI_Aint *size, int64_t *disp_unit,
                                     void *baseptr)
{
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!size || !disp_unit || !baseptr)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "%s is a NULL pointer",
                                  !size ? "size" : !disp_unit ? "disp_unit" : "baseptr");
    if (rank != MPI_PROC_NULL && (rank < 0 || rank >= w->group->size))
        return axon_mpi_win_error(w, func, MPI_ERR_RANK, "rank %d is not in the window's group (size %d)", rank,
                                  w->group->size);
    int64_t bytes = 0;
    void *base = NULL;
    const char *why = NULL;
    int rc = axon_rma_win_shared_query(w->engine, rank, &bytes, disp_unit, &base, &why);
    if (rc != MPI_SUCCESS)
        return AXON_MPI_WIN_ENGINE_ERROR(w, func, rc, why);
    *size = (MPI_Aint)bytes;
    *(void **)baseptr = base;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    static const char func[] = "MPI_Win_shared_query";
    int64_t unit = 0;
    int rc = axon_mpi_win_shared_query(func, win, rank, size, disp_unit ? &unit : NULL, baseptr);
    if (rc != MPI_SUCCESS)
        return rc;
    if (unit > INT_MAX) /* a _c constructor's unit: only MPI_Win_shared_query_c can say it */
        return axon_mpi_win_error(axon_mpi_win_get(win), func, MPI_ERR_VALUE_TOO_LARGE,
                                  "disp_unit %lld does not fit an int (use MPI_Win_shared_query_c)", (long long)unit);
    *disp_unit = (int)unit;
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_shared_query_c)
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    int64_t unit = 0;
    int rc = axon_mpi_win_shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit ? &unit : NULL, baseptr);
    if (rc == MPI_SUCCESS)
        *disp_unit = (MPI_Aint)unit;
    return rc;
}

/* ---- info ----------------------------------------------------------------------------------------- */

AXON_MPI_WEAK(Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    static const char func[] = "MPI_Win_set_info";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (info == MPI_INFO_NULL || !axon_mpi_info_valid(info))
        return axon_mpi_win_error(w, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));
    /* The engine applies every origin's accumulates in order and never relies on the other hints, so
     * new values of ordering, locks, operations and sizes only say what the program promises: they are
     * taken as given (and MPI_Win_get_info reports them). The layout of shared memory is fixed once made. */
    bool noncontig = w->hints.noncontig;
    axon_mpi_win_hints_parse(info, &w->hints);
    w->hints.noncontig = noncontig;
    MPI_Info copy;
    int rc = axon_mpi_info_dup_handle(info, &copy);
    if (rc != MPI_SUCCESS)
        return axon_mpi_win_error(w, func, rc, "cannot copy the info object");
    MPI_Info old = w->info;
    w->info = copy;
    if (old != MPI_INFO_NULL)
        axon_mpi_info_release(old);
    return MPI_SUCCESS;
}

/* The memory allocation kinds of the window (MPI 4.1 section 12.2.1): of those its info asserts, the
 * supported ones; else its communicator's. */
static int axon_mpi_win_memkinds(struct axon_win *w, char *out, size_t size)
{
    char asserted[MPI_MAX_INFO_VAL];
    if (axon_mpi_win_info_value(w->info, AXON_MPI_MEMKINDS_ASSERT_KEY, asserted, (int)sizeof(asserted)))
        return axon_mpi_memkinds_restrict(asserted, out, size);
    MPI_Info ci;
    int rc = PMPI_Comm_get_info(w->comm->handle, &ci);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!axon_mpi_win_info_value(ci, AXON_MPI_MEMKINDS_KEY, out, (int)size))
        out[0] = '\0';
    PMPI_Info_free(&ci);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    static const char func[] = "MPI_Win_get_info";
    struct axon_win *w;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_WIN_CHECK(func, win, w);
    if (!info_used)
        return axon_mpi_win_error(w, func, MPI_ERR_ARG, "info_used is a NULL pointer");
    /* A new object the caller frees, with the hints in use: the ones the standard defines, with their
     * effective values (the defaults where none was given), and the memory allocation kinds. */
    const struct axon_win_hints *h = &w->hints;
    char granularity[32], kinds[MPI_MAX_INFO_VAL] = "";
    snprintf(granularity, sizeof(granularity), "%lld", (long long)h->accumulate_granularity);
    const char *pairs[][2] = {
        {"no_locks", h->no_locks ? "true" : "false"},
        {"accumulate_ordering", h->accumulate_ordering},
        {"accumulate_ops", h->same_op ? "same_op" : "same_op_no_op"},
        {"same_size", h->same_size ? "true" : "false"},
        {"same_disp_unit", h->same_disp_unit ? "true" : "false"},
        {"mpi_accumulate_granularity", granularity},
        {"alloc_shared_noncontig", h->noncontig ? "true" : "false"},
    };
    size_t n = AXON_ARRAY_SIZE(pairs) - (w->flavor == AXON_RMA_SHARED ? 0 : 1);
    *info_used = MPI_INFO_NULL;
    int rc = PMPI_Info_create(info_used);
    for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = PMPI_Info_set(*info_used, pairs[i][0], pairs[i][1]);
    if (rc == MPI_SUCCESS)
        rc = axon_mpi_win_memkinds(w, kinds, sizeof(kinds));
    if (rc == MPI_SUCCESS && kinds[0])
        rc = PMPI_Info_set(*info_used, AXON_MPI_MEMKINDS_KEY, kinds);
    if (rc != MPI_SUCCESS) {
        if (*info_used != MPI_INFO_NULL)
            PMPI_Info_free(info_used);
        return axon_mpi_win_error(w, func, rc, "cannot make the info object");
    }
    return MPI_SUCCESS;
}
