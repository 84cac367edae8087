/* The communicator layer's internal header: groups (process sets in MPI_COMM_WORLD ranks), context ids
 * (which engine contexts a communicator owns, agreed by its members), the small private collectives
 * that communicator creation runs before the collective layer exists, the communicator table's
 * constructor and destructor, attributes, and info objects. The communicator object itself is in
 * mpi/axon_mpi.h, which the point-to-point calls use. Only mpi/ includes this. */
#ifndef AXON_MPI_COMM_H
#define AXON_MPI_COMM_H

#include "mpi/axon_mpi.h"

#include <stddef.h>
#include <stdint.h>

/* ---- groups (axon_mpi_group.c; the set logic in axon_mpi_group_ops.c) ---------------------------- */

/* A process set: ranks in the group -> ranks in MPI_COMM_WORLD. Immutable once made and shared by
 * reference (communicators and group handles each hold one). */
struct axon_group {
    atomic_int refcount;
    int size;
    int rank;            /* of this process, or MPI_UNDEFINED */
    MPI_Session session; /* the session it derives from (MPI_Group_from_session_pset, and the groups and
                          * communicators made from those); 0: the world model */
    int world[];         /* [size] */
};

/* MPI_GROUP_EMPTY's object: never freed. */
extern struct axon_group axon_group_empty;

/* A group of size members with refcount 1; the caller fills world[] and calls axon_group_seal. */
struct axon_group *axon_group_alloc(int size);
/* Finds this process's rank in it. */
void axon_group_seal(struct axon_group *g);
/* A group of the members given (copied); NULL when out of memory. Empty: axon_group_empty, retained. */
struct axon_group *axon_group_from_world(const int *world, int size);
/* g as a group of session (0: the world model): g itself, retained, when it is one already (or empty),
 * else a copy so tagged; NULL when out of memory. */
struct axon_group *axon_group_in_session(struct axon_group *g, MPI_Session session);
void axon_group_retain(struct axon_group *g);
void axon_group_release(struct axon_group *g);

/* The group of a handle, or NULL if it is not a live group (MPI_GROUP_NULL included). The object stays
 * valid while the handle does (the caller does not own a reference). */
struct axon_group *axon_mpi_group_get(MPI_Group handle);
/* A new handle for g; takes over one reference the caller holds. MPI_ERR_NO_MEM / MPI_ERR_INTERN. */
int axon_mpi_group_handle_new(struct axon_group *g, MPI_Group *handle);
void axon_mpi_group_table_finalize(void);

/* The set logic, on arrays of member ids (MPI_COMM_WORLD ranks), without MPI state: unit-tested in
 * tests/unit/test_group_ops.c. Each returns MPI_SUCCESS or the error class the standard names, with
 * *bad the offending index of the input (ranks, or ranges) when given. out has room for the result
 * (at most size members for incl/excl/ranges, na + nb for union). */
int axon_group_ops_incl(const int *members, int size, int n, const int *ranks, int *out, int *bad);
int axon_group_ops_excl(const int *members, int size, int n, const int *ranks, int *out, int *outn, int *bad);
int axon_group_ops_ranges(const int *members, int size, int n, const int (*ranges)[3], bool exclude, int *out,
                          int *outn, int *bad);
int axon_group_ops_union(const int *a, int na, const int *b, int nb, int *out, int *outn);
int axon_group_ops_intersection(const int *a, int na, const int *b, int nb, int *out, int *outn);
int axon_group_ops_difference(const int *a, int na, const int *b, int nb, int *out, int *outn);
/* ranks2[i]: the rank in b of a's member ranks1[i], MPI_UNDEFINED if b lacks it, MPI_PROC_NULL for
 * MPI_PROC_NULL. */
int axon_group_ops_translate(const int *a, int na, int n, const int *ranks1, const int *b, int nb, int *ranks2,
                             int *bad);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int axon_group_ops_compare(const int *a, int na, const int *b, int nb);
/* The rank of member id in a, or MPI_UNDEFINED. */
int axon_group_ops_find(const int *a, int na, int id);

/* ---- private collectives (axon_mpi_comm_coll.c) -------------------------------------------------- */

