// env_good2.c - other valid spellings: OMP_DYNAMIC=true, guided schedule with
// monotonic modifier, stack size in the default unit (KiB), wait policy active.
// ilan-test: threads=1
// ilan-test: env=OMP_SCHEDULE=monotonic:guided,5;OMP_NUM_THREADS=4;OMP_DYNAMIC=TRUE;OMP_WAIT_POLICY=ACTIVE;OMP_STACKSIZE=40960;OMP_NESTED=false;OMP_MAX_ACTIVE_LEVELS=1
#include "check.h"

#define BIG (32u << 20)

__attribute__((noinline)) static long deep_stack(void)
{
    volatile char buf[BIG];
    for (unsigned i = 0; i < BIG; i += 4096) buf[i] = 1;
    long s = 0;
    for (unsigned i = 0; i < BIG; i += 4096) s += buf[i];
    return s;
}

int main(void)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    CHECK((k & ~omp_sched_monotonic) == omp_sched_guided && c == 5,
          "OMP_SCHEDULE=monotonic:guided,5 gives kind %#x chunk %d", (unsigned)k, c);
    CHECK(omp_get_dynamic() == 1, "OMP_DYNAMIC=TRUE gives %d", omp_get_dynamic());
    CHECK(omp_get_max_threads() == 4, "max threads %d", omp_get_max_threads());
    CHECK(omp_get_max_active_levels() == 1, "mal %d", omp_get_max_active_levels());
    CHECK(omp_get_nested() == 0, "nested %d", omp_get_nested());

    int n = 0, bad = 0, seen[4] = {0};
#pragma omp parallel reduction(+ : bad)
    {
#pragma omp master
        n = omp_get_num_threads();
#pragma omp atomic
        seen[omp_get_thread_num()]++;
        if (omp_get_thread_num() != 0) bad += deep_stack() != BIG / 4096;
    }
    /* dynamic adjustment may give fewer threads, never more */
    CHECK(n >= 1 && n <= 4, "team %d", n);
    for (int i = 0; i < n; i++) CHECK(seen[i] == 1, "thread %d ran %d", i, seen[i]);
    CHECK(bad == 0, "deep stack");
    long s = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : s)
    for (long i = 0; i < 5000; i++) s += i;
    CHECK(s == 4999L * 5000 / 2, "sum %ld", s);
    return 0;
}
