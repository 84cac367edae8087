/* Partitioned communication of MPI 4: MPI_Psend_init, MPI_Precv_init, MPI_Pready, MPI_Pready_range,
 * MPI_Pready_list and MPI_Parrived.
 *
 * A partitioned operation is a persistent point-to-point request (started by MPI_Start(all), completed
 * by the MPI_Wait and MPI_Test calls, freed by MPI_Request_free) of partitions * count elements, on the
 * communicator's partitioned engine context (axon_comm_part_view), where only partitioned operations
 * meet: a partitioned send never matches an ordinary receive, and the two sides may cut the same message
 * into different numbers of partitions. The whole message moves once: the send is posted when its last
 * partition is marked ready (by whichever thread marks it), and a receive's partitions arrive together,
 * when it completes (MPI_Parrived answers for all of them then). That keeps every path of the engine
 * (the node's rings, single copy, rendezvous, GPU buffers) for the one message; a send of each partition
 * as it becomes ready would overlap more, at a message per partition.
 *
 * Matching follows the order of the initialization calls, as the standard says (not of MPI_Start or of
 * MPI_Pready): the k-th MPI_Psend_init to a peer with a tag on a communicator pairs with the k-th
 * MPI_Precv_init from this process with that tag there, and their messages carry an engine tag made
 * of both, so no other pair's can match them. A tag below 2^24 takes k modulo 128 in its top bits (at
 * most 128 such operations with one peer and tag may live at once, each side, or the k-th and the
 * (k+128)-th could meet); a larger tag is carried whole in the negative tags (one live operation per
 * peer and tag then). Beyond either limit, initialization fails with MPI_ERR_UNSUPPORTED_OPERATION.
 *
 * The request's scratch holds its partitions' state (freed with the request). */
#include "mpi/comm/axon_mpi_comm.h"
#include "mpi/pt2pt/axon_mpi_pt2pt_check.h"

#include "ucx_glue/ucx_glue.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The initializations so far with one peer, tag and direction on a communicator (its list, under
 * axon_part_lock, freed with the communicator). */
struct axon_part_pair {
    struct axon_part_pair *next;
    int peer, tag;
    bool send;
    uint64_t inits;              /* initializations so far: the next one's k */
    int live;                    /* requests not yet freed */
};

static pthread_mutex_t axon_part_lock = PTHREAD_MUTEX_INITIALIZER;

#define AXON_PART_SMALL_TAGS (1 << 24)
#define AXON_PART_LIVE_MAX 128

struct axon_part {
    struct axon_part_pair *pair;
    int user_tag;                /* what statuses report */
    int partitions;
    atomic_int ready;            /* partitions marked ready since the last MPI_Start (sends) */
    atomic_uchar *marked;        /* [partitions]: marked since the last MPI_Start */
};

/* This initialization's place among those with peer and tag (the k above), and the engine tag it makes. */
static int axon_part_pair_take(struct axon_comm *c, int peer, int tag, bool send, struct axon_part *part,
                               int *engine_tag, const char **why)
{
    pthread_mutex_lock(&axon_part_lock);
    struct axon_part_pair *p = c->part_pairs;
    while (p && (p->peer != peer || p->tag != tag || p->send != send))
        p = p->next;
    if (!p && (p = calloc(1, sizeof(*p)))) {
        *p = (struct axon_part_pair){.next = c->part_pairs, .peer = peer, .tag = tag, .send = send};
        c->part_pairs = p;
    }
    int rc = MPI_SUCCESS;
    if (!p) {
        rc = MPI_ERR_NO_MEM;
        *why = "out of memory";
    } else if (p->live >= (tag < AXON_PART_SMALL_TAGS ? AXON_PART_LIVE_MAX : 1)) {
        rc = MPI_ERR_UNSUPPORTED_OPERATION;
        *why = tag < AXON_PART_SMALL_TAGS
                   ? "more than 128 partitioned operations with one peer and tag would live at once"
                   : "a second partitioned operation with one peer and a tag of 2^24 or more would live at once";
    } else {
        uint64_t k = p->inits++;
        p->live++;
        part->pair = p;
        *engine_tag = tag < AXON_PART_SMALL_TAGS ? tag + (int)((k % AXON_PART_LIVE_MAX) << 24)
                                                 : INT_MIN + (tag - AXON_PART_SMALL_TAGS);
    }
    pthread_mutex_unlock(&axon_part_lock);
    return rc;
}

