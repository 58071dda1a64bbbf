/* team.c — starting and ending parallel regions: team size, dispatch, join and nesting. */
#include "core/team.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "core/affinity_fmt.h"
#include "core/bubble.h"
#include "core/mutex.h"
#include "core/pool.h"
#include "core/task_alloc.h"
#include "core/task_exec.h"
#include "core/task_mode.h"
#include "core/barrier_wait.h"
#include "core/task_sched.h"
#include "core/ws.h"
#include "core/ws_steal.h"
#include "base/fence.h"
#include "os/linux/affinity.h"
#include "os/linux/thread.h"
#include "mem/move.h"
#include "sched/start_tree.h"
#include "topo/bind.h"
#include "topo/topo.h"
#include "instr/counters.h"

_Atomic unsigned team_busy_threads = 1; /* the initial thread */

static void team_unstaff_hot(struct team *t);
static void team_run_worker(void *job, unsigned team_id);

/* Frees a team none of whose workers is in it any more: each has left its
 * last region there, but may still be in its last few instructions that
 * touch the team (the bump of `finished`), so this waits until each has
 * returned from that run. Only the thread that owns the team. */
static void team_free_after_runs(struct team *t)
{
    for (unsigned i = 1; i < t->nthreads; i++)
        pool_wait_run(t->workers[i], t->worker_runs[i]);
    team_free(t);
}

/* Frees the calling thread's hot and spare teams (its hot team's workers
 * go back to the pool) and the state it keeps for loops and tasks. For
 * its exit: a pool worker's when it retires, a user thread's when it ends,
 * so that a program that starts many threads, each with its own parallel
 * regions, does not keep their workers and teams. */
static void team_thread_exit(struct ilan_thread *ts)
{
    ws_steal_thread_exit();
    ws_solo_thread_exit();
    task_alloc_thread_exit();
    if (ts->hot_team) {
        team_unstaff_hot(ts->hot_team);
        team_free(ts->hot_team);
        ts->hot_team = NULL;
    }
    while (ts->spare_teams) {
        struct team *t = ts->spare_teams;
        ts->spare_teams = t->next_spare;
        team_free_after_runs(t);
    }
}

/* os_thread_at_exit's function for threads the pool did not create. */
static void team_user_thread_exit(void *arg)
{
    team_thread_exit(arg);
}

void team_watch_thread_exit(struct ilan_thread *ts)
{
    if (ts->worker == NULL && os_thread_at_exit(team_user_thread_exit, ts) != 0)
        ilan_warn("cannot watch a thread's exit: its parallel regions' threads will stay "
                  "after it ends");
}

/* In a child of fork() only the forking thread exists: its hot team's
 * workers are gone (the struct is leaked on purpose), and it is the only
 * busy thread. */
static void team_forget_after_fork(void)
{
    atomic_store_explicit(&team_busy_threads, 1, memory_order_relaxed);
    ilan_tls.hot_team = NULL;
}

static void team_register_hooks(void)
{
    pool_set_exit_hook(team_thread_exit);
    pthread_atfork(NULL, NULL, team_forget_after_fork);
}

unsigned team_resolve_size(unsigned num_threads, bool if_clause, const struct icv *icv,
                           unsigned active_level, unsigned busy_threads, unsigned num_procs)
{
    if (!if_clause || active_level >= icv->max_active_levels)
        return 1;
    unsigned n = num_threads ? num_threads : icv->nthreads;
    /* The encountering thread already counts as busy, and joins the team. */
    unsigned available = icv->thread_limit > busy_threads ? icv->thread_limit - busy_threads + 1 : 1;
    if (icv->dyn) {
        unsigned idle_cpus = num_procs > busy_threads ? num_procs - busy_threads + 1 : 1;
        if (n > idle_cpus)
            n = idle_cpus;
    }
    if (n > available)
        n = available;
    return n ? n : 1;
}

/* The contention group count the calling thread's regions use. */
static _Atomic unsigned *team_cgroup(const struct ilan_thread *ts)
{
    return ts->cgroup_busy ? ts->cgroup_busy : &team_busy_threads;
}

