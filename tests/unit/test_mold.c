/* test_mold.c — unit tests of the moldability policy (sched/mold.c) on scripted taskloop timings. */
#include <stdio.h>
#include <string.h>
#include "sched/mold.h"
#include "unit.h"

#define MAXG 16
/* Trace code of a configuration: k for {k, strict}, F(k) for {k, full}. */
#define F(k) (100 + (k))

/* Made-up timings of one taskloop. */
struct script {
    double time[2][MAXG + 1];         /* [full][k]: seconds a run of {k, full} takes */
    const double *noisy[2][MAXG + 1]; /* when set: the n-th run takes noisy[full][k][n] instead */
    const double *group_times;        /* handed with all-groups runs (else NULL) */
    unsigned runs[2][MAXG + 1];       /* runs of each configuration so far */
};

/* What a driven loop ran. */
struct trace {
    int cfg[1024];       /* trace codes, in run order */
    unsigned n;          /* runs */
    unsigned loss[1024]; /* indexes of losing runs: a configuration's first run,
                            slower than every run before by more than the noise floor */
    unsigned nloss;      /* losing runs */
    double fastest;      /* fastest run so far */
};

/* mold_init with the thesis's single all-groups run before exploring:
 * the traces below follow the thesis's sequence exactly (test_warmup
 * covers MOLD_WARMUP). */
static bool thesis_init(struct mold *m, unsigned ngroups, bool fixed, int forced_steal)
{
    bool ok = mold_init(m, ngroups, fixed, forced_steal);
    m->warmup = 1;
    return ok;
}

static int code(struct mold_config c)
{
    return c.full ? F((int)c.ngroups) : (int)c.ngroups;
}

/* Runs the loop `runs` times: asks m, looks the time up in s, records it. */
static void drive(struct mold *m, struct script *s, struct trace *tr, unsigned runs)
{
    for (unsigned i = 0; i < runs; i++) {
        struct mold_config c = mold_next(m);
        CHECK(c.ngroups >= 1 && c.ngroups <= m->ngroups && c.ngroups <= MAXG, "k=%u", c.ngroups);
        if (c.ngroups < 1 || c.ngroups > MAXG)
            return;
        unsigned *done = &s->runs[c.full][c.ngroups];
        const double *noisy = s->noisy[c.full][c.ngroups];
        double t = noisy ? noisy[*done] : s->time[c.full][c.ngroups];
        if (tr->n > 0 && *done == 0 && t > tr->fastest * (1 + MOLD_NOISE_FLOOR))
            tr->loss[tr->nloss++] = tr->n;
        if (tr->n == 0 || t < tr->fastest)
            tr->fastest = t;
        tr->cfg[tr->n++] = code(c);
        (*done)++;
        CHECK(mold_record(m, c, t, c.ngroups == m->ngroups ? s->group_times : NULL));
    }
}

/* Drives m until it settles (at most `limit` runs); returns the runs taken. */
static unsigned explore(struct mold *m, struct script *s, struct trace *tr, unsigned limit)
{
    unsigned before = tr->n;
    while (m->phase != MOLD_SETTLED && tr->n - before < limit)
        drive(m, s, tr, 1);
    CHECK(m->phase == MOLD_SETTLED, "still phase %d after %u runs", m->phase, limit);
    return tr->n - before;
}

/* Whether the trace, from run `from`, is exactly want[0..n-1]. */
static bool runs_are(const struct trace *tr, unsigned from, const int *want, unsigned n)
{
    if (tr->n - from != n)
        return false;
    return memcmp(tr->cfg + from, want, n * sizeof *want) == 0;
}

/* Configurations in the order they were first run. */
static unsigned firsts(const struct trace *tr, int *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < tr->n; i++) {
        unsigned j = 0;
        while (j < n && out[j] != tr->cfg[i])
            j++;
        if (j == n)
            out[n++] = tr->cfg[i];
    }
    return n;
}

static bool firsts_are(const struct trace *tr, const int *want, unsigned n)
{
    int got[1024];
    return firsts(tr, got) == n && memcmp(got, want, n * sizeof *want) == 0;
}

static void set_sizes(struct script *s, bool full, const double *t, unsigned G)
{
    for (unsigned k = 1; k <= G; k++)
        s->time[full][k] = t[k];
}

static struct mold_config cfg(unsigned k, bool full)
{
    return (struct mold_config){k, full};
}

static bool is(struct mold_config c, unsigned k, bool full)
{
    return c.ngroups == k && c.full == full;
}

