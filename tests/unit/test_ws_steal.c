/* test_ws_steal.c — unit tests of the adaptive engine's thieves (core/ws_steal.c): steals in units of the thief's own pop; looks only at ranges whose has-work bit is set until the last look; locality first, strictly — work in the thief's own group is always taken before any other group's, nearer groups before farther ones, and a busy range of its own group keeps the thief from going elsewhere until it is free. */
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "core/ws_steal.h"
#include "unit.h"

#define T 8

/* 4 groups of 2 threads ({0,1} {2,3} {4,5} {6,7}); group g is nearer to
 * g + 1 than to g + 2 (distance 10 + 10 * |a - b|). */
static const unsigned slot_group[T] = {0, 0, 1, 1, 2, 2, 3, 3};
static int dist[4 * 4];
static struct loop_range ranges[T];
static _Atomic uint64_t has_work[1]; /* the ranges' has-work bits */
static unsigned order[T], seg_end[T], group_of[T];
static struct loop_victims victims = {order, seg_end, 0, 0, group_of};

/* Ranges: thread t owns [t * 100 + 100 - len[t], t * 100 + 100); the
 * bits of the non-empty ones are set. */
static void set_ranges(const iter_ull *len)
{
    atomic_store(&has_work[0], 0);
    for (unsigned t = 0; t < T; t++) {
        atomic_store(&ranges[t].begin, t * 100 + 100 - len[t]);
        atomic_store(&ranges[t].end, t * 100 + 100);
        atomic_store(&ranges[t].lock, 0);
        atomic_store(&ranges[t].mult, 8); /* as the thieves below: the same unit */
        ranges[t].origin = t;
        if (len[t])
            atomic_fetch_or(&has_work[0], 1ull << t);
    }
}

/* Whether range t's has-work bit is set. */
static bool bit(unsigned t)
{
    return atomic_load(&has_work[0]) >> t & 1;
}

/* Whose range [lb, le) came from. */
static unsigned owner_of(iter_ull lb)
{
    return (unsigned)(lb / 100);
}

static void test_order(void)
{
    for (unsigned a = 0; a < 4; a++)
        for (unsigned b = 0; b < 4; b++)
            dist[a * 4 + b] = 10 + 10 * (int)(a > b ? a - b : b - a);
    loop_victims_build(0, T, slot_group, 4, dist, VICTIMS_BY_DISTANCE, &victims);
    for (unsigned long long seed = 1; seed <= 200; seed++) {
        /* Thief 0, its range empty. Its partner 1 has 2 iterations, every
         * other thread 90: the steal is from 1, counted as local. */
        iter_ull len[T] = {0, 2, 90, 90, 90, 90, 90, 90};
        set_ranges(len);
        struct steal_thread st = {.victims = &victims, .rnd = seed};
        iter_ull lb, le;
        CHECK(ws_steal_next(ranges, has_work, 1, &st, 0, &lb, &le), "seed %llu: no work", seed);
        CHECK(owner_of(lb) == 1, "seed %llu: stole from %u with work in its group", seed,
              owner_of(lb));
        CHECK(st.steals_local == 1 && st.steals_remote == 0);
        /* Its group empty: the nearest group (threads 2, 3), even though
         * farther ones have more. */
        iter_ull len2[T] = {0, 0, 3, 0, 90, 90, 90, 90};
        set_ranges(len2);
        struct steal_thread st2 = {.victims = &victims, .rnd = seed};
        CHECK(ws_steal_next(ranges, has_work, 1, &st2, 0, &lb, &le));
        CHECK(owner_of(lb) == 2, "seed %llu: stole from %u, group 1 had work", seed,
              owner_of(lb));
        CHECK(st2.steals_local == 0 && st2.steals_remote == 1);
        /* Everything empty: no work, and the thief stops. */
        iter_ull none[T] = {0};
        set_ranges(none);
        struct steal_thread st3 = {.victims = &victims, .rnd = seed};
        CHECK(!ws_steal_next(ranges, has_work, 1, &st3, 0, &lb, &le));
    }
}

