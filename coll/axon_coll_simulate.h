/* The collectives simulator's engine (axon_sim, tests/unit/test_coll_simulate.c): predicts how long a
 * collective takes on a described machine (coll/axon_coll_model.h) by running, in a discrete-event
 * simulation, the very schedules coll/ builds for it, rank by rank, through the same entry points
 * (axon_coll_allreduce ...) and the same selection as the MPI layer, as dry schedules
 * (coll/axon_coll_sched.h): no data exists, so 131,072 ranks and vectors of GiB cost only the steps.
 *
 * What is simulated. Each rank runs its schedule's rounds in order, as the engine does: a round starts
 * when the previous one has ended, its steps are taken in order by the rank's CPU (posting a send or a
 * receive costs `overhead`, a copy copy_beta per byte, a reduction the gamma of the memory's level),
 * and it ends when its last message has completed. Sends and receives match by (source, destination)
 * in posting order, as MPI's non-overtaking rule pairs them (a schedule has one tag). A message of at
 * most eager_max bytes leaves when its send is posted; a larger one when both sides are posted. It then
 * waits alpha of its level and moves its bytes at a rate that the transfers around it share (below);
 * both sides complete when the last byte lands (a receive posted later, at its post).
 *
 * Link sharing. The fabric transfers leaving a node share its injection capacity, nics_per_node /
 * fabric.beta bytes/s, equally, and those entering one share its ejection capacity alike; one transfer
 * never goes faster than one NIC (1 / fabric.beta). Its rate is the least of the three, recomputed for
 * every transfer of a node whenever a transfer starts or ends there (events at the same instant are
 * taken together first). A node's shared-memory transfers share node.capacity the same way (at most
 * 1 / node.beta each). Domain transfers (device memory) go at 1 / domain.beta, unshared. This is not
 * max-min fairness (a transfer held back at its receiver does not give its share at the sender to the
 * others), and switches, the network's shape and congestion beyond the NICs are not modelled. */
#ifndef AXON_COLL_SIMULATE_H
#define AXON_COLL_SIMULATE_H

#include "coll/axon_coll_model.h"
#include "coll/axon_coll_sched.h"
#include "coll/axon_coll_select.h"

#include <stdbool.h>
#include <stdint.h>

/* Where the data lives. Host: messages inside a domain go through shared memory as any in the node
 * (the domain level is for device memory), reductions cost node.gamma. Device: messages inside a domain
 * cost the domain level, reductions domain.gamma (copies still copy_beta). */
enum axon_coll_sim_memory { AXON_COLL_SIM_HOST, AXON_COLL_SIM_DEVICE };

struct axon_coll_sim_call {
    enum axon_coll_kind kind;
    int alg;                 /* an index in the kind's algorithms; -1: the selection's choice */
    int64_t bytes;           /* the size as NCCL's tests count it (axon_coll_sim_busbw) */
    struct axon_coll_op *op; /* the reductions' operation; NULL: none (dry runs; commutative) */
    enum axon_coll_sim_memory memory; /* the buffers' (device: the selection sees GPU buffers) */
};

/* Whether the simulator builds this kind: barrier, bcast, reduce, allreduce, allgather, alltoall,
 * reduce_scatter. */
bool axon_coll_sim_supports(enum axon_coll_kind kind);
/* The kind a name ("allreduce") stands for; -1 when none. */
int axon_coll_sim_kind(const char *name);

/* The bytes of one rank's send and receive buffers for the call on n ranks. Reductions are of floats
 * (bytes / 4 of them; a reduce_scatter's vector is n equal blocks); allgather and alltoall move blocks
 * of bytes / n bytes; bcast moves bytes bytes; all roots are rank 0. */
void axon_coll_sim_buffers(const struct axon_coll_sim_call *c, int n, int64_t *send_bytes, int64_t *recv_bytes);
/* Adds the call's collective for the schedule's rank (its rank and size) on the given buffers, with its
 * algorithm forced as AXON_COLL_<NAME>_ALG would (alg -1: as configured). Any schedule: a dry one with
 * placeholder buffers, or a real one (tests/unit/coll_sim.h runs them). */
void axon_coll_sim_add(struct axon_coll_sched *s, const struct axon_coll_sim_call *c, void *sendbuf, void *recvbuf);
/* The algorithm the call runs on the ranks of topology t: the forced one where it applies, else the
 * selection's. */
int axon_coll_sim_alg(const struct axon_coll_sim_call *c, const struct axon_runtime_topo_spec *t);
/* The message size as NCCL counts it for this call on n ranks (whole elements and blocks). */
int64_t axon_coll_sim_size(const struct axon_coll_sim_call *c, int n);
/* Bus bandwidth (bytes/s) by NCCL's definitions, for size S (axon_coll_sim_size) done in t seconds:
 * allreduce 2(n-1)/n S/t; allgather, reduce_scatter and alltoall (n-1)/n S/t; bcast and reduce S/t;
 * 0 for a barrier or t = 0. */
double axon_coll_sim_busbw(enum axon_coll_kind kind, int n, int64_t size, double t);

struct axon_coll_sim_opts {
    enum axon_coll_sim_memory memory;
    int64_t max_steps; /* refuse a call whose estimated steps (all ranks) exceed it; 0: no limit */
};

struct axon_coll_sim_result {
    int alg;               /* the algorithm that ran */
    double time;           /* s from the common start to the end of the last rank's schedule */
    int64_t messages;      /* sent by all ranks */
    int64_t bytes;         /* sent by all ranks */
    int64_t steps;         /* steps of all ranks (sends, receives, copies, reductions) */
    int64_t steps_estimate;/* what sampled ranks predicted before building all */
    int64_t events;        /* events the simulation took */
    int64_t *rank_messages, *rank_bytes; /* the caller's arrays of n, filled when not NULL: sent per rank */
    char why[512];         /* why it did not run */
};

/* Simulates one call on the topology. MPI_SUCCESS with res filled; MPI_ERR_OTHER when the estimate is
 * above opts->max_steps (res->why says so, nothing was built beyond the samples);
 * MPI_ERR_UNSUPPORTED_OPERATION for a kind it does not build; MPI_ERR_NO_MEM; MPI_ERR_INTERN when the
 * schedules do not fit together (a message never matched, sizes that differ), with why. */
int axon_coll_simulate(const struct axon_runtime_topo_spec *t, const struct axon_coll_model *m,
                       const struct axon_coll_sim_call *c, const struct axon_coll_sim_opts *opts,
                       struct axon_coll_sim_result *res);

#endif
