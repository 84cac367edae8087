/* Attribute caching: keyvals with counting copy and delete callbacks (copies at MPI_Comm_dup, deletes at
 * MPI_Comm_free, MPI_Comm_delete_attr and overwrite, newest attribute first), MPI_COMM_NULL_COPY_FN and
 * MPI_COMM_DUP_FN, a freed keyval whose attribute lives on, failing callbacks, the predefined
 * attributes of MPI_COMM_WORLD, error classes, and MPI_COMM_SELF's delete callbacks at the start of
 * MPI_Finalize (newest first, with MPI still usable). Prints "rank R: ok" after MPI_Finalize when
 * everything holds. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "axon_test.h"

static int wrank, wsize;

struct counts {
    int copies, deletes;
    intptr_t last_deleted;
    int fail_copy, fail_delete;
};

/* Copies the value plus one (so the copy is told from the original). */
static int count_copy(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm, (void)keyval;
    struct counts *c = extra;
    if (c->fail_copy)
        return MPI_ERR_OTHER;
    c->copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval;
    struct counts *c = extra;
    if (c->fail_delete)
        return MPI_ERR_OTHER;
    c->deletes++;
    c->last_deleted = (intptr_t)value;
    return MPI_SUCCESS;
}

/* Deletion order: each delete appends its value. */
static intptr_t order[8];
static int norder;
static int log_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    if (norder < 8)
        order[norder++] = (intptr_t)value;
    return MPI_SUCCESS;
}

