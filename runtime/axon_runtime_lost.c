/* Ranks found lost (ended without MPI_Finalize), and what losing one does. The watchers (a node's ranks
 * through their processes, other nodes' through UCX) report here. While MPI_COMM_WORLD's error handler
 * is fatal, the default, a lost rank ends the job at once, with a message that names it: the first
 * operation to involve it would abort anyway, and ending now spares the others a wait for messages that
 * will never come. A program that asked to see errors (MPI_ERRORS_RETURN, or a handler of its own, on
 * MPI_COMM_WORLD) runs on: the rank is marked lost here, and every operation that involves it completes
 * with MPI_ERR_PROC_ABORTED through its communicator's handler (the engines look here: a receive from it
 * or from MPI_ANY_SOURCE where it is a member, a send that waits for it, a collective of a communicator
 * it belongs to), while the ranks that live talk on. A rank found lost by this rank's own watch is news
 * for the other ranks, which ucx_glue/axon_ucx_survivors.c tells them: a rank on another node is
 * watched only by those that talk to it. The generation counts the losses, so that waiting loops notice
 * a new one with one load. */
#include "runtime/runtime.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_bool axon_lost_survive;
atomic_uint axon_runtime_lost_gen;
static atomic_bool *axon_lost_ranks; /* [job size], from bootstrap_init */
static atomic_bool *axon_lost_to_tell; /* [job size]: found by our own watch, the others not told yet */
static atomic_bool axon_lost_news;     /* some rank is to be told of */
static int axon_lost_n;

int axon_runtime_lost_init(int nranks)
{
    size_t n = (size_t)(nranks > 0 ? nranks : 1);
    axon_lost_ranks = calloc(n, sizeof(*axon_lost_ranks));
    axon_lost_to_tell = calloc(n, sizeof(*axon_lost_to_tell));
    if (!axon_lost_ranks || !axon_lost_to_tell) {
        axon_runtime_lost_fini();
        return -1;
    }
    axon_lost_n = nranks;
    atomic_store(&axon_runtime_lost_gen, 0);
    atomic_store(&axon_lost_news, false);
    return 0;
}

void axon_runtime_lost_fini(void)
{
    free(axon_lost_ranks);
    free(axon_lost_to_tell);
    axon_lost_ranks = NULL;
    axon_lost_to_tell = NULL;
    axon_lost_n = 0;
    atomic_store(&axon_runtime_lost_gen, 0);
    atomic_store(&axon_lost_news, false);
}

void axon_runtime_lost_set_survive(bool survive)
{
    atomic_store(&axon_lost_survive, survive);
}

bool axon_runtime_lost(int world)
{
    if (atomic_load_explicit(&axon_runtime_lost_gen, memory_order_acquire) == 0 || world < 0 || world >= axon_lost_n)
        return false;
    return atomic_load_explicit(&axon_lost_ranks[world], memory_order_relaxed);
}

bool axon_runtime_lost_any(const int *world_ranks, int n)
{
    if (atomic_load_explicit(&axon_runtime_lost_gen, memory_order_acquire) == 0)
        return false;
    for (int i = 0; i < n; i++)
        if (axon_runtime_lost(world_ranks ? world_ranks[i] : i))
            return true;
    return false;
}

int axon_runtime_lost_count(void)
{
    int n = 0;
    for (int r = 0; axon_lost_ranks && r < axon_lost_n; r++)
        n += atomic_load_explicit(&axon_lost_ranks[r], memory_order_relaxed);
    return n;
}

/* Marks world lost, where the job survives it (else ends the job); false when it was marked already. */
static bool axon_lost_mark(int world, const char *message)
{
    if (!atomic_load(&axon_lost_survive) || !axon_lost_ranks || world < 0 || world >= axon_lost_n) {
        axon_runtime_log_error("%s; ending the job", message);
        axon_runtime_bootstrap_abort_lost(world, message);
    }
    if (atomic_exchange(&axon_lost_ranks[world], true))
        return false;
    atomic_fetch_add_explicit(&axon_runtime_lost_gen, 1, memory_order_acq_rel);
    axon_runtime_log_error("%s; the operations that involve it return MPI_ERR_PROC_ABORTED (MPI_COMM_WORLD's "
                           "error handler is not fatal)",
                           message);
    return true;
}

void axon_runtime_peer_lost(int world, const char *message)
{
    /* The others may not watch it (a rank of another node is watched only by those with an endpoint to
     * it): they are told (axon_runtime_lost_take_news), lest one wait on a collective that the ranks
     * which know have left. */
    if (axon_lost_mark(world, message)) {
        atomic_store(&axon_lost_to_tell[world], true);
        atomic_store_explicit(&axon_lost_news, true, memory_order_release);
    }
}

void axon_runtime_lost_heard(int world, int by)
{
    char message[160];
    snprintf(message, sizeof(message), "rank %d is lost (rank %d found it gone)", world, by);
    axon_lost_mark(world, message);
}

const atomic_bool *axon_runtime_lost_news(void)
{
    return &axon_lost_news;
}

int axon_runtime_lost_take_news(void)
{
    atomic_store(&axon_lost_news, false);
    for (int r = 0; axon_lost_to_tell && r < axon_lost_n; r++) {
        if (atomic_exchange(&axon_lost_to_tell[r], false)) {
            atomic_store(&axon_lost_news, true); /* there may be more: the next call looks */
            return r;
        }
    }
    return -1;
}
