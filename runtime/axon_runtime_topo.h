/* The shape of the machine a job runs on, as the collectives see it: nodes (ranks that share memory),
 * and inside a node NVLink domains (ranks whose GPUs reach each other directly).
 *
 * Two things live here. A topology description, "nodes=4,ranks_per_node=4,domains_per_node=2", read
 * from a string or a file (pure logic, used by the simulator and by AXON_TOPO). And the job's own
 * topology: the nodes PMIx reported (runtime/axon_runtime_bootstrap.c), unless AXON_TOPO replaces them
 * by a synthetic one, so that many ranks on one machine act as several nodes and domains (for tests
 * and benchmarks of hierarchical collectives). A synthetic node must lie within one real node (its
 * ranks share memory for real); every layer then takes it for a node: the point-to-point rings, the
 * shared-memory collectives and MPI_COMM_TYPE_SHARED stay inside it. Without AXON_TOPO each node is
 * one domain until the ranks' GPUs are known (axon_runtime_topo_set_gpus, at MPI_Init). */
#ifndef AXON_RUNTIME_TOPO_H
#define AXON_RUNTIME_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Ranks are numbered node by node, and inside a node domain by domain: rank r is on node
 * r / ranks_per_node, in domain (r % ranks_per_node) / (ranks_per_node / domains_per_node) of it. */
struct axon_runtime_topo_spec {
    int nodes, ranks_per_node, domains_per_node, nics_per_node;
    int nodes_per_host; /* nodes that share one machine's memory (synthetic nodes of one host), default 1 */
};

/* The expected form of a description, for messages. */
#define AXON_RUNTIME_TOPO_FORM                                                                               \
    "nodes=N,ranks_per_node=R[,domains_per_node=D][,nics_per_node=K][,nodes_per_host=H] (or "              \
    "ranks_per_domain=P instead of ranks_per_node: R = D*P), positive integers, D dividing R, H dividing N, " \
    "e.g. nodes=4,ranks_per_node=4"

/* Writes a message into why (of whylen bytes; nothing when why is NULL): the pure-logic readers (this
 * one, the cost model's) explain a refusal this way. */
void axon_runtime_why(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Reads a description such as "nodes=1024,ranks_per_node=128,domains_per_node=2,nics_per_node=8"
 * (keys in any order; domains_per_node and nics_per_node default to 1). MPI_ERR_ARG for a malformed
 * one, with why (of whylen bytes) saying what is wrong and the expected form; *t is set only on
 * success. */
int axon_runtime_topo_parse(const char *text, struct axon_runtime_topo_spec *t, char *why, size_t whylen);
/* The same from a file holding such a description, its keys separated by commas or line ends, with
 * '#' comments. */
int axon_runtime_topo_read_file(const char *path, struct axon_runtime_topo_spec *t, char *why, size_t whylen);
int64_t axon_runtime_topo_spec_ranks(const struct axon_runtime_topo_spec *t);
int axon_runtime_topo_spec_node(const struct axon_runtime_topo_spec *t, int rank);
/* The domain of a rank, numbered across the whole machine (node n's domains follow node n-1's). */
int axon_runtime_topo_spec_domain(const struct axon_runtime_topo_spec *t, int rank);

/* The job's topology (in axon_runtime_job: node_of_rank, domain_of_rank ...), after the bootstrap:
 * AXON_TOPO's description (text, or a file's path) when text is not empty, else PMIx's nodes with one
 * domain each. Fails, with err saying why and showing the expected form, when the description is
 * malformed, describes fewer ranks than the job has, or puts ranks of two real nodes in one node. */
int axon_runtime_topo_init(const char *text, char *err, size_t errlen);
void axon_runtime_topo_finalize(void);

/* ---- GPUs and NVLink domains ------------------------------------------------------------------- */

#define AXON_RUNTIME_GPU_PEERS_MAX 32
#define AXON_RUNTIME_GPU_CLIQUE_BYTES 20

/* What a rank tells the others of its GPU at MPI_Init (cuda_support fills it, MPI_Init exchanges it):
 * plain data, the same on every machine, sent as it is. */
struct axon_runtime_gpu_ident {
    uint32_t present;                        /* 0: no GPU (or CUDA support off): the rest is zero */
    uint32_t pci;                            /* its GPU: PCI domain << 16 | bus << 8 | device */
    uint32_t npeers;                         /* GPUs its GPU reads and writes directly (P2P: NVLink or */
    uint32_t peers[AXON_RUNTIME_GPU_PEERS_MAX]; /* PCIe), by PCI id, among those the rank sees */
    /* NVML's GPU fabric clique (the cluster's UUID, then the clique id): GPUs of one multi-node NVLink
     * domain (an NVL72 rack) share it across nodes. All zero: none (no NVML, no fabric). */
    uint8_t clique[AXON_RUNTIME_GPU_CLIQUE_BYTES];
};

/* The job's domains from every rank's GPU (ids[size]), unless AXON_TOPO set synthetic ones: ranks of one
 * node whose GPUs are the same or reach each other both ways by P2P, and ranks anywhere whose GPUs share
 * an NVML fabric clique, are one domain (closed transitively); ranks without a GPU form one domain per
 * node. Domains are numbered by their lowest rank. Also keeps each rank's GPU for axon_info.
 * node_only (AXON_MODEX=direct): only the ranks of this rank's node are in ids; their domains are
 * found among them alone (no clique reaches beyond the node) and named by their lowest rank, which every
 * rank of the node computes alike; the other ranks' domains are -1 and num_domains is -1 (unknown). */
int axon_runtime_topo_set_gpus(const struct axon_runtime_gpu_ident *ids, bool node_only);
/* The GPU a rank announced (PCI id), or -1 for none or before axon_runtime_topo_set_gpus. */
long axon_runtime_topo_gpu_of(int rank);

/* Where this process runs, from hwloc: the processors it may run on ("0-3,8", OS numbering) and the
 * NUMA nodes that hold them ("0"); "?" when hwloc cannot tell. */
void axon_runtime_topo_locality(char *cores, size_t coreslen, char *numa, size_t numalen);

#endif
