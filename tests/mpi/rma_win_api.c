/* Windows at the API, everything that moves no data: the four constructors and their _c twins, their
 * argument errors (raised through the communicator's handler), the predefined attributes, keyvals with
 * delete callbacks (at overwrite, MPI_Win_delete_attr and MPI_Win_free), names, the group, info hints,
 * error handlers (the initial MPI_ERRORS_ARE_FATAL, a user's, MPI_Win_call_errhandler), the argument
 * errors of the operations and synchronizations (raised through the window's handler), and freed
 * handles, which are MPI_ERR_WIN even once their slot serves another window. Prints "rank R: ok" when
 * everything holds. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "axon_test.h"

static int wrank, wsize;

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* ---- a delete callback that counts -------------------------------------------------------------- */

struct counts {
    int deletes;
    intptr_t last;
    MPI_Win last_win;
};

static int count_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)keyval;
    struct counts *c = extra;
    c->deletes++;
    c->last = (intptr_t)value;
    c->last_win = win;
    return MPI_SUCCESS;
}

/* ---- a user error handler ----------------------------------------------------------------------- */

static int handler_calls, handler_code;
static MPI_Win handler_win;

static void win_handler(MPI_Win *win, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_win = *win;
}

/* An operation of the program's own, which accumulates refuse (it is never called). */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

/* ---- checks ------------------------------------------------------------------------------------- */

static void check_info_value(MPI_Info info, const char *key, const char *want)
{
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    CHECK(want ? flag && !strcmp(value, want) : !flag, "info %s: want %s, have %s", key, want ? want : "(none)",
          flag ? value : "(none)");
}

static void check_constructor_errors(void)
{
    /* Through the communicator's handler: mine returns, the world's is fatal meanwhile. */
    MPI_Comm mine;
    EXPECT(MPI_Comm_dup(MPI_COMM_WORLD, &mine) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(mine, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL) == MPI_SUCCESS);
    int cell[4];
    void *base = NULL;
    MPI_Win win = (MPI_Win)1;
    EXPECT(class_of(MPI_Win_create(cell, -1, 1, MPI_INFO_NULL, mine, &win)) == MPI_ERR_SIZE && win == MPI_WIN_NULL);
    EXPECT(class_of(MPI_Win_create(cell, sizeof(cell), 0, MPI_INFO_NULL, mine, &win)) == MPI_ERR_DISP);
    EXPECT(class_of(MPI_Win_create(cell, sizeof(cell), -4, MPI_INFO_NULL, mine, &win)) == MPI_ERR_DISP);
    EXPECT(class_of(MPI_Win_create(NULL, 16, 1, MPI_INFO_NULL, mine, &win)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Win_create(cell, sizeof(cell), 1, (MPI_Info)0x12345, mine, &win)) == MPI_ERR_INFO);
    EXPECT(class_of(MPI_Win_create(cell, sizeof(cell), 1, MPI_INFO_NULL, mine, NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Win_allocate(16, 1, MPI_INFO_NULL, mine, NULL, &win)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Win_allocate(-8, 1, MPI_INFO_NULL, mine, &base, &win)) == MPI_ERR_SIZE);
    EXPECT(class_of(MPI_Win_allocate_shared(8, 0, MPI_INFO_NULL, mine, &base, &win)) == MPI_ERR_DISP);
    EXPECT(class_of(MPI_Win_allocate_c(8, 0, MPI_INFO_NULL, mine, &base, &win)) == MPI_ERR_DISP);
    EXPECT(class_of(MPI_Win_create_c(cell, -2, 4, MPI_INFO_NULL, mine, &win)) == MPI_ERR_SIZE);
    EXPECT(class_of(MPI_Win_create_dynamic((MPI_Info)0x12345, mine, &win)) == MPI_ERR_INFO && win == MPI_WIN_NULL);
    /* A base of NULL is fine when there is no memory. */
    EXPECT(MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, mine, &win) == MPI_SUCCESS && win != MPI_WIN_NULL);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    /* An invalid communicator is an error on no object: the world's handler now returns. */
    EXPECT(class_of(MPI_Win_create(cell, sizeof(cell), 1, MPI_INFO_NULL, MPI_COMM_NULL, &win)) == MPI_ERR_COMM);
    EXPECT(MPI_Comm_free(&mine) == MPI_SUCCESS);
}

