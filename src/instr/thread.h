/* thread.h — what instrumentation knows of a thread, as data: the list of counters and states (X-macros), the per-thread block on its own cache lines, the read-mostly flags, and the fast path that bumps a counter. */
#ifndef ILAN_INSTR_THREAD_H
#define ILAN_INSTR_THREAD_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/tunables.h"

/*
 * The counters: X(name, meaning). Adding one is adding a line here and a
 * hook where the event happens; the report, the summary and
 * ilan_counter() pick it up by name.
 */
#define INSTR_COUNTERS(X)                                                                          \
    X(tasks_created, "explicit tasks created (every task construct, and each taskloop task)")     \
    X(tasks_included, "of those, run at once by their creator on its stack (never queued)")      \
    X(tasks_included_spawned, "of those, made by a task construct (the others: taskloop ranges)") \
    X(tasks_executed, "explicit tasks this thread ran")                                           \
    X(tasks_executed_foreign, "of those, tasks another thread created")                           \
    X(range_runners, "ILAN range-launch runners this thread ran (not counted as tasks)")          \
    X(steals_attempted, "looks into another thread's deque or inbox")                             \
    X(steals_local, "tasks stolen from a thread of the same locality group")                      \
    X(steals_remote, "tasks stolen from a thread of another locality group")                      \
    X(dlb_requests_sent, "ILAN_DLB=na-ws/na-rp: requests for tasks this thread sent")             \
    X(dlb_requests_served, "of the requests this thread received, those it handled in their round") \
    X(dlb_tasks_sent, "tasks this thread sent to a thief that asked (migrated or redirected)")    \
    X(group_own, "ILAN taskloop tasks taken from the thread's own group's queues")                \
    X(group_other, "ILAN taskloop tasks taken from another group's shared queue")                 \
    X(group_strict_other, "NUMA-strict ILAN tasks of another group: opened runs, CPU-led runners, " \
                          "runners run by another group's thread")                                  \
    X(group_escape, "ILAN tasks of another group taken only to keep progress (take_any)")        \
    X(regions, "parallel regions the thread took part in")                                        \
    X(region_helps, "returns to a region it had left, to help with its tasks (team_help)")       \
    X(barriers, "barrier waits")                                                                  \
    X(taskwaits, "taskwait, taskgroup-end and dependence waits that had to wait")                 \
    X(waits_spun, "waits that ended while spinning")                                              \
    X(waits_yielded, "waits that ended after yielding the CPU")                                   \
    X(waits_slept, "waits that went to sleep")                                                    \
    X(waits_alone, "oversubscribed waits that spun, not yielded: no thread on their CPU had work") \
    X(task_waits_alone, "oversubscribed task waits that spun: their CPU's other threads had left") \
    X(yields_late, "yields that came back late beside other processes' load: waits then sleep " \
                   "instead of yielding for a while")                                             \
    X(sleeps, "futex sleeps")                                                                     \
    X(wakes, "futex wake-up calls made (some thread was asleep)")                                 \
    X(wakes_passed, "wake-ups passed on for another locality group's queued ILAN tasks")         \
    X(runners_spread, "ILAN runners added for runners that shared a CPU (placeless groups)")      \
    X(loop_chunks, "worksharing-loop chunks taken (dynamic, guided, runtime and ordered loops)")  \
    X(loop_steals_local, "adaptive loops: iteration ranges stolen within the thief's locality group") \
    X(loop_steals_remote, "adaptive loops: iteration ranges stolen from another locality group")  \
    X(taskloops_ilan, "taskloops run in the ilan mode")                                           \
    X(taskloops_numa, "taskloops run in the numa mode")                                           \
    X(taskloops_ws, "taskloops run with plain work stealing")                                     \
    X(taskloops_undeferred, "taskloops run at once by their creator (if(0), final, one thread)")  \
    X(taskloop_tasks, "tasks the taskloops above were cut into")

/* The states a thread's time is split into (XGOMP's classes, plus idle). */
#define INSTR_STATES(X)                                                                            \
    X(task, "running user code: implicit and explicit task bodies, loop bodies, serial code")     \
    X(create, "creating deferred tasks and taskloops")                                            \
    X(taskwait, "in taskwait, taskgroup and dependence waits, not running a task")                \
    X(barrier, "in barriers, with no task pending in the team")                                   \
    X(stall, "in a wait while the team has tasks pending, finding none to run")                   \
    X(sleep, "asleep on a futex")                                                                 \
    X(idle, "a worker between parallel regions, awake")

