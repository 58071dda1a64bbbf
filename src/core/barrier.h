/* barrier.h — the team barrier's words and its arrival and release protocol: a centralized counter, or a tree of per-thread counters (ILAN_BARRIER), plus the sequence word threads watch. */
#ifndef ILAN_CORE_BARRIER_H
#define ILAN_CORE_BARRIER_H

#include <stdalign.h>
#include <stdbool.h>
#include "core/wait.h"
#include "base/tunables.h"

struct bind_team;

/*
 * One thread's place in the tree barrier (ILAN_BARRIER=tree; shape from
 * sched/barrier_tree.h). Two cache lines: the gathering counter, which the
 * thread and the threads carrying its children's arrivals write, and the
 * wake line, which the thread writes when it waits and its waker when the
 * round is over.
 */
struct barrier_node {
    alignas(ILAN_CACHE_LINE) _Atomic unsigned count; /* arrivals this node still waits for
                                                        this round: its thread's and one per
                                                        child subtree */
    unsigned init;                                   /* 1 + children: count between rounds */
    unsigned parent;                                 /* parent's team id (BTREE_NO_PARENT: root) */
    unsigned child_first;                            /* its children are child[child_first ..
                                                        child_end - 1] of the barrier */
    unsigned child_end;                              /* see child_first */
    alignas(ILAN_CACHE_LINE) seqword wake;           /* the thread sleeps on it in a barrier
                                                        wait (bit 0: asleep or about to be) */
    _Atomic bool waiting;                            /* in a barrier wait: it wakes its children
                                                        itself when it leaves */
};

/*
 * Central (ILAN_BARRIER=central): arrivals count down `remaining`; the last
 * arriver resets it and advances `release`, which the others watch. Tree
 * (the default where measured faster): arrivals go up a tree of counters
 * (barrier_node), the last arriver of a node carrying its arrival to the
 * parent, so no counter is written by more than fan-in + 1 threads; the
 * root's last arriver releases. Either way the release is one bump of
 * `release`, which spinning and yielding waiters watch; tree waiters sleep
 * on their own node's word and are woken down the tree (core/README.md,
 * "The barrier"). The words different threads write live on separate
 * cache lines. Cancellation (cancel parallel) sets `cancelled` and advances
 * `release` early; every later cancellable wait then returns at once.
 * `loop_cancelled` records a `cancel for` in a loop that has no work-share
 * slot (gcc inlines schedule(static)); such a loop ends at this barrier, so
 * the round that completes clears it.
 */
struct barrier {
    alignas(ILAN_CACHE_LINE) _Atomic unsigned remaining; /* central: threads still to arrive
                                                            this round */
    unsigned nthreads;                                   /* team size the barrier counts */
    bool tree;                                           /* this team uses the tree */
    bool tree_dirty;                                     /* a cancelled round left the tree's
                                                            counters mid-way */
    struct barrier_node *nodes;                          /* tree: nodes[team id] */
    unsigned *child;                                     /* tree: the children lists */
    unsigned nodes_cap;                                  /* entries allocated in nodes[], child[] */
    int shape_key[8];                                    /* what the tree's shape was built for */
    alignas(ILAN_CACHE_LINE) seqword release;            /* advanced once per completed round */
    _Atomic unsigned tree_held;                          /* tree: 1 while a round every thread
                                                            arrived at waits for its tasks */
    _Atomic bool cancelled;                              /* the region was cancelled */
    _Atomic bool loop_cancelled;                         /* an inlined static loop was cancelled */
    /* The team's tasks, here because the barrier's release condition reads
     * them: a round is released when all threads arrived AND no explicit
     * task of the team is pending (see task_sched.c). */
    alignas(ILAN_CACHE_LINE) _Atomic unsigned long task_pending; /* deferred tasks not complete */
    alignas(ILAN_CACHE_LINE) _Atomic unsigned task_sleepers; /* threads asleep (or going to
                                                                sleep) on task_work */
    _Atomic unsigned cond_sleepers;                      /* those of them waiting for a
                                                            condition a task's completion may
                                                            make true (task_wait_until) */
    _Atomic unsigned tree_sleepers;                      /* tree waiters asleep (or going to
                                                            sleep) on their node's word */
    _Atomic unsigned task_hungry;                        /* threads waiting that found no task
                                                            (creators then defer more) */
    _Atomic unsigned task_lookers;                       /* idle workers awake and watching for
                                                            tasks to help with (team_await_next):
                                                            a bounded wake-up leaves that many
                                                            takers to them */
    seqword task_work;                                   /* bumped, when task_sleepers != 0, by
                                                            pushes and releases, and when
                                                            cond_sleepers != 0 by completions */
    _Atomic unsigned task_relay;                         /* wake-ups of task_work's sleepers a
                                                            tree wake-up still owes (seq_relay) */
};

