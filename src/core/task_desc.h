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
#define TASK_UNTIED (1u << 2)    /* untied: not a scheduling constraint for its waits (it
                                    still resumes on the thread that started it) */
#define TASK_UNDEFERRED (1u << 3) /* runs on the encountering thread at creation */
#define TASK_DETACHED (1u << 4)  /* has a detach event */
#define TASK_COUNTED (1u << 5)   /* counted in parent children / taskgroup / team pending */
#define TASK_COPIED (1u << 6)    /* its arguments were copy-constructed (cpyfn): it is never
                                    discarded by cancellation, so that its body runs the
                                    destructors (it meets the cancellation itself) */
#define TASK_ON_STACK (1u << 7)  /* an included task's descriptor on its creator's stack */
#define TASK_ICV_SAVED (1u << 8) /* TASK_ON_STACK: `icv` holds its creator's ICVs, to restore */
#define TASK_RUNNER (1u << 9)    /* not a task of the program: it runs a taskloop's tasks as
                                    included ones (ILAN's range launch); counters skip it */
#define TASK_ADOPTED (1u << 10)  /* taken from another thread's deque with others in one steal
                                    and kept on the thief's own deque: popped there, it still
                                    becomes the thread's root (task_sched.c run_found) */
#define TASK_JOINED (1u << 11)   /* joined by its creator in the taskgroup it was made in before
                                    the creating task may wait or end (task_create_joined): not
                                    counted in the parent's children, no reference on it */

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
 * task_thread_enter). The argument block of a deferred task lies inline
 * after the descriptor (task_args), aligned to the requested alignment.
 *
 * An included task (run at once by its creator: if(0), final, or deferral
 * judged useless, see task_spawn) lives on its creator's stack
 * (TASK_ON_STACK) and only its first fields are set: parent, taskgroup,
 * flags, team and the scheduling-constraint fields. Nothing outside its
 * own frame may point at it, so the first time something would (a deferred
 * child, a dependence, a nest lock owner) it and its stack ancestors are
 * moved to the heap (task_promote in task.c) and `forward` leads there.
 *
 * Ancestry: up[k] is the ancestor k + 1 generations above (up[0] the
 * parent), NULL past the implicit task, set at creation and never changed
 * while the descriptor lives. A descendant test reads one of them and the
 * depth (task_window_descends), so a thief can test a task it has not won yet:
 * descriptors are never returned to the system, so the read is safe, and a
 * stale answer only matters if the thief then wins the task, which means it
 * was never taken and the fields were current.
 */
struct task {
    void *data;                      /* its argument block (task_args for deferred tasks) */
    _Atomic unsigned depth;          /* generations below the implicit task (which has 0);
                                        atomic for the thief's early look */
    unsigned state_flags;            /* TASK_IMPLICIT | TASK_FINAL | ... */
    struct taskgroup *taskgroup;     /* innermost taskgroup: inherited from the creator at
                                        creation, pushed/popped by taskgroup start/end */
    struct team *team;               /* team whose queues and barrier serve it (NULL: none) */
    struct task *tsc;                /* while it runs: the innermost tied task on its thread's
                                        stack (itself when tied, NULL when none): what the
                                        scheduling constraint lets its waits start */
    long deque_mark;                 /* own deque's bottom index when the task started running:
                                        while it waits, entries at or above the mark are its
                                        descendants, those below are not (task_sched.c) */
    struct task *forward;            /* TASK_ON_STACK: its heap copy once promoted, or NULL */
    unsigned long start_seq;         /* its thread's task_starts once it started running */
    _Atomic unsigned long children;  /* incomplete deferred child tasks (taskwait) */
    void *reduction_data;            /* in_reduction / taskloop reduction private data, or NULL
                                        (owned by construct/task_reduction.c) */
    /* Set on the heap only (an included task on the stack touches only the
     * fields above, in its first two cache lines, and up[0]). */
    void (*fn)(void *);              /* outlined body */
    struct task *_Atomic up[ILAN_TASK_ANCESTORS]; /* ancestors, nearest first (up[0]: the
                                        generating task; only up[0] on the stack) */
    /* Where it was made (task_peek_descends); atomic for the thief's early look. */
    struct ilan_thread *_Atomic origin; /* the thread that created it */
    _Atomic unsigned long origin_seq;   /* that thread's task_starts at the creation */
    struct task *_Atomic root;          /* that thread's root then (struct ilan_thread) */
    struct taskgroup *tg_counted;    /* group whose `pending` counts this task, or NULL */
    _Atomic unsigned long *pending_cell; /* the creator's slot count that counts it (task_count),
                                        or NULL: the team's task_pending directly */
    _Atomic unsigned refs;           /* 1 until complete + 1 per child descriptor alive (they
                                        read their parent); freed at 0. Unused when implicit */
    int priority;                    /* priority clause value, clamped to max-task-priority */
    struct icv icv;                  /* the task's data-environment ICVs (deferred tasks); on the
                                        stack, its creator's once saved (TASK_ICV_SAVED) */
    struct task *next_queued;        /* link in a mutex-protected queue (priority, inbox) */
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
    /* Allocation. */
    unsigned size_class;             /* free-list class of this block */
    void *big_args;                  /* malloc'd argument block (too big for the class), or NULL */
    struct task *next_free;          /* link in a free list */
};

