/* taskloop_split.h — how a taskloop's iterations are cut into tasks (gcc/libgomp's rules), and where the tasks go. */
#ifndef ILAN_SCHED_TASKLOOP_SPLIT_H
#define ILAN_SCHED_TASKLOOP_SPLIT_H

#include <stdbool.h>
#include "sched/iter.h"

/*
 * Pure arithmetic: no threads, no atomics. A taskloop of n logical
 * iterations (n > 0) becomes `ntasks` tasks covering [0, n) contiguously
 * and in order: the first `nbig` tasks get `big` iterations each, the rest
 * `small` each. The rules are libgomp's (gcc 12, taskloop.c):
 *
 *   grainsize(g)          k = n / g; k <= 1: one task of n iterations;
 *                         else k tasks, n split evenly (sizes differ by at
 *                         most one, larger first): each gets g <= size < 2g
 *   grainsize(strict: g)  n / g tasks of exactly g, then one task of n % g
 *                         when that is not 0 (a single task of n when n < g)
 *   num_tasks(k)          min(k, n) tasks, n split evenly (larger first);
 *   num_tasks(strict: k)  the same (gcc 12's libgomp ignores strict here)
 *   neither               k = taskloop_default_num_tasks(team size), then
 *                         as num_tasks(k)
 *
 * A grainsize of 0 (undefined in OpenMP; libgomp divides by it) is taken
 * as 1.
 */
struct taskloop_split {
    iter_ull ntasks; /* tasks to create: >= 1 when n > 0, 0 when n == 0 */
    iter_ull big;    /* iterations of each of the first nbig tasks */
    iter_ull nbig;   /* number of tasks that get `big` iterations (<= ntasks) */
    iter_ull small;  /* iterations of each of the remaining ntasks - nbig tasks */
};

/* The default number of tasks of a taskloop with neither grainsize nor
 * num_tasks, for a team of `team_size` threads (1 outside any region):
 * the team size, as libgomp (the ws mode; the ILAN scheduler passes its
 * own count, sched/numa_dist.h). */
iter_ull taskloop_default_num_tasks(unsigned team_size);

/* Cuts n iterations into tasks. `grainsize` says whether `num_tasks` is a
 * grainsize (GOMP_TASK_FLAG_GRAINSIZE); `strict` is GOMP_TASK_FLAG_STRICT;
 * num_tasks == 0 without grainsize means the default. */
struct taskloop_split taskloop_split_compute(iter_ull n, bool grainsize, bool strict,
                                             unsigned long num_tasks, unsigned team_size);

/* Iterations of task i (0 <= i < s->ntasks). */
static inline iter_ull taskloop_task_size(const struct taskloop_split *s, iter_ull i)
{
    return i < s->nbig ? s->big : s->small;
}

/* Logical offset of the first iteration of task i (0 <= i <= s->ntasks;
 * i == ntasks gives n). */
iter_ull taskloop_task_offset(const struct taskloop_split *s, iter_ull i);

/* The task holding logical iteration `off` (0 <= off < n): the inverse of
 * taskloop_task_offset, taskloop_task_offset(i) <= off < offset(i + 1). */
iter_ull taskloop_task_at(const struct taskloop_split *s, iter_ull off);

/*
 * Task i's bounds in the loop's own values, as gcc's outlined body reads
 * them from the first two slots of its argument block: *lo = start +
 * offset(i) * step and *hi = start + offset(i + 1) * step, computed modulo
 * 2^64 exactly as libgomp does (so the last task's end is start + n * step,
 * which can lie past `end` when step does not divide the range). `step` is
 * the bits of the loop's step: negative (two's complement) when counting
 * down, for long and unsigned long long loops alike.
 */
void taskloop_task_bounds(const struct taskloop_split *s, iter_ull start, iter_ull step, iter_ull i,
                          iter_ull *lo, iter_ull *hi);

/* Task i's end (taskloop_task_bounds' *hi) from its first value lo: also
 * task i + 1's first, so a run of consecutive tasks needs no multiplication
 * by the task number. */
static inline iter_ull taskloop_task_end(const struct taskloop_split *s, iter_ull step, iter_ull i,
                                         iter_ull lo)
{
    return lo + taskloop_task_size(s, i) * step;
}

#endif
