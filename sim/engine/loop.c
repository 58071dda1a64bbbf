/* loop.c — one execution of a worksharing loop in the simulated machine: static blocks, shared-counter schedules (dynamic, guided, FAC2, TSS, AF) and per-thread ranges with steal-half (adaptive, static_steal), chunk sizes from src/sched/loop_chunks.c. */
#include "loop.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The adaptive schedule's owner aims at chunks of this many ns, as the
 * runtime does (core/ws_steal.c, STEAL_POP_TARGET_NS). */
#define POP_TARGET_NS 2000

/* A loop execution in progress. */
struct loop_run {
    struct world *w;              /* the machine */
    const struct sim_policy *fns; /* the policy functions */
    const struct sim_op *op;      /* the construct */
    unsigned long n;              /* iterations */
    unsigned long c;              /* chunk clause (at least 1) */
    /* shared-counter schedules */
    unsigned long claimed;        /* iterations handed out */
    unsigned long claims;         /* chunks handed out */
    double counter_free;          /* when the counter's line is free for the next claim */
    unsigned counter_node;        /* node of the last claimer */
    struct fac_cursor fac;        /* FAC2's batch walk */
    double *af_mean, *af_m2;      /* [T] AF: time per iteration, Welford */
    double *af_var;               /* [T] AF: its variance, af_m2 / af_count */
    unsigned *af_count;           /* [T] AF: chunks timed */
    /* adaptive and static_steal: one range per thread */
    unsigned long *next, *end;    /* [T] */
    bool *has_work;               /* [T] the range's has-work bit (core/ws_steal.h) */
    bool *every;                  /* [T] the thief's pass reads every range, bits or not */
    iter_ull *mult;               /* [T] the owner's chunk multiplier */
    struct loop_victims *victims; /* [T] each thread's victims */
    unsigned *pass;               /* [T] a thief's next look in its pass (0: a new pass) */
    uint64_t *pass_rnd;           /* [T] the random start of its pass's segments */
    /* static */
    unsigned long *static_k;      /* [T] chunks of its round-robin share taken */
    /* adaptive: what was timed of each starting block (core/ws_steal.c) */
    iter_ull *first;              /* [T + 1] each block's start at the loop's start; [T] = n */
    iter_ull *ran;                /* [T] iterations of the block timed, whoever ran them */
    uint64_t *ran_ns;             /* [T] the time they took */
    unsigned *origin;             /* [T] the block thread t's range comes from */
    bool *timing;                 /* [T] thread t's range is being timed... */
    double *range_t;              /* [T] ...since then (-1: not begun) */
    iter_ull *range_lo;           /* [T] ...from this iteration */
};

static void start(struct world *w, unsigned t, const struct loop_run *r, unsigned long lo,
                  unsigned long hi, double at)
{
    struct sim_thread *th = &w->threads[t];
    th->piece = (struct piece){r->op, r->n, lo, hi, -1, -1, 0};
    th->state = TH_STARTING;
    th->at = at;
}

/* One claim from the shared counter by thread t at `now`: the counter's
 * line serves one claim at a time. Returns when the claim is done. */
static double claim(struct loop_run *r, unsigned t, double now)
{
    struct world *w = r->w;
    double begin = now > r->counter_free ? now : r->counter_free;
    double done = begin + w->p->claim_ns * world_far(w, r->counter_node, w->threads[t].node);
    r->counter_free = done;
    r->counter_node = w->threads[t].node;
    return done;
}

