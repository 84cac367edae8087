/* The tools interface (mpi/tool/axon_mpi_tool.c): MPI_T's count of initializations, before MPI_Init, while
 * MPI is up and after MPI_Finalize; the control variables (Axon's knobs) listed, found by name and read;
 * writes refused; the enumeration of a word-list knob; the string convention; the one category; the
 * performance-variable sessions; and the errors of bad indices, handles, sessions and of calls when
 * MPI_T is not initialized.
 *   mpi_t SHM_MAX WAIT_MODE
 * SHM_MAX is the value AXON_PT2PT_SHM_MAX must read, WAIT_MODE the position of AXON_WAIT_MODE's word
 * (the .test sets the environment). Prints "rank R: ok" when every check held. */
#include "axon_test.h"

#include <stdlib.h>
#include <string.h>

/* MPICH's values (its mpi.h), which programs built against it carry. */
_Static_assert(MPI_T_VERBOSITY_USER_BASIC == 221 && MPI_T_VERBOSITY_MPIDEV_ALL == 229, "verbosity");
_Static_assert(MPI_T_BIND_NO_OBJECT == 9700 && MPI_T_BIND_MPI_INFO == 9710, "bind");
_Static_assert(MPI_T_SCOPE_CONSTANT == 60438 && MPI_T_SCOPE_ALL_EQ == 60444, "scope");
_Static_assert(MPI_T_PVAR_CLASS_STATE == 240 && MPI_T_PVAR_CLASS_GENERIC == 249, "pvar class");
_Static_assert(MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE == 3 && MPI_T_SOURCE_UNORDERED == 1, "events");
_Static_assert(MPI_T_ERR_MEMORY == 59 && MPI_T_ERR_INVALID == 74 && MPI_T_ERR_NOT_SUPPORTED == 78, "errors");

static int cvar_index(const char *name)
{
    int index = -1;
    CHECK(MPI_T_cvar_get_index(name, &index) == MPI_SUCCESS, "MPI_T_cvar_get_index(%s)", name);
    return index;
}

