/* The sessions model (MPI 4): process sets, groups from them, communicators and intercommunicators from
 * groups, session error handlers and info, two sessions at once, a session made again after the last one
 * ended, and sessions beside the world model. The mode is the first argument:
 *   sessions  sessions alone: MPI_Init is never called (MPI_Initialized stays 0)
 *   after     MPI_Init first; MPI_Finalize while a session lives, which goes on working until its end
 *   before    a session first, then MPI_Init_thread (the level the library came up with), both in use
 * Prints "rank R: ok" (R the rank in mpi://WORLD) when every check held. */
#include "axon_test.h"

#include <stdlib.h>
#include <string.h>

static int handler_calls;
static MPI_Session handler_session;

static void session_handler(MPI_Session *session, int *code, ...)
{
    handler_calls++;
    handler_session = *session;
    (void)code;
}

/* A communicator over the session's mpi://WORLD. */
static MPI_Comm world_of(MPI_Session s, const char *tag)
{
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &g) == MPI_SUCCESS, "group of mpi://WORLD");
    CHECK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) == MPI_SUCCESS,
          "MPI_Comm_create_from_group(%s)", tag);
    MPI_Group_free(&g);
    return c;
}

/* What every mode does with one session: psets, info, groups, communicators, an intercommunicator,
 * errors. Returns this process's rank in mpi://WORLD. */
