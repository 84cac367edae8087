/* Data layouts and their segment cursor (see axon_pt2pt_dloop.h). */
#include "pt2pt/axon_pt2pt_dloop.h"

#include <stdlib.h>
#include <string.h>

struct axon_dloop *axon_dloop_leaf(int64_t len)
{
    struct axon_dloop *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->kind = AXON_DLOOP_LEAF;
    l->refcount = 1;
    l->size = len;
    l->depth = 1;
    l->u.leaf.len = len;
    return l;
}

void axon_dloop_retain(struct axon_dloop *loop)
{
    __atomic_add_fetch(&loop->refcount, 1, __ATOMIC_RELAXED);
}

void axon_dloop_release(struct axon_dloop *loop)
{
    if (!loop || __atomic_sub_fetch(&loop->refcount, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    switch (loop->kind) {
    case AXON_DLOOP_LEAF:
        break;
    case AXON_DLOOP_VECTOR:
        axon_dloop_release(loop->u.vector.child);
        break;
    case AXON_DLOOP_BLOCKS:
        for (int64_t i = 0; i < loop->u.blocks.n; i++)
            axon_dloop_release(loop->u.blocks.children[i]);
        free(loop->u.blocks.blocklens);
        free(loop->u.blocks.displs);
        free(loop->u.blocks.child_extents);
        free(loop->u.blocks.children);
        break;
    }
    free(loop);
}

/* A child laid end to end with no gap is as good as one leaf of its whole length. */
static bool axon_dloop_is_dense_leaf(const struct axon_dloop *child, int64_t child_extent)
{
    return child->kind == AXON_DLOOP_LEAF && child->u.leaf.len == child_extent;
}

struct axon_dloop *axon_dloop_vector(int64_t count, int64_t blocklen, int64_t stride, struct axon_dloop *child,
                                     int64_t child_extent)
{
    if (count == 0 || blocklen == 0 || child->size == 0)
        return axon_dloop_leaf(0);
    struct axon_dloop *bytes = NULL;
    if (axon_dloop_is_dense_leaf(child, child_extent)) {
        /* Each block is plain bytes: one leaf for all of it when the blocks abut, else blocks of bytes. */
        int64_t block_bytes = blocklen * child_extent;
        if (count == 1 || stride == block_bytes)
            return axon_dloop_leaf(block_bytes * count);
        bytes = axon_dloop_leaf(block_bytes);
        if (!bytes)
            return NULL;
        child = bytes;
        child_extent = block_bytes;
        blocklen = 1;
    }
    struct axon_dloop *l = calloc(1, sizeof(*l));
    if (l) {
        l->kind = AXON_DLOOP_VECTOR;
        l->refcount = 1;
        l->size = count * blocklen * child->size;
        l->depth = child->depth + 1;
        l->u.vector.count = count;
        l->u.vector.blocklen = blocklen;
        l->u.vector.stride = stride;
        l->u.vector.child_extent = child_extent;
        l->u.vector.child = child;
        axon_dloop_retain(child);
    }
    axon_dloop_release(bytes);
    return l;
}

struct axon_dloop *axon_dloop_blocks(int64_t n, const int64_t *blocklens, const int64_t *displs,
                                     struct axon_dloop *const *children, const int64_t *child_extents)
{
    /* Empty blocks carry no data: drop them. */
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++)
        if (blocklens[i] > 0 && children[i]->size > 0)
            kept++;
    if (kept == 0)
        return axon_dloop_leaf(0);
    struct axon_dloop *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->kind = AXON_DLOOP_BLOCKS;
    l->refcount = 1;
    l->u.blocks.blocklens = malloc(sizeof(int64_t) * (size_t)kept);
    l->u.blocks.displs = malloc(sizeof(int64_t) * (size_t)kept);
    l->u.blocks.child_extents = malloc(sizeof(int64_t) * (size_t)kept);
    l->u.blocks.children = malloc(sizeof(struct axon_dloop *) * (size_t)kept);
    if (!l->u.blocks.blocklens || !l->u.blocks.displs || !l->u.blocks.child_extents || !l->u.blocks.children) {
        free(l->u.blocks.blocklens);
        free(l->u.blocks.displs);
        free(l->u.blocks.child_extents);
        free(l->u.blocks.children);
        free(l);
        return NULL;
    }
    int depth = 0;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (blocklens[i] == 0 || children[i]->size == 0)
            continue;
        /* Merge a block that continues the previous one with the same dense leaf child. */
        if (k > 0 && children[i] == l->u.blocks.children[k - 1] &&
            axon_dloop_is_dense_leaf(children[i], child_extents[i]) &&
            displs[i] == l->u.blocks.displs[k - 1] + l->u.blocks.blocklens[k - 1] * child_extents[i]) {
            l->u.blocks.blocklens[k - 1] += blocklens[i];
            l->size += blocklens[i] * children[i]->size;
            continue;
        }
        l->u.blocks.blocklens[k] = blocklens[i];
        l->u.blocks.displs[k] = displs[i];
        l->u.blocks.child_extents[k] = child_extents[i];
        l->u.blocks.children[k] = children[i];
        axon_dloop_retain(children[i]);
        l->size += blocklens[i] * children[i]->size;
        if (children[i]->depth > depth)
            depth = children[i]->depth;
        k++;
    }
    l->u.blocks.n = k;
    l->depth = depth + 1;
    return l;
}