/* A thief in its own thread: its result. */
struct thief {
    struct steal_thread st;
    iter_ull lb, le;
    bool got;
    _Atomic bool done;
};

static void *thief_main(void *arg)
{
    struct thief *t = arg;
    t->got = ws_steal_next(ranges, has_work, 1, &t->st, 0, &t->lb, &t->le);
    atomic_store(&t->done, true);
    return NULL;
}

/* The partner's range has work but is locked (a thief of another group in
 * the middle of a steal): thread 0 waits for it rather than taking the
 * other groups' work, then steals from it. */
static void test_busy_partner(void)
{
    loop_victims_build(0, T, slot_group, 4, dist, VICTIMS_BY_DISTANCE, &victims);
    iter_ull len[T] = {0, 50, 90, 90, 90, 90, 90, 90};
    set_ranges(len);
    atomic_store(&ranges[1].lock, 1);
    struct thief t = {.st = {.victims = &victims, .rnd = 7}};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, thief_main, &t) == 0);
    /* Long enough for a wrong thief to have gone elsewhere (it tries every
     * victim each pass); a right one is still waiting whatever the time. */
    struct timespec ms20 = {0, 20 * 1000 * 1000};
    nanosleep(&ms20, NULL);
    CHECK(!atomic_load(&t.done), "thief did not wait for its own group's busy range");
    for (unsigned v = 2; v < T; v++)
        CHECK(atomic_load(&ranges[v].end) == v * 100 + 100, "range %u stolen from", v);
    atomic_store(&ranges[1].lock, 0);
    pthread_join(th, NULL);
    CHECK(t.got && owner_of(t.lb) == 1, "stole from %u", owner_of(t.lb));
    CHECK(t.st.steals_local == 1 && t.st.steals_remote == 0);
}

/* A thief steals in units of its own pop (chunk times its multiplier):
 * half of a long range, rounded up to that unit, and all of a range
 * shorter than two units, never a piece smaller than what it would pop. */
static void test_steal_unit(void)
{
    loop_victims_build(0, T, slot_group, 4, dist, VICTIMS_BY_DISTANCE, &victims);
    /* c = 2, multiplier 8: a unit of 16 iterations. */
    iter_ull len[T] = {0, 90, 0, 0, 0, 0, 0, 0};
    set_ranges(len);
    struct steal_thread st = {.victims = &victims, .rnd = 3, .mult = 8};
    iter_ull lb, le;
    CHECK(ws_steal_next(ranges, has_work, 2, &st, 0, &lb, &le));
    /* 90 left: half is 45, rounded up to 48; it runs its first unit now
     * and keeps the rest as its own range. */
    CHECK(lb == 152 && le == 168, "first chunk [%llu, %llu)", lb, le);
    CHECK(atomic_load(&ranges[1].end) == 152 && atomic_load(&ranges[0].begin) == 168 &&
          atomic_load(&ranges[0].end) == 200);
    /* 20 left (less than two units): a unit of 16, and the owner keeps 4
     * (the thief's first pop is at most half of what it holds). */
    iter_ull len2[T] = {0, 20, 0, 0, 0, 0, 0, 0};
    set_ranges(len2);
    struct steal_thread st2 = {.victims = &victims, .rnd = 3, .mult = 8};
    CHECK(ws_steal_next(ranges, has_work, 2, &st2, 0, &lb, &le));
    CHECK(atomic_load(&ranges[1].end) == 184 && lb == 184 && le == atomic_load(&ranges[0].begin) &&
          atomic_load(&ranges[0].end) == 200, "took [%llu, %llu)", lb, le);
    /* 10 left (less than a unit): all of it. */
    iter_ull len3[T] = {0, 10, 0, 0, 0, 0, 0, 0};
    set_ranges(len3);
    struct steal_thread st3 = {.victims = &victims, .rnd = 3, .mult = 8};
    CHECK(ws_steal_next(ranges, has_work, 2, &st3, 0, &lb, &le));
    CHECK(atomic_load(&ranges[1].end) == 190 && lb == 190 &&
          le == atomic_load(&ranges[0].begin) && atomic_load(&ranges[0].end) == 200);
    /* The thief pops what it stole with its victim's multiplier (2, learnt
     * on those iterations), not its own 8: a first chunk of 4, and the
     * range it installs tells its own thieves the same. */
    iter_ull len4[T] = {0, 90, 0, 0, 0, 0, 0, 0};
    set_ranges(len4);
    atomic_store(&ranges[1].mult, 2);
    struct steal_thread st4 = {.victims = &victims, .rnd = 3, .mult = 8};
    CHECK(ws_steal_next(ranges, has_work, 2, &st4, 0, &lb, &le));
    CHECK(lb == 152 && le == 156 && st4.mult == 2 && atomic_load(&ranges[0].mult) == 2 &&
              ranges[0].origin == 1,
          "first chunk [%llu, %llu), multiplier %llu", lb, le, st4.mult);
}

