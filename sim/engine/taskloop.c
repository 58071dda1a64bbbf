/* taskloop.c — one execution of a taskloop in the simulated machine: the creator's deque and random stealing (ws, llvm), or ILAN's ranges per group with the plan and exploration of src/sched (numa, ilan, thesis). */
#include "taskloop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tunables.h"
#include "grow.h"

/* A taskloop execution in progress. */
struct tl_run {
    struct world *w;                /* the machine */
    const struct sim_policy *fns;   /* the policy functions */
    const struct sim_op *op;        /* the construct */
    unsigned long n;                /* its iterations this time */
    struct taskloop_split split;    /* its tasks */
    double t0;                      /* when the creator began */
    bool llvm;                      /* uniformly random victims */
    /* ws / llvm: the creator's deque of task numbers */
    double created_by;              /* when the creator made its last task */
    unsigned long head;             /* oldest task not taken (thieves' end) */
    unsigned long top;              /* one past the newest not taken (the owner's end) */
    /* numa / ilan: one range of task numbers per chosen group */
    unsigned k;                     /* groups taking part */
    unsigned *ids;                  /* [k] their group ids, increasing */
    iter_ull *next, *end, *strict;  /* [k] each range: next to claim, end, end of its strict part */
    unsigned *runners;              /* [k] each range's runners, min(its tasks, its group's
                                       threads), as src/ilan/exec.c counts them: the `workers`
                                       its own claims are sized by */
    int *range_of_group;            /* [G] the range of each group, -1: not taking part */
    bool shareable;                 /* some range has tasks past its strict part, which
                                       other groups' threads may take (the runtime's
                                       ilan_launch.shareable) */
    bool by_range;                  /* a range launch (else one task per take from queues) */
    iter_ull *own_next, *own_end;   /* [T] the batch a thread claimed and has not started yet:
                                       from its own range's front or another's back */
    unsigned long done;             /* tasks finished */
    double cutoff_ns;               /* 0: none; else the run opens to every thread past it */
    bool opened;                    /* every thread may take every task */
    bool opened_early;              /* ...because its pace projected it past the cut-off */
    double projected_s;             /* that projection */
    unsigned workers;               /* threads of the configuration */
};

/* Task i's piece. */
static struct piece task_piece(const struct tl_run *r, iter_ull i)
{
    iter_ull lo = taskloop_task_offset(&r->split, i);
    return (struct piece){r->op, r->n, (unsigned long)lo,
                          (unsigned long)(lo + taskloop_task_size(&r->split, i)), -1, -1, 0};
}

static void start_piece(struct sim_thread *th, struct piece p, double at)
{
    th->piece = p;
    th->state = TH_STARTING;
    th->at = at;
}

/* ---- ws and llvm: every task on the creator's deque ---- */

/* Tasks on the creator's deque that a thief may take at `now`. */
static bool deque_has(const struct tl_run *r, double now)
{
    double made = r->w->p->task_create_ns > 0
                      ? floor((now - r->t0) / r->w->p->task_create_ns)
                      : (double)r->split.ntasks;
    unsigned long avail = made >= (double)r->top ? r->top : (unsigned long)made;
    return r->head < avail;
}

static void ws_decide(struct world *w, unsigned t, void *ctx)
{
    struct tl_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    double now = th->at;
    if (t == 0) { /* the creator runs its newest task, or waits at the join */
        if (r->top > r->head) {
            r->top--;
            start_piece(th, task_piece(r, r->top), now + w->p->task_start_ns);
        } else {
            th->state = TH_ASLEEP;
        }
        return;
    }
    if (r->head >= r->top && now >= r->created_by) {
        th->state = TH_ASLEEP; /* nothing left and nothing to come */
        return;
    }
    unsigned victim;
    if (r->llvm) {
        victim = (unsigned)(steal_rand(&th->rng) % (w->nthreads - 1));
        victim += victim >= t;
    } else {
        victim = r->fns->next_victim(r->fns->ws_steal, t, w->nthreads, th->last_victim, &th->rng);
    }
    double far = world_far(w, th->node, w->threads[victim].node);
    if (victim == 0 && deque_has(r, now)) {
        th->last_victim = victim;
        th->steals++;
        th->steals_remote += far > 1;
        start_piece(th, task_piece(r, r->head++), now + w->p->steal_ns * far);
    } else {
        th->last_victim = STEAL_NO_VICTIM;
        th->at = now + w->p->steal_fail_ns * far;
    }
}