/* Every control variable described, AXON_PT2PT_SHM_MAX and AXON_WAIT_MODE read. */
static void check_cvars(long long shm_max, int wait_mode, const char *when)
{
    int n = -1;
    EXPECT(MPI_T_cvar_get_num(&n) == MPI_SUCCESS);
    CHECK(n >= 30, "%s: %d control variables", when, n);
    for (int i = 0; i < n; i++) {
        char name[256], desc[1024];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity = 0, bind = 0, scope = 0;
        MPI_Datatype dt = MPI_DATATYPE_NULL;
        MPI_T_enum e = MPI_T_ENUM_NULL;
        int rc = MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &dt, &e, desc, &desc_len, &bind, &scope);
        CHECK(rc == MPI_SUCCESS, "%s: MPI_T_cvar_get_info(%d): %d", when, i, rc);
        if (rc != MPI_SUCCESS)
            continue;
        CHECK(strncmp(name, "AXON_", 5) == 0 && name_len == (int)strlen(name) + 1, "cvar %d: name %s len %d", i,
              name, name_len);
        CHECK(desc_len > 10 && desc_len == (int)strlen(desc) + 1, "cvar %s: description of %d bytes", name,
              desc_len);
        CHECK(verbosity >= MPI_T_VERBOSITY_USER_BASIC && verbosity <= MPI_T_VERBOSITY_MPIDEV_ALL,
              "cvar %s: verbosity %d", name, verbosity);
        CHECK(bind == MPI_T_BIND_NO_OBJECT && scope == MPI_T_SCOPE_READONLY, "cvar %s: bind %d scope %d", name,
              bind, scope);
        CHECK(dt == MPI_INT || dt == MPI_LONG_LONG || dt == MPI_CHAR, "cvar %s: datatype %#x", name, (unsigned)dt);
        CHECK(cvar_index(name) == i, "cvar %s: index by name", name);
        /* Every variable can be read, into room of the count its handle gives. */
        MPI_T_cvar_handle h;
        int count = 0;
        EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS);
        CHECK(count >= 1, "cvar %s: count %d", name, count);
        int size = dt == MPI_CHAR ? 1 : dt == MPI_INT ? (int)sizeof(int) : (int)sizeof(long long);
        char *buf = malloc((size_t)count * (size_t)size);
        EXPECT(MPI_T_cvar_read(h, buf) == MPI_SUCCESS);
        if (dt == MPI_CHAR)
            CHECK(memchr(buf, 0, (size_t)count) != NULL, "cvar %s: no terminating 0", name);
        free(buf);
        EXPECT(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS && h == MPI_T_CVAR_HANDLE_NULL);
    }

    /* The string convention: the length asked for, then a truncated copy. */
    int i = cvar_index("AXON_PT2PT_SHM_MAX");
    char name[32];
    int len = 0;
    EXPECT(MPI_T_cvar_get_info(i, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == MPI_SUCCESS);
    CHECK(len == (int)strlen("AXON_PT2PT_SHM_MAX") + 1, "needed length %d", len);
    len = 5;
    EXPECT(MPI_T_cvar_get_info(i, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == MPI_SUCCESS);
    CHECK(len == 5 && strcmp(name, "AXON") == 0, "truncated name '%s' len %d", name, len);

    MPI_Datatype dt;
    MPI_T_enum e;
    EXPECT(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &dt, &e, NULL, NULL, NULL, NULL) == MPI_SUCCESS);
    EXPECT(dt == MPI_LONG_LONG && e == MPI_T_ENUM_NULL);
    MPI_T_cvar_handle h;
    int count = 0;
    long long value = -2;
    EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS && count == 1);
    EXPECT(MPI_T_cvar_read(h, &value) == MPI_SUCCESS);
    CHECK(value == shm_max, "%s: AXON_PT2PT_SHM_MAX reads %lld, expected %lld", when, value, shm_max);
    long long other = 1;
    EXPECT(MPI_T_cvar_write(h, &other) == MPI_T_ERR_CVAR_SET_NEVER);
    EXPECT(MPI_T_cvar_read(h, &value) == MPI_SUCCESS && value == shm_max);
    EXPECT(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS);
    EXPECT(MPI_T_cvar_handle_free(&h) == MPI_T_ERR_INVALID_HANDLE);

    /* A word list: an enumeration of its words, the word's position read. */
    i = cvar_index("AXON_WAIT_MODE");
    EXPECT(MPI_T_cvar_get_info(i, NULL, NULL, NULL, &dt, &e, NULL, NULL, NULL, NULL) == MPI_SUCCESS);
    EXPECT(dt == MPI_INT && e != MPI_T_ENUM_NULL);
    int items = 0;
    char ename[64];
    len = sizeof(ename);
    EXPECT(MPI_T_enum_get_info(e, &items, ename, &len) == MPI_SUCCESS);
    CHECK(items == 3 && strcmp(ename, "AXON_WAIT_MODE") == 0, "enum %s of %d items", ename, items);
    static const char *const words[] = {"auto", "spin", "yield"};
    for (int k = 0; k < 3 && items == 3; k++) {
        char word[16];
        int v = -1;
        len = sizeof(word);
        EXPECT(MPI_T_enum_get_item(e, k, &v, word, &len) == MPI_SUCCESS);
        CHECK(v == k && strcmp(word, words[k]) == 0, "item %d: %d %s", k, v, word);
    }
    EXPECT(MPI_T_enum_get_item(e, 3, NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &items, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
    int mode = -1;
    EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS && count == 1);
    EXPECT(MPI_T_cvar_read(h, &mode) == MPI_SUCCESS);
    CHECK(mode == wait_mode, "%s: AXON_WAIT_MODE reads %d, expected %d", when, mode, wait_mode);
    EXPECT(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS);

    /* A string. */
    i = cvar_index("AXON_NVML_LIBRARY");
    EXPECT(MPI_T_cvar_handle_alloc(i, NULL, &h, &count) == MPI_SUCCESS);
    char *s = calloc(1, (size_t)count);
    EXPECT(MPI_T_cvar_read(h, s) == MPI_SUCCESS);
    const char *env = getenv("AXON_NVML_LIBRARY");
    CHECK(strcmp(s, env && *env ? env : "libnvidia-ml.so.1") == 0, "AXON_NVML_LIBRARY reads '%s'", s);
    free(s);
    EXPECT(MPI_T_cvar_handle_free(&h) == MPI_SUCCESS);

    /* Errors. */
    EXPECT(MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_handle_alloc(n, NULL, &h, &count) == MPI_T_ERR_INVALID_INDEX);
    int index;
    EXPECT(MPI_T_cvar_get_index("AXON_NO_SUCH_KNOB", &index) == MPI_T_ERR_INVALID_NAME);
}

