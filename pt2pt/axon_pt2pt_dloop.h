/* Data layouts ("dataloops"): how the bytes of one element of a datatype lie in memory, as a small tree
 * that the segment engine walks. Pure logic, no MPI objects: the datatype calls build these, pack and
 * unpack walk them in segments (a large strided message streams through a bounded buffer, and a send
 * or receive resumes where the last segment stopped).
 *
 *   LEAF    len contiguous bytes at displacement 0
 *   VECTOR  count blocks; block i starts at i*stride and holds blocklen children laid one child extent
 *           apart (contiguous and vector types, and contiguous runs of any type)
 *   BLOCKS  n blocks; block i starts at displs[i] and holds blocklens[i] copies of children[i]
 *           (indexed, hindexed, indexed_block, struct)
 *
 * Building merges what can be merged: a VECTOR of LEAF children whose extent equals their length
 * becomes one bigger LEAF, a VECTOR whose blocks abut becomes a longer block, BLOCKS of plain bytes that
 * abut become one run, and BLOCKS that are equally spaced copies of one thing become a VECTOR, so a
 * contiguous type of any shape costs one memcpy. A displacement of a whole loop is a "shift" (BLOCKS of
 * one block of one copy); constructors lift shifts out of their children, so at most one shift sits on
 * top of a loop and the merges see the shapes beneath it. */
#ifndef AXON_PT2PT_DLOOP_H
#define AXON_PT2PT_DLOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum axon_dloop_kind { AXON_DLOOP_LEAF, AXON_DLOOP_VECTOR, AXON_DLOOP_BLOCKS };

struct axon_dloop {
    enum axon_dloop_kind kind;
    int refcount;
    int64_t size;   /* bytes of data in one element */
    int depth;      /* 1 for a leaf */
    union {
        struct { int64_t len; } leaf;
        struct {
            int64_t count, blocklen, stride;
            int64_t child_extent;
            struct axon_dloop *child;
        } vector;
        struct {
            int64_t n;
            int64_t *blocklens;
            int64_t *displs;
            int64_t *child_extents;
            struct axon_dloop **children;
            int64_t unit_len; /* every block is one leaf of this many bytes (an indexed block of one
                               * basic element, say); 0 otherwise */
            bool leaves;      /* every block is one leaf (of any length) */
        } blocks;
    } u;
};

/* Constructors take a reference on their children; each returns NULL when out of memory. */
struct axon_dloop *axon_dloop_leaf(int64_t len);
struct axon_dloop *axon_dloop_vector(int64_t count, int64_t blocklen, int64_t stride_bytes,
                                     struct axon_dloop *child, int64_t child_extent);
struct axon_dloop *axon_dloop_blocks(int64_t n, const int64_t *blocklens, const int64_t *displs,
                                     struct axon_dloop *const *children, const int64_t *child_extents);
/* child moved by disp bytes (child itself, retained, when disp is 0). */
struct axon_dloop *axon_dloop_shift(int64_t disp, struct axon_dloop *child);
void axon_dloop_retain(struct axon_dloop *loop);
void axon_dloop_release(struct axon_dloop *loop);

/* Whether one element's bytes lie in one piece, in packing order; *start gets where it begins. */
bool axon_dloop_contig_run(const struct axon_dloop *loop, int64_t *start);

/* A resumable walk over count elements of a loop (elements extent apart), from byte 0 of the packed
 * stream. Each call to axon_dloop_cursor_next yields the next contiguous piece, at most max bytes. */
struct axon_dloop_frame {
    const struct axon_dloop *loop;
    int64_t base;     /* address offset of the current element of this loop */
    int64_t index;    /* VECTOR: block; BLOCKS: block */
    int64_t inner;    /* the child copy within the block */
};

struct axon_dloop_cursor {
    const struct axon_dloop *loop;
    int64_t count, extent;
    int64_t element;       /* which of the count elements */
    int64_t leaf_offset;   /* bytes of the current leaf already yielded */
    int64_t position;      /* bytes yielded in all */
    int depth;
    struct axon_dloop_frame *stack;
    struct axon_dloop_frame small[8];
};

int axon_dloop_cursor_init(struct axon_dloop_cursor *c, const struct axon_dloop *loop, int64_t count,
                           int64_t extent);
void axon_dloop_cursor_fini(struct axon_dloop_cursor *c);
/* The next contiguous piece: *offset (from the buffer's start) and its length (<= max); 0 at the end. */
int64_t axon_dloop_cursor_next(struct axon_dloop_cursor *c, int64_t max, int64_t *offset);
/* Moves the cursor to byte position of the packed stream (forward or back). */
void axon_dloop_cursor_seek(struct axon_dloop_cursor *c, int64_t position);

/* Copies between a typed buffer and a packed stream, the piece [first, first+len) of the stream.
 * Returns the bytes copied (less than len only at the end of the data). */
int64_t axon_dloop_pack(struct axon_dloop_cursor *c, const void *buf, void *packed, int64_t len);
int64_t axon_dloop_unpack(struct axon_dloop_cursor *c, void *buf, const void *packed, int64_t len);

#endif
