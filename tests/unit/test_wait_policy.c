/* test_wait_policy.c — unit tests of the wait plan: spin, yield or sleep, from the load and the settings. */
#include <string.h>
#include "sched/wait_policy.h"
#include "base/tunables.h"
#include "unit.h"

static const struct wait_settings unset = {-1, 20000, false, 1000, 300};
static const struct wait_settings passive = {0, 0, false, 1000, 300};
static const struct wait_settings active = {1, ILAN_SPIN_ACTIVE, false, 1000, 300};

/* The phases of a wait of `rounds` rounds lasting `ns` each, alone or not,
 * as a string ("s", "y", "z" per round, cut at the first sleep). */
static const char *phases_alone(const struct wait_plan *p, unsigned rounds, uint64_t ns,
                                bool alone)
{
    static char out[64];
    unsigned i = 0;
    for (; i < rounds && i + 1 < sizeof out; i++) {
        enum wait_phase ph = wait_phase_at(p, i, (uint64_t)i * ns, alone);
        out[i] = ph == WAIT_SPIN ? 's' : ph == WAIT_YIELD ? 'y' : 'z';
        if (ph == WAIT_SLEEP) {
            i++;
            break;
        }
    }
    out[i] = 0;
    return out;
}

static const char *phases(const struct wait_plan *p, unsigned rounds, uint64_t ns)
{
    return phases_alone(p, rounds, ns, false);
}

#define CHECK_STR(got, want) CHECK(!strcmp((got), (want)), "got %s, want %s", (got), (want))

static void test_one_thread_per_cpu(void)
{
    /* Spin the configured count without ever yielding (a yield every few
     * tens of microseconds kept two threads the kernel had started on one
     * CPU there for 10-40 ms), then sleep. */
    struct wait_plan p = wait_plan_for(&unset, 2, 2, 2);
    CHECK(p.spins == 20000 && p.yield_ns == 0 && !p.never_sleep && p.yield_every == 0);
    CHECK(wait_phase_at(&p, 0, 0, false) == WAIT_SPIN);
    for (unsigned r = 0; r < 20000; r++)
        CHECK(wait_phase_at(&p, r, 0, false) == WAIT_SPIN, "round %u", r);
    CHECK(wait_phase_at(&p, 20000, 0, false) == WAIT_SLEEP);
}

static void test_idle_threads_spin_too(void)
{
    /* 2 busy threads on 2 CPUs, but 8 threads alive: the 6 idle ones spin
     * until they sleep, so every spinner yields now and then (a nested
     * test program took 33 s instead of 2 without it); the spin and sleep
     * are the plan of a CPU per busy thread. */
    struct wait_plan p = wait_plan_for(&unset, 2, 8, 2);
    CHECK(p.spins == 20000 && p.yield_ns == 0 && !p.never_sleep);
    CHECK(p.yield_every == ILAN_SPIN_YIELD_EVERY, "yield_every %u", p.yield_every);
    CHECK(wait_phase_at(&p, ILAN_SPIN_YIELD_EVERY - 1, 0, false) == WAIT_YIELD);
    CHECK(wait_phase_at(&p, ILAN_SPIN_YIELD_EVERY, 0, false) == WAIT_SPIN);
    CHECK(wait_phase_at(&p, 20000, 0, false) == WAIT_SLEEP);
    /* active: the same yields, and still no sleep */
    struct wait_plan a = wait_plan_for(&active, 2, 8, 2);
    CHECK(a.never_sleep && a.yield_every == ILAN_SPIN_YIELD_EVERY && a.alone_ns == 0);
    /* as many threads as CPUs: no yield; fewer threads than busy ones (a
     * count taken before new workers exist) is read as the busy count */
    CHECK(wait_plan_for(&unset, 2, 2, 2).yield_every == 0);
    CHECK(wait_plan_for(&unset, 1, 2, 2).yield_every == 0);
    struct wait_plan o = wait_plan_for(&unset, 3, 1, 2);
    CHECK(o.spins == 0 && o.yield_ns == 1000);
}

