// team_large.c - teams of 1,000 and 5,000 threads on 2 cores form and finish
// a reduction and a taskloop (with a reduction) correctly, twice each (the
// second time the hot team is reused), then a small team again; every thread
// of the big teams passes an explicit barrier with all others arrived.
// ilan-test: threads=2 serial
#include "check.h"

static void big_team(int n)
{
    long sum = 0, tl = 0, arrived = 0, early = 0;
    int team = 0;
#pragma omp parallel num_threads(n) reduction(+ : sum, early)
    {
        sum += omp_get_thread_num() + 1;
        __atomic_add_fetch(&arrived, 1, __ATOMIC_RELAXED);
#pragma omp barrier
        early += __atomic_load_n(&arrived, __ATOMIC_RELAXED) != omp_get_num_threads();
#pragma omp single
        {
            team = omp_get_num_threads();
#pragma omp taskloop reduction(+ : tl)
            for (long i = 0; i < 10000; i++)
                tl += i;
        }
    }
    CHECK(team == n, "asked for %d threads, got %d", n, team);
    CHECK(sum == (long)n * (n + 1) / 2, "team of %d: reduction %ld", n, sum);
    CHECK(tl == 10000L * 9999 / 2, "team of %d: taskloop reduction %ld", n, tl);
    CHECK(early == 0, "team of %d: %ld threads passed the barrier early", n, early);
}

int main(void)
{
    for (int rep = 0; rep < 2; rep++) {
        big_team(1000);
        big_team(5000);
    }
    big_team(2);
    return 0;
}
