/* test_taskloop_split.c — unit tests of the taskloop splitting rules and placement (sched/taskloop_split.c), no OpenMP. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "sched/iter.h"
#include "sched/taskloop_split.h"
#include "unit.h"



/* ---- the rules, stated as properties of the task sizes ---- */

/* Checks the sizes of a split of n iterations against the rule for its
 * clause; returns the number of tasks. */
static iter_ull check_rules(iter_ull n, bool grain, bool strict, unsigned long arg, unsigned team)
{
    struct taskloop_split s = taskloop_split_compute(n, grain, strict, arg, team);
    if (n == 0) {
        CHECK(s.ntasks == 0, "n=0 gives %llu tasks", s.ntasks);
        return 0;
    }
    CHECK(s.ntasks >= 1 && s.ntasks <= n, "n=%llu: %llu tasks", n, s.ntasks);
    CHECK(s.nbig <= s.ntasks, "nbig %llu > ntasks %llu", s.nbig, s.ntasks);
    CHECK(taskloop_task_offset(&s, s.ntasks) == n, "n=%llu g=%d a=%lu: tasks cover %llu", n, grain,
          arg, taskloop_task_offset(&s, s.ntasks));
    /* Sizes and offsets agree, and every task is non-empty (gcc's task body
     * runs its first iteration unconditionally). Sampled for big counts. */
    iter_ull stride = s.ntasks > 4096 ? s.ntasks / 1024 : 1;
    for (iter_ull i = 0; i < s.ntasks; i += (i + 2 < s.ntasks && i > 8) ? stride : 1) {
        iter_ull sz = taskloop_task_size(&s, i);
        CHECK(sz >= 1, "empty task %llu", i);
        CHECK(taskloop_task_offset(&s, i + 1) - taskloop_task_offset(&s, i) == sz,
              "offset/size mismatch at %llu", i);
        /* taskloop_task_at inverts the offsets: first and last iteration. */
        CHECK(taskloop_task_at(&s, taskloop_task_offset(&s, i)) == i &&
                  taskloop_task_at(&s, taskloop_task_offset(&s, i) + sz - 1) == i,
              "n=%llu: task_at misses task %llu", n, i);
        if (grain && strict) {
            iter_ull g = arg ? arg : 1;
            if (i + 1 < s.ntasks)
                CHECK(sz == g, "strict grainsize(%llu): task %llu has %llu", g, i, sz);
            else
                CHECK(sz == (n < g ? n : (n % g ? n % g : g)),
                      "strict grainsize(%llu) last task has %llu (n=%llu)", g, sz, n);
        } else if (grain) {
            iter_ull g = arg ? arg : 1;
            if (n < g)
                CHECK(s.ntasks == 1 && sz == n, "grainsize(%llu) n=%llu: one task", g, n);
            else
                CHECK(sz >= g && sz - g < g, /* sz < 2g without overflow */
                      "grainsize(%llu) n=%llu: task %llu has %llu", g, n, i,
                      sz);
        } else {
            /* Even split: sizes differ by at most one, larger ones first. */
            CHECK(sz == n / s.ntasks || sz == n / s.ntasks + 1, "uneven task %llu: %llu", i, sz);
            if (i > 0)
                CHECK(taskloop_task_size(&s, i - 1) >= sz, "larger tasks not first at %llu", i);
        }
    }
    if (!grain) {
        iter_ull k = arg ? arg : taskloop_default_num_tasks(team);
        CHECK(s.ntasks == (k < n ? k : n), "num_tasks(%llu) n=%llu gives %llu tasks", k, n,
              s.ntasks);
    } else if (!strict) {
        iter_ull g = arg ? arg : 1;
        CHECK(s.ntasks == (n / g > 1 ? n / g : 1), "grainsize(%llu) n=%llu gives %llu tasks", g,
              n, s.ntasks);
    }
    return s.ntasks;
}

