/* taskloop_split.c — taskloop splitting rules and task placement (pure policy, see taskloop_split.h). */
#include "sched/taskloop_split.h"

iter_ull taskloop_default_num_tasks(unsigned team_size)
{
    return team_size ? team_size : 1;
}

/* n split evenly into k tasks (1 <= k <= n), the larger ones first. */
static struct taskloop_split split_even(iter_ull n, iter_ull k)
{
    struct taskloop_split s;
    s.ntasks = k;
    s.small = n / k;
    s.nbig = n % k;
    s.big = s.small + 1;
    return s;
}

struct taskloop_split taskloop_split_compute(iter_ull n, bool grainsize, bool strict,
                                             unsigned long num_tasks, unsigned team_size)
{
    struct taskloop_split s = {0, 0, 0, 0};
    if (n == 0)
        return s;
    if (grainsize) {
        iter_ull g = num_tasks ? num_tasks : 1;
        iter_ull k = n / g;
        if (strict) {
            iter_ull mod = n % g;
            if (k == 0) /* fewer than g iterations: one task of them all */
                return split_even(n, 1);
            /* k tasks of g, then (when mod != 0) one task of mod. */
            s.ntasks = k + (mod != 0);
            s.big = g;
            s.nbig = k;
            s.small = mod;
            return s;
        }
        if (k <= 1)
            return split_even(n, 1);
        return split_even(n, k);
    }
    iter_ull k = num_tasks ? num_tasks : taskloop_default_num_tasks(team_size);
    if (k >= n)
        k = n;
    return split_even(n, k);
}

iter_ull taskloop_task_offset(const struct taskloop_split *s, iter_ull i)
{
    if (i <= s->nbig)
        return i * s->big;
    return s->nbig * s->big + (i - s->nbig) * s->small;
}

iter_ull taskloop_task_at(const struct taskloop_split *s, iter_ull off)
{
    iter_ull head = s->nbig * s->big;
    if (off < head)
        return off / s->big;
    return s->small ? s->nbig + (off - head) / s->small : s->nbig;
}

void taskloop_task_bounds(const struct taskloop_split *s, iter_ull start, iter_ull step, iter_ull i,
                          iter_ull *lo, iter_ull *hi)
{
    /* Unsigned arithmetic wraps modulo 2^64: the same bits libgomp's
     * `start += task_step` produces for long and unsigned long long. */
    *lo = start + taskloop_task_offset(s, i) * step;
    *hi = taskloop_task_end(s, step, i, *lo);
}
