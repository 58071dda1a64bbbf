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

/* Starts the calling thread's next worksharing construct. Returns its slot;
 * when *initialize is true the caller must fill the slot, then call
 * ws_publish. Called by every thread of the team, in construct order. */
struct ws *ws_enter(struct ilan_thread *ts, bool *initialize);

/* Makes the slot the caller initialized visible to the other threads. */
void ws_publish(struct ilan_thread *ts, struct ws *w);

/* The calling thread is done with its current construct. */
void ws_leave(struct ilan_thread *ts);

/* The calling thread's slot for a loop met outside every parallel region
 * (a team of one, with nobody to agree with). */
struct ws *ws_solo(void);

/* Frees what the calling thread's solo slot holds: for its exit. */
void ws_solo_thread_exit(void);

#endif
