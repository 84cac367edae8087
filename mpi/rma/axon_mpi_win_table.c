/* The window table: MPICH-ABI handles to window objects, the objects' destruction, and errors raised on a
 * window. Windows take direct handles 0xa0000000 | generation << 14 | slot (kind 8, MPIR_WIN, in bits
 * 26-29), as communicators do: the lookup on every one-sided call is one array load and one compare,
 * and the generation, bumped each time a slot is freed, makes a freed window's stale handle
 * MPI_ERR_WIN rather than the slot's next window. Slots are added as windows are, so a program that
 * never makes one costs nothing; the table never shrinks, so a lookup needs no lock.
 *
 * A window starts with MPI_ERRORS_ARE_FATAL, as MPI 4.1 section 9.3 says (MPICH instead sends errors on a
 * window without a handler of its own to MPI_COMM_WORLD's; we follow the standard). */
#include "mpi/rma/axon_mpi_win.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AXON_MPI_WIN_DIRECT 0xa0000000u
#define AXON_MPI_WIN_SLOT_BITS 14
#define AXON_MPI_WIN_SLOTS (1u << AXON_MPI_WIN_SLOT_BITS)
#define AXON_MPI_WIN_GEN_MASK 0xfffu /* bits 14-25 of the handle */

static struct axon_win *_Atomic axon_mpi_win_slots[AXON_MPI_WIN_SLOTS];
static uint16_t axon_mpi_win_gen[AXON_MPI_WIN_SLOTS];
static uint32_t axon_mpi_win_hint;
static pthread_mutex_t axon_mpi_win_lock = PTHREAD_MUTEX_INITIALIZER;

struct axon_win *axon_mpi_win_get(MPI_Win handle)
{
    unsigned h = (unsigned)handle;
    if ((h & 0xfc000000u) != AXON_MPI_WIN_DIRECT)
        return NULL;
    struct axon_win *w = atomic_load_explicit(&axon_mpi_win_slots[h & (AXON_MPI_WIN_SLOTS - 1)], memory_order_acquire);
    return w && w->handle == handle ? w : NULL;
}

int axon_mpi_win_handle_new(struct axon_win *w)
{
    int rc = MPI_ERR_INTERN;
    pthread_mutex_lock(&axon_mpi_win_lock);
    for (uint32_t i = 0; i < AXON_MPI_WIN_SLOTS; i++) {
        uint32_t slot = (axon_mpi_win_hint + i) % AXON_MPI_WIN_SLOTS;
        if (!atomic_load_explicit(&axon_mpi_win_slots[slot], memory_order_relaxed)) {
            uint32_t gen = axon_mpi_win_gen[slot];
            w->handle = (MPI_Win)(AXON_MPI_WIN_DIRECT | gen << AXON_MPI_WIN_SLOT_BITS | slot);
            atomic_store_explicit(&axon_mpi_win_slots[slot], w, memory_order_release);
            axon_mpi_win_hint = slot + 1;
            rc = MPI_SUCCESS;
            break;
        }
    }
    pthread_mutex_unlock(&axon_mpi_win_lock);
    return rc;
}

void axon_mpi_win_handle_drop(struct axon_win *w)
{
    uint32_t slot = (uint32_t)w->handle & (AXON_MPI_WIN_SLOTS - 1);
    pthread_mutex_lock(&axon_mpi_win_lock);
    if (atomic_load_explicit(&axon_mpi_win_slots[slot], memory_order_relaxed) == w) {
        atomic_store_explicit(&axon_mpi_win_slots[slot], NULL, memory_order_release);
        axon_mpi_win_gen[slot] = (uint16_t)((axon_mpi_win_gen[slot] + 1) & AXON_MPI_WIN_GEN_MASK);
    }
    pthread_mutex_unlock(&axon_mpi_win_lock);
}

void axon_mpi_win_destroy(struct axon_win *w)
{
    axon_attr_drop(&w->attrs);
    if (w->comm)
        axon_comm_release(w->comm);
    axon_group_release(w->group);
    if (w->info != MPI_INFO_NULL)
        axon_mpi_info_release(w->info);
    axon_mpi_errhandler_release(w->errhandler);
    free(w);
}

void axon_mpi_win_table_finalize(void)
{
    /* The engine has let go of its windows (axon_rma_finalize); what is left here is the program's
     * leak, dropped without callbacks, as communicators are. Runs before the communicator table goes, so
     * the hidden communicators are released like any other. */
    for (uint32_t slot = 0; slot < AXON_MPI_WIN_SLOTS; slot++) {
        struct axon_win *w = atomic_load_explicit(&axon_mpi_win_slots[slot], memory_order_relaxed);
        if (!w)
            continue;
        atomic_store_explicit(&axon_mpi_win_slots[slot], NULL, memory_order_relaxed);
        axon_mpi_win_gen[slot] = (uint16_t)((axon_mpi_win_gen[slot] + 1) & AXON_MPI_WIN_GEN_MASK);
        axon_mpi_win_destroy(w);
    }
    axon_mpi_win_hint = 0;
}

void axon_mpi_win_name_get(MPI_Win handle, char *name)
{
    struct axon_win *w = axon_mpi_win_get(handle);
    snprintf(name, MPI_MAX_OBJECT_NAME, "%s", w ? w->name : "");
}

int axon_mpi_win_error(struct axon_win *w, const char *func, int errclass, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    /* "on window \"halo\" (0xa0000001)" or "on window 0xa0000001". */
    char on[AXON_MPI_HANDLE_NAME_MAX + 16];
    snprintf(on, sizeof(on), "window %s", AXON_MPI_HANDLE_NAME(w->handle));
    return axon_mpi_error_with(w->errhandler, w->handle, on, func, errclass, "%s", detail);
}
