/* loop_split.h — where the threads' ranges of a repeated adaptive loop start: the static split, or one learnt from the previous execution's cost per block (pure). */
#ifndef ILAN_SCHED_LOOP_SPLIT_H
#define ILAN_SCHED_LOOP_SPLIT_H

#include <stdbool.h>
#include <stdint.h>
#include "sched/iter.h"

/* A loop starts from a learnt split only once an execution of the static
 * split measured its dearest block at least this many times the mean
 * block: below it, the static split's data locality (first touch by a
 * static loop) is worth more than the steals it saves, and timing noise
 * (a vCPU held by its host for a while) must not move the blocks. */
#define LOOP_SPLIT_IMBALANCE 1.10

/* Executions shorter than this (ns) learn nothing: they have too little
 * to balance for a split to repay its bookkeeping (the loop's record costs
 * about 0.4 us an execution at 2 threads: 0.4 % here), and their blocks
 * are too short to time well. A thread that saw one sets up the next
 * LOOP_SPLIT_SKIP executions of the same loop without the record (static
 * split, nothing learnt), then looks again. */
#define LOOP_SPLIT_MIN_NS 100000.0
#define LOOP_SPLIT_SKIP 63u

/* Each bound moves this fraction of the way from where the execution's
 * block began to where blocks of equal cost would: a block's cost is known
 * only in all, so cost gathered in part of it (a band of dear iterations)
 * would otherwise throw the bound across the band and back, execution
 * after execution (the time-stepping kernel of ilan bench did). */
#define LOOP_SPLIT_STEP 0.5

/* A learnt split whose every bound lies within this fraction of a static
 * block of the static split's goes back to the static split: the loop is
 * balanced again (or only ever looked imbalanced through noise). */
#define LOOP_SPLIT_SNAP 0.05

/* What one execution measured: thread t's block was [start[t], start[t +
 * 1]) (start[T] = n); ran[t] of its iterations were timed, taking ns[t] ns
 * in all, whoever ran them (the owner its front, thieves what they took;
 * 0 and 0 when nothing of it was timed). */
struct loop_split_obs {
    iter_ull n;            /* the loop's iterations */
    unsigned T;            /* its threads */
    const iter_ull *start; /* [T + 1] the blocks the execution began with */
    const iter_ull *ran;   /* [T] iterations of each block timed */
    const uint64_t *ns;    /* [T] the time they took */
};

/*
 * The split the next execution starts from, into bounds[0..T] (bounds[0] =
 * 0, bounds[T] = n, non-decreasing): each bound LOOP_SPLIT_STEP of the way
 * to where every block would cost the same under the measured cost per
 * iteration, uniform within each old block (a block of which nothing was
 * timed takes its nearest measured neighbours' mean).
 * Returns false (bounds then undefined) when
 * the next execution is to start from the static split: nothing was
 * measured; or `learnt` is false (this execution ran the static split) and
 * its dearest block cost less than LOOP_SPLIT_IMBALANCE times the mean; or
 * the new split is within LOOP_SPLIT_SNAP of the static one.
 */
bool loop_split_next(const struct loop_split_obs *o, bool learnt, iter_ull *bounds);

#endif