static void axon_part_pair_give_back(struct axon_part *part)
{
    if (!part->pair)
        return;
    pthread_mutex_lock(&axon_part_lock);
    part->pair->live--;
    pthread_mutex_unlock(&axon_part_lock);
    part->pair = NULL;
}

void axon_mpi_partitioned_free(struct axon_request *req)
{
    axon_part_pair_give_back(req->scratch);
}

int axon_mpi_partitioned_tag(const struct axon_request *req)
{
    return ((const struct axon_part *)req->scratch)->user_tag;
}

void axon_mpi_partitioned_comm_destroy(struct axon_comm *c)
{
    while (c->part_pairs) {
        struct axon_part_pair *p = c->part_pairs;
        c->part_pairs = p->next;
        free(p);
    }
}

static int axon_part_init(const char *func, enum axon_request_kind kind, const void *buf, int partitions,
                          MPI_Count count, MPI_Datatype datatype, int peer, int tag, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    struct axon_comm *c;
    struct axon_dtype_layout dt;
    AXON_MPI_REQUIRE_ACTIVE(func);
    AXON_MPI_COMM_CHECK(func, comm, c);
    if (!request)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "request is a NULL pointer");
    *request = MPI_REQUEST_NULL; /* what an error below leaves */
    if (partitions < 1)
        return axon_mpi_error(c, func, MPI_ERR_ARG, "partitions %d is not positive", partitions);
    if (count < 0)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "count %lld is negative", (long long)count);
    if (count > 0 && (int64_t)partitions > INT64_MAX / count)
        return axon_mpi_error(c, func, MPI_ERR_COUNT, "partitions * count overflows");
    int64_t total = (int64_t)partitions * count;
    AXON_MPI_CHECK_BUFFER(func, c, buf, total, datatype, dt, peer);
    /* No wildcards: a partitioned pair is one sender and one receiver with one tag. */
    if (peer != MPI_PROC_NULL && (peer < 0 || peer >= c->pt2pt.size))
        return axon_mpi_error(c, func, MPI_ERR_RANK, "rank %d is not in the communicator (size %d)%s", peer,
                              c->pt2pt.size, peer == MPI_ANY_SOURCE ? " (MPI_ANY_SOURCE is not allowed)" : "");
    if (tag < 0)
        return axon_mpi_error(c, func, MPI_ERR_TAG, "tag %d is negative%s", tag,
                              tag == MPI_ANY_TAG ? " (MPI_ANY_TAG is not allowed)" : "");
    if (info != MPI_INFO_NULL && !axon_mpi_info_valid(info))
        return axon_mpi_error(c, func, MPI_ERR_INFO, "invalid info object %s", AXON_MPI_HANDLE_NAME(info));

    struct axon_part *part = calloc(1, sizeof(*part) + sizeof(atomic_uchar) * (size_t)partitions);
    if (!part)
        return axon_mpi_error(c, func, MPI_ERR_NO_MEM, "out of memory");
    part->partitions = partitions;
    part->marked = (atomic_uchar *)(part + 1);
    part->user_tag = tag;
    int engine_tag = tag;
    if (peer != MPI_PROC_NULL) {
        const char *why = NULL;
        int rc = axon_part_pair_take(c, peer, tag, kind == AXON_REQUEST_SEND, part, &engine_tag, &why);
        if (rc != MPI_SUCCESS) {
            free(part);
            return axon_mpi_error(c, func, rc, "%s", why);
        }
    }
    struct axon_pt2pt_comm *view;
    int rc = axon_comm_part_view(c, &view);
    struct axon_request *req = NULL;
    if (rc == MPI_SUCCESS)
        rc = axon_pt2pt_request_init(kind, (void *)buf, total, &dt, peer, engine_tag, view, AXON_SEND_STANDARD, &req);
    if (rc != MPI_SUCCESS) {
        axon_part_pair_give_back(part);
        free(part);
        return axon_mpi_error(c, func, rc, "cannot set the partitioned operation up");
    }
    req->persistent = true;
    req->partitioned = true;
    req->scratch = part;
    *request = axon_mpi_request_handle(req);
    return MPI_SUCCESS;
}

AXON_MPI_WEAK(Psend_init)
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return axon_part_init("MPI_Psend_init", AXON_REQUEST_SEND, buf, partitions, count, datatype, dest, tag, comm, info,
                          request);
}

AXON_MPI_WEAK(Precv_init)
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return axon_part_init("MPI_Precv_init", AXON_REQUEST_RECV, buf, partitions, count, datatype, source, tag, comm,
                          info, request);
}

