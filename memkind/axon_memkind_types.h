/* The memory kinds' shared words: which kind of memory a buffer is (host, CUDA; later others), what
 * the classification tells of it, and the descriptors by which a process of the node reaches another's
 * memory (an IPC descriptor of a buffer, a staging window). The layers above use them through
 * memkind/axon_memkind.h; the backend of each kind (cuda_support/ for CUDA) fills them. This header
 * holds types only, so a backend can include it without depending on the table above it. */
#ifndef AXON_MEMKIND_TYPES_H
#define AXON_MEMKIND_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The index of the table of operations (memkind/axon_memkind.c). Pinned host memory is host memory
 * here: the CPU reads and writes it directly. */
enum axon_memkind {
    AXON_MEMKIND_HOST,
    AXON_MEMKIND_CUDA,
    AXON_MEMKIND_COUNT
};

/* What a buffer is (the classification's answer). */
struct axon_memkind_info {
    int type;                    /* the backend's own class of memory (CUDA: enum axon_cuda_memtype) */
    enum axon_memkind kind;
    int device;                  /* ordinal of the GPU it belongs to (among its kind's); -1 for host */
    uintptr_t base;              /* the allocation (for VMM: the mapping) holding the pointer; 0 and */
    size_t size;                 /* 0 for pageable host memory, whose extent nobody tracks */
    uint64_t id;                 /* the driver's id of the allocation: a freed and reallocated address
                                  * gets a new one. 0 for host memory */
};

/* Fills info for host memory (type 0 is every backend's host class). */
static inline void axon_memkind_set_host(struct axon_memkind_info *info)
{
    info->type = 0;
    info->kind = AXON_MEMKIND_HOST;
    info->device = -1;
    info->base = 0;
    info->size = 0;
    info->id = 0;
}

static inline bool axon_memkind_is_host(const struct axon_memkind_info *info)
{
    return info->kind == AXON_MEMKIND_HOST;
}

/* ---- IPC descriptors: a buffer of one process read in place by another of the node ------------------ */

#define AXON_MEMKIND_IPC_HANDLE_BYTES 64
/* Physical allocations one descriptor names at most: a message across more is staged. 64 of PyTorch's
 * 20 MiB expandable-segment pages is 1.25 GiB; the descriptor is then 2.2 KiB. */
#define AXON_MEMKIND_IPC_PARTS_MAX 64

/* One physical allocation under a message, as its sender maps it: the allocations of a message lie
 * side by side in the sender's address space, in address order. */
struct axon_memkind_ipc_part {
    uint64_t id;      /* the sender's memory block id (0: the driver has none; never cached) */
    uint64_t base;    /* its mapping in the sender */
    uint64_t size;
    int32_t fd;       /* the sender's descriptor of its exported POSIX fd, for pidfd_getfd */
    uint32_t unused;
};

/* What a receiver needs to read a sender's GPU memory in place. A handle (nparts 0): the allocation's
 * IPC handle, its id (a freed and reallocated address gets a new one), its extent in the sender, and
 * where the message starts in it. Exported allocations (nparts > 0, CUDA's VMM memory): the sender's pid
 * and nparts parts after the fixed fields; base and size span the parts, offset is the message's start
 * from the first part's base, id and handle are unused. kind names the backend that opens it. The
 * descriptor travels as axon_memkind_ipc_desc_bytes(nparts) bytes. */
struct axon_memkind_ipc_desc {
    unsigned char handle[AXON_MEMKIND_IPC_HANDLE_BYTES];
    uint64_t id;
    uint64_t base;
    uint64_t size;
    uint64_t offset;
    uint64_t bytes;   /* the message's length (set by the caller, not by the export) */
    uint32_t nparts;
    int32_t pid;
    uint32_t kind;    /* enum axon_memkind of the memory described */
    uint32_t unused;
    struct axon_memkind_ipc_part parts[];
};

static inline size_t axon_memkind_ipc_desc_bytes(uint32_t nparts)
{
    return sizeof(struct axon_memkind_ipc_desc) + (size_t)nparts * sizeof(struct axon_memkind_ipc_part);
}

/* The room a descriptor may need: what a sender sets aside for one. */
#define AXON_MEMKIND_IPC_DESC_MAX                                                                          \
    (sizeof(struct axon_memkind_ipc_desc) + AXON_MEMKIND_IPC_PARTS_MAX * sizeof(struct axon_memkind_ipc_part))

/* Whether length bytes at data are a whole descriptor of a known kind; *bytes is then the message's
 * length. */
static inline bool axon_memkind_ipc_desc_check(const void *data, size_t length, uint64_t *bytes)
{
    struct axon_memkind_ipc_desc d;
    if (length < sizeof(d))
        return false;
    memcpy(&d, data, sizeof(d));
    if (d.nparts > AXON_MEMKIND_IPC_PARTS_MAX || length != axon_memkind_ipc_desc_bytes(d.nparts) ||
        d.kind == AXON_MEMKIND_HOST || d.kind >= AXON_MEMKIND_COUNT)
        return false;
    *bytes = d.bytes;
    return true;
}

/* What a peer needs to map a process's staging window (pinned host memory both map): the owner's pid
 * and descriptor, the size, and the kind whose backend made it (and maps it). */
struct axon_memkind_window_id {
    int32_t pid, fd;
    uint32_t kind;
    uint32_t unused;
    uint64_t bytes;
};

/* The most inputs and outputs of one fold, and copies of one copy list, a kind's kernels take. */
#define AXON_MEMKIND_FOLD_MAX 16
#define AXON_MEMKIND_COPY_LIST_MAX 16

#endif
