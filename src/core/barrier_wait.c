/* barrier_wait.c — a thread's passage through the team barrier: arrival, then waiting (running the team's tasks) until the round is released; a tree barrier's waiters sleep on their own node's word. */
#include "core/barrier_wait.h"

#include "base/fence.h"
#include "core/barrier.h"
#include "core/task_sched.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "core/wait.h"
#include "instr/counters.h"

/* The barrier round a waiter is in. */
struct barrier_round {
    struct barrier *b;
    unsigned round;   /* the release count read before arriving */
    bool cancellable; /* a cancellation ends the wait */
};

/* Whether the round is over: released, or (if cancellable) cancelled. */
static bool round_over(void *arg)
{
    struct barrier_round *r = arg;
    if (seq_read(&r->b->release) != r->round)
        return true;
    /* A cancellation bumps the release once; a thread that read the round
     * after that bump (it saw `cancelled` still false just before) would
     * otherwise wait for arrivals that will never come. */
    if (r->cancellable && atomic_load_explicit(&r->b->cancelled, memory_order_acquire))
        return true;
    /* Everyone arrived and no task pending: release it ourselves (one of
     * the threads that see this wins the CAS in barrier_try_release). */
    return barrier_try_release(r->b);
}

static bool tasks_pending(struct barrier *b)
{
    return atomic_load_explicit(&b->task_pending, memory_order_relaxed) != 0;
}

/* A tree waiter's poll: the round is over, or there are tasks to run. */
static bool over_or_tasks(void *arg)
{
    struct barrier_round *r = arg;
    return round_over(r) || tasks_pending(r->b);
}

/* A tree waiter running tasks: the round is over, or no task is left. */
static bool over_or_no_tasks(void *arg)
{
    struct barrier_round *r = arg;
    return round_over(r) || !tasks_pending(r->b);
}

/* Before each wait a tree waiter enters: the first counts the barrier,
 * each makes the wait a barrier's (not a taskwait) in the counters. */
static void tree_wait_mark(bool *counted)
{
    if (!*counted)
        ILAN_BARRIER_WAIT();
    else
        ILAN_BARRIER_RESUME();
    *counted = true;
}

/*
 * The tree's wait of thread `id` (arrived, not the releaser). While tasks
 * are pending it runs them like any waiter (task_wait_until, sleeping on
 * the team's work word). With none pending it follows the wait plan
 * (spin, or yield when threads outnumber CPUs) watching `release` and
 * task_pending, then sleeps on its node's own word: it counts itself in
 * tree_sleepers and sets the word's sleep bit, fences, and looks again.
 * Its wakers: the release (whoever leaves the barrier wakes its own
 * children, barrier_tree_leave; the releaser starts at the root), or a
 * task push (barrier_wake_idle sees tree_sleepers and wakes the topmost
 * sleepers, each of which wakes its own subtree before running tasks).
 */
static void tree_wait(struct barrier_round *r, unsigned id)
{
    struct barrier *b = r->b;
    struct barrier_node *nd = &b->nodes[id];
    bool counted = false; /* the instrumentation counted this barrier's wait */
    for (;;) {
        if (tasks_pending(b)) {
            tree_wait_mark(&counted);
            task_wait_until(&ilan_tls, over_or_no_tasks, r);
        }
        if (round_over(r))
            return;
        if (tasks_pending(b))
            continue;
        tree_wait_mark(&counted);
        struct instr_mark im = ILAN_ENTER_WAIT();
        if (!wait_poll(over_or_tasks, r)) {
            unsigned w = seq_read(&nd->wake);
            atomic_fetch_add_explicit(&b->tree_sleepers, 1, memory_order_seq_cst);
            seq_announce(&nd->wake);
            ilan_fence_seq_cst(); /* pairs with the wakers' fences (barrier.c) */
            /* seq_cst, for leavers that do not fence (barrier_tree_leave) */
            bool sleep = (atomic_load_explicit(&b->release.word, memory_order_seq_cst) &
                          ~SEQ_SLEEPERS) == r->round &&
                         !over_or_tasks(r);
            wait_debug_delay(); /* a release or a push now must still wake us */
            if (sleep)
                seq_sleep(&nd->wake, w);
            else
                seq_unannounce(&nd->wake, w);
            atomic_fetch_sub_explicit(&b->tree_sleepers, 1, memory_order_relaxed);
            /* Woken for tasks: our sleeping subtree may help too. */
            if (tasks_pending(b) && !round_over(r))
                barrier_tree_wake_subtree(b, id);
        }
        ILAN_LEAVE(im);
    }
}

/* Passes the barrier; returns whether the region is cancelled (only asked
 * by cancellable waits, which then return at once). */
static bool barrier_pass(struct barrier *b, bool cancellable)
{
    if (cancellable && atomic_load_explicit(&b->cancelled, memory_order_acquire))
        return true;
    unsigned id = ilan_tls.team_id;
    /* The round is read before arriving: it cannot move before we arrive,
     * because the round needs our arrival. */
    struct barrier_round r = {b, seq_read(&b->release), cancellable};
    if (!b->tree) {
        if (!barrier_arrive(b, id)) {
            ILAN_BARRIER_WAIT();
            task_wait_until(&ilan_tls, round_over, &r);
        }
    } else {
        barrier_tree_enter(b, id);
        if (!barrier_arrive(b, id)) {
            if (wait_oversubscribed()) {
                /* More threads than CPUs: no idle CPU would run the tree's
                 * wake-ups in parallel, so sleep where one system call
                 * wakes everyone (the work word, as the central barrier). */
                ILAN_BARRIER_WAIT();
                task_wait_until(&ilan_tls, round_over, &r);
            } else {
                tree_wait(&r, id);
            }
        }
        barrier_tree_leave(b, id);
    }
    return cancellable && atomic_load_explicit(&b->cancelled, memory_order_acquire);
}

void barrier_wait(struct barrier *b)
{
    barrier_pass(b, false);
}

bool barrier_wait_cancellable(struct barrier *b)
{
    return barrier_pass(b, true);
}

void barrier_wait_team(struct ilan_thread *ts)
{
    struct team *t = ts->team;
    /* A team of one still completes its tasks at a barrier. */
    if (t && (t->nthreads > 1 ||
              atomic_load_explicit(&t->barrier.task_pending, memory_order_relaxed)))
        barrier_wait(&t->barrier);
}