/* MPI_COMM_SELF's callbacks at MPI_Finalize: MPI must still work. */
static int self_calls, self_rank_rc = -1, self_finalized = -1, self_dup_rc = -1;
static intptr_t self_order[2];
static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval, (void)extra;
    if (self_calls < 2)
        self_order[self_calls] = (intptr_t)value;
    self_calls++;
    int r;
    self_rank_rc = MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Finalized(&self_finalized);
    /* A communicator can still be made and freed (mpi4py's cleanup does such things). */
    MPI_Comm c;
    self_dup_rc = MPI_Comm_dup(comm, &c);
    if (self_dup_rc == MPI_SUCCESS)
        MPI_Comm_free(&c);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int flag, cls, rc;
    void *val;

    /* 1. Predefined attributes: pointers to ints. */
    int *ip = NULL;
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag) == MPI_SUCCESS && flag && *ip == INT_MAX);
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &ip, &flag) == MPI_SUCCESS && flag && *ip == MPI_PROC_NULL);
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &ip, &flag) == MPI_SUCCESS && flag &&
           (*ip == MPI_ANY_SOURCE || *ip == wrank));
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ip, &flag) == MPI_SUCCESS && flag && *ip == 0);
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &ip, &flag) == MPI_SUCCESS && flag && *ip == 0);
    EXPECT(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &ip, &flag) == MPI_SUCCESS &&
           (!flag || *ip >= wsize));

    /* 2. Copy and delete callbacks, counted. */
    struct counts cnt = {0};
    int kv;
    EXPECT(MPI_Comm_create_keyval(count_copy, count_delete, &kv, &cnt) == MPI_SUCCESS);
    MPI_Comm a, b, c;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    EXPECT(MPI_Comm_get_attr(a, kv, &val, &flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)100) == MPI_SUCCESS);
    EXPECT(MPI_Comm_get_attr(a, kv, &val, &flag) == MPI_SUCCESS && flag && (intptr_t)val == 100);
    MPI_Comm_dup(a, &b);
    EXPECT(cnt.copies == 1);
    EXPECT(MPI_Comm_get_attr(b, kv, &val, &flag) == MPI_SUCCESS && flag && (intptr_t)val == 101);
    MPI_Comm_dup(b, &c);
    EXPECT(cnt.copies == 2);
    EXPECT(MPI_Comm_get_attr(c, kv, &val, &flag) == MPI_SUCCESS && flag && (intptr_t)val == 102);
    /* Overwrite: the old value is deleted first. */
    EXPECT(MPI_Comm_set_attr(a, kv, (void *)(intptr_t)200) == MPI_SUCCESS);
    EXPECT(cnt.deletes == 1 && cnt.last_deleted == 100);
    /* Delete: the callback runs, the attribute is gone. */
    EXPECT(MPI_Comm_delete_attr(b, kv) == MPI_SUCCESS);
    EXPECT(cnt.deletes == 2 && cnt.last_deleted == 101);
    EXPECT(MPI_Comm_get_attr(b, kv, &val, &flag) == MPI_SUCCESS && flag == 0);
    /* Free: the delete callback runs with the communicator's value. */
    MPI_Comm_free(&c);
    EXPECT(cnt.deletes == 3 && cnt.last_deleted == 102);
    MPI_Comm_free(&b);
    EXPECT(cnt.deletes == 3); /* b had none left */

    /* 3. A failing copy makes MPI_Comm_dup fail; a failing delete keeps the communicator. */
    cnt.fail_copy = 1;
    rc = MPI_Comm_dup(a, &b);
    MPI_Error_class(rc, &cls);
    EXPECT(rc != MPI_SUCCESS && cls == MPI_ERR_OTHER);
    cnt.fail_copy = 0;
    MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
    cnt.fail_delete = 1;
    rc = MPI_Comm_free(&a);
    EXPECT(rc != MPI_SUCCESS && a != MPI_COMM_NULL);
    cnt.fail_delete = 0;

    /* 4. The freed keyval lives while an attribute uses it, and so does its handle (the standard has a
     * program delete such attributes with MPI_Comm_delete_attr): a copy of the handle still reads the
     * attribute, a new keyval gets another handle, a second free does nothing; its attribute is deleted
     * when a goes, and then the handle is invalid. */
    int kv_saved = kv;
    EXPECT(MPI_Comm_free_keyval(&kv) == MPI_SUCCESS && kv == MPI_KEYVAL_INVALID);
    EXPECT(MPI_Comm_get_attr(a, kv_saved, &val, &flag) == MPI_SUCCESS && flag && (intptr_t)val == 200);
    int kv_other;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv_other, NULL);
    EXPECT(kv_other != kv_saved);
    MPI_Comm_free_keyval(&kv_other);
    int kv_again = kv_saved;
    EXPECT(MPI_Comm_free_keyval(&kv_again) == MPI_SUCCESS);
    int deletes_before = cnt.deletes;
    EXPECT(MPI_Comm_free(&a) == MPI_SUCCESS && a == MPI_COMM_NULL);
    EXPECT(cnt.deletes == deletes_before + 1 && cnt.last_deleted == 200);
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, kv_saved, &val, &flag);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_KEYVAL);
    /* Deleted by its freed handle, an attribute goes at once (on MPI_COMM_WORLD, which is never freed). */
    int kw;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &kw, &cnt);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kw, (void *)(intptr_t)300);
    int kw_saved = kw;
    MPI_Comm_free_keyval(&kw);
    deletes_before = cnt.deletes;
    EXPECT(MPI_Comm_delete_attr(MPI_COMM_WORLD, kw_saved) == MPI_SUCCESS);
    EXPECT(cnt.deletes == deletes_before + 1 && cnt.last_deleted == 300);
    rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, kw_saved);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_KEYVAL);

    /* 5. MPI_COMM_NULL_COPY_FN: not copied; MPI_COMM_DUP_FN: copied as it is. */
    int knull, kdup;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, knull, (void *)(intptr_t)7);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kdup, (void *)(intptr_t)8);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    EXPECT(MPI_Comm_get_attr(a, knull, &val, &flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Comm_get_attr(a, kdup, &val, &flag) == MPI_SUCCESS && flag && (intptr_t)val == 8);
    MPI_Comm_free(&a);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, knull);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, kdup);
    MPI_Comm_free_keyval(&knull);
    MPI_Comm_free_keyval(&kdup);

    /* 6. Deletion at MPI_Comm_free: newest attribute first. */
    int k1, k2, k3;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, log_delete, &k1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, log_delete, &k2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, log_delete, &k3, NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, k2, (void *)(intptr_t)2);
    MPI_Comm_set_attr(a, k1, (void *)(intptr_t)1);
    MPI_Comm_set_attr(a, k3, (void *)(intptr_t)3);
    MPI_Comm_free(&a);
    EXPECT(norder == 3 && order[0] == 3 && order[1] == 1 && order[2] == 2);
    MPI_Comm_free_keyval(&k1);
    MPI_Comm_free_keyval(&k2);
    MPI_Comm_free_keyval(&k3);

    /* 7. Errors. */
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, 0x12345, &val, &flag);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_KEYVAL);
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, (void *)1);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_KEYVAL);
    int tagub = MPI_TAG_UB;
    rc = MPI_Comm_free_keyval(&tagub);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_KEYVAL);
    rc = MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_KEYVAL);
    rc = MPI_Comm_set_attr(MPI_COMM_NULL, MPI_KEYVAL_INVALID, NULL);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_COMM);
    rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL, &flag);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ARG);

    /* 8. MPI_COMM_SELF: deleted at the start of MPI_Finalize, newest first. */
    int ks1, ks2;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &ks1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &ks2, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, ks1, (void *)(intptr_t)1);
    MPI_Comm_set_attr(MPI_COMM_SELF, ks2, (void *)(intptr_t)2);
    MPI_Comm_free_keyval(&ks1); /* the attribute keeps it */

    MPI_Finalize();
    EXPECT(self_calls == 2 && self_order[0] == 2 && self_order[1] == 1);
    EXPECT(self_rank_rc == MPI_SUCCESS && self_finalized == 0 && self_dup_rc == MPI_SUCCESS);
    if (failures == 0)
        printf("rank %d: ok\n", wrank);
    return failures != 0;
}
