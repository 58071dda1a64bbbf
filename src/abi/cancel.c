/* cancel.c — the cancel construct and cancellation points. */
#include "abi/export.h"
#include "base/fatal.h"
#include "core/task.h"
#include "core/team.h"

/* gcc's `which` argument. */
enum cancel_kind {
    CANCEL_PARALLEL = 1,
    CANCEL_LOOP = 2,
    CANCEL_SECTIONS = 4,
    CANCEL_TASKGROUP = 8,
};

/*
 * Where a cancellation is recorded: a parallel region in its barrier (which
 * then releases every cancellable wait); a loop or sections construct in its
 * work-share slot, so that only the threads of that very construct see it
 * (a thread still in an earlier nowait loop does not); a loop without a slot
 * (an inlined schedule(static) loop) in the barrier that ends it.
 */
static bool cancel_requested(struct ilan_thread *ts, int which)
{
    struct team *t = ts->team;
    if (which == CANCEL_PARALLEL)
        return atomic_load_explicit(&t->barrier.cancelled, memory_order_acquire);
    if (ts->ws)
        return ws_loop_is_cancelled(&ts->ws->loop);
    return which == CANCEL_LOOP &&
           atomic_load_explicit(&t->barrier.loop_cancelled, memory_order_acquire);
}

ILAN_EXPORT _Bool GOMP_cancellation_point(int which)
{
    if (!icv_global.cancellation)
        return false;
    if (which == CANCEL_TASKGROUP)
        return task_taskgroup_cancelled();
    struct ilan_thread *ts = thread_self();
    return ts->team && cancel_requested(ts, which);
}

ILAN_EXPORT _Bool GOMP_cancel(int which, _Bool do_cancel)
{
    if (!icv_global.cancellation)
        return false;
    if (!do_cancel)
        return GOMP_cancellation_point(which);
    if (which == CANCEL_TASKGROUP) {
        /* The innermost taskgroup of the encountering task: its tasks that
         * have not started are discarded (task_execute). */
        task_cancel_taskgroup();
        return true;
    }
    struct ilan_thread *ts = thread_self();
    struct team *t = ts->team;
    if (!t)
        return true; /* an orphaned cancel binds to the implicit region of one thread */
    switch (which) {
    case CANCEL_PARALLEL:
        barrier_cancel(&t->barrier);
        break;
    case CANCEL_LOOP:
    case CANCEL_SECTIONS:
        if (ts->ws)
            ws_loop_cancel(&ts->ws->loop);
        else
            atomic_store_explicit(&t->barrier.loop_cancelled, true, memory_order_release);
        break;
    default:
        ilan_fatal("GOMP_cancel: unknown construct kind %d", which);
    }
    return true;
}
