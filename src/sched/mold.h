/* mold.h — the moldability policy of the ILAN taskloop scheduler: which configuration a taskloop runs next, learned from its measured times. */
#ifndef ILAN_SCHED_MOLD_H
#define ILAN_SCHED_MOLD_H

#include <stdbool.h>

/*
 * Pure decision logic (no threads, no clocks, no atomics): the caller keeps
 * one `struct mold` per taskloop identity, asks mold_next() what to run,
 * runs it, and hands the measured times to mold_record(). The caller
 * serializes calls on one struct mold.
 *
 * The unit of every decision is a locality *group* (a NUMA node, else a
 * last-level cache, else a core); a team spreads over G groups numbered
 * 0..G-1. A configuration is {number of groups, steal policy}; WHICH groups
 * a configuration of k < G groups uses is the k fastest groups of the
 * latest all-groups run of the current exploration (ties: lower id first),
 * see mold_groups().
 *
 * Exploration (seed 000, section 4.2.1), per exploration "epoch":
 *   1. all G groups, strict stealing, MOLD_WARMUP times (past the thesis,
 *      which runs it once);
 *   2. half: max(1, G / 2) groups (skipped when equal to G);
 *   3. when half beat all: the minimum, 1 group (skipped if measured);
 *   4. bisection: let f be the fastest measured size, and s the faster of
 *      f's nearest measured sizes below and above it; when |f - s| <= 1 the
 *      size search ends with f; else the next size is (f + s) / 2;
 *   5. with the chosen size k >= 2 and no forced policy: one run with
 *      `full` stealing; the faster of {k, strict} and {k, full} is chosen.
 *      (k == 1 or a forced policy: no steal trial.)
 *   6. settled: the chosen configuration runs from then on.
 * "Faster" compares medians of a configuration's samples in this epoch.
 *
 * Past the thesis:
 *   - Noise: a configuration's relative spread is (max - min) / (2 * median)
 *     of its kept samples (0 with one sample); the loop's noise is the
 *     largest spread of any configuration of the epoch, and never below
 *     MOLD_NOISE_FLOOR. Two medians a, b are *tied* when
 *     |a - b| <= noise * min(a, b).
 *   - Re-sampling: before any decision that compares two configurations
 *     (the bisection's f against s, the steal trial's strict against full),
 *     if the two are tied and either has fewer than MOLD_RESAMPLES samples
 *     in this epoch, the next run repeats the one with fewer samples (f, or
 *     strict, on equal counts) instead of deciding.
 *   - Cooldown: an exploratory run of a configuration measured for the
 *     first time that is slower than the best median so far and not tied
 *     with it "lost"; the next MOLD_COOLDOWN runs then use the best
 *     configuration so far (they add samples to it) before exploration
 *     goes on. A taskloop run fewer than 3 + MOLD_COOLDOWN times thus pays
 *     for at most one losing exploratory run.
 *   - Drift: once settled, a run slower than MOLD_DRIFT times the chosen
 *     configuration's median at settling counts as drifted, any other run
 *     resets the count; MOLD_DRIFT_RUNS drifted runs in a row start a new
 *     exploration (a new epoch, samples of older epochs no longer count),
 *     at most MOLD_MAX_EXPLORATIONS explorations in all; past that the
 *     choice stays.
 *   - Fixed: a mold made with `fixed` (the `numa` mode) always answers
 *     {G, forced policy or strict} and records samples only for the report.
 *   - Too short to explore: once the all-groups configuration has its
 *     MOLD_WARMUP samples, a loop whose median is below m->min_explore
 *     seconds settles on it without exploring (MOLD_WHY_SHORT): below that
 *     the run-to-run noise hides any gain and a losing run costs more
 *     than a winning one saves.
 *   - Exploration ends: an epoch that has recorded MOLD_EPOCH_RUNS runs of
 *     what mold_next asked settles on the fastest configuration measured in
 *     it (MOLD_WHY_BUDGET).
 *   - A choice never loses to what was tried: whatever an epoch settles on,
 *     when its median is slower than the fastest measured configuration of
 *     the epoch by more than the noise, the fastest is chosen instead.
 *   - Confirmation: the search's choice of fewer groups than all is
 *     checked against one fresh run of all groups (MOLD_CONFIRM) before it
 *     settles, since the all-groups samples are the epoch's oldest (taken
 *     while caches, pages and threads were still warming up): when that run
 *     beats the choice's median by more than the noise, all groups are
 *     chosen instead (overruled).
 *   - Re-check: a settled choice of fewer groups than all runs all groups
 *     once after MOLD_RECHECK_FIRST settled runs, and again after twice
 *     as many each time the choice holds (at most MOLD_RECHECK_MAX apart);
 *     after MOLD_RECHECK_SURE runs instead when every all-groups run of the
 *     epoch was slower than the choice's median by more than the noise
 *     (a loop that one group runs faster, as under contention, pays for
 *     few re-checks: 2 of its 30 runs cost the contention kernel 3.5 %).
 *     When that run beats the choice's current median by more than the
 *     choice's own spread (at least MOLD_NOISE_FLOOR), all groups are
 *     chosen. Why: when a CPU is taken by something else while a loop
 *     explores (a VM's vCPU held by its host for milliseconds), every
 *     all-groups run of the epoch, the confirmation's too, is as slow as
 *     one group, and nothing else would ever run all groups again: on the
 *     2-vCPU VM, 4 of 16 runs of spmv (100 taskloops) settled on one
 *     thread and took 44-50 ms instead of 22-25; with re-checks, 3 of 16
 *     went back to both threads (26-31 ms) and 1 stayed on one, its
 *     re-checks as slow as its choice all along.
 */

