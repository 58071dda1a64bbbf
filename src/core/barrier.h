/* barrier.h — the team barrier: a centralized counter plus a sequence word threads sleep on. */
#ifndef ILAN_CORE_BARRIER_H
#define ILAN_CORE_BARRIER_H

#include <stdalign.h>
#include <stdbool.h>
#include "core/wait.h"
#include "base/tunables.h"

/*
 * Arrivals count down `remaining`; the last arriver resets it and advances
 * `release`, on which the others wait (spin, then futex). The two words live
 * on separate cache lines so that arrivals do not disturb the spinners.
 * Cancellation (cancel parallel) sets `cancelled` and advances `release`
 * early; every later cancellable wait then returns at once.
 * `loop_cancelled` records a `cancel for` in a loop that has no work-share
 * slot (gcc inlines schedule(static)); such a loop ends at this barrier, so
 * the round that completes clears it.
 */
struct barrier {
    alignas(ILAN_CACHE_LINE) _Atomic unsigned remaining; /* threads still to arrive this round */
    unsigned nthreads;                                   /* team size the barrier counts */
    alignas(ILAN_CACHE_LINE) seqword release;            /* advanced once per completed round */
    _Atomic bool cancelled;                              /* the region was cancelled */
    _Atomic bool loop_cancelled;                         /* an inlined static loop was cancelled */
    /* The team's tasks, here because the barrier's release condition reads
     * them: a round is released when all threads arrived AND no explicit
     * task of the team is pending (see task_sched.c). */
    alignas(ILAN_CACHE_LINE) _Atomic unsigned long task_pending; /* deferred tasks not complete */
    alignas(ILAN_CACHE_LINE) _Atomic unsigned task_sleepers; /* threads asleep (or going to
                                                                sleep) on task_work */
    _Atomic unsigned task_hungry;                        /* threads waiting that found no task
                                                            (creators then defer more) */
    seqword task_work;                                   /* bumped, when task_sleepers != 0, by
                                                            pushes, completions and releases */
    _Atomic unsigned task_relay;                         /* wake-ups of task_work's sleepers a
                                                            tree wake-up still owes (seq_relay) */
};

/* Prepares the barrier for a team of n. Only while no thread uses it. */
void barrier_init(struct barrier *b, unsigned n);

/* Releases the current round if every thread has arrived and no task is
 * pending; exactly one of the threads that call it for a round wins (a CAS
 * of `remaining` from 0 back to nthreads) and returns true. */
bool barrier_try_release(struct barrier *b);

/* Arrives; returns true when this thread released the round (it was the
 * last and no task was pending: the no-task fast path costs one load of
 * task_pending more than a task-less barrier). Waiting for the others is
 * the task scheduler's (task_barrier in task_sched.h), which runs the
 * team's tasks meanwhile. */
static inline bool barrier_arrive(struct barrier *b)
{
    return atomic_fetch_sub_explicit(&b->remaining, 1, memory_order_acq_rel) == 1 &&
           barrier_try_release(b);
}

/* Wakes threads sleeping on the team's work word, if any. Called after
 * something they may wait for happened (a push, a completion, a release). */
void barrier_wake_idle(struct barrier *b);

/* barrier_wake_idle for a push of work for many threads (a taskloop's
 * range launch): the sleepers are woken down a tree (seq_bump_tree), each
 * woken thread waking the next ones, rather than all by the caller. */
void barrier_wake_idle_tree(struct barrier *b);

/* What a thread that slept on the team's work word does once awake:
 * passes on the wake-ups a tree still owes (one load when none). */
static inline void barrier_relay_wake(struct barrier *b)
{
    seq_relay(&b->task_work, &b->task_relay);
}

/* Marks the region cancelled and releases every thread waiting in a
 * cancellable wait. Any team thread may call, more than once. */
void barrier_cancel(struct barrier *b);

#endif