static int exercise(MPI_Session s)
{
    int n = -1, err;
    CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS && n >= 2, "num psets %d", n);
    int found_world = 0, found_self = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL) == MPI_SUCCESS && len > 1,
              "length of pset %d: %d", i, len);
        char *name = malloc((size_t)len);
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name) == MPI_SUCCESS, "pset %d", i);
        CHECK(strlen(name) + 1 == (size_t)len, "pset %d: \"%s\" is not %d bytes long", i, name, len);
        found_world |= strcmp(name, "mpi://WORLD") == 0;
        found_self |= strcmp(name, "mpi://SELF") == 0;
        free(name);
    }
    CHECK(found_world && found_self, "mpi://WORLD %d, mpi://SELF %d", found_world, found_self);
    /* A name cut short still ends in a null. */
    char shortname[5] = "xxxx";
    int len = 4;
    CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, shortname) == MPI_SUCCESS && shortname[3] == 0,
          "short pset name \"%s\"", shortname);
    len = 0;
    err = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, NULL);
    CHECK(err == MPI_ERR_ARG, "pset number %d: error %d, not MPI_ERR_ARG", n, err);

    MPI_Info info;
    char value[64];
    int flag = 0, vlen = sizeof(value);
    CHECK(MPI_Session_get_pset_info(s, "mpi://WORLD", &info) == MPI_SUCCESS, "pset info");
    MPI_Info_get_string(info, "mpi_size", &vlen, value, &flag);
    int world_size = flag ? atoi(value) : -1;
    MPI_Info_free(&info);
    CHECK(world_size >= 1, "mpi_size of mpi://WORLD: %d", world_size);
    err = MPI_Session_get_pset_info(s, "mpi://NOWHERE", &info);
    CHECK(err == MPI_ERR_ARG && info == MPI_INFO_NULL, "unknown pset: error %d", err);
    MPI_Group bad;
    err = MPI_Group_from_session_pset(s, "no such set", &bad);
    CHECK(err == MPI_ERR_ARG && bad == MPI_GROUP_NULL, "group of an unknown pset: error %d", err);

    /* The world communicator of the session: a sum over all, a broadcast. */
    MPI_Comm w = world_of(s, "org.axon.test.world");
    int rank = -1, size = -1;
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    CHECK(size == world_size, "size %d, mpi_size %d", size, world_size);
    int sum = -1, token = rank == size - 1 ? 4242 : 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, w);
    CHECK(sum == size * (size - 1) / 2, "sum of ranks %d", sum);
    MPI_Bcast(&token, 1, MPI_INT, size - 1, w);
    CHECK(token == 4242, "bcast %d", token);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(w, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "the new communicator's handler is the one named");
    MPI_Errhandler_free(&eh);

    /* mpi://SELF. */
    MPI_Group gself;
    MPI_Comm cself;
    MPI_Group_from_session_pset(s, "MPI://self", &gself); /* names are matched without regard to case */
    CHECK(MPI_Comm_create_from_group(gself, "org.axon.test.self", MPI_INFO_NULL, MPI_ERRORS_RETURN, &cself) ==
              MPI_SUCCESS, "communicator of mpi://SELF");
    int self_size = 0;
    MPI_Comm_size(cself, &self_size);
    CHECK(self_size == 1, "mpi://SELF's size %d", self_size);
    MPI_Comm_free(&cself);
    MPI_Group_free(&gself);

    /* Two halves, each its own communicator (the same string tag: the groups are disjoint), then an
     * intercommunicator between them. */
    if (size >= 2) {
        MPI_Group gw, half[2];
        MPI_Comm_group(w, &gw);
        int *members[2] = {malloc(sizeof(int) * (size_t)size), malloc(sizeof(int) * (size_t)size)}, count[2] = {0, 0};
        for (int r = 0; r < size; r++)
            members[r % 2][count[r % 2]++] = r;
        MPI_Group_incl(gw, count[0], members[0], &half[0]);
        MPI_Group_incl(gw, count[1], members[1], &half[1]);
        int mine = rank % 2;
        MPI_Comm hc;
        CHECK(MPI_Comm_create_from_group(half[mine], "org.axon.test.half", MPI_INFO_NULL, MPI_ERRORS_RETURN, &hc) ==
                  MPI_SUCCESS, "half communicator");
        int hsize = 0, hsum = -1;
        MPI_Comm_size(hc, &hsize);
        MPI_Allreduce(&rank, &hsum, 1, MPI_INT, MPI_SUM, hc);
        int want = 0;
        for (int i = 0; i < count[mine]; i++)
            want += members[mine][i];
        CHECK(hsize == count[mine] && hsum == want, "half %d: size %d sum %d", mine, hsize, hsum);
        MPI_Comm_free(&hc);

        MPI_Comm ic;
        CHECK(MPI_Intercomm_create_from_groups(half[mine], 0, half[1 - mine], 0, "org.axon.test.inter", MPI_INFO_NULL,
                                               MPI_ERRORS_RETURN, &ic) == MPI_SUCCESS,
              "intercommunicator");
        int inter = 0, rsize = 0;
        MPI_Comm_test_inter(ic, &inter);
        MPI_Comm_remote_size(ic, &rsize);
        CHECK(inter && rsize == count[1 - mine], "inter %d remote size %d", inter, rsize);
        /* The first of each half says its world rank to the first of the other. */
        int lrank;
        MPI_Comm_rank(ic, &lrank);
        if (lrank == 0) {
            int got = -1;
            MPI_Sendrecv(&rank, 1, MPI_INT, 0, 7, &got, 1, MPI_INT, 0, 7, ic, MPI_STATUS_IGNORE);
            CHECK(got == members[1 - mine][0], "across: %d", got);
        }
        MPI_Comm_free(&ic);
        /* The caller in both groups is refused. */
        MPI_Comm none;
        err = MPI_Intercomm_create_from_groups(gw, 0, gw, 0, "org.axon.test.bad", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                               &none);
        CHECK(err == MPI_ERR_GROUP && none == MPI_COMM_NULL, "overlapping groups: error %d", err);
        MPI_Group_free(&half[0]);
        MPI_Group_free(&half[1]);
        MPI_Group_free(&gw);
        free(members[0]);
        free(members[1]);
    }

    /* A group without the caller gives MPI_COMM_NULL (as MPI_Comm_create_group does); a null string tag
     * is refused through the handler named. */
    MPI_Group empty;
    MPI_Comm none = MPI_COMM_SELF;
    MPI_Group_incl(MPI_GROUP_EMPTY, 0, NULL, &empty);
    err = MPI_Comm_create_from_group(empty, "org.axon.test.empty", MPI_INFO_NULL, MPI_ERRORS_RETURN, &none);
    CHECK(err == MPI_SUCCESS && none == MPI_COMM_NULL, "group without the caller: error %d", err);
    MPI_Group gw2;
    MPI_Comm_group(w, &gw2);
    err = MPI_Comm_create_from_group(gw2, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &none);
    CHECK(err == MPI_ERR_ARG, "null string tag: error %d", err);
    MPI_Group_free(&gw2);
    if (empty != MPI_GROUP_EMPTY)
        MPI_Group_free(&empty);
    MPI_Comm_free(&w);
    return rank;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "sessions";
    int flag = -1, provided = -1;
    if (strcmp(mode, "after") == 0)
        MPI_Init(&argc, &argv);

    /* A session's handler may be made before any session exists. */
    MPI_Errhandler mine;
    CHECK(MPI_Session_create_errhandler(session_handler, &mine) == MPI_SUCCESS, "session handler");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
    MPI_Session s = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL;
    CHECK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS && s != MPI_SESSION_NULL, "session");
    MPI_Info_free(&info);
    if (strcmp(mode, "before") == 0) {
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
        CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_Init_thread after a session gave level %d", provided);
    }
    MPI_Initialized(&flag);
    CHECK(flag == (strcmp(mode, "sessions") != 0), "MPI_Initialized %d in mode %s", flag, mode);

    MPI_Info used;
    char level[64] = "";
    int llen = sizeof(level), lflag = 0;
    CHECK(MPI_Session_get_info(s, &used) == MPI_SUCCESS, "session info");
    MPI_Info_get_string(used, "thread_level", &llen, level, &lflag);
    CHECK(lflag && strcmp(level, strcmp(mode, "after") == 0 ? "MPI_THREAD_SINGLE" : "MPI_THREAD_MULTIPLE") == 0,
          "thread_level \"%s\" in mode %s", level, mode);
    MPI_Info_free(&used);

    int rank = exercise(s);

    /* A second session at once, with the handler made above: errors reach it with its handle. */
    CHECK(MPI_Session_init(MPI_INFO_NULL, mine, &s2) == MPI_SUCCESS, "second session");
    MPI_Errhandler_free(&mine); /* the session holds its own reference */
    MPI_Session_call_errhandler(s2, MPI_ERR_OTHER);
    CHECK(handler_calls == 1 && handler_session == s2, "the session's handler: %d calls", handler_calls);
    MPI_Group g1, g2;
    MPI_Group_from_session_pset(s2, "mpi://WORLD", &g1); /* fine */
    MPI_Group_free(&g1);
    MPI_Group_from_session_pset(s2, "mpi://NOWHERE", &g2);
    CHECK(handler_calls == 2, "an unknown pset reached the session's handler (%d calls)", handler_calls);
    MPI_Errhandler got;
    MPI_Session_get_errhandler(s2, &got);
    MPI_Session_set_errhandler(s2, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    MPI_Session_finalize(&s2);
    CHECK(s2 == MPI_SESSION_NULL, "finalized session handle");

    if (strcmp(mode, "after") == 0) {
        /* The world model ends; the session goes on. */
        MPI_Finalize();
        MPI_Finalized(&flag);
        CHECK(flag == 1, "MPI_Finalized %d", flag);
        MPI_Comm c = world_of(s, "org.axon.test.after_finalize");
        int one = 1, total = 0;
        MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, c);
        int size;
        MPI_Comm_size(c, &size);
        CHECK(total == size, "allreduce after MPI_Finalize: %d of %d", total, size);
        MPI_Comm_free(&c);
    }
    if (strcmp(mode, "before") == 0)
        MPI_Finalize(); /* the session lives on */
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "session finalize");

    if (strcmp(mode, "sessions") == 0) {
        /* The last session ended; a new one starts the library's second life of sessions. */
        CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS, "session again");
        MPI_Comm c = world_of(s, "org.axon.test.again");
        int one = 1, total = 0, size = 0;
        MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, c);
        MPI_Comm_size(c, &size);
        CHECK(total == size, "allreduce in a second session: %d of %d", total, size);
        MPI_Comm_free(&c);
        MPI_Session_finalize(&s);
        MPI_Finalized(&flag);
        CHECK(flag == 0, "MPI_Finalized %d without MPI_Init", flag);
    }
    printf("rank %d: %s\n", rank, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
