/* task_desc.h — what a task is, as data: the task descriptor, taskgroups, the queues tasks wait in and a thread slot's share of them (types only). */
#ifndef ILAN_CORE_TASK_DESC_H
#define ILAN_CORE_TASK_DESC_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/tunables.h"
#include "config/icv.h"
#include "core/deque.h"
#include "core/mutex.h"
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
    void *reductions;            /* owned by the task-reduction code (construct/task_reduction.c);
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
    /* ILAN taskloops (ilan/exec.c). */
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

/* True when t descends from `ancestor` (a bounded walk up the parent
 * chain: see ILAN_TASK_TSC_DEPTH). */
static inline bool task_descends_from(struct task *t, struct task *ancestor)
{
    unsigned depth = 0;
    for (struct task *p = atomic_load_explicit(&t->parent, memory_order_relaxed);
         p && depth < ILAN_TASK_TSC_DEPTH;
         p = atomic_load_explicit(&p->parent, memory_order_relaxed), depth++)
        if (p == ancestor)
            return true;
    return false;
}

/* A mutex-protected list of tasks: a team's priority queue (ordered by
 * priority, FIFO among equals) or a slot's inbox (FIFO). `count` lets the
 * scheduler skip an empty queue with one relaxed load. */
struct task_queue {
    mutex_t lock;           /* guards head/tail */
    struct task *head;      /* first task (highest priority) */
    struct task *tail;      /* last task */
    _Atomic unsigned count; /* tasks queued (a hint outside the lock) */
};

/* The ILAN taskloop tasks queued for one locality group of a team
 * (ilan/exec.c distributes them). */
struct group_queues {
    alignas(ILAN_CACHE_LINE) struct task_queue strict; /* NUMA-strict: only the group's threads
                                                          take these */
    alignas(ILAN_CACHE_LINE) struct task_queue shared; /* the group's threads first; under the
                                                          full policy also participating threads
                                                          of other groups whose group ran out */
};

/* What the tasking engine keeps per team thread slot: allocated once per
 * slot and kept with the team (like the team itself), so that deques and
 * implicit tasks are reused region after region. */
struct task_slot {
    struct deque deque;      /* ready tasks created (or released) by this slot's thread */
    alignas(ILAN_CACHE_LINE) struct task_queue inbox; /* tasks placed here by other threads
                                                         (task_enqueue_on); anyone may take */
    alignas(ILAN_CACHE_LINE) struct task implicit; /* the implicit task of this slot's thread */
};

#endif