/* ---- numa and ilan: ranges per group ---- */

/* Opens the run to every thread at `now` (a cut-off passed). */
static void open_run(struct tl_run *r, double now)
{
    r->opened = true;
    for (unsigned t = 0; t < r->w->nthreads; t++)
        world_wake(r->w, t, now + r->w->p->wake_ns);
}

/* What thread t may take of range j from its back: past its strict part
 * unless the run is open to every thread. */
static iter_ull takeable_from(const struct tl_run *r, unsigned j)
{
    iter_ull from = r->next[j];
    if (!r->opened && r->strict[j] > from)
        from = r->strict[j];
    return r->end[j] > from ? from : r->end[j];
}

/*
 * Thread t takes tasks of another range from its back into its own batch;
 * false when there is none. Mirrors the runtime's two launches:
 * - a range launch (ilan/range.c, claim_back): a thief's share of what is
 *   shareable (numa_dist_steal_share), in one claim, from the ranges after
 *   the thread's own, cyclically;
 * - a per-task launch (a run with a cut-off, whose tasks sit in the
 *   groups' queues): one task at a time, the nearest group first; once the
 *   run is open to every thread, from any part of any range.
 */
static bool range_steal(struct tl_run *r, unsigned t, double now)
{
    struct world *w = r->w;
    struct sim_thread *th = &w->threads[t];
    int mine = r->range_of_group[w->groups.slot_group[t]];
    int best = -1;
    double best_far = INFINITY;
    for (unsigned d = 0; d < r->k; d++) {
        unsigned j = r->by_range ? (unsigned)(mine + 1 + (int)d) % r->k : d;
        if ((int)j == mine || r->end[j] <= takeable_from(r, j))
            continue;
        double far = world_far(w, th->node, w->group_node[r->ids[j]]);
        if (r->by_range) { /* the first in cyclic order */
            best = (int)j;
            best_far = far;
            break;
        }
        if (far < best_far) {
            best_far = far;
            best = (int)j;
        }
    }
    if (best < 0)
        return false;
    iter_ull avail = r->end[best] - takeable_from(r, (unsigned)best);
    iter_ull take = r->by_range ? r->fns->steal_share(avail, w->groups.workers[r->ids[best]]) : 1;
    r->own_next[t] = r->end[best] - take;
    r->own_end[t] = r->end[best];
    r->end[best] -= take;
    th->steals++;
    th->steals_remote += best_far > 1;
    th->at = now + w->p->steal_ns * best_far;
    return true;
}

/*
 * Thread t's next step: the next task of its batch; else a claim from the
 * front of its own range, then runs the claim's first task; else a take
 * from another range (range_steal); else it sleeps. A range launch's
 * claim is a batch, as the runtime's claim_front (ilan/range.c) takes it:
 * numa_dist_own_claim(what is left, the range's runners), sim/README.md's
 * "Range claims". A per-task launch takes one task per claim
 * (its tasks sit in the groups' queues). Every task of a batch costs a
 * start, as before: the claim is not charged apart, and the contention
 * that batches spare the runtime (the range's line bouncing between its
 * runners at every claim) is not modelled.
 */
static void range_decide(struct world *w, unsigned t, void *ctx)
{
    struct tl_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    double now = th->at;
    int j = r->range_of_group[w->groups.slot_group[t]];
    if (r->own_next[t] >= r->own_end[t] && j >= 0 && r->next[j] < r->end[j]) {
        iter_ull left = r->end[j] - r->next[j];
        iter_ull take = r->by_range ? r->fns->own_claim(left, r->runners[j]) : 1;
        if (take < 1)
            take = 1;
        if (take > left)
            take = left;
        r->own_next[t] = r->next[j];
        r->own_end[t] = r->next[j] + take;
        r->next[j] += take;
    }
    if (r->own_next[t] < r->own_end[t]) {
        start_piece(th, task_piece(r, r->own_next[t]++), now + w->p->task_start_ns);
        return;
    }
    if ((j >= 0 && r->shareable) || r->opened) {
        if (range_steal(r, t, now))
            return; /* ready again once the steal is paid: runs its batch */
    }
    th->state = TH_ASLEEP;
}

