// task_barrier.c - tasks are complete at the next barrier (explicit or
// implicit: end of single, of a worksharing loop, of sections, of the
// region), grandchildren included; tasks created inside worksharing loops;
// tasks inside nested parallel regions and parallel regions inside tasks.
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp vary=ILAN_BARRIER=tree,central
#include "check.h"

#define MAXT 1024

static void spin(int n)
{
    for (volatile int i = 0; i < n; i++) {}
}

static void bump_later(int *c, int depth)
{
    if (depth > 0) {
#pragma omp task firstprivate(depth)
        bump_later(c, depth - 1); /* a grandchild, never waited for */
    }
    spin(100);
    __atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

static void explicit_barrier(void)
{
    int count = 0, bad = 0;
#pragma omp parallel shared(count) reduction(+ : bad)
    {
        int nt = omp_get_num_threads();
        for (int r = 1; r <= 20; r++) {
            for (int i = 0; i < 10; i++) {
#pragma omp task shared(count)
                bump_later(&count, 2);
            }
#pragma omp barrier
            if (__atomic_load_n(&count, __ATOMIC_ACQUIRE) != r * nt * 30)
                bad++;
#pragma omp barrier
        }
    }
    CHECK(bad == 0, "%d threads passed a barrier before the team's tasks finished", bad);
}

static int single_count;

static void end_of_single(void)
{
    int bad = 0;
    int *cp = &single_count;
#pragma omp parallel reduction(+ : bad)
    for (int r = 0; r < 20; r++) {
        int *count = cp;
#pragma omp single
        *count = 0;
#pragma omp single
        {
            for (int i = 0; i < 40; i++) {
#pragma omp task
                bump_later(count, 1);
            }
        }
        /* implicit barrier of single: all 80 bumps done */
        if (__atomic_load_n(count, __ATOMIC_ACQUIRE) != 80)
            bad++;
#pragma omp barrier
    }
    CHECK(bad == 0, "%d threads left a single before its tasks finished", bad);
}

static void single_nowait_then_barrier(void)
{
    int count = 0, bad = 0;
#pragma omp parallel shared(count) reduction(+ : bad)
    {
#pragma omp single nowait
        for (int i = 0; i < 100; i++) {
#pragma omp task shared(count)
            bump_later(&count, 1);
        }
#pragma omp barrier
        if (__atomic_load_n(&count, __ATOMIC_ACQUIRE) != 200)
            bad++;
    }
    CHECK(bad == 0, "single nowait + barrier: %d threads early", bad);
}

static void end_of_region(void)
{
    for (int r = 0; r < 20; r++) {
        int count = 0;
#pragma omp parallel shared(count)
        {
#pragma omp task shared(count)
            bump_later(&count, 3);
        }
        int nt = omp_get_max_threads();
        CHECK(count == nt * 4, "end of region: %d of %d tasks done", count, nt * 4);
    }
}

static void in_worksharing(void)
{
    static int hit[5000];
    memset(hit, 0, sizeof hit);
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
#pragma omp for schedule(dynamic, 7)
        for (int i = 0; i < 5000; i++) {
#pragma omp task firstprivate(i)
            __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
        }
        /* the loop's implicit barrier completes the tasks */
        for (int i = 0; i < 5000; i += 97)
            if (__atomic_load_n(&hit[i], __ATOMIC_ACQUIRE) != 1)
                bad++;
#pragma omp barrier
#pragma omp for schedule(static) nowait
        for (int i = 0; i < 5000; i++) {
#pragma omp task firstprivate(i)
            __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
        }
#pragma omp sections
        {
#pragma omp section
            for (int i = 0; i < 5000; i++) {
#pragma omp task firstprivate(i)
                __atomic_add_fetch(&hit[i], 1, __ATOMIC_RELAXED);
            }
#pragma omp section
            {
#pragma omp task
                spin(1000);
            }
        }
        /* the sections' barrier also completes the nowait loop's tasks */
        for (int i = 0; i < 5000; i += 89)
            if (__atomic_load_n(&hit[i], __ATOMIC_ACQUIRE) != 3)
                bad++;
    }
    for (int i = 0; i < 5000; i++) CHECK(hit[i] == 3, "loop task %d ran %d times of 3", i, hit[i]);
    CHECK(bad == 0, "%d checks saw loop tasks unfinished after a barrier", bad);
}

static void nested_regions(void)
{
    omp_set_max_active_levels(2);
    int total = 0, bad = 0;
#pragma omp parallel num_threads(2) shared(total) reduction(+ : bad)
    {
        int inner = 0;
#pragma omp parallel num_threads(3) shared(inner, total)
        {
            int lvl = omp_get_level();
#pragma omp single
            for (int i = 0; i < 30; i++) {
#pragma omp task shared(inner, total) firstprivate(lvl)
                {
                    if (omp_get_level() != lvl)
                        __atomic_add_fetch(&inner, 1000, __ATOMIC_RELAXED);
                    bump_later(&inner, 1);
                    __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
                }
            }
        }
        /* the inner region ended: its tasks are done */
        if (inner != 60)
            bad++;
        /* a parallel region inside a task */
#pragma omp task shared(total)
        {
            int in2 = 0;
#pragma omp parallel num_threads(2) shared(in2)
            {
#pragma omp task shared(in2)
                bump_later(&in2, 2);
            }
            __atomic_add_fetch(&total, in2, __ATOMIC_RELAXED); /* 2 threads x 3 */
        }
    }
    omp_set_max_active_levels(1);
    CHECK(bad == 0, "%d inner regions ended before their tasks", bad);
    CHECK(total == 2 * 30 + 2 * 6, "nested regions: total %d, want %d", total, 2 * 30 + 2 * 6);
}

/* Serialized nested regions (max_active_levels 1): tasks in a team of one. */
static void serialized_nested(void)
{
    int count = 0;
#pragma omp parallel shared(count)
    {
#pragma omp parallel shared(count)
        {
#pragma omp task shared(count)
            bump_later(&count, 1);
        }
    }
    int nt = omp_get_max_threads();
    CHECK(count == nt * 2, "serialized nested regions: %d of %d", count, nt * 2);
}

int main(void)
{
    explicit_barrier();
    end_of_single();
    single_nowait_then_barrier();
    end_of_region();
    in_worksharing();
    nested_regions();
    serialized_nested();
    return 0;
}
