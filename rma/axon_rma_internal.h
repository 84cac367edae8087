/* Internals of the one-sided engine, shared by its files: the window object, how each target is
 * reached, the control block of a rank in node shared memory, the messages of the remote path, and the
 * engine's few collectives. rma/rma.h is what the MPI layer sees. */
#ifndef AXON_RMA_INTERNAL_H
#define AXON_RMA_INTERNAL_H

#include "rma/rma.h"
#include "memkind/axon_memkind.h"
#include "ucx_glue/ucx_glue.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How this rank reaches a target's memory. */
enum axon_rma_path {
    AXON_RMA_PATH_DIRECT, /* mapped here (itself, or a node peer's shared window): loads and stores */
    AXON_RMA_PATH_CMA,    /* a node peer's own memory: process_vm_readv/_writev */
    AXON_RMA_PATH_AM,     /* messages that the target serves */
};

/* A large single copy an origin shares with the rank (axon_rma_split.c): who posted it, the job word
 * (generation, chunk count, next chunk), the chunks done, and what is copied. */
struct axon_rma_help {
    _Atomic uint32_t owner;      /* the posting origin's pid; 0: free */
    _Atomic uint32_t done;
    _Atomic uint64_t job;
    _Atomic uint32_t failed;     /* a helper's copy failed: the origin copies it all again */
    int32_t origin_pid;
    uint64_t origin_addr, target_addr, bytes;
    uint32_t chunk;              /* bytes of a chunk (the last may be shorter) */
    bool put;
    char pad[11];
};

/* A rank's control block, two cache lines each in its node's segment. The lock word holds the exclusive
 * bit and the count of shared holders; the accumulate mutex serializes every accumulate into the rank's
 * memory (a spin lock: it is held only while bytes are combined, never across a wait); the help block,
 * on its own line, is polled by the rank's progress. */
#define AXON_RMA_LOCK_EXCL (UINT64_C(1) << 63)
struct axon_rma_ctrl {
    _Atomic uint64_t lock;
    _Atomic uint32_t acc_mutex;
    uint32_t pad0;
    char pad[48];
    struct axon_rma_help help;
};
_Static_assert(sizeof(struct axon_rma_help) == 64, "the help block fills its cache line");
_Static_assert(sizeof(struct axon_rma_ctrl) == 128, "two cache lines per rank");

/* What every member tells the others when a window is made. */
struct axon_rma_peer_info {
    int64_t size, disp_unit;
    uint64_t base;          /* its memory, as an address in its own process */
    uint64_t probe_addr;    /* a word of its process whose value is probe_value (the single-copy test) */
    uint64_t probe_value;
    int32_t pid;
    int32_t host;           /* its machine: ranks of one machine share memory */
    int32_t kind;           /* enum axon_memkind of its memory */
    int32_t failed;         /* it could not make its memory: every member fails the creation */
    /* Device memory: a struct axon_memkind_ipc_desc with no parts, its IPC handle for node peers (the
     * descriptor's kind HOST: none). */
    unsigned char ipc[sizeof(struct axon_memkind_ipc_desc)];
};

/* One target as this rank sees it. */
struct axon_rma_target {
    enum axon_rma_path path;
    char *mapped;              /* DIRECT: its memory here */
    enum axon_memkind kind;    /* DIRECT: what `mapped` is (device memory: its own, or a node peer's
                                * opened through IPC), reached by the kind's copies on `device` */
    int device;
    struct axon_memkind_ipc_desc *ipc; /* a node peer's device memory opened here (closed at the end) */
    struct axon_rma_ctrl *ctrl; /* its control block here (NULL: another machine) */
    uint64_t base;             /* its memory in its own process (CMA) */
    int64_t size, disp_unit;
    pid_t pid;
    /* The origin's state towards it. */
    int lock;                  /* 0, MPI_LOCK_SHARED or MPI_LOCK_EXCLUSIVE (held by lock or lock_all) */
    bool lock_nocheck;         /* taken with MPI_MODE_NOCHECK: nothing was acquired */
    bool started;              /* in the access group of MPI_Win_start */
    /* UCX puts and gets (remote targets of windows that registered their memory: axon_rma_ucx.c). */
    ucp_rkey_h rkey;           /* NULL: everything by messages */
    uint64_t remote_base;      /* its memory, as an address in its own process */
    uint32_t ucx_unflushed;    /* puts and gets issued since its last flush (updated atomically: threads
                                * of the rank may issue and flush at once) */
};

