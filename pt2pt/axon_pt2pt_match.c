/* The matching queues (see axon_pt2pt_match.h for the order they keep). */
#include "pt2pt/axon_pt2pt_match.h"

#include <mpi.h>
#include <stdlib.h>

static inline bool axon_match_tag(int wanted, int tag)
{
    return wanted == MPI_ANY_TAG || wanted == tag;
}

static void axon_match_append(struct axon_match_list *l, struct axon_match_entry *e)
{
    e->next = NULL;
    e->prev = l->tail;
    if (l->tail)
        l->tail->next = e;
    else
        l->head = e;
    l->tail = e;
}

static void axon_match_unlink(struct axon_match_list *l, struct axon_match_entry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        l->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        l->tail = e->prev;
    e->next = e->prev = NULL;
}

static void axon_match_all_append(struct axon_match_list *l, struct axon_match_entry *e)
{
    e->all_next = NULL;
    e->all_prev = l->tail;
    if (l->tail)
        l->tail->all_next = e;
    else
        l->head = e;
    l->tail = e;
}

static void axon_match_all_unlink(struct axon_match_list *l, struct axon_match_entry *e)
{
    if (e->all_prev)
        e->all_prev->all_next = e->all_next;
    else
        l->head = e->all_next;
    if (e->all_next)
        e->all_next->all_prev = e->all_prev;
    else
        l->tail = e->all_prev;
    e->all_next = e->all_prev = NULL;
}

int axon_pt2pt_match_init(struct axon_match_queues *q, int nsources)
{
    *q = (struct axon_match_queues){.nsources = nsources};
    q->posted = calloc((size_t)nsources, sizeof(*q->posted));
    q->unexpected = calloc((size_t)nsources, sizeof(*q->unexpected));
    if (!q->posted || !q->unexpected) {
        axon_pt2pt_match_fini(q);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

void axon_pt2pt_match_fini(struct axon_match_queues *q)
{
    free(q->posted);
    free(q->unexpected);
    q->posted = q->unexpected = NULL;
}

void axon_pt2pt_match_post(struct axon_match_queues *q, struct axon_match_entry *entry)
{
    entry->seq = q->next_seq++;
    axon_match_append(entry->source == MPI_ANY_SOURCE ? &q->posted_any : &q->posted[entry->source], entry);
}

/* The first posted receive in l that wants a message with this tag. */
static struct axon_match_entry *axon_match_first_posted(struct axon_match_list *l, int tag)
{
    for (struct axon_match_entry *e = l->head; e; e = e->next)
        if (axon_match_tag(e->tag, tag))
            return e;
    return NULL;
}

struct axon_match_entry *axon_pt2pt_match_take_posted(struct axon_match_queues *q, int source, int tag)
{
    struct axon_match_entry *specific = axon_match_first_posted(&q->posted[source], tag);
    struct axon_match_entry *any = q->posted_any.head ? axon_match_first_posted(&q->posted_any, tag) : NULL;
    /* Both fit: the one posted first wins. */
    if (specific && (!any || specific->seq < any->seq)) {
        axon_match_unlink(&q->posted[source], specific);
        return specific;
    }
    if (any) {
        axon_match_unlink(&q->posted_any, any);
        return any;
    }
    return NULL;
}

bool axon_pt2pt_match_unpost(struct axon_match_queues *q, struct axon_match_entry *entry)
{
    struct axon_match_list *l = entry->source == MPI_ANY_SOURCE ? &q->posted_any : &q->posted[entry->source];
    for (struct axon_match_entry *e = l->head; e; e = e->next) {
        if (e == entry) {
            axon_match_unlink(l, e);
            return true;
        }
    }
    return false;
}

void axon_pt2pt_match_add_unexpected(struct axon_match_queues *q, struct axon_match_entry *entry)
{
    axon_match_append(&q->unexpected[entry->source], entry);
    axon_match_all_append(&q->unexpected_all, entry);
    q->unexpected_count++;
}

struct axon_match_entry *axon_pt2pt_match_peek_unexpected(struct axon_match_queues *q, int source, int tag)
{
    if (source != MPI_ANY_SOURCE) {
        for (struct axon_match_entry *e = q->unexpected[source].head; e; e = e->next)
            if (axon_match_tag(tag, e->tag))
                return e;
        return NULL;
    }
    for (struct axon_match_entry *e = q->unexpected_all.head; e; e = e->all_next)
        if (axon_match_tag(tag, e->tag))
            return e;
    return NULL;
}

struct axon_match_entry *axon_pt2pt_match_take_unexpected(struct axon_match_queues *q, int source, int tag)
{
    struct axon_match_entry *e = axon_pt2pt_match_peek_unexpected(q, source, tag);
    if (e)
        axon_pt2pt_match_withdraw_unexpected(q, e);
    return e;
}

struct axon_match_entry *axon_pt2pt_match_find_unexpected(struct axon_match_queues *q, int source,
                                                          bool (*which)(const struct axon_match_entry *e,
                                                                        const void *arg),
                                                          const void *arg)
{
    if (source < 0 || source >= q->nsources)
        return NULL;
    for (struct axon_match_entry *e = q->unexpected[source].head; e; e = e->next)
        if (which(e, arg))
            return e;
    return NULL;
}

void axon_pt2pt_match_withdraw_unexpected(struct axon_match_queues *q, struct axon_match_entry *e)
{
    axon_match_unlink(&q->unexpected[e->source], e);
    axon_match_all_unlink(&q->unexpected_all, e);
    q->unexpected_count--;
}
