/* task_sched.c — where ready tasks wait and how threads find them: per-slot deques and inboxes, the team's priority queue, stealing, and idle sleep. */
#include "core/task_sched.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "core/barrier.h"
#include "base/fatal.h"
#include "core/taskloop_ilan.h"
#include "core/team.h"
#include "core/thread.h"
#include "os/linux/thread.h"
#include "os/linux/time.h"
#include "sched/steal.h"

/* The calling thread's stealing state, kept apart from struct ilan_thread
 * (which masters copy and restore around nested regions). */
struct steal_tls {
    struct team *team;    /* team the state below refers to */
    unsigned last_victim; /* last slot a steal succeeded on, or STEAL_NO_VICTIM */
    uint64_t rng;         /* victim PRNG */
};
static __thread struct steal_tls steal_tls;

/* ---- team and slot set-up ------------------------------------------------ */

static void queue_init(struct task_queue *q)
{
    atomic_store_explicit(&q->lock.state, 0, memory_order_relaxed);
    q->head = q->tail = NULL;
    atomic_store_explicit(&q->count, 0, memory_order_relaxed);
}

void task_team_prepare(struct team *t, unsigned n)
{
    if (t->task_slots_cap < n) {
        struct task_slot **grown = realloc(t->task_slots, n * sizeof *grown);
        if (!grown)
            ilan_fatal("out of memory starting a parallel region of %u threads", n);
        for (unsigned i = t->task_slots_cap; i < n; i++) {
            struct task_slot *s = aligned_alloc(ILAN_CACHE_LINE, sizeof *s);
            if (!s)
                ilan_fatal("out of memory starting a parallel region of %u threads", n);
            memset(s, 0, sizeof *s);
            deque_init(&s->deque, ILAN_TASK_DEQUE_LOG2);
            queue_init(&s->inbox);
            grown[i] = s;
        }
        t->task_slots = grown;
        t->task_slots_cap = n;
    }
    queue_init(&t->task_prio);
}

void task_team_destroy(struct team *t)
{
    for (unsigned i = 0; i < t->task_slots_cap; i++) {
        deque_destroy(&t->task_slots[i]->deque);
        task_deps_destroy(&t->task_slots[i]->implicit);
        free(t->task_slots[i]);
    }
    free(t->task_slots);
    t->task_slots = NULL;
    t->task_slots_cap = 0;
}

/* ---- queues -------------------------------------------------------------- */

/* Changes a queue's count; the caller holds its lock, so a plain store is
 * enough (lock-free readers only use it as a hint). */
static inline void queue_count_add(struct task_queue *q, unsigned delta)
{
    unsigned c = atomic_load_explicit(&q->count, memory_order_relaxed);
    atomic_store_explicit(&q->count, c + delta, memory_order_relaxed);
}

/* Inserts t: by priority (FIFO among equals) when `ordered`, else at the tail. */
static void queue_put(struct task_queue *q, struct task *t, bool ordered)
{
    mutex_lock(&q->lock);
    t->next_queued = NULL;
    if (!q->head) {
        q->head = q->tail = t;
    } else if (!ordered || q->tail->priority >= t->priority) {
        q->tail->next_queued = t;
        q->tail = t;
    } else if (q->head->priority < t->priority) {
        t->next_queued = q->head;
        q->head = t;
    } else {
        struct task *p = q->head;
        while (p->next_queued && p->next_queued->priority >= t->priority)
            p = p->next_queued;
        t->next_queued = p->next_queued;
        p->next_queued = t;
    }
    queue_count_add(q, 1);
    mutex_unlock(&q->lock);
}

/* Appends the list head..tail of `count` tasks at the tail. */
static void queue_append(struct task_queue *q, struct task *head, struct task *tail,
                         unsigned count)
{
    mutex_lock(&q->lock);
    tail->next_queued = NULL;
    if (q->tail)
        q->tail->next_queued = head;
    else
        q->head = head;
    q->tail = tail;
    queue_count_add(q, count);
    mutex_unlock(&q->lock);
}

/* The `group` argument of may_take and queue_take: a group id (>= 0) for
 * a thread taking from another group's shared queue, or one of these. */
#define ANY_TASK (-1)    /* no group rule */
#define OPENED_ONLY (-2) /* another group's strict queue: opened executions only */

/* Whether an ILAN execution was opened to every thread: an exploratory
 * run that outlived its cut-off (mold_cutoff). Reads the clock only for
 * runs that have one. */
static bool exec_opened(const struct taskloop_exec *e)
{
    return e->open_ns && os_now_ns() >= e->open_ns;
}