int axon_mpi_partitioned_start(struct axon_request *req)
{
    struct axon_part *part = req->scratch;
    if (req->kind == AXON_REQUEST_RECV)
        return axon_pt2pt_start(req);
    /* A send moves when its last partition is ready (axon_part_mark). */
    atomic_store(&part->ready, 0);
    for (int i = 0; i < part->partitions; i++)
        atomic_store_explicit(&part->marked[i], 0, memory_order_relaxed);
    axon_pt2pt_start_deferred(req);
    return MPI_SUCCESS;
}

/* The partitioned send of a handle, active (started and not completed); NULL after raising the error. */
static struct axon_request *axon_part_send_of(const char *func, MPI_Request handle, int *rc)
{
    struct axon_request *req = axon_mpi_request_get(handle);
    *rc = MPI_SUCCESS;
    if (!req || !req->partitioned || req->kind != AXON_REQUEST_SEND)
        *rc = axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "request %s is not a partitioned send",
                             AXON_MPI_HANDLE_NAME(handle));
    else if (!req->active)
        *rc = axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "the partitioned send is not started");
    return *rc == MPI_SUCCESS ? req : NULL;
}

/* Marks one partition ready; the last one posts the send. */
static int axon_part_mark(const char *func, struct axon_request *req, int partition)
{
    struct axon_part *part = req->scratch;
    if (partition < 0 || partition >= part->partitions)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "partition %d is not one of 0..%d", partition,
                              part->partitions - 1);
    if (atomic_exchange(&part->marked[partition], 1))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "partition %d was marked ready already since MPI_Start",
                              partition);
    if (atomic_fetch_add(&part->ready, 1) + 1 < part->partitions || req->peer == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = axon_pt2pt_post(req);
    return rc == MPI_SUCCESS ? rc : axon_mpi_error(NULL, func, rc, "the partitioned send could not start");
}

AXON_MPI_WEAK(Pready)
int PMPI_Pready(int partition, MPI_Request request)
{
    static const char func[] = "MPI_Pready";
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc;
    struct axon_request *req = axon_part_send_of(func, request, &rc);
    return req ? axon_part_mark(func, req, partition) : rc;
}

AXON_MPI_WEAK(Pready_range)
int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    static const char func[] = "MPI_Pready_range";
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc;
    struct axon_request *req = axon_part_send_of(func, request, &rc);
    if (!req)
        return rc;
    struct axon_part *part = req->scratch;
    if (partition_low < 0 || partition_high >= part->partitions || partition_low > partition_high)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "partitions %d..%d are not a range of 0..%d", partition_low,
                              partition_high, part->partitions - 1);
    for (int p = partition_low; p <= partition_high && rc == MPI_SUCCESS; p++)
        rc = axon_part_mark(func, req, p);
    return rc;
}

AXON_MPI_WEAK(Pready_list)
int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    static const char func[] = "MPI_Pready_list";
    AXON_MPI_REQUIRE_ACTIVE(func);
    int rc;
    struct axon_request *req = axon_part_send_of(func, request, &rc);
    if (!req)
        return rc;
    if (length < 0 || (length > 0 && !array_of_partitions))
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "length %d or array_of_partitions is not valid", length);
    for (int i = 0; i < length && rc == MPI_SUCCESS; i++)
        rc = axon_part_mark(func, req, array_of_partitions[i]);
    return rc;
}

AXON_MPI_WEAK(Parrived)
int PMPI_Parrived(MPI_Request request, int partition, int *flag)
{
    static const char func[] = "MPI_Parrived";
    AXON_MPI_REQUIRE_ACTIVE(func);
    struct axon_request *req = axon_mpi_request_get(request);
    if (!req || !req->partitioned || req->kind != AXON_REQUEST_RECV)
        return axon_mpi_error(NULL, func, MPI_ERR_REQUEST, "request %s is not a partitioned receive",
                              AXON_MPI_HANDLE_NAME(request));
    struct axon_part *part = req->scratch;
    if (partition < 0 || partition >= part->partitions)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "partition %d is not one of 0..%d", partition,
                              part->partitions - 1);
    if (!flag)
        return axon_mpi_error(NULL, func, MPI_ERR_ARG, "flag is a NULL pointer");
    /* Every partition arrives with the message: an inactive request's (completed and waited for, or
     * never started) have all arrived as far as the program can tell. */
    if (req->active && !atomic_load_explicit(&req->complete, memory_order_acquire))
        axon_ucx_progress();
    *flag = !req->active || atomic_load_explicit(&req->complete, memory_order_acquire);
    return MPI_SUCCESS;
}
