/* A simulator of collective schedules for unit tests: runs the schedules of n ranks in one process, with
 * no MPI_Init and no UCX, through a fake transport (axon_coll_sched_set_transport). Any algorithm that
 * builds a schedule can be tested with it: the caller gives a build callback, which the simulator calls
 * once per rank with that rank's fresh schedule (rank, size, a common tag); the callback sets the
 * operation if it needs one and adds the collective's rounds.
 *
 * The transport is strict, so that bugs show up here rather than as a rare hang on a cluster:
 *  - messages match by (source, destination, tag) in posting order, MPI's non-overtaking rule;
 *  - a send completes only when its receive is posted (rendezvous), so an algorithm that leans on eager
 *    buffering deadlocks here;
 *  - a send's data is taken when it is posted and compared with the buffer when it is delivered: a
 *    buffer changed while its send is in flight is reported;
 *  - a message must fill its receive exactly (collectives always agree on sizes);
 *  - when no schedule can move and some have not ended, the run stops and reports the deadlock with
 *    every unmatched message. */
#ifndef AXON_TESTS_COLL_SIM_H
#define AXON_TESTS_COLL_SIM_H

#include "coll/axon_coll_sched.h"

#include <stddef.h>

typedef void coll_sim_build_fn(struct axon_coll_sched *s, int rank, void *arg);

/* Ranks whose own traffic the report counts (the simulator's validation compares them, up to 16). */
enum { COLL_SIM_RANKS_COUNTED = 64 };

struct coll_sim_report {
    long messages;   /* delivered */
    long bytes;      /* delivered, packed */
    long rank_messages[COLL_SIM_RANKS_COUNTED]; /* delivered, by sending rank */
    long rank_bytes[COLL_SIM_RANKS_COUNTED];
    char why[2048];  /* what went wrong, empty on success */
};

/* Rank r's fake engine context and the run's tag, for a schedule built while the run goes on (a
 * continuation, axon_coll_sched_then). */
struct axon_pt2pt_comm *coll_sim_comm(int r);
int coll_sim_tag(void);

/* Builds and runs one collective on n ranks (and the schedules that continue theirs). 0 when every
 * schedule ended without error and the transport saw nothing wrong; -1 otherwise, with rep->why saying
 * what happened. rep may be NULL. */
int coll_sim_run(int n, coll_sim_build_fn *build, void *arg, struct coll_sim_report *rep);

#endif
