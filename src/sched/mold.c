/* mold.c — the moldability policy: which configuration a taskloop runs next (pure, see mold.h). */
#include "sched/mold.h"

#include "sched/samples.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_unsigned(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

static bool same_config(struct mold_config a, struct mold_config b)
{
    return a.ngroups == b.ngroups && a.full == b.full;
}

/* The policy the size search measures: strict, or the forced one. */
static bool size_policy(const struct mold *m)
{
    return m->forced_steal == 1;
}

/* The size search's configuration of k groups. */
static struct mold_config sized(const struct mold *m, unsigned k)
{
    return (struct mold_config){k, size_policy(m)};
}

static unsigned kept(const struct mold_entry *e)
{
    return e->count < MOLD_KEEP ? e->count : MOLD_KEEP;
}

double mold_entry_median(const struct mold_entry *e)
{
    return samples_median(e->times, kept(e));
}

/* (max - min) / (2 * median) of the kept samples; 0 with fewer than two. */
static double spread(const struct mold_entry *e)
{
    return samples_spread(e->times, kept(e));
}

double mold_noise(const struct mold *m)
{
    double noise = MOLD_NOISE_FLOOR;
    for (unsigned i = 0; i < m->nentries; i++) {
        if (m->entries[i].epoch != m->epoch)
            continue;
        double s = spread(&m->entries[i]);
        if (s > noise)
            noise = s;
    }
    return noise;
}

/* Whether ilan's guards past the thesis apply (MOLD_ADD_GUARDS). */
static bool guarded(const struct mold *m)
{
    return m->additions & MOLD_ADD_GUARDS;
}

static bool tied(const struct mold *m, double a, double b)
{
    double lo = a < b ? a : b;
    return (a > b ? a - b : b - a) <= mold_noise(m) * lo;
}

/* cfg's entry in the current epoch, or NULL. */
static struct mold_entry *entry_find(const struct mold *m, struct mold_config cfg)
{
    for (unsigned i = 0; i < m->nentries; i++)
        if (m->entries[i].epoch == m->epoch && same_config(m->entries[i].cfg, cfg))
            return &m->entries[i];
    return NULL;
}

/* A new, empty entry for cfg in the current epoch; NULL when out of memory
 * (m unchanged). May move every entry. */
static struct mold_entry *entry_add(struct mold *m, struct mold_config cfg)
{
    double *group_times = malloc(m->ngroups * sizeof *group_times);
    if (!group_times)
        return NULL;
    if (m->nentries == m->cap) {
        unsigned cap = m->cap ? 2 * m->cap : 8;
        struct mold_entry *grown = realloc(m->entries, cap * sizeof *grown);
        if (!grown) {
            free(group_times);
            return NULL;
        }
        m->entries = grown;
        m->cap = cap;
    }
    for (unsigned g = 0; g < m->ngroups; g++)
        group_times[g] = -1;
    struct mold_entry *e = &m->entries[m->nentries++];
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->epoch = m->epoch;
    e->group_times = group_times;
    return e;
}

/* The fastest configuration of the size search measured in this epoch
 * (ties: fewer groups); NULL before any. */
static const struct mold_entry *best_entry(const struct mold *m)
{
    const struct mold_entry *best = NULL;
    double best_med = 0;
    for (unsigned i = 0; i < m->nentries; i++) {
        const struct mold_entry *e = &m->entries[i];
        if (e->epoch != m->epoch || e->cfg.full != size_policy(m))
            continue;
        double med = mold_entry_median(e);
        if (!best || med < best_med || (med == best_med && e->cfg.ngroups < best->cfg.ngroups)) {
            best = e;
            best_med = med;
        }
    }
    return best;
}

/* The bisection's bracket: *f the fastest measured size (ties: the smaller),
 * *s the faster of f's nearest measured sizes below and above (ties: below).
 * Needs at least two measured sizes. */
static void bracket(const struct mold *m, unsigned *f, unsigned *s)
{
    *f = best_entry(m)->cfg.ngroups;
    unsigned below = 0, above = 0; /* 0: none */
    for (unsigned i = 0; i < m->nentries; i++) {
        const struct mold_entry *e = &m->entries[i];
        if (e->epoch != m->epoch || e->cfg.full != size_policy(m))
            continue;
        unsigned k = e->cfg.ngroups;
        if (k < *f && k > below)
            below = k;
        if (k > *f && (above == 0 || k < above))
            above = k;
    }
    if (!below || !above)
        *s = below ? below : above;
    else
        *s = mold_entry_median(entry_find(m, sized(m, above))) <
                     mold_entry_median(entry_find(m, sized(m, below)))
                 ? above
                 : below;
}