/* An operation of the remote path still waited for at the origin: the answer's receive (get,
 * get-accumulate, compare-and-swap, a flush's or a lock's acknowledgement) or the request's send. */
struct axon_rma_pending {
    struct axon_rma_pending *next;
    struct axon_request *req;   /* the engine's own request */
    struct axon_request *user;  /* the program's request that completes with it, or NULL */
    void *buf;                  /* freed when it completes (a packed request) */
    int target;
};

/* A dynamic window's attached regions. */
struct axon_rma_region {
    uint64_t base, size;
};

/* A request the target took and is serving, in the order it took them (ops of one origin apply in the
 * order they were issued). */
struct axon_rma_incoming {
    struct axon_rma_incoming *next;
    struct axon_request *req; /* the receive of the message */
    char *msg;
    int64_t bytes;
    int source;
};

/* A lock a remote origin asked for and did not get yet. */
struct axon_rma_lock_wait {
    struct axon_rma_lock_wait *next;
    int source, lock_type, reply_tag;
};

/* Epochs of this rank as an origin. */
enum axon_rma_access {
    AXON_RMA_ACCESS_NONE,
    AXON_RMA_ACCESS_FENCE,   /* since a fence without MPI_MODE_NOSUCCEED */
};

struct axon_rma_win {
    struct axon_rma_win *next;  /* in the engine's list of live windows (the hook serves them) */
    enum axon_rma_flavor flavor;
    int rank, size;
    struct axon_pt2pt_comm *ops, *reply, *coll;
    char *base;                 /* this rank's memory */
    int64_t local_size, disp_unit;
    enum axon_memkind kind;     /* of that memory, and its device (host: -1) */
    int device;
    bool device_owned;          /* the engine allocated it on the device (MPI_Win_allocate, "cuda:device") */
    struct axon_memkind_ipc_desc *ipc; /* device memory: its export to node peers (NULL: none) */
    struct axon_rma_target *targets;
    struct axon_rma_ctrl *my_ctrl;

    /* The node's segment: control blocks of the node's members, then their memory (ALLOCATE, SHARED). */
    void *seg;
    size_t seg_bytes;

    /* Origin side. */
    enum axon_rma_access access;
    int nlocks;                 /* targets locked (lock or lock_all) */
    bool lock_all;
    int *start_group;           /* MPI_Win_start's targets */
    int nstart;
    struct axon_rma_pending *pending;
    uint32_t next_tag;          /* the answers' tags on the reply context, counted (atomically) from
                                 * AXON_RMA_TAG_REPLY_MIN */
    /* Target side. */
    int *post_group;            /* MPI_Win_post's origins still to complete */
    int npost, npost_done;
    bool *post_done;
    struct axon_rma_incoming *incoming, **incoming_tail;
    struct axon_rma_lock_wait *lock_waits;
    struct axon_rma_region *regions; /* DYNAMIC */
    int nregions, cap_regions;

    bool ready;                 /* made: the target side serves requests from here on */
    bool any_am;                /* some member is reached by messages (and so reaches us by them): each
                                 * operation polls progress, so a rank that spins on operations (a
                                 * compare-and-swap loop) still serves the others */
    uint64_t probe_word;
    struct axon_ucx_rma_mem ucx_mem; /* this rank's memory, registered for UCX puts and gets */
};

/* Tags. On the coll context: the engine's collectives and the active-target notices. On the reply
 * context: an answer's tag is its request's (AXON_RMA_TAG_REPLY_MIN and up). */
enum {
    AXON_RMA_TAG_POST = 1,     /* a target's MPI_Win_post, to each origin of its group */
    AXON_RMA_TAG_COMPLETE = 2, /* an origin's MPI_Win_complete, to each target */
    AXON_RMA_TAG_NAME = 3,     /* the node segment's name, from the node's first member */
    AXON_RMA_TAG_GATHER = 4,   /* the exchange at creation */
    AXON_RMA_TAG_BARRIER = 16, /* + round */
    AXON_RMA_TAG_REPLY_MIN = 1,
};

/* ---- the remote path's messages ------------------------------------------------------------------- */

