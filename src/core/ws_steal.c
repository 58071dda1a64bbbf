/* ws_steal.c — the adaptive loop engine: THE-protocol pops from a thread's own range, steal-half from victims in locality order. */
#include "core/ws_steal.h"

#include <stdlib.h>

#include "instr/counters.h"
#include "os/linux/clock.h"
#include "os/linux/thread.h"
#include "sched/loop_chunks.h"
#include "sched/steal.h"

/* Below this a chunk of the owner's is cheap enough that the pop (a clock
 * read, a fence) would be a noticeable share of it: the owner doubles its
 * chunks (loop_pop_mult). */
#define STEAL_POP_TARGET_NS 2000

void ws_steal_init(struct loop_range *ranges, _Atomic uint64_t *has_work, iter_ull n,
                   unsigned nthreads, const iter_ull *bounds)
{
    for (unsigned w = 0; w < ws_steal_mask_words(nthreads); w++)
        atomic_store_explicit(&has_work[w], 0, memory_order_relaxed);
    for (unsigned i = 0; i < nthreads; i++) {
        iter_ull lb, le;
        if (bounds) {
            lb = bounds[i];
            le = bounds[i + 1];
        } else if (!iter_static_block(n, nthreads, i, &lb, &le)) {
            lb = le = n;
        }
        ranges[i].origin = i;
        atomic_store_explicit(&ranges[i].mult, 1, memory_order_relaxed);
        ranges[i].first = lb;
        atomic_store_explicit(&ranges[i].ran, 0, memory_order_relaxed);
        atomic_store_explicit(&ranges[i].ran_ns, 0, memory_order_relaxed);
        atomic_store_explicit(&ranges[i].begin, lb, memory_order_relaxed);
        atomic_store_explicit(&ranges[i].end, le, memory_order_relaxed);
        atomic_store_explicit(&ranges[i].lock, 0, memory_order_relaxed);
        if (lb < le)
            atomic_fetch_or_explicit(&has_work[i / 64], (uint64_t)1 << (i % 64),
                                     memory_order_relaxed);
    }
}

/* Whether range i's bit is set. */
static inline bool may_have_work(_Atomic uint64_t *has_work, unsigned i)
{
    return atomic_load_explicit(&has_work[i / 64], memory_order_relaxed) >> (i % 64) & 1;
}

/* Sets range i's bit (a read first: most calls find it as wanted, and the
 * word is read by every thief). */
static inline void mark_work(_Atomic uint64_t *has_work, unsigned i)
{
    uint64_t bit = (uint64_t)1 << (i % 64);
    if (!(atomic_load_explicit(&has_work[i / 64], memory_order_relaxed) & bit))
        atomic_fetch_or_explicit(&has_work[i / 64], bit, memory_order_relaxed);
}

/* Clears range i's bit: the range is empty. */
static inline void mark_empty(_Atomic uint64_t *has_work, unsigned i)
{
    uint64_t bit = (uint64_t)1 << (i % 64);
    if (atomic_load_explicit(&has_work[i / 64], memory_order_relaxed) & bit)
        atomic_fetch_and_explicit(&has_work[i / 64], ~bit, memory_order_relaxed);
}