static void test_rules_small(void)
{
    unsigned long args[] = {0, 1, 2, 3, 4, 5, 7, 8, 10, 16, 31, 64, 100, 1000};
    for (iter_ull n = 0; n <= 300; n++)
        for (unsigned a = 0; a < sizeof args / sizeof *args; a++)
            for (int mode = 0; mode < 4; mode++)
                for (unsigned team = 1; team <= 9; team += 4)
                    check_rules(n, mode & 1, mode & 2, args[a], team);
}

static void test_rules_large(void)
{
    iter_ull ns[] = {1000003, 1ULL << 40, (1ULL << 62) + 12345, ULLONG_MAX - 1, ULLONG_MAX};
    unsigned long args[] = {1, 3, 1000, 1UL << 20, 1UL << 33, ULONG_MAX};
    for (unsigned i = 0; i < sizeof ns / sizeof *ns; i++)
        for (unsigned a = 0; a < sizeof args / sizeof *args; a++)
            for (int mode = 0; mode < 4; mode++) {
                /* Too many tasks to walk: check the count and the ends. */
                struct taskloop_split s = taskloop_split_compute(ns[i], mode & 1, mode & 2,
                                                                 args[a], 4);
                CHECK(taskloop_task_offset(&s, s.ntasks) == ns[i], "large n=%llu cover", ns[i]);
                CHECK(s.ntasks >= 1 && taskloop_task_size(&s, 0) >= 1 &&
                          taskloop_task_size(&s, s.ntasks - 1) >= 1,
                      "large n=%llu empty end task", ns[i]);
                if (s.ntasks <= 5000)
                    check_rules(ns[i], mode & 1, mode & 2, args[a], 4);
            }
    /* Default: the team size. */
    CHECK(taskloop_default_num_tasks(0) == 1, "default for no team");
    CHECK(taskloop_default_num_tasks(6) == 6, "default for 6 threads");
    CHECK(taskloop_split_compute(100, false, false, 0, 6).ntasks == 6, "default split");
    CHECK(taskloop_split_compute(4, false, false, 0, 6).ntasks == 4, "default split, few");
}

/* ---- an independent model of libgomp's GOMP_taskloop bookkeeping ---- */

/* Replays libgomp's (task_step, nfirst, nfirst_task_step) walk for long
 * loops given as (start, end, step) and checks that task i's bounds match
 * taskloop_task_bounds bit for bit. */
static void model_check(iter_ull n, iter_ull start, iter_ull step, bool grain, bool strict,
                        unsigned long arg, unsigned team)
{
    if (n == 0) /* libgomp returns before splitting */
        return;
    struct taskloop_split s = taskloop_split_compute(n, grain, strict, arg, team);
    iter_ull ntasks, task_step = step, nfirst_task_step = step, nfirst = n;
    if (grain) {
        iter_ull g = arg ? arg : 1;
        ntasks = n / g;
        if (strict) {
            task_step = g * step;
            if (n % g) {
                ntasks++;
                nfirst_task_step = (n % g) * step;
                if (ntasks == 1)
                    task_step = nfirst_task_step;
                else
                    nfirst = ntasks - 2;
            }
        } else if (ntasks <= 1) {
            ntasks = 1;
            task_step = n * step;
        } else if (ntasks >= g) {
            task_step = g * step;
            if (ntasks * g != n) {
                nfirst_task_step = task_step;
                task_step += step;
                nfirst = n - ntasks * g - 1;
            }
        } else {
            task_step = (n / ntasks) * step;
            if (n % ntasks) {
                nfirst_task_step = task_step;
                task_step += step;
                nfirst = n % ntasks - 1;
            }
        }
    } else {
        ntasks = arg ? arg : team;
        if (ntasks >= n) {
            ntasks = n;
        } else {
            task_step = (n / ntasks) * step;
            if (n % ntasks) {
                nfirst_task_step = task_step;
                task_step += step;
                nfirst = n % ntasks - 1;
            }
        }
    }
    CHECK(s.ntasks == ntasks, "model: n=%llu g=%d s=%d a=%lu: %llu tasks, libgomp %llu", n, grain,
          strict, arg, s.ntasks, ntasks);
    if (s.ntasks != ntasks)
        return;
    iter_ull cur = start;
    for (iter_ull i = 0; i < ntasks; i++) {
        iter_ull lo, hi, want_lo = cur;
        cur += task_step;
        if (i == nfirst)
            task_step = nfirst_task_step;
        taskloop_task_bounds(&s, start, step, i, &lo, &hi);
        CHECK(lo == want_lo && hi == cur, "model: task %llu [%llx,%llx) libgomp [%llx,%llx)", i,
              lo, hi, want_lo, cur);
    }
}

