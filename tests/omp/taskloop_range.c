// taskloop_range.c - the per-task semantics of taskloop kept by ILAN's range
// launch (one range per group, runner tasks claiming task numbers, each task
// an included task on its own copy of the encounter's block), checked over
// 40 executions of each taskloop so that the ilan mode's calibration,
// warm-up, exploration and settled runs all go through it:
//   firstprivate   every task starts from the encounter's value, and a task
//                  that writes its copy does not change another task's
//   lastprivate    the value of the sequentially last iteration comes out
//   reduction      taskloop reduction(+) over every iteration
//   nogroup        followed by taskwait: every iteration done after it
//   grainsize / num_tasks   task sizes as gcc's rules say (>= g and < 2g;
//                  exactly n tasks)
//   if(0), final   run at once, still every iteration once
//   cancel         cancel taskgroup from inside a taskloop stops unstarted
//                  tasks: fewer iterations than all, each at most once;
//                  cancel parallel with a nogroup taskloop's tasks queued
//   priority       priority(5) taskloops run every iteration once
//   nested         taskloops inside tasks inside a taskloop
// Also under ILAN_STEAL_POLICY=full, where runners take halves of the other
// groups' shareable tasks.
// ilan-test: threads=1,2,3,8,33 tsan modes=ilan,numa,ws vary=ILAN_STEAL_POLICY=explore,full
// ilan-test: env=OMP_CANCELLATION=true;OMP_MAX_TASK_PRIORITY=10
#include "check.h"

#define N 1200
#define RUNS 40

static int hits[N];

static void clear(void)
{
    memset(hits, 0, sizeof hits);
}

static void each_once(const char *what, int run)
{
    for (int i = 0; i < N; i++)
        CHECK(hits[i] == 1, "%s, run %d: iteration %d ran %d times", what, run, i, hits[i]);
}

int main(void)
{
    for (int run = 0; run < RUNS; run++) {
        /* firstprivate: each task's copy starts at 7; tasks scribble on theirs. */
        int base = 7, bad = 0;
        clear();
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop firstprivate(base) num_tasks(16)
            for (int i = 0; i < N; i++) {
                if (base != 7 && base != 1000 + i - 1)
                    __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
                base = 1000 + i;
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            }
        }
        CHECK(bad == 0 && base == 7, "firstprivate, run %d: %d tasks saw another's copy", run, bad);
        each_once("firstprivate", run);

        /* lastprivate and reduction. */
        int last = -1;
        long sum = 0;
        clear();
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop lastprivate(last) grainsize(37)
            for (int i = 0; i < N; i++) {
                last = i * 3;
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            }
#pragma omp taskloop reduction(+ : sum)
            for (int i = 0; i < N; i++)
                sum += i;
        }
        CHECK(last == (N - 1) * 3, "lastprivate, run %d: %d", run, last);
        CHECK(sum == (long)N * (N - 1) / 2, "reduction, run %d: %ld", run, sum);
        each_once("lastprivate", run);

        /* nogroup + taskwait. */
        int small = 0;
        clear();
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop nogroup num_tasks(13)
            for (int i = 0; i < N; i++) {
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            }
#pragma omp taskwait
            each_once("nogroup", run);
        }
        /* Task count and sizes, seen by each task's firstprivate marker. */
        int seen = 0;
        int first_of_task[N];
        memset(first_of_task, 0, sizeof first_of_task);
#pragma omp parallel
#pragma omp single
        {
            int mark = -1;
#pragma omp taskloop firstprivate(mark) num_tasks(11)
            for (int i = 0; i < N; i++) {
                if (mark < 0) {
                    mark = i;
                    first_of_task[i] = 1;
                    __atomic_add_fetch(&seen, 1, __ATOMIC_RELAXED);
                }
            }
            mark = -1;
#pragma omp taskloop firstprivate(mark) grainsize(50)
            for (int i = 0; i < N; i++) {
                if (mark < 0)
                    mark = i;
                if (i + 1 == N || (i + 1 - mark) >= 100)
                    __atomic_add_fetch(&small, i + 1 - mark < 50 || i + 1 - mark >= 100, __ATOMIC_RELAXED);
            }
        }
        CHECK(seen == 11, "num_tasks(11), run %d: %d tasks", run, seen);
        CHECK(small == 0, "grainsize(50), run %d: %d tasks outside [50, 100)", run, small);

        /* if(0) and final. */
        clear();
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop if(0) num_tasks(5)
            for (int i = 0; i < N / 2; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop final(1) grainsize(64)
            for (int i = N / 2; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
        each_once("if(0)/final", run);

        /* priority and nested taskloops inside tasks. */
        clear();
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop priority(5) num_tasks(6)
            for (int i = 0; i < N / 3; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop num_tasks(4)
            for (int b = 0; b < 4; b++) {
                int lo = N / 3 + b * (N - N / 3) / 4, hi = N / 3 + (b + 1) * (N - N / 3) / 4;
#pragma omp task firstprivate(lo, hi)
                {
#pragma omp taskloop grainsize(20)
                    for (int i = lo; i < hi; i++)
                        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
                }
            }
        }
        each_once("priority/nested", run);

        /* cancel taskgroup inside a taskloop: each iteration at most once. */
        clear();
        int ran = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskgroup
            {
#pragma omp taskloop num_tasks(40)
                for (int i = 0; i < N; i++) {
                    if (__atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED) > 1)
                        __atomic_add_fetch(&ran, 1000000, __ATOMIC_RELAXED);
                    __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
                    if (i == 0) {
#pragma omp cancel taskgroup
                    }
#pragma omp cancellation point taskgroup
                }
            }
        }
        CHECK(ran <= N, "cancel, run %d: an iteration ran twice (%d)", run, ran);
        CHECK(ran >= 1, "cancel, run %d: nothing ran", run);

        /* cancel parallel with a nogroup taskloop's tasks queued: the
         * region ends, no iteration runs twice. */
        clear();
        int twice = 0;
#pragma omp parallel
        {
#pragma omp single nowait
            {
#pragma omp taskloop nogroup num_tasks(40)
                for (int i = 0; i < N; i++)
                    if (__atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED) > 1)
                        __atomic_add_fetch(&twice, 1, __ATOMIC_RELAXED);
            }
#pragma omp cancel parallel if (omp_get_thread_num() == 0)
#pragma omp cancellation point parallel
        }
        CHECK(twice == 0, "cancel parallel, run %d: %d iterations ran twice", run, twice);
    }
    return 0;
}
