/* samples.h — the statistics ILAN's taskloop exploration and schedule(auto)'s trial share: median and spread of a few timings, and the drift watch of a settled choice (pure). */
#ifndef ILAN_SCHED_SAMPLES_H
#define ILAN_SCHED_SAMPLES_H

#include <stdbool.h>

/* Median of t[0..n) (0 when n == 0); t is not modified. n <= 64. */
double samples_median(const double *t, unsigned n);

/* Relative spread (max - min) / (2 * median) of t[0..n); 0 with fewer than two. */
double samples_spread(const double *t, unsigned n);

/* A run of a settled choice took `time`: counts it in *streak when slower
 * than `limit`, else resets the streak. True (and the streak reset) when
 * `runs` slow runs came in a row: the choice should be reconsidered. */
bool samples_drift(unsigned *streak, double time, double limit, unsigned runs);

#endif
