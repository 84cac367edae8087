/* Moving and combining bytes for one-sided operations: a target layout as pieces of the target's
 * memory, packing and unpacking an origin layout, the accumulate combination, the control block's
 * lock word and accumulate mutex, and applying a request to memory reached here (loads and stores; for
 * GPU memory the kind's copies and reduction kernels) or in a node peer (single copies). The origin's
 * direct paths and the target serving a message apply requests through the same function, so the two
 * see the same semantics and take the same mutex. */
#include "rma/axon_rma_internal.h"

#include "ucx_glue/ucx_glue.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

int64_t axon_rma_target_segs(const struct axon_rma_op *op, int64_t disp_unit, int64_t limit, struct axon_rma_seg *one,
                             struct axon_rma_seg **segs)
{
    const struct axon_dtype_layout *dt = op->target_dt;
    int64_t origin = op->target_disp * disp_unit;
    *segs = one;
    if (op->target_count == 0 || dt->size == 0 || limit <= 0)
        return 0;
    if (dt->contig) {
        one->off = origin + dt->true_lb;
        one->len = op->target_count * dt->size < limit ? op->target_count * dt->size : limit;
        return 1;
    }
    struct axon_dloop_cursor c;
    if (axon_dloop_cursor_init(&c, dt->loop, op->target_count, dt->extent) != 0)
        return -1;
    int64_t n = 0, cap = 16;
    struct axon_rma_seg *s = malloc(sizeof(*s) * (size_t)cap);
    int64_t off, len;
    while (s && limit > 0 && (len = axon_dloop_cursor_next(&c, limit, &off)) > 0) {
        limit -= len;
        if (n > 0 && s[n - 1].off + s[n - 1].len == origin + off) {
            s[n - 1].len += len; /* pieces that abut become one */
            continue;
        }
        if (n == cap) {
            cap *= 2;
            struct axon_rma_seg *grown = realloc(s, sizeof(*s) * (size_t)cap);
            if (!grown) {
                free(s);
                s = NULL;
                break;
            }
            s = grown;
        }
        s[n++] = (struct axon_rma_seg){.off = origin + off, .len = len};
    }
    axon_dloop_cursor_fini(&c);
    if (!s)
        return -1;
    *segs = s;
    return n;
}

void axon_rma_pack(const void *buf, int64_t count, const struct axon_dtype_layout *dt, void *out)
{
    int64_t bytes = count * dt->size;
    if (bytes == 0)
        return;
    if (dt->contig) {
        memcpy(out, (const char *)buf + dt->true_lb, (size_t)bytes);
        return;
    }
    struct axon_dloop_cursor c;
    if (axon_dloop_cursor_init(&c, dt->loop, count, dt->extent) != 0)
        return;
    axon_dloop_pack(&c, buf, out, bytes);
    axon_dloop_cursor_fini(&c);
}

void axon_rma_unpack(void *buf, int64_t count, const struct axon_dtype_layout *dt, const void *in, int64_t bytes)
{
    if (bytes > count * dt->size)
        bytes = count * dt->size;
    if (bytes <= 0)
        return;
    if (dt->contig) {
        memcpy((char *)buf + dt->true_lb, in, (size_t)bytes);
        return;
    }
    struct axon_dloop_cursor c;
    if (axon_dloop_cursor_init(&c, dt->loop, count, dt->extent) != 0)
        return;
    axon_dloop_unpack(&c, buf, in, bytes);
    axon_dloop_cursor_fini(&c);
}

int axon_rma_combine(MPI_Op op, struct axon_coll_op *op_obj, MPI_Datatype basic, int64_t basic_size,
                     const void *origin, void *target, int64_t n)
{
    if (op == MPI_NO_OP || n == 0)
        return MPI_SUCCESS;
    if (op == MPI_REPLACE) {
        memmove(target, origin, (size_t)(n * basic_size));
        return MPI_SUCCESS;
    }
    if (!op_obj)
        op_obj = axon_coll_op_get(op);
    if (!op_obj)
        return MPI_ERR_OP;
    struct axon_dtype_layout layout = axon_dtype_layout_basic(basic, basic_size);
    return axon_coll_op_apply(op_obj, origin, target, n, basic, &layout);
}

/* ---- the control block ---------------------------------------------------------------------------- */

void axon_rma_acc_lock(struct axon_rma_ctrl *c)
{
    for (unsigned spins = 0;; spins++) {
        uint32_t expect = 0;
        if (atomic_compare_exchange_weak_explicit(&c->acc_mutex, &expect, 1, memory_order_acquire,
                                                  memory_order_relaxed))
            return;
        /* Its holder combines a few bytes and lets go; on an oversubscribed node it may have lost its
         * core, so give ours away after a short spin. */
        if (spins > 64)
            sched_yield();
    }
}

