/* The progress thread (AXON_ASYNC_PROGRESS=1): a thread of the library's own that calls the progress
 * of the worker and the engines' hooks while the application computes, so nonblocking collectives and
 * point-to-point transfers (a rendezvous needs both sides to answer) move without MPI calls.
 *
 * How it spends its core:
 * - Operations in flight (the engines count them with axon_ucx_async_begin/end): it polls eagerly,
 *   yielding between polls after AXON_SPIN_COUNT polls without news, and napping after a long idle
 *   when the node is oversubscribed, as axon_ucx_wait does. On its rank's own core (no spare CPU:
 *   every core has a rank) it naps between quiet polls instead of yielding: a yielding thread still
 *   takes about half the core from the computation it should overlap (the scheduler shares the core
 *   between the two: bench/results/2026-11-26-h200-gpu-tests-and-2-16-ranks.md), while a poll every
 *   AXON_UCX_PT_SHARED_NAP_NS moves each round of a collective on within that time at a small cost to
 *   the core.
 * - An application thread waits in axon_ucx_wait: it naps, since that thread polls; two threads taking
 *   turns at the transport lock would only slow each other.
 * - Nothing in flight: after AXON_SPIN_COUNT idle polls it sleeps on a condition variable, woken by the
 *   next operation that starts (or by shutdown), and at the latest after a millisecond, to drain
 *   traffic that arrives unasked (unexpected messages, a peer's connection). Polling with naps was
 *   chosen over the worker's event file descriptor (ucp_worker_arm): that needs UCP_FEATURE_WAKEUP,
 *   which limits UCX to transports with events and makes senders signal armed peers.
 * It takes the transport lock only with trylock (a holder is progressing anyway), and the library runs
 * with the locking of MPI_THREAD_MULTIPLE meanwhile (axon_ucx_init). */
#include "ucx_glue/axon_ucx_internal.h"
#include "ucx_glue/ucx_glue.h"

#include "runtime/runtime.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

enum {
    AXON_UCX_PT_NAP_NS = 50 * 1000,        /* a nap while someone else polls, or after a long idle */
    AXON_UCX_PT_SHARED_NAP_NS = 20 * 1000, /* between quiet polls on the rank's own core */
    AXON_UCX_PT_SLEEP_NS = 1000 * 1000,    /* the longest sleep with nothing in flight */
};

static struct {
    pthread_t thread;
    bool running;
    pid_t pid;                 /* of the process that started it: a forked child has no such thread */
    atomic_bool stop;
    atomic_int outstanding;    /* operations in flight */
    atomic_bool sleeping;      /* on cond, with nothing in flight */
    pthread_mutex_t mutex;     /* guards kick, and cond's waits */
    pthread_cond_t cond;
    bool kick;
} axon_ucx_pt = {.mutex = PTHREAD_MUTEX_INITIALIZER};

/* Whether the thread runs on spare CPUs (axon_ucx_pt_place, just after the thread starts), not on its
 * rank's. */
static atomic_bool axon_ucx_pt_placed;

static void axon_ucx_pt_nap(long ns)
{
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

static void axon_ucx_pt_wake(void)
{
    pthread_mutex_lock(&axon_ucx_pt.mutex);
    axon_ucx_pt.kick = true;
    pthread_cond_signal(&axon_ucx_pt.cond);
    pthread_mutex_unlock(&axon_ucx_pt.mutex);
}

/* Sleeps up to AXON_UCX_PT_SLEEP_NS unless an operation is in flight or a wake came. `sleeping` is
 * set before `outstanding` is read, and axon_ucx_async_begin adds to `outstanding` before it reads
 * `sleeping` (both sequentially consistent), so one of the two always sees the other: no lost wake. */
static void axon_ucx_pt_sleep(void)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += AXON_UCX_PT_SLEEP_NS;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&axon_ucx_pt.mutex);
    atomic_store(&axon_ucx_pt.sleeping, true);
    while (!axon_ucx_pt.kick && !atomic_load(&axon_ucx_pt.stop) && atomic_load(&axon_ucx_pt.outstanding) == 0) {
        if (pthread_cond_timedwait(&axon_ucx_pt.cond, &axon_ucx_pt.mutex, &until) == ETIMEDOUT)
            break;
    }
    atomic_store(&axon_ucx_pt.sleeping, false);
    axon_ucx_pt.kick = false;
    pthread_mutex_unlock(&axon_ucx_pt.mutex);
}

void axon_ucx_async_begin(void)
{
    atomic_fetch_add(&axon_ucx_pt.outstanding, 1);
    if (atomic_load(&axon_ucx_pt.sleeping))
        axon_ucx_pt_wake();
}

void axon_ucx_async_end(void)
{
    atomic_fetch_sub_explicit(&axon_ucx_pt.outstanding, 1, memory_order_relaxed);
}

