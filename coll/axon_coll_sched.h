/* Collective schedules: a collective is a list of rounds; each round is a set of steps (send, receive,
 * local copy, local reduce) that start together, and the next round starts when every step of the
 * current one has completed. The algorithms (coll/axon_coll_<name>.c) only build schedules; the engine
 * (axon_coll_sched.c) runs them, from the progress hook and from the waiting calls, so blocking and
 * nonblocking collectives share every algorithm and any number of schedules can be outstanding.
 *
 * A schedule's messages travel on one engine context (a communicator's internal `coll` one) with one
 * tag, which the caller derives from the communicator's collective sequence number: every member calls
 * collectives in the same order, so the tags agree, and the non-overtaking rule of point-to-point keeps
 * the rounds of one schedule apart (a round's receives are posted in the order of its sends).
 *
 * Building never fails half-way for the caller: the first error (out of memory) sticks to the schedule
 * and axon_coll_sched_start returns it. */
#ifndef AXON_COLL_SCHED_H
#define AXON_COLL_SCHED_H

#include "coll/axon_coll_select.h"
#include "pt2pt/pt2pt.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct axon_coll_sched;
struct axon_coll_op;

/* Plain bytes: the layout of packed scratch data. */
extern const struct axon_dtype_layout axon_coll_bytes;

/* rank and size are the caller's in the communicator whose engine context pc is (pc may be NULL under
 * a test transport). */
int axon_coll_sched_create(struct axon_pt2pt_comm *pc, int rank, int size, int tag, struct axon_coll_sched **out);
/* The group that the steps added next talk within: its engine context, and the caller's rank in it and
 * its size, which algorithms read back below. An intercommunicator's collective moves between its
 * local group and the bridge to the remote one (coll/axon_coll_inter.c); the tag stays the schedule's. */
void axon_coll_sched_set_group(struct axon_coll_sched *s, struct axon_pt2pt_comm *pc, int rank, int size);
int axon_coll_sched_rank(const struct axon_coll_sched *s);
int axon_coll_sched_size(const struct axon_coll_sched *s);
/* The group's node map (coll/axon_coll_hier.h; it must outlive the schedule's building), for the
 * hierarchical compositions; NULL: unknown. axon_coll_sched_nodes gives it back, or NULL inside a
 * subgroup. */
struct axon_coll_nodes;
void axon_coll_sched_set_nodes(struct axon_coll_sched *s, const struct axon_coll_nodes *nodes);
const struct axon_coll_nodes *axon_coll_sched_nodes(const struct axon_coll_sched *s);
/* A choice that the cost model's answers in the group's map could not make yet (coll/axon_coll_select.h):
 * the selection took the rules' algorithm instead and noted the question here, the first one of the
 * build only (the choices after it followed from that stand-in). Whoever builds the schedule has the
 * model answer it (coll/axon_coll_select_model.h) and builds again; the simulator's dry schedules keep
 * theirs unanswered. */
struct axon_coll_sched_miss {
    enum axon_coll_kind kind;
    int nranks;                          /* the group's size */
    int64_t bytes;                       /* the selection's size of the call */
    unsigned have;                       /* what the call offers (AXON_COLL_NEEDS_*) */
    const struct axon_coll_nodes *nodes; /* the group's map, which keeps the answer */
};
void axon_coll_sched_miss_note(struct axon_coll_sched *s, const struct axon_coll_sched_miss *m);
/* Whether the build met such a choice; *m gets the first. */
bool axon_coll_sched_miss_get(const struct axon_coll_sched *s, struct axon_coll_sched_miss *m);
/* The steps added next talk within a subgroup: its rank i is the group's members[i] (sorted or not;
 * the array must outlive the building), and axon_coll_sched_rank/size answer for the subgroup (rank -1
 * for a rank outside it, which must add nothing meanwhile). NULL: the whole group again. A composition
 * runs any algorithm on part of a communicator this way, on the communicator's own context and tag:
 * each phase's messages between two ranks pair in posting order, as within one algorithm. */
