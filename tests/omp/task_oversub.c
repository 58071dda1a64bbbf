// task_oversub.c - 64 threads on a 2-core machine: task storms from one
// thread and from all threads, tasks waiting on children, dependence chains
// and taskloops, separated by barriers, must all finish (idle threads have
// to yield or sleep).  The 60 s test timeout is the only time guard.
// ilan-test: threads=64 modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp vary=ILAN_BARRIER=tree,central
#include "check.h"

#define ROUNDS 40

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    long total = 0;
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        int me = omp_get_thread_num(), nt = omp_get_num_threads();
        for (int r = 0; r < ROUNDS; r++) {
            /* storm from one thread */
#pragma omp single
            for (int i = 0; i < 2000; i++) {
#pragma omp task
                __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
            }
            /* storm from every thread, each task with a child */
            for (int i = 0; i < 20; i++) {
#pragma omp task
                {
#pragma omp task
                    __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
#pragma omp taskwait
                    __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
                }
            }
#pragma omp barrier
            if (__atomic_load_n(&total, __ATOMIC_RELAXED) != (long)(r + 1) * (2000 + 40L * nt))
                bad++;
#pragma omp barrier
            /* a dependence chain built by one thread while others wait */
            if (me == r % nt) {
                int x = 0;
                for (int i = 0; i < 50; i++) {
#pragma omp task depend(inout : x) shared(x)
                    x++;
                }
#pragma omp taskwait
                if (x != 50)
                    bad++;
            }
            /* a taskloop from one thread, a small fib from another */
#pragma omp single nowait
            {
                long s = 0;
#pragma omp taskloop grainsize(8) reduction(+ : s)
                for (int i = 0; i < 1000; i++) s += i;
                if (s != 999L * 1000 / 2)
                    bad++;
            }
#pragma omp single
            if (fib(14) != 377)
                bad++;
        }
    }
    CHECK(bad == 0, "%d wrong results under oversubscription", bad);
    return 0;
}
