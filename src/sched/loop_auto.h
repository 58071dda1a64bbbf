/* loop_auto.h — schedule(auto)'s choice per loop identity: adaptive while warming up, a bounded trial of every candidate schedule, then the fastest, tried again when its time drifts (pure). */
#ifndef ILAN_SCHED_LOOP_AUTO_H
#define ILAN_SCHED_LOOP_AUTO_H

#include <stdbool.h>

/*
 * The candidates (Auto4OMP's ExhaustiveSel over the schedules ilan has):
 * static (unchunked), adaptive, FAC2, AF and guided, the dynamic-style ones
 * with the expert chunk (sched/loop_chunks.h).
 *
 * Rules, per loop identity (one struct loop_auto each):
 *   1. Warm-up: the first LOOP_AUTO_WARMUP executions run adaptive and are
 *      not compared with anything, so a loop executed only that often never
 *      pays for a trial (and caches, pages and threads warm up).
 *   2. Trial: the candidates run in turn, LOOP_AUTO_SAMPLES passes over
 *      them, interleaved (a noisy moment hits them alike). Bounded: a
 *      candidate whose first sample is slower than LOOP_AUTO_CUT times the
 *      best first sample so far gets no second one.
 *   3. Choice: the candidate with the lowest median (over its samples); the
 *      trial's noise is the largest spread (samples_spread) of the
 *      candidates sampled twice, never below LOOP_AUTO_NOISE_FLOOR.
 *   4. Settled: the choice runs. A run slower than its trial median times
 *      (1 + noise) drifted; LOOP_AUTO_DRIFT_RUNS drifted runs in a row
 *      start a new trial (samples_drift, as ILAN's exploration), at most
 *      LOOP_AUTO_MAX_TRIALS trials in all. A new trial runs only the
 *      candidates whose median in the previous one was within
 *      LOOP_AUTO_CUT times the choice's (a drift seen on a noisy machine
 *      then costs a few runs of close rivals, not of the slow ones).
 * A sample of another candidate than the one asked for (two executions of
 * one identity at once) only counts as a call.
 */
enum loop_cand {
    LOOP_CAND_STATIC,
    LOOP_CAND_ADAPTIVE,
    LOOP_CAND_FAC2,
    LOOP_CAND_AF,
    LOOP_CAND_GUIDED,
    LOOP_NCAND
};

#define LOOP_AUTO_WARMUP 2u
#define LOOP_AUTO_SAMPLES 2u
#define LOOP_AUTO_CUT 1.5
#define LOOP_AUTO_NOISE_FLOOR 0.05
#define LOOP_AUTO_DRIFT_RUNS 5u
#define LOOP_AUTO_MAX_TRIALS 3u

/* One loop identity's selection state. Zero-initialized means "new". */
struct loop_auto {
    unsigned calls;                                /* executions recorded */
    unsigned trials;                               /* trials started */
    bool trying;                                   /* a trial is under way */
    bool settled;                                  /* a trial has chosen */
    unsigned choice;                               /* the settled candidate (enum loop_cand) */
    unsigned pass;                                 /* trial: the pass, 0..LOOP_AUTO_SAMPLES-1 */
    unsigned cand;                                 /* trial: the candidate run next */
    double t[LOOP_NCAND][LOOP_AUTO_SAMPLES];       /* trial: samples (ns) of each candidate */
    unsigned n[LOOP_NCAND];                        /* trial: samples of each */
    bool cut[LOOP_NCAND];                          /* trial: dropped after its first sample,
                                                      or left out of it (`out`) */
    bool out[LOOP_NCAND];                          /* settled: more than LOOP_AUTO_CUT times the
                                                      choice's median (or not run) in the last
                                                      trial: left out of the next */
    double ref;                                    /* settled: the choice's trial median (ns) */
    double noise;                                  /* settled: the trial's relative noise */
    unsigned drifted;                              /* settled: drifted runs in a row */
};

/* The candidate the next execution runs. */
enum loop_cand loop_auto_next(const struct loop_auto *a);

/* An execution of candidate `cand` took ns. */
void loop_auto_record(struct loop_auto *a, enum loop_cand cand, double ns);

/* "static", "adaptive", "fac2", "af", "guided". */
const char *loop_cand_name(enum loop_cand c);

#endif
