/* counters.h — per-thread event counters and time per thread state, free when off: the one-line hooks the runtime calls (the list of counters is in instr/thread.h). */
#ifndef ILAN_INSTR_COUNTERS_H
#define ILAN_INSTR_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>
#include "instr/thread.h"


/* Enters state s (a no-op mark when already in it). */
struct instr_mark instr_enter(enum instr_state s);
/* Returns to the state before m, charging the time since the latest change
 * to the current state; traces the slice when tracing. */
void instr_leave(struct instr_mark m);
/* The calling thread is about to wait in a barrier: counts it, and makes
 * its next wait (instr_enter_wait) a barrier's. */
void instr_barrier_wait(void);
/* Makes the calling thread's next wait a barrier's again, uncounted: a
 * tree barrier's waiter that goes back to running tasks (core/barrier_wait.c). */
void instr_barrier_resume(void);
/* Enters a wait: a barrier's after instr_barrier_wait or when idle (a
 * worker helping with its region's late tasks), else taskwait (counted). */
struct instr_mark instr_enter_wait(void);
/* Inside the wait of m: stalled (tasks pending, none found) or not. */
void instr_wait_phase(const struct instr_mark *m, bool stalled);
/* A task stolen from team slot `victim`, of another locality group when `remote`. */
void instr_steal(unsigned victim, bool remote);
/* The calling thread enters / leaves a parallel region running fn. */
void instr_region_begin(void *fn);
void instr_region_end(void);
/* A worker that left a region goes back to help with its tasks
 * (team_help): the region's record reopens on it, as the same call, until
 * the matching instr_region_end; traced as a slice of the region. */
void instr_region_resume(void *fn);
/* A taskloop of fn begins on the calling thread / has ended (its tasks are
 * done unless nogroup): how it ran (deferred, with a mode's distribution)
 * and its task count. */
struct instr_mark instr_taskloop_begin(void *fn);
void instr_taskloop_end(struct instr_mark m, void *fn, bool deferred, bool moded,
                        uint64_t ntasks);
/* The calling thread starts / ends its share of a taskloop of fn that
 * another thread created (an ILAN range launch's runner): counters, time
 * and OS counters in between go to the taskloop's record on this thread.
 * Nothing (INSTR_MARK_NONE) when the thread is already inside that
 * taskloop's record (its creator). */
struct instr_mark instr_taskloop_join(void *fn);
void instr_taskloop_leave(struct instr_mark m);
/* The configuration ILAN chose for the taskloop the calling thread is
 * creating (groups, threads, stealing across groups), for the trace. */
void instr_taskloop_config(unsigned groups, unsigned workers, bool full);

/* What every hook tests first; a constant 0 in a build configured with
 * -DILAN_INSTR_HOOKS=OFF, which compiles the hooks out (the baseline of
 * tools/instr_overhead.py). */
#ifdef ILAN_INSTR_COMPILED_OUT
#define INSTR_ON 0
#else
#define INSTR_ON __builtin_expect(instr_flags.on, 0)
#endif

/* ---- the hooks: one line each where the event happens ------------------- */
#define ILAN_COUNT(name)                                                                           \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_add(INSTR_C_##name, 1);                                                          \
    } while (0)
#define ILAN_COUNT_N(name, n)                                                                      \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_add(INSTR_C_##name, (uint64_t)(n));                                              \
    } while (0)
/* Counts `yes` when cond holds, else `no` (cond evaluated only when on). */
#define ILAN_COUNT_IF(cond, yes, no)                                                               \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_add((cond) ? INSTR_C_##yes : INSTR_C_##no, 1);                                   \
    } while (0)
/* Counts n as `yes` when cond holds, else as `no`. */
#define ILAN_COUNT_N_IF(cond, yes, no, n)                                                          \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_add((cond) ? INSTR_C_##yes : INSTR_C_##no, (uint64_t)(n));                       \
    } while (0)
/* An explicit task t ran on this thread, queued or undeferred (`foreign`:
 * another thread created it); a range launch's runner is counted apart
 * (the tasks it runs count as included ones). */
#define ILAN_TASK_RAN(t, foreign)                                                                  \
    do {                                                                                           \
        if (INSTR_ON) {                                                                            \
            if ((t)->state_flags & TASK_RUNNER) {                                                  \
                instr_add(INSTR_C_range_runners, 1);                                               \
            } else {                                                                               \
                instr_add(INSTR_C_tasks_executed, 1);                                              \
                if (foreign)                                                                       \
                    instr_add(INSTR_C_tasks_executed_foreign, 1);                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)
/* An included task ran; `created` (a constant 0 or 1): made by a task
 * construct (GOMP_task), so its creation counts too. Those are the
 * hottest path and are not counted one by one: instr_sync derives them,
 * in batches, from the core's count of task starts (ILAN_THREAD_STARTS)
 * minus the starts counted here (queued tasks, range runners, and the
 * included tasks of taskloops, created == 0); the readers fold them into
 * tasks_included, tasks_executed and tasks_created (instr_fold). */
#define ILAN_TASK_INCLUDED(created)                                                                \
    do {                                                                                           \
        if (!(created) && INSTR_ON)                                                                \
            instr_add(INSTR_C_tasks_included, 1);                                                  \
    } while (0)
/* The calling thread's count of started tasks lives at p (struct
 * ilan_thread task_starts): given once per thread, when it starts. */
#define ILAN_THREAD_STARTS(p)                                                                      \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_thread_starts(p);                                                                \
    } while (0)
#define ILAN_ENTER(state) (INSTR_ON ? instr_enter(INSTR_S_##state) : INSTR_MARK_NONE)
#define ILAN_ENTER_WAIT() (INSTR_ON ? instr_enter_wait() : INSTR_MARK_NONE)
#define ILAN_BARRIER_WAIT()                                                                        \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_barrier_wait();                                                                  \
    } while (0)
