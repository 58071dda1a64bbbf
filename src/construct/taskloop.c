/* taskloop.c — the taskloop construct: the loop cut into tasks (sched/taskloop_split.h), every task's data copied at the encounter, then queued (ws mode, or ILAN's distribution) or run at once. */
#include "construct/taskloop.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/fatal.h"
#include "core/task.h"
#include "core/task_included.h"
#include "core/task_mode.h"
#include "construct/task_reduction.h"
#include "core/team.h"
#include "core/thread.h"
#include "instr/counters.h"
#include "sched/iter.h"
#include "sched/taskloop_split.h"

/*
 * gcc's argument block for a taskloop begins with the task's first and
 * end iteration values (two longs or two unsigned long longs, 8 bytes each
 * on LP64); with the reduction clause the third word points to the
 * reduction data (construct/task_reduction.c), which the taskloop's implicit
 * taskgroup registers. gcc's code reads data[2] of that array after the
 * call: 0 tells it nothing was registered (no iterations, or cancelled).
 */
struct taskloop_head {
    iter_ull first;        /* first iteration value of the task (bits of a long or an ull) */
    iter_ull end;          /* its end value (exclusive, in the loop's direction) */
    uintptr_t *reductions; /* with TASK_FLAG_REDUCTION: gcc's reduction data */
};

/* Whether the taskloop's iterations cannot start at all: the enclosing
 * region, or (with nogroup) the enclosing taskgroup, was cancelled. */
static bool taskloop_cancelled(struct ilan_thread *ts, unsigned flags)
{
    if (!icv_global.cancellation)
        return false;
    if (ts->team && atomic_load_explicit(&ts->team->barrier.cancelled, memory_order_acquire))
        return true;
    return (flags & TASK_FLAG_NOGROUP) && task_taskgroup_cancelled();
}

/* Creates task i with its range written into its argument block. */
static struct task *taskloop_make(const struct taskloop *tl, iter_ull i)
{
    struct task *t = task_create(tl->fn, tl->data, tl->cpyfn, tl->arg_size, tl->arg_align,
                                 tl->flags, tl->priority);
    struct taskloop_head *h = task_args(t);
    taskloop_task_bounds(&tl->split, tl->start, tl->step, i, &h->first, &h->end);
    return t;
}

/* taskloop_make for the mode's callback. */
static struct task *taskloop_make_cb(void *tl, iter_ull i)
{
    return taskloop_make(tl, i);
}

/* Makes every task of the loop into a new array: all the copies of the data
 * environment are made at the encounter, before any task may start (a task
 * that ran early could write back a lastprivate variable that a later
 * copy would then read). The caller frees the array. (Only the ws mode
 * queues them this way; see also taskloop_run_undeferred.) */
static struct task **taskloop_make_all(const struct taskloop *tl)
{
    iter_ull n = tl->split.ntasks;
    struct task **tasks = malloc(n * sizeof *tasks);
    if (!tasks)
        ilan_fatal("out of memory for %llu taskloop tasks", n);
    for (iter_ull i = 0; i < n; i++)
        tasks[i] = taskloop_make(tl, i);
    return tasks;
}

/* taskloop_run_undeferred without a copy function: each task runs on the
 * encounter's block itself, its bounds written over the block's first two
 * words, as libgomp runs such tasks. gcc gives a taskloop no copy
 * function only when its block holds scalars and pointers, and its task
 * body loads those into locals before any use (even a firstprivate whose
 * address the body takes), so no task changes what the next one reads
 * (test taskloop_abi). No block to allocate or copy: 2,000 tasks of a
 * 2-ns body on one thread took 25 us per taskloop with a block each, 20.5
 * in place; libgomp 17.4. The tasks share one descriptor too
 * (task_included_batch): the overhead program's num_tasks(2000) at one
 * thread went from 7.6-7.8 to 4.4-4.9 us per taskloop (libgomp 6.5-6.8). */
static __attribute__((noinline)) void taskloop_run_undeferred_in_place(const struct taskloop *tl)
{
    struct ilan_thread *ts = thread_self();
    struct taskloop_head *h = tl->data;
    struct task_included_batch b;
    task_included_batch_begin(ts, &b, tl->data, tl->flags);
    iter_ull first = tl->start;
    for (iter_ull i = 0; i < tl->split.ntasks; i++) {
        iter_ull end = taskloop_task_end(&tl->split, tl->step, i, first);
        h->first = first;
        h->end = end;
        task_included_batch_run(ts, &b, tl->fn, tl->data);
        first = end;
    }
    task_included_batch_end(ts, &b);
}

/* Undeferred (if(0), final, no team, or a team of one, which has nobody
 * to share with): the tasks run in order on this thread, as included tasks,
 * with no descriptor to allocate or count. With a copy function every
 * block is built side by side first (all copies at the encounter, as for
 * deferred tasks: a copy function may read what an earlier task changed). */
