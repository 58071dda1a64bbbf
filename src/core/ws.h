/* ws.h — work-share slots: how a team's threads agree on one instance of a worksharing construct. */
#ifndef ILAN_CORE_WS_H
#define ILAN_CORE_WS_H

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/wait.h"
#include "core/ws_loop.h"
#include "base/tunables.h"

struct ilan_thread;

/*
 * Every thread of a team meets the same sequence of worksharing constructs
 * (loops, sections). Each thread numbers them 1, 2, 3, ... in its own
 * thread state; construct k lives in slot k % ILAN_WS_RING of the team's
 * ring. The first thread to reach construct k claims the slot (once every
 * thread has left the construct that used it before), initializes it and
 * publishes it; the others wait for the publication, then join. `nowait`
 * lets fast threads run up to ILAN_WS_RING constructs ahead.
 */
struct ws {
    alignas(ILAN_CACHE_LINE) _Atomic unsigned claimed; /* number of the construct that owns the slot */
    seqword published;                                /* advanced by the initializer when ready */
    _Atomic unsigned published_k;                     /* construct number the published data is for */
    _Atomic unsigned left;                            /* threads that have left the construct */
    uintptr_t *task_reductions;                       /* reduction(task, ...): the initializer's
                                                         registered data (abi/task_reduction.c) */
    alignas(ILAN_CACHE_LINE) struct ws_loop loop;     /* loop / sections state (sched/iter.h) */
};

/* Starts the calling thread's next worksharing construct. Returns its slot;
 * when *initialize is true the caller must fill the slot, then call
 * ws_publish. Called by every thread of the team, in construct order. */
struct ws *ws_enter(struct ilan_thread *ts, bool *initialize);

/* Makes the slot the caller initialized visible to the other threads. */
void ws_publish(struct ilan_thread *ts, struct ws *w);

/* The calling thread is done with its current construct. */
void ws_leave(struct ilan_thread *ts);

#endif
