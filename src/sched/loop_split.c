/* loop_split.c — the learnt starting split of repeated adaptive loops: blocks of equal measured cost (pure). */
#include "sched/loop_split.h"

/* Cost per iteration of block t as it was timed; < 0: unknown. */
static double density(const struct loop_split_obs *o, unsigned t)
{
    return o->ran[t] && o->ns[t] ? (double)o->ns[t] / (double)o->ran[t] : -1.0;
}

/* Block t's density, or its nearest measured neighbours' mean when none
 * of it was timed; < 0 when no block was. */
static double density_or_near(const struct loop_split_obs *o, unsigned t)
{
    double d = density(o, t);
    for (unsigned k = 1; d < 0 && k < o->T; k++) {
        double left = t >= k ? density(o, t - k) : -1.0;
        double right = t + k < o->T ? density(o, t + k) : -1.0;
        if (left >= 0 && right >= 0)
            d = (left + right) / 2;
        else
            d = left >= 0 ? left : right;
    }
    return d;
}

bool loop_split_next(const struct loop_split_obs *o, bool learnt, iter_ull *bounds)
{
    unsigned T = o->T;
    if (T == 0 || o->n == 0)
        return false;
    /* Cumulative cost at each block's start; the blocks' densities. */
    double cum[T + 1], dens[T], dearest = 0;
    cum[0] = 0;
    for (unsigned t = 0; t < T; t++) {
        dens[t] = density_or_near(o, t);
        if (dens[t] < 0)
            return false;
        double cost = dens[t] * (double)(o->start[t + 1] - o->start[t]);
        cum[t + 1] = cum[t] + cost;
        if (cost > dearest)
            dearest = cost;
    }
    double total = cum[T];
    if (total <= 0 || (!learnt && dearest < LOOP_SPLIT_IMBALANCE * total / T))
        return false;
    bounds[0] = 0;
    bounds[T] = o->n;
    unsigned j = 0; /* the block holding the current target */
    for (unsigned k = 1; k < T; k++) {
        double target = total * k / T;
        while (j + 1 < T && cum[j + 1] <= target)
            j++;
        iter_ull lo = o->start[j], hi = o->start[j + 1];
        double into = dens[j] > 0 ? (target - cum[j]) / dens[j] : 0;
        double equal = into >= (double)(hi - lo) ? (double)hi : (double)lo + into;
        double was = (double)o->start[k];
        iter_ull b = (iter_ull)(was + LOOP_SPLIT_STEP * (equal - was));
        bounds[k] = b < bounds[k - 1] ? bounds[k - 1] : b;
    }
    double snap = LOOP_SPLIT_SNAP * (double)o->n / T;
    for (unsigned k = 1; k < T; k++) {
        iter_ull lb, le;
        if (!iter_static_block(o->n, T, k, &lb, &le))
            lb = o->n;
        double off = (double)bounds[k] - (double)lb;
        if (off > snap || off < -snap)
            return true;
    }
    return false;
}