/* Whether a and b are too close to tell apart on their samples so far; then
 * *again is the one to run once more (fewer samples; a on equal counts). */
static bool resample(const struct mold *m, const struct mold_entry *a, const struct mold_entry *b,
                     struct mold_config *again)
{
    if (!tied(m, mold_entry_median(a), mold_entry_median(b)))
        return false;
    if (!(m->additions & MOLD_ADD_RESAMPLE) ||
        (a->count >= MOLD_RESAMPLES && b->count >= MOLD_RESAMPLES))
        return false;
    *again = b->count < a->count ? b->cfg : a->cfg;
    return true;
}

/* One step of the size search. While it goes on: false, and m->next is set;
 * when it ends: true, and *k is the chosen number of groups. */
static bool size_step(struct mold *m, unsigned *k)
{
    unsigned G = m->ngroups, half = G / 2 ? G / 2 : 1;
    const struct mold_entry *all = entry_find(m, sized(m, G)), *h = entry_find(m, sized(m, half));
    if (!all || all->count < m->warmup || !h) {
        m->next = sized(m, all && all->count >= m->warmup ? half : G);
        return false;
    }
    if (mold_entry_median(h) < mold_entry_median(all) && !entry_find(m, sized(m, 1))) {
        m->next = sized(m, 1);
        return false;
    }
    unsigned f, s;
    bracket(m, &f, &s);
    if (resample(m, entry_find(m, sized(m, f)), entry_find(m, sized(m, s)), &m->next))
        return false;
    if ((f > s ? f - s : s - f) <= 1) {
        *k = f;
        return true;
    }
    m->next = sized(m, (f + s) / 2);
    return false;
}

/* The fastest configuration measured in this epoch, any policy (ties: the
 * first measured); NULL before any. */
static const struct mold_entry *fastest_entry(const struct mold *m)
{
    const struct mold_entry *best = NULL;
    double best_med = 0;
    for (unsigned i = 0; i < m->nentries; i++) {
        const struct mold_entry *e = &m->entries[i];
        if (e->epoch != m->epoch || e->count == 0)
            continue;
        double med = mold_entry_median(e);
        if (!best || med < best_med) {
            best = e;
            best_med = med;
        }
    }
    return best;
}

/* Settled runs of a choice of fewer groups (m->chosen, chosen_median set)
 * before its first re-check: MOLD_RECHECK_SURE when every all-groups run
 * of the epoch lost to it by more than the noise, else MOLD_RECHECK_FIRST. */
static unsigned first_recheck(const struct mold *m)
{
    const struct mold_entry *all = entry_find(m, sized(m, m->ngroups));
    if (!all)
        return MOLD_RECHECK_FIRST;
    double fastest = all->times[0];
    for (unsigned i = 1; i < kept(all); i++)
        if (all->times[i] < fastest)
            fastest = all->times[i];
    return fastest > m->chosen_median * (1 + mold_noise(m)) ? MOLD_RECHECK_SURE
                                                             : MOLD_RECHECK_FIRST;
}

/* Settles on cfg, or on the fastest configuration of the epoch when cfg's
 * median is slower than it by more than the noise; a search's choice of
 * fewer groups than all is confirmed first (MOLD_CONFIRM) unless
 * `confirmed`. */
static void settle_as(struct mold *m, struct mold_config cfg, enum mold_why why, bool confirmed)
{
    const struct mold_entry *e = entry_find(m, cfg), *fast = fastest_entry(m);
    m->overruled = false;
    if (guarded(m) && e && fast && e != fast &&
        mold_entry_median(e) > mold_entry_median(fast) * (1 + mold_noise(m))) {
        cfg = fast->cfg;
        e = fast;
        m->overruled = true;
    }
    m->why = why;
    m->phase = MOLD_SETTLED;
    m->chosen = cfg;
    m->chosen_median = e ? mold_entry_median(e) : 0;
    m->next = cfg;
    m->cooldown = 0;
    m->drifted = 0;
    m->rechecking = false;
    m->recheck_won = false;
    m->recheck_gap = guarded(m) && cfg.ngroups < m->ngroups ? first_recheck(m) : 0;
    m->recheck_in = m->recheck_gap;
    if (!confirmed && guarded(m) && why == MOLD_WHY_SEARCH && cfg.ngroups < m->ngroups &&
        !m->overruled) {
        m->phase = MOLD_CONFIRM; /* the choice stays in m->chosen meanwhile */
        m->next = sized(m, m->ngroups);
    }
}

