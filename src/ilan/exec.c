/* exec.c — one execution of an ILAN taskloop: the configuration it runs, its tasks made and queued on the chosen groups, and its time measured and recorded. */
#include "ilan/exec.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/fatal.h"
#include "base/prefetch.h"
#include "config/env.h"
#include "config/icv.h"
#include "core/handoff.h"
#include "core/task.h"
#include "core/task_queue.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "core/wait.h"
#include "ilan/data.h"
#include "ilan/groups.h"
#include "ilan/history.h"
#include "ilan/range.h"
#include "instr/counters.h"
#include "os/linux/affinity.h"
#include "os/linux/clock.h"
#include "topo/topo.h"
#include "sched/taskloop_split.h"

/* Writes " {a,b,c}" for the groups of cfg into buf. */
static void format_groups(const struct mold *m, struct mold_config cfg, char *buf, size_t size)
{
    unsigned ids[64];
    unsigned k = cfg.ngroups <= 64 ? mold_groups(m, cfg, ids) : 0;
    size_t used = (size_t)snprintf(buf, size, "%u group%s", cfg.ngroups, cfg.ngroups == 1 ? "" : "s");
    for (unsigned j = 0; j < k && used + 12 < size; j++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", j ? "," : " {", ids[j]);
    if (k && used + 2 < size)
        snprintf(buf + used, size - used, "}");
    else if (!k && used + 6 < size)
        snprintf(buf + used, size - used, " {..}");
}

static const char *phase_name(const struct mold *m)
{
    enum mold_phase p = m->phase;
    return p == MOLD_SIZE ? "exploring" : p == MOLD_STEAL ? "trying full stealing"
                        : p == MOLD_CONFIRM ? "confirming"
                        : p == MOLD_SETTLED ? (m->rechecking ? "settled, re-checking every group"
                                                             : "settled")
                                            : "fixed";
}

/* ILAN_VERBOSE: one line per decision (every exploring run, the moment a
 * choice is made or dropped, the first run of a fixed taskloop), written
 * into line[0..size-1] (left empty when there is nothing to say). time:
 * what was recorded; opened_s >= 0: the run was opened to every thread
 * that far into it, its pace having projected `time` (watch_pace), and
 * ended after took_s. before, was_rechecking: the phase and the re-check
 * flag before the run was recorded. h locked. */
static void say_decision(struct taskloop_hist *h, struct mold_config ran, double time,
                         double opened_s, double took_s, enum mold_phase before,
                         bool was_rechecking, char *line, size_t size)
{
    const struct mold *m = &h->mold;
    bool first_fixed = m->phase == MOLD_FIXED && m->executions == 1;
    if (m->phase == MOLD_SETTLED && before == MOLD_SETTLED && !was_rechecking && !m->rechecking)
        return;
    if (m->phase == MOLD_FIXED && !first_fixed)
        return;
    char ran_s[160], next_s[160], opened[128] = "";
    if (opened_s >= 0)
        snprintf(opened, sizeof opened,
                 " projected (opened to every thread at %.3f ms, ended at %.3f ms)",
                 opened_s * 1e3, took_s * 1e3);
    format_groups(m, ran, ran_s, sizeof ran_s);
    format_groups(m, mold_next(m), next_s, sizeof next_s);
    const char *sym = ilan_history_symbol(h);
    snprintf(line, size,
            "ilan: taskloop %s%s%p (%llu iterations, %u threads) run %u: %s %s, %.3f ms%s; "
            "next: %s %s (%s)\n",
            sym, sym[0] ? " at " : "", (void *)(uintptr_t)h->fn, (unsigned long long)h->iterations,
            h->nthreads, m->executions, ran_s, ran.full ? "full" : "strict", time * 1e3, opened,
            next_s, mold_next(m).full ? "full" : "strict", phase_name(m));
}

/* ILAN_VERBOSE: what the calibration run measured, into line. h locked. */
static void say_calibration(struct taskloop_hist *h, double time, char *line, size_t size)
{
    const char *sym = ilan_history_symbol(h);
    snprintf(line, size,
            "ilan: taskloop %s%s%p (%llu iterations, %u threads) calibration run: %.3f ms, "
            "%.3f ms of work: %u task(s) per thread from now on (%u when launched per task; "
            "exploring)\n",
            sym, sym[0] ? " at " : "", (void *)(uintptr_t)h->fn, (unsigned long long)h->iterations,
            h->nthreads, time * 1e3, h->work_ns * 1e-6,
            numa_dist_tasks_per_worker(h->work_ns, h->nthreads, NUMA_DIST_GRAIN_RANGE),
            numa_dist_tasks_per_worker(h->work_ns, h->nthreads, NUMA_DIST_GRAIN_TASKS));
}

/* u64 words between two threads' end times: one cache line each, since
 * every thread writes its own after each task. */
#define SLOT_STRIDE (ILAN_CACHE_LINE / sizeof(uint64_t))

/* Frees a finished record's launch if it has its own allocation, and keeps
 * the record as its team's spare (or frees it when a spare is kept
 * already). Whoever finishes the execution, once nothing refers to it. */
static void exec_recycle(struct taskloop_exec *exec)
{
    if (exec->launch && (void *)exec->launch != exec->launch_room)
        free(exec->launch);
    struct taskloop_exec *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&exec->team_ilan->spare_exec, &none, exec,
                                                 memory_order_release, memory_order_relaxed))
        free(exec);
}

