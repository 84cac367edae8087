/* Why a collective runs the algorithm it runs: every algorithm of the collective, simulated for one call
 * on a described machine under the cost model (coll/axon_coll_simulate.h), with its predicted time,
 * beside the rules' choice (what runs today) and the least predicted time (what the model would pick).
 * axon_info --explain prints it. */
#ifndef AXON_COLL_EXPLAIN_H
#define AXON_COLL_EXPLAIN_H

#include "coll/axon_coll_model.h"
#include "coll/axon_coll_select.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Prints the table for a call of kind moving bytes (as NCCL's tests count them) on topology t, its buffers
 * host or GPU memory (device: the domain level prices messages inside a domain, and the domain
 * algorithms apply where the machine is one domain); returns the index of the algorithm with the least
 * predicted time, or -1 when none could be simulated (why says so). */
int axon_coll_explain(FILE *out, const struct axon_runtime_topo_spec *t, const struct axon_coll_model *m,
                      enum axon_coll_kind kind, int64_t bytes, bool device, char *why, size_t whylen);

#endif
