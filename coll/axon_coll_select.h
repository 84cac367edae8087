/* Algorithm selection. Each collective (a kind) has a table of algorithms and default rules, owned by
 * the file of that collective (coll/axon_coll_<name>.c) and published as its descriptor; this module
 * only picks. A call's algorithm is the one AXON_COLL_<NAME>_ALG names when it applies to the call,
 * else, with AXON_COLL_SELECT=model, the cost model's answer for it, else that of the first rule that
 * matches the communicator size and the message size and whose algorithm applies. axon_info prints
 * every table and rule.
 *
 * This is all the algorithms depend on to choose. The cost model's answers are worked out outside them
 * (coll/axon_coll_select_model.h) by the simulator, which builds schedules with the algorithms: the
 * simulator calls the algorithms, never the reverse, so neither this module nor any algorithm includes
 * or calls the simulator or the model's side of the selection.
 *
 * The knobs themselves are entries of the runtime's table (runtime/axon_runtime_config.c), of type
 * enum with the values "auto|<algorithm 0>|<algorithm 1>|...": that table is the one place knobs are
 * declared. A unit test (tests/unit/test_coll_select.c) checks that its words and ours agree. */
#ifndef AXON_COLL_SELECT_H
#define AXON_COLL_SELECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum axon_coll_kind {
    AXON_COLL_KIND_BARRIER,
    AXON_COLL_KIND_BCAST,
    AXON_COLL_KIND_REDUCE,
    AXON_COLL_KIND_ALLREDUCE,
    AXON_COLL_KIND_GATHER,
    AXON_COLL_KIND_SCATTER,
    AXON_COLL_KIND_ALLGATHER,
    AXON_COLL_KIND_ALLTOALL,
    AXON_COLL_KIND_REDUCE_SCATTER,
    AXON_COLL_KIND_SCAN,
    AXON_COLL_NKINDS
};

/* What an algorithm needs of a call; a call says what it offers (axon_coll_select's `have`). */
enum {
    AXON_COLL_NEEDS_COMMUTATIVE = 1u << 0, /* the operation commutes (it may reorder the ranks) */
    AXON_COLL_NEEDS_UNIFORM = 1u << 1,     /* every rank's block has the same size (not the v and w forms) */
    AXON_COLL_NEEDS_NODES = 1u << 2,       /* the group spans nodes, some of several ranks, and the schedule
                                            * knows which (coll/axon_coll_hier.h) */
    AXON_COLL_NEEDS_DOMAIN = 1u << 3,      /* the group is one NVLink domain with CUDA IPC and kernels for
                                            * the operation (coll/axon_coll_domain.h) */
    AXON_COLL_NEEDS_DEVICE = 1u << 4,      /* every member's buffers are GPU memory, as the members agreed
                                            * (axon_coll_sched_set_all_device): rules only */
};

struct axon_coll_alg {
    const char *name;  /* the word of AXON_COLL_<NAME>_ALG */
    const char *about; /* one line for axon_info */
    unsigned needs;    /* AXON_COLL_NEEDS_* */
};

/* Matches a call on at most max_ranks ranks (0: any number) of at most max_bytes bytes (-1: any size). */
struct axon_coll_rule {
    int max_ranks;
    int64_t max_bytes;
    int alg;       /* index in the descriptor's algs */
    unsigned when; /* AXON_COLL_NEEDS_* the call must offer besides the algorithm's own needs (0: none) */
};

struct axon_coll_desc {
    const char *name;  /* "allreduce": the knob is AXON_COLL_ALLREDUCE_ALG */
    const char *bytes; /* what the message size of a rule counts, for axon_info */
    const struct axon_coll_alg *algs;
    int nalgs;
    const struct axon_coll_rule *rules; /* the last one should match every call */
    int nrules;
};

/* The descriptors, one per kind (defined in each collective's file). */
extern const struct axon_coll_desc axon_coll_barrier_desc, axon_coll_bcast_desc, axon_coll_reduce_desc,
    axon_coll_allreduce_desc, axon_coll_gather_desc, axon_coll_scatter_desc, axon_coll_allgather_desc,
    axon_coll_alltoall_desc, axon_coll_reduce_scatter_desc, axon_coll_scan_desc;

