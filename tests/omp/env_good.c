// env_good.c - valid OMP_* settings are reflected in the ICVs and honoured.
// ilan-test: threads=1
// ilan-test: env=OMP_SCHEDULE=dynamic,7;OMP_NUM_THREADS=3,2;OMP_MAX_ACTIVE_LEVELS=2;OMP_WAIT_POLICY=passive;OMP_STACKSIZE=64M;OMP_DYNAMIC=false;OMP_CANCELLATION=true;OMP_MAX_TASK_PRIORITY=7;OMP_THREAD_LIMIT=64;OMP_PROC_BIND=false
#include "check.h"

#define BIG (32u << 20) /* 32 MiB stack array, needs OMP_STACKSIZE > 32M */

__attribute__((noinline)) static long deep_stack(int seed)
{
    volatile char buf[BIG];
    for (unsigned i = 0; i < BIG; i += 4096) buf[i] = (char)(i >> 12) + (char)seed;
    buf[BIG - 1] = (char)seed;
    long s = 0;
    for (unsigned i = 0; i < BIG; i += 4096) s += buf[i];
    return s + buf[BIG - 1];
}

static long deep_expect(int seed)
{
    long s = 0;
    for (unsigned i = 0; i < BIG; i += 4096) s += (char)((char)(i >> 12) + (char)seed);
    return s + (char)seed;
}

int main(void)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    CHECK((k & ~omp_sched_monotonic) == omp_sched_dynamic && c == 7,
          "OMP_SCHEDULE=dynamic,7 gives kind %#x chunk %d", (unsigned)k, c);
    CHECK(omp_get_max_threads() == 3, "OMP_NUM_THREADS=3,2: max threads %d",
          omp_get_max_threads());
    CHECK(omp_get_max_active_levels() == 2, "mal %d", omp_get_max_active_levels());
    CHECK(omp_get_dynamic() == 0, "dynamic %d", omp_get_dynamic());
    CHECK(omp_get_cancellation() == 1, "cancellation %d", omp_get_cancellation());
    CHECK(omp_get_max_task_priority() == 7, "task priority %d", omp_get_max_task_priority());
    CHECK(omp_get_thread_limit() == 64, "thread limit %d", omp_get_thread_limit());
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc bind %d", omp_get_proc_bind());

    int outer = 0, inner_total = 0, bad_stack = 0, bad_inner_max = 0;
#pragma omp parallel reduction(+ : bad_stack, bad_inner_max)
    {
#pragma omp master
        outer = omp_get_num_threads();
        /* the second list element becomes nthreads-var of the implicit tasks */
        bad_inner_max += omp_get_max_threads() != 2;
        if (omp_get_thread_num() != 0) /* a worker: stack size from OMP_STACKSIZE */
            bad_stack += deep_stack(omp_get_thread_num()) != deep_expect(omp_get_thread_num());
#pragma omp parallel
        {
#pragma omp atomic
            inner_total++;
            /* past the list, the last value stays in effect */
            bad_inner_max += omp_get_max_threads() != 2;
            if (omp_get_thread_num() != 0)
                bad_stack += deep_stack(3) != deep_expect(3);
        }
    }
    CHECK(outer == 3, "outer team %d", outer);
    CHECK(inner_total == 6, "inner total %d", inner_total);
    CHECK(bad_inner_max == 0, "max threads inside %d wrong", bad_inner_max);
    CHECK(bad_stack == 0, "deep stack wrong");

    /* schedule(runtime) under dynamic,7: iterations all run once */
    int cnt[1000] = {0};
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < 1000; i++) cnt[i]++;
    for (int i = 0; i < 1000; i++) CHECK(cnt[i] == 1, "iteration %d ran %d times", i, cnt[i]);

    /* passive waiting: many barriers still correct */
    int slots[3];
#pragma omp parallel num_threads(3)
    for (int r = 0; r < 200; r++) {
        slots[omp_get_thread_num()] = r;
#pragma omp barrier
        for (int t = 0; t < 3; t++) CHECK(slots[t] == r, "passive barrier round %d", r);
#pragma omp barrier
    }
    return 0;
}