/* The size of the next chunk of a shared-counter schedule for thread t. */
static bool shared_chunk(struct loop_run *r, unsigned t, unsigned long *lo, unsigned long *hi)
{
    unsigned T = r->w->nthreads;
    unsigned long rem = r->n - r->claimed;
    if (rem == 0)
        return false;
    iter_ull size = r->c;
    switch (r->op->schedule) {
    case SCHED_GUIDED: /* libgomp: a share of what is left per thread, at least c */
        size = (rem + T - 1) / T;
        if (size < r->c)
            size = r->c;
        break;
    case SCHED_FAC2: {
        iter_ull a, b;
        if (!loop_fac2_chunk(r->n, T, r->c, r->claims, &r->fac, &a, &b))
            return false;
        size = b - a;
        break;
    }
    case SCHED_TSS: {
        iter_ull a, b;
        if (!loop_tss_chunk(r->n, T, r->c, r->claims, &a, &b))
            size = rem;
        else
            size = b - a;
        break;
    }
    case SCHED_AF:
        size = loop_af_size(rem, T, r->c, t, r->af_mean, r->af_var, r->af_count);
        break;
    default:
        break;
    }
    if (size > rem || size == 0)
        size = rem;
    *lo = r->claimed;
    *hi = r->claimed + size;
    r->claimed += size;
    r->claims++;
    return true;
}

static void shared_decide(struct world *w, unsigned t, void *ctx)
{
    struct loop_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    unsigned long lo, hi;
    if (!shared_chunk(r, t, &lo, &hi)) {
        th->state = TH_ASLEEP;
        return;
    }
    start(w, t, r, lo, hi, claim(r, t, th->at));
}

static void af_finished(struct world *w, unsigned t, double now, void *ctx)
{
    struct loop_run *r = ctx;
    const struct sim_thread *th = &w->threads[t];
    if (r->op->schedule == SCHED_AF) {
        loop_af_sample(&r->af_mean[t], &r->af_m2[t], &r->af_count[t], th->piece.hi - th->piece.lo,
                       now - th->started);
        r->af_var[t] = r->af_m2[t] / r->af_count[t];
    }
}

static void static_decide(struct world *w, unsigned t, void *ctx)
{
    struct loop_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    unsigned T = w->nthreads;
    if (r->op->chunk == 0) { /* one block per thread */
        unsigned long lo = (unsigned long)((unsigned __int128)r->n * t / T);
        unsigned long hi = (unsigned long)((unsigned __int128)r->n * (t + 1) / T);
        if (r->static_k[t]++ || lo == hi) {
            th->state = TH_ASLEEP;
            return;
        }
        r->claims++;
        start(w, t, r, lo, hi, th->at);
        return;
    }
    unsigned long k = r->static_k[t]++; /* round-robin chunks of c */
    unsigned long lo = (k * T + t) * r->c;
    if (lo >= r->n) {
        th->state = TH_ASLEEP;
        return;
    }
    unsigned long hi = lo + r->c < r->n ? lo + r->c : r->n;
    r->claims++;
    start(w, t, r, lo, hi, th->at);
}

