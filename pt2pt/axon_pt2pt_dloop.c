/* Data layouts and their segment cursor (see axon_pt2pt_dloop.h). */
#include "pt2pt/axon_pt2pt_dloop.h"

#include "runtime/axon_runtime_array.h"

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

/* A BLOCKS loop of one block of one copy is its child moved by a displacement (a "shift"). */
static bool axon_dloop_shift_of(const struct axon_dloop *l, int64_t *disp, struct axon_dloop **inner)
{
    if (l->kind != AXON_DLOOP_BLOCKS || l->u.blocks.n != 1 || l->u.blocks.blocklens[0] != 1)
        return false;
    *disp = l->u.blocks.displs[0];
    *inner = l->u.blocks.children[0];
    return true;
}

/* One block of a BLOCKS loop while it is being built. A run (child NULL) is len plain bytes. */
struct axon_dloop_entry {
    int64_t disp, blocklen, child_extent, len;
    struct axon_dloop *child;
};

/* A BLOCKS loop of exactly these blocks (children are retained; runs must be leaves by now). */
static struct axon_dloop *axon_dloop_blocks_raw(int64_t n, const struct axon_dloop_entry *e)
{
    struct axon_dloop *l = calloc(1, sizeof(*l));
    if (!l)
        return NULL;
    l->kind = AXON_DLOOP_BLOCKS;
    l->refcount = 1;
    l->u.blocks.blocklens = malloc(sizeof(int64_t) * (size_t)n);
    l->u.blocks.displs = malloc(sizeof(int64_t) * (size_t)n);
    l->u.blocks.child_extents = malloc(sizeof(int64_t) * (size_t)n);
    l->u.blocks.children = malloc(sizeof(struct axon_dloop *) * (size_t)n);
    if (!l->u.blocks.blocklens || !l->u.blocks.displs || !l->u.blocks.child_extents || !l->u.blocks.children) {
        free(l->u.blocks.blocklens);
        free(l->u.blocks.displs);
        free(l->u.blocks.child_extents);
        free(l->u.blocks.children);
        free(l);
        return NULL;
    }
    int depth = 0;
    int64_t unit = n > 0 && e[0].child->kind == AXON_DLOOP_LEAF ? e[0].child->u.leaf.len : 0;
    bool leaves = true;
    for (int64_t i = 0; i < n; i++) {
        if (e[i].blocklen != 1 || e[i].child->kind != AXON_DLOOP_LEAF)
            leaves = false;
        if (!leaves || e[i].child->u.leaf.len != unit)
            unit = 0;
        l->u.blocks.blocklens[i] = e[i].blocklen;
        l->u.blocks.displs[i] = e[i].disp;
        l->u.blocks.child_extents[i] = e[i].child_extent;
        l->u.blocks.children[i] = e[i].child;
        axon_dloop_retain(e[i].child);
        l->size += e[i].blocklen * e[i].child->size;
        if (e[i].child->depth > depth)
            depth = e[i].child->depth;
    }
    l->u.blocks.n = n;
    l->u.blocks.unit_len = unit;
    l->u.blocks.leaves = leaves;
    l->depth = depth + 1;
    return l;
}

struct axon_dloop *axon_dloop_shift(int64_t disp, struct axon_dloop *child)
{
    int64_t inner_disp;
    struct axon_dloop *inner;
    if (disp == 0) {
        axon_dloop_retain(child);
        return child;
    }
    /* Shifts of shifts add up: at most one shift lies between a loop and its children. */
    if (axon_dloop_shift_of(child, &inner_disp, &inner))
        return axon_dloop_shift(disp + inner_disp, inner);
    struct axon_dloop_entry e = {.disp = disp, .blocklen = 1, .child_extent = child->size, .child = child};
    return axon_dloop_blocks_raw(1, &e);
}