/* Tags of the creation calls' traffic on a communicator's internal (coll) context. The collective
 * layer, which shares that context, keeps its tags below AXON_COMM_TAG_BASE. */
#define AXON_COMM_TAG_BASE AXON_COLL_TAG_LIMIT
#define AXON_COMM_TAG_CREATE (AXON_COMM_TAG_BASE + 1)

/* The processes of one private collective: team ranks 0..size-1, reached as ranks to_pc[r] (identity
 * when NULL) of the engine context pc, with one tag. Messages between two members keep their order,
 * and every member runs the same steps, so one tag serves all the steps of a call and consecutive
 * calls on one team. */
struct axon_comm_team {
    struct axon_pt2pt_comm *pc;
    int rank, size;
    const int *to_pc;
    int tag;
};

/* Joins a second group to a collective: the leaders (team rank `leader` on each side) talk as ranks of
 * pc (remote_leader is the other leader's rank there). Both sides run the same steps. */
struct axon_comm_bridge {
    int leader;
    struct axon_pt2pt_comm *pc;
    int remote_leader;
    int tag;
};

enum axon_comm_op { AXON_COMM_OP_BAND, AXON_COMM_OP_BOR, AXON_COMM_OP_MAX, AXON_COMM_OP_MIN, AXON_COMM_OP_SUM };

/* Each returns MPI_SUCCESS or an error class. */
int axon_comm_coll_allreduce(const struct axon_comm_team *t, int *buf, int count, enum axon_comm_op op);
int axon_comm_coll_bcast(const struct axon_comm_team *t, void *buf, size_t bytes, int root);
int axon_comm_coll_allgather(const struct axon_comm_team *t, const void *send, void *recv, size_t bytes);
int axon_comm_coll_barrier(const struct axon_comm_team *t);
/* An allreduce over both groups: local allreduce, the leaders combine, a local broadcast. */
int axon_comm_coll_allreduce_bridged(const struct axon_comm_team *t, const struct axon_comm_bridge *b, int *buf,
                                     int count, enum axon_comm_op op);
/* The leaders swap send (bytes) for the other side's recv (rbytes): only the leader calls it. */
int axon_comm_coll_leader_swap(const struct axon_comm_bridge *b, const void *send, size_t bytes, void *recv,
                               size_t rbytes);
/* The team of a communicator's creation calls: its internal context, over the local group (an
 * intercommunicator's hidden local communicator). */
void axon_comm_team_of(struct axon_comm *c, struct axon_comm_team *t);
/* The bridge of an intercommunicator: leaders are local rank 0 on each side, over its internal context. */
void axon_comm_bridge_of(struct axon_comm *inter, struct axon_comm_bridge *b);

/* ---- context ids (axon_mpi_comm_context.c) ------------------------------------------------------- */

#define AXON_CTX_IDS 16384 /* 8 engine contexts each (5 used): the engine has 131072 */
#define AXON_CTX_WORDS (AXON_CTX_IDS / 32)
/* The top ids serve communicators of one process (MPI_COMM_SELF's duplicates ...): taken with no
 * agreement and never offered to one (see axon_mpi_comm_context.c). */
#define AXON_CTX_LOCAL_IDS 1024
#define AXON_CTX_LOCAL_FIRST (AXON_CTX_IDS - AXON_CTX_LOCAL_IDS)
enum axon_ctx_which {
    AXON_CTX_PT2PT,      /* user point-to-point */
    AXON_CTX_COLL,       /* internal collectives */
    AXON_CTX_TAGGED,     /* creation keyed by a user's tag */
    AXON_CTX_LOCAL_COLL, /* an intercommunicator's local communicator's internal collectives */
    AXON_CTX_PART,       /* partitioned communication, which only partitioned operations match */
};
static inline uint32_t axon_ctx_engine(uint32_t id, enum axon_ctx_which which)
{
    return id * 8u + (uint32_t)which;
}
#define AXON_CTX_WORLD 0u
#define AXON_CTX_SELF 1u
#define AXON_CTX_SESSIONS 2u /* the hidden communicator of the sessions' creations (axon_mpi_comm_sessions) */

/* The pure logic of the id agreement (unit-tested in tests/unit/test_comm_context.c); the process's
 * instance is guarded by a mutex in axon_mpi_comm_context.c. */