/* ---- the cursor ----------------------------------------------------------------------------------- */

static int64_t axon_dloop_nblocks(const struct axon_dloop *l)
{
    return l->kind == AXON_DLOOP_VECTOR ? l->u.vector.count : l->u.blocks.n;
}

static int64_t axon_dloop_blocklen(const struct axon_dloop *l, int64_t i)
{
    return l->kind == AXON_DLOOP_VECTOR ? l->u.vector.blocklen : l->u.blocks.blocklens[i];
}

static const struct axon_dloop *axon_dloop_child(const struct axon_dloop *l, int64_t i)
{
    return l->kind == AXON_DLOOP_VECTOR ? l->u.vector.child : l->u.blocks.children[i];
}

/* Address offset of child copy (index, inner) of a frame. */
static int64_t axon_dloop_child_base(const struct axon_dloop_frame *f)
{
    const struct axon_dloop *l = f->loop;
    if (l->kind == AXON_DLOOP_VECTOR)
        return f->base + f->index * l->u.vector.stride + f->inner * l->u.vector.child_extent;
    return f->base + l->u.blocks.displs[f->index] + f->inner * l->u.blocks.child_extents[f->index];
}

/* Places the stack at byte rem of the element whose frame is at depth d, descending to a leaf. */
static void axon_dloop_place(struct axon_dloop_cursor *c, int d, int64_t rem)
{
    for (;;) {
        struct axon_dloop_frame *f = &c->stack[d];
        const struct axon_dloop *l = f->loop;
        if (l->kind == AXON_DLOOP_LEAF) {
            c->depth = d + 1;
            c->leaf_offset = rem;
            return;
        }
        if (l->kind == AXON_DLOOP_VECTOR) {
            int64_t csize = l->u.vector.child->size;
            int64_t bsize = l->u.vector.blocklen * csize;
            f->index = rem / bsize;
            f->inner = (rem % bsize) / csize;
            rem = rem % csize;
        } else {
            f->index = 0;
            while (rem >= l->u.blocks.blocklens[f->index] * l->u.blocks.children[f->index]->size) {
                rem -= l->u.blocks.blocklens[f->index] * l->u.blocks.children[f->index]->size;
                f->index++;
            }
            int64_t csize = l->u.blocks.children[f->index]->size;
            f->inner = rem / csize;
            rem = rem % csize;
        }
        struct axon_dloop_frame *child = &c->stack[d + 1];
        child->loop = axon_dloop_child(l, f->index);
        child->base = axon_dloop_child_base(f);
        child->index = child->inner = 0;
        d++;
    }
}

