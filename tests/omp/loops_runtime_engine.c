// loops_runtime_engine.c - which engine a schedule(runtime) loop runs on:
// OMP_SCHEDULE=dynamic[,c] (and nonmonotonic:dynamic, and omp_set_schedule's
// plain omp_sched_dynamic) runs on adaptive wherever the entry point allows a
// nonmonotonic schedule (OpenMP 5.x: dynamic without a modifier is
// nonmonotonic; gcc 12 emits GOMP_loop_maybe_nonmonotonic_runtime_start for
// plain schedule(runtime), GOMP_loop_nonmonotonic_runtime_start for
// nonmonotonic:runtime, GOMP_loop_start with sched 0 for a loop with a task
// reduction, the ull forms for unsigned long long); monotonic:dynamic,
// schedule(monotonic:runtime) (GOMP_loop_runtime_start) and ordered loops
// keep the shared counter ("dynamic"). Each case runs in a child with
// ILAN_REPORT: every loop of its report must name the expected schedule, and
// the child checks that every iteration ran exactly once.
// ilan-test: threads=1,2,3,8
#include "child_report.h"
#include <omp.h>

#define N 3001
#define REPS 20

/* One schedule(runtime) form per case; all check exactly-once. */
enum form { F_PLAIN, F_MONOTONIC, F_NONMONOTONIC, F_ORDERED, F_TASKRED, F_ULL, F_SET_PLAIN,
            F_SET_MONOTONIC };

static const struct {
    const char *sched; /* OMP_SCHEDULE ("" unset: the form sets it itself) */
    enum form form;    /* which loop */
    const char *want;  /* the report's "schedule" for every loop */
} cases[] = {
    {"dynamic", F_PLAIN, "adaptive"},
    {"dynamic,3", F_PLAIN, "adaptive"},
    {"nonmonotonic:dynamic,2", F_PLAIN, "adaptive"},
    {"monotonic:dynamic", F_PLAIN, "dynamic"},
    {"monotonic:dynamic,4", F_PLAIN, "dynamic"},
    {"dynamic", F_MONOTONIC, "dynamic"},
    {"dynamic", F_NONMONOTONIC, "adaptive"},
    {"dynamic", F_ORDERED, "dynamic"},
    {"nonmonotonic:dynamic", F_ORDERED, "dynamic"},
    {"dynamic,5", F_TASKRED, "adaptive"},
    {"dynamic", F_ULL, "adaptive"},
    {"monotonic:dynamic", F_ULL, "dynamic"},
    {"", F_SET_PLAIN, "adaptive"},
    {"", F_SET_MONOTONIC, "dynamic"},
    {"guided,2", F_PLAIN, "guided"},
    {"static", F_PLAIN, "static"},
};
#define NCASES (sizeof cases / sizeof cases[0])

static int hits[N];

static void check_once(const char *what)
{
    for (int i = 0; i < N; i++) {
        CHECK(hits[i] == 1, "%s: iteration %d ran %d times", what, i, hits[i]);
        hits[i] = 0;
    }
}

static void run_form(enum form f)
{
    for (int rep = 0; rep < REPS; rep++) {
        switch (f) {
        case F_PLAIN:
        case F_SET_PLAIN:
        case F_SET_MONOTONIC:
#pragma omp parallel for schedule(runtime)
            for (int i = 0; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            break;
        case F_MONOTONIC:
#pragma omp parallel for schedule(monotonic : runtime)
            for (int i = 0; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            break;
        case F_NONMONOTONIC:
#pragma omp parallel for schedule(nonmonotonic : runtime)
            for (int i = 0; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
            break;
        case F_ORDERED: {
            int next = 0;
#pragma omp parallel for schedule(runtime) ordered
            for (int i = 0; i < N; i++) {
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp ordered
                {
                    CHECK(next == i, "ordered: %d after %d", i, next - 1);
                    next++;
                }
            }
            break;
        }
        case F_TASKRED: {
            long sum = 0;
#pragma omp parallel
#pragma omp for schedule(runtime) reduction(task, + : sum)
            for (int i = 0; i < N; i++) {
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
                sum += i;
            }
            CHECK(sum == (long)N * (N - 1) / 2, "task reduction sum %ld", sum);
            break;
        }
        case F_ULL:
#pragma omp parallel for schedule(runtime)
            for (unsigned long long i = (1ULL << 63) - 7; i < (1ULL << 63) - 7 + N; i++)
                __atomic_add_fetch(&hits[i - ((1ULL << 63) - 7)], 1, __ATOMIC_RELAXED);
            break;
        }
        check_once("loop");
    }
}

/* Every "schedule": "NAME" of the report is want; at least one. */
static void check_report(const char *text, const char *want, const char *what)
{
    static const char key[] = "\"schedule\": \"";
    int loops = 0;
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        const char *name = p + strlen(key);
        CHECK(strncmp(name, want, strlen(want)) == 0 && name[strlen(want)] == '"',
              "%s: a loop ran on %.20s, want %s", what, name, want);
        loops++;
    }
    CHECK(loops > 0, "%s: no loop in the report", what);
}

static void run_case(unsigned c)
{
    char num[32], schedule[64], what[96];
    snprintf(num, sizeof num, "ENGINE_CASE=%u", c);
    snprintf(schedule, sizeof schedule, "OMP_SCHEDULE=%s", cases[c].sched);
    snprintf(what, sizeof what, "OMP_SCHEDULE=%s form %d", cases[c].sched, (int)cases[c].form);
    const char *text = test_child_report(
        NULL, (const char *[]){num, cases[c].sched[0] ? schedule : "OMP_SCHEDULE", NULL}, what);
    check_report(text, cases[c].want, what);
}

int main(void)
{
    const char *child = getenv("ENGINE_CASE");
    if (child) {
        unsigned c = (unsigned)atoi(child);
        CHECK(c < NCASES, "case %u", c);
        if (cases[c].form == F_SET_PLAIN)
            omp_set_schedule(omp_sched_dynamic, 3);
        else if (cases[c].form == F_SET_MONOTONIC)
            omp_set_schedule((omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 3);
        run_form(cases[c].form);
        return 0;
    }
    for (unsigned c = 0; c < NCASES; c++)
        run_case(c);
    return 0;
}
