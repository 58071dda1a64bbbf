/* taskloop.h — the taskloop construct, for both iteration types. */
#ifndef ILAN_CONSTRUCT_TASKLOOP_H
#define ILAN_CONSTRUCT_TASKLOOP_H

#include "sched/iter.h"
#include "sched/taskloop_split.h"

/* Bookkeeping of one taskloop, as the encountering thread sees it. */
struct taskloop {
    void (*fn)(void *);                /* gcc's outlined task body */
    void *data;                        /* argument block to copy into every task */
    void (*cpyfn)(void *, void *);     /* copy constructor of the block, or NULL (memcpy) */
    long arg_size;                     /* bytes of the block */
    long arg_align;                    /* its alignment */
    unsigned flags;                    /* GOMP_TASK_FLAG_* */
    int priority;                      /* priority clause (clamped by task_create) */
    iter_ull start;                    /* first iteration value (bits) */
    iter_ull step;                     /* step (bits; negative when counting down) */
    struct taskloop_split split;       /* how the iterations are cut */
};

/* Runs the taskloop tl of n logical iterations (n may be 0) on the
 * calling thread's team: GOMP_taskloop and GOMP_taskloop_ull, once they
 * have counted the iterations. num_tasks is the clause's value (the
 * grainsize with TASK_FLAG_GRAINSIZE), 0 when absent. */
void taskloop_run(struct taskloop *tl, iter_ull n, unsigned long num_tasks);

#endif
