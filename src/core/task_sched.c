/* task_sched.c — how threads find ready tasks and wait: the scheduling ladder (own deque, inboxes, stealing, the taskloop mode's queues), idle sleep and region drain (the tasking barrier waits through it: barrier_wait.c). */
#include "core/task_sched.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "config/env.h"
#include "core/barrier.h"
#include "core/dlb.h"
#include "core/handoff.h"
#include "core/task_deps.h"
#include "core/task_exec.h"
#include "core/task_mode.h"
#include "core/task_queue.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "instr/counters.h"
#include "os/linux/thread.h"
#include "os/linux/time.h"
#include "sched/steal.h"
#include "sched/steal_pace.h"

/* The calling thread's stealing state, kept apart from struct ilan_thread
 * (which masters copy and restore around nested regions). */
struct steal_tls {
    struct team *team;       /* team the state below refers to */
    unsigned last_victim;    /* last slot a steal succeeded on, or STEAL_NO_VICTIM */
    uint64_t rng;            /* victim PRNG */
    struct steal_pace pace;  /* how often idle rounds look at other threads (any team) */
};
static __thread struct steal_tls steal_tls;

/* The calling thread's stealing state, made current for `team`. */
static struct steal_tls *steal_state(struct ilan_thread *ts, struct team *team)
{
    struct steal_tls *st = &steal_tls;
    if (st->team != team) {
        st->team = team;
        st->last_victim = STEAL_NO_VICTIM;
        if (!st->rng)
            st->rng = steal_seed(ts->team_id + 1u + (unsigned)(uintptr_t)ts);
    }
    return st;
}

/* ---- team and slot set-up ------------------------------------------------ */

/* The task slots of one growth of a team, allocated together: a header
 * line, then the slots. */
struct task_slot_block {
    void *raw;                    /* what calloc returned, for free */
    struct task_slot_block *next; /* the block of the team's previous growth, NULL: none */
};

/*
 * Adds slots cap..n-1 to t in one zeroed block. Zero is the initial state
 * of all but the load-balancing cells: an empty inbox, an empty deque
 * without a buffer (its owner's first push allocates one), an unused
 * implicit task. So the master writes only those cells, and a block of
 * thousands of slots, mapped fresh by calloc, is mostly faulted in by the
 * threads that use it. Allocating and initializing slot by slot (an
 * aligned_alloc, a memset and a deque buffer each) cost 11 ms at 5,000
 * threads.
 */
static void task_slots_grow(struct team *t, unsigned cap, unsigned n)
{
    size_t head = (sizeof(struct task_slot_block) + ILAN_CACHE_LINE - 1) / ILAN_CACHE_LINE *
                  ILAN_CACHE_LINE;
    void *raw = calloc(1, ILAN_CACHE_LINE - 1 + head + (size_t)(n - cap) * sizeof(struct task_slot));
    if (!raw)
        ilan_fatal("out of memory starting a parallel region of %u threads", n);
    uintptr_t at = ((uintptr_t)raw + ILAN_CACHE_LINE - 1) / ILAN_CACHE_LINE * ILAN_CACHE_LINE;
    struct task_slot_block *block = (struct task_slot_block *)at;
    block->raw = raw;
    block->next = t->task_slot_blocks;
    t->task_slot_blocks = block;
    struct task_slot *slots = (struct task_slot *)(at + head);
    for (unsigned i = cap; i < n; i++) {
        dlb_slot_reset(&slots[i - cap]);
        t->task_slots[i] = &slots[i - cap];
    }
}

void task_team_prepare(struct team *t, unsigned n)
{
    if (t->task_slots_cap < n) {
        struct task_slot **grown = realloc(t->task_slots, n * sizeof *grown);
        if (!grown)
            ilan_fatal("out of memory starting a parallel region of %u threads", n);
        t->task_slots = grown;
        task_slots_grow(t, t->task_slots_cap, n);
        t->task_slots_cap = n;
    }
    task_queue_init(&t->task_prio);
}