/* Runs the task ranges as gcc's outlined body does (a do-while over
 * [lo, hi) in the loop's own type) and checks that together they produce
 * exactly the loop's iterations, in order. Long loops. */
static void run_long(long start, long end, long step, bool grain, bool strict, unsigned long arg)
{
    iter_ull n = iter_count_long(start, end, step);
    struct taskloop_split s = taskloop_split_compute(n, grain, strict, arg, 3);
    model_check(n, (iter_ull)start, (iter_ull)step, grain, strict, arg, 3);
    long expect = start;
    iter_ull seen = 0;
    for (iter_ull i = 0; i < s.ntasks; i++) {
        iter_ull ulo, uhi;
        taskloop_task_bounds(&s, (iter_ull)start, (iter_ull)step, i, &ulo, &uhi);
        long lo = (long)ulo, hi = (long)uhi, v = lo;
        do {
            CHECK(v == expect, "long (%ld,%ld,%ld) task %llu: value %ld want %ld", start, end,
                  step, i, v, expect);
            expect += step;
            seen++;
            v += step;
        } while (step > 0 ? v < hi : v > hi);
    }
    CHECK(seen == n, "long (%ld,%ld,%ld): %llu iterations want %llu", start, end, step, seen, n);
}

/* The same for unsigned long long loops; `up` as gcc passes it, step as the
 * two's complement of the stride when counting down. Only where the values
 * do not wrap past 0 or 2^64 (near the ends the values wrap in libgomp too:
 * see test_ull_edges). */
static void run_ull(bool up, iter_ull start, iter_ull end, iter_ull stride, bool grain, bool strict,
                    unsigned long arg)
{
    iter_ull step = up ? stride : -stride;
    iter_ull n = iter_count_ull(up, start, end, step);
    struct taskloop_split s = taskloop_split_compute(n, grain, strict, arg, 3);
    model_check(n, start, step, grain, strict, arg, 3);
    iter_ull expect = start, seen = 0;
    for (iter_ull i = 0; i < s.ntasks; i++) {
        iter_ull lo, hi, v;
        taskloop_task_bounds(&s, start, step, i, &lo, &hi);
        v = lo;
        do {
            CHECK(v == expect, "ull task %llu: value %llu want %llu", i, v, expect);
            expect += step;
            seen++;
            v += step;
        } while (up ? v < hi : v > hi);
    }
    CHECK(seen == n, "ull (%d,%llu,%llu,%llu): %llu iterations want %llu", up, start, end, stride,
          seen, n);
}