/*
 * Every task of exec is done: record the measurement, recycle exec.
 * joined_ns: when its creator, which waited, saw the last task done; the
 * run's time then ends there, join included, which is what the program
 * waited. 0 when the last task finishes it (nogroup): its time is the
 * last task's end. The threads' end times, on lines of their own that
 * each miss here, are read only when the time or the history needs them
 * (taskloop_plan_wants_group_times): a settled run's join then touches no
 * line its runners wrote but the taskgroup's.
 */
static void exec_finish(struct taskloop_exec *exec, uint64_t joined_ns)
{
    uint64_t mine = atomic_load_explicit(&exec->open_ns, memory_order_relaxed);
    if (mine) /* no longer pending (unless a later run set its own) */
        atomic_compare_exchange_strong_explicit(&exec->team_ilan->open_at_ns, &mine, 0,
                                                memory_order_relaxed, memory_order_relaxed);
    if (atomic_load_explicit(&exec->drained, memory_order_relaxed))
        atomic_fetch_sub_explicit(&exec->team_ilan->drained_execs, 1, memory_order_relaxed);
    struct taskloop_hist *h = exec->hist;
    const struct team_groups *groups = &exec->team_ilan->groups;
    if (h) {
        unsigned G = groups->ngroups;
        unsigned nthreads = groups->nthreads;
        double group_times[G], end_s[nthreads];
        /* The ILAN_VERBOSE line is made under the lock, written after it. */
        char line[640];
        line[0] = '\0'; /* most runs say nothing: no need to clear the rest */
        mutex_lock(&h->lock);
        bool by_group = taskloop_plan_wants_group_times(&h->mold, &exec->plan);
        double took = joined_ns > exec->start_ns ? (double)(joined_ns - exec->start_ns) * 1e-9 : 0;
        unsigned workers = exec->workers;
        if (by_group || !joined_ns || exec->plan.calibration) {
            for (unsigned i = 0; i < nthreads; i++) {
                /* An end before the start is an older execution's: none of this one's tasks. */
                uint64_t end = exec->slot_end[i * SLOT_STRIDE];
                end_s[i] = end > exec->start_ns ? (double)(end - exec->start_ns) * 1e-9 : 0;
            }
            double last = taskloop_plan_times(end_s, nthreads, groups->slot_group,
                                              exec->participates, G, group_times);
            if (!joined_ns)
                took = last;
            if (exec->plan.calibration)
                workers = taskloop_plan_threads_ran(end_s, nthreads);
        }
        double time = took, opened_s = -1;
        if (atomic_load_explicit(&exec->opened_early, memory_order_relaxed)) {
            opened_s = (double)(atomic_load_explicit(&exec->open_ns, memory_order_relaxed) -
                                exec->start_ns) * 1e-9;
            if (exec->projected_s > took)
                time = exec->projected_s;
        }
        if (exec->data) {
            h->data_runs++;
            h->data_tasks += exec->data->ntasks;
            h->data_on_node += atomic_load_explicit(&exec->data->on_node, memory_order_relaxed);
            h->data_array = exec->data->array;
            h->data_size = exec->data->size;
        }
        enum mold_phase before = h->mold.phase;
        bool was_rechecking = h->mold.rechecking;
        taskloop_plan_record(&h->mold, &h->work_ns, &exec->plan, time,
                             by_group ? group_times : NULL, workers);
        if (config.verbose >= 1 && exec->plan.calibration)
            say_calibration(h, time, line, sizeof line);
        else if (config.verbose >= 1 && exec->plan.recorded)
            say_decision(h, exec->plan.cfg, time, opened_s, took, before, was_rechecking, line,
                         sizeof line);
        mutex_unlock(&h->lock);
        ilan_history_release(h);
        if (line[0])
            fputs(line, stderr);
    }
    if (exec->data) {
        ilan_data_account(exec->data);
        ilan_data_free(exec->data);
    }
    exec_recycle(exec);
}

/* What a runner needs of its execution, carried in its task's argument
 * block: read from there, not from the record, a runner of a taskloop
 * whose creator waits touches no line of the record but its own end-time
 * slot. */
struct runner_args {
    struct taskloop_exec *exec; /* the execution it works for */
    struct ilan_launch *launch; /* exec->launch */
    uint64_t *slot_end;         /* exec->slot_end */
    unsigned range;             /* the range (group of the configuration) it runs first */
    bool creator_waits;         /* exec->finished_by_creator */
    bool watch_cpus;            /* exec->watch_cpus */
    bool watched;               /* the run has a cut-off: its runners report their pace
                                   (watch_range) */
};

/* Teams up to this size offer runners to single threads (core/handoff.h):
 * the record keeps room for an offer per thread. */
#define OFFER_MAX_THREADS 64

/* A runner offered to one thread (core/handoff.h) instead of queued as a
 * task: no descriptor to make, queue and complete. Kept in the execution
 * record, and rewritten only where it changed since the record's last
 * launch, so that the thread finds its cached copy still valid. */
struct exec_offer {
    struct runner_args args; /* its runner's argument */
    unsigned target;         /* the thread's slot */
    uint64_t ticket;         /* the offer's (task_handoff_reclaim) */
};

/* A group's share of the CPUs when a team has `ngroups` groups: at least
 * one (runners_cap, open_ranges). */
static unsigned group_cpu_share(unsigned ngroups)
{
    unsigned cpus = icv_global.num_procs;
    return cpus > ngroups ? cpus / ngroups : 1;
}

/* A runner task of a range launch, to queue. `joined`: its creator, the
 * taskloop's creator, which waits, joins it in the taskloop's taskgroup
 * before its task may do anything else; else a child of the calling
 * task (which the taskgroup, if any, counts as well). */