/* (a) Fewer groups win: 8, 4, 1, then bisection to 3, then the steal trial. */
static void test_fewer_groups(void)
{
    static const double t[] = {0, 2.0, 1.5, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    for (int keep_full = 0; keep_full <= 1; keep_full++) {
        struct script s = {0};
        struct trace tr = {0};
        set_sizes(&s, false, t, 8);
        s.time[1][3] = keep_full ? 0.8 : 1.2;
        struct mold m;
        CHECK(thesis_init(&m, 8, false, -1));
        CHECK(m.phase == MOLD_SIZE && m.epoch == 1 && is(mold_next(&m), 8, false));
        explore(&m, &s, &tr, 100);
        /* 1 and 2 lose against 4 (cooldown on 4 after each); 3 wins; one
         * fresh run of all 8 confirms it. */
        static const int want[] = {8, 4, 1, 4, 4, 4, 4, 2, 4, 4, 4, 4, 3, F(3), 8};
        CHECK(runs_are(&tr, 0, want, 15));
        CHECK(s.runs[1][3] == 1); /* the steal trial runs once */
        CHECK(is(m.chosen, 3, keep_full) && is(mold_next(&m), 3, keep_full));
        CHECK(m.chosen_median == (keep_full ? 0.8 : 1.0));
        CHECK(m.executions == 15);
        drive(&m, &s, &tr, 10);
        CHECK(m.phase == MOLD_SETTLED && tr.cfg[tr.n - 1] == code(m.chosen));
        mold_free(&m);
    }
}

/* The steal trial's phase: the size is chosen, {k, full} is next. */
static void test_phases(void)
{
    static const double t[] = {0, 2.0, 1.5, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    struct script s = {0};
    struct trace tr = {0};
    set_sizes(&s, false, t, 8);
    s.time[1][3] = 2.0;
    struct mold m;
    CHECK(thesis_init(&m, 8, false, -1));
    drive(&m, &s, &tr, 12);
    CHECK(m.phase == MOLD_SIZE && is(mold_next(&m), 3, false));
    drive(&m, &s, &tr, 1);
    CHECK(m.phase == MOLD_STEAL && is(mold_next(&m), 3, true));
    drive(&m, &s, &tr, 1);
    CHECK(m.phase == MOLD_CONFIRM && is(m.chosen, 3, false) && is(mold_next(&m), 8, false));
    drive(&m, &s, &tr, 1); /* 8 groups again: 2.5, no faster than 3's 1.0 */
    CHECK(m.phase == MOLD_SETTLED && is(m.chosen, 3, false) && !m.overruled);
    mold_free(&m);

    /* The confirming run beats the choice (the all-groups samples were
     * taken while the loop warmed up): all groups are chosen instead. */
    struct mold w;
    CHECK(thesis_init(&w, 2, false, -1));
    CHECK(mold_record(&w, cfg(2, false), 3.0, NULL)); /* a cold first run */
    CHECK(is(mold_next(&w), 1, false));
    CHECK(mold_record(&w, cfg(1, false), 2.0, NULL));
    CHECK(w.phase == MOLD_CONFIRM && is(mold_next(&w), 2, false));
    CHECK(mold_record(&w, cfg(2, false), 1.0, NULL));
    CHECK(w.phase == MOLD_SETTLED && is(w.chosen, 2, false) && w.overruled &&
          w.chosen_median == 1.0);
    mold_free(&w);
}

/* (b) All groups win: 8, 4, 6, 7, then 8 with the steal trial. */
static void test_all_groups(void)
{
    struct script s = {0};
    struct trace tr = {0};
    for (unsigned k = 1; k <= 8; k++)
        s.time[0][k] = 10.0 / k;
    s.time[1][8] = 1.3; /* full loses against strict's 1.25 */
    struct mold m;
    CHECK(thesis_init(&m, 8, false, -1));
    explore(&m, &s, &tr, 100);
    static const int order[] = {8, 4, 6, 7, F(8)};
    CHECK(firsts_are(&tr, order, 5));
    CHECK(s.runs[0][1] == 0 && s.runs[0][2] == 0 && s.runs[0][3] == 0 && s.runs[0][5] == 0);
    CHECK(tr.nloss == 4); /* 4, 6, 7 and the full trial */
    CHECK(is(m.chosen, 8, false) && m.chosen_median == 1.25);
    mold_free(&m);
}

/* (c) Two groups (the 2-core machine) and one. */
static void test_small_teams(void)
{
    /* One group beats two: no steal trial for a single group. */
    struct script s = {0};
    struct trace tr = {0};
    s.time[0][2] = 2.0;
    s.time[0][1] = 0.5;
    struct mold m;
    CHECK(thesis_init(&m, 2, false, -1));
    explore(&m, &s, &tr, 100);
    static const int one_wins[] = {2, 1, 2}; /* the last: confirming the choice */
    CHECK(runs_are(&tr, 0, one_wins, 3));
    CHECK(is(m.chosen, 1, false) && m.chosen_median == 0.5);
    CHECK(m.entries[0].count == 2); /* a clear loser is not re-sampled, only confirmed against */
    mold_free(&m);

    /* Two beat one: cooldown after 1 lost, then the steal trial. */
    memset(&s, 0, sizeof s);
    memset(&tr, 0, sizeof tr);
    s.time[0][2] = 1.0;
    s.time[0][1] = 2.0;
    s.time[1][2] = 0.7;
    CHECK(thesis_init(&m, 2, false, -1));
    explore(&m, &s, &tr, 100);
    static const int two_wins[] = {2, 1, 2, 2, 2, 2, F(2)};
    CHECK(runs_are(&tr, 0, two_wins, 7));
    CHECK(is(m.chosen, 2, true));
    mold_free(&m);

    /* One group: settled at once, nothing to explore, no drift. */
    for (int forced = -1; forced <= 1; forced++) {
        CHECK(thesis_init(&m, 1, false, forced));
        CHECK(m.phase == MOLD_SETTLED && m.epoch == 1);
        CHECK(is(mold_next(&m), 1, forced == 1) && is(m.chosen, 1, forced == 1));
        for (unsigned i = 0; i < 3 * MOLD_DRIFT_RUNS; i++)
            CHECK(mold_record(&m, mold_next(&m), 1.0 + i, NULL));
        CHECK(m.phase == MOLD_SETTLED && m.epoch == 1 && is(mold_next(&m), 1, forced == 1));
        CHECK(m.nentries == 1 && m.entries[0].count == 3 * MOLD_DRIFT_RUNS);
        mold_free(&m);
    }
}

/* (d) Near-ties are re-sampled up to MOLD_RESAMPLES runs each; the medians then decide. */
static void test_noisy_ties(void)
{
    static const double two[] = {1.00, 1.06, 1.05, 1.06}; /* median 1.05, then a confirming run */
    static const double one[] = {1.02, 1.01, 1.03}; /* median 1.02 */
    struct script s = {0};
    struct trace tr = {0};
    s.noisy[0][2] = two;
    s.noisy[0][1] = one;
    struct mold m;
    CHECK(thesis_init(&m, 2, false, -1));
    explore(&m, &s, &tr, 100);
    CHECK(s.runs[0][2] == MOLD_RESAMPLES + 1 && s.runs[0][1] == MOLD_RESAMPLES);
    CHECK(tr.n == 2 * MOLD_RESAMPLES + 1 && tr.nloss == 0);
    /* The first pair ties; the one with fewer samples (f on equal counts)
     * goes next; the confirming run of both groups (1.06: not faster). */
    static const int want[] = {2, 1, 2, 1, 1, 2, 2};
    CHECK(runs_are(&tr, 0, want, 7));
    CHECK(is(m.chosen, 1, false) && m.chosen_median == 1.02);
    mold_free(&m);

    /* The steal trial ties: full is repeated (strict already has its samples
     * from the cooldown); then the medians decide for strict. */
    memset(&s, 0, sizeof s);
    memset(&tr, 0, sizeof tr);
    s.time[0][2] = 1.0;
    s.time[0][1] = 2.0;
    s.time[1][2] = 1.01;
    CHECK(thesis_init(&m, 2, false, -1));
    explore(&m, &s, &tr, 100);
    static const int trial[] = {2, 1, 2, 2, 2, 2, F(2), F(2), F(2)};
    CHECK(runs_are(&tr, 0, trial, 9));
    CHECK(is(m.chosen, 2, false));
    mold_free(&m);

    /* A tie broken by the re-samples: full's later runs are faster. */
    static const double full[] = {1.00, 0.90, 0.91};
    static const double strict[] = {0.99, 0.98, 0.99};
    memset(&s, 0, sizeof s);
    memset(&tr, 0, sizeof tr);
    s.noisy[0][2] = strict;
    s.time[0][1] = 0.995;
    s.noisy[1][2] = full;
    CHECK(thesis_init(&m, 2, false, -1));
    explore(&m, &s, &tr, 100);
    CHECK(s.runs[1][2] >= 2 && is(m.chosen, 2, true));
    mold_free(&m);
}

/* (e) Cooldown: a short-lived loop pays for at most one losing run. */
static void test_cooldown(void)
{
    static const double fewer[] = {0, 2.0, 1.5, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    struct script s = {0};
    struct trace tr = {0};
    set_sizes(&s, false, fewer, 8);
    struct mold m;
    CHECK(thesis_init(&m, 8, false, -1));
    drive(&m, &s, &tr, 3);
    CHECK(tr.nloss == 1 && tr.loss[0] == 2 && m.cooldown == MOLD_COOLDOWN);
    for (unsigned i = 0; i < MOLD_COOLDOWN; i++) {
        CHECK(is(mold_next(&m), 4, false)); /* the best so far */
        drive(&m, &s, &tr, 1);
    }
    CHECK(m.cooldown == 0 && is(mold_next(&m), 2, false));
    mold_free(&m);

    /* Half losing at run 2: runs 3.. are all groups. */
    memset(&s, 0, sizeof s);
    memset(&tr, 0, sizeof tr);
    for (unsigned k = 1; k <= 8; k++)
        s.time[0][k] = 10.0 / k;
    CHECK(thesis_init(&m, 8, false, -1));
    drive(&m, &s, &tr, 3 + MOLD_COOLDOWN - 1);
    CHECK(tr.nloss == 1);
    static const int want[] = {8, 4, 8, 8, 8, 8};
    CHECK(runs_are(&tr, 0, want, 2 + MOLD_COOLDOWN));
    mold_free(&m);

    /* A tied first run is no loss. */
    memset(&s, 0, sizeof s);
    memset(&tr, 0, sizeof tr);
    s.time[0][4] = 1.0;
    s.time[0][2] = 1.02;
    s.time[0][3] = 1.5;
    CHECK(thesis_init(&m, 4, false, -1));
    drive(&m, &s, &tr, 2);
    CHECK(m.cooldown == 0 && m.phase == MOLD_SIZE);
    mold_free(&m);
}

/* Random tables: exploration ends, losses are spaced by the cooldown,
 * the choice is the fastest size measured, the policy is respected. */
static void test_random_tables(void)
{
    unsigned long long rng = 12345;
    for (unsigned trial = 0; trial < 2000; trial++) {
        struct script s = {0};
        struct trace tr = {0};
        unsigned G = 2 + trial % (MAXG - 1);
        int forced = (int)(trial / (MAXG - 1) % 3) - 1;
        for (int full = 0; full <= 1; full++)
            for (unsigned k = 1; k <= G; k++) {
                rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                s.time[full][k] = 1.0 + (double)(rng >> 11) / (double)(1ULL << 53);
            }
        struct mold m;
        CHECK(thesis_init(&m, G, false, forced));
        explore(&m, &s, &tr, 300);
        CHECK(tr.n <= MOLD_EPOCH_RUNS, "G=%u: %u runs", G, tr.n);
        for (unsigned i = 1; i < tr.nloss; i++)
            CHECK(tr.loss[i] - tr.loss[i - 1] > MOLD_COOLDOWN);
        bool base = forced == 1;
        unsigned k = m.chosen.ngroups;
        if (m.why == MOLD_WHY_BUDGET) {
            /* Cut short by the budget: the fastest configuration measured. */
            for (int full = 0; full <= 1; full++)
                for (unsigned j = 1; j <= G; j++)
                    if (s.runs[full][j])
                        CHECK(s.time[m.chosen.full][k] <= s.time[full][j]);
            mold_free(&m);
            continue;
        }
        CHECK(m.why == MOLD_WHY_SEARCH);
        for (unsigned j = 1; j <= G; j++)
            if (s.runs[base][j])
                CHECK(s.time[base][k] <= s.time[base][j], "G=%u: chose %u over %u", G, k, j);
        if (forced >= 0) {
            for (unsigned i = 0; i < tr.n; i++)
                CHECK((tr.cfg[i] >= F(0)) == (forced == 1));
            CHECK(m.chosen.full == (forced == 1));
        } else if (k >= 2) {
            CHECK(s.runs[1][k] >= 1);
            CHECK(m.chosen.full == (s.time[1][k] < s.time[0][k]));
        }
        mold_free(&m);
    }
}

/* (f) Drift: slow settled runs in a row start a new epoch, a lone one does not. */
static void test_drift(void)
{
    static const double groups_a[] = {1.0, 2.0, 3.0, 4.0};
    static const double groups_b[] = {4.0, 3.0, 2.0, 1.0};
    struct script s = {0};
    struct trace tr = {0};
    s.time[0][4] = 1.0;
    s.time[0][2] = 2.0;
    s.time[0][1] = 3.0;
    s.time[0][3] = 1.5;
    s.time[1][4] = 1.2;
    s.group_times = groups_a;
    struct mold m;
    CHECK(thesis_init(&m, 4, false, -1));
    explore(&m, &s, &tr, 100);
    CHECK(is(m.chosen, 4, false) && m.chosen_median == 1.0 && m.epoch == 1);
    unsigned out[4];
    CHECK(mold_groups(&m, cfg(2, false), out) == 2 && out[0] == 0 && out[1] == 1);

    struct mold_config c = m.chosen;
    for (unsigned i = 0; i < MOLD_DRIFT_RUNS - 1; i++)
        CHECK(mold_record(&m, c, 2.0, groups_a));
    CHECK(mold_record(&m, c, 1.4, groups_a)); /* under MOLD_DRIFT times: resets */
    for (unsigned i = 0; i < MOLD_DRIFT_RUNS - 1; i++)
        CHECK(mold_record(&m, c, 2.0, groups_a));
    CHECK(m.phase == MOLD_SETTLED && m.epoch == 1 && m.drifted == MOLD_DRIFT_RUNS - 1);
    /* Other configurations' runs are data, not drift. */
    CHECK(mold_record(&m, cfg(3, false), 9.0, NULL));
    CHECK(m.phase == MOLD_SETTLED && m.drifted == MOLD_DRIFT_RUNS - 1);

    CHECK(mold_record(&m, c, 2.0, groups_b));
    CHECK(m.phase == MOLD_SIZE && m.epoch == 2 && is(mold_next(&m), 4, false));
    CHECK(!m.ranked); /* the old ranking is gone */
    CHECK(mold_groups(&m, cfg(2, false), out) == 2 && out[0] == 0 && out[1] == 1);

    /* Epoch 2: two groups now win; epoch 1's samples no longer count. */
    s.time[0][4] = 1.0;
    s.time[0][2] = 0.5;
    s.time[0][1] = 0.9;
    s.time[1][2] = 0.6;
    s.group_times = groups_b;
    memset(s.runs, 0, sizeof s.runs);
    unsigned from = tr.n;
    drive(&m, &s, &tr, 1);
    CHECK(m.ranked && mold_groups(&m, cfg(2, false), out) == 2 && out[0] == 2 && out[1] == 3);
    explore(&m, &s, &tr, 100);
    static const int want[] = {4, 2, 1, 2, 2, 2, 2, F(2), 4};
    CHECK(runs_are(&tr, from, want, 9));
    CHECK(is(m.chosen, 2, false) && m.chosen_median == 0.5 && m.epoch == 2);
    unsigned all_strict = 0;
    for (unsigned i = 0; i < m.nentries; i++)
        if (is(m.entries[i].cfg, 4, false)) {
            all_strict++;
            CHECK(m.entries[i].epoch == all_strict);
            /* epoch 2: its first run and the one confirming the choice of 2 */
            CHECK(m.entries[i].count == (m.entries[i].epoch == 2 ? 2 : 1 + 2 * MOLD_COOLDOWN + 2 * MOLD_DRIFT_RUNS),
                  "count %u", m.entries[i].count);
        }
    CHECK(all_strict == 2);

    /* Epoch 3 is the last: drift past it keeps the choice. */
    for (unsigned i = 0; i < MOLD_DRIFT_RUNS; i++)
        CHECK(mold_record(&m, m.chosen, 5.0, NULL));
    CHECK(m.phase == MOLD_SIZE && m.epoch == 3);
    memset(s.runs, 0, sizeof s.runs);
    explore(&m, &s, &tr, 100);
    CHECK(m.epoch == MOLD_MAX_EXPLORATIONS);
    struct mold_config last = m.chosen;
    for (unsigned i = 0; i < 4 * MOLD_DRIFT_RUNS; i++)
        CHECK(mold_record(&m, last, 5.0, NULL));
    CHECK(m.phase == MOLD_SETTLED && m.epoch == MOLD_MAX_EXPLORATIONS && is(m.chosen, last.ngroups, last.full));
    mold_free(&m);
}

/* (h) Re-check: a choice of fewer groups made while all groups ran slow
 * (a CPU held elsewhere during the warm-up and the confirmation) gives way
 * to all groups at the first re-check once they run fast; a choice that
 * wins its re-checks keeps them coming twice as far apart each time, up
 * to MOLD_RECHECK_MAX. Times of spmv on the 2-vCPU VM (ms). */
static void test_recheck(void)
{
    struct mold m;
    CHECK(mold_init(&m, 2, false, -1));
    static const double warm[] = {0.90, 0.84, 0.89};
    for (unsigned i = 0; i < 3; i++)
        CHECK(mold_record(&m, mold_next(&m), warm[i], NULL));
    CHECK(is(mold_next(&m), 1, false) && mold_wants_group_times(&m, cfg(1, false)));
    CHECK(mold_record(&m, cfg(1, false), 0.44, NULL));
    CHECK(m.phase == MOLD_CONFIRM && is(mold_next(&m), 2, false));
    CHECK(mold_record(&m, cfg(2, false), 0.41, NULL)); /* tied: the other CPU still held */
    CHECK(m.phase == MOLD_SETTLED && is(m.chosen, 1, false) && m.recheck_in == MOLD_RECHECK_FIRST);
    /* Group times matter no more for the settled choice's runs; for a run
     * of anything else they still do. */
    CHECK(!mold_wants_group_times(&m, cfg(1, false)) && mold_wants_group_times(&m, cfg(2, false)));
    for (unsigned i = 0; i < MOLD_RECHECK_FIRST - 1; i++) {
        CHECK(mold_record(&m, cfg(1, false), 0.43, NULL));
        CHECK(is(mold_next(&m), 1, false), "run %u", i);
    }
    CHECK(mold_record(&m, cfg(1, false), 0.43, NULL));
    CHECK(m.rechecking && is(mold_next(&m), 2, false) && is(m.chosen, 1, false) &&
          mold_wants_group_times(&m, cfg(2, false)));
    char why[200];
    CHECK(mold_record(&m, cfg(2, false), 0.21, NULL)); /* the CPU is back */
    mold_explain(&m, why, sizeof why);
    CHECK(m.phase == MOLD_SETTLED && !m.rechecking && is(m.chosen, 2, false) &&
          is(mold_next(&m), 2, false) && m.chosen_median == 0.21 && m.recheck_won &&
          m.recheck_in == 0 && strstr(why, "re-check"), "%s", why);
    /* All groups chosen: no more re-checks. */
    for (unsigned i = 0; i < 4 * MOLD_RECHECK_FIRST; i++)
        CHECK(mold_record(&m, cfg(2, false), 0.21, NULL) && is(mold_next(&m), 2, false));
    mold_free(&m);

    /* One group really is faster (contention): every all-groups run lost
     * to it, so the first re-check waits MOLD_RECHECK_SURE settled runs;
     * every re-check loses, and they come twice as far apart each time,
     * then every MOLD_RECHECK_MAX. */
    struct script s = {0};
    struct trace tr = {0};
    s.time[0][1] = 1.0;
    s.time[0][2] = 1.6;
    s.time[1][2] = 1.6;
    CHECK(mold_init(&m, 2, false, -1));
    explore(&m, &s, &tr, 40);
    CHECK(is(m.chosen, 1, false) && m.recheck_in == MOLD_RECHECK_SURE);
    unsigned gap = MOLD_RECHECK_SURE, rechecks = 0;
    for (unsigned run = 0; run < 5000; run++) {
        bool asked_all = mold_next(&m).ngroups == 2;
        drive(&m, &s, &tr, 1);
        if (!asked_all)
            continue;
        rechecks++;
        gap = gap >= MOLD_RECHECK_MAX / 2 ? MOLD_RECHECK_MAX : 2 * gap;
        CHECK(is(m.chosen, 1, false) && m.recheck_in == gap && !m.recheck_won);
    }
    unsigned want = 0, at = 0; /* runs (settled and re-checks) when each re-check is asked */
    for (unsigned g = MOLD_RECHECK_SURE;; g = g >= MOLD_RECHECK_MAX / 2 ? MOLD_RECHECK_MAX : 2 * g) {
        at += g + 1;
        if (at > 5000)
            break;
        want++;
    }
    CHECK(rechecks == want && want > 4, "%u re-checks, %u expected", rechecks, want);
    mold_free(&m);

    /* The thesis never re-checks. */
    CHECK(mold_init(&m, 2, false, -1));
    mold_set_additions(&m, 0);
    memset(&tr, 0, sizeof tr);
    memset(s.runs, 0, sizeof s.runs);
    explore(&m, &s, &tr, 40);
    CHECK(is(m.chosen, 1, false) && m.recheck_in == 0);
    for (unsigned run = 0; run < 200; run++)
        CHECK(is(mold_next(&m), 1, false));
    mold_free(&m);
}

/* (g) Which groups a configuration uses. */
static void test_groups(void)
{
    struct mold m;
    unsigned out[4];
    CHECK(thesis_init(&m, 4, false, -1));
    CHECK(mold_groups(&m, cfg(2, false), out) == 2 && out[0] == 0 && out[1] == 1);
    CHECK(mold_groups(&m, cfg(4, true), out) == 4 && out[3] == 3);

    static const double t1[] = {3.0, 1.0, 2.0, 1.0};
    CHECK(mold_record(&m, cfg(4, false), 3.0, t1));
    CHECK(mold_groups(&m, cfg(2, false), out) == 2 && out[0] == 1 && out[1] == 3);
    CHECK(mold_groups(&m, cfg(3, true), out) == 3 && out[0] == 1 && out[1] == 2 && out[2] == 3);
    CHECK(mold_groups(&m, cfg(1, false), out) == 1 && out[0] == 1);
    CHECK(mold_groups(&m, cfg(4, false), out) == 4 && out[0] == 0 && out[3] == 3);

    /* A run on fewer groups does not rank; a later all-groups run does, and
     * groups that did not take part go last. */
    static const double partial[] = {-1, 0.1, -1, 0.2};
    CHECK(mold_record(&m, cfg(2, false), 0.2, partial));
    CHECK(mold_groups(&m, cfg(1, false), out) == 1 && out[0] == 1);
    static const double t2[] = {-1.0, 2.0, 1.0, 3.0};
    CHECK(mold_record(&m, cfg(4, true), 3.0, t2)); /* not asked, still ranks */
    CHECK(mold_groups(&m, cfg(1, false), out) == 1 && out[0] == 2);
    CHECK(mold_groups(&m, cfg(3, false), out) == 3 && out[0] == 1 && out[1] == 2 && out[2] == 3);
    CHECK(m.entries[1].group_times[0] == -1 && m.entries[1].group_times[3] == 0.2);
    mold_free(&m);
}

/* A run of something other than what was asked is stored and steers nothing. */
static void test_unasked(void)
{
    struct script s = {0};
    struct trace tr = {0};
    s.time[0][4] = 1.0;
    s.time[0][2] = 1.2;
    s.time[0][3] = 0.5;
    s.time[0][1] = 2.0;
    s.time[1][3] = 0.7;
    struct mold m;
    CHECK(thesis_init(&m, 4, false, -1));
    drive(&m, &s, &tr, 1);
    CHECK(is(mold_next(&m), 2, false));
    CHECK(mold_record(&m, cfg(3, false), 0.5, NULL));
    CHECK(mold_record(&m, cfg(1, true), 0.1, NULL));
    CHECK(is(mold_next(&m), 2, false) && m.phase == MOLD_SIZE && m.cooldown == 0);
    CHECK(m.nentries == 3 && m.executions == 3);
    explore(&m, &s, &tr, 100);
    /* 3 was measured (unasked), so the search ends between 2 and 4 on it. */
    static const int want[] = {4, 2, 3, 3, 3, 3, F(3)};
    CHECK(runs_are(&tr, 0, want, 7));
    /* The search chose {3, strict}, but the unasked {1, full} measured
     * much faster: a settled choice never loses to what was measured. */
    CHECK(is(m.chosen, 1, true) && m.overruled);
    mold_free(&m);
}

/* (h) A forced policy never tries the other; fixed never explores. */
static void test_forced_and_fixed(void)
{
    for (int forced = 0; forced <= 1; forced++) {
        struct script s = {0};
        struct trace tr = {0};
        s.time[forced][4] = 1.0;
        s.time[forced][2] = 0.8;
        s.time[forced][1] = 0.9;
        s.time[forced][3] = 1.1;
        struct mold m;
        CHECK(thesis_init(&m, 4, false, forced));
        bool stole = false;
        while (m.phase != MOLD_SETTLED && tr.n < 100) {
            stole |= m.phase == MOLD_STEAL;
            drive(&m, &s, &tr, 1);
        }
        static const int strict[] = {4, 2, 1, 2, 2, 2, 2, 4};
        static const int full[] = {F(4), F(2), F(1), F(2), F(2), F(2), F(2), F(4)};
        CHECK(runs_are(&tr, 0, forced ? full : strict, 8));
        CHECK(!stole && is(m.chosen, 2, forced == 1));
        mold_free(&m);
    }

    for (int forced = -1; forced <= 1; forced++) {
        struct mold m;
        CHECK(thesis_init(&m, 4, true, forced));
        CHECK(m.phase == MOLD_FIXED && m.epoch == 0);
        static const double g[] = {1, 2, 3, 4};
        for (unsigned i = 0; i < 40; i++) {
            CHECK(is(mold_next(&m), 4, forced == 1));
            CHECK(mold_record(&m, i % 3 ? mold_next(&m) : cfg(1 + i % 4, i % 2), 1.0 + i, g));
        }
        CHECK(m.phase == MOLD_FIXED && m.epoch == 0 && m.executions == 40);
        CHECK(is(mold_next(&m), 4, forced == 1));
        mold_free(&m);
    }
}

/* (i) The sample ring, medians and the noise estimate. */
static void test_samples(void)
{
    struct mold m;
    CHECK(thesis_init(&m, 2, true, -1));
    CHECK(mold_noise(&m) == MOLD_NOISE_FLOOR);
    for (unsigned i = 1; i <= MOLD_KEEP + 4; i++)
        CHECK(mold_record(&m, cfg(2, false), (double)i, NULL));
    const struct mold_entry *e = &m.entries[0];
    CHECK(m.nentries == 1 && e->count == MOLD_KEEP + 4 && m.executions == MOLD_KEEP + 4);
    double sum = 0;
    for (unsigned i = 0; i < MOLD_KEEP; i++) {
        CHECK(e->times[i] >= 5 && e->times[i] <= MOLD_KEEP + 4);
        sum += e->times[i];
    }
    CHECK(sum == (5.0 + MOLD_KEEP + 4) * MOLD_KEEP / 2); /* exactly the latest MOLD_KEEP */
    CHECK(mold_entry_median(e) == 12.5);
    /* Spread (20 - 5) / (2 * 12.5) = 0.6. */
    CHECK(mold_noise(&m) > 0.5999 && mold_noise(&m) < 0.6001);
    mold_free(&m);

    struct mold_entry odd = {.cfg = {1, false}, .count = 3, .times = {3.0, 1.0, 2.0}};
    struct mold_entry even = {.cfg = {1, false}, .count = 4, .times = {4.0, 1.0, 3.0, 2.0}};
    struct mold_entry none = {.cfg = {1, false}, .count = 0};
    struct mold_entry one = {.cfg = {1, false}, .count = 1, .times = {7.0}};
    CHECK(mold_entry_median(&odd) == 2.0);
    CHECK(mold_entry_median(&even) == 2.5);
    CHECK(mold_entry_median(&none) == 0);
    CHECK(mold_entry_median(&one) == 7.0);

    /* Noise: floor with single samples, else the widest spread of the epoch. */
    CHECK(thesis_init(&m, 2, true, -1));
    CHECK(mold_record(&m, cfg(2, false), 1.0, NULL));
    CHECK(mold_record(&m, cfg(1, false), 3.0, NULL));
    CHECK(mold_noise(&m) == MOLD_NOISE_FLOOR);
    CHECK(mold_record(&m, cfg(2, false), 1.02, NULL)); /* spread 0.02 / 2.02: under the floor */
    CHECK(mold_noise(&m) == MOLD_NOISE_FLOOR);
    CHECK(mold_record(&m, cfg(1, false), 3.6, NULL)); /* spread 0.6 / 6.6 */
    CHECK(mold_noise(&m) > 0.6 / 6.6 - 1e-12 && mold_noise(&m) < 0.6 / 6.6 + 1e-12);
    mold_free(&m);
}

/* Bounded exploration: every group-leaving run of the search has a
 * cut-off, at the best median times 1 + max(noise, margin), a re-sample
 * as a first run. */
static void test_cutoff(void)
{
    struct mold m;
    CHECK(thesis_init(&m, 4, false, -1));
    CHECK(mold_cutoff(&m) == 0); /* all groups first: nothing to compare with */
    CHECK(mold_record(&m, cfg(4, false), 1.0, NULL));
    CHECK(is(mold_next(&m), 2, false));
    double c = mold_cutoff(&m);
    CHECK(c > 1.0 * (1 + MOLD_CUTOFF_MARGIN) - 1e-12 && c < 1.0 * (1 + MOLD_CUTOFF_MARGIN) + 1e-12,
          "cut-off %g", c);
    /* A run cut short took longer than that: it lost, cooldown on 4 groups. */
    CHECK(mold_record(&m, cfg(2, false), c + 0.01, NULL));
    CHECK(is(mold_next(&m), 4, false) && mold_cutoff(&m) == 0);
    mold_free(&m);
    /* A noisier loop gets a wider bound. */
    CHECK(thesis_init(&m, 4, false, -1));
    CHECK(mold_record(&m, cfg(4, false), 1.0, NULL));
    CHECK(mold_record(&m, cfg(4, false), 1.8, NULL)); /* spread 0.8 / (2 * 1.4) = 0.286 */
    c = mold_cutoff(&m);
    CHECK(c > 1.4 * 1.28 && c < 1.4 * 1.29, "cut-off %g", c);
    mold_free(&m);
    /* A re-sample of a configuration tied with the best has one too. */
    CHECK(thesis_init(&m, 2, false, -1));
    CHECK(mold_record(&m, cfg(2, false), 1.0, NULL));
    CHECK(mold_record(&m, cfg(2, false), 1.8, NULL)); /* noise 0.286 */
    CHECK(is(mold_next(&m), 1, false) && mold_cutoff(&m) > 0);
    CHECK(mold_record(&m, cfg(1, false), 1.5, NULL)); /* lost, within the noise */
    for (int i = 0; i < 10 && !is(mold_next(&m), 1, false) && m.phase == MOLD_SIZE; i++)
        CHECK(mold_record(&m, mold_next(&m), 1.4, NULL));
    CHECK(is(mold_next(&m), 1, false), "the tie was not re-sampled");
    c = mold_cutoff(&m);
    CHECK(c > 1.4 * 1.28 && c < 1.4 * 1.29, "re-sample cut-off %g", c);
    mold_free(&m);
    /* Settled, fixed, and one group: never. */
    CHECK(thesis_init(&m, 2, true, -1));
    CHECK(mold_record(&m, cfg(2, false), 1.0, NULL) && mold_cutoff(&m) == 0);
    mold_free(&m);
    CHECK(thesis_init(&m, 1, false, -1));
    CHECK(mold_cutoff(&m) == 0);
    mold_free(&m);
    CHECK(thesis_init(&m, 2, false, -1));
    CHECK(mold_record(&m, cfg(2, false), 1.0, NULL) && mold_cutoff(&m) > 0);
    CHECK(mold_record(&m, cfg(1, false), 0.5, NULL));
    for (int i = 0; i < 10 && m.phase != MOLD_SETTLED; i++)
        CHECK(mold_record(&m, mold_next(&m), 0.5, NULL));
    CHECK(m.phase == MOLD_SETTLED && mold_cutoff(&m) == 0);
    mold_free(&m);
}

/* The early cut-off: a run's pace, once an eighth of its tasks are done,
 * projects its time; past the cut-off it is opened now. */
static void test_projects_past(void)
{
    double p = 0;
    /* 16 tasks on one thread, 2 done after 2 ms: 2.5 done counting the one
     * in progress, 12.8 ms projected, past a 10 ms cut-off. */
    CHECK(mold_projects_past(0.002, 2, 16, 1, 0.010, &p) && p > 0.0128 - 1e-12 && p < 0.0128 + 1e-12,
          "projected %g", p);
    /* The same pace, but a 20 ms cut-off: not past it. */
    CHECK(!mold_projects_past(0.002, 2, 16, 1, 0.020, &p));
    /* Too few tasks done to tell: 1 of 16 (and 2 of 32, under an eighth). */
    CHECK(!mold_projects_past(0.002, 1, 16, 1, 0.010, &p));
    CHECK(!mold_projects_past(0.002, 2, 32, 1, 0.010, &p));
    CHECK(mold_projects_past(0.004, 4, 32, 2, 0.010, &p) && p > 0.0256 - 1e-12 && p < 0.0256 + 1e-12);
    /* A run with every task done has nothing left to open. */
    CHECK(!mold_projects_past(0.020, 16, 16, 1, 0.010, &p));
    /* Exactly at the cut-off: not past it. */
    CHECK(!mold_projects_past(0.25, 6, 16, 4, 0.5, &p));
    /* Waves: 8 threads, 80 tasks of 0.46 ms each (a 4.6 ms run). At 0.89 ms
     * the second wave is nearly done but 10 tasks are: 80 x 0.89 / 10 =
     * 7.1 ms would open it under a 6.8 ms cut-off; counting the 8 in
     * progress as half done gives 5.1 ms, and it runs on. */
    CHECK(!mold_projects_past(0.00089, 10, 80, 8, 0.0068, &p), "projected %g", p);
    /* ...while a run truly past it still opens: 4 of 32 done at 1.2 ms on 2 threads. */
    CHECK(mold_projects_past(0.0012, 4, 32, 2, 0.0068, &p) && p > 0.00768 - 1e-12 &&
          p < 0.00768 + 1e-12, "projected %g", p);
}

/* The default warmup: all groups MOLD_WARMUP times before half, so a loop
 * run only that often runs no exploratory configuration at all. */
static void test_warmup(void)
{
    static const double fewer[] = {0, 2.0, 1.5, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    struct script s = {0};
    struct trace tr = {0};
    set_sizes(&s, false, fewer, 8);
    struct mold m;
    CHECK(mold_init(&m, 8, false, -1) && m.warmup == MOLD_WARMUP);
    for (unsigned i = 0; i < MOLD_WARMUP; i++) {
        CHECK(is(mold_next(&m), 8, false) && mold_cutoff(&m) == 0);
        drive(&m, &s, &tr, 1);
    }
    CHECK(is(mold_next(&m), 4, false) && mold_cutoff(&m) > 0);
    drive(&m, &s, &tr, 1);
    /* The same search as with one warmup run: 8, 4, 1, ... */
    CHECK(is(mold_next(&m), 1, false));
    s.time[1][3] = 1.2; /* full stealing loses the steal trial */
    explore(&m, &s, &tr, 200);
    CHECK(m.phase == MOLD_SETTLED && is(m.chosen, 3, false));
    mold_free(&m);
}

/* (h) Exploration ends: a loop whose configurations stay tied and noisy
 * settles within MOLD_EPOCH_RUNS runs on the fastest measured, and the
 * settled choice is never slower than the fastest tried by more than the
 * noise. */
static void test_budget(void)
{
    unsigned long long rng = 99;
    for (unsigned trial = 0; trial < 500; trial++) {
        struct mold m;
        unsigned G = 2 + trial % 15;
        CHECK(mold_init(&m, G, false, -1));
        unsigned runs = 0;
        while (m.phase != MOLD_SETTLED && runs < 1000) {
            struct mold_config c = mold_next(&m);
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            /* every configuration 1.0 with up to 40 % noise */
            double t = 1.0 + 0.4 * (double)(rng >> 11) / (double)(1ULL << 53);
            CHECK(mold_record(&m, c, t, NULL));
            runs++;
        }
        CHECK(m.phase == MOLD_SETTLED && runs <= MOLD_EPOCH_RUNS, "G=%u: %u runs", G, runs);
        double chosen = 0, fastest = 1e30;
        for (unsigned i = 0; i < m.nentries; i++) {
            double med = mold_entry_median(&m.entries[i]);
            if (med < fastest)
                fastest = med;
            if (is(m.entries[i].cfg, m.chosen.ngroups, m.chosen.full))
                chosen = med;
        }
        CHECK(chosen <= fastest * (1 + mold_noise(&m)) + 1e-12, "chosen %g, fastest %g", chosen,
              fastest);
        char why[200];
        mold_explain(&m, why, sizeof why);
        CHECK(strncmp(why, "settled", 7) == 0, "%s", why);
        mold_free(&m);
    }
}

/* (i) Too short to explore: all-groups runs below min_explore settle on
 * all groups after the warm-up, longer ones explore; the explanation says
 * which step an exploring loop is at. */
static void test_short(void)
{
    struct mold m;
    CHECK(mold_init(&m, 4, false, -1));
    m.min_explore = 30e-6;
    char why[200];
    mold_explain(&m, why, sizeof why);
    CHECK(strstr(why, "warming up") != NULL, "%s", why);
    for (unsigned i = 0; i < MOLD_WARMUP; i++)
        CHECK(mold_record(&m, mold_next(&m), 20e-6, NULL));
    CHECK(m.phase == MOLD_SETTLED && m.why == MOLD_WHY_SHORT && is(m.chosen, 4, false));
    mold_explain(&m, why, sizeof why);
    CHECK(strstr(why, "without exploring") != NULL, "%s", why);
    mold_free(&m);

    CHECK(mold_init(&m, 4, false, -1));
    m.min_explore = 30e-6;
    for (unsigned i = 0; i < MOLD_WARMUP; i++)
        CHECK(mold_record(&m, mold_next(&m), 40e-6, NULL));
    CHECK(m.phase == MOLD_SIZE && is(mold_next(&m), 2, false));
    mold_explain(&m, why, sizeof why);
    CHECK(strstr(why, "searching the number of groups, next 2") != NULL, "%s", why);
    mold_free(&m);

    CHECK(mold_init(&m, 4, true, -1));
    mold_explain(&m, why, sizeof why);
    CHECK(strncmp(why, "fixed", 5) == 0, "%s", why);
    mold_free(&m);
}

/* mold_set_additions(m, 0): the thesis's exploration alone. On the cooldown table
 * above it goes on at once after a losing run, settles on one sample per
 * size, with no confirmation, no cut-off, and no new exploration when
 * the runs drift. */
static void test_thesis_mode(void)
{
    static const double fewer[] = {0, 2.0, 1.5, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    struct script s = {0};
    struct trace tr = {0};
    set_sizes(&s, false, fewer, 8);
    set_sizes(&s, true, fewer, 8); /* full stealing no faster: strict is kept */
    struct mold m;
    CHECK(mold_init(&m, 8, false, -1));
    m.min_explore = 10; /* ignored: the thesis explores every loop */
    mold_set_additions(&m, 0);
    CHECK(m.warmup == 1 && m.min_explore == 0 && mold_cutoff(&m) == 0);
    drive(&m, &s, &tr, 3);
    CHECK(tr.nloss == 1 && m.cooldown == 0, "no cooldown after the loss");
    CHECK(mold_cutoff(&m) == 0);
    explore(&m, &s, &tr, 40);
    /* 8, 4, 1, then bisection between 4 and 1 (2, then 3), then the steal
     * trial of 3: each once. */
    static const int want[] = {8, 4, 1, 2, 3, F(3)};
    CHECK(runs_are(&tr, 0, want, 6), "ran %u configurations", tr.n);
    CHECK(m.phase == MOLD_SETTLED && is(m.chosen, 3, false));
    /* Drift: runs twice as slow, forever: no new exploration. */
    s.time[0][3] = 4.0;
    drive(&m, &s, &tr, 3 * MOLD_DRIFT_RUNS);
    CHECK(m.phase == MOLD_SETTLED && m.epoch == 1);
    mold_free(&m);
}

/* mold_set_additions with one part: each brings its own behaviour to the
 * thesis's exploration and nothing else. */
static void test_additions(void)
{
    static const double fewer[] = {0, 2.0, 1.5, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    struct script s = {0};
    struct trace tr = {0};
    set_sizes(&s, false, fewer, 8);
    set_sizes(&s, true, fewer, 8);
    struct mold m;

    /* Drift alone: the settled runs turn twice as slow, and after
     * MOLD_DRIFT_RUNS of them a new exploration starts; the search itself
     * is the thesis's (one sample per size, no cooldown, no cut-off). */
    CHECK(mold_init(&m, 8, false, -1));
    mold_set_additions(&m, MOLD_ADD_DRIFT);
    CHECK(m.warmup == 1 && mold_cutoff(&m) == 0);
    explore(&m, &s, &tr, 40);
    static const int want[] = {8, 4, 1, 2, 3, F(3)};
    CHECK(runs_are(&tr, 0, want, 6) && tr.n == 6, "ran %u configurations", tr.n);
    CHECK(m.phase == MOLD_SETTLED && is(m.chosen, 3, false) && m.recheck_in == 0);
    s.time[0][3] = 4.0;
    drive(&m, &s, &tr, MOLD_DRIFT_RUNS);
    CHECK(m.phase == MOLD_SIZE && m.epoch == 2);
    mold_free(&m);

    /* Re-sampling alone: two sizes 1 % apart are tied, so each is run
     * MOLD_RESAMPLES times before the search decides; no drift. */
    static const double close[] = {0, 2.0, 1.01, 1.0, 1.3, 1.6, 1.9, 2.2, 2.5};
    memset(&s, 0, sizeof s);
    memset(&tr, 0, sizeof tr);
    set_sizes(&s, false, close, 8);
    set_sizes(&s, true, close, 8);
    CHECK(mold_init(&m, 8, false, -1));
    mold_set_additions(&m, MOLD_ADD_RESAMPLE);
    explore(&m, &s, &tr, 60);
    CHECK(s.runs[0][2] == MOLD_RESAMPLES && s.runs[0][3] == MOLD_RESAMPLES, "2: %u, 3: %u",
          s.runs[0][2], s.runs[0][3]);
    CHECK(m.phase == MOLD_SETTLED && is(m.chosen, 3, false));
    s.time[0][3] = 4.0;
    drive(&m, &s, &tr, 3 * MOLD_DRIFT_RUNS);
    CHECK(m.phase == MOLD_SETTLED && m.epoch == 1);
    mold_free(&m);

    /* All of them: what mold_init gives. */
    CHECK(mold_init(&m, 8, false, -1));
    CHECK(m.additions == MOLD_ADD_ALL && m.warmup == MOLD_WARMUP);
    mold_set_additions(&m, MOLD_ADD_ALL);
    CHECK(m.additions == MOLD_ADD_ALL && m.warmup == MOLD_WARMUP);
    mold_free(&m);
}

int main(void)
{
    test_thesis_mode();
    test_additions();
    test_warmup();
    test_cutoff();
    test_projects_past();
    test_fewer_groups();
    test_phases();
    test_all_groups();
    test_small_teams();
    test_noisy_ties();
    test_cooldown();
    test_random_tables();
    test_drift();
    test_recheck();
    test_groups();
    test_unasked();
    test_forced_and_fixed();
    test_samples();
    test_budget();
    test_short();
    return unit_report();
}
