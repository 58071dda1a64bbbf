/* test_loop_auto.c — unit tests of schedule(auto)'s selection (sched/loop_auto.c) on scripted timings, and of the statistics it shares with ILAN's exploration (sched/samples.c). */
#include <string.h>

#include "sched/loop_auto.h"
#include "sched/samples.h"
#include "unit.h"

/* Runs the selector for `runs` executions, each candidate taking time[c]. */
static void drive(struct loop_auto *a, const double *time, unsigned runs, unsigned *count)
{
    for (unsigned i = 0; i < runs; i++) {
        enum loop_cand c = loop_auto_next(a);
        if (count)
            count[c]++;
        loop_auto_record(a, c, time[c]);
    }
}

static void test_warmup_and_choice(void)
{
    struct loop_auto a;
    memset(&a, 0, sizeof a);
    double t[LOOP_NCAND] = {100, 80, 90, 95, 120}; /* adaptive fastest */
    /* A loop executed twice never leaves adaptive and tries nothing. */
    unsigned count[LOOP_NCAND] = {0};
    drive(&a, t, LOOP_AUTO_WARMUP, count);
    CHECK(count[LOOP_CAND_ADAPTIVE] == LOOP_AUTO_WARMUP && !a.settled);
    CHECK(a.trying, "the trial starts after the warm-up");
    /* The trial: every candidate twice (none is 1.5x the best first). */
    memset(count, 0, sizeof count);
    drive(&a, t, LOOP_NCAND * LOOP_AUTO_SAMPLES, count);
    for (unsigned c = 0; c < LOOP_NCAND; c++)
        CHECK(count[c] == LOOP_AUTO_SAMPLES, "candidate %u ran %u times", c, count[c]);
    CHECK(a.settled && !a.trying && a.choice == LOOP_CAND_ADAPTIVE, "choice %u", a.choice);
    CHECK(a.ref == 80 && a.noise == LOOP_AUTO_NOISE_FLOOR);
    /* Settled: the choice runs, no trial while it keeps its time. */
    memset(count, 0, sizeof count);
    drive(&a, t, 50, count);
    CHECK(count[LOOP_CAND_ADAPTIVE] == 50 && a.trials == 1);
}

static void test_cut_and_static(void)
{
    struct loop_auto a;
    memset(&a, 0, sizeof a);
    /* static is fastest; guided is slower than 1.5x the best first sample:
     * it gets one sample only. */
    double t[LOOP_NCAND] = {50, 60, 58, 70, 200};
    unsigned count[LOOP_NCAND] = {0};
    drive(&a, t, LOOP_AUTO_WARMUP + 2 * LOOP_NCAND - 1, count);
    CHECK(count[LOOP_CAND_GUIDED] == 1, "guided sampled %u times", count[LOOP_CAND_GUIDED]);
    CHECK(a.settled && a.choice == LOOP_CAND_STATIC, "choice %u", a.choice);
}

static void test_drift(void)
{
    struct loop_auto a;
    memset(&a, 0, sizeof a);
    double t[LOOP_NCAND] = {100, 80, 90, 95, 120};
    drive(&a, t, LOOP_AUTO_WARMUP + LOOP_NCAND * LOOP_AUTO_SAMPLES, NULL);
    CHECK(a.settled && a.choice == LOOP_CAND_ADAPTIVE);
    /* Within the noise: no new trial. A slow run between fast ones resets. */
    double slow[LOOP_NCAND] = {100, 100, 90, 95, 120};
    drive(&a, slow, LOOP_AUTO_DRIFT_RUNS - 1, NULL);
    drive(&a, t, 1, NULL);
    drive(&a, slow, LOOP_AUTO_DRIFT_RUNS - 1, NULL);
    CHECK(!a.trying && a.trials == 1, "no trial before %u slow runs in a row",
          LOOP_AUTO_DRIFT_RUNS);
    drive(&a, slow, 1, NULL);
    CHECK(a.trying && a.trials == 2, "drift starts a trial");
    /* The new trial finds FAC2 fastest now. */
    drive(&a, slow, LOOP_NCAND * LOOP_AUTO_SAMPLES, NULL);
    CHECK(a.settled && a.choice == LOOP_CAND_FAC2, "choice %u", a.choice);
    /* Trials are bounded. */
    double worse[LOOP_NCAND] = {1000, 1000, 1000, 1000, 1000};
    for (unsigned i = 0; i < 200; i++)
        drive(&a, worse, 1, NULL);
    CHECK(a.trials == LOOP_AUTO_MAX_TRIALS && !a.trying, "trials %u", a.trials);
    /* A sample of another candidate than asked for only counts the call. */
    unsigned calls = a.calls;
    loop_auto_record(&a, LOOP_CAND_GUIDED, 1);
    CHECK(a.calls == calls + 1 && a.choice != LOOP_CAND_GUIDED);
}

/* A new trial runs only the candidates within LOOP_AUTO_CUT of the last
 * choice's median: here static (2.1x) and guided (1.9x) sit it out. */
static void test_retrial_close_rivals(void)
{
    struct loop_auto a;
    memset(&a, 0, sizeof a);
    double t[LOOP_NCAND] = {210, 100, 120, 140, 190};
    drive(&a, t, LOOP_AUTO_WARMUP + 2 * LOOP_NCAND, NULL);
    CHECK(a.settled && a.choice == LOOP_CAND_ADAPTIVE, "choice %u", a.choice);
    double slow[LOOP_NCAND] = {210, 130, 120, 140, 190};
    drive(&a, slow, LOOP_AUTO_DRIFT_RUNS, NULL);
    CHECK(a.trying && a.trials == 2);
    unsigned count[LOOP_NCAND] = {0};
    while (a.trying)
        drive(&a, slow, 1, count);
    CHECK(count[LOOP_CAND_STATIC] == 0 && count[LOOP_CAND_GUIDED] == 0, "static %u guided %u",
          count[LOOP_CAND_STATIC], count[LOOP_CAND_GUIDED]);
    CHECK(count[LOOP_CAND_ADAPTIVE] == LOOP_AUTO_SAMPLES && count[LOOP_CAND_FAC2] ==
          LOOP_AUTO_SAMPLES && count[LOOP_CAND_AF] == LOOP_AUTO_SAMPLES);
    CHECK(a.settled && a.choice == LOOP_CAND_FAC2, "choice %u", a.choice);
    /* af (140 against fac2's 120) stays in; adaptive (130) too. */
    CHECK(!a.out[LOOP_CAND_AF] && !a.out[LOOP_CAND_ADAPTIVE] && a.out[LOOP_CAND_STATIC]);
}

static void test_samples(void)
{
    double t[] = {5, 1, 3, 2, 4};
    CHECK(samples_median(t, 5) == 3 && samples_median(t, 4) == 2.5 && samples_median(t, 0) == 0);
    CHECK(samples_spread(t, 5) == (5.0 - 1.0) / 6.0 && samples_spread(t, 1) == 0);
    unsigned streak = 0;
    CHECK(!samples_drift(&streak, 2, 1, 2) && streak == 1);
    CHECK(samples_drift(&streak, 2, 1, 2) && streak == 0);
    CHECK(!samples_drift(&streak, 2, 1, 2) && !samples_drift(&streak, 0.5, 1, 2) && streak == 0);
}

int main(void)
{
    test_warmup_and_choice();
    test_cut_and_static();
    test_drift();
    test_retrial_close_rivals();
    test_samples();
    return unit_report();
}