/* Whether some execution of the team may have been opened: keeps threads
 * off other groups' strict queues (and the clock) in ordinary runs. */
static bool team_ilan_opened(const struct team_ilan *ti)
{
    uint64_t at = atomic_load_explicit(&ti->open_at_ns, memory_order_relaxed);
    return at && os_now_ns() >= at;
}

/* Whether a thread may take t: `waiter` (the tied task it waits in, or
 * NULL) may start only its descendants; a thread of group `group` >= 0
 * only ILAN tasks of a taskloop its group takes part in or that was
 * opened; with OPENED_ONLY, only tasks of an opened execution. */
static bool may_take(struct task *t, struct task *waiter, int group)
{
    if (waiter && !task_descends_from(t, waiter))
        return false;
    if (group == ANY_TASK)
        return true;
    if (!t->exec)
        return false;
    return (group >= 0 && t->exec->participates[group]) || exec_opened(t->exec);
}

/* How hard queue_take and task_find look. A quick look may miss a task the
 * caller could take; the full look may not (see task_wait_until). */
enum look {
    LOOK_TRY,  /* a thief's look: give up on a busy lock, scan 64 entries */
    LOOK_LOCK, /* an owner's look: wait for the lock, scan 64 entries */
    LOOK_FULL, /* the last look before sleeping: wait for every lock, scan
                * every entry, retry lost steals */
};

/* Removes and returns the first task the caller may take (may_take), or
 * NULL. Under LOOK_FULL, NULL means the queue held no such task at some
 * point after the call began (the count hint is ordered by the caller's
 * fence, see task_wait_until); otherwise it may also mean "busy" or "not
 * among the first 64". */
static struct task *queue_take(struct task_queue *q, struct task *waiter, enum look look,
                               int group)
{
    if (atomic_load_explicit(&q->count, memory_order_relaxed) == 0)
        return NULL;
    if (look != LOOK_TRY)
        mutex_lock(&q->lock);
    else if (!mutex_trylock(&q->lock))
        return NULL;
    struct task *prev = NULL, *t = q->head;
    /* The spinning rounds scan at most 64 entries to keep the lock short
     * (refused steals pile up in inboxes); the full look scans them all: a
     * waiting task's own child can sit behind hundreds it may not start. */
    unsigned budget = look == LOOK_FULL ? 0 : 64;
    while (t && !may_take(t, waiter, group)) {
        if (budget && --budget == 0) {
            t = NULL;
            break;
        }
        prev = t;
        t = t->next_queued;
    }
    if (t) {
        if (prev)
            prev->next_queued = t->next_queued;
        else
            q->head = t->next_queued;
        if (q->tail == t)
            q->tail = prev;
        queue_count_add(q, (unsigned)-1);
    } else {
        t = NULL;
    }
    mutex_unlock(&q->lock);
    return t;
}

/* ---- pushing --------------------------------------------------------------- */

/* barrier_wake_idle for the team's own members: in a team of one the caller is
 * the only thread that could sleep on the word, so there is nobody to wake
 * (and no fence to pay). */
static inline void wake_team(struct ilan_thread *ts, struct team *team)
{
    if (team->nthreads > 1 || ts->team != team)
        barrier_wake_idle(&team->barrier);
}

void task_sched_push(struct ilan_thread *ts, struct task *t)
{
    struct team *team = t->team;
    assert(team != NULL);
    if (t->priority > 0 || ts->team != team)
        queue_put(&team->task_prio, t, true);
    else
        deque_push(&team->task_slots[ts->team_id]->deque, t);
    wake_team(ts, team);
}

void task_sched_push_on(struct ilan_thread *ts, struct task *t, unsigned team_id)
{
    struct team *team = t->team;
    assert(team != NULL && team_id < team->nthreads);
    if (ts->team == team && ts->team_id == team_id && t->priority <= 0)
        deque_push(&team->task_slots[team_id]->deque, t);
    else
        queue_put(&team->task_slots[team_id]->inbox, t, false);
    wake_team(ts, team);
}

void task_group_queues_init(struct group_queues *q)
{
    queue_init(&q->strict);
    queue_init(&q->shared);
}

void task_sched_push_group(struct ilan_thread *ts, unsigned g, bool strict, struct task *head,
                           struct task *tail, unsigned count)
{
    struct group_queues *q = &ts->team->ilan->queues[g];
    queue_append(strict ? &q->strict : &q->shared, head, tail, count);
    wake_team(ts, ts->team);
}