void axon_rma_acc_unlock(struct axon_rma_ctrl *c)
{
    atomic_store_explicit(&c->acc_mutex, 0, memory_order_release);
}

bool axon_rma_lock_try(struct axon_rma_ctrl *c, int lock_type)
{
    if (lock_type == MPI_LOCK_EXCLUSIVE) {
        uint64_t expect = 0;
        return atomic_compare_exchange_strong_explicit(&c->lock, &expect, AXON_RMA_LOCK_EXCL, memory_order_acquire,
                                                       memory_order_relaxed);
    }
    uint64_t old = atomic_fetch_add_explicit(&c->lock, 1, memory_order_acquire);
    if (!(old & AXON_RMA_LOCK_EXCL))
        return true;
    atomic_fetch_sub_explicit(&c->lock, 1, memory_order_relaxed);
    return false;
}

void axon_rma_lock_release(struct axon_rma_ctrl *c, int lock_type)
{
    if (lock_type == MPI_LOCK_EXCLUSIVE)
        atomic_fetch_and_explicit(&c->lock, ~AXON_RMA_LOCK_EXCL, memory_order_release);
    else
        atomic_fetch_sub_explicit(&c->lock, 1, memory_order_release);
}

/* ---- applying a request ---------------------------------------------------------------------------- */

static int64_t axon_rma_apply_bytes(const struct axon_rma_apply *a)
{
    int64_t bytes = 0;
    for (int64_t i = 0; i < a->nseg; i++)
        bytes += a->segs[i].len;
    return bytes;
}

/* An accumulate the target's memory cannot take in place (pieces an element may span, such as a pair
 * type's value and index; device memory): its bytes gathered into host memory (the old values, into
 * out when the operation answers), combined there, and scattered back, by the memory kind's copies
 * (memcpy for the host). The caller holds the accumulate mutex. */
static int axon_rma_apply_gathered(char *mem, const struct axon_rma_apply *a, int64_t bytes)
{
    enum axon_memkind k = a->mem_kind;
    int dev = a->mem_device, rc = MPI_SUCCESS;
    char *old = a->out ? a->out : malloc((size_t)bytes);
    char *sum = a->op == MPI_NO_OP ? NULL : a->out ? malloc((size_t)bytes) : old;
    if (!old || (a->op != MPI_NO_OP && !sum)) {
        if (!a->out)
            free(old);
        else
            free(sum);
        return MPI_ERR_NO_MEM;
    }
    int64_t pos = 0;
    for (int64_t i = 0; rc == MPI_SUCCESS && i < a->nseg; pos += a->segs[i].len, i++)
        rc = axon_memkind_copy(k, old + pos, mem + a->segs[i].off, (size_t)a->segs[i].len, dev);
    if (rc == MPI_SUCCESS && sum) {
        if (sum != old)
            memcpy(sum, old, (size_t)bytes);
        rc = axon_rma_combine(a->op, a->op_obj, a->basic, a->basic_size, a->data, sum, bytes / a->basic_size);
        pos = 0;
        for (int64_t i = 0; rc == MPI_SUCCESS && i < a->nseg; pos += a->segs[i].len, i++)
            rc = axon_memkind_copy(k, mem + a->segs[i].off, sum + pos, (size_t)a->segs[i].len, dev);
    }
    if (sum != old)
        free(sum);
    if (!a->out)
        free(old);
    return rc;
}

/* An accumulate into one piece of device memory by the kind's reduction kernel, the origin's data
 * copied into device scratch first; MPI_ERR_UNSUPPORTED_OPERATION when there is no kernel for the
 * operation and type (a user's type of pairs, long double, no kernels in this build): the caller
 * combines on the host. */