struct axon_dloop *axon_dloop_vector(int64_t count, int64_t blocklen, int64_t stride, struct axon_dloop *child,
                                     int64_t child_extent)
{
    if (count == 0 || blocklen == 0 || child->size == 0)
        return axon_dloop_leaf(0);
    /* Every copy of a shifted child is shifted alike: shift the whole vector instead, so that the
     * dense-leaf merges below see the child itself. */
    int64_t disp;
    struct axon_dloop *inner;
    if (axon_dloop_shift_of(child, &disp, &inner)) {
        struct axon_dloop *v = axon_dloop_vector(count, blocklen, stride, inner, child_extent);
        if (!v)
            return NULL;
        struct axon_dloop *s = axon_dloop_shift(disp, v);
        axon_dloop_release(v);
        return s;
    }
    /* One copy per block: the spacing of copies never matters. One block: neither does the stride. */
    if (blocklen == 1)
        child_extent = child->kind == AXON_DLOOP_LEAF ? child->u.leaf.len : child_extent;
    if (count == 1)
        stride = blocklen * child_extent;
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
    } else if (count > 1 && stride == blocklen * child_extent) {
        /* Blocks that follow each other regularly are one longer block. */
        blocklen *= count;
        count = 1;
        stride = blocklen * child_extent;
    }
    if (count == 1 && blocklen == 1) {
        axon_dloop_retain(child);
        return child;
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

/* Whether blocks a and b are copies of the same thing (a vector can describe them both). */
static bool axon_dloop_entry_alike(const struct axon_dloop_entry *a, const struct axon_dloop_entry *b)
{
    if (!a->child || !b->child)
        return !a->child && !b->child && a->len == b->len;
    return a->child == b->child && a->blocklen == b->blocklen &&
           (a->blocklen == 1 || a->child_extent == b->child_extent);
}

/* Turns the runs of the entries into leaves (consecutive runs of one length share a leaf); on failure
 * the entries made so far stay for the caller to release. */
static bool axon_dloop_entries_materialize(int64_t n, struct axon_dloop_entry *e)
{
    struct axon_dloop *last = NULL;
    for (int64_t i = 0; i < n; i++) {
        if (e[i].child) {
            axon_dloop_retain(e[i].child);
            continue;
        }
        if (last && last->u.leaf.len == e[i].len) {
            axon_dloop_retain(last);
        } else {
            last = axon_dloop_leaf(e[i].len);
            if (!last) {
                for (int64_t j = 0; j < i; j++)
                    axon_dloop_release(e[j].child);
                return false;
            }
        }
        e[i].child = last;
        e[i].child_extent = e[i].len;
    }
    return true;
}

struct axon_dloop *axon_dloop_blocks(int64_t n, const int64_t *blocklens, const int64_t *displs,
                                     struct axon_dloop *const *children, const int64_t *child_extents)
{
    struct axon_dloop_entry *e = malloc(sizeof(*e) * (size_t)(n > 0 ? n : 1));
    if (!e)
        return NULL;
    /* Normalize: drop empty blocks, lift shifts out of children into displacements, turn plain bytes
     * into runs, and join blocks that continue each other. Children are borrowed here. */
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (blocklens[i] == 0 || children[i]->size == 0)
            continue;
        struct axon_dloop_entry cur = {.disp = displs[i], .blocklen = blocklens[i],
                                       .child_extent = child_extents[i], .child = children[i]};
        int64_t d;
        struct axon_dloop *inner;
        while (axon_dloop_shift_of(cur.child, &d, &inner)) {
            cur.disp += d;
            cur.child = inner;
        }
        if (cur.child->kind == AXON_DLOOP_LEAF &&
            (cur.blocklen == 1 || axon_dloop_is_dense_leaf(cur.child, cur.child_extent))) {
            cur.len = cur.blocklen * cur.child->u.leaf.len;
            cur.child = NULL;
            cur.blocklen = 1;
            cur.child_extent = cur.len;
        }
        struct axon_dloop_entry *prev = k > 0 ? &e[k - 1] : NULL;
        if (prev && !prev->child && !cur.child && prev->disp + prev->len == cur.disp) {
            prev->len += cur.len;
            prev->child_extent = prev->len;
            continue;
        }
        if (prev && prev->child && prev->child == cur.child && prev->child_extent == cur.child_extent &&
            prev->disp + prev->blocklen * prev->child_extent == cur.disp) {
            prev->blocklen += cur.blocklen;
            continue;
        }
        e[k++] = cur;
    }

    struct axon_dloop *l = NULL;
    if (k == 0) {
        l = axon_dloop_leaf(0);
        goto out;
    }
    /* Blocks that are all alike and equally spaced are a vector (indexed types with a regular pattern,
     * struct-of-arrays layouts), moved to the first block's displacement. */
    bool regular = true;
    int64_t stride = k > 1 ? e[1].disp - e[0].disp : 0;
    for (int64_t i = 1; i < k && regular; i++)
        regular = axon_dloop_entry_alike(&e[0], &e[i]) && e[i].disp - e[i - 1].disp == stride;
    if (regular) {
        struct axon_dloop *child = e[0].child ? e[0].child : axon_dloop_leaf(e[0].len);
        if (!child)
            goto out;
        struct axon_dloop *v = axon_dloop_vector(k, e[0].blocklen, stride, child, e[0].child_extent);
        if (!e[0].child)
            axon_dloop_release(child);
        if (!v)
            goto out;
        l = axon_dloop_shift(e[0].disp, v);
        axon_dloop_release(v);
        goto out;
    }
    if (!axon_dloop_entries_materialize(k, e))
        goto out;
    l = axon_dloop_blocks_raw(k, e);
    for (int64_t i = 0; i < k; i++)
        axon_dloop_release(e[i].child);
out:
    free(e);
    return l;
}