static void range_finished(struct world *w, unsigned t, double now, void *ctx)
{
    (void)t;
    struct tl_run *r = ctx;
    r->done++;
    if (r->cutoff_ns <= 0 || r->opened)
        return;
    double elapsed = now - r->t0, projected;
    if (elapsed >= r->cutoff_ns) {
        open_run(r, now);
    } else if (r->fns->projects_past(elapsed * 1e-9, r->done, r->split.ntasks, r->workers,
                                     r->cutoff_ns * 1e-9, &projected)) {
        r->opened_early = true;
        r->projected_s = projected;
        open_run(r, now);
    }
    (void)w;
}

/* The identity (construct, n), made on first use; without an identity
 * per size (the thesis) it is the construct's alone (n = 0). Exploring
 * identities apply the input's parts of ILAN. */
static struct tl_identity *identity(struct world *w, struct tl_history *h, const struct sim_op *op,
                                    unsigned long n, bool fixed)
{
    if (!w->in->per_size)
        n = 0;
    for (unsigned long i = 0; i < h->n; i++)
        if (h->ids[i].construct == op->construct && h->ids[i].n == n)
            return &h->ids[i];
    if (h->n == h->cap)
        h->ids = sim_grow(h->ids, &h->cap, sizeof *h->ids, 16, "the taskloop history");
    struct tl_identity *id = &h->ids[h->n++];
    memset(id, 0, sizeof *id);
    id->construct = op->construct;
    id->n = n;
    if (!mold_init(&id->mold, w->groups.ngroups, fixed, -1)) {
        fprintf(stderr, "ilan-sim-engine: out of memory\n");
        exit(1);
    }
    id->mold.min_explore = ILAN_EXPLORE_MIN_US_DEFAULT * 1e-6;
    if (!fixed)
        mold_set_additions(&id->mold, w->in->mold_additions);
    return id;
}

const struct tl_identity *taskloop_identity_last(const struct tl_history *h, unsigned construct)
{
    for (unsigned long i = h->n; i-- > 0;)
        if (h->ids[i].construct == construct)
            return &h->ids[i];
    return NULL;
}

void taskloop_history_free(struct tl_history *h)
{
    for (unsigned long i = 0; i < h->n; i++)
        mold_free(&h->ids[i].mold);
    free(h->ids);
    memset(h, 0, sizeof *h);
}

/* Wakes threads 1.. down a binary tree from `at`: the i-th woken thread
 * (1-based) after floor(log2(i)) + 1 wake-ups, each by distance. Only
 * threads for which `who` is true. */
static void wake_tree(struct world *w, const bool *who, double at)
{
    unsigned i = 0;
    for (unsigned t = 1; t < w->nthreads; t++) {
        if (who && !who[t])
            continue;
        i++;
        unsigned depth = 1;
        while ((2u << (depth - 1)) <= i)
            depth++;
        world_wake(w, t, at + w->p->wake_ns * world_far(w, w->threads[0].node, w->threads[t].node) * depth);
    }
}

