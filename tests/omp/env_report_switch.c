// env_report_switch.c - ILAN_REPORT=1 means "on": the report's summary goes
// to stderr at exit, as with ILAN_REPORT=stderr, not to a file named "1".
// ilan-test: threads=2
// ilan-test: env=ILAN_REPORT=1
// ilan-test: expect-output: ^ilan report: mode
#include "check.h"

int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    CHECK(n == 2, "a team of %d, want 2", n);
    return 0;
}
