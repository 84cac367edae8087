/* The communicator table: MPICH-ABI handles to communicator objects, and the objects' birth and death.
 * MPI_COMM_WORLD (0x44000000) and MPI_COMM_SELF (0x44000001) are static objects; communicators made at
 * run time take direct handles 0x84000000 | generation << 14 | slot. The lookup on every call's fast
 * path is one array load and one compare: the generation (bumped each time a slot is reused) makes a
 * freed communicator's stale handle invalid rather than a different communicator. A slot's count is
 * the number of context ids, since no process can be in more live communicators than it has ids.
 *
 * A communicator owns engine contexts (axon_mpi_comm_context.c): for an intracommunicator, user
 * point-to-point, internal collectives and tagged creation traffic; an intercommunicator's views map
 * ranks to the remote group, and a hidden intracommunicator over its local group (no handle) carries
 * the local side of its collectives. MPI_Comm_free takes the handle away at once; the object, its
 * contexts and its id stay until no request names it (the standard lets pending operations complete),
 * on a list that later frees and MPI_Finalize look at. */
#include "mpi/comm/axon_mpi_comm.h"

#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AXON_COMM_DIRECT 0x84000000u
#define AXON_COMM_SLOT_BITS 14
#define AXON_COMM_SLOTS (1u << AXON_COMM_SLOT_BITS)
#define AXON_COMM_GEN_MASK 0xfffu /* bits 14-25 of the handle */
_Static_assert(AXON_COMM_SLOTS >= AXON_CTX_IDS, "a slot for every id");

static struct axon_comm axon_comm_world, axon_comm_self;
/* A hidden communicator over the world group, with no handle: MPI_Comm_create_from_group and
 * MPI_Intercomm_create_from_groups agree on ids over its tagged context (mpi/comm/axon_mpi_comm_from_group.c),
 * where no user traffic can meet theirs. */
static struct axon_comm axon_comm_sessions;

struct axon_comm *axon_mpi_comm_sessions(void)
{
    return &axon_comm_sessions;
}
static struct axon_comm *_Atomic axon_comm_slots[AXON_COMM_SLOTS];
static uint16_t axon_comm_gen[AXON_COMM_SLOTS];
static uint32_t axon_comm_hint;
static struct axon_comm *axon_comm_zombies; /* freed, some request still names them */
static pthread_mutex_t axon_comm_lock = PTHREAD_MUTEX_INITIALIZER;

struct axon_comm *axon_mpi_comm_get(MPI_Comm handle)
{
    unsigned h = (unsigned)handle;
    if (handle == MPI_COMM_WORLD)
        return &axon_comm_world;
    if ((h & 0xfc000000u) == AXON_COMM_DIRECT) {
        struct axon_comm *c =
            atomic_load_explicit(&axon_comm_slots[h & (AXON_COMM_SLOTS - 1)], memory_order_acquire);
        return c && c->handle == handle ? c : NULL;
    }
    if (handle == MPI_COMM_SELF)
        return &axon_comm_self;
    return NULL;
}

bool axon_comm_is_predefined(const struct axon_comm *c)
{
    return c == &axon_comm_world || c == &axon_comm_self || c == &axon_comm_sessions;
}

/* Attaches one engine view of a communicator. */
static int axon_comm_view_attach(struct axon_pt2pt_comm *v, uint32_t context, int rank, const struct axon_group *peers)
{
    *v = (struct axon_pt2pt_comm){
        .context_id = context,
        .rank = rank,
        .size = peers->size,
        /* MPI_COMM_WORLD's ranks are world ranks: no table on its fast path. */
        .world_ranks = peers->world,
    };
    return axon_pt2pt_comm_attach(v);
}

static void axon_comm_views_detach(struct axon_comm *c)
{
    struct axon_pt2pt_comm *views[] = {&c->pt2pt, &c->coll, &c->tagged, &c->part};
    for (size_t i = 0; i < AXON_ARRAY_SIZE(views); i++)
        if (views[i]->queues.posted) /* attached: the match queues exist */
            axon_pt2pt_comm_detach(views[i]);
}

