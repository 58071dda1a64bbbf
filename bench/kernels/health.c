/* health.c - a health-system simulation in the style of BOTS health: a tree of villages, each with a hospital; every time step a task per child village, a taskwait, then the village's own patient lists. */
#include "kernel.h"
#include <stdbool.h>
#include <stdint.h>

/*
 * The villages form a complete tree of branching BRANCH and --n levels.
 * Each step, a village first simulates its children (a task each, then a
 * taskwait), then takes in the patients they sent up, then moves its own
 * patients along: those in treatment count down and leave cured; those
 * being assessed count down and are then either treated here or, with
 * probability 1/10 (and never at the root), sent up to the parent's
 * hospital; waiting ones start assessment while the hospital has free
 * staff; finally each inhabitant falls ill with probability 1/50 and joins
 * the waiting list.  Every village draws from its own random state and
 * touches only its own lists, and a parent reads its children's outgoing
 * lists after the taskwait, in child order: the result is the same on
 * every thread count and runtime.  The work per village and step is a few
 * microseconds, and the tree is re-traversed every step: many short tasks
 * and taskwaits, as in BOTS health.
 */
#define BRANCH 4
#define POPULATION 24    /* inhabitants of each village */
#define STAFF 4          /* patients a hospital assesses at once */
#define ASSESS_STEPS 3   /* steps an assessment takes */
#define TREAT_STEPS 10   /* steps a treatment takes */
#define MAX_LEVELS 9

/* A patient: where it came from and how far it got. */
struct patient {
    unsigned home;  /* the village it lives in */
    unsigned left;  /* steps left in its current stage */
    unsigned hops;  /* hospitals it was sent up through */
};

/* A growable list of patients. */
struct plist {
    struct patient *p; /* the patients */
    unsigned n, cap;   /* how many, room for */
};

/* A village and its hospital. */
struct village {
    struct village *child[BRANCH]; /* children (NULL at the leaves) */
    uint64_t rng;                  /* its own random state */
    unsigned id;                   /* its number, breadth-first from the root 0 */
    bool root;                     /* the tree's root: sends nobody up */
    struct plist waiting, assess, inside; /* the hospital's three stages */
    struct plist up;               /* patients sent up this step, for the parent */
    long cured, hops;              /* patients cured here, and their hops summed */
};

static struct village *villages; /* every village, breadth-first */
static long nvillages;
static long steps;               /* simulated steps per repetition (--reps counts runs) */

static void plist_add(struct plist *l, struct patient p)
{
    if (l->n == l->cap) {
        unsigned cap = l->cap ? 2 * l->cap : 8;
        struct patient *grown = realloc(l->p, cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "health: out of memory\n");
            exit(2);
        }
        l->p = grown;
        l->cap = cap;
    }
    l->p[l->n++] = p;
}

/* A draw in [0, 1) from the village's xorshift state. */
static double draw(struct village *v)
{
    v->rng ^= v->rng << 13;
    v->rng ^= v->rng >> 7;
    v->rng ^= v->rng << 17;
    return (double)(v->rng >> 11) * (1.0 / 9007199254740992.0);
}

/* One step of village v's own hospital, after its children's step. */
static void step_hospital(struct village *v)
{
    for (int c = 0; c < BRANCH && v->child[c]; c++) { /* patients sent up to us */
        struct plist *up = &v->child[c]->up;
        for (unsigned i = 0; i < up->n; i++) {
            struct patient p = up->p[i];
            p.hops++;
            plist_add(&v->waiting, p);
        }
        up->n = 0;
    }
    unsigned keep = 0; /* treatment: count down, leave cured */
    for (unsigned i = 0; i < v->inside.n; i++) {
        struct patient p = v->inside.p[i];
        if (--p.left == 0) {
            v->cured++;
            v->hops += p.hops;
        } else {
            v->inside.p[keep++] = p;
        }
    }
    v->inside.n = keep;
    keep = 0; /* assessment: count down, then treat here or send up */
    for (unsigned i = 0; i < v->assess.n; i++) {
        struct patient p = v->assess.p[i];
        if (--p.left > 0) {
            v->assess.p[keep++] = p;
        } else if (!v->root && draw(v) < 0.1) {
            plist_add(&v->up, p);
        } else {
            p.left = TREAT_STEPS;
            plist_add(&v->inside, p);
        }
    }
    v->assess.n = keep;
    unsigned start = 0; /* waiting: assessed in arrival order while staff is free */
    while (start < v->waiting.n && v->assess.n < STAFF) {
        struct patient p = v->waiting.p[start++];
        p.left = ASSESS_STEPS;
        plist_add(&v->assess, p);
    }
    memmove(v->waiting.p, v->waiting.p + start, (v->waiting.n - start) * sizeof *v->waiting.p);
    v->waiting.n -= start;
    for (unsigned k = 0; k < POPULATION; k++) /* new patients */
        if (draw(v) < 0.02)
            plist_add(&v->waiting, (struct patient){v->id, 0, 0});
}

static void step_village(struct village *v)
{
    for (int c = 0; c < BRANCH && v->child[c]; c++) {
        struct village *child = v->child[c];
#pragma omp task firstprivate(child)
        step_village(child);
    }
#pragma omp taskwait
    step_hospital(v);
}

/* (Re)starts every village: empty lists, the same random states. */
static void reset(void)
{
    for (long i = 0; i < nvillages; i++) {
        struct village *v = &villages[i];
        v->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1) | 1u;
        v->waiting.n = v->assess.n = v->inside.n = v->up.n = 0;
        v->cured = v->hops = 0;
    }
}

/* Cured patients and their hops, summed over the villages, as one number. */
static double summary(void)
{
    long cured = 0, hops = 0, still = 0;
    for (long i = 0; i < nvillages; i++) {
        cured += villages[i].cured;
        hops += villages[i].hops;
        still += villages[i].waiting.n + villages[i].assess.n + villages[i].inside.n;
    }
    return (double)cured * 1e6 + (double)hops * 10 + (double)still;
}

static void simulate(void)
{
    reset();
    for (long s = 0; s < steps; s++)
        step_village(&villages[0]);
}

static void body(void)
{
    for (int r = 0; r < kopt.reps; r++)
        simulate();
}

int main(int argc, char **argv)
{
    kernel_args(argc, argv, "health", "task", 6, 1);
    if (kopt.n > MAX_LEVELS) {
        fprintf(stderr, "health: --n (levels) must be <= %d\n", MAX_LEVELS);
        return 2;
    }
    steps = 100;
    nvillages = 0;
    for (long level = 0, width = 1; level < kopt.n; level++, width *= BRANCH)
        nvillages += width;
    villages = calloc((size_t)nvillages, sizeof *villages);
    if (!villages) {
        fprintf(stderr, "health: out of memory\n");
        return 2;
    }
    for (long i = 0; i < nvillages; i++) {
        villages[i].id = (unsigned)i;
        villages[i].root = i == 0;
        for (int c = 0; c < BRANCH; c++) {
            long child = BRANCH * i + 1 + c;
            villages[i].child[c] = child < nvillages ? &villages[child] : NULL;
        }
    }
    double t = kernel_time(body);
    double got = summary();
    simulate(); /* the reference: the same run outside any parallel region */
    return kernel_result(t, got, summary(), 0.0);
}
