/* task_queue.c — where ready tasks wait: locked task lists and the pushes onto a team's deques and lists. */
#include "core/task_queue.h"

#include <assert.h>
#include <limits.h>
#include "core/team_desc.h"
#include "core/thread.h"

void task_queue_init(struct task_queue *q)
{
    atomic_store_explicit(&q->lock.state, 0, memory_order_relaxed);
    q->head = q->tail = NULL;
    atomic_store_explicit(&q->count, 0, memory_order_relaxed);
}

/* Changes a queue's count; the caller holds its lock, so a plain store is
 * enough (lock-free readers only use it as a hint). */
static inline void queue_count_add(struct task_queue *q, unsigned delta)
{
    unsigned c = atomic_load_explicit(&q->count, memory_order_relaxed);
    atomic_store_explicit(&q->count, c + delta, memory_order_relaxed);
}

void task_queue_put(struct task_queue *q, struct task *t, bool ordered)
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

void task_queue_append(struct task_queue *q, struct task *head, struct task *tail,
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

struct task *task_queue_take(struct task_queue *q, struct task *waiter, enum task_look look,
                             task_accept_fn accept, const void *arg)
{
    if (atomic_load_explicit(&q->count, memory_order_relaxed) == 0)
        return NULL;
    if (look != LOOK_TRY)
        mutex_lock(&q->lock);
    else if (!mutex_trylock(&q->lock))
        return NULL;
    struct task *prev = NULL, *t = q->head;
    /* The spinning rounds scan at most 64 entries to keep the lock short
     * (a taskloop can queue thousands in one group queue); the full look
     * scans them all: a waiting task's own child may sit behind many it
     * may not start. */
    unsigned budget = look == LOOK_FULL ? 0 : 64;
    while (t && ((waiter && !task_descends_from(t, waiter)) || (accept && !accept(t, arg)))) {
        if (budget && --budget == 0) {
            t = NULL;
            break;
        }
        prev = t;
        t = t->next_queued;
    }
    if (t) {
        task_prefetch(t);
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


/* ---- pushing ---- */

void task_queue_wake(struct ilan_thread *ts, struct team *team)
{
    if (team->nthreads > 1 || ts->team != team)
        barrier_wake_idle(&team->barrier);
}

void task_queue_wake_tree(struct ilan_thread *ts, struct team *team, unsigned takers)
{
    /* While threads outnumber CPUs only as many as there is work for:
     * waking them all for a taskloop of two runners kept every idle thread
     * of a 16-thread team on 2 CPUs awake, yielding between the runners
     * and their CPUs. */
    if (team->nthreads > 1 || ts->team != team)
        barrier_wake_idle_tree(&team->barrier,
                               !wait_oversubscribed() ? UINT_MAX : takers ? takers : 1);
}

void task_sched_push(struct ilan_thread *ts, struct task *t)
{
    struct team *team = t->team;
    assert(team != NULL);
    if (t->priority > 0 || ts->team != team)
        task_queue_put(&team->task_prio, t, true);
    else
        deque_push(ts->deque, t);
    task_queue_wake(ts, team);
}

void task_sched_push_on(struct ilan_thread *ts, struct task *t, unsigned team_id)
{
    struct team *team = t->team;
    assert(team != NULL && team_id < team->nthreads);
    if (t->priority > 0) /* the hint orders queued tasks: the team's ordered queue */
        task_queue_put(&team->task_prio, t, true);
    else if (ts->team == team && ts->team_id == team_id)
        deque_push(&team->task_slots[team_id]->deque, t);
    else
        task_queue_put(&team->task_slots[team_id]->inbox, t, false);
    task_queue_wake(ts, team);
}

void task_sched_push_released(struct ilan_thread *ts, struct task *t)
{
    struct team *team = t->team;
    /* The deque above a waiting tied task's mark holds only its descendants. */
    bool free_deque = !task_running_constraint(ts->task);
    if (ts->team == team && t->priority <= 0 && free_deque)
        deque_push(ts->deque, t);
    else if (ts->team == team && t->priority <= 0)
        task_queue_put(&team->task_slots[ts->team_id]->inbox, t, false);
    else
        task_queue_put(&team->task_prio, t, true);
    task_queue_wake(ts, team);
}

/* The two depths stay 2 and 4 by measurement, not because the UTS-like tree
 * at 2 threads is where it should be (0.5 s against 0.33 s on one thread):
 * on its 20.6M-node tree, shallow/hungry depths of 0/1, 0/2, 1/1, 1/2,
 * 2/2, 3/3 and 4/4 all gave medians within the run-to-run noise of 2/4
 * (0.53-0.68 s, 5 interleaved runs each); 4/16 and 8/8 were slower (1.0-1.3 s
 * in every run). What the tree costs is what a steal brings: 7 of 8 nodes
 * are leaves, so a thief mostly wins one node (900 thousand steals for
 * the 20.6M nodes), and every steal makes its victim defer one more task. */
bool task_sched_defer_helps(struct ilan_thread *ts)
{
    struct team *team = ts->team;
    if (team->nthreads < 2)
        return false;
    long queued = deque_size(ts->deque);
    return queued < ILAN_TASK_SHALLOW ||
           (queued < ILAN_TASK_HUNGRY_DEPTH &&
            atomic_load_explicit(&team->barrier.task_hungry, memory_order_relaxed) != 0);
}

