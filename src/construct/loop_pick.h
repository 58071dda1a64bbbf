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
 * `may_reorder` as above: true for GOMP_loop_maybe_nonmonotonic_runtime_*
 * (plain schedule(runtime)), *_nonmonotonic_runtime_* and GOMP_loop_start
 * with sched 0 or 4; false for GOMP_loop_runtime_* (monotonic:runtime),
 * ordered and doacross entries. Then a dynamic run-sched-var without
 * "monotonic:" runs on adaptive (OpenMP 5.x: it is nonmonotonic), as
 * plain schedule(dynamic) does; otherwise it stays the shared counter,
 * ilan's kinds fall back to it too, and auto to static, as libgomp runs
 * auto. */
void loop_pick_runtime(struct ilan_thread *ts, bool may_reorder, int *sched, iter_ull *chunk);

/* By the slot's initializer, after ws_loop_init (sched: the kind it was
 * asked for, site: the loop's identity, construct/loop.h): schedule(auto)
 * picks its candidate for this execution (l->sched and l->chunk change to
 * it), and with ILAN_REPORT, auto, or an adaptive loop of a team, the loop
 * gets its identity's record and its start time. */
void loop_pick_setup(struct ws_loop *l, int sched, const void *site);

/* By the slot's initializer, after loop_pick_setup: ws_loop_engine_setup,
 * an adaptive loop's ranges starting from its record's learnt split when
 * it has one (sched/loop_split.h), else from the static split. */
void loop_pick_engine_setup(struct ws_loop *l, void *space);

/* The calling thread's victim order for the adaptive loop l (kept across
 * loops while its team's groups stay the same). */
const struct loop_victims *loop_pick_victims(struct ilan_thread *ts, const struct ws_loop *l);

/* The calling thread is done with l (its claims ran dry, or it leaves the
 * loop: cancelled, or its iterations were computed inline); once per
 * thread, only with l->rec. Its counts go to the loop's record; the last
 * thread times the execution for schedule(auto) and, for an adaptive loop,
 * learns the next execution's split from what the owners measured (neither
 * when it was cancelled), and ends the execution's hold on the record. */
void loop_pick_finish(struct ilan_thread *ts, struct ws_loop *l);

#endif
