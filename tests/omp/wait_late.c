// wait_late.c - beside busy processes, a yield comes back late. The test
// starts one busy child process per CPU, then runs regions of 4 threads
// (oversubscribed: their waits yield first) whose doacross loop hands its
// turn from thread to thread at every iteration. A yield then often hands
// the CPU to a busy child for a whole slice: the counters show such
// yields ("yields_late"), after which waits sleep instead of yielding
// (the policy's unit test, test_wait_policy, checks what they do then).
// Every region's result is checked.
// ilan-test: threads=4 env=ILAN_COUNTERS=runtime
#include "check.h"
#include <dlfcn.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Regions run until a late yield is seen, for at most MAX_SECONDS: the
 * load is judged over 100 ms windows, and a busy CI machine may give the
 * children their slices late. */
#define MAX_SECONDS 30.0
#define ITERS 256

static long long (*counter)(const char *name, int thread);

/* Starts one child per CPU that spins until killed (or until this
 * process dies); their pids go to pids[0..n). */
static int start_busy_children(pid_t *pids, int most)
{
    int n = omp_get_num_procs() < most ? omp_get_num_procs() : most;
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        CHECK(pids[i] >= 0, "fork failed");
        if (pids[i] == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            for (volatile unsigned long spin = 0;; spin++)
                ;
        }
    }
    return n;
}

/* Runs regions of 4 threads whose iterations each wait for the one
 * before (ordered depend), until some yield came back late (for at most
 * MAX_SECONDS); returns the late yields. */
static long long regions(void)
{
    long long late = 0;
    double start = omp_get_wtime();
    for (int r = 0; late == 0 && omp_get_wtime() - start < MAX_SECONDS; r++) {
        long sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
        {
#pragma omp for ordered(1) schedule(static, 1)
            for (int i = 0; i < ITERS; i++) {
#pragma omp ordered depend(sink : i - 1)
                sum += i;
#pragma omp ordered depend(source)
            }
        }
        CHECK(sum == (long)ITERS * (ITERS - 1) / 2, "region %d: sum %ld", r, sum);
        late = counter("yields_late", -1);
    }
    return late;
}

int main(void)
{
    counter = (long long (*)(const char *, int))dlsym(RTLD_DEFAULT, "ilan_counter");
    CHECK(counter, "ilan_counter missing");
    pid_t busy[64];
    int nbusy = start_busy_children(busy, 64);
    long long late = regions();
    for (int i = 0; i < nbusy; i++) {
        kill(busy[i], SIGKILL);
        waitpid(busy[i], NULL, 0);
    }
    CHECK(late > 0, "no yield came back late beside %d busy processes in %.0f s", nbusy,
          MAX_SECONDS);
    return 0;
}