/* Runs of all groups before the first exploratory run of an epoch: a loop
 * run only that often never pays for exploration, and the noise of the
 * default configuration is measured before anything is compared with it. */
#define MOLD_WARMUP 3u
/* Minimum relative noise assumed between two runs of one configuration. */
#define MOLD_NOISE_FLOOR 0.03
/* Most samples a configuration gets in one epoch through re-sampling. */
#define MOLD_RESAMPLES 3u
/* Runs of the best configuration after a losing exploratory run. */
#define MOLD_COOLDOWN 4u
/* A settled run this many times slower than the chosen median drifted... */
#define MOLD_DRIFT 1.5
/* ...and this many drifted runs in a row trigger a new exploration. */
#define MOLD_DRIFT_RUNS 5u
/* Explorations (epochs) a taskloop may start in all. */
#define MOLD_MAX_EXPLORATIONS 3u
/* An exploratory run may be cut short once it has taken this much longer
 * than the best configuration so far (see mold_cutoff). */
#define MOLD_CUTOFF_MARGIN 0.05
/* ...or sooner, once this share of its tasks is done and their pace
 * projects it past that bound (mold_projects_past). */
#define MOLD_PROJECT_SHARE 0.125
/* Runs of an epoch after which it settles, whatever the search says. */
#define MOLD_EPOCH_RUNS 24u
/* Settled runs of a choice of fewer groups before its first re-check of
 * all groups, and the most between two re-checks. */
#define MOLD_RECHECK_FIRST 8u
#define MOLD_RECHECK_SURE 64u
#define MOLD_RECHECK_MAX 1024u
/* Samples kept per configuration (the latest ones). */
#define MOLD_KEEP 16u

/* One configuration of a taskloop. */
struct mold_config {
    unsigned ngroups; /* groups taking part, 1..G */
    bool full;        /* tasks past each group's strict part may be stolen across groups */
};

/* Where exploration stands. */
enum mold_phase {
    MOLD_SIZE,    /* searching the number of groups */
    MOLD_STEAL,   /* size chosen; trying full stealing */
    MOLD_CONFIRM, /* a choice of fewer groups than all: one fresh run of all groups first */
    MOLD_SETTLED, /* the chosen configuration runs */
    MOLD_FIXED,   /* never explores (numa mode) */
};

/* Why a taskloop settled (MOLD_SETTLED), for the report. */
enum mold_why {
    MOLD_WHY_NONE,     /* not settled */
    MOLD_WHY_ONLY,     /* one group: nothing to choose from */
    MOLD_WHY_SEARCH,   /* the search (and the steal trial) ended */
    MOLD_WHY_SHORT,    /* runs too short to explore (min_explore) */
    MOLD_WHY_BUDGET,   /* the epoch's MOLD_EPOCH_RUNS runs were spent */
};