/* Resolves the size n of a region the calling thread is about to start and
 * claims its n - 1 new threads in the contention group's busy count, in one
 * step: regions started at the same moment by threads of a nested team
 * cannot together pass OMP_THREAD_LIMIT. Released by team_end. */
static unsigned team_reserve(struct ilan_thread *ts, unsigned num_threads, bool if_clause,
                             unsigned active_level)
{
    _Atomic unsigned *group = team_cgroup(ts);
    unsigned busy = atomic_load_explicit(group, memory_order_relaxed);
    for (;;) {
        unsigned n = team_resolve_size(num_threads, if_clause, &ts->icv, active_level, busy,
                                       icv_global.num_procs);
        if (n == 1)
            return 1;
        if (atomic_compare_exchange_weak_explicit(group, &busy, busy + n - 1,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            if (group == &team_busy_threads)
                wait_update_plan(busy + n - 1, pool_threads() + 1);
            return n;
        }
    }
}

/* A team with room for n threads: the calling thread's hot team for
 * top-level regions of non-pool threads (the same workers, hence the same
 * cores, region after region), else one of its spare teams, else a new one. */
static struct team *team_obtain(struct ilan_thread *ts, unsigned n, bool top_level)
{
    struct team *t = top_level ? ts->hot_team : ts->spare_teams;
    if (t && !top_level)
        ts->spare_teams = t->next_spare;
    if (!t) {
        static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;
        pthread_once(&hooks_once, team_register_hooks);
        t = aligned_alloc(ILAN_CACHE_LINE, sizeof *t);
        if (!t)
            ilan_fatal("out of memory starting a parallel region of %u threads", n);
        memset(t, 0, sizeof *t);
        t->pooled_workers = !top_level;
        if (top_level)
            ts->hot_team = t;
    }
    if (t->capacity < n) {
        struct worker **grown = realloc(t->workers, n * sizeof *grown);
        unsigned *runs = grown ? realloc(t->worker_runs, n * sizeof *runs) : NULL;
        if (!runs)
            ilan_fatal("out of memory starting a parallel region of %u threads", n);
        t->workers = grown;
        t->worker_runs = runs;
        t->capacity = n;
        /* Release: a waiting worker that loads the new array sees it filled. */
        atomic_store_explicit(&t->cpus,
                              cpu_share_reserve(atomic_load_explicit(&t->cpus, memory_order_relaxed), n),
                              memory_order_release);
    }
    return t;
}

/* Waits until *count (one of unfinished, helpers, leaving) is 0; whoever
 * brings it to 0 bumps `finished` (team_count_down). Only the master. */
static void team_wait_zero(struct team *t, _Atomic unsigned *count)
{
    for (;;) {
        unsigned round = seq_read(&t->finished);
        /* seq_cst: pairs with team_help's registration (Dekker). */
        if (atomic_load_explicit(count, memory_order_seq_cst) == 0)
            return;
        seq_wait_past(&t->finished, round);
    }
}

/* Takes one from *count, telling the master when it reaches 0. A bump
 * may land after the master has moved on to the team's next region:
 * teams are never freed while they have workers, every bump changes the
 * word, and team_wait_zero re-checks its count after each wake-up. */
static void team_count_down(struct team *t, _Atomic unsigned *count)
{
    if (atomic_fetch_sub_explicit(count, 1, memory_order_acq_rel) == 1)
        seq_bump(&t->finished);
}

/* Tells the hot team's waiting workers that a region started. They sleep
 * on the team's work word (team_await_next): one wake-up reaches them
 * all, so starting a region costs the master one system call at most,
 * whatever its size. Only the master, after writing what they are to read. */
static void team_signal_start(struct team *t)
{
    atomic_store_explicit(&t->staffed, t->nthreads, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->region_seq, 1, memory_order_release);
    barrier_wake_idle(&t->barrier);
}

/* Dismisses the hot team's workers from team_id `from` on (its size was
 * `have`) and returns them to the pool once each has left the team's
 * wait. Only the master, between regions. */
static void team_dismiss(struct team *t, unsigned from, unsigned have)
{
    t->nthreads = from;
    atomic_store_explicit(&t->leaving, have - from, memory_order_relaxed);
    atomic_store_explicit(&t->staffed, from, memory_order_release);
    barrier_wake_idle(&t->barrier);
    team_wait_zero(t, &t->leaving);
    pool_release(t->workers + from, have - from);
}

/* The hot team keeps its workers between regions: grow or shrink the set to
 * n - 1, keeping workers 1..min(old,new)-1 in place. Returns how many
 * threads stay (they wait in team_await_next; the others need a dispatch). */
static unsigned team_staff_hot(struct team *t, unsigned n)
{
    unsigned have = t->nthreads ? t->nthreads : 1;
    if (n > have)
        pool_acquire(t->workers + have, n - have);
    else if (n < have)
        team_dismiss(t, n, have);
    return have < n ? have : n;
}

/* Sends a hot team's workers back to the pool, keeping the team itself,
 * and waits until none of them touches it any more (the team may then be
 * freed). Only its master, between regions. */
static void team_unstaff_hot(struct team *t)
{
    unsigned have = t->nthreads;
    if (have > 1) {
        team_dismiss(t, 1, have);
        for (unsigned i = 1; i < have; i++)
            pool_wait_run(t->workers[i], t->worker_runs[i]);
    }
    t->nthreads = 1;
}

/* Prepares the per-region shared state of a team of n threads. */
static void team_reset(struct team *t, unsigned n)
{
    barrier_init(&t->barrier, n, &t->bind);
    atomic_store_explicit(&t->single_claimed, 0, memory_order_relaxed);
    t->copyprivate = NULL;
    for (unsigned i = 0; i < ILAN_WS_RING; i++) {
        atomic_store_explicit(&t->ws_ring[i].claimed, 0, memory_order_relaxed);
        atomic_store_explicit(&t->ws_ring[i].published_k, 0, memory_order_relaxed);
        atomic_store_explicit(&t->ws_ring[i].left, n, memory_order_relaxed);
    }
}

/* The ICVs the implicit tasks of a region start with: the encountering
 * task's, moved one step down the OMP_NUM_THREADS / OMP_PROC_BIND lists.
 * Past the end of the OMP_PROC_BIND list, a proc_bind clause (0: none)
 * becomes the new tasks' bind-var while binding is on, even for a team of
 * one (as libgomp: omp_get_proc_bind() inside reports the clause). */
static struct icv child_icv_of(const struct icv *parent, unsigned proc_bind)
{
    struct icv c = *parent;
    unsigned pos = parent->nthreads_pos + 1u;
    if (pos < icv_global.nthreads_list_len) {
        c.nthreads = icv_global.nthreads_list[pos];
        c.nthreads_pos = (unsigned char)pos;
    }
    pos = parent->bind_pos + 1u;
    if (pos < icv_global.bind_list_len) {
        c.bind = icv_global.bind_list[pos];
        c.bind_pos = (unsigned char)pos;
    } else if (proc_bind >= ICV_BIND_PRIMARY && proc_bind <= ICV_BIND_SPREAD &&
               parent->bind != ICV_BIND_FALSE) {
        c.bind = proc_bind;
    }
    return c;
}

/* The calling thread's state at the start of an implicit task of t. */
static void thread_enter_team(struct ilan_thread *ts, struct team *t, unsigned team_id)
{
    ts->team = t;
    ts->team_id = team_id;
    ts->icv = t->child_icv;
    task_thread_enter(ts, t, team_id);
    ts->ws_seq = 0;
    ts->single_seq = 0;
    ts->ws = NULL;
    memset(&ts->loop, 0, sizeof ts->loop);
    /* A region inside a host teams construct belongs to the master's team
     * of the league. */
    ts->cgroup_busy = t->cgroup_busy;
    ts->teams_num = t->master_saved.teams_num;
    ts->teams_count = t->master_saved.teams_count;
    /* Pinned only when its place changes; shown when first in a region or
     * moved. Unbound, it says where it runs: the next region's ILAN groups
     * follow the CPUs the threads ran on. */
    bool moved = t->bind.kind && bind_enter(&ts->bind, &t->bind, team_id);
    if (moved) /* memory attached to this thread follows it (ilan_mem_attach) */
        mem_follow((struct mem_owner){t, team_id}, bind_self_node());
    if ((!t->bind.kind && t->ilan && topo_num_nodes() > 1) || wait_oversubscribed())
        cpu_share_note_cpu(atomic_load_explicit(&t->cpus, memory_order_relaxed), team_id,
                           os_current_cpu());
    if (__builtin_expect(icv_global.display_affinity, 0) && (moved || !ts->affinity_shown)) {
        ts->affinity_shown = true;
        struct affinity_info info;
        team_affinity_fields(&info);
        affinity_print_line(icv_global.affinity_format, &info);
    }
}

/* Restores the calling thread's state saved in `saved`, keeping what
 * describes the thread itself rather than its task: its hot team, its spare
 * teams, its OS binding and its count of task starts. */
static void thread_restore(struct ilan_thread *ts, const struct ilan_thread *saved)
{
    struct team *hot = ts->hot_team;
    struct team *spare = ts->spare_teams;
    int bound = ts->bind.bound_place;
    bool shown = ts->affinity_shown;
    unsigned long starts = ts->task_starts; /* "ever": counts on (instr derives from it) */
    *ts = *saved;
    ts->task_starts = starts;
    ts->hot_team = hot;
    ts->spare_teams = spare;
    ts->bind.bound_place = bound;
    ts->affinity_shown = shown;
}

/* Makes the calling thread start inside the team's first worksharing
 * construct (combined parallel loop / sections). */
static void thread_enter_first_ws(struct ilan_thread *ts, struct team *t)
{
    ts->ws_seq = 1;
    ts->ws = &t->ws_ring[1 % ILAN_WS_RING];
}

/* The implicit barrier at the end of a region. Every thread waits there,
 * running the team's tasks, until all have arrived and none is pending: a
 * task created late by one thread is shared by the others (a thread that
 * left at once would leave it all to its creator). After a cancellation the
 * wait returns at once and the queued tasks are drained (discarded). */
static void team_end_barrier(struct ilan_thread *ts, struct team *t)
{
    if (t->nthreads > 1)
        barrier_wait_cancellable(&t->barrier);
    task_region_drain(ts);
}

/*
 * A hot team's worker at the end of a region, when no task is pending and
 * the region is not cancelled: it arrives at the barrier and leaves at
 * once, without waiting for the release. Were it to wait, every worker
 * would have to be scheduled once more before the master could go on,
 * a context switch per worker when threads outnumber cores. It goes on
 * watching the region's tasks from team_await_next, and helps with any
 * that appear before the join (team_help). Returns false when it must
 * take the full barrier instead.
 */
static bool team_worker_depart(struct team *t, unsigned team_id)
{
    struct barrier *b = &t->barrier;
    if (t->pooled_workers || t->nthreads == 1 ||
        atomic_load_explicit(&b->task_pending, memory_order_relaxed) != 0 ||
        atomic_load_explicit(&b->cancelled, memory_order_relaxed))
        return false;
    barrier_arrive(b, team_id); /* the arrival is this worker's last touch of the round */
    return true;
}

/* team_help's condition: no task pending, or the region is joined. */
struct help_round {
    struct team *t; /* the team */
    unsigned seq;   /* region_seq of the region helped */
};

static bool help_over(void *arg)
{
    struct help_round *h = arg;
    return atomic_load_explicit(&h->t->barrier.task_pending, memory_order_acquire) == 0 ||
           atomic_load_explicit(&h->t->closed_seq, memory_order_acquire) == h->seq;
}

/* A worker that left region `seq` (team_worker_depart) runs its tasks
 * while the master has not joined it. It registers in `helpers` before it
 * checks that the region is still open, and the master closes the region
 * before it waits for `helpers` to drop to 0 (all seq_cst): either the
 * master waits for this helper, or the helper sees the region closed.
 * Returns whether it helped. */
static bool team_help(struct ilan_thread *ts, struct team *t, unsigned seq)
{
    atomic_fetch_add_explicit(&t->helpers, 1, memory_order_seq_cst);
    bool open = atomic_load_explicit(&t->closed_seq, memory_order_seq_cst) != seq;
    if (open) {
        struct help_round h = {t, seq};
        ILAN_REGION_RESUME(t->fn); /* its tasks nest in the region's record and trace slice */
        task_wait_until(ts, help_over, &h);
        ILAN_REGION_END();
    }
    team_count_down(t, &t->helpers);
    return open;
}

/* What a hot team's worker between regions watches (team_await_next). */
struct await_next {
    struct team *t;   /* its team */
    unsigned team_id; /* its number there */
    unsigned seq;     /* region_seq of the region it left */
};

/* Whether the worker has something to do: a region started, it was
 * dismissed, or the region it left has tasks to help with. */
static bool await_next_ready(void *arg)
{
    struct await_next *a = arg;
    struct team *t = a->t;
    return atomic_load_explicit(&t->region_seq, memory_order_relaxed) != a->seq ||
           a->team_id >= atomic_load_explicit(&t->staffed, memory_order_relaxed) ||
           (atomic_load_explicit(&t->barrier.task_pending, memory_order_relaxed) != 0 &&
            atomic_load_explicit(&t->closed_seq, memory_order_relaxed) != a->seq);
}

/* Whether an oversubscribed waiter of hot team t (team_id self, region
 * seq) between regions or at the join may keep its CPU: no task is
 * pending (it would go and look for it) and cpu_share_alone says so. */
static bool team_cpu_idle(struct team *t, unsigned self, unsigned seq, bool master_counts)
{
    if (atomic_load_explicit(&t->barrier.task_pending, memory_order_relaxed) != 0)
        return false;
    return cpu_share_alone(atomic_load_explicit(&t->cpus, memory_order_acquire),
                           atomic_load_explicit(&t->staffed, memory_order_relaxed),
                           atomic_load_explicit(&team_busy_threads, memory_order_relaxed), self,
                           seq, master_counts);
}

/* await_next's alone: the master runs elsewhere and so do the workers
 * still in the region. */
static bool await_next_alone(void *arg)
{
    struct await_next *a = arg;
    return team_cpu_idle(a->t, a->team_id, a->seq, true);
}

/* Where a hot team's worker waits after region *seq: until the master
 * starts the next region (true, *seq updated) or dismisses it (false),
 * helping with the region's tasks meanwhile. It polls the team's words
 * as the wait plan says, then sleeps on the team's work word as a task
 * sleeper, so that a task push, the next region's start
 * (team_signal_start) and a dismissal all wake it with one bump; while
 * it polls it is not counted, and a start costs the master no bump.
 * group_sleepers: where it counts itself asleep for the taskloop mode
 * (task_mode_ops.sleepers_of, asked in the region: the mode's state may
 * be rebuilt by the next region's start while this thread sleeps here). */
static bool team_await_next(struct ilan_thread *ts, struct team *t, unsigned team_id,
                            unsigned *seq, _Atomic unsigned *group_sleepers)
{
    struct barrier *b = &t->barrier;
    struct await_next a = {t, team_id, *seq};
    for (;;) {
        /* What it found is re-read below. While it polls it counts as a
         * looker: a launch then wakes a sleeper less, as this thread will
         * see the work (barrier_wake_idle_tree). It stops counting before
         * it counts itself a sleeper, and looks once more after the fence
         * below: either the launch saw it gone or it sees the launch's work. */
        atomic_fetch_add_explicit(&b->task_lookers, 1, memory_order_relaxed);
        (void)wait_poll_alone(await_next_ready, await_next_alone, &a);
        atomic_fetch_sub_explicit(&b->task_lookers, 1, memory_order_relaxed);
        unsigned now = atomic_load_explicit(&t->region_seq, memory_order_acquire);
        if (now != *seq) {
            *seq = now;
            return true;
        }
        if (team_id >= atomic_load_explicit(&t->staffed, memory_order_acquire))
            return false;
        if (await_next_ready(&a)) {
            team_help(ts, t, *seq);
            continue;
        }
        unsigned w = seq_read(&b->task_work);
        atomic_fetch_add_explicit(&b->task_sleepers, 1, memory_order_relaxed);
        if (group_sleepers)
            atomic_fetch_add_explicit(group_sleepers, 1, memory_order_relaxed);
        ilan_fence_seq_cst(); /* pairs with barrier_wake_idle's fence */
        bool ready = await_next_ready(&a);
        wait_debug_delay(); /* a start or a push now must still wake us */
        if (!ready)
            seq_sleep(&b->task_work, w);
        if (group_sleepers)
            atomic_fetch_sub_explicit(group_sleepers, 1, memory_order_relaxed);
        atomic_fetch_sub_explicit(&b->task_sleepers, 1, memory_order_relaxed);
        barrier_relay_wake(b);
    }
}

/* Dispatches the threads that thread `id` starts in the region's start
 * tree (sched/start_tree.h): the master calls it once the team is set up,
 * and every dispatched worker calls it before its own work, so that a
 * large team's threads are created and woken by many threads at once.
 * What the master wrote before its dispatches is visible to every thread
 * down the tree (each dispatch releases what its dispatcher saw). */
static void team_start_children(struct team *t, unsigned id)
{
    unsigned lo;
    unsigned count = start_tree_children(id, t->start_from, t->nthreads, ILAN_START_FANOUT, &lo);
    for (unsigned i = lo; i < lo + count; i++)
        t->worker_runs[i] = pool_dispatch(t->workers[i], team_run_worker, t, i);
}

/* A worker's part in a region (pool_dispatch's job: the team). A hot
 * team's worker stays in the team from region to region (team_await_next)
 * until it is dismissed; a pooled team's worker runs one region. */
static void team_run_worker(void *job, unsigned team_id)
{
    struct team *t = job;
    struct ilan_thread *ts = &ilan_tls;
    team_start_children(t, team_id);
    unsigned seq = atomic_load_explicit(&t->region_seq, memory_order_acquire);
    for (;;) {
        thread_enter_team(ts, t, team_id);
        if (t->starts_in_ws)
            thread_enter_first_ws(ts, t);
        ILAN_REGION_BEGIN(t->fn);
        t->fn(t->data);
        assert(ts->team == t && ts->team_id == team_id && "implicit task returned in another team");
        if (wait_oversubscribed())
            cpu_share_note_done(atomic_load_explicit(&t->cpus, memory_order_relaxed), team_id, seq);
        _Atomic unsigned *group_sleepers = task_mode ? task_mode->sleepers_of(t, team_id) : NULL;
        if (!team_worker_depart(t, team_id))
            team_end_barrier(ts, t);
        ILAN_REGION_END();
        bool hot = !t->pooled_workers;
        team_count_down(t, &t->unfinished);
        if (!hot)
            break;
        if (!team_await_next(ts, t, team_id, &seq, group_sleepers)) {
            team_count_down(t, &t->leaving);
            break;
        }
    }
    ts->team = NULL;
    ts->task = NULL;
}

void team_begin_with_ws(void (*fn)(void *), void *data, unsigned num_threads, bool if_clause,
                        unsigned proc_bind,
                        void (*init_ws)(struct ws *w, void *arg, unsigned nthreads), void *arg)
{
    struct ilan_thread *ts = thread_self();
    struct team *parent = ts->team;
    unsigned level = parent ? parent->level : 0;
    unsigned active_level = parent ? parent->active_level : 0;
    unsigned n = team_reserve(ts, num_threads, if_clause, active_level);

    bool top_level = parent == NULL && ts->worker == NULL && n > 1;
    struct team *t = team_obtain(ts, n, top_level);
    unsigned staying = 1; /* threads already in the team, waiting for its next region */
    if (top_level)
        staying = team_staff_hot(t, n);
    else if (n > 1)
        pool_acquire(t->workers + 1, n - 1);

    t->nthreads = n;
    t->level = level + 1;
    t->active_level = active_level + (n > 1);
    t->parent = parent;
    t->fn = fn;
    t->data = data;
    t->child_icv = child_icv_of(&ts->icv, proc_bind);
    t->cgroup_busy = team_cgroup(ts);
    bind_team_begin(&t->bind, &ts->bind, ts->icv.bind, n, proc_bind);
    if (parent) /* ILAN_BUBBLES: a nested team is a bubble, placed as one */
        bubble_team_begin(t, ts->team_id);
    team_reset(t, n);
    task_team_prepare(t, n);
    if (task_mode)
        task_mode->team_begin(t);
    t->master_saved = *ts;
    t->starts_in_ws = init_ws != NULL;
    if (init_ws) {
        struct ws *w = &t->ws_ring[1 % ILAN_WS_RING];
        init_ws(w, arg, n);
        atomic_store_explicit(&w->claimed, 1, memory_order_relaxed);
        atomic_store_explicit(&w->left, 0, memory_order_relaxed);
        atomic_store_explicit(&w->published_k, 1, memory_order_relaxed);
    }
    thread_enter_team(ts, t, 0);
    if (init_ws)
        thread_enter_first_ws(ts, t);
    ILAN_REGION_BEGIN(fn);

    if (n > 1) {
        atomic_store_explicit(&t->unfinished, n - 1, memory_order_relaxed);
        /* Both release what was written above: the signal to the workers
         * that stayed, and the dispatches down the start tree to the others
         * (after the signal, so that they start from the new region_seq). */
        if (top_level)
            team_signal_start(t);
        t->start_from = staying;
        team_start_children(t, 0);
    }
}

void team_begin(void (*fn)(void *), void *data, unsigned num_threads, bool if_clause,
                unsigned proc_bind)
{
    team_begin_with_ws(fn, data, num_threads, if_clause, proc_bind, NULL, NULL);
}

/* What the master of a hot team watches at the join (team_join_wait). */
struct join_wait {
    struct team *t; /* its team */
    unsigned seq;   /* region_seq of the region being joined */
};

/* Every worker arrived at the end barrier, or it has tasks to run, or the
 * region was cancelled: the barrier proper takes over. */
static bool join_ready(void *arg)
{
    struct barrier *b = &((struct join_wait *)arg)->t->barrier;
    return barrier_others_arrived(b) ||
           atomic_load_explicit(&b->task_pending, memory_order_relaxed) != 0 ||
           atomic_load_explicit(&b->cancelled, memory_order_relaxed);
}

static bool join_alone(void *arg)
{
    struct join_wait *j = arg;
    return team_cpu_idle(j->t, 0, j->seq, false);
}

/* The master of an oversubscribed hot team waits for its workers' arrival
 * before it arrives itself: the barrier's own wait yields every round,
 * while this one spins when the workers still running are on other CPUs
 * (yielding would only bounce the CPU between finished threads). */
static void team_join_wait(struct team *t)
{
    struct join_wait j = {t, atomic_load_explicit(&t->region_seq, memory_order_relaxed)};
    (void)wait_poll_alone(join_ready, join_alone, &j); /* past the plan: the barrier waits */
}

void team_end(void)
{
    struct ilan_thread *ts = &ilan_tls;
    struct team *t = ts->team;
    assert(t != NULL && ts->team_id == 0 && "team_end without a region begun by this thread");
    assert(ts->ws == NULL && "a region ended inside a worksharing construct");
    if (t->nthreads > 1 && !t->pooled_workers && wait_oversubscribed())
        team_join_wait(t);
    team_end_barrier(ts, t);
    ILAN_REGION_END();
    unsigned n = t->nthreads;
    if (n > 1) {
        /* Hot-team workers that left without waiting for the release
         * (team_worker_depart) count as finished once they arrived; then
         * the region is closed to helpers, and those already helping are
         * waited for. */
        team_wait_zero(t, &t->unfinished);
        if (!t->pooled_workers) {
            atomic_store_explicit(&t->closed_seq,
                                  atomic_load_explicit(&t->region_seq, memory_order_relaxed),
                                  memory_order_seq_cst);
            team_wait_zero(t, &t->helpers);
        }
        unsigned busy =
            atomic_fetch_sub_explicit(t->cgroup_busy, n - 1, memory_order_relaxed) - (n - 1);
        /* The n - 1 workers are beginning their idle waits and want CPUs
         * until they sleep: a plan counting only busy threads would let a
         * worker that reads it late spin for milliseconds on a CPU the
         * master needs (15 idle workers on 2 CPUs burnt 120 ms). The next
         * team_reserve counts again. */
        if (t->cgroup_busy == &team_busy_threads)
            wait_update_plan(busy + n - 1, pool_threads() + 1);
        if (t->pooled_workers)
            pool_release(t->workers + 1, n - 1);
    }
    thread_restore(ts, &t->master_saved);
    if (t != ts->hot_team) {
        t->next_spare = ts->spare_teams;
        ts->spare_teams = t;
    }
}

void team_run_as_initial_task(void (*fn)(void *), void *arg, unsigned thread_limit)
{
    struct ilan_thread *ts = thread_self();
    struct ilan_thread saved = *ts;
    ts->team = NULL;
    ts->team_id = 0;
    ts->task = NULL;
    ts->ws = NULL;
    ts->hot_team = NULL;
    ts->teams_num = 0;
    ts->teams_count = 0;
    /* A fresh data environment: the initial task's ICVs, as a device
     * starts with them; whatever the region changes is dropped below. */
    ts->icv = icv_global.initial;
    if (thread_limit)
        ts->icv.thread_limit = thread_limit;
    /* ... and a contention group of its own, holding this thread. */
    _Atomic unsigned busy = 1;
    ts->cgroup_busy = &busy;
    fn(arg);
    struct team *hot = ts->hot_team;
    if (hot) {
        team_unstaff_hot(hot);
        hot->pooled_workers = true;
        hot->next_spare = ts->spare_teams;
        ts->spare_teams = hot;
    }
    ts->hot_team = saved.hot_team;
    thread_restore(ts, &saved);
}

void team_affinity_fields(struct affinity_info *in)
{
    struct ilan_thread *ts = thread_self();
    struct team *t = ts->team;
    in->level = t ? (int)t->level : 0;
    in->thread_num = t ? (int)ts->team_id : 0;
    in->num_threads = t ? (int)t->nthreads : 1;
    /* The thread number one level up is the master's number there. */
    in->ancestor_tnum = t ? (int)t->master_saved.team_id : -1;
    in->team_num = ts->teams_count ? ts->teams_num : 0;
    in->num_teams = ts->teams_count ? ts->teams_count : 1;
}

void team_free(struct team *t)
{
    task_team_destroy(t);
    if (task_mode)
        task_mode->team_free(t);
    for (unsigned i = 0; i < ILAN_WS_RING; i++)
        ws_loop_destroy(&t->ws_ring[i].loop);
    bind_team_free(&t->bind);
    barrier_destroy(&t->barrier);
    bubble_team_forget(t);
    free(t->workers);
    free(t->worker_runs);
    cpu_share_free(atomic_load_explicit(&t->cpus, memory_order_relaxed));
    free(t);
}

void team_pause(void)
{
    struct ilan_thread *ts = thread_self();
    if (ts->hot_team)
        team_unstaff_hot(ts->hot_team);
    pool_retire_idle();
    while (ts->spare_teams) {
        struct team *t = ts->spare_teams;
        ts->spare_teams = t->next_spare;
        team_free_after_runs(t);
    }
}