void task_sched_push_released(struct ilan_thread *ts, struct task *t)
{
    struct team *team = t->team;
    struct task *cur = ts->task;
    if (ts->team == team && t->priority <= 0 && cur && (cur->state_flags & TASK_IMPLICIT))
        deque_push(&team->task_slots[ts->team_id]->deque, t);
    else if (ts->team == team && t->priority <= 0)
        queue_put(&team->task_slots[ts->team_id]->inbox, t, false);
    else
        queue_put(&team->task_prio, t, true);
    wake_team(ts, team);
}

void task_sched_mark(struct ilan_thread *ts, struct task *t)
{
    if (ts->team)
        t->deque_mark = deque_bottom(&ts->team->task_slots[ts->team_id]->deque);
}

unsigned task_sched_own_depth(struct ilan_thread *ts)
{
    return (unsigned)deque_size(&ts->team->task_slots[ts->team_id]->deque);
}

/* ---- finding a task --------------------------------------------------------- */

/* Tries slot v's deque (top) and inbox. A stolen task that the waiting
 * task may not start (scheduling constraint) goes to the victim's inbox,
 * behind earlier relocations: it was the victim's oldest task, and the
 * victim and other thieves take inboxes in FIFO order after their deques.
 * (The candidate cannot be inspected before it is won: another thread may
 * be running and freeing it at that moment.) */
static struct task *steal_from(struct team *team, unsigned v, struct task *waiter,
                               enum look look)
{
    struct task_slot *s = team->task_slots[v];
    struct task *t = deque_steal(&s->deque);
    /* A full look retries a lost race: the winner took only one task. */
    while (!t && look == LOOK_FULL && deque_maybe_nonempty(&s->deque))
        t = deque_steal(&s->deque);
    if (t && waiter && !task_descends_from(t, waiter)) {
        queue_put(&s->inbox, t, false);
        barrier_wake_idle(&team->barrier); /* a sleeper may have looked while we held it */
        t = NULL;
    }
    if (!t)
        t = queue_take(&s->inbox, waiter, look == LOOK_FULL ? LOOK_FULL : LOOK_TRY, ANY_TASK);
    return t;
}

/* Any group's ILAN taskloop task the caller may take (waiter constraint
 * only): the way out when group rules would stop progress (see task_find
 * and task_wait_until). */
static struct task *take_any_group(struct team_ilan *ti, struct task *waiter, enum look look)
{
    struct task *t;
    for (unsigned g = 0; g < ti->groups.ngroups; g++)
        if ((t = queue_take(&ti->queues[g].strict, waiter, look, ANY_TASK)) ||
            (t = queue_take(&ti->queues[g].shared, waiter, look, ANY_TASK)))
            return t;
    return NULL;
}

/* True when some group of the team has ILAN taskloop tasks queued. */
static bool ilan_tasks_queued(const struct team_ilan *ti)
{
    for (unsigned g = 0; ti && g < ti->groups.ngroups; g++)
        if (atomic_load_explicit(&ti->queues[g].strict.count, memory_order_relaxed) ||
            atomic_load_explicit(&ti->queues[g].shared.count, memory_order_relaxed))
            return true;
    return false;
}

/* How long a thread that may not take the queued ILAN tasks sleeps before
 * looking again: until the pending cut-off of an exploratory run, if one
 * is due, else ILAN_STALL_NS (to notice a stall). */
static uint64_t ilan_sleep_ns(const struct team_ilan *ti)
{
    uint64_t at = atomic_load_explicit(&ti->open_at_ns, memory_order_relaxed);
    uint64_t now = at ? os_now_ns() : 0;
    if (at > now && at - now < ILAN_STALL_NS)
        return at - now;
    return ILAN_STALL_NS;
}

/* The scheduling ladder: the first source that yields a task wins. With
 * `full` false it is the cheap look of a spinning round (busy queues,
 * long queues and unlucky victim draws are passed over); with `full` true
 * it returns NULL only if no task the caller may take was queued anywhere
 * when it looked (LOOK_FULL). */