/* The samples of one configuration in one epoch. */
struct mold_entry {
    struct mold_config cfg; /* the configuration */
    unsigned epoch;         /* exploration it was measured in (1-based) */
    unsigned count;         /* samples recorded in all (times[] keeps the last MOLD_KEEP) */
    double times[MOLD_KEEP]; /* ring of the latest taskloop times, seconds */
    double *group_times;    /* [G] per group id, latest sample; < 0: group not taking part */
};

/* Everything the policy knows about one taskloop identity. */
struct mold {
    unsigned ngroups;          /* G: groups of the team (>= 1) */
    unsigned warmup;           /* all-groups runs before exploring on (MOLD_WARMUP; 1 is
                                  the thesis's rule) */
    int forced_steal;          /* -1: explore; 0: always strict; 1: always full */
    enum mold_phase phase;     /* where exploration stands */
    unsigned epoch;            /* current exploration, 1-based (0 for fixed) */
    unsigned executions;       /* samples recorded in all */
    struct mold_entry *entries; /* every configuration measured, in first-use order */
    unsigned nentries;         /* entries used */
    unsigned cap;              /* entries allocated */
    unsigned *rank;            /* [G] group ids, fastest first (see mold_groups) */
    bool ranked;               /* rank[] comes from an all-groups run of this epoch */
    unsigned cooldown;         /* runs of the best configuration owed before exploring on */
    struct mold_config next;   /* what mold_next() answers; mold_record() sets it */
    struct mold_config chosen; /* the choice (MOLD_SETTLED); during MOLD_STEAL the size on trial, strict */
    double chosen_median;      /* its median when it was chosen, seconds */
    unsigned drifted;          /* consecutive drifted runs (settled) */
    double min_explore;        /* seconds: an all-groups median below it is not explored
                                  (0 by mold_init: explore everything) */
    unsigned epoch_runs;       /* runs of what mold_next asked, in this epoch */
    enum mold_why why;         /* why it settled */
    bool overruled;            /* the settled choice replaced the search's, which was slower
                                  than the fastest measured by more than the noise */
    unsigned recheck_gap;      /* settled: runs between two re-checks of all groups (0: the
                                  choice is all groups, or the thesis: none) */
    unsigned recheck_in;       /* settled: runs left before the next re-check */
    bool rechecking;           /* settled: the next run is a re-check of all groups */
    bool recheck_won;          /* settled on all groups because they won a re-check */
    unsigned additions;        /* which of ilan's additions to the thesis apply
                                  (enum mold_addition; MOLD_ADD_ALL by mold_init) */
};

/* ilan's additions to the thesis's exploration, listed above "Past the
 * thesis", in three parts a mold may leave out (mold_set_additions), so
 * the simulator can show what each changes. */
enum mold_addition {
    MOLD_ADD_RESAMPLE = 1u << 0, /* re-sampling of tied configurations */
    MOLD_ADD_DRIFT = 1u << 1,    /* drifted runs start a new exploration */
    MOLD_ADD_GUARDS = 1u << 2,   /* the rest: MOLD_WARMUP warm-up runs, cooldown, cut-off,
                                    epoch budget, a choice never slower than the fastest,
                                    confirmation, re-checks, too short to explore */
    MOLD_ADD_ALL = MOLD_ADD_RESAMPLE | MOLD_ADD_DRIFT | MOLD_ADD_GUARDS,
};

/* Prepares m for a team of `ngroups` groups (>= 1), with warmup
 * MOLD_WARMUP. `fixed`: the numa mode.
 * forced_steal: -1, 0 (strict) or 1 (full). False when out of memory. */
bool mold_init(struct mold *m, unsigned ngroups, bool fixed, int forced_steal);

/* Frees what m holds. */
void mold_free(struct mold *m);

/* Makes a freshly initialized, exploring m apply only the `additions`
 * (enum mold_addition) to the thesis's exploration (seed 000, 4.2.1);
 * 0 is the thesis's alone: one sample per configuration, one
 * exploration whatever the runs do later, and without the guards one
 * all-groups run before exploring, no cooldown, confirmation, correction
 * of a choice slower than the fastest measured, cut-off, budget or
 * re-check, and every loop explored whatever its length. The
 * simulator's `thesis` policy and its ablations. */