static void settle(struct mold *m, struct mold_config cfg, enum mold_why why)
{
    settle_as(m, cfg, why, false);
}

/* The fresh all-groups run of MOLD_CONFIRM took `time`: settle on the
 * choice, or on all groups when that run beat the choice's median by more
 * than the noise. */
static void confirm(struct mold *m, double time)
{
    bool all_wins = time * (1 + mold_noise(m)) < m->chosen_median;
    struct mold_config choice = all_wins ? sized(m, m->ngroups) : m->chosen;
    settle_as(m, choice, MOLD_WHY_SEARCH, true);
    m->overruled |= all_wins;
    if (all_wins) /* its median may hold the warm-up's slow runs: keep the fresh one */
        m->chosen_median = time;
}

/* The steal trial of the size in m->chosen: one full run, re-sampled while
 * tied, then the faster policy (ties: strict) is settled on. */
static void steal_step(struct mold *m)
{
    struct mold_config strict = {m->chosen.ngroups, false}, full = {m->chosen.ngroups, true};
    const struct mold_entry *es = entry_find(m, strict), *ef = entry_find(m, full);
    if (!ef) {
        m->next = full;
        return;
    }
    if (resample(m, es, ef, &m->next))
        return;
    settle(m, mold_entry_median(ef) < mold_entry_median(es) ? full : strict, MOLD_WHY_SEARCH);
}

/* Moves the exploration on from what this epoch has measured. */
static void advance(struct mold *m)
{
    if (m->phase == MOLD_SIZE) {
        unsigned k;
        if (!size_step(m, &k))
            return;
        if (k == 1 || m->forced_steal >= 0) {
            settle(m, sized(m, k), MOLD_WHY_SEARCH);
            return;
        }
        m->phase = MOLD_STEAL;
        m->chosen = (struct mold_config){k, false};
    }
    steal_step(m);
}

static void start_epoch(struct mold *m)
{
    m->epoch++;
    m->phase = MOLD_SIZE;
    m->ranked = false;
    m->cooldown = 0;
    m->drifted = 0;
    m->epoch_runs = 0;
    m->why = MOLD_WHY_NONE;
    m->next = sized(m, m->ngroups);
}

bool mold_init(struct mold *m, unsigned ngroups, bool fixed, int forced_steal)
{
    memset(m, 0, sizeof *m);
    if (ngroups == 0)
        return false;
    m->rank = malloc(ngroups * sizeof *m->rank);
    if (!m->rank)
        return false;
    for (unsigned g = 0; g < ngroups; g++)
        m->rank[g] = g;
    m->ngroups = ngroups;
    m->warmup = MOLD_WARMUP;
    m->additions = MOLD_ADD_ALL;
    m->forced_steal = forced_steal;
    if (fixed) {
        m->phase = MOLD_FIXED;
        m->next = sized(m, ngroups);
    } else if (ngroups == 1) {
        m->epoch = 1;
        settle(m, sized(m, 1), MOLD_WHY_ONLY); /* nothing to choose from */
    } else {
        start_epoch(m);
    }
    return true;
}

void mold_set_additions(struct mold *m, unsigned additions)
{
    m->additions = additions & MOLD_ADD_ALL;
    if (!guarded(m)) {
        m->warmup = 1;
        m->min_explore = 0;
    }
    if (m->phase == MOLD_SIZE)
        m->next = sized(m, m->ngroups);
}

void mold_free(struct mold *m)
{
    for (unsigned i = 0; i < m->nentries; i++)
        free(m->entries[i].group_times);
    free(m->entries);
    free(m->rank);
    memset(m, 0, sizeof *m);
}

struct mold_config mold_next(const struct mold *m)
{
    return m->next;
}

/* Whether group a ranks before group b: faster first, groups that did not take
 * part (negative time) last, ties by lower id. */
