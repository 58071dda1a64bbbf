/* task.c — tasks as the constructs use them: creation (deferred, undeferred, with dependences or detach), taskwait, taskyield, taskgroups and their cancellation. */
#include "core/task.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/dlb.h"
#include "core/mutex.h"
#include "core/task_alloc.h"
#include "core/task_deps.h"
#include "core/task_exec.h"
#include "core/task_included.h"
#include "core/task_queue.h"
#include "core/task_sched.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "instr/counters.h"

/* ---- creation ------------------------------------------------------------------- */

/* Sets t's ancestry below `parent`, a heap or implicit task (struct task);
 * `holds`: t keeps a reference on a heap parent (all but TASK_JOINED). */
static inline void task_link(struct task *t, struct task *parent, bool holds)
{
    atomic_store_explicit(&t->up[0], parent, memory_order_relaxed);
    for (unsigned k = 1; k < ILAN_TASK_ANCESTORS; k++)
        atomic_store_explicit(&t->up[k],
                              atomic_load_explicit(&parent->up[k - 1], memory_order_relaxed),
                              memory_order_relaxed);
    atomic_store_explicit(&t->depth, atomic_load_explicit(&parent->depth, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    /* The child reads its parent until it is freed. */
    if (holds && !(parent->state_flags & TASK_IMPLICIT))
        atomic_fetch_add_explicit(&parent->refs, 1, memory_order_relaxed);
}

/* Sets the fields every heap descriptor starts with, below the heap or
 * implicit task `parent`, made by the calling thread ts; `holds` as in
 * task_link. */
static void task_init_heap(struct ilan_thread *ts, struct task *t, struct task *parent,
                           struct team *team, bool holds)
{
    task_link(t, parent, holds);
    atomic_store_explicit(&t->origin, ts, memory_order_relaxed);
    atomic_store_explicit(&t->origin_seq, ts->task_starts, memory_order_relaxed);
    /* Release: a thief that reads the root through t follows it (acquire). */
    atomic_store_explicit(&t->root, ts->root, memory_order_release);
    t->taskgroup = parent->taskgroup;
    t->tg_counted = NULL;
    t->pending_cell = NULL;
    t->team = team;
    t->tsc = NULL;
    t->forward = NULL;
    atomic_store_explicit(&t->children, 0, memory_order_relaxed);
    atomic_store_explicit(&t->refs, 1, memory_order_relaxed);
    t->priority = 0;
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
}

/*
 * Moves the included task s and every stack ancestor below it to the heap,
 * outermost first, and returns s's heap copy (s itself when it is not on a
 * stack). The running frames find the copies through `forward`. Only the
 * thread running s, while s is on its stack: something is about to point
 * at s from outside its frame (see struct task).
 */
static struct task *task_promote(struct ilan_thread *ts, struct task *s)
{
    if (!(s->state_flags & TASK_ON_STACK))
        return s;
    if (s->forward)
        return s->forward;
    /* The unpromoted chain is as long as the program's recursion of
     * included tasks (thousands in an unbalanced tree): collected in an
     * array, not recursed over. */
    struct task *small[64], **chain = small;
    size_t n = 0, cap = 64;
    for (struct task *p = s; (p->state_flags & TASK_ON_STACK) && !p->forward; p = task_parent(p)) {
        if (n == cap) {
            struct task **grown = malloc(2 * cap * sizeof *grown);
            if (!grown)
                ilan_fatal("out of memory making an included task's descriptor");
            memcpy(grown, chain, n * sizeof *grown);
            if (chain != small)
                free(chain);
            chain = grown;
            cap *= 2;
        }
        chain[n++] = p;
    }
    while (n > 0) {
        struct task *low = chain[--n];
        /* Its parent is on the heap by now (or implicit, or promoted). */
        struct task *parent = task_parent(low);
        if (parent->forward)
            parent = parent->forward;
        struct task *h = task_alloc(0, 1);
        task_init_heap(ts, h, parent, low->team, true);
        h->start_seq = low->start_seq;
        h->fn = NULL; /* it is running already: only its bookkeeping moves */
        h->data = low->data;
        h->state_flags = low->state_flags & ~(TASK_ON_STACK | TASK_ICV_SAVED);
        h->taskgroup = low->taskgroup;
        h->deque_mark = low->deque_mark;
        h->reduction_data = low->reduction_data;
        struct task *tsc = low->tsc == low ? h : low->tsc;
        h->tsc = tsc && tsc->forward ? tsc->forward : tsc;
        low->forward = h;
        if (ts->task == low)
            ts->task = h;
    }
    if (chain != small)
        free(chain);
    return s->forward;
}

struct task *task_current_stable(void)
{
    struct ilan_thread *ts = thread_self();
    return task_promote(ts, task_of(ts));
}

/* A new heap task of the calling thread's current task (promoted first if
 * it is an included one): fn, the argument block (copied from data when
 * copy_args), flags, priority; `joined`: TASK_JOINED. Not counted anywhere
 * yet. */
static struct task *task_new(struct ilan_thread *ts, void (*fn)(void *), void *data,
                             void (*cpyfn)(void *, void *), long arg_size, long arg_align,
                             unsigned flags, int priority, bool copy_args, bool joined)
{
    struct task *parent = task_promote(ts, task_of(ts));
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
    task_init_heap(ts, t, parent, ts->team, !joined);
    unsigned sf = joined ? TASK_JOINED : 0;
    if ((flags & TASK_FLAG_FINAL) || (parent->state_flags & TASK_FINAL))
        sf |= TASK_FINAL;
    if (flags & TASK_FLAG_UNTIED)
        sf |= TASK_UNTIED;
    if (copy_args && cpyfn)
        sf |= TASK_COPIED;
    t->state_flags = sf;
    t->priority = task_priority_clamp(priority);
    t->icv = ts->icv;
    return t;
}

int task_priority_clamp(int priority)
{
    if (priority < 0)
        return 0;
    return priority > icv_global.max_task_priority ? icv_global.max_task_priority : priority;
}

/*
 * Counts a deferred task in its parent, its taskgroup and its team, made by
 * the calling thread ts. The team's count goes through ts's slot
 * (struct task_slot `pending`): only a slot's step from 0 to 1 reaches the
 * team's counter, so a thread that keeps tasks outstanding leaves that
 * shared line alone. A momentary 0 there while a slot steps up is harmless:
 * the creating task is running, hence either counted in another slot or
 * an implicit task whose thread has not reached the barrier.
 */
static void task_count(struct ilan_thread *ts, struct task *t)
{
    t->state_flags |= TASK_COUNTED;
    if (!(t->state_flags & TASK_JOINED))
        atomic_fetch_add_explicit(&task_parent(t)->children, 1, memory_order_relaxed);
    if (t->taskgroup) {
        t->tg_counted = t->taskgroup;
        atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
    }
    struct team *team = t->team;
    if (!team)
        return;
    if (ts->team == team) {
        t->pending_cell = &task_own_slot(ts)->pending;
        if (atomic_fetch_add_explicit(t->pending_cell, 1, memory_order_relaxed) != 0)
            return;
    }
    atomic_fetch_add_explicit(&team->barrier.task_pending, 1, memory_order_relaxed);
}

struct task *task_create(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                         long arg_size, long arg_align, unsigned flags, int priority)
{
    struct ilan_thread *ts = thread_self();
    struct task *t =
        task_new(ts, fn, data, cpyfn, arg_size, arg_align, flags, priority, true, false);
    task_count(ts, t);
    return t;
}

struct task *task_create_joined(void (*fn)(void *), void *data, long arg_size, long arg_align)
{
    struct ilan_thread *ts = thread_self();
    struct task *t = task_new(ts, fn, data, NULL, arg_size, arg_align, 0, 0, true, true);
    task_count(ts, t);
    return t;
}

/* Arguments up to this size of an included task with a copy constructor
 * are copied to the stack; larger ones to the heap. */
#define INCLUDED_STACK_ARGS 2048

/* task_run_included for a task whose firstprivate block needs its copy
 * constructor: the block is built here (its own frame, so that the common
 * path has no variable-sized frame). */
static __attribute__((noinline)) void
task_run_included_copy(struct ilan_thread *ts, struct task *parent, void (*fn)(void *),
                       void *data, void (*cpyfn)(void *, void *), long arg_size, long arg_align,
                       unsigned flags)
{
    size_t size = (size_t)arg_size + (size_t)arg_align;
    void *heap = NULL;
    char *block = size <= INCLUDED_STACK_ARGS ? __builtin_alloca(size) : (heap = malloc(size));
    if (!block)
        ilan_fatal("out of memory copying a task's %ld-byte argument block", arg_size);
    uintptr_t align = arg_align > 1 ? (uintptr_t)arg_align : 1;
    void *copy = (void *)(((uintptr_t)block + align - 1) & ~(align - 1));
    cpyfn(copy, data);
    task_run_included(ts, parent, fn, copy, flags, true, 1);
    free(heap);
}

void task_run_inline(void (*fn)(void *), void *data, unsigned flags, bool copied)
{
    struct ilan_thread *ts = thread_self();
    task_run_included(ts, task_of(ts), fn, data, flags, copied, 0);
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

static void task_spawn_queued(struct ilan_thread *ts, void (*fn)(void *), void *data,
                              void (*cpyfn)(void *, void *), long arg_size, long arg_align,
                              unsigned flags, void **depend, int priority, void *detach,
                              bool detached, bool has_deps, bool undeferred, bool redirect);

void task_spawn(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                void *detach)
{
    struct ilan_thread *ts = thread_self();
    struct team *team = ts->team;
    if (!(flags & TASK_FLAG_PRIORITY) || priority < 0)
        priority = 0;
    bool detached = (flags & TASK_FLAG_DETACH) && detach;
    if (!team)
        depend = NULL; /* a team-less thread runs every task at once, in order */
    bool has_deps = (flags & TASK_FLAG_DEPEND) && depend;
    /* Included or undeferred: no team to queue on, if(0), a final parent,
     * or deferring would not help (task_sched_defer_helps). Never a task
     * whose run might wait for a later sibling (dependences, a detach
     * event) unless the program asks (if(0)), nor a priority task (the
     * hint orders queued tasks). */
    struct task *cur = task_of(ts);
    bool undeferred = !team || !if_clause || (cur->state_flags & TASK_FINAL);
    bool redirect = false; /* a thief asked for this thread's next tasks (ILAN_DLB=na-rp) */
    if (!undeferred && !has_deps && !detached && priority == 0) {
        redirect = dlb_creation_serves(ts);
        undeferred = !redirect && !task_sched_defer_helps(ts);
    }
    if (undeferred && !has_deps && !detached) {
        if (cpyfn)
            task_run_included_copy(ts, cur, fn, data, cpyfn, arg_size, arg_align, flags);
        else
            task_run_included(ts, cur, fn, data, flags, false, 1);
        return;
    }
    task_spawn_queued(ts, fn, data, cpyfn, arg_size, arg_align, flags, depend, priority, detach,
                      detached, has_deps, undeferred, redirect);
}

/* task_spawn for a task with a descriptor of its own (queued, or
 * undeferred with dependences or a detach event): out of line, so that
 * the included path's code stays small. `redirect`: a thief asked for it
 * (dlb_creation_serves). */
static __attribute__((noinline)) void
task_spawn_queued(struct ilan_thread *ts, void (*fn)(void *), void *data,
                  void (*cpyfn)(void *, void *), long arg_size, long arg_align, unsigned flags,
                  void **depend, int priority, void *detach, bool detached, bool has_deps,
                  bool undeferred, bool redirect)
{
    ILAN_COUNT(tasks_created); /* an included task counts its creation as it runs */
    struct instr_mark im = ILAN_ENTER(create);
    struct task *t =
        task_new(ts, fn, data, cpyfn, arg_size, arg_align, flags, priority, true, false);
    struct task *parent = task_parent(t);
    if (detached) {
        t->state_flags |= TASK_DETACHED;
        /* gcc puts the task's firstprivate copy of the event first in the
         * argument block, copied before the handle existed: write both. */
        *(uintptr_t *)detach = (uintptr_t)t;
        if (arg_size >= (long)sizeof(uintptr_t))
            *(uintptr_t *)t->data = (uintptr_t)t;
    }
    if (undeferred) {
        ILAN_LEAVE(im);
        t->state_flags |= TASK_UNDEFERRED;
        if (has_deps) {
            task_deps_register(ts, parent, t, depend);
            if (!npred_zero(t))
                task_wait_until(ts, npred_zero, t);
        }
        task_run_now(t);
        return;
    }
    ILAN_LEAVE(im);
    task_count(ts, t);
    if (has_deps && !task_deps_register(ts, parent, t, depend))
        return; /* queued by the completion of its last predecessor */
    if (redirect && dlb_redirect(ts, t))
        return;
    task_sched_push(ts, t);
}

void task_wait_depend(void **depend)
{
    struct ilan_thread *ts = thread_self();
    if (!ts->team)
        return;
    /* A stand-in task with the same dependences: once it could run, every
     * predecessor is complete. It is never queued (undeferred). */
    struct task *t = task_new(ts, NULL, NULL, NULL, 0, 1, 0, 0, false, false);
    t->state_flags |= TASK_UNDEFERRED;
    task_deps_register(ts, task_parent(t), t, depend);
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