static int axon_rma_apply_kernel(char *t, struct axon_rma_ctrl *ctrl, const struct axon_rma_apply *a, int64_t bytes)
{
    enum axon_memkind k = a->mem_kind;
    int dev = a->mem_device;
    struct axon_coll_op *o = a->op_obj ? a->op_obj : axon_coll_op_get(a->op);
    struct axon_dtype_layout layout = axon_dtype_layout_basic(a->basic, a->basic_size);
    int kernel = o ? axon_coll_op_gpu_kernel(k, o, a->basic, &layout) : -1;
    if (kernel < 0)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    void *in = axon_memkind_scratch_get(k, (size_t)bytes, dev);
    if (!in)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    int rc = axon_memkind_copy(k, in, a->data, (size_t)bytes, dev);
    if (rc == MPI_SUCCESS) {
        if (ctrl)
            axon_rma_acc_lock(ctrl);
        if (a->out)
            rc = axon_memkind_copy(k, a->out, t, (size_t)bytes, dev);
        if (rc == MPI_SUCCESS)
            rc = axon_coll_op_apply_gpu(k, kernel, in, t, bytes / a->basic_size, a->basic, &layout, dev);
        if (ctrl)
            axon_rma_acc_unlock(ctrl);
    }
    axon_memkind_scratch_put(k, in, (size_t)bytes, dev);
    return rc;
}

/* Device memory: puts and gets are one copy per piece; an accumulate into one piece runs the kind's
 * reduction kernel there; the rest gathers the target's bytes into host memory, combines there and
 * copies back. Accumulates hold the mutex, as on host memory. */
static int axon_rma_apply_device(char *mem, struct axon_rma_ctrl *ctrl, const struct axon_rma_apply *a)
{
    enum axon_memkind k = a->mem_kind;
    int dev = a->mem_device, rc = MPI_SUCCESS;
    if (a->kind == AXON_RMA_MSG_PUT || a->kind == AXON_RMA_MSG_GET) {
        int64_t pos = 0;
        for (int64_t i = 0; rc == MPI_SUCCESS && i < a->nseg; pos += a->segs[i].len, i++) {
            char *t = mem + a->segs[i].off;
            size_t len = (size_t)a->segs[i].len;
            rc = a->kind == AXON_RMA_MSG_PUT ? axon_memkind_copy(k, t, a->data + pos, len, dev)
                                             : axon_memkind_copy(k, a->out + pos, t, len, dev);
        }
        return rc;
    }
    int64_t bytes = a->kind == AXON_RMA_MSG_CAS ? a->basic_size : axon_rma_apply_bytes(a);
    if (bytes <= 0)
        return MPI_SUCCESS;
    if (a->kind != AXON_RMA_MSG_CAS && a->nseg == 1 && a->op != MPI_NO_OP && a->op != MPI_REPLACE &&
        (rc = axon_rma_apply_kernel(mem + a->segs[0].off, ctrl, a, bytes)) != MPI_ERR_UNSUPPORTED_OPERATION)
        return rc;
    rc = MPI_SUCCESS;
    if (ctrl)
        axon_rma_acc_lock(ctrl);
    if (a->kind == AXON_RMA_MSG_CAS) {
        char *t = mem + a->segs[0].off;
        if ((rc = axon_memkind_copy(k, a->out, t, (size_t)bytes, dev)) == MPI_SUCCESS &&
            memcmp(a->out, a->data + bytes, (size_t)bytes) == 0)
            rc = axon_memkind_copy(k, t, a->data, (size_t)bytes, dev);
    } else {
        rc = axon_rma_apply_gathered(mem, a, bytes);
    }
    if (ctrl)
        axon_rma_acc_unlock(ctrl);
    return rc;
}

int axon_rma_attached_kind(const void *addr, enum axon_memkind *kind, int *device)
{
    struct axon_memkind_info info;
    if (!axon_memkind_watching())
        return MPI_SUCCESS;
    int rc = axon_memkind_of(addr, &info);
    if (rc == MPI_SUCCESS) {
        *kind = info.kind;
        *device = info.device;
    }
    return rc;
}

int axon_rma_apply_local(char *mem, struct axon_rma_ctrl *ctrl, const struct axon_rma_apply *a)
{
    if (a->mem_kind != AXON_MEMKIND_HOST)
        return axon_rma_apply_device(mem, ctrl, a);
    int rc = MPI_SUCCESS;
    if (a->kind == AXON_RMA_MSG_PUT || a->kind == AXON_RMA_MSG_GET) {
        int64_t pos = 0;
        for (int64_t i = 0; i < a->nseg; i++) {
            char *t = mem + a->segs[i].off;
            size_t len = (size_t)a->segs[i].len;
            char *to = a->kind == AXON_RMA_MSG_PUT ? t : a->out + pos;
            const char *from = a->kind == AXON_RMA_MSG_PUT ? a->data + pos : t;
            if (len >= AXON_MEMKIND_STREAM_MIN)
                axon_memkind_host_stream_copy(to, from, len);
            else
                memcpy(to, from, len);
            pos += (int64_t)len;
        }
        return MPI_SUCCESS;
    }
    if (ctrl)
        axon_rma_acc_lock(ctrl);
    if (a->kind == AXON_RMA_MSG_CAS) {
        char *t = mem + a->segs[0].off;
        size_t n = (size_t)a->basic_size;
        memcpy(a->out, t, n);
        if (memcmp(t, a->data + n, n) == 0)
            memcpy(t, a->data, n);
    } else if (a->nseg == 1) {
        /* One piece: the elements lie packed in the window, combined in place. */
        char *t = mem + a->segs[0].off;
        if (a->out)
            memcpy(a->out, t, (size_t)a->segs[0].len);
        rc = axon_rma_combine(a->op, a->op_obj, a->basic, a->basic_size, a->data, t,
                              a->segs[0].len / a->basic_size);
    } else if (a->nseg > 1) {
        rc = axon_rma_apply_gathered(mem, a, axon_rma_apply_bytes(a));
    }
    if (ctrl)
        axon_rma_acc_unlock(ctrl);
    return rc;
}

