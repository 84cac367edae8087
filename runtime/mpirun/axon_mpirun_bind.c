/* Binding ranks to CPUs, the way Open MPI and MPICH do on one machine. The plan is made once, before any
 * rank starts, from hwloc's topology restricted to the CPUs mpirun itself may use: rank i (its local rank)
 * is mapped to the i-th core in hwloc's logical order (the i-th hardware thread for --bind-to hwthread),
 * round-robin when ranks outnumber cores, and bound to that core or to the bigger object of the requested
 * level that holds it. Without --bind-to, a job binds to cores while its ranks fit the cores and stays
 * unbound when it oversubscribes, so its ranks share all CPUs freely (as Open MPI does). The child applies
 * its rank's set with sched_setaffinity between fork and exec, which is async-signal-safe where hwloc's
 * calls are not. Nothing here fails a job: without a topology, ranks run unbound. */
#include "axon_mpirun.h"

#include <errno.h>
#include <hwloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pure mapping logic (no hwloc) --------------------------------------------------------------- */

int axon_mpirun_bind_object_index(int local_rank, int nobjs)
{
    if (nobjs <= 0 || local_rank < 0)
        return -1;
    return local_rank % nobjs;
}

enum axon_mpirun_bind_level axon_mpirun_bind_resolve(enum axon_mpirun_bind_level requested, bool hwthread_cpus,
                                                     int nranks, int ncores, int npus)
{
    if (requested != AXON_MPIRUN_BIND_DEFAULT)
        return requested;
    if (ncores <= 0)
        ncores = npus;
    int slots = hwthread_cpus ? npus : ncores;
    if (slots <= 0 || nranks > slots)
        return AXON_MPIRUN_BIND_NONE;
    return hwthread_cpus ? AXON_MPIRUN_BIND_HWTHREAD : AXON_MPIRUN_BIND_CORE;
}

const char *axon_mpirun_bind_level_name(enum axon_mpirun_bind_level level)
{
    switch (level) {
    case AXON_MPIRUN_BIND_DEFAULT: return "default";
    case AXON_MPIRUN_BIND_NONE: return "none";
    case AXON_MPIRUN_BIND_HWTHREAD: return "hwthread";
    case AXON_MPIRUN_BIND_CORE: return "core";
    case AXON_MPIRUN_BIND_L1CACHE: return "l1cache";
    case AXON_MPIRUN_BIND_L2CACHE: return "l2cache";
    case AXON_MPIRUN_BIND_L3CACHE: return "l3cache";
    case AXON_MPIRUN_BIND_NUMA: return "numa";
    case AXON_MPIRUN_BIND_PACKAGE: return "package";
    case AXON_MPIRUN_BIND_BOARD: return "board";
    }
    return "?";
}

/* ---- the plan, from a topology ------------------------------------------------------------------- */

static hwloc_obj_type_t axon_mpirun_bind_type(enum axon_mpirun_bind_level level)
{
    switch (level) {
    case AXON_MPIRUN_BIND_HWTHREAD: return HWLOC_OBJ_PU;
    case AXON_MPIRUN_BIND_L1CACHE: return HWLOC_OBJ_L1CACHE;
    case AXON_MPIRUN_BIND_L2CACHE: return HWLOC_OBJ_L2CACHE;
    case AXON_MPIRUN_BIND_L3CACHE: return HWLOC_OBJ_L3CACHE;
    case AXON_MPIRUN_BIND_NUMA: return HWLOC_OBJ_NUMANODE;
    case AXON_MPIRUN_BIND_PACKAGE: return HWLOC_OBJ_PACKAGE;
    case AXON_MPIRUN_BIND_BOARD: return HWLOC_OBJ_MACHINE;
    default: return HWLOC_OBJ_CORE;
    }
}

__attribute__((format(printf, 3, 4))) static void axon_mpirun_bind_warn(char *warn, size_t warnlen,
                                                                        const char *fmt, ...)
{
    if (warnlen == 0 || warn[0] != '\0')
        return; /* the first warning says it; the others follow from it */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(warn, warnlen, fmt, ap);
    va_end(ap);
}

/* The object of `type` that holds all of `inner` (NUMA nodes hang beside the CPU tree in hwloc 2, so
 * containment of CPU sets decides, not ancestry); NULL when none does. */
static hwloc_obj_t axon_mpirun_bind_holder(hwloc_topology_t topo, hwloc_obj_type_t type, hwloc_obj_t inner)
{
    if (inner->type == type)
        return inner;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, type, NULL); o;
         o = hwloc_get_next_obj_by_type(topo, type, o)) {
        if (!hwloc_bitmap_iszero(o->cpuset) && hwloc_bitmap_isincluded(inner->cpuset, o->cpuset))
            return o;
    }
    return NULL;
}