static void check_attributes(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
    void *value = NULL;
    int flag = 0;
    EXPECT(MPI_Win_get_attr(win, MPI_WIN_BASE, &value, &flag) == MPI_SUCCESS && flag && value == base);
    MPI_Aint *sizep = NULL;
    EXPECT(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sizep, &flag) == MPI_SUCCESS && flag && *sizep == size);
    int *ip = NULL;
    EXPECT(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &ip, &flag) == MPI_SUCCESS && flag && *ip == disp_unit);
    EXPECT(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &ip, &flag) == MPI_SUCCESS && flag && *ip == flavor);
    EXPECT(MPI_Win_get_attr(win, MPI_WIN_MODEL, &ip, &flag) == MPI_SUCCESS && flag && *ip == MPI_WIN_UNIFIED);
}

static void check_keyvals(MPI_Win win)
{
    struct counts c = {0};
    int key = MPI_KEYVAL_INVALID, flag = 0;
    void *value = NULL;
    EXPECT(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, &c) == MPI_SUCCESS);
    EXPECT(((unsigned)key & 0xffc00000u) == 0xa6000000u); /* MPICH's window keyvals */
    EXPECT(MPI_Win_get_attr(win, key, &value, &flag) == MPI_SUCCESS && !flag);
    EXPECT(MPI_Win_set_attr(win, key, (void *)(intptr_t)7) == MPI_SUCCESS);
    EXPECT(MPI_Win_get_attr(win, key, &value, &flag) == MPI_SUCCESS && flag && value == (void *)(intptr_t)7);
    /* An overwrite deletes the old value. */
    EXPECT(MPI_Win_set_attr(win, key, (void *)(intptr_t)8) == MPI_SUCCESS);
    EXPECT(c.deletes == 1 && c.last == 7 && c.last_win == win);
    EXPECT(MPI_Win_delete_attr(win, key) == MPI_SUCCESS && c.deletes == 2 && c.last == 8);
    EXPECT(MPI_Win_get_attr(win, key, &value, &flag) == MPI_SUCCESS && !flag);
    EXPECT(MPI_Win_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);

    /* The predefined ones can be neither set nor deleted nor freed. */
    int predefined = MPI_WIN_BASE;
    EXPECT(class_of(MPI_Win_set_attr(win, MPI_WIN_SIZE, NULL)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Win_delete_attr(win, MPI_WIN_MODEL)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Win_free_keyval(&predefined)) == MPI_ERR_KEYVAL);
    /* A communicator's keyval is not a window's. */
    int ckey;
    EXPECT(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Win_set_attr(win, ckey, NULL)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Win_get_attr(win, ckey, &value, &flag)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Win_free_keyval(&ckey)) == MPI_ERR_KEYVAL);
    EXPECT(MPI_Comm_free_keyval(&ckey) == MPI_SUCCESS);
}

static void check_names(MPI_Win win)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    EXPECT(MPI_Win_get_name(win, name, &len) == MPI_SUCCESS && len == 0 && name[0] == '\0');
    EXPECT(MPI_Win_set_name(win, "halo") == MPI_SUCCESS);
    EXPECT(MPI_Win_get_name(win, name, &len) == MPI_SUCCESS && len == 4 && !strcmp(name, "halo"));
    char longname[MPI_MAX_OBJECT_NAME + 40];
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    EXPECT(MPI_Win_set_name(win, longname) == MPI_SUCCESS);
    EXPECT(MPI_Win_get_name(win, name, &len) == MPI_SUCCESS && len == MPI_MAX_OBJECT_NAME - 1 &&
           strlen(name) == (size_t)len);
    EXPECT(MPI_Win_get_name(MPI_WIN_NULL, name, &len) == MPI_SUCCESS && !strcmp(name, "MPI_WIN_NULL"));
    EXPECT(class_of(MPI_Win_set_name(win, NULL)) == MPI_ERR_ARG);
    EXPECT(MPI_Win_set_name(win, "halo") == MPI_SUCCESS);
}

