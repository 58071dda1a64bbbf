/* bubble.h — nested teams as bubbles (ILAN_BUBBLES, seed 003 section 4): each placed on one NUMA node (else one last-level cache), its threads bound there, its team memory moved with it. */
#ifndef ILAN_CORE_BUBBLE_H
#define ILAN_CORE_BUBBLE_H

#include <stdio.h>
#include "sched/mem_plan.h"

struct team;

/*
 * Team t, nested (its parent is a team) and of t->nthreads threads, is
 * about to start a region: with ILAN_BUBBLES set, it is recorded as a
 * bubble (keyed by `key`, its master's thread number in the parent team),
 * every bubble known is placed again (sched/bubble.c) and t's slots bound
 * to its threads' cores; memory attached to the whole team moves where the
 * scheduler says. Nothing when ILAN_BUBBLES is unset. Only t's master.
 */
void bubble_team_begin(struct team *t, unsigned key);

/* Forgets team t's bubble (t is being freed): it no longer holds cores in
 * the placement, and a team later allocated at t's address starts anew.
 * Whoever frees t. */
void bubble_team_forget(const struct team *t);

/* The nodes memory attached to team t goes to now: its bubble's
 * (bubble_mem_domains), or false when t is not a placed bubble. */
bool bubble_team_domains(const struct team *t, struct mem_domains *out);

/* Writes one line per bubble into the summary report (nothing when there is none). */
void bubble_report_summary(FILE *f);

/* Writes the report's "bubbles" member (trailing comma). */
void bubble_report_json(FILE *f);

#endif
