/* Memory allocation kinds (MPI 4.1 section 11.4.3) and MPI_INFO_ENV. The first argument is the mode:
 *   world    MPI_Init: MPI_INFO_ENV has command, argv, maxprocs and mpi_memory_alloc_kinds, which
 *            MPI_COMM_WORLD's info repeats and an "mpi_assert_memory_alloc_kinds" hint restricts
 *   session  MPI_Session_init asking for kinds in its info: the session's info and its communicators'
 * The second is the value the kinds must have: the test's script knows what it asked for (mpirun
 * -memory-alloc-kinds, or the session's request in the third argument) and whether CUDA support is on.
 * Prints "rank R: ok" when every check held. */
#include "axon_test.h"

#include <stdlib.h>
#include <string.h>

static int get(MPI_Info info, const char *key, char *value)
{
    int len = MPI_MAX_INFO_VAL, flag = 0;
    if (MPI_Info_get_string(info, key, &len, value, &flag) != MPI_SUCCESS)
        return 0;
    return flag;
}

static void expect_kinds(MPI_Info info, const char *want, const char *where)
{
    char value[MPI_MAX_INFO_VAL] = "";
    CHECK(get(info, "mpi_memory_alloc_kinds", value) && strcmp(value, want) == 0,
          "%s: mpi_memory_alloc_kinds \"%s\", expected \"%s\"", where, value, want);
}

static void comm_kinds(MPI_Comm comm, const char *want, const char *where)
{
    MPI_Info info = MPI_INFO_NULL;
    CHECK(MPI_Comm_get_info(comm, &info) == MPI_SUCCESS, "%s: MPI_Comm_get_info", where);
    expect_kinds(info, want, where);
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: memkinds world|session KINDS [REQUEST]\n");
        return 2;
    }
    const char *want = argv[2];
    int rank = -1, size = -1;
    if (strcmp(argv[1], "world") == 0) {
        /* MPI_Info_create_env before MPI_Init: the arguments given. */
        char value[MPI_MAX_INFO_VAL];
        MPI_Info env;
        char *fake[] = {"prog", "a", "b c", NULL};
        CHECK(MPI_Info_create_env(3, fake, &env) == MPI_SUCCESS, "MPI_Info_create_env before MPI_Init");
        CHECK(get(env, "command", value) && strcmp(value, "prog") == 0, "command before init \"%s\"", value);
        CHECK(get(env, "argv", value) && strcmp(value, "a b c") == 0, "argv before init \"%s\"", value);
        EXPECT(!get(env, "maxprocs", value));
        MPI_Info_free(&env);
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        expect_kinds(MPI_INFO_ENV, want, "MPI_INFO_ENV");
        /* MPI_Info_create_env is the same whenever it is called: the job's size is MPI_INFO_ENV's alone. */
        CHECK(MPI_Info_create_env(3, fake, &env) == MPI_SUCCESS, "MPI_Info_create_env");
        CHECK(get(env, "argv", value) && strcmp(value, "a b c") == 0, "argv after init \"%s\"", value);
        EXPECT(!get(env, "maxprocs", value));
        MPI_Info_free(&env);
        CHECK(get(MPI_INFO_ENV, "command", value) && strstr(value, "memkinds"), "command \"%s\"", value);
        CHECK(get(MPI_INFO_ENV, "argv", value) && strncmp(value, "world ", 6) == 0, "argv \"%s\"", value);
        CHECK(get(MPI_INFO_ENV, "maxprocs", value) && atoi(value) == size, "maxprocs \"%s\"", value);
        CHECK(get(MPI_INFO_ENV, "wdir", value) && value[0] == '/', "wdir \"%s\"", value);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        EXPECT(MPI_Info_set(MPI_INFO_ENV, "mpi_memory_alloc_kinds", "system") == MPI_ERR_INFO); /* read-only */
        comm_kinds(MPI_COMM_WORLD, want, "MPI_COMM_WORLD");
        /* A communicator asserting that it sees system memory only (and a kind that does not exist). */
        MPI_Info hint;
        MPI_Info_create(&hint);
        MPI_Info_set(hint, "mpi_assert_memory_alloc_kinds", "system, nonsense:kind");
        MPI_Comm host_only;
        CHECK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, hint, &host_only) == MPI_SUCCESS, "MPI_Comm_dup_with_info");
        MPI_Info_free(&hint);
        comm_kinds(host_only, "system", "a communicator asserting system memory");
        MPI_Comm plain;
        MPI_Comm_dup(MPI_COMM_WORLD, &plain);
        comm_kinds(plain, want, "a duplicate of MPI_COMM_WORLD");
        MPI_Comm_free(&plain);
        MPI_Comm_free(&host_only);
        printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
        MPI_Finalize();
        return failures != 0;
    }

    MPI_Info request;
    MPI_Info_create(&request);
    if (argc > 3)
        MPI_Info_set(request, "mpi_memory_alloc_kinds", argv[3]);
    MPI_Session s;
    CHECK(MPI_Session_init(request, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS, "MPI_Session_init");
    MPI_Info_free(&request);
    MPI_Info got;
    CHECK(MPI_Session_get_info(s, &got) == MPI_SUCCESS, "MPI_Session_get_info");
    expect_kinds(got, want, "the session");
    MPI_Info_free(&got);
    MPI_Group g;
    MPI_Comm comm;
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    CHECK(MPI_Comm_create_from_group(g, "memkinds", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm) == MPI_SUCCESS,
          "MPI_Comm_create_from_group");
    MPI_Group_free(&g);
    MPI_Comm_rank(comm, &rank);
    comm_kinds(comm, want, "the session's communicator");
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, comm);
    MPI_Comm_free(&comm);
    MPI_Session_finalize(&s);
    printf("rank %d: %s\n", rank, failures || all ? "FAILED" : "ok");
    return failures != 0;
}