static void steal_decide(struct world *w, unsigned t, void *ctx)
{
    struct loop_run *r = ctx;
    struct sim_thread *th = &w->threads[t];
    const struct sim_params *p = w->p;
    double now = th->at;
    if (r->range_t[t] < 0) { /* its first pop: its block's timing begins */
        r->range_t[t] = now;
        r->timing[t] = true;
    }
    if (r->next[t] < r->end[t]) { /* the owner pops from the front */
        iter_ull size = r->fns->loop_pop_size(r->end[t] - r->next[t], r->c, r->mult[t]);
        unsigned long lo = r->next[t];
        r->next[t] += size;
        if (r->next[t] == r->end[t]) /* its last iterations: the bit goes */
            r->has_work[t] = false;
        r->claims++;
        start(w, t, r, lo, r->next[t], now + p->pop_ns);
        return;
    }
    if (r->timing[t]) { /* its range is done: what it ran of it, as the runtime times it */
        r->timing[t] = false;
        unsigned o = r->origin[t];
        r->ran[o] += r->end[t] > r->range_lo[t] ? r->end[t] - r->range_lo[t] : 0;
        r->ran_ns[o] += (uint64_t)(now - r->range_t[t]);
    }
    /* A thief: a pass over its victims in locality order, one look per
     * step, so that what it takes is claimed when it gets there. */
    const struct loop_victims *v = &r->victims[t];
    if (v->n == 0) { /* a team of one */
        th->state = TH_ASLEEP;
        return;
    }
    if (r->pass[t] == 0)
        r->pass_rnd[t] = steal_rand(&th->rng);
    /* Ranges whose bit is clear are passed over (the bitmap's line is read
     * by every thief and rarely written: taken as free), but in the pass
     * that reads every range before the thief gives up. */
    unsigned victim = loop_victim_at(v, r->pass[t], r->pass_rnd[t]);
    while (!r->every[t] && !r->has_work[victim] && r->pass[t] + 1 < v->n)
        victim = loop_victim_at(v, ++r->pass[t], r->pass_rnd[t]);
    double far = world_far(w, th->node, w->threads[victim].node);
    unsigned long rem = r->end[victim] - r->next[victim];
    if (rem == 0 || (!r->every[t] && !r->has_work[victim])) {
        bool looked = r->every[t] || r->has_work[victim];
        if (++r->pass[t] == v->n) { /* nothing: one pass over every range, then asleep */
            r->pass[t] = 0;
            if (r->every[t]) {
                r->every[t] = false;
                th->state = TH_ASLEEP;
                return;
            }
            r->every[t] = true;
        }
        th->at = now + (looked ? p->steal_fail_ns * far : 0);
        return;
    }
    /* in units of the thief's own pop, as core/ws_steal.c steals */
    iter_ull unit = r->fns->loop_pop_size(UINT64_MAX, r->c, r->mult[t]);
    iter_ull take = r->fns->loop_steal_size(rem, unit);
    r->end[victim] -= take;
    if (r->end[victim] == r->next[victim]) /* took it all: the victim's bit goes */
        r->has_work[victim] = false;
    r->pass[t] = 0;
    r->every[t] = false;
    th->steals++;
    th->steals_remote += far > 1;
    /* The stolen range becomes the thief's own but for its first pop,
     * which it runs at once (core/ws_steal.c, install): no other thief can
     * take that back before it starts. That pop is an owner's pop of what
     * was stolen (at most half of it), as in the runtime. */
    /* It pops what it stole with its victim's multiplier, learnt on those
     * iterations (core/ws_steal.c). */
    r->mult[t] = r->mult[victim];
    unsigned long lo = r->end[victim], first = r->fns->loop_pop_size(take, r->c, r->mult[t]);
    r->next[t] = lo + first;
    r->end[t] = lo + take;
    r->has_work[t] = r->end[t] > r->next[t];
    r->origin[t] = r->origin[victim];
    r->timing[t] = true;
    r->range_t[t] = now + p->steal_ns * far;
    r->range_lo[t] = lo;
    r->claims++;
    start(w, t, r, lo, lo + first, now + p->steal_ns * far);
}

/* The owner's multiplier follows the time of its last pop, as the
 * runtime's does (core/ws_steal.c: the time per pop, not per iteration). */
static void steal_finished(struct world *w, unsigned t, double now, void *ctx)
{
    struct loop_run *r = ctx;
    const struct sim_thread *th = &w->threads[t];
    if (th->piece.hi > th->piece.lo)
        r->mult[t] = r->fns->loop_pop_mult(r->mult[t], (uint64_t)(now - th->started), POP_TARGET_NS);
}

/* The split memo of op's construct for n iterations (a free or the
 * oldest slot taken over when new). */