/* Fills one rank's entry with the CPUs of `obj`; -1 when they cannot be held. */
static int axon_mpirun_bind_rank_set(struct axon_mpirun_bind_rank *r, hwloc_obj_t obj)
{
    int last = hwloc_bitmap_last(obj->cpuset);
    if (last < 0)
        return -1; /* empty, or infinite */
    cpu_set_t *set = CPU_ALLOC((size_t)last + 1);
    char *cpus = NULL;
    if (!set || hwloc_bitmap_list_asprintf(&cpus, obj->cpuset) < 0) {
        if (set)
            CPU_FREE(set);
        return -1;
    }
    size_t size = CPU_ALLOC_SIZE((size_t)last + 1);
    CPU_ZERO_S(size, set);
    unsigned cpu;
    hwloc_bitmap_foreach_begin(cpu, obj->cpuset)
    {
        CPU_SET_S(cpu, size, set);
    }
    hwloc_bitmap_foreach_end();
    r->set = set;
    r->setsize = size;
    r->index = obj->logical_index;
    r->cpus = cpus;
    return 0;
}

/* The CPUs of the topology that no bound rank holds: where a rank's progress thread can run without
 * taking its own core's time (with 8 ranks on 16 cores, a computing rank's nonblocking collective then
 * moves on a core of its own). None while every CPU has a rank. */
static void axon_mpirun_bind_spare(struct axon_mpirun_binding *b, hwloc_topology_t topo)
{
    hwloc_bitmap_t spare = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(topo));
    if (!spare)
        return;
    for (int r = 0; r < b->nranks; r++) {
        const struct axon_mpirun_bind_rank *br = &b->ranks[r];
        for (unsigned cpu = 0; br->set && cpu < 8 * br->setsize; cpu++)
            if (CPU_ISSET_S(cpu, br->setsize, br->set))
                hwloc_bitmap_clr(spare, cpu);
    }
    char *list = NULL;
    if (!hwloc_bitmap_iszero(spare) && hwloc_bitmap_list_asprintf(&list, spare) < 0)
        list = NULL;
    b->spare_cpus = list;
    hwloc_bitmap_free(spare);
}

static void axon_mpirun_bind_clear(struct axon_mpirun_binding *b, int nranks)
{
    memset(b, 0, sizeof(*b));
    b->level = AXON_MPIRUN_BIND_NONE;
    b->nranks = nranks;
}

void axon_mpirun_bind_plan_topology(struct axon_mpirun_binding *b, struct hwloc_topology *topo,
                                    enum axon_mpirun_bind_level requested, bool hwthread_cpus,
                                    bool if_supported, int nranks, char *warn, size_t warnlen)
{
    if (warnlen > 0)
        warn[0] = '\0';
    axon_mpirun_bind_clear(b, nranks);
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    int npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    enum axon_mpirun_bind_level level = axon_mpirun_bind_resolve(requested, hwthread_cpus, nranks, ncores, npus);
    if (level == AXON_MPIRUN_BIND_NONE || nranks <= 0)
        return;
    const char *name = axon_mpirun_bind_level_name(level);
    hwloc_obj_type_t type = axon_mpirun_bind_type(level);
    if (type == HWLOC_OBJ_CORE && ncores <= 0)
        type = HWLOC_OBJ_PU; /* hwloc found no cores: each hardware thread is one */
    if (hwloc_get_nbobjs_by_type(topo, type) <= 0) {
        if (!if_supported)
            axon_mpirun_bind_warn(warn, warnlen,
                                  "mpirun: warning: --bind-to %s: this machine has no %s; the ranks are not bound",
                                  name, name);
        return;
    }
    /* Ranks are mapped by core (by hardware thread when they bind to one, or when hwloc found no cores),
     * and bound to the object of the level that holds their core. */
    hwloc_obj_type_t map = level == AXON_MPIRUN_BIND_HWTHREAD || ncores <= 0 ? HWLOC_OBJ_PU : HWLOC_OBJ_CORE;
    int nmap = map == HWLOC_OBJ_PU ? npus : ncores;
    b->ranks = calloc((size_t)nranks, sizeof(*b->ranks));
    if (!b->ranks) {
        axon_mpirun_bind_warn(warn, warnlen, "mpirun: warning: out of memory; the ranks are not bound");
        return;
    }
    b->level = level;
    int unbound = 0, first_unbound = -1;
    for (int r = 0; r < nranks; r++) {
        hwloc_obj_t where = hwloc_get_obj_by_type(topo, map, (unsigned)axon_mpirun_bind_object_index(r, nmap));
        hwloc_obj_t obj = where ? axon_mpirun_bind_holder(topo, type, where) : NULL;
        if (!obj || axon_mpirun_bind_rank_set(&b->ranks[r], obj) != 0) {
            unbound++;
            if (first_unbound < 0)
                first_unbound = r;
        }
    }
    if (unbound == nranks) {
        axon_mpirun_bind_free(b);
        axon_mpirun_bind_clear(b, nranks);
    } else {
        axon_mpirun_bind_spare(b, topo);
    }
    if (unbound > 0 && !if_supported)
        axon_mpirun_bind_warn(warn, warnlen, "mpirun: warning: --bind-to %s: no %s holds the core of rank %d; %d "
                              "rank%s not bound", name, name, first_unbound, unbound, unbound == 1 ? " is" : "s are");
}

