// user_thread_exit.c - a thread the program starts (not a pool worker) gives
// back what its OpenMP use kept when it ends: its parallel regions' workers
// return to the pool, so 40 short-lived threads, each with a region of 3
// threads, a nested region, tasks and an orphaned dynamic loop, one after the
// other, leave the process with no more threads than one of them needed (the
// idle pool is reused), instead of two workers per thread ever started (81).
// Eight such threads at once compute correct results, and the count after
// they ended is bounded by what they needed together.
// ilan-test: threads=default
// ilan-test: tsan
#include "check.h"
#include <dirent.h>
#include <pthread.h>

static int threads_alive(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL, "cannot list /proc/self/task");
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* One user thread's OpenMP work: returns 0 when every result was right. */
static void *use_openmp(void *arg)
{
    (void)arg;
    long sum = 0, tasks = 0, nested = 0, iters = 0;
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(3) reduction(+ : sum, nested)
        {
            sum += omp_get_thread_num();
            if (omp_get_thread_num() == 0) {
#pragma omp parallel num_threads(2) reduction(+ : nested)
                nested += 1;
            }
        }
    }
#pragma omp parallel num_threads(3)
#pragma omp single
    for (int i = 0; i < 50; i++) {
#pragma omp task
        {
#pragma omp atomic
            tasks++;
        }
    }
    /* Outside every region: a team of one runs every iteration. */
#pragma omp for schedule(dynamic)
    for (int i = 0; i < 1000; i++)
        iters += i;
    long levels = omp_get_max_active_levels() > 1 ? 2 : 1;
    long ok = sum == 3 * 3 && tasks == 50 && iters == 499500L && nested == 3 * levels;
    return (void *)(ok ? 0L : 1L);
}

static void run_threads(int count)
{
    pthread_t th[8];
    for (int i = 0; i < count; i++)
        CHECK(pthread_create(&th[i], NULL, use_openmp, NULL) == 0, "pthread_create");
    for (int i = 0; i < count; i++) {
        void *bad;
        CHECK(pthread_join(th[i], &bad) == 0, "pthread_join");
        CHECK(bad == NULL, "a thread's OpenMP results were wrong");
    }
}

int main(void)
{
    omp_set_max_active_levels(2);
    for (int k = 0; k < 40; k++)
        run_threads(1);
    /* One thread at a time needed at most 2 + 1 workers (its region of 3
     * and the nested one of 2 in its master): with the main thread, 4. */
    int alive = threads_alive();
    CHECK(alive <= 4, "%d threads alive after 40 user threads ended", alive);
    run_threads(8);
    /* Together the eight needed at most 8 * 3 workers. */
    alive = threads_alive();
    CHECK(alive <= 1 + 8 * 3, "%d threads alive after 8 concurrent user threads ended", alive);
    return 0;
}
