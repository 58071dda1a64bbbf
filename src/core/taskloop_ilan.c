/* taskloop_ilan.c — mechanism of the ILAN taskloop scheduler: team groups and queues, the history of taskloop identities, task distribution and per-execution timing. */
#include "core/taskloop_ilan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/env.h"
#include "base/fatal.h"
#include "core/task_queue.h"
#include "core/team_desc.h"
#include "core/thread.h"
#include "os/linux/symbols.h"
#include "os/linux/time.h"
#include "sched/taskloop_split.h"
#include "topo/bind.h"
#include "topo/places.h"


/* ---- team state ------------------------------------------------------------ */

/* The model core each thread of team t is grouped by (groups_build's
 * input; -1: a group of its own). Bound: the core of its place. Unbound,
 * cores mean nothing (the OS moves threads between them at will), so each
 * thread is its own group (moldability by thread count) unless the CPUs the
 * threads last ran on span several NUMA nodes: then each counts as on the
 * first core of its node, so the groups are the nodes. That is a best
 * effort, since unbound threads may change node; the report says so. */
static void team_slot_cores(const struct team *t, int *cores)
{
    unsigned n = t->nthreads;
    if (t->bind.kind) {
        for (unsigned i = 0; i < n; i++) {
            int place = t->bind.slots[i].place;
            cores[i] = topo_core_of_cpu(places.os.cpus[places.os.first[place]]);
        }
        return;
    }
    int seen_node = -1;
    bool several = false;
    for (unsigned i = 0; i < n; i++) {
        int cpu = topo_num_nodes() > 1
                      ? atomic_load_explicit(&t->slot_cpu[i], memory_order_relaxed) : -1;
        int core = cpu < 0 ? -1 : topo_core_of_real_cpu(cpu);
        int node = core < 0 ? -1 : topo.core_node[core];
        cores[i] = node < 0 ? -1 : topo_first_core_of_node(node);
        several |= node >= 0 && seen_node >= 0 && node != seen_node;
        if (node >= 0)
            seen_node = node;
    }
    for (unsigned i = 0; i < n && !several; i++)
        cores[i] = -1;
}

static void team_ilan_free(struct team_ilan *ti)
{
    if (!ti)
        return;
    groups_free(&ti->groups);
    free(ti->cores);
    free(ti->queues);
    free(ti);
}

/* Empties a group's queues (a new team_ilan). */
static void group_queues_init(struct group_queues *q)
{
    task_queue_init(&q->strict);
    task_queue_init(&q->shared);
}

/* task_mode_ops.team_begin: the team's groups and queues, rebuilt only
 * when its size or places changed. */
static void ilan_team_begin(struct team *t)
{
    int key[7] = {(int)t->nthreads, (int)t->bind.kind};
    memcpy(key + 2, t->bind.key, sizeof t->bind.key);
    int local[64], *cores = t->nthreads <= 64 ? local : malloc(t->nthreads * sizeof *cores);
    if (!cores)
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    team_slot_cores(t, cores);
    /* The usual case: the same team on the same cores as last time. */
    bool same = t->ilan && memcmp(t->ilan->key, key, sizeof key) == 0 &&
                memcmp(t->ilan->cores, cores, t->nthreads * sizeof *cores) == 0;
    if (same) {
        if (cores != local)
            free(cores);
        return;
    }
    team_ilan_free(t->ilan);
    t->ilan = NULL;
    struct team_ilan *ti = calloc(1, sizeof *ti);
    int *kept = malloc(t->nthreads * sizeof *kept);
    if (!ti || !kept)
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    memcpy(kept, cores, t->nthreads * sizeof *kept);
    ti->cores = kept;
    if (!groups_build(&topo, t->nthreads, cores, &ti->groups))
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    if (cores != local)
        free(cores);
    ti->queues = aligned_alloc(ILAN_CACHE_LINE, ti->groups.ngroups * sizeof *ti->queues);
    if (!ti->queues)
        ilan_fatal("out of memory starting a parallel region of %u threads", t->nthreads);
    for (unsigned g = 0; g < ti->groups.ngroups; g++)
        group_queues_init(&ti->queues[g]);
    memcpy(ti->key, key, sizeof key);
    t->ilan = ti;
}

