/* task.h — explicit and implicit tasks, taskgroups, and the tasking API the constructs build on. */
#ifndef ILAN_CORE_TASK_H
#define ILAN_CORE_TASK_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "config/icv.h"
#include "core/wait.h"

struct team;
struct ilan_thread;
struct task_deps;
struct task_depnode;
struct taskloop_exec;

/* GOMP_task / GOMP_taskloop flag bits (gcc 12, include/gomp-constants.h). */
#define TASK_FLAG_UNTIED (1u << 0)
#define TASK_FLAG_FINAL (1u << 1)
#define TASK_FLAG_MERGEABLE (1u << 2)
#define TASK_FLAG_DEPEND (1u << 3)
#define TASK_FLAG_PRIORITY (1u << 4)
#define TASK_FLAG_UP (1u << 8)
#define TASK_FLAG_GRAINSIZE (1u << 9)
#define TASK_FLAG_IF (1u << 10)
#define TASK_FLAG_NOGROUP (1u << 11)
#define TASK_FLAG_REDUCTION (1u << 12)
#define TASK_FLAG_DETACH (1u << 13)
#define TASK_FLAG_STRICT (1u << 14)

/* Runtime-internal state bits kept in task->state_flags (not ABI). */
#define TASK_IMPLICIT (1u << 0)  /* the implicit task of a thread */
#define TASK_FINAL (1u << 1)     /* final: every descendant is an included task */
#define TASK_UNTIED (1u << 2)    /* untied (ilan runs it as tied) */
#define TASK_UNDEFERRED (1u << 3) /* runs on the encountering thread at creation */
#define TASK_DETACHED (1u << 4)  /* has a detach event */
#define TASK_COUNTED (1u << 5)   /* counted in parent children / taskgroup / team pending */
#define TASK_COPIED (1u << 6)    /* its arguments were copy-constructed (cpyfn): it is never
                                    discarded by cancellation, so that its body runs the
                                    destructors (it meets the cancellation itself) */

/*
 * A taskgroup region, begun by one task (task_taskgroup_start) and linked to
 * the group that was innermost for that task before. A task belongs to the
 * innermost taskgroup of its creator at creation time, and a task created
 * outside any group of its own inherits its creator's innermost group (as
 * libgomp does): so every descendant created inside the group is counted in
 * `pending` directly, and taskgroup end waits for `pending` to reach 0.
 */
struct taskgroup {
    struct taskgroup *prev;      /* enclosing taskgroup of the same task, or NULL */
    _Atomic unsigned long pending; /* tasks of the group (and their descendants) not complete */
    _Atomic bool cancelled;      /* cancel taskgroup was requested: unstarted tasks are discarded */
    bool internal;               /* made for a worksharing construct's task reductions, not a
                                    taskgroup region: cancel taskgroup passes over it */
    void *reductions;            /* owned by the task-reduction code (abi/task_reduction.c);
                                    NULL unless a task_reduction clause registered data */
};

/*
 * A task: an explicit task created by GOMP_task / taskloop, or the implicit
 * task of a thread in a region (embedded in the thread's state, see
 * task_implicit_enter). The argument block of an explicit task lies inline
 * after the descriptor (task_args), aligned to the requested alignment.
 */
struct task {
    void (*fn)(void *);              /* outlined body */
    void *data;                      /* its argument block (task_args for explicit tasks) */
    struct task *_Atomic parent;     /* generating task (NULL for an implicit task); atomic
                                        because a thief may read it through a stale pointer
                                        (scheduling constraint check before its CAS) */
    struct taskgroup *taskgroup;     /* innermost taskgroup: inherited from the creator at
                                        creation, pushed/popped by taskgroup start/end */
    struct taskgroup *tg_counted;    /* group whose `pending` counts this task, or NULL */
    struct team *team;               /* team whose queues and barrier serve it (NULL: none) */
    _Atomic unsigned long children;  /* incomplete deferred child tasks (taskwait) */
    _Atomic unsigned refs;           /* 1 until complete + 1 per child descriptor alive (they
                                        read their parent); freed at 0. Unused when implicit */
    unsigned state_flags;            /* TASK_IMPLICIT | TASK_FINAL | ... */
    int priority;                    /* priority clause value, clamped to max-task-priority */
    struct icv icv;                  /* the task's data-environment ICVs */
    struct task *next_queued;        /* link in a mutex-protected queue (priority, inbox) */
    long deque_mark;                 /* own deque's bottom index when the task started running:
                                        while it waits, entries at or above the mark are its
                                        descendants, those below are not (task_sched.c) */
    /* Dependences (task_deps.c); guarded by the parent's deps lock except npred. */
    struct task_deps *deps;          /* hash of this task's children's dependences (lazily made) */
    struct task_depnode **depnodes;  /* the entries of the parent's hash this task is in */
    unsigned ndepnodes;              /* entries in depnodes */
    unsigned nsucc, succ_cap;        /* successors recorded in succ */
    struct task **succ;              /* tasks waiting for this one (one per edge) */
    _Atomic unsigned npred;          /* predecessors not complete (+1 while being registered) */
    /* Detach. */
    _Atomic unsigned detach_state;   /* bit 0 body done; bit 1 event fulfilled */
    /* ILAN taskloops (core/taskloop_ilan.c). */
    struct taskloop_exec *exec;      /* the taskloop execution this task is part of, or NULL */
    /* Reductions (owned by abi/task_reduction.c). */
    void *reduction_data;            /* in_reduction / taskloop reduction private data, or NULL */
    /* Allocation. */
    unsigned size_class;             /* free-list class of this block */
    void *big_args;                  /* malloc'd argument block (too big for the class), or NULL */
    struct task *next_free;          /* link in a free list */
};

