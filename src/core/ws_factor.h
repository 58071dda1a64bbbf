/* ws_factor.h — the factoring family of loop schedules on a shared counter: FAC2 and TSS (chunk k's bounds from its number), AF (chunk sizes from the threads' measured iteration times). */
#ifndef ILAN_CORE_WS_FACTOR_H
#define ILAN_CORE_WS_FACTOR_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/tunables.h"
#include "sched/iter.h"
#include "sched/loop_chunks.h"

/* AF: one thread's running timing of its chunks, alone on its cache line;
 * written by its thread, read by every claimer (loop_af_size). */
struct loop_af {
    alignas(ILAN_CACHE_LINE) _Atomic double mean; /* mean time of one iteration (ns) */
    _Atomic double var;                           /* variance of that time (ns^2) */
    _Atomic unsigned count;                       /* chunks timed */
    double m2;                                    /* Welford's sum of squares (own thread only) */
};

/* A thread's private state in the factoring loop it runs (zeroed at the
 * loop's start with the rest of struct loop_thread). */
struct factor_thread {
    struct fac_cursor fac; /* fac2: the batch its latest chunk was in */
    uint64_t t_prev;       /* af: when it took its previous chunk (ns; 0 none) */
    iter_ull prev_n;       /* af: iterations of that chunk */
};

/* FAC2 / TSS: the caller's next chunk. Each claim is one fetch-add on the
 * loop's counter, which numbers chunks (not iterations); the bounds of
 * chunk k come from sched/loop_chunks.h. False when k lies past the end. */
bool ws_factor_next_indexed(_Atomic iter_ull *next, bool fac2, iter_ull n, unsigned P, iter_ull c,
                            struct factor_thread *ft, iter_ull *lb, iter_ull *le);

/* AF: the caller (team slot tid) times the chunk it just finished, then
 * claims the size loop_af_size gives it with a compare-and-swap on the
 * loop's counter of iterations. */
bool ws_factor_next_af(_Atomic iter_ull *next, struct loop_af *af, iter_ull n, unsigned P,
                       iter_ull c, struct factor_thread *ft, unsigned tid, iter_ull *lb,
                       iter_ull *le);

#endif