double taskloop_run(struct world *w, const struct sim_policy *fns, struct tl_history *h,
                    const struct sim_op *op, unsigned long n, double t0, struct tl_outcome *out)
{
    unsigned T = w->nthreads, G = w->groups.ngroups;
    struct tl_run r = {.w = w, .fns = fns, .op = op, .n = n, .t0 = t0};
    for (unsigned t = 0; t < T; t++) {
        w->threads[t].state = TH_ASLEEP;
        w->threads[t].last_end = 0;
    }
    struct sim_thread *creator = &w->threads[0];
    creator->state = TH_READY;
    bool grainsize = op->grainsize != 0;
    unsigned long clause = grainsize ? op->grainsize : op->num_tasks;
    double end;

    enum sim_policy_kind kind = w->in->kind;
    if (kind == POL_WS || kind == POL_LLVM) {
        r.llvm = kind == POL_LLVM;
        r.split = fns->split(n, grainsize, false, clause, T);
        r.top = r.split.ntasks;
        r.created_by = t0 + w->p->task_create_ns * (double)r.split.ntasks;
        creator->at = r.created_by;
        wake_tree(w, NULL, t0 + w->p->task_create_ns);
        for (unsigned t = 1; t < T; t++)
            w->threads[t].last_victim = STEAL_NO_VICTIM;
        struct phase_rules rules = {ws_decide, NULL, &r};
        end = world_run_phase(w, &rules, r.created_by);
        snprintf(out->config, sizeof out->config, "%s", kind == POL_LLVM ? "llvm" : "ws");
        out->time_ns = end - t0;
        return end;
    }

    /* numa, ilan and thesis: the plan of src/sched/taskloop_plan.c */
    bool ilan = kind == POL_ILAN, thesis = kind == POL_THESIS;
    struct tl_identity *id = identity(w, h, op, n, !ilan && !thesis);
    unsigned ids[G];
    bool chooses_tasks = ilan && clause == 0;
    /* The creator (thread 0) is the home group of an unbound team's plan. */
    unsigned home = w->groups.slot_group[0];
    struct taskloop_plan plan = fns->plan_next(&id->mold, G, chooses_tasks, id->work_ns, false,
                                               w->groups.model_id[home] < 0 ? (int)home : -1, ids);
    unsigned workers[G], total = 0;
    bool participates[G];
    int range_of_group[G];
    for (unsigned g = 0; g < G; g++) {
        participates[g] = false;
        range_of_group[g] = -1;
    }
    for (unsigned j = 0; j < plan.k; j++) {
        workers[j] = w->groups.workers[ids[j]];
        total += workers[j];
        participates[ids[j]] = true;
        range_of_group[ids[j]] = (int)j;
    }
    bool by_range = plan.cutoff <= 0;
    unsigned long num_tasks =
        fns->plan_num_tasks(grainsize, clause, chooses_tasks ? id->work_ns : 0, total, by_range);
    r.split = fns->split(n, grainsize, false, num_tasks, T);
    iter_ull first[G + 1], next[G], rend[G], strict[G], own_next[T], own_end[T];
    unsigned runners[G];
    fns->dist_runs(r.split.ntasks, plan.k, workers, first);
    bool shareable = false;
    for (unsigned j = 0; j < plan.k; j++) {
        next[j] = first[j];
        rend[j] = first[j + 1];
        runners[j] = first[j + 1] - first[j] < workers[j] ? (unsigned)(first[j + 1] - first[j])
                                                          : workers[j];
        /* A group without a place (an unbound team's) keeps no task to
         * itself, as src/ilan/exec.c decides: any thread may take any. */
        bool placed = w->groups.model_id[ids[j]] >= 0;
        strict[j] = first[j] +
                    (placed ? fns->dist_strict(first[j + 1] - first[j], plan.cfg.full) : 0);
        shareable |= strict[j] < rend[j];
    }
    for (unsigned t = 0; t < T; t++)
        own_next[t] = own_end[t] = 0;
    r.k = plan.k;
    r.ids = ids;
    r.next = next;
    r.end = rend;
    r.strict = strict;
    r.runners = runners;
    r.range_of_group = range_of_group;
    r.shareable = shareable;
    r.by_range = by_range;
    r.own_next = own_next;
    r.own_end = own_end;
    r.cutoff_ns = plan.cutoff * 1e9;
    r.workers = total;

    /* ILAN launches a range per group; the thesis made a task at a time. */
    double launched = t0 + (thesis ? w->p->task_create_ns * (double)r.split.ntasks
                                   : w->p->launch_ns * plan.k);
    creator->at = launched;
    bool wake[T];
    for (unsigned t = 0; t < T; t++)
        wake[t] = participates[w->groups.slot_group[t]];
    wake_tree(w, wake, launched);
    struct phase_rules rules = {range_decide, range_finished, &r};
    end = world_run_phase(w, &rules, launched);

    double end_s[T], group_times[G];
    for (unsigned t = 0; t < T; t++)
        end_s[t] = w->threads[t].last_end > t0 ? (w->threads[t].last_end - t0) * 1e-9 : 0;
    double took = fns->plan_times(end_s, T, w->groups.slot_group, participates, G, group_times);
    double time = r.opened_early && r.projected_s > took ? r.projected_s : took;
    fns->plan_record(&id->mold, &id->work_ns, &plan, time, group_times, total);
    snprintf(out->config, sizeof out->config, "%s%u group%s %s", plan.calibration ? "calibration: " : "",
             plan.k, plan.k == 1 ? "" : "s", plan.cfg.full ? "full" : "strict");
    out->time_ns = end - t0;
    return end;
}
