/* The UCX layer: one UCP context (active messages; RMA too when one-sided traffic crosses machines) and one
 * worker per process, endpoints to the other ranks made on first use, the progress call that every
 * waiting loop in the library goes through, and a shutdown that loses no message in flight. Layers
 * above send active messages through the endpoints this layer hands out; they never create UCX objects
 * themselves. */
#ifndef AXON_UCX_GLUE_H
#define AXON_UCX_GLUE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <ucp/api/ucp.h>

/* How far this rank's MPI_Finalize is, for the errors of watched peers (axon_ucx_ep.c). */
enum axon_ucx_leaving {
    AXON_UCX_RUNNING,  /* a peer's error is its loss: the job ends */
    AXON_UCX_FENCING,  /* in the barrier before the endpoints close: a peer that has passed it may
                        * already close towards us, so an error waits AXON_PEER_LEAVE_GRACE seconds for
                        * the barrier to end here too before it counts */
    AXON_UCX_LEAVING,  /* past that barrier: peers leave as they please */
};

/* When an idle waiter yields its core (axon_ucx_wait_policy.c): always (yield_when_idle: the node's
 * ranks outnumber its cores, or AXON_WAIT_MODE=yield), or while more than spin_threads_max threads of
 * the process wait at once (0: no such limit). */
struct axon_ucx_wait_policy {
    bool yield_when_idle;
    int spin_threads_max;
};
struct axon_ucx_wait_policy axon_ucx_wait_policy_decide(long wait_mode, long oversubscribed, long cores,
                                                        long local_ranks, bool thread_multiple);
bool axon_ucx_wait_policy_yields(const struct axon_ucx_wait_policy *p, int waiting_threads);

struct axon_ucx {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_ep_h *eps;          /* by rank in MPI_COMM_WORLD; NULL until first use */
    int nranks;
    bool thread_multiple;   /* the worker and the locks are thread-safe: MPI_THREAD_MULTIPLE, or the
                             * progress thread */
    bool async_progress;    /* AXON_ASYNC_PROGRESS: a progress thread runs (axon_ucx_progress_thread.c) */
    struct axon_ucx_wait_policy wait; /* when an idle waiter yields its core */
    atomic_int leaving;     /* enum axon_ucx_leaving: how far MPI_Finalize is (axon_ucx_ep.c) */
    bool watch_any;         /* some peer's endpoint is made in UCX's peer error mode (AXON_PEER_WATCH) */
    long eager_limit;       /* largest message sent eagerly; -1: UCX's threshold decides (axon_ucx_eager.c) */
    bool rma;               /* the context has UCX's RMA features (AXON_RMA_UCX: axon_ucx_rma.c) */
};

extern struct axon_ucx axon_ucx;

/* Messages up to this many bytes go eagerly where the fabric is TCP (axon_ucx_eager.c says why). */
#define AXON_UCX_TCP_EAGER_MAX (128L * 1024)
/* Whether the directory of RDMA devices (/sys/class/infiniband) names any: without one, UCX reaches other
 * machines over TCP only. */
bool axon_ucx_fabric_has_rdma(const char *class_dir);
/* The eager limit from AXON_EAGER_LIMIT (-1: auto) and the fabric: the user's, else UCX's threshold
 * (-1) with RDMA, else AXON_UCX_TCP_EAGER_MAX. */
long axon_ucx_eager_limit_decide(long configured, bool rdma);

/* Creates the context and worker and publishes the worker's address through the bootstrap (the caller
 * then runs the exchange). thread_multiple says the application asked for MPI_THREAD_MULTIPLE; with
 * AXON_ASYNC_PROGRESS the worker and the locks are made thread-safe whatever it asked for, since the
 * progress thread is a second thread in the library. */
int axon_ucx_init(bool thread_multiple, char *err, size_t errlen);
/* The endpoint to a rank of MPI_COMM_WORLD, created on first use from the address it published. */
int axon_ucx_ep_get(int rank, ucp_ep_h *ep);
/* Decides, at axon_ucx_init, whether any peer's endpoint is watched (axon_ucx.watch_any). */
void axon_ucx_ep_watch_init(void);
/* Makes the endpoint to a peer UCX watches (AXON_PEER_WATCH: another machine's rank) if it is not made
 * yet, so that a receive that waits on a peer this rank never sent to hears of the peer's loss. Inline:
 * every receive posted from a named source asks, where axon_ucx.watch_any says some peer is watched
 * (the caller tests it first, before it works out the peer's rank). */
void axon_ucx_ep_watch_make(int rank);
static inline void axon_ucx_ep_watch(int rank)
{
    if (!__atomic_load_n(&axon_ucx.eps[rank], __ATOMIC_RELAXED))
        axon_ucx_ep_watch_make(rank);
}
/* Called while MPI_Finalize's first barrier waits (AXON_UCX_FENCING): a peer error held back longer
 * than the grace ends the job naming the rank. */
void axon_ucx_ep_fence_check(void);
/* The ranks that live where the job survives lost ranks (axon_ucx_survivors.c): news of losses for the
 * others, and MPI_Finalize's meeting in round `round` (0, 1) in place of the launcher's fence. */
int axon_ucx_survivors_init(void);
void axon_ucx_survivors_finalize(void);
int axon_ucx_survivors_meet(int round);
/* Registers the handler of one active-message id on the worker. */
int axon_ucx_am_set_handler(unsigned id, ucp_am_recv_callback_t cb, void *arg);

/* The transport lock: under MPI_THREAD_MULTIPLE it serializes the worker's progress (and with it every
 * callback) with the engines' own entry points, which take it too. A no-op for lower thread levels. */