static void test_values(void)
{
    long starts[] = {-20, -3, 0, 5};
    long lens[] = {0, 1, 2, 7, 10, 33, 64, 101};
    long steps[] = {1, 2, 3, 7};
    unsigned long args[] = {0, 1, 2, 3, 5, 8, 40};
    for (unsigned a = 0; a < sizeof starts / sizeof *starts; a++)
        for (unsigned b = 0; b < sizeof lens / sizeof *lens; b++)
            for (unsigned c = 0; c < sizeof steps / sizeof *steps; c++)
                for (unsigned d = 0; d < sizeof args / sizeof *args; d++)
                    for (int mode = 0; mode < 4; mode++) {
                        long st = starts[a], len = lens[b], step = steps[c];
                        bool g = mode & 1, sr = mode & 2;
                        run_long(st, st + len, step, g, sr, args[d]);       /* up */
                        run_long(st, st - len, -step, g, sr, args[d]);      /* down */
                        run_ull(true, 1000 + st, 1000 + st + len, step, g, sr, args[d]);
                        run_ull(false, 1000 + st, 1000 + st - len, step, g, sr, args[d]);
                        /* near the top of the ull range, not wrapping */
                        iter_ull top = ULLONG_MAX - 200;
                        run_ull(true, top + st, top + st + len, step, g, sr, args[d]);
                        run_ull(false, top + st, top + st - len, step, g, sr, args[d]);
                    }
    /* near LONG_MAX / LONG_MIN */
    run_long(LONG_MAX - 100, LONG_MAX - 1, 3, false, false, 4);
    run_long(LONG_MIN + 100, LONG_MIN + 1, -3, true, false, 5);
    run_long(LONG_MIN + 1, LONG_MIN + 50, 7, true, true, 2);
}

/* At the very top of the unsigned range libgomp's bounds wrap: reproduce
 * its bits exactly (gcc's task body counts its iterations correctly from
 * them), and check huge ranges whose count needs all 64 bits. */
static void test_ull_edges(void)
{
    unsigned long args[] = {0, 1, 2, 3, 5};
    for (unsigned d = 0; d < sizeof args / sizeof *args; d++)
        for (int mode = 0; mode < 4; mode++) {
            iter_ull s0 = ULLONG_MAX - 10;
            iter_ull n = iter_count_ull(true, s0, ULLONG_MAX, 4); /* s0, s0+4, s0+8 */
            CHECK(n == 3, "ull top count %llu", n);
            model_check(n, s0, 4, mode & 1, mode & 2, args[d], 3);
            n = iter_count_ull(false, 10, 0, (iter_ull)-4); /* 10, 6, 2 */
            CHECK(n == 3, "ull bottom count %llu", n);
            model_check(n, 10, (iter_ull)-4, mode & 1, mode & 2, args[d], 3);
        }
    /* The whole unsigned range but one: 2^64 - 1 iterations. */
    iter_ull n = iter_count_ull(true, 0, ULLONG_MAX, 1);
    CHECK(n == ULLONG_MAX, "full ull range %llu", n);
    struct taskloop_split s = taskloop_split_compute(n, false, false, 4, 1);
    iter_ull lo, hi;
    taskloop_task_bounds(&s, 0, 1, 3, &lo, &hi);
    CHECK(hi == ULLONG_MAX, "full range last end %llx", hi);
    taskloop_task_bounds(&s, 0, 1, 0, &lo, &hi);
    CHECK(lo == 0 && hi == n / 4 + 1, "full range first task [%llx,%llx)", lo, hi);
    s = taskloop_split_compute(n, true, true, 1UL << 62, 1);
    CHECK(s.ntasks == 4 && taskloop_task_size(&s, 3) == (1ULL << 62) - 1, "strict huge grain");
    /* Full long range downwards. */
    n = iter_count_long(LONG_MAX, LONG_MIN, -1);
    s = taskloop_split_compute(n, true, false, 1UL << 61, 1);
    CHECK(s.ntasks == 7 && taskloop_task_offset(&s, 7) == n, "long full down: %llu tasks",
          s.ntasks);
    taskloop_task_bounds(&s, (iter_ull)LONG_MAX, (iter_ull)-1, 6, &lo, &hi);
    CHECK((long)hi == LONG_MIN, "long full down last end %ld", (long)hi);
}

int main(void)
{
    test_rules_small();
    test_rules_large();
    test_values();
    test_ull_edges();
    return unit_report();
}
