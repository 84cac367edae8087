/* Algorithm selection (coll/axon_coll_select.h): the table of descriptors by kind, the pick by rules
 * or knob, the lookup of the cost model's answers in a node map, and the listing axon_info prints. The
 * algorithms and their default rules belong to the collectives' files; the model's answers are worked
 * out outside the algorithms (coll/axon_coll_select_model.c), never from here. */
#include "coll/axon_coll_select.h"

#include "coll/axon_coll_hier.h"
#include "coll/axon_coll_sched.h"
#include "runtime/runtime.h"

static const struct axon_coll_desc *const axon_coll_descs[AXON_COLL_NKINDS] = {
    [AXON_COLL_KIND_BARRIER] = &axon_coll_barrier_desc,
    [AXON_COLL_KIND_BCAST] = &axon_coll_bcast_desc,
    [AXON_COLL_KIND_REDUCE] = &axon_coll_reduce_desc,
    [AXON_COLL_KIND_ALLREDUCE] = &axon_coll_allreduce_desc,
    [AXON_COLL_KIND_GATHER] = &axon_coll_gather_desc,
    [AXON_COLL_KIND_SCATTER] = &axon_coll_scatter_desc,
    [AXON_COLL_KIND_ALLGATHER] = &axon_coll_allgather_desc,
    [AXON_COLL_KIND_ALLTOALL] = &axon_coll_alltoall_desc,
    [AXON_COLL_KIND_REDUCE_SCATTER] = &axon_coll_reduce_scatter_desc,
    [AXON_COLL_KIND_SCAN] = &axon_coll_scan_desc,
};

/* The configuration keeps one knob per kind, in kind order. */
_Static_assert(sizeof(((struct axon_config *)0)->coll_alg) / sizeof(long) == AXON_COLL_NKINDS,
               "struct axon_config has one coll_alg slot per collective kind");

const struct axon_coll_desc *axon_coll_desc_of(enum axon_coll_kind kind)
{
    return kind < AXON_COLL_NKINDS ? axon_coll_descs[kind] : NULL;
}

static bool axon_coll_applies(const struct axon_coll_alg *alg, unsigned have)
{
    return (alg->needs & ~have) == 0;
}

int axon_coll_select_with(const struct axon_coll_desc *d, long forced, int nranks, int64_t bytes, unsigned have)
{
    if (forced >= 0 && forced < d->nalgs && axon_coll_applies(&d->algs[forced], have))
        return (int)forced;
    for (int i = 0; i < d->nrules; i++) {
        const struct axon_coll_rule *r = &d->rules[i];
        if ((r->max_ranks == 0 || nranks <= r->max_ranks) && (r->max_bytes < 0 || bytes <= r->max_bytes) &&
            (have & r->when) == r->when && axon_coll_applies(&d->algs[r->alg], have))
            return r->alg;
    }
    return 0;
}

long axon_coll_select_forced(enum axon_coll_kind kind)
{
    /* The knob is an enum whose word 0 is "auto". */
    return axon_config.coll_alg[kind] - 1;
}

int axon_coll_select(enum axon_coll_kind kind, int nranks, int64_t bytes, unsigned have)
{
    return axon_coll_select_with(axon_coll_descs[kind], axon_coll_select_forced(kind), nranks, bytes, have);
}

/* Whether the model chooses for a call of kind on a group of n ranks whose map is nodes. */
static bool axon_coll_select_by_model(enum axon_coll_kind kind, int n, const struct axon_coll_nodes *nodes)
{
    return axon_config.coll_select == 1 && axon_coll_select_forced(kind) < 0 && nodes && n >= 2 &&
           n <= AXON_COLL_MODEL_MAX_RANKS && nodes->nnodes * nodes->max_per_node == nodes->nranks;
}

static int axon_coll_select_model_class(int64_t bytes)
{
    int c = 0;
    while (bytes > 0 && c < AXON_COLL_MODEL_CLASSES - 1) {
        bytes >>= 1;
        c++;
    }
    return c;
}

int axon_coll_select_model_slot(enum axon_coll_kind kind, int64_t bytes, unsigned have)
{
    unsigned offers = have & (AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_UNIFORM);
    _Static_assert((AXON_COLL_NEEDS_COMMUTATIVE | AXON_COLL_NEEDS_UNIFORM) == 3, "two bits of offers");
    return ((int)kind * AXON_COLL_MODEL_CLASSES + axon_coll_select_model_class(bytes)) * 4 + (int)offers;
}

int axon_coll_select_sched(enum axon_coll_kind kind, struct axon_coll_sched *s, int64_t bytes, unsigned have)
{
    int n = axon_coll_sched_size(s);
    int rules = axon_coll_select(kind, n, bytes, have);
    const struct axon_coll_nodes *nodes = axon_coll_sched_nodes(s);
    if (!axon_coll_select_by_model(kind, n, nodes))
        return rules;
    const signed char *answers = __atomic_load_n(&nodes->model_choice, __ATOMIC_ACQUIRE);
    int known = answers ? __atomic_load_n(&answers[axon_coll_select_model_slot(kind, bytes, have)], __ATOMIC_ACQUIRE)
                        : AXON_COLL_MODEL_UNKNOWN;
    if (known >= 0)
        return known;
    if (known == AXON_COLL_MODEL_UNKNOWN)
        axon_coll_sched_miss_note(s, &(struct axon_coll_sched_miss){kind, n, bytes, have, nodes});
    return rules;
}

static void axon_coll_print_needs(FILE *out, unsigned needs)
{
    if (needs & AXON_COLL_NEEDS_COMMUTATIVE)
        fprintf(out, " [commutative ops only]");
    if (needs & AXON_COLL_NEEDS_UNIFORM)
        fprintf(out, " [equal blocks only]");
    if (needs & AXON_COLL_NEEDS_NODES)
        fprintf(out, " [several nodes, some of several ranks]");
}

void axon_coll_select_print(FILE *out)
{
    for (int k = 0; k < AXON_COLL_NKINDS; k++) {
        const struct axon_coll_desc *d = axon_coll_descs[k];
        fprintf(out, "  %s (size: %s)\n", d->name, d->bytes);
        for (int i = 0; i < d->nalgs; i++) {
            fprintf(out, "    %-22s %s", d->algs[i].name, d->algs[i].about);
            axon_coll_print_needs(out, d->algs[i].needs);
            fputc('\n', out);
        }
        fprintf(out, "    rules, first match wins:\n");
        for (int i = 0; i < d->nrules; i++) {
            const struct axon_coll_rule *r = &d->rules[i];
            char ranks[32] = "any ranks", bytes[32] = "any size";
            if (r->max_ranks > 0)
                snprintf(ranks, sizeof(ranks), "<= %d ranks", r->max_ranks);
            if (r->max_bytes >= 0)
                snprintf(bytes, sizeof(bytes), "<= %lld bytes", (long long)r->max_bytes);
            fprintf(out, "      %-14s %-18s -> %s%s\n", ranks, bytes, d->algs[r->alg].name,
                    r->when & AXON_COLL_NEEDS_DEVICE ? " (when every member's buffers are on GPUs)" : "");
        }
    }
}

bool axon_coll_agree_memo_skip(struct axon_coll_agree_memo *m)
{
    if (m->skip == 0)
        return false;
    m->skip--;
    return true;
}

void axon_coll_agree_memo_learn(struct axon_coll_agree_memo *m, bool all_host)
{
    if (!all_host) {
        m->streak = m->skip = 0;
        return;
    }
    if (m->streak < 6)
        m->streak++;
    m->skip = (1u << m->streak) - 1;
}
