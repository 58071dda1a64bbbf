/* task_mode.h — what a taskloop scheduling mode adds to the tasking engine: queues of its own that the scheduling ladder asks for tasks, and its per-team state. */
#ifndef ILAN_CORE_TASK_MODE_H
#define ILAN_CORE_TASK_MODE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/task_queue.h"
#include "sched/iter.h"
#include "sched/loop_victims.h"

struct ilan_thread;
struct task;
struct taskloop_exec;
struct taskloop_split;
struct team;

/* What every task of a taskloop runs, as GOMP_taskloop received it: a mode
 * that launches a taskloop without one descriptor per task (ILAN's range
 * launch) copies the block and runs the body itself. */
struct taskloop_body {
    void (*fn)(void *);            /* gcc's outlined task body */
    void *data;                    /* argument block to copy into every task (the encounter's) */
    void (*cpyfn)(void *, void *); /* copy constructor of the block, or NULL (memcpy) */
    long arg_size;                 /* bytes of the block */
    long arg_align;                /* its alignment */
    unsigned flags;                /* GOMP_TASK_FLAG_* */
    iter_ull start;                /* first iteration value (bits) */
    iter_ull step;                 /* step (bits) */
    const void *data_array;        /* the array registered for it (ilan_taskloop_data): its
                                      iterations map onto it linearly; NULL: none */
    size_t data_size;              /* bytes of data_array */
};

/*
 * A mode's operations, called by the tasking engine at fixed points. The
 * ladder of task_find (task_sched.c) asks take_own after a thread's own
 * deque and inbox, take_other after stealing, and take_any for a waiting
 * tied task (and to get out of a stall); the taskloop construct hands it
 * every deferred taskloop. All may be called by any thread
 * of the team at once; `look` says how hard to look (task_queue.h).
 */
struct task_mode_ops {
    void (*team_begin)(struct team *t);   /* a region of t starts (the master, before dispatch):
                                             (re)build what the mode keeps per team */
    void (*team_free)(struct team *t);    /* t is freed: release it */
    void (*task_done)(struct ilan_thread *ts, struct task *t); /* t, made by the mode (t->exec),
                                                                  ran its body on ts */
    struct task *(*take_own)(struct ilan_thread *ts, struct team *team, struct task *waiter,
                             enum task_look look);   /* tasks meant for ts */
    struct task *(*take_other)(struct ilan_thread *ts, struct team *team, struct task *waiter,
                               enum task_look look); /* tasks ts may share */
    struct task *(*take_any)(struct team *team, struct task *waiter,
                             enum task_look look);   /* any of its tasks (progress) */
    bool (*queued)(const struct team *team);         /* it has tasks queued */
    bool (*same_group)(const struct team *team, unsigned a,
                       unsigned b);                  /* slots a and b are in one locality
                                                        group (the counters' steals) */
    const struct loop_victims *(*victims)(struct ilan_thread *ts, struct team *team);
                                                     /* ts's victims in locality order when the
                                                        team's groups share memory or a cache
                                                        (nodes, LLCs); NULL: random victims */
    uint64_t (*sleep_ns)(const struct team *team);   /* while they are: how long a thread that
                                                        found none to take sleeps at most */
    _Atomic unsigned *(*sleepers_of)(struct team *team,
                                     unsigned slot); /* where slot's thread counts itself while
                                                        it sleeps free to take any task (no
                                                        tied task's constraint): its group's
                                                        count; NULL: nowhere. Asked during a
                                                        region, by slot's thread */
    bool (*wake_owed)(const struct team *team,
                      unsigned slot);                /* another group than slot's has tasks
                                                        queued and sleepers counted
                                                        (sleepers_of), which may be all the
                                                        threads that may take them */
    /* A deferred taskloop of n iterations on ts's team: the mode cuts it
     * (into *split) for the configuration it picks and queues the tasks
     * make(arg, i) makes, or launches body's tasks its own way; returns the
     * execution record to pass to taskloop_end after the taskloop's
     * taskgroup when creator_waits. */
    struct taskloop_exec *(*taskloop)(struct ilan_thread *ts, const struct taskloop_body *body,
                                      iter_ull n,
                                      bool grainsize, bool strict, unsigned long num_tasks,
                                      bool creator_waits, struct taskloop_split *split,
                                      struct task *(*make)(void *arg, iter_ull i), void *arg);
    void (*taskloop_end)(struct taskloop_exec *exec); /* records it (NULL: nothing) */
};

/* The mode in force: set once at start-up (construct/runtime.c) from
 * ILAN_TASKLOOP; NULL for plain work stealing (ws). */
extern const struct task_mode_ops *task_mode;

#endif