enum axon_rma_msg_kind {
    AXON_RMA_MSG_PUT = 1,
    AXON_RMA_MSG_GET,
    AXON_RMA_MSG_ACC,
    AXON_RMA_MSG_GET_ACC,
    AXON_RMA_MSG_CAS,
    AXON_RMA_MSG_LOCK,    /* answered once granted */
    AXON_RMA_MSG_UNLOCK,  /* answered once everything before it is applied and the lock released */
};

/* A request: the header, nseg pieces of the target's memory (offset from `where`, length), then the
 * data (a put's or an accumulate's packed origin data; a compare-and-swap's new value, then the value
 * to compare). */
struct axon_rma_msg {
    uint32_t kind;
    int32_t reply_tag;
    int32_t lock_type;
    int32_t basic;        /* MPI_Datatype of the elements (accumulates) */
    int32_t op;           /* MPI_Op (accumulates) */
    int32_t basic_size;
    uint64_t where;       /* byte offset in the window, or an address (dynamic windows) */
    int64_t nseg;
    int64_t data_bytes;
};
struct axon_rma_seg {
    int64_t off, len;
};

/* ---- between the engine's files ------------------------------------------------------------------- */

/* A window rank's rank in MPI_COMM_WORLD. */
static inline int axon_rma_world_rank(const struct axon_pt2pt_comm *v, int rank)
{
    return v->world_ranks ? v->world_ranks[rank] : rank;
}

/* axon_rma_coll.c: collectives over the window's coll context. */
int axon_rma_barrier(struct axon_rma_win *w);
int axon_rma_allgather(struct axon_rma_win *w, const void *mine, void *all, size_t bytes);

/* axon_rma_win.c: frees what a window holds here, without meeting anyone (MPI_Win_free after its barrier,
 * waiting for what is still in flight; MPI_Finalize for the windows the program left, not waiting). */
void axon_rma_win_teardown(struct axon_rma_win *w, bool wait);

/* axon_rma_serve.c: the target's side of the remote path, and the origin's pending answers. */
void axon_rma_serve_register(struct axon_rma_win *w);
void axon_rma_serve_unregister(struct axon_rma_win *w);
/* One pass over a window's traffic (its requests, its waiting locks, its pending answers); whether
 * anything moved. Called by the progress hook, and by the engine's own waits. */
bool axon_rma_serve_window(struct axon_rma_win *w);
/* Waits until done(arg), serving the window meanwhile (every wait of the engine goes through it). */
void axon_rma_wait_until(struct axon_rma_win *w, bool (*done)(void *), void *arg);

/* axon_rma_move.c: data between layouts and memories. */
/* The target pieces of (disp, count, layout): byte ranges from the start of the target's window (or
 * absolute addresses for dynamic windows), in packing order, the first limit bytes of them (an origin
 * may describe less data than the target layout holds, as a send may to a larger receive). Returns the
 * count, or -1 out of memory. *segs is `one` (a contiguous target: no allocation) or allocated. */
int64_t axon_rma_target_segs(const struct axon_rma_op *op, int64_t disp_unit, int64_t limit, struct axon_rma_seg *one,
                             struct axon_rma_seg **segs);
/* Packs count elements of layout dt at buf into out (host memory). */
void axon_rma_pack(const void *buf, int64_t count, const struct axon_dtype_layout *dt, void *out);
/* Unpacks the first bytes bytes (at most count elements' worth). */
void axon_rma_unpack(void *buf, int64_t count, const struct axon_dtype_layout *dt, const void *in, int64_t bytes);
/* Accumulate: target = origin op target, over n elements of basic (packed). */
int axon_rma_combine(MPI_Op op, struct axon_coll_op *op_obj, MPI_Datatype basic, int64_t basic_size,
                     const void *origin, void *target, int64_t n);
/* The accumulate mutex of a control block. */
void axon_rma_acc_lock(struct axon_rma_ctrl *c);
void axon_rma_acc_unlock(struct axon_rma_ctrl *c);
/* Lock word operations: try to take or release a lock of lock_type. */
bool axon_rma_lock_try(struct axon_rma_ctrl *c, int lock_type);
void axon_rma_lock_release(struct axon_rma_ctrl *c, int lock_type);

/* Applies a request's bytes to this rank's memory: used by the target serving a message and, with the
 * pieces and data it packed itself, by an origin on the direct and single-copy paths. out (GET, GET_ACC,
 * CAS) receives the packed old data. */
