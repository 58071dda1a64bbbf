/* cancel_taskgroup_nested.c — cancel taskgroup reaches the taskgroup region around a worksharing loop with task reductions: tasks created afterwards in that region (inside the loop, or after it) never start, whether the cancellation came before the loop or from one of the loop's own tasks. */
// ilan-test: env=OMP_CANCELLATION=true tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

static int started_after; /* tasks that started after their taskgroup was cancelled */

int main(void)
{
    CHECK(omp_get_cancellation(), "OMP_CANCELLATION=true was not seen");
    for (int round = 0; round < 20; round++) {
        int sum = 0;
        /* Cancelled before the loop: no task of the loop may start. */
        #pragma omp parallel
        #pragma omp taskgroup
        {
            #pragma omp task
            {
                #pragma omp cancel taskgroup
            }
            #pragma omp taskwait
            #pragma omp for reduction(task, + : sum)
            for (int i = 0; i < 32; i++) {
                sum++;
                #pragma omp task in_reduction(+ : sum)
                {
                    #pragma omp atomic
                    started_after++;
                }
            }
            #pragma omp task
            {
                #pragma omp atomic
                started_after++;
            }
        }
        CHECK(sum == 32, "loop sum %d", sum);
        /* Cancelled from a task of the loop: the region's later tasks may
         * not start (the loop's own tasks created before may). */
        sum = 0;
        #pragma omp parallel
        #pragma omp taskgroup
        {
            int ran_loop = 0;
            #pragma omp for reduction(task, + : sum)
            for (int i = 0; i < 32; i++) {
                sum++;
                ran_loop = 1;
                #pragma omp task in_reduction(+ : sum)
                {
                    #pragma omp cancel taskgroup
                }
            }
            #pragma omp task firstprivate(ran_loop)
            if (ran_loop) {
                #pragma omp atomic
                started_after++;
            }
        }
        CHECK(sum == 32, "loop sum %d", sum);
    }
    CHECK(started_after == 0, "%d tasks started in a cancelled taskgroup", started_after);
    return 0;
}
