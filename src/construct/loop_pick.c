/* loop_pick.c — choosing a loop's engine (adaptive for nonmonotonic dynamic, OMP_SCHEDULE's kinds, schedule(auto)'s trial), its thieves' victim order and its record for ILAN_REPORT. */
#include "construct/loop_pick.h"

#include <stdint.h>
#include <stdlib.h>

#include "config/icv.h"
#include "core/loop_hist.h"
#include "core/team_desc.h"
#include "core/wait.h"
#include "ilan/victims.h"
#include "os/linux/clock.h"
#include "sched/loop_auto.h"
#include "sched/loop_chunks.h"
#include "sched/loop_split.h"

int loop_pick_kind(int sched, bool may_reorder)
{
    bool monotonic = (unsigned)sched & ICV_SCHED_MONOTONIC;
    int kind = (int)((unsigned)sched & ~(unsigned)ICV_SCHED_MONOTONIC);
    if (kind == ICV_SCHED_DYNAMIC && !monotonic && may_reorder)
        return ICV_SCHED_ADAPTIVE;
    return kind;
}

void loop_pick_runtime(struct ilan_thread *ts, bool may_reorder, int *sched, iter_ull *chunk)
{
    unsigned rs = ts->icv.run_sched;
    int s = (int)(rs & ~(unsigned)ICV_SCHED_MONOTONIC);
    long c = ts->icv.run_sched_chunk;
    if (s == ICV_SCHED_AUTO && may_reorder) {
        c = 0;
    } else if (s == ICV_SCHED_AUTO || !ws_loop_kind_known(s)) {
        /* auto where order matters is unchunked static, as libgomp runs it */
        s = ICV_SCHED_STATIC;
        c = 0;
    } else if (s == ICV_SCHED_DYNAMIC) {
        /* OpenMP 5.x: dynamic without "monotonic:" is nonmonotonic; when
         * the entry point allows it, that is adaptive (loop_pick_kind). */
        s = loop_pick_kind((int)rs, may_reorder);
    } else if (s != ICV_SCHED_STATIC && s != ICV_SCHED_GUIDED && !may_reorder) {
        /* ilan's kinds where order matters: the shared counter */
        s = ICV_SCHED_DYNAMIC;
    }
    *sched = s;
    *chunk = c > 0 ? (iter_ull)c : 0;
}

/* The kind and chunk of auto's candidate cand for a loop of n iterations
 * on P threads: the dynamic-style ones get the expert chunk. */
static void candidate(enum loop_cand cand, iter_ull n, unsigned P, int *kind, iter_ull *chunk)
{
    static const int kinds[LOOP_NCAND] = {ICV_SCHED_STATIC, ICV_SCHED_ADAPTIVE, ICV_SCHED_FAC2,
                                          ICV_SCHED_AF, ICV_SCHED_GUIDED};
    *kind = kinds[cand];
    *chunk = cand == LOOP_CAND_STATIC ? 0 : loop_expert_chunk(n, P);
}

/* Per thread, by loop identity (direct-mapped, keyed by a hash: a
 * collision only costs a look at the record, or delays a loop's learning):
 * how many more executions of an adaptive loop found too short to learn
 * from (LOOP_SPLIT_MIN_NS) the thread sets up without the loop's record.
 * Small: the runtime's thread-locals are initial-exec, and a program that
 * dlopens it has only glibc's static TLS surplus to offer them. */
struct split_hint {
    uint32_t tag;  /* the identity's hash (0: unused) */
    uint32_t skip; /* executions left to set up without the record */
};
#define SPLIT_HINTS 16u
static __thread struct split_hint split_hints[SPLIT_HINTS];

/* The hint slot of (site, n, nthreads), and the identity's tag in *tag. */
static struct split_hint *split_hint_of(const void *site, iter_ull n, unsigned nthreads,
                                        uint32_t *tag)
{
    uint64_t h = ((uint64_t)(uintptr_t)site ^ n * 0x9E3779B97F4A7C15ULL) + nthreads;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    *tag = (uint32_t)(h >> 32) | 1u;
    return &split_hints[h % SPLIT_HINTS];
}

/* Whether the loop (site, n, nthreads) is to be set up with its record for
 * the learnt split: not while this thread's hint says it is too short. */
static bool split_worth_a_look(const void *site, iter_ull n, unsigned nthreads)
{
    uint32_t tag;
    struct split_hint *h = split_hint_of(site, n, nthreads, &tag);
    if (h->tag != tag || h->skip == 0)
        return true;
    h->skip--;
    return false;
}

