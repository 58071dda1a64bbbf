/* ws_steal.h — the adaptive loop engine (seed 001): one iteration range per thread, the owner taking chunks from its front without atomic read-modify-writes (THE protocol), idle threads stealing half of a victim's rest from its back. */
#ifndef ILAN_CORE_WS_STEAL_H
#define ILAN_CORE_WS_STEAL_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/tunables.h"
#include "sched/iter.h"
#include "sched/loop_victims.h"

/*
 * One thread's range [begin, end) of logical iterations, alone on its
 * cache line. The owner writes begin, thieves write end; both under the
 * THE protocol:
 *
 *   owner pop:  begin = b + k; fence; read end: when b + k <= end the
 *               chunk [b, b + k) is its own; otherwise a thief may have
 *               lowered end: it takes the lock and settles with the end it
 *               then reads.
 *   thief:      lock; end = e - s; fence; read begin: when begin <= e - s
 *               the back [e - s, e) is its own; otherwise the owner got
 *               there first: end goes back to e and the thief tries
 *               elsewhere. unlock.
 *
 * Either the owner sees the thief's end or the thief sees the owner's
 * begin (both fence between their store and their load), so a chunk is
 * never both popped and stolen. The owner declares its range empty only
 * under the lock, so no iteration is left behind by a thread that leaves.
 *
 * Beside the ranges, a bitmap says which of them may have work (bit t of
 * word t / 64: range t). Thieves look only at ranges whose bit is set: at
 * the end of a loop most ranges are empty, and reading each one's line to
 * find that out cost a 48-thread K-Means-like loop 40,000 looks per
 * execution in the simulator. A bit is set before its range gets work
 * (install) and cleared once the range is empty, by its owner after a
 * pop that took its last iterations or by a thief that took them all
 * (under the range's lock, which install also holds). So a range with
 * work has its bit set; a set bit may be stale (a look finds nothing).
 * Before a thief gives up it looks at every range once, bits or not.
 */
struct loop_range {
    alignas(ILAN_CACHE_LINE) _Atomic iter_ull begin; /* next iteration the owner takes */
    _Atomic iter_ull end;                            /* end of the range; thieves lower it */
    _Atomic unsigned lock;                           /* 0 free; 1 held by a thief, or by the
                                                        owner settling a conflict */
    unsigned origin; /* the block (thread slot) the range's iterations come from:
                        every range is part of one starting block */
    _Atomic iter_ull mult; /* the multiplier its holder pops with, learnt on these
                              iterations (1 at the start); a thief takes it over */
    /* What the threads measured of this range's starting block, for the
     * next execution's split (sched/loop_split.h): each thread adds what
     * it ran of a range once the range is empty; the loop's last thread
     * reads them after every thread finished. */
    iter_ull first;             /* the block's first iteration at the loop's start */
    _Atomic iter_ull ran;       /* iterations of the block timed */
    _Atomic uint64_t ran_ns;    /* the time they took */
};

/* A thread's victim order, kept across loops and task steals while the
 * groups it was built from stay the same (ilan/victims.c builds it).
 * Keyed on the groups' build number, not on the team's address: a team
 * freed and another allocated at its address may have other groups. */
struct loop_victim_cache {
    struct loop_victims v;   /* the order (sched/loop_victims.h) */
    bool valid;              /* v was built (the fields below say from what) */
    unsigned self;           /* the thread's team slot */
    unsigned nthreads;       /* the team's size */
    bool locality;           /* in locality order (false: one segment, static_steal) */
    uint64_t stamp;          /* the groups' build number (struct team_ilan); 0: no groups */
    unsigned cap;            /* entries allocated in the arrays (threads) */
};

/* Frees what the cache holds and marks it empty. */
void ws_steal_cache_free(struct loop_victim_cache *vc);

/* Who reads a victim order: an adaptive loop's thief keeps its order for
 * the whole loop, a task thief only for one look. Each has its own cache,
 * so that a look's rebuild (other locality, another team) never changes
 * the order a loop is using. */
enum victim_user {
    VICTIMS_FOR_LOOPS, /* construct/loop.c, for the loop's length */
    VICTIMS_FOR_TASKS, /* core/task_sched.c and core/dlb.c, for one look */
};

/* The calling thread's victim cache for `user`. Thread-local, outside
 * struct ilan_thread: team.c saves a master's thread state at a region's
 * start and copies it back at its end, which would bring back arrays freed
 * (grown) inside a nested region, or lose the ones made in it. */
struct loop_victim_cache *ws_steal_thread_cache(enum victim_user user);

/* Frees the calling thread's victim caches: for its exit. */
void ws_steal_thread_exit(void);

/* A thread's private state in the adaptive loop it runs (zeroed at the
 * loop's start, with the rest of struct loop_thread). */
struct steal_thread {
    iter_ull mult;        /* chunk multiplier of its own pops (loop_pop_mult) */
    uint64_t t_prev;      /* when it last read the clock, taking a chunk (ns; 0 none) */
    unsigned stride;      /* chunks timed by the next read (loop_pop_stride; 0 as 1) */
    unsigned skip;        /* pops left before the next clock read */
    uint64_t rnd;         /* a thief's random state (0: not seeded yet) */
    const struct loop_victims *victims; /* its victim order (set by construct/loop.c) */
    unsigned steals_local;  /* steals from its own locality group */
    unsigned steals_remote; /* steals from other groups */
    bool measure;           /* the loop learns its split: time each range (set by
                               construct/loop.c) */
    bool timing;            /* measure: the current range is being timed */
    uint64_t range_t;       /* ...since then (ns; its first clock read for its block) */
    iter_ull range_lo;      /* ...from this iteration on */
};

/* Words of the has-work bitmap of nthreads ranges. */
static inline unsigned ws_steal_mask_words(unsigned nthreads)
{
    return (nthreads + 63) / 64;
}

/* Splits [0, n) over nthreads ranges: thread i starts with
 * [bounds[i], bounds[i + 1]) (a learnt split, sched/loop_split.h), or with
 * bounds NULL exactly its block of an unchunked static loop
 * (iter_static_block); the bitmap (ws_steal_mask_words words) marks the
 * non-empty ones. */
void ws_steal_init(struct loop_range *ranges, _Atomic uint64_t *has_work, iter_ull n,
                   unsigned nthreads, const iter_ull *bounds);

/* The calling thread's (team slot tid) next chunk [*lb, *le) of an
 * adaptive loop of the given ranges (and their has-work bitmap): from its
 * own range, else stolen (victims: st->victims). False once every range
 * has been seen empty. */
bool ws_steal_next(struct loop_range *ranges, _Atomic uint64_t *has_work, iter_ull chunk,
                   struct steal_thread *st, unsigned tid, iter_ull *lb, iter_ull *le);

#endif