enum instr_counter {
#define INSTR_X(name, what) INSTR_C_##name,
    INSTR_COUNTERS(INSTR_X)
#undef INSTR_X
    INSTR_NCOUNTERS
};

enum instr_state {
#define INSTR_X(name, what) INSTR_S_##name,
    INSTR_STATES(INSTR_X)
#undef INSTR_X
    INSTR_NSTATES,
    INSTR_S_NONE = 255 /* a mark with nothing to undo */
};

/* ILAN_COUNTERS: what is measured. */
enum instr_level {
    INSTR_OFF,     /* nothing (the default): every hook is one predictable branch */
    INSTR_RUNTIME, /* the counters and the time per state */
    INSTR_OS,      /* also each thread's software perf counters, per region */
    INSTR_ALL,     /* also hardware cycles and instructions where there are any */
};

struct instr_ext;

/* One thread's counters, on cache lines of their own: only that thread
 * writes them (a relaxed load and store, no locked instruction), anybody
 * may read them (the report at exit, ilan_counter). Never freed. */
struct instr_thread {
    alignas(ILAN_CACHE_LINE) _Atomic uint64_t count[INSTR_NCOUNTERS]; /* the counters */
    _Atomic uint64_t state_ticks[INSTR_NSTATES]; /* os_ticks spent in each state */
    uint64_t since;                /* os_ticks at its latest state change (own thread only) */
    unsigned state;                /* the state it is in (enum instr_state; own thread only) */
    unsigned task_skip;            /* tasks left before the next traced one (own thread only) */
    bool next_barrier;             /* the next wait is a barrier's (instr_barrier_wait) */
    unsigned id;                   /* registration order: 0 is the thread that started ilan */
    long tid;                      /* kernel thread id */
    struct instr_thread *_Atomic next; /* the registry, newest first (instr/counters.c) */
    struct instr_ext *ext;         /* OS counters, regions and trace buffer (instr/regions.c,
                                      instr/trace.c); NULL until first needed */
    const unsigned long *starts;   /* the core's count of tasks started on this thread
                                      (instr_thread_starts); read by this thread only; NULL:
                                      not given, its included tasks go uncounted */
    unsigned long starts_seen;     /* *starts at the latest instr_sync (own thread only) */
    uint64_t others_seen;          /* task starts counted one by one by then (own thread only) */
};

/* What the hooks test: written once at start-up, before any other thread
 * exists, then only read; on a line of its own so that nothing written
 * often shares it. */
struct instr_flags {
    alignas(ILAN_CACHE_LINE) bool on; /* counters and states are kept (any level but off) */
    bool os;                          /* perf counters per region (levels os and all) */
    bool trace;                       /* ILAN_TRACE: events go to the threads' ring buffers */
    unsigned task_every;              /* ILAN_TRACE_TASKS=1/N: trace one task in N (0: none) */
    enum instr_level level;           /* ILAN_COUNTERS as resolved */
};
extern struct instr_flags instr_flags;

/* The calling thread's block, or NULL before its first counted event. */
extern __thread struct instr_thread *instr_self __attribute__((tls_model("initial-exec")));

/* Creates and registers the calling thread's block (first event of a
 * thread; a worker starts idle). Cold. */
struct instr_thread *instr_thread_register(void);

static inline struct instr_thread *instr_me(void)
{
    struct instr_thread *me = instr_self;
    return __builtin_expect(me != NULL, 1) ? me : instr_thread_register();
}

/* Adds n to counter c of the calling thread (single writer: no locked
 * instruction). */
static inline void instr_add(enum instr_counter c, uint64_t n)
{
    struct instr_thread *me = instr_me();
    atomic_store_explicit(&me->count[c],
                          atomic_load_explicit(&me->count[c], memory_order_relaxed) + n,
                          memory_order_relaxed);
}

/* What a state change undoes: the state before it and when it began. */
struct instr_mark {
    uint64_t start; /* os_ticks when the state was entered */
    unsigned prev;  /* the state to return to; INSTR_S_NONE: nothing to do */
    unsigned base;  /* for waits: the state the wait is in when not stalled */
};
#define INSTR_MARK_NONE ((struct instr_mark){0, INSTR_S_NONE, INSTR_S_NONE})

/* Every block, newest first (then ->next). */
struct instr_thread *instr_threads(void);

/* Threads registered so far. */
unsigned instr_thread_count(void);

/* Creates and registers the calling thread's block in `state` (the
 * initial thread: task; a worker at its first event: idle). */
struct instr_thread *instr_thread_register_in(unsigned state);

#endif
