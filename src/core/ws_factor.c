/* ws_factor.c — FAC2, TSS and AF claims on a worksharing loop's shared counter. */
#include "core/ws_factor.h"

#include <stdlib.h>
#include "base/fatal.h"
#include "core/ws_loop.h"
#include "os/linux/clock.h"

bool ws_factor_next_indexed(struct ws_loop *l, struct loop_thread *lt)
{
    /* The counter stays below n + nthreads: every thread stops at its
     * first claim past the end. */
    iter_ull k = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);
    if (l->sched == ICV_SCHED_FAC2)
        return loop_fac2_chunk(l->n, l->nthreads, l->chunk, k, &lt->fac, &lt->lb, &lt->le);
    return loop_tss_chunk(l->n, l->nthreads, l->chunk, k, &lt->lb, &lt->le);
}

/* A thread's copy of the team's AF statistics (grown, never shrunk). */
struct af_scratch {
    double *mu;      /* [cap] mean time per iteration of each thread */
    double *var;     /* [cap] its variance */
    unsigned *count; /* [cap] chunks each has timed */
    unsigned cap;    /* threads it has room for */
};
static __thread struct af_scratch af_scratch;

static struct af_scratch *af_scratch_for(unsigned P)
{
    struct af_scratch *sc = &af_scratch;
    if (sc->cap < P) {
        free(sc->mu);
        free(sc->var);
        free(sc->count);
        sc->mu = malloc(P * sizeof *sc->mu);
        sc->var = malloc(P * sizeof *sc->var);
        sc->count = malloc(P * sizeof *sc->count);
        if (!sc->mu || !sc->var || !sc->count)
            ilan_fatal("out of memory (schedule af for %u threads)", P);
        sc->cap = P;
    }
    return sc;
}

bool ws_factor_next_af(struct ws_loop *l, struct loop_thread *lt, unsigned tid)
{
    unsigned P = l->nthreads;
    struct loop_af *me = &l->af[tid];
    uint64_t now = os_clock_ns();
    if (lt->t_prev && lt->prev_n) {
        double mean = atomic_load_explicit(&me->mean, memory_order_relaxed);
        unsigned count = atomic_load_explicit(&me->count, memory_order_relaxed);
        loop_af_sample(&mean, &me->m2, &count, lt->prev_n, (double)(now - lt->t_prev));
        atomic_store_explicit(&me->mean, mean, memory_order_relaxed);
        atomic_store_explicit(&me->var, count ? me->m2 / count : 0, memory_order_relaxed);
        atomic_store_explicit(&me->count, count, memory_order_relaxed);
    }
    lt->t_prev = now;
    /* Every thread's statistics, as they are now (stale ones only shift a
     * chunk size a little), copied for the pure size rule. */
    struct af_scratch *sc = af_scratch_for(P);
    for (unsigned j = 0; j < P; j++) {
        sc->mu[j] = atomic_load_explicit(&l->af[j].mean, memory_order_relaxed);
        sc->var[j] = atomic_load_explicit(&l->af[j].var, memory_order_relaxed);
        sc->count[j] = atomic_load_explicit(&l->af[j].count, memory_order_relaxed);
    }
    iter_ull cur = atomic_load_explicit(&l->next, memory_order_relaxed);
    for (;;) {
        if (cur >= l->n) {
            lt->prev_n = 0;
            return false;
        }
        iter_ull take = loop_af_size(l->n - cur, P, l->chunk, tid, sc->mu, sc->var, sc->count);
        if (atomic_compare_exchange_weak_explicit(&l->next, &cur, cur + take,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            lt->lb = cur;
            lt->le = cur + take;
            lt->prev_n = take;
            return true;
        }
    }
}
