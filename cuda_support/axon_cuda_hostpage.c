/* Pages known to be host memory, until they are unmapped. This file owns that table and the memory
 * event handler (UCX's libucm) that empties it.
 *
 * A host buffer outside the heap, the stack and static data (a large malloc, posix_memalign or numpy
 * array: mmap'd memory; any buffer of jemalloc or tcmalloc) is told by the driver, a query that costs
 * more than a small message once a CUDA context exists, and by a few driver calls before one does: asked
 * per message, every message from such a buffer would pay it. Host answers cannot simply be cached by
 * address because the address may later hold GPU memory. But GPU memory only appears where nothing is
 * mapped: the page must be unmapped first (munmap, mremap, a MAP_FIXED mapping over it, shmdt), and
 * libucm reports every such unmapping before it happens, from whichever thread, glibc's own included
 * (free of a large block). So a page the driver calls host, and that the CPU can read, is host until
 * libucm says it goes; the event clears it from the table. A new mapping clears its pages too: an
 * unmapping libucm cannot see (a raw system call, as AddressSanitizer's allocator makes) leaves stale
 * pages behind, and whatever maps there next (the driver's reservation goes through libc's mmap) takes
 * them away before they can mislead (under ASan a GPU buffer at a reused address would otherwise be
 * copied as host memory).
 *
 * "The CPU can read it" (one byte through process_vm_readv on ourselves, which fails instead of faulting)
 * keeps the driver's own address space out: a freed cudaMalloc address is unknown to the driver, so it
 * answers "host", but its pages stay reserved, unreadable, and may be handed out again without an unmap.
 * (Where the CPU can read GPU memory, coherent platforms, a stale "host" still reads the right bytes.)
 *
 * The table is two-way by a hash of the page number, lock-free: lookups are two loads, inline
 * (cuda_support.h). An unmapping raises a generation before it clears its pages, and a note that saw the
 * generation move is taken back, so a note begun before another thread's unmapping does not outlive it.
 * (A page unmapped while an MPI call uses it is the program's error; a note begun after the clear and
 * before the unmap itself could then stay.) Without libucm's events (UCX_MEM_EVENTS=no, hooks that did
 * not install) nothing is cached and every such buffer is asked as before. */
#include "cuda_support/axon_cuda_internal.h"
#include "runtime/runtime.h"

#include <stdatomic.h>
#include <sys/uio.h>
#include <ucm/api/ucm.h>
#include <unistd.h>

_Static_assert(AXON_CUDA_HOSTPAGE_SLOTS == 2 << AXON_CUDA_HOSTPAGE_PAIR_BITS, "a pair of slots per hash value");

#define AXON_CUDA_HOSTPAGE_EVENTS (UCM_EVENT_VM_UNMAPPED | UCM_EVENT_VM_MAPPED)

/* Read inline by axon_cuda_hostpage_known (cuda_support.h): a slot holds its page's address | 1, or 0. */
_Atomic uintptr_t axon_cuda_hostpage_slot[AXON_CUDA_HOSTPAGE_SLOTS];
unsigned axon_cuda_hostpage_shift = 12;
static atomic_ulong axon_cuda_hostpage_gen;
static atomic_bool axon_cuda_hostpage_on;
#define axon_cuda_hostpage_size ((uintptr_t)1 << axon_cuda_hostpage_shift)

/* Empties the slots of pages in [lo, hi): page by page for a range of few pages, else by a sweep. */
static void axon_cuda_hostpage_clear(uintptr_t lo, uintptr_t hi)
{
    uintptr_t first = lo & ~(axon_cuda_hostpage_size - 1);
    if ((hi - first) / axon_cuda_hostpage_size < AXON_CUDA_HOSTPAGE_SLOTS) {
        for (uintptr_t p = first; p < hi; p += axon_cuda_hostpage_size) {
            unsigned i = axon_cuda_hostpage_pair(p >> axon_cuda_hostpage_shift);
            for (unsigned k = i; k < i + 2; k++) {
                /* A plain load first: the locked exchange only where the page is noted (every mapping
                 * and unmapping of the process comes here, most of them over pages never noted). */
                uintptr_t expect = p | 1;
                if (atomic_load_explicit(&axon_cuda_hostpage_slot[k], memory_order_relaxed) == expect)
                    atomic_compare_exchange_strong(&axon_cuda_hostpage_slot[k], &expect, 0);
            }
        }
        return;
    }
    for (unsigned i = 0; i < AXON_CUDA_HOSTPAGE_SLOTS; i++) {
        uintptr_t v = atomic_load_explicit(&axon_cuda_hostpage_slot[i], memory_order_relaxed);
        uintptr_t p = v & ~(uintptr_t)1;
        if (v && p + axon_cuda_hostpage_size > lo && p < hi)
            atomic_compare_exchange_strong(&axon_cuda_hostpage_slot[i], &v, 0);
    }
}