/* The partitioned view is attached on first use: most communicators never need its match queues. */
static pthread_mutex_t axon_comm_part_lock = PTHREAD_MUTEX_INITIALIZER;

int axon_comm_part_view(struct axon_comm *c, struct axon_pt2pt_comm **view)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&axon_comm_part_lock);
    if (!c->part.queues.posted)
        rc = axon_comm_view_attach(&c->part, axon_ctx_engine(c->context_index, AXON_CTX_PART), c->rank,
                                   c->is_inter ? c->remote_group : c->group);
    pthread_mutex_unlock(&axon_comm_part_lock);
    *view = &c->part;
    return rc;
}

/* The engine views of a communicator whose group, rank and size are set. */
static int axon_comm_views_attach(struct axon_comm *c)
{
    uint32_t id = c->context_index;
    const struct axon_group *peers = c->is_inter ? c->remote_group : c->group;
    int rc = axon_comm_view_attach(&c->pt2pt, axon_ctx_engine(id, AXON_CTX_PT2PT), c->rank, peers);
    if (rc == MPI_SUCCESS)
        rc = axon_comm_view_attach(&c->coll, axon_ctx_engine(id, AXON_CTX_COLL), c->rank, peers);
    c->coll.collective = true;
    if (rc == MPI_SUCCESS)
        rc = axon_comm_view_attach(&c->tagged, axon_ctx_engine(id, AXON_CTX_TAGGED), c->rank, peers);
    if (rc != MPI_SUCCESS)
        axon_comm_views_detach(c);
    return rc;
}

/* Frees an object that no request names any more (its handle is gone already). */
static void axon_comm_destroy(struct axon_comm *c)
{
    axon_comm_views_detach(c);
    axon_mpi_partitioned_comm_destroy(c);
    if (c->local_comm) {
        axon_comm_views_detach(c->local_comm);
        axon_group_release(c->local_comm->group);
        free(c->local_comm);
    }
    axon_comm_attr_drop(c);
    free(c->ft_acked);
    axon_coll_comm_fini(&c->collectives);
    if (c->info != MPI_INFO_NULL)
        axon_mpi_info_release(c->info);
    axon_mpi_errhandler_release(c->errhandler);
    axon_group_release(c->group);
    axon_group_release(c->remote_group);
    axon_comm_context_free(c->context_index);
    free(c);
}

static bool axon_comm_idle(const struct axon_comm *c)
{
    return atomic_load_explicit(&c->pt2pt.busy, memory_order_acquire) == 0 &&
           atomic_load_explicit(&c->coll.busy, memory_order_acquire) == 0 &&
           atomic_load_explicit(&c->tagged.busy, memory_order_acquire) == 0 &&
           atomic_load_explicit(&c->part.busy, memory_order_acquire) == 0 &&
           (!c->local_comm || atomic_load_explicit(&c->local_comm->coll.busy, memory_order_acquire) == 0);
}

/* Destroys the zombies whose last request has gone. */
static void axon_comm_reap(void)
{
    struct axon_comm *ready = NULL;
    pthread_mutex_lock(&axon_comm_lock);
    for (struct axon_comm **link = &axon_comm_zombies; *link;) {
        struct axon_comm *z = *link;
        if (axon_comm_idle(z)) {
            *link = z->zombie_next;
            z->zombie_next = ready;
            ready = z;
        } else {
            link = &z->zombie_next;
        }
    }
    pthread_mutex_unlock(&axon_comm_lock);
    while (ready) {
        struct axon_comm *z = ready;
        ready = z->zombie_next;
        axon_comm_destroy(z);
    }
}