/* What a child task inherits from its parent when it starts: read from
 * the parent (task_lineage_of), or carried by whoever hands the child to
 * another thread (core/handoff.h), so that this thread need not read the
 * parent's line, which the parent's thread keeps writing. */
struct task_lineage {
    struct task *parent;         /* the parent itself */
    struct taskgroup *taskgroup; /* the parent's current taskgroup */
    struct task *tsc;            /* the parent's scheduling constraint (an untied child's) */
    unsigned depth;              /* the parent's depth */
    bool final;                  /* the parent is final: so is the child */
};

/* What a child of `parent` inherits, read from parent now. */
static inline struct task_lineage task_lineage_of(struct task *parent)
{
    return (struct task_lineage){parent, parent->taskgroup, parent->tsc,
                                 atomic_load_explicit(&parent->depth, memory_order_relaxed),
                                 (parent->state_flags & TASK_FINAL) != 0};
}

/* The argument block of an explicit task. */
static inline void *task_args(struct task *t)
{
    return t->data;
}

/* Asks for every line of t's descriptor, and the first of an argument
 * block stored after it, at once, for writing: a thread about to run a
 * task another thread made otherwise misses on them one after another as
 * it reads and writes its fields (about 0.1 µs each between the CPUs of
 * the VM this was measured on). Only a hint: t may be any descriptor. */
static inline void task_prefetch(const struct task *t)
{
    for (size_t at = 0; at < sizeof *t + ILAN_CACHE_LINE; at += ILAN_CACHE_LINE)
        __builtin_prefetch((const char *)t + at, 1);
}

/* The scheduling constraint of a thread whose running task is `running`
 * (NULL: its initial task): the innermost tied task on its stack, whose
 * descendants are the only new tasks it may start while that task waits;
 * NULL when any task may start. */
static inline struct task *task_running_constraint(const struct task *running)
{
    return running ? running->tsc : NULL;
}

/* The generating task (NULL for an implicit task). */
static inline struct task *task_parent(const struct task *t)
{
    return atomic_load_explicit(&t->up[0], memory_order_relaxed);
}

/*
 * Whether t descends from w, decided from t's own fields alone: true when
 * w is within ILAN_TASK_ANCESTORS generations above t. False beyond that
 * window even if w is an ancestor. O(1); safe on a task the caller does
 * not own (see struct task).
 */
static inline bool task_window_descends(const struct task *t, const struct task *w)
{
    unsigned d = atomic_load_explicit(&t->depth, memory_order_relaxed);
    unsigned wd = atomic_load_explicit(&w->depth, memory_order_relaxed);
    return d > wd && d - wd <= ILAN_TASK_ANCESTORS &&
           atomic_load_explicit(&t->up[d - wd - 1], memory_order_relaxed) == w;
}

/*
 * Whether t descends from w, where w is the tied task thread `self` waits
 * in (its scheduling constraint) and w_start_seq the task_starts of self
 * when w started, from what t and the roots above it record; false when
 * that does not tell. O(1) for the common
 * cases and safe on a task the caller does not own, like
 * task_window_descends:
 *   - made by self after w started: w was running, so its maker was w or
 *     a task started above w, which the constraint makes a descendant;
 *   - w within ILAN_TASK_ANCESTORS generations above it;
 *   - else its root (the tied task its maker's thread had taken from
 *     elsewhere and was running under it, an ancestor of its maker) is w
 *     or passes these tests, up to ILAN_TASK_ROOT_HOPS roots.
 */
static inline bool task_peek_descends_since(const struct task *t, const struct task *w,
                                            const struct ilan_thread *self,
                                            unsigned long w_start_seq)
{
    if (task_window_descends(t, w))
        return true;
    for (unsigned hop = 0; hop < ILAN_TASK_ROOT_HOPS; hop++) {
        if (atomic_load_explicit(&t->origin, memory_order_relaxed) == self &&
            atomic_load_explicit(&t->origin_seq, memory_order_relaxed) >= w_start_seq)
            return true;
        /* Acquire: the root was made by a third thread; its fields are
         * read next (task_init_heap's release). */
        t = atomic_load_explicit(&t->root, memory_order_acquire);
        if (!t)
            return false;
        if (t == w)
            return true;
    }
    return false;
}

/* task_peek_descends_since for w waiting on the calling thread (self),
 * which may read w's start itself. */
static inline bool task_peek_descends(const struct task *t, const struct task *w,
                                      const struct ilan_thread *self)
{
    return task_peek_descends_since(t, w, self, w->start_seq);
}

