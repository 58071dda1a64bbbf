/* dlb.c — the mechanism of message-based load balancing: request and round cells, redirected creations (NA-RP) and migrated queued tasks (NA-WS). */
#include "core/dlb.h"

#include "config/env.h"
#include "core/deque.h"
#include "core/task_mode.h"
#include "core/task_queue.h"
#include "core/team_desc.h"
#include "instr/counters.h"
#include "sched/steal.h"

/*
 * The protocol (seed 002, section 4.2; its encoding is sched/dlb.h): each
 * slot has a request cell, which thieves write, and a round cell, which
 * only its own thread writes. A thief asks a victim by writing (the
 * victim's round, its id) into the victim's request cell, unless a request
 * of that round is already there. The victim sees the cell non-zero at its
 * next task creation (or idle round), takes the request out of the cell
 * (an exchange, off the hot path), and serves it only if it was written for
 * its current round; then it moves to the next round, so a request written
 * late, for a round already served, is dropped, and no two thieves are
 * served for one round. A thief whose request was dropped or overwritten
 * asks again after T_interval idle rounds. Only the victim moves its tasks:
 * a thief never touches another thread's deque here, so the owner's deque
 * lines stay in its cache.
 */

void dlb_slot_reset(struct task_slot *s)
{
    atomic_store_explicit(&s->dlb_request, 0, memory_order_relaxed);
    atomic_store_explicit(&s->dlb_round, DLB_FIRST_ROUND, memory_order_relaxed);
    atomic_store_explicit(&s->dlb_wants, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->dlb_wants_seq, 0, memory_order_relaxed);
    atomic_store_explicit(&s->dlb_asker, NULL, memory_order_relaxed);
    s->dlb_redirect_to = DLB_NO_THIEF;
    s->dlb_redirect_left = 0;
}

/* Whether the thief being served by s's thread may start t: a
 * descendant of the tied task it waited in when it asked. */
static bool taker_may_start(const void *item, const void *arg)
{
    const struct task_slot *s = arg;
    return !s->dlb_serving_wants || task_peek_descends_since(item, s->dlb_serving_wants,
                                                             s->dlb_serving_asker,
                                                             s->dlb_serving_seq);
}

/* Takes the request out of s's cell: the thief to serve in this round
 * (the round then advances, and what the thief may start is noted in s),
 * or DLB_NO_THIEF (none, stale, or naming no other thread of the team). */
static unsigned take_request(struct ilan_thread *ts, struct task_slot *s)
{
    uint64_t cell = atomic_exchange_explicit(&s->dlb_request, 0, memory_order_acq_rel);
    uint64_t round = atomic_load_explicit(&s->dlb_round, memory_order_relaxed);
    unsigned thief = dlb_valid_thief(cell, round);
    if (thief == DLB_NO_THIEF)
        return DLB_NO_THIEF;
    atomic_store_explicit(&s->dlb_round, round + 1, memory_order_release);
    if (thief >= ts->team->nthreads || thief == ts->team_id)
        return DLB_NO_THIEF;
    /* The thief wrote these before its request (release), which the
     * exchange read (acquire). Later ones may not be read: they would
     * race with the thief's next request. */
    const struct task_slot *from = ts->team->task_slots[thief];
    s->dlb_serving_wants = atomic_load_explicit(&from->dlb_wants, memory_order_relaxed);
    s->dlb_serving_seq = atomic_load_explicit(&from->dlb_wants_seq, memory_order_relaxed);
    s->dlb_serving_asker = atomic_load_explicit(&from->dlb_asker, memory_order_relaxed);
    ILAN_COUNT(dlb_requests_served);
    return thief;
}

/* Moves up to N_steal of the oldest tasks of s's deque that the thief may
 * start into its inbox, in one append. The owner takes them from its own
 * top with the thieves' CAS, so a concurrent ws thief cannot take one twice. */
static void migrate_queued(struct ilan_thread *ts, struct task_slot *s, unsigned thief)
{
    struct team *team = ts->team;
    struct task_slot *to = team->task_slots[thief];
    struct task *head = NULL, *tail = NULL;
    unsigned moved = 0;
    while (moved < config.dlb.steal) {
        bool refused = false;
        struct task *t = deque_steal_if(&s->deque, taker_may_start, s, &refused);
        if (!t)
            break;
        task_list_add(&head, &tail, t);
        moved++;
    }
    if (!moved)
        return;
    ILAN_COUNT_N(dlb_tasks_sent, moved);
    task_queue_append(&to->inbox, head, tail, moved);
    task_queue_wake(ts, team);
}

