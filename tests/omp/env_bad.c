// env_bad.c - invalid OMP_* values must be ignored: the program still runs and
// every ICV has its default value.  (The warning text is checked elsewhere.)
// ilan-test: threads=1
// ilan-test: env=OMP_NUM_THREADS=abc;OMP_SCHEDULE=bogus;OMP_DYNAMIC=maybe;OMP_MAX_ACTIVE_LEVELS=-5;OMP_THREAD_LIMIT=zero;OMP_CANCELLATION=perhaps;OMP_MAX_TASK_PRIORITY=-1;OMP_WAIT_POLICY=sometimes;OMP_PROC_BIND=sideways;OMP_STACKSIZE=lots;OMP_NESTED=xyz;OMP_PLACES=garbage;OMP_DEFAULT_DEVICE=nope
#include "check.h"

static void check_defaults(void)
{
    int procs = omp_get_num_procs();
    /* default nthreads-var: implementation defined; libgomp and libomp (and
       ilan) use the number of available processors */
    CHECK(omp_get_max_threads() == procs, "max threads %d, procs %d", omp_get_max_threads(),
          procs);
    CHECK(omp_get_dynamic() == 0, "dynamic %d", omp_get_dynamic());
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    int base = (int)k & ~(int)omp_sched_monotonic;
    CHECK(base >= omp_sched_static && base <= omp_sched_auto, "schedule kind %#x", (unsigned)k);
    CHECK(c >= 0, "schedule chunk %d", c);
    CHECK(omp_get_max_active_levels() >= 1, "max active levels %d",
          omp_get_max_active_levels());
    CHECK(omp_get_thread_limit() >= 1000, "thread limit %d", omp_get_thread_limit());
    CHECK(omp_get_cancellation() == 0, "cancellation %d", omp_get_cancellation());
    CHECK(omp_get_max_task_priority() == 0, "max task priority %d",
          omp_get_max_task_priority());
    CHECK(omp_get_default_device() >= 0, "default device %d", omp_get_default_device());
    omp_proc_bind_t pb = omp_get_proc_bind();
    CHECK(pb >= omp_proc_bind_false && pb <= omp_proc_bind_spread, "proc bind %d", pb);

    /* the runtime works */
    int n = 0, sum = 0;
#pragma omp parallel reduction(+ : sum)
    {
        volatile char buf[64 * 1024]; /* default stacks are at least this big */
        buf[0] = 1;
        buf[sizeof buf - 1] = (char)omp_get_thread_num();
        sum += buf[0];
#pragma omp master
        n = omp_get_num_threads();
    }
    CHECK(n == procs && sum == n, "team %d sum %d", n, sum);
    long s = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : s)
    for (int i = 0; i < 1000; i++) s += i;
    CHECK(s == 999 * 1000 / 2, "runtime loop sum %ld", s);
}

int main(void)
{
    check_defaults();
    return 0;
}
