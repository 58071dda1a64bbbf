/* test_cpu_share.c — unit tests of the notes an oversubscribed wait reads: who runs on the waiter's CPU and still has work. */
#include "core/cpu_share.h"
#include "unit.h"

/* A team of 4 laid out as on 2 CPUs with OMP_PROC_BIND=close: threads 0
 * and 1 on CPU 0, threads 2 and 3 on CPU 1. */
static struct cpu_share *four_on_two(void)
{
    struct cpu_share *s = cpu_share_reserve(NULL, 4);
    for (unsigned i = 0; i < 4; i++)
        cpu_share_note_cpu(s, i, i < 2 ? 0 : 1);
    return s;
}

static void test_idle(void)
{
    struct cpu_share *s = four_on_two();
    unsigned seq = 7;
    /* region 7 started: nobody noted it done */
    CHECK(!cpu_share_idle(s, 4, 2, 1, seq, true), "thread 3 shares CPU 1 and has work");
    /* thread 3 is done: thread 2 waits alone on CPU 1 */
    cpu_share_note_done(s, 3, seq);
    CHECK(cpu_share_idle(s, 4, 2, 1, seq, true), "CPU 1 has no thread with work");
    /* thread 1 shares CPU 0 with the master: never alone when the master counts */
    cpu_share_note_done(s, 1, seq);
    CHECK(!cpu_share_idle(s, 4, 1, 0, seq, true), "the master runs on CPU 0");
    CHECK(cpu_share_idle(s, 4, 1, 0, seq, false), "the master does not count");
    /* the master at the join: thread 1 done, threads 2 and 3 elsewhere */
    CHECK(cpu_share_idle(s, 4, 0, 0, seq, false), "workers with work run on CPU 1");
    /* for thread 3, thread 2's pending work counts; its own slot never does */
    CHECK(!cpu_share_idle(s, 4, 3, 1, seq, true), "thread 2 has not finished region 7");
    cpu_share_note_done(s, 2, seq);
    cpu_share_note_done(s, 3, seq - 1);
    CHECK(cpu_share_idle(s, 4, 3, 1, seq, true), "its own slot (not done) is ignored");
    /* a CPU nobody noted: alone */
    CHECK(cpu_share_idle(s, 4, 2, 5, seq, true), "nobody on CPU 5");
    /* n past the capacity is capped */
    CHECK(cpu_share_idle(s, 1000, 2, 5, seq, true), "n capped at the capacity");
    cpu_share_free(s);
}

static void test_grow(void)
{
    struct cpu_share *s = four_on_two();
    cpu_share_note_done(s, 3, 9);
    CHECK(cpu_share_reserve(s, 3) == s && cpu_share_reserve(s, 4) == s, "room already");
    struct cpu_share *g = cpu_share_reserve(s, 6);
    CHECK(g != s && g->older == s && g->capacity == 6, "a new array keeps the old behind it");
    CHECK(atomic_load(&g->slot[2].cpu) == 1 && atomic_load(&g->slot[3].done_seq) == 9,
          "notes copied");
    CHECK(atomic_load(&g->slot[4].cpu) == -1 && atomic_load(&g->slot[5].cpu) == -1,
          "new slots: CPU not known");
    /* the old array stays readable (a waiter may hold it) until the team is freed */
    CHECK(atomic_load(&s->slot[1].cpu) == 0, "old array alive");
    cpu_share_free(g); /* frees both (ASan/valgrind would see a leak otherwise) */
}

int main(void)
{
    test_idle();
    test_grow();
    return unit_report();
}