void axon_coll_sched_set_subgroup(struct axon_coll_sched *s, const int *members, int size);
/* The operation of the schedule's reduce steps: op (retained until the schedule ends) on elements of
 * datatype, whose layout is dt. */
void axon_coll_sched_set_op(struct axon_coll_sched *s, struct axon_coll_op *op, MPI_Datatype datatype,
                            const struct axon_dtype_layout *dt);
/* The schedule's data lives on GPU device of memory kind kind (memkind/axon_memkind.h): the data scratch
 * that axon_coll_sched_alloc hands out from now on is device memory, copy steps copy through the
 * driver and reduce steps run kernel (axon_coll_op_gpu_kernel of the schedule's operation), so a
 * reduction of GPU buffers never takes its data through the host. Every layout of its steps must be
 * contiguous. Messages go through the point-to-point engine, which moves GPU memory itself. */
void axon_coll_sched_set_gpu(struct axon_coll_sched *s, enum axon_memkind kind, int device, int kernel);
/* The GPU of a GPU schedule, -1 for host data; its memory kind (AXON_MEMKIND_HOST for host data). */
int axon_coll_sched_gpu_device(const struct axon_coll_sched *s);
enum axon_memkind axon_coll_sched_gpu_kind(const struct axon_coll_sched *s);
/* The members agreed that every one of their buffers is GPU memory (the MPI layer asks them, for large
 * blocking reductions): rules for device data apply (AXON_COLL_NEEDS_DEVICE from
 * axon_coll_sched_device_have, else 0). Every member sets it alike, or none does. */
void axon_coll_sched_set_all_device(struct axon_coll_sched *s);
/* A nonblocking collective with the progress thread running: when the thread has CPUs of its own,
 * axon_coll_sched_start only queues it, and the thread runs it from its first round on (the input's
 * packing, the first reductions), so the caller goes back to computing at once. Without it, the first
 * round runs in the call, which is time the computation cannot overlap
 * (bench/results/2026-11-26-h200-gpu-copies.md). */
void axon_coll_sched_set_handoff(struct axon_coll_sched *s);
unsigned axon_coll_sched_device_have(const struct axon_coll_sched *s);
/* Device memory on GPU device of memory kind kind, whatever the schedule's data, given back when it ends
 * (to the kind's cache); NULL, the error recorded, when the GPU is out of memory. */
void *axon_coll_sched_alloc_device(struct axon_coll_sched *s, enum axon_memkind kind, size_t bytes, int device);
/* Whether the schedule is dry (built for the simulator, never run). */
bool axon_coll_sched_is_dry(const struct axon_coll_sched *s);
/* The schedule's operation, its datatype and layout (axon_coll_sched_set_op). */
void axon_coll_sched_get_op(const struct axon_coll_sched *s, struct axon_coll_op **op, MPI_Datatype *datatype,
                            const struct axon_dtype_layout **dt);
/* The rank in MPI_COMM_WORLD of peer (a rank of the group, or of the subgroup set). */
int axon_coll_sched_world_rank(const struct axon_coll_sched *s, int peer);
/* A copy of layout dt that lives (its data loop retained) as long as the schedule: what call steps read
 * when they run, after the caller's layouts are gone. NULL when out of memory (recorded). */
const struct axon_dtype_layout *axon_coll_sched_keep_layout(struct axon_coll_sched *s,
                                                            const struct axon_dtype_layout *dt);
/* A local step that calls fn(arg) when its round starts (its error fails the schedule, as a copy's):
 * for algorithms whose work is known only when they run (GPU memory mapped from peers). The simulator
 * sees it as a copy of bytes. */
void axon_coll_sched_call(struct axon_coll_sched *s, int (*fn)(void *arg), void *arg, int64_t bytes);
/* The same for work on GPUs: fn starts ops GPU operations (copies, kernels) and waits for them, moving
 * bytes (a copy's, or half a kernel's memory traffic). The simulator sees GPU work of that size. */
