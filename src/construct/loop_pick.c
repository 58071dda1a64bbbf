/* loop_pick.c — choosing a loop's engine (adaptive for nonmonotonic dynamic, OMP_SCHEDULE's kinds, schedule(auto)'s trial), its thieves' victim order and its record for ILAN_REPORT. */
#include "construct/loop_pick.h"

#include <stdlib.h>
#include "base/fatal.h"
#include "config/icv.h"
#include "core/loop_hist.h"
#include "core/team_desc.h"
#include "ilan/groups.h"
#include "os/linux/clock.h"
#include "sched/loop_auto.h"
#include "sched/loop_chunks.h"
#include "topo/topo.h"

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
    int s = (int)(ts->icv.run_sched & ~(unsigned)ICV_SCHED_MONOTONIC);
    long c = ts->icv.run_sched_chunk;
    switch (s) {
    case ICV_SCHED_DYNAMIC:
    case ICV_SCHED_GUIDED:
    case ICV_SCHED_STATIC:
        break;
    case ICV_SCHED_ADAPTIVE:
    case ICV_SCHED_STATIC_STEAL:
    case ICV_SCHED_FAC2:
    case ICV_SCHED_TSS:
    case ICV_SCHED_AF:
        if (!may_reorder)
            s = ICV_SCHED_DYNAMIC;
        break;
    case ICV_SCHED_AUTO:
        if (may_reorder) {
            c = 0;
            break;
        }
        /* auto where order matters is unchunked static */
        __attribute__((fallthrough));
    default:
        s = ICV_SCHED_STATIC;
        c = 0;
        break;
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

/* Distances between a team's groups: NUMA distances when groups are nodes;
 * otherwise how far apart their ids are (caches or cores numbered close
 * together share more). */
static int *group_distances(const struct team_groups *g)
{
    unsigned G = g->ngroups;
    int *dist = malloc((size_t)G * G * sizeof *dist);
    if (!dist)
        ilan_fatal("out of memory (adaptive loop victims, %u groups)", G);
    for (unsigned a = 0; a < G; a++)
        for (unsigned b = 0; b < G; b++) {
            int ia = g->model_id[a], ib = g->model_id[b];
            if (g->kind == GROUP_NODE && ia >= 0 && ib >= 0)
                dist[a * G + b] = topo_distance(ia, ib);
            else
                dist[a * G + b] = ia > ib ? ia - ib : ib - ia;
        }
    return dist;
}

const struct loop_victims *loop_pick_victims(struct ilan_thread *ts, const struct ws_loop *l)
{
    struct team *team = ts->team;
    if (!team || team->nthreads < 2)
        return NULL;
    unsigned n = team->nthreads;
    const struct team_groups *g = team->ilan ? &team->ilan->groups : NULL;
    if (g && (g->nthreads != n || g->ngroups < 2))
        g = NULL;
    struct loop_victim_cache *vc = &ts->victims;
    if (vc->team == team && vc->groups == (const void *)g && vc->nthreads == n &&
        vc->locality == l->locality)
        return &vc->v;
    if (vc->cap < n) {
        free(vc->v.order);
        free(vc->v.seg_end);
        free(vc->v.group_of);
        vc->v.order = malloc(n * sizeof *vc->v.order);
        vc->v.seg_end = malloc(n * sizeof *vc->v.seg_end);
        vc->v.group_of = malloc(n * sizeof *vc->v.group_of);
        if (!vc->v.order || !vc->v.seg_end || !vc->v.group_of)
            ilan_fatal("out of memory (adaptive loop victims, %u threads)", n);
        vc->cap = n;
    }
    int *dist = g ? group_distances(g) : NULL;
    loop_victims_build(ts->team_id, n, g ? g->slot_group : NULL, g ? g->ngroups : 1, dist,
                       !l->locality, &vc->v);
    free(dist);
    vc->team = team;
    vc->groups = g;
    vc->nthreads = n;
    vc->locality = l->locality;
    return &vc->v;
}

void loop_pick_finish(struct ilan_thread *ts, struct ws_loop *l)
{
    struct loop_rec *rec = l->rec;
    const struct loop_thread *lt = &ts->loop;
    bool last = atomic_fetch_add_explicit(&l->finished, 1, memory_order_acq_rel) + 1 ==
                l->nthreads;
    uint64_t now = last ? os_clock_ns() : 0;
    mutex_lock(&rec->lock);
    rec->chunks += lt->chunks;
    rec->steals_local += lt->steal.steals_local;
    rec->steals_remote += lt->steal.steals_remote;
    if (last) {
        double ns = (double)(now - l->t0);
        rec->calls++;
        rec->iterations += l->n;
        rec->kind = l->sched;
        rec->last_ns = ns;
        if (l->cand >= 0) {
            rec->kind_calls[l->cand]++;
            loop_auto_record(&rec->sel, (enum loop_cand)l->cand, ns);
        }
    }
    mutex_unlock(&rec->lock);
}