static unsigned split_slot(struct split_memo *m, unsigned long n)
{
    for (unsigned k = 0; k < SPLIT_SIZES; k++)
        if (m->n[k] == n)
            return k;
    for (unsigned k = 0; k < SPLIT_SIZES; k++)
        if (m->n[k] == 0) {
            m->n[k] = n;
            return k;
        }
    free(m->split[0]); /* forget the oldest */
    memmove(m->n, m->n + 1, (SPLIT_SIZES - 1) * sizeof m->n[0]);
    memmove(m->split, m->split + 1, (SPLIT_SIZES - 1) * sizeof m->split[0]);
    memmove(m->learnt, m->learnt + 1, (SPLIT_SIZES - 1) * sizeof m->learnt[0]);
    memmove(m->skip, m->skip + 1, (SPLIT_SIZES - 1) * sizeof m->skip[0]);
    m->n[SPLIT_SIZES - 1] = n;
    m->split[SPLIT_SIZES - 1] = NULL;
    m->learnt[SPLIT_SIZES - 1] = false;
    m->skip[SPLIT_SIZES - 1] = 0;
    return SPLIT_SIZES - 1;
}

/* After an adaptive execution that took `ns`, as construct/loop_pick.c
 * learn_split: the split the next one of the same size starts from; a
 * short one sets the next LOOP_SPLIT_SKIP up without the loop's record. */
static void learn_split(struct loop_run *r, struct split_memo *m, unsigned k, double ns)
{
    unsigned T = r->w->nthreads;
    if (ns < LOOP_SPLIT_MIN_NS) {
        m->skip[k] = LOOP_SPLIT_SKIP;
        return;
    }
    if (!m->split[k] && !(m->split[k] = calloc((size_t)T + 1, sizeof *m->split[k]))) {
        fprintf(stderr, "ilan-sim-engine: out of memory for a loop's split\n");
        exit(1);
    }
    struct loop_split_obs o = {r->n, T, r->first, r->ran, r->ran_ns};
    m->learnt[k] = r->fns->loop_split_next(&o, m->learnt[k], m->split[k]);
}

double loop_barrier_ns(const struct world *w)
{
    unsigned levels = 0;
    while ((1u << levels) < w->nthreads)
        levels++;
    return w->p->barrier_ns * levels;
}

