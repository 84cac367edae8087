/* Memory allocation kinds (MPI 4.1 section 11.4.3) and MPI_INFO_ENV. The first argument is the mode:
 *   world    MPI_Init: MPI_INFO_ENV has command, argv, maxprocs and mpi_memory_alloc_kinds, which
 *            MPI_COMM_WORLD's info repeats and an "mpi_assert_memory_alloc_kinds" hint restricts
 *   session  MPI_Session_init asking for kinds in its info: the session's info and its communicators'
 * The second is the value the kinds must have: the test's script knows what it asked for (mpirun
 * -memory-alloc-kinds, or the session's request in the third argument) and whether CUDA support is on.
 * Prints "rank R: ok" when every check held. */
#include "axon_test.h"
#include "axon_test_cuda.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* Messages and allreduces from 20 buffers mmap'd afresh (never seen, so a CUDA-aware rank with a context
 * must ask the driver about each), on a duplicate of MPI_COMM_WORLD that asserts host memory only ("asserted") or
 * not ("plain"): the test's script counts the driver's answers (FAKECUDA_STATS). */
static int traffic(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_cuda_setup(); /* a current context, as a CUDA program has: unknown buffers are asked about then */
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info hint;
    MPI_Info_create(&hint);
    if (strcmp(argv[2], "asserted") == 0)
        MPI_Info_set(hint, "mpi_assert_memory_alloc_kinds", "system,mpi:alloc_mem");
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, hint, &comm);
    MPI_Info_free(&hint);
    const size_t bytes = 1 << 16;
    for (int i = 0; i < 20; i++) {
        int *out = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        int *in = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        CHECK(out != MAP_FAILED && in != MAP_FAILED, "mmap");
        for (int k = 0; k < 64; k++)
            out[k] = rank * 100 + k + i;
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        CHECK(MPI_Sendrecv(out, 64, MPI_INT, right, 7, in, 64, MPI_INT, left, 7, comm, MPI_STATUS_IGNORE) ==
                  MPI_SUCCESS,
              "sendrecv %d", i);
        for (int k = 0; k < 64; k++)
            CHECK(in[k] == left * 100 + k + i, "element %d of message %d: %d", k, i, in[k]);
        CHECK(MPI_Allreduce(out, in, 64, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS, "allreduce %d", i);
        CHECK(in[0] == 100 * size * (size - 1) / 2 + size * i, "allreduce %d: %d", i, in[0]);
        munmap(out, bytes);
        munmap(in, bytes);
    }
    MPI_Comm_free(&comm);
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: memkinds world|session KINDS [REQUEST] | memkinds traffic plain|asserted\n");
        return 2;
    }
    if (strcmp(argv[1], "traffic") == 0)
        return traffic(argc, argv);
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
        EXPECT(MPI_Info_create_env(0, NULL, NULL) == MPI_ERR_ARG);
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