void mold_set_additions(struct mold *m, unsigned additions);

/* The configuration the next execution should run. */
struct mold_config mold_next(const struct mold *m);

/* Whether mold_record makes any use of the group times of a run of cfg:
 * not for a settled run of the chosen configuration (not a recheck),
 * whose group times would only re-rank the groups, and the ranks are
 * read again only in a new exploration, whose first run on every group
 * ranks them afresh. The caller may then skip measuring them. */
bool mold_wants_group_times(const struct mold *m, struct mold_config cfg);

/* Records one execution of `cfg` (normally what mold_next answered; any
 * configuration is accepted): `time` is the taskloop's time in seconds,
 * group_times[g] the time of group g (< 0 when g did not take part), G
 * entries, or NULL. Advances the exploration. False when out of memory
 * (the sample is dropped; m stays consistent). */
bool mold_record(struct mold *m, struct mold_config cfg, double time, const double *group_times);

/* Bounded exploration (past the thesis): how long the next run may take
 * before the groups it leaves out may help finish it, in seconds; 0: no
 * bound. Every run of the search (size or steal trial) that leaves groups
 * out has one, its first measurement as its re-samples: the best median
 * so far times 1 + max(noise, MOLD_CUTOFF_MARGIN). A run cut short is
 * recorded with the time it took all the same, which is past the bound,
 * so it loses: the cost of a losing exploratory run is bounded by the
 * margin instead of the configuration's own slowness. (A re-sample, run
 * when one slow run of all groups had widened the noise until a
 * one-group configuration twice as slow looked tied, once took its whole
 * time: 53 ms against 29.) A run whose pace projects it past the bound
 * sooner is opened then (mold_projects_past). */
double mold_cutoff(const struct mold *m);

/*
 * The early cut-off: whether a run with a cut-off of cutoff_s seconds,
 * elapsed_s into it with `done` of its `total` tasks complete and
 * `workers` threads running them, is already bound to pass it: its pace
 * so far, total * elapsed_s / (done + workers / 2), exceeds cutoff_s. The
 * workers / 2 counts the tasks in progress as half done on average:
 * without it, threads that finish their tasks in waves (the same work
 * each, started together) looked almost twice as slow just before a
 * wave ended, and a configuration faster than the best was opened and
 * recorded as a loss (seen in the simulator: 8 threads, 10 tasks each,
 * opened at 10 done with 7.2 ms projected for a 4.6 ms run). Decided only
 * once at least MOLD_PROJECT_SHARE of the tasks (and two) are done: the
 * first tasks' pace is mostly their start. When true, *projected_s is
 * that pace's time, which such a run is recorded with: helped by every
 * thread it ends sooner, and its own time would understate what the
 * configuration costs.
 * Why: a run cut at the fixed bound has done about bound / own time of
 * its work alone, so a configuration twice as slow as the best still
 * cost half a run (a sweep over 1,024 lines on one of two cores took
 * 11.9 ms against 7.5 for both, once in its 20 runs: 3 % of the program).
 */
bool mold_projects_past(double elapsed_s, unsigned long done, unsigned long total,
                        unsigned workers, double cutoff_s, double *projected_s);

/* Writes the ids of the groups `cfg` uses to out[0..cfg.ngroups-1] in
 * increasing order; returns cfg.ngroups. All groups when k == G or before
 * any all-groups run of the epoch ranked them (then the k lowest ids). */
unsigned mold_groups(const struct mold *m, struct mold_config cfg, unsigned *out);

/* Writes one line saying where the taskloop's exploration stands and why
 * (still exploring: which step and what it waits for; settled: why) into
 * buf (size bytes, NUL-terminated). */
void mold_explain(const struct mold *m, char *buf, unsigned long size);

/* The loop's current noise estimate (>= MOLD_NOISE_FLOOR). */
double mold_noise(const struct mold *m);

/* Median of an entry's kept samples (0 when none). */
double mold_entry_median(const struct mold_entry *e);

#endif
