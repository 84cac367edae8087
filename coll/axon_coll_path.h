/* Inside coll/: what the choice of a collective's path (coll/axon_coll_path.c) shares with the GPU
 * agreement (coll/axon_coll_agree.c). */
#ifndef AXON_COLL_PATH_H
#define AXON_COLL_PATH_H

#include "coll/axon_coll_plan.h"

/* The GPU side of a plan before it runs, while CUDA support is on and the communicator may hold GPU
 * buffers: the GPU-resident way or staging (axon_coll_gpu_prepare, not the GPU way when shm: the call
 * runs through the node's shared memory). *run is the plan to build (p, or the staged copy in *st). */
static inline int axon_coll_plan_gpu(struct axon_coll_plan *p, bool shm, struct axon_coll_stage **st,
                                     const struct axon_coll_plan **run)
{
    *st = NULL;
    *run = p;
    if (!axon_memkind_watching() || p->cc->view->host_only)
        return MPI_SUCCESS;
    int rc = axon_coll_gpu_prepare(p, shm, st);
    if (rc == MPI_SUCCESS && *st)
        *run = axon_coll_stage_plan(*st);
    return rc;
}

/* The schedule of run (the plan, or its staged copy in st): st's copies go back to the GPU when it ends;
 * handed to the progress thread when handoff (and AXON_ASYNC_PROGRESS). On failure st is freed and
 * *why says what failed. */
int axon_coll_plan_build(const struct axon_coll_plan *run, struct axon_coll_stage *st, bool handoff,
                         struct axon_coll_sched **s, const char **why);

/* The packed bytes of a reduce-scatter's contribution: every member knows all the counts alike. */
int64_t axon_coll_plan_scatter_bytes(const struct axon_coll_plan *p);

/* The agreement where a call of p's kind and size asks for it (none on an intercommunicator) and the
 * communicator has the node's segment: *agreed, *all_host, and p->all_device. A blocking call (memo)
 * may take an answer for granted after a run of host-only ones (struct axon_coll_agree_memo), and
 * teaches the memo what it hears; a persistent _init always asks (once for all its starts) and teaches
 * nothing. */
int axon_coll_plan_agree(struct axon_coll_plan *p, bool memo, bool *agreed, bool *all_host);
/* Whether a nonblocking call asks first (its answer can choose a domain algorithm). */
bool axon_coll_plan_agrees_first(const struct axon_coll_plan *p);
/* Such a call: *req runs the question, then the call's own schedule. Consumes the plan. */
int axon_coll_plan_start_agreeing(struct axon_coll_plan *p, struct axon_request **req, const char **why);

#endif
