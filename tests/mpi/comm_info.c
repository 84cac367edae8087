/* Info objects: set, get (flag 0 for a missing key, values cut to valuelen), get_valuelen, nkeys and
 * nthkey in the order keys were set, overwrite, delete, dup (a deep copy), free, MPI_INFO_ENV, the
 * key and value limits, MPI_Info_get_string, communicators' hints (MPI_Comm_set_info, _get_info,
 * _dup_with_info, _idup_with_info), and error classes under MPI_ERRORS_RETURN. Prints "rank R: ok" when
 * everything holds. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "axon_test.h"

static int wrank;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag, n, len, cls, rc;

    MPI_Info info, copy;
    EXPECT(MPI_Info_create(&info) == MPI_SUCCESS);
    EXPECT(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 0);
    EXPECT(MPI_Info_set(info, "alpha", "1") == MPI_SUCCESS);
    EXPECT(MPI_Info_set(info, "beta", "two") == MPI_SUCCESS);
    EXPECT(MPI_Info_set(info, "gamma", "three three") == MPI_SUCCESS);
    EXPECT(MPI_Info_set(info, "alpha", "uno") == MPI_SUCCESS); /* overwrite keeps its place */
    MPI_Info_get_nkeys(info, &n);
    EXPECT(n == 3);
    const char *order[] = {"alpha", "beta", "gamma"};
    for (int i = 0; i < 3; i++) {
        EXPECT(MPI_Info_get_nthkey(info, i, key) == MPI_SUCCESS && strcmp(key, order[i]) == 0);
    }
    EXPECT(MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "uno") == 0);
    EXPECT(MPI_Info_get(info, "delta", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Info_get(info, "gamma", 5, value, &flag) == MPI_SUCCESS && flag && strcmp(value, "three") == 0);
    EXPECT(MPI_Info_get_valuelen(info, "gamma", &len, &flag) == MPI_SUCCESS && flag && len == 11);
    EXPECT(MPI_Info_get_valuelen(info, "delta", &len, &flag) == MPI_SUCCESS && flag == 0);
    /* Blanks around a key are not part of it. */
    EXPECT(MPI_Info_get(info, "  beta ", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "two") == 0);

    /* Dup is deep: changes to either leave the other alone. */
    EXPECT(MPI_Info_dup(info, &copy) == MPI_SUCCESS);
    EXPECT(MPI_Info_delete(info, "beta") == MPI_SUCCESS);
    MPI_Info_get_nkeys(info, &n);
    EXPECT(n == 2);
    MPI_Info_get_nthkey(info, 1, key);
    EXPECT(strcmp(key, "gamma") == 0);
    MPI_Info_get_nkeys(copy, &n);
    EXPECT(n == 3);
    EXPECT(MPI_Info_get(copy, "beta", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "two") == 0);
    MPI_Info_set(copy, "alpha", "changed");
    MPI_Info_get(info, "alpha", MPI_MAX_INFO_VAL, value, &flag);
    EXPECT(strcmp(value, "uno") == 0);

    /* Limits: a key of MPI_MAX_INFO_KEY characters is fine, one more is not; likewise values. */
    char longkey[MPI_MAX_INFO_KEY + 2];
    memset(longkey, 'k', sizeof(longkey));
    longkey[MPI_MAX_INFO_KEY] = '\0';
    EXPECT(MPI_Info_set(info, longkey, "v") == MPI_SUCCESS);
    longkey[MPI_MAX_INFO_KEY] = 'k';
    longkey[MPI_MAX_INFO_KEY + 1] = '\0';
    rc = MPI_Info_set(info, longkey, "v");
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO_KEY);
    rc = MPI_Info_set(info, "", "v");
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO_KEY);
    static char longval[MPI_MAX_INFO_VAL + 2];
    memset(longval, 'v', sizeof(longval));
    longval[MPI_MAX_INFO_VAL] = '\0';
    EXPECT(MPI_Info_set(info, "big", longval) == MPI_SUCCESS);
    longval[MPI_MAX_INFO_VAL] = 'v';
    longval[MPI_MAX_INFO_VAL + 1] = '\0';
    rc = MPI_Info_set(info, "big", longval);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO_VALUE);

    /* Other errors. */
    rc = MPI_Info_delete(info, "nothere");
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO_NOKEY);
    rc = MPI_Info_get_nthkey(info, 99, key);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_ARG);
    rc = MPI_Info_set((MPI_Info)0x9c00ffff, "a", "b");
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO);
    rc = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO);

    /* MPI_INFO_ENV: readable, copyable, not changeable or freeable. */
    EXPECT(MPI_Info_get_nkeys(MPI_INFO_ENV, &n) == MPI_SUCCESS && n >= 0);
    MPI_Info env = MPI_INFO_ENV, envcopy;
    EXPECT(MPI_Info_dup(env, &envcopy) == MPI_SUCCESS);
    EXPECT(MPI_Info_set(envcopy, "mine", "yes") == MPI_SUCCESS);
    rc = MPI_Info_free(&env);
    EXPECT(rc != MPI_SUCCESS && env == MPI_INFO_ENV);
    MPI_Info_free(&envcopy);

    /* Hints on communicators. */
    MPI_Comm c;
    EXPECT(MPI_Comm_dup_with_info(MPI_COMM_WORLD, copy, &c) == MPI_SUCCESS);
    MPI_Info used;
    EXPECT(MPI_Comm_get_info(c, &used) == MPI_SUCCESS);
    EXPECT(MPI_Info_get(used, "alpha", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "changed") == 0);
    MPI_Info_free(&used);
    MPI_Info_set(info, "hint", "on");
    EXPECT(MPI_Comm_set_info(c, info) == MPI_SUCCESS);
    MPI_Comm c2;
    MPI_Comm_dup(c, &c2); /* the hints go with MPI_Comm_dup */
    MPI_Comm_get_info(c2, &used);
    EXPECT(MPI_Info_get(used, "hint", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "on") == 0);
    MPI_Info_free(&used);
    MPI_Comm_free(&c2);
    MPI_Comm_free(&c);

    /* MPI_Info_get_string: the length plus one comes back, the value as far as it fits. */
    char small[4];
    MPI_Info_set(info, "gamma", "abcdefg");
    len = 0;
    EXPECT(MPI_Info_get_string(info, "gamma", &len, NULL, &flag) == MPI_SUCCESS && flag == 1 && len == 8);
    len = (int)sizeof(small);
    EXPECT(MPI_Info_get_string(info, "gamma", &len, small, &flag) == MPI_SUCCESS && flag == 1 && len == 8 &&
           strcmp(small, "abc") == 0);
    len = (int)sizeof(value);
    EXPECT(MPI_Info_get_string(info, "gamma", &len, value, &flag) == MPI_SUCCESS && strcmp(value, "abcdefg") == 0);
    len = 5;
    EXPECT(MPI_Info_get_string(info, "nope", &len, small, &flag) == MPI_SUCCESS && flag == 0 && len == 5);
    MPI_Error_class(MPI_Info_get_string(info, "gamma", NULL, small, &flag), &cls);
    EXPECT(cls == MPI_ERR_ARG);
    MPI_Error_class(MPI_Info_get_string(info, "", &len, small, &flag), &cls);
    EXPECT(cls == MPI_ERR_INFO_KEY);
    MPI_Error_class(MPI_Info_get_string((MPI_Info)0x9c00fff0, "gamma", &len, small, &flag), &cls);
    EXPECT(cls == MPI_ERR_INFO);

    /* MPI_Comm_idup_with_info: the new communicator works and has the hints given. */
    MPI_Comm c3;
    MPI_Request req;
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "idup_hint", "yes");
    EXPECT(MPI_Comm_idup_with_info(MPI_COMM_WORLD, hints, &c3, &req) == MPI_SUCCESS);
    EXPECT(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
    MPI_Info_free(&hints);
    MPI_Comm_get_info(c3, &used);
    EXPECT(MPI_Info_get(used, "idup_hint", MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS && flag &&
           strcmp(value, "yes") == 0);
    MPI_Info_free(&used);
    int one = 1, sum = 0, wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c3);
    EXPECT(sum == wsize);
    MPI_Comm_free(&c3);
    MPI_Error_class(MPI_Comm_idup_with_info(MPI_COMM_WORLD, (MPI_Info)0x9c00fff0, &c3, &req), &cls);
    EXPECT(cls == MPI_ERR_INFO);
    MPI_Error_class(MPI_Comm_idup_with_info(MPI_COMM_NULL, MPI_INFO_NULL, &c3, &req), &cls);
    EXPECT(cls == MPI_ERR_COMM);
    MPI_Error_class(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c3, NULL), &cls);
    EXPECT(cls == MPI_ERR_ARG);

    EXPECT(MPI_Info_free(&info) == MPI_SUCCESS && info == MPI_INFO_NULL);
    EXPECT(MPI_Info_free(&copy) == MPI_SUCCESS && copy == MPI_INFO_NULL);
    rc = MPI_Info_free(&copy);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_INFO);

    if (failures == 0)
        printf("rank %d: ok\n", wrank);
    MPI_Finalize();
    return failures != 0;
}