int axon_comm_new(const struct axon_comm_spec *spec, struct axon_comm **out)
{
    axon_comm_reap();
    struct axon_comm *c = calloc(1, sizeof(*c));
    if (!c)
        return MPI_ERR_NO_MEM;
    c->context_index = spec->context_index;
    c->group = spec->group;
    axon_group_retain(c->group);
    c->rank = c->group->rank;
    c->size = c->group->size;
    c->is_inter = spec->remote_group != NULL;
    if (c->is_inter) {
        c->remote_group = spec->remote_group;
        axon_group_retain(c->remote_group);
        c->remote_size = c->remote_group->size;
    }
    c->errhandler = spec->errhandler;
    c->session = spec->session;
    axon_mpi_errhandler_retain(c->errhandler);
    c->info = MPI_INFO_NULL;

    int rc = axon_comm_views_attach(c);
    if (rc == MPI_SUCCESS && c->is_inter) {
        struct axon_comm *local = calloc(1, sizeof(*local));
        if (!local) {
            rc = MPI_ERR_NO_MEM;
        } else {
            local->handle = MPI_COMM_NULL;
            local->group = c->group;
            axon_group_retain(local->group);
            local->rank = c->rank;
            local->size = c->size;
            local->context_index = c->context_index;
            local->errhandler = MPI_ERRORS_RETURN;
            local->info = MPI_INFO_NULL;
            c->local_comm = local;
            rc = axon_comm_view_attach(&local->coll, axon_ctx_engine(c->context_index, AXON_CTX_LOCAL_COLL),
                                       local->rank, local->group);
        }
    }

    if (rc == MPI_SUCCESS)
        axon_coll_comm_init(&c->collectives, &c->coll, c->local_comm ? &c->local_comm->coll : NULL, c->rank, c->size,
                            c->remote_size, c->group->world);
    if (rc == MPI_SUCCESS) {
        pthread_mutex_lock(&axon_comm_lock);
        uint32_t slot = AXON_COMM_SLOTS;
        for (uint32_t i = 0; i < AXON_COMM_SLOTS; i++) {
            uint32_t j = (axon_comm_hint + i) % AXON_COMM_SLOTS;
            if (!atomic_load_explicit(&axon_comm_slots[j], memory_order_relaxed)) {
                slot = j;
                break;
            }
        }
        if (slot < AXON_COMM_SLOTS) {
            c->handle = (MPI_Comm)(AXON_COMM_DIRECT | (uint32_t)axon_comm_gen[slot] << AXON_COMM_SLOT_BITS | slot);
            atomic_store_explicit(&axon_comm_slots[slot], c, memory_order_release);
            axon_comm_hint = slot + 1;
        } else {
            rc = MPI_ERR_INTERN;
        }
        pthread_mutex_unlock(&axon_comm_lock);
    }
    if (rc != MPI_SUCCESS) {
        /* The id belongs to the caller (it frees it on failure). */
        c->context_index = UINT32_MAX;
        axon_comm_destroy(c);
        return rc;
    }
    *out = c;
    return MPI_SUCCESS;
}

static void axon_comm_handle_drop(struct axon_comm *c)
{
    uint32_t slot = (uint32_t)c->handle & (AXON_COMM_SLOTS - 1);
    pthread_mutex_lock(&axon_comm_lock);
    if (atomic_load_explicit(&axon_comm_slots[slot], memory_order_relaxed) == c) {
        atomic_store_explicit(&axon_comm_slots[slot], NULL, memory_order_release);
        axon_comm_gen[slot] = (uint16_t)((axon_comm_gen[slot] + 1) & AXON_COMM_GEN_MASK);
    }
    pthread_mutex_unlock(&axon_comm_lock);
    /* Keep the old handle in the object: a thread that looked it up a moment ago still compares equal,
     * but nobody finds the object by it any more. */
}

void axon_comm_release(struct axon_comm *c)
{
    axon_comm_handle_drop(c);
    if (axon_comm_idle(c)) {
        axon_comm_destroy(c);
    } else {
        pthread_mutex_lock(&axon_comm_lock);
        c->zombie_next = axon_comm_zombies;
        axon_comm_zombies = c;
        pthread_mutex_unlock(&axon_comm_lock);
    }
    axon_comm_reap();
}

