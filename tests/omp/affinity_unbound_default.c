// affinity_unbound_default.c - with no OMP_PROC_BIND, OMP_PLACES or
// GOMP_CPU_AFFINITY set, nothing is bound (as on libgomp): proc-bind is
// false, there are no places, every thread of every team may run on the
// process's whole CPU set, proc_bind clauses change nothing, and after the
// regions the initial thread, a pthread it starts and two child processes
// started at once all keep the mask the process began with.
// ilan-test: threads=default,1,2,8
#include "affinity_common.h"
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

/* The calling thread's mask is the process's original one. */
static int mask_is_original(void)
{
    cpu_set_t now;
    CPU_ZERO(&now);
    return sched_getaffinity(0, sizeof now, &now) == 0 && CPU_EQUAL(&now, &aff_process_set);
}

static void *pthread_body(void *result)
{
    *(int *)result = mask_is_original();
    return NULL;
}

/* A child process runs a region of one thread and reports its mask. */
static pid_t start_child(void)
{
    pid_t pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        int unchanged = 0;
        #pragma omp parallel num_threads(1)
        unchanged = mask_is_original();
        _exit(unchanged && mask_is_original() ? 0 : 3);
    }
    return pid;
}

int main(void)
{
    char a[256];
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "proc-bind %d, want false",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == 0, "%d places, want none", omp_get_num_places());
    CHECK(omp_get_place_num() == -1, "initial thread on place %d", omp_get_place_num());
    const int sizes[] = {0, 1, 2, 5};
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int T = aff_region(-1, sizes[s]);
        aff_check_unbound("default team", T, aff_recs);
        T = aff_region(AFF_CLOSE, sizes[s]);
        aff_check_unbound("proc_bind(close) team", T, aff_recs);
        T = aff_region(AFF_SPREAD, sizes[s]);
        aff_check_unbound("proc_bind(spread) team", T, aff_recs);
    }
    cpu_set_t now;
    sched_getaffinity(0, sizeof now, &now);
    CHECK(mask_is_original(), "the initial thread's mask is {%s} after the regions",
          aff_set_str(&now, a, sizeof a));
    int pthread_ok = 0;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, pthread_body, &pthread_ok) == 0, "pthread_create");
    pthread_join(th, NULL);
    CHECK(pthread_ok, "a pthread started after the regions has another mask");
    pid_t c1 = start_child(), c2 = start_child();
    int st1, st2;
    CHECK(waitpid(c1, &st1, 0) == c1 && waitpid(c2, &st2, 0) == c2, "waitpid");
    CHECK(WIFEXITED(st1) && WEXITSTATUS(st1) == 0 && WIFEXITED(st2) && WEXITSTATUS(st2) == 0,
          "a child process started after the regions had its mask changed (%d, %d)", st1, st2);
    return 0;
}