void axon_coll_sched_call_gpu(struct axon_coll_sched *s, int (*fn)(void *arg), void *arg, int64_t bytes, int ops);
/* Whether the schedule's operation commutes (true when it has none). */
bool axon_coll_sched_commutative(const struct axon_coll_sched *s);
/* Scratch memory that lives as long as the schedule (NULL, and the error recorded, when out of memory;
 * a zero size gives a valid pointer). */
void *axon_coll_sched_alloc(struct axon_coll_sched *s, size_t bytes);

/* Ends the current round: the steps added next form a new one. Empty rounds are dropped. */
void axon_coll_sched_round(struct axon_coll_sched *s);
/* count elements of layout dt at buf, to or from rank peer (MPI_PROC_NULL: no step). */
void axon_coll_sched_send(struct axon_coll_sched *s, const void *buf, int64_t count,
                          const struct axon_dtype_layout *dt, int peer);
void axon_coll_sched_recv(struct axon_coll_sched *s, void *buf, int64_t count, const struct axon_dtype_layout *dt,
                          int peer);
/* A local copy between typed buffers (packing or unpacking when one of them is plain bytes). */
void axon_coll_sched_copy(struct axon_coll_sched *s, const void *src, int64_t scount,
                          const struct axon_dtype_layout *sdt, void *dst, int64_t dcount,
                          const struct axon_dtype_layout *ddt);
/* The copy of a copy step, done now: the data of scount elements of sdt at src into dcount elements of
 * ddt at dst (MPI_ERR_TRUNCATE when it does not fit, MPI_ERR_NO_MEM). For code that runs outside
 * schedules (coll/axon_coll_shm.c). */
int axon_coll_data_copy(const void *src, int64_t scount, const struct axon_dtype_layout *sdt, void *dst,
                        int64_t dcount, const struct axon_dtype_layout *ddt);
/* Bytes [off, off + len) of the packed form of count elements of dt at buf, copied out to packed, or in
 * from it: the pieces of a message moved in chunks whose edges need not fall between elements. */
int axon_coll_data_pack_range(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int64_t off,
                              void *packed, int64_t len);
int axon_coll_data_unpack_range(void *buf, int64_t count, const struct axon_dtype_layout *dt, int64_t off,
                                const void *packed, int64_t len);
/* inout = in op inout over count packed elements of the schedule's datatype. */
void axon_coll_sched_reduce(struct axon_coll_sched *s, const void *in, void *inout, int64_t count);

/* ---- dry schedules ------------------------------------------------------------------------------
 * The simulator (coll/axon_coll_simulate.h) builds schedules with the very algorithms the collectives
 * use, for hundreds of thousands of ranks and messages of gigabytes, and reads their steps back instead
 * of running them. A dry schedule is built as usual, but its data scratch (axon_coll_sched_alloc) is a
 * placeholder: an address in a large range reserved once with no access, handed out without allocating
 * or touching anything, so a stray access faults at once. The caller's own buffers of a dry schedule
 * come from the same call. What the builder itself reads and writes (tables of positions, lists of
 * blocks) comes from axon_coll_sched_alloc_meta, real memory in both modes. A dry schedule is never
 * started (axon_coll_sched_start refuses it with MPI_ERR_INTERN); it is read with axon_coll_sched_steps
 * and discarded. */
void axon_coll_sched_set_dry(struct axon_coll_sched *s);
/* A dry schedule of GPU buffers on a group that is one NVLink domain: the domain algorithms
 * (coll/axon_coll_domain.h) are offered and built as if every member's GPU exported its memory. Also
 * marks every member's buffers as GPU memory (axon_coll_sched_set_all_device). */
void axon_coll_sched_set_dry_domain(struct axon_coll_sched *s);
bool axon_coll_sched_is_dry_domain(const struct axon_coll_sched *s);
/* Scratch that the building code itself reads or writes: the same as axon_coll_sched_alloc, but real
 * memory in a dry schedule too. */