int axon_rma_cma_move(pid_t pid, bool write, char *local, uint64_t remote, const struct axon_rma_seg *segs,
                      int64_t nseg)
{
    ssize_t (*move)(pid_t, const struct iovec *, unsigned long, const struct iovec *, unsigned long,
                    unsigned long) = write ? process_vm_writev : process_vm_readv;
    struct iovec riov[64];
    int64_t i = 0, skip = 0; /* bytes of segs[i] already moved */
    while (i < nseg) {
        int n = 0;
        size_t total = 0;
        for (int64_t j = i; j < nseg && n < 64; j++, n++) {
            int64_t from = j == i ? skip : 0;
            riov[n].iov_base = (void *)(uintptr_t)(remote + (uint64_t)(segs[j].off + from));
            riov[n].iov_len = (size_t)(segs[j].len - from);
            total += riov[n].iov_len;
        }
        struct iovec liov = {local, total};
        ssize_t got = move(pid, &liov, 1, riov, (unsigned long)n, 0);
        if (got < 0 && errno == EINTR)
            continue;
        /* Memory the CPU cannot reach (a GPU's, attached to a dynamic window) fails at once: nothing
         * moved, the caller sends a message instead. */
        if (got < 0 && errno == EFAULT && i == 0 && skip == 0)
            return MPI_ERR_UNSUPPORTED_OPERATION;
        if (got <= 0)
            return MPI_ERR_OTHER;
        local += got;
        while (got > 0 && i < nseg) {
            int64_t left = segs[i].len - skip;
            if (got >= left) {
                got -= left;
                i++;
                skip = 0;
            } else {
                skip += got;
                got = 0;
            }
        }
    }
    return MPI_SUCCESS;
}

int axon_rma_apply_cma(pid_t pid, uint64_t remote, struct axon_rma_ctrl *ctrl, const struct axon_rma_apply *a)
{
    int64_t bytes = axon_rma_apply_bytes(a);
    if (bytes == 0)
        return MPI_SUCCESS;
    switch (a->kind) {
    case AXON_RMA_MSG_PUT:
        return axon_rma_cma_move(pid, true, (char *)a->data, remote, a->segs, a->nseg);
    case AXON_RMA_MSG_GET:
        return axon_rma_cma_move(pid, false, a->out, remote, a->segs, a->nseg);
    default:
        break;
    }
    /* A combination reads the target's bytes, combines them here and writes them back, under the
     * target's accumulate mutex. */
    char *old = malloc((size_t)bytes);
    if (!old)
        return MPI_ERR_NO_MEM;
    axon_rma_acc_lock(ctrl);
    int rc = axon_rma_cma_move(pid, false, old, remote, a->segs, a->nseg);
    if (rc == MPI_SUCCESS) {
        if (a->out)
            memcpy(a->out, old, (size_t)bytes);
        if (a->kind == AXON_RMA_MSG_CAS) {
            size_t n = (size_t)a->basic_size;
            if (memcmp(old, a->data + n, n) == 0) {
                memcpy(old, a->data, n);
                rc = axon_rma_cma_move(pid, true, old, remote, a->segs, a->nseg);
            }
        } else if (a->op != MPI_NO_OP) {
            rc = axon_rma_combine(a->op, a->op_obj, a->basic, a->basic_size, a->data, old, bytes / a->basic_size);
            if (rc == MPI_SUCCESS)
                rc = axon_rma_cma_move(pid, true, old, remote, a->segs, a->nseg);
        }
    }
    axon_rma_acc_unlock(ctrl);
    free(old);
    return rc;
}
