/* thread_limit_nested.c — OMP_THREAD_LIMIT holds under nested parallelism: five threads that start their inner regions at the same moment together never run more threads than the limit, at any level, in any round. */
// ilan-test: threads=default tsan
// ilan-test: env=OMP_THREAD_LIMIT=6;OMP_MAX_ACTIVE_LEVELS=3;OMP_DYNAMIC=false
#include "check.h"
#include <unistd.h>

static int inside;     /* threads inside the innermost regions now */
static int most;       /* the most seen at once */

int main(void)
{
    CHECK(omp_get_thread_limit() == 6, "thread limit %d", omp_get_thread_limit());
    for (int round = 0; round < 30; round++) {
        #pragma omp parallel num_threads(5)
        {
            CHECK(omp_get_num_threads() <= 6, "outer team of %d", omp_get_num_threads());
            #pragma omp barrier
            #pragma omp parallel num_threads(5)
            #pragma omp parallel num_threads(2)
            {
                int now;
                #pragma omp atomic capture
                now = ++inside;
                #pragma omp critical
                if (now > most)
                    most = now;
                usleep(200);
                #pragma omp atomic
                inside--;
            }
        }
    }
    CHECK(most <= 6, "%d threads ran at once under OMP_THREAD_LIMIT=6", most);
    CHECK(most >= 1, "no thread ran");
    /* After the nested rounds every thread is free again: a flat region
     * gets the whole limit. */
    int size = 0;
    #pragma omp parallel num_threads(6)
    #pragma omp single
    size = omp_get_num_threads();
    CHECK(size == 6, "a team of %d after the nested regions, want 6", size);
    return 0;
}