/* Whether a valid request waits in s's cell while s's deque is empty:
 * then it is left there, standing, for the tasks this thread will queue
 * or create. Answering it with nothing would leave the thief without a
 * request: asleep, it would then wait for a push that a thread running
 * its tasks inline (its deque full of tasks the thief may not start)
 * never makes. */
static bool request_waits_for_work(struct task_slot *s)
{
    uint64_t cell = atomic_load_explicit(&s->dlb_request, memory_order_relaxed);
    uint64_t round = atomic_load_explicit(&s->dlb_round, memory_order_relaxed);
    return dlb_valid_thief(cell, round) != DLB_NO_THIEF && !deque_maybe_nonempty(&s->deque);
}

bool dlb_creation_serves_slow(struct ilan_thread *ts, struct task_slot *s)
{
    if (s->dlb_redirect_left) {
        if (s->dlb_redirect_to < ts->team->nthreads)
            return true; /* a request waiting meanwhile is served once this one is done */
        s->dlb_redirect_left = 0; /* left over from a larger team's region */
    }
    if (config.dlb.strategy == DLB_NA_WS && request_waits_for_work(s))
        return false;
    unsigned thief = take_request(ts, s);
    if (thief == DLB_NO_THIEF)
        return false;
    if (config.dlb.strategy == DLB_NA_RP) {
        s->dlb_redirect_to = thief;
        s->dlb_redirect_left = config.dlb.steal;
        return true;
    }
    migrate_queued(ts, s, thief);
    return false;
}

bool dlb_redirect(struct ilan_thread *ts, struct task *t)
{
    struct task_slot *s = task_own_slot(ts);
    struct team *team = ts->team;
    struct task_slot *to = team->task_slots[s->dlb_redirect_to];
    if (!taker_may_start(t, s)) {
        s->dlb_redirect_left = 0;
        return false;
    }
    s->dlb_redirect_left--;
    ILAN_COUNT(dlb_tasks_sent);
    task_queue_put(&to->inbox, t, false);
    task_queue_wake(ts, team);
    return true;
}

void dlb_serve_idle_slow(struct ilan_thread *ts, struct task_slot *s)
{
    /* An idle thread makes no task to redirect: the thief gets queued ones. */
    if (s->dlb_redirect_left) {
        if (s->dlb_redirect_to < ts->team->nthreads)
            migrate_queued(ts, s, s->dlb_redirect_to);
        s->dlb_redirect_left = 0;
        return;
    }
    if (request_waits_for_work(s))
        return;
    unsigned thief = take_request(ts, s);
    if (thief != DLB_NO_THIEF)
        migrate_queued(ts, s, thief);
}

void dlb_ask(struct ilan_thread *ts, struct team *team, struct task *waiter, unsigned asks,
             uint64_t *rng)
{
    unsigned self = ts->team_id, n = team->nthreads;
    if (n < 2 || self > DLB_MAX_THIEF)
        return;
    struct task_slot *own = team->task_slots[self];
    atomic_store_explicit(&own->dlb_wants, waiter, memory_order_relaxed);
    atomic_store_explicit(&own->dlb_wants_seq, waiter ? waiter->start_seq : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&own->dlb_asker, ts, memory_order_relaxed);
    /* The victims as a ws thief draws them (task_sched.c task_find). */
    const struct loop_victims *order =
        task_mode && task_mode->victims ? task_mode->victims(ts, team) : NULL;
    double plocal;
    unsigned far;
    dlb_ask_draw(config.dlb.plocal, asks, &plocal, &far);
    for (unsigned i = 0; i < config.dlb.victims; i++) {
        unsigned v = order ? steal_victim_near_first(order, self, plocal, STEAL_NO_VICTIM, &far,
                                                     rng)
                           : steal_next_victim(STEAL_RANDOM, self, n, STEAL_NO_VICTIM, rng);
        struct task_slot *vs = team->task_slots[v];
        uint64_t cell = atomic_load_explicit(&vs->dlb_request, memory_order_relaxed);
        uint64_t round = atomic_load_explicit(&vs->dlb_round, memory_order_acquire);
        if (!dlb_may_ask(cell, round))
            continue;
        /* Release: the victim reads our wants and asker after taking this. */
        atomic_store_explicit(&vs->dlb_request, dlb_request_make(round, self), memory_order_release);
        ILAN_COUNT(dlb_requests_sent);
    }
}