/* libucm's handler: called before a range is unmapped and after one is mapped, in the thread that does
 * it. */
static void axon_cuda_hostpage_unmapped(ucm_event_type_t type, ucm_event_t *event, void *arg)
{
    (void)arg;
    uintptr_t lo;
    size_t size;
    if (type == UCM_EVENT_VM_UNMAPPED) {
        lo = (uintptr_t)event->vm_unmapped.address;
        size = event->vm_unmapped.size;
    } else if (type == UCM_EVENT_VM_MAPPED) {
        lo = (uintptr_t)event->vm_mapped.address;
        size = event->vm_mapped.size;
    } else {
        return;
    }
    if (size == 0)
        return;
    atomic_fetch_add(&axon_cuda_hostpage_gen, 1);
    axon_cuda_hostpage_clear(lo, lo + size);
}

void axon_cuda_hostpage_note(uintptr_t a)
{
    if (!atomic_load_explicit(&axon_cuda_hostpage_on, memory_order_relaxed))
        return;
    uintptr_t page = a & ~(axon_cuda_hostpage_size - 1);
    unsigned long gen = atomic_load(&axon_cuda_hostpage_gen);
    char byte;
    struct iovec local = {&byte, 1}, remote = {(void *)a, 1};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != 1)
        return; /* not readable by the CPU: the driver's own space, or nothing mapped */
    /* The first slot of the pair when it is empty (or already this page's), else the second (the first
     * keeps its page: a pair shared by three pages in turn still serves one of them). */
    unsigned i = axon_cuda_hostpage_pair(page >> axon_cuda_hostpage_shift);
    _Atomic uintptr_t *slot = &axon_cuda_hostpage_slot[i];
    uintptr_t held = atomic_load_explicit(slot, memory_order_relaxed);
    if (held != 0 && held != (page | 1))
        slot++;
    atomic_store(slot, page | 1);
    if (atomic_load(&axon_cuda_hostpage_gen) != gen) {
        uintptr_t expect = page | 1; /* an unmapping ran meanwhile: it may have cleared before we stored */
        atomic_compare_exchange_strong(slot, &expect, 0);
    }
}

void axon_cuda_hostpage_init(void)
{
    for (unsigned i = 0; i < AXON_CUDA_HOSTPAGE_SLOTS; i++)
        atomic_store_explicit(&axon_cuda_hostpage_slot[i], 0, memory_order_relaxed);
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0 && (page & (page - 1)) == 0)
        axon_cuda_hostpage_shift = (unsigned)__builtin_ctzl((unsigned long)page);
    if (atomic_load(&axon_cuda_hostpage_on))
        return;
    ucs_status_t st = ucm_set_event_handler(AXON_CUDA_HOSTPAGE_EVENTS, -1, axon_cuda_hostpage_unmapped, NULL);
    if (st != UCS_OK) {
        axon_runtime_log_debug(1, "no memory events from libucm (%s): host buffers outside the heap, the "
                                  "stack and static data are asked of the driver every time",
                               ucs_status_string(st));
        return;
    }
    atomic_store(&axon_cuda_hostpage_on, true);
}

void axon_cuda_hostpage_finalize(void)
{
    if (!atomic_exchange(&axon_cuda_hostpage_on, false))
        return;
    ucm_unset_event_handler(AXON_CUDA_HOSTPAGE_EVENTS, axon_cuda_hostpage_unmapped, NULL);
    for (unsigned i = 0; i < AXON_CUDA_HOSTPAGE_SLOTS; i++)
        atomic_store_explicit(&axon_cuda_hostpage_slot[i], 0, memory_order_relaxed);
}
