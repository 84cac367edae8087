/* Attributes on datatypes: copy callbacks at MPI_Type_dup (user, MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN),
 * delete callbacks at MPI_Type_delete_attr, overwrite and MPI_Type_free (also when the last reference
 * is a type built on it), attributes on predefined types, a failing delete callback, and bad keyvals and
 * types under MPI_ERRORS_RETURN. Prints "rank R: ok". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "axon_test.h"

static int class_of(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int copies, deletes, fail_delete;
static MPI_Datatype last_deleted_type;
static intptr_t last_deleted_value;
static int extra_seen;

static int copy_fn(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval;
    extra_seen = *(int *)extra;
    copies++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)keyval, (void)extra;
    if (fail_delete)
        return MPI_ERR_OTHER;
    deletes++;
    last_deleted_type = type;
    last_deleted_value = (intptr_t)value;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank, flag = -1, extra = 42, kv, kv_null, kv_dup;
    void *v = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    EXPECT(MPI_Type_create_keyval(copy_fn, delete_fn, &kv, &extra) == MPI_SUCCESS);
    EXPECT(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kv_null, NULL) == MPI_SUCCESS);
    EXPECT(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv_dup, NULL) == MPI_SUCCESS);

    MPI_Datatype vec, dup;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* uncommitted: attributes are allowed */
    EXPECT(MPI_Type_get_attr(vec, kv, &v, &flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Type_set_attr(vec, kv, (void *)(intptr_t)10) == MPI_SUCCESS);
    EXPECT(MPI_Type_set_attr(vec, kv_null, (void *)(intptr_t)20) == MPI_SUCCESS);
    EXPECT(MPI_Type_set_attr(vec, kv_dup, (void *)(intptr_t)30) == MPI_SUCCESS);
    EXPECT(MPI_Type_get_attr(vec, kv, &v, &flag) == MPI_SUCCESS && flag == 1 && (intptr_t)v == 10);

    /* Dup: the user callback copies value + 1, NULL_COPY_FN copies nothing, DUP_FN the same value. */
    EXPECT(MPI_Type_dup(vec, &dup) == MPI_SUCCESS);
    EXPECT(copies == 1 && extra_seen == 42);
    EXPECT(MPI_Type_get_attr(dup, kv, &v, &flag) == MPI_SUCCESS && flag == 1 && (intptr_t)v == 11);
    EXPECT(MPI_Type_get_attr(dup, kv_null, &v, &flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Type_get_attr(dup, kv_dup, &v, &flag) == MPI_SUCCESS && flag == 1 && (intptr_t)v == 30);

    /* Overwrite deletes the old value; delete_attr deletes; a second delete_attr finds nothing. */
    EXPECT(MPI_Type_set_attr(dup, kv, (void *)(intptr_t)12) == MPI_SUCCESS);
    EXPECT(deletes == 1 && last_deleted_type == dup && last_deleted_value == 11);
    EXPECT(MPI_Type_delete_attr(dup, kv) == MPI_SUCCESS);
    EXPECT(deletes == 2 && last_deleted_value == 12);
    EXPECT(MPI_Type_delete_attr(dup, kv) == MPI_SUCCESS && deletes == 2);
    EXPECT(MPI_Type_get_attr(dup, kv, &v, &flag) == MPI_SUCCESS && flag == 0);

    /* Free: the delete callback runs with the type's handle. A failing one fails MPI_Type_free and
     * leaves the type usable. */
    EXPECT(MPI_Type_set_attr(dup, kv, (void *)(intptr_t)13) == MPI_SUCCESS);
    MPI_Datatype keep = dup;
    fail_delete = 1;
    EXPECT(class_of(MPI_Type_free(&dup)) == MPI_ERR_OTHER);
    EXPECT(dup == keep && MPI_Type_get_attr(dup, kv, &v, &flag) == MPI_SUCCESS && flag == 1);
    fail_delete = 0;
    EXPECT(MPI_Type_free(&dup) == MPI_SUCCESS && dup == MPI_DATATYPE_NULL);
    EXPECT(deletes == 3 && last_deleted_type == keep && last_deleted_value == 13);

    /* A type still named by another: its callbacks run when the last user lets it go. */
    MPI_Datatype outer;
    MPI_Type_contiguous(2, vec, &outer);
    MPI_Datatype vec_handle = vec;
    EXPECT(MPI_Type_free(&vec) == MPI_SUCCESS && deletes == 3);
    EXPECT(MPI_Type_free(&outer) == MPI_SUCCESS);
    EXPECT(deletes == 4 && last_deleted_type == vec_handle && last_deleted_value == 10);

    /* Predefined types carry attributes too, and dup copies them. */
    EXPECT(MPI_Type_set_attr(MPI_DOUBLE, kv, (void *)(intptr_t)50) == MPI_SUCCESS);
    EXPECT(MPI_Type_get_attr(MPI_DOUBLE, kv, &v, &flag) == MPI_SUCCESS && flag == 1 && (intptr_t)v == 50);
    EXPECT(MPI_Type_get_attr(MPI_FLOAT, kv, &v, &flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Type_dup(MPI_DOUBLE, &dup) == MPI_SUCCESS);
    EXPECT(MPI_Type_get_attr(dup, kv, &v, &flag) == MPI_SUCCESS && flag == 1 && (intptr_t)v == 51);
    EXPECT(MPI_Type_free(&dup) == MPI_SUCCESS && deletes == 5 && last_deleted_value == 51);
    EXPECT(MPI_Type_delete_attr(MPI_DOUBLE, kv) == MPI_SUCCESS && deletes == 6 && last_deleted_value == 50);

    /* Bad arguments. */
    int comm_kv;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_kv, NULL);
    EXPECT(class_of(MPI_Type_set_attr(MPI_INT, comm_kv, NULL)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, NULL)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Type_set_attr(MPI_DATATYPE_NULL, kv, NULL)) == MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Type_get_attr((MPI_Datatype)0x8c0fffff, kv, &v, &flag)) == MPI_ERR_TYPE);
    EXPECT(class_of(MPI_Type_get_attr(MPI_INT, kv, &v, NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_delete_attr(MPI_INT, 12345)) == MPI_ERR_KEYVAL);
    EXPECT(class_of(MPI_Type_create_keyval(copy_fn, delete_fn, NULL, NULL)) == MPI_ERR_ARG);
    EXPECT(class_of(MPI_Type_free_keyval(&comm_kv)) == MPI_ERR_KEYVAL);
    EXPECT(MPI_Comm_free_keyval(&comm_kv) == MPI_SUCCESS);

    /* A freed keyval: the attributes that use it live on until deleted, and its handle still names it
     * meanwhile; after the last, the handle is invalid. */
    MPI_Datatype t;
    MPI_Type_contiguous(4, MPI_CHAR, &t);
    EXPECT(MPI_Type_set_attr(t, kv, (void *)(intptr_t)70) == MPI_SUCCESS);
    int kv_saved = kv;
    EXPECT(MPI_Type_free_keyval(&kv) == MPI_SUCCESS && kv == MPI_KEYVAL_INVALID);
    EXPECT(MPI_Type_get_attr(t, kv_saved, &v, &flag) == MPI_SUCCESS && flag && (intptr_t)v == 70);
    EXPECT(MPI_Type_free(&t) == MPI_SUCCESS && deletes == 7 && last_deleted_value == 70);
    EXPECT(class_of(MPI_Type_get_attr(MPI_INT, kv_saved, &v, &flag)) == MPI_ERR_KEYVAL);
    EXPECT(MPI_Type_free_keyval(&kv_null) == MPI_SUCCESS && MPI_Type_free_keyval(&kv_dup) == MPI_SUCCESS);

    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}