void task_team_destroy(struct team *t)
{
    for (unsigned i = 0; i < t->task_slots_cap; i++) {
        deque_destroy(&t->task_slots[i]->deque);
        task_deps_destroy(&t->task_slots[i]->implicit);
    }
    while (t->task_slot_blocks) {
        struct task_slot_block *b = t->task_slot_blocks;
        t->task_slot_blocks = b->next;
        free(b->raw);
    }
    free(t->task_slots);
    t->task_slots = NULL;
    t->task_slots_cap = 0;
}

/* ---- finding a task --------------------------------------------------------- */

/* Where task_find found a task. */
enum task_source {
    FROM_OWN_DEQUE,    /* this thread's deque: pushed by this thread */
    FROM_VICTIM_DEQUE, /* stolen from another thread's deque */
    FROM_QUEUE,        /* a queue tasks are placed in for takers: priority, inbox, the mode's */
};

/* deque_steal_if's test for a waiting tied task: only its descendants. */
static bool may_start(const void *item, const void *waiter)
{
    return task_peek_descends(item, waiter, &ilan_tls);
}

/*
 * After a thief won one task from `victim`, takes up to half of what is
 * left there, at most N_steal - 1 more (ILAN_DLB_STEAL), one CAS each, and
 * keeps them on its own deque. A waiting tied task takes only its
 * descendants, so they belong above its mark. They are marked adopted: run
 * from there they still become the thread's root (run_found), as if stolen
 * one by one.
 */
static void steal_more(struct ilan_thread *ts, struct deque *victim, struct task *waiter)
{
    long left = deque_size(victim);
    long want = (left + 1) / 2;
    if (want > (long)config.dlb.steal - 1)
        want = (long)config.dlb.steal - 1;
    for (long i = 0; i < want; i++) {
        bool refused = false;
        struct task *t = waiter ? deque_steal_if(victim, may_start, waiter, &refused)
                                : deque_steal(victim);
        if (!t)
            return;
        t->state_flags |= TASK_ADOPTED;
        deque_push(ts->deque, t);
    }
}

/*
 * Tries slot v's deque (top) and inbox. A waiting tied task looks at the
 * victim's oldest task before racing for it and leaves it there unless it
 * descends from the waiter (task_peek_descends):
 * a task once won cannot be put back where it was, and an earlier design
 * that moved refused tasks to the victim's inbox made every later look walk
 * thousands of them (quadratic on unbalanced trees). What a waiter leaves
 * is run by its owner, or by any thread at a barrier.
 */
static struct task *steal_from(struct team *team, unsigned v, struct task *waiter,
                               enum task_look look, bool rob, enum task_source *from)
{
    struct task_slot *s = team->task_slots[v];
    struct task *t = NULL;
    bool refused = false;
    ILAN_COUNT(steals_attempted);
    /* A deque that looks empty is passed over without the steal's fence:
     * the fence made each look wait for the one before it, and in a team
     * of thousands almost every look is at an empty deque. A full look
     * misses nothing by it: its looker fenced after counting itself as a
     * sleeper, so a push it does not see will see it (task_wait_until). */
    if (rob && deque_maybe_nonempty(&s->deque)) {
        do
            t = waiter ? deque_steal_if(&s->deque, may_start, waiter, &refused)
                       : deque_steal(&s->deque);
        /* A full look retries a lost race (the winner took only one task);
         * a refusal ends it. */
        while (!t && !refused && look == LOOK_FULL && deque_maybe_nonempty(&s->deque));
    }
    *from = FROM_VICTIM_DEQUE;
    if (t && config.dlb.steal > 1)
        steal_more(&ilan_tls, &s->deque, waiter);
    if (!t) {
        t = task_queue_take(&s->inbox, waiter, look == LOOK_FULL ? LOOK_FULL : LOOK_TRY, NULL, NULL);
        *from = FROM_QUEUE;
    }
    return t;
}

/* What a look takes from other threads' slots (steps 5 and 6 below). */
enum look_others {
    OTHERS_NONE,    /* nothing: a paced round (sched/steal_pace.h) */
    OTHERS_INBOXES, /* their inboxes only: ILAN_DLB=na-*, where deques are the owners' alone */
    OTHERS_ALL,     /* their deques, then their inboxes */
};