double loop_run(struct world *w, const struct sim_policy *fns, const struct sim_op *op,
                unsigned long n, double t0, unsigned long *chunks)
{
    unsigned T = w->nthreads, G = w->groups.ngroups;
    struct loop_run r = {.w = w, .fns = fns, .op = op, .n = n, .c = op->chunk ? op->chunk : 1,
                         .counter_free = t0, .counter_node = w->threads[0].node};
    /* Per-thread state on the heap: the victims' orders grow as T^2. */
    r.af_mean = calloc(T, sizeof *r.af_mean);
    r.af_m2 = calloc(T, sizeof *r.af_m2);
    r.af_var = calloc(T, sizeof *r.af_var);
    r.af_count = calloc(T, sizeof *r.af_count);
    r.static_k = calloc(T, sizeof *r.static_k);
    r.next = calloc(T, sizeof *r.next);
    r.end = calloc(T, sizeof *r.end);
    r.has_work = calloc(T, sizeof *r.has_work);
    r.every = calloc(T, sizeof *r.every);
    r.mult = calloc(T, sizeof *r.mult);
    r.pass = calloc(T, sizeof *r.pass);
    r.pass_rnd = calloc(T, sizeof *r.pass_rnd);
    r.victims = calloc(T, sizeof *r.victims);
    r.first = calloc((size_t)T + 1, sizeof *r.first);
    r.ran = calloc(T, sizeof *r.ran);
    r.ran_ns = calloc(T, sizeof *r.ran_ns);
    r.origin = calloc(T, sizeof *r.origin);
    r.timing = calloc(T, sizeof *r.timing);
    r.range_t = calloc(T, sizeof *r.range_t);
    r.range_lo = calloc(T, sizeof *r.range_lo);
    unsigned *order = calloc((size_t)T * (T > 1 ? T - 1 : 1), sizeof *order);
    unsigned *seg_end = calloc((size_t)T * G, sizeof *seg_end);
    unsigned *group_of = calloc((size_t)T * T, sizeof *group_of);
    int *gdist = calloc((size_t)G * G, sizeof *gdist);
    if (!r.af_mean || !r.af_m2 || !r.af_var || !r.af_count || !r.static_k || !r.next || !r.end ||
        !r.has_work || !r.every || !r.mult || !r.pass || !r.pass_rnd || !r.victims || !r.first ||
        !r.ran || !r.ran_ns || !r.origin || !r.timing || !r.range_t || !r.range_lo || !order ||
        !seg_end || !group_of ||
        !gdist) {
        fprintf(stderr, "ilan-sim-engine: out of memory for a loop of %u threads\n", T);
        exit(1);
    }
    for (unsigned t = 0; t < T; t++) {
        w->threads[t].state = TH_READY;
        w->threads[t].at = t0;
        w->threads[t].last_end = 0;
    }
    struct phase_rules rules = {shared_decide, af_finished, &r};
    struct split_memo *learn = NULL; /* adaptive: its construct's learnt splits */
    unsigned slot = 0;               /* ...the one of this size */
    if (op->schedule == SCHED_STATIC) {
        rules = (struct phase_rules){static_decide, NULL, &r};
    } else if (op->schedule == SCHED_ADAPTIVE || op->schedule == SCHED_STATIC_STEAL) {
        world_group_distances(w, gdist);
        /* adaptive: from the split learnt for this construct and size, if
         * any (construct/loop_pick.c); static_steal never learns */
        learn = op->schedule == SCHED_ADAPTIVE && T > 1 ? &w->splits[op->construct] : NULL;
        if (learn) {
            slot = split_slot(learn, n);
            if (learn->skip[slot]) { /* without the record: static, nothing learnt */
                learn->skip[slot]--;
                learn = NULL;
            }
        }
        const iter_ull *from = learn && learn->learnt[slot] ? learn->split[slot] : NULL;
        for (unsigned t = 0; t < T; t++) { /* each thread's share, then its victims */
            r.next[t] = from ? from[t] : (unsigned long)((unsigned __int128)n * t / T);
            r.end[t] = from ? from[t + 1] : (unsigned long)((unsigned __int128)n * (t + 1) / T);
            r.first[t] = r.next[t];
            r.origin[t] = t;
            r.range_t[t] = -1;
            r.range_lo[t] = r.next[t];
            r.mult[t] = 1;
            r.has_work[t] = r.next[t] < r.end[t];
            r.victims[t] = (struct loop_victims){.order = order + (size_t)t * (T > 1 ? T - 1 : 1),
                                                 .seg_end = seg_end + (size_t)t * G,
                                                 .group_of = group_of + (size_t)t * T};
            loop_victims_build(t, T, w->groups.slot_group, G, gdist,
                               op->schedule == SCHED_STATIC_STEAL ? VICTIMS_FLAT
                                                                  : VICTIMS_BY_DISTANCE,
                               &r.victims[t]);
        }
        rules = (struct phase_rules){steal_decide, steal_finished, &r};
    }
    double last = world_run_phase(w, &rules, t0);
    *chunks = r.claims;
    if (learn) {
        r.first[T] = n;
        learn_split(&r, learn, slot, last - t0);
    }
    free(r.af_mean);
    free(r.af_m2);
    free(r.af_var);
    free(r.af_count);
    free(r.static_k);
    free(r.next);
    free(r.end);
    free(r.has_work);
    free(r.every);
    free(r.mult);
    free(r.pass);
    free(r.pass_rnd);
    free(r.victims);
    free(r.first);
    free(r.ran);
    free(r.ran_ns);
    free(r.origin);
    free(r.timing);
    free(r.range_t);
    free(r.range_lo);
    free(order);
    free(seg_end);
    free(group_of);
    free(gdist);
    return last + loop_barrier_ns(w);
}