/* task_mode_ops.team_free. */
static void ilan_team_free(struct team *t)
{
    team_ilan_free(t->ilan);
    t->ilan = NULL;
}

/* ---- the history table -------------------------------------------------------- */

/* Open addressing over (fn, iterations, nthreads); entries are published
 * with a CAS and never removed, so lookups need no lock. */
static struct taskloop_hist *_Atomic history[ILAN_HISTORY_SLOTS];
static _Atomic unsigned history_used;

unsigned taskloop_history_slots(void)
{
    return ILAN_HISTORY_SLOTS;
}

struct taskloop_hist *taskloop_history_at(unsigned i)
{
    return atomic_load_explicit(&history[i], memory_order_acquire);
}

static unsigned history_hash(void (*fn)(void *), iter_ull n, unsigned nthreads)
{
    uint64_t h = (uint64_t)(uintptr_t)fn * 0x9e3779b97f4a7c15ull;
    h ^= (n + nthreads * 0x100000001b3ull) * 0xff51afd7ed558ccdull;
    return (unsigned)(h >> 40) & (ILAN_HISTORY_SLOTS - 1);
}

static bool history_matches(const struct taskloop_hist *h, void (*fn)(void *), iter_ull n,
                            unsigned nthreads)
{
    return h->fn == fn && h->iterations == n && h->nthreads == nthreads;
}

static void history_entry_free(struct taskloop_hist *h)
{
    mold_free(&h->mold);
    free(h->group_workers);
    free(h);
}

/* A new entry for an identity, not yet published; NULL when out of memory. */
static struct taskloop_hist *history_entry_new(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                               unsigned ngroups)
{
    struct taskloop_hist *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->fn = fn;
    h->iterations = n;
    h->nthreads = nthreads;
    h->group_workers = calloc(ngroups, sizeof *h->group_workers);
    if (!h->group_workers ||
        !mold_init(&h->mold, ngroups, config.taskloop_mode == TASKLOOP_NUMA, config.forced_steal)) {
        free(h->group_workers);
        free(h);
        return NULL;
    }
    return h;
}

/* The entry of an identity, made on first use for a team of G groups;
 * NULL when the table is three quarters full (the loop then runs the
 * distribution over all groups, unrecorded). */
static struct taskloop_hist *history_get(void (*fn)(void *), iter_ull n, unsigned nthreads,
                                         unsigned ngroups)
{
    struct taskloop_hist *fresh = NULL;
    unsigned i = history_hash(fn, n, nthreads);
    for (unsigned probes = 0; probes < ILAN_HISTORY_SLOTS;) {
        struct taskloop_hist *h = atomic_load_explicit(&history[i], memory_order_acquire);
        if (h && history_matches(h, fn, n, nthreads)) {
            if (fresh)
                history_entry_free(fresh);
            return h;
        }
        if (h) {
            i = (i + 1) & (ILAN_HISTORY_SLOTS - 1);
            probes++;
            continue;
        }
        if (!fresh) {
            if (atomic_load_explicit(&history_used, memory_order_relaxed) >=
                ILAN_HISTORY_SLOTS / 4 * 3)
                return NULL;
            if (!(fresh = history_entry_new(fn, n, nthreads, ngroups)))
                return NULL;
        }
        struct taskloop_hist *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&history[i], &expected, fresh,
                                                    memory_order_acq_rel, memory_order_acquire)) {
            atomic_fetch_add_explicit(&history_used, 1, memory_order_relaxed);
            return fresh;
        }
        /* Another thread published at slot i first: look at it again. */
    }
    if (fresh)
        history_entry_free(fresh);
    return NULL;
}

/* ---- one execution ---------------------------------------------------------- */

/* Resolves the identity's function name once (messages and the report). */
const char *taskloop_hist_symbol(struct taskloop_hist *h)
{
    if (!h->symbol_done) {
        unsigned long offset;
        if (!os_symbol_name((const void *)(uintptr_t)h->fn, h->symbol, sizeof h->symbol,
                            h->module, sizeof h->module, &offset))
            h->symbol[0] = '\0';
        h->module_offset = offset;
        h->symbol_done = true;
    }
    return h->symbol;
}

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