static struct task *runner_task(const struct runner_args *a, bool joined);
static void watch_range(void *ctx, unsigned count);

/* The range a runner works on first: its own (a->range); or, when the
 * launch's runners follow their CPU (an unbound team whose groups are
 * NUMA nodes: the OS may have moved the thread since the region began),
 * the range of the node of the CPU it runs on now, if that node takes
 * part. */
static unsigned runner_range(const struct ilan_launch *l, unsigned mine)
{
    if (l->ranges[mine].node < 0)
        return mine;
    int core = topo_core_of_real_cpu(os_current_cpu());
    int node = core < 0 ? -1 : topo.core_node[core];
    for (unsigned j = 0; j < l->nranges; j++)
        if (l->ranges[j].node == node)
            return j;
    return mine;
}

/*
 * A runner of a launch with watch_cpus set, about to work: groups without
 * places say nothing of where their threads run, and while threads
 * outnumber CPUs a launch gets one runner per CPU (runners_cap), so two
 * runners (the creator working is one) can share a CPU for the whole run
 * while another CPU has none: a strict run then took twice its time. The
 * first runner on a CPU marks it; a later one queues one runner more for
 * its range and wakes a sleeper, which the OS likely starts on an idle
 * CPU (at most as many as CPUs in all). Returns the CPU's bit when this
 * runner marked it (to clear when it is done), else 0. Any runner.
 */
static uint64_t spread_runner(struct ilan_thread *ts, const struct runner_args *a)
{
    struct taskloop_exec *exec = a->exec;
    int cpu = os_current_cpu();
    if (cpu < 0 || cpu >= 64)
        return 0;
    uint64_t bit = 1ull << cpu;
    if (!(atomic_fetch_or_explicit(&exec->runner_cpus, bit, memory_order_relaxed) & bit))
        return bit;
    if (ilan_range_empty(a->launch) ||
        atomic_fetch_add_explicit(&exec->runners_added, 1, memory_order_relaxed) >=
            icv_global.num_procs)
        return 0;
    /* As open_ranges: a child of this task, which the taskloop's taskgroup
     * counts (watch_cpus needs a creator that waits). */
    struct task *t = runner_task(a, false);
    ilan_groups_push(ts, a->launch->ranges[a->range].group, true, t, t, 1);
    ILAN_COUNT(runners_spread);
    task_queue_wake_tree(ts, ts->team, 1);
    return 0;
}

/* Works as the runner `a` on the calling thread ts: runs tasks of its
 * range (or of its node's, runner_range), then other groups' shareable
 * ones, then records when this thread finished its last one. With
 * nogroup the last runner records the execution and frees it: the caller
 * touches a->exec no more. */
static void runner_work(struct ilan_thread *ts, const struct runner_args *a)
{
    struct ilan_launch *l = a->launch;
    /* The range's line, which its creator has just written, and this
     * thread's end-time slot, which the last execution's recorder read:
     * asked for now, they arrive while the rest is set up, not when the
     * first claim and the end are on the way to the join. */
    prefetch_for_write(&l->ranges[a->range]);
    prefetch_for_write(&a->slot_end[ts->team_id * SLOT_STRIDE]);
    uint64_t cpu_bit = a->watch_cpus ? spread_runner(ts, a) : 0;
    /* A worker's share is measured as its part of the taskloop (counters,
     * OS counters read once at each end, not per task). */
    struct instr_mark im = ILAN_TASKLOOP_JOIN(l->body.fn);
    bool foreign;
    bool home = ts->team->ilan->groups.slot_group[ts->team_id] == l->ranges[a->range].group;
    if (ilan_range_work(l, runner_range(l, a->range), a->range, home, &foreign,
                        a->watched ? watch_range : NULL, (void *)a))
        a->slot_end[ts->team_id * SLOT_STRIDE] = os_clock_ns();
    if (cpu_bit)
        atomic_fetch_and_explicit(&a->exec->runner_cpus, ~cpu_bit, memory_order_relaxed);
    ILAN_TASKLOOP_LEAVE(im);
    /* Every task claimed, some of them from another group's range: that
     * group's runners may still be queued with nothing left to do, and any
     * thread may now take them so that the join needs no wake-up of the
     * group's threads (ilan/mode.c). A range its own runners emptied
     * needs no mark: their thread is awake and takes the others from its
     * own group's queue. */
    struct taskloop_exec *exec = a->exec;
    if (foreign && !atomic_load_explicit(&exec->drained, memory_order_relaxed) &&
        ilan_range_empty(l) && !atomic_exchange_explicit(&exec->drained, true, memory_order_relaxed))
        atomic_fetch_add_explicit(&exec->team_ilan->drained_execs, 1, memory_order_relaxed);
    if (a->creator_waits)
        return;
    if (atomic_fetch_sub_explicit(&exec->remaining, 1, memory_order_acq_rel) == 1)
        exec_finish(exec, 0);
}

/* A runner task of a range launch (runner_work). Its task_done does
 * nothing (ilan_exec_task_done), since exec may be gone by then. */
static void range_runner(void *arg)
{
    runner_work(thread_self(), arg);
}

/* `count` more tasks of exec, a run with a cut-off, completed at `now`:
 * true for the one call that sees the run's pace project it past its
 * cut-off (mold_projects_past), which then opens the run to every thread
 * at once, instead of at the cut-off. */