struct axon_ctx_waiter {
    uint64_t priority; /* lower goes first; the same on every process for one operation */
    bool own;          /* contributed the real mask this round */
    bool live;         /* a round has ended: every member is in the operation (axon_ctx_register) */
    struct axon_ctx_waiter *next;
};
struct axon_ctx_state {
    uint32_t free_mask[AXON_CTX_WORDS]; /* bit set: id free */
    bool mask_in_use;                   /* a waiter's round is out with the real mask */
    struct axon_ctx_waiter *waiters;    /* sorted by priority */
};
enum axon_ctx_outcome { AXON_CTX_DONE, AXON_CTX_RETRY, AXON_CTX_EXHAUSTED };
#define AXON_CTX_CONTRIB_WORDS (AXON_CTX_WORDS + 1) /* the mask, then the ownership flag */

void axon_ctx_state_init(struct axon_ctx_state *s, uint32_t reserved); /* ids < reserved are taken */
/* rendezvous: the waiter may own the mask only once a round has ended, that is once every member has
 * entered the operation; until then it neither owns nor keeps later waiters from owning. A process
 * where several threads may create communicators needs that: a round that owns the mask while a member
 * has not entered yet holds the mask until it does, which may be never (see the top of
 * axon_mpi_comm_context.c). */
void axon_ctx_register(struct axon_ctx_state *s, struct axon_ctx_waiter *w, uint64_t priority, bool rendezvous);
void axon_ctx_unregister(struct axon_ctx_state *s, struct axon_ctx_waiter *w);
/* This round's contribution (AXON_CTX_CONTRIB_WORDS words; the team ANDs them). */
void axon_ctx_contribute(struct axon_ctx_state *s, struct axon_ctx_waiter *w, uint32_t *contrib);
/* What the AND of every contribution means: an id taken (DONE, every member owned its mask), another
 * round (RETRY), or no id left that all members have free (EXHAUSTED). */
enum axon_ctx_outcome axon_ctx_decide(struct axon_ctx_state *s, struct axon_ctx_waiter *w, const uint32_t *result,
                                      uint32_t *id);
void axon_ctx_release(struct axon_ctx_state *s, uint32_t id);
/* Takes the lowest free id of the local range (a communicator of one process); false if none is left. */
bool axon_ctx_take_local(struct axon_ctx_state *s, uint32_t *id);
int axon_ctx_lowest(const uint32_t *mask, int words); /* lowest set bit, or -1 */

/* Agrees on an id free on every member of the team (and of the bridged group, when b is given). Every
 * member calls it with the same priority. MPI_SUCCESS, MPI_ERR_INTERN (none left) or an error class of
 * the collectives. */
int axon_comm_context_alloc(const struct axon_comm_team *t, const struct axon_comm_bridge *b, uint64_t priority,
                            uint32_t *id);
/* For agreements that never hold the bitmap across communication (MPI_Comm_idup's, whose rounds may
 * wait for members that have not called yet): a copy of the free ids now; and the reservation of one,
 * which succeeds only while it is free and no blocking agreement holds the bitmap (whose owner counts
 * on its bits staying as it sent them). A reservation that the members do not all make is given back
 * with axon_comm_context_free. */
void axon_comm_context_snapshot(uint32_t *mask);
bool axon_comm_context_reserve(uint32_t id);
void axon_comm_context_free(uint32_t id);
void axon_comm_context_init(void);
/* Logs the agreement statistics (AXON_VERBOSE >= 1). */
void axon_comm_context_report(void);
/* Priorities: an operation over a communicator (its id), or a tagged one over part of it. */
static inline uint64_t axon_ctx_priority(uint32_t parent_id, bool tagged, int tag)
{
    return (uint64_t)parent_id << 32 | (uint64_t)(tagged ? 1u : 0u) << 31 | (uint32_t)tag;
}

/* ---- the table (axon_mpi_comm_table.c) ----------------------------------------------------------- */

/* What a new communicator is. */
struct axon_comm_spec {
    uint32_t context_index;
    struct axon_group *group;        /* the local group; the communicator takes its own reference */
    struct axon_group *remote_group; /* an intercommunicator's, else NULL */
    MPI_Errhandler errhandler;       /* inherited from the parent */
    MPI_Session session;             /* the session it derives from (the parent's or the group's); 0: none */
};