static const char *phase_name(enum mold_phase p)
{
    return p == MOLD_SIZE ? "exploring" : p == MOLD_STEAL ? "trying full stealing"
                        : p == MOLD_SETTLED ? "settled" : "fixed";
}

/* ILAN_VERBOSE: one line per decision (every exploring run, the moment a
 * choice is made or dropped, the first run of a fixed taskloop). h locked. */
static void say_decision(struct taskloop_hist *h, struct mold_config ran, double time,
                         enum mold_phase before)
{
    const struct mold *m = &h->mold;
    bool first_fixed = m->phase == MOLD_FIXED && m->executions == 1;
    if (m->phase == MOLD_SETTLED && before == MOLD_SETTLED)
        return;
    if (m->phase == MOLD_FIXED && !first_fixed)
        return;
    char ran_s[160], next_s[160];
    format_groups(m, ran, ran_s, sizeof ran_s);
    format_groups(m, mold_next(m), next_s, sizeof next_s);
    const char *sym = taskloop_hist_symbol(h);
    fprintf(stderr,
            "ilan: taskloop %s%s%p (%llu iterations, %u threads) run %u: %s %s, %.3f ms; "
            "next: %s %s (%s)\n",
            sym, sym[0] ? " at " : "", (void *)(uintptr_t)h->fn, (unsigned long long)h->iterations,
            h->nthreads, m->executions, ran_s, ran.full ? "full" : "strict", time * 1e3, next_s,
            mold_next(m).full ? "full" : "strict", phase_name(m->phase));
}

/* ILAN_VERBOSE: what the calibration run measured. h locked. */
static void say_calibration(struct taskloop_hist *h, double time)
{
    const char *sym = taskloop_hist_symbol(h);
    fprintf(stderr,
            "ilan: taskloop %s%s%p (%llu iterations, %u threads) calibration run: %.3f ms, "
            "%.3f ms of work: %u task(s) per thread from now on (exploring)\n",
            sym, sym[0] ? " at " : "", (void *)(uintptr_t)h->fn, (unsigned long long)h->iterations,
            h->nthreads, time * 1e3, h->work_ns * 1e-6,
            numa_dist_tasks_per_worker(h->work_ns, h->nthreads));
}

/* u64 words between two threads' end times: one cache line each, since
 * every thread writes its own after each task. */
#define SLOT_STRIDE (ILAN_CACHE_LINE / sizeof(uint64_t))

/* Every task of exec is done: record the measurement, free exec. */
static void exec_finish(struct taskloop_exec *exec)
{
    if (exec->open_ns) { /* no longer pending (unless a later run set its own) */
        uint64_t mine = exec->open_ns;
        atomic_compare_exchange_strong_explicit(&exec->team_ilan->open_at_ns, &mine, 0,
                                                memory_order_relaxed, memory_order_relaxed);
    }
    struct taskloop_hist *h = exec->hist;
    const struct team_groups *groups = &exec->team_ilan->groups;
    if (h) {
        unsigned G = groups->ngroups;
        double group_times[G];
        for (unsigned g = 0; g < G; g++)
            group_times[g] = exec->participates[g] ? 0.0 : -1.0;
        /* A group's time is its slowest thread's; the loop's, the slowest group's. */
        uint64_t last = exec->start_ns;
        for (unsigned i = 0; i < groups->nthreads; i++) {
            uint64_t end = exec->slot_end[i * SLOT_STRIDE];
            if (end <= exec->start_ns)
                continue; /* ran none of its tasks */
            if (end > last)
                last = end;
            double t = (double)(end - exec->start_ns) * 1e-9;
            unsigned g = groups->slot_group[i];
            if (exec->participates[g] && t > group_times[g])
                group_times[g] = t;
        }
        double time = (double)(last - exec->start_ns) * 1e-9;
        mutex_lock(&h->lock);
        if (exec->calibration) {
            if (h->work_ns == 0)
                h->work_ns = time * 1e9 * exec->workers + 1; /* + 1: measured, even if 0 */
            if (config.verbose >= 1)
                say_calibration(h, time);
        } else {
            enum mold_phase before = h->mold.phase;
            mold_record(&h->mold, exec->cfg, time, group_times);
            if (config.verbose >= 1)
                say_decision(h, exec->cfg, time, before);
        }
        mutex_unlock(&h->lock);
    }
    free(exec);
}