bool axon_dloop_contig_run(const struct axon_dloop *l, int64_t *start)
{
    int64_t child_start;
    switch (l->kind) {
    case AXON_DLOOP_LEAF:
        *start = 0;
        return true;
    case AXON_DLOOP_VECTOR: {
        const struct axon_dloop *c = l->u.vector.child;
        if (!axon_dloop_contig_run(c, &child_start))
            return false;
        if (l->u.vector.blocklen > 1 && l->u.vector.child_extent != c->size)
            return false;
        if (l->u.vector.count > 1 && l->u.vector.stride != l->u.vector.blocklen * c->size)
            return false;
        *start = child_start;
        return true;
    }
    case AXON_DLOOP_BLOCKS: {
        int64_t end = 0;
        for (int64_t i = 0; i < l->u.blocks.n; i++) {
            const struct axon_dloop *c = l->u.blocks.children[i];
            if (!axon_dloop_contig_run(c, &child_start))
                return false;
            if (l->u.blocks.blocklens[i] > 1 && l->u.blocks.child_extents[i] != c->size)
                return false;
            int64_t first = l->u.blocks.displs[i] + child_start;
            if (i == 0)
                *start = first;
            else if (first != end)
                return false;
            end = first + l->u.blocks.blocklens[i] * c->size;
        }
        return true;
    }
    }
    return false;
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
    if (loop->depth > (int)(AXON_ARRAY_SIZE(c->small))) {
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

/* Copies n leaves of len bytes between the typed buffer and the packed stream: the leaves lie blocklen
 * to a block, child_extent apart within one, blocks stride apart, from block index, copy inner. The
 * common lengths get a copy of fixed size (a move or two, not a call). */
static inline void axon_dloop_copy_piece(char *dst, const char *src, int64_t len)
{
    switch (len) {
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, (size_t)len); break;
    }
}

/* The fast path's form for a BLOCKS parent (indexed and struct types): leaf after leaf, each block's
 * own length and displacement, until a block whose copies are not leaves, the segment's end, or the
 * parent's last leaf (left to the general step, which moves the cursor on); then the cursor is placed
 * on what comes next. The position is kept in locals, not in the frame: stores through the char
 * pointers of the copies may alias the frame, so the compiler would store and reload it at every leaf
 * (MPICH's indexperf, small blocks whose neighbours sometimes touch, is the case it serves:
 * bench/results/2026-11-26-pt2pt-node.md). */
static int64_t axon_dloop_blocks_run(struct axon_dloop_cursor *c, char *typed, char *packed, int64_t room, bool pack)
{
    int d = c->depth - 2;
    struct axon_dloop_frame *f = &c->stack[d];
    const struct axon_dloop *v = f->loop;
    const int64_t nblocks = v->u.blocks.n, unit = v->u.blocks.unit_len;
    const int64_t *displs = v->u.blocks.displs;
    char *const t = typed + f->base;
    int64_t index = f->index, inner = f->inner, done = 0;
    if (unit > 0) {
        /* Every block one leaf of unit bytes: a plain loop over the displacements. */
        int64_t n = nblocks - 1 - index; /* the parent's last leaf goes the general way */
        if (n > room / unit)
            n = room / unit;
        const int64_t *disp = displs + index;
        char *p = packed;
#define AXON_DLOOP_INDEXED(size)                                                                     \
    for (int64_t k = 0; k < n; k++, p += (size))                                                     \
        if (pack)                                                                                    \
            memcpy(p, t + disp[k], (size));                                                          \
        else                                                                                         \
            memcpy(t + disp[k], p, (size))
        switch (unit) {
        case 4: AXON_DLOOP_INDEXED(4); break;
        case 8: AXON_DLOOP_INDEXED(8); break;
        case 16: AXON_DLOOP_INDEXED(16); break;
        default: AXON_DLOOP_INDEXED((size_t)unit); break;
        }
#undef AXON_DLOOP_INDEXED
        if (n > 0) {
            index += n;
            done = n * unit;
        }
    } else if (v->u.blocks.leaves) {
        /* Every block one leaf, of its own length (runs where neighbouring blocks touch). */
        struct axon_dloop *const *children = v->u.blocks.children;
        for (; index < nblocks - 1; index++) {
            int64_t len = children[index]->u.leaf.len;
            if (room - done < len)
                break;
            if (pack)
                axon_dloop_copy_piece(packed + done, t + displs[index], len);
            else
                axon_dloop_copy_piece(t + displs[index], packed + done, len);
            done += len;
        }
    } else {
        const int64_t *blocklens = v->u.blocks.blocklens, *cext = v->u.blocks.child_extents;
        struct axon_dloop *const *children = v->u.blocks.children;
        while (index < nblocks) {
            const struct axon_dloop *leaf = children[index];
            int64_t blocklen = blocklens[index];
            if (leaf->kind != AXON_DLOOP_LEAF || (index == nblocks - 1 && inner == blocklen - 1))
                break;
            int64_t len = leaf->u.leaf.len;
            if (room - done < len)
                break;
            char *at = t + displs[index] + inner * cext[index];
            if (pack)
                axon_dloop_copy_piece(packed + done, at, len);
            else
                axon_dloop_copy_piece(at, packed + done, len);
            done += len;
            if (++inner == blocklen) {
                inner = 0;
                index++;
            }
        }
    }
    if (done == 0)
        return 0;
    f->index = index;
    f->inner = inner;
    struct axon_dloop_frame *child = &c->stack[d + 1];
    child->loop = axon_dloop_child(v, f->index);
    child->base = axon_dloop_child_base(f);
    child->index = child->inner = 0;
    axon_dloop_place(c, d + 1, 0);
    c->position += done;
    return done;
}

/* The fast path of pack and unpack: while the cursor stands at the start of a leaf whose parent is a
 * VECTOR (a strided type: one double every few, rows of a matrix' column), every leaf of that vector the
 * segment holds whole but the last is copied in a plain strided loop, and the cursor is put on the last,
 * which the general step copies and advances past. Returns the bytes copied. Through the general step a
 * vector of one-double blocks costs a call to the cursor and to memcpy per double, many times a plain
 * loop. */
static int64_t axon_dloop_vector_run(struct axon_dloop_cursor *c, char *typed, char *packed, int64_t room,
                                     bool pack)
{
    if (c->depth < 2 || c->leaf_offset != 0)
        return 0;
    struct axon_dloop_frame *f = &c->stack[c->depth - 2];
    const struct axon_dloop *v = f->loop;
    if (v->kind == AXON_DLOOP_BLOCKS)
        return axon_dloop_blocks_run(c, typed, packed, room, pack);
    if (v->kind != AXON_DLOOP_VECTOR || v->u.vector.child->kind != AXON_DLOOP_LEAF)
        return 0;
    int64_t len = v->u.vector.child->u.leaf.len, blocklen = v->u.vector.blocklen;
    int64_t left = (v->u.vector.count - f->index) * blocklen - f->inner;
    int64_t n = room / len < left ? room / len : left;
    if (n < 2)
        return 0;
    n--; /* the last one goes the general way, which moves the cursor on */
    int64_t stride = v->u.vector.stride, cext = v->u.vector.child_extent;
    int64_t index = f->index, inner = f->inner;
    char *p = packed;
    if (blocklen == 1) {
        /* One leaf a block: a pointer that steps by the stride, the copy's size fixed per loop. */
        char *t = typed + f->base + index * stride;
#define AXON_DLOOP_STRIDED(size)                                                                     \
    for (int64_t k = 0; k < n; k++, p += (size), t += stride)                                        \
        if (pack)                                                                                    \
            memcpy(p, t, (size));                                                                    \
        else                                                                                         \
            memcpy(t, p, (size))
        switch (len) {
        case 4: AXON_DLOOP_STRIDED(4); break;
        case 8: AXON_DLOOP_STRIDED(8); break;
        case 16: AXON_DLOOP_STRIDED(16); break;
        default: AXON_DLOOP_STRIDED((size_t)len); break;
        }
#undef AXON_DLOOP_STRIDED
        index += n;
    } else {
        for (int64_t k = 0; k < n; k++) {
            char *t = typed + f->base + index * stride + inner * cext;
            if (pack)
                axon_dloop_copy_piece(p, t, len);
            else
                axon_dloop_copy_piece(t, p, len);
            p += len;
            if (++inner == blocklen) {
                inner = 0;
                index++;
            }
        }
    }
    f->index = index;
    f->inner = inner;
    c->stack[c->depth - 1].base = axon_dloop_child_base(f);
    c->position += n * len;
    return n * len;
}

int64_t axon_dloop_pack(struct axon_dloop_cursor *c, const void *buf, void *packed, int64_t len)
{
    int64_t done = 0, off, n;
    while (done < len) {
        done += axon_dloop_vector_run(c, (char *)buf, (char *)packed + done, len - done, true);
        if ((n = axon_dloop_cursor_next(c, len - done, &off)) <= 0)
            break;
        memcpy((char *)packed + done, (const char *)buf + off, (size_t)n);
        done += n;
    }
    return done;
}

int64_t axon_dloop_unpack(struct axon_dloop_cursor *c, void *buf, const void *packed, int64_t len)
{
    int64_t done = 0, off, n;
    while (done < len) {
        done += axon_dloop_vector_run(c, (char *)buf, (char *)packed + done, len - done, false);
        if ((n = axon_dloop_cursor_next(c, len - done, &off)) <= 0)
            break;
        memcpy((char *)buf + off, (const char *)packed + done, (size_t)n);
        done += n;
    }
    return done;
}