/* Makes a communicator with a handle (attached to the engine). MPI_ERR_NO_MEM or MPI_ERR_INTERN. */
int axon_comm_new(const struct axon_comm_spec *spec, struct axon_comm **out);
/* MPI_Comm_free's end: the handle goes at once; the object (and its context id) when no request uses
 * it any more. Its attributes must already be deleted. */
void axon_comm_release(struct axon_comm *c);
/* Destroys a communicator that never got to the user (a failed creation). */
void axon_comm_discard(struct axon_comm *c);
/* Builds the communicator over group (and remote_group) with the agreed id, inheriting from parent
 * (error handler, info hints); frees the id when it fails (the error raised on parent, as func). */
int axon_comm_make(const char *func, struct axon_comm *parent, uint32_t id, struct axon_group *group,
                   struct axon_group *remote_group, struct axon_comm **out);
/* Splits an intracommunicator by color (MPI_UNDEFINED: none), members ordered by key then rank: what
 * MPI_Comm_split does, with a color as wide as MPI_Comm_split_type needs (node and resource). */
int axon_comm_split_intra(const char *func, struct axon_comm *c, int64_t color, int key, MPI_Comm *newcomm);
/* MPI_Comm_dup's work, intra- and intercommunicators alike (blocking), and with info's hints (checked)
 * replacing the parent's. */
int axon_comm_dup_common(const char *func, struct axon_comm *c, MPI_Comm *newcomm);
int axon_comm_dup_info(const char *func, struct axon_comm *c, MPI_Info info, MPI_Comm *newcomm);
bool axon_comm_is_predefined(const struct axon_comm *c);
/* MPI_Intercomm_create's work once its arguments are checked: pc (at the local leader only, else NULL)
 * is the peer communicator, remote_leader the other leader's rank in it. */
int axon_comm_intercomm_create(const char *func, struct axon_comm *lc, int local_leader, struct axon_comm *pc,
                               int remote_leader, int tag, MPI_Comm *newintercomm);
/* A communicator's partitioned view (its fifth engine context), attached at the first call that needs it. */
int axon_comm_part_view(struct axon_comm *c, struct axon_pt2pt_comm **view);
/* The hidden communicator over the world group on which the sessions' creations agree (no handle). */
struct axon_comm *axon_mpi_comm_sessions(void);

/* MPI_Comm_split and MPI_Comm_create of an intercommunicator (axon_mpi_comm_inter.c); the arguments are
 * checked. */
int axon_comm_split_inter(const char *func, struct axon_comm *c, int color, int key, MPI_Comm *newcomm);
int axon_comm_create_inter(const char *func, struct axon_comm *c, struct axon_group *g, MPI_Comm *newcomm);

/* ---- attribute machinery (axon_mpi_attr.c), shared by communicators, datatypes and windows ------ */

/* The object kinds of keyvals, as MPICH encodes them in bits 22-25 of a keyval handle. */
enum axon_attr_kind { AXON_ATTR_COMM = 1, AXON_ATTR_TYPE = 3, AXON_ATTR_WIN = 8 };
/* MPI_Comm_copy_attr_function, MPI_Type_copy_attr_function and MPI_Win_copy_attr_function are the same C
 * type (handles are ints), and so are the delete functions. */
typedef int axon_attr_copy_fn(int object, int keyval, void *extra_state, void *in, void *out, int *flag);
typedef int axon_attr_delete_fn(int object, int keyval, void *value, void *extra_state);

/* Each returns MPI_SUCCESS, MPI_ERR_KEYVAL (not a live keyval of that kind), MPI_ERR_NO_MEM, or the class
 * a callback returned. object is the handle the callbacks get; list is the object's attribute list. */
int axon_attr_keyval_create(enum axon_attr_kind kind, axon_attr_copy_fn *copy, axon_attr_delete_fn *del,
                            void *extra_state, int *handle);
