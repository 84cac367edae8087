/* The building blocks the reductions share (coll/axon_coll_reduce_internal.h): packing, messages that
 * vanish when empty, the binomial reduce to rank 0, the fold of sizes that are not powers of two, and
 * recursive halving with its reverses (allgather by recursive doubling, binomial gather). */
#include "coll/axon_coll_reduce_internal.h"

unsigned axon_coll_red_have(const struct axon_coll_sched *s)
{
    return axon_coll_sched_commutative(s) ? AXON_COLL_NEEDS_COMMUTATIVE : 0;
}

void axon_coll_red_send(struct axon_coll_sched *s, const void *buf, int64_t bytes, int peer)
{
    if (bytes > 0)
        axon_coll_sched_send(s, buf, bytes, &axon_coll_bytes, peer);
}

void axon_coll_red_recv(struct axon_coll_sched *s, void *buf, int64_t bytes, int peer)
{
    if (bytes > 0)
        axon_coll_sched_recv(s, buf, bytes, &axon_coll_bytes, peer);
}

void axon_coll_red_send_typed(struct axon_coll_sched *s, const void *buf, int64_t first, int64_t count,
                              const struct axon_dtype_layout *dt, int peer)
{
    if (count > 0)
        axon_coll_sched_send(s, (const char *)buf + first * dt->extent, count, dt, peer);
}

void axon_coll_red_recv_typed(struct axon_coll_sched *s, void *buf, int64_t first, int64_t count,
                              const struct axon_dtype_layout *dt, int peer)
{
    if (count > 0)
        axon_coll_sched_recv(s, (char *)buf + first * dt->extent, count, dt, peer);
}

char *axon_coll_red_pack(struct axon_coll_sched *s, const void *in, int64_t count, const struct axon_dtype_layout *dt)
{
    int64_t bytes = count * dt->size;
    char *acc = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!acc)
        return NULL;
    axon_coll_sched_copy(s, in, count, dt, acc, bytes, &axon_coll_bytes);
    axon_coll_sched_round(s);
    return acc;
}

void axon_coll_red_unpack(struct axon_coll_sched *s, const char *src, void *out, int64_t first, int64_t count,
                          const struct axon_dtype_layout *dt)
{
    if (count > 0)
        axon_coll_sched_copy(s, src, count * dt->size, &axon_coll_bytes, (char *)out + first * dt->extent, count, dt);
}

char *axon_coll_red_binomial(struct axon_coll_sched *s, char *acc, int64_t count, int64_t esize)
{
    int n = axon_coll_sched_size(s), r = axon_coll_sched_rank(s);
    int64_t bytes = count * esize;
    if (n == 1 || bytes == 0)
        return acc;
    char *other = axon_coll_sched_alloc(s, (size_t)bytes);
    if (!other)
        return NULL;
    /* Rank r holds ranks [r, r + mask) and takes in the run that follows, on the right. */
    char *cur = acc;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (r & mask) {
            axon_coll_sched_send(s, cur, bytes, &axon_coll_bytes, r - mask);
            axon_coll_sched_round(s);
            break;
        }
        if (r + mask < n) {
            axon_coll_sched_recv(s, other, bytes, &axon_coll_bytes, r + mask);
            axon_coll_sched_round(s);
            axon_coll_sched_reduce(s, cur, other, count); /* other = cur op other */
            axon_coll_sched_round(s);
            char *t = cur;
            cur = other;
            other = t;
        }
    }
    return cur;
}

/* ---- folding -------------------------------------------------------------------------------------- */

void axon_coll_red_fold_init(struct axon_coll_red_fold *f, int n, int rank)
{
    f->n = n;
    f->p = 1;
    f->logp = 0;
    while (f->p * 2 <= n) {
        f->p *= 2;
        f->logp++;
    }
    f->rem = n - f->p;
    if (rank < 2 * f->rem)
        f->q = rank % 2 ? rank / 2 : -1;
    else
        f->q = rank - f->rem;
}

int axon_coll_red_fold_rank(const struct axon_coll_red_fold *f, int q)
{
    return q < f->rem ? 2 * q + 1 : q + f->rem;
}

int axon_coll_red_fold_holder(const struct axon_coll_red_fold *f, int r)
{
    return r < 2 * f->rem ? r / 2 : r - f->rem;
}

void axon_coll_red_fold_in(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, char *acc, char *tmp,
                           int64_t count, int64_t esize)
{
    int r = axon_coll_sched_rank(s);
    if (r >= 2 * f->rem || count == 0)
        return;
    if (f->q < 0) {
        axon_coll_sched_send(s, acc, count * esize, &axon_coll_bytes, r + 1);
        axon_coll_sched_round(s);
    } else {
        axon_coll_sched_recv(s, tmp, count * esize, &axon_coll_bytes, r - 1);
        axon_coll_sched_round(s);
        axon_coll_sched_reduce(s, tmp, acc, count); /* the even rank is on the left */
        axon_coll_sched_round(s);
    }
}

int axon_coll_red_bitrev(int q, int logp)
{
    int t = 0;
    for (int k = 0; k < logp; k++)
        t |= ((q >> k) & 1) << (logp - 1 - k);
    return t;
}

/* ---- recursive halving and its reverses ----------------------------------------------------------- */

/* The window of segments [*lo, *hi) new rank q holds after the first k halving steps: step j keeps the
 * upper half when bit j of q is set. */
static void axon_coll_red_window(const struct axon_coll_red_fold *f, int q, int k, int *lo, int *hi)
{
    *lo = 0;
    *hi = f->p;
    for (int j = 0; j < k; j++) {
        int half = (*hi - *lo) / 2;
        if ((q >> j) & 1)
            *lo += half;
        else
            *hi = *lo + half;
    }
}

