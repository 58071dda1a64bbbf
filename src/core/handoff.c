/* handoff.c — work handed to one thread of the team directly, with no task descriptor and no queue: a range taskloop's runner whose creator waits for it. */
#include "core/handoff.h"

#include <stdatomic.h>
#include <string.h>
#include "base/prefetch.h"
#include "core/barrier.h"
#include "core/task_included.h"
#include "core/task_queue.h"
#include "core/team_desc.h"

/* The state word of generation `gen` in phase p. */
static inline uint64_t handoff_state(uint64_t gen, unsigned p)
{
    return gen << 2 | p;
}

/* Whether a and b are equal, field by field (their padding may differ). */
static bool same_lineage(const struct task_lineage *a, const struct task_lineage *b)
{
    return a->parent == b->parent && a->taskgroup == b->taskgroup && a->tsc == b->tsc &&
           a->depth == b->depth && a->final == b->final;
}

bool task_handoff_offer(unsigned team_id, void (*run)(void *), void *arg, struct task *parent,
                        const void *first_write, uint64_t *ticket)
{
    struct ilan_thread *ts = thread_self();
    struct task_handoff *h = &ts->team->task_slots[team_id]->handoff;
    uint64_t s = atomic_load_explicit(&h->state, memory_order_acquire);
    if ((s & 3) != HANDOFF_EMPTY ||
        !atomic_compare_exchange_strong_explicit(&h->state, &s, handoff_state(s >> 2, HANDOFF_WRITING),
                                                 memory_order_acquire, memory_order_relaxed))
        return false;
    /* Written only where they changed since the slot's last offer: the
     * taker's cached copy then stays valid (an offer per taskloop, mostly
     * the same one). */
    if (atomic_load_explicit(&h->parent, memory_order_relaxed) != parent)
        atomic_store_explicit(&h->parent, parent, memory_order_relaxed);
    if (atomic_load_explicit(&h->first_write, memory_order_relaxed) != first_write)
        atomic_store_explicit(&h->first_write, first_write, memory_order_relaxed);
    if (h->run != run)
        h->run = run;
    if (h->arg != arg)
        h->arg = arg;
    struct task_lineage lineage = task_lineage_of(parent);
    lineage.parent = NULL; /* the taker reads `parent` */
    if (!same_lineage(&h->lineage, &lineage))
        h->lineage = lineage;
    if (memcmp(&h->icv, &ts->icv, sizeof h->icv) != 0)
        h->icv = ts->icv;
    if (lineage.taskgroup)
        atomic_fetch_add_explicit(&lineage.taskgroup->pending, 1, memory_order_relaxed);
    *ticket = handoff_state(s >> 2, HANDOFF_OFFERED);
    atomic_store_explicit(&h->state, *ticket, memory_order_release);
    return true;
}

void task_handoff_warm(unsigned team_id)
{
    struct team *team = thread_self()->team;
    if (team_id < team->nthreads)
        prefetch_for_write(&team->task_slots[team_id]->handoff.state);
}

bool task_handoff_reclaim(unsigned team_id, uint64_t ticket, struct task *parent)
{
    struct task_handoff *h = &thread_self()->team->task_slots[team_id]->handoff;
    /* The offer's taskgroup, known without reading the slot: once the
     * state moves on, the next offerer may be writing it. */
    struct taskgroup *tg = parent->taskgroup;
    if (!atomic_compare_exchange_strong_explicit(&h->state, &ticket,
                                                 handoff_state((ticket >> 2) + 1, HANDOFF_EMPTY),
                                                 memory_order_release, memory_order_relaxed))
        return false;
    if (tg)
        atomic_fetch_sub_explicit(&tg->pending, 1, memory_order_relaxed);
    return true;
}

bool task_handoff_run_offered(struct ilan_thread *ts, struct task *waiter)
{
    struct task_handoff *h = &task_own_slot(ts)->handoff;
    uint64_t s = atomic_load_explicit(&h->state, memory_order_acquire);
    if ((s & 3) != HANDOFF_OFFERED)
        return false;
    /* A waiting tied task may start only its descendants: a child of the
     * offer's parent is one when that parent is the waiter or descends
     * from it. The parent read here may be an older offer's, if this one
     * was taken back meanwhile: then the CAS below fails (descriptors are
     * never unmapped, so reading through a stale one is harmless). */
    struct task *parent = atomic_load_explicit(&h->parent, memory_order_relaxed);
    /* The line the work writes first, which the offerer wrote: asked for
     * before the CAS, its miss overlaps the CAS's. It may be an older
     * offer's: only a hint. */
    const void *first_write = atomic_load_explicit(&h->first_write, memory_order_relaxed);
    if (first_write)
        prefetch_for_write(first_write);
    if ((waiter && parent != waiter && !task_descends_from(parent, waiter)) ||
        !atomic_compare_exchange_strong_explicit(&h->state, &s,
                                                 handoff_state(s >> 2, HANDOFF_TAKEN),
                                                 memory_order_acquire, memory_order_relaxed))
        return false;
    struct task_lineage lineage = h->lineage;
    lineage.parent = parent;
    struct taskgroup *tg = lineage.taskgroup;
    void (*run)(void *) = h->run;
    void *arg = h->arg;
    struct icv saved = ts->icv;
    ts->icv = h->icv;
    /* Not a task of the program: its start is counted as a runner's (and
     * `created` = 1 keeps it from the included tasks' count). */
    ILAN_COUNT(range_runners);
    struct instr_mark im = ILAN_ENTER(task); /* a task slice in the trace, as a queued runner's */
    task_run_included_from(ts, &lineage, run, arg, 0, true, 1);
    ILAN_LEAVE(im);
    ts->icv = saved;
    /* The slot is free for the next offer before the offerer may go on. */
    atomic_store_explicit(&h->state, handoff_state((s >> 2) + 1, HANDOFF_EMPTY),
                          memory_order_release);
    if (tg)
        atomic_fetch_sub_explicit(&tg->pending, 1, memory_order_release);
    barrier_wake_completion(&ts->team->barrier); /* the offerer may sleep in its taskgroup's end */
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
    barrier_wake_completion(&team->barrier);
}

