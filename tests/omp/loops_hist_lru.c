// loops_hist_lru.c - the table of loop identities is bounded by
// ILAN_HISTORY_MAX and forgets the least recently used record first: with a
// bound of 2, five loop identities (one loop site, five iteration counts)
// run in turn, the first one again at the end; the report keeps the last two
// used (the first count and the fifth), says 4 records were forgotten and
// none refused. The program runs itself with ILAN_REPORT and reads it.
// ilan-test: threads=1,2,3
#include "child_report.h"
#include <omp.h>
#include <stdbool.h>

static const int counts[] = {101, 202, 303, 404, 505, 101};
#define NRUNS (int)(sizeof counts / sizeof counts[0])

static int hits[1000];

static void kernel(void)
{
    for (int r = 0; r < NRUNS; r++) {
        int n = counts[r];
#pragma omp parallel for schedule(dynamic)
        for (int i = 0; i < n; i++)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        for (int i = 0; i < n; i++) {
            CHECK(hits[i] == 1, "n=%d: iteration %d ran %d times", n, i, hits[i]);
            hits[i] = 0;
        }
    }
}

/* The value of the first `key` (a number) at or after p; -1 when none. */
static long number_after(const char *p, const char *key)
{
    const char *q = strstr(p, key);
    return q ? atol(q + strlen(key)) : -1;
}

int main(void)
{
    if (getenv("LRU_CHILD")) {
        kernel();
        return 0;
    }
    const char *text = test_child_report(
        NULL, (const char *[]){"ILAN_HISTORY_MAX=2", "LRU_CHILD=1", NULL}, "lru");
    const char *sec = strstr(text, "\"loops\": [");
    CHECK(sec != NULL, "no loops section");
    /* The records kept: iteration counts 505 and 101 (its second record:
     * the first was forgotten when 303 came), one call each. */
    int kept = 0;
    bool saw101 = false, saw505 = false;
    for (const char *p = strstr(sec, "\"iterations\": "); p;
         p = strstr(p + 1, "\"iterations\": ")) {
        long it = atol(p + strlen("\"iterations\": "));
        saw101 |= it == 101;
        saw505 |= it == 505;
        CHECK(number_after(p, "\"calls\": ") == 1, "loop of %ld: calls", it);
        kept++;
    }
    CHECK(kept == 2 && saw101 && saw505, "%d records kept (101: %d, 505: %d)", kept, saw101,
          saw505);
    CHECK(number_after(sec, "\"loops_forgotten\": ") == 4, "forgotten %ld",
          number_after(sec, "\"loops_forgotten\": "));
    CHECK(number_after(sec, "\"loops_dropped\": ") == 0, "dropped %ld",
          number_after(sec, "\"loops_dropped\": "));
    return 0;
}