static void test_oversubscribed(void)
{
    /* Yield at once until the wait is yield_ns old, then sleep. */
    struct wait_plan p = wait_plan_for(&unset, 3, 3, 2);
    CHECK(p.spins == 0 && p.yield_ns == 1000);
    CHECK_STR(phases(&p, 20, 100), "yyyyyyyyyyz");
    /* the plan is chosen from the ratio: 64 threads on 2 CPUs the same */
    struct wait_plan q = wait_plan_for(&unset, 64, 64, 2);
    CHECK(q.spins == p.spins && q.yield_ns == p.yield_ns);
    /* any explicit count yields; 0 sleeps at once even oversubscribed */
    struct wait_settings few = {-1, 10, true, 1000};
    struct wait_plan f = wait_plan_for(&few, 64, 64, 2);
    CHECK(f.spins == 0 && f.yield_ns == 1000);
    struct wait_settings none = {-1, 0, true, 1000};
    struct wait_plan z = wait_plan_for(&none, 64, 64, 2);
    CHECK_STR(phases(&z, 4, 100), "z");
    /* a one-CPU machine with two threads is oversubscribed; 0 CPUs counts as one */
    CHECK(wait_plan_for(&unset, 2, 2, 1).yield_ns == 1000);
    CHECK(wait_plan_for(&unset, 2, 2, 0).yield_ns == 1000);
    CHECK(wait_plan_for(&unset, 1, 1, 0).yield_ns == 0);
}

static void test_policies(void)
{
    /* passive sleeps at once, loaded or not */
    CHECK_STR(phases(&(struct wait_plan){0}, 3, 0), "z");
    struct wait_plan p1 = wait_plan_for(&passive, 1, 1, 2), p64 = wait_plan_for(&passive, 64, 64, 2);
    CHECK_STR(phases(&p1, 3, 10), "z");
    CHECK_STR(phases(&p64, 3, 10), "z");
    /* active never sleeps; oversubscribed it yields every round */
    struct wait_plan a1 = wait_plan_for(&active, 1, 1, 2), a64 = wait_plan_for(&active, 64, 64, 2);
    CHECK(a1.never_sleep && a64.never_sleep);
    CHECK(wait_phase_at(&a1, 5, 1000000000ull, false) == WAIT_SPIN);
    CHECK_STR(phases(&a64, 5, 1000000000ull), "yyyyy");
    /* an explicit count overrides passive; active with a count spins it out */
    struct wait_settings pc = {0, 3000, true, 1000}, ac = {1, 3000, true, 1000};
    CHECK(wait_plan_for(&pc, 1, 1, 2).spins == 3000);
    CHECK(wait_plan_for(&pc, 64, 64, 2).spins == 0 && wait_plan_for(&pc, 64, 64, 2).yield_ns == 1000);
    struct wait_plan ap = wait_plan_for(&ac, 64, 64, 2);
    CHECK(ap.spins == 3000 && !ap.never_sleep);
    /* spinning oversubscribed, it yields now and then; with a CPU per
     * thread (active or not) it never does */
    CHECK(wait_phase_at(&ap, ILAN_SPIN_YIELD_EVERY - 1, 0, false) == WAIT_YIELD);
    CHECK(wait_phase_at(&ap, ILAN_SPIN_YIELD_EVERY, 0, false) == WAIT_SPIN);
    CHECK(wait_plan_for(&ac, 2, 2, 2).yield_every == 0 && a1.yield_every == 0);
    CHECK(wait_phase_at(&ap, 3000, 0, false) == WAIT_SLEEP);
}