/* The scheduling ladder: the first source that yields a task wins. With
 * `full` false it is the cheap look of a spinning round (busy queues,
 * long queues and unlucky victim draws are passed over); with `full` true
 * it returns NULL only if no task the caller may take was queued anywhere
 * when it looked (LOOK_FULL; `others` is then OTHERS_ALL). */
static struct task *task_find(struct ilan_thread *ts, struct team *team, struct task *waiter,
                              bool full, enum look_others others, enum task_source *from)
{
    *from = FROM_QUEUE;
    unsigned self = ts->team_id;
    struct task_slot *own = team->task_slots[self];
    struct task *t;
    enum task_look thief = full ? LOOK_FULL : LOOK_TRY, owner = full ? LOOK_FULL : LOOK_LOCK;
    const struct task_mode_ops *mode = task_mode;
    /* 1. the team's priority queue: priority tasks (rare) first */
    if ((t = task_queue_take(&team->task_prio, waiter, thief, NULL, NULL)))
        return t;
    /* 2. own deque, newest first (cache-hot, depth-first); a waiting task
     * may only take what was pushed above its mark (its descendants) */
    if ((!waiter || deque_bottom(&own->deque) > waiter->deque_mark) &&
        (t = deque_pop(&own->deque))) {
        *from = FROM_OWN_DEQUE;
        return t;
    }
    /* 3. own inbox: tasks placed on this thread by others */
    if ((t = task_queue_take(&own->inbox, waiter, owner, NULL, NULL)))
        return t;
    /* 4. the taskloop mode's tasks meant for this thread (ILAN: its own
     * group's, strict ones first) */
    if (mode && (t = mode->take_own(ts, team, waiter, owner)))
        return t;
    unsigned n = team->nthreads;
    if (n < 2)
        return NULL;
    struct steal_tls *st = steal_state(ts, team);
    /* 5. the last victim that had work, then 6. random victims (policy):
     * where the team's groups are nodes or caches, a victim of the own
     * group with probability P_local, else one of the nearest other group
     * (ILAN_DLB_PLOCAL; sched/steal.h). A full look visits every other slot
     * instead, since random draws can miss the one victim that has work:
     * the own group first, then the others nearest first. */
    unsigned tries = others == OTHERS_NONE
                         ? 0
                         : steal_tries(n, full, ILAN_TASK_STEAL_TRIES, ILAN_TASK_STEAL_TRIES_MAX);
    const struct loop_victims *order = tries && mode && mode->victims ? mode->victims(ts, team)
                                                                      : NULL;
    uint64_t rotation = order && full ? steal_rand(&st->rng) : 0;
    unsigned far = 0; /* this look's draws from other groups */
    for (unsigned i = 0; i < tries; i++) {
        unsigned v;
        if (full)
            v = order ? loop_victim_at(order, i, rotation) : (self + 1 + i) % n;
        else if (order)
            v = steal_victim_near_first(order, self, config.dlb.plocal, st->last_victim, &far,
                                        &st->rng);
        else
            v = steal_next_victim(config.steal_policy, self, n, st->last_victim, &st->rng);
        if ((t = steal_from(team, v, waiter, thief, others == OTHERS_ALL, from))) {
            ILAN_COUNT_STEAL(v, mode && !mode->same_group(team, self, v));
            st->last_victim = v;
            return t;
        }
        st->last_victim = STEAL_NO_VICTIM;
    }
    /* 7. the mode's tasks this thread may share (ILAN: other groups'
     * shareable tasks under the full policy, and exploratory runs past
     * their cut-off) */
    *from = FROM_QUEUE;
    if (mode && (t = mode->take_other(ts, team, waiter, thief)))
        return t;
    /* 8. a tied task waiting for its descendants may run them wherever
     * the mode queued them: the threads meant for them may all be waiting
     * in tasks of their own, unable to start them (nested taskloops) */
    if (mode && waiter && (t = mode->take_any(team, waiter, thief)))
        return t;
    return NULL;
}

