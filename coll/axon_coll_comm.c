/* What the collectives keep for a communicator (coll/axon_coll_comm.h): its node map, its node's shared
 * segment and its spare block arrays, each made at the first call that needs it. */
#include "coll/axon_coll_comm.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_shm.h"
#include "coll/coll.h"
#include "runtime/runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void axon_coll_comm_init(struct axon_coll_comm *cc, struct axon_pt2pt_comm *view, struct axon_pt2pt_comm *local_view,
                         int rank, int size, int remote_size, const int *world)
{
    *cc = (struct axon_coll_comm){.view = view, .local_view = local_view, .rank = rank, .size = size,
                                  .is_inter = local_view != NULL, .remote_size = remote_size, .world = world};
}

void axon_coll_comm_fini(struct axon_coll_comm *cc)
{
    axon_coll_shm_destroy(cc->shm);
    cc->shm = NULL;
    for (int i = 0; i < 2; i++)
        free(atomic_exchange(&cc->spare_blocks[i], NULL));
    if (cc->nodes) {
        axon_coll_nodes_free(cc->nodes);
        free(cc->nodes);
        cc->nodes = NULL;
    }
}

bool axon_coll_comm_one_node(const struct axon_coll_comm *cc)
{
    const int *node = axon_runtime_job.node_of_rank;
    if (!node)
        return axon_runtime_job.num_nodes <= 1;
    for (int j = 0; j < cc->size; j++)
        if (node[cc->world[j]] != axon_runtime_job.node)
            return false;
    return true;
}

/* Made from the runtime's nodes (AXON_TOPO's when set): every member makes it from the same job-wide
 * table, so all agree on which compositions apply. */
const struct axon_coll_nodes *axon_coll_comm_nodes(struct axon_coll_comm *cc)
{
    int state = atomic_load_explicit(&cc->nodes_state, memory_order_acquire);
    if (state != 0)
        return state > 0 ? cc->nodes : NULL;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    if (atomic_load_explicit(&cc->nodes_state, memory_order_relaxed) == 0) {
        struct axon_coll_nodes *nodes = malloc(sizeof(*nodes));
        int *ids = malloc(sizeof(int) * (size_t)cc->size);
        bool ok = nodes && ids;
        for (int r = 0; ok && r < cc->size; r++)
            ids[r] = axon_runtime_job.node_of_rank[cc->world[r]];
        ok = ok && axon_coll_nodes_build(nodes, ids, cc->size, axon_runtime_job.num_nodes) == MPI_SUCCESS;
        free(ids);
        if (!ok) {
            free(nodes);
            nodes = NULL;
        }
        cc->nodes = nodes;
        atomic_store_explicit(&cc->nodes_state, ok ? 1 : -1, memory_order_release);
    }
    pthread_mutex_unlock(&lock);
    return atomic_load_explicit(&cc->nodes_state, memory_order_acquire) > 0 ? cc->nodes : NULL;
}

int axon_coll_comm_shm_make(struct axon_coll_comm *cc, struct axon_coll_shm **shm)
{
    if (cc->shm_state == 0) {
        cc->shm_state = -1;
        if (cc->size > 1 && axon_coll_shm_limit() > 0 && axon_coll_comm_one_node(cc)) {
            unsigned seq = axon_coll_comm_next_seq(cc);
            int rc = axon_coll_shm_create(cc->view, cc->rank, cc->size, axon_coll_comm_tag(seq), &cc->shm);
            if (rc != MPI_SUCCESS)
                return rc;
            if (cc->shm)
                cc->shm_state = 1;
        }
    }
    *shm = cc->shm;
    return MPI_SUCCESS;
}

/* A stream of small collectives then pays no malloc and free for its block arrays. Plain loads and
 * stores, no read-modify-write: only a collective call on the communicator takes or gives (a persistent
 * request's arrays are never given), and threads that call collectives on one communicator must order
 * those calls by their own synchronization (MPI 4.1, 11.6.2), so two never run at once (the node's
 * shared-memory path counts on that too). An array taken here has at least axon_coll_comm_peers entries,
 * so any may go back and serve any later call. */
struct axon_coll_block *axon_coll_comm_blocks_take(struct axon_coll_comm *cc, int n)
{
    int peers = axon_coll_comm_peers(cc);
    if (n <= peers) {
        for (int i = 0; i < 2; i++) {
            struct axon_coll_block *b = atomic_load_explicit(&cc->spare_blocks[i], memory_order_relaxed);
            if (b) {
                atomic_store_explicit(&cc->spare_blocks[i], NULL, memory_order_relaxed);
                memset(b, 0, sizeof(*b) * (size_t)(n > 0 ? n : 1));
                return b;
            }
        }
    }
    n = n > peers ? n : peers;
    return calloc((size_t)(n > 0 ? n : 1), sizeof(struct axon_coll_block));
}

void axon_coll_comm_blocks_give(struct axon_coll_comm *cc, struct axon_coll_block *b)
{
    for (int i = 0; b && i < 2; i++) {
        if (!atomic_load_explicit(&cc->spare_blocks[i], memory_order_relaxed)) {
            atomic_store_explicit(&cc->spare_blocks[i], b, memory_order_relaxed);
            return;
        }
    }
    free(b);
}
