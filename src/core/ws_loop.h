/* ws_loop.h — the shared and per-thread state of a worksharing loop, claiming chunks of it, and the work-share slot that carries it. */
#ifndef ILAN_CORE_WS_LOOP_H
#define ILAN_CORE_WS_LOOP_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/tunables.h"
#include "config/icv.h"
#include "core/wait.h"
#include "sched/iter.h"
#include "sched/loop_chunks.h"
#include "core/ws_factor.h"
#include "core/ws_steal.h"

/* Ordered: where a thread waiting for the ordered token sleeps. */
struct ordered_waiter {
    alignas(ILAN_CACHE_LINE) _Atomic iter_ull want; /* lb of the chunk the thread waits to own (+1; 0 none) */
    seqword wake;                                  /* advanced by the token passer that hands it lb */
};

/* Doacross: one record per group of dimension-0 iterations that a single
 * thread executes in order (see ordered.c). */
struct doacross_ent {
    _Atomic iter_ull posted; /* highest flattened iteration posted + 1; 0 none */
    seqword wake;            /* advanced by the (single) poster after each post */
};

/* Doacross: what GOMP_doacross_{post,wait} need about the loop nest. */
struct doacross {
    unsigned ncounts;        /* dimensions of the ordered(n) nest */
    int map;                 /* how dim-0 iterations map to records: DOACROSS_MAP_* */
    unsigned nthreads;       /* team size */
    iter_ull chunk;          /* chunk size of the schedule (static chunked, dynamic) */
    iter_ull *counts;        /* iterations per dimension [ncounts] */
    iter_ull *strides;       /* flattening multipliers [ncounts] (last one is 1) */
    unsigned char *ents;     /* records: struct doacross_ent every `ent_size` bytes */
    size_t ent_size;         /* bytes between records (a cache line when few) */
    iter_ull nents;          /* records */
};

/* Shared state of one worksharing loop (or sections), inside a work-share
 * slot. Written by the slot's initializer before it publishes the slot,
 * read-only afterwards except for the atomics. */
struct ws_loop {
    int sched;                 /* ICV_SCHED_STATIC / _DYNAMIC / _GUIDED, or one of ilan's kinds:
                                  _ADAPTIVE, _STATIC_STEAL, _FAC2, _TSS, _AF (no monotonic bit) */
    bool ull;                  /* iteration variables are unsigned long long */
    bool ordered;              /* the loop has an ordered clause (token protocol, ordered.c) */
    unsigned nthreads;         /* threads of the team executing the loop */
    iter_ull n;                /* logical iteration count */
    iter_ull chunk;            /* chunk size in iterations; 0 only for unchunked static */
    iter_ull start;            /* first iteration value (bits of a long or an ull) */
    iter_ull end;              /* the loop's end value as given (bits), iend of the last chunk */
    iter_ull incr;             /* increment (bits; negative two's complement when counting down) */
    bool dyn_fast;             /* dynamic claims may use fetch-add: next cannot wrap around */
    void *mem;                 /* GOMP_loop_start's `mem` scratch block for this construct */
    struct doacross *doacross; /* doacross bookkeeping, NULL when not a doacross loop */
    struct ordered_waiter *waiters; /* ordered: one wake word per team thread */
    unsigned char *buf;        /* per-slot heap buffer holding mem, waiters, doacross; reused */
    size_t buf_cap;            /* bytes allocated in buf */
    _Atomic bool cancelled;    /* this construct was cancelled (see iter_cancel) */
    struct loop_range *ranges; /* adaptive, static_steal: one range per thread (in buf) */
    _Atomic uint64_t *has_work; /* adaptive, static_steal: which ranges may have work (in buf,
                                   after the ranges; core/ws_steal.h) */
    struct loop_af *af;        /* af: every thread's timing of its chunks (in buf) */
    struct loop_rec *rec;      /* the loop identity's record (core/loop_hist.h), or NULL */
    int cand;                  /* schedule(auto): the candidate this execution runs; -1 not auto */
    uint64_t t0;               /* when the loop was set up (ns, os_clock_ns), with rec */

    alignas(ILAN_CACHE_LINE) _Atomic iter_ull next; /* next unclaimed logical iteration (dynamic, guided) */

    alignas(ILAN_CACHE_LINE) _Atomic iter_ull ordered_pos; /* ordered: lb of the chunk holding the token */

    alignas(ILAN_CACHE_LINE) _Atomic unsigned finished; /* with rec: threads done with it */
};


/* Per-thread state of the loop the thread is executing. */
struct loop_thread {
    iter_ull static_trip; /* chunks of a static schedule taken so far */
    iter_ull lb, le;      /* logical bounds of the chunk the thread holds */
    bool has_chunk;       /* ordered: lb..le is held and its token not yet passed on */
    bool finished;        /* done with the loop (counted once in ws_loop finished) */
    unsigned chunks;      /* chunks taken in this loop */
    struct steal_thread steal;  /* adaptive, static_steal (core/ws_steal.h) */
    struct factor_thread factor; /* fac2, tss, af (core/ws_factor.h) */
};