/* Runs t, found by this thread's scheduler where `from` says. A tied task
 * from elsewhere becomes the thread's root while it runs: the tasks made
 * under it name it (struct task `root`), so that a thread waiting in one of
 * its ancestors recognizes them (task_peek_descends). How long a stolen
 * task ran sets how often idle rounds look at other threads' deques again
 * (sched/steal_pace.h); tasks placed in queues for their takers (ILAN's
 * taskloop queues, inboxes) do not, as looking there is what they are for. */
static void run_found(struct ilan_thread *ts, struct task *t, enum task_source from)
{
    if (from == FROM_OWN_DEQUE) {
        if (!(t->state_flags & TASK_ADOPTED)) {
            task_execute(ts, t);
            return;
        }
        t->state_flags &= ~TASK_ADOPTED;
        from = FROM_QUEUE; /* stolen with another: a root, but not paced on */
    }
    uint64_t start = from == FROM_VICTIM_DEQUE ? os_now_ns() : 0;
    if (t->state_flags & TASK_UNTIED) {
        task_execute(ts, t);
    } else {
        struct task *root = ts->root;
        ts->root = t;
        task_execute(ts, t);
        ts->root = root;
    }
    if (from == FROM_VICTIM_DEQUE)
        steal_pace_after_steal(&steal_tls.pace, os_now_ns() - start, ILAN_STEAL_WORTH_NS);
}

bool task_sched_run_one(struct ilan_thread *ts)
{
    struct team *team = ts->team;
    if (!team)
        return false;
    enum task_source from;
    struct task *t = task_find(ts, team, task_constraint(ts), false, OTHERS_ALL, &from);
    if (!t)
        return false;
    run_found(ts, t, from);
    return true;
}

/* ---- waiting while running tasks --------------------------------------------- */

/* What a waiting thread saw of the team's progress. */
struct stall {
    unsigned long pending; /* the team's task_pending when last seen changing */
    uint64_t since_ns;     /* when it was seen taking that value */
};

/*
 * The way out of a stall that a mode's rules could cause: the threads an
 * ILAN taskloop's tasks are meant for may be blocked outside any task
 * scheduling point (a critical section or lock the waiter holds, a
 * doacross wait, a user's spin), where libgomp's creator would simply run
 * its tasks itself. When the team's pending-task count has not moved for
 * ILAN_STALL_NS while the mode has tasks queued, the caller takes one of
 * them, any. In a healthy run some task completes well within that time.
 */
static struct task *take_if_stalled(const struct task_mode_ops *mode, struct team *team,
                                    struct task *waiter, struct stall *st)
{
    if (!mode || !mode->queued(team))
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
    return mode->take_any(team, waiter, LOOK_TRY);
}

/* Passes a wake-up on when the taskloop mode has work queued for another
 * group whose threads may all sleep (task_mode_ops.wake_owed): the
 * launch's wake-ups reached other threads (this one among them). Only
 * while threads outnumber CPUs: launches wake every sleeper otherwise
 * (task_queue_wake_tree), and wake_owed reads every group's queues.
 * Returns whether it did. */
static bool pass_wake_on(struct ilan_thread *ts, struct team *team)
{
    if (!task_mode || !wait_oversubscribed() || !task_mode->wake_owed(team, ts->team_id))
        return false;
    ILAN_COUNT(wakes_passed);
    barrier_wake_one(&team->barrier);
    return true;
}

/* The pause after the idle-th failed round of a wait for done(arg),
 * watching done every few pauses (only the waiter's own lines answer it)
 * and the waiter's offer slot `offer` (NULL: none) at every pause, and
 * returning as soon as either holds; when `yield`, one yield instead.
 * The slot is watched that closely because its offerer waits for it: a
 * 2-task taskloop's second task otherwise started up to a round of 64
 * pauses late. Returns the pauses it stood for (a yield stands for
 * ILAN_TASK_YIELD_PAUSES). */