/* task_mode_ops.task_done: the calling thread ran one task of exec. */
static void ilan_task_done(struct ilan_thread *ts, struct task *t)
{
    struct taskloop_exec *exec = t->exec;
    /* Only this thread writes its slot; whoever finishes exec reads it after
     * the tasks' completion (taskgroup end, or `remaining` below). */
    exec->slot_end[ts->team_id * SLOT_STRIDE] = os_now_ns();
    if (exec->finished_by_creator)
        return;
    if (atomic_fetch_sub_explicit(&exec->remaining, 1, memory_order_acq_rel) == 1)
        exec_finish(exec);
}

void taskloop_ilan_end(struct taskloop_exec *exec)
{
    if (exec)
        exec_finish(exec);
}

/* A new execution record for a team with ILAN state ti: one allocation,
 * the threads' end times on lines of their own. */
static struct taskloop_exec *exec_new(struct team_ilan *ti)
{
    unsigned n = ti->groups.nthreads, G = ti->groups.ngroups;
    size_t head = (sizeof(struct taskloop_exec) + G * sizeof(bool) + ILAN_CACHE_LINE - 1) /
                  ILAN_CACHE_LINE * ILAN_CACHE_LINE;
    size_t size = head + (size_t)n * ILAN_CACHE_LINE;
    struct taskloop_exec *exec = aligned_alloc(ILAN_CACHE_LINE, size);
    if (!exec)
        ilan_fatal("out of memory creating a taskloop for %u threads", n);
    memset(exec, 0, size);
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

/* Appends run r (the caller's team's tasks, made by the caller) to group
 * g's strict or shared queue, in order, and wakes idle threads. */
static void group_push(struct ilan_thread *ts, unsigned g, bool strict, const struct task_run *r)
{
    struct group_queues *q = &ts->team->ilan->queues[g];
    task_queue_append(strict ? &q->strict : &q->shared, r->head, r->tail, r->count);
    task_queue_wake(ts, ts->team);
}

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

struct taskloop_exec *taskloop_ilan_run(struct ilan_thread *ts, void (*fn)(void *), iter_ull n,
                                        bool grainsize, bool strict, unsigned long num_tasks,
                                        bool creator_waits, struct taskloop_split *split,
                                        struct task *(*make)(void *arg, iter_ull i), void *arg)
{
    struct team *team = ts->team;
    const struct team_groups *groups = &team->ilan->groups;
    unsigned G = groups->ngroups;
    struct taskloop_exec *exec = exec_new(team->ilan);
    unsigned ids_local[64], *ids = G <= 64 ? ids_local : malloc(G * sizeof *ids);
    unsigned workers_local[64], *workers = G <= 64 ? workers_local : malloc(G * sizeof *workers);
    iter_ull first_local[65], *first = G <= 64 ? first_local : malloc((G + 1) * sizeof *first);
    if (!ids || !workers || !first)
        ilan_fatal("out of memory creating a taskloop for %u thread groups", G);