char *axon_coll_red_pack_halving(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const void *in,
                                 int64_t count, const struct axon_dtype_layout *dt, const char **src)
{
    if (dt->contig && count > 0 && axon_coll_sched_rank(s) >= 2 * f->rem) {
        *src = (const char *)in + dt->true_lb;
        return axon_coll_sched_alloc(s, (size_t)(count * dt->size));
    }
    *src = NULL;
    return axon_coll_red_pack(s, in, count, dt);
}

char *axon_coll_red_halve(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const int64_t *pos,
                          char *a, char *b, int64_t esize, const char *src)
{
    int q = f->q;
    char *cur = a, *other = b;
    if (src && f->logp == 0 && pos[1] > 0) /* no step to take: the data itself is the result */
        axon_coll_sched_copy(s, src, pos[1] * esize, &axon_coll_bytes, a, pos[1] * esize, &axon_coll_bytes);
    for (int k = 0; k < f->logp; k++) {
        int pq = q ^ (1 << k), peer = axon_coll_red_fold_rank(f, pq);
        int klo, khi, slo, shi;
        axon_coll_red_window(f, q, k + 1, &klo, &khi);
        axon_coll_red_window(f, pq, k + 1, &slo, &shi);
        int64_t off = pos[klo], cnt = pos[khi] - pos[klo];
        /* The first step sends from the user's data when a is not filled yet, and fills the kept half. */
        const char *from = k == 0 && src ? src : cur;
        axon_coll_red_send(s, from + pos[slo] * esize, (pos[shi] - pos[slo]) * esize, peer);
        if (k == 0 && src && (pq > q || axon_coll_sched_commutative(s))) {
            /* The partner's half lands in cur and the user's data folds into it from where it lies: no copy
             * of the kept half first. Right for any operation when this rank's run is on the left (cur =
             * mine op partner's), for commutative ones either way. */
            axon_coll_red_recv(s, cur + off * esize, cnt * esize, peer);
            axon_coll_sched_round(s);
            if (cnt > 0) {
                axon_coll_sched_reduce(s, src + off * esize, cur + off * esize, cnt);
                axon_coll_sched_round(s);
            }
            continue;
        }
        axon_coll_red_recv(s, other + off * esize, cnt * esize, peer);
        if (k == 0 && src && cnt > 0)
            axon_coll_sched_copy(s, src + off * esize, cnt * esize, &axon_coll_bytes, cur + off * esize, cnt * esize,
                                 &axon_coll_bytes);
        axon_coll_sched_round(s);
        if (cnt == 0)
            continue;
        if (pq < q) {
            axon_coll_sched_reduce(s, other + off * esize, cur + off * esize, cnt);
        } else {
            /* The partner's run is on the right: the result lands in other, which becomes current. */
            axon_coll_sched_reduce(s, cur + off * esize, other + off * esize, cnt);
            char *t = cur;
            cur = other;
            other = t;
        }
        axon_coll_sched_round(s);
    }
    return cur;
}

static void axon_coll_red_buf_send(struct axon_coll_sched *s, const struct axon_coll_red_buf *b, int64_t first,
                                   int64_t count, int peer)
{
    if (b->dt)
        axon_coll_red_send_typed(s, b->buf, first, count, b->dt, peer);
    else
        axon_coll_red_send(s, (char *)b->buf + first * b->esize, count * b->esize, peer);
}

static void axon_coll_red_buf_recv(struct axon_coll_sched *s, const struct axon_coll_red_buf *b, int64_t first,
                                   int64_t count, int peer)
{
    if (b->dt)
        axon_coll_red_recv_typed(s, b->buf, first, count, b->dt, peer);
    else
        axon_coll_red_recv(s, (char *)b->buf + first * b->esize, count * b->esize, peer);
}

void axon_coll_red_allgather(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const int64_t *pos,
                             const struct axon_coll_red_buf *b)
{
    int q = f->q;
    for (int k = f->logp - 1; k >= 0; k--) {
        int pq = q ^ (1 << k), peer = axon_coll_red_fold_rank(f, pq);
        int mlo, mhi, tlo, thi;
        axon_coll_red_window(f, q, k + 1, &mlo, &mhi);
        axon_coll_red_window(f, pq, k + 1, &tlo, &thi);
        axon_coll_red_buf_send(s, b, pos[mlo], pos[mhi] - pos[mlo], peer);
        axon_coll_red_buf_recv(s, b, pos[tlo], pos[thi] - pos[tlo], peer);
        axon_coll_sched_round(s);
    }
}

void axon_coll_red_gather(struct axon_coll_sched *s, const struct axon_coll_red_fold *f, const int64_t *pos,
                          const struct axon_coll_red_buf *b, int rootq)
{
    int q = f->q;
    for (int k = f->logp - 1; k >= 0; k--) {
        int pq = q ^ (1 << k), peer = axon_coll_red_fold_rank(f, pq);
        int lo, hi;
        if ((q ^ rootq) & (1 << k)) {
            /* This rank's window goes towards the root, and it is done. */
            axon_coll_red_window(f, q, k + 1, &lo, &hi);
            axon_coll_red_buf_send(s, b, pos[lo], pos[hi] - pos[lo], peer);
            axon_coll_sched_round(s);
            return;
        }
        axon_coll_red_window(f, pq, k + 1, &lo, &hi);
        axon_coll_red_buf_recv(s, b, pos[lo], pos[hi] - pos[lo], peer);
        axon_coll_sched_round(s);
    }
}

void axon_coll_red_split(int64_t count, int parts, int64_t *pos)
{
    int64_t base = count / parts, extra = count % parts;
    for (int i = 0; i <= parts; i++)
        pos[i] = (int64_t)i * base + (i < extra ? i : extra);
}