static void taskloop_run_undeferred(const struct taskloop *tl)
{
    if (!tl->cpyfn && tl->arg_size >= (long)(2 * sizeof(iter_ull))) {
        taskloop_run_undeferred_in_place(tl);
        return;
    }
    iter_ull n = tl->split.ntasks;
    size_t align = tl->arg_align > 1 ? (size_t)tl->arg_align : 1;
    size_t stride = ((size_t)tl->arg_size + align - 1) / align * align;
    if (stride < sizeof(struct taskloop_head))
        stride = sizeof(struct taskloop_head);
    if (n > SIZE_MAX / stride - 1)
        ilan_fatal("out of memory for %llu taskloop tasks", n);
    char *raw = malloc(n * stride + align);
    if (!raw)
        ilan_fatal("out of memory for %llu taskloop tasks", n);
    char *blocks = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    for (iter_ull i = 0; i < n; i++) {
        void *b = blocks + i * stride;
        if (tl->cpyfn)
            tl->cpyfn(b, tl->data);
        else
            memcpy(b, tl->data, (size_t)tl->arg_size);
        struct taskloop_head *h = b;
        taskloop_task_bounds(&tl->split, tl->start, tl->step, i, &h->first, &h->end);
    }
    for (iter_ull i = 0; i < n; i++)
        task_run_inline(tl->fn, blocks + i * stride, tl->flags, tl->cpyfn != NULL);
    free(raw);
}

/* Deferred, ws mode: every task goes to the creator's deque (idle threads
 * steal them), never throttled. */
static void taskloop_queue(const struct taskloop *tl, struct ilan_thread *ts)
{
    struct task **tasks = taskloop_make_all(tl);
    for (iter_ull i = 0; i < tl->split.ntasks; i++)
        task_enqueue_on(tasks[i], ts->team_id);
    free(tasks);
}

void taskloop_run(struct taskloop *tl, iter_ull n, unsigned long num_tasks)
{
    struct ilan_thread *ts = thread_self();
    /* The array registered for this taskloop (ilan_taskloop_data) is this
     * one's only, whichever path it takes: the ILAN modes place its tasks
     * by it, ws and undeferred taskloops ignore it. */
    const void *data_array = ts->taskloop_data;
    size_t data_size = ts->taskloop_data_size;
    ts->taskloop_data = NULL;
    unsigned flags = tl->flags;
    bool group = !(flags & TASK_FLAG_NOGROUP);
    struct taskloop_head *head = tl->data;
    if (n == 0 || taskloop_cancelled(ts, flags)) {
        if (group && (flags & TASK_FLAG_REDUCTION))
            head->reductions[2] = 0; /* not registered: gcc's code skips combining */
        return;
    }
    bool grainsize = flags & TASK_FLAG_GRAINSIZE, strict = flags & TASK_FLAG_STRICT;
    bool deferred = (flags & TASK_FLAG_IF) && ts->team != NULL && ts->team->nthreads > 1 &&
                    !task_in_final();
    /* A taskloop mode (ILAN's: modes ilan and numa) cuts the loop itself,
     * for the configuration it picks; without one (ws), cut it here. A
     * taskloop with a priority goes the ws way in every mode: its tasks
     * then wait in the team's priority queue with every other prioritized
     * task, so that any thread starts the most urgent first (a mode's
     * per-group queues could order only within each group). gcc passes a
     * taskloop's priority (0 without the clause) and, unlike GOMP_task's,
     * no TASK_FLAG_PRIORITY: the value alone decides. */
    bool prioritized = task_priority_clamp(tl->priority) > 0;
    const struct task_mode_ops *mode = deferred && !prioritized ? task_mode : NULL;
    struct instr_mark im = ILAN_TASKLOOP_BEGIN(tl->fn);
    if (!mode)
        tl->split = taskloop_split_compute(n, grainsize, strict, num_tasks,
                                           ts->team ? ts->team->nthreads : 1);
    struct taskgroup g;
    if (group) {
        task_taskgroup_start(&g);
        if (flags & TASK_FLAG_REDUCTION)
            treduce_taskgroup_register(head->reductions);
    }
    struct taskloop_exec *exec = NULL;
    if (!deferred)
        taskloop_run_undeferred(tl);
    else if (mode) {
        struct taskloop_body body = {tl->fn,    tl->data, tl->cpyfn, tl->arg_size,
                                     tl->arg_align, flags, tl->start, tl->step,
                                     data_array,    data_size};
        exec = mode->taskloop(ts, &body, n, grainsize, strict, num_tasks, group, &tl->split,
                              taskloop_make_cb, tl);
    }
    else
        taskloop_queue(tl, ts);
    if (group) {
        task_taskgroup_end();
        if (mode)
            mode->taskloop_end(exec);
    }
    ILAN_TASKLOOP_END(im, tl->fn, deferred, mode != NULL, tl->split.ntasks);
}