    /* The configuration: the history's next one, or every group. */
    struct taskloop_hist *h = history_get(fn, n, team->nthreads, G);
    struct mold_config cfg = {G, config.forced_steal == 1};
    unsigned k = G;
    for (unsigned j = 0; j < G; j++)
        ids[j] = j;
    /* The ilan mode chooses the task count of a loop without clauses from
     * its measured work: the first execution, on every group, measures it
     * (calibration) before exploration begins. */
    bool chooses_tasks = config.taskloop_mode == TASKLOOP_ILAN && !grainsize && num_tasks == 0;
    double work_ns = 0;
    bool calibration = false;
    double cutoff = 0;
    if (h) {
        mutex_lock(&h->lock);
        bool fits = h->mold.ngroups == G; /* same team size in other places may not */
        h->runs++;
        calibration = fits && chooses_tasks && h->work_ns == 0;
        if (fits && !calibration) {
            cfg = mold_next(&h->mold);
            k = mold_groups(&h->mold, cfg, ids);
            cutoff = mold_cutoff(&h->mold);
        }
        if (fits) {
            work_ns = chooses_tasks ? h->work_ns : 0;
            h->kind = groups->kind;
            memcpy(h->group_workers, groups->workers, G * sizeof *groups->workers);
        }
        mutex_unlock(&h->lock);
        if (!fits)
            h = NULL; /* run over every group, unrecorded */
    }
    unsigned total = 0;
    for (unsigned j = 0; j < k; j++) {
        workers[j] = groups->workers[ids[j]];
        total += workers[j];
        exec->participates[ids[j]] = true;
    }
    if (!grainsize && num_tasks == 0)
        num_tasks = (unsigned long)numa_dist_tasks_per_worker(work_ns, total) * total;
    *split = taskloop_split_compute(n, grainsize, strict, num_tasks, team->nthreads);
    numa_dist_runs(split->ntasks, k, workers, first);