void *axon_coll_sched_alloc_meta(struct axon_coll_sched *s, size_t bytes);

/* AXON_COLL_GPU is never a step of a schedule: axon_coll_sched_steps reports a GPU call step so. */
enum axon_coll_step_kind { AXON_COLL_SEND, AXON_COLL_RECV, AXON_COLL_COPY, AXON_COLL_REDUCE, AXON_COLL_GPU };
/* A step as the simulator sees it. */
struct axon_coll_step_info {
    enum axon_coll_step_kind kind;
    int peer;        /* send, recv: the rank in the step's group; GPU work: its operations */
    int64_t bytes;   /* packed bytes sent, received, copied (0 for a copy onto itself) or reduced; GPU work:
                      * axon_coll_sched_call_gpu's */
    bool round_end;  /* the last step of its round */
    bool host;       /* send, recv of a dry schedule: of the builder's own memory (a domain algorithm's
                      * descriptors, a barrier's empty messages), host memory whatever the call's */
};
/* Calls fn for every step of a built schedule, in order (the steps added since the last
 * axon_coll_sched_round form the last round). Returns the schedule's building error if it has one, else
 * the first non-zero value fn returns, else MPI_SUCCESS. */
int axon_coll_sched_steps(const struct axon_coll_sched *s, int (*fn)(void *arg, const struct axon_coll_step_info *st),
                          void *arg);

/* Hands the schedule to the engine, which frees it when it ends and then completes req (may be NULL).
 * On an error (one recorded while building) nothing starts: the caller still owns s and discards it. */
int axon_coll_sched_start(struct axon_coll_sched *s, struct axon_request *req);
/* Frees a schedule that was not started. */
void axon_coll_sched_discard(struct axon_coll_sched *s);
/* Called once the schedule ends, with its error, before req is completed; what fn returns is the error
 * req completes with (the MPI layer copies staged GPU buffers back there, and a failed copy fails the
 * collective; tests record the end). */
void axon_coll_sched_on_end(struct axon_coll_sched *s, int (*fn)(void *arg, int err), void *arg);

/* Called once the schedule ends (after its end hook) with its error, which fn may change: fn returns the
 * schedule that continues the same request, built (axon_coll_sched_built says it is sound) and not
 * started, which the engine then runs in its place; or NULL, and the request completes with the error.
 * For a call that learns from a round among its members (where their buffers are) how to go on; fn runs
 * inside the progress hook, where it may build schedules. */
void axon_coll_sched_then(struct axon_coll_sched *s, struct axon_coll_sched *(*fn)(void *arg, int *err), void *arg);
/* Closes the last round of a built schedule and returns its building error (MPI_SUCCESS when sound). */
int axon_coll_sched_built(struct axon_coll_sched *s);

/* The progress hook: advances every outstanding schedule; non-zero when one moved. */
int axon_coll_progress(void);
/* Schedules outstanding (tests, MPI_Finalize diagnostics). */
int axon_coll_outstanding(void);

/* How schedules move messages: the point-to-point engine, or a fake for unit tests. */
struct axon_coll_transport {
    int (*isend)(const void *buf, int64_t count, const struct axon_dtype_layout *dt, int peer, int tag,
                 struct axon_pt2pt_comm *pc, void **handle);
    int (*irecv)(void *buf, int64_t count, const struct axon_dtype_layout *dt, int peer, int tag,
                 struct axon_pt2pt_comm *pc, void **handle);
    /* Whether the operation has completed; *err gets its error then. */
    bool (*done)(void *handle, int *err);
    void (*release)(void *handle);
};
/* NULL restores the point-to-point engine. */
void axon_coll_sched_set_transport(const struct axon_coll_transport *t);

/* MPI_Init and MPI_Finalize. */
int axon_coll_init(void);
void axon_coll_finalize(void);

#endif