static bool pace_opens(struct taskloop_exec *exec, uint64_t now, unsigned count)
{
    unsigned long done =
        atomic_fetch_add_explicit(&exec->tasks_done, count, memory_order_relaxed) + count;
    uint64_t open = atomic_load_explicit(&exec->open_ns, memory_order_relaxed);
    double projected;
    if (now >= open ||
        !mold_projects_past((double)(now - exec->start_ns) * 1e-9, done, exec->ntasks,
                            exec->workers, (double)(open - exec->start_ns) * 1e-9, &projected) ||
        atomic_exchange_explicit(&exec->opened_early, true, memory_order_relaxed))
        return false;
    /* Read by whoever records exec, after this task's completion. */
    exec->projected_s = projected;
    atomic_store_explicit(&exec->open_ns, now, memory_order_relaxed);
    atomic_store_explicit(&exec->team_ilan->open_at_ns, now, memory_order_relaxed);
    return true;
}

/* Opens a range launch past its cut-off, as the per-task launch is
 * opened to every thread: for each group outside the configuration,
 * queues that group's share of the CPUs in runners of the launch's ranges
 * (any thread may take a placeless group's runner, ilan/mode.c) and wakes
 * as many sleepers. Called once per execution of a creator that waits, by
 * a runner or by the creator working as one: the new runners are children
 * of its task, which the taskloop's taskgroup counts before it can end. */
static void open_ranges(struct ilan_thread *ts, const struct runner_args *a)
{
    struct taskloop_exec *exec = a->exec;
    const struct team_groups *groups = &exec->team_ilan->groups;
    unsigned G = groups->ngroups, per = group_cpu_share(G), queued = 0;
    struct runner_args b = *a;
    assert(a->creator_waits);
    for (unsigned g = 0; g < G; g++) {
        if (exec->participates[g])
            continue;
        struct task *head = NULL, *tail = NULL;
        for (unsigned i = 0; i < per; i++, queued++) {
            b.range = queued % a->launch->nranges;
            task_list_add(&head, &tail, runner_task(&b, false));
        }
        ilan_groups_push(ts, g, true, head, tail, per);
    }
    if (queued)
        task_queue_wake_tree(ts, ts->team, queued);
}

/* ilan_range_work's report of a runner `ctx` (struct runner_args) of a
 * launch with a cut-off: after `count` more of its tasks, opens the
 * launch (open_ranges) once its pace projects it past the cut-off or the
 * cut-off has passed, unless every task is claimed already. */
static void watch_range(void *ctx, unsigned count)
{
    const struct runner_args *a = ctx;
    struct taskloop_exec *exec = a->exec;
    if (atomic_load_explicit(&exec->helped, memory_order_relaxed))
        return;
    uint64_t now = os_clock_ns();
    bool due = pace_opens(exec, now, count) ||
               now >= atomic_load_explicit(&exec->open_ns, memory_order_relaxed);
    if (due && !ilan_range_empty(a->launch) &&
        !atomic_exchange_explicit(&exec->helped, true, memory_order_relaxed))
        open_ranges(thread_self(), a);
}

void ilan_exec_task_done(struct ilan_thread *ts, struct task *t)
{
    if (t->fn == range_runner)
        return;
    struct taskloop_exec *exec = t->exec;
    if (exec->data)
        ilan_data_ran_task(exec->data, t);
    /* Only this thread writes its slot; whoever finishes exec reads it after
     * the tasks' completion (taskgroup end, or `remaining` below). */
    uint64_t now = os_clock_ns();
    exec->slot_end[ts->team_id * SLOT_STRIDE] = now;
    if (atomic_load_explicit(&exec->open_ns, memory_order_relaxed) && pace_opens(exec, now, 1))
        task_queue_wake(ts, ts->team);
    if (exec->finished_by_creator)
        return;
    if (atomic_fetch_sub_explicit(&exec->remaining, 1, memory_order_acq_rel) == 1)
        exec_finish(exec, 0);
}

void ilan_exec_end(struct taskloop_exec *exec)
{
    if (!exec)
        return;
    exec_finish(exec, os_clock_ns());
}

/* The most of a reused record's offers and launch that exec_new asks for
 * ahead of writing them. */
#define WARM_BYTES (32 * ILAN_CACHE_LINE)

/* A new execution record for a team with ILAN state ti and a taskloop
 * body: one allocation, the threads' end times on lines of their own,
 * room for an offer per thread (a team of up to OFFER_MAX_THREADS), then
 * room for a range launch over every group (unless the body's
 * alignment needs a launch of its own). Reuses the team's spare record
 * when it is large enough: a program runs thousands of short taskloops. */