static inline unsigned idle_pause_watching(unsigned idle, bool (*done)(void *), void *arg,
                                           const struct task_handoff *offer, bool yield)
{
    if (yield) {
        wait_yield();
        return ILAN_TASK_YIELD_PAUSES;
    }
    unsigned pauses = 1u << (idle < ILAN_TASK_IDLE_MAX_LEVEL ? idle : ILAN_TASK_IDLE_MAX_LEVEL);
    for (unsigned i = 1; i <= pauses; i++) {
        if ((offer && task_handoff_offered(offer)) ||
            (i % ILAN_TASK_WATCH_EVERY == 0 && done(arg)))
            return i;
        os_cpu_relax();
    }
    return pauses;
}

/* Whether a waiter whose idle rounds yield (threads outnumber CPUs) has
 * yielded for as long as the wait plan lets a wait yield before it sleeps
 * (ILAN_WAIT_YIELD_NS). *since: when its failed rounds began, noted at
 * the first of them (idle 1). Asked only while no task is pending: with
 * thousands of threads a yield returns only after many others ran, and a
 * region's first barrier, whose waiters yielded 64 rounds each, took
 * 3 times libgomp's time in a team of 5,000 (the threads still starting
 * queued behind them). Waits with tasks pending keep their 64 rounds:
 * sleeping sooner there made a taskloop 10 times slower. True at once
 * after a recent yield came back late beside other processes' load
 * (wait_yields_late): the next would hand the CPU away for a slice.
 * (Waits with tasks pending keep yielding then too: the tasks they look
 * for come from the team's own threads, which their yields let run;
 * sleeping there made a UTS-like tree 1.4-1.9 times slower with 16 threads.) */
static bool idle_yielded_enough(unsigned idle, uint64_t *since)
{
    if (!wait_oversubscribed())
        return false;
    if (wait_yields_late())
        return true;
    uint64_t now = os_now_ns();
    if (idle <= 1 || *since == 0)
        *since = now;
    return now - *since >= ILAN_WAIT_YIELD_NS;
}

/* Where a waiter of task_wait_until stands in keeping its CPU while
 * threads outnumber CPUs (keep_cpu). */
struct cpu_keep {
    uint64_t since_ns; /* when its current run of failed rounds began (0: not begun) */
    bool over;         /* that run has spun alone_ns: it yields until a task is found */
    unsigned rounds;   /* failed rounds it spun in that run */
    bool kept;         /* spun at least one round of this wait (counted at its end) */
};

/* Whether a failed round of an oversubscribed task wait should spin rather
 * than yield: for the first alone_ns (wait_alone_ns) of a run of failed
 * rounds, while every other thread of the team that shares the waiter's
 * CPU has left the region (cpu_share_alone; the master always counts). A
 * yield then only hands the CPU to a thread that waits for the next region
 * and back, and the task or the completion this waiter is after (a
 * taskloop's next launch, its last task's end) is seen a context switch
 * later. A thread still in the region counts as having work even while it
 * waits: its wait may have ended without it having run since (a released
 * barrier), and a spin beside it would hold it off. The notes may be stale
 * (a thread that moved to this CPU while busy): the spin's time bound
 * caps what that costs it. */
static bool keep_cpu(struct ilan_thread *ts, struct team *t, struct cpu_keep *k)
{
    uint64_t alone_ns = wait_alone_ns();
    struct cpu_share *cpus = atomic_load_explicit(&t->cpus, memory_order_acquire);
    if (!alone_ns || !cpus || k->over)
        return false;
    uint64_t now = os_now_ns();
    if (!k->since_ns)
        k->since_ns = now;
    k->over = now - k->since_ns >= alone_ns; /* no clock read per round from then on */
    return !k->over &&
           cpu_share_alone(cpus, atomic_load_explicit(&t->staffed, memory_order_relaxed),
                           atomic_load_explicit(&team_busy_threads, memory_order_relaxed),
                           ts->team_id, atomic_load_explicit(&t->region_seq, memory_order_relaxed),
                           true);
}