/* The argument block of an explicit task. */
static inline void *task_args(struct task *t)
{
    return t->data;
}

/* ---- the calling thread's tasks -------------------------------------- */

/* The task running on the calling thread (its implicit task when no
 * explicit task runs). Never NULL once the thread is initialized. */
struct task *task_current(void);

/* The innermost taskgroup of the current task, or NULL. */
struct taskgroup *task_current_taskgroup(void);

/* ---- creating and queueing (for GOMP_task, taskloop, reductions) ----- */

/*
 * Allocates a task for the current task's team, as a child of the current
 * task, without queueing or running it: fn, an argument block of arg_size
 * bytes aligned to arg_align (filled with cpyfn(block, data) when cpyfn is
 * given, else memcpy from data; data may be NULL to leave it unfilled),
 * priority (clamped to max-task-priority) and the TASK_FLAG_* flags UNTIED,
 * FINAL, MERGEABLE (the others are ignored). The child is counted (parent's
 * children, every enclosing taskgroup, the team's pending tasks) from here
 * on, so the caller MUST then pass it to exactly one of task_enqueue,
 * task_enqueue_on or task_run_now.
 * The caller may write the argument block (task_args) until then.
 */
struct task *task_create(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, unsigned flags, int priority);

/* Queues a created task on the calling thread's deque (or the team's
 * priority queue); throttles (runs it at once) when that deque is deeper
 * than ILAN_TASK_DEFER_LIMIT. Outside every parallel region it runs at once. */
void task_enqueue(struct task *t);

/* Queues a created task on the deque of team thread `team_id` of the
 * current team (the placement hook: taskloop/ILAN distribute with it).
 * team_id must be < the team's size. Never throttles. */
void task_enqueue_on(struct task *t, unsigned team_id);

/* Runs a created task at once on the calling thread as an included /
 * undeferred task, and returns when it is complete (for a detached task:
 * when its event is also fulfilled). */
void task_run_now(struct task *t);

/* True when tasks generated by the current task must be included tasks
 * (the current task is final). */
bool task_in_final(void);

/* GOMP_task: creates a task and queues it, or runs it at once when it is
 * undeferred (if(0), a final creator, throttled, no team), honouring its
 * dependences (gcc's depend array) and its detach event (*detach receives
 * the event handle). */
void task_spawn(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                void *detach);

/* taskwait depend(...): waits for the tasks the listed dependences would
 * make a new sibling wait for. */
void task_wait_depend(void **depend);

/* omp_fulfill_event on the task t (its event handle). Any thread. */
void task_fulfill(struct task *t);

/* ---- waiting ------------------------------------------------------------ */

/* taskwait: runs tasks until every child of the current task is complete. */
void task_wait_children(void);

/* taskyield: may run one other task. */
void task_yield(void);

/* taskgroup: begins a group on the current task; g is caller storage (the
 * stack frame of GOMP_taskgroup_start's caller does not survive, so the ABI
 * entry points allocate it; the reductions code may embed it). */
void task_taskgroup_start(struct taskgroup *g);

/* Ends the current task's innermost taskgroup: runs tasks until every task
 * of the group and its descendants is complete, then pops it. Returns it
 * (for the reductions code to finish with). */
struct taskgroup *task_taskgroup_end(void);

/* Allocates and begins a taskgroup (GOMP_taskgroup_start); task_taskgroup_end
 * followed by task_taskgroup_free releases it. */
struct taskgroup *task_taskgroup_new(void);
void task_taskgroup_free(struct taskgroup *g);

/* ---- cancellation ----------------------------------------------------- */

/* cancel taskgroup: marks the current task's innermost taskgroup region
 * cancelled, passing over the groups the runtime made for task reductions
 * (returns false when there is none). */
bool task_cancel_taskgroup(void);

/* True when the taskgroup the current task belongs to (or its innermost
 * own one) was cancelled: for GOMP_cancellation_point(TASKGROUP). */
bool task_taskgroup_cancelled(void);

#endif
