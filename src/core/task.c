/* task.c — the life of a task: allocation, creation, execution, completion, detach, taskwait and taskgroups. */
#include "core/task.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/mutex.h"
#include "core/task_deps.h"
#include "core/task_sched.h"
#include "core/taskloop_ilan.h"
#include "core/team.h"
#include "core/thread.h"

/* ---- allocation --------------------------------------------------------------
 * Descriptors (with the argument block inline when it fits) come in size
 * classes of 256 << c bytes. Each thread keeps a free list per class; a task
 * is freed into the list of the thread that drops its last reference. A
 * list that grows past ILAN_TASK_CACHE_MAX hands a batch to a process-wide
 * pool, where threads with an empty list look before calling malloc: a
 * thread that only consumes tasks would otherwise hoard them.
 * Descriptors are never returned to the system (type-stable memory): a
 * thief may read the `parent` field of a task another thread has just taken
 * and freed (the scheduling-constraint check in deque_steal_if), and reads
 * a stale but harmless value. */

struct task_cache {
    struct task *head[ILAN_TASK_CLASSES]; /* free descriptors per class */
    unsigned count[ILAN_TASK_CLASSES];    /* their number */
};
static __thread struct task_cache task_cache;

static struct {
    mutex_t lock;                         /* guards the lists */
    struct task *head[ILAN_TASK_CLASSES]; /* free descriptors handed back by threads */
    unsigned long count[ILAN_TASK_CLASSES];
} task_pool = {MUTEX_INIT, {0}, {0}};

static inline size_t class_bytes(unsigned c)
{
    return (size_t)256 << c;
}

static __attribute__((noinline)) struct task *task_alloc_slow(unsigned c)
{
    struct task_cache *tc = &task_cache;
    mutex_lock(&task_pool.lock);
    for (unsigned i = 0; i < ILAN_TASK_CACHE_BATCH && task_pool.head[c]; i++) {
        struct task *t = task_pool.head[c];
        task_pool.head[c] = t->next_free;
        task_pool.count[c]--;
        t->next_free = tc->head[c];
        tc->head[c] = t;
        tc->count[c]++;
    }
    mutex_unlock(&task_pool.lock);
    if (tc->head[c]) {
        struct task *t = tc->head[c];
        tc->head[c] = t->next_free;
        tc->count[c]--;
        return t;
    }
    struct task *t = aligned_alloc(ILAN_CACHE_LINE, class_bytes(c));
    if (!t)
        ilan_fatal("out of memory allocating a task");
    return t;
}

/* A descriptor with room for arg_size bytes aligned to arg_align after it
 * (t->data points there); a bigger block is malloc'd apart. */
static struct task *task_alloc(size_t arg_size, size_t arg_align)
{
    if (arg_align < 1)
        arg_align = 1;
    size_t need = sizeof(struct task) + arg_align - 1 + arg_size;
    unsigned c = 0;
    while (c < ILAN_TASK_CLASSES && class_bytes(c) < need)
        c++;
    bool big = c == ILAN_TASK_CLASSES;
    if (big)
        c = 0;
    struct task_cache *tc = &task_cache;
    struct task *t = tc->head[c];
    if (__builtin_expect(t != NULL, 1)) {
        tc->head[c] = t->next_free;
        tc->count[c]--;
    } else {
        t = task_alloc_slow(c);
    }
    t->size_class = c;
    if (!big) {
        uintptr_t p = (uintptr_t)(t + 1);
        t->data = (void *)((p + arg_align - 1) & ~(uintptr_t)(arg_align - 1));
        t->big_args = NULL;
    } else {
        if (arg_align < sizeof(void *))
            arg_align = sizeof(void *);
        void *p = NULL;
        if (posix_memalign(&p, arg_align, arg_size ? arg_size : 1) != 0)
            ilan_fatal("out of memory allocating a task's %zu-byte argument block", arg_size);
        t->data = t->big_args = p;
    }
    return t;
}

static void task_release_block(struct task *t)
{
    if (t->big_args)
        free(t->big_args);
    unsigned c = t->size_class;
    struct task_cache *tc = &task_cache;
    t->next_free = tc->head[c];
    tc->head[c] = t;
    if (++tc->count[c] <= ILAN_TASK_CACHE_MAX)
        return;
    /* Hand a batch to the pool. */
    struct task *first = tc->head[c], *last = first;
    for (unsigned i = 1; i < ILAN_TASK_CACHE_BATCH; i++)
        last = last->next_free;
    tc->head[c] = last->next_free;
    tc->count[c] -= ILAN_TASK_CACHE_BATCH;
    mutex_lock(&task_pool.lock);
    last->next_free = task_pool.head[c];
    task_pool.head[c] = first;
    task_pool.count[c] += ILAN_TASK_CACHE_BATCH;
    mutex_unlock(&task_pool.lock);
}

