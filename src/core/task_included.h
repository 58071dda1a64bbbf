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

/* What a new included task of `parent` starts with: its descriptor on the
 * caller's stack, s, made ready to run, with what it inherits from
 * parent (`from`, task_lineage_of). */
static inline __attribute__((always_inline)) void
task_included_init_from(struct ilan_thread *ts, struct task *s, const struct task_lineage *from,
                        void *data, unsigned flags, bool copied)
{
    atomic_store_explicit(&s->up[0], from->parent, memory_order_relaxed);
    atomic_store_explicit(&s->depth, from->depth + 1, memory_order_relaxed);
    unsigned untied = (flags & TASK_FLAG_UNTIED) ? TASK_UNTIED : 0;
    s->state_flags = TASK_ON_STACK | untied | (copied ? TASK_COPIED : 0) |
                     (((flags & TASK_FLAG_FINAL) || from->final) ? TASK_FINAL : 0);
    s->taskgroup = from->taskgroup;
    s->team = ts->team;
    s->forward = NULL;
    s->reduction_data = NULL;
    atomic_store_explicit(&s->children, 0, memory_order_relaxed); /* read by taskwait */
    s->data = data;
    s->tsc = untied ? from->tsc : s;
}

/* task_included_init_from, reading what s inherits from parent itself. */
static inline __attribute__((always_inline)) void
task_included_init(struct ilan_thread *ts, struct task *s, struct task *parent, void *data,
                   unsigned flags, bool copied)
{
    struct task_lineage from = task_lineage_of(parent);
    task_included_init_from(ts, s, &from, data, flags, copied);
}

/* Runs fn(data) as the task s (task_included_init) on the calling thread,
 * which has made s its current task and ICV frame: marks where it starts,
 * then runs the body unless the task is cancelled. */
static inline __attribute__((always_inline)) void
task_included_call(struct ilan_thread *ts, struct task *s, void (*fn)(void *), void *data,
                   unsigned created)
{
    s->start_seq = ++ts->task_starts;
    task_sched_mark(ts, s);
    ILAN_TASK_INCLUDED(created);
    if (!icv_global.cancellation || !task_cancelled(s))
        fn(data);
}

/*
 * Runs fn(data) as an included task of `parent`, the calling thread's
 * current task, with a descriptor on this stack frame: no allocation and
 * no atomic operation unless the task makes something point at it
 * (task_promote). `copied`: data is a copy-constructed block (TASK_COPIED);
 * `created` (0 or 1): the counters count its creation here (GOMP_task).
 */
static inline __attribute__((always_inline)) void
task_run_included_from(struct ilan_thread *ts, const struct task_lineage *from,
                       void (*fn)(void *), void *data, unsigned flags, bool copied,
                       unsigned created)
{
    struct task s;
    task_included_init_from(ts, &s, from, data, flags, copied);
    struct task *prev = ts->task, *icv_frame = ts->icv_frame;
    ts->task = &s;
    ts->icv_frame = &s; /* the ICVs are saved only if the task changes one */
    task_included_call(ts, &s, fn, data, created);
    if (s.state_flags & TASK_ICV_SAVED)
        ts->icv = s.icv;
    ts->icv_frame = icv_frame;
    ts->task = prev && prev->forward ? prev->forward : prev;
    if (s.forward)
        task_complete(s.forward);
}

/* task_run_included_from, with what the task inherits read from parent. */
static inline __attribute__((always_inline)) void
task_run_included(struct ilan_thread *ts, struct task *parent, void (*fn)(void *), void *data,
                  unsigned flags, bool copied, unsigned created)
{
    struct task_lineage from = task_lineage_of(parent);
    task_run_included_from(ts, &from, fn, data, flags, copied, created);
}

/* Included tasks of one construct run back to back on one descriptor
 * (the tasks of an undeferred taskloop, those of a range runner): it is
 * set up once and set up again only after a task that left a trace in it,
 * which saves most of task_run_included's per-task stores. */
struct task_included_batch {
    struct task s;           /* the running task's descriptor, reused */
    struct task *prev;       /* the thread's current task before the batch (NULL: the
                                implicit one, task_of) */
    struct task *icv_frame;  /* the thread's ICV frame before the batch */
    unsigned flags;          /* GOMP_TASK_FLAG_* of every task of the batch */
};

/* Makes b the calling thread's current task, the first of a batch of
 * tasks with `flags` running on blocks the caller passes to
 * task_included_batch_run, none copy-constructed. Only the thread that
 * runs them, until task_included_batch_end; in between, the thread runs
 * nothing but these tasks (what it calls between two of them must not
 * make tasks: they would be children of the last one). */
static inline __attribute__((always_inline)) void
task_included_batch_begin(struct ilan_thread *ts, struct task_included_batch *b, void *data,
                          unsigned flags)
{
    b->prev = ts->task;
    b->icv_frame = ts->icv_frame;
    b->flags = flags;
    task_included_init(ts, &b->s, task_of(ts), data, flags, false);
    ts->task = &b->s;
    ts->icv_frame = &b->s;
}

/* Runs fn(data) as the batch's next task. A task that changed ICVs gets
 * them restored; one that something now points at (children, a
 * dependence: it was moved to the heap, task_promote) is completed there
 * and the next one gets a fresh descriptor, under the parent's heap copy
 * if the parent moved too. */
static inline __attribute__((always_inline)) void
task_included_batch_run(struct ilan_thread *ts, struct task_included_batch *b,
                        void (*fn)(void *), void *data)
{
    b->s.data = data;
    task_included_call(ts, &b->s, fn, data, 0);
    if (b->s.state_flags & TASK_ICV_SAVED) {
        ts->icv = b->s.icv;
        b->s.state_flags &= ~TASK_ICV_SAVED;
    }
    if (__builtin_expect(b->s.forward != NULL, 0)) {
        /* As task_run_included: the thread's current task is no longer the
         * heap copy when that copy completes. */
        struct task *moved = b->s.forward;
        if (b->prev && b->prev->forward)
            b->prev = b->prev->forward;
        task_included_init(ts, &b->s, b->prev ? b->prev : &task_initial, data, b->flags, false);
        ts->task = &b->s;
        task_complete(moved);
    }
}

/* Ends the batch: the thread's current task and ICV frame are those
 * before task_included_batch_begin again. */
static inline __attribute__((always_inline)) void
task_included_batch_end(struct ilan_thread *ts, struct task_included_batch *b)
{
    ts->icv_frame = b->icv_frame;
    ts->task = b->prev && b->prev->forward ? b->prev->forward : b->prev;
}

#endif
