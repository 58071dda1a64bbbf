// loops_cancel_report.c - a cancelled worksharing loop still ends its
// execution in the loop's record: ILAN_REPORT counts every execution of a
// loop cancelled each time (`cancel for` under OMP_CANCELLATION=true), and of
// a schedule(static) loop with a task reduction, whose iterations gcc
// computes inline (no thread claims a chunk). The program runs itself with
// ILAN_REPORT and reads the "calls" of each loop.
// ilan-test: threads=1,2,3,8 env=OMP_CANCELLATION=true
#include "check.h"
#include <omp.h>
#include <sys/wait.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
    (void)argc;
    if (getenv("CANCEL_CHILD")) {
        kernel();
        return 0;
    }
    char path[] = "/tmp/ilan-cancel-report-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        setenv("ILAN_REPORT", path, 1);
        setenv("CANCEL_CHILD", "1", 1);
        execl(argv[0], argv[0], (char *)NULL);
        _exit(127);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "child failed");
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "no report at %s", path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(path);
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