int axon_attr_keyval_free(enum axon_attr_kind kind, int handle);
int axon_attr_set(enum axon_attr_kind kind, struct axon_attr **list, int object, int keyval, void *value);
int axon_attr_get(enum axon_attr_kind kind, struct axon_attr **list, int keyval, void **value, int *flag);
int axon_attr_delete(enum axon_attr_kind kind, struct axon_attr **list, int object, int keyval);
/* A duplication's copy callbacks: from one list onto another. */
int axon_attr_copy_all(struct axon_attr **from, int old_object, struct axon_attr **to);
/* A free's delete callbacks, newest attribute first; stops at a failing one and returns its class. */
int axon_attr_delete_all(struct axon_attr **list, int object);
/* Frees the records without callbacks. */
void axon_attr_drop(struct axon_attr **list);
bool axon_attr_any(struct axon_attr **list);
void axon_attr_table_finalize(void);

/* ---- communicator attributes (axon_mpi_comm_attr.c) ------------------------------------------------ */

/* MPI_Comm_dup's copy callbacks: from old onto new. MPI_SUCCESS or the class a callback returned. */
int axon_comm_attr_copy(struct axon_comm *old, struct axon_comm *new_comm);
/* MPI_Comm_free's delete callbacks, newest attribute first; stops at a failing one and returns its class. */
int axon_comm_attr_delete_all(struct axon_comm *c);
/* Frees the attribute records without callbacks (finalize, failed creations). */
void axon_comm_attr_drop(struct axon_comm *c);

/* ---- info objects (axon_mpi_info.c) -------------------------------------------------------------- */

/* Whether a handle is a live info object (MPI_INFO_ENV included, MPI_INFO_NULL not). */
bool axon_mpi_info_valid(MPI_Info info);
/* A copy of info as a new handle (MPI_INFO_NULL gives an empty one). */
int axon_mpi_info_dup_handle(MPI_Info info, MPI_Info *out);
/* Frees a handle the library made. */
void axon_mpi_info_release(MPI_Info info);
/* Fills MPI_INFO_ENV at the library's start: command, argv, maxprocs, wdir and mpi_memory_alloc_kinds. */
void axon_mpi_info_env_fill(void);

/* ---- memory allocation kinds (axon_mpi_memkinds.c) ------------------------------------------------- */

#define AXON_MPI_MEMKINDS_KEY "mpi_memory_alloc_kinds"
#define AXON_MPI_MEMKINDS_ASSERT_KEY "mpi_assert_memory_alloc_kinds"
/* The value of "mpi_memory_alloc_kinds": the kinds supported, then those of requested (a comma-separated
 * list, or NULL) that are supported. MPI_ERR_INFO_VALUE when it does not fit size bytes. */
int axon_mpi_memkinds_resolve(const char *requested, char *out, size_t size);
/* The kinds of an "mpi_assert_memory_alloc_kinds" list that are supported. */
int axon_mpi_memkinds_restrict(const char *asserted, char *out, size_t size);
/* The world model's value, from what AXON_MEMORY_ALLOC_KINDS (mpirun -memory-alloc-kinds) asks for. */
int axon_mpi_memkinds_world(char *out, size_t size);
/* Whether info asserts (mpi_assert_memory_alloc_kinds) that only host kinds (system, mpi) are used. */
bool axon_mpi_memkinds_host_only(MPI_Info info);
/* Whether a list of kinds names "cuda" with the restrictor "device" while CUDA support is on: the memory
 * MPI_Win_allocate makes is then the GPU's. */
bool axon_mpi_memkinds_asks_device(const char *list);
/* Gives c the hints of copy (an info object c now owns, or MPI_INFO_NULL for none) in place of its own,
 * and applies those that change how the library works on c (today: the assertion above, which marks
 * every view of c host-only). Every change of c->info goes through it (axon_mpi_comm_create.c). */
void axon_comm_info_adopt(struct axon_comm *c, MPI_Info copy);
/* A copy of info for a communicator to adopt: MPI_INFO_NULL for none, and when the copy fails (hints are
 * hints: losing them is no error). */
MPI_Info axon_comm_info_copy(MPI_Info info);
/* A session's value (axon_mpi_session.c); false when handle is no live session. */
bool axon_mpi_session_memkinds(MPI_Session handle, char *out, size_t size);

#endif