/* ---- the calling thread's tasks ------------------------------------------------ */

/* The task of a thread outside every parallel region (the initial task, or
 * a user thread's implicit task). */
static __thread struct task initial_task = {.state_flags = TASK_IMPLICIT};

static inline struct task *current_of(struct ilan_thread *ts)
{
    return ts->task ? ts->task : &initial_task;
}

struct task *task_current(void)
{
    return current_of(thread_self());
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
    atomic_store_explicit(&it->parent, NULL, memory_order_relaxed);
    it->taskgroup = NULL;
    it->tg_counted = NULL;
    it->team = t;
    assert(atomic_load_explicit(&it->children, memory_order_relaxed) == 0);
    it->state_flags = TASK_IMPLICIT;
    it->priority = 0;
    /* it->deps is kept: empty, reused. */
    ts->task = it;
}

bool task_descends_from(struct task *t, struct task *ancestor)
{
    unsigned depth = 0;
    for (struct task *p = atomic_load_explicit(&t->parent, memory_order_relaxed);
         p && depth < ILAN_TASK_TSC_DEPTH;
         p = atomic_load_explicit(&p->parent, memory_order_relaxed), depth++)
        if (p == ancestor)
            return true;
    return false;
}

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
    struct task *parent = current_of(ts);
    struct task *t = task_new(ts, parent, fn, data, cpyfn, arg_size, arg_align, flags, priority,
                              true);
    task_count(t, parent);
    return t;
}

/* ---- completion ---------------------------------------------------------------------- */

/* Frees t, then every ancestor whose last reference was t's. */
static void task_unref(struct task *t)
{
    while (t && !(t->state_flags & TASK_IMPLICIT)) {
        if (atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
            return;
        struct task *parent = atomic_load_explicit(&t->parent, memory_order_relaxed);
        if (t->deps)
            task_deps_destroy(t);
        free(t->depnodes);
        free(t->succ);
        task_release_block(t);
        t = parent;
    }
}

/* t's body has finished and its detach event (if any) is fulfilled. */
static void task_complete(struct task *t)
{
    struct ilan_thread *ts = thread_self();
    struct team *team = t->team;
    bool counted = t->state_flags & TASK_COUNTED;
    struct task *parent = atomic_load_explicit(&t->parent, memory_order_relaxed);
    if (t->ndepnodes)
        task_deps_release(ts, t);
    if (counted) {
        if (t->tg_counted)
            atomic_fetch_sub_explicit(&t->tg_counted->pending, 1, memory_order_release);
        atomic_fetch_sub_explicit(&parent->children, 1, memory_order_release);
    }
    bool wake = counted || (t->state_flags & TASK_DETACHED);
    task_unref(t);
    if (team && wake) {
        /* Last: once task_pending reads 0 the barrier may release and the
         * region end; only the barrier's words are touched after this. */
        if (counted)
            atomic_fetch_sub_explicit(&team->barrier.task_pending, 1, memory_order_release);
        if (team->nthreads > 1 || ts->team != team) /* a team of one: nobody else sleeps */
            barrier_wake_idle(&team->barrier);
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
static bool task_cancelled(struct task *t)
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
    ts->task = t;
    ts->icv = t->icv;
    task_sched_mark(ts, t);
    if (!task_cancelled(t))
        t->fn(t->data);
    assert(ts->task == t && t->taskgroup == tg && "task body ended inside a taskgroup it began");
    ts->icv = saved;
    ts->task = prev;
    if (t->exec) /* before completing: the taskgroup end must see the record */
        taskloop_ilan_task_done(ts, t->exec);
    task_body_done(t);
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

void task_enqueue(struct task *t)
{
    struct ilan_thread *ts = thread_self();
    struct task *parent = atomic_load_explicit(&t->parent, memory_order_relaxed);
    if (!t->team || ts->team != t->team || (parent->state_flags & TASK_FINAL) ||
        (t->priority <= 0 && !(t->state_flags & TASK_DETACHED) &&
         task_sched_own_depth(ts) >= ILAN_TASK_DEFER_LIMIT)) {
        task_run_now(t);
        return;
    }
    task_sched_push(ts, t);
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
    struct task *parent = current_of(ts);
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
    struct task *parent = current_of(ts);
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
    struct task *cur = current_of(ts);
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
    struct task *cur = current_of(ts);
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