void axon_comm_discard(struct axon_comm *c)
{
    axon_comm_handle_drop(c);
    axon_comm_destroy(c);
}

/* ---- the predefined communicators ------------------------------------------------------------------ */

static int axon_comm_predefined_init(struct axon_comm *c, MPI_Comm handle, const char *name, uint32_t id,
                                     struct axon_group *group)
{
    *c = (struct axon_comm){
        .handle = handle,
        .rank = group->rank,
        .size = group->size,
        .errhandler = MPI_ERRORS_ARE_FATAL,
        .context_index = id,
        .group = group,
        .info = MPI_INFO_NULL,
    };
    snprintf(c->name, sizeof(c->name), "%s", name);
    int rc = axon_comm_views_attach(c);
    if (rc == MPI_SUCCESS)
        axon_coll_comm_init(&c->collectives, &c->coll, NULL, c->rank, c->size, 0, group->world);
    return rc;
}

int axon_mpi_comm_table_init(void)
{
    axon_comm_context_init();
    int n = axon_runtime_job.size;
    struct axon_group *world = axon_group_alloc(n), *self = axon_group_alloc(1);
    if (!world || !self) {
        axon_group_release(world);
        axon_group_release(self);
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < n; r++)
        world->world[r] = r;
    world->rank = axon_runtime_job.rank;
    self->world[0] = axon_runtime_job.rank;
    self->rank = 0;
    int rc = axon_comm_predefined_init(&axon_comm_world, MPI_COMM_WORLD, "MPI_COMM_WORLD", AXON_CTX_WORLD, world);
    if (rc == MPI_SUCCESS) {
        /* World ranks are world ranks: the engine needs no table on MPI_COMM_WORLD's fast path. */
        axon_comm_world.pt2pt.world_ranks = axon_comm_world.coll.world_ranks = NULL;
        axon_comm_world.tagged.world_ranks = NULL;
        rc = axon_comm_predefined_init(&axon_comm_self, MPI_COMM_SELF, "MPI_COMM_SELF", AXON_CTX_SELF, self);
    }
    if (rc == MPI_SUCCESS) {
        axon_group_retain(world);
        rc = axon_comm_predefined_init(&axon_comm_sessions, MPI_COMM_NULL, "(sessions)", AXON_CTX_SESSIONS, world);
    }
    return rc;
}

void axon_mpi_comm_table_finalize(void)
{
    axon_comm_context_report();
    /* What the program did not free goes now, without callbacks: MPI is no longer usable. */
    for (uint32_t i = 0; i < AXON_COMM_SLOTS; i++) {
        struct axon_comm *c = atomic_load(&axon_comm_slots[i]);
        if (c) {
            atomic_store(&axon_comm_slots[i], NULL);
            axon_comm_destroy(c);
        }
    }
    while (axon_comm_zombies) {
        struct axon_comm *z = axon_comm_zombies;
        axon_comm_zombies = z->zombie_next;
        axon_comm_destroy(z);
    }
    struct axon_comm *predefined[] = {&axon_comm_sessions, &axon_comm_self, &axon_comm_world};
    for (int i = 0; i < 3; i++) {
        struct axon_comm *c = predefined[i];
        axon_comm_views_detach(c);
        axon_mpi_partitioned_comm_destroy(c);
        axon_comm_attr_drop(c);
        axon_coll_comm_fini(&c->collectives);
        if (c->info != MPI_INFO_NULL)
            axon_mpi_info_release(c->info);
        axon_mpi_errhandler_release(c->errhandler);
        c->errhandler = MPI_ERRHANDLER_NULL;
        axon_group_release(c->group);
        c->group = NULL;
    }
    axon_mpi_group_table_finalize();
    /* Info objects outlive MPI_Finalize (MPI 4.0): the user's stay. */
}