void task_wait_until(struct ilan_thread *ts, bool (*done)(void *), void *arg)
{
    struct team *team = ts->team;
    if (!team) {
        /* No team, hence no queue: what we wait for is done by another
         * thread (a detach event fulfilled elsewhere). */
        for (unsigned i = 0; !done(arg); i++)
            idle_pause_watching(i, done, arg, NULL, wait_oversubscribed());
        return;
    }
    struct task *waiter = task_constraint(ts);
    struct barrier *b = &team->barrier;
    const struct task_handoff *offer = &task_own_slot(ts)->handoff;
    unsigned idle = 0;
    unsigned quiet = 0;  /* pauses since this wait last looked at other threads' deques */
    unsigned looks = 0;  /* looks at other threads' deques since a task was last found */
    bool hungry = false; /* counted in b->task_hungry */
    /* ILAN_DLB=na-ws|na-rp: quick looks ask other threads for tasks
     * (core/dlb.c) instead of taking them from their deques, and this
     * thread answers such requests while it waits. */
    bool asks = config.dlb.strategy != DLB_WS && team->nthreads > 1;
    unsigned unanswered = 0; /* idle rounds since this wait last found a task: it asks at
                                every T_interval-th (dlb_ask) */
    struct stall stall = {~0ul, 0};
    uint64_t idle_since = 0; /* when this wait's failed rounds began (idle_yielded_enough) */
    bool passed = false;   /* passed a wake-up on since this wait began or last woke */
    struct cpu_keep keep = {0, false, 0, false};
    enum task_source from; /* where the task found came from */
    struct instr_mark im = ILAN_ENTER_WAIT();
    for (;;) {
        if (done(arg)) {
            if (hungry)
                atomic_fetch_sub_explicit(&b->task_hungry, 1, memory_order_relaxed);
            if (keep.kept)
                ILAN_COUNT(task_waits_alone);
            ILAN_LEAVE(im);
            return;
        }
        /* No task pending in the team (queued or running): nothing to look
         * for, only the condition to watch (a plain barrier stays cheap). */
        struct task *t = NULL;
        if (asks)
            dlb_serve_idle(ts);
        bool pending = atomic_load_explicit(&b->task_pending, memory_order_relaxed) != 0;
        bool steal = !asks && quiet >= steal_pace_gap(&steal_tls.pace);
        if (steal)
            quiet = 0;
        if (steal || !pending || asks)
            looks++; /* with no task pending, every round is a full look */
        enum look_others others = asks ? OTHERS_INBOXES : steal ? OTHERS_ALL : OTHERS_NONE;
        /* Work offered to this thread alone first (a taskloop's runner:
         * its creator waits for it), then tasks. The offer is looked at
         * before the team counts it pending (task_pending_hold follows
         * it): the sooner its runner starts, the sooner the taskloop ends. */
        if (task_handoff_run_offered(ts, waiter) ||
            (pending && (t = task_find(ts, team, waiter, false, others, &from)) != NULL)) {
            if (hungry) {
                atomic_fetch_sub_explicit(&b->task_hungry, 1, memory_order_relaxed);
                hungry = false;
            }
            if (t)
                run_found(ts, t, from);
            idle = looks = unanswered = 0;
            keep = (struct cpu_keep){0, false, 0, keep.kept};
            continue;
        }
        /* Ask on the first idle round, then again each T_interval rounds
         * (a request may have been dropped, overwritten or declined). */
        if (asks && pending && unanswered++ % config.dlb.interval == 0)
            dlb_ask(ts, team, waiter, (unanswered - 1) / config.dlb.interval,
                    &steal_state(ts, team)->rng);
        ILAN_WAIT_PHASE(im, pending);
        /* Woken (or just idle) with work queued only for others: pass the
         * wake-up on at once, once per wake-up (and below, before sleeping,
         * if the work came later). */
        if (pending && idle == 0 && !passed)
            passed = pass_wake_on(ts, team);
        /* Hunger is announced only after a few failed rounds (a taskwait
         * whose last child is finishing on another thread ends within them)
         * and only by a thread whose steals pay: announcing it makes every
         * creator defer more, for nobody if the thread seldom looks. */
        if (!hungry && idle >= ILAN_TASK_HUNGRY_ROUNDS && steal_pace_hungry(&steal_tls.pace)) {
            atomic_fetch_add_explicit(&b->task_hungry, 1, memory_order_relaxed);
            hungry = true;
        }
        /* Threads outnumber CPUs, but no other thread that shares this
         * one is in the region: spin a while, as with a CPU each. These
         * rounds do not count towards sleeping: the rounds a wait yields
         * before it sleeps follow them. */
        bool oversubscribed = wait_oversubscribed();
        if (oversubscribed && keep_cpu(ts, team, &keep)) {
            keep.kept = true;
            quiet += idle_pause_watching(++keep.rounds, done, arg, offer, false);
            continue;
        }
        /* Sleep only after as many failed looks at other threads as
         * rounds: a thief that looks rarely (the steal pace) still looks
         * as many times before it sleeps, else it would sleep through the
         * work it is pacing itself for and be woken by each push. */
        /* With no task pending there is nothing to look for: such a wait
         * (a plain barrier) follows the wait plan and sleeps once it has
         * yielded for as long as the plan says, whatever its rounds. */
        if ((++idle < ILAN_TASK_IDLE_ROUNDS || looks < ILAN_TASK_IDLE_ROUNDS) &&
            (pending || !idle_yielded_enough(idle, &idle_since))) {
            quiet += idle_pause_watching(idle, done, arg, offer, oversubscribed);
            continue;
        }
        /* About to sleep: first the way out of a stall (checked here, not
         * every round, as it reads the clock). */
        if (pending && (t = take_if_stalled(task_mode, team, waiter, &stall)) != NULL) {
            run_found(ts, t, FROM_QUEUE);
            idle = looks = 0;
            keep = (struct cpu_keep){0, false, 0, keep.kept};
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
        /* A thief that asks leaves a request standing while it sleeps: its
         * answer (a push to its inbox) wakes it. */
        if (asks)
            dlb_ask(ts, team, waiter, unanswered / config.dlb.interval,
                    &steal_state(ts, team)->rng);
        /* Before reading the word this thread sleeps on, which the
         * wake-up moves. */
        if (pending && !passed)
            pass_wake_on(ts, team);
        _Atomic unsigned *group_sleepers =
            task_mode && !waiter ? task_mode->sleepers_of(team, ts->team_id) : NULL;
        unsigned w = seq_read(&b->task_work);
        atomic_fetch_add_explicit(&b->task_sleepers, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&b->cond_sleepers, 1, memory_order_relaxed);
        if (group_sleepers)
            atomic_fetch_add_explicit(group_sleepers, 1, memory_order_relaxed);
        ilan_fence_seq_cst();
        /* No task pending after the fence: none can be queued, and one
         * deferred from now on is counted in task_pending before its push,
         * whose wake-up (barrier_wake_idle, after a fence) then sees us
         * counted. So the full look, which visits every other thread's
         * queues (thousands of them in a large team), is skipped. */
        bool none = atomic_load_explicit(&b->task_pending, memory_order_relaxed) == 0;
        /* With the mode's tasks queued that we may not take, sleep in
         * slices so that a stall (take_if_stalled) is noticed. */
        if (!done(arg) && (none || !(t = task_find(ts, team, waiter, true, OTHERS_ALL, &from)))) {
            if (!none && task_mode && task_mode->queued(team))
                seq_wait_slow_for(&b->task_work, w, task_mode->sleep_ns(team));
            else
                seq_wait_past(&b->task_work, w);
        }
        if (group_sleepers)
            atomic_fetch_sub_explicit(group_sleepers, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&b->cond_sleepers, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&b->task_sleepers, 1, memory_order_relaxed);
        barrier_relay_wake(b);
        if (t)
            run_found(ts, t, from);
        idle = looks = 0;
        keep = (struct cpu_keep){0, false, 0, keep.kept};
        passed = false;
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