struct axon_rma_apply {
    enum axon_rma_msg_kind kind;
    const struct axon_rma_seg *segs;
    int64_t nseg;
    const char *data;           /* PUT, ACC, GET_ACC: packed origin data; CAS: new value then compare */
    char *out;
    MPI_Op op;
    struct axon_coll_op *op_obj;
    MPI_Datatype basic;
    int64_t basic_size;
    enum axon_memkind mem_kind; /* what the memory is (HOST: loads and stores), and the device whose */
    int mem_device;             /* copies reach it */
};
/* What memory attached to a dynamic window is at addr, where the program chose it piece by piece: asked
 * at each operation (nothing changes while no device kind is watched). */
int axon_rma_attached_kind(const void *addr, enum axon_memkind *kind, int *device);
/* On memory reached at `mem` (pieces are offsets from it) in this process; device memory by the kind's
 * copies, the CPU never touching it: accumulates combine on the host between a copy out and one back. */
int axon_rma_apply_local(char *mem, struct axon_rma_ctrl *ctrl, const struct axon_rma_apply *a);
/* On a node peer's memory through single copies (pieces are offsets from `remote`). */
int axon_rma_apply_cma(pid_t pid, uint64_t remote, struct axon_rma_ctrl *ctrl, const struct axon_rma_apply *a);
/* process_vm_writev (write) or _readv between local (packed) and pid's pieces at remote, in batches the
 * kernel takes (IOV_MAX), resuming after a partial transfer. MPI_ERR_UNSUPPORTED_OPERATION when the first
 * call fails with EFAULT (memory the CPU cannot reach, nothing moved), MPI_ERR_OTHER on other failures. */
int axon_rma_cma_move(pid_t pid, bool write, char *local, uint64_t remote, const struct axon_rma_seg *segs,
                      int64_t nseg);

/* axon_rma_ops.c: sends a request to a remote target (m's kind, pieces and data: the packed data of op,
 * when op is given), with the answer received into (answer, answer_count, answer_dt) when answer_dt is
 * given (a zero-byte acknowledgement: NULL, 0, a byte layout), completing user when it arrives. The
 * window's pending list tracks both until they complete. */
int axon_rma_send_request(struct axon_rma_win *w, int target, struct axon_rma_msg *m, const struct axon_rma_seg *segs,
                          const struct axon_rma_op *op, void *answer, int64_t answer_count,
                          const struct axon_dtype_layout *answer_dt, struct axon_request *user, const char **why);

/* axon_rma_ucx.c: UCX puts and gets to remote targets. */
/* At creation (every member calls it, after the targets' paths are known): registers this rank's
 * memory and exchanges the keys, where UCX's RMA is on and the flavor allows. */
int axon_rma_ucx_setup(struct axon_rma_win *w, const char **why);
void axon_rma_ucx_teardown(struct axon_rma_win *w);
/* Whether op goes as UCX puts or gets (a put or get with a host buffer in one piece, without a request,
 * to a target with a key); then issues it over the target pieces. */
bool axon_rma_ucx_takes(const struct axon_rma_win *w, const struct axon_rma_op *op, bool with_request);
int axon_rma_ucx_issue(struct axon_rma_win *w, const struct axon_rma_op *op, const struct axon_rma_seg *segs,
                       int64_t nseg, const char **why);
/* Completes every UCX put and get towards the targets [lo, hi) (at the target, and so at the origin). */
int axon_rma_ucx_flush(struct axon_rma_win *w, int lo, int hi, const char **why);
/* Whether a buffer's layout is one piece of host memory (axon_rma_ops.c). */
bool axon_rma_host_contig(const void *buf, const struct axon_dtype_layout *dt);

/* axon_rma_split.c: a put or get of one piece of a node peer's own memory, from AXON_RMA_SPLIT_MIN bytes,
 * copied by the origin and (when it is in MPI) the target at once; the target's side, from its progress
 * (whether it copied anything). */
#define AXON_RMA_SPLIT_MIN ((int64_t)64 << 10)
bool axon_rma_split_worth(int64_t bytes);
int axon_rma_split_copy(struct axon_rma_ctrl *ctrl, pid_t pid, bool put, char *local, uint64_t remote,
                        uint64_t bytes);
bool axon_rma_split_help(struct axon_rma_ctrl *ctrl);

/* Whether the engine uses node shared memory and single copies (AXON_RMA_SHM). */
bool axon_rma_shm_enabled(void);

#endif
