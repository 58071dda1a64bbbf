/* barrier.c — the team barrier's arrival and release protocol, tasking-aware: central counter or tree (ILAN_BARRIER). */
#include "core/barrier.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "base/fence.h"
#include "config/env.h"
#include "sched/barrier_tree.h"
#include "topo/bind.h"
#include "topo/places.h"
#include "topo/topo.h"

/* ---- the tree's shape ------------------------------------------------------ */

/* Thread i's core, last-level cache and node (key[l][i]) from its place;
 * -1 where the place has no CPU the model knows. */
static void tree_keys(const struct bind_team *bind, unsigned n, int *key[BTREE_LEVELS])
{
    for (unsigned i = 0; i < n; i++) {
        int place = bind->slots[i].place;
        int core = place >= 0 && (unsigned)place < places.os.n &&
                           places.os.first[place] < places.os.first[place + 1]
                       ? topo_core_of_cpu(places.os.cpus[places.os.first[place]])
                       : -1;
        key[BTREE_CORE][i] = core;
        key[BTREE_LLC][i] = core < 0 ? -1 : topo.core_llc[core];
        key[BTREE_NODE][i] = core < 0 ? -1 : topo.core_node[core];
    }
}

/* Builds the tree of a team of n: bound, grouped by the places' core,
 * cache and node; unbound, by team id alone (the OS moves unbound threads
 * between cores at will). */
static void tree_build(struct barrier *b, unsigned n, const struct bind_team *bind)
{
    if (b->nodes_cap < n) {
        free(b->nodes);
        free(b->child);
        b->nodes = aligned_alloc(ILAN_CACHE_LINE, n * sizeof *b->nodes);
        b->child = malloc(n * sizeof *b->child);
        if (!b->nodes || !b->child)
            ilan_fatal("out of memory starting a parallel region of %u threads", n);
        b->nodes_cap = n;
    }
    /* parent, first (n + 1), scratch (2n), keys (3n) in one block */
    unsigned *work = malloc((4 * (size_t)n + 1) * sizeof *work + 3 * (size_t)n * sizeof(int));
    if (!work)
        ilan_fatal("out of memory starting a parallel region of %u threads", n);
    unsigned *parent = work, *first = work + n, *scratch = work + 2 * n + 1;
    int *keys = (int *)(work + 4 * n + 1);
    int *key[BTREE_LEVELS] = {NULL, NULL, NULL};
    if (bind && bind->kind && bind->slots) {
        for (unsigned l = 0; l < BTREE_LEVELS; l++)
            key[l] = keys + l * n;
        tree_keys(bind, n, key);
    }
    btree_build(n, config.barrier_fanin, (const int *const *)key, parent, scratch);
    btree_children(n, parent, first, b->child);
    memset(b->nodes, 0, n * sizeof *b->nodes);
    for (unsigned i = 0; i < n; i++) {
        struct barrier_node *nd = &b->nodes[i];
        nd->parent = parent[i];
        nd->child_first = first[i];
        nd->child_end = first[i + 1];
        nd->init = 1 + first[i + 1] - first[i];
        atomic_store_explicit(&nd->count, nd->init, memory_order_relaxed);
    }
    free(work);
}

void barrier_init(struct barrier *b, unsigned n, const struct bind_team *bind)
{
    assert(n > 0);
    assert(atomic_load_explicit(&b->task_pending, memory_order_relaxed) == 0 &&
           "a region began with tasks of the previous one pending");
    assert(atomic_load_explicit(&b->task_hungry, memory_order_relaxed) == 0 &&
           "a thread of the previous region is still counted as waiting for a task");
    b->nthreads = n;
    atomic_store_explicit(&b->remaining, n, memory_order_relaxed);
    b->tree = config.barrier == BARRIER_TREE && n > 1;
    if (b->tree) {
        int key[8] = {(int)n, (int)config.barrier_fanin, bind ? (int)bind->kind : 0};
        if (bind && bind->kind)
            memcpy(key + 3, bind->key, sizeof bind->key);
        if (b->tree_dirty || memcmp(key, b->shape_key, sizeof key) != 0) {
            tree_build(b, n, bind);
            memcpy(b->shape_key, key, sizeof key);
            b->tree_dirty = false;
        }
    }
    atomic_store_explicit(&b->tree_held, 0, memory_order_relaxed);
    atomic_store_explicit(&b->cancelled, false, memory_order_relaxed);
    atomic_store_explicit(&b->loop_cancelled, false, memory_order_relaxed);
}