static void test_alone(void)
{
    /* Oversubscribed and alone: spin until alone_ns (300), then yield
     * until yield_ns (1000), then sleep; not alone: yield at once. */
    struct wait_plan p = wait_plan_for(&unset, 3, 3, 2);
    CHECK(p.alone_ns == 300);
    CHECK_STR(phases_alone(&p, 20, 100, true), "sssyyyyyyyz");
    CHECK_STR(phases_alone(&p, 20, 100, false), "yyyyyyyyyyz");
    /* a CPU per thread: the spin phase is the plan's own, alone or not */
    struct wait_plan q = wait_plan_for(&unset, 2, 2, 2);
    CHECK(q.alone_ns == 0);
    CHECK(wait_phase_at(&q, 20000, 0, true) == WAIT_SLEEP);
    CHECK(wait_phase_at(&q, ILAN_SPIN_YIELD_EVERY - 1, 0, true) == WAIT_SPIN);
    /* passive and GOMP_SPINCOUNT=0 sleep at once even alone */
    CHECK_STR(phases_alone(&(struct wait_plan){0}, 3, 0, true), "z");
    struct wait_plan pp = wait_plan_for(&passive, 64, 64, 2);
    CHECK_STR(phases_alone(&pp, 3, 10, true), "z");
    struct wait_settings none = {-1, 0, true, 1000, 300};
    struct wait_plan z = wait_plan_for(&none, 64, 64, 2);
    CHECK_STR(phases_alone(&z, 3, 10, true), "z");
    /* active, oversubscribed: spins alone, then yields for ever */
    struct wait_plan a = wait_plan_for(&active, 64, 64, 2);
    CHECK_STR(phases_alone(&a, 8, 100, true), "sssyyyyy");
    CHECK(wait_phase_at(&a, 100, 1000000000ull, true) == WAIT_YIELD);
}

static void test_yield_watch(void)
{
    const uint64_t late = ILAN_YIELD_LATE_NS, hold = ILAN_YIELD_HOLD_NS;
    struct yield_watch w = {0, 0};
    /* A prompt yield holds nothing off, other load or not. */
    CHECK(!yield_watch_note(&w, late / 10, true, 1000));
    CHECK(!yield_watch_late(&w, 1000));
    /* A late one to the team's own threads neither. */
    CHECK(!yield_watch_note(&w, 100 * late, false, 2000));
    CHECK(!yield_watch_late(&w, 2000));
    /* A late one beside other load holds yields off for ILAN_YIELD_HOLD_NS
     * from its return. */
    CHECK(yield_watch_note(&w, late, true, 5000));
    CHECK(yield_watch_late(&w, 5000 + hold - 1));
    CHECK(!yield_watch_late(&w, 5000 + hold));
    /* Such late ones in a row double the hold, up to the most. */
    CHECK(yield_watch_note(&w, 2 * late, true, 10 * hold));
    CHECK(w.late_until == 10 * hold + 2 * hold);
    for (int i = 0; i < 40; i++)
        CHECK(yield_watch_note(&w, late, true, 1000 * hold));
    CHECK(w.late_until == 1000 * hold + ILAN_YIELD_HOLD_MAX_NS);
    CHECK(w.hold_ns == ILAN_YIELD_HOLD_MAX_NS);
    /* One that was not starts the hold again from the least. */
    CHECK(!yield_watch_note(&w, late - 1, true, 2000 * hold));
    CHECK(yield_watch_note(&w, late, true, 3000 * hold));
    CHECK(w.late_until == 3000 * hold + hold);
    /* While late, a yield becomes a sleep, except under the active policy;
     * spins and sleeps stay what they were. */
    struct wait_plan over = wait_plan_for(&unset, 64, 64, 2);
    CHECK(wait_phase_late(&over, WAIT_YIELD) == WAIT_SLEEP);
    CHECK(wait_phase_late(&over, WAIT_SPIN) == WAIT_SPIN);
    CHECK(wait_phase_late(&over, WAIT_SLEEP) == WAIT_SLEEP);
    struct wait_plan a = wait_plan_for(&active, 64, 64, 2);
    CHECK(wait_phase_late(&a, WAIT_YIELD) == WAIT_YIELD);
}

static void test_load_shows_outside(void)
{
    /* A window of 100 ms on 2 CPUs: the machine busy 200 ms, the process
     * 150 of them: others used half a CPU. */
    CHECK(load_shows_outside(200000000, 150000000, 100000000));
    CHECK(load_shows_outside(200000000, 100000000, 100000000));
    CHECK(!load_shows_outside(200000000, 160000000, 100000000));
    /* The process alone, idle or not (the machine's ticks may count less
     * than the process's clock). */
    CHECK(!load_shows_outside(200000000, 200000000, 100000000));
    CHECK(!load_shows_outside(100000000, 110000000, 100000000));
    CHECK(!load_shows_outside(0, 0, 100000000));
}

int main(void)
{
    test_one_thread_per_cpu();
    test_idle_threads_spin_too();
    test_oversubscribed();
    test_policies();
    test_alone();
    test_yield_watch();
    test_load_shows_outside();
    return unit_report();
}
