/* handoff.c — work handed to one thread of the team directly, with no task descriptor and no queue: a range taskloop's runner whose creator waits for it. */
#include "core/handoff.h"

#include <stdatomic.h>
#include <string.h>
#include "core/barrier.h"
#include "core/task_included.h"
#include "core/task_queue.h"
#include "core/team_desc.h"

bool task_handoff_offer(struct task_handoff *h, unsigned team_id)
{
    struct ilan_thread *ts = thread_self();
    struct task_slot *slot = ts->team->task_slots[team_id];
    if (atomic_load_explicit(&slot->handoff, memory_order_relaxed))
        return false;
    /* Written only where they changed since h's last offer: the taker's
     * cached copy of h then stays valid (an offer per taskloop, mostly
     * the same one). The caller wrote the parent likewise. */
    struct task *parent = h->parent;
    if (h->taskgroup != parent->taskgroup)
        h->taskgroup = parent->taskgroup;
    if (memcmp(&h->icv, &ts->icv, sizeof h->icv) != 0)
        h->icv = ts->icv;
    if (h->taskgroup)
        atomic_fetch_add_explicit(&h->taskgroup->pending, 1, memory_order_relaxed);
    struct task_handoff *none = NULL;
    if (atomic_compare_exchange_strong_explicit(&slot->handoff, &none, h, memory_order_release,
                                                memory_order_relaxed))
        return true;
    if (h->taskgroup) /* another offerer came first */
        atomic_fetch_sub_explicit(&h->taskgroup->pending, 1, memory_order_relaxed);
    return false;
}

bool task_handoff_reclaim(struct task_handoff *h, unsigned team_id)
{
    struct task_slot *slot = thread_self()->team->task_slots[team_id];
    struct task_handoff *mine = h;
    if (!atomic_compare_exchange_strong_explicit(&slot->handoff, &mine, NULL,
                                                 memory_order_relaxed, memory_order_relaxed))
        return false;
    if (h->taskgroup)
        atomic_fetch_sub_explicit(&h->taskgroup->pending, 1, memory_order_relaxed);
    return true;
}

bool task_handoff_run_offered(struct ilan_thread *ts, struct task *waiter)
{
    struct task_slot *slot = task_own_slot(ts);
    struct task_handoff *h = atomic_load_explicit(&slot->handoff, memory_order_acquire);
    /* A waiting tied task may start only its descendants: a child of h's
     * parent is one when that parent is the waiter or descends from it. */
    if (!h || (waiter && h->parent != waiter && !task_descends_from(h->parent, waiter)) ||
        !atomic_compare_exchange_strong_explicit(&slot->handoff, &h, NULL, memory_order_acquire,
                                                 memory_order_relaxed))
        return false;
    /* Read before the taskgroup's count drops: then the offerer may reuse h. */
    struct taskgroup *tg = h->taskgroup;
    struct icv saved = ts->icv;
    ts->icv = h->icv;
    /* Not a task of the program: its start is counted as a runner's (and
     * `created` = 1 keeps it from the included tasks' count). */
    ILAN_COUNT(range_runners);
    task_run_included(ts, h->parent, h->run, h->arg, 0, true, 1);
    ts->icv = saved;
    if (tg)
        atomic_fetch_sub_explicit(&tg->pending, 1, memory_order_release);
    barrier_wake_idle(&ts->team->barrier); /* the offerer may sleep in its taskgroup's end */
    return true;
}

void task_pending_hold(void)
{
    struct ilan_thread *ts = thread_self();
    /* Through the slot, like a task's count (task_count). */
    if (atomic_fetch_add_explicit(&task_own_slot(ts)->pending, 1, memory_order_relaxed) == 0)
        atomic_fetch_add_explicit(&ts->team->barrier.task_pending, 1, memory_order_relaxed);
}

void task_pending_release(void)
{
    struct ilan_thread *ts = thread_self();
    struct team *team = ts->team;
    /* As task_complete's step down: after the work it counted is done. */
    if (atomic_fetch_sub_explicit(&task_own_slot(ts)->pending, 1, memory_order_acq_rel) == 1)
        atomic_fetch_sub_explicit(&team->barrier.task_pending, 1, memory_order_release);
    barrier_wake_idle(&team->barrier);
}

