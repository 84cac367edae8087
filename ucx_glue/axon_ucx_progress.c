/* Progress and waiting. Every loop in the library that waits for communication calls axon_ucx_wait, so
 * the policy of how to wait lives in one place: spin while this rank has a core to itself, and give the
 * core away between polls when the node runs more ranks than cores (CI runs 7 ranks on 2 cores; a
 * spinning rank there would starve the very peer it waits for). Waiters are counted for the progress
 * thread (axon_ucx_progress_thread.c), which stands back while an application thread waits. */
#include "ucx_glue/axon_ucx_internal.h"
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

static pthread_mutex_t axon_ucx_transport_lock = PTHREAD_MUTEX_INITIALIZER;
/* The lock nests in one thread: the collectives' progress hook runs under it and posts through the
 * engine's entry points, which take it again. */
static _Thread_local int axon_ucx_lock_depth;

void axon_ucx_lock_mt(void)
{
    if (axon_ucx_lock_depth++ == 0)
        pthread_mutex_lock(&axon_ucx_transport_lock);
}

void axon_ucx_unlock_mt(void)
{
    if (--axon_ucx_lock_depth == 0)
        pthread_mutex_unlock(&axon_ucx_transport_lock);
}

#define AXON_UCX_MAX_HOOKS 8

static struct {
    axon_ucx_progress_hook_t fn;
    const atomic_bool *active;
} axon_ucx_hooks[AXON_UCX_MAX_HOOKS];
static int axon_ucx_nhooks;

int axon_ucx_progress_hook_add(axon_ucx_progress_hook_t hook, const atomic_bool *active)
{
    if (axon_ucx_nhooks == AXON_UCX_MAX_HOOKS)
        return MPI_ERR_INTERN;
    axon_ucx_hooks[axon_ucx_nhooks].fn = hook;
    axon_ucx_hooks[axon_ucx_nhooks].active = active;
    axon_ucx_nhooks++;
    return MPI_SUCCESS;
}

atomic_int axon_ucx_waiters;

static axon_ucx_progress_hook_t axon_ucx_first_poll;
/* Calls in a row whose first poll moved something without the worker being polled. */
static unsigned axon_ucx_worker_skipped;
#define AXON_UCX_WORKER_SKIP_MAX 8

void axon_ucx_progress_set_first(axon_ucx_progress_hook_t poll)
{
    axon_ucx_first_poll = poll;
}

/* The watchdog runs from progress calls: one in AXON_UCX_WATCH_EVERY looks at a coarse clock (a vDSO read)
 * and runs the check once a second has passed since the last. Counts and times may race between
 * threads: at worst the check runs twice, or a little late. */
#define AXON_UCX_WATCH_EVERY 8192u
static void (*axon_ucx_watchdog)(void);
static unsigned axon_ucx_watch_count;
static _Atomic int64_t axon_ucx_watch_last; /* seconds of CLOCK_MONOTONIC_COARSE */
static void axon_ucx_watch(void);

void axon_ucx_set_watchdog(void (*watch)(void))
{
    axon_ucx_watchdog = watch;
}

/* Inline in the progress call, so that a poll pays an increment and a test, not a call: every wait polls,
 * and a call per poll is a visible share of a small message's latency. */
static inline void axon_ucx_watch_tick_inline(void)
{
    if (__builtin_expect(++axon_ucx_watch_count % AXON_UCX_WATCH_EVERY == 0, 0) && axon_ucx_watchdog)
        axon_ucx_watch();
}

void axon_ucx_watch_tick(void)
{
    axon_ucx_watch_tick_inline();
}

static void axon_ucx_watch(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    int64_t last = atomic_load_explicit(&axon_ucx_watch_last, memory_order_relaxed);
    if (now.tv_sec <= last)
        return;
    atomic_store_explicit(&axon_ucx_watch_last, now.tv_sec, memory_order_relaxed);
    void (*watch)(void) = axon_ucx_watchdog;
    if (watch)
        watch();
}

/* The first poll, the worker, then the hooks; the caller holds the transport lock. */
static unsigned axon_ucx_progress_locked(void)
{
    unsigned moved = 0;
    axon_ucx_watch_tick_inline();
    if (axon_ucx_first_poll && (moved = (unsigned)axon_ucx_first_poll()) != 0 &&
        ++axon_ucx_worker_skipped < AXON_UCX_WORKER_SKIP_MAX) {
        /* The worker waits for the next call: the caller's request probably just completed. */
    } else {
        axon_ucx_worker_skipped = 0;
        moved += ucp_worker_progress(axon_ucx.worker);
    }
    for (int i = 0; i < axon_ucx_nhooks; i++)
        if (!axon_ucx_hooks[i].active || atomic_load_explicit(axon_ucx_hooks[i].active, memory_order_relaxed))
            moved += (unsigned)axon_ucx_hooks[i].fn();
    return moved;
}

unsigned axon_ucx_progress(void)
{
    /* The wait loops call this between polls of the flag they wait on: no lock calls when none is
     * needed. */
    if (!axon_ucx.thread_multiple)
        return axon_ucx_progress_locked();
    axon_ucx_lock();
    unsigned moved = axon_ucx_progress_locked();
    axon_ucx_unlock();
    return moved;
}

unsigned axon_ucx_progress_try(void)
{
    if (!axon_ucx.thread_multiple)
        return axon_ucx_progress();
    if (axon_ucx_lock_depth == 0 && pthread_mutex_trylock(&axon_ucx_transport_lock) != 0)
        return 0;
    axon_ucx_lock_depth++;
    unsigned moved = axon_ucx_progress_locked();
    axon_ucx_unlock();
    return moved;
}

static void axon_ucx_wait_loop(bool (*done)(void *), void *arg)
{
    long idle = 0;
    while (!done(arg)) {
        if (axon_ucx_progress()) {
            idle = 0;
            continue;
        }
        if (++idle < axon_config.spin_count ||
            !axon_ucx_wait_policy_yields(&axon_ucx.wait, atomic_load_explicit(&axon_ucx_waiters, memory_order_relaxed)))
            continue;
        /* Long idle: yield first; once idle for much longer, sleep briefly so that ranks which share a
         * core with many others do not keep it busy with yields alone. */
        if (idle < 64 * axon_config.spin_count) {
            sched_yield();
        } else {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
}

void axon_ucx_wait(bool (*done)(void *), void *arg)
{
    if (!axon_ucx.thread_multiple) {
        axon_ucx_wait_loop(done, arg);
        return;
    }
    /* Counted for the yield decision, and the progress thread naps while any thread polls: two threads
     * taking turns at one lock only slow down. */
    atomic_fetch_add_explicit(&axon_ucx_waiters, 1, memory_order_relaxed);
    axon_ucx_wait_loop(done, arg);
    atomic_fetch_sub_explicit(&axon_ucx_waiters, 1, memory_order_relaxed);
}

static bool axon_ucx_request_done(void *arg)
{
    return ucp_request_check_status(arg) != UCS_INPROGRESS;
}

ucs_status_t axon_ucx_request_wait(ucs_status_ptr_t request)
{
    if (request == NULL)
        return UCS_OK;
    if (UCS_PTR_IS_ERR(request))
        return UCS_PTR_STATUS(request);
    axon_ucx_wait(axon_ucx_request_done, request);
    ucs_status_t st = ucp_request_check_status(request);
    ucp_request_free(request);
    return st;
}
