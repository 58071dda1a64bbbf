/* loop_pick.c — choosing a loop's engine (adaptive for nonmonotonic dynamic, OMP_SCHEDULE's kinds, schedule(auto)'s trial), its thieves' victim order and its record for ILAN_REPORT. */
#include "construct/loop_pick.h"

#include "config/icv.h"
#include "core/loop_hist.h"
#include "core/team_desc.h"
#include "ilan/victims.h"
#include "os/linux/clock.h"
#include "sched/loop_auto.h"
#include "sched/loop_chunks.h"

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

void loop_pick_setup(struct ws_loop *l, int sched, const void *site)
{
    bool is_auto = sched == ICV_SCHED_AUTO;
    if (!is_auto && !(loop_hist_on && site))
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
    atomic_fetch_add_explicit(&rec->chunks, lt->chunks, memory_order_relaxed);
    if (lt->steal.steals_local)
        atomic_fetch_add_explicit(&rec->steals_local, lt->steal.steals_local,
                                  memory_order_relaxed);
    if (lt->steal.steals_remote)
        atomic_fetch_add_explicit(&rec->steals_remote, lt->steal.steals_remote,
                                  memory_order_relaxed);
    if (atomic_fetch_add_explicit(&l->finished, 1, memory_order_acq_rel) + 1 != l->nthreads)
        return;
    /* The last thread: the execution is over; a cancelled one's time says
     * nothing about its schedule. */
    double ns = (double)(os_clock_ns() - l->t0);
    bool timed = !ws_loop_is_cancelled(l);
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
