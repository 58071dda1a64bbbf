/* passive_child.h - runs the test program again as a child under OMP_WAIT_POLICY=passive, with every CPU of the parent's process. */
#ifndef ILAN_TEST_PASSIVE_CHILD_H
#define ILAN_TEST_PASSIVE_CHILD_H

#include "check.h"
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

/*
 * Runs this program (/proc/self/exe, named argv0) with the one argument
 * "passive" under OMP_WAIT_POLICY=passive and checks that it exits with
 * status 0. A child inherits the calling thread's mask, which a bound
 * team narrowed to one CPU (it would then see one CPU and check nothing):
 * the caller is first given CPUs 0 to omp_get_num_procs() - 1 again.
 * Call it from the parent only, outside parallel regions, as its last step.
 */
static void test_passive_child(char *argv0)
{
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int c = 0; c < omp_get_num_procs() && c < CPU_SETSIZE; c++)
        CPU_SET(c, &all);
    CHECK(sched_setaffinity(0, sizeof all, &all) == 0, "cannot unbind the master");
    setenv("OMP_WAIT_POLICY", "passive", 1);
    char *child[] = {argv0, "passive", NULL};
    pid_t pid;
    CHECK(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, child, environ) == 0, "spawn failed");
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "the passive run failed (status %d)", status);
}

#endif
