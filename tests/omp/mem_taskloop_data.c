// mem_taskloop_data.c - taskloops that follow their data, in every
// ILAN_TASKLOOP mode, on a what-if machine of 4 nodes x 2 cores: a bloc
// array of the team registered with ilan_taskloop_data pins the next
// taskloop to the nodes holding it (so the ilan mode's exploration, which
// tries fewer nodes from its fourth run on, never leaves a node's data
// without its threads) and every task runs on the node holding its pages;
// the count of tasks on their data's node (the report's "data" member,
// ilan_mem_count here) equals what the tasks saw. The hint is consumed by
// one taskloop; the ws mode ignores it (nothing counted). Every other
// run starts once all the other threads sleep: the launch's wake-ups then
// reach some groups' threads only (8 threads on 2 CPUs), and the others
// must still be woken for their tasks (their sleep used to last until the
// creator's stall escape ran those tasks on its own node).
// ilan-test: threads=8 modes=ilan,numa,ws env=HWLOC_SYNTHETIC=numa:4%20core:2%20pu:1;OMP_PROC_BIND=close
#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "_mem.h"

/* 4 MiB of doubles over 4 nodes, 256 tasks of 4 pages each, 10 runs (past
 * the ilan mode's 3 all-nodes runs and its half-size trial). */
enum { NODES = 4, PAGE = 4096, TASKS = 256, RUNS = 10 };
#define SIZE ((size_t)4 << 20)
#define N (SIZE / sizeof(double))

static signed char task_node[TASKS]; /* node that ran each task */
static int (*taskloop_data)(const void *, size_t);

/* Threads of this process other than the caller that are not asleep
 * (state S in /proc/self/task/TID/stat). */
static int others_awake(void)
{
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL, "cannot open /proc/self/task");
    long self = (long)gettid();
    int awake = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || atol(e->d_name) == self)
            continue;
        char path[320], state = '?';
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue; /* exited meanwhile */
        /* "tid (comm) state ...": the state follows the last ')' */
        char line[512];
        if (fgets(line, sizeof line, f)) {
            char *close = strrchr(line, ')');
            if (close && close[1] == ' ')
                state = close[2];
        }
        fclose(f);
        awake += state != 'S';
    }
    closedir(d);
    return awake;
}

/* Returns once every other thread sleeps; fails after 10 s. */
static void until_others_asleep(void)
{
    for (int i = 0; others_awake() > 0; i++) {
        CHECK(i < 10000, "%d threads still awake after 10 s", others_awake());
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

/* One taskloop over a (registered when `hint`), started once the other
 * threads sleep when `asleep`; returns how many of its tasks ran on the
 * node holding their pages. */
static long run_once(double *a, int hint, int asleep, double add)
{
    memset(task_node, -1, sizeof task_node);
#pragma omp parallel
#pragma omp single
    {
        if (asleep)
            until_others_asleep();
        if (hint)
            CHECK(taskloop_data(a, SIZE) == 0, "ilan_taskloop_data: errno %d", errno);
#pragma omp taskloop num_tasks(TASKS)
        for (size_t i = 0; i < N; i++) {
            a[i] += add;
            if (i % (N / TASKS) == 0)
                task_node[i / (N / TASKS)] = (signed char)numa_node_num();
        }
    }
    long on = 0;
    for (int t = 0; t < TASKS; t++) {
        size_t pn[8];
        CHECK(task_node[t] >= 0 && task_node[t] < NODES, "task %d did not run", t);
        CHECK(pages_on(&a[(size_t)t * (N / TASKS)], (N / TASKS) * sizeof(double), pn) == NODES,
              "query");
        on += pn[task_node[t]] == (N / TASKS) * sizeof(double) / PAGE;
    }
    return on;
}

int main(void)
{
    mem_api();
    *(void **)&taskloop_data = dlsym(RTLD_DEFAULT, "ilan_taskloop_data");
    CHECK(taskloop_data != NULL, "ilan_taskloop_data is missing");
    const char *mode = getenv("ILAN_TASKLOOP");
    int placed = !mode || strcmp(mode, "ws") != 0; /* ilan (the default) and numa */
    CHECK(num_numa_nodes() == NODES, "%d nodes", num_numa_nodes());

    errno = 0;
    CHECK(taskloop_data(NULL, 8) == -1 && errno == EINVAL, "null array: errno %d", errno);
    errno = 0;
    CHECK(taskloop_data(&errno, 0) == -1 && errno == EINVAL, "size 0: errno %d", errno);

    double *a = NULL;
#pragma omp parallel
#pragma omp single
    a = alloc_bloc(SIZE);
    CHECK(a != NULL, "ilan_alloc_bloc: errno %d", errno);

    for (int r = 0; r < RUNS; r++) {
        long before = mem_count("taskloop_data_on_node");
        long tasks = mem_count("taskloop_data_tasks");
        long on = run_once(a, 1, r % 2, 1.0);
        if (placed)
            CHECK(on == TASKS, "%s run %d%s: %ld of %d tasks on their data's node",
                  mode ? mode : "ilan", r, r % 2 ? " (the others asleep)" : "", on, TASKS);
        long counted = mem_count("taskloop_data_on_node") - before;
        CHECK(counted == (placed ? on : 0), "run %d: counted %ld on their data's node, saw %ld", r,
              counted, on);
        CHECK(mem_count("taskloop_data_tasks") - tasks == (placed ? TASKS : 0),
              "run %d: %lld tasks counted", r, mem_count("taskloop_data_tasks") - tasks);
    }
    /* The hint was for one taskloop each: an unregistered one counts nothing. */
    long runs = mem_count("taskloop_data_runs");
    CHECK(runs == (placed ? RUNS : 0), "%ld taskloops counted", runs);
    run_once(a, 0, 0, 1.0);
    CHECK(mem_count("taskloop_data_runs") == runs, "an unregistered taskloop was counted");
    for (size_t i = 0; i < N; i++)
        CHECK(a[i] == (double)(RUNS + 1), "element %zu: %g", i, a[i]);
    mem_free(a, SIZE);
    return 0;
}