static struct taskloop_exec *exec_new(struct team_ilan *ti, const struct taskloop_body *body)
{
    unsigned n = ti->groups.nthreads, G = ti->groups.ngroups;
    size_t head = (sizeof(struct taskloop_exec) + G * sizeof(bool) + ILAN_CACHE_LINE - 1) /
                  ILAN_CACHE_LINE * ILAN_CACHE_LINE;
    size_t ends = head + (size_t)n * ILAN_CACHE_LINE;
    size_t offers = n <= OFFER_MAX_THREADS ? (n * sizeof(struct exec_offer) + ILAN_CACHE_LINE - 1) /
                                                 ILAN_CACHE_LINE * ILAN_CACHE_LINE
                                           : 0;
    size_t room = ilan_range_size(body, G);
    struct taskloop_exec *exec =
        atomic_exchange_explicit(&ti->spare_exec, NULL, memory_order_acquire);
    if (exec && exec->capacity < ends + offers + room) {
        free(exec);
        exec = NULL;
    }
    /* The lines this execution will write that other threads read or
     * wrote during the last one (its runners read the record and the
     * launch, claim from the ranges, and empty the offer slots they
     * took): asked for all at once here, they arrive while the history is
     * looked up, instead of one miss after another on the way to the
     * launch. Not the end-time slots, which their threads write next. At
     * 2 threads this published a 2-task taskloop's offer 0.25 us sooner.
     * At most WARM_BYTES of offers and launch: a large argument block is
     * mostly unchanged (ilan_range_new keeps what is equal). */
    if (exec) {
        /* The targets first: a read of a line asked for writing waits
         * for the write permission. */
        for (unsigned o = 0; o < exec->noffers; o++)
            task_handoff_warm(exec->offers[o].target);
        prefetch_range_for_write(exec, head, ILAN_CACHE_LINE);
        prefetch_range_for_write((char *)exec + ends,
                                 offers + room < WARM_BYTES ? offers + room : WARM_BYTES,
                                 ILAN_CACHE_LINE);
    }
    size_t capacity = exec ? exec->capacity : ends + offers + room;
    if (exec) {
        /* The end-time slots keep the last execution's times, all older
         * than this one's start (exec_finish ignores them): cleared, each
         * would cost its thread a miss when it writes there next. */
        memset(exec, 0, head);
    } else {
        if (!(exec = aligned_alloc(ILAN_CACHE_LINE, capacity)))
            ilan_fatal("out of memory creating a taskloop for %u threads", n);
        memset(exec, 0, capacity); /* offers and launch room too: both are compared */
    }
    exec->capacity = capacity;
    exec->offers = offers ? (struct exec_offer *)((char *)exec + ends) : NULL;
    exec->launch_room = room ? (char *)exec + ends + offers : NULL;
    exec->participates = (bool *)(exec + 1);
    exec->slot_end = (uint64_t *)((char *)exec + head);
    exec->team_ilan = ti;
    return exec;
}

/* Tasks made for one queue of one group, linked through next_queued. */
struct task_run {
    struct task *head;  /* first task, NULL when the run is empty */
    struct task *tail;  /* last task */
    unsigned count;     /* tasks in the run */
};

/* Makes tasks [lo, hi) of the loop into *run. Nothing is queued yet: every
 * task's copy of the data environment is made before any task may start,
 * as the taskloop construct requires (a task that ran early could write
 * back a lastprivate variable that a later copy would then read). */
static void run_make(struct task_run *run, struct taskloop_exec *exec, iter_ull lo, iter_ull hi,
                     struct task *(*make)(void *, iter_ull), void *arg)
{
    *run = (struct task_run){NULL, NULL, 0};
    for (iter_ull i = lo; i < hi; i++) {
        struct task *t = make(arg, i);
        t->exec = exec;
        t->next_queued = NULL;
        if (run->tail)
            run->tail->next_queued = t;
        else
            run->head = t;
        run->tail = t;
        run->count++;
    }
}

/* Runner tasks a range launch gives group j of the configuration: one per
 * thread of the group, fewer when it has fewer tasks, and no more than
 * the group's share of the CPUs while threads outnumber them (runners_cap). */
static unsigned runners_of(const unsigned *workers, const iter_ull *first, unsigned j,
                           unsigned cap)
{
    iter_ull tasks = first[j + 1] - first[j];
    unsigned most = workers[j] < cap ? workers[j] : cap;
    return tasks < most ? (unsigned)tasks : most;
}

/* The most runners a group's range of a launch of `ntasks` tasks gets in a
 * team of `nthreads` in `ngroups` groups: while threads outnumber CPUs
 * (`oversubscribed`, wait_oversubscribed) and tasks outnumber threads, its
 * share of the CPUs, at least one (a runner more would only wait for a CPU,
 * holding its claimed tasks and the join; and a configuration of fewer
 * groups then uses fewer CPUs, which the mold may find faster); else no
 * limit. With no more tasks than threads each task may still have a thread
 * of its own, as on libgomp, which queues such a taskloop's tasks for the
 * idle threads: a program whose tasks wait for one another keeps working. */
static unsigned runners_cap(bool oversubscribed, iter_ull ntasks, unsigned nthreads,
                            unsigned ngroups)
{
    if (!oversubscribed || !icv_global.num_procs || ntasks <= nthreads)
        return UINT_MAX;
    return group_cpu_share(ngroups);
}

/* How many of a configuration's `threads` can run at once: no more than
 * the CPUs. A taskloop's work (its calibration's time x this) and its task
 * count (tasks per thread x this) count these: with 16 threads on 2 CPUs,
 * counting all 16 took a loop for 8 times its work and cut it into 512
 * tasks where 64 balance it as well. */
static unsigned concurrent_threads(unsigned threads)
{
    unsigned cpus = icv_global.num_procs;
    return cpus && threads > cpus ? cpus : threads;
}

static struct task *runner_task(const struct runner_args *a, bool joined)
{
    struct task *t = joined
                         ? task_create_joined(range_runner, (void *)a, sizeof *a,
                                              _Alignof(struct runner_args))
                         : task_create(range_runner, (void *)a, NULL, sizeof *a,
                                       _Alignof(struct runner_args), 0, 0);
    t->exec = a->exec;
    /* Never discarded by a cancellation, like a task whose block a copy
     * constructor made: a runner must run to account for its launch (a
     * nogroup execution is recorded and freed by its last runner), and
     * each task it claims meets the cancellation itself as an included
     * task (ilan/range.c). */
    t->state_flags |= TASK_COPIED | TASK_RUNNER;
    return t;
}

