/* task_queue.h — where ready tasks wait: locked task lists (priority queue, inboxes, ILAN's group queues) and the pushes onto a team's deques and lists. */
#ifndef ILAN_CORE_TASK_QUEUE_H
#define ILAN_CORE_TASK_QUEUE_H

#include <stdbool.h>
#include "core/deque.h"
#include "core/task_desc.h"
#include "core/thread.h"

/* The calling thread ts's slot in its team, the one whose deque is
 * ts->deque (the deque is a slot's first member): one load, where
 * team->task_slots[ts->team_id] takes three. Only while ts->team is set. */
static inline struct task_slot *task_own_slot(const struct ilan_thread *ts)
{
    return (struct task_slot *)(void *)ts->deque;
}

struct team;

/* How hard task_queue_take (and the scheduler's search) look. A quick
 * look may miss a task the caller could take; the full look may not (see
 * task_wait_until). */
enum task_look {
    LOOK_TRY,  /* a thief's look: give up on a busy lock, scan 64 entries */
    LOOK_LOCK, /* an owner's look: wait for the lock, scan 64 entries */
    LOOK_FULL, /* the last look before sleeping: wait for every lock, scan
                * every entry, retry lost steals */
};

/* A rule beyond the scheduling constraint for which queued tasks a thread
 * may take (a taskloop mode's group rules); `arg` is the rule's own data. */
typedef bool (*task_accept_fn)(const struct task *t, const void *arg);

/* Empties a queue. Only while nobody uses it. */
void task_queue_init(struct task_queue *q);

/* Inserts t: by priority (FIFO among equals) when `ordered`, else at the tail. */
void task_queue_put(struct task_queue *q, struct task *t, bool ordered);

/* Adds t at the end of the list *head..*tail (linked by next_queued,
 * both NULL when empty) that a caller builds for task_queue_append. */
static inline void task_list_add(struct task **head, struct task **tail, struct task *t)
{
    t->next_queued = NULL;
    if (*tail)
        (*tail)->next_queued = t;
    else
        *head = t;
    *tail = t;
}

/* Appends the list head..tail (linked by next_queued) of `count` tasks at the tail. */
void task_queue_append(struct task_queue *q, struct task *head, struct task *tail,
                       unsigned count);

/* Removes and returns the first task the caller may take: a descendant of
 * `waiter` (the tied task it waits in; NULL: any task) that accept(t, arg)
 * allows (accept NULL: any). NULL otherwise. Under LOOK_FULL, NULL means
 * the queue held no such task at some point after the call began (the
 * count hint is ordered by the caller's fence, see task_wait_until); with
 * a quicker look it may also mean "busy" or "not among the first 64". */
struct task *task_queue_take(struct task_queue *q, struct task *waiter, enum task_look look,
                             task_accept_fn accept, const void *arg);

/* Wakes the team's sleeping threads after the calling thread (ts) made
 * work for them; in a team of one the caller is the only thread that
 * could sleep on the word, so there is nobody to wake (and no fence to pay). */
void task_queue_wake(struct ilan_thread *ts, struct team *team);

/* task_queue_wake for a push of work for up to `takers` threads (>= 1):
 * the sleepers are woken down a tree, each woken thread waking the next
 * ones (barrier_wake_idle_tree); while threads outnumber CPUs, only
 * `takers` of them. */
void task_queue_wake_tree(struct ilan_thread *ts, struct team *team, unsigned takers);

/* Queues a ready task: on the calling thread's deque when it belongs to the
 * task's team, else on the team's priority queue; priority tasks always go
 * to the priority queue. No throttling. */
void task_sched_push(struct ilan_thread *ts, struct task *t);

/* Pushes t on slot team_id's queue (its deque if it is the caller's own
 * slot, else its inbox); a priority task goes to the team's priority
 * queue instead, like task_sched_push. */
void task_sched_push_on(struct ilan_thread *ts, struct task *t, unsigned team_id);

/* Queues a task made ready by a dependence release on the calling thread:
 * its own deque only when no explicit task waits on the thread (the deque
 * above a waiting task's mark must hold only that task's descendants), else
 * its inbox, or the team's priority queue for a thread outside the team. */
void task_sched_push_released(struct ilan_thread *ts, struct task *t);

/* Records in t (about to run on the calling thread) its own deque's bottom
 * index: the scheduling constraint for t's waits (struct task deque_mark). */
static inline void task_sched_mark(struct ilan_thread *ts, struct task *t)
{
    if (ts->team)
        t->deque_mark = deque_bottom(ts->deque);
}

/*
 * Whether a new task of the calling thread (in a team) is worth deferring:
 * only if another thread could run it soon. Idle threads look at the
 * other threads' deques, so a deque with fewer than ILAN_TASK_SHALLOW
 * tasks is refilled as fast as thieves empty it, and one they leave alone
 * stops growing there: past it the creator runs its new tasks at once,
 * which costs the least and keeps its cache. A team of one never defers.
 */
bool task_sched_defer_helps(struct ilan_thread *ts);

#endif
