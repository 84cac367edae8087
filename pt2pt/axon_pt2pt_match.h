/* MPI's matching queues for one communicator: the posted receives and the unexpected messages. The
 * common case (a specific source) costs a walk of that source's list only; MPI_ANY_SOURCE receives sit
 * in a list of their own, and a sequence number taken at posting decides between the two, so the
 * standard's order holds: a message matches the earliest posted receive that fits, and a receive the
 * earliest arrived message that fits (messages from one source never overtake each other).
 * Pure logic, no transport: unit-tested in tests/unit/test_pt2pt_match.c. */
#ifndef AXON_PT2PT_MATCH_H
#define AXON_PT2PT_MATCH_H

#include <stdbool.h>
#include <stdint.h>

/* Embedded in whatever is queued (a receive request, an unexpected-message descriptor). */
struct axon_match_entry {
    struct axon_match_entry *next, *prev;         /* in its source's list (or the any-source list) */
    struct axon_match_entry *all_next, *all_prev; /* unexpected messages: in arrival order */
    int source;                                   /* rank in the communicator, or MPI_ANY_SOURCE */
    int tag;                                      /* or MPI_ANY_TAG (posted receives only) */
    uint64_t seq;                                 /* posted receives: order of posting */
};

struct axon_match_list {
    struct axon_match_entry *head, *tail;
};

struct axon_match_queues {
    int nsources;
    struct axon_match_list *posted;      /* [nsources]: receives naming that source */
    struct axon_match_list posted_any;   /* receives with MPI_ANY_SOURCE */
    struct axon_match_list *unexpected;  /* [nsources]: messages from that source, in arrival order */
    struct axon_match_list unexpected_all; /* every unexpected message, in arrival order (all_* links) */
    uint64_t next_seq;
    uint64_t unexpected_count;
};

/* Returns MPI_SUCCESS or MPI_ERR_NO_MEM. */
int axon_pt2pt_match_init(struct axon_match_queues *q, int nsources);
/* Frees the lists; the entries belong to their owners. */
void axon_pt2pt_match_fini(struct axon_match_queues *q);

/* A receive is posted: entry->source and entry->tag may be wildcards. */
void axon_pt2pt_match_post(struct axon_match_queues *q, struct axon_match_entry *entry);
/* A message arrived: takes out and returns the earliest posted receive that matches, or NULL. */
struct axon_match_entry *axon_pt2pt_match_take_posted(struct axon_match_queues *q, int source, int tag);
/* Takes a posted receive out (MPI_Cancel); false if it was not queued. */
bool axon_pt2pt_match_unpost(struct axon_match_queues *q, struct axon_match_entry *entry);

/* A message arrived that no posted receive wanted: queue it (entry->source/tag are concrete). */
void axon_pt2pt_match_add_unexpected(struct axon_match_queues *q, struct axon_match_entry *entry);
/* The earliest unexpected message that a receive (source, tag; wildcards allowed) would match; NULL if
 * none. take also removes it; peek (probe) leaves it queued. */
struct axon_match_entry *axon_pt2pt_match_take_unexpected(struct axon_match_queues *q, int source, int tag);
struct axon_match_entry *axon_pt2pt_match_peek_unexpected(struct axon_match_queues *q, int source, int tag);
/* The earliest unexpected message from source (a concrete rank) that `which` picks: a cancelled send
 * names its message by what only the engine reads (its sender's request); NULL if none. */
struct axon_match_entry *axon_pt2pt_match_find_unexpected(struct axon_match_queues *q, int source,
                                                          bool (*which)(const struct axon_match_entry *e,
                                                                        const void *arg),
                                                          const void *arg);
/* Takes a queued unexpected message out (a cancelled send's, or a matched one). */
void axon_pt2pt_match_withdraw_unexpected(struct axon_match_queues *q, struct axon_match_entry *e);

#endif