/* Whether runner argument `kept` is *a for range j (field by field: the
 * padding may differ). */
static bool same_runner(const struct runner_args *kept, const struct runner_args *a, unsigned j)
{
    return kept->exec == a->exec && kept->launch == a->launch && kept->slot_end == a->slot_end &&
           kept->range == j && kept->creator_waits == a->creator_waits &&
           kept->watch_cpus == a->watch_cpus && kept->watched == a->watched;
}

/* Offers the runners of a range launch that a waiting creator ts makes to
 * single threads: for group j of the configuration (ids[j]), up to left[j]
 * of its threads other than ts, each counted off left[j] once its offer is
 * made (a thread with an offer pending keeps its runner queued). The
 * team's pending count is held once an offer is out, until every offer
 * is taken or taken back (ilan_exec_run). */
static void offer_runners(struct ilan_thread *ts, struct taskloop_exec *exec, unsigned k,
                          const unsigned *ids, unsigned *left, const struct runner_args *a)
{
    const struct team_groups *groups = &exec->team_ilan->groups;
    int config_of[OFFER_MAX_THREADS]; /* a group's index in the configuration, -1: none */
    for (unsigned g = 0; g < groups->ngroups; g++)
        config_of[g] = -1;
    for (unsigned j = 0; j < k; j++)
        config_of[ids[j]] = (int)j;
    struct task *parent = task_current_stable();
    for (unsigned i = 0; i < groups->nthreads; i++) {
        int j = config_of[groups->slot_group[i]];
        if (i == ts->team_id || j < 0 || !left[j])
            continue;
        struct exec_offer *o = &exec->offers[exec->noffers];
        if (!same_runner(&o->args, a, (unsigned)j)) {
            o->args = *a;
            o->args.range = (unsigned)j;
        }
        /* Its line is all written before the offer: the taker reads the
         * runner's argument there as soon as the offer is out. */
        if (o->target != i)
            o->target = i;
        if (task_handoff_offer(i, range_runner, &o->args, parent, &a->launch->ranges[j],
                               &o->ticket)) {
            exec->noffers++;
            left[j]--;
        }
    }
    /* Before the wake-up that follows the launch: idle threads look for
     * work only while the team counts some pending. */
    if (exec->noffers)
        task_pending_hold();
}

/* The creator of exec, its own share done: takes back the offers no
 * thread took (exec_offer) and queues their runners as tasks instead,
 * unless every task of the launch is claimed by now. */
static void exec_take_back(struct ilan_thread *ts, struct taskloop_exec *exec)
{
    struct task *parent = task_current_stable(); /* the offers' (offer_runners) */
    unsigned pushed = 0;
    for (unsigned o = 0; o < exec->noffers; o++) {
        struct exec_offer *offer = &exec->offers[o];
        if (!task_handoff_reclaim(offer->target, offer->ticket, parent) ||
            ilan_range_empty(exec->launch))
            continue;
        struct task *t = runner_task(&offer->args, offer->args.creator_waits);
        ilan_groups_push(ts, exec->team_ilan->groups.slot_group[offer->target], true, t, t, 1);
        pushed++;
    }
    if (pushed)
        task_queue_wake_tree(ts, ts->team, pushed);
}

/* Range launch of exec: per group j of the configuration, a range of
 * tasks [first[j], first[j + 1]) and its runners (runners_of): offered to
 * single threads of the group when the creator waits and takes part
 * (offer_runners), else, or when an offer cannot be made, queued as tasks
 * on the group's strict queue in order[] (others' first, ours last). The
 * creator is one of its own group's workers: that group gets one runner
 * fewer, and the creator then works itself (runner_work) as the runner
 * *mine; returns false when its group does not take part. *queued_out:
 * the runners queued or offered (what the wake-up is for). */
static bool launch_ranges(struct ilan_thread *ts, struct taskloop_exec *exec,
                          const struct taskloop_body *body, const struct taskloop_split *split,
                          unsigned k, const unsigned *ids, const unsigned *workers,
                          const iter_ull *first, const iter_ull *strict_end,
                          const unsigned *order, struct runner_args *mine, unsigned *queued_out)
{
    int own = -1;
    for (unsigned j = 0; j < k; j++)
        if (ids[j] == exec->team_ilan->groups.slot_group[ts->team_id])
            own = (int)j;
    /* runners[j]: the threads that will claim from range j; left[j]: the
     * runners it still needs (the creator is one of its own group's) */
    unsigned local[128], *runners = k <= 64 ? local : malloc(2 * k * sizeof *runners);
    if (!runners)
        ilan_fatal("out of memory creating a taskloop for %u thread groups", k);
    unsigned *left = runners + k;
    bool oversubscribed = wait_oversubscribed();
    unsigned queued = 0, cap = runners_cap(oversubscribed, split->ntasks, ts->team->nthreads,
                                           exec->team_ilan->groups.ngroups);
    for (unsigned j = 0; j < k; j++) {
        runners[j] = runners_of(workers, first, j, cap);
        left[j] = runners[j] - ((int)j == own && runners[j]);
        queued += left[j];
    }
    exec->launch =
        ilan_range_new(exec->launch_room, body, split, k, runners, first, strict_end, exec->data,
                       exec->plan.cutoff > 0);
    exec->watch_cpus = oversubscribed && cap != UINT_MAX && exec->finished_by_creator &&
                       exec->team_ilan->groups.model_id[0] < 0;
    /* Unbound threads may have changed node since the region began (when
     * the groups were made): a runner then works for the node it runs on. */
    const struct team_groups *groups = &exec->team_ilan->groups;
    bool follow_cpu = !ts->team->bind.kind && groups->kind == GROUP_NODE;
    for (unsigned j = 0; j < k; j++) {
        exec->launch->ranges[j].group = ids[j];
        if (follow_cpu)
            exec->launch->ranges[j].node = groups->model_id[ids[j]];
    }
    /* Counted before the first runner may end (nogroup: the last records). */
    atomic_store_explicit(&exec->remaining, queued + (own >= 0), memory_order_relaxed);
    struct runner_args a = {exec,
                            exec->launch,
                            exec->slot_end,
                            0,
                            exec->finished_by_creator,
                            exec->watch_cpus,
                            exec->plan.cutoff > 0};
    *mine = a;
    mine->range = (unsigned)own;
    /* A creator that waits, and works itself meanwhile, offers the runners
     * to single threads of their groups; it takes back whatever is not
     * taken by the time its own share is done (exec_take_back). Not while
     * threads outnumber CPUs: the thread offered to is likely not running,
     * while a queued runner goes to whichever thread of its group runs
     * first. */
    if (a.creator_waits && own >= 0 && exec->offers && queued && !oversubscribed)
        offer_runners(ts, exec, k, ids, left, &a);
    for (unsigned step = 0; step < k; step++) {
        unsigned j = order[step];
        struct task *head = NULL, *tail = NULL;
        a.range = j;
        for (unsigned r = 0; r < left[j]; r++)
            task_list_add(&head, &tail, runner_task(&a, a.creator_waits));
        /* After the last push exec belongs to the runners (and the creator,
         * one of them). */
        if (head)
            ilan_groups_push(ts, ids[j], true, head, tail, left[j]);
    }
    if (runners != local)
        free(runners);
    *queued_out = queued;
    return own >= 0;
}

