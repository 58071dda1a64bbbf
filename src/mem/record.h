/* record.h — the ranges ilan placed: allocations, migrations and attachments with their plans, which answer page-location queries on what-if machines. */
#ifndef ILAN_MEM_RECORD_H
#define ILAN_MEM_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sched/mem_plan.h"

/* What a record stands for. */
enum mem_rec_kind {
    MEM_REC_ALLOC,  /* an ilan_alloc_bloc* allocation (ilan_mem_free takes it back) */
    MEM_REC_PLACED, /* a migration or an allocator's placement of existing memory */
    MEM_REC_ATTACH, /* a range attached to a thread: it follows the thread */
};

/* Whom an attached range follows: thread `slot` of team `team` (the slot a
 * thread fills in a team, kept across the team's regions). */
struct mem_owner {
    const void *team; /* the team (an opaque identity); NULL: none */
    unsigned slot;    /* the thread number in it */
};

/* The page at `addr` as the newest record covering it places it. */
struct mem_rec_hit {
    int node;          /* the model node; -1: no record covers the page */
    unsigned long seq; /* when that record was made (mem_rec_next_seq) */
};

/* A stamp for a placement, increasing (records and next-touch moves share it). */
unsigned long mem_rec_next_seq(void);

/* Records plan p for the range [start, start + len) the program named;
 * owner is the thread an ATTACH record follows (team NULL otherwise). Older
 * PLACED and ATTACH records the new one covers entirely are dropped. False
 * when out of memory. Any thread. */
bool mem_rec_add(enum mem_rec_kind kind, uintptr_t start, size_t len, const struct mem_plan *p,
                 struct mem_owner owner);

/* Forgets the ALLOC record of exactly [start, start + len) and every record
 * inside it. False (nothing changed) when there is no such allocation. */
bool mem_rec_remove_alloc(uintptr_t start, size_t len);

/* True when [start, start + len) lies inside one ALLOC record. */
bool mem_rec_in_alloc(uintptr_t start, size_t len);

/* Where the newest record covering the page at page-aligned `addr` puts it. */
struct mem_rec_hit mem_rec_lookup(uintptr_t addr);


/* The slot of a range attached to a whole team (ilan_mem_attach with
 * thread_num -1): it moves with the team's bubble (mem_follow_domains). */
#define MEM_OWNER_TEAM (~0u)

/*
 * The ATTACH records of `owner` whose plan is not the bloc distribution
 * over d (a single node when d->n == 1): each is re-planned so (and
 * re-stamped) and copied to out[0..max-1]; returns how many were. Any
 * thread.
 */
unsigned mem_rec_follow_domains(struct mem_owner owner, const struct mem_domains *d,
                                struct mem_plan *out, unsigned max);

/* Adds the pages owner's ATTACH records place on each node to
 * per_node[0..max_nodes-1] (not zeroed here). */
void mem_rec_owner_pages(struct mem_owner owner, size_t *per_node, int max_nodes);

/* Records held now, and ATTACH records among them (for the report). */
void mem_rec_counts(unsigned *records, unsigned *attached);

#endif
