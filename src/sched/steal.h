/* steal.h — victim order for work stealing: a pure policy function (no threads, no atomics). */
#ifndef ILAN_SCHED_STEAL_H
#define ILAN_SCHED_STEAL_H

#include <stdbool.h>
#include <stdint.h>

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
 * How many victims a thief tries in one look at a team of `nthreads`
 * (>= 2): a full look (before sleeping: it must not pass a task over)
 * every other thread once; a quick look `per_thread` random draws per team
 * thread, at most `cap`: in a team of thousands, 2 n draws per idle round
 * made idle threads spend seconds reading each other's deques (a taskloop
 * in a 5,000-thread team: 165 million tries for 10,000 tasks).
 */
unsigned steal_tries(unsigned nthreads, bool full, unsigned per_thread, unsigned cap);

#endif