static bool range_trylock(struct loop_range *r)
{
    unsigned free_ = 0;
    return atomic_load_explicit(&r->lock, memory_order_relaxed) == 0 &&
           atomic_compare_exchange_strong_explicit(&r->lock, &free_, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}

/* The owner's lock: a thief holds it for a few instructions, unless it was
 * preempted (oversubscribed teams), hence the yield. */
static void range_lock(struct loop_range *r)
{
    for (unsigned spins = 0; !range_trylock(r); spins++) {
        if (spins < 64)
            os_cpu_relax();
        else
            os_yield();
    }
}

static void range_unlock(struct loop_range *r)
{
    atomic_store_explicit(&r->lock, 0, memory_order_release);
}

/* The owner's pop of up to k iterations from the front of r, after a
 * conflict with a thief (or to see that r is empty): under the lock. */
static __attribute__((noinline)) bool pop_locked(struct loop_range *r,
                                                 _Atomic uint64_t *has_work, unsigned tid,
                                                 iter_ull b, iter_ull k, iter_ull *lb,
                                                 iter_ull *le)
{
    range_lock(r);
    iter_ull e = atomic_load_explicit(&r->end, memory_order_relaxed);
    bool got = b < e;
    iter_ull nb = b;
    if (got) {
        nb = e - b <= k ? e : b + k;
        *lb = b;
        *le = nb;
    }
    atomic_store_explicit(&r->begin, nb, memory_order_relaxed);
    if (nb >= e)
        mark_empty(has_work, tid);
    range_unlock(r);
    return got;
}

/* The owner (team slot tid) takes up to k iterations from the front of its
 * range r; once it took the last of them, its bit is cleared. */
static inline bool pop_own(struct loop_range *r, _Atomic uint64_t *has_work, unsigned tid,
                           iter_ull k, iter_ull *lb, iter_ull *le)
{
    iter_ull b = atomic_load_explicit(&r->begin, memory_order_relaxed);
    iter_ull e = atomic_load_explicit(&r->end, memory_order_relaxed);
    if (b >= e)
        return pop_locked(r, has_work, tid, b, k, lb, le);
    iter_ull nb = e - b <= k ? e : b + k;
    atomic_store_explicit(&r->begin, nb, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (nb <= atomic_load_explicit(&r->end, memory_order_relaxed)) {
        *lb = b;
        *le = nb;
        if (nb == e) /* nothing left: thieves may skip the range */
            mark_empty(has_work, tid);
        return true;
    }
    return pop_locked(r, has_work, tid, b, k, lb, le);
}

/* What a steal attempt found. */
enum steal_result {
    STEAL_GOT,   /* [*lb, *le) is the thief's */
    STEAL_EMPTY, /* the victim had nothing left */
    STEAL_BUSY,  /* locked by someone else, or the owner got there first: may have work */
};

/* A thief takes half of v's (range `victim`'s) untaken iterations
 * (loop_steal_size) from its back; taking them all clears v's bit. */
static enum steal_result steal_half(struct loop_range *v, _Atomic uint64_t *has_work,
                                    unsigned victim, iter_ull c, iter_ull *lb, iter_ull *le,
                                    unsigned *origin, iter_ull *mult)
{
    if (atomic_load_explicit(&v->begin, memory_order_relaxed) >=
        atomic_load_explicit(&v->end, memory_order_relaxed))
        return STEAL_EMPTY;
    if (!range_trylock(v))
        return STEAL_BUSY;
    iter_ull b = atomic_load_explicit(&v->begin, memory_order_relaxed);
    iter_ull e = atomic_load_explicit(&v->end, memory_order_relaxed);
    if (b >= e) {
        range_unlock(v);
        return STEAL_EMPTY;
    }
    iter_ull ne = e - loop_steal_size(e - b, c);
    atomic_store_explicit(&v->end, ne, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&v->begin, memory_order_relaxed) > ne) {
        atomic_store_explicit(&v->end, e, memory_order_relaxed);
        range_unlock(v);
        return STEAL_BUSY;
    }
    if (ne == b)
        mark_empty(has_work, victim);
    *origin = v->origin;
    *mult = atomic_load_explicit(&v->mult, memory_order_relaxed);
    range_unlock(v);
    *lb = ne;
    *le = e;
    return STEAL_GOT;
}

/* The thief's stolen [lb, le), part of block `origin`, becomes its own
 * range, minus the first k iterations, which it runs now. Its range was
 * empty, so only thieves can be looking at it: the lock keeps them out
 * while both ends change. */
static void install(struct loop_range *own, _Atomic uint64_t *has_work, unsigned tid,
                    unsigned origin, iter_ull k, iter_ull *lb, iter_ull *le)
{
    iter_ull first_end = *le - *lb <= k ? *le : *lb + k;
    range_lock(own);
    own->origin = origin;
    if (first_end < *le) /* the bit before the work: a range with work has it set */
        mark_work(has_work, tid);
    atomic_store_explicit(&own->begin, first_end, memory_order_relaxed);
    atomic_store_explicit(&own->end, *le, memory_order_relaxed);
    range_unlock(own);
    *le = first_end;
}

/* Passes over the victims until one gives work, or a pass finds every
 * range empty and none busy. Locality first, strictly: a pass goes on to
 * other groups only once every range of the thief's own group (segment 0)
 * was seen empty in it; when one was busy (locked, or its owner racing the
 * thief), the pass starts over at the own group. A pass skips the ranges
 * whose bit is clear, except the last one before giving up, which reads
 * them all: a bit can be seen late. */
static __attribute__((noinline)) bool steal(struct loop_range *ranges, _Atomic uint64_t *has_work,
                                            iter_ull chunk, struct steal_thread *st, unsigned tid,
                                            iter_ull *lb, iter_ull *le, unsigned *origin,
                                            iter_ull *mult)
{
    const struct loop_victims *v = st->victims;
    if (!v || v->n == 0)
        return false;
    /* Steal in units of the thief's own pop (c times its multiplier), not
     * of c: a piece smaller than what the thief pops at once costs a steal
     * per few microseconds of work. With threads preempted (more threads
     * than CPUs) halving each range down to single iterations took 400
     * steals per 1 ms loop of 16 threads. */
    iter_ull unit = loop_pop_size(UINT64_MAX, chunk, st->mult);
    if (st->rnd == 0)
        st->rnd = steal_seed(tid + 1);
    bool every = false; /* this pass reads every range, bits or not */
    for (unsigned pass = 0;; pass++) {
        bool busy = false;
        uint64_t rnd = steal_rand(&st->rnd);
        for (unsigned i = 0; i < v->n; i++) {
            if (busy && v->nseg > 1 && i == v->seg_end[0])
                break; /* own group not seen empty: not on to the others */
            unsigned victim = loop_victim_at(v, i, rnd);
            if (!every && !may_have_work(has_work, victim))
                continue;
            enum steal_result r =
                steal_half(&ranges[victim], has_work, victim, unit, lb, le, origin, mult);
            if (r == STEAL_GOT) {
                bool local = v->group_of[victim] == v->group_of[tid];
                if (local)
                    st->steals_local++;
                else
                    st->steals_remote++;
                ILAN_COUNT_IF(local, loop_steals_local, loop_steals_remote);
                return true;
            }
            busy |= r == STEAL_BUSY;
        }
        if (!busy) {
            if (every)
                return false;
            every = true;
            continue;
        }
        every = false;
        if (pass < 16)
            os_cpu_relax();
        else
            os_yield();
    }
}

bool ws_steal_next(struct loop_range *ranges, _Atomic uint64_t *has_work, iter_ull chunk,
                   struct steal_thread *st, unsigned tid, iter_ull *lb, iter_ull *le)
{
    struct loop_range *own = &ranges[tid];
    /* Chunks grow while they are short (loop_pop_mult): the clock read is
     * the price of taking c = 1 by default without paying per iteration.
     * While the multiplier holds, reads grow rarer (loop_pop_stride), each
     * timing the chunks since the previous one. */
    if (st->skip) {
        st->skip--;
    } else {
        uint64_t now = os_clock_ns();
        unsigned stride = st->stride ? st->stride : 1;
        if (st->t_prev) {
            iter_ull mult = loop_pop_mult(st->mult, (now - st->t_prev) / stride,
                                          STEAL_POP_TARGET_NS);
            st->stride = loop_pop_stride(stride, mult == st->mult);
            if (mult != (st->mult ? st->mult : 1)) /* for whoever steals from this range */
                atomic_store_explicit(&own->mult, mult, memory_order_relaxed);
            st->mult = mult;
        } else {
            st->stride = 1;
            st->range_t = now; /* its own block's timing starts with its first pop */
            st->range_lo = own->first;
            st->timing = st->measure;
        }
        st->t_prev = now;
        st->skip = st->stride - 1;
    }
    iter_ull b = atomic_load_explicit(&own->begin, memory_order_relaxed);
    iter_ull e = atomic_load_explicit(&own->end, memory_order_relaxed);
    /* At least one: an empty chunk would still run one iteration, since
     * gcc's code tests the bound after the body. */
    iter_ull k = loop_pop_size(e > b ? e - b : 0, chunk, st->mult);
    if (k == 0)
        k = chunk ? chunk : 1;
    if (pop_own(own, has_work, tid, k, lb, le))
        return true;
    if (st->timing) {
        /* The range is done: the thread ran it from range_lo up to where
         * thieves took the rest (end, now that it is empty). */
        st->timing = false;
        iter_ull stop = atomic_load_explicit(&own->end, memory_order_relaxed);
        struct loop_range *from = &ranges[own->origin];
        atomic_fetch_add_explicit(&from->ran, stop > st->range_lo ? stop - st->range_lo : 0,
                                  memory_order_relaxed);
        atomic_fetch_add_explicit(&from->ran_ns, os_clock_ns() - st->range_t,
                                  memory_order_relaxed);
    }
    unsigned origin;
    iter_ull victim_mult;
    if (!steal(ranges, has_work, chunk, st, tid, lb, le, &origin, &victim_mult))
        return false;
    /* The thief pops what it stole with its victim's multiplier, learnt on
     * those iterations, not with its own, learnt on others that may cost
     * far less (the time-stepping kernel's band: 30 times dearer). */
    st->mult = victim_mult;
    atomic_store_explicit(&own->mult, victim_mult, memory_order_relaxed);
    if (st->measure) {
        st->timing = true;
        st->range_t = os_clock_ns();
        st->range_lo = *lb;
    }
    st->stride = 1;
    st->skip = 0;
    /* The thief's first pop is an owner's pop of what it stole, at most
     * half of it, so the rest stays stealable. A whole pop of its own size
     * instead (for a while, to spare the simulator's 48-thread K-Means-like
     * loop a cascade of steals: 136.0 -> 133.4 ms for 30 passes) ran, in
     * one go, what its owner had left when the thief's pop was learnt on
     * cheaper iterations: the time-stepping kernel's band of 30 times
     * dearer cells took 0.147 s instead of 0.107 at 4 threads on 2 CPUs,
     * 0.170 instead of 0.111 at 2 before splits were learnt. */
    install(own, has_work, tid, origin, loop_pop_size(*le - *lb, chunk, st->mult), lb, le);
    return true;
}

void ws_steal_cache_free(struct loop_victim_cache *vc)
{
    free(vc->v.order);
    free(vc->v.seg_end);
    free(vc->v.group_of);
    *vc = (struct loop_victim_cache){0};
}

static __thread struct loop_victim_cache victim_caches[2]; /* by enum victim_user */

struct loop_victim_cache *ws_steal_thread_cache(enum victim_user user)
{
    return &victim_caches[user];
}

void ws_steal_thread_exit(void)
{
    ws_steal_cache_free(&victim_caches[VICTIMS_FOR_LOOPS]);
    ws_steal_cache_free(&victim_caches[VICTIMS_FOR_TASKS]);
}
