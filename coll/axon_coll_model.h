/* The machine as the collectives' cost model sees it: its shape (a topology of nodes, NVLink domains
 * inside them and NICs) and what moving and reducing bytes costs at each level of it (an
 * alpha-beta-gamma model). Pure logic, no MPI state: the simulator (coll/axon_coll_simulate.h) prices
 * the steps of schedules with it, and the selection will.
 *
 * Levels. A message between two ranks travels at the smallest level that holds both: the NVLink
 * domain (GPUs that reach each other's memory directly), the node (shared memory) or the fabric (NICs).
 * Per level: alpha, the latency of a message (s); beta, the inverse bandwidth of one transfer (s/byte);
 * gamma, the cost of reducing a byte of data that lives there (s/byte: domain = GPU memory reduced by
 * a kernel, node = host memory reduced by the CPU; the fabric's is for in-network reduction and unused
 * today). Shared capacity: the concurrent transfers of a node's shared memory share node.capacity
 * (bytes/s, 0: no limit); the fabric transfers leaving (and those entering) a node share its NICs,
 * nics_per_node / fabric.beta bytes/s each way. GPU work of the domain algorithms (coll/axon_coll_domain.c:
 * copies and kernels on peers' memory, which a rank starts and waits for) costs domain.launch seconds per
 * operation and domain.beta per byte it copies (a kernel's bytes counted as half its memory traffic, as a
 * copy's are), at most domain.capacity bytes/s for all ranks of one domain together (the ranks sharing one
 * GPU share its memory; 0: no limit, each rank's GPU its own); a call on GPU buffers costs domain.call more
 * than one on host buffers. Per message the sending and the receiving CPU spend
 * `overhead` seconds to post it; a local copy costs copy_beta per byte; messages of at most eager_max
 * bytes leave without waiting for their receive. Every rank spends `call` seconds on a collective call
 * before its first step (building, starting and completing the schedule, the request).
 *
 * Tuning file: text, one `key = value` per line, `#` starts a comment, blank lines are ignored, keys
 * not named keep their value (the defaults, or what an earlier file set). Keys: domain.alpha,
 * domain.beta, domain.gamma, domain.capacity, domain.launch, domain.call, node.alpha, node.beta,
 * node.gamma, node.capacity, node.capacity_min, fabric.alpha, fabric.beta, fabric.gamma, overhead, copy_beta, call,
 * host.capacity (numbers >= 0, as strtod reads them: 2e-6) and eager_max (an integer >= 0).
 * axon_coll_model_print writes a complete file. */
#ifndef AXON_COLL_MODEL_H
#define AXON_COLL_MODEL_H

#include "runtime/axon_runtime_topo.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum axon_coll_level { AXON_COLL_LEVEL_DOMAIN, AXON_COLL_LEVEL_NODE, AXON_COLL_LEVEL_FABRIC, AXON_COLL_NLEVELS };

/* "domain", "node", "fabric". */
const char *axon_coll_level_name(enum axon_coll_level level);

/* ---- topology ------------------------------------------------------------------------------------- */

/* The smallest level holding both ranks of a topology description (runtime/axon_runtime_topo.h). */
enum axon_coll_level axon_coll_topo_level(const struct axon_runtime_topo_spec *t, int a, int b);

/* ---- costs ---------------------------------------------------------------------------------------- */

struct axon_coll_model_level {
    double alpha;    /* s per message */
    double beta;     /* s per byte of one transfer */
    double gamma;    /* s per byte reduced */
    double capacity; /* bytes/s all concurrent transfers of one node share (node level; 0: none), or all
                      * GPU work of one domain's ranks (domain level) */
    double capacity_min; /* bytes up to which a transfer draws on no memory capacity, the node's, the
                          * domain's or the machine's (node level only: it stays in the caches); 0: all do */
    double launch;   /* s per GPU operation a rank starts and waits for (domain level only) */
    double call;     /* s more per collective call on GPU buffers than `call` (domain level only: the
                      * buffers' classification, the members' agreement, the wait for the program's
                      * queued GPU work before a peer reads the memory) */
};

struct axon_coll_model {
    struct axon_coll_model_level level[AXON_COLL_NLEVELS];
    double overhead;   /* s of CPU to post one send or receive */
    double copy_beta;  /* s per byte of a local copy */
    double call;       /* s of CPU per call, before its steps */
    int64_t eager_max; /* larger messages start once both sides are posted (rendezvous) */
    double host_capacity; /* bytes/s every transfer on one machine shares, whatever its level, where
                           * several nodes share it (nodes_per_host > 1: synthetic nodes); 0: none */
};

/* Plausible values for the host path of a GPU cluster: shared memory in a node (0.3 us, 10 GB/s a
 * transfer, 100 GB/s a node), a 25 GB/s NIC on the fabric (2 us), NVLink in a domain (2 us, 150 GB/s,
 * 6 us to start and wait for a GPU operation, 5 us more per call on GPU buffers, every rank a GPU of its
 * own). */
void axon_coll_model_defaults(struct axon_coll_model *m);
/* Sets one key (the tuning file's names) from its text. MPI_ERR_ARG, with why, for an unknown key or a
 * value that is not a number >= 0; m is unchanged then. */
int axon_coll_model_set(struct axon_coll_model *m, const char *key, const char *value, char *why, size_t whylen);
/* Reads a tuning file's text over m; on an error (MPI_ERR_ARG, why names the line) m is unchanged. */
int axon_coll_model_parse(struct axon_coll_model *m, const char *text, char *why, size_t whylen);
/* The same from a file; MPI_ERR_NO_SUCH_FILE or MPI_ERR_FILE when it cannot be read. */
int axon_coll_model_load(struct axon_coll_model *m, const char *path, char *why, size_t whylen);
/* Writes every key with its value, in the tuning file's form. */
void axon_coll_model_print(const struct axon_coll_model *m, FILE *out);

/* Seconds of one message of bytes at a level with no other transfer around: alpha + bytes * beta. */
double axon_coll_model_message(const struct axon_coll_model *m, enum axon_coll_level level, int64_t bytes);

#endif
