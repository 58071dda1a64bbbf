// counters_off.c - by default nothing is counted: ilan_counter reads -1 and
// no thread is registered, and ILAN_COUNTERS=off with a report asked for
// keeps it so; nothing is printed.
// ilan-test: threads=2
#include "check.h"

int main(void)
{
    long long (*counter)(const char *, int) =
        (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    int (*threads)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "ilan_counter_threads");
    CHECK(counter && threads, "ilan_counter missing");
    long s = 0;
#pragma omp parallel reduction(+ : s)
#pragma omp single
    for (int i = 0; i < 10; i++) {
#pragma omp task
        s += i;
    }
    CHECK_EQ_LL(counter("tasks_created", -1), -1);
    CHECK_EQ_LL(threads(), 0);
    return 0;
}
