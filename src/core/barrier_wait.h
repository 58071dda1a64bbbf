/* barrier_wait.h — a thread's passage through the team barrier: arrival, running the team's tasks until the round is released, leaving. */
#ifndef ILAN_CORE_BARRIER_WAIT_H
#define ILAN_CORE_BARRIER_WAIT_H

#include <stdbool.h>

struct barrier;
struct ilan_thread;

/* The team barrier: the calling thread (a thread of the team whose
 * barrier b is) waits for all team threads and, while waiting, runs the
 * team's tasks until none is pending. */
void barrier_wait(struct barrier *b);

/* Like barrier_wait, but returns true without waiting for the others when
 * the region has been cancelled (before or during the wait). */
bool barrier_wait_cancellable(struct barrier *b);

/* The barrier of the calling thread's team (GOMP_barrier): nothing outside
 * a region; a team of one only completes its pending tasks. */
void barrier_wait_team(struct ilan_thread *ts);

#endif
