// counters_tasks.c - ILAN_COUNTERS=runtime counts what the program did: N
// explicit tasks give created == executed == N summed over the threads;
// the tasks another thread ran (the program records the creating and the
// executing thread of each) are the counter's foreign executions, and each
// was a steal (under ILAN_DLB=ws, pinned below: with na-ws/na-rp tasks
// also move by message, which is not a steal); a taskloop with num_tasks(T) reports T tasks, created and
// executed; a team's threads each count the region. Read back with
// ilan_counter (looked up with dlsym).
// ilan-test: threads=1,2,4 tsan modes=ilan,numa,ws env=ILAN_COUNTERS=runtime;ILAN_DLB=ws
#include "check.h"

#define N 2000
#define T 37

static long long (*counter)(const char *name, int thread);

static int made_by[N], ran_on[N];

static long long sum(const char *name)
{
    long long v = counter(name, -1);
    CHECK(v >= 0, "counter %s unreadable", name);
    return v;
}

static void work(int i)
{
    volatile double x = 0;
    for (int k = 0; k < 200 + (i % 7) * 100; k++)
        x += k * 0.5;
    ran_on[i] = omp_get_thread_num();
}

int main(void)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    int (*threads)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ilan_counter_threads");
    CHECK(counter && threads, "ilan_counter missing");
    CHECK(counter("no_such_counter", -1) == -1, "an unknown counter reads %lld",
          counter("no_such_counter", -1));

    /* Explicit tasks, made by one thread. */
    long long created0 = sum("tasks_created"), executed0 = sum("tasks_executed");
    long long foreign0 = sum("tasks_executed_foreign");
    long long steals0 = sum("steals_local") + sum("steals_remote");
    long long regions0 = sum("regions");
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            team = omp_get_num_threads();
            for (int i = 0; i < N; i++) {
                made_by[i] = omp_get_thread_num();
#pragma omp task firstprivate(i)
                work(i);
            }
        }
    }
    int foreign = 0;
    for (int i = 0; i < N; i++)
        foreign += ran_on[i] != made_by[i];
    CHECK_EQ_LL(sum("tasks_created") - created0, N);
    CHECK_EQ_LL(sum("tasks_executed") - executed0, N);
    CHECK_EQ_LL(sum("tasks_executed_foreign") - foreign0, foreign);
    /* Explicit tasks never go to ILAN's group queues: every task run
     * elsewhere was stolen from its creator's deque. */
    CHECK_EQ_LL(sum("steals_local") + sum("steals_remote") - steals0, foreign);
    CHECK_EQ_LL(sum("regions") - regions0, team);
    CHECK(threads() >= team, "%d threads counted, team of %d", threads(), team);

    /* The per-thread values add up to the sum. */
    long long per = 0;
    for (int t = 0; t < threads(); t++)
        per += counter("tasks_executed", t);
    CHECK_EQ_LL(per, sum("tasks_executed"));
    CHECK(counter("tasks_executed", threads()) == -1, "thread out of range is readable");

    /* A taskloop of num_tasks(T). */
    long long tl0 = sum("taskloop_tasks");
    created0 = sum("tasks_created");
    executed0 = sum("tasks_executed");
    long long loops0 = sum("taskloops_ilan") + sum("taskloops_numa") + sum("taskloops_ws") +
                       sum("taskloops_undeferred");
    long total = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop num_tasks(T) reduction(+ : total)
    for (int i = 0; i < 1000; i++)
        total += i;
    CHECK_EQ_LL(total, 999L * 1000 / 2);
    CHECK_EQ_LL(sum("taskloop_tasks") - tl0, T);
    CHECK_EQ_LL(sum("tasks_created") - created0, T);
    CHECK_EQ_LL(sum("tasks_executed") - executed0, T);
    CHECK_EQ_LL(sum("taskloops_ilan") + sum("taskloops_numa") + sum("taskloops_ws") +
                    sum("taskloops_undeferred") - loops0,
                1);
    const char *mode = getenv("ILAN_TASKLOOP");
    const char *which = team == 1 ? "taskloops_undeferred"
                        : !mode || !strcmp(mode, "ilan") ? "taskloops_ilan"
                        : !strcmp(mode, "numa")         ? "taskloops_numa"
                                                        : "taskloops_ws";
    CHECK(sum(which) >= 1, "the taskloop was not counted as %s", which);

    /* A dynamic loop's chunks: 100 iterations, chunk 10 (monotonic: the
     * shared counter; plain dynamic runs on adaptive, whose chunks vary). */
    long long chunks0 = sum("loop_chunks");
#pragma omp parallel for schedule(monotonic : dynamic, 10)
    for (int i = 0; i < 100; i++)
        work(i);
    CHECK_EQ_LL(sum("loop_chunks") - chunks0, 10);
    return 0;
}