static bool ranks_before(const double *times, unsigned a, unsigned b)
{
    bool a_in = times[a] >= 0, b_in = times[b] >= 0;
    if (a_in != b_in)
        return a_in;
    if (a_in && times[a] != times[b])
        return times[a] < times[b];
    return a < b;
}

static void rank_groups(struct mold *m, const double *group_times)
{
    for (unsigned g = 0; g < m->ngroups; g++)
        m->rank[g] = g;
    for (unsigned i = 1; i < m->ngroups; i++) /* insertion sort: G is small */
        for (unsigned j = i; j > 0 && ranks_before(group_times, m->rank[j], m->rank[j - 1]); j--) {
            unsigned t = m->rank[j];
            m->rank[j] = m->rank[j - 1];
            m->rank[j - 1] = t;
        }
    m->ranked = true;
}

/* A settled run: counts drift against the median at settling. */
static void watch_drift(struct mold *m, double time)
{
    /* One group: a new exploration could only choose the same; the
     * thesis explores once. */
    if (m->ngroups == 1 || !(m->additions & MOLD_ADD_DRIFT))
        return;
    if (!samples_drift(&m->drifted, time, MOLD_DRIFT * m->chosen_median, MOLD_DRIFT_RUNS))
        return;
    if (m->epoch < MOLD_MAX_EXPLORATIONS)
        start_epoch(m);
}

/* The re-check's run of all groups took `time`: all groups are chosen when
 * it beat the choice's current median by more than the choice's spread,
 * else the choice stays until a re-check twice as far. */
static void recheck(struct mold *m, double time)
{
    const struct mold_entry *e = entry_find(m, m->chosen);
    double median = e ? mold_entry_median(e) : m->chosen_median;
    double noise = e ? spread(e) : 0;
    if (noise < MOLD_NOISE_FLOOR)
        noise = MOLD_NOISE_FLOOR;
    m->rechecking = false;
    if (time * (1 + noise) < median) {
        /* Not settle_as: the epoch's all-groups median may hold the runs
         * that made the choice, which settle_as would go back to. */
        m->chosen = sized(m, m->ngroups);
        m->chosen_median = time;
        m->drifted = 0;
        m->recheck_gap = m->recheck_in = 0;
        m->recheck_won = true;
    } else {
        m->recheck_gap =
            m->recheck_gap >= MOLD_RECHECK_MAX / 2 ? MOLD_RECHECK_MAX : 2 * m->recheck_gap;
        m->recheck_in = m->recheck_gap;
    }
    m->next = m->chosen;
}

bool mold_wants_group_times(const struct mold *m, struct mold_config cfg)
{
    return m->phase != MOLD_SETTLED || m->rechecking || !same_config(cfg, m->next);
}

bool mold_record(struct mold *m, struct mold_config cfg, double time, const double *group_times)
{
    struct mold_entry *e = entry_find(m, cfg);
    if (!e && !(e = entry_add(m, cfg)))
        return false;
    e->times[e->count % MOLD_KEEP] = time;
    e->count++;
    m->executions++;
    if (group_times) {
        memcpy(e->group_times, group_times, m->ngroups * sizeof *group_times);
        if (cfg.ngroups == m->ngroups)
            rank_groups(m, group_times);
    }

    /* A run of anything but what was asked is data, not a step. */
    if (m->phase == MOLD_FIXED || !same_config(cfg, m->next))
        return true;
    if (m->phase == MOLD_SETTLED) {
        if (m->rechecking) {
            recheck(m, time);
            return true;
        }
        watch_drift(m, time);
        if (m->phase == MOLD_SETTLED && m->recheck_in && --m->recheck_in == 0) {
            m->rechecking = true;
            m->next = sized(m, m->ngroups);
        }
        return true;
    }
    m->epoch_runs++;
    const struct mold_entry *all = entry_find(m, sized(m, m->ngroups));
    if (m->phase == MOLD_SIZE && all && all->count >= m->warmup && m->epoch_runs == all->count &&
        mold_entry_median(all) < m->min_explore) {
        settle(m, all->cfg, MOLD_WHY_SHORT); /* only warm-up runs so far */
        return true;
    }
    if (m->phase == MOLD_CONFIRM) {
        confirm(m, time);
        return true;
    }
    if (m->epoch_runs >= MOLD_EPOCH_RUNS && guarded(m)) {
        const struct mold_entry *fast = fastest_entry(m);
        settle(m, fast ? fast->cfg : cfg, MOLD_WHY_BUDGET);
        return true;
    }
    if (m->phase == MOLD_SIZE && guarded(m)) {
        const struct mold_entry *best = best_entry(m);
        if (m->cooldown > 0)
            m->cooldown--;
        else if (e->count == 1 && e != best && !tied(m, time, mold_entry_median(best)))
            m->cooldown = MOLD_COOLDOWN; /* a first measurement that lost */
        if (m->cooldown > 0) {
            m->next = best->cfg;
            return true;
        }
    }
    advance(m);
    return true;
}

