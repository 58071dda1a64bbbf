// ilan_moldability.c - moldability in action: a taskloop whose iterations
// contend on one shared cache line is run 40 times; in the ilan mode the
// runtime must explore all groups and then a single group (one worker on
// this 2-core machine) and settle on one of them, in the numa mode explore
// nothing, and in every mode the result is exact. Which configuration wins
// rests on measured times, so it is not asserted here: the policy's choice
// from given times is tested in tests/unit/test_mold.c. The program runs
// itself with ILAN_REPORT set and reads the report its child wrote.
// ilan-test: threads=2 modes=ilan,numa,ws
#include "child_report.h"

#define N 20000
#define REPS 40

/* Four counters on one cache line: every iteration's update moves the line. */
static struct {
    _Alignas(64) long v[4];
} shared;

/* The contended taskloop, REPS times; checks the sums. */
static int contend(void)
{
#pragma omp parallel
#pragma omp single
    for (int rep = 0; rep < REPS; rep++) {
#pragma omp taskloop
        for (long i = 0; i < N; i++) {
            long x = i;
            for (int k = 0; k < 8; k++) /* a little private work */
                x = x * 2654435761u + 1;
            __atomic_add_fetch(&shared.v[i & 3], 1 + (x & 0), __ATOMIC_RELAXED);
        }
    }
    for (int c = 0; c < 4; c++)
        CHECK(shared.v[c] == (long)REPS * N / 4, "counter %d is %ld, expected %ld", c, shared.v[c],
              (long)REPS * N / 4);
    return 0;
}

/* The report's entry for contend's taskloop, from its "symbol" line on. */
static const char *find_entry(const char *json)
{
    const char *e = strstr(json, "\"symbol\": \"contend._omp_fn");
    CHECK(e != NULL, "the report has no taskloop of contend():\n%s", json);
    return e;
}

/* Runs the contended loop in a child with ILAN_REPORT set; returns the
 * report it wrote (static storage). */
static const char *run_child(void)
{
    return test_child_report("child", NULL, "moldability");
}

/* Whether the report entry e lists a configuration of `workers` workers
 * measured in the first exploration. */
static int measured(const char *e, int workers)
{
    char want[64];
    snprintf(want, sizeof want, "\"workers\": %d, \"steal\": \"strict\", \"exploration\": 1,",
             workers);
    const char *chosen = strstr(e, "\"chosen\":");
    const char *hit = strstr(e, want);
    return hit && chosen && hit < chosen;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0)
        return contend();
    const char *mode = getenv("ILAN_TASKLOOP");
    char want[64];
    snprintf(want, sizeof want, "\"executions\": %d,", REPS);
    const char *json = run_child();
    if (mode && strcmp(mode, "ws") == 0) {
        CHECK(strstr(json, "\"mode\": \"ws\"") && strstr(json, "\"taskloops\": [\n  ]"),
              "ws mode records no taskloop:\n%s", json);
        return 0;
    }
    const char *e = find_entry(json);
    CHECK(strstr(e, want) != NULL, "expected %s in:\n%s", want, e);
    if (mode && strcmp(mode, "numa") == 0) {
        CHECK(strstr(e, "\"state\": \"fixed\"") && strstr(e, "\"chosen\": null"),
              "numa mode explores nothing:\n%s", e);
        return 0;
    }
    /* ilan: every group first, then one, then a choice. A choice that
     * drifted later (a slow machine phase) starts a second exploration,
     * which also proves the first one settled. */
    CHECK(measured(e, 2) && measured(e, 1), "ilan did not explore two workers and one:\n%s", e);
    int settled = strstr(e, "\"state\": \"settled\"") && !strstr(e, "\"chosen\": null");
    CHECK(settled || !strstr(e, "\"explorations\": 1,"), "ilan did not settle in %d runs:\n%s",
          REPS, e);
    return 0;
}
