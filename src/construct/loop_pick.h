/* loop_pick.h — which engine runs a worksharing loop and how: plain schedule(dynamic) on adaptive, OMP_SCHEDULE's kinds, schedule(auto)'s choice, an adaptive thief's victims, and the loop's record for the report. */
#ifndef ILAN_CONSTRUCT_LOOP_PICK_H
#define ILAN_CONSTRUCT_LOOP_PICK_H

#include <stdbool.h>
#include "core/thread.h"
#include "core/ws_loop.h"

/* The schedule a loop described by sched (a GOMP kind, the monotonic bit
 * allowed) runs when it `may_reorder` (nonmonotonic, no ordered clause, not
 * doacross): nonmonotonic dynamic becomes adaptive; everything else stays. */
int loop_pick_kind(int sched, bool may_reorder);

/* schedule(runtime): the calling task's run-sched-var as a kind and chunk.
 * `may_reorder` as above (false for monotonic:runtime, ordered and
 * doacross entries): then ilan's kinds fall back to dynamic (the shared
 * counter) and auto to static, as libgomp runs auto. */
void loop_pick_runtime(struct ilan_thread *ts, bool may_reorder, int *sched, iter_ull *chunk);

/* By the slot's initializer, after ws_loop_init (sched: the kind it was
 * asked for, site: the loop's identity, construct/loop.h): schedule(auto)
 * picks its candidate for this execution (l->sched and l->chunk change to
 * it), and with ILAN_REPORT or auto the loop gets its identity's record and
 * its start time. */
void loop_pick_setup(struct ws_loop *l, int sched, const void *site);

/* The calling thread's victim order for the adaptive loop l (kept across
 * loops while its team's groups stay the same). */
const struct loop_victims *loop_pick_victims(struct ilan_thread *ts, const struct ws_loop *l);

/* The calling thread's claims of l ran dry: its counts go to the loop's
 * record, and the last thread times the execution for schedule(auto). */
void loop_pick_finish(struct ilan_thread *ts, struct ws_loop *l);

#endif
