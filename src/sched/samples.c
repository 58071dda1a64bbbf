/* samples.c — median, spread and drift of a choice's timings (pure). */
#include "sched/samples.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double samples_median(const double *t, unsigned n)
{
    if (n == 0)
        return 0;
    double s[64];
    if (n > 64)
        n = 64;
    memcpy(s, t, n * sizeof s[0]);
    qsort(s, n, sizeof s[0], cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double samples_spread(const double *t, unsigned n)
{
    double med = samples_median(t, n);
    if (n < 2 || med <= 0)
        return 0;
    double lo = t[0], hi = t[0];
    for (unsigned i = 1; i < n; i++) {
        if (t[i] < lo)
            lo = t[i];
        if (t[i] > hi)
            hi = t[i];
    }
    return (hi - lo) / (2 * med);
}

bool samples_drift(unsigned *streak, double time, double limit, unsigned runs)
{
    *streak = time > limit ? *streak + 1 : 0;
    if (*streak < runs)
        return false;
    *streak = 0;
    return true;
}
