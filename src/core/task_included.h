/* task_included.h — running a function as an included task: a descriptor on the caller's stack, no allocation, no atomic operation. */
#ifndef ILAN_CORE_TASK_INCLUDED_H
#define ILAN_CORE_TASK_INCLUDED_H

#include <stdbool.h>
#include "config/icv.h"
#include "core/task_desc.h"
#include "core/task_exec.h"
#include "core/task_queue.h"
#include "core/thread.h"
#include "instr/counters.h"

/*
 * Runs fn(data) as an included task of `parent`, the calling thread's
 * current task, with a descriptor on this stack frame: no allocation and
 * no atomic operation unless the task makes something point at it
 * (task_promote). `copied`: data is a copy-constructed block (TASK_COPIED);
 * `created` (0 or 1): the counters count its creation here (GOMP_task).
 */
static inline __attribute__((always_inline)) void
task_run_included(struct ilan_thread *ts, struct task *parent, void (*fn)(void *), void *data,
                  unsigned flags, bool copied, unsigned created)
{
    struct task s;
    atomic_store_explicit(&s.up[0], parent, memory_order_relaxed);
    atomic_store_explicit(&s.depth, atomic_load_explicit(&parent->depth, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    unsigned untied = (flags & TASK_FLAG_UNTIED) ? TASK_UNTIED : 0;
    s.state_flags = TASK_ON_STACK | untied | (copied ? TASK_COPIED : 0) |
                    (((flags & TASK_FLAG_FINAL) || (parent->state_flags & TASK_FINAL)) ? TASK_FINAL
                                                                                       : 0);
    s.taskgroup = parent->taskgroup;
    s.team = ts->team;
    s.forward = NULL;
    s.reduction_data = NULL;
    atomic_store_explicit(&s.children, 0, memory_order_relaxed); /* read by taskwait */
    s.data = data;
    s.tsc = untied ? parent->tsc : &s;
    s.start_seq = ++ts->task_starts;
    struct task *prev = ts->task, *icv_frame = ts->icv_frame;
    ts->task = &s;
    ts->icv_frame = &s; /* the ICVs are saved only if the task changes one */
    task_sched_mark(ts, &s);
    ILAN_TASK_INCLUDED(created);
    if (!icv_global.cancellation || !task_cancelled(&s))
        fn(data);
    if (s.state_flags & TASK_ICV_SAVED)
        ts->icv = s.icv;
    ts->icv_frame = icv_frame;
    ts->task = prev && prev->forward ? prev->forward : prev;
    if (s.forward)
        task_complete(s.forward);
}

#endif