static void check_group(MPI_Win win, MPI_Comm comm)
{
    MPI_Group wg = MPI_GROUP_NULL, cg;
    int result = -1;
    EXPECT(MPI_Win_get_group(win, &wg) == MPI_SUCCESS && wg != MPI_GROUP_NULL);
    MPI_Comm_group(comm, &cg);
    EXPECT(MPI_Group_compare(wg, cg, &result) == MPI_SUCCESS && result == MPI_IDENT);
    EXPECT(MPI_Group_free(&wg) == MPI_SUCCESS);
    MPI_Group_free(&cg);
}

static void check_info(void)
{
    MPI_Win win;
    MPI_Info info, used;
    int cell;
    EXPECT(MPI_Win_create(&cell, sizeof(cell), sizeof(cell), MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS);
    EXPECT(MPI_Win_get_info(win, &used) == MPI_SUCCESS);
    check_info_value(used, "no_locks", "false");
    check_info_value(used, "accumulate_ordering", "rar,raw,war,waw");
    check_info_value(used, "accumulate_ops", "same_op_no_op");
    check_info_value(used, "same_size", "false");
    check_info_value(used, "same_disp_unit", "false");
    check_info_value(used, "alloc_shared_noncontig", NULL);
    MPI_Info_free(&used);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    EXPECT(class_of(MPI_Win_set_info(win, MPI_INFO_NULL)) == MPI_ERR_INFO);
    EXPECT(class_of(MPI_Win_get_info(win, NULL)) == MPI_ERR_ARG);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mine", "kept");
    EXPECT(MPI_Win_set_info(win, info) == MPI_SUCCESS);
    MPI_Info_free(&info);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);

    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "accumulate_ordering", "waw, rar");
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Info_set(info, "same_size", "true");
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Info_set(info, "mpi_accumulate_granularity", "64");
    void *base;
    EXPECT(MPI_Win_allocate_shared(16, 1, info, MPI_COMM_SELF, &base, &win) == MPI_SUCCESS);
    EXPECT(MPI_Win_get_info(win, &used) == MPI_SUCCESS);
    check_info_value(used, "no_locks", "true");
    check_info_value(used, "accumulate_ordering", "rar,waw");
    check_info_value(used, "accumulate_ops", "same_op");
    check_info_value(used, "same_size", "true");
    check_info_value(used, "alloc_shared_noncontig", "true");
    check_info_value(used, "mpi_accumulate_granularity", "64");
    MPI_Info_free(&used);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "no_locks", "maybe"); /* not a value: the default stays */
    EXPECT(MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &win) == MPI_SUCCESS);
    EXPECT(MPI_Win_get_info(win, &used) == MPI_SUCCESS);
    check_info_value(used, "accumulate_ordering", "none");
    check_info_value(used, "no_locks", "false");
    MPI_Info_free(&used);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);
    MPI_Info_free(&info);
}

static void check_errhandlers(MPI_Win win)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    EXPECT(MPI_Win_get_errhandler(win, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    EXPECT(MPI_Win_create_errhandler(win_handler, &eh) == MPI_SUCCESS);
    EXPECT(MPI_Win_set_errhandler(win, eh) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_free(&eh) == MPI_SUCCESS); /* the window keeps its own reference */
    int cell = 0;
    int rc = MPI_Put(&cell, -1, MPI_INT, 0, 0, 1, MPI_INT, win);
    EXPECT(rc == MPI_ERR_COUNT && handler_calls == 1 && handler_code == MPI_ERR_COUNT && handler_win == win);
    EXPECT(MPI_Win_call_errhandler(win, MPI_ERR_OTHER) == MPI_SUCCESS);
    EXPECT(handler_calls == 2 && handler_code == MPI_ERR_OTHER && handler_win == win);
    MPI_Errhandler got;
    EXPECT(MPI_Win_get_errhandler(win, &got) == MPI_SUCCESS && got != MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&got);
    EXPECT(class_of(MPI_Win_set_errhandler(win, (MPI_Errhandler)0x1234)) == MPI_ERR_ERRHANDLER);
    EXPECT(handler_calls == 3);
    EXPECT(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN) == MPI_SUCCESS);
}