/* ---- the plan on this machine -------------------------------------------------------------------- */

/* Restricts the topology to the CPUs this thread may run on (the ranks inherit them): hwloc 2 already
 * leaves out the CPUs outside our cgroup, not those outside our affinity (taskset, a batch system). */
static int axon_mpirun_bind_restrict(hwloc_topology_t topo)
{
    hwloc_bitmap_t mine = hwloc_bitmap_alloc();
    if (!mine)
        return -1;
    int rc = 0;
    if (hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_THREAD) == 0) {
        hwloc_bitmap_and(mine, mine, hwloc_topology_get_topology_cpuset(topo));
        if (!hwloc_bitmap_iszero(mine) && !hwloc_bitmap_isequal(mine, hwloc_topology_get_topology_cpuset(topo)))
            rc = hwloc_topology_restrict(topo, mine, 0);
    }
    hwloc_bitmap_free(mine);
    return rc;
}

void axon_mpirun_bind_plan(struct axon_mpirun_binding *b, const struct axon_mpirun_options *opts, char *warn,
                           size_t warnlen)
{
    if (warnlen > 0)
        warn[0] = '\0';
    axon_mpirun_bind_clear(b, opts->nranks);
    if (opts->bind_to == AXON_MPIRUN_BIND_NONE)
        return; /* no need to read the topology */
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        goto err_topology;
    /* Only the CPUs and caches matter: no I/O devices, no instruction caches. */
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_icache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    if (hwloc_topology_load(topo) != 0 || axon_mpirun_bind_restrict(topo) != 0)
        goto err_load;
    axon_mpirun_bind_plan_topology(b, topo, (enum axon_mpirun_bind_level)opts->bind_to, opts->hwthread_cpus,
                                   opts->bind_if_supported, opts->nranks, warn, warnlen);
    hwloc_topology_destroy(topo);
    return;
err_load:
    hwloc_topology_destroy(topo);
err_topology:
    if (opts->bind_to != AXON_MPIRUN_BIND_DEFAULT && !opts->bind_if_supported)
        axon_mpirun_bind_warn(warn, warnlen, "mpirun: warning: cannot read this machine's topology (hwloc); the "
                              "ranks are not bound");
}

/* ---- report, apply, free ------------------------------------------------------------------------- */

void axon_mpirun_bind_report(const struct axon_mpirun_binding *b, FILE *f)
{
    for (int r = 0; r < b->nranks; r++) {
        const struct axon_mpirun_bind_rank *br = b->ranks ? &b->ranks[r] : NULL;
        if (br && br->set)
            fprintf(f, "mpirun: rank %d bound to %s %u (cpus %s)\n", r, axon_mpirun_bind_level_name(b->level),
                    br->index, br->cpus);
        else
            fprintf(f, "mpirun: rank %d not bound\n", r);
    }
    fflush(f);
}

int axon_mpirun_bind_apply(const struct axon_mpirun_binding *b, int rank)
{
    if (!b || !b->ranks || rank < 0 || rank >= b->nranks || !b->ranks[rank].set)
        return 0;
    if (sched_setaffinity(0, b->ranks[rank].setsize, b->ranks[rank].set) != 0)
        return errno;
    return 0;
}

void axon_mpirun_bind_free(struct axon_mpirun_binding *b)
{
    for (int r = 0; b->ranks && r < b->nranks; r++) {
        if (b->ranks[r].set)
            CPU_FREE(b->ranks[r].set);
        free(b->ranks[r].cpus);
    }
    free(b->ranks);
    b->ranks = NULL;
    free(b->spare_cpus);
    b->spare_cpus = NULL;
}