const struct axon_coll_desc *axon_coll_desc_of(enum axon_coll_kind kind);

/* The algorithm (an index in the kind's algs) for a call on nranks ranks moving bytes bytes, which
 * offers `have` (AXON_COLL_NEEDS_* bits). forced is the knob's value: -1 for auto, else an index. An
 * algorithm whose needs the call does not meet is never chosen; when nothing applies, the result is 0,
 * which every table keeps for an algorithm that needs nothing. */
int axon_coll_select_with(const struct axon_coll_desc *d, long forced, int nranks, int64_t bytes, unsigned have);
/* The same with the knob of the kind from the configuration (axon_config). */
int axon_coll_select(enum axon_coll_kind kind, int nranks, int64_t bytes, unsigned have);

/* The choice for a call of a schedule, through which every collective's entry point chooses:
 * axon_coll_select's, or with AXON_COLL_SELECT=model and no knob forcing one, the cost model's answer
 * for the call, which the group's node map keeps (struct axon_coll_nodes, coll/axon_coll_hier.h). It
 * only looks answers up. A call whose answer the map lacks yet takes the rules' algorithm and notes the
 * question on the schedule (axon_coll_sched_miss_note); whoever builds the schedule has the model answer
 * it and builds the schedule again (coll/axon_coll_select_model.h), so the schedule that runs takes the
 * model's answers. A map that never gets answers (the simulator's) leaves every call to the
 * rules.
 *
 * The model answers for groups of nodes of one size and at most AXON_COLL_MODEL_MAX_RANKS ranks (the
 * first call of a class would wait too long beyond), never inside a composition's subgroup (no map). */
struct axon_coll_sched;
int axon_coll_select_sched(enum axon_coll_kind kind, struct axon_coll_sched *s, int64_t bytes, unsigned have);

/* The model's answers in a map: one per kind, size class and offers, each an algorithm, or one of: */
enum {
    AXON_COLL_MODEL_UNKNOWN = -1, /* not worked out yet */
    AXON_COLL_MODEL_RULES = -2,   /* the model has no answer (a kind the simulator does not build): the
                                   * rules choose, call by call */
};
enum {
    AXON_COLL_MODEL_MAX_RANKS = 4096,
    AXON_COLL_MODEL_CLASSES = 48, /* 0 bytes, then [2^(c-1), 2^c) */
    AXON_COLL_MODEL_SLOTS = AXON_COLL_NKINDS * AXON_COLL_MODEL_CLASSES * 4,
};
/* The slot of a call's answer: its kind, the class of its bytes, and what it offers of a commutative
 * operation and equal blocks, which make classes of their own (a v-form must never get an algorithm
 * chosen for the equal-block form of the same size). */
int axon_coll_select_model_slot(enum axon_coll_kind kind, int64_t bytes, unsigned have);

/* The knob's configuration value for a kind: -1 (auto) or an algorithm index. */
long axon_coll_select_forced(enum axon_coll_kind kind);

/* Every kind's algorithms and rules, for axon_info. */
void axon_coll_select_print(FILE *out);

/* How often the members of a communicator ask each other where their buffers are (coll/axon_coll_agree.c):
 * after k answers in a row that every buffer is host memory, the next 2^k - 1 calls that would ask
 * (at most 63) take that answer for granted, and a program of host buffers pays for the question about
 * once in 64 calls. Any other answer starts over. Every member sees the same answers in the same order,
 * so all skip alike. A skipped call whose buffers are on GPUs after all is staged through host memory. */
struct axon_coll_agree_memo {
    unsigned streak; /* host-only answers in a row (at most 6) */
    unsigned skip;   /* calls left that do not ask */
};
/* Whether the next call skips the question (and counts it). */
bool axon_coll_agree_memo_skip(struct axon_coll_agree_memo *m);
/* An answer came back: every buffer host memory, or not. */
void axon_coll_agree_memo_learn(struct axon_coll_agree_memo *m, bool all_host);

#endif