struct taskloop_exec *ilan_exec_run(struct ilan_thread *ts, const struct taskloop_body *body,
                                        iter_ull n, bool grainsize, bool strict,
                                        unsigned long num_tasks, bool creator_waits,
                                        struct taskloop_split *split,
                                        struct task *(*make)(void *arg, iter_ull i), void *arg)
{
    void (*fn)(void *) = body->fn;
    struct team *team = ts->team;
    const struct team_groups *groups = &team->ilan->groups;
    unsigned G = groups->ngroups;
    struct taskloop_exec *exec = exec_new(team->ilan, body);
    unsigned ids_local[64], *ids = G <= 64 ? ids_local : malloc(G * sizeof *ids);
    unsigned workers_local[64], *workers = G <= 64 ? workers_local : malloc(G * sizeof *workers);
    iter_ull first_local[65], *first = G <= 64 ? first_local : malloc((G + 1) * sizeof *first);
    if (!ids || !workers || !first)
        ilan_fatal("out of memory creating a taskloop for %u thread groups", G);

    /* The plan: the history's next configuration, or every group. The
     * ilan mode chooses the task count of a loop without clauses from its
     * measured work: the first execution, on every group, measures it
     * (calibration) before exploration begins. */
    struct taskloop_hist *h = ilan_history_get(fn, n, team->nthreads, G);
    bool chooses_tasks = config.taskloop_mode == TASKLOOP_ILAN && !grainsize && num_tasks == 0;
    double work_ns = 0;
    if (h) {
        mutex_lock(&h->lock);
        h->runs++;
        if (h->mold.ngroups != G) { /* the same team size in other places may not fit */
            mutex_unlock(&h->lock);
            ilan_history_release(h);
            h = NULL; /* run over every group, unrecorded */
        }
    }
    unsigned mine = groups->slot_group[ts->team_id];
    struct taskloop_plan plan =
        taskloop_plan_next(h ? &h->mold : NULL, G, chooses_tasks, h ? h->work_ns : 0,
                           config.forced_steal == 1, groups->model_id[mine] < 0 ? (int)mine : -1,
                           ids);
    if (h) {
        work_ns = chooses_tasks ? h->work_ns : 0;
        h->kind = groups->kind;
        memcpy(h->group_workers, groups->workers, G * sizeof *groups->workers);
        mutex_unlock(&h->lock);
    }
    /* A registered array (ilan_taskloop_data) pins the configuration to
     * the groups on its nodes, strict unless ILAN_STEAL_POLICY=full: the
     * tasks then follow their data (the split below and the bloc layout
     * share numa_dist_runs) whatever exploration would pick. Such a run
     * is neither a calibration nor a sample of the history. */
    if (body->data_array) {
        unsigned kp = ilan_data_groups(body->data_array, body->data_size, team->ilan, ids);
        if (kp) {
            plan = (struct taskloop_plan){.cfg = {kp, config.forced_steal == 1}, .k = kp};
        } /* else ids[] is untouched: the history's choice stands */
    }
    unsigned k = plan.k;
    struct mold_config cfg = plan.cfg;
    unsigned total = 0;
    for (unsigned j = 0; j < k; j++) {
        workers[j] = groups->workers[ids[j]];
        total += workers[j];
        exec->participates[ids[j]] = true;
    }
    /* A run with a cut-off may be opened to every thread, which a
     * per-task launch allows at once (see mode.c); so does a taskloop whose
     * blocks a copy constructor makes need one (ilan_range_fits). The
     * others are launched as ranges, cut finer once their work is known.
     * While threads outnumber CPUs a run with a cut-off is a range launch
     * too, which its runners open (open_ranges): a group's range then has
     * a runner per CPU of its share (runners_cap), while its tasks queued
     * one by one would go to every thread of the group, so a
     * configuration's first run would measure other CPUs than its later
     * ones. At 16 threads one group's per-task run took 1.4 ms and its
     * range runs 2.7-3.3, and that first sample kept the losing size in
     * the search. Not with nogroup: the runners that open such a launch
     * would be children of a runner, which a taskwait of the creator does
     * not wait for. */
    bool by_range = body->cpyfn == NULL &&
                    (plan.cutoff <= 0 || (creator_waits && wait_oversubscribed()));
    unsigned at_once = concurrent_threads(total);
    /* A run with a cut-off is cut as finely as a range launch, queued or
     * not: its pace is judged from its tasks done (mold_projects_past), and
     * 10 tasks of Mandelbrot's rows, cheap ones first, projected a run of
     * one of two groups on time until 13.8 ms of its 35; cut into 32 it
     * was opened at 4.2 ms and took 30 (12 taskloops, ilan / ws at 2
     * threads 1.03 -> 1.01). */
    num_tasks = taskloop_plan_num_tasks(grainsize, num_tasks, work_ns, at_once,
                                        by_range || plan.cutoff > 0);
    *split = taskloop_split_compute(n, grainsize, strict, num_tasks, team->nthreads);
    numa_dist_runs(split->ntasks, k, workers, first);