void axon_ucx_lock_mt(void);
void axon_ucx_unlock_mt(void);
/* Inline: below MPI_THREAD_MULTIPLE every message passes here several times for nothing. */
static inline void axon_ucx_lock(void)
{
    if (axon_ucx.thread_multiple)
        axon_ucx_lock_mt();
}
static inline void axon_ucx_unlock(void)
{
    if (axon_ucx.thread_multiple)
        axon_ucx_unlock_mt();
}

/* A function the progress call runs after the worker's progress (pt2pt and coll queues), whenever
 * *active is true (always when active is NULL): a hook with nothing to do costs one load per poll,
 * not a call. */
typedef int (*axon_ucx_progress_hook_t)(void);
int axon_ucx_progress_hook_add(axon_ucx_progress_hook_t hook, const atomic_bool *active);
/* The poll that runs first in every progress call, before the worker (NULL: none): the node's
 * shared-memory rings, where a message needs no trip through UCX. A call whose first poll moved
 * something polls the worker only every few calls, so a stream of ring messages does not pay for the
 * worker's idle poll each time, yet UCX's traffic still moves. */
void axon_ucx_progress_set_first(axon_ucx_progress_hook_t poll);
/* A check that progress runs about once a second while it is called at all (NULL: none): the node's
 * peers that ended without finishing MPI, which the launcher may not notice (srun keeps the other tasks
 * running unless told otherwise); it ends the job itself when it finds one. Waits that never return
 * thus become an error that names the rank. */
void axon_ucx_set_watchdog(void (*watch)(void));
/* Counts a poll towards the watchdog's next look (progress calls do; so do loops that poll the worker
 * alone, such as the fences of MPI_Finalize). */
void axon_ucx_watch_tick(void);
/* One round of progress: the first poll, the worker, then the hooks, under the transport lock. Returns non-zero when
 * anything moved. */
unsigned axon_ucx_progress(void);
/* One round of progress if the transport lock is free at once (the progress thread: a thread that holds
 * the lock is progressing anyway); 0 when it was not. */
unsigned axon_ucx_progress_try(void);
/* Progresses until done(arg) is true. A rank that finds nothing to do for AXON_SPIN_COUNT polls yields
 * its core between polls when the machine is oversubscribed (or AXON_WAIT_MODE=yield), and so does a
 * thread while the threads waiting in the node's ranks outnumber its cores. */
void axon_ucx_wait(bool (*done)(void *), void *arg);
/* Waits for a UCX request (or status pointer) returned by a _nbx call and frees it. */
ucs_status_t axon_ucx_request_wait(ucs_status_ptr_t request);

/* The progress thread (AXON_ASYNC_PROGRESS=1), started at the end of MPI_Init and joined at the start
 * of MPI_Finalize (or at exit, for a program that never finalizes). It polls eagerly while any
 * nonblocking operation is in flight, naps while an application thread waits in axon_ucx_wait (that
 * thread progresses), and sleeps when nothing is in flight, waking every millisecond for incoming
 * traffic and at once when an operation starts. */
int axon_ucx_progress_thread_start(void);
void axon_ucx_progress_thread_stop(void);
/* Whether the progress thread runs, on CPUs of its own (AXON_SPARE_CPUS): work handed to it then does
 * not take the program's time. */
bool axon_ucx_progress_thread_has_cpus(void);
/* The count of operations in flight that the progress thread polls for: the engines call begin when a
 * nonblocking operation starts (it wakes a sleeping thread) and end when it completes. Only with
 * axon_ucx.async_progress. */
void axon_ucx_async_begin(void);
void axon_ucx_async_end(void);

/* ---- one-sided transfers (axon_ucx_rma.c) ---------------------------------------------------------- */

/* Whether puts and gets through UCX are on: AXON_RMA_UCX=on, or auto (the default), the job spans
 * machines and this one has an RDMA device. The context then has UCX's RMA features, which otherwise
 * stay off: each adds interfaces that every progress call polls. */
bool axon_ucx_rma_enabled(void);
/* Memory registered for remote access, and its remote key packed for the peers. */
struct axon_ucx_rma_mem {
    ucp_mem_h memh;
    void *rkey;
    size_t rkey_len;
};
int axon_ucx_rma_mem_map(void *addr, size_t len, struct axon_ucx_rma_mem *m);
void axon_ucx_rma_mem_unmap(struct axon_ucx_rma_mem *m);
/* A peer's packed key, usable on the endpoint to rank world of MPI_COMM_WORLD. */
int axon_ucx_rma_rkey_unpack(int world, const void *packed, ucp_rkey_h *rkey);
void axon_ucx_rma_rkey_destroy(ucp_rkey_h rkey);
/* Contiguous host memory to or from raddr in a peer's registered memory. Complete, at both ends, once
 * a flush towards the peer started after them has ended; buf stays the program's until then. */
int axon_ucx_rma_put(int world, const void *buf, size_t len, uint64_t raddr, ucp_rkey_h rkey);
int axon_ucx_rma_get(int world, void *buf, size_t len, uint64_t raddr, ucp_rkey_h rkey);
/* A flush of the endpoint to rank world: started, polled (the caller progresses meanwhile), ended. */
int axon_ucx_rma_flush_start(int world, ucs_status_ptr_t *flush);
bool axon_ucx_rma_flush_done(ucs_status_ptr_t flush);
int axon_ucx_rma_flush_end(ucs_status_ptr_t flush);

/* Flushes everything in flight, then closes the endpoints and the worker in step with the other ranks
 * (bootstrap barriers around the close), so no peer tears down while another still sends to it. */
int axon_ucx_finalize(void);

#endif