void barrier_destroy(struct barrier *b)
{
    free(b->nodes);
    free(b->child);
    b->nodes = NULL;
    b->child = NULL;
    b->nodes_cap = 0;
    memset(b->shape_key, 0, sizeof b->shape_key);
}

/* ---- arrival ------------------------------------------------------------------ */

static bool tree_root_complete(struct barrier *b);

/*
 * Gathering without locks: each node's counter starts at 1 + its children.
 * A thread decrements its own node's; whoever takes a counter to 0 (the
 * node's last arrival: its own thread or a child subtree's carrier) resets
 * it for the next round and carries the arrival to the parent. Nobody
 * waits to pass an arrival on, so a parent that is not running (threads
 * outnumber cores) never holds the gathering up, and a hot team's worker
 * can still arrive and leave at once. The reset is safe before the carry:
 * the node cannot be decremented again before the round is released, which
 * needs this carry, and the release publishes it (the decrements are
 * acq_rel RMWs up to the root, whose releaser bumps `release`).
 */
bool barrier_tree_arrive(struct barrier *b, unsigned id)
{
    struct barrier_node *nd = &b->nodes[id];
    if (nd->init == 1 && nd->parent != BTREE_NO_PARENT)
        nd = &b->nodes[nd->parent]; /* a leaf: its own arrival completes its node */
    for (;;) {
        if (atomic_fetch_sub_explicit(&nd->count, 1, memory_order_acq_rel) != 1)
            return false;
        if (nd->parent == BTREE_NO_PARENT)
            return tree_root_complete(b); /* the root: every thread arrived */
        atomic_store_explicit(&nd->count, nd->init, memory_order_relaxed);
        nd = &b->nodes[nd->parent];
    }
}

/* ---- release and waking -------------------------------------------------------- */

/*
 * Makes sure thread c, and through it its subtree, learns that the round
 * is over (released or cancelled). The caller has seen that (or made it
 * so) and then fenced. A thread asleep on its word is woken: it will do
 * the same for its children as it leaves. A thread waiting awake watches
 * `release` and will too. Any other (it has not entered its wait yet, left
 * already, or left the region at once: a hot team's worker at the end) is
 * passed through: its children are seen to here.
 * Why no wake-up is lost: a waiter sets its word's sleep bit, fences, and
 * looks at `release` again before it sleeps; the waker saw the release,
 * fenced, and reads the bit: either the waker sees the bit, or the waiter
 * sees the release (seq_cst fences; the waker may have only read the
 * release, as the releaser's bump is coherence-ordered between the two
 * looks). The bit is read before `waiting`, so a waiter passed over as
 * "waiting" cannot have gone to sleep unseen.
 */
static void tree_wake_over(struct barrier *b, unsigned c)
{
    struct barrier_node *nd = &b->nodes[c];
    if (atomic_load_explicit(&nd->wake.word, memory_order_relaxed) & SEQ_SLEEPERS) {
        seq_bump(&nd->wake);
        return;
    }
    if (atomic_load_explicit(&nd->waiting, memory_order_relaxed))
        return; /* any value read is safe: see barrier_tree_enter */
    for (unsigned k = nd->child_first; k < nd->child_end; k++)
        tree_wake_over(b, b->child[k]);
}

/* Wakes every sleeper of c's subtree (for tasks, or a cancellation): the
 * asleep are woken (for tasks they wake their own subtrees in turn), the
 * others passed through. */
static void tree_wake_all(struct barrier *b, unsigned c)
{
    struct barrier_node *nd = &b->nodes[c];
    if (atomic_load_explicit(&nd->wake.word, memory_order_relaxed) & SEQ_SLEEPERS) {
        seq_bump(&nd->wake);
        return;
    }
    for (unsigned k = nd->child_first; k < nd->child_end; k++)
        tree_wake_all(b, b->child[k]);
}