/* Prepares the barrier for a team of n placed as `bind` says (the tree
 * groups threads by the core, cache and node of their places; unbound
 * threads by team id alone). The tree's shape is rebuilt only when the
 * team's size, the fan-in or the placement changed. Only while no thread
 * uses it. */
void barrier_init(struct barrier *b, unsigned n, const struct bind_team *bind);

/* Frees what barrier_init allocated (the team is being freed). */
void barrier_destroy(struct barrier *b);

/* Releases the current round if every thread has arrived and no task is
 * pending; exactly one of the threads that call it for a round wins (a CAS:
 * central, of `remaining` from 0 back to nthreads; tree, of tree_held from
 * 1 to 0) and returns true. */
bool barrier_try_release(struct barrier *b);

/* The tree's arrival: up the tree as far as this thread is a node's last. */
bool barrier_tree_arrive(struct barrier *b, unsigned id);

/* Thread `id` arrives; returns true when it released the round (it was
 * the last and no task was pending: the no-task fast path costs one load
 * of task_pending more than a task-less barrier). Waiting for the others
 * is barrier_wait.c's, which runs the team's tasks meanwhile. */
static inline bool barrier_arrive(struct barrier *b, unsigned id)
{
    if (b->tree)
        return barrier_tree_arrive(b, id);
    return atomic_fetch_sub_explicit(&b->remaining, 1, memory_order_acq_rel) == 1 &&
           barrier_try_release(b);
}

/* Whether every thread but one (the caller, who has not arrived) has
 * arrived this round: a hint for the master's join (relaxed). */
static inline bool barrier_others_arrived(struct barrier *b)
{
    _Atomic unsigned *root = b->tree ? &b->nodes[0].count : &b->remaining;
    return atomic_load_explicit(root, memory_order_relaxed) <= 1;
}

/* Tree: thread `id` is about to wait (or to leave at once) this round:
 * from now until barrier_tree_leave a release reaching it leaves the
 * waking of its children to it. Before its arrival. Relaxed: a waker that
 * reads the flag stale acts safely either way (1 seen after the thread
 * left: it has woken its children already; 0 seen while it waits: the
 * waker does its children's waking too), and its sleep is found by its
 * word's bit, read first. */
static inline void barrier_tree_enter(struct barrier *b, unsigned id)
{
    atomic_store_explicit(&b->nodes[id].waiting, true, memory_order_relaxed);
}

/* Tree: thread `id`, which saw its round released or the region
 * cancelled, wakes its children (those asleep, and through those that are
 * not waiting, theirs) and stops waiting. */
void barrier_tree_leave(struct barrier *b, unsigned id);

/* Tree: thread `id`, woken from its node's word while tasks are pending,
 * wakes the sleepers of its subtree so that they help run them. */
void barrier_tree_wake_subtree(struct barrier *b, unsigned id);

/* Wakes threads sleeping on the team's work word, and tree waiters
 * asleep on their node's word, if any. Called after something they may
 * wait for happened (a push, a completion, a release). */
void barrier_wake_idle(struct barrier *b);

/* What a task's completion (or the end of work a thread held the team's
 * pending count for) wakes: only the sleepers waiting for a condition it
 * may make true (a taskwait, a taskgroup's end, a barrier's last tasks).
 * Workers idle between regions and barrier waiters with nothing pending
 * wait for work, a start or a release, which a completion is not: waking
 * them at every completion kept 14 idle threads of a 16-thread team on 2
 * CPUs cycling between sleep and 200 us of yields, one wake-up of all of
 * them per taskloop. */
void barrier_wake_completion(struct barrier *b);

/* barrier_wake_idle for a push of work for many threads (a taskloop's
 * range launch): at most `most` (>= 1; UINT_MAX: all) of the sleepers are
 * woken down a tree (seq_bump_tree), each woken thread waking the next
 * ones, rather than all by the caller, and fewer by as many idle workers
 * as are awake watching for tasks (task_lookers), which will take the
 * work without a system call. The others stay asleep until the next full
 * wake-up. */
void barrier_wake_idle_tree(struct barrier *b, unsigned most);

/* Wakes one thread asleep on the team's work word, if any: a wake-up
 * passed on by a thread that found work queued only for others
 * (task_mode_ops.wake_owed). */
void barrier_wake_one(struct barrier *b);

/* What a thread that slept on the team's work word does once awake:
 * passes on the wake-ups a tree still owes (one load when none). */
static inline void barrier_relay_wake(struct barrier *b)
{
    seq_relay(&b->task_work, &b->task_relay);
}

/* Marks the region cancelled and releases every thread waiting in a
 * cancellable wait. Any team thread may call, more than once. */
void barrier_cancel(struct barrier *b);

#endif
