/* handoff.h — work handed to one thread of the team directly, with no task descriptor and no queue: a range taskloop's runner whose creator waits for it. */
#ifndef ILAN_CORE_HANDOFF_H
#define ILAN_CORE_HANDOFF_H

#include <stdbool.h>
#include "core/task_desc.h"
#include "core/thread.h"

/*
 * Offers h (filled in by the caller: run, arg, and parent, the calling
 * thread's current task on the heap, task_current_stable; taskgroup and
 * icv are set here from that task and thread) to the thread in
 * slot `team_id` of the calling thread's team, which takes it in its next
 * idle round (task_handoff_run_offered) unless its waiting tied task may
 * not start a child of the caller's task. Counted in the caller's current
 * taskgroup from here on, and in the team through the caller's hold
 * (task_pending_hold), which the caller takes first and releases after
 * that taskgroup is over. Returns false (nothing offered, nothing counted)
 * when the slot has an offer already. The caller wakes idle threads once
 * for all its offers (task_queue_wake_tree) and must, before it waits for
 * the taskgroup, take back (task_handoff_reclaim) every offer not taken.
 */
bool task_handoff_offer(struct task_handoff *h, unsigned team_id);

/* Takes back the offer h made to slot team_id: true when it was not
 * taken, and it is then uncounted from its taskgroup (the caller runs its
 * work some other way); false when the thread took it. */
bool task_handoff_reclaim(struct task_handoff *h, unsigned team_id);

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
