/* task_exec.c — running a task and what follows: the calling thread's current task, execution, completion (dependences released, waiters woken), detach and the descriptor's last reference. */
#include "core/task_exec.h"

#include <assert.h>
#include <stdlib.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "core/barrier.h"
#include "core/task_alloc.h"
#include "core/task_deps.h"
#include "core/task_mode.h"
#include "core/task_queue.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "instr/counters.h"

/* ---- the calling thread's tasks ------------------------------------------------ */

/* The task of a thread outside every parallel region (the initial task, or
 * a user thread's implicit task). */
__thread struct task task_initial __attribute__((tls_model("initial-exec"))) = {
    .state_flags = TASK_IMPLICIT};

struct task *task_current(void)
{
    return task_of(thread_self());
}

struct taskgroup *task_current_taskgroup(void)
{
    return task_current()->taskgroup;
}

bool task_in_final(void)
{
    return (task_current()->state_flags & TASK_FINAL) != 0;
}

void task_thread_enter(struct ilan_thread *ts, struct team *t, unsigned team_id)
{
    struct task *it = &t->task_slots[team_id]->implicit;
    it->fn = NULL;
    it->data = NULL;
    for (unsigned k = 0; k < ILAN_TASK_ANCESTORS; k++)
        atomic_store_explicit(&it->up[k], NULL, memory_order_relaxed);
    atomic_store_explicit(&it->depth, 0, memory_order_relaxed);
    it->tsc = NULL;
    it->forward = NULL;
    it->taskgroup = NULL;
    it->tg_counted = NULL;
    it->pending_cell = NULL;
    it->team = t;
    assert(atomic_load_explicit(&it->children, memory_order_relaxed) == 0);
    it->state_flags = TASK_IMPLICIT;
    it->priority = 0;
    /* it->deps is kept: empty, reused. */
    ts->task = it;
    ts->root = NULL;
    ts->icv_frame = NULL;
    ts->deque = &t->task_slots[team_id]->deque;
}

void task_icv_will_change(struct ilan_thread *ts)
{
    struct task *f = ts->icv_frame;
    if (f && !(f->state_flags & TASK_ICV_SAVED)) {
        f->icv = ts->icv;
        f->state_flags |= TASK_ICV_SAVED;
    }
}

/* ---- completion ---------------------------------------------------------------------- */

/* Frees t, then every ancestor whose last reference was t's. */
void task_unref(struct task *t)
{
    while (t && !(t->state_flags & TASK_IMPLICIT)) {
        if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
            return;
        struct task *parent = (t->state_flags & TASK_JOINED) ? NULL : task_parent(t);
        if (t->deps)
            task_deps_destroy(t);
        free(t->depnodes);
        free(t->succ);
        task_release_block(t);
        t = parent;
    }
}

/* t's body has finished and its detach event (if any) is fulfilled. */
void task_complete(struct task *t)
{
    struct ilan_thread *ts = thread_self();
    struct team *team = t->team;
    bool counted = t->state_flags & TASK_COUNTED;
    struct task *parent = task_parent(t);
    _Atomic unsigned long *cell = t->pending_cell; /* read before t may be freed */
    if (t->ndepnodes)
        task_deps_release(ts, t);
    if (counted) {
        if (t->tg_counted)
            atomic_fetch_sub_explicit(&t->tg_counted->pending, 1, memory_order_release);
        if (!(t->state_flags & TASK_JOINED))
            atomic_fetch_sub_explicit(&parent->children, 1, memory_order_release);
    }
    bool wake = counted || (t->state_flags & TASK_DETACHED);
    task_unref(t);
    if (team && wake) {
        /* Last: once task_pending reads 0 the barrier may release and the
         * region end; only the barrier's words are touched after this.
         * The slot's count passes on what it saw (acq_rel): the completions
         * of its other tasks on other threads come before the team's step
         * down to 0 (task_count). */
        if (counted && (!cell || atomic_fetch_sub_explicit(cell, 1, memory_order_acq_rel) == 1))
            atomic_fetch_sub_explicit(&team->barrier.task_pending, 1, memory_order_release);
        if (team->nthreads > 1 || ts->team != team) /* a team of one: nobody else sleeps */
            barrier_wake_completion(&team->barrier);
    }
}

/* The body is done: complete, unless a detach event is still unfulfilled. */
static void task_body_done(struct task *t)
{
    if (t->state_flags & TASK_DETACHED) {
        unsigned old = atomic_fetch_or_explicit(&t->detach_state, 1u, memory_order_acq_rel);
        if (!(old & 2u))
            return; /* omp_fulfill_event completes it */
    }
    task_complete(t);
}

void task_fulfill(struct task *t)
{
    unsigned old = atomic_fetch_or_explicit(&t->detach_state, 2u, memory_order_acq_rel);
    if (old & 2u)
        ilan_fatal("omp_fulfill_event: event %p already fulfilled", (void *)t);
    if (old & 1u)
        task_complete(t);
}

/* True when t must be discarded: its region or one of its taskgroups was
 * cancelled before it started, and it has no copy-constructed arguments
 * (those tasks run, as in libgomp, so that their destructors do). */
bool task_cancelled(struct task *t)
{
    if (!icv_global.cancellation || (t->state_flags & TASK_COPIED))
        return false;
    if (t->team && atomic_load_explicit(&t->team->barrier.cancelled, memory_order_acquire))
        return true;
    for (struct taskgroup *g = t->taskgroup; g; g = g->prev)
        if (atomic_load_explicit(&g->cancelled, memory_order_acquire))
            return true;
    return false;
}

void task_execute(struct ilan_thread *ts, struct task *t)
{
    struct task *prev = ts->task;
    struct icv saved = ts->icv;
    struct taskgroup *tg = t->taskgroup;
    (void)tg;
    /* The scheduling constraint of t's waits: t if tied, else the one of
     * the task it runs on top of (an untied task binds nothing). */
    t->tsc = !(t->state_flags & TASK_UNTIED) ? t : prev ? prev->tsc : NULL;
    t->start_seq = ++ts->task_starts;
    struct task *icv_frame = ts->icv_frame;
    ts->icv_frame = NULL; /* t's ICVs are its own copy: restored below */
    ts->task = t;
    ts->icv = t->icv;
    task_sched_mark(ts, t);
    ILAN_TASK_RAN(t, atomic_load_explicit(&t->origin, memory_order_relaxed) != ts);
    struct instr_mark im = ILAN_ENTER(task);
    if (!task_cancelled(t))
        t->fn(t->data);
    ILAN_LEAVE(im);
    assert(ts->task == t && t->taskgroup == tg && "task body ended inside a taskgroup it began");
    ts->icv = saved;
    ts->icv_frame = icv_frame;
    ts->task = prev && prev->forward ? prev->forward : prev;
    if (t->exec) /* before completing: the taskgroup end must see the record */
        task_mode->task_done(ts, t);
    task_body_done(t);
}

