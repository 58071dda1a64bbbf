// task_priority_order.c - queued tasks start in priority order: thread 0
// creates low-priority tasks (or a taskloop), then high-priority ones, and
// runs them all in its taskwait while every other thread is held in user
// code (so the order seen is the queue's alone, not a race between threads
// taking tasks). Every high task must start before any low one. Explicit
// tasks and nogroup taskloops.
// ilan-test: threads=2,3,8 env=OMP_MAX_TASK_PRIORITY=10 tsan modes=ilan,numa,ws
#include "check.h"

#define N 24

static int starts;               /* start tickets handed out */
static int ticket[2][N];         /* [0]: low-priority tasks, [1]: high */
static int go;                   /* the creator's release of the held threads, once its
                                    taskwait has run every task */
static int held;                 /* threads spinning in user code: a thread just out of
                                    the barrier may still be in its wait, taking tasks */

static void body(int high, int i)
{
    ticket[high][i] = __atomic_fetch_add(&starts, 1, __ATOMIC_RELAXED);
    for (volatile int k = 0; k < 2000; k++)
        ; /* long enough that a thread cannot drain both kinds at once */
}

/* Every high ticket below every low one. */
static void check_order(const char *what)
{
    int last_high = -1, first_low = 1 << 30;
    for (int i = 0; i < N; i++) {
        if (ticket[1][i] > last_high)
            last_high = ticket[1][i];
        if (ticket[0][i] < first_low)
            first_low = ticket[0][i];
    }
    CHECK(last_high < first_low, "%s: a low-priority task started (ticket %d) before the last "
          "high-priority one (ticket %d)", what, first_low, last_high);
}

/* kind 0: explicit tasks; 1: two taskloops with nogroup (without it, the
 * creator would wait for the low loop before making the high one). */
static void run(int kind)
{
    starts = 0;
    __atomic_store_n(&go, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&held, 0, __ATOMIC_RELAXED);
    memset(ticket, 0xff, sizeof ticket);
#pragma omp parallel
    {
#pragma omp barrier
        if (omp_get_thread_num() != 0) {
            __atomic_add_fetch(&held, 1, __ATOMIC_RELEASE);
            while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
                ;
        } else {
            while (__atomic_load_n(&held, __ATOMIC_ACQUIRE) != omp_get_num_threads() - 1)
                ;
            if (kind == 0) {
                for (int i = 0; i < N; i++) {
#pragma omp task priority(1) firstprivate(i)
                    body(0, i);
                }
                for (int i = 0; i < N; i++) {
#pragma omp task priority(9) firstprivate(i)
                    body(1, i);
                }
            } else {
#pragma omp taskloop priority(1) nogroup num_tasks(N)
                for (int i = 0; i < N; i++)
                    body(0, i);
#pragma omp taskloop priority(9) nogroup num_tasks(N)
                for (int i = 0; i < N; i++)
                    body(1, i);
            }
#pragma omp taskwait
            __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
        }
    }
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < N; i++)
            CHECK(ticket[p][i] >= 0, "task %d of priority %s never ran", i, p ? "high" : "low");
    check_order(kind == 0 ? "tasks" : "taskloops");
}

int main(void)
{
    for (int rep = 0; rep < 20; rep++) {
        run(0);
        run(1);
    }
    return 0;
}