/*
 * Whether t descends from w, exactly: the window, then hops of
 * ILAN_TASK_ANCESTORS generations for deeper pairs (O(1) when w is within
 * the window, which is the common case: the oldest queued tasks are
 * shallow). t must be alive and not running elsewhere: a queued task, held
 * under its queue's lock (its ancestors are then alive: it references its
 * parent, which references its own, and so on).
 */
static inline bool task_descends_from(const struct task *t, const struct task *w)
{
    unsigned wd = atomic_load_explicit(&w->depth, memory_order_relaxed);
    while (atomic_load_explicit(&t->depth, memory_order_relaxed) > wd + ILAN_TASK_ANCESTORS)
        t = atomic_load_explicit(&t->up[ILAN_TASK_ANCESTORS - 1], memory_order_relaxed);
    return task_window_descends(t, w);
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

/*
 * Work handed to one thread of the team directly, with no task descriptor
 * and no queue (core/handoff.h): a range taskloop's runner whose creator
 * waits for it (ilan/exec.c). It lives in the taker's slot, so that a
 * thread that looks at an offer another thread has just taken back reads
 * memory that stays valid; `state` orders who may write and read the rest.
 * The thread that takes it runs run(arg) as an included task of `parent`,
 * in `taskgroup`, with `icv`.
 */
struct task_handoff {
    _Atomic uint64_t state;       /* generation << 2 | HANDOFF_EMPTY, _WRITING, _OFFERED or
                                     _TAKEN; the generation grows at each return to empty, so
                                     that a taker's CAS fails on an offer made since it looked */
    struct task *_Atomic parent;  /* the offerer's task (on the heap): what a taker checks
                                     against its tied wait before it takes the offer */
    const void *_Atomic first_write; /* a line the work writes first (NULL: none): asked for
                                        as the offer is taken, so that its miss overlaps the
                                        taking */
    void (*run)(void *arg);       /* the work */
    void *arg;                    /* its argument */
    struct task_lineage lineage;  /* what it inherits from `parent` (parent itself excepted,
                                     read from `parent` above); its taskgroup counts it
                                     until it is done */
    struct icv icv;               /* the offerer's ICVs at the offer */
};

/* What the tasking engine keeps per team thread slot: allocated once per
 * slot and kept with the team (like the team itself), so that deques and
 * implicit tasks are reused region after region. */
struct task_slot {
    struct deque deque;      /* ready tasks created (or released) by this slot's thread */
    /* Deferred tasks counted here by this slot's thread and not complete;
     * the team's task_pending counts the slots where it is above 0. On its
     * own line: the slot's thread adds and (mostly) subtracts, so the common
     * case stays in its cache where one team-wide counter bounced. */
    alignas(ILAN_CACHE_LINE) _Atomic unsigned long pending;
    alignas(ILAN_CACHE_LINE) struct task_queue inbox; /* tasks placed here by other threads
                                                         (task_enqueue_on); anyone may take */
    _Atomic unsigned group_sleepers; /* a taskloop mode's count of sleeping threads of the
                                        locality group numbered as this slot (its
                                        sleepers_of): kept here because slots outlive the
                                        mode's per-team state, which a region start may
                                        rebuild while a worker between regions sleeps */
    alignas(ILAN_CACHE_LINE) struct task_handoff handoff; /* work offered to this slot's
                                                         thread alone (task_handoff_offer) */
    /* Load-balancing messages (core/dlb.h, ILAN_DLB=na-ws|na-rp). The request
     * cell has a line of its own: thieves write it, and the slot's thread
     * reads it at every task creation, a hit until somebody asks. */
    alignas(ILAN_CACHE_LINE) _Atomic uint64_t dlb_request; /* a thief's request to this slot's
                                                              thread (sched/dlb.h), 0: none */
    /* The request being served, only the slot's thread reads or writes
     * these: what the thief may start, as it said when it asked. */
    unsigned dlb_redirect_to;   /* NA-RP: the slot its thread's next new tasks go to */
    unsigned dlb_redirect_left; /* how many more of them (0: no redirection) */
    struct task *dlb_serving_wants;            /* the thief's waiting tied task, NULL: any */
    unsigned long dlb_serving_seq;             /* when that task started */
    const struct ilan_thread *dlb_serving_asker; /* the thief's thread */
    alignas(ILAN_CACHE_LINE) _Atomic uint64_t dlb_round; /* the round this slot's thread serves;
                                                            only it writes, thieves read */
    _Atomic(struct task *) dlb_wants; /* while this slot's thread asks others for tasks: the tied
                                         task it waits in (only its descendants may be sent to
                                         it), NULL: any task */
    _Atomic unsigned long dlb_wants_seq; /* when dlb_wants started (its start_seq: a victim
                                            may not read another thread's running task) */
    _Atomic(const struct ilan_thread *) dlb_asker; /* the thread in this slot when it last asked
                                                      (the origin test of task_peek_descends) */
    alignas(ILAN_CACHE_LINE) struct task implicit; /* the implicit task of this slot's thread */
};

#endif