#define ILAN_BARRIER_RESUME()                                                                      \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_barrier_resume();                                                                \
    } while (0)
#define ILAN_LEAVE(m)                                                                              \
    do {                                                                                           \
        if (__builtin_expect((m).prev != INSTR_S_NONE, 0))                                         \
            instr_leave(m);                                                                        \
    } while (0)
#define ILAN_WAIT_PHASE(m, stalled)                                                                \
    do {                                                                                           \
        if (__builtin_expect((m).prev != INSTR_S_NONE, 0))                                         \
            instr_wait_phase(&(m), (stalled));                                                     \
    } while (0)
/* A futex sleep: the call, timed as state sleep and counted. */
#define ILAN_SLEEP(call)                                                                           \
    do {                                                                                           \
        struct instr_mark ilan_sleep_mark_ = ILAN_ENTER(sleep);                                    \
        call;                                                                                      \
        if (__builtin_expect(ilan_sleep_mark_.prev != INSTR_S_NONE, 0)) {                          \
            instr_leave(ilan_sleep_mark_);                                                         \
            instr_add(INSTR_C_sleeps, 1);                                                          \
        }                                                                                          \
    } while (0)
/* An ILAN taskloop task was taken: from the thread's own group's queues,
 * or another's (strict: from its NUMA-strict queue). */
#define ILAN_COUNT_GROUP_TAKE(t, own, strict)                                                      \
    do {                                                                                           \
        if (INSTR_ON && (t) && !((t)->state_flags & TASK_RUNNER))                                  \
            instr_add((own) ? INSTR_C_group_own                                                    \
                      : (strict) ? INSTR_C_group_strict_other : INSTR_C_group_other, 1);           \
    } while (0)
/* An ILAN taskloop task taken by take_any (a waiter's descendants, the
 * stall escape): its own group's counts as group_own, another's as
 * group_escape, whatever queue it was in. */
#define ILAN_COUNT_ESCAPE_TAKE(t, own)                                                             \
    do {                                                                                           \
        if (INSTR_ON && (t) && !((t)->state_flags & TASK_RUNNER))                                  \
            instr_add((own) ? INSTR_C_group_own : INSTR_C_group_escape, 1);                        \
    } while (0)
#define ILAN_COUNT_STEAL(victim, remote)                                                           \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_steal((victim), (remote));                                                       \
    } while (0)
#define ILAN_REGION_BEGIN(fn)                                                                      \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_region_begin((void *)(fn));                                                      \
    } while (0)
#define ILAN_REGION_END()                                                                          \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_region_end();                                                                    \
    } while (0)
#define ILAN_REGION_RESUME(fn)                                                                     \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_region_resume((void *)(fn));                                                     \
    } while (0)
#define ILAN_TASKLOOP_JOIN(fn) (INSTR_ON ? instr_taskloop_join((void *)(fn)) : INSTR_MARK_NONE)
#define ILAN_TASKLOOP_LEAVE(m)                                                                     \
    do {                                                                                           \
        if (__builtin_expect((m).prev != INSTR_S_NONE, 0))                                         \
            instr_taskloop_leave(m);                                                               \
    } while (0)
#define ILAN_TASKLOOP_BEGIN(fn) (INSTR_ON ? instr_taskloop_begin((void *)(fn)) : INSTR_MARK_NONE)
#define ILAN_TASKLOOP_END(m, fn, deferred, moded, ntasks)                                          \
    do {                                                                                           \
        if (__builtin_expect((m).prev != INSTR_S_NONE, 0))                                         \
            instr_taskloop_end((m), (void *)(fn), (deferred), (moded), (ntasks));                  \
    } while (0)
#define ILAN_TASKLOOP_CONFIG(groups, workers, full)                                                \
    do {                                                                                           \
        if (INSTR_ON)                                                                              \
            instr_taskloop_config((groups), (workers), (full));                                    \
    } while (0)

/* ---- set-up and results (instr/counters.c) ---------------------------------- */

/* Turns measurement on at `level` (INSTR_OFF: stays off) and registers the
 * calling (initial) thread, running serial code. Once, at start-up, before
 * any other thread exists. */
void instr_init(enum instr_level level);

/* The counter named `name` of the thread registered `thread`-th, or the sum
 * over every thread when thread < 0; -1 when off, unknown or out of range. */
long long instr_counter_value(const char *name, int thread);

/* See ILAN_THREAD_STARTS. */
void instr_thread_starts(const unsigned long *p);

/* Brings the calling thread's tasks_included_spawned up to date from its
 * task starts (ILAN_TASK_INCLUDED); every reader of its own thread's
 * counts calls it first. Other threads' counts are up to date as of their
 * latest region or taskloop boundary, the only places they run tasks
 * between. */
void instr_sync(struct instr_thread *me);

/* Turns counts as the threads keep them into the counts the counters'
 * names promise (ILAN_TASK_INCLUDED's one increment stands for three);
 * linear, so it applies to sums and differences too. Every reader calls it
 * once on its values. */
void instr_fold(uint64_t c[INSTR_NCOUNTERS]);

/* Name of counter c / state s. */
const char *instr_counter_name(enum instr_counter c);
const char *instr_state_name(enum instr_state s);

#endif
