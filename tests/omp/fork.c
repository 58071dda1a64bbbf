// fork.c - a child forked after parallel regions (the parent's workers do
// not exist in it) runs its own regions, tasks included, with a full team.
// (GNU libgomp 12 hangs here with 2 or more threads: its child waits for the
// parent's pool threads.)
// ilan-test: threads=1,2,8 vary=ILAN_BARRIER=tree,central
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

static int team_size(void)
{
    int n = 0, tasks = 0;
#pragma omp parallel reduction(+ : n)
    {
        n++;
#pragma omp task shared(tasks)
        __atomic_add_fetch(&tasks, 1, __ATOMIC_RELAXED);
    }
    return tasks == n ? n : -1;
}

int main(void)
{
    int want = omp_get_max_threads();
    CHECK(team_size() == want, "parent: team of %d tasks and threads, want %d", team_size(), want);
    pid_t child = fork();
    CHECK(child >= 0, "fork failed");
    if (child == 0)
        _exit(team_size() == want && team_size() == want ? 0 : 1);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child, "waitpid failed");
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's regions failed (status %d)",
          status);
    CHECK(team_size() == want, "parent after fork: wrong team");
    return 0;
}
