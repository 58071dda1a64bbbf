/* ws_factor.h — the factoring family of loop schedules on a shared counter: FAC2 and TSS (chunk k's bounds from its number), AF (chunk sizes from the threads' measured iteration times). */
#ifndef ILAN_CORE_WS_FACTOR_H
#define ILAN_CORE_WS_FACTOR_H

#include <stdbool.h>

struct ws_loop;
struct loop_thread;

/* FAC2 / TSS: the caller's next chunk. Each claim is one fetch-add on the
 * loop's counter, which numbers chunks (not iterations); the bounds of
 * chunk k come from sched/loop_chunks.h. False when k lies past the end. */
bool ws_factor_next_indexed(struct ws_loop *l, struct loop_thread *lt);

/* AF: the caller (team slot tid) times the chunk it just finished, then
 * claims the size loop_af_size gives it with a compare-and-swap on the
 * loop's counter of iterations. */
bool ws_factor_next_af(struct ws_loop *l, struct loop_thread *lt, unsigned tid);

#endif
