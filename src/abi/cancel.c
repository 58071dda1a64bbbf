/* cancel.c — the cancel construct and cancellation points. */
#include "abi/export.h"
#include "core/fatal.h"
#include "core/team.h"

/* gcc's `which` argument. */
enum cancel_kind {
    CANCEL_PARALLEL = 1,
    CANCEL_LOOP = 2,
    CANCEL_SECTIONS = 4,
    CANCEL_TASKGROUP = 8,
};

/* Whether the innermost construct of the given kind has been cancelled. */
static bool cancel_requested(struct team *t, int which)
{
    switch (which) {
    case CANCEL_PARALLEL:
        return atomic_load_explicit(&t->barrier.cancelled, memory_order_acquire);
    case CANCEL_LOOP:
        return atomic_load_explicit(&t->cancel_flags, memory_order_acquire) & TEAM_CANCEL_LOOP;
    case CANCEL_SECTIONS:
        return atomic_load_explicit(&t->cancel_flags, memory_order_acquire) & TEAM_CANCEL_SECTIONS;
    default:
        return false;
    }
}

ILAN_EXPORT _Bool GOMP_cancellation_point(int which)
{
    if (!icv_global.cancellation)
        return false;
    if (which == CANCEL_TASKGROUP)
        return false; /* no task can exist without GOMP_task, which stops the program */
    struct team *t = thread_self()->team;
    return t && cancel_requested(t, which);
}

ILAN_EXPORT _Bool GOMP_cancel(int which, _Bool do_cancel)
{
    if (!icv_global.cancellation)
        return false;
    if (!do_cancel)
        return GOMP_cancellation_point(which);
    if (which == CANCEL_TASKGROUP)
        ilan_unsupported("cancel taskgroup (GOMP_cancel)");
    struct team *t = thread_self()->team;
    if (!t)
        return true; /* an orphaned cancel binds to the implicit region of one thread */
    switch (which) {
    case CANCEL_PARALLEL:
        barrier_cancel(&t->barrier);
        break;
    case CANCEL_LOOP:
        atomic_fetch_or_explicit(&t->cancel_flags, TEAM_CANCEL_LOOP, memory_order_acq_rel);
        break;
    case CANCEL_SECTIONS:
        atomic_fetch_or_explicit(&t->cancel_flags, TEAM_CANCEL_SECTIONS, memory_order_acq_rel);
        break;
    default:
        ilan_fatal("GOMP_cancel: unknown construct kind %d", which);
    }
    return true;
}