/* The doacross record of dimension-0 iteration i. */
static inline iter_ull doacross_ent(const struct doacross *d, iter_ull i)
{
    return iter_doacross_ent(d->map, d->counts[0], d->chunk, d->nthreads, i);
}

/* ---- the engine: claims on a shared struct ws_loop ---- */

/* Fills *l for a loop of n logical iterations. chunk <= 0 means the
 * schedule's default (unchunked static, 1 for dynamic/guided). Leaves
 * buf/buf_cap alone and clears mem, doacross, waiters, cancelled. */
void ws_loop_init(struct ws_loop *l, int sched, iter_ull n, iter_ull chunk, unsigned nthreads);

/* Whether sched (no monotonic bit) is a kind the engine runs. */
bool ws_loop_kind_known(int sched);

/* Bytes of the slot's buffer (cache-line aligned) the engine of l->sched
 * needs for a team of nthreads: adaptive's ranges, AF's timings; 0 for the
 * others. */
size_t ws_loop_engine_space(int sched, unsigned nthreads);

/* After ws_loop_init, by the slot's initializer: hands the engine its part
 * of the buffer (ws_loop_engine_space bytes, zeroed) and sets it up (each
 * adaptive range starts as [bounds[t], bounds[t + 1]), a learnt split, or
 * with bounds NULL as the thread's static block). */
void ws_loop_engine_setup(struct ws_loop *l, void *space, const iter_ull *bounds);

/* ws_loop_next for every case but the inline one: static, guided, and dynamic
 * loops near the top of the 64-bit range (claimed by compare-and-swap). */
bool ws_loop_next_slow(struct ws_loop *l, struct loop_thread *lt, unsigned tid);

/* Claims the calling thread's next chunk (team_id tid) into lt->lb/le.
 * False when no work is left. Static uses lt->static_trip; dynamic and
 * guided use atomics on l->next. */
static inline bool ws_loop_next(struct ws_loop *l, struct loop_thread *lt, unsigned tid)
{
    /* The hot case inline: a dynamic loop whose counter cannot wrap. No
     * pre-check load, which would fetch the contended line twice: gcc's
     * code stops asking at the first `false`, so next stays below
     * n + (nthreads + 1) * chunk (iter_dynamic_fast_ok). */
    if (__builtin_expect(l->sched == ICV_SCHED_DYNAMIC && l->dyn_fast, 1)) {
        iter_ull got = atomic_fetch_add_explicit(&l->next, l->chunk, memory_order_relaxed);
        return iter_dynamic_take(got, l->n, l->chunk, &lt->lb, &lt->le);
    }
    return ws_loop_next_slow(l, lt, tid);
}

/* A zeroed block of `size` bytes owned by the slot (its buffer, grown when
 * too small, reused otherwise), aligned to the cache line. Only the slot's
 * initializer calls it, at most once per construct: it then carves the
 * block into what the construct needs (mem, ordered wake words, doacross). */
void *ws_loop_buf(struct ws_loop *l, size_t size);

/* Frees what the slot's loop state owns (when a team is destroyed). */
void ws_loop_destroy(struct ws_loop *l);

/* Cancellation of the construct in slot l (GOMP_cancel of a loop or
 * sections): every later claim returns no work. Cleared by the next
 * initializer of the slot. */
static inline void ws_loop_cancel(struct ws_loop *l)
{
    atomic_store_explicit(&l->cancelled, true, memory_order_release);
}

static inline bool ws_loop_is_cancelled(struct ws_loop *l)
{
    return atomic_load_explicit(&l->cancelled, memory_order_acquire);
}

/* ---- the work-share slot that carries a loop ---- */

/*
 * Every thread of a team meets the same sequence of worksharing constructs
 * (loops, sections). Each thread numbers them 1, 2, 3, ... in its own
 * thread state; construct k lives in slot k % ILAN_WS_RING of the team's
 * ring. The first thread to reach construct k claims the slot (once every
 * thread has left the construct that used it before), initializes it and
 * publishes it; the others wait for the publication, then join. `nowait`
 * lets fast threads run up to ILAN_WS_RING constructs ahead.
 */
struct ws {
    alignas(ILAN_CACHE_LINE) _Atomic unsigned claimed; /* number of the construct that owns the slot */
    seqword published;                                /* advanced by the initializer when ready */
    _Atomic unsigned published_k;                     /* construct number the published data is for */
    _Atomic unsigned left;                            /* threads that have left the construct */
    uintptr_t *task_reductions;                       /* reduction(task, ...): the initializer's
                                                         registered data (construct/task_reduction.c) */
    alignas(ILAN_CACHE_LINE) struct ws_loop loop;     /* loop / sections state (core/ws_loop.h) */
};

#endif