/* The has-work bits: a thief looks only at ranges whose bit is set, but
 * reads every range before it gives up; taking a range's last iterations
 * clears its bit (the thief that takes them all, or the owner whose pop
 * takes them), and a range a thief installs has its bit set. */
static void test_has_work_bits(void)
{
    loop_victims_build(0, T, slot_group, 4, dist, VICTIMS_BY_DISTANCE, &victims);
    /* Work in ranges 3 and 6, only 6's bit set: the steal is from 6 even
     * though 3 (a nearer group) has work... */
    iter_ull len[T] = {0, 0, 0, 40, 0, 0, 40, 0};
    set_ranges(len);
    atomic_fetch_and(&has_work[0], ~(1ull << 3));
    struct steal_thread st = {.victims = &victims, .rnd = 5};
    iter_ull lb, le;
    CHECK(ws_steal_next(ranges, has_work, 1, &st, 0, &lb, &le));
    CHECK(owner_of(lb) == 6, "stole from %u, the only range with its bit set", owner_of(lb));
    CHECK(bit(0), "the thief's range holds the rest of what it stole: its bit is set");
    /* ...and with no bit set at all, the last look still finds 3's work. */
    set_ranges(len);
    atomic_store(&has_work[0], 0);
    struct steal_thread st2 = {.victims = &victims, .rnd = 5};
    CHECK(ws_steal_next(ranges, has_work, 1, &st2, 0, &lb, &le));
    CHECK(owner_of(lb) == 3 || owner_of(lb) == 6, "stole from %u", owner_of(lb));
    /* A thief that takes a whole range (1 iteration) clears its bit, and
     * keeps its own clear: it runs the iteration now, nothing is left. */
    iter_ull one[T] = {0, 1, 0, 0, 0, 0, 0, 0};
    set_ranges(one);
    struct steal_thread st3 = {.victims = &victims, .rnd = 5};
    CHECK(ws_steal_next(ranges, has_work, 1, &st3, 0, &lb, &le));
    CHECK(lb == 199 && le == 200 && !bit(1) && !bit(0), "took [%llu, %llu), bits %llx", lb, le,
          (unsigned long long)atomic_load(&has_work[0]));
    /* The owner's pop that takes its last iterations clears its bit; one
     * that leaves some keeps it. */
    iter_ull own[T] = {0, 0, 0, 0, 0, 0, 0, 2};
    set_ranges(own);
    struct steal_thread st4 = {.victims = &victims, .rnd = 5};
    CHECK(ws_steal_next(ranges, has_work, 1, &st4, 7, &lb, &le));
    CHECK(lb == 798 && le == 799 && bit(7), "popped [%llu, %llu)", lb, le);
    CHECK(ws_steal_next(ranges, has_work, 1, &st4, 7, &lb, &le));
    CHECK(lb == 799 && le == 800 && !bit(7), "popped [%llu, %llu), bit %d", lb, le, bit(7));
}

int main(void)
{
    test_order();
    test_busy_partner();
    test_steal_unit();
    test_has_work_bits();
    return unit_report();
}
