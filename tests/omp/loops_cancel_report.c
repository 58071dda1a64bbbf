// loops_cancel_report.c - a cancelled worksharing loop still ends its
// execution in the loop's record: ILAN_REPORT counts every execution of a
// loop cancelled each time (`cancel for` under OMP_CANCELLATION=true), and of
// a schedule(static) loop with a task reduction, whose iterations gcc
// computes inline (no thread claims a chunk). The program runs itself with
// ILAN_REPORT and reads the "calls" of each loop.
// ilan-test: threads=1,2,3,8 env=OMP_CANCELLATION=true
#include "child_report.h"
#include <omp.h>

#define N 4000
#define REPS 12

static void kernel(void)
{
    for (int rep = 0; rep < REPS; rep++) {
        long sum = 0;
#pragma omp parallel
        {
#pragma omp for schedule(dynamic)
            for (int i = 0; i < N; i++) {
                if (i == N / 3) {
#pragma omp cancel for
                }
#pragma omp cancellation point for
            }
#pragma omp for schedule(static) reduction(task, + : sum)
            for (int i = 0; i < N; i++)
                sum += i;
        }
        CHECK(sum == (long)N * (N - 1) / 2, "sum %ld", sum);
    }
}

int main(void)
{
    if (getenv("CANCEL_CHILD")) {
        kernel();
        return 0;
    }
    const char *text = test_child_report(NULL, (const char *[]){"CANCEL_CHILD=1", NULL}, "cancel");
    /* Both loops have a record in the "loops" section, each with every
     * execution counted. */
    const char *sec = strstr(text, "\"loops\": [");
    CHECK(sec != NULL, "no loops section");
    int loops = 0;
    for (const char *p = strstr(sec, "\"calls\": "); p; p = strstr(p + 1, "\"calls\": ")) {
        long calls = atol(p + strlen("\"calls\": "));
        CHECK(calls == REPS, "a loop counted %ld executions of %d", calls, REPS);
        loops++;
    }
    CHECK(loops == 2, "%d loops in the report", loops);
    return 0;
}