    exec->data = body->data_array ? ilan_data_new(body->data_array, body->data_size, split,
                                                  body->start, body->step)
                                  : NULL;
    exec->hist = h;
    exec->plan = plan;
    exec->workers = at_once;
    exec->ntasks = split->ntasks;
    ILAN_TASKLOOP_CONFIG(k, total, cfg.full);
    exec->finished_by_creator = creator_waits;
    atomic_store_explicit(&exec->remaining, split->ntasks, memory_order_relaxed);
    exec->start_ns = os_clock_ns();
    if (plan.cutoff > 0) {
        uint64_t open = exec->start_ns + (uint64_t)(plan.cutoff * 1e9);
        atomic_store_explicit(&exec->open_ns, open, memory_order_relaxed);
        atomic_store_explicit(&team->ilan->open_at_ns, open, memory_order_relaxed);
    }
    /* Other groups' runs are queued first, from the one after ours
     * (cyclically), and our own group's last: its threads include us, while
     * the others can start at once. Each group's run is cut into its strict
     * part (only the group's threads take it) and its shared part. After
     * the last push exec belongs to the tasks: read nothing from it. */
    unsigned start = 0;
    while (start < k && ids[start] <= mine)
        start++;
    iter_ull strict_local[64], *strict_end = k <= 64 ? strict_local : malloc(k * sizeof *strict_end);
    unsigned order_local[64], *order = k <= 64 ? order_local : malloc(k * sizeof *order);
    if (!strict_end || !order)
        ilan_fatal("out of memory creating a taskloop for %u thread groups", G);
    for (unsigned j = 0; j < k; j++) {
        /* A group without a place (an unbound thread, a group of its own)
         * has no memory to keep its tasks near: none of them is strict, so
         * that any participating thread may run them. Otherwise two
         * unbound threads that the OS put on one CPU would each wait for
         * the other to run its strict share. */
        bool placed = groups->model_id[ids[j]] >= 0;
        strict_end[j] =
            first[j] + (placed ? numa_dist_strict(first[j + 1] - first[j], cfg.full) : 0);
        order[j] = (start + j) % k;
    }
    struct runner_args own_runner;
    bool runs_own = false;
    unsigned takers = split->ntasks < UINT_MAX ? (unsigned)split->ntasks : UINT_MAX;
    if (by_range && ilan_range_fits(body, split->ntasks)) {
        runs_own = launch_ranges(ts, exec, body, split, k, ids, workers, first, strict_end,
                                 order, &own_runner, &takers);
    } else {
        struct task_run runs_local[128], *runs = k <= 64 ? runs_local : malloc(2 * k * sizeof *runs);
        if (!runs)
            ilan_fatal("out of memory creating a taskloop for %u thread groups", G);
        for (unsigned j = 0; j < k; j++) {
            run_make(&runs[2 * j], exec, first[j], strict_end[j], make, arg);
            run_make(&runs[2 * j + 1], exec, strict_end[j], first[j + 1], make, arg);
        }
        for (unsigned step = 0; step < k; step++) {
            unsigned j = order[step];
            for (unsigned part = 0; part < 2; part++) {
                const struct task_run *r = &runs[2 * j + part];
                if (r->count)
                    ilan_groups_push(ts, ids[j], part == 0, r->head, r->tail, r->count);
            }
        }
        if (runs != runs_local)
            free(runs);
    }
    /* One wake-up for every group's pushes, passed down a tree: each
     * woken worker wakes the next ones. */
    task_queue_wake_tree(ts, team, takers);
    if (strict_end != strict_local)
        free(strict_end);
    if (order != order_local)
        free(order);
    if (ids != ids_local)
        free(ids);
    if (workers != workers_local)
        free(workers);
    if (first != first_local)
        free(first);
    /* The creator runs its own share at once, as one of its group's
     * runners: no runner task to make, queue and find for it. */
    if (runs_own)
        runner_work(ts, &own_runner);
    if (creator_waits && exec->noffers) { /* else exec may be gone */
        exec_take_back(ts, exec);
        /* No offer is left for a thread to take: what runs is counted in
         * the taskgroup, what was taken back is queued and counted as
         * tasks. Released here, in the time the creator would wait for
         * the runners anyway, not after the join. */
        task_pending_release();
    }
    return creator_waits ? exec : NULL;
}

