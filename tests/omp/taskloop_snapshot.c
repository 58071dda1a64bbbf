/* taskloop_snapshot.c — every task of a taskloop gets its firstprivate copies as they were at the encounter, even when another task writes the variable back (lastprivate) or through a pointer first. */
// ilan-test: threads=1,2,3,8 tsan modes=ilan,numa,ws
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

static int watched;          /* firstprivate + lastprivate, written back by the last task */
static int seen_wrong;       /* tasks that saw a changed copy */
static long long shared_sum; /* iterations run */

/* nogroup: the creator does not wait, so the last task may finish (and
 * write `watched` back) while the creator is still making copies. */
static void lastprivate_writeback(int tasks)
{
    #pragma omp taskloop firstprivate(watched) lastprivate(watched) nogroup num_tasks(tasks)
    for (int i = 0; i < 4096; i++) {
        if (watched != 1000) {
            #pragma omp atomic
            seen_wrong++;
        }
        #pragma omp atomic
        shared_sum++;
        if (i == 4095)
            watched = 4242;
    }
    #pragma omp taskwait
}

/* A task writes the original through a pointer; later tasks' copies must
 * still hold the value at the encounter. */
static void pointer_write(int tasks)
{
    int original = 7;
    int *alias = &original;
    #pragma omp taskloop firstprivate(original) shared(alias) num_tasks(tasks)
    for (int i = 0; i < 1024; i++) {
        if (original != 7) {
            #pragma omp atomic
            seen_wrong++;
        }
        #pragma omp atomic write
        *alias = -1;
    }
}

int main(void)
{
    #pragma omp parallel
    #pragma omp single
    {
        const int counts[] = {1, 2, 7, 64, 1000};
        for (int round = 0; round < 20; round++)
            for (unsigned c = 0; c < sizeof counts / sizeof counts[0]; c++) {
                watched = 1000;
                lastprivate_writeback(counts[c]);
                CHECK(watched == 4242, "lastprivate written back: %d", watched);
                pointer_write(counts[c]);
            }
    }
    CHECK(seen_wrong == 0, "%d tasks saw a copy made after the encounter", seen_wrong);
    CHECK(shared_sum == 20LL * 5 * 4096, "iterations %lld", shared_sum);
    printf("taskloop_snapshot: ok\n");
    return 0;
}
