/* loop_auto.c — schedule(auto)'s warm-up, bounded trial, choice and drift watch (pure, see loop_auto.h). */
#include "sched/loop_auto.h"

#include "sched/samples.h"

const char *loop_cand_name(enum loop_cand c)
{
    static const char *const names[LOOP_NCAND] = {"static", "adaptive", "fac2", "af", "guided"};
    return (unsigned)c < LOOP_NCAND ? names[c] : "?";
}

enum loop_cand loop_auto_next(const struct loop_auto *a)
{
    if (a->trying)
        return (enum loop_cand)a->cand;
    return a->settled ? (enum loop_cand)a->choice : LOOP_CAND_ADAPTIVE;
}

static void start_trial(struct loop_auto *a)
{
    bool again = a->trials > 0;
    a->trials++;
    a->trying = true;
    a->pass = 0;
    for (unsigned c = 0; c < LOOP_NCAND; c++) {
        a->n[c] = 0;
        a->cut[c] = again && a->out[c];
    }
    /* The first candidate not left out (the last choice never is). */
    a->cand = 0;
    while (a->cand + 1 < LOOP_NCAND && a->cut[a->cand])
        a->cand++;
}

/* The lowest first sample of the trial so far (0: none). */
static double best_first(const struct loop_auto *a)
{
    double best = 0;
    for (unsigned c = 0; c < LOOP_NCAND; c++)
        if (a->n[c] > 0 && (best == 0 || a->t[c][0] < best))
            best = a->t[c][0];
    return best;
}

static void decide(struct loop_auto *a)
{
    unsigned win = LOOP_CAND_ADAPTIVE;
    double win_med = 0, noise = LOOP_AUTO_NOISE_FLOOR;
    for (unsigned c = 0; c < LOOP_NCAND; c++) {
        if (a->n[c] == 0)
            continue;
        double med = samples_median(a->t[c], a->n[c]);
        if (win_med == 0 || med < win_med) {
            win = c;
            win_med = med;
        }
        double s = samples_spread(a->t[c], a->n[c]);
        if (s > noise)
            noise = s;
    }
    for (unsigned c = 0; c < LOOP_NCAND; c++)
        a->out[c] = a->n[c] == 0 || samples_median(a->t[c], a->n[c]) > LOOP_AUTO_CUT * win_med;
    a->trying = false;
    a->settled = true;
    a->choice = win;
    a->ref = win_med;
    a->noise = noise;
    a->drifted = 0;
}

/* The trial's next candidate after a->cand: the next one not cut in this
 * pass, else the first of the next pass; decides after the last pass. */
static void trial_advance(struct loop_auto *a)
{
    for (;;) {
        a->cand++;
        if (a->cand >= LOOP_NCAND) {
            a->cand = 0;
            if (++a->pass >= LOOP_AUTO_SAMPLES) {
                decide(a);
                return;
            }
        }
        if (!a->cut[a->cand])
            return;
    }
}

void loop_auto_record(struct loop_auto *a, enum loop_cand cand, double ns)
{
    a->calls++;
    if (a->trying) {
        if ((unsigned)cand != a->cand)
            return;
        if (a->pass == 0) {
            double best = best_first(a);
            a->t[cand][0] = ns;
            a->n[cand] = 1;
            if (best > 0 && ns > LOOP_AUTO_CUT * best)
                a->cut[cand] = true;
        } else if (a->n[cand] < LOOP_AUTO_SAMPLES) {
            a->t[cand][a->n[cand]++] = ns;
        }
        trial_advance(a);
        return;
    }
    if (!a->settled) {
        if (a->calls >= LOOP_AUTO_WARMUP)
            start_trial(a);
        return;
    }
    if ((unsigned)cand != a->choice)
        return;
    if (samples_drift(&a->drifted, ns, a->ref * (1 + a->noise), LOOP_AUTO_DRIFT_RUNS) &&
        a->trials < LOOP_AUTO_MAX_TRIALS)
        start_trial(a);
}