static void check_rest(void)
{
    int n = -1;
    EXPECT(MPI_T_pvar_get_num(&n) == MPI_SUCCESS && n == 0);
    EXPECT(MPI_T_pvar_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
           MPI_T_ERR_INVALID_INDEX);
    int index;
    EXPECT(MPI_T_pvar_get_index("x", MPI_T_PVAR_CLASS_COUNTER, &index) == MPI_T_ERR_INVALID_NAME);
    MPI_T_pvar_session s1 = MPI_T_PVAR_SESSION_NULL, s2 = MPI_T_PVAR_SESSION_NULL;
    EXPECT(MPI_T_pvar_session_create(&s1) == MPI_SUCCESS && s1 != MPI_T_PVAR_SESSION_NULL);
    EXPECT(MPI_T_pvar_session_create(&s2) == MPI_SUCCESS && s2 != s1);
    MPI_T_pvar_handle ph;
    int count;
    EXPECT(MPI_T_pvar_handle_alloc(s1, 0, NULL, &ph, &count) == MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_pvar_start(s1, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    EXPECT(MPI_T_pvar_stop(s1, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    EXPECT(MPI_T_pvar_reset(s2, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    long long buf;
    EXPECT(MPI_T_pvar_read(s1, MPI_T_PVAR_ALL_HANDLES, &buf) == MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_start(s1, MPI_T_PVAR_HANDLE_NULL) == MPI_T_ERR_INVALID_HANDLE);
    ph = MPI_T_PVAR_HANDLE_NULL;
    EXPECT(MPI_T_pvar_handle_free(s1, &ph) == MPI_T_ERR_INVALID_HANDLE);
    MPI_T_pvar_session dead = s1;
    EXPECT(MPI_T_pvar_session_free(&s1) == MPI_SUCCESS && s1 == MPI_T_PVAR_SESSION_NULL);
    EXPECT(MPI_T_pvar_session_free(&dead) == MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_start(dead, MPI_T_PVAR_ALL_HANDLES) == MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_handle_alloc(dead, 0, NULL, &ph, &count) == MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_session_free(&s2) == MPI_SUCCESS);

    EXPECT(MPI_T_event_get_num(&n) == MPI_SUCCESS && n == 0);
    EXPECT(MPI_T_event_get_index("x", &index) == MPI_T_ERR_INVALID_NAME);
    MPI_T_event_registration reg;
    EXPECT(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg) == MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_event_handle_free(NULL, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_source_get_num(&n) == MPI_SUCCESS && n == 0);
    MPI_Count stamp;
    EXPECT(MPI_T_source_get_timestamp(0, &stamp) == MPI_T_ERR_INVALID_INDEX);

    /* The category "axon": every control variable. */
    int ncvars;
    EXPECT(MPI_T_cvar_get_num(&ncvars) == MPI_SUCCESS);
    EXPECT(MPI_T_category_get_num(&n) == MPI_SUCCESS && n == 1);
    char name[16];
    int len = sizeof(name), cv = -1, pv = -1, cats = -1;
    EXPECT(MPI_T_category_get_info(0, name, &len, NULL, NULL, &cv, &pv, &cats) == MPI_SUCCESS);
    CHECK(strcmp(name, "axon") == 0 && len == 5 && cv == ncvars && pv == 0 && cats == 0,
          "category %s (%d): %d cvars, %d pvars, %d categories", name, len, cv, pv, cats);
    EXPECT(MPI_T_category_get_index("axon", &index) == MPI_SUCCESS && index == 0);
    EXPECT(MPI_T_category_get_index("ucx", &index) == MPI_T_ERR_INVALID_NAME);
    int *indices = calloc((size_t)ncvars, sizeof(int));
    EXPECT(MPI_T_category_get_cvars(0, ncvars, indices) == MPI_SUCCESS);
    for (int i = 0; i < ncvars; i++)
        CHECK(indices[i] == i, "category cvar %d is %d", i, indices[i]);
    free(indices);
    EXPECT(MPI_T_category_get_num_events(0, &n) == MPI_SUCCESS && n == 0);
    EXPECT(MPI_T_category_get_info(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL) == MPI_T_ERR_INVALID_INDEX);
    int stamp1 = -1, stamp2 = -2;
    EXPECT(MPI_T_category_changed(&stamp1) == MPI_SUCCESS);
    EXPECT(MPI_T_category_changed(&stamp2) == MPI_SUCCESS && stamp1 == stamp2);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mpi_t SHM_MAX WAIT_MODE\n");
        return 2;
    }
    long long shm_max = atoll(argv[1]);
    int wait_mode = atoi(argv[2]);
    int provided = -1, n;

    /* Before MPI_Init: not initialized, then once. */
    EXPECT(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS && provided == MPI_THREAD_SINGLE);
    check_cvars(shm_max, wait_mode, "before MPI_Init");
    check_rest();
    MPI_T_cvar_handle kept;
    int count;
    EXPECT(MPI_T_cvar_handle_alloc(0, NULL, &kept, &count) == MPI_SUCCESS);

    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Nested: a second initialization, the value in use read (not the environment's, which changes). */
    EXPECT(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS && provided == MPI_THREAD_MULTIPLE);
    setenv("AXON_PT2PT_SHM_MAX", "1k", 1);
    check_cvars(shm_max, wait_mode, "after MPI_Init");
    check_rest();
    EXPECT(MPI_T_finalize() == MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n) == MPI_SUCCESS);
    EXPECT(MPI_T_finalize() == MPI_SUCCESS);
    /* The last finalize: every call refused, the handle gone with it. */
    EXPECT(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_cvar_read(kept, &count) == MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_category_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    MPI_T_pvar_session s;
    EXPECT(MPI_T_pvar_session_create(&s) == MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided) == MPI_SUCCESS && provided == MPI_THREAD_FUNNELED);
    EXPECT(MPI_T_cvar_read(kept, &count) == MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_finalize() == MPI_SUCCESS);

    /* The classes have names. */
    char text[MPI_MAX_ERROR_STRING];
    int len;
    EXPECT(MPI_Error_string(MPI_T_ERR_INVALID_INDEX, text, &len) == MPI_SUCCESS &&
           strstr(text, "MPI_T_ERR_INVALID_INDEX") != NULL);
    MPI_Finalize();

    /* After MPI_Finalize: the values the library ran with. */
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
    check_cvars(shm_max, wait_mode, "after MPI_Finalize");
    EXPECT(MPI_T_finalize() == MPI_SUCCESS);

    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
