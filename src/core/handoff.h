/* handoff.h — work handed to one thread of the team directly, with no task descriptor and no queue: a range taskloop's runner whose creator waits for it. */
#ifndef ILAN_CORE_HANDOFF_H
#define ILAN_CORE_HANDOFF_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "core/task_desc.h"
#include "core/thread.h"

/* The phases of an offer slot's state word (task_handoff.state, below
 * its generation). */
enum { HANDOFF_EMPTY, HANDOFF_WRITING, HANDOFF_OFFERED, HANDOFF_TAKEN };

/* Whether slot h holds an offer not yet taken: one load of a line that
 * only offers and the slot's thread write, cheap enough for every pause
 * of that thread's waits. */
static inline bool task_handoff_offered(const struct task_handoff *h)
{
    return (atomic_load_explicit(&h->state, memory_order_relaxed) & 3) == HANDOFF_OFFERED;
}

/*
 * Offers run(arg) to the thread in slot `team_id` of the calling thread's
 * team, as a child of `parent` (the caller's current task, on the heap:
 * task_current_stable) in its current taskgroup, with the caller's ICVs.
 * `first_write`: a line run writes first, which the taker asks for as it
 * takes the offer (only a hint; NULL: none).
 * The thread takes it in its next idle round, or between the pauses of
 * one (task_handoff_run_offered), unless its waiting tied task may not
 * start a child of `parent`. Counted in that taskgroup from here on, and
 * in the team through the caller's hold (task_pending_hold), which the
 * caller takes first, for the waits that look at the team's count only,
 * and releases once every offer is taken or taken back. Returns false
 * (nothing offered, nothing counted) when the slot holds an offer already;
 * else true and *ticket, for task_handoff_reclaim. The caller wakes idle
 * threads once for all its offers (task_queue_wake_tree) and must, before
 * it waits for the taskgroup, take back every offer not taken.
 */
bool task_handoff_offer(unsigned team_id, void (*run)(void *), void *arg, struct task *parent,
                        const void *first_write, uint64_t *ticket);

/* Asks for slot team_id's offer state for writing, ahead of an offer
 * the calling thread is likely to make there soon: the slot's thread
 * wrote it when it took the last one. Only a hint; any team thread. */
void task_handoff_warm(unsigned team_id);

/* Takes back the offer `ticket` made to slot team_id with `parent`, from
 * inside the same taskgroup: true when it was not taken, and it is then
 * uncounted from that taskgroup (the caller runs its work some other
 * way); false when the thread took it. */
bool task_handoff_reclaim(unsigned team_id, uint64_t ticket, struct task *parent);

/* The idle calling thread ts runs the offer waiting in its slot, if any
 * and if its waiting tied task `waiter` (NULL: none) may start a child of
 * the offerer's task. Returns whether it ran one. */
bool task_handoff_run_offered(struct ilan_thread *ts, struct task *waiter);

/* Counts the calling thread's team as having tasks pending until the
 * matching task_pending_release: what the team counts of the offers the
 * thread makes (task_handoff_offer). Only the thread itself, in a team. */
void task_pending_hold(void);
void task_pending_release(void);

#endif