/*
 * Leaving. With nobody asleep on a node's word (tree_sleepers 0, the
 * common case) there is nothing to wake, and no fence: the leaver reads
 * `release` again and then tree_sleepers, both seq_cst, and a would-be
 * sleeper counts itself (seq_cst) before it reads `release` (seq_cst)
 * once more. Its read of the old round precedes the release's bump in
 * coherence order, which precedes the leaver's read of the new one, so
 * the leaver's read of tree_sleepers comes after its count in the single
 * order of seq_cst operations: a leaver that reads 0 leaves a sleeper
 * that will see the release. A region cancelled is not this path's
 * concern: barrier_cancel wakes every sleeper itself.
 */
void barrier_tree_leave(struct barrier *b, unsigned id)
{
    struct barrier_node *nd = &b->nodes[id];
    (void)atomic_load_explicit(&b->release.word, memory_order_seq_cst);
    if (atomic_load_explicit(&b->tree_sleepers, memory_order_seq_cst)) {
        ilan_fence_seq_cst(); /* after seeing the release: see tree_wake_over */
        for (unsigned k = nd->child_first; k < nd->child_end; k++)
            tree_wake_over(b, b->child[k]);
    }
    atomic_store_explicit(&nd->waiting, false, memory_order_relaxed);
}

void barrier_tree_wake_subtree(struct barrier *b, unsigned id)
{
    struct barrier_node *nd = &b->nodes[id];
    ilan_fence_seq_cst();
    for (unsigned k = nd->child_first; k < nd->child_end; k++)
        tree_wake_all(b, b->child[k]);
}

/* Ends the round: clears what the round ends (a static loop's cancel),
 * bumps `release` and wakes who sleeps. Exactly one thread per round. */
static void barrier_release(struct barrier *b)
{
    if (atomic_load_explicit(&b->loop_cancelled, memory_order_relaxed))
        atomic_store_explicit(&b->loop_cancelled, false, memory_order_relaxed);
    seq_bump(&b->release);
    if (!b->tree) {
        barrier_wake_idle(b); /* waiters sleep on the work word */
        return;
    }
    /* Tree: the node sleepers down the barrier's tree from its root; the
     * work word's sleepers (waiting with tasks pending, or oversubscribed)
     * down a relay tree when each has a CPU to wake others from, else in
     * one system call (n futex calls on 2 CPUs cost more than one: waking
     * 63 sleepers took 271 us down the tree, 90 us at once). */
    ilan_fence_seq_cst(); /* orders the bump before the looks below (Dekker) */
    unsigned sleepers = atomic_load_explicit(&b->task_sleepers, memory_order_relaxed);
    if (sleepers && wait_oversubscribed())
        seq_bump(&b->task_work);
    else if (sleepers)
        seq_bump_tree(&b->task_work, &b->task_relay, sleepers);
    if (atomic_load_explicit(&b->tree_sleepers, memory_order_relaxed))
        tree_wake_over(b, 0);
}

/*
 * Release, central. `remaining` reaches 0 when the last thread arrives;
 * then the round may be released only once no task is pending, and
 * several threads may see both conditions at once (the last arriver, a
 * thread running tasks that completed the last one, a sleeper woken by
 * that completion). The CAS of `remaining` from 0 back to nthreads elects
 * one releaser. A thread that sees 0 while its own round is not released
 * knows that 0 belongs to its round: the next round cannot complete
 * without it. The releaser bumps `release` rather than setting it to
 * round + 1 because a concurrent barrier_cancel may have bumped it
 * already: every bump must change the word, or a thread that saw the
 * cancel's value would sleep on.
 *
 * Release, tree. The last arriver at the root releases at once when no
 * task is pending: every thread has arrived, and only a task (counted in
 * task_pending) can make another, so nobody else can see the round
 * complete. Otherwise it marks the round held (`tree_held`, seq_cst) and
 * looks at task_pending again; whoever then sees task_pending at 0 with
 * the round held takes it (a CAS of tree_held from 1 to 0) and releases.
 * Its waiters never read the root's counter, so the arrivals' line stays
 * with the arriving threads (a central waiter's reads of `remaining`
 * pulled it away from the last arriver just before its CAS). Why the
 * hand-over cannot be missed: the last arriver's store of tree_held
 * precedes its load of task_pending in the seq_cst order; a thread that
 * later reads task_pending at 0 (seq_cst) reads it after that load, as
 * the completion that zeroed it came after, so its load of tree_held,
 * after its own, sees the mark.
 */