    exec->hist = h;
    exec->cfg = cfg;
    exec->calibration = calibration;
    exec->workers = total;
    exec->finished_by_creator = creator_waits;
    atomic_store_explicit(&exec->remaining, split->ntasks, memory_order_relaxed);
    exec->start_ns = os_now_ns();
    if (cutoff > 0) {
        exec->open_ns = exec->start_ns + (uint64_t)(cutoff * 1e9);
        atomic_store_explicit(&team->ilan->open_at_ns, exec->open_ns, memory_order_relaxed);
    }
    /* Other groups' runs are queued first, from the one after ours
     * (cyclically), and our own group's last: its threads include us, while
     * the others can start at once. Each group's run is cut into its strict
     * part (only the group's threads take it) and its shared part. After
     * the last push exec belongs to the tasks: read nothing from it. */
    unsigned mine = groups->slot_group[ts->team_id], start = 0;
    while (start < k && ids[start] <= mine)
        start++;
    struct task_run runs_local[128], *runs = k <= 64 ? runs_local : malloc(2 * k * sizeof *runs);
    if (!runs)
        ilan_fatal("out of memory creating a taskloop for %u thread groups", G);
    for (unsigned j = 0; j < k; j++) {
        iter_ull strict_end = first[j] + numa_dist_strict(first[j + 1] - first[j], cfg.full);
        run_make(&runs[2 * j], exec, first[j], strict_end, make, arg);
        run_make(&runs[2 * j + 1], exec, strict_end, first[j + 1], make, arg);
    }
    for (unsigned step = 0; step < k; step++) {
        unsigned j = (start + step) % k;
        for (unsigned part = 0; part < 2; part++) {
            const struct task_run *r = &runs[2 * j + part];
            if (r->count)
                group_push(ts, ids[j], part == 0, r);
        }
    }
    if (runs != runs_local)
        free(runs);
    if (ids != ids_local)
        free(ids);
    if (workers != workers_local)
        free(workers);
    if (first != first_local)
        free(first);
    return creator_waits ? exec : NULL;
}

/* ---- the task scheduler's view: ILAN's queues on the ladder (task_mode.h) ---- */

/* Whether an ILAN execution was opened to every thread: an exploratory
 * run that outlived its cut-off (mold_cutoff). Reads the clock only for
 * runs that have one. */
static bool exec_opened(const struct taskloop_exec *e)
{
    return e->open_ns && os_now_ns() >= e->open_ns;
}

/* Whether some execution of the team may have been opened: keeps threads
 * off other groups' strict queues (and the clock) in ordinary runs. */
static bool team_ilan_opened(const struct team_ilan *ti)
{
    uint64_t at = atomic_load_explicit(&ti->open_at_ns, memory_order_relaxed);
    return at && os_now_ns() >= at;
}

/* task_accept_fn for another group's shared queue: a thread of group
 * *arg may take tasks of a taskloop its group takes part in, or of one
 * that was opened. */
static bool accept_participating(const struct task *t, const void *arg)
{
    unsigned group = *(const unsigned *)arg;
    return t->exec && (t->exec->participates[group] || exec_opened(t->exec));
}

/* task_accept_fn for another group's strict queue: opened executions only. */
static bool accept_opened(const struct task *t, const void *arg)
{
    (void)arg;
    return t->exec && exec_opened(t->exec);
}

/* task_mode_ops.take_own: the thread's own group's tasks, strict ones first. */
static struct task *ilan_take_own(struct ilan_thread *ts, struct team *team, struct task *waiter,
                                  enum task_look look)
{
    struct team_ilan *ti = team->ilan;
    if (!ti)
        return NULL;
    struct group_queues *q = &ti->queues[ti->groups.slot_group[ts->team_id]];
    struct task *t = task_queue_take(&q->strict, waiter, look, NULL, NULL);
    return t ? t : task_queue_take(&q->shared, waiter, look, NULL, NULL);
}

/* task_mode_ops.take_other: other groups' shareable tasks (full policy),
 * the thread's own group having none left; and any task of an exploratory
 * run past its cut-off, which every thread may help finish. */
static struct task *ilan_take_other(struct ilan_thread *ts, struct team *team,
                                    struct task *waiter, enum task_look look)
{
    struct team_ilan *ti = team->ilan;
    if (!ti)
        return NULL;
    unsigned group = ti->groups.slot_group[ts->team_id], G = ti->groups.ngroups;
    bool opened = team_ilan_opened(ti);
    struct task *t;
    for (unsigned d = 1; d < G; d++) {
        struct group_queues *q = &ti->queues[(group + d) % G];
        if ((t = task_queue_take(&q->shared, waiter, look, accept_participating, &group)) ||
            (opened && (t = task_queue_take(&q->strict, waiter, look, accept_opened, NULL))))
            return t;
    }
    return NULL;
}

/* task_mode_ops.take_any: any group's task the caller may take (the
 * scheduling constraint only): the way out when group rules would stop
 * progress (task_find and task_wait_until). */
static struct task *ilan_take_any(struct team *team, struct task *waiter, enum task_look look)
{
    struct team_ilan *ti = team->ilan;
    struct task *t;
    for (unsigned g = 0; ti && g < ti->groups.ngroups; g++)
        if ((t = task_queue_take(&ti->queues[g].strict, waiter, look, NULL, NULL)) ||
            (t = task_queue_take(&ti->queues[g].shared, waiter, look, NULL, NULL)))
            return t;
    return NULL;
}

/* task_mode_ops.queued: some group of the team has ILAN tasks queued. */
static bool ilan_queued(const struct team *team)
{
    const struct team_ilan *ti = team->ilan;
    for (unsigned g = 0; ti && g < ti->groups.ngroups; g++)
        if (atomic_load_explicit(&ti->queues[g].strict.count, memory_order_relaxed) ||
            atomic_load_explicit(&ti->queues[g].shared.count, memory_order_relaxed))
            return true;
    return false;
}

/* task_mode_ops.sleep_ns: until the pending cut-off of an exploratory run,
 * if one is due, else ILAN_STALL_NS (to notice a stall). */
static uint64_t ilan_sleep_ns(const struct team *team)
{
    uint64_t at = atomic_load_explicit(&team->ilan->open_at_ns, memory_order_relaxed);
    uint64_t now = at ? os_now_ns() : 0;
    if (at > now && at - now < ILAN_STALL_NS)
        return at - now;
    return ILAN_STALL_NS;
}

const struct task_mode_ops taskloop_ilan_mode = {
    .team_begin = ilan_team_begin,
    .team_free = ilan_team_free,
    .task_done = ilan_task_done,
    .take_own = ilan_take_own,
    .take_other = ilan_take_other,
    .take_any = ilan_take_any,
    .queued = ilan_queued,
    .sleep_ns = ilan_sleep_ns,
};
