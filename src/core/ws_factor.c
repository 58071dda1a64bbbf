/* ws_factor.c — FAC2, TSS and AF claims on a worksharing loop's shared counter. */
#include "core/ws_factor.h"

#include <stdlib.h>
#include "base/fatal.h"
#include "os/linux/clock.h"

bool ws_factor_next_indexed(_Atomic iter_ull *next, bool fac2, iter_ull n, unsigned P, iter_ull c,
                            struct factor_thread *ft, iter_ull *lb, iter_ull *le)
{
    /* The counter stays below n + P: every thread stops at its first
     * claim past the end. */
    iter_ull k = atomic_fetch_add_explicit(next, 1, memory_order_relaxed);
    if (fac2)
        return loop_fac2_chunk(n, P, c, k, &ft->fac, lb, le);
    return loop_tss_chunk(n, P, c, k, lb, le);
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

bool ws_factor_next_af(_Atomic iter_ull *next, struct loop_af *af, iter_ull n, unsigned P,
                       iter_ull c, struct factor_thread *ft, unsigned tid, iter_ull *lb,
                       iter_ull *le)
{
    struct loop_af *me = &af[tid];
    uint64_t now = os_clock_ns();
    if (ft->t_prev && ft->prev_n) {
        double mean = atomic_load_explicit(&me->mean, memory_order_relaxed);
        unsigned count = atomic_load_explicit(&me->count, memory_order_relaxed);
        loop_af_sample(&mean, &me->m2, &count, ft->prev_n, (double)(now - ft->t_prev));
        atomic_store_explicit(&me->mean, mean, memory_order_relaxed);
        atomic_store_explicit(&me->var, count ? me->m2 / count : 0, memory_order_relaxed);
        atomic_store_explicit(&me->count, count, memory_order_relaxed);
    }
    ft->t_prev = now;
    /* Every thread's statistics, as they are now (stale ones only shift a
     * chunk size a little), copied for the pure size rule. */
    struct af_scratch *sc = af_scratch_for(P);
    for (unsigned j = 0; j < P; j++) {
        sc->mu[j] = atomic_load_explicit(&af[j].mean, memory_order_relaxed);
        sc->var[j] = atomic_load_explicit(&af[j].var, memory_order_relaxed);
        sc->count[j] = atomic_load_explicit(&af[j].count, memory_order_relaxed);
    }
    iter_ull cur = atomic_load_explicit(next, memory_order_relaxed);
    for (;;) {
        if (cur >= n) {
            ft->prev_n = 0;
            return false;
        }
        iter_ull take = loop_af_size(n - cur, P, c, tid, sc->mu, sc->var, sc->count);
        if (atomic_compare_exchange_weak_explicit(next, &cur, cur + take, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *lb = cur;
            *le = cur + take;
            ft->prev_n = take;
            return true;
        }
    }
}
