// master.c - master and masked (filter) run only on the selected thread.
#include "check.h"

int main(void)
{
    int nthr = 0;
    int master_runs = 0, master_id = -1;
    int masked_runs[8] = {0}, masked_id[8];
    for (int i = 0; i < 8; i++) masked_id[i] = -1;

#pragma omp parallel
    {
#pragma omp single
        nthr = omp_get_num_threads();
        for (int r = 0; r < 100; r++) {
#pragma omp master
            {
                master_runs++;
                master_id = omp_get_thread_num();
            }
        }
#pragma omp barrier
        for (int f = 0; f < 8; f++) {
#pragma omp masked filter(f)
            {
#pragma omp atomic
                masked_runs[f]++;
                masked_id[f] = omp_get_thread_num();
            }
        }
        /* masked without filter is filter(0) */
#pragma omp masked
        {
#pragma omp atomic
            masked_runs[0]++;
        }
        /* a thread-dependent filter expression: each thread evaluates its own */
        int tid = omp_get_thread_num();
#pragma omp masked filter(tid)
        {
#pragma omp atomic
            masked_runs[7] += 1000;
        }
    }
    CHECK(master_runs == 100, "master ran %d times", master_runs);
    CHECK(master_id == 0, "master on thread %d", master_id);
    for (int f = 0; f < 7; f++) {
        int want = f < nthr ? 1 : 0;
        if (f == 0) want = 2;
        CHECK(masked_runs[f] == want, "masked filter(%d) ran %d times (team %d)", f,
              masked_runs[f], nthr);
        if (f < nthr) CHECK(masked_id[f] == f, "masked filter(%d) ran on %d", f, masked_id[f]);
    }
    /* filter(7) once if the team is big enough, plus tid filter on every thread */
    CHECK(masked_runs[7] == (nthr > 7) + 1000 * nthr, "masked filter(tid): %d", masked_runs[7]);

    /* master in an orphaned position / serial: the initial thread is master */
    int c = 0;
#pragma omp master
    c++;
#pragma omp masked filter(1)
    c += 10;
    CHECK(c == 1, "serial master/masked %d", c);

    /* master inside nested inner teams: thread 0 of each inner team */
    omp_set_max_active_levels(2);
    int inner_master[4] = {0};
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
#pragma omp parallel num_threads(3)
#pragma omp master
        {
            CHECK(omp_get_thread_num() == 0, "inner master id");
            inner_master[o]++;
        }
    }
    CHECK(inner_master[0] == 1 && inner_master[1] == 1, "inner masters %d %d",
          inner_master[0], inner_master[1]);
    return 0;
}