static void *axon_ucx_pt_main(void *arg)
{
    (void)arg;
    /* Its naps as asked: under the default timer slack (50 us) the kernel may end a nap that much late. */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    long spin = axon_config.spin_count > 0 ? axon_config.spin_count : 1;
    long idle = 0;
    while (!atomic_load_explicit(&axon_ucx_pt.stop, memory_order_acquire)) {
        if (atomic_load_explicit(&axon_ucx_waiters, memory_order_relaxed) > 0) {
            axon_ucx_pt_nap(AXON_UCX_PT_NAP_NS);
            idle = 0;
            continue;
        }
        if (axon_ucx_progress_try()) {
            idle = 0;
            continue;
        }
        if (++idle < spin)
            continue;
        if (atomic_load_explicit(&axon_ucx_pt.outstanding, memory_order_relaxed) > 0) {
            /* In flight but quiet: keep polling, and let the application's threads have the core. */
            if (axon_ucx.wait.yield_when_idle && idle >= 64 * spin)
                axon_ucx_pt_nap(AXON_UCX_PT_NAP_NS);
            else if (!atomic_load_explicit(&axon_ucx_pt_placed, memory_order_relaxed))
                axon_ucx_pt_nap(AXON_UCX_PT_SHARED_NAP_NS);
            else
                sched_yield();
            continue;
        }
        axon_ucx_pt_sleep();
        /* Woken for an operation: poll eagerly from the start. Otherwise idle stays at spin or more,
         * and the thread sleeps again after one poll. */
        if (atomic_load_explicit(&axon_ucx_pt.outstanding, memory_order_relaxed) > 0)
            idle = 0;
    }
    return NULL;
}

/* A program that leaves without MPI_Finalize must not tear UCX down (library destructors) under a
 * running progress thread. */
static void axon_ucx_pt_atexit(void)
{
    axon_ucx_progress_thread_stop();
}

/* Puts the thread on the CPUs that mpirun left free of ranks (AXON_SPARE_CPUS, a list like "8-15,20"), so
 * that it does not take its time from the rank's own core, where the program computes. Without such CPUs
 * (every core has a rank, or another launcher) it shares the rank's. */
bool axon_ucx_progress_thread_has_cpus(void)
{
    return axon_ucx_pt.running && atomic_load_explicit(&axon_ucx_pt_placed, memory_order_relaxed);
}

static void axon_ucx_pt_place(pthread_t thread)
{
    const char *list = axon_config.spare_cpus;
    atomic_store_explicit(&axon_ucx_pt_placed, false, memory_order_relaxed);
    if (!*list)
        return;
    enum { MAX_CPUS = 8192 };
    cpu_set_t *set = CPU_ALLOC(MAX_CPUS);
    if (!set)
        return;
    size_t size = CPU_ALLOC_SIZE(MAX_CPUS);
    CPU_ZERO_S(size, set);
    const char *p = list;
    bool ok = true;
    while (ok && *p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        ok = end != p && lo >= 0;
        if (ok && *end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            ok = end != p && hi >= lo;
        }
        for (long c = lo; ok && c <= hi && c < MAX_CPUS; c++)
            CPU_SET_S((size_t)c, size, set);
        p = end;
        if (ok && *p == ',')
            p++;
        else
            ok = ok && *p == '\0';
    }
    int rc = ok ? pthread_setaffinity_np(thread, size, set) : EINVAL;
    CPU_FREE(set);
    atomic_store_explicit(&axon_ucx_pt_placed, rc == 0, memory_order_relaxed);
    if (rc == 0)
        axon_runtime_log_debug(1, "progress thread runs on CPUs %s (no rank is bound there)", list);
    else
        axon_runtime_log_debug(1, "progress thread stays on its rank's CPUs: AXON_SPARE_CPUS=%s: %s", list,
                               ok ? strerror(rc) : "not a list of CPUs");
}

int axon_ucx_progress_thread_start(void)
{
    static bool atexit_done;
    pthread_condattr_t attr;
    sigset_t all, old;
    int rc;

    if (axon_ucx_pt.running)
        return MPI_SUCCESS;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&axon_ucx_pt.cond, &attr);
    pthread_condattr_destroy(&attr);
    atomic_store(&axon_ucx_pt.stop, false);
    atomic_store(&axon_ucx_pt.outstanding, 0);
    atomic_store(&axon_ucx_pt.sleeping, false);
    axon_ucx_pt.kick = false;

    /* Signals stay with the application's threads: the new thread inherits a full mask. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    rc = pthread_create(&axon_ucx_pt.thread, NULL, axon_ucx_pt_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        pthread_cond_destroy(&axon_ucx_pt.cond);
        axon_runtime_log_error("cannot start the progress thread: %s", strerror(rc));
        return MPI_ERR_OTHER;
    }
    pthread_setname_np(axon_ucx_pt.thread, "axon-progress");
    axon_ucx_pt_place(axon_ucx_pt.thread);
    axon_ucx_pt.running = true;
    axon_ucx_pt.pid = getpid();
    if (!atexit_done && atexit(axon_ucx_pt_atexit) == 0)
        atexit_done = true;
    axon_runtime_log_debug(1, "progress thread started");
    return MPI_SUCCESS;
}

void axon_ucx_progress_thread_stop(void)
{
    /* Not from the thread itself (an abort in a callback it ran), nor in a forked child. */
    if (!axon_ucx_pt.running || pthread_equal(pthread_self(), axon_ucx_pt.thread) ||
        getpid() != axon_ucx_pt.pid)
        return;
    atomic_store_explicit(&axon_ucx_pt.stop, true, memory_order_release);
    axon_ucx_pt_wake();
    pthread_join(axon_ucx_pt.thread, NULL);
    axon_ucx_pt.running = false;
    pthread_cond_destroy(&axon_ucx_pt.cond);
}