int axon_dloop_cursor_init(struct axon_dloop_cursor *c, const struct axon_dloop *loop, int64_t count,
                           int64_t extent)
{
    memset(c, 0, sizeof(*c));
    c->loop = loop;
    c->count = count;
    c->extent = extent;
    c->stack = c->small;
    if (loop->depth > (int)(sizeof(c->small) / sizeof(c->small[0]))) {
        c->stack = calloc((size_t)loop->depth, sizeof(*c->stack));
        if (!c->stack)
            return -1;
    }
    axon_dloop_cursor_seek(c, 0);
    return 0;
}

void axon_dloop_cursor_fini(struct axon_dloop_cursor *c)
{
    if (c->stack != c->small)
        free(c->stack);
    c->stack = NULL;
}

void axon_dloop_cursor_seek(struct axon_dloop_cursor *c, int64_t position)
{
    int64_t total = c->loop->size * c->count;
    if (position > total)
        position = total;
    c->position = position;
    c->depth = 0;
    if (position == total || c->loop->size == 0) {
        c->element = c->count;
        return;
    }
    c->element = position / c->loop->size;
    c->stack[0] = (struct axon_dloop_frame){.loop = c->loop, .base = c->element * c->extent};
    axon_dloop_place(c, 0, position % c->loop->size);
}

/* After a leaf is used up: the next leaf, or the end (depth 0). */
static void axon_dloop_advance(struct axon_dloop_cursor *c)
{
    int d = c->depth - 2; /* the leaf's parent */
    while (d >= 0) {
        struct axon_dloop_frame *f = &c->stack[d];
        if (++f->inner == axon_dloop_blocklen(f->loop, f->index)) {
            f->inner = 0;
            if (++f->index == axon_dloop_nblocks(f->loop)) {
                d--;
                continue;
            }
        }
        struct axon_dloop_frame *child = &c->stack[d + 1];
        child->loop = axon_dloop_child(f->loop, f->index);
        child->base = axon_dloop_child_base(f);
        child->index = child->inner = 0;
        axon_dloop_place(c, d + 1, 0);
        return;
    }
    /* The element is done: the next one, from its start. */
    if (++c->element >= c->count) {
        c->depth = 0;
        return;
    }
    c->stack[0] = (struct axon_dloop_frame){.loop = c->loop, .base = c->element * c->extent};
    axon_dloop_place(c, 0, 0);
}

int64_t axon_dloop_cursor_next(struct axon_dloop_cursor *c, int64_t max, int64_t *offset)
{
    if (c->depth == 0 || max <= 0)
        return 0;
    const struct axon_dloop_frame *leaf = &c->stack[c->depth - 1];
    int64_t left = leaf->loop->u.leaf.len - c->leaf_offset;
    int64_t n = left < max ? left : max;
    *offset = leaf->base + c->leaf_offset;
    c->leaf_offset += n;
    c->position += n;
    if (c->leaf_offset == leaf->loop->u.leaf.len)
        axon_dloop_advance(c);
    return n;
}

int64_t axon_dloop_pack(struct axon_dloop_cursor *c, const void *buf, void *packed, int64_t len)
{
    int64_t done = 0, off, n;
    while (done < len && (n = axon_dloop_cursor_next(c, len - done, &off)) > 0) {
        memcpy((char *)packed + done, (const char *)buf + off, (size_t)n);
        done += n;
    }
    return done;
}

int64_t axon_dloop_unpack(struct axon_dloop_cursor *c, void *buf, const void *packed, int64_t len)
{
    int64_t done = 0, off, n;
    while (done < len && (n = axon_dloop_cursor_next(c, len - done, &off)) > 0) {
        memcpy((char *)buf + off, (const char *)packed + done, (size_t)n);
        done += n;
    }
    return done;
}