bool barrier_try_release(struct barrier *b)
{
    if (b->tree) {
        unsigned held = 1;
        if (!atomic_load_explicit(&b->tree_held, memory_order_seq_cst) ||
            atomic_load_explicit(&b->task_pending, memory_order_seq_cst) != 0 ||
            !atomic_compare_exchange_strong_explicit(&b->tree_held, &held, 0, memory_order_acq_rel,
                                                     memory_order_relaxed))
            return false;
        barrier_release(b);
        return true;
    }
    if (atomic_load_explicit(&b->remaining, memory_order_acquire) != 0 ||
        atomic_load_explicit(&b->task_pending, memory_order_acquire) != 0)
        return false;
    unsigned zero = 0;
    if (!atomic_compare_exchange_strong_explicit(&b->remaining, &zero, b->nthreads,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return false;
    barrier_release(b);
    return true;
}

/* The tree's last arrival (see barrier_try_release). */
static bool tree_root_complete(struct barrier *b)
{
    struct barrier_node *root = &b->nodes[0];
    atomic_store_explicit(&root->count, root->init, memory_order_relaxed);
    if (atomic_load_explicit(&b->task_pending, memory_order_seq_cst) == 0) {
        barrier_release(b);
        return true;
    }
    atomic_store_explicit(&b->tree_held, 1, memory_order_seq_cst);
    return barrier_try_release(b);
}

void barrier_cancel(struct barrier *b)
{
    bool expected = false;
    if (!atomic_compare_exchange_strong_explicit(&b->cancelled, &expected, true,
                                                 memory_order_acq_rel, memory_order_acquire))
        return;
    /* Release the waiters of the current round. The round's counters are
     * not reset: after cancellation no cancellable wait counts arrivals
     * again, and the team's next region re-initializes the barrier (the
     * tree's counters too: tree_dirty). Tasks still pending are discarded
     * as threads meet them (task_execute) and drained at the region's end. */
    if (b->tree)
        b->tree_dirty = true;
    seq_bump(&b->release);
    /* Wakes every tree sleeper, not only those the release's rule
     * reaches: threads that leave because they saw `cancelled` may not
     * have seen this bump yet, so they cannot be relied on to wake their
     * children. A sleeper either was counted and its sleep bit seen here
     * (after barrier_wake_idle's fence), or it sees the bump. */
    barrier_wake_idle(b);
}

void barrier_wake_idle(struct barrier *b)
{
    /* Pairs with the fence in task_wait_until's sleep path (Dekker): either
     * we see the sleeper's count, or it sees what we published. The same
     * for the tree's sleepers (barrier_wait.c). */
    ilan_fence_seq_cst();
    if (atomic_load_explicit(&b->task_sleepers, memory_order_relaxed))
        seq_bump(&b->task_work);
    if (atomic_load_explicit(&b->tree_sleepers, memory_order_relaxed))
        tree_wake_all(b, 0);
}

void barrier_wake_completion(struct barrier *b)
{
    ilan_fence_seq_cst(); /* as in barrier_wake_idle, with task_wait_until's sleep path */
    if (atomic_load_explicit(&b->cond_sleepers, memory_order_relaxed))
        seq_bump(&b->task_work);
}

void barrier_wake_one(struct barrier *b)
{
    ilan_fence_seq_cst(); /* as in barrier_wake_idle */
    if (atomic_load_explicit(&b->task_sleepers, memory_order_relaxed))
        seq_bump_tree(&b->task_work, &b->task_relay, 1);
}

void barrier_wake_idle_tree(struct barrier *b, unsigned most)
{
    assert(most >= 1);
    ilan_fence_seq_cst(); /* as in barrier_wake_idle; with team_await_next's, for task_lookers */
    unsigned sleepers = atomic_load_explicit(&b->task_sleepers, memory_order_relaxed);
    unsigned lookers = atomic_load_explicit(&b->task_lookers, memory_order_relaxed);
    if (most != UINT_MAX)
        most = lookers < most ? most - lookers : 0;
    if (sleepers && most)
        seq_bump_tree(&b->task_work, &b->task_relay, sleepers < most ? sleepers : most);
    if (atomic_load_explicit(&b->tree_sleepers, memory_order_relaxed))
        tree_wake_all(b, 0);
}