void loop_pick_setup(struct ws_loop *l, int sched, const void *site)
{
    bool is_auto = sched == ICV_SCHED_AUTO;
    /* An adaptive loop of a team keeps a record for its learnt split,
     * unless it is too short to learn from. */
    bool learns = l->sched == ICV_SCHED_ADAPTIVE && l->nthreads > 1 && site &&
                  split_worth_a_look(site, l->n, l->nthreads);
    if (!is_auto && !learns && !(loop_hist_on && site))
        return;
    struct loop_rec *rec = loop_hist_get(site, l->n, l->nthreads);
    if (is_auto) {
        enum loop_cand cand = LOOP_CAND_ADAPTIVE;
        if (rec) {
            mutex_lock(&rec->lock);
            cand = loop_auto_next(&rec->sel);
            rec->is_auto = true;
            mutex_unlock(&rec->lock);
        }
        int kind;
        iter_ull chunk;
        candidate(cand, l->n, l->nthreads, &kind, &chunk);
        ws_loop_init(l, kind, l->n, chunk, l->nthreads);
        l->cand = (int)cand;
    }
    if (!rec)
        return;
    l->rec = rec;
    l->t0 = os_clock_ns();
}

void loop_pick_engine_setup(struct ws_loop *l, void *space)
{
    struct loop_rec *rec = l->rec;
    if (!rec || l->sched != ICV_SCHED_ADAPTIVE) {
        ws_loop_engine_setup(l, space, NULL);
        return;
    }
    mutex_lock(&rec->lock);
    bool learnt = rec->split_learnt;
    ws_loop_engine_setup(l, space, learnt ? rec->split : NULL);
    rec->split_calls += learnt;
    mutex_unlock(&rec->lock);
}

/* The last thread of an adaptive execution: the split its next execution
 * starts from, from what the threads measured of each block. Not with more
 * threads than CPUs: a block's time then mostly says how long its owner
 * waited for a CPU. */
static void learn_split(struct loop_rec *rec, const struct ws_loop *l)
{
    unsigned T = l->nthreads;
    if (wait_oversubscribed())
        return;
    iter_ull *start = malloc((2 * (size_t)T + 1) * sizeof *start);
    uint64_t *ns = malloc(T * sizeof *ns);
    iter_ull *split = rec->split ? NULL : malloc(((size_t)T + 1) * sizeof *split);
    if (!start || !ns || (!rec->split && !split)) {
        free(start);
        free(ns);
        free(split);
        return;
    }
    iter_ull *ran = start + T + 1;
    for (unsigned t = 0; t < T; t++) {
        start[t] = l->ranges[t].first;
        ran[t] = atomic_load_explicit(&l->ranges[t].ran, memory_order_relaxed);
        ns[t] = atomic_load_explicit(&l->ranges[t].ran_ns, memory_order_relaxed);
    }
    start[T] = l->n;
    struct loop_split_obs o = {l->n, T, start, ran, ns};
    mutex_lock(&rec->lock);
    if (!rec->split)
        rec->split = split;
    else
        free(split);
    rec->split_learnt = loop_split_next(&o, rec->split_learnt, rec->split);
    mutex_unlock(&rec->lock);
    free(start);
    free(ns);
}

const struct loop_victims *loop_pick_victims(struct ilan_thread *ts, const struct ws_loop *l)
{
    struct team *team = ts->team;
    if (!team || team->nthreads < 2)
        return NULL;
    /* static_steal: random victims (one segment) */
    return ilan_victims(ts, team, l->sched == ICV_SCHED_ADAPTIVE, VICTIMS_FOR_LOOPS);
}

void loop_pick_finish(struct ilan_thread *ts, struct ws_loop *l)
{
    struct loop_rec *rec = l->rec;
    const struct loop_thread *lt = &ts->loop;
    uint64_t now = os_clock_ns();
    if (l->sched == ICV_SCHED_ADAPTIVE && l->nthreads > 1) {
        uint32_t tag;
        struct split_hint *h = split_hint_of(rec->site, rec->n, rec->nthreads, &tag);
        *h = (struct split_hint){tag, (double)(now - l->t0) < LOOP_SPLIT_MIN_NS ? LOOP_SPLIT_SKIP
                                                                                 : 0};
    }
    if (loop_hist_on) { /* the report's counts: one line every thread writes */
        atomic_fetch_add_explicit(&rec->chunks, lt->chunks, memory_order_relaxed);
        if (lt->steal.steals_local)
            atomic_fetch_add_explicit(&rec->steals_local, lt->steal.steals_local,
                                      memory_order_relaxed);
        if (lt->steal.steals_remote)
            atomic_fetch_add_explicit(&rec->steals_remote, lt->steal.steals_remote,
                                      memory_order_relaxed);
    }
    if (atomic_fetch_add_explicit(&l->finished, 1, memory_order_acq_rel) + 1 != l->nthreads)
        return;
    /* The last thread: the execution is over; a cancelled one's time says
     * nothing about its schedule. */
    double ns = (double)(now - l->t0);
    bool timed = !ws_loop_is_cancelled(l);
    if (timed && l->sched == ICV_SCHED_ADAPTIVE && l->ranges && ns >= LOOP_SPLIT_MIN_NS)
        learn_split(rec, l);
    mutex_lock(&rec->lock);
    rec->calls++;
    rec->iterations += l->n;
    rec->kind = l->sched;
    if (timed)
        rec->last_ns = ns;
    if (l->cand >= 0) {
        rec->kind_calls[l->cand]++;
        if (timed)
            loop_auto_record(&rec->sel, (enum loop_cand)l->cand, ns);
    }
    mutex_unlock(&rec->lock);
    loop_hist_release(rec);
}
