// task_tsc.c - the task scheduling constraint: every task that starts on a
// thread while that thread is inside a tied task (suspended in it at a
// taskwait, a taskgroup end or a taskyield) must descend from it; an
// untied task binds nothing, the tied tasks below it still do. Each task
// records its parent; each thread keeps the stack of the tasks it is
// inside (threadprivate: tied tasks, and untied ones in ilan, never move),
// and every start is checked against the innermost tied task of that stack.
// The tree is irregular (a hash decides each node's fan-out) and mixes
// taskwait, taskgroup, taskyield, taskloops and untied tasks so that
// waiting threads steal from each other.
// ilan-test: threads=1,2,3,8 tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"
#include <stdint.h>

#ifdef __SANITIZE_THREAD__
#define MAX_TASKS 20000
#else
#define MAX_TASKS 400000
#endif
#define MAX_STACK 4096

static int parent_of[MAX_TASKS]; /* task id -> its parent's id (0: the implicit task) */
static unsigned char untied_task[MAX_TASKS]; /* 1 if the task is untied */
static int next_id = 1;                       /* ids handed out (atomic) */
static long violations, starts;               /* checked starts, and bad ones */

static int stack[MAX_STACK]; /* ids of the tasks this thread is inside, innermost last */
static int depth;
#pragma omp threadprivate(stack, depth)

static int descends(int id, int ancestor)
{
    for (int p = parent_of[id]; p; p = parent_of[p])
        if (p == ancestor)
            return 1;
    return 0;
}

/* The task `id` starts on this thread: check it, then enter it. */
static void enter(int id)
{
    __atomic_fetch_add(&starts, 1, __ATOMIC_RELAXED);
    for (int i = depth - 1; i >= 0; i--)
        if (!untied_task[stack[i]]) {
            if (stack[i] != parent_of[id] && !descends(id, stack[i]))
                __atomic_fetch_add(&violations, 1, __ATOMIC_RELAXED);
            break;
        }
    CHECK(depth < MAX_STACK, "task stack overflow");
    stack[depth++] = id;
}

static void leave(int id)
{
    CHECK(depth > 0 && stack[depth - 1] == id, "task %d left out of order", id);
    depth--;
}

static int new_id(int parent, int untied)
{
    int id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    if (id >= MAX_TASKS)
        return 0;
    parent_of[id] = parent;
    untied_task[id] = (unsigned char)untied;
    return id;
}

static void node(int id, uint64_t state, int level);

/* Creates the children of task `id` (tied or untied by the hash). */
static void spawn(int id, uint64_t state, int level, int k)
{
    uint64_t c = test_mix(state + (uint64_t)k);
    int untied = (c & 15) == 0;
    int child = new_id(id, untied);
    if (!child)
        return;
    if (untied) {
#pragma omp task untied firstprivate(child, c, level)
        node(child, c, level + 1);
    } else {
#pragma omp task firstprivate(child, c, level)
        node(child, c, level + 1);
    }
}

static void node(int id, uint64_t state, int level)
{
    enter(id);
    uint64_t h = test_mix(state);
    int fan = level < 3 ? 6 : (h % 8 == 0 ? 5 : h % 4 == 0 ? 2 : 0);
    switch ((h >> 8) % 4) {
    case 0: /* taskwait */
        for (int k = 0; k < fan; k++)
            spawn(id, h, level, k);
#pragma omp taskwait
        break;
    case 1: /* taskgroup: every descendant waited for */
#pragma omp taskgroup
        {
            for (int k = 0; k < fan; k++)
                spawn(id, h, level, k);
        }
        break;
    case 2: /* a taskloop whose tasks are the children (ILAN launches it as
             * ranges, offered to single threads or queued as runners) */
#pragma omp taskloop num_tasks(fan)
        for (int k = 0; k < fan; k++) {
            uint64_t c = test_mix(h + (uint64_t)k);
            int child = new_id(id, 0);
            if (child)
                node(child, c, level + 1);
        }
        break;
    default: /* yield between creations, then wait */
        for (int k = 0; k < fan; k++) {
            spawn(id, h, level, k);
#pragma omp taskyield
        }
#pragma omp taskwait
        break;
    }
    leave(id);
}

int main(void)
{
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 8; r++) {
        int id = new_id(0, 0);
        if (id) {
#pragma omp task firstprivate(id, r)
            node(id, test_mix((uint64_t)r + 99), 0);
        }
    }
    int made = next_id - 1;
    CHECK(made > 1000, "only %d tasks were made", made);
    CHECK(starts == (made < MAX_TASKS ? made : MAX_TASKS - 1), "%ld starts for %d tasks", starts,
          made);
    CHECK(violations == 0, "%ld of %ld task starts broke the scheduling constraint", violations,
          starts);
    printf("%ld task starts checked\n", starts);
    return 0;
}
