/* dlb.h — load balancing by messages (seed 002's NA-WS and NA-RP): idle threads ask busy ones for tasks through request cells, and the busy ones send them. */
#ifndef ILAN_CORE_DLB_H
#define ILAN_CORE_DLB_H

#include <stdatomic.h>
#include <stdbool.h>
#include "core/task_desc.h"
#include "core/task_queue.h"
#include "core/thread.h"
#include "sched/dlb.h"

struct team;

/* Empties slot s's cells for a new team (task_team_prepare). */
void dlb_slot_reset(struct task_slot *s);

/* Victim, at a task creation: handles a request waiting in its cell (NA-WS:
 * sends queued tasks now) and says whether this creation is to be deferred
 * and handed to dlb_redirect (NA-RP). */
bool dlb_creation_serves_slow(struct ilan_thread *ts, struct task_slot *s);

/* Victim, at every task creation (the hot path: two loads of a line only
 * thieves and NA-RP's bookkeeping write). True: defer the new task and pass
 * it to dlb_redirect. */
static inline bool dlb_creation_serves(struct ilan_thread *ts)
{
    struct task_slot *s = task_own_slot(ts);
    if (__builtin_expect(atomic_load_explicit(&s->dlb_request, memory_order_relaxed) == 0 &&
                             s->dlb_redirect_left == 0,
                         1))
        return false;
    return dlb_creation_serves_slow(ts, s);
}

/* Victim: t, a counted deferred task made while dlb_creation_serves said
 * true, goes to the thief's inbox (true) when the thief may start it;
 * otherwise the redirection ends and the caller queues t as usual (false). */
bool dlb_redirect(struct ilan_thread *ts, struct task *t);

/* Victim, idle (a wait's round): handles a request waiting in its cell by
 * sending queued tasks the thief may start, whatever the strategy (an idle
 * thread creates no task to redirect); ends a redirection. */
void dlb_serve_idle_slow(struct ilan_thread *ts, struct task_slot *s);

static inline void dlb_serve_idle(struct ilan_thread *ts)
{
    struct task_slot *s = task_own_slot(ts);
    if (__builtin_expect(atomic_load_explicit(&s->dlb_request, memory_order_relaxed) != 0 ||
                             s->dlb_redirect_left != 0,
                         0))
        dlb_serve_idle_slow(ts, s);
}

/* Thief (an idle thread of team `team`, waiting in tied task `waiter` or
 * NULL): asks config's N_victim victims for tasks, chosen with P_local
 * for its first asks of this wait and farther for later ones (`asks`
 * made before in this wait: sched/dlb.h, dlb_ask_draw); a victim that
 * has a request of this round waiting is passed over. The answer arrives
 * in the thief's inbox. *rng: the thief's PRNG state. */
void dlb_ask(struct ilan_thread *ts, struct team *team, struct task *waiter, unsigned asks,
             uint64_t *rng);

#endif