static struct task *task_find(struct ilan_thread *ts, struct team *team, struct task *waiter,
                              bool full)
{
    unsigned self = ts->team_id;
    struct task_slot *own = team->task_slots[self];
    struct task *t;
    enum look thief = full ? LOOK_FULL : LOOK_TRY, owner = full ? LOOK_FULL : LOOK_LOCK;
    /* 1. the team's priority queue: priority tasks (rare) first */
    if ((t = queue_take(&team->task_prio, waiter, thief, ANY_TASK)))
        return t;
    /* 2. own deque, newest first (cache-hot, depth-first); a waiting task
     * may only take what was pushed above its mark (its descendants) */
    if ((!waiter || deque_bottom(&own->deque) > waiter->deque_mark) &&
        (t = deque_pop(&own->deque)))
        return t;
    /* 3. own inbox: tasks placed on this thread by others */
    if ((t = queue_take(&own->inbox, waiter, owner, ANY_TASK)))
        return t;
    /* 4. own group's ILAN taskloop tasks, strict ones first */
    struct team_ilan *ti = team->ilan;
    unsigned group = ti ? ti->groups.slot_group[self] : 0;
    if (ti && ((t = queue_take(&ti->queues[group].strict, waiter, owner, ANY_TASK)) ||
               (t = queue_take(&ti->queues[group].shared, waiter, owner, ANY_TASK))))
        return t;
    unsigned n = team->nthreads;
    if (n < 2)
        return NULL;
    struct steal_tls *st = &steal_tls;
    if (st->team != team) {
        st->team = team;
        st->last_victim = STEAL_NO_VICTIM;
        if (!st->rng)
            st->rng = steal_seed(self + 1u + (unsigned)(uintptr_t)ts);
    }
    /* 5. the last victim that had work, then 6. random victims (policy);
     * a full look visits every other slot instead, since random draws
     * can miss the one victim that has work */
    unsigned tries = full ? n - 1 : ILAN_TASK_STEAL_TRIES * n;
    for (unsigned i = 0; i < tries; i++) {
        unsigned v = full ? (self + 1 + i) % n
                          : steal_next_victim(config.steal_policy, self, n, st->last_victim, &st->rng);
        if ((t = steal_from(team, v, waiter, thief))) {
            st->last_victim = v;
            return t;
        }
        st->last_victim = STEAL_NO_VICTIM;
    }
    /* 7. other groups' shareable ILAN tasks (full policy), our own group
     * having none left (step 4); and any task of an exploratory run past
     * its cut-off, which every thread may help finish */
    bool opened = ti && team_ilan_opened(ti);
    for (unsigned d = 1; ti && d < ti->groups.ngroups; d++) {
        unsigned g = (group + d) % ti->groups.ngroups;
        if ((t = queue_take(&ti->queues[g].shared, waiter, thief, (int)group)) ||
            (opened && (t = queue_take(&ti->queues[g].strict, waiter, thief, OPENED_ONLY))))
            return t;
    }
    /* 8. a tied task waiting for its descendants may run them wherever
     * they are queued: the threads of their group may all be waiting in
     * tasks of their own, unable to start them (nested taskloops) */
    if (ti && waiter && (t = take_any_group(ti, waiter, thief)))
        return t;
    return NULL;
}

bool task_sched_run_one(struct ilan_thread *ts)
{
    struct team *team = ts->team;
    if (!team)
        return false;
    struct task *cur = ts->task;
    struct task *waiter = cur && !(cur->state_flags & TASK_IMPLICIT) ? cur : NULL;
    struct task *t = task_find(ts, team, waiter, false);
    if (!t)
        return false;
    task_execute(ts, t);
    return true;
}

/* ---- waiting while running tasks --------------------------------------------- */

/* What a waiting thread saw of the team's progress. */
struct stall {
    unsigned long pending; /* the team's task_pending when last seen changing */
    uint64_t since_ns;     /* when it was seen taking that value */
};

/*
 * The way out of a stall that group rules could cause: the threads of the
 * groups an ILAN taskloop's tasks are queued on may be blocked outside any
 * task scheduling point (a critical section or lock the waiter holds, a
 * doacross wait, a user's spin), where libgomp's creator would simply run
 * its tasks itself. When the team's pending-task count has not moved for
 * ILAN_STALL_NS while ILAN tasks are queued, the caller takes one from any
 * group. In a healthy run some task completes well within that time.
 */
static struct task *take_if_stalled(struct team *team, struct task *waiter, struct stall *st)
{
    if (!ilan_tasks_queued(team->ilan))
        return NULL;
    unsigned long pending = atomic_load_explicit(&team->barrier.task_pending, memory_order_relaxed);
    uint64_t now = os_now_ns();
    if (pending != st->pending) {
        st->pending = pending;
        st->since_ns = now;
        return NULL;
    }
    if (now - st->since_ns < ILAN_STALL_NS)
        return NULL;
    st->since_ns = now;
    return take_any_group(team->ilan, waiter, LOOK_TRY);
}

/* A pause between failed rounds: yield at once when oversubscribed. */
static inline void idle_pause(unsigned idle)
{
    (void)idle;
    if (atomic_load_explicit(&wait_spin_budget, memory_order_relaxed) <= ILAN_SPIN_OVERSUBSCRIBED)
        os_yield();
    else
        os_cpu_relax();
}

