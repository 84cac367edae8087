/* What a window tells about itself, on every flavour (create, allocate, allocate_shared when the job is
 * on one node, dynamic), with sizes and disp_units that differ between ranks: the predefined attributes
 * MPI_WIN_BASE (the memory given or allocated; MPI_BOTTOM for dynamic windows), MPI_WIN_SIZE (0 for
 * dynamic windows), MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL (separate or unified);
 * MPI_Win_get_group against the communicator's group (made on a communicator whose order is the reverse
 * of MPI_COMM_WORLD's, so the group must follow the communicator, not the world); names (empty at first,
 * then as set; see strict below); keyvals with copy and delete callbacks (the delete callback runs at MPI_Win_delete_attr,
 * when a value is replaced, and at MPI_Win_free, with the value it was given and the extra state, and the
 * copy callback never, as windows are not duplicated); MPI_Win_get_info after MPI_Win_create with hints,
 * and MPI_Win_set_info. Prints "rank R: ok". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axon_test.h"

static int rank, size;
/* AXON_TEST_STRICT=1 (set by the .test): where Open MPI 4.1 parts from the standard, ask for the
 * standard: a new window's name is empty (Open MPI names it "rdma window N"), and a hint changed by
 * MPI_Win_set_info is reported by MPI_Win_get_info (Open MPI reports the creation's hints only). */
static int strict;

static int deletes, copies;
static intptr_t last_deleted;
static int extra_seen_ok = 1;
static int extra_state = 77;

static int copy_fn(MPI_Win win, int key, void *extra, void *in, void *out, int *flag)
{
    (void)win, (void)key, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Win win, int key, void *value, void *extra)
{
    (void)win, (void)key;
    deletes++;
    last_deleted = (intptr_t)value;
    extra_seen_ok &= extra == &extra_state;
    return MPI_SUCCESS;
}

static void check_attrs(MPI_Win win, int flavour, void *want_base, MPI_Aint want_size, int want_du,
                        const char *what)
{
    void *base = NULL;
    MPI_Aint *sz = NULL;
    int *du = NULL, *fl = NULL, *model = NULL, f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &f1);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &f2);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &f3);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &f4);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &f5);
    CHECK(f1 && f2 && f3 && f4 && f5, "%s: a predefined attribute is missing (%d %d %d %d %d)", what, f1, f2, f3, f4, f5);
    if (!(f1 && f2 && f3 && f4 && f5))
        return;
    CHECK(base == want_base, "%s: MPI_WIN_BASE %p, expected %p", what, base, want_base);
    CHECK(*sz == want_size, "%s: MPI_WIN_SIZE %ld, expected %ld", what, (long)*sz, (long)want_size);
    CHECK(*du == want_du, "%s: MPI_WIN_DISP_UNIT %d, expected %d", what, *du, want_du);
    CHECK(*fl == flavour, "%s: MPI_WIN_CREATE_FLAVOR %d, expected %d", what, *fl, flavour);
    CHECK(*model == MPI_WIN_SEPARATE || *model == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL %d", what, *model);
}

/* The window's group is the communicator's: identical to it, and only similar to MPI_COMM_WORLD's (the
 * communicator reverses the order) when there are two ranks or more. */
static void check_group(MPI_Win win, MPI_Comm comm, const char *what)
{
    MPI_Group wg, cg, world;
    int res1 = -1, res2 = -1;
    MPI_Win_get_group(win, &wg);
    MPI_Comm_group(comm, &cg);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_compare(wg, cg, &res1);
    MPI_Group_compare(wg, world, &res2);
    CHECK(res1 == MPI_IDENT, "%s: the window's group compares %d with the communicator's, not MPI_IDENT", what, res1);
    CHECK(res2 == (size > 1 ? MPI_SIMILAR : MPI_IDENT), "%s: the window's group compares %d with the world's", what, res2);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    MPI_Group_free(&world);
}

static void check_names(MPI_Win win, const char *what)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Win_get_name(win, name, &len);
    CHECK(!strict || (len == 0 && name[0] == '\0'), "%s: a new window's name is \"%s\" (%d), not empty", what, name, len);
    MPI_Win_set_name(win, "rma_attr window");
    MPI_Win_get_name(win, name, &len);
    CHECK(len == 15 && strcmp(name, "rma_attr window") == 0, "%s: name \"%s\" (%d) after set", what, name, len);
}

/* Sets attributes of two keyvals; deleting, replacing and (at the caller's MPI_Win_free) freeing call the
 * delete callback. */
