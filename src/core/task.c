/* task.c — tasks as the constructs use them: creation (deferred, undeferred, with dependences or detach), taskwait, taskyield, taskgroups and their cancellation. */
#include "core/task.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/mutex.h"
#include "core/task_alloc.h"
#include "core/task_deps.h"
#include "core/task_exec.h"
#include "core/task_queue.h"
#include "core/task_sched.h"
#include "core/team_desc.h"
#include "core/thread.h"

/* ---- creation ------------------------------------------------------------------- */

/* Fills the parts of a new task that do not depend on its deferral. */
static struct task *task_new(struct ilan_thread *ts, struct task *parent, void (*fn)(void *),
                             void *data, void (*cpyfn)(void *, void *), long arg_size,
                             long arg_align, unsigned flags, int priority, bool copy_args)
{
    struct task *t = task_alloc(copy_args ? (size_t)arg_size : 0, (size_t)arg_align);
    if (copy_args) {
        if (cpyfn)
            cpyfn(t->data, data);
        else if (data && arg_size)
            memcpy(t->data, data, (size_t)arg_size);
    } else {
        t->data = data;
    }
    t->fn = fn;
    atomic_store_explicit(&t->parent, parent, memory_order_relaxed);
    t->taskgroup = parent->taskgroup;
    t->tg_counted = NULL;
    t->team = ts->team;
    atomic_store_explicit(&t->children, 0, memory_order_relaxed);
    atomic_store_explicit(&t->refs, 1, memory_order_relaxed);
    unsigned sf = 0;
    if ((flags & TASK_FLAG_FINAL) || (parent->state_flags & TASK_FINAL))
        sf |= TASK_FINAL;
    if (flags & TASK_FLAG_UNTIED)
        sf |= TASK_UNTIED;
    if (copy_args && cpyfn)
        sf |= TASK_COPIED;
    t->state_flags = sf;
    if (priority < 0)
        priority = 0;
    if (priority > icv_global.max_task_priority)
        priority = icv_global.max_task_priority;
    t->priority = priority;
    t->icv = ts->icv;
    t->next_queued = NULL;
    t->deps = NULL;
    t->depnodes = NULL;
    t->ndepnodes = 0;
    t->nsucc = t->succ_cap = 0;
    t->succ = NULL;
    atomic_store_explicit(&t->npred, 0, memory_order_relaxed);
    atomic_store_explicit(&t->detach_state, 0, memory_order_relaxed);
    t->reduction_data = NULL;
    t->exec = NULL;
    /* The child reads its parent until it is freed. */
    if (!(parent->state_flags & TASK_IMPLICIT))
        atomic_fetch_add_explicit(&parent->refs, 1, memory_order_relaxed);
    return t;
}

/* Counts a deferred task in its parent, its taskgroup and its team. */
static void task_count(struct task *t, struct task *parent)
{
    t->state_flags |= TASK_COUNTED;
    atomic_fetch_add_explicit(&parent->children, 1, memory_order_relaxed);
    if (t->taskgroup) {
        t->tg_counted = t->taskgroup;
        atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
    }
    if (t->team)
        atomic_fetch_add_explicit(&t->team->barrier.task_pending, 1, memory_order_relaxed);
}

struct task *task_create(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, unsigned flags, int priority)
{
    struct ilan_thread *ts = thread_self();
    struct task *parent = task_of(ts);
    struct task *t = task_new(ts, parent, fn, data, cpyfn, arg_size, arg_align, flags, priority,
                              true);
    task_count(t, parent);
    return t;
}

/* ---- queueing and running --------------------------------------------------------- */

static bool npred_zero(void *arg)
{
    return atomic_load_explicit(&((struct task *)arg)->npred, memory_order_acquire) == 0;
}

static bool detach_done(void *arg)
{
    return atomic_load_explicit(&((struct task *)arg)->detach_state, memory_order_acquire) == 3u;
}

void task_enqueue_on(struct task *t, unsigned team_id)
{
    struct ilan_thread *ts = thread_self();
    if (!t->team || ts->team != t->team) {
        task_run_now(t);
        return;
    }
    task_sched_push_on(ts, t, team_id);
}

void task_run_now(struct task *t)
{
    struct ilan_thread *ts = thread_self();
    bool detached = t->state_flags & TASK_DETACHED;
    if (detached) /* keep t alive until we have seen it complete */
        atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
    task_execute(ts, t);
    if (detached) {
        if (!detach_done(t))
            task_wait_until(ts, detach_done, t);
        task_unref(t);
    }
}

/* ---- GOMP_task ------------------------------------------------------------------------- */

