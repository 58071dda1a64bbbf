// task_detach.c - detach(event) tasks: the task completes only once its body
// has ended and its event was fulfilled, whether the event is fulfilled by
// another task, by the task itself, by the creator after waiting for other
// work, or by another thread; dependent tasks and taskwait wait for it.
// ilan-test: tsan modes=ilan,numa,ws vary=ILAN_DLB=ws,na-ws,na-rp
#include "check.h"
#include <sched.h>

static void spin(int n)
{
    for (volatile int i = 0; i < n; i++) {}
}

/* Fulfilled by another task: a dependent task (created before the
 * fulfilling one) must not start before omp_fulfill_event. */
static void by_other_task(void)
{
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 100; r++) {
        int x = 0, fulfilled = 0, body = 0;
        omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : x) shared(x, body)
        {
            x = r;
            body = 1;
        }
#pragma omp task depend(in : x) shared(x, fulfilled, bad) firstprivate(r)
        {
            if (!__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE) || x != r)
#pragma omp atomic
                bad++;
        }
#pragma omp task firstprivate(ev) shared(fulfilled)
        {
            spin(200);
            __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
            omp_fulfill_event(ev);
        }
#pragma omp taskwait
        if (!body || !fulfilled)
            bad++;
    }
    CHECK(bad == 0, "fulfilled by another task: %d bad", bad);
}

/* Fulfilled by the detached task itself, inside its body. */
static void by_itself(void)
{
    int count = 0, after = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < 200; i++) {
            omp_event_handle_t ev;
#pragma omp task detach(ev) depend(inout : count) shared(count)
            {
                count++;
                omp_fulfill_event(ev);
            }
        }
#pragma omp task depend(in : count) shared(count, after)
        after = count;
#pragma omp taskwait
    }
    CHECK(count == 200 && after == 200, "self-fulfilled: count %d, seen after %d", count, after);
}

/* The creator waits for other work (taskwait depend and a taskgroup), then
 * fulfills the event itself; a dependent task waits for it all along. */
static void by_creator_after_wait(void)
{
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 100; r++) {
        int x = 0, y = 0, fulfilled = 0, seen = -1;
        omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : x) shared(x)
        x = 1;
#pragma omp task depend(in : x) shared(fulfilled, seen)
        seen = __atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE);
#pragma omp task depend(out : y) shared(y)
        y = 1;
#pragma omp taskwait depend(in : y)
#pragma omp taskgroup
        {
#pragma omp task shared(y)
            y++;
        }
        if (y != 2)
            bad++;
        __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
        omp_fulfill_event(ev);
#pragma omp taskwait
        if (seen != 1 || x != 1)
            bad++;
    }
    CHECK(bad == 0, "fulfilled by the creator after waits: %d bad", bad);
}

/* Many detached tasks, each followed by a dependent task; one task
 * fulfills all events in reverse order. */
#define MANY 64
static void many_reverse(void)
{
    int slot[MANY], fulfilled[MANY], bad = 0;
    omp_event_handle_t evs[MANY];
    memset(slot, 0, sizeof slot);
    memset(fulfilled, 0, sizeof fulfilled);
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < MANY; i++) {
            omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : slot[i]) shared(slot) firstprivate(i)
            slot[i] = i + 1;
            evs[i] = ev;
#pragma omp task depend(in : slot[i]) shared(slot, fulfilled, bad) firstprivate(i)
            if (!__atomic_load_n(&fulfilled[i], __ATOMIC_ACQUIRE) || slot[i] != i + 1)
#pragma omp atomic
                bad++;
        }
#pragma omp task shared(evs, fulfilled)
        for (int i = MANY - 1; i >= 0; i--) {
            __atomic_store_n(&fulfilled[i], 1, __ATOMIC_RELEASE);
            omp_fulfill_event(evs[i]);
        }
    }
    /* end of single and of the region: all complete */
    CHECK(bad == 0, "many detached tasks: %d dependents ran early", bad);
}

/* omp_fulfill_event from a different thread than the creator's, while the
 * creator waits in taskwait. */
static void from_other_thread(void)
{
    int nt = omp_get_max_threads();
    if (nt < 2)
        return;
    for (int r = 0; r < 20; r++) {
        omp_event_handle_t shared_ev;
        int published = 0, fulfilled = 0, seen = -1, body = 0, fulfiller = -1, creator = -1;
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0) {
                omp_event_handle_t ev;
                creator = 0;
#pragma omp task detach(ev) shared(body)
                body = 1;
                shared_ev = ev;
                __atomic_store_n(&published, 1, __ATOMIC_RELEASE);
#pragma omp taskwait
                seen = __atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE);
            } else {
                while (!__atomic_load_n(&published, __ATOMIC_ACQUIRE)) sched_yield();
                fulfiller = omp_get_thread_num();
                __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
                omp_fulfill_event(shared_ev);
            }
        }
        CHECK(fulfiller == 1 && creator == 0, "team of 2 expected");
        CHECK(body == 1 && seen == 1,
              "taskwait returned before another thread fulfilled the event (body %d seen %d)",
              body, seen);
    }
}

int main(void)
{
    by_other_task();
    by_itself();
    by_creator_after_wait();
    many_reverse();
    from_other_thread();
    return 0;
}