static void set_keyvals(MPI_Win win, int key, int key_null, const char *what)
{
    void *v = NULL;
    int flag = 0;
    deletes = copies = 0;
    MPI_Win_get_attr(win, key, &v, &flag);
    CHECK(!flag, "%s: an attribute never set is found", what);
    MPI_Win_set_attr(win, key, (void *)(intptr_t)101);
    MPI_Win_get_attr(win, key, &v, &flag);
    CHECK(flag && (intptr_t)v == 101, "%s: attribute 101 reads back as %ld (flag %d)", what, (long)(intptr_t)v, flag);
    MPI_Win_set_attr(win, key, (void *)(intptr_t)102);
    CHECK(deletes == 1 && last_deleted == 101, "%s: replacing 101 called delete %d times, last with %ld", what, deletes,
          (long)last_deleted);
    MPI_Win_delete_attr(win, key);
    CHECK(deletes == 2 && last_deleted == 102, "%s: delete_attr called delete %d times, last with %ld", what, deletes,
          (long)last_deleted);
    MPI_Win_get_attr(win, key, &v, &flag);
    CHECK(!flag, "%s: a deleted attribute is found", what);
    /* Left set for MPI_Win_free to delete: 103, and one of a keyval with the null callbacks. */
    MPI_Win_set_attr(win, key, (void *)(intptr_t)103);
    MPI_Win_set_attr(win, key_null, (void *)(intptr_t)5);
    MPI_Win_get_attr(win, key_null, &v, &flag);
    CHECK(flag && (intptr_t)v == 5, "%s: the null-callback keyval's attribute reads %ld", what, (long)(intptr_t)v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *env = getenv("AXON_TEST_STRICT");
    strict = env && strcmp(env, "1") == 0;
    int one_node = axon_test_one_node();
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comm); /* the reverse order */
    int key, key_null;
    MPI_Win_create_keyval(copy_fn, delete_fn, &key, &extra_state);
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key_null, NULL);

    /* Sizes and disp_units differ between ranks: 24 * (rank + 1) bytes, disp_unit 1, 4 or 8. */
    MPI_Aint bytes = 24 * (MPI_Aint)(rank + 1);
    int du = rank % 3 == 0 ? 1 : rank % 3 == 1 ? 4 : 8;
    const int flavours[] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE, MPI_WIN_FLAVOR_SHARED, MPI_WIN_FLAVOR_DYNAMIC};
    const char *names[] = {"create", "allocate", "allocate_shared", "dynamic"};
    for (int i = 0; i < 4; i++) {
        if (flavours[i] == MPI_WIN_FLAVOR_SHARED && !one_node)
            continue; /* the same on every rank */
        MPI_Win win;
        void *base = NULL, *own = NULL;
        switch (flavours[i]) {
        case MPI_WIN_FLAVOR_CREATE:
            base = own = malloc((size_t)bytes);
            MPI_Win_create(base, bytes, du, MPI_INFO_NULL, comm, &win);
            break;
        case MPI_WIN_FLAVOR_ALLOCATE:
            /* Whole pages: MPICH 4.0.2's MPI_Win_allocate of 24 or 48 bytes gives a baseptr 8 bytes past
             * its own MPI_WIN_BASE (the misplaced accesses of rma_requests.c). */
            MPI_Win_allocate(4096 * (rank + 1), du, MPI_INFO_NULL, comm, &base, &win);
            break;
        case MPI_WIN_FLAVOR_SHARED:
            MPI_Win_allocate_shared(bytes, du, MPI_INFO_NULL, comm, &base, &win);
            break;
        default:
            MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win);
            base = MPI_BOTTOM;
            break;
        }
        check_attrs(win, flavours[i], base,
                    flavours[i] == MPI_WIN_FLAVOR_DYNAMIC ? 0 : flavours[i] == MPI_WIN_FLAVOR_ALLOCATE ? 4096 * (rank + 1) : bytes,
                    flavours[i] == MPI_WIN_FLAVOR_DYNAMIC ? 1 : du, names[i]);
        check_group(win, comm, names[i]);
        check_names(win, names[i]);
        set_keyvals(win, key, key_null, names[i]);
        /* Refused inside an epoch (MPI_ERR_RMA_SYNC), it keeps the window whole: its attributes too. */
        if (strict) {
            MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
            MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
            MPI_Win held = win;
            int rc = MPI_Win_free(&held), cls = -1;
            MPI_Error_class(rc, &cls);
            void *v = NULL;
            int flag = 0;
            MPI_Win_get_attr(win, key, &v, &flag);
            CHECK(cls == MPI_ERR_RMA_SYNC && held == win && deletes == 2 && flag && (intptr_t)v == 103,
                  "%s: MPI_Win_free inside a lock epoch: class %d, %d deletes, attribute %s", names[i], cls, deletes,
                  flag ? "kept" : "gone");
            MPI_Win_unlock(rank, win);
        }
        MPI_Win_free(&win);
        CHECK(deletes == 3 && last_deleted == 103, "%s: MPI_Win_free called delete %d times (expected 3 in all), last with %ld",
              names[i], deletes, (long)last_deleted);
        CHECK(copies == 0, "%s: the copy callback ran %d times", names[i], copies);
        free(own);
    }
    CHECK(extra_seen_ok, "the delete callback was not given the keyval's extra state");
    MPI_Win_free_keyval(&key);
    MPI_Win_free_keyval(&key_null);
    EXPECT(key == MPI_KEYVAL_INVALID && key_null == MPI_KEYVAL_INVALID);

    /* Hints at creation, as MPI_Win_get_info reports them: both keys MPICH and Open MPI keep and report
     * (an implementation may drop a hint it ignores, but these two it must know: they change its
     * obligations). */
    MPI_Info info, got;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "accumulate_ordering", "none");
    int mem[4];
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof(int), info, MPI_COMM_WORLD, &win);
    MPI_Info_free(&info);
    MPI_Win_get_info(win, &got);
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(got, "no_locks", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "true") == 0, "MPI_Win_get_info: no_locks %s", flag ? value : "absent");
    MPI_Info_get(got, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(flag && strcmp(value, "none") == 0, "MPI_Win_get_info: accumulate_ordering %s", flag ? value : "absent");
    MPI_Info_free(&got);
    /* MPI_Win_set_info (collective): the new ordering is reported. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "rar,raw");
    MPI_Win_set_info(win, info);
    MPI_Info_free(&info);
    MPI_Win_get_info(win, &got);
    MPI_Info_get(got, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag);
    CHECK(!strict || (flag && strcmp(value, "rar,raw") == 0), "MPI_Win_get_info after set_info: accumulate_ordering %s",
          flag ? value : "absent");
    MPI_Info_free(&got);
    MPI_Win_free(&win);

    MPI_Comm_free(&comm);
    if (failures == 0)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return failures ? 1 : 0;
}