void task_spawn(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                void *detach)
{
    struct ilan_thread *ts = thread_self();
    struct task *parent = task_of(ts);
    struct team *team = ts->team;
    if (!(flags & TASK_FLAG_PRIORITY))
        priority = 0;
    /* Included or undeferred: no team to queue on, a final parent, if(0),
     * or throttled (the creator's deque is already deep). */
    bool detached = (flags & TASK_FLAG_DETACH) && detach;
    /* Throttling never applies to a detachable task: run at once, it would
     * wait for its event, which a later sibling may be the one to fulfill. */
    bool undeferred = !team || !if_clause || (parent->state_flags & TASK_FINAL) ||
                      (priority <= 0 && !detached &&
                       task_sched_own_depth(ts) >= ILAN_TASK_DEFER_LIMIT);
    if (!team)
        depend = NULL; /* a team-less thread runs every task at once, in order */
    bool has_deps = (flags & TASK_FLAG_DEPEND) && depend;
    /* A team of one has nobody to share a deferred task with: the creation
     * is a scheduling point where the thread may start its new child at
     * once (as libgomp does past 64 queued tasks). Not with dependences or
     * detach (it may wait for an event that a later sibling fulfills), and
     * not with a priority (the hint orders queued tasks). */
    if (team && team->nthreads == 1 && !has_deps && !detached && priority <= 0)
        undeferred = true;

    if (undeferred && !has_deps && !detached) {
        /* The fast included path: as libgomp, run fn on the caller's data
         * when there is no copy constructor (the block is not needed). */
        struct task *t = task_new(ts, parent, fn, data, cpyfn, arg_size, arg_align, flags,
                                  priority, cpyfn != NULL);
        struct task *prev = ts->task;
        struct icv saved = ts->icv;
        ts->task = t;
        task_sched_mark(ts, t);
        if (!task_cancelled(t))
            fn(t->data);
        ts->icv = saved;
        ts->task = prev;
        task_complete(t);
        return;
    }

    struct task *t = task_new(ts, parent, fn, data, cpyfn, arg_size, arg_align, flags, priority,
                              true);
    if (detached) {
        t->state_flags |= TASK_DETACHED;
        /* gcc puts the task's firstprivate copy of the event first in the
         * argument block, copied before the handle existed: write both. */
        *(uintptr_t *)detach = (uintptr_t)t;
        if (arg_size >= (long)sizeof(uintptr_t))
            *(uintptr_t *)t->data = (uintptr_t)t;
    }
    if (undeferred) {
        t->state_flags |= TASK_UNDEFERRED;
        if (has_deps) {
            task_deps_register(ts, parent, t, depend);
            if (!npred_zero(t))
                task_wait_until(ts, npred_zero, t);
        }
        task_run_now(t);
        return;
    }
    task_count(t, parent);
    if (has_deps && !task_deps_register(ts, parent, t, depend))
        return; /* queued by the completion of its last predecessor */
    task_sched_push(ts, t);
}

void task_wait_depend(void **depend)
{
    struct ilan_thread *ts = thread_self();
    if (!ts->team)
        return;
    struct task *parent = task_of(ts);
    /* A stand-in task with the same dependences: once it could run, every
     * predecessor is complete. It is never queued (undeferred). */
    struct task *t = task_new(ts, parent, NULL, NULL, NULL, 0, 1, 0, 0, false);
    t->state_flags |= TASK_UNDEFERRED;
    task_deps_register(ts, parent, t, depend);
    if (!npred_zero(t))
        task_wait_until(ts, npred_zero, t);
    task_complete(t);
}

/* ---- waiting -------------------------------------------------------------------------- */

static bool no_children(void *arg)
{
    return atomic_load_explicit(&((struct task *)arg)->children, memory_order_acquire) == 0;
}

void task_wait_children(void)
{
    struct ilan_thread *ts = thread_self();
    struct task *cur = task_of(ts);
    if (no_children(cur))
        return;
    task_wait_until(ts, no_children, cur);
}

void task_yield(void)
{
    task_sched_run_one(thread_self());
}

/* ---- taskgroups ------------------------------------------------------------------------- */

void task_taskgroup_start(struct taskgroup *g)
{
    struct task *cur = task_current();
    g->prev = cur->taskgroup;
    atomic_store_explicit(&g->pending, 0, memory_order_relaxed);
    atomic_store_explicit(&g->cancelled, false, memory_order_relaxed);
    g->internal = false;
    g->reductions = NULL;
    cur->taskgroup = g;
}

static bool group_done(void *arg)
{
    return atomic_load_explicit(&((struct taskgroup *)arg)->pending, memory_order_acquire) == 0;
}

struct taskgroup *task_taskgroup_end(void)
{
    struct ilan_thread *ts = thread_self();
    struct task *cur = task_of(ts);
    struct taskgroup *g = cur->taskgroup;
    if (!g)
        return NULL;
    if (!group_done(g))
        task_wait_until(ts, group_done, g);
    cur->taskgroup = g->prev;
    return g;
}

struct taskgroup *task_taskgroup_new(void)
{
    struct taskgroup *g = malloc(sizeof *g);
    if (!g)
        ilan_fatal("out of memory starting a taskgroup");
    task_taskgroup_start(g);
    return g;
}

void task_taskgroup_free(struct taskgroup *g)
{
    free(g);
}

/* ---- cancellation ------------------------------------------------------------------------- */

bool task_cancel_taskgroup(void)
{
    struct taskgroup *g = task_current()->taskgroup;
    while (g && g->internal)
        g = g->prev;
    if (!g)
        return false;
    atomic_store_explicit(&g->cancelled, true, memory_order_release);
    return true;
}

bool task_taskgroup_cancelled(void)
{
    for (struct taskgroup *g = task_current()->taskgroup; g; g = g->prev)
        if (atomic_load_explicit(&g->cancelled, memory_order_acquire))
            return true;
    return false;
}
