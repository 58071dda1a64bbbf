/* steal.h — victim order for work stealing: a pure policy function (no threads, no atomics). */
#ifndef ILAN_SCHED_STEAL_H
#define ILAN_SCHED_STEAL_H

#include <stdbool.h>
#include <stdint.h>
#include "sched/loop_victims.h"

/* The stealing policies ILAN_TASK_STEAL selects. */
enum steal_policy {
    STEAL_RANDOM = 0, /* random victim, one task per steal, stick to the last victim (libomp) */
};

/* "No victim remembered". */
#define STEAL_NO_VICTIM 0xffffffffu

/* Parses an ILAN_TASK_STEAL value ("random"; case-insensitive, blanks
 * around allowed). False when invalid (out untouched). */
bool steal_parse_policy(const char *text, enum steal_policy *out);

/* One step of a xorshift64* generator; *state must be non-zero. */
uint64_t steal_rand(uint64_t *state);

/* A non-zero PRNG seed for thread `self` (deterministic per thread id). */
uint64_t steal_seed(unsigned self);

/*
 * The next victim for thief `self` in a team of `nthreads` (>= 2): the last
 * victim that yielded work, while it has some (the caller passes
 * STEAL_NO_VICTIM after a failed attempt on it), else a uniformly random
 * thread other than the thief, drawn from *rng. Never returns self.
 */
unsigned steal_next_victim(enum steal_policy policy, unsigned self, unsigned nthreads,
                           unsigned last_victim, uint64_t *rng);

/*
 * A quick look's victim for thief `self` over its locality order v (at
 * least two segments: its own group's other threads, then the other groups
 * nearest first; sched/loop_victims.h). With probability plocal a random
 * thread of its own group (never when it has none there), else a random
 * thread of another group: the nearest group on the look's first such
 * draw, the next nearest on its second, and so on round (*far counts the
 * look's draws of that kind; the caller zeroes it when a look begins). The
 * last victim that yielded work (or STEAL_NO_VICTIM) is kept while it is of
 * the kind drawn, so a thief that stole afar returns to its own group as
 * soon as a draw says so. Never returns self.
 */
unsigned steal_victim_near_first(const struct loop_victims *v, unsigned self, double plocal,
                                 unsigned last_victim, unsigned *far, uint64_t *rng);

/*
 * How many victims a thief tries in one look at a team of `nthreads`
 * (>= 2): a full look (before sleeping: it must not pass a task over)
 * every other thread once; a quick look `per_thread` random draws per team
 * thread, at most `cap`: in a team of thousands, 2 n draws per idle round
 * made idle threads spend seconds reading each other's deques (a taskloop
 * in a 5,000-thread team: 165 million tries for 10,000 tasks).
 */
unsigned steal_tries(unsigned nthreads, bool full, unsigned per_thread, unsigned cap);

#endif
