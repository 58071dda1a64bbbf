// task_group.c - taskgroup waits for all descendant tasks (grandchildren
// too), nested taskgroups, taskgroups in every thread at once, and
// `cancel taskgroup` with OMP_CANCELLATION=true: tasks created in the group
// after the cancellation never run their bodies, code after the cancel in
// the cancelling task does not run, other groups are unaffected and the
// program goes on normally.  task_group_nocancel.c runs the same program
// without OMP_CANCELLATION, where nothing is cancelled.
// ilan-test: env=OMP_CANCELLATION=true tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"

static int on; /* cancellation enabled */

static void spin(int n)
{
    for (volatile int i = 0; i < n; i++) {}
}

/* A task tree of depth d: every node increments *count, after a little work. */
static void tree(int d, int *count)
{
    if (d > 0) {
        for (int k = 0; k < 3; k++) {
#pragma omp task firstprivate(d)
            tree(d - 1, count);
        }
    }
    spin(200);
    __atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
}

/* 1 + 3 + 9 + 27 + 81 nodes for depth 4 */
#define TREE4 121

static void waits_for_descendants(void)
{
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 30; r++) {
        int count = 0;
#pragma omp taskgroup
        {
#pragma omp task shared(count)
            tree(4, &count); /* children return without taskwait */
        }
        if (__atomic_load_n(&count, __ATOMIC_ACQUIRE) != TREE4)
            bad++;
    }
    CHECK(bad == 0, "%d taskgroups ended before all descendants finished", bad);
}

static void nested_groups(void)
{
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 30; r++) {
        int outer = 0, inner = 0, after_inner = -1;
#pragma omp taskgroup
        {
#pragma omp task shared(outer)
            tree(3, &outer);
#pragma omp taskgroup
            {
#pragma omp task shared(inner)
                tree(3, &inner);
            }
            /* the inner group is complete; the outer one may not be */
            after_inner = __atomic_load_n(&inner, __ATOMIC_ACQUIRE);
#pragma omp task shared(outer)
            {
#pragma omp taskgroup
                {
#pragma omp task shared(outer)
                    tree(2, &outer);
                }
            }
        }
        if (after_inner != 40 || outer != 40 + 13)
            bad++;
    }
    CHECK(bad == 0, "%d nested taskgroups ended early", bad);
}

/* Every thread runs its own taskgroups; tasks may be stolen by any thread. */
static void groups_in_every_thread(void)
{
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    for (int r = 0; r < 10; r++) {
        int count = 0;
#pragma omp taskgroup
        {
            for (int k = 0; k < 3; k++) {
#pragma omp task shared(count)
                tree(2, &count);
            }
        }
        if (__atomic_load_n(&count, __ATOMIC_ACQUIRE) != 3 * 13)
            bad++;
    }
    CHECK(bad == 0, "%d per-thread taskgroups ended early", bad);
}

/* cancel taskgroup.  The cancelling task is undeferred (if(0)), so the
 * cancellation is active when the creator continues: every task it creates
 * afterwards in that group must be discarded. */
static void cancel_group(void)
{
    for (int r = 0; r < 20; r++) {
        int before = 0, after = 0, past_cancel = 0, other = 0, outside = 0;
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskgroup
            {
                for (int i = 0; i < 20; i++) {
#pragma omp task shared(before)
                    {
                        spin(100);
#pragma omp atomic
                        before++;
                    }
                }
#pragma omp task if (0) shared(past_cancel)
                {
#pragma omp cancel taskgroup
#pragma omp atomic
                    past_cancel++;
                }
                for (int i = 0; i < 50; i++) {
#pragma omp task shared(after)
                    {
#pragma omp atomic
                        after++;
                    }
                }
                /* a separate, uncancelled group nested inside */
#pragma omp task shared(other)
                {
#pragma omp taskgroup
                    {
                        for (int i = 0; i < 10; i++) {
#pragma omp task shared(other)
#pragma omp atomic
                            other++;
                        }
                    }
                }
            }
            /* the program goes on: a new group is not cancelled */
#pragma omp taskgroup
            {
                for (int i = 0; i < 10; i++) {
#pragma omp task shared(outside)
#pragma omp atomic
                    outside++;
                }
            }
        }
        CHECK(before >= 0 && before <= 20, "before = %d", before);
        CHECK(outside == 10, "a taskgroup after a cancelled one ran %d of 10 tasks", outside);
        if (on) {
            CHECK(past_cancel == 0, "code after `cancel taskgroup` ran");
            CHECK(after == 0, "%d tasks created after the cancellation ran", after);
            /* the task that would open the inner group was created after the
               cancellation: it must not run either */
            CHECK(other == 0, "other = %d", other);
        } else {
            CHECK(past_cancel == 1, "cancel taskgroup was not a no-op without OMP_CANCELLATION");
            CHECK(before == 20 && after == 50 && other == 10,
                  "without cancellation: before %d/20 after %d/50 other %d/10", before, after,
                  other);
        }
    }
}

/* Tasks of a cancelled group that are running leave at a cancellation
 * point; the rest of the group is discarded; a deferred task cancels. */
static void cancel_from_deferred(void)
{
    int started = 0, finished = 0, total = 200;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup
    {
        for (int i = 0; i < total; i++) {
#pragma omp task firstprivate(i) shared(started, finished)
            {
#pragma omp atomic
                started++;
                if (i == 3) {
#pragma omp cancel taskgroup
                }
                for (int k = 0; k < 20; k++) {
                    spin(50);
#pragma omp cancellation point taskgroup
                }
#pragma omp atomic
                finished++;
            }
        }
    }
    CHECK(started >= 0 && started <= total && finished <= started,
          "started %d finished %d", started, finished);
    if (!on)
        CHECK(started == total && finished == total, "without cancellation %d/%d finished",
              finished, total);
    /* With cancellation, how many ran depends on timing (task 3 may even
       be the last to start); nothing more to check than termination. */
}

int main(void)
{
    const char *e = getenv("OMP_CANCELLATION");
    on = e && (!strcmp(e, "true") || !strcmp(e, "TRUE") || !strcmp(e, "True"));
    CHECK(omp_get_cancellation() == on, "omp_get_cancellation() = %d, want %d",
          omp_get_cancellation(), on);
    waits_for_descendants();
    nested_groups();
    groups_in_every_thread();
    cancel_group();
    cancel_from_deferred();
    /* after the cancellations, tasks still work */
    waits_for_descendants();
    return 0;
}