/* The operations' and synchronizations' argument errors, through the window's MPI_ERRORS_RETURN. */
static void check_operation_errors(MPI_Win win, int size)
{
    int buf[4] = {0}, res[4] = {0}, cmp = 0;
    double d = 0;
    int peer = (wrank + 1) % size;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Op mine;
    MPI_Op_create(user_sum, 1, &mine);

    EXPECT(MPI_Win_fence(0, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Put(buf, -1, MPI_INT, peer, 0, 1, MPI_INT, win)) == MPI_ERR_COUNT);
    EXPECT(class_of(MPI_Put(buf, 1, MPI_INT, peer, 0, -1, MPI_INT, win)) == MPI_ERR_COUNT);
    EXPECT(class_of(MPI_Put(buf, 1, MPI_DATATYPE_NULL, peer, 0, 1, MPI_INT, win)) == MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Get(buf, 1, MPI_INT, peer, 0, 1, vec, win)) == MPI_ERR_TYPE); /* not committed */
    EXPECT(class_of(MPI_Put(buf, 1, MPI_INT, size, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Put(buf, 1, MPI_INT, -5, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Put(buf, 1, MPI_INT, peer, -1, 1, MPI_INT, win)) == MPI_ERR_DISP);
    EXPECT(class_of(MPI_Put(buf, 2, MPI_INT, peer, 0, 1, MPI_INT, win)) == MPI_ERR_TRUNCATE);
    EXPECT(class_of(MPI_Get(buf, 1, MPI_INT, peer, 0, 2, MPI_INT, win)) == MPI_ERR_TRUNCATE);
    EXPECT(MPI_Put(buf, 1, MPI_INT, peer, 0, 2, MPI_INT, win) == MPI_SUCCESS); /* less than the target holds */
    EXPECT(MPI_Put(buf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    EXPECT(MPI_Get_c(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Put_c(buf, -1, MPI_INT, peer, 0, 1, MPI_INT, win)) == MPI_ERR_COUNT);

    EXPECT(class_of(MPI_Accumulate(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_OP_NULL, win)) == MPI_ERR_OP);
    EXPECT(class_of(MPI_Accumulate(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, mine, win)) == MPI_ERR_OP);
    EXPECT(class_of(MPI_Accumulate(buf, 1, MPI_BYTE, peer, 0, 1, MPI_BYTE, MPI_SUM, win)) == MPI_ERR_OP);
    EXPECT(class_of(MPI_Accumulate(&d, 1, MPI_DOUBLE, peer, 0, 1, MPI_INT, MPI_SUM, win)) == MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Accumulate(buf, 2, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, win)) == MPI_ERR_TRUNCATE);
    EXPECT(MPI_Accumulate(buf, 1, MPI_BYTE, peer, 0, 1, MPI_BYTE, MPI_REPLACE, win) == MPI_SUCCESS);
    EXPECT(MPI_Accumulate(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, win) == MPI_SUCCESS);
    EXPECT(MPI_Accumulate(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_NO_OP, win) == MPI_SUCCESS);
    EXPECT(MPI_Accumulate_c(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_MAX, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Get_accumulate(buf, 1, MPI_INT, &d, 1, MPI_DOUBLE, peer, 0, 1, MPI_INT, MPI_SUM, win)) ==
           MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Get_accumulate(buf, 1, MPI_INT, res, 0, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, win)) ==
           MPI_ERR_TRUNCATE);
    /* MPI_NO_OP ignores the origin's arguments entirely. */
    EXPECT(MPI_Get_accumulate(NULL, -1, MPI_DATATYPE_NULL, res, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_NO_OP, win) ==
           MPI_SUCCESS);
    EXPECT(MPI_Fetch_and_op(buf, res, MPI_INT, peer, 0, MPI_SUM, win) == MPI_SUCCESS);
    EXPECT(MPI_Fetch_and_op(NULL, res, MPI_INT, peer, 0, MPI_NO_OP, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Fetch_and_op(buf, res, MPI_INT, peer, 0, MPI_OP_NULL, win)) == MPI_ERR_OP);
    MPI_Type_commit(&vec);
    EXPECT(class_of(MPI_Fetch_and_op(buf, res, vec, peer, 0, MPI_SUM, win)) == MPI_ERR_TYPE);
    EXPECT(MPI_Accumulate(buf, 2, MPI_INT, peer, 0, 1, vec, MPI_SUM, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Compare_and_swap(buf, &cmp, res, MPI_DOUBLE, peer, 0, win)) == MPI_ERR_TYPE);
    /* MPI_CHAR too, as MPICH and Open MPI take it (OSU's osu_cas_latency swaps MPI_CHAR). */
    char cnew = 'a', ccmp = 0, cold;
    EXPECT(MPI_Compare_and_swap(&cnew, &ccmp, &cold, MPI_CHAR, peer, 0, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Compare_and_swap(buf, &cmp, res, vec, peer, 0, win)) == MPI_ERR_TYPE);
    EXPECT(MPI_Compare_and_swap(buf, &cmp, res, MPI_INT, peer, 0, win) == MPI_SUCCESS);
    EXPECT(MPI_Compare_and_swap(buf, &cmp, res, MPI_C_BOOL, peer, 0, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Compare_and_swap(buf, &cmp, res, MPI_INT, size, 0, win)) == MPI_ERR_RANK);

    MPI_Request req = (MPI_Request)1;
    EXPECT(MPI_Rput(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, win, &req) == MPI_SUCCESS && req != MPI_REQUEST_NULL);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
    EXPECT(MPI_Rget(buf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win, &req) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Rput(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, win, NULL)) == MPI_ERR_ARG);
    req = (MPI_Request)1;
    EXPECT(class_of(MPI_Raccumulate(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, mine, win, &req)) == MPI_ERR_OP &&
           req == MPI_REQUEST_NULL);
    EXPECT(MPI_Rget_accumulate_c(buf, 1, MPI_INT, res, 1, MPI_INT, peer, 0, 1, MPI_INT, MPI_SUM, win, &req) ==
           MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);

    /* Synchronization. */
    EXPECT(class_of(MPI_Win_fence(MPI_MODE_NOCHECK, win)) == MPI_ERR_ASSERT);
    EXPECT(class_of(MPI_Win_fence(1 << 20, win)) == MPI_ERR_ASSERT);
    EXPECT(MPI_Win_fence(MPI_MODE_NOSUCCEED | MPI_MODE_NOPUT, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Win_lock(0, peer, 0, win)) == MPI_ERR_LOCKTYPE);
    EXPECT(class_of(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Win_lock(MPI_LOCK_SHARED, peer, MPI_MODE_NOPUT, win)) == MPI_ERR_ASSERT);
    EXPECT(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_unlock(MPI_PROC_NULL, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, MPI_MODE_NOCHECK, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Win_flush(size, win)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Win_flush_local(-7, win)) == MPI_ERR_RANK);
    EXPECT(MPI_Win_flush(MPI_PROC_NULL, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_flush(peer, win) == MPI_SUCCESS && MPI_Win_flush_local(peer, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_unlock(peer, win) == MPI_SUCCESS);
    /* A lock ends a fence epoch: after the unlock an operation needs a new epoch (MPICH's
     * errors/rma/win_sync_lock_fence). */
    EXPECT(MPI_Win_fence(0, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, MPI_MODE_NOCHECK, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_unlock(peer, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Put(buf, 1, MPI_INT, peer, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_fence(MPI_MODE_NOSUCCEED, win) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Win_unlock(size, win)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Win_lock_all(MPI_MODE_NOSTORE, win)) == MPI_ERR_ASSERT);
    EXPECT(MPI_Win_lock_all(0, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_flush_all(win) == MPI_SUCCESS && MPI_Win_flush_local_all(win) == MPI_SUCCESS);
    EXPECT(MPI_Win_sync(win) == MPI_SUCCESS);
    EXPECT(MPI_Win_unlock_all(win) == MPI_SUCCESS);

    MPI_Group wg, self;
    MPI_Win_get_group(win, &wg);
    EXPECT(class_of(MPI_Win_post(MPI_GROUP_NULL, 0, win)) == MPI_ERR_GROUP);
    EXPECT(class_of(MPI_Win_start(wg, MPI_MODE_NOSTORE, win)) == MPI_ERR_ASSERT);
    EXPECT(class_of(MPI_Win_post(wg, MPI_MODE_NOSUCCEED, win)) == MPI_ERR_ASSERT);
    EXPECT(MPI_Win_post(wg, MPI_MODE_NOCHECK | MPI_MODE_NOPUT, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_start(wg, MPI_MODE_NOCHECK, win) == MPI_SUCCESS);
    /* No passive-target epoch inside an access epoch (MPICH's errors/rma/win_sync_lock_at). */
    EXPECT(class_of(MPI_Win_lock(MPI_LOCK_SHARED, peer, MPI_MODE_NOCHECK, win)) == MPI_ERR_RMA_SYNC);
    EXPECT(class_of(MPI_Win_lock_all(MPI_MODE_NOCHECK, win)) == MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_complete(win) == MPI_SUCCESS);
    int flag = 0;
    EXPECT(class_of(MPI_Win_test(win, NULL)) == MPI_ERR_ARG);
    /* Every member's MPI_Win_complete ends the exposure epoch: the others' may still be on the way. */
    int rc = MPI_SUCCESS;
    while (!flag && rc == MPI_SUCCESS)
        rc = MPI_Win_test(win, &flag);
    EXPECT(rc == MPI_SUCCESS && flag);
    MPI_Group_free(&wg);
    /* A window over MPI_COMM_SELF: other ranks of the world are not in its group. */
    MPI_Win selfwin;
    EXPECT(MPI_Win_create(buf, sizeof(buf), 1, MPI_INFO_NULL, MPI_COMM_SELF, &selfwin) == MPI_SUCCESS);
    MPI_Win_set_errhandler(selfwin, MPI_ERRORS_RETURN);
    MPI_Comm_group(MPI_COMM_WORLD, &self);
    EXPECT(class_of(MPI_Win_start(self, MPI_MODE_NOCHECK, selfwin)) == (wsize > 1 ? MPI_ERR_GROUP : MPI_SUCCESS));
    if (wsize == 1)
        MPI_Win_complete(selfwin);
    MPI_Group_free(&self);
    EXPECT(class_of(MPI_Put(buf, 1, MPI_INT, 1, 0, 1, MPI_INT, selfwin)) == MPI_ERR_RANK);
    EXPECT(MPI_Win_free(&selfwin) == MPI_SUCCESS);

    MPI_Type_free(&vec);
    MPI_Op_free(&mine);
}

static void check_flavors(void)
{
    MPI_Win win;
    void *base = NULL;
    EXPECT(MPI_Win_allocate(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win) == MPI_SUCCESS && base);
    check_attributes(win, base, 64, 8, MPI_WIN_FLAVOR_ALLOCATE);
    EXPECT(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    EXPECT(class_of(MPI_Win_attach(win, base, 8)) == MPI_ERR_RMA_FLAVOR);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);

    EXPECT(MPI_Win_allocate_shared(32, 4, MPI_INFO_NULL, MPI_COMM_SELF, &base, &win) == MPI_SUCCESS && base);
    check_attributes(win, base, 32, 4, MPI_WIN_FLAVOR_SHARED);
    MPI_Aint size = -1;
    int unit = -1;
    void *peer_base = NULL;
    EXPECT(MPI_Win_shared_query(win, 0, &size, &unit, &peer_base) == MPI_SUCCESS && size == 32 && unit == 4 &&
           peer_base == base);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    EXPECT(class_of(MPI_Win_shared_query(win, 1, &size, &unit, &peer_base)) == MPI_ERR_RANK);
    EXPECT(class_of(MPI_Win_shared_query(win, 0, NULL, &unit, &peer_base)) == MPI_ERR_ARG);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);

    /* A unit larger than an int: the _c query says it, the int attribute cannot. */
    MPI_Aint big = (MPI_Aint)INT_MAX + 8;
    EXPECT(MPI_Win_allocate_shared_c(16, big, MPI_INFO_NULL, MPI_COMM_SELF, &base, &win) == MPI_SUCCESS);
    MPI_Aint bigunit = 0;
    EXPECT(MPI_Win_shared_query_c(win, MPI_PROC_NULL, &size, &bigunit, &peer_base) == MPI_SUCCESS && bigunit == big);
    int *ip = NULL, flag = 0;
    EXPECT(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &ip, &flag) == MPI_SUCCESS && flag && *ip == MPI_UNDEFINED);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    EXPECT(class_of(MPI_Win_shared_query(win, 0, &size, &unit, &peer_base)) == MPI_ERR_VALUE_TOO_LARGE);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);

    EXPECT(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS);
    check_attributes(win, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    char region[64];
    EXPECT(class_of(MPI_Win_attach(win, region, -1)) == MPI_ERR_SIZE);
    EXPECT(MPI_Win_attach(win, region, sizeof(region)) == MPI_SUCCESS);
    /* In a dynamic window a displacement is an address: no sign to check. */
    EXPECT(MPI_Win_fence(0, win) == MPI_SUCCESS);
    EXPECT(MPI_Put(region, 1, MPI_CHAR, MPI_PROC_NULL, -1, 1, MPI_CHAR, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_fence(0, win) == MPI_SUCCESS);
    EXPECT(MPI_Win_detach(win, region) == MPI_SUCCESS);
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    check_constructor_errors();

    int cells[8];
    MPI_Win win = MPI_WIN_NULL;
    EXPECT(MPI_Win_create(cells, sizeof(cells), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS);
    EXPECT(((unsigned)win & 0xfc000000u) == 0xa0000000u); /* MPICH's direct window handles */
    check_attributes(win, cells, sizeof(cells), sizeof(int), MPI_WIN_FLAVOR_CREATE);
    check_errhandlers(win);
    check_keyvals(win);
    check_names(win);
    check_group(win, MPI_COMM_WORLD);
    check_operation_errors(win, wsize);

    /* MPI_Win_free runs the delete callbacks first, with the window still whole. */
    struct counts c = {0};
    int key;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, &c);
    MPI_Win_set_attr(win, key, (void *)(intptr_t)42);
    MPI_Win old = win;
    EXPECT(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
    EXPECT(c.deletes == 1 && c.last == 42 && c.last_win == old);
    MPI_Win_free_keyval(&key);

    /* A freed handle is MPI_ERR_WIN (an error on no object: the world's handler returns), even once its
     * slot holds the next window. */
    int flag;
    void *value;
    EXPECT(class_of(MPI_Win_get_attr(old, MPI_WIN_BASE, &value, &flag)) == MPI_ERR_WIN);
    MPI_Win next;
    EXPECT(MPI_Win_create(cells, sizeof(cells), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &next) == MPI_SUCCESS);
    EXPECT(next != old);
    EXPECT(class_of(MPI_Win_fence(0, old)) == MPI_ERR_WIN);
    EXPECT(class_of(MPI_Win_free(&old)) == MPI_ERR_WIN);
    EXPECT(MPI_Win_free(&next) == MPI_SUCCESS);
    MPI_Win null = MPI_WIN_NULL;
    EXPECT(class_of(MPI_Win_free(&null)) == MPI_ERR_WIN);
    EXPECT(class_of(MPI_Win_free(NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Accumulate(NULL, 0, MPI_INT, 0, 0, 0, MPI_INT, MPI_SUM, MPI_WIN_NULL)) == MPI_ERR_WIN);
    EXPECT(class_of(MPI_Win_lock_all(0, (MPI_Win)MPI_COMM_WORLD)) == MPI_ERR_WIN);

    check_info();
    check_flavors();

    /* A window left for MPI_Finalize to drop. */
    EXPECT(MPI_Win_create(cells, sizeof(cells), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS);

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    printf("rank %d: %s\n", wrank, failures ? "FAILED" : "ok");
    return all ? 1 : 0;
}
