/* ws_factor.c — FAC2, TSS and AF claims on a worksharing loop's shared counter. */
#include "core/ws_factor.h"

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
    /* Every thread's statistics as they are now (a stale one only shifts
     * a chunk size a little), summed as they are read. */
    struct loop_af_sums sums = {.P = P};
    double mu_me = 0;
    unsigned count_me = 0;
    for (unsigned j = 0; j < P; j++) {
        double mu = atomic_load_explicit(&af[j].mean, memory_order_relaxed);
        unsigned cnt = atomic_load_explicit(&af[j].count, memory_order_relaxed);
        loop_af_sums_add(&sums, mu, atomic_load_explicit(&af[j].var, memory_order_relaxed), cnt);
        if (j == tid) {
            mu_me = mu;
            count_me = cnt;
        }
    }
    iter_ull cur = atomic_load_explicit(next, memory_order_relaxed);
    for (;;) {
        if (cur >= n) {
            ft->prev_n = 0;
            return false;
        }
        iter_ull take = loop_af_size_sums(n - cur, c, &sums, mu_me, count_me);
        if (atomic_compare_exchange_weak_explicit(next, &cur, cur + take, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            *lb = cur;
            *le = cur + take;
            ft->prev_n = take;
            return true;
        }
    }
}