double mold_cutoff(const struct mold *m)
{
    if ((m->phase != MOLD_SIZE && m->phase != MOLD_STEAL) || m->next.ngroups >= m->ngroups ||
        !guarded(m))
        return 0;
    const struct mold_entry *best = best_entry(m);
    if (!best)
        return 0;
    double margin = mold_noise(m);
    if (margin < MOLD_CUTOFF_MARGIN)
        margin = MOLD_CUTOFF_MARGIN;
    return mold_entry_median(best) * (1 + margin);
}

bool mold_projects_past(double elapsed_s, unsigned long done, unsigned long total,
                        unsigned workers, double cutoff_s, double *projected_s)
{
    if (done < 2 || done >= total || (double)done < MOLD_PROJECT_SHARE * (double)total)
        return false;
    double projected = elapsed_s * (double)total / ((double)done + 0.5 * workers);
    if (projected <= cutoff_s)
        return false;
    *projected_s = projected;
    return true;
}

unsigned mold_groups(const struct mold *m, struct mold_config cfg, unsigned *out)
{
    unsigned k = cfg.ngroups < m->ngroups ? cfg.ngroups : m->ngroups;
    if (k == m->ngroups || !m->ranked) {
        for (unsigned g = 0; g < k; g++)
            out[g] = g;
        return k;
    }
    memcpy(out, m->rank, k * sizeof *out);
    qsort(out, k, sizeof *out, cmp_unsigned);
    return k;
}

void mold_explain(const struct mold *m, char *buf, unsigned long size)
{
    static const char *const settled_why[] = {
        [MOLD_WHY_NONE] = "settled",
        [MOLD_WHY_ONLY] = "settled: one group, nothing to choose from",
        [MOLD_WHY_SEARCH] = "settled: the search ended",
        [MOLD_WHY_SHORT] = "settled without exploring: runs shorter than the exploration threshold",
        [MOLD_WHY_BUDGET] = "settled on the fastest measured: the exploration's run budget was spent",
    };
    const struct mold_entry *all = entry_find(m, sized(m, m->ngroups));
    unsigned warm = all ? all->count : 0;
    switch (m->phase) {
    case MOLD_FIXED:
        snprintf(buf, size, "fixed: the numa mode runs every group");
        return;
    case MOLD_SETTLED:
        snprintf(buf, size, "%s%s%s", settled_why[m->why],
                 m->overruled ? " (the search's choice was slower than the fastest measured)" : "",
                 m->recheck_won ? " (every group won a later re-check of the choice)" : "");
        return;
    case MOLD_CONFIRM:
        snprintf(buf, size, "exploring: one run of every group to confirm the choice of %u "
                 "(run %u of at most %u)", m->chosen.ngroups, m->epoch_runs + 1, MOLD_EPOCH_RUNS);
        return;
    case MOLD_STEAL:
        snprintf(buf, size, "exploring: trying full stealing on %u groups (run %u of at most %u)",
                 m->chosen.ngroups, m->epoch_runs, MOLD_EPOCH_RUNS);
        return;
    case MOLD_SIZE:
        break;
    }
    if (warm < m->warmup)
        snprintf(buf, size, "exploring: warming up on every group (%u of %u runs)", warm,
                 m->warmup);
    else if (m->cooldown)
        snprintf(buf, size, "exploring: %u runs of the best so far after a losing run "
                 "(run %u of at most %u)", m->cooldown, m->epoch_runs, MOLD_EPOCH_RUNS);
    else
        snprintf(buf, size, "exploring: searching the number of groups, next %u "
                 "(run %u of at most %u)", m->next.ngroups, m->epoch_runs, MOLD_EPOCH_RUNS);
}