void task_wait_until(struct ilan_thread *ts, bool (*done)(void *), void *arg)
{
    struct team *team = ts->team;
    if (!team) {
        /* No team, hence no queue: what we wait for is done by another
         * thread (a detach event fulfilled elsewhere). */
        for (unsigned i = 0; !done(arg); i++)
            idle_pause(i);
        return;
    }
    struct task *cur = ts->task;
    struct task *waiter = cur && !(cur->state_flags & TASK_IMPLICIT) ? cur : NULL;
    struct barrier *b = &team->barrier;
    unsigned idle = 0;
    struct stall stall = {~0ul, 0};
    for (;;) {
        if (done(arg))
            return;
        /* No task pending in the team (queued or running): nothing to look
         * for, only the condition to watch (a plain barrier stays cheap). */
        struct task *t = NULL;
        if (atomic_load_explicit(&b->task_pending, memory_order_relaxed) != 0 &&
            (t = task_find(ts, team, waiter, false)) != NULL) {
            task_execute(ts, t);
            idle = 0;
            continue;
        }
        if (++idle < ILAN_TASK_IDLE_ROUNDS) {
            idle_pause(idle);
            continue;
        }
        /* About to sleep: first the way out of a stall (checked here, not
         * every round, as it reads the clock). */
        if ((t = take_if_stalled(team, waiter, &stall)) != NULL) {
            task_execute(ts, t);
            idle = 0;
            continue;
        }
        /* Sleep until something moves the work word: a push, a completion
         * or a barrier release made while we are counted as a sleeper
         * bumps it (barrier_wake_idle). Count ourselves, then look again.
         * That look must be a full one: a task queued before we were
         * counted brings no bump, so if we pass it over nobody wakes us.
         * A quick look does pass tasks over (a queue locked by a thread
         * that then takes nothing, a waiting task's child behind 64
         * others in an inbox, a victim never drawn), and two threads
         * that both did so slept with tasks queued. */
        unsigned w = seq_read(&b->task_work);
        atomic_fetch_add_explicit(&b->task_sleepers, 1, memory_order_relaxed);
        ilan_fence_seq_cst();
        /* With ILAN tasks queued that we may not take, sleep in slices so
         * that a stall (take_if_stalled) is noticed. */
        if (!done(arg) && !(t = task_find(ts, team, waiter, true))) {
            if (ilan_tasks_queued(team->ilan))
                seq_wait_slow_for(&b->task_work, w, ilan_sleep_ns(team->ilan));
            else
                seq_wait_past(&b->task_work, w);
        }
        atomic_fetch_sub_explicit(&b->task_sleepers, 1, memory_order_relaxed);
        if (t)
            task_execute(ts, t);
        idle = 0;
    }
}

static bool team_tasks_done(void *arg)
{
    return atomic_load_explicit(&((struct barrier *)arg)->task_pending, memory_order_acquire) == 0;
}

void task_region_drain(struct ilan_thread *ts)
{
    struct team *team = ts->team;
    if (atomic_load_explicit(&team->barrier.task_pending, memory_order_relaxed) == 0 &&
        team_tasks_done(&team->barrier))
        return;
    task_wait_until(ts, team_tasks_done, &team->barrier);
}

/* The barrier round a waiter is in, and whether it is over. */
struct barrier_round {
    struct barrier *b;
    unsigned round;
};

static bool barrier_round_over(void *arg)
{
    struct barrier_round *r = arg;
    if (seq_read(&r->b->release) != r->round)
        return true;
    /* Everyone arrived and no task pending: release it ourselves (one of
     * the threads that see this wins the CAS in barrier_try_release). */
    return barrier_try_release(r->b);
}

void task_barrier_wait(struct barrier *b, unsigned round)
{
    struct barrier_round r = {b, round};
    task_wait_until(&ilan_tls, barrier_round_over, &r);
}

void task_barrier(struct barrier *b)
{
    /* The round is read before arriving: it cannot move before we arrive,
     * because the round needs our arrival. */
    unsigned round = seq_read(&b->release);
    if (!barrier_arrive(b))
        task_barrier_wait(b, round);
}

bool task_barrier_cancellable(struct barrier *b)
{
    if (atomic_load_explicit(&b->cancelled, memory_order_acquire))
        return true;
    unsigned round = seq_read(&b->release);
    if (!barrier_arrive(b))
        task_barrier_wait(b, round);
    return atomic_load_explicit(&b->cancelled, memory_order_acquire);
}
